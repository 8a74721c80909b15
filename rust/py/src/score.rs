//! Scoring entry points: `Situation` (validated once), `score` / `score_json` dispatching on the
//! variant's compiled rules, the MCR result object and settlement, and the parallel batch scorer.
//!
//! Dispatch lives in [`score_core`]: one `match variant.rules()` arm per preset with a scorer; a
//! variant without one raises `RuleConfigError`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use hupai_core::rules::mcr::{self, McrScore, ids::FAN_IDS};
use hupai_core::situation::SituationInput;
use hupai_core::variant::Rules;
use hupai_core::{Error as CoreError, Situation, Tile, Variant};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::convert::{AnyInt, json_to_py};
use crate::errors::{BindError, BindResult};
use crate::variant::PyVariant;

// ---------------------------------------------------------------------------------------------
// Python objects → JSON (the schema path)

pub fn py_to_json(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.cast::<PyInt>().is_ok() {
        let i: i64 = obj.extract().map_err(|_| {
            crate::errors::InvalidHandError::new_err(format!(
                "integer {} is out of range",
                obj.str().map(|s| s.to_string()).unwrap_or_default()
            ))
        })?;
        return Ok(json!(i));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Ok(json!(f.value()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_string()));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut m = Map::new();
        for (k, v) in d.iter() {
            let key = k.extract::<String>()?;
            let val = py_to_json(&v).map_err(|e| {
                if e.is_instance_of::<crate::errors::InvalidHandError>(obj.py()) {
                    crate::errors::InvalidHandError::new_err(format!(
                        "{key}: {}",
                        e.value(obj.py())
                    ))
                } else {
                    e
                }
            })?;
            m.insert(key, val);
        }
        return Ok(Value::Object(m));
    }
    if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        let mut a = Vec::new();
        for x in obj.try_iter()? {
            a.push(py_to_json(&x?)?);
        }
        return Ok(Value::Array(a));
    }
    // Tiles and other objects with a textual form (e.g. hupai.Tile) become their str().
    Ok(Value::String(obj.str()?.to_str()?.to_string()))
}

pub(crate) fn situation_from_value(v: Value) -> Result<Situation, CoreError> {
    let input = SituationInput::deserialize(&v).map_err(|e| {
        // Name the offending situation key (serde does not say which field held a bad value).
        let bad = v.get("situation").and_then(Value::as_object).and_then(|o| {
            o.iter().find_map(|(k, x)| {
                let one = Value::Object(Map::from_iter([(k.clone(), x.clone())]));
                serde_json::from_value::<hupai_core::situation::FlagsInput>(one)
                    .err()
                    .map(|e| format!("situation.{k}: {e}"))
            })
        });
        CoreError::hand(bad.unwrap_or_else(|| format!("situation JSON: {e}")))
    })?;
    Situation::from_input(&input)
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

fn meld_to_json(m: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Ok(pm) = m.cast::<crate::hand::PyMeld>() {
        let meld = pm.get().inner;
        let tiles: Vec<Value> = meld
            .tiles()
            .iter()
            .map(|t| Value::String(t.to_string()))
            .collect();
        return Ok(json!({
            "type": meld.kind.name(),
            "tiles": tiles,
            "offer": meld.from,
            "concealed": meld.concealed,
        }));
    }
    py_to_json(m)
}

fn tiles_json(obj: &Bound<'_, PyAny>) -> BindResult<Value> {
    if let Ok(s) = obj.cast::<PyString>() {
        let tiles = hupai_core::parse_tiles(s.to_str()?)?;
        return Ok(Value::Array(
            tiles.iter().map(|t| Value::String(t.to_string())).collect(),
        ));
    }
    Ok(py_to_json(obj)?)
}

/// The case-schema ``hand`` object of a notation string with a winning tile
/// (``"[EEE,2]123m...+9s"`` → ``{"melds", "concealed", "win_tile"}``).
pub(crate) fn hand_value_of_notation(text: &str) -> Result<Value, CoreError> {
    let (standing, melds, win) = hupai_core::parse_notation(text)?;
    let Some(win) = win else {
        return Err(CoreError::hand(format!(
            "{text:?}: the winning tile must follow '+', e.g. \"123m456p789s1122z+1z\""
        )));
    };
    let ms: Vec<Value> = melds
        .iter()
        .map(|m| {
            json!({"type": m.kind.name(),
                   "tiles": m.tiles().iter().map(|t| t.to_string()).collect::<Vec<_>>(),
                   "offer": m.from, "concealed": m.concealed})
        })
        .collect();
    Ok(json!({"melds": ms,
              "concealed": standing.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
              "win_tile": win.to_string()}))
}

impl PySituation {
    fn from_value(v: Value) -> BindResult<Self> {
        let s = situation_from_value(v.clone())?;
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
        let mut ms = Vec::new();
        if let Some(melds) = melds {
            for m in melds.try_iter()? {
                ms.push(meld_to_json(&m?)?);
            }
        }
        let situation = match flags {
            Some(f) => py_to_json(f.as_any())?,
            None => json!({}),
        };
        let v = json!({
            "hand": {"melds": ms, "concealed": tiles_json(concealed)?,
                     "win_tile": py_to_json(&win_tile.str()?.into_any())?},
            "situation": situation,
        });
        Self::from_value(v)
    }

    /// Build from the case-schema dict ``{"hand": {...}, "situation": {...}}`` (other keys of a
    /// case line, such as ``id`` or ``expected``, are ignored).
    #[staticmethod]
    fn from_dict(d: &Bound<'_, PyAny>) -> BindResult<Self> {
        let v = py_to_json(d)?;
        Self::from_value(case_core(&v)?)
    }

    /// Build from bracket notation ``"[EEE,1]123m456p78s99s+9s"`` (the winning tile after ``+``)
    /// plus situation keywords.
    #[staticmethod]
    #[pyo3(signature = (text, **flags))]
    fn parse(text: &str, flags: Option<&Bound<'_, PyDict>>) -> BindResult<Self> {
        let hand = hand_value_of_notation(text)?;
        let situation = match flags {
            Some(f) => py_to_json(f.as_any())?,
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

/// `{"hand", "situation"}` of a case line (other keys dropped).
fn case_core(v: &Value) -> Result<Value, CoreError> {
    let Value::Object(o) = v else {
        return Err(CoreError::hand(
            "a situation dict needs the keys 'hand' and 'situation'",
        ));
    };
    let hand = o
        .get("hand")
        .ok_or_else(|| CoreError::hand("situation dict: missing key 'hand'"))?;
    let mut out = Map::new();
    out.insert("hand".into(), hand.clone());
    out.insert(
        "situation".into(),
        o.get("situation").cloned().unwrap_or_else(|| json!({})),
    );
    Ok(Value::Object(out))
}

// ---------------------------------------------------------------------------------------------
// variants: string lookups cached

fn variant_cache() -> &'static Mutex<HashMap<String, Arc<Variant>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Variant>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

pub fn variant_by_id(id: &str) -> Result<Arc<Variant>, CoreError> {
    let mut cache = variant_cache()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(v) = cache.get(id) {
        return Ok(v.clone());
    }
    let v = Arc::new(Variant::load(id)?);
    cache.insert(id.to_string(), v.clone());
    Ok(v)
}

pub(crate) fn variant_from_py(obj: Option<&Bound<'_, PyAny>>) -> BindResult<Arc<Variant>> {
    let Some(obj) = obj else {
        return Ok(variant_by_id("mcr")?);
    };
    if let Ok(v) = obj.cast::<PyVariant>() {
        return Ok(v.get().inner.clone());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(variant_by_id(s.to_str()?)?);
    }
    Err(BindError::Py(PyTypeError::new_err(
        "variant must be a preset id (str) or a hupai.Variant",
    )))
}

// ---------------------------------------------------------------------------------------------
// results

/// The score of one win (today: an MCR score; other presets add their own result kinds).
pub enum CoreScore {
    Mcr(McrScore),
}

/// Score a validated situation under a compiled variant: the dispatch on the preset's rules.
pub fn score_core(s: &Situation, v: &Variant) -> Result<CoreScore, CoreError> {
    match v.rules() {
        Rules::Mcr(r) => Ok(CoreScore::Mcr(mcr::score(s, r)?)),
        _ => Err(CoreError::rule(format!(
            "variant {:?} has no scorer yet",
            v.id()
        ))),
    }
}

fn mcr_rules(v: &Variant) -> &mcr::McrRules {
    match v.rules() {
        Rules::Mcr(r) => r,
        _ => unreachable!("an MCR score always comes from MCR rules"),
    }
}

/// A tile serialised as its canonical name (no intermediate `String` when writing JSON text).
#[derive(Clone, Copy)]
struct TileName(Tile);

impl Serialize for TileName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// The JSON result of an MCR score (`Score.to_dict()`, `score_json`, the service). Fields are in
/// alphabetical order, the order of a `serde_json::Map`, so writing this struct directly gives the
/// same text as writing its `Value`.
#[derive(Serialize)]
pub(crate) struct McrResult<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    decomposition: Option<McrDecomposition>,
    fans: Vec<McrFan<'a>>,
    meets_minimum: bool,
    total: i32,
    total_without_flowers: i32,
    variant: &'a str,
}

#[derive(Serialize)]
struct McrFan<'a> {
    count: u8,
    en: &'a str,
    id: &'a str,
    points: i32,
    zh: &'a str,
}

#[derive(Serialize)]
struct McrDecomposition {
    form: &'static str,
    knitted: Option<Vec<TileName>>,
    pair: Option<TileName>,
    pairs: Vec<TileName>,
    sets: Vec<McrSet>,
}

#[derive(Serialize)]
struct McrSet {
    concealed: bool,
    declared: bool,
    tiles: Vec<TileName>,
    #[serde(rename = "type")]
    kind: &'static str,
}

fn set_out(s: &mcr::ScoredSet) -> McrSet {
    let t = s.tile.index();
    let tiles: Vec<TileName> = match s.kind {
        hupai_core::MeldKind::Chow => (t..t + 3)
            .map(|i| TileName(Tile::new_unchecked(i)))
            .collect(),
        hupai_core::MeldKind::Pung => vec![TileName(s.tile); 3],
        hupai_core::MeldKind::Kong => vec![TileName(s.tile); 4],
    };
    McrSet {
        concealed: s.concealed,
        declared: s.declared,
        tiles,
        kind: s.kind.name(),
    }
}

fn wind_name(seat: u8) -> &'static str {
    ["E", "S", "W", "N"][seat as usize & 3]
}

fn seat_from(text: &str, winner: u8, what: &str) -> Result<u8, CoreError> {
    let rel = |k: u8| (winner + k) % 4;
    match text {
        "E" | "east" => Ok(0),
        "S" | "south" => Ok(1),
        "W" | "west" => Ok(2),
        "N" | "north" => Ok(3),
        "right" => Ok(rel(1)),
        "across" => Ok(rel(2)),
        "left" => Ok(rel(3)),
        other => Err(CoreError::hand(format!(
            "{what} {other:?}: a seat wind E/S/W/N or left/across/right (relative to the winner)"
        ))),
    }
}

fn settlement_json(
    total: i64,
    base: i64,
    self_drawn: bool,
    winner: &str,
    discarder: Option<&str>,
) -> Result<Value, CoreError> {
    let w = seat_from(winner, 0, "winner")?;
    let d = match (self_drawn, discarder) {
        (true, None) => None,
        (true, Some(_)) => {
            return Err(CoreError::hand(
                "a self-drawn win has no discarder (every other player pays)",
            ));
        }
        (false, Some(d)) => Some(seat_from(d, w, "discarder")?),
        (false, None) => {
            return Err(CoreError::hand(
                "a win on a discard needs the discarder's seat (E/S/W/N or left/across/right)",
            ));
        }
    };
    let pays = mcr::settle(total, base, w, d)?;
    Ok(Value::Array(
        pays.iter()
            .map(|p| {
                json!({"payer": wind_name(p.payer), "payee": wind_name(p.payee),
                       "amount": p.amount, "reason": p.reason})
            })
            .collect(),
    ))
}

pub(crate) fn mcr_result<'a>(s: &McrScore, v: &'a Variant, with_detail: bool) -> McrResult<'a> {
    let r = mcr_rules(v);
    let fans = s
        .fans
        .iter()
        .map(|&(i, c)| McrFan {
            count: c,
            en: r.en[i],
            id: FAN_IDS[i],
            points: r.values[i],
            zh: r.zh[i],
        })
        .collect();
    let decomposition = with_detail.then(|| McrDecomposition {
        form: s.form.name(),
        knitted: s.knitted.map(|k| {
            hupai_core::decompose::knitted_tiles(k)
                .iter()
                .map(|&i| TileName(Tile::new_unchecked(i as u8)))
                .collect()
        }),
        pair: s.pair.map(TileName),
        pairs: s.pairs.iter().map(|&t| TileName(t)).collect(),
        sets: s.sets.iter().map(set_out).collect(),
    });
    McrResult {
        decomposition,
        fans,
        meets_minimum: s.meets_minimum,
        total: s.total,
        total_without_flowers: s.total_without_flowers,
        variant: v.id(),
    }
}

pub(crate) fn mcr_result_json(s: &McrScore, v: &Variant, with_detail: bool) -> Value {
    serde_json::to_value(mcr_result(s, v, with_detail)).expect("an MCR result serialises")
}

/// One fan of a score: ``id``, ``zh``, ``en``, ``points`` (per occurrence) and ``count``.
#[pyclass(frozen, module = "hupai._core", name = "Fan", get_all)]
pub struct PyFan {
    id: &'static str,
    zh: &'static str,
    en: &'static str,
    points: i32,
    count: u8,
}

#[pymethods]
impl PyFan {
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("id", self.id)?;
        d.set_item("zh", self.zh)?;
        d.set_item("en", self.en)?;
        d.set_item("points", self.points)?;
        d.set_item("count", self.count)?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        format!(
            "Fan({} {} {}x{})",
            self.id, self.zh, self.points, self.count
        )
    }
}

/// The score of a win: ``fans``, ``total`` (flowers included), ``total_without_flowers``,
/// ``meets_minimum``, ``form`` and ``decomposition`` (the reading that produced it), ``to_dict()``
/// and ``settlement(...)``.
#[pyclass(frozen, module = "hupai._core", name = "Score")]
pub struct PyScore {
    score: McrScore,
    variant: Arc<Variant>,
    seat: u8,
    self_drawn: bool,
}

#[pymethods]
impl PyScore {
    #[getter]
    fn variant(&self) -> PyVariant {
        PyVariant {
            inner: self.variant.clone(),
        }
    }
    #[getter]
    fn fans(&self) -> Vec<PyFan> {
        let r = mcr_rules(&self.variant);
        self.score
            .fans
            .iter()
            .map(|&(i, c)| PyFan {
                id: FAN_IDS[i],
                zh: r.zh[i],
                en: r.en[i],
                points: r.values[i],
                count: c,
            })
            .collect()
    }
    #[getter]
    fn total(&self) -> i32 {
        self.score.total
    }
    #[getter]
    fn total_without_flowers(&self) -> i32 {
        self.score.total_without_flowers
    }
    #[getter]
    fn meets_minimum(&self) -> bool {
        self.score.meets_minimum
    }
    #[getter]
    fn form(&self) -> &'static str {
        self.score.form.name()
    }
    /// The chosen reading: ``{"form", "sets": [{type, tiles, declared, concealed}], "pair",
    /// "pairs", "knitted"}``.
    #[getter]
    fn decomposition<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = mcr_result_json(&self.score, &self.variant, true);
        json_to_py(py, &v["decomposition"])
    }
    /// ``{fan id: count}``.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for &(i, c) in &self.score.fans {
            d.set_item(FAN_IDS[i], c)?;
        }
        Ok(d)
    }
    /// JSON-ready dict of the score.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &mcr_result_json(&self.score, &self.variant, true))
    }
    /// Zero-sum payments of this win (mcr.md §11): self-drawn → each other player pays
    /// 8 + total; on a discard (or a robbed kong) the discarder pays 8 + total and the other two 8.
    /// Seats are winds; ``winner`` defaults to the situation's seat wind, ``discarder`` is a wind
    /// or ``"left"``/``"across"``/``"right"`` relative to the winner.
    #[pyo3(signature = (discarder=None, winner=None))]
    fn settlement<'py>(
        &self,
        py: Python<'py>,
        discarder: Option<&str>,
        winner: Option<&str>,
    ) -> BindResult<Bound<'py, PyAny>> {
        let w = winner.unwrap_or(wind_name(self.seat));
        let v = settlement_json(
            self.score.total as i64,
            mcr_rules(&self.variant).base_points,
            self.self_drawn,
            w,
            discarder,
        )?;
        Ok(json_to_py(py, &v)?)
    }
    fn __repr__(&self) -> String {
        let r = mcr_rules(&self.variant);
        let fans: Vec<String> = self
            .score
            .fans
            .iter()
            .map(|&(i, c)| {
                if c > 1 {
                    format!("{}x{}", r.zh[i], c)
                } else {
                    r.zh[i].to_string()
                }
            })
            .collect();
        format!("Score({} total={})", fans.join(" "), self.score.total)
    }
}

fn make_score(s: &Situation, v: Arc<Variant>, sc: CoreScore) -> PyScore {
    let CoreScore::Mcr(score) = sc;
    PyScore {
        score,
        variant: v,
        seat: s.seat_wind.index() - 27,
        self_drawn: s.is_self_drawn(),
    }
}

/// A Situation (fast path) or a case-schema dict.
pub(crate) fn situation_arg(obj: &Bound<'_, PyAny>) -> BindResult<Arc<Situation>> {
    if let Ok(s) = obj.cast::<PySituation>() {
        return Ok(s.get().inner.clone());
    }
    if obj.cast::<PyDict>().is_ok() {
        let v = py_to_json(obj)?;
        return Ok(Arc::new(situation_from_value(case_core(&v)?)?));
    }
    Err(BindError::Py(PyTypeError::new_err(
        "situation must be a hupai.Situation or a dict {'hand': ..., 'situation': ...}",
    )))
}

/// Score one win under any preset with a scorer.
///
/// ``situation`` is a ``hupai.Situation`` (fast) or a case-schema dict; ``variant`` a preset id or
/// a ``hupai.Variant`` (default ``"mcr"``). The result type is the preset's: ``Score`` (MCR),
/// ``SichuanScore`` (四川, payments at a default table: winner ``W``, others ``A``/``B``/``C``;
/// use ``hupai.sichuan.score`` to name seats), a JSON-ready dict for 字牌 (``hupai.zipai.score``
/// schema). Keyword ``switches`` change the variant's switches for this call
/// (``hupai.score(s, "shanghai", mode="qiao_ma")`` = ``hupai.score(s, hupai.Variant("shanghai",
/// mode="qiao_ma"))``); they are validated like ``Variant``'s.
#[pyfunction]
#[pyo3(signature = (situation, variant=None, **switches))]
pub fn score<'py>(
    py: Python<'py>,
    situation: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
    switches: Option<&Bound<'py, PyDict>>,
) -> BindResult<Bound<'py, PyAny>> {
    let mut v = variant_from_py(variant)?;
    if switches.is_some_and(|d| !d.is_empty()) {
        v = Arc::new(v.derive(crate::variant::overrides(switches)?)?);
    }
    // Regional presets with their own result type (`VariantScore`, score_regional.rs).
    if let Some(r) = crate::score_regional::score_regional(py, situation, &v)? {
        return Ok(r);
    }
    // Chip-style presets (huanle3d, erren, shaanxi, wuhan): `PatternScore`, score_presets.rs.
    if matches!(
        v.rules(),
        Rules::Huanle3d(_) | Rules::Erren(_) | Rules::Shaanxi(_) | Rules::Wuhan(_)
    ) {
        let s = situation_arg(situation)?;
        if let Some(r) = crate::score_presets::score_pattern(py, &s, &v)? {
            return Ok(r.into_bound(py));
        }
    }
    match v.rules() {
        Rules::Sichuan(r) => {
            let s = situation_arg(situation)?;
            let table = hupai_core::rules::sichuan::Table::default_for(r.players);
            let out = crate::score_sichuan::score_sichuan(&s, r, &table, v.id())?;
            Ok(Bound::new(py, out)?.into_any())
        }
        Rules::Zipai(_) => {
            let dict = situation.cast::<PyDict>().map_err(|_| {
                BindError::Py(PyTypeError::new_err(
                    "a 字牌 situation must be a dict (see hupai.zipai)",
                ))
            })?;
            let vobj = Bound::new(py, PyVariant { inner: v.clone() })?.into_any();
            crate::zipai::zipai_score(py, dict, Some(&vobj))
        }
        _ => {
            let s = situation_arg(situation)?;
            let sc = score_core(&s, &v)?;
            Ok(Bound::new(py, make_score(&s, v, sc))?.into_any())
        }
    }
}

fn score_value(case: &Value, default_variant: Option<&Arc<Variant>>) -> Result<Value, CoreError> {
    let v = match case.get("variant").and_then(Value::as_str) {
        Some(id) => variant_by_id(id)?,
        None => match default_variant {
            Some(v) => v.clone(),
            None => variant_by_id("mcr")?,
        },
    };
    let s = situation_from_value(case_core(case)?)?;
    let CoreScore::Mcr(sc) = score_core(&s, &v)?;
    let mut out = mcr_result_json(&sc, &v, true);
    if let Some(id) = case.get("id") {
        out["id"] = id.clone();
    }
    Ok(out)
}

/// Score a case line ``{"variant": "mcr", "hand": ..., "situation": ...}`` (a dict or JSON text;
/// ``variant`` defaults to ``"mcr"``, other keys such as ``id`` are ignored or echoed) and return a
/// JSON-ready dict.
#[pyfunction]
pub fn score_json<'py>(py: Python<'py>, case: &Bound<'py, PyAny>) -> BindResult<Bound<'py, PyAny>> {
    let v = if let Ok(s) = case.cast::<PyString>() {
        serde_json::from_str(s.to_str()?).map_err(|e| CoreError::hand(format!("case JSON: {e}")))?
    } else {
        py_to_json(case)?
    };
    Ok(json_to_py(py, &score_value(&v, None)?)?)
}

/// MCR settlement of a win with total ``total`` (基本分, flowers included): a zero-sum list of
/// ``{payer, payee, amount, reason}`` with seats as winds.
#[pyfunction]
#[pyo3(signature = (total, self_drawn, winner="E", discarder=None, base=AnyInt(8)))]
#[pyo3(text_signature = "(total, self_drawn, winner=\"E\", discarder=None, base=8)")]
pub fn mcr_settlement<'py>(
    py: Python<'py>,
    total: AnyInt,
    self_drawn: bool,
    winner: &str,
    discarder: Option<&str>,
    base: AnyInt,
) -> BindResult<Bound<'py, PyAny>> {
    let (total, base) = (total.0, base.0);
    Ok(json_to_py(
        py,
        &settlement_json(total, base, self_drawn, winner, discarder)?,
    )?)
}

/// The formal waits of the situation's 13-tile hand before the winning tile (mcr.md §9).
#[pyfunction]
pub fn mcr_waits(situation: &Bound<'_, PyAny>) -> BindResult<Vec<String>> {
    let s = situation_arg(situation)?;
    Ok(mcr::formal_waits_of(&s)
        .iter()
        .map(ToString::to_string)
        .collect())
}

// ---------------------------------------------------------------------------------------------
// batch

fn error_dict<'py>(py: Python<'py>, e: &CoreError) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    let kind = match e {
        CoreError::InvalidTile { .. } => "InvalidTileError",
        CoreError::InvalidHand(_) => "InvalidHandError",
        CoreError::RuleConfig(_) => "RuleConfigError",
        CoreError::Settlement(_) => "SettlementError",
        CoreError::IllegalAction(_) => "IllegalActionError",
        CoreError::Replay(_) => "ReplayError",
    };
    d.set_item("error", kind)?;
    d.set_item("message", e.to_string())?;
    Ok(d.into_any())
}

/// One parsed batch item: the situation and the variant to score it under.
type Job = (Arc<Situation>, Arc<Variant>);

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

/// Score many situations in parallel (GIL released, rayon), results in input order. Each item is
/// a ``Situation`` or a case dict (with an optional ``variant`` key); a bad item yields
/// ``{"error": <exception name>, "message": ...}`` instead of a ``Score``.
#[pyfunction]
#[pyo3(signature = (items, variant=None, threads=None))]
pub fn score_batch<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
    threads: Option<AnyInt>,
) -> BindResult<Bound<'py, PyList>> {
    let threads: Option<usize> = threads
        .map(|t| t.within("threads", 1, 1024, |m| CoreError::rule(m).into()))
        .transpose()?;
    let default_v = variant_from_py(variant)?;
    let mut parsed: Vec<Result<Job, CoreError>> = Vec::new();
    for item in items.try_iter()? {
        let item = item?;
        if let Ok(s) = item.cast::<PySituation>() {
            parsed.push(Ok((s.get().inner.clone(), default_v.clone())));
            continue;
        }
        let r = (|| -> Result<Job, BindError> {
            let v = if let Ok(s) = item.cast::<PyString>() {
                serde_json::from_str(s.to_str()?)
                    .map_err(|e| CoreError::hand(format!("case JSON: {e}")))?
            } else {
                py_to_json(&item)?
            };
            let var = match v.get("variant").and_then(Value::as_str) {
                Some(id) => variant_by_id(id)?,
                None => default_v.clone(),
            };
            Ok((Arc::new(situation_from_value(case_core(&v)?)?), var))
        })();
        parsed.push(r.map_err(|e| match e {
            BindError::Core(c) => c,
            BindError::Py(p) => CoreError::hand(p.to_string()),
        }));
    }
    let pool = pool(threads)?;
    let work = || -> Vec<Result<CoreScore, CoreError>> {
        parsed
            .par_iter()
            .map(|p| match p {
                Ok((s, v)) => score_core(s, v),
                Err(e) => Err(e.clone()),
            })
            .collect()
    };
    let results = py.detach(|| match &pool {
        Some(p) => p.install(work),
        None => work(),
    });
    let out = PyList::empty(py);
    for (p, r) in parsed.iter().zip(results) {
        match (p, r) {
            (Ok((s, v)), Ok(sc)) => {
                out.append(Bound::new(py, make_score(s, v.clone(), sc))?)?;
            }
            (_, Err(e)) => out.append(error_dict(py, &e)?)?,
            (Err(e), _) => out.append(error_dict(py, e)?)?,
        }
    }
    Ok(out)
}
