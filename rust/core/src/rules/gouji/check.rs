//! The checking mode's invariants of a 够级 hand, run by the table engine after the deal and after
//! every decision (`CardHand::check`, `hupai.simulate("gouji", check=True)`): every legal action
//! of the seat to act checked on its own (from the hand, one play, 憋3, beating the top), the
//! tribute moving the giver's highest cards at the first lead, a complete finishing order and the
//! scores of gouji.md §7 at the end, the next hand's obligations and order, and (every 8th hand by
//! its seed) the hand replaying identically from its own log.

use super::card::{Counts, N_RANKS, total};
use super::hand::{Action, Carry, Event, GoujiHand};
use super::outcome::{Outcome, SEATS, TributeKind, chuan_san_hu, team};
use super::play::{Play, beats, bie_san_ok};
use super::rules::GoujiRules;
use crate::error::{Error, Result};

fn violation(seed: u64, msg: String) -> Error {
    Error::hand(format!("invariant violated (hand seed {seed}): {msg}"))
}

/// Check one action of `seat` against the state, independently of the legal-action generator:
/// a play is from the seat's hand, reads as one play, keeps 憋3 and beats the top.
pub(crate) fn check_action(h: &GoujiHand, seat: usize, a: &Action) -> Result<()> {
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

/// The seat to act has a legal action, and each of its legal actions passes [`check_action`].
pub(crate) fn check_legal(h: &GoujiHand) -> Result<()> {
    let Some(seat) = h.to_act() else {
        return Ok(());
    };
    let mut legal = Vec::new();
    h.legal_actions_with(seat, &mut Vec::new(), &mut legal);
    if legal.is_empty() {
        return Err(violation(
            h.seed(),
            format!("seat {seat} is to act with no legal action"),
        ));
    }
    for a in &legal {
        check_action(h, seat, a)?;
    }
    Ok(())
}

/// The hand rebuilt from its own log ([`super::replay`]) writes the same log.
pub(crate) fn check_replay(h: &GoujiHand) -> Result<()> {
    let log = h.events_json();
    if super::replay(&log)?.events_json() != log {
        return Err(violation(h.seed(), "replay differs".into()));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::gouji::bots::{BotKind, choose};
    use crate::rules::gouji::card::Rng;
    use crate::rules::gouji::outcome::Obligation;

    /// A hand played to the end by greedy bots, every check passing on the way.
    fn finished(seed: u64, carry: Carry) -> GoujiHand {
        let mut h = GoujiHand::new(GoujiRules::default(), seed, carry, true).unwrap();
        let mut rng = Rng::new(seed);
        let mut buf = Vec::new();
        while let Some(seat) = h.to_act() {
            check_legal(&h).unwrap();
            if h.phase() == super::super::hand::Phase::Play {
                check_start(&h).unwrap();
            }
            h.legal_actions_into(seat, &mut buf);
            let a = choose(BotKind::Greedy, &mut rng, &h, &buf);
            h.step(a).unwrap();
            assert!(h.cards_conserved());
        }
        check_start(&h).unwrap();
        h
    }

    #[test]
    fn the_checks_catch_violations() {
        let h = finished(3, Carry::default());
        let o = h.outcome().unwrap().clone();
        assert!(check_outcome(&h, &o).is_ok());
        assert!(check_replay(&h).is_ok());
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
        // The next hand of the match, with that carry, passes every check.
        let h2 = finished(4, next);
        let o2 = h2.outcome().unwrap();
        assert!(check_outcome(&h2, o2).is_ok());
        assert!(check_carry(&r, h2.carry(), o2, &h2.next_carry().unwrap()).is_ok());
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
        let h3 = GoujiHand::new(r, 4, carry, true).unwrap();
        assert!(check_start(&h3).is_ok());
        let mut forged = h3.clone();
        forged.forge_first_tribute_for_test();
        assert!(check_start(&forged).is_err(), "tribute cards");
        // A play the seat does not hold: one more card of a rank it holds.
        let h4 = GoujiHand::new(r, 5, Carry::default(), true).unwrap();
        let seat = h4.to_act().unwrap();
        let hand = h4.hands()[seat];
        let rank = (1..13).find(|&k| hand[k] > 0).unwrap();
        let mut c = [0u8; N_RANKS];
        c[rank] = hand[rank] + 1;
        let p = Play::from_counts(&c).unwrap();
        let e = check_action(&h4, seat, &Action::Play(p)).unwrap_err();
        assert!(e.to_string().contains("not in seat"), "{e}");
        assert!(check_legal(&h4).is_ok());
    }
}
