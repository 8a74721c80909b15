//! 顶牛 at the table (`game::cards`): the hand state machine [`Round`] behind the table protocol.
//!
//! Pieces are the 13 tile kinds by their codes (`66`, `11`, `44`, …, docs/dingniu.md; code =
//! kind index). Actions: `open` (`tile`; `value` 2 opens with both copies of a double), `lay`
//! (`tile`, `value` 0 left end / 1 right end), `kou` (扣 `tile`). Records after `start` are the
//! game's own (`deal` with the dice and the 头牌, `zhang` for a 算帐, `end` — its outcome) then
//! the table's `end`. The table's dealer is not used: the 头牌 comes from the dice (first hand)
//! or the carry (the previous 大庄 rolls), as dingniu.md §4 says.

use serde_json::Value;

use super::bots::Bot as DBot;
use super::round::{Action as DAction, Carry, Event as DEvent, Round};
use super::rules::DingniuRules;
use super::tile::{N_KINDS, Side, Tile};
use crate::error::{Error, Result};
use crate::game::action::{Action, ActionKind, Pieces};
use crate::game::cards::{CardEnd, CardHand, CardPart, typed_record};
use crate::game::event::Event;
use crate::game::rng::SplitMix64;

/// The tile codes, by kind index.
pub const NAMES: [&str; N_KINDS] = {
    let mut a = [""; N_KINDS];
    let mut i = 0;
    while i < N_KINDS {
        a[i] = Tile::ALL[i].code();
        i += 1;
    }
    a
};

/// The 顶牛 part of the table.
#[derive(Debug)]
pub struct DingniuPart {
    pub rules: DingniuRules,
}

fn carry_of(v: Option<&Value>) -> Result<Carry> {
    let mut c = Carry::default();
    let Some(v) = v else { return Ok(c) };
    let o = v
        .as_object()
        .ok_or_else(|| Error::rule(format!("顶牛 carry: an object, got {v}")))?;
    for (k, x) in o {
        let seat = if x.is_null() {
            None
        } else {
            Some(
                x.as_u64()
                    .filter(|&s| s < 4)
                    .map(|s| s as u8)
                    .ok_or_else(|| Error::rule(format!("顶牛 carry {k}: a seat 0..3, got {x}")))?,
            )
        };
        match k.as_str() {
            "toupai" => c.toupai = seat,
            "prev_winner" => c.prev_winner = seat,
            "prev_da_zhuang" => c.prev_da_zhuang = seat,
            _ => {
                return Err(Error::rule(format!(
                    "顶牛 carry: unknown key {k:?} (toupai, prev_winner, prev_da_zhuang)"
                )));
            }
        }
    }
    Ok(c)
}

impl CardPart for DingniuPart {
    fn seats(&self) -> usize {
        4
    }
    fn pieces(&self) -> Pieces {
        Pieces::Named(&NAMES)
    }
    fn deck_size(&self) -> usize {
        24
    }
    fn deal(&self, seed: u64, _dealer: usize, carry: Option<&Value>) -> Result<Box<dyn CardHand>> {
        let r = Round::new(self.rules, seed, carry_of(carry)?)?;
        Ok(Box::new(DingniuHand { r, end: None }))
    }
    fn codec(&self) -> Option<std::sync::Arc<dyn crate::game::encode::CardCodec>> {
        Some(super::encode::codec())
    }
}

/// The table's action of a game action.
pub fn to_table(seat: u8, a: DAction) -> Action {
    match a {
        DAction::Open(t) => Action::tile(ActionKind::Open, seat, t.index() as u8),
        DAction::OpenPair(t) => Action {
            value: Some(2),
            ..Action::tile(ActionKind::Open, seat, t.index() as u8)
        },
        DAction::Lay(t, s) => Action {
            value: Some(i32::from(matches!(s, Side::R))),
            ..Action::tile(ActionKind::Lay, seat, t.index() as u8)
        },
        DAction::Kou(t) => Action::tile(ActionKind::Kou, seat, t.index() as u8),
    }
}

/// The game action of a table action.
pub fn from_table(a: &Action) -> Result<DAction> {
    let t = a
        .tile
        .and_then(Tile::from_index)
        .ok_or_else(|| Error::illegal(format!("{}: name the tile", a.kind.name())))?;
    if !a.tiles.is_empty() {
        return Err(Error::illegal("a 顶牛 action names one tile (tile=…)"));
    }
    Ok(match (a.kind, a.value) {
        (ActionKind::Open, None) => DAction::Open(t),
        (ActionKind::Open, Some(2)) => DAction::OpenPair(t),
        (ActionKind::Lay, Some(0)) => DAction::Lay(t, Side::L),
        (ActionKind::Lay, Some(1)) => DAction::Lay(t, Side::R),
        (ActionKind::Kou, None) => DAction::Kou(t),
        _ => {
            return Err(Error::illegal(format!(
                "{} is not a 顶牛 action (open tile [value 2: the pair], lay tile value 0 L / 1 R, kou tile)",
                a.describe(Pieces::Named(&NAMES))
            )));
        }
    })
}

fn records(r: &Round, from: usize, out: &mut Vec<Event>) {
    for e in &r.events()[from..] {
        if !matches!(
            e,
            DEvent::Open { .. } | DEvent::Lay { .. } | DEvent::Kou { .. }
        ) {
            let seat = match e {
                DEvent::Zhang { seat, .. } => Some(*seat),
                _ => None,
            };
            let name = match e {
                DEvent::Deal { .. } => "deal",
                DEvent::Zhang { .. } => "zhang",
                _ => "end",
            };
            out.push(typed_record(name, seat, e.clone(), DEvent::to_json));
        }
    }
}

/// One 顶牛 hand at the table.
/// The hand's counters for the result record (`counts`): moves by kind, every 帐 formed by kind,
/// forced 帐 (死砸) that did not count, 帐 exempt as 头牌净手.
fn play_counts(r: &Round) -> Value {
    let (mut lays, mut kous, mut pair_openings, mut forced, mut jingshou) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut formed = [0u64; 7];
    for e in r.events() {
        match e {
            DEvent::Open { pair, .. } => pair_openings += u64::from(*pair),
            DEvent::Lay { .. } => lays += 1,
            DEvent::Kou { .. } => kous += 1,
            DEvent::Zhang {
                kind,
                deliberate,
                toupai_jingshou,
                counted,
                ..
            } => {
                formed[kind.index()] += 1;
                if !*counted && *toupai_jingshou {
                    jingshou += 1;
                } else if !*counted && !*deliberate {
                    forced += 1;
                }
            }
            _ => {}
        }
    }
    let mut by_kind = serde_json::Map::new();
    for k in super::zhang::ZhangKind::ALL {
        by_kind.insert(k.zh().to_string(), serde_json::json!(formed[k.index()]));
    }
    serde_json::json!({
        "lays": lays, "kous": kous, "pair_openings": pair_openings,
        "zhang_formed": by_kind, "forced": forced, "toupai_jingshou": jingshou,
    })
}

#[derive(Clone, Debug)]
pub struct DingniuHand {
    pub r: Round,
    end: Option<CardEnd>,
}

impl DingniuHand {
    fn make_end(&self) -> Result<CardEnd> {
        let o = self
            .r
            .outcome()
            .ok_or_else(|| Error::rule("the hand is not over"))?;
        let ledger = self.r.ledger(crate::game::table::seat_names(4))?;
        let mut fans: Vec<String> = match o.zhang {
            None => vec!["DA_ZHUANG".into(), "ER_ZHUANG".into(), "XIAO_ZHUANG".into()],
            Some((_, _, super::settle::ZhangOutcome::Success)) => vec![
                "DA_ZHUANG".into(),
                "ER_ZHUANG".into(),
                "XIAO_ZHUANG".into(),
                "SUAN_ZHANG".into(),
            ],
            Some((_, _, super::settle::ZhangOutcome::Baozhuang)) => vec!["BAO_ZHUANG".into()],
            Some((_, _, super::settle::ZhangOutcome::Silan(_))) => vec!["SI_LAN".into()],
        };
        fans.shrink_to_fit();
        let top = o.pay.iter().copied().max().unwrap_or(0);
        let mut result = o.to_json();
        if let Value::Object(m) = &mut result {
            m.remove("type");
            m.insert("toupai".into(), serde_json::json!(self.r.toupai()));
            m.insert("counts".into(), play_counts(&self.r));
        }
        Ok(CardEnd {
            balances: o.pay.to_vec(),
            winners: (0..4).filter(|&s| o.pay[s] == top && top > 0).collect(),
            exhausted: false, // every 顶牛 hand is played out
            ledger: crate::game::cards::LazyLedger::ready(ledger),
            result: crate::game::cards::CardData::Json(Box::new(result)),
            fans,
            value: top,
            next_dealer: None,
            carry: self
                .r
                .carry()
                .map(|c| crate::game::cards::CardData::Json(Box::new(c.to_json()))),
        })
    }
}

impl CardHand for DingniuHand {
    fn clone_box(&self) -> Box<dyn CardHand> {
        Box::new(self.clone())
    }
    fn to_act(&self) -> Option<usize> {
        self.r.to_act().map(usize::from)
    }
    fn phase(&self) -> &'static str {
        if self.r.is_opening() { "open" } else { "play" }
    }
    fn legal_into(&self, seat: usize, out: &mut Vec<Action>) {
        let l = self.r.legal_actions(seat as u8);
        out.extend(l.as_slice().iter().map(|&a| to_table(seat as u8, a)));
    }
    fn legal_count(&mut self) -> usize {
        self.r.to_act().map_or(0, |s| self.r.legal_actions(s).len())
    }
    fn legal_nth(&mut self, i: usize) -> Action {
        let s = self.r.to_act().unwrap_or(0);
        let l = self.r.legal_actions(s);
        let v = l.as_slice();
        to_table(s, v[i.min(v.len().saturating_sub(1))])
    }
    fn step(&mut self, a: &Action, out: &mut Vec<Event>) -> Result<()> {
        if a.kind == ActionKind::Escape {
            return Err(Error::illegal("顶牛 has no 逃跑"));
        }
        let g = from_table(a)?;
        let before = self.r.events().len();
        self.r.step(g)?;
        records(&self.r, before, out);
        if self.r.is_over() && self.end.is_none() {
            self.end = Some(self.make_end()?);
        }
        Ok(())
    }
    fn greedy(&mut self, rng: &mut SplitMix64) -> Action {
        let s = self.r.to_act().unwrap_or(0);
        match DBot::Greedy.act(&self.r.observe(s), rng) {
            Some(a) => to_table(s, a),
            None => self.legal_nth(0),
        }
    }
    fn deal_events(&self, out: &mut Vec<Event>) {
        records(&self.r, 0, out);
    }
    fn end(&self) -> Option<&CardEnd> {
        self.end.as_ref()
    }
    fn piece_count(&self) -> (usize, usize) {
        let mut n: usize = self.r.laid().iter().map(|&x| usize::from(x)).sum();
        for s in 0..4u8 {
            n += self
                .r
                .hand(s)
                .iter()
                .map(|&x| usize::from(x))
                .sum::<usize>();
            n += self.r.kou(s).iter().map(|&x| usize::from(x)).sum::<usize>();
        }
        (n, 24)
    }
    fn hand(&self, seat: usize) -> Vec<u8> {
        let mut v = Vec::new();
        for (k, &n) in self.r.hand(seat as u8 % 4).iter().enumerate() {
            v.extend(std::iter::repeat_n(k as u8, usize::from(n)));
        }
        v
    }
    fn observation(&self, seat: usize) -> Value {
        self.r.observation_json(seat as u8)
    }
    fn check(&self) -> Result<()> {
        use super::check;
        let r = &self.r;
        check::check_tiles(r)?;
        check::check_deal(r)?;
        check::check_turn(r)?;
        if r.is_over() {
            check::check_outcome(r)?;
            check::check_carry(r)?;
            // the table hands the game's carry to the next hand of a match
            let carry = self.end.as_ref().and_then(|e| e.carry_json());
            if carry != r.carry().map(|c| c.to_json()) {
                return Err(Error::hand(format!(
                    "顶牛 invariant violated: the table carries {carry:?}, the hand {:?}",
                    r.carry()
                )));
            }
            check::check_replay(r)?;
        }
        Ok(())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::Variant;
    use crate::game::bots::BotKind;
    use crate::game::sim::check_run;
    use crate::game::table::Compiled;

    /// 顶牛 hands at the table: 24 tiles accounted for after every step, legal moves only,
    /// zero-sum ledgers, identical replays; random and greedy bots.
    #[test]
    fn checked_hands_at_the_table() {
        let c = Compiled::new(Arc::new(Variant::load("dingniu").unwrap())).unwrap();
        for agents in [[BotKind::Random; 4], [BotKind::Greedy; 4]] {
            let st = check_run(&c, &agents, 3, 300, 1, 10).unwrap();
            assert_eq!(st.hands, 300);
            assert!(st.wins > 0);
        }
    }
}
