//! 顶牛 (dingniu): the four-player blocking domino game of the seeds with the 24 牌九 tiles
//! (spec `shared/rules/dingniu.md`, preset `presets/dingniu.toml`).
//!
//! * [`tile`]: the tile kinds, notation (`56`, `44`), Chinese names, hands, ends, placements;
//! * [`rules`]: the compiled rules ([`DingniuRules::load`] from the preset and switches);
//! * [`zhang`]: 算帐 — blocks, smothers, 死砸, 头牌净手, 死拦红帐 — as pure functions;
//! * [`settle`]: places (ties by playing order) and payments;
//! * [`round`]: the state machine of one hand, its event log, replay and carry;
//! * [`bots`]: the built-in bots (random, greedy);
//! * [`table`]: the hand at the one table engine (`crate::game`), which plays many hands and
//!   matches (`crate::game::sim`); `check` holds the invariants its checking mode runs (24 tiles,
//!   legal placements against a naive reading, zero-sum payments, the carry, an identical replay).

pub mod analyse;
pub mod bots;
mod check;
pub mod encode;
pub mod rng;
pub mod round;
pub mod rules;
pub mod ruleset;
pub mod settle;
pub mod table;
pub mod tile;
pub mod zhang;

pub use bots::Bot;
pub use round::{
    Action, ActionList, Carry, EndReason, Event, N_ACTION_IDS, Observation, Outcome, Round,
    openings, replay, turn_actions,
};
pub use rules::DingniuRules;
pub use ruleset::compile;
pub use settle::{Places, ZhangOutcome, rank};
pub use tile::{Counts, Ends, Placement, Side, Tile, parse_hand, placements};
pub use zhang::{Position, ZhangCheck, ZhangKind};

#[cfg(test)]
mod tests;
