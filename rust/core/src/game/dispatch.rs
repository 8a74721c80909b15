//! THE per-preset dispatch of the table engine — the one place in `game/` that knows which
//! presets exist. Everything else reads the table facts ([`super::facts::TableFacts`]) or goes
//! through what this returns. (With the Ruleset registry, these two functions become
//! `Ruleset::family()` and `Ruleset::table()`.)

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::variant::{Rules, Variant};

use super::mahjong::PresetTable;
use super::mahjong::preset::Deltas;

/// The game family a variant is played with: which state machine runs its hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Mahjong: 4, 3 or 2 seats ([`super::mahjong::Mahjong`]).
    Mahjong,
    /// 字牌: 3 seats ([`super::zipai::Zipai`]).
    Zipai,
}

/// The family of a variant's table.
pub fn family(v: &Variant) -> Family {
    match v.rules() {
        Rules::Zipai(_) => Family::Zipai,
        _ => Family::Mahjong,
    }
}

/// The preset's part of a mahjong table (its queries, payments and settlement record).
pub fn preset_table(v: &Variant) -> Result<Arc<dyn PresetTable>> {
    use crate::rules;
    Ok(match v.rules() {
        Rules::Sichuan(r) => Arc::new(rules::sichuan::table::SichuanTable(r.settlement.clone())),
        Rules::Mcr(_) => Arc::new(Deltas),
        Rules::Hebei(_) => Arc::new(rules::hebei::table::HebeiTable),
        Rules::HebeiDraft4(_) => Arc::new(rules::hebei_draft4::table::HebeiDraft4Table),
        Rules::Shanghai(_) => Arc::new(rules::shanghai::table::ShanghaiTable),
        Rules::Huanle3d(_) => Arc::new(rules::huanle3d::table::Huanle3dTable),
        Rules::Shaanxi(_) => Arc::new(rules::shaanxi::table::ShaanxiTable),
        Rules::Kawuxing(_) => Arc::new(rules::kawuxing::table::KawuxingTable),
        Rules::Erren(_) => Arc::new(rules::erren::table::ErrenTable),
        Rules::Wuhan(_) => Arc::new(rules::wuhan::table::WuhanTable),
        Rules::Zipai(_) => {
            return Err(Error::rule(format!(
                "{} is played by the 字牌 table, not the mahjong one",
                v.id()
            )));
        }
        _ => {
            return Err(Error::rule(format!(
                "the table does not play {} (no rule module with a table)",
                v.id()
            )));
        }
    })
}
