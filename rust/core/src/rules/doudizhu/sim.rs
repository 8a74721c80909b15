//! The simulator: N hands with built-in bots, rayon over hands, and a checking mode that
//! verifies the invariants of issue 15 after every step (54 cards accounted for, only legal
//! moves, zero-sum settlement, multiplier = product of the recorded doublings, replay identical).

use std::sync::Arc;

use rayon::prelude::*;

use crate::error::{Error, Result};

use super::bots::{BotKind, choose};
use super::cards::Cards;
use super::game::{Action, Carry, Event, Game, OutcomeKind, Phase, replay};
use super::moves::readings;
use super::rng::Rng;
use super::rules::DdzRules;
use super::settle::multiplier_of;

/// Totals over simulated hands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimStats {
    pub hands: u64,
    pub landlord_wins: u64,
    pub farmer_wins: u64,
    /// Hands ended with no landlord (`all_pass = end_zero`).
    pub no_game: u64,
    /// All-pass redeals inside the hands.
    pub redeals: u64,
    pub plays: u64,
    pub passes: u64,
    pub bombs: u64,
    pub rockets: u64,
    pub springs: u64,
    pub anti_springs: u64,
    pub max_multiplier: i64,
    /// Points per seat over all hands (zero-sum).
    pub scores: [i64; 3],
    /// Points won by the landlord (whoever it was) over all hands.
    pub landlord_points: i64,
    /// Steps whose invariants were checked (checking mode).
    pub checked_steps: u64,
}

impl SimStats {
    fn merge(mut self, o: SimStats) -> SimStats {
        self.hands += o.hands;
        self.landlord_wins += o.landlord_wins;
        self.farmer_wins += o.farmer_wins;
        self.no_game += o.no_game;
        self.redeals += o.redeals;
        self.plays += o.plays;
        self.passes += o.passes;
        self.bombs += o.bombs;
        self.rockets += o.rockets;
        self.springs += o.springs;
        self.anti_springs += o.anti_springs;
        self.max_multiplier = self.max_multiplier.max(o.max_multiplier);
        for i in 0..3 {
            self.scores[i] += o.scores[i];
        }
        self.landlord_points += o.landlord_points;
        self.checked_steps += o.checked_steps;
        self
    }
}

/// The seed of hand `i` of a simulation with base `seed`.
pub fn hand_seed(seed: u64, i: u64) -> u64 {
    Rng::fork(seed, i).next_u64()
}

/// Play one hand to the end with `bots` (per seat). With `check`, verify the invariants after
/// every step and replay the log at the end.
pub fn play_hand(
    rules: &Arc<DdzRules>,
    seed: u64,
    carry: Carry,
    bots: [BotKind; 3],
    check: bool,
) -> Result<(Game, u64)> {
    let mut g = Game::new(rules.clone(), seed, carry);
    let mut rng = Rng::fork(seed, 0xB07);
    let mut steps = 0u64;
    if check {
        check_cards(&g, seed)?;
    }
    while let Some(seat) = g.to_act() {
        let action = choose(bots[seat as usize], &mut g, &mut rng)
            .ok_or_else(|| Error::hand(format!("seed {seed}: a bot found no action")))?;
        if check {
            check_action(&mut g, seat, action, seed)?;
        }
        g.step(action)
            .map_err(|e| e.context(&format!("seed {seed}: bot action {}", action.to_json())))?;
        if check {
            check_cards(&g, seed)?;
            steps += 1;
        }
        if steps > 10_000 {
            return Err(Error::hand(format!("seed {seed}: the hand does not end")));
        }
    }
    if check {
        check_end(&g, seed)?;
        let again = replay(rules.clone(), &g.events_json())
            .map_err(|e| e.context(&format!("seed {seed}: replay")))?;
        if again.events() != g.events() {
            return Err(Error::hand(format!(
                "seed {seed}: replay gives another log"
            )));
        }
    }
    Ok((g, steps))
}

pub(crate) fn check_cards(g: &Game, seed: u64) -> Result<()> {
    let mut total = g.bottom_pending();
    for s in 0..3u8 {
        total = total.plus(g.hand(s)).plus(g.played()[s as usize]);
        let phys = super::cards::cards_of(&g.hand_cards(s));
        if phys != g.hand(s) {
            return Err(Error::hand(format!(
                "seed {seed}: seat {s}'s suited cards {phys} differ from its hand {}",
                g.hand(s)
            )));
        }
    }
    if total != Cards::full_pack() {
        return Err(Error::hand(format!(
            "seed {seed}: the 54 cards are not accounted for: {total}"
        )));
    }
    Ok(())
}

/// The action must be legal, checked independently of the generator: the play is held, is a
/// move, its reading is one of its readings and beats the top; a pass needs a top.
fn check_action(g: &mut Game, seat: u8, a: Action, seed: u64) -> Result<()> {
    let legal = g.legal_actions(seat);
    if !legal.contains(&a) {
        return Err(Error::hand(format!(
            "seed {seed}: {} is not among the legal actions",
            a.to_json()
        )));
    }
    if g.phase() == Phase::Play {
        match a {
            Action::Pass if g.top().is_none() => {
                return Err(Error::hand(format!("seed {seed}: a leader passed")));
            }
            Action::Play(c, Some(r)) => {
                let ok = c.is_subset(g.hand(seat))
                    && readings(c, &g.rules().moves).contains(r)
                    && g.top().is_none_or(|t| r.beats(t.2));
                if !ok {
                    return Err(Error::hand(format!("seed {seed}: illegal play {c} as {r}")));
                }
            }
            Action::Pass => {}
            _ => {
                return Err(Error::hand(format!(
                    "seed {seed}: a non-play action in play"
                )));
            }
        }
    }
    Ok(())
}

pub(crate) fn check_end(g: &Game, seed: u64) -> Result<()> {
    let o = g
        .outcome()
        .ok_or_else(|| Error::hand(format!("seed {seed}: over without an outcome")))?;
    let sum: i64 = o.scores.iter().sum::<i64>() + o.house;
    if sum != 0 {
        return Err(Error::hand(format!(
            "seed {seed}: settlement not zero-sum ({sum})"
        )));
    }
    // The payment lines give exactly the scores, and the shared ledger accepts them (zero-sum).
    let mut net = [0i64; 4];
    for (a, b, x) in o.payments() {
        let ix = |p: super::game::Party| match p {
            super::game::Party::Seat(s) => s as usize,
            super::game::Party::House => 3,
        };
        net[ix(a)] -= x;
        net[ix(b)] += x;
    }
    if net[..3] != o.scores || net[3] != o.house {
        return Err(Error::hand(format!(
            "seed {seed}: payments do not give the scores"
        )));
    }
    let ledger = o.ledger(["0", "1", "2"])?;
    if ledger.balances().iter().map(|(_, b)| b).sum::<i64>() != 0 {
        return Err(Error::hand(format!("seed {seed}: ledger not zero-sum")));
    }
    if let Some((c, h)) = o.coins {
        if c.iter().sum::<i64>() + h != 0 {
            return Err(Error::hand(format!(
                "seed {seed}: coins not zero-sum with the house"
            )));
        }
    }
    let doublings = g
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Double { .. }))
        .count() as u32;
    if let Some(s) = &o.settlement {
        let m = multiplier_of(g.rules(), doublings)?;
        if s.multiplier != m || s.doublings != doublings {
            return Err(Error::hand(format!(
                "seed {seed}: multiplier {} but {doublings} doublings recorded",
                s.multiplier
            )));
        }
        let winner_out = (0..3u8).any(|s| g.hand(s).is_empty());
        if !winner_out {
            return Err(Error::hand(format!(
                "seed {seed}: settled with no player out"
            )));
        }
    }
    Ok(())
}

fn tally(g: &Game, steps: u64) -> SimStats {
    let mut st = SimStats {
        hands: 1,
        checked_steps: steps,
        ..SimStats::default()
    };
    for e in g.events() {
        match e {
            Event::Redeal { .. } => st.redeals += 1,
            Event::Act {
                action: Action::Play(_, Some(r)),
                ..
            } => {
                st.plays += 1;
                match r.kind {
                    super::moves::Kind::Bomb => st.bombs += 1,
                    super::moves::Kind::Rocket => st.rockets += 1,
                    _ => {}
                }
            }
            Event::Act {
                action: Action::Pass,
                ..
            } if g.landlord().is_some() => st.passes += 1,
            _ => {}
        }
    }
    if let Some(o) = g.outcome() {
        match o.kind {
            OutcomeKind::LandlordWon => st.landlord_wins += 1,
            OutcomeKind::FarmersWon => st.farmer_wins += 1,
            OutcomeKind::NoGame => st.no_game += 1,
            OutcomeKind::Escape(_) => {}
        }
        if let Some(s) = &o.settlement {
            st.max_multiplier = s.multiplier;
            match s.spring {
                super::settle::Spring::Spring => st.springs += 1,
                super::settle::Spring::AntiSpring => st.anti_springs += 1,
                super::settle::Spring::None => {}
            }
        }
        st.scores = o.scores;
        if let Some(l) = g.landlord() {
            st.landlord_points = o.scores[l as usize];
        }
    }
    st
}

/// Simulate `hands` hands from base `seed` (hand i: seed [`hand_seed`]`(seed, i)`, first bidder
/// i mod 3), in parallel over hands (rayon). Deterministic: the totals do not depend on the
/// number of threads.
pub fn simulate(
    rules: &Arc<DdzRules>,
    hands: u64,
    seed: u64,
    bots: [BotKind; 3],
    check: bool,
) -> Result<SimStats> {
    const CHUNK: u64 = 256;
    let chunks = hands.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|k| {
            let mut acc = SimStats::default();
            for i in k * CHUNK..((k + 1) * CHUNK).min(hands) {
                let carry = Carry {
                    first_bidder: (i % 3) as u8,
                    last_winner: None,
                };
                let (g, steps) = play_hand(rules, hand_seed(seed, i), carry, bots, check)?;
                acc = acc.merge(tally(&g, steps));
            }
            Ok(acc)
        })
        .try_reduce(SimStats::default, |a, b| Ok(a.merge(b)))
}

/// Simulate on the calling thread only (for per-core throughput).
pub fn simulate_serial(
    rules: &Arc<DdzRules>,
    hands: u64,
    seed: u64,
    bots: [BotKind; 3],
    check: bool,
) -> Result<SimStats> {
    let mut acc = SimStats::default();
    for i in 0..hands {
        let carry = Carry {
            first_bidder: (i % 3) as u8,
            last_winner: None,
        };
        let (g, steps) = play_hand(rules, hand_seed(seed, i), carry, bots, check)?;
        acc = acc.merge(tally(&g, steps));
    }
    Ok(acc)
}
