//! 字牌 bindings: `ZipaiCard` and the `zipai_*` functions re-exported by `hupai.zipai`.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use hupai_core::Variant;
use hupai_core::error::Error as CoreError;
use hupai_core::rules::zipai::{
    self, Card, CardCounts, Decomposition, HandSpec, Meld, MeldType, N_CARDS, WinType, ZipaiRules,
    card,
};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::convert::json_to_py;
use crate::convert::{AnyInt, Text};
use crate::errors::{BindError, BindResult, hand_err};
use crate::variant::PyVariant;

/// One 字牌 card: ``Card("x3")`` (small 三), ``Card("d10")`` (big 拾), ``Card("柒")``.
///
/// Frozen, hashable, ordered (small 一..十, then big 壹..拾) and picklable.
#[pyclass(
    frozen,
    eq,
    hash,
    ord,
    from_py_object,
    module = "hupai._core",
    name = "ZipaiCard"
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyZipaiCard {
    pub(crate) inner: Card,
}

#[pymethods]
impl PyZipaiCard {
    #[new]
    #[pyo3(signature = (card, /))]
    fn new(card: &Bound<'_, PyAny>) -> BindResult<Self> {
        Ok(Self {
            inner: card_from_py(card)?,
        })
    }
    /// The card of index 0..20 (0..10 small 一..十, 10..20 big 壹..拾).
    #[staticmethod]
    fn from_index(index: crate::convert::AnyInt) -> BindResult<Self> {
        u8::try_from(index.0)
            .ok()
            .and_then(Card::from_index)
            .map(|inner| Self { inner })
            .ok_or_else(|| {
                CoreError::tile(index.0.to_string(), "card index must be in 0..20").into()
            })
    }
    #[getter]
    fn index(&self) -> u8 {
        self.inner.index()
    }
    /// Rank 1..10.
    #[getter]
    fn rank(&self) -> u8 {
        self.inner.rank()
    }
    /// ``"small"`` (小字) or ``"big"`` (大字).
    #[getter]
    fn size(&self) -> &'static str {
        if self.inner.is_big() { "big" } else { "small" }
    }
    #[getter]
    fn is_big(&self) -> bool {
        self.inner.is_big()
    }
    /// 红: 二七十 / 贰柒拾.
    #[getter]
    fn is_red(&self) -> bool {
        self.inner.is_red()
    }
    /// ``"一"`` .. ``"十"``, ``"壹"`` .. ``"拾"``.
    #[getter]
    fn chinese(&self) -> String {
        self.inner.chinese().to_string()
    }
    /// Canonical code, ``"x1"`` .. ``"d10"``.
    #[getter]
    fn code(&self) -> String {
        self.inner.to_string()
    }
    fn __str__(&self) -> String {
        self.inner.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Card('{}')", self.inner)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, pyo3::types::PyType>, (String,))> {
        Ok((slf.get_type(), (slf.get().inner.to_string(),)))
    }
}

fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<object>".into())
}

/// One card from a `ZipaiCard` or a string of exactly one card.
pub fn card_from_py(obj: &Bound<'_, PyAny>) -> BindResult<Card> {
    if let Ok(c) = obj.cast::<PyZipaiCard>() {
        return Ok(c.get().inner);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Card::parse(crate::convert::text(s, "cards")?)?);
    }
    Err(CoreError::tile(
        repr(obj),
        "expected a 字牌 card string such as 'x3' or 'd10', or a Card",
    )
    .into())
}

/// Cards from a string (any notation) or a list/tuple of card strings / `ZipaiCard`s.
pub fn cards_from_py(obj: &Bound<'_, PyAny>) -> BindResult<Vec<Card>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(zipai::parse_cards(crate::convert::text(s, "cards")?)?);
    }
    if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        let mut out = Vec::new();
        for item in obj.try_iter()? {
            let item = item?;
            if let Ok(c) = item.cast::<PyZipaiCard>() {
                out.push(c.get().inner);
            } else if let Ok(s) = item.cast::<PyString>() {
                out.extend(zipai::parse_cards(crate::convert::text(s, "cards")?)?);
            } else {
                return Err(CoreError::tile(
                    repr(&item),
                    "list items must be card strings or Card",
                )
                .into());
            }
        }
        return Ok(out);
    }
    Err(CoreError::tile(
        repr(obj),
        "expected cards as a string ('x2x7x10 d1d2d3') or a list of cards",
    )
    .into())
}

/// Concealed cards that may include jokers (`"K"`, 王, 鬼): the cards and the joker count.
pub fn hand_cards_from_py(obj: &Bound<'_, PyAny>) -> BindResult<(Vec<Card>, u8)> {
    let mut cards = Vec::new();
    let mut jokers = 0usize;
    if let Ok(s) = obj.cast::<PyString>() {
        let (c, j) = zipai::parse_hand_cards(crate::convert::text(s, "cards")?)?;
        return Ok((c, j));
    }
    if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        for item in obj.try_iter()? {
            let item = item?;
            if let Ok(c) = item.cast::<PyZipaiCard>() {
                cards.push(c.get().inner);
            } else if let Ok(s) = item.cast::<PyString>() {
                let (c, j) = zipai::parse_hand_cards(crate::convert::text(s, "cards")?)?;
                cards.extend(c);
                jokers += usize::from(j);
            } else {
                return Err(CoreError::tile(
                    repr(&item),
                    "list items must be card strings (or \"K\" for a joker) or Card",
                )
                .into());
            }
        }
        let jokers = u8::try_from(jokers)
            .ok()
            .filter(|&j| j <= 4)
            .ok_or_else(|| hand_err(format!("{jokers} jokers: a deck has at most 4")))?;
        return Ok((cards, jokers));
    }
    Err(CoreError::tile(
        repr(obj),
        "expected cards as a string ('x2x7x10 d1d2d3') or a list of cards",
    )
    .into())
}

fn opt_cards(obj: Option<&Bound<'_, PyAny>>) -> BindResult<Vec<Card>> {
    match obj {
        Some(o) if !o.is_none() => cards_from_py(o),
        _ => Ok(Vec::new()),
    }
}

/// A meld from ``{"type": "peng", "tiles": [...]}`` (also ``"cards"``), ``("peng", "x5x5x5")`` or
/// ``"peng:x5x5x5"``.
fn meld_from_py(obj: &Bound<'_, PyAny>) -> BindResult<Meld> {
    if let Ok(d) = obj.cast::<PyDict>() {
        let ty: String = d
            .get_item("type")?
            .ok_or_else(|| hand_err("a meld dict needs a \"type\" key"))?
            .extract()?;
        let cards = d
            .get_item("tiles")?
            .or(d.get_item("cards")?)
            .ok_or_else(|| hand_err("a meld dict needs a \"tiles\" (or \"cards\") key"))?;
        return Ok(Meld::new(MeldType::parse(&ty)?, cards_from_py(&cards)?)?);
    }
    if let Ok(t) = obj.cast::<PyTuple>()
        && t.len() == 2
    {
        let ty: String = t.get_item(0)?.extract()?;
        return Ok(Meld::new(
            MeldType::parse(&ty)?,
            cards_from_py(&t.get_item(1)?)?,
        )?);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let s = crate::convert::text(s, "cards")?;
        if let Some((ty, cards)) = s.split_once(':') {
            return Ok(Meld::new(MeldType::parse(ty)?, zipai::parse_cards(cards)?)?);
        }
    }
    Err(hand_err(format!(
        "meld {}: expected {{\"type\": ..., \"tiles\": ...}}, (type, cards) or \"type:cards\"",
        repr(obj)
    )))
}

fn melds_from_py(obj: Option<&Bound<'_, PyAny>>) -> BindResult<Vec<Meld>> {
    let mut out = Vec::new();
    if let Some(o) = obj.filter(|o| !o.is_none()) {
        if o.cast::<PyString>().is_ok() || o.cast::<PyDict>().is_ok() {
            return Err(hand_err("melds must be a list"));
        }
        for m in o.try_iter()? {
            out.push(meld_from_py(&m?)?);
        }
    }
    Ok(out)
}

/// Preset ids loaded with default switches, compiled once.
static LOADED: LazyLock<Mutex<HashMap<String, Arc<Variant>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

fn load_cached(id: &str) -> BindResult<Arc<Variant>> {
    let mut m = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(v) = m.get(id) {
        return Ok(v.clone());
    }
    let v = Arc::new(Variant::load(id)?);
    m.insert(id.to_string(), v.clone());
    Ok(v)
}

/// The variant: a `Variant` object or a preset id (default `zipai_guilin`).
fn variant_arg(obj: Option<&Bound<'_, PyAny>>) -> BindResult<Arc<Variant>> {
    match obj {
        Some(v) if !v.is_none() => variant_from_py(v),
        _ => load_cached("zipai_guilin"),
    }
}

/// The variant: a `Variant` object or a preset id.
fn variant_from_py(obj: &Bound<'_, PyAny>) -> BindResult<Arc<Variant>> {
    if let Ok(v) = obj.cast::<PyVariant>() {
        return Ok(v.get().inner.clone());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return load_cached(crate::convert::text(s, "variant")?);
    }
    Err(BindError::Core(CoreError::rule(format!(
        "variant must be a preset id or a hupai.Variant, got {}",
        repr(obj)
    ))))
}

fn rules_of(v: &Variant) -> BindResult<ZipaiRules> {
    Ok(zipai::rules_of(v)?.clone())
}

/// A split in the one decomposition shape (sets with the group's kind, cards, 胡息).
fn decomposition_json(d: &Decomposition, hunan: bool) -> Value {
    zipai::ruleset::decomposition_json(d, hunan)
}

fn win_type_from(s: &str) -> BindResult<WinType> {
    Ok(WinType::parse(s)?)
}

#[allow(clippy::too_many_arguments)]
fn spec_from(
    concealed: &Bound<'_, PyAny>,
    win_card: Option<&Bound<'_, PyAny>>,
    melds: Option<&Bound<'_, PyAny>>,
    win_type: &str,
    passed_peng: Option<&Bound<'_, PyAny>>,
) -> BindResult<HandSpec> {
    let wt = win_type_from(win_type)?;
    let (concealed, jokers) = hand_cards_from_py(concealed)?;
    Ok(HandSpec {
        concealed,
        jokers,
        win: match win_card {
            Some(w) if !w.is_none() => Some(card_from_py(w)?),
            _ => None,
        },
        melds: melds_from_py(melds)?,
        source: Some(wt.source()),
        passed_peng: opt_cards(passed_peng)?,
    })
}

/// Parse 字牌 cards (codes ``x1``..``x10``/``d1``..``d10`` or Chinese 一..十/壹..拾).
#[pyfunction]
#[pyo3(signature = (cards, /))]
pub fn zipai_parse_cards(cards: &Bound<'_, PyAny>) -> BindResult<Vec<PyZipaiCard>> {
    Ok(cards_from_py(cards)?
        .into_iter()
        .map(|inner| PyZipaiCard { inner })
        .collect())
}

/// Canonical sorted notation (``"x1 x2 x3 d10"``) or Chinese (``"一二三拾"``).
#[pyfunction]
#[pyo3(signature = (cards, /, *, chinese = false))]
pub fn zipai_format_cards(cards: &Bound<'_, PyAny>, chinese: bool) -> BindResult<String> {
    Ok(zipai::format_cards(&cards_from_py(cards)?, chinese))
}

/// 20-count list (small 一..十 then big 壹..拾); more than four copies is an error.
#[pyfunction]
#[pyo3(signature = (cards, /))]
pub fn zipai_to_counts(cards: &Bound<'_, PyAny>) -> BindResult<Vec<u32>> {
    Ok(card::to_counts(&cards_from_py(cards)?)?
        .iter()
        .map(|&c| u32::from(c))
        .collect())
}

fn counts_from(values: &[i64]) -> BindResult<CardCounts> {
    if values.len() != N_CARDS {
        return Err(hand_err(format!(
            "a 字牌 count vector has 20 entries, got {}",
            values.len()
        )));
    }
    let mut c = [0u8; N_CARDS];
    for (i, &v) in values.iter().enumerate() {
        if !(0..=4).contains(&v) {
            return Err(hand_err(format!(
                "count {v} at index {i} is out of range 0..=4"
            )));
        }
        c[i] = v as u8;
    }
    Ok(c)
}

/// Cards (canonical order) of a 20-count sequence.
#[pyfunction]
#[pyo3(signature = (counts, /))]
pub fn zipai_from_counts(
    counts: crate::convert::Seq<crate::convert::AnyInt>,
) -> BindResult<Vec<PyZipaiCard>> {
    let counts: Vec<i64> = counts.iter().map(|c| c.0).collect();
    Ok(card::from_counts(&counts_from(&counts)?)
        .into_iter()
        .map(|inner| PyZipaiCard { inner })
        .collect())
}

/// The 胡息-best decomposition as a dict, or ``None`` when the hand is not complete.
#[pyfunction]
#[pyo3(signature = (concealed, /, win_card = None, melds = None, *, win_type = Text::from("discard"), passed_peng = None, variant = None))]
pub fn zipai_decompose<'py>(
    py: Python<'py>,
    concealed: &Bound<'py, PyAny>,
    win_card: Option<&Bound<'py, PyAny>>,
    melds: Option<&Bound<'py, PyAny>>,
    win_type: Text,
    passed_peng: Option<&Bound<'py, PyAny>>,
    variant: Option<&Bound<'py, PyAny>>,
) -> BindResult<Option<Bound<'py, PyAny>>> {
    let v = variant_arg(variant)?;
    let r = rules_of(&v)?;
    let spec = spec_from(concealed, win_card, melds, &win_type, passed_peng)?;
    let d = py.detach(|| zipai::best_decomposition(&r, &spec))?;
    Ok(match d {
        Some(d) => Some(json_to_py(py, &decomposition_json(&d, r.hunan_names))?),
        None => None,
    })
}

/// Best 胡息 over all readings and splits (no groups built), ``None`` when not complete.
#[pyfunction]
#[pyo3(signature = (concealed, /, win_card = None, melds = None, *, win_type = Text::from("discard"), passed_peng = None, variant = None))]
pub fn zipai_huxi<'py>(
    py: Python<'py>,
    concealed: &Bound<'py, PyAny>,
    win_card: Option<&Bound<'py, PyAny>>,
    melds: Option<&Bound<'py, PyAny>>,
    win_type: Text,
    passed_peng: Option<&Bound<'py, PyAny>>,
    variant: Option<&Bound<'py, PyAny>>,
) -> BindResult<Option<i32>> {
    let v = variant_arg(variant)?;
    let r = zipai::rules_of(&v)?;
    let spec = spec_from(concealed, win_card, melds, &win_type, passed_peng)?;
    let _ = py;
    Ok(zipai::best_huxi(r, &spec)?)
}

/// Cards completing the hand, with the best 胡息 of each win (``[{"card", "huxi"}]``).
#[pyfunction]
#[pyo3(signature = (concealed, /, melds = None, *, win_type = Text::from("discard"), passed_peng = None, variant = None, reach_min = true))]
pub fn zipai_waits<'py>(
    py: Python<'py>,
    concealed: &Bound<'py, PyAny>,
    melds: Option<&Bound<'py, PyAny>>,
    win_type: Text,
    passed_peng: Option<&Bound<'py, PyAny>>,
    variant: Option<&Bound<'py, PyAny>>,
    reach_min: bool,
) -> BindResult<Bound<'py, PyAny>> {
    let v = variant_arg(variant)?;
    let r = rules_of(&v)?;
    let spec = spec_from(concealed, None, melds, &win_type, passed_peng)?;
    let ws = py.detach(|| zipai::waits(&r, &spec, reach_min))?;
    let val: Vec<Value> = ws
        .iter()
        .map(|w| json!({"card": w.card.to_string(), "huxi": w.huxi}))
        .collect();
    Ok(json_to_py(py, &Value::Array(val))?)
}

fn batch_rows(counts: &PyReadonlyArray2<'_, u8>) -> BindResult<Vec<CardCounts>> {
    let a = counts.as_array();
    if a.ncols() != N_CARDS {
        return Err(hand_err(format!(
            "batch input must have shape (N, 20), got (N, {})",
            a.ncols()
        )));
    }
    Ok(a.rows()
        .into_iter()
        .map(|r| {
            let mut c = [0u8; N_CARDS];
            for (i, &x) in r.iter().enumerate() {
                c[i] = x;
            }
            c
        })
        .collect())
}

fn batch_eval(r: &ZipaiRules, rows: &[CardCounts]) -> BindResult<Vec<i32>> {
    let res: Result<Vec<i32>, CoreError> = rows
        .par_iter()
        .map(|c| Ok(zipai::best_huxi_counts(r, c)?.unwrap_or(-1)))
        .collect();
    Ok(res?)
}

/// Best 胡息 of each fully concealed hand (rows of 20 counts, 4 = 扫穿, 3 = 坎); -1 where the row
/// does not split into groups. Releases the GIL and runs in parallel.
#[pyfunction]
#[pyo3(signature = (counts, /, variant = None))]
pub fn zipai_batch_huxi<'py>(
    py: Python<'py>,
    counts: PyReadonlyArray2<'py, u8>,
    variant: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyArray1<i32>>> {
    let v = variant_arg(variant)?;
    let r = rules_of(&v)?;
    let rows = batch_rows(&counts)?;
    let out = py.detach(|| batch_eval(&r, &rows))?;
    Ok(out.into_pyarray(py))
}

/// Whether each row is a complete hand reaching the variant's minimum 胡息.
#[pyfunction]
#[pyo3(signature = (counts, /, variant = None))]
pub fn zipai_batch_is_winning<'py>(
    py: Python<'py>,
    counts: PyReadonlyArray2<'py, u8>,
    variant: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyArray1<bool>>> {
    let v = variant_arg(variant)?;
    let r = rules_of(&v)?;
    let rows = batch_rows(&counts)?;
    let out = py.detach(|| batch_eval(&r, &rows))?;
    let min = r.min_huxi;
    Ok(out
        .into_iter()
        .map(|h| h >= 0 && h >= min)
        .collect::<Vec<bool>>()
        .into_pyarray(py))
}

/// Legal 吃 of ``card`` with free hand cards ``hand`` (坎 excluded), each with its 比 groups.
#[pyfunction]
#[pyo3(signature = (hand, card, /))]
pub fn zipai_chi_options<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    card: &Bound<'py, PyAny>,
) -> BindResult<Bound<'py, PyAny>> {
    let h = card::to_counts(&cards_from_py(hand)?)?;
    let x = card_from_py(card)?;
    let opts = zipai::chi_options(&h, x);
    let s = |g: &[Card; 3]| g.iter().map(ToString::to_string).collect::<Vec<_>>();
    let val: Vec<Value> = opts
        .iter()
        .map(|o| json!({"group": s(&o.group), "type": o.kind.id(), "bi": o.bi.iter().map(s).collect::<Vec<_>>()}))
        .collect();
    Ok(json_to_py(py, &Value::Array(val))?)
}

/// 胡息 of one meld (``"chi"``, ``"peng"``, ``"wei"``/``"sao"``, ``"pao"``/``"kaiduo"``,
/// ``"ti"``/``"saochuan"``, ``"kan"``, ``"chouwei"``/``"guosao"``).
#[pyfunction]
#[pyo3(signature = (meld_type, cards, /, variant = None))]
pub fn zipai_group_huxi(
    meld_type: Text,
    cards: &Bound<'_, PyAny>,
    variant: Option<&Bound<'_, PyAny>>,
) -> BindResult<i32> {
    let v = variant_arg(variant)?;
    let r = rules_of(&v)?;
    let m = Meld::new(MeldType::parse(&meld_type)?, cards_from_py(cards)?)?;
    let g = zipai::Group {
        kind: m.kind,
        cards: m.cards,
        exposed: false,
        has_win_card: false,
        huxi: 0,
        jokers: Vec::new(),
    };
    Ok(r.value(g.kind, g.value_big()))
}

/// 舵 (Guangxi) / 囤 (Hunan) of a 胡息 total under a variant (0 below the minimum).
#[pyfunction]
#[pyo3(signature = (huxi, /, variant = None))]
pub fn zipai_duo(
    huxi: crate::convert::AnyInt,
    variant: Option<&Bound<'_, PyAny>>,
) -> BindResult<i64> {
    let huxi: i32 = huxi.within("huxi", 0, 100_000, hand_err)?;
    let v = variant_arg(variant)?;
    Ok(rules_of(&v)?.duo(huxi))
}

/// What a player may / must do with ``card`` from ``source`` (``self_draw`` = his own draw,
/// ``other_draw``, ``discard``): ``hu`` (胡息 or ``None``), mandatory ``saochuan``/``sao``/``guosao``/
/// ``kaiduo``, optional ``peng`` and ``chi`` (with 比 groups).
#[pyfunction]
#[pyo3(signature = (concealed, card, /, melds = None, *, source = Text::from("discard"), may_chi = true, chou = false, passed_peng = None, variant = None, chou_chi = None, chou_peng = None))]
#[allow(clippy::too_many_arguments)]
pub fn zipai_claims<'py>(
    py: Python<'py>,
    concealed: &Bound<'py, PyAny>,
    card: &Bound<'py, PyAny>,
    melds: Option<&Bound<'py, PyAny>>,
    source: Text,
    may_chi: bool,
    chou: bool,
    passed_peng: Option<&Bound<'py, PyAny>>,
    variant: Option<&Bound<'py, PyAny>>,
    chou_chi: Option<bool>,
    chou_peng: Option<bool>,
) -> BindResult<Bound<'py, PyAny>> {
    let v = variant_arg(variant)?;
    let r = zipai::rules_of(&v)?;
    let wt = win_type_from(&source)?;
    if !matches!(
        wt,
        WinType::SelfDraw | WinType::OtherDraw | WinType::Discard
    ) {
        return Err(hand_err(format!(
            "claims: source must be self_draw, other_draw or discard, got {source:?}"
        )));
    }
    let spec = spec_from(concealed, None, melds, &source, passed_peng)?;
    let x = card_from_py(card)?;
    let chou = zipai::Chou {
        chi: chou_chi.unwrap_or(chou),
        peng: chou_peng.unwrap_or(chou),
    };
    let c = zipai::claims_with(r, &spec, x, wt.source(), may_chi, chou)?;
    let s = |g: &[Card; 3]| g.iter().map(ToString::to_string).collect::<Vec<_>>();
    let val = json!({
        "hu": c.hu,
        "saochuan": c.saochuan,
        "sao": c.sao,
        "guosao": c.guosao,
        "kaiduo": c.kaiduo,
        "peng": c.peng,
        "chi": c.chi.iter().map(|o| json!({"group": s(&o.group), "type": o.kind.id(), "bi": o.bi.iter().map(s).collect::<Vec<_>>()})).collect::<Vec<_>>(),
    });
    Ok(json_to_py(py, &val)?)
}

/// The flow's discard decision (core ``zipai::discard_check``): ``{"discards": [...], "xianggong":
/// None | reason}`` for a player who must discard now.
#[pyfunction]
#[pyo3(signature = (concealed, /, melds = None, *, check_count = true))]
pub fn zipai_discard_check<'py>(
    py: Python<'py>,
    concealed: &Bound<'py, PyAny>,
    melds: Option<&Bound<'py, PyAny>>,
    check_count: bool,
) -> BindResult<Bound<'py, PyAny>> {
    let spec = spec_from(concealed, None, melds, "tianhu", None)?;
    let c = zipai::discard_check(&spec, check_count)?;
    let val = json!({
        "discards": c.discards.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "xianggong": c.xianggong,
    });
    Ok(json_to_py(py, &val)?)
}

/// Whether dealt cards make 三龙五坎 (3 fours or 5 triplets; jokers do not count).
#[pyfunction]
#[pyo3(signature = (concealed, /))]
pub fn zipai_is_sanlong_wukan(concealed: &Bound<'_, PyAny>) -> BindResult<bool> {
    let (cards, _) = hand_cards_from_py(concealed)?;
    Ok(zipai::is_sanlong_wukan(&card::to_counts(&cards)?))
}

/// The dealer of the next hand (core ``zipai::next_dealer``): the winner, or after a 荒庄 the
/// same dealer / his 下家 (switch ``dealer_after_draw``).
#[pyfunction]
#[pyo3(signature = (dealer, winner, /, variant = None, players = AnyInt(3)))]
pub fn zipai_next_dealer(
    dealer: AnyInt,
    winner: Option<AnyInt>,
    variant: Option<&Bound<'_, PyAny>>,
    players: AnyInt,
) -> BindResult<u8> {
    let dealer: u8 = dealer.within("dealer", 0, 9, hand_err)?;
    let winner: Option<u8> = winner
        .map(|w| w.within("winner", 0, 9, hand_err))
        .transpose()?;
    let players: u8 = players.within("players", 2, 9, hand_err)?;
    let v = variant_arg(variant)?;
    Ok(zipai::next_dealer(
        zipai::rules_of(&v)?,
        dealer,
        winner,
        players,
    )?)
}
