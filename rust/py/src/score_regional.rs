//! Scores of the regional presets whose result does not fit the MCR-shaped `Score`
//! (today: 卡五星). `VariantScore` is a frozen, JSON-backed result; `score_regional` is the
//! dispatch branch used by `hupai.score` before the MCR path; the `kawuxing_*` functions back
//! `hupai.kawuxing`.

use std::sync::Arc;

use hupai_core::Variant;
use hupai_core::rules::hebei::{self, HebeiRules};
use hupai_core::rules::hebei_draft4::{self, HebeiDraft4Rules};
use hupai_core::rules::kawuxing::{self, KawuxingRules};
use hupai_core::rules::shanghai::{self, ShanghaiRules};
use hupai_core::situation::Situation;
use hupai_core::variant::Rules;
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value;

use crate::convert::json_to_py;
use crate::errors::{BindError, BindResult, RuleConfigError};
use crate::score::{PySituation, py_to_json};
use crate::variant::PyVariant;

/// The score of one win under a regional preset: counted patterns (``fans``), the hand
/// multiplier before (``raw_multiplier``) and after the cap (``multiplier``), the chosen
/// decomposition. ``to_dict()`` has everything.
#[pyclass(frozen, module = "hupai._core", name = "VariantScore")]
pub struct PyVariantScore {
    json: Value,
}

#[pymethods]
impl PyVariantScore {
    #[getter]
    fn variant(&self) -> String {
        self.json["variant"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
    /// Counted patterns: dicts with ``id``, ``zh``, ``en``, ``value``, ``count``, ``op``, ``scope``.
    #[getter]
    fn fans<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.json["fans"])
    }
    /// The hand value after the cap (what each payer pays in 底 before 包, 买码, 漂).
    #[getter]
    fn multiplier(&self) -> i64 {
        self.json["multiplier"].as_i64().unwrap_or(0)
    }
    /// The product of the patterns before the cap.
    #[getter]
    fn raw_multiplier(&self) -> i64 {
        self.json["raw_multiplier"].as_i64().unwrap_or(0)
    }
    #[getter]
    fn decomposition<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.json["decomposition"])
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.json)
    }
    fn to_json(&self) -> String {
        self.json.to_string()
    }
    fn __repr__(&self) -> String {
        let fans: Vec<String> = self.json["fans"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|f| format!("{}×{}", f["zh"].as_str().unwrap_or(""), f["value"]))
                    .collect()
            })
            .unwrap_or_default();
        format!(
            "VariantScore({}, ×{}, [{}])",
            self.variant(),
            self.multiplier(),
            fans.join(" ")
        )
    }
}

fn variant_arg(obj: Option<&Bound<'_, PyAny>>, default: &str) -> BindResult<Arc<Variant>> {
    match obj {
        None => Ok(Arc::new(Variant::load(default)?)),
        Some(o) => {
            if let Ok(v) = o.cast::<PyVariant>() {
                return Ok(v.get().inner.clone());
            }
            if let Ok(s) = o.cast::<PyString>() {
                return Ok(Arc::new(Variant::load(s.to_str()?)?));
            }
            Err(BindError::Py(pyo3::exceptions::PyTypeError::new_err(
                "variant must be a preset id (str) or a hupai.Variant",
            )))
        }
    }
}

/// `fn $name(&Variant) -> BindResult<&$ty>`: the preset's compiled rules, or RuleConfigError.
macro_rules! rules_of {
    ($($name:ident: $arm:ident => $ty:ty, $label:literal;)*) => {$(
        fn $name(v: &Variant) -> BindResult<&$ty> {
            match v.rules() {
                Rules::$arm(r) => Ok(r),
                _ => Err(BindError::Py(RuleConfigError::new_err(format!(
                    concat!("variant {} is not a ", $label, " variant"),
                    v.id()
                )))),
            }
        }
    )*};
}

rules_of! {
    kwx_rules: Kawuxing => KawuxingRules, "卡五星";
    hebei_draft4_rules: HebeiDraft4 => HebeiDraft4Rules, "hebei_draft4";
    hebei_rules: Hebei => HebeiRules, "hebei";
    shanghai_rules: Shanghai => ShanghaiRules, "shanghai";
}

/// Score a `hupai.Situation` (with the preset's default extras `none`) or a case dict / JSON text
/// (`parse` reads the situation and the preset's own keys).
fn score_with<X, S>(
    situation: &Bound<'_, PyAny>,
    none: X,
    parse: impl FnOnce(&Value) -> hupai_core::Result<(Situation, X)>,
    score: impl FnOnce(&Situation, X) -> hupai_core::Result<S>,
) -> BindResult<S> {
    if let Ok(s) = situation.cast::<PySituation>() {
        return Ok(score(&s.get().inner, none)?);
    }
    let v = json_arg(situation, "situation")?;
    let (s, x) = parse(&v)?;
    Ok(score(&s, x)?)
}

/// Settle one hand record of a preset whose settlement takes the record as JSON.
fn settle_record<'py, R: ?Sized>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
    default: &str,
    rules: fn(&Variant) -> BindResult<&R>,
    settle: fn(&R, &Value) -> hupai_core::Result<hupai_core::scoring::ledger::Ledger>,
) -> BindResult<Bound<'py, PyAny>> {
    let v = variant_arg(variant, default)?;
    let h = json_arg(hand, "hand")?;
    let ledger = settle(rules(&v)?, &h)?;
    Ok(json_to_py(py, &ledger.to_json_value())?)
}

fn json_arg(obj: &Bound<'_, PyAny>, what: &str) -> BindResult<Value> {
    if let Ok(s) = obj.cast::<PyString>() {
        return serde_json::from_str(s.to_str()?)
            .map_err(|e| hupai_core::Error::hand(format!("{what} JSON: {e}")).into());
    }
    Ok(py_to_json(obj)?)
}

fn kwx_score_value(r: &KawuxingRules, situation: &Bound<'_, PyAny>) -> BindResult<Value> {
    let sc = score_with(
        situation,
        kawuxing::KawuxingFlags::default(),
        kawuxing::situation_from_value,
        |s, f| r.score(s, f),
    )?;
    Ok(sc.to_json_value())
}

/// The `hupai.score` branch for presets with a `VariantScore` result (`None`: not one of them).
pub fn score_regional<'py>(
    py: Python<'py>,
    situation: &Bound<'py, PyAny>,
    v: &Variant,
) -> BindResult<Option<Bound<'py, PyAny>>> {
    let json = match v.rules() {
        Rules::Kawuxing(r) => kwx_score_value(r, situation)?,
        Rules::HebeiDraft4(r) => hebei_draft4_score_value(r, situation)?,
        Rules::Hebei(r) => hebei_score_value(r, situation)?,
        Rules::Shanghai(r) => shanghai_score_value(r, situation)?,
        _ => return Ok(None),
    };
    Ok(Some(Bound::new(py, PyVariantScore { json })?.into_any()))
}

/// Score one 卡五星 win: a case-schema dict (``situation.liangdao`` = the winner declared 亮倒),
/// its JSON text, or a ``hupai.Situation`` (no 亮倒).
#[pyfunction]
#[pyo3(signature = (situation, variant=None))]
pub fn kawuxing_score(
    situation: &Bound<'_, PyAny>,
    variant: Option<&Bound<'_, PyAny>>,
) -> BindResult<PyVariantScore> {
    let v = variant_arg(variant, "kawuxing")?;
    let json = kwx_score_value(kwx_rules(&v)?, situation)?;
    Ok(PyVariantScore { json })
}

/// Settle one 卡五星 hand: ``seats`` (3 names) and the table events in play order (see
/// ``hupai.kawuxing.settle``). Returns the ledger as a dict (``events``, ``balances`` …).
#[pyfunction]
#[pyo3(signature = (seats, events, variant=None, base_factor=crate::convert::AnyInt(1)))]
#[pyo3(text_signature = "(seats, events, variant=None, base_factor=1)")]
pub fn kawuxing_settle<'py>(
    py: Python<'py>,
    seats: Vec<String>,
    events: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
    base_factor: crate::convert::AnyInt,
) -> BindResult<Bound<'py, PyAny>> {
    let base_factor: i64 = base_factor.within("base_factor", 1, 1024, |m| {
        crate::errors::BindError::Core(hupai_core::Error::settlement(m))
    })?;
    let v = variant_arg(variant, "kawuxing")?;
    let ev = json_arg(events, "events")?;
    let Value::Array(list) = ev else {
        return Err(hupai_core::Error::settlement("events must be a list of event dicts").into());
    };
    let ledger = kawuxing::settle(kwx_rules(&v)?, &seats, &list, base_factor)?;
    Ok(json_to_py(py, &ledger.to_json_value())?)
}

/// 大叫 of a 13-tile 卡五星 hand ``{"melds": [...], "concealed": [...]}``: ``(tile, value)`` of
/// the best winning tile as a discard win (亮倒 ×2 when ``liangdao``), or ``None`` if not ready.
#[pyfunction]
#[pyo3(signature = (hand, liangdao=false, variant=None))]
pub fn kawuxing_da_jiao(
    hand: &Bound<'_, PyAny>,
    liangdao: bool,
    variant: Option<&Bound<'_, PyAny>>,
) -> BindResult<Option<(String, i64)>> {
    let v = variant_arg(variant, "kawuxing")?;
    let h = json_arg(hand, "hand")?;
    let (hand, _) = hupai_core::rules::sichuan::waiting_hand_from_json(&h.to_string())?;
    Ok(kwx_rules(&v)?
        .da_jiao(&hand, liangdao)?
        .map(|(t, x)| (t.to_string(), x)))
}

fn hebei_draft4_score_value(
    r: &HebeiDraft4Rules,
    situation: &Bound<'_, PyAny>,
) -> BindResult<Value> {
    let sc = score_with(situation, (), plain_case, |s, ()| r.score(s))?;
    Ok(sc.to_json_value())
}

/// A case with no preset keys beyond `hand` and `situation`.
fn plain_case(v: &Value) -> hupai_core::Result<(Situation, ())> {
    Ok((Situation::from_case(v)?, ()))
}

/// Settle one 河北 第4稿 hand (``{"seats", "dealer", "floor", "gen_zhuang", "kongs", "win"}``, see
/// ``hupai.hebei_draft4.settle``); returns the ledger as a dict.
#[pyfunction]
#[pyo3(signature = (hand, variant=None))]
pub fn hebei_draft4_settle<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyAny>> {
    settle_record(
        py,
        hand,
        variant,
        "hebei_draft4",
        hebei_draft4_rules,
        hebei_draft4::settle,
    )
}

fn hebei_score_value(r: &HebeiRules, situation: &Bound<'_, PyAny>) -> BindResult<Value> {
    let sc = score_with(situation, (), plain_case, |s, ()| r.score(s))?;
    Ok(sc.to_json_value())
}

/// Settle one 河北 推倒胡 hand (``{"seats", "dealer", "kongs", "win"}``, see
/// ``hupai.hebei.settle``); returns the ledger as a dict.
#[pyfunction]
#[pyo3(signature = (hand, variant=None))]
pub fn hebei_settle<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyAny>> {
    settle_record(py, hand, variant, "hebei", hebei_rules, hebei::settle)
}

fn shanghai_score_value(r: &ShanghaiRules, situation: &Bound<'_, PyAny>) -> BindResult<Value> {
    let sc = score_with(
        situation,
        shanghai::Pending::default(),
        shanghai::situation_from_value,
        |s, p| r.score(s, p),
    )?;
    Ok(sc.to_json_value())
}

/// Settle one 上海 hand (``{"seats", "wins" | "win"}``, see ``hupai.shanghai.settle``); returns
/// the ledger as a dict.
#[pyfunction]
#[pyo3(signature = (hand, variant=None))]
pub fn shanghai_settle<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyAny>> {
    settle_record(
        py,
        hand,
        variant,
        "shanghai",
        shanghai_rules,
        shanghai::settle,
    )
}
