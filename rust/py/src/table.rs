//! Bindings of the table engine (`hupai_core::game`): `Table`, `Action`, `Event`, `Observation`,
//! the built-in `Bot`, `Match`, replay and the simulator. Tiles and cards cross as their names.

use std::sync::{Arc, OnceLock};

use hupai_core::game::action::{Action, ActionKind, Pieces};
use hupai_core::game::bots::{Bot, BotKind};
use hupai_core::game::dispatch::Family;
use hupai_core::game::event::Event;
use hupai_core::game::mahjong::{Carry, Mahjong, SEAT_NAMES};
use hupai_core::game::matches::Match;
use hupai_core::game::rng::PyRandom;
use hupai_core::game::table::{self as gt, Compiled, Table, TableSetup};
use hupai_core::game::zipai::{Position, PositionStart, Zipai, meld_name};
use hupai_core::hand::MeldKind;
use hupai_core::situation::KongKind;
use hupai_core::tile::Tile;
use hupai_core::{Error as CoreError, Variant};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::convert::{Seq, Text};
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use serde_json::Value;

use crate::convert::{AnyInt, json_to_py};
use crate::errors::{BindError, BindResult};
use crate::score::{py_to_json, variant_from_py};
use crate::tiles::PyTile;
use crate::zipai::PyZipaiCard;

fn rule(msg: impl Into<String>) -> BindError {
    BindError::Core(CoreError::rule(msg))
}

fn illegal(msg: impl Into<String>) -> BindError {
    BindError::Core(CoreError::illegal(msg))
}

/// A Python seed (any int within ±2**127).
fn seed_of(obj: &Bound<'_, PyAny>) -> BindResult<i128> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(rule(format!(
            "seed must be an int, got {}",
            crate::convert::shown(obj)
        )));
    }
    obj.extract::<i128>().map_err(|_| {
        rule(format!(
            "seed must be an int (|seed| < 2**127), got {}",
            obj.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    })
}

fn variant_arg(obj: &Bound<'_, PyAny>) -> BindResult<Arc<Variant>> {
    variant_from_py(Some(obj))
}

// ------------------------------------------------------------------------------------ pieces

/// The code of a piece given as a name, a `Tile` or a 字牌 `Card`, and the family it names.
fn piece_of(obj: &Bound<'_, PyAny>) -> BindResult<(Pieces, u8)> {
    if let Ok(t) = obj.cast::<PyTile>() {
        return Ok((Pieces::Tiles, t.get().inner.index()));
    }
    if let Ok(c) = obj.cast::<PyZipaiCard>() {
        return Ok((Pieces::Cards, c.get().inner.index()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let s = crate::convert::text(s, "tile or card")?;
        if let Ok(c) = Pieces::Tiles.parse(s) {
            return Ok((Pieces::Tiles, c));
        }
        if let Ok(c) = Pieces::Cards.parse(s) {
            return Ok((Pieces::Cards, c));
        }
        return Err(BindError::Core(CoreError::tile(
            s,
            "not a tile (\"5m\", \"E\", \"f1\"), a 字牌 card (\"x5\", \"d10\", \"K\") or cards of a card game (\"33\", \"TTT 2\", \"56\")",
        )));
    }
    Err(BindError::Py(PyTypeError::new_err(format!(
        "a tile or card is its name (\"5m\", \"x5\") or a hupai.Tile; got {} (integer ids are not accepted)",
        crate::convert::shown(obj)
    ))))
}

/// Piece codes of a table's family from names (`wall=`, scenario hands).
fn pieces_in(obj: &Bound<'_, PyAny>, pieces: Pieces, what: &str) -> BindResult<Vec<u8>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return match pieces {
            Pieces::Tiles => Ok(hupai_core::parse_tiles(crate::convert::text(s, "tiles")?)?
                .iter()
                .map(|t| t.index())
                .collect()),
            Pieces::Cards => {
                let (cards, jokers) =
                    hupai_core::rules::zipai::parse_hand_cards(crate::convert::text(s, "cards")?)?;
                let mut v: Vec<u8> = cards.iter().map(|c| c.index()).collect();
                v.extend(std::iter::repeat_n(
                    hupai_core::game::action::JOKER,
                    usize::from(jokers),
                ));
                Ok(v)
            }
            Pieces::Named(_) => s
                .to_str()?
                .split_whitespace()
                .map(|x| pieces.parse(x).map_err(BindError::from))
                .collect(),
        };
    }
    let mut out = Vec::new();
    for x in obj
        .try_iter()
        .map_err(|_| rule(format!("{what}: a list of tile names")))?
    {
        let x = x?;
        let (p, c) = piece_of(&x)?;
        if p != pieces {
            return Err(rule(format!(
                "{what}: {} is not a piece of this game",
                crate::convert::shown(&x)
            )));
        }
        out.push(c);
    }
    Ok(out)
}

/// The notations of the registered card games (their tables' `Pieces::Named`), read once.
fn card_notations() -> &'static [Pieces] {
    static NOTATIONS: OnceLock<Vec<Pieces>> = OnceLock::new();
    NOTATIONS.get_or_init(|| {
        let mut out: Vec<Pieces> = Vec::new();
        for (id, _, _) in hupai_core::rules::REGISTRY {
            let Ok(v) = Variant::load(id) else { continue };
            let Ok(c) = Compiled::new(Arc::new(v)) else {
                continue;
            };
            let p = c.pieces();
            if matches!(p, Pieces::Named(_)) && !out.contains(&p) {
                out.push(p);
            }
        }
        out
    })
}

/// Piece codes of a card game's move written in its notation: one name (`"56"`), names apart
/// (`"T T 2"`), or names run together (`"33"`, `"TTT2"`: the longest name first).
fn parse_named(pieces: Pieces, text: &str) -> hupai_core::Result<Vec<u8>> {
    let Pieces::Named(names) = pieces else {
        return Ok(vec![pieces.parse(text)?]);
    };
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        if let Ok(c) = pieces.parse(word) {
            out.push(c);
            continue;
        }
        let mut rest = word;
        while !rest.is_empty() {
            let best = names
                .iter()
                .enumerate()
                .filter(|(_, n)| !n.is_empty() && rest.starts_with(**n))
                .max_by_key(|(_, n)| n.len());
            let Some((i, n)) = best else {
                return Err(CoreError::tile(
                    word,
                    format!("cards of this game: {}", names.join(" ")),
                ));
            };
            out.push(i as u8);
            rest = &rest[n.len()..];
        }
    }
    if out.is_empty() {
        return Err(CoreError::tile(text, "at least one card"));
    }
    Ok(out)
}

/// A card table seat's pieces as counts per code.
fn card_counts(c: &hupai_core::game::cards::CardTable, seat: usize) -> Vec<u32> {
    let mut v = vec![0u32; c.pieces.codes()];
    for k in c.hand.hand(seat) {
        if let Some(x) = v.get_mut(usize::from(k)) {
            *x += 1;
        }
    }
    v
}

/// Counts as a Python list (not bytes).
fn counts(c: &[u8]) -> Vec<u32> {
    c.iter().map(|&x| u32::from(x)).collect()
}

fn name(pieces: Pieces, c: u8) -> String {
    pieces.name(c)
}

fn names(pieces: Pieces, cs: &[u8]) -> Vec<String> {
    cs.iter().map(|&c| pieces.name(c)).collect()
}

// ------------------------------------------------------------------------------------ Action

/// One decision of one seat: ``Action(kind, seat, tile=None, tiles=(), value=None)``.
///
/// ``kind`` is ``discard``, ``win``, ``pass``, ``pung``, ``kong``, ``chow``, ``concealed_kong``,
/// ``added_kong``, ``exchange``, ``declare_void``, ``declare_ting``, ``declare_pao_zi``,
/// ``escape``, ``auto_play``, ``pizi_kong``, ``declare_ready`` or ``declare_piao``; the card
/// games add ``play``, ``bid``, ``call``, ``rob``, ``show``, ``yield``, ``revolt``, ``head``,
/// ``xuan_dian``, ``return``, ``open``, ``lay`` and ``kou``. ``tile`` names the tile or card
/// concerned (the lowest tile of a mahjong chow), ``tiles`` several (换三张, a 字牌 吃 with its 比
/// groups), ``value`` a number (定缺 suit 0 m / 1 p / 2 s, 炮子, 漂, 托管 1/0, a bid, a 顶牛 end).
/// Frozen and compared by value; pick actions from ``table.legal_actions(seat)``.
///
/// A move of a card game may be typed in the game's notation: ``Action("play", 0, "33")``
/// (斗地主: a pair of 3s), ``Action("play", 0, "TTT 2")`` (够级), ``Action("lay", 1, "56",
/// value=0)`` (顶牛). The names are kept as written and resolved by ``Table.step`` against the
/// seat's legal actions (the one with the same kind and the same cards; ``value`` narrows a
/// choice such as the reading or the end); a move matching none or several is
/// ``IllegalActionError`` naming the candidates.
#[pyclass(
    frozen,
    eq,
    hash,
    skip_from_py_object,
    module = "hupai._core",
    name = "Action"
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyAction {
    pub(crate) a: Action,
    /// The family its pieces belong to (`None`: no piece, or names not yet resolved).
    pub(crate) pieces: Option<Pieces>,
    /// Piece names as typed (`tile`, then `tiles`), kept when one is not a tile or 字牌 card:
    /// a card game's move, resolved by `Table.step` in the table's notation.
    pub(crate) typed: Option<Box<(Option<String>, Vec<String>)>>,
}

impl PyAction {
    fn of(a: Action, pieces: Pieces) -> PyAction {
        let p = (a.tile.is_some() || !a.tiles.is_empty()).then_some(pieces);
        PyAction {
            a,
            pieces: p,
            typed: None,
        }
    }
    fn pieces(&self) -> Pieces {
        self.pieces.unwrap_or(Pieces::Tiles)
    }
}

#[pymethods]
impl PyAction {
    #[new]
    #[pyo3(signature = (kind, seat, tile = None, tiles = None, value = None))]
    fn new(
        kind: Text,
        seat: AnyInt,
        tile: Option<&Bound<'_, PyAny>>,
        tiles: Option<&Bound<'_, PyAny>>,
        value: Option<AnyInt>,
    ) -> BindResult<PyAction> {
        let kind = ActionKind::parse(&kind).map_err(|e| illegal(e.to_string()))?;
        let seat: u8 = seat.within("seat", 0, 7, illegal)?;
        let mut fam: Option<Pieces> = None;
        let mut check = |p: Pieces| -> BindResult<()> {
            match fam {
                Some(f) if f != p => Err(illegal("an action names tiles or cards, not both")),
                _ => {
                    fam = Some(p);
                    Ok(())
                }
            }
        };
        // Strings that are neither tiles nor 字牌 cards but read in a registered card game's
        // notation are a card game's move: kept as typed (anything else: the tile error).
        let typed_name = |x: &Bound<'_, PyAny>| -> BindResult<Option<String>> {
            let Ok(s) = x.cast::<PyString>() else {
                return Ok(None);
            };
            let Ok(s) = s.to_str() else {
                return Ok(None);
            };
            if Pieces::Tiles.parse(s).is_ok() || Pieces::Cards.parse(s).is_ok() {
                return Ok(None);
            }
            if s.len() <= 256 && card_notations().iter().any(|&p| parse_named(p, s).is_ok()) {
                return Ok(Some(s.to_string()));
            }
            Ok(None)
        };
        let tile = tile.filter(|t| !t.is_none());
        let list: Vec<Bound<'_, PyAny>> = match tiles.filter(|t| !t.is_none()) {
            None => Vec::new(),
            Some(l) if l.is_instance_of::<PyString>() => {
                return Err(illegal("tiles: a sequence of tile names, not one string"));
            }
            Some(l) => l.try_iter()?.collect::<PyResult<_>>()?,
        };
        let mut any_typed = false;
        for x in tile.into_iter().chain(list.iter()) {
            any_typed |= typed_name(x)?.is_some();
        }
        let value = value
            .map(|v| v.within("value", -1_000_000, 1_000_000, illegal))
            .transpose()?;
        if any_typed {
            let text = |x: &Bound<'_, PyAny>| -> BindResult<String> {
                x.cast::<PyString>()
                    .map(|s| s.to_string())
                    .map_err(|_| illegal("a card game's move names its cards as strings"))
            };
            let t = tile.map(text).transpose()?;
            let ts = list.iter().map(text).collect::<BindResult<Vec<_>>>()?;
            return Ok(PyAction {
                a: Action {
                    kind,
                    seat,
                    tile: None,
                    tiles: Vec::new(),
                    value,
                },
                pieces: None,
                typed: Some(Box::new((t, ts))),
            });
        }
        let tile = match tile {
            None => None,
            Some(t) => {
                let (p, c) = piece_of(t)?;
                check(p)?;
                Some(c)
            }
        };
        let mut ts = Vec::new();
        for x in &list {
            let (p, c) = piece_of(x)?;
            check(p)?;
            ts.push(c);
        }
        Ok(PyAction {
            a: Action {
                kind,
                seat,
                tile,
                tiles: ts,
                value,
            },
            pieces: fam,
            typed: None,
        })
    }

    #[getter]
    fn kind(&self) -> &'static str {
        self.a.kind.name()
    }
    #[getter]
    fn seat(&self) -> u8 {
        self.a.seat
    }
    /// The tile / card concerned (its name), or ``None``.
    #[getter]
    fn tile(&self) -> Option<String> {
        if let Some(t) = &self.typed {
            return t.0.clone();
        }
        self.a.tile.map(|t| name(self.pieces(), t))
    }
    /// Several tiles / cards (names).
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(t) = &self.typed {
            return PyTuple::new(py, &t.1);
        }
        PyTuple::new(py, names(self.pieces(), &self.a.tiles))
    }
    #[getter]
    fn value(&self) -> Option<i32> {
        self.a.value
    }
    /// The action record of the event log.
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut v = self.a.to_json(self.pieces());
        if let (Some(t), Value::Object(m)) = (&self.typed, &mut v) {
            if let Some(x) = &t.0 {
                m.insert("tile".into(), Value::from(x.as_str()));
            }
            if !t.1.is_empty() {
                m.insert("tiles".into(), Value::from(t.1.clone()));
            }
        }
        json_to_py(py, &v)
    }
    /// An action from its record (``{"kind", "seat", "tile"?, "tiles"?, "value"?}``).
    #[staticmethod]
    fn from_json(record: &Bound<'_, PyAny>) -> BindResult<PyAction> {
        let v = py_to_json(record, "").map_err(|e| illegal(format!("action record: {e}")))?;
        let is_cards = |x: &Value| {
            x.as_str()
                .is_some_and(|s| Pieces::Tiles.parse(s).is_err() && Pieces::Cards.parse(s).is_ok())
        };
        let cards = v.get("tile").is_some_and(is_cards)
            || v.get("tiles")
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(is_cards));
        let pieces = if cards { Pieces::Cards } else { Pieces::Tiles };
        let a = Action::from_json(&v, pieces).map_err(|e| illegal(e.to_string()))?;
        Ok(PyAction::of(a, pieces))
    }
    fn __repr__(&self) -> String {
        let mut s = format!("Action({:?}, {}", self.a.kind.name(), self.a.seat);
        if let Some(t) = &self.typed {
            if let Some(x) = &t.0 {
                s.push_str(&format!(", {x:?}"));
            }
            if !t.1.is_empty() {
                s.push_str(&format!(", tiles={:?}", t.1));
            }
            if let Some(v) = self.a.value {
                s.push_str(&format!(", value={v}"));
            }
            s.push(')');
            return s.replace('"', "'");
        }
        if let Some(t) = self.a.tile {
            s.push_str(&format!(", {:?}", name(self.pieces(), t)));
        }
        if !self.a.tiles.is_empty() {
            let ts: Vec<String> = names(self.pieces(), &self.a.tiles)
                .into_iter()
                .map(|x| format!("{x:?}"))
                .collect();
            s.push_str(&format!(
                ", tiles=({}{})",
                ts.join(", "),
                if ts.len() == 1 { "," } else { "" }
            ));
        }
        if let Some(v) = self.a.value {
            s.push_str(&format!(", value={v}"));
        }
        s.push(')');
        s.replace('"', "'")
    }
    fn __str__(&self) -> String {
        if let Some(t) = &self.typed {
            let mut w: Vec<&str> = t.0.iter().map(String::as_str).collect();
            w.extend(t.1.iter().map(String::as_str));
            return format!(
                "seat {} {} {}",
                self.a.seat,
                self.a.kind.name(),
                w.join(" ")
            );
        }
        self.a.describe(self.pieces())
    }
}

/// Interned actions: one shared object per (family, kind, seat, piece or value).
fn interned(py: Python<'_>, a: &Action, pieces: Pieces) -> PyResult<Py<PyAction>> {
    const KINDS: usize = ActionKind::ALL.len();
    const CODES: usize = 76;
    static CACHE: OnceLock<Vec<OnceLock<Py<PyAction>>>> = OnceLock::new();
    let code = match (a.tile, a.value) {
        (Some(t), None) if a.tiles.is_empty() && usize::from(t) < 42 => Some(usize::from(t)),
        (None, None) if a.tiles.is_empty() => Some(42),
        (None, Some(v)) if a.tiles.is_empty() && (0..33).contains(&v) => Some(43 + v as usize),
        _ => None,
    };
    let (Some(code), true) = (code, a.seat < 8) else {
        return Py::new(py, PyAction::of(a.clone(), pieces));
    };
    let fam = match pieces {
        Pieces::Tiles => 0,
        Pieces::Cards => 1,
        Pieces::Named(_) => return Py::new(py, PyAction::of(a.clone(), pieces)),
    };
    let i = ((fam * KINDS + a.kind as usize) * 8 + usize::from(a.seat)) * CODES + code;
    let cache = CACHE.get_or_init(|| {
        (0..2 * KINDS * 8 * CODES)
            .map(|_| OnceLock::new())
            .collect()
    });
    if let Some(x) = cache[i].get() {
        return Ok(x.clone_ref(py));
    }
    let obj = Py::new(py, PyAction::of(a.clone(), pieces))?;
    let _ = cache[i].set(obj.clone_ref(py));
    Ok(obj)
}

pub(crate) fn action_list<'py>(
    py: Python<'py>,
    legal: &[Action],
    pieces: Pieces,
) -> PyResult<Bound<'py, PyList>> {
    let items = legal
        .iter()
        .map(|a| interned(py, a, pieces))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

// ------------------------------------------------------------------------------------ Event

/// One event of a hand (a record of the event log): ``type``, ``seat``, ``tile`` and the full
/// record (``event["key"]``, ``to_json()``).
#[pyclass(frozen, module = "hupai._core", name = "Event")]
pub struct PyEvent {
    e: Event,
    pieces: Pieces,
}

#[pymethods]
impl PyEvent {
    /// The record type: ``start``, ``action``, ``deal``, ``draw``, ``win``, ``end`` …
    #[getter(r#type)]
    fn type_(&self) -> &'static str {
        self.e.type_name()
    }
    #[getter]
    fn seat(&self) -> Option<u8> {
        self.e.seat()
    }
    #[getter]
    fn tile(&self) -> Option<String> {
        self.e.tile().map(|t| name(self.pieces, t))
    }
    /// The decision of an ``action`` record, else ``None``.
    #[getter]
    fn action(&self) -> Option<PyAction> {
        match &self.e {
            Event::Action(a) => Some(PyAction::of(a.clone(), self.pieces)),
            _ => None,
        }
    }
    /// The JSON record of the event log.
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.e.to_json(self.pieces))
    }
    fn __getitem__<'py>(&self, py: Python<'py>, key: Text) -> PyResult<Bound<'py, PyAny>> {
        match self.e.to_json(self.pieces).get(key.as_str()) {
            Some(v) => json_to_py(py, v),
            None => Err(pyo3::exceptions::PyKeyError::new_err(key.to_string())),
        }
    }
    #[pyo3(signature = (key, default = None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: Text,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self.e.to_json(self.pieces).get(key.as_str()) {
            Some(v) => json_to_py(py, v),
            None => Ok(default.unwrap_or_else(|| py.None().into_bound(py))),
        }
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyEvent>()
            .is_ok_and(|o| o.get().e == self.e && o.get().pieces == self.pieces)
    }
    fn __repr__(&self) -> String {
        let j = self.e.to_json(self.pieces);
        let mut parts = vec![self.e.type_name().to_string()];
        if let Event::Action(a) = &self.e {
            return format!("Event({})", a.describe(self.pieces));
        }
        if let Some(s) = self.e.seat() {
            parts.push(format!("seat {s}"));
        }
        if let Some(t) = self.tile() {
            parts.push(t);
        }
        if let Some(v) = j.get("value") {
            parts.push(format!("value {v}"));
        }
        format!("Event({})", parts.join(", "))
    }
}

fn event_list<'py>(py: Python<'py>, evs: &[Event], pieces: Pieces) -> PyResult<Bound<'py, PyList>> {
    let items = evs
        .iter()
        .map(|e| {
            Py::new(
                py,
                PyEvent {
                    e: e.clone(),
                    pieces,
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

// ------------------------------------------------------------------------------------ Bot

/// A built-in bot as an agent: ``Bot("greedy", seed)`` (``random``, ``greedy``, ``defensive``).
/// Called as ``bot(observation, legal_actions)``; a table's ``run`` plays it in the core without a
/// Python call.
#[pyclass(subclass, module = "hupai._core", name = "Bot")]
pub struct PyBot {
    bot: Bot,
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (kind = Text::from("greedy"), seed = None))]
    fn new(kind: Text, seed: Option<&Bound<'_, PyAny>>) -> BindResult<PyBot> {
        let s = match seed {
            Some(x) if !x.is_none() => seed_of(x)?,
            _ => 0,
        };
        Ok(PyBot {
            bot: Bot::new(BotKind::parse(&kind)?, s as u64),
        })
    }
    #[getter]
    fn kind(&self) -> &'static str {
        self.bot.kind.name()
    }
    fn __call__(
        &mut self,
        py: Python<'_>,
        observation: PyRef<'_, PyObservation>,
        legal: &Bound<'_, PyAny>,
    ) -> BindResult<Py<PyAny>> {
        let seat = observation.seat;
        let table = observation.table.clone_ref(py);
        let t = table.borrow(py);
        let mine = t.t.legal_actions(seat);
        if mine.is_empty() {
            return Err(illegal(format!("seat {seat} has nothing to do")));
        }
        let i = self.bot.choose(&t.t, seat, &mine);
        let chosen = &mine[i];
        for x in legal.try_iter()? {
            let x = x?;
            if let Ok(a) = x.cast::<PyAction>()
                && &a.get().a == chosen
            {
                return Ok(x.unbind());
            }
        }
        Ok(interned(py, chosen, t.t.pieces())?.into_any())
    }
    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.bot.kind.name())
    }
}

// ------------------------------------------------------------------------------------ Table

/// One hand of any preset — mahjong (4, 3 or 2 seats) or 字牌 (3 seats) — as a state machine in
/// the core: ``Table(variant, seed=0, agents=None, *, dealer=0, prevalent_wind=0, wall=None,
/// carry=None)``.
///
/// Drive it with ``legal_actions(seat)`` / ``step(action)`` (``to_act`` is the seat to decide;
/// ``step`` returns the events it caused), or ``run(agents)`` with agents (callables
/// ``(observation, legal_actions) -> action``; a built-in ``Bot`` plays inside the core).
/// ``done``, ``result`` and ``log`` (JSON records that ``hupai.replay`` rebuilds the hand from)
/// after the end. The wall is ``random.Random(seed).shuffle`` over the variant's tile set.
#[pyclass(subclass, module = "hupai._core", name = "Table")]
pub struct PyTable {
    pub(crate) t: Table,
    agents: Option<Vec<Py<PyAny>>>,
    legal_cache: Option<(u64, usize, Vec<Action>)>,
}

impl PyTable {
    fn build(
        variant: Arc<Variant>,
        seed: i128,
        dealer: usize,
        wind: u8,
        wall: Option<&Bound<'_, PyAny>>,
        carry: Option<&Bound<'_, PyAny>>,
    ) -> BindResult<Table> {
        let c = Compiled::new(variant.clone())?;
        let seats = c.seats();
        if dealer >= seats || wind >= 4 {
            return Err(rule(format!(
                "dealer is a seat index 0..{} and prevalent_wind a wind index 0..3",
                seats - 1
            )));
        }
        let wall = match wall.filter(|w| !w.is_none()) {
            None => None,
            Some(w) => Some(pieces_in(w, c.pieces(), "wall")?),
        };
        let carry = match carry.filter(|c| !c.is_none()) {
            None => None,
            Some(x) => {
                if !x.is_instance_of::<PyDict>() {
                    return Err(rule(format!(
                        "carry must be a mapping, got {}",
                        crate::convert::shown(x)
                    )));
                }
                let v = py_to_json(x, "").map_err(|e| rule(format!("carry: {e}")))?;
                if v.as_object().is_some_and(|m| m.is_empty()) {
                    None
                } else {
                    if c.family == Family::Cards {
                        Some(Carry {
                            cards: Some(v),
                            ..Carry::default()
                        })
                    } else {
                        Some(Carry::from_json(&v, &variant, seats)?)
                    }
                }
            }
        };
        Ok(c.table(TableSetup {
            seed,
            dealer,
            prevalent_wind: wind,
            wall,
            carry,
        })?)
    }

    fn legal_vec(&mut self, seat: usize) -> &[Action] {
        let v = self.t.version();
        let fresh = matches!(&self.legal_cache, Some((ver, s, _)) if *ver == v && *s == seat);
        if !fresh {
            let mut buf = self.legal_cache.take().map(|c| c.2).unwrap_or_default();
            self.t.legal_into(seat, &mut buf);
            self.legal_cache = Some((v, seat, buf));
        }
        self.legal_cache
            .as_ref()
            .map(|c| c.2.as_slice())
            .unwrap_or(&[])
    }

    fn mahjong(&self) -> Option<&Mahjong> {
        match &self.t {
            Table::Mahjong(m) => Some(m),
            Table::Zipai(_) | Table::Cards(_) => None,
        }
    }

    fn zipai(&self) -> Option<&Zipai> {
        match &self.t {
            Table::Zipai(z) => Some(z),
            Table::Mahjong(_) | Table::Cards(_) => None,
        }
    }

    /// A card game's move typed in its notation (`Action("play", 0, "33")`): the seat's one
    /// legal action of that kind with the same cards (and `value`, when given).
    fn resolve_typed(
        &mut self,
        a: &Action,
        typed: &(Option<String>, Vec<String>),
    ) -> BindResult<Action> {
        let pieces = self.t.pieces();
        let written = || {
            let mut w: Vec<&str> = typed.0.iter().map(String::as_str).collect();
            w.extend(typed.1.iter().map(String::as_str));
            w.join(" ")
        };
        if !matches!(pieces, Pieces::Named(_)) {
            return Err(illegal(format!(
                "{:?} names no tile of this game (tiles and 字牌 cards are written \"5m\", \"x5\")",
                written()
            )));
        }
        let codes = |text: &str| -> BindResult<Vec<u8>> {
            parse_named(pieces, text).map_err(|e| illegal(e.to_string()))
        };
        let main = typed.0.as_deref().map(codes).transpose()?;
        let mut listed = Vec::new();
        for x in &typed.1 {
            listed.extend(codes(x)?);
        }
        // The cards of the move: `tiles` when given (then `tile` is the main piece), else `tile`.
        let (cards, main_piece) = if listed.is_empty() {
            (main.clone().unwrap_or_default(), None)
        } else {
            (listed, main.clone())
        };
        let mut want = cards;
        want.sort_unstable();
        let seat = usize::from(a.seat);
        let legal = self.legal_vec(seat).to_vec();
        let mut hits: Vec<Action> = legal
            .iter()
            .filter(|l| l.kind == a.kind && (a.value.is_none() || l.value == a.value))
            .filter(|l| {
                let mut got: Vec<u8> = if l.tiles.is_empty() {
                    l.tile.into_iter().collect()
                } else {
                    l.tiles.clone()
                };
                got.sort_unstable();
                got == want
                    && match &main_piece {
                        None => true,
                        Some(m) => m.len() == 1 && l.tile == m.first().copied(),
                    }
            })
            .cloned()
            .collect();
        match hits.len() {
            1 => Ok(hits.remove(0)),
            0 => {
                let same_kind: Vec<String> = legal
                    .iter()
                    .filter(|l| l.kind == a.kind)
                    .take(12)
                    .map(|l| l.describe(pieces))
                    .collect();
                Err(illegal(if self.t.to_act() != Some(seat) {
                    format!(
                        "seat {seat} {} {}: it is not seat {seat}'s turn",
                        a.kind.name(),
                        written()
                    )
                } else if same_kind.is_empty() {
                    format!(
                        "seat {seat} {} {}: no {} is legal now",
                        a.kind.name(),
                        written(),
                        a.kind.name()
                    )
                } else {
                    format!(
                        "seat {seat} {} {}: not a legal move now; legal: {}{}",
                        a.kind.name(),
                        written(),
                        same_kind.join(", "),
                        if same_kind.len() == 12 { ", …" } else { "" }
                    )
                }))
            }
            _ => Err(illegal(format!(
                "seat {seat} {} {} is ambiguous: give value= to choose one of {}",
                a.kind.name(),
                written(),
                hits.iter()
                    .map(|l| format!(
                        "{} (value={})",
                        l.describe(pieces),
                        l.value.map_or("None".into(), |v| v.to_string())
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    fn apply_checked(&mut self, a: &Action) -> BindResult<usize> {
        if !a.kind.is_management() {
            let seat = usize::from(a.seat);
            let legal = self.legal_vec(seat);
            if legal.contains(a) {
                return Ok(self.t.apply(a)?);
            }
        }
        Ok(self.t.step(a)?)
    }

    /// The move of a seat under 托管: win, else pass, else discard the drawn tile.
    fn auto_choice(&mut self, seat: usize) -> BindResult<Action> {
        let drawn = self.mahjong().and_then(|m| m.drawn);
        let legal = self.legal_vec(seat).to_vec();
        if legal.is_empty() {
            return Err(illegal(format!("seat {seat} has nothing to do")));
        }
        for k in [ActionKind::Win, ActionKind::Pass] {
            if let Some(a) = legal.iter().find(|a| a.kind == k) {
                return Ok(a.clone());
            }
        }
        if let Some(a) = legal
            .iter()
            .find(|a| a.kind == ActionKind::Discard && a.tile == drawn)
        {
            return Ok(a.clone());
        }
        Ok(legal
            .iter()
            .find(|a| a.kind == ActionKind::Discard)
            .unwrap_or(&legal[0])
            .clone())
    }
}

/// Play the agents of `ag` (one per seat) until a seat of `stop` is to act or the hand is over.
fn drive<'py>(
    slf: &Bound<'py, PyTable>,
    ag: &[Bound<'py, PyAny>],
    stop: &[usize],
    max_steps: u64,
) -> BindResult<()> {
    let py = slf.py();
    let bots: Vec<Option<Bound<'py, PyBot>>> =
        ag.iter().map(|a| a.cast::<PyBot>().ok().cloned()).collect();
    let mut steps = 0u64;
    loop {
        let (seat, auto, pieces) = {
            let t = slf.borrow();
            let Some(s) = t.t.to_act() else { break };
            if stop.contains(&s) {
                break;
            }
            let auto = t.mahjong().is_some_and(|m| m.auto[s]);
            (s, auto, t.t.pieces())
        };
        steps += 1;
        if steps > max_steps {
            return Err(rule("the hand did not end"));
        }
        if auto {
            let mut t = slf.borrow_mut();
            let a = t.auto_choice(seat)?;
            t.apply_checked(&a)?;
            continue;
        }
        if let Some(b) = &bots[seat] {
            let mut t = slf.borrow_mut();
            let legal = t.legal_vec(seat).to_vec();
            if legal.is_empty() {
                return Err(illegal(format!(
                    "seat {seat} is to act with no legal action"
                )));
            }
            let i = b.borrow_mut().bot.choose(&t.t, seat, &legal);
            t.t.apply(&legal[i])?;
            continue;
        }
        let list = {
            let mut t = slf.borrow_mut();
            let legal = t.legal_vec(seat);
            action_list(py, legal, pieces)?
        };
        let obs = Py::new(
            py,
            PyObservation {
                table: slf.clone().unbind(),
                seat,
            },
        )?;
        let choice = ag[seat].call1((obs, &list))?;
        let mut idx = None;
        for (i, x) in list.iter().enumerate() {
            if x.is(&choice) {
                idx = Some(i);
                break;
            }
        }
        let mut t = slf.borrow_mut();
        let a = match idx {
            Some(i) => t.legal_vec(seat)[i].clone(),
            None => {
                let c = choice.cast::<PyAction>().map_err(|_| {
                    illegal(format!(
                        "seat {seat}'s agent returned {}, not an Action",
                        choice.repr().map(|r| r.to_string()).unwrap_or_default()
                    ))
                })?;
                c.get().a.clone()
            }
        };
        t.apply_checked(&a)?;
    }
    Ok(())
}

fn melds_py<'py>(py: Python<'py>, m: &Mahjong, seat: usize) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<(String, String, u8, Option<&str>)> = m.seats[seat]
        .melds
        .iter()
        .map(|(x, kk)| {
            let kind = match x.kind {
                MeldKind::Chow => "chow",
                MeldKind::Pung => "pung",
                MeldKind::Kong => "kong",
            };
            let kk = kk.map(|k| match k {
                KongKind::Open => "open",
                KongKind::Added => "added",
                KongKind::Concealed => "concealed",
            });
            (kind.to_string(), x.tile.to_string(), x.from, kk)
        })
        .collect();
    PyList::new(py, items)
}

fn zipai_seat<'py>(py: Python<'py>, z: &Zipai, s: usize) -> PyResult<Bound<'py, PyDict>> {
    let p = &z.players[s];
    let d = PyDict::new(py);
    let mut hand: Vec<String> = p.concealed().iter().map(ToString::to_string).collect();
    hand.extend(std::iter::repeat_n(
        "K".to_string(),
        usize::from(p.hand[20]),
    ));
    d.set_item("hand", hand)?;
    let melds = PyList::empty(py);
    for m in &p.melds {
        let md = PyDict::new(py);
        md.set_item("type", meld_name(m.ty))?;
        md.set_item(
            "tiles",
            m.cards.iter().map(ToString::to_string).collect::<Vec<_>>(),
        )?;
        melds.append(md)?;
    }
    d.set_item("melds", melds)?;
    let bits = |mask: u32| -> Vec<String> {
        (0..20u8)
            .filter(|&k| mask & (1 << k) != 0)
            .map(|k| Pieces::Cards.name(k))
            .collect()
    };
    d.set_item("chou", bits(p.chou))?;
    d.set_item("passed_peng", bits(p.passed_peng))?;
    d.set_item("river", names(Pieces::Cards, &p.river))?;
    d.set_item("dead", p.dead)?;
    Ok(d)
}

#[pymethods]
impl PyTable {
    #[new]
    #[pyo3(signature = (variant, seed = None, agents = None, *, dealer = AnyInt(0), prevalent_wind = AnyInt(0), wall = None, carry = None))]
    #[pyo3(
        text_signature = "(variant, seed=None, agents=None, *, dealer=0, prevalent_wind=0, wall=None, carry=None)"
    )]
    fn new(
        variant: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        agents: Option<&Bound<'_, PyAny>>,
        dealer: AnyInt,
        prevalent_wind: AnyInt,
        wall: Option<&Bound<'_, PyAny>>,
        carry: Option<&Bound<'_, PyAny>>,
    ) -> BindResult<PyTable> {
        let v = variant_arg(variant)?;
        let seed = match seed {
            Some(s) if !s.is_none() => seed_of(s)?,
            _ => 0,
        };
        let dealer: usize = dealer.within("dealer", 0, 7, rule)?;
        let wind: u8 = prevalent_wind.within("prevalent_wind", 0, 3, rule)?;
        let t = PyTable::build(v, seed, dealer, wind, wall, carry)?;
        let agents = match agents.filter(|a| !a.is_none()) {
            None => None,
            Some(a) => Some(
                a.try_iter()?
                    .take(9)
                    .map(|x| x.map(Bound::unbind))
                    .collect::<PyResult<Vec<_>>>()?,
            ),
        };
        Ok(PyTable {
            t,
            agents,
            legal_cache: None,
        })
    }

    /// A 字牌 table in the middle of a hand (scenarios, tests): concealed ``hands`` and ``melds``
    /// (``(type, cards)`` per meld) per seat, the remaining ``wall`` (top first); play starts with
    /// ``draw=seat`` (the seat draws the top card) or ``discard=(seat, card)``. Card counts are not
    /// checked against the deck.
    #[staticmethod]
    #[pyo3(signature = (variant, hands, wall, *, melds = None, dealer = AnyInt(0), draw = None, discard = None))]
    #[pyo3(
        text_signature = "(variant, hands, wall, *, melds=None, dealer=0, draw=None, discard=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn zipai_position(
        variant: &Bound<'_, PyAny>,
        hands: &Bound<'_, PyAny>,
        wall: &Bound<'_, PyAny>,
        melds: Option<&Bound<'_, PyAny>>,
        dealer: AnyInt,
        draw: Option<AnyInt>,
        discard: Option<crate::convert::Tup<(AnyInt, Bound<'_, PyAny>)>>,
    ) -> BindResult<PyTable> {
        let discard = discard.map(|d| d.0);
        let v = variant_arg(variant)?;
        let dealer: usize = dealer.within("dealer", 0, 2, rule)?;
        let hs: Vec<Vec<u8>> = hands
            .try_iter()?
            .take(4)
            .map(|h| pieces_in(&h?, Pieces::Cards, "hands"))
            .collect::<BindResult<_>>()?;
        let mut ms: Vec<Vec<hupai_core::rules::zipai::Meld>> = vec![Vec::new(); 3];
        if let Some(m) = melds.filter(|m| !m.is_none()) {
            for (s, seat_melds) in m.try_iter()?.enumerate() {
                if s >= 3 {
                    return Err(rule("melds: one list per seat (3)"));
                }
                for md in seat_melds?.try_iter()? {
                    let md = md?;
                    let (ty, cards): (String, Bound<'_, PyAny>) = md.extract()?;
                    let cs: Vec<hupai_core::rules::zipai::Card> =
                        pieces_in(&cards, Pieces::Cards, "meld")?
                            .into_iter()
                            .filter_map(hupai_core::rules::zipai::Card::from_index)
                            .collect();
                    ms[s].push(hupai_core::rules::zipai::Meld::new(
                        hupai_core::rules::zipai::MeldType::parse(&ty)?,
                        cs,
                    )?);
                }
            }
        }
        let w = pieces_in(wall, Pieces::Cards, "wall")?;
        let start = match (draw, discard) {
            (Some(s), None) => PositionStart::Draw(s.within("draw", 0, 2, rule)?),
            (None, Some((s, c))) => {
                let (p, code) = piece_of(&c)?;
                if p != Pieces::Cards {
                    return Err(rule("discard: a 字牌 card"));
                }
                PositionStart::Discard(s.within("discard seat", 0, 2, rule)?, code)
            }
            _ => return Err(rule("give draw=seat or discard=(seat, card)")),
        };
        let t = Table::zipai_position(
            v,
            dealer,
            Position {
                hands: hs,
                melds: ms,
                wall: w,
                start,
            },
        )?;
        Ok(PyTable {
            t,
            agents: None,
            legal_cache: None,
        })
    }

    #[getter]
    fn variant(&self) -> crate::variant::PyVariant {
        crate::variant::PyVariant {
            inner: self.t.variant().clone(),
        }
    }
    /// The preset id.
    #[getter]
    fn vid(&self) -> String {
        self.t.variant().id().to_string()
    }
    /// ``"mahjong"`` or ``"zipai"``.
    #[getter]
    fn family(&self) -> &'static str {
        match self.t.family() {
            Family::Mahjong => "mahjong",
            Family::Zipai => "zipai",
            Family::Cards => "cards",
        }
    }
    /// Seats at the table.
    #[getter]
    fn n(&self) -> usize {
        self.t.seats()
    }
    #[getter]
    fn seed(&self) -> i128 {
        match &self.t {
            Table::Mahjong(m) => m.seed,
            Table::Zipai(z) => z.seed,
            Table::Cards(c) => c.seed,
        }
    }
    #[getter]
    fn dealer(&self) -> usize {
        self.t.dealer()
    }
    #[getter]
    fn agents(&self, py: Python<'_>) -> Option<Vec<Py<PyAny>>> {
        self.agents
            .as_ref()
            .map(|a| a.iter().map(|x| x.clone_ref(py)).collect())
    }
    /// The seat to decide (``None`` when the hand is over).
    #[getter]
    fn to_act(&self) -> Option<usize> {
        self.t.to_act()
    }
    #[getter]
    fn done(&self) -> bool {
        self.t.is_done()
    }
    /// ``turn``, ``claim``, ``rob``, a pre-play phase (``huan_san_zhang``, ``ding_que``, ``pao_zi``,
    /// ``piao``, ``exchange``), ``haidi``, ``done``; 字牌: ``discard``, ``win``, ``pung``, ``chow``.
    #[getter]
    fn phase(&self) -> &'static str {
        self.t.phase()
    }
    /// Bumped on every change of state.
    #[getter]
    fn version(&self) -> u64 {
        self.t.version()
    }

    /// Every legal action of ``seat`` (default ``to_act``) now; empty when it has nothing to do.
    #[pyo3(signature = (seat = None))]
    fn legal_actions<'py>(
        &mut self,
        py: Python<'py>,
        seat: Option<AnyInt>,
    ) -> BindResult<Bound<'py, PyList>> {
        let Some(to_act) = self.t.to_act() else {
            return Ok(PyList::empty(py));
        };
        let seat = match seat {
            None => to_act,
            Some(s) => s.within("seat", 0, 7, illegal)?,
        };
        let pieces = self.t.pieces();
        let legal = self.legal_vec(seat);
        Ok(action_list(py, legal, pieces)?)
    }

    /// Apply one action of ``to_act`` (or a management action of any seat); returns the events it
    /// caused. An illegal action raises ``IllegalActionError`` and changes nothing.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> BindResult<Bound<'py, PyList>> {
        let a = action.cast::<PyAction>().map_err(|_| {
            illegal(format!(
                "not an Action: {}",
                action.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        })?;
        let a = a.get();
        if let Some(typed) = &a.typed {
            let resolved = self.resolve_typed(&a.a, typed)?;
            let first = self.apply_checked(&resolved)?;
            let pieces = self.t.pieces();
            return Ok(event_list(py, &self.t.events()[first..], pieces)?);
        }
        // A card game's names that also read as tiles or 字牌 cards ("W", "66"): read them again
        // in the table's notation.
        if let Some(p) = a.pieces
            && p != self.t.pieces()
            && matches!(self.t.pieces(), Pieces::Named(_))
        {
            let typed = (a.a.tile.map(|t| p.name(t)), names(p, &a.a.tiles));
            let resolved = self.resolve_typed(&a.a, &typed)?;
            let first = self.apply_checked(&resolved)?;
            let pieces = self.t.pieces();
            return Ok(event_list(py, &self.t.events()[first..], pieces)?);
        }
        if let Some(p) = a.pieces
            && p != self.t.pieces()
        {
            return Err(illegal(format!(
                "{} names pieces of another game",
                a.__repr__()
            )));
        }
        let first = self.apply_checked(&a.a)?;
        let pieces = self.t.pieces();
        Ok(event_list(py, &self.t.events()[first..], pieces)?)
    }

    /// What ``seat`` sees (its own tiles, every meld, river and public declaration).
    fn observation(slf: Bound<'_, Self>, seat: AnyInt) -> BindResult<PyObservation> {
        let n = slf.borrow().t.seats();
        let seat: usize = seat.within("seat", 0, n as i64 - 1, rule)?;
        Ok(PyObservation {
            table: slf.unbind(),
            seat,
        })
    }

    /// Play to the end with ``agents`` (one per seat, default the table's) and return ``result``.
    /// A ``hupai.Bot`` plays inside the core; a seat under 托管 plays ``auto_action``.
    #[pyo3(signature = (agents = None, max_steps = AnyInt(100_000)))]
    fn run<'py>(
        slf: Bound<'py, Self>,
        agents: Option<&Bound<'py, PyAny>>,
        max_steps: AnyInt,
    ) -> BindResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let ag: Vec<Bound<'py, PyAny>> = match agents.filter(|a| !a.is_none()) {
            // at most one agent per seat is read (no pre-allocation from a claimed len())
            Some(a) => a.try_iter()?.take(9).collect::<PyResult<_>>()?,
            None => slf
                .borrow()
                .agents
                .as_ref()
                .map(|v| v.iter().map(|x| x.bind(py).clone()).collect())
                .unwrap_or_default(),
        };
        let n = slf.borrow().t.seats();
        if ag.len() != n {
            return Err(rule(format!("run() needs {n} agents")));
        }
        let max_steps: u64 = max_steps.within("max_steps", 1, 1 << 40, rule)?;
        drive(&slf, &ag, &[], max_steps)?;
        let t = slf.borrow();
        let r =
            t.t.result_json()
                .ok_or_else(|| rule("the hand did not end"))?;
        Ok(result_py(py, &r)?)
    }

    /// Play ``agents`` (one per seat; anything, e.g. ``None``, at the seats of ``stop``) until a
    /// seat of ``stop`` is to act or the hand is over, and return the events this caused — a
    /// person's seat between its decisions. A ``hupai.Bot`` plays inside the core; a seat under
    /// 托管 plays ``auto_action``.
    #[pyo3(signature = (agents, stop, max_steps = 100_000))]
    fn advance<'py>(
        slf: Bound<'py, Self>,
        agents: &Bound<'py, PyAny>,
        stop: Vec<AnyInt>,
        max_steps: u64,
    ) -> BindResult<Bound<'py, PyList>> {
        let py = slf.py();
        let ag: Vec<Bound<'py, PyAny>> = agents.try_iter()?.collect::<PyResult<_>>()?;
        let (n, first) = {
            let t = slf.borrow();
            (t.t.seats(), t.t.events().len())
        };
        if ag.len() != n {
            return Err(rule(format!("advance() needs {n} agents")));
        }
        let stop: Vec<usize> = stop
            .into_iter()
            .map(|s| s.within("stop seat", 0, n as i64 - 1, rule))
            .collect::<BindResult<_>>()?;
        drive(&slf, &ag, &stop, max_steps)?;
        let t = slf.borrow();
        Ok(event_list(py, &t.t.events()[first..], t.t.pieces())?)
    }

    /// The table's move for a seat under 托管: win, else pass, else discard the drawn tile.
    #[pyo3(signature = (seat = None))]
    fn auto_action(&mut self, py: Python<'_>, seat: Option<AnyInt>) -> BindResult<Py<PyAction>> {
        let s = match seat {
            Some(s) => s.within("seat", 0, 7, illegal)?,
            None => self.t.to_act().ok_or_else(|| illegal("the hand is over"))?,
        };
        let a = self.auto_choice(s)?;
        Ok(interned(py, &a, self.t.pieces())?)
    }

    /// 逃跑: ``seat`` leaves; the hand ends with the preset's escape penalty (陕西).
    fn escape<'py>(&mut self, py: Python<'py>, seat: AnyInt) -> BindResult<Bound<'py, PyList>> {
        let s: u8 = seat.within("seat", 0, 7, illegal)?;
        let first = self.t.step(&Action::new(ActionKind::Escape, s, None))?;
        let p = self.t.pieces();
        Ok(event_list(py, &self.t.events()[first..], p)?)
    }

    /// 托管 on/off for ``seat``: ``run`` plays it with ``auto_action``; where the preset says so
    /// (河北) a possible win is its only action.
    #[pyo3(signature = (seat, on = true))]
    fn set_auto_play<'py>(
        &mut self,
        py: Python<'py>,
        seat: AnyInt,
        on: bool,
    ) -> BindResult<Bound<'py, PyList>> {
        let s: u8 = seat.within("seat", 0, 7, illegal)?;
        let first = self
            .t
            .step(&Action::valued(ActionKind::AutoPlay, s, i32::from(on)))?;
        let p = self.t.pieces();
        Ok(event_list(py, &self.t.events()[first..], p)?)
    }

    /// Scenario set-up before the first decision: the last ``n`` live-wall tiles are set aside
    /// (never drawn), as if the hand were that far on. Logged in the ``start`` record.
    fn set_aside(&mut self, n: AnyInt) -> BindResult<()> {
        let n: usize = n.within("n", 0, 1000, rule)?;
        self.legal_cache = None;
        Ok(self.t.set_aside(n)?)
    }

    /// The hand's result once it is over (else ``None``): ``winners``, ``wins`` (seat, tile,
    /// win_type, from, value, fans), ``exhausted``, ``balances``, ``turns``, ``ledger``,
    /// ``discarder``, ``carry``, ``escaped``, ``next_dealer``.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.t.result_json() {
            Some(r) => result_py(py, &r),
            None => Ok(py.None().into_bound(py)),
        }
    }
    /// The event log: JSON-ready records (``hupai.replay`` rebuilds the hand from them).
    #[getter]
    fn log<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &Value::Array(self.t.log_json()))
    }
    /// The events so far (``Event`` objects).
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        event_list(py, self.t.events(), self.t.pieces())
    }
    /// The ledger so far: ``{"events": [...], "balances": {...}}``.
    #[getter]
    fn ledger<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.t.ledger().to_json_value())
    }
    /// The balances per seat so far (one per seat: a party of the ledger that is not a seat,
    /// such as the house a 斗地主 escape penalty goes to, is in ``ledger``).
    #[getter]
    fn balances(&self) -> Vec<i64> {
        self.t
            .ledger()
            .balances()
            .into_iter()
            .take(self.t.seats())
            .map(|(_, b)| b)
            .collect()
    }
    /// Wins so far: ``{seat, tile, win_type, from, value, fans}`` each (``fans``: ``(id, count)``).
    #[getter]
    fn wins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        wins_py(py, &Value::Array(self.t.wins_json()))
    }
    /// Discards (mahjong) / draws and discards (字牌) made.
    #[getter]
    fn turns(&self) -> u32 {
        self.t.turns()
    }
    /// Pieces accounted for (wall, pool, hands, melds, rivers, flowers, won and set-aside tiles):
    /// equal to ``n_tiles`` after every step.
    fn tile_count(&self) -> usize {
        self.t.piece_count().0
    }
    /// Pieces in play (the tile set; 二人麻将 with its unused pool; 字牌: the deck).
    #[getter]
    fn n_tiles(&self) -> usize {
        self.t.piece_count().1
    }
    /// The wall as dealt (字牌: the cards not yet drawn), names.
    #[getter]
    fn wall(&self) -> Vec<String> {
        match &self.t {
            Table::Mahjong(m) => names(Pieces::Tiles, &m.wall),
            Table::Zipai(z) => z.wall.iter().map(|&c| Pieces::Cards.name(c)).collect(),
            Table::Cards(_) => Vec::new(),
        }
    }
    /// Tiles outside the wall still in the box (二人麻将: the unused pool), names.
    #[getter]
    fn pool(&self) -> Vec<String> {
        self.mahjong()
            .map(|m| names(Pieces::Tiles, &m.pool))
            .unwrap_or_default()
    }
    #[getter]
    fn wall_remaining(&self) -> usize {
        match &self.t {
            Table::Mahjong(m) => m.wall_remaining(),
            Table::Zipai(z) => z.wall.len(),
            Table::Cards(_) => 0,
        }
    }
    /// Tiles that may still be drawn in turn (the wall minus a 荒庄 reserve or dead wall).
    #[getter]
    fn live_remaining(&self) -> usize {
        match &self.t {
            Table::Mahjong(m) => m.live_remaining(),
            Table::Zipai(z) => z.wall.len(),
            Table::Cards(_) => 0,
        }
    }
    /// Standing tiles per seat as 34 counts (mahjong).
    #[getter]
    fn hands(&self) -> Vec<Vec<u32>> {
        match &self.t {
            Table::Mahjong(m) => m.seats.iter().map(|s| counts(&s.counts)).collect(),
            Table::Zipai(z) => z.players.iter().map(|p| counts(&p.hand)).collect(),
            Table::Cards(c) => (0..c.seats).map(|k| card_counts(c, k)).collect(),
        }
    }
    /// A seat's standing tiles / concealed cards, names.
    fn hand(&self, seat: AnyInt) -> BindResult<Vec<String>> {
        let s: usize = seat.within("seat", 0, self.t.seats() as i64 - 1, rule)?;
        Ok(match &self.t {
            Table::Mahjong(m) => names(Pieces::Tiles, &m.hand_tiles(s)),
            Table::Zipai(z) => {
                let p = &z.players[s];
                let mut v: Vec<String> = p.concealed().iter().map(ToString::to_string).collect();
                v.extend(std::iter::repeat_n(
                    "K".to_string(),
                    usize::from(p.hand[20]),
                ));
                v
            }
            Table::Cards(c) => names(c.pieces, &c.hand.hand(s)),
        })
    }
    /// Every seat's melds: ``(kind, tile, from, kong_kind)`` (mahjong); 字牌 see ``players``.
    #[getter]
    fn melds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        if let Some(m) = self.mahjong() {
            for s in 0..m.n {
                out.append(melds_py(py, m, s)?)?;
            }
        }
        Ok(out)
    }
    #[getter]
    fn discards(&self) -> Vec<Vec<String>> {
        match &self.t {
            Table::Mahjong(m) => m.discards.iter().map(|d| names(Pieces::Tiles, d)).collect(),
            Table::Zipai(z) => z
                .players
                .iter()
                .map(|p| names(Pieces::Cards, &p.river))
                .collect(),
            Table::Cards(c) => vec![Vec::new(); c.seats],
        }
    }
    #[getter]
    fn flowers(&self) -> Vec<Vec<String>> {
        self.mahjong()
            .map(|m| m.flowers.iter().map(|d| names(Pieces::Tiles, d)).collect())
            .unwrap_or_default()
    }
    #[getter]
    fn active(&self) -> Vec<bool> {
        self.mahjong()
            .map(|m| m.seats.iter().map(|s| s.active).collect())
            .unwrap_or_else(|| vec![true; 3])
    }
    /// 过水: seats that may not win on a discard until their next draw.
    #[getter]
    fn win_locked(&self) -> Vec<bool> {
        self.mahjong()
            .map(|m| m.seats.iter().map(|s| s.win_locked).collect())
            .unwrap_or_default()
    }
    /// Hands frozen by a declaration (报听 / 亮倒) or a 血流 win.
    #[getter]
    fn hand_locked(&self) -> Vec<bool> {
        self.mahjong()
            .map(|m| m.seats.iter().map(|s| s.hand_locked).collect())
            .unwrap_or_default()
    }
    /// 定缺 suits (0 m, 1 p, 2 s) or ``None``.
    #[getter]
    fn void(&self) -> Vec<Option<u8>> {
        self.mahjong()
            .map(|m| m.seats.iter().map(|s| s.void_suit).collect())
            .unwrap_or_default()
    }
    #[getter]
    fn win_count(&self) -> Vec<u32> {
        self.mahjong()
            .map(|m| m.win_count.clone())
            .unwrap_or_default()
    }
    /// The last discard (name).
    #[getter]
    fn last_discard(&self) -> Option<String> {
        self.mahjong()
            .and_then(|m| m.last_discard)
            .map(|t| name(Pieces::Tiles, t))
    }
    /// The tile the seat to move just drew (name), if any.
    #[getter]
    fn drawn(&self) -> Option<String> {
        match &self.t {
            Table::Mahjong(m)
                if matches!(
                    m.phase,
                    hupai_core::game::mahjong::Phase::Turn
                        | hupai_core::game::mahjong::Phase::Haidi
                ) =>
            {
                m.drawn.map(|t| name(Pieces::Tiles, t))
            }
            _ => None,
        }
    }
    /// What this hand was played with: ``floor``, ``kai_bao`` (this hand's 开宝 roll included),
    /// ``huang_fan``, ``pao_zi`` (the 下炮子 defaults).
    #[getter]
    fn carry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if let Some(m) = self.mahjong() {
            d.set_item("floor", m.carry.floor)?;
            d.set_item("kai_bao", m.carry.kai_bao)?;
            d.set_item("huang_fan", m.carry.huang_fan)?;
            d.set_item("pao_zi", m.carry.pao_zi.clone())?;
        }
        Ok(d)
    }
    /// 跟庄 happened (河北第4稿).
    #[getter]
    fn gen_zhuang(&self) -> bool {
        self.mahjong().is_some_and(|m| m.gen_zhuang)
    }
    /// Declared 炮子 per seat (陕西), ``None`` without the side bet.
    #[getter]
    fn pao_zi(&self) -> Option<Vec<i32>> {
        self.mahjong().and_then(|m| m.pao_zi.clone())
    }
    /// Declared 漂 per seat (卡五星).
    #[getter]
    fn piao(&self) -> Vec<Option<i32>> {
        self.mahjong().map(|m| m.piao.clone()).unwrap_or_default()
    }
    /// Seats in the order they declared (报听 / 亮倒).
    #[getter]
    fn declared(&self) -> Vec<usize> {
        self.mahjong()
            .map(|m| m.declared.clone())
            .unwrap_or_default()
    }
    /// Kongs made: ``{owner, kind, tile, feeder, chain}``.
    #[getter]
    fn kongs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        if let Some(m) = self.mahjong() {
            for k in &m.kongs {
                let d = PyDict::new(py);
                d.set_item("owner", k.owner)?;
                d.set_item(
                    "kind",
                    match k.kind {
                        KongKind::Open => "open",
                        KongKind::Added => "added",
                        KongKind::Concealed => "concealed",
                    },
                )?;
                d.set_item("tile", k.tile.to_string())?;
                d.set_item("feeder", k.feeder)?;
                d.set_item("chain", k.chain)?;
                out.append(d)?;
            }
        }
        Ok(out)
    }
    /// 武汉: the flipped indicator and the 癞子 (names).
    #[getter]
    fn indicator(&self) -> Option<String> {
        self.mahjong()
            .and_then(|m| m.indicator)
            .map(|t| name(Pieces::Tiles, t))
    }
    #[getter]
    fn laizi(&self) -> Option<String> {
        self.mahjong()
            .and_then(|m| m.laizi)
            .map(|t| name(Pieces::Tiles, t))
    }
    /// 武汉: per seat ``[痞子杠, 癞子杠]`` made.
    #[getter]
    fn pizi_kongs(&self) -> Vec<Vec<u32>> {
        self.mahjong()
            .map(|m| m.pizi_kongs.iter().map(|k| counts(k)).collect())
            .unwrap_or_default()
    }
    /// 武汉: the tiles each seat set aside as 痞子杠 / 癞子杠.
    #[getter]
    fn pizi_tiles(&self) -> Vec<Vec<String>> {
        self.mahjong()
            .map(|m| {
                m.pizi_tiles
                    .iter()
                    .map(|d| names(Pieces::Tiles, d))
                    .collect()
            })
            .unwrap_or_default()
    }
    #[getter]
    fn escaped(&self) -> Option<usize> {
        self.mahjong().and_then(|m| m.escaped)
    }
    /// 字牌: each seat's ``hand``, ``melds``, ``chou``, ``passed_peng``, ``river``, ``dead``.
    #[getter]
    fn players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        if let Some(z) = self.zipai() {
            for s in 0..3 {
                out.append(zipai_seat(py, z, s)?)?;
            }
        }
        Ok(out)
    }
    /// A seat's hand as text (standing tiles, then melds).
    fn hand_text(&self, seat: AnyInt) -> BindResult<String> {
        let s: usize = seat.within("seat", 0, self.t.seats() as i64 - 1, rule)?;
        Ok(match &self.t {
            Table::Mahjong(m) => {
                let h: Vec<String> = names(Pieces::Tiles, &m.hand_tiles(s));
                let ms: Vec<String> = m.seats[s]
                    .melds
                    .iter()
                    .map(|(x, _)| {
                        format!(
                            "[{} {}]",
                            match x.kind {
                                MeldKind::Chow => "chow",
                                MeldKind::Pung => "pung",
                                MeldKind::Kong => "kong",
                            },
                            x.tile
                        )
                    })
                    .collect();
                format!("{} {}", h.join(" "), ms.join(" "))
                    .trim()
                    .to_string()
            }
            Table::Zipai(z) => {
                hupai_core::rules::zipai::format_cards(&z.players[s].concealed(), false)
            }
            Table::Cards(c) => names(c.pieces, &c.hand.hand(s)).concat(),
        })
    }
    fn __repr__(&self) -> String {
        format!(
            "Table({:?}, seats {}, phase {}, to_act {})",
            self.t.variant().id(),
            self.t.seats(),
            self.t.phase(),
            self.t
                .to_act()
                .map_or("None".to_string(), |s| s.to_string())
        )
    }
}

/// Wins as Python objects: their ``fans`` as ``(id, count)`` tuples.
fn wins_py<'py>(py: Python<'py>, wins: &Value) -> PyResult<Bound<'py, PyAny>> {
    let out = json_to_py(py, wins)?;
    for w in out.try_iter()? {
        let w = w?;
        let fans = w.get_item("fans")?;
        let tuples = PyList::empty(py);
        for f in fans.try_iter()? {
            tuples.append(PyTuple::new(
                py,
                f?.try_iter()?.collect::<PyResult<Vec<_>>>()?,
            )?)?;
        }
        w.set_item("fans", tuples)?;
    }
    Ok(out)
}

/// A result as Python objects (its wins' fans as tuples).
fn result_py<'py>(py: Python<'py>, r: &Value) -> PyResult<Bound<'py, PyAny>> {
    let out = json_to_py(py, r)?;
    if let Some(w) = r.get("wins") {
        out.set_item("wins", wins_py(py, w)?)?;
    }
    Ok(out)
}

// ------------------------------------------------------------------------------------ Observation

/// What one seat can see now: its own standing tiles, every meld, river, flower count, public
/// declaration, the wall size and balances — never another seat's concealed tiles or the wall.
#[pyclass(frozen, module = "hupai._core", name = "Observation")]
pub struct PyObservation {
    table: Py<PyTable>,
    #[pyo3(get)]
    seat: usize,
}

impl PyObservation {
    fn with<R>(&self, py: Python<'_>, f: impl FnOnce(&PyTable) -> R) -> R {
        f(&self.table.borrow(py))
    }
}

#[pymethods]
impl PyObservation {
    /// The table (bots read it through the core; agents should use the fields here).
    #[getter]
    fn table(&self, py: Python<'_>) -> Py<PyTable> {
        self.table.clone_ref(py)
    }
    #[getter]
    fn variant_id(&self, py: Python<'_>) -> String {
        self.with(py, |t| t.t.variant().id().to_string())
    }
    /// The seat's standing tiles as 34 counts (字牌: 21 counts, the last = jokers).
    #[getter]
    fn hand(&self, py: Python<'_>) -> Vec<u32> {
        self.with(py, |t| match &t.t {
            Table::Mahjong(m) => counts(&m.seats[self.seat].counts),
            Table::Zipai(z) => counts(&z.players[self.seat].hand),
            Table::Cards(c) => card_counts(c, self.seat),
        })
    }
    /// The seat's standing tiles / concealed cards, names.
    #[getter]
    fn hand_tiles(&self, py: Python<'_>) -> BindResult<Vec<String>> {
        self.with(py, |t| t.hand(AnyInt(self.seat as i64)))
    }
    #[getter]
    fn melds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.with(py, |t| match &t.t {
            Table::Mahjong(_) | Table::Cards(_) => t.melds(py),
            Table::Zipai(z) => {
                let out = PyList::empty(py);
                for p in &z.players {
                    let l = PyList::empty(py);
                    for m in &p.melds {
                        if matches!(
                            m.ty,
                            hupai_core::rules::zipai::MeldType::Sao
                                | hupai_core::rules::zipai::MeldType::SaoChuan
                        ) {
                            continue; // concealed groups
                        }
                        let d = PyDict::new(py);
                        d.set_item("type", meld_name(m.ty))?;
                        d.set_item(
                            "tiles",
                            m.cards.iter().map(ToString::to_string).collect::<Vec<_>>(),
                        )?;
                        l.append(d)?;
                    }
                    out.append(l)?;
                }
                Ok(out)
            }
        })
    }
    #[getter]
    fn discards(&self, py: Python<'_>) -> Vec<Vec<String>> {
        self.with(py, |t| t.discards())
    }
    #[getter]
    fn flowers(&self, py: Python<'_>) -> Vec<usize> {
        self.with(py, |t| {
            t.mahjong()
                .map(|m| m.flowers.iter().map(Vec::len).collect())
                .unwrap_or_default()
        })
    }
    #[getter]
    fn void(&self, py: Python<'_>) -> Vec<Option<u8>> {
        self.with(py, |t| t.void())
    }
    /// Seats whose hand is frozen by a declaration (报听, 亮倒) or a 血流 win.
    #[getter]
    fn declared(&self, py: Python<'_>) -> Vec<bool> {
        self.with(py, |t| t.hand_locked())
    }
    /// Standing tiles revealed to everyone (亮倒 hands): seat → 34 counts.
    #[getter]
    fn revealed(&self, py: Python<'_>) -> std::collections::BTreeMap<usize, Vec<u32>> {
        self.with(py, |t| {
            let mut out = std::collections::BTreeMap::new();
            if let Some(m) = t.mahjong()
                && m.facts.declaration.as_ref().is_some_and(|d| d.reveal)
            {
                for &s in &m.declared {
                    out.insert(s, counts(&m.seats[s].counts));
                }
            }
            out
        })
    }
    #[getter]
    fn active(&self, py: Python<'_>) -> Vec<bool> {
        self.with(py, |t| t.active())
    }
    #[getter]
    fn pao_zi(&self, py: Python<'_>) -> Option<Vec<i32>> {
        self.with(py, |t| t.pao_zi())
    }
    /// Wins per seat so far.
    #[getter]
    fn won(&self, py: Python<'_>) -> Vec<u32> {
        self.with(py, |t| t.win_count())
    }
    #[getter]
    fn wall_remaining(&self, py: Python<'_>) -> usize {
        self.with(py, |t| t.wall_remaining())
    }
    #[getter]
    fn phase(&self, py: Python<'_>) -> &'static str {
        self.with(py, |t| t.t.phase())
    }
    #[getter]
    fn last_discard(&self, py: Python<'_>) -> Option<String> {
        self.with(py, |t| t.last_discard())
    }
    /// The wildcard of the hand (武汉 癞子), ``None`` without one.
    #[getter]
    fn laizi(&self, py: Python<'_>) -> Option<String> {
        self.with(py, |t| t.laizi())
    }
    #[getter]
    fn balances(&self, py: Python<'_>) -> Vec<i64> {
        self.with(py, |t| t.balances())
    }
    /// ``(discard, shanten after it, unseen useful tiles)`` for the seat to move, best first.
    fn discard_analysis(&self, py: Python<'_>) -> Vec<(String, i8, u32)> {
        self.with(py, |t| {
            t.mahjong()
                .map(|m| {
                    m.discard_analysis(self.seat)
                        .into_iter()
                        .map(|(x, s, u)| (x.to_string(), s, u))
                        .collect()
                })
                .unwrap_or_default()
        })
    }
    /// A card game's own observation record (斗地主: the landlord, the move to beat, cards left
    /// per seat …; keys documented by the game), ``None`` at mahjong and 字牌 tables.
    #[getter]
    fn game<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let v = self.with(py, |t| match &t.t {
            Table::Cards(c) => Some(c.hand.observation(self.seat)),
            _ => None,
        });
        v.map(|v| json_to_py(py, &v)).transpose()
    }
    /// Pieces each seat holds (card games: cards left; mahjong and 字牌: concealed tiles).
    #[getter]
    fn hand_sizes(&self, py: Python<'_>) -> Vec<usize> {
        self.with(py, |t| match &t.t {
            Table::Cards(c) => (0..c.seats).map(|k| c.hand.hand(k).len()).collect(),
            Table::Mahjong(m) => m
                .seats
                .iter()
                .map(|s| s.counts.iter().map(|&x| usize::from(x)).sum())
                .collect(),
            Table::Zipai(z) => z
                .players
                .iter()
                .map(|p| p.hand.iter().map(|&x| usize::from(x)).sum())
                .collect(),
        })
    }
    /// The observation as JSON-ready data.
    fn to_json<'py>(&self, py: Python<'py>) -> BindResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("seat", self.seat)?;
        d.set_item("variant", self.variant_id(py))?;
        d.set_item("hand", self.hand_tiles(py)?)?;
        d.set_item("melds", self.melds(py)?)?;
        d.set_item("discards", self.discards(py))?;
        d.set_item("void", self.void(py))?;
        d.set_item("active", self.active(py))?;
        d.set_item("declared", self.declared(py))?;
        d.set_item("wall_remaining", self.wall_remaining(py))?;
        d.set_item("phase", self.phase(py))?;
        d.set_item("balances", self.balances(py))?;
        d.set_item("hand_sizes", self.hand_sizes(py))?;
        if let Some(g) = self.game(py)? {
            d.set_item("game", g)?;
        }
        Ok(d)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!("Observation(seat {}, {})", self.seat, self.phase(py))
    }
}

// ------------------------------------------------------------------------------------ functions

/// The shuffled wall of a hand: ``random.Random(seed).shuffle`` over the variant's tile set (字牌:
/// its deck), names.
#[pyfunction]
pub fn build_wall(variant: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> BindResult<Vec<String>> {
    let v = variant_arg(variant)?;
    let seed = seed_of(seed)?;
    let c = Compiled::new(v.clone())?;
    let mut set: Vec<u8> = match c.family {
        Family::Mahjong => v.tile_set()?.iter().map(|t| t.index()).collect(),
        Family::Zipai => {
            let mut d: Vec<u8> = (0..20u8).flat_map(|k| [k; 4]).collect();
            d.extend(std::iter::repeat_n(
                hupai_core::game::action::JOKER,
                usize::from(hupai_core::rules::zipai::rules_of(&v)?.jokers),
            ));
            d
        }
        Family::Cards => {
            return Err(rule(format!(
                "{} deals from the seed with its own generator (no wall)",
                v.id()
            )));
        }
    };
    PyRandom::new(seed).shuffle(&mut set);
    Ok(names(c.pieces(), &set))
}

/// A wall that deals ``hands[k]`` (notation; 13 tiles, the dealer 14) to seat ``k`` and then
/// yields ``draws`` from the front; the other tiles follow in index order (scenarios, tests).
#[pyfunction]
#[pyo3(signature = (variant, hands, draws = Text::from(""), dealer = AnyInt(0)))]
#[pyo3(text_signature = "(variant, hands, draws='', dealer=0)")]
pub fn arrange_wall(
    variant: &Bound<'_, PyAny>,
    hands: Seq<Text>,
    draws: Text,
    dealer: AnyInt,
) -> BindResult<Vec<String>> {
    let v = variant_arg(variant)?;
    let c = Compiled::new(v.clone())?;
    if c.family != Family::Mahjong {
        return Err(rule(
            "arrange_wall: mahjong presets (字牌: Table.zipai_position)",
        ));
    }
    let dealer: usize = dealer.within("dealer", 0, c.seats() as i64 - 1, rule)?;
    let hs: Vec<Vec<Tile>> = hands
        .iter()
        .map(|h| {
            if h.is_empty() {
                Ok(Vec::new())
            } else {
                hupai_core::parse_tiles(h)
            }
        })
        .collect::<Result<_, _>>()?;
    let ds = if draws.is_empty() {
        Vec::new()
    } else {
        hupai_core::parse_tiles(&draws)?
    };
    let w = hupai_core::game::mahjong::arrange_wall(&v, c.seats(), &hs, &ds, dealer)?;
    Ok(names(Pieces::Tiles, &w))
}

/// Rebuild a hand from its event log (JSON records) and check it replays exactly
/// (``ReplayError`` otherwise); returns the rebuilt ``Table``.
///
/// With ``actions=k``: the table after the ``start`` record and the log's first ``k`` decisions
/// (each a checked step; the rest of the log is not read) — a replay viewer's step.
#[pyfunction]
#[pyo3(signature = (log, actions = None))]
pub fn replay(log: &Bound<'_, PyAny>, actions: Option<AnyInt>) -> BindResult<PyTable> {
    let v =
        py_to_json(log, "").map_err(|e| BindError::Core(CoreError::replay(format!("log: {e}"))))?;
    let Value::Array(records) = v else {
        return Err(BindError::Core(CoreError::replay(
            "a log is a list of records",
        )));
    };
    let t = match actions {
        None => gt::replay(&records)?,
        Some(k) => {
            let k: usize = k.within("actions", 0, i64::from(u32::MAX), rule)?;
            gt::replay_prefix(&records, k)?
        }
    };
    Ok(PyTable {
        t,
        agents: None,
        legal_cache: None,
    })
}

/// The seed of game ``index`` of a run with master seed ``master`` (SplitMix64; independent of
/// how games are split into chunks, workers or backends).
#[pyfunction]
pub fn game_seed(master: &Bound<'_, PyAny>, index: AnyInt) -> BindResult<u64> {
    let m = seed_of(master)?;
    let i: u64 = index.within("index", 0, i64::MAX, rule)?;
    Ok(hupai_core::game::rng::game_seed(m, i))
}

fn agents_of(names: &[String], seats: usize) -> BindResult<Vec<BotKind>> {
    let v: Vec<BotKind> = names
        .iter()
        .map(|n| BotKind::parse(n))
        .collect::<Result<_, _>>()?;
    if v.len() != seats {
        return Err(rule(format!("agents: one name or {seats}")));
    }
    Ok(v)
}

/// Trajectory columns of the events of some hands (one row per event).
fn trajectory<'py>(
    py: Python<'py>,
    hands: &[hupai_core::game::sim::HandSummary],
    pieces: Pieces,
) -> PyResult<Bound<'py, PyDict>> {
    let (mut game, mut seq, mut ty, mut seat, mut kind, mut tile, mut tiles, mut value, mut record) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for h in hands {
        for (i, e) in h.events.iter().enumerate() {
            let j = e.to_json(pieces);
            game.push(h.game);
            seq.push(i as u32);
            ty.push(e.type_name());
            seat.push(e.seat().map_or(-1, i16::from));
            kind.push(match e {
                Event::Action(a) => Some(a.kind.name()),
                _ => None,
            });
            tile.push(e.tile().map(|t| pieces.name(t)));
            tiles.push(
                j.get("tiles")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default(),
            );
            value.push(j.get("value").and_then(Value::as_i64));
            record.push(j.to_string());
        }
    }
    let d = PyDict::new(py);
    d.set_item("game", game)?;
    d.set_item("seq", seq)?;
    d.set_item("type", ty)?;
    d.set_item("seat", seat)?;
    d.set_item("kind", kind)?;
    d.set_item("tile", tile)?;
    d.set_item("tiles", tiles)?;
    d.set_item("value", value)?;
    d.set_item("record", record)?;
    Ok(d)
}

/// Games ``lo..hi`` of a run with built-in bots (no Python per decision; the GIL is released and
/// ``threads`` threads play). Returns ``(records, trajectories)``: one summary dict per game and,
/// with ``trajectories``, the events as columns (one row per event).
#[pyfunction]
#[pyo3(signature = (variant, agents, seed, lo, hi, threads = AnyInt(1), trajectories = false, check = false, results = false, hands_per_match = AnyInt(1)))]
#[pyo3(
    text_signature = "(variant, agents, seed, lo, hi, threads=1, trajectories=False, check=False, results=False, hands_per_match=1)"
)]
#[allow(clippy::too_many_arguments)]
pub fn simulate_games<'py>(
    py: Python<'py>,
    variant: &Bound<'py, PyAny>,
    agents: Seq<Text>,
    seed: &Bound<'py, PyAny>,
    lo: AnyInt,
    hi: AnyInt,
    threads: AnyInt,
    trajectories: bool,
    check: bool,
    results: bool,
    hands_per_match: AnyInt,
) -> BindResult<(Bound<'py, PyList>, Option<Bound<'py, PyDict>>)> {
    let v = variant_arg(variant)?;
    let c = Compiled::new(v)?;
    let agents: Vec<String> = agents.0.into_iter().map(|t| t.0).collect();
    let a = agents_of(&agents, c.seats())?;
    let seed = seed_of(seed)?;
    let lo: u64 = lo.within("lo", 0, i64::MAX, rule)?;
    let hi: u64 = hi.within("hi", lo as i64, i64::MAX, rule)?;
    let threads: usize = threads.within("threads", 1, 1024, rule)?;
    let opt = hupai_core::game::sim::SimOptions {
        check,
        keep_events: trajectories,
        keep_results: results,
        hands_per_match: hands_per_match.within("hands_per_match", 1, 1_000_000, rule)?,
        ..Default::default()
    };
    let hands =
        py.detach(|| hupai_core::game::sim::simulate(&c, &a, seed, lo, hi, threads, &opt))?;
    let out = PyList::empty(py);
    for h in &hands {
        let d = PyDict::new(py);
        d.set_item("game", h.game)?;
        d.set_item("seed", h.seed)?;
        d.set_item("dealer", h.dealer)?;
        d.set_item("winners", &h.winners)?;
        d.set_item("n_wins", h.n_wins)?;
        d.set_item("exhausted", h.exhausted)?;
        d.set_item("balances", &h.balances)?;
        d.set_item("turns", h.turns)?;
        d.set_item("steps", h.steps)?;
        d.set_item("fans", &h.fans)?;
        d.set_item("values", &h.values)?;
        if results {
            match &h.result {
                Some(r) => d.set_item("result", json_to_py(py, r)?)?,
                None => d.set_item("result", py.None())?,
            }
        }
        out.append(d)?;
    }
    let traj = if trajectories {
        Some(trajectory(py, &hands, c.pieces())?)
    } else {
        None
    };
    Ok((out, traj))
}

/// A checked run of ``n`` games with built-in bots (the CI invariants): after every step every
/// piece is accounted for and the action was legal; every hand's ledger events and balances are
/// zero-sum and the hand replays exactly from its events (and every ``json_replay_every``-th from
/// its JSON log). Raises on the first violation; returns totals.
#[pyfunction]
#[pyo3(signature = (variant, agents, seed, n, threads = AnyInt(1), json_replay_every = AnyInt(10)))]
#[pyo3(text_signature = "(variant, agents, seed, n, threads=1, json_replay_every=10)")]
pub fn check_games<'py>(
    py: Python<'py>,
    variant: &Bound<'py, PyAny>,
    agents: Seq<Text>,
    seed: &Bound<'py, PyAny>,
    n: AnyInt,
    threads: AnyInt,
    json_replay_every: AnyInt,
) -> BindResult<Bound<'py, PyDict>> {
    let v = variant_arg(variant)?;
    let c = Compiled::new(v)?;
    let agents: Vec<String> = agents.0.into_iter().map(|t| t.0).collect();
    let a = agents_of(&agents, c.seats())?;
    let seed = seed_of(seed)?;
    let n: u64 = n.within("n", 0, i64::MAX, rule)?;
    let threads: usize = threads.within("threads", 1, 1024, rule)?;
    let every: u64 = json_replay_every.within("json_replay_every", 0, i64::MAX, rule)?;
    let st = py.detach(|| hupai_core::game::sim::check_run(&c, &a, seed, n, threads, every))?;
    let d = PyDict::new(py);
    d.set_item("hands", st.hands)?;
    d.set_item("steps", st.steps)?;
    d.set_item("wins", st.wins)?;
    d.set_item("exhausted", st.exhausted)?;
    Ok(d)
}

// ------------------------------------------------------------------------------------ Match

/// Hands in a row at one table: ``Match(variant, seed=0, agents=None)``. Between hands the core
/// decides the next dealer (the preset's rotation) and what carries over (上楼 floor, pending
/// 开宝/黄番, 下炮子 defaults); the round wind advances after as many changes of dealer as there
/// are seats; ``scores`` add up. Hand ``i`` is dealt with ``game_seed(seed, i)``.
#[pyclass(module = "hupai._core", name = "Match")]
pub struct PyMatch {
    m: Match,
    agents: Option<Vec<Py<PyAny>>>,
    hands: Vec<Py<PyAny>>,
}

#[pymethods]
impl PyMatch {
    #[new]
    #[pyo3(signature = (variant, seed = None, agents = None))]
    fn new(
        variant: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        agents: Option<&Bound<'_, PyAny>>,
    ) -> BindResult<PyMatch> {
        let v = variant_arg(variant)?;
        let seed = match seed {
            Some(s) if !s.is_none() => seed_of(s)?,
            _ => 0,
        };
        let agents = match agents.filter(|a| !a.is_none()) {
            None => None,
            Some(a) => Some(
                a.try_iter()?
                    .take(9)
                    .map(|x| x.map(Bound::unbind))
                    .collect::<PyResult<Vec<_>>>()?,
            ),
        };
        Ok(PyMatch {
            m: Match::new(Compiled::new(v)?, seed),
            agents,
            hands: Vec::new(),
        })
    }

    /// Play the next hand with ``agents`` (default the match's); returns its result.
    #[pyo3(signature = (agents = None))]
    fn play_hand<'py>(
        &mut self,
        py: Python<'py>,
        agents: Option<&Bound<'py, PyAny>>,
    ) -> BindResult<Bound<'py, PyAny>> {
        let ag: Bound<'py, PyAny> = match agents.filter(|a| !a.is_none()) {
            Some(a) => a.clone(),
            None => match &self.agents {
                Some(v) => PyList::new(py, v.iter().map(|x| x.clone_ref(py)))?.into_any(),
                None => return Err(rule("play_hand() needs agents")),
            },
        };
        let t = self.m.next_table()?;
        let (dealer, wind) = (self.m.dealer, self.m.wind);
        let table = Bound::new(
            py,
            PyTable {
                t,
                agents: None,
                legal_cache: None,
            },
        )?;
        let res = PyTable::run(table.clone(), Some(&ag), AnyInt(100_000))?;
        let tb = table.borrow();
        self.m.finish(&tb.t)?;
        let rec = PyDict::new(py);
        rec.set_item("dealer", dealer)?;
        rec.set_item("wind", wind)?;
        let c = PyDict::new(py);
        if let Table::Mahjong(m) = &tb.t {
            c.set_item("floor", m.carry.floor)?;
            c.set_item("kai_bao", m.carry.kai_bao)?;
            c.set_item("huang_fan", m.carry.huang_fan)?;
            c.set_item("pao_zi", m.carry.pao_zi.clone())?;
        }
        rec.set_item("carry", c)?;
        rec.set_item("result", &res)?;
        rec.set_item("log", json_to_py(py, &Value::Array(tb.t.log_json()))?)?;
        self.hands.push(rec.into_any().unbind());
        Ok(res)
    }

    /// Play ``n`` hands; returns the running scores.
    #[pyo3(signature = (n, agents = None))]
    fn play(
        &mut self,
        py: Python<'_>,
        n: AnyInt,
        agents: Option<&Bound<'_, PyAny>>,
    ) -> BindResult<Vec<i64>> {
        let n: usize = n.within("n", 0, 1_000_000, rule)?;
        for _ in 0..n {
            self.play_hand(py, agents)?;
        }
        Ok(self.m.scores.clone())
    }

    #[getter]
    fn variant(&self) -> crate::variant::PyVariant {
        crate::variant::PyVariant {
            inner: self.m.compiled.variant.clone(),
        }
    }
    #[getter]
    fn n(&self) -> usize {
        self.m.compiled.seats()
    }
    /// The next hand's dealer.
    #[getter]
    fn dealer(&self) -> usize {
        self.m.dealer
    }
    /// The round (prevalent) wind 0..3 (E S W N).
    #[getter]
    fn wind(&self) -> u8 {
        self.m.wind
    }
    #[getter]
    fn passes(&self) -> u32 {
        self.m.passes
    }
    #[getter]
    fn scores(&self) -> Vec<i64> {
        self.m.scores.clone()
    }
    /// What the next hand gets (only what the preset carries).
    #[getter]
    fn carry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(
            py,
            &self
                .m
                .carry
                .as_ref()
                .map_or(Value::Object(Default::default()), Carry::to_json),
        )
    }
    /// The hands played: ``{dealer, wind, carry, result, log}`` each.
    #[getter]
    fn hands(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.hands.iter().map(|h| h.clone_ref(py)).collect()
    }
    fn __repr__(&self) -> String {
        format!(
            "Match({:?}, {} hands, scores {:?})",
            self.m.compiled.variant.id(),
            self.m.hands,
            self.m.scores
        )
    }
}

/// The seat names of the ledger for ``n`` seats (``E S W N``).
#[pyfunction]
pub fn seat_names(n: AnyInt) -> BindResult<Vec<String>> {
    let n: usize = n.within("n", 2, 8, rule)?;
    Ok((0..n).map(|k| SEAT_NAMES[k].to_string()).collect())
}

/// The tile names of the mahjong tile indices (``0..42``), for reading count vectors.
#[pyfunction]
pub fn tile_names() -> Vec<String> {
    (0..42u8)
        .map(|i| Tile::new_unchecked(i).to_string())
        .collect()
}

/// The seats at a variant's table (the ``players`` switch where the preset has one), and raise
/// ``RuleConfigError`` unless the table plays the variant.
#[pyfunction]
pub fn table_seats(variant: &Bound<'_, PyAny>) -> BindResult<usize> {
    Ok(Compiled::new(variant_arg(variant)?)?.seats())
}

// ------------------------------------------------------------------------------------ Tables

/// ``N`` hands of one variant stepped together (vectorised environments): ``Tables(variant,
/// seeds, dealers=None)``. ``to_act()`` gives every table's seat to decide (-1: over),
/// ``legal_counts()`` the number of legal actions each, ``legal(i)`` table ``i``'s actions, and
/// ``step(choices)`` applies one choice per table in one core call (an index into its legal
/// actions; -1 leaves it as it is). The GIL is released while the tables step.
#[pyclass(module = "hupai._core", name = "Tables")]
pub struct PyTables {
    tables: Vec<Table>,
    legal: Vec<Vec<Action>>,
    pieces: Pieces,
}

impl PyTables {
    fn refresh(&mut self, i: usize) {
        let t = &self.tables[i];
        match t.to_act() {
            Some(s) => t.legal_into(s, &mut self.legal[i]),
            None => self.legal[i].clear(),
        }
    }
}

#[pymethods]
impl PyTables {
    #[new]
    #[pyo3(signature = (variant, seeds, dealers = None))]
    fn new(
        variant: &Bound<'_, PyAny>,
        seeds: Seq<AnyInt>,
        dealers: Option<Seq<AnyInt>>,
    ) -> BindResult<PyTables> {
        let c = Compiled::new(variant_arg(variant)?)?;
        let n = c.seats();
        let whole = |v: &AnyInt, what: &str| v.within(what, i64::MIN + 1, i64::MAX - 1, rule);
        let seeds: Vec<i64> = seeds
            .iter()
            .map(|s| whole(s, "seeds"))
            .collect::<BindResult<_>>()?;
        let dealers: Option<Vec<i64>> = dealers
            .map(|d| {
                d.iter()
                    .map(|x| whole(x, "dealers"))
                    .collect::<BindResult<_>>()
            })
            .transpose()?;
        if let Some(d) = &dealers
            && d.len() != seeds.len()
        {
            return Err(rule("dealers: one per seed"));
        }
        let mut tables = Vec::with_capacity(seeds.len());
        for (i, &s) in seeds.iter().enumerate() {
            let dealer = dealers
                .as_ref()
                .map_or(i % n, |d| d[i].rem_euclid(n as i64) as usize);
            tables.push(c.table(TableSetup {
                seed: i128::from(s),
                dealer,
                ..TableSetup::default()
            })?);
        }
        let mut me = PyTables {
            legal: vec![Vec::new(); tables.len()],
            tables,
            pieces: c.pieces(),
        };
        for i in 0..me.tables.len() {
            me.refresh(i);
        }
        Ok(me)
    }

    fn __len__(&self) -> usize {
        self.tables.len()
    }

    /// Every table's seat to decide (-1 when its hand is over).
    fn to_act(&self) -> Vec<i64> {
        self.tables
            .iter()
            .map(|t| t.to_act().map_or(-1, |s| s as i64))
            .collect()
    }

    /// The number of legal actions of every table's seat to decide.
    fn legal_counts(&self) -> Vec<usize> {
        self.legal.iter().map(Vec::len).collect()
    }

    /// Table ``i``'s legal actions.
    fn legal<'py>(&self, py: Python<'py>, i: AnyInt) -> BindResult<Bound<'py, PyList>> {
        let i: usize = i.within("i", 0, self.tables.len() as i64 - 1, rule)?;
        Ok(action_list(py, &self.legal[i], self.pieces)?)
    }

    /// Apply one choice per table (an index into its legal actions; -1: skip). Returns how many
    /// hands are over.
    fn step(&mut self, py: Python<'_>, choices: Seq<AnyInt>) -> BindResult<usize> {
        let choices: Vec<i64> = choices.iter().map(|c| c.0).collect();
        if choices.len() != self.tables.len() {
            return Err(illegal(format!(
                "step: {} choices for {} tables",
                choices.len(),
                self.tables.len()
            )));
        }
        for (i, &c) in choices.iter().enumerate() {
            if c >= 0 && c as usize >= self.legal[i].len() {
                return Err(illegal(format!(
                    "table {i}: choice {c} of {} legal actions",
                    self.legal[i].len()
                )));
            }
        }
        let PyTables { tables, legal, .. } = self;
        py.detach(|| -> Result<(), CoreError> {
            for (i, &c) in choices.iter().enumerate() {
                if c >= 0 {
                    let a = legal[i][c as usize].clone();
                    tables[i].apply(&a)?;
                    match tables[i].to_act() {
                        Some(s) => tables[i].legal_into(s, &mut legal[i]),
                        None => legal[i].clear(),
                    }
                }
            }
            Ok(())
        })?;
        Ok(self.tables.iter().filter(|t| t.is_done()).count())
    }

    /// Table ``i``'s result (``None`` while its hand goes on).
    fn result<'py>(&self, py: Python<'py>, i: AnyInt) -> BindResult<Bound<'py, PyAny>> {
        let i: usize = i.within("i", 0, self.tables.len() as i64 - 1, rule)?;
        Ok(match self.tables[i].result_json() {
            Some(r) => result_py(py, &r)?,
            None => py.None().into_bound(py),
        })
    }

    /// Table ``i``'s event log (JSON records).
    fn log<'py>(&self, py: Python<'py>, i: AnyInt) -> BindResult<Bound<'py, PyAny>> {
        let i: usize = i.within("i", 0, self.tables.len() as i64 - 1, rule)?;
        Ok(json_to_py(py, &Value::Array(self.tables[i].log_json()))?)
    }
}
