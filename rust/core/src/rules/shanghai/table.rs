//! 上海 at the table: each win's record (flowers, pending 开宝/黄番, the claims made from each
//! player for 承包) settled at the end by the preset's ruleset with the scores the wins were
//! taken with.

use serde_json::json;

use crate::error::Result;
use crate::game::mahjong::preset::{hand_record, settle_record};
use crate::game::mahjong::{Mahjong, PresetTable, SEAT_NAMES, WinRec};
use crate::hand::MeldKind;
use crate::scoring::ledger::Ledger;
use crate::situation::KongKind;

/// The 上海 part of the table.
#[derive(Debug)]
pub struct ShanghaiTable;

impl PresetTable for ShanghaiTable {
    fn win_record(&self, t: &Mahjong, w: &WinRec, rec: &mut serde_json::Value) -> Result<()> {
        let s = w.seat;
        rec["situation"]["flowers"] = json!(t.flowers[s].len().min(8));
        rec["situation"]["kai_bao"] = json!(t.carry.kai_bao);
        rec["situation"]["huang_fan"] = json!(t.carry.huang_fan);
        let mut claims = serde_json::Map::new();
        for (m, kk) in &t.seats[s].melds {
            let src = match m.kind {
                MeldKind::Chow => Some((s + t.n - 1) % t.n),
                MeldKind::Pung => Some((s + t.n - usize::from(m.from)) % t.n),
                MeldKind::Kong if *kk == Some(KongKind::Open) => {
                    Some((s + t.n - usize::from(m.from)) % t.n)
                }
                MeldKind::Kong => None,
            };
            if let Some(src) = src.filter(|&x| x != s) {
                let e = claims.entry(SEAT_NAMES[src]).or_insert(json!(0));
                *e = json!(e.as_i64().unwrap_or(0) + 1);
            }
        }
        rec["claims"] = serde_json::Value::Object(claims);
        Ok(())
    }

    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        settle_record(t, &hand_record(t, true), ledger)
    }
}
