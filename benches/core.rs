//! Criterion benches of the pure core (`cargo bench --bench core`).
//!
//! `*/single` time one call on a fixed hand; `*/batch-10k` time a loop over 10 000 random hands
//! (report ÷ 10 000 for the per-hand cost, one thread).
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use hupai_core::analysis::{is_winning_planned, map_rows, shanten_planned, waits_planned};
use hupai_core::{Counts, Shapes, decompose, decompose_wild, ensure_init, parse_tiles, to_counts};

fn counts(s: &str) -> Counts {
    to_counts(&parse_tiles(s).unwrap()).unwrap()
}

/// Deterministic random hands of `n` tiles (xorshift), ≤ 4 copies, from the first `kinds` kinds.
fn random_hands(count: usize, n: usize, kinds: u64, seed: u64) -> Vec<Counts> {
    let mut s = seed;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..count)
        .map(|_| {
            let mut c = [0u8; 34];
            let mut k = 0;
            while k < n {
                let t = (next() % kinds) as usize;
                if c[t] < 4 {
                    c[t] += 1;
                    k += 1;
                }
            }
            c
        })
        .collect()
}

fn bench_decompose(c: &mut Criterion) {
    ensure_init();
    let hand = counts("111222333m456pEE");
    c.bench_function("decompose/standard-ambiguous", |b| {
        b.iter(|| decompose(black_box(&hand), &[], Shapes::ALL).unwrap())
    });
    let wild = counts("1122m456p789sEE");
    c.bench_function("decompose/two-wildcards", |b| {
        b.iter(|| decompose_wild(black_box(&wild), 2, &[], Shapes::STANDARD).unwrap())
    });
}

fn bench_analysis(c: &mut Criterion) {
    ensure_init();
    let win = counts("123m456p789s234sEE");
    let ready = counts("1112345678999m");
    let shanten_hand = counts("147m2588p369sESW");
    let std = Shapes::STANDARD;
    let all = Shapes::ALL;
    c.bench_function("win/single/standard", |b| {
        b.iter(|| is_winning_planned(black_box(&win), 0, 4, std))
    });
    c.bench_function("win/single/all-shapes", |b| {
        b.iter(|| is_winning_planned(black_box(&win), 0, 4, all))
    });
    c.bench_function("shanten/single/standard", |b| {
        b.iter(|| shanten_planned(black_box(&shanten_hand), 0, 4, std))
    });
    c.bench_function("shanten/single/all-shapes", |b| {
        b.iter(|| shanten_planned(black_box(&shanten_hand), 0, 4, all))
    });
    c.bench_function("waits/single/standard-9-sided", |b| {
        b.iter(|| waits_planned(black_box(&ready), 0, 4, std, None))
    });
    c.bench_function("waits/single/all-shapes-9-sided", |b| {
        b.iter(|| waits_planned(black_box(&ready), 0, 4, all, None))
    });

    let n = 10_000;
    let h14 = random_hands(n, 14, 34, 1);
    let h13 = random_hands(n, 13, 34, 2);
    let h13_flush = random_hands(n, 13, 9, 3);
    let mut g = c.benchmark_group("batch-10k");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("win/standard", |b| {
        b.iter(|| {
            h14.iter()
                .filter(|h| is_winning_planned(h, 0, 4, std))
                .count()
        })
    });
    g.bench_function("win/all-shapes", |b| {
        b.iter(|| {
            h14.iter()
                .filter(|h| is_winning_planned(h, 0, 4, all))
                .count()
        })
    });
    g.bench_function("shanten/standard", |b| {
        b.iter(|| {
            h13.iter()
                .map(|h| shanten_planned(h, 0, 4, std) as i32)
                .sum::<i32>()
        })
    });
    let mut out = vec![0i8; n];
    g.bench_function("shanten/standard-kernel-prefetch", |b| {
        b.iter(|| {
            map_rows(&h13, 0, true, &mut out, |h, p| {
                Some(shanten_planned(h, 0, p.sets, std))
            })
        })
    });
    g.bench_function("shanten/standard-kernel", |b| {
        b.iter(|| {
            map_rows(&h13, 0, false, &mut out, |h, p| {
                Some(shanten_planned(h, 0, p.sets, std))
            })
        })
    });
    g.bench_function("shanten/all-shapes", |b| {
        b.iter(|| {
            h13.iter()
                .map(|h| shanten_planned(h, 0, 4, all) as i32)
                .sum::<i32>()
        })
    });
    g.bench_function("waits/all-shapes", |b| {
        b.iter(|| {
            h13.iter()
                .map(|h| waits_planned(h, 0, 4, all, None))
                .fold(0, |a, m| a | m)
        })
    });
    g.bench_function("waits/standard-one-suit", |b| {
        b.iter(|| {
            h13_flush
                .iter()
                .map(|h| waits_planned(h, 0, 4, std, None))
                .fold(0, |a, m| a | m)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_decompose, bench_analysis);
criterion_main!(benches);
