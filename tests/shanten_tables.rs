//! The distance path of shanten (sum-first suit index, per-size final planes, special shapes)
//! against its slow reference (`rows::min_distance_reference`: the lexicographic suit tables and
//! the previous special-shape code): every suit vector, every hand of one group, random hands.

mod common;
use common::*;

use hupai_core::Shapes;
use hupai_core::rows::{self, Row};
use hupai_core::tables::{self, MAX_SUIT_TILES, SUIT_ENTRIES, suit_rank, tables};
use hupai_core::tile::{Counts, N_KINDS};

/// Every vector of `len` counts 0..=4 with at most 14 tiles.
fn each_vector(len: usize, f: &mut dyn FnMut(&[u8])) {
    fn rec(v: &mut Vec<u8>, len: usize, sum: usize, f: &mut dyn FnMut(&[u8])) {
        if v.len() == len {
            f(v);
            return;
        }
        for c in 0..=4u8 {
            if sum + c as usize > MAX_SUIT_TILES {
                break;
            }
            v.push(c);
            rec(v, len, sum + c as usize, f);
            v.pop();
        }
    }
    rec(&mut Vec::with_capacity(len), len, 0, f);
}

fn base5(v: &[u8]) -> usize {
    v.iter().rev().fold(0, |acc, &c| 5 * acc + c as usize)
}

#[test]
fn sum_first_suit_index_is_dense_and_keeps_the_classes() {
    let t = tables();
    let mut seen = vec![false; SUIT_ENTRIES];
    let mut count = 0;
    each_vector(9, &mut |v| {
        let s_hi: usize = v[4..].iter().map(|&c| c as usize).sum();
        let n: usize = v.iter().map(|&c| c as usize).sum();
        let r = tables::hot_rank(t, base5(&v[..4]), base5(&v[4..]), s_hi);
        assert!(!seen[r], "{v:?}: rank {r} twice");
        seen[r] = true;
        assert_eq!(t.hot_class[r], t.suit_class[suit_rank(t, v)], "{v:?}");
        // the suits of at most 9 tiles come first
        assert_eq!(r < 42_185, n <= 9, "{v:?}");
        count += 1;
    });
    assert_eq!(count, SUIT_ENTRIES);
}

#[test]
fn final_planes_equal_final_dist() {
    let t = tables();
    for ab in 0..t.ab_dist.len() {
        for sh in 0..t.sh_dist.len() {
            let f = tables::final_of(t, ab, sh);
            for (m, &d) in f.iter().enumerate().take(5) {
                assert_eq!(tables::final_at(t, ab, sh, m), d);
            }
        }
    }
}

/// New against reference for every size the hand (with `wildcards`) may have and every shape set
/// that fits it; also the standard distance for every number of sets.
fn check(c: &Counts, wildcards: u8, shapes: &[Shapes]) {
    let t = tables();
    let r = Row::of(c);
    let all = rows::standard_distances(t, &r);
    for m in 0..5u8 {
        assert_eq!(
            rows::standard_distance(t, &r, m),
            all[m as usize],
            "{c:?} m={m}"
        );
    }
    let n = r.tiles() + u32::from(wildcards);
    if n == 0 || n > 14 || n % 3 == 0 {
        return;
    }
    let sets = ((n - 1) / 3) as u8;
    for &s in shapes {
        let p = hupai_core::analysis::Plan {
            sets,
            complete: n % 3 == 2,
        };
        if !p.fits(s) {
            continue;
        }
        assert_eq!(
            rows::min_distance(t, &r, sets, s),
            rows::min_distance_reference(t, &r, sets, s),
            "{c:?} w={wildcards} {s:?}"
        );
        assert_eq!(
            rows::shanten_row(t, c, wildcards, s),
            Some(rows::min_distance_reference(t, &r, sets, s).saturating_sub(wildcards) as i8 - 1),
            "{c:?} w={wildcards} {s:?}"
        );
    }
}

#[test]
fn every_one_suit_hand_equals_the_reference() {
    let shapes = shape_sets();
    for g in 0..3 {
        let used = if g == 0 { &shapes[..] } else { &shapes[..2] };
        each_vector(9, &mut |v| {
            let mut c = [0u8; N_KINDS];
            c[9 * g..9 * g + 9].copy_from_slice(v);
            check(&c, 0, used);
        });
    }
}

#[test]
fn every_honours_hand_equals_the_reference() {
    let shapes = shape_sets();
    each_vector(7, &mut |v| {
        let mut c = [0u8; N_KINDS];
        c[27..].copy_from_slice(v);
        check(&c, 0, &shapes);
        check(&c, 1, &shapes[..1]);
    });
}

/// [`shape_sets`] and the pairs of shapes the special-shape code settles together (a 组合龙's
/// bound from the standard shape, the kind counts 七对 without quads and 十三幺 share).
fn more_shape_sets() -> Vec<Shapes> {
    let mut out = shape_sets();
    let only = |f: &dyn Fn(&mut Shapes)| {
        let mut s = Shapes::STANDARD;
        s.standard = false;
        f(&mut s);
        s
    };
    out.push(only(&|s| {
        s.standard = true;
        s.knitted_straight = true;
    }));
    out.push(only(&|s| {
        s.seven_pairs = true;
        s.seven_pairs_quads = true;
    }));
    out.push(only(&|s| {
        s.seven_pairs = true;
        s.thirteen_orphans = true;
        s.honors_knitted = true;
    }));
    out.push(only(&|s| {
        s.honors_knitted = true;
        s.knitted_straight = true;
    }));
    out.push(Shapes {
        seven_pairs_quads: false,
        ..Shapes::ALL
    });
    out
}

#[test]
fn random_hands_equal_the_reference() {
    let shapes = more_shape_sets();
    let mut rng = Rng(0xC0FFEE);
    for i in 0..300_000 {
        let w = [0u8, 0, 0, 0, 1, 2, 3][rng.below(7) as usize];
        let n = 1 + rng.below(14 - u64::from(w)) as usize;
        let mut c = [0u8; N_KINDS];
        match i % 4 {
            // uniform over kinds, or concentrated on few kinds
            0 | 1 => {
                let kinds = [34, 27, 18, 9, 16][rng.below(5) as usize];
                let mut k = 0;
                while k < n {
                    let t = rng.below(kinds) as usize;
                    if c[t] < 4 {
                        c[t] += 1;
                        k += 1;
                    }
                }
            }
            // knitted tiles of one assignment, the rest random (or honours: 全不靠 near misses)
            2 => {
                let perm = hupai_core::decompose::KNITTED_PERMUTATIONS[rng.below(6) as usize];
                let mut k = 0;
                for t in hupai_core::decompose::knitted_tiles(perm) {
                    if k < n && rng.below(8) != 0 {
                        c[t] += 1;
                        k += 1;
                    }
                }
                let honours = rng.below(2) == 0;
                while k < n {
                    let t = if honours && rng.below(4) != 0 {
                        27 + rng.below(7) as usize
                    } else {
                        rng.below(34) as usize
                    };
                    if c[t] < 4 {
                        c[t] += 1;
                        k += 1;
                    }
                }
            }
            // terminals, honours and pairs (十三幺, 七对 near misses)
            _ => {
                const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
                let mut k = 0;
                while k < n {
                    let t = if rng.below(3) == 0 {
                        rng.below(34) as usize
                    } else {
                        ORPHANS[rng.below(13) as usize]
                    };
                    let add = (1 + rng.below(2) as usize)
                        .min(n - k)
                        .min(4 - c[t] as usize);
                    c[t] += add as u8;
                    k += add;
                }
            }
        }
        check(&c, w, &shapes);
    }
}

/// The batch kernel over blocks of rows (some invalid: a count of five, a size that is not a
/// hand, a size the shapes do not allow) equals the row kernel row by row, with the first invalid
/// row's index, for every shape set (the common ones take their own loop) and 0-2 wildcards.
#[test]
fn shanten_block_equals_the_row_kernel() {
    let t = tables();
    let mut rng = Rng(0x5EED);
    let mut shapes = more_shape_sets();
    shapes.push(Shapes::STANDARD);
    for round in 0..400 {
        let rows: Vec<Counts> = (0..1 + rng.below(80) as usize)
            .map(|_| {
                let n = [13, 13, 14, 10, 11, 7, 4, 1, 12, 15][rng.below(10) as usize];
                let mut c = [0u8; N_KINDS];
                let mut k = 0;
                while k < n {
                    let i = rng.below(34) as usize;
                    if c[i] < 4 {
                        c[i] += 1;
                        k += 1;
                    }
                }
                if rng.below(40) == 0 {
                    c[rng.below(34) as usize] = 5;
                }
                c
            })
            .collect();
        let wildcards = (round % 3) as u8;
        for &s in &shapes {
            let mut out = vec![0i8; rows.len()];
            let bad = rows::shanten_block(t, |i| &rows[i], &mut out, wildcards, s);
            let want: Vec<Option<i8>> = rows
                .iter()
                .map(|c| rows::shanten_row(t, c, wildcards, s))
                .collect();
            assert_eq!(bad, want.iter().position(|x| x.is_none()), "{s:?}");
            for (o, w) in out.iter().zip(&want) {
                assert_eq!(*o, w.unwrap_or(0), "{s:?}");
            }
        }
    }
}
