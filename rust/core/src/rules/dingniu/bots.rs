//! Built-in 顶牛 bots. Both play from an [`Observation`] only (their own hand and 扣, the laid
//! tiles, the sizes of the other hands): no peeking at hidden tiles.
//!
//! * `random`: a uniformly random legal action;
//! * `greedy`: opens and lays its heaviest tile that keeps its own tiles playable, and turns down
//!   its lightest tile. Before laying it estimates from what it has seen whether the placement
//!   makes a 帐 — surely (a block whose matching 竖牌 are all in sight) or maybe (a block or a
//!   砸红/闷五 smother that depends on unseen tiles) — and whether a 算帐 would pay (its own
//!   count below every other player's expected share of the unseen pips): it then seeks the
//!   帐, and otherwise avoids it (包庄 costs 12).

use crate::error::{Error, Result};

use super::rng::Rng;
use super::round::{Action, Observation};
use super::tile::{
    Counts, Ends, FULL_SET, KINDS_WITH_PIP, SHUPAI, Tile, closure, kind_mask, kinds_with_pips, pips,
};
use super::zhang::block_shape;

/// A built-in bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bot {
    Random,
    Greedy,
}

impl Bot {
    pub fn parse(s: &str) -> Result<Bot> {
        match s.trim() {
            "random" => Ok(Bot::Random),
            "greedy" => Ok(Bot::Greedy),
            other => Err(Error::rule(format!(
                "unknown 顶牛 bot {other:?}; built-in bots: random, greedy"
            ))),
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            Bot::Random => "random",
            Bot::Greedy => "greedy",
        }
    }
    /// The bot's move (`None` when the observed seat has nothing to do).
    pub fn act(self, o: &Observation, rng: &mut Rng) -> Option<Action> {
        let legal = o.legal.as_slice();
        if legal.is_empty() {
            return None;
        }
        Some(match self {
            Bot::Random => legal[rng.below(legal.len() as u64) as usize],
            Bot::Greedy => greedy(o),
        })
    }
}

fn fits(ends: Ends, hand: &Counts) -> i64 {
    let m = ends.mask();
    Tile::ALL
        .iter()
        .filter(|t| t.pip_mask() & m != 0)
        .map(|t| i64::from(hand[t.index()]))
        .sum()
}

/// Tiles nobody has shown this seat: in other hands or turned down by others.
fn unseen(o: &Observation) -> Counts {
    let mut u = FULL_SET;
    for (i, x) in u.iter_mut().enumerate() {
        *x = x
            .saturating_sub(o.laid[i])
            .saturating_sub(o.hand[i])
            .saturating_sub(o.kou[i]);
    }
    u
}

/// Surely nobody else holds a 竖牌 matching these ends (all such 竖牌 are seen).
fn sure_blocked(e: Ends, unseen: &Counts) -> bool {
    block_shape(e).is_some()
        && !Tile::ALL
            .iter()
            .any(|t| !t.is_double() && unseen[t.index()] > 0 && t.pip_mask() & e.mask() != 0)
}

/// What the bot can tell about a placement from its own view.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Risk {
    /// No 帐 as far as it can see.
    None,
    /// Surely a block (every matching 竖牌 is seen).
    SureBlock,
    /// Maybe a 帐: a block or a smother depending on unseen tiles.
    Maybe,
}

/// The bot's estimate of whether laying `t` from `e` to `new` makes a 帐.
fn risk(o: &Observation, u: &Counts, t: Tile, e: Ends, new: Ends) -> Risk {
    if block_shape(new).is_some() && !sure_blocked(e, u) {
        if sure_blocked(new, u) {
            return Risk::SureBlock;
        }
        // Matching 竖牌 unseen: a block if they were all turned down by others.
        return Risk::Maybe;
    }
    // Smother: a red or five kind others may hold loses its last way to an end. The bot takes
    // every unseen 竖牌 as still held (an upper bound of the real connections).
    let mine = kind_mask(&o.hand);
    let unseen = kind_mask(u);
    let mut mine_after = mine;
    if o.hand[t.index()] == 1 {
        mine_after &= !(1 << t.index());
    }
    let before = closure(e.mask(), (mine | unseen) & SHUPAI);
    let after = closure(new.mask(), (mine_after | unseen) & SHUPAI);
    let eligible = KINDS_WITH_PIP[4] | KINDS_WITH_PIP[5];
    let lost = eligible & kinds_with_pips(before) & !kinds_with_pips(after);
    if lost & unseen != 0 {
        Risk::Maybe
    } else {
        Risk::None
    }
}

fn greedy(o: &Observation) -> Action {
    let legal = o.legal.as_slice();
    let u = unseen(o);
    let unseen_pips = pips(&u) as i64;
    let unseen_n: i64 = u.iter().map(|&c| i64::from(c)).sum();
    let my_kou = pips(&o.kou) as i64;
    // Would a 算帐 now pay? Own count after laying `t` against each other player's expected
    // count (his share of the unseen pips).
    let would_win = |t: Tile| {
        let mine = pips(&o.hand) as i64 - i64::from(t.pips()) + my_kou;
        (0..4u8).filter(|&j| j != o.seat).all(|j| {
            let n = i64::from(o.hand_sizes[j as usize]) + i64::from(o.kou_sizes[j as usize]);
            unseen_n == 0 || mine * unseen_n < unseen_pips * n
        })
    };
    // Risks of every placement (a 帐 only counts when another placement avoids it).
    let mut risks = [Risk::None; 26];
    if let Some(e) = o.ends {
        for (i, &a) in legal.iter().enumerate() {
            if let Action::Lay(t, side) = a {
                if let Some(new) = e.place(t, side) {
                    risks[i] = risk(o, &u, t, e, new);
                }
            }
        }
    }
    let forced = legal.len() > 1 && risks[..legal.len()].iter().all(|r| *r != Risk::None);
    let mut best = legal[0];
    let mut best_score = i64::MIN;
    for (i, &a) in legal.iter().enumerate() {
        let t = a.tile();
        let score = match a {
            Action::Kou(_) => -i64::from(t.pips()),
            Action::Open(_) | Action::OpenPair(_) => {
                let n = if matches!(a, Action::OpenPair(_)) {
                    2
                } else {
                    1
                };
                let mut h = o.hand;
                h[t.index()] -= n;
                i64::from(t.pips()) * i64::from(n) + 3 * fits(Ends::opening(t), &h)
            }
            Action::Lay(_, side) => {
                let Some(e) = o.ends else { continue };
                let Some(new) = e.place(t, side) else {
                    continue;
                };
                let mut h = o.hand;
                h[t.index()] -= 1;
                let base = i64::from(t.pips()) + 3 * fits(new, &h);
                let weight = match risks[i] {
                    _ if forced => 0,
                    Risk::None => 0,
                    Risk::SureBlock => 1000,
                    Risk::Maybe => 500,
                };
                base + if would_win(t) { weight } else { -weight }
            }
        };
        if score > best_score {
            best_score = score;
            best = a;
        }
    }
    best
}
