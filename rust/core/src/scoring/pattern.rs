//! Shared result and hand-record types of the chip-style presets (`huanle3d`, `erren`, `shaanxi`,
//! `wuhan`): a scored win is a list of counted patterns plus the preset's hand value; a hand's
//! settlement is computed by the preset module from a [`HandRecord`] (who is at the table, the
//! kongs made, the wins with their situations, declarations per seat) into the shared
//! [`crate::scoring::ledger::Ledger`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::preset::FanDef;
use crate::scoring::ledger::{Ledger, SettlementRules};
use crate::situation::{FlagsInput, HandInput, Situation, SituationInput};

/// One counted pattern of a win.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CountedPattern {
    pub id: String,
    pub zh: String,
    pub en: String,
    /// The table value of one occurrence (its unit is the preset's: 番, 点, 倍 …).
    pub value: i64,
    pub count: u32,
}

impl CountedPattern {
    pub fn from_def(f: &FanDef, count: u32) -> CountedPattern {
        CountedPattern {
            id: f.id.clone(),
            zh: f.zh.clone(),
            en: f.en.clone(),
            value: f.value,
            count,
        }
    }
}

/// The score of one win in a chip-style preset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PatternScore {
    pub variant: String,
    pub patterns: Vec<CountedPattern>,
    /// The hand value before caps, in the preset's unit.
    pub value: i64,
    /// After the preset's cap.
    pub capped_value: i64,
    /// What each payer pays for the win itself (before seat-specific factors such as 庄家翻倍 or
    /// 炮子; those are applied by the preset's settlement).
    pub per_payer: i64,
    /// Who pays by default: `all` (every other player) or `discarder`.
    pub payers: String,
    /// Preset-specific details (decomposition, 大胡 count, limit flag …).
    pub details: Value,
}

impl PatternScore {
    pub fn to_json_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
    pub fn has(&self, id: &str) -> bool {
        self.patterns.iter().any(|p| p.id == id)
    }
}

/// Look a pattern up in a preset table (a missing id is a preset bug reported as a rule error).
pub fn fan<'a>(fans: &'a [FanDef], id: &str) -> Result<&'a FanDef> {
    fans.iter()
        .find(|f| f.id == id)
        .ok_or_else(|| Error::rule(format!("preset table has no pattern {id}")))
}

/// A kong made during the hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KongInput {
    pub owner: String,
    /// `open` (直杠), `added` (补杠), `concealed` (暗杠); presets may add kinds (`hongzhong`, `pizi`).
    pub kind: String,
    /// 直杠: the discarder of the 4th tile; 补杠: the player whose discard was 碰'd (where the
    /// preset charges him).
    #[serde(default)]
    pub feeder: Option<String>,
}

/// A win of the hand: the winner, the discarder (None = self-draw) and the win situation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WinInput {
    pub winner: String,
    #[serde(default)]
    pub discarder: Option<String>,
    pub hand: HandInput,
    #[serde(default = "default_flags")]
    pub situation: FlagsInput,
}

fn default_flags() -> FlagsInput {
    serde_json::from_str("{}").expect("every key has a default")
}

impl WinInput {
    pub fn situation(&self) -> Result<Situation> {
        Situation::from_input(&SituationInput {
            hand: self.hand.clone(),
            situation: self.situation.clone(),
        })
    }
}

/// The record of one hand that a preset settles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandRecord {
    /// Seat names in turn order.
    pub seats: Vec<String>,
    #[serde(default)]
    pub dealer: Option<String>,
    /// Kongs in the order they were made.
    #[serde(default)]
    pub kongs: Vec<KongInput>,
    /// The win(s); empty = 荒庄 (a drawn hand).
    #[serde(default)]
    pub wins: Vec<WinInput>,
    /// Per-seat declarations and table facts the preset reads (炮子, 开口 count, 承包 …).
    #[serde(default)]
    pub seat_data: BTreeMap<String, Value>,
    /// Table-level facts the preset reads (number of kongs made, …).
    #[serde(default)]
    pub table: BTreeMap<String, Value>,
}

impl HandRecord {
    pub fn from_json(text: &str) -> Result<HandRecord> {
        serde_json::from_str(text).map_err(|e| Error::settlement(format!("hand record: {e}")))
    }
    pub fn from_value(v: Value) -> Result<HandRecord> {
        serde_json::from_value(v).map_err(|e| Error::settlement(format!("hand record: {e}")))
    }

    /// Check seat names and the number of players; returns a fresh ledger over the seats.
    pub fn ledger(&self, players: usize) -> Result<Ledger> {
        if self.seats.len() != players {
            return Err(Error::settlement(format!(
                "this preset is played by {players} players; the record names {} seats",
                self.seats.len()
            )));
        }
        let rules = SettlementRules {
            base: 1,
            ..SettlementRules::default()
        };
        let ledger = Ledger::new(self.seats.clone(), rules)?;
        if let Some(d) = &self.dealer {
            self.seat(d, "dealer")?;
        }
        for k in &self.kongs {
            self.seat(&k.owner, "kongs[].owner")?;
            if let Some(f) = &k.feeder {
                self.seat(f, "kongs[].feeder")?;
                if f == &k.owner {
                    return Err(Error::settlement(format!(
                        "kong of {}: the feeder is another player",
                        k.owner
                    )));
                }
            }
        }
        for w in &self.wins {
            self.seat(&w.winner, "wins[].winner")?;
            if let Some(d) = &w.discarder {
                self.seat(d, "wins[].discarder")?;
                if d == &w.winner {
                    return Err(Error::settlement(format!(
                        "{} cannot win on his own discard",
                        w.winner
                    )));
                }
            }
        }
        for k in self.seat_data.keys() {
            self.seat(k, "seat_data")?;
        }
        Ok(ledger)
    }

    /// Index of a seat name (`what` names the field in the error).
    pub fn seat(&self, name: &str, what: &str) -> Result<usize> {
        self.seats.iter().position(|s| s == name).ok_or_else(|| {
            Error::settlement(format!(
                "{what}: unknown seat {name:?}; seats: {}",
                self.seats.join(", ")
            ))
        })
    }

    /// An integer declaration of a seat (`seat_data[seat][key]`), `default` when absent.
    pub fn seat_int(&self, seat: &str, key: &str, default: i64) -> Result<i64> {
        match self.seat_data.get(seat).and_then(|v| v.get(key)) {
            None | Some(Value::Null) => Ok(default),
            Some(v) => v.as_i64().ok_or_else(|| {
                Error::settlement(format!(
                    "seat_data.{seat}.{key}: expected an integer, got {v}"
                ))
            }),
        }
    }

    /// A boolean declaration of a seat, `false` when absent.
    pub fn seat_bool(&self, seat: &str, key: &str) -> Result<bool> {
        match self.seat_data.get(seat).and_then(|v| v.get(key)) {
            None | Some(Value::Null) => Ok(false),
            Some(v) => v.as_bool().ok_or_else(|| {
                Error::settlement(format!(
                    "seat_data.{seat}.{key}: expected true/false, got {v}"
                ))
            }),
        }
    }

    /// An integer table fact, `default` when absent.
    pub fn table_int(&self, key: &str, default: i64) -> Result<i64> {
        match self.table.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(v) => v.as_i64().ok_or_else(|| {
                Error::settlement(format!("table.{key}: expected an integer, got {v}"))
            }),
        }
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
        return Err(Error::settlement("negative payment"));
    }
    ledger.record_payments(kind, reason, &named, None)
}

/// JSON of a settled hand: events, balances (every seat), and the scores of the wins.
pub fn settled_json(ledger: &Ledger, scores: &[PatternScore]) -> Value {
    let mut v = ledger.to_json_value();
    v["scores"] = json!(
        scores
            .iter()
            .map(PatternScore::to_json_value)
            .collect::<Vec<_>>()
    );
    v
}

/// An integer of a preset's `[params]` (missing or non-integer: a preset bug, reported as a rule
/// error).
pub fn param_int(p: &crate::preset::PresetData, key: &str) -> Result<i64> {
    p.params
        .get(key)
        .and_then(toml::Value::as_integer)
        .ok_or_else(|| Error::rule(format!("preset {}: [params] needs integer {key}", p.id)))
}

/// The enabled patterns of a preset's table (after its switches).
pub fn enabled_fans(p: &crate::preset::PresetData) -> Vec<FanDef> {
    p.fans.iter().filter(|f| f.enabled).cloned().collect()
}

/// Score a situation with one of the chip-style presets; `None` for other presets.
pub fn score(v: &crate::variant::Variant, s: &Situation) -> Option<Result<PatternScore>> {
    use crate::variant::Rules;
    match v.rules() {
        Rules::Huanle3d(r) => Some(r.score(s)),
        Rules::Erren(r) => Some(r.score(s)),
        Rules::Shaanxi(r) => Some(r.score(s)),
        Rules::Wuhan(r) => Some(r.score(s)),
        _ => None,
    }
}

/// Settle a hand record with one of the chip-style presets (the ledger plus each win's score).
pub fn settle(
    v: &crate::variant::Variant,
    rec: &HandRecord,
) -> Result<(Ledger, Vec<PatternScore>)> {
    use crate::variant::Rules;
    match v.rules() {
        Rules::Huanle3d(r) => r.settle(rec),
        Rules::Erren(r) => r.settle(rec),
        Rules::Shaanxi(r) => r.settle(rec),
        Rules::Wuhan(r) => r.settle(rec),
        _ => Err(Error::rule(format!(
            "variant {} has no hand-record settlement (presets: huanle3d, erren, shaanxi, wuhan)",
            v.id()
        ))),
    }
}
