//! One scoring request, the same for `hupai.score_json`, `hupai.batch.score` (dict items), the CLI's
//! `--jsonl` and the service (`POST /v1/score`): `{"variant", "options", "hand", "situation",
//! "id"}` → the variant (compiled once per switch set, cached) and the preset's parsed case.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use hupai_core::Variant;
use hupai_core::error::Error as CoreError;
use hupai_core::preset::SwitchValue;
use hupai_core::rules::Case;
use hupai_core::situation::{CaseHand, FlagsInput, ObjectOnly};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The keys of a request.
pub const REQUEST_KEYS: &[&str] = &["variant", "options", "hand", "situation", "id"];

/// The default preset of a request without `variant`.
pub const DEFAULT_VARIANT: &str = "mcr";

type Cache = Mutex<HashMap<String, Arc<Variant>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Most compiled variants kept (a request names its switches; the cache cannot grow without end).
const CACHE_MAX: usize = 1024;

/// A preset with default switches, compiled once.
pub fn variant_by_id(id: &str) -> Result<Arc<Variant>, CoreError> {
    variant_with(id, &Map::new())
}

fn switch_value(k: &str, v: &Value) -> Result<SwitchValue, CoreError> {
    match v {
        Value::Bool(b) => Ok(SwitchValue::Bool(*b)),
        Value::Number(n) => n.as_i64().map(SwitchValue::Int).ok_or_else(|| {
            CoreError::rule(format!("options.{k}: an integer switch value, got {n}"))
        }),
        Value::String(s) => Ok(SwitchValue::Str(s.clone())),
        other => Err(CoreError::rule(format!(
            "options.{k}: a switch value is a bool, an int or a str, got {other}"
        ))),
    }
}

/// A preset with switches (`options`), compiled once per distinct switch set.
pub fn variant_with(id: &str, options: &Map<String, Value>) -> Result<Arc<Variant>, CoreError> {
    let key = if options.is_empty() {
        id.to_string()
    } else {
        format!("{id}\u{0}{}", Value::Object(options.clone()))
    };
    let mut c = cache()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(v) = c.get(&key) {
        return Ok(v.clone());
    }
    let overrides = options
        .iter()
        .map(|(k, v)| Ok((k.clone(), switch_value(k, v)?)))
        .collect::<Result<Vec<_>, CoreError>>()?;
    let v = Arc::new(Variant::with_options(id, overrides)?);
    if c.len() >= CACHE_MAX {
        c.clear();
    }
    c.insert(key, v.clone());
    Ok(v)
}

/// A parsed request: the variant, the case, and the `id` to echo.
pub struct Request {
    pub variant: Arc<Variant>,
    pub case: Case,
    pub id: Option<Value>,
}

/// Parse a request object strictly (`default`: the variant when the request names none).
pub fn parse(v: Value, default: Option<&Arc<Variant>>) -> Result<Request, CoreError> {
    let Value::Object(mut o) = v else {
        return Err(CoreError::hand(
            "a scoring request is an object {\"variant\", \"options\", \"hand\", \"situation\", \"id\"}",
        ));
    };
    for k in o.keys() {
        if !REQUEST_KEYS.contains(&k.as_str()) {
            return Err(CoreError::hand(format!(
                "unknown key {k:?} in a scoring request; accepted: {}",
                REQUEST_KEYS.join(", ")
            )));
        }
    }
    let (variant, id) = head(
        o.remove("variant"),
        o.remove("options"),
        o.remove("id"),
        default,
    )?;
    // What is left is the case itself (no copy of the hand).
    let case = variant.ruleset().parse_case(&Value::Object(o))?;
    Ok(Request { variant, case, id })
}

/// The variant and the `id` of a request, from its `variant`, `options` and `id` values.
fn head(
    variant: Option<Value>,
    options: Option<Value>,
    id: Option<Value>,
    default: Option<&Arc<Variant>>,
) -> Result<(Arc<Variant>, Option<Value>), CoreError> {
    let options = match options {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(CoreError::rule(format!(
                "options: an object {{switch: value}}, got {other}"
            )));
        }
    };
    let variant = match (variant, default) {
        (None | Some(Value::Null), Some(d)) if options.is_empty() => d.clone(),
        (None | Some(Value::Null), Some(d)) => variant_with(d.id(), &options)?,
        (None | Some(Value::Null), None) => variant_with(DEFAULT_VARIANT, &options)?,
        (Some(Value::String(id)), _) => variant_with(&id, &options)?,
        (Some(other), _) => {
            return Err(CoreError::rule(format!(
                "variant: a preset id, got {other}"
            )));
        }
    };
    let id = match id {
        None | Some(Value::Null) => None,
        Some(x @ Value::String(_)) => Some(x),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Some(Value::Number(n)),
        Some(other) => {
            return Err(CoreError::hand(format!(
                "id: a string or an integer (echoed in the result), got {other}"
            )));
        }
    };
    Ok((variant, id))
}

/// The `id` of a request's JSON text, whatever the rest holds (to echo it beside an error);
/// `None` when the text is not an object or has no `id` (or a `null` one).
pub fn id_of(text: &str) -> Option<Value> {
    #[derive(Deserialize)]
    struct IdOnly {
        #[serde(default)]
        id: Option<Value>,
    }
    serde_json::from_str::<IdOnly>(text).ok()?.id
}

/// A request read from JSON text in one pass: the small values as text (read again as trees, when
/// present), the tile case into its input types.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RequestText<'a> {
    #[serde(default, borrow)]
    variant: Option<&'a RawValue>,
    #[serde(default, borrow)]
    options: Option<&'a RawValue>,
    #[serde(default)]
    hand: Option<CaseHand>,
    #[serde(default)]
    situation: Option<ObjectOnly<FlagsInput>>,
    #[serde(default, borrow)]
    id: Option<&'a RawValue>,
}

/// [`parse`] of a request's JSON text (`what` names it in a syntax error). A tile preset's case
/// is read straight into its types ([`hupai_core::rules::Ruleset::parse_case_text`]): building
/// and freeing a JSON tree of the request costs several times the scoring of the hand. Anything
/// that reading does not take — another game's case (whose `hand` may not even read as a tile
/// hand), a request with an error — goes through the tree and [`parse`], so the answers and the
/// error messages are `parse`'s.
pub fn parse_text(
    text: &str,
    what: &str,
    default: Option<&Arc<Variant>>,
) -> Result<Request, CoreError> {
    if let Some(r) = parse_text_direct(text, default) {
        return r;
    }
    parse(
        serde_json::from_str(text).map_err(|e| CoreError::hand(format!("{what} JSON: {e}")))?,
        default,
    )
}

/// The reading of [`parse_text`] without a tree; `None` when the tree must answer.
fn parse_text_direct(
    text: &str,
    default: Option<&Arc<Variant>>,
) -> Option<Result<Request, CoreError>> {
    let r: RequestText<'_> = serde_json::from_str(text).ok()?;
    // the small values as trees (usually absent); valid JSON already, so these cannot fail
    let tree = |raw: Option<&RawValue>| -> Option<Option<Value>> {
        raw.map(|x| serde_json::from_str(x.get()).ok())
            .map_or(Some(None), |v| v.map(Some))
    };
    let (variant, id) = head(tree(r.variant)?, tree(r.options)?, tree(r.id)?, default).ok()?;
    // an error of the case is the tree reading's too: same functions on the same values
    let case = variant
        .ruleset()
        .parse_case_text(r.hand, r.situation.map(|s| s.0))?;
    Some(case.map(|case| Request { variant, case, id }))
}

/// Score a request: the score and the `id` to echo (after the score's keys).
pub fn score_request(
    v: Value,
    default: Option<&Arc<Variant>>,
) -> Result<(hupai_core::scoring::score::Score, Option<Value>), CoreError> {
    let r = parse(v, default)?;
    let sc = r.variant.ruleset().score(r.case.as_ref())?;
    Ok((sc, r.id))
}
