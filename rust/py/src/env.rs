//! Bindings of the RL environment (`hupai_core::game::{encode, env}`): `VecEnv` (N tables stepped
//! in one core call, numpy buffers written in place with the GIL released), the encoding of a
//! variant and of a `Table`, and event logs → training arrays.

use hupai_core::Error as CoreError;
use hupai_core::game::bots::BotKind;
use hupai_core::game::dispatch::Family;
use hupai_core::game::encode::{self, Encoding};
use hupai_core::game::env::{Buffers, EnvOptions, VecEnv};
use hupai_core::game::table::Compiled;
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::Value;

use crate::convert::AnyInt;
use crate::errors::{BindError, BindResult};
use crate::score::{py_to_json, variant_from_py};
use crate::table::{PyTable, action_list};

/// One seat's observation and mask.
type View<'py> = (Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<bool>>);

fn rule(msg: impl Into<String>) -> BindError {
    BindError::Core(CoreError::rule(msg))
}

fn seed_i128(obj: &Bound<'_, PyAny>) -> BindResult<i128> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(rule("seed must be an int"));
    }
    obj.extract::<i128>()
        .map_err(|_| rule("seed must be an int (|seed| < 2**127)"))
}

/// ``N`` hands of one variant stepped together for reinforcement learning:
/// ``VecEnv(variant, n, seed=0, learners=None, opponents="greedy", auto_reset=True, threads=1)``.
///
/// ``learners``: the seats played through ``step`` (default: every seat); the other seats are
/// built-in bots (``opponents``: one kind for all, or one per seat; ``random``, ``greedy``,
/// ``defensive``) playing inside the core. The buffers ``obs`` ``(N, planes, width)`` uint8,
/// ``mask`` ``(N, actions)`` bool, ``seat`` ``(N,)`` int64 (the seat to act, -1 when a hand is
/// over and waits for ``reset``), ``reward`` ``(N, seats)`` float32 (each seat's settlement of
/// the hands that ended in the step) and ``done`` ``(N,)`` bool are rewritten in place by
/// ``reset`` and ``step`` (copy them to keep them).
#[pyclass(module = "hupai._core", name = "VecEnv")]
pub struct PyVecEnv {
    env: VecEnv,
    obs: Py<PyArray3<u8>>,
    mask: Py<PyArray2<bool>>,
    seat: Py<PyArray1<i64>>,
    reward: Py<PyArray2<f32>>,
    done: Py<PyArray1<bool>>,
}

impl PyVecEnv {
    fn run(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut VecEnv, Buffers<'_>) -> hupai_core::Result<()> + Send,
    ) -> BindResult<()> {
        let mut obs = self.obs.bind(py).readwrite();
        let mut mask = self.mask.bind(py).readwrite();
        let mut seat = self.seat.bind(py).readwrite();
        let mut reward = self.reward.bind(py).readwrite();
        let mut done = self.done.bind(py).readwrite();
        let b = Buffers {
            obs: obs.as_slice_mut().map_err(|e| rule(e.to_string()))?,
            mask: mask.as_slice_mut().map_err(|e| rule(e.to_string()))?,
            seat: seat.as_slice_mut().map_err(|e| rule(e.to_string()))?,
            reward: reward.as_slice_mut().map_err(|e| rule(e.to_string()))?,
            done: done.as_slice_mut().map_err(|e| rule(e.to_string()))?,
        };
        let env = &mut self.env;
        py.detach(move || f(env, b))?;
        Ok(())
    }

    fn index(&self, i: AnyInt) -> BindResult<usize> {
        i.within("i", 0, self.env.len() as i64 - 1, rule)
    }
}

fn bot_kinds(opponents: &Bound<'_, PyAny>, seats: usize) -> BindResult<Vec<BotKind>> {
    if let Ok(s) = opponents.cast::<PyString>() {
        return Ok(vec![BotKind::parse(s.to_str()?)?; seats]);
    }
    let v: Vec<String> = opponents
        .extract()
        .map_err(|_| rule("opponents: a bot kind (random, greedy, defensive) or one per seat"))?;
    if v.len() != seats {
        return Err(rule(format!("opponents: one bot kind per seat ({seats})")));
    }
    Ok(v.iter()
        .map(|s| BotKind::parse(s))
        .collect::<hupai_core::Result<_>>()?)
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (variant, n, seed = None, learners = None, opponents = None, auto_reset = true, threads = 1))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        variant: &Bound<'_, PyAny>,
        n: AnyInt,
        seed: Option<&Bound<'_, PyAny>>,
        learners: Option<Vec<i64>>,
        opponents: Option<&Bound<'_, PyAny>>,
        auto_reset: bool,
        threads: i64,
    ) -> BindResult<PyVecEnv> {
        let n: usize = n.within("n", 1, 1 << 20, rule)?;
        let threads: usize = AnyInt(threads).within("threads", 1, 1024, rule)?;
        let seed = match seed {
            Some(s) if !s.is_none() => seed_i128(s)?,
            _ => 0,
        };
        let c = Compiled::new(variant_from_py(Some(variant))?)?;
        let seats = c.seats();
        let mut l = vec![learners.is_none(); seats];
        for s in learners.unwrap_or_default() {
            let k = usize::try_from(s)
                .ok()
                .filter(|&k| k < seats)
                .ok_or_else(|| rule(format!("learners: seat numbers 0..{}", seats - 1)))?;
            l[k] = true;
        }
        let bots = match opponents {
            Some(o) if !o.is_none() => bot_kinds(o, seats)?,
            _ => vec![BotKind::Greedy; seats],
        };
        let env = VecEnv::new(
            c,
            n,
            seed,
            EnvOptions {
                learners: l,
                bots,
                auto_reset,
            },
            threads,
        )?;
        let (p, w, a) = (env.enc.planes, env.enc.width, env.enc.n_actions());
        let mut me = PyVecEnv {
            obs: Array3::<u8>::zeros((n, p, w)).into_pyarray(py).unbind(),
            mask: Array2::<bool>::from_elem((n, a), false)
                .into_pyarray(py)
                .unbind(),
            seat: Array1::<i64>::zeros(n).into_pyarray(py).unbind(),
            reward: Array2::<f32>::zeros((n, seats)).into_pyarray(py).unbind(),
            done: Array1::<bool>::from_elem(n, false)
                .into_pyarray(py)
                .unbind(),
            env,
        };
        me.run(py, move |e, b| e.reset(seed, b))?;
        Ok(me)
    }

    fn __len__(&self) -> usize {
        self.env.len()
    }

    /// Seats at each table.
    #[getter]
    fn seats(&self) -> usize {
        self.env.compiled.seats()
    }
    /// The variant's preset id.
    #[getter]
    fn variant_id(&self) -> String {
        self.env.compiled.variant.id().to_string()
    }
    /// The seats played through ``step``.
    #[getter]
    fn learners(&self) -> Vec<usize> {
        (0..self.seats())
            .filter(|&k| self.env.opts.learners[k])
            .collect()
    }
    #[getter]
    fn n_actions(&self) -> usize {
        self.env.enc.n_actions()
    }
    /// ``(planes, width)`` of one observation.
    #[getter]
    fn obs_shape(&self) -> (usize, usize) {
        (self.env.enc.planes, self.env.enc.width)
    }
    /// The name of every action id.
    #[getter]
    fn action_names(&self) -> Vec<String> {
        self.env.enc.names.clone()
    }
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<u8>> {
        self.obs.bind(py).clone()
    }
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.mask.bind(py).clone()
    }
    #[getter]
    fn seat<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.seat.bind(py).clone()
    }
    #[getter]
    fn reward<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.reward.bind(py).clone()
    }
    #[getter]
    fn done<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.done.bind(py).clone()
    }

    /// Deal every table afresh (``seed``: a new master seed, else the one given before).
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> BindResult<()> {
        let s = match seed {
            Some(s) if !s.is_none() => Some(seed_i128(s)?),
            _ => None,
        };
        self.run(py, move |e, b| {
            let s = s.unwrap_or(e.seed);
            e.seed = s;
            e.reset(s, b)
        })
    }

    /// Apply one action id per table (an ``(N,)`` int64 array or a list; -1 leaves a table as it
    /// is). Every id is checked against its mask first: an illegal one raises
    /// ``IllegalActionError`` and no table moves.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> BindResult<()> {
        let acts: Vec<i64> = if let Ok(a) = actions.extract::<PyReadonlyArray1<'_, i64>>() {
            a.as_slice()
                .map(<[i64]>::to_vec)
                .unwrap_or_else(|_| a.as_array().to_vec())
        } else {
            actions.extract::<Vec<i64>>().map_err(|_| {
                rule(format!(
                    "actions: an (N,) int64 array of action ids, got {}",
                    actions.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?
        };
        self.run(py, move |e, b| e.step(&acts, b))
    }

    /// Totals over every table: ``episodes`` (hands finished), ``returns`` (per seat), ``wins``
    /// (per seat), ``exhausted``, ``steps`` (learner decisions), ``decisions`` (all), and
    /// per-table arrays of the last finished hand: ``last_return`` ``(N, seats)``,
    /// ``last_steps`` ``(N,)``, ``hands`` ``(N,)`` (hands finished by each table).
    fn stats<'py>(&self, py: Python<'py>) -> BindResult<Bound<'py, PyDict>> {
        let st = self.env.stats();
        let d = PyDict::new(py);
        d.set_item("episodes", st.episodes)?;
        d.set_item("returns", st.returns)?;
        d.set_item("wins", st.wins)?;
        d.set_item("exhausted", st.exhausted)?;
        d.set_item("steps", st.steps)?;
        d.set_item("decisions", st.decisions)?;
        let n = self.env.len();
        let seats = self.seats();
        let mut lr = Array2::<f64>::zeros((n, seats));
        let mut ls = Array1::<u64>::zeros(n);
        let mut hs = Array1::<u64>::zeros(n);
        for (i, s) in self.env.slots.iter().enumerate() {
            for k in 0..seats {
                lr[[i, k]] = s.stats.last_return[k];
            }
            ls[i] = s.stats.last_steps;
            hs[i] = s.stats.episodes;
        }
        d.set_item("last_return", lr.into_pyarray(py))?;
        d.set_item("last_steps", ls.into_pyarray(py))?;
        d.set_item("hands", hs.into_pyarray(py))?;
        Ok(d)
    }

    /// Table ``i``'s current hand: ``(seed, dealer)`` (``hupai.Table(variant, seed, dealer=)``
    /// deals the same hand).
    fn hand(&self, i: AnyInt) -> BindResult<(u64, usize)> {
        let s = &self.env.slots[self.index(i)?];
        Ok((s.hand_seed, s.dealer))
    }

    /// Table ``i``'s current hand's event log (JSON records).
    fn log<'py>(&self, py: Python<'py>, i: AnyInt) -> BindResult<Bound<'py, PyAny>> {
        let s = &self.env.slots[self.index(i)?];
        Ok(crate::convert::json_to_py(
            py,
            &Value::Array(s.table.log_json()),
        )?)
    }

    /// Table ``i``'s last finished hand (kept after an automatic reset): its log, or ``None``.
    fn last_log<'py>(&self, py: Python<'py>, i: AnyInt) -> BindResult<Bound<'py, PyAny>> {
        let s = &self.env.slots[self.index(i)?];
        let t = if s.table.is_done() {
            Some(&s.table)
        } else {
            s.finished.as_ref()
        };
        Ok(match t {
            Some(t) => crate::convert::json_to_py(py, &Value::Array(t.log_json()))?,
            None => py.None().into_bound(py),
        })
    }

    /// Table ``i``'s legal actions now, in order, and their ids.
    fn legal<'py>(&self, py: Python<'py>, i: AnyInt) -> BindResult<(Bound<'py, PyList>, Vec<u32>)> {
        let (a, ids) = self.env.legal(self.index(i)?)?;
        let pieces = self.env.compiled.pieces();
        Ok((action_list(py, a, pieces)?, ids.to_vec()))
    }

    /// Every table's legal action ids at once: ``(ids, offsets)`` int64 arrays — table ``i``'s
    /// are ``ids[offsets[i]:offsets[i + 1]]`` (the mask's true columns, in the table's order;
    /// none while a finished hand waits for ``reset``). Cheaper than scanning a wide mask.
    fn legal_ids<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>) {
        let mut ids = Vec::new();
        let mut offsets = Vec::new();
        self.env.legal_ids_into(&mut ids, &mut offsets);
        (ids.into_pyarray(py), offsets.into_pyarray(py))
    }

    /// Any seat's view of table ``i`` now: ``(obs (planes, width), mask (actions,))`` — the mask
    /// is all false unless that seat is to act.
    fn observe<'py>(&self, py: Python<'py>, i: AnyInt, seat: AnyInt) -> BindResult<View<'py>> {
        let i = self.index(i)?;
        let seat: usize = seat.within("seat", 0, self.seats() as i64 - 1, rule)?;
        let t = &self.env.slots[i].table;
        observe_table(py, &self.env.enc, t, seat)
    }
}

fn observe_table<'py>(
    py: Python<'py>,
    enc: &Encoding,
    t: &hupai_core::game::table::Table,
    seat: usize,
) -> BindResult<View<'py>> {
    let mut obs = Array2::<u8>::zeros((enc.planes, enc.width));
    let mut mask = Array1::<bool>::from_elem(enc.n_actions(), false);
    if let Some(o) = obs.as_slice_mut() {
        enc.observe(t, seat, o);
    }
    if t.to_act() == Some(seat) {
        let legal = t.legal_actions(seat);
        let mut ids = Vec::new();
        if let Some(m) = mask.as_slice_mut() {
            enc.mask_into(t, &legal, &mut ids, m)?;
        }
    }
    Ok((obs.into_pyarray(py), mask.into_pyarray(py)))
}

/// The encoding of a variant: ``{"family", "seats", "action_names", "obs_shape", "planes"}``
/// (``planes``: ``(name, meaning)`` of every plane).
#[pyfunction]
pub fn env_encoding<'py>(
    py: Python<'py>,
    variant: &Bound<'py, PyAny>,
) -> BindResult<Bound<'py, PyDict>> {
    let c = Compiled::new(variant_from_py(Some(variant))?)?;
    let e = Encoding::of(&c)?;
    let d = PyDict::new(py);
    d.set_item(
        "family",
        match e.family {
            Family::Mahjong => "mahjong",
            Family::Zipai => "zipai",
            Family::Cards => "cards",
        },
    )?;
    d.set_item("seats", e.seats)?;
    d.set_item("action_names", e.names.clone())?;
    d.set_item("obs_shape", (e.planes, e.width))?;
    d.set_item("planes", e.plane_names())?;
    d.set_item("recent", encode::RECENT)?;
    Ok(d)
}

/// The encoding of a ``Table`` now for ``seat`` (default: the seat to act): ``(obs, mask, ids)``
/// — ``ids[k]`` is the id of ``table.legal_actions(seat)[k]``.
#[pyfunction]
#[pyo3(signature = (table, seat = None))]
pub fn table_encode<'py>(
    py: Python<'py>,
    table: &Bound<'py, PyTable>,
    seat: Option<AnyInt>,
) -> BindResult<(View<'py>, Vec<u32>)> {
    let tb = table.borrow();
    let t = &tb.t;
    let seat: usize = match seat {
        Some(s) => s.within("seat", 0, t.seats() as i64 - 1, rule)?,
        None => t
            .to_act()
            .ok_or_else(|| rule("the hand is over: give a seat"))?,
    };
    let c = Compiled::new(t.variant().clone())?;
    let enc = Encoding::of(&c)?;
    let view = observe_table(py, &enc, t, seat)?;
    let mut ids = Vec::new();
    let legal = t.legal_actions(seat);
    for a in &legal {
        ids.push(enc.action_id(t, a)? as u32);
    }
    Ok((view, ids))
}

/// Event logs (each a list of JSON records, or a JSON string of one) → training arrays:
/// ``{"obs" (M, planes, width) uint8, "mask" (M, actions) bool, "action" (M,) int64, "seat"
/// (M,) int64, "reward" (M,) float32 (the seat's settlement of its hand), "hand" (M,) int64 (the
/// log's index)}``, one row per decision of any seat. Every log is replayed (and must give the
/// same records).
#[pyfunction]
pub fn logs_to_arrays<'py>(
    py: Python<'py>,
    logs: &Bound<'py, PyAny>,
) -> BindResult<Bound<'py, PyDict>> {
    let mut all: Vec<Vec<Value>> = Vec::new();
    for (i, x) in logs
        .try_iter()
        .map_err(|_| rule("logs: a list of event logs"))?
        .enumerate()
    {
        let x = x?;
        let v = if let Ok(s) = x.cast::<PyString>() {
            serde_json::from_str::<Value>(s.to_str()?)
                .map_err(|e| rule(format!("log {i}: not JSON ({e})")))?
        } else {
            py_to_json(&x, &format!("log {i}"))?
        };
        match v {
            Value::Array(a) => all.push(a),
            _ => return Err(rule(format!("log {i}: a list of records"))),
        }
    }
    if all.is_empty() {
        return Err(rule("logs: no log given"));
    }
    let d = py.detach(|| encode::dataset(&all))?;
    let (m, e) = (d.rows(), d.enc.clone());
    let out = PyDict::new(py);
    let obs =
        Array3::from_shape_vec((m, e.planes, e.width), d.obs).map_err(|x| rule(x.to_string()))?;
    let mask =
        Array2::from_shape_vec((m, e.n_actions()), d.mask).map_err(|x| rule(x.to_string()))?;
    out.set_item("obs", obs.into_pyarray(py))?;
    out.set_item("mask", mask.into_pyarray(py))?;
    out.set_item("action", Array1::from_vec(d.action).into_pyarray(py))?;
    out.set_item("seat", Array1::from_vec(d.seat).into_pyarray(py))?;
    out.set_item("reward", Array1::from_vec(d.reward).into_pyarray(py))?;
    out.set_item("hand", Array1::from_vec(d.hand).into_pyarray(py))?;
    Ok(out)
}
