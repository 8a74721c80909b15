//! Which state machine plays a variant, and the preset's part of a mahjong table — both asked of
//! the preset's [`crate::rules::Ruleset::table`], so nothing in `game/` names a preset.

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::rules::TablePart;
use crate::variant::Variant;

use super::mahjong::PresetTable;

/// The game family a variant is played with: which state machine runs its hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Mahjong: 4, 3 or 2 seats ([`super::mahjong::Mahjong`]).
    Mahjong,
    /// 字牌: 3 seats ([`super::zipai::Zipai`]).
    Zipai,
    /// A card game (斗地主, 够级, 顶牛): its own state machine behind [`super::cards::CardHand`].
    Cards,
}

fn not_played(v: &Variant) -> Error {
    Error::rule(format!(
        "the table does not play {} yet (its ruleset has no table part; score its hands with \
         hupai.score / its own module)",
        v.id()
    ))
}

/// The family of a variant's table, or an error when no table plays it.
pub fn family(v: &Variant) -> Result<Family> {
    match v.ruleset().table() {
        Some(TablePart::Mahjong(_)) => Ok(Family::Mahjong),
        Some(TablePart::Zipai) => Ok(Family::Zipai),
        Some(TablePart::Cards(_)) => Ok(Family::Cards),
        None => Err(not_played(v)),
    }
}

/// The preset's part of a mahjong table (its queries, payments and settlement record).
pub fn preset_table(v: &Variant) -> Result<Arc<dyn PresetTable>> {
    match v.ruleset().table() {
        Some(TablePart::Mahjong(p)) => Ok(p),
        Some(TablePart::Zipai) | Some(TablePart::Cards(_)) => Err(Error::rule(format!(
            "{} is not played by the mahjong table",
            v.id()
        ))),
        None => Err(not_played(v)),
    }
}

/// The card game's part of a card table.
pub fn card_part(v: &Variant) -> Result<Arc<dyn super::cards::CardPart>> {
    match v.ruleset().table() {
        Some(TablePart::Cards(p)) => Ok(p),
        Some(_) => Err(Error::rule(format!("{} is not a card game", v.id()))),
        None => Err(not_played(v)),
    }
}
