//! Helpers shared by the preset modules' unit tests.

use crate::scoring::ledger::Ledger;

/// A seeded xorshift64 source for randomised unit tests: each call gives a number below `n`
/// (`seed` must not be 0). The same seed gives the same sequence, so a failure reproduces.
pub fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    assert_ne!(seed, 0, "xorshift: a zero seed stays zero");
    move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}

/// Tile codes of a compact tile string (`"123m EE"` → `["1m", "2m", "3m", "E", "E"]`).
pub fn tiles(s: &str) -> Vec<String> {
    crate::tile::parse_tiles(s)
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// Seat balances of a ledger, in seat order.
pub fn bal(l: &Ledger) -> Vec<i64> {
    l.balances().into_iter().map(|(_, b)| b).collect()
}

/// Test shorthand for a hand record: `kongs` (`{owner, kind|type, feeder}`) then `wins` (or one
/// `win`) become the `events` list of the record format; every other key is kept.
pub fn events(rec: serde_json::Value) -> serde_json::Value {
    let serde_json::Value::Object(mut o) = rec else {
        return rec;
    };
    let mut events = Vec::new();
    if let Some(serde_json::Value::Array(ks)) = o.remove("kongs") {
        for k in ks {
            let serde_json::Value::Object(mut k) = k else {
                continue;
            };
            if let Some(t) = k.remove("kind") {
                k.insert("type".into(), t);
            }
            k.insert("kind".into(), "kong".into());
            events.push(serde_json::Value::Object(k));
        }
    }
    let mut wins = match o.remove("wins") {
        Some(serde_json::Value::Array(w)) => w,
        _ => Vec::new(),
    };
    if let Some(w) = o.remove("win").filter(|w| !w.is_null()) {
        wins.push(w);
    }
    for w in wins {
        let serde_json::Value::Object(mut w) = w else {
            continue;
        };
        w.insert("kind".into(), "win".into());
        events.push(serde_json::Value::Object(w));
    }
    if let Some(serde_json::Value::Array(e)) = o.remove("events") {
        events.extend(e);
    }
    o.insert("events".into(), serde_json::Value::Array(events));
    serde_json::Value::Object(o)
}

/// A compiled variant that dereferences to its preset's rules (tests call the rules' own
/// methods and settle through the variant's ruleset).
pub struct Rules<T: 'static> {
    pub variant: crate::Variant,
    get: fn(&crate::Variant) -> crate::Result<&T>,
}

impl<T> std::ops::Deref for Rules<T> {
    type Target = T;
    fn deref(&self) -> &T {
        (self.get)(&self.variant).expect("the preset's rules")
    }
}

/// The rules of preset `id` with switches `opts` (`get`: the preset's `rules_of`).
pub fn rules<T>(
    id: &str,
    opts: &[(&str, crate::preset::SwitchValue)],
    get: fn(&crate::Variant) -> crate::Result<&T>,
) -> Rules<T> {
    Rules {
        variant: crate::Variant::with_options(id, opts.iter().cloned()).unwrap(),
        get,
    }
}

/// Settle a record (in the [`events`] shorthand) under a variant.
pub fn settle<T>(r: &Rules<T>, rec: &serde_json::Value) -> crate::Result<Ledger> {
    r.variant
        .ruleset()
        .settle(&events(rec.clone()))
        .map(|s| s.ledger)
}

/// The case part (`hand`, `situation`) of a win object of a record.
pub fn case(win: &serde_json::Value) -> crate::Situation {
    case_of(win).unwrap()
}

/// The case part (`hand`, `situation`) of a win object of a record, or the parse error.
pub fn case_of(win: &serde_json::Value) -> crate::Result<crate::Situation> {
    let mut c = serde_json::Map::new();
    for k in ["hand", "situation"] {
        if let Some(x) = win.get(k) {
            c.insert(k.into(), x.clone());
        }
    }
    crate::Situation::from_case(&serde_json::Value::Object(c))
}
