//! The rule object of 够级, compiled once from `presets/gouji.toml` and switch overrides.

use std::sync::LazyLock;

use super::card::{N_RANKS, rank_of_char};
use crate::error::{Error, Result};
use crate::preset::{Options, PresetData, SwitchValue};

static SOURCE: &str = include_str!("../../../../../presets/gouji.toml");

static PRESET: LazyLock<Result<PresetData>> = LazyLock::new(|| PresetData::from_toml(SOURCE));

/// The preset data of 够级 (`presets/gouji.toml`).
pub fn preset_data() -> Result<&'static PresetData> {
    PRESET.as_ref().map_err(Clone::clone)
}

/// Preset ids this module plays.
pub const PRESET_IDS: &[&str] = &["gouji"];

/// Comparison of plays with both joker kinds (§4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MixedJokers {
    Downgrade,
    PerCard,
}

/// Who may burn (§6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Burners {
    AllOthers,
    BetweenOnly,
}

/// 上班 (§3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shangban {
    ShowMax,
    FirstPairDealt,
}

/// When 四人乱缠 starts (§5.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LuanchanAt {
    NextLead,
    Immediately,
}

/// End of the hand (§5.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandEnd {
    LastPlayer,
    SideOut,
}

/// 还贡 (§8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReturnTribute {
    All,
    LuoOnly,
    None,
}

/// 买三 order (§9.3, §12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuyOrder {
    Seed,
    Lamb,
}

/// The compiled rules of one 够级 variant (small and `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoujiRules {
    pub bie_san: bool,
    pub shangban: Shangban,
    pub mixed_jokers: MixedJokers,
    /// Minimum normalised base count per rank index to be 够级 (0 = never).
    pub thresholds: [u8; N_RANKS],
    pub kaidian_allows_tieqian: bool,
    pub burners: Burners,
    pub duitou_last_word: bool,
    pub yield_on_gouji: bool,
    pub luanchan_at: LuanchanAt,
    /// 乱缠 when at most this many players are active.
    pub luanchan_players: u8,
    pub hand_end: HandEnd,
    pub revolution: bool,
    pub tribute: bool,
    pub session_hands: u32,
    pub return_tribute: ReturnTribute,
    /// Points of 头科 … 大落.
    pub place_points: [i64; 6],
    pub chuan_factor: i64,
    /// Built-in bots' answer to a 革命 of their 对头: 要头 (true) or 无头.
    pub head_default_yaotou: bool,
    pub buy_order: BuyOrder,
}

impl Default for GoujiRules {
    /// The seed's rules (the preset's defaults).
    fn default() -> Self {
        GoujiRules::load("gouji", Vec::<(String, SwitchValue)>::new())
            .expect("the embedded gouji preset is valid")
    }
}

fn param_int(p: &PresetData, key: &str) -> Result<i64> {
    p.params
        .get(key)
        .and_then(toml::Value::as_integer)
        .ok_or_else(|| Error::rule(format!("gouji preset: params.{key} must be an integer")))
}

impl GoujiRules {
    /// Compile a preset (`"gouji"`) with switch overrides. Unknown switches, wrong types and
    /// values outside the allowed set are [`Error::RuleConfig`].
    pub fn load<K: AsRef<str>>(
        id: &str,
        switches: impl IntoIterator<Item = (K, SwitchValue)>,
    ) -> Result<GoujiRules> {
        if !PRESET_IDS.contains(&id) {
            return Err(Error::rule(format!(
                "unknown 够级 variant {id:?}; known: {}",
                PRESET_IDS.join(", ")
            )));
        }
        let p = preset_data()?;
        let o = p.resolve(switches)?;
        Self::from_options(p, &o)
    }

    pub(crate) fn from_options(p: &PresetData, o: &Options) -> Result<GoujiRules> {
        let mut thresholds = [0u8; N_RANKS];
        let table = p
            .params
            .get("gouji_thresholds")
            .and_then(toml::Value::as_table)
            .ok_or_else(|| Error::rule("gouji preset: params.gouji_thresholds missing"))?;
        for (k, v) in table {
            let r = k
                .chars()
                .next()
                .filter(|_| k.chars().count() == 1)
                .and_then(rank_of_char)
                .ok_or_else(|| Error::rule(format!("gouji_thresholds: unknown rank {k:?}")))?;
            let n = v
                .as_integer()
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(|| Error::rule(format!("gouji_thresholds.{k} must be 0..255")))?;
            thresholds[r] = n;
        }
        let points: Vec<i64> = o
            .str("place_points")?
            .split(',')
            .map(|x| x.trim().parse::<i64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| Error::rule(format!("place_points: {e}")))?;
        let place_points: [i64; 6] = points
            .try_into()
            .map_err(|_| Error::rule("place_points needs six numbers"))?;
        let session = param_int(p, "session_hands")?;
        let luanchan = param_int(p, "luanchan_players")?;
        Ok(GoujiRules {
            bie_san: o.bool("bie_san")?,
            shangban: match o.str("shangban")? {
                "first_pair_dealt" => Shangban::FirstPairDealt,
                _ => Shangban::ShowMax,
            },
            mixed_jokers: match o.str("mixed_jokers")? {
                "per_card" => MixedJokers::PerCard,
                _ => MixedJokers::Downgrade,
            },
            thresholds,
            kaidian_allows_tieqian: o.bool("kaidian_allows_tieqian")?,
            burners: match o.str("burners")? {
                "between_only" => Burners::BetweenOnly,
                _ => Burners::AllOthers,
            },
            duitou_last_word: o.bool("duitou_last_word")?,
            yield_on_gouji: o.bool("yield_allowed_on_gouji")?,
            luanchan_at: match o.str("luanchan_at")? {
                "immediately" => LuanchanAt::Immediately,
                _ => LuanchanAt::NextLead,
            },
            luanchan_players: u8::try_from(luanchan)
                .map_err(|_| Error::rule("params.luanchan_players must be 0..6"))?,
            hand_end: match o.str("hand_end")? {
                "side_out" => HandEnd::SideOut,
                _ => HandEnd::LastPlayer,
            },
            revolution: o.bool("revolution")?,
            tribute: o.bool("tribute")?,
            session_hands: u32::try_from(session)
                .ok()
                .filter(|&s| s >= 1)
                .ok_or_else(|| Error::rule("params.session_hands must be >= 1"))?,
            return_tribute: match o.str("return_tribute")? {
                "luo_only" => ReturnTribute::LuoOnly,
                "none" => ReturnTribute::None,
                _ => ReturnTribute::All,
            },
            place_points,
            chuan_factor: o.int("chuan_san_hu_factor")?,
            head_default_yaotou: o.str("head_choice_default")? == "yaotou",
            buy_order: match o.str("buy_three_order")? {
                "lamb" => BuyOrder::Lamb,
                _ => BuyOrder::Seed,
            },
        })
    }
}
