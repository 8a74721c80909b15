//! The 斗地主 rule object compiled from a preset file and its switches (doudizhu.md §11).

use std::sync::LazyLock;

use crate::error::{Error, Result};
use crate::preset::{Options, PresetData, SwitchValue};

use super::cards::ACE;

/// The embedded preset files of the game, in listing order.
const SOURCES: &[(&str, &str)] = &[
    (
        "doudizhu_qq",
        include_str!("../../../../../presets/doudizhu_qq.toml"),
    ),
    (
        "doudizhu_contest",
        include_str!("../../../../../presets/doudizhu_contest.toml"),
    ),
];

static PRESETS: LazyLock<Vec<Result<PresetData>>> = LazyLock::new(|| {
    SOURCES
        .iter()
        .map(|(_, t)| PresetData::from_toml(t))
        .collect()
});

/// Ids of the 斗地主 presets (`doudizhu_qq` first: the default).
pub fn preset_ids() -> Vec<&'static str> {
    SOURCES.iter().map(|(id, _)| *id).collect()
}

/// A 斗地主 preset's data by id.
pub fn preset(id: &str) -> Result<&'static PresetData> {
    let Some(pos) = SOURCES.iter().position(|(k, _)| *k == id) else {
        return Err(Error::rule(format!(
            "unknown 斗地主 variant {id:?}; known: {}",
            preset_ids().join(", ")
        )));
    };
    PRESETS[pos].as_ref().map_err(Clone::clone)
}

/// K5: which repeated single kickers planes and 四带二 may carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SingleKickers {
    /// Any repeats, even three of a rank (default; OpenSpiel, DouZero, onestraw).
    Any,
    /// No three of a rank next to the plane body, the 2 excepted (rlcard).
    NoAdjacentTriple,
    /// Never three of a rank.
    NoTriple,
    /// All of different ranks (pagat; also no pair as the two singles of 四带二).
    Distinct,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstBidder {
    Rotate,
    MarkedCard,
    LastWinner,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AllPass {
    Redeal,
    RandomLandlordAfter3,
    EndZero,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AuctionKind {
    /// 叫分 1/2/3.
    Bid,
    /// 叫地主 / 不叫, then 抢地主.
    CallRob,
}

/// The move-shape rules (§6), the part the move generator reads. Small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveRules {
    pub trio_pair: bool,
    pub four_two_single: bool,
    pub four_two_pair: bool,
    pub single_kickers: SingleKickers,
    pub kicker_rocket: bool,
    pub kicker_bomb: bool,
    pub wing_pair_same_rank: bool,
    pub four_two_pair_same_rank: bool,
    pub wing_main_rank: bool,
    /// Highest chain rank index (A = 11).
    pub chain_top: u8,
}

impl Default for MoveRules {
    /// The seeds' rules (both presets).
    fn default() -> Self {
        MoveRules {
            trio_pair: true,
            four_two_single: true,
            four_two_pair: true,
            single_kickers: SingleKickers::Any,
            kicker_rocket: false,
            kicker_bomb: false,
            wing_pair_same_rank: false,
            four_two_pair_same_rank: false,
            wing_main_rank: false,
            chain_top: ACE,
        }
    }
}

/// A compiled 斗地主 rule set: preset identity, move rules, auction, multiplier and settlement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DdzRules {
    pub id: String,
    pub moves: MoveRules,
    pub first_bidder: FirstBidder,
    pub bid_once: bool,
    pub max_bid: u8,
    pub all_pass: AllPass,
    /// `all_pass = redeal`: all-pass deals in a row after which the hand ends with no score.
    pub redeal_cap: u32,
    pub auction: AuctionKind,
    pub rob: bool,
    pub rob_back: bool,
    pub show_hand: bool,
    pub must_bid: bool,
    pub stake: i64,
    pub spring: bool,
    pub anti_spring: bool,
    /// 0 = none.
    pub multiplier_cap: i64,
    /// 0 = every bomb doubles.
    pub bomb_cap: u32,
    pub coin_room: bool,
    pub room_factor: i64,
    pub house_fee: i64,
    pub escape_split: bool,
    pub escape_factor: i64,
    pub escape_before_bid: i64,
    pub call_base: i64,
    /// The resolved switch values (every switch, defaults filled in).
    pub options: Options,
}

fn param_int(p: &PresetData, key: &str) -> Result<i64> {
    p.params
        .get(key)
        .and_then(toml::Value::as_integer)
        .ok_or_else(|| Error::rule(format!("{}: [params] needs an integer {key}", p.id)))
}

/// Names of the rule profiles of a preset (`[params.profiles.*]`).
pub fn profile_names(id: &str) -> Result<Vec<String>> {
    let p = preset(id)?;
    Ok(p.params
        .get("profiles")
        .and_then(toml::Value::as_table)
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default())
}

/// The switch values of a named profile.
pub fn profile_switches(id: &str, profile: &str) -> Result<Vec<(String, SwitchValue)>> {
    let p = preset(id)?;
    let table = p
        .params
        .get("profiles")
        .and_then(toml::Value::as_table)
        .and_then(|t| t.get(profile))
        .and_then(toml::Value::as_table)
        .ok_or_else(|| {
            Error::rule(format!(
                "unknown rule profile {profile:?}; profiles of {id}: {}",
                profile_names(id).unwrap_or_default().join(", ")
            ))
        })?;
    let mut out = Vec::new();
    for (k, v) in table {
        let sv = match v {
            toml::Value::Boolean(b) => SwitchValue::Bool(*b),
            toml::Value::Integer(i) => SwitchValue::Int(*i),
            toml::Value::String(s) => SwitchValue::Str(s.clone()),
            _ => {
                return Err(Error::rule(format!(
                    "{id}: profile {profile}: {k} must be a bool, an integer or a name"
                )));
            }
        };
        out.push((k.clone(), sv));
    }
    Ok(out)
}

impl DdzRules {
    /// Compile preset `id` with switch overrides (unknown or invalid switches are errors).
    pub fn load<K: AsRef<str>>(
        id: &str,
        switches: impl IntoIterator<Item = (K, SwitchValue)>,
    ) -> Result<DdzRules> {
        Self::load_profile(id, None, switches)
    }

    /// Compile preset `id` with a rule profile (§12: `rlcard`, `douzero`, `openspiel`,
    /// `onestraw`, `pagat`) and then the switch overrides.
    pub fn load_profile<K: AsRef<str>>(
        id: &str,
        profile: Option<&str>,
        switches: impl IntoIterator<Item = (K, SwitchValue)>,
    ) -> Result<DdzRules> {
        let p = preset(id)?;
        let mut all: Vec<(String, SwitchValue)> = match profile {
            Some(name) => profile_switches(id, name)?,
            None => Vec::new(),
        };
        all.extend(
            switches
                .into_iter()
                .map(|(k, v)| (k.as_ref().to_string(), v)),
        );
        let o = p.resolve(all)?;
        Self::compile(p, o)
    }

    /// The default preset (`doudizhu_qq`) with its defaults.
    pub fn qq() -> DdzRules {
        // The embedded preset is validated by the tests; this cannot fail for it.
        Self::load::<&str>("doudizhu_qq", []).unwrap_or_else(|e| panic!("doudizhu_qq: {e}"))
    }

    pub(crate) fn compile(p: &PresetData, o: Options) -> Result<DdzRules> {
        let moves = MoveRules {
            trio_pair: o.bool("trio_pair")?,
            four_two_single: o.bool("four_two_single")?,
            four_two_pair: o.bool("four_two_pair")?,
            single_kickers: match o.str("single_kickers")? {
                "any" => SingleKickers::Any,
                "no_adjacent_triple" => SingleKickers::NoAdjacentTriple,
                "no_triple" => SingleKickers::NoTriple,
                _ => SingleKickers::Distinct,
            },
            kicker_rocket: o.bool("kicker_rocket")?,
            kicker_bomb: o.bool("kicker_bomb")?,
            wing_pair_same_rank: o.bool("wing_pair_same_rank")?,
            four_two_pair_same_rank: o.bool("four_two_pair_same_rank")?,
            wing_main_rank: o.bool("wing_main_rank")?,
            chain_top: ACE,
        };
        let cap = o.int("multiplier_cap")?;
        if cap != 0 && (cap < 2 || cap.count_ones() != 1) {
            return Err(Error::rule(format!(
                "multiplier_cap must be 0 (no cap) or a power of 2 ≥ 2, got {cap}"
            )));
        }
        let rules = DdzRules {
            id: p.id.clone(),
            moves,
            first_bidder: match o.str("first_bidder")? {
                "rotate" => FirstBidder::Rotate,
                "marked_card" => FirstBidder::MarkedCard,
                _ => FirstBidder::LastWinner,
            },
            bid_once: o.str("bid_rounds")? == "once",
            max_bid: u8::try_from(o.int("max_bid")?)
                .map_err(|_| Error::rule("max_bid out of range"))?,
            all_pass: match o.str("all_pass")? {
                "redeal" => AllPass::Redeal,
                "random_landlord_after_3" => AllPass::RandomLandlordAfter3,
                _ => AllPass::EndZero,
            },
            redeal_cap: u32::try_from(o.int("redeal_cap")?)
                .ok()
                .filter(|&c| c >= 1)
                .ok_or_else(|| Error::rule("redeal_cap is a number of deals, 1..1000"))?,
            auction: match o.str("auction")? {
                "bid" => AuctionKind::Bid,
                _ => AuctionKind::CallRob,
            },
            rob: o.bool("rob")?,
            rob_back: o.bool("rob_back")?,
            show_hand: o.bool("show_hand")?,
            must_bid: o.bool("must_bid")?,
            stake: o.int("stake")?,
            spring: o.bool("spring")?,
            anti_spring: o.bool("anti_spring")?,
            multiplier_cap: cap,
            bomb_cap: u32::try_from(o.int("bomb_cap")?)
                .map_err(|_| Error::rule("bomb_cap out of range"))?,
            coin_room: o.bool("coin_room")?,
            room_factor: o.int("room_factor")?,
            house_fee: o.int("house_fee")?,
            escape_split: o.str("escape_to")? == "split",
            escape_factor: param_int(p, "escape_factor")?,
            escape_before_bid: param_int(p, "escape_before_bid")?,
            call_base: param_int(p, "call_base")?,
            options: o,
        };
        if rules.auction == AuctionKind::CallRob && !rules.bid_once {
            return Err(Error::rule(
                "auction=call_rob calls once per player: it cannot be combined with bid_rounds=until_two_passes",
            ));
        }
        Ok(rules)
    }

    /// The 抢地主 phase runs (an explicit `rob` switch, or the call_rob auction).
    pub fn rob_phase(&self) -> bool {
        self.rob || self.auction == AuctionKind::CallRob
    }
}
