//! Helpers shared by the core's integration tests (`mod common;` in each): a small
//! deterministic generator, random hands and the shape sets the fast paths are checked under.
#![allow(dead_code)] // each test file uses part of it

use hupai_core::decompose::Shapes;
use hupai_core::tile::{Counts, N_KINDS};

/// Small deterministic PRNG (xorshift).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `n` random tiles (at most four copies) from kinds `< kinds`.
pub fn random_hand(rng: &mut Rng, n: usize, kinds: usize) -> Counts {
    let mut c = [0u8; N_KINDS];
    let mut k = 0;
    while k < n {
        let t = rng.below(kinds as u64) as usize;
        if c[t] < 4 {
            c[t] += 1;
            k += 1;
        }
    }
    c
}

/// Every shape set the fast paths are compared under.
pub fn shape_sets() -> Vec<Shapes> {
    let none = Shapes {
        standard: false,
        seven_pairs: false,
        seven_pairs_quads: false,
        thirteen_orphans: false,
        honors_knitted: false,
        knitted_straight: false,
    };
    vec![
        Shapes::ALL,
        Shapes::STANDARD,
        Shapes {
            seven_pairs_quads: false,
            honors_knitted: false,
            knitted_straight: false,
            ..Shapes::ALL
        },
        Shapes {
            seven_pairs: true,
            ..none
        },
        Shapes {
            thirteen_orphans: true,
            ..none
        },
        Shapes {
            honors_knitted: true,
            ..none
        },
        Shapes {
            knitted_straight: true,
            ..none
        },
        Shapes {
            standard: false,
            ..Shapes::ALL
        },
    ]
}
