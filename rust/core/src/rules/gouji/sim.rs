//! The simulator: matches of hands with the carry between them, built-in bots at every seat,
//! rayon over matches, and a checking mode that verifies the invariants of the issue after every
//! step (all 216 cards accounted for, only legal actions, a complete finishing order, points as
//! gouji.md §7 says, tribute moving the right cards, the log replaying to the same hand).

use rayon::prelude::*;
use serde::Serialize;

use super::bots::{BotKind, choose};
use super::card::{Counts, N_RANKS, Rng, total};
use super::hand::{Action, Carry, Event, GoujiHand};
use super::outcome::{Outcome, SEATS, TributeKind, chuan_san_hu, team};
use super::play::{Play, beats, bie_san_ok};
use super::rules::GoujiRules;
use crate::error::{Error, Result};

/// Totals over simulated hands (sums, so that any split over threads gives the same numbers).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SimStats {
    /// Hands played to the end (void hands not counted).
    pub hands: u64,
    /// Void hands (two 革命), redealt.
    pub voids: u64,
    /// Decisions taken.
    pub decisions: u64,
    /// Sum of scores per seat.
    pub scores: [i64; SEATS],
    /// `places[seat][place]`: how often each seat took each place.
    pub places: [[u64; SEATS]; SEATS],
    pub burns: u64,
    pub burn_fails: u64,
    pub kaidian: u64,
    pub men: u64,
    pub revolutions: u64,
    pub chuan_san_hu: u64,
    pub tribute_cards: u64,
    /// Invariant checks run (0 without checking).
    pub checks: u64,
}

impl SimStats {
    fn add(&mut self, o: &SimStats) {
        self.hands += o.hands;
        self.voids += o.voids;
        self.decisions += o.decisions;
        for s in 0..SEATS {
            self.scores[s] += o.scores[s];
            for p in 0..SEATS {
                self.places[s][p] += o.places[s][p];
            }
        }
        self.burns += o.burns;
        self.burn_fails += o.burn_fails;
        self.kaidian += o.kaidian;
        self.men += o.men;
        self.revolutions += o.revolutions;
        self.chuan_san_hu += o.chuan_san_hu;
        self.tribute_cards += o.tribute_cards;
        self.checks += o.checks;
    }
}

fn mix(seed: u64, k: u64) -> u64 {
    let mut r = Rng::new(seed ^ k.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    r.next_u64()
}

fn violation(seed: u64, msg: String) -> Error {
    Error::hand(format!("invariant violated (hand seed {seed}): {msg}"))
}

/// Check one action against the state independently of the legal-action list.
fn check_action(h: &GoujiHand, seat: usize, a: &Action, legal: &[Action]) -> Result<()> {
    if !legal.contains(a) {
        return Err(violation(
            h.seed(),
            format!("{} is not in the legal list", a.text()),
        ));
    }
    if let Action::Play(p) = a {
        let c = p.counts();
        let hand = &h.hands()[seat];
        if (0..N_RANKS).any(|r| c[r] > hand[r]) {
            return Err(violation(
                h.seed(),
                format!("{p} is not in seat {seat}'s hand"),
            ));
        }
        if Play::from_counts(&c).ok() != Some(*p) {
            return Err(violation(h.seed(), format!("{p} is not a play")));
        }
        if !bie_san_ok(hand, p, h.rules().bie_san) {
            return Err(violation(h.seed(), format!("{p} breaks 憋3")));
        }
        if let Some(t) = h.top() {
            if !beats(p, &t.play, h.rules().mixed_jokers) {
                return Err(violation(h.seed(), format!("{p} does not beat {}", t.play)));
            }
        }
    }
    Ok(())
}

/// Check the finished hand: complete places, scores per §7.
pub(crate) fn check_outcome(h: &GoujiHand, o: &Outcome) -> Result<()> {
    let seed = h.seed();
    if o.void {
        return Ok(());
    }
    let places = o
        .place_array()
        .ok_or_else(|| violation(seed, "incomplete finishing order".into()))?;
    let mut seen = [false; SEATS];
    for &s in &places {
        if s >= SEATS || seen[s] {
            return Err(violation(
                seed,
                format!("places {places:?} are not a permutation"),
            ));
        }
        seen[s] = true;
    }
    if h.active().iter().any(|&a| a) {
        return Err(violation(seed, "a seat is still active at the end".into()));
    }
    let rules = h.rules();
    let mut team_sum = [0i64; 2];
    for (i, &s) in places.iter().enumerate() {
        team_sum[team(s)] += rules.place_points[i];
    }
    let csh = team(places[0]) == team(places[1]) && team(places[1]) == team(places[2]);
    if csh != o.chuan_san_hu || csh != chuan_san_hu(&places) {
        return Err(violation(seed, "串三户 flag".into()));
    }
    let f = if csh { rules.chuan_factor } else { 1 };
    for s in 0..SEATS {
        if o.scores[s] != team_sum[team(s)] * f {
            return Err(violation(
                seed,
                format!("score of seat {s}: {:?}", o.scores),
            ));
        }
    }
    if o.scores.iter().sum::<i64>() != 0 {
        return Err(violation(
            seed,
            format!("scores {:?} are not zero-sum", o.scores),
        ));
    }
    if let Some(r) = o.revolution {
        let i = places
            .iter()
            .position(|&s| s == usize::from(r))
            .unwrap_or(9);
        let mates =
            team(places[0]) == team(usize::from(r)) && team(places[1]) == team(usize::from(r));
        if !(i == 3 || (i == 2 && mates)) {
            return Err(violation(seed, format!("革命 seat {r} took place {i}")));
        }
    }
    Ok(())
}

/// Check the start of the hand from its log: tribute gives the giver's highest cards, and the
/// hands at the first lead are the dealt hands moved by the logged tribute, returns and 买三.
pub(crate) fn check_start(h: &GoujiHand) -> Result<u64> {
    let seed = h.seed();
    let mut shadow: [Counts; SEATS] = *h.dealt();
    let mut moved = 0u64;
    let mut ob_i = 0usize;
    let mut played = false;
    for e in h.events() {
        match *e {
            Event::Tribute { ob, cards } => {
                let want = h.carry().obligations.get(ob_i).copied();
                ob_i += 1;
                if want != Some(ob) {
                    return Err(violation(seed, format!("tribute {ob:?} out of order")));
                }
                // The n highest, by a plain sort.
                let mut all: Vec<usize> = (0..N_RANKS)
                    .flat_map(|r| {
                        std::iter::repeat_n(r, usize::from(shadow[usize::from(ob.from)][r]))
                    })
                    .collect();
                all.sort_unstable_by(|a, b| b.cmp(a));
                let mut top = [0u8; N_RANKS];
                for &r in all.iter().take(usize::from(ob.n)) {
                    top[r] += 1;
                }
                if top != cards || total(&cards) != u32::from(ob.n) {
                    return Err(violation(
                        seed,
                        format!("tribute {ob:?} gave the wrong cards"),
                    ));
                }
                for r in 0..N_RANKS {
                    shadow[usize::from(ob.from)][r] -= cards[r];
                    shadow[usize::from(ob.to)][r] += cards[r];
                }
                moved += u64::from(ob.n);
            }
            Event::Return { from, to, rank } => {
                let (f, t, r) = (usize::from(from), usize::from(to), usize::from(rank));
                if shadow[f][r] == 0 {
                    return Err(violation(seed, "return of a card not held".into()));
                }
                shadow[f][r] -= 1;
                shadow[t][r] += 1;
            }
            Event::BuyThree { buyer, from, pay } => {
                let (b, f) = (usize::from(buyer), usize::from(from));
                shadow[f][0] -= 1;
                shadow[b][0] += 1;
                shadow[b][usize::from(pay)] -= 1;
                shadow[f][usize::from(pay)] += 1;
            }
            Event::AskThree { buyer, from } => {
                shadow[usize::from(from)][0] -= 1;
                shadow[usize::from(buyer)][0] += 1;
            }
            Event::Revolt { seat, .. } => shadow[usize::from(seat)] = [0; N_RANKS],
            Event::Play { .. } | Event::BurnFail { .. } => {
                played = true;
                break;
            }
            Event::Void => break,
            _ => {}
        }
    }
    if !played && shadow != *h.hands() {
        return Err(violation(
            seed,
            "the hands at the first lead are not the dealt hands moved by the logged tribute, returns and 买三".into(),
        ));
    }
    if ob_i != h.carry().obligations.len() && !h.is_over() {
        return Err(violation(seed, "not every tribute was paid".into()));
    }
    Ok(moved)
}

/// Check the carry of the next hand against the outcome (§8.1–8.2).
pub(crate) fn check_carry(
    rules: &GoujiRules,
    prev: &Carry,
    o: &Outcome,
    next: &Carry,
) -> Result<()> {
    if o.void {
        return if next == prev {
            Ok(())
        } else {
            Err(Error::hand("a void hand must carry the same tribute"))
        };
    }
    let first = !rules.tribute || o.chuan_san_hu || prev.hand_in_session + 1 >= rules.session_hands;
    if first {
        return if next.obligations.is_empty() && next.hand_in_session == 0 {
            Ok(())
        } else {
            Err(Error::hand("no tribute expected at the start of a session"))
        };
    }
    let places = o.place_array().unwrap_or([0; SEATS]);
    let count = |k: TributeKind| next.obligations.iter().filter(|x| x.kind == k).count();
    let luo_ok = next.obligations.iter().any(|x| {
        x.kind == TributeKind::Luo
            && usize::from(x.from) == places[5]
            && usize::from(x.to) == places[0]
            && x.n == 2
    }) && next.obligations.iter().any(|x| {
        x.kind == TributeKind::Luo
            && usize::from(x.from) == places[4]
            && usize::from(x.to) == places[1]
            && x.n == 1
    });
    if !luo_ok || count(TributeKind::Luo) != 2 {
        return Err(Error::hand("落贡 obligations wrong"));
    }
    if count(TributeKind::Shao) != o.burns.len() || count(TributeKind::Men) != o.men.len() {
        return Err(Error::hand("烧贡/闷贡 obligations wrong"));
    }
    if next.obligations.windows(2).any(|w| w[0].kind > w[1].kind) {
        return Err(Error::hand("tribute not in 闷 > 烧 > 点 > 落 order"));
    }
    Ok(())
}

/// Play one hand to the end with bots; in `check` mode verify the invariants after every step.
pub fn play_hand(
    h: &mut GoujiHand,
    bots: &[BotKind; SEATS],
    rngs: &mut [Rng; SEATS],
    check: bool,
    buf: &mut Vec<Action>,
) -> Result<u64> {
    let mut checks = 0u64;
    let mut started = false;
    while let Some(seat) = h.to_act() {
        h.legal_actions_into(seat, buf);
        if buf.is_empty() {
            return Err(violation(
                h.seed(),
                format!("seat {seat} is to act with no legal action"),
            ));
        }
        let a = choose(bots[seat], &mut rngs[seat], h, buf);
        if check {
            if !started && h.phase() == super::hand::Phase::Play {
                started = true;
                check_start(h)?;
            }
            check_action(h, seat, &a, buf)?;
        }
        h.step(a)?;
        if check {
            if !h.cards_conserved() {
                return Err(violation(
                    h.seed(),
                    "the 216 cards are not all accounted for".into(),
                ));
            }
            checks += 1;
        }
        if h.steps > 100_000 {
            return Err(violation(h.seed(), "the hand does not end".into()));
        }
    }
    if check {
        if !started {
            check_start(h)?;
        }
        let o = h
            .outcome()
            .ok_or_else(|| violation(h.seed(), "over without an outcome".into()))?
            .clone();
        check_outcome(h, &o)?;
        checks += 1;
    }
    Ok(checks)
}

fn tally(st: &mut SimStats, h: &GoujiHand, o: &Outcome) {
    if o.void {
        st.voids += 1;
        return;
    }
    st.hands += 1;
    st.decisions += u64::from(h.steps);
    for s in 0..SEATS {
        st.scores[s] += o.scores[s];
    }
    for (i, &s) in o.places.iter().enumerate() {
        st.places[usize::from(s)][i] += 1;
    }
    st.burns += o.burns.len() as u64;
    st.burn_fails += u64::from(h.burn_fails());
    st.kaidian += o.kaidian.iter().filter(|&&k| k).count() as u64;
    st.men += o.men.len() as u64;
    st.revolutions += u64::from(o.revolution.is_some());
    st.chuan_san_hu += u64::from(o.chuan_san_hu);
    st.tribute_cards += h
        .carry()
        .obligations
        .iter()
        .map(|x| u64::from(x.n))
        .sum::<u64>();
}

/// A match: `n_hands` completed hands in a row (void hands redealt, not counted), the carry
/// passed from each hand to the next. `on_hand` sees every finished hand.
pub fn play_hands(
    rules: &GoujiRules,
    seed: u64,
    n_hands: u64,
    bots: &[BotKind; SEATS],
    check: bool,
    mut on_hand: impl FnMut(&GoujiHand),
) -> Result<SimStats> {
    let mut st = SimStats::default();
    let mut carry = Carry::default();
    let mut rngs: [Rng; SEATS] = std::array::from_fn(|s| Rng::new(mix(seed, 1000 + s as u64)));
    let mut buf = Vec::with_capacity(256);
    let mut k = 0u64;
    let mut attempts = 0u64;
    while k < n_hands {
        attempts += 1;
        if attempts > n_hands * 50 + 100 {
            return Err(Error::hand("too many void hands in a row"));
        }
        let hseed = mix(seed, attempts);
        let mut h = GoujiHand::new(*rules, hseed, carry.clone(), check)?;
        st.checks += play_hand(&mut h, bots, &mut rngs, check, &mut buf)?;
        let o = h
            .outcome()
            .cloned()
            .ok_or_else(|| Error::hand("hand over without outcome"))?;
        let next = h
            .next_carry()
            .ok_or_else(|| Error::hand("hand over without carry"))?;
        if check {
            check_carry(rules, &carry, &o, &next)?;
            if attempts % 8 == 1 {
                let replayed = super::replay(&h.events_json())?;
                if replayed.events_json() != h.events_json() {
                    return Err(violation(hseed, "replay differs".into()));
                }
                st.checks += 1;
            }
        }
        tally(&mut st, &h, &o);
        on_hand(&h);
        carry = next;
        if !o.void {
            k += 1;
        }
    }
    Ok(st)
}

/// Simulate `n_hands` hands as matches of `hands_per_match`, in parallel over matches (rayon);
/// the result depends only on the arguments, not on the number of threads.
pub fn simulate(
    rules: &GoujiRules,
    n_hands: u64,
    seed: u64,
    bots: &[BotKind; SEATS],
    check: bool,
    hands_per_match: u64,
) -> Result<SimStats> {
    let per = hands_per_match.max(1);
    let matches = n_hands.div_ceil(per);
    let parts: Vec<Result<SimStats>> = (0..matches)
        .into_par_iter()
        .map(|m| {
            let n = per.min(n_hands - m * per);
            play_hands(rules, mix(seed, m), n, bots, check, |_| {})
        })
        .collect();
    let mut st = SimStats::default();
    for p in parts {
        st.add(&p?);
    }
    Ok(st)
}

/// The same as [`simulate`] on the current thread only (for timing one core).
pub fn simulate_serial(
    rules: &GoujiRules,
    n_hands: u64,
    seed: u64,
    bots: &[BotKind; SEATS],
    check: bool,
    hands_per_match: u64,
) -> Result<SimStats> {
    let per = hands_per_match.max(1);
    let matches = n_hands.div_ceil(per);
    let mut st = SimStats::default();
    for m in 0..matches {
        let n = per.min(n_hands - m * per);
        st.add(&play_hands(rules, mix(seed, m), n, bots, check, |_| {})?);
    }
    Ok(st)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::gouji::outcome::Obligation;

    fn finished() -> GoujiHand {
        let mut h = GoujiHand::new(GoujiRules::default(), 3, Carry::default(), true).unwrap();
        let mut rngs: [Rng; SEATS] = std::array::from_fn(|s| Rng::new(s as u64));
        play_hand(
            &mut h,
            &[BotKind::Greedy; SEATS],
            &mut rngs,
            true,
            &mut Vec::new(),
        )
        .unwrap();
        h
    }

    #[test]
    fn the_checks_catch_violations() {
        let h = finished();
        let o = h.outcome().unwrap().clone();
        assert!(check_outcome(&h, &o).is_ok());
        let mut bad = o.clone();
        bad.scores[0] += 1;
        assert!(check_outcome(&h, &bad).is_err(), "scores");
        let mut bad = o.clone();
        bad.places.swap(0, 1);
        bad.places[1] = bad.places[0];
        assert!(check_outcome(&h, &bad).is_err(), "places");
        let mut bad = o.clone();
        bad.chuan_san_hu = !bad.chuan_san_hu;
        assert!(check_outcome(&h, &bad).is_err(), "串三户");
        let r = GoujiRules::default();
        let next = h.next_carry().unwrap();
        assert!(check_carry(&r, h.carry(), &o, &next).is_ok());
        let mut bad = next.clone();
        if let Some(x) = bad
            .obligations
            .iter_mut()
            .find(|x| x.kind == TributeKind::Luo)
        {
            x.n += 1;
        }
        assert!(check_carry(&r, h.carry(), &o, &bad).is_err(), "落贡");
        // A tribute that does not give the highest cards.
        let carry = Carry {
            hand_in_session: 1,
            obligations: vec![Obligation {
                kind: TributeKind::Luo,
                from: 0,
                to: 1,
                n: 2,
            }],
        };
        let h2 = GoujiHand::new(r, 4, carry, true).unwrap();
        assert!(check_start(&h2).is_ok());
        let mut forged = h2.clone();
        forged.forge_first_tribute_for_test();
        assert!(check_start(&forged).is_err(), "tribute cards");
        // An action outside the legal list.
        let mut h3 = GoujiHand::new(r, 5, Carry::default(), true).unwrap();
        let seat = h3.to_act().unwrap();
        let legal = h3.legal_actions(seat);
        assert!(check_action(&h3, seat, &Action::Yield, &legal).is_err());
    }
}
