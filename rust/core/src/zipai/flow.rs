//! Questions a flow engine asks about claims: 吃 with its 下比 obligations, 碰, 开舵/扫穿.

use serde::Serialize;

use super::card::{Card, CardCounts};
use super::group::{GroupKind, chi_shape};

/// One legal 吃 of card X: the group made with X and two hand cards, plus the 比 groups that must
/// be exposed with it (each remaining copy of X in hand placed in a 吃-type group of hand cards).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChiOption {
    pub group: [Card; 3],
    pub kind: GroupKind,
    pub bi: Vec<[Card; 3]>,
}

/// Every 吃-type group containing `x` whose other two cards come from `hand` (counts).
fn groups_with(hand: &CardCounts, x: Card, take_x: bool) -> Vec<[Card; 3]> {
    let mut out = Vec::new();
    let xi = usize::from(x.index());
    for a in 0..20u8 {
        for b in a..20u8 {
            let (ca, cb) = (Card::new_unchecked(a), Card::new_unchecked(b));
            let mut need = *hand;
            if take_x {
                if need[xi] == 0 {
                    continue;
                }
                need[xi] -= 1;
            }
            let (ia, ib) = (usize::from(a), usize::from(b));
            if need[ia] == 0 {
                continue;
            }
            need[ia] -= 1;
            if need[ib] == 0 {
                continue;
            }
            let mut g = [x, ca, cb];
            g.sort();
            if chi_shape(&g).is_some() && !out.contains(&g) {
                out.push(g);
            }
        }
    }
    out
}

fn remove(hand: &mut CardCounts, g: &[Card], skip_one: Option<Card>) -> bool {
    let mut skip = skip_one;
    for c in g {
        if skip == Some(*c) {
            skip = None;
            continue;
        }
        let i = usize::from(c.index());
        if hand[i] == 0 {
            return false;
        }
        hand[i] -= 1;
    }
    true
}

fn bi_sets(hand: &CardCounts, x: Card, acc: &mut Vec<[Card; 3]>, out: &mut Vec<Vec<[Card; 3]>>) {
    let xi = usize::from(x.index());
    if hand[xi] == 0 {
        let mut v = acc.clone();
        v.sort();
        if !out.contains(&v) {
            out.push(v);
        }
        return;
    }
    for g in groups_with(hand, x, true) {
        let mut h = *hand;
        if remove(&mut h, &g, None) {
            acc.push(g);
            bi_sets(&h, x, acc, out);
            acc.pop();
        }
    }
}

/// Legal 吃 of `x` by a player whose free hand cards are `hand` (counts, 坎 excluded: a 坎 can
/// never be broken). A 吃 whose leftover copies of `x` cannot all be placed (下比) is not legal.
pub fn chi_options(hand: &CardCounts, x: Card) -> Vec<ChiOption> {
    let mut out = Vec::new();
    for g in groups_with(hand, x, false) {
        let mut h = *hand;
        if !remove(&mut h, &g, Some(x)) {
            continue;
        }
        let mut sets = Vec::new();
        bi_sets(&h, x, &mut Vec::new(), &mut sets);
        for bi in sets {
            out.push(ChiOption {
                group: g,
                kind: chi_shape(&g).expect("checked"),
                bi,
            });
        }
    }
    out
}

/// Whether a player holding `hand` (free counts) could 碰 `x` (a concealed pair).
pub fn can_peng(hand: &CardCounts, x: Card) -> bool {
    hand[usize::from(x.index())] == 2
}
