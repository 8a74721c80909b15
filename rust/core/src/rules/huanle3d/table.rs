//! 欢乐3D at the table: the hand record settled at the end with the wins' scores.

use crate::error::{Error, Result};
use crate::game::mahjong::preset::{book, pattern_record, pattern_scores};
use crate::game::mahjong::{Mahjong, PresetTable};
use crate::scoring::ledger::Ledger;
use crate::scoring::pattern::HandRecord;
use crate::variant::Rules;

/// The 欢乐3D part of the table.
#[derive(Debug)]
pub struct Huanle3dTable;

impl PresetTable for Huanle3dTable {
    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        let Rules::Huanle3d(r) = t.variant.rules() else {
            return Err(Error::rule("the 欢乐3D table needs the huanle3d preset"));
        };
        let rec = HandRecord::from_value(pattern_record(t))?;
        book(ledger, &r.settle_scored(&rec, &pattern_scores(t))?.0)
    }
}
