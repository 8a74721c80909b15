//! 胡息-maximising decomposition of a 字牌 hand (zipai.md §11).
//!
//! Fixed groups (melds, 坎 = three dealt copies, dealt 扫穿 = four) are taken out first; the forced
//! and optional upgrades by the winning card make one or two branches; the free cards of each branch
//! (at most 3 per kind) are split by a depth-first search over the lowest remaining card with a
//! memo keyed by the packed count vector (2 bits per kind), so each call allocates only its result.

use std::cell::RefCell;

use serde::Serialize;

use crate::error::{Error, Result};

use super::card::{Card, CardCounts, N_CARDS};
use super::group::{Group, GroupKind, Meld, MeldType};
use super::rules::ZipaiRules;

/// Where the winning card came from (decides the forced and optional upgrades).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WinSource {
    /// The winner's own draw (自摸): 扫/扫穿 upgrades are forced; 开舵 on one's 碰 is optional.
    SelfDraw,
    /// Another player's drawn card: 开舵 on 坎/扫/碰 optional (both readings tried).
    OtherDraw,
    /// A discard: 开舵 on 坎/扫 optional (switch `kaiduo_on_discard`), never on 碰.
    Discard,
    /// The deal itself (天胡): the "winning card" is just a dealt card.
    Deal,
}

/// A hand to evaluate.
#[derive(Clone, Debug, Default)]
pub struct HandSpec {
    /// Concealed cards before the winning card (坎 and dealt 扫穿 included as plain cards).
    pub concealed: Vec<Card>,
    pub win: Option<Card>,
    pub melds: Vec<Meld>,
    pub source: Option<WinSource>,
    /// Kinds whose 碰 the player passed (过碰 / 过扫).
    pub passed_peng: Vec<Card>,
    /// Jokers (王) among the concealed cards (switch `jokers`): each stands for any card in the
    /// free part of the split. With `win = None` and a self-draw source, the last card drawn was a
    /// joker (it is counted here).
    pub jokers: u8,
}

impl HandSpec {
    pub fn source(&self) -> WinSource {
        self.source.unwrap_or(WinSource::Discard)
    }

    /// Every card the player owns (concealed, winning card, melds).
    pub fn all_cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.concealed
            .iter()
            .copied()
            .chain(self.win)
            .chain(self.melds.iter().flat_map(|m| m.cards.iter().copied()))
    }

    /// Per-kind counts of every card owned; more than 4 copies or too many cards (23, or 21 plus
    /// one per four of a kind after the first) is an error.
    pub fn validate(&self) -> Result<CardCounts> {
        let mut c = [0u8; N_CARDS];
        let mut n = 0usize;
        for card in self.all_cards() {
            c[usize::from(card.index())] += 1;
            n += 1;
            if c[usize::from(card.index())] > 4 {
                return Err(Error::hand(format!(
                    "more than 4 copies of {card} ({}) among concealed cards, winning card and melds",
                    card.chinese()
                )));
            }
        }
        // 21 cards plus one per 4-card group after the first (重舵); at least 23 is accepted.
        // Groups: 4-card melds, plus the dealt 扫穿 among the concealed cards (a deal can hold three
        // or more: each after the first brought an extra card).
        let mut conc = [0u8; N_CARDS];
        for card in &self.concealed {
            conc[usize::from(card.index())] += 1;
        }
        let dealt = conc.iter().filter(|&&k| k == 4).count();
        let fours = self.melds.iter().filter(|m| m.cards.len() == 4).count() + dealt;
        let max = 23.max(20 + fours);
        n += usize::from(self.jokers);
        if self.jokers > 4 {
            return Err(Error::hand(format!(
                "{} jokers: a deck has at most 4",
                self.jokers
            )));
        }
        if n > max {
            return Err(Error::hand(format!(
                "wrong hand size: {n} cards; a 字牌 hand has at most {max} (21, plus one per 开舵/扫穿 after the first)"
            )));
        }
        if n < 2 {
            return Err(Error::hand(format!("wrong hand size: {n} cards")));
        }
        let joker_drawn = self.jokers > 0 && self.source() == WinSource::SelfDraw;
        if self.win.is_none() && self.source() != WinSource::Deal && !joker_drawn {
            return Err(Error::hand(
                "a winning card is required unless the win is from the deal (天胡) or a drawn joker",
            ));
        }
        Ok(c)
    }
}

/// One complete decomposition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decomposition {
    pub groups: Vec<Group>,
    pub huxi: i32,
    /// The winning card made an optional 开舵 (another player's card on the winner's 坎/扫/碰).
    pub kaiduo_by_win: bool,
}

impl Decomposition {
    /// No 吃-type group at all (对胡).
    pub fn no_chi(&self) -> bool {
        !self.groups.iter().any(|g| g.kind.is_chi_type())
    }
}

const NEG: i32 = i32::MIN / 4;

/// Free-card group codes used inside the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opt {
    Pair,
    Triplet,
    Seq,
    E27,
    JiaoSmall2,
    JiaoBig2,
    /// A concealed triplet made with jokers (valued as 坎).
    JokerKan,
}

/// The values the search needs, taken from the rules for one branch.
struct Search {
    pair: [i32; 2],
    triplet: [i32; 2],
    triplet_kind: GroupKind,
    seq: [i32; 2],
    yes: [i32; 2],
    e27: [i32; 2],
    jiao: [i32; 2],
    kan: [i32; 2],
    /// Only this kind may form a triplet (the winning card's kind), or none.
    win: Option<usize>,
    allow_chi: bool,
}

const MEMO_BITS: usize = 13;

struct Memo {
    keys: Vec<u64>,
    vals: Vec<i32>,
    stamp: Vec<u32>,
    epoch: u32,
}

impl Memo {
    fn new() -> Memo {
        let n = 1 << MEMO_BITS;
        Memo {
            keys: vec![0; n],
            vals: vec![0; n],
            stamp: vec![0; n],
            epoch: 0,
        }
    }
    fn next_gen(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
    }
    #[inline]
    fn slot(key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MEMO_BITS)) as usize
    }
    #[inline]
    fn get(&self, key: u64) -> Option<i32> {
        let s = Memo::slot(key);
        (self.stamp[s] == self.epoch && self.keys[s] == key).then(|| self.vals[s])
    }
    #[inline]
    fn put(&mut self, key: u64, v: i32) {
        let s = Memo::slot(key);
        self.keys[s] = key;
        self.vals[s] = v;
        self.stamp[s] = self.epoch;
    }
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::new());
}

/// Free counts packed 3 bits per kind (0..=7: at most 3 real cards plus 4 jokers standing for
/// the kind), kind 0 in the highest bits (57-59), kind 19 lowest; bit 62 = pair still needed.
#[inline]
fn pack(c: &CardCounts) -> u64 {
    c.iter().fold(0u64, |k, &x| (k << 3) | u64::from(x & 7))
}

#[inline]
fn unit(i: usize) -> u64 {
    1u64 << (3 * (19 - i))
}

#[inline]
fn cnt(s: u64, i: usize) -> u64 {
    (s >> (3 * (19 - i))) & 7
}

/// Lowest kind with a card (the state is non-zero).
#[inline]
fn lowest(s: u64) -> usize {
    ((s.leading_zeros() - 4) / 3) as usize
}

impl Search {
    fn new(r: &ZipaiRules, win: Option<usize>, guo_peng: bool, allow_chi: bool) -> Search {
        let v = |k: GroupKind| [r.value(k, false), r.value(k, true)];
        let triplet_kind = if guo_peng && r.guo_peng_zero {
            GroupKind::GuoPeng
        } else {
            GroupKind::WinTriplet
        };
        Search {
            pair: v(GroupKind::Pair),
            triplet: v(triplet_kind),
            triplet_kind,
            seq: v(GroupKind::Shunzi),
            yes: v(GroupKind::YiErSan),
            e27: v(GroupKind::ErQiShi),
            jiao: v(GroupKind::Jiao),
            kan: v(GroupKind::Kan),
            win,
            allow_chi,
        }
    }

    /// Options for the lowest card `i`: (option, value, state after taking the group).
    #[inline]
    fn options(&self, s: u64, i: usize, need_pair: bool, out: &mut [(Opt, i32, u64); 6]) -> usize {
        let big = usize::from(i >= 10);
        let rank = i % 10 + 1;
        let ci = cnt(s, i);
        let mut n = 0;
        let mut push = |o: Opt, v: i32, ns: u64| {
            out[n] = (o, v, ns);
            n += 1;
        };
        if need_pair && ci >= 2 {
            push(Opt::Pair, self.pair[big], s - 2 * unit(i));
        }
        if ci >= 3 {
            // Free real cards hold at most 2 dealt copies: a third is the winning card (triplet
            // completed by it) or a joker (a concealed triplet, valued as 坎).
            if self.win == Some(i) {
                push(Opt::Triplet, self.triplet[big], s - 3 * unit(i));
            } else {
                push(Opt::JokerKan, self.kan[big], s - 3 * unit(i));
            }
        }
        if self.allow_chi {
            if rank <= 8 && cnt(s, i + 1) > 0 && cnt(s, i + 2) > 0 {
                let v = if rank == 1 {
                    self.yes[big]
                } else {
                    self.seq[big]
                };
                push(Opt::Seq, v, s - unit(i) - unit(i + 1) - unit(i + 2));
            }
            if rank == 2 && cnt(s, i + 5) > 0 && cnt(s, i + 8) > 0 {
                push(
                    Opt::E27,
                    self.e27[big],
                    s - unit(i) - unit(i + 5) - unit(i + 8),
                );
            }
            if i < 10 {
                let cb = cnt(s, i + 10);
                if ci >= 2 && cb >= 1 {
                    push(
                        Opt::JiaoSmall2,
                        self.jiao[0],
                        s - 2 * unit(i) - unit(i + 10),
                    );
                }
                if cb >= 2 {
                    push(Opt::JiaoBig2, self.jiao[1], s - unit(i) - 2 * unit(i + 10));
                }
            }
        }
        n
    }

    fn best(&self, s: u64, need_pair: bool, memo: &mut Memo) -> i32 {
        if s == 0 {
            return if need_pair { NEG } else { 0 };
        }
        let key = s | (u64::from(need_pair) << 62);
        if let Some(v) = memo.get(key) {
            return v;
        }
        let i = lowest(s);
        let mut opts = [(Opt::Pair, 0, 0u64); 6];
        let n = self.options(s, i, need_pair, &mut opts);
        let mut best = NEG;
        for &(o, v, ns) in &opts[..n] {
            let r = self.best(ns, need_pair && o != Opt::Pair, memo);
            if r > NEG {
                best = best.max(r + v);
            }
        }
        memo.put(key, best);
        best
    }

    /// Best 胡息 of real free counts `s` plus `j` jokers, each joker filling any slot of a group
    /// (equivalent to trying every assignment of the jokers to card kinds, without enumerating
    /// them): groups holding the lowest real card take their other cards from the hand or as
    /// jokers; jokers left at the end form a pair or one 3-card group on their own.
    fn best_jokers(&self, s: u64, j: u8, need_pair: bool, memo: &mut Memo) -> i32 {
        if s == 0 {
            return match (j, need_pair) {
                (0, false) => 0,
                (2, true) => self.pair[0].max(self.pair[1]),
                (3, false) => self.best_three(),
                _ => NEG,
            };
        }
        let key = s | (u64::from(need_pair) << 60) | (u64::from(j) << 61);
        if let Some(v) = memo.get(key) {
            return v;
        }
        let i = lowest(s);
        let big = usize::from(i >= 10);
        let rank = i % 10 + 1;
        let base = if i >= 10 { 10 } else { 0 };
        let mut best = NEG;
        let mut try_shape = |others: &[usize], value: i32, is_pair: bool, memo: &mut Memo| {
            let s1 = s - unit(i);
            // every way to take the other cards from the hand or as jokers
            for mask in 0..(1u32 << others.len()) {
                let mut st = s1;
                let mut used = 0u8;
                let mut ok = true;
                for (b, &k) in others.iter().enumerate() {
                    if mask >> b & 1 == 1 {
                        used += 1;
                    } else if cnt(st, k) > 0 {
                        st -= unit(k);
                    } else {
                        ok = false;
                        break;
                    }
                }
                if !ok || used > j {
                    continue;
                }
                let r = self.best_jokers(st, j - used, need_pair && !is_pair, memo);
                if r > NEG {
                    best = best.max(r + value);
                }
            }
        };
        if need_pair {
            try_shape(&[i], self.pair[big], true, memo);
        }
        let tri = if self.win == Some(i) {
            self.triplet[big]
        } else {
            self.kan[big]
        };
        try_shape(&[i, i], tri, false, memo);
        if self.allow_chi {
            for a in rank.saturating_sub(2).max(1)..=rank.min(8) {
                let ks = [base + a - 1, base + a, base + a + 1];
                let others: Vec<usize> = ks.iter().copied().filter(|&k| k != i).collect();
                let v = if a == 1 { self.yes[big] } else { self.seq[big] };
                try_shape(&others, v, false, memo);
            }
            if matches!(rank, 2 | 7 | 10) {
                let others: Vec<usize> = [base + 1, base + 6, base + 9]
                    .into_iter()
                    .filter(|&k| k != i)
                    .collect();
                try_shape(&others, self.e27[big], false, memo);
            }
            let (sm, bg) = (rank - 1, rank + 9);
            for (shape, v) in [([sm, sm, bg], self.jiao[0]), ([sm, bg, bg], self.jiao[1])] {
                let mut others = shape.to_vec();
                let p = others
                    .iter()
                    .position(|&k| k == i)
                    .expect("i is in the shape");
                others.remove(p);
                try_shape(&others, v, false, memo);
            }
        }
        memo.put(key, best);
        best
    }

    /// The best value of one 3-card group made of jokers alone.
    fn best_three(&self) -> i32 {
        let mut v = self.kan[0].max(self.kan[1]);
        if let Some(w) = self.win {
            v = v.max(self.triplet[usize::from(w >= 10)]);
        }
        if self.allow_chi {
            for x in [self.seq, self.yes, self.e27, self.jiao] {
                v = v.max(x[0]).max(x[1]);
            }
        }
        v
    }

    /// Walk the memo back to the groups of one best split.
    fn rebuild(&self, mut s: u64, mut need_pair: bool, memo: &mut Memo, out: &mut Vec<Group>) {
        while s != 0 {
            let target = self.best(s, need_pair, memo);
            let i = lowest(s);
            let mut opts = [(Opt::Pair, 0, 0u64); 6];
            let n = self.options(s, i, need_pair, &mut opts);
            let Some(&(o, v, ns)) = opts[..n].iter().find(|&&(o, v, ns)| {
                let r = self.best(ns, need_pair && o != Opt::Pair, memo);
                r > NEG && r + v == target
            }) else {
                return;
            };
            if o == Opt::Pair {
                need_pair = false;
            }
            out.push(self.group(i, o, v));
            s = ns;
        }
    }

    fn group(&self, i: usize, o: Opt, huxi: i32) -> Group {
        let k = |j: usize| Card::new_unchecked(j as u8);
        let (kind, cards) = match o {
            Opt::Pair => (GroupKind::Pair, vec![k(i), k(i)]),
            Opt::Triplet => (self.triplet_kind, vec![k(i), k(i), k(i)]),
            Opt::Seq => (
                if i % 10 == 0 {
                    GroupKind::YiErSan
                } else {
                    GroupKind::Shunzi
                },
                vec![k(i), k(i + 1), k(i + 2)],
            ),
            Opt::E27 => (GroupKind::ErQiShi, vec![k(i), k(i + 5), k(i + 8)]),
            Opt::JiaoSmall2 => (GroupKind::Jiao, vec![k(i), k(i), k(i + 10)]),
            Opt::JiaoBig2 => (GroupKind::Jiao, vec![k(i), k(i + 10), k(i + 10)]),
            Opt::JokerKan => (GroupKind::Kan, vec![k(i), k(i), k(i)]),
        };
        Group {
            kind,
            cards,
            exposed: false,
            has_win_card: false,
            huxi,
            jokers: Vec::new(),
        }
    }
}

/// Call `f` with every assignment of `jokers` jokers to card kinds (a multiset, in kind order; a
/// joker may stand for any card, even one of which four are already held): `free` is updated in
/// place, `sub` counts the jokers per kind.
fn for_each_assignment(
    free: &mut CardCounts,
    sub: &mut CardCounts,
    jokers: u8,
    start: usize,
    f: &mut impl FnMut(&CardCounts, &CardCounts),
) {
    if jokers == 0 {
        f(free, sub);
        return;
    }
    for k in start..N_CARDS {
        free[k] += 1;
        sub[k] += 1;
        for_each_assignment(free, sub, jokers - 1, k, f);
        free[k] -= 1;
        sub[k] -= 1;
    }
}

/// Record which cards of the free groups are jokers (`sub`: jokers per kind): a joker-made
/// triplet takes its jokers first, then the first groups holding the kind.
fn mark_jokers(groups: &mut [Group], sub: &CardCounts) {
    for (k, &n) in sub.iter().enumerate() {
        let card = Card::new_unchecked(k as u8);
        let mut left = usize::from(n);
        for pass in 0..2 {
            for g in groups.iter_mut() {
                if left == 0 || (pass == 0 && g.kind != GroupKind::Kan) {
                    continue;
                }
                let room = g.cards.iter().filter(|&&c| c == card).count()
                    - g.jokers.iter().filter(|&&c| c == card).count();
                let take = room.min(left);
                g.jokers.extend(std::iter::repeat_n(card, take));
                left -= take;
            }
        }
    }
}

/// Free-card splits: the best 胡息 over every joker assignment (`all = false`, at most one
/// result), or the best split of each assignment that splits (`all = true`). Empty = no split.
#[allow(clippy::too_many_arguments)]
fn search_free(
    rules: &ZipaiRules,
    free: &CardCounts,
    jokers: u8,
    need_pair: bool,
    win: Option<usize>,
    guo_peng: bool,
    allow_chi: bool,
    want_groups: bool,
    all: bool,
) -> Vec<(i32, Vec<Group>)> {
    let total: u32 = free.iter().map(|&x| u32::from(x)).sum::<u32>() + u32::from(jokers);
    if total % 3 != if need_pair { 2 } else { 0 } {
        return Vec::new();
    }
    debug_assert!(free.iter().all(|&x| x <= 3) && jokers <= 4);
    let search = Search::new(rules, win, guo_peng, allow_chi);
    MEMO.with(|m| {
        let mut memo = m.borrow_mut();
        memo.next_gen();
        if jokers > 0 && !all && !want_groups {
            // The best value only: jokers as wildcards inside the search (no enumeration).
            let v = search.best_jokers(pack(free), jokers, need_pair, &mut memo);
            return if v > NEG {
                vec![(v, Vec::new())]
            } else {
                Vec::new()
            };
        }
        let mut out: Vec<(i32, Vec<Group>)> = Vec::new();
        let mut best: Option<(i32, CardCounts, CardCounts)> = None;
        let mut f = *free;
        let mut sub = [0u8; N_CARDS];
        // One memo generation for every assignment: the search values depend only on the state.
        for_each_assignment(&mut f, &mut sub, jokers, 0, &mut |counts, sub| {
            let s = pack(counts);
            let v = search.best(s, need_pair, &mut memo);
            if v <= NEG {
                return;
            }
            if all {
                let mut groups = Vec::new();
                if want_groups {
                    search.rebuild(s, need_pair, &mut memo, &mut groups);
                    mark_jokers(&mut groups, sub);
                }
                out.push((v, groups));
            } else if best.as_ref().is_none_or(|b| v > b.0) {
                best = Some((v, *counts, *sub));
            }
        });
        if let Some((v, counts, sub)) = best {
            let mut groups = Vec::new();
            if want_groups {
                search.rebuild(pack(&counts), need_pair, &mut memo, &mut groups);
                mark_jokers(&mut groups, &sub);
            }
            out.push((v, groups));
        }
        out
    })
}

fn fixed_group(rules: &ZipaiRules, kind: GroupKind, cards: Vec<Card>, exposed: bool) -> Group {
    let mut g = Group {
        kind,
        cards,
        exposed,
        has_win_card: false,
        huxi: 0,
        jokers: Vec::new(),
    };
    g.huxi = rules.value(kind, g.value_big());
    g
}

/// One branch before the search: fixed groups and free counts.
struct Branch {
    fixed: Vec<Group>,
    free: CardCounts,
    /// Kind allowed to form a triplet with the (free) winning card.
    win_triplet: Option<usize>,
    kaiduo_by_win: bool,
}

fn branches(rules: &ZipaiRules, spec: &HandSpec) -> Result<Vec<Branch>> {
    spec.validate()?;
    let source = spec.source();
    let mut conc = [0u8; N_CARDS];
    for c in &spec.concealed {
        conc[usize::from(c.index())] += 1;
    }
    let mut win = spec.win;
    if source == WinSource::Deal {
        if let Some(w) = win.take() {
            conc[usize::from(w.index())] += 1;
        }
    }
    let mut fixed: Vec<Group> = spec
        .melds
        .iter()
        .map(|m| fixed_group(rules, m.kind, m.cards.clone(), m.exposed()))
        .collect();
    for (i, n) in conc.iter_mut().enumerate() {
        let card = Card::new_unchecked(i as u8);
        if *n == 4 {
            fixed.push(fixed_group(
                rules,
                GroupKind::SaoChuan,
                vec![card; 4],
                false,
            ));
            *n = 0;
        } else if *n == 3 {
            fixed.push(fixed_group(rules, GroupKind::Kan, vec![card; 3], false));
            *n = 0;
        }
    }
    let Some(w) = win else {
        return Ok(vec![Branch {
            fixed,
            free: conc,
            win_triplet: None,
            kaiduo_by_win: false,
        }]);
    };
    let wi = usize::from(w.index());
    let passed = spec.passed_peng.contains(&w);
    let find = |fixed: &[Group], kinds: &[GroupKind]| {
        fixed
            .iter()
            .position(|g| kinds.contains(&g.kind) && g.cards[0] == w)
    };
    let upgrade = |fixed: &[Group], pos: usize, kind: GroupKind, exposed: bool| {
        let mut f = fixed.to_vec();
        let mut g = fixed_group(rules, kind, vec![w; 4], exposed);
        g.has_win_card = true;
        f[pos] = g;
        f
    };
    let triple = [GroupKind::Kan, GroupKind::Sao, GroupKind::GuoSao];
    let free_with_win = || {
        let mut f = conc;
        f[wi] += 1;
        f
    };
    let mut out = Vec::new();
    match source {
        WinSource::SelfDraw => {
            if let Some(p) = find(&fixed, &triple) {
                out.push(Branch {
                    fixed: upgrade(&fixed, p, GroupKind::SaoChuan, false),
                    free: conc,
                    win_triplet: None,
                    kaiduo_by_win: false,
                });
            } else if let Some(p) = find(&fixed, &[GroupKind::Peng]) {
                // 碰 + own draw is 开舵, but 胡 outranks 开舵 ("胡牌时可以不开舵"): both readings.
                out.push(Branch {
                    fixed: upgrade(&fixed, p, GroupKind::KaiDuo, true),
                    free: conc,
                    win_triplet: None,
                    kaiduo_by_win: true,
                });
                out.push(Branch {
                    fixed,
                    free: free_with_win(),
                    win_triplet: None,
                    kaiduo_by_win: false,
                });
            } else if conc[wi] == 2 {
                let mut f = fixed.clone();
                let kind = if passed {
                    GroupKind::GuoSao
                } else {
                    GroupKind::Sao
                };
                let mut g = fixed_group(rules, kind, vec![w; 3], false);
                g.has_win_card = true;
                f.push(g);
                let mut free = conc;
                free[wi] = 0;
                out.push(Branch {
                    fixed: f,
                    free,
                    win_triplet: None,
                    kaiduo_by_win: false,
                });
            } else {
                out.push(Branch {
                    fixed,
                    free: free_with_win(),
                    win_triplet: None,
                    kaiduo_by_win: false,
                });
            }
        }
        WinSource::OtherDraw | WinSource::Discard => {
            let on_triple = find(&fixed, &triple)
                .filter(|_| source == WinSource::OtherDraw || rules.kaiduo_on_discard);
            let on_peng =
                find(&fixed, &[GroupKind::Peng]).filter(|_| source == WinSource::OtherDraw);
            if let Some(p) = on_triple.or(on_peng) {
                out.push(Branch {
                    fixed: upgrade(&fixed, p, GroupKind::KaiDuo, true),
                    free: conc,
                    win_triplet: None,
                    kaiduo_by_win: true,
                });
            }
            out.push(Branch {
                fixed,
                free: free_with_win(),
                win_triplet: Some(wi),
                kaiduo_by_win: false,
            });
        }
        WinSource::Deal => unreachable!("win card merged into the deal above"),
    }
    let _ = passed;
    Ok(out)
}

fn finish(
    mut b: Branch,
    free_groups: Vec<Group>,
    free_huxi: i32,
    win: Option<Card>,
) -> Decomposition {
    let mut groups = std::mem::take(&mut b.fixed);
    let start = groups.len();
    groups.extend(free_groups);
    if let Some(w) = win {
        if !groups.iter().any(|g| g.has_win_card) {
            if let Some(g) = groups[start..].iter_mut().find(|g| g.cards.contains(&w)) {
                g.has_win_card = true;
            }
        }
    }
    let fixed_huxi: i32 = groups[..start].iter().map(|g| g.huxi).sum();
    Decomposition {
        groups,
        huxi: fixed_huxi + free_huxi,
        kaiduo_by_win: b.kaiduo_by_win,
    }
}

fn need_pair(rules: &ZipaiRules, b: &Branch, jokers: u8) -> bool {
    if rules.pair_needs_four {
        b.fixed.iter().any(|g| g.kind.is_four())
    } else {
        (b.free.iter().map(|&x| u32::from(x)).sum::<u32>() + u32::from(jokers)) % 3 == 2
    }
}

fn check_jokers(rules: &ZipaiRules, spec: &HandSpec) -> Result<()> {
    if spec.jokers > rules.jokers {
        return Err(Error::hand(format!(
            "{} joker(s) in the hand but this variant has {} (switch jokers)",
            spec.jokers, rules.jokers
        )));
    }
    Ok(())
}

/// The candidate best decompositions: per upgrade branch, the 胡息-best split and (when `no_chi`
/// is asked and possible) the best split without 吃-type groups (对胡). Empty = not complete.
pub fn candidates(rules: &ZipaiRules, spec: &HandSpec, no_chi: bool) -> Result<Vec<Decomposition>> {
    let win = if spec.source() == WinSource::Deal {
        None
    } else {
        spec.win
    };
    check_jokers(rules, spec)?;
    let guo = spec.win.is_some_and(|w| spec.passed_peng.contains(&w));
    let j = spec.jokers;
    // With jokers and 名堂 (`no_chi` asked), every joker assignment is a candidate: the cards a
    // joker stands for change the red/big/small counts.
    let all = no_chi && j > 0;
    let mut out = Vec::new();
    for b in branches(rules, spec)? {
        let np = need_pair(rules, &b, j);
        let splits = search_free(rules, &b.free, j, np, b.win_triplet, guo, true, true, all);
        if splits.is_empty() {
            continue;
        }
        let fixed_chi = b.fixed.iter().any(|g| g.kind.is_chi_type());
        let any_free_chi = splits
            .iter()
            .any(|(_, g)| g.iter().any(|x| x.kind.is_chi_type()));
        let pure = if no_chi && !fixed_chi && any_free_chi {
            search_free(rules, &b.free, j, np, b.win_triplet, guo, false, true, all)
        } else {
            Vec::new()
        };
        for (v, g) in splits.into_iter().chain(pure) {
            let bb = Branch {
                fixed: b.fixed.clone(),
                free: b.free,
                win_triplet: b.win_triplet,
                kaiduo_by_win: b.kaiduo_by_win,
            };
            out.push(finish(bb, g, v, win));
        }
    }
    Ok(out)
}

/// Best 胡息 over every reading and split, without building the groups (`None`: not complete).
pub fn best_huxi(rules: &ZipaiRules, spec: &HandSpec) -> Result<Option<i32>> {
    check_jokers(rules, spec)?;
    let guo = spec.win.is_some_and(|w| spec.passed_peng.contains(&w));
    let mut best: Option<i32> = None;
    for b in branches(rules, spec)? {
        let np = need_pair(rules, &b, spec.jokers);
        let splits = search_free(
            rules,
            &b.free,
            spec.jokers,
            np,
            b.win_triplet,
            guo,
            true,
            false,
            false,
        );
        if let Some(&(v, _)) = splits.first() {
            let total = v + b.fixed.iter().map(|g| g.huxi).sum::<i32>();
            best = Some(best.map_or(total, |x: i32| x.max(total)));
        }
    }
    Ok(best)
}

/// The decomposition with the most 胡息 (ties: the first branch, i.e. with the optional 开舵).
pub fn best_decomposition(rules: &ZipaiRules, spec: &HandSpec) -> Result<Option<Decomposition>> {
    let mut best: Option<Decomposition> = None;
    for d in candidates(rules, spec, false)? {
        if best.as_ref().is_none_or(|b| d.huxi > b.huxi) {
            best = Some(d);
        }
    }
    Ok(best)
}

/// Best 胡息 of a fully concealed hand given as counts (4 = dealt 扫穿, 3 = 坎, the rest free),
/// `None` when it does not split into groups. Allocation-free; used by the batch functions.
pub fn best_huxi_counts(rules: &ZipaiRules, counts: &CardCounts) -> Result<Option<i32>> {
    let mut free = *counts;
    let mut fixed = 0;
    let mut fours = false;
    let mut n = 0u32;
    for (i, x) in free.iter_mut().enumerate() {
        n += u32::from(*x);
        let big = i >= 10;
        match *x {
            0..=2 => {}
            3 => {
                fixed += rules.value(GroupKind::Kan, big);
                *x = 0;
            }
            4 => {
                fixed += rules.value(GroupKind::SaoChuan, big);
                fours = true;
                *x = 0;
            }
            v => {
                return Err(Error::hand(format!(
                    "count {v} of {} is more than 4",
                    Card::new_unchecked(i as u8)
                )));
            }
        }
    }
    if n > 23 {
        return Err(Error::hand(format!(
            "wrong hand size: {n} cards (at most 23)"
        )));
    }
    let np = if rules.pair_needs_four {
        fours
    } else {
        free.iter().map(|&x| u32::from(x)).sum::<u32>() % 3 == 2
    };
    Ok(
        search_free(rules, &free, 0, np, None, false, true, false, false)
            .first()
            .map(|&(v, _)| v + fixed),
    )
}

/// A card the hand waits on, with the 胡息 of the best win on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Wait {
    pub card: Card,
    pub huxi: i32,
}

/// Every card completing the hand (cards of which the player holds all four are skipped), with
/// the best 胡息, for a winning card from `source`; only wins reaching `min_huxi` when
/// `reach_min`.
pub fn waits(rules: &ZipaiRules, spec: &HandSpec, reach_min: bool) -> Result<Vec<Wait>> {
    let mut probe = spec.clone();
    probe.win = None;
    if probe.source() == WinSource::Deal {
        return Err(Error::hand("waits need a win source other than the deal"));
    }
    let mut owned = [0u8; N_CARDS];
    for c in probe.all_cards() {
        owned[usize::from(c.index())] += 1;
        if owned[usize::from(c.index())] > 4 {
            return Err(Error::hand(format!("more than 4 copies of {c}")));
        }
    }
    let mut out = Vec::new();
    for card in Card::all() {
        if owned[usize::from(card.index())] >= 4 {
            continue;
        }
        probe.win = Some(card);
        if let Some(d) = best_decomposition(rules, &probe)? {
            if !reach_min || d.huxi >= rules.min_huxi {
                out.push(Wait { card, huxi: d.huxi });
            }
        }
    }
    Ok(out)
}

/// Whether a meld list holds a given meld type (helper for the flow engine).
pub fn has_meld(melds: &[Meld], ty: MeldType, card: Card) -> bool {
    melds.iter().any(|m| m.ty == ty && m.cards[0] == card)
}
