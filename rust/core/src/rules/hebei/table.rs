//! 河北 at the table: the hand record (kongs, the win with the score it was taken with) settled
//! at the end by the preset's ruleset.

use crate::error::Result;
use crate::game::mahjong::preset::{hand_record, settle_record};
use crate::game::mahjong::{Mahjong, PresetTable};
use crate::scoring::ledger::Ledger;

/// The 河北 part of the table.
#[derive(Debug)]
pub struct HebeiTable;

impl PresetTable for HebeiTable {
    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        settle_record(t, &hand_record(t, true), ledger)
    }
}
