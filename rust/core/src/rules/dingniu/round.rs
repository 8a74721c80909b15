//! The state machine of one 顶牛 hand (dingniu.md §3–§6): deal from a seed, the 头牌's opening
//! (H1, H2), turns with the must-lay rule and 扣, 算帐 checked on every placement, the end of the
//! hand, places and payments, the event log and its replay, and the carry to the next hand.
//!
//! Seats are physical (0..4 around the table); play runs from the 头牌 in increasing seat order
//! (counter-clockwise, dingniu.md §3), so the playing order is `toupai, toupai+1, …` mod 4.

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::scoring::ledger::{Ledger, SettlementRules};

use super::rng::Rng;
use super::rules::DingniuRules;
use super::settle::{Places, ZhangOutcome, net, plain_lines, rank, zhang_lines};
use super::tile::{
    Counts, Ends, FULL_SET, N_KINDS, N_TILES, Placement, Side, Tile, can_lay, count, counts_of,
    format_counts, pips, placements, tiles_of,
};
use super::zhang::{self, Position, SmotherSet, ZhangKind};

/// One move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The 头牌's first tile (no side): ends `[lo|hi]`.
    Open(Tile),
    /// The 头牌 opens with both copies of a double at once (`44+44`, §4.3 H2).
    OpenPair(Tile),
    /// Lay a tile on an open end.
    Lay(Tile, Side),
    /// Turn a tile face down (扣), only when nothing fits.
    Kou(Tile),
}

/// Number of flat action ids (see [`Action::id`]).
pub const N_ACTION_IDS: usize = 58;

impl Action {
    /// The flat id used by the batch API and the future RL environment:
    /// `0..26` lay (2·kind + side, L = 0), `26..39` 扣 kind, `39..52` open kind,
    /// `52..58` open a double pair (kind 0..6).
    pub const fn id(self) -> u8 {
        match self {
            Action::Lay(t, s) => 2 * t.index() as u8 + matches!(s, Side::R) as u8,
            Action::Kou(t) => 26 + t.index() as u8,
            Action::Open(t) => 39 + t.index() as u8,
            Action::OpenPair(t) => 52 + t.index() as u8,
        }
    }
    /// The action of a flat id (`None`: out of range or a pair of a non-double).
    pub fn from_id(id: u8) -> Option<Action> {
        let t = |i: u8| Tile::from_index(i);
        Some(match id {
            0..26 => Action::Lay(t(id / 2)?, if id % 2 == 0 { Side::L } else { Side::R }),
            26..39 => Action::Kou(t(id - 26)?),
            39..52 => Action::Open(t(id - 39)?),
            52..58 => Action::OpenPair(t(id - 52)?),
            _ => return None,
        })
    }
    /// The tile it names.
    pub const fn tile(self) -> Tile {
        match self {
            Action::Open(t) | Action::OpenPair(t) | Action::Lay(t, _) | Action::Kou(t) => t,
        }
    }

    /// Parse the notation of dingniu.md §2.3: `46` (opening), `44+44`, `16:R`, `kou 11` / `扣11`.
    /// A bare tile parses as [`Action::Open`]; [`Round::parse_action`] reads it as a lay when
    /// the tile fits only one way.
    pub fn parse(text: &str) -> Result<Action> {
        let s = text.trim();
        let kou = s
            .strip_prefix("kou")
            .or_else(|| s.strip_prefix("扣"))
            .or_else(|| s.strip_prefix("KOU"));
        if let Some(rest) = kou {
            return Ok(Action::Kou(Tile::parse(rest.trim())?));
        }
        if let Some((a, b)) = s.split_once('+') {
            let (ta, tb) = (Tile::parse(a)?, Tile::parse(b)?);
            if ta != tb || !ta.is_double() {
                return Err(Error::hand(format!(
                    "{s:?}: a pair opening is two copies of one double, as in \"44+44\""
                )));
            }
            return Ok(Action::OpenPair(ta));
        }
        if let Some((t, side)) = s.split_once(':') {
            return Ok(Action::Lay(Tile::parse(t)?, Side::parse(side)?));
        }
        if s.is_empty() {
            return Err(Error::hand(
                "empty move: write a tile (46), tile:side (16:R), 44+44 or kou 11",
            ));
        }
        Tile::parse(s).map(Action::Open).map_err(|e| {
            e.context("a move is a tile (46), tile:side (16:R), the pair 44+44 or kou 11")
        })
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Open(t) => write!(f, "{t}"),
            Action::OpenPair(t) => write!(f, "{t}+{t}"),
            Action::Lay(t, s) => write!(f, "{t}:{}", s.letter()),
            Action::Kou(t) => write!(f, "kou {t}"),
        }
    }
}

/// Up to 26 actions, on the stack.
#[derive(Clone, Copy, Debug)]
pub struct ActionList {
    items: [Action; 2 * N_KINDS],
    len: u8,
}

impl ActionList {
    pub const fn new() -> Self {
        ActionList {
            items: [Action::Kou(Tile::HONG_BA); 2 * N_KINDS],
            len: 0,
        }
    }
    pub fn push(&mut self, a: Action) {
        self.items[self.len as usize] = a;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn contains(&self, a: &Action) -> bool {
        self.as_slice().contains(a)
    }
}

impl Default for ActionList {
    fn default() -> Self {
        Self::new()
    }
}

/// The 头牌's allowed openings (§4.3): H2 forms the pair when required; H1 keeps the tiles that
/// leave another player a matching 竖牌 — all of them if none does (gap-fill).
pub fn openings(r: &DingniuRules, hands: &[Counts; 4], toupai: u8) -> ActionList {
    let mine = &hands[toupai as usize];
    let mut all = ActionList::new();
    for t in Tile::ALL {
        let c = mine[t.index()];
        if c == 0 {
            continue;
        }
        all.push(if c == 2 && r.pair_required(t) {
            Action::OpenPair(t)
        } else {
            Action::Open(t)
        });
    }
    if !r.opening_h1 {
        return all;
    }
    let mut ok = ActionList::new();
    for &a in all.as_slice() {
        if h1_ok(hands, toupai, a.tile()) {
            ok.push(a);
        }
    }
    if ok.is_empty() { all } else { ok }
}

/// H1 for one tile: another player holds a 竖牌 matching one of its ends.
pub fn h1_ok(hands: &[Counts; 4], toupai: u8, t: Tile) -> bool {
    (0..4u8).filter(|&s| s != toupai).any(|s| {
        Tile::ALL.iter().any(|u| {
            !u.is_double() && hands[s as usize][u.index()] > 0 && u.pip_mask() & t.pip_mask() != 0
        })
    })
}

/// The legal actions of a hand that is not opening (§4.1–4.2): every placement, else 扣 of any
/// tile kind held.
pub fn turn_actions(ends: Ends, hand: &Counts) -> ActionList {
    let mut out = ActionList::new();
    let ps = placements(ends, hand);
    if ps.is_empty() {
        for t in Tile::ALL {
            if hand[t.index()] > 0 {
                out.push(Action::Kou(t));
            }
        }
    } else {
        for p in ps.iter() {
            out.push(Action::Lay(p.tile, p.side));
        }
    }
    out
}

/// Why a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Every tile laid or turned down; points = 扣 pips.
    PlayedOut,
    /// A 算帐 ended it; points = hand + 扣 pips.
    Zhang,
}

/// The result of a hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub reason: EndReason,
    /// 扣 pips (played out) or counts (算帐), per seat.
    pub points: [i64; 4],
    pub places: Places,
    /// The 算帐: kind, by whom, how it was settled.
    pub zhang: Option<(ZhangKind, u8, ZhangOutcome)>,
    /// Net amount per seat (zero-sum).
    pub pay: [i64; 4],
    /// Payment lines `(payer, payee, amount)`.
    pub lines: Vec<(u8, u8, i64)>,
}

impl Outcome {
    pub fn silan_by(&self) -> Option<u8> {
        match self.zhang {
            Some((_, _, ZhangOutcome::Silan(y))) => Some(y),
            _ => None,
        }
    }
    pub fn to_json(&self) -> Value {
        let (zhang, success) = match self.zhang {
            Some((k, by, o)) => (
                json!({"kind": k.zh(), "by": by, "success": o != ZhangOutcome::Baozhuang}),
                Some(o != ZhangOutcome::Baozhuang),
            ),
            None => (Value::Null, None),
        };
        json!({
            "type": "end",
            "reason": match self.reason { EndReason::PlayedOut => "played_out", EndReason::Zhang => "suanzhang" },
            "points": self.points,
            "winner": self.places.winner,
            "da_zhuang": self.places.da_zhuang,
            "er_zhuang": self.places.er_zhuang,
            "xiao_zhuang": self.places.xiao_zhuang,
            "zhang": zhang,
            "success": success,
            "baozhuang": matches!(self.zhang, Some((_, _, ZhangOutcome::Baozhuang))),
            "silan_by": self.silan_by(),
            "pay": self.pay,
            "payments": self.lines.iter().map(|&(p, q, a)| json!({"payer": p, "payee": q, "amount": a})).collect::<Vec<_>>(),
        })
    }
}

/// What carries from one hand to the next (dingniu.md §3): the previous winner shuffles, the
/// previous 大庄 designates the 头牌's stack and rolls the dice that choose the 头牌.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Carry {
    /// The 头牌, when given (otherwise chosen by the dice, or at random for a first hand).
    pub toupai: Option<u8>,
    pub prev_winner: Option<u8>,
    pub prev_da_zhuang: Option<u8>,
}

impl Carry {
    pub fn to_json(&self) -> Value {
        json!({"toupai": self.toupai, "prev_winner": self.prev_winner, "prev_da_zhuang": self.prev_da_zhuang})
    }
}

/// One entry of the event log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Deal {
        toupai: u8,
        hands: [Counts; 4],
        seed: Option<u64>,
        carry: Carry,
        dice: Option<[u8; 2]>,
    },
    Open {
        seat: u8,
        tile: Tile,
        pair: bool,
        ends: Ends,
    },
    Lay {
        seat: u8,
        tile: Tile,
        side: Side,
        ends: Ends,
    },
    Kou {
        seat: u8,
        tile: Tile,
    },
    /// A placement formed a 帐 (also when forced or exempt: then `counted` is false).
    Zhang {
        seat: u8,
        kind: ZhangKind,
        deliberate: bool,
        toupai_jingshou: bool,
        counted: bool,
        smothered: SmotherSet,
    },
    End(Outcome),
}

fn hand_json(c: &Counts) -> Vec<&'static str> {
    tiles_of(c).into_iter().map(Tile::code).collect()
}

impl Event {
    /// The JSON record (what `events()` returns and `replay` reads).
    pub fn to_json(&self) -> Value {
        match self {
            Event::Deal {
                toupai,
                hands,
                seed,
                carry,
                dice,
            } => json!({
                "type": "deal",
                "toupai": toupai,
                "order": (0..4).map(|i| (toupai + i) % 4).collect::<Vec<_>>(),
                "hands": hands.iter().map(hand_json).collect::<Vec<_>>(),
                "seed": seed,
                "carry": carry.to_json(),
                "dice": dice,
            }),
            Event::Open {
                seat,
                tile,
                pair,
                ends,
            } => json!({
                "type": "open", "seat": seat,
                "tile": if *pair { format!("{tile}+{tile}") } else { tile.code().to_string() },
                "ends": [ends.0, ends.1],
            }),
            Event::Lay {
                seat,
                tile,
                side,
                ends,
            } => json!({
                "type": "lay", "seat": seat, "tile": tile.code(), "side": side.letter(),
                "ends": [ends.0, ends.1],
            }),
            Event::Kou { seat, tile } => json!({"type": "kou", "seat": seat, "tile": tile.code()}),
            Event::Zhang {
                seat,
                kind,
                deliberate,
                toupai_jingshou,
                counted,
                smothered,
            } => json!({
                "type": "zhang", "seat": seat, "kind": kind.zh(), "deliberate": deliberate,
                "toupai_jingshou": toupai_jingshou, "counted": counted,
                "smothered": smothered.iter().map(|s| json!({"tile": s.tile.code(), "holder": s.holder})).collect::<Vec<_>>(),
            }),
            Event::End(o) => o.to_json(),
        }
    }
}

/// One laid tile in the order laid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineItem {
    pub seat: u8,
    pub tile: Tile,
    /// `None` for the opening.
    pub side: Option<Side>,
    pub pair: bool,
}

#[derive(Clone, Copy, Debug)]
struct Prev {
    seat: u8,
    action: Action,
    ends: Option<Ends>,
    hands: [Counts; 4],
}

/// What one seat may see (no allocation; the bots play from this).
#[derive(Clone, Copy, Debug)]
pub struct Observation {
    pub seat: u8,
    pub toupai: u8,
    pub to_act: Option<u8>,
    pub hand: Counts,
    /// The seat's own 扣 tiles.
    pub kou: Counts,
    /// Tiles laid in the line (open information).
    pub laid: Counts,
    pub ends: Option<Ends>,
    pub hand_sizes: [u8; 4],
    pub kou_sizes: [u8; 4],
    /// The seat's legal actions (empty unless it is to act).
    pub legal: ActionList,
}

/// One hand of 顶牛.
#[derive(Clone, Debug)]
pub struct Round {
    rules: DingniuRules,
    toupai: u8,
    hands: [Counts; 4],
    kou: [Counts; 4],
    kou_pips: [u32; 4],
    kou_count: [u8; 4],
    laid: Counts,
    line: [LineItem; N_TILES],
    line_len: u8,
    ends: Option<Ends>,
    /// Playing position (0 = 头牌) of the seat to act.
    turn: u8,
    over: bool,
    prev: Option<Prev>,
    events: Vec<Event>,
    outcome: Option<Outcome>,
}

impl Round {
    /// Deal a hand from `seed` (§3): the 头牌 is `carry.toupai`, else the previous 大庄's dice
    /// (two dice, counting counter-clockwise from himself as 1; gap-fill), else random (first
    /// hand, gap-fill). The 24 tiles are shuffled into four stacks of six; the 头牌 takes the
    /// first, the others follow in playing order.
    pub fn new(rules: DingniuRules, seed: u64, carry: Carry) -> Result<Round> {
        for t in [carry.toupai, carry.prev_da_zhuang, carry.prev_winner]
            .into_iter()
            .flatten()
        {
            if t > 3 {
                return Err(Error::hand(format!("carry: seat {t} is not a seat 0..3")));
            }
        }
        let mut rng = Rng::new(seed);
        let mut dice = None;
        let toupai = match (carry.toupai, carry.prev_da_zhuang) {
            (Some(t), _) => t,
            (None, Some(d)) => {
                let d1 = 1 + rng.below(6) as u8;
                let d2 = 1 + rng.below(6) as u8;
                dice = Some([d1, d2]);
                (d + d1 + d2 - 1) % 4
            }
            (None, None) => rng.below(4) as u8,
        };
        let mut wall = [Tile::HONG_BA; N_TILES];
        let mut n = 0;
        for t in Tile::ALL {
            for _ in 0..t.copies() {
                wall[n] = t;
                n += 1;
            }
        }
        for i in (1..N_TILES).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            wall.swap(i, j);
        }
        let mut hands = [[0u8; N_KINDS]; 4];
        for (k, stack) in wall.chunks(6).enumerate() {
            let seat = (toupai as usize + k) % 4;
            for t in stack {
                hands[seat][t.index()] += 1;
            }
        }
        let mut r = Round::start(rules, hands, toupai);
        r.events.push(Event::Deal {
            toupai,
            hands,
            seed: Some(seed),
            carry,
            dice,
        });
        Ok(r)
    }

    /// A hand from given hands (by seat) and 头牌: all 24 tiles, six each.
    pub fn from_hands(rules: DingniuRules, hands: [Counts; 4], toupai: u8) -> Result<Round> {
        if toupai > 3 {
            return Err(Error::hand(format!(
                "toupai {toupai}: the 头牌 is a seat 0..3"
            )));
        }
        let mut total = [0u8; N_KINDS];
        for (s, h) in hands.iter().enumerate() {
            if count(h) != 6 {
                return Err(Error::hand(format!(
                    "seat {s} holds {} tiles ({}); each player gets six",
                    count(h),
                    format_counts(h)
                )));
            }
            for i in 0..N_KINDS {
                total[i] += h[i];
            }
        }
        if total != FULL_SET {
            let t = Tile::ALL
                .iter()
                .find(|t| total[t.index()] != t.copies())
                .copied()
                .unwrap_or(Tile::HONG_BA);
            return Err(Error::hand(format!(
                "the four hands must be the 24-tile set: {} ({}) appears {} times, the set has {}",
                t.code(),
                t.name(),
                total[t.index()],
                t.copies()
            )));
        }
        let mut r = Round::start(rules, hands, toupai);
        r.events.push(Event::Deal {
            toupai,
            hands,
            seed: None,
            carry: Carry {
                toupai: Some(toupai),
                ..Carry::default()
            },
            dice: None,
        });
        Ok(r)
    }

    fn start(rules: DingniuRules, hands: [Counts; 4], toupai: u8) -> Round {
        let mut events = Vec::with_capacity(32);
        events.clear();
        Round {
            rules,
            toupai,
            hands,
            kou: [[0; N_KINDS]; 4],
            kou_pips: [0; 4],
            kou_count: [0; 4],
            laid: [0; N_KINDS],
            line: [LineItem {
                seat: 0,
                tile: Tile::HONG_BA,
                side: None,
                pair: false,
            }; N_TILES],
            line_len: 0,
            ends: None,
            turn: 0,
            over: false,
            prev: None,
            events,
            outcome: None,
        }
    }

    pub fn rules(&self) -> &DingniuRules {
        &self.rules
    }
    pub fn toupai(&self) -> u8 {
        self.toupai
    }
    /// Seats in playing order from the 头牌.
    pub fn order(&self) -> [u8; 4] {
        let t = self.toupai;
        [t, (t + 1) % 4, (t + 2) % 4, (t + 3) % 4]
    }
    /// Playing position of a seat (0 = 头牌 … 3 = 末牌).
    pub fn position_of(&self, seat: u8) -> u8 {
        (seat + 4 - self.toupai) % 4
    }
    pub fn hand(&self, seat: u8) -> &Counts {
        &self.hands[seat as usize]
    }
    pub fn hands(&self) -> &[Counts; 4] {
        &self.hands
    }
    pub fn kou(&self, seat: u8) -> &Counts {
        &self.kou[seat as usize]
    }
    pub fn kou_pips(&self) -> [u32; 4] {
        self.kou_pips
    }
    pub fn laid(&self) -> &Counts {
        &self.laid
    }
    pub fn ends(&self) -> Option<Ends> {
        self.ends
    }
    pub fn line(&self) -> &[LineItem] {
        &self.line[..self.line_len as usize]
    }
    pub fn is_over(&self) -> bool {
        self.over
    }
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
    /// The seat to act, `None` when the hand is over.
    pub fn to_act(&self) -> Option<u8> {
        (!self.over).then(|| (self.toupai + self.turn) % 4)
    }
    /// Whether the next move is the opening.
    pub fn is_opening(&self) -> bool {
        self.ends.is_none()
    }

    /// The legal actions of `seat` (empty unless it is to act).
    pub fn legal_actions(&self, seat: u8) -> ActionList {
        if self.to_act() != Some(seat) {
            return ActionList::new();
        }
        match self.ends {
            None => openings(&self.rules, &self.hands, self.toupai),
            Some(e) => turn_actions(e, &self.hands[seat as usize]),
        }
    }

    /// What `seat` may see.
    pub fn observe(&self, seat: u8) -> Observation {
        let s = seat as usize % 4;
        Observation {
            seat,
            toupai: self.toupai,
            to_act: self.to_act(),
            hand: self.hands[s],
            kou: self.kou[s],
            laid: self.laid,
            ends: self.ends,
            hand_sizes: [0, 1, 2, 3].map(|i| count(&self.hands[i]) as u8),
            kou_sizes: self.kou_count,
            legal: self.legal_actions(seat),
        }
    }

    /// The position the 算帐 rules look at.
    pub fn position(&self) -> Option<Position> {
        self.ends.map(|ends| Position {
            ends,
            hands: self.hands,
            kou_count: self.kou_count,
            toupai: self.toupai,
        })
    }

    /// Read a move written by a player in context: a bare tile after the opening means the one
    /// placement of that tile (an error naming both when it fits two ways).
    pub fn parse_action(&self, text: &str) -> Result<Action> {
        let a = Action::parse(text)?;
        match (a, self.ends, self.to_act()) {
            (Action::Open(t), Some(e), Some(seat)) => {
                let ps = placements(e, &self.hands[seat as usize]);
                let mine: Vec<&Placement> = ps.iter().filter(|p| p.tile == t).collect();
                match mine.as_slice() {
                    [p] => Ok(Action::Lay(p.tile, p.side)),
                    [] => Ok(a),
                    _ => Err(Error::hand(format!(
                        "{t} fits both ends {e}: write {t}:L or {t}:R"
                    ))),
                }
            }
            _ => Ok(a),
        }
    }

    /// Why `a` is illegal for the seat to act, with a hint (`None`: legal).
    fn refusal(&self, a: Action) -> Option<String> {
        let Some(seat) = self.to_act() else {
            return Some("the hand is over".into());
        };
        let hand = &self.hands[seat as usize];
        let t = a.tile();
        let legal_now = match (a, self.ends) {
            (Action::Lay(t, s), Some(e)) => hand[t.index()] > 0 && e.place(t, s).is_some(),
            (Action::Kou(t), Some(e)) => hand[t.index()] > 0 && !can_lay(e, hand),
            (Action::Open(_) | Action::OpenPair(_), None) => {
                openings(&self.rules, &self.hands, self.toupai).contains(&a)
            }
            _ => false,
        };
        if legal_now {
            return None;
        }
        let legal = self.legal_actions(seat);
        let listed = legal
            .as_slice()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let have = hand[t.index()];
        let need = if matches!(a, Action::OpenPair(_)) {
            2
        } else {
            1
        };
        if have < need {
            return Some(format!(
                "seat {seat} does not hold {} {t} ({}); hand: {}",
                if need == 2 { "two" } else { "a" },
                t.name(),
                format_counts(hand)
            ));
        }
        Some(match (a, self.ends) {
            (Action::Lay(..) | Action::Kou(_), None) => format!(
                "the hand has not started: the 头牌 (seat {seat}) opens with one tile and no side; allowed: {listed}"
            ),
            (Action::Open(_) | Action::OpenPair(_), Some(e)) => format!(
                "the line is open at {e}: lay tile:side (e.g. {t}:L) or kou a tile; legal: {listed}"
            ),
            (Action::Open(t), None) | (Action::OpenPair(t), None) => {
                if matches!(a, Action::Open(_))
                    && hand[t.index()] == 2
                    && self.rules.pair_required(t)
                {
                    format!(
                        "holding both {} ({t}) the 头牌 opens with the pair {t}+{t} (§4.3 H2); allowed: {listed}",
                        t.name()
                    )
                } else if matches!(a, Action::OpenPair(_)) && !self.rules.pair_required(t) {
                    format!(
                        "{t}+{t}: this variant has no pair opening for {} (switch double_pair_opening); allowed: {listed}",
                        t.name()
                    )
                } else {
                    format!(
                        "{a} may not open: H1 不能拉三家 - nobody else holds a 竖牌 with a {} or a {} (§4.3); allowed: {listed}",
                        t.lo(),
                        t.hi()
                    )
                }
            }
            (Action::Lay(t, s), Some(e)) => {
                if e.0 == e.1 && e.place(t, s).is_some() {
                    return None;
                }
                format!(
                    "{t} does not fit the {} end of {e}; legal: {listed}",
                    s.letter()
                )
            }
            (Action::Kou(_), Some(e)) => format!(
                "不能扣活牌: seat {seat} can lay a tile on {e}, so he may not turn one down (§4.2); legal: {listed}"
            ),
        })
    }

    /// Apply the move of the seat to act. An illegal move is refused with
    /// [`Error::InvalidHand`] naming the legal ones; the state is then unchanged. Returns the
    /// number of events appended.
    pub fn step(&mut self, a: Action) -> Result<usize> {
        if let Some(msg) = self.refusal(a) {
            return Err(Error::hand(msg));
        }
        let seat = self.to_act().unwrap_or(self.toupai);
        // Everything that can fail is computed before the state changes.
        let lay = match a {
            Action::Lay(t, side) => {
                let (Some(e), Some(pos)) = (self.ends, self.position()) else {
                    return Err(Error::hand("no line to lay on"));
                };
                let Some(new) = e.place(t, side) else {
                    return Err(Error::hand(format!("{t} does not fit {e}")));
                };
                let p = Placement {
                    tile: t,
                    side,
                    ends: new,
                };
                let chk = self
                    .rules
                    .suanzhang
                    .then(|| zhang::check(&self.rules, &pos, seat, &p));
                Some((t, side, new, chk))
            }
            _ => None,
        };
        let before = self.events.len();
        let snapshot = Prev {
            seat,
            action: a,
            ends: self.ends,
            hands: self.hands,
        };
        let prev = self.prev.replace(snapshot);
        let s = seat as usize;
        let mut ended = false;
        match (a, lay) {
            (Action::Open(t) | Action::OpenPair(t), _) => {
                let n = if matches!(a, Action::OpenPair(_)) {
                    2
                } else {
                    1
                };
                self.hands[s][t.index()] -= n;
                self.laid[t.index()] += n;
                let ends = Ends::opening(t);
                self.ends = Some(ends);
                self.push_line(seat, t, None, n == 2);
                self.events.push(Event::Open {
                    seat,
                    tile: t,
                    pair: n == 2,
                    ends,
                });
            }
            (Action::Kou(t), _) => {
                self.hands[s][t.index()] -= 1;
                self.kou[s][t.index()] += 1;
                self.kou_pips[s] += u32::from(t.pips());
                self.kou_count[s] += 1;
                self.events.push(Event::Kou { seat, tile: t });
            }
            (Action::Lay(..), Some((t, side, new, chk))) => {
                self.hands[s][t.index()] -= 1;
                self.laid[t.index()] += 1;
                self.ends = Some(new);
                self.push_line(seat, t, Some(side), false);
                self.events.push(Event::Lay {
                    seat,
                    tile: t,
                    side,
                    ends: new,
                });
                if let Some(c) = chk {
                    if let Some(kind) = c.kind {
                        self.events.push(Event::Zhang {
                            seat,
                            kind,
                            deliberate: c.deliberate,
                            toupai_jingshou: c.toupai_jingshou,
                            counted: c.counted,
                            smothered: c.smothered,
                        });
                        if c.counted {
                            self.finish_zhang(seat, kind, prev);
                            ended = true;
                        }
                    }
                }
            }
            (Action::Lay(..), None) => {}
        }
        if !ended {
            self.advance();
        }
        Ok(self.events.len() - before)
    }

    fn push_line(&mut self, seat: u8, tile: Tile, side: Option<Side>, pair: bool) {
        self.line[self.line_len as usize] = LineItem {
            seat,
            tile,
            side,
            pair,
        };
        self.line_len += 1;
    }

    fn advance(&mut self) {
        for k in 1..=4u8 {
            let p = (self.turn + k) % 4;
            let seat = (self.toupai + p) % 4;
            if count(&self.hands[seat as usize]) > 0 {
                self.turn = p;
                return;
            }
        }
        self.finish_plain();
    }

    fn finish_plain(&mut self) {
        let points = self.kou_pips.map(i64::from);
        let places = rank(&points, &self.order());
        let lines = plain_lines(&self.rules, &places).to_vec();
        self.finish(Outcome {
            reason: EndReason::PlayedOut,
            points,
            places,
            zhang: None,
            pay: net(&lines),
            lines,
        });
    }

    fn finish_zhang(&mut self, x: u8, kind: ZhangKind, prev: Option<Prev>) {
        let Some(ends) = self.ends else { return };
        let points = zhang::zhang_counts(&self.rules, ends, &self.hands, &self.kou_pips, x);
        let places = rank(&points, &self.order());
        let silan_by = if kind == ZhangKind::Hong && self.rules.silan && places.winner == x {
            prev.and_then(|p| self.silan_liable(p, x))
        } else {
            None
        };
        let (o, lines) = zhang_lines(&self.rules, &places, x, silan_by);
        self.finish(Outcome {
            reason: EndReason::Zhang,
            points,
            places,
            zhang: Some((kind, x, o)),
            pay: net(&lines),
            lines,
        });
    }

    /// §6.6: `p` is the move just before X's 红帐; its player is liable when he laid a tile
    /// although another of his legal moves would have left X no 红帐.
    fn silan_liable(&self, p: Prev, x: u8) -> Option<u8> {
        if p.seat == x || matches!(p.action, Action::Kou(_)) {
            return None;
        }
        let alternatives = match p.ends {
            None => openings(&self.rules, &p.hands, self.toupai),
            Some(e) => turn_actions(e, &p.hands[p.seat as usize]),
        };
        let prevents = alternatives.as_slice().iter().any(|&alt| {
            if alt == p.action {
                return false;
            }
            let mut hands = p.hands;
            let (ends, n) = match (alt, p.ends) {
                (Action::Open(t), _) => (Ends::opening(t), 1),
                (Action::OpenPair(t), _) => (Ends::opening(t), 2),
                (Action::Lay(t, s), Some(e)) => match e.place(t, s) {
                    Some(n) => (n, 1),
                    None => return false,
                },
                _ => return false,
            };
            let c = &mut hands[p.seat as usize][alt.tile().index()];
            *c = c.saturating_sub(n);
            let pos = Position {
                ends,
                hands,
                kou_count: self.kou_count,
                toupai: self.toupai,
            };
            !zhang::can_make_hongzhang(&self.rules, &pos, x)
        });
        prevents.then_some(p.seat)
    }

    fn finish(&mut self, o: Outcome) {
        self.over = true;
        self.events.push(Event::End(o.clone()));
        self.outcome = Some(o);
    }

    /// The carry for the next hand (`None` while the hand is being played).
    pub fn carry(&self) -> Option<Carry> {
        self.outcome.as_ref().map(|o| Carry {
            toupai: None,
            prev_winner: Some(o.places.winner),
            prev_da_zhuang: Some(o.places.da_zhuang),
        })
    }

    /// Test hook: the event log and the outcome, to forge a broken hand.
    #[cfg(test)]
    pub(crate) fn forge_for_test(&mut self) -> (&mut Vec<Event>, &mut Option<Outcome>) {
        (&mut self.events, &mut self.outcome)
    }

    /// The event log as JSON records.
    pub fn events_json(&self) -> Vec<Value> {
        self.events.iter().map(Event::to_json).collect()
    }

    /// What `seat` may see, as JSON (hand, own 扣, line, ends, sizes, legal moves).
    pub fn observation_json(&self, seat: u8) -> Value {
        let o = self.observe(seat);
        json!({
            "seat": seat,
            "toupai": self.toupai,
            "position": self.position_of(seat),
            "order": self.order(),
            "to_act": o.to_act,
            "over": self.over,
            "hand": hand_json(&o.hand),
            "hand_pips": pips(&o.hand),
            "kou": hand_json(&o.kou),
            "kou_pips": pips(&o.kou),
            "ends": o.ends.map(|e| [e.0, e.1]),
            "line": self.line().iter().map(|l| json!({
                "seat": l.seat,
                "tile": if l.pair { format!("{0}+{0}", l.tile) } else { l.tile.code().to_string() },
                "side": l.side.map(Side::letter),
            })).collect::<Vec<_>>(),
            "hand_sizes": o.hand_sizes,
            "kou_sizes": o.kou_sizes,
            "legal": o.legal.as_slice().iter().map(ToString::to_string).collect::<Vec<_>>(),
            "result": self.outcome.as_ref().map(Outcome::to_json),
        })
    }

    /// The settlement as a ledger (common.md §6): one `WIN` event (plain or successful 算帐) or
    /// one `PENALTY` event (包庄, 死拦红帐). `seats`: four distinct names.
    pub fn ledger(&self, seats: Vec<String>) -> Result<Ledger> {
        let Some(o) = &self.outcome else {
            return Err(Error::settlement("the hand is not over"));
        };
        if seats.len() != 4 {
            return Err(Error::settlement("顶牛 has four seats"));
        }
        let mut l = Ledger::new(seats.clone(), SettlementRules::default())?;
        let (kind, reason) = match o.zhang {
            None => ("WIN", "顶牛: 赢家 +6, 大庄/二庄/小庄 pay 3/2/1".to_string()),
            Some((k, _, ZhangOutcome::Success)) => {
                ("WIN", format!("算帐成功 ({k}): stakes doubled"))
            }
            Some((k, _, ZhangOutcome::Baozhuang)) => {
                ("PENALTY", format!("包庄: 算帐 ({k}) failed"))
            }
            Some((k, _, ZhangOutcome::Silan(_))) => {
                ("PENALTY", format!("死拦红帐: the 上家 pays the {k}"))
            }
        };
        let lines: Vec<(String, String, i64)> = o
            .lines
            .iter()
            .map(|&(p, q, a)| (seats[p as usize].clone(), seats[q as usize].clone(), a))
            .collect();
        l.record_payments(kind, &reason, &lines, None)?;
        l.end_hand();
        Ok(l)
    }
}

fn seat_of(v: &Value, what: &str) -> Result<u8> {
    v.as_u64()
        .filter(|&s| s < 4)
        .map(|s| s as u8)
        .ok_or_else(|| Error::hand(format!("{what}: a seat 0..3 is required, got {v}")))
}

fn opt_seat(v: &Value, what: &str) -> Result<Option<u8>> {
    if v.is_null() {
        Ok(None)
    } else {
        seat_of(v, what).map(Some)
    }
}

/// The action an event records (`None`: not an action event).
pub fn event_action(e: &Value) -> Result<Option<(u8, Action)>> {
    let ty = e.get("type").and_then(Value::as_str).unwrap_or("");
    let tile = || -> Result<&str> {
        e.get("tile")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::hand(format!("{ty} event needs \"tile\": {e}")))
    };
    let a = match ty {
        "open" => Action::parse(tile()?)?,
        "lay" => {
            let side = e
                .get("side")
                .and_then(Value::as_str)
                .ok_or_else(|| Error::hand(format!("lay event needs \"side\": {e}")))?;
            Action::Lay(Tile::parse(tile()?)?, Side::parse(side)?)
        }
        "kou" => Action::Kou(Tile::parse(tile()?)?),
        "deal" | "zhang" | "end" => return Ok(None),
        other => {
            return Err(Error::hand(format!(
                "unknown event type {other:?}; known: deal, open, lay, kou, zhang, end"
            )));
        }
    };
    if matches!(ty, "open") && !matches!(a, Action::Open(_) | Action::OpenPair(_)) {
        return Err(Error::hand(format!("open event: bad tile {e}")));
    }
    Ok(Some((seat_of(&e["seat"], "event seat")?, a)))
}

/// Rebuild a hand from its event log and check that every recorded event is reproduced
/// exactly (deal, moves, 帐, end). Returns the replayed hand.
pub fn replay(rules: DingniuRules, events: &[Value]) -> Result<Round> {
    let Some(deal) = events.first() else {
        return Err(Error::hand(
            "replay: the log is empty (it starts with a deal event)",
        ));
    };
    if deal.get("type").and_then(Value::as_str) != Some("deal") {
        return Err(Error::hand("replay: the first event must be the deal"));
    }
    let toupai = seat_of(&deal["toupai"], "deal toupai")?;
    let mut round = if let Some(seed) = deal.get("seed").and_then(Value::as_u64) {
        let c = &deal["carry"];
        let carry = Carry {
            toupai: opt_seat(&c["toupai"], "carry toupai")?,
            prev_winner: opt_seat(&c["prev_winner"], "carry prev_winner")?,
            prev_da_zhuang: opt_seat(&c["prev_da_zhuang"], "carry prev_da_zhuang")?,
        };
        Round::new(rules, seed, carry)?
    } else {
        let Some(hs) = deal.get("hands").and_then(Value::as_array) else {
            return Err(Error::hand(
                "replay: the deal needs \"hands\" (four lists of tiles)",
            ));
        };
        if hs.len() != 4 {
            return Err(Error::hand("replay: the deal needs four hands"));
        }
        let mut hands = [[0u8; N_KINDS]; 4];
        for (s, h) in hs.iter().enumerate() {
            let tiles = h
                .as_array()
                .ok_or_else(|| Error::hand("replay: a hand is a list of tile codes"))?
                .iter()
                .map(|t| {
                    t.as_str()
                        .ok_or_else(|| Error::hand("replay: a tile is a string"))
                        .and_then(Tile::parse)
                })
                .collect::<Result<Vec<_>>>()?;
            hands[s] = counts_of(&tiles)?;
        }
        Round::from_hands(rules, hands, toupai)?
    };
    let mut i = 0usize;
    let check_upto = |round: &Round, i: &mut usize| -> Result<()> {
        while *i < round.events.len() {
            let got = round.events[*i].to_json();
            let want = events.get(*i).ok_or_else(|| {
                Error::hand(format!("replay: the log ends before event {i}: {got}"))
            })?;
            if &got != want {
                return Err(Error::hand(format!(
                    "replay: event {i} differs: logged {want}, replayed {got}"
                )));
            }
            *i += 1;
        }
        Ok(())
    };
    check_upto(&round, &mut i)?;
    while i < events.len() {
        let e = &events[i];
        let Some((seat, a)) = event_action(e)? else {
            return Err(Error::hand(format!(
                "replay: event {i} ({e}) was not produced by the replayed moves"
            )));
        };
        if round.to_act() != Some(seat) {
            return Err(Error::hand(format!(
                "replay: event {i}: seat {seat} moves but {:?} is to act",
                round.to_act()
            )));
        }
        round
            .step(a)
            .map_err(|err| err.context(&format!("replay: event {i}")))?;
        check_upto(&round, &mut i)?;
    }
    Ok(round)
}
