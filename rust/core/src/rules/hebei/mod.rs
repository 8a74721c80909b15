//! 河北麻将 basic 推倒胡 (`hebei`): scoring of one win (one pattern counts, then a situational
//! floor; the gap-fill `tdh_points` profile) and the settlement of a hand on the shared ledger
//! (kongs paid at the end of a won hand, 荒庄荒杠). Spec: `shared/rules/hebei.md`; the numbers come
//! from `presets/hebei.toml`.

mod ruleset;
pub mod table;
#[cfg(test)]
mod tests;

pub use ruleset::{Hebei, compile, rules_of};

use serde_json::{Value, json};

use crate::decompose::{Decomposition, Form, Shapes, decompose};
use crate::error::{Error, Result};
use crate::hand::MeldKind;
use crate::preset::{FanDef, Options, PresetData};
use crate::situation::{Situation, WinType};
use crate::tile::{Counts, Tile};
use crate::wild::{decompose_with_wild_kind, read_tiles};

/// Who pays a discard win (switch `discard_payers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscardPayers {
    Discarder,
    AllThree,
    DaBao,
}

/// The 带混儿 family (switch `wildcard`, hebei.md §10): which tile kind is wild in a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WildMode {
    /// No wildcard (default).
    None,
    /// 带混儿: the 混儿 is the successor of the flipped indicator (`situation.wild_indicator`;
    /// suits 9→1, E→S→W→N→E, 中→发→白→中).
    DaiHun,
    /// 随机癞子: the flipped tile's own kind is the 癞子.
    RandomLaizi,
    /// 红中癞子 (taohyson 红中耗子): every 红中 is wild; no indicator.
    Hongzhong,
}

/// The compiled rules.
#[derive(Clone, Debug)]
pub struct HebeiRules {
    pub fans: Vec<FanDef>,
    pub flat: bool,
    pub zimo_double: bool,
    pub discard_payers: DiscardPayers,
    pub chi_allowed: bool,
    pub kong_instant: bool,
    pub dealer_double: bool,
    pub base: i64,
    pub ping_hu_self_draw: i64,
    pub kong_concealed: i64,
    pub kong_added: i64,
    pub kong_open: i64,
    pub shapes: Shapes,
    pub wild: WildMode,
    /// 一炮多响 (switch `multi_ron`; default 截胡: one winner per hand).
    pub multi_ron: bool,
}

fn int_param(p: &toml::Table, key: &str) -> Result<i64> {
    p.get(key)
        .and_then(toml::Value::as_integer)
        .ok_or_else(|| Error::rule(format!("hebei: params.{key} missing")))
}

impl HebeiRules {
    pub fn compile(preset: &PresetData, o: &Options) -> Result<HebeiRules> {
        let (fans, combine, _) = preset.fans_for_profile(Some(o.str("fan_profile")?));
        let p = &preset.params;
        let has = |s: &str| preset.rules.shapes.iter().any(|x| x == s);
        Ok(HebeiRules {
            fans,
            flat: combine == "flat",
            zimo_double: o.bool("zimo_double")?,
            discard_payers: match o.str("discard_payers")? {
                "all_three" => DiscardPayers::AllThree,
                "da_bao" => DiscardPayers::DaBao,
                _ => DiscardPayers::Discarder,
            },
            chi_allowed: o.bool("chi_allowed")?,
            multi_ron: o.bool("multi_ron")?,
            kong_instant: o.str("kong_payment")? == "instant",
            dealer_double: o.str("dealer_factor")? == "double",
            base: int_param(p, "base")?,
            ping_hu_self_draw: int_param(p, "ping_hu_self_draw")?,
            kong_concealed: int_param(p, "kong_concealed")?,
            kong_added: int_param(p, "kong_added")?,
            kong_open: int_param(p, "kong_open")?,
            wild: match o.str("wildcard")? {
                "dai_hun" => WildMode::DaiHun,
                "random_laizi" => WildMode::RandomLaizi,
                "hongzhong" => WildMode::Hongzhong,
                _ => WildMode::None,
            },
            shapes: Shapes {
                standard: has("standard"),
                seven_pairs: has("seven_pairs"),
                seven_pairs_quads: preset.rules.qidui_quad_as_two_pairs,
                thirteen_orphans: has("thirteen_orphans"),
                honors_knitted: false,
                knitted_straight: false,
            },
        })
    }

    fn fan(&self, id: &str) -> Option<&FanDef> {
        self.fans.iter().find(|f| f.id == id && f.enabled)
    }

    /// The wild kind of this hand under the `wildcard` switch; the indicator is required by
    /// 带混儿 / 随机癞子 and refused otherwise (it would be silently ignored).
    pub fn wild_kind(&self, s: &Situation) -> Result<Option<Tile>> {
        let ind = s.extra.wild_indicator;
        if let Some(t) = ind.filter(|t| t.is_flower()) {
            return Err(Error::hand(format!(
                "situation.wild_indicator: {t} is a flower (hebei plays without flowers)"
            )));
        }
        match (self.wild, ind) {
            (WildMode::None | WildMode::Hongzhong, Some(t)) => Err(Error::hand(format!(
                "situation.wild_indicator {t} given, but switch wildcard={} flips no indicator",
                if self.wild == WildMode::None {
                    "none"
                } else {
                    "hongzhong"
                }
            ))),
            (WildMode::None, None) => Ok(None),
            (WildMode::Hongzhong, None) => Ok(Some(Tile::C)),
            (WildMode::DaiHun | WildMode::RandomLaizi, None) => Err(Error::hand(
                "situation.wild_indicator (the flipped tile) is required with switch wildcard=dai_hun / random_laizi",
            )),
            (WildMode::DaiHun, Some(t)) => Ok(Some(t.next())),
            (WildMode::RandomLaizi, Some(t)) => Ok(Some(t)),
        }
    }
}

/// The score of one win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HebeiScore {
    /// The counted pattern (id, zh, en, points).
    pub pattern: (String, String, String, i64),
    /// The situational floor that applied, if it raised the points.
    pub floor: Option<(String, String, String, i64)>,
    /// Points per payer (before 自摸加番 / 庄闲 factors, which `payments` applies).
    pub points: i64,
    pub win_type: WinType,
    pub decomposition: Decomposition,
    /// The wild kind of the hand (带混儿 family), if any.
    pub wild: Option<Tile>,
}

impl HebeiScore {
    pub fn to_json_value(&self) -> Value {
        let item = |(id, zh, en, v): &(String, String, String, i64)| json!({"id": id, "zh": zh, "en": en, "value": v, "count": 1, "op": "base"});
        let mut fans = vec![item(&self.pattern)];
        if let Some(f) = &self.floor {
            fans.push(item(f));
        }
        json!({
            "variant": "hebei",
            "fans": fans,
            "points": self.points,
            "raw_multiplier": self.points,
            "multiplier": self.points,
            "win_type": self.win_type.name(),
            "decomposition": crate::scoring::score::decomposition_json(&self.decomposition),
            "wildcard": self.wild.map(|t| t.to_string()),
            "wildcards": self.decomposition.wildcards.iter().map(ToString::to_string).collect::<Vec<_>>(),
        })
    }
}

fn detect(d: &Decomposition, all: &Counts) -> &'static str {
    match d.form {
        Form::SevenPairs if d.pairs.windows(2).any(|p| p[0] == p[1]) => "LONG_QI_DUI",
        Form::ThirteenOrphans => "SHI_SAN_YAO",
        Form::Standard
            if (0..3u8).any(|k| {
                [0u8, 3, 6].iter().all(|r| {
                    d.sets
                        .iter()
                        .any(|x| x.kind == MeldKind::Chow && x.tile.index() == k * 9 + r)
                })
            }) =>
        {
            "YI_TIAO_LONG"
        }
        Form::SevenPairs => "QI_DUI",
        _ => {
            let suits = (0..3)
                .filter(|&k| (k * 9..k * 9 + 9).any(|i| all[i] > 0))
                .count();
            if suits == 1 && (27..34).all(|i| all[i] == 0) {
                "QING_YI_SE"
            } else {
                "PING_HU"
            }
        }
    }
}

impl HebeiRules {
    /// Score one win.
    pub fn score(&self, s: &Situation) -> Result<HebeiScore> {
        if s.flowers > 0 || !s.flower_tiles.is_empty() {
            return Err(Error::hand("hebei plays without flowers"));
        }
        if !self.chi_allowed {
            if let Some(i) = s.hand.melds().iter().position(|m| m.kind == MeldKind::Chow) {
                return Err(Error::hand(format!(
                    "hand.melds[{i}]: 吃 (chow) is not allowed in hebei (\"不允许吃\"; switch chi_allowed)"
                )));
            }
        }
        let mut all = s.hand.all_counts();
        all[s.win_tile.idx()] += 1;
        let wild = self.wild_kind(s)?;
        let decs = match wild {
            None => decompose(&s.full_counts(), s.hand.melds(), self.shapes)?,
            Some(w) => decompose_with_wild_kind(&s.full_counts(), w, s.hand.melds(), self.shapes)?,
        };
        if decs.is_empty() {
            return Err(Error::hand(format!(
                "not a winning hand: {} + {} is not 4 sets + a pair, 七对 or 十三幺{}",
                s.hand,
                s.win_tile,
                wild.map_or(String::new(), |w| format!(" (wild {w})"))
            )));
        }
        let floor_id = match s.win_type {
            WinType::RobKong => Some("QIANG_GANG_HU"),
            WinType::KongReplacement => Some("GANG_SHANG_KAI_HUA"),
            WinType::AfterKongDiscard => Some("GANG_SHANG_PAO"),
            _ => None,
        };
        let tuple = |f: &FanDef, v: i64| (f.id.clone(), f.zh.clone(), f.en.clone(), v);
        let mut best: Option<HebeiScore> = None;
        for d in decs {
            let read = if d.wildcards.is_empty() {
                all
            } else {
                read_tiles(&d)
            };
            let id = detect(&d, &read);
            let f = self
                .fan(id)
                .or_else(|| self.fan("PING_HU"))
                .ok_or_else(|| Error::rule("hebei: PING_HU is missing from the table"))?;
            let mut v = f.value;
            if f.id == "PING_HU" && s.is_self_drawn() {
                v = self.ping_hu_self_draw;
            }
            if self.flat {
                v = 1;
            }
            let pattern = tuple(f, v);
            let mut points = v;
            let mut floor = None;
            if !self.flat {
                if let Some(fl) = floor_id.and_then(|x| self.fan(x)) {
                    if fl.value > points {
                        points = fl.value;
                        floor = Some(tuple(fl, fl.value));
                    }
                }
            }
            if best.as_ref().is_some_and(|b| b.points >= points) {
                continue;
            }
            best = Some(HebeiScore {
                pattern,
                floor,
                points,
                win_type: s.win_type,
                decomposition: d,
                wild,
            });
        }
        Ok(best.expect("at least one decomposition"))
    }
}
