//! Criterion benches of 够级 in the core (`cargo bench --bench gouji`): legal-play enumeration
//! (leads from a dealt 36-card hand, answers to a top play), burn options, and whole hands with
//! the built-in bots at the one table engine (one thread).
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

use hupai_core::Variant;
use hupai_core::game::bots::BotKind;
use hupai_core::game::sim::{SimOptions, simulate};
use hupai_core::game::table::Compiled;
use hupai_core::rules::gouji::card::parse_counts;
use hupai_core::rules::gouji::play::{beating_into, burn_options_into, leads_into};
use hupai_core::rules::gouji::{GoujiHand, GoujiRules, Play};

fn bench_plays(c: &mut Criterion) {
    let r = GoujiRules::default();
    // A dealt hand (seed 1, seat 0) and a mid-game hand.
    let dealt = GoujiHand::new(r, 1, Default::default(), false)
        .unwrap()
        .hands()[0];
    let mid = parse_counts("WwA2KKQQQJ9995544").unwrap();
    let mut buf: Vec<Play> = Vec::with_capacity(1024);
    c.bench_function("gouji/leads/dealt-36", |b| {
        b.iter(|| {
            buf.clear();
            leads_into(black_box(&dealt), true, &mut buf);
            buf.len()
        })
    });
    for top in ["99", "KK", "ww888", "5"] {
        let t = Play::parse(top).unwrap();
        c.bench_function(&format!("gouji/beating/dealt-36/{top}"), |b| {
            b.iter(|| {
                buf.clear();
                beating_into(black_box(&dealt), &t, r.mixed_jokers, &mut buf);
                buf.len()
            })
        });
    }
    let kk = Play::parse("KK").unwrap();
    c.bench_function("gouji/burn-options/mid-17/KK", |b| {
        b.iter(|| {
            buf.clear();
            burn_options_into(black_box(&mid), &kk, &r, &mut buf);
            buf.len()
        })
    });
}

fn bench_hands(c: &mut Criterion) {
    let table = Compiled::new(std::sync::Arc::new(Variant::load("gouji").unwrap())).unwrap();
    let opt = SimOptions {
        hands_per_match: 10,
        ..SimOptions::default()
    };
    let mut g = c.benchmark_group("gouji/hands-x100");
    g.sample_size(10);
    for k in [BotKind::Random, BotKind::Greedy] {
        g.bench_function(k.name(), |b| {
            b.iter(|| simulate(&table, &[k; 6], black_box(7), 0, 100, 1, &opt).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench_plays, bench_hands);
criterion_main!(benches);
