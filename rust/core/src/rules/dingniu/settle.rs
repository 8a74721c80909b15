//! Places and payments (dingniu.md §5, §6.5, §6.6).

use crate::error::{Error, Result};

use super::rules::{DingniuRules, SilanPayment};

/// Places of one hand: seats (indices 0..4) of the 赢家, 大庄, 二庄, 小庄.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Places {
    pub winner: u8,
    pub da_zhuang: u8,
    pub er_zhuang: u8,
    pub xiao_zhuang: u8,
}

/// Check that `order` lists the four seats 0..4 once each (playing order from the 头牌).
pub fn check_order(order: &[u8]) -> Result<[u8; 4]> {
    let mut seen = [false; 4];
    if order.len() != 4 {
        return Err(Error::hand(format!(
            "play_order must list the 4 seats once each, got {} entries",
            order.len()
        )));
    }
    for &s in order {
        if s > 3 || seen[s as usize] {
            return Err(Error::hand(format!(
                "play_order {order:?}: must be a permutation of 0, 1, 2, 3"
            )));
        }
        seen[s as usize] = true;
    }
    Ok([order[0], order[1], order[2], order[3]])
}

/// Rank four point totals (§5.2): the fewest wins, ties to the player nearer the 头牌 (earlier in
/// `order`); the other three by points, most first, a tie giving the worse place to the nearer.
pub fn rank(points: &[i64; 4], order: &[u8; 4]) -> Places {
    // Positions in playing order, sorted for the winner by (points, position).
    let mut winner_pos = 0usize;
    for p in 1..4 {
        if points[order[p] as usize] < points[order[winner_pos] as usize] {
            winner_pos = p;
        }
    }
    let mut losers = [0u8; 3];
    let mut n = 0;
    for (p, &seat) in order.iter().enumerate() {
        if p != winner_pos {
            losers[n] = seat;
            n += 1;
        }
    }
    // Stable sort by points descending keeps playing order among ties: nearer = worse.
    losers.sort_by(|&a, &b| points[b as usize].cmp(&points[a as usize]));
    Places {
        winner: order[winner_pos],
        da_zhuang: losers[0],
        er_zhuang: losers[1],
        xiao_zhuang: losers[2],
    }
}

/// Payment lines `(payer, payee, amount)` of a hand played out (§5.3): each loser pays the
/// winner his share.
pub fn plain_lines(r: &DingniuRules, pl: &Places) -> [(u8, u8, i64); 3] {
    [
        (pl.da_zhuang, pl.winner, r.da_zhuang),
        (pl.er_zhuang, pl.winner, r.er_zhuang),
        (pl.xiao_zhuang, pl.winner, r.xiao_zhuang),
    ]
}

/// Net amounts per seat from payment lines.
pub fn net(lines: &[(u8, u8, i64)]) -> [i64; 4] {
    let mut out = [0i64; 4];
    for &(p, q, a) in lines {
        out[p as usize] -= a;
        out[q as usize] += a;
    }
    out
}

/// How a 算帐 was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZhangOutcome {
    /// X had the fewest: the others pay double by rank.
    Success,
    /// X did not: X pays `baozhuang` to the winner (包庄).
    Baozhuang,
    /// X succeeded with a 红帐 and his 上家 `Y` had failed to stop it: Y pays (死拦红帐).
    Silan(u8),
}

/// Payment lines of a 算帐 by `by` (§6.5, §6.6). `silan_by`: the 上家 liable for a 死拦红帐
/// (only used when the 算帐 succeeds).
pub fn zhang_lines(
    r: &DingniuRules,
    pl: &Places,
    by: u8,
    silan_by: Option<u8>,
) -> (ZhangOutcome, Vec<(u8, u8, i64)>) {
    let m = r.zhang_multiplier;
    if pl.winner != by {
        return (ZhangOutcome::Baozhuang, vec![(by, pl.winner, r.baozhuang)]);
    }
    let doubled = [
        (pl.da_zhuang, by, r.da_zhuang * m),
        (pl.er_zhuang, by, r.er_zhuang * m),
        (pl.xiao_zhuang, by, r.xiao_zhuang * m),
    ];
    match silan_by {
        Some(y) if y != by => {
            let amount = match r.silan_payment {
                SilanPayment::All => r.silan_amount,
                SilanPayment::Shares => doubled.iter().map(|l| l.2).sum(),
            };
            (ZhangOutcome::Silan(y), vec![(y, by, amount)])
        }
        _ => (ZhangOutcome::Success, doubled.to_vec()),
    }
}
