//! Simple, exact shanten numbers for the pymahjonggb-compatible module (`hupai.compat.MahjongGB`).
//!
//! TEMPORARY and isolated on purpose: the table-driven shanten of the analysis work replaces these
//! at merge time. Only the compat entry points call this module.

use crate::decompose::{KNITTED_PERMUTATIONS, knitted_tiles};
use crate::tile::{Counts, N_KINDS, Tile};

/// Which form(s) to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The minimum over every form allowed with the given melds.
    All,
    Regular,
    SevenPairs,
    ThirteenOrphans,
    HonorsAndKnitted,
    KnittedStraight,
}

const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Regular-form shanten of standing `c` needing `need` sets plus a pair: -1 = complete.
pub fn regular(c: &Counts, need: usize) -> i32 {
    let mut c = *c;
    let mut best = 2 * need as i32;
    dfs(&mut c, 0, need, 0, 0, false, &mut best);
    best
}

fn eval(need: usize, m: usize, t: usize, p: bool) -> i32 {
    let m = m.min(need);
    let t = t.min(need - m);
    2 * (need - m) as i32 - t as i32 - i32::from(p)
}

fn dfs(c: &mut Counts, from: usize, need: usize, m: usize, t: usize, p: bool, best: &mut i32) {
    let mut i = from;
    while i < N_KINDS && c[i] == 0 {
        i += 1;
    }
    if i == N_KINDS {
        *best = (*best).min(eval(need, m, t, p));
        return;
    }
    // cannot beat the best even using every remaining tile perfectly
    if m + t >= need && eval(need, m, t, true) >= *best {
        return;
    }
    let suited = i < 27;
    if c[i] >= 3 {
        c[i] -= 3;
        dfs(c, i, need, m + 1, t, p, best);
        c[i] += 3;
    }
    if suited && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        dfs(c, i, need, m + 1, t, p, best);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
    if c[i] >= 2 {
        c[i] -= 2;
        if !p {
            dfs(c, i, need, m, t, true, best);
        }
        dfs(c, i, need, m, t + 1, p, best);
        c[i] += 2;
    }
    if suited && i % 9 <= 7 && c[i + 1] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        dfs(c, i, need, m, t + 1, p, best);
        c[i] += 1;
        c[i + 1] += 1;
    }
    if suited && i % 9 <= 6 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 2] -= 1;
        dfs(c, i, need, m, t + 1, p, best);
        c[i] += 1;
        c[i + 2] += 1;
    }
    // leave one copy isolated
    c[i] -= 1;
    dfs(c, i, need, m, t, p, best);
    c[i] += 1;
}

/// 七对 shanten (a quad counts as two pairs, as in the reference scorer).
pub fn seven_pairs(c: &Counts) -> i32 {
    6 - c.iter().map(|&n| i32::from(n / 2)).sum::<i32>()
}

/// 十三幺 shanten.
pub fn thirteen_orphans(c: &Counts) -> i32 {
    let kinds = ORPHANS.iter().filter(|&&i| c[i] > 0).count() as i32;
    let pair = ORPHANS.iter().any(|&i| c[i] >= 2);
    13 - kinds - i32::from(pair)
}

/// 全不靠 shanten (best knitted pattern).
pub fn honors_and_knitted(c: &Counts) -> i32 {
    let honors = (27..34).filter(|&i| c[i] > 0).count() as i32;
    KNITTED_PERMUTATIONS
        .iter()
        .map(|&p| {
            let k = knitted_tiles(p).iter().filter(|&&i| c[i] > 0).count() as i32;
            13 - honors - k
        })
        .min()
        .unwrap_or(13)
}

/// 组合龙 shanten: missing knitted tiles plus the regular shanten of the rest (`need` sets).
pub fn knitted_straight(c: &Counts, need: usize) -> i32 {
    KNITTED_PERMUTATIONS
        .iter()
        .map(|&p| {
            let mut rest = *c;
            let mut missing = 0;
            for i in knitted_tiles(p) {
                if rest[i] > 0 {
                    rest[i] -= 1;
                } else {
                    missing += 1;
                }
            }
            missing + regular(&rest, need)
        })
        .min()
        .unwrap_or(13)
}

/// Shanten of standing tiles `c` with `melds` declared melds.
pub fn shanten(c: &Counts, melds: usize, kind: Kind) -> i32 {
    let need = 4usize.saturating_sub(melds);
    let n: usize = c.iter().map(|&x| x as usize).sum();
    let need = need.min(n / 3);
    match kind {
        Kind::Regular => regular(c, need),
        Kind::SevenPairs => seven_pairs(c),
        Kind::ThirteenOrphans => thirteen_orphans(c),
        Kind::HonorsAndKnitted => honors_and_knitted(c),
        Kind::KnittedStraight => knitted_straight(c, need.saturating_sub(3)),
        Kind::All => {
            let mut s = regular(c, need);
            if melds == 0 {
                s = s
                    .min(seven_pairs(c))
                    .min(thirteen_orphans(c))
                    .min(honors_and_knitted(c));
            }
            if melds <= 1 {
                s = s.min(knitted_straight(c, need.saturating_sub(3)));
            }
            s
        }
    }
}

/// Shanten and the useful tiles: the kinds whose draw lowers the shanten. Like the reference, a
/// kind the hand already holds four times is listed only when the hand is ready (its formal waits
/// ignore availability, mcr.md §9), never otherwise; for 组合龙 always (reference behaviour).
pub fn shanten_with_useful(c: &Counts, melds: usize, kind: Kind) -> (i32, Vec<Tile>) {
    let base = shanten(c, melds, kind);
    let mut useful = Vec::new();
    let mut c2 = *c;
    for x in 0..N_KINDS {
        if c2[x] >= 4 && base != 0 && kind != Kind::KnittedStraight {
            continue;
        }
        c2[x] += 1;
        if shanten(&c2, melds, kind) < base {
            useful.push(Tile::new_unchecked(x as u8));
        }
        c2[x] -= 1;
    }
    (base, useful)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse_tiles, to_counts};

    fn c(s: &str) -> Counts {
        to_counts(&parse_tiles(s).unwrap()).unwrap()
    }

    #[test]
    fn regular_values() {
        assert_eq!(shanten(&c("123m456p789s1122z"), 0, Kind::Regular), 0);
        assert_eq!(shanten(&c("123m456p789s11223z"), 0, Kind::Regular), -1);
        assert_eq!(shanten(&c("12355m123p457sEE"), 0, Kind::Regular), 1);
        assert_eq!(shanten(&c("19m19p19sESWNCFP"), 0, Kind::ThirteenOrphans), 0);
    }
}
