//! Helpers shared by the preset modules' unit tests.

use crate::scoring::ledger::Ledger;

/// Tile codes of a compact tile string (`"123m EE"` → `["1m", "2m", "3m", "E", "E"]`).
pub fn tiles(s: &str) -> Vec<String> {
    crate::tile::parse_tiles(s)
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// Seat balances of a ledger, in seat order.
pub fn bal(l: &Ledger) -> Vec<i64> {
    l.balances().into_iter().map(|(_, b)| b).collect()
}
