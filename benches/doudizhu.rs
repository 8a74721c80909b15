//! Criterion benches of the 斗地主 hot paths: legal moves per state (leads and answers on random
//! game states), classify, and whole hands with the random bots.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use hupai_core::rules::doudizhu::bots::BotKind;
use hupai_core::rules::doudizhu::game::{Carry, Game};
use hupai_core::rules::doudizhu::rng::Rng;
use hupai_core::rules::doudizhu::sim::{hand_seed, play_hand};
use hupai_core::rules::doudizhu::{Cards, DdzRules, Reading, classify, legal_moves_into};

/// Game states met in random self-play: (hand, move on the table).
fn states(n: usize) -> Vec<(Cards, Option<Reading>)> {
    let rules = Arc::new(DdzRules::qq());
    let mut out = Vec::new();
    let mut i = 0u64;
    while out.len() < n {
        let mut g = Game::new(rules.clone(), hand_seed(1, i), Carry::default());
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
    let arc = Arc::new(rules.clone());
    c.bench_function("doudizhu one hand, random bots", |b| {
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            play_hand(
                &arc,
                hand_seed(9, i),
                Carry::default(),
                [BotKind::Random; 3],
                false,
            )
            .unwrap()
            .1
        });
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
