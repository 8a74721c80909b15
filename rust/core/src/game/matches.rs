//! A match: hands in a row at one table — the next dealer and what carries over come from the
//! finished hand (the core's rotation rule, [`crate::game::flow::next_hand`] or the 字牌
//! `next_dealer`), the round wind advances after as many changes of dealer as there are seats, and
//! the scores add up. Hand `i` is dealt with [`game_seed`]`(seed, i)`; a preset whose dealer is
//! drawn every hand (`random_each_hand`) draws it as that seed modulo the seats.

use crate::error::{Error, Result};

use super::mahjong::Carry;
use super::rng::game_seed;
use super::table::{Compiled, Table, TableSetup};

/// The state of a match between hands.
#[derive(Clone, Debug)]
pub struct Match {
    pub compiled: Compiled,
    pub seed: i128,
    pub dealer: usize,
    /// Round wind 0..4 (E S W N).
    pub wind: u8,
    pub passes: u32,
    pub scores: Vec<i64>,
    pub carry: Option<Carry>,
    /// Hands played.
    pub hands: u64,
    random_dealer: bool,
}

impl Match {
    pub fn new(compiled: Compiled, seed: i128) -> Match {
        let n = compiled.seats();
        let random_dealer = compiled.variant.preset().rules.dealer_rotation == "random_each_hand";
        Match {
            compiled,
            seed,
            dealer: 0,
            wind: 0,
            passes: 0,
            scores: vec![0; n],
            carry: None,
            hands: 0,
            random_dealer,
        }
    }

    /// The seed of the next hand.
    pub fn next_seed(&self) -> u64 {
        game_seed(self.seed, self.hands)
    }

    /// The next hand's table (its dealer, wind and carry set).
    pub fn next_table(&mut self) -> Result<Table> {
        let setup = self.next_setup();
        self.compiled.table(setup)
    }

    /// What the next hand's table is dealt with (its seed, dealer, wind and carry).
    pub fn next_setup(&mut self) -> TableSetup {
        let s = self.next_seed();
        if self.random_dealer {
            self.dealer = (s % self.compiled.seats() as u64) as usize;
        }
        TableSetup {
            seed: i128::from(s),
            dealer: self.dealer,
            prevalent_wind: self.wind,
            wall: None,
            carry: self.carry.clone(),
        }
    }

    /// Book a finished hand: scores, the next dealer, wind and carry.
    pub fn finish(&mut self, t: &Table) -> Result<()> {
        let b = t
            .balances()
            .ok_or_else(|| Error::rule("Match: the hand is not over"))?;
        for (s, x) in self.scores.iter_mut().zip(&b) {
            *s += x;
        }
        let (next, carry) = t
            .next_hand()
            .ok_or_else(|| Error::rule("Match: the hand is not over"))?;
        self.hands += 1;
        let empty = carry.floor == 0
            && carry.kai_bao == 0
            && carry.huang_fan == 0
            && carry.pao_zi.iter().all(|&p| p == 0)
            && carry.cards.is_none();
        self.carry = (!empty).then_some(carry);
        if self.random_dealer {
            return Ok(());
        }
        if let Some(d) = next {
            if d != self.dealer {
                self.dealer = d;
                self.passes += 1;
                if self.passes % self.compiled.seats() as u32 == 0 {
                    self.wind = (self.wind + 1) % 4;
                }
            }
        }
        Ok(())
    }
}
