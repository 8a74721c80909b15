//! 河北 at the table: the hand record (kongs, the win with the score it was taken with) settled
//! at the end by [`super::settle_scored`].

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::game::mahjong::preset::book;
use crate::game::mahjong::{Mahjong, PresetTable, SEAT_NAMES};
use crate::game::scored::Scored;
use crate::scoring::ledger::Ledger;
use crate::situation::KongKind;
use crate::variant::Rules;

/// The kongs of a hand as the 河北 settlements read them (`owner`, `type`, `feeder`).
pub(crate) fn kongs_json(t: &Mahjong) -> Vec<Value> {
    t.kongs
        .iter()
        .map(|k| {
            let ty = match k.kind {
                KongKind::Open => "open",
                KongKind::Added => "added",
                KongKind::Concealed => "concealed",
            };
            let mut v = json!({"owner": SEAT_NAMES[k.owner], "type": ty});
            if let Some(f) = k.feeder {
                v["feeder"] = json!(SEAT_NAMES[f]);
            }
            v
        })
        .collect()
}

/// The 河北 part of the table.
#[derive(Debug)]
pub struct HebeiTable;

impl PresetTable for HebeiTable {
    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        let Rules::Hebei(r) = t.variant.rules() else {
            return Err(Error::rule("the 河北 table needs the hebei preset"));
        };
        let win = t.wins.first();
        let rec = json!({
            "seats": (0..t.n).map(|k| SEAT_NAMES[k]).collect::<Vec<_>>(),
            "dealer": SEAT_NAMES[t.dealer],
            "kongs": kongs_json(t),
            "win": win.map_or(Value::Null, |w| w.record.clone()),
        });
        let scored = win.and_then(|w| match w.option.score.as_deref() {
            Some(Scored::Hebei(s)) => Some(s.clone()),
            _ => None,
        });
        book(ledger, &super::settle_scored(r, &rec, scored)?)
    }
}
