//! 四川 scoring in Python: `SichuanScore`, the entry `sichuan_score` (wrapped by
//! `hupai.sichuan.score`) and `sichuan_max_win_value`.
//!
//! For the generic `hupai.score` dispatch: call [`score_sichuan`] with a validated core
//! `Situation` and the variant's `SichuanRules` (`Rules::Sichuan(r)`).

use std::sync::Arc;

use hupai_core::rules::sichuan::{self, SichuanRules, SichuanScore, Table};
use hupai_core::situation::KongKind;
use hupai_core::variant::Rules;
use hupai_core::{Hand, Situation, Variant};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde_json::{Value, json};

use crate::convert::json_to_py;
use crate::errors::{BindError, BindResult, RuleConfigError};
use crate::hand::{PyHand, hand_from_py};
use crate::variant::PyVariant;

/// The score of one 四川 win: counted fans, 番 total, multiplier (倍数), base, amount per payer,
/// the payments at the given table, and the chosen decomposition.
#[pyclass(frozen, module = "hupai._core", name = "SichuanScore")]
pub struct PySichuanScore {
    score: SichuanScore,
    payments: Vec<(String, i64)>,
    variant: String,
}

impl PySichuanScore {
    pub(crate) fn json(&self) -> Value {
        let mut v = self.score.to_json_value();
        let payments: serde_json::Map<String, Value> = self
            .payments
            .iter()
            .map(|(k, a)| (k.clone(), json!(a)))
            .collect();
        v["payments"] = Value::Object(payments);
        v["variant"] = json!(self.variant);
        v
    }
    pub fn per_payer_amount(&self) -> i64 {
        self.score.per_payer
    }
    pub fn to_json_string(&self) -> String {
        self.json().to_string()
    }
}

#[pymethods]
impl PySichuanScore {
    /// Counted fans: dicts with ``id``, ``zh``, ``en``, ``value`` (番 each), ``count``, ``op``,
    /// ``scope``.
    #[getter]
    fn fans<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.score.to_json_value()["fans"])
    }
    /// 番 total before caps.
    #[getter]
    fn fan_total(&self) -> i64 {
        self.score.fan_total
    }
    /// 番 total after ``cap_fan``.
    #[getter]
    fn capped_fan_total(&self) -> i64 {
        self.score.capped_fan_total
    }
    /// The hand multiplier (倍数) after caps.
    #[getter]
    fn multiplier(&self) -> i64 {
        self.score.multiplier
    }
    #[getter]
    fn uncapped_multiplier(&self) -> i64 {
        self.score.uncapped_multiplier
    }
    #[getter]
    fn base_points(&self) -> i64 {
        self.score.base_points
    }
    /// Amount each payer pays.
    #[getter]
    fn per_payer(&self) -> i64 {
        self.score.per_payer
    }
    /// Paid by every other player still in the hand (self-draw) rather than by one discarder.
    #[getter]
    fn self_draw_payment(&self) -> bool {
        self.score.self_draw_payment
    }
    #[getter]
    fn win_type(&self) -> &'static str {
        self.score.win_type.name()
    }
    /// Per-seat amounts at the table given to ``score`` (winner positive).
    #[getter]
    fn payments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, a) in &self.payments {
            d.set_item(k, a)?;
        }
        Ok(d)
    }
    /// The chosen decomposition (``form``, ``sets``, ``pair``, ``pairs``).
    #[getter]
    fn decomposition<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &sichuan::decomposition_json(&self.score.decomposition))
    }
    /// Everything as JSON-ready dicts.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.json())
    }
    fn to_json(&self) -> String {
        self.json().to_string()
    }
    fn __repr__(&self) -> String {
        let fans: Vec<String> = self
            .score
            .fans
            .iter()
            .map(|f| {
                if f.count > 1 {
                    format!("{}×{}", f.zh, f.count)
                } else {
                    f.zh.clone()
                }
            })
            .collect();
        format!(
            "SichuanScore({} 番 [{}], ×{}, {} per payer)",
            self.score.fan_total,
            fans.join(" "),
            self.score.multiplier,
            self.score.per_payer
        )
    }
}

/// The compiled 四川 rules of a Python variant argument (`None` → the default preset).
pub fn sichuan_variant(variant: Option<&Bound<'_, PyAny>>) -> BindResult<Arc<Variant>> {
    let v = match variant {
        None => Arc::new(Variant::load("sichuan")?),
        Some(obj) => {
            if let Ok(pv) = obj.cast::<PyVariant>() {
                pv.get().inner.clone()
            } else if let Ok(s) = obj.cast::<PyString>() {
                Arc::new(Variant::load(s.to_str()?)?)
            } else {
                return Err(BindError::Py(RuleConfigError::new_err(
                    "variant must be a hupai.Variant or a preset id",
                )));
            }
        }
    };
    if !matches!(v.rules(), Rules::Sichuan(_)) {
        return Err(BindError::Py(RuleConfigError::new_err(format!(
            "variant {:?} is not a sichuan variant",
            v.id()
        ))));
    }
    Ok(v)
}

fn rules_of(v: &Variant) -> &SichuanRules {
    match v.rules() {
        Rules::Sichuan(r) => r,
        _ => unreachable!("checked by sichuan_variant"),
    }
}

/// JSON text of a dict / str argument (dicts go through Python's ``json.dumps``).
pub fn json_text(obj: &Bound<'_, PyAny>) -> BindResult<String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(s.to_str()?.to_string());
    }
    let json = obj.py().import("json")?;
    Ok(json.call_method1("dumps", (obj,))?.extract()?)
}

/// Score a validated situation under 四川 rules at a table: the function for the generic
/// `hupai.score` dispatch (`Rules::Sichuan(r) => score_sichuan(&situation, r, &table, id)`).
pub fn score_sichuan(
    situation: &Situation,
    rules: &SichuanRules,
    table: &Table,
    variant_id: &str,
) -> BindResult<PySichuanScore> {
    let score = rules.score(situation)?;
    let payments = rules.payments(situation, &score, table)?;
    Ok(PySichuanScore {
        score,
        payments,
        variant: variant_id.to_string(),
    })
}

/// Score one 四川 win.
///
/// Args:
///     situation: the case schema ``{"hand": {"melds", "concealed", "win_tile"}, "situation": {...}}``
///         as a dict or JSON text (``win_type``, ``dealer``, ``blessing``, ``void_suit``, ``wall_last``,
///         ``last_kong``).
///     variant: a ``Variant`` of the ``sichuan`` preset (default: the seed rules) or a preset id.
///     winner, others, discarder, kong_feeder: the table for the payments (default winner ``W``,
///         others ``A``, ``B``, ``C`` still in the hand, discarder the first other).
#[pyfunction]
#[pyo3(signature = (situation, /, variant = None, *, winner = "W", others = None, discarder = None, kong_feeder = None))]
pub fn sichuan_score(
    situation: &Bound<'_, PyAny>,
    variant: Option<&Bound<'_, PyAny>>,
    winner: &str,
    others: Option<Vec<String>>,
    discarder: Option<String>,
    kong_feeder: Option<String>,
) -> BindResult<PySichuanScore> {
    let v = sichuan_variant(variant)?;
    let rules = rules_of(&v);
    let s = Situation::from_json(&json_text(situation)?)?;
    let mut table = Table::default_for(rules.players);
    table.winner = winner.to_string();
    if let Some(o) = others {
        table.others = o;
    }
    table.discarder = discarder;
    table.kong_feeder = kong_feeder;
    score_sichuan(&s, rules, &table, v.id())
}

/// The highest value a waiting hand can reach over all its winning tiles (查大叫).
///
/// ``hand``: a ``Hand``, hand notation, or the case-schema dict ``{"melds": [...], "concealed": [...]}``
/// (13 tiles, kongs as 3). Returns a dict: ``huazhu``, ``ready``, ``waits`` (tile, fan_total,
/// multiplier, per_payer as a discard win without situational fans), ``best``,
/// ``best_situational`` (over every win type) and ``da_jiao`` (the draw-end amount).
#[pyfunction]
#[pyo3(signature = (hand, /, variant = None, *, void_suit = None))]
pub fn sichuan_max_win_value<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
    void_suit: Option<&str>,
) -> BindResult<Bound<'py, PyAny>> {
    let v = sichuan_variant(variant)?;
    let rules = rules_of(&v);
    let (h, kinds): (Hand, Vec<Option<KongKind>>) = if hand.cast::<PyDict>().is_ok() {
        sichuan::waiting_hand_from_json(&json_text(hand)?)?
    } else {
        let h = if let Ok(ph) = hand.cast::<PyHand>() {
            ph.get().inner.clone()
        } else {
            hand_from_py(hand)?
        };
        let kinds = h
            .melds()
            .iter()
            .map(|m| (m.is_kong() && m.concealed).then_some(KongKind::Concealed))
            .collect();
        (h, kinds)
    };
    let vs = match void_suit {
        None => None,
        Some("m") => Some(0),
        Some("p") => Some(1),
        Some("s") => Some(2),
        Some(other) => {
            return Err(crate::errors::hand_err(format!(
                "void_suit {other:?} is not m, p or s"
            )));
        }
    };
    let mw = rules.max_win_value(&h, &kinds, vs)?;
    Ok(json_to_py(py, &mw.to_json_value())?)
}
