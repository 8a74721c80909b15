//! Precomputed lookup tables for hand analysis (win detection, shanten, waits).
//!
//! # Suit table
//! One entry per count vector of a suit (nine ranks, each 0..=4) with at most 14 tiles: 405 350
//! entries, addressed by a dense lexicographic rank ([`suit_rank`]). An entry packs ten 4-bit
//! *distances*: `need(m, p)` = the fewest tiles that must be **added** to the suit so that it
//! contains `m` sets (0..=4) plus `p` pairs (0 or 1), leftover tiles being allowed. Added tiles are not
//! limited to four copies (a wildcard may stand for a fifth copy, common.md §4 default). A second,
//! one-byte table holds the exact-decomposition flags (bit 0: the suit is sets only; bit 1: sets and
//! one pair), which is all a wildcard-free win check needs and is eight times smaller.
//!
//! # Honour table
//! Honours never form sequences, so an honour group's distances only depend on how many kinds are
//! held once, twice, three and four times: a 4 096-entry table keyed by that histogram
//! ([`honor_key`]).
//!
//! Both are built once (≈ 40 ms) in a `LazyLock`; [`ensure_init`] forces it (called by the Python
//! module init and the benches).

#![allow(clippy::needless_range_loop)] // index-heavy table code reads better with indices

use std::sync::LazyLock;

use crate::tile::Counts;

/// Number of suit count vectors with at most 14 tiles.
pub const SUIT_ENTRIES: usize = 405_350;
/// Largest number of tiles of one suit in a hand.
pub const MAX_SUIT_TILES: usize = 14;
/// Number of honour histogram keys (`h1 | h2 << 3 | h3 << 6 | h4 << 9`).
pub const HONOR_ENTRIES: usize = 4096;

/// A distance that cannot happen (more than 14 tiles to add).
pub const INF: u8 = 15;

/// Unpacked distances: `d[p][m]` for `m` sets (0..=4) and `p` pairs (0..=1).
pub type Dist = [[u8; 5]; 2];

pub struct Tables {
    /// Packed distances per suit rank: nibble `m + 5 p`.
    pub suit: Vec<u64>,
    /// The same distances unpacked (faster to combine).
    pub suit_dist: Vec<Dist>,
    /// The same distances as 2-bit steps (`d[p][m+1] − d[p][m] ∈ 0..=3`): byte 0 the steps of
    /// `d[0]`, byte 1 those of `d[1]`, byte 2 `d[1][0]`. 1.6 MB instead of 4 MB: fewer cache misses
    /// in batches of random hands. Decoded with [`Tables::steps`].
    pub suit_small: Vec<u32>,
    /// Prefix sums of four 2-bit steps, per step byte.
    pub steps: [[u8; 4]; 256],
    /// Unpacked honour distances per histogram key.
    pub honor_dist: Vec<Dist>,
    /// Exact decomposition flags per suit rank.
    pub suit_flags: Vec<u8>,
    /// The same flags addressed by the base-5 index `Σ c[i]·5^i` (every vector of 0..=4 counts,
    /// 0 when more than 14 tiles), packed 2 bits per vector: 488 KiB, fits in L2. Adding one tile of
    /// rank `r` is `index + 5^r`.
    pub flags5: Vec<u8>,
    /// Packed distances per honour histogram key.
    pub honor: Vec<u64>,
    /// `rank_step[i][s][c]`: contribution of rank `i` holding `c` copies after `s` tiles of lower ranks.
    pub rank_step: [[[u32; 5]; MAX_SUIT_TILES + 1]; 9],
    /// Split rank: ranks 1-5 by their base-5 index (3 125 entries: partial rank and tile count) …
    pub rank_lo: Vec<(u32, u32)>,
    /// … and ranks 6-9 by (tiles in ranks 1-5, base-5 index of ranks 6-9): 15 × 625 entries.
    /// `rank = rank_lo[lo].0 + rank_hi[rank_lo[lo].1 * 625 + hi]` without any dependent chain.
    pub rank_hi: Vec<u32>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(build);

/// Build the tables now (idempotent, thread-safe).
pub fn ensure_init() {
    LazyLock::force(&TABLES);
}

#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}

/// Number of vectors of length `k` over 0..=4 whose sum is at most `b`.
fn count_vectors(k: usize, b: i32) -> u32 {
    if b < 0 {
        return 0;
    }
    if k == 0 {
        return 1;
    }
    (0..=4).map(|c| count_vectors(k - 1, b - c)).sum()
}

fn rank_steps() -> [[[u32; 5]; MAX_SUIT_TILES + 1]; 9] {
    let mut out = [[[0u32; 5]; MAX_SUIT_TILES + 1]; 9];
    for (i, per_i) in out.iter_mut().enumerate() {
        for (s, per_s) in per_i.iter_mut().enumerate() {
            let mut acc = 0;
            for (c, slot) in per_s.iter_mut().enumerate() {
                *slot = acc;
                acc += count_vectors(8 - i, MAX_SUIT_TILES as i32 - s as i32 - c as i32);
            }
        }
    }
    out
}

/// Dense rank of a suit vector (`c.len() == 9`, sum ≤ 14; checked in debug builds only).
#[inline(always)]
pub fn suit_rank(t: &Tables, c: &[u8]) -> usize {
    debug_assert!(c.len() == 9 && c.iter().map(|&x| x as usize).sum::<usize>() <= MAX_SUIT_TILES);
    let mut s = 0usize;
    let mut r = 0u32;
    for i in 0..9 {
        let ci = c[i] as usize;
        r += t.rank_step[i][s][ci];
        s += ci;
    }
    r as usize
}

/// Histogram key of the seven honour counts (each 0..=4).
#[inline(always)]
pub fn honor_key(c: &[u8]) -> usize {
    let mut k = 0usize;
    for &x in c {
        if x > 0 {
            k += 1 << (3 * (x as usize - 1));
        }
    }
    k
}

#[inline(always)]
pub fn unpack(e: u64) -> Dist {
    let mut d = [[0u8; 5]; 2];
    for p in 0..2 {
        for m in 0..5 {
            d[p][m] = ((e >> (4 * (m + 5 * p))) & 0xF) as u8;
        }
    }
    d
}

#[inline(always)]
pub fn nibble(e: u64, m: usize, p: usize) -> u8 {
    ((e >> (4 * (m + 5 * p))) & 0xF) as u8
}

fn pack(d: &Dist) -> u64 {
    let mut e = 0u64;
    for p in 0..2 {
        for m in 0..5 {
            e |= u64::from(d[p][m].min(INF)) << (4 * (m + 5 * p));
        }
    }
    e
}

/// Packed suit entry of a suit vector.
#[inline(always)]
pub fn suit_entry(t: &Tables, c: &[u8]) -> u64 {
    t.suit[suit_rank(t, c)]
}

/// Packed honour entry of the seven honour counts.
#[inline(always)]
pub fn honor_entry(t: &Tables, c: &[u8]) -> u64 {
    t.honor[honor_key(c)]
}

fn build() -> Tables {
    let rank_step = rank_steps();
    let mut tables = Tables {
        suit: Vec::new(),
        suit_dist: Vec::new(),
        suit_small: Vec::new(),
        steps: [[0; 4]; 256],
        honor_dist: Vec::new(),
        suit_flags: Vec::new(),
        flags5: Vec::new(),
        honor: vec![0; HONOR_ENTRIES],
        rank_step,
        rank_lo: vec![(0, 0); 3125],
        rank_hi: vec![0; (MAX_SUIT_TILES + 1) * 625],
    };
    for lo in 0..3125 {
        let (mut x, mut s, mut r) = (lo, 0usize, 0u32);
        for i in 0..5 {
            let c = x % 5;
            x /= 5;
            if s + c <= MAX_SUIT_TILES {
                r += rank_step[i][s][c];
            }
            s += c;
        }
        tables.rank_lo[lo] = (r, s.min(MAX_SUIT_TILES) as u32);
    }
    for s0 in 0..=MAX_SUIT_TILES {
        for hi in 0..625 {
            let (mut x, mut s, mut r) = (hi, s0, 0u32);
            for i in 5..9 {
                let c = x % 5;
                x /= 5;
                if s + c <= MAX_SUIT_TILES {
                    r += rank_step[i][s][c];
                }
                s += c;
            }
            tables.rank_hi[s0 * 625 + hi] = r;
        }
    }
    let mut dist: Vec<Dist> = Vec::with_capacity(SUIT_ENTRIES);
    let mut v = [0u8; 9];
    enumerate(&tables, &mut v, 0, 0, &mut dist);
    debug_assert_eq!(dist.len(), SUIT_ENTRIES);
    tables.suit = dist.iter().map(pack).collect();
    tables.suit_flags = Vec::with_capacity(SUIT_ENTRIES);
    // Recompute flags from the distances: a suit of n tiles decomposes exactly iff it contains
    // n/3 sets (n ≡ 0) or (n-2)/3 sets and a pair (n ≡ 2) with nothing added.
    let mut v = [0u8; 9];
    let mut flags = Vec::with_capacity(SUIT_ENTRIES);
    flags_enumerate(&dist, &mut v, 0, 0, &mut flags);
    tables.suit_flags = flags;
    tables.honor = build_honors();
    tables.honor_dist = tables.honor.iter().map(|&e| unpack(e)).collect();
    for (b, out) in tables.steps.iter_mut().enumerate() {
        let mut acc = 0u8;
        for (j, o) in out.iter_mut().enumerate() {
            acc += (b >> (2 * j) & 3) as u8;
            *o = acc;
        }
    }
    tables.suit_small = dist
        .iter()
        .map(|d| {
            let mut e = 0u32;
            for p in 0..2 {
                for m in 0..4 {
                    let step = d[p][m + 1] - d[p][m];
                    debug_assert!(step <= 3);
                    e |= u32::from(step) << (8 * p + 2 * m);
                }
            }
            e | u32::from(d[1][0]) << 16
        })
        .collect();
    tables.suit_dist = dist;
    let mut flags5 = vec![0u8; POW5[9].div_ceil(4)];
    for idx in 0..POW5[9] {
        let mut v = [0u8; 9];
        let mut x = idx;
        for slot in v.iter_mut() {
            *slot = (x % 5) as u8;
            x /= 5;
        }
        if v.iter().map(|&c| c as usize).sum::<usize>() <= MAX_SUIT_TILES {
            let f = tables.suit_flags[suit_rank(&tables, &v)];
            flags5[idx >> 2] |= f << ((idx & 3) * 2);
        }
    }
    tables.flags5 = flags5;
    tables
}

/// Powers of five.
pub const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390_625, 1_953_125];

/// Base-5 index of a suit vector (`c.len() == 9`, counts 0..=4).
#[inline(always)]
pub fn index5(c: &[u8]) -> usize {
    let mut x = 0usize;
    for i in (0..9).rev() {
        x = x * 5 + c[i] as usize;
    }
    x
}

/// Exact-decomposition flags (bit 0 sets only, bit 1 sets + pair) by base-5 index.
#[inline(always)]
pub fn flags5(t: &Tables, idx: usize) -> u8 {
    (t.flags5[idx >> 2] >> ((idx & 3) * 2)) & 3
}

/// Visit suit vectors in lexicographic order (rank order) and compute their distances.
fn enumerate(t: &Tables, v: &mut [u8; 9], i: usize, sum: usize, out: &mut Vec<Dist>) {
    if i == 9 {
        let d = suit_dist(t, v, out);
        out.push(d);
        return;
    }
    for c in 0..=4u8 {
        if sum + c as usize > MAX_SUIT_TILES {
            break;
        }
        v[i] = c;
        enumerate(t, v, i + 1, sum + c as usize, out);
    }
    v[i] = 0;
}

fn flags_enumerate(dist: &[Dist], v: &mut [u8; 9], i: usize, sum: usize, out: &mut Vec<u8>) {
    if i == 9 {
        let d = &dist[out.len()];
        let mut f = 0u8;
        if sum % 3 == 0 && d[0][sum / 3] == 0 {
            f |= 1;
        }
        if sum % 3 == 2 && d[1][(sum - 2) / 3] == 0 {
            f |= 2;
        }
        out.push(f);
        return;
    }
    for c in 0..=4u8 {
        if sum + c as usize > MAX_SUIT_TILES {
            break;
        }
        v[i] = c;
        flags_enumerate(dist, v, i + 1, sum + c as usize, out);
    }
    v[i] = 0;
}

/// Distances of `v`, reading the (lexicographically smaller) sub-vectors from `done`.
///
/// The lowest held rank `i` is either left over, or one of its copies is in a set (a pung of `i`, or
/// one of the three chows through `i`) or in the pair. Within a chosen group, using a held copy
/// rather than adding one is never worse (swap the copies), so held copies are used greedily.
fn suit_dist(t: &Tables, v: &[u8; 9], done: &[Dist]) -> Dist {
    let Some(i) = v.iter().position(|&c| c > 0) else {
        let mut d = [[0u8; 5]; 2];
        for m in 0..5 {
            d[0][m] = 3 * m as u8;
            d[1][m] = 3 * m as u8 + 2;
        }
        return d;
    };
    let lookup = |w: &[u8; 9]| -> &Dist { &done[suit_rank(t, w)] };
    let mut d = [[INF; 5]; 2];
    // Leave one copy of i over.
    let mut w = *v;
    w[i] -= 1;
    d = min_dist(d, lookup(&w), 0, 0);
    // A pung of i.
    let r = v[i].min(3);
    let mut w = *v;
    w[i] -= r;
    d = min_dist(d, lookup(&w), 1, 3 - r);
    // Chows through i: start at i-2, i-1 or i (within the suit).
    for start in i.saturating_sub(2)..=i.min(6) {
        let mut w = *v;
        let mut added = 0u8;
        for k in start..start + 3 {
            if w[k] > 0 {
                w[k] -= 1;
            } else {
                added += 1;
            }
        }
        d = min_dist(d, lookup(&w), 1, added);
    }
    // The pair with i.
    let r = v[i].min(2);
    let mut w = *v;
    w[i] -= r;
    let sub = lookup(&w);
    for m in 0..5 {
        d[1][m] = d[1][m].min(sub[0][m].saturating_add(2 - r));
    }
    d
}

/// `d[p][m] = min(d[p][m], sub[p][m - sets] + added)`.
fn min_dist(mut d: Dist, sub: &Dist, sets: usize, added: u8) -> Dist {
    for p in 0..2 {
        for m in sets..5 {
            d[p][m] = d[p][m].min(sub[p][m - sets].saturating_add(added).min(INF));
        }
    }
    d
}

/// Min-plus product of two groups' distances (all `m`, `p`).
#[inline(always)]
pub fn combine(a: &Dist, b: &Dist) -> Dist {
    let mut c = [[INF * 2; 5]; 2];
    for m in 0..5 {
        for x in 0..=m {
            let y = m - x;
            c[0][m] = c[0][m].min(a[0][x] + b[0][y]);
            c[1][m] = c[1][m].min((a[1][x] + b[0][y]).min(a[0][x] + b[1][y]));
        }
    }
    c
}

/// `m` sets and one pair from two groups.
#[inline(always)]
pub fn combine_final(a: &Dist, b: &Dist, m: usize) -> u8 {
    let mut best = INF * 2;
    for x in 0..=m {
        let y = m - x;
        best = best.min((a[1][x] + b[0][y]).min(a[0][x] + b[1][y]));
    }
    best
}

fn build_honors() -> Vec<u64> {
    // Per-kind distances: a kind holding c copies used for t pungs and q pairs needs
    // max(0, 3t + 2q - c) added tiles.
    let per_kind = |c: u8| -> Dist {
        let mut d = [[0u8; 5]; 2];
        for q in 0..2 {
            for t in 0..5 {
                d[q][t] = (3 * t as u8 + 2 * q as u8).saturating_sub(c);
            }
        }
        d
    };
    let mut out = vec![pack(&[[INF; 5]; 2]); HONOR_ENTRIES];
    for h1 in 0..=7usize {
        for h2 in 0..=7 - h1 {
            for h3 in 0..=7 - h1 - h2 {
                for h4 in 0..=7 - h1 - h2 - h3 {
                    let mut counts = Vec::new();
                    counts.extend(std::iter::repeat_n(1u8, h1));
                    counts.extend(std::iter::repeat_n(2u8, h2));
                    counts.extend(std::iter::repeat_n(3u8, h3));
                    counts.extend(std::iter::repeat_n(4u8, h4));
                    counts.resize(7, 0);
                    let mut acc = per_kind(counts[0]);
                    for &c in &counts[1..] {
                        acc = combine(&acc, &per_kind(c));
                    }
                    out[h1 | h2 << 3 | h3 << 6 | h4 << 9] = pack(&acc);
                }
            }
        }
    }
    out
}

/// Dense rank of a suit vector from two small tables (same value as [`suit_rank`]).
#[inline(always)]
pub fn suit_rank_fast(t: &Tables, c: &[u8]) -> usize {
    let lo = c[0] as usize
        + 5 * c[1] as usize
        + 25 * c[2] as usize
        + 125 * c[3] as usize
        + 625 * c[4] as usize;
    let hi = c[5] as usize + 5 * c[6] as usize + 25 * c[7] as usize + 125 * c[8] as usize;
    let (r, s) = t.rank_lo[lo];
    r as usize + t.rank_hi[s as usize * 625 + hi] as usize
}

/// Decode a compact suit entry.
#[inline(always)]
pub fn decode_small(t: &Tables, e: u32) -> Dist {
    let a = t.steps[(e & 0xFF) as usize];
    let b = t.steps[(e >> 8 & 0xFF) as usize];
    let p0 = (e >> 16) as u8;
    [
        [0, a[0], a[1], a[2], a[3]],
        [p0, p0 + b[0], p0 + b[1], p0 + b[2], p0 + b[3]],
    ]
}

/// Distances of a suit vector from the compact table.
#[inline(always)]
pub fn suit_dist_small(t: &Tables, c: &[u8]) -> Dist {
    decode_small(t, t.suit_small[suit_rank_fast(t, c)])
}

/// Unpacked distances of a suit vector.
#[inline(always)]
pub fn suit_dist_of<'a>(t: &'a Tables, c: &[u8]) -> &'a Dist {
    &t.suit_dist[suit_rank_fast(t, c)]
}

/// Unpacked distances of the seven honour counts.
#[inline(always)]
pub fn honor_dist_of<'a>(t: &'a Tables, c: &[u8]) -> &'a Dist {
    &t.honor_dist[honor_key(c)]
}

/// Distances of the four groups of a hand (m, p, s, honours). Every suit must hold ≤ 14 tiles.
#[inline(always)]
pub fn group_entries(t: &Tables, c: &Counts) -> [u64; 4] {
    [
        suit_entry(t, &c[0..9]),
        suit_entry(t, &c[9..18]),
        suit_entry(t, &c[18..27]),
        honor_entry(t, &c[27..34]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(count_vectors(9, 14) as usize, SUIT_ENTRIES);
        let t = tables();
        assert_eq!(t.suit.len(), SUIT_ENTRIES);
        assert_eq!(suit_rank(t, &[0; 9]), 0);
        assert_eq!(suit_rank(t, &[4, 4, 4, 2, 0, 0, 0, 0, 0]), SUIT_ENTRIES - 1);
    }
}
