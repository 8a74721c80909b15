//! Vectorised analysis over numpy `(N, 34)` uint8 count arrays (`hupai.batch`).
//!
//! Each row is the standing tiles of one hand without declared melds; a row of `3n+1` / `3n+2`
//! tiles with `n < 4` counts its missing sets as declared. The input is copied out, the GIL is
//! released and rows are processed in parallel with rayon; results equal a loop of single calls.

use hupai_core::analysis::{self, Plan};
use hupai_core::tile::{Counts, N_KINDS, Tile};
use hupai_core::{Error as CoreError, Shapes};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::sync::Mutex;

use crate::analysis::{shapes_from_py, wildcards_from_py};
use crate::convert::AnyInt;
use crate::errors::{BindError, BindResult, hand_err};

/// Rows per rayon task: small enough to balance, large enough to amortise scheduling.
const CHUNK: usize = 512;

/// A reusable row buffer: copying a large batch into fresh memory costs page faults on every call.
static POOL: Mutex<Vec<Counts>> = Mutex::new(Vec::new());
/// Largest buffer kept between calls (rows).
const POOL_MAX_ROWS: usize = 1 << 20;

fn take_buffer(n: usize) -> Vec<Counts> {
    let mut v = POOL
        .lock()
        .map(|mut g| std::mem::take(&mut *g))
        .unwrap_or_default();
    v.clear();
    v.resize(n, [0u8; N_KINDS]);
    v
}

fn give_back(v: Vec<Counts>) {
    if v.capacity() <= POOL_MAX_ROWS
        && let Ok(mut g) = POOL.lock()
        && g.capacity() < v.capacity()
    {
        *g = v;
    }
}

fn rows_from_py(hands: &Bound<'_, PyAny>) -> BindResult<Vec<Counts>> {
    let arr = hands.cast::<PyArray2<u8>>().map_err(|_| {
        let what = hands
            .getattr("dtype")
            .map(|d| format!("an array of dtype {d} and ndim {}", ndim(hands)))
            .unwrap_or_else(|_| format!("{}", hands.get_type()));
        hand_err(format!(
            "expected a numpy uint8 array of shape (N, 34), got {what}"
        ))
    })?;
    if arr.shape()[1] != N_KINDS {
        return Err(hand_err(format!(
            "expected shape (N, 34), got ({}, {})",
            arr.shape()[0],
            arr.shape()[1]
        )));
    }
    let ro = arr.try_readonly().map_err(|e| hand_err(e.to_string()))?;
    let view = ro.as_array();
    // Copy out while holding the GIL: another thread could mutate the buffer once detached.
    let mut rows = take_buffer(view.nrows());
    if let Some(flat) = view.as_slice() {
        for (row, chunk) in rows.iter_mut().zip(flat.chunks_exact(N_KINDS)) {
            row.copy_from_slice(chunk);
        }
    } else {
        for (row, src) in rows.iter_mut().zip(view.rows()) {
            for (d, s) in row.iter_mut().zip(src.iter()) {
                *d = *s;
            }
        }
    }
    Ok(rows)
}

fn ndim(obj: &Bound<'_, PyAny>) -> String {
    obj.getattr("ndim")
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// The error for an invalid row.
fn row_error(i: usize, row: &Counts, wildcards: u8, shapes: Shapes) -> CoreError {
    if let Some(k) = row.iter().position(|&c| c > 4) {
        return CoreError::hand(format!(
            "row {i}: {} copies of {} (counts must be 0..4)",
            row[k],
            Tile::new_unchecked(k as u8)
        ));
    }
    match Plan::new(row, wildcards, 0).and_then(|p| p.check_fits(shapes).map(|_| p)) {
        Err(CoreError::InvalidHand(m)) => CoreError::hand(format!("row {i}: {m}")),
        Err(other) => other,
        Ok(p) if p.complete => CoreError::hand(format!(
            "row {i}: waits needs waiting hands (3n+1 tiles); this row has 3n+2"
        )),
        Ok(_) => CoreError::hand(format!("row {i}: invalid hand")),
    }
}

/// Run `f` over every row in parallel (GIL released); the first invalid row is an error.
fn run<T: Send + Sync + Copy + Default>(
    py: Python<'_>,
    rows: Vec<Counts>,
    wildcards: u8,
    prefetch: bool,
    shapes: Shapes,
    f: impl Fn(&Counts, Plan) -> Option<T> + Sync + Send,
) -> BindResult<Vec<T>> {
    let result: Result<Vec<T>, CoreError> = py.detach(move || {
        let mut out = vec![T::default(); rows.len()];
        let bad = out
            .par_chunks_mut(CHUNK)
            .zip(rows.par_chunks(CHUNK))
            .enumerate()
            .filter_map(|(c, (o, r))| {
                analysis::map_rows(r, wildcards, prefetch, o, &f).map(|i| c * CHUNK + i)
            })
            .min();
        let r = match bad {
            Some(i) => Err(row_error(i, &rows[i], wildcards, shapes)),
            None => Ok(out),
        };
        give_back(rows);
        r
    });
    result.map_err(BindError::Core)
}

/// Vectorised ``is_winning``: ``(N, 34)`` uint8 counts → ``(N,)`` bool.
#[pyfunction]
#[pyo3(signature = (hands, /, *, shapes = None, wildcards = AnyInt(0)))]
#[pyo3(text_signature = "(hands, /, *, shapes=None, wildcards=0)")]
pub fn batch_is_winning<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    shapes: Option<&Bound<'py, PyAny>>,
    wildcards: AnyInt,
) -> BindResult<Bound<'py, PyArray1<bool>>> {
    let rows = rows_from_py(hands)?;
    let w = wildcards_from_py(wildcards)?;
    let s: Shapes = shapes_from_py(shapes)?;
    let out = run(py, rows, w, false, s, move |c, p| {
        Some(p.complete && analysis::is_winning_planned(c, w, p.sets, s))
    })?;
    Ok(out.into_pyarray(py))
}

/// Vectorised ``shanten``: ``(N, 34)`` uint8 counts → ``(N,)`` int8.
#[pyfunction]
#[pyo3(signature = (hands, /, *, shapes = None, wildcards = AnyInt(0)))]
#[pyo3(text_signature = "(hands, /, *, shapes=None, wildcards=0)")]
pub fn batch_shanten<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    shapes: Option<&Bound<'py, PyAny>>,
    wildcards: AnyInt,
) -> BindResult<Bound<'py, PyArray1<i8>>> {
    let rows = rows_from_py(hands)?;
    let w = wildcards_from_py(wildcards)?;
    let s: Shapes = shapes_from_py(shapes)?;
    let out = run(py, rows, w, false, s, move |c, p| {
        p.fits(s)
            .then(|| analysis::shanten_planned(c, w, p.sets, s))
    })?;
    Ok(out.into_pyarray(py))
}

/// Vectorised ``waits``: ``(N, 34)`` uint8 counts of waiting (3n+1) hands → ``(N, 34)`` bool mask
/// (column ``k`` = tile index ``k``). Kinds with four copies in the row are never waits.
#[pyfunction]
#[pyo3(signature = (hands, /, *, shapes = None, wildcards = AnyInt(0)))]
#[pyo3(text_signature = "(hands, /, *, shapes=None, wildcards=0)")]
pub fn batch_waits<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    shapes: Option<&Bound<'py, PyAny>>,
    wildcards: AnyInt,
) -> BindResult<Bound<'py, PyArray2<bool>>> {
    let rows = rows_from_py(hands)?;
    let n = rows.len();
    let w = wildcards_from_py(wildcards)?;
    let s: Shapes = shapes_from_py(shapes)?;
    let masks = run(py, rows, w, false, s, move |c, p| {
        (!p.complete && p.fits(s)).then(|| analysis::waits_planned(c, w, p.sets, s, None))
    })?;
    let mut flat = vec![false; n * N_KINDS];
    for (row, m) in flat.chunks_exact_mut(N_KINDS).zip(&masks) {
        if *m != 0 {
            for (k, v) in row.iter_mut().enumerate() {
                *v = m >> k & 1 == 1;
            }
        }
    }
    let arr = Array2::from_shape_vec((n, N_KINDS), flat)
        .map_err(|e| hand_err(format!("internal shape error: {e}")))?;
    Ok(arr.into_pyarray(py))
}
