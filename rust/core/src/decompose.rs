//! Every decomposition of a complete hand (common.md §3): the standard shape (4 sets + pair, any
//! number of declared melds), 七对, 十三幺, 全不靠 and 组合龙 (+ a set + a pair).
//!
//! Scorers of every preset pick their best among these. Wildcard decompositions live in
//! [`crate::wild`] (when present); this module is the exact, wildcard-free enumerator.

use std::mem::MaybeUninit;

use crate::error::{Error, Result};
use crate::hand::{Meld, MeldKind};
use crate::rows::Row;
use crate::scoring::score::Few;
use crate::tables;
use crate::tile::{Counts, N_KINDS, Tile};

/// Which special shapes a caller allows (the standard shape is always considered unless
/// `standard` is false).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shapes {
    pub standard: bool,
    pub seven_pairs: bool,
    /// 七对 switch `qidui_quad_as_two_pairs`: four identical concealed tiles count as two pairs.
    pub seven_pairs_quads: bool,
    pub thirteen_orphans: bool,
    /// 全不靠 (lesser honours and knitted tiles).
    pub honors_knitted: bool,
    /// 组合龙 + one set + one pair.
    pub knitted_straight: bool,
}

impl Shapes {
    /// Only 4 sets + a pair.
    pub const STANDARD: Shapes = Shapes {
        standard: true,
        seven_pairs: false,
        seven_pairs_quads: false,
        thirteen_orphans: false,
        honors_knitted: false,
        knitted_straight: false,
    };
    /// Every shape of 国标 MCR (七对 needs seven distinct pairs there? no: MCR counts a concealed
    /// quad as two pairs, which the reference engine does).
    pub const MCR: Shapes = Shapes {
        standard: true,
        seven_pairs: true,
        seven_pairs_quads: true,
        thirteen_orphans: true,
        honors_knitted: true,
        knitted_straight: true,
    };
    /// Every shape, quads as two pairs.
    pub const ALL: Shapes = Shapes::MCR;
}

impl Default for Shapes {
    fn default() -> Self {
        Shapes::ALL
    }
}

/// The form of a decomposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    Standard,
    SevenPairs,
    ThirteenOrphans,
    HonorsKnitted,
    KnittedStraight,
}

impl Form {
    pub const fn name(self) -> &'static str {
        match self {
            Form::Standard => "standard",
            Form::SevenPairs => "seven_pairs",
            Form::ThirteenOrphans => "thirteen_orphans",
            Form::HonorsKnitted => "honors_knitted",
            Form::KnittedStraight => "knitted_straight",
        }
    }
}

/// One set of a decomposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Set {
    pub kind: MeldKind,
    /// Lowest tile of a chow; the tile of a pung or kong.
    pub tile: Tile,
    /// Declared (a meld) rather than formed from standing tiles.
    pub declared: bool,
    /// Concealed: formed from standing tiles, or a concealed kong.
    pub concealed: bool,
}

impl Set {
    pub fn from_meld(m: &Meld) -> Set {
        Set {
            kind: m.kind,
            tile: m.tile,
            declared: true,
            concealed: m.concealed,
        }
    }
    pub(crate) const fn standing(kind: MeldKind, tile: Tile) -> Set {
        Set {
            kind,
            tile,
            declared: false,
            concealed: true,
        }
    }
    /// Whether `t` is one of this set's tiles.
    pub fn contains(&self, t: Tile) -> bool {
        match self.kind {
            MeldKind::Chow => {
                t.suit_index() == self.tile.suit_index()
                    && t.index() >= self.tile.index()
                    && t.index() <= self.tile.index() + 2
            }
            _ => t == self.tile,
        }
    }
}

/// A blank set (a standing pung of East): only the filler of a [`Sets`] list's unused slots.
impl Default for Set {
    fn default() -> Self {
        SetList::BLANK
    }
}

/// The sets of a [`Decomposition`] (inline up to four, a complete hand's count; more go to the
/// heap).
pub type Sets = Few<Set, 4>;
/// The pair tiles of a 七对 [`Decomposition`] (inline up to seven).
pub type Pairs = Few<Tile, 7>;

/// One way to read a complete hand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decomposition {
    pub form: Form,
    /// Declared melds first (in the order given), then standing sets from low to high.
    pub sets: Sets,
    /// The pair (standard and knitted-straight forms; for 十三幺 the doubled tile).
    pub pair: Option<Tile>,
    /// 七对: the seven pair tiles, low to high (a quad counted as two pairs appears twice).
    pub pairs: Pairs,
    /// 全不靠 / 组合龙: the knitted rank offset per suit m, p, s (0 = 147, 1 = 258, 2 = 369).
    pub knitted: Option<[u8; 3]>,
    /// What each wildcard stands for, sorted (empty without wildcards; see
    /// [`crate::wild::decompose_wild`]). The tiles listed are included in `sets` / `pair` / `pairs`.
    pub wildcards: Vec<Tile>,
}

/// The six suit → {147, 258, 369} assignments.
pub const KNITTED_PERMUTATIONS: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The nine tile indices of a knitted assignment.
pub fn knitted_tiles(perm: [u8; 3]) -> [usize; 9] {
    let mut out = [0usize; 9];
    let mut k = 0;
    for (suit, &off) in perm.iter().enumerate() {
        for step in 0..3 {
            out[k] = suit * 9 + off as usize + 3 * step;
            k += 1;
        }
    }
    out
}

pub(crate) const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Up to four sets, on the stack (a complete hand never has more).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SetList {
    sets: [Set; 4],
    len: u8,
}

impl SetList {
    const BLANK: Set = Set::standing(MeldKind::Pung, Tile::E);
    pub const EMPTY: SetList = SetList {
        sets: [Self::BLANK; 4],
        len: 0,
    };

    #[cfg(test)]
    fn push(&mut self, s: Set) {
        debug_assert!(self.len < 4, "a hand has at most four sets");
        if let Some(slot) = self.sets.get_mut(self.len as usize) {
            *slot = s;
            self.len += 1;
        }
    }

    #[cfg(test)]
    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }
}

impl std::ops::Deref for SetList {
    type Target = [Set];
    #[inline]
    fn deref(&self) -> &[Set] {
        &self.sets[..self.len as usize]
    }
}

impl<'a> IntoIterator for &'a SetList {
    type Item = &'a Set;
    type IntoIter = std::slice::Iter<'a, Set>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The seven pair tiles of a 七对 reading, on the stack (reads as a slice, prints as a list).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PairList {
    tiles: [Tile; 7],
    len: u8,
}

impl PairList {
    pub const EMPTY: PairList = PairList {
        tiles: [Tile::E; 7],
        len: 0,
    };

    /// All seven slots: the pairs first, then fillers (for a fixed-size copy).
    #[inline]
    pub fn all(&self) -> [Tile; 7] {
        self.tiles
    }
}

impl std::fmt::Debug for PairList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl std::ops::Deref for PairList {
    type Target = [Tile];
    #[inline]
    fn deref(&self) -> &[Tile] {
        &self.tiles[..self.len as usize]
    }
}

/// One way to read a complete hand, without heap allocation: the same fields as
/// [`Decomposition`], which [`Reading::to_decomposition`] builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub form: Form,
    /// Declared melds first (in the order given), then standing sets from low to high.
    pub sets: SetList,
    pub pair: Option<Tile>,
    /// 七对: the seven pair tiles, low to high (a quad counted as two pairs appears twice).
    pub pairs: PairList,
    pub knitted: Option<[u8; 3]>,
}

impl Reading {
    const EMPTY: Reading = Reading {
        form: Form::Standard,
        sets: SetList::EMPTY,
        pair: None,
        pairs: PairList::EMPTY,
        knitted: None,
    };

    pub fn to_decomposition(&self) -> Decomposition {
        Decomposition {
            form: self.form,
            sets: Sets::from_slice(&self.sets),
            pair: self.pair,
            pairs: Pairs::from_slice(&self.pairs),
            knitted: self.knitted,
            wildcards: Vec::new(),
        }
    }
}

/// Every reading of a complete hand, in the order of [`decompose`]. A hand of 14 tiles has at most
/// 4 standard readings (exhaustive count over all suit patterns), at most one 组合龙 assignment
/// with at most 2 readings of its remaining 5 tiles, and one reading per other special shape, so
/// the fixed capacity is never exceeded in practice; if it were, the excess goes to a `Vec`.
///
/// The inline slots past `len` are left uninitialised: a new list writes only its length (a
/// scorer makes one per hand, and blank readings would be 256 bytes to write and move).
#[derive(Clone)]
pub struct Readings {
    /// `items[..len]` are initialised (`Reading` is `Copy`: nothing to drop).
    items: [MaybeUninit<Reading>; Readings::CAPACITY],
    len: usize,
    more: Vec<Reading>,
}

impl Default for Readings {
    #[inline(always)]
    fn default() -> Self {
        Readings {
            items: [const { MaybeUninit::uninit() }; Readings::CAPACITY],
            len: 0,
            more: Vec::new(),
        }
    }
}

impl std::fmt::Debug for Readings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Readings {
    pub const CAPACITY: usize = 8;

    pub fn len(&self) -> usize {
        self.len + self.more.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The inline readings.
    #[inline(always)]
    fn inline(&self) -> &[Reading] {
        let len = self.len.min(Self::CAPACITY);
        // SAFETY: the first `len` slots were written by `push` (and `len ≤ CAPACITY`);
        // `MaybeUninit<Reading>` has the layout of `Reading`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<Reading>(), len) }
    }

    pub fn get(&self, i: usize) -> Option<&Reading> {
        if i < self.len {
            self.inline().get(i)
        } else {
            self.more.get(i - self.len)
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Reading> {
        self.inline().iter().chain(self.more.iter())
    }

    #[cfg(test)]
    fn contains(&self, r: &Reading) -> bool {
        self.iter().any(|o| {
            o.form == r.form && o.pair == r.pair && o.knitted == r.knitted && o.sets == r.sets
        })
    }

    /// A new reading at the end (written where it goes, the slot not reset first).
    #[inline(always)]
    fn push(&mut self, r: Reading) {
        if self.len < Self::CAPACITY {
            self.items[self.len].write(r);
            self.len += 1;
        } else {
            self.more.push(r);
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.more.clear();
    }
}

impl std::ops::Index<usize> for Readings {
    type Output = Reading;
    fn index(&self, i: usize) -> &Reading {
        match self.get(i) {
            Some(r) => r,
            None => panic!("reading {i} of {}", self.len()),
        }
    }
}

/// All decompositions of a complete hand: `concealed` counts the standing tiles *including* the
/// winning tile; `melds` are the declared melds. Errors if the tile count is not complete.
pub fn decompose(concealed: &Counts, melds: &[Meld], shapes: Shapes) -> Result<Vec<Decomposition>> {
    let mut out = Readings::default();
    decompose_into(concealed, melds, shapes, &mut out)?;
    Ok(out.iter().map(Reading::to_decomposition).collect())
}

/// [`decompose`] into a reusable [`Readings`] (cleared first), without heap allocation.
pub fn decompose_into(
    concealed: &Counts,
    melds: &[Meld],
    shapes: Shapes,
    out: &mut Readings,
) -> Result<()> {
    out.clear();
    let Some(row) = Row::load(concealed) else {
        return Err(Error::hand(
            "more than four copies of a tile in the standing hand",
        ));
    };
    decompose_row_into(concealed, &row, melds, shapes, out)
}

/// [`decompose_into`] of standing tiles already loaded (`row` is `Row::load(concealed)`, which
/// succeeded); `out` is cleared first.
pub(crate) fn decompose_row_into(
    concealed: &Counts,
    row: &Row,
    melds: &[Meld],
    shapes: Shapes,
    out: &mut Readings,
) -> Result<()> {
    out.clear();
    let n = row.tiles() as usize;
    if n + 3 * melds.len() != 14 {
        return Err(Error::hand(format!(
            "a complete hand has {} standing tiles with {} meld(s), got {n}",
            14 - 3 * melds.len().min(4),
            melds.len()
        )));
    }
    let declared = Declared::of(melds);
    if shapes.standard {
        standard_readings(row, &declared, Form::Standard, None, out);
    }
    // One test rules out every special shape for nearly every hand, so that a standard hand pays
    // one well-predicted branch for them: each shape needs something a standard hand rarely has
    // (no odd count for 七对, 14 distinct kinds for 全不靠, no suited tile but 1s and 9s for
    // 十三幺, and for 组合龙 at most one meld and in each suit one of 147, 258, 369 held whole).
    // The tests are combined without short-circuiting, which would branch on each of them; they
    // only rule out (`special_readings` checks each shape exactly), so that they need not build
    // the mask of the kinds held.
    let concealed_special = (shapes.seven_pairs & !row.any_odd())
        | (shapes.thirteen_orphans & row.suits_terminal_only())
        | (shapes.honors_knitted & !row.any_doubled());
    let special = (melds.is_empty() & concealed_special)
        | (shapes.knitted_straight & (melds.len() <= 1) & row.knitted_suits());
    if special {
        special_readings(concealed, row, melds, &declared, shapes, out);
    }
    Ok(())
}

/// The readings of the special shapes (after the standard ones), for a hand that may have one.
#[cold]
fn special_readings(
    concealed: &Counts,
    row: &Row,
    melds: &[Meld],
    declared: &Declared,
    shapes: Shapes,
    out: &mut Readings,
) {
    let held = row.kinds_held();
    if melds.is_empty() {
        // 14 standing tiles without an odd count are seven pairs (a quad as two)
        let quads_ok = shapes.seven_pairs_quads || !row.any_quad();
        if shapes.seven_pairs && !row.any_odd() && quads_ok {
            out.push(Reading {
                form: Form::SevenPairs,
                pairs: seven_pairs(row),
                ..Reading::EMPTY
            });
        }
        if shapes.thirteen_orphans && held == ORPHAN_MASK {
            // 14 tiles on the 13 orphan kinds: exactly one is doubled
            let pair = row.kinds_doubled().trailing_zeros();
            if pair < N_KINDS as u32 {
                let pair = Tile::new_unchecked(pair as u8);
                out.push(Reading {
                    form: Form::ThirteenOrphans,
                    pair: Some(pair),
                    ..Reading::EMPTY
                });
            }
        }
        if shapes.honors_knitted && !row.any_doubled() {
            // 14 distinct kinds: the suited ones must fit one knitted assignment
            let perm = (0..KNITTED_PERMUTATIONS.len())
                .find(|&k| held & !HONOR_MASK & !KNITTED_MASKS[k] == 0)
                .map(|k| KNITTED_PERMUTATIONS[k]);
            if let Some(perm) = perm {
                out.push(Reading {
                    form: Form::HonorsKnitted,
                    knitted: Some(perm),
                    ..Reading::EMPTY
                });
            }
        }
    }
    if shapes.knitted_straight && melds.len() <= 1 {
        for (k, perm) in KNITTED_PERMUTATIONS.into_iter().enumerate() {
            if held & KNITTED_MASKS[k] == KNITTED_MASKS[k] {
                let idx = knitted_tiles(perm);
                let mut c = *concealed;
                for &i in &idx {
                    c[i] -= 1;
                }
                let r = Row::of(&c);
                standard_readings(&r, declared, Form::KnittedStraight, Some(perm), out);
            }
        }
    }
}

/// The declared melds' sets, read without branching on their number (a loop over the melds would
/// end at a different point from hand to hand, mispredicting the exit).
pub(crate) struct Declared {
    /// The sets, then (past `len`) copies of the last or a filler, which no reading keeps.
    sets: [Set; 4],
    len: usize,
}

impl Declared {
    const FILLER: Meld = Meld {
        kind: MeldKind::Pung,
        tile: Tile::E,
        concealed: false,
        from: 0,
    };

    #[inline(always)]
    fn of(melds: &[Meld]) -> Declared {
        // each slot a meld or the filler, chosen without a branch
        let sets = std::array::from_fn(|i| Set::from_meld(melds.get(i).unwrap_or(&Self::FILLER)));
        Declared {
            sets,
            len: melds.len().min(4),
        }
    }
}

/// One reading of one suit, stored ready to copy into each of the three suits: `sets[g]` holds its
/// sets as [`Set`]s of suit `g`, then filler sets (a copy is four sets, whatever it uses, so
/// that the copying does not branch on the tiles; a copy per suit spares moving the tiles).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SuitReading {
    sets: [[Set; 4]; 3],
    /// Sets used.
    n: u8,
    /// The pair's tile + 1 in each suit; 0 without a pair.
    pair: [u8; 3],
    /// Readings of the suit's list from this one on (the first reading's is the list's length).
    left: u8,
}

impl SuitReading {
    const FILLER: Set = Set::standing(MeldKind::Pung, Tile::new_unchecked(0));
    const EMPTY: SuitReading = SuitReading {
        sets: [[Self::FILLER; 4]; 3],
        n: 0,
        pair: [0; 3],
        left: 0,
    };
}

/// Every suit's readings, precomputed: the standard decomposition reads a suit's list instead of
/// searching (a search branches on the tiles at every step, and its branches are data-dependent,
/// so they mispredict). Keyed by the suit's sum-first rank ([`tables::hot_rank_of`]), so that the
/// suits of up to 9 tiles (nearly all of a real hand's) share the first 42 K slots (168 KB); the
/// lists are in the same order, so that theirs share the first 100 KB of the pool (53 bytes a
/// reading, 1.5 MB in all).
///
/// 21 743 suits of at most 14 tiles split exactly (into sets, or sets and one pair, as their tile
/// count says), with 28 375 readings in all (at most 5 per suit: 1112222333344 and its shifts read
/// the same sets in two orders, which the exhaustive search `standard` keeps apart).
pub(crate) struct SuitTable {
    /// Each suit's list in `pool`, by sum-first rank: its start (bits 0..16) and its length (bits
    /// 16..: one load gives both); 0 when the suit does not split.
    slot: Box<[u32; tables::HOT_CLASS_LEN]>,
    /// The lists, one after another; entry 0 is an empty list (`left` 0).
    pool: Vec<SuitReading>,
}

impl Default for SuitTable {
    fn default() -> Self {
        SuitTable {
            slot: tables::boxed(0),
            pool: Vec::new(),
        }
    }
}

impl SuitTable {
    /// The readings of the suit of sum-first rank `r` (empty when it does not split).
    #[inline(always)]
    fn list(&self, r: usize) -> &[SuitReading] {
        let e = self.slot[r & (tables::HOT_CLASS_LEN - 1)];
        let (start, len) = ((e & 0xFFFF) as usize, (e >> 16) as usize);
        self.pool.get(start..start + len).unwrap_or(&[])
    }
}

/// Build the [`SuitTable`] (called once by the table build, after the flags and the sum-first
/// rank; about 40 million instructions, 10 ms): every suit that splits, its readings in the order
/// of the exhaustive search `standard`.
pub(crate) fn suit_table(t: &tables::Tables) -> SuitTable {
    let digits = |x: usize, len: usize| -> ([u8; 5], usize) {
        let mut d = [0u8; 5];
        let mut y = x;
        for c in d.iter_mut().take(len) {
            *c = (y % 5) as u8;
            y /= 5;
        }
        (d, d.iter().map(|&c| c as usize).sum())
    };
    let lows: Vec<([u8; 5], usize)> = (0..tables::POW5[4]).map(|lo| digits(lo, 4)).collect();
    // the suits that split, by sum-first rank: the lists of the few-tile suits come first
    let mut suits = Vec::new();
    for hi in 0..tables::POW5[5] {
        let (high, s_hi) = digits(hi, 5);
        for (lo, (low, s_lo)) in lows.iter().enumerate() {
            let idx = lo + 625 * hi;
            if s_lo + s_hi <= tables::MAX_SUIT_TILES && tables::flags5(t, idx) != 0 {
                let mut v = [0u8; 9];
                v[..4].copy_from_slice(&low[..4]);
                v[4..].copy_from_slice(&high);
                suits.push((tables::hot_rank(t, lo, hi, s_hi), idx, v, s_lo + s_hi));
            }
        }
    }
    suits.sort_unstable_by_key(|x| x.0);
    let mut slot: Box<[u32; tables::HOT_CLASS_LEN]> = tables::boxed(0);
    let mut pool = vec![SuitReading::EMPTY];
    for (rank, idx, mut v, n) in suits {
        let start = pool.len();
        let search = SuitSearch {
            t,
            need_pair: n % 3 == 2,
            start,
        };
        search.run(&mut v, idx, SuitReading::EMPTY, &mut pool);
        let len = pool.len() - start;
        for (k, r) in pool[start..].iter_mut().enumerate() {
            r.left = (len - k) as u8;
            // the search wrote the characters' copy
            for g in 1..3 {
                let moved = |s: &Set| {
                    Set::standing(s.kind, Tile::new_unchecked(s.tile.index() + 9 * g as u8))
                };
                r.sets[g] = r.sets[0].map(|s| moved(&s));
                r.pair[g] = if r.pair[0] != 0 {
                    r.pair[0] + 9 * g as u8
                } else {
                    0
                };
            }
        }
        let start = u32::try_from(start)
            .ok()
            .filter(|&s| s <= 0xFFFF)
            .expect("at most 65 536 suit readings");
        slot[rank] = start | (len as u32) << 16;
    }
    SuitTable { slot, pool }
}

/// The search that fills the [`SuitTable`]: the exhaustive search `standard` within one suit (at
/// the lowest tile, the pair, a pung, a chow), taking only the steps after which the rest still
/// splits by the exact-decomposition flags (the readings and their order are the same; the dead
/// ends are not walked).
struct SuitSearch<'t> {
    t: &'t tables::Tables,
    need_pair: bool,
    /// This suit's readings are `out[start..]`.
    start: usize,
}

impl SuitSearch<'_> {
    /// The readings of the suit `v` (base-5 index `idx`) that extend `cur`, appended to `out`.
    fn run(&self, v: &mut [u8; 9], idx: usize, cur: SuitReading, out: &mut Vec<SuitReading>) {
        let Some(i) = v.iter().position(|&x| x > 0) else {
            // the pair before or after a chow through the same tile reaches the same sets twice
            if (cur.pair[0] != 0) == self.need_pair && !out[self.start..].contains(&cur) {
                out.push(cur);
            }
            return;
        };
        let pow = tables::POW5;
        // the flags the rest must have: 2 = sets and a pair, 1 = sets only
        let open = self.need_pair && cur.pair[0] == 0;
        let rest = if open { 2 } else { 1 };
        let splits = |next: usize, want: u8| tables::flags5(self.t, next) & want != 0;
        if open && v[i] >= 2 && splits(idx - 2 * pow[i], 1) {
            v[i] -= 2;
            let mut next = cur;
            next.pair[0] = i as u8 + 1;
            self.run(v, idx - 2 * pow[i], next, out);
            v[i] += 2;
        }
        let mut take = |v: &mut [u8; 9], kind: MeldKind, next_idx: usize| {
            let mut next = cur;
            if let Some(s) = next.sets[0].get_mut(cur.n as usize) {
                *s = Set::standing(kind, Tile::new_unchecked(i as u8));
                next.n += 1;
                self.run(v, next_idx, next, out);
            }
        };
        if v[i] >= 3 && splits(idx - 3 * pow[i], rest) {
            v[i] -= 3;
            take(v, MeldKind::Pung, idx - 3 * pow[i]);
            v[i] += 3;
        }
        let chow = pow[i] + pow[(i + 1) % 9] + pow[(i + 2) % 9];
        if i <= 6 && v[i + 1] > 0 && v[i + 2] > 0 && splits(idx - chow, rest) {
            v[i..i + 3].iter_mut().for_each(|x| *x -= 1);
            take(v, MeldKind::Chow, idx - chow);
            v[i..i + 3].iter_mut().for_each(|x| *x += 1);
        }
    }
}

/// Every decomposition of the standing tiles of `row` into sets and exactly one pair, appended to
/// `out` after `declared` (same readings and order as the exhaustive search `standard`): each
/// suit's readings come from the [`SuitTable`], the honours are pungs and the pair, and the
/// readings are the product of the suits' readings. The copying does not branch on the tiles: each
/// group's four set slots are written whole and the position moves on by the number used.
fn standard_readings(
    row: &Row,
    declared: &Declared,
    form: Form,
    knitted: Option<[u8; 3]>,
    out: &mut Readings,
) {
    let t = tables::tables();
    let [pungs, pairs, bad] = row.honour_split();
    if bad != 0 {
        return;
    }
    let st = &t.suit_readings;
    let ranks = row.suit_hot_ranks(t);
    let lists = ranks.map(|r| st.list(r));
    // Exactly one group holds the pair: a suit whose readings have one (a suit that splits has
    // 3k tiles and no pair or 3k + 2 and a pair; one that does not has no readings, and then
    // neither has the hand) or an honour held twice.
    let suit_pairs: u32 = lists
        .iter()
        .map(|l| u32::from(l.first().is_some_and(|r| r.pair[0] != 0)))
        .sum();
    if suit_pairs + pairs.count_ones() != 1 {
        return;
    }
    let honours = HONOUR_PUNGS[pungs as usize & 127];
    let n_honours = pungs.count_ones() as usize;
    // the pair's tile + 1 when an honour (trailing_zeros is 64 without one, times 0)
    let honour_pair = (28 + pairs.trailing_zeros()) as u8 * u8::from(pairs != 0);
    // suit `g`'s reading copied at position `at` of `buf` (at most 4: a hand has 4 sets); the new
    // position and the pair's tile + 1 (0 without a pair)
    let put = |buf: &mut [Set; 8], at: usize, r: &SuitReading, g: usize| {
        let at = at.min(4);
        buf[at..at + 4].copy_from_slice(&r.sets[g]);
        (at + r.n as usize, r.pair[g])
    };
    for a in lists[0] {
        for b in lists[1] {
            for s in lists[2] {
                let mut buf = [SetList::BLANK; 8];
                buf[..4].copy_from_slice(&declared.sets);
                let (at, pa) = put(&mut buf, declared.len, a, 0);
                let (at, pb) = put(&mut buf, at, b, 1);
                let (at, ps) = put(&mut buf, at, s, 2);
                // the honours' block ends in blank fillers, which fill the unused slots as a
                // pushed list's
                let at = at.min(4);
                buf[at..at + 4].copy_from_slice(&honours);
                let mut sets = [SetList::BLANK; 4];
                sets.copy_from_slice(&buf[..4]);
                out.push(Reading {
                    form,
                    sets: SetList {
                        sets,
                        len: (at + n_honours).min(4) as u8,
                    },
                    pair: (honour_pair | pa | pb | ps)
                        .checked_sub(1)
                        .map(Tile::new_unchecked),
                    pairs: PairList::EMPTY,
                    knitted,
                });
            }
        }
    }
}

/// The honour pungs of each set of honours held three times (bit k for honour k), low to high, then
/// blank fillers.
const HONOUR_PUNGS: [[Set; 4]; 128] = {
    let mut out = [[SetList::BLANK; 4]; 128];
    let mut mask = 0;
    while mask < 128 {
        let (mut k, mut n) = (0, 0);
        while k < 7 {
            if mask >> k & 1 != 0 && n < 4 {
                out[mask][n] = Set::standing(MeldKind::Pung, Tile::new_unchecked(27 + k as u8));
                n += 1;
            }
            k += 1;
        }
        mask += 1;
    }
    out
};

/// Enumerate standard decompositions of `c` (sets + exactly one pair), always consuming the lowest
/// remaining tile so that each multiset of groups is produced once (the pair may be taken before
/// or after a chow through the same tile, which reaches the same groups twice: kept once).
#[cfg(test)]
fn standard(
    c: &mut Counts,
    start: usize,
    sets: &mut SetList,
    pair: Option<Tile>,
    form: Form,
    knitted: Option<[u8; 3]>,
    out: &mut Readings,
) {
    let Some(i) = (start..N_KINDS).find(|&i| c[i] > 0) else {
        if pair.is_some() {
            let r = Reading {
                form,
                sets: *sets,
                pair,
                pairs: PairList::EMPTY,
                knitted,
            };
            if !out.contains(&r) {
                out.push(r);
            }
        }
        return;
    };
    let t = Tile::new_unchecked(i as u8);
    if pair.is_none() && c[i] >= 2 {
        c[i] -= 2;
        standard(c, i, sets, Some(t), form, knitted, out);
        c[i] += 2;
    }
    if c[i] >= 3 {
        c[i] -= 3;
        sets.push(Set::standing(MeldKind::Pung, t));
        standard(c, i, sets, pair, form, knitted, out);
        sets.pop();
        c[i] += 3;
    }
    if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        sets.push(Set::standing(MeldKind::Chow, t));
        standard(c, i, sets, pair, form, knitted, out);
        sets.pop();
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
}

/// The seven pairs of 14 standing tiles without an odd count, low to high (a quad as two), without
/// branching on the tiles: each slot takes the lowest kind left, which leaves once no pair of it
/// remains (a quad stays for its second pair).
fn seven_pairs(row: &Row) -> PairList {
    let (mut left, mut quads) = (row.kinds_doubled(), row.kinds_at_four());
    let mut pairs = PairList::EMPTY;
    for slot in &mut pairs.tiles {
        let low = left & left.wrapping_neg();
        *slot = Tile::new_unchecked(low.trailing_zeros().min(N_KINDS as u32 - 1) as u8);
        left ^= low & !quads;
        quads ^= low & quads;
    }
    pairs.len = 7;
    pairs
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse_tiles, to_counts};

    fn counts(s: &str) -> Counts {
        to_counts(&parse_tiles(s).unwrap()).unwrap()
    }

    /// The standard readings by the exhaustive search alone (the reference of the pruned one).
    fn exhaustive(c: &Counts, melds: &[Meld], form: Form, knitted: Option<[u8; 3]>) -> Readings {
        let mut out = Readings::default();
        let mut declared = SetList::EMPTY;
        for m in melds {
            declared.push(Set::from_meld(m));
        }
        let mut c = *c;
        standard(&mut c, 0, &mut declared, None, form, knitted, &mut out);
        out
    }

    /// Every suit of at most 14 tiles, in each of the three suits by turns, with honour pungs and
    /// the pair (East) completing it to 4 sets and a pair where its size allows: the table's
    /// readings are the exhaustive search's, in its order (none when the suit does not split).
    #[test]
    fn suit_table_equals_exhaustive_search_on_every_suit() {
        let st = &tables::tables().suit_readings;
        assert_eq!(st.pool.len() - 1, 28_375);
        assert_eq!(st.slot.iter().filter(|&&s| s != 0).count(), 21_743);
        let (mut suits, mut found) = (0, 0);
        for idx in 0..tables::POW5[9] {
            let mut v = [0u8; 9];
            let mut x = idx;
            for d in &mut v {
                *d = (x % 5) as u8;
                x /= 5;
            }
            let n: usize = v.iter().map(|&d| d as usize).sum();
            if n > tables::MAX_SUIT_TILES {
                continue;
            }
            let g = suits % 3;
            suits += 1;
            let mut c = [0u8; N_KINDS];
            c[9 * g..9 * g + 9].copy_from_slice(&v);
            if n % 3 != 2 {
                c[27] = 2;
            }
            for k in 0..(12 - n.min(12)) / 3 {
                c[28 + k] = 3;
            }
            let mut fast = Readings::default();
            standard_readings(
                &Row::of(&c),
                &Declared::of(&[]),
                Form::Standard,
                None,
                &mut fast,
            );
            let slow = exhaustive(&c, &[], Form::Standard, None);
            let a: Vec<_> = fast.iter().cloned().collect();
            let b: Vec<_> = slow.iter().cloned().collect();
            assert_eq!(a, b, "{c:?}");
            found += a.len();
        }
        assert_eq!(suits, tables::SUIT_ENTRIES);
        assert_eq!(found, 28_375);
    }

    #[test]
    fn table_readings_equal_exhaustive_search() {
        let mut next = crate::test_util::xorshift(0x1234_5678_9abc_def1);
        let mut found = 0;
        for iter in 0..60_000 {
            // a complete hand of `sets` standing sets and a pair (often several readings), or noise
            let melds_n = next(3) as usize;
            let kinds = [9, 18, 34, 27][iter % 4];
            let mut c = [0u8; N_KINDS];
            if iter % 5 == 0 {
                // noise, honour-heavy now and then
                let base = if iter % 3 == 0 { 20 } else { 0 };
                let kinds = kinds.min(34 - base);
                let mut k = 0;
                while k < 14 - 3 * melds_n {
                    let t = base as usize + next(kinds) as usize;
                    if c[t] < 4 {
                        c[t] += 1;
                        k += 1;
                    }
                }
            } else {
                for _ in 0..4 - melds_n {
                    let t = next(kinds) as usize;
                    if t < 27 && t % 9 <= 6 && next(2) == 0 {
                        for k in 0..3 {
                            c[t + k] += 1;
                        }
                    } else {
                        c[t] += 3;
                    }
                }
                c[next(kinds) as usize] += 2;
                if c.iter().any(|&x| x > 4) {
                    continue;
                }
            }
            let melds: Vec<Meld> = (0..melds_n)
                .map(|i| {
                    Meld::new(MeldKind::Pung, Tile::new_unchecked(27 + i as u8), false, 1).unwrap()
                })
                .collect();
            let mut fast = Readings::default();
            let declared = Declared::of(&melds);
            standard_readings(&Row::of(&c), &declared, Form::Standard, None, &mut fast);
            let slow = exhaustive(&c, &melds, Form::Standard, None);
            let a: Vec<_> = fast.iter().cloned().collect();
            let b: Vec<_> = slow.iter().cloned().collect();
            assert_eq!(a, b, "{c:?} melds {melds_n}");
            found += a.len();
        }
        assert!(found > 20_000, "{found}");
    }

    /// The special shapes' cheap filters against the mask of the kinds held: the knitted one is
    /// exact, the orphans' one lets every 十三幺 through.
    #[test]
    fn special_filters_match_kinds_held() {
        let mut next = crate::test_util::xorshift(0x9e37_79b9_7f4a_7c15);
        for iter in 0..200_000 {
            let mut c = [0u8; N_KINDS];
            let tiles = 1 + next(14) as usize;
            let kinds = [34, 27, 9, 13][iter % 4];
            for _ in 0..tiles {
                let k = next(kinds) as usize;
                let k = if kinds == 13 { ORPHANS[k] } else { k };
                c[k] = (c[k] + 1).min(4);
            }
            let row = Row::of(&c);
            let held = row.kinds_held();
            let whole = held & held >> 3 & held >> 6;
            let knitted = (whole & 7 != 0) & (whole >> 9 & 7 != 0) & (whole >> 18 & 7 != 0);
            assert_eq!(row.knitted_suits(), knitted, "{c:?}");
            if held & !ORPHAN_MASK == 0 {
                assert!(row.suits_terminal_only(), "{c:?}");
            }
        }
        for perm in KNITTED_PERMUTATIONS {
            let mut c = [0u8; N_KINDS];
            for i in knitted_tiles(perm) {
                c[i] = 1;
            }
            assert!(Row::of(&c).knitted_suits());
        }
    }

    #[test]
    fn standard_multiple() {
        // 111222333m: three pungs or three chows.
        let d = decompose(&counts("111222333m456pEE"), &[], Shapes::STANDARD).unwrap();
        assert_eq!(d.len(), 2);
        let d = decompose(&counts("123m456p789sEEECC"), &[], Shapes::ALL).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].pair, Some(Tile::C));
    }

    #[test]
    fn special_forms() {
        let d = decompose(&counts("19m19p19sESWNCFPP"), &[], Shapes::ALL).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].form, Form::ThirteenOrphans);
        let d = decompose(&counts("1122m3344p5566sEE"), &[], Shapes::ALL).unwrap();
        assert!(d.iter().any(|x| x.form == Form::SevenPairs));
        let d = decompose(&counts("147m258p369sESWNC"), &[], Shapes::ALL).unwrap();
        assert!(d.iter().any(|x| x.form == Form::HonorsKnitted));
        assert!(!d.iter().any(|x| x.form == Form::KnittedStraight));
        let d = decompose(&counts("147m258p369s234sEE"), &[], Shapes::ALL).unwrap();
        assert!(d.iter().any(|x| x.form == Form::KnittedStraight));
        let quad = decompose(&counts("1111m3344p5566sEE"), &[], Shapes::ALL).unwrap();
        assert!(quad.iter().any(|x| x.form == Form::SevenPairs));
        let mut no_quads = Shapes::ALL;
        no_quads.seven_pairs_quads = false;
        let quad = decompose(&counts("1111m3344p5566sEE"), &[], no_quads).unwrap();
        assert!(!quad.iter().any(|x| x.form == Form::SevenPairs));
    }
}
