//! Vectorcall entry points for the hottest single calls, `is_winning` and `shanten`.
//!
//! A call through PyO3's generated wrapper spends more on argument handling (keyword names matched
//! by string comparison, optional-argument extraction, error plumbing) than the analysis itself
//! takes. These entry points are plain `METH_FASTCALL | METH_KEYWORDS` C functions that handle the
//! common call shape directly — one positional hand (`Hand`, string or tile list), keywords
//! `shapes` (a `Shapes` or `None`) and `wildcards` (an `int`) whose names are the interned strings
//! — and hand every other call (other argument types, unknown keywords, invalid input) to the PyO3
//! function unchanged, so errors, messages and results are exactly those of the PyO3 wrapper. The
//! answers come from the same core functions.

use std::ffi::{CStr, CString};
use std::sync::OnceLock;

use hupai_core::analysis::Plan;
use hupai_core::decompose::Shapes;
use hupai_core::{rows, tables};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use crate::analysis::{HandInput, PyShapes, hand_input};

/// What the fast path needs from the module: the PyO3 functions (the slow path) and the interned
/// keyword names.
struct State {
    is_winning: Py<PyAny>,
    shanten: Py<PyAny>,
    shapes: Py<PyString>,
    wildcards: Py<PyString>,
}

static STATE: OnceLock<State> = OnceLock::new();

/// Replace the module's `is_winning` and `shanten` with the vectorcall entry points (same name,
/// text signature and docstring); the PyO3 functions stay reachable as their slow path.
pub fn install(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let state = State {
        is_winning: m.getattr("is_winning")?.unbind(),
        shanten: m.getattr("shanten")?.unbind(),
        shapes: PyString::intern(py, "shapes").unbind(),
        wildcards: PyString::intern(py, "wildcards").unbind(),
    };
    STATE.get_or_init(|| state);
    for (name, fast) in [
        (
            c"is_winning",
            is_winning_fast as ffi::PyCFunctionFastWithKeywords,
        ),
        (c"shanten", shanten_fast),
    ] {
        replace(m, name, fast)?;
    }
    Ok(())
}

/// Replace the module function `name` (a PyO3 function, the slow path) with a `METH_FASTCALL |
/// METH_KEYWORDS` entry point `fast` of the same name, text signature and docstring.
pub(crate) fn replace(
    m: &Bound<'_, PyModule>,
    name: &'static CStr,
    fast: ffi::PyCFunctionFastWithKeywords,
) -> PyResult<()> {
    let py = m.py();
    let name_str = name.to_str().unwrap_or_default();
    let slow = m.getattr(name_str)?;
    let sig: String = slow.getattr("__text_signature__")?.extract()?;
    let doc: String = slow.getattr("__doc__")?.extract()?;
    // CPython parses `name(sig)\n--\n\n` at the start of `ml_doc` into `__text_signature__`.
    let full_doc = CString::new(format!("{name_str}{sig}\n--\n\n{doc}"))
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    // The method definition must outlive the function object: leaked once per process.
    let def: &'static mut ffi::PyMethodDef = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: name.as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            PyCFunctionFastWithKeywords: fast,
        },
        ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
        ml_doc: Box::leak(full_doc.into_boxed_c_str()).as_ptr(),
    }));
    let module_name = m.name()?;
    // SAFETY: `def` is 'static and well formed; `module_name` is a live str object; the result is a
    // new reference (or NULL with an exception set, turned into an error).
    let f = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyCFunction_NewEx(def, std::ptr::null_mut(), module_name.as_ptr()),
        )?
    };
    m.setattr(name_str, f)
}

/// The arguments of the common call shape, or `None` (the slow path decides).
///
/// # Safety
/// `args` holds `nargs` positional arguments followed by one value per name in `kwnames` (a tuple
/// or NULL), as CPython passes them to a vectorcall function; the GIL is held.
unsafe fn arguments(
    py: Python<'_>,
    st: &State,
    args: *const *mut ffi::PyObject,
    nargsf: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> Option<(HandInput, u8, Shapes)> {
    // SAFETY (whole function): see the function's contract.
    unsafe {
        let nargs = ffi::PyVectorcall_NARGS(nargsf as usize);
        if nargs != 1 {
            return None;
        }
        let mut shapes = Shapes::ALL;
        let mut wildcards = 0u8;
        if !kwnames.is_null() {
            for i in 0..ffi::PyTuple_GET_SIZE(kwnames) {
                let name = ffi::PyTuple_GET_ITEM(kwnames, i);
                let value = Borrowed::from_ptr(py, *args.offset(nargs + i));
                if name == st.shapes.as_ptr() {
                    if value.is_none() {
                        shapes = Shapes::ALL;
                    } else {
                        shapes = value.cast_exact::<PyShapes>().ok()?.get().inner;
                    }
                } else if name == st.wildcards.as_ptr() {
                    let w = value.cast_exact::<PyInt>().ok()?.extract::<i64>().ok()?;
                    wildcards = u8::try_from(w)
                        .ok()
                        .filter(|&w| w <= hupai_core::analysis::MAX_WILDCARDS)?;
                } else {
                    return None;
                }
            }
        }
        let hand = Borrowed::from_ptr(py, *args);
        let h = hand_input(&hand).ok()?;
        Some((h, wildcards, shapes))
    }
}

/// Call the PyO3 function with the same arguments.
///
/// # Safety
/// As for [`arguments`].
unsafe fn slow(
    f: &Py<PyAny>,
    args: *const *mut ffi::PyObject,
    nargsf: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: the arguments are passed on as CPython gave them.
    unsafe { ffi::PyObject_Vectorcall(f.as_ptr(), args, nargsf as usize, kwnames) }
}

fn is_winning_of(h: &HandInput, w: u8, shapes: Shapes) -> Option<bool> {
    let r = rows::Row::of(&h.counts);
    let p = Plan::from_len(r.tiles() as usize, w, h.melds).ok()?;
    Some(p.complete && rows::is_winning(tables::tables(), &r, w, p.sets, shapes))
}

fn shanten_of(h: &HandInput, w: u8, shapes: Shapes) -> Option<i8> {
    let r = rows::Row::of(&h.counts);
    let p = Plan::from_len(r.tiles() as usize, w, h.melds).ok()?;
    p.check_fits(shapes).ok()?;
    let d = rows::min_distance(tables::tables(), &r, p.sets, shapes);
    Some(d.saturating_sub(w) as i8 - 1)
}

/// A fast entry point: the common call shape computed here, anything else by the PyO3 function.
/// A panic (none is expected) also falls back to the PyO3 function, which reports it.
macro_rules! entry {
    ($name:ident, $slow:ident, $compute:expr, $to_py:expr) => {
        unsafe extern "C" fn $name(
            _module: *mut ffi::PyObject,
            args: *const *mut ffi::PyObject,
            nargsf: ffi::Py_ssize_t,
            kwnames: *mut ffi::PyObject,
        ) -> *mut ffi::PyObject {
            // SAFETY: CPython calls this with the GIL held and vectorcall arguments.
            let py = unsafe { Python::assume_attached() };
            let Some(st) = STATE.get() else {
                // SAFETY: sets an exception for the NULL return (install runs before any call).
                unsafe {
                    ffi::PyErr_SetString(
                        ffi::PyExc_SystemError,
                        c"hupai._core not initialised".as_ptr(),
                    );
                }
                return std::ptr::null_mut();
            };
            let fast = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                // SAFETY: see `arguments`.
                let (h, w, shapes) = unsafe { arguments(py, st, args, nargsf, kwnames) }?;
                $compute(&h, w, shapes)
            }));
            match fast {
                // SAFETY: the conversion returns a new reference.
                Ok(Some(v)) => unsafe { $to_py(v) },
                // SAFETY: see `slow`.
                _ => unsafe { slow(&st.$slow, args, nargsf, kwnames) },
            }
        }
    };
}

unsafe fn py_bool(b: bool) -> *mut ffi::PyObject {
    // SAFETY: the singletons are immortal or owned by the interpreter; a new reference is returned.
    unsafe {
        let o = if b { ffi::Py_True() } else { ffi::Py_False() };
        ffi::Py_IncRef(o);
        o
    }
}

unsafe fn py_small_int(v: i8) -> *mut ffi::PyObject {
    // SAFETY: returns a new reference (small ints are cached by CPython).
    unsafe { ffi::PyLong_FromLong(std::os::raw::c_long::from(v)) }
}

entry!(is_winning_fast, is_winning, is_winning_of, py_bool);
entry!(shanten_fast, shanten, shanten_of, py_small_int);
