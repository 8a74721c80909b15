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
