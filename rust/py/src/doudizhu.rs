//! 斗地主 bindings: `DoudizhuRules`, `DoudizhuGame` and the `ddz_*` functions re-exported by
//! `hupai.doudizhu`. Strings in, strings out (card notation `3456789TJQKA2xX`); readings are
//! `(type, main rank code, length)` tuples.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use hupai_core::error::Error as CoreError;
use hupai_core::preset::SwitchValue;
use hupai_core::rules::doudizhu::auction::{Auction, AuctionResult, Bid};
use hupai_core::rules::doudizhu::bots::{self, BotKind};
use hupai_core::rules::doudizhu::cards::{N_RANKS, U64Map};
use hupai_core::rules::doudizhu::game::{
    self, Action, Carry, Game, outcome_json, parse_reading_json,
};
use hupai_core::rules::doudizhu::rng::Rng;
use hupai_core::rules::doudizhu::rules::{self as ddz_rules, DdzRules};
use hupai_core::rules::doudizhu::settle::{DealRecord, settle};
use hupai_core::rules::doudizhu::{
    Cards, Reading, beating_reading, count_legal_moves, legal_moves_into, readings, space,
};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::convert::{AnyInt, json_to_py};
use crate::convert::{Seq, Text};
use crate::errors::{BindError, BindResult, hand_err};

static DEFAULT_RULES: LazyLock<Arc<DdzRules>> = LazyLock::new(|| Arc::new(DdzRules::qq()));

/// Compiled 斗地主 rules: a preset (``doudizhu_qq`` default, ``doudizhu_contest``), an optional rule
/// profile reproducing a peer (``rlcard``, ``douzero``, ``openspiel``, ``onestraw``, ``pagat``) and
/// switch overrides. Frozen; build once and pass as ``rules=``.
#[pyclass(
    frozen,
    skip_from_py_object,
    module = "hupai._core",
    name = "DoudizhuRules"
)]
#[derive(Clone)]
pub struct PyDdzRules {
    pub(crate) inner: Arc<DdzRules>,
    profile: Option<String>,
}

#[pymethods]
impl PyDdzRules {
    #[new]
    #[pyo3(signature = (variant = Text::from("doudizhu_qq"), *, profile = None, **switches))]
    fn new(
        variant: Text,
        profile: Option<Text>,
        switches: Option<&Bound<'_, PyDict>>,
    ) -> BindResult<Self> {
        let sw = crate::variant::overrides(switches)?;
        let inner = DdzRules::load_profile(&variant, profile.as_deref(), sw)?;
        Ok(Self {
            inner: Arc::new(inner),
            profile: profile.map(|p| p.0),
        })
    }
    /// The preset id.
    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }
    /// The rule profile, if any.
    #[getter]
    fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }
    /// Every switch with its resolved value.
    #[getter]
    fn switches<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.options.iter() {
            match v {
                SwitchValue::Bool(b) => d.set_item(k, *b)?,
                SwitchValue::Int(i) => d.set_item(k, *i)?,
                SwitchValue::Str(s) => d.set_item(k, s)?,
            }
        }
        Ok(d)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyDdzRules>()
            .is_ok_and(|o| *o.get().inner == *self.inner)
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.id.hash(&mut h);
        for (k, v) in self.inner.options.iter() {
            k.hash(&mut h);
            v.hash(&mut h);
        }
        h.finish()
    }
    fn __repr__(&self) -> String {
        let p = self
            .profile
            .as_ref()
            .map_or(String::new(), |p| format!(", profile={p:?}"));
        format!("DoudizhuRules({:?}{p})", self.inner.id)
    }
}

/// Preset ids compiled with their defaults, for ``rules="doudizhu_contest"``.
static BY_ID: LazyLock<Mutex<HashMap<String, Arc<DdzRules>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// ``rules=`` of the hot functions: a ``DoudizhuRules``, a preset id, or ``None`` (the default).
fn rules_any(rules: Option<&Bound<'_, PyAny>>) -> BindResult<Arc<DdzRules>> {
    let Some(r) = rules.filter(|r| !r.is_none()) else {
        return Ok(DEFAULT_RULES.clone());
    };
    if let Ok(r) = r.cast::<PyDdzRules>() {
        return Ok(r.get().inner.clone());
    }
    if let Ok(s) = r.cast::<PyString>() {
        let id = crate::convert::text(s, "variant")?;
        let mut map = BY_ID
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(x) = map.get(id) {
            return Ok(x.clone());
        }
        let x = Arc::new(DdzRules::load::<&str>(id, [])?);
        map.insert(id.to_string(), x.clone());
        return Ok(x);
    }
    Err(BindError::Py(pyo3::exceptions::PyTypeError::new_err(
        format!(
            "rules must be a doudizhu.Rules, a preset id or None, not {}",
            r.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ),
    )))
}

/// Python strings of moves, made once: a move space has at most ~34,000 moves, and most calls
/// return moves met before, so the list is built from new references instead of new strings.
static MOVE_STRS: LazyLock<Mutex<U64Map<Py<PyString>>>> = LazyLock::new(|| {
    Mutex::new(U64Map::with_capacity_and_hasher(
        1 << 15,
        Default::default(),
    ))
});

fn move_list<'py>(py: Python<'py>, moves: &[(Cards, Reading)]) -> PyResult<Bound<'py, PyList>> {
    let mut cache = MOVE_STRS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut s = [0u8; 64];
    PyList::new(
        py,
        moves.iter().map(|(c, _)| {
            cache
                .entry(c.0)
                .or_insert_with(|| {
                    let n = c.write_to(&mut s);
                    // Only ASCII card codes are written.
                    PyString::new(py, std::str::from_utf8(&s[..n]).unwrap_or("")).unbind()
                })
                .clone_ref(py)
        }),
    )
}

fn cards_arg(obj: &Bound<'_, PyAny>, what: &str) -> BindResult<Cards> {
    let s = obj.cast::<PyString>().map_err(|_| {
        BindError::Py(pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} must be a str of card codes like \"33445xX\", not {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        )))
    })?;
    Ok(Cards::parse(crate::convert::text(s, "cards")?)?)
}

fn hand_arg(obj: &Bound<'_, PyAny>) -> BindResult<Cards> {
    let h = cards_arg(obj, "hand")?;
    if h.len() > 20 {
        return Err(hand_err(format!(
            "a hand holds at most 20 cards, got {} ({h})",
            h.len()
        )));
    }
    Ok(h)
}

fn reading_py<'py>(py: Python<'py>, r: Reading) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(
        py,
        [
            PyString::new(py, r.kind.name()).into_any(),
            PyString::new(py, &r.main_code().to_string()).into_any(),
            r.len.into_pyobject(py)?.into_any(),
        ],
    )
}

fn reading_arg(obj: &Bound<'_, PyAny>) -> BindResult<Reading> {
    let v = py_to_json(obj)?;
    Ok(parse_reading_json(&v)?)
}

/// The reading of the move on the table: the declared one (checked to be a reading of
/// `last`), else its canonical reading.
fn target_of(
    last: Option<&Bound<'_, PyAny>>,
    last_reading: Option<&Bound<'_, PyAny>>,
    rules: &DdzRules,
) -> BindResult<Option<Reading>> {
    let Some(last) = last.filter(|l| !l.is_none()) else {
        if last_reading.is_some_and(|r| !r.is_none()) {
            return Err(hand_err("last_reading needs last (the cards on the table)"));
        }
        return Ok(None);
    };
    let cards = cards_arg(last, "last")?;
    if cards.is_empty() {
        return Ok(None);
    }
    let rs = readings(cards, &rules.moves);
    if rs.is_empty() {
        return Err(hand_err(format!(
            "last={cards} is not a move under these rules (no card type reads it)"
        )));
    }
    match last_reading.filter(|r| !r.is_none()) {
        None => Ok(rs.canonical()),
        Some(r) => {
            let r = reading_arg(r)?;
            if !rs.contains(r) {
                return Err(hand_err(format!(
                    "{cards} cannot be read as {r}; its readings: {}",
                    rs.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            Ok(Some(r))
        }
    }
}

/// Plain Python value → JSON through the one conversion layer (`crate::convert::to_json`).
pub(crate) fn py_to_json(obj: &Bound<'_, PyAny>) -> BindResult<Value> {
    crate::convert::to_json(obj, "")
}

// ---------------------------------------------------------------------------------------------
// Cards and moves

/// The canonical form of a card string (ascending rank order).
#[pyfunction]
#[pyo3(signature = (cards, /))]
pub fn ddz_parse(cards: &Bound<'_, PyAny>) -> BindResult<String> {
    Ok(cards_arg(cards, "cards")?.to_string())
}

/// Chinese names of the cards, e.g. ``"3 3 10 小王"``.
#[pyfunction]
#[pyo3(signature = (cards, /))]
pub fn ddz_chinese(cards: &Bound<'_, PyAny>) -> BindResult<String> {
    Ok(cards_arg(cards, "cards")?.chinese())
}

/// Counts per rank, ``(15,)`` uint8 (``3 … 2, x, X``).
#[pyfunction]
#[pyo3(signature = (cards, /))]
pub fn ddz_to_counts<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
) -> BindResult<Bound<'py, PyArray1<u8>>> {
    Ok(cards_arg(cards, "cards")?
        .counts()
        .to_vec()
        .into_pyarray(py))
}

/// Card string of 15 rank counts.
#[pyfunction]
#[pyo3(signature = (counts, /))]
pub fn ddz_from_counts(counts: crate::convert::Seq<AnyInt>) -> BindResult<String> {
    let mut c = Vec::with_capacity(counts.len());
    for (i, x) in counts.iter().enumerate() {
        c.push(x.within::<u8>(&format!("counts[{i}]"), 0, 4, hand_err)?);
    }
    Ok(Cards::from_counts(&c)?.to_string())
}

/// Every reading of a multiset, canonical order.
#[pyfunction]
#[pyo3(signature = (cards, /, *, rules = None))]
pub fn ddz_readings<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> BindResult<Vec<Bound<'py, PyTuple>>> {
    let r = rules_any(rules)?;
    let c = cards_arg(cards, "cards")?;
    Ok(readings(c, &r.moves)
        .iter()
        .map(|x| reading_py(py, x))
        .collect::<PyResult<_>>()?)
}

/// The canonical reading, or ``None`` when the cards are not a move.
#[pyfunction]
#[pyo3(signature = (cards, /, *, rules = None))]
pub fn ddz_classify<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> BindResult<Option<Bound<'py, PyTuple>>> {
    let r = rules_any(rules)?;
    let c = cards_arg(cards, "cards")?;
    Ok(readings(c, &r.moves)
        .canonical()
        .map(|x| reading_py(py, x))
        .transpose()?)
}

/// Whether ``a`` (any of its readings) beats ``b`` played as ``b_reading`` (default: canonical).
#[pyfunction]
#[pyo3(signature = (a, b, /, *, b_reading = None, rules = None))]
pub fn ddz_beats(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    b_reading: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> BindResult<bool> {
    let r = rules_any(rules)?;
    let a = cards_arg(a, "a")?;
    let t = target_of(Some(b), b_reading, &r)?
        .ok_or_else(|| hand_err("b must be a move (not empty)"))?;
    Ok(beating_reading(a, t, &r.moves).is_some())
}

thread_local! {
    static BUF: std::cell::RefCell<Vec<(Cards, Reading)>> = std::cell::RefCell::new(Vec::with_capacity(512));
}

/// The distinct legal plays of ``hand`` (pass not included): every lead when ``last`` is None,
/// else every play that beats ``last`` (read as ``last_reading``, default canonical). Pass is
/// legal exactly when ``last`` is given. ``rules``: a ``Rules``, a preset id or None.
///
/// >>> legal_moves("5556667778", "33344456")
/// ['55566677', '55566678', '55666777', '56667778']
#[pyfunction]
#[pyo3(signature = (hand, last = None, /, *, last_reading = None, rules = None))]
pub fn ddz_legal_moves<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    last: Option<&Bound<'py, PyAny>>,
    last_reading: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyList>> {
    let r = rules_any(rules)?;
    let h = hand_arg(hand)?;
    let t = target_of(last, last_reading, &r)?;
    BUF.with(|b| {
        let mut b = b.borrow_mut();
        legal_moves_into(h, &r.moves, t, &mut b);
        Ok(move_list(py, &b)?)
    })
}

/// Like ``legal_moves`` with the reading each play is made as: ``[(cards, reading), …]``.
#[pyfunction]
#[pyo3(signature = (hand, last = None, /, *, last_reading = None, rules = None))]
pub fn ddz_legal_plays<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    last: Option<&Bound<'py, PyAny>>,
    last_reading: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
) -> BindResult<Vec<(String, Bound<'py, PyTuple>)>> {
    let r = rules_any(rules)?;
    let h = hand_arg(hand)?;
    let t = target_of(last, last_reading, &r)?;
    let mut v = Vec::new();
    legal_moves_into(h, &r.moves, t, &mut v);
    Ok(v.iter()
        .map(|(c, x)| Ok((c.to_string(), reading_py(py, *x)?)))
        .collect::<PyResult<_>>()?)
}

/// The greedy bot's split of a hand into few moves: ``[(cards, reading), …]``.
#[pyfunction]
#[pyo3(signature = (hand, /, *, rules = None))]
pub fn ddz_split<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> BindResult<Vec<(String, Bound<'py, PyTuple>)>> {
    let r = rules_any(rules)?;
    let h = hand_arg(hand)?;
    Ok(bots::split(h, &r.moves)
        .iter()
        .map(|(c, x)| Ok((c.to_string(), reading_py(py, *x)?)))
        .collect::<PyResult<_>>()?)
}

// ---------------------------------------------------------------------------------------------
// Auction and settlement

/// Run an auction: ``actions`` in the case notation (``pass``, ``1``–``3``, ``call``, ``rob``)
/// from seat ``first``. Returns ``{"legal": True, "result": "landlord"|"redeal", "landlord",
/// "bid", "robs", "actors"}`` or ``{"legal": False, "error_at": i, "error": msg}``.
#[pyfunction]
#[pyo3(signature = (actions, /, *, first = AnyInt(0), rules = None))]
#[pyo3(text_signature = "(actions, /, *, first=0, rules=None)")]
pub fn ddz_auction<'py>(
    py: Python<'py>,
    actions: Seq<Text>,
    first: AnyInt,
    rules: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyAny>> {
    let r = rules_any(rules)?;
    let first: u8 = first.within("first", 0, 2, hand_err)?;
    let mut a = Auction::new(&r, first, [false; 3]);
    let mut actors = Vec::new();
    for (i, s) in actions.iter().enumerate() {
        let fail = |msg: String| json!({"legal": false, "error_at": i, "error": msg});
        let Some(seat) = a.to_act() else {
            return Ok(json_to_py(py, &fail("the auction is already over".into()))?);
        };
        let b = Bid::parse(s)?;
        if let Err(e) = a.step(b) {
            return Ok(json_to_py(py, &fail(e.to_string()))?);
        }
        actors.push(seat);
    }
    let v = match a.result() {
        None => json!({"legal": false, "error_at": actions.len(),
                       "error": format!("the auction is not over: seat {} acts next", a.to_act().unwrap_or(0))}),
        Some(AuctionResult::AllPass) => {
            json!({"legal": true, "result": "redeal", "actors": actors})
        }
        Some(AuctionResult::Landlord { seat, bid, robs }) => json!({
            "legal": true, "result": "landlord", "landlord": seat, "bid": bid, "robs": robs,
            "actors": actors,
        }),
    };
    Ok(json_to_py(py, &v)?)
}

/// Settle a finished deal (§8–§9). ``record`` keys: ``bid``, ``landlord_won``, ``bombs``,
/// ``rockets``, ``landlord_hands``, ``farmer_hands`` ([下家, 上家]), ``robs``, ``shown``.
#[pyfunction]
#[pyo3(signature = (record, /, *, rules = None))]
pub fn ddz_settle<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyAny>> {
    let r = rules_any(rules)?;
    let v = py_to_json(record)?;
    let obj = v
        .as_object()
        .ok_or_else(|| hand_err("record must be a dict"))?;
    const KEYS: &[&str] = &[
        "bid",
        "landlord_won",
        "bombs",
        "rockets",
        "landlord_hands",
        "farmer_hands",
        "robs",
        "shown",
    ];
    if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(hand_err(format!(
            "unknown record key {k:?}; keys: {}",
            KEYS.join(", ")
        )));
    }
    let int = |k: &str, lo: i64, hi: i64| -> BindResult<u32> {
        match obj.get(k) {
            None => Ok(0),
            Some(x) => x
                .as_i64()
                .filter(|v| (lo..=hi).contains(v))
                .map(|v| v as u32)
                .ok_or_else(|| hand_err(format!("record[{k:?}] must be an int in {lo}..={hi}"))),
        }
    };
    let fh = match obj.get("farmer_hands") {
        None => [0, 0],
        Some(Value::Array(a)) if a.len() == 2 => {
            let f = |x: &Value| {
                x.as_i64()
                    .filter(|v| (0..=20).contains(v))
                    .map(|v| v as u32)
                    .ok_or_else(|| hand_err("record[\"farmer_hands\"] holds two ints in 0..=20"))
            };
            [f(&a[0])?, f(&a[1])?]
        }
        Some(_) => {
            return Err(hand_err(
                "record[\"farmer_hands\"] is [下家 plays, 上家 plays]",
            ));
        }
    };
    let flag = |k: &str| -> BindResult<bool> {
        match obj.get(k) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(hand_err(format!("record[{k:?}] must be a bool"))),
        }
    };
    let rec = DealRecord {
        bid: int("bid", 1, 255)? as u8,
        landlord_won: flag("landlord_won")?,
        bombs: int("bombs", 0, 14)?,
        rockets: int("rockets", 0, 1)?,
        landlord_hands: int("landlord_hands", 0, 20)?,
        farmer_hands: fh,
        robs: int("robs", 0, 3)?,
        shown: flag("shown")?,
    };
    if !obj.contains_key("bid") {
        return Err(hand_err("record needs \"bid\" (底分, 1..3)"));
    }
    let s = settle(&r, &rec)?;
    let mut out = json!({
        "spring": s.spring.name(), "multiplier": s.multiplier, "unit": s.unit,
        "scores": {"landlord": s.scores[0], "farmer_down": s.scores[1], "farmer_up": s.scores[2]},
    });
    if let Some(c) = s.coin {
        out["coin"] =
            json!({"landlord": c[0], "farmer_down": c[1], "farmer_up": c[2], "system": c[3]});
    }
    Ok(json_to_py(py, &out)?)
}

// ---------------------------------------------------------------------------------------------
// The hand state machine

/// One 斗地主 hand: deal from a seed, auction, 明牌, play, settlement, 逃跑. Actions and events
/// are plain dicts (``{"type": "play", "cards": "3334"}``); see ``hupai.doudizhu.Game``.
#[pyclass(skip_from_py_object, module = "hupai._core", name = "DoudizhuGame")]
#[derive(Clone)]
pub struct PyDdzGame {
    inner: Game,
}

fn action_arg(obj: &Bound<'_, PyAny>) -> BindResult<Action> {
    let v = py_to_json(obj)?;
    Ok(Action::from_json(&v)?)
}

#[pymethods]
impl PyDdzGame {
    #[new]
    #[pyo3(signature = (*, rules = None, seed = AnyInt(0), first_bidder = AnyInt(0), last_winner = None))]
    #[pyo3(text_signature = "(*, rules=None, seed=0, first_bidder=0, last_winner=None)")]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        seed: AnyInt,
        first_bidder: AnyInt,
        last_winner: Option<AnyInt>,
    ) -> BindResult<Self> {
        let r = rules_any(rules)?;
        let seed = u64::try_from(seed.0)
            .map_err(|_| hand_err(format!("seed must be a non-negative int, got {}", seed.0)))?;
        let carry = Carry {
            first_bidder: first_bidder.within("first_bidder", 0, 2, hand_err)?,
            last_winner: last_winner
                .map(|w| w.within("last_winner", 0, 2, hand_err))
                .transpose()?,
        };
        Ok(Self {
            inner: Game::new(r, seed, carry),
        })
    }

    /// The seat to act, ``None`` when the hand is over.
    #[getter]
    fn to_act(&self) -> Option<u8> {
        self.inner.to_act()
    }
    /// ``auction``, ``show``, ``play`` or ``over``.
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.phase().name()
    }
    #[getter]
    fn landlord(&self) -> Option<u8> {
        self.inner.landlord()
    }
    /// 底分 (0 before a landlord).
    #[getter]
    fn bid(&self) -> u8 {
        self.inner.bid()
    }
    /// The current 倍数.
    #[getter]
    fn multiplier(&self) -> i64 {
        self.inner.multiplier()
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    /// Number of redeals so far.
    #[getter]
    fn deal_no(&self) -> u32 {
        self.inner.deal_no()
    }
    /// The rules.
    #[getter]
    fn rules(&self) -> PyDdzRules {
        PyDdzRules {
            inner: Arc::new(self.inner.rules().clone()),
            profile: None,
        }
    }
    /// A seat's cards (compact form).
    fn hand(&self, seat: AnyInt) -> BindResult<String> {
        let s: u8 = seat.within("seat", 0, 2, hand_err)?;
        Ok(self.inner.hand(s).to_string())
    }
    /// A seat's cards with suits (``["3s", "3h", …, "X"]``).
    fn hand_cards(&self, seat: AnyInt) -> BindResult<Vec<String>> {
        let s: u8 = seat.within("seat", 0, 2, hand_err)?;
        Ok(self
            .inner
            .hand_cards(s)
            .iter()
            .map(ToString::to_string)
            .collect())
    }
    /// The legal actions of ``seat`` (default: the seat to act), as action dicts.
    #[pyo3(signature = (seat = None))]
    fn legal_actions<'py>(
        &mut self,
        py: Python<'py>,
        seat: Option<AnyInt>,
    ) -> BindResult<Vec<Bound<'py, PyAny>>> {
        let s = match seat {
            Some(s) => s.within("seat", 0, 2, hand_err)?,
            None => match self.inner.to_act() {
                Some(s) => s,
                None => return Ok(Vec::new()),
            },
        };
        Ok(self
            .inner
            .legal_actions(s)
            .into_iter()
            .map(|a| json_to_py(py, &a.to_json()))
            .collect::<PyResult<_>>()?)
    }
    /// Apply the action (a dict) of the seat to act; returns the new events. An illegal action
    /// raises ``InvalidHandError`` and changes nothing.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> BindResult<Vec<Bound<'py, PyAny>>> {
        let a = action_arg(action)?;
        let n = self.inner.step(a)?;
        let ev = self.inner.events();
        Ok(ev[ev.len() - n..]
            .iter()
            .map(|e| json_to_py(py, &e.to_json()))
            .collect::<PyResult<_>>()?)
    }
    /// 逃跑: ``seat`` abandons the hand and pays the penalty.
    fn escape<'py>(&mut self, py: Python<'py>, seat: AnyInt) -> BindResult<Bound<'py, PyAny>> {
        let s: u8 = seat.within("seat", 0, 2, hand_err)?;
        self.inner.escape(s)?;
        let o = self
            .inner
            .outcome()
            .ok_or_else(|| hand_err("no outcome after an escape"))?;
        Ok(json_to_py(py, &outcome_json(o))?)
    }
    /// The action a built-in bot (``random`` or ``greedy``) would take now (``None`` when over).
    #[pyo3(signature = (bot = Text::from("greedy"), seed = AnyInt(0)))]
    #[pyo3(text_signature = "($self, bot='greedy', seed=0)")]
    fn bot_action<'py>(
        &mut self,
        py: Python<'py>,
        bot: Text,
        seed: AnyInt,
    ) -> BindResult<Option<Bound<'py, PyAny>>> {
        let kind = BotKind::parse(&bot)?;
        let mut rng = Rng::new(seed.0 as u64);
        Ok(bots::choose(kind, &mut self.inner, &mut rng)
            .map(|a| json_to_py(py, &a.to_json()))
            .transpose()?)
    }
    /// What ``seat`` may see (a dict).
    fn observation<'py>(&self, py: Python<'py>, seat: AnyInt) -> BindResult<Bound<'py, PyAny>> {
        let s: u8 = seat.within("seat", 0, 2, hand_err)?;
        Ok(json_to_py(py, &self.inner.observation(s))?)
    }
    /// The event log (list of dicts; enough to replay the hand).
    fn events<'py>(&self, py: Python<'py>) -> BindResult<Vec<Bound<'py, PyAny>>> {
        Ok(self
            .inner
            .events()
            .iter()
            .map(|e| json_to_py(py, &e.to_json()))
            .collect::<PyResult<_>>()?)
    }
    /// The settlement record once the hand is over (``None`` before).
    fn result<'py>(&self, py: Python<'py>) -> BindResult<Option<Bound<'py, PyAny>>> {
        Ok(self
            .inner
            .outcome()
            .map(|o| json_to_py(py, &outcome_json(o)))
            .transpose()?)
    }
    /// What the next hand needs: ``{"first_bidder": s, "last_winner": s | None}``.
    fn next_carry<'py>(&self, py: Python<'py>) -> BindResult<Bound<'py, PyAny>> {
        let c = self.inner.next_carry();
        Ok(json_to_py(
            py,
            &json!({"first_bidder": c.first_bidder, "last_winner": c.last_winner}),
        )?)
    }
    fn copy(&self) -> Self {
        self.clone()
    }
    fn __copy__(&self) -> Self {
        self.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "DoudizhuGame({:?}, phase={:?}, to_act={})",
            self.inner.rules().id,
            self.inner.phase().name(),
            self.inner
                .to_act()
                .map_or("None".to_string(), |s| s.to_string())
        )
    }
}

/// Rebuild a hand from its event log and check it (``InvalidHandError`` naming the first event
/// that differs).
#[pyfunction]
#[pyo3(signature = (events, /, *, rules = None))]
pub fn ddz_replay(
    events: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> BindResult<PyDdzGame> {
    let r = rules_any(rules)?;
    let v = py_to_json(events)?;
    let list = v
        .as_array()
        .ok_or_else(|| hand_err("events must be a list of event dicts"))?;
    Ok(PyDdzGame {
        inner: game::replay(r, list)?,
    })
}

// ---------------------------------------------------------------------------------------------
// Action spaces and batch functions

fn space_for(rules: &DdzRules, encoding: &str) -> BindResult<Arc<space::ActionSpace>> {
    match encoding {
        "hupai" => Ok(space::action_space(&rules.moves)),
        "rlcard" => {
            if rules.moves != space::rlcard_rules() {
                return Err(BindError::Core(CoreError::rule(
                    "the rlcard encoding exists only under the rlcard profile: DoudizhuRules(profile=\"rlcard\")",
                )));
            }
            Ok(space::rlcard_space_arc())
        }
        other => Err(BindError::Core(CoreError::rule(format!(
            "unknown action encoding {other:?}; encodings: hupai, rlcard"
        )))),
    }
}

/// Number of action ids (pass included) of an encoding (``hupai`` or ``rlcard``).
#[pyfunction]
#[pyo3(signature = (*, encoding = Text::from("hupai"), rules = None))]
pub fn ddz_action_space_size(
    encoding: Text,
    rules: Option<&Bound<'_, PyAny>>,
) -> BindResult<usize> {
    Ok(space_for(&*rules_any(rules)?, &encoding)?.len())
}

/// The action id of a move (``""`` or ``"pass"``: pass).
#[pyfunction]
#[pyo3(signature = (cards, /, *, encoding = Text::from("hupai"), rules = None))]
pub fn ddz_action_id(
    cards: &Bound<'_, PyAny>,
    encoding: Text,
    rules: Option<&Bound<'_, PyAny>>,
) -> BindResult<u32> {
    let r = rules_any(rules)?;
    let sp = space_for(&r, &encoding)?;
    let c = match cards.cast::<PyString>() {
        Ok(s) if crate::convert::text(s, "action")? == "pass" => Cards::EMPTY,
        _ => cards_arg(cards, "cards")?,
    };
    sp.id(c).ok_or_else(|| {
        hand_err(format!(
            "{c} is not a move under these rules (no action id)"
        ))
    })
}

/// The move of an action id (``None`` = pass).
#[pyfunction]
#[pyo3(signature = (action_id, /, *, encoding = Text::from("hupai"), rules = None))]
pub fn ddz_action_cards(
    action_id: AnyInt,
    encoding: Text,
    rules: Option<&Bound<'_, PyAny>>,
) -> BindResult<Option<String>> {
    let r = rules_any(rules)?;
    let sp = space_for(&r, &encoding)?;
    let id: u32 = action_id.within("action_id", 0, sp.len() as i64 - 1, hand_err)?;
    Ok(sp.get(id).and_then(|m| m.map(|(c, _)| c.to_string())))
}

/// Every move of an encoding in id order (``None`` = pass).
#[pyfunction]
#[pyo3(signature = (*, encoding = Text::from("hupai"), rules = None))]
pub fn ddz_action_space(
    encoding: Text,
    rules: Option<&Bound<'_, PyAny>>,
) -> BindResult<Vec<Option<String>>> {
    let sp = space_for(&*rules_any(rules)?, &encoding)?;
    Ok(sp.iter().map(|m| m.map(|(c, _)| c.to_string())).collect())
}

fn count_rows(arr: &Bound<'_, PyAny>, what: &str) -> BindResult<Vec<Cards>> {
    let a = arr.cast::<PyArray2<u8>>().map_err(|_| {
        hand_err(format!(
            "{what} must be a numpy uint8 array of shape (N, 15) (counts of 3 … 2, x, X)"
        ))
    })?;
    if a.shape()[1] != N_RANKS {
        return Err(hand_err(format!(
            "{what} must have shape (N, 15), got ({}, {})",
            a.shape()[0],
            a.shape()[1]
        )));
    }
    let ro = a.try_readonly().map_err(|e| hand_err(e.to_string()))?;
    let view = ro.as_array();
    let mut out = Vec::with_capacity(view.nrows());
    for (i, row) in view.rows().into_iter().enumerate() {
        let v: Vec<u8> = row.iter().copied().collect();
        let c = Cards::from_counts(&v).map_err(|e| hand_err(format!("{what} row {i}: {e}")))?;
        out.push(c);
    }
    Ok(out)
}

fn batch_inputs(
    hands: &Bound<'_, PyAny>,
    lasts: Option<&Bound<'_, PyAny>>,
    rules: &DdzRules,
) -> BindResult<Vec<(Cards, Option<Reading>)>> {
    let hs = count_rows(hands, "hands")?;
    let ls = match lasts.filter(|l| !l.is_none()) {
        Some(l) => count_rows(l, "lasts")?,
        None => vec![Cards::EMPTY; hs.len()],
    };
    if ls.len() != hs.len() {
        return Err(hand_err(format!(
            "hands has {} rows but lasts has {}",
            hs.len(),
            ls.len()
        )));
    }
    hs.into_iter()
        .zip(ls)
        .enumerate()
        .map(|(i, (h, l))| {
            if h.len() > 20 {
                return Err(hand_err(format!("hands row {i}: more than 20 cards")));
            }
            let t = if l.is_empty() {
                None
            } else {
                Some(readings(l, &rules.moves).canonical().ok_or_else(|| {
                    hand_err(format!(
                        "lasts row {i}: {l} is not a move under these rules"
                    ))
                })?)
            };
            Ok((h, t))
        })
        .collect()
}

/// Number of legal plays (pass excluded) per state: ``hands`` and ``lasts`` (the move on the
/// table, all zeros = a lead; read canonically) are ``(N, 15)`` uint8 counts. GIL released,
/// rows in parallel.
#[pyfunction]
#[pyo3(signature = (hands, lasts = None, /, *, rules = None))]
pub fn ddz_batch_legal_count<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    lasts: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyArray1<u32>>> {
    let r = rules_any(rules)?;
    let states = batch_inputs(hands, lasts, &r)?;
    let out: Vec<u32> = py.detach(|| {
        states
            .par_iter()
            .map_init(Vec::new, |scratch, &(h, t)| {
                count_legal_moves(h, &r.moves, t, scratch) as u32
            })
            .collect()
    });
    Ok(out.into_pyarray(py))
}

/// Legal-action masks ``(N, A)`` bool over an encoding's ids (``hupai``: pass = id 0;
/// ``rlcard``: pass = 27471), pass set when the state answers a move. GIL released.
#[pyfunction]
#[pyo3(signature = (hands, lasts = None, /, *, encoding = Text::from("hupai"), rules = None))]
pub fn ddz_batch_legal_mask<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    lasts: Option<&Bound<'py, PyAny>>,
    encoding: Text,
    rules: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyArray2<bool>>> {
    let r = rules_any(rules)?;
    let sp = space_for(&r, &encoding)?;
    let states = batch_inputs(hands, lasts, &r)?;
    let a = sp.len();
    let n = states.len();
    let flat: Result<Vec<bool>, CoreError> = py.detach(|| {
        let mut flat = vec![false; n * a];
        flat.par_chunks_mut(a.max(1))
            .zip(states.par_iter())
            .try_for_each_init(Vec::new, |buf, (row, &(h, t))| {
                legal_moves_into(h, &r.moves, t, buf);
                for (c, _) in buf.iter() {
                    let id = sp.id(*c).ok_or_else(|| {
                        CoreError::hand(format!("{c} has no id in this encoding"))
                    })?;
                    row[id as usize] = true;
                }
                if t.is_some() {
                    row[sp.pass_id() as usize] = true;
                }
                Ok(())
            })?;
        Ok(flat)
    });
    let arr = Array2::from_shape_vec((n, a), flat?)
        .map_err(|e| hand_err(format!("internal shape error: {e}")))?;
    Ok(arr.into_pyarray(py))
}

/// Names of the rule profiles of a preset.
#[pyfunction]
#[pyo3(signature = (variant = Text::from("doudizhu_qq")))]
pub fn ddz_profiles(variant: Text) -> BindResult<Vec<String>> {
    Ok(ddz_rules::profile_names(&variant)?)
}

/// The 斗地主 presets: ``[{"id", "name", "name_en", "description", "switches": [...]}]``.
#[pyfunction]
pub fn ddz_variants<'py>(py: Python<'py>) -> BindResult<Vec<Bound<'py, PyAny>>> {
    let mut out = Vec::new();
    for id in ddz_rules::preset_ids() {
        let p = ddz_rules::preset(id)?;
        let sw: Vec<Value> = p
            .switches
            .iter()
            .map(|s| {
                json!({"name": s.name, "description": s.description,
                       "default": serde_json::to_value(&s.default).unwrap_or(Value::Null),
                       "values": serde_json::to_value(&s.values).unwrap_or(Value::Null),
                       "min": s.min, "max": s.max})
            })
            .collect();
        let v = json!({"id": p.id, "name": p.name, "name_en": p.name_en,
                       "description": p.description, "players": p.players,
                       "source": p.source, "switches": sw,
                       "profiles": ddz_rules::profile_names(id)?});
        out.push(json_to_py(py, &v)?);
    }
    Ok(out)
}
