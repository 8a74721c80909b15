//! Results of the chip-style presets (`huanle3d`, `erren`, `shaanxi`, `wuhan`): `PatternScore`
//! (returned by `hupai.score(..., variant=<id>)`) and `settle_hand` (a hand record → `Settlement`).

use std::sync::Arc;

use hupai_core::scoring::pattern::{self, HandRecord, PatternScore};
use hupai_core::{Situation, Variant};
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value;

use crate::convert::json_to_py;
use crate::errors::BindResult;
use crate::score::{py_to_json, variant_from_py};
use crate::settlement::PySettlement;

/// The score of one win in a chip-style preset: counted patterns, the hand value (in the preset's
/// unit), the amount each payer pays for the win before seat factors, and who pays.
#[pyclass(frozen, module = "hupai._core", name = "PatternScore")]
pub struct PyPatternScore {
    score: PatternScore,
}

#[pymethods]
impl PyPatternScore {
    #[getter]
    fn variant(&self) -> &str {
        &self.score.variant
    }
    /// Counted patterns: dicts with ``id``, ``zh``, ``en``, ``value``, ``count``.
    #[getter]
    fn patterns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.score.to_json_value()["patterns"])
    }
    /// The pattern ids, in table order.
    #[getter]
    fn ids(&self) -> Vec<String> {
        self.score.patterns.iter().map(|p| p.id.clone()).collect()
    }
    /// Hand value before caps.
    #[getter]
    fn value(&self) -> i64 {
        self.score.value
    }
    /// Hand value after the preset's cap.
    #[getter]
    fn capped_value(&self) -> i64 {
        self.score.capped_value
    }
    /// What each payer pays for the win itself (seat factors such as 庄家翻倍 are settlement's).
    #[getter]
    fn per_payer(&self) -> i64 {
        self.score.per_payer
    }
    /// ``"all"`` (every other player) or ``"discarder"``.
    #[getter]
    fn payers(&self) -> &str {
        &self.score.payers
    }
    /// Preset-specific details.
    #[getter]
    fn details<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.score.details)
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.score.to_json_value())
    }
    fn to_json(&self) -> String {
        self.score.to_json_value().to_string()
    }
    fn __repr__(&self) -> String {
        let ids: Vec<&str> = self.score.patterns.iter().map(|p| p.id.as_str()).collect();
        format!(
            "PatternScore({} {} value={} per_payer={})",
            self.score.variant,
            ids.join("+"),
            self.score.capped_value,
            self.score.per_payer
        )
    }
}

/// The dispatch branch of `hupai.score`: `Some` for the chip-style presets.
pub fn score_pattern(py: Python<'_>, s: &Situation, v: &Variant) -> BindResult<Option<Py<PyAny>>> {
    match pattern::score(v, s) {
        None => Ok(None),
        Some(r) => Ok(Some(Py::new(py, PyPatternScore { score: r? })?.into_any())),
    }
}

/// Settle one hand of a chip-style preset from its record (a dict or JSON text: ``seats``,
/// ``dealer``, ``kongs``, ``wins`` with their situations, ``seat_data``, ``table``).
#[pyfunction]
#[pyo3(signature = (record, variant))]
pub fn settle_hand(
    record: &Bound<'_, PyAny>,
    variant: &Bound<'_, PyAny>,
) -> BindResult<PySettlement> {
    let v: Arc<Variant> = variant_from_py(Some(variant))?;
    let value: Value = if let Ok(s) = record.cast::<PyString>() {
        serde_json::from_str(s.to_str()?)
            .map_err(|e| hupai_core::Error::settlement(format!("hand record JSON: {e}")))?
    } else {
        py_to_json(record)?
    };
    let rec = HandRecord::from_value(value)?;
    let (ledger, _) = pattern::settle(&v, &rec)?;
    Ok(PySettlement::from_ledger(ledger))
}
