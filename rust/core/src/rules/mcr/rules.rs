//! MCR switches and fan table compiled once from `presets/mcr.toml` into [`McrRules`].

use crate::error::{Error, Result};
use crate::preset::{Options, PresetData};

use super::ids::{self, FAN_IDS, N_FANS};

/// Switch `blessings` (mcr.md §13.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlessingRule {
    /// 天和/地和/人和 are not fans (default; the `blessing` field is ignored).
    Off,
    /// 联众 values 168 / 158 / 108.
    Lianzhong,
    /// The reference engine's optional build: 8 each.
    Reference8,
}

/// The compiled MCR rules: fan values, names and exclusions (data from the preset file) and the
/// resolved switches. Built once per [`crate::Variant`]; every scoring call borrows it.
#[derive(Clone, Debug)]
pub struct McrRules {
    /// Points per occurrence, index = fan constant of [`super::ids`].
    pub values: [i32; N_FANS],
    /// Chinese names.
    pub zh: [&'static str; N_FANS],
    /// English names.
    pub en: [&'static str; N_FANS],
    /// `excludes[i]`: bit set of the fans that fan `i` removes (不计) when it is present.
    pub excludes: [u128; N_FANS],
    /// Whether the fan may be scored at all under these switches (non-standard fans off → false).
    pub enabled: [bool; N_FANS],
    /// `enabled` as a bit set (bit `i` = fan `i`), for the exclusion walk.
    pub enabled_mask: u128,
    /// The fans that exclude any other (`excludes[i] != 0`): the only steps of the exclusion walk
    /// that change anything.
    pub excluders: u128,
    pub knitted_straight_wait_fans: bool,
    /// 明暗杠 value; `None` = "off" (明杠 + 暗杠).
    pub concealed_and_melded_kong: Option<i32>,
    pub blessings: BlessingRule,
    pub lianzhong_extras: bool,
    /// `special_form_self_draw = "fully_concealed"`.
    pub special_form_fully_concealed: bool,
    /// `flag_policy = "repair"` (pymahjonggb behaviour) instead of `"strict"`.
    pub repair_flags: bool,
    pub min_fan: i32,
    pub flowers_count_toward_minimum: bool,
    pub require_minimum: bool,
    /// 底分 of the settlement.
    pub base_points: i64,
}

impl McrRules {
    /// Compile the preset data and resolved switches.
    pub fn compile(preset: &'static PresetData, options: &Options) -> Result<McrRules> {
        if preset.fans.len() != N_FANS {
            return Err(Error::rule(format!(
                "mcr preset: expected {N_FANS} fans, found {}",
                preset.fans.len()
            )));
        }
        let mut values = [0i32; N_FANS];
        let mut zh = [""; N_FANS];
        let mut en = [""; N_FANS];
        let mut excludes = [0u128; N_FANS];
        for (i, f) in preset.fans.iter().enumerate() {
            if f.id != FAN_IDS[i] {
                return Err(Error::rule(format!(
                    "mcr preset: fan #{i} is {}, the scorer expects {}",
                    f.id, FAN_IDS[i]
                )));
            }
            values[i] = i32::try_from(f.value)
                .map_err(|_| Error::rule(format!("mcr preset: value of {} out of range", f.id)))?;
            zh[i] = f.zh.as_str();
            en[i] = f.en.as_str();
            for x in &f.excludes {
                let j = FAN_IDS
                    .iter()
                    .position(|id| id == x)
                    .ok_or_else(|| Error::rule(format!("mcr preset: unknown fan {x}")))?;
                excludes[i] |= 1u128 << j;
            }
        }
        let ck = match options.str("concealed_and_melded_kong")? {
            "off" => None,
            v => Some(
                v.parse::<i32>()
                    .map_err(|_| Error::rule(format!("concealed_and_melded_kong {v:?}")))?,
            ),
        };
        if let Some(v) = ck {
            values[ids::CONCEALED_KONG_AND_MELDED_KONG] = v;
        }
        let blessings = match options.str("blessings")? {
            "off" => BlessingRule::Off,
            "lianzhong" => BlessingRule::Lianzhong,
            "reference8" => BlessingRule::Reference8,
            other => return Err(Error::rule(format!("blessings {other:?}"))),
        };
        if blessings == BlessingRule::Reference8 {
            for b in [
                ids::BLESSING_OF_HEAVEN,
                ids::BLESSING_OF_EARTH,
                ids::BLESSING_OF_HUMAN,
            ] {
                values[b] = 8;
            }
        }
        let lianzhong_extras = options.bool("lianzhong_extras")?;
        let mut enabled = [true; N_FANS];
        enabled[ids::CONCEALED_KONG_AND_MELDED_KONG] = ck.is_some();
        for b in [
            ids::BLESSING_OF_HEAVEN,
            ids::BLESSING_OF_EARTH,
            ids::BLESSING_OF_HUMAN,
        ] {
            enabled[b] = blessings != BlessingRule::Off;
        }
        enabled[ids::BIG_FOUR_WINDS_GREEN_PAIR] = lianzhong_extras;
        let base_points = preset
            .params
            .get("base_points")
            .and_then(|v| v.as_integer())
            .unwrap_or(8);
        Ok(McrRules {
            values,
            zh,
            en,
            excludes,
            enabled,
            enabled_mask: (0..N_FANS)
                .filter(|&i| enabled[i])
                .fold(0u128, |m, i| m | 1u128 << i),
            excluders: (0..N_FANS)
                .filter(|&i| excludes[i] != 0)
                .fold(0u128, |m, i| m | 1u128 << i),
            knitted_straight_wait_fans: options.bool("knitted_straight_wait_fans")?,
            concealed_and_melded_kong: ck,
            blessings,
            lianzhong_extras,
            special_form_fully_concealed: options.str("special_form_self_draw")?
                == "fully_concealed",
            repair_flags: options.str("flag_policy")? == "repair",
            min_fan: i32::try_from(options.int("min_fan")?)
                .map_err(|_| Error::rule("min_fan out of range"))?,
            flowers_count_toward_minimum: options.bool("flowers_count_toward_minimum")?,
            require_minimum: options.bool("require_minimum")?,
            base_points,
        })
    }
}
