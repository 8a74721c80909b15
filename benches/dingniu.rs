//! Criterion benches of the 顶牛 core (`cargo bench --bench dingniu`), one thread.
//!
//! * `placements/10k`: legal placements of 10 000 random (ends, 6-tile hand) positions;
//! * `zhang_check/10k`: the 算帐 verdict on one legal placement of 10 000 random positions;
//! * `hand/greedy`, `hand/random`: one whole hand dealt from a seed and played by four bots
//!   (no invariant checks); `hand/greedy-checked`: the same with every check and the replay.
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use hupai_core::rules::dingniu::rng::Rng;
use hupai_core::rules::dingniu::sim::play_round;
use hupai_core::rules::dingniu::tile::{Counts, Ends, N_KINDS, Tile, placements};
use hupai_core::rules::dingniu::zhang::{Position, check};
use hupai_core::rules::dingniu::{Bot, Carry, DingniuRules};

/// Random positions: the 24 tiles shuffled into four hands of 0..=6 tiles, random ends.
fn positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut set = Vec::new();
    for t in Tile::ALL {
        for _ in 0..t.copies() {
            set.push(t);
        }
    }
    (0..n)
        .map(|_| {
            for i in (1..set.len()).rev() {
                set.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let mut hands = [[0u8; N_KINDS]; 4];
            let mut k = 0;
            for h in &mut hands {
                for _ in 0..=rng.below(6) {
                    h[set[k].index()] += 1;
                    k += 1;
                }
            }
            Position {
                ends: Ends(1 + rng.below(6) as u8, 1 + rng.below(6) as u8),
                hands,
                kou_count: [0; 4],
                toupai: 0,
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let r = DingniuRules::default();
    let pos = positions(10_000, 7);
    let mut g = c.benchmark_group("dingniu");
    g.throughput(Throughput::Elements(10_000));
    g.bench_function("placements/10k", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &pos {
                n += placements(black_box(p.ends), black_box(&p.hands[0])).len();
            }
            n
        })
    });
    let with_move: Vec<(Position, u8, _)> = pos
        .iter()
        .filter_map(|p| {
            (0..4u8).find_map(|x| {
                let h: &Counts = &p.hands[x as usize];
                placements(p.ends, h).iter().next().map(|q| (*p, x, *q))
            })
        })
        .collect();
    g.throughput(Throughput::Elements(with_move.len() as u64));
    g.bench_function("zhang_check/10k", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (p, x, q) in &with_move {
                n += usize::from(check(&r, black_box(p), *x, q).kind.is_some());
            }
            n
        })
    });
    g.throughput(Throughput::Elements(1));
    for (name, bots, checked) in [
        ("hand/greedy", [Bot::Greedy; 4], false),
        ("hand/random", [Bot::Random; 4], false),
        ("hand/greedy-checked", [Bot::Greedy; 4], true),
    ] {
        let mut seed = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut checks = 0;
                play_round(&r, seed, Carry::default(), &bots, checked, &mut checks)
                    .map(|h| h.toupai())
                    .unwrap_or(0)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
