//! Built-in bots: `random` (uniform over the legal actions) and `greedy` (sheds low cards,
//! keeps 2s, jokers and 够级牌 for the 对头 fight, fights for its 够级 duels, burns whenever it can).

use super::card::{N_BASE, Rng, THREE, TWO, total, value};
use super::hand::{Action, Ask, GoujiHand};
use super::outcome::team;
use super::play::{BurnLead, NO_BASE, Play, burn_lead, is_gouji, remainder_feasible};
use crate::error::{Error, Result};

/// The built-in bots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotKind {
    Random,
    Greedy,
}

impl BotKind {
    pub fn parse(s: &str) -> Result<BotKind> {
        match s {
            "random" => Ok(BotKind::Random),
            "greedy" => Ok(BotKind::Greedy),
            _ => Err(Error::rule(format!(
                "unknown 够级 bot {s:?}; built-in bots: random, greedy"
            ))),
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
        }
    }
}

/// How costly a play is to give up: jokers, then 2s, then rank; breaking a group costs extra.
fn cost(p: &Play, hand: &[u8; 15]) -> u32 {
    let base = p.norm_base().map_or(0, |b| u32::from(value(b)));
    let broken = p.base != NO_BASE && p.n_base < hand[usize::from(p.base)];
    u32::from(p.big) * 4000
        + u32::from(p.small) * 3000
        + u32::from(p.n2) * 400
        + base * 10
        + if broken { 25 } else { 0 }
}

fn plays(legal: &[Action]) -> impl Iterator<Item = Play> + '_ {
    legal.iter().filter_map(|a| match a {
        Action::Play(p) => Some(*p),
        _ => None,
    })
}

fn cheapest<I: Iterator<Item = Play>>(it: I, hand: &[u8; 15]) -> Option<Play> {
    it.min_by_key(|p| (cost(p, hand), p.total()))
}

/// Choose an action for the seat to act. `legal` must be its legal actions (non-empty).
pub fn choose(kind: BotKind, rng: &mut Rng, h: &GoujiHand, legal: &[Action]) -> Action {
    if legal.is_empty() {
        return Action::Pass;
    }
    match kind {
        BotKind::Random => legal[rng.below(legal.len())],
        BotKind::Greedy => greedy(h, legal),
    }
}

fn greedy(h: &GoujiHand, legal: &[Action]) -> Action {
    let (Some(seat), Some(ask)) = (h.to_act(), h.ask()) else {
        return legal[0];
    };
    let hand = h.hands()[seat];
    let rules = h.rules();
    match ask {
        Ask::Return => {
            let r = (0..TWO)
                .find(|&r| hand[r] > 0 && !(rules.bie_san && r == THREE))
                .or_else(|| (0..15).find(|&r| hand[r] > 0))
                .unwrap_or(0);
            Action::Return(r as u8)
        }
        Ask::Show => Action::Show,
        Ask::Revolt => Action::NoRevolt,
        Ask::Head => Action::Head(rules.head_default_yaotou),
        Ask::XuanDian => Action::XuanDian(false),
        Ask::Burn => cheapest(plays(legal), &hand).map_or(Action::Pass, Action::Play),
        Ask::Lead => Action::Play(greedy_lead(h, seat, legal)),
        Ask::Turn | Ask::Answer | Ask::YieldReply | Ask::YieldBack => {
            let Some(top) = h.top() else {
                return Action::Pass;
            };
            if team(usize::from(top.seat)) == team(seat) {
                return Action::Pass;
            }
            let fight = ask == Ask::Answer || h.luanchan();
            let choice = if fight {
                cheapest(plays(legal), &hand)
            } else {
                cheapest(
                    plays(legal).filter(|p| p.n2 == 0 && p.jokers() == 0 && !is_gouji(p, rules)),
                    &hand,
                )
            };
            choice.map_or(Action::Pass, Action::Play)
        }
    }
}

fn greedy_lead(h: &GoujiHand, seat: usize, legal: &[Action]) -> Play {
    let hand = h.hands()[seat];
    let n = total(&hand);
    let rules = h.rules();
    // Go out at once when the whole hand is one play.
    if let Some(p) = plays(legal).find(|p| u32::from(p.total()) == n) {
        return p;
    }
    if h.burn().is_some_and(|(b, _)| b == seat) {
        // Burning: a lead with a joker that keeps the rest feasible, as cheap as possible.
        let ok = plays(legal).filter(|p| {
            burn_lead(&hand, p) == BurnLead::Continue && {
                let mut rest = hand;
                let c = p.counts();
                for r in 0..15 {
                    rest[r] -= c[r];
                }
                remainder_feasible(&rest, rules.bie_san)
            }
        });
        if let Some(p) = ok.min_by_key(|p| (p.jokers(), cost(p, &hand))) {
            return p;
        }
    }
    // Shed the lowest rank as a whole group, without 2s or jokers.
    let lowest = (0..N_BASE).find(|&r| hand[r] > 0 && !(rules.bie_san && r == THREE));
    if let Some(r) = lowest {
        let want = Play {
            base: r as u8,
            n_base: hand[r],
            ..Play::default()
        };
        if legal.contains(&Action::Play(want)) {
            return want;
        }
    }
    cheapest(plays(legal), &hand).unwrap_or_default()
}
