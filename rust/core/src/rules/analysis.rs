//! The card games' analyser ([`super::Ruleset::analyse`]): one question shape and one answer
//! shape for every game, so the bindings, the service (`POST /v1/analyse`) and the calculator
//! page read any game's answer without knowing the game.
//!
//! A question ([`Query`]) is a hand in the game's notation, optionally a `play` (a selection of
//! the hand, or a play to check) and an `against` (what it answers: the move on the table; for
//! 顶牛 the line's two open ends). The game's own module (`rules/<game>/analyse.rs`) answers with
//! its own functions (classify, beats, legal moves, split, burns, placements) an [`Analysis`]:
//! the hand and the two inputs as the core read them ([`Selection`]), yes/no facts ([`Check`])
//! and lists of moves ([`MoveList`]), every piece named in the game's notation with its Chinese
//! name ([`Piece`]), and the words of the table's decisions whose `value` says what they are
//! ([`Decision`]). Nothing here decides a rule.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// Most items listed per [`MoveList`]; `total` still counts them all (a 够级 lead list of a full
/// hand runs into the thousands).
pub const MAX_ITEMS: usize = 300;

/// Longest text accepted in a field of a [`Query`].
pub const MAX_TEXT: usize = 400;

/// One question to a game's analyser.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// The pieces held, in the game's notation (may be empty).
    pub hand: String,
    /// A selection to read (斗地主: its type; 够级: a play to check; 顶牛: a placement `16:R`).
    pub play: Option<String>,
    /// What it answers (斗地主 / 够级: the move on the table; 顶牛: the open ends `[3|5]`).
    pub against: Option<String>,
}

impl Query {
    /// Read a query from JSON `{"hand", "play"?, "against"?}`, strictly: unknown keys, non-strings
    /// and over-long text are errors naming the key (`null` = absent for `play` and `against`).
    pub fn from_json(v: &Value) -> Result<Query> {
        let Value::Object(m) = v else {
            return Err(Error::hand(
                "an analyser query is an object {\"hand\": \"...\", \"play\"?: \"...\", \"against\"?: \"...\"}",
            ));
        };
        if let Some(k) = m
            .keys()
            .find(|k| !matches!(k.as_str(), "hand" | "play" | "against"))
        {
            return Err(Error::hand(format!(
                "unknown key {k:?} in an analyser query (keys: hand, play, against)"
            )));
        }
        let text = |k: &str, m: &Map<String, Value>| -> Result<Option<String>> {
            match m.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) if s.chars().count() <= MAX_TEXT => Ok(Some(s.clone())),
                Some(Value::String(_)) => {
                    Err(Error::hand(format!("{k}: at most {MAX_TEXT} characters")))
                }
                Some(x) => Err(Error::hand(format!(
                    "{k}: a string in the game's notation, got {x}"
                ))),
            }
        };
        let hand = text("hand", m)?.ok_or_else(|| {
            Error::hand("an analyser query needs \"hand\" (a string, may be empty)")
        })?;
        Ok(Query {
            hand,
            play: text("play", m)?,
            against: text("against", m)?,
        })
    }

    /// `play`, with blank text read as absent.
    pub fn play(&self) -> Option<&str> {
        self.play
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    /// `against`, with blank text read as absent.
    pub fn against(&self) -> Option<&str> {
        self.against
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }
}

/// One piece of a game: its notation and its Chinese name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Piece {
    pub name: String,
    pub zh: String,
}

/// The word of a table decision whose `value` says what it is (够级: every action carries its
/// flat id, so `show` is 亮牌 or 不亮; 顶牛: the end a tile is laid at; 斗地主: the bid): a page
/// labels the table's action of this `kind` and `value` with `zh` (and the cards it names).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// The table action's kind (`show`, `lay`, `bid`, …).
    pub kind: &'static str,
    pub value: i32,
    pub zh: &'static str,
}

/// A hand, play or move as the core read it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Selection {
    /// The canonical notation (`"33"`, `"WW2229999"`, `"16:R"`, `"[3|5]"`).
    pub text: String,
    /// Its pieces one per card, in the game's display order (notation names; empty for ends).
    pub cards: Vec<String>,
    /// The Chinese reading of the whole (`"对牌 对3"`, `"虎头 接右"`).
    pub zh: String,
    /// What it is (the readings of a 斗地主 selection, the facts of a 够级 play …), one label each
    /// (Chinese then English).
    pub readings: Vec<String>,
}

/// A yes/no fact of the question (`id` is stable; `label` is what people read).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    pub id: &'static str,
    pub ok: bool,
    pub label: String,
}

/// One move of a [`MoveList`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Item {
    /// The move in the game's notation (what the table's `Action("play", seat, text)` takes).
    pub text: String,
    /// The pieces it uses from the hand, one per card (a 扣 or a lay: the one tile).
    pub cards: Vec<String>,
    /// What it is, in Chinese then English (`"对牌 pair · 对4"`).
    pub label: String,
}

/// A named list of moves (`id` is stable: `answers`, `leads`, `split`, `burns`, `placements`,
/// `kou`, `openings`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveList {
    pub id: &'static str,
    pub title: String,
    /// How many moves there are (`items` holds at most [`MAX_ITEMS`] of them).
    pub total: usize,
    pub truncated: bool,
    pub items: Vec<Item>,
}

impl MoveList {
    /// A list of the moves `xs`, each made an [`Item`] by `f` (only the first [`MAX_ITEMS`] are;
    /// the rest are counted).
    pub fn of<T>(
        id: &'static str,
        title: impl Into<String>,
        xs: impl IntoIterator<Item = T>,
        f: impl Fn(T) -> Item,
    ) -> Self {
        let mut items = Vec::new();
        let mut total = 0;
        for x in xs {
            if items.len() < MAX_ITEMS {
                items.push(f(x));
            }
            total += 1;
        }
        MoveList {
            id,
            title: title.into(),
            total,
            truncated: total > items.len(),
            items,
        }
    }
}

/// A game analyser's answer (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The preset id.
    pub variant: String,
    /// The hand as read.
    pub hand: Selection,
    /// The `play` as read (`None` when not asked).
    pub play: Option<Selection>,
    /// The `against` as read (`None` when not asked).
    pub against: Option<Selection>,
    pub checks: Vec<Check>,
    pub lists: Vec<MoveList>,
    /// Every piece of the game in its order, with its Chinese name (a page names pieces with it).
    pub pieces: Vec<Piece>,
    /// The words of the game's decisions by table action kind and value.
    pub decisions: Vec<Decision>,
}

impl Analysis {
    /// The answer as JSON (keys as the fields).
    pub fn to_json_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The error of a preset without an analyser ([`super::Ruleset::analyse`]'s default).
pub fn no_analyser() -> Error {
    Error::rule(
        "this preset has no analyser: it is answered for the card games (their hands, plays and \
         answers); tile hands are analysed by waits / shanten",
    )
}
