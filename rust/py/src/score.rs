//! Scoring entry points, the same for every preset: `Situation` (validated once), `Score` (the
//! core's one result type), `score` / `score_json` / `score_batch` (each a thin call into the
//! variant's ruleset, `hupai_core::rules::Ruleset`), `settle_hand` and `waiting_value`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use hupai_core::rules::{Case, CaseRef, Ruleset, mcr};
use hupai_core::scoring::score::Score;
use hupai_core::{Error as CoreError, Situation, Variant};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::convert::{Seq, Text};
use pyo3::Borrowed;
use pyo3::types::{PyDict, PyList, PyString};
use rayon::prelude::*;
use serde_json::{Map, Value, json};

use crate::convert::{AnyInt, json_to_py};
use crate::errors::{BindError, BindResult};
use crate::request::{self, variant_by_id};
use crate::settlement::PySettlement;
use crate::variant::PyVariant;

// ---------------------------------------------------------------------------------------------
// Python objects → JSON (the schema path)

/// Plain data → JSON through the one conversion layer (`crate::convert::to_json`).
pub fn py_to_json(obj: &Bound<'_, PyAny>, root: &str) -> BindResult<Value> {
    crate::convert::to_json(obj, root)
}

/// A situation from its case-schema JSON (strict: see `hupai_core::Situation::from_case`).
pub(crate) fn situation_from_value(v: &Value) -> Result<Situation, CoreError> {
    Situation::from_case(v)
}

// ---------------------------------------------------------------------------------------------
// Situation

/// The situation of a win, validated once (the fast path of ``score``).
///
/// ``Situation(concealed, win_tile, melds=(), *, self_drawn=False, fourth_tile=False,
/// about_kong=False, wall_last=False, seat_wind="E", prevalent_wind="E", flowers=0, **more)``
/// with the keys of the case schema (``shared/cases/README.md``); ``concealed`` is the standing
/// tiles before the winning tile (a string like ``"123m55p"`` or a list of codes) and each meld a
/// case-schema dict (``{"type": "pung", "tile": "E", "offer": 2}``) or a ``hupai.Meld``.
/// ``Situation.from_dict({"hand": ..., "situation": ...})`` and
/// ``Situation.parse("[EEE,2]123m...+9s", self_drawn=True)`` build the same object.
#[pyclass(
    frozen,
    skip_from_py_object,
    module = "hupai._core",
    name = "Situation"
)]
#[derive(Clone)]
pub struct PySituation {
    pub(crate) inner: Arc<Situation>,
    json: Arc<Value>,
}

fn tiles_json(obj: &Bound<'_, PyAny>, what: &str) -> BindResult<Value> {
    if let Ok(s) = obj.cast::<PyString>() {
        let tiles = hupai_core::parse_tiles(crate::convert::text(s, what)?)?;
        return Ok(Value::Array(
            tiles.iter().map(|t| Value::String(t.to_string())).collect(),
        ));
    }
    py_to_json(obj, what)
}

/// The case-schema ``hand`` object of a notation string with a winning tile
/// (``"[EEE,2]123m...+9s"`` → ``{"melds", "concealed", "win_tile"}``).
pub(crate) fn hand_value_of_notation(text: &str) -> Result<Value, CoreError> {
    let h = hupai_core::situation::HandInput::from_notation(text)?;
    serde_json::to_value(h).map_err(|e| CoreError::hand(e.to_string()))
}

impl PySituation {
    fn from_value(v: Value) -> BindResult<Self> {
        let s = situation_from_value(&v)?;
        Ok(Self {
            inner: Arc::new(s),
            json: Arc::new(v),
        })
    }
}

#[pymethods]
impl PySituation {
    #[new]
    #[pyo3(signature = (concealed, win_tile, melds=None, **flags))]
    fn new(
        concealed: &Bound<'_, PyAny>,
        win_tile: &Bound<'_, PyAny>,
        melds: Option<&Bound<'_, PyAny>>,
        flags: Option<&Bound<'_, PyDict>>,
    ) -> BindResult<Self> {
        let ms = match melds {
            Some(m) if !m.is_none() => py_to_json(m, "melds")?,
            _ => json!([]),
        };
        let situation = match flags {
            Some(f) => py_to_json(f.as_any(), "situation")?,
            None => json!({}),
        };
        let v = json!({
            "hand": {"melds": ms, "concealed": tiles_json(concealed, "concealed")?,
                     "win_tile": py_to_json(win_tile, "win_tile")?},
            "situation": situation,
        });
        Self::from_value(v)
    }

    /// Build from the case-schema dict ``{"hand": {...} | "notation+T", "situation": {...}}``;
    /// any other key is refused (a situation key beside ``hand`` says where it belongs).
    #[staticmethod]
    fn from_dict(d: &Bound<'_, PyAny>) -> BindResult<Self> {
        Self::from_value(crate::convert::json_arg(d, "")?)
    }

    /// Build from bracket notation ``"[EEE,1]123m456p78s99s+9s"`` (the winning tile after ``+``)
    /// plus situation keywords.
    #[staticmethod]
    #[pyo3(signature = (text, **flags))]
    fn parse(text: crate::convert::Text, flags: Option<&Bound<'_, PyDict>>) -> BindResult<Self> {
        let hand = hand_value_of_notation(&text)?;
        let situation = match flags {
            Some(f) => py_to_json(f.as_any(), "situation")?,
            None => json!({}),
        };
        Self::from_value(json!({"hand": hand, "situation": situation}))
    }

    /// The case-schema dict of this situation.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.json)
    }

    #[getter]
    fn win_tile(&self) -> String {
        self.inner.win_tile.to_string()
    }
    #[getter]
    fn self_drawn(&self) -> bool {
        self.inner.is_self_drawn()
    }
    #[getter]
    fn win_type(&self) -> &'static str {
        self.inner.win_type.name()
    }
    #[getter]
    fn seat_wind(&self) -> String {
        self.inner.seat_wind.to_string()
    }
    #[getter]
    fn prevalent_wind(&self) -> String {
        self.inner.prevalent_wind.to_string()
    }
    #[getter]
    fn flowers(&self) -> u8 {
        self.inner.flowers
    }
    /// The hand before the winning tile, e.g. ``[EEE,2]123m55p``.
    #[getter]
    fn hand(&self) -> String {
        self.inner.hand.to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "Situation('{}+{}', win_type='{}')",
            self.inner.hand,
            self.inner.win_tile,
            self.inner.win_type.name()
        )
    }
}

// ---------------------------------------------------------------------------------------------
// variants

pub(crate) fn variant_from_py(obj: Option<&Bound<'_, PyAny>>) -> BindResult<Arc<Variant>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(variant_by_id(request::DEFAULT_VARIANT)?);
    };
    if let Ok(v) = obj.cast::<PyVariant>() {
        return Ok(v.get().inner.clone());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(variant_by_id(crate::convert::text(s, "variant")?)?);
    }
    Err(BindError::Py(PyTypeError::new_err(
        "variant must be a preset id (str) or a hupai.Variant",
    )))
}

/// The variant with the switches of `options` (a dict) applied.
fn with_options(v: Arc<Variant>, options: Option<&Bound<'_, PyAny>>) -> BindResult<Arc<Variant>> {
    let Some(o) = options.filter(|o| !o.is_none()) else {
        return Ok(v);
    };
    let d = o.cast::<PyDict>().map_err(|_| {
        BindError::Py(PyTypeError::new_err(
            "options must be a dict {switch: value} (like the HTTP API's \"options\")",
        ))
    })?;
    if d.is_empty() {
        return Ok(v);
    }
    Ok(Arc::new(v.derive(crate::variant::overrides(Some(d))?)?))
}

// ---------------------------------------------------------------------------------------------
// results

/// One fan / pattern of a score: ``id``, ``zh``, ``en``, ``value`` (per occurrence, in the score's
/// unit, or the factor of a ``mul`` pattern), ``op`` (``add``, ``mul``, ``pow2``, ``base``,
/// ``fixed_limit``) and ``count``.
#[pyclass(frozen, eq, module = "hupai._core", name = "Fan")]
#[derive(PartialEq)]
pub struct PyFan {
    hit: hupai_core::scoring::score::FanHit,
}

#[pymethods]
impl PyFan {
    #[getter]
    fn id(&self) -> &str {
        self.hit.id()
    }
    #[getter]
    fn zh(&self) -> &str {
        self.hit.zh()
    }
    #[getter]
    fn en(&self) -> &str {
        self.hit.en()
    }
    #[getter]
    fn value(&self) -> i64 {
        self.hit.value()
    }
    #[getter]
    fn op(&self) -> String {
        serde_json::to_value(self.hit.op())
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    }
    #[getter]
    fn count(&self) -> u32 {
        self.hit.count()
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &serde_json::to_value(self.hit).unwrap_or(Value::Null))
    }
    fn __repr__(&self) -> String {
        format!(
            "Fan({} {} {}x{})",
            self.hit.id(),
            self.hit.zh(),
            self.hit.value(),
            self.hit.count()
        )
    }
}

/// The score of one win, the same for every preset: ``variant``, ``fans``, ``total`` (after the
/// preset's cap) and ``raw_total`` in ``unit`` (``fan``, ``multiplier``, ``point``, ``huxi``),
/// ``per_payer``, ``payments`` (who pays whom, seat indices), ``net`` per seat,
/// ``decomposition``, ``meets_minimum`` and ``extras`` (what only the preset has). ``to_dict()``
/// is the JSON shape of every entry point; ``settlement()`` books the payments in a ledger.
#[pyclass(frozen, module = "hupai._core", name = "Score")]
pub struct PyScore {
    /// Boxed: the object is made by moving its value in (PyO3 copies it on the way, and CPython
    /// clears the object's memory first), so a batch scores straight into the box and hands over
    /// a pointer instead of copying the few hundred bytes of a `Score` several times.
    pub(crate) score: Box<Score>,
}

impl PyScore {
    pub(crate) fn new(score: Score) -> Self {
        PyScore {
            score: Box::new(score),
        }
    }
    /// Score `case` straight into the box the object keeps (no copy of the `Score`).
    pub(crate) fn scored(rs: &dyn Ruleset, case: CaseRef<'_>) -> Result<Self, CoreError> {
        let mut b = Box::<Score>::new_uninit();
        rs.score_into(case, &mut b)?;
        // SAFETY: `score_into` wrote the score (it returned `Ok`).
        Ok(PyScore {
            score: unsafe { b.assume_init() },
        })
    }
}

#[pymethods]
impl PyScore {
    /// The preset id.
    #[getter]
    fn variant(&self) -> &'static str {
        self.score.variant
    }
    #[getter]
    fn fans(&self) -> Vec<PyFan> {
        self.score.fans.iter().map(|h| PyFan { hit: *h }).collect()
    }
    /// The hand's total after the preset's cap, in ``unit``.
    #[getter]
    fn total(&self) -> i64 {
        self.score.total
    }
    /// The total before the cap.
    #[getter]
    fn raw_total(&self) -> i64 {
        self.score.raw_total
    }
    /// ``"fan"`` (番), ``"multiplier"`` (倍), ``"point"`` (分) or ``"huxi"`` (胡息).
    #[getter]
    fn unit(&self) -> &'static str {
        self.score.unit.name()
    }
    #[getter]
    fn meets_minimum(&self) -> bool {
        self.score.meets_minimum
    }
    /// What one payer pays for the win itself.
    #[getter]
    fn per_payer(&self) -> i64 {
        self.score.per_payer
    }
    /// Seats at the table.
    #[getter]
    fn players(&self) -> u8 {
        self.score.players
    }
    /// ``[{"payer": seat, "payee": seat, "amount": n}]`` (zero-sum; seats are table indices).
    #[getter]
    fn payments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(
            py,
            &serde_json::to_value(&self.score.payments).unwrap_or(Value::Null),
        )
    }
    /// The net result per seat (sums to zero).
    #[getter]
    fn net(&self) -> Vec<i64> {
        self.score.net()
    }
    /// The decomposition used (the shape of ``hupai.decompose``), or ``None``.
    #[getter]
    fn decomposition<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.score.to_json_value()["decomposition"])
    }
    /// What only this preset has (胡息, 舵, 醒, 花, multipliers …; keys per preset in
    /// ``docs/presets.md``).
    #[getter]
    fn extras<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let m: Map<String, Value> = self
            .score
            .extras
            .iter()
            .map(|(k, v)| ((*k).to_string(), v.clone()))
            .collect();
        json_to_py(py, &Value::Object(m))
    }
    /// ``{fan id: count}``.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for f in &self.score.fans {
            d.set_item(f.id(), f.count())?;
        }
        Ok(d)
    }
    /// The JSON-ready dict of the score (one shape for every preset).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.score.to_json_value())
    }
    fn to_json(&self) -> String {
        self.score.to_json_value().to_string()
    }
    /// The payments booked as one ``WIN`` event of a ``Settlement`` between ``seats`` (default:
    /// the seat winds ``E``, ``S``, ``W``, ``N`` of the table's seats 0, 1, 2, 3).
    #[pyo3(signature = (seats=None))]
    fn settlement(&self, seats: Option<Seq<Text>>) -> BindResult<PySettlement> {
        let n = usize::from(self.score.players);
        let seats: Vec<String> = seats
            .map(|s| s.0.into_iter().map(|t| t.0).collect())
            .unwrap_or_else(|| {
                ["E", "S", "W", "N"]
                    .iter()
                    .take(n)
                    .map(|s| s.to_string())
                    .collect()
            });
        if seats.len() != n {
            return Err(CoreError::settlement(format!(
                "this score is between {n} seats; {} names given",
                seats.len()
            ))
            .into());
        }
        let mut ledger = hupai_core::scoring::ledger::Ledger::new(seats, Default::default())?;
        let lines: Vec<(usize, usize, i64)> = self
            .score
            .payments
            .iter()
            .map(|p| (usize::from(p.payer), usize::from(p.payee), p.amount))
            .collect();
        let winner = self.score.payments.first().map(|p| usize::from(p.payee));
        let reason = match winner {
            Some(w) => format!(
                "{} wins: {} {}",
                ledger.seats()[w],
                self.score.total,
                self.score.unit.name()
            ),
            None => "no payment".to_string(),
        };
        hupai_core::scoring::record::pay(&mut ledger, "WIN", &reason, &lines)?;
        Ok(PySettlement::from_settled(
            ledger,
            vec![(*self.score).clone()],
        ))
    }
    fn __repr__(&self) -> String {
        let fans: Vec<String> = self
            .score
            .fans
            .iter()
            .map(|f| {
                if f.count() > 1 {
                    format!("{}x{}", f.zh(), f.count())
                } else {
                    f.zh().to_string()
                }
            })
            .collect();
        format!(
            "Score({} {} total={} {} per_payer={})",
            self.score.variant,
            fans.join(" "),
            self.score.total,
            self.score.unit.name(),
            self.score.per_payer
        )
    }
}

/// The case of `situation` under `v`: a ``Situation`` (borrowed, no copy), a hand string (+
/// keyword flags), a case dict.
enum Input<'a> {
    Borrowed(&'a Situation),
    Parsed(Case),
}

impl Input<'_> {
    fn as_ref(&self) -> CaseRef<'_> {
        match self {
            Input::Borrowed(s) => CaseRef::Tiles(s),
            Input::Parsed(c) => c.as_ref(),
        }
    }
}

fn input_of<'a>(
    obj: &'a Bound<'_, PyAny>,
    v: &Variant,
    flags: Option<&Bound<'_, PyDict>>,
) -> BindResult<Input<'a>> {
    let flags = flags.filter(|f| !f.is_empty());
    if let Ok(s) = obj.cast::<PyString>() {
        let situation = match flags {
            Some(f) => py_to_json(f.as_any(), "situation")?,
            None => json!({}),
        };
        let case = json!({"hand": crate::convert::text(s, "hand")?, "situation": situation});
        return Ok(Input::Parsed(v.ruleset().parse_case(&case)?));
    }
    if let Some(f) = flags {
        let keys: Vec<String> = f.keys().iter().map(|k| k.to_string()).collect();
        return Err(BindError::Py(PyTypeError::new_err(format!(
            "keyword flags ({}) go with a hand string; a Situation or a case dict carries its own situation",
            keys.join(", ")
        ))));
    }
    if let Ok(s) = obj.cast::<PySituation>() {
        return Ok(Input::Borrowed(&s.get().inner));
    }
    if obj.cast::<PyDict>().is_ok() {
        let value = py_to_json(obj, "")?;
        return Ok(Input::Parsed(v.ruleset().parse_case(&value)?));
    }
    Err(BindError::Py(PyTypeError::new_err(
        "situation must be a hupai.Situation, a hand string (with keyword flags) or a case dict {'hand': ..., 'situation': ...}",
    )))
}

/// Score one win under any preset.
///
/// ``situation`` is a ``hupai.Situation`` (fastest), a hand string with the situation as keyword
/// flags (``hupai.score("[EEE,1]123m456p78s99s+9s", self_drawn=True)``, like the HTTP API's
/// ``hand`` + ``situation``), or a case dict ``{"hand": ..., "situation": {...}}`` (字牌: the
/// preset's own dict). ``variant`` is a preset id or a ``hupai.Variant`` (default ``"mcr"``);
/// ``options`` changes switches for this call (like the HTTP API's ``options``). Returns a
/// ``hupai.Score``.
#[pyfunction]
#[pyo3(signature = (situation, variant=None, *, options=None, **flags))]
pub fn score<'py>(
    py: Python<'py>,
    situation: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyAny>>,
    flags: Option<&Bound<'py, PyDict>>,
) -> BindResult<Bound<'py, PyScore>> {
    // a compiled Variant without options is borrowed (no reference counting on the hot path)
    let plain = options.is_none_or(|o| o.is_none());
    let compiled = variant
        .and_then(|o| o.cast::<PyVariant>().ok())
        .filter(|_| plain);
    let derived;
    let v: &Variant = match compiled {
        Some(pv) => &pv.get().inner,
        None => {
            derived = with_options(variant_from_py(variant)?, options)?;
            &derived
        }
    };
    let input = input_of(situation, v, flags)?;
    let sc = PyScore::scored(v.ruleset(), input.as_ref())?;
    Ok(Bound::new(py, sc)?)
}

// ---------------------------------------------------------------------------------------------
// the vectorcall entry of `score`

/// The PyO3 function `score` (the slow path of [`score_fast`]).
static SCORE_SLOW: OnceLock<Py<PyAny>> = OnceLock::new();

/// Replace the module's `score` with a `METH_FASTCALL | METH_KEYWORDS` entry point (same name,
/// text signature and docstring) that scores the common call shape, ``score(Situation,
/// Variant)`` (or ``score(Situation)`` / ``score(Situation, None)``, the default preset), itself
/// and hands every other call — keywords, other argument types, a situation the ruleset refuses —
/// to the PyO3 function unchanged, so errors, messages and results are exactly those of the PyO3
/// wrapper. It saves the argument tuple and dict that PyO3 builds for a function with
/// ``**flags``, and its keyword matching.
pub fn install(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    SCORE_SLOW.get_or_init(|| {
        m.getattr("score")
            .map(Bound::unbind)
            .unwrap_or_else(|_| py.None())
    });
    crate::fastcall::replace(m, c"score", score_fast)
}

/// The score of the common call shape as a new `Score` object, or `None` (the slow path decides:
/// any other call, or an error to report).
///
/// # Safety
/// `args` holds `nargs` positional arguments followed by one value per name in `kwnames` (a tuple
/// or NULL), as CPython passes them to a vectorcall function; the GIL is held.
unsafe fn score_common(
    py: Python<'_>,
    args: *const *mut pyo3::ffi::PyObject,
    nargsf: pyo3::ffi::Py_ssize_t,
    kwnames: *mut pyo3::ffi::PyObject,
) -> Option<*mut pyo3::ffi::PyObject> {
    // SAFETY (whole function): see the function's contract; the borrowed arguments outlive the
    // call.
    unsafe {
        if !kwnames.is_null() && pyo3::ffi::PyTuple_GET_SIZE(kwnames) != 0 {
            return None;
        }
        let nargs = pyo3::ffi::PyVectorcall_NARGS(nargsf as usize);
        if !(1..=2).contains(&nargs) {
            return None;
        }
        let situation = Borrowed::from_ptr(py, *args)
            .cast_exact::<PySituation>()
            .ok()?;
        let default_v;
        let v: &Variant = match nargs {
            2 if *args.add(1) != pyo3::ffi::Py_None() => {
                &Borrowed::from_ptr(py, *args.add(1))
                    .cast_exact::<PyVariant>()
                    .ok()?
                    .get()
                    .inner
            }
            _ => {
                default_v = variant_by_id(request::DEFAULT_VARIANT).ok()?;
                &default_v
            }
        };
        let sc = PyScore::scored(v.ruleset(), CaseRef::Tiles(&situation.get().inner)).ok()?;
        Some(Bound::new(py, sc).ok()?.into_ptr())
    }
}

/// The entry point of ``hupai._core.score``: the common call shape computed here, anything else
/// (and any error) by the PyO3 function. A panic (none is expected) also falls back to the PyO3
/// function, which reports it.
unsafe extern "C" fn score_fast(
    _module: *mut pyo3::ffi::PyObject,
    args: *const *mut pyo3::ffi::PyObject,
    nargsf: pyo3::ffi::Py_ssize_t,
    kwnames: *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject {
    // SAFETY: CPython calls this with the GIL held and vectorcall arguments.
    let py = unsafe { Python::assume_attached() };
    let Some(slow) = SCORE_SLOW.get() else {
        // SAFETY: sets an exception for the NULL return (install runs before any call).
        unsafe {
            pyo3::ffi::PyErr_SetString(
                pyo3::ffi::PyExc_SystemError,
                c"hupai._core not initialised".as_ptr(),
            );
        }
        return std::ptr::null_mut();
    };
    let fast = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: see `score_common`.
        unsafe { score_common(py, args, nargsf, kwnames) }
    }));
    match fast {
        Ok(Some(obj)) => obj,
        // SAFETY: the arguments are passed on as CPython gave them; a new reference (or NULL with
        // the exception set) is returned.
        _ => unsafe {
            pyo3::ffi::PyObject_Vectorcall(slow.as_ptr(), args, nargsf as usize, kwnames)
        },
    }
}

/// The JSON value of a dict / JSON text argument (`what` names it in a JSON error).
pub(crate) use crate::convert::json_arg;

/// Score one request ``{"variant", "options", "hand", "situation", "id"}`` (a dict or JSON text;
/// ``variant`` defaults to ``"mcr"``; other keys are refused) and return the score's JSON-ready
/// dict, with ``id`` echoed last: exactly the answer of ``POST /v1/score``.
#[pyfunction]
pub fn score_json<'py>(py: Python<'py>, case: &Bound<'py, PyAny>) -> BindResult<Bound<'py, PyAny>> {
    let v = json_arg(case, "case")?;
    let (sc, id) = request::score_request(v, None)?;
    let out = json_to_py(py, &sc.to_json_value())?;
    if let Some(id) = id {
        out.set_item("id", json_to_py(py, &id)?)?;
    }
    Ok(out)
}

/// The formal waits of the situation's 13-tile hand before the winning tile (mcr.md §9).
#[pyfunction]
pub fn mcr_waits(situation: &Bound<'_, PyAny>) -> BindResult<Vec<String>> {
    let s = if let Ok(s) = situation.cast::<PySituation>() {
        s.get().inner.clone()
    } else {
        Arc::new(situation_from_value(&json_arg(situation, "")?)?)
    };
    Ok(mcr::formal_waits_of(&s)
        .iter()
        .map(ToString::to_string)
        .collect())
}

/// Settle one hand record (a dict or JSON text) under ``variant``: ``{"seats", "dealer",
/// "events", "seat_data", "table"}`` (``presets/README.md``) → a ``Settlement`` with the ledger's
/// events and balances and the ``scores`` of the wins.
#[pyfunction]
#[pyo3(signature = (record, variant))]
pub fn settle_hand(
    record: &Bound<'_, PyAny>,
    variant: &Bound<'_, PyAny>,
) -> BindResult<PySettlement> {
    let v = variant_from_py(Some(variant))?;
    let value = json_arg(record, "hand record")?;
    let s = v.ruleset().settle(&value)?;
    Ok(PySettlement::from_settled(s.ledger, s.scores))
}

/// The value of a waiting hand over its winning tiles (查大叫) under ``variant``, in the preset's
/// own shape (四川: ``huazhu``, ``ready``, ``waits``, ``best``, ``best_situational``, ``da_jiao``;
/// 卡五星: ``ready``, ``tile``, ``value``). ``hand``: a ``Hand``, notation, or ``{"melds",
/// "concealed"}`` (13 tiles, kongs as 3); ``flags``: the preset's (``void_suit``, ``liangdao``).
#[pyfunction]
#[pyo3(signature = (hand, variant, **flags))]
pub fn waiting_value<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    variant: &Bound<'py, PyAny>,
    flags: Option<&Bound<'py, PyDict>>,
) -> BindResult<Bound<'py, PyAny>> {
    use hupai_core::situation::KongKind;
    let v = variant_from_py(Some(variant))?;
    let (h, kinds): (hupai_core::Hand, Vec<Option<KongKind>>) = if hand.cast::<PyDict>().is_ok() {
        hupai_core::rules::sichuan::waiting_hand_from_json(&py_to_json(hand, "hand")?.to_string())?
    } else {
        let h = if let Ok(ph) = hand.cast::<crate::hand::PyHand>() {
            ph.get().inner.clone()
        } else {
            crate::hand::hand_from_py(hand)?
        };
        let kinds = h
            .melds()
            .iter()
            .map(|m| (m.is_kong() && m.concealed).then_some(KongKind::Concealed))
            .collect();
        (h, kinds)
    };
    let flags = match flags {
        Some(f) => match py_to_json(f.as_any(), "flags")? {
            Value::Object(m) => m,
            _ => Map::new(),
        },
        None => Map::new(),
    };
    Ok(json_to_py(
        py,
        &v.ruleset().waiting_value(&h, &kinds, &flags)?,
    )?)
}

// ---------------------------------------------------------------------------------------------
// batch

/// The exception name of a core error (`hupai.InvalidHandError` …), as batch error objects say it.
fn error_kind(e: &CoreError) -> &'static str {
    match e {
        CoreError::InvalidTile { .. } => "InvalidTileError",
        CoreError::InvalidHand(_) => "InvalidHandError",
        CoreError::RuleConfig(_) => "RuleConfigError",
        CoreError::Settlement(_) => "SettlementError",
        CoreError::IllegalAction(_) => "IllegalActionError",
        CoreError::Replay(_) => "ReplayError",
    }
}

fn error_dict<'py>(py: Python<'py>, e: &CoreError) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    d.set_item("error", error_kind(e))?;
    d.set_item("message", e.to_string())?;
    Ok(d.into_any())
}

/// One batch item after the Python copy: a validated situation, a request to parse (a JSON line
/// is copied as it is, a dict as JSON text: both are parsed without the GIL), or the error of
/// copying it.
enum Pending {
    Situation(Arc<Situation>),
    Text(String),
    Bytes(Vec<u8>),
    Err(CoreError),
}

/// Items scored per release of the GIL when a batch runs on one thread.
const SEQUENTIAL_CHUNK: usize = 256;

/// Batches shorter than this run without the pipeline (its start-up would cost more than the
/// overlap gains).
const PIPELINE_MIN: usize = 256;

fn pool(threads: Option<usize>) -> Result<Option<Arc<rayon::ThreadPool>>, CoreError> {
    let Some(n) = threads else { return Ok(None) };
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(p) = pools.get(&n) {
        return Ok(Some(p.clone()));
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map_err(|e| CoreError::rule(format!("thread pool: {e}")))?,
    );
    pools.insert(n, p.clone());
    Ok(Some(p))
}

/// Score many wins in parallel (GIL released, rayon), results in input order. Each item is a
/// ``Situation``, a request dict ``{"variant"?, "options"?, "hand", "situation", "id"?}`` (the
/// batch's ``variant`` when it names none) or its JSON text; a bad item yields ``{"error":
/// <exception name>, "message": ...}`` instead of a ``Score``.
#[pyfunction]
#[pyo3(signature = (items, variant=None, threads=None))]
pub fn score_batch<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
    threads: Option<AnyInt>,
) -> BindResult<Bound<'py, PyList>> {
    let default_v = variant_from_py(variant)?;
    // each score is written into the box its result object then takes over (no copy)
    let score = |p: Pending| -> Result<PyScore, CoreError> {
        let r = match p {
            Pending::Situation(s) => {
                return PyScore::scored(default_v.ruleset(), CaseRef::Tiles(&s));
            }
            Pending::Text(t) => request::parse_text(&t, "case", Some(&default_v))?,
            Pending::Bytes(b) => request::parse_text(
                std::str::from_utf8(&b).map_err(|e| CoreError::hand(format!("case: {e}")))?,
                "case",
                Some(&default_v),
            )?,
            Pending::Err(e) => return Err(e),
        };
        PyScore::scored(r.variant.ruleset(), r.case.as_ref())
    };
    let out = PyList::empty(py);
    let push = |r: Result<PyScore, CoreError>| -> PyResult<()> {
        match r {
            Ok(sc) => out.append(Bound::new(py, sc)?),
            Err(e) => out.append(error_dict(py, &e)?),
        }
    };
    run_items(py, items, threads, score, push)?;
    Ok(out)
}

/// Score JSON lines into JSON lines (the CLI's ``score --jsonl``): each item is one request's JSON
/// text, its answer the score's JSON (``Score.to_json()``) or ``{"error": <exception name>,
/// "message": ...}``, with the request's ``id`` first when it has one (also for an error, when the
/// line has an ``id`` at all). Parsing, scoring and writing run without the GIL, in parallel as in
/// ``score_batch``. Returns the answers and the indices of the lines that failed.
#[pyfunction]
#[pyo3(signature = (lines, variant=None, threads=None))]
pub fn score_jsonl<'py>(
    py: Python<'py>,
    lines: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
    threads: Option<AnyInt>,
) -> BindResult<(Bound<'py, PyList>, Vec<usize>)> {
    let default_v = variant_from_py(variant)?;
    let answer = |p: Pending| -> (String, bool) {
        let text = match &p {
            Pending::Text(t) => t.as_str(),
            Pending::Err(e) => return (answer_line(&Err(e.clone()), None), false),
            Pending::Situation(_) | Pending::Bytes(_) => {
                let e = CoreError::hand("score_jsonl takes JSON text lines (str)");
                return (answer_line(&Err(e), None), false);
            }
        };
        match request::parse_text(text, "case", Some(&default_v)) {
            Ok(r) => {
                let res = r.variant.ruleset().score(r.case.as_ref());
                (answer_line(&res, r.id.as_ref()), res.is_ok())
            }
            Err(e) => (answer_line(&Err(e), request::id_of(text).as_ref()), false),
        }
    };
    let out = PyList::empty(py);
    let mut failed = Vec::new();
    let mut i = 0usize;
    let push = |(line, ok): (String, bool)| -> PyResult<()> {
        if !ok {
            failed.push(i);
        }
        i += 1;
        out.append(PyString::new(py, &line))
    };
    run_items(py, lines, threads, answer, push)?;
    Ok((out, failed))
}

/// One answer of [`score_jsonl`]: the score's JSON or the error object, `id` first.
fn answer_line(r: &Result<Score, CoreError>, id: Option<&Value>) -> String {
    let mut buf = Vec::with_capacity(1024);
    if let Some(id) = id {
        buf.extend_from_slice(b"{\"id\":");
        // a JSON value and a score always serialise (string keys, finite numbers)
        serde_json::to_writer(&mut buf, id).expect("a JSON value serialises");
        buf.push(b',');
    } else {
        buf.push(b'{');
    }
    let body = match r {
        Ok(sc) => serde_json::to_vec(sc).expect("a score serialises"),
        Err(e) => serde_json::to_vec(&json!({"error": error_kind(e), "message": e.to_string()}))
            .expect("a JSON value serialises"),
    };
    // the object's members without its opening brace
    buf.extend_from_slice(&body[1..]);
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

/// The batch runner of [`score_batch`] and [`score_jsonl`]: reads each item out of Python (GIL
/// held), maps it with `work` without the GIL (in parallel with more than one thread) and hands
/// the outputs to `push` in input order (GIL held).
fn run_items<'py, O: Send>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    threads: Option<AnyInt>,
    work: impl Fn(Pending) -> O + Sync,
    mut push: impl FnMut(O) -> PyResult<()>,
) -> BindResult<()> {
    let threads: Option<usize> = threads
        .map(|t| t.within("threads", 1, 1024, |m| CoreError::rule(m).into()))
        .transpose()?;
    let n = if items.hasattr("__len__")? {
        crate::convert::bounded_len(items, crate::convert::MAX_ITEMS, "items")?
    } else {
        0
    };
    // Under the GIL only the Python → JSON copy of each item and the result objects; parsing
    // the request and scoring run without it. With one thread the three steps run one after the
    // other; with more the caller's thread reads items and builds results while `threads`
    // workers score (`pipeline`), so the Python steps do not cap the gain.
    let read = |item: Bound<'py, PyAny>| -> Pending {
        if let Ok(s) = item.cast::<PySituation>() {
            return Pending::Situation(s.get().inner.clone());
        }
        let copied = match item.cast::<PyString>() {
            Ok(s) => crate::convert::text(s, "case").map(|t| Pending::Text(t.to_owned())),
            Err(_) => crate::convert::to_json_text(&item, "case").map(Pending::Bytes),
        };
        match copied {
            Ok(p) => p,
            Err(BindError::Core(c)) => Pending::Err(c),
            Err(BindError::Py(p)) => Pending::Err(CoreError::hand(p.to_string())),
        }
    };
    let too_many = || {
        BindError::from(CoreError::hand(format!(
            "items: more than the {} accepted in one batch",
            crate::convert::MAX_ITEMS
        )))
    };
    let mut it = items.try_iter()?;
    if threads == Some(1) || (threads.is_none() && rayon::current_num_threads() <= 1) {
        // One thread: the calling thread scores, a chunk at a time with the GIL released, into one
        // buffer reused for every chunk (no thread pool, no per-item allocation besides the
        // result objects).
        let mut pending: Vec<Pending> = Vec::with_capacity(SEQUENTIAL_CHUNK.min(n.max(1)));
        let mut done: Vec<O> = Vec::with_capacity(pending.capacity());
        let mut seen = 0usize;
        loop {
            for item in it.by_ref().take(SEQUENTIAL_CHUNK) {
                seen += 1;
                if seen > crate::convert::MAX_ITEMS {
                    return Err(too_many());
                }
                pending.push(read(item?));
            }
            if pending.is_empty() {
                return Ok(());
            }
            py.detach(|| done.extend(pending.drain(..).map(&work)));
            done.drain(..).try_for_each(&mut push)?;
        }
    }
    let pool = pool(threads)?;
    let workers = threads.unwrap_or_else(|| {
        pool.as_ref()
            .map_or_else(rayon::current_num_threads, |p| p.current_num_threads())
    });
    if workers <= 1 || (n > 0 && n < PIPELINE_MIN) {
        let mut parsed: Vec<Pending> = Vec::with_capacity(n);
        for item in &mut it {
            if parsed.len() >= crate::convert::MAX_ITEMS {
                return Err(too_many());
            }
            parsed.push(read(item?));
        }
        let all = || -> Vec<O> { parsed.into_par_iter().map(&work).collect() };
        let results = py.detach(|| match &pool {
            Some(p) => p.install(all),
            None => all(),
        });
        results.into_iter().try_for_each(&mut push)?;
        return Ok(());
    }
    let mut seen = 0usize;
    let mut over = false;
    let produce = || -> PyResult<Option<Pending>> {
        match it.next() {
            None => Ok(None),
            Some(item) => {
                seen += 1;
                if seen > crate::convert::MAX_ITEMS {
                    over = true;
                    return Ok(None);
                }
                Ok(Some(read(item?)))
            }
        }
    };
    crate::pipeline::run(py, workers, pool.as_deref(), produce, work, push)?;
    if over {
        return Err(too_many());
    }
    Ok(())
}
