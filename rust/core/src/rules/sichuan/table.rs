//! 四川 at the table: 刮风下雨 paid when the kong is made, each win paid at once (血战: the winner
//! leaves, 呼叫转移 on 杠上炮), 查花猪 / 查大叫 when the wall runs out — all through the ledger.

use crate::error::Result;
use crate::game::flow;
use crate::game::mahjong::{KongRec, Mahjong, PresetTable, SEAT_NAMES, WinRec};
use crate::scoring::ledger::{DrawEndState, KongPay, Ledger, SettlementRules};
use crate::situation::{KongKind, WinType};

/// The 四川 part of the table (with the variant's ledger parameters).
#[derive(Debug)]
pub struct SichuanTable(pub SettlementRules);

impl PresetTable for SichuanTable {
    fn ledger_rules(&self) -> SettlementRules {
        self.0.clone()
    }

    fn on_kong(&self, _t: &Mahjong, k: &KongRec, ledger: &mut Ledger) -> Result<()> {
        let kind = match k.kind {
            KongKind::Open => KongPay::Open,
            KongKind::Added => KongPay::Added,
            KongKind::Concealed => KongPay::Concealed,
        };
        let feeder = (k.kind == KongKind::Open)
            .then(|| k.feeder.map(|f| SEAT_NAMES[f]))
            .flatten();
        ledger.kong(SEAT_NAMES[k.owner], kind, feeder)?;
        Ok(())
    }

    fn on_win(&self, _t: &Mahjong, w: &WinRec, ledger: &mut Ledger) -> Result<()> {
        ledger.win(
            SEAT_NAMES[w.seat],
            w.option.value,
            w.from.map(|d| SEAT_NAMES[d]),
            w.win_type == WinType::AfterKongDiscard,
            serde_json::Value::Null,
        )?;
        Ok(())
    }

    fn on_exhausted(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        let active: Vec<usize> = (0..t.n).filter(|&k| t.seats[k].active).collect();
        if active.len() < 2 {
            return Ok(());
        }
        let seats: Vec<_> = active.iter().map(|&k| t.seats[k].clone()).collect();
        let states = flow::draw_end_states(&t.variant, &seats)?;
        let list: Vec<(String, DrawEndState)> = active
            .iter()
            .zip(states)
            .map(|(&k, (huazhu, da_jiao))| {
                (SEAT_NAMES[k].to_string(), DrawEndState { huazhu, da_jiao })
            })
            .collect();
        ledger.draw_end(&list)?;
        Ok(())
    }
}
