//! Every decomposition of a complete hand (common.md §3): the standard shape (4 sets + pair, any
//! number of declared melds), 七对, 十三幺, 全不靠 and 组合龙 (+ a set + a pair).
//!
//! Scorers of every preset pick their best among these. Wildcard decompositions live in
//! [`crate::wild`] (when present); this module is the exact, wildcard-free enumerator.

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

    #[inline]
    fn push(&mut self, s: Set) {
        debug_assert!(self.len < 4, "a hand has at most four sets");
        if let Some(slot) = self.sets.get_mut(self.len as usize) {
            *slot = s;
            self.len += 1;
        }
    }

    #[inline]
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
#[derive(Clone, Debug)]
pub struct Readings {
    items: [Reading; Readings::CAPACITY],
    len: usize,
    more: Vec<Reading>,
}

impl Default for Readings {
    fn default() -> Self {
        Readings {
            items: [Reading::EMPTY; Readings::CAPACITY],
            len: 0,
            more: Vec::new(),
        }
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

    pub fn get(&self, i: usize) -> Option<&Reading> {
        if i < self.len {
            self.items.get(i)
        } else {
            self.more.get(i - self.len)
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Reading> {
        self.items[..self.len].iter().chain(self.more.iter())
    }

    fn contains(&self, r: &Reading) -> bool {
        self.iter().any(|o| {
            o.form == r.form && o.pair == r.pair && o.knitted == r.knitted && o.sets == r.sets
        })
    }

    fn push(&mut self, r: Reading) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = r;
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
    let mut declared = SetList::EMPTY;
    for m in melds {
        declared.push(Set::from_meld(m));
    }
    if shapes.standard {
        standard_readings(concealed, row, &declared, Form::Standard, None, out);
    }
    let held = row.kinds_held();
    if melds.is_empty() {
        let quads_ok = shapes.seven_pairs_quads || !row.any_quad();
        if shapes.seven_pairs && !row.any_odd() && quads_ok {
            if let Some(pairs) = seven_pairs(concealed, shapes.seven_pairs_quads) {
                out.push(Reading {
                    form: Form::SevenPairs,
                    pairs,
                    ..Reading::EMPTY
                });
            }
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
                standard_readings(&c, &r, &declared, Form::KnittedStraight, Some(perm), out);
            }
        }
    }
    Ok(())
}

/// The readings of one suit: the sets (kind and rank index 0..9) and the pair's rank.
#[derive(Clone, Copy, Default)]
struct SuitReading {
    sets: [(bool, u8); 4], // (is a chow, lowest rank)
    n: u8,
    pair: Option<u8>,
}

/// At most 4 readings per suit (exhaustive count over all suit patterns of at most 14 tiles).
struct SuitReadings {
    items: [SuitReading; 4],
    n: usize,
    /// More readings than `items` holds (never seen): the caller falls back to the full search.
    overflow: bool,
}

/// Every decomposition of the standing tiles `c` into sets and exactly one pair, appended to `out`
/// after `declared` (same readings and order as the exhaustive search [`standard`]): each group is
/// split on its own, by a search that only takes a step when the exact-decomposition flags say the
/// rest of the suit still splits, and the readings are the product of the groups' readings.
fn standard_readings(
    c: &Counts,
    row: &Row,
    declared: &SetList,
    form: Form,
    knitted: Option<[u8; 3]>,
    out: &mut Readings,
) {
    let t = tables::tables();
    // Which group holds the pair: the tile counts mod 3 decide (one group ≡ 2, the others ≡ 0).
    let n = row.group_sizes();
    let residues = n.map(|x| x % 3);
    if residues.contains(&1) || residues.iter().filter(|&&r| r == 2).count() != 1 {
        return;
    }
    // Honours: each kind is a pung (3) or the pair (2).
    let mut honor_sets = SetList::EMPTY;
    let mut pair = None;
    if n[3] > 0 {
        for (k, &x) in c.iter().enumerate().skip(27) {
            let tile = Tile::new_unchecked(k as u8);
            match x {
                0 => {}
                2 if pair.is_none() => pair = Some(tile),
                3 => honor_sets.push(Set::standing(MeldKind::Pung, tile)),
                _ => return,
            }
        }
    }
    if pair.is_some() != (residues[3] == 2) {
        return;
    }
    let mut suits: [SuitReadings; 3] = std::array::from_fn(|_| SuitReadings {
        items: [SuitReading::default(); 4],
        n: 0,
        overflow: false,
    });
    let index = row.suit_index5();
    for (g, sr) in suits.iter_mut().enumerate() {
        if n[g] == 0 {
            sr.n = 1; // one empty reading
            continue;
        }
        let idx = index[g];
        let need_pair = n[g] % 3 == 2;
        let want = if need_pair { 2 } else { 1 };
        if tables::flags5(t, idx) & want == 0 {
            return;
        }
        let mut v = [0u8; 9];
        v.copy_from_slice(&c[9 * g..9 * g + 9]);
        suit_search(t, v, idx, need_pair, SuitReading::default(), sr);
        if sr.overflow {
            // Never happens (see `SuitReadings`); keep the answer exact anyway.
            let mut c = *c;
            let mut sets = *declared;
            standard(&mut c, 0, &mut sets, None, form, knitted, out);
            return;
        }
    }
    for a in &suits[0].items[..suits[0].n] {
        for b in &suits[1].items[..suits[1].n] {
            for s in &suits[2].items[..suits[2].n] {
                let mut sets = *declared;
                let mut p = pair;
                for (g, r) in [a, b, s].into_iter().enumerate() {
                    for &(chow, rank) in &r.sets[..r.n as usize] {
                        let kind = if chow { MeldKind::Chow } else { MeldKind::Pung };
                        sets.push(Set::standing(
                            kind,
                            Tile::new_unchecked((9 * g) as u8 + rank),
                        ));
                    }
                    if let Some(rank) = r.pair {
                        p = Some(Tile::new_unchecked((9 * g) as u8 + rank));
                    }
                }
                for h in honor_sets.iter() {
                    sets.push(*h);
                }
                out.push(Reading {
                    form,
                    sets,
                    pair: p,
                    pairs: PairList::EMPTY,
                    knitted,
                });
            }
        }
    }
}

/// The exhaustive search of [`standard`] within one suit (same branch order: pair, pung, chow at
/// the lowest tile), taking only steps after which the rest still splits exactly: a step with a
/// single possible choice is taken in place, the search only branches where readings differ.
/// `v` and `cur` are the search's own copies (a branch searches on copies of its own).
fn suit_search(
    t: &tables::Tables,
    mut v: [u8; 9],
    mut idx: usize,
    need_pair: bool,
    mut cur: SuitReading,
    out: &mut SuitReadings,
) {
    let pow = tables::POW5;
    let (v, cur) = (&mut v, &mut cur);
    loop {
        let Some(i) = v.iter().position(|&x| x > 0) else {
            if cur.pair.is_some() == need_pair {
                // the pair before or after a chow through the same tile reaches the same sets twice
                let dup = out.items[..out.n].iter().any(|o| {
                    o.pair == cur.pair && o.sets[..o.n as usize] == cur.sets[..cur.n as usize]
                });
                if !dup {
                    match out.items.get_mut(out.n) {
                        Some(slot) => {
                            *slot = *cur;
                            out.n += 1;
                        }
                        None => out.overflow = true,
                    }
                }
            }
            break;
        };
        let open_pair = need_pair && cur.pair.is_none();
        // flags the rest must have: 2 = sets and a pair, 1 = sets only
        let rest = if open_pair { 2 } else { 1 };
        let full = cur.n as usize >= 4;
        let pair = open_pair && v[i] >= 2 && tables::flags5(t, idx - 2 * pow[i]) & 1 != 0;
        let pung = !full && v[i] >= 3 && tables::flags5(t, idx - 3 * pow[i]) & rest != 0;
        let chow = !full
            && i <= 6
            && v[i + 1] > 0
            && v[i + 2] > 0
            && tables::flags5(t, idx - pow[i] - pow[i + 1] - pow[i + 2]) & rest != 0;
        let take_pair = |v: &mut [u8; 9], cur: &mut SuitReading| {
            v[i] -= 2;
            cur.pair = Some(i as u8);
            idx - 2 * pow[i]
        };
        let take_pung = |v: &mut [u8; 9], cur: &mut SuitReading| {
            v[i] -= 3;
            cur.sets[cur.n as usize] = (false, i as u8);
            cur.n += 1;
            idx - 3 * pow[i]
        };
        let take_chow = |v: &mut [u8; 9], cur: &mut SuitReading| {
            v[i] -= 1;
            v[i + 1] -= 1;
            v[i + 2] -= 1;
            cur.sets[cur.n as usize] = (true, i as u8);
            cur.n += 1;
            idx - pow[i] - pow[i + 1] - pow[i + 2]
        };
        match (pair, pung, chow) {
            (true, false, false) => idx = take_pair(v, cur),
            (false, true, false) => idx = take_pung(v, cur),
            (false, false, true) => idx = take_chow(v, cur),
            (false, false, false) => break, // the flags of the whole suit guarantee a way
            _ => {
                // several ways on: each on a copy, in the search's order
                for (ok, take) in [
                    (
                        pair,
                        &take_pair as &dyn Fn(&mut [u8; 9], &mut SuitReading) -> usize,
                    ),
                    (pung, &take_pung),
                    (chow, &take_chow),
                ] {
                    if ok {
                        let (mut v2, mut c2) = (*v, *cur);
                        let next = take(&mut v2, &mut c2);
                        suit_search(t, v2, next, need_pair, c2, out);
                    }
                }
                break;
            }
        }
    }
}

/// Enumerate standard decompositions of `c` (sets + exactly one pair), always consuming the lowest
/// remaining tile so that each multiset of groups is produced once (the pair may be taken before
/// or after a chow through the same tile, which reaches the same groups twice: kept once).
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

fn seven_pairs(c: &Counts, quads: bool) -> Option<PairList> {
    let mut pairs = PairList::EMPTY;
    let mut push = |t: Tile| match pairs.tiles.get_mut(pairs.len as usize) {
        Some(slot) => {
            *slot = t;
            pairs.len += 1;
            true
        }
        None => false,
    };
    for (i, &n) in c.iter().enumerate() {
        let t = Tile::new_unchecked(i as u8);
        let ok = match n {
            0 => true,
            2 => push(t),
            4 if quads => push(t) && push(t),
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    (pairs.len == 7).then_some(pairs)
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

    #[test]
    fn pruned_search_equals_exhaustive_search() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
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
            let mut declared = SetList::EMPTY;
            for m in &melds {
                declared.push(Set::from_meld(m));
            }
            standard_readings(&c, &Row::of(&c), &declared, Form::Standard, None, &mut fast);
            let slow = exhaustive(&c, &melds, Form::Standard, None);
            let a: Vec<_> = fast.iter().cloned().collect();
            let b: Vec<_> = slow.iter().cloned().collect();
            assert_eq!(a, b, "{c:?} melds {melds_n}");
            found += a.len();
        }
        assert!(found > 20_000, "{found}");
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
