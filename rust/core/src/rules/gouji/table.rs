//! 够级 at the table (`game::cards`): the hand state machine [`GoujiHand`] behind the table
//! protocol.
//!
//! Pieces are the 15 ranks `3 4 5 6 7 8 9 T J Q K A 2 w W` (codes 0..15). Every action carries
//! its flat id (`GoujiHand`'s `Action::id`, docs/gouji.md) as `value`, and reads as: `play`
//! (`tiles` the cards of a lead, answer or burn), `pass`, `yield` (让牌), `show` (亮), `revolt`
//! (革命), `head` (要头 / 无头), `xuan_dian` (宣点), `return` (`tile` the card given back).
//! Records after `start` are the game's own records (`deal`, `tribute`, `burn_start`, `out` …,
//! docs/gouji.md) without the decisions, then `end`. The table's dealer is not used: 够级 decides
//! who leads (上班, the tribute) itself; the carry is the game's tribute session.

use std::sync::Mutex;

use serde_json::{Value, json};

use super::bots::{BotKind as GBot, choose};
use super::card::{BIG, N_RANKS, Rng, SMALL, TWO};
use super::hand::{Action as GAction, Carry, GoujiHand};
use super::outcome::{SEATS, team};
use super::play::{NO_BASE, Play};
use super::rules::GoujiRules;
use super::ruleset::PLACE_FANS;
use crate::error::{Error, Result};
use crate::game::action::{Action, ActionKind, Pieces};
use crate::game::cards::{CardEnd, CardHand, CardPart, json_record};
use crate::game::event::Event;
use crate::game::rng::SplitMix64;
use crate::scoring::ledger::{Ledger, SettlementRules};

/// The rank names, by code.
pub const RANKS: [&str; N_RANKS] = [
    "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "w", "W",
];

/// The 够级 part of the table.
#[derive(Debug)]
pub struct GoujiPart {
    pub rules: GoujiRules,
}

impl CardPart for GoujiPart {
    fn seats(&self) -> usize {
        SEATS
    }
    fn pieces(&self) -> Pieces {
        Pieces::Named(&RANKS)
    }
    fn deck_size(&self) -> usize {
        216
    }
    fn deal(&self, seed: u64, _dealer: usize, carry: Option<&Value>) -> Result<Box<dyn CardHand>> {
        let c: Carry = match carry {
            None => Carry::default(),
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| Error::rule(format!("够级 carry: {e}")))?,
        };
        let h = GoujiHand::new(self.rules, seed, c, true)?;
        Ok(Box::new(GoujiTableHand {
            h: Mutex::new(h),
            seen: 0,
            end: None,
            buf: Vec::with_capacity(64),
        }))
    }
    fn codec(&self) -> Option<std::sync::Arc<dyn crate::game::encode::CardCodec>> {
        Some(super::encode::codec())
    }
}

/// The cards of a play, ascending codes.
fn play_codes(p: &Play) -> Vec<u8> {
    let mut v = Vec::with_capacity(usize::from(p.n_base + p.n2 + p.small + p.big));
    if p.base != NO_BASE {
        v.extend(std::iter::repeat_n(p.base, usize::from(p.n_base)));
    }
    v.extend(std::iter::repeat_n(TWO as u8, usize::from(p.n2)));
    v.extend(std::iter::repeat_n(SMALL as u8, usize::from(p.small)));
    v.extend(std::iter::repeat_n(BIG as u8, usize::from(p.big)));
    v
}

/// The table's action of a game action.
pub fn to_table(seat: u8, a: &GAction) -> Action {
    let (kind, tile, tiles) = match a {
        GAction::Play(p) => (ActionKind::Play, None, play_codes(p)),
        GAction::Pass => (ActionKind::Pass, None, Vec::new()),
        GAction::Yield => (ActionKind::Yield, None, Vec::new()),
        GAction::Show | GAction::NoShow => (ActionKind::Show, None, Vec::new()),
        GAction::Revolt | GAction::NoRevolt => (ActionKind::Revolt, None, Vec::new()),
        GAction::Head(_) => (ActionKind::Head, None, Vec::new()),
        GAction::XuanDian(_) => (ActionKind::XuanDian, None, Vec::new()),
        GAction::Return(r) => (ActionKind::Return, Some(*r), Vec::new()),
    };
    Action {
        kind,
        seat,
        tile,
        tiles,
        value: Some(a.id() as i32),
    }
}

/// The game action of a table action (its `value` id, checked against the rest).
pub fn from_table(a: &Action) -> Result<GAction> {
    let g = a
        .value
        .and_then(|v| u32::try_from(v).ok())
        .and_then(GAction::from_id)
        .ok_or_else(|| {
            Error::illegal(format!(
                "{}: a 够级 action carries its id as value (pick it from legal_actions)",
                a.kind.name()
            ))
        })?;
    if to_table(a.seat, &g) != *a {
        return Err(Error::illegal(format!(
            "{} {:?}: the id {} is {}",
            a.kind.name(),
            a.tiles,
            a.value.unwrap_or(0),
            g.text()
        )));
    }
    Ok(g)
}

/// One 够级 hand at the table.
#[derive(Debug)]
pub struct GoujiTableHand {
    h: Mutex<GoujiHand>,
    /// Game events already turned into table records.
    seen: usize,
    end: Option<CardEnd>,
    buf: Vec<GAction>,
}

impl GoujiTableHand {
    fn with<R>(&self, f: impl FnOnce(&mut GoujiHand) -> R) -> Option<R> {
        self.h.lock().ok().map(|mut g| f(&mut g))
    }

    fn records(h: &GoujiHand, from: usize, out: &mut Vec<Event>) {
        for (e, j) in h.events()[from..].iter().zip(h.events_json_from(from)) {
            if e.as_action().is_none() {
                out.push(json_record(j));
            }
        }
    }

    fn make_end(h: &GoujiHand) -> Result<CardEnd> {
        let o = h
            .outcome()
            .ok_or_else(|| Error::rule("the hand is not over"))?;
        let names = crate::game::table::seat_names(SEATS);
        let mut ledger = Ledger::new(names.clone(), SettlementRules::default())?;
        if !o.void && o.scores.iter().any(|&x| x != 0) {
            let deltas: Vec<(String, i64)> = names.into_iter().zip(o.scores).collect();
            ledger.record_deltas(
                "ADJUSTMENT",
                "够级: team sums of place points",
                &deltas,
                None,
            )?;
        }
        let top = o.scores.iter().copied().max().unwrap_or(0);
        let winners: Vec<usize> = (0..SEATS)
            .filter(|&s| top > 0 && o.scores[s] == top)
            .collect();
        let mut fans: Vec<String> = Vec::new();
        if let Some(&w) = winners.first() {
            for (i, &s) in o.places.iter().enumerate() {
                if team(usize::from(s)) == team(w) && i < SEATS {
                    fans.push(PLACE_FANS[i].to_string());
                }
            }
            if o.chuan_san_hu {
                fans.push("CHUAN_SAN_HU".into());
            }
        }
        let mut result = h.outcome_json();
        if let Value::Object(m) = &mut result {
            m.remove("type");
        }
        Ok(CardEnd {
            balances: o.scores.to_vec(),
            winners,
            ledger,
            result,
            fans,
            value: top.max(0),
            next_dealer: None,
            carry: h.next_carry().and_then(|c| serde_json::to_value(c).ok()),
        })
    }
}

impl CardHand for GoujiTableHand {
    fn clone_box(&self) -> Box<dyn CardHand> {
        let h = self.with(|g| g.clone()).unwrap_or_else(unreachable_hand);
        Box::new(GoujiTableHand {
            h: Mutex::new(h),
            seen: self.seen,
            end: self.end.clone(),
            buf: Vec::new(),
        })
    }
    fn to_act(&self) -> Option<usize> {
        self.with(|g| g.to_act()).flatten()
    }
    fn phase(&self) -> &'static str {
        self.with(|g| g.phase().name()).unwrap_or("over")
    }
    fn legal_into(&self, seat: usize, out: &mut Vec<Action>) {
        let mut v = Vec::new();
        self.with(|g| g.legal_actions_into(seat, &mut v));
        out.extend(v.iter().map(|a| to_table(seat as u8, a)));
    }
    fn legal_count(&mut self) -> usize {
        let h = self.h.get_mut().unwrap_or_else(|e| e.into_inner());
        let Some(s) = h.to_act() else { return 0 };
        h.legal_actions_into(s, &mut self.buf);
        self.buf.len()
    }
    fn legal_nth(&mut self, i: usize) -> Action {
        let h = self.h.get_mut().unwrap_or_else(|e| e.into_inner());
        let s = h.to_act().unwrap_or(0);
        h.legal_actions_into(s, &mut self.buf);
        let a = self.buf[i.min(self.buf.len().saturating_sub(1))];
        to_table(s as u8, &a)
    }
    fn step(&mut self, a: &Action, out: &mut Vec<Event>) -> Result<()> {
        if a.kind == ActionKind::Escape {
            return Err(Error::illegal("够级 has no 逃跑"));
        }
        let g = from_table(a)?;
        let h = self.h.get_mut().unwrap_or_else(|e| e.into_inner());
        h.step(g)?;
        Self::records(h, self.seen, out);
        self.seen = h.events().len();
        if h.is_over() && self.end.is_none() {
            self.end = Some(Self::make_end(h)?);
        }
        Ok(())
    }
    fn greedy(&mut self, rng: &mut SplitMix64) -> Action {
        let h = self.h.get_mut().unwrap_or_else(|e| e.into_inner());
        let s = h.to_act().unwrap_or(0);
        h.legal_actions_into(s, &mut self.buf);
        let mut r = Rng(*rng);
        let a = choose(GBot::Greedy, &mut r, h, &self.buf);
        *rng = r.0;
        to_table(s as u8, &a)
    }
    fn deal_events(&self, out: &mut Vec<Event>) {
        self.with(|g| Self::records(g, 0, out));
    }
    fn end(&self) -> Option<&CardEnd> {
        self.end.as_ref()
    }
    fn piece_count(&self) -> (usize, usize) {
        let ok = self.with(|g| g.cards_conserved()).unwrap_or(false);
        (if ok { 216 } else { 217 }, 216)
    }
    fn hand(&self, seat: usize) -> Vec<u8> {
        self.with(|g| {
            let mut v = Vec::new();
            for (r, &n) in g.hands()[seat % SEATS].iter().enumerate() {
                v.extend(std::iter::repeat_n(r as u8, usize::from(n)));
            }
            v
        })
        .unwrap_or_default()
    }
    fn observation(&self, seat: usize) -> Value {
        self.with(|g| {
            json!({
                "seat": seat,
                "phase": g.phase().name(),
                "to_act": g.to_act(),
                "hand": super::card::format_counts(&g.hands()[seat % SEATS]),
                "cards_left": g.hands().iter().map(|h| h.iter().map(|&x| u32::from(x)).sum::<u32>()).collect::<Vec<_>>(),
                "active": g.active(),
            })
        })
        .unwrap_or(Value::Null)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl GoujiTableHand {
    /// Read the game's state (the RL encoder's view; `None` only after a panic elsewhere).
    pub fn read<R>(&self, f: impl FnOnce(&GoujiHand) -> R) -> Option<R> {
        self.h.lock().ok().map(|g| f(&g))
    }
}

fn unreachable_hand() -> GoujiHand {
    // A poisoned lock only follows a panic elsewhere; deal a fresh default hand.
    GoujiHand::new(GoujiRules::default(), 0, Carry::default(), false)
        .unwrap_or_else(|e| panic!("够级: {e}"))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::Variant;
    use crate::game::bots::BotKind;
    use crate::game::sim::check_run;
    use crate::game::table::Compiled;

    /// 够级 hands at the table: 216 cards accounted for after every step, legal moves only,
    /// zero-sum ledgers, identical replays; random and greedy bots.
    #[test]
    fn checked_hands_at_the_table() {
        let c = Compiled::new(Arc::new(Variant::load("gouji").unwrap())).unwrap();
        for agents in [[BotKind::Random; 6], [BotKind::Greedy; 6]] {
            let st = check_run(&c, &agents, 3, 40, 1, 8).unwrap();
            assert_eq!(st.hands, 40);
        }
    }
}
