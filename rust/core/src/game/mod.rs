//! The game engine: the table state machine of every preset behind one protocol, its rule
//! queries (flow), built-in bots, the simulator and matches.
//!
//! * [`table`] — the protocol ([`table::Table`]: `legal_actions` / `step` / `events` / result /
//!   `next_hand`, replay) and how a new game family plugs in.
//! * [`mahjong`], [`zipai`] — the per-family state machines; [`cards`] — the table of the card
//!   games (each game's state machine stays in its rule module).
//! * [`facts`] — the table facts of a variant, read in one place from the preset data.
//! * [`dispatch`] — which state machine plays a variant (asked of its `Ruleset::table`).
//! * [`flow`] — the rule queries (claims, turn options, waits, rotation …).
//! * [`action`], [`event`] — the protocol's typed actions and the event-log format.
//! * [`bots`], [`sim`], [`matches`] — built-in bots, the simulator (and its checking mode), matches.
//! * [`rng`] — CPython's `random.Random` (the wall order) and the run's seeds.

pub mod action;
pub mod bots;
pub mod cards;
pub mod dispatch;
pub mod encode;
pub mod env;
pub mod event;
pub mod facts;
pub mod flow;
pub mod mahjong;
pub mod matches;
pub mod rng;
pub mod sim;
pub mod table;
#[cfg(test)]
mod tests;
pub mod zipai;
