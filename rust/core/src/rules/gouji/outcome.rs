//! The table rules that do not need the whole state: seats and teams (§2.1), who may answer and
//! burn (§5.2–5.7, §6.1–6.2), places (§7.1), points (§7.2), the outcome record (§7.3), tribute
//! (§8), 买三 (§9.3), 上班 (§3.4) and 革命 eligibility (§9.1). The hand state machine calls these,
//! so each rule is written once.

use serde::{Deserialize, Serialize};

use super::card::{BIG, Counts, N_RANKS, SMALL, THREE, TWO};
use super::rules::{Burners, BuyOrder, GoujiRules};
use crate::error::{Error, Result};

/// Seats at the table.
pub const SEATS: usize = 6;

/// The 对头 (opposite seat).
pub const fn opp(s: usize) -> usize {
    (s + 3) % SEATS
}

/// Team (联邦) of a seat: 0 = {0, 2, 4}, 1 = {1, 3, 5}.
pub const fn team(s: usize) -> usize {
    s % 2
}

/// Seat `k` places after `s` in playing order.
pub const fn after(s: usize, k: usize) -> usize {
    (s + k) % SEATS
}

/// Names of the places, top to bottom.
pub const PLACE_NAMES: [&str; 6] = ["头科", "二科", "三科", "四科", "二落", "大落"];
/// English names of the places.
pub const PLACE_NAMES_EN: [&str; 6] = ["first", "second", "third", "fourth", "fifth", "last"];

/// Whether a seat may answer (has a head), answers anyone (无头), or is in the 要头 phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Head {
    /// 有头: his 对头 is active.
    Has,
    /// 要头 (after his 对头's 革命): this many 够死级 plays left; counts as having a head.
    YaoTou(u8),
    /// 无头.
    Wu,
}

impl Head {
    pub const fn has_head(self) -> bool {
        !matches!(self, Head::Wu)
    }
}

/// Heads derived from who is active only (no 革命 choice): the fixtures' view.
pub fn heads_from_active(active: &[bool; SEATS]) -> [Head; SEATS] {
    std::array::from_fn(|s| if active[opp(s)] { Head::Has } else { Head::Wu })
}

/// Who may do what on a top play (the `answer_rights` fixture and the state machine).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Rights {
    /// Only burns and the answerers may beat it.
    pub restricted: bool,
    /// Seats that may declare a burn before the answerers (conditions 1–3 of §6.1), in playing
    /// order from the top player.
    pub burners: Vec<usize>,
    /// Seats that may answer, in the order they act.
    pub answerers: Vec<usize>,
    /// `between_only`: seats that may burn after every answerer passed.
    pub late_burners: Vec<usize>,
}

/// Conditions 1–3 of §6.1 for seat `b` on a restricted play by `t`.
pub fn may_declare_burn(
    b: usize,
    t: usize,
    active: &[bool; SEATS],
    passed: &[bool; SEATS],
    heads: &[Head; SEATS],
) -> bool {
    b != t && b != opp(t) && active[b] && heads[b].has_head() && !passed[b]
}

/// The rights on a play by `t` (§5.2–5.7). `gouji`: the play is a 够级牌. `dead`: a 够死级 play
/// (no answerers at all). `duel`: the round is a duel after a 让牌 (only the 对头 — and 无头
/// players — answer even an ordinary play).
#[allow(clippy::too_many_arguments)]
pub fn answer_rights(
    t: usize,
    gouji: bool,
    dead: bool,
    duel: bool,
    active: &[bool; SEATS],
    passed: &[bool; SEATS],
    heads: &[Head; SEATS],
    luanchan: bool,
    rules: &GoujiRules,
) -> Rights {
    let r = seat_rights(t, gouji, dead, duel, active, passed, heads, luanchan, rules);
    Rights {
        restricted: r.restricted,
        burners: r.burners.as_slice().to_vec(),
        answerers: r.answerers.as_slice().to_vec(),
        late_burners: r.late_burners.as_slice().to_vec(),
    }
}

/// At most the other five seats, in order (a list on the stack).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SeatList {
    seats: [usize; SEATS],
    n: usize,
}

impl SeatList {
    fn of(it: impl Iterator<Item = usize>) -> SeatList {
        let mut l = SeatList::default();
        for s in it {
            if l.n < SEATS {
                l.seats[l.n] = s;
                l.n += 1;
            }
        }
        l
    }
    pub(crate) fn as_slice(&self) -> &[usize] {
        &self.seats[..self.n]
    }
    pub(crate) fn as_mut_slice(&mut self) -> &mut [usize] {
        &mut self.seats[..self.n]
    }
}

/// [`Rights`] in lists on the stack (the state machine's path: no allocation per play).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SeatRights {
    pub restricted: bool,
    pub burners: SeatList,
    pub answerers: SeatList,
    pub late_burners: SeatList,
}

/// [`answer_rights`] into lists on the stack.
#[allow(clippy::too_many_arguments)]
pub(crate) fn seat_rights(
    t: usize,
    gouji: bool,
    dead: bool,
    duel: bool,
    active: &[bool; SEATS],
    passed: &[bool; SEATS],
    heads: &[Head; SEATS],
    luanchan: bool,
    rules: &GoujiRules,
) -> SeatRights {
    let mut r = SeatRights::default();
    let order = (1..SEATS).map(|k| after(t, k));
    if luanchan {
        r.answerers = SeatList::of(order.filter(|&s| active[s]));
        return r;
    }
    r.restricted = dead || (gouji && heads[t].has_head());
    if r.restricted {
        let burn_ok = |s: usize| may_declare_burn(s, t, active, passed, heads);
        match rules.burners {
            Burners::AllOthers => r.burners = SeatList::of(order.clone().filter(|&s| burn_ok(s))),
            Burners::BetweenOnly => {
                r.burners = SeatList::of(
                    [after(t, 1), after(t, 2)]
                        .into_iter()
                        .filter(|&s| burn_ok(s)),
                );
                r.late_burners = SeatList::of(
                    [after(t, 4), after(t, 5)]
                        .into_iter()
                        .filter(|&s| burn_ok(s)),
                );
            }
        }
    }
    if r.restricted || duel {
        if !dead {
            r.answerers =
                SeatList::of(order.filter(|&s| active[s] && (s == opp(t) || heads[s] == Head::Wu)));
        }
    } else {
        r.answerers = SeatList::of(order.filter(|&s| active[s] && (!passed[s] || opp(s) == t)));
    }
    r
}

/// Burn priority (§6.2): declarers of the top player's 联邦 first, then playing order from him.
pub fn burn_priority(gouji_seat: usize, declarers: &[usize]) -> Vec<usize> {
    let mut v = declarers.to_vec();
    sort_burn_priority(gouji_seat, &mut v);
    v
}

/// [`burn_priority`] in place.
pub(crate) fn sort_burn_priority(gouji_seat: usize, declarers: &mut [usize]) {
    declarers.sort_by_key(|&s| {
        (
            team(s) != team(gouji_seat),
            (s + SEATS - gouji_seat) % SEATS,
        )
    });
}

/// Places being filled during a hand (§7.1): place → seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Places {
    pub seat: [Option<u8>; SEATS],
    /// A 革命 player whose place (四科, or 三科 when his 联邦 takes 头科 and 二科) is not fixed yet.
    pub revolution: Option<u8>,
}

impl Places {
    pub fn new(revolution: Option<usize>) -> Places {
        Places {
            seat: [None; SEATS],
            revolution: revolution.map(|r| r as u8),
        }
    }
    fn reserved(&self, i: usize) -> bool {
        self.revolution.is_some() && i == 3
    }
    fn resolve(&mut self) {
        let Some(r) = self.revolution else { return };
        if let (Some(a), Some(b)) = (self.seat[0], self.seat[1]) {
            let r_us = usize::from(r);
            let mates = team(usize::from(a)) == team(r_us) && team(usize::from(b)) == team(r_us);
            let i = if mates && self.seat[2].is_none() {
                2
            } else {
                3
            };
            self.seat[i] = Some(r);
            self.revolution = None;
        }
    }
    /// A player going out takes the highest free place; returns it.
    pub fn take_top(&mut self, s: usize) -> usize {
        let i = (0..SEATS)
            .find(|&i| self.seat[i].is_none() && !self.reserved(i))
            .unwrap_or(SEATS - 1);
        self.seat[i] = Some(s as u8);
        self.resolve();
        i
    }
    /// A failed burner takes the lowest free place; returns it.
    pub fn take_bottom(&mut self, s: usize) -> usize {
        let i = (0..SEATS)
            .rev()
            .find(|&i| self.seat[i].is_none() && !self.reserved(i))
            .unwrap_or(0);
        self.seat[i] = Some(s as u8);
        self.resolve();
        i
    }
    /// The place of a seat, if fixed.
    pub fn place_of(&self, s: usize) -> Option<usize> {
        self.seat.iter().position(|&x| x == Some(s as u8))
    }
    /// All six places filled (with the 革命 player resolved).
    pub fn complete(&self) -> Option<[usize; SEATS]> {
        let mut out = [0usize; SEATS];
        for (i, x) in self.seat.iter().enumerate() {
            out[i] = usize::from((*x)?);
        }
        Some(out)
    }
}

/// Places from a list of `out` / `burn_fail` events in time order and an optional 革命 seat (the
/// `places` fixture): the one seat left at the end takes the last free place.
pub fn places_from_events(
    events: &[(bool, usize)],
    revolution: Option<usize>,
) -> Result<[usize; SEATS]> {
    let mut p = Places::new(revolution);
    let mut seen = [false; SEATS];
    if let Some(r) = revolution {
        check_seat(r)?;
        seen[r] = true;
    }
    for &(fail, s) in events {
        check_seat(s)?;
        if seen[s] {
            return Err(Error::hand(format!("seat {s} is placed twice")));
        }
        seen[s] = true;
        if fail {
            p.take_bottom(s);
        } else {
            p.take_top(s);
        }
    }
    let left: Vec<usize> = (0..SEATS).filter(|&s| !seen[s]).collect();
    if left.len() != 1 {
        return Err(Error::hand(format!(
            "places need every seat but one to go out, fail a burn or revolt; seats left: {left:?}"
        )));
    }
    p.take_top(left[0]);
    p.complete()
        .ok_or_else(|| Error::hand("the places could not be completed"))
}

fn check_seat(s: usize) -> Result<()> {
    if s < SEATS {
        Ok(())
    } else {
        Err(Error::hand(format!(
            "seat {s} is not a seat: seats are 0..5"
        )))
    }
}

/// 串三户: one 联邦 holds 头科, 二科 and 三科 (§7.2).
pub fn chuan_san_hu(places: &[usize; SEATS]) -> bool {
    team(places[0]) == team(places[1]) && team(places[1]) == team(places[2])
}

/// Scores per seat (§7.2): each player gets his team's sum of place points, × the 串三户 factor.
pub fn scores(places: &[usize; SEATS], rules: &GoujiRules) -> ([i64; SEATS], bool) {
    let mut team_sum = [0i64; 2];
    for (i, &s) in places.iter().enumerate() {
        team_sum[team(s)] += rules.place_points[i];
    }
    let csh = chuan_san_hu(places);
    let f = if csh { rules.chuan_factor } else { 1 };
    (std::array::from_fn(|s| team_sum[team(s)] * f), csh)
}

/// 点贡 between a 对家 pair (A, B) (§8.4): `(cards A → B, cards B → A)`.
pub fn dian_gong(declared: [bool; 2], opened: [bool; 2]) -> (u8, u8) {
    let [da, db] = declared;
    let [oa, ob] = opened;
    // Columns: A open B not, neither, both, B open A not.
    let col = match (oa, ob) {
        (true, false) => 0,
        (false, false) => 1,
        (true, true) => 2,
        (false, true) => 3,
    };
    let row: [(u8, u8); 4] = match (da, db) {
        (false, false) => [(0, 1), (1, 1), (0, 0), (1, 0)],
        (true, true) => [(0, 4), (2, 2), (2, 2), (4, 0)],
        (true, false) => [(0, 3), (1, 2), (2, 0), (3, 0)],
        (false, true) => [(0, 3), (2, 1), (0, 2), (3, 0)],
    };
    row[col]
}

/// Kinds of tribute, in processing order (§8.2: 闷贡＞烧贡＞点贡＞落贡).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Hash)]
pub enum TributeKind {
    #[serde(rename = "闷贡", alias = "men")]
    Men,
    #[serde(rename = "烧贡", alias = "shao")]
    Shao,
    #[serde(rename = "点贡", alias = "dian")]
    Dian,
    #[serde(rename = "落贡", alias = "luo")]
    Luo,
}

impl TributeKind {
    pub const fn zh(self) -> &'static str {
        match self {
            TributeKind::Men => "闷贡",
            TributeKind::Shao => "烧贡",
            TributeKind::Dian => "点贡",
            TributeKind::Luo => "落贡",
        }
    }
    pub fn from_zh(s: &str) -> Option<TributeKind> {
        [
            TributeKind::Men,
            TributeKind::Shao,
            TributeKind::Dian,
            TributeKind::Luo,
        ]
        .into_iter()
        .find(|k| k.zh() == s || k.en() == s)
    }
    pub const fn en(self) -> &'static str {
        match self {
            TributeKind::Men => "men",
            TributeKind::Shao => "shao",
            TributeKind::Dian => "dian",
            TributeKind::Luo => "luo",
        }
    }
}

/// One tribute obligation: `from` gives his `n` highest cards to `to` (then `to` may return `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Obligation {
    pub kind: TributeKind,
    pub from: u8,
    pub to: u8,
    pub n: u8,
}

/// The record of a finished hand (§7.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// place → seat (头科 … 大落); empty for a void hand.
    pub places: Vec<u8>,
    pub revolution: Option<u8>,
    pub void: bool,
    pub kaidian: [bool; SEATS],
    pub xuandian: [bool; SEATS],
    /// Successful burns `[victim, burner]` in time order.
    pub burns: Vec<[u8; 2]>,
    /// 被闷 events `[victim, beater]` in time order.
    pub men: Vec<[u8; 2]>,
    pub chuan_san_hu: bool,
    pub scores: [i64; SEATS],
}

impl Outcome {
    /// The places as an array, if complete.
    pub fn place_array(&self) -> Option<[usize; SEATS]> {
        let v: Vec<usize> = self.places.iter().map(|&x| usize::from(x)).collect();
        v.try_into().ok()
    }
}

/// The tribute owed at the next hand (§8.2–8.3), in processing order. `first_hand`: the next
/// hand is the first of a session (no tribute). No tribute after 串三户 or a void hand.
pub fn obligations(o: &Outcome, first_hand: bool, rules: &GoujiRules) -> Result<Vec<Obligation>> {
    if first_hand || o.void || !rules.tribute {
        return Ok(Vec::new());
    }
    let places = o
        .place_array()
        .ok_or_else(|| Error::hand("tribute needs the six places"))?;
    if chuan_san_hu(&places) {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let mut opened = o.kaidian;
    if let Some(r) = o.revolution {
        let r = usize::from(r);
        opened[r] = false;
        opened[opp(r)] = true;
    }
    for &[victim, beater] in &o.men {
        out.push(Obligation {
            kind: TributeKind::Men,
            from: victim,
            to: beater,
            n: 1,
        });
    }
    for &[victim, burner] in &o.burns {
        out.push(Obligation {
            kind: TributeKind::Shao,
            from: victim,
            to: burner,
            n: 1,
        });
    }
    for a in 0..3 {
        let b = opp(a);
        let (ab, ba) = dian_gong([o.xuandian[a], o.xuandian[b]], [opened[a], opened[b]]);
        for (from, to, n) in [(a, b, ab), (b, a, ba)] {
            if n > 0 {
                out.push(Obligation {
                    kind: TributeKind::Dian,
                    from: from as u8,
                    to: to as u8,
                    n,
                });
            }
        }
    }
    out.push(Obligation {
        kind: TributeKind::Luo,
        from: places[5] as u8,
        to: places[0] as u8,
        n: 2,
    });
    out.push(Obligation {
        kind: TributeKind::Luo,
        from: places[4] as u8,
        to: places[1] as u8,
        n: 1,
    });
    // By type, then by giver in playing order from the 头科's seat (stable: time order kept).
    let head = places[0];
    out.sort_by_key(|ob| (ob.kind, (usize::from(ob.from) + SEATS - head) % SEATS));
    Ok(out)
}

/// The `n` highest cards of a hand (进贡时要进手里最大的牌).
pub fn tribute_cards(hand: &Counts, n: usize) -> Result<Counts> {
    let mut out = [0u8; N_RANKS];
    let mut left = n;
    for r in (0..N_RANKS).rev() {
        let k = usize::from(hand[r]).min(left);
        out[r] = k as u8;
        left -= k;
    }
    if left > 0 {
        return Err(Error::hand(format!(
            "the hand has fewer than {n} cards to give"
        )));
    }
    Ok(out)
}

/// What a player without a 3 does under 憋3 (§9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuyThree {
    /// He has a 3.
    None,
    /// He buys one 3 from `from`, paying with one card of rank `pay`.
    Buy { from: usize, pay: usize },
    /// A teammate gives him one 3 for free.
    Ask { from: usize },
    /// No 3 and nothing to pay with.
    AutoRevolution,
    /// Nobody can supply a 3: he plays without and is exempt.
    Unresolved,
}

/// 买三 / 要三 for `buyer` (§9.3): `threes` per seat, the buyer's cards he could pay with (2s,
/// 小花, 大花 counts).
pub fn buy_three(
    buyer: usize,
    threes: &[u8; SEATS],
    pay: [u8; 3],
    revolution_allowed: bool,
    order: BuyOrder,
) -> BuyThree {
    if threes[buyer] > 0 {
        return BuyThree::None;
    }
    let pay_rank = [TWO, SMALL, BIG]
        .into_iter()
        .zip(pay)
        .find(|(_, n)| *n > 0)
        .map(|(r, _)| r);
    let Some(pay_rank) = pay_rank else {
        return if revolution_allowed {
            BuyThree::AutoRevolution
        } else {
            BuyThree::Unresolved
        };
    };
    let seller = |s: usize| threes[s] >= 2;
    let (paid, free): (Vec<usize>, Vec<usize>) = match order {
        BuyOrder::Seed => (
            vec![opp(buyer), after(buyer, 1), after(buyer, 5)],
            vec![after(buyer, 2), after(buyer, 4)],
        ),
        BuyOrder::Lamb => (vec![opp(buyer)], vec![after(buyer, 2), after(buyer, 4)]),
    };
    if let Some(&from) = paid.first().filter(|&&s| seller(s)) {
        return BuyThree::Buy {
            from,
            pay: pay_rank,
        };
    }
    if order == BuyOrder::Seed {
        if let Some(&from) = paid[1..].iter().find(|&&s| seller(s)) {
            return BuyThree::Buy {
                from,
                pay: pay_rank,
            };
        }
    }
    if let Some(&from) = free.iter().find(|&&s| seller(s)) {
        return BuyThree::Ask { from };
    }
    if order == BuyOrder::Lamb {
        if let Some(&from) = [after(buyer, 5), after(buyer, 1)]
            .iter()
            .find(|&&s| seller(s))
        {
            return BuyThree::Buy {
                from,
                pay: pay_rank,
            };
        }
    }
    BuyThree::Unresolved
}

/// 上班 (§3.4): the seat showing the most, ties to the first shown; `None` when nobody showed.
pub fn first_leader(shows: &[(usize, u8)]) -> Option<usize> {
    let mut best: Option<(usize, u8)> = None;
    for &(s, n) in shows {
        if best.is_none_or(|(_, m)| n > m) {
            best = Some((s, n));
        }
    }
    best.map(|(s, _)| s)
}

/// 革命 eligibility (§9.1): no 大花, no 小花, no 2.
pub fn may_revolt(hand: &Counts) -> bool {
    hand[TWO] == 0 && hand[SMALL] == 0 && hand[BIG] == 0
}

/// Number of 3s (the 憋3 count) of a hand.
pub const fn threes(hand: &Counts) -> u8 {
    hand[THREE]
}
