//! 够级's RL encoding (`game::encode::CardCodec`, docs/rl.md "够级").
//!
//! **Actions** (93,957 ids): the game's own flat ids ([`Action::id`], docs/gouji.md "Action
//! space"): 0 pass, 1 让牌, 2/3 亮 or not, 4/5 革命 or not, 6/7 要头 / 无头, 8/9 宣点 or not,
//! `10 + rank` 还贡 of a rank, and `32 + play_id` a play, `play_id = (((b·17 + n_base)·17 +
//! n2)·5 + n_small)·5 + n_big` (`b` the base rank 0..11 = `3`..`A`, 12 = none). A play is its
//! composition (base rank × count, 2s, 小花, 大花), which is exactly what the table distinguishes;
//! ids that name no action (11 of the low block, base/count mismatches) are never legal.
//!
//! **Observation** (12 × 15, columns = ranks `3 … A 2 w W`): see [`ROWS`]. Slot `r` is the seat
//! `r` places after the observer: even slots are its team (联邦), slot 3 its 对头.

use std::sync::{Arc, LazyLock};

use super::card::{FULL_COUNTS, N_RANKS};
use super::hand::{Action, Ask, N_ACTION_IDS, Phase};
use super::outcome::{Head, SEATS};
use super::play::is_gouji;
use super::table::GoujiTableHand;
use crate::game::action::Action as TAction;
use crate::game::cards::CardHand;
use crate::game::encode::CardCodec;

/// Planes of the observation.
pub const PLANES: usize = 12;

/// `(name, meaning, planes)` of the observation rows.
pub const ROWS: &[(&str, &str, usize)] = &[
    ("hand", "own cards (counts per rank)", 1),
    ("played", "cards played by every seat this hand (counts)", 1),
    (
        "unseen",
        "cards the seat cannot see: the four decks − own hand − played",
        1,
    ),
    ("top", "the play on top of the round (counts)", 1),
    (
        "cards_row",
        "per slot r: cols 0–5 cards left, 6–11 still playing; 12 the top is restricted (only burns and answerers), 13 够死级, 14 the top is a 够级牌",
        1,
    ),
    (
        "place_row",
        "per slot r: cols 0–5 finishing place + 1 (1 头科 … 6 大落, 0 still playing), 6–11 passed on this round",
        1,
    ),
    (
        "head_row",
        "per slot r: cols 0–5 head (1 有头, 2 要头, 3 无头), 6–11 开点; 12 四人乱缠, 13 failed burns",
        1,
    ),
    (
        "xuan_row",
        "per slot r: cols 0–5 宣点, 6–11 the top's seat one-hot",
        1,
    ),
    (
        "revolt_row",
        "cols 0–5 the 革命 seat one-hot (by slot), 6–11 the burner one-hot (a burn in progress)",
        1,
    ),
    (
        "burn_row",
        "cols 0–5 the burn's victim one-hot (by slot), 6–11 要头 plays left per slot",
        1,
    ),
    (
        "phase_row",
        "cols 0–6 phase one-hot (tribute, show, revolt, head, xuandian, play, over)",
        1,
    ),
    (
        "ask_row",
        "cols 0–10 what the seat to act is asked, one-hot (return, show, revolt, head, xuandian, lead, turn, answer, burn, yield_reply, yield_back)",
        1,
    ),
];

/// The 够级 codec.
#[derive(Debug)]
pub struct GoujiCodec;

static CODEC: LazyLock<Arc<GoujiCodec>> = LazyLock::new(|| Arc::new(GoujiCodec));

/// The shared codec.
pub fn codec() -> Arc<dyn CardCodec> {
    CODEC.clone()
}

fn sat(x: usize) -> u8 {
    x.min(255) as u8
}

impl CardCodec for GoujiCodec {
    fn names(&self) -> Vec<String> {
        (0..N_ACTION_IDS)
            .map(|i| match Action::from_id(i) {
                Some(Action::Play(p)) => format!("play {}", p.cards()),
                Some(a) => a.text(),
                None => format!("unused {i}"),
            })
            .collect()
    }
    fn shape(&self) -> (usize, usize) {
        (PLANES, N_RANKS)
    }
    fn rows(&self) -> &'static [(&'static str, &'static str, usize)] {
        ROWS
    }
    fn action_id(&self, _hand: &dyn CardHand, a: &TAction) -> Option<usize> {
        // the table action carries the game's id; it must read back to the same action
        let id = u32::try_from(a.value?).ok()?;
        let g = Action::from_id(id)?;
        (super::table::to_table(a.seat, &g) == *a).then_some(id as usize)
    }
    fn observe(&self, hand: &dyn CardHand, seat: usize, out: &mut [u8]) {
        const W: usize = N_RANKS;
        let Some(t) = hand.as_any().downcast_ref::<GoujiTableHand>() else {
            return;
        };
        let seat = seat % SEATS;
        t.read(|g| {
            let slot = |s: usize| (s + SEATS - seat) % SEATS;
            let me = &g.hands()[seat];
            let played = g.played();
            for k in 0..W {
                out[k] = me[k];
                out[W + k] = played[k];
                out[2 * W + k] = FULL_COUNTS[k]
                    .saturating_sub(me[k])
                    .saturating_sub(played[k]);
            }
            let top = g.top();
            if let Some(t) = top {
                let p = t.play;
                if p.base != super::play::NO_BASE && usize::from(p.base) < W {
                    out[3 * W + usize::from(p.base)] = p.n_base;
                }
                out[3 * W + super::card::TWO] = p.n2;
                out[3 * W + super::card::SMALL] = p.small;
                out[3 * W + super::card::BIG] = p.big;
            }
            let (r4, r5, r6, r7, r8, r9) = (4 * W, 5 * W, 6 * W, 7 * W, 8 * W, 9 * W);
            let heads = g.heads();
            for (s, &head) in heads.iter().enumerate() {
                let r = slot(s);
                out[r4 + r] = sat(g.hands()[s].iter().map(|&x| usize::from(x)).sum());
                out[r4 + 6 + r] = u8::from(g.active()[s]);
                out[r5 + r] = g.places().place_of(s).map_or(0, |i| sat(i + 1));
                out[r6 + r] = match head {
                    Head::Has => 1,
                    Head::YaoTou(_) => 2,
                    Head::Wu => 3,
                };
                if let Head::YaoTou(n) = head {
                    out[r9 + 6 + r] = n;
                }
                out[r6 + 6 + r] = u8::from(g.kaidian()[s]);
                out[r7 + r] = u8::from(g.xuandian()[s]);
            }
            let passed = passed_of(g);
            for (s, &p) in passed.iter().enumerate() {
                out[r5 + 6 + slot(s)] = u8::from(p);
            }
            if let Some(t) = top {
                out[r4 + 12] = u8::from(t.restricted);
                out[r4 + 13] = u8::from(t.dead);
                out[r4 + 14] = u8::from(is_gouji(&t.play, g.rules()));
                out[r7 + 6 + slot(usize::from(t.seat) % SEATS)] = 1;
            }
            out[r6 + 12] = u8::from(g.luanchan());
            out[r6 + 13] = g.burn_fails();
            if let Some(v) = g.revolution() {
                out[r8 + slot(v % SEATS)] = 1;
            }
            if let Some((b, v)) = g.burn() {
                out[r8 + 6 + slot(b % SEATS)] = 1;
                out[r9 + slot(v % SEATS)] = 1;
            }
            let ph = match g.phase() {
                Phase::Tribute => 0,
                Phase::Show => 1,
                Phase::Revolt => 2,
                Phase::Head => 3,
                Phase::XuanDian => 4,
                Phase::Play => 5,
                Phase::Over => 6,
            };
            out[10 * W + ph] = 1;
            if let Some(a) = g.ask() {
                let k = match a {
                    Ask::Return => 0,
                    Ask::Show => 1,
                    Ask::Revolt => 2,
                    Ask::Head => 3,
                    Ask::XuanDian => 4,
                    Ask::Lead => 5,
                    Ask::Turn => 6,
                    Ask::Answer => 7,
                    Ask::Burn => 8,
                    Ask::YieldReply => 9,
                    Ask::YieldBack => 10,
                };
                out[11 * W + k] = 1;
            }
        });
    }
}

/// Which seats passed on the current round (the game's public record).
fn passed_of(g: &super::hand::GoujiHand) -> [bool; SEATS] {
    g.passed()
}
