//! 国标麻将 (MCR) scoring with parity to the reference engine (pymahjonggb 1.4.0): fan detection
//! ([`score`]), switches ([`rules`]), fan ids ([`ids`]) and the settlement of a win ([`settle`]).
//! Spec: `shared/rules/mcr.md`; fan table: `presets/mcr.toml`.

pub mod ids;
pub mod rules;
pub mod score;
pub mod shanten;

pub use rules::{BlessingRule, McrRules};
pub use score::{McrForm, McrScore, ScoredSet, formal_waits_of, score};

use crate::error::{Error, Result};

/// One payment of a settlement (mcr.md §11). Seats are 0..4 = E S W N (门风).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Payment {
    pub payer: u8,
    pub payee: u8,
    pub amount: i64,
    /// `"self_drawn"` (8 + total), `"discard"` (8 + total, the discarder or the robbed kong's
    /// declarer) or `"base"` (8, the other players on a discard win).
    pub reason: &'static str,
}

/// Zero-sum settlement of one win: `total` = 基本分 (flowers included), `winner` the winner's seat,
/// `discarder` the seat that discarded the winning tile (or added the robbed kong); `None` for a
/// self-drawn win.
/// Largest `total` / `base` accepted by [`settle`] (far above any real hand; keeps the sums exact).
pub const SETTLE_MAX: i64 = 1_000_000_000;

pub fn settle(total: i64, base: i64, winner: u8, discarder: Option<u8>) -> Result<Vec<Payment>> {
    if winner > 3 {
        return Err(Error::hand(format!(
            "winner seat {winner} out of range 0..=3"
        )));
    }
    if let Some(d) = discarder {
        if d > 3 || d == winner {
            return Err(Error::hand(format!(
                "discarder seat {d} must be another player's seat (0..=3, not the winner {winner})"
            )));
        }
    }
    for (name, v) in [("total", total), ("base", base)] {
        if !(0..=SETTLE_MAX).contains(&v) {
            return Err(Error::hand(format!(
                "{name}={v}: expected 0..={SETTLE_MAX}"
            )));
        }
    }
    let mut out = Vec::with_capacity(3);
    for seat in (0..4u8).map(|k| (winner + 1 + k) % 4).take(3) {
        let (amount, reason) = match discarder {
            None => (base + total, "self_drawn"),
            Some(d) if d == seat => (base + total, "discard"),
            Some(_) => (base, "base"),
        };
        out.push(Payment {
            payer: seat,
            payee: winner,
            amount,
            reason,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn balance(p: &[Payment], seat: u8) -> i64 {
        p.iter()
            .map(|x| {
                if x.payee == seat {
                    x.amount
                } else if x.payer == seat {
                    -x.amount
                } else {
                    0
                }
            })
            .sum()
    }

    #[test]
    fn settlement_is_zero_sum() {
        // self-drawn 98 (mcr.md §11): each pays 106, winner +318
        let p = settle(98, 8, 0, None).unwrap();
        assert_eq!(balance(&p, 0), 318);
        assert!(p.iter().all(|x| x.amount == 106));
        // 抢杠和 40: the kong declarer pays 48, the others 8; winner +64
        let p = settle(40, 8, 2, Some(1)).unwrap();
        assert_eq!(balance(&p, 2), 64);
        assert_eq!(balance(&p, 1), -48);
        assert_eq!((0..4).map(|s| balance(&p, s)).sum::<i64>(), 0);
        assert!(settle(10, 8, 1, Some(1)).is_err());
        assert!(settle(10, 8, 4, None).is_err());
    }
}
