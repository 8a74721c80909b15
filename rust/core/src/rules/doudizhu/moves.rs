//! Card types (牌型), readings, classification and comparison (doudizhu.md §6–§7).

use std::fmt;

use crate::error::{Error, Result};

use super::cards::{BIG_JOKER, Cards, N_RANKS, RANK_CODES, SMALL_JOKER, TWO, rank_of};
use super::rules::{MoveRules, SingleKickers};

/// A card type (§6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    Single = 0,
    Pair,
    Trio,
    Bomb,
    Rocket,
    TrioSingle,
    TrioPair,
    Chain,
    PairChain,
    TrioChain,
    PlaneSingle,
    PlanePair,
    FourTwoSingle,
    FourTwoPair,
}

/// Every kind, in index order.
pub const KINDS: [Kind; 14] = [
    Kind::Single,
    Kind::Pair,
    Kind::Trio,
    Kind::Bomb,
    Kind::Rocket,
    Kind::TrioSingle,
    Kind::TrioPair,
    Kind::Chain,
    Kind::PairChain,
    Kind::TrioChain,
    Kind::PlaneSingle,
    Kind::PlanePair,
    Kind::FourTwoSingle,
    Kind::FourTwoPair,
];

impl Kind {
    /// The spec's id (`single`, `plane_single`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Trio => "trio",
            Kind::Bomb => "bomb",
            Kind::Rocket => "rocket",
            Kind::TrioSingle => "trio_single",
            Kind::TrioPair => "trio_pair",
            Kind::Chain => "chain",
            Kind::PairChain => "pair_chain",
            Kind::TrioChain => "trio_chain",
            Kind::PlaneSingle => "plane_single",
            Kind::PlanePair => "plane_pair",
            Kind::FourTwoSingle => "four_two_single",
            Kind::FourTwoPair => "four_two_pair",
        }
    }
    /// The Chinese name.
    pub const fn zh(self) -> &'static str {
        match self {
            Kind::Single => "单牌",
            Kind::Pair => "对牌",
            Kind::Trio => "三张牌",
            Kind::Bomb => "炸弹",
            Kind::Rocket => "火箭",
            Kind::TrioSingle => "三带一",
            Kind::TrioPair => "三带二",
            Kind::Chain => "单顺",
            Kind::PairChain => "双顺",
            Kind::TrioChain => "三顺",
            Kind::PlaneSingle => "飞机带单翅膀",
            Kind::PlanePair => "飞机带对翅膀",
            Kind::FourTwoSingle => "四带二",
            Kind::FourTwoPair => "四带两对",
        }
    }
    pub fn parse(name: &str) -> Result<Kind> {
        KINDS
            .iter()
            .copied()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                Error::hand(format!(
                    "unknown card type {name:?}; types: {}",
                    KINDS.map(Kind::name).join(", ")
                ))
            })
    }
    /// Whether the kind has a chain length (`len` may differ from 1).
    pub const fn is_chain(self) -> bool {
        matches!(
            self,
            Kind::Chain | Kind::PairChain | Kind::TrioChain | Kind::PlaneSingle | Kind::PlanePair
        )
    }
    /// The allowed chain lengths.
    pub const fn lengths(self) -> (u8, u8) {
        match self {
            Kind::Chain => (5, 12),
            Kind::PairChain => (3, 10),
            Kind::TrioChain => (2, 6),
            Kind::PlaneSingle => (2, 5),
            Kind::PlanePair => (2, 4),
            _ => (1, 1),
        }
    }
    /// Number of cards of a move of this kind and length.
    pub const fn cards(self, len: u8) -> u8 {
        match self {
            Kind::Single => 1,
            Kind::Pair | Kind::Rocket => 2,
            Kind::Trio => 3,
            Kind::Bomb | Kind::TrioSingle => 4,
            Kind::TrioPair => 5,
            Kind::Chain => len,
            Kind::PairChain => 2 * len,
            Kind::TrioChain => 3 * len,
            Kind::PlaneSingle => 4 * len,
            Kind::PlanePair => 5 * len,
            Kind::FourTwoSingle => 6,
            Kind::FourTwoPair => 8,
        }
    }
    /// Priority of the canonical reading (§6.8): rocket 3 > bomb 2 > trio_chain 1 > others 0.
    pub const fn priority(self) -> u8 {
        match self {
            Kind::Rocket => 3,
            Kind::Bomb => 2,
            Kind::TrioChain => 1,
            _ => 0,
        }
    }
}

/// One reading of a move: type, main rank (the rank that decides comparisons) and chain length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reading {
    pub kind: Kind,
    pub main: u8,
    pub len: u8,
}

impl Reading {
    pub const fn new(kind: Kind, main: u8, len: u8) -> Reading {
        Reading { kind, main, len }
    }

    /// Whether this reading beats `other` (§7.1).
    #[inline]
    pub fn beats(self, other: Reading) -> bool {
        if other.kind == Kind::Rocket {
            return false;
        }
        match self.kind {
            Kind::Rocket => true,
            Kind::Bomb => other.kind != Kind::Bomb || self.main > other.main,
            _ => {
                other.kind != Kind::Bomb
                    && self.kind == other.kind
                    && self.len == other.len
                    && self.main > other.main
            }
        }
    }

    /// Sort key of readings: canonical first (priority, then main), then kind order, then main.
    fn order_key(self) -> (u8, u8, u8, u8) {
        (
            3 - self.kind.priority(),
            self.kind as u8,
            self.main,
            self.len,
        )
    }

    /// Number of cards.
    pub const fn n_cards(self) -> u8 {
        self.kind.cards(self.len)
    }

    /// Parse a `[type, main rank code, length]` triple.
    pub fn from_parts(kind: &str, main: &str, len: i64) -> Result<Reading> {
        let k = Kind::parse(kind)?;
        let m = match main.as_bytes() {
            [b] => rank_of(*b),
            _ => None,
        }
        .ok_or_else(|| Error::tile(main, "the main rank is one card code 3..9 T J Q K A 2 x X"))?;
        let (lo, hi) = k.lengths();
        let l = u8::try_from(len)
            .ok()
            .filter(|l| (lo..=hi).contains(l))
            .ok_or_else(|| {
                Error::hand(format!(
                    "length {len} is impossible for {}: {lo}..={hi}",
                    k.name()
                ))
            })?;
        Ok(Reading::new(k, m, l))
    }

    /// The main rank's code.
    pub fn main_code(self) -> char {
        RANK_CODES[self.main as usize] as char
    }
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}({}, {})",
            self.kind.name(),
            self.main_code(),
            self.len
        )
    }
}

/// A short list of readings (a multiset has at most a handful).
#[derive(Clone, Copy, Debug, Default)]
pub struct Readings {
    buf: [Option<Reading>; 8],
    n: usize,
}

impl Readings {
    fn push(&mut self, r: Reading) {
        if self.n < self.buf.len() {
            self.buf[self.n] = Some(r);
            self.n += 1;
        }
    }
    pub fn len(&self) -> usize {
        self.n
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = Reading> + '_ {
        self.buf[..self.n].iter().flatten().copied()
    }
    /// The canonical reading (§6.8): the first in order (max priority, then max main).
    pub fn canonical(&self) -> Option<Reading> {
        self.iter()
            .max_by_key(|r| (r.kind.priority(), r.main, 255 - r.kind as u8))
    }
    pub fn contains(&self, r: Reading) -> bool {
        self.iter().any(|x| x == r)
    }
    fn sort(&mut self) {
        self.buf[..self.n].sort_by_key(|r| r.map(Reading::order_key));
    }
    pub fn to_vec(&self) -> Vec<Reading> {
        self.iter().collect()
    }
}

/// Per-rank cap of single kickers (K3, K5) for a plane body `lo..=hi` (or a four at `lo == hi`
/// with `plane == false`).
#[inline]
pub(crate) fn single_cap(rules: &MoveRules, r: u8, lo: u8, hi: u8, plane: bool) -> u8 {
    let base = if rules.kicker_bomb { 4 } else { 3 };
    match rules.single_kickers {
        SingleKickers::Any => base,
        SingleKickers::NoTriple => 2,
        SingleKickers::Distinct => 1,
        SingleKickers::NoAdjacentTriple => {
            if plane && ((lo > 0 && r == lo - 1) || (r == hi + 1 && r < TWO)) {
                2
            } else {
                base
            }
        }
    }
}

/// Whether `wings` are valid single wings for a plane body `lo..=hi` (K1–K3, K5); the 4th card
/// of a body rank is allowed only with `wing_main_rank`.
fn plane_single_wings_ok(rules: &MoveRules, wings: Cards, lo: u8, hi: u8) -> bool {
    if !rules.kicker_rocket && wings.count(SMALL_JOKER) + wings.count(BIG_JOKER) == 2 {
        return false;
    }
    for (r, c) in wings.iter() {
        if (lo..=hi).contains(&r) {
            if !rules.wing_main_rank || c > 1 {
                return false;
            }
        } else if c > single_cap(rules, r, lo, hi, true) {
            return false;
        }
    }
    true
}

/// Every reading of a multiset under `rules`, canonical first (§6.8 order: priority, then kind,
/// then main rank).
pub fn readings(cards: Cards, rules: &MoveRules) -> Readings {
    let mut out = Readings::default();
    let n = cards.len();
    if n == 0 || n > 20 || !cards.fits_pack() {
        return out;
    }
    let c = cards.counts();
    let distinct = c.iter().filter(|&&x| x > 0).count();
    let lo = c.iter().position(|&x| x > 0).unwrap_or(0) as u8;
    let hi = (N_RANKS - 1 - c.iter().rev().position(|&x| x > 0).unwrap_or(0)) as u8;
    let top = rules.chain_top;

    // One rank only.
    if distinct == 1 {
        match n {
            1 => out.push(Reading::new(Kind::Single, lo, 1)),
            2 => out.push(Reading::new(Kind::Pair, lo, 1)),
            3 => out.push(Reading::new(Kind::Trio, lo, 1)),
            4 => out.push(Reading::new(Kind::Bomb, lo, 1)),
            _ => {}
        }
    }
    if n == 2 && c[SMALL_JOKER as usize] == 1 && c[BIG_JOKER as usize] == 1 {
        out.push(Reading::new(Kind::Rocket, BIG_JOKER, 1));
    }
    // Trio + kicker.
    if distinct == 2 {
        for r in [lo, hi] {
            let other = if r == lo { hi } else { lo };
            if c[r as usize] == 3 && n == 4 {
                out.push(Reading::new(Kind::TrioSingle, r, 1));
            }
            if c[r as usize] == 3 && c[other as usize] == 2 && rules.trio_pair {
                out.push(Reading::new(Kind::TrioPair, r, 1));
            }
        }
    }
    // Chains: every present rank has the same count w, consecutive, within 3..top.
    let run = (hi - lo + 1) as usize == distinct && hi <= top;
    if run {
        let w = c[lo as usize];
        if (lo..=hi).all(|r| c[r as usize] == w) {
            let l = distinct as u8;
            let kind = match w {
                1 => Some(Kind::Chain),
                2 => Some(Kind::PairChain),
                3 => Some(Kind::TrioChain),
                _ => None,
            };
            if let Some(k) = kind {
                let (a, b) = k.lengths();
                if (a..=b).contains(&l) {
                    out.push(Reading::new(k, hi, l));
                }
            }
        }
    }
    // Planes with single wings: n = 4L.
    if n % 4 == 0 {
        let l = (n / 4) as u8;
        if (2..=5).contains(&l) {
            for s in 0..=top.saturating_sub(l - 1) {
                let e = s + l - 1;
                if e > top || !(s..=e).all(|r| c[r as usize] >= 3) {
                    continue;
                }
                let body = (s..=e).fold(Cards::EMPTY, |a, r| a.plus(Cards::of(r, 3)));
                let wings = cards.minus(body);
                if plane_single_wings_ok(rules, wings, s, e) {
                    out.push(Reading::new(Kind::PlaneSingle, e, l));
                }
            }
        }
    }
    // Planes with pair wings: n = 5L.
    if n % 5 == 0 {
        let l = (n / 5) as u8;
        if (2..=4).contains(&l) {
            for s in 0..=top.saturating_sub(l - 1) {
                let e = s + l - 1;
                if e > top || !(s..=e).all(|r| c[r as usize] == 3) {
                    continue;
                }
                let mut pairs = 0u8;
                let mut ok = true;
                for (r, &x) in c.iter().enumerate() {
                    let r = r as u8;
                    if (s..=e).contains(&r) || x == 0 {
                        continue;
                    }
                    match x {
                        2 => pairs += 1,
                        4 if rules.wing_pair_same_rank => pairs += 2,
                        _ => ok = false,
                    }
                }
                if ok && pairs == l {
                    out.push(Reading::new(Kind::PlanePair, e, l));
                }
            }
        }
    }
    // Four with two.
    if n == 6 && rules.four_two_single {
        for q in 0..TWO + 1 {
            if c[q as usize] != 4 {
                continue;
            }
            let k = cards.minus(Cards::of(q, 4));
            let jokers = k.count(SMALL_JOKER) + k.count(BIG_JOKER);
            let pair = k.iter().any(|(_, x)| x == 2);
            let rocket_ok = jokers < 2 || rules.kicker_rocket;
            let pair_ok = !pair || rules.single_kickers != SingleKickers::Distinct;
            let ok = rocket_ok && pair_ok;
            if ok {
                out.push(Reading::new(Kind::FourTwoSingle, q, 1));
            }
        }
    }
    if n == 8 && rules.four_two_pair {
        for q in 0..TWO + 1 {
            if c[q as usize] != 4 {
                continue;
            }
            let k = cards.minus(Cards::of(q, 4));
            let mut pairs = 0;
            let mut ok = true;
            for (_, x) in k.iter() {
                match x {
                    2 => pairs += 1,
                    4 if rules.four_two_pair_same_rank => pairs += 2,
                    _ => ok = false,
                }
            }
            if ok && pairs == 2 {
                out.push(Reading::new(Kind::FourTwoPair, q, 1));
            }
        }
    }
    out.sort();
    out
}

/// The canonical reading of a multiset, or `None` when it is not a move.
pub fn classify(cards: Cards, rules: &MoveRules) -> Option<Reading> {
    readings(cards, rules).canonical()
}

/// Whether `cards` is a move that beats `target` with some reading (§7), and the reading it is
/// played as: the best (canonical order) of its readings that beat `target`.
pub fn beating_reading(cards: Cards, target: Reading, rules: &MoveRules) -> Option<Reading> {
    let rs = readings(cards, rules);
    rs.iter()
        .filter(|r| r.beats(target))
        .max_by_key(|r| (r.kind.priority(), r.main, 255 - r.kind as u8))
}

/// Whether `reading` is a possible reading shape at all (length within bounds, main rank
/// consistent with the kind); used to validate a declared target from outside.
pub fn check_reading_shape(r: Reading, rules: &MoveRules) -> Result<()> {
    let (lo, hi) = r.kind.lengths();
    if !(lo..=hi).contains(&r.len) {
        return Err(Error::hand(format!(
            "{} has length {lo}..={hi}, not {}",
            r.kind.name(),
            r.len
        )));
    }
    let ok = match r.kind {
        Kind::Single => true,
        Kind::Rocket => r.main == BIG_JOKER,
        Kind::Pair | Kind::Trio | Kind::Bomb | Kind::TrioSingle | Kind::TrioPair => r.main <= TWO,
        Kind::FourTwoSingle | Kind::FourTwoPair => r.main <= TWO,
        _ => r.main <= rules.chain_top && r.main + 1 >= r.len,
    };
    if ok {
        Ok(())
    } else {
        Err(Error::hand(format!("{r} is not a possible reading")))
    }
}
