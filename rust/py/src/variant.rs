//! `Variant`: a preset plus validated switches, compiled once in the core.

use std::sync::Arc;

use hupai_core::Variant;
use hupai_core::preset::{self, SwitchValue};
use pyo3::prelude::*;

use crate::convert::Text;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use crate::convert::json_to_py;
use crate::errors::{BindError, BindResult, RuleConfigError};

/// A rule variant: a built-in preset (data) plus switch overrides, validated and compiled once.
///
/// ``Variant.load("mcr")``, ``Variant("sichuan", mode="血流成河")`` or
/// ``variant.with_options(switch=value)``. Unknown switches, bad values and conflicting switches
/// raise ``RuleConfigError`` naming the switch and the allowed values. Frozen and hashable by
/// value; reuse one object for many calls.
#[pyclass(frozen, from_py_object, module = "hupai._core", name = "Variant")]
#[derive(Clone)]
pub struct PyVariant {
    pub(crate) inner: Arc<Variant>,
}

fn switch_value(name: &str, v: &Bound<'_, PyAny>) -> BindResult<SwitchValue> {
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(SwitchValue::Bool(b.is_true()));
    }
    if v.cast::<PyInt>().is_ok() {
        return v.extract().map(SwitchValue::Int).map_err(|_| {
            BindError::Py(RuleConfigError::new_err(format!(
                "switch {name:?}: integer out of range"
            )))
        });
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(SwitchValue::Str(
            crate::convert::text(s, "switch value")?.to_string(),
        ));
    }
    Err(BindError::Py(RuleConfigError::new_err(format!(
        "switch {name:?}: value must be a bool, an int or a str"
    ))))
}

pub(crate) fn overrides(
    kwargs: Option<&Bound<'_, PyDict>>,
) -> BindResult<Vec<(String, SwitchValue)>> {
    let mut out = Vec::new();
    if let Some(kw) = kwargs {
        for (k, v) in kw.iter() {
            let name = match k.cast::<PyString>() {
                Ok(s) => crate::convert::text(s, "switch name")?.to_string(),
                Err(_) => k.extract::<String>()?,
            };
            let value = switch_value(&name, &v)?;
            out.push((name, value));
        }
    }
    Ok(out)
}

fn value_to_py<'py>(py: Python<'py>, v: &SwitchValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        SwitchValue::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        SwitchValue::Int(i) => i.into_pyobject(py)?.into_any(),
        SwitchValue::Str(s) => PyString::new(py, s).into_any(),
    })
}

#[pymethods]
impl PyVariant {
    #[new]
    #[pyo3(signature = (id, /, **options))]
    fn new(id: Text, options: Option<&Bound<'_, PyDict>>) -> BindResult<Self> {
        Ok(Self {
            inner: Arc::new(Variant::with_options(&id, overrides(options)?)?),
        })
    }

    /// The preset ``id`` with its default switches.
    #[staticmethod]
    fn load(id: Text) -> BindResult<Self> {
        Ok(Self {
            inner: Arc::new(Variant::load(&id)?),
        })
    }

    /// A new variant with some switches changed (this one is unchanged).
    #[pyo3(signature = (**options))]
    fn with_options(&self, options: Option<&Bound<'_, PyDict>>) -> BindResult<Self> {
        Ok(Self {
            inner: Arc::new(self.inner.derive(overrides(options)?)?),
        })
    }

    #[getter]
    fn id(&self) -> &str {
        self.inner.id()
    }
    /// Chinese name of the preset.
    #[getter]
    fn name(&self) -> &str {
        &self.inner.preset().name
    }
    #[getter]
    fn players(&self) -> u8 {
        self.inner.ruleset().players()
    }
    /// The kind of input the preset scores: ``"tiles"`` (mahjong: a ``Situation``, hand notation) or
    /// ``"zipai"`` (字牌 cards).
    #[getter]
    fn input(&self) -> &'static str {
        self.inner.ruleset().input()
    }
    /// The win shapes of hand analysis under this preset (``hupai.waits(..., shapes=v.shapes)``),
    /// or ``None`` for a game without mahjong tiles.
    #[getter]
    fn shapes(&self) -> Option<Vec<&'static str>> {
        self.inner.ruleset().shapes().map(shape_names)
    }
    /// The physical tiles of the variant's set as tile indices in index order (the effective
    /// ``tile_set``, switches applied; 34..41 are the eight flowers): the wall is a permutation of it.
    fn tile_set(&self) -> BindResult<Vec<usize>> {
        Ok(self
            .inner
            .tile_set()?
            .into_iter()
            .map(|t| t.idx())
            .collect())
    }
    /// Every switch with its current value.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.options().iter() {
            d.set_item(k, value_to_py(py, v)?)?;
        }
        Ok(d)
    }

    /// The preset as data: names, fan table, switches (with defaults, allowed values and the
    /// current value) and parameters.
    fn describe<'py>(&self, py: Python<'py>) -> BindResult<Bound<'py, PyAny>> {
        let mut v = serde_json::to_value(self.inner.preset())
            .map_err(|e| BindError::Py(RuleConfigError::new_err(e.to_string())))?;
        if let Some(switches) = v.get_mut("switches").and_then(|s| s.as_array_mut()) {
            for s in switches {
                let name = s
                    .get("name")
                    .and_then(|n| n.as_str())
                    .unwrap_or_default()
                    .to_string();
                if let Some(cur) = self.inner.options().get(&name) {
                    s["value"] = serde_json::to_value(cur).unwrap_or_default();
                }
            }
        }
        Ok(json_to_py(py, &v)?)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyVariant>().is_ok_and(|o| {
            let o = &o.get().inner;
            o.id() == self.inner.id() && o.options() == self.inner.options()
        })
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.id().hash(&mut h);
        for (k, v) in self.inner.options().iter() {
            k.hash(&mut h);
            v.hash(&mut h);
        }
        h.finish()
    }
    fn __repr__(&self) -> String {
        let changed: Vec<String> = self
            .inner
            .changed_options()
            .iter()
            .map(|(k, v)| format!(", {k}={}", py_literal(v)))
            .collect();
        format!("Variant('{}'{})", self.inner.id(), changed.concat())
    }
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<((String,), Bound<'py, PyDict>)> {
        let kw = PyDict::new(py);
        for (k, v) in self.inner.changed_options() {
            kw.set_item(k, value_to_py(py, v)?)?;
        }
        Ok(((self.inner.id().to_string(),), kw))
    }
}

/// The names of a shape set (the names `hupai.Shapes.of` reads).
pub(crate) fn shape_names(s: hupai_core::Shapes) -> Vec<&'static str> {
    [
        (s.standard, "standard"),
        (s.seven_pairs, "seven_pairs"),
        (s.seven_pairs_quads, "seven_pairs_quads"),
        (s.thirteen_orphans, "thirteen_orphans"),
        (s.honors_knitted, "honors_knitted"),
        (s.knitted_straight, "knitted_straight"),
    ]
    .into_iter()
    .filter(|x| x.0)
    .map(|x| x.1)
    .collect()
}

fn py_literal(v: &SwitchValue) -> String {
    match v {
        SwitchValue::Bool(true) => "True".into(),
        SwitchValue::Bool(false) => "False".into(),
        SwitchValue::Int(i) => i.to_string(),
        SwitchValue::Str(s) => format!("'{s}'"),
    }
}

/// Every built-in preset (the registry, ``hupai_core::rules::REGISTRY``): a list of dicts with
/// ``id``, ``name``, ``name_en``, ``description``, ``players``, ``input`` (``"tiles"`` or
/// ``"zipai"``), ``shapes`` and ``switches`` (each ``{name, description, default, values, min, max,
/// conflicts}``, as in ``Variant.describe()``).
#[pyfunction]
pub fn variants<'py>(py: Python<'py>) -> BindResult<Vec<Bound<'py, PyDict>>> {
    let mut out = Vec::new();
    for id in preset::preset_ids() {
        let p = preset::preset(id)?;
        let v = crate::request::variant_by_id(id)?;
        let d = PyDict::new(py);
        d.set_item("id", &p.id)?;
        d.set_item("name", &p.name)?;
        d.set_item("name_en", &p.name_en)?;
        d.set_item("description", &p.description)?;
        d.set_item("players", p.players)?;
        d.set_item("input", v.ruleset().input())?;
        d.set_item("shapes", v.ruleset().shapes().map(shape_names))?;
        let sw = serde_json::to_value(&p.switches)
            .map_err(|e| BindError::Py(RuleConfigError::new_err(e.to_string())))?;
        d.set_item("switches", json_to_py(py, &sw)?)?;
        out.push(d);
    }
    Ok(out)
}

/// Analyse a card game's hand (the preset's analyser, ``hupai-core`` ``Ruleset::analyse``): the
/// type of a selection and its legal answers (斗地主), a play checked against another and whether
/// it can be burned (够级), the placements against the line's ends (顶牛).
///
/// ``hand``, ``play`` and ``against`` are written in the game's notation; ``against`` is the move
/// on the table (顶牛: the open ends ``"[3|5]"``). Returns a dict: ``variant``, ``hand``, ``play``,
/// ``against`` (each ``{text, cards, zh, readings}`` or ``None``), ``checks`` (``{id, ok,
/// label}``), ``lists`` (``{id, title, total, truncated, items: [{text, cards, label}]}``) and
/// ``pieces`` (every piece of the game: ``{name, zh}``). A preset without an analyser raises
/// ``RuleConfigError``; bad cards raise ``InvalidTileError`` / ``InvalidHandError``.
#[pyfunction]
#[pyo3(signature = (variant, hand, /, play = None, against = None))]
pub fn analyse<'py>(
    py: Python<'py>,
    variant: &Bound<'py, PyAny>,
    hand: Text,
    play: Option<Text>,
    against: Option<Text>,
) -> BindResult<Bound<'py, PyAny>> {
    let v = crate::score::variant_from_py(Some(variant))?;
    let mut m = serde_json::Map::new();
    m.insert("hand".into(), serde_json::Value::String(hand.0));
    for (k, x) in [("play", play), ("against", against)] {
        if let Some(t) = x {
            m.insert(k.into(), serde_json::Value::String(t.0));
        }
    }
    let q = hupai_core::rules::analysis::Query::from_json(&serde_json::Value::Object(m))?;
    let out = py.detach(move || v.ruleset().analyse(&q).map(|a| a.to_json_value()))?;
    Ok(json_to_py(py, &out)?)
}
