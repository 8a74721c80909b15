//! The record of one hand that a tile preset settles ([`crate::rules::Ruleset::settle`]): one
//! strict format for every preset.
//!
//! ```json
//! {
//!   "seats": ["A", "B", "C", "D"],            // names in turn order; as many as the preset seats
//!   "dealer": "A",                            // optional (required where the preset pays by it)
//!   "events": [                               // in play order
//!     {"kind": "kong", "owner": "B", "type": "open", "feeder": "A"},
//!     {"kind": "win", "winner": "C", "discarder": "D", "hand": {...}, "situation": {...}},
//!     {"kind": "draw", ...}                   // the hand ends without (further) wins
//!   ],
//!   "seat_data": {"B": {"pao_zi": 2}},         // per-seat declarations the preset reads
//!   "table": {"floor": 1}                     // table facts the preset reads
//! }
//! ```
//!
//! Kong `type` is `open` (直杠: `feeder`, required, = the discarder of the fourth tile), `added`
//! (补杠; `feeder`, optional, = the player whose discard was 碰'd: a preset that charges him reads
//! it) or `concealed` (no feeder).
//! A win's `hand` / `situation` are the preset's case (for tile presets the case schema; its
//! `seat` / `discarder` / `dealer_seat` keys, if given, must agree with the record). Each preset
//! declares the extra keys it reads ([`RecordSpec`]); any other key is refused, naming the
//! accepted ones.

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::rules::{Case, Ruleset};
use crate::scoring::ledger::Ledger;
use crate::situation::Situation;

/// The keys a preset reads beyond the common ones.
#[derive(Clone, Debug, Default)]
pub struct RecordSpec {
    /// Kong types the preset accepts (empty: kong events are refused — e.g. 武汉 counts its
    /// kongs as seat factors).
    pub kong_types: &'static [&'static str],
    /// Extra keys of a kong event.
    pub kong_keys: &'static [&'static str],
    /// Extra keys of a win event.
    pub win_keys: &'static [&'static str],
    /// Keys of a `draw` event (`None`: a draw is written by leaving the wins out).
    pub draw_keys: Option<&'static [&'static str]>,
    /// Further event kinds and their keys (卡五星 `forced_end` …).
    pub other_events: &'static [(&'static str, &'static [&'static str])],
    /// Keys of `seat_data.<seat>`.
    pub seat_keys: &'static [&'static str],
    /// Keys of `table`.
    pub table_keys: &'static [&'static str],
}

/// One event of a hand.
#[derive(Debug)]
pub enum Event {
    Kong {
        owner: usize,
        /// `open`, `added`, `concealed` (or a kind the preset adds).
        kind: String,
        feeder: Option<usize>,
        extra: Map<String, Value>,
    },
    Win {
        winner: usize,
        discarder: Option<usize>,
        case: Case,
        extra: Map<String, Value>,
    },
    /// `draw` and the preset's own kinds: the event's keys other than `kind`.
    Other {
        kind: String,
        data: Map<String, Value>,
    },
}

/// A parsed, validated hand record.
#[derive(Debug)]
pub struct HandRecord {
    pub seats: Vec<String>,
    pub dealer: Option<usize>,
    pub events: Vec<Event>,
    /// Per seat index (an empty map where the record says nothing).
    pub seat_data: Vec<Map<String, Value>>,
    pub table: Map<String, Value>,
}

const TOP_KEYS: &[&str] = &["seats", "dealer", "events", "seat_data", "table"];

fn err(msg: impl Into<String>) -> Error {
    Error::settlement(msg)
}

/// Refuse keys of `o` outside `common` + `extra`, naming the accepted ones.
pub fn check_keys(
    o: &Map<String, Value>,
    what: &str,
    common: &[&str],
    extra: &[&str],
) -> Result<()> {
    for k in o.keys() {
        if !common.contains(&k.as_str()) && !extra.contains(&k.as_str()) {
            let accepted: Vec<&str> = common.iter().chain(extra).copied().collect();
            return Err(err(format!(
                "{what}: unknown key {k:?}; accepted: {}",
                if accepted.is_empty() {
                    "(none)".to_string()
                } else {
                    accepted.join(", ")
                }
            )));
        }
    }
    Ok(())
}

impl HandRecord {
    /// Parse a record for `ruleset` (whose `parse_case` reads each win) and `spec`.
    pub fn parse<R: Ruleset + ?Sized>(
        v: &Value,
        ruleset: &R,
        spec: &RecordSpec,
    ) -> Result<HandRecord> {
        let Value::Object(o) = v else {
            return Err(err(
                "a hand record is an object {\"seats\", \"dealer\", \"events\", \"seat_data\", \"table\"}",
            ));
        };
        check_keys(o, "hand record", TOP_KEYS, &[])?;
        let players = usize::from(ruleset.players());
        let seats: Vec<String> = match o.get("seats") {
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| {
                    x.as_str()
                        .map(String::from)
                        .ok_or_else(|| err(format!("seats: names (strings), got {x}")))
                })
                .collect::<Result<_>>()?,
            _ => {
                return Err(err(format!(
                    "\"seats\": a list of the {players} seat names in turn order is required"
                )));
            }
        };
        if seats.len() != players {
            return Err(err(format!(
                "this preset seats {players} players; the record names {} seats",
                seats.len()
            )));
        }
        for (i, s) in seats.iter().enumerate() {
            if s.is_empty() || seats[..i].contains(s) {
                return Err(err(format!(
                    "seat names must be distinct and non-empty, got {seats:?}"
                )));
            }
        }
        let seat_of = |x: Option<&Value>, what: &str| -> Result<Option<usize>> {
            match x {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => {
                    seats.iter().position(|n| n == s).map(Some).ok_or_else(|| {
                        err(format!(
                            "{what}: unknown seat {s:?}; seats: {}",
                            seats.join(", ")
                        ))
                    })
                }
                Some(other) => Err(err(format!("{what}: a seat name, got {other}"))),
            }
        };
        let dealer = seat_of(o.get("dealer"), "dealer")?;
        let mut seat_data = vec![Map::new(); players];
        match o.get("seat_data") {
            None | Some(Value::Null) => {}
            Some(Value::Object(m)) => {
                for (k, d) in m {
                    let i = seat_of(Some(&Value::String(k.clone())), "seat_data")?.expect("a seat");
                    let Value::Object(d) = d else {
                        return Err(err(format!("seat_data.{k}: an object of declarations")));
                    };
                    check_keys(d, &format!("seat_data.{k}"), &[], spec.seat_keys)?;
                    seat_data[i] = d.clone();
                }
            }
            Some(_) => return Err(err("seat_data: an object {seat: {key: value}}")),
        }
        let table = match o.get("table") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => {
                check_keys(m, "table", &[], spec.table_keys)?;
                m.clone()
            }
            Some(_) => return Err(err("table: an object {key: value}")),
        };
        let mut events = Vec::new();
        let list = match o.get("events") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) => a.clone(),
            Some(_) => return Err(err("events: a list of event objects in play order")),
        };
        let mut kinds = vec!["kong", "win"];
        if spec.draw_keys.is_some() {
            kinds.push("draw");
        }
        kinds.extend(spec.other_events.iter().map(|x| x.0));
        for (i, e) in list.iter().enumerate() {
            let at = format!("events[{i}]");
            let Value::Object(e) = e else {
                return Err(err(format!("{at}: an object with \"kind\"")));
            };
            let kind = e
                .get("kind")
                .and_then(Value::as_str)
                .ok_or_else(|| err(format!("{at}: \"kind\" is one of {}", kinds.join(", "))))?;
            match kind {
                "kong" => {
                    if spec.kong_types.is_empty() {
                        return Err(err(format!(
                            "{at}: this preset records no kong events (see its seat_data keys: {})",
                            spec.seat_keys.join(", ")
                        )));
                    }
                    check_keys(e, &at, &["kind", "owner", "type", "feeder"], spec.kong_keys)?;
                    let owner = seat_of(e.get("owner"), &format!("{at}.owner"))?
                        .ok_or_else(|| err(format!("{at}: a kong needs \"owner\"")))?;
                    let ty = e.get("type").and_then(Value::as_str).ok_or_else(|| {
                        err(format!(
                            "{at}: \"type\" is one of {}",
                            spec.kong_types.join(", ")
                        ))
                    })?;
                    if !spec.kong_types.contains(&ty) {
                        return Err(err(format!(
                            "{at}: kong type {ty:?}; accepted: {}",
                            spec.kong_types.join(", ")
                        )));
                    }
                    let feeder = seat_of(e.get("feeder"), &format!("{at}.feeder"))?;
                    if feeder == Some(owner) {
                        return Err(err(format!(
                            "{at}: the feeder is another player than the owner"
                        )));
                    }
                    match (ty, feeder) {
                        ("open", None) => {
                            return Err(err(format!(
                                "{at}: a 直杠 (open kong) needs \"feeder\" (the discarder of the fourth tile)"
                            )));
                        }
                        ("concealed", Some(_)) => {
                            return Err(err(format!("{at}: a concealed kong has no feeder")));
                        }
                        _ => {}
                    }
                    let mut extra = e.clone();
                    for k in ["kind", "owner", "type", "feeder"] {
                        extra.remove(k);
                    }
                    events.push(Event::Kong {
                        owner,
                        kind: ty.to_string(),
                        feeder,
                        extra,
                    });
                }
                "win" => {
                    check_keys(
                        e,
                        &at,
                        &["kind", "winner", "discarder", "hand", "situation"],
                        spec.win_keys,
                    )?;
                    let winner = seat_of(e.get("winner"), &format!("{at}.winner"))?
                        .ok_or_else(|| err(format!("{at}: a win needs \"winner\"")))?;
                    let discarder = seat_of(e.get("discarder"), &format!("{at}.discarder"))?;
                    if discarder == Some(winner) {
                        return Err(err(format!(
                            "{at}: {} cannot win on his own discard",
                            seats[winner]
                        )));
                    }
                    let mut c = Map::new();
                    for k in ["hand", "situation"] {
                        if let Some(x) = e.get(k) {
                            c.insert(k.into(), x.clone());
                        }
                    }
                    let mut case = ruleset
                        .parse_case(&Value::Object(c))
                        .map_err(|x| x.context(&at))?;
                    if let Case::Tiles(s) = &mut case {
                        s.place(winner, discarder, dealer)
                            .map_err(|x| x.context(&at))?;
                    }
                    let mut extra = e.clone();
                    for k in ["kind", "winner", "discarder", "hand", "situation"] {
                        extra.remove(k);
                    }
                    events.push(Event::Win {
                        winner,
                        discarder,
                        case,
                        extra,
                    });
                }
                other => {
                    let keys = if other == "draw" {
                        spec.draw_keys
                    } else {
                        spec.other_events.iter().find(|x| x.0 == other).map(|x| x.1)
                    };
                    let Some(keys) = keys else {
                        return Err(err(format!(
                            "{at}: unknown event kind {other:?}; accepted: {}",
                            kinds.join(", ")
                        )));
                    };
                    check_keys(e, &at, &["kind"], keys)?;
                    let mut data = e.clone();
                    data.remove("kind");
                    events.push(Event::Other {
                        kind: other.to_string(),
                        data,
                    });
                }
            }
        }
        Ok(HandRecord {
            seats,
            dealer,
            events,
            seat_data,
            table,
        })
    }

    /// A hand of one win at a table of `n` seats named `"0"`, `"1"` …
    pub fn one_win(
        n: u8,
        dealer: u8,
        winner: u8,
        discarder: Option<u8>,
        s: Situation,
    ) -> HandRecord {
        HandRecord {
            seats: (0..n).map(|i| i.to_string()).collect(),
            dealer: Some(usize::from(dealer)),
            events: vec![Event::Win {
                winner: usize::from(winner),
                discarder: discarder.map(usize::from),
                case: Case::Tiles(s),
                extra: Map::new(),
            }],
            seat_data: vec![Map::new(); usize::from(n)],
            table: Map::new(),
        }
    }

    /// The tile situations of the win events, with their event index.
    pub fn win_situations(&self) -> Vec<(usize, &Situation)> {
        self.events
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e {
                Event::Win {
                    case: Case::Tiles(s),
                    ..
                } => Some((i, s)),
                _ => None,
            })
            .collect()
    }

    /// The win events: `(event index, winner, discarder, case, extra)`.
    pub fn wins(
        &self,
    ) -> impl Iterator<Item = (usize, usize, Option<usize>, &Case, &Map<String, Value>)> {
        self.events.iter().enumerate().filter_map(|(i, e)| match e {
            Event::Win {
                winner,
                discarder,
                case,
                extra,
            } => Some((i, *winner, *discarder, case, extra)),
            _ => None,
        })
    }

    /// The kong events: `(event index, owner, kind, feeder, extra)`.
    pub fn kongs(
        &self,
    ) -> impl Iterator<Item = (usize, usize, &str, Option<usize>, &Map<String, Value>)> {
        self.events.iter().enumerate().filter_map(|(i, e)| match e {
            Event::Kong {
                owner,
                kind,
                feeder,
                extra,
            } => Some((i, *owner, kind.as_str(), *feeder, extra)),
            _ => None,
        })
    }

    pub fn n_wins(&self) -> usize {
        self.wins().count()
    }

    /// The seat index of a name (`what` names the field in the error).
    pub fn seat(&self, name: &str, what: &str) -> Result<usize> {
        self.seats.iter().position(|s| s == name).ok_or_else(|| {
            err(format!(
                "{what}: unknown seat {name:?}; seats: {}",
                self.seats.join(", ")
            ))
        })
    }

    /// A seat named by a value (`None` when absent or null).
    pub fn seat_value(&self, v: Option<&Value>, what: &str) -> Result<Option<usize>> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => self.seat(s, what).map(Some),
            Some(other) => Err(err(format!("{what}: a seat name, got {other}"))),
        }
    }

    /// An integer declaration of seat `i` within `lo..=hi`, `default` when absent.
    pub fn seat_int(&self, i: usize, key: &str, default: i64, lo: i64, hi: i64) -> Result<i64> {
        int_in(
            self.seat_data[i].get(key),
            &format!("seat_data.{}.{key}", self.seats[i]),
            default,
            lo,
            hi,
        )
    }

    /// A boolean declaration of seat `i`, `false` when absent.
    pub fn seat_bool(&self, i: usize, key: &str) -> Result<bool> {
        bool_of(
            self.seat_data[i].get(key),
            &format!("seat_data.{}.{key}", self.seats[i]),
        )
    }

    /// An integer table fact within `lo..=hi`, `default` when absent.
    pub fn table_int(&self, key: &str, default: i64, lo: i64, hi: i64) -> Result<i64> {
        int_in(
            self.table.get(key),
            &format!("table.{key}"),
            default,
            lo,
            hi,
        )
    }

    /// A boolean table fact, `false` when absent.
    pub fn table_bool(&self, key: &str) -> Result<bool> {
        bool_of(self.table.get(key), &format!("table.{key}"))
    }
}

/// An integer field within `lo..=hi` (`default` when absent or null).
pub fn int_in(v: Option<&Value>, what: &str, default: i64, lo: i64, hi: i64) -> Result<i64> {
    match v {
        None | Some(Value::Null) => Ok(default),
        Some(x) => x
            .as_i64()
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| err(format!("{what}: an integer in {lo}..={hi}, got {x}"))),
    }
}

/// A boolean field (`false` when absent or null).
pub fn bool_of(v: Option<&Value>, what: &str) -> Result<bool> {
    match v {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(x) => Err(err(format!("{what}: true or false, got {x}"))),
    }
}

/// Record payment lines `(payer, payee, amount)` given by seat index, skipping zero amounts.
pub fn pay(
    ledger: &mut Ledger,
    kind: &str,
    reason: &str,
    lines: &[(usize, usize, i64)],
) -> Result<usize> {
    let seats = ledger.seats().to_vec();
    let named: Vec<(String, String, i64)> = lines
        .iter()
        .filter(|l| l.2 != 0)
        .map(|&(a, b, x)| (seats[a].clone(), seats[b].clone(), x))
        .collect();
    if named.iter().any(|l| l.2 < 0) {
        return Err(err("negative payment"));
    }
    ledger.record_payments(kind, reason, &named, None)
}
