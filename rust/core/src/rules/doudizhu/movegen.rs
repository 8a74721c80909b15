//! Legal moves (doudizhu.md §7.2–§7.3), enumerated from rank counts.
//!
//! The hand is turned once into four rank masks (`m[k]` = ranks held at least `k` times, one
//! `u16` each). Chains of every length are found by AND-ing shifted masks; the kickers of planes
//! and four-with-two are enumerated as multisets by a small recursion over the candidate ranks
//! with per-rank caps (the kicker rules K1–K5 of §6.6 are just those caps). A move is emitted as
//! a nibble-packed [`Cards`] value: no allocation per move, and the caller decides what to do
//! with it (collect, count, mark a mask).
//!
//! A multiset can have two readings (§6.8) only when a plane's wings hold three cards of a rank
//! next to its body; such emissions carry a `maybe_dup` flag and the collecting wrapper
//! ([`legal_moves`]) checks them against the moves already emitted, so every multiset is
//! returned once.

use super::cards::{BIG_JOKER, Cards, N_RANKS, SMALL_JOKER, TWO};
use super::moves::{Kind, Reading, single_cap};
use super::rules::{MoveRules, SingleKickers};

/// `L` nibbles of ones: `0x…111` (L ≤ 15).
#[inline]
const fn ones(l: u8) -> u64 {
    ((1u64 << (4 * l as u32)) - 1) / 15
}

/// Ranks strictly above `min` (`None`: all).
#[inline]
const fn above(min: Option<u8>) -> u16 {
    match min {
        None => 0x7FFF,
        Some(m) => !((2u32 << m) - 1) as u16 & 0x7FFF,
    }
}

/// A hand prepared for move generation.
#[derive(Clone, Copy, Debug)]
pub struct HandInfo {
    pub cards: Cards,
    pub c: [u8; N_RANKS],
    /// `m[k]`: ranks held at least `k` times (k = 1..4; `m[0]` unused).
    pub m: [u16; 5],
}

impl HandInfo {
    #[inline]
    pub fn new(cards: Cards) -> HandInfo {
        let mut m = [0u16; 5];
        for (k, mk) in m.iter_mut().enumerate().skip(1) {
            *mk = cards.mask_at_least(k as u8);
        }
        HandInfo {
            cards,
            c: cards.counts(),
            m,
        }
    }
}

/// Emission target of the generator: `(move, reading, maybe_dup)`.
pub trait Sink {
    fn emit(&mut self, cards: Cards, reading: Reading, maybe_dup: bool);
}

impl<F: FnMut(Cards, Reading, bool)> Sink for F {
    #[inline]
    fn emit(&mut self, cards: Cards, reading: Reading, maybe_dup: bool) {
        self(cards, reading, maybe_dup)
    }
}

/// Kicker enumeration: pick `k` items from candidate ranks with per-rank caps; an item of rank
/// `r` adds `unit` cards of `r`.
struct Kickers {
    ranks: [u8; N_RANKS],
    caps: [u8; N_RANKS],
    /// Suffix sums of caps (for pruning).
    room: [u8; N_RANKS + 1],
    n: usize,
    unit: u8,
    /// Both jokers may not be picked together.
    no_rocket: bool,
}

impl Kickers {
    #[inline]
    fn new(unit: u8, no_rocket: bool) -> Kickers {
        Kickers {
            ranks: [0; N_RANKS],
            caps: [0; N_RANKS],
            room: [0; N_RANKS + 1],
            n: 0,
            unit,
            no_rocket,
        }
    }
    #[inline]
    fn add(&mut self, rank: u8, cap: u8) {
        if cap > 0 {
            self.ranks[self.n] = rank;
            self.caps[self.n] = cap;
            self.n += 1;
        }
    }
    #[inline]
    fn finish(&mut self) {
        self.room[self.n] = 0;
        for i in (0..self.n).rev() {
            self.room[i] = self.room[i + 1].saturating_add(self.caps[i]);
        }
    }
    /// Call `f(kickers)` for every multiset of `k` items; `f` gets the kicker cards.
    #[inline]
    fn each(&self, k: u8, f: &mut impl FnMut(Cards)) {
        if self.room[0] >= k {
            self.rec(0, k, 0, f);
        }
    }
    fn rec(&self, i: usize, k: u8, acc: u64, f: &mut impl FnMut(Cards)) {
        if k == 0 {
            f(Cards(acc));
            return;
        }
        if i >= self.n || self.room[i] < k {
            return;
        }
        let r = self.ranks[i];
        let mut cap = self.caps[i].min(k);
        if self.no_rocket && r == BIG_JOKER && (acc >> (4 * SMALL_JOKER as u32)) & 0xF != 0 {
            cap = 0;
        }
        let step = u64::from(self.unit) << (4 * u32::from(r));
        // Take j items of rank r, most first: the kickers come out in lexicographic order of the
        // card strings.
        for j in (0..=cap).rev() {
            self.rec(i + 1, k - j, acc + step * u64::from(j), f);
        }
    }
}

struct Gen<'a, S: Sink> {
    h: &'a HandInfo,
    rules: &'a MoveRules,
    sink: &'a mut S,
}

impl<S: Sink> Gen<'_, S> {
    #[inline]
    fn chain_mask(&self) -> u16 {
        (2u16 << self.rules.chain_top) - 1
    }

    fn singles(&mut self, min: Option<u8>) {
        let mut m = self.h.m[1] & above(min);
        while m != 0 {
            let r = m.trailing_zeros() as u8;
            m &= m - 1;
            self.sink
                .emit(Cards::of(r, 1), Reading::new(Kind::Single, r, 1), false);
        }
    }

    fn groups(&mut self, kind: Kind, w: u8, min: Option<u8>) {
        let mut m = self.h.m[w as usize] & above(min) & 0x1FFF;
        while m != 0 {
            let r = m.trailing_zeros() as u8;
            m &= m - 1;
            self.sink
                .emit(Cards::of(r, w), Reading::new(kind, r, 1), false);
        }
    }

    fn rocket(&mut self) {
        if self.h.c[SMALL_JOKER as usize] > 0 && self.h.c[BIG_JOKER as usize] > 0 {
            self.sink.emit(
                Cards::of(SMALL_JOKER, 1).plus(Cards::of(BIG_JOKER, 1)),
                Reading::new(Kind::Rocket, BIG_JOKER, 1),
                false,
            );
        }
    }

    fn trio_kicker(&mut self, pair: bool, min: Option<u8>) {
        let mut t = self.h.m[3] & above(min) & 0x1FFF;
        let (kind, w) = if pair {
            (Kind::TrioPair, 2)
        } else {
            (Kind::TrioSingle, 1)
        };
        while t != 0 {
            let r = t.trailing_zeros() as u8;
            t &= t - 1;
            let trio = Cards::of(r, 3);
            let mut k = self.h.m[w as usize] & !(1u16 << r);
            while k != 0 {
                let q = k.trailing_zeros() as u8;
                k &= k - 1;
                self.sink
                    .emit(trio.plus(Cards::of(q, w)), Reading::new(kind, r, 1), false);
            }
        }
    }

    /// Bodies of `l` consecutive chain ranks held `w` times: bit `s` = a body starting at `s`.
    #[inline]
    fn starts(&self, w: u8, l: u8) -> u16 {
        let m = self.h.m[w as usize] & self.chain_mask();
        let mut a = m;
        for i in 1..l {
            a &= m >> i;
        }
        a
    }

    fn chains(&mut self, kind: Kind, w: u8, l: u8, min: Option<u8>) {
        let mut a = self.starts(w, l);
        if let Some(mn) = min {
            // top = s + l − 1 > mn  ⇔  s ≥ mn + 2 − l
            let first = (i32::from(mn) + 2 - i32::from(l)).max(0) as u32;
            a &= !((1u32 << first) - 1) as u16;
        }
        let unit = ones(l) * u64::from(w);
        while a != 0 {
            let s = a.trailing_zeros() as u8;
            a &= a - 1;
            self.sink.emit(
                Cards(unit << (4 * u32::from(s))),
                Reading::new(kind, s + l - 1, l),
                false,
            );
        }
    }

    fn planes(&mut self, pair: bool, l: u8, min: Option<u8>) {
        let mut a = self.starts(3, l);
        if let Some(mn) = min {
            let first = (i32::from(mn) + 2 - i32::from(l)).max(0) as u32;
            a &= !((1u32 << first) - 1) as u16;
        }
        let rules = *self.rules;
        while a != 0 {
            let s = a.trailing_zeros() as u8;
            a &= a - 1;
            let e = s + l - 1;
            let body = Cards((ones(l) * 3) << (4 * u32::from(s)));
            let reading = Reading::new(
                if pair {
                    Kind::PlanePair
                } else {
                    Kind::PlaneSingle
                },
                e,
                l,
            );
            if pair {
                let mut ks = Kickers::new(2, false);
                for r in 0..=TWO {
                    if (s..=e).contains(&r) {
                        continue;
                    }
                    let c = self.h.c[r as usize];
                    let cap = if c == 4 && rules.wing_pair_same_rank {
                        2
                    } else {
                        u8::from(c >= 2)
                    };
                    ks.add(r, cap);
                }
                ks.finish();
                let sink = &mut *self.sink;
                ks.each(l, &mut |w: Cards| sink.emit(body.plus(w), reading, false));
            } else {
                let mut ks = Kickers::new(1, !rules.kicker_rocket);
                for r in 0..N_RANKS as u8 {
                    let c = self.h.c[r as usize];
                    if c == 0 {
                        continue;
                    }
                    if (s..=e).contains(&r) {
                        if rules.wing_main_rank {
                            ks.add(r, c - 3);
                        }
                        continue;
                    }
                    ks.add(r, c.min(single_cap(&rules, r, s, e, true)));
                }
                ks.finish();
                let top = rules.chain_top;
                let wmr = rules.wing_main_rank;
                let sink = &mut *self.sink;
                ks.each(l, &mut |w: Cards| {
                    // A second reading needs three wing cards of a chain rank next to the body.
                    let adj_lo = s > 0 && w.count(s - 1) >= 3;
                    let adj_hi = e < top && w.count(e + 1) >= 3;
                    let dup = adj_lo || adj_hi || (wmr && !overlap_zero(w, s, e));
                    sink.emit(body.plus(w), reading, dup);
                });
            }
        }
    }

    fn four_two(&mut self, pair: bool, min: Option<u8>) {
        let rules = *self.rules;
        let mut q = self.h.m[4] & above(min) & 0x1FFF;
        while q != 0 {
            let r = q.trailing_zeros() as u8;
            q &= q - 1;
            let four = Cards::of(r, 4);
            if pair {
                let reading = Reading::new(Kind::FourTwoPair, r, 1);
                let mut ks = Kickers::new(2, false);
                for x in 0..=TWO {
                    let c = self.h.c[x as usize];
                    if x == r {
                        continue;
                    }
                    let cap = if c == 4 && rules.four_two_pair_same_rank {
                        2
                    } else {
                        u8::from(c >= 2)
                    };
                    ks.add(x, cap);
                }
                ks.finish();
                let sink = &mut *self.sink;
                let same = rules.four_two_pair_same_rank;
                ks.each(2, &mut |w: Cards| {
                    // 4444 + 55 55 is also 5555 + 44 44.
                    let dup = same && w.iter().any(|(_, c)| c == 4);
                    sink.emit(four.plus(w), reading, dup);
                });
            } else {
                let reading = Reading::new(Kind::FourTwoSingle, r, 1);
                let mut ks = Kickers::new(1, !rules.kicker_rocket);
                let cap = if rules.single_kickers == SingleKickers::Distinct {
                    1
                } else {
                    2
                };
                for x in 0..N_RANKS as u8 {
                    if x != r {
                        ks.add(x, self.h.c[x as usize].min(cap));
                    }
                }
                ks.finish();
                let sink = &mut *self.sink;
                ks.each(2, &mut |w: Cards| sink.emit(four.plus(w), reading, false));
            }
        }
    }

    fn kind(&mut self, kind: Kind, len: Option<u8>, min: Option<u8>) {
        let lens = |k: Kind| {
            let (a, b) = k.lengths();
            match len {
                Some(l) => (l, l),
                None => (a, b),
            }
        };
        match kind {
            Kind::Single => self.singles(min),
            Kind::Pair => self.groups(Kind::Pair, 2, min),
            Kind::Trio => self.groups(Kind::Trio, 3, min),
            Kind::Bomb => self.groups(Kind::Bomb, 4, min),
            Kind::Rocket => self.rocket(),
            Kind::TrioSingle => self.trio_kicker(false, min),
            Kind::TrioPair => {
                if self.rules.trio_pair {
                    self.trio_kicker(true, min);
                }
            }
            Kind::Chain | Kind::PairChain | Kind::TrioChain => {
                let w = match kind {
                    Kind::Chain => 1,
                    Kind::PairChain => 2,
                    _ => 3,
                };
                let (a, b) = lens(kind);
                for l in a..=b {
                    // no body of length l: none longer either
                    if self.starts(w, l) == 0 {
                        break;
                    }
                    self.chains(kind, w, l, min);
                }
            }
            Kind::PlaneSingle | Kind::PlanePair => {
                let (a, b) = lens(kind);
                for l in a..=b {
                    if self.starts(3, l) == 0 {
                        break;
                    }
                    self.planes(kind == Kind::PlanePair, l, min);
                }
            }
            Kind::FourTwoSingle => {
                if self.rules.four_two_single {
                    self.four_two(false, min);
                }
            }
            Kind::FourTwoPair => {
                if self.rules.four_two_pair {
                    self.four_two(true, min);
                }
            }
        }
    }
}

#[inline]
fn overlap_zero(w: Cards, s: u8, e: u8) -> bool {
    (s..=e).all(|r| w.count(r) == 0)
}

/// Lead order of the kinds (trio_chain before the planes: see the module docs).
const LEAD_ORDER: [Kind; 14] = [
    Kind::Single,
    Kind::Pair,
    Kind::Trio,
    Kind::TrioSingle,
    Kind::TrioPair,
    Kind::Chain,
    Kind::PairChain,
    Kind::TrioChain,
    Kind::PlaneSingle,
    Kind::PlanePair,
    Kind::FourTwoSingle,
    Kind::FourTwoPair,
    Kind::Bomb,
    Kind::Rocket,
];

/// Emit every (move, reading) of `hand` that leads (`target = None`) or beats `target`.
/// A multiset may be emitted more than once (once per reading); only emissions flagged
/// `maybe_dup` can repeat an earlier multiset.
pub fn generate<S: Sink>(h: &HandInfo, rules: &MoveRules, target: Option<Reading>, sink: &mut S) {
    let mut g = Gen { h, rules, sink };
    match target {
        None => {
            for k in LEAD_ORDER {
                g.kind(k, None, None);
            }
        }
        Some(t) => match t.kind {
            Kind::Rocket => {}
            Kind::Bomb => {
                g.groups(Kind::Bomb, 4, Some(t.main));
                g.rocket();
            }
            k => {
                g.kind(k, Some(t.len), Some(t.main));
                g.groups(Kind::Bomb, 4, None);
                g.rocket();
            }
        },
    }
}

/// Collect the distinct legal moves of `hand` into `out` (cleared first), each with the reading
/// it is played as (the first emitted: canonical order for leads, see [`generate`]).
pub fn legal_moves_into(
    hand: Cards,
    rules: &MoveRules,
    target: Option<Reading>,
    out: &mut Vec<(Cards, Reading)>,
) {
    out.clear();
    let h = HandInfo::new(hand);
    let mut sink = |c: Cards, r: Reading, dup: bool| {
        if dup {
            if let Some(p) = out.iter().position(|(x, _)| *x == c) {
                // Keep the better reading (the canonical choice: priority, then main rank).
                let old = out[p].1;
                if (r.kind.priority(), r.main) > (old.kind.priority(), old.main) {
                    out[p].1 = r;
                }
                return;
            }
        }
        out.push((c, r));
    };
    generate(&h, rules, target, &mut sink);
}

/// The distinct legal moves (no pass) of `hand` against `target` (`None`: a lead).
pub fn legal_moves(
    hand: Cards,
    rules: &MoveRules,
    target: Option<Reading>,
) -> Vec<(Cards, Reading)> {
    let mut out = Vec::with_capacity(64);
    legal_moves_into(hand, rules, target, &mut out);
    out
}

/// Number of distinct legal moves (no pass). `scratch` only keeps the few moves that another
/// reading could repeat (12-card trio chains and flagged planes).
pub fn count_legal_moves(
    hand: Cards,
    rules: &MoveRules,
    target: Option<Reading>,
    scratch: &mut Vec<Cards>,
) -> usize {
    scratch.clear();
    let h = HandInfo::new(hand);
    let mut n = 0usize;
    let mut sink = |c: Cards, r: Reading, dup: bool| {
        if dup {
            if scratch.contains(&c) {
                return;
            }
            scratch.push(c);
        } else if r.kind == Kind::TrioChain && r.len == 4 {
            scratch.push(c);
        }
        n += 1;
    };
    generate(&h, rules, target, &mut sink);
    n
}
