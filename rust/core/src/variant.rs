//! A variant = a preset (data) + resolved switches, compiled once into the immutable rule object
//! that every hot call reuses. Unknown or conflicting switches fail here, never later.

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::preset::{self, Options, PresetData, SwitchValue};
use crate::rules::Ruleset;
use crate::tile::Tile;

/// A validated, compiled variant: the preset, its resolved switches and its compiled ruleset
/// (found through [`crate::rules::REGISTRY`]).
#[derive(Clone, Debug)]
pub struct Variant {
    preset: &'static PresetData,
    options: Options,
    ruleset: Arc<dyn Ruleset>,
}

impl Variant {
    /// Load a built-in preset with its default switches.
    pub fn load(id: &str) -> Result<Variant> {
        Variant::with_options(id, std::iter::empty::<(&str, SwitchValue)>())
    }

    /// Load a built-in preset and override some switches.
    pub fn with_options<K: AsRef<str>>(
        id: &str,
        overrides: impl IntoIterator<Item = (K, SwitchValue)>,
    ) -> Result<Variant> {
        let preset = preset::preset(id)?;
        let options = preset.resolve(overrides)?;
        let compile = crate::rules::compiler(id).ok_or_else(|| {
            Error::rule(format!("preset {id:?} has no ruleset in rules::REGISTRY"))
        })?;
        let ruleset = compile(preset, &options)?;
        Ok(Variant {
            preset,
            options,
            ruleset,
        })
    }

    /// This variant with more switches overridden (the existing overrides are kept).
    pub fn derive<K: AsRef<str>>(
        &self,
        overrides: impl IntoIterator<Item = (K, SwitchValue)>,
    ) -> Result<Variant> {
        let mut merged: Vec<(String, SwitchValue)> = self
            .changed_options()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        merged.extend(
            overrides
                .into_iter()
                .map(|(k, v)| (k.as_ref().to_string(), v)),
        );
        Variant::with_options(&self.preset.id, merged)
    }

    pub fn id(&self) -> &str {
        &self.preset.id
    }
    pub fn preset(&self) -> &'static PresetData {
        self.preset
    }
    pub fn options(&self) -> &Options {
        &self.options
    }
    /// The compiled ruleset (the one extension point: `crate::rules::Ruleset`).
    pub fn ruleset(&self) -> &dyn Ruleset {
        self.ruleset.as_ref()
    }
    /// The preset's own compiled rules (`rules/<id>/` downcasts with its type), `None` for another
    /// preset.
    pub fn rules_as<T: 'static>(&self) -> Option<&T> {
        self.ruleset.as_any().downcast_ref::<T>()
    }
    /// The physical tiles of this variant's set, in index order (the wall is a permutation of
    /// this list): the ruleset's, by default the effective `tile_set` (common.md §1.2).
    pub fn tile_set(&self) -> Result<Vec<Tile>> {
        self.ruleset.tile_set(self.preset, &self.options)
    }

    /// Only the switches that differ from the preset's defaults.
    pub fn changed_options(&self) -> Vec<(&str, &SwitchValue)> {
        self.preset
            .switches
            .iter()
            .filter_map(|s| {
                let v = self.options.get(&s.name)?;
                (v != &s.default).then_some((s.name.as_str(), v))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_every_preset() {
        for id in preset::preset_ids() {
            let v = Variant::load(id).unwrap();
            assert_eq!(v.id(), id);
            assert!(v.changed_options().is_empty());
        }
        assert!(Variant::load("no-such-variant").is_err());
    }

    #[test]
    fn tile_sets_follow_the_switches() {
        let n = |id: &str, o: &[(&str, &str)]| {
            let v =
                Variant::with_options(id, o.iter().map(|&(k, x)| (k, SwitchValue::Str(x.into()))))
                    .unwrap();
            v.tile_set().map(|t| t.len())
        };
        assert_eq!(n("mcr", &[]).unwrap(), 144);
        assert_eq!(n("sichuan", &[]).unwrap(), 108);
        assert_eq!(n("huanle3d", &[]).unwrap(), 108);
        assert_eq!(n("huanle3d", &[("tile_set", "full136")]).unwrap(), 136);
        assert_eq!(n("huanle3d", &[("tile_set", "suits3_red")]).unwrap(), 112);
        assert_eq!(n("shaanxi", &[("tile_set", "suits3")]).unwrap(), 108);
        assert_eq!(n("kawuxing", &[]).unwrap(), 84);
        assert_eq!(n("erren", &[]).unwrap(), 136);
        let k =
            Variant::with_options("kawuxing", [("suits", SwitchValue::Str("mp".into()))]).unwrap();
        let t = k.tile_set().unwrap();
        assert!(
            t.iter()
                .all(|t| t.index() < 18 || (31..34).contains(&t.index()))
        );
        assert!(n("zipai_guilin", &[]).is_err());
    }
}
