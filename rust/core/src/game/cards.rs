//! The card-game family of the table: 斗地主, 够级 and 顶牛 (and any later card or domino game).
//!
//! Each game keeps its own state machine in its rule module (`rules::doudizhu::Game`,
//! `rules::gouji::GoujiHand`, `rules::dingniu::Round`); its `rules/<game>/table.rs` wraps it in a
//! [`CardHand`] (moves ↔ [`Action`], its records → [`Event`], its settlement → the shared
//! [`Ledger`]) and its ruleset returns a [`CardPart`] from `Ruleset::table`
//! (`TablePart::Cards`). [`CardTable`] is the one table around every such hand: it writes the
//! `start` and `action` records, refuses actions of the wrong seat, counts the version and the
//! turns, and closes the log with `end`. Nothing here names a game.
//!
//! Seeds: a hand is dealt from the table's seed (a seed outside `0..2^64` is folded to 64 bits
//! by [`game_seed`]`(seed, u64::MAX)`); each game derives every random choice of the hand from it
//! with [`super::rng::SplitMix64`]; a built-in bot draws from its own seed (see [`super::bots`]).

use std::any::Any;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::error::{Error, Result};
use crate::scoring::ledger::Ledger;
use crate::variant::Variant;

use super::action::{Action, ActionKind, Pieces};
use super::event::Event;
use super::rng::{SplitMix64, game_seed};

/// A card game's part of the table (what its ruleset's `table()` returns).
pub trait CardPart: Send + Sync + std::fmt::Debug {
    /// Seats at the table.
    fn seats(&self) -> usize;
    /// How the game names its pieces (codes ↔ notation).
    fn pieces(&self) -> Pieces;
    /// Pieces in the game (54, 216, 24): what the conservation check counts.
    fn deck_size(&self) -> usize;
    /// Deal a hand from `seed` with `dealer` (the seat the game starts from: 斗地主's first
    /// bidder, 够级's and 顶牛's dealer) and the previous hand's carry (the game's own JSON, from
    /// [`CardEnd::carry`]).
    fn deal(&self, seed: u64, dealer: usize, carry: Option<&Value>) -> Result<Box<dyn CardHand>>;
    /// Room for the table's log at the deal (records of a typical hand: no growing on the way).
    fn log_capacity(&self) -> usize {
        128
    }
    /// The game's RL encoding (`game::encode`; `None`: the game has none).
    fn codec(&self) -> Option<Arc<dyn super::encode::CardCodec>> {
        None
    }
}

/// What a finished card hand reports.
#[derive(Clone, Debug)]
pub struct CardEnd {
    /// Net points per seat (zero-sum).
    pub balances: Vec<i64>,
    /// The winning seats (斗地主: the side that went out; 够级: the winning team; 顶牛: the winner).
    pub winners: Vec<usize>,
    /// The hand ended without being played out: 斗地主's 流局 (nobody bid in `redeal_cap` deals),
    /// a void 够级 hand (two 革命). No winner and nothing paid. A hand played out without a
    /// winner (够级's two teams level, an escape) is not exhausted.
    pub exhausted: bool,
    /// The settlement in the shared zero-sum ledger (written when first asked for:
    /// [`CardEnd::ledger`]).
    pub ledger: LazyLedger,
    /// The game's own result record (its keys are documented by the game), typed or JSON: its
    /// JSON is written when asked for ([`CardEnd::result_json`]), so simulating without
    /// `keep_results` never builds it.
    pub result: CardData,
    /// The named multiplier / place events of the settlement (ids of the preset's `[[fans]]`).
    pub fans: Vec<String>,
    /// The settled unit (斗地主: 底分 × 倍数; 够级: the winning team's points; 顶牛: the winner's gain).
    pub value: i64,
    /// The next hand's dealer (`None`: the game draws it).
    pub next_dealer: Option<usize>,
    /// What the next hand carries (the game's own JSON, typed until asked for:
    /// [`CardEnd::carry_json`]), `None` when nothing.
    pub carry: Option<CardData>,
}

impl CardEnd {
    /// The settlement in the shared zero-sum ledger (built on the first call; an error names
    /// what could not be settled).
    pub fn ledger(&self) -> Result<&Ledger> {
        self.ledger.get()
    }

    /// What the next hand carries, as the game's JSON.
    pub fn carry_json(&self) -> Option<Value> {
        self.carry.as_ref().map(CardData::to_json)
    }

    /// The game's own result record as JSON.
    pub fn result_json(&self) -> Value {
        self.result.to_json()
    }
}

/// A hand's ledger, built from the game's settlement when first asked for (a simulated hand
/// without the checking mode never asks).
#[derive(Clone)]
pub struct LazyLedger {
    cell: OnceLock<Result<Ledger>>,
    make: Option<Arc<dyn Fn() -> Result<Ledger> + Send + Sync>>,
}

impl LazyLedger {
    /// A ledger written by `make` on first use.
    pub fn new(make: impl Fn() -> Result<Ledger> + Send + Sync + 'static) -> LazyLedger {
        LazyLedger {
            cell: OnceLock::new(),
            make: Some(Arc::new(make)),
        }
    }

    /// A ledger already written.
    pub fn ready(l: Ledger) -> LazyLedger {
        LazyLedger {
            cell: OnceLock::from(Ok(l)),
            make: None,
        }
    }

    pub fn get(&self) -> Result<&Ledger> {
        self.cell
            .get_or_init(|| match &self.make {
                Some(f) => f(),
                None => Err(Error::settlement("the hand has no ledger")),
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

impl std::fmt::Debug for LazyLedger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cell.get() {
            Some(l) => l.fmt(f),
            None => f.write_str("LazyLedger(not yet written)"),
        }
    }
}

/// One hand of a card game, as the table drives it.
pub trait CardHand: Send + Sync + std::fmt::Debug {
    fn clone_box(&self) -> Box<dyn CardHand>;
    /// The seat to decide, `None` once the hand is over.
    fn to_act(&self) -> Option<usize>;
    /// The phase's name (`auction`, `play` …).
    fn phase(&self) -> &'static str;
    /// Every legal action of `seat` now (empty for the others), in a fixed order.
    fn legal_into(&self, seat: usize, out: &mut Vec<Action>);
    /// The number of legal actions of the seat to act (the simulator's allocation-free path).
    fn legal_count(&mut self) -> usize;
    /// The `i`-th legal action of the seat to act (the order of [`Self::legal_into`]).
    fn legal_nth(&mut self, i: usize) -> Action;
    /// Apply an action (checked: an illegal one is an error and changes nothing) and push the
    /// events it caused after its `action` record (which the table writes).
    fn step(&mut self, a: &Action, out: &mut Vec<Event>) -> Result<()>;
    /// Apply the `i`-th legal action of the seat to act, what `step(&legal_nth(i))` does (the
    /// simulator's path: a game may skip checking again what it listed itself).
    fn step_nth(&mut self, i: usize, out: &mut Vec<Event>) -> Result<()> {
        let a = self.legal_nth(i);
        self.step(&a, out)
    }
    /// The game's greedy bot's action for the seat to act.
    fn greedy(&mut self, rng: &mut SplitMix64) -> Action;
    /// The events of the deal (after `start`).
    fn deal_events(&self, out: &mut Vec<Event>);
    /// The result once the hand is over.
    fn end(&self) -> Option<&CardEnd>;
    /// `(pieces accounted for, pieces in the game)`: equal after every step.
    fn piece_count(&self) -> (usize, usize);
    /// The piece codes a seat holds.
    fn hand(&self, seat: usize) -> Vec<u8>;
    /// What `seat` may see (the game's observation record).
    fn observation(&self, seat: usize) -> Value;
    /// The game's own invariants, checked by the simulator's checking mode after the deal and
    /// after every step (斗地主: 54 cards and the multiplier equal to the product of the recorded
    /// doublings; 够级: tribute moving the right cards, a complete finishing order, points as
    /// §7 says; 顶牛: 24 tiles, payments zero-sum, points equal to 扣 pips). An error names the
    /// broken invariant.
    fn check(&self) -> Result<()> {
        Ok(())
    }
    /// The hand as `Any`, for its game's read-only encoder (`game::encode::CardCodec`).
    fn as_any(&self) -> &dyn std::any::Any;
}

/// One hand of a card game at the table.
#[derive(Debug)]
pub struct CardTable {
    pub variant: Arc<Variant>,
    pub seed: i128,
    pub dealer: usize,
    pub seats: usize,
    pub pieces: Pieces,
    pub version: u64,
    /// Decisions taken (plays and passes, bids …).
    pub turns: u32,
    pub events: Vec<Event>,
    pub hand: Box<dyn CardHand>,
    /// The ledger before the hand is over (written when first asked for).
    empty: OnceLock<Ledger>,
}

impl Clone for CardTable {
    fn clone(&self) -> Self {
        CardTable {
            variant: self.variant.clone(),
            seed: self.seed,
            dealer: self.dealer,
            seats: self.seats,
            pieces: self.pieces,
            version: self.version,
            turns: self.turns,
            events: self.events.clone(),
            hand: self.hand.clone_box(),
            empty: self.empty.clone(),
        }
    }
}

/// A card game's own record kept typed in the table's log ([`Event::Card`]'s `data`): it becomes
/// JSON only when a log is asked for (`to_json`), so simulating never builds JSON per event.
pub trait CardRecord: Send + Sync + std::fmt::Debug {
    /// The record's keys as a JSON object (`type` and `seat` are ignored: the table's record
    /// carries them).
    fn to_json(&self) -> Value;
    fn clone_box(&self) -> Box<dyn CardRecord>;
    /// For equality between records (replay checks).
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn CardRecord) -> bool;
}

/// A typed record: the game's value and the function that writes its JSON.
#[derive(Clone, Debug)]
pub struct Typed<T: 'static> {
    pub rec: T,
    pub render: fn(&T) -> Value,
}

impl<T> CardRecord for Typed<T>
where
    T: Clone + PartialEq + Send + Sync + std::fmt::Debug + 'static,
{
    fn to_json(&self) -> Value {
        (self.render)(&self.rec)
    }
    fn clone_box(&self) -> Box<dyn CardRecord> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn CardRecord) -> bool {
        other
            .as_any()
            .downcast_ref::<Self>()
            .is_some_and(|o| o.rec == self.rec)
    }
}

/// The further keys of a card record: JSON, or a typed record rendered on demand.
#[derive(Debug)]
pub enum CardData {
    Json(Box<Value>),
    Rec(Box<dyn CardRecord>),
}

impl CardData {
    /// The keys as a JSON object.
    pub fn to_json(&self) -> Value {
        match self {
            CardData::Json(v) => (**v).clone(),
            CardData::Rec(r) => r.to_json(),
        }
    }
}

impl Clone for CardData {
    fn clone(&self) -> Self {
        match self {
            CardData::Json(v) => CardData::Json(v.clone()),
            CardData::Rec(r) => CardData::Rec(r.clone_box()),
        }
    }
}

impl PartialEq for CardData {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (CardData::Json(a), CardData::Json(b)) => a == b,
            (CardData::Rec(a), CardData::Rec(b)) => a.same(&**b),
            (a, b) => a.to_json() == b.to_json(),
        }
    }
}

/// A table record of a game's typed record `rec` (type `name`, seat `seat`), its JSON written
/// by `render` when a log is asked for.
pub fn typed_record<T>(
    name: &'static str,
    seat: Option<u8>,
    rec: T,
    render: fn(&T) -> Value,
) -> Event
where
    T: Clone + PartialEq + Send + Sync + std::fmt::Debug + 'static,
{
    Event::Card {
        name,
        seat,
        tiles: Vec::new(),
        value: None,
        data: Some(CardData::Rec(Box::new(Typed { rec, render }))),
    }
}

/// A table record of a game's JSON record named `name` (its `type` key, if any, is dropped;
/// `seat` is kept as the seat).
pub fn json_record(name: &'static str, v: Value) -> Event {
    let seat = v.get("seat").and_then(Value::as_u64).map(|s| s as u8);
    let mut v = v;
    if let Value::Object(m) = &mut v {
        m.remove("type");
        m.remove("seat");
    }
    Event::Card {
        name,
        seat,
        tiles: Vec::new(),
        value: None,
        data: Some(CardData::Json(Box::new(v))),
    }
}

/// The 64-bit seed a card game deals with.
pub fn hand_seed(seed: i128) -> u64 {
    u64::try_from(seed).unwrap_or_else(|_| game_seed(seed, u64::MAX))
}

impl CardTable {
    /// Deal a hand (`carry`: the previous hand's [`CardEnd::carry`]).
    pub fn new(
        variant: Arc<Variant>,
        part: &dyn CardPart,
        seed: i128,
        dealer: usize,
        carry: Option<Value>,
        options: Arc<Value>,
    ) -> Result<CardTable> {
        let seats = part.seats();
        if dealer >= seats {
            return Err(Error::rule(format!(
                "dealer is a seat 0..{} of {}",
                seats - 1,
                variant.id()
            )));
        }
        if seats < 2 {
            return Err(Error::settlement("a hand needs at least two seats"));
        }
        let hand = part.deal(hand_seed(seed), dealer, carry.as_ref())?;
        let mut events = Vec::with_capacity(part.log_capacity());
        events.push(Event::Start {
            variant: variant.id().to_string(),
            options,
            seed,
            dealer: dealer as u8,
            prevalent_wind: 0,
            wall: None,
            carry,
            set_aside: 0,
            position: None,
        });
        hand.deal_events(&mut events);
        let mut t = CardTable {
            variant,
            seed,
            dealer,
            seats,
            pieces: part.pieces(),
            version: 0,
            turns: 0,
            events,
            hand,
            empty: OnceLock::new(),
        };
        t.close();
        Ok(t)
    }

    pub fn to_act(&self) -> Option<usize> {
        self.hand.to_act()
    }

    pub fn is_done(&self) -> bool {
        self.hand.to_act().is_none()
    }

    pub fn phase(&self) -> &'static str {
        if self.is_done() {
            "done"
        } else {
            self.hand.phase()
        }
    }

    pub fn legal_actions(&self, seat: usize) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_into(seat, &mut v);
        v
    }

    pub fn legal_into(&self, seat: usize, out: &mut Vec<Action>) {
        out.clear();
        if self.hand.to_act() == Some(seat) {
            self.hand.legal_into(seat, out);
        }
    }

    /// Apply one action (checked); an illegal one is `Error::IllegalAction` and changes nothing.
    pub fn step(&mut self, a: &Action) -> Result<()> {
        let Some(to_act) = self.hand.to_act() else {
            return Err(Error::illegal("the hand is over"));
        };
        match a.kind {
            ActionKind::AutoPlay => {
                return Err(Error::illegal(
                    "托管 is not played at card tables: let a bot play the seat",
                ));
            }
            ActionKind::Escape if usize::from(a.seat) >= self.seats => {
                return Err(Error::illegal(format!(
                    "seat {} is not at the table",
                    a.seat
                )));
            }
            ActionKind::Escape => {}
            _ if usize::from(a.seat) != to_act => {
                return Err(Error::illegal(format!(
                    "{}: it is seat {to_act}'s turn",
                    a.describe(self.pieces)
                )));
            }
            _ => {}
        }
        let n = self.events.len();
        self.events.push(Event::Action(a.clone()));
        if let Err(e) = self.hand.step(a, &mut self.events) {
            self.events.truncate(n);
            return Err(match e {
                Error::IllegalAction(_) => e,
                other => Error::illegal(format!("{}: {other}", a.describe(self.pieces))),
            });
        }
        self.version += 1;
        self.turns += 1;
        self.close();
        // The checked path writes the settlement at once, so that a ledger that cannot be
        // written is this step's error, never an empty ledger later (the simulator's bots step
        // by `bot_step`, which leaves it to the checking mode).
        if let Some(e) = self.hand.end() {
            e.ledger()?;
        }
        Ok(())
    }

    /// Apply an action taken from `legal_actions` (the games check cheaply: the same as `step`).
    pub fn apply(&mut self, a: &Action) -> Result<()> {
        self.step(a)
    }

    /// Write the `end` record once the hand is over.
    fn close(&mut self) {
        if let Some(e) = self.hand.end() {
            if !matches!(self.events.last(), Some(Event::End { .. })) {
                self.events.push(Event::End {
                    winners: e.winners.iter().map(|&w| w as u8).collect(),
                    balances: e.balances.clone(),
                    exhausted: e.exhausted,
                });
            }
        }
    }

    /// The hand's ledger: the settlement once the hand is over (an empty ledger before). A
    /// settlement that cannot be written is the error of the `step` that ended the hand (and of
    /// the simulator's checking mode); only a hand ended by `bot_step` outside the checking mode
    /// can show the empty ledger for it.
    pub fn ledger(&self) -> &Ledger {
        match self.hand.end().map(CardEnd::ledger) {
            Some(Ok(l)) => l,
            _ => self.empty.get_or_init(|| {
                Ledger::new(
                    super::table::seat_names(self.seats),
                    crate::scoring::ledger::SettlementRules::default(),
                )
                .expect("seat names are distinct and there are at least two")
            }),
        }
    }

    pub fn result(&self) -> Option<&CardEnd> {
        self.hand.end()
    }

    /// Let a built-in bot act for the seat to act and apply its action: what
    /// `step(&bot_action(bot))` does, without checking again an action the bot took from the
    /// game's legal list (the simulator's path).
    pub fn bot_step(&mut self, bot: &mut super::bots::Bot) -> Result<()> {
        if self.hand.to_act().is_none() {
            return Err(Error::illegal("the hand is over"));
        }
        let (nth, a) = bot.card_choice(self.hand.as_mut());
        let Some(i) = nth else {
            return self.step(&a);
        };
        let n = self.events.len();
        self.events.push(Event::Action(a));
        if let Err(e) = self.hand.step_nth(i, &mut self.events) {
            let what = match &self.events[n] {
                Event::Action(a) => a.describe(self.pieces),
                _ => String::new(),
            };
            self.events.truncate(n);
            return Err(match e {
                Error::IllegalAction(_) => e,
                other => Error::illegal(format!("{what}: {other}")),
            });
        }
        self.version += 1;
        self.turns += 1;
        self.close();
        Ok(())
    }

    /// The seat to act's action under a built-in bot, without listing every legal action:
    /// `random` draws an index below the legal count from the bot's generator (as
    /// [`super::bots::Bot::choose`] does over the list), `greedy` / `defensive` ask the game's
    /// greedy bot.
    pub fn bot_action(&mut self, bot: &mut super::bots::Bot) -> Action {
        bot.card_action(self.hand.as_mut())
    }
}
