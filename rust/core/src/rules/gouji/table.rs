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

use serde_json::{Value, json};

use super::bots::{BotKind as GBot, choose};
use super::card::{BIG, Counts, N_RANKS, Rng, SMALL, TWO};
use super::hand::{
    Action as GAction, Ask, Carry, DealRecord, Event as GEvent, GoujiHand, end_json, outcome_json,
};
use super::outcome::{Outcome, SEATS, team};
use super::play::{NO_BASE, Play, lead_count, lead_nth};
use super::rules::GoujiRules;
use super::ruleset::PLACE_FANS;
use crate::error::{Error, Result};
use crate::game::action::{Action, ActionKind, Pieces};
use crate::game::cards::{CardData, CardEnd, CardHand, CardPart, LazyLedger, Typed, typed_record};
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
    fn log_capacity(&self) -> usize {
        // a hand with random bots takes ~700 decisions, each an `action` record
        1024
    }
    fn deal(&self, seed: u64, _dealer: usize, carry: Option<&Value>) -> Result<Box<dyn CardHand>> {
        let c: Carry = match carry {
            None => Carry::default(),
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| Error::rule(format!("够级 carry: {e}")))?,
        };
        let h = GoujiHand::new(self.rules, seed, c, true)?;
        Ok(Box::new(GoujiTableHand {
            h,
            seen: 0,
            end: None,
            buf: Vec::with_capacity(64),
            fresh: false,
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

/// Whether `a` is the table's action of `g` (what `to_table(a.seat, g) == *a` says, without
/// building it).
fn same_action(a: &Action, g: &GAction) -> bool {
    let (kind, tile) = match g {
        GAction::Play(_) => (ActionKind::Play, None),
        GAction::Pass => (ActionKind::Pass, None),
        GAction::Yield => (ActionKind::Yield, None),
        GAction::Show | GAction::NoShow => (ActionKind::Show, None),
        GAction::Revolt | GAction::NoRevolt => (ActionKind::Revolt, None),
        GAction::Head(_) => (ActionKind::Head, None),
        GAction::XuanDian(_) => (ActionKind::XuanDian, None),
        GAction::Return(r) => (ActionKind::Return, Some(*r)),
    };
    if a.kind != kind || a.tile != tile || a.value != Some(g.id() as i32) {
        return false;
    }
    match g {
        GAction::Play(p) => {
            let base = if p.base == NO_BASE { 0 } else { p.n_base };
            let parts = [
                (p.base, base),
                (TWO as u8, p.n2),
                (SMALL as u8, p.small),
                (BIG as u8, p.big),
            ];
            let mut it = a.tiles.iter();
            for (code, n) in parts {
                for _ in 0..n {
                    if it.next() != Some(&code) {
                        return false;
                    }
                }
            }
            it.next().is_none()
        }
        _ => a.tiles.is_empty(),
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
    if !same_action(a, &g) {
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

/// What the hand's result record is written from: the outcome and the hand's counters (cards
/// given as tribute before it started, failed burns).
#[derive(Clone, Debug, PartialEq)]
struct GoujiResult {
    outcome: Option<Outcome>,
    tribute: u64,
    burn_fails: u8,
}

/// The result record: the outcome (without `type`) with `tribute_cards` and `burn_fails`.
fn result_json(r: &GoujiResult) -> Value {
    let mut result = outcome_json(&r.outcome);
    if let Value::Object(m) = &mut result {
        m.remove("type");
        m.insert("tribute_cards".into(), json!(r.tribute));
        m.insert("burn_fails".into(), json!(r.burn_fails));
    }
    result
}

/// The carry JSON of the next hand (`null` if it does not serialise, which a carry always does).
fn carry_json(c: &Carry) -> Value {
    serde_json::to_value(c).unwrap_or(Value::Null)
}

/// One 够级 hand at the table.
#[derive(Debug)]
pub struct GoujiTableHand {
    h: GoujiHand,
    /// Game events already turned into table records.
    seen: usize,
    end: Option<CardEnd>,
    /// The legal actions of the seat to act, when `fresh` (listed by `legal_count`).
    buf: Vec<GAction>,
    fresh: bool,
}

impl GoujiTableHand {
    /// The table records of the game's events from `from` on (decisions are the table's
    /// `action` records): typed, their JSON written only when a log is asked for; the deal and
    /// the end carry the hand's state and are written at once.
    fn records(h: &GoujiHand, from: usize, out: &mut Vec<Event>) {
        for e in h.events().get(from..).unwrap_or(&[]) {
            if e.as_action().is_some() {
                continue;
            }
            out.push(match e {
                GEvent::Deal => typed_record("DEAL", None, h.deal_record(), DealRecord::json),
                GEvent::HandEnd => typed_record("HAND_END", None, h.outcome().cloned(), end_json),
                _ => typed_record(e.type_name(), e.record_seat(), *e, GEvent::json),
            });
        }
    }

    /// The hand and 憋3 of the seat to act when it leads: a lead list can be long, and the
    /// random bot counts it and takes its `i`-th play without listing it.
    fn lead(&self) -> Option<(Counts, bool)> {
        let s = self.h.to_act()?;
        (self.h.ask() == Some(Ask::Lead)).then(|| (self.h.hands()[s], self.h.rules().bie_san))
    }

    /// The `i`-th legal action of the seat to act (`i` past the end: the last).
    fn nth(&mut self, i: usize) -> GAction {
        if let Some((hand, bie_san)) = self.lead() {
            let n = lead_count(&hand, bie_san);
            return GAction::Play(lead_nth(&hand, bie_san, i.min(n.saturating_sub(1))));
        }
        if !self.fresh {
            let s = self.h.to_act().unwrap_or(0);
            self.h.legal_actions_into(s, &mut self.buf);
            self.fresh = true;
        }
        self.buf[i.min(self.buf.len().saturating_sub(1))]
    }

    /// After a step: the table records of the game's new events, the end.
    fn stepped(&mut self, out: &mut Vec<Event>) -> Result<()> {
        self.fresh = false;
        Self::records(&self.h, self.seen, out);
        self.seen = self.h.events().len();
        if self.h.is_over() && self.end.is_none() {
            self.end = Some(Self::make_end(&self.h)?);
        }
        Ok(())
    }

    fn make_end(h: &GoujiHand) -> Result<CardEnd> {
        let o = h
            .outcome()
            .ok_or_else(|| Error::rule("the hand is not over"))?;
        let (void, scores) = (o.void, o.scores);
        let ledger = LazyLedger::new(move || {
            let names = crate::game::table::seat_names(SEATS);
            let mut ledger = Ledger::new(names.clone(), SettlementRules::default())?;
            if !void && scores.iter().any(|&x| x != 0) {
                let deltas: Vec<(String, i64)> = names.into_iter().zip(scores).collect();
                ledger.record_deltas(
                    "ADJUSTMENT",
                    "够级: team sums of place points",
                    &deltas,
                    None,
                )?;
            }
            Ok(ledger)
        });
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
        let result = CardData::Rec(Box::new(Typed {
            rec: GoujiResult {
                outcome: Some(o.clone()),
                tribute: h.carry().obligations.iter().map(|x| u64::from(x.n)).sum(),
                burn_fails: h.burn_fails(),
            },
            render: result_json,
        }));
        Ok(CardEnd {
            balances: o.scores.to_vec(),
            winners,
            exhausted: o.void,
            ledger,
            result,
            fans,
            value: top.max(0),
            next_dealer: None,
            carry: h.next_carry().map(|c| {
                CardData::Rec(Box::new(Typed {
                    rec: c,
                    render: carry_json,
                }))
            }),
        })
    }
}

impl CardHand for GoujiTableHand {
    fn clone_box(&self) -> Box<dyn CardHand> {
        Box::new(GoujiTableHand {
            h: self.h.clone(),
            seen: self.seen,
            end: self.end.clone(),
            buf: Vec::new(),
            fresh: false,
        })
    }
    fn to_act(&self) -> Option<usize> {
        self.h.to_act()
    }
    fn phase(&self) -> &'static str {
        self.h.phase().name()
    }
    fn legal_into(&self, seat: usize, out: &mut Vec<Action>) {
        let mut v = Vec::new();
        let mut plays = Vec::new();
        self.h.legal_actions_with(seat, &mut plays, &mut v);
        out.extend(v.iter().map(|a| to_table(seat as u8, a)));
    }
    fn legal_count(&mut self) -> usize {
        let Some(s) = self.h.to_act() else { return 0 };
        if let Some((hand, bie_san)) = self.lead() {
            return lead_count(&hand, bie_san);
        }
        self.h.legal_actions_into(s, &mut self.buf);
        self.fresh = true;
        self.buf.len()
    }
    fn legal_nth(&mut self, i: usize) -> Action {
        let s = self.h.to_act().unwrap_or(0);
        let a = self.nth(i);
        to_table(s as u8, &a)
    }
    fn step(&mut self, a: &Action, out: &mut Vec<Event>) -> Result<()> {
        if a.kind == ActionKind::Escape {
            return Err(Error::illegal("够级 has no 逃跑"));
        }
        let g = from_table(a)?;
        self.h.step(g)?;
        self.stepped(out)
    }
    fn step_nth(&mut self, i: usize, out: &mut Vec<Event>) -> Result<()> {
        let g = self.nth(i);
        // listed by the game itself this step: legal, no need to check it again
        self.h.step_legal(g)?;
        self.stepped(out)
    }
    fn greedy(&mut self, rng: &mut SplitMix64) -> Action {
        let h = &mut self.h;
        let s = h.to_act().unwrap_or(0);
        h.legal_actions_into(s, &mut self.buf);
        self.fresh = true;
        let mut r = Rng(*rng);
        let a = choose(GBot::Greedy, &mut r, h, &self.buf);
        *rng = r.0;
        to_table(s as u8, &a)
    }
    fn deal_events(&self, out: &mut Vec<Event>) {
        Self::records(&self.h, 0, out);
    }
    fn end(&self) -> Option<&CardEnd> {
        self.end.as_ref()
    }
    fn piece_count(&self) -> (usize, usize) {
        (if self.h.cards_conserved() { 216 } else { 217 }, 216)
    }
    fn hand(&self, seat: usize) -> Vec<u8> {
        let mut v = Vec::new();
        for (r, &n) in self.h.hands()[seat % SEATS].iter().enumerate() {
            v.extend(std::iter::repeat_n(r as u8, usize::from(n)));
        }
        v
    }
    fn observation(&self, seat: usize) -> Value {
        let g = &self.h;
        json!({
            "seat": seat,
            "phase": g.phase().name(),
            "to_act": g.to_act(),
            "hand": super::card::format_counts(&g.hands()[seat % SEATS]),
            "cards_left": g.hands().iter().map(|h| h.iter().map(|&x| u32::from(x)).sum::<u32>()).collect::<Vec<_>>(),
            "active": g.active(),
        })
    }
    fn check(&self) -> Result<()> {
        let h = &self.h;
        if !h.cards_conserved() {
            return Err(Error::rule("够级: the 216 cards are not accounted for"));
        }
        // every legal action of the seat to act, checked on its own
        super::check::check_legal(h)?;
        // the start (tribute, returns, 买三) once the tribute is over: at the first lead and after
        if h.phase() == super::hand::Phase::Play || h.is_over() {
            super::check::check_start(h)?;
        }
        if let Some(o) = h.outcome() {
            super::check::check_outcome(h, o)?;
            if let Some(next) = h.next_carry() {
                super::check::check_carry(h.rules(), h.carry(), o, &next)?;
            }
            // the game's own log replays to the same hand (every 8th hand, by its seed)
            if h.seed() % 8 == 0 {
                super::check::check_replay(h)?;
            }
        }
        Ok(())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl GoujiTableHand {
    /// Read the game's state (the RL encoder's view; always `Some`: the hand is held directly).
    pub fn read<R>(&self, f: impl FnOnce(&GoujiHand) -> R) -> Option<R> {
        Some(f(&self.h))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::Variant;
    use crate::game::bots::BotKind;
    use crate::game::sim::check_run;
    use crate::game::table::Compiled;

    /// The table's check path runs the game's own invariants: a tribute that does not give the
    /// giver's highest cards is found.
    #[test]
    fn the_check_path_finds_a_forged_tribute() {
        use super::super::hand::{Carry, GoujiHand};
        use super::super::outcome::{Obligation, TributeKind};
        use super::super::rules::GoujiRules;
        use super::GoujiTableHand;
        use crate::game::cards::CardHand;
        let carry = Carry {
            hand_in_session: 1,
            obligations: vec![Obligation {
                kind: TributeKind::Luo,
                from: 0,
                to: 1,
                n: 2,
            }],
        };
        let h = GoujiHand::new(GoujiRules::default(), 4, carry, true).unwrap();
        let mut t = GoujiTableHand {
            h,
            seen: 0,
            end: None,
            buf: Vec::new(),
            fresh: false,
        };
        while t.h.phase() != super::super::hand::Phase::Play {
            assert!(t.check().is_ok());
            let s = t.h.to_act().unwrap();
            let a = t.h.legal_actions(s)[0];
            t.h.step(a).unwrap();
        }
        assert!(t.check().is_ok());
        t.h.forge_first_tribute_for_test();
        let e = t.check().unwrap_err().to_string();
        assert!(e.contains("tribute"), "{e}");
    }

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
