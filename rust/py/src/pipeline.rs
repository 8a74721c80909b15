//! A batch call whose Python work overlaps the core's work.
//!
//! A batch call has three parts: reading each input out of Python (GIL held), the core's work on
//! it (no GIL, any thread) and building each result's Python object (GIL held). Run one after the
//! other, the two Python parts are a serial fraction that caps what more threads can gain (two
//! threads gave 1.78× one thread for `batch.score` on prebuilt situations). Here the caller's
//! thread reads inputs in chunks and hands them to `workers` threads of a rayon pool, and turns
//! finished chunks into Python objects as soon as they are ready, in input order, while the
//! workers go on; it releases the GIL whenever it waits.
//!
//! Workers never touch Python, so they cannot deadlock on the GIL; they leave when the caller has
//! closed the queue and it is empty, and `in_place_scope` returns only after they have.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};

use pyo3::prelude::*;

/// Inputs per chunk: big enough that a lock and a wake-up per chunk are noise, small enough that
/// the first results reach the caller early and the last chunk does not leave a thread idle long.
const CHUNK: usize = 64;

/// A chunk's outputs: `None` while it is being worked on, `Some(None)` if the work panicked.
type Slot<O> = Option<Option<Vec<O>>>;

struct State<I, O> {
    queue: VecDeque<(usize, Vec<I>)>,
    done: Vec<Slot<O>>,
    closed: bool,
}

struct Shared<I, O> {
    state: Mutex<State<I, O>>,
    /// Signalled when a chunk is queued or the queue is closed.
    work: Condvar,
    /// Signalled when a chunk is done.
    out: Condvar,
}

impl<I, O> Shared<I, O> {
    fn lock(&self) -> MutexGuard<'_, State<I, O>> {
        // A worker cannot panic while holding the lock (it only moves vectors), so a poisoned
        // lock still holds consistent data.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn close(&self) {
        self.lock().closed = true;
        self.work.notify_all();
    }

    fn worker(&self, work: &(impl Fn(I) -> O + Sync)) {
        loop {
            let (idx, chunk) = {
                let mut st = self.lock();
                loop {
                    if let Some(job) = st.queue.pop_front() {
                        break job;
                    }
                    if st.closed {
                        return;
                    }
                    st = self
                        .work
                        .wait(st)
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                }
            };
            self.run_job(idx, chunk, work);
        }
    }

    /// Work one chunk and publish its outputs.
    fn run_job(&self, idx: usize, chunk: Vec<I>, work: &(impl Fn(I) -> O + Sync)) {
        // A panic in the core must not leave the caller waiting for this chunk forever: it
        // becomes an error of the batch (and is reported by the panic hook as usual).
        let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            chunk.into_iter().map(work).collect::<Vec<O>>()
        }))
        .ok();
        let mut st = self.lock();
        if let Some(slot) = st.done.get_mut(idx) {
            *slot = Some(out);
        }
        drop(st);
        self.out.notify_all();
    }
}

/// Run a batch: `produce` yields the next input (GIL held; `None` at the end), `work` maps it to
/// its output on one of `workers` threads of `pool` (the global rayon pool when `None`), and
/// `consume` receives the outputs in input order (GIL held). An error from `produce` or `consume`
/// stops the batch (the queued work is dropped) and is returned.
pub fn run<'py, I: Send, O: Send>(
    py: Python<'py>,
    workers: usize,
    pool: Option<&rayon::ThreadPool>,
    mut produce: impl FnMut() -> PyResult<Option<I>>,
    work: impl Fn(I) -> O + Sync,
    mut consume: impl FnMut(O) -> PyResult<()>,
) -> PyResult<()> {
    let shared = Shared {
        state: Mutex::new(State {
            queue: VecDeque::new(),
            done: Vec::new(),
            closed: false,
        }),
        work: Condvar::new(),
        out: Condvar::new(),
    };
    let shared = &shared;
    let work = &work;
    let mut main = || -> PyResult<()> {
        let result = feed(py, shared, work, &mut produce, &mut consume);
        if result.is_err() {
            shared.lock().queue.clear();
        }
        shared.close();
        result
    };
    // The scope ends when every worker has left, which they do once the queue is closed and
    // empty; waiting for that needs neither the GIL nor anything the caller holds.
    match pool {
        Some(p) => p.in_place_scope(|s| {
            spawn_workers(s, shared, work, workers);
            main()
        }),
        None => rayon::in_place_scope(|s| {
            spawn_workers(s, shared, work, workers);
            main()
        }),
    }
}

fn spawn_workers<'scope, I: Send, O: Send>(
    s: &rayon::Scope<'scope>,
    shared: &'scope Shared<I, O>,
    work: &'scope (impl Fn(I) -> O + Sync),
    workers: usize,
) {
    // The caller's thread is one of the `workers`: it reads the inputs, then works queued chunks
    // while it waits for results, so `workers - 1` more threads keep `workers` cores busy (one
    // more would only make the threads take turns on the cores).
    for _ in 0..workers.saturating_sub(1).max(1) {
        s.spawn(move |_| shared.worker(work));
    }
}

/// The caller's side: read inputs in chunks, queue them, and hand back finished chunks in order.
fn feed<I: Send, O: Send>(
    py: Python<'_>,
    shared: &Shared<I, O>,
    work: &(impl Fn(I) -> O + Sync),
    produce: &mut impl FnMut() -> PyResult<Option<I>>,
    consume: &mut impl FnMut(O) -> PyResult<()>,
) -> PyResult<()> {
    let mut submitted = 0usize;
    let mut next = 0usize;
    let mut buf: Vec<I> = Vec::with_capacity(CHUNK);
    let submit = |buf: Vec<I>, submitted: &mut usize| {
        let mut st = shared.lock();
        st.done.push(None);
        st.queue.push_back((*submitted, buf));
        drop(st);
        shared.work.notify_one();
        *submitted += 1;
    };
    // Take every finished chunk from `next` on (without waiting).
    let ready = |next: usize| -> PyResult<Vec<Vec<O>>> {
        let mut st = shared.lock();
        let mut out = Vec::new();
        let mut i = next;
        while let Some(slot) = st.done.get_mut(i) {
            match slot.take() {
                Some(chunk) => out.push(chunk.ok_or_else(panicked)?),
                None => break,
            }
            i += 1;
        }
        Ok(out)
    };
    loop {
        match produce()? {
            Some(x) => buf.push(x),
            None => break,
        }
        if buf.len() == CHUNK {
            submit(
                std::mem::replace(&mut buf, Vec::with_capacity(CHUNK)),
                &mut submitted,
            );
            for chunk in ready(next)? {
                next += 1;
                chunk.into_iter().try_for_each(&mut *consume)?;
            }
        }
    }
    if !buf.is_empty() {
        submit(buf, &mut submitted);
    }
    shared.close();
    while next < submitted {
        // Wait for the next chunk in order; meanwhile work queued chunks here (a busy machine may
        // not schedule the workers soon: then this thread does the work itself).
        let chunk = py.detach(|| {
            let mut st = shared.lock();
            loop {
                if let Some(c) = st.done.get_mut(next).and_then(Option::take) {
                    return c;
                }
                if let Some((idx, job)) = st.queue.pop_front() {
                    drop(st);
                    shared.run_job(idx, job, work);
                    st = shared.lock();
                    continue;
                }
                st = shared
                    .out
                    .wait(st)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        });
        next += 1;
        chunk
            .ok_or_else(panicked)?
            .into_iter()
            .try_for_each(&mut *consume)?;
        for chunk in ready(next)? {
            next += 1;
            chunk.into_iter().try_for_each(&mut *consume)?;
        }
    }
    Ok(())
}

fn panicked() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(
        "internal error: the core panicked while working on this batch (please report it)",
    )
}
