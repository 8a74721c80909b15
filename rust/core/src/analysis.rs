//! Hand analysis: win detection, shanten, waits, useful tiles and discard options, for every win
//! shape of common.md §3 and 0..=8 wildcards (§4), table-driven ([`crate::tables`]).
//!
//! # Model
//! Every function takes the **standing** tiles as a count vector (`counts`, wildcards excluded), the
//! number of wildcard tiles standing in the hand (`wildcards`, each may stand for any tile, also a
//! fifth copy), the number of declared melds and the allowed [`Shapes`].
//!
//! A hand holds `3n+1` (waiting) or `3n+2` (complete) standing tiles, wildcards included. It needs
//! `n` more sets besides its melds; when `n + melds < 4` the missing sets count as already declared
//! (so a 5-tile `"23m55p"`… style hand or an `(N, 34)` row of 7 tiles is analysed like a hand with
//! melds). The special shapes (七对, 十三幺, 全不靠) need a full concealed hand (`n = 4`); 组合龙 needs
//! `n ≥ 3` (its extra set may be declared).
//!
//! # Distance
//! The core quantity is the *distance* of a form: the fewest tiles that must be added to the real
//! standing tiles so that they contain the form's groups (leftovers allowed). With `w` wildcards the
//! hand is complete iff `distance ≤ w`, and `shanten = max(0, distance - w) - 1` (−1 = complete,
//! 0 = ready/听牌). Added tiles are not limited to four copies (as in the usual shanten definition);
//! [`waits`] and [`useful_tiles`] drop tiles of which no copy is left.

#![allow(clippy::needless_range_loop)] // index-heavy table code reads better with indices

use crate::decompose::{KNITTED_PERMUTATIONS, Shapes, knitted_tiles};
use crate::error::{Error, Result};
use crate::rows;
use crate::tables::{self, INF, tables};
use crate::tile::{Counts, N_KINDS, Tile};

/// Largest number of wildcards a hand may hold.
pub const MAX_WILDCARDS: u8 = 8;

/// How many sets a hand still needs and whether it is complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Sets needed besides the declared (or implied declared) ones: 0..=4.
    pub sets: u8,
    /// `3n+2` tiles (complete candidate) rather than `3n+1` (waiting).
    pub complete: bool,
}

impl Plan {
    /// Validate the tile count: `counts` must have ≤ 4 copies per kind (not checked here), the
    /// standing tiles plus wildcards must be `3n+1` or `3n+2` with `n + melds ≤ 4`.
    pub fn new(counts: &Counts, wildcards: u8, melds: usize) -> Result<Plan> {
        let real: usize = counts.iter().map(|&c| c as usize).sum();
        Plan::from_len(real, wildcards, melds)
    }

    /// Whether any allowed shape fits this hand size (the special shapes need a full concealed
    /// hand, 组合龙 at most one declared set).
    pub fn fits(&self, shapes: Shapes) -> bool {
        shapes.standard
            || (self.sets == 4
                && (shapes.seven_pairs || shapes.thirteen_orphans || shapes.honors_knitted))
            || (self.sets >= 3 && shapes.knitted_straight)
    }

    /// [`Plan::fits`] as an error.
    pub fn check_fits(&self, shapes: Shapes) -> Result<()> {
        if self.fits(shapes) {
            Ok(())
        } else {
            Err(Error::hand(format!(
                "no allowed shape fits a hand needing {} set(s) besides its melds (七对, 十三幺 and \
                 全不靠 need a full concealed hand; 组合龙 allows one declared set)",
                self.sets
            )))
        }
    }

    pub fn from_len(real: usize, wildcards: u8, melds: usize) -> Result<Plan> {
        if wildcards > MAX_WILDCARDS {
            return Err(Error::hand(format!(
                "{wildcards} wildcards: at most {MAX_WILDCARDS} are supported"
            )));
        }
        if melds > 4 {
            return Err(Error::hand(format!(
                "{melds} melds declared; a hand has at most 4"
            )));
        }
        let n = real + wildcards as usize;
        let complete = match n % 3 {
            1 => false,
            2 => true,
            _ => {
                return Err(Error::hand(format!(
                    "{n} standing tiles (wildcards included): a hand has 3n+1 (waiting) or 3n+2 \
                     (complete) standing tiles"
                )));
            }
        };
        let sets = (n - if complete { 2 } else { 1 }) / 3;
        if sets + melds > 4 {
            return Err(Error::hand(format!(
                "{n} standing tiles with {melds} meld(s): at most {} standing tiles",
                14 - 3 * melds
            )));
        }
        Ok(Plan {
            sets: sets as u8,
            complete,
        })
    }
}

/// Reject counts above four (the tables are built for 0..=4 copies).
pub fn check_counts(counts: &Counts) -> Result<()> {
    crate::hand::check_copies(counts)
}

/// Distance of each form (`None`: the form is not allowed or not possible for this hand size).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormDistances {
    pub standard: Option<u8>,
    pub seven_pairs: Option<u8>,
    pub thirteen_orphans: Option<u8>,
    pub honors_knitted: Option<u8>,
    pub knitted_straight: Option<u8>,
}

impl FormDistances {
    pub fn min(&self) -> u8 {
        [
            self.standard,
            self.seven_pairs,
            self.thirteen_orphans,
            self.honors_knitted,
            self.knitted_straight,
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(INF)
    }
}

/// Shanten per form (−1 complete, 0 ready); `None` when the form is not allowed / not possible.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormShanten {
    pub standard: Option<i8>,
    pub seven_pairs: Option<i8>,
    pub thirteen_orphans: Option<i8>,
    pub honors_knitted: Option<i8>,
    pub knitted_straight: Option<i8>,
    /// The minimum over the allowed forms.
    pub min: i8,
}

const ORPHAN_MASK: u64 =
    (1 << 0) | (1 << 8) | (1 << 9) | (1 << 17) | (1 << 18) | (1 << 26) | (0x7F << 27);
const HONOR_MASK: u64 = 0x7F << 27;

fn knitted_masks() -> [u64; 6] {
    let mut out = [0u64; 6];
    for (k, perm) in KNITTED_PERMUTATIONS.iter().enumerate() {
        for i in knitted_tiles(*perm) {
            out[k] |= 1 << i;
        }
    }
    out
}

static KNITTED_MASKS: std::sync::LazyLock<[u64; 6]> = std::sync::LazyLock::new(knitted_masks);

/// Kinds held (bit `k` for `c[k] > 0`; counts 0..=4).
#[inline(always)]
fn presence(c: &Counts) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut word = [0u8; 40];
    word[..34].copy_from_slice(c);
    let mut m = 0u64;
    for k in 0..5 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&word[8 * k..8 * k + 8]);
        let w = u64::from_le_bytes(b);
        m |= pack_bits((w | (w >> 1) | (w >> 2)) & ONES) << (8 * k);
    }
    m
}

/// One pass over the counts for the special shapes.
#[derive(Clone, Copy)]
struct Summary {
    /// Kinds held at least once / at least twice.
    m1: u64,
    m2: u64,
    /// Σ count / 2 and Σ count % 2.
    pairs_q: u8,
    singles_q: u8,
}

/// Pack the low bit of each of the 8 bytes of `x` (bytes are 0 or 1) into 8 bits, byte 0 → bit 0.
#[inline(always)]
const fn pack_bits(x: u64) -> u64 {
    (x.wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Sum of the 8 bytes of `x` (each small enough not to carry: ≤ 31).
#[inline(always)]
const fn byte_sum(x: u64) -> u64 {
    x.wrapping_mul(0x0101_0101_0101_0101) >> 56
}

/// The summary of counts 0..=4 with SWAR arithmetic on 8 counts at a time (no per-tile loop).
#[inline(always)]
fn summary(c: &Counts) -> Summary {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let (mut m1, mut m2, mut pq, mut sq) = (0u64, 0u64, 0u64, 0u64);
    let mut word = [0u8; 40];
    word[..34].copy_from_slice(c);
    for k in 0..5 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&word[8 * k..8 * k + 8]);
        let w = u64::from_le_bytes(b);
        let half = (w >> 1) & (ONES * 0x7F); // count / 2 per byte (0..=2)
        let nz = (w | half | (w >> 2)) & ONES; // count ≥ 1
        let ge2 = (half | (w >> 2)) & ONES; // count ≥ 2
        m1 |= pack_bits(nz) << (8 * k);
        m2 |= pack_bits(ge2) << (8 * k);
        pq += byte_sum(half);
        sq += byte_sum(w & ONES);
    }
    Summary {
        m1,
        m2,
        pairs_q: pq as u8,
        singles_q: sq as u8,
    }
}

impl Summary {
    #[inline(always)]
    fn seven_pairs(&self, quads: bool) -> u8 {
        let (pairs, singles) = if quads {
            (self.pairs_q, self.singles_q)
        } else {
            let p = self.m2.count_ones() as u8;
            (p, self.m1.count_ones() as u8 - p)
        };
        let p = pairs.min(7);
        (7 - p) + (7 - p).saturating_sub(singles)
    }
    #[inline(always)]
    fn thirteen_orphans(&self) -> u8 {
        14 - (self.m1 & ORPHAN_MASK).count_ones() as u8 - u8::from(self.m2 & ORPHAN_MASK != 0)
    }
    #[inline(always)]
    fn honors_knitted(&self) -> u8 {
        let honors = (self.m1 & HONOR_MASK).count_ones();
        let best = KNITTED_MASKS
            .iter()
            .map(|k| (self.m1 & k).count_ones())
            .max()
            .unwrap_or(0);
        14 - (best + honors).min(14) as u8
    }
}

#[inline(always)]
fn shanten_of(distance: u8, wildcards: u8) -> i8 {
    distance.saturating_sub(wildcards) as i8 - 1
}

/// Standard-shape distance: `sets` sets and a pair. Suits must hold ≤ 14 tiles each.
#[inline]
pub fn standard_distance(c: &Counts, sets: usize) -> u8 {
    rows::standard_distance(tables(), &rows::Row::of(c), sets as u8)
}

/// Standard distance for at most one set (and the pair), used for the set and pair next to a
/// 组合龙 (the same lookups as [`standard_distance`]).
#[inline]
fn few_sets_distance(c: &Counts, sets: usize) -> u8 {
    debug_assert!(sets <= 1);
    standard_distance(c, sets)
}

/// 七对 distance (full concealed hands only).
#[inline]
pub fn seven_pairs_distance(c: &Counts, quads: bool) -> u8 {
    let (mut pairs, mut singles) = (0u8, 0u8);
    for &x in c {
        if quads {
            pairs += x / 2;
            singles += x % 2;
        } else {
            pairs += u8::from(x >= 2);
            singles += u8::from(x == 1);
        }
    }
    let p = pairs.min(7);
    (7 - p) + (7 - p).saturating_sub(singles)
}

/// 十三幺 distance.
#[inline]
pub fn thirteen_orphans_distance(c: &Counts) -> u8 {
    let m = presence(c) & ORPHAN_MASK;
    let pair = [0usize, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        .iter()
        .any(|&i| c[i] >= 2);
    14 - m.count_ones() as u8 - u8::from(pair)
}

/// 全不靠 distance.
#[inline]
pub fn honors_knitted_distance(c: &Counts) -> u8 {
    let m = presence(c);
    let honors = (m & HONOR_MASK).count_ones();
    let best = KNITTED_MASKS
        .iter()
        .map(|k| (m & k).count_ones())
        .max()
        .unwrap_or(0);
    14 - (best + honors).min(14) as u8
}

/// 组合龙 + (`sets` − 3) sets + a pair distance (`sets ≥ 3`); skips assignments that cannot beat
/// `bound`.
#[inline]
pub fn knitted_straight_distance(c: &Counts, sets: usize, bound: u8) -> u8 {
    knitted_straight_bounded(c, sets, bound, 0)
}

/// [`knitted_straight_distance`] given a lower bound `rest_lb` of the distance of the tiles left
/// after the knitted nine (removing tiles never lowers a distance, so the whole hand's distance to
/// `sets − 3` sets and a pair is one).
#[inline]
fn knitted_straight_bounded(c: &Counts, sets: usize, bound: u8, rest_lb: u8) -> u8 {
    knitted_straight_masked(c, presence(c), sets, bound, rest_lb)
}

#[inline]
fn knitted_straight_masked(c: &Counts, m: u64, sets: usize, bound: u8, rest_lb: u8) -> u8 {
    debug_assert!(sets >= 3);
    let mut best = bound;
    for (k, perm) in KNITTED_PERMUTATIONS.iter().enumerate() {
        let missing = 9 - (m & KNITTED_MASKS[k]).count_ones() as u8;
        if missing + rest_lb >= best {
            continue;
        }
        let mut rest = *c;
        for i in knitted_tiles(*perm) {
            if rest[i] > 0 {
                rest[i] -= 1;
            }
        }
        best = best.min(missing + few_sets_distance(&rest, sets - 3));
    }
    best
}

/// Distance of each allowed form.
pub fn form_distances(c: &Counts, sets: u8, shapes: Shapes) -> FormDistances {
    let full = sets == 4;
    let mut d = FormDistances::default();
    if shapes.standard {
        d.standard = Some(standard_distance(c, sets as usize));
    }
    if full && shapes.seven_pairs {
        d.seven_pairs = Some(seven_pairs_distance(c, shapes.seven_pairs_quads));
    }
    if full && shapes.thirteen_orphans {
        d.thirteen_orphans = Some(thirteen_orphans_distance(c));
    }
    if full && shapes.honors_knitted {
        d.honors_knitted = Some(honors_knitted_distance(c));
    }
    if sets >= 3 && shapes.knitted_straight {
        d.knitted_straight = Some(knitted_straight_distance(c, sets as usize, INF * 2));
    }
    d
}

/// The smallest distance over the allowed forms (cheaper than [`form_distances`]: prunes 组合龙).
/// Every count must be at most four.
#[inline]
pub fn min_distance(c: &Counts, sets: u8, shapes: Shapes) -> u8 {
    rows::min_distance(tables(), &rows::Row::of(c), sets, shapes)
}

/// Exact wildcard-free standard win check on a `3n+2` count vector (flag tables only).
#[inline]
pub fn is_standard_exact(c: &Counts) -> bool {
    // Cheap residue checks first: every group must hold 3k or 3k+2 tiles, one pair in all.
    let mut pairs = 0u32;
    for &x in &c[27..34] {
        pairs += u32::from(x == 2);
        if x == 1 || x == 4 {
            return false;
        }
    }
    let n = suit_sums(c);
    for s in 0..3 {
        match n[s] % 3 {
            1 => return false,
            2 => pairs += 1,
            _ => {}
        }
    }
    if pairs != 1 {
        return false;
    }
    let t = tables();
    for s in 0..3 {
        if n[s] == 0 {
            continue;
        }
        let need = if n[s] % 3 == 0 { 1u8 } else { 2u8 };
        if tables::flags5(t, tables::index5(&c[9 * s..9 * s + 9])) & need == 0 {
            return false;
        }
    }
    true
}

/// Tiles per suit (counts 0..=4), eight at a time.
#[inline(always)]
fn suit_sums(c: &Counts) -> [u32; 3] {
    let mut n = [0u32; 3];
    for s in 0..3 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&c[9 * s..9 * s + 8]);
        n[s] = byte_sum(u64::from_le_bytes(b)) as u32 + u32::from(c[9 * s + 8]);
    }
    n
}

/// Win check of a `3n+2` hand given its plan (no validation; every count at most four).
#[inline]
pub fn is_winning_planned(c: &Counts, wildcards: u8, sets: u8, shapes: Shapes) -> bool {
    rows::is_winning(tables(), &rows::Row::of(c), wildcards, sets, shapes)
}

/// Whether a hand is complete. A waiting (`3n+1`) hand is never complete.
pub fn is_winning(c: &Counts, wildcards: u8, melds: usize, shapes: Shapes) -> Result<bool> {
    let r = checked_row(c)?;
    let plan = Plan::from_len(r.tiles() as usize, wildcards, melds)?;
    Ok(plan.complete && rows::is_winning(tables(), &r, wildcards, plan.sets, shapes))
}

/// The counts read once ([`rows::Row`]), or the error of [`check_counts`].
#[inline]
fn checked_row(c: &Counts) -> Result<rows::Row> {
    match rows::Row::load(c) {
        Some(r) => Ok(r),
        None => check_counts(c).map(|()| rows::Row::of(c)),
    }
}

/// Shanten (−1 complete, 0 ready) over the allowed forms.
pub fn shanten(c: &Counts, wildcards: u8, melds: usize, shapes: Shapes) -> Result<i8> {
    let r = checked_row(c)?;
    let plan = Plan::from_len(r.tiles() as usize, wildcards, melds)?;
    plan.check_fits(shapes)?;
    Ok(shanten_of(
        rows::min_distance(tables(), &r, plan.sets, shapes),
        wildcards,
    ))
}

/// Shanten per form and their minimum.
pub fn shanten_forms(
    c: &Counts,
    wildcards: u8,
    melds: usize,
    shapes: Shapes,
) -> Result<FormShanten> {
    check_counts(c)?;
    let plan = Plan::new(c, wildcards, melds)?;
    plan.check_fits(shapes)?;
    let d = form_distances(c, plan.sets, shapes);
    let f = |x: Option<u8>| x.map(|v| shanten_of(v, wildcards));
    Ok(FormShanten {
        standard: f(d.standard),
        seven_pairs: f(d.seven_pairs),
        thirteen_orphans: f(d.thirteen_orphans),
        honors_knitted: f(d.honors_knitted),
        knitted_straight: f(d.knitted_straight),
        min: shanten_of(d.min(), wildcards),
    })
}

/// Shanten of a planned hand (no validation).
#[inline]
pub fn shanten_planned(c: &Counts, wildcards: u8, sets: u8, shapes: Shapes) -> i8 {
    shanten_of(min_distance(c, sets, shapes), wildcards)
}

/// The classes of a hand's groups, to re-evaluate the standard distance when one group changes.
struct Incremental {
    /// Class of each group (m, p, s, honours).
    class: [usize; 4],
    /// Combined classes of the two halves (m + p, s + honours).
    ab: usize,
    sh: usize,
}

impl Incremental {
    fn new(c: &Counts) -> Self {
        let t = tables();
        let class = [
            tables::suit_class_of(t, &c[0..9]),
            tables::suit_class_of(t, &c[9..18]),
            tables::suit_class_of(t, &c[18..27]),
            tables::honor_class_of(t, &c[27..34]),
        ];
        Incremental {
            ab: tables::ab_of(t, class[0], class[1]),
            sh: tables::sh_of(t, class[2], class[3]),
            class,
        }
    }

    /// Standard distance of the unchanged hand.
    fn base(&self, sets: usize) -> u8 {
        tables::final_of(tables(), self.ab, self.sh)[sets]
    }

    /// Standard distance of `c` with one copy of kind `k` added (`c` is the vector *after* adding).
    #[inline(always)]
    fn with_changed(&self, c: &Counts, k: usize, sets: usize) -> u8 {
        let t = tables();
        let (ab, sh) = match k {
            0..9 => (
                tables::ab_of(t, tables::suit_class_of(t, &c[0..9]), self.class[1]),
                self.sh,
            ),
            9..18 => (
                tables::ab_of(t, self.class[0], tables::suit_class_of(t, &c[9..18])),
                self.sh,
            ),
            18..27 => (
                self.ab,
                tables::sh_of(t, tables::suit_class_of(t, &c[18..27]), self.class[3]),
            ),
            _ => (
                self.ab,
                tables::sh_of(t, self.class[2], tables::honor_class_of(t, &c[27..34])),
            ),
        };
        tables::final_of(t, ab, sh)[sets]
    }
}

/// Whether adding tile kind `k` could ever lower the standard distance / complete without
/// wildcards: it must touch a held tile of its suit (±2 ranks) or be held (honours).
#[inline(always)]
fn near(mask: u64, k: usize) -> bool {
    if k >= 27 {
        return mask >> k & 1 == 1;
    }
    let base = k / 9 * 9;
    let lo = k.saturating_sub(2).max(base);
    let hi = (k + 2).min(base + 8);
    let span = ((1u64 << (hi - lo + 1)) - 1) << lo;
    mask & span != 0
}

/// Core of [`waits_mask`] / [`useful_tiles`]: every kind whose addition brings the distance to at
/// most `target` (waits: `target = wildcards`; useful tiles: `target = distance − 1`). A form is
/// only scanned when its own distance is at most `target + 1` (one tile lowers it by at most 1).
fn improving(c: &Counts, wildcards: u8, sets: u8, shapes: Shapes, target: u8) -> u64 {
    let full = sets == 4;
    let open: u64 = !mask_at_four(c) & ((1u64 << N_KINDS) - 1);
    let mask = if shapes.standard { presence(c) } else { 0 };
    let mut out = 0u64;
    let mut w = *c;
    if shapes.standard {
        let inc = Incremental::new(c);
        let base = inc.base(sets as usize);
        if base <= target + 1 {
            for k in 0..N_KINDS {
                if open >> k & 1 == 0 || (wildcards == 0 && !near(mask, k)) {
                    continue;
                }
                w[k] += 1;
                if inc.with_changed(&w, k, sets as usize) <= target {
                    out |= 1 << k;
                }
                w[k] -= 1;
            }
        }
    }
    let specials = (full
        && (shapes.seven_pairs || shapes.thirteen_orphans || shapes.honors_knitted))
        || (sets >= 3 && shapes.knitted_straight);
    if !specials {
        return out;
    }
    let sum = summary(c);
    let mut scan = |base: u8, dist: &dyn Fn(&Counts) -> u8, out: &mut u64| {
        if base > target + 1 {
            return;
        }
        for k in 0..N_KINDS {
            if open >> k & 1 == 0 || *out >> k & 1 == 1 {
                continue;
            }
            w[k] += 1;
            if dist(&w) <= target {
                *out |= 1 << k;
            }
            w[k] -= 1;
        }
    };
    if full && shapes.seven_pairs {
        let q = shapes.seven_pairs_quads;
        scan(
            sum.seven_pairs(q),
            &|x| seven_pairs_distance(x, q),
            &mut out,
        );
    }
    if full && shapes.thirteen_orphans {
        scan(sum.thirteen_orphans(), &thirteen_orphans_distance, &mut out);
    }
    if full && shapes.honors_knitted {
        scan(sum.honors_knitted(), &honors_knitted_distance, &mut out);
    }
    if sets >= 3 && shapes.knitted_straight {
        let s = sets as usize;
        let most = KNITTED_MASKS
            .iter()
            .map(|k| (sum.m1 & k).count_ones() as u8)
            .max()
            .unwrap_or(0);
        // Missing knitted tiles bound the distance from below; adding one tile fills at most one.
        let base = if 9 - most > target + 1 {
            INF
        } else {
            knitted_straight_distance(c, s, target + 2)
        };
        scan(
            base,
            &|x| knitted_straight_distance(x, s, target + 2),
            &mut out,
        );
    }
    out
}

#[inline(always)]
fn mask_at_four(c: &Counts) -> u64 {
    let mut m = 0u64;
    for (i, &x) in c.iter().enumerate() {
        m |= u64::from(x >= 4) << i;
    }
    m
}

/// Waits of a `3n+1` hand as a 34-bit mask: kinds that complete it. Kinds with `seen[k] ≥ 4`
/// (all copies in sight: own standing tiles and melds, plus any visible tiles) are dropped.
pub fn waits_mask(
    c: &Counts,
    wildcards: u8,
    melds: usize,
    shapes: Shapes,
    seen: Option<&Counts>,
) -> Result<u64> {
    check_counts(c)?;
    let plan = Plan::new(c, wildcards, melds)?;
    plan.check_fits(shapes)?;
    if plan.complete {
        return Err(Error::hand(
            "waits needs a waiting hand (3n+1 tiles); this one has 3n+2 (use discard options)",
        ));
    }
    Ok(waits_planned(c, wildcards, plan.sets, shapes, seen))
}

/// Waits of a `3n+1` hand as tiles in canonical order (see [`waits_mask`]).
pub fn waits(
    c: &Counts,
    wildcards: u8,
    melds: usize,
    shapes: Shapes,
    seen: Option<&Counts>,
) -> Result<Vec<Tile>> {
    Ok(mask_tiles(waits_mask(c, wildcards, melds, shapes, seen)?).collect())
}

/// [`waits_mask`] without validation.
pub fn waits_planned(
    c: &Counts,
    wildcards: u8,
    sets: u8,
    shapes: Shapes,
    seen: Option<&Counts>,
) -> u64 {
    let mut m = if wildcards == 0 {
        let mut m = if shapes.standard {
            standard_waits_exact(c)
        } else {
            0
        };
        let mut s = shapes;
        s.standard = false;
        if s.seven_pairs || s.thirteen_orphans || s.honors_knitted || s.knitted_straight {
            m |= improving(c, 0, sets, s, 0);
        }
        m
    } else {
        if min_distance(c, sets, shapes) > wildcards + 1 {
            return 0;
        }
        improving(c, wildcards, sets, shapes, wildcards)
    };
    if let Some(seen) = seen {
        m &= !exhausted(seen);
    }
    m
}

/// Wildcard-free standard waits of a `3n+1` hand from the exact-decomposition flags: after the
/// added tile every group must decompose exactly, with one pair in all. So either one group holds
/// `3k+1` tiles (the tile goes there and makes the pair) and the others `3k`, or two groups hold
/// `3k+2` (the tile completes one of them, the other keeps the pair).
fn standard_waits_exact(c: &Counts) -> u64 {
    let t = tables();
    let mut n = [0u32; 4];
    for g in 0..3 {
        n[g] = c[9 * g..9 * g + 9].iter().map(|&x| u32::from(x)).sum();
    }
    n[3] = c[27..34].iter().map(|&x| u32::from(x)).sum();
    let (mut ones, mut twos) = (0u32, 0u32);
    let (mut one_g, mut two_g) = (0usize, [0usize; 2]);
    for g in 0..4 {
        match n[g] % 3 {
            1 => {
                one_g = g;
                ones += 1;
            }
            2 => {
                if twos < 2 {
                    two_g[twos as usize] = g;
                }
                twos += 1;
            }
            _ => {}
        }
    }
    // Exactness of an unchanged group (its residue says whether it holds the pair).
    let exact = |g: usize| -> bool {
        if n[g] == 0 {
            return true;
        }
        if g == 3 {
            let mut pairs = 0;
            for &x in &c[27..34] {
                match x {
                    0 | 3 => {}
                    2 => pairs += 1,
                    _ => return false,
                }
            }
            return pairs == u32::from(n[3] % 3 == 2);
        }
        let need = if n[g] % 3 == 0 { 1 } else { 2 };
        tables::flags5(t, tables::index5(&c[9 * g..9 * g + 9])) & need != 0
    };
    let mut targets = [usize::MAX; 2];
    if ones == 1 && twos == 0 {
        targets[0] = one_g;
    } else if ones == 0 && twos == 2 {
        targets = two_g;
    } else {
        return 0;
    }
    let mask = presence(c);
    let mut out = 0u64;
    for &g in &targets {
        if g == usize::MAX || !(0..4).filter(|&o| o != g).all(exact) {
            continue;
        }
        if g == 3 {
            // The honour group after the tile: counts in {0, 3} and one 2 iff it keeps the pair.
            let want_pair = (n[3] + 1) % 3 == 2;
            for k in 27..34 {
                if c[k] == 0 || c[k] >= 4 {
                    continue;
                }
                let mut pairs = 0;
                let ok = (27..34).all(|j| {
                    let x = c[j] + u8::from(j == k);
                    pairs += u32::from(x == 2);
                    matches!(x, 0 | 2 | 3)
                });
                if ok && pairs == u32::from(want_pair) {
                    out |= 1 << k;
                }
            }
            continue;
        }
        let need = if (n[g] + 1) % 3 == 0 { 1 } else { 2 };
        let v = &c[9 * g..9 * g + 9];
        let base = tables::index5(v);
        for r in 0..9 {
            let k = 9 * g + r;
            if v[r] >= 4 || !near(mask, k) {
                continue;
            }
            if tables::flags5(t, base + tables::POW5[r]) & need != 0 {
                out |= 1 << k;
            }
        }
    }
    out
}

/// Kinds of which all four copies are seen.
#[inline]
pub fn exhausted(seen: &Counts) -> u64 {
    let mut m = 0u64;
    for (i, &x) in seen.iter().enumerate() {
        m |= u64::from(x >= 4) << i;
    }
    m
}

/// Tiles of a mask in canonical order.
pub fn mask_tiles(mask: u64) -> impl Iterator<Item = Tile> {
    (0..N_KINDS as u8)
        .filter(move |&i| mask >> i & 1 == 1)
        .map(Tile::new_unchecked)
}

/// A tile that lowers shanten and how many copies of it are unseen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Useful {
    pub tile: Tile,
    pub remaining: u8,
}

/// Useful tiles of a `3n+1` hand: kinds whose draw lowers the shanten, with their unseen copies
/// (`4 − seen`); kinds with no unseen copy are dropped. `seen` defaults to the standing tiles.
pub fn useful_tiles(
    c: &Counts,
    wildcards: u8,
    melds: usize,
    shapes: Shapes,
    seen: Option<&Counts>,
) -> Result<(i8, Vec<Useful>)> {
    check_counts(c)?;
    let plan = Plan::new(c, wildcards, melds)?;
    plan.check_fits(shapes)?;
    if plan.complete {
        return Err(Error::hand(
            "useful tiles need a waiting hand (3n+1 tiles); this one has 3n+2 (use discard options)",
        ));
    }
    Ok(useful_planned(
        c,
        wildcards,
        plan.sets,
        shapes,
        seen.unwrap_or(c),
    ))
}

fn useful_planned(
    c: &Counts,
    wildcards: u8,
    sets: u8,
    shapes: Shapes,
    seen: &Counts,
) -> (i8, Vec<Useful>) {
    let d = min_distance(c, sets, shapes);
    let mask = improving(c, wildcards, sets, shapes, d - 1) & !exhausted(seen);
    let list = mask_tiles(mask)
        .map(|tile| Useful {
            tile,
            remaining: 4 - seen[tile.idx()],
        })
        .collect();
    (shanten_of(d, wildcards), list)
}

/// One discard of a `3n+2` hand and what it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscardOption {
    pub tile: Tile,
    /// Shanten after the discard.
    pub shanten: i8,
    /// Useful tiles after the discard.
    pub useful: Vec<Useful>,
    /// Sum of `useful[..].remaining`.
    pub total: u32,
}

/// Every distinct discard of a `3n+2` hand (real tiles only; wildcards are kept), best first:
/// lowest shanten, then most unseen useful tiles, then most useful kinds, then tile order.
pub fn discard_options(
    c: &Counts,
    wildcards: u8,
    melds: usize,
    shapes: Shapes,
    seen: Option<&Counts>,
) -> Result<Vec<DiscardOption>> {
    check_counts(c)?;
    let plan = Plan::new(c, wildcards, melds)?;
    plan.check_fits(shapes)?;
    if !plan.complete {
        return Err(Error::hand(
            "discard options need a 3n+2 hand (a tile just drawn); this one is waiting",
        ));
    }
    let seen = seen.unwrap_or(c);
    let mut out = Vec::new();
    let mut w = *c;
    for k in 0..N_KINDS {
        if c[k] == 0 {
            continue;
        }
        w[k] -= 1;
        let (shanten, useful) = useful_planned(&w, wildcards, plan.sets, shapes, seen);
        let total = useful.iter().map(|u| u32::from(u.remaining)).sum();
        out.push(DiscardOption {
            tile: Tile::new_unchecked(k as u8),
            shanten,
            useful,
            total,
        });
        w[k] += 1;
    }
    out.sort_by(|a, b| {
        a.shanten
            .cmp(&b.shanten)
            .then(b.total.cmp(&a.total))
            .then(b.useful.len().cmp(&a.useful.len()))
            .then(a.tile.cmp(&b.tile))
    });
    Ok(out)
}

/// Prefetch the table entries a standard-distance computation of `c` will read (batch kernels).
#[inline(always)]
pub fn prefetch_standard(c: &Counts) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let t = tables();
        for g in 0..3 {
            // Rows are not validated yet: clamp so the rank tables are indexed in range.
            let mut v = [0u8; 9];
            for (d, &x) in v.iter_mut().zip(&c[9 * g..9 * g + 9]) {
                *d = x.min(4);
            }
            let b5 = |x: &[u8]| x.iter().rev().fold(0, |a, &d| 5 * a + d as usize);
            let s_hi = v[4..].iter().map(|&d| d as usize).sum();
            let r = tables::hot_rank(t, b5(&v[..4]), b5(&v[4..]), s_hi);
            let p = t.hot_class.as_ptr().wrapping_add(r) as *const i8;
            // SAFETY: prefetching never dereferences; any address is allowed.
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = c;
}

/// Validated batch rows: the plan of a row of counts (each ≤ 4 is checked) without melds, or
/// `None` when the row is not a valid hand.
#[inline(always)]
pub fn row_plan(row: &Counts, wildcards: u8) -> Option<Plan> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    let mut word = [0u8; 40];
    word[..34].copy_from_slice(row);
    let mut big = 0u64;
    let mut sum = 0u32;
    for k in 0..5 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&word[8 * k..8 * k + 8]);
        let w = u64::from_le_bytes(b);
        // A byte ≥ 5 sets its high bit in (w + 123) | w (no carry: bytes < 133 or high bit set).
        big |= (w.wrapping_add(ONES * 123) | w) & HIGH;
        if big == 0 {
            sum += byte_sum(w) as u32;
        }
    }
    let n = sum + u32::from(wildcards);
    if big != 0 || wildcards > MAX_WILDCARDS || n > 14 || n % 3 == 0 {
        return None;
    }
    let complete = n % 3 == 2;
    Some(Plan {
        sets: ((n - if complete { 2 } else { 1 }) / 3) as u8,
        complete,
    })
}

/// Batch kernel: `out[i] = f(row i, plan)` for valid rows; returns the index of the first invalid
/// row (invalid counts, or `f` returned `None`; its output is left at the default). Prefetches table lines a few rows ahead when
/// `prefetch` is set (the distance table is larger than L2).
pub fn map_rows<T: Copy>(
    rows: &[Counts],
    wildcards: u8,
    prefetch: bool,
    out: &mut [T],
    f: impl Fn(&Counts, Plan) -> Option<T>,
) -> Option<usize> {
    const AHEAD: usize = 4;
    let mut bad = None;
    if prefetch {
        for row in rows.iter().take(AHEAD) {
            prefetch_standard(row);
        }
    }
    for (i, (row, o)) in rows.iter().zip(out.iter_mut()).enumerate() {
        if prefetch && let Some(next) = rows.get(i + AHEAD) {
            prefetch_standard(next);
        }
        match row_plan(row, wildcards).and_then(|p| f(row, p)) {
            Some(v) => *o = v,
            None => {
                bad.get_or_insert(i);
            }
        }
    }
    bad
}

/// Allocation-free parse of plain compact notation (`"123m456p EE"`, tenhou `z` honours) into
/// counts. Returns `None` for anything else (brackets, `+`, flowers, Chinese, errors, more than four
/// copies): callers then fall back to the full parser, which also produces the error messages.
pub fn parse_counts_fast(text: &str) -> Option<Counts> {
    const Z: [usize; 7] = [27, 28, 29, 30, 33, 32, 31];
    let b = text.as_bytes();
    let mut c = [0u8; N_KINDS];
    let mut run_start = usize::MAX;
    for (i, &x) in b.iter().enumerate() {
        match x {
            b'1'..=b'9' => {
                if run_start == usize::MAX {
                    run_start = i;
                }
            }
            b'm' | b'p' | b's' | b'z' => {
                if run_start == usize::MAX {
                    return None;
                }
                for &d in &b[run_start..i] {
                    let r = (d - b'1') as usize;
                    let k = match x {
                        b'm' => r,
                        b'p' => 9 + r,
                        b's' => 18 + r,
                        _ => *Z.get(r)?,
                    };
                    c[k] += 1;
                    if c[k] > 4 {
                        return None;
                    }
                }
                run_start = usize::MAX;
            }
            b'E' | b'S' | b'W' | b'N' | b'C' | b'F' | b'P' => {
                if run_start != usize::MAX {
                    return None;
                }
                let k = 27 + b"ESWNCFP".iter().position(|&h| h == x)?;
                c[k] += 1;
                if c[k] > 4 {
                    return None;
                }
            }
            b' ' | b',' | b'\t' => {
                if run_start != usize::MAX {
                    return None;
                }
            }
            _ => return None,
        }
    }
    (run_start == usize::MAX).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse_tiles, to_counts};

    /// 全不靠 needs 14 distinct kinds: quads on knitted ranks are not singles (a hypothesis case:
    /// 3333s 6666s 9999s E 1m was read as 全不靠).
    #[test]
    fn quads_are_not_honors_knitted() {
        let c = to_counts(&parse_tiles("333366669999sE1m").unwrap()).unwrap();
        assert!(!is_winning(&c, 0, 0, Shapes::ALL).unwrap());
        let ok = to_counts(&parse_tiles("147m258p369sESWNC").unwrap()).unwrap();
        assert!(is_winning(&ok, 0, 0, Shapes::ALL).unwrap());
    }

    fn counts(s: &str) -> Counts {
        to_counts(&parse_tiles(s).unwrap()).unwrap()
    }

    #[test]
    fn basic_wins() {
        let all = Shapes::ALL;
        assert!(is_winning(&counts("123m456p789sEEECC"), 0, 0, all).unwrap());
        assert!(!is_winning(&counts("123m456p789sEEECF"), 0, 0, all).unwrap());
        assert!(is_winning(&counts("19m19p19sESWNCFPP"), 0, 0, all).unwrap());
        assert!(is_winning(&counts("147m258p369sESWNC"), 0, 0, all).unwrap());
        assert!(is_winning(&counts("147m258p369s234sEE"), 0, 0, all).unwrap());
        assert!(is_winning(&counts("1122m3344p5566sEE"), 0, 0, all).unwrap());
        assert!(!is_winning(&counts("1122m3344p5566sEE"), 0, 0, Shapes::STANDARD).unwrap());
        // wildcards
        assert!(is_winning(&counts("123m456p789sEEEC"), 1, 0, all).unwrap());
        assert!(is_winning(&counts("13m456p789sEEECC"), 1, 0, Shapes::STANDARD).unwrap());
        assert!(is_winning(&counts("EEEE"), 1, 3, Shapes::STANDARD).unwrap());
        // implied melds
        assert!(is_winning(&counts("123m55p"), 0, 0, all).unwrap());
        assert!(!is_winning(&counts("123m5p"), 0, 0, all).unwrap());
    }

    #[test]
    fn shanten_values() {
        let all = Shapes::ALL;
        assert_eq!(shanten(&counts("123m456p789sEEEC"), 0, 0, all).unwrap(), 0);
        assert_eq!(
            shanten(&counts("123m456p789sEEECC"), 0, 0, all).unwrap(),
            -1
        );
        assert_eq!(shanten(&counts("1m19p19sESWNCFP2m"), 0, 0, all).unwrap(), 1);
    }

    #[test]
    fn batch_row_plan() {
        let mut c = counts("123m456p789sEEEC");
        assert_eq!(
            row_plan(&c, 0),
            Some(Plan {
                sets: 4,
                complete: false
            })
        );
        assert_eq!(
            row_plan(&c, 1),
            Some(Plan {
                sets: 4,
                complete: true
            })
        );
        assert_eq!(row_plan(&c, 2), None);
        for bad in [5u8, 7, 127, 128, 133, 200, 255] {
            for k in [0, 8, 9, 26, 33] {
                let mut d = c;
                d[k] = bad;
                assert_eq!(row_plan(&d, 0), None, "{bad} at {k}");
            }
        }
        c[33] = 4;
        c[27] = 0;
        assert!(row_plan(&c, 0).is_some());
        assert_eq!(suit_sums(&counts("1199m2p99sEEE")), [4, 1, 2]);
    }

    #[test]
    fn swar_presence() {
        let c = counts("19m19p19sESWNCFPP");
        assert_eq!(presence(&c), ORPHAN_MASK);
        assert_eq!(presence(&[4; N_KINDS]), (1 << 34) - 1);
    }

    #[test]
    fn swar_summary_matches_loop() {
        let mut next = crate::test_util::xorshift(7);
        for _ in 0..2000 {
            let mut c = [0u8; N_KINDS];
            for x in c.iter_mut() {
                *x = next(5) as u8;
            }
            let s = summary(&c);
            let (mut m1, mut m2, mut pq, mut sq) = (0u64, 0u64, 0u32, 0u32);
            for (i, &x) in c.iter().enumerate() {
                m1 |= u64::from(x >= 1) << i;
                m2 |= u64::from(x >= 2) << i;
                pq += u32::from(x / 2);
                sq += u32::from(x % 2);
            }
            assert_eq!((s.m1, s.m2), (m1, m2), "{c:?}");
            assert_eq!(presence(&c), m1);
            assert_eq!((u32::from(s.pairs_q), u32::from(s.singles_q)), (pq, sq));
        }
    }

    #[test]
    fn fast_parse() {
        assert_eq!(
            parse_counts_fast("123m456p789sEEECC"),
            Some(counts("123m456p789sEEECC"))
        );
        assert_eq!(
            parse_counts_fast("1234567z 11m"),
            Some(counts("ESWNPFC11m"))
        );
        for s in [
            "0m", "123", "[EEE]1m", "f1", "11111m", "一万", "1m+2m", "8z",
        ] {
            assert_eq!(parse_counts_fast(s), None, "{s}");
        }
    }

    #[test]
    fn waits_list() {
        let w = waits(&counts("123m456p789sEEEC"), 0, 0, Shapes::ALL, None).unwrap();
        assert_eq!(w, vec![Tile::C]);
        assert!(waits(&counts("123m456p789sEEECC"), 0, 0, Shapes::ALL, None).is_err());
    }

    #[test]
    fn waits_values() {
        let m = waits_mask(&counts("1112345678999m"), 0, 0, Shapes::ALL, None).unwrap();
        assert_eq!(m, 0x1FF);
        let m = waits_mask(&counts("19m19p19sESWNCFP"), 0, 0, Shapes::ALL, None).unwrap();
        assert_eq!(m, ORPHAN_MASK);
    }
}
