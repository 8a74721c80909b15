//! `serde_json::Value` → plain Python objects, for results returned as dicts.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use serde_json::Value;

/// A JSON value as plain Python objects (dict, list, str, int, float, bool, None).
pub fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(json_to_py(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// A Python ``int`` argument of any size, saturated to the `i64` range.
///
/// PyO3's own `i64`/`u8`/`usize` extraction raises Python's `OverflowError` for an out-of-range
/// int (``2**70``, a negative count) before our code runs. Parameters take this type instead and
/// check the range themselves, so the caller gets a `HupaiError` naming the parameter; a value
/// beyond `i64` becomes `i64::MIN` / `i64::MAX`, which every range check rejects. Non-integers
/// still raise `TypeError`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnyInt(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for AnyInt {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(v) => Ok(AnyInt(v)),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
                Ok(AnyInt(if obj.lt(0)? { i64::MIN } else { i64::MAX }))
            }
            Err(e) => Err(e),
        }
    }
}

impl From<u8> for AnyInt {
    fn from(v: u8) -> Self {
        AnyInt(i64::from(v))
    }
}

impl AnyInt {
    /// The value as `T` when it lies in `lo..=hi`, else `err(message naming name)`.
    pub fn within<T: TryFrom<i64>>(
        self,
        name: &str,
        lo: i64,
        hi: i64,
        err: impl FnOnce(String) -> crate::errors::BindError,
    ) -> crate::errors::BindResult<T> {
        let v = self.0;
        if (lo..=hi).contains(&v)
            && let Ok(t) = T::try_from(v)
        {
            return Ok(t);
        }
        let shown = match v {
            i64::MAX => "an int beyond 2**63".to_string(),
            i64::MIN => "an int below -2**63".to_string(),
            _ => v.to_string(),
        };
        Err(err(format!("{name}={shown}: expected {lo}..={hi}")))
    }
}
