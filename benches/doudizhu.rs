//! Criterion benches of the 斗地主 hot paths: legal moves per state (leads and answers on random
//! game states), classify, and whole hands with the random bots at the one table engine.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use hupai_core::Variant;
use hupai_core::game::bots::BotKind;
use hupai_core::game::sim::{SimOptions, simulate};
use hupai_core::game::table::Compiled;
use hupai_core::rules::doudizhu::game::{Carry, Game};
use hupai_core::rules::doudizhu::rng::Rng;
use hupai_core::rules::doudizhu::{Cards, DdzRules, Reading, classify, legal_moves_into};

/// Game states met in random self-play: (hand, move on the table).
fn states(n: usize) -> Vec<(Cards, Option<Reading>)> {
    let rules = Arc::new(DdzRules::qq());
    let mut out = Vec::new();
    let mut i = 0u64;
    while out.len() < n {
        let mut g = Game::new(
            rules.clone(),
            i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            Carry::default(),
        );
        let mut rng = Rng::new(i);
        while let Some(s) = g.to_act() {
            if g.phase() == hupai_core::rules::doudizhu::game::Phase::Play {
                out.push((g.hand(s), g.top().map(|t| t.2)));
            }
            let a = hupai_core::rules::doudizhu::bots::random_action(&mut g, &mut rng).unwrap();
            g.step(a).unwrap();
        }
        i += 1;
    }
    out.truncate(n);
    out
}

fn bench(c: &mut Criterion) {
    let rules = DdzRules::qq();
    let st = states(2000);
    let mut buf = Vec::with_capacity(512);
    c.bench_function("doudizhu legal_moves per state (2000 random states)", |b| {
        b.iter(|| {
            let mut n = 0;
            for &(h, t) in &st {
                legal_moves_into(h, &rules.moves, t, &mut buf);
                n += buf.len();
            }
            n
        });
    });
    let leads: Vec<Cards> = st.iter().filter(|s| s.1.is_none()).map(|s| s.0).collect();
    c.bench_function("doudizhu classify (hands of the states)", |b| {
        b.iter(|| {
            leads
                .iter()
                .filter(|&&h| classify(h, &rules.moves).is_some())
                .count()
        });
    });
    let table = Compiled::new(Arc::new(Variant::load("doudizhu_qq").unwrap())).unwrap();
    c.bench_function("doudizhu one hand at the table, random bots", |b| {
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            let opt = SimOptions::default();
            simulate(&table, &[BotKind::Random; 3], 9, i, i + 1, 1, &opt).unwrap()[0].steps
        });
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
