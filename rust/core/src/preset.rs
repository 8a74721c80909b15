//! Presets as data (`presets/<id>.toml`): one readable file per variant with its fan/pattern table
//! and its named switches. Files are embedded at build time, parsed once, and validated by
//! `cargo test`; [`crate::variant::Variant`] compiles a preset plus switch overrides into the
//! immutable object that hot calls reuse.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// How a fan / pattern value combines with the others (common.md §5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FanOp {
    /// Added to the fan total.
    #[default]
    Add,
    /// Multiplies the hand value.
    Mul,
    /// Adds `value` doublings (×2^value).
    Pow2,
    /// A base pattern: only the highest one counts (四川 基本番只按最大番算).
    Base,
    /// A limit hand worth exactly the cap, ignoring every other pattern (二人 役满).
    FixedLimit,
}

/// One fan / pattern of a preset's table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FanDef {
    /// UPPER_SNAKE_CASE id, unique in the preset.
    pub id: String,
    pub zh: String,
    pub en: String,
    pub value: i64,
    #[serde(default)]
    pub op: FanOp,
    /// Ids this fan excludes (不计).
    #[serde(default)]
    pub excludes: Vec<String>,
    /// Countable fans this one absorbs a number of (e.g. 九莲宝灯 absorbs one 幺九刻; 龙七对 减1根).
    #[serde(default)]
    pub reduces: BTreeMap<String, u32>,
    /// `pattern` (shape), `situational` (how it was won), `bonus` (flowers and the like).
    #[serde(default = "default_scope")]
    pub scope: String,
    /// Whether it is counted once per occurrence (根, 花, 幺九刻 …).
    #[serde(default)]
    pub countable: bool,
    /// Sources and interpretation notes.
    #[serde(default)]
    pub note: String,
    /// Off unless a switch or the selected fan profile turns it on.
    #[serde(default = "default_true")]
    pub enabled: bool,
    /// Scores only when no other fan of its combination class does (平胡 / 平和).
    #[serde(default)]
    pub fallback: bool,
}

fn default_scope() -> String {
    "pattern".into()
}

fn default_true() -> bool {
    true
}

/// Known combination methods (common.md §5.2) a preset may name in `rules.combine` or a profile.
pub const COMBINE_METHODS: &[&str] = &[
    "additive_points",
    "doubling",
    "best_pattern_plus_doublings",
    "additive_doubling",
    "named_composites",
    "multiplier_product",
    "factor_product_winner_loser",
    "situation_table_doubling",
    "flat",
    "single_pattern_points",
    "fixed_limit",
];

/// Known win shapes (common.md §3).
pub const SHAPES: &[&str] = &[
    "standard",
    "seven_pairs",
    "thirteen_orphans",
    "honors_knitted",
    "knitted_straight",
    "special",
];

/// Generic rule data of a preset (common.md §8 checklist). Every key is optional; a rule module
/// reads what it needs. Unknown keys are an error, so a typo never silently does nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameRules {
    /// 吃 allowed (from 上家 only).
    pub chi_allowed: bool,
    /// Kongs allowed: `open` (直杠), `added` (补杠), `concealed` (暗杠).
    pub kong_kinds: Vec<String>,
    /// Which kongs may be robbed: `none`, `added_only`, `added_and_open`.
    pub rob_kong: String,
    /// 一炮多响 (true) or 截胡 (false).
    pub multi_ron: bool,
    /// Win shapes (ids of [`SHAPES`]).
    pub shapes: Vec<String>,
    pub qidui_quad_as_two_pairs: bool,
    /// 缺门 requirement: `none`, `at_win`, `ding_que`.
    pub que_men: String,
    /// Combination method (one of [`COMBINE_METHODS`]).
    pub combine: String,
    /// `doubling`: multiplier = 2^(番 − offset).
    pub doubling_offset: i64,
    /// Kong payment timing (common.md §6.3): `instant`, `on_owner_win`, `on_any_win`, `as_factor`.
    pub kong_payment: String,
    /// Draw-end settlement steps in order (event kinds of common.md §6.1).
    pub draw_end_order: Vec<String>,
    /// Dealer rotation model (common.md §7).
    pub dealer_rotation: String,
    /// Flow facts for the game engine that the keys above do not cover (`[rules.flow]`: discard
    /// wins allowed, claim priority, deal and wall sizes, 荒庄, 报听/亮倒, wildcard flip …);
    /// documented per preset in `docs/presets.md`.
    pub flow: toml::Table,
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules {
            chi_allowed: true,
            kong_kinds: vec!["open".into(), "added".into(), "concealed".into()],
            rob_kong: "added_only".into(),
            multi_ron: false,
            shapes: vec!["standard".into()],
            qidui_quad_as_two_pairs: false,
            que_men: "none".into(),
            combine: "additive_points".into(),
            doubling_offset: 0,
            kong_payment: "instant".into(),
            draw_end_order: Vec::new(),
            dealer_rotation: "stay_on_dealer_win_or_draw".into(),
            flow: toml::Table::new(),
        }
    }
}

/// A partial override of one fan in a fan profile.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FanOverride {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op: Option<FanOp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excludes: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
}

/// A named fan profile (selected by a preset's `fan_profile` switch): a combination method and
/// per-fan overrides of the preset's table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FanProfile {
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combine: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doubling_offset: Option<i64>,
    #[serde(default)]
    pub fans: BTreeMap<String, FanOverride>,
}

/// A switch value: a flag, a number or a named choice.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SwitchValue {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl fmt::Display for SwitchValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwitchValue::Bool(b) => write!(f, "{b}"),
            SwitchValue::Int(i) => write!(f, "{i}"),
            SwitchValue::Str(s) => write!(f, "{s:?}"),
        }
    }
}

/// A named switch of a preset: its default (the seed's rule) and what it may be set to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchDef {
    pub name: String,
    pub description: String,
    pub default: SwitchValue,
    /// For choice switches: the allowed values. Empty for bool switches (true/false) and ints.
    #[serde(default)]
    pub values: Vec<SwitchValue>,
    /// For int switches: inclusive range.
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
    /// Other switch settings this one cannot be combined with when set to a non-default value:
    /// `["other_switch=value", …]`.
    #[serde(default)]
    pub conflicts: Vec<String>,
}

impl SwitchDef {
    fn allowed(&self) -> String {
        match &self.default {
            SwitchValue::Bool(_) => "true or false".into(),
            SwitchValue::Int(_) => match (self.min, self.max) {
                (Some(a), Some(b)) => format!("an integer in {a}..={b}"),
                (Some(a), None) => format!("an integer >= {a}"),
                (None, Some(b)) => format!("an integer <= {b}"),
                (None, None) => "an integer".into(),
            },
            SwitchValue::Str(_) => self
                .values
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    fn check(&self, v: &SwitchValue) -> Result<()> {
        let ok = match (&self.default, v) {
            (SwitchValue::Bool(_), SwitchValue::Bool(_)) => true,
            (SwitchValue::Int(_), SwitchValue::Int(i)) => {
                self.min.is_none_or(|m| *i >= m) && self.max.is_none_or(|m| *i <= m)
            }
            (SwitchValue::Str(_), SwitchValue::Str(_)) => self.values.contains(v),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(Error::rule(format!(
                "switch {:?} cannot be {v}; allowed: {}",
                self.name,
                self.allowed()
            )))
        }
    }
}

/// A preset file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PresetData {
    pub id: String,
    /// Chinese name.
    pub name: String,
    pub name_en: String,
    pub description: String,
    pub players: u8,
    /// Tile set id (common.md §1.2).
    pub tile_set: String,
    /// Where the default rules come from.
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub fans: Vec<FanDef>,
    #[serde(default)]
    pub switches: Vec<SwitchDef>,
    /// Generic rule data (common.md §8).
    #[serde(default)]
    pub rules: GameRules,
    /// Named fan profiles (overrides of `fans`), selected by a `fan_profile` switch.
    #[serde(default)]
    pub profiles: BTreeMap<String, FanProfile>,
    /// Preset-specific parameters (settlement, caps …) that its rule module reads.
    #[serde(default)]
    pub params: toml::Table,
    /// One win of this preset as a scoring request (`{"hand", "situation"}`): shown in the docs
    /// and the calculator, and scored through every entry point by the tests.
    #[serde(default)]
    pub example: Option<serde_json::Value>,
    /// A card game's analyser question (`{"hand", "play"?, "against"?}`, `Ruleset::analyse`):
    /// loaded by the calculator's analyser and the docs, answered by the tests.
    #[serde(default)]
    pub analyse_example: Option<serde_json::Value>,
}

impl PresetData {
    /// The fan table entry of `id` (a score's fan names come from the data).
    pub fn fan_def(&'static self, id: &str) -> Option<&'static FanDef> {
        self.fans.iter().find(|f| f.id == id)
    }
    /// The entry of `id` when the data lists it (with the data's names), else an entry for these
    /// names made once per process (`FanDef::interned`).
    pub fn fan_named(&'static self, id: &str, zh: &str, en: &str) -> &'static FanDef {
        match self.fan_def(id) {
            Some(d) => d,
            None => FanDef::interned(id, zh, en),
        }
    }
    /// The entry of `id`, or an error naming the preset (a scorer named a fan its data lacks).
    pub fn fan_entry(&'static self, id: &str) -> Result<&'static FanDef> {
        self.fan_def(id).ok_or_else(|| {
            Error::rule(format!(
                "{}: fan {id} is not in presets/{}.toml",
                self.id, self.id
            ))
        })
    }
}

impl FanDef {
    /// A `'static` entry for names a data file does not list (a preset module's own factors …):
    /// made once per distinct `(id, zh, en)` and kept for the process.
    pub fn interned(id: &str, zh: &str, en: &str) -> &'static FanDef {
        use std::collections::HashMap;
        use std::sync::{Mutex, OnceLock};
        type Key = (String, String, String);
        static TABLE: OnceLock<Mutex<HashMap<Key, &'static FanDef>>> = OnceLock::new();
        let key = (id.to_string(), zh.to_string(), en.to_string());
        let mut t = TABLE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        t.entry(key)
            .or_insert_with(|| Box::leak(Box::new(FanDef::named(id, zh, en, FanOp::Add))))
    }
    /// An entry for a preset module's own static table (names the data file does not list).
    pub fn named(id: &str, zh: &str, en: &str, op: FanOp) -> FanDef {
        FanDef {
            id: id.into(),
            zh: zh.into(),
            en: en.into(),
            value: 0,
            op,
            excludes: Vec::new(),
            reduces: BTreeMap::new(),
            scope: default_scope(),
            countable: false,
            note: String::new(),
            enabled: true,
            fallback: false,
        }
    }
}

/// Resolved switch values: every switch of the preset, defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Options(BTreeMap<String, SwitchValue>);

impl Options {
    pub fn get(&self, name: &str) -> Option<&SwitchValue> {
        self.0.get(name)
    }
    /// A bool switch; unknown or non-bool names are a programming error reported as a rule error.
    pub fn bool(&self, name: &str) -> Result<bool> {
        match self.0.get(name) {
            Some(SwitchValue::Bool(b)) => Ok(*b),
            _ => Err(Error::rule(format!("preset has no bool switch {name:?}"))),
        }
    }
    pub fn int(&self, name: &str) -> Result<i64> {
        match self.0.get(name) {
            Some(SwitchValue::Int(i)) => Ok(*i),
            _ => Err(Error::rule(format!("preset has no int switch {name:?}"))),
        }
    }
    pub fn str(&self, name: &str) -> Result<&str> {
        match self.0.get(name) {
            Some(SwitchValue::Str(s)) => Ok(s),
            _ => Err(Error::rule(format!("preset has no choice switch {name:?}"))),
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = (&String, &SwitchValue)> {
        self.0.iter()
    }
}

impl PresetData {
    /// Parse and check one preset file.
    pub fn from_toml(text: &str) -> Result<PresetData> {
        let p: PresetData =
            toml::from_str(text).map_err(|e| Error::rule(format!("bad preset file: {e}")))?;
        p.validate()?;
        Ok(p)
    }

    fn validate(&self) -> Result<()> {
        let mut ids = std::collections::BTreeSet::new();
        for f in &self.fans {
            if !ids.insert(f.id.as_str()) {
                return Err(Error::rule(format!(
                    "{}: duplicate fan id {}",
                    self.id, f.id
                )));
            }
        }
        for f in &self.fans {
            for x in f.excludes.iter().chain(f.reduces.keys()) {
                if !ids.contains(x.as_str()) {
                    return Err(Error::rule(format!(
                        "{}: fan {} refers to unknown fan {x}",
                        self.id, f.id
                    )));
                }
            }
        }
        let check_combine = |c: &str, what: &str| {
            if COMBINE_METHODS.contains(&c) {
                Ok(())
            } else {
                Err(Error::rule(format!(
                    "{}: {what}: unknown combination method {c:?}; known: {}",
                    self.id,
                    COMBINE_METHODS.join(", ")
                )))
            }
        };
        check_combine(&self.rules.combine, "rules.combine")?;
        if let Some(bad) = self
            .rules
            .shapes
            .iter()
            .find(|s| !SHAPES.contains(&s.as_str()))
        {
            return Err(Error::rule(format!(
                "{}: rules.shapes: unknown shape {bad:?}; known: {}",
                self.id,
                SHAPES.join(", ")
            )));
        }
        for (name, prof) in &self.profiles {
            if let Some(c) = &prof.combine {
                check_combine(c, &format!("profile {name}"))?;
            }
            for (fid, o) in &prof.fans {
                let refs = std::iter::once(fid).chain(o.excludes.iter().flatten());
                for x in refs {
                    if !ids.contains(x.as_str()) {
                        return Err(Error::rule(format!(
                            "{}: profile {name} refers to unknown fan {x}",
                            self.id
                        )));
                    }
                }
            }
        }
        let mut names = std::collections::BTreeSet::new();
        for s in &self.switches {
            if !names.insert(s.name.as_str()) {
                return Err(Error::rule(format!(
                    "{}: duplicate switch {}",
                    self.id, s.name
                )));
            }
            s.check(&s.default)
                .map_err(|e| Error::rule(format!("{}: default of {}: {e}", self.id, s.name)))?;
        }
        for s in &self.switches {
            for c in &s.conflicts {
                let other = c.split_once('=').map_or(c.as_str(), |(o, _)| o);
                if !names.contains(other) {
                    return Err(Error::rule(format!(
                        "{}: switch {} conflicts with unknown switch {other:?}",
                        self.id, s.name
                    )));
                }
            }
        }
        if let Some(fp) = self.switch("fan_profile") {
            for v in fp.values.iter().chain([&fp.default]) {
                let SwitchValue::Str(name) = v else {
                    return Err(Error::rule(format!(
                        "{}: fan_profile values must be names",
                        self.id
                    )));
                };
                if !self.profiles.contains_key(name) {
                    return Err(Error::rule(format!(
                        "{}: fan_profile value {name:?} has no [profiles.{name}] table",
                        self.id
                    )));
                }
            }
        }
        Ok(())
    }

    /// The fan table with a profile's overrides applied (`None` or an unknown name: the table
    /// as written), plus the profile's combination method and doubling offset.
    pub fn fans_for_profile(&self, profile: Option<&str>) -> (Vec<FanDef>, String, i64) {
        let mut fans = self.fans.clone();
        let mut combine = self.rules.combine.clone();
        let mut offset = self.rules.doubling_offset;
        if let Some(p) = profile.and_then(|p| self.profiles.get(p)) {
            if let Some(c) = &p.combine {
                combine = c.clone();
            }
            if let Some(o) = p.doubling_offset {
                offset = o;
            }
            for f in &mut fans {
                if let Some(o) = p.fans.get(&f.id) {
                    if let Some(v) = o.value {
                        f.value = v;
                    }
                    if let Some(op) = o.op {
                        f.op = op;
                    }
                    if let Some(x) = &o.excludes {
                        f.excludes = x.clone();
                    }
                    if let Some(e) = o.enabled {
                        f.enabled = e;
                    }
                }
            }
        }
        (fans, combine, offset)
    }

    pub fn fan(&self, id: &str) -> Option<&FanDef> {
        self.fans.iter().find(|f| f.id == id)
    }

    pub fn switch(&self, name: &str) -> Option<&SwitchDef> {
        self.switches.iter().find(|s| s.name == name)
    }

    /// Validate overrides against the switch table and fill in defaults.
    pub fn resolve<K: AsRef<str>>(
        &self,
        overrides: impl IntoIterator<Item = (K, SwitchValue)>,
    ) -> Result<Options> {
        let mut out: BTreeMap<String, SwitchValue> = self
            .switches
            .iter()
            .map(|s| (s.name.clone(), s.default.clone()))
            .collect();
        for (name, value) in overrides {
            let name = name.as_ref();
            let Some(def) = self.switch(name) else {
                let known: Vec<&str> = self.switches.iter().map(|s| s.name.as_str()).collect();
                return Err(Error::rule(format!(
                    "preset {} has no switch {name:?}; its switches: {}",
                    self.id,
                    if known.is_empty() {
                        "(none)".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            };
            // A choice switch listing numbers as strings ("off" | "5" | "6") also takes the number.
            let value = match value {
                SwitchValue::Int(i)
                    if matches!(def.default, SwitchValue::Str(_))
                        && def.values.contains(&SwitchValue::Str(i.to_string())) =>
                {
                    SwitchValue::Str(i.to_string())
                }
                v => v,
            };
            def.check(&value)?;
            out.insert(name.to_string(), value);
        }
        for def in &self.switches {
            if out.get(&def.name) == Some(&def.default) {
                continue;
            }
            for c in &def.conflicts {
                let (other, val) = c.split_once('=').unwrap_or((c.as_str(), "true"));
                let hit = out.get(other).is_some_and(|v| match v {
                    SwitchValue::Str(s) => s == val,
                    other_v => other_v.to_string() == val,
                });
                if hit {
                    return Err(Error::rule(format!(
                        "switch {}={} conflicts with {other}={val}",
                        def.name, out[&def.name]
                    )));
                }
            }
        }
        Ok(Options(out))
    }
}

/// The embedded preset files come from [`crate::rules::REGISTRY`], in its order.
static PRESETS: LazyLock<Vec<Result<PresetData>>> = LazyLock::new(|| {
    crate::rules::REGISTRY
        .iter()
        .map(|(_, text, _)| PresetData::from_toml(text))
        .collect()
});

/// Ids of every built-in preset, in listing order.
pub fn preset_ids() -> Vec<&'static str> {
    crate::rules::REGISTRY
        .iter()
        .map(|(id, _, _)| *id)
        .collect()
}

/// A built-in preset by id.
pub fn preset(id: &str) -> Result<&'static PresetData> {
    let Some(pos) = crate::rules::REGISTRY.iter().position(|(k, _, _)| *k == id) else {
        return Err(Error::rule(format!(
            "unknown variant {id:?}; known variants: {}",
            preset_ids().join(", ")
        )));
    };
    PRESETS[pos].as_ref().map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_matches_its_id() {
        for id in preset_ids() {
            let p = preset(id).unwrap();
            assert_eq!(p.id, id);
        }
    }

    #[test]
    fn unknown_switch_and_value() {
        let p = PresetData::from_toml(
            r#"
            id = "t"
            name = "测试"
            name_en = "test"
            description = "d"
            players = 4
            tile_set = "full136"
            [[switches]]
            name = "mode"
            description = "m"
            default = "a"
            values = ["a", "b"]
            [[switches]]
            name = "flag"
            description = "f"
            default = false
            conflicts = ["mode=b"]
            "#,
        )
        .unwrap();
        assert!(p.resolve([("nope", SwitchValue::Bool(true))]).is_err());
        let e = p
            .resolve([("mode", SwitchValue::Str("c".into()))])
            .unwrap_err();
        assert!(e.to_string().contains("\"a\", \"b\""), "{e}");
        assert!(p.resolve([("flag", SwitchValue::Int(1))]).is_err());
        assert!(p.resolve([("flag", SwitchValue::Bool(true))]).is_ok());
        let e = p
            .resolve([
                ("flag", SwitchValue::Bool(true)),
                ("mode", SwitchValue::Str("b".into())),
            ])
            .unwrap_err();
        assert!(e.to_string().contains("conflicts"), "{e}");
        assert!(preset("nope").is_err());
    }
}
