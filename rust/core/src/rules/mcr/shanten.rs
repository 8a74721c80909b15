//! Shanten in the reference's conventions, for the pymahjonggb-compatible module
//! (`hupai.compat.MahjongGB`) only.
//!
//! The engine's shanten is [`crate::analysis`] (table-driven, at most four copies per kind). The
//! reference also lists *formal* useful tiles: a kind held four times counts as useful when the
//! hand is ready, i.e. a fifth copy is evaluated (mcr.md §9). The tables cannot represent five
//! copies, so this small exact search over count vectors, memoised per suit pattern, serves the
//! compat module; its results equal the reference on the fixtures and in the differential tests.

use crate::decompose::{KNITTED_PERMUTATIONS, knitted_tiles};
use crate::tile::{Counts, N_KINDS, Tile};

/// Which form(s) to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The minimum over every form allowed with the given melds.
    All,
    Regular,
    SevenPairs,
    ThirteenOrphans,
    HonorsAndKnitted,
    KnittedStraight,
}

const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Regular-form shanten of standing `c` needing `need` sets plus a pair: -1 = complete.
///
/// Each group (m, p, s, honours) is split independently into the reachable states (sets,
/// partial sets, pair) — memoised per group pattern — and the groups are then combined.
pub fn regular(c: &Counts, need: usize) -> i32 {
    let mut states: u64 = 1; // state (0, 0, no pair)
    for g in 0..4 {
        let n = if g == 3 { 7 } else { 9 };
        let mut key: u64 = u64::from(g == 3) << 40;
        for k in 0..n {
            key = key << 3 | u64::from(c[g * 9 + k].min(7));
        }
        if c[g * 9..g * 9 + n].iter().all(|&x| x == 0) {
            continue; // empty group
        }
        let gs = group_states(&c[g * 9..g * 9 + n], g < 3, key);
        states = merge(states, gs);
    }
    let mut best = 2 * need as i32;
    let mut m = states;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        let (ms, ts, p) = (i / 10, (i / 2) % 5, i % 2 == 1);
        best = best.min(eval(need, ms, ts, p));
    }
    best
}

#[inline]
fn state(m: usize, t: usize, p: bool) -> u64 {
    1u64 << ((m.min(4) * 5 + t.min(4)) * 2 + usize::from(p))
}

fn merge(a: u64, b: u64) -> u64 {
    let mut out = 0;
    let mut x = a;
    while x != 0 {
        let i = x.trailing_zeros() as usize;
        x &= x - 1;
        let mut y = b;
        while y != 0 {
            let j = y.trailing_zeros() as usize;
            y &= y - 1;
            let (m, t, p) = (
                i / 10 + j / 10,
                (i / 2) % 5 + (j / 2) % 5,
                (i % 2) + (j % 2),
            );
            // a second pair is a partial set
            out |= if p == 2 {
                state(m, t + 1, true)
            } else {
                state(m, t, p == 1)
            };
        }
    }
    out
}

fn group_states(c: &[u8], suited: bool, key: u64) -> u64 {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static MEMO: RefCell<HashMap<u64, u64>> = RefCell::new(HashMap::new());
    }
    if let Some(v) = MEMO.with(|m| m.borrow().get(&key).copied()) {
        return v;
    }
    let mut g = [0u8; 9];
    g[..c.len()].copy_from_slice(c);
    let mut out = 0u64;
    group_dfs(&mut g, suited, 0, 0, 0, false, &mut out);
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() > 1 << 16 {
            m.clear();
        }
        m.insert(key, out);
    });
    out
}

fn group_dfs(
    c: &mut [u8; 9],
    suited: bool,
    from: usize,
    m: usize,
    t: usize,
    p: bool,
    out: &mut u64,
) {
    let mut i = from;
    while i < 9 && c[i] == 0 {
        i += 1;
    }
    if i == 9 {
        *out |= state(m, t, p);
        return;
    }
    if c[i] >= 3 {
        c[i] -= 3;
        group_dfs(c, suited, i, m + 1, t, p, out);
        c[i] += 3;
    }
    if suited && i <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        group_dfs(c, suited, i, m + 1, t, p, out);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
    if c[i] >= 2 {
        c[i] -= 2;
        if !p {
            group_dfs(c, suited, i, m, t, true, out);
        }
        group_dfs(c, suited, i, m, t + 1, p, out);
        c[i] += 2;
    }
    if suited && i <= 7 && c[i + 1] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        group_dfs(c, suited, i, m, t + 1, p, out);
        c[i] += 1;
        c[i + 1] += 1;
    }
    if suited && i <= 6 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 2] -= 1;
        group_dfs(c, suited, i, m, t + 1, p, out);
        c[i] += 1;
        c[i + 2] += 1;
    }
    c[i] -= 1;
    group_dfs(c, suited, i, m, t, p, out);
    c[i] += 1;
}

fn eval(need: usize, m: usize, t: usize, p: bool) -> i32 {
    let m = m.min(need);
    let t = t.min(need - m);
    2 * (need - m) as i32 - t as i32 - i32::from(p)
}

/// 七对 shanten (a quad counts as two pairs, as in the reference scorer).
pub fn seven_pairs(c: &Counts) -> i32 {
    6 - c.iter().map(|&n| i32::from(n / 2)).sum::<i32>()
}

/// 十三幺 shanten.
pub fn thirteen_orphans(c: &Counts) -> i32 {
    let kinds = ORPHANS.iter().filter(|&&i| c[i] > 0).count() as i32;
    let pair = ORPHANS.iter().any(|&i| c[i] >= 2);
    13 - kinds - i32::from(pair)
}

/// 全不靠 shanten (best knitted pattern).
pub fn honors_and_knitted(c: &Counts) -> i32 {
    let honors = (27..34).filter(|&i| c[i] > 0).count() as i32;
    KNITTED_PERMUTATIONS
        .iter()
        .map(|&p| {
            let k = knitted_tiles(p).iter().filter(|&&i| c[i] > 0).count() as i32;
            13 - honors - k
        })
        .min()
        .unwrap_or(13)
}

/// 组合龙 shanten: missing knitted tiles plus the regular shanten of the rest (`need` sets).
pub fn knitted_straight(c: &Counts, need: usize) -> i32 {
    KNITTED_PERMUTATIONS
        .iter()
        .map(|&p| {
            let mut rest = *c;
            let mut missing = 0;
            for i in knitted_tiles(p) {
                if rest[i] > 0 {
                    rest[i] -= 1;
                } else {
                    missing += 1;
                }
            }
            missing + regular(&rest, need)
        })
        .min()
        .unwrap_or(13)
}

/// Shanten of standing tiles `c` with `melds` declared melds.
pub fn shanten(c: &Counts, melds: usize, kind: Kind) -> i32 {
    let need = 4usize.saturating_sub(melds);
    let n: usize = c.iter().map(|&x| x as usize).sum();
    let need = need.min(n / 3);
    match kind {
        Kind::Regular => regular(c, need),
        Kind::SevenPairs => seven_pairs(c),
        Kind::ThirteenOrphans => thirteen_orphans(c),
        Kind::HonorsAndKnitted => honors_and_knitted(c),
        Kind::KnittedStraight => knitted_straight(c, need.saturating_sub(3)),
        Kind::All => {
            let mut s = regular(c, need);
            if melds == 0 {
                s = s
                    .min(seven_pairs(c))
                    .min(thirteen_orphans(c))
                    .min(honors_and_knitted(c));
            }
            if melds <= 1 {
                s = s.min(knitted_straight(c, need.saturating_sub(3)));
            }
            s
        }
    }
}

/// Shanten and the useful tiles: the kinds whose draw lowers the shanten. Like the reference, a
/// kind the hand already holds four times is listed only when the hand is ready (its formal waits
/// ignore availability, mcr.md §9), never otherwise; for 组合龙 always (reference behaviour).
pub fn shanten_with_useful(c: &Counts, melds: usize, kind: Kind) -> (i32, Vec<Tile>) {
    let base = shanten(c, melds, kind);
    let mut useful = Vec::new();
    let mut c2 = *c;
    for x in 0..N_KINDS {
        if c2[x] >= 4 && base != 0 && kind != Kind::KnittedStraight {
            continue;
        }
        c2[x] += 1;
        if shanten(&c2, melds, kind) < base {
            useful.push(Tile::new_unchecked(x as u8));
        }
        c2[x] -= 1;
    }
    (base, useful)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse_tiles, to_counts};

    fn c(s: &str) -> Counts {
        to_counts(&parse_tiles(s).unwrap()).unwrap()
    }

    #[test]
    fn regular_values() {
        assert_eq!(shanten(&c("123m456p789s1122z"), 0, Kind::Regular), 0);
        assert_eq!(shanten(&c("123m456p789s11222z"), 0, Kind::Regular), -1);
        assert_eq!(shanten(&c("23m11123444pPPP"), 0, Kind::Regular), 0);
        assert_eq!(shanten(&c("12355m123p457sEE"), 0, Kind::Regular), 1);
        assert_eq!(shanten(&c("19m19p19sESWNCFP"), 0, Kind::ThirteenOrphans), 0);
    }
}
