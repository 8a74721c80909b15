//! The checking mode's invariants of a 斗地主 hand (issue 15), run by the table engine after every
//! step (`CardHand::check`, `hupai.simulate(check=True)`): the 54 cards accounted for, and at the
//! end a zero-sum settlement whose payment lines give the scores, a zero-sum ledger and coins,
//! and a multiplier equal to the product of the recorded doublings.

use std::sync::Arc;

use crate::error::{Error, Result};

use super::cards::Cards;
use super::game::{Action, Event, Game, Phase, replay};
use super::moves::{Reading, readings};
use super::settle::multiplier_of;

/// What the table hand keeps of the state before its last step, for [`check_action`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Before {
    pub phase: Phase,
    pub seat: u8,
    pub hand: Cards,
    pub top: Option<(u8, Cards, Reading)>,
    pub action: Action,
}

/// The last action, checked against the state before it independently of the move generator:
/// in the play phase a play is held, is read as one of its readings and beats the top; a pass
/// needs a top; nothing else is played. (That it was in the legal list the step itself checks.)
pub(crate) fn check_action(g: &Game, b: &Before) -> Result<()> {
    let seed = g.seed();
    if b.phase != Phase::Play {
        return Ok(());
    }
    match b.action {
        Action::Pass if b.top.is_none() => Err(Error::hand(format!(
            "seed {seed}: seat {} passed as the leader",
            b.seat
        ))),
        Action::Pass => Ok(()),
        Action::Play(c, Some(r)) => {
            let ok = c.is_subset(b.hand)
                && readings(c, &g.rules().moves).contains(r)
                && b.top.is_none_or(|t| r.beats(t.2));
            if ok {
                Ok(())
            } else {
                Err(Error::hand(format!(
                    "seed {seed}: illegal play {c} as {r} by seat {}",
                    b.seat
                )))
            }
        }
        a => Err(Error::hand(format!(
            "seed {seed}: {} in the play phase",
            a.to_json()
        ))),
    }
}

/// The hand rebuilt from its own log ([`replay`]) has the same events.
pub(crate) fn check_replay(g: &Game) -> Result<()> {
    let again = replay(Arc::new(g.rules().clone()), &g.events_json())
        .map_err(|e| e.context(&format!("seed {}: replay", g.seed())))?;
    if again.events() != g.events() {
        return Err(Error::hand(format!(
            "seed {}: replay gives another log",
            g.seed()
        )));
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::doudizhu::game::Carry;
    use crate::rules::doudizhu::rules::DdzRules;

    fn before(hand: &str, top: Option<&str>, action: Action) -> Before {
        let rules = DdzRules::qq();
        let top = top.map(|t| {
            let c = Cards::parse(t).unwrap();
            let r = readings(c, &rules.moves).iter().next().unwrap();
            (1, c, r)
        });
        Before {
            phase: Phase::Play,
            seat: 0,
            hand: Cards::parse(hand).unwrap(),
            top,
            action,
        }
    }

    fn play(cards: &str) -> Action {
        let c = Cards::parse(cards).unwrap();
        let r = readings(c, &DdzRules::qq().moves).iter().next();
        Action::Play(c, r)
    }

    /// The action check finds a leader's pass, cards not held, a play that does not beat the
    /// top, a reading the cards do not have, and a non-play in the play phase.
    #[test]
    fn the_action_check_catches_illegal_moves() {
        let g = Game::new(Arc::new(DdzRules::qq()), 1, Carry::default());
        let ok = |b: Before| check_action(&g, &b).is_ok();
        assert!(ok(before("33456", None, play("33"))));
        assert!(ok(before("33456", Some("JJ"), Action::Pass)));
        assert!(ok(before("33KK", Some("JJ"), play("KK"))));
        assert!(!ok(before("33456", None, Action::Pass)), "a leader's pass");
        assert!(!ok(before("33456", None, play("77"))), "not held");
        assert!(
            !ok(before("33456", Some("JJ"), play("33"))),
            "does not beat"
        );
        let pair = readings(Cards::parse("33").unwrap(), &DdzRules::qq().moves)
            .iter()
            .next()
            .unwrap();
        let wrong = Action::Play(Cards::parse("45").unwrap(), Some(pair));
        assert!(
            !ok(before("33456", None, wrong)),
            "a reading the cards lack"
        );
        assert!(!ok(before("33456", None, Action::Bid(2))), "a bid in play");
        // outside the play phase nothing is checked here (the auction's list is the step's)
        let mut b = before("33456", None, Action::Bid(2));
        b.phase = Phase::Auction;
        assert!(ok(b));
    }
}
