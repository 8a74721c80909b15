//! Criterion benches of the 顶牛 core (`cargo bench --bench dingniu`), one thread.
//!
//! * `placements/10k`: legal placements of 10 000 random (ends, 6-tile hand) positions;
//! * `zhang_check/10k`: the 算帐 verdict on one legal placement of 10 000 random positions;
//! * `hand/greedy`, `hand/random`: one whole hand dealt from a seed and played by four bots at the
//!   one table engine (no invariant checks); `hand/greedy-checked`: the same in its checking mode
//!   (the game's checks after every move, the replays).
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use hupai_core::Variant;
use hupai_core::game::bots::BotKind;
use hupai_core::game::sim::{SimOptions, play_game};
use hupai_core::game::table::Compiled;
use hupai_core::rules::dingniu::DingniuRules;
use hupai_core::rules::dingniu::rng::Rng;
use hupai_core::rules::dingniu::tile::{Counts, Ends, N_KINDS, Tile, placements};
use hupai_core::rules::dingniu::zhang::{Position, check};

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
    let table = Compiled::new(std::sync::Arc::new(Variant::load("dingniu").unwrap())).unwrap();
    for (name, bot, checked) in [
        ("hand/greedy", BotKind::Greedy, false),
        ("hand/random", BotKind::Random, false),
        ("hand/greedy-checked", BotKind::Greedy, true),
    ] {
        let opt = SimOptions {
            check: checked,
            json_replay_every: u64::from(checked),
            ..SimOptions::default()
        };
        let mut game = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                game += 1;
                play_game(&table, &[bot; 4], black_box(7), game, &opt)
                    .map(|h| h.steps)
                    .unwrap_or(0)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
