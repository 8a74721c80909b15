//! 顶牛 bindings: `DingniuRules`, `DingniuGame` and the `dingniu_*` functions re-exported by
//! `hupai.dingniu`. Strings in, strings out (tile codes `"56"`, moves `"16:R"`).

use hupai_core::rules::dingniu::round::{Action, Carry, Round, openings, replay, turn_actions};
use hupai_core::rules::dingniu::settle::{check_order, net, plain_lines, rank, zhang_lines};
use hupai_core::rules::dingniu::tile::{
    self as dtile, Counts, Ends, FULL_SET, N_KINDS, Placement, Side, Tile, counts_of, placements,
};
use hupai_core::rules::dingniu::zhang::{self, Position, ZhangCheck};
use hupai_core::rules::dingniu::{Bot, DingniuRules, N_ACTION_IDS, ZhangOutcome, rng};
use numpy::{IntoPyArray, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::convert::Tup;
use crate::convert::{AnyInt, json_to_py};
use crate::convert::{Seq, Text};
use crate::errors::{BindError, BindResult, hand_err};

/// Interned Python strings of every action name (by flat id) and tile code.
fn action_py(py: Python<'_>, a: Action) -> Bound<'_, PyString> {
    static NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
    NAMES.get_or_init(py, || {
        (0..N_ACTION_IDS as u8)
            .map(|i| {
                let name = Action::from_id(i).map_or_else(String::new, |a| a.to_string());
                PyString::intern(py, &name).unbind()
            })
            .collect()
    })[a.id() as usize]
        .bind(py)
        .clone()
}

fn tile_py(py: Python<'_>, t: Tile) -> Bound<'_, PyString> {
    static CODES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
    CODES.get_or_init(py, || {
        Tile::ALL
            .iter()
            .map(|t| PyString::intern(py, t.code()).unbind())
            .collect()
    })[t.index()]
    .bind(py)
    .clone()
}

fn actions_py<'py>(py: Python<'py>, list: &[Action]) -> Vec<Bound<'py, PyString>> {
    list.iter().map(|&a| action_py(py, a)).collect()
}

/// One tile from a str (`"56"`, `"65"`, `"虎头"`).
fn tile_arg(v: &Bound<'_, PyAny>) -> BindResult<Tile> {
    let s = v.cast::<PyString>().map_err(|_| {
        BindError::Py(pyo3::exceptions::PyTypeError::new_err(format!(
            "a 顶牛 tile is a str such as \"56\", not {}",
            v.get_type()
        )))
    })?;
    Ok(Tile::parse(crate::convert::text(s, "tile")?)?)
}

/// A hand from a str (`"66 56 46"`) or a sequence of tile strs.
fn hand_arg(v: &Bound<'_, PyAny>) -> BindResult<Counts> {
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(counts_of(&dtile::parse_hand(crate::convert::text(
            s, "hand",
        )?)?)?);
    }
    let mut tiles = Vec::new();
    let it = v.try_iter().map_err(|_| {
        BindError::Py(pyo3::exceptions::PyTypeError::new_err(format!(
            "a hand is a str (\"66 56 46\") or a list of tile strs, not {}",
            v.get_type()
        )))
    })?;
    for x in it {
        tiles.push(tile_arg(&x?)?);
    }
    Ok(counts_of(&tiles)?)
}

/// Four hands (seat 0..3); together they may not hold more copies than the set.
fn hands_arg(v: &Bound<'_, PyAny>) -> BindResult<[Counts; 4]> {
    if v.cast::<PyString>().is_ok() || v.cast::<PyDict>().is_ok() {
        return Err(BindError::Py(pyo3::exceptions::PyTypeError::new_err(
            "hands is a list of four hands (each a str or a list of tiles)",
        )));
    }
    // at most five items are read: a `len()` or an iterator that claims more is not pre-allocated
    let items: Vec<Bound<'_, PyAny>> = v
        .try_iter()
        .map_err(|_| {
            BindError::Py(pyo3::exceptions::PyTypeError::new_err(
                "hands is a list of four hands",
            ))
        })?
        .take(5)
        .collect::<PyResult<_>>()?;
    if items.len() != 4 {
        return Err(hand_err(format!(
            "hands: four hands are needed (seat 0 = 头牌 … 3 = 末牌), got {}",
            if items.len() > 4 {
                "more".to_string()
            } else {
                items.len().to_string()
            }
        )));
    }
    let mut out = [[0u8; N_KINDS]; 4];
    let mut total = [0u8; N_KINDS];
    for (s, h) in items.iter().enumerate() {
        out[s] = hand_arg(h).map_err(|e| match e {
            BindError::Core(c) => BindError::Core(c.context(&format!("hands[{s}]"))),
            other => other,
        })?;
        for i in 0..N_KINDS {
            total[i] += out[s][i];
        }
    }
    if let Some(t) = Tile::ALL.iter().find(|t| total[t.index()] > t.copies()) {
        return Err(hand_err(format!(
            "hands: {} copies of {} ({}) in all; the set has {}",
            total[t.index()],
            t.code(),
            t.name(),
            t.copies()
        )));
    }
    Ok(out)
}

fn pip_arg(v: i64, what: &str) -> BindResult<u8> {
    if (1..=6).contains(&v) {
        Ok(v as u8)
    } else {
        Err(hand_err(format!(
            "{what}: an open end is a pip 1-6, got {v}"
        )))
    }
}

fn ends_arg(ends: (AnyInt, AnyInt)) -> BindResult<Ends> {
    Ok(Ends(
        pip_arg(ends.0.0, "ends[0]")?,
        pip_arg(ends.1.0, "ends[1]")?,
    ))
}

fn seat_arg(v: AnyInt, what: &str) -> BindResult<u8> {
    v.within(what, 0, 3, |m| hand_err(format!("{m} (seats are 0..3)")))
}

fn side_arg(s: &str) -> BindResult<Side> {
    Ok(Side::parse(s)?)
}

fn placement_arg(ends: Ends, tile: &Bound<'_, PyAny>, side: &str) -> BindResult<Placement> {
    let t = tile_arg(tile)?;
    let side = side_arg(side)?;
    let new = ends.place(t, side).ok_or_else(|| {
        hand_err(format!(
            "{t} does not fit the {} end of {ends}",
            side.letter()
        ))
    })?;
    Ok(Placement {
        tile: t,
        side,
        ends: new,
    })
}

/// `(tile, side, ends_after)`.
type PlacementTuple<'py> = (Bound<'py, PyString>, &'static str, (u8, u8));

fn ends_tuple(e: Ends) -> (u8, u8) {
    (e.0, e.1)
}

fn kou_counts_arg(kou: Option<Seq<AnyInt>>) -> BindResult<[u8; 4]> {
    let Some(k) = kou else { return Ok([0; 4]) };
    if k.len() != 4 {
        return Err(hand_err(
            "kou: four numbers of tiles turned down (one per seat)",
        ));
    }
    let mut out = [0u8; 4];
    for (i, v) in k.into_iter().enumerate() {
        out[i] = v.within(&format!("kou[{i}]"), 0, 6, hand_err)?;
    }
    Ok(out)
}

fn order_arg(order: Option<Seq<AnyInt>>) -> BindResult<[u8; 4]> {
    match order {
        None => Ok([0, 1, 2, 3]),
        Some(v) => {
            let s: Vec<u8> = v
                .into_iter()
                .map(|x| u8::try_from(x.0).unwrap_or(u8::MAX))
                .collect();
            Ok(check_order(&s)?)
        }
    }
}

fn points_arg(points: Vec<AnyInt>, what: &str) -> BindResult<[i64; 4]> {
    if points.len() != 4 {
        return Err(hand_err(format!("{what}: four numbers, one per seat")));
    }
    let mut out = [0i64; 4];
    for (i, v) in points.into_iter().enumerate() {
        out[i] = v.within(&format!("{what}[{i}]"), 0, 177, hand_err)?;
    }
    Ok(out)
}

/// The compiled rules of a 顶牛 variant: ``DingniuRules("dingniu", silan=False)``.
///
/// Unknown switches, bad values and conflicts raise ``RuleConfigError``. Frozen; build once and
/// reuse.
#[pyclass(frozen, module = "hupai._core", name = "DingniuRules")]
pub struct PyDingniuRules {
    pub(crate) inner: DingniuRules,
    id: String,
    options: Vec<(String, Value)>,
}

#[pymethods]
impl PyDingniuRules {
    #[new]
    #[pyo3(signature = (variant = Text::from("dingniu"), **switches))]
    fn new(variant: Text, switches: Option<&Bound<'_, PyDict>>) -> BindResult<Self> {
        let ov = crate::variant::overrides(switches)?;
        let (inner, opts) = DingniuRules::load_with_options(&variant, ov)?;
        let options = opts
            .iter()
            .map(|(k, v)| {
                let j = match v {
                    hupai_core::preset::SwitchValue::Bool(b) => json!(b),
                    hupai_core::preset::SwitchValue::Int(i) => json!(i),
                    hupai_core::preset::SwitchValue::Str(s) => json!(s),
                };
                (k.clone(), j)
            })
            .collect();
        Ok(Self {
            inner,
            id: variant.to_string(),
            options,
        })
    }
    /// The preset id.
    #[getter]
    fn variant(&self) -> &str {
        &self.id
    }
    /// Every switch with its resolved value.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.options {
            d.set_item(k, json_to_py(py, v)?)?;
        }
        Ok(d)
    }
    /// The preset data: identity, switches (default, allowed values, description), params.
    fn describe<'py>(&self, py: Python<'py>) -> BindResult<Bound<'py, PyAny>> {
        let p = hupai_core::rules::dingniu::rules::preset(&self.id)?;
        let v = serde_json::to_value(p).map_err(|e| hand_err(e.to_string()))?;
        Ok(json_to_py(py, &v)?)
    }
    fn __repr__(&self) -> String {
        let changed: Vec<String> = self
            .options
            .iter()
            .filter(|(k, v)| {
                hupai_core::rules::dingniu::rules::preset(&self.id)
                    .ok()
                    .and_then(|p| p.switch(k))
                    .map(|s| {
                        let d = match &s.default {
                            hupai_core::preset::SwitchValue::Bool(b) => json!(b),
                            hupai_core::preset::SwitchValue::Int(i) => json!(i),
                            hupai_core::preset::SwitchValue::Str(s) => json!(s),
                        };
                        &d != v
                    })
                    .unwrap_or(false)
            })
            .map(|(k, v)| format!(", {k}={v}"))
            .collect();
        format!("DingniuRules({:?}{})", self.id, changed.join(""))
    }
}

/// The 24-tile set: per kind its code, names, pips, copies, class.
#[pyfunction]
pub fn dingniu_tile_set<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    let kinds: Vec<Value> = Tile::ALL
        .iter()
        .map(|t| {
            json!({"code": t.code(), "name": t.name(), "paijiu": t.info().paijiu,
                   "ends": [t.lo(), t.hi()], "pips": t.pips(), "copies": t.copies(),
                   "double": t.is_double(), "red": t.is_red(), "five": t.is_five()})
        })
        .collect();
    let removed: Vec<Value> = dtile::REMOVED
        .iter()
        .map(|(c, n)| json!({"code": c, "name": n}))
        .collect();
    json_to_py(
        py,
        &json!({"kinds": kinds, "count": 24, "total_pips": dtile::TOTAL_PIPS, "removed": removed}),
    )
}

/// Parse a hand (str or list of tile strs) into normalised codes, keeping the order.
#[pyfunction]
pub fn dingniu_parse_hand(hand: &Bound<'_, PyAny>) -> BindResult<Vec<&'static str>> {
    let tiles = if let Ok(s) = hand.cast::<PyString>() {
        dtile::parse_hand(crate::convert::text(s, "hand")?)?
    } else {
        let mut v = Vec::new();
        for x in hand.try_iter().map_err(|_| {
            BindError::Py(pyo3::exceptions::PyTypeError::new_err(
                "a hand is a str or a list of tile strs",
            ))
        })? {
            v.push(tile_arg(&x?)?);
        }
        counts_of(&v)?;
        v
    };
    Ok(tiles.into_iter().map(Tile::code).collect())
}

/// The normalised code of one tile.
#[pyfunction]
pub fn dingniu_tile(tile: &Bound<'_, PyAny>) -> BindResult<&'static str> {
    Ok(tile_arg(tile)?.code())
}

/// The ends after laying `tile` on `side`, or None if it does not fit there.
#[pyfunction]
pub fn dingniu_place(
    ends: Tup<(AnyInt, AnyInt)>,
    tile: &Bound<'_, PyAny>,
    side: Text,
) -> BindResult<Option<(u8, u8)>> {
    let e = ends_arg(ends.0)?;
    Ok(e.place(tile_arg(tile)?, side_arg(&side)?).map(ends_tuple))
}

/// Every legal placement `(tile, side, ends_after)` of a hand.
#[pyfunction]
pub fn dingniu_placements<'py>(
    py: Python<'py>,
    ends: Tup<(AnyInt, AnyInt)>,
    hand: &Bound<'py, PyAny>,
) -> BindResult<Vec<PlacementTuple<'py>>> {
    let e = ends_arg(ends.0)?;
    let h = hand_arg(hand)?;
    Ok(placements(e, &h)
        .iter()
        .map(|p| (tile_py(py, p.tile), p.side.letter(), ends_tuple(p.ends)))
        .collect())
}

/// The legal moves of a hand after the opening: its placements, else `kou t` for each kind.
#[pyfunction]
pub fn dingniu_turn_actions<'py>(
    py: Python<'py>,
    ends: Tup<(AnyInt, AnyInt)>,
    hand: &Bound<'py, PyAny>,
) -> BindResult<Vec<Bound<'py, PyString>>> {
    let e = ends_arg(ends.0)?;
    let h = hand_arg(hand)?;
    Ok(actions_py(py, turn_actions(e, &h).as_slice()))
}

/// The 头牌's allowed openings (H1, H2).
#[pyfunction]
#[pyo3(signature = (rules, hands, toupai = AnyInt(0)))]
pub fn dingniu_openings(
    rules: &PyDingniuRules,
    hands: &Bound<'_, PyAny>,
    toupai: AnyInt,
) -> BindResult<Vec<String>> {
    let hs = hands_arg(hands)?;
    let t = seat_arg(toupai, "toupai")?;
    if dtile::count(&hs[t as usize]) == 0 {
        return Err(hand_err(format!("the 头牌 (seat {t}) holds no tile")));
    }
    Ok(openings(&rules.inner, &hs, t)
        .as_slice()
        .iter()
        .map(ToString::to_string)
        .collect())
}

fn places_json(p: &hupai_core::rules::dingniu::Places) -> Value {
    json!({"winner": p.winner, "da_zhuang": p.da_zhuang, "er_zhuang": p.er_zhuang, "xiao_zhuang": p.xiao_zhuang})
}

/// Places and payments of a hand played out, from the 扣 pips.
#[pyfunction]
#[pyo3(signature = (rules, points, play_order = None))]
pub fn dingniu_settle<'py>(
    py: Python<'py>,
    rules: &PyDingniuRules,
    points: Seq<AnyInt>,
    play_order: Option<Seq<AnyInt>>,
) -> BindResult<Bound<'py, PyAny>> {
    let pts = points_arg(points.0, "points")?;
    let pl = rank(&pts, &order_arg(play_order)?);
    let mut v = places_json(&pl);
    v["pay"] = json!(net(&plain_lines(&rules.inner, &pl)));
    Ok(json_to_py(py, &v)?)
}

/// Settlement of a 算帐 by `by`, from the counts (hand + 扣 pips).
#[pyfunction]
#[pyo3(signature = (rules, counts, by, play_order = None))]
pub fn dingniu_zhang_settle<'py>(
    py: Python<'py>,
    rules: &PyDingniuRules,
    counts: Seq<AnyInt>,
    by: AnyInt,
    play_order: Option<Seq<AnyInt>>,
) -> BindResult<Bound<'py, PyAny>> {
    let pts = points_arg(counts.0, "counts")?;
    let by = seat_arg(by, "by")?;
    let pl = rank(&pts, &order_arg(play_order)?);
    let (o, lines) = zhang_lines(&rules.inner, &pl, by, None);
    let mut v = places_json(&pl);
    v["success"] = json!(o == ZhangOutcome::Success);
    v["pay"] = json!(net(&lines));
    Ok(json_to_py(py, &v)?)
}

fn check_json(c: &ZhangCheck, p: &Placement) -> Value {
    json!({
        "zhang": c.kind.map(|k| k.zh()),
        "deliberate": c.kind.map(|_| c.deliberate),
        "ends": [p.ends.0, p.ends.1],
        "smothered": c.smothered.iter().map(|s| json!({"tile": s.tile.code(), "holder": s.holder})).collect::<Vec<_>>(),
        "toupai_jingshou": c.toupai_jingshou,
        "suanzhang": c.counted,
    })
}

fn position_args(
    ends: Tup<(AnyInt, AnyInt)>,
    hands: &Bound<'_, PyAny>,
    toupai: AnyInt,
    kou: Option<Seq<AnyInt>>,
) -> BindResult<Position> {
    Ok(Position {
        ends: ends_arg(ends.0)?,
        hands: hands_arg(hands)?,
        kou_count: kou_counts_arg(kou)?,
        toupai: seat_arg(toupai, "toupai")?,
    })
}

/// The 算帐 verdict on `seat` laying `tile` on `side` (§6.1–6.4).
#[pyfunction]
#[pyo3(signature = (rules, ends, hands, seat, tile, side, toupai = AnyInt(0), kou = None))]
#[allow(clippy::too_many_arguments)]
pub fn dingniu_zhang_check<'py>(
    py: Python<'py>,
    rules: &PyDingniuRules,
    ends: Tup<(AnyInt, AnyInt)>,
    hands: &Bound<'_, PyAny>,
    seat: AnyInt,
    tile: &Bound<'_, PyAny>,
    side: Text,
    toupai: AnyInt,
    kou: Option<Seq<AnyInt>>,
) -> BindResult<Bound<'py, PyAny>> {
    let pos = position_args(ends, hands, toupai, kou)?;
    let x = seat_arg(seat, "seat")?;
    let p = placement_arg(pos.ends, tile, &side)?;
    if pos.hands[x as usize][p.tile.index()] == 0 {
        return Err(hand_err(format!("seat {x} does not hold {}", p.tile)));
    }
    let c = zhang::check(&rules.inner, &pos, x, &p);
    Ok(json_to_py(py, &check_json(&c, &p))?)
}

/// 死拦红帐 (§6.6): the placements of `seat` (the 上家) after which `next_seat` could make no
/// 红帐, and whether laying `tile:side` makes him liable if the 红帐 succeeds.
#[pyfunction]
#[pyo3(signature = (rules, ends, hands, seat, next_seat, tile, side, toupai = AnyInt(0), kou = None))]
#[allow(clippy::too_many_arguments)]
pub fn dingniu_silan<'py>(
    py: Python<'py>,
    rules: &PyDingniuRules,
    ends: Tup<(AnyInt, AnyInt)>,
    hands: &Bound<'_, PyAny>,
    seat: AnyInt,
    next_seat: AnyInt,
    tile: &Bound<'_, PyAny>,
    side: Text,
    toupai: AnyInt,
    kou: Option<Seq<AnyInt>>,
) -> BindResult<Bound<'py, PyAny>> {
    let pos = position_args(ends, hands, toupai, kou)?;
    let y = seat_arg(seat, "seat")?;
    let x = seat_arg(next_seat, "next_seat")?;
    if x == y {
        return Err(hand_err("next_seat must differ from seat"));
    }
    let played = placement_arg(pos.ends, tile, &side)?;
    if pos.hands[y as usize][played.tile.index()] == 0 {
        return Err(hand_err(format!("seat {y} does not hold {}", played.tile)));
    }
    let prev = zhang::silan_preventing(&rules.inner, &pos, y, x);
    let same = pos.ends.0 == pos.ends.1;
    let liable = !prev.is_empty()
        && !prev
            .iter()
            .any(|p| p.tile == played.tile && (p.side == played.side || same));
    let v = json!({
        "preventing_placements": prev.iter().map(|p| json!({"tile": p.tile.code(), "side": p.side.letter(), "ends": [p.ends.0, p.ends.1]})).collect::<Vec<_>>(),
        "silan_if_hongzhang_succeeds": liable,
    });
    Ok(json_to_py(py, &v)?)
}

/// Legal-action masks for many positions at once: `ends` (N, 2) uint8 pips, `hands` (N, 13)
/// uint8 copies per kind (kind order of the tile set) → (N, 58) bool over the flat action ids
/// (lay 0..26, 扣 26..39; openings are not generated). GIL released, all cores.
#[pyfunction]
pub fn dingniu_batch_legal<'py>(
    py: Python<'py>,
    ends: PyReadonlyArray2<'py, u8>,
    hands: PyReadonlyArray2<'py, u8>,
) -> BindResult<Bound<'py, PyArray2<bool>>> {
    let (e, h) = (ends.as_array(), hands.as_array());
    if e.ncols() != 2 || h.ncols() != N_KINDS || e.nrows() != h.nrows() {
        return Err(hand_err(format!(
            "expected ends of shape (N, 2) and hands of shape (N, 13), got {:?} and {:?}",
            e.shape(),
            h.shape()
        )));
    }
    let n = e.nrows();
    let mut rows: Vec<(Ends, Counts)> = Vec::with_capacity(n);
    for i in 0..n {
        let (l, r) = (e[[i, 0]], e[[i, 1]]);
        if !(1..=6).contains(&l) || !(1..=6).contains(&r) {
            return Err(hand_err(format!(
                "row {i}: ends ({l}, {r}) must be pips 1-6"
            )));
        }
        let mut c = [0u8; N_KINDS];
        for k in 0..N_KINDS {
            c[k] = h[[i, k]];
            if c[k] > FULL_SET[k] {
                return Err(hand_err(format!(
                    "row {i}: {} copies of {}; the set has {}",
                    c[k],
                    Tile::ALL[k].code(),
                    FULL_SET[k]
                )));
            }
        }
        rows.push((Ends(l, r), c));
    }
    let out: Vec<bool> = py.detach(move || {
        let mut out = vec![false; n * N_ACTION_IDS];
        out.par_chunks_mut(N_ACTION_IDS)
            .zip(rows.par_iter())
            .for_each(|(o, (e, c))| {
                for a in turn_actions(*e, c).as_slice() {
                    o[a.id() as usize] = true;
                }
            });
        out
    });
    let arr = out.into_pyarray(py);
    arr.reshape([n, N_ACTION_IDS]).map_err(BindError::Py)
}

fn seed_arg(seed: AnyInt) -> BindResult<u64> {
    seed.within("seed", 0, i64::MAX, hand_err)
}

/// One hand of 顶牛 (the core's state machine). See ``hupai.dingniu.Game``.
#[pyclass(module = "hupai._core", name = "DingniuGame")]
pub struct PyDingniuGame {
    inner: Round,
}

fn opt_seat_json(v: Option<&Bound<'_, PyAny>>, what: &str) -> BindResult<Option<u8>> {
    match v {
        None => Ok(None),
        Some(x) if x.is_none() => Ok(None),
        Some(x) => Ok(Some(seat_arg(x.extract::<AnyInt>()?, what)?)),
    }
}

#[pymethods]
impl PyDingniuGame {
    #[new]
    #[pyo3(signature = (rules, hands = None, seed = None, toupai = None, carry = None))]
    fn new(
        rules: &PyDingniuRules,
        hands: Option<&Bound<'_, PyAny>>,
        seed: Option<AnyInt>,
        toupai: Option<AnyInt>,
        carry: Option<&Bound<'_, PyDict>>,
    ) -> BindResult<Self> {
        let toupai = toupai.map(|t| seat_arg(t, "toupai")).transpose()?;
        if let Some(h) = hands {
            if seed.is_some() || carry.is_some() {
                return Err(hand_err(
                    "give either hands (and toupai) or seed (and carry), not both",
                ));
            }
            let hs = hands_arg(h)?;
            return Ok(Self {
                inner: Round::from_hands(rules.inner, hs, toupai.unwrap_or(0))?,
            });
        }
        let mut c = Carry {
            toupai,
            ..Carry::default()
        };
        if let Some(d) = carry {
            for (k, v) in d.iter() {
                let key: String = k.extract()?;
                match key.as_str() {
                    "toupai" => c.toupai = c.toupai.or(opt_seat_json(Some(&v), "carry toupai")?),
                    "prev_winner" => c.prev_winner = opt_seat_json(Some(&v), "carry prev_winner")?,
                    "prev_da_zhuang" => {
                        c.prev_da_zhuang = opt_seat_json(Some(&v), "carry prev_da_zhuang")?
                    }
                    other => {
                        return Err(hand_err(format!(
                            "carry: unknown key {other:?}; keys: toupai, prev_winner, prev_da_zhuang"
                        )));
                    }
                }
            }
        }
        let seed = match seed {
            Some(s) => seed_arg(s)?,
            None => 0,
        };
        Ok(Self {
            inner: Round::new(rules.inner, seed, c)?,
        })
    }

    /// The seat to act, None when the hand is over.
    #[getter]
    fn to_act(&self) -> Option<u8> {
        self.inner.to_act()
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    #[getter]
    fn toupai(&self) -> u8 {
        self.inner.toupai()
    }
    /// Seats in playing order from the 头牌.
    #[getter]
    fn order(&self) -> [u8; 4] {
        self.inner.order()
    }
    /// The open ends, None before the opening.
    #[getter]
    fn ends(&self) -> Option<(u8, u8)> {
        self.inner.ends().map(ends_tuple)
    }
    /// A seat's tiles (full information; an agent should use ``observation``).
    fn hand(&self, seat: AnyInt) -> BindResult<Vec<&'static str>> {
        let s = seat_arg(seat, "seat")?;
        Ok(dtile::tiles_of(self.inner.hand(s))
            .into_iter()
            .map(Tile::code)
            .collect())
    }
    /// The legal moves of `seat` (default: the seat to act) in notation.
    #[pyo3(signature = (seat = None))]
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
        seat: Option<AnyInt>,
    ) -> BindResult<Vec<Bound<'py, PyString>>> {
        let s = match seat {
            Some(s) => seat_arg(s, "seat")?,
            None => match self.inner.to_act() {
                Some(s) => s,
                None => return Ok(Vec::new()),
            },
        };
        Ok(actions_py(py, self.inner.legal_actions(s).as_slice()))
    }
    /// The legal moves of the seat to act as flat action ids.
    fn legal_ids(&self) -> Vec<u8> {
        match self.inner.to_act() {
            Some(s) => self
                .inner
                .legal_actions(s)
                .as_slice()
                .iter()
                .map(|a| a.id())
                .collect(),
            None => Vec::new(),
        }
    }
    /// Play a move of the seat to act (``"46"``, ``"44+44"``, ``"16:R"``, ``"kou 11"``; a bare
    /// tile that fits one way only). Returns the new events. An illegal move raises
    /// ``InvalidHandError`` and changes nothing.
    fn step<'py>(&mut self, py: Python<'py>, action: Text) -> BindResult<Bound<'py, PyList>> {
        let a = self.inner.parse_action(&action)?;
        self.apply(py, a)
    }
    /// Play a move given by its flat action id.
    fn step_id<'py>(
        &mut self,
        py: Python<'py>,
        action_id: AnyInt,
    ) -> BindResult<Bound<'py, PyList>> {
        let id: u8 = action_id.within("action_id", 0, N_ACTION_IDS as i64 - 1, hand_err)?;
        let a = Action::from_id(id)
            .ok_or_else(|| hand_err(format!("action id {id} names no action")))?;
        self.apply(py, a)
    }
    /// The move a built-in bot (``"random"`` or ``"greedy"``) would make for the seat to act.
    #[pyo3(signature = (bot = Text::from("greedy"), seed = AnyInt(0)))]
    fn bot_action<'py>(
        &self,
        py: Python<'py>,
        bot: Text,
        seed: AnyInt,
    ) -> BindResult<Option<Bound<'py, PyString>>> {
        let b = Bot::parse(&bot)?;
        let Some(s) = self.inner.to_act() else {
            return Ok(None);
        };
        let mut r = rng::Rng::new(seed_arg(seed)?);
        Ok(b.act(&self.inner.observe(s), &mut r)
            .map(|a| action_py(py, a)))
    }
    /// What `seat` may see: own hand and 扣, the line, ends, sizes, legal moves, result.
    fn observation<'py>(&self, py: Python<'py>, seat: AnyInt) -> BindResult<Bound<'py, PyAny>> {
        let s = seat_arg(seat, "seat")?;
        Ok(json_to_py(py, &self.inner.observation_json(s))?)
    }
    /// The event log (JSON-serialisable dicts; ``replay`` rebuilds the hand from it).
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &Value::Array(self.inner.events_json()))
    }
    /// The result (places, points, payments, 算帐), None while playing.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.inner.outcome() {
            Some(o) => json_to_py(py, &o.to_json()),
            None => Ok(py.None().into_bound(py)),
        }
    }
    /// What carries to the next hand (None while playing).
    fn carry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.inner.carry() {
            Some(c) => json_to_py(py, &c.to_json()),
            None => Ok(py.None().into_bound(py)),
        }
    }
    /// The settlement as a ledger (seats, events, balances) with these four seat names.
    #[pyo3(signature = (seats = None))]
    fn ledger<'py>(
        &self,
        py: Python<'py>,
        seats: Option<Seq<Text>>,
    ) -> BindResult<Bound<'py, PyAny>> {
        let names: Vec<String> = seats
            .map(|s| s.0.into_iter().map(|t| t.0).collect())
            .unwrap_or_else(|| (0..4).map(|i| i.to_string()).collect());
        let l = self.inner.ledger(names)?;
        Ok(json_to_py(py, &l.to_json_value())?)
    }
    /// A copy of the hand (for look-ahead).
    fn copy(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
    fn __repr__(&self) -> String {
        let ends = self.inner.ends().map_or("-".to_string(), |e| e.to_string());
        format!(
            "DingniuGame(toupai={}, ends={ends}, to_act={:?}, over={})",
            self.inner.toupai(),
            self.inner.to_act(),
            self.inner.is_over()
        )
    }
}

impl PyDingniuGame {
    fn apply<'py>(&mut self, py: Python<'py>, a: Action) -> BindResult<Bound<'py, PyList>> {
        let n = self.inner.step(a)?;
        let evs = self.inner.events();
        let list = PyList::empty(py);
        for e in &evs[evs.len() - n..] {
            list.append(json_to_py(py, &e.to_json())?)?;
        }
        Ok(list)
    }
}

/// Rebuild a hand from its event log, checking every event; returns the replayed game.
#[pyfunction]
pub fn dingniu_replay(
    rules: &PyDingniuRules,
    events: &Bound<'_, PyAny>,
) -> BindResult<PyDingniuGame> {
    let v = crate::convert::to_json(events, "events")?;
    let Value::Array(evs) = v else {
        return Err(hand_err("events: a list of event dicts"));
    };
    if evs.iter().any(|e| !e.is_object()) {
        return Err(hand_err("events: every event is a dict"));
    }
    Ok(PyDingniuGame {
        inner: replay(rules.inner, &evs)?,
    })
}

/// The flat id of a move in notation (`"16:R"` → 17; see docs/dingniu.md, action space).
#[pyfunction]
pub fn dingniu_action_id(action: Text) -> BindResult<u8> {
    Ok(Action::parse(&action)?.id())
}

/// The move of a flat id, in notation.
#[pyfunction]
pub fn dingniu_action_name(action_id: AnyInt) -> BindResult<String> {
    let id: u8 = action_id.within("action_id", 0, N_ACTION_IDS as i64 - 1, hand_err)?;
    Action::from_id(id)
        .map(|a| a.to_string())
        .ok_or_else(|| hand_err(format!("action id {id} names no action")))
}
