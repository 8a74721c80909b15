//! The settlement ledger shared by every preset (common.md §6): a hand's settlement is an ordered
//! list of events, each a zero-sum set of payments `payer → payee`, optionally referring to an
//! earlier event (a refund or a transfer names the kong it comes from).
//!
//! The ledger enforces zero-sum in the core: an event is built from payment lines (zero-sum by
//! construction) or from a per-seat delta map that is rejected unless it sums to zero. Balances
//! therefore always sum to zero.
//!
//! On top of the raw ledger, [`Ledger`] knows the generic hand flow of the kong-paying presets
//! (刮风下雨 instant kong payments, win payments from every payer still in the hand, 一炮多响,
//! 呼叫转移, and the draw-end checks 查花猪 → 查大叫 → 退税), parameterised by [`SettlementRules`]
//! which each preset compiles from its switches.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use crate::error::{Error, Result};

/// Event kinds of common.md §6.1 (plus `PENALTY` and `ADJUSTMENT` for table-level entries).
pub const EVENT_KINDS: &[&str] = &[
    "KONG_INSTANT",
    "KONG_DEFERRED",
    "WIN",
    "ADDON",
    "TRANSFER_KONG_INCOME",
    "REFUND_KONG",
    "HUAZHU_PENALTY",
    "CHA_JIAO",
    "LIANGDAO_DRAW",
    "FOLLOW_DEALER",
    "FORCED_END",
    "PENALTY",
    "ADJUSTMENT",
];

/// One payment of an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Payment {
    pub payer: String,
    pub payee: String,
    pub amount: i64,
}

/// One settlement event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    pub id: usize,
    pub kind: String,
    pub reason: String,
    pub payments: Vec<Payment>,
    /// Net amount per seat (zero-sum), seats with no change omitted.
    pub deltas: BTreeMap<String, i64>,
    /// An earlier event this one refers to (the kong of a refund or transfer).
    #[serde(rename = "ref")]
    pub refers_to: Option<usize>,
    /// Kind-specific details (kong kind, win value …).
    pub data: Value,
}

/// Who pays on 杠上炮 (呼叫转移).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transfer {
    None,
    /// The income of the kong just made goes to each winner (a full copy per winner).
    LastKong,
    /// All kong income of the hand goes to each winner.
    AllKongs,
    /// The kong just made is refunded to its payers instead.
    RefundKong,
}

/// How much a 花猪 pays each recipient.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HuazhuAmount {
    /// A fixed number of points.
    Fixed(i64),
    /// A fixed number of points plus the recipient's 大叫 when he is ready.
    FixedPlusDaJiao(i64),
}

/// The settlement parameters of a preset (compiled from its switches).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettlementRules {
    /// Points per 倍 (基本分).
    pub base: i64,
    /// Kong payments in 倍: 直杠 (from the feeder), 补杠 and 暗杠 (from each other player in the hand).
    pub kong_open: i64,
    pub kong_added: i64,
    pub kong_concealed: i64,
    pub transfer: Transfer,
    /// 血战: a winner leaves the hand (no later payments or receipts).
    pub winners_leave: bool,
    /// 普通场: the first win (or 一炮多响) ends the hand.
    pub single_win: bool,
    /// 一炮多响 allowed.
    pub multi_ron: bool,
    pub huazhu: HuazhuAmount,
    /// 花猪 penalty goes to every non-花猪 player (true) or only to players still in the hand.
    pub huazhu_pays_winners: bool,
    pub huazhu_refunds_kongs: bool,
    /// Draw-end steps in order (`HUAZHU_PENALTY`, `CHA_JIAO`, `REFUND_KONG`).
    pub draw_end_order: Vec<String>,
    /// 流局 needs at least this many players still in the hand (血战 2, otherwise 1).
    pub min_in_hand_for_draw: usize,
}

impl Default for SettlementRules {
    /// The 四川 seed's values.
    fn default() -> Self {
        SettlementRules {
            base: 6,
            kong_open: 1,
            kong_added: 1,
            kong_concealed: 2,
            transfer: Transfer::LastKong,
            winners_leave: true,
            single_win: false,
            multi_ron: true,
            huazhu: HuazhuAmount::Fixed(96),
            huazhu_pays_winners: true,
            huazhu_refunds_kongs: true,
            draw_end_order: vec![
                "HUAZHU_PENALTY".into(),
                "CHA_JIAO".into(),
                "REFUND_KONG".into(),
            ],
            min_in_hand_for_draw: 2,
        }
    }
}

/// The kind of a declared kong for payments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KongPay {
    /// 直杠: paid by the feeder.
    Open,
    /// 补杠 / 面下杠.
    Added,
    /// 暗杠.
    Concealed,
}

impl KongPay {
    pub fn parse(s: &str) -> Result<KongPay> {
        match s {
            "open" | "kong_open" | "直杠" => Ok(KongPay::Open),
            "added" | "kong_added" | "补杠" | "面下杠" => Ok(KongPay::Added),
            "concealed" | "kong_concealed" | "暗杠" => Ok(KongPay::Concealed),
            other => Err(Error::settlement(format!(
                "unknown kong kind {other:?} (open, added, concealed)"
            ))),
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            KongPay::Open => "open",
            KongPay::Added => "added",
            KongPay::Concealed => "concealed",
        }
    }
}

/// A player's state at draw-end.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DrawEndState {
    /// 花猪: still holds three suits (or his void suit).
    pub huazhu: bool,
    /// 大叫 amount in points when ready (`None`: not ready).
    pub da_jiao: Option<i64>,
}

#[derive(Clone, Debug)]
struct KongRecord {
    event: usize,
    owner: usize,
    refunded: bool,
}

/// The settlement ledger of one hand.
#[derive(Clone, Debug)]
pub struct Ledger {
    seats: Vec<String>,
    rules: SettlementRules,
    events: Vec<Event>,
    balances: Vec<i64>,
    in_hand: Vec<bool>,
    kongs: Vec<KongRecord>,
    ended: bool,
    /// 普通场: the discarder of the first win (`Some(None)` after a self-draw win).
    single_won: Option<Option<usize>>,
}

impl Ledger {
    /// A new hand with these seats (names must be distinct and non-empty).
    pub fn new(seats: Vec<String>, rules: SettlementRules) -> Result<Ledger> {
        if seats.len() < 2 {
            return Err(Error::settlement("a hand needs at least two seats"));
        }
        for (i, s) in seats.iter().enumerate() {
            if s.is_empty() || seats[..i].contains(s) {
                return Err(Error::settlement(format!(
                    "seat names must be distinct and non-empty, got {seats:?}"
                )));
            }
        }
        let n = seats.len();
        Ok(Ledger {
            seats,
            rules,
            events: Vec::new(),
            balances: vec![0; n],
            in_hand: vec![true; n],
            kongs: Vec::new(),
            ended: false,
            single_won: None,
        })
    }

    pub fn seats(&self) -> &[String] {
        &self.seats
    }
    pub fn rules(&self) -> &SettlementRules {
        &self.rules
    }
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// Balance per seat, in seat order.
    pub fn balances(&self) -> Vec<(String, i64)> {
        self.seats
            .iter()
            .cloned()
            .zip(self.balances.iter().copied())
            .collect()
    }
    /// Seats still in the hand (not yet won in 血战), in seat order.
    pub fn in_hand(&self) -> Vec<String> {
        self.seats
            .iter()
            .zip(&self.in_hand)
            .filter(|(_, b)| **b)
            .map(|(s, _)| s.clone())
            .collect()
    }
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    fn seat(&self, name: &str) -> Result<usize> {
        self.seats.iter().position(|s| s == name).ok_or_else(|| {
            Error::settlement(format!(
                "unknown seat {name:?}; seats: {}",
                self.seats.join(", ")
            ))
        })
    }

    fn require_in_hand(&self, i: usize, what: &str) -> Result<()> {
        if self.in_hand[i] {
            Ok(())
        } else {
            Err(Error::settlement(format!(
                "{what}: {} has already left the hand",
                self.seats[i]
            )))
        }
    }

    fn require_open(&self) -> Result<()> {
        if self.ended {
            Err(Error::settlement(
                "the hand has ended; no further events can be recorded",
            ))
        } else {
            Ok(())
        }
    }

    fn require_no_single_win(&self) -> Result<()> {
        if self.single_won.is_some() {
            Err(Error::settlement(
                "普通场 (single-win mode): the hand ended with the first win",
            ))
        } else {
            Ok(())
        }
    }

    /// Record an event from payment lines (seat indices). Lines of amount 0 are dropped; negative
    /// amounts and self-payments are errors.
    fn push(
        &mut self,
        kind: &str,
        reason: String,
        lines: Vec<(usize, usize, i64)>,
        refers_to: Option<usize>,
        data: Value,
    ) -> Result<usize> {
        if !EVENT_KINDS.contains(&kind) {
            return Err(Error::settlement(format!(
                "unknown event kind {kind:?}; known: {}",
                EVENT_KINDS.join(", ")
            )));
        }
        if let Some(r) = refers_to {
            if r >= self.events.len() {
                return Err(Error::settlement(format!(
                    "event refers to event {r}, which does not exist"
                )));
            }
        }
        let mut delta = vec![0i64; self.seats.len()];
        let mut payments = Vec::new();
        for (p, q, a) in lines {
            if a < 0 {
                return Err(Error::settlement(format!(
                    "negative payment {a} from {} to {}",
                    self.seats[p], self.seats[q]
                )));
            }
            if p == q {
                return Err(Error::settlement(format!(
                    "{} cannot pay himself",
                    self.seats[p]
                )));
            }
            if a == 0 {
                continue;
            }
            delta[p] = delta[p]
                .checked_sub(a)
                .ok_or_else(|| Error::settlement("amount overflow"))?;
            delta[q] = delta[q]
                .checked_add(a)
                .ok_or_else(|| Error::settlement("amount overflow"))?;
            payments.push(Payment {
                payer: self.seats[p].clone(),
                payee: self.seats[q].clone(),
                amount: a,
            });
        }
        debug_assert_eq!(delta.iter().sum::<i64>(), 0);
        let id = self.events.len();
        for (b, d) in self.balances.iter_mut().zip(&delta) {
            *b += d;
        }
        let deltas = self
            .seats
            .iter()
            .zip(&delta)
            .filter(|(_, d)| **d != 0)
            .map(|(s, d)| (s.clone(), *d))
            .collect();
        self.events.push(Event {
            id,
            kind: kind.to_string(),
            reason,
            payments,
            deltas,
            refers_to,
            data,
        });
        Ok(id)
    }

    /// Record a raw event from payment lines (`payer`, `payee`, `amount ≥ 0`).
    pub fn record_payments(
        &mut self,
        kind: &str,
        reason: &str,
        payments: &[(String, String, i64)],
        refers_to: Option<usize>,
    ) -> Result<usize> {
        let mut lines = Vec::with_capacity(payments.len());
        for (p, q, a) in payments {
            lines.push((self.seat(p)?, self.seat(q)?, *a));
        }
        self.push(kind, reason.to_string(), lines, refers_to, Value::Null)
    }

    /// Record a raw event from a per-seat delta map. Errors unless the deltas sum to zero. The
    /// payment lines are derived greedily (largest payer to largest payee).
    pub fn record_deltas(
        &mut self,
        kind: &str,
        reason: &str,
        deltas: &[(String, i64)],
        refers_to: Option<usize>,
    ) -> Result<usize> {
        let mut net = vec![0i64; self.seats.len()];
        for (s, d) in deltas {
            let i = self.seat(s)?;
            net[i] = net[i]
                .checked_add(*d)
                .ok_or_else(|| Error::settlement("amount overflow"))?;
        }
        let sum: i128 = net.iter().map(|&d| i128::from(d)).sum();
        if sum != 0 {
            return Err(Error::settlement(format!(
                "event {kind} is not zero-sum: the amounts add up to {sum}"
            )));
        }
        let mut payers: Vec<(usize, i64)> = (0..net.len())
            .filter(|&i| net[i] < 0)
            .map(|i| (i, -net[i]))
            .collect();
        let mut payees: Vec<(usize, i64)> = (0..net.len())
            .filter(|&i| net[i] > 0)
            .map(|i| (i, net[i]))
            .collect();
        let mut lines = Vec::new();
        let (mut a, mut b) = (0, 0);
        while a < payers.len() && b < payees.len() {
            let x = payers[a].1.min(payees[b].1);
            lines.push((payers[a].0, payees[b].0, x));
            payers[a].1 -= x;
            payees[b].1 -= x;
            if payers[a].1 == 0 {
                a += 1;
            }
            if payees[b].1 == 0 {
                b += 1;
            }
        }
        self.push(kind, reason.to_string(), lines, refers_to, Value::Null)
    }

    /// 刮风下雨: an instant kong payment. 直杠 is paid by `feeder`; 补杠 and 暗杠 by every other
    /// player still in the hand. Returns the event id (the kong id used by refunds and transfers).
    pub fn kong(&mut self, owner: &str, kind: KongPay, feeder: Option<&str>) -> Result<usize> {
        self.require_open()?;
        self.require_no_single_win()?;
        let o = self.seat(owner)?;
        self.require_in_hand(o, "kong")?;
        let lines: Vec<(usize, usize, i64)> = match kind {
            KongPay::Open => {
                let Some(f) = feeder else {
                    return Err(Error::settlement(
                        "a 直杠 (open kong) needs the feeder (the discarder of the 4th tile)",
                    ));
                };
                let f = self.seat(f)?;
                self.require_in_hand(f, "kong feeder")?;
                if f == o {
                    return Err(Error::settlement("the feeder of a 直杠 is another player"));
                }
                vec![(f, o, self.rules.kong_open * self.rules.base)]
            }
            KongPay::Added | KongPay::Concealed => {
                if feeder.is_some() {
                    return Err(Error::settlement(format!(
                        "a {} kong has no feeder",
                        kind.name()
                    )));
                }
                let v = if kind == KongPay::Added {
                    self.rules.kong_added
                } else {
                    self.rules.kong_concealed
                };
                (0..self.seats.len())
                    .filter(|&i| i != o && self.in_hand[i])
                    .map(|i| (i, o, v * self.rules.base))
                    .collect()
            }
        };
        let reason = format!("{} {} kong", self.seats[o], kind.name());
        let id = self.push(
            "KONG_INSTANT",
            reason,
            lines,
            None,
            json!({"owner": owner, "kong": kind.name(), "feeder": feeder}),
        )?;
        self.kongs.push(KongRecord {
            event: id,
            owner: o,
            refunded: false,
        });
        Ok(id)
    }

    /// A win paying `per_payer` points from each payer: the discarder for a discard win (incl.
    /// 杠上炮 and 抢杠), otherwise every other player still in the hand. With `after_kong` (杠上炮)
    /// the preset's 呼叫转移 follows. In 血战 the winner then leaves the hand; in 普通场 the hand
    /// ends once every winner of this discard is recorded (call [`Ledger::end_hand`]).
    pub fn win(
        &mut self,
        winner: &str,
        per_payer: i64,
        discarder: Option<&str>,
        after_kong: bool,
        data: Value,
    ) -> Result<usize> {
        self.require_open()?;
        let w = self.seat(winner)?;
        self.require_in_hand(w, "win")?;
        if per_payer < 0 {
            return Err(Error::settlement("a win amount cannot be negative"));
        }
        if after_kong && discarder.is_none() {
            return Err(Error::settlement(
                "杠上炮 (after_kong) is a discard win: name the discarder",
            ));
        }
        let d = discarder.map(|d| self.seat(d)).transpose()?;
        if let Some(first) = self.single_won {
            // 普通场: after the first win only 一炮多响 on the same discard may follow.
            if first.is_none() || first != d || !self.rules.multi_ron {
                return Err(Error::settlement(
                    "普通场 (single-win mode): the hand ended with the first win; only other wins on the same discard (一炮多响) may follow",
                ));
            }
        }
        let payers: Vec<usize> = match d {
            Some(d) => {
                if d == w {
                    return Err(Error::settlement("a player cannot win on his own discard"));
                }
                self.require_in_hand(d, "discarder")?;
                vec![d]
            }
            None => (0..self.seats.len())
                .filter(|&i| i != w && self.in_hand[i])
                .collect(),
        };
        let lines = payers.iter().map(|&p| (p, w, per_payer)).collect();
        let reason = match discarder {
            Some(d) if after_kong => {
                format!("{winner} wins on {d}'s discard after his kong (杠上炮)")
            }
            Some(d) => format!("{winner} wins on {d}'s discard"),
            None => format!("{winner} wins by self-draw"),
        };
        let id = self.push("WIN", reason, lines, None, data)?;
        if after_kong {
            if let Some(d) = d {
                self.transfer(d, w, id)?;
            }
        }
        if self.rules.winners_leave {
            self.in_hand[w] = false;
            // 血战: the hand ends once only one player is left.
            if self.in_hand.iter().filter(|&&b| b).count() <= 1 {
                self.ended = true;
            }
        }
        if self.rules.single_win {
            self.single_won = Some(d);
        }
        Ok(id)
    }

    /// 呼叫转移 of the discarder `d`'s kong income to winner `w`.
    fn transfer(&mut self, d: usize, w: usize, win_id: usize) -> Result<()> {
        let own: Vec<usize> = (0..self.kongs.len())
            .filter(|&k| self.kongs[k].owner == d && !self.kongs[k].refunded)
            .collect();
        let chosen: Vec<usize> = match self.rules.transfer {
            Transfer::None => return Ok(()),
            Transfer::LastKong | Transfer::RefundKong => own.last().copied().into_iter().collect(),
            Transfer::AllKongs => own,
        };
        for k in chosen {
            let ev = self.kongs[k].event;
            let income: i64 = self.events[ev].payments.iter().map(|p| p.amount).sum();
            if self.rules.transfer == Transfer::RefundKong {
                self.refund(k, "杠上炮: the kong is refunded")?;
            } else {
                let reason = format!(
                    "呼叫转移: {} hands the income of kong #{ev} to {}",
                    self.seats[d], self.seats[w]
                );
                self.push(
                    "TRANSFER_KONG_INCOME",
                    reason,
                    vec![(d, w, income)],
                    Some(ev),
                    json!({"win": win_id}),
                )?;
            }
        }
        Ok(())
    }

    fn refund(&mut self, k: usize, why: &str) -> Result<usize> {
        let ev = self.kongs[k].event;
        let lines: Vec<(usize, usize, i64)> = self.events[ev]
            .payments
            .iter()
            .map(|p| {
                let payer = self.seat(&p.payer).expect("known seat");
                let payee = self.seat(&p.payee).expect("known seat");
                (payee, payer, p.amount)
            })
            .collect();
        self.kongs[k].refunded = true;
        let reason = format!(
            "退税: {} returns kong #{ev} ({why})",
            self.seats[self.kongs[k].owner]
        );
        self.push("REFUND_KONG", reason, lines, Some(ev), Value::Null)
    }

    /// A seat leaves the hand without a win (逃跑, 认输 …): no further payments or receipts.
    pub fn leave(&mut self, seat: &str) -> Result<()> {
        let i = self.seat(seat)?;
        self.require_in_hand(i, "leave")?;
        self.in_hand[i] = false;
        Ok(())
    }

    /// A penalty: `payer` pays `amount` to each of `payees` (e.g. for leaving the table).
    pub fn penalty(
        &mut self,
        payer: &str,
        payees: &[String],
        amount: i64,
        reason: &str,
    ) -> Result<usize> {
        let p = self.seat(payer)?;
        let mut lines = Vec::new();
        for q in payees {
            lines.push((p, self.seat(q)?, amount));
        }
        self.push("PENALTY", reason.to_string(), lines, None, Value::Null)
    }

    /// The hand ends (普通场 after a win, 血战 when the last player is left).
    pub fn end_hand(&mut self) {
        self.ended = true;
    }

    /// Draw-end (流局) settlement in the preset's order: 查花猪 → 查大叫 → 退税. `states` gives every
    /// player still in the hand (players who left may be omitted). Returns the new event ids.
    /// With fewer players in the hand than a 流局 needs, nothing is settled.
    pub fn draw_end(&mut self, states: &[(String, DrawEndState)]) -> Result<Vec<usize>> {
        self.require_open()?;
        self.require_no_single_win()?;
        let n = self.seats.len();
        let mut st: Vec<Option<DrawEndState>> = vec![None; n];
        for (s, x) in states {
            let i = self.seat(s)?;
            self.require_in_hand(i, "draw-end state")?;
            if x.huazhu && x.da_jiao.is_some() {
                return Err(Error::settlement(format!(
                    "{s} cannot be both 花猪 and ready"
                )));
            }
            if x.da_jiao.is_some_and(|v| v < 0) {
                return Err(Error::settlement("a 大叫 amount cannot be negative"));
            }
            st[i] = Some(x.clone());
        }
        if let Some(i) = (0..n).find(|&i| self.in_hand[i] && st[i].is_none()) {
            return Err(Error::settlement(format!(
                "draw-end: no state given for {}, who is still in the hand",
                self.seats[i]
            )));
        }
        let mut ids = Vec::new();
        let in_hand = self.in_hand.iter().filter(|&&b| b).count();
        if in_hand < self.rules.min_in_hand_for_draw {
            self.ended = true;
            return Ok(ids);
        }
        let huazhu = |i: usize| st[i].as_ref().is_some_and(|x| x.huazhu);
        let ready = |i: usize| st[i].as_ref().and_then(|x| x.da_jiao);
        for step in self.rules.draw_end_order.clone() {
            match step.as_str() {
                "HUAZHU_PENALTY" => {
                    let pigs: Vec<usize> = (0..n).filter(|&i| huazhu(i)).collect();
                    for p in pigs {
                        let mut lines = Vec::new();
                        for q in 0..n {
                            if q == p || huazhu(q) {
                                continue;
                            }
                            if !self.in_hand[q] && !self.rules.huazhu_pays_winners {
                                continue;
                            }
                            let amt = match self.rules.huazhu {
                                HuazhuAmount::Fixed(a) => a,
                                HuazhuAmount::FixedPlusDaJiao(a) => a + ready(q).unwrap_or(0),
                            };
                            lines.push((p, q, amt));
                        }
                        let reason = format!("查花猪: {} holds three suits", self.seats[p]);
                        ids.push(self.push("HUAZHU_PENALTY", reason, lines, None, Value::Null)?);
                    }
                }
                "CHA_JIAO" => {
                    let not_ready: Vec<usize> = (0..n)
                        .filter(|&i| self.in_hand[i] && !huazhu(i) && ready(i).is_none())
                        .collect();
                    for p in not_ready {
                        let lines: Vec<(usize, usize, i64)> =
                            (0..n).filter_map(|q| ready(q).map(|v| (p, q, v))).collect();
                        if lines.is_empty() {
                            continue;
                        }
                        let reason = format!("查大叫: {} is not ready", self.seats[p]);
                        ids.push(self.push("CHA_JIAO", reason, lines, None, Value::Null)?);
                    }
                }
                "REFUND_KONG" => {
                    for k in 0..self.kongs.len() {
                        let o = self.kongs[k].owner;
                        if self.kongs[k].refunded || !self.in_hand[o] || ready(o).is_some() {
                            continue;
                        }
                        if huazhu(o) && !self.rules.huazhu_refunds_kongs {
                            continue;
                        }
                        ids.push(self.refund(k, "not ready at draw-end")?);
                    }
                }
                other => {
                    return Err(Error::settlement(format!(
                        "unknown draw-end step {other:?}"
                    )));
                }
            }
        }
        self.ended = true;
        Ok(ids)
    }

    /// The whole ledger as JSON: seats, events, balances.
    pub fn to_json_value(&self) -> Value {
        let balances: BTreeMap<&str, i64> = self
            .seats
            .iter()
            .map(String::as_str)
            .zip(self.balances.iter().copied())
            .collect();
        json!({
            "seats": self.seats,
            "events": self.events,
            "balances": balances,
            "in_hand": self.in_hand(),
            "ended": self.ended,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn seats() -> Vec<String> {
        ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect()
    }

    fn bal(l: &Ledger) -> Vec<i64> {
        l.balances().into_iter().map(|(_, b)| b).collect()
    }

    #[test]
    fn example3_multi_ron_after_kong_with_transfer() {
        // sichuan.md §7.4 example 3.
        let mut l = Ledger::new(seats(), SettlementRules::default()).unwrap();
        let k = l.kong("D", KongPay::Open, Some("A")).unwrap();
        l.win("B", 12, Some("D"), true, Value::Null).unwrap();
        l.win("C", 24, Some("D"), true, Value::Null).unwrap();
        assert_eq!(bal(&l), vec![-6, 18, 30, -42]);
        let transfers: Vec<_> = l
            .events()
            .iter()
            .filter(|e| e.kind == "TRANSFER_KONG_INCOME")
            .collect();
        assert_eq!(transfers.len(), 2);
        assert!(transfers.iter().all(|e| e.refers_to == Some(k)));
        assert_eq!(l.in_hand(), vec!["A".to_string(), "D".to_string()]);
    }

    #[test]
    fn example4_draw_end() {
        // sichuan.md §7.4 example 4: A won earlier; C's 面下杠 while all four were in.
        let mut l = Ledger::new(seats(), SettlementRules::default()).unwrap();
        l.kong("C", KongPay::Added, None).unwrap();
        assert_eq!(bal(&l), vec![-6, -6, 18, -6]);
        // A's earlier win: amounts here do not matter for the draw-end events; use a zero win.
        l.win("A", 0, None, false, Value::Null).unwrap();
        let before = bal(&l);
        l.draw_end(&[
            (
                "B".into(),
                DrawEndState {
                    huazhu: false,
                    da_jiao: Some(24),
                },
            ),
            ("C".into(), DrawEndState::default()),
            (
                "D".into(),
                DrawEndState {
                    huazhu: true,
                    da_jiao: None,
                },
            ),
        ])
        .unwrap();
        // The table's "net of these events" includes the earlier 面下杠.
        assert_eq!(before, vec![-6, -6, 18, -6]);
        assert_eq!(bal(&l), vec![96, 120, 72, -288]);
        let kinds: Vec<&str> = l.events()[2..].iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(kinds, ["HUAZHU_PENALTY", "CHA_JIAO", "REFUND_KONG"]);
    }

    #[test]
    fn example2_concealed_kong_then_self_draw() {
        let mut l = Ledger::new(seats(), SettlementRules::default()).unwrap();
        // seats: A won and left; W = D here.
        l.win("A", 0, None, false, Value::Null).unwrap();
        l.kong("D", KongPay::Concealed, None).unwrap();
        l.win("D", 96, None, false, Value::Null).unwrap();
        assert_eq!(bal(&l), vec![0, -108, -108, 216]);
    }

    #[test]
    fn rejects_non_zero_sum_and_bad_input() {
        let mut l = Ledger::new(seats(), SettlementRules::default()).unwrap();
        let e = l
            .record_deltas(
                "ADJUSTMENT",
                "x",
                &[("A".into(), 5), ("B".into(), -4)],
                None,
            )
            .unwrap_err();
        assert!(e.to_string().contains("zero-sum"), "{e}");
        assert!(l.record_deltas("NOPE", "x", &[], None).is_err());
        assert!(l.kong("A", KongPay::Open, None).is_err());
        assert!(l.kong("Z", KongPay::Added, None).is_err());
        assert!(l.win("A", 5, Some("A"), false, Value::Null).is_err());
        assert!(
            l.record_payments("PENALTY", "x", &[("A".into(), "B".into(), -1)], None)
                .is_err()
        );
        assert!(bal(&l).iter().all(|&b| b == 0));
        assert!(l.events().is_empty());
    }

    #[test]
    fn transfer_all_kongs_and_refund_kong() {
        let rules = SettlementRules {
            transfer: Transfer::AllKongs,
            ..SettlementRules::default()
        };
        let mut l = Ledger::new(seats(), rules).unwrap();
        l.kong("D", KongPay::Concealed, None).unwrap();
        l.kong("D", KongPay::Added, None).unwrap();
        l.win("A", 12, Some("D"), true, Value::Null).unwrap();
        // D got 36 + 18 = 54, paid 12 for the win and 54 in transfers.
        assert_eq!(bal(&l)[3], 54 - 12 - 54);
        let rules = SettlementRules {
            transfer: Transfer::RefundKong,
            ..SettlementRules::default()
        };
        let mut l = Ledger::new(seats(), rules).unwrap();
        l.kong("D", KongPay::Concealed, None).unwrap();
        l.win("A", 12, Some("D"), true, Value::Null).unwrap();
        assert_eq!(bal(&l), vec![12, 0, 0, -12]);
    }

    #[test]
    fn single_mode_and_xuezhan_end() {
        let rules = SettlementRules {
            single_win: true,
            winners_leave: false,
            min_in_hand_for_draw: 1,
            ..SettlementRules::default()
        };
        let mut l = Ledger::new(seats(), rules).unwrap();
        l.win("B", 6, Some("A"), false, Value::Null).unwrap();
        l.win("C", 6, Some("A"), false, Value::Null).unwrap();
        assert!(l.win("D", 6, Some("B"), false, Value::Null).is_err());
        assert!(l.kong("D", KongPay::Added, None).is_err());
        let mut l = Ledger::new(seats(), SettlementRules::default()).unwrap();
        l.win("A", 6, None, false, Value::Null).unwrap();
        l.win("B", 6, None, false, Value::Null).unwrap();
        assert!(!l.is_ended());
        l.win("C", 6, Some("D"), false, Value::Null).unwrap();
        assert!(l.is_ended());
        assert!(l.kong("D", KongPay::Added, None).is_err());
        assert_eq!(bal(&l), vec![18, 6, -6, -18]);
    }

    proptest! {
        #[test]
        fn zero_sum_under_random_sequences(ops in proptest::collection::vec((0u8..6, 0usize..4, 0usize..4, 0i64..200), 0..40)) {
            let mut l = Ledger::new(seats(), SettlementRules::default()).unwrap();
            let names = seats();
            for (op, a, b, amt) in ops {
                let (a, b) = (&names[a], &names[b]);
                let _ = match op {
                    0 => l.kong(a, KongPay::Open, Some(b)).map(|_| ()),
                    1 => l.kong(a, KongPay::Added, None).map(|_| ()),
                    2 => l.kong(a, KongPay::Concealed, None).map(|_| ()),
                    3 => l.win(a, amt, Some(b), amt % 2 == 0, Value::Null).map(|_| ()),
                    4 => l.win(a, amt, None, false, Value::Null).map(|_| ()),
                    _ => l.record_deltas("ADJUSTMENT", "t", &[(a.clone(), amt), (b.clone(), -amt - (amt % 3))], None).map(|_| ()),
                };
                prop_assert_eq!(bal(&l).iter().sum::<i64>(), 0);
            }
            let states: Vec<(String, DrawEndState)> = l.in_hand().into_iter().enumerate().map(|(i, s)| (s, DrawEndState { huazhu: i == 0, da_jiao: (i == 1).then_some(24) })).collect();
            let _ = l.draw_end(&states);
            prop_assert_eq!(bal(&l).iter().sum::<i64>(), 0);
            for e in l.events() {
                prop_assert_eq!(e.deltas.values().sum::<i64>(), 0);
            }
        }
    }
}
