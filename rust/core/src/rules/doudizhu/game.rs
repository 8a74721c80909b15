//! The state machine of one 斗地主 hand (doudizhu.md §3–§5, §8–§9): deal from a seed, the auction
//! (with redeals), 明牌, play, settlement, 逃跑 — plus the event log and its replay.
//!
//! Shape (for the common table engine): [`Game::new`]`(rules, seed, carry)`, [`Game::to_act`],
//! [`Game::legal_actions`], [`Game::step`] (an illegal action is refused with a typed error and
//! changes nothing), [`Game::observation`], [`Game::events`], [`Game::outcome`] and
//! [`Game::next_carry`]. A hand may span several deals when everybody passes (redeal); the log
//! holds every deal.

use std::collections::VecDeque;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::error::{Error, Result};

use super::auction::{Auction, AuctionResult, Bid};
use super::cards::{BIG_JOKER, Card, Cards, SMALL_JOKER, TWO};
use super::movegen::legal_moves_into;
use super::moves::{Kind, Reading, beating_reading, readings};
use super::rng::Rng;
use super::rules::{AllPass, DdzRules, FirstBidder};
use super::settle::{
    DealRecord, Settlement, Spring, bomb_doublings, escape_penalty, multiplier_of, settle,
};

/// What carries over to the next hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Carry {
    /// The first bidder of the next hand under `first_bidder = rotate` (the system's pick for
    /// the first hand).
    pub first_bidder: u8,
    /// The seat that went out last hand (`first_bidder = last_winner`).
    pub last_winner: Option<u8>,
}

/// A player action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// 不叫 / 不抢 / 不出.
    Pass,
    /// 叫分.
    Bid(u8),
    /// 叫地主 (call_rob auction).
    Call,
    /// 抢地主.
    Rob,
    /// 明牌.
    Show,
    /// Play without showing.
    NoShow,
    /// Play cards, optionally declaring the reading (§6.8).
    Play(Cards, Option<Reading>),
}

impl Action {
    pub fn type_name(self) -> &'static str {
        match self {
            Action::Pass => "pass",
            Action::Bid(_) => "bid",
            Action::Call => "call",
            Action::Rob => "rob",
            Action::Show => "show",
            Action::NoShow => "no_show",
            Action::Play(..) => "play",
        }
    }

    /// JSON form: `{"type": "play", "cards": "3334", "reading": ["trio_single", "3", 1]}`,
    /// `{"type": "bid", "bid": 2}`, `{"type": "pass"}` …
    pub fn to_json(self) -> Value {
        let mut v = json!({"type": self.type_name()});
        match self {
            Action::Bid(b) => v["bid"] = json!(b),
            Action::Play(c, r) => {
                v["cards"] = json!(c.to_string());
                if let Some(r) = r {
                    v["reading"] = reading_json(r);
                }
            }
            _ => {}
        }
        v
    }

    /// Parse the JSON form (unknown keys refused).
    pub fn from_json(v: &Value) -> Result<Action> {
        let obj = v.as_object().ok_or_else(|| {
            Error::hand(format!(
                "an action is an object like {{\"type\": \"pass\"}}, got {v}"
            ))
        })?;
        let ty = obj.get("type").and_then(Value::as_str).ok_or_else(|| {
            Error::hand("an action needs \"type\": pass, bid, call, rob, show, no_show or play")
        })?;
        let allowed: &[&str] = match ty {
            "bid" => &["type", "bid", "seat"],
            "play" => &["type", "cards", "reading", "seat"],
            _ => &["type", "seat"],
        };
        if let Some(k) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(Error::hand(format!(
                "unknown key {k:?} in a {ty} action; keys: {}",
                allowed.join(", ")
            )));
        }
        Ok(match ty {
            "pass" => Action::Pass,
            "call" => Action::Call,
            "rob" => Action::Rob,
            "show" => Action::Show,
            "no_show" => Action::NoShow,
            "bid" => {
                let b = obj
                    .get("bid")
                    .and_then(Value::as_u64)
                    .and_then(|b| u8::try_from(b).ok())
                    .ok_or_else(|| Error::hand("a bid action needs \"bid\": 1, 2 or 3"))?;
                Action::Bid(b)
            }
            "play" => {
                let cards = obj
                    .get("cards")
                    .and_then(Value::as_str)
                    .ok_or_else(|| Error::hand("a play action needs \"cards\", e.g. \"3334\""))?;
                let cards = Cards::parse(cards)?;
                let reading = match obj.get("reading") {
                    None | Some(Value::Null) => None,
                    Some(r) => Some(parse_reading_json(r)?),
                };
                Action::Play(cards, reading)
            }
            other => {
                return Err(Error::hand(format!(
                    "unknown action type {other:?}; types: pass, bid, call, rob, show, no_show, play"
                )));
            }
        })
    }
}

/// `[type, main rank code, length]`.
pub fn reading_json(r: Reading) -> Value {
    json!([r.kind.name(), r.main_code().to_string(), r.len])
}

/// Parse `[type, main rank code, length]`.
pub fn parse_reading_json(v: &Value) -> Result<Reading> {
    let a = v.as_array().filter(|a| a.len() == 3).ok_or_else(|| {
        Error::hand(format!(
            "a reading is [type, main rank, length], e.g. [\"plane_single\", \"7\", 2]; got {v}"
        ))
    })?;
    let kind = a[0]
        .as_str()
        .ok_or_else(|| Error::hand("the reading's type is a string"))?;
    let main = a[1]
        .as_str()
        .ok_or_else(|| Error::hand("the reading's main rank is a card code string"))?;
    let len = a[2]
        .as_i64()
        .ok_or_else(|| Error::hand("the reading's length is an integer"))?;
    Reading::from_parts(kind, main, len)
}

/// Why the multiplier doubled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DoubleReason {
    Bomb,
    Rocket,
    Rob,
    Show,
    Spring,
    AntiSpring,
}

impl DoubleReason {
    pub const fn name(self) -> &'static str {
        match self {
            DoubleReason::Bomb => "bomb",
            DoubleReason::Rocket => "rocket",
            DoubleReason::Rob => "rob",
            DoubleReason::Show => "show",
            DoubleReason::Spring => "spring",
            DoubleReason::AntiSpring => "anti_spring",
        }
    }
}

/// How the hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutcomeKind {
    LandlordWon,
    FarmersWon,
    /// A player escaped (逃跑).
    Escape(u8),
    /// Nobody bid under `all_pass = end_zero`, or `redeal_cap` all-pass deals in a row under
    /// `all_pass = redeal` (流局: no score).
    NoGame,
}

/// The result of a finished hand: per-seat points (zero-sum with `house`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub kind: OutcomeKind,
    /// Points per seat (seat order).
    pub scores: [i64; 3],
    /// Points that left the table (escape penalty with `escape_to = none`, split remainders).
    pub house: i64,
    pub settlement: Option<Settlement>,
    /// 游戏币 per seat and the house (coin room).
    pub coins: Option<([i64; 3], i64)>,
}

/// A party of a payment: a seat, or the house (the table: escape penalties that leave the table,
/// split remainders).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Party {
    Seat(u8),
    House,
}

impl Party {
    fn json(self) -> Value {
        match self {
            Party::Seat(s) => json!(s),
            Party::House => json!("house"),
        }
    }
}

impl Outcome {
    /// The settlement as payment lines `(payer, payee, amount)`, amounts > 0; they produce exactly
    /// `scores` and `house`.
    pub fn payments(&self) -> Vec<(Party, Party, i64)> {
        let mut out = Vec::new();
        match self.kind {
            OutcomeKind::LandlordWon | OutcomeKind::FarmersWon => {
                // The landlord is the seat whose score is ±2 units; the others pay or receive one.
                let l = (0..3u8)
                    .max_by_key(|&s| self.scores[s as usize].abs())
                    .unwrap_or(0);
                for f in (0..3u8).filter(|&s| s != l) {
                    let a = self.scores[f as usize];
                    if a < 0 {
                        out.push((Party::Seat(f), Party::Seat(l), -a));
                    } else if a > 0 {
                        out.push((Party::Seat(l), Party::Seat(f), a));
                    }
                }
            }
            OutcomeKind::Escape(e) => {
                for s in (0..3u8).filter(|&s| s != e) {
                    let a = self.scores[s as usize];
                    if a > 0 {
                        out.push((Party::Seat(e), Party::Seat(s), a));
                    }
                }
                if self.house > 0 {
                    out.push((Party::Seat(e), Party::House, self.house));
                }
            }
            OutcomeKind::NoGame => {}
        }
        out
    }

    /// The settlement in the shared zero-sum ledger (`crate::scoring::ledger`): one `WIN` event for
    /// a played deal, one `PENALTY` event for an escape (with a fourth party `house` when points
    /// leave the table). `names` are the seats' names.
    pub fn ledger(&self, names: [&str; 3]) -> Result<crate::scoring::ledger::Ledger> {
        use crate::scoring::ledger::{Ledger, SettlementRules};
        let pays = self.payments();
        let house = pays.iter().any(|p| p.1 == Party::House);
        let mut seats: Vec<String> = names.iter().map(|s| (*s).to_string()).collect();
        if house {
            seats.push("house".into());
        }
        let mut l = Ledger::new(seats, SettlementRules::default())?;
        let name = |p: Party| match p {
            Party::Seat(s) => names[s as usize % 3].to_string(),
            Party::House => "house".to_string(),
        };
        let lines: Vec<(String, String, i64)> = pays
            .iter()
            .map(|&(a, b, x)| (name(a), name(b), x))
            .collect();
        let (kind, reason) = match self.kind {
            OutcomeKind::LandlordWon => ("WIN", "斗地主: the landlord went out".to_string()),
            OutcomeKind::FarmersWon => ("WIN", "斗地主: a farmer went out".to_string()),
            OutcomeKind::Escape(s) => (
                "PENALTY",
                format!("逃跑: {} left the hand", names[s as usize % 3]),
            ),
            OutcomeKind::NoGame => return Ok(l),
        };
        l.record_payments(kind, &reason, &lines, None)?;
        l.end_hand();
        Ok(l)
    }
}

/// One record of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Deal {
        /// The hand's seed (`None` for given deals).
        seed: Option<u64>,
        deal: u32,
        first_bidder: u8,
        hands: [u64; 3],
        bottom: u64,
        marked: Option<Card>,
    },
    Act {
        seat: u8,
        action: Action,
    },
    Redeal {
        deal: u32,
    },
    Landlord {
        seat: u8,
        bid: u8,
        robs: u8,
        bottom: u64,
        /// Chosen at random after three all-pass deals (`random_landlord_after_3`).
        forced: bool,
    },
    Double {
        reason: DoubleReason,
        seat: Option<u8>,
        multiplier: i64,
    },
    Escape {
        seat: u8,
        penalty: i64,
    },
    End(Outcome),
}

/// The physical cards of a 54-bit set.
pub fn cards_of_bits(bits: u64) -> Vec<Card> {
    (0..54u8)
        .filter(|c| bits & (1 << c) != 0)
        .map(Card)
        .collect()
}

fn bits_of(list: &[Card]) -> u64 {
    list.iter().fold(0, |a, c| a | (1u64 << c.0))
}

fn multiset_of_bits(bits: u64) -> Cards {
    let mut x = 0u64;
    for r in 0..13u32 {
        x |= u64::from(((bits >> (4 * r)) & 0xF).count_ones()) << (4 * r);
    }
    x |= ((bits >> 52) & 1) << (4 * SMALL_JOKER as u32);
    x |= ((bits >> 53) & 1) << (4 * BIG_JOKER as u32);
    Cards(x)
}

fn suited(bits: u64) -> String {
    cards_of_bits(bits)
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn seat_json(s: Option<u8>) -> Value {
    s.map_or(Value::Null, |s| json!(s))
}

impl Event {
    /// JSON form of the record.
    pub fn to_json(&self) -> Value {
        match self {
            Event::Deal {
                seed,
                deal,
                first_bidder,
                hands,
                bottom,
                marked,
            } => json!({
                "type": "deal", "seed": seed, "deal": deal, "first_bidder": first_bidder,
                "hands": [suited(hands[0]), suited(hands[1]), suited(hands[2])],
                "bottom": suited(*bottom),
                "marked": marked.map_or(Value::Null, |c| json!(c.to_string())),
            }),
            Event::Act { seat, action } => {
                let mut v = action.to_json();
                v["seat"] = json!(seat);
                v
            }
            Event::Redeal { deal } => json!({"type": "redeal", "deal": deal}),
            Event::Landlord {
                seat,
                bid,
                robs,
                bottom,
                forced,
            } => json!({
                "type": "landlord", "seat": seat, "bid": bid, "robs": robs,
                "bottom": suited(*bottom), "forced": forced,
            }),
            Event::Double {
                reason,
                seat,
                multiplier,
            } => json!({
                "type": "double", "reason": reason.name(), "seat": seat_json(*seat),
                "multiplier": multiplier,
            }),
            Event::Escape { seat, penalty } => {
                json!({"type": "escape", "seat": seat, "penalty": penalty})
            }
            Event::End(o) => outcome_json(o),
        }
    }
}

/// JSON of an outcome: the settlement record (ledger style: payments per seat, zero-sum with
/// the house).
pub fn outcome_json(o: &Outcome) -> Value {
    let (result, winner) = match o.kind {
        OutcomeKind::LandlordWon => ("landlord_won", Value::Null),
        OutcomeKind::FarmersWon => ("farmers_won", Value::Null),
        OutcomeKind::Escape(s) => ("escape", json!(s)),
        OutcomeKind::NoGame => ("no_game", Value::Null),
    };
    let payments: Vec<Value> = o
        .payments()
        .iter()
        .map(|&(a, b, x)| json!({"payer": a.json(), "payee": b.json(), "amount": x}))
        .collect();
    let mut v = json!({
        "type": "settle", "result": result, "escaped": winner,
        "scores": o.scores, "house": o.house, "payments": payments,
    });
    if let Some(s) = &o.settlement {
        v["spring"] = json!(s.spring.name());
        v["multiplier"] = json!(s.multiplier);
        v["unit"] = json!(s.unit);
    }
    if let Some((c, h)) = o.coins {
        v["coins"] = json!(c);
        v["coin_house"] = json!(h);
    }
    v
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Auction,
    /// The landlord decides on 明牌.
    Show,
    Play,
    Over,
}

impl Phase {
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Auction => "auction",
            Phase::Show => "show",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// A given deal: three hands of 17, the 3 底牌 and the marked card.
pub type GivenDeal = ([Vec<Card>; 3], Vec<Card>, Option<Card>);

/// A recorded deal (replay).
#[derive(Clone, Copy, Debug)]
struct DealSpec {
    hands: [u64; 3],
    bottom: u64,
    marked: Option<Card>,
}

/// Deal 17/17/17 + 3 from `rng`: a uniformly random permutation of the pack.
fn deal_from(rng: &mut Rng) -> DealSpec {
    let mut pack: [u8; 54] = std::array::from_fn(|i| i as u8);
    rng.shuffle(&mut pack);
    let mut hands = [0u64; 3];
    for (i, &c) in pack[..51].iter().enumerate() {
        hands[i / 17] |= 1 << c;
    }
    let bottom = pack[51..].iter().fold(0u64, |a, &c| a | (1 << c));
    // The marked card (contest): one of the 51 dealt cards, uniformly.
    let marked = Card(pack[rng.below(51) as usize]);
    DealSpec {
        hands,
        bottom,
        marked: Some(marked),
    }
}

/// The state of one hand.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Arc<DdzRules>,
    seed: u64,
    carry: Carry,
    recorded: Option<VecDeque<DealSpec>>,
    deal_no: u32,
    all_pass_run: u32,
    first_bidder: u8,
    phase: Phase,
    auction: Auction,
    hands: [Cards; 3],
    phys: [u64; 3],
    bottom: u64,
    marked: Option<Card>,
    landlord: u8,
    bid: u8,
    robs: u8,
    shown: bool,
    to_act: u8,
    top: Option<(u8, Cards, Reading)>,
    passes: u8,
    plays: [u32; 3],
    bombs: u32,
    rockets: u32,
    doublings: u32,
    played: [Cards; 3],
    events: Vec<Event>,
    outcome: Option<Outcome>,
    winner: Option<u8>,
    scratch: Vec<(Cards, Reading)>,
}

impl Game {
    /// Deal a new hand from `seed` (deterministic) with the carry of the previous hand.
    pub fn new(rules: Arc<DdzRules>, seed: u64, carry: Carry) -> Game {
        let mut g = Game::blank(rules, seed, carry, None);
        g.start_deal();
        g
    }

    /// A hand with given deals (replay, tests): `deals[i]` = (three hands of 17, 底牌 of 3,
    /// marked card). More deals are needed only after all-pass redeals.
    pub fn with_deals(rules: Arc<DdzRules>, deals: Vec<GivenDeal>, carry: Carry) -> Result<Game> {
        let mut q = VecDeque::new();
        for (hands, bottom, marked) in deals {
            let hb = [bits_of(&hands[0]), bits_of(&hands[1]), bits_of(&hands[2])];
            let b = bits_of(&bottom);
            let all = hb[0] | hb[1] | hb[2] | b;
            let n: usize = hands.iter().map(Vec::len).sum::<usize>() + bottom.len();
            if hands.iter().any(|h| h.len() != 17) || bottom.len() != 3 {
                return Err(Error::hand("a deal is three hands of 17 cards and 3 底牌"));
            }
            if n != 54 || all.count_ones() != 54 {
                return Err(Error::hand("a deal uses each of the 54 cards exactly once"));
            }
            if let Some(m) = marked {
                if b & (1 << m.0) != 0 {
                    return Err(Error::hand(
                        "the marked card is one of the 51 dealt cards, not a 底牌",
                    ));
                }
            }
            q.push_back(DealSpec {
                hands: hb,
                bottom: b,
                marked,
            });
        }
        if q.is_empty() {
            return Err(Error::hand("with_deals needs at least one deal"));
        }
        let mut g = Game::blank(rules, 0, carry, Some(q));
        g.start_deal();
        if g.phase == Phase::Over && g.outcome.is_none() {
            return Err(Error::hand("not enough recorded deals"));
        }
        Ok(g)
    }

    fn blank(
        rules: Arc<DdzRules>,
        seed: u64,
        carry: Carry,
        recorded: Option<VecDeque<DealSpec>>,
    ) -> Game {
        let auction = Auction::new(&rules, 0, [false; 3]);
        Game {
            rules,
            seed,
            carry,
            recorded,
            deal_no: 0,
            all_pass_run: 0,
            first_bidder: carry.first_bidder % 3,
            phase: Phase::Auction,
            auction,
            hands: [Cards::EMPTY; 3],
            phys: [0; 3],
            bottom: 0,
            marked: None,
            landlord: 0,
            bid: 0,
            robs: 0,
            shown: false,
            to_act: 0,
            top: None,
            passes: 0,
            plays: [0; 3],
            bombs: 0,
            rockets: 0,
            doublings: 0,
            played: [Cards::EMPTY; 3],
            events: Vec::with_capacity(96),
            outcome: None,
            winner: None,
            scratch: Vec::with_capacity(64),
        }
    }

    fn start_deal(&mut self) {
        let spec = match &mut self.recorded {
            Some(q) => match q.pop_front() {
                Some(d) => d,
                None => {
                    // A replay without the next deal: stop here (the caller reports it).
                    self.phase = Phase::Over;
                    return;
                }
            },
            None => deal_from(&mut Rng::fork(self.seed, u64::from(self.deal_no))),
        };
        let first = match self.rules.first_bidder {
            FirstBidder::Rotate => {
                if self.deal_no == 0 {
                    self.carry.first_bidder % 3
                } else {
                    (self.first_bidder + 1) % 3
                }
            }
            FirstBidder::MarkedCard => spec.marked.map_or(0, |c| {
                (0..3u8)
                    .find(|&s| spec.hands[s as usize] & (1 << c.0) != 0)
                    .unwrap_or(0)
            }),
            FirstBidder::LastWinner => {
                if self.deal_no == 0 {
                    self.carry.last_winner.unwrap_or(self.carry.first_bidder) % 3
                } else {
                    (self.first_bidder + 1) % 3
                }
            }
        };
        self.first_bidder = first;
        self.phys = spec.hands;
        self.hands = spec.hands.map(multiset_of_bits);
        self.bottom = spec.bottom;
        self.marked = if self.rules.first_bidder == FirstBidder::MarkedCard {
            spec.marked
        } else {
            None
        };
        let must = self
            .hands
            .map(|h| (h.count(SMALL_JOKER) == 1 && h.count(BIG_JOKER) == 1) || h.count(TWO) == 4);
        self.auction = Auction::new(&self.rules, first, must);
        self.phase = Phase::Auction;
        self.to_act = first;
        self.events.push(Event::Deal {
            seed: self.recorded.is_none().then_some(self.seed),
            deal: self.deal_no,
            first_bidder: first,
            hands: spec.hands,
            bottom: spec.bottom,
            marked: self.marked,
        });
    }

    pub fn rules(&self) -> &DdzRules {
        &self.rules
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The seat to act, `None` when the hand is over.
    pub fn to_act(&self) -> Option<u8> {
        (self.phase != Phase::Over).then_some(self.to_act)
    }
    pub fn hand(&self, seat: u8) -> Cards {
        self.hands[seat as usize % 3]
    }
    /// The physical cards a seat holds (suited form).
    pub fn hand_cards(&self, seat: u8) -> Vec<Card> {
        cards_of_bits(self.phys[seat as usize % 3])
    }
    /// The landlord, once the auction has made one.
    pub fn landlord(&self) -> Option<u8> {
        (self.bid > 0).then_some(self.landlord)
    }
    pub fn bid(&self) -> u8 {
        self.bid
    }
    /// The current 倍数 (capped).
    pub fn multiplier(&self) -> i64 {
        multiplier_of(&self.rules, self.doublings).unwrap_or(i64::MAX)
    }
    /// The current top play of the trick: (seat, cards, reading).
    pub fn top(&self) -> Option<(u8, Cards, Reading)> {
        self.top
    }
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    pub fn events_json(&self) -> Vec<Value> {
        self.events.iter().map(Event::to_json).collect()
    }
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    /// Cards played so far by each seat.
    pub fn played(&self) -> [Cards; 3] {
        self.played
    }
    /// Cards still in the 底牌 (before a landlord takes them).
    pub fn bottom_pending(&self) -> Cards {
        if self.bid == 0 {
            multiset_of_bits(self.bottom)
        } else {
            Cards::EMPTY
        }
    }
    /// The 底牌 (known to all once the landlord is known).
    pub fn bottom_cards(&self) -> Vec<Card> {
        cards_of_bits(self.bottom)
    }
    /// Number of plays per seat.
    pub fn plays(&self) -> [u32; 3] {
        self.plays
    }
    pub fn deal_no(&self) -> u32 {
        self.deal_no
    }

    /// The carry for the next hand.
    pub fn next_carry(&self) -> Carry {
        Carry {
            first_bidder: (self.first_bidder + 1) % 3,
            last_winner: self.winner.or(self.carry.last_winner),
        }
    }

    /// The legal plays of the seat to act in the play phase (no pass), each with the reading it
    /// is played as; empty in other phases. Reuses an internal buffer.
    pub fn legal_moves(&mut self) -> &[(Cards, Reading)] {
        if self.phase != Phase::Play {
            self.scratch.clear();
            return &self.scratch;
        }
        let target = self.top.map(|t| t.2);
        legal_moves_into(
            self.hands[self.to_act as usize],
            &self.rules.moves,
            target,
            &mut self.scratch,
        );
        &self.scratch
    }

    /// Whether the seat to act may pass.
    pub fn may_pass(&self) -> bool {
        match self.phase {
            Phase::Play => self.top.is_some(),
            Phase::Auction => self.auction.legal().contains(&Bid::Pass),
            _ => false,
        }
    }

    /// Every legal action of `seat` (empty when it is not that seat's turn).
    pub fn legal_actions(&mut self, seat: u8) -> Vec<Action> {
        if self.phase == Phase::Over || seat != self.to_act {
            return Vec::new();
        }
        match self.phase {
            Phase::Auction => self
                .auction
                .legal()
                .into_iter()
                .map(|b| match b {
                    Bid::Pass => Action::Pass,
                    Bid::Points(p) => Action::Bid(p),
                    Bid::Call => Action::Call,
                    Bid::Rob => Action::Rob,
                })
                .collect(),
            Phase::Show => vec![Action::Show, Action::NoShow],
            Phase::Play => {
                let pass = self.top.is_some();
                let mut v: Vec<Action> = self
                    .legal_moves()
                    .iter()
                    .map(|&(c, r)| Action::Play(c, Some(r)))
                    .collect();
                if pass {
                    v.insert(0, Action::Pass);
                }
                v
            }
            Phase::Over => Vec::new(),
        }
    }

    /// [`Game::legal_actions`] without a mutable game: the legal actions of `seat` into `out`,
    /// the play phase's moves generated in `scratch` (same order: pass first when allowed).
    pub fn legal_actions_into(
        &self,
        seat: u8,
        out: &mut Vec<Action>,
        scratch: &mut Vec<(Cards, Reading)>,
    ) {
        out.clear();
        if self.phase == Phase::Over || seat != self.to_act {
            return;
        }
        match self.phase {
            Phase::Auction => out.extend(self.auction.legal().into_iter().map(|b| match b {
                Bid::Pass => Action::Pass,
                Bid::Points(p) => Action::Bid(p),
                Bid::Call => Action::Call,
                Bid::Rob => Action::Rob,
            })),
            Phase::Show => out.extend([Action::Show, Action::NoShow]),
            Phase::Play => {
                if self.top.is_some() {
                    out.push(Action::Pass);
                }
                legal_moves_into(
                    self.hands[self.to_act as usize],
                    &self.rules.moves,
                    self.top.map(|t| t.2),
                    scratch,
                );
                out.extend(scratch.iter().map(|&(c, r)| Action::Play(c, Some(r))));
            }
            Phase::Over => {}
        }
    }

    /// The seed the hand was dealt from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    fn double(&mut self, reason: DoubleReason, seat: Option<u8>) {
        self.doublings += 1;
        self.events.push(Event::Double {
            reason,
            seat,
            multiplier: self.multiplier(),
        });
    }

    /// Apply the action of the seat to act. An illegal action returns an `InvalidHand` error and
    /// leaves the state unchanged. Returns the number of new events.
    pub fn step(&mut self, action: Action) -> Result<usize> {
        let before = self.events.len();
        let seat = self.to_act;
        match self.phase {
            Phase::Over => return Err(Error::hand("the hand is over")),
            Phase::Auction => {
                let bid = match action {
                    Action::Pass => Bid::Pass,
                    Action::Bid(b) => Bid::Points(b),
                    Action::Call => Bid::Call,
                    Action::Rob => Bid::Rob,
                    other => {
                        return Err(Error::hand(format!(
                            "seat {seat} is in the auction: {} is not an auction action",
                            other.type_name()
                        )));
                    }
                };
                let robbing = self.auction.robbing();
                self.auction.step(bid)?;
                self.events.push(Event::Act { seat, action });
                if robbing && bid == Bid::Rob {
                    self.double(DoubleReason::Rob, Some(seat));
                }
                match self.auction.result() {
                    None => self.to_act = self.auction.to_act().unwrap_or(seat),
                    Some(AuctionResult::Landlord { seat: l, bid, robs }) => {
                        self.all_pass_run = 0;
                        self.make_landlord(l, bid, robs, false);
                    }
                    Some(AuctionResult::AllPass) => self.all_pass(),
                }
            }
            Phase::Show => {
                match action {
                    Action::Show => {
                        self.shown = true;
                        self.events.push(Event::Act { seat, action });
                        self.double(DoubleReason::Show, Some(seat));
                    }
                    Action::NoShow => self.events.push(Event::Act { seat, action }),
                    other => {
                        return Err(Error::hand(format!(
                            "the landlord decides on 明牌 first (show or no_show), not {}",
                            other.type_name()
                        )));
                    }
                }
                self.phase = Phase::Play;
            }
            Phase::Play => match action {
                Action::Pass => {
                    let Some((owner, _, _)) = self.top else {
                        return Err(Error::hand(
                            "the leader of a trick may not pass: play any move",
                        ));
                    };
                    self.events.push(Event::Act { seat, action });
                    self.passes += 1;
                    if self.passes >= 2 {
                        self.top = None;
                        self.passes = 0;
                        self.to_act = owner;
                    } else {
                        self.to_act = (seat + 1) % 3;
                    }
                }
                Action::Play(cards, declared) => {
                    let reading = self.check_play(seat, cards, declared)?;
                    self.apply_play(seat, cards, reading);
                }
                other => {
                    return Err(Error::hand(format!(
                        "seat {seat} is playing cards: {} is not a play action (play or pass)",
                        other.type_name()
                    )));
                }
            },
        }
        Ok(self.events.len() - before)
    }

    /// [`Game::step`] for an action taken from this step's legal list (`legal_actions`,
    /// `legal_moves`): a play with its reading is applied without checking it again; any other
    /// action goes through `step`. The same result as `step` for every legal action.
    pub fn step_legal(&mut self, action: Action) -> Result<usize> {
        match (self.phase, action) {
            (Phase::Play, Action::Play(cards, Some(reading))) => {
                let before = self.events.len();
                self.apply_play(self.to_act, cards, reading);
                Ok(self.events.len() - before)
            }
            _ => self.step(action),
        }
    }

    /// Validate a play; returns the reading it is played as.
    fn check_play(&self, seat: u8, cards: Cards, declared: Option<Reading>) -> Result<Reading> {
        let hand = self.hands[seat as usize];
        if cards.is_empty() {
            return Err(Error::hand(
                "a play needs cards (pass with {\"type\": \"pass\"})",
            ));
        }
        if !cards.is_subset(hand) {
            return Err(Error::hand(format!(
                "seat {seat} does not hold {cards} (hand {hand})"
            )));
        }
        let rs = readings(cards, &self.rules.moves);
        if rs.is_empty() {
            return Err(Error::hand(format!(
                "{cards} is not a move (no card type reads it)"
            )));
        }
        let target = self.top.map(|t| t.2);
        match (declared, target) {
            (Some(d), _) if !rs.contains(d) => Err(Error::hand(format!(
                "{cards} cannot be read as {d}; its readings: {}",
                rs.iter()
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            (Some(d), Some(t)) if !d.beats(t) => {
                Err(Error::hand(format!("{cards} as {d} does not beat {t}")))
            }
            (Some(d), _) => Ok(d),
            (None, None) => rs
                .canonical()
                .ok_or_else(|| Error::hand(format!("{cards} is not a move"))),
            (None, Some(t)) => beating_reading(cards, t, &self.rules.moves).ok_or_else(|| {
                Error::hand(format!(
                    "{cards} ({}) does not beat {t}",
                    rs.canonical().map_or(String::new(), |r| r.to_string())
                ))
            }),
        }
    }

    fn apply_play(&mut self, seat: u8, cards: Cards, reading: Reading) {
        let s = seat as usize;
        self.hands[s] = self.hands[s].minus(cards);
        // Remove physical cards: the lowest suits of each rank (the lowest held bits of the
        // rank's range).
        for (r, n) in cards.iter() {
            let (lo, hi) = if r >= SMALL_JOKER {
                (
                    52 + u32::from(r - SMALL_JOKER),
                    53 + u32::from(r - SMALL_JOKER),
                )
            } else {
                (4 * u32::from(r), 4 * u32::from(r) + 3)
            };
            let mut held = self.phys[s] & (((1u64 << (hi - lo + 1)) - 1) << lo);
            for _ in 0..n {
                if held == 0 {
                    break;
                }
                self.phys[s] &= !(held & held.wrapping_neg());
                held &= held - 1;
            }
        }
        self.played[s] = self.played[s].plus(cards);
        self.plays[s] += 1;
        self.events.push(Event::Act {
            seat,
            action: Action::Play(cards, Some(reading)),
        });
        match reading.kind {
            Kind::Bomb => {
                self.bombs += 1;
                if bomb_doublings(&self.rules, self.bombs + self.rockets)
                    > bomb_doublings(&self.rules, self.bombs + self.rockets - 1)
                {
                    self.double(DoubleReason::Bomb, Some(seat));
                }
            }
            Kind::Rocket => {
                self.rockets += 1;
                if bomb_doublings(&self.rules, self.bombs + self.rockets)
                    > bomb_doublings(&self.rules, self.bombs + self.rockets - 1)
                {
                    self.double(DoubleReason::Rocket, Some(seat));
                }
            }
            _ => {}
        }
        if self.hands[s].is_empty() {
            self.finish(seat);
            return;
        }
        self.top = Some((seat, cards, reading));
        self.passes = 0;
        self.to_act = (seat + 1) % 3;
    }

    fn make_landlord(&mut self, l: u8, bid: u8, robs: u8, forced: bool) {
        self.landlord = l;
        self.bid = bid;
        self.robs = robs;
        self.hands[l as usize] = self.hands[l as usize].plus(multiset_of_bits(self.bottom));
        self.phys[l as usize] |= self.bottom;
        self.events.push(Event::Landlord {
            seat: l,
            bid,
            robs,
            bottom: self.bottom,
            forced,
        });
        self.to_act = l;
        self.phase = if self.rules.show_hand {
            Phase::Show
        } else {
            Phase::Play
        };
    }

    fn all_pass(&mut self) {
        self.all_pass_run += 1;
        match self.rules.all_pass {
            AllPass::EndZero => self.no_game(),
            // the seed redeals without a limit; `redeal_cap` ends a run of all-pass deals as 流局
            AllPass::Redeal if self.all_pass_run >= self.rules.redeal_cap => self.no_game(),
            AllPass::RandomLandlordAfter3 if self.all_pass_run >= 3 => {
                let mut rng = Rng::fork(self.seed ^ 0x5EED_u64, u64::from(self.deal_no));
                let l = rng.below(3) as u8;
                self.make_landlord(l, 1, 0, true);
            }
            _ => {
                self.deal_no += 1;
                self.events.push(Event::Redeal { deal: self.deal_no });
                self.start_deal();
            }
        }
    }

    /// Nobody is landlord: the hand ends with no score.
    fn no_game(&mut self) {
        self.end(Outcome {
            kind: OutcomeKind::NoGame,
            scores: [0; 3],
            house: 0,
            settlement: None,
            coins: None,
        });
    }

    fn finish(&mut self, winner: u8) {
        self.winner = Some(winner);
        let l = self.landlord;
        let down = (l + 1) % 3;
        let up = (l + 2) % 3;
        let rec = DealRecord {
            bid: self.bid,
            landlord_won: winner == l,
            bombs: self.bombs,
            rockets: self.rockets,
            landlord_hands: self.plays[l as usize],
            farmer_hands: [self.plays[down as usize], self.plays[up as usize]],
            robs: u32::from(self.robs),
            shown: self.shown,
        };
        let sp = super::settle::spring_of(&self.rules, &rec);
        match sp {
            Spring::Spring => self.double(DoubleReason::Spring, None),
            Spring::AntiSpring => self.double(DoubleReason::AntiSpring, None),
            Spring::None => {}
        }
        let s = match settle(&self.rules, &rec) {
            Ok(s) => s,
            Err(_) => {
                // Only an overflow can fail here; settle at the largest unit instead of panicking.
                Settlement {
                    spring: sp,
                    doublings: self.doublings,
                    multiplier: self.multiplier(),
                    unit: 0,
                    scores: [0; 3],
                    coin: None,
                }
            }
        };
        let mut scores = [0i64; 3];
        scores[l as usize] = s.scores[0];
        scores[down as usize] = s.scores[1];
        scores[up as usize] = s.scores[2];
        let coins = s.coin.map(|c| {
            let mut per = [0i64; 3];
            per[l as usize] = c[0];
            per[down as usize] = c[1];
            per[up as usize] = c[2];
            (per, c[3])
        });
        self.end(Outcome {
            kind: if winner == l {
                OutcomeKind::LandlordWon
            } else {
                OutcomeKind::FarmersWon
            },
            scores,
            house: 0,
            settlement: Some(s),
            coins,
        });
    }

    fn end(&mut self, o: Outcome) {
        self.events.push(Event::End(o));
        self.outcome = Some(o);
        self.phase = Phase::Over;
    }

    /// 逃跑: `seat` abandons the hand (any time before the end). It pays the penalty of §9.4; the
    /// hand ends with no other settlement.
    pub fn escape(&mut self, seat: u8) -> Result<()> {
        if seat > 2 {
            return Err(Error::hand(format!(
                "seat {seat} does not exist (seats 0, 1, 2)"
            )));
        }
        if self.phase == Phase::Over {
            return Err(Error::hand("the hand is over"));
        }
        let (anybody, bid) = if self.phase == Phase::Auction {
            (self.auction.anybody_bid(), self.auction.high_bid())
        } else {
            (true, self.bid)
        };
        let penalty = escape_penalty(&self.rules, anybody, bid, self.multiplier())?;
        let mut scores = [0i64; 3];
        scores[seat as usize] = -penalty;
        let mut house = penalty;
        if self.rules.escape_split {
            let half = penalty / 2;
            for k in 1..3 {
                scores[((seat + k) % 3) as usize] = half;
            }
            house = penalty - 2 * half;
        }
        self.events.push(Event::Escape { seat, penalty });
        self.end(Outcome {
            kind: OutcomeKind::Escape(seat),
            scores,
            house,
            settlement: None,
            coins: None,
        });
        Ok(())
    }
}

fn parse_suited_bits(v: &Value, what: &str) -> Result<Vec<Card>> {
    let s = v
        .as_str()
        .ok_or_else(|| Error::hand(format!("{what} is a string of suited cards")))?;
    super::cards::parse_suited(s)
}

/// Rebuild a hand from its event log and check it: the deals come from the log (or from its
/// seed), every action is re-applied through [`Game::step`], and the regenerated log must equal
/// the given one exactly. Returns the rebuilt game.
pub fn replay(rules: Arc<DdzRules>, events: &[Value]) -> Result<Game> {
    let mut deals = Vec::new();
    let mut seed: Option<u64> = None;
    let mut first_bidder = 0u8;
    for (i, ev) in events.iter().enumerate() {
        if ev.get("type").and_then(Value::as_str) != Some("deal") {
            continue;
        }
        let ctx = |e: Error| e.context(&format!("event {i} (deal)"));
        let hands = ev
            .get("hands")
            .and_then(Value::as_array)
            .filter(|a| a.len() == 3)
            .ok_or_else(|| Error::hand(format!("event {i}: a deal has three hands")))?;
        let h: [Vec<Card>; 3] = [
            parse_suited_bits(&hands[0], "a hand").map_err(ctx)?,
            parse_suited_bits(&hands[1], "a hand").map_err(ctx)?,
            parse_suited_bits(&hands[2], "a hand").map_err(ctx)?,
        ];
        let bottom = parse_suited_bits(ev.get("bottom").unwrap_or(&Value::Null), "the bottom")
            .map_err(ctx)?;
        let marked = match ev.get("marked") {
            Some(Value::String(s)) => Some(Card::parse(s).map_err(ctx)?),
            _ => None,
        };
        if deals.is_empty() {
            seed = ev.get("seed").and_then(Value::as_u64);
            first_bidder = ev
                .get("first_bidder")
                .and_then(Value::as_u64)
                .and_then(|x| u8::try_from(x).ok())
                .filter(|&x| x < 3)
                .ok_or_else(|| Error::hand(format!("event {i}: first_bidder is a seat 0..2")))?;
        }
        deals.push((h, bottom, marked));
    }
    if deals.is_empty() {
        return Err(Error::hand("the log has no deal event"));
    }
    let carry = Carry {
        first_bidder,
        last_winner: Some(first_bidder),
    };
    let mut g = match seed {
        Some(s) => Game::new(rules, s, carry),
        None => Game::with_deals(rules, deals, carry)?,
    };
    for (i, ev) in events.iter().enumerate() {
        let ty = ev.get("type").and_then(Value::as_str).unwrap_or("");
        let ctx = |e: Error| e.context(&format!("event {i} ({ty})"));
        match ty {
            "pass" | "bid" | "call" | "rob" | "show" | "no_show" | "play" => {
                let seat = ev.get("seat").and_then(Value::as_u64);
                if seat != g.to_act().map(u64::from) {
                    return Err(Error::hand(format!(
                        "event {i}: seat {seat:?} acts, but it is seat {:?}'s turn",
                        g.to_act()
                    )));
                }
                g.step(Action::from_json(ev).map_err(ctx)?).map_err(ctx)?;
            }
            "escape" => {
                let seat = ev
                    .get("seat")
                    .and_then(Value::as_u64)
                    .and_then(|x| u8::try_from(x).ok())
                    .ok_or_else(|| Error::hand(format!("event {i}: escape needs a seat")))?;
                g.escape(seat).map_err(ctx)?;
            }
            "deal" | "redeal" | "landlord" | "double" | "settle" => {}
            other => {
                return Err(Error::hand(format!(
                    "event {i}: unknown event type {other:?}"
                )));
            }
        }
    }
    let got = g.events_json();
    for (i, (a, b)) in events.iter().zip(&got).enumerate() {
        if a != b {
            return Err(Error::hand(format!(
                "replay differs at event {i}: the log has {a}, the rules give {b}"
            )));
        }
    }
    if got.len() != events.len() {
        return Err(Error::hand(format!(
            "replay differs in length: the log has {} events, the rules give {}",
            events.len(),
            got.len()
        )));
    }
    Ok(g)
}

impl Game {
    /// What `seat` may see (JSON): its own hand, the others' card counts, the public record of
    /// this deal (bids, plays, passes), the 底牌 once a landlord has them, the landlord's hand when
    /// shown (明牌), the current trick and the multiplier.
    pub fn observation(&self, seat: u8) -> Value {
        let seat = seat % 3;
        let landlord = self.landlord();
        let start = self
            .events
            .iter()
            .rposition(|e| matches!(e, Event::Deal { .. }))
            .unwrap_or(0);
        let history: Vec<Value> = self.events[start..]
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Act { .. } | Event::Double { .. } | Event::Landlord { .. }
                )
            })
            .map(Event::to_json)
            .collect();
        let shown_hand = match landlord {
            Some(l) if self.shown && l != seat => json!(self.hands[l as usize].to_string()),
            _ => Value::Null,
        };
        json!({
            "seat": seat,
            "phase": self.phase.name(),
            "to_act": self.to_act().map_or(Value::Null, |s| json!(s)),
            "deal": self.deal_no,
            "first_bidder": self.first_bidder,
            "hand": self.hands[seat as usize].to_string(),
            "hand_cards": cards_of_bits(self.phys[seat as usize]).iter().map(ToString::to_string).collect::<Vec<_>>(),
            "cards_left": [self.hands[0].len(), self.hands[1].len(), self.hands[2].len()],
            "landlord": landlord.map_or(Value::Null, |l| json!(l)),
            "bid": self.bid.max(if self.phase == Phase::Auction { self.auction.high_bid() } else { 0 }),
            "robs": if self.phase == Phase::Auction { self.auction.robs() } else { self.robs },
            "multiplier": self.multiplier(),
            "shown": self.shown,
            "landlord_hand": shown_hand,
            "bottom": if landlord.is_some() { json!(multiset_of_bits(self.bottom).to_string()) } else { Value::Null },
            "marked": self.marked.map_or(Value::Null, |c| json!(c.to_string())),
            "top": self.top.map_or(Value::Null, |(s, c, r)| json!({"seat": s, "cards": c.to_string(), "reading": reading_json(r)})),
            "played": [self.played[0].to_string(), self.played[1].to_string(), self.played[2].to_string()],
            "plays": self.plays,
            "history": history,
        })
    }
}
