//! 斗地主 (doudizhu): cards and notation, card types, legal moves, the auction, the hand state
//! machine, settlement, bots and the simulator (spec: `shared/rules/doudizhu.md`; presets
//! `doudizhu_qq` (default) and `doudizhu_contest`).
//!
//! Everything that decides a 斗地主 rule is in this folder; the presets' data is in
//! `presets/doudizhu_*.toml`, compiled by [`DdzRules::load`].

pub mod analyse;
pub mod auction;
pub mod bots;
pub mod cards;
mod check;
pub mod encode;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod rng;
pub mod rules;
pub mod ruleset;
pub mod settle;
pub mod space;
pub mod table;

pub use cards::{Card, Cards};
pub use movegen::{count_legal_moves, generate, legal_moves, legal_moves_into};
pub use moves::{Kind, Reading, Readings, beating_reading, classify, readings};
pub use rules::{DdzRules, MoveRules, SingleKickers};
pub use ruleset::compile;

#[cfg(test)]
mod tests;
