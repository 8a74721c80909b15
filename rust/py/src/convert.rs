//! The conversion layer between Python objects and the core's input and output: Python → input
//! (strings, sequences, plain data → JSON) with every limit checked before allocation, and
//! `serde_json::Value` → plain Python objects for results returned as dicts.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use serde_json::{Map, Value};

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

// ---------------------------------------------------------------------------------------------
// Python → input: the one conversion layer every entry point uses
//
// Every Python value that becomes core input goes through here: strings (`text`, `Text`),
// sequences copied into vectors (`Seq`), and plain data converted to JSON for the schema parsers
// (`to_json`). Each checks before it allocates: nesting depth (which also bounds cycles), the
// number of values, the length of strings and sequences (from `len()`, before any copy), integer
// ranges, finite floats and well-formed text (no lone surrogates). Every failure is a
// `HupaiError` (or `TypeError` for a value of the wrong Python type) naming where the bad value is
// (`hand.melds[2].type`) and how to write it.

use pyo3::types::{PyFloat, PyInt, PyTuple};

use crate::errors::{BindError, BindResult, hand_err};
use hupai_core::Error as CoreError;

/// Deepest nesting accepted in one argument (cases, records and events are a few levels deep).
pub const MAX_DEPTH: usize = 32;
/// Most values (scalars and containers) in one converted argument.
pub const MAX_VALUES: usize = 1 << 20;
/// Longest string accepted, in bytes (tile text, JSON text, names).
pub const MAX_TEXT: usize = 1 << 22;
/// Most items in one sequence argument (tiles, seats, counts, actions, batch items).
pub const MAX_ITEMS: usize = 1 << 22;

/// A path into an argument, for error messages: `hand.melds[2].type`. A chain of borrowed
/// links on the converter's stack: nothing is formatted (or allocated) unless an error is.
#[derive(Clone, Copy, Debug)]
pub enum Path<'a> {
    Root(&'a str),
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    pub fn root(name: &'a str) -> Self {
        Path::Root(name)
    }
    pub fn key(&'a self, k: &'a str) -> Self {
        Path::Key(self, k)
    }
    pub fn index(&'a self, i: usize) -> Self {
        Path::Index(self, i)
    }
    /// The whole path as text (`hand.melds[2].type`; empty at an unnamed root).
    fn render(&self) -> String {
        match self {
            Path::Root(name) => (*name).to_string(),
            Path::Key(up, k) => {
                let mut s = up.render();
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
                s
            }
            Path::Index(up, i) => format!("{}[{i}]", up.render()),
        }
    }
    /// `"hand.melds[2]: "`, or nothing at the root of an unnamed argument.
    fn prefix(&self) -> String {
        let path = self.render();
        if path.is_empty() {
            String::new()
        } else if path.chars().count() > 96 {
            let head: String = path.chars().take(32).collect();
            let tail: Vec<char> = path.chars().rev().take(48).collect();
            let tail: String = tail.into_iter().rev().collect();
            format!("{head}…{tail}: ")
        } else {
            format!("{path}: ")
        }
    }
}

/// A type name for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

/// The text of a Python `str`, refusing lone surrogates (which have no UTF-8 form) and
/// strings longer than `MAX_TEXT` bytes; `what` names the argument.
pub fn text<'a>(s: &'a Bound<'_, PyString>, what: &str) -> BindResult<&'a str> {
    match s.to_str() {
        Ok(t) if t.len() > MAX_TEXT => Err(hand_err(format!(
            "{what}: a string of {} bytes is longer than the {MAX_TEXT} accepted",
            t.len()
        ))),
        Ok(t) => Ok(t),
        Err(e) => {
            let py = s.py();
            let at = e
                .value(py)
                .getattr("start")
                .and_then(|v| v.extract::<usize>())
                .ok();
            let cp = at
                .and_then(|i| s.as_any().get_item(i).ok())
                .and_then(|c| c.call_method0("__repr__").ok())
                .map(|r| r.to_string())
                .unwrap_or_else(|| "'\\ud800'".into());
            Err(hand_err(format!(
                "{what}: the string holds a lone surrogate {cp}{} which is not a character; \
                 write text as valid Unicode (e.g. decode bytes with errors='strict')",
                at.map(|i| format!(" at position {i}")).unwrap_or_default()
            )))
        }
    }
}

/// An owned string argument extracted through `text` (surrogates and size refused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text(pub String);

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Text {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text(s.to_string())
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let s = obj.cast::<PyString>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "expected a str, got {}",
                type_name(&obj)
            ))
        })?;
        Ok(Text(text(&s, "str")?.to_string()))
    }
}

/// The length of a sized Python object, refused above `max` before anything is copied.
/// A `len()` that does not fit a machine word (`range(2**64)`) is refused the same way.
pub fn bounded_len(obj: &Bound<'_, PyAny>, max: usize, what: &str) -> BindResult<usize> {
    match obj.len() {
        Ok(n) if n <= max => Ok(n),
        Ok(n) => Err(hand_err(format!(
            "{what}: {n} items, more than the {max} accepted; pass at most {max}"
        ))),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => Err(hand_err(
            format!("{what}: more items than fit in memory, more than the {max} accepted"),
        )),
        Err(e) => Err(e.into()),
    }
}

/// A sequence argument copied into a `Vec` after its `len()` is checked against `MAX_ITEMS` (a
/// `range(10**12)` is refused at once instead of pre-allocating). Takes a list, tuple or any
/// sized iterable except `str`/`bytes`/`dict`.
#[derive(Clone, Debug)]
pub struct Seq<T>(pub Vec<T>);

impl<T> std::ops::Deref for Seq<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T> IntoIterator for Seq<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a Seq<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a, 'py, T> FromPyObject<'a, 'py> for Seq<T>
where
    T: for<'b> FromPyObject<'b, 'py>,
{
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj = obj.to_owned();
        if obj.cast::<PyString>().is_ok()
            || obj.cast::<pyo3::types::PyBytes>().is_ok()
            || obj.cast::<PyDict>().is_ok()
        {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "expected a list or tuple, got {}",
                type_name(&obj)
            )));
        }
        let n = bounded_len(&obj, MAX_ITEMS, "sequence")
            .map_err(PyErr::from)
            .map_err(|e| {
                if e.is_instance_of::<pyo3::exceptions::PyTypeError>(obj.py()) {
                    pyo3::exceptions::PyTypeError::new_err(format!(
                        "expected a list or tuple, got {}",
                        type_name(&obj)
                    ))
                } else {
                    e
                }
            })?;
        let mut out = Vec::with_capacity(n.min(1024));
        for item in obj.try_iter()? {
            if out.len() >= MAX_ITEMS {
                return Err(hand_err(format!(
                    "sequence: more than the {MAX_ITEMS} items accepted"
                ))
                .into());
            }
            let item = item?;
            let i = out.len();
            out.push(
                item.extract::<T>()
                    .map_err(|e| shape_error(obj.py(), e.into(), i))?,
            );
        }
        Ok(Seq(out))
    }
}

/// PyO3 reports a tuple or array of the wrong length as `ValueError`; that is a wrong Python
/// shape, so it becomes a `TypeError` (typed errors of ours pass through unchanged).
fn shape_error(py: Python<'_>, e: PyErr, index: usize) -> PyErr {
    if e.is_instance_of::<pyo3::exceptions::PyValueError>(py)
        && !e.is_instance_of::<crate::errors::HupaiError>(py)
    {
        pyo3::exceptions::PyTypeError::new_err(format!("item {index}: {}", e.value(py)))
    } else {
        e
    }
}

/// A fixed-shape argument (a tuple such as `(left, right)`, an array of 6): extracted as `T`, a
/// wrong length is a `TypeError` (PyO3 alone raises `ValueError`).
#[derive(Clone, Copy, Debug)]
pub struct Tup<T>(pub T);

impl<'a, 'py, T> FromPyObject<'a, 'py> for Tup<T>
where
    T: for<'b> FromPyObject<'b, 'py>,
{
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let py = obj.py();
        obj.to_owned()
            .extract::<T>()
            .map(Tup)
            .map_err(Into::into)
            .map_err(|e: PyErr| {
                if e.is_instance_of::<pyo3::exceptions::PyValueError>(py)
                    && !e.is_instance_of::<crate::errors::HupaiError>(py)
                {
                    pyo3::exceptions::PyTypeError::new_err(e.value(py).to_string())
                } else {
                    e
                }
            })
    }
}

/// Plain Python data → JSON for the schema parsers, strictly: `dict` (str keys), `list`/`tuple`,
/// `str`, `int` (and objects with `__index__`), finite `float`, `bool`, `None`, plus `hupai.Tile`
/// (its text) and `hupai.Meld` (its case-schema object). `root` names the argument in errors
/// (`"case"` → `case.hand.melds[2].type`); pass `""` for an unnamed one.
pub fn to_json(obj: &Bound<'_, PyAny>, root: &str) -> BindResult<Value> {
    let mut tree = Tree::default();
    Conv::new(&mut tree).value(obj, &Path::root(root), 0)?;
    Ok(tree.done.unwrap_or(Value::Null))
}

/// [`to_json`] as JSON text: the same checks and errors, but one buffer instead of a tree of
/// allocations, so that a batch holds the GIL only for the copy and reads the request on the
/// thread that scores it ([`crate::request::parse_text`]).
pub fn to_json_text(obj: &Bound<'_, PyAny>, root: &str) -> BindResult<Vec<u8>> {
    let mut text = Vec::with_capacity(512);
    Conv::new(&mut text).value(obj, &Path::root(root), 0)?;
    Ok(text)
}

/// What [`Conv`] makes of the values it reads, in reading order (a container's items between its
/// `open` and `close`; an object's keys before their values).
trait Emit {
    fn scalar(&mut self, v: Scalar<'_>);
    /// An object (`obj`) or an array, of `n` items.
    fn open(&mut self, obj: bool, n: usize);
    fn key(&mut self, k: &str);
    /// The end of the innermost open object (`obj`) or array.
    fn close(&mut self, obj: bool);
}

/// A leaf value.
enum Scalar<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
    /// A `hupai.Tile` or `hupai.Meld`, already in its JSON form.
    Json(Value),
}

/// [`Emit`] into a `serde_json::Value` tree.
#[derive(Default)]
struct Tree {
    /// The open containers, innermost last, each with the key its next value goes under.
    open: Vec<(Value, Option<String>)>,
    done: Option<Value>,
}

impl Tree {
    fn put(&mut self, v: Value) {
        match self.open.last_mut() {
            Some((Value::Object(m), key)) => {
                m.insert(key.take().unwrap_or_default(), v);
            }
            Some((Value::Array(a), _)) => a.push(v),
            _ => self.done = Some(v),
        }
    }
}

impl Emit for Tree {
    fn scalar(&mut self, v: Scalar<'_>) {
        self.put(match v {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Int(i) => Value::from(i),
            Scalar::Float(x) => serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number),
            Scalar::Str(t) => Value::String(t.to_string()),
            Scalar::Json(v) => v,
        });
    }
    fn open(&mut self, obj: bool, n: usize) {
        let c = if obj {
            Value::Object(Map::new())
        } else {
            Value::Array(Vec::with_capacity(n))
        };
        self.open.push((c, None));
    }
    fn key(&mut self, k: &str) {
        if let Some((_, key)) = self.open.last_mut() {
            *key = Some(k.to_string());
        }
    }
    fn close(&mut self, _obj: bool) {
        if let Some((c, _)) = self.open.pop() {
            self.put(c);
        }
    }
}

/// [`Emit`] as JSON text.
impl Emit for Vec<u8> {
    fn scalar(&mut self, v: Scalar<'_>) {
        separate(self);
        // Writing a scalar or a `Value` into a `Vec` cannot fail.
        let _ = match v {
            Scalar::Null => serde_json::to_writer(&mut *self, &()),
            Scalar::Bool(b) => serde_json::to_writer(&mut *self, &b),
            Scalar::Int(i) => serde_json::to_writer(&mut *self, &i),
            Scalar::Float(x) => serde_json::to_writer(&mut *self, &x),
            Scalar::Str(t) => serde_json::to_writer(&mut *self, t),
            Scalar::Json(v) => serde_json::to_writer(&mut *self, &v),
        };
    }
    fn open(&mut self, obj: bool, _n: usize) {
        separate(self);
        self.push(if obj { b'{' } else { b'[' });
    }
    fn key(&mut self, k: &str) {
        separate(self);
        let _ = serde_json::to_writer(&mut *self, k);
        self.push(b':');
    }
    fn close(&mut self, obj: bool) {
        self.push(if obj { b'}' } else { b']' });
    }
}

/// The comma of the text [`Emit`]: before every item but a container's first and a key's value.
fn separate(out: &mut Vec<u8>) {
    if !matches!(out.last(), None | Some(b'[' | b'{' | b':')) {
        out.push(b',');
    }
}

/// The walk over Python data shared by [`to_json`] and [`to_json_text`]: every check and error is
/// here, what is built is the [`Emit`]'s.
struct Conv<'e, E: Emit> {
    budget: usize,
    stack: Vec<usize>,
    out: &'e mut E,
}

impl<'e, E: Emit> Conv<'e, E> {
    fn new(out: &'e mut E) -> Self {
        Conv {
            budget: MAX_VALUES,
            stack: Vec::new(),
            out,
        }
    }

    fn take(&mut self, n: usize, path: &Path) -> BindResult<()> {
        if n > self.budget {
            return Err(hand_err(format!(
                "{}the data holds more than the {MAX_VALUES} values accepted in one argument",
                path.prefix()
            )));
        }
        self.budget -= n;
        Ok(())
    }

    fn enter(&mut self, obj: &Bound<'_, PyAny>, path: &Path, depth: usize) -> BindResult<()> {
        let id = obj.as_ptr() as usize;
        if self.stack.contains(&id) {
            return Err(hand_err(format!(
                "{}the data contains itself (a cycle); pass a tree of dicts and lists",
                path.prefix()
            )));
        }
        if depth >= MAX_DEPTH {
            return Err(hand_err(format!(
                "{}data nested more than {MAX_DEPTH} levels deep; cases, records and events are \
                 a few levels of dicts and lists",
                path.prefix()
            )));
        }
        self.stack.push(id);
        Ok(())
    }

    fn value(&mut self, obj: &Bound<'_, PyAny>, path: &Path, depth: usize) -> BindResult<()> {
        self.take(1, path)?;
        if obj.is_none() {
            self.out.scalar(Scalar::Null);
            return Ok(());
        }
        if let Ok(b) = obj.cast::<PyBool>() {
            self.out.scalar(Scalar::Bool(b.is_true()));
            return Ok(());
        }
        if obj.cast::<PyInt>().is_ok() {
            self.out.scalar(Scalar::Int(int_value(obj, path)?));
            return Ok(());
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            let x = f.value();
            if !x.is_finite() {
                return Err(hand_err(format!(
                    "{}{x} is not a finite number; write a bool, an int or a finite float",
                    path.prefix()
                )));
            }
            self.out.scalar(Scalar::Float(x));
            return Ok(());
        }
        if let Ok(s) = obj.cast::<PyString>() {
            match s.to_str() {
                Ok(t) if t.len() <= MAX_TEXT => self.out.scalar(Scalar::Str(t)),
                // the slow path only to word the error
                _ => {
                    let what = path.render();
                    let t = text(s, if what.is_empty() { "str" } else { &what })?;
                    self.out.scalar(Scalar::Str(t));
                }
            }
            return Ok(());
        }
        if let Ok(t) = obj.cast::<crate::tiles::PyTile>() {
            self.out
                .scalar(Scalar::Json(Value::String(t.get().inner.to_string())));
            return Ok(());
        }
        if let Ok(m) = obj.cast::<crate::hand::PyMeld>() {
            self.out.scalar(Scalar::Json(meld_value(&m.get().inner)));
            return Ok(());
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            self.take(d.len(), path)?;
            self.enter(obj, path, depth)?;
            self.out.open(true, d.len());
            for (k, v) in d.iter() {
                let Ok(ks) = k.cast::<PyString>() else {
                    return Err(BindError::Py(pyo3::exceptions::PyTypeError::new_err(
                        format!(
                            "{}dict keys must be str, got {} {}",
                            path.prefix(),
                            type_name(&k),
                            k.repr().map(|r| r.to_string()).unwrap_or_default()
                        ),
                    )));
                };
                let key = match ks.to_str() {
                    Ok(t) if t.len() <= MAX_TEXT => t,
                    _ => text(ks, &format!("{}key", path.prefix()))?,
                };
                self.out.key(key);
                let sub = path.key(key);
                self.value(&v, &sub, depth + 1)?;
            }
            self.out.close(true);
            self.stack.pop();
            return Ok(());
        }
        let seq = obj
            .cast::<PyList>()
            .map(|l| l.len())
            .ok()
            .or_else(|| obj.cast::<PyTuple>().map(|t| t.len()).ok());
        if let Some(n) = seq {
            self.take(n, path)?;
            self.enter(obj, path, depth)?;
            self.out.open(false, n);
            for (i, x) in obj.try_iter()?.enumerate() {
                self.value(&x?, &path.index(i), depth + 1)?;
            }
            self.out.close(false);
            self.stack.pop();
            return Ok(());
        }
        if obj.hasattr("__index__").unwrap_or(false)
            && obj.cast::<PyFloat>().is_err()
            && let Ok(i) = obj.call_method0("__index__")
        {
            self.out.scalar(Scalar::Int(int_value(&i, path)?));
            return Ok(());
        }
        Err(BindError::Py(pyo3::exceptions::PyTypeError::new_err(
            format!(
                "{}expected plain data (dict, list, tuple, str, int, float, bool, None), got {}",
                path.prefix(),
                type_name(obj)
            ),
        )))
    }
}

fn int_value(obj: &Bound<'_, PyAny>, path: &Path) -> BindResult<i64> {
    match obj.extract::<i64>() {
        Ok(i) => Ok(i),
        Err(_) => Err(hand_err(format!(
            "{}the int {} is out of range; integers here lie in -2**63..2**63-1",
            path.prefix(),
            shown_int(obj)
        ))),
    }
}

/// An int for a message, shortened when it is huge.
fn shown_int(obj: &Bound<'_, PyAny>) -> String {
    let s = obj.str().map(|s| s.to_string()).unwrap_or_default();
    if s.len() > 24 {
        format!("{}…({} digits)", &s[..12], s.len())
    } else {
        s
    }
}

/// The case-schema object of a meld.
pub fn meld_value(meld: &hupai_core::hand::Meld) -> Value {
    let tiles: Vec<Value> = meld
        .tiles()
        .iter()
        .map(|t| Value::String(t.to_string()))
        .collect();
    serde_json::json!({
        "type": meld.kind.name(),
        "tiles": tiles,
        "offer": meld.from,
        "concealed": meld.concealed,
    })
}

/// JSON text (a `str` argument) parsed, size-checked first; nesting is bounded by serde_json's
/// own recursion limit (128), which returns an error rather than overflowing the stack.
pub fn json_text(s: &Bound<'_, PyString>, what: &str) -> BindResult<Value> {
    Ok(parse_json_text(text(s, what)?, what)?)
}

/// [`json_text`] of text already copied out of Python (callable without the GIL).
pub fn parse_json_text(t: &str, what: &str) -> Result<Value, CoreError> {
    serde_json::from_str(t).map_err(|e| CoreError::hand(format!("{what} JSON: {e}")))
}

/// A dict or JSON text argument as JSON (`what` names it in errors).
pub fn json_arg(obj: &Bound<'_, PyAny>, what: &str) -> BindResult<Value> {
    if let Ok(s) = obj.cast::<PyString>() {
        return json_text(s, what);
    }
    to_json(obj, what)
}

/// A short `repr()` for error messages: never fails (a deep or cyclic value whose `repr()` raises
/// `RecursionError` shows as its type name) and at most 80 characters.
pub fn shown(obj: &Bound<'_, PyAny>) -> String {
    match obj.repr() {
        Ok(r) => {
            let r = r.to_string();
            if r.chars().count() > 80 {
                format!("{}…", r.chars().take(77).collect::<String>())
            } else {
                r
            }
        }
        Err(_) => format!("<{}>", type_name(obj)),
    }
}
