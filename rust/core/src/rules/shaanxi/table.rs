//! 陕西 at the table: the hand record (下炮子 per seat, 逃跑) settled at the end with the wins'
//! scores.

use serde_json::json;

use crate::error::Result;
use crate::game::mahjong::preset::{hand_record, settle_record};
use crate::game::mahjong::{Mahjong, PresetTable, SEAT_NAMES};
use crate::scoring::ledger::Ledger;

/// The 陕西 part of the table.
#[derive(Debug)]
pub struct ShaanxiTable;

impl PresetTable for ShaanxiTable {
    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        let mut rec = hand_record(t, true);
        if let Some(p) = &t.pao_zi {
            let mut sd = serde_json::Map::new();
            for (k, &x) in p.iter().enumerate() {
                sd.insert(SEAT_NAMES[k].into(), json!({"pao_zi": x}));
            }
            rec["seat_data"] = serde_json::Value::Object(sd);
        }
        if let Some(e) = t.escaped {
            rec["table"] = json!({"escaped": SEAT_NAMES[e]});
        }
        settle_record(t, &rec, ledger)
    }
}
