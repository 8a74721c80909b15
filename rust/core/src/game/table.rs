//! The table protocol: one engine for every preset and game family.
//!
//! ```text
//! Table::new(variant, setup)      deal from the seed (or a custom wall), run to the first decision
//! table.to_act()                  the seat to decide (None when the hand is over)
//! table.legal_actions(seat)       every legal Action of that seat now (empty for the others)
//! table.step(&action)             apply it (an illegal one is an IllegalAction error, nothing changes)
//! table.events()                  the event log so far (Event; JSON records via log_json)
//! table.result_json()             winners, balances, ledger … once the hand is over
//! table.next_hand()               the next dealer and carry (Match)
//! replay(&records)                rebuild a hand from its log and check it is identical
//! ```
//!
//! A game family is a state machine owning one hand (a struct such as [`Mahjong`] or [`Zipai`])
//! with `new`, `to_act`, `legal_actions`/`legal_into`, `step`/`apply`, `events`, a result and a
//! conservation check. To plug in a new family (斗地主, 够级, 顶牛):
//!
//! 1. write its state machine under `rules/<game>/` (the card games have theirs: `doudizhu::Game`,
//!    `dingniu::Round`, `gouji::GoujiHand`), mapping its moves to [`Action`]
//!    (kinds, a piece, pieces, a value — add the family's kinds to [`ActionKind`], e.g. `bid`,
//!    `play`) and [`Event`] (add variants for its events; `to_json` names pieces with its
//!    [`Pieces`] notation, which gains a variant for cards);
//! 2. add a variant to [`Family`] and to [`crate::rules::TablePart`] (the game's rulesets return
//!    it from `Ruleset::table`);
//! 3. add a variant to [`Table`] and one arm to each `match` below (they only forward);
//! 4. give it a settlement into the shared [`Ledger`] (zero-sum events) and a `next_hand`.
//!
//! Bots ([`super::bots`]), the simulator and its checking mode ([`super::sim`]), `Match`, replay
//! and the Python `Table` then work for it unchanged.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::preset::SwitchValue;
use crate::scoring::ledger::Ledger;
use crate::variant::Variant;

use super::action::{Action, ActionKind, Pieces};
use super::cards::{CardPart, CardTable};
use super::dispatch::{self, Family};
use super::event::Event;
use super::facts::TableFacts;
use super::mahjong::{Carry, Mahjong, PresetTable, SEAT_NAMES, Setup};
use super::zipai::{Position, Zipai};

/// One hand of any family.
#[derive(Debug)]
pub enum Table {
    Mahjong(Box<Mahjong>),
    Zipai(Box<Zipai>),
    /// 斗地主, 够级, 顶牛 (`game::cards`).
    Cards(Box<CardTable>),
}

/// How a table is set up (every family reads what it uses).
#[derive(Clone, Debug, Default)]
pub struct TableSetup {
    pub seed: i128,
    pub dealer: usize,
    pub prevalent_wind: u8,
    /// A custom wall / deck: a permutation of the variant's set (scenarios, tests).
    pub wall: Option<Vec<u8>>,
    pub carry: Option<Carry>,
}

/// What a variant's tables share (compiled once per variant: the simulator reuses it).
#[derive(Clone, Debug)]
pub struct Compiled {
    pub variant: Arc<Variant>,
    pub family: Family,
    pub facts: Option<Arc<TableFacts>>,
    pub preset: Option<Arc<dyn PresetTable>>,
    /// A card game's part (`Family::Cards`).
    pub cards: Option<Arc<dyn CardPart>>,
    /// The switches as the log's `start` record writes them.
    pub options: Arc<Value>,
}

impl Compiled {
    /// Check that the table plays the variant and compile what its tables share.
    pub fn new(variant: Arc<Variant>) -> Result<Compiled> {
        let family = dispatch::family(&variant)?;
        let options = Arc::new(super::mahjong::options_json(&variant));
        match family {
            Family::Mahjong => {
                super::flow::check_playable(&variant)?;
                let facts = Arc::new(TableFacts::of(&variant)?);
                let preset = dispatch::preset_table(&variant)?;
                Ok(Compiled {
                    variant,
                    family,
                    facts: Some(facts),
                    preset: Some(preset),
                    cards: None,
                    options,
                })
            }
            Family::Zipai => {
                crate::rules::zipai::rules_of(&variant)?;
                Ok(Compiled {
                    variant,
                    family,
                    facts: None,
                    preset: None,
                    cards: None,
                    options,
                })
            }
            Family::Cards => {
                let part = dispatch::card_part(&variant)?;
                Ok(Compiled {
                    variant,
                    family,
                    facts: None,
                    preset: None,
                    cards: Some(part),
                    options,
                })
            }
        }
    }

    /// Seats at the table.
    pub fn seats(&self) -> usize {
        match (&self.facts, &self.cards) {
            (Some(f), _) => f.seats,
            (None, Some(c)) => c.seats(),
            (None, None) => 3,
        }
    }

    pub fn pieces(&self) -> Pieces {
        match (self.family, &self.cards) {
            (Family::Mahjong, _) => Pieces::Tiles,
            (Family::Zipai, _) => Pieces::Cards,
            (Family::Cards, Some(c)) => c.pieces(),
            (Family::Cards, None) => Pieces::Cards,
        }
    }

    /// A new hand.
    pub fn table(&self, setup: TableSetup) -> Result<Table> {
        match self.family {
            Family::Mahjong => {
                let (Some(facts), Some(preset)) = (&self.facts, &self.preset) else {
                    return Err(Error::rule("mahjong table without facts"));
                };
                Ok(Table::Mahjong(Box::new(Mahjong::new(
                    self.variant.clone(),
                    preset.clone(),
                    facts.clone(),
                    Setup {
                        seed: setup.seed,
                        dealer: setup.dealer,
                        prevalent_wind: setup.prevalent_wind,
                        wall: setup.wall,
                        carry: setup.carry,
                        options: Some(self.options.clone()),
                    },
                )?)))
            }
            Family::Zipai => {
                if setup.carry.as_ref().is_some_and(|c| {
                    c.floor > 0
                        || c.kai_bao > 0
                        || c.huang_fan > 0
                        || c.pao_zi.iter().any(|&p| p != 0)
                }) {
                    return Err(Error::rule("字牌 tables carry nothing between hands"));
                }
                Ok(Table::Zipai(Box::new(Zipai::new(
                    self.variant.clone(),
                    setup.seed,
                    setup.dealer,
                    setup.wall,
                    Some(self.options.clone()),
                )?)))
            }
            Family::Cards => {
                let Some(part) = &self.cards else {
                    return Err(Error::rule("card table without its game's part"));
                };
                if setup.wall.is_some() {
                    return Err(Error::rule(
                        "card tables deal from the seed (no custom deck)",
                    ));
                }
                let carry = match setup.carry {
                    None => None,
                    Some(c) if c.floor > 0 || c.kai_bao > 0 || c.huang_fan > 0 => {
                        return Err(Error::rule(
                            "a card table carries its game's own carry, not a mahjong one",
                        ));
                    }
                    Some(c) => c.cards,
                };
                Ok(Table::Cards(Box::new(CardTable::new(
                    self.variant.clone(),
                    part.as_ref(),
                    setup.seed,
                    setup.dealer,
                    carry,
                    self.options.clone(),
                )?)))
            }
        }
    }
}

macro_rules! each {
    ($self:expr, $t:ident => $e:expr) => {
        match $self {
            Table::Mahjong($t) => $e,
            Table::Zipai($t) => $e,
            Table::Cards($t) => $e,
        }
    };
}

impl Table {
    /// A new hand of `variant` (compiles the variant's shared parts; see [`Compiled`]).
    pub fn new(variant: Arc<Variant>, setup: TableSetup) -> Result<Table> {
        Compiled::new(variant)?.table(setup)
    }

    /// A 字牌 table in the middle of a hand (scenarios, tests).
    pub fn zipai_position(variant: Arc<Variant>, dealer: usize, pos: Position) -> Result<Table> {
        Ok(Table::Zipai(Box::new(Zipai::from_position(
            variant, dealer, pos,
        )?)))
    }

    pub fn family(&self) -> Family {
        match self {
            Table::Mahjong(_) => Family::Mahjong,
            Table::Zipai(_) => Family::Zipai,
            Table::Cards(_) => Family::Cards,
        }
    }

    pub fn pieces(&self) -> Pieces {
        match self {
            Table::Mahjong(_) => Pieces::Tiles,
            Table::Zipai(_) => Pieces::Cards,
            Table::Cards(c) => c.pieces,
        }
    }

    pub fn variant(&self) -> &Arc<Variant> {
        each!(self, t => &t.variant)
    }

    pub fn seats(&self) -> usize {
        match self {
            Table::Mahjong(t) => t.n,
            Table::Zipai(_) => 3,
            Table::Cards(c) => c.seats,
        }
    }

    pub fn dealer(&self) -> usize {
        each!(self, t => t.dealer)
    }

    pub fn to_act(&self) -> Option<usize> {
        each!(self, t => t.to_act())
    }

    pub fn is_done(&self) -> bool {
        each!(self, t => t.is_done())
    }

    pub fn phase(&self) -> &'static str {
        match self {
            Table::Mahjong(t) => t.phase.name(),
            Table::Zipai(t) => t.phase(),
            Table::Cards(t) => t.phase(),
        }
    }

    /// Bumped on every change of state.
    pub fn version(&self) -> u64 {
        each!(self, t => t.version)
    }

    pub fn legal_actions(&self, seat: usize) -> Vec<Action> {
        each!(self, t => t.legal_actions(seat))
    }

    pub fn legal_into(&self, seat: usize, out: &mut Vec<Action>) {
        each!(self, t => t.legal_into(seat, out))
    }

    /// Apply one action (checked); returns the index of the first event it caused.
    pub fn step(&mut self, a: &Action) -> Result<usize> {
        let n = self.events().len();
        each!(self, t => t.step(a))?;
        Ok(n)
    }

    /// Apply an action taken from `legal_actions(to_act)` (not checked again).
    pub fn apply(&mut self, a: &Action) -> Result<usize> {
        let n = self.events().len();
        each!(self, t => t.apply(a))?;
        Ok(n)
    }

    pub fn events(&self) -> &[Event] {
        each!(self, t => &t.events)
    }

    pub fn ledger(&self) -> &Ledger {
        each!(self, t => t.ledger())
    }

    /// `(pieces accounted for, pieces the hand started with)`: equal after every step.
    pub fn piece_count(&self) -> (usize, usize) {
        match self {
            Table::Mahjong(t) => (t.tile_count(), t.n_tiles),
            Table::Zipai(t) => {
                let c = t.card_count();
                let ok = c == t.deck;
                let n: usize = t.deck.iter().map(|&x| usize::from(x)).sum();
                (if ok { n } else { n + 1 }, n)
            }
            Table::Cards(c) => c.hand.piece_count(),
        }
    }

    /// Balances per seat once the hand is over.
    pub fn balances(&self) -> Option<Vec<i64>> {
        match self {
            Table::Mahjong(t) => t.result.as_ref().map(|r| r.balances.clone()),
            Table::Zipai(t) => t.result.as_ref().map(|r| r.balances.clone()),
            Table::Cards(c) => c.result().map(|r| r.balances.clone()),
        }
    }

    /// Winners (each once) once the hand is over.
    pub fn winners(&self) -> Vec<usize> {
        match self {
            Table::Mahjong(t) => t
                .result
                .as_ref()
                .map(|r| r.winners.clone())
                .unwrap_or_default(),
            Table::Zipai(t) => t
                .result
                .as_ref()
                .and_then(|r| r.winner)
                .into_iter()
                .collect(),
            Table::Cards(c) => c.result().map(|r| r.winners.clone()).unwrap_or_default(),
        }
    }

    /// Whether the hand ended without being played out (mahjong and 字牌: the wall ran out; card
    /// games: [`super::cards::CardEnd::exhausted`]); `false` while it goes on.
    pub fn exhausted(&self) -> bool {
        match self {
            Table::Mahjong(t) => t.result.as_ref().is_some_and(|r| r.exhausted),
            Table::Zipai(t) => t.result.as_ref().is_some_and(|r| r.exhausted),
            Table::Cards(c) => c.result().is_some_and(|r| r.exhausted),
        }
    }

    /// Discards (mahjong) / draws and discards (字牌) made.
    pub fn turns(&self) -> u32 {
        each!(self, t => t.turns)
    }

    /// The event log as JSON records.
    pub fn log_json(&self) -> Vec<Value> {
        let p = self.pieces();
        self.events().iter().map(|e| e.to_json(p)).collect()
    }

    /// Each win: `{seat, tile, win_type, from, value, fans}` (字牌: `value` = 胡息, with `duo`
    /// and `payments`).
    pub fn wins_json(&self) -> Vec<Value> {
        match self {
            Table::Mahjong(t) => t
                .wins
                .iter()
                .map(|w| {
                    json!({
                        "seat": w.seat,
                        "tile": w.tile.to_string(),
                        "win_type": w.win_type.name(),
                        "from": w.from,
                        "value": w.option.value,
                        "fans": w.option.fans,
                    })
                })
                .collect(),
            Table::Zipai(t) => {
                let Some(r) = &t.result else {
                    return Vec::new();
                };
                let Some(w) = r.winner else { return Vec::new() };
                let win = t
                    .events
                    .iter()
                    .rev()
                    .find(|e| matches!(e, Event::Win { .. }))
                    .map(|e| e.to_json(Pieces::Cards))
                    .unwrap_or(Value::Null);
                vec![json!({
                    "seat": w,
                    "tile": win["tile"],
                    "win_type": r.win_type,
                    "from": win["from"],
                    "value": r.huxi,
                    "fans": [[r.win_type, 1]],
                    "duo": r.duo,
                    "payments": win["payments"],
                })]
            }
            Table::Cards(c) => match c.result() {
                Some(r) if !r.winners.is_empty() => {
                    // `[id, count]` pairs, as every family writes them (a repeated event counts)
                    let mut fans: Vec<(&str, u32)> = Vec::new();
                    for f in &r.fans {
                        match fans.iter_mut().find(|x| x.0 == f) {
                            Some(x) => x.1 += 1,
                            None => fans.push((f, 1)),
                        }
                    }
                    vec![json!({
                        "seats": r.winners,
                        "value": r.value,
                        "fans": fans,
                    })]
                }
                _ => Vec::new(),
            },
        }
    }

    /// The result once the hand is over: `winners`, `wins`, `exhausted`, `balances`, `turns`,
    /// `ledger`, `discarder`, `carry`, `escaped`, `next_dealer` (字牌 also `winner`, `payments`,
    /// `win`).
    pub fn result_json(&self) -> Option<Value> {
        let ledger = self.ledger().to_json_value();
        match self {
            Table::Mahjong(t) => {
                let r = t.result.as_ref()?;
                let mut v = r.to_json();
                v["wins"] = Value::Array(self.wins_json());
                v["ledger"] = ledger;
                v["carry"] = json!({
                    "floor": r.carry.floor,
                    "kai_bao": r.carry.kai_bao,
                    "huang_fan": r.carry.huang_fan,
                    "pao_zi": r.carry.pao_zi,
                });
                Some(v)
            }
            Table::Zipai(t) => {
                let r = t.result.as_ref()?;
                let wins = self.wins_json();
                Some(json!({
                    "winners": r.winner.into_iter().collect::<Vec<_>>(),
                    "winner": r.winner,
                    "wins": wins,
                    "win": wins.first(),
                    "exhausted": r.exhausted,
                    "balances": r.balances,
                    "payments": r.payments.iter().map(|&(f, to, a)| json!({"from": f, "to": to, "amount": a})).collect::<Vec<_>>(),
                    "turns": r.turns,
                    "ledger": ledger,
                    "discarder": wins.first().and_then(|w| w["from"].as_u64()),
                    "carry": {},
                    "escaped": null,
                    "next_dealer": r.next_dealer,
                }))
            }
            Table::Cards(c) => {
                let r = c.result()?;
                let mut v = json!({
                    "winners": r.winners,
                    "wins": self.wins_json(),
                    "exhausted": r.exhausted,
                    "balances": r.balances,
                    "turns": c.turns,
                    "ledger": ledger,
                    "carry": r.carry_json().unwrap_or(json!({})),
                    "next_dealer": r.next_dealer,
                });
                if let (Value::Object(m), Value::Object(g)) = (&mut v, r.result_json()) {
                    for (k, x) in g {
                        m.entry(k).or_insert(x);
                    }
                }
                Some(v)
            }
        }
    }

    /// The next hand's dealer (`None`: drawn at random by the preset's rule) and carry.
    pub fn next_hand(&self) -> Option<(Option<usize>, Carry)> {
        match self {
            Table::Mahjong(t) => t
                .result
                .as_ref()
                .map(|r| (r.next_dealer, r.next_carry.clone())),
            Table::Zipai(t) => t
                .result
                .as_ref()
                .map(|r| (Some(r.next_dealer), Carry::default())),
            Table::Cards(c) => c.result().map(|r| {
                (
                    r.next_dealer,
                    Carry {
                        cards: r.carry_json(),
                        ..Carry::default()
                    },
                )
            }),
        }
    }

    /// Scenario set-up before the first decision (mahjong): set aside the last `n` live tiles.
    pub fn set_aside(&mut self, n: usize) -> Result<()> {
        match self {
            Table::Mahjong(t) => t.set_aside(n),
            Table::Zipai(_) | Table::Cards(_) => Err(Error::rule("set_aside: mahjong tables only")),
        }
    }
}

/// The variant of a log's `start` record (its `options` differing from the preset's defaults).
pub fn variant_of_start(start: &Value) -> Result<Variant> {
    let id = start
        .get("variant")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::replay("the start record needs \"variant\""))?;
    let base = Variant::load(id)?;
    let mut changed: Vec<(String, SwitchValue)> = Vec::new();
    if let Some(Value::Object(o)) = start.get("options") {
        for (k, v) in o {
            let sv: SwitchValue = serde_json::from_value(v.clone())
                .map_err(|e| Error::replay(format!("start options.{k}: {e}")))?;
            if base.options().get(k) != Some(&sv) {
                changed.push((k.clone(), sv));
            }
        }
    }
    if changed.is_empty() {
        Ok(base)
    } else {
        Variant::with_options(id, changed)
    }
}

fn int_of(start: &Value, key: &str, default: i64) -> Result<i64> {
    match start.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_i64()
            .ok_or_else(|| Error::replay(format!("start {key}: an integer, got {v}"))),
    }
}

/// Rebuild the table of a `start` record (before any decision).
pub fn table_of_start(start: &Value) -> Result<Table> {
    if start.get("type").and_then(Value::as_str) != Some("start") {
        return Err(Error::replay("a log starts with a 'start' record"));
    }
    let v = Arc::new(variant_of_start(start)?);
    let compiled = Compiled::new(v.clone())?;
    let pieces = compiled.pieces();
    let seed: i128 = match start.get("seed") {
        Some(Value::String(s)) => s
            .parse()
            .map_err(|_| Error::replay(format!("start seed {s:?} is not an integer")))?,
        Some(x) => i128::from(
            x.as_i64()
                .ok_or_else(|| Error::replay(format!("start seed {x} is not an integer")))?,
        ),
        None => 0,
    };
    let dealer = usize::try_from(int_of(start, "dealer", 0)?)
        .map_err(|_| Error::replay("start dealer: a seat"))?;
    let wind = u8::try_from(int_of(start, "prevalent_wind", 0)?)
        .map_err(|_| Error::replay("start prevalent_wind: 0..3"))?;
    let names =
        |x: &Value, what: &str| -> Result<Vec<u8>> {
            x.as_array()
                .ok_or_else(|| Error::replay(format!("start {what}: a list of pieces")))?
                .iter()
                .map(|p| {
                    pieces.parse(p.as_str().ok_or_else(|| {
                        Error::replay(format!("start {what}: {p} is not a piece"))
                    })?)
                })
                .collect()
        };
    if let Some(pos) = start.get("position") {
        let hands: Vec<Vec<u8>> = pos["hands"]
            .as_array()
            .ok_or_else(|| Error::replay("position.hands"))?
            .iter()
            .map(|h| names(&h["hand"], "position hand"))
            .collect::<Result<_>>()?;
        let melds: Vec<Vec<crate::rules::zipai::Meld>> = pos["hands"]
            .as_array()
            .ok_or_else(|| Error::replay("position.hands"))?
            .iter()
            .map(|h| {
                h["melds"]
                    .as_array()
                    .map(|ms| {
                        ms.iter()
                            .map(|m| {
                                let ty = crate::rules::zipai::MeldType::parse(
                                    m["type"].as_str().unwrap_or(""),
                                )?;
                                let cards = names(&m["tiles"], "meld")?
                                    .into_iter()
                                    .filter_map(crate::rules::zipai::Card::from_index)
                                    .collect();
                                crate::rules::zipai::Meld::new(ty, cards)
                            })
                            .collect::<Result<Vec<_>>>()
                    })
                    .unwrap_or(Ok(Vec::new()))
            })
            .collect::<Result<_>>()?;
        let wall = names(&pos["wall"], "position wall")?;
        let st = &pos["start"];
        let start_at = if let Some(s) = st.get("draw").and_then(Value::as_u64) {
            super::zipai::PositionStart::Draw(s as usize)
        } else {
            let s = st["discard"]
                .as_u64()
                .ok_or_else(|| Error::replay("position.start"))? as usize;
            let c = pieces.parse(st["tile"].as_str().unwrap_or(""))?;
            super::zipai::PositionStart::Discard(s, c)
        };
        return Table::zipai_position(
            v,
            dealer,
            Position {
                hands,
                melds,
                wall,
                start: start_at,
            },
        );
    }
    let wall = match start.get("wall") {
        None | Some(Value::Null) => None,
        Some(w) => Some(names(w, "wall")?),
    };
    let carry = match start.get("carry") {
        None | Some(Value::Null) => None,
        Some(c) if compiled.family == Family::Cards => Some(Carry {
            cards: Some(c.clone()),
            ..Carry::default()
        }),
        Some(c) => Some(Carry::from_json(c, &v, compiled.seats())?),
    };
    let mut t = compiled.table(TableSetup {
        seed,
        dealer,
        prevalent_wind: wind,
        wall,
        carry,
    })?;
    let aside = usize::try_from(int_of(start, "set_aside", 0)?)
        .map_err(|_| Error::replay("start set_aside: a count"))?;
    if aside > 0 {
        t.set_aside(aside)?;
    }
    Ok(t)
}

/// Rebuild a hand from its log (JSON records) and check that the rebuilt log is identical.
pub fn replay(records: &[Value]) -> Result<Table> {
    let first = records.first().ok_or_else(|| Error::replay("empty log"))?;
    let mut t = table_of_start(first)?;
    let pieces = t.pieces();
    for r in &records[1..] {
        if r.get("type").and_then(Value::as_str) == Some("action") {
            let a = Action::from_json(r, pieces).map_err(|e| Error::replay(e.to_string()))?;
            t.step(&a).map_err(|e| Error::replay(e.to_string()))?;
        }
    }
    let log = t.log_json();
    if log != records {
        let i = log
            .iter()
            .zip(records)
            .position(|(a, b)| a != b)
            .unwrap_or(log.len().min(records.len()));
        return Err(Error::replay(format!(
            "replay diverges at record {i}: {} != {}",
            log.get(i).map_or("(end)".into(), Value::to_string),
            records.get(i).map_or("(end)".into(), Value::to_string),
        )));
    }
    Ok(t)
}

/// The table of a log after its `start` record and its first `actions` decisions (a replay
/// viewer's step): every action is a checked step; the records are not compared with the
/// rebuilt log (`replay` does that for a whole log). More actions than the log holds is an error.
pub fn replay_prefix(records: &[Value], actions: usize) -> Result<Table> {
    let first = records.first().ok_or_else(|| Error::replay("empty log"))?;
    let mut t = table_of_start(first)?;
    let pieces = t.pieces();
    let mut done = 0;
    for r in &records[1..] {
        if done == actions {
            break;
        }
        if r.get("type").and_then(Value::as_str) == Some("action") {
            let a = Action::from_json(r, pieces).map_err(|e| Error::replay(e.to_string()))?;
            t.step(&a).map_err(|e| Error::replay(e.to_string()))?;
            done += 1;
        }
    }
    if done < actions {
        return Err(Error::replay(format!(
            "the log has {done} decisions, not {actions}"
        )));
    }
    Ok(t)
}

/// Replay a table's own events (the simulator's checking mode): same actions, same events.
pub fn replay_events(c: &Compiled, setup: TableSetup, events: &[Event]) -> Result<()> {
    let mut t = c.table(setup)?;
    if let Some(Event::Start { set_aside, .. }) = events.first() {
        if *set_aside > 0 {
            t.set_aside(*set_aside)?;
        }
    }
    for e in events {
        if let Event::Action(a) = e {
            t.step(a)?;
        }
    }
    if t.events() != events {
        let i = t
            .events()
            .iter()
            .zip(events)
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        return Err(Error::replay(format!(
            "replay diverges at event {i}: {:?} != {:?}",
            t.events().get(i),
            events.get(i)
        )));
    }
    Ok(())
}

/// The seat names of the ledger.
pub fn seat_names(n: usize) -> Vec<String> {
    (0..n).map(|k| SEAT_NAMES[k].to_string()).collect()
}

/// Is `a` a management action (accepted from any seat at any time)?
pub fn is_management(a: &Action) -> bool {
    matches!(a.kind, ActionKind::Escape | ActionKind::AutoPlay)
}
