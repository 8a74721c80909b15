//! 够级 (gouji): the six-player, four-deck Shandong climbing game of `shared/rules/gouji.md`.
//!
//! * [`card`] — ranks, notation (`3`–`9 T J Q K A 2 w W`), Chinese names, the 216 cards.
//! * [`play`] — plays: normalisation, comparison, 够级牌, 开点, 憋3, legal plays, burn feasibility.
//! * [`outcome`] — seats and teams, answer and burn rights, places, points, tribute, 买三, 上班.
//! * [`rules`] — the compiled switches of `presets/gouji.toml` ([`GoujiRules::load`]).
//! * [`hand`] — the state machine of one hand ([`GoujiHand`]) and its carry ([`Carry`]).
//! * [`bots`] — built-in bots; `check` — the invariants the table engine's checking mode runs
//!   (many hands are simulated by the one table engine, `crate::game::sim`); [`replay`] rebuilds a
//!   hand from its log.

pub mod analyse;
pub mod bots;
pub mod card;
mod check;
pub mod encode;
pub mod hand;
pub mod outcome;
pub mod play;
pub mod rules;
pub mod ruleset;
pub mod table;
#[cfg(test)]
mod tests;

pub use bots::BotKind;
pub use hand::{Action, Ask, Carry, Event, GoujiHand, Phase, Top};
pub use outcome::{Obligation, Outcome, TributeKind};
pub use play::{Play, beats, burn_options, is_gouji, kaidian_eligible, legal_plays};
pub use rules::GoujiRules;
pub use ruleset::compile;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::preset::SwitchValue;
use rules::{Burners, BuyOrder, HandEnd, LuanchanAt, MixedJokers, ReturnTribute, Shangban};

/// The switches of `r` that differ from the preset's defaults (name, value).
pub fn rules_switches(r: &GoujiRules) -> Vec<(String, SwitchValue)> {
    let d = GoujiRules::default();
    let mut out: Vec<(String, SwitchValue)> = Vec::new();
    let mut put = |name: &str, differs: bool, v: SwitchValue| {
        if differs {
            out.push((name.to_string(), v));
        }
    };
    let s = |x: &str| SwitchValue::Str(x.to_string());
    put(
        "bie_san",
        r.bie_san != d.bie_san,
        SwitchValue::Bool(r.bie_san),
    );
    put(
        "shangban",
        r.shangban != d.shangban,
        s(match r.shangban {
            Shangban::ShowMax => "show_max",
            Shangban::FirstPairDealt => "first_pair_dealt",
        }),
    );
    put(
        "mixed_jokers",
        r.mixed_jokers != d.mixed_jokers,
        s(match r.mixed_jokers {
            MixedJokers::Downgrade => "downgrade",
            MixedJokers::PerCard => "per_card",
        }),
    );
    put(
        "kaidian_allows_tieqian",
        r.kaidian_allows_tieqian != d.kaidian_allows_tieqian,
        SwitchValue::Bool(r.kaidian_allows_tieqian),
    );
    put(
        "burners",
        r.burners != d.burners,
        s(match r.burners {
            Burners::AllOthers => "all_others",
            Burners::BetweenOnly => "between_only",
        }),
    );
    put(
        "duitou_last_word",
        r.duitou_last_word != d.duitou_last_word,
        SwitchValue::Bool(r.duitou_last_word),
    );
    put(
        "yield_allowed_on_gouji",
        r.yield_on_gouji != d.yield_on_gouji,
        SwitchValue::Bool(r.yield_on_gouji),
    );
    put(
        "luanchan_at",
        r.luanchan_at != d.luanchan_at,
        s(match r.luanchan_at {
            LuanchanAt::NextLead => "next_lead",
            LuanchanAt::Immediately => "immediately",
        }),
    );
    put(
        "hand_end",
        r.hand_end != d.hand_end,
        s(match r.hand_end {
            HandEnd::LastPlayer => "last_player",
            HandEnd::SideOut => "side_out",
        }),
    );
    put(
        "revolution",
        r.revolution != d.revolution,
        SwitchValue::Bool(r.revolution),
    );
    put(
        "tribute",
        r.tribute != d.tribute,
        SwitchValue::Bool(r.tribute),
    );
    put(
        "return_tribute",
        r.return_tribute != d.return_tribute,
        s(match r.return_tribute {
            ReturnTribute::All => "all",
            ReturnTribute::LuoOnly => "luo_only",
            ReturnTribute::None => "none",
        }),
    );
    put(
        "place_points",
        r.place_points != d.place_points,
        s(&r.place_points
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")),
    );
    put(
        "chuan_san_hu_factor",
        r.chuan_factor != d.chuan_factor,
        SwitchValue::Int(r.chuan_factor),
    );
    put(
        "head_choice_default",
        r.head_default_yaotou != d.head_default_yaotou,
        s(if r.head_default_yaotou {
            "yaotou"
        } else {
            "wutou"
        }),
    );
    put(
        "buy_three_order",
        r.buy_order != d.buy_order,
        s(match r.buy_order {
            BuyOrder::Seed => "seed",
            BuyOrder::Lamb => "lamb",
        }),
    );
    out
}

fn field<'a>(e: &'a Value, k: &str, i: usize) -> Result<&'a Value> {
    e.get(k)
        .ok_or_else(|| Error::hand(format!("event {i}: missing field {k:?}")))
}

fn seat_of(e: &Value, k: &str, i: usize) -> Result<usize> {
    field(e, k, i)?
        .as_u64()
        .filter(|&s| s < 6)
        .map(|s| s as usize)
        .ok_or_else(|| Error::hand(format!("event {i}: {k} must be a seat 0..5")))
}

fn str_of<'a>(e: &'a Value, k: &str, i: usize) -> Result<&'a str> {
    field(e, k, i)?
        .as_str()
        .ok_or_else(|| Error::hand(format!("event {i}: {k} must be a string")))
}

fn bool_of(e: &Value, k: &str, i: usize) -> Result<bool> {
    field(e, k, i)?
        .as_bool()
        .ok_or_else(|| Error::hand(format!("event {i}: {k} must be true or false")))
}

/// Rebuild a hand from its JSON log ([`GoujiHand::events_json`]) and check that replaying the
/// decisions gives exactly the same log. Returns the replayed hand.
pub fn replay(events: &[Value]) -> Result<GoujiHand> {
    let first = events
        .first()
        .ok_or_else(|| Error::hand("replay: the log is empty"))?;
    if first.get("type").and_then(Value::as_str) != Some("DEAL") {
        return Err(Error::hand("replay: the log must start with a DEAL event"));
    }
    let variant = str_of(first, "variant", 0)?;
    let mut switches: Vec<(String, SwitchValue)> = Vec::new();
    if let Some(m) = first.get("switches").and_then(Value::as_object) {
        for (k, v) in m {
            let v = match v {
                Value::Bool(b) => SwitchValue::Bool(*b),
                Value::Number(n) => SwitchValue::Int(
                    n.as_i64()
                        .ok_or_else(|| Error::rule(format!("switch {k}: not an integer")))?,
                ),
                Value::String(s) => SwitchValue::Str(s.clone()),
                _ => return Err(Error::rule(format!("switch {k}: unsupported value {v}"))),
            };
            switches.push((k.clone(), v));
        }
    }
    let rules = GoujiRules::load(variant, switches)?;
    let seed = field(first, "seed", 0)?
        .as_u64()
        .ok_or_else(|| Error::hand("replay: seed must be a non-negative integer"))?;
    let carry: Carry = serde_json::from_value(field(first, "carry", 0)?.clone())
        .map_err(|e| Error::hand(format!("replay: bad carry: {e}")))?;
    let mut h = match first.get("position") {
        None | Some(Value::Null) => GoujiHand::new(rules, seed, carry, true)?,
        Some(pos) => {
            let hv = field(first, "hands", 0)?
                .as_array()
                .filter(|a| a.len() == 6)
                .ok_or_else(|| Error::hand("replay: hands must be six card strings"))?;
            let mut hands = [[0u8; card::N_RANKS]; 6];
            for (s, x) in hv.iter().enumerate() {
                hands[s] = card::parse_counts(
                    x.as_str()
                        .ok_or_else(|| Error::hand("replay: hands must be card strings"))?,
                )?;
            }
            let out: Vec<usize> = field(pos, "out", 0)?
                .as_array()
                .ok_or_else(|| Error::hand("replay: position.out must be a list"))?
                .iter()
                .map(|v| v.as_u64().map(|x| x as usize))
                .collect::<Option<_>>()
                .ok_or_else(|| Error::hand("replay: position.out must be seats"))?;
            let rev = match pos.get("revolution") {
                Some(Value::Number(n)) => Some((
                    n.as_u64().unwrap_or(99) as usize,
                    bool_of(pos, "yaotou", 0)?,
                )),
                _ => None,
            };
            GoujiHand::from_position(rules, hands, seat_of(pos, "leader", 0)?, &out, rev, true)?
        }
    };
    for (i, e) in events.iter().enumerate().skip(1) {
        let ty = str_of(e, "type", i)?;
        let act = match ty {
            "RETURN" => {
                let c = card::parse_counts(str_of(e, "card", i)?)?;
                let r = (0..card::N_RANKS)
                    .find(|&r| c[r] > 0)
                    .ok_or_else(|| Error::hand(format!("event {i}: empty card")))?;
                Some((seat_of(e, "from", i)?, Action::Return(r as u8)))
            }
            "SHOW" => Some((seat_of(e, "seat", i)?, Action::Show)),
            "NO_SHOW" => Some((seat_of(e, "seat", i)?, Action::NoShow)),
            "REVOLT" if !bool_of(e, "auto", i)? => Some((seat_of(e, "seat", i)?, Action::Revolt)),
            "NO_REVOLT" => Some((seat_of(e, "seat", i)?, Action::NoRevolt)),
            "HEAD" => Some((
                seat_of(e, "seat", i)?,
                Action::Head(str_of(e, "choice", i)? == "要头"),
            )),
            "XUANDIAN" => Some((
                seat_of(e, "seat", i)?,
                Action::XuanDian(bool_of(e, "declared", i)?),
            )),
            "PLAY" | "BURN_FAIL" => Some((
                seat_of(e, "seat", i)?,
                Action::Play(Play::parse(str_of(e, "cards", i)?)?),
            )),
            "PASS" => Some((seat_of(e, "seat", i)?, Action::Pass)),
            "YIELD" => Some((seat_of(e, "seat", i)?, Action::Yield)),
            _ => None,
        };
        if let Some((seat, a)) = act {
            h.step_seat(seat, a)
                .map_err(|err| err.context(&format!("replay: event {i}")))?;
        }
    }
    let got = h.events_json();
    if got.len() != events.len() {
        return Err(Error::hand(format!(
            "replay: the log has {} events, the replayed hand {}",
            events.len(),
            got.len()
        )));
    }
    if let Some(i) = (0..got.len()).find(|&i| got[i] != events[i]) {
        return Err(Error::hand(format!(
            "replay: event {i} differs: logged {}, replayed {}",
            events[i], got[i]
        )));
    }
    Ok(h)
}
