//! What every preset's scoring shares: the result of a win ([`score::Score`]), the record of a
//! hand ([`record::HandRecord`]) and the zero-sum ledger it is settled into ([`ledger::Ledger`]).

pub mod ledger;
pub mod record;
pub mod score;

use crate::error::{Error, Result};
use crate::preset::{FanDef, PresetData};

/// Look a pattern up in a preset table (a missing id is a preset bug reported as a rule error).
pub fn fan<'a>(fans: &'a [FanDef], id: &str) -> Result<&'a FanDef> {
    fans.iter()
        .find(|f| f.id == id)
        .ok_or_else(|| Error::rule(format!("preset table has no pattern {id}")))
}

/// An integer of a preset's `[params]` (missing or non-integer: a preset bug, reported as a rule
/// error).
pub fn param_int(p: &PresetData, key: &str) -> Result<i64> {
    p.params
        .get(key)
        .and_then(toml::Value::as_integer)
        .ok_or_else(|| Error::rule(format!("preset {}: [params] needs integer {key}", p.id)))
}

/// The enabled patterns of a preset's table (after its switches).
pub fn enabled_fans(p: &PresetData) -> Vec<FanDef> {
    p.fans.iter().filter(|f| f.enabled).cloned().collect()
}
