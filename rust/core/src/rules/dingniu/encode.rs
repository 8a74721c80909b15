//! 顶牛's RL encoding (`game::encode::CardCodec`, docs/rl.md "顶牛").
//!
//! **Actions** (58 ids): the game's own flat ids ([`Action::id`]): `0..26` lay kind `k` on the
//! left (`2k`) or right (`2k + 1`) end, `26..39` 扣 kind `k`, `39..52` open with kind `k`,
//! `52..58` open with both copies of double `k`. A tile laid on an end leaves its other half
//! open, so (kind, end) names one placement. 算帐 is not a separate decision at this table: a
//! block happens through the lays and 扣 themselves.
//!
//! **Observation** (7 × 13, columns = tile kinds in index order `66 11 44 …`, values = counts):
//! see [`ROWS`]. Other seats' hands and 扣 tiles are face down: only their sizes are written.

use std::sync::{Arc, LazyLock};

use super::round::Action;
use super::table::DingniuHand;
use super::tile::{Counts, N_KINDS, Tile};
use crate::game::action::{Action as TAction, ActionKind};
use crate::game::cards::CardHand;
use crate::game::encode::CardCodec;

/// Planes of the observation.
pub const PLANES: usize = 7;

/// `(name, meaning, planes)` of the observation rows.
pub const ROWS: &[(&str, &str, usize)] = &[
    ("hand", "own tiles (counts per kind)", 1),
    ("kou", "own 扣 tiles (counts)", 1),
    ("laid", "tiles in the line (counts)", 1),
    (
        "unseen",
        "tiles the seat cannot see: 2 copies (1 of the 4 single kinds) − own hand − own 扣 − laid",
        1,
    ),
    (
        "fits",
        "own tiles that fit an open end: 1 left end, 2 right end, 3 both",
        1,
    ),
    (
        "ends_row",
        "cols 0–5 left end pip 1–6 one-hot, 6–11 right end pip one-hot (zeros before the opening), 12 opened",
        1,
    ),
    (
        "seat_row",
        "per slot r (r = seats after this one): cols 0–3 tiles in hand, 4–7 扣 tiles; 8–11 the 头牌 seat one-hot; 12 own playing position (0 = 头牌)",
        1,
    ),
];

/// The 顶牛 codec.
#[derive(Debug)]
pub struct DingniuCodec;

static CODEC: LazyLock<Arc<DingniuCodec>> = LazyLock::new(|| Arc::new(DingniuCodec));

/// The shared codec.
pub fn codec() -> Arc<dyn CardCodec> {
    CODEC.clone()
}

fn table_id(a: &TAction) -> Option<usize> {
    let t = Tile::from_index(a.tile?)?;
    let g = match (a.kind, a.value) {
        (ActionKind::Open, None) => Action::Open(t),
        (ActionKind::Open, Some(2)) => Action::OpenPair(t),
        (ActionKind::Lay, Some(0)) => Action::Lay(t, super::tile::Side::L),
        (ActionKind::Lay, Some(1)) => Action::Lay(t, super::tile::Side::R),
        (ActionKind::Kou, None) => Action::Kou(t),
        _ => return None,
    };
    Some(usize::from(g.id()))
}

fn sum(c: &Counts) -> u8 {
    c.iter().copied().sum()
}

impl CardCodec for DingniuCodec {
    fn names(&self) -> Vec<String> {
        (0..super::round::N_ACTION_IDS)
            .map(|i| match Action::from_id(i as u8) {
                Some(Action::Lay(t, s)) => format!("lay {t}:{}", s.letter()),
                Some(Action::Kou(t)) => format!("kou {t}"),
                Some(Action::Open(t)) => format!("open {t}"),
                Some(Action::OpenPair(t)) => format!("open_pair {t}+{t}"),
                None => format!("unused {i}"),
            })
            .collect()
    }
    fn shape(&self) -> (usize, usize) {
        (PLANES, N_KINDS)
    }
    fn rows(&self) -> &'static [(&'static str, &'static str, usize)] {
        ROWS
    }
    fn action_id(&self, _hand: &dyn CardHand, a: &TAction) -> Option<usize> {
        table_id(a)
    }
    fn observe(&self, hand: &dyn CardHand, seat: usize, out: &mut [u8]) {
        const W: usize = N_KINDS;
        let Some(h) = hand.as_any().downcast_ref::<DingniuHand>() else {
            return;
        };
        let r = &h.r;
        let seat = (seat % 4) as u8;
        let me = r.hand(seat);
        let kou = r.kou(seat);
        let laid = r.laid();
        let ends = r.ends();
        for (k, t) in Tile::ALL.iter().enumerate() {
            out[k] = me[k];
            out[W + k] = kou[k];
            out[2 * W + k] = laid[k];
            out[3 * W + k] = t
                .copies()
                .saturating_sub(me[k])
                .saturating_sub(kou[k])
                .saturating_sub(laid[k]);
            if let (Some(e), true) = (ends, me[k] > 0) {
                out[4 * W + k] =
                    u8::from(t.fit(e.0).is_some()) | (u8::from(t.fit(e.1).is_some()) << 1);
            }
        }
        if let Some(e) = ends {
            let er = 5 * W;
            if (1..=6).contains(&e.0) {
                out[er + usize::from(e.0) - 1] = 1;
            }
            if (1..=6).contains(&e.1) {
                out[er + 6 + usize::from(e.1) - 1] = 1;
            }
            out[er + 12] = 1;
        }
        let sr = 6 * W;
        for s in 0..4u8 {
            let slot = usize::from((s + 4 - seat) % 4);
            out[sr + slot] = sum(r.hand(s));
            out[sr + 4 + slot] = sum(r.kou(s));
        }
        out[sr + 8 + usize::from((r.toupai() + 4 - seat) % 4)] = 1;
        out[sr + 12] = r.position_of(seat);
    }
}
