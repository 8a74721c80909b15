//! The scoring service's hot path: one call per HTTP request, raw request bytes in, response
//! bytes out, the GIL released while it runs.
//!
//! `serve_score(body)` answers `POST /v1/score` and `serve_score_batch(body)` answers `POST
//! /v1/score/batch` (`serve_waits` / `serve_shanten`: `POST /v1/waits` / `/v1/shanten` for tile
//! games with a hand string) for the requests that are plainly valid, under every preset: the JSON
//! is parsed with serde_json, the documented request schema (`hupai.server.schemas.ScoreRequest`:
//! keys, types, length limits, integers within ±2**53) is checked here, the request is scored by
//! the same function as `hupai.score_json` (`crate::request`), and the response is serialised
//! exactly as the Python service would (same keys, same order, same separators).
//!
//! Anything else returns `None` and the Python service (`hupai.server.app`, pydantic models)
//! handles the request: bad JSON, unknown keys, floats, any engine error. So every error answer —
//! its status, the field it names, its message — comes from one place, and the fast path can only
//! ever produce the 200 answers the slow path would produce.

use std::cell::RefCell;

use hupai_core::analysis;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::{Map, Value, json};

use crate::analysis::{
    fitting_forms, hand_input_str, shanten_of_input, shapes_from_names, waits_of_input,
};
use crate::request::{DEFAULT_VARIANT, score_request as score_one, variant_by_id};

/// The request schema's limits (mirrors `hupai.server.schemas`).
const MAX_VARIANT_CHARS: usize = 64;
const MAX_HAND_CHARS: usize = 200;
const MAX_SITUATION_KEYS: usize = 64;
const MAX_CONCEALED: usize = 40;
const MAX_MELDS: usize = 8;
const MAX_MELD_TYPE_CHARS: usize = 32;
const MAX_MELD_TILES: usize = 8;
const MAX_WIN_TILE_CHARS: usize = 8;
const MAX_BATCH: usize = 256;
const MAX_SHAPES: usize = 8;
const MAX_WILDCARDS: u64 = 8;
const MAX_OPTIONS: usize = 64;
const MAX_OPTION_CHARS: usize = 64;
/// Integers beyond this are refused by the service (JSON's safe integer range).
const MAX_INT: u64 = 1 << 53;

fn short(s: &str, max: usize) -> bool {
    s.len() <= max || s.chars().count() <= max
}

/// Every number an integer within ±2**53 (the service refuses others; floats are left to it).
fn ints_ok(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.unsigned_abs() <= MAX_INT
            } else {
                n.as_u64().is_some_and(|u| u <= MAX_INT)
            }
        }
        Value::Array(a) => a.iter().all(ints_ok),
        Value::Object(o) => o.values().all(ints_ok),
        _ => true,
    }
}

fn no_nulls(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Array(a) => a.iter().all(no_nulls),
        Value::Object(o) => o.values().all(no_nulls),
        _ => true,
    }
}

fn strings(v: &Value, max_len: usize, max_chars: Option<usize>) -> bool {
    match v {
        Value::Array(a) => {
            a.len() <= max_len
                && a.iter().all(|t| match t {
                    Value::String(s) => max_chars.is_none_or(|m| short(s, m)),
                    _ => false,
                })
        }
        _ => false,
    }
}

/// The `hand` object of the case schema as the service's model dumps it (`HandIn`: `concealed`,
/// `melds` (default empty), `win_tile`, extra keys kept), or `None` if the model would refuse it.
fn hand_object(mut h: Map<String, Value>) -> Option<Value> {
    if !h.values().all(no_nulls) {
        return None; // the model drops nulls (exclude_none): let it
    }
    if !strings(h.get("concealed")?, MAX_CONCEALED, None) {
        return None;
    }
    if let Some(melds) = h.get("melds") {
        let Value::Array(ms) = melds else { return None };
        if ms.len() > MAX_MELDS {
            return None;
        }
        for m in ms {
            let Value::Object(m) = m else { return None };
            match m.get("type") {
                Some(Value::String(t)) if short(t, MAX_MELD_TYPE_CHARS) => {}
                _ => return None,
            }
            if !strings(m.get("tiles")?, MAX_MELD_TILES, None) {
                return None;
            }
        }
    }
    match h.get("win_tile") {
        None => {}
        Some(Value::String(w)) if short(w, MAX_WIN_TILE_CHARS) => {}
        _ => return None,
    }
    h.entry("melds").or_insert_with(|| json!([]));
    Some(Value::Object(h))
}

/// One request object scored (the score and the `id` to echo); `None` when the Python service must
/// answer.
fn score_request(req: Value) -> Option<(hupai_core::scoring::score::Score, Option<Value>)> {
    let Value::Object(mut req) = req else {
        return None;
    };
    if req.keys().any(|k| {
        !matches!(
            k.as_str(),
            "variant" | "options" | "hand" | "situation" | "id"
        )
    }) {
        return None;
    }
    let variant = match req.remove("variant") {
        None => DEFAULT_VARIANT.to_string(),
        Some(Value::String(s)) if short(&s, MAX_VARIANT_CHARS) => s,
        _ => return None,
    };
    let options = match req.remove("options") {
        None => Map::new(),
        Some(Value::Object(o))
            if o.len() <= MAX_OPTIONS
                && o.iter().all(|(k, v)| {
                    short(k, MAX_OPTION_CHARS)
                        && match v {
                            Value::Bool(_) | Value::String(_) => true,
                            n @ Value::Number(_) => ints_ok(n) && n.is_i64(),
                            _ => false,
                        }
                }) =>
        {
            o
        }
        _ => return None,
    };
    let situation = match req.remove("situation") {
        None => Value::Object(Map::new()),
        Some(s @ Value::Object(_))
            if s.as_object().is_some_and(|o| o.len() <= MAX_SITUATION_KEYS) && ints_ok(&s) =>
        {
            s
        }
        _ => return None,
    };
    let id = match req.remove("id") {
        None | Some(Value::Null) => None,
        Some(v @ Value::String(_)) => Some(v),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Some(Value::Number(n)),
        _ => return None,
    };
    let hand = match req.remove("hand")? {
        Value::String(s) if short(&s, MAX_HAND_CHARS) => Value::String(s),
        h @ Value::Object(_) if ints_ok(&h) => {
            let Value::Object(o) = h else { return None };
            hand_object(o)?
        }
        _ => return None,
    };
    let mut r = Map::new();
    r.insert("variant".into(), Value::String(variant));
    if !options.is_empty() {
        r.insert("options".into(), Value::Object(options));
    }
    r.insert("hand".into(), hand);
    r.insert("situation".into(), situation);
    if let Some(id) = id {
        r.insert("id".into(), id);
    }
    score_one(Value::Object(r), None).ok()
}

/// Append the answer as the service writes it: the score's keys in order, then `id`.
fn write_result(buf: &mut Vec<u8>, answer: &(hupai_core::scoring::score::Score, Option<Value>)) {
    // Serialising a score or a Value cannot fail (string keys, finite numbers).
    serde_json::to_writer(&mut *buf, &answer.0).expect("a score serialises");
    if let Some(id) = &answer.1 {
        buf.pop(); // the closing brace
        buf.extend_from_slice(b",\"id\":");
        serde_json::to_writer(&mut *buf, id).expect("JSON value serialises");
        buf.push(b'}');
    }
}

fn score_body(body: &[u8], buf: &mut Vec<u8>) -> Option<()> {
    let req: Value = serde_json::from_slice(body).ok()?;
    write_result(buf, &score_request(req)?);
    Some(())
}

fn score_batch_body(body: &[u8], buf: &mut Vec<u8>) -> Option<()> {
    let req: Value = serde_json::from_slice(body).ok()?;
    let Value::Object(mut o) = req else {
        return None;
    };
    if o.len() != 1 {
        return None;
    }
    let Value::Array(items) = o.remove("items")? else {
        return None;
    };
    if items.len() > MAX_BATCH {
        return None;
    }
    buf.extend_from_slice(b"{\"results\":[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        write_result(buf, &score_request(item)?);
    }
    buf.extend_from_slice(b"]}");
    Some(())
}

thread_local! {
    /// The answer being written (reused: no allocation per request once it has grown).
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Run `write` without the GIL into this thread's answer buffer; the answer as `bytes`, or `None`.
fn answer<'py>(
    py: Python<'py>,
    body: &[u8],
    write: fn(&[u8], &mut Vec<u8>) -> Option<()>,
) -> Option<Bound<'py, PyBytes>> {
    // `detach` runs the closure on this thread, so the buffer is the same one afterwards.
    let ok = py.detach(|| {
        ANSWER.with_borrow_mut(|buf| {
            buf.clear();
            let ok = write(body, buf).is_some();
            if buf.capacity() > 1 << 20 {
                buf.shrink_to(1 << 16); // do not keep a big batch's buffer
            }
            ok
        })
    });
    ok.then(|| ANSWER.with_borrow(|buf| PyBytes::new(py, buf)))
}

/// The body of the 200 answer to ``POST /v1/score`` with this request body, or ``None`` when the
/// request is not plainly valid (the caller then lets the Python service answer). Runs without
/// the GIL.
#[pyfunction]
pub fn serve_score<'py>(py: Python<'py>, body: &[u8]) -> Option<Bound<'py, PyBytes>> {
    answer(py, body, score_body)
}

/// The body of the 200 answer to ``POST /v1/score/batch``, or ``None`` unless every item is
/// plainly valid (then the Python service answers, with its per-item errors). Runs without the
/// GIL.
#[pyfunction]
pub fn serve_score_batch<'py>(py: Python<'py>, body: &[u8]) -> Option<Bound<'py, PyBytes>> {
    answer(py, body, score_batch_body)
}

// ---------------------------------------------------------------------------------------------
// /v1/waits and /v1/shanten

/// A `HandQuery` body for a tile game with a hand string (`hupai.server.schemas.HandQuery`):
/// the hand text, the shapes and the wildcard count; `None` when the Python service must answer
/// (hand as a list, 字牌, melds, anything the model would refuse).
fn analysis_query(body: &[u8]) -> Option<(String, hupai_core::Shapes, u8)> {
    let Value::Object(mut q) = serde_json::from_slice(body).ok()? else {
        return None;
    };
    if q.keys().any(|k| {
        !matches!(
            k.as_str(),
            "hand" | "variant" | "shapes" | "wildcards" | "melds"
        )
    }) {
        return None;
    }
    let Value::String(hand) = q.remove("hand")? else {
        return None;
    };
    if !short(&hand, MAX_HAND_CHARS) {
        return None;
    }
    let default_shapes = match q.get("variant") {
        None => variant_by_id(DEFAULT_VARIANT).ok()?.ruleset().shapes()?,
        Some(Value::String(v)) if short(v, MAX_VARIANT_CHARS) => {
            variant_by_id(v).ok()?.ruleset().shapes()? // 字牌 or unknown: the service answers
        }
        _ => return None,
    };
    match q.get("melds") {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) if a.is_empty() => {}
        _ => return None,
    }
    let wildcards = match q.get("wildcards") {
        None => 0,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(w) if w <= MAX_WILDCARDS => u8::try_from(w).ok()?,
            _ => return None,
        },
        _ => return None,
    };
    let names: Option<Vec<String>> = match q.remove("shapes") {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) if a.len() <= MAX_SHAPES => {
            let mut names = Vec::with_capacity(a.len());
            for n in a {
                let Value::String(n) = n else { return None };
                names.push(n);
            }
            Some(names)
        }
        _ => return None,
    };
    let shapes = match names {
        None => default_shapes,
        Some(n) => shapes_from_names(&n).ok()?.inner,
    };
    Some((hand, shapes, wildcards))
}

fn waits_body(body: &[u8], buf: &mut Vec<u8>) -> Option<()> {
    let (hand, shapes, w) = analysis_query(body)?;
    let h = hand_input_str(&hand).ok()?;
    let sh = shanten_of_input(&h, w, shapes).ok()?;
    let waits: Vec<String> = if sh == 0 {
        let mask = waits_of_input(&h, w, shapes, || Ok(None)).ok()?;
        analysis::mask_tiles(mask).map(|t| t.to_string()).collect()
    } else {
        Vec::new()
    };
    buf.extend_from_slice(b"{\"hand\":");
    serde_json::to_writer(&mut *buf, &hand).ok()?;
    buf.extend_from_slice(b",\"waits\":");
    serde_json::to_writer(&mut *buf, &waits).ok()?;
    buf.extend_from_slice(format!(",\"shanten\":{sh}}}").as_bytes());
    Some(())
}

fn shanten_body(body: &[u8], buf: &mut Vec<u8>) -> Option<()> {
    let (hand, shapes, w) = analysis_query(body)?;
    let h = hand_input_str(&hand).ok()?;
    let f = analysis::shanten_forms(&h.counts, w, h.melds, shapes).ok()?;
    buf.extend_from_slice(b"{\"hand\":");
    serde_json::to_writer(&mut *buf, &hand).ok()?;
    buf.extend_from_slice(format!(",\"shanten\":{},\"forms\":{{", f.min).as_bytes());
    let mut first = true;
    for (name, v) in fitting_forms(f) {
        if !first {
            buf.push(b',');
        }
        first = false;
        buf.extend_from_slice(format!("\"{name}\":{v}").as_bytes());
    }
    buf.extend_from_slice(b"}}");
    Some(())
}

/// The body of the 200 answer to ``POST /v1/waits`` (tile games, hand as a string), or ``None``.
#[pyfunction]
pub fn serve_waits<'py>(py: Python<'py>, body: &[u8]) -> Option<Bound<'py, PyBytes>> {
    answer(py, body, waits_body)
}

/// The body of the 200 answer to ``POST /v1/shanten`` (tile games, hand as a string), or ``None``.
#[pyfunction]
pub fn serve_shanten<'py>(py: Python<'py>, body: &[u8]) -> Option<Bound<'py, PyBytes>> {
    answer(py, body, shanten_body)
}
