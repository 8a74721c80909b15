//! # hupai-core
//!
//! The pure-Rust core of [hupai](https://example.invalid/hupai): tiles and notation ([`tile`]),
//! hands and melds ([`hand`]), decompositions of complete hands ([`decompose`]), and the rule
//! engines built on them. No Python here: the bindings live in the `hupai-py` crate (`rust/py`).

pub mod analysis;
pub mod decompose;
pub mod error;
pub mod game;
pub mod hand;
pub mod preset;
pub mod rows;
pub mod rules;
pub mod scoring;
pub mod situation;
pub mod tables;
#[cfg(test)]
mod test_util;
pub mod tile;
pub mod variant;
pub mod wild;

pub use analysis::{
    DiscardOption, FormShanten, Plan, Useful, discard_options, is_winning, shanten, shanten_forms,
    useful_tiles, waits, waits_mask,
};
pub use decompose::{Decomposition, Form, Set, Shapes, decompose};
pub use error::{Error, Result};
pub use hand::{Hand, Meld, MeldKind, parse_notation};
pub use situation::{Situation, WinType};
pub use tables::ensure_init;
pub use tile::{Counts, Suit, Tile, format_tiles, parse_tiles, to_counts};
pub use variant::Variant;
pub use wild::decompose_wild;
