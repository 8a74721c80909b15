//! Precomputed lookup tables for hand analysis (win detection, shanten, waits).
//!
//! # Distances
//! For a group of tiles (one suit, or the honours) and `m` sets (0..=4) plus `p` pairs (0 or 1),
//! `need(m, p)` is the fewest tiles that must be **added** to the group so that it contains them,
//! leftover tiles being allowed ([`Dist`], `d[p][m]`). Added tiles are not limited to four copies
//! (a wildcard may stand for a fifth copy, common.md §4 default).
//!
//! Only 110 distinct distance vectors occur among the 405 350 suit count vectors with at most 14
//! tiles, and 56 among the honour groups, so a group is stored as a one-byte *class*:
//! `suit_class` by the suit's dense lexicographic rank ([`suit_rank`], or [`suit_rank_fast`] from
//! two small tables; 405 KB), `honor_class` by the honour histogram ([`honor_key`]). Two suits
//! combine into one of 164 distinct vectors (`pair_ab[a][b]`), a suit and the honours into one of
//! 150 (`pair_sh[s][h]`), and `final_dist[ab][sh][m]` is the standard-shape distance of a whole
//! hand (`m` sets and a pair): the min-plus products are all precomputed, a distance is a handful
//! of lookups.
//!
//! The distance path reads the suit classes by a second, *sum-first* rank ([`hot_rank`]: suits
//! ordered by tile count, then by the patterns of ranks 1-4 and 5-9), so that the suits of up to 9
//! tiles — nearly every suit of a real hand — share the first 42 KB of `hot_class`, and
//! `final_dist` as one plane per number of sets (`final_plane`, 25 KB each): what a typical hand
//! reads fits in L2, where the lexicographic tables (405 KB + 188 KB + 197 KB) do not.
//!
//! Exact-decomposition flags (bit 0: the suit is sets only; bit 1: sets and one pair), which is all
//! a wildcard-free win check or wait scan needs: `suit_flags` by rank and `flags5` by base-5 index
//! (2 bits per vector for all 5^9 vectors: 488 KiB; adding a tile of rank `r` is `+ 5^r`). The
//! batch win check reads the same facts from two small tables ([`win_code`]; a hand reads at most
//! 50 KB of them): ranks 5-9 of a suit name one of a few dozen classes (`win_hi`), and ranks 1-4
//! pick that class's code out of a 64-byte line (`win_lo`). Beside them, the same entries hold
//! which knitted tiles the suit holds ([`win_knit`]), the gate of the special shapes.
//!
//! # Honour table
//! Honours never form sequences, so an honour group's distances only depend on how many kinds are
//! held once, twice, three and four times: a 4 096-entry table keyed by that histogram
//! ([`honor_key`]).
//!
//! Everything is built once (about 320 million instructions, 0.1 s) in a `LazyLock`;
//! [`ensure_init`] forces it (called by the Python module init and the benches). Every entry is checked against independent
//! decomposers in `tests/analysis_core.rs`.

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
    /// Distances of each group class (suit classes first, then honour classes).
    pub class_dist: Vec<Dist>,
    /// Group class per suit rank.
    pub suit_class: Vec<u8>,
    /// Group class per honour histogram key.
    pub honor_class: Box<[u8; HONOR_ENTRIES]>,
    /// The same classes by [`honor_bits_key`] (what a row reads off its honour word).
    pub honor_class_bits: Box<[u8; HONOR_ENTRIES]>,
    /// Number of suit classes (suit class ids are `0..n_suit`).
    pub n_suit: usize,
    /// Number of honour classes (their ids are `n_suit..n_suit + n_honor`).
    pub n_honor: usize,
    /// Two suits' classes → their combined class: `pair_ab[a * n_suit + b]` (padded to
    /// [`PAIR_AB_LEN`]).
    pub pair_ab: Box<[u8; PAIR_AB_LEN]>,
    /// A suit's class and the honours' class → combined class: `pair_sh[s * n_honor + h - n_suit]`
    /// (padded to [`PAIR_SH_LEN`]).
    pub pair_sh: Box<[u8; PAIR_SH_LEN]>,
    /// Distances of the combined classes (for tests and rebuilding).
    pub ab_dist: Vec<Dist>,
    pub sh_dist: Vec<Dist>,
    /// `final_dist[ab * sh_dist.len() + sh][m]`: `m` sets and a pair from the two halves.
    pub final_dist: Vec<[u8; 8]>,
    /// Exact decomposition flags per suit rank.
    pub suit_flags: Vec<u8>,
    /// The same flags addressed by the base-5 index `Σ c[i]·5^i` (every vector of 0..=4 counts,
    /// 0 when more than 14 tiles), packed 2 bits per vector: 488 KiB, fits in L2. Adding one tile of
    /// rank `r` is `index + 5^r`.
    pub flags5: Vec<u8>,
    /// The batch win check's suit classes ([`win_code`]): by `8 hi + n9` for the base-5 index `hi`
    /// of ranks 5-8 and the count `n9` of rank 9, the class of those ranks 5-9 (suffixes that every
    /// prefix of ranks 1-4 completes alike share a class; at most 63 classes), then the knitted
    /// bits ([`knit_bits`]) of those ranks.
    pub win_hi: Box<[[u8; 2]; WIN_HI_LEN]>,
    /// By `64 lo + class` for the base-5 index `lo` of ranks 1-4: the code of the suit made of
    /// those ranks and the class's ranks 5-9: 0 the suit is sets only, 2 sets and one pair, 3
    /// neither (one cache line per `lo`). Entry `64 lo + WIN_KNIT_SLOT` (no class) holds the
    /// knitted bits of ranks 1-4 instead, in the line the code is read from.
    pub win_lo: Box<[u8; WIN_LO_LEN]>,
    /// `rank_step[i][s][c]`: contribution of rank `i` holding `c` copies after `s` tiles of lower ranks.
    pub rank_step: [[[u32; 5]; MAX_SUIT_TILES + 1]; 9],
    /// Split rank: ranks 1-4 by their base-5 index `lo` (625 entries: partial rank, and the offset
    /// `3125 × tiles` of the row of `rank_hi` to use) …
    pub rank_lo: Vec<(u32, u32)>,
    /// … and ranks 5-9 by (tiles in ranks 1-4, base-5 index `hi` of ranks 5-9): 15 × 3 125 entries.
    /// `rank = rank_lo[lo].0 + rank_hi[rank_lo[lo].1 + hi]`; the base-5 index of the suit is
    /// `lo + 625 hi`.
    pub rank_hi: Vec<u32>,
    /// The distance path's suit index ([`hot_rank`]): suits ranked by tile count first, so that the
    /// few-tile suits of real hands share a small prefix of [`Tables::hot_class`] (every suit of
    /// at most 9 tiles lies in its first 42 KB, where the lexicographic `suit_class` spreads them
    /// over 405 KB). `hot_lo[16 lo + s_hi]` is the offset of the block of suits with the tile
    /// counts of `lo` in ranks 1-4 and `s_hi` tiles in ranks 5-9, plus `lo`'s place in it (0 when
    /// the suit would hold more than 14 tiles) …
    pub hot_lo: Box<[u32; HOT_LO_LEN]>,
    /// … and `hot_hi[hi]` the place of `hi` among the 5-rank patterns of its tile count (bits 0..9)
    /// and that tile count (bits 9..: what [`hot_rank_of`] indexes `hot_lo` with).
    pub hot_hi: Box<[u16; HOT_HI_LEN]>,
    /// Suit class by [`hot_rank`] (the same classes as `suit_class`).
    pub hot_class: Box<[u8; HOT_CLASS_LEN]>,
    /// `final_plane[m * plane + ab * sh_dist.len() + sh]` = `final_dist[..][m]`: one 25 KB plane
    /// per number of sets, so that a hand size reads one plane (`plane = ab_dist.len() ×
    /// sh_dist.len()`).
    pub final_plane: Box<[u8; FINAL_PLANES_LEN]>,
    pub plane: usize,
    /// Every suit's standard readings, by sum-first rank (what the decomposition reads).
    pub(crate) suit_readings: crate::decompose::SuitTable,
}

// The distance path's tables have fixed power-of-two lengths (each at least its content: asserted
// when they are built), so that a lookup masks its index instead of checking it against a length
// read from memory: every valid index is below the content's length, where the mask changes
// nothing.

/// Length of [`Tables::hot_lo`] (625 × 16 entries used).
pub const HOT_LO_LEN: usize = 1 << 14;
/// Length of [`Tables::hot_hi`] (3 125 used).
pub const HOT_HI_LEN: usize = 1 << 12;
/// Length of [`Tables::hot_class`] ([`SUIT_ENTRIES`] used).
pub const HOT_CLASS_LEN: usize = 1 << 19;
/// Length of [`Tables::pair_ab`] (`n_suit²` used).
pub const PAIR_AB_LEN: usize = 1 << 14;
/// Length of [`Tables::pair_sh`] (`n_suit × n_honor` used).
pub const PAIR_SH_LEN: usize = 1 << 13;
/// Length of [`Tables::final_plane`] (`5 × plane` used).
pub const FINAL_PLANES_LEN: usize = 1 << 17;

/// A boxed array of `N` copies of `x` (built on the heap: the larger ones would overflow a stack).
pub(crate) fn boxed<T: Copy + std::fmt::Debug, const N: usize>(x: T) -> Box<[T; N]> {
    vec![x; N]
        .into_boxed_slice()
        .try_into()
        .expect("a vector of N entries")
}

/// `v` copied into a boxed array of `N` entries (the rest `fill`); panics when `v` is longer.
fn padded<T: Copy + std::fmt::Debug, const N: usize>(v: &[T], fill: T) -> Box<[T; N]> {
    assert!(v.len() <= N, "{} entries for a table of {N}", v.len());
    let mut out = boxed(fill);
    out[..v.len()].copy_from_slice(v);
    out
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

/// Number of vectors of length `k` over 0..=4 whose sum is at most `b` (by counting down one
/// position at a time: a table of at most 10 × 15 entries, not a 5^k recursion).
fn count_vectors(k: usize, b: i32) -> u32 {
    if b < 0 {
        return 0;
    }
    let b = b as usize;
    // row[s]: vectors of the current length with sum at most s
    let mut row = vec![1u32; b + 1];
    for _ in 0..k {
        let prev = row.clone();
        for (s, slot) in row.iter_mut().enumerate() {
            *slot = (0..=4.min(s)).map(|c| prev[s - c]).sum();
        }
    }
    row[b]
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

/// Distance vector → class id while the tables are built, keyed by the vector's 10 bytes as one
/// number ([`dist_key`]). There are at most 256 keys, met 405 350 times: one multiplication per
/// lookup instead of SipHash keeps the module's start-up (the tables are built when `hupai` is
/// imported) short.
type ClassIds = std::collections::HashMap<u128, u8, std::hash::BuildHasherDefault<KeyHash>>;

/// The 10 distances of a vector as one number.
fn dist_key(d: &Dist) -> u128 {
    let mut b = [0u8; 16];
    b[..5].copy_from_slice(&d[0]);
    b[5..10].copy_from_slice(&d[1]);
    u128::from_le_bytes(b)
}

/// The hasher of [`ClassIds`] (its keys are the tables' own, not an adversary's).
#[derive(Default)]
struct KeyHash(u64);

impl std::hash::Hasher for KeyHash {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u128(&mut self, x: u128) {
        self.0 =
            ((x as u64) ^ ((x >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

/// Class ids of a list of distance vectors (first occurrence order), appended to `classes`.
fn classify(dists: &[Dist], classes: &mut Vec<Dist>) -> Vec<u8> {
    let mut ids = ClassIds::default();
    dists
        .iter()
        .map(|d| {
            *ids.entry(dist_key(d)).or_insert_with(|| {
                classes.push(*d);
                u8::try_from(classes.len() - 1).expect("at most 256 group classes")
            })
        })
        .collect()
}

/// Ids of the distinct combinations of two class lists (first occurrence order).
fn combine_classes(a: &[Dist], b: &[Dist]) -> (Vec<u8>, Vec<Dist>) {
    let mut ids = ClassIds::default();
    let mut out = Vec::new();
    let mut table = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            let d = combine(x, y);
            let id = *ids.entry(dist_key(&d)).or_insert_with(|| {
                out.push(d);
                u8::try_from(out.len() - 1).expect("at most 256 combined classes")
            });
            table.push(id);
        }
    }
    (table, out)
}

fn build() -> Tables {
    let rank_step = rank_steps();
    let mut rank_lo = vec![(0, 0); 625];
    let mut rank_hi = vec![0; (MAX_SUIT_TILES + 1) * 3125];
    for (lo, slot) in rank_lo.iter_mut().enumerate() {
        let (mut x, mut s, mut r) = (lo, 0usize, 0u32);
        for i in 0..4 {
            let c = x % 5;
            x /= 5;
            if s + c <= MAX_SUIT_TILES {
                r += rank_step[i][s][c];
            }
            s += c;
        }
        *slot = (r, 3125 * s.min(MAX_SUIT_TILES) as u32);
    }
    for s0 in 0..=MAX_SUIT_TILES {
        for hi in 0..3125 {
            let (mut x, mut s, mut r) = (hi, s0, 0u32);
            for i in 4..9 {
                let c = x % 5;
                x /= 5;
                if s + c <= MAX_SUIT_TILES {
                    r += rank_step[i][s][c];
                }
                s += c;
            }
            rank_hi[s0 * 3125 + hi] = r;
        }
    }
    let mut tables = Tables {
        class_dist: Vec::new(),
        suit_class: Vec::new(),
        honor_class: boxed(0),
        honor_class_bits: boxed(0),
        n_suit: 0,
        n_honor: 0,
        pair_ab: boxed(0),
        pair_sh: boxed(0),
        ab_dist: Vec::new(),
        sh_dist: Vec::new(),
        final_dist: Vec::new(),
        suit_flags: Vec::new(),
        flags5: Vec::new(),
        win_hi: vec![[0; 2]; WIN_HI_LEN]
            .into_boxed_slice()
            .try_into()
            .expect("win_hi length"),
        win_lo: vec![3; WIN_LO_LEN]
            .into_boxed_slice()
            .try_into()
            .expect("win_lo length"),
        rank_step,
        rank_lo,
        rank_hi,
        hot_lo: boxed(0),
        hot_hi: boxed(0),
        hot_class: boxed(u8::MAX),
        final_plane: boxed(INF * 2),
        plane: 0,
        suit_readings: Default::default(),
    };
    let mut dist: Vec<Dist> = Vec::with_capacity(SUIT_ENTRIES);
    let mut v = [0u8; 9];
    enumerate(&tables, &mut v, 0, 0, &mut dist);
    debug_assert_eq!(dist.len(), SUIT_ENTRIES);
    // Recompute flags from the distances: a suit of n tiles decomposes exactly iff it contains
    // n/3 sets (n ≡ 0) or (n-2)/3 sets and a pair (n ≡ 2) with nothing added.
    let mut v = [0u8; 9];
    let mut flags = Vec::with_capacity(SUIT_ENTRIES);
    flags_enumerate(&dist, &mut v, 0, 0, &mut flags);
    tables.suit_flags = flags;
    // Classes: suits first, then honours (ids offset by the number of suit classes).
    let mut classes = Vec::new();
    tables.suit_class = classify(&dist, &mut classes);
    tables.n_suit = classes.len();
    let honors = build_honors();
    tables.honor_class = padded(&classify(&honors, &mut classes), 0);
    for (h1, h2, h3, h4) in histograms() {
        tables.honor_class_bits[honor_bits_key(h1, h2, h3, h4)] =
            tables.honor_class[h1 | h2 << 3 | h3 << 6 | h4 << 9];
    }
    tables.n_honor = classes.len() - tables.n_suit;
    let (suits, hons) = classes.split_at(tables.n_suit);
    let (pair_ab, ab_dist) = combine_classes(suits, suits);
    let (pair_sh, sh_dist) = combine_classes(suits, hons);
    tables.final_dist = ab_dist
        .iter()
        .flat_map(|ab| {
            sh_dist.iter().map(move |sh| {
                let mut f = [INF * 2; 8];
                for (m, x) in f.iter_mut().enumerate().take(5) {
                    *x = combine_final(ab, sh, m);
                }
                f
            })
        })
        .collect();
    tables.pair_ab = padded(&pair_ab, 0);
    tables.pair_sh = padded(&pair_sh, 0);
    tables.ab_dist = ab_dist;
    tables.sh_dist = sh_dist;
    tables.class_dist = classes;
    drop(dist);
    let mut flags5 = vec![0u8; POW5[9].div_ceil(4)];
    // Visit only the vectors with at most 14 tiles (in rank order); all others stay 0.
    fn fill(v: &mut [u8; 9], i: usize, sum: usize, rank: &mut usize, flags: &[u8], out: &mut [u8]) {
        if i == 9 {
            let idx = index5(v);
            out[idx >> 2] |= flags[*rank] << ((idx & 3) * 2);
            *rank += 1;
            return;
        }
        for c in 0..=4u8 {
            if sum + c as usize > MAX_SUIT_TILES {
                break;
            }
            v[i] = c;
            fill(v, i + 1, sum + c as usize, rank, flags, out);
        }
        v[i] = 0;
    }
    let mut rank = 0;
    fill(
        &mut [0; 9],
        0,
        0,
        &mut rank,
        &tables.suit_flags,
        &mut flags5,
    );
    tables.flags5 = flags5;
    build_win(&mut tables);
    build_hot(&mut tables);
    tables.suit_readings = crate::decompose::suit_table(&tables);
    tables
}

/// Sum of the base-5 digits of `x`.
fn digit_sum(mut x: usize) -> usize {
    let mut s = 0;
    while x > 0 {
        s += x % 5;
        x /= 5;
    }
    s
}

/// The sum-first suit index (`hot_lo`, `hot_hi`, `hot_class`) and the per-size final planes.
fn build_hot(t: &mut Tables) {
    // place of each 4- and 5-rank pattern among those of its tile count, and the counts
    let places = |len: usize, max: usize| {
        let mut n = vec![0usize; max + 1];
        let place: Vec<usize> = (0..len)
            .map(|x| {
                let s = digit_sum(x);
                n[s] += 1;
                n[s] - 1
            })
            .collect();
        (place, n)
    };
    let (place4, n4) = places(625, 16);
    let (place5, n5) = places(3125, 20);
    let sum4: Vec<usize> = (0..625).map(digit_sum).collect();
    let sum5: Vec<usize> = (0..3125).map(digit_sum).collect();
    // blocks (tiles in ranks 1-4, in ranks 5-9) by total tiles, then by the first
    let mut offset = [[0usize; MAX_SUIT_TILES + 1]; MAX_SUIT_TILES + 1];
    let mut acc = 0;
    for total in 0..=MAX_SUIT_TILES {
        for s_lo in 0..=total {
            offset[s_lo][total - s_lo] = acc;
            acc += n4[s_lo] * n5[total - s_lo];
        }
    }
    assert_eq!(acc, SUIT_ENTRIES);
    for lo in 0..625 {
        for s_hi in 0..16 {
            if sum4[lo] + s_hi <= MAX_SUIT_TILES {
                t.hot_lo[16 * lo + s_hi] = (offset[sum4[lo]][s_hi] + place4[lo] * n5[s_hi]) as u32;
            }
        }
    }
    assert!(n5.iter().all(|&n| n <= 512), "a 5-rank place fits 9 bits");
    let place5: Vec<u16> = (0..3125)
        .map(|x| (place5[x] | sum5[x] << 9) as u16)
        .collect();
    t.hot_hi = padded(&place5, 0);
    for lo in 0..625 {
        for hi in 0..3125 {
            if sum4[lo] + sum5[hi] <= MAX_SUIT_TILES {
                let r = hot_rank(t, lo, hi, sum5[hi]);
                debug_assert_eq!(t.hot_class[r], u8::MAX);
                t.hot_class[r] = t.suit_class[rank_of(t, lo, hi)];
            }
        }
    }
    debug_assert!(t.hot_class[..SUIT_ENTRIES].iter().all(|&c| c != u8::MAX));
    t.plane = t.ab_dist.len() * t.sh_dist.len();
    assert!(
        5 * t.plane <= FINAL_PLANES_LEN,
        "final planes of {} entries",
        t.plane
    );
    for (i, f) in t.final_dist.iter().enumerate() {
        for m in 0..5 {
            t.final_plane[m * t.plane + i] = f[m];
        }
    }
}

/// Sum-first dense rank of a suit from the base-5 indices of ranks 1-4 (`lo`) and 5-9 (`hi`) and
/// the tiles in ranks 5-9 (`s_hi`); at most 14 tiles in all (an index of [`Tables::hot_class`]).
#[inline(always)]
pub fn hot_rank(t: &Tables, lo: usize, hi: usize, s_hi: usize) -> usize {
    t.hot_lo[(16 * lo + (s_hi & 15)) & (HOT_LO_LEN - 1)] as usize
        + (t.hot_hi[hi & (HOT_HI_LEN - 1)] & 511) as usize
}

/// [`hot_rank`] with the tiles in ranks 5-9 read from `hot_hi` (at most 14 tiles in the suit).
#[inline(always)]
pub fn hot_rank_of(t: &Tables, lo: usize, hi: usize) -> usize {
    let e = t.hot_hi[hi & (HOT_HI_LEN - 1)] as usize;
    t.hot_lo[(16 * lo + (e >> 9 & 15)) & (HOT_LO_LEN - 1)] as usize + (e & 511)
}

/// Class of the suit of sum-first rank `r` ([`hot_rank`]).
#[inline(always)]
pub fn hot_class_at(t: &Tables, r: usize) -> usize {
    t.hot_class[r & (HOT_CLASS_LEN - 1)] as usize
}

/// Class of the honours of bits key `key` ([`honor_bits_key`], < [`HONOR_ENTRIES`]).
#[inline(always)]
pub fn honor_class_at(t: &Tables, key: usize) -> usize {
    t.honor_class_bits[key & (HONOR_ENTRIES - 1)] as usize
}

/// Every honour histogram: kinds held once, twice, three and four times (at most 7 kinds).
fn histograms() -> impl Iterator<Item = (usize, usize, usize, usize)> {
    (0..=7usize).flat_map(|h1| {
        (0..=7 - h1).flat_map(move |h2| {
            (0..=7 - h1 - h2)
                .flat_map(move |h3| (0..=7 - h1 - h2 - h3).map(move |h4| (h1, h2, h3, h4)))
        })
    })
}

/// Another key of the honour histogram (`h1` kinds held once, … `h4` four times), made of what the
/// bits of the counts give with a few word operations: `s0 + 8 s1 + 64 h3 + 512 h4`, where `s0`
/// kinds have bit 0 of their count set (held once or three times) and `s1` bit 1 (twice or three
/// times). Each field is below 8, so the key is below [`HONOR_ENTRIES`] and tells the histogram.
pub const fn honor_bits_key(h1: usize, h2: usize, h3: usize, h4: usize) -> usize {
    (h1 + h3) + 8 * (h2 + h3) + 64 * h3 + 512 * h4
}

/// Standard distance (`m` sets and a pair) of a hand from its two halves' combined classes.
#[inline(always)]
pub fn final_at(t: &Tables, ab: usize, sh: usize, m: usize) -> u8 {
    t.final_plane[(m * t.plane + ab * t.sh_dist.len() + sh) & (FINAL_PLANES_LEN - 1)]
}

/// Powers of five.
pub const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390_625, 1_953_125];

/// Base-5 index of a suit vector (`c.len() == 9`, counts 0..=4).
#[inline(always)]
pub fn index5(c: &[u8]) -> usize {
    // SWAR: pairs of digits, then quadruples, then the eight low digits; no dependent chain.
    let mut b = [0u8; 8];
    b.copy_from_slice(&c[..8]);
    let w = u64::from_le_bytes(b);
    const M16: u64 = 0x00FF_00FF_00FF_00FF;
    const M32: u64 = 0x0000_FFFF_0000_FFFF;
    let p = (w & M16) + 5 * ((w >> 8) & M16);
    let q = (p & M32) + 25 * ((p >> 16) & M32);
    let r = (q & 0xFFFF_FFFF) + 625 * (q >> 32);
    r as usize + 390_625 * c[8] as usize
}

/// Entries of [`Tables::win_hi`]: 8 per base-5 index of ranks 5-8 (`< 625`), padded to a power of
/// two so that a masked index needs no bounds check.
pub const WIN_HI_LEN: usize = 8192;
/// Entries of [`Tables::win_lo`]: 64 per base-5 index of ranks 1-4 (`< 625`), padded likewise
/// (a line index masked to 16 bits, plus any class byte, stays inside).
pub const WIN_LO_LEN: usize = (1 << 16) + 256;

/// The suit classes and codes of the batch win check ([`Tables::win_hi`], [`Tables::win_lo`]),
/// from `flags5`. A suffix (ranks 5-9) joins the first class that agrees with it on every prefix
/// (ranks 1-4) both define; a pair of more than 14 tiles in all defines nothing (no hand holds
/// it). Suffixes are taken by tile count, so the first ones define the most.
fn build_win(t: &mut Tables) {
    let code = |f: u8| match f {
        1 => 0u8,
        2 => 2,
        f => {
            debug_assert_eq!(f, 0, "a suit is never both sets only and sets and a pair");
            3
        }
    };
    let sum4: Vec<usize> = (0..625).map(digit_sum).collect();
    let mut suffixes: Vec<usize> = (0..POW5[5]).collect(); // hi + 625 n9
    suffixes.sort_by_key(|&x| digit_sum(x));
    const UNSET: u8 = 0xFF;
    let mut classes: Vec<[u8; 625]> = Vec::new();
    let mut sig = [UNSET; 625];
    for &x in &suffixes {
        let dx = digit_sum(x);
        for (lo, v) in sig.iter_mut().enumerate() {
            *v = if sum4[lo] + dx <= MAX_SUIT_TILES {
                code(flags5(t, lo + 625 * x))
            } else {
                UNSET
            };
        }
        let fits = |c: &[u8; 625]| {
            c.iter()
                .zip(&sig)
                .all(|(&a, &b)| a == UNSET || b == UNSET || a == b)
        };
        let k = match classes.iter().position(fits) {
            Some(k) => k,
            None => {
                classes.push([UNSET; 625]);
                classes.len() - 1
            }
        };
        for (a, &b) in classes[k].iter_mut().zip(&sig) {
            if b != UNSET {
                *a = b;
            }
        }
        let (hi, n9) = (x % 625, x / 625);
        t.win_hi[8 * hi + n9] = [k as u8, knit_bits(&base5_digits(x, 5), 4)];
    }
    assert!(
        classes.len() <= WIN_KNIT_SLOT,
        "{} win classes",
        classes.len()
    );
    for (k, c) in classes.iter().enumerate() {
        for (lo, &v) in c.iter().enumerate() {
            // undefined codes stay 3
            if v != UNSET {
                t.win_lo[64 * lo + k] = v;
            }
        }
    }
    for lo in 0..POW5[4] {
        t.win_lo[64 * lo + WIN_KNIT_SLOT] = knit_bits(&base5_digits(lo, 4), 0);
    }
}

/// The `len` base-5 digits of `x`, lowest first.
fn base5_digits(mut x: usize, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            let d = (x % 5) as u8;
            x /= 5;
            d
        })
        .collect()
}

/// The entry of each line of [`Tables::win_lo`] that holds the knitted bits of ranks 1-4 (no class
/// reaches it).
pub const WIN_KNIT_SLOT: usize = 63;

/// The knitted facts of some ranks of a suit, `counts[i]` being the count of rank `first + i + 1`:
/// bit `j` (`j` < 3) every rank `j + 1`, `j + 4`, `j + 7` among them is held, bit `4 + j` every rank
/// held among them is one of those. A suit's bits are those of its ranks 1-4 and 5-9 ANDed: bit `j`
/// it holds knitted offset `j` (a knitted straight's three tiles of the suit), bit `4 + j` it holds
/// nothing else (a suit of 全不靠). Bit 3 stays clear, so that adding 7 carries into it exactly when
/// one of bits 0-2 is set (and likewise bit 7 for bits 4-6).
pub fn knit_bits(counts: &[u8], first: usize) -> u8 {
    let mut bits = 0x77;
    for (i, &c) in counts.iter().enumerate() {
        let j = (first + i) % 3;
        if c == 0 {
            bits &= !(1 << j);
        } else {
            bits &= !(0x70 & !(0x10 << j));
        }
    }
    bits
}

/// The win code of a suit (0 sets only, 2 sets and a pair, 3 neither; see [`Tables::win_lo`]) from
/// `lo64 = 64 lo` and `hi8 = 8 hi` for the base-5 indices of its ranks 1-4 and 5-8 and its count
/// `n9` of rank 9 (every count ≤ 4 and at most 14 tiles; anything else gives some code, never an
/// out-of-bounds read).
#[inline(always)]
pub fn win_code(
    hi: &[[u8; 2]; WIN_HI_LEN],
    lo: &[u8; WIN_LO_LEN],
    lo64: u32,
    hi8: u32,
    n9: u64,
) -> u32 {
    let c = hi[(hi8 as usize + n9 as usize) & (WIN_HI_LEN - 1)][0];
    u32::from(lo[win_line(lo64) + c as usize])
}

/// The start of the line of [`Tables::win_lo`] at `lo64` (a multiple of 64 below 40 000 for a valid
/// suit), masked so that every entry of the line is inside the table; the code and the knitted
/// bits share it.
#[inline(always)]
fn win_line(lo64: u32) -> usize {
    lo64 as usize & 0xFFC0
}

/// The knitted bits ([`knit_bits`]) of a suit, its indices as for [`win_code`].
#[inline(always)]
pub fn win_knit(
    hi: &[[u8; 2]; WIN_HI_LEN],
    lo: &[u8; WIN_LO_LEN],
    lo64: u32,
    hi8: u32,
    n9: u64,
) -> u32 {
    let h = hi[(hi8 as usize + n9 as usize) & (WIN_HI_LEN - 1)][1];
    u32::from(lo[win_line(lo64) + WIN_KNIT_SLOT] & h)
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
    let lookup = |w: &[u8; 9]| -> &Dist { &done[suit_rank_fast(t, w)] };
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

fn build_honors() -> Vec<Dist> {
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
    let mut out = vec![[[INF; 5]; 2]; HONOR_ENTRIES];
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
                    for row in acc.iter_mut() {
                        for x in row.iter_mut() {
                            *x = (*x).min(INF);
                        }
                    }
                    out[h1 | h2 << 3 | h3 << 6 | h4 << 9] = acc;
                }
            }
        }
    }
    out
}

/// Dense rank of a suit vector from two small tables (same value as [`suit_rank`]).
#[inline(always)]
pub fn suit_rank_fast(t: &Tables, c: &[u8]) -> usize {
    let lo = c[0] as usize + 5 * c[1] as usize + 25 * c[2] as usize + 125 * c[3] as usize;
    let hi = c[4] as usize
        + 5 * c[5] as usize
        + 25 * c[6] as usize
        + 125 * c[7] as usize
        + 625 * c[8] as usize;
    rank_of(t, lo, hi)
}

/// Dense rank of a suit from the base-5 indices of ranks 1-4 (`lo`) and 5-9 (`hi`).
#[inline(always)]
pub fn rank_of(t: &Tables, lo: usize, hi: usize) -> usize {
    let (r, row) = t.rank_lo[lo];
    r as usize + t.rank_hi[row as usize + hi] as usize
}

/// Class of a suit vector (nine counts, at most 14 tiles).
#[inline(always)]
pub fn suit_class_of(t: &Tables, c: &[u8]) -> usize {
    t.suit_class[suit_rank_fast(t, c)] as usize
}

/// Class of the seven honour counts.
#[inline(always)]
pub fn honor_class_of(t: &Tables, c: &[u8]) -> usize {
    t.honor_class[honor_key(c)] as usize
}

/// Distances of a suit vector.
#[inline(always)]
pub fn suit_dist_of<'a>(t: &'a Tables, c: &[u8]) -> &'a Dist {
    &t.class_dist[suit_class_of(t, c)]
}

/// Distances of the suit of dense rank `r`.
#[inline(always)]
pub fn suit_dist_at(t: &Tables, r: usize) -> &Dist {
    &t.class_dist[t.suit_class[r] as usize]
}

/// Distances of the seven honour counts.
#[inline(always)]
pub fn honor_dist_of<'a>(t: &'a Tables, c: &[u8]) -> &'a Dist {
    &t.class_dist[honor_class_of(t, c)]
}

/// Combined class of (characters + dots) from the two suits' classes.
#[inline(always)]
pub fn ab_of(t: &Tables, a: usize, b: usize) -> usize {
    t.pair_ab[(a * t.n_suit + b) & (PAIR_AB_LEN - 1)] as usize
}

/// Combined class of (bamboos + honours) from the suit's and the honours' classes.
#[inline(always)]
pub fn sh_of(t: &Tables, s: usize, h: usize) -> usize {
    t.pair_sh[(s * t.n_honor + h - t.n_suit) & (PAIR_SH_LEN - 1)] as usize
}

/// Standard distances (`m` sets and a pair, `m` = 0..=4) of a hand from its two halves.
#[inline(always)]
pub fn final_of(t: &Tables, ab: usize, sh: usize) -> &[u8; 8] {
    &t.final_dist[ab * t.sh_dist.len() + sh]
}

/// The two halves' combined classes of a hand (every suit must hold ≤ 14 tiles).
#[inline(always)]
pub fn halves(t: &Tables, c: &Counts) -> (usize, usize) {
    let a = suit_class_of(t, &c[0..9]);
    let b = suit_class_of(t, &c[9..18]);
    let s = suit_class_of(t, &c[18..27]);
    let h = honor_class_of(t, &c[27..34]);
    (ab_of(t, a, b), sh_of(t, s, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index5_matches_horner() {
        let mut v = [0u8; 9];
        for x in (0..POW5[9]).step_by(97) {
            let mut y = x;
            for d in v.iter_mut() {
                *d = (y % 5) as u8;
                y /= 5;
            }
            assert_eq!(index5(&v), x);
        }
        assert_eq!(index5(&[4; 9]), POW5[9] - 1);
    }

    #[test]
    fn sizes() {
        assert_eq!(count_vectors(9, 14) as usize, SUIT_ENTRIES);
        let t = tables();
        assert_eq!(t.suit_class.len(), SUIT_ENTRIES);
        assert!(t.class_dist.len() <= 256 && t.ab_dist.len() <= 256 && t.sh_dist.len() <= 256);
        assert_eq!(suit_rank(t, &[0; 9]), 0);
        assert_eq!(suit_rank(t, &[4, 4, 4, 2, 0, 0, 0, 0, 0]), SUIT_ENTRIES - 1);
    }
}
