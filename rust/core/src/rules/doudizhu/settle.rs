//! Multiplier and settlement (doudizhu.md §8–§9), 逃跑 penalties (§9.4) and the 游戏币 room (§9.3).

use crate::error::{Error, Result};

use super::rules::DdzRules;

/// 春天 / 反春.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spring {
    None,
    /// The landlord went out and neither farmer played a card (contest: 满贯).
    Spring,
    /// A farmer went out and the landlord made only his opening play.
    AntiSpring,
}

impl Spring {
    pub const fn name(self) -> &'static str {
        match self {
            Spring::None => "none",
            Spring::Spring => "spring",
            Spring::AntiSpring => "anti_spring",
        }
    }
}

/// What settlement needs to know about a finished deal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DealRecord {
    /// 底分: the winning bid (1..=3), or the call_rob base.
    pub bid: u8,
    pub landlord_won: bool,
    /// Bombs and rockets played (held ones do not count).
    pub bombs: u32,
    pub rockets: u32,
    /// Plays (手) made by the landlord, and by the farmers [下家, 上家].
    pub landlord_hands: u32,
    pub farmer_hands: [u32; 2],
    /// 抢地主 count and 明牌.
    pub robs: u32,
    pub shown: bool,
}

/// The settlement of one deal. Seat order of `scores`: landlord, farmer_down (下家), farmer_up
/// (上家).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settlement {
    pub spring: Spring,
    /// Number of ×2 events that counted (bombs and rockets within `bomb_cap`, robs, 明牌, 春天).
    pub doublings: u32,
    pub multiplier: i64,
    pub unit: i64,
    pub scores: [i64; 3],
    /// 游戏币 room: coins [landlord, farmer_down, farmer_up, house].
    pub coin: Option<[i64; 4]>,
}

/// Apply the multiplier cap to `2^doublings`.
pub fn multiplier_of(rules: &DdzRules, doublings: u32) -> Result<i64> {
    let m = 1i64
        .checked_shl(doublings)
        .filter(|_| doublings < 62)
        .ok_or_else(|| Error::settlement(format!("2^{doublings} overflows the multiplier")))?;
    Ok(if rules.multiplier_cap > 0 {
        m.min(rules.multiplier_cap)
    } else {
        m
    })
}

/// Bomb and rocket doublings that count under `bomb_cap`.
pub fn bomb_doublings(rules: &DdzRules, bombs: u32) -> u32 {
    if rules.bomb_cap > 0 {
        bombs.min(rules.bomb_cap)
    } else {
        bombs
    }
}

/// Which spring applies.
pub fn spring_of(rules: &DdzRules, r: &DealRecord) -> Spring {
    if r.landlord_won && r.farmer_hands == [0, 0] && rules.spring {
        Spring::Spring
    } else if !r.landlord_won && r.landlord_hands == 1 && rules.anti_spring {
        Spring::AntiSpring
    } else {
        Spring::None
    }
}

/// Settle a finished deal (§9.1; with the 游戏币 room of §9.3 when `coin_room` is on).
pub fn settle(rules: &DdzRules, r: &DealRecord) -> Result<Settlement> {
    if r.bid == 0 {
        return Err(Error::settlement("a settled deal has a 底分 of at least 1"));
    }
    let spring = spring_of(rules, r);
    let doublings = bomb_doublings(rules, r.bombs + r.rockets)
        + u32::from(spring != Spring::None)
        + r.robs
        + u32::from(r.shown);
    let multiplier = multiplier_of(rules, doublings)?;
    let unit = rules
        .stake
        .checked_mul(i64::from(r.bid))
        .and_then(|x| x.checked_mul(multiplier))
        .ok_or_else(|| Error::settlement("the settlement unit overflows"))?;
    let sign = if r.landlord_won { 1 } else { -1 };
    let scores = [2 * unit * sign, -unit * sign, -unit * sign];
    let coin = if rules.coin_room {
        let (n, a) = (rules.room_factor, rules.house_fee);
        let c = |x: i64| -> Result<i64> {
            let xn = x
                .abs()
                .checked_mul(n)
                .ok_or_else(|| Error::settlement("the coin amount overflows"))?;
            Ok(if x > 0 { xn - a } else { -(xn + a) })
        };
        Some([c(scores[0])?, c(scores[1])?, c(scores[2])?, 3 * a])
    } else {
        None
    };
    Ok(Settlement {
        spring,
        doublings,
        multiplier,
        unit,
        scores,
        coin,
    })
}

/// The 逃跑 penalty of an escaping player (§9.4): `stake × 底分 × 倍数 × escape_factor`, or
/// `escape_before_bid × stake` before anybody has bid.
pub fn escape_penalty(
    rules: &DdzRules,
    anybody_bid: bool,
    bid: u8,
    multiplier: i64,
) -> Result<i64> {
    let v = if anybody_bid {
        rules
            .stake
            .checked_mul(i64::from(bid))
            .and_then(|x| x.checked_mul(multiplier))
            .and_then(|x| x.checked_mul(rules.escape_factor))
    } else {
        rules.escape_before_bid.checked_mul(rules.stake)
    };
    v.ok_or_else(|| Error::settlement("the escape penalty overflows"))
}
