//! Scoring results and the zero-sum ledger shared by every preset.

pub mod ledger;
pub mod pattern;
