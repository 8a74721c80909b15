//! The 字牌 [`Ruleset`] (`zipai_guilin`, `zipai_hunan`) and its input: the situation of a win as
//! JSON, in the flat form of `hupai.zipai.score` or the case envelope of `hupai.score` / the HTTP
//! API (`{"hand": cards | {"concealed", "melds", "win_tile"}, "situation": {...}}`).

use std::any::Any;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::card::{self, Card};
use super::decompose::{Decomposition, HandSpec};
use super::group::{Meld, MeldType};
use super::rules::ZipaiRules;
use super::score::{WinType, ZipaiScore, ZipaiSituation, score};
use crate::error::{Error, Result};
use crate::preset::{FanOp, Options, PresetData};
use crate::rules::{Case, CaseRef, Ruleset, Settled};
use crate::scoring::ledger::Ledger;
use crate::scoring::record::{HandRecord, RecordSpec, pay};
use crate::scoring::score::{FanHit, Payment, Reading, Score, Unit};

/// The 字牌 ruleset of one preset.
#[derive(Debug)]
pub struct Zipai {
    pub rules: ZipaiRules,
    preset: &'static PresetData,
}

/// Compile a 字牌 preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    Ok(Arc::new(Zipai {
        rules: ZipaiRules::compile(p, o)?,
        preset: p,
    }))
}

/// The 字牌 rules of a variant (a RuleConfig error for another preset).
pub fn rules_of(v: &crate::Variant) -> Result<&ZipaiRules> {
    v.rules_as::<Zipai>().map(|z| &z.rules).ok_or_else(|| {
        Error::rule(format!(
            "variant {} is not a 字牌 preset (use zipai_guilin or zipai_hunan)",
            v.id()
        ))
    })
}

/// A parsed 字牌 case: the situation and which seat keys it gave (a hand record says them).
#[derive(Clone, Debug)]
pub struct ZipaiCase {
    pub situation: ZipaiSituation,
    /// `players`, `seat`, `dealer`, `discarder` were given.
    pub seat_keys: Vec<&'static str>,
}

/// The keys of the flat situation.
pub const SITUATION_KEYS: &[&str] = &[
    "concealed",
    "win_card",
    "win_tile",
    "melds",
    "win_type",
    "haidi",
    "players",
    "seat",
    "dealer",
    "discarder",
    "flips",
    "difficulty",
    "passed_peng",
];

fn bad(what: &str, msg: impl std::fmt::Display) -> Error {
    Error::hand(format!("{what}: {msg}"))
}

/// Cards from a string in any notation or a list of card strings.
pub fn cards_of(v: &Value, what: &str) -> Result<Vec<Card>> {
    match v {
        Value::String(s) => card::parse_cards(s).map_err(|e| e.context(what)),
        Value::Array(a) => {
            let mut out = Vec::new();
            for x in a {
                let Value::String(s) = x else {
                    return Err(bad(what, format!("card strings, got {x}")));
                };
                out.extend(card::parse_cards(s).map_err(|e| e.context(what))?);
            }
            Ok(out)
        }
        other => Err(bad(
            what,
            format!("cards as a string ('x2x7x10 d1d2d3') or a list of cards, got {other}"),
        )),
    }
}

/// Concealed cards that may include jokers (`K`, 王, 鬼): the cards and the joker count.
pub fn hand_cards_of(v: &Value, what: &str) -> Result<(Vec<Card>, u8)> {
    match v {
        Value::String(s) => card::parse_hand_cards(s).map_err(|e| e.context(what)),
        Value::Array(a) => {
            let mut cards = Vec::new();
            let mut jokers = 0usize;
            for x in a {
                let Value::String(s) = x else {
                    return Err(bad(
                        what,
                        format!("card strings (or \"K\" for a joker), got {x}"),
                    ));
                };
                let (c, j) = card::parse_hand_cards(s).map_err(|e| e.context(what))?;
                cards.extend(c);
                jokers += usize::from(j);
            }
            let jokers = u8::try_from(jokers)
                .ok()
                .filter(|&j| j <= 4)
                .ok_or_else(|| bad(what, format!("{jokers} jokers: a deck has at most 4")))?;
            Ok((cards, jokers))
        }
        other => Err(bad(
            what,
            format!("cards as a string or a list, got {other}"),
        )),
    }
}

/// 翻醒 flips in order; a turned joker gives no 醒 and ends the chain.
fn flips_of(v: &Value) -> Result<Vec<Card>> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => {
            let cut = s.find(['K', 'k', '王', '鬼']).unwrap_or(s.len());
            card::parse_cards(&s[..cut]).map_err(|e| e.context("flips"))
        }
        Value::Array(a) => {
            let mut out = Vec::new();
            for x in a {
                if let Value::String(s) = x {
                    if card::is_joker(s) {
                        break;
                    }
                }
                out.extend(cards_of(x, "flips")?);
            }
            Ok(out)
        }
        other => Err(bad("flips", format!("cards, got {other}"))),
    }
}

/// A meld from `{"type": "peng", "tiles": [...]}` (also `"cards"`), `["peng", "x5x5x5"]` or
/// `"peng:x5x5x5"`.
pub fn meld_of(v: &Value, what: &str) -> Result<Meld> {
    match v {
        Value::Object(o) => {
            for k in o.keys() {
                if !["type", "tiles", "cards"].contains(&k.as_str()) {
                    return Err(bad(
                        what,
                        format!("unknown meld key {k:?}; accepted: type, tiles (or cards)"),
                    ));
                }
            }
            let ty = o
                .get("type")
                .and_then(Value::as_str)
                .ok_or_else(|| bad(what, "a meld needs a \"type\" string"))?;
            let cards = match (o.get("tiles"), o.get("cards")) {
                (Some(_), Some(_)) => {
                    return Err(bad(what, "give \"tiles\" or \"cards\", not both"));
                }
                (Some(c), None) | (None, Some(c)) => c,
                (None, None) => return Err(bad(what, "a meld needs \"tiles\" (or \"cards\")")),
            };
            Meld::new(MeldType::parse(ty)?, cards_of(cards, what)?).map_err(|e| e.context(what))
        }
        Value::Array(a) if a.len() == 2 && a[0].is_string() => {
            let ty = a[0].as_str().unwrap_or_default();
            Meld::new(MeldType::parse(ty)?, cards_of(&a[1], what)?).map_err(|e| e.context(what))
        }
        Value::String(s) => match s.split_once(':') {
            Some((ty, cards)) => Meld::new(MeldType::parse(ty)?, card::parse_cards(cards)?)
                .map_err(|e| e.context(what)),
            None => Err(bad(what, format!("{s:?}: write a meld as \"type:cards\""))),
        },
        other => Err(bad(
            what,
            format!("{other}: expected {{\"type\", \"tiles\"}}, [type, cards] or \"type:cards\""),
        )),
    }
}

fn melds_of(v: Option<&Value>) -> Result<Vec<Meld>> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, m)| meld_of(m, &format!("melds[{i}]")))
            .collect(),
        Some(_) => Err(Error::hand("melds must be a list")),
    }
}

fn seat_of(o: &Map<String, Value>, k: &str) -> Result<Option<u8>> {
    match o.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|i| u8::try_from(i).ok())
            .map(Some)
            .ok_or_else(|| Error::hand(format!("situation[{k:?}] = {v} is not a seat"))),
    }
}

/// The hand of a win from its parts (`win_type` decides the source of the winning card).
pub fn spec_of(
    concealed: &Value,
    win: Option<&Value>,
    melds: Option<&Value>,
    win_type: WinType,
    passed_peng: Option<&Value>,
) -> Result<HandSpec> {
    let (concealed, jokers) = hand_cards_of(concealed, "concealed")?;
    Ok(HandSpec {
        concealed,
        jokers,
        win: match win {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(Card::parse(s)?),
            Some(other) => return Err(bad("win_card", format!("one card, got {other}"))),
        },
        melds: melds_of(melds)?,
        source: Some(win_type.source()),
        passed_peng: match passed_peng {
            None | Some(Value::Null) => Vec::new(),
            Some(p) => cards_of(p, "passed_peng")?,
        },
    })
}

/// Parse the flat situation (keys [`SITUATION_KEYS`]; unknown keys are refused).
pub fn situation_of(v: &Value) -> Result<ZipaiCase> {
    let Value::Object(d) = v else {
        return Err(Error::hand(
            "a 字牌 situation is an object (see hupai.zipai)",
        ));
    };
    for k in d.keys() {
        if !SITUATION_KEYS.contains(&k.as_str()) {
            return Err(Error::hand(format!(
                "unknown situation key {k:?}; known keys: {}",
                SITUATION_KEYS.join(", ")
            )));
        }
    }
    if d.get("win_card").is_some_and(|x| !x.is_null())
        && d.get("win_tile").is_some_and(|x| !x.is_null())
    {
        return Err(Error::hand(
            "give the winning card as win_card or win_tile, not both",
        ));
    }
    let concealed = d
        .get("concealed")
        .filter(|x| !x.is_null())
        .ok_or_else(|| Error::hand("situation needs \"concealed\""))?;
    let wt = match d.get("win_type") {
        None | Some(Value::Null) => WinType::Discard,
        Some(Value::String(s)) => WinType::parse(s)?,
        Some(other) => {
            return Err(bad(
                "situation[\"win_type\"]",
                format!("a string, got {other}"),
            ));
        }
    };
    let win = d.get("win_card").or(d.get("win_tile"));
    let hand = spec_of(concealed, win, d.get("melds"), wt, d.get("passed_peng"))?;
    let difficulty = match d.get("difficulty") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_i64()
                .ok_or_else(|| Error::hand("situation[\"difficulty\"] must be an integer"))?,
        ),
    };
    let haidi = match d.get("haidi") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(Error::hand("situation[\"haidi\"] must be a bool")),
    };
    let seat_keys = ["players", "seat", "dealer", "discarder"]
        .into_iter()
        .filter(|k| d.get(*k).is_some_and(|x| !x.is_null()))
        .collect();
    Ok(ZipaiCase {
        situation: ZipaiSituation {
            hand,
            win_type: wt,
            haidi,
            players: seat_of(d, "players")?.unwrap_or(3),
            seat: seat_of(d, "seat")?.unwrap_or(0),
            dealer: seat_of(d, "dealer")?.unwrap_or(0),
            discarder: seat_of(d, "discarder")?,
            flips: flips_of(d.get("flips").unwrap_or(&Value::Null))?,
            difficulty,
        },
        seat_keys,
    })
}

/// Parse a case: the envelope `{"hand": cards | {"concealed", "melds", "win_tile"}, "situation":
/// {...}}` or the flat situation.
pub fn case_of(v: &Value) -> Result<ZipaiCase> {
    let Value::Object(o) = v else {
        return Err(Error::hand("a 字牌 case is an object"));
    };
    if !o.contains_key("hand") {
        return situation_of(v);
    }
    for k in o.keys() {
        if k != "hand" && k != "situation" {
            return Err(Error::hand(format!(
                "unknown key {k:?} beside the situation; accepted: hand, situation"
            )));
        }
    }
    let mut flat = match o.get("situation") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(s)) => s.clone(),
        Some(_) => return Err(Error::hand("situation: an object")),
    };
    let mut put = |k: &str, x: Value| -> Result<()> {
        if flat.contains_key(k) {
            return Err(Error::hand(format!(
                "situation.{k} repeats what \"hand\" says; give it once"
            )));
        }
        flat.insert(k.into(), x);
        Ok(())
    };
    match &o["hand"] {
        h @ Value::String(_) => put("concealed", h.clone())?,
        Value::Object(h) => {
            for k in h.keys() {
                if !["concealed", "melds", "win_tile", "win_card"].contains(&k.as_str()) {
                    return Err(Error::hand(format!(
                        "hand: unknown key {k:?}; accepted: concealed, melds, win_tile"
                    )));
                }
            }
            for (k, x) in h {
                let key = if k == "win_tile" {
                    "win_card"
                } else {
                    k.as_str()
                };
                put(key, x.clone())?;
            }
        }
        other => {
            return Err(Error::hand(format!(
                "hand: cards ('x2x7x10 d1d2d3') or {{\"concealed\", \"melds\", \"win_tile\"}}, got {other}"
            )));
        }
    }
    situation_of(&Value::Object(flat))
}

/// English names of the 名堂 and the win factors.
fn named(id: &str) -> &'static str {
    match id {
        "HONG_HU" => "Red win",
        "HEI_HU" => "Black win",
        "DIAN_HU" => "One red card",
        "DUI_HU" => "No sequences",
        "DA_HU" => "Big cards",
        "XIAO_HU" => "Small cards",
        "TUAN_HU" => "Small and big four",
        "SHUA_HOU" => "Last card wait",
        "SELF_DRAW" => "Self-drawn",
        "HAIDI" => "Last wall card",
        "SANLONG" => "Three fours or five triplets",
        "TIANHU" => "Heavenly win",
        "DIHU" => "Earthly win",
        _ => "",
    }
}

fn factor_id(zh: &str) -> &'static str {
    match zh {
        "自摸" => "SELF_DRAW",
        "海底胡" => "HAIDI",
        "三龙五坎" => "SANLONG",
        "天胡" => "TIANHU",
        "地胡" => "DIHU",
        _ => "FACTOR",
    }
}

/// A 字牌 split in the one decomposition shape: `form` `"zipai"`, each group a set (`kind` its
/// group id, `tiles` its cards, `declared` = exposed, plus `name`, `huxi`, `has_win_card`,
/// `jokers`), `wildcards` what the jokers stand for.
pub fn decomposition_json(d: &Decomposition, hunan: bool) -> Value {
    let sets: Vec<Value> = d
        .groups
        .iter()
        .map(|g| {
            json!({
                "kind": g.kind.id(),
                "tiles": g.cards.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "declared": g.exposed,
                "concealed": !g.exposed,
                "name": g.kind.zh(hunan),
                "has_win_card": g.has_win_card,
                "huxi": g.huxi,
                "jokers": g.jokers.iter().map(ToString::to_string).collect::<Vec<_>>(),
            })
        })
        .collect();
    let wildcards: Vec<String> = d
        .groups
        .iter()
        .flat_map(|g| g.jokers.iter().map(ToString::to_string))
        .collect();
    json!({
        "form": "zipai",
        "knitted": null,
        "pair": null,
        "pairs": [],
        "sets": sets,
        "wildcards": wildcards,
        "huxi": d.huxi,
        "kaiduo_by_win": d.kaiduo_by_win,
    })
}

impl Zipai {
    fn to_score(&self, sc: ZipaiScore, players: u8) -> Score {
        let mut fans: Vec<FanHit> = sc
            .mingtang
            .iter()
            .map(|m| {
                let def = self.preset.fan_named(m.id, m.name, named(m.id));
                FanHit::new(def, m.fan, FanOp::Add, 1)
            })
            .collect();
        fans.extend(sc.factors.iter().map(|f| {
            let id = factor_id(f.name);
            FanHit::new(
                self.preset.fan_named(id, f.name, named(id)),
                f.value,
                FanOp::Mul,
                1,
            )
        }));
        let cards = |c: &[Card]| c.iter().map(ToString::to_string).collect::<Vec<_>>();
        Score {
            variant: self.preset.id.as_str(),
            fans: fans.into(),
            raw_total: i64::from(sc.huxi),
            total: i64::from(sc.huxi),
            unit: Unit::Huxi,
            meets_minimum: sc.is_win,
            per_payer: sc.amount_per_payer,
            players,
            payments: sc
                .payments
                .iter()
                .map(|p| Payment {
                    payer: p.from,
                    payee: p.to,
                    amount: p.amount,
                })
                .collect(),
            decomposition: sc
                .decomposition
                .as_ref()
                .map(|d| Reading::Data(decomposition_json(d, self.rules.hunan_names))),
            extras: Default::default(),
        }
        .with_extras(vec![
            ("complete", json!(sc.complete)),
            ("difficulty", json!(sc.difficulty)),
            ("duo", json!(sc.duo)),
            ("fan", json!(sc.fan)),
            ("flips_used", json!(cards(&sc.flips_used))),
            ("hu_score", json!(sc.hu_score)),
            ("min_huxi", json!(sc.min_huxi)),
            ("multiplier", json!(sc.multiplier)),
            ("xing", json!(sc.xing)),
            ("xing_cards", json!(cards(&sc.xing_cards))),
            ("xing_score", json!(sc.xing_score)),
        ])
    }
}

impl Ruleset for Zipai {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn players(&self) -> u8 {
        self.preset.players
    }
    fn input(&self) -> &'static str {
        "zipai"
    }
    fn table(&self) -> Option<crate::rules::TablePart> {
        Some(crate::rules::TablePart::Zipai)
    }
    fn parse_case(&self, case: &Value) -> Result<Case> {
        Ok(Case::Own(Box::new(case_of(case)?)))
    }
    fn score(&self, case: CaseRef<'_>) -> Result<Score> {
        let c: &ZipaiCase = case.own(self.preset.id.as_str(), "字牌 cards")?;
        let sc = score(&self.rules, &c.situation)?;
        Ok(self.to_score(sc, c.situation.players))
    }
    /// A hand record of 字牌: `win` events (the case in `hand` / `situation`, seats from the
    /// record) paid as [`score`] pays them; `draw` (荒庄) pays nothing.
    fn settle(&self, record: &Value) -> Result<Settled> {
        let spec = RecordSpec {
            kong_types: &[],
            draw_keys: Some(&[]),
            ..RecordSpec::default()
        };
        let rec = HandRecord::parse(record, self, &spec)?;
        let mut ledger = Ledger::new(rec.seats.clone(), Default::default())?;
        let mut scores = Vec::new();
        if rec.n_wins() > 1 {
            return Err(Error::settlement("字牌: one winner per hand"));
        }
        for (i, w, d, case, _) in rec.wins() {
            let Case::Own(x) = case else { continue };
            let c = x
                .downcast_ref::<ZipaiCase>()
                .ok_or_else(|| Error::settlement("not a 字牌 case"))?;
            if let Some(k) = c.seat_keys.first() {
                return Err(Error::settlement(format!(
                    "events[{i}]: situation.{k} is given by the record (seats, winner, dealer, discarder)"
                )));
            }
            let mut sit = c.situation.clone();
            sit.players = rec.seats.len() as u8;
            sit.seat = w as u8;
            sit.dealer = rec.dealer.unwrap_or(0) as u8;
            sit.discarder = d.map(|d| d as u8);
            let sc = score(&self.rules, &sit).map_err(|e| e.context(&format!("events[{i}]")))?;
            if !sc.is_win {
                return Err(Error::settlement(format!(
                    "events[{i}]: {} 胡息 is below the minimum {}",
                    sc.huxi, sc.min_huxi
                )));
            }
            let lines: Vec<(usize, usize, i64)> = sc
                .payments
                .iter()
                .map(|p| (usize::from(p.from), usize::from(p.to), p.amount))
                .collect();
            pay(
                &mut ledger,
                "WIN",
                &format!("{} wins: {} 胡息", rec.seats[w], sc.huxi),
                &lines,
            )?;
            scores.push(self.to_score(sc, sit.players));
        }
        ledger.end_hand();
        Ok(Settled { ledger, scores })
    }
}
