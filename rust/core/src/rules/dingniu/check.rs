//! The checking mode's invariants of a 顶牛 hand, run by the table engine after the deal and after
//! every move (`CardHand::check`, `hupai.simulate("dingniu", check=True)`):
//!
//! * the 24 tiles accounted for (hands + 扣 + line) and the 扣 pips in step;
//! * the deal: six tiles a seat, the 头牌 as the carry says (given, or the previous 大庄's dice);
//! * only legal placements: the engine's legal list of the seat to act equals a separate, naive
//!   reading of §4.1–4.2 (openings: a tile held, both copies for a pair), and a hand ends within
//!   24 moves;
//! * at the end: payments zero-sum and equal to their lines, four distinct places, points equal to
//!   the 扣 pips when played out, the carry of §3 (the winner shuffles, the 大庄 rolls), and the
//!   hand replaying identically from its own log ([`super::round::replay`]).

use crate::error::{Error, Result};

use super::round::{Action, Carry, EndReason, Event, Round, replay};
use super::settle::net;
use super::tile::{Counts, Ends, FULL_SET, N_KINDS, Side, Tile, count, pips};

fn violated(what: String) -> Error {
    Error::hand(format!("顶牛 invariant violated: {what}"))
}

/// The legal moves by a separate, naive reading of §4.1–4.2 (not the engine's generator):
/// every (tile held, end whose pip is on the tile); one side when both ends are equal; 扣 any
/// tile held when nothing fits.
pub(crate) fn naive_moves(ends: Ends, hand: &Counts) -> Vec<Action> {
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

/// The 24 tiles are in the hands, the 扣 piles and the line; the 扣 pips are in step.
pub(crate) fn check_tiles(r: &Round) -> Result<()> {
    let mut total = *r.laid();
    let mut kou_pips = [0u32; 4];
    for s in 0..4u8 {
        for (i, x) in total.iter_mut().enumerate() {
            *x += r.hand(s)[i] + r.kou(s)[i];
        }
        kou_pips[s as usize] = pips(r.kou(s));
    }
    if total != FULL_SET {
        return Err(violated(format!("tiles not accounted for: {total:?}")));
    }
    if kou_pips != r.kou_pips() {
        return Err(violated("扣 pips out of step".into()));
    }
    Ok(())
}

/// The deal record: the first event, six tiles a seat from the 24-tile set, and the 头牌 the
/// carry gives (its `toupai`, else the previous 大庄's two dice counted from himself as 1, else
/// drawn without dice).
pub(crate) fn check_deal(r: &Round) -> Result<()> {
    let Some(Event::Deal {
        toupai,
        hands,
        carry,
        dice,
        ..
    }) = r.events().first()
    else {
        return Err(violated("the log does not start with the deal".into()));
    };
    if *toupai != r.toupai() {
        return Err(violated(format!(
            "the deal names 头牌 {toupai}, the hand {}",
            r.toupai()
        )));
    }
    let mut total = [0u8; N_KINDS];
    for (s, h) in hands.iter().enumerate() {
        if count(h) != 6 {
            return Err(violated(format!("seat {s} was dealt {} tiles", count(h))));
        }
        for (t, x) in total.iter_mut().zip(h) {
            *t += x;
        }
    }
    if total != FULL_SET {
        return Err(violated("the deal is not the 24-tile set".into()));
    }
    let want = match (carry.toupai, carry.prev_da_zhuang, dice) {
        (Some(t), _, None) => Some(t),
        (None, Some(d), Some([d1, d2])) if (1..=6).contains(d1) && (1..=6).contains(d2) => {
            Some((d + d1 + d2 - 1) % 4)
        }
        (None, None, None) => Some(*toupai),
        _ => None,
    };
    if want != Some(*toupai) {
        return Err(violated(format!(
            "头牌 {toupai} does not follow from the carry {carry:?} and the dice {dice:?}"
        )));
    }
    Ok(())
}

/// The seat to act holds tiles and its legal list is the naive one (openings: a tile held, both
/// copies for a pair); no more moves than the 24 tiles allow.
pub(crate) fn check_turn(r: &Round) -> Result<()> {
    let moves = r
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Open { .. } | Event::Lay { .. } | Event::Kou { .. }
            )
        })
        .count();
    if moves > 24 {
        return Err(violated(format!("{moves} moves in a hand of 24 tiles")));
    }
    let Some(seat) = r.to_act() else {
        return Ok(());
    };
    let hand = r.hand(seat);
    if count(hand) == 0 {
        return Err(violated(format!("seat {seat} to act with no tiles")));
    }
    let legal = r.legal_actions(seat);
    let mut engine: Vec<Action> = legal.as_slice().to_vec();
    match r.ends() {
        None => {
            if engine.is_empty() {
                return Err(violated(format!("seat {seat} has no opening")));
            }
            for a in &engine {
                let n = if matches!(a, Action::OpenPair(_)) {
                    2
                } else {
                    1
                };
                if !matches!(a, Action::Open(_) | Action::OpenPair(_)) || hand[a.tile().index()] < n
                {
                    return Err(violated(format!("bad opening {a} in the legal list")));
                }
            }
        }
        Some(e) => {
            let mut naive = naive_moves(e, hand);
            engine.sort_by_key(|x| x.id());
            naive.sort_by_key(|x| x.id());
            if engine != naive {
                return Err(violated(format!(
                    "legal moves at {e}: engine {engine:?}, naive {naive:?}"
                )));
            }
        }
    }
    Ok(())
}

/// The end of a hand: payments zero-sum and equal to their lines, four distinct places, points
/// equal to the 扣 pips when played out.
pub(crate) fn check_outcome(r: &Round) -> Result<()> {
    let Some(o) = r.outcome() else {
        return Err(violated("no outcome".into()));
    };
    if o.pay.iter().sum::<i64>() != 0 || net(&o.lines) != o.pay {
        return Err(violated(format!("payments not zero-sum: {:?}", o.pay)));
    }
    let p = o.places;
    let mut seen = [false; 4];
    for s in [p.winner, p.da_zhuang, p.er_zhuang, p.xiao_zhuang] {
        seen[usize::from(s) % 4] = true;
    }
    if seen != [true; 4] {
        return Err(violated(format!("places {p:?}")));
    }
    if o.reason == EndReason::PlayedOut {
        if (0..4u8).any(|s| count(r.hand(s)) != 0) {
            return Err(violated("played out with tiles in hand".into()));
        }
        if o.points != r.kou_pips().map(i64::from) {
            return Err(violated("points differ from 扣 pips".into()));
        }
    }
    Ok(())
}

/// What the finished hand carries (§3): the winner shuffles and the 大庄 rolls the dice for the
/// next 头牌, which is not given.
pub(crate) fn check_carry(r: &Round) -> Result<()> {
    let Some(o) = r.outcome() else {
        return Err(violated("no outcome".into()));
    };
    let want = Carry {
        toupai: None,
        prev_winner: Some(o.places.winner),
        prev_da_zhuang: Some(o.places.da_zhuang),
    };
    if r.carry() != Some(want) {
        return Err(violated(format!(
            "the carry {:?} is not the winner's and the 大庄's ({want:?})",
            r.carry()
        )));
    }
    Ok(())
}

/// The hand rebuilt from its own log (the JSON records) has the same events and outcome.
pub(crate) fn check_replay(r: &Round) -> Result<()> {
    let again = replay(*r.rules(), &r.events_json())?;
    if again.events() != r.events() || again.outcome() != r.outcome() {
        return Err(violated("replay differs".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dingniu::bots::Bot;
    use crate::rules::dingniu::rng::Rng;
    use crate::rules::dingniu::rules::DingniuRules;

    fn tile(code: &str) -> Tile {
        Tile::ALL.into_iter().find(|t| t.code() == code).unwrap()
    }

    fn finished(seed: u64, carry: Carry) -> Round {
        let mut r = Round::new(DingniuRules::default(), seed, carry).unwrap();
        let mut rng = Rng::new(seed);
        check_deal(&r).unwrap();
        while let Some(s) = r.to_act() {
            check_turn(&r).unwrap();
            let a = Bot::Greedy.act(&r.observe(s), &mut rng).unwrap();
            r.step(a).unwrap();
            check_tiles(&r).unwrap();
        }
        check_turn(&r).unwrap();
        r
    }

    #[test]
    fn the_checks_pass_on_played_hands() {
        let mut carry = Carry::default();
        for seed in 0..50 {
            let r = finished(seed, carry);
            check_deal(&r).unwrap();
            check_outcome(&r).unwrap();
            check_carry(&r).unwrap();
            check_replay(&r).unwrap();
            carry = r.carry().unwrap();
        }
    }

    #[test]
    fn the_naive_moves() {
        let mut hand = [0u8; N_KINDS];
        hand[tile("16").index()] = 1;
        hand[tile("55").index()] = 1;
        assert_eq!(
            naive_moves(Ends(1, 4), &hand),
            vec![Action::Lay(tile("16"), Side::L)]
        );
        let mut both = naive_moves(Ends(6, 5), &hand);
        both.sort_by_key(|a| a.id());
        let mut want = vec![
            Action::Lay(tile("16"), Side::L),
            Action::Lay(tile("55"), Side::R),
        ];
        want.sort_by_key(|a| a.id());
        assert_eq!(both, want);
        // Equal ends: the left side only.
        assert_eq!(
            naive_moves(Ends(5, 5), &hand),
            vec![Action::Lay(tile("55"), Side::L)]
        );
        // Nothing fits: 扣 any tile held.
        assert_eq!(
            naive_moves(Ends(2, 3), &hand).len(),
            2,
            "{:?}",
            naive_moves(Ends(2, 3), &hand)
        );
        assert!(
            naive_moves(Ends(2, 3), &hand)
                .iter()
                .all(|a| matches!(a, Action::Kou(_)))
        );
    }

    #[test]
    fn the_checks_catch_violations() {
        // A deal whose 头牌 does not follow from the previous 大庄's dice.
        let carry = Carry {
            prev_da_zhuang: Some(2),
            ..Carry::default()
        };
        let r = finished(7, carry);
        let mut bad = r.clone();
        if let Some(Event::Deal { carry, .. }) = bad.forge_for_test().0.first_mut() {
            carry.prev_da_zhuang = Some(3);
        }
        assert!(check_deal(&bad).is_err(), "头牌 from the dice");
        let mut bad = r.clone();
        if let Some(Event::Deal { hands, .. }) = bad.forge_for_test().0.first_mut() {
            hands[0][tile("66").index()] += 1;
        }
        assert!(check_deal(&bad).is_err(), "the dealt tiles");
        // Payments that are not zero-sum, or differ from their lines.
        let mut bad = r.clone();
        if let Some(o) = bad.forge_for_test().1 {
            o.pay[0] += 1;
        }
        assert!(check_outcome(&bad).is_err(), "payments");
        let mut bad = r.clone();
        if let Some(o) = bad.forge_for_test().1 {
            o.pay.swap(0, 1);
            o.pay.swap(2, 3);
        }
        if bad.outcome().map(|o| o.pay) != r.outcome().map(|o| o.pay) {
            assert!(check_outcome(&bad).is_err(), "payments against their lines");
        }
        // Two places for one seat.
        let mut bad = r.clone();
        if let Some(o) = bad.forge_for_test().1 {
            o.places.er_zhuang = o.places.winner;
        }
        assert!(check_outcome(&bad).is_err(), "places");
        // A log that does not replay to the hand: a tile changed in the last move.
        let mut bad = r.clone();
        let n = bad.forge_for_test().0.len();
        bad.forge_for_test().0.truncate(n - 1);
        assert!(check_replay(&bad).is_err(), "replay");
    }
}
