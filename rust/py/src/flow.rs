//! Bindings of `hupai_core::game::flow`: the coarse rule queries of the table engine (`hupai.game`).
//! Tiles are tile indices (0..34); a seat is the tuple
//! `(counts[34], melds[(kind, tile, from, kong_kind|None)], active, void_suit|None, win_locked,
//!   hand_locked, flowers, seat_wind, dealer)`.

use hupai_core::game::flow::{self, Response, SeatState, TableCtx, TurnOptions, WinOption};
use hupai_core::hand::{Meld, MeldKind};
use hupai_core::situation::{KongKind, WinType};
use hupai_core::tile::{N_KINDS, Tile};
use pyo3::prelude::*;

use crate::convert::AnyInt;
use crate::convert::Tup;
use crate::convert::{Seq, Text};
use crate::errors::{BindResult, hand_err};
use crate::variant::PyVariant;

pub(crate) type MeldIn = (Text, AnyInt, AnyInt, Option<Text>);
pub(crate) type SeatIn = (
    Seq<AnyInt>,
    Seq<MeldIn>,
    bool,
    Option<AnyInt>,
    bool,
    bool,
    AnyInt,
    AnyInt,
    bool,
);
pub(crate) type WinOut = (i64, bool, Vec<(String, u32)>, Vec<i64>);
/// A seat's responses to a discard: `(win, kong, pung, chows, forced_win)`.
pub(crate) type ClaimOut = (Option<WinOut>, bool, bool, Vec<u8>, bool);
/// The options of the seat to move: `(win, concealed_kongs, added_kongs, discards, analysis,
/// forced_win)`.
pub(crate) type TurnOut = (
    Option<WinOut>,
    Vec<u8>,
    Vec<u8>,
    Vec<u8>,
    Vec<(u8, i8, u32)>,
    bool,
);

pub(crate) fn tile(i: impl Into<AnyInt>, what: &str) -> BindResult<Tile> {
    let i: u8 = i.into().within(
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

pub(crate) fn seat(s: SeatIn, i: usize) -> BindResult<SeatState> {
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

/// Every seat of the table (seat `i` is `seats[i]`).
pub(crate) fn seat_states(seats: Vec<SeatIn>) -> BindResult<Vec<SeatState>> {
    seats
        .into_iter()
        .enumerate()
        .map(|(i, s)| seat(s, i))
        .collect()
}

pub(crate) fn win_type(s: &str) -> BindResult<WinType> {
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

#[allow(clippy::too_many_arguments)]
pub(crate) fn ctx(
    prevalent: impl Into<AnyInt>,
    wall_last: bool,
    wall_empty: bool,
    last_kong: Option<Text>,
    wall_remaining: AnyInt,
    first_turn: bool,
    after_exhaustion: bool,
    forbidden: &[AnyInt],
    ready_first_turn: &[AnyInt],
) -> BindResult<TableCtx> {
    let wall_remaining: u32 = wall_remaining.within("wall_remaining", 0, 1_000_000, hand_err)?;
    let mut first_ready = 0u8;
    for &k in ready_first_turn {
        let k: u8 = k.within("ready_first_turn (seat)", 0, 7, hand_err)?;
        first_ready |= 1u8 << k;
    }
    let mut forbidden_discards = 0u64;
    for &t in forbidden {
        forbidden_discards |= 1u64 << tile(t, "forbidden discard")?.idx();
    }
    let prevalent_wind = tile(prevalent, "prevalent wind")?;
    if !prevalent_wind.is_wind() {
        return Err(hand_err(format!("{prevalent_wind} is not a wind")));
    }
    Ok(TableCtx {
        prevalent_wind,
        wall_last,
        wall_empty,
        last_kong: kong_kind(last_kong.as_deref())?,
        wall_remaining,
        first_turn,
        after_exhaustion,
        forbidden_discards,
        ready_first_turn: first_ready,
        pending_kai_bao: 0,
        pending_huang_fan: 0,
    })
}

/// The win type of the seat to move: `self_draw` or `kong_replacement`.
pub(crate) fn turn_win_type(s: &str) -> BindResult<WinType> {
    let wt = win_type(s)?;
    if !wt.is_self_drawn() {
        return Err(hand_err(
            "a turn's win type is self_draw or kong_replacement",
        ));
    }
    Ok(wt)
}

/// A table in live play with no flags, `prevalent` wind, and an empty wall or not.
pub(crate) fn plain_ctx(prevalent: impl Into<AnyInt>, wall_empty: bool) -> BindResult<TableCtx> {
    ctx(
        prevalent,
        false,
        wall_empty,
        None,
        AnyInt(1000),
        false,
        false,
        &[],
        &[],
    )
}

pub(crate) fn claims_out(rs: Vec<Response>) -> Vec<Option<ClaimOut>> {
    rs.into_iter()
        .map(|r| {
            if r.is_empty() {
                None
            } else {
                Some((win_out(r.win), r.kong, r.pung, idx(&r.chows), r.forced_win))
            }
        })
        .collect()
}

pub(crate) fn turn_out(o: TurnOptions) -> TurnOut {
    (
        win_out(o.win),
        idx(&o.concealed_kongs),
        idx(&o.added_kongs),
        idx(&o.discards),
        o.analysis
            .into_iter()
            .map(|(t, s, u)| (t.index(), s, u))
            .collect(),
        o.forced_win,
    )
}

pub(crate) fn win_out(w: Option<WinOption>) -> Option<WinOut> {
    w.map(|w| (w.value, w.self_draw_payment, w.fans, w.deltas))
}

pub(crate) fn idx(t: &[Tile]) -> Vec<u8> {
    t.iter().map(|t| t.index()).collect()
}

/// Every seat's legal responses to ``tile`` discarded by ``discarder`` (``source`` ``discard``,
/// ``after_kong_discard`` or ``rob_kong``): a list with, per seat, ``None`` (nothing) or
/// ``(win, kong, pung, chows, forced_win)`` where ``win`` is ``None`` or ``(value, self_draw_payment, fans,
/// deltas)``. ``first_turn``: the dealer's first discard with no claim before (二人麻将 地和);
/// ``ready_first_turn``: seats whose 报听 was a 天听 (二人麻将).
#[pyfunction]
#[pyo3(signature = (variant, seats, discarder, tile, source, prevalent, wall_last, wall_empty, last_kong=None, wall_remaining=AnyInt(1000), first_turn=false, ready_first_turn=Seq(Vec::new())))]
#[pyo3(
    text_signature = "(variant, seats, discarder, tile, source, prevalent, wall_last, wall_empty, last_kong=None, wall_remaining=1000, first_turn=False, ready_first_turn=[])"
)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn flow_claims(
    variant: PyRef<'_, PyVariant>,
    seats: Seq<SeatIn>,
    discarder: AnyInt,
    tile: AnyInt,
    source: Text,
    prevalent: AnyInt,
    wall_last: bool,
    wall_empty: bool,
    last_kong: Option<Text>,
    wall_remaining: AnyInt,
    first_turn: bool,
    ready_first_turn: Seq<AnyInt>,
) -> BindResult<Vec<Option<ClaimOut>>> {
    let discarder: usize = discarder.within("discarder", 0, seats.len() as i64 - 1, hand_err)?;
    let st = seat_states(seats.0)?;
    let t = self::tile(tile, "discard")?;
    let c = ctx(
        prevalent,
        wall_last,
        wall_empty,
        last_kong,
        wall_remaining,
        first_turn,
        false,
        &[],
        &ready_first_turn,
    )?;
    let rs = flow::claims(&variant.inner, &st, discarder, t, win_type(&source)?, &c)?;
    Ok(claims_out(rs))
}

/// The options of the seat to move (``3n+2`` tiles): ``(win, concealed_kongs, added_kongs,
/// discards, analysis, forced_win)``; ``analysis`` (with ``analyze``) lists ``(discard, shanten,
/// useful)``; ``forced_win``: the win may not be declined (最后四张). ``after_exhaustion``: a draw
/// of the 二人麻将 海底捞月 phase; ``forbidden``: tile kinds a seat that has not declared 亮倒 may
/// not discard (卡五星, the 亮倒 players' winning tiles); ``ready_first_turn``: seats whose 报听 was a
/// 天听 (二人麻将).
#[pyfunction]
#[pyo3(signature = (variant, seat, index, drawn, win_type, prevalent, wall_last, wall_empty, last_kong=None, analyze=false, wall_remaining=AnyInt(1000), first_turn=false, after_exhaustion=false, forbidden=Seq(Vec::new()), ready_first_turn=Seq(Vec::new())))]
#[pyo3(
    text_signature = "(variant, seat, index, drawn, win_type, prevalent, wall_last, wall_empty, last_kong=None, analyze=False, wall_remaining=1000, first_turn=False, after_exhaustion=False, forbidden=[], ready_first_turn=[])"
)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn flow_turn(
    variant: PyRef<'_, PyVariant>,
    seat: Tup<SeatIn>,
    index: AnyInt,
    drawn: Option<AnyInt>,
    win_type: Text,
    prevalent: AnyInt,
    wall_last: bool,
    wall_empty: bool,
    last_kong: Option<Text>,
    analyze: bool,
    wall_remaining: AnyInt,
    first_turn: bool,
    after_exhaustion: bool,
    forbidden: Seq<AnyInt>,
    ready_first_turn: Seq<AnyInt>,
) -> BindResult<TurnOut> {
    let index: usize = index.within("index", 0, 3, hand_err)?;
    let s = self::seat(seat.0, index)?;
    let d = drawn.map(|t| tile(t, "drawn")).transpose()?;
    let wt = turn_win_type(&win_type)?;
    let c = ctx(
        prevalent,
        wall_last,
        wall_empty,
        last_kong,
        wall_remaining,
        first_turn,
        after_exhaustion,
        &forbidden,
        &ready_first_turn,
    )?;
    Ok(turn_out(flow::turn(
        &variant.inner,
        &s,
        index,
        d,
        wt,
        &c,
        analyze,
    )?))
}

/// 四川 draw-end states ``(huazhu, da_jiao|None)`` of the given (waiting) seats.
#[pyfunction]
pub fn flow_draw_end(
    variant: PyRef<'_, PyVariant>,
    seats: Seq<SeatIn>,
) -> BindResult<Vec<(bool, Option<i64>)>> {
    let st = seat_states(seats.0)?;
    Ok(flow::draw_end_states(&variant.inner, &st)?)
}

/// The next hand's ``(dealer, floor, kai_bao, huang_fan)`` by the preset's rotation and carry-over
/// rules, given how this hand ended (``winners`` in resolution order, empty for a drawn hand;
/// ``discarder`` of a discard win) and the carry it was played with.
#[pyfunction]
#[pyo3(signature = (variant, dealer, winners, discarder=None, floor=AnyInt(0), kai_bao=AnyInt(0), huang_fan=AnyInt(0), players=AnyInt(4), random=AnyInt(0)))]
#[pyo3(
    text_signature = "(variant, dealer, winners, discarder=None, floor=0, kai_bao=0, huang_fan=0, players=4, random=0)"
)]
#[allow(clippy::too_many_arguments)]
pub fn flow_next_hand(
    variant: PyRef<'_, PyVariant>,
    dealer: AnyInt,
    winners: Seq<AnyInt>,
    discarder: Option<AnyInt>,
    floor: AnyInt,
    kai_bao: AnyInt,
    huang_fan: AnyInt,
    players: AnyInt,
    random: AnyInt,
) -> BindResult<(usize, u32, u32, u32)> {
    let players: usize = players.within("players", 2, 4, hand_err)?;
    let seat = |v: AnyInt, what: &str| v.within::<usize>(what, 0, players as i64 - 1, hand_err);
    let end = flow::HandEnd {
        players,
        dealer: seat(dealer, "dealer")?,
        winners: winners
            .into_iter()
            .map(|w| seat(w, "winner"))
            .collect::<BindResult<_>>()?,
        discarder: discarder.map(|d| seat(d, "discarder")).transpose()?,
        random: random.0.unsigned_abs(),
    };
    let carry = flow::Carry {
        floor: floor.within("floor", 0, 1_000, hand_err)?,
        kai_bao: kai_bao.within("kai_bao", 0, 1_000, hand_err)?,
        huang_fan: huang_fan.within("huang_fan", 0, 1_000, hand_err)?,
    };
    let (d, c) = flow::next_hand(&variant.inner, &end, carry)?;
    Ok((d, c.floor, c.kai_bao, c.huang_fan))
}

/// Raise ``RuleConfigError`` unless the table plays this variant (its preset and every switch
/// value; some switches score through ``hupai.score`` but are not played at the table yet).
#[pyfunction]
pub fn flow_check(variant: PyRef<'_, PyVariant>) -> BindResult<()> {
    Ok(flow::check_playable(&variant.inner)?)
}

/// The 漏胡 / 过水 lock of the preset: ``none``, ``until_own_draw`` or ``same_tile``.
#[pyfunction]
pub fn flow_pass_lock(variant: PyRef<'_, PyVariant>) -> &'static str {
    match flow::pass_lock(&variant.inner) {
        flow::PassLock::None => "none",
        flow::PassLock::UntilOwnDraw => "until_own_draw",
        flow::PassLock::SameTile => "same_tile",
        flow::PassLock::LowerValue => "lower_value",
    }
}

/// 跟庄: whether the hand's first discards ``[(seat, tile)]`` (dealer first, no claim or kong
/// between them) make the dealer pay (河北第4稿 with the switch ``gen_zhuang``).
#[pyfunction]
pub fn flow_gen_zhuang(
    variant: PyRef<'_, PyVariant>,
    dealer: AnyInt,
    first: Seq<(AnyInt, AnyInt)>,
) -> BindResult<bool> {
    let f = first
        .into_iter()
        .map(|(s, t)| Ok((s.within("seat", 0, 3, hand_err)?, tile(t, "discard")?)))
        .collect::<BindResult<Vec<_>>>()?;
    Ok(flow::gen_zhuang(
        &variant.inner,
        dealer.within("dealer", 0, 3, hand_err)?,
        &f,
    )?)
}

/// 开宝 (上海): the pending 开宝 this hand's dice ``(d1, d2)`` add (1 on equal dice, else 0).
#[pyfunction]
pub fn flow_kai_bao(variant: PyRef<'_, PyVariant>, d1: AnyInt, d2: AnyInt) -> BindResult<u32> {
    let die = |d: AnyInt| d.within::<u8>("die", 1, 6, hand_err);
    Ok(flow::kai_bao(&variant.inner, (die(d1)?, die(d2)?))?)
}

/// The waits of a 13-tile seat (kongs as 3): tile indices the preset's scorer accepts as a
/// discard win, with the seat's declaration (``hand_locked``: 亮倒 / 报听) counted.
#[pyfunction]
#[pyo3(signature = (variant, seat, index, prevalent=AnyInt(27)))]
#[pyo3(text_signature = "(variant, seat, index, prevalent=27)")]
pub fn flow_waits(
    variant: PyRef<'_, PyVariant>,
    seat: Tup<SeatIn>,
    index: AnyInt,
    prevalent: AnyInt,
) -> BindResult<Vec<u8>> {
    let index: usize = index.within("index", 0, 3, hand_err)?;
    let s = self::seat(seat.0, index)?;
    let c = plain_ctx(prevalent, false)?;
    Ok(idx(&flow::waits(&variant.inner, &s, index, &c)?))
}

/// 亮倒 / 报听: ``[(discard, waits)]`` — the discards of the seat to move after which its hand is
/// ready, each with the waits it would declare.
#[pyfunction]
#[pyo3(signature = (variant, seat, index, prevalent=AnyInt(27)))]
#[pyo3(text_signature = "(variant, seat, index, prevalent=27)")]
pub fn flow_ready_discards(
    variant: PyRef<'_, PyVariant>,
    seat: Tup<SeatIn>,
    index: AnyInt,
    prevalent: AnyInt,
) -> BindResult<Vec<(u8, Vec<u8>)>> {
    let index: usize = index.within("index", 0, 3, hand_err)?;
    let s = self::seat(seat.0, index)?;
    let c = plain_ctx(prevalent, false)?;
    Ok(flow::ready_discards(&variant.inner, &s, index, &c)?
        .into_iter()
        .map(|(t, w)| (t.index(), idx(&w)))
        .collect())
}
