//! Decompositions of complete hands holding wildcards (癞子 / 百搭, common.md §4).
//!
//! Every wildcard is a substitute for any tile (also a fifth copy: `wildcard_respects_four_copies`
//! is false by default). [`decompose_wild`] returns every distinct decomposition together with what
//! each wildcard became ([`Decomposition::wildcards`], sorted). A wildcard used as its own face value
//! is not a wildcard here: callers pass such tiles in `concealed` (硬胡 = a decomposition with an
//! empty `wildcards` list when the wildcard kinds are put back as real tiles).
//!
//! Sets made only of wildcards can be any set, so a hand with many wildcards has many
//! decompositions (three wildcards alone give 34 pungs + 21 chows).

#![allow(clippy::needless_range_loop)] // index-heavy table code reads better with indices

use std::collections::HashSet;

use crate::analysis::{MAX_WILDCARDS, Plan};
use crate::decompose::{
    Decomposition, Form, KNITTED_PERMUTATIONS, ORPHANS, Set, Shapes, decompose, knitted_tiles,
};
use crate::error::{Error, Result};
use crate::hand::{Meld, MeldKind, check_copies};
use crate::tile::{Counts, N_KINDS, Tile};

/// All decompositions of a complete hand whose standing tiles are `concealed` plus `wildcards`
/// wildcard tiles (`concealed` + wildcards + 3 per meld = 14).
pub fn decompose_wild(
    concealed: &Counts,
    wildcards: u8,
    melds: &[Meld],
    shapes: Shapes,
) -> Result<Vec<Decomposition>> {
    check_copies(concealed)?;
    if wildcards > MAX_WILDCARDS {
        return Err(Error::hand(format!(
            "{wildcards} wildcards: at most {MAX_WILDCARDS} are supported"
        )));
    }
    if wildcards == 0 {
        return decompose(concealed, melds, shapes);
    }
    let n: usize = concealed.iter().map(|&c| c as usize).sum();
    if n + wildcards as usize + 3 * melds.len() != 14 {
        return Err(Error::hand(format!(
            "a complete hand has {} standing tiles (wildcards included) with {} meld(s), got {}",
            14 - 3 * melds.len().min(4),
            melds.len(),
            n + wildcards as usize
        )));
    }
    Plan::new(concealed, wildcards, melds.len())?;
    let declared: Vec<Set> = melds.iter().map(Set::from_meld).collect();
    let mut seen: HashSet<Decomposition> = HashSet::new();
    let mut out: Vec<Decomposition> = Vec::new();
    let mut push = |d: Decomposition| {
        if seen.insert(d.clone()) {
            out.push(d);
        }
    };
    if shapes.standard {
        let mut c = *concealed;
        let mut e = Enum::new(declared.len());
        e.sets.extend_from_slice(&declared);
        e.standard(&mut c, wildcards, None, &mut |sets, pair, subs| {
            push(make(
                Form::Standard,
                sets,
                Some(pair),
                Vec::new(),
                None,
                subs,
            ));
        });
    }
    if melds.is_empty() {
        if shapes.seven_pairs {
            seven_pairs(
                concealed,
                wildcards,
                shapes.seven_pairs_quads,
                &mut |pairs, subs| {
                    push(make(Form::SevenPairs, &[], None, pairs, None, subs));
                },
            );
        }
        if shapes.thirteen_orphans {
            thirteen_orphans(concealed, wildcards, &mut |pair, subs| {
                push(make(
                    Form::ThirteenOrphans,
                    &[],
                    Some(pair),
                    Vec::new(),
                    None,
                    subs,
                ));
            });
        }
        if shapes.honors_knitted {
            honors_knitted(concealed, wildcards, &mut |perm, subs| {
                push(make(
                    Form::HonorsKnitted,
                    &[],
                    None,
                    Vec::new(),
                    Some(perm),
                    subs,
                ));
            });
        }
    }
    if shapes.knitted_straight && melds.len() <= 1 {
        for perm in KNITTED_PERMUTATIONS {
            let mut c = *concealed;
            let mut subs = Vec::new();
            for i in knitted_tiles(perm) {
                if c[i] > 0 {
                    c[i] -= 1;
                } else {
                    subs.push(Tile::new_unchecked(i as u8));
                }
            }
            let Some(w) = (wildcards as usize).checked_sub(subs.len()) else {
                continue;
            };
            let mut e = Enum::new(declared.len());
            e.sets.extend_from_slice(&declared);
            e.subs = subs;
            e.standard(&mut c, w as u8, None, &mut |sets, pair, subs| {
                push(make(
                    Form::KnittedStraight,
                    sets,
                    Some(pair),
                    Vec::new(),
                    Some(perm),
                    subs,
                ));
            });
        }
    }
    Ok(out)
}

fn make(
    form: Form,
    sets: &[Set],
    pair: Option<Tile>,
    mut pairs: Vec<Tile>,
    knitted: Option<[u8; 3]>,
    subs: &[Tile],
) -> Decomposition {
    let mut wild = subs.to_vec();
    wild.sort_unstable();
    pairs.sort_unstable();
    Decomposition {
        form,
        sets: crate::decompose::Sets::from_slice(sets),
        pair,
        pairs: pairs.into(),
        knitted,
        wildcards: wild,
    }
}

/// Callback receiving (sets, pair, substitutes).
type Emit<'a> = dyn FnMut(&[Set], Tile, &[Tile]) + 'a;

/// Standard enumeration state: sets so far (declared first) and substitutes so far.
struct Enum {
    declared: usize,
    sets: Vec<Set>,
    subs: Vec<Tile>,
}

/// Set keys for wildcard-only sets: 0..34 pungs, 34..55 chows.
fn pure_set(key: usize) -> (Set, [Tile; 3]) {
    if key < N_KINDS {
        let t = Tile::new_unchecked(key as u8);
        (Set::standing(MeldKind::Pung, t), [t; 3])
    } else {
        let k = key - N_KINDS;
        let start = (k / 7 * 9 + k % 7) as u8;
        let t = |o: u8| Tile::new_unchecked(start + o);
        (Set::standing(MeldKind::Chow, t(0)), [t(0), t(1), t(2)])
    }
}

impl Enum {
    fn new(declared: usize) -> Self {
        Enum {
            declared,
            sets: Vec::with_capacity(4 + declared),
            subs: Vec::with_capacity(8),
        }
    }

    fn emit(&mut self, pair: Tile, emit: &mut Emit<'_>) {
        let mut sets = self.sets.clone();
        sets[self.declared..].sort_unstable_by_key(|s| (s.tile, s.kind));
        emit(&sets, pair, &self.subs);
    }

    /// Wildcard-only sets (non-decreasing keys from `from`), then emit.
    fn pure(&mut self, w: u8, from: usize, pair: Tile, emit: &mut Emit<'_>) {
        if w == 0 {
            self.emit(pair, emit);
            return;
        }
        for key in from..N_KINDS + 21 {
            let (set, tiles) = pure_set(key);
            self.sets.push(set);
            self.subs.extend_from_slice(&tiles);
            self.pure(w - 3, key, pair, emit);
            self.subs.truncate(self.subs.len() - 3);
            self.sets.pop();
        }
    }

    fn standard(&mut self, c: &mut Counts, w: u8, pair: Option<Tile>, emit: &mut Emit<'_>) {
        let Some(i) = c.iter().position(|&x| x > 0) else {
            match pair {
                Some(p) if w % 3 == 0 => self.pure(w, 0, p, emit),
                None if w % 3 == 2 => {
                    for k in 0..N_KINDS as u8 {
                        let p = Tile::new_unchecked(k);
                        self.subs.push(p);
                        self.subs.push(p);
                        self.pure(w - 2, 0, p, emit);
                        self.subs.truncate(self.subs.len() - 2);
                    }
                }
                _ => {}
            }
            return;
        };
        let ti = Tile::new_unchecked(i as u8);
        // Pung of i with r real copies.
        for r in 1..=c[i].min(3) {
            let need = 3 - r;
            if need > w {
                continue;
            }
            c[i] -= r;
            self.sets.push(Set::standing(MeldKind::Pung, ti));
            for _ in 0..need {
                self.subs.push(ti);
            }
            self.standard(c, w - need, pair, emit);
            self.subs.truncate(self.subs.len() - need as usize);
            self.sets.pop();
            c[i] += r;
        }
        // Chows through i.
        if i < 27 {
            let base = i / 9 * 9;
            for start in i.saturating_sub(2).max(base)..=i.min(base + 6) {
                // The other two positions: real (if held) or wildcard, in every combination.
                let others: Vec<usize> = (start..start + 3).filter(|&k| k != i).collect();
                for mask in 0..4u8 {
                    let mut ok = true;
                    let mut need = 0u8;
                    for (b, &k) in others.iter().enumerate() {
                        let real = mask >> b & 1 == 1;
                        if real && c[k] == 0 {
                            ok = false;
                        }
                        if !real {
                            need += 1;
                        }
                    }
                    if !ok || need > w {
                        continue;
                    }
                    c[i] -= 1;
                    for (b, &k) in others.iter().enumerate() {
                        if mask >> b & 1 == 1 {
                            c[k] -= 1;
                        } else {
                            self.subs.push(Tile::new_unchecked(k as u8));
                        }
                    }
                    self.sets.push(Set::standing(
                        MeldKind::Chow,
                        Tile::new_unchecked(start as u8),
                    ));
                    self.standard(c, w - need, pair, emit);
                    self.sets.pop();
                    for (b, &k) in others.iter().enumerate() {
                        if mask >> b & 1 == 1 {
                            c[k] += 1;
                        }
                    }
                    self.subs.truncate(self.subs.len() - need as usize);
                    c[i] += 1;
                }
            }
        }
        // The pair with i.
        if pair.is_none() {
            for r in 1..=c[i].min(2) {
                let need = 2 - r;
                if need > w {
                    continue;
                }
                c[i] -= r;
                for _ in 0..need {
                    self.subs.push(ti);
                }
                self.standard(c, w - need, Some(ti), emit);
                self.subs.truncate(self.subs.len() - need as usize);
                c[i] += r;
            }
        }
    }
}

fn seven_pairs(c: &Counts, w: u8, quads: bool, emit: &mut dyn FnMut(Vec<Tile>, &[Tile])) {
    let mut pairs = Vec::new();
    let mut subs = Vec::new();
    let mut used = [false; N_KINDS];
    for (k, &x) in c.iter().enumerate() {
        if x == 0 {
            continue;
        }
        if !quads && x > 2 {
            return;
        }
        let t = Tile::new_unchecked(k as u8);
        used[k] = true;
        for _ in 0..x.div_ceil(2) {
            pairs.push(t);
        }
        if x % 2 == 1 {
            subs.push(t);
        }
    }
    if pairs.len() > 7 || subs.len() > w as usize {
        return;
    }
    let left = w as usize - subs.len();
    if left != 2 * (7 - pairs.len()) {
        return;
    }
    // Wildcard-only pairs: any kinds (distinct and new when quads are not pairs).
    fn rec(
        from: usize,
        n: usize,
        quads: bool,
        used: &[bool; N_KINDS],
        pairs: &mut Vec<Tile>,
        subs: &mut Vec<Tile>,
        emit: &mut dyn FnMut(Vec<Tile>, &[Tile]),
    ) {
        if n == 0 {
            emit(pairs.clone(), subs);
            return;
        }
        for k in from..N_KINDS {
            if !quads && used[k] {
                continue;
            }
            let t = Tile::new_unchecked(k as u8);
            pairs.push(t);
            subs.push(t);
            subs.push(t);
            rec(
                if quads { k } else { k + 1 },
                n - 1,
                quads,
                used,
                pairs,
                subs,
                emit,
            );
            subs.truncate(subs.len() - 2);
            pairs.pop();
        }
    }
    let n = 7 - pairs.len();
    rec(0, n, quads, &used, &mut pairs, &mut subs, emit);
}

fn thirteen_orphans(c: &Counts, w: u8, emit: &mut dyn FnMut(Tile, &[Tile])) {
    let mut pair = None;
    let mut subs = Vec::new();
    for (k, &x) in c.iter().enumerate() {
        let orphan = ORPHANS.contains(&k);
        let t = Tile::new_unchecked(k as u8);
        match (orphan, x) {
            (_, 0) => {
                if orphan {
                    subs.push(t);
                }
            }
            (true, 1) => {}
            (true, 2) if pair.is_none() => pair = Some(t),
            _ => return,
        }
    }
    match pair {
        Some(p) if subs.len() == w as usize => emit(p, &subs),
        None if subs.len() + 1 == w as usize => {
            for &k in &ORPHANS {
                let p = Tile::new_unchecked(k as u8);
                subs.push(p);
                emit(p, &subs);
                subs.pop();
            }
        }
        _ => {}
    }
}

fn honors_knitted(c: &Counts, w: u8, emit: &mut dyn FnMut([u8; 3], &[Tile])) {
    if c.iter().any(|&x| x > 1) {
        return;
    }
    for perm in KNITTED_PERMUTATIONS {
        let mut allowed: Vec<usize> = knitted_tiles(perm).to_vec();
        allowed.extend(27..34);
        if (0..27).any(|i| c[i] > 0 && !allowed.contains(&i)) {
            continue;
        }
        let missing: Vec<usize> = allowed.iter().copied().filter(|&i| c[i] == 0).collect();
        // Choose which `w` of the missing kinds the wildcards become.
        let mut chosen = Vec::new();
        fn rec(
            missing: &[usize],
            from: usize,
            n: usize,
            chosen: &mut Vec<Tile>,
            perm: [u8; 3],
            emit: &mut dyn FnMut([u8; 3], &[Tile]),
        ) {
            if n == 0 {
                emit(perm, chosen);
                return;
            }
            for j in from..missing.len() {
                chosen.push(Tile::new_unchecked(missing[j] as u8));
                rec(missing, j + 1, n - 1, chosen, perm, emit);
                chosen.pop();
            }
        }
        rec(&missing, 0, w as usize, &mut chosen, perm, emit);
    }
}

/// Reassemble the standing tiles (real + substitutes) of a decomposition: used by tests.
pub fn standing_tiles(d: &Decomposition) -> Counts {
    let mut c = [0u8; N_KINDS];
    for s in d.sets.iter().filter(|s| !s.declared) {
        let m = Meld {
            kind: s.kind,
            tile: s.tile,
            concealed: true,
            from: 0,
        };
        m.add_to(&mut c);
    }
    if let Some(p) = d.pair {
        c[p.idx()] += if d.form == Form::ThirteenOrphans {
            1
        } else {
            2
        };
    }
    for p in &d.pairs {
        c[p.idx()] += 2;
    }
    if let Some(perm) = d.knitted {
        if d.form == Form::HonorsKnitted {
            // The fourteen distinct tiles are not recoverable from the perm alone; callers check
            // those with their own tiles.
        } else {
            for i in knitted_tiles(perm) {
                c[i] += 1;
            }
        }
    }
    if d.form == Form::ThirteenOrphans {
        for &k in &ORPHANS {
            c[k] += 1;
        }
    }
    c
}

/// All tiles of a decomposition (standing sets and pair(s) with substitutes resolved, plus the
/// declared melds; a kong counts four): the hand "as read", for pattern checks such as 清一色.
/// 全不靠 forms are not supported (their tiles are not recoverable from the decomposition).
pub fn read_tiles(d: &Decomposition) -> Counts {
    let mut c = standing_tiles(d);
    for s in d.sets.iter().filter(|s| s.declared) {
        match s.kind {
            MeldKind::Chow => {
                for k in 0..3 {
                    c[s.tile.idx() + k] += 1;
                }
            }
            MeldKind::Kong => c[s.tile.idx()] += 4,
            _ => c[s.tile.idx()] += 3,
        }
    }
    c
}

/// Decompositions of a complete hand (`full`: standing tiles with the winning tile) in which
/// every standing copy of `wild` may stand for any tile (or for itself). Copies inside declared
/// melds keep their face value.
pub fn decompose_with_wild_kind(
    full: &Counts,
    wild: Tile,
    melds: &[Meld],
    shapes: Shapes,
) -> Result<Vec<Decomposition>> {
    let k = full[wild.idx()];
    if k == 0 {
        return decompose(full, melds, shapes);
    }
    let mut without = *full;
    without[wild.idx()] = 0;
    decompose_wild(&without, k, melds, shapes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse_tiles, to_counts};

    fn counts(s: &str) -> Counts {
        to_counts(&parse_tiles(s).unwrap()).unwrap()
    }

    #[test]
    fn single_wild() {
        let d = decompose_wild(&counts("123m456p789sEEEC"), 1, &[], Shapes::STANDARD).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].wildcards, vec![Tile::C]);
        let d = decompose_wild(&counts("13m456p789sEEECC"), 1, &[], Shapes::STANDARD).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].wildcards[0].to_string(), "2m");
    }

    #[test]
    fn pure_wild_sets() {
        // 11 real tiles forming 3 sets + pair, three wildcards: any of 55 sets.
        let d = decompose_wild(&counts("123m456p789sEE"), 3, &[], Shapes::STANDARD).unwrap();
        assert!(d.len() >= 55);
        for x in &d {
            let mut c = standing_tiles(x);
            for t in &x.wildcards {
                c[t.idx()] -= 1;
            }
            assert_eq!(c, counts("123m456p789sEE"));
        }
    }
}
