//! 河北第4稿 at the table: the hand record (上楼 floor, 跟庄, kongs, the win with its score)
//! settled at the end by [`super::settle_scored`].

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::game::mahjong::preset::book;
use crate::game::mahjong::{Mahjong, PresetTable, SEAT_NAMES};
use crate::game::scored::Scored;
use crate::rules::hebei::table::kongs_json;
use crate::scoring::ledger::Ledger;
use crate::variant::Rules;

/// The 河北第4稿 part of the table.
#[derive(Debug)]
pub struct HebeiDraft4Table;

impl PresetTable for HebeiDraft4Table {
    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        let Rules::HebeiDraft4(r) = t.variant.rules() else {
            return Err(Error::rule("the 第4稿 table needs the hebei_draft4 preset"));
        };
        let win = t.wins.first();
        let rec = json!({
            "seats": (0..t.n).map(|k| SEAT_NAMES[k]).collect::<Vec<_>>(),
            "dealer": SEAT_NAMES[t.dealer],
            "kongs": kongs_json(t),
            "win": win.map_or(Value::Null, |w| w.record.clone()),
            "floor": t.carry.floor,
            "gen_zhuang": t.gen_zhuang,
        });
        let scored = win.and_then(|w| match w.option.score.as_deref() {
            Some(Scored::HebeiDraft4(s)) => Some(s.clone()),
            _ => None,
        });
        book(ledger, &super::settle_scored(r, &rec, scored)?)
    }
}
