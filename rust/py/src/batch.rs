//! Vectorised analysis over numpy `(N, 34)` uint8 count arrays (`hupai.batch`).
//!
//! Each row is the standing tiles of one hand without declared melds; a row of `3n+1` / `3n+2`
//! tiles with `n < 4` counts its missing sets as declared. The GIL is released and rows are
//! processed in parallel with rayon; results equal a loop of single calls.
//!
//! A C-contiguous array is read in place (no copy): each count is read once, with a volatile load,
//! into the kernel's registers and validated there ([`rows::RowSource`]), so a Python thread
//! writing into the array meanwhile can only make those rows' answers meaningless, never make a
//! kernel index a table out of bounds. Any other array is copied first (GIL held).

use hupai_core::analysis::{self, Plan};
use hupai_core::rows;
use hupai_core::tables::{self, Tables};
use hupai_core::tile::{Counts, N_KINDS, Tile};
use hupai_core::{Error as CoreError, Shapes};
use numpy::ndarray::Array2;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::sync::Mutex;

use crate::analysis::{shapes_from_py, wildcards_from_py};
use crate::convert::AnyInt;
use crate::errors::{BindError, BindResult, hand_err};

/// Rows per rayon task: small enough to balance, large enough to amortise scheduling (a multiple
/// of 4, so that every task starts on an aligned block of the in-place reader).
const CHUNK: usize = 512;

/// Least estimated work (ns, [`Kernel::row_ns`] per row) for each thread of a parallel run: waking
/// the pool's threads and waiting for the last one costs tens of µs, more on a loaded machine, so
/// a smaller batch runs on the calling thread alone (on a shared 2-core machine, two threads were
/// slower than one below about 0.25 ms of work: 20,000 win rows, 6,000 shanten rows).
const MIN_THREAD_NS: usize = 125_000;

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

/// The data of a C-contiguous `(N, 34)` uint8 array, read in place.
#[derive(Clone, Copy)]
struct Raw {
    ptr: *const RawRow,
    rows: usize,
}

// SAFETY: `Raw` is only built from an array that the caller keeps alive (a `PyReadonlyArray2` on
// its stack) for as long as the detached work runs, and it is only read through volatile loads
// (`RawRow`), so sharing it between threads is sound.
unsafe impl Send for Raw {}
unsafe impl Sync for Raw {}

/// Eight bytes with alignment 1: a volatile read of it is one unaligned 8-byte load.
#[derive(Clone, Copy)]
#[repr(C, packed)]
struct Unaligned(u64);

/// Sixteen bytes with alignment 1: a volatile read of it is one unaligned 16-byte load.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
#[repr(C, packed)]
struct Unaligned16(std::arch::x86_64::__m128i);

/// One row of a [`Raw`] array: 34 counts (alignment 1) that another thread may write meanwhile,
/// hence the `UnsafeCell` (a shared reference to it does not promise that they stay unchanged),
/// read with volatile loads only.
///
/// The rows of a task are a slice of them, so that the kernels step through them as through a
/// slice of `Counts` (one pointer, one counter). A closure that built each row from a borrowed
/// base address and the task's first index cost a dozen instructions more per row: the
/// optimiser takes the volatile loads for writes to unknown memory, so it loaded the base and the
/// index again for every row, and multiplied by 34.
#[repr(transparent)]
struct RawRow(std::cell::UnsafeCell<Counts>);

impl RawRow {
    #[inline(always)]
    fn base(&self) -> *const u8 {
        self.0.get().cast::<u8>().cast_const()
    }
}

impl rows::RowSource for RawRow {
    #[inline(always)]
    fn word(&self, at: usize) -> u64 {
        debug_assert!(at + 8 <= N_KINDS);
        // SAFETY: the row has 34 bytes inside the live array and `at + 8 ≤ 34`; `Unaligned` has
        // alignment 1, so any address is aligned for it.
        u64::from_le(unsafe { std::ptr::read_volatile(self.base().add(at) as *const Unaligned) }.0)
    }
    #[inline(always)]
    fn byte(&self, at: usize) -> u8 {
        debug_assert!(at < N_KINDS);
        // SAFETY: `at < 34`, inside the row.
        unsafe { std::ptr::read_volatile(self.base().add(at)) }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn vec16(&self, at: usize) -> std::arch::x86_64::__m128i {
        debug_assert!(at + 16 <= N_KINDS);
        // SAFETY: the row has 34 bytes inside the live array and `at + 16 ≤ 34`; `Unaligned16` has
        // alignment 1, so any address is aligned for it.
        unsafe { std::ptr::read_volatile(self.base().add(at) as *const Unaligned16) }.0
    }
}

impl Raw {
    /// The rows, as a slice of cells.
    #[inline(always)]
    fn rows(&self) -> &[RawRow] {
        // SAFETY: `ptr` is the data of a live C-contiguous array of `rows` rows of 34 bytes (kept
        // alive, see `Raw`'s Send/Sync), `RawRow` has size 34 and alignment 1, and its
        // `UnsafeCell` allows the bytes to change while the slice is borrowed.
        unsafe { std::slice::from_raw_parts(self.ptr, self.rows) }
    }

    /// Row `i`, copied (error messages).
    fn row(&self, i: usize) -> Counts {
        let r = &self.rows()[i];
        let mut out = [0u8; N_KINDS];
        for (k, d) in out.iter_mut().enumerate() {
            *d = rows::RowSource::byte(&r, k);
        }
        out
    }
}

/// The rows of a batch call.
enum Source<'py> {
    /// Read in place; the borrow keeps the array alive (and flagged as borrowed) meanwhile.
    InPlace(Raw, PyReadonlyArray2<'py, u8>),
    Copied(Vec<Counts>),
}

fn rows_from_py<'py>(hands: &Bound<'py, PyAny>) -> BindResult<Source<'py>> {
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
    if let Some(flat) = view.as_slice() {
        let raw = Raw {
            ptr: flat.as_ptr().cast::<RawRow>(),
            rows: view.nrows(),
        };
        return Ok(Source::InPlace(raw, ro));
    }
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
    Ok(Source::Copied(rows))
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

/// `out[i] = f(row first + i)` over one task's rows; the index of the first row `f` refuses.
#[inline(always)]
fn map_task<K: Kernel>(
    t: &Tables,
    src: &SourceRows,
    first: usize,
    out: &mut [K::Out],
    k: &K,
) -> Option<usize> {
    match src {
        SourceRows::Copied(rows) => k.block(t, &rows[first..first + out.len()], out),
        SourceRows::InPlace(raw) => k.block(t, &raw.rows()[first..first + out.len()], out),
    }
}

/// The rows as the detached work sees them.
enum SourceRows {
    InPlace(Raw),
    Copied(Vec<Counts>),
}

impl SourceRows {
    fn len(&self) -> usize {
        match self {
            SourceRows::InPlace(r) => r.rows,
            SourceRows::Copied(v) => v.len(),
        }
    }
    fn row(&self, i: usize) -> Counts {
        match self {
            SourceRows::InPlace(r) => r.row(i),
            SourceRows::Copied(v) => v[i],
        }
    }
}

/// A batch function's work on one row: `None` when the row is not a valid input.
trait Kernel: Sync + Send {
    type Out: Send + Sync + Copy + Default;
    /// Rough cost of one row on one thread, in ns (sizes the parallel work: [`MIN_THREAD_NS`]).
    fn row_ns(&self) -> usize;
    fn row<R: rows::RowSource + ?Sized>(&self, t: &Tables, src: &R) -> Option<Self::Out>;

    /// `out[i] = row(rows[i])` over one task's rows (as many as `out`); the index of the first
    /// row refused.
    #[inline(always)]
    fn block<R: rows::RowSource>(
        &self,
        t: &Tables,
        rows: &[R],
        out: &mut [Self::Out],
    ) -> Option<usize> {
        let mut bad = None;
        for (i, (o, r)) in out.iter_mut().zip(rows).enumerate() {
            match self.row(t, r) {
                Some(v) => *o = v,
                None => {
                    bad.get_or_insert(i);
                }
            }
        }
        bad
    }
}

/// Run the kernel over every row in parallel (GIL released); the first invalid row is an error.
fn run<K: Kernel>(
    py: Python<'_>,
    src: Source<'_>,
    wildcards: u8,
    shapes: Shapes,
    k: K,
) -> BindResult<Vec<K::Out>> {
    let (rows, _keep) = match src {
        Source::InPlace(raw, ro) => (SourceRows::InPlace(raw), Some(ro)),
        Source::Copied(v) => (SourceRows::Copied(v), None),
    };
    let result: Result<Vec<K::Out>, CoreError> = py.detach(move || {
        let t = tables::tables();
        let mut out = vec![K::Out::default(); rows.len()];
        // One worker (RAYON_NUM_THREADS=1), one task or too little work for two threads: the
        // calling thread does the work itself rather than hand it to pool threads and sleep until
        // they are done (a wake-up each way, long on a loaded machine).
        let work = rows.len().saturating_mul(k.row_ns());
        let bad = if rows.len() <= CHUNK
            || rayon::current_num_threads() == 1
            || work < 2 * MIN_THREAD_NS
        {
            map_task(t, &rows, 0, &mut out, &k)
        } else {
            out.par_chunks_mut(CHUNK)
                .enumerate()
                .filter_map(|(c, o)| map_task(t, &rows, c * CHUNK, o, &k).map(|i| c * CHUNK + i))
                .min()
        };
        let r = match bad {
            Some(i) => Err(row_error(i, &rows.row(i), wildcards, shapes)),
            None => Ok(out),
        };
        if let SourceRows::Copied(v) = rows {
            give_back(v);
        }
        r
    });
    result.map_err(BindError::Core)
}

struct Win(u8, Shapes);
impl Kernel for Win {
    type Out = bool;
    fn row_ns(&self) -> usize {
        // with wildcards: the distance kernel
        if self.0 > 0 { 60 } else { 12 }
    }
    #[inline(always)]
    fn row<R: rows::RowSource + ?Sized>(&self, t: &Tables, src: &R) -> Option<bool> {
        rows::win_row(t, src, self.0, self.1)
    }
    #[inline(always)]
    fn block<R: rows::RowSource>(&self, t: &Tables, rows: &[R], out: &mut [bool]) -> Option<usize> {
        // the slice's own iterator: what the core's kernel is tuned on
        rows::win_block(t, rows, out, self.0, self.1)
    }
}

struct Shanten(u8, Shapes);
impl Kernel for Shanten {
    type Out = i8;
    fn row_ns(&self) -> usize {
        40
    }
    #[inline(always)]
    fn row<R: rows::RowSource + ?Sized>(&self, t: &Tables, src: &R) -> Option<i8> {
        rows::shanten_row(t, src, self.0, self.1)
    }
    #[inline(always)]
    fn block<R: rows::RowSource>(&self, t: &Tables, rows: &[R], out: &mut [i8]) -> Option<usize> {
        // `i < out.len() = rows.len()`: no bounds check
        rows::shanten_block(t, |i| &rows[i], out, self.0, self.1)
    }
}

struct Waits(u8, Shapes);
impl Kernel for Waits {
    type Out = u64;
    fn row_ns(&self) -> usize {
        100
    }
    #[inline(always)]
    fn row<R: rows::RowSource + ?Sized>(&self, _: &Tables, src: &R) -> Option<u64> {
        let r = rows::Row::load(src)?;
        let p = rows::row_plan(&r, self.0).filter(|p| !p.complete && p.fits(self.1))?;
        Some(analysis::waits_planned(
            &r.counts(),
            self.0,
            p.sets,
            self.1,
            None,
        ))
    }
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
    let out = run(py, rows, w, s, Win(w, s))?;
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
    let out = run(py, rows, w, s, Shanten(w, s))?;
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
    let n = match &rows {
        Source::InPlace(r, _) => r.rows,
        Source::Copied(v) => v.len(),
    };
    let w = wildcards_from_py(wildcards)?;
    let s: Shapes = shapes_from_py(shapes)?;
    let masks = run(py, rows, w, s, Waits(w, s))?;
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
