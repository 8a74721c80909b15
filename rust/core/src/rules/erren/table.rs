//! 二人麻将 at the table: each win's record (花牌 held, 报听 / 天听, the 海底捞月 phase, 天和 /
//! 地和 / 人和) settled at the end with the scores the wins were taken with.

use serde_json::{Value, json};

use crate::error::Result;
use crate::game::mahjong::preset::{hand_record, settle_record};
use crate::game::mahjong::{Mahjong, Phase, PresetTable, WinRec};
use crate::scoring::ledger::Ledger;

/// The 二人麻将 part of the table.
#[derive(Debug)]
pub struct ErrenTable;

impl PresetTable for ErrenTable {
    fn win_record(&self, t: &Mahjong, w: &WinRec, rec: &mut Value) -> Result<()> {
        let s = w.seat;
        let sit = &mut rec["situation"];
        sit["flowers"] = json!(t.seats[s].flowers);
        sit["ready_declared"] = json!(t.seats[s].hand_locked);
        sit["ready_first_turn"] = json!(t.tian[s]);
        if t.phase == Phase::Haidi {
            sit["after_exhaustion"] = json!(true);
            sit["wall_last"] = json!(false);
        }
        let has = |id: &str| w.option.fans.iter().any(|f| f.0 == id);
        if has("TIAN_HE") {
            sit["blessing"] = json!("heavenly");
        } else if has("REN_HE") {
            sit["blessing"] = json!("human");
        } else if has("DI_HE") {
            sit["blessing"] = json!("earthly");
        }
        Ok(())
    }

    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        settle_record(t, &hand_record(t, true), ledger)
    }
}
