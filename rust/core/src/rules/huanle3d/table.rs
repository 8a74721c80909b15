//! 欢乐3D at the table: the hand record settled at the end with the wins' scores.

use crate::error::Result;
use crate::game::mahjong::preset::{hand_record, settle_record};
use crate::game::mahjong::{Mahjong, PresetTable};
use crate::scoring::ledger::Ledger;

/// The 欢乐3D part of the table.
#[derive(Debug)]
pub struct Huanle3dTable;

impl PresetTable for Huanle3dTable {
    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        settle_record(t, &hand_record(t, true), ledger)
    }
}
