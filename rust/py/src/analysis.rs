//! Hand analysis for Python: `is_winning`, `shanten`, `shanten_forms`, `waits`, `useful_tiles`,
//! `discard_options`, the `Shapes` option object and the wildcard-aware `decompose`.

use hupai_core::analysis::{self, FormShanten, Plan};
use hupai_core::decompose::Shapes;
use hupai_core::hand::{self, Meld};
use hupai_core::tile::{self, Counts, N_KINDS};
use hupai_core::{Error as CoreError, Tile};
use hupai_core::{rows, tables};
use pyo3::prelude::*;

use crate::convert::{Seq, Text};
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::convert::AnyInt;
use crate::errors::{BindResult, hand_err};
use crate::hand::{PyHand, decomposition_to_py};
use crate::tiles::tiles_from_py;

/// Which win shapes are allowed (common.md §3). ``Shapes()`` allows every shape (the default of
/// every analysis function); ``Shapes.STANDARD`` only 4 sets + a pair; or name them:
/// ``Shapes(seven_pairs=False)``, ``Shapes.of("standard", "seven_pairs")``.
///
/// ``seven_pairs_quads``: four identical tiles may count as two of the seven pairs.
#[pyclass(
    frozen,
    eq,
    hash,
    from_py_object,
    module = "hupai._core",
    name = "Shapes"
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyShapes {
    pub(crate) inner: Shapes,
}

const SHAPE_NAMES: [&str; 6] = [
    "standard",
    "seven_pairs",
    "seven_pairs_quads",
    "thirteen_orphans",
    "honors_knitted",
    "knitted_straight",
];

fn shape_flags(s: &Shapes) -> [bool; 6] {
    [
        s.standard,
        s.seven_pairs,
        s.seven_pairs_quads,
        s.thirteen_orphans,
        s.honors_knitted,
        s.knitted_straight,
    ]
}

#[pymethods]
impl PyShapes {
    #[new]
    #[pyo3(signature = (*, standard = true, seven_pairs = true, seven_pairs_quads = true,
        thirteen_orphans = true, honors_knitted = true, knitted_straight = true))]
    fn new(
        standard: bool,
        seven_pairs: bool,
        seven_pairs_quads: bool,
        thirteen_orphans: bool,
        honors_knitted: bool,
        knitted_straight: bool,
    ) -> Self {
        Self {
            inner: Shapes {
                standard,
                seven_pairs,
                seven_pairs_quads,
                thirteen_orphans,
                honors_knitted,
                knitted_straight,
            },
        }
    }

    /// Only the named shapes (``"standard"``, ``"seven_pairs"``, ``"seven_pairs_quads"``,
    /// ``"thirteen_orphans"``, ``"honors_knitted"``, ``"knitted_straight"``).
    #[staticmethod]
    #[pyo3(signature = (*names))]
    fn of(names: Seq<Text>) -> BindResult<Self> {
        shapes_from_names(&names.0.into_iter().map(|t| t.0).collect::<Vec<_>>())
    }

    /// Every shape (七对 with quads as two pairs).
    #[classattr]
    #[allow(non_snake_case)]
    fn ALL() -> Self {
        Self { inner: Shapes::ALL }
    }
    /// Only 4 sets + a pair.
    #[classattr]
    #[allow(non_snake_case)]
    fn STANDARD() -> Self {
        Self {
            inner: Shapes::STANDARD,
        }
    }

    #[getter]
    fn standard(&self) -> bool {
        self.inner.standard
    }
    #[getter]
    fn seven_pairs(&self) -> bool {
        self.inner.seven_pairs
    }
    #[getter]
    fn seven_pairs_quads(&self) -> bool {
        self.inner.seven_pairs_quads
    }
    #[getter]
    fn thirteen_orphans(&self) -> bool {
        self.inner.thirteen_orphans
    }
    #[getter]
    fn honors_knitted(&self) -> bool {
        self.inner.honors_knitted
    }
    #[getter]
    fn knitted_straight(&self) -> bool {
        self.inner.knitted_straight
    }
    /// The allowed shape names.
    fn names(&self) -> Vec<&'static str> {
        SHAPE_NAMES
            .iter()
            .zip(shape_flags(&self.inner))
            .filter(|(_, on)| *on)
            .map(|(n, _)| *n)
            .collect()
    }
    fn __repr__(&self) -> String {
        let args: Vec<String> = SHAPE_NAMES
            .iter()
            .zip(shape_flags(&self.inner))
            .filter(|(_, on)| !*on)
            .map(|(n, _)| format!("{n}=False"))
            .collect();
        format!("Shapes({})", args.join(", "))
    }
}

pub(crate) fn shapes_from_names(names: &[String]) -> BindResult<PyShapes> {
    let mut s = Shapes {
        standard: false,
        seven_pairs: false,
        seven_pairs_quads: false,
        thirteen_orphans: false,
        honors_knitted: false,
        knitted_straight: false,
    };
    for n in names {
        match n.as_str() {
            "standard" => s.standard = true,
            "seven_pairs" => s.seven_pairs = true,
            "seven_pairs_quads" => {
                s.seven_pairs = true;
                s.seven_pairs_quads = true;
            }
            "thirteen_orphans" => s.thirteen_orphans = true,
            "honors_knitted" => s.honors_knitted = true,
            "knitted_straight" => s.knitted_straight = true,
            "all" => s = Shapes::ALL,
            other => {
                return Err(CoreError::rule(format!(
                    "unknown shape {other:?} (expected one of {})",
                    SHAPE_NAMES.join(", ")
                ))
                .into());
            }
        }
    }
    Ok(PyShapes { inner: s })
}

/// `shapes=` keyword: `None` (every shape), a `Shapes`, or a name / sequence of names.
pub fn shapes_from_py(obj: Option<&Bound<'_, PyAny>>) -> BindResult<Shapes> {
    let Some(obj) = obj else {
        return Ok(Shapes::ALL);
    };
    if let Ok(s) = obj.cast::<PyShapes>() {
        return Ok(s.get().inner);
    }
    if obj.is_none() {
        return Ok(Shapes::ALL);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(shapes_from_names(&[crate::convert::text(s, "shapes")?.to_owned()])?.inner);
    }
    let mut names = Vec::new();
    if let Ok(it) = obj.try_iter() {
        for item in it {
            let item = item?;
            let Ok(s) = item.cast::<PyString>() else {
                return Err(CoreError::rule("shapes must be a hupai.Shapes or shape names").into());
            };
            names.push(crate::convert::text(s, "shapes")?.to_owned());
        }
        return Ok(shapes_from_names(&names)?.inner);
    }
    Err(CoreError::rule("shapes must be a hupai.Shapes or shape names").into())
}

pub fn wildcards_from_py(w: AnyInt) -> BindResult<u8> {
    w.within("wildcards", 0, i64::from(analysis::MAX_WILDCARDS), hand_err)
}

/// A hand as the analysis needs it: standing counts, meld count, and the tiles the player owns.
pub struct HandInput {
    pub counts: Counts,
    pub melds: usize,
    /// Meld tiles, added to `counts` for the "seen" vector; `None` when there are no melds.
    pub meld_counts: Option<Counts>,
    /// The melds themselves (filled for strings, and for a `Hand` only when asked for).
    pub meld_list: Vec<Meld>,
}

impl HandInput {
    fn from_parts(standing: &[Tile], melds: Vec<Meld>) -> BindResult<Self> {
        let counts = tile::to_counts(standing)?;
        let mut mc = [0u8; N_KINDS];
        for m in &melds {
            m.add_to(&mut mc);
        }
        let mut all = counts;
        for (a, b) in all.iter_mut().zip(mc) {
            *a += b;
        }
        hand::check_copies(&all)?;
        Ok(HandInput {
            counts,
            melds: melds.len(),
            meld_counts: (!melds.is_empty()).then_some(mc),
            meld_list: melds,
        })
    }

    /// Own tiles (standing + melds) plus `visible`.
    pub fn seen(&self, visible: Option<&Counts>) -> BindResult<Counts> {
        let mut s = self.counts;
        if let Some(mc) = &self.meld_counts {
            for (a, b) in s.iter_mut().zip(mc) {
                *a += b;
            }
        }
        if let Some(v) = visible {
            for (i, (a, b)) in s.iter_mut().zip(v).enumerate() {
                *a += b;
                if *a > 4 {
                    return Err(hand_err(format!(
                        "{} copies of {} between the hand and the visible tiles (there are only four)",
                        *a,
                        Tile::new_unchecked(i as u8)
                    )));
                }
            }
        }
        Ok(s)
    }
}

/// A `Hand`, a string (any notation, bracket melds, `+` tile) or a list of tiles. Unlike `Hand`, any
/// `3n+1` / `3n+2` size is accepted here (missing sets count as declared).
pub fn hand_input(obj: &Bound<'_, PyAny>) -> BindResult<HandInput> {
    hand_input_opt(obj, false)
}

/// [`hand_input`]; `with_melds` also copies a `Hand`'s melds (decompositions need them; the other
/// calls only need their count and tiles, so a prebuilt `Hand` costs no allocation).
pub fn hand_input_opt(obj: &Bound<'_, PyAny>, with_melds: bool) -> BindResult<HandInput> {
    if let Ok(h) = obj.cast::<PyHand>() {
        let h = &h.get().inner;
        let melds = h.melds();
        let meld_counts = (!melds.is_empty()).then(|| {
            let mut mc = [0u8; N_KINDS];
            for m in melds {
                m.add_to(&mut mc);
            }
            mc
        });
        return Ok(HandInput {
            counts: *h.counts(),
            melds: melds.len(),
            meld_counts,
            meld_list: if with_melds {
                melds.to_vec()
            } else {
                Vec::new()
            },
        });
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return hand_input_str(crate::convert::text(s, "hand")?);
    }
    HandInput::from_parts(&tiles_from_py(obj)?, Vec::new())
}

/// [`hand_input`] of a hand string in any notation.
pub fn hand_input_str(text: &str) -> BindResult<HandInput> {
    if let Some(counts) = analysis::parse_counts_fast(text) {
        return Ok(HandInput {
            counts,
            melds: 0,
            meld_counts: None,
            meld_list: Vec::new(),
        });
    }
    let (mut standing, melds, win) = hand::parse_notation(text)?;
    standing.extend(win);
    HandInput::from_parts(&standing, melds)
}

/// `visible=`: tiles (string / list) or a sequence of 34 counts.
fn visible_from_py(obj: Option<&Bound<'_, PyAny>>) -> BindResult<Option<Counts>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    // 34 counts: a sequence of ints (its length is checked before anything is copied).
    let seq = obj.cast::<pyo3::types::PyList>().is_ok()
        || obj.cast::<pyo3::types::PyTuple>().is_ok()
        || obj.cast::<pyo3::types::PyRange>().is_ok();
    if seq {
        match obj.extract::<crate::convert::Seq<crate::convert::AnyInt>>() {
            Ok(v) => {
                let v: Vec<i64> = v.iter().map(|c| c.0).collect();
                return Ok(Some(crate::tiles::counts_from_seq(&v)?));
            }
            Err(e) if e.is_instance_of::<crate::errors::HupaiError>(obj.py()) => {
                return Err(e.into());
            }
            Err(_) => {}
        }
    }
    Ok(Some(tile::to_counts(&tiles_from_py(obj)?)?))
}

/// Interned canonical tile names (`"1m"` … `"P"`).
fn tile_str(py: Python<'_>, t: Tile) -> Bound<'_, PyString> {
    static NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
    NAMES.get_or_init(py, || {
        (0..N_KINDS as u8)
            .map(|i| PyString::intern(py, &Tile::new_unchecked(i).to_string()).unbind())
            .collect()
    })[t.idx()]
    .bind(py)
    .clone()
}

fn plan(h: &HandInput, wildcards: u8) -> BindResult<Plan> {
    Ok(Plan::new(&h.counts, wildcards, h.melds)?)
}

/// Whether the hand is complete (a waiting 3n+1 hand never is).
///
/// ``hand``: a ``Hand``, a string in any notation (``"[EEE,1]123m456p78s99s+9s"``) or a list of
/// tiles; a hand given without melds but with fewer tiles counts its missing sets as declared.
/// ``wildcards``: number of wildcard tiles in the hand *besides* the given tiles (each stands for
/// any tile). ``shapes``: allowed shapes (default: all).
#[pyfunction]
#[pyo3(signature = (hand, /, *, shapes = None, wildcards = AnyInt(0)))]
#[pyo3(text_signature = "(hand, /, *, shapes=None, wildcards=0)")]
pub fn is_winning(
    hand: &Bound<'_, PyAny>,
    shapes: Option<&Bound<'_, PyAny>>,
    wildcards: AnyInt,
) -> BindResult<bool> {
    let h = hand_input(hand)?;
    let w = wildcards_from_py(wildcards)?;
    let shapes = shapes_from_py(shapes)?;
    let r = rows::Row::of(&h.counts);
    let p = Plan::from_len(r.tiles() as usize, w, h.melds)?;
    Ok(p.complete && rows::is_winning(tables::tables(), &r, w, p.sets, shapes))
}

/// Shanten number: −1 complete, 0 ready (听牌), n = n tiles away from ready; the minimum over the
/// allowed shapes.
#[pyfunction]
#[pyo3(signature = (hand, /, *, shapes = None, wildcards = AnyInt(0)))]
#[pyo3(text_signature = "(hand, /, *, shapes=None, wildcards=0)")]
pub fn shanten(
    hand: &Bound<'_, PyAny>,
    shapes: Option<&Bound<'_, PyAny>>,
    wildcards: AnyInt,
) -> BindResult<i8> {
    let h = hand_input(hand)?;
    let w = wildcards_from_py(wildcards)?;
    shanten_of_input(&h, w, shapes_from_py(shapes)?)
}

/// The body of [`shanten`] (also the service's hot path).
pub(crate) fn shanten_of_input(h: &HandInput, w: u8, shapes: Shapes) -> BindResult<i8> {
    let r = rows::Row::of(&h.counts);
    let p = Plan::from_len(r.tiles() as usize, w, h.melds)?;
    p.check_fits(shapes)?;
    let d = rows::min_distance(tables::tables(), &r, p.sets, shapes);
    Ok(d.saturating_sub(w) as i8 - 1)
}

/// The shanten of each form of `f` that fits the hand, by its name in the API.
pub(crate) fn fitting_forms(f: FormShanten) -> impl Iterator<Item = (&'static str, i8)> {
    [
        ("standard", f.standard),
        ("seven_pairs", f.seven_pairs),
        ("thirteen_orphans", f.thirteen_orphans),
        ("honors_knitted", f.honors_knitted),
        ("knitted_straight", f.knitted_straight),
    ]
    .into_iter()
    .filter_map(|(name, v)| v.map(|v| (name, v)))
}

/// Shanten of each allowed shape that fits the hand size, plus ``"min"``.
#[pyfunction]
#[pyo3(signature = (hand, /, *, shapes = None, wildcards = AnyInt(0)))]
#[pyo3(text_signature = "(hand, /, *, shapes=None, wildcards=0)")]
pub fn shanten_forms<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    shapes: Option<&Bound<'py, PyAny>>,
    wildcards: AnyInt,
) -> BindResult<Bound<'py, PyDict>> {
    let h = hand_input(hand)?;
    let w = wildcards_from_py(wildcards)?;
    let f = analysis::shanten_forms(&h.counts, w, h.melds, shapes_from_py(shapes)?)?;
    let d = PyDict::new(py);
    for (name, v) in fitting_forms(f) {
        d.set_item(name, v)?;
    }
    d.set_item("min", f.min)?;
    Ok(d)
}

/// Tiles that complete a waiting (3n+1) hand, as canonical strings in canonical order.
///
/// Kinds of which no copy is left are dropped: four in the hand (standing + melds), or, with
/// ``visible`` (tiles or 34 counts: discards, other players' melds …), four between both.
#[pyfunction]
#[pyo3(signature = (hand, /, *, shapes = None, wildcards = AnyInt(0), visible = None))]
#[pyo3(text_signature = "(hand, /, *, shapes=None, wildcards=0, visible=None)")]
pub fn waits<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    shapes: Option<&Bound<'py, PyAny>>,
    wildcards: AnyInt,
    visible: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyList>> {
    let h = hand_input(hand)?;
    let w = wildcards_from_py(wildcards)?;
    let shapes = shapes_from_py(shapes)?;
    let mask = waits_of_input(&h, w, shapes, || visible_from_py(visible))?;
    Ok(PyList::new(
        py,
        analysis::mask_tiles(mask).map(|t| tile_str(py, t)),
    )?)
}

/// The body of [`waits`] (also the service's hot path): the waits as a tile mask.
pub(crate) fn waits_of_input(
    h: &HandInput,
    w: u8,
    shapes: Shapes,
    visible: impl FnOnce() -> BindResult<Option<Counts>>,
) -> BindResult<u64> {
    let p = plan(h, w)?;
    p.check_fits(shapes)?;
    if p.complete {
        return Err(hand_err(
            "waits needs a waiting hand (3n+1 tiles); this one has 3n+2: use discard_options",
        ));
    }
    let vis = visible()?;
    let seen = if vis.is_some() || h.meld_counts.is_some() {
        Some(h.seen(vis.as_ref())?)
    } else {
        None
    };
    Ok(analysis::waits_planned(
        &h.counts,
        w,
        p.sets,
        shapes,
        seen.as_ref(),
    ))
}

fn useful_list<'py>(py: Python<'py>, useful: &[analysis::Useful]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for u in useful {
        out.append(PyTuple::new(
            py,
            [
                tile_str(py, u.tile).into_any(),
                u.remaining.into_pyobject(py)?.into_any(),
            ],
        )?)?;
    }
    Ok(out)
}

/// Tiles whose draw lowers the shanten of a waiting (3n+1) hand, as ``(tile, unseen copies)``
/// pairs in canonical order; kinds with no unseen copy are dropped (see ``waits`` for ``visible``).
#[pyfunction]
#[pyo3(signature = (hand, /, *, shapes = None, wildcards = AnyInt(0), visible = None))]
#[pyo3(text_signature = "(hand, /, *, shapes=None, wildcards=0, visible=None)")]
pub fn useful_tiles<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    shapes: Option<&Bound<'py, PyAny>>,
    wildcards: AnyInt,
    visible: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyList>> {
    let h = hand_input(hand)?;
    let w = wildcards_from_py(wildcards)?;
    let seen = h.seen(visible_from_py(visible)?.as_ref())?;
    let (_, useful) =
        analysis::useful_tiles(&h.counts, w, h.melds, shapes_from_py(shapes)?, Some(&seen))?;
    Ok(useful_list(py, &useful)?)
}

/// Every discard of a 3n+2 hand, best first, as dicts ``{"discard", "shanten", "useful",
/// "total"}`` (``useful`` as in ``useful_tiles``, ``total`` = unseen useful copies). Order: lowest
/// shanten, most unseen useful tiles, most useful kinds, tile order. Wildcards are never discarded.
#[pyfunction]
#[pyo3(signature = (hand, /, *, shapes = None, wildcards = AnyInt(0), visible = None))]
#[pyo3(text_signature = "(hand, /, *, shapes=None, wildcards=0, visible=None)")]
pub fn discard_options<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    shapes: Option<&Bound<'py, PyAny>>,
    wildcards: AnyInt,
    visible: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyList>> {
    let h = hand_input(hand)?;
    let w = wildcards_from_py(wildcards)?;
    let seen = h.seen(visible_from_py(visible)?.as_ref())?;
    let opts =
        analysis::discard_options(&h.counts, w, h.melds, shapes_from_py(shapes)?, Some(&seen))?;
    let out = PyList::empty(py);
    for o in &opts {
        let d = PyDict::new(py);
        d.set_item("discard", tile_str(py, o.tile))?;
        d.set_item("shanten", o.shanten)?;
        d.set_item("useful", useful_list(py, &o.useful)?)?;
        d.set_item("total", o.total)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Every decomposition of a complete hand, as dicts with ``form``, ``sets``, ``pair``, ``pairs``,
/// ``knitted`` and ``wildcards`` (what each wildcard stands for, sorted).
///
/// ``wildcards``: wildcard tiles in the hand besides the given ones (14 = given + wildcards + 3 per
/// meld). Unlike the other analysis calls, the hand must be a full 14-tile hand.
#[pyfunction]
#[pyo3(signature = (hand, /, *, shapes = None, wildcards = AnyInt(0)))]
#[pyo3(text_signature = "(hand, /, *, shapes=None, wildcards=0)")]
pub fn decompose<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    shapes: Option<&Bound<'py, PyAny>>,
    wildcards: AnyInt,
) -> BindResult<Vec<Bound<'py, PyAny>>> {
    let h = hand_input_opt(hand, true)?;
    let w = wildcards_from_py(wildcards)?;
    let shapes = shapes_from_py(shapes)?;
    let n: usize = h.counts.iter().map(|&c| c as usize).sum::<usize>() + w as usize;
    if n + 3 * h.melds != 14 {
        return Err(hand_err(format!(
            "decompose needs a complete hand: {} standing tiles (wildcards included) with {} \
             meld(s), got {n}",
            14 - 3 * h.melds.min(4),
            h.melds
        )));
    }
    let ds = hupai_core::wild::decompose_wild(&h.counts, w, &h.meld_list, shapes)?;
    Ok(ds
        .iter()
        .map(|d| decomposition_to_py(py, d))
        .collect::<PyResult<_>>()?)
}
