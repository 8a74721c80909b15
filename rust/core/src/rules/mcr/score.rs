//! The MCR scorer: every reading of the hand (from [`crate::decompose`]), fan detection per reading
//! (mcr.md §5–§9), the exclusion walk, and the choice of the best reading.

use crate::decompose::{
    Form, PairList, Reading, Readings, Set, Shapes, decompose_row_into, knitted_tiles,
};
use crate::error::{Error, Result};
use crate::hand::{Meld, MeldKind};
use crate::situation::{Blessing, Situation, WinType};
use crate::tile::{Counts, N_KINDS, Tile};
use crate::{rows, tables};

use super::ids::*;
use super::rules::{BlessingRule, McrRules};

/// Fan counts indexed by the constants of [`super::ids`] (padded to whole 8-byte words).
pub type FanCounts = [u8; FAN_SLOTS];

/// `N_FANS` rounded up to a multiple of 8.
pub const FAN_SLOTS: usize = N_FANS.div_ceil(8) * 8;

/// The form of the chosen reading (mcr.md §4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum McrForm {
    Regular,
    SevenPairs,
    SevenShiftedPairs,
    ThirteenOrphans,
    HonorsAndKnitted,
    KnittedStraight,
    NineGates,
}

impl McrForm {
    pub const fn name(self) -> &'static str {
        match self {
            McrForm::Regular => "regular",
            McrForm::SevenPairs => "seven_pairs",
            McrForm::SevenShiftedPairs => "seven_shifted_pairs",
            McrForm::ThirteenOrphans => "thirteen_orphans",
            McrForm::HonorsAndKnitted => "honors_and_knitted",
            McrForm::KnittedStraight => "knitted_straight",
            McrForm::NineGates => "nine_gates",
        }
    }
}

/// One scored set of the chosen reading, with its concealed status after the rule of mcr.md §8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScoredSet {
    pub kind: MeldKind,
    /// Lowest tile of a chow; the tile of a pung or kong.
    pub tile: Tile,
    /// A declared meld (吃/碰/杠, concealed kongs included).
    pub declared: bool,
    /// Concealed for the 暗刻 fans (a discard-completed pung is melded).
    pub concealed: bool,
}

/// A blank set: only the filler of an inline list's unused slots.
impl Default for ScoredSet {
    fn default() -> Self {
        ScoredSet {
            kind: MeldKind::Pung,
            tile: Tile::E,
            declared: false,
            concealed: false,
        }
    }
}

/// The counted fans of an MCR score: the fans left after the exclusions (a bit per fan index of
/// [`super::ids`]) and their counts. Iterates as `(fan index, count)` in table order.
#[derive(Clone, Copy)]
pub struct McrFans {
    mask: u128,
    counts: FanCounts,
}

impl McrFans {
    /// `(fan index, count)` in table order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let mut m = self.mask;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some((i, self.counts[i]))
        })
    }
    /// How many fans counted.
    #[inline]
    pub fn len(&self) -> usize {
        self.mask.count_ones() as usize
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }
    /// The count of fan `i` (0 when it did not count).
    #[inline]
    pub fn count(&self, i: usize) -> u8 {
        if i < 128 && self.mask >> i & 1 != 0 {
            self.counts[i]
        } else {
            0
        }
    }
}

/// Equal when the same fans count the same number of times (the counts of excluded fans aside).
impl PartialEq for McrFans {
    fn eq(&self, o: &Self) -> bool {
        self.mask == o.mask && self.iter().eq(o.iter())
    }
}

impl Eq for McrFans {}

impl std::fmt::Debug for McrFans {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The sets of an MCR score's reading (at most four), on the stack; reads as a slice.
#[derive(Clone, Copy)]
pub struct ScoredSets {
    sets: [ScoredSet; 4],
    len: u8,
}

impl std::ops::Deref for ScoredSets {
    type Target = [ScoredSet];
    #[inline]
    fn deref(&self) -> &[ScoredSet] {
        &self.sets[..usize::from(self.len)]
    }
}

impl PartialEq for ScoredSets {
    fn eq(&self, o: &Self) -> bool {
        **self == **o
    }
}

impl Eq for ScoredSets {}

impl std::fmt::Debug for ScoredSets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The result of scoring one win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McrScore {
    /// `(fan index, count)` in table order; only fans with a non-zero count.
    pub fans: McrFans,
    /// Σ points × count, flowers included (基本分).
    pub total: i32,
    pub total_without_flowers: i32,
    /// Whether the hand reaches the minimum (`min_fan`, flowers per the switch).
    pub meets_minimum: bool,
    pub form: McrForm,
    /// Sets of the chosen reading (declared melds first).
    pub sets: ScoredSets,
    /// Pair of the chosen reading (十三幺: the doubled tile).
    pub pair: Option<Tile>,
    /// 七对: the seven pair tiles.
    pub pairs: PairList,
    /// 全不靠 / 组合龙: knitted rank offset per suit (0 = 147, 1 = 258, 2 = 369).
    pub knitted: Option<[u8; 3]>,
    /// The situation flags after derivation/repair (和绝张 implied, …).
    pub win_type: WinType,
    pub fourth_tile: bool,
}

// ---------------------------------------------------------------------------------------------
// small tile helpers on indices

/// `i / 9` and `i % 9 + 1` for every `u8`, as tables: one load each instead of a multiply-shift
/// (these run per set of every reading). Defined for all 256 values so that indexing by a `u8`
/// needs no bounds check.
const SUIT_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i / 9) as u8;
        i += 1;
    }
    t
};
const RANK_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i % 9 + 1) as u8;
        i += 1;
    }
    t
};

/// Suit of a kind index (0 m, 1 p, 2 s, 3 honours).
#[inline]
fn suit(i: u8) -> u8 {
    SUIT_OF[usize::from(i)]
}
/// Rank 1..=9 of a numbered kind index.
#[inline]
fn rank(i: u8) -> u8 {
    RANK_OF[usize::from(i)]
}
#[cfg(test)]
fn is_honor(i: u8) -> bool {
    i >= 27
}
#[cfg(test)]
fn is_wind(i: u8) -> bool {
    (27..31).contains(&i)
}
#[cfg(test)]
fn is_terminal(i: u8) -> bool {
    i < 27 && (i % 9 == 0 || i % 9 == 8)
}

/// Whether one suit (9 counts, chows allowed) or the honours (no chows) split into sets, plus
/// exactly one pair when `pair`.
fn group_ok(c: &mut [u8; 9], suited: bool, from: usize, pair: bool) -> bool {
    let mut i = from;
    while i < 9 && c[i] == 0 {
        i += 1;
    }
    if i == 9 {
        return !pair;
    }
    if pair && c[i] >= 2 {
        c[i] -= 2;
        let ok = group_ok(c, suited, i, false);
        c[i] += 2;
        if ok {
            return true;
        }
    }
    if c[i] >= 3 {
        c[i] -= 3;
        let ok = group_ok(c, suited, i, pair);
        c[i] += 3;
        if ok {
            return true;
        }
    }
    if suited && i <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        let ok = group_ok(c, suited, i, pair);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
        if ok {
            return true;
        }
    }
    false
}

fn group_of(c: &Counts, g: usize) -> [u8; 9] {
    let mut out = [0u8; 9];
    let n = if g == 3 { 7 } else { 9 };
    out[..n].copy_from_slice(&c[g * 9..g * 9 + n]);
    out
}

/// Formal waits (mcr.md §9) as a bit set over the 34 kinds: every kind X such that `standing + X`
/// is a regular hand (or 七对 when `seven_pairs`). Tile availability is ignored (a fifth copy
/// still counts). Stops once `limit` waits are found. Works group by group (m, p, s, honours):
/// adding X changes one group only, and the tile counts mod 3 decide which group holds the pair.
/// A suit's exactness is one lookup in the flags table ([`tables::flags5`]; adding a tile of rank
/// `r` is `+ 5^r`), except for a fifth copy, which the table does not cover (searched instead).
fn formal_waits(standing: &Counts, seven_pairs: bool, limit: u32) -> u64 {
    let t = tables::tables();
    let row = rows::Row::of(standing);
    let size = row.group_sizes();
    let index = row.suit_index5();
    let held = row.kinds_held();
    let honors = &standing[27..N_KINDS];
    let honors_ok = |extra: Option<usize>, pair: bool| honors_split(honors, extra, pair);
    // status of each untouched group: 0 = sets only, 2 = sets + pair, 1 = impossible
    let mut status = [1u8; 4];
    let (mut bad, mut pairs) = (0, 0);
    for g in 0..4 {
        status[g] = match (size[g] % 3, index.get(g)) {
            (0, Some(&i)) if tables::flags5(t, i) & 1 != 0 => 0,
            (2, Some(&i)) if tables::flags5(t, i) & 2 != 0 => 2,
            (0, None) if honors_ok(None, false) => 0,
            (2, None) if honors_ok(None, true) => 2,
            _ => 1,
        };
        bad += usize::from(status[g] == 1);
        pairs += usize::from(status[g] == 2);
    }
    // two impossible groups: one added tile cannot mend both
    if bad > 1 {
        return if seven_pairs {
            seven_pairs_wait(standing, &size)
        } else {
            0
        };
    }
    let mut out = 0u64;
    let mut found = 0;
    for (g, &sz) in size.iter().enumerate() {
        // the other groups: none impossible, and the pair elsewhere iff this one does not take it
        let own = status[g];
        let (n_bad, n_pair) = (bad - usize::from(own == 1), pairs - usize::from(own == 2));
        let need_pair = match ((sz + 1) % 3, n_bad, n_pair) {
            (2, 0, 0) => true,
            (0, 0, 1) => false,
            _ => continue,
        };
        // candidates: a held kind, or (suits) one within two ranks of a held one
        let mut near = if g == 3 {
            held >> 27 & 0x7F
        } else {
            let p = held >> (9 * g) & 0x1FF;
            (p | p << 1 | p << 2 | p >> 1 | p >> 2) & 0x1FF
        };
        while near != 0 {
            let r = near.trailing_zeros() as usize;
            near &= near - 1;
            let ok = if g == 3 {
                honors_ok(Some(r), need_pair)
            } else if standing[9 * g + r] < 4 {
                let want = if need_pair { 2 } else { 1 };
                tables::flags5(t, index[g] + tables::POW5[r]) & want != 0
            } else {
                // a fifth copy: beyond the flags table
                let mut c = group_of(standing, g);
                c[r] += 1;
                group_ok(&mut c, true, 0, need_pair)
            };
            if ok {
                out |= 1u64 << (g * 9 + r);
                found += 1;
                if found >= limit {
                    return out;
                }
            }
        }
    }
    if seven_pairs {
        out |= seven_pairs_wait(standing, &size);
    }
    out
}

/// The 七对 wait of 13 standing tiles (six pairs and a single), as a bit; else 0.
fn seven_pairs_wait(standing: &Counts, size: &[u32; 4]) -> u64 {
    if size.iter().sum::<u32>() == 13 {
        let pairs: u32 = standing.iter().map(|&n| u32::from(n / 2)).sum();
        if pairs == 6 {
            if let Some(x) = standing.iter().position(|&n| n % 2 == 1) {
                return 1u64 << x;
            }
        }
    }
    0
}

/// [`formal_waits`] by a search per group (the reference of the table-driven version): every kind X such that `standing + X`
/// is a regular hand (or 七对 when `seven_pairs`). Tile availability is ignored (a fifth copy
/// still counts). Stops once `limit` waits are found. Works group by group (m, p, s, honours):
/// adding X changes one group only, and the tile counts mod 3 decide which group holds the pair.
#[cfg(test)]
fn formal_waits_reference(standing: &Counts, seven_pairs: bool, limit: u32) -> u64 {
    let mut size = [0usize; 4];
    for (g, sz) in size.iter_mut().enumerate() {
        let end = if g == 3 { N_KINDS } else { g * 9 + 9 };
        *sz = standing[g * 9..end].iter().map(|&n| n as usize).sum();
    }
    // status of each untouched group: 0 = sets only, 2 = sets + pair, 1 = impossible
    let mut status = [1u8; 4];
    for g in 0..4 {
        let mut c = group_of(standing, g);
        status[g] = match size[g] % 3 {
            0 if group_ok(&mut c, g < 3, 0, false) => 0,
            2 if group_ok(&mut c, g < 3, 0, true) => 2,
            _ => 1,
        };
    }
    let mut out = 0u64;
    let mut found = 0;
    for (g, &sz) in size.iter().enumerate() {
        let (mut n_bad, mut n_pair) = (0, 0);
        for (h, &st) in status.iter().enumerate() {
            if h != g {
                match st {
                    0 => {}
                    2 => n_pair += 1,
                    _ => n_bad += 1,
                }
            }
        }
        let need_pair = match ((sz + 1) % 3, n_bad, n_pair) {
            (2, 0, 0) => true,
            (0, 0, 1) => false,
            _ => continue,
        };
        let base = group_of(standing, g);
        let width = if g == 3 { 7 } else { 9 };
        for r in 0..width {
            let near = base[r] > 0
                || (g < 3
                    && ((r >= 1 && base[r - 1] > 0)
                        || (r >= 2 && base[r - 2] > 0)
                        || (r <= 7 && base[r + 1] > 0)
                        || (r <= 6 && base[r + 2] > 0)));
            if !near {
                continue;
            }
            let mut c = base;
            c[r] += 1;
            if group_ok(&mut c, g < 3, 0, need_pair) {
                out |= 1u64 << (g * 9 + r);
                found += 1;
                if found >= limit {
                    return out;
                }
            }
        }
    }
    if seven_pairs && size.iter().sum::<usize>() == 13 {
        let pairs: u32 = standing.iter().map(|&n| u32::from(n / 2)).sum();
        if pairs == 6 {
            if let Some(x) = standing.iter().position(|&n| n % 2 == 1) {
                out |= 1u64 << x;
            }
        }
    }
    out
}

/// Exactly one bit set (no population count: this target may lack the instruction).
#[inline]
fn single_bit(x: u64) -> bool {
    x != 0 && x & (x - 1) == 0
}

/// Whether the honour counts (`extra` added once) split into pungs, plus exactly one pair when
/// `pair` (every count 0 or 3, and one 2 or 5 with a pair).
fn honors_split(honors: &[u8], extra: Option<usize>, pair: bool) -> bool {
    let mut pairs = 0;
    for (k, &x) in honors.iter().enumerate() {
        match x + u8::from(extra == Some(k)) {
            0 | 3 => {}
            2 | 5 if pair => pairs += 1,
            _ => return false,
        }
    }
    pairs == u32::from(pair)
}

/// Whether group `g` (0..3 suits, 3 honours) of `c` plus one tile of some kind other than `skip`
/// (an index within the group) splits into sets (and a pair when `pair`). `kinds` is the bit set
/// of the kinds of `c`.
fn group_completes_with_another(
    c: &Counts,
    kinds: u64,
    g: usize,
    pair: bool,
    skip: Option<usize>,
) -> bool {
    if g == 3 {
        // A copy of held kind k (a new single honour completes nothing) leaves the other kinds as
        // they are: the honours split iff the others hold 0 or 3 copies, or 2 for a pair, k then
        // holds 3, or 2 / 5 for a pair, and there are `pair` pairs in all — counted once, then
        // tested for every kind without an early exit (where it holds is as good as random).
        let honors = &c[27..N_KINDS];
        let (mut sets, mut pairs) = (0u32, 0u32);
        for &x in honors {
            sets += u32::from((x == 0) | (x == 3));
            pairs += u32::from(x == 2);
        }
        let mut ok = false;
        for (k, &x) in honors.iter().enumerate() {
            let other_sets = sets - u32::from(x == 3);
            let other_pairs = pairs - u32::from(x == 2);
            let new_pair = (x == 1) | (x == 4);
            ok |= (x > 0)
                & (Some(k) != skip)
                & (other_sets + other_pairs == 6)
                & ((x == 2) | new_pair)
                & (other_pairs + u32::from(new_pair) == u32::from(pair));
        }
        return ok;
    }
    let t = tables::tables();
    let v = &c[9 * g..9 * g + 9];
    let idx = tables::index5(v);
    let held = (kinds >> (9 * g)) as u32 & 0x1FF;
    // a kind that completes sits within two ranks of a held one
    let mut near = (held | held << 1 | held << 2 | held >> 1 | held >> 2) & 0x1FF;
    if let Some(k) = skip {
        near &= !(1 << k);
    }
    let want = if pair { 2 } else { 1 };
    // The candidate ranks one by one, stopping at the first that completes (fewer instructions
    // than a fixed loop over all nine ranks; a mispredicted exit costs less here than the extra
    // work). A fifth copy lies beyond the flags table: such a rank (rare) goes to the search.
    while near != 0 {
        let r = near.trailing_zeros() as usize;
        near &= near - 1;
        let ok = if v[r] < 4 {
            tables::flags5(t, idx + tables::POW5[r]) & want != 0
        } else {
            let mut g9 = group_of(c, g);
            g9[r] += 1;
            group_ok(&mut g9, true, 0, pair)
        };
        if ok {
            return true;
        }
    }
    false
}

/// Whether group `g` of `c` splits into sets and one pair.
fn group_splits_with_pair(c: &Counts, g: usize) -> bool {
    if g == 3 {
        return honors_split(&c[27..N_KINDS], None, true);
    }
    let idx = tables::index5(&c[9 * g..9 * g + 9]);
    tables::flags5(tables::tables(), idx) & 2 != 0
}

/// 独听 of a regular hand: whether `win` is the only formal wait (mcr.md §9) of the standing tiles
/// `pre`, when `pre` + `win` has a regular reading with its pair on `pair` — the answer of
/// `single_bit(formal_waits(pre, seven_pairs, 2))` without the search over every group. Another
/// wait X completes `pre` with every other group untouched, so it lies (a) in the winning tile's
/// group, which then splits as it does with `win`; or (b) in the pair's group, when `win` completed
/// a set of a group without the pair whose rest splits with a pair, X turning the old pair into
/// sets (a third group cannot change: two groups would hold pairs); or (c) it is the 七对 wait.
/// `full_kinds` is the bit set of the kinds of `pre` + `win`.
fn unique_wait_regular(
    pre: &Counts,
    win: u8,
    pair: u8,
    seven_pairs: bool,
    full_kinds: u64,
) -> bool {
    let (gw, gp) = (usize::from(suit(win)), usize::from(suit(pair)));
    // the kinds of `pre`: those of `pre` + `win`, less `win` when it was the only copy
    let kinds = full_kinds & !(u64::from(pre[usize::from(win)] == 0) << win);
    if group_completes_with_another(pre, kinds, gw, gw == gp, Some(usize::from(win) - 9 * gw)) {
        return false;
    }
    if gw != gp
        && group_splits_with_pair(pre, gw)
        && group_completes_with_another(pre, kinds, gp, false, None)
    {
        return false;
    }
    // six pairs and a single hold at most 7 kinds, so `pre` + `win` at most 8
    if seven_pairs && full_kinds.count_ones() <= 8 {
        let w = seven_pairs_wait_13(pre);
        if w != 0 && w != 1u64 << win {
            return false;
        }
    }
    true
}

/// [`seven_pairs_wait`] of a standing hand of any size (0 unless 13 tiles).
fn seven_pairs_wait_13(standing: &Counts) -> u64 {
    let mut size = [0u32; 4];
    size[0] = standing.iter().map(|&n| u32::from(n)).sum();
    seven_pairs_wait(standing, &size)
}

// ---------------------------------------------------------------------------------------------
// per-situation context

struct Ctx<'a> {
    rules: &'a McrRules,
    win: u8,
    self_drawn: bool,
    /// Standing tiles including the winning tile.
    full: &'a Counts,
    /// Standing tiles before the winning tile.
    pre: &'a Counts,
    /// The kinds of `full`, as bits.
    full_kinds: u64,
    no_melds: bool,
    /// All four sets are claimed melds.
    all_claimed: bool,
    prevalent: u8,
    seat: u8,
    /// Whole-hand and situation fans, identical for every reading.
    common: &'a FanCounts,
    /// The unique formal wait exists (独听).
    unique_wait: Option<bool>,
    nine_gates: bool,
}

impl Ctx<'_> {
    /// 独听, for a regular reading of the hand with its pair on `pair` (the answer does not
    /// depend on the reading: computed once).
    fn unique_wait(&mut self, pair: u8) -> bool {
        if let Some(u) = self.unique_wait {
            return u;
        }
        let u = unique_wait_regular(self.pre, self.win, pair, self.no_melds, self.full_kinds);
        self.unique_wait = Some(u);
        u
    }
}

/// Bits of the numbered kinds whose rank (1..=9) is in `ranks` (bit r − 1), in every suit.
const fn ranks(ranks: u16) -> u64 {
    let r = ranks as u64 & 0x1FF;
    r | r << 9 | r << 18
}
const NUMBERED: u64 = (1 << 27) - 1;
const TERMINALS: u64 = ranks(1 << 0 | 1 << 8);
const WINDS: u64 = 0xF << 27;
const DRAGONS: u64 = 0x7 << 31;
/// Terminals and honours (幺九).
const YAOJIU: u64 = TERMINALS | WINDS | DRAGONS;
/// 绿一色: bamboo 2 3 4 6 8 and the green dragon.
const GREEN: u64 = (0b0_1010_1110 << 18) | 1 << 32;
/// 推不倒: dots 1 2 3 4 5 8 9, bamboo 2 4 5 6 8 9, the white dragon.
const REVERSIBLE: u64 = (0b1_1001_1111 << 9) | (0b1_1011_1010 << 18) | 1 << 33;

/// Whole-hand fans (suits, tile traits, rank ranges, 四归一) from all the hand's tiles, by masks of
/// the kinds held.
#[cfg(test)]
fn whole_hand_fans(all: &Counts, kong_tiles: u64, f: &mut FanCounts) {
    let row = rows::Row::of(all);
    whole_hand_fans_of(row.kinds_held(), row.kinds_at_four(), kong_tiles, f);
}

/// [`whole_hand_fans`] from the kinds held (`m`) and the kinds at four copies (`four`), into the
/// zeroed counts `f`. Every fan is a store of its condition (no branch: which fans a hand has is
/// as good as random to a branch predictor).
fn whole_hand_fans_of(m: u64, four: u64, kong_tiles: u64, f: &mut FanCounts) {
    let hogs = four & !kong_tiles;
    f[TILE_HOG] = hogs.count_ones() as u8;
    let num = m & NUMBERED;
    let nsuits = u32::from(num & 0x1FF != 0)
        + u32::from(num >> 9 & 0x1FF != 0)
        + u32::from(num >> 18 & 0x1FF != 0);
    let (winds, dragons) = (m & WINDS != 0, m & DRAGONS != 0);
    let honors = winds || dragons;
    let only = |set: u64| num & !set == 0;
    f[ALL_GREEN] = u8::from(m & !GREEN == 0);
    f[ALL_HONORS] = u8::from(nsuits == 0);
    f[FULL_FLUSH] = u8::from(nsuits == 1 && !honors);
    f[HALF_FLUSH] = u8::from(nsuits == 1 && honors);
    f[ONE_VOIDED_SUIT] = u8::from(nsuits == 2);
    f[NO_HONORS] = u8::from(!honors);
    f[ALL_TYPES] = u8::from(nsuits == 3 && winds && dragons);
    // numbered tiles only
    let numbered = nsuits > 0 && !honors;
    let upper = only(ranks(0b1_1100_0000));
    let lower = only(ranks(0b0_0000_0111));
    f[ALL_SIMPLES] = u8::from(numbered && num & TERMINALS == 0);
    f[ALL_TERMINALS] = u8::from(numbered && only(TERMINALS));
    f[UPPER_TILES] = u8::from(numbered && upper);
    f[UPPER_FOUR] = u8::from(numbered && !upper && only(ranks(0b1_1110_0000)));
    f[MIDDLE_TILES] = u8::from(numbered && only(ranks(0b0_0011_1000)));
    f[LOWER_TILES] = u8::from(numbered && lower);
    f[LOWER_FOUR] = u8::from(numbered && !lower && only(ranks(0b0_0000_1111)));
    f[ALL_TERMINALS_AND_HONORS] = u8::from(only(TERMINALS) && nsuits > 0 && honors);
    f[REVERSIBLE_TILES] = u8::from(m & !REVERSIBLE == 0);
}

/// [`whole_hand_fans`] tile by tile (the reference of the mask version).
#[cfg(test)]
fn whole_hand_fans_reference(all: &Counts, kong_tiles: u64, f: &mut FanCounts) {
    let mut suits = [false; 3];
    let (mut winds, mut dragons) = (false, false);
    let (mut simple, mut terminal) = (true, true); // all simples / all terminals (numbered)
    let mut yaojiu = true;
    let (mut green, mut reversible) = (true, true);
    let (mut upper, mut middle, mut lower, mut gt5, mut lt5) = (true, true, true, true, true);
    for i in 0..N_KINDS as u8 {
        let n = all[i as usize];
        if n == 0 {
            continue;
        }
        if n == 4 && kong_tiles & (1u64 << i) == 0 {
            f[TILE_HOG] += 1;
        }
        if is_honor(i) {
            if is_wind(i) {
                winds = true;
            } else {
                dragons = true;
            }
            simple = false;
            terminal = false;
            upper = false;
            middle = false;
            lower = false;
            gt5 = false;
            lt5 = false;
            if i != 32 {
                green = false;
            }
            if i != 33 {
                reversible = false;
            }
            continue;
        }
        suits[suit(i) as usize] = true;
        let r = rank(i);
        if is_terminal(i) {
            simple = false;
        } else {
            terminal = false;
            yaojiu = false;
        }
        let s = suit(i);
        if !(s == 2 && matches!(r, 2 | 3 | 4 | 6 | 8)) {
            green = false;
        }
        let rev = match s {
            1 => matches!(r, 1 | 2 | 3 | 4 | 5 | 8 | 9),
            2 => matches!(r, 2 | 4 | 5 | 6 | 8 | 9),
            _ => false,
        };
        if !rev {
            reversible = false;
        }
        upper &= r >= 7;
        middle &= (4..=6).contains(&r);
        lower &= r <= 3;
        gt5 &= r >= 6;
        lt5 &= r <= 4;
    }
    let honors = winds || dragons;
    let nsuits = suits.iter().filter(|&&b| b).count();
    if green {
        f[ALL_GREEN] = 1;
    }
    if nsuits == 0 {
        f[ALL_HONORS] = 1;
    }
    if nsuits == 1 && !honors {
        f[FULL_FLUSH] = 1;
    }
    if nsuits == 1 && honors {
        f[HALF_FLUSH] = 1;
    }
    if nsuits == 2 {
        f[ONE_VOIDED_SUIT] = 1;
    }
    if !honors {
        f[NO_HONORS] = 1;
    }
    if nsuits == 3 && winds && dragons {
        f[ALL_TYPES] = 1;
    }
    if nsuits > 0 && !honors {
        if simple {
            f[ALL_SIMPLES] = 1;
        }
        if terminal {
            f[ALL_TERMINALS] = 1;
        }
        if upper {
            f[UPPER_TILES] = 1;
        } else if gt5 {
            f[UPPER_FOUR] = 1;
        }
        if middle {
            f[MIDDLE_TILES] = 1;
        }
        if lower {
            f[LOWER_TILES] = 1;
        } else if lt5 {
            f[LOWER_FOUR] = 1;
        }
    }
    if yaojiu && nsuits > 0 && honors {
        f[ALL_TERMINALS_AND_HONORS] = 1;
    }
    if reversible {
        f[REVERSIBLE_TILES] = 1;
    }
}

// ---------------------------------------------------------------------------------------------
// chow and pung combinations (套算一次, mcr.md §6.5)

/// (suit, start rank 1..7) of a chow.
type Chow = (u8, u8);

/// The 3-chow fans by suits (row: one suit, three suits, neither) and shape (column: none, the same
/// chow, 147 straight, shifted by one — or by two in one suit).
const THREE_CHOW_FANS: [[Option<usize>; 4]; 3] = [
    [
        None,
        Some(PURE_TRIPLE_CHOW),
        Some(PURE_STRAIGHT),
        Some(PURE_SHIFTED_CHOWS),
    ],
    [
        None,
        Some(MIXED_TRIPLE_CHOW),
        Some(MIXED_STRAIGHT),
        Some(MIXED_SHIFTED_CHOWS),
    ],
    [None; 4],
];

/// The 3-chow fan of three chows, by a table on the suits and shape. This is the rule;
/// [`three_chow_fan`] reads it from [`THREE_CHOW_TABLE`], built from it at compile time.
const fn three_chow_fan_rule(a: Chow, b: Chow, c: Chow) -> Option<usize> {
    let (x, z) = (min_u8(min_u8(a.1, b.1), c.1), max_u8(max_u8(a.1, b.1), c.1));
    let y = a.1 + b.1 + c.1 - x - z;
    let same = a.0 == b.0 && b.0 == c.0;
    let distinct = a.0 != b.0 && b.0 != c.0 && a.0 != c.0;
    let row = !same as usize + (!same && !distinct) as usize;
    // the shapes exclude one another, so their codes add up to the one that holds
    let triple = x == z;
    let straight = x == 1 && y == 4 && z == 7;
    let shifted = (y == x + 1 && z == y + 1) || (y == x + 2 && z == y + 2 && same);
    let shape = triple as usize + 2 * straight as usize + 3 * shifted as usize;
    THREE_CHOW_FANS[row][shape]
}

/// Chows by code: suit × 7 + start rank − 1 (three suits, start ranks 1..=7).
const N_CHOW_CODES: usize = 21;

#[inline]
fn chow_code(c: Chow) -> usize {
    usize::from(c.0) * 7 + usize::from(c.1) - 1
}

const fn chow_of_code(k: usize) -> Chow {
    ((k / 7) as u8, (k % 7 + 1) as u8)
}

const fn min_u8(p: u8, q: u8) -> u8 {
    if p < q { p } else { q }
}

const fn max_u8(p: u8, q: u8) -> u8 {
    if p > q { p } else { q }
}

/// [`three_chow_fan_rule`] of every three chows, by their codes: the fan index + 1, 0 for none.
/// (One load instead of the rule's ~60 instructions: a 4-chow reading asks for four triples.)
static THREE_CHOW_TABLE: [[[u8; N_CHOW_CODES]; N_CHOW_CODES]; N_CHOW_CODES] = {
    let mut t = [[[0u8; N_CHOW_CODES]; N_CHOW_CODES]; N_CHOW_CODES];
    let mut i = 0;
    while i < N_CHOW_CODES {
        let mut j = 0;
        while j < N_CHOW_CODES {
            let mut k = 0;
            while k < N_CHOW_CODES {
                if let Some(fan) =
                    three_chow_fan_rule(chow_of_code(i), chow_of_code(j), chow_of_code(k))
                {
                    assert!(fan < u8::MAX as usize);
                    t[i][j][k] = fan as u8 + 1;
                }
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The 3-chow fan of three chows (no sort and no jump: which chows a reading has is as good as
/// random to a branch predictor).
#[inline]
fn three_chow_fan(a: Chow, b: Chow, c: Chow) -> Option<usize> {
    let v = THREE_CHOW_TABLE[chow_code(a)][chow_code(b)][chow_code(c)];
    v.checked_sub(1).map(usize::from)
}

/// The 2-chow fans in removal order when over the cap (first removed first); the reverse order is
/// the priority of the single 2-chow fan a fourth chow may add to a 3-chow fan.
const TWO_CHOW_FANS: [usize; 4] = [
    TWO_TERMINAL_CHOWS,
    SHORT_STRAIGHT,
    MIXED_DOUBLE_CHOW,
    PURE_DOUBLE_CHOW,
];

/// The 2-chow fan of two chows as a code, 1 + its index in [`TWO_CHOW_FANS`] (0: none), for chows
/// of one suit (row 0) or two (row 1), by the distance of their start ranks (0..=6; 6 is 123 and
/// 789, 老少副).
const TWO_CHOW_CODES: [[u8; 8]; 2] = [[4, 0, 0, 2, 0, 0, 1, 0], [3, 0, 0, 0, 0, 0, 0, 0]];

/// The code (see [`TWO_CHOW_CODES`]) of the 2-chow fan of two chows: a table, not a chain of tests.
fn two_chow_code(a: Chow, b: Chow) -> usize {
    usize::from(TWO_CHOW_CODES[usize::from(a.0 != b.0)][usize::from(a.1.abs_diff(b.1) & 7)])
}

fn two_chow_fan(a: Chow, b: Chow) -> Option<usize> {
    two_chow_code(a, b).checked_sub(1).map(|k| TWO_CHOW_FANS[k])
}

fn pairwise_chows(chows: &[Chow], cap: usize, f: &mut FanCounts) {
    // by code: `cnt[1 + k]` counts `TWO_CHOW_FANS[k]`, `cnt[0]` the pairs without a fan
    let mut cnt = [0usize; 5];
    for i in 0..chows.len() {
        for j in i + 1..chows.len() {
            cnt[two_chow_code(chows[i], chows[j])] += 1;
        }
    }
    let mut total: usize = cnt[1..].iter().sum();
    while total > cap {
        let k = (1..5)
            .find(|&k| cnt[k] > 1)
            .or_else(|| (1..5).find(|&k| cnt[k] > 0));
        let Some(k) = k else { break };
        cnt[k] -= 1;
        total -= 1;
    }
    for k in 0..4 {
        f[TWO_CHOW_FANS[k]] += cnt[k + 1] as u8;
    }
}

fn chow_fans(chows: &[Chow], pair: Option<u8>, values: &[i32; N_FANS], f: &mut FanCounts) {
    match chows.len() {
        4 => {
            let mut v = [chows[0], chows[1], chows[2], chows[3]];
            v.sort_unstable();
            // 一色双龙会 / 三色双龙会 (with the pair of 5)
            if let Some(p) = pair.filter(|&p| p < 27 && rank(p) == 5) {
                let ps = suit(p);
                if v.iter().all(|c| c.0 == ps)
                    && v[0].1 == 1
                    && v[1].1 == 1
                    && v[2].1 == 7
                    && v[3].1 == 7
                {
                    f[PURE_TERMINAL_CHOWS] = 1;
                    return;
                }
                let mut ok = true;
                for s in (0..3u8).filter(|&s| s != ps) {
                    let (mut lo, mut hi, mut n) = (0, 0, 0);
                    for c in v.iter().filter(|c| c.0 == s) {
                        n += 1;
                        if c.1 == 1 {
                            lo += 1;
                        } else if c.1 == 7 {
                            hi += 1;
                        }
                    }
                    ok &= n == 2 && lo == 1 && hi == 1;
                }
                if ok {
                    f[THREE_SUITED_TERMINAL_CHOWS] = 1;
                    return;
                }
            }
            if v.iter().all(|c| c.0 == v[0].0) {
                let r = [v[0].1, v[1].1, v[2].1, v[3].1];
                if r[0] == r[3] {
                    f[QUADRUPLE_CHOW] = 1;
                    return;
                }
                let d = r[1] - r[0];
                if (d == 1 || d == 2) && r[2] - r[1] == d && r[3] - r[2] == d {
                    f[FOUR_PURE_SHIFTED_CHOWS] = 1;
                    return;
                }
            }
            // best 3-chow fan, then one 2-chow fan for the fourth chow
            let mut best: Option<(usize, usize)> = None; // (fan, index of the fourth chow)
            for skip in 0..4 {
                let [a, b, c] = others3(skip).map(|i| v[i]);
                if let Some(fan) = three_chow_fan(a, b, c)
                    && best.is_none_or(|(b, _)| values[fan] > values[b])
                {
                    best = Some((fan, skip));
                }
            }
            if let Some((fan, skip)) = best {
                f[fan] += 1;
                // the highest code is the fan of highest priority (0: none)
                let fourth = v[skip];
                let mut extra = 0;
                for (i, &c) in v.iter().enumerate() {
                    extra = extra.max(two_chow_code(fourth, c) * usize::from(i != skip));
                }
                if extra > 0 {
                    f[TWO_CHOW_FANS[extra - 1]] += 1;
                }
                return;
            }
            let mut related = [false; 4];
            for i in 0..4 {
                for j in 0..4 {
                    related[i] |= (i != j) & (two_chow_code(v[i], v[j]) != 0);
                }
            }
            let free = related.iter().filter(|&&r| !r).count();
            pairwise_chows(&v, 3usize.saturating_sub(free), f);
        }
        3 => {
            if let Some(fan) = three_chow_fan(chows[0], chows[1], chows[2]) {
                f[fan] += 1;
            } else {
                pairwise_chows(chows, 2, f);
            }
        }
        2 => {
            if let Some(fan) = two_chow_fan(chows[0], chows[1]) {
                f[fan] += 1;
            }
        }
        _ => {}
    }
}

/// The three indices of 0..4 other than `skip`.
#[inline]
fn others3(skip: usize) -> [usize; 3] {
    match skip {
        0 => [1, 2, 3],
        1 => [0, 2, 3],
        2 => [0, 1, 3],
        _ => [0, 1, 2],
    }
}

fn three_pung_fan(a: u8, b: u8, c: u8) -> Option<usize> {
    let mut v = [a, b, c];
    v.sort_unstable_by_key(|&x| (rank(x), suit(x)));
    let (sa, sb, sc) = (suit(v[0]), suit(v[1]), suit(v[2]));
    let (ra, rb, rc) = (rank(v[0]), rank(v[1]), rank(v[2]));
    let distinct = sa != sb && sb != sc && sa != sc;
    if distinct && ra == rb && rb == rc {
        return Some(TRIPLE_PUNG);
    }
    if rb == ra + 1 && rc == rb + 1 {
        if sa == sb && sb == sc {
            return Some(PURE_SHIFTED_PUNGS);
        }
        if distinct {
            return Some(MIXED_SHIFTED_PUNGS);
        }
    }
    None
}

fn double_pung(a: u8, b: u8) -> bool {
    suit(a) != suit(b) && rank(a) == rank(b)
}

/// Combination fans of the numbered pungs (三同刻, 一色/三色三节高, 一色四节高, 双同刻).
fn numbered_pung_fans(p: &[u8], values: &[i32; N_FANS], f: &mut FanCounts) {
    let n = p.len();
    if n == 4 {
        let mut v = [p[0], p[1], p[2], p[3]];
        v.sort_unstable();
        if v.iter().all(|&x| suit(x) == suit(v[0]))
            && v[1] == v[0] + 1
            && v[2] == v[1] + 1
            && v[3] == v[2] + 1
        {
            f[FOUR_PURE_SHIFTED_PUNGS] = 1;
            return;
        }
    }
    if n >= 3 {
        let mut best: Option<(usize, usize)> = None; // (fan, skipped index or n)
        for skip in 0..n {
            if n == 3 && skip > 0 {
                break;
            }
            let t = if n == 3 {
                [p[0], p[1], p[2]]
            } else {
                others3(skip).map(|i| p[i])
            };
            if let Some(fan) = three_pung_fan(t[0], t[1], t[2])
                && best.is_none_or(|(b, _)| values[fan] > values[b])
            {
                best = Some((fan, if n == 3 { n } else { skip }));
            }
        }
        if let Some((fan, skip)) = best {
            f[fan] += 1;
            if skip < n && (0..n).any(|i| i != skip && double_pung(p[skip], p[i])) {
                f[DOUBLE_PUNG] += 1;
            }
            return;
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            if double_pung(p[i], p[j]) {
                f[DOUBLE_PUNG] += 1;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// one reading

fn set_of(s: &Set) -> ScoredSet {
    ScoredSet {
        kind: s.kind,
        tile: s.tile,
        declared: s.declared,
        concealed: s.concealed,
    }
}

/// Fans of a regular or 组合龙 reading (before the exclusion walk).
/// (`f` is overwritten: the common fans, then the reading's.)
fn reading_fans(ctx: &mut Ctx, d: &Reading, buf: &mut [ScoredSet; 4], f: &mut FanCounts) {
    let rules = ctx.rules;
    *f = *ctx.common;
    let n_sets = d.sets.len().min(4);
    for (slot, s) in buf.iter_mut().zip(&d.sets) {
        *slot = set_of(s);
    }
    let sets = &mut buf[..n_sets];
    let pair = d.pair.map(|p| p.index());
    let win = ctx.win;
    let knitted = d.form == Form::KnittedStraight;
    if knitted {
        f[KNITTED_STRAIGHT] = 1;
    }
    // One pass over the sets without a branch on their kinds (the kinds of a reading follow no
    // pattern a predictor could learn): chows and pungs are written to the next free slot of
    // their list, which only advances for a set of that kind.
    let mut chows: [Chow; 4] = [(0, 0); 4];
    let mut nch = 0;
    let mut pungs = [0u8; 4];
    let mut npu = 0;
    let (mut kongs, mut ckongs, mut conc_pungs) = (0u8, 0u8, 0u8);
    // the lowest tiles of the chows (of the standing ones apart), the tiles of the pungs / kongs
    // and of the standing pungs, as bits (two pungs never share a tile: a hand holds at most four
    // copies)
    let (mut chow_bits, mut standing_chows, mut pung_bits, mut standing_pungs) = (0u64, 0, 0, 0);
    for s in sets.iter() {
        let t = s.tile.index();
        let chow = s.kind == MeldKind::Chow;
        let kong = s.kind == MeldKind::Kong;
        let bit = 1u64 << t;
        let standing = u64::from(!s.declared);
        chow_bits |= bit * u64::from(chow);
        standing_chows |= bit * (u64::from(chow) & standing);
        pung_bits |= bit * u64::from(!chow);
        standing_pungs |= bit * (u64::from(!chow & !kong) & standing);
        chows[nch.min(3)] = (suit(t), rank(t));
        nch += usize::from(chow);
        pungs[npu.min(3)] = t;
        npu += usize::from(!chow);
        kongs += u8::from(kong);
        // `&`, not `&&`: a short circuit compiles to a jump on the set's kind
        ckongs += u8::from(kong & s.concealed);
        conc_pungs += u8::from(!chow & s.concealed);
    }
    // bit 2 / 1 / 0: a standing chow starts at `win` / `win - 1` / `win - 2` (a chow starts at rank
    // 1..7 of a suit, so such a chow holds `win` in its suit; none holds an honour)
    let around_win = (standing_chows << 2) >> win;
    // mcr.md §8: a discard completing a standing pung makes it melded unless the winning tile can
    // sit in a standing chow of the same reading.
    // (computed without a jump: whether the discard lands on a pung is as good as random)
    let melded = !ctx.self_drawn & (around_win & 0b111 == 0) & (standing_pungs >> win & 1 != 0);
    // (one test, then the sets only when one is melded: fewer instructions than a pass over
    // every set for every reading)
    if melded {
        for s in sets.iter_mut() {
            // the one standing pung of the winning tile
            s.concealed &= !((s.kind == MeldKind::Pung) & !s.declared & (s.tile.index() == win));
        }
    }
    conc_pungs -= u8::from(melded);
    let pair_bit = pair.map_or(0, |p| 1u64 << p);
    let pp = pung_bits | pair_bit;
    if !knitted {
        // 全带幺: chows 123 / 789, pungs and pair terminals or honours; 全带五: chows 345 / 456 /
        // 567, pungs and pair fives; 全双刻: even pungs and pair
        let outside = chow_bits & !ranks(1 << 0 | 1 << 6) == 0 && pp & !YAOJIU == 0;
        let five = chow_bits & !ranks(0b1_1100) == 0 && pp & !ranks(1 << 4) == 0;
        f[OUTSIDE_HAND] = u8::from(outside);
        f[ALL_FIVE] = u8::from(five);
        let all_pungs = npu == 4;
        f[ALL_PUNGS] = u8::from(all_pungs);
        f[ALL_EVEN_PUNGS] = u8::from(all_pungs & (pp & !ranks(0b1010_1010) == 0));
    }
    let chow_count = nch + if knitted { 3 } else { 0 };
    f[ALL_CHOWS] = u8::from(chow_count == 4 && pair_bit & NUMBERED != 0);
    // winds and dragons
    let pungs = &pungs[..npu];
    let winds = (pung_bits & WINDS).count_ones();
    let dragons = (pung_bits & DRAGONS).count_ones();
    let pair_wind = pair_bit & WINDS != 0;
    let pair_dragon = pair_bit & DRAGONS != 0;
    if winds == 4 {
        f[BIG_FOUR_WINDS] = 1;
        if rules.enabled[BIG_FOUR_WINDS_GREEN_PAIR] && pair == Some(32) {
            f[BIG_FOUR_WINDS_GREEN_PAIR] = 1;
        }
    }
    f[LITTLE_FOUR_WINDS] = u8::from(winds == 3 && pair_wind);
    f[BIG_THREE_WINDS] = u8::from(winds == 3);
    f[BIG_THREE_DRAGONS] = u8::from(dragons == 3);
    f[LITTLE_THREE_DRAGONS] = u8::from(dragons == 2 && pair_dragon);
    f[TWO_DRAGONS_PUNGS] = u8::from(dragons == 2);
    f[DRAGON_PUNG] += dragons as u8;
    let own_winds = 1u64 << ctx.prevalent | 1u64 << ctx.seat;
    f[PREVALENT_WIND] = (pung_bits >> ctx.prevalent) as u8 & 1;
    f[SEAT_WIND] = (pung_bits >> ctx.seat) as u8 & 1;
    // 幺九刻: terminal pungs, and wind pungs other than the round's and the seat's (none with
    // 三风刻)
    let other_winds = if winds == 3 {
        0
    } else {
        pung_bits & WINDS & !own_winds
    };
    let mut yaojiu = ((pung_bits & TERMINALS) | other_winds).count_ones() as u8;
    let nine_gates = ctx.nine_gates & !knitted;
    f[NINE_GATES] = u8::from(nine_gates);
    yaojiu = yaojiu.saturating_sub(u8::from(nine_gates));
    f[PUNG_OF_TERMINALS_OR_HONORS] = yaojiu;
    // kongs
    // (as stores of 0 or 1, no jump on the counts; none of these fans is in `common`)
    let mkongs = kongs - ckongs;
    let one_each = kongs == 2 && ckongs == 1;
    let split = one_each && rules.concealed_and_melded_kong.is_none();
    f[FOUR_KONGS] = u8::from(kongs == 4);
    f[THREE_KONGS] = u8::from(kongs == 3);
    f[TWO_CONCEALED_KONGS] = u8::from(kongs == 2 && ckongs == 2);
    f[TWO_MELDED_KONGS] = u8::from(kongs == 2 && mkongs == 2);
    f[CONCEALED_KONG_AND_MELDED_KONG] = u8::from(one_each && !split);
    f[MELDED_KONG] = u8::from(split || (kongs == 1 && mkongs == 1));
    f[CONCEALED_KONG] = u8::from(split || (kongs == 1 && ckongs == 1));
    f[FOUR_CONCEALED_PUNGS] = u8::from(conc_pungs == 4);
    f[THREE_CONCEALED_PUNGS] = u8::from(conc_pungs == 3);
    f[TWO_CONCEALED_PUNGS] = u8::from(conc_pungs == 2);
    // combinations
    chow_fans(&chows[..nch], pair, &rules.values, f);
    let mut numbered = [0u8; 4];
    let mut nn = 0;
    for &t in pungs {
        // written to the next free slot, which only advances for a numbered pung
        numbered[nn.min(3)] = t;
        nn += usize::from(t < 27);
    }
    numbered_pung_fans(&numbered[..nn], &rules.values, f);
    if ctx.all_claimed && !ctx.self_drawn {
        f[MELDED_HAND] = 1;
    }
    // wait fans (mcr.md §9, §12.1): positions first, the (costlier) unique-wait test only if one
    // of them applies
    let edge = around_win & 0b101 != 0;
    let closed = around_win & 0b010 != 0;
    let single = pair == Some(win);
    if edge | closed | single {
        let wait_possible = match (knitted, pair) {
            (true, _) => knitted_wait_possible(ctx, d),
            (false, Some(p)) => ctx.unique_wait(p),
            (false, None) => single_bit(formal_waits(ctx.pre, ctx.no_melds, 2)),
        };
        if wait_possible {
            if edge {
                f[EDGE_WAIT] = 1;
            } else if closed {
                f[CLOSED_WAIT] = 1;
            } else {
                f[SINGLE_WAIT] = 1;
            }
        }
    }
}

/// 组合龙 + set + pair: may a wait fan apply (switch `knitted_straight_wait_fans`, mcr.md §12.1)?
fn knitted_wait_possible(ctx: &Ctx, d: &Reading) -> bool {
    let Some(perm) = d.knitted else { return false };
    let nine = knitted_tiles(perm);
    let win = ctx.win as usize;
    let win_knitted = nine.contains(&win);
    if win_knitted && !ctx.rules.knitted_straight_wait_fans {
        return false;
    }
    if !ctx.no_melds {
        // one meld: the pair is the only open group
        return !win_knitted || ctx.full[win] == 3;
    }
    let mut rest = *ctx.full;
    for &i in &nine {
        rest[i] -= 1;
    }
    if rest[win] == 0 {
        return false;
    }
    rest[win] -= 1;
    single_bit(formal_waits(&rest, false, 2))
}

/// Bit set of the fans with a non-zero count (sixteen counts at a time with SSE2, else eight).
#[inline]
fn mask_of(f: &FanCounts) -> u128 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature is always present.
        unsafe { mask_of_sse2(f) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        mask_of_swar(f)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn mask_of_sse2(f: &FanCounts) -> u128 {
    use std::arch::x86_64::*;
    let z = _mm_setzero_si128();
    let mut m = 0u128;
    let mut chunks = f.chunks_exact(16);
    let mut shift = 0;
    for ch in &mut chunks {
        let mut b = [0u8; 16];
        b.copy_from_slice(ch);
        let v = _mm_set_epi64x(
            i64::from_le_bytes([b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]]),
            i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        );
        let zero = _mm_movemask_epi8(_mm_cmpeq_epi8(v, z)) as u32;
        m |= u128::from(!zero & 0xFFFF) << shift;
        shift += 16;
    }
    let rest = chunks.remainder();
    let mut b = [0u8; 8];
    b[..rest.len()].copy_from_slice(rest);
    let v = _mm_cvtsi64_si128(i64::from_le_bytes(b));
    let zero = _mm_movemask_epi8(_mm_cmpeq_epi8(v, z)) as u32;
    m | u128::from(!zero & 0xFF) << shift
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn mask_of_swar(f: &FanCounts) -> u128 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut m = 0u128;
    let mut chunks = f.chunks_exact(8);
    let mut shift = 0;
    for ch in &mut chunks {
        let w = u64::from_le_bytes([ch[0], ch[1], ch[2], ch[3], ch[4], ch[5], ch[6], ch[7]]);
        // high bit of each byte = byte != 0
        let t = (((w & LOW7) + LOW7) | w) & HIGH;
        let bits = (t >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        m |= u128::from(bits) << shift;
        shift += 8;
    }
    debug_assert!(chunks.remainder().is_empty());
    m
}

/// Walk the table: a fan still present removes its `excludes` (mcr.md §5.1); a fan the switches
/// disable is dropped first (it removes nothing). Returns the mask of the fans left; the counts of
/// the removed fans stay in `f` (every later reader goes through the mask).
fn apply_exclusions(rules: &McrRules, f: &FanCounts) -> u128 {
    let mut present = mask_of(f) & rules.enabled_mask;
    // invariant: `walk` ⊆ `present` (the fans still to apply, lowest index first); a fan that
    // excludes nothing is no step. The walk goes over the low 64 fans, then the high ones, in
    // 64-bit halves (a 128-bit step costs twice the instructions): the high half of the walk,
    // taken once the low one is done, is what a 128-bit walk would hold at that point.
    let mut walk = (present & rules.excluders) as u64;
    while walk != 0 {
        let i = walk.trailing_zeros() as usize;
        present &= !rules.excludes[i];
        walk &= (walk - 1) & present as u64;
    }
    let mut walk = ((present & rules.excluders) >> 64) as u64;
    while walk != 0 {
        let i = 64 + walk.trailing_zeros() as usize;
        present &= !rules.excludes[i];
        walk &= (walk - 1) & (present >> 64) as u64;
    }
    present
}

/// The counts and mask of a reading after the exclusions, 门前清 for a self-drawn special form
/// (switch) and 无番和 when nothing is left. Only the fans of the mask count.
fn finish(ctx: &Ctx, f: &mut FanCounts, special_self: bool) -> u128 {
    let mut mask = apply_exclusions(ctx.rules, f);
    const SELF: u128 = 1u128 << SELF_DRAWN;
    if special_self && ctx.rules.special_form_fully_concealed && ctx.self_drawn && mask & SELF != 0
    {
        f[FULLY_CONCEALED_HAND] = 1;
        mask = (mask & !SELF) | (1u128 << FULLY_CONCEALED_HAND);
    }
    if mask == 0 {
        f[CHICKEN_HAND] = 1;
        mask = 1u128 << CHICKEN_HAND;
    }
    mask
}

fn total_of(rules: &McrRules, f: &FanCounts, mask: u128) -> i32 {
    // the two 64-bit halves apart: a step of a 128-bit bit walk costs twice the instructions
    let mut t = 0;
    for (half, base) in [(mask as u64, 0), ((mask >> 64) as u64, 64)] {
        let mut m = half;
        while m != 0 {
            let i = base + m.trailing_zeros() as usize;
            m &= m - 1;
            t += rules.values[i] * i32::from(f[i]);
        }
    }
    t
}

// ---------------------------------------------------------------------------------------------
// entry point

/// Validate the situation flags (mcr.md §4.2) and derive/repair them.
/// `in_melds`: the copies of the winning tile in the melds; `has_kong`: a meld is a kong (both
/// from the meld pass of [`score`], which counts every tile of the hand anyway).
fn flags(s: &Situation, rules: &McrRules, in_melds: u8, has_kong: bool) -> Result<(WinType, bool)> {
    let win = s.win_tile;
    let in_standing = s.hand.counts()[win.idx()];
    let mut wt = match s.win_type {
        WinType::AfterKongDiscard => WinType::Discard,
        w => w,
    };
    let mut fourth = s.fourth_tile;
    let repair = rules.repair_flags;
    if wt == WinType::KongReplacement && !has_kong {
        if !repair {
            return Err(Error::hand(
                "杠上开花 (self-drawn with about_kong) needs a declared kong",
            ));
        }
        wt = WinType::SelfDraw;
    }
    if wt == WinType::RobKong && in_standing + in_melds > 0 {
        if !repair {
            return Err(Error::hand(format!(
                "抢杠和: the robbed {win} is the fourth copy, so the winner cannot hold another"
            )));
        }
        wt = WinType::Discard;
    }
    if wt == WinType::RobKong && s.wall_last && !repair {
        return Err(Error::hand(
            "抢杠和 with wall_last: no kong can be added after the last tile",
        ));
    }
    if fourth && in_standing > 0 {
        if !repair {
            return Err(Error::hand(format!(
                "和绝张 (fourth_tile): {win} cannot be the last copy while the hand holds another"
            )));
        }
        fourth = false;
    }
    if in_melds == 3 && in_standing == 0 {
        fourth = true;
    }
    Ok((wt, fourth))
}

fn blessing_fan(s: &Situation, rules: &McrRules, wt: WinType) -> Result<Option<usize>> {
    let Some(b) = s.blessing else { return Ok(None) };
    if rules.blessings == BlessingRule::Off {
        return Ok(None);
    }
    let no_melds = s.hand.melds().is_empty();
    let seat = s.seat_wind;
    let sd = wt.is_self_drawn();
    let (ok, fan, why) = match (b, rules.blessings) {
        (Blessing::Heavenly, _) => (
            sd && seat == Tile::E && no_melds,
            BLESSING_OF_HEAVEN,
            "天和 needs a self-drawn win by the dealer (seat E) without melds",
        ),
        (Blessing::Earthly, BlessingRule::Lianzhong) => (
            sd && seat == Tile::S && no_melds,
            BLESSING_OF_EARTH,
            "地和 (联众) needs a self-drawn win by seat S without melds",
        ),
        (Blessing::Earthly, _) => (
            !sd && seat != Tile::E && no_melds,
            BLESSING_OF_EARTH,
            "地和 (reference8) needs a discard win by a non-dealer without melds",
        ),
        (Blessing::Human, _) => (
            seat != Tile::E && no_melds,
            BLESSING_OF_HUMAN,
            "人和 needs a non-dealer win without melds",
        ),
    };
    if !ok {
        return Err(Error::hand(why));
    }
    Ok(Some(fan))
}

/// The refusal of a win below the minimum (cold: scoring a legal win never builds it).
#[cold]
#[inline(never)]
fn below_minimum(for_min: i32, min_fan: i32) -> Error {
    Error::hand(format!(
        "诈和: {for_min} fan is below the {min_fan}-fan minimum"
    ))
}

/// The kinds (bits 0..48) with exactly four copies in `all` (three 16-byte compares with SSE2).
#[inline]
fn kinds_at_four_of(all: &[u8; 48]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature is always present.
        unsafe { kinds_at_four_sse2(all) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        kinds_at_four_scalar(all)
    }
}

/// [`kinds_at_four_of`] one byte at a time: the other architectures' path, and the reference its
/// SSE2 path is tested against.
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
fn kinds_at_four_scalar(all: &[u8; 48]) -> u64 {
    all.iter()
        .enumerate()
        .fold(0u64, |m, (k, &n)| m | u64::from(n == 4) << k)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn kinds_at_four_sse2(all: &[u8; 48]) -> u64 {
    use std::arch::x86_64::*;
    let four = _mm_set1_epi8(4);
    let mut m = 0u64;
    for (k, ch) in all.chunks_exact(16).enumerate() {
        // SAFETY: `ch` is 16 bytes; the load is unaligned.
        let v = unsafe { _mm_loadu_si128(ch.as_ptr().cast()) };
        let eq = _mm_movemask_epi8(_mm_cmpeq_epi8(v, four)) as u32 & 0xFFFF;
        m |= u64::from(eq) << (16 * k);
    }
    m
}

/// Copies a meld adds to its tile and the next two kinds, by [`MeldKind`] (chow, pung, kong).
const MELD_COPIES: [[u8; 3]; 3] = [[1, 1, 1], [3, 0, 0], [4, 0, 0]];

/// Score a win under MCR rules.
///
/// Every reading of the hand is scored; the highest total (flowers excluded) wins. Ties keep the
/// reading with 一色三同顺, then the one with 三同刻, then a regular reading over 七对, then the
/// LAST reading in [`crate::decompose::decompose`]'s enumeration order (mcr.md §7.4; this reproduces the reference
/// engine on all its corpus ties, e.g. `si-unit-051..056`, where the reading with the higher pair
/// wins).
pub fn score(s: &Situation, rules: &McrRules) -> Result<McrScore> {
    let melds = s.hand.melds();
    let win = s.win_tile.index();
    let pre = s.hand.counts();
    let mut full = *pre;
    full[win as usize] += 1;
    // all the tiles of the hand: the standing ones and the melds' copies
    // (without branches on the meld kinds: a meld adds its copies to three slots from its tile,
    // two of them zero unless a chow; `all` has spare slots for an honour's, and pads to three
    // 16-byte vectors)
    let mut all = [0u8; 48];
    all[..N_KINDS].copy_from_slice(&full);
    let mut held_melds = 0u64;
    let mut kong_tiles = 0u64;
    let mut claimed_n = 0;
    // the kinds of a meld, from its tile up
    let span = |m: &Meld| 1 | (0b110 * u64::from(m.kind == MeldKind::Chow));
    for m in melds {
        let t = m.tile.idx();
        let add = MELD_COPIES[m.kind as usize];
        all[t] += add[0];
        all[t + 1] += add[1];
        all[t + 2] += add[2];
        kong_tiles |= u64::from(m.kind == MeldKind::Kong) << t;
        claimed_n += u32::from(!m.concealed);
        held_melds |= span(m) << t;
    }
    // the copies of the winning tile in the melds (a chow holds it at most once)
    let in_melds = all[usize::from(win)] - full[usize::from(win)];
    let (wt, fourth) = flags(s, rules, in_melds, kong_tiles != 0)?;
    let blessing = blessing_fan(s, rules, wt)?;
    let self_drawn = wt.is_self_drawn();
    let Some(row) = rows::Row::load(&full) else {
        return Err(Error::hand(
            "more than four copies of a tile in the standing hand",
        ));
    };
    let mut decs = Readings::default();
    decompose_row_into(&full, &row, melds, Shapes::MCR, &mut decs)?;
    if decs.is_empty() {
        return Err(Error::hand(format!(
            "not a winning hand: {} + {}",
            s.hand, s.win_tile
        )));
    }
    // the kinds held and at four copies among all the tiles: the standing row's kinds and the
    // melds'; the kinds at four straight from `all` (standing and meld copies alike; its padding
    // stays 0: only a chow adds to the two kinds after its tile, and no chow starts at an honour)
    let held = row.kinds_held() | held_melds;
    let four = kinds_at_four_of(&all);
    let mut common = [0u8; FAN_SLOTS];
    whole_hand_fans_of(held, four, kong_tiles, &mut common);
    // the situation fans, as stores of 0 or 1 (the flags of a win are as good as random to a
    // branch predictor)
    let concealed = claimed_n == 0;
    common[SELF_DRAWN] = u8::from(self_drawn);
    common[FULLY_CONCEALED_HAND] = u8::from(concealed && self_drawn);
    common[CONCEALED_HAND] = u8::from(concealed && !self_drawn);
    common[LAST_TILE_DRAW] = u8::from(s.wall_last && self_drawn);
    common[LAST_TILE_CLAIM] = u8::from(s.wall_last && !self_drawn);
    common[OUT_WITH_REPLACEMENT_TILE] = u8::from(wt == WinType::KongReplacement);
    common[ROBBING_THE_KONG] = u8::from(wt == WinType::RobKong);
    common[LAST_TILE] = u8::from(fourth);
    if let Some(b) = blessing {
        common[b] = 1;
    }
    let nine_gates = melds.is_empty() && {
        (0..3).any(|st| {
            let base = st * 9;
            (0..9).all(|r| pre[base + r] == if r == 0 || r == 8 { 3 } else { 1 })
        })
    };
    let mut ctx = Ctx {
        rules,
        win,
        self_drawn,
        full: &full,
        pre,
        full_kinds: row.kinds_held(),
        no_melds: melds.is_empty(),
        all_claimed: claimed_n == 4,
        prevalent: s.prevalent_wind.index(),
        seat: s.seat_wind.index(),
        common: &common,
        unique_wait: None,
        nine_gates,
    };

    // Two buffers of counts and sets, used in turn: a reading is scored into slot `cur`; when it
    // becomes the best, `cur` flips, so the best reading's counts and sets stay in the other
    // slot without being copied.
    let mut fans = [[0u8; FAN_SLOTS]; 2];
    let mut sets = [[ScoredSet::default(); 4]; 2];
    let mut cur = 0usize;
    // (total without flowers, tie preference, reading index, mask) of the best reading so far
    let mut best: Option<(i32, u8, usize, u128)> = None;
    for (di, d) in decs.iter().enumerate() {
        let f = &mut fans[cur];
        let special_self = match d.form {
            Form::Standard | Form::KnittedStraight => {
                reading_fans(&mut ctx, d, &mut sets[cur], f);
                nine_gates
            }
            Form::SevenPairs => {
                *f = *ctx.common;
                let p = &d.pairs;
                let shifted = p[0].index() < 27
                    && (1..7).all(|k| {
                        p[k].index() == p[0].index() + k as u8
                            && suit(p[k].index()) == suit(p[0].index())
                    });
                if shifted {
                    f[SEVEN_SHIFTED_PAIRS] = 1;
                } else {
                    f[SEVEN_PAIRS] = 1;
                }
                shifted
            }
            Form::ThirteenOrphans => {
                *f = *ctx.common;
                f[THIRTEEN_ORPHANS] = 1;
                true
            }
            Form::HonorsKnitted => {
                *f = *ctx.common;
                if (27..34).all(|i| full[i] == 1) {
                    f[GREATER_HONORS_AND_KNITTED_TILES] = 1;
                } else {
                    f[LESSER_HONORS_AND_KNITTED_TILES] = 1;
                }
                if let Some(perm) = d.knitted
                    && knitted_tiles(perm).iter().all(|&i| full[i] > 0)
                {
                    f[KNITTED_STRAIGHT] = 1;
                }
                false
            }
        };
        let mask = finish(&ctx, f, special_self);
        let total = total_of(rules, f, mask & !(1u128 << FLOWER_TILES));
        // tie preference: 一色三同顺 > 三同刻 > regular over 七对 > later in enumeration order
        let pref = if mask & 1u128 << PURE_TRIPLE_CHOW != 0 {
            3
        } else if mask & 1u128 << TRIPLE_PUNG != 0 {
            2
        } else if d.form != Form::SevenPairs {
            1
        } else {
            0
        };
        let better = match &best {
            None => true,
            Some((bt, bp, ..)) => total > *bt || (total == *bt && pref >= *bp),
        };
        if better {
            best = Some((total, pref, di, mask));
            cur ^= 1;
        }
    }
    let Some((total_nf, _, di, mut mask)) = best else {
        return Err(Error::hand("not a winning hand"));
    };
    // the best reading's slot, completed where it lies (copied once, into the result)
    let b = cur ^ 1;
    fans[b][FLOWER_TILES] = s.flowers;
    mask &= !(1u128 << FLOWER_TILES);
    if s.flowers > 0 {
        mask |= 1u128 << FLOWER_TILES;
    }
    let has = |i: usize| mask & 1u128 << i != 0;
    let total = total_nf + rules.values[FLOWER_TILES] * s.flowers as i32;
    let for_min = if rules.flowers_count_toward_minimum {
        total
    } else {
        total_nf
    };
    let meets_minimum = for_min >= rules.min_fan;
    // one compare against a selected bound (`require_minimum && !meets_minimum` compiled to a
    // jump on `meets_minimum` first, which is as good as random)
    let bound = if rules.require_minimum {
        rules.min_fan
    } else {
        i32::MIN
    };
    if for_min < bound {
        return Err(below_minimum(for_min, rules.min_fan));
    }
    let d = &decs[di];
    let form = match d.form {
        _ if has(NINE_GATES) => McrForm::NineGates,
        Form::Standard => McrForm::Regular,
        Form::SevenPairs if has(SEVEN_SHIFTED_PAIRS) => McrForm::SevenShiftedPairs,
        Form::SevenPairs => McrForm::SevenPairs,
        Form::ThirteenOrphans => McrForm::ThirteenOrphans,
        Form::HonorsKnitted => McrForm::HonorsAndKnitted,
        Form::KnittedStraight => McrForm::KnittedStraight,
    };
    Ok(McrScore {
        fans: McrFans {
            mask,
            counts: fans[b],
        },
        total,
        total_without_flowers: total_nf,
        meets_minimum,
        form,
        sets: ScoredSets {
            sets: sets[b],
            len: d.sets.len().min(4) as u8,
        },
        pair: d.pair,
        pairs: d.pairs,
        knitted: d.knitted,
        win_type: wt,
        fourth_tile: fourth,
    })
}

/// The formal waits of the 13-tile hand before the winning tile (mcr.md §9): every kind that
/// completes a regular hand (or 七对 without melds), availability ignored.
pub fn formal_waits_of(s: &Situation) -> Vec<Tile> {
    let w = formal_waits(s.hand.counts(), s.hand.melds().is_empty(), N_KINDS as u32);
    (0..N_KINDS as u8)
        .filter(|&i| w & (1u64 << i) != 0)
        .map(Tile::new_unchecked)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mask version of the whole-hand fans equals the tile-by-tile one.
    #[test]
    fn whole_hand_fans_equal_the_loop() {
        let mut next = crate::test_util::xorshift(7);
        for iter in 0..50_000 {
            let mut c = [0u8; N_KINDS];
            let (base, kinds) = [
                (0, 34),
                (0, 9),
                (18, 9),
                (9, 18),
                (27, 7),
                (18, 16),
                (0, 27),
            ][iter % 7];
            let mut k = 0;
            while k < 14 {
                let t = base + next(kinds) as usize;
                if c[t] < 4 {
                    c[t] += 1;
                    k += 1;
                }
            }
            let kongs = (0..N_KINDS)
                .filter(|&i| c[i] == 4 && next(2) == 0)
                .fold(0u64, |m, i| m | 1 << i);
            let (mut a, mut b) = ([0u8; FAN_SLOTS], [0u8; FAN_SLOTS]);
            whole_hand_fans(&c, kongs, &mut a);
            whole_hand_fans_reference(&c, kongs, &mut b);
            assert_eq!(a, b, "{c:?}");
        }
    }

    /// 独听 from the shape of a regular hand equals the count of the formal waits, for every
    /// winning tile of random complete hands (0..4 melds aside, quads, flushes, honours).
    #[test]
    fn unique_wait_equals_the_formal_waits() {
        let mut next = crate::test_util::xorshift(12345);
        let (mut checked, mut unique) = (0, 0);
        for _ in 0..150_000 {
            let melds = next(5) as usize;
            let suits = 1 + next(3);
            let kind = |next: &mut dyn FnMut(u64) -> u64| -> usize {
                if next(5) == 0 {
                    27 + next(7) as usize
                } else {
                    9 * next(suits) as usize + next(9) as usize
                }
            };
            let mut full = [0u8; N_KINDS];
            let mut sets = 0;
            let mut tries = 0;
            while sets < 4 - melds && tries < 50 {
                tries += 1;
                let t = kind(&mut next);
                let mut c = full;
                if t < 27 && t % 9 <= 6 && next(3) != 0 {
                    for n in &mut c[t..t + 3] {
                        *n += 1;
                    }
                } else {
                    c[t] += 3;
                }
                if c.iter().all(|&n| n <= 4) {
                    full = c;
                    sets += 1;
                }
            }
            let pair = kind(&mut next);
            if sets < 4 - melds || full[pair] > 2 {
                continue;
            }
            full[pair] += 2;
            for w in 0..N_KINDS {
                if full[w] == 0 {
                    continue;
                }
                let mut pre = full;
                pre[w] -= 1;
                let want = single_bit(formal_waits(&pre, melds == 0, 2));
                let kinds = (0..N_KINDS)
                    .filter(|&k| full[k] > 0)
                    .fold(0u64, |m, k| m | 1 << k);
                let got = unique_wait_regular(&pre, w as u8, pair as u8, melds == 0, kinds);
                assert_eq!(got, want, "{pre:?} + {w}, pair {pair}, melds {melds}");
                checked += 1;
                unique += usize::from(got);
            }
        }
        assert!(checked > 500_000 && unique > 50_000, "{checked} {unique}");
    }

    /// The table-driven formal waits equal the per-group search on random 13-tile hands (and on
    /// ready hands, with quads and fifth copies).
    #[test]
    fn formal_waits_equal_the_search() {
        let mut next = crate::test_util::xorshift(99);
        let mut nonempty = 0;
        for iter in 0..40_000 {
            let kinds = [9, 18, 34, 16][iter % 4];
            let base = if kinds == 16 { 18 } else { 0 };
            let size = [13, 10, 7, 4, 1][iter % 5];
            let mut c = [0u8; N_KINDS];
            if iter % 2 == 0 {
                // ready: sets and a pair minus one tile
                for _ in 0..size / 3 {
                    let t = base + next(kinds) as usize;
                    if t < 27 && t % 9 <= 6 && next(2) == 0 {
                        (0..3).for_each(|k| c[t + k] += 1);
                    } else {
                        c[t] += 3;
                    }
                }
                c[base + next(kinds) as usize] += 1;
                if c.iter().any(|&x| x > 4) {
                    continue;
                }
            } else {
                let mut k = 0;
                while k < size {
                    let t = base + next(kinds) as usize;
                    if c[t] < 4 {
                        c[t] += 1;
                        k += 1;
                    }
                }
            }
            for (sp, limit) in [(true, 2), (false, 2), (true, 34), (false, 34)] {
                let want = formal_waits_reference(&c, sp, limit);
                assert_eq!(formal_waits(&c, sp, limit), want, "{c:?} {sp} {limit}");
                nonempty += usize::from(want != 0);
            }
        }
        assert!(nonempty > 20_000, "{nonempty}");
    }

    /// The exclusion walk through the excluding fans only leaves the fans the walk through every
    /// present fan leaves, on random fan sets (dense and sparse) under two switch sets.
    #[test]
    fn exclusion_walk_skips_only_idle_steps() {
        let mut next = crate::test_util::xorshift(31);
        let lianzhong = crate::Variant::with_options(
            "mcr",
            [
                (
                    "blessings",
                    crate::preset::SwitchValue::Str("lianzhong".into()),
                ),
                (
                    "concealed_and_melded_kong",
                    crate::preset::SwitchValue::Str("off".into()),
                ),
            ],
        )
        .unwrap();
        let default = crate::Variant::load("mcr").unwrap();
        for v in [&default, &lianzhong] {
            let rules = super::super::rules_of(v).unwrap();
            for iter in 0..20_000 {
                let mut f = [0u8; FAN_SLOTS];
                let density = [3, 10, 30, 60][iter % 4];
                for c in f.iter_mut().take(N_FANS) {
                    if next(100) < density {
                        *c = 1 + next(3) as u8;
                    }
                }
                let mut present = mask_of(&f) & rules.enabled_mask;
                let mut walk = present;
                while walk != 0 {
                    let i = walk.trailing_zeros() as usize;
                    present &= !rules.excludes[i];
                    walk &= (walk - 1) & present;
                }
                assert_eq!(apply_exclusions(rules, &f), present, "{f:?}");
            }
        }
    }

    #[test]
    fn mask_of_matches_the_counts() {
        let mut f = [0u8; FAN_SLOTS];
        for i in [0usize, 7, 8, 63, 64, 65, 80, 85] {
            f[i] = 3;
        }
        let m = mask_of(&f);
        for (i, &c) in f.iter().enumerate() {
            assert_eq!(m >> i & 1 == 1, c != 0, "{i}");
        }
        assert_eq!(mask_of_swar(&f), m);
    }

    #[test]
    fn kinds_at_four_matches_the_scalar_path() {
        // every count 0..=4 in every slot, among counts that differ from slot to slot
        let mut next = crate::test_util::xorshift(0x9E37_79B9_7F4A_7C15);
        for round in 0..2_000 {
            let mut all = [0u8; 48];
            for (k, c) in all.iter_mut().enumerate() {
                *c = if round < 48 && k == round {
                    4
                } else {
                    next(5) as u8
                };
            }
            let m = kinds_at_four_of(&all);
            assert_eq!(m, kinds_at_four_scalar(&all), "{all:?}");
            for (k, &c) in all.iter().enumerate() {
                assert_eq!(m >> k & 1 == 1, c == 4, "slot {k} of {all:?}");
            }
        }
    }
}
