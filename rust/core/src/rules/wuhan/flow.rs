//! 武汉 at the table: the rule queries of the flow layer for `wuhan` (the generic
//! [`crate::game::flow`] queries plus what the 痞子 and the 癞子 change).
//!
//! * A 痞子 (红中; with `pizi_set = hongzhong_facai` also 发) or the 癞子 leaves the hand only as a
//!   single-tile 杠 (红中杠 / 癞子杠, [`WuhanTurn::pizi_kongs`]) followed by a replacement draw; it is
//!   never a plain discard in live play, and nobody may 吃/碰/杠 or win on it.
//! * No 吃/碰/杠 uses a 痞子 or the 癞子; concealed and added kongs neither.
//! * Wins are decided by the preset scorer ([`super::WuhanRules::score`]) with the 癞子 as wildcard:
//!   开口, no 痞子 held, 258 pair, two 癞子 forbid a 小胡, 一炮单响.
//! * 海底 (the four draws after live play): self-draw wins only, no kong, no claim.
//! * When no kong is possible (the live wall is exhausted) a held 痞子 / 癞子 may be discarded as a
//!   dead tile (no claim, no win on it, no factor).

use crate::analysis::{self, is_winning_planned};
use crate::decompose::Shapes;
use crate::error::{Error, Result};
use crate::game::flow::{
    Response, SeatState, TableCtx, TurnOptions, WinOption, check_claim, check_seat, check_to_move,
    seat_situation, seen_by, sets_needed,
};
use crate::hand::MeldKind;
use crate::situation::{ExtraFlags, WinType};
use crate::tile::{Counts, N_KINDS, Tile};
use crate::variant::Variant;

use super::WuhanRules;

/// The 武汉 facts of one seat that the generic [`SeatState`] does not carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WuhanSeat {
    /// 痞子杠 made (红中杠, and 发 with 八痞四赖).
    pub pizi_kongs: u8,
    /// 癞子杠 made.
    pub laizi_kongs: u8,
}

/// Table facts of a 武汉 query.
#[derive(Clone, Copy, Debug)]
pub struct WuhanCtx {
    /// The flipped indicator (the 癞子 follows from it and the switches).
    pub indicator: Tile,
    /// A 海底 draw: self-draw wins only (海底捞), no kong, no claim on the discard.
    pub haidi: bool,
}

/// The options of the seat to move: the generic ones plus the 痞子 / 癞子 it may 杠 out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WuhanTurn {
    pub base: TurnOptions,
    pub pizi_kongs: Vec<Tile>,
}

fn rules_of(variant: &Variant) -> Result<&WuhanRules> {
    super::rules_of(variant)
}

/// The 癞子 of an indicator under the variant's switches.
pub fn laizi(variant: &Variant, indicator: Tile) -> Result<Tile> {
    rules_of(variant)?.laizi_for(indicator)
}

struct Q<'a> {
    r: &'a WuhanRules,
    laizi: Tile,
    ctx: WuhanCtx,
}

impl Q<'_> {
    /// Tiles that never take part in a claim or a kong of sets: the 痞子 and the 癞子.
    fn special(&self, t: Tile) -> bool {
        t == self.laizi || self.r.is_pizi(t)
    }

    fn win(
        &self,
        seat: &SeatState,
        ws: &WuhanSeat,
        tile: Tile,
        win_type: WinType,
        t: &TableCtx,
    ) -> Option<WinOption> {
        let mut full = seat.counts;
        full[tile.idx()] += 1;
        if self.r.pizi.iter().any(|p| full[p.idx()] > 0) {
            return None;
        }
        // Cheap shape filter before the scorer: standard with the 癞子 as wildcards, 乱风, 乱将,
        // or (switch) 七小对.
        let k = full[self.laizi.idx()];
        let mut without = full;
        without[self.laizi.idx()] = 0;
        let honours = (0..N_KINDS).all(|i| full[i] == 0 || i >= 27);
        let jiang = (0..N_KINDS).all(|i| full[i] == 0 || (i < 27 && matches!(i % 9, 1 | 4 | 7)));
        let std = is_winning_planned(&without, k, sets_needed(seat), Shapes::STANDARD)
            || is_winning_planned(&full, 0, sets_needed(seat), Shapes::STANDARD);
        if !(std || honours || jiang || (self.r.qi_xiao_dui && seat.melds.is_empty())) {
            return None;
        }
        let mut sit = seat_situation(seat, tile, win_type, t)?;
        sit.wall_last = self.ctx.haidi && win_type.is_self_drawn();
        sit.flowers = 0;
        sit.void_suit = None;
        sit.extra = ExtraFlags {
            wild_indicator: Some(self.ctx.indicator),
            hongzhong_kongs: ws.pizi_kongs,
            laizi_kongs: ws.laizi_kongs,
            ..ExtraFlags::default()
        };
        let sc = self.r.score(&sit).ok()?;
        Some(WinOption::from_score(
            sc.per_payer,
            win_type.is_self_drawn(),
            sc,
        ))
    }
}

fn query<'a>(variant: &'a Variant, ctx: WuhanCtx) -> Result<Q<'a>> {
    let r = rules_of(variant)?;
    Ok(Q {
        r,
        laizi: r.laizi_for(ctx.indicator)?,
        ctx,
    })
}

fn check_extra(seats: usize, extra: usize) -> Result<()> {
    if seats != extra {
        return Err(Error::hand(format!(
            "武汉 flow: {seats} seats but {extra} 痞子/癞子 kong counts"
        )));
    }
    Ok(())
}

/// Every seat's legal responses to `tile` discarded (or, with `RobKong`, added to a 碰) by
/// `discarder`: 一炮单响 ordering is the table's; this only says who may do what.
#[allow(clippy::too_many_arguments)]
pub fn claims(
    variant: &Variant,
    seats: &[SeatState],
    extra: &[WuhanSeat],
    discarder: usize,
    tile: Tile,
    source: WinType,
    t: &TableCtx,
    ctx: WuhanCtx,
) -> Result<Vec<Response>> {
    let q = query(variant, ctx)?;
    check_extra(seats.len(), extra.len())?;
    check_claim(seats.len(), discarder, source)?;
    if tile.idx() >= N_KINDS {
        return Err(Error::hand(format!("{tile} cannot be discarded")));
    }
    let n = seats.len();
    let mut out = Vec::with_capacity(n);
    for (i, seat) in seats.iter().enumerate() {
        check_seat(seat, i, 0)?;
        let mut r = Response::default();
        // 海底 discards and 痞子 / 癞子 are dead: nobody may claim or win on them.
        if i == discarder || !seat.active || ctx.haidi || q.special(tile) {
            out.push(r);
            continue;
        }
        if !seat.win_locked {
            r.win = q.win(seat, &extra[i], tile, source, t);
        }
        if source != WinType::RobKong && !t.wall_empty && !seat.hand_locked {
            let c = seat.counts[tile.idx()];
            r.pung = c >= 2;
            r.kong = c >= 3;
            if i == (discarder + 1) % n {
                if let (Some(s), Some(rank)) = (tile.suit_index(), tile.rank()) {
                    for lo in rank.saturating_sub(2).max(1)..=rank.min(7) {
                        let ok = (lo..lo + 3).all(|rk| {
                            let x = Tile::new_unchecked(s * 9 + rk - 1);
                            rk == rank || (seat.counts[x.idx()] > 0 && !q.special(x))
                        });
                        if ok {
                            r.chows.push(Tile::new_unchecked(s * 9 + lo - 1));
                        }
                    }
                }
            }
        }
        out.push(r);
    }
    Ok(out)
}

/// The options of the seat to move (`3n+2` tiles); `drawn` as in [`crate::game::flow::turn`].
#[allow(clippy::too_many_arguments)]
pub fn turn(
    variant: &Variant,
    seat: &SeatState,
    extra: &WuhanSeat,
    idx: usize,
    drawn: Option<Tile>,
    win_type: WinType,
    t: &TableCtx,
    ctx: WuhanCtx,
    analyze: bool,
) -> Result<WuhanTurn> {
    let q = query(variant, ctx)?;
    check_seat(seat, idx, 0)?;
    check_to_move(seat, idx)?;
    if !win_type.is_self_drawn() {
        return Err(Error::hand(
            "a turn's win type is self_draw or kong_replacement",
        ));
    }
    let mut o = WuhanTurn::default();
    if let Some(d) = drawn {
        if d.idx() >= N_KINDS || seat.counts[d.idx()] == 0 {
            return Err(Error::hand(format!(
                "seat {idx}: drawn tile {d} is not in the hand"
            )));
        }
        let mut before = seat.clone();
        before.counts[d.idx()] -= 1;
        o.base.win = q.win(&before, extra, d, win_type, t);
    }
    let kongs = !t.wall_empty && !ctx.haidi;
    let held = |i: usize| seat.counts[i] > 0;
    if kongs {
        for i in (0..N_KINDS).filter(|&i| held(i)) {
            let x = Tile::new_unchecked(i as u8);
            if q.special(x) {
                o.pizi_kongs.push(x);
                continue;
            }
            if seat.melds.len() < 4 && seat.counts[i] == 4 {
                o.base.concealed_kongs.push(x);
            }
            if seat
                .melds
                .iter()
                .any(|(m, _)| m.kind == MeldKind::Pung && m.tile == x)
            {
                o.base.added_kongs.push(x);
            }
        }
    }
    // In live play a 痞子 / 癞子 leaves the hand only as a 杠; with no kong possible it is a
    // dead discard.
    o.base.discards = (0..N_KINDS)
        .filter(|&i| held(i))
        .map(|i| Tile::new_unchecked(i as u8))
        .filter(|&x| !kongs || !q.special(x))
        .collect();
    if analyze && !q.r.pizi.iter().any(|p| held(p.idx())) {
        let mut c: Counts = seat.counts;
        let k = c[q.laizi.idx()];
        c[q.laizi.idx()] = 0;
        let ds = analysis::discard_options(
            &c,
            k,
            seat.melds.len(),
            Shapes::STANDARD,
            Some(&seen_by(seat)),
        )?;
        o.base.analysis = ds.iter().map(|d| (d.tile, d.shanten, d.total)).collect();
    }
    Ok(o)
}

/// 听牌 for 承包 (全求人): some tile (not a 痞子) completes the standing tiles as 4 sets and a
/// pair with the 癞子 as wildcards, or as 乱风 / 乱将. Shape only (no 开口 or pair condition).
pub fn ready(variant: &Variant, seat: &SeatState, ctx: WuhanCtx) -> Result<bool> {
    let q = query(variant, ctx)?;
    check_seat(seat, 0, 0)?;
    let total: u32 = seat.counts.iter().map(|&c| u32::from(c)).sum();
    if total % 3 != 1 {
        return Err(Error::hand(format!(
            "a waiting hand holds 3n+1 tiles, not {total}"
        )));
    }
    if q.r.pizi.iter().any(|p| seat.counts[p.idx()] > 0) {
        return Ok(false);
    }
    for i in 0..N_KINDS {
        let x = Tile::new_unchecked(i as u8);
        if q.r.is_pizi(x) || seat.counts[i] >= 4 {
            continue;
        }
        let mut full = seat.counts;
        full[i] += 1;
        let k = full[q.laizi.idx()];
        let mut without = full;
        without[q.laizi.idx()] = 0;
        let honours = (0..N_KINDS).all(|j| full[j] == 0 || j >= 27);
        let jiang = (0..N_KINDS).all(|j| full[j] == 0 || (j < 27 && matches!(j % 9, 1 | 4 | 7)));
        if honours || jiang || is_winning_planned(&without, k, sets_needed(seat), Shapes::STANDARD)
        {
            return Ok(true);
        }
    }
    Ok(false)
}
