//! Criterion benches of the pure core (`cargo bench --bench core`).
//!
//! `*/single` time one call on a fixed hand; `*/batch-10k` time a loop over 10 000 random hands
//! (report ÷ 10 000 for the per-hand cost, one thread); `mcr/*` time the MCR scorer and its reading
//! enumeration over the 1,000 `gen-*` cases of `shared/cases/mcr_dev.jsonl` (skipped when the file
//! is missing). Instruction counts of the same functions: `python benches/callgrind.py`.
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use hupai_core::analysis::{is_winning_planned, map_rows, shanten_planned, waits_planned};
use hupai_core::decompose::{Readings, decompose_into};
use hupai_core::preset::SwitchValue;
use hupai_core::rules::mcr;
use hupai_core::tables::tables;
use hupai_core::{
    Counts, Shapes, Situation, Variant, decompose, decompose_wild, ensure_init, parse_tiles, rows,
    to_counts,
};

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
    let mut out = Readings::default();
    c.bench_function("decompose_into/standard-ambiguous", |b| {
        b.iter(|| {
            decompose_into(black_box(&hand), &[], Shapes::ALL, &mut out).unwrap();
            out.len()
        })
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

/// The 1,000 `gen-*` MCR cases, or `None` when the shared fixtures are not there.
fn mcr_cases() -> Option<Vec<Situation>> {
    let beside = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared");
    let shared = std::env::var("HUPAI_SHARED").unwrap_or_else(|_| {
        if std::path::Path::new(beside).join("cases").exists() {
            beside.to_string()
        } else {
            "/work/shared".to_string()
        }
    });
    let text = std::fs::read_to_string(format!("{shared}/cases/mcr_dev.jsonl")).ok()?;
    text.lines()
        .filter(|l| l.contains("\"gen-"))
        .map(|l| {
            // a case line carries id/source/expected beside the hand record: keep the record
            let c: serde_json::Value = serde_json::from_str(l).ok()?;
            Situation::from_case(
                &serde_json::json!({"hand": c["hand"], "situation": c["situation"]}),
            )
            .ok()
        })
        .collect()
}

fn bench_mcr(c: &mut Criterion) {
    ensure_init();
    let Some(sits) = mcr_cases() else {
        eprintln!("mcr benches skipped: shared/cases/mcr_dev.jsonl not found (set HUPAI_SHARED)");
        return;
    };
    let v =
        Variant::with_options("mcr", [("flag_policy", SwitchValue::Str("repair".into()))]).unwrap();
    let r = mcr::rules_of(&v).expect("the mcr variant has MCR rules");
    let mut g = c.benchmark_group("mcr-1k");
    g.throughput(Throughput::Elements(sits.len() as u64));
    g.bench_function("score", |b| {
        b.iter(|| {
            sits.iter()
                .map(|s| mcr::score(s, r).map_or(0, |x| x.total))
                .sum::<i32>()
        })
    });
    let hands: Vec<(Counts, Vec<_>)> = sits
        .iter()
        .map(|s| {
            let mut c = *s.hand.counts();
            c[s.win_tile.idx()] += 1;
            (c, s.hand.melds().to_vec())
        })
        .collect();
    let mut out = Readings::default();
    g.bench_function("readings", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|(c, m)| decompose_into(c, m, Shapes::MCR, &mut out).map_or(0, |()| out.len()))
                .sum::<usize>()
        })
    });
    g.finish();
}

fn bench_rows(c: &mut Criterion) {
    ensure_init();
    let t = tables();
    let n = 10_000;
    let h14 = random_hands(n, 14, 34, 1);
    let h13 = random_hands(n, 13, 34, 2);
    let mut g = c.benchmark_group("rows-10k");
    g.throughput(Throughput::Elements(n as u64));
    for (name, shapes) in [("all-shapes", Shapes::ALL), ("standard", Shapes::STANDARD)] {
        g.bench_function(format!("win/{name}"), |b| {
            b.iter(|| {
                h14.iter()
                    .filter(|h| rows::win_row(t, *h, 0, black_box(shapes)) == Some(true))
                    .count()
            })
        });
        g.bench_function(format!("shanten/{name}"), |b| {
            b.iter(|| {
                h13.iter()
                    .map(|h| rows::shanten_row(t, h, 0, black_box(shapes)).unwrap_or(0) as i32)
                    .sum::<i32>()
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    bench_decompose,
    bench_analysis,
    bench_mcr,
    bench_rows
);
criterion_main!(benches);
