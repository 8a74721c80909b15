//! The compiled 顶牛 rules: the preset file `presets/dingniu.toml` plus switch overrides.

use std::sync::LazyLock;

use crate::error::{Error, Result};
use crate::preset::{Options, PresetData, SwitchValue};

const SOURCE: &str = include_str!("../../../../../presets/dingniu.toml");

static PRESET: LazyLock<Result<PresetData>> = LazyLock::new(|| PresetData::from_toml(SOURCE));

/// Ids of the presets this module plays.
pub const PRESET_IDS: &[&str] = &["dingniu"];

/// The preset data (parsed once).
pub fn preset(id: &str) -> Result<&'static PresetData> {
    if !PRESET_IDS.contains(&id) {
        return Err(Error::rule(format!(
            "unknown 顶牛 variant {id:?}; known: {}",
            PRESET_IDS.join(", ")
        )));
    }
    PRESET.as_ref().map_err(Clone::clone)
}

/// H2: which doubles must be opened as a pair when the 头牌 holds both copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairOpening {
    /// Only 红八 (44+44), the seed.
    RedOnly,
    /// Every double.
    AllDoubles,
    /// No pair opening at all.
    None,
}

/// Which smothered tiles make a 帐 (§6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmotherTiles {
    RedFive,
    Any,
}

/// Which forced (死砸) 帐 are exempt (§6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedExempt {
    /// All six types (gap-fill).
    All,
    /// Only the smother types 砸红帐 / 闷五帐 (literal).
    SmotherOnly,
}

/// Who pays a 死拦红帐 (§6.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SilanPayment {
    /// The 上家 pays `silan` (12) to the 红帐 player; the others nothing.
    All,
    /// The 上家 pays the three doubled shares.
    Shares,
}

/// The compiled rules of one 顶牛 variant (cheap to copy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DingniuRules {
    pub opening_h1: bool,
    pub pair_opening: PairOpening,
    /// `suanzhang = "auto"`.
    pub suanzhang: bool,
    pub smother_tiles: SmotherTiles,
    pub doubles_laid: bool,
    pub forced_exempt: ForcedExempt,
    pub silan: bool,
    pub silan_payment: SilanPayment,
    /// Winner's amount (+6).
    pub win: i64,
    /// 大庄 / 二庄 / 小庄 pay (3, 2, 1).
    pub da_zhuang: i64,
    pub er_zhuang: i64,
    pub xiao_zhuang: i64,
    /// 算帐 success multiplier (2).
    pub zhang_multiplier: i64,
    /// 包庄 amount (12).
    pub baozhuang: i64,
    /// 死拦红帐 amount with `silan_payment = "all"` (12).
    pub silan_amount: i64,
}

impl Default for DingniuRules {
    /// The seed's rules (the preset's defaults).
    fn default() -> Self {
        match Self::load("dingniu", Vec::<(String, SwitchValue)>::new()) {
            Ok(r) => r,
            // The embedded preset is checked by the tests; this fallback is never reached.
            Err(_) => DingniuRules {
                opening_h1: true,
                pair_opening: PairOpening::RedOnly,
                suanzhang: true,
                smother_tiles: SmotherTiles::RedFive,
                doubles_laid: false,
                forced_exempt: ForcedExempt::All,
                silan: true,
                silan_payment: SilanPayment::All,
                win: 6,
                da_zhuang: 3,
                er_zhuang: 2,
                xiao_zhuang: 1,
                zhang_multiplier: 2,
                baozhuang: 12,
                silan_amount: 12,
            },
        }
    }
}

fn param_int(p: &PresetData, name: &str) -> Result<i64> {
    p.params
        .get(name)
        .and_then(toml::Value::as_integer)
        .ok_or_else(|| Error::rule(format!("{}: [params] needs integer {name}", p.id)))
}

impl DingniuRules {
    /// Load a variant by id with switch overrides (`[("silan", SwitchValue::Bool(false))]`).
    /// Unknown switches, bad values and conflicts raise [`Error::RuleConfig`].
    pub fn load<K: AsRef<str>>(
        id: &str,
        switches: impl IntoIterator<Item = (K, SwitchValue)>,
    ) -> Result<DingniuRules> {
        let (r, _) = Self::load_with_options(id, switches)?;
        Ok(r)
    }

    /// Like [`DingniuRules::load`], also returning every switch's resolved value.
    pub fn load_with_options<K: AsRef<str>>(
        id: &str,
        switches: impl IntoIterator<Item = (K, SwitchValue)>,
    ) -> Result<(DingniuRules, Options)> {
        let p = preset(id)?;
        let o = p.resolve(switches)?;
        let r = Self::from_options(p, &o)?;
        Ok((r, o))
    }

    /// Compile the preset's data with resolved switches (the ruleset's compile).
    pub(crate) fn from_options(p: &PresetData, o: &Options) -> Result<DingniuRules> {
        for (name, want) in [("players", 4), ("tiles_each", 6)] {
            if param_int(p, name)? != want {
                return Err(Error::rule(format!(
                    "{}: params.{name} must be {want} (the only deal the engine plays)",
                    p.id
                )));
            }
        }
        if p.params.get("direction").and_then(toml::Value::as_str) != Some("counter_clockwise") {
            return Err(Error::rule(format!(
                "{}: params.direction must be \"counter_clockwise\"",
                p.id
            )));
        }
        let r = DingniuRules {
            opening_h1: o.bool("opening_h1")?,
            pair_opening: match o.str("double_pair_opening")? {
                "red_only" => PairOpening::RedOnly,
                "all_doubles" => PairOpening::AllDoubles,
                _ => PairOpening::None,
            },
            suanzhang: o.str("suanzhang")? == "auto",
            smother_tiles: match o.str("smother_tiles")? {
                "any" => SmotherTiles::Any,
                _ => SmotherTiles::RedFive,
            },
            doubles_laid: o.bool("suanzhang_doubles_laid")?,
            forced_exempt: match o.str("forced_block_exempt")? {
                "smother_only" => ForcedExempt::SmotherOnly,
                _ => ForcedExempt::All,
            },
            silan: o.bool("silan")?,
            silan_payment: match o.str("silan_payment")? {
                "shares" => SilanPayment::Shares,
                _ => SilanPayment::All,
            },
            win: param_int(p, "win")?,
            da_zhuang: param_int(p, "da_zhuang")?,
            er_zhuang: param_int(p, "er_zhuang")?,
            xiao_zhuang: param_int(p, "xiao_zhuang")?,
            zhang_multiplier: param_int(p, "zhang_multiplier")?,
            baozhuang: param_int(p, "baozhuang")?,
            silan_amount: param_int(p, "silan")?,
        };
        if r.win != r.da_zhuang + r.er_zhuang + r.xiao_zhuang {
            return Err(Error::rule(format!(
                "{}: params: win ({}) must equal da_zhuang + er_zhuang + xiao_zhuang (zero-sum)",
                p.id, r.win
            )));
        }
        let amounts = [
            r.win,
            r.da_zhuang,
            r.er_zhuang,
            r.xiao_zhuang,
            r.zhang_multiplier,
            r.baozhuang,
            r.silan_amount,
        ];
        if amounts.iter().any(|&a| !(0..=1_000_000).contains(&a)) {
            return Err(Error::rule(format!(
                "{}: params amounts must lie in 0..=1000000",
                p.id
            )));
        }
        Ok(r)
    }

    /// Whether a 头牌 holding both copies of double `t` must open with the pair.
    pub fn pair_required(&self, t: super::Tile) -> bool {
        t.is_double()
            && match self.pair_opening {
                PairOpening::RedOnly => t == super::Tile::HONG_BA,
                PairOpening::AllDoubles => true,
                PairOpening::None => false,
            }
    }
}
