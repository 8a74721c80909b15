//! Bindings of `hupai_core::flow`: the coarse rule queries of the table engine (`hupai.game`).
//! Tiles are tile indices (0..34); a seat is the tuple
//! `(counts[34], melds[(kind, tile, from, kong_kind|None)], active, void_suit|None, win_locked,
//!   hand_locked, flowers, seat_wind, dealer)`.

use hupai_core::flow::{self, Response, SeatState, TableCtx, TurnOptions, WinOption};
use hupai_core::hand::{Meld, MeldKind};
use hupai_core::situation::{KongKind, WinType};
use hupai_core::tile::{N_KINDS, Tile};
use pyo3::prelude::*;

use crate::convert::AnyInt;
use crate::errors::{BindResult, hand_err};
use crate::variant::PyVariant;

type MeldIn = (String, AnyInt, AnyInt, Option<String>);
type SeatIn = (
    Vec<AnyInt>,
    Vec<MeldIn>,
    bool,
    Option<AnyInt>,
    bool,
    bool,
    AnyInt,
    AnyInt,
    bool,
);
type WinOut = (i64, bool, Vec<(String, u32)>, Vec<i64>);

fn tile(i: AnyInt, what: &str) -> BindResult<Tile> {
    let i: u8 = i.within(
        &format!("{what} (tile index)"),
        0,
        N_KINDS as i64 - 1,
        hand_err,
    )?;
    Ok(Tile::new_unchecked(i))
}

fn kong_kind(s: Option<&str>) -> BindResult<Option<KongKind>> {
    Ok(match s {
        None => None,
        Some("open") => Some(KongKind::Open),
        Some("added") => Some(KongKind::Added),
        Some("concealed") => Some(KongKind::Concealed),
        Some(o) => {
            return Err(hand_err(format!(
                "kong kind {o:?} (open, added, concealed)"
            )));
        }
    })
}

fn seat(s: SeatIn, i: usize) -> BindResult<SeatState> {
    let (counts, melds, active, void_suit, win_locked, hand_locked, flowers, wind, dealer) = s;
    if counts.len() != N_KINDS {
        return Err(hand_err(format!(
            "seat {i}: counts must have {N_KINDS} entries, got {}",
            counts.len()
        )));
    }
    let mut c = [0u8; N_KINDS];
    for (k, n) in counts.into_iter().enumerate() {
        c[k] = n.within(&format!("seat {i}: counts[{k}]"), 0, 4, hand_err)?;
    }
    let mut ms = Vec::with_capacity(melds.len());
    for (kind, t, from, kk) in melds {
        let kind = MeldKind::parse(&kind)?;
        let kk = kong_kind(kk.as_deref())?;
        let concealed = kk == Some(KongKind::Concealed);
        let from: u8 = from.within(&format!("seat {i}: meld from"), 0, 3, hand_err)?;
        ms.push((Meld::new(kind, tile(t, "meld")?, concealed, from)?, kk));
    }
    let void_suit: Option<u8> = void_suit
        .map(|v| v.within(&format!("seat {i}: void suit"), 0, 2, hand_err))
        .transpose()?;
    let flowers: u8 = flowers.within(&format!("seat {i}: flowers"), 0, 8, hand_err)?;
    let seat_wind = tile(wind, "seat wind")?;
    if !seat_wind.is_wind() {
        return Err(hand_err(format!("seat {i}: {seat_wind} is not a wind")));
    }
    Ok(SeatState {
        counts: c,
        melds: ms,
        active,
        void_suit,
        win_locked,
        hand_locked,
        flowers,
        seat_wind,
        dealer,
    })
}

fn win_type(s: &str) -> BindResult<WinType> {
    Ok(match s {
        "self_draw" => WinType::SelfDraw,
        "kong_replacement" => WinType::KongReplacement,
        "discard" => WinType::Discard,
        "after_kong_discard" => WinType::AfterKongDiscard,
        "rob_kong" => WinType::RobKong,
        o => {
            return Err(hand_err(format!(
                "win type {o:?} (self_draw, kong_replacement, discard, after_kong_discard, rob_kong)"
            )));
        }
    })
}

fn ctx(
    prevalent: AnyInt,
    wall_last: bool,
    wall_empty: bool,
    last_kong: Option<&str>,
    wall_remaining: AnyInt,
    first_turn: bool,
) -> BindResult<TableCtx> {
    let wall_remaining: u32 = wall_remaining.within("wall_remaining", 0, 1_000_000, hand_err)?;
    let prevalent_wind = tile(prevalent, "prevalent wind")?;
    if !prevalent_wind.is_wind() {
        return Err(hand_err(format!("{prevalent_wind} is not a wind")));
    }
    Ok(TableCtx {
        prevalent_wind,
        wall_last,
        wall_empty,
        last_kong: kong_kind(last_kong)?,
        wall_remaining,
        first_turn,
    })
}

fn win_out(w: Option<WinOption>) -> Option<WinOut> {
    w.map(|w| (w.value, w.self_draw_payment, w.fans, w.deltas))
}

fn idx(t: &[Tile]) -> Vec<u8> {
    t.iter().map(|t| t.index()).collect()
}

/// Every seat's legal responses to ``tile`` discarded by ``discarder`` (``source`` ``discard``,
/// ``after_kong_discard`` or ``rob_kong``): a list with, per seat, ``None`` (nothing) or
/// ``(win, kong, pung, chows, forced_win)`` where ``win`` is ``None`` or ``(value, self_draw_payment, fans,
/// deltas)``.
#[pyfunction]
#[pyo3(signature = (variant, seats, discarder, tile, source, prevalent, wall_last, wall_empty, last_kong=None, wall_remaining=AnyInt(1000)))]
#[pyo3(
    text_signature = "(variant, seats, discarder, tile, source, prevalent, wall_last, wall_empty, last_kong=None, wall_remaining=1000)"
)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn flow_claims(
    variant: PyRef<'_, PyVariant>,
    seats: Vec<SeatIn>,
    discarder: AnyInt,
    tile: AnyInt,
    source: &str,
    prevalent: AnyInt,
    wall_last: bool,
    wall_empty: bool,
    last_kong: Option<&str>,
    wall_remaining: AnyInt,
) -> BindResult<Vec<Option<(Option<WinOut>, bool, bool, Vec<u8>, bool)>>> {
    let discarder: usize = discarder.within("discarder", 0, seats.len() as i64 - 1, hand_err)?;
    let st = seats
        .into_iter()
        .enumerate()
        .map(|(i, s)| seat(s, i))
        .collect::<BindResult<Vec<_>>>()?;
    let t = self::tile(tile, "discard")?;
    let c = ctx(
        prevalent,
        wall_last,
        wall_empty,
        last_kong,
        wall_remaining,
        false,
    )?;
    let rs = flow::claims(&variant.inner, &st, discarder, t, win_type(source)?, &c)?;
    Ok(rs
        .into_iter()
        .map(|r: Response| {
            if r.is_empty() {
                None
            } else {
                Some((win_out(r.win), r.kong, r.pung, idx(&r.chows), r.forced_win))
            }
        })
        .collect())
}

/// The options of the seat to move (``3n+2`` tiles): ``(win, concealed_kongs, added_kongs,
/// discards, analysis, forced_win)``; ``analysis`` (with ``analyze``) lists ``(discard, shanten,
/// useful)``; ``forced_win``: the win may not be declined (最后四张).
#[pyfunction]
#[pyo3(signature = (variant, seat, index, drawn, win_type, prevalent, wall_last, wall_empty, last_kong=None, analyze=false, wall_remaining=AnyInt(1000), first_turn=false))]
#[pyo3(
    text_signature = "(variant, seat, index, drawn, win_type, prevalent, wall_last, wall_empty, last_kong=None, analyze=False, wall_remaining=1000, first_turn=False)"
)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn flow_turn(
    variant: PyRef<'_, PyVariant>,
    seat: SeatIn,
    index: AnyInt,
    drawn: Option<AnyInt>,
    win_type: &str,
    prevalent: AnyInt,
    wall_last: bool,
    wall_empty: bool,
    last_kong: Option<&str>,
    analyze: bool,
    wall_remaining: AnyInt,
    first_turn: bool,
) -> BindResult<(
    Option<WinOut>,
    Vec<u8>,
    Vec<u8>,
    Vec<u8>,
    Vec<(u8, i8, u32)>,
    bool,
)> {
    let index: usize = index.within("index", 0, 3, hand_err)?;
    let s = self::seat(seat, index)?;
    let d = drawn.map(|t| tile(t, "drawn")).transpose()?;
    let wt = self::win_type(win_type)?;
    if !wt.is_self_drawn() {
        return Err(hand_err(
            "a turn's win type is self_draw or kong_replacement",
        ));
    }
    let c = ctx(
        prevalent,
        wall_last,
        wall_empty,
        last_kong,
        wall_remaining,
        first_turn,
    )?;
    let o: TurnOptions = flow::turn(&variant.inner, &s, index, d, wt, &c, analyze)?;
    Ok((
        win_out(o.win),
        idx(&o.concealed_kongs),
        idx(&o.added_kongs),
        idx(&o.discards),
        o.analysis
            .into_iter()
            .map(|(t, s, u)| (t.index(), s, u))
            .collect(),
        o.forced_win,
    ))
}

/// 四川 draw-end states ``(huazhu, da_jiao|None)`` of the given (waiting) seats.
#[pyfunction]
pub fn flow_draw_end(
    variant: PyRef<'_, PyVariant>,
    seats: Vec<SeatIn>,
) -> BindResult<Vec<(bool, Option<i64>)>> {
    let st = seats
        .into_iter()
        .enumerate()
        .map(|(i, s)| seat(s, i))
        .collect::<BindResult<Vec<_>>>()?;
    Ok(flow::draw_end_states(&variant.inner, &st)?)
}
