//! Fused batch kernels: one pass over a row of 34 counts validates it and answers.
//!
//! A row is read as five little-endian words (8 counts each, SWAR) and three unaligned suit words;
//! validation (every count ≤ 4, the tile count) and the answer share those loads. Every kernel
//! returns `None` for a row that is not a valid hand (the caller reports the first such row), and
//! equals the single-call functions of [`crate::analysis`] on valid rows (property tests in
//! `tests/analysis_core.rs` compare them on random rows).

use crate::analysis::{self, MAX_WILDCARDS, Plan};
use crate::decompose::{KNITTED_PERMUTATIONS, Shapes, knitted_tiles};
use crate::tables::{self, Tables};
use crate::tile::Counts;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = ONES * 0x80;

/// Where a row's counts are read from: a `Counts` array, or (in the bindings) memory that another
/// thread may write meanwhile, read with volatile loads. Every kernel uses one read of each count,
/// into the words of a [`Row`] (or the vectors of the batch win check, whose loads overlap but
/// whose overlapping lanes are cleared), and validates those values; it never reads the source
/// again.
pub trait RowSource {
    /// Eight counts from `at` as a little-endian word (`at + 8 ≤ 34`).
    fn word(&self, at: usize) -> u64;
    /// The count at `at`.
    fn byte(&self, at: usize) -> u8;
    /// Sixteen counts from `at` as one vector, lane `i` = count `at + i` (`at + 16 ≤ 34`); by
    /// default from two words (a source in memory overrides it with one unaligned load).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn vec16(&self, at: usize) -> std::arch::x86_64::__m128i {
        let (lo, hi) = (self.word(at), self.word(at + 8));
        #[allow(unused_unsafe)]
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            std::arch::x86_64::_mm_set_epi64x(hi as i64, lo as i64)
        }
    }
}

impl<T: RowSource + ?Sized> RowSource for &T {
    #[inline(always)]
    fn word(&self, at: usize) -> u64 {
        (**self).word(at)
    }
    #[inline(always)]
    fn byte(&self, at: usize) -> u8 {
        (**self).byte(at)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn vec16(&self, at: usize) -> std::arch::x86_64::__m128i {
        (**self).vec16(at)
    }
}

impl RowSource for Counts {
    #[inline(always)]
    fn word(&self, at: usize) -> u64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&self[at..at + 8]);
        u64::from_le_bytes(b)
    }
    #[inline(always)]
    fn byte(&self, at: usize) -> u8 {
        self[at]
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn vec16(&self, at: usize) -> std::arch::x86_64::__m128i {
        let b: &[u8; 16] = self[at..at + 16].try_into().expect("16 counts");
        // SAFETY: `b` is 16 readable bytes, and an unaligned load needs no alignment.
        unsafe { std::arch::x86_64::_mm_loadu_si128(b.as_ptr().cast()) }
    }
}

/// Sum of the 8 bytes of `x` (the sum must stay below 256).
#[inline(always)]
const fn byte_sum(x: u64) -> u64 {
    x.wrapping_mul(ONES) >> 56
}

/// Pack the low bit of each byte of `x` (bytes 0 or 1) into 8 bits, byte 0 → bit 0.
#[inline(always)]
const fn pack_bits(x: u64) -> u64 {
    x.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// What the distance kernels need of the three suits: the base-5 indices of ranks 1-4 (`lo`,
/// < 625) and ranks 5-9 (`hi`, < 3125); the suit's base-5 index is `lo + 625 hi`.
struct Suits {
    lo: [usize; 3],
    hi: [usize; 3],
}

impl Suits {
    #[inline(always)]
    fn index5(&self, g: usize) -> usize {
        self.lo[g] + 625 * self.hi[g]
    }
}

#[inline(always)]
fn suits(r: &Row) -> Suits {
    let x = split5::<1, 1>(r.s);
    let nine = |g: u64| 625 * (r.nines >> (8 * g) & 0xFF) as usize;
    Suits {
        lo: x.map(|(lo, _)| lo as usize),
        hi: [
            x[0].1 as usize + nine(0),
            x[1].1 as usize + nine(1),
            x[2].1 as usize + nine(2),
        ],
    }
}

/// For each suit word (ranks 1-8), `LO` times the base-5 index `Σ c_i 5^i` of ranks 1-4 and `HI`
/// times that of ranks 5-8 (`Σ c_i 5^(i-4)`), all three suits at once: counts widened to 16 bits,
/// `pmaddwd` with 1 5 25 125, packed back, `pmaddwd` with `LO LO HI HI` (every count ≤ 4).
#[inline(always)]
fn split5<const LO: i16, const HI: i16>(s: [u64; 3]) -> [(u32, u32); 3] {
    // The intrinsics inline here rather than through a `#[target_feature]` function, which the
    // bindings' crate does not inline (a call per row).
    #[cfg(target_arch = "x86_64")]
    #[allow(unused_unsafe)]
    // SAFETY: SSE2 is part of the x86_64 baseline, so the intrinsics' target feature is present.
    unsafe {
        use std::arch::x86_64::*;
        let z = _mm_setzero_si128();
        let w1 = _mm_setr_epi16(1, 5, 25, 125, 1, 5, 25, 125);
        let w2 = _mm_setr_epi16(LO, LO, HI, HI, LO, LO, HI, HI);
        // built from the words in registers (a 16-byte load of two separate 8-byte stores would
        // stall)
        let ab = _mm_unpacklo_epi64(
            _mm_cvtsi64_si128(s[0] as i64),
            _mm_cvtsi64_si128(s[1] as i64),
        );
        let c = _mm_cvtsi64_si128(s[2] as i64);
        let a4 = _mm_madd_epi16(_mm_unpacklo_epi8(ab, z), w1);
        let b4 = _mm_madd_epi16(_mm_unpackhi_epi8(ab, z), w1);
        let c4 = _mm_madd_epi16(_mm_unpacklo_epi8(c, z), w1);
        // each lane ≤ 4·(25 + 125) = 600: the signed 16-bit pack is exact
        let ab2 = _mm_madd_epi16(_mm_packs_epi32(a4, b4), w2); // lo a, hi a, lo b, hi b
        let c2 = _mm_madd_epi16(_mm_packs_epi32(c4, c4), w2);
        let pair = |x: i64| (x as u32, (x as u64 >> 32) as u32);
        [
            pair(_mm_cvtsi128_si64(ab2)),
            pair(_mm_cvtsi128_si64(_mm_unpackhi_epi64(ab2, ab2))),
            pair(_mm_cvtsi128_si64(c2)),
        ]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        s.map(|w| {
            let p = (w & 0x00FF_00FF_00FF_00FF) + 5 * (w >> 8 & 0x00FF_00FF_00FF_00FF);
            let q = (p & 0x0000_FFFF_0000_FFFF) + 25 * (p >> 16 & 0x0000_FFFF_0000_FFFF);
            (
                (q & 0xFFFF_FFFF) as u32 * LO as u32,
                (q >> 32) as u32 * HI as u32,
            )
        })
    }
}

/// Wildcard-free standard win check of a row's words: the suits' codes ([`tables::win_code`]: 0
/// sets only, 2 sets and a pair, 3 neither) and per honour kind `(5c + 1) & 6` (0 for 0 or 3
/// copies, 2 for a pair, 6 or 4 for 1 or 4 copies). All codes ≥ 0 and every bad one > 2: a sum
/// of 2 is exactly one pair and nothing bad. `n9` holds the rank-9 counts; every count ≤ 4 and at
/// most 14 tiles.
#[inline(always)]
fn standard_win(w: WinTables<'_>, s: [u64; 3], n9: [u64; 3], h: u64) -> bool {
    suit_codes(w, s, n9, false).0 + honour_codes(h) == 2
}

/// The honours' part of [`standard_win`]: the sum over the honour counts (bytes of `h`) of
/// `(5c + 1) & 6`.
#[inline(always)]
fn honour_codes(h: u64) -> u32 {
    byte_sum((h.wrapping_mul(5) + ONES) & (ONES * 6)) as u32
}

/// What a row is made of: the suit words, the word of counts 26..34 and the packed nines.
type Words = ([u64; 3], u64, u64);

/// A row read once: the three suits (eight counts each, the ninth counts packed in `nines`) and
/// the seven honours, as SWAR words.
#[derive(Clone, Copy)]
pub struct Row {
    s: [u64; 3],
    /// Counts 26..34 (the last count of the third suit, then the honours).
    w26: u64,
    /// Counts of rank 9 of each suit (bytes 0, 1, 2).
    nines: u64,
    /// Honour counts (bytes 0..7).
    h: u64,
    /// The bitwise OR of all the words: bit 0 of a byte = some count is odd, bit 1 = some count is
    /// 2 or 3, bit 2 = some count is 4.
    any: u64,
    /// Tile count.
    n: u32,
}

impl Row {
    /// Read a row; `None` when a count exceeds four.
    #[inline(always)]
    pub fn load<R: RowSource + ?Sized>(src: &R) -> Option<Row> {
        let s = [src.word(0), src.word(9), src.word(18)];
        let w26 = src.word(26);
        let nines = u64::from(src.byte(8)) | u64::from(src.byte(17)) << 8 | (w26 & 0xFF) << 16;
        let h = w26 >> 8;
        let any = s[0] | s[1] | s[2] | nines | h;
        // A byte ≥ 5 sets its high bit in (w + 123) | w (a carry only reaches a byte after a big
        // one). The OR of the words has a byte ≥ 5 whenever a count does (and sometimes when none
        // does: 1 | 4): only then are the words checked one by one.
        let big = |x: u64| (x.wrapping_add(ONES * 123) | x) & HIGH;
        if big(any) != 0 && [s[0], s[1], s[2], nines, h].iter().any(|&x| big(x) != 0) {
            return None;
        }
        let n = byte_sum(s[0] + s[1] + s[2] + nines + h) as u32;
        Some(Row {
            s,
            w26,
            nines,
            h,
            any,
            n,
        })
    }

    /// The row of its words (see [`Words`]).
    #[inline(always)]
    fn from_words((s, w26, nines): Words) -> Row {
        let h = w26 >> 8;
        Row {
            s,
            w26,
            nines,
            h,
            any: s[0] | s[1] | s[2] | nines | h,
            n: byte_sum(s[0] + s[1] + s[2] + nines + h) as u32,
        }
    }

    /// A row of counts already known to be at most four each.
    #[inline(always)]
    pub fn of(c: &Counts) -> Row {
        let s = [c.word(0), c.word(9), c.word(18)];
        let w26 = c.word(26);
        let nines = u64::from(c[8]) | u64::from(c[17]) << 8 | (w26 & 0xFF) << 16;
        let h = w26 >> 8;
        debug_assert!(c.iter().all(|&x| x <= 4));
        Row {
            s,
            w26,
            nines,
            h,
            any: s[0] | s[1] | s[2] | nines | h,
            n: byte_sum(s[0] + s[1] + s[2] + nines + h) as u32,
        }
    }

    /// Histogram key of the honours ([`tables::honor_key`]): kinds held once, twice, three and four
    /// times, 3 bits each.
    #[inline(always)]
    fn honor_key(&self) -> usize {
        let h = self.h;
        let (b0, b1, b2) = (h & ONES, h >> 1 & ONES, h >> 2 & ONES);
        let (once, twice, thrice) = (b0 & !b1, b1 & !b0, b0 & b1);
        // per byte ≤ 9, so each byte sum stays below 64
        let low = byte_sum(once | twice << 3);
        let high = byte_sum(thrice | b2 << 3);
        (low + 64 * high) as usize
    }

    /// Key of the honours by the bits of their counts ([`tables::honor_bits_key`]): per byte
    /// (count `c` ≤ 4), `21 c` has bit 0 of `c` at bit 0 and bit 1 at bit 3 (the three shifted copies
    /// never carry into those bits); the kinds held three times have bits 0 and 1, four times bit 2.
    #[inline(always)]
    fn honor_bits_key(&self) -> usize {
        let h = self.h;
        let low = h.wrapping_mul(21) & (ONES * 9);
        let high = (h & h >> 1 & ONES) | (h << 1 & (ONES * 8));
        // per byte ≤ 9 and ≤ 8: each byte sum stays below 64
        (byte_sum(low) + 64 * byte_sum(high)) as usize
    }

    /// The counts (for the kernels' slower paths).
    #[inline]
    pub fn counts(&self) -> Counts {
        let mut c = [0u8; 34];
        c[0..8].copy_from_slice(&self.s[0].to_le_bytes());
        c[8] = self.nines as u8;
        c[9..17].copy_from_slice(&self.s[1].to_le_bytes());
        c[17] = (self.nines >> 8) as u8;
        c[18..26].copy_from_slice(&self.s[2].to_le_bytes());
        c[26..34].copy_from_slice(&self.w26.to_le_bytes());
        c
    }

    /// Tiles in the row.
    #[inline(always)]
    pub fn tiles(&self) -> u32 {
        self.n
    }

    /// Tiles per group (m, p, s, honours).
    #[inline(always)]
    pub fn group_sizes(&self) -> [u32; 4] {
        let n = |w: u64| byte_sum(w) as u32;
        [
            n(self.s[0]) + (self.nines & 0xFF) as u32,
            n(self.s[1]) + (self.nines >> 8 & 0xFF) as u32,
            n(self.s[2]) + (self.nines >> 16 & 0xFF) as u32,
            n(self.h),
        ]
    }

    /// Base-5 index of each suit ([`tables::index5`]).
    #[inline(always)]
    pub fn suit_index5(&self) -> [usize; 3] {
        let su = suits(self);
        [su.index5(0), su.index5(1), su.index5(2)]
    }

    /// Sum-first rank of each suit ([`tables::hot_rank_of`]; at most 14 tiles in a suit).
    #[inline(always)]
    pub fn suit_hot_ranks(&self, t: &Tables) -> [usize; 3] {
        let su = suits(self);
        std::array::from_fn(|g| tables::hot_rank_of(t, su.lo[g], su.hi[g]))
    }

    /// Kinds held (bit k for count k > 0).
    #[inline(always)]
    pub fn kinds_held(&self) -> u64 {
        self.presence()
    }

    /// Some count is odd / at least 2 / 4.
    #[inline(always)]
    pub fn any_odd(&self) -> bool {
        self.any & ONES != 0
    }
    #[inline(always)]
    pub fn any_doubled(&self) -> bool {
        self.any >> 1 & ONES != 0 || self.any >> 2 & ONES != 0
    }
    #[inline(always)]
    pub fn any_quad(&self) -> bool {
        self.any >> 2 & ONES != 0
    }

    /// The honours held three times, held twice, and held once or four times (which no set or pair
    /// of a standard reading uses up), as 7-bit masks (bit k for honour k).
    #[inline(always)]
    pub fn honour_split(&self) -> [u64; 3] {
        let h = self.h;
        let (b0, b1, b2) = (h & ONES, h >> 1 & ONES, h >> 2 & ONES);
        [
            pack_bits(b0 & b1),
            pack_bits(b1 & !b0),
            pack_bits((b0 & !b1) | b2),
        ]
    }

    /// Each suit holds one of its 147, 258, 369 whole (some copy of each of the three ranks), as
    /// `kinds_held` would say, without building the whole mask: the suits' kinds held packed into
    /// one word (bit `g` of byte `i` = suit `g` holds rank `i + 1`, the nines at byte 8 read as
    /// byte 2 of the ranks-7-up word), then each suit's bit in one of bytes 0..3.
    #[inline(always)]
    pub fn knitted_suits(&self) -> bool {
        // a count (at most 4) plus 0x7F sets its byte's high bit iff it is not 0, carrying no
        // further
        let held = |x: u64| x.wrapping_add(ONES * 0x7F) & HIGH;
        let nz = |x: u64| held(x) >> 7;
        let p = held(self.s[0]) >> 7 | held(self.s[1]) >> 6 | held(self.s[2]) >> 5;
        // the nines (bit 0 of bytes 0, 1, 2) as bits 16, 17, 18: the three products' bits meet
        // nowhere else in bits 16..19
        let n9 = nz(self.nines).wrapping_mul(1 << 16 | 1 << 9 | 1 << 2) & 0x7_0000;
        let w = p & p >> 24 & (p >> 48 | n9);
        (w | w >> 8 | w >> 16) & 7 == 7
    }

    /// Only ranks 1 and 9 of the suits are held (the honours not looked at).
    #[inline(always)]
    pub fn suits_terminal_only(&self) -> bool {
        (self.s[0] | self.s[1] | self.s[2]) >> 8 == 0
    }

    /// Kinds held at least twice.
    #[inline(always)]
    pub fn kinds_doubled(&self) -> u64 {
        let two = |x: u64| pack_bits((x >> 1 | x >> 2) & ONES);
        let n9 = two(self.nines);
        two(self.s[0])
            | (n9 & 1) << 8
            | two(self.s[1]) << 9
            | (n9 >> 1 & 1) << 17
            | two(self.s[2]) << 18
            | (n9 >> 2 & 1) << 26
            | two(self.h) << 27
    }

    /// Kinds held four times.
    #[inline(always)]
    pub fn kinds_at_four(&self) -> u64 {
        let four = |x: u64| pack_bits(x >> 2 & ONES);
        let n9 = four(self.nines);
        four(self.s[0])
            | (n9 & 1) << 8
            | four(self.s[1]) << 9
            | (n9 >> 1 & 1) << 17
            | four(self.s[2]) << 18
            | (n9 >> 2 & 1) << 26
            | four(self.h) << 27
    }

    /// Kinds held (bit k for count k > 0).
    #[inline(always)]
    fn presence(&self) -> u64 {
        let nz = |x: u64| pack_bits((x | x >> 1 | x >> 2) & ONES);
        let n9 = nz(self.nines);
        nz(self.s[0])
            | (n9 & 1) << 8
            | nz(self.s[1]) << 9
            | (n9 >> 1 & 1) << 17
            | nz(self.s[2]) << 18
            | (n9 >> 2 & 1) << 26
            | nz(self.h) << 27
    }
}

/// The plan of a row of `n` tiles plus `wildcards` (no melds), `None` when invalid.
#[inline(always)]
fn plan_of(n: u32, wildcards: u8) -> Option<Plan> {
    let n = n + u32::from(wildcards);
    let e = PLAN_BY_COUNT[(n as usize).min(255)];
    if e == 0xFF || wildcards > MAX_WILDCARDS {
        return None;
    }
    Some(Plan {
        sets: e & 7,
        complete: e & 8 != 0,
    })
}

const ORPHAN_MASK: u64 =
    (1 << 0) | (1 << 8) | (1 << 9) | (1 << 17) | (1 << 18) | (1 << 26) | (0x7F << 27);
const HONOR_MASK: u64 = 0x7F << 27;

/// The nine kinds of each knitted assignment as bit masks.
const KNITTED_MASKS: [u64; 6] = {
    let mut out = [0u64; 6];
    let mut k = 0;
    while k < 6 {
        let perm = KNITTED_PERMUTATIONS[k];
        let mut suit = 0;
        while suit < 3 {
            let mut step = 0;
            while step < 3 {
                out[k] |= 1 << (suit * 9 + perm[suit] as usize + 3 * step);
                step += 1;
            }
            suit += 1;
        }
        k += 1;
    }
    out
};

/// Wildcard-free win check of the special shapes, after the standard shape failed. Each shape is
/// gated by a test on the row's words that rejects almost every other hand.
#[cold]
#[inline(never)]
fn special_exact(words: Words, sets: u8, shapes: Shapes) -> bool {
    let r = &Row::from_words(words);
    let full = sets == 4;
    let (odd, pair, quad) = (
        r.any & ONES != 0,
        r.any >> 1 & ONES != 0,
        r.any >> 2 & ONES != 0,
    );
    if full && shapes.seven_pairs && !odd && (shapes.seven_pairs_quads || !quad) {
        return true;
    }
    let honors_all = (r.h | r.h >> 1 | r.h >> 2) & ONES == ONES >> 8;
    if full && shapes.thirteen_orphans && honors_all && r.presence() == ORPHAN_MASK {
        return true; // 14 tiles on exactly the 13 orphan kinds: one is doubled
    }
    if full && shapes.honors_knitted && !pair && !quad {
        // 14 distinct kinds (no kind twice: a quad's count sets the quad bit, not the pair bit):
        // the suited ones must fit one knitted assignment
        let m = r.presence();
        if KNITTED_MASKS.iter().any(|k| m & !HONOR_MASK & !k == 0) {
            return true;
        }
    }
    if sets >= 3 && shapes.knitted_straight {
        // each suit must hold ranks 147, 258 or 369: bits 8 s (offset 0), 8 s + 1 (1) of `k01`, 8 s
        // of `k2` (offset 2, rank 9 from `nines`)
        let nz = |x: u64| pack_bits((x | x >> 1 | x >> 2) & ONES);
        let held = nz(r.s[0]) | nz(r.s[1]) << 8 | nz(r.s[2]) << 16;
        let nines = (r.nines | r.nines >> 1 | r.nines >> 2) & 0x01_0101;
        let k01 = held & held >> 3 & held >> 6;
        let k2 = held >> 2 & held >> 5 & nines;
        if (k01 | k01 >> 1 | k2) & 0x01_0101 != 0x01_0101 {
            return false;
        }
        let offsets = |g: usize| (k01 >> (8 * g) & 3) | (k2 >> (8 * g) & 1) << 2;
        let (k0, k1, k2) = (offsets(0), offsets(1), offsets(2));
        for perm in KNITTED_PERMUTATIONS {
            if (k0 >> perm[0]) & (k1 >> perm[1]) & (k2 >> perm[2]) & 1 == 0 {
                continue;
            }
            let mut rest = r.counts();
            for i in knitted_tiles(perm) {
                rest[i] -= 1;
            }
            if analysis::is_standard_exact(&rest) {
                return true;
            }
        }
    }
    false
}

/// Standard-shape distances of a row (`[m]`: `m` sets and a pair, `m` = 0..=4): the suits' classes
/// by lexicographic rank, the honours' by histogram, then three small pair and final tables. The
/// slower reference of [`standard_distance`] (its tables span 800 KB, more than L2).
#[inline(always)]
pub fn standard_distances<'t>(t: &'t Tables, r: &Row) -> &'t [u8; 8] {
    let su = suits(r);
    let class = |g: usize| t.suit_class[tables::rank_of(t, su.lo[g], su.hi[g])] as usize;
    let ab = tables::ab_of(t, class(0), class(1));
    let sh = tables::sh_of(t, class(2), t.honor_class[r.honor_key()] as usize);
    tables::final_of(t, ab, sh)
}

/// The combined classes of a row's two halves (m + p, s + honours): each suit's class by its
/// sum-first rank ([`tables::hot_rank_of`]), the honours' by the bits of their counts, then the two
/// pair tables. Every table line a typical hand reads lies in about 100 KB.
#[inline(always)]
fn halves(t: &Tables, r: &Row) -> (usize, usize) {
    let su = suits(r);
    let class = |g: usize| tables::hot_class_at(t, tables::hot_rank_of(t, su.lo[g], su.hi[g]));
    let ab = tables::ab_of(t, class(0), class(1));
    let sh = tables::sh_of(t, class(2), tables::honor_class_at(t, r.honor_bits_key()));
    (ab, sh)
}

/// Standard-shape distance of a row to `sets` sets and a pair (`sets` ≤ 4); equals
/// `standard_distances(t, r)[sets]`.
#[inline(always)]
pub fn standard_distance(t: &Tables, r: &Row, sets: u8) -> u8 {
    let (ab, sh) = halves(t, r);
    tables::final_at(t, ab, sh, sets as usize)
}

/// What the special shapes' distances need, from byte sums over the row's words (no per-kind loop).
struct Specials {
    /// Kinds held, kinds held at least twice, Σ count / 2, Σ count % 2.
    distinct: u8,
    doubled: u8,
    halves: u8,
    odd: u8,
    /// Terminal and honour kinds held, and whether one of them is held twice.
    orphans: u8,
    orphan_pair: bool,
    /// Honour kinds held.
    honors: u8,
    /// `knit[s][o]`: ranks `o+1`, `o+4`, `o+7` of suit `s` held (0..=3); zero unless asked for.
    knit: [[u8; 3]; 3],
}

impl Specials {
    #[inline(always)]
    fn of(r: &Row, knitted: bool) -> Specials {
        let words = [r.s[0], r.s[1], r.s[2], r.nines, r.h];
        let nz = words.map(|w| (w | w >> 1 | w >> 2) & ONES);
        let ge2 = words.map(|w| (w >> 1 | w >> 2) & ONES);
        let sum = |x: [u64; 5]| byte_sum(x[0] + x[1] + x[2] + x[3] + x[4]) as u8;
        let knit = if knitted {
            [0, 1, 2].map(|g| {
                let t = nz[g] + (nz[g] >> 24) + (nz[g] >> 48);
                [
                    (t & 0xFF) as u8,
                    (t >> 8 & 0xFF) as u8,
                    (t >> 16 & 0xFF) as u8 + (nz[3] >> (8 * g) & 1) as u8,
                ]
            })
        } else {
            [[0; 3]; 3]
        };
        Specials {
            distinct: sum(nz),
            doubled: sum(ge2),
            halves: sum(words.map(|w| w >> 1 & (ONES * 0x7F))),
            odd: sum(words.map(|w| w & ONES)),
            orphans: ((nz[0] & 1) + (nz[1] & 1) + (nz[2] & 1) + byte_sum(nz[3] + nz[4])) as u8,
            orphan_pair: ((ge2[0] | ge2[1] | ge2[2]) & 1) | ge2[3] | ge2[4] != 0,
            honors: byte_sum(nz[4]) as u8,
            knit,
        }
    }

    /// Knitted tiles held for each assignment of [`KNITTED_PERMUTATIONS`].
    #[inline(always)]
    fn knitted_held(&self) -> [u8; 6] {
        KNITTED_PERMUTATIONS.map(|p| {
            self.knit[0][p[0] as usize] + self.knit[1][p[1] as usize] + self.knit[2][p[2] as usize]
        })
    }

    #[inline(always)]
    fn seven_pairs(&self, quads: bool) -> u8 {
        let (pairs, singles) = if quads {
            (self.halves, self.odd)
        } else {
            (self.doubled, self.distinct - self.doubled)
        };
        let p = pairs.min(7);
        (7 - p) + (7 - p).saturating_sub(singles)
    }

    #[inline(always)]
    fn thirteen_orphans(&self) -> u8 {
        14 - self.orphans - u8::from(self.orphan_pair)
    }

    #[inline(always)]
    fn honors_knitted(&self, knitted: &[u8; 6]) -> u8 {
        let best = knitted.iter().copied().max().unwrap_or(0);
        14 - (best + self.honors).min(14)
    }
}

/// The kinds a row holds as a bit mask in the order of its words (bit `8 g + r` for rank `r + 1`
/// of suit `g`, `r` < 8; bits 24..31 the honours; bit `32 + g` rank 9 of suit `g`), and its odd
/// counts (`Σ count % 2`, what 七对 leaves single when quads are two pairs).
#[inline(always)]
fn held_and_odd(r: &Row) -> (u64, u32) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unused_unsafe)]
    // SAFETY: SSE2 is part of the x86_64 baseline, so the intrinsics' target feature is present.
    unsafe {
        use std::arch::x86_64::*;
        let pair = |x: u64, y: u64| {
            _mm_unpacklo_epi64(_mm_cvtsi64_si128(x as i64), _mm_cvtsi64_si128(y as i64))
        };
        let v = [pair(r.s[0], r.s[1]), pair(r.s[2], r.h), pair(r.nines, 0)];
        let zero = _mm_setzero_si128();
        // a bit per empty kind
        let empty = v.map(|x| _mm_movemask_epi8(_mm_cmpeq_epi8(x, zero)) as u32 as u64);
        let held = !(empty[0] | empty[1] << 16 | empty[2] << 32) & 0x7_FFFF_FFFF;
        // the low bits of every count, summed per half by psadbw (each byte ≤ 3)
        let one = _mm_set1_epi8(1);
        let low = v.map(|x| _mm_and_si128(x, one));
        let sums = _mm_sad_epu8(_mm_add_epi8(_mm_add_epi8(low[0], low[1]), low[2]), zero);
        let odd = _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
        (held, odd as u32)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let b = |w: u64| pack_bits((w | w >> 1 | w >> 2) & ONES);
        let held = b(r.s[0]) | b(r.s[1]) << 8 | b(r.s[2]) << 16 | b(r.h) << 24 | b(r.nines) << 32;
        let low = |w: u64| w & ONES;
        let odd = byte_sum(low(r.s[0]) + low(r.s[1]) + low(r.s[2]) + low(r.nines) + low(r.h));
        (held, odd as u32)
    }
}

/// Bytes 0..6 of a word (the six knitted assignments of [`KNIT`]).
const LOW6: u64 = 0xFFFF_FFFF_FFFF;

/// `KNIT[g][m]`, for suit `g` holding the ranks 1-8 of the bit mask `m`: byte `k` (< 6) = the
/// tiles of knitted assignment `k` of [`KNITTED_PERMUTATIONS`] in that suit it holds, byte 6 = its
/// terminal kinds held (rank 1), byte 7 = its kinds held. The three suits' words and the
/// [`NINES`] word add up byte by byte (each sum ≤ 9) into everything the special shapes need of
/// the suits.
const KNIT: [[u64; 256]; 3] = {
    let mut out = [[0u64; 256]; 3];
    let mut g = 0;
    while g < 3 {
        let mut m = 0;
        while m < 256 {
            out[g][m] = knit_word(g, m);
            m += 1;
        }
        g += 1;
    }
    out
};

/// [`KNIT`]'s word of the rank 9 of each suit, by the 3-bit mask of the suits holding it.
const NINES: [u64; 8] = {
    let mut out = [0u64; 8];
    let mut m = 0;
    while m < 8 {
        let mut g = 0;
        while g < 3 {
            if m >> g & 1 == 1 {
                out[m] += knit_word(g, 1 << 8);
            }
            g += 1;
        }
        m += 1;
    }
    out
};

/// The [`KNIT`] word of suit `g` holding the ranks of the 9-bit mask `m`.
const fn knit_word(g: usize, m: usize) -> u64 {
    let mut out = 0;
    let mut k = 0;
    while k < 6 {
        let o = KNITTED_PERMUTATIONS[k][g] as usize;
        let ranks = (1 << o) | (1 << (o + 3)) | (1 << (o + 6));
        out |= ((m & ranks).count_ones() as u64) << (8 * k);
        k += 1;
    }
    out | ((m & 0x101).count_ones() as u64) << 48 | (m.count_ones() as u64) << 56
}

/// By the 7-bit mask of honour kinds held: their number in every byte (added to [`KNIT`]'s sum:
/// an honour kind counts in every 全不靠 assignment, as a terminal or honour and as a kind held).
const HONOURS: [u64; 128] = {
    let mut out = [0u64; 128];
    let mut m = 0;
    while m < 128 {
        out[m] = (m as u32).count_ones() as u64 * ONES;
        m += 1;
    }
    out
};

/// [`KNIT`], [`NINES`], [`HONOURS`] and [`SEVEN_PAIRS_QUADS`] in one static: one address for the
/// special shapes to load per row.
struct SpecialTables {
    knit: [[u64; 256]; 3],
    nines: [u64; 8],
    honours: [u64; 128],
    seven_pairs_quads: [u8; 256],
}

static SPECIAL: SpecialTables = SpecialTables {
    knit: KNIT,
    nines: NINES,
    honours: HONOURS,
    seven_pairs_quads: SEVEN_PAIRS_QUADS,
};

/// `UNKNIT[m]`, for a 9-bit mask `m` of ranks of a suit: what removing one tile of each rank of
/// `m` takes from the suit's indices ([`Suits`]): `lo` in bits 0..16, `hi` (rank 9 included) in
/// bits 16..32.
static UNKNIT: [u32; 512] = {
    let mut out = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let (mut lo, mut hi) = (0u32, 0u32);
        let mut r = 0;
        while r < 9 {
            if m >> r & 1 == 1 {
                if r < 4 {
                    lo += tables::POW5[r] as u32;
                } else {
                    hi += tables::POW5[r - 4] as u32;
                }
            }
            r += 1;
        }
        out[m] = lo | hi << 16;
        m += 1;
    }
    out
};

/// 七对 distance with quads as two pairs, by `16 n + odd` for a row of `n` tiles of which `odd`
/// are left single (the odd counts): `(n − odd) / 2` pairs.
const SEVEN_PAIRS_QUADS: [u8; 256] = {
    let mut out = [0u8; 256];
    let mut n = 0;
    while n < 16 {
        let mut odd = 0;
        while odd <= n {
            out[16 * n + odd] = seven_pairs_of((n - odd) / 2, odd);
            odd += 1;
        }
        n += 1;
    }
    out
};

/// 七对 distance of `pairs` pairs and `singles` other kinds held once: each missing pair takes a
/// tile on a single, or two tiles when the singles run out.
const fn seven_pairs_of(pairs: usize, singles: usize) -> u8 {
    let missing = 7 - if pairs < 7 { pairs } else { 7 };
    let short = missing.saturating_sub(singles);
    (missing + short) as u8
}

/// 七对 distance of row `r` (quads as two pairs or not), given its kinds held and odd counts
/// ([`held_and_odd`]).
#[inline(always)]
fn seven_pairs(r: &Row, quads: bool, kinds: u8, odd: u32) -> u8 {
    if quads {
        // the odd counts leave a tile single each, the others make Σ count / 2 pairs
        SPECIAL.seven_pairs_quads[(16 * r.n + odd) as usize & 0xFF]
    } else {
        // kinds held at least twice
        let two = |w: u64| (w >> 1 | w >> 2) & ONES;
        let p = byte_sum(two(r.s[0]) + two(r.s[1]) + two(r.s[2]) + two(r.nines) + two(r.h));
        seven_pairs_of(p as usize, usize::from(kinds) - p as usize)
    }
}

/// Largest byte of the six low bytes of `x`.
#[inline(always)]
fn max6(x: u64) -> u8 {
    #[cfg(target_arch = "x86_64")]
    #[allow(unused_unsafe)]
    // SAFETY: SSE2 is part of the x86_64 baseline, so the intrinsics' target feature is present.
    unsafe {
        use std::arch::x86_64::*;
        // byte i becomes the largest of bytes i..i+2, i..i+4, then i..i+8
        let v = _mm_cvtsi64_si128((x & LOW6) as i64);
        let v = _mm_max_epu8(v, _mm_srli_epi64::<8>(v));
        let v = _mm_max_epu8(v, _mm_srli_epi64::<16>(v));
        let v = _mm_max_epu8(v, _mm_srli_epi64::<32>(v));
        _mm_cvtsi128_si32(v) as u8
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let b = x.to_le_bytes();
        b[0].max(b[1]).max(b[2]).max(b[3]).max(b[4]).max(b[5])
    }
}

/// The smallest distance over the allowed forms of a row needing `sets` sets (every count ≤ 4):
/// the core of shanten (`shanten = max(0, distance − wildcards) − 1`).
///
/// The standard distance is one byte of the plane of `sets` ([`halves`]); the special shapes come
/// from the mask of kinds held ([`held_and_odd`]) and one [`KNIT`] word per suit; a 组合龙 is only
/// decomposed (out of line) for the assignments whose missing tiles leave room to beat the best
/// distance so far.
#[inline]
pub fn min_distance(t: &Tables, r: &Row, sets: u8, shapes: Shapes) -> u8 {
    distance(t, r, sets, shapes)
}

/// The body of [`min_distance`], inline in the batch kernel (where the shape options may be
/// constants: [`shanten_block`]).
#[inline(always)]
fn distance(t: &Tables, r: &Row, sets: u8, shapes: Shapes) -> u8 {
    let full = sets == 4;
    let mut best = tables::INF * 2;
    let mut rest_lb = 0;
    if shapes.standard {
        let (ab, sh) = halves(t, r);
        best = tables::final_at(t, ab, sh, sets as usize);
        if sets >= 3 && shapes.knitted_straight {
            rest_lb = tables::final_at(t, ab, sh, sets as usize - 3);
        }
    }
    let want_special =
        full && (shapes.seven_pairs || shapes.thirteen_orphans || shapes.honors_knitted);
    let want_ks = sets >= 3 && shapes.knitted_straight;
    if !want_special && !want_ks {
        return best;
    }
    special_distance(r, full, best, rest_lb, shapes, t, sets)
}

/// The special shapes' part of [`min_distance`], given the standard distance `best`.
#[inline(always)]
fn special_distance(
    r: &Row,
    full: bool,
    mut best: u8,
    rest_lb: u8,
    shapes: Shapes,
    t: &Tables,
    sets: u8,
) -> u8 {
    let (held, odd) = held_and_odd(r);
    let byte = |w: u64, b: u32| (w >> (8 * b)) as usize & 0xFF;
    let w = &SPECIAL;
    let suited = w.knit[0][byte(held, 0)]
        + w.knit[1][byte(held, 1)]
        + w.knit[2][byte(held, 2)]
        + w.nines[byte(held, 4) & 7];
    // bytes 0..6: knitted tiles plus honour kinds held (全不靠), 6: terminal and honour kinds held
    // (十三幺), 7: kinds held
    let all = suited + w.honours[byte(held, 3) & 0x7F];
    if full {
        if shapes.seven_pairs {
            best = best.min(seven_pairs(
                r,
                shapes.seven_pairs_quads,
                (all >> 56) as u8,
                odd,
            ));
        }
        if shapes.thirteen_orphans {
            // some terminal or honour held twice: the OR of their counts has bit 1 or 2
            let x = (r.s[0] | r.s[1] | r.s[2]) & 0xFF | r.nines | r.h;
            let orphans = byte(all, 6) as u8 + u8::from(x & (ONES * 6) != 0);
            best = best.min(14 - orphans);
        }
        if shapes.honors_knitted {
            best = best.min(14 - max6(all).min(14));
        }
    }
    // 组合龙: the missing knitted tiles `9 − k` plus the rest's distance to `sets − 3` sets and a
    // pair (at least `rest_lb`: removing tiles never lowers a distance), so an assignment may only
    // beat `best` when it holds k ≥ 10 + rest_lb − best knitted tiles: one byte compare for all six
    // (each byte ≤ 9, the threshold within −20..=40: no carry between bytes).
    if sets >= 3 && shapes.knitted_straight {
        let least = 10 + i32::from(rest_lb) - i32::from(best);
        let bias = (128 - least) as u64;
        let candidates = ((suited & LOW6) + ONES * bias) & HIGH & LOW6;
        if candidates != 0 {
            let words = (r.s, r.w26, r.nines);
            let knit = suited & LOW6 | candidates;
            best = knitted_straight(t, words, held, knit, best, rest_lb, sets - 3);
        }
    }
    best
}

/// 组合龙 distance (or `best` when none is lower) over the knitted assignments `k` flagged in
/// `knit` (bit 7 of byte `k`; bits 0..4 the knitted tiles held), given the kinds held: the missing
/// knitted tiles plus the standard distance to `sets` sets and a pair of what is left after one
/// copy of each held knitted tile. Each suit's indices lose the knitted ranks held ([`UNKNIT`]);
/// the honours' class is the row's.
#[cold]
#[inline(never)]
fn knitted_straight(
    t: &Tables,
    words: Words,
    held: u64,
    knit: u64,
    mut best: u8,
    rest_lb: u8,
    sets: u8,
) -> u8 {
    let r = &Row::from_words(words);
    let su = suits(r);
    let honours = tables::honor_class_at(t, r.honor_bits_key());
    let mut candidates = knit & HIGH;
    while candidates != 0 {
        let k = (candidates.trailing_zeros() / 8) as usize;
        candidates &= candidates - 1;
        let missing = 9 - (knit >> (8 * k) & 0xF) as u8;
        if missing + rest_lb >= best {
            continue;
        }
        let perm = KNITTED_PERMUTATIONS[k];
        let class = |g: usize| {
            let ranks = (held >> (8 * g) & 0xFF) | (held >> (32 + g) & 1) << 8;
            let u = UNKNIT[ranks as usize & 0o111 << perm[g]];
            let lo = su.lo[g] - (u & 0xFFFF) as usize;
            let hi = su.hi[g] - (u >> 16) as usize;
            tables::hot_class_at(t, tables::hot_rank_of(t, lo, hi))
        };
        let ab = tables::ab_of(t, class(0), class(1));
        let sh = tables::sh_of(t, class(2), honours);
        best = best.min(missing + tables::final_at(t, ab, sh, sets as usize));
    }
    best
}

/// [`min_distance`] as it was before the sum-first tables: the lexicographic suit tables
/// ([`standard_distances`]); the slow reference of the tests.
#[doc(hidden)]
pub fn min_distance_reference(t: &Tables, r: &Row, sets: u8, shapes: Shapes) -> u8 {
    let full = sets == 4;
    let mut best = tables::INF * 2;
    let mut rest_lb = 0;
    if shapes.standard {
        let f = standard_distances(t, r);
        best = f[sets as usize];
        if sets >= 3 {
            rest_lb = f[sets as usize - 3];
        }
    }
    let want_special =
        full && (shapes.seven_pairs || shapes.thirteen_orphans || shapes.honors_knitted);
    let want_ks = sets >= 3 && shapes.knitted_straight;
    if !want_special && !want_ks {
        return best;
    }
    let sp = Specials::of(r, want_ks || full && shapes.honors_knitted);
    let knitted = sp.knitted_held();
    if full {
        if shapes.seven_pairs {
            best = best.min(sp.seven_pairs(shapes.seven_pairs_quads));
        }
        if shapes.thirteen_orphans {
            best = best.min(sp.thirteen_orphans());
        }
        if shapes.honors_knitted {
            best = best.min(sp.honors_knitted(&knitted));
        }
    }
    if want_ks && best > 0 {
        // 组合龙: the missing knitted tiles plus the rest's distance to `sets − 3` sets and a pair
        // (at least `rest_lb`: removing tiles never lowers a distance).
        for (k, perm) in KNITTED_PERMUTATIONS.iter().enumerate() {
            let missing = 9 - knitted[k];
            if missing + rest_lb >= best {
                continue;
            }
            best = best.min(missing + knitted_rest_reference(t, r, *perm, sets - 3));
        }
    }
    best
}

/// Standard distance of what is left after one copy of each held knitted tile of `perm`.
fn knitted_rest_reference(t: &Tables, r: &Row, perm: [u8; 3], sets: u8) -> u8 {
    let mut rest = r.counts();
    for i in knitted_tiles(perm) {
        rest[i] = rest[i].saturating_sub(1);
    }
    standard_distances(t, &Row::of(&rest))[sets as usize]
}

/// The plan of a loaded row (no melds), `None` when the size is not a hand.
#[inline(always)]
pub fn row_plan(r: &Row, wildcards: u8) -> Option<Plan> {
    plan_of(r.n, wildcards)
}

/// Per tile count (any byte): sets needed, `| 8` when complete (3n+2); 0xFF when not a hand.
const PLAN_BY_COUNT: [u8; 256] = {
    let mut t = [0xFF; 256];
    let mut n = 0;
    while n <= 14 {
        t[n] = match n % 3 {
            1 => (n / 3) as u8,
            2 => (n / 3) as u8 | 8,
            _ => 0xFF,
        };
        n += 1;
    }
    t
};

/// A byte of `x` is at least 5: the high bit of its byte in `(x + 123) | x` (a carry only reaches
/// a byte after one that is itself big).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
const fn big(x: u64) -> u64 {
    (x.wrapping_add(ONES * 123) | x) & HIGH
}

/// Batch kernel of `is_winning` (no melds): `None` for an invalid row, else whether it is complete.
///
/// The wildcard-free path reads the row as four words and two bytes and works on them in
/// registers: validation and the tile count on whole words, each suit's code from one byte of
/// [`tables::win_code`] (ranks 5-9 name a class, ranks 1-4 pick its code), the honours by a
/// per-byte formula, and the special shapes only behind gates the same words and table lines
/// settle ([`SpecialGates`]).
#[inline(always)]
pub fn win_row<R: RowSource + ?Sized>(
    t: &Tables,
    src: &R,
    wildcards: u8,
    shapes: Shapes,
) -> Option<bool> {
    if wildcards > 0 {
        return win_row_wild(t, src, wildcards, shapes);
    }
    let (t, gates) = (WinTables::of(t), SpecialGates::of(shapes));
    // one copy per setting of the shape options, as in `win_block`
    let (k, w) = match (shapes.standard, has_special(shapes)) {
        (true, true) => win_words(t, src, true, true, gates),
        (true, false) => win_words(t, src, true, false, gates),
        (false, true) => win_words(t, src, false, true, gates),
        (false, false) => win_words(t, src, false, false, gates),
    }?;
    // the rare branch first, as in `win_block`
    if k.other && !k.yes {
        let [s0, s1, s2, w26, n8_17] = row_words(w);
        return Some(special_words(s0, s1, s2, w26, n8_17, shapes));
    }
    Some(k.yes)
}

/// [`win_row`] over many rows: `out[i]` = whether the `i`-th row of `rows` is complete (for each
/// `i < out.len()`; `rows` yields at least that many), and the index of the first invalid row
/// (whose `out` is false). The rows come as an iterator, so that a slice of them costs no bounds
/// check per row. The shape options are settled once per call; each row is read once for the
/// standard shape and the special shapes' gates, and only the rare row that passes a gate gets
/// the exact check of the special shapes (out of line).
pub fn win_block<R: RowSource, I: IntoIterator<Item = R>>(
    t: &Tables,
    rows: I,
    out: &mut [bool],
    wildcards: u8,
    shapes: Shapes,
) -> Option<usize> {
    if wildcards > 0 {
        let mut bad = None;
        for (i, (o, r)) in out.iter_mut().zip(rows).enumerate() {
            match win_row_wild(t, &r, wildcards, shapes) {
                Some(v) => *o = v,
                None => {
                    *o = false;
                    bad.get_or_insert(i);
                }
            }
        }
        return bad;
    }
    let w = WinTables::of(t);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
    {
        // SAFETY: the CPU has the features `win_loops_avx2` is compiled for (checked above).
        return unsafe { win_loops_avx2(w, rows, out, shapes) };
    }
    win_loops(w, rows, out, shapes)
}

/// [`win_loops`] compiled for AVX2 and BMI: the same vector code in three-operand (VEX) form,
/// without the register copies of two-operand SSE2 (one call per block, so the per-row code
/// inlines into it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2")]
unsafe fn win_loops_avx2<R: RowSource, I: IntoIterator<Item = R>>(
    w: WinTables<'_>,
    rows: I,
    out: &mut [bool],
    shapes: Shapes,
) -> Option<usize> {
    win_loops(w, rows, out, shapes)
}

/// The wildcard-free loops of [`win_block`], one per setting of the shape options.
#[inline(always)]
fn win_loops<R: RowSource, I: IntoIterator<Item = R>>(
    w: WinTables<'_>,
    rows: I,
    out: &mut [bool],
    shapes: Shapes,
) -> Option<usize> {
    // every shape: a copy of the loop where the gates of the special shapes are constants
    if shapes == Shapes::ALL {
        return win_loop::<R, I, true, true>(w, rows, out, Shapes::ALL);
    }
    match (shapes.standard, has_special(shapes)) {
        (true, true) => win_loop::<R, I, true, true>(w, rows, out, shapes),
        (true, false) => win_loop::<R, I, true, false>(w, rows, out, shapes),
        (false, true) => win_loop::<R, I, false, true>(w, rows, out, shapes),
        (false, false) => win_loop::<R, I, false, false>(w, rows, out, shapes),
    }
}

/// The loop of [`win_block`] for one setting of the shape options.
#[inline(always)]
fn win_loop<R: RowSource, I: IntoIterator<Item = R>, const STANDARD: bool, const SPECIAL: bool>(
    w: WinTables<'_>,
    rows: I,
    out: &mut [bool],
    shapes: Shapes,
) -> Option<usize> {
    let gates = SpecialGates::of(shapes);
    let mut bad = None;
    for (i, (o, r)) in out.iter_mut().zip(rows).enumerate() {
        let Some((k, words)) = win_words(w, &r, STANDARD, SPECIAL, gates) else {
            *o = false;
            bad.get_or_insert(i);
            continue;
        };
        *o = k.yes;
        // A gate passes on few rows: a branch the predictor gets right (taken before the one on
        // `yes`, a coin flip), to an out-of-line call.
        if SPECIAL && k.other && !k.yes {
            let [s0, s1, s2, w26, n8_17] = row_words(words);
            *o = special_words(s0, s1, s2, w26, n8_17, shapes);
        }
    }
    bad
}

/// The batch win check's tables, borrowed once per call (so that the loop keeps their addresses).
#[derive(Clone, Copy)]
struct WinTables<'t> {
    hi: &'t [[u8; 2]; tables::WIN_HI_LEN],
    lo: &'t [u8; tables::WIN_LO_LEN],
}

impl<'t> WinTables<'t> {
    #[inline(always)]
    fn of(t: &'t Tables) -> Self {
        WinTables {
            hi: &t.win_hi,
            lo: &t.win_lo,
        }
    }
}

/// Some special shape is allowed.
#[inline(always)]
fn has_special(shapes: Shapes) -> bool {
    shapes.seven_pairs
        || shapes.thirteen_orphans
        || shapes.honors_knitted
        || shapes.knitted_straight
}

/// Necessary conditions of the special shapes on a complete row that is not a standard win, each
/// a mask test that a disabled shape never passes (a complete row has some tile). They reject
/// nearly every other row, so that the exact check ([`special_exact`]) runs on few.
#[derive(Clone, Copy)]
struct SpecialGates {
    /// `any & pairs == 0`, 七对 (14 tiles): no count is odd.
    pairs: u64,
    /// `suits & orphans == 0`, 十三幺 (14 tiles): no rank 2-8 (a row of honours only passes too).
    orphans: u64,
    /// `any & distinct == 0` and every suit holds one knitted offset's ranks only, 全不靠 (14
    /// tiles): no count above one.
    distinct: u64,
    /// `knit & knitted != 0`, 组合龙: every suit holds some knitted offset (bit 3 of the suits'
    /// [`tables::knit_bits`] plus 7, ANDed).
    knitted: u32,
}

impl SpecialGates {
    #[inline(always)]
    fn of(shapes: Shapes) -> Self {
        let mask = |on: bool, m: u64| if on { m } else { u64::MAX };
        SpecialGates {
            pairs: mask(shapes.seven_pairs, ONES),
            orphans: mask(shapes.thirteen_orphans, !0xFF),
            distinct: mask(shapes.honors_knitted, ONES * 6),
            knitted: if shapes.knitted_straight { 0x08 } else { 0 },
        }
    }

    /// Whether a complete row of `n` tiles (OR of its counts `any`, of its suits' ranks 1-8
    /// `suits`, knitted facts `knit`: see [`suit_codes`]) may be of some special shape.
    #[inline(always)]
    fn pass(self, n: u64, any: u64, suits: u64, knit: u32) -> bool {
        // each zero when its shape may fit: one test of the least
        let pairs = any & self.pairs;
        let orphans = suits & self.orphans;
        let distinct = (any & self.distinct) | u64::from(!knit & 0x80);
        let full = (n ^ 14) | pairs.min(orphans).min(distinct);
        (full == 0) | (knit & self.knitted != 0)
    }
}

/// What [`win_words`] makes of a valid row.
#[derive(Clone, Copy)]
struct WinKind {
    /// A standard win.
    yes: bool,
    /// Complete and passes a gate of the special shapes (a standard win may too).
    other: bool,
}

/// The suits' part of the batch win check, from the same table lines: the sum of their codes
/// ([`tables::win_code`]) and, when `knit`, the AND of their [`tables::knit_bits`] plus 7 each
/// (bit 3: every suit holds a knitted offset, bit 7: every suit holds ranks of one offset only).
#[inline(always)]
fn suit_codes(w: WinTables<'_>, s: [u64; 3], n9: [u64; 3], knit: bool) -> (u32, u32) {
    let ix = split5::<64, 8>(s);
    // both entries of a suit at once, so that its indices are dead before the next suit's
    let suit = |g: usize| {
        let code = tables::win_code(w.hi, w.lo, ix[g].0, ix[g].1, n9[g]);
        let k = if knit {
            tables::win_knit(w.hi, w.lo, ix[g].0, ix[g].1, n9[g]) + 0x77
        } else {
            0
        };
        (code, k)
    };
    let ((c0, k0), (c1, k1), (c2, k2)) = (suit(0), suit(1), suit(2));
    (c0 + c1 + c2, k0 & k1 & k2)
}

/// The words of a row for the special shapes' exact check: suits, counts 26..34, the counts 8 and
/// 17 in bytes 0 and 1.
#[cfg(not(target_arch = "x86_64"))]
type RowWords = [u64; 5];

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn row_words(w: RowWords) -> [u64; 5] {
    w
}

/// A row as [`win_words`] loads it on x86_64: counts 0..16 in `m`, 9..25 in `p` (suits m and p in
/// lanes 0..8), counts 18..34 (suit s, then the honours) in `s`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct RowWords {
    m: std::arch::x86_64::__m128i,
    p: std::arch::x86_64::__m128i,
    s: std::arch::x86_64::__m128i,
}

/// The words of a row for the special shapes' exact check (only on the rare rows that need it):
/// suits, counts 26..34, the counts 8 and 17 in bytes 0 and 1.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn row_words(v: RowWords) -> [u64; 5] {
    use std::arch::x86_64::*;
    #[allow(unused_unsafe)]
    // SAFETY: SSE2 is part of the x86_64 baseline.
    unsafe {
        let lo = |x: __m128i| _mm_cvtsi128_si64(x) as u64;
        let hi = |x: __m128i| _mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x)) as u64;
        // lane 8 of `m` and `p`: their rank 9
        let n8_17 = (hi(v.m) & 0xFF) | (hi(v.p) & 0xFF) << 8;
        [lo(v.m), lo(v.p), lo(v.s), hi(v.s), n8_17]
    }
}

/// Per tile count as [`win_words`] computes it (at least 240 when some count exceeds four): 0 a
/// complete hand (3n+2 tiles, at most 14), 1 a hand waiting for a tile, 2 not a hand.
#[cfg(target_arch = "x86_64")]
static WIN_BY_COUNT: [u8; 4096] = {
    let mut t = [2; 4096];
    let mut n = 0;
    while n <= 14 {
        t[n] = match n % 3 {
            2 => 0,
            1 => 1,
            _ => 2,
        };
        n += 1;
    }
    t
};

/// A row read once and checked for the standard shape (when `standard`) and the gates of the
/// special shapes (when `special`): `None` when it is invalid, else what it is and its words
/// ([`RowWords`]).
///
/// The row is three overlapping 16-byte vectors, one per suit (suit s with the honours), worked on
/// in vector registers: validation, the tile count and the honours' codes on whole vectors, the
/// base-5 indices of the three suits by two multiply-adds, then each suit's code from
/// [`tables::win_code`]'s two tables (ranks 5-9 name a class, ranks 1-4 pick its code).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn win_words<R: RowSource + ?Sized>(
    w: WinTables<'_>,
    src: &R,
    standard: bool,
    special: bool,
    gates: SpecialGates,
) -> Option<(WinKind, RowWords)> {
    use std::arch::x86_64::*;
    #[allow(unused_unsafe)]
    // SAFETY: SSE2 is part of the x86_64 baseline; every table read is in bounds (see each).
    unsafe {
        let z = _mm_setzero_si128();
        // Lanes 9..15 of the first two loads are read again by the next: every lane read is
        // validated, the tile count clears them, and the suits' indices use lanes 0..8 only.
        let (m, p, s) = (src.vec16(0), src.vec16(9), src.vec16(18));
        let v = RowWords { m, p, s };
        // Every count ≤ 4: no lane of their maximum above 4 (an OR could be: 3 | 4). A lane that
        // is sets the high nibble of its lane of the tile count below, so that the count (≥ 240)
        // is not a hand: one test for both.
        let max = _mm_max_epu8(_mm_max_epu8(m, p), s);
        let ok = _mm_cmpeq_epi8(_mm_subs_epu8(max, _mm_set1_epi8(4)), z);
        let big = _mm_andnot_si128(ok, _mm_set1_epi8(0xF0u8 as i8));
        // tile count: suits m and p in lanes 0..8, then s and the honours (each lane ≤ 12, in
        // all ≤ 136 on a valid row)
        let nine = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0);
        let mp9 = _mm_and_si128(_mm_add_epi8(m, p), nine);
        let sad = _mm_sad_epu8(_mm_or_si128(_mm_add_epi8(mp9, s), big), z);
        let n = (_mm_extract_epi16::<0>(sad) + _mm_extract_epi16::<4>(sad)) as usize;
        debug_assert!(n < WIN_BY_COUNT.len());
        // SAFETY: each half of `sad` sums eight bytes: n ≤ 16 · 255 < WIN_BY_COUNT.len().
        let plan = *WIN_BY_COUNT.get_unchecked(n);
        // one test for the rare cases (a batch of hands to check is mostly valid and complete)
        if plan != 0 {
            if plan == 2 {
                return None;
            }
            let no = WinKind {
                yes: false,
                other: false,
            };
            return Some((no, v));
        }
        // Per suit, i32 lanes c1 + 5 c2, 25 c3 + 125 c4, 8 (c5 + 5 c6) + c9 (lane 8 of the load is
        // dword 2), 8 (25 c7 + 125 c8): each ≤ 4804, packed to 16 bits exactly, then summed in
        // pairs with weights 64 and 1: 64 lo and 8 hi + n9 for `win_code`.
        let w1 = _mm_setr_epi16(1, 5, 25, 125, 8, 40, 200, 1000);
        let w2 = _mm_setr_epi16(64, 64, 1, 1, 64, 64, 1, 1);
        let b8 = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0);
        let part = |x| {
            _mm_add_epi32(
                _mm_madd_epi16(_mm_unpacklo_epi8(x, z), w1),
                _mm_and_si128(x, b8),
            )
        };
        let ps = part(s);
        let mp = _mm_madd_epi16(_mm_packs_epi32(part(m), part(p)), w2);
        let sx = _mm_madd_epi16(_mm_packs_epi32(ps, ps), w2);
        let suit = |lo64: i32, hi8: i32| {
            debug_assert!((hi8 as usize) < tables::WIN_HI_LEN);
            // SAFETY: every count ≤ 4: hi8 ≤ 8·624 + 4 < WIN_HI_LEN; lo64 < 2^16 (a 16-bit lane)
            // and a class or the knitted slot < 256: inside WIN_LO_LEN.
            let e = *w.hi.get_unchecked(hi8 as usize);
            let line = w.lo.as_ptr().add(lo64 as usize);
            let code = u32::from(*line.add(usize::from(e[0])));
            let k = if special {
                u32::from(*line.add(tables::WIN_KNIT_SLOT) & e[1]) + 0x77
            } else {
                0
            };
            (code, k)
        };
        let (c0, k0) = suit(_mm_extract_epi16::<0>(mp), _mm_extract_epi16::<2>(mp));
        let (c1, k1) = suit(_mm_extract_epi16::<4>(mp), _mm_extract_epi16::<6>(mp));
        let (c2, k2) = suit(_mm_extract_epi16::<0>(sx), _mm_extract_epi16::<2>(sx));
        // the honours' codes (5c + 1) & 6 of `honour_codes`, in lanes 9..15 of `s` (5c ≤ 20)
        let s4 = _mm_add_epi8(_mm_add_epi8(s, s), _mm_add_epi8(s, s));
        let h = _mm_add_epi8(_mm_add_epi8(s4, s), _mm_set1_epi8(1));
        let six = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6, 6);
        let hon = _mm_extract_epi16::<4>(_mm_sad_epu8(_mm_and_si128(h, six), z)) as u32;
        let yes = standard && c0 + c1 + c2 + hon == 2;
        let other = special && {
            // the OR of every count folded to one word (lanes 9..15 of `m` and `p` repeat counts
            // of `p` and `s`), and of the suits' ranks 1-8 (lanes 0..7)
            let any = _mm_or_si128(_mm_or_si128(m, p), s);
            let suits = _mm_cvtsi128_si64(any) as u64;
            let all = suits | _mm_cvtsi128_si64(_mm_unpackhi_epi64(any, any)) as u64;
            gates.pass(n as u64, all, suits, k0 & k1 & k2)
        };
        Some((WinKind { yes, other }, v))
    }
}

/// A row read once and checked for the standard shape (when `standard`) and the gates of the
/// special shapes (when `special`): `None` when it is invalid, else what it is and its words
/// (suits, counts 26..34, the counts 8 and 17 in bytes 0 and 1).
///
/// The row is four words and two bytes, worked on in registers: validation and the tile count on
/// whole words, each suit's code from [`tables::win_code`] (ranks 5-9 name a class, ranks 1-4 pick
/// its code), the honours by a per-byte formula.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn win_words<R: RowSource + ?Sized>(
    w: WinTables<'_>,
    src: &R,
    standard: bool,
    special: bool,
    gates: SpecialGates,
) -> Option<(WinKind, [u64; 5])> {
    let s = [src.word(0), src.word(9), src.word(18)];
    let w26 = src.word(26);
    let (n8, n17) = (u64::from(src.byte(8)), u64::from(src.byte(17)));
    let words = [s[0], s[1], s[2], w26, n8 | n17 << 8];
    let suits = s[0] | s[1] | s[2];
    let any = n8 | n17 | w26 | suits;
    // The OR of the words has a byte ≥ 5 whenever a count does (and sometimes when none does:
    // 1 | 4): only then are the words checked one by one.
    if big(any) != 0 && big(s[0]) | big(s[1]) | big(s[2]) | big(w26) | big(n8 | n17 << 8) != 0 {
        return None;
    }
    // every byte sum ≤ 6 · 4 and the total ≤ 136: no carries
    let n = byte_sum(s[0] + s[1] + s[2] + w26 + n8 + n17);
    let plan = PLAN_BY_COUNT[n as usize];
    if plan == 0xFF {
        return None;
    }
    if plan & 8 == 0 {
        let no = WinKind {
            yes: false,
            other: false,
        };
        return Some((no, words));
    }
    // as in `standard_win`, the knitted facts beside the codes
    let (codes, knit) = suit_codes(w, s, [n8, n17, w26 & 0xFF], special);
    // Whether a complete row is a standard win is a coin flip on a typical batch: both answers
    // are computed without a branch, and the caller branches on `other` first, true on few rows
    // (then on `yes`).
    let yes = standard && codes + honour_codes(w26 >> 8) == 2;
    let other = special && gates.pass(n, any, suits, knit);
    Some((WinKind { yes, other }, words))
}

/// The exact check of the special shapes on a row's words, behind the gates of [`SpecialGates`]
/// (out of line: few rows get here).
#[cold]
#[inline(never)]
fn special_words(s0: u64, s1: u64, s2: u64, w26: u64, n8_17: u64, shapes: Shapes) -> bool {
    let sets = (byte_sum(s0 + s1 + s2 + w26 + n8_17) / 3) as u8;
    special_exact(
        ([s0, s1, s2], w26, n8_17 | (w26 & 0xFF) << 16),
        sets,
        shapes,
    )
}

/// [`win_row`] with wildcards (kept out of line: the wildcard-free loop stays in registers).
#[inline(never)]
fn win_row_wild<R: RowSource + ?Sized>(
    t: &Tables,
    src: &R,
    wildcards: u8,
    shapes: Shapes,
) -> Option<bool> {
    let r = Row::load(src)?;
    let p = plan_of(r.n, wildcards)?;
    Some(p.complete && min_distance(t, &r, p.sets, shapes) <= wildcards)
}

/// Whether a complete (`3n+2`) row needing `sets` sets is a win.
#[inline(always)]
pub fn is_winning(t: &Tables, r: &Row, wildcards: u8, sets: u8, shapes: Shapes) -> bool {
    // The row's words stay in registers here: the slower paths get them by value and rebuild the
    // row (taking its address in this function would spill it to the stack, and reading the suit
    // words back as one 16-byte vector from two 8-byte stores stalls the load).
    let words = (r.s, r.w26, r.nines);
    if wildcards > 0 {
        return wild_winning(t, words, wildcards, sets, shapes);
    }
    // The early return is an unpredictable branch on a typical batch (half the rows complete), but
    // computing the special shapes' gates on every row costs more than its mispredictions.
    let n9 = [r.nines & 0xFF, r.nines >> 8 & 0xFF, r.nines >> 16 & 0xFF];
    if shapes.standard && standard_win(WinTables::of(t), r.s, n9, r.h) {
        return true;
    }
    let special = shapes.seven_pairs
        || shapes.thirteen_orphans
        || shapes.honors_knitted
        || shapes.knitted_straight;
    special && special_exact(words, sets, shapes)
}

/// [`is_winning`] with wildcards: the distance of the best form.
#[inline(never)]
fn wild_winning(t: &Tables, words: Words, wildcards: u8, sets: u8, shapes: Shapes) -> bool {
    min_distance(t, &Row::from_words(words), sets, shapes) <= wildcards
}

/// [`shanten_row`] over many rows: `out[i]` = the shanten of row `rows(i)` (`i < out.len()`; left
/// as it was for an invalid row), and the index of the first invalid row. The loop is compiled once
/// more for each common shape set (every shape, the standard shape only), where the shape options
/// are constants: no test of them per row.
pub fn shanten_block<R: RowSource, F: Fn(usize) -> R>(
    t: &Tables,
    rows: F,
    out: &mut [i8],
    wildcards: u8,
    shapes: Shapes,
) -> Option<usize> {
    if shapes == Shapes::ALL {
        shanten_rows(t, rows, out, wildcards, Shapes::ALL)
    } else if shapes == Shapes::STANDARD {
        shanten_rows(t, rows, out, wildcards, Shapes::STANDARD)
    } else {
        shanten_rows(t, rows, out, wildcards, shapes)
    }
}

/// The loop of [`shanten_block`].
#[inline(always)]
fn shanten_rows<R: RowSource, F: Fn(usize) -> R>(
    t: &Tables,
    rows: F,
    out: &mut [i8],
    wildcards: u8,
    shapes: Shapes,
) -> Option<usize> {
    let mut bad = None;
    for (i, o) in out.iter_mut().enumerate() {
        match shanten_row(t, &rows(i), wildcards, shapes) {
            Some(v) => *o = v,
            None => {
                bad.get_or_insert(i);
            }
        }
    }
    bad
}

/// Batch kernel of `shanten` (no melds): `None` for an invalid row or one no allowed shape fits.
#[inline(always)]
pub fn shanten_row<R: RowSource + ?Sized>(
    t: &Tables,
    src: &R,
    wildcards: u8,
    shapes: Shapes,
) -> Option<i8> {
    let r = Row::load(src)?;
    let p = plan_of(r.n, wildcards).filter(|p| p.fits(shapes))?;
    let d = distance(t, &r, p.sets, shapes);
    Some(d.saturating_sub(wildcards) as i8 - 1)
}
