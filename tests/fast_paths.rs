//! Every fast path of the core against the slower, simpler function it replaces, on random hands:
//! the batch row kernels ([`hupai_core::rows`]) against the single-call analysis functions.

mod common;
use common::*;

use hupai_core::analysis::{self, row_plan};
use hupai_core::decompose::{KNITTED_PERMUTATIONS, Shapes, knitted_tiles};
use hupai_core::hand::{Meld, MeldKind};
use hupai_core::rows;
use hupai_core::tables::tables;
use hupai_core::tile::Tile;
use hupai_core::tile::{Counts, N_KINDS};
use hupai_core::{decompose, decompose_wild};

/// `sets` random sets (chows or pungs) and a pair, or `None` when a kind would exceed four.
fn complete_hand(rng: &mut Rng, sets: usize, kinds: usize) -> Option<Counts> {
    let mut c = [0u8; N_KINDS];
    for _ in 0..sets {
        let t = rng.below(kinds as u64) as usize;
        if t < 27 && t % 9 <= 6 && rng.below(2) == 0 {
            for k in 0..3 {
                c[t + k] += 1;
            }
        } else {
            c[t] += 3;
        }
    }
    c[rng.below(kinds as u64) as usize] += 2;
    c.iter().all(|&x| x <= 4).then_some(c)
}

/// A hand of one of the special shapes (possibly broken by a swapped tile).
fn special_hand(rng: &mut Rng) -> Option<Counts> {
    let mut c = [0u8; N_KINDS];
    match rng.below(4) {
        0 => {
            // seven pairs (a quad now and then)
            for _ in 0..7 {
                c[rng.below(34) as usize] += 2;
            }
        }
        1 => {
            // thirteen orphans
            for i in [0usize, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33] {
                c[i] = 1;
            }
            c[[0usize, 8, 9, 17, 18, 26, 27, 33][rng.below(8) as usize]] += 1;
        }
        2 => {
            // honours and knitted tiles: 14 of the 16 kinds
            let perm = KNITTED_PERMUTATIONS[rng.below(6) as usize];
            let mut kinds: Vec<usize> = knitted_tiles(perm).to_vec();
            kinds.extend(27..34);
            while kinds.len() > 14 {
                kinds.swap_remove(rng.below(kinds.len() as u64) as usize);
            }
            for k in kinds {
                c[k] = 1;
            }
        }
        _ => {
            // knitted straight + a set + a pair
            let perm = KNITTED_PERMUTATIONS[rng.below(6) as usize];
            for i in knitted_tiles(perm) {
                c[i] += 1;
            }
            let rest = complete_hand(rng, 1, 34)?;
            for (a, b) in c.iter_mut().zip(rest) {
                *a += b;
            }
        }
    }
    if rng.below(4) == 0 {
        // break it: move one tile
        let from = (0..N_KINDS).find(|&k| c[k] > 0)?;
        c[from] -= 1;
        c[rng.below(34) as usize] += 1;
    }
    c.iter().all(|&x| x <= 4).then_some(c)
}

/// Rows of every kind: random sizes (valid or not), complete hands, special shapes, counts above 4.
fn rows(rng: &mut Rng, n: usize) -> Vec<(Counts, u8)> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let w = [0u8, 0, 0, 1, 2, 9][rng.below(6) as usize];
        let kinds = [34, 27, 9, 18][rng.below(4) as usize];
        let sets = 1 + rng.below(4) as usize;
        let c = match rng.below(6) {
            0 | 1 => {
                let size = (rng.below(16) as usize).saturating_sub(w as usize);
                random_hand(rng, size, kinds)
            }
            2 | 3 => match complete_hand(rng, sets, kinds) {
                Some(mut c) => {
                    // drop w tiles for the wildcards
                    for _ in 0..w {
                        if let Some(k) = (0..N_KINDS).find(|&k| c[k] > 0) {
                            c[k] -= 1;
                        }
                    }
                    c
                }
                None => continue,
            },
            4 => match special_hand(rng) {
                Some(c) => c,
                None => continue,
            },
            _ => {
                let mut c = random_hand(rng, 14, kinds);
                c[rng.below(34) as usize] = [5, 6, 7, 8, 128, 200, 255][rng.below(7) as usize];
                c
            }
        };
        out.push((c, w));
    }
    out
}

/// `n` declared pungs standing for the sets a short hand does not need.
fn dummy_melds(n: usize) -> Vec<Meld> {
    (0..n)
        .map(|i| Meld::new(MeldKind::Pung, Tile::new_unchecked(27 + i as u8), false, 1).unwrap())
        .collect()
}

/// The exact enumerators' answer: a decomposition exists (with wildcards: some assignment).
fn decomposes(c: &Counts, wildcards: u8, sets: u8, shapes: Shapes) -> bool {
    let melds = dummy_melds(4 - sets as usize);
    if wildcards == 0 {
        decompose(c, &melds, shapes).is_ok_and(|d| !d.is_empty())
    } else {
        decompose_wild(c, wildcards, &melds, shapes).is_ok_and(|d| !d.is_empty())
    }
}

#[test]
fn win_row_equals_decomposition() {
    let t = tables();
    let mut rng = Rng(0x5eed);
    let shapes = shape_sets();
    let mut wins = 0;
    for (i, (c, w)) in rows(&mut rng, 40_000).into_iter().enumerate() {
        let s = shapes[i % shapes.len()];
        let want = row_plan(&c, w).map(|p| p.complete && decomposes(&c, w, p.sets, s));
        assert_eq!(rows::win_row(t, &c, w, s), want, "{c:?} w={w} {s:?}");
        wins += usize::from(want == Some(true));
    }
    assert!(wins > 3_000, "too few complete rows generated: {wins}");
}

/// The wildcard-free batch win kernel against the single-row check it replaced
/// (`rows::is_winning` on a loaded row), many rows of every kind and every shape set, with extra
/// rows that stress its special cases: four copies of a rank 9, honours held once or four times,
/// all-even rows, terminal-only rows and knitted rows.
#[test]
fn win_row_equals_row_check() {
    let t = tables();
    let mut rng = Rng(0x0b1d);
    let shapes = shape_sets();
    let mut base: Vec<Counts> = rows(&mut rng, 60_000).into_iter().map(|(c, _)| c).collect();
    for i in 0..60_000 {
        let mut c = base[i % 30_000];
        match rng.below(5) {
            0 => c[[8usize, 17, 26][rng.below(3) as usize]] = 4,
            1 => c[27 + rng.below(7) as usize] = [1, 4][rng.below(2) as usize],
            2 => c.iter_mut().for_each(|x| *x &= !1),
            3 => {
                for k in [1usize, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16] {
                    c[k] = 0;
                }
            }
            _ => {
                let perm = KNITTED_PERMUTATIONS[rng.below(6) as usize];
                c = [0; N_KINDS];
                for k in knitted_tiles(perm) {
                    c[k] = 1;
                }
                for _ in 0..5 {
                    c[rng.below(34) as usize] += 1;
                }
            }
        }
        base.push(c);
    }
    let mut wins = 0;
    for (i, c) in base.iter().enumerate() {
        for s in &shapes {
            let want = rows::Row::load(c).and_then(|r| {
                rows::row_plan(&r, 0).map(|p| p.complete && rows::is_winning(t, &r, 0, p.sets, *s))
            });
            assert_eq!(rows::win_row(t, c, 0, *s), want, "row {i} {c:?} {s:?}");
            wins += usize::from(want == Some(true));
        }
    }
    assert!(wins > 20_000, "too few complete rows generated: {wins}");
}

/// The block kernel of the batch call against the single-row check (`rows::is_winning` on a loaded
/// row) and `win_row`: random rows of every kind (invalid ones too: a count above four, a tile
/// total that is not a hand), special and knitted rows, every shape set, with and without
/// wildcards, in blocks of uneven lengths (across the kernel's 64-row blocks); the first invalid
/// row of each block is reported and every other row's answer is the single check's.
#[test]
fn win_block_equals_row_check() {
    let t = tables();
    let mut rng = Rng(0xb10c);
    let shapes = shape_sets();
    let mut all: Vec<Counts> = rows(&mut rng, 30_000).into_iter().map(|(c, _)| c).collect();
    for _ in 0..10_000 {
        let mut c = [0; N_KINDS];
        let perm = KNITTED_PERMUTATIONS[rng.below(6) as usize];
        for k in knitted_tiles(perm) {
            c[k] = 1;
        }
        for _ in 0..5 {
            c[rng.below(34) as usize] += 1;
        }
        all.push(c);
    }
    // rows at the gates of the special shapes: 14 distinct kinds among the knitted tiles of one
    // assignment and the honours, one tile sometimes moved; seven pairs (a quad now and then)
    for _ in 0..10_000 {
        let mut c = [0; N_KINDS];
        if rng.below(2) == 0 {
            let perm = KNITTED_PERMUTATIONS[rng.below(6) as usize];
            let mut kinds: Vec<usize> = knitted_tiles(perm).to_vec();
            kinds.extend(27..34);
            while kinds.len() > 14 {
                kinds.swap_remove(rng.below(kinds.len() as u64) as usize);
            }
            for k in kinds {
                c[k] = 1;
            }
            if rng.below(2) == 0 {
                let from = (0..N_KINDS)
                    .filter(|&k| c[k] > 0)
                    .nth(rng.below(14) as usize);
                c[from.unwrap_or(0)] -= 1;
                c[rng.below(34) as usize] += 1;
            }
        } else {
            for _ in 0..7 {
                c[rng.below(34) as usize] += 2;
            }
        }
        all.push(c);
    }
    for i in 0..all.len() {
        let j = rng.below(all.len() as u64) as usize;
        all.swap(i, j);
    }
    let (mut wins, mut invalid, mut at) = (0, 0, 0);
    let mut block = 0;
    while at < all.len() {
        let len = [1usize, 5, 63, 64, 65, 200, 1000][block % 7].min(all.len() - at);
        let rows_in = &all[at..at + len];
        let s = shapes[block % shapes.len()];
        let w = [0u8, 0, 0, 1, 2][block % 5];
        let mut out = vec![true; len];
        let bad = rows::win_block(t, rows_in, &mut out, w, s);
        let mut first_bad = None;
        for (i, c) in rows_in.iter().enumerate() {
            let want = rows::Row::load(c).and_then(|r| {
                rows::row_plan(&r, w).map(|p| p.complete && rows::is_winning(t, &r, w, p.sets, s))
            });
            assert_eq!(rows::win_row(t, c, w, s), want, "row {c:?} w={w} {s:?}");
            match want {
                Some(v) => {
                    assert_eq!(out[i], v, "row {c:?} w={w} {s:?}");
                    wins += usize::from(v);
                }
                None => {
                    first_bad.get_or_insert(i);
                    invalid += 1;
                }
            }
        }
        assert_eq!(bad, first_bad, "block at {at} w={w} {s:?}");
        at += len;
        block += 1;
    }
    assert!(wins > 2_000, "too few complete rows generated: {wins}");
    assert!(invalid > 1_000, "too few invalid rows generated: {invalid}");
}

#[test]
fn row_load_validates_and_rebuilds() {
    let mut rng = Rng(77);
    for (c, w) in rows(&mut rng, 20_000) {
        let r = rows::Row::load(&c);
        assert_eq!(r.is_some(), c.iter().all(|&x| x <= 4), "{c:?}");
        if let Some(r) = r {
            assert_eq!(r.counts(), c);
            assert_eq!(
                r.tiles(),
                c.iter().map(|&x| u32::from(x)).sum::<u32>(),
                "{c:?}"
            );
            assert_eq!(rows::row_plan(&r, w), analysis::row_plan(&c, w));
        }
    }
}

/// Shanten of a row by brute force over the forms: the smallest distance of `form_distances`
/// (which measures the special shapes with the per-kind definitions of `analysis`).
#[test]
fn shanten_row_equals_form_minimum() {
    let t = tables();
    let mut rng = Rng(4242);
    let shapes = shape_sets();
    for (i, (c, w)) in rows(&mut rng, 30_000).into_iter().enumerate() {
        let s = shapes[i % shapes.len()];
        let want = row_plan(&c, w).filter(|p| p.fits(s)).map(|p| {
            let d = analysis::form_distances(&c, p.sets, s).min();
            d.saturating_sub(w) as i8 - 1
        });
        assert_eq!(rows::shanten_row(t, &c, w, s), want, "{c:?} w={w} {s:?}");
    }
}

/// A row source that gives words and bytes only, so that the batch win kernel builds its vectors
/// from words (the default of `RowSource::vec16`) rather than loading them from the array.
struct WordsOnly<'a>(&'a Counts);

impl rows::RowSource for WordsOnly<'_> {
    fn word(&self, at: usize) -> u64 {
        rows::RowSource::word(self.0, at)
    }
    fn byte(&self, at: usize) -> u8 {
        self.0[at]
    }
}

/// The batch win kernel reads the same answers through either way of loading a row: random rows
/// (invalid ones too) and special-shape rows, every shape set, against `win_row` on the array.
#[test]
fn win_block_equals_through_words() {
    let t = tables();
    let mut rng = Rng(0x0d5e);
    let shapes = shape_sets();
    let mut all: Vec<Counts> = rows(&mut rng, 20_000).into_iter().map(|(c, _)| c).collect();
    for _ in 0..4_000 {
        let mut c = [0; N_KINDS];
        match rng.below(3) {
            0 => {
                let perm = KNITTED_PERMUTATIONS[rng.below(6) as usize];
                for k in knitted_tiles(perm) {
                    c[k] = 1;
                }
                for _ in 0..5 {
                    c[rng.below(34) as usize] += 1;
                }
            }
            1 => {
                for _ in 0..7 {
                    c[rng.below(34) as usize] += 2;
                }
            }
            _ => {
                for k in [0usize, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33] {
                    c[k] = 1;
                }
                c[[0usize, 8, 9, 17, 18, 26, 27, 33][rng.below(8) as usize]] += 1;
            }
        }
        all.push(c);
    }
    for s in &shapes {
        let mut a = vec![true; all.len()];
        let mut b = vec![true; all.len()];
        let bad_a = rows::win_block(t, &all, &mut a, 0, *s);
        let bad_b = rows::win_block(t, all.iter().map(WordsOnly), &mut b, 0, *s);
        assert_eq!(bad_a, bad_b, "{s:?}");
        for (i, c) in all.iter().enumerate() {
            let want = rows::win_row(t, c, 0, *s);
            assert_eq!(want, rows::win_row(t, &WordsOnly(c), 0, *s), "{c:?} {s:?}");
            assert_eq!(a[i], want == Some(true), "{c:?} {s:?}");
            assert_eq!(b[i], want == Some(true), "{c:?} {s:?}");
        }
    }
}
