//! Built-in 顶牛 bots. Both play from an [`Observation`] only (their own hand and 扣, the laid
//! tiles, the sizes of the other hands): no peeking at hidden tiles.
//!
//! * `random`: a uniformly random legal action;
//! * `greedy`: opens and lays its heaviest tile that keeps its own tiles playable, turns down its
//!   lightest tile, and lays a block (算帐) when it is sure the block is one (every matching 竖牌
//!   is in the line or in its own hand) and its own count is below every other player's expected
//!   count — avoiding such a block otherwise (包庄 costs 12).

use crate::error::{Error, Result};

use super::rng::Rng;
use super::round::{Action, Observation};
use super::tile::{Counts, Ends, FULL_SET, Tile, pips};
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
            Bot::Random => legal[rng.below(legal.len() as u32) as usize],
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

fn greedy(o: &Observation) -> Action {
    let legal = o.legal.as_slice();
    let u = unseen(o);
    let unseen_pips = pips(&u) as i64;
    let unseen_n: i64 = u.iter().map(|&c| i64::from(c)).sum();
    let my_kou = pips(&o.kou) as i64;
    let mut best = legal[0];
    let mut best_score = i64::MIN;
    for &a in legal {
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
                let mut s = i64::from(t.pips()) + 3 * fits(new, &h);
                if sure_blocked(new, &u) && !sure_blocked(e, &u) {
                    let mine = pips(&h) as i64 + my_kou;
                    // Expected count of each other player: his share of the unseen pips.
                    let wins = (0..4u8).filter(|&j| j != o.seat).all(|j| {
                        let n = i64::from(o.hand_sizes[j as usize])
                            + i64::from(o.kou_sizes[j as usize]);
                        unseen_n == 0 || mine * unseen_n < unseen_pips * n
                    });
                    s += if wins { 1000 } else { -1000 };
                }
                s
            }
        };
        if score > best_score {
            best_score = score;
            best = a;
        }
    }
    best
}
