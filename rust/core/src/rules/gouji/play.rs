//! Plays (牌型) and their rules: normalisation (贴钱, 挂花, 大花+小花; gouji.md §4.1–4.2), comparison
//! (顺牌/上牌, §4.3), 够级牌 (§4.4), 开点-eligible plays (§4.5), the 憋3 restriction (§4.6), legal
//! plays against a top play enumerated from counts per rank, and burn feasibility (§6.1).

#![allow(clippy::needless_range_loop)] // rank-indexed count vectors read better with indices

use std::fmt;

use super::card::{
    BIG, Counts, N_BASE, N_RANKS, SMALL, THREE, TWO, format_counts, parse_counts, rank_char, value,
};
use super::rules::{GoujiRules, MixedJokers};
use crate::error::{Error, Result};

/// Marker for "no base rank" in [`Play::base`].
pub const NO_BASE: u8 = u8::MAX;

/// A play as a multiset: at most one base rank (3 … A) plus 2s and jokers. `Copy`, 5 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Play {
    /// Base rank index 0..12 (3 … A), or [`NO_BASE`].
    pub base: u8,
    /// Cards of the base rank.
    pub n_base: u8,
    /// 2s (钱).
    pub n2: u8,
    /// 小花.
    pub small: u8,
    /// 大花.
    pub big: u8,
}

/// Joker level of a normalised play (§4.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum JokerLevel {
    /// All jokers are 大花.
    Big,
    /// All 小花, or both kinds (大花当做小花).
    Small,
}

impl Play {
    /// A play from its cards (counts). Errors when empty or with two base ranks.
    pub fn from_counts(c: &Counts) -> Result<Play> {
        let mut base = NO_BASE;
        let mut n_base = 0;
        for r in 0..N_BASE {
            if c[r] > 0 {
                if base != NO_BASE {
                    return Err(Error::hand(format!(
                        "{} is not a play: all cards other than 2s and jokers must be of one rank (here {} and {}); e.g. 22333 or ww888",
                        format_counts(c),
                        rank_char(usize::from(base)),
                        rank_char(r)
                    )));
                }
                base = r as u8;
                n_base = c[r];
            }
        }
        let p = Play {
            base,
            n_base,
            n2: c[TWO],
            small: c[SMALL],
            big: c[BIG],
        };
        if p.total() == 0 {
            return Err(Error::hand("a play needs at least one card"));
        }
        Ok(p)
    }

    /// Parse a compact card string as a play (`"22333"`, `"ww888"`).
    pub fn parse(text: &str) -> Result<Play> {
        let c = parse_counts(text)?;
        Play::from_counts(&c).map_err(|e| match e {
            Error::InvalidHand(m) if crate::rules::gouji::card::total(&c) == 0 => {
                Error::hand(format!("{m} (got {text:?})"))
            }
            e => e,
        })
    }

    /// The cards as counts.
    pub fn counts(&self) -> Counts {
        let mut c = [0u8; N_RANKS];
        if self.base != NO_BASE {
            c[usize::from(self.base)] = self.n_base;
        }
        c[TWO] = self.n2;
        c[SMALL] = self.small;
        c[BIG] = self.big;
        c
    }

    /// Number of cards.
    pub const fn total(&self) -> u8 {
        self.n_base + self.n2 + self.small + self.big
    }
    /// Number of jokers (花).
    pub const fn jokers(&self) -> u8 {
        self.small + self.big
    }
    /// `W` if every joker is a 大花, else `w` (mixed jokers count as 小花); `None` without jokers.
    pub const fn joker_level(&self) -> Option<JokerLevel> {
        if self.jokers() == 0 {
            None
        } else if self.small == 0 {
            Some(JokerLevel::Big)
        } else {
            Some(JokerLevel::Small)
        }
    }
    /// Normalised base rank index: the base rank, else 2 when the play has 2s, else none.
    pub const fn norm_base(&self) -> Option<usize> {
        if self.base != NO_BASE {
            Some(self.base as usize)
        } else if self.n2 > 0 {
            Some(TWO)
        } else {
            None
        }
    }
    /// Normalised base count: base cards plus every 2 (贴钱), or the 2s when they are the base.
    pub const fn base_count(&self) -> u8 {
        self.n_base + self.n2
    }
    /// 贴钱: 2s converted to another rank.
    pub const fn tie_qian(&self) -> bool {
        self.base != NO_BASE && self.n2 > 0
    }
    /// Canonical string (`WW2229999`).
    pub fn cards(&self) -> String {
        format_counts(&self.counts())
    }
    /// Whether the play contains a 3.
    pub const fn has_three(&self) -> bool {
        self.base == THREE as u8 && self.n_base > 0
    }
    /// Value of the lowest card as compared (§4.3): the base value, or the lowest joker.
    fn min_value(&self) -> u8 {
        match self.norm_base() {
            Some(b) => value(b),
            None if self.small > 0 => value(SMALL),
            None => value(BIG),
        }
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.cards())
    }
}

/// Whether `q` beats `p` (顺牌/上牌, §4.3): same number of cards and every card of `q` strictly
/// higher than the card of `p` at the same position, both sorted high to low.
///
/// `Downgrade` (seed 925): a play with both joker kinds counts all its jokers as 小花; 2s count at
/// the base rank. `PerCard` (zhoujxMT `excel`): jokers at their own value, 2s at the base rank.
pub fn beats(q: &Play, p: &Play, mixed: MixedJokers) -> bool {
    if q.total() != p.total() {
        return false;
    }
    match mixed {
        MixedJokers::Downgrade => {
            if q.jokers() < p.jokers() {
                return false;
            }
            if p.jokers() > 0
                && !(p.joker_level() == Some(JokerLevel::Small)
                    && q.joker_level() == Some(JokerLevel::Big))
            {
                return false;
            }
            match (q.norm_base(), q.base_count()) {
                (_, 0) => true,
                (Some(qb), _) => p.norm_base().is_some_and(|pb| value(qb) > value(pb)),
                (None, _) => false,
            }
        }
        MixedJokers::PerCard => {
            // Both sorted high to low: big jokers, small jokers, base cards (2s at the base).
            let seg = |x: &Play| -> [(u8, u8); 3] {
                [
                    (x.big, value(BIG)),
                    (x.small, value(SMALL)),
                    (x.base_count(), x.norm_base().map_or(0, value)),
                ]
            };
            let (a, b) = (seg(q), seg(p));
            // Walk both run-length lists together.
            let (mut i, mut j) = (0, 0);
            let (mut ra, mut rb) = (a[0].0, b[0].0);
            loop {
                while i < 3 && ra == 0 {
                    i += 1;
                    if i < 3 {
                        ra = a[i].0;
                    }
                }
                while j < 3 && rb == 0 {
                    j += 1;
                    if j < 3 {
                        rb = b[j].0;
                    }
                }
                if i >= 3 || j >= 3 {
                    return true;
                }
                if a[i].1 <= b[j].1 {
                    return false;
                }
                let step = ra.min(rb);
                ra -= step;
                rb -= step;
            }
        }
    }
}

/// 够级牌 (§4.4): a play with a joker, or whose normalised base count reaches the threshold of
/// its rank (`thresholds[r]`, 0 = never).
pub fn is_gouji(p: &Play, rules: &GoujiRules) -> bool {
    if p.jokers() > 0 {
        return true;
    }
    match p.norm_base() {
        Some(b) => {
            let t = rules.thresholds[b];
            t > 0 && p.base_count() >= t
        }
        None => false,
    }
}

/// 开点-eligible (§4.5): a 够级牌 without jokers that is not a single 2; with
/// `kaidian_allows_tieqian = false` also no 贴钱.
pub fn kaidian_eligible(p: &Play, rules: &GoujiRules) -> bool {
    is_gouji(p, rules)
        && p.jokers() == 0
        && !(p.base == NO_BASE && p.n2 == 1)
        && (rules.kaidian_allows_tieqian || !p.tie_qian())
}

/// The 憋3 restriction (§4.6): with `bie_san`, a play containing a 3 is legal only if the hand
/// holds nothing but 3s and the play is nothing but 3s.
pub fn bie_san_ok(hand: &Counts, p: &Play, bie_san: bool) -> bool {
    if !bie_san || !p.has_three() {
        return true;
    }
    p.n2 == 0 && p.jokers() == 0 && only_threes(hand)
}

/// A non-empty hand holding only 3s.
pub fn only_threes(hand: &Counts) -> bool {
    hand[THREE] > 0 && hand[1..].iter().all(|&x| x == 0)
}

/// Why a play is not legal from a hand (or `Ok`): the cards must be in the hand, and the 憋3
/// rule must allow it.
pub fn check_from_hand(hand: &Counts, p: &Play, bie_san: bool) -> Result<()> {
    let c = p.counts();
    if !super::card::contains(hand, &c) {
        return Err(Error::hand(format!(
            "{} is not in the hand {}",
            p.cards(),
            format_counts(hand)
        )));
    }
    if !bie_san_ok(hand, p, bie_san) {
        return Err(Error::hand(format!(
            "憋3: {} may not be played from {}: 3s go out last, alone (the hand must hold only 3s and the play only 3s)",
            p.cards(),
            format_counts(hand)
        )));
    }
    Ok(())
}

/// Every legal lead from `hand` (distinct multisets), appended to `out`.
pub fn leads_into(hand: &Counts, bie_san: bool, out: &mut Vec<Play>) {
    let (h2, hs, hb) = (hand[TWO], hand[SMALL], hand[BIG]);
    if bie_san && only_threes(hand) {
        for n in 1..=hand[THREE] {
            out.push(Play {
                base: THREE as u8,
                n_base: n,
                ..Play::default()
            });
        }
        return;
    }
    for r in 0..N_BASE {
        if hand[r] == 0 || (bie_san && r == THREE) {
            continue;
        }
        for nb in 1..=hand[r] {
            for n2 in 0..=h2 {
                for small in 0..=hs {
                    for big in 0..=hb {
                        out.push(Play {
                            base: r as u8,
                            n_base: nb,
                            n2,
                            small,
                            big,
                        });
                    }
                }
            }
        }
    }
    for n2 in 0..=h2 {
        for small in 0..=hs {
            for big in 0..=hb {
                if n2 + small + big > 0 {
                    out.push(Play {
                        base: NO_BASE,
                        n_base: 0,
                        n2,
                        small,
                        big,
                    });
                }
            }
        }
    }
}

/// The number of plays [`leads_into`] lists for `hand` (without listing them).
pub fn lead_count(hand: &Counts, bie_san: bool) -> usize {
    if bie_san && only_threes(hand) {
        return usize::from(hand[THREE]);
    }
    let m = lead_extras(hand);
    let base: usize = (0..N_BASE)
        .filter(|&r| !(bie_san && r == THREE))
        .map(|r| usize::from(hand[r]))
        .sum();
    base * m + m - 1
}

/// The number of (2s, 小花, 大花) choices of a lead: `(2s + 1) × (小花 + 1) × (大花 + 1)`.
fn lead_extras(hand: &Counts) -> usize {
    (usize::from(hand[TWO]) + 1) * (usize::from(hand[SMALL]) + 1) * (usize::from(hand[BIG]) + 1)
}

/// The `i`-th play of [`leads_into`]'s list for `hand` (`i < lead_count(hand, bie_san)`),
/// without listing the others.
pub fn lead_nth(hand: &Counts, bie_san: bool, i: usize) -> Play {
    if bie_san && only_threes(hand) {
        return Play {
            base: THREE as u8,
            n_base: (i + 1) as u8,
            ..Play::default()
        };
    }
    let (hs, hb) = (usize::from(hand[SMALL]) + 1, usize::from(hand[BIG]) + 1);
    let m = lead_extras(hand);
    // the (2s, 小花, 大花) choice `j` in the order of the loops (2s outermost)
    let extras = |j: usize| ((j / (hs * hb)) as u8, ((j / hb) % hs) as u8, (j % hb) as u8);
    let mut i = i;
    for r in 0..N_BASE {
        if hand[r] == 0 || (bie_san && r == THREE) {
            continue;
        }
        let block = usize::from(hand[r]) * m;
        if i < block {
            let (n2, small, big) = extras(i % m);
            return Play {
                base: r as u8,
                n_base: (i / m + 1) as u8,
                n2,
                small,
                big,
            };
        }
        i -= block;
    }
    // without a base: every choice but the empty one
    let (n2, small, big) = extras(i + 1);
    Play {
        base: NO_BASE,
        n_base: 0,
        n2,
        small,
        big,
    }
}

/// Every play from `hand` that beats `top`, appended to `out` (distinct multisets, 憋3 applied:
/// a 3 never beats anything).
pub fn beating_into(hand: &Counts, top: &Play, mixed: MixedJokers, out: &mut Vec<Play>) {
    let t = top.total();
    let (h2, hs, hb) = (hand[TWO], hand[SMALL], hand[BIG]);
    // A beating play's base is above the top's lowest card (both modes).
    let floor = top.min_value();
    for big in 0..=hb.min(t) {
        for small in 0..=hs.min(t - big) {
            let j = big + small;
            if mixed == MixedJokers::Downgrade && j < top.jokers() {
                continue;
            }
            for n2 in 0..=h2.min(t - j) {
                let need = t - j - n2;
                if need == 0 {
                    let q = Play {
                        base: NO_BASE,
                        n_base: 0,
                        n2,
                        small,
                        big,
                    };
                    if beats(&q, top, mixed) {
                        out.push(q);
                    }
                    continue;
                }
                // the ranks valued above the floor (value(r) = r + 3)
                for r in (usize::from(floor) + 1).saturating_sub(3)..N_BASE {
                    if hand[r] < need {
                        continue;
                    }
                    let q = Play {
                        base: r as u8,
                        n_base: need,
                        n2,
                        small,
                        big,
                    };
                    if beats(&q, top, mixed) {
                        out.push(q);
                    }
                }
            }
        }
    }
}

/// Legal plays of `hand`: leads when `top` is `None`, else the plays beating `top`.
pub fn legal_plays(hand: &Counts, top: Option<&Play>, rules: &GoujiRules) -> Vec<Play> {
    let mut out = Vec::new();
    match top {
        None => leads_into(hand, rules.bie_san, &mut out),
        Some(t) => beating_into(hand, t, rules.mixed_jokers, &mut out),
    }
    out
}

/// Condition 5 of §6.1: the remaining cards can be led out one lead at a time with a joker in
/// every lead except the last (closed form; `bie_san`: the 3s must be the pure last lead).
pub fn remainder_feasible(rest: &Counts, bie_san: bool) -> bool {
    let ranks = rest[..N_BASE].iter().filter(|&&x| x > 0).count();
    let j = usize::from(rest[SMALL] + rest[BIG]);
    if ranks == 0 {
        return true; // empty, or 2s and jokers only: one last hand
    }
    if bie_san && rest[THREE] > 0 {
        if ranks >= 2 {
            return j + 1 >= ranks;
        }
        // Only 3s besides 2s/jokers: 3s alone, or 2s/jokers first in a lead with a joker.
        return (rest[TWO] == 0 && j == 0) || j >= 1;
    }
    j + 1 >= ranks
}

/// The plays from `hand` that beat `top` and leave a feasible remainder (§6.1 conditions 4–5).
pub fn burn_options(hand: &Counts, top: &Play, rules: &GoujiRules) -> Vec<Play> {
    let mut out = Vec::new();
    burn_options_into(hand, top, rules, &mut out);
    out
}

/// [`burn_options`] into a buffer (appends).
pub fn burn_options_into(hand: &Counts, top: &Play, rules: &GoujiRules, out: &mut Vec<Play>) {
    let start = out.len();
    beating_into(hand, top, rules.mixed_jokers, out);
    let mut keep = start;
    for i in start..out.len() {
        let k = out[i];
        let mut rest = *hand;
        let c = k.counts();
        for r in 0..N_RANKS {
            rest[r] -= c[r];
        }
        if remainder_feasible(&rest, rules.bie_san) {
            out[keep] = k;
            keep += 1;
        }
    }
    out.truncate(keep);
}

/// Whether some play of `hand` burns `top` (faster than [`burn_options`]: stops at the first).
pub fn can_burn(hand: &Counts, top: &Play, rules: &GoujiRules, buf: &mut Vec<Play>) -> bool {
    buf.clear();
    burn_options_into(hand, top, rules, buf);
    !buf.is_empty()
}

/// Result of a burner's lead (§6.3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BurnLead {
    /// The lead has a joker and cards remain.
    Continue,
    /// The lead empties the hand: the burn succeeds.
    Success,
    /// No joker and cards remain: the burn fails.
    Fail,
}

/// Judge a burner's lead.
pub fn burn_lead(hand: &Counts, lead: &Play) -> BurnLead {
    if super::card::total(hand) == u32::from(lead.total()) {
        BurnLead::Success
    } else if lead.jokers() > 0 {
        BurnLead::Continue
    } else {
        BurnLead::Fail
    }
}

/// A dense id of a play (for the flat action space, docs/gouji.md): base slot (0..12 = 3 … A,
/// 12 = none), base count 0..16, 2s 0..16, 小花 0..4, 大花 0..4.
pub fn play_id(p: &Play) -> u32 {
    let b = if p.base == NO_BASE {
        12
    } else {
        u32::from(p.base)
    };
    (((b * 17 + u32::from(p.n_base)) * 17 + u32::from(p.n2)) * 5 + u32::from(p.small)) * 5
        + u32::from(p.big)
}

/// Number of play ids (13 · 17 · 17 · 5 · 5).
pub const N_PLAY_IDS: u32 = 13 * 17 * 17 * 5 * 5;

/// Inverse of [`play_id`]; `None` for ids that are not a play.
pub fn play_from_id(id: u32) -> Option<Play> {
    if id >= N_PLAY_IDS {
        return None;
    }
    let big = (id % 5) as u8;
    let small = (id / 5 % 5) as u8;
    let n2 = (id / 25 % 17) as u8;
    let n_base = (id / 425 % 17) as u8;
    let b = id / (425 * 17);
    let base = if b == 12 { NO_BASE } else { b as u8 };
    let p = Play {
        base,
        n_base,
        n2,
        small,
        big,
    };
    let ok = p.total() > 0 && ((base == NO_BASE) == (n_base == 0));
    ok.then_some(p)
}
