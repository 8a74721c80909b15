//! 武汉 at the table: the rule queries with the flipped indicator, the 癞子 and the 痞子杠 /
//! 癞子杠 counts ([`super::flow`]), each win's record, and the settlement of the hand with every
//! seat's factors (开口, 明杠, 暗杠, 红中杠, 癞子杠, the discarder's 听牌, the third opening).

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::game::flow::{Response, SeatState, TableCtx};
use crate::game::mahjong::preset::{hand_record, settle_record};
use crate::game::mahjong::{Mahjong, PresetTable, SEAT_NAMES, Turn, WinRec};
use crate::hand::MeldKind;
use crate::scoring::ledger::Ledger;
use crate::situation::{KongKind, WinType};
use crate::tile::Tile;

use super::flow::{self as wf, WuhanCtx, WuhanSeat};

/// The 武汉 part of the table.
#[derive(Debug)]
pub struct WuhanTable;

fn wctx(t: &Mahjong) -> Result<WuhanCtx> {
    Ok(WuhanCtx {
        indicator: Tile::new_unchecked(
            t.indicator
                .ok_or_else(|| Error::rule("武汉: no indicator flipped yet"))?,
        ),
        haidi: t.haidi,
    })
}

fn wseat(t: &Mahjong, k: usize) -> WuhanSeat {
    WuhanSeat {
        pizi_kongs: t.pizi_kongs[k][0],
        laizi_kongs: t.pizi_kongs[k][1],
    }
}

/// The 武汉 queries see no table flags but the wall's end (as the table always asked them).
fn plain(t: &Mahjong, wall_empty: bool) -> TableCtx {
    TableCtx {
        wall_empty,
        ..t.plain_ctx()
    }
}

impl PresetTable for WuhanTable {
    fn turn(
        &self,
        t: &Mahjong,
        seat: usize,
        drawn: Option<Tile>,
        win_type: WinType,
        ctx: &TableCtx,
        analyze: bool,
    ) -> Result<Turn> {
        let o = wf::turn(
            &t.variant,
            &t.seats[seat],
            &wseat(t, seat),
            seat,
            drawn,
            win_type,
            &plain(t, ctx.wall_empty),
            wctx(t)?,
            analyze,
        )?;
        Ok(Turn {
            opts: o.base,
            pizi_kongs: o.pizi_kongs,
        })
    }

    fn claims(
        &self,
        t: &Mahjong,
        seats: &[SeatState],
        discarder: usize,
        tile: Tile,
        source: WinType,
        ctx: &TableCtx,
    ) -> Result<Vec<Response>> {
        let extra: Vec<WuhanSeat> = (0..t.n).map(|k| wseat(t, k)).collect();
        wf::claims(
            &t.variant,
            seats,
            &extra,
            discarder,
            tile,
            source,
            &plain(t, ctx.wall_empty),
            wctx(t)?,
        )
    }

    fn wildcard(&self, t: &Mahjong, indicator: Tile) -> Result<Tile> {
        wf::laizi(&t.variant, indicator)
    }

    fn win_record(&self, t: &Mahjong, w: &WinRec, rec: &mut Value) -> Result<()> {
        let sit = &mut rec["situation"];
        sit["wild_indicator"] = json!(Tile::new_unchecked(t.indicator.unwrap_or(0)).to_string());
        sit["hongzhong_kongs"] = json!(t.pizi_kongs[w.seat][0]);
        sit["laizi_kongs"] = json!(t.pizi_kongs[w.seat][1]);
        sit["wall_last"] = json!(t.haidi && w.win_type.is_self_drawn());
        Ok(())
    }

    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        // 武汉 counts kongs as seat factors: no kong events.
        let mut rec = hand_record(t, false);
        let mut seat_data = serde_json::Map::new();
        let winners: Vec<usize> = t.wins.iter().map(|w| w.seat).collect();
        for w in &t.wins {
            if let Some(d) = w.from {
                let ready = wf::ready(&t.variant, &t.seats[d], wctx(t)?)?;
                seat_data.insert(SEAT_NAMES[d].into(), json!({"ready": ready}));
            }
        }
        for (k, name) in SEAT_NAMES.iter().enumerate().take(t.n) {
            let mut f = json!({
                "openings": 0, "ming_gang": 0, "an_gang": 0,
                "hongzhong_gang": t.pizi_kongs[k][0], "laizi_gang": t.pizi_kongs[k][1],
            });
            let mut sources = Vec::new();
            for (m, kk) in &t.seats[k].melds {
                if *kk == Some(KongKind::Concealed) {
                    f["an_gang"] = json!(f["an_gang"].as_i64().unwrap_or(0) + 1);
                    continue;
                }
                f["openings"] = json!(f["openings"].as_i64().unwrap_or(0) + 1);
                if m.kind == MeldKind::Kong {
                    f["ming_gang"] = json!(f["ming_gang"].as_i64().unwrap_or(0) + 1);
                }
                sources.push(if m.kind == MeldKind::Chow {
                    (k + t.n - 1) % t.n
                } else {
                    (k + t.n - usize::from(m.from)) % t.n
                });
            }
            if sources.len() >= 3 && winners.contains(&k) {
                f["third_opening_from"] = json!(SEAT_NAMES[sources[2]]);
            }
            let e = seat_data.entry(*name).or_insert_with(|| json!({}));
            if let (Some(e), Some(f)) = (e.as_object_mut(), f.as_object()) {
                for (a, b) in f {
                    e.insert(a.clone(), b.clone());
                }
            }
        }
        rec["seat_data"] = Value::Object(seat_data);
        settle_record(t, &rec, ledger)
    }
}
