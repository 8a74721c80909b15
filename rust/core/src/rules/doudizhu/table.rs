//! 斗地主 at the table (`game::cards`): the hand state machine [`Game`] behind the table protocol.
//!
//! Pieces are the 15 ranks `3 4 5 6 7 8 9 T J Q K A 2 x X` (codes 0..15; suits are dealt and logged
//! by the game but never decide). Actions: `bid` (`value` 1..3), `call`, `rob`, `pass`, `show`
//! (`value` 1 明牌 / 0 not), `play` (`tiles` the cards, `tile` the reading's main rank and
//! `value` = 32 × type index + length, the type index of `doudizhu.md` §5 order: single 0, pair
//! 1, trio 2, bomb 3, rocket 4, trio_single 5, trio_pair 6, chain 7, pair_chain 8, trio_chain 9,
//! plane_single 10, plane_pair 11, four_two_single 12, four_two_pair 13); a `play` without
//! `tile`/`value` is read as the game reads an undeclared play. `escape` (逃跑) any time.
//! Records after `start`: `deal` (each seat's 17 cards), `bottom` (the 底牌, `value` the deal
//! number, `first_bidder`), `redeal`, `landlord` (`seat`, `tiles` the 底牌, `value` the bid,
//! `robs`, `forced`), `double` (`seat`, `value` the multiplier, `reason`), `escape`, `settle`
//! (the game's settlement record), `end`.

use std::sync::Arc;

use serde_json::{Value, json};

use super::bots::greedy_action;
use super::cards::{Card, Cards, N_RANKS, SMALL_JOKER};
use super::game::{
    Action as DAction, Carry, DoubleReason, Event as DEvent, Game, Outcome, OutcomeKind,
    outcome_json,
};
use super::movegen::legal_moves_into;
use super::moves::{KINDS, Reading, beating_reading, readings};
use super::rules::DdzRules;
use crate::error::{Error, Result};
use crate::game::action::{Action, ActionKind, Pieces};
use crate::game::cards::{CardData, CardEnd, CardHand, CardPart, LazyLedger, Typed};
use crate::game::event::Event;
use crate::game::rng::SplitMix64;

/// The rank names, by code.
pub const RANKS: [&str; N_RANKS] = [
    "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "x", "X",
];

/// The 斗地主 part of the table.
#[derive(Debug)]
pub struct DdzPart {
    pub rules: Arc<DdzRules>,
}

impl CardPart for DdzPart {
    fn seats(&self) -> usize {
        3
    }
    fn pieces(&self) -> Pieces {
        Pieces::Named(&RANKS)
    }
    fn deck_size(&self) -> usize {
        54
    }
    fn deal(&self, seed: u64, dealer: usize, carry: Option<&Value>) -> Result<Box<dyn CardHand>> {
        let c = carry_of(carry, dealer)?;
        Ok(Box::new(DdzHand::new(Game::new(
            self.rules.clone(),
            seed,
            c,
        ))))
    }
    fn codec(&self) -> Option<Arc<dyn crate::game::encode::CardCodec>> {
        Some(super::encode::codec(&self.rules))
    }
}

/// The carry JSON `{"first_bidder": seat, "last_winner": seat | null}` (default: the dealer
/// bids first).
fn carry_of(v: Option<&Value>, dealer: usize) -> Result<Carry> {
    let seat = |x: &Value, k: &str| -> Result<u8> {
        x.as_u64()
            .filter(|&s| s < 3)
            .map(|s| s as u8)
            .ok_or_else(|| Error::rule(format!("carry {k}: a seat 0..2, got {x}")))
    };
    let mut c = Carry {
        first_bidder: dealer as u8,
        last_winner: None,
    };
    if let Some(v) = v {
        let o = v
            .as_object()
            .ok_or_else(|| Error::rule(format!("斗地主 carry: an object, got {v}")))?;
        for (k, x) in o {
            match k.as_str() {
                "first_bidder" => c.first_bidder = seat(x, k)?,
                "last_winner" if x.is_null() => c.last_winner = None,
                "last_winner" => c.last_winner = Some(seat(x, k)?),
                _ => {
                    return Err(Error::rule(format!(
                        "斗地主 carry: unknown key {k:?} (first_bidder, last_winner)"
                    )));
                }
            }
        }
    }
    Ok(c)
}

/// Rank codes of a multiset, ascending.
pub fn codes(c: Cards) -> Vec<u8> {
    let mut v = Vec::with_capacity(c.len() as usize);
    // the held ranks' nibbles, lowest first
    let mut x = c.0 & ((1u64 << (4 * N_RANKS)) - 1);
    while x != 0 {
        let r = x.trailing_zeros() / 4;
        let n = (x >> (4 * r)) & 0xF;
        x &= !(0xF << (4 * r));
        for _ in 0..n {
            v.push(r as u8);
        }
    }
    v
}

/// Rank codes of a 54-bit physical set, ascending (a card's rank code grows with its bit).
fn bit_codes(bits: u64) -> Vec<u8> {
    let mut v = Vec::with_capacity(bits.count_ones() as usize);
    let mut b = bits & ((1u64 << 54) - 1);
    while b != 0 {
        let c = b.trailing_zeros() as u8;
        b &= b - 1;
        v.push(if c < 52 { c / 4 } else { c - 52 + SMALL_JOKER });
    }
    v
}

fn play_action(seat: u8, c: Cards, r: Reading) -> Action {
    Action {
        kind: ActionKind::Play,
        seat,
        tile: Some(r.main),
        tiles: codes(c),
        value: Some(r.kind as i32 * 32 + i32::from(r.len)),
    }
}

/// The table's action of a game action.
pub fn to_table(seat: u8, a: DAction, g: &Game) -> Action {
    match a {
        DAction::Pass => Action::new(ActionKind::Pass, seat, None),
        DAction::Bid(b) => Action::valued(ActionKind::Bid, seat, i32::from(b)),
        DAction::Call => Action::new(ActionKind::Call, seat, None),
        DAction::Rob => Action::new(ActionKind::Rob, seat, None),
        DAction::Show => Action::valued(ActionKind::Show, seat, 1),
        DAction::NoShow => Action::valued(ActionKind::Show, seat, 0),
        DAction::Play(c, Some(r)) => play_action(seat, c, r),
        DAction::Play(c, None) => {
            let r = match g.top() {
                Some((_, _, t)) => beating_reading(c, t, &g.rules().moves),
                None => readings(c, &g.rules().moves).canonical(),
            };
            match r {
                Some(r) => play_action(seat, c, r),
                None => Action {
                    kind: ActionKind::Play,
                    seat,
                    tile: None,
                    tiles: codes(c),
                    value: None,
                },
            }
        }
    }
}

/// The game action of a table action.
pub fn from_table(a: &Action) -> Result<DAction> {
    let none = |what: &str| -> Result<()> {
        if a.tile.is_some() || !a.tiles.is_empty() {
            return Err(Error::illegal(format!("{what} names no cards")));
        }
        Ok(())
    };
    Ok(match a.kind {
        ActionKind::Pass => {
            none("pass")?;
            DAction::Pass
        }
        ActionKind::Bid => {
            none("bid")?;
            let b = a
                .value
                .and_then(|v| u8::try_from(v).ok())
                .ok_or_else(|| Error::illegal("bid: value = the bid, 1..3"))?;
            DAction::Bid(b)
        }
        ActionKind::Call => DAction::Call,
        ActionKind::Rob => DAction::Rob,
        ActionKind::Show => match a.value {
            Some(1) => DAction::Show,
            Some(0) => DAction::NoShow,
            _ => return Err(Error::illegal("show: value 1 (明牌) or 0 (no)")),
        },
        ActionKind::Play => {
            let mut counts = [0u8; N_RANKS];
            for &t in &a.tiles {
                let c = counts
                    .get_mut(usize::from(t))
                    .ok_or_else(|| Error::illegal(format!("play: card code {t} is not a rank")))?;
                *c = c.saturating_add(1);
            }
            let cards = Cards::from_counts(&counts).map_err(|e| Error::illegal(e.to_string()))?;
            let reading = match (a.tile, a.value) {
                (None, None) => None,
                (Some(main), Some(v)) => {
                    let kind = usize::try_from(v / 32)
                        .ok()
                        .and_then(|k| KINDS.get(k))
                        .ok_or_else(|| {
                            Error::illegal(format!("play: value {v} is not a reading code"))
                        })?;
                    let len = u8::try_from(v % 32).unwrap_or(0);
                    Some(Reading::new(*kind, main, len))
                }
                _ => {
                    return Err(Error::illegal(
                        "play: give the reading as tile (main rank) and value together, or neither",
                    ));
                }
            };
            DAction::Play(cards, reading)
        }
        other => {
            return Err(Error::illegal(format!(
                "{} is not a 斗地主 action (bid, call, rob, pass, show, play, escape)",
                other.name()
            )));
        }
    })
}

fn card(name: &'static str, seat: Option<u8>, tiles: Vec<u8>, value: Option<i64>) -> Event {
    Event::Card {
        name,
        seat,
        tiles,
        value,
        data: None,
    }
}

/// A record with further keys kept typed: `render` writes them when a log is asked for.
fn typed<T>(mut e: Event, rec: T, render: fn(&T) -> Value) -> Event
where
    T: Clone + PartialEq + Send + Sync + std::fmt::Debug + 'static,
{
    if let Event::Card { data, .. } = &mut e {
        *data = Some(CardData::Rec(Box::new(Typed { rec, render })));
    }
    e
}

/// The further keys of the `bottom` record: the first bidder and the marked card.
fn bottom_json(r: &(u8, Option<Card>)) -> Value {
    let mut d = json!({"first_bidder": r.0});
    if let Some(m) = r.1 {
        d["marked"] = json!(m.to_string());
    }
    d
}

/// The further keys of the `landlord` record.
fn landlord_json(r: &(u8, bool)) -> Value {
    json!({"robs": r.0, "forced": r.1})
}

/// The further keys of the `double` record.
fn double_json(r: &DoubleReason) -> Value {
    json!({"reason": r.name()})
}

/// The table's records of a game record (an `Act` is the table's `action` record).
fn convert(e: &DEvent, out: &mut Vec<Event>) {
    match e {
        DEvent::Deal {
            deal,
            first_bidder,
            hands,
            bottom,
            marked,
            ..
        } => {
            for (s, h) in hands.iter().enumerate() {
                out.push(Event::DealCards {
                    seat: s as u8,
                    tiles: bit_codes(*h),
                });
            }
            out.push(typed(
                card("bottom", None, bit_codes(*bottom), Some(i64::from(*deal))),
                (*first_bidder, *marked),
                bottom_json,
            ));
        }
        DEvent::Act { .. } => {}
        DEvent::Redeal { deal } => {
            out.push(card("redeal", None, Vec::new(), Some(i64::from(*deal))))
        }
        DEvent::Landlord {
            seat,
            bid,
            robs,
            bottom,
            forced,
        } => out.push(typed(
            card(
                "landlord",
                Some(*seat),
                bit_codes(*bottom),
                Some(i64::from(*bid)),
            ),
            (*robs, *forced),
            landlord_json,
        )),
        DEvent::Double {
            reason,
            seat,
            multiplier,
        } => out.push(typed(
            card("double", *seat, Vec::new(), Some(*multiplier)),
            *reason,
            double_json,
        )),
        DEvent::Escape { seat, penalty } => {
            out.push(card("escape", Some(*seat), Vec::new(), Some(*penalty)));
        }
        DEvent::End(o) => out.push(typed(
            card("settle", None, Vec::new(), None),
            *o,
            outcome_json,
        )),
    }
}

/// The hand's counters for the result record: all-pass redeals, plays (bombs and rockets
/// included) and passes in the play phase.
fn play_counts(g: &Game) -> (u64, u64, u64) {
    let (mut redeals, mut plays, mut passes) = (0u64, 0u64, 0u64);
    for e in g.events() {
        match e {
            DEvent::Redeal { .. } => redeals += 1,
            DEvent::Act {
                action: DAction::Play(_, Some(_)),
                ..
            } => plays += 1,
            DEvent::Act {
                action: DAction::Pass,
                ..
            } if g.landlord().is_some() => passes += 1,
            _ => {}
        }
    }
    (redeals, plays, passes)
}

/// The carry JSON `{"first_bidder": seat, "last_winner": seat | null}`.
fn carry_json(c: &Carry) -> Value {
    json!({"first_bidder": c.first_bidder, "last_winner": c.last_winner})
}

/// What the hand's result record is written from.
#[derive(Clone, Copy, Debug, PartialEq)]
struct DdzResult {
    outcome: Outcome,
    landlord: Option<u8>,
    redeals: u64,
    plays: u64,
    passes: u64,
}

/// The result record: the settlement record (without `type`) with the landlord and the
/// hand's counters.
fn result_json(r: &DdzResult) -> Value {
    let mut result = outcome_json(&r.outcome);
    if let Value::Object(m) = &mut result {
        m.remove("type");
        m.insert("landlord".into(), json!(r.landlord));
        m.insert("redeals".into(), json!(r.redeals));
        m.insert("plays".into(), json!(r.plays));
        m.insert("passes".into(), json!(r.passes));
    }
    result
}

/// One 斗地主 hand at the table.
#[derive(Clone, Debug)]
pub struct DdzHand {
    pub g: Game,
    moves: Vec<(Cards, Reading)>,
    /// `moves` holds the legal plays of step `fresh`.
    fresh: Option<u64>,
    steps: u64,
    end: Option<CardEnd>,
    /// The state before the last step (the checking mode checks the action against it).
    before: Option<super::check::Before>,
}

impl DdzHand {
    pub fn new(g: Game) -> DdzHand {
        DdzHand {
            g,
            moves: Vec::with_capacity(64),
            fresh: None,
            steps: 0,
            end: None,
            before: None,
        }
    }

    fn refresh(&mut self) {
        if self.fresh == Some(self.steps) {
            return;
        }
        self.moves.clear();
        if self.g.phase() == super::game::Phase::Play {
            if let Some(s) = self.g.to_act() {
                legal_moves_into(
                    self.g.hand(s),
                    &self.g.rules().moves,
                    self.g.top().map(|t| t.2),
                    &mut self.moves,
                );
            }
        }
        self.fresh = Some(self.steps);
    }

    /// Step the game (`listed`: the action is from this step's legal list), keeping the state
    /// before for the checking mode.
    fn game_step(&mut self, ga: DAction, listed: bool) -> Result<()> {
        let seat = self.g.to_act().unwrap_or(0);
        let before = super::check::Before {
            phase: self.g.phase(),
            seat,
            hand: self.g.hand(seat),
            top: self.g.top(),
            action: ga,
        };
        if listed {
            self.g.step_legal(ga)?;
        } else {
            self.g.step(ga)?;
        }
        self.before = Some(before);
        Ok(())
    }

    /// After a step: the table records of the game's new records (from `before` on), the end.
    fn stepped(&mut self, before: usize, out: &mut Vec<Event>) -> Result<()> {
        self.steps += 1;
        for e in &self.g.events()[before..] {
            convert(e, out);
        }
        if self.g.is_over() && self.end.is_none() {
            self.end = Some(self.make_end()?);
        }
        Ok(())
    }

    fn make_end(&self) -> Result<CardEnd> {
        let o = self
            .g
            .outcome()
            .ok_or_else(|| Error::rule("the hand is not over"))?;
        let l = self.g.landlord().unwrap_or(0) as usize;
        let winners = match o.kind {
            OutcomeKind::LandlordWon => vec![l],
            OutcomeKind::FarmersWon => vec![(l + 1) % 3, (l + 2) % 3],
            _ => Vec::new(),
        };
        let oc = *o;
        let ledger = LazyLedger::new(move || {
            let names = crate::game::table::seat_names(3);
            oc.ledger([&names[0], &names[1], &names[2]])
        });
        let fans = self
            .g
            .events()
            .iter()
            .filter_map(|e| match e {
                DEvent::Double { reason, .. } => Some(reason.name().to_ascii_uppercase()),
                _ => None,
            })
            .collect();
        let (redeals, plays, passes) = play_counts(&self.g);
        let result = CardData::Rec(Box::new(Typed {
            rec: DdzResult {
                outcome: *o,
                landlord: self.g.landlord(),
                redeals,
                plays,
                passes,
            },
            render: result_json,
        }));
        let next = self.g.next_carry();
        Ok(CardEnd {
            balances: o.scores.to_vec(),
            winners,
            exhausted: matches!(o.kind, OutcomeKind::NoGame),
            ledger,
            result,
            fans,
            value: o.settlement.map_or(0, |s| s.unit),
            next_dealer: Some(usize::from(next.first_bidder)),
            carry: Some(CardData::Rec(Box::new(Typed {
                rec: next,
                render: carry_json,
            }))),
        })
    }
}

impl CardHand for DdzHand {
    fn clone_box(&self) -> Box<dyn CardHand> {
        Box::new(self.clone())
    }
    fn to_act(&self) -> Option<usize> {
        self.g.to_act().map(usize::from)
    }
    fn phase(&self) -> &'static str {
        self.g.phase().name()
    }
    fn legal_into(&self, seat: usize, out: &mut Vec<Action>) {
        let mut acts = Vec::new();
        let mut scratch = Vec::new();
        self.g
            .legal_actions_into(seat as u8, &mut acts, &mut scratch);
        out.extend(acts.into_iter().map(|a| to_table(seat as u8, a, &self.g)));
    }
    fn legal_count(&mut self) -> usize {
        let Some(s) = self.g.to_act() else { return 0 };
        if self.g.phase() == super::game::Phase::Play {
            self.refresh();
            self.moves.len() + usize::from(self.g.may_pass())
        } else {
            self.g.legal_actions(s).len()
        }
    }
    fn legal_nth(&mut self, i: usize) -> Action {
        let s = self.g.to_act().unwrap_or(0);
        if self.g.phase() == super::game::Phase::Play {
            self.refresh();
            let pass = self.g.may_pass();
            if pass && i == 0 {
                return Action::new(ActionKind::Pass, s, None);
            }
            let k = i - usize::from(pass);
            let (c, r) = self.moves[k.min(self.moves.len().saturating_sub(1))];
            return play_action(s, c, r);
        }
        let acts = self.g.legal_actions(s);
        to_table(s, acts[i.min(acts.len().saturating_sub(1))], &self.g)
    }
    fn step(&mut self, a: &Action, out: &mut Vec<Event>) -> Result<()> {
        let before = self.g.events().len();
        if a.kind == ActionKind::Escape {
            self.g.escape(a.seat)?;
            self.before = None;
        } else {
            let ga = from_table(a)?;
            self.game_step(ga, false)?;
        }
        self.stepped(before, out)
    }
    fn step_nth(&mut self, i: usize, out: &mut Vec<Event>) -> Result<()> {
        let before = self.g.events().len();
        let ga = if self.g.phase() == super::game::Phase::Play {
            self.refresh();
            let pass = self.g.may_pass();
            if pass && i == 0 {
                DAction::Pass
            } else {
                let k = i - usize::from(pass);
                let (c, r) = self.moves[k.min(self.moves.len().saturating_sub(1))];
                DAction::Play(c, Some(r))
            }
        } else {
            let s = self.g.to_act().unwrap_or(0);
            let acts = self.g.legal_actions(s);
            acts[i.min(acts.len().saturating_sub(1))]
        };
        // listed by the game itself this step: legal, no need to check it again
        self.game_step(ga, true)?;
        self.stepped(before, out)
    }
    fn greedy(&mut self, rng: &mut SplitMix64) -> Action {
        let s = self.g.to_act().unwrap_or(0);
        match greedy_action(&mut self.g, rng) {
            Some(a) => to_table(s, a, &self.g),
            None => Action::new(ActionKind::Pass, s, None),
        }
    }
    fn deal_events(&self, out: &mut Vec<Event>) {
        for e in self.g.events() {
            convert(e, out);
        }
    }
    fn end(&self) -> Option<&CardEnd> {
        self.end.as_ref()
    }
    fn piece_count(&self) -> (usize, usize) {
        let played = self.g.played();
        let mut n = self.g.bottom_pending().len() as usize;
        for s in 0..3u8 {
            n += self.g.hand(s).len() as usize + played[usize::from(s)].len() as usize;
        }
        (n, 54)
    }
    fn hand(&self, seat: usize) -> Vec<u8> {
        codes(self.g.hand(seat as u8 % 3))
    }
    fn observation(&self, seat: usize) -> Value {
        self.g.observation(seat as u8)
    }
    fn check(&self) -> Result<()> {
        super::check::check_cards(&self.g, self.g.seed())?;
        if let Some(b) = &self.before {
            super::check::check_action(&self.g, b)?;
        }
        if self.g.is_over() {
            super::check::check_end(&self.g, self.g.seed())?;
            super::check::check_replay(&self.g)?;
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
    use crate::game::action::ActionKind;
    use crate::game::bots::BotKind;
    use crate::game::matches::Match;
    use crate::game::sim::{SimOptions, check_run, simulate};
    use crate::game::table::{Compiled, TableSetup, replay};

    /// Both presets play whole hands at the table: every card accounted for after every step,
    /// only legal moves, zero-sum ledgers equal to the result, identical replays (events and
    /// JSON), random and greedy bots; the fast path gives the checked path's games.
    #[test]
    fn checked_games_at_the_table() {
        for id in ["doudizhu_qq", "doudizhu_contest"] {
            let c = Compiled::new(Arc::new(Variant::load(id).unwrap())).unwrap();
            for agents in [[BotKind::Random; 3], [BotKind::Greedy; 3]] {
                let st = check_run(&c, &agents, 7, 300, 1, 10).unwrap();
                assert_eq!(st.hands, 300);
                assert!(st.wins > 250, "{id}: {st:?}");
                let fast = simulate(&c, &agents, 7, 0, 50, 1, &SimOptions::default()).unwrap();
                let checked = simulate(
                    &c,
                    &agents,
                    7,
                    0,
                    50,
                    1,
                    &SimOptions {
                        check: true,
                        ..SimOptions::default()
                    },
                )
                .unwrap();
                for (a, b) in fast.iter().zip(&checked) {
                    assert_eq!((a.balances.clone(), a.steps), (b.balances.clone(), b.steps));
                }
            }
        }
    }

    /// Players who always pass: under `redeal` the hand is redealt `redeal_cap` times and then
    /// ends as 流局 (no landlord, no score); `end_zero` ends at once; `random_landlord_after_3`
    /// makes a landlord after three all-pass deals and the hand is played out. Every log replays.
    #[test]
    fn always_passing_players_end_the_hand() {
        use crate::preset::SwitchValue;
        for (all_pass, cap, deals) in [
            ("redeal", 10, Some(10)),
            ("redeal", 1, Some(1)),
            ("redeal", 3, Some(3)),
            ("end_zero", 10, Some(1)),
            ("random_landlord_after_3", 10, None),
        ] {
            let v = Variant::with_options(
                "doudizhu_qq",
                [
                    ("all_pass", SwitchValue::Str(all_pass.into())),
                    ("redeal_cap", SwitchValue::Int(cap)),
                ],
            )
            .unwrap();
            let c = Compiled::new(Arc::new(v)).unwrap();
            for seed in 0..5 {
                let mut t = c
                    .table(TableSetup {
                        seed,
                        ..TableSetup::default()
                    })
                    .unwrap();
                let mut steps = 0;
                while let Some(s) = t.to_act() {
                    let legal = t.legal_actions(s);
                    let a = legal
                        .iter()
                        .find(|a| a.kind == ActionKind::Pass)
                        .unwrap_or(&legal[0]);
                    t.step(a).unwrap();
                    steps += 1;
                    assert!(steps < 2000, "{all_pass}: the hand does not end");
                }
                let log = t.log_json();
                let redeals = log.iter().filter(|r| r["type"] == "redeal").count();
                let b = t.balances().unwrap();
                match deals {
                    Some(n) => {
                        assert_eq!(redeals + 1, n, "{all_pass} cap {cap}");
                        assert_eq!(b, vec![0, 0, 0]);
                        assert!(t.winners().is_empty());
                        assert_eq!(steps, 3 * n);
                    }
                    None => {
                        assert_eq!(redeals, 2);
                        assert!(!t.winners().is_empty());
                        assert_eq!(b.iter().sum::<i64>(), 0);
                    }
                }
                let r = replay(&log).unwrap();
                assert_eq!(r.balances(), t.balances());
            }
        }
    }

    #[test]
    fn a_hand_replays_from_its_log_and_a_match_carries_the_bidder() {
        let c = Compiled::new(Arc::new(Variant::load("doudizhu_qq").unwrap())).unwrap();
        let mut t = c
            .table(TableSetup {
                seed: 5,
                dealer: 1,
                ..TableSetup::default()
            })
            .unwrap();
        assert_eq!(t.to_act(), Some(1));
        assert_eq!(t.piece_count(), (54, 54));
        let mut bot = crate::game::bots::Bot::new(BotKind::Random, 3);
        while let Some(s) = t.to_act() {
            let legal = t.legal_actions(s);
            // another seat has nothing to do and may not act
            assert!(t.legal_actions((s + 1) % 3).is_empty());
            let mut other = legal[0].clone();
            other.seat = ((s + 1) % 3) as u8;
            assert!(t.step(&other).is_err());
            let i = bot.choose(&t, s, &legal);
            t.step(&legal[i]).unwrap();
        }
        let log = t.log_json();
        let r = replay(&log).unwrap();
        assert_eq!(r.balances(), t.balances());
        assert_eq!(t.balances().unwrap().iter().sum::<i64>(), 0);
        let mut m = Match::new(c, 9);
        for _ in 0..6 {
            let mut t = m.next_table().unwrap();
            while let Some(s) = t.to_act() {
                // the last legal action: 叫 3 ends the auction (always passing would redeal
                // forever, as the seed's rule says, and the log would grow without end)
                let legal = t.legal_actions(s);
                t.step(&legal[legal.len() - 1]).unwrap();
            }
            m.finish(&t).unwrap();
        }
        assert_eq!(m.scores.iter().sum::<i64>(), 0);
        assert_eq!(m.hands, 6);
    }
}
