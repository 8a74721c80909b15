//! The checking mode's invariants of a 斗地主 hand (issue 15), run by the table engine after every
//! step (`CardHand::check`, `hupai.simulate(check=True)`): the 54 cards accounted for, and at the
//! end a zero-sum settlement whose payment lines give the scores, a zero-sum ledger and coins,
//! and a multiplier equal to the product of the recorded doublings.

use crate::error::{Error, Result};

use super::cards::Cards;
use super::game::{Event, Game};
use super::settle::multiplier_of;

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
