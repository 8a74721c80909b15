//! A variant = a preset (data) + resolved switches, compiled once into the immutable rule object
//! that every hot call reuses. Unknown or conflicting switches fail here, never later.

use crate::error::{Error, Result};
use crate::preset::{self, Options, PresetData, SwitchValue};
use crate::tile::Tile;

/// The compiled, preset-specific rules. Each preset with scoring logic adds its variant here;
/// presets that are pure data use `Generic`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Rules {
    Generic,
    /// 国标 MCR (`presets/mcr.toml`, `crate::rules::mcr`).
    Mcr(Box<crate::rules::mcr::McrRules>),
    /// 四川 血战到底 / 血流成河 (`presets/sichuan.toml`).
    Sichuan(Box<crate::rules::sichuan::SichuanRules>),
    /// 字牌 presets (`zipai_guilin`, `zipai_hunan`).
    Zipai(Box<crate::rules::zipai::ZipaiRules>),
    /// 卡五星 (`presets/kawuxing.toml`, `crate::rules::kawuxing`).
    Kawuxing(Box<crate::rules::kawuxing::KawuxingRules>),
    /// 河北 第4稿 (`presets/hebei_draft4.toml`, `crate::rules::hebei_draft4`).
    HebeiDraft4(Box<crate::rules::hebei_draft4::HebeiDraft4Rules>),
    /// 河北 basic 推倒胡 (`presets/hebei.toml`, `crate::rules::hebei`).
    Hebei(Box<crate::rules::hebei::HebeiRules>),
    /// 上海 清混碰 (`presets/shanghai.toml`, `crate::rules::shanghai`).
    Shanghai(Box<crate::rules::shanghai::ShanghaiRules>),
    /// 欢乐麻将3D (`presets/huanle3d.toml`).
    Huanle3d(Box<crate::rules::huanle3d::Huanle3dRules>),
    /// 二人麻将 (`presets/erren.toml`).
    Erren(Box<crate::rules::erren::ErrenRules>),
    /// 陕西麻将 (`presets/shaanxi.toml`).
    Shaanxi(Box<crate::rules::shaanxi::ShaanxiRules>),
    /// 武汉 红中癞子杠 (`presets/wuhan.toml`).
    Wuhan(Box<crate::rules::wuhan::WuhanRules>),
}

impl Rules {
    /// Dispatch on the preset id to the preset's rule module (one arm per preset with logic).
    fn compile(preset: &'static PresetData, options: &Options) -> Result<Rules> {
        match preset.id.as_str() {
            "mcr" => Ok(Rules::Mcr(Box::new(crate::rules::mcr::McrRules::compile(
                preset, options,
            )?))),
            "sichuan" => Ok(Rules::Sichuan(Box::new(
                crate::rules::sichuan::SichuanRules::compile(preset, options)?,
            ))),
            "zipai_guilin" | "zipai_hunan" => Ok(Rules::Zipai(Box::new(
                crate::rules::zipai::ZipaiRules::compile(preset, options)?,
            ))),
            "kawuxing" => Ok(Rules::Kawuxing(Box::new(
                crate::rules::kawuxing::KawuxingRules::compile(preset, options)?,
            ))),
            "hebei_draft4" => Ok(Rules::HebeiDraft4(Box::new(
                crate::rules::hebei_draft4::HebeiDraft4Rules::compile(preset, options)?,
            ))),
            "hebei" => Ok(Rules::Hebei(Box::new(
                crate::rules::hebei::HebeiRules::compile(preset, options)?,
            ))),
            "shanghai" => Ok(Rules::Shanghai(Box::new(
                crate::rules::shanghai::ShanghaiRules::compile(preset, options)?,
            ))),
            "huanle3d" => Ok(Rules::Huanle3d(Box::new(
                crate::rules::huanle3d::Huanle3dRules::compile(preset, options)?,
            ))),
            "erren" => Ok(Rules::Erren(Box::new(
                crate::rules::erren::ErrenRules::compile(preset, options)?,
            ))),
            "shaanxi" => Ok(Rules::Shaanxi(Box::new(
                crate::rules::shaanxi::ShaanxiRules::compile(preset, options)?,
            ))),
            "wuhan" => Ok(Rules::Wuhan(Box::new(
                crate::rules::wuhan::WuhanRules::compile(preset, options)?,
            ))),
            _ => Ok(Rules::Generic),
        }
    }
}

/// A validated, compiled variant.
#[derive(Clone, Debug)]
pub struct Variant {
    preset: &'static PresetData,
    options: Options,
    rules: Rules,
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
        let rules = Rules::compile(preset, &options)?;
        Ok(Variant {
            preset,
            options,
            rules,
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
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The physical tiles of this variant's set, in index order: the effective `tile_set` (the
    /// switch where the preset has one, common.md §1.2) — `full136`, `full144` (+ the eight flowers,
    /// one each), `suits3` (108), `suits3_red` (108 + four 红中), `suits2_dragons` (卡五星: the two
    /// suits of switch `suits` + 中发白, 84). The wall is a permutation of this list.
    pub fn tile_set(&self) -> Result<Vec<Tile>> {
        let set = match self.options.get("tile_set") {
            Some(SwitchValue::Str(s)) => s.as_str(),
            _ => self.preset.tile_set.as_str(),
        };
        let kinds: Vec<u8> = match (set, &self.rules) {
            ("suits2_dragons", Rules::Kawuxing(r)) => r
                .suits
                .iter()
                .flat_map(|&s| 9 * s..9 * s + 9)
                .chain(31..34)
                .collect(),
            ("suits3", _) => (0..27).collect(),
            ("suits3_red", _) => (0..27).chain([31]).collect(),
            ("full136" | "full144", _) => (0..34).collect(),
            _ => {
                return Err(Error::rule(format!(
                    "{}: tile set {set:?} is not a mahjong tile set",
                    self.preset.id
                )));
            }
        };
        let mut out: Vec<Tile> = kinds
            .iter()
            .flat_map(|&k| std::iter::repeat_n(Tile::new_unchecked(k), 4))
            .collect();
        if set == "full144" {
            out.extend((34..42).map(Tile::new_unchecked));
        }
        Ok(out)
    }

    /// The 字牌 rules of a 字牌 preset (error for other presets).
    pub fn zipai(&self) -> Result<&crate::rules::zipai::ZipaiRules> {
        match &self.rules {
            Rules::Zipai(r) => Ok(r),
            _ => Err(crate::error::Error::rule(format!(
                "variant {} is not a 字牌 preset (use zipai_guilin or zipai_hunan)",
                self.id()
            ))),
        }
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
