//! Presets as data (`presets/<id>.toml`): one readable file per variant with its fan/pattern table
//! and its named switches. Files are embedded at build time, parsed once, and validated by
//! `cargo test`; [`crate::variant::Variant`] compiles a preset plus switch overrides into the
//! immutable object that hot calls reuse.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The embedded preset files, in listing order. Adding a preset = adding a line here and a file.
const SOURCES: &[(&str, &str)] = &[("mcr", include_str!("../../../presets/mcr.toml"))];

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
}

fn default_scope() -> String {
    "pattern".into()
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
    /// Preset-specific parameters (settlement, caps …) that its rule module reads.
    #[serde(default)]
    pub params: toml::Table,
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
        Ok(())
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

static PRESETS: LazyLock<Vec<Result<PresetData>>> = LazyLock::new(|| {
    SOURCES
        .iter()
        .map(|(_, text)| PresetData::from_toml(text))
        .collect()
});

/// Ids of every built-in preset, in listing order.
pub fn preset_ids() -> Vec<&'static str> {
    SOURCES.iter().map(|(id, _)| *id).collect()
}

/// A built-in preset by id.
pub fn preset(id: &str) -> Result<&'static PresetData> {
    let Some(pos) = SOURCES.iter().position(|(k, _)| *k == id) else {
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
