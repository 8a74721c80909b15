//! 河北第4稿 at the table: the hand record (上楼 floor, 跟庄, kongs, the win with its score)
//! settled at the end by the preset's ruleset.

use serde_json::json;

use crate::error::Result;
use crate::game::mahjong::preset::{hand_record, settle_record};
use crate::game::mahjong::{Mahjong, PresetTable};
use crate::scoring::ledger::Ledger;

/// The 河北第4稿 part of the table.
#[derive(Debug)]
pub struct HebeiDraft4Table;

impl PresetTable for HebeiDraft4Table {
    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        let mut rec = hand_record(t, true);
        rec["table"] = json!({"floor": t.carry.floor, "gen_zhuang": t.gen_zhuang});
        settle_record(t, &rec, ledger)
    }
}
