//! The state machine of one 够级 hand (gouji.md §3–§9): deal from a seed, tribute and return,
//! 上班, 买三/要三, 革命 and 要头/无头, 宣点, then rounds of play with 够级 duels, 烧牌, 让牌, 开点,
//! 四人乱缠, the finishing order and the settlement, and the carry to the next hand.
//!
//! Shape: [`GoujiHand::new`] deals; [`GoujiHand::to_act`] is the seat to decide (or `None` when
//! the hand is over); [`GoujiHand::legal_actions`] lists its actions; [`GoujiHand::step`] applies
//! one (an illegal action is refused and leaves the state unchanged); [`GoujiHand::events`] is the
//! log (see [`Event::to_json`]), [`GoujiHand::outcome`] the result, [`GoujiHand::next_carry`] the
//! carry. Decisions are asked one seat at a time; a burn window asks the eligible burners in
//! priority order (§6.2), which gives the same burner as simultaneous declarations.

#![allow(clippy::needless_range_loop)] // rank-indexed count vectors read better with indices

use serde_json::{Value, json};

use super::card::{
    BIG, Counts, FOUR, FULL_COUNTS, N_RANKS, Physical, Rng, SMALL, THREE, TWO, format_counts,
    full_deck, total,
};
use super::outcome::{
    BuyThree, Head, Obligation, Outcome, PLACE_NAMES, Places, SEATS, after, buy_three,
    first_leader, may_declare_burn, may_revolt, obligations, opp, scores, seat_rights,
    sort_burn_priority, team, tribute_cards,
};
use super::play::{
    BurnLead, Play, beating_into, beats, bie_san_ok, burn_lead, burn_options_into, is_gouji,
    kaidian_eligible, leads_into, only_threes, remainder_feasible,
};
use super::rules::{GoujiRules, HandEnd, LuanchanAt, ReturnTribute, Shangban};
use crate::error::{Error, Result};
use crate::preset::SwitchValue;

/// One decision of a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Lead, answer, or burn with these cards.
    Play(Play),
    /// 过牌 (also: decline a burn window).
    Pass,
    /// 让牌.
    Yield,
    /// 亮: show one's longest same-suit 4s (3s without 憋3) at 上班.
    Show,
    NoShow,
    /// 革命.
    Revolt,
    NoRevolt,
    /// After the 对头's 革命: 要头 (`true`) or 无头.
    Head(bool),
    /// 宣点 (`true`) or not.
    XuanDian(bool),
    /// 还贡: give back one card of this rank index.
    Return(u8),
}

impl Action {
    /// Text form: the cards of a play (`"AA"`), `pass`, `yield`, `show`, `no_show`, `revolt`,
    /// `no_revolt`, `yaotou`, `wutou`, `xuandian`, `no_xuandian`, `return:<card>`.
    pub fn text(&self) -> String {
        match self {
            Action::Play(p) => p.cards(),
            Action::Pass => "pass".into(),
            Action::Yield => "yield".into(),
            Action::Show => "show".into(),
            Action::NoShow => "no_show".into(),
            Action::Revolt => "revolt".into(),
            Action::NoRevolt => "no_revolt".into(),
            Action::Head(true) => "yaotou".into(),
            Action::Head(false) => "wutou".into(),
            Action::XuanDian(true) => "xuandian".into(),
            Action::XuanDian(false) => "no_xuandian".into(),
            Action::Return(r) => format!("return:{}", super::card::rank_char(usize::from(*r))),
        }
    }

    /// Flat action id (docs/gouji.md "Action space"): 0 pass, 1 yield, 2 show, 3 no_show,
    /// 4 revolt, 5 no_revolt, 6 yaotou, 7 wutou, 8 xuandian, 9 no_xuandian, 10 + rank for
    /// `return:<rank>` (rank index 0..15 = 3 … W), [`ACTION_PLAY_BASE`] + [`play_id`] for a play.
    pub fn id(&self) -> u32 {
        match self {
            Action::Pass => 0,
            Action::Yield => 1,
            Action::Show => 2,
            Action::NoShow => 3,
            Action::Revolt => 4,
            Action::NoRevolt => 5,
            Action::Head(true) => 6,
            Action::Head(false) => 7,
            Action::XuanDian(true) => 8,
            Action::XuanDian(false) => 9,
            Action::Return(r) => 10 + u32::from(*r),
            Action::Play(p) => ACTION_PLAY_BASE + super::play::play_id(p),
        }
    }

    /// Inverse of [`Action::id`]; `None` for an id that names no action.
    pub fn from_id(id: u32) -> Option<Action> {
        Some(match id {
            0 => Action::Pass,
            1 => Action::Yield,
            2 => Action::Show,
            3 => Action::NoShow,
            4 => Action::Revolt,
            5 => Action::NoRevolt,
            6 => Action::Head(true),
            7 => Action::Head(false),
            8 => Action::XuanDian(true),
            9 => Action::XuanDian(false),
            10..25 => Action::Return((id - 10) as u8),
            _ if id >= ACTION_PLAY_BASE => {
                Action::Play(super::play::play_from_id(id - ACTION_PLAY_BASE)?)
            }
            _ => return None,
        })
    }

    /// Parse the text form (see [`Action::text`]); Chinese words 过/让/亮/革命/要头/无头/宣点 work too.
    pub fn parse(text: &str) -> Result<Action> {
        let t = text.trim();
        let a = match t {
            "pass" | "过" | "过牌" | "不要" => Action::Pass,
            "yield" | "让" | "让牌" => Action::Yield,
            "show" | "亮" => Action::Show,
            "no_show" => Action::NoShow,
            "revolt" | "革命" => Action::Revolt,
            "no_revolt" => Action::NoRevolt,
            "yaotou" | "要头" => Action::Head(true),
            "wutou" | "无头" => Action::Head(false),
            "xuandian" | "宣点" => Action::XuanDian(true),
            "no_xuandian" => Action::XuanDian(false),
            _ => {
                if let Some(card) = t.strip_prefix("return:") {
                    let c = super::card::parse_counts(card)?;
                    match (0..N_RANKS).find(|&r| c[r] > 0) {
                        Some(r) if total(&c) == 1 => Action::Return(r as u8),
                        _ => {
                            return Err(Error::hand(format!(
                                "{text:?}: return one card, e.g. return:4"
                            )));
                        }
                    }
                } else {
                    Action::Play(Play::parse(t).map_err(|e| {
                        e.context("an action is cards (e.g. AA, ww888) or pass, yield, show, no_show, revolt, no_revolt, yaotou, wutou, xuandian, no_xuandian, return:<card>")
                    })?)
                }
            }
        };
        Ok(a)
    }
}

/// First action id of the plays (see [`Action::id`]).
pub const ACTION_PLAY_BASE: u32 = 32;
/// Number of action ids.
pub const N_ACTION_IDS: u32 = ACTION_PLAY_BASE + super::play::N_PLAY_IDS;

/// What the seat to act is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// 还贡: return one card (as many times as the tribute had cards).
    Return,
    /// 上班: show or not.
    Show,
    /// 革命 or not.
    Revolt,
    /// 要头 or 无头.
    Head,
    /// 宣点 or not.
    XuanDian,
    /// Lead (发牌).
    Lead,
    /// An ordinary turn on the top play (also in 乱缠, and the 对头's last word).
    Turn,
    /// The answer of the 对头 (or a 无头 player) to a restricted play, or in a 让牌 duel.
    Answer,
    /// The burn window: burn (play a burning play) or pass.
    Burn,
    /// After a 让牌: one of the two seats after the yielder.
    YieldReply,
    /// After a 让牌 both passed: the yielder plays or passes.
    YieldBack,
}

impl Ask {
    pub const fn name(self) -> &'static str {
        match self {
            Ask::Return => "return",
            Ask::Show => "show",
            Ask::Revolt => "revolt",
            Ask::Head => "head",
            Ask::XuanDian => "xuandian",
            Ask::Lead => "lead",
            Ask::Turn => "turn",
            Ask::Answer => "answer",
            Ask::Burn => "burn",
            Ask::YieldReply => "yield_reply",
            Ask::YieldBack => "yield_back",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decision {
    seat: u8,
    ask: Ask,
}

const QCAP: usize = 16;

/// A small fixed-capacity queue of decisions (no allocation).
#[derive(Clone, Copy, Debug)]
struct Queue {
    items: [Decision; QCAP],
    start: u8,
    end: u8,
}

impl Queue {
    const fn new() -> Queue {
        Queue {
            items: [Decision {
                seat: 0,
                ask: Ask::Lead,
            }; QCAP],
            start: 0,
            end: 0,
        }
    }
    fn clear(&mut self) {
        self.start = 0;
        self.end = 0;
    }
    fn push(&mut self, seat: usize, ask: Ask) {
        if usize::from(self.end) < QCAP {
            self.items[usize::from(self.end)] = Decision {
                seat: seat as u8,
                ask,
            };
            self.end += 1;
        }
    }
    fn front(&self) -> Option<Decision> {
        (self.start < self.end).then(|| self.items[usize::from(self.start)])
    }
    fn pop(&mut self) {
        if self.start < self.end {
            self.start += 1;
        }
    }
    fn rest(&self) -> impl Iterator<Item = Decision> + '_ {
        self.items[usize::from(self.start)..usize::from(self.end)]
            .iter()
            .copied()
    }
}

/// The play on top of the current round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Top {
    pub play: Play,
    pub seat: u8,
    /// Only burns and the answerers may beat it (§5.3).
    pub restricted: bool,
    /// 够死级: no answerers at all (§5.6).
    pub dead: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum YieldState {
    None,
    /// 让牌 declared by this seat; no play since.
    Yielded(u8),
    /// A play was made after the 让牌: only the 对头 (and 无头 players) answer.
    Duel,
}

/// Phases of a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Tribute,
    Show,
    Revolt,
    Head,
    XuanDian,
    Play,
    Over,
}

impl Phase {
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Tribute => "tribute",
            Phase::Show => "show",
            Phase::Revolt => "revolt",
            Phase::Head => "head",
            Phase::XuanDian => "xuandian",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// What carries over to the next hand (§3.3, §8).
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Carry {
    /// Index of the hand in its tribute session (0 = first, no tribute).
    #[serde(default)]
    pub hand_in_session: u32,
    /// Tribute owed at the start of the hand, in processing order.
    #[serde(default)]
    pub obligations: Vec<Obligation>,
}

/// One entry of the hand's log. [`Event::to_json`] gives its JSON record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The hand starts (variant, switches, seed, carry and the dealt hands are in the record).
    Deal,
    Tribute {
        ob: Obligation,
        cards: Counts,
    },
    Return {
        from: u8,
        to: u8,
        rank: u8,
    },
    Show {
        seat: u8,
        count: u8,
    },
    NoShow {
        seat: u8,
    },
    FirstLeader {
        seat: u8,
        shown: bool,
    },
    BuyThree {
        buyer: u8,
        from: u8,
        pay: u8,
    },
    AskThree {
        buyer: u8,
        from: u8,
    },
    NoThree {
        seat: u8,
    },
    Revolt {
        seat: u8,
        auto: bool,
    },
    NoRevolt {
        seat: u8,
    },
    Void,
    Head {
        seat: u8,
        yaotou: bool,
    },
    XuanDian {
        seat: u8,
        declared: bool,
    },
    Play {
        seat: u8,
        play: Play,
        burn: bool,
    },
    Pass {
        seat: u8,
        burn: bool,
    },
    Yield {
        seat: u8,
    },
    BurnStart {
        burner: u8,
        victim: u8,
    },
    BurnLift {
        burner: u8,
        by: u8,
    },
    BurnSuccess {
        burner: u8,
        victim: u8,
    },
    BurnFail {
        seat: u8,
        play: Play,
        place: u8,
    },
    Kaidian {
        seat: u8,
    },
    Men {
        victim: u8,
        beater: u8,
    },
    Out {
        seat: u8,
        place: u8,
    },
    RoundEnd {
        leader: u8,
    },
    LuanchanStart,
    HandEnd,
}

impl Event {
    /// The record's type name (the `type` of its JSON record).
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::Deal => "DEAL",
            Event::Tribute { .. } => "TRIBUTE",
            Event::Return { .. } => "RETURN",
            Event::Show { .. } => "SHOW",
            Event::NoShow { .. } => "NO_SHOW",
            Event::FirstLeader { .. } => "FIRST_LEADER",
            Event::BuyThree { .. } => "BUY_THREE",
            Event::AskThree { .. } => "ASK_THREE",
            Event::NoThree { .. } => "NO_THREE",
            Event::Revolt { .. } => "REVOLT",
            Event::NoRevolt { .. } => "NO_REVOLT",
            Event::Void => "VOID",
            Event::Head { .. } => "HEAD",
            Event::XuanDian { .. } => "XUANDIAN",
            Event::Play { .. } => "PLAY",
            Event::Pass { .. } => "PASS",
            Event::Yield { .. } => "YIELD",
            Event::BurnStart { .. } => "BURN_START",
            Event::BurnLift { .. } => "BURN_LIFT",
            Event::BurnSuccess { .. } => "BURN_SUCCESS",
            Event::BurnFail { .. } => "BURN_FAIL",
            Event::Kaidian { .. } => "KAIDIAN",
            Event::Men { .. } => "MEN",
            Event::Out { .. } => "OUT",
            Event::RoundEnd { .. } => "ROUND_END",
            Event::LuanchanStart => "LUANCHAN_START",
            Event::HandEnd => "HAND_END",
        }
    }

    /// The `seat` key of the event's record, if it has one.
    pub fn record_seat(&self) -> Option<u8> {
        match *self {
            Event::Show { seat, .. }
            | Event::NoShow { seat }
            | Event::FirstLeader { seat, .. }
            | Event::NoThree { seat }
            | Event::Revolt { seat, .. }
            | Event::NoRevolt { seat }
            | Event::Head { seat, .. }
            | Event::XuanDian { seat, .. }
            | Event::Play { seat, .. }
            | Event::Pass { seat, .. }
            | Event::Yield { seat }
            | Event::BurnFail { seat, .. }
            | Event::Kaidian { seat }
            | Event::Out { seat, .. } => Some(seat),
            _ => None,
        }
    }

    /// The JSON record of an event that needs nothing of the hand (every event but `DEAL` and
    /// `HAND_END`, whose records carry the deal and the outcome: [`GoujiHand::events_json`];
    /// for those two this gives only the type).
    pub fn json(&self) -> Value {
        let s = |x: u8| json!(x);
        match *self {
            Event::Deal | Event::HandEnd => json!({"type": self.type_name()}),
            Event::Tribute { ob, cards } => json!({"type": "TRIBUTE", "kind": ob.kind.zh(),
                "from": ob.from, "to": ob.to, "n": ob.n, "cards": format_counts(&cards)}),
            Event::Return { from, to, rank } => json!({"type": "RETURN", "from": from, "to": to,
                "card": super::card::rank_char(usize::from(rank)).to_string()}),
            Event::Show { seat, count } => json!({"type": "SHOW", "seat": s(seat), "count": count}),
            Event::NoShow { seat } => json!({"type": "NO_SHOW", "seat": s(seat)}),
            Event::FirstLeader { seat, shown } => {
                json!({"type": "FIRST_LEADER", "seat": s(seat), "shown": shown})
            }
            Event::BuyThree { buyer, from, pay } => json!({"type": "BUY_THREE", "buyer": buyer,
                "from": from, "pay": super::card::rank_char(usize::from(pay)).to_string()}),
            Event::AskThree { buyer, from } => {
                json!({"type": "ASK_THREE", "buyer": buyer, "from": from})
            }
            Event::NoThree { seat } => json!({"type": "NO_THREE", "seat": s(seat)}),
            Event::Revolt { seat, auto } => {
                json!({"type": "REVOLT", "seat": s(seat), "auto": auto})
            }
            Event::NoRevolt { seat } => json!({"type": "NO_REVOLT", "seat": s(seat)}),
            Event::Void => json!({"type": "VOID"}),
            Event::Head { seat, yaotou } => json!({"type": "HEAD", "seat": s(seat),
                "choice": if yaotou { "要头" } else { "无头" }}),
            Event::XuanDian { seat, declared } => {
                json!({"type": "XUANDIAN", "seat": s(seat), "declared": declared})
            }
            Event::Play { seat, play, burn } => {
                json!({"type": "PLAY", "seat": s(seat), "cards": play.cards(), "burn": burn})
            }
            Event::Pass { seat, burn } => json!({"type": "PASS", "seat": s(seat), "burn": burn}),
            Event::Yield { seat } => json!({"type": "YIELD", "seat": s(seat)}),
            Event::BurnStart { burner, victim } => {
                json!({"type": "BURN_START", "burner": burner, "victim": victim})
            }
            Event::BurnLift { burner, by } => {
                json!({"type": "BURN_LIFT", "burner": burner, "by": by})
            }
            Event::BurnSuccess { burner, victim } => {
                json!({"type": "BURN_SUCCESS", "burner": burner, "victim": victim})
            }
            Event::BurnFail { seat, play, place } => json!({"type": "BURN_FAIL", "seat": s(seat),
                "cards": play.cards(), "place": PLACE_NAMES[usize::from(place)]}),
            Event::Kaidian { seat } => json!({"type": "KAIDIAN", "seat": s(seat)}),
            Event::Men { victim, beater } => {
                json!({"type": "MEN", "victim": victim, "beater": beater})
            }
            Event::Out { seat, place } => json!({"type": "OUT", "seat": s(seat),
                "place": PLACE_NAMES[usize::from(place)]}),
            Event::RoundEnd { leader } => json!({"type": "ROUND_END", "leader": leader}),
            Event::LuanchanStart => json!({"type": "LUANCHAN_START"}),
        }
    }

    /// The seat and action this event records, for the decision events (replay).
    pub fn as_action(&self) -> Option<(usize, Action)> {
        let (s, a) = match *self {
            Event::Return { from, rank, .. } => (from, Action::Return(rank)),
            Event::Show { seat, .. } => (seat, Action::Show),
            Event::NoShow { seat } => (seat, Action::NoShow),
            Event::Revolt { seat, auto: false } => (seat, Action::Revolt),
            Event::NoRevolt { seat } => (seat, Action::NoRevolt),
            Event::Head { seat, yaotou } => (seat, Action::Head(yaotou)),
            Event::XuanDian { seat, declared } => (seat, Action::XuanDian(declared)),
            Event::Play { seat, play, .. } => (seat, Action::Play(play)),
            Event::Pass { seat, .. } => (seat, Action::Pass),
            Event::Yield { seat } => (seat, Action::Yield),
            Event::BurnFail { seat, play, .. } => (seat, Action::Play(play)),
            _ => return None,
        };
        Some((usize::from(s), a))
    }
}

/// The record of the deal (the first of a hand's log).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealRecord {
    rules: GoujiRules,
    seed: u64,
    carry: Carry,
    dealt: [Counts; SEATS],
    position: Option<PositionInfo>,
}

impl DealRecord {
    /// The `DEAL` record: variant, switches (non-default), seed, carry, the dealt hands and
    /// the position a scenario started from.
    pub fn json(&self) -> Value {
        let sw: serde_json::Map<String, Value> = super::rules_switches(&self.rules)
            .into_iter()
            .map(|(k, v)| {
                let v = match v {
                    SwitchValue::Bool(b) => json!(b),
                    SwitchValue::Int(i) => json!(i),
                    SwitchValue::Str(t) => json!(t),
                };
                (k, v)
            })
            .collect();
        let mut v = json!({"type": "DEAL", "variant": "gouji", "switches": sw,
               "seed": self.seed, "carry": self.carry,
               "hands": self.dealt.iter().map(format_counts).collect::<Vec<_>>()});
        if let Some((leader, out, rev)) = &self.position {
            v["position"] = json!({"leader": leader, "out": out,
                "revolution": rev.map(|(r, _)| r), "yaotou": rev.is_some_and(|(_, y)| y)});
        }
        v
    }
}

/// The outcome as JSON (`places`: seats from 头科 to 大落), `null` while the hand runs.
pub fn outcome_json(o: &Option<Outcome>) -> Value {
    match o {
        None => Value::Null,
        Some(o) => {
            json!({"places": o.places, "revolution": o.revolution, "void": o.void,
                   "kaidian": o.kaidian, "xuandian": o.xuandian, "burns": o.burns,
                   "men": o.men, "chuan_san_hu": o.chuan_san_hu, "scores": o.scores})
        }
    }
}

/// The `HAND_END` record of a hand with outcome `o`.
pub fn end_json(o: &Option<Outcome>) -> Value {
    json!({"type": "HAND_END", "outcome": outcome_json(o)})
}

/// How a hand built by [`GoujiHand::from_position`] started: leader, seats out, (革命, 要头).
type PositionInfo = (u8, Vec<u8>, Option<(u8, bool)>);

/// The events a logged hand is given room for at the deal (a random hand records ~750).
const HAND_EVENTS: usize = 1024;

/// One hand of 够级.
#[derive(Clone, Debug)]
pub struct GoujiHand {
    rules: GoujiRules,
    seed: u64,
    carry: Carry,
    rng: Rng,
    dealt: [Counts; SEATS],
    hands: [Counts; SEATS],
    /// Copies per suit of the 3s and 4s (上班), per seat.
    suits: [[[u8; 4]; 2]; SEATS],
    played: Counts,
    discarded: Counts,
    active: [bool; SEATS],
    yaotou_left: [u8; SEATS],
    places: Places,
    revolution: Option<u8>,
    revolts: u8,
    phase: Phase,
    queue: Queue,
    // start of hand
    ob_idx: usize,
    ret_left: u8,
    shows: Vec<(usize, u8)>,
    pair_leader: Option<u8>,
    order_start: u8,
    leader: u8,
    // play
    top: Option<Top>,
    passed: [bool; SEATS],
    passed_on_top: [bool; SEATS],
    yield_state: YieldState,
    gouji_yield_used: bool,
    last_word_used: bool,
    luanchan: bool,
    burn: Option<(u8, u8)>,
    kaidian: [bool; SEATS],
    xuandian: [bool; SEATS],
    burns: Vec<[u8; 2]>,
    men: Vec<[u8; 2]>,
    men_done: [bool; SEATS],
    last_out: u8,
    burn_fails: u8,
    /// Set when the hand was built by [`GoujiHand::from_position`]: leader, seats out, 革命.
    position: Option<PositionInfo>,
    outcome: Option<Outcome>,
    events: Vec<Event>,
    log: bool,
    buf: Vec<Play>,
    /// Decisions taken.
    pub steps: u32,
}

fn check_carry(c: &Carry) -> Result<()> {
    for ob in &c.obligations {
        if usize::from(ob.from) >= SEATS || usize::from(ob.to) >= SEATS || ob.from == ob.to {
            return Err(Error::hand(format!(
                "carry: tribute {}→{} needs two different seats 0..5",
                ob.from, ob.to
            )));
        }
        if ob.n == 0 || ob.n > 8 {
            return Err(Error::hand(format!(
                "carry: a tribute of {} cards is not possible (1..8)",
                ob.n
            )));
        }
    }
    Ok(())
}

impl GoujiHand {
    /// Deal a hand from `seed` with the carry of the previous hand. `log`: keep the event log.
    pub fn new(rules: GoujiRules, seed: u64, carry: Carry, log: bool) -> Result<GoujiHand> {
        check_carry(&carry)?;
        let mut rng = Rng::new(seed);
        let mut deck = full_deck();
        for i in (1..deck.len()).rev() {
            let j = rng.below(i + 1);
            deck.swap(i, j);
        }
        let mut hands = [[0u8; N_RANKS]; SEATS];
        let mut suits = [[[0u8; 4]; 2]; SEATS];
        let mut pair_leader = None;
        for (i, Physical { rank, suit }) in deck.iter().enumerate() {
            let s = i % SEATS;
            let r = usize::from(*rank);
            hands[s][r] += 1;
            if r == THREE || r == FOUR {
                let k = &mut suits[s][r][usize::from(*suit)];
                *k += 1;
                if r == THREE && *k == 2 && pair_leader.is_none() {
                    pair_leader = Some(s as u8);
                }
            }
        }
        let order_start = rng.below(SEATS) as u8;
        let mut h = GoujiHand {
            rules,
            seed,
            carry,
            rng,
            dealt: hands,
            hands,
            suits,
            played: [0; N_RANKS],
            discarded: [0; N_RANKS],
            active: [true; SEATS],
            yaotou_left: [0; SEATS],
            places: Places::new(None),
            revolution: None,
            revolts: 0,
            phase: Phase::Tribute,
            queue: Queue::new(),
            ob_idx: 0,
            ret_left: 0,
            shows: Vec::new(),
            pair_leader,
            order_start,
            leader: 0,
            top: None,
            passed: [false; SEATS],
            passed_on_top: [false; SEATS],
            yield_state: YieldState::None,
            gouji_yield_used: false,
            last_word_used: false,
            luanchan: false,
            burn: None,
            kaidian: [false; SEATS],
            xuandian: [false; SEATS],
            burns: Vec::new(),
            men: Vec::new(),
            men_done: [false; SEATS],
            last_out: 0,
            burn_fails: 0,
            position: None,
            outcome: None,
            // a logged hand records about a thousand events: no growing on the way
            events: Vec::with_capacity(if log { HAND_EVENTS } else { 0 }),
            log,
            buf: Vec::with_capacity(64),
            steps: 0,
        };
        h.emit(Event::Deal);
        h.advance_tribute()?;
        Ok(h)
    }

    /// A hand that starts in the play phase from a given position (for examples, tests and
    /// what-if analysis): the hands (cards not in any hand count as already played), the seat
    /// to lead, the seats already out in the order they went out (their hands must be empty),
    /// and an optional 革命 seat (his hand must be empty) with his 对头's choice (要头 = true).
    /// 四人乱缠 starts at the first lead when at most four players are left.
    pub fn from_position(
        rules: GoujiRules,
        hands: [Counts; SEATS],
        leader: usize,
        out: &[usize],
        revolution: Option<(usize, bool)>,
        log: bool,
    ) -> Result<GoujiHand> {
        let mut h = GoujiHand::new(rules, 0, Carry::default(), false)?;
        h.log = log;
        h.events.clear();
        let mut played = FULL_COUNTS;
        for (s, c) in hands.iter().enumerate() {
            for r in 0..N_RANKS {
                if c[r] > played[r] {
                    return Err(Error::hand(format!(
                        "position: more than {} copies of {} in the hands (seat {s})",
                        FULL_COUNTS[r],
                        super::card::rank_char(r)
                    )));
                }
                played[r] -= c[r];
            }
        }
        h.dealt = hands;
        h.hands = hands;
        h.played = played;
        h.discarded = [0; N_RANKS];
        h.active = [true; SEATS];
        h.shows.clear();
        h.places = Places::new(None);
        h.revolution = None;
        h.revolts = 0;
        h.yaotou_left = [0; SEATS];
        if let Some((r, yaotou)) = revolution {
            if r >= SEATS || total(&hands[r]) != 0 {
                return Err(Error::hand(
                    "position: the 革命 seat must be 0..5 with no cards",
                ));
            }
            h.active[r] = false;
            h.revolution = Some(r as u8);
            h.places.revolution = Some(r as u8);
            h.revolts = 1;
            h.yaotou_left[opp(r)] = if yaotou { 3 } else { 0 };
        }
        for &s in out {
            if s >= SEATS || !h.active[s] || total(&hands[s]) != 0 {
                return Err(Error::hand(format!(
                    "position: seat {s} is out twice, revolted, or still holds cards"
                )));
            }
            h.places.take_top(s);
            h.active[s] = false;
            h.last_out = s as u8;
        }
        for s in 0..SEATS {
            if h.active[s] && total(&hands[s]) == 0 {
                return Err(Error::hand(format!(
                    "position: seat {s} holds no cards: list him in `out`"
                )));
            }
        }
        if leader >= SEATS || !h.active[leader] {
            return Err(Error::hand(format!(
                "position: the leader {leader} must be a seat still playing"
            )));
        }
        if h.active_count() < 2 {
            return Err(Error::hand(
                "position: at least two players must still play",
            ));
        }
        h.leader = leader as u8;
        h.position = Some((
            leader as u8,
            out.iter().map(|&s| s as u8).collect(),
            revolution.map(|(r, y)| (r as u8, y)),
        ));
        h.emit(Event::Deal);
        h.phase = Phase::Play;
        h.start_round(leader);
        Ok(h)
    }

    fn emit(&mut self, e: Event) {
        if self.log {
            self.events.push(e);
        }
    }

    // ------------------------------------------------------------------ accessors

    pub fn rules(&self) -> &GoujiRules {
        &self.rules
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn carry(&self) -> &Carry {
        &self.carry
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Cards held per seat (a failed burner's dead cards included).
    pub fn hands(&self) -> &[Counts; SEATS] {
        &self.hands
    }
    /// The hands as dealt (before tribute).
    pub fn dealt(&self) -> &[Counts; SEATS] {
        &self.dealt
    }
    /// Cards played to the table.
    pub fn played(&self) -> &Counts {
        &self.played
    }
    /// Cards discarded by a 革命.
    pub fn discarded(&self) -> &Counts {
        &self.discarded
    }
    pub fn active(&self) -> &[bool; SEATS] {
        &self.active
    }
    pub fn top(&self) -> Option<Top> {
        self.top
    }
    pub fn luanchan(&self) -> bool {
        self.luanchan
    }
    /// `(burner, victim)` of the burn in progress.
    pub fn burn(&self) -> Option<(usize, usize)> {
        self.burn.map(|(b, v)| (usize::from(b), usize::from(v)))
    }
    pub fn places(&self) -> &Places {
        &self.places
    }
    pub fn kaidian(&self) -> &[bool; SEATS] {
        &self.kaidian
    }
    pub fn xuandian(&self) -> &[bool; SEATS] {
        &self.xuandian
    }
    pub fn revolution(&self) -> Option<usize> {
        self.revolution.map(usize::from)
    }
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// The outcome, once the hand is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
    /// Failed burns so far.
    /// Which seats passed on the current round (public; read by the RL encoder).
    pub fn passed(&self) -> [bool; SEATS] {
        self.passed
    }
    pub fn burn_fails(&self) -> u8 {
        self.burn_fails
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    /// The seat to decide, `None` when the hand is over.
    pub fn to_act(&self) -> Option<usize> {
        if self.phase == Phase::Over {
            return None;
        }
        self.queue.front().map(|d| usize::from(d.seat))
    }
    /// What the seat to act is asked.
    pub fn ask(&self) -> Option<Ask> {
        if self.phase == Phase::Over {
            return None;
        }
        self.queue.front().map(|d| d.ask)
    }
    /// 有头 / 要头 / 无头 of every seat.
    pub fn heads(&self) -> [Head; SEATS] {
        std::array::from_fn(|s| {
            if self.yaotou_left[s] > 0 {
                Head::YaoTou(self.yaotou_left[s])
            } else if self.active[opp(s)] {
                Head::Has
            } else {
                Head::Wu
            }
        })
    }
    fn active_count(&self) -> usize {
        self.active.iter().filter(|&&a| a).count()
    }
    fn next_active_from(&self, s: usize) -> usize {
        (0..SEATS)
            .map(|k| after(s, k))
            .find(|&x| self.active[x])
            .unwrap_or(s)
    }

    // ------------------------------------------------------------------ legal actions

    /// The legal actions of `seat` (empty when it is not his turn).
    pub fn legal_actions(&mut self, seat: usize) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// [`GoujiHand::legal_actions`] into a buffer (cleared first; no allocation once warm).
    pub fn legal_actions_into(&mut self, seat: usize, out: &mut Vec<Action>) {
        let mut buf = std::mem::take(&mut self.buf);
        self.legal_actions_with(seat, &mut buf, out);
        self.buf = buf;
    }

    /// [`Self::legal_actions_into`] with the caller's play buffer (a shared hand).
    pub fn legal_actions_with(&self, seat: usize, buf: &mut Vec<Play>, out: &mut Vec<Action>) {
        out.clear();
        let Some(d) = self.queue.front().filter(|_| self.phase != Phase::Over) else {
            return;
        };
        if usize::from(d.seat) != seat {
            return;
        }
        let hand = self.hands[seat];
        match d.ask {
            Ask::Return => {
                for r in 0..N_RANKS {
                    if hand[r] > 0 {
                        out.push(Action::Return(r as u8));
                    }
                }
            }
            Ask::Show => out.extend([Action::Show, Action::NoShow]),
            Ask::Revolt => out.extend([Action::Revolt, Action::NoRevolt]),
            Ask::Head => out.extend([Action::Head(true), Action::Head(false)]),
            Ask::XuanDian => out.extend([Action::XuanDian(true), Action::XuanDian(false)]),
            Ask::Lead => {
                buf.clear();
                leads_into(&hand, self.rules.bie_san, buf);
                out.extend(buf.iter().map(|&p| Action::Play(p)));
            }
            Ask::Burn => {
                if let Some(t) = self.top {
                    buf.clear();
                    burn_options_into(&hand, &t.play, &self.rules, buf);
                    out.extend(buf.iter().map(|&p| Action::Play(p)));
                }
                out.push(Action::Pass);
            }
            Ask::Turn | Ask::Answer | Ask::YieldReply | Ask::YieldBack => {
                if let Some(t) = self.top {
                    buf.clear();
                    beating_into(&hand, &t.play, self.rules.mixed_jokers, buf);
                    out.extend(buf.iter().map(|&p| Action::Play(p)));
                }
                out.push(Action::Pass);
                if self.may_yield(seat, d.ask) {
                    out.push(Action::Yield);
                }
            }
        }
    }

    /// Number of legal actions without listing them (for the random bot's fast path).
    pub fn may_yield_now(&self) -> bool {
        match self.queue.front() {
            Some(d) => self.may_yield(usize::from(d.seat), d.ask),
            None => false,
        }
    }

    fn may_yield(&self, seat: usize, ask: Ask) -> bool {
        let Some(t) = self.top else { return false };
        if self.luanchan || seat != opp(usize::from(t.seat)) {
            return false;
        }
        match ask {
            // §5.4: an ordinary play of the 对头, the two seats before passed, one after could act.
            Ask::Turn => {
                !t.restricted
                    && self.yield_state == YieldState::None
                    && self
                        .queue
                        .rest()
                        .skip(1)
                        .any(|d| matches!(usize::from(d.seat), x if x == after(seat, 1) || x == after(seat, 2)))
            }
            // yield_allowed_on_gouji: let the two seats after him burn first.
            Ask::Answer => {
                self.rules.yield_on_gouji
                    && t.restricted
                    && !t.dead
                    && !self.gouji_yield_used
                    && [after(seat, 1), after(seat, 2)]
                        .iter()
                        .any(|&b| self.burn_eligible(b, usize::from(t.seat)))
            }
            _ => false,
        }
    }

    fn burn_eligible(&self, b: usize, t: usize) -> bool {
        may_declare_burn(b, t, &self.active, &self.passed, &self.heads())
    }

    // ------------------------------------------------------------------ step

    /// Apply the action of the seat to act. An illegal action is an error and changes nothing.
    pub fn step(&mut self, action: Action) -> Result<()> {
        let Some(d) = self.queue.front().filter(|_| self.phase != Phase::Over) else {
            return Err(Error::hand("the hand is over: no action can be taken"));
        };
        let seat = usize::from(d.seat);
        self.check_action(seat, d.ask, &action)?;
        self.steps += 1;
        self.apply(seat, d.ask, action)
    }

    /// [`GoujiHand::step`] for an action taken from this step's legal list
    /// (`legal_actions`): applied without checking it again, the same result as `step`.
    pub fn step_legal(&mut self, action: Action) -> Result<()> {
        let Some(d) = self.queue.front().filter(|_| self.phase != Phase::Over) else {
            return Err(Error::hand("the hand is over: no action can be taken"));
        };
        self.steps += 1;
        self.apply(usize::from(d.seat), d.ask, action)
    }

    /// Apply an action naming the seat (must be the seat to act).
    pub fn step_seat(&mut self, seat: usize, action: Action) -> Result<()> {
        match self.to_act() {
            Some(s) if s == seat => self.step(action),
            Some(s) => Err(Error::hand(format!(
                "it is seat {s}'s turn, not seat {seat}'s"
            ))),
            None => Err(Error::hand("the hand is over: no action can be taken")),
        }
    }

    fn illegal(&self, seat: usize, ask: Ask, a: &Action, why: &str) -> Error {
        Error::hand(format!(
            "seat {seat} cannot {} now ({} asked): {why}",
            a.text(),
            ask.name()
        ))
    }

    fn check_action(&self, seat: usize, ask: Ask, a: &Action) -> Result<()> {
        let hand = &self.hands[seat];
        let ok_kinds: &[&str] = match ask {
            Ask::Return => &["return:<card>"],
            Ask::Show => &["show", "no_show"],
            Ask::Revolt => &["revolt", "no_revolt"],
            Ask::Head => &["yaotou", "wutou"],
            Ask::XuanDian => &["xuandian", "no_xuandian"],
            Ask::Lead => &["cards to lead"],
            Ask::Burn => &["cards that burn", "pass"],
            _ => &["cards that beat the top play", "pass"],
        };
        let wrong = || self.illegal(seat, ask, a, &format!("expected {}", ok_kinds.join(" or ")));
        match (ask, a) {
            (Ask::Return, Action::Return(r)) => {
                if usize::from(*r) < N_RANKS && hand[usize::from(*r)] > 0 {
                    Ok(())
                } else {
                    Err(self.illegal(seat, ask, a, "the card is not in the hand"))
                }
            }
            (Ask::Show, Action::Show | Action::NoShow)
            | (Ask::Revolt, Action::Revolt | Action::NoRevolt)
            | (Ask::Head, Action::Head(_))
            | (Ask::XuanDian, Action::XuanDian(_)) => Ok(()),
            (Ask::Lead, Action::Play(p)) => {
                super::play::check_from_hand(hand, p, self.rules.bie_san)
                    .map_err(|e| e.context(&format!("seat {seat} cannot lead {}", p.cards())))
            }
            (
                Ask::Burn | Ask::Turn | Ask::Answer | Ask::YieldReply | Ask::YieldBack,
                Action::Pass,
            ) => Ok(()),
            (Ask::Turn | Ask::Answer, Action::Yield) => {
                if self.may_yield(seat, ask) {
                    Ok(())
                } else {
                    Err(self.illegal(
                        seat,
                        ask,
                        a,
                        "让牌 needs the 对头's ordinary play, the two seats before you passed and one of the two after you still to act",
                    ))
                }
            }
            (
                Ask::Burn | Ask::Turn | Ask::Answer | Ask::YieldReply | Ask::YieldBack,
                Action::Play(p),
            ) => {
                let t = self.top.ok_or_else(wrong)?;
                super::play::check_from_hand(hand, p, self.rules.bie_san)
                    .map_err(|e| e.context(&format!("seat {seat}")))?;
                if !beats(p, &t.play, self.rules.mixed_jokers) {
                    return Err(self.illegal(
                        seat,
                        ask,
                        a,
                        &format!(
                            "{} does not beat {} (same number of cards, every card higher)",
                            p.cards(),
                            t.play.cards()
                        ),
                    ));
                }
                if ask == Ask::Burn {
                    let mut rest = *hand;
                    let c = p.counts();
                    for r in 0..N_RANKS {
                        rest[r] -= c[r];
                    }
                    if !remainder_feasible(&rest, self.rules.bie_san) {
                        return Err(self.illegal(
                            seat,
                            ask,
                            a,
                            "after this play the rest cannot go out with a joker in every lead but the last",
                        ));
                    }
                }
                Ok(())
            }
            _ => Err(wrong()),
        }
    }

    fn apply(&mut self, seat: usize, ask: Ask, a: Action) -> Result<()> {
        match (ask, a) {
            (Ask::Return, Action::Return(r)) => {
                let ob = self.carry.obligations[self.ob_idx];
                self.move_card(seat, usize::from(ob.from), usize::from(r));
                self.emit(Event::Return {
                    from: ob.to,
                    to: ob.from,
                    rank: r,
                });
                self.ret_left -= 1;
                self.queue.pop();
                if self.ret_left > 0 {
                    self.queue.push(seat, Ask::Return);
                } else {
                    self.ob_idx += 1;
                    self.advance_tribute()?;
                }
            }
            (Ask::Show, Action::Show) => {
                let n = self.show_count(seat);
                self.shows.push((seat, n));
                self.emit(Event::Show {
                    seat: seat as u8,
                    count: n,
                });
                self.next_in_phase();
            }
            (Ask::Show, Action::NoShow) => {
                self.emit(Event::NoShow { seat: seat as u8 });
                self.next_in_phase();
            }
            (Ask::Revolt, Action::Revolt) => {
                self.revolt(seat, false);
                self.next_in_phase();
            }
            (Ask::Revolt, Action::NoRevolt) => {
                self.emit(Event::NoRevolt { seat: seat as u8 });
                self.next_in_phase();
            }
            (Ask::Head, Action::Head(y)) => {
                self.yaotou_left[seat] = if y { 3 } else { 0 };
                self.emit(Event::Head {
                    seat: seat as u8,
                    yaotou: y,
                });
                self.next_in_phase();
            }
            (Ask::XuanDian, Action::XuanDian(x)) => {
                self.xuandian[seat] = x;
                self.emit(Event::XuanDian {
                    seat: seat as u8,
                    declared: x,
                });
                self.next_in_phase();
            }
            (_, Action::Play(p)) => self.do_play(seat, ask, p),
            (_, Action::Pass) => self.do_pass(seat, ask),
            (_, Action::Yield) => self.do_yield(seat, ask),
            _ => return Err(Error::hand("internal: action and question do not match")),
        }
        Ok(())
    }

    // ------------------------------------------------------------------ start of hand

    fn move_card(&mut self, from: usize, to: usize, r: usize) {
        self.hands[from][r] -= 1;
        self.hands[to][r] += 1;
        if r == THREE || r == FOUR {
            // The copy of the suit the giver holds fewest of (ties: ♠ ♥ ♣ ♦ order) (gap-fill).
            let k = r;
            let su = (0..4)
                .filter(|&s| self.suits[from][k][s] > 0)
                .min_by_key(|&s| (self.suits[from][k][s], s))
                .unwrap_or(0);
            if self.suits[from][k][su] > 0 {
                self.suits[from][k][su] -= 1;
                self.suits[to][k][su] += 1;
            }
        }
    }

    fn advance_tribute(&mut self) -> Result<()> {
        while self.ob_idx < self.carry.obligations.len() {
            let ob = self.carry.obligations[self.ob_idx];
            let (from, to) = (usize::from(ob.from), usize::from(ob.to));
            let give = tribute_cards(&self.hands[from], usize::from(ob.n))?;
            for r in 0..N_RANKS {
                for _ in 0..give[r] {
                    self.move_card(from, to, r);
                }
            }
            self.emit(Event::Tribute { ob, cards: give });
            let ret = match self.rules.return_tribute {
                ReturnTribute::All => true,
                ReturnTribute::LuoOnly => ob.kind == super::outcome::TributeKind::Luo,
                ReturnTribute::None => false,
            };
            if ret {
                self.ret_left = ob.n;
                self.queue.clear();
                self.queue.push(to, Ask::Return);
                return Ok(());
            }
            self.ob_idx += 1;
        }
        self.enter_show();
        Ok(())
    }

    fn show_count(&self, s: usize) -> u8 {
        let k = if self.rules.bie_san { FOUR } else { THREE };
        self.suits[s][k].iter().copied().max().unwrap_or(0)
    }

    fn enter_show(&mut self) {
        self.phase = Phase::Show;
        self.queue.clear();
        if self.rules.shangban == Shangban::ShowMax {
            for k in 0..SEATS {
                let s = after(usize::from(self.order_start), k);
                if self.show_count(s) >= 2 {
                    self.queue.push(s, Ask::Show);
                }
            }
        }
        if self.queue.front().is_none() {
            self.finish_show();
        }
    }

    fn finish_show(&mut self) {
        let (leader, shown) = match self.rules.shangban {
            Shangban::ShowMax => match first_leader(&self.shows) {
                Some(s) => (s, true),
                None => (self.rng.below(SEATS), false),
            },
            Shangban::FirstPairDealt => match self.pair_leader {
                Some(s) => (usize::from(s), true),
                None => (self.rng.below(SEATS), false),
            },
        };
        self.leader = leader as u8;
        self.emit(Event::FirstLeader {
            seat: leader as u8,
            shown,
        });
        self.enter_buy();
    }

    fn enter_buy(&mut self) {
        if self.rules.bie_san {
            for k in 0..SEATS {
                let s = after(usize::from(self.leader), k);
                if !self.active[s] {
                    continue;
                }
                let threes: [u8; SEATS] = std::array::from_fn(|x| self.hands[x][THREE]);
                let h = self.hands[s];
                match buy_three(
                    s,
                    &threes,
                    [h[TWO], h[SMALL], h[BIG]],
                    self.rules.revolution,
                    self.rules.buy_order,
                ) {
                    BuyThree::None => {}
                    BuyThree::Buy { from, pay } => {
                        self.move_card(from, s, THREE);
                        self.move_card(s, from, pay);
                        self.emit(Event::BuyThree {
                            buyer: s as u8,
                            from: from as u8,
                            pay: pay as u8,
                        });
                    }
                    BuyThree::Ask { from } => {
                        self.move_card(from, s, THREE);
                        self.emit(Event::AskThree {
                            buyer: s as u8,
                            from: from as u8,
                        });
                    }
                    BuyThree::AutoRevolution => {
                        self.revolt(s, true);
                    }
                    BuyThree::Unresolved => self.emit(Event::NoThree { seat: s as u8 }),
                }
            }
            if self.revolts >= 2 {
                self.void();
                return;
            }
        }
        self.enter_revolt();
    }

    fn revolt(&mut self, s: usize, auto: bool) {
        for r in 0..N_RANKS {
            self.discarded[r] += self.hands[s][r];
        }
        self.hands[s] = [0; N_RANKS];
        self.active[s] = false;
        self.revolution = Some(s as u8);
        self.places.revolution = Some(s as u8);
        self.revolts += 1;
        self.emit(Event::Revolt {
            seat: s as u8,
            auto,
        });
    }

    fn void(&mut self) {
        self.emit(Event::Void);
        self.outcome = Some(Outcome {
            places: Vec::new(),
            revolution: None,
            void: true,
            kaidian: [false; SEATS],
            xuandian: [false; SEATS],
            burns: Vec::new(),
            men: Vec::new(),
            chuan_san_hu: false,
            scores: [0; SEATS],
        });
        self.phase = Phase::Over;
        self.queue.clear();
        self.emit(Event::HandEnd);
    }

    fn enter_revolt(&mut self) {
        self.phase = Phase::Revolt;
        self.queue.clear();
        if self.rules.revolution {
            for k in 0..SEATS {
                let s = after(usize::from(self.leader), k);
                if self.active[s] && may_revolt(&self.hands[s]) {
                    self.queue.push(s, Ask::Revolt);
                }
            }
        }
        if self.queue.front().is_none() {
            self.enter_head();
        }
    }

    fn enter_head(&mut self) {
        self.phase = Phase::Head;
        self.queue.clear();
        if let Some(r) = self.revolution {
            self.queue.push(opp(usize::from(r)), Ask::Head);
        } else {
            self.enter_xuandian();
        }
    }

    fn enter_xuandian(&mut self) {
        self.phase = Phase::XuanDian;
        self.queue.clear();
        for k in 0..SEATS {
            let s = after(usize::from(self.leader), k);
            if self.active[s] {
                self.queue.push(s, Ask::XuanDian);
            }
        }
        if self.queue.front().is_none() {
            self.enter_play();
        }
    }

    fn enter_play(&mut self) {
        self.phase = Phase::Play;
        let leader = self.next_active_from(usize::from(self.leader));
        self.start_round(leader);
    }

    /// Next decision of a start-of-hand phase, or the next phase.
    fn next_in_phase(&mut self) {
        self.queue.pop();
        if self.phase == Phase::Revolt && self.revolts >= 2 {
            self.void();
            return;
        }
        if self.queue.front().is_some() {
            return;
        }
        match self.phase {
            Phase::Show => self.finish_show(),
            Phase::Revolt => self.enter_head(),
            Phase::Head => self.enter_xuandian(),
            Phase::XuanDian => self.enter_play(),
            _ => {}
        }
    }

    // ------------------------------------------------------------------ play

    fn lift_burn(&mut self, by: usize) {
        if let Some((b, _)) = self.burn.take() {
            self.emit(Event::BurnLift {
                burner: b,
                by: by as u8,
            });
        }
    }

    fn check_luanchan(&mut self) -> bool {
        if !self.luanchan && self.active_count() <= usize::from(self.rules.luanchan_players) {
            self.luanchan = true;
            self.emit(Event::LuanchanStart);
            if let Some((b, _)) = self.burn {
                self.lift_burn(usize::from(b));
            }
            return true;
        }
        false
    }

    fn start_round(&mut self, leader: usize) {
        self.check_luanchan();
        self.top = None;
        self.passed = [false; SEATS];
        self.passed_on_top = [false; SEATS];
        self.yield_state = YieldState::None;
        self.gouji_yield_used = false;
        self.last_word_used = false;
        self.queue.clear();
        self.queue.push(leader, Ask::Lead);
    }

    /// The queue of decisions on the current top play.
    fn build_queue(&mut self) {
        self.queue.clear();
        let Some(t) = self.top else { return };
        let ts = usize::from(t.seat);
        let heads = self.heads();
        let mut r = seat_rights(
            ts,
            is_gouji(&t.play, &self.rules),
            t.dead,
            self.yield_state == YieldState::Duel,
            &self.active,
            &self.passed,
            &heads,
            self.luanchan,
            &self.rules,
        );
        if r.restricted {
            sort_burn_priority(ts, r.burners.as_mut_slice());
            for &b in r.burners.as_slice() {
                self.queue.push(b, Ask::Burn);
            }
            for &s in r.answerers.as_slice() {
                self.queue.push(s, Ask::Answer);
            }
            sort_burn_priority(ts, r.late_burners.as_mut_slice());
            for &b in r.late_burners.as_slice() {
                self.queue.push(b, Ask::Burn);
            }
        } else if self.yield_state == YieldState::Duel {
            for &s in r.answerers.as_slice() {
                self.queue.push(s, Ask::Answer);
            }
        } else {
            for &s in r.answerers.as_slice() {
                self.queue.push(s, Ask::Turn);
            }
        }
    }

    /// Move to the next decision; skip burn offers of seats without a burning play.
    fn advance(&mut self) {
        loop {
            let Some(d) = self.queue.front() else {
                self.end_round();
                return;
            };
            if d.ask == Ask::Burn {
                let s = usize::from(d.seat);
                let t = match self.top {
                    Some(t) => t,
                    None => return,
                };
                let hand = self.hands[s];
                let mut buf = std::mem::take(&mut self.buf);
                let ok = super::play::can_burn(&hand, &t.play, &self.rules, &mut buf);
                self.buf = buf;
                if !ok || !self.burn_eligible(s, usize::from(t.seat)) {
                    self.queue.pop();
                    continue;
                }
            }
            return;
        }
    }

    fn do_pass(&mut self, seat: usize, ask: Ask) {
        let burn = ask == Ask::Burn;
        if !burn {
            self.passed[seat] = true;
            self.passed_on_top[seat] = true;
        }
        self.emit(Event::Pass {
            seat: seat as u8,
            burn,
        });
        self.queue.pop();
        self.advance();
    }

    fn do_yield(&mut self, seat: usize, ask: Ask) {
        self.emit(Event::Yield { seat: seat as u8 });
        self.queue.pop();
        let rest: Vec<Decision> = self.queue.rest().collect();
        self.queue.clear();
        if ask == Ask::Turn {
            self.yield_state = YieldState::Yielded(seat as u8);
            for d in rest {
                let s = usize::from(d.seat);
                if s == after(seat, 1) || s == after(seat, 2) {
                    self.queue.push(s, Ask::YieldReply);
                }
            }
            self.queue.push(seat, Ask::YieldBack);
        } else {
            // On a 够级牌: the two seats after the yielder may burn first.
            self.gouji_yield_used = true;
            for b in [after(seat, 1), after(seat, 2)] {
                self.queue.push(b, Ask::Burn);
            }
            self.queue.push(seat, Ask::Answer);
            for d in rest {
                self.queue.push(usize::from(d.seat), d.ask);
            }
        }
        self.advance();
    }

    fn do_play(&mut self, seat: usize, ask: Ask, p: Play) {
        let prev = self.top;
        // A burner's lead without a joker that does not empty his hand: 烧失败 (§6.3).
        if ask == Ask::Lead
            && self.burn.is_some_and(|(b, _)| usize::from(b) == seat)
            && burn_lead(&self.hands[seat], &p) == BurnLead::Fail
        {
            self.burn_fail(seat, p);
            return;
        }
        let c = p.counts();
        for r in 0..N_RANKS {
            self.hands[seat][r] -= c[r];
            self.played[r] += c[r];
        }
        let is_burn = ask == Ask::Burn;
        self.emit(Event::Play {
            seat: seat as u8,
            play: p,
            burn: is_burn,
        });
        if let Some(t) = prev {
            let ts = usize::from(t.seat);
            // 解烧: any answer to the burner's play lifts the burn.
            if self.burn.is_some_and(|(b, _)| usize::from(b) == ts) && ts != seat {
                self.lift_burn(seat);
            }
            // 闷 (憋3): the beaten play (his last before the 3s) left its player with only 3s.
            if self.rules.bie_san
                && ts != seat
                && !self.men_done[ts]
                && !t.play.has_three()
                && only_threes(&self.hands[ts])
            {
                self.men_done[ts] = true;
                self.men.push([t.seat, seat as u8]);
                self.emit(Event::Men {
                    victim: t.seat,
                    beater: seat as u8,
                });
            }
        }
        if is_burn {
            if let Some(t) = prev {
                self.burn = Some((seat as u8, t.seat));
                self.emit(Event::BurnStart {
                    burner: seat as u8,
                    victim: t.seat,
                });
            }
        }
        let gouji = is_gouji(&p, &self.rules);
        let mut dead = false;
        if !self.luanchan && gouji && self.yaotou_left[seat] > 0 {
            dead = true;
            self.yaotou_left[seat] -= 1;
        }
        if let Some(t) = prev {
            let ts = usize::from(t.seat);
            if !self.luanchan
                && t.restricted
                && !self.active[ts]
                && self.places.place_of(ts).is_some_and(|i| i <= 1)
                && seat == opp(ts)
            {
                dead = true; // 底牌 够死级
            }
        }
        let mut went_out = false;
        if total(&self.hands[seat]) == 0 {
            went_out = true;
            let place = self.places.take_top(seat);
            self.active[seat] = false;
            self.last_out = seat as u8;
            self.emit(Event::Out {
                seat: seat as u8,
                place: place as u8,
            });
            if let Some((b, v)) = self.burn {
                if usize::from(b) == seat {
                    self.burns.push([v, b]);
                    self.burn = None;
                    self.emit(Event::BurnSuccess {
                        burner: b,
                        victim: v,
                    });
                }
            }
        }
        if let YieldState::Yielded(_) = self.yield_state {
            self.yield_state = YieldState::Duel;
        }
        let heads = self.heads();
        let restricted = !self.luanchan && (dead || (gouji && heads[seat].has_head()));
        self.top = Some(Top {
            play: p,
            seat: seat as u8,
            restricted,
            dead,
        });
        self.passed_on_top = [false; SEATS];
        if went_out && self.check_end() {
            return;
        }
        if self.rules.luanchan_at == LuanchanAt::Immediately && self.check_luanchan() {
            if let Some(t) = self.top.as_mut() {
                t.restricted = false;
                t.dead = false;
            }
        }
        self.build_queue();
        self.advance();
    }

    fn burn_fail(&mut self, seat: usize, p: Play) {
        let victim = self.burn.map_or(seat, |(_, v)| usize::from(v));
        self.burn = None;
        self.burn_fails += 1;
        let place = self.places.take_bottom(seat);
        self.active[seat] = false;
        self.emit(Event::BurnFail {
            seat: seat as u8,
            play: p,
            place: place as u8,
        });
        if self.check_end() {
            return;
        }
        if self.rules.luanchan_at == LuanchanAt::Immediately {
            self.check_luanchan();
        }
        let leader = self.next_active_from(victim);
        self.emit(Event::RoundEnd {
            leader: leader as u8,
        });
        self.start_round(leader);
    }

    fn end_round(&mut self) {
        let Some(t) = self.top else { return };
        let ts = usize::from(t.seat);
        let o = opp(ts);
        if self.rules.duitou_last_word
            && !self.luanchan
            && !t.restricted
            && self.yield_state == YieldState::None
            && !self.last_word_used
            && self.active[o]
            && self.passed_on_top[o]
        {
            self.last_word_used = true;
            self.queue.clear();
            self.queue.push(o, Ask::Turn);
            return;
        }
        if t.restricted && !self.kaidian[ts] && kaidian_eligible(&t.play, &self.rules) {
            self.kaidian[ts] = true;
            self.emit(Event::Kaidian { seat: t.seat });
        }
        let leader = self.next_active_from(ts);
        self.emit(Event::RoundEnd {
            leader: leader as u8,
        });
        self.start_round(leader);
    }

    /// End of the hand (§5.8): returns true when the hand is over.
    fn check_end(&mut self) -> bool {
        let n = self.active_count();
        let side_done = (0..2).any(|tm| (0..SEATS).all(|s| team(s) != tm || !self.active[s]));
        let over = n <= 1 || (self.rules.hand_end == HandEnd::SideOut && side_done);
        if !over {
            return false;
        }
        // The remaining players: fewer cards first, ties in playing order from the last out.
        let mut rest: Vec<usize> = (0..SEATS).filter(|&s| self.active[s]).collect();
        let lo = usize::from(self.last_out);
        rest.sort_by_key(|&s| (total(&self.hands[s]), (s + SEATS - lo) % SEATS));
        for s in rest {
            let place = self.places.take_top(s);
            self.active[s] = false;
            self.emit(Event::Out {
                seat: s as u8,
                place: place as u8,
            });
        }
        self.finish();
        true
    }

    fn finish(&mut self) {
        self.phase = Phase::Over;
        self.queue.clear();
        let places = self.places.complete().unwrap_or([0, 1, 2, 3, 4, 5]);
        let (sc, csh) = scores(&places, &self.rules);
        let mut kaidian = self.kaidian;
        if let Some(r) = self.revolution {
            kaidian[usize::from(r)] = false;
            kaidian[opp(usize::from(r))] = true;
        }
        self.outcome = Some(Outcome {
            places: places.iter().map(|&s| s as u8).collect(),
            revolution: self.revolution,
            void: false,
            kaidian,
            xuandian: self.xuandian,
            burns: self.burns.clone(),
            men: self.men.clone(),
            chuan_san_hu: csh,
            scores: sc,
        });
        self.emit(Event::HandEnd);
    }

    // ------------------------------------------------------------------ carry, checks, views

    /// The carry for the next hand (`None` while the hand is not over). A void hand carries
    /// the same obligations again (§3.2: redeal).
    pub fn next_carry(&self) -> Option<Carry> {
        let o = self.outcome.as_ref()?;
        if o.void {
            return Some(self.carry.clone());
        }
        let next = self.carry.hand_in_session + 1;
        let new_session = !self.rules.tribute || o.chuan_san_hu || next >= self.rules.session_hands;
        let obligations = obligations(o, new_session, &self.rules).ok()?;
        Some(Carry {
            hand_in_session: if new_session { 0 } else { next },
            obligations,
        })
    }

    /// The hand's settlement as a zero-sum ledger (seats named `"0"` … `"5"`): one
    /// `ADJUSTMENT` event with every seat's team score (§7.2). `None` while the hand runs.
    pub fn ledger(&self) -> Result<Option<crate::scoring::ledger::Ledger>> {
        use crate::scoring::ledger::{Ledger, SettlementRules};
        let Some(o) = &self.outcome else {
            return Ok(None);
        };
        let names: Vec<String> = (0..SEATS).map(|s| s.to_string()).collect();
        let mut l = Ledger::new(names.clone(), SettlementRules::default())?;
        if !o.void {
            let deltas: Vec<(String, i64)> = names.into_iter().zip(o.scores).collect();
            let reason = if o.chuan_san_hu {
                "够级: team sums of place points, 串三户"
            } else {
                "够级: team sums of place points"
            };
            l.record_deltas("ADJUSTMENT", reason, &deltas, None)?;
        }
        Ok(Some(l))
    }

    /// Every card is somewhere: hands + table + 革命 discards = the 216 cards.
    pub fn cards_conserved(&self) -> bool {
        let mut sum = self.played;
        for r in 0..N_RANKS {
            sum[r] += self.discarded[r];
            for h in &self.hands {
                sum[r] += h[r];
            }
        }
        sum == FULL_COUNTS
    }

    /// Switch values of the rules (non-default only), for the log.
    pub fn switches(&self) -> Vec<(String, SwitchValue)> {
        super::rules_switches(&self.rules)
    }

    /// The JSON log (one record per event).
    pub fn events_json(&self) -> Vec<Value> {
        self.events_json_from(0)
    }

    /// The JSON records of the events from index `start` on.
    pub fn events_json_from(&self, start: usize) -> Vec<Value> {
        self.events
            .get(start..)
            .unwrap_or(&[])
            .iter()
            .map(|e| self.event_json(e))
            .collect()
    }

    /// The JSON record of one of the hand's events.
    pub fn event_json(&self, e: &Event) -> Value {
        match *e {
            Event::Deal => self.deal_record().json(),
            Event::HandEnd => end_json(&self.outcome),
            _ => e.json(),
        }
    }

    /// What the `DEAL` record says (its JSON: [`DealRecord::json`]).
    pub fn deal_record(&self) -> DealRecord {
        DealRecord {
            rules: self.rules,
            seed: self.seed,
            carry: self.carry.clone(),
            dealt: self.dealt,
            position: self.position.clone(),
        }
    }

    /// The outcome as JSON (`places`: seats from 头科 to 大落), `null` while the hand runs.
    pub fn outcome_json(&self) -> Value {
        outcome_json(&self.outcome)
    }

    /// What `seat` may see: his own cards, everybody's card count, the table and the flags.
    pub fn observation(&self, seat: usize) -> Value {
        let counts: Vec<u32> = self.hands.iter().map(total).collect();
        let top = self.top.map(|t| {
            json!({"seat": t.seat, "cards": t.play.cards(), "restricted": t.restricted,
                   "dead": t.dead, "gouji": is_gouji(&t.play, &self.rules)})
        });
        let places: Vec<Value> = (0..SEATS)
            .map(|s| match self.places.place_of(s) {
                Some(i) => json!(PLACE_NAMES[i]),
                None => Value::Null,
            })
            .collect();
        let heads: Vec<&str> = self
            .heads()
            .iter()
            .map(|h| match h {
                Head::Has => "有头",
                Head::YaoTou(_) => "要头",
                Head::Wu => "无头",
            })
            .collect();
        json!({
            "seat": seat,
            "phase": self.phase.name(),
            "hand": format_counts(&self.hands[seat.min(SEATS - 1)]),
            "cards_left": counts,
            "active": self.active,
            "to_act": self.to_act(),
            "ask": self.ask().map(Ask::name),
            "top": top,
            "passed": self.passed,
            "luanchan": self.luanchan,
            "burn": self.burn.map(|(b, v)| json!({"burner": b, "victim": v})),
            "places": places,
            "heads": heads,
            "revolution": self.revolution,
            "kaidian": self.kaidian,
            "xuandian": self.xuandian,
            "played": format_counts(&self.played),
            "shows": self.shows,
        })
    }

    /// Test hook: make the first logged tribute claim other cards than were given.
    #[cfg(test)]
    pub(crate) fn forge_first_tribute_for_test(&mut self) {
        if let Some(Event::Tribute { cards, .. }) = self
            .events
            .iter_mut()
            .find(|e| matches!(e, Event::Tribute { .. }))
        {
            if let Some(r) = (0..N_RANKS).find(|&r| cards[r] > 0) {
                cards[r] -= 1;
                cards[0] += 1;
            }
        }
    }

    /// Whether `s`'s remaining cards are only 3s (闷 exposure).
    pub fn only_threes(&self, s: usize) -> bool {
        only_threes(&self.hands[s])
    }

    /// Whether `p` is 憋3-legal from `seat`'s hand.
    pub fn bie_san_ok(&self, seat: usize, p: &Play) -> bool {
        bie_san_ok(&self.hands[seat], p, self.rules.bie_san)
    }
}
