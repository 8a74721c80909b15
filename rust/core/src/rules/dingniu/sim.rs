//! The 顶牛 simulator: many hands with the built-in bots, in parallel (rayon over matches), with a
//! checking mode that verifies after every move that the 24 tiles are accounted for and that the
//! move was legal (against a separate naive rule check), and after every hand that the payments
//! sum to zero and that replaying the event log gives the identical hand.
//!
//! A match is a few hands in a row carrying the 头牌 choice (§3: the previous 大庄 rolls the dice)
//! and the running scores.

use rayon::prelude::*;

use crate::error::{Error, Result};

use super::bots::Bot;
use super::rng::{Rng, mix};
use super::round::{Action, Carry, EndReason, Event, Round, replay};
use super::rules::DingniuRules;
use super::settle::{ZhangOutcome, net};
use super::tile::{Counts, Ends, FULL_SET, Side, Tile, count, pips};
use super::zhang::ZhangKind;

/// What to simulate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimConfig {
    /// Number of hands.
    pub rounds: u64,
    pub seed: u64,
    /// The bot in each seat.
    pub bots: [Bot; 4],
    /// Verify the invariants after every move and every hand.
    pub check: bool,
    /// Hands per match (the carry runs within a match); ≥ 1.
    pub rounds_per_match: u32,
}

/// Totals over a simulation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimStats {
    pub rounds: u64,
    pub matches: u64,
    pub actions: u64,
    pub lays: u64,
    pub kous: u64,
    pub pair_openings: u64,
    pub played_out: u64,
    /// 算帐 that ended a hand: success (doubled), 包庄, 死拦红帐.
    pub zhang_success: u64,
    pub baozhuang: u64,
    pub silan: u64,
    /// 帐 that ended a hand, by kind (一帐, 二三帐, 红帐, 五帐, 砸红帐, 闷五帐, 闷帐).
    pub zhang_counted: [u64; 7],
    /// Every 帐 formed, counted or not, by kind.
    pub zhang_formed: [u64; 7],
    /// Forced 帐 (死砸) that did not count.
    pub forced: u64,
    /// 帐 exempt as 头牌净手.
    pub toupai_jingshou: u64,
    /// Hands won by each seat, and net amount per seat.
    pub wins: [u64; 4],
    pub net: [i64; 4],
    /// Hands won by the 头牌.
    pub toupai_wins: u64,
    /// Invariant checks performed (0 unless `check`).
    pub checks: u64,
}

impl SimStats {
    fn merge(mut self, o: SimStats) -> SimStats {
        self.rounds += o.rounds;
        self.matches += o.matches;
        self.actions += o.actions;
        self.lays += o.lays;
        self.kous += o.kous;
        self.pair_openings += o.pair_openings;
        self.played_out += o.played_out;
        self.zhang_success += o.zhang_success;
        self.baozhuang += o.baozhuang;
        self.silan += o.silan;
        for i in 0..7 {
            self.zhang_counted[i] += o.zhang_counted[i];
            self.zhang_formed[i] += o.zhang_formed[i];
        }
        self.forced += o.forced;
        self.toupai_jingshou += o.toupai_jingshou;
        for i in 0..4 {
            self.wins[i] += o.wins[i];
            self.net[i] += o.net[i];
        }
        self.toupai_wins += o.toupai_wins;
        self.checks += o.checks;
        self
    }
}

fn violated(seed: u64, what: String) -> Error {
    Error::hand(format!(
        "simulation invariant violated (hand seed {seed}): {what}"
    ))
}

/// The legal moves by a separate, naive reading of §4.1–4.2 (not the engine's generator):
/// every (tile held, end whose pip is on the tile); one side when both ends are equal.
fn naive_moves(ends: Ends, hand: &Counts) -> Vec<Action> {
    let mut out = Vec::new();
    for t in Tile::ALL {
        if hand[t.index()] == 0 {
            continue;
        }
        for (side, end) in [(Side::L, ends.0), (Side::R, ends.1)] {
            if side == Side::R && ends.0 == ends.1 {
                continue;
            }
            if t.lo() == end || t.hi() == end {
                out.push(Action::Lay(t, side));
            }
        }
    }
    if out.is_empty() {
        for t in Tile::ALL {
            if hand[t.index()] > 0 {
                out.push(Action::Kou(t));
            }
        }
    }
    out
}

pub(crate) fn check_tiles(r: &Round, seed: u64) -> Result<()> {
    let mut total = *r.laid();
    let mut kou_pips = [0u32; 4];
    for s in 0..4u8 {
        for (i, x) in total.iter_mut().enumerate() {
            *x += r.hand(s)[i] + r.kou(s)[i];
        }
        kou_pips[s as usize] = pips(r.kou(s));
    }
    if total != FULL_SET {
        return Err(violated(
            seed,
            format!("tiles not accounted for: {total:?}"),
        ));
    }
    if kou_pips != r.kou_pips() {
        return Err(violated(seed, "扣 pips out of step".into()));
    }
    Ok(())
}

fn check_move(r: &Round, a: Action, seed: u64) -> Result<()> {
    let Some(seat) = r.to_act() else {
        return Err(violated(seed, "a move after the end".into()));
    };
    let hand = r.hand(seat);
    if count(hand) == 0 {
        return Err(violated(seed, format!("seat {seat} to act with no tiles")));
    }
    match r.ends() {
        None => {
            let n = if matches!(a, Action::OpenPair(_)) {
                2
            } else {
                1
            };
            if !matches!(a, Action::Open(_) | Action::OpenPair(_)) || hand[a.tile().index()] < n {
                return Err(violated(seed, format!("bad opening {a}")));
            }
        }
        Some(e) => {
            let naive = naive_moves(e, hand);
            let engine = r.legal_actions(seat);
            let mut eng: Vec<Action> = engine.as_slice().to_vec();
            let mut nv = naive.clone();
            eng.sort_by_key(|x| x.id());
            nv.sort_by_key(|x| x.id());
            if eng != nv {
                return Err(violated(
                    seed,
                    format!("legal moves at {e}: engine {eng:?}, naive {nv:?}"),
                ));
            }
            if !naive.contains(&a) {
                return Err(violated(seed, format!("illegal move {a} at {e}")));
            }
        }
    }
    Ok(())
}

fn check_end(r: &Round, rules: &DingniuRules, seed: u64) -> Result<()> {
    check_outcome(r, seed)?;
    let again = replay(*rules, &r.events_json())?;
    if again.events() != r.events() || again.outcome() != r.outcome() {
        return Err(violated(seed, "replay differs".into()));
    }
    Ok(())
}

/// The end of a round: payments zero-sum and equal to their lines, four distinct places, points
/// equal to the 扣 pips when played out.
pub(crate) fn check_outcome(r: &Round, seed: u64) -> Result<()> {
    let Some(o) = r.outcome() else {
        return Err(violated(seed, "no outcome".into()));
    };
    if o.pay.iter().sum::<i64>() != 0 || net(&o.lines) != o.pay {
        return Err(violated(
            seed,
            format!("payments not zero-sum: {:?}", o.pay),
        ));
    }
    let p = o.places;
    let mut seen = [false; 4];
    for s in [p.winner, p.da_zhuang, p.er_zhuang, p.xiao_zhuang] {
        seen[s as usize] = true;
    }
    if seen != [true; 4] {
        return Err(violated(seed, format!("places {p:?}")));
    }
    if o.reason == EndReason::PlayedOut {
        if (0..4u8).any(|s| count(r.hand(s)) != 0) {
            return Err(violated(seed, "played out with tiles in hand".into()));
        }
        if o.points != r.kou_pips().map(i64::from) {
            return Err(violated(seed, "points differ from 扣 pips".into()));
        }
    }
    Ok(())
}

fn tally(st: &mut SimStats, r: &Round) {
    for e in r.events() {
        match e {
            Event::Open { pair, .. } => {
                st.actions += 1;
                st.pair_openings += u64::from(*pair);
            }
            Event::Lay { .. } => {
                st.actions += 1;
                st.lays += 1;
            }
            Event::Kou { .. } => {
                st.actions += 1;
                st.kous += 1;
            }
            Event::Zhang {
                kind,
                deliberate,
                toupai_jingshou,
                counted,
                ..
            } => {
                st.zhang_formed[kind.index()] += 1;
                if *counted {
                    st.zhang_counted[kind.index()] += 1;
                } else if *toupai_jingshou {
                    st.toupai_jingshou += 1;
                } else if !deliberate {
                    st.forced += 1;
                }
            }
            Event::Deal { .. } | Event::End(_) => {}
        }
    }
    if let Some(o) = r.outcome() {
        st.rounds += 1;
        match o.zhang {
            None => st.played_out += 1,
            Some((_, _, ZhangOutcome::Success)) => st.zhang_success += 1,
            Some((_, _, ZhangOutcome::Baozhuang)) => st.baozhuang += 1,
            Some((_, _, ZhangOutcome::Silan(_))) => st.silan += 1,
        }
        st.wins[o.places.winner as usize] += 1;
        st.toupai_wins += u64::from(o.places.winner == r.toupai());
        for s in 0..4 {
            st.net[s] += o.pay[s];
        }
    }
}

/// Play one hand with bots (checking when asked); returns the finished hand.
pub fn play_round(
    rules: &DingniuRules,
    seed: u64,
    carry: Carry,
    bots: &[Bot; 4],
    check: bool,
    checks: &mut u64,
) -> Result<Round> {
    let mut r = Round::new(*rules, seed, carry)?;
    let mut rng = Rng::new(mix(seed, 0xB075));
    let mut guard = 0;
    while let Some(seat) = r.to_act() {
        guard += 1;
        if guard > 30 {
            return Err(violated(seed, "more than 30 moves in a hand".into()));
        }
        let o = r.observe(seat);
        let Some(a) = bots[seat as usize].act(&o, &mut rng) else {
            return Err(violated(
                seed,
                format!("seat {seat} to act has no legal move"),
            ));
        };
        if check {
            check_move(&r, a, seed)?;
        }
        r.step(a)?;
        if check {
            check_tiles(&r, seed)?;
            *checks += 1;
        }
    }
    if check {
        check_end(&r, rules, seed)?;
        *checks += 1;
    }
    Ok(r)
}

/// The result of a match of several hands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Running total per seat.
    pub totals: [i64; 4],
    /// Per hand: the 头牌, the payments, and the 帐 that ended it.
    pub hands: Vec<(u8, [i64; 4], Option<ZhangKind>)>,
}

/// Play `rounds` hands in a row with the carry of §3 (the first 头牌 at random).
pub fn play_match(
    rules: &DingniuRules,
    seed: u64,
    rounds: u32,
    bots: &[Bot; 4],
    check: bool,
) -> Result<(MatchResult, SimStats)> {
    let mut carry = Carry::default();
    let mut res = MatchResult::default();
    let mut st = SimStats {
        matches: 1,
        ..SimStats::default()
    };
    for k in 0..rounds {
        let rs = mix(seed, u64::from(k));
        let r = play_round(rules, rs, carry, bots, check, &mut st.checks)?;
        tally(&mut st, &r);
        let Some(o) = r.outcome() else {
            return Err(violated(rs, "hand did not end".into()));
        };
        for s in 0..4 {
            res.totals[s] += o.pay[s];
        }
        res.hands.push((r.toupai(), o.pay, o.zhang.map(|z| z.0)));
        carry = r.carry().unwrap_or_default();
    }
    if check && res.totals.iter().sum::<i64>() != 0 {
        return Err(violated(seed, "match totals not zero-sum".into()));
    }
    Ok((res, st))
}

/// Simulate `cfg.rounds` hands on every core (rayon; `RAYON_NUM_THREADS`). Deterministic: the
/// same config gives the same totals whatever the thread count.
pub fn simulate(rules: &DingniuRules, cfg: &SimConfig) -> Result<SimStats> {
    if cfg.rounds_per_match == 0 {
        return Err(Error::rule("rounds_per_match must be at least 1"));
    }
    let per = u64::from(cfg.rounds_per_match);
    let matches = cfg.rounds.div_ceil(per);
    (0..matches)
        .into_par_iter()
        .map(|m| {
            let n = per.min(cfg.rounds - m * per) as u32;
            play_match(rules, mix(cfg.seed, m), n, &cfg.bots, cfg.check).map(|(_, st)| st)
        })
        .try_reduce(SimStats::default, |a, b| Ok(a.merge(b)))
}
