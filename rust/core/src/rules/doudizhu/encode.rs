//! 斗地主's RL encoding (`game::encode::CardCodec`, docs/rl.md "斗地主").
//!
//! **Actions**: the play space of [`super::space`] — one id per card multiset that is a move
//! under the hand's move rules — then a block of 7 auction/明牌 ids. Under the hupai encoding
//! (every rule set but the rlcard profile's) id 0 is pass (不叫 / 不抢 / 不出) and ids 1..
//! the moves (27,846 under the seeds' rules); under the rlcard profile's move rules
//! (`single_kickers = "no_adjacent_triple"`, the other move switches at their defaults) the play
//! ids are rlcard 1.2.0's (27,472, pass = 27,471), so rlcard id `k` is the same move here. The
//! block after them: `bid 1`, `bid 2`, `bid 3`, `call` (叫地主), `rob` (抢地主), `show` (明牌),
//! `no_show`. A multiset is played with the reading the table gives it (the one that beats the
//! play on the table; when leading, its canonical reading), so one id is one table action.
//!
//! **Observation** (23 × 15, columns = ranks `3 … A 2 x X`): see [`ROWS`]. Slot `r` is the seat
//! `r` places after the observer (slot 1 = its 下家).

use std::sync::Arc;

use super::cards::{Cards, N_RANKS};
use super::game::{Action as GAction, DoubleReason, Event as GEvent, Phase};
use super::rules::DdzRules;
use super::space::{ActionSpace, action_space, rlcard_rules, rlcard_space_arc};
use super::table::DdzHand;
use crate::game::action::{Action as TAction, ActionKind};
use crate::game::cards::CardHand;
use crate::game::encode::CardCodec;

/// Planes of the observation.
pub const PLANES: usize = 23;
/// Plays of each seat written in order (most recent first).
pub const RECENT: usize = 3;
/// Auction / 明牌 ids after the play space.
pub const BLOCK: [&str; 7] = ["bid 1", "bid 2", "bid 3", "call", "rob", "show", "no_show"];

/// `(name, meaning, planes)` of the observation rows.
pub const ROWS: &[(&str, &str, usize)] = &[
    ("hand", "own cards: plane i = 1 where the count is > i", 4),
    (
        "unseen",
        "cards the seat cannot see: the pack − own hand − every card played (the others' hands and the 底牌 not yet taken)",
        1,
    ),
    (
        "played",
        "slot r: cards it has played this deal (counts)",
        3,
    ),
    ("top", "the play to beat (counts; zero when leading)", 1),
    (
        "recent",
        "slot r, j-th most recent play of this deal (plane 9 + 3r + j; passes skipped)",
        9,
    ),
    ("bottom", "the 底牌 once a landlord has them (counts)", 1),
    (
        "shown",
        "the landlord's hand when he showed it (明牌), for the other seats",
        1,
    ),
    (
        "seat_row",
        "cols 0–2 the landlord's slot one-hot; 3–5 cards left per slot; 6–8 plays per slot; 9–11 the first bidder's slot one-hot; 12 明牌; 13 passes since the play to beat",
        1,
    ),
    (
        "auction_row",
        "per slot r: cols 0–2 its highest bid, 3–5 passed in the auction, 6–8 called (叫地主), 9–11 robs (抢); 12 the high bid, 13 robs in all, 14 deal number (redeals + 1)",
        1,
    ),
    (
        "game_row",
        "cols 0–3 phase one-hot (auction, show, play, over); 4 log2 of the multiplier; 5 doublings (bombs, rockets, 抢, 明牌); 6–8 the slot of the play to beat one-hot; 9 its type + 1 (doudizhu.md §5 order); 10 its length; 11 its main rank + 1",
        1,
    ),
];

/// The 斗地主 codec of one move-rule set.
#[derive(Debug)]
pub struct DdzCodec {
    space: Arc<ActionSpace>,
    /// First id of the auction block.
    block: usize,
    rlcard: bool,
}

/// The codec of `rules` (the rlcard space under the rlcard profile's move rules).
pub fn codec(rules: &DdzRules) -> Arc<dyn CardCodec> {
    let rlcard = rules.moves == rlcard_rules();
    let space = if rlcard {
        rlcard_space_arc()
    } else {
        action_space(&rules.moves)
    };
    Arc::new(DdzCodec {
        block: space.len(),
        space,
        rlcard,
    })
}

impl DdzCodec {
    /// Whether the play ids are rlcard 1.2.0's.
    pub fn is_rlcard(&self) -> bool {
        self.rlcard
    }
}

fn cards_of(tiles: &[u8]) -> Option<Cards> {
    let mut counts = [0u8; N_RANKS];
    for &t in tiles {
        let c = counts.get_mut(usize::from(t))?;
        *c = c.checked_add(1)?;
    }
    Cards::from_counts(&counts).ok()
}

fn write_counts(out: &mut [u8], c: Cards) {
    for (r, n) in c.iter() {
        if let Some(x) = out.get_mut(usize::from(r)) {
            *x = n;
        }
    }
}

impl CardCodec for DdzCodec {
    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .space
            .iter()
            .map(|m| match m {
                None => "pass".to_string(),
                Some((c, _)) => format!("play {c}"),
            })
            .collect();
        v.extend(BLOCK.iter().map(|s| s.to_string()));
        v
    }
    fn shape(&self) -> (usize, usize) {
        (PLANES, N_RANKS)
    }
    fn rows(&self) -> &'static [(&'static str, &'static str, usize)] {
        ROWS
    }
    fn action_id(&self, _hand: &dyn CardHand, a: &TAction) -> Option<usize> {
        let b = self.block;
        match a.kind {
            ActionKind::Pass => Some(self.space.pass_id() as usize),
            ActionKind::Bid => match a.value? {
                v @ 1..=3 => Some(b + v as usize - 1),
                _ => None,
            },
            ActionKind::Call => Some(b + 3),
            ActionKind::Rob => Some(b + 4),
            ActionKind::Show => match a.value? {
                1 => Some(b + 5),
                0 => Some(b + 6),
                _ => None,
            },
            ActionKind::Play => {
                let c = cards_of(&a.tiles).filter(|c| !c.is_empty())?;
                self.space.id(c).map(|i| i as usize)
            }
            _ => None,
        }
    }
    fn observe(&self, hand: &dyn CardHand, seat: usize, out: &mut [u8]) {
        const W: usize = N_RANKS;
        let Some(h) = hand.as_any().downcast_ref::<DdzHand>() else {
            return;
        };
        let g = &h.g;
        let seat = (seat % 3) as u8;
        let slot = |s: u8| usize::from((s + 3 - seat) % 3);
        let row = |p: usize| p * W;
        let me = g.hand(seat);
        for (r, n) in me.iter() {
            for i in 0..usize::from(n).min(4) {
                out[row(i) + usize::from(r)] = 1;
            }
        }
        let played = g.played();
        let all = played[0].plus(played[1]).plus(played[2]);
        write_counts(&mut out[row(4)..], Cards::full_pack().minus(me).minus(all));
        for s in 0..3u8 {
            write_counts(&mut out[row(5 + slot(s))..], played[usize::from(s)]);
        }
        if let Some((_, c, _)) = g.top() {
            write_counts(&mut out[row(8)..], c);
        }
        // the public record of this deal
        let events = g.events();
        let start = events
            .iter()
            .rposition(|e| matches!(e, GEvent::Deal { .. }))
            .unwrap_or(0);
        let (sr, ar, gr) = (row(20), row(21), row(22));
        let mut recent = [0usize; 3];
        let mut trailing_passes = 0u8;
        let mut shown = false;
        let mut doublings = 0u8;
        let (mut high, mut robs) = (0u8, 0u8);
        for e in events[start..].iter().rev() {
            match e {
                GEvent::Act { seat: s, action } => {
                    let r = slot(*s);
                    match action {
                        GAction::Play(c, _) if recent[r] < RECENT => {
                            write_counts(&mut out[row(9 + RECENT * r + recent[r])..], *c);
                            recent[r] += 1;
                        }
                        _ => {}
                    }
                }
                GEvent::Landlord { bottom, .. } => {
                    let mut c = [0u8; N_RANKS];
                    for b in 0..54u32 {
                        if bottom & (1u64 << b) != 0 {
                            let r = if b < 52 { b / 4 } else { b - 52 + 13 } as usize;
                            c[r] += 1;
                        }
                    }
                    out[row(18)..row(18) + W].copy_from_slice(&c);
                }
                _ => {}
            }
        }
        let mut counting = true;
        for e in &events[start..] {
            match e {
                GEvent::Act { seat: s, action } => {
                    let r = slot(*s);
                    // a pass before the landlord is known is an auction pass
                    let in_auction = counting;
                    match action {
                        GAction::Bid(b) => {
                            out[ar + r] = out[ar + r].max(*b);
                            high = high.max(*b);
                        }
                        GAction::Call => out[ar + 6 + r] = 1,
                        GAction::Rob => {
                            out[ar + 9 + r] = out[ar + 9 + r].saturating_add(1);
                            robs = robs.saturating_add(1);
                        }
                        GAction::Pass if in_auction => out[ar + 3 + r] = 1,
                        GAction::Show => shown = true,
                        _ => {}
                    }
                    match action {
                        GAction::Pass if !counting => {
                            trailing_passes = trailing_passes.saturating_add(1)
                        }
                        GAction::Play(..) => trailing_passes = 0,
                        _ => {}
                    }
                }
                GEvent::Landlord { .. } => counting = false,
                GEvent::Double { reason, .. } => {
                    doublings = doublings.saturating_add(1);
                    if *reason == DoubleReason::Show {
                        shown = true;
                    }
                }
                _ => {}
            }
        }
        if let Some(l) = g.landlord() {
            out[sr + slot(l)] = 1;
            if shown && l != seat {
                write_counts(&mut out[row(19)..], g.hand(l));
            }
        }
        let plays = g.plays();
        for s in 0..3u8 {
            let r = slot(s);
            out[sr + 3 + r] = g.hand(s).len().min(255) as u8;
            out[sr + 6 + r] = plays[usize::from(s)].min(255) as u8;
        }
        if let Some(first) = events[start..].iter().find_map(|e| match e {
            GEvent::Deal { first_bidder, .. } => Some(*first_bidder),
            _ => None,
        }) {
            out[sr + 9 + slot(first)] = 1;
        }
        out[sr + 12] = u8::from(shown);
        out[sr + 13] = if g.top().is_some() {
            trailing_passes
        } else {
            0
        };
        out[ar + 12] = high.max(g.bid());
        out[ar + 13] = robs;
        out[ar + 14] = g.deal_no().min(255) as u8;
        let ph = match g.phase() {
            Phase::Auction => 0,
            Phase::Show => 1,
            Phase::Play => 2,
            Phase::Over => 3,
        };
        out[gr + ph] = 1;
        let m = g.multiplier().max(1);
        out[gr + 4] = (63 - m.leading_zeros()) as u8;
        out[gr + 5] = doublings;
        if let Some((s, _, r)) = g.top() {
            out[gr + 6 + slot(s)] = 1;
            out[gr + 9] = r.kind as u8 + 1;
            out[gr + 10] = r.len;
            out[gr + 11] = r.main + 1;
        }
    }
}
