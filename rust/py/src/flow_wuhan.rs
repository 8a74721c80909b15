//! Bindings of `hupai_core::rules::wuhan::flow`: the 武汉 rule queries of the table (`hupai.game.rules_wuhan`).
//! Seats are the tuples of `flow.rs`; `kongs` gives per seat `(痞子杠, 癞子杠)` made so far.

use hupai_core::rules::wuhan::flow::{self as wf, WuhanCtx, WuhanSeat};
use pyo3::prelude::*;

use crate::convert::Tup;
use crate::convert::{AnyInt, Seq, Text};

use crate::errors::{BindResult, hand_err};
use crate::flow::{
    ClaimOut, SeatIn, WinOut, claims_out, idx, plain_ctx, seat, seat_states, tile, turn_out,
    turn_win_type, win_type,
};
use crate::variant::PyVariant;

fn wctx(indicator: AnyInt, haidi: bool) -> BindResult<WuhanCtx> {
    Ok(WuhanCtx {
        indicator: tile(indicator, "indicator")?,
        haidi,
    })
}

fn wseat(k: (AnyInt, AnyInt)) -> BindResult<WuhanSeat> {
    Ok(WuhanSeat {
        pizi_kongs: k.0.within("kongs (痞子杠)", 0, 8, hand_err)?,
        laizi_kongs: k.1.within("kongs (癞子杠)", 0, 4, hand_err)?,
    })
}

/// The 癞子 (tile index) that ``indicator`` (tile index) gives under the variant's switches.
#[pyfunction]
pub fn wuhan_laizi(variant: PyRef<'_, PyVariant>, indicator: AnyInt) -> BindResult<u8> {
    Ok(wf::laizi(&variant.inner, tile(indicator, "indicator")?)?.index())
}

/// 武汉 responses to ``tile`` discarded by ``discarder`` (as ``flow_claims``; 痞子 / 癞子 and 海底
/// discards get none).
#[pyfunction]
#[pyo3(signature = (variant, seats, kongs, discarder, tile, source, indicator, haidi, wall_empty, prevalent=AnyInt(27)))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn wuhan_flow_claims(
    variant: PyRef<'_, PyVariant>,
    seats: Seq<SeatIn>,
    kongs: Seq<(AnyInt, AnyInt)>,
    discarder: AnyInt,
    tile: AnyInt,
    source: Text,
    indicator: AnyInt,
    haidi: bool,
    wall_empty: bool,
    prevalent: AnyInt,
) -> BindResult<Vec<Option<ClaimOut>>> {
    let discarder: usize = discarder.within("discarder", 0, seats.len() as i64 - 1, hand_err)?;
    let st = seat_states(seats.0)?;
    let ex: Vec<WuhanSeat> = kongs.into_iter().map(wseat).collect::<BindResult<_>>()?;
    let t = self::tile(tile, "discard")?;
    let c = plain_ctx(prevalent, wall_empty)?;
    let rs = wf::claims(
        &variant.inner,
        &st,
        &ex,
        discarder,
        t,
        win_type(&source)?,
        &c,
        wctx(indicator, haidi)?,
    )?;
    // 一炮单响: no win is forced (`forced_win` stays false).
    Ok(claims_out(rs))
}

/// 武汉 options of the seat to move: ``(win, concealed_kongs, added_kongs, discards, analysis,
/// pizi_kongs)``; ``pizi_kongs`` are the 痞子 / 癞子 it may 杠 out (one tile each).
#[pyfunction]
#[pyo3(signature = (variant, seat, kongs, index, drawn, win_type, indicator, haidi, wall_empty, analyze=false, prevalent=AnyInt(27)))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn wuhan_flow_turn(
    variant: PyRef<'_, PyVariant>,
    seat: Tup<SeatIn>,
    kongs: Tup<(AnyInt, AnyInt)>,
    index: AnyInt,
    drawn: Option<AnyInt>,
    win_type: Text,
    indicator: AnyInt,
    haidi: bool,
    wall_empty: bool,
    analyze: bool,
    prevalent: AnyInt,
) -> BindResult<(
    Option<WinOut>,
    Vec<u8>,
    Vec<u8>,
    Vec<u8>,
    Vec<(u8, i8, u32)>,
    Vec<u8>,
)> {
    let index: usize = index.within("index", 0, 3, hand_err)?;
    let s = self::seat(seat.0, index)?;
    let d = drawn.map(|t| tile(t, "drawn")).transpose()?;
    let wt = turn_win_type(&win_type)?;
    let c = plain_ctx(prevalent, wall_empty)?;
    let o = wf::turn(
        &variant.inner,
        &s,
        &wseat(kongs.0)?,
        index,
        d,
        wt,
        &c,
        wctx(indicator, haidi)?,
        analyze,
    )?;
    let (win, concealed, added, discards, analysis, _) = turn_out(o.base);
    Ok((
        win,
        concealed,
        added,
        discards,
        analysis,
        idx(&o.pizi_kongs),
    ))
}

/// 听牌 (shape only) of a waiting seat (``3n+1`` standing tiles), for 全求人 承包.
#[pyfunction]
pub fn wuhan_ready(
    variant: PyRef<'_, PyVariant>,
    seat: Tup<SeatIn>,
    indicator: AnyInt,
) -> BindResult<bool> {
    let s = self::seat(seat.0, 0)?;
    Ok(wf::ready(&variant.inner, &s, wctx(indicator, false)?)?)
}
