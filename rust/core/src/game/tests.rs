//! Tests of the table engine: every preset plays checked hands with every bot.

use std::sync::Arc;

use super::bots::BotKind;
use super::sim::{SimOptions, check_run, play_game};
use super::table::{Compiled, replay, replay_prefix};
use crate::variant::Variant;

const PRESETS: [&str; 12] = [
    "sichuan",
    "mcr",
    "hebei",
    "hebei_draft4",
    "shanghai",
    "shaanxi",
    "huanle3d",
    "kawuxing",
    "erren",
    "wuhan",
    "zipai_guilin",
    "zipai_hunan",
];

fn compiled(id: &str) -> Compiled {
    Compiled::new(Arc::new(Variant::load(id).unwrap())).unwrap()
}

#[test]
fn every_preset_plays_checked_hands() {
    for id in PRESETS {
        let c = compiled(id);
        for bot in [BotKind::Random, BotKind::Greedy] {
            let agents = vec![bot; c.seats()];
            let st =
                check_run(&c, &agents, 7, 60, 1, 5).unwrap_or_else(|e| panic!("{id} {bot:?}: {e}"));
            assert_eq!(st.hands, 60, "{id}");
        }
    }
}

#[test]
fn json_logs_replay() {
    for id in PRESETS {
        let c = compiled(id);
        let agents = vec![BotKind::Greedy; c.seats()];
        let opt = SimOptions {
            keep_events: true,
            ..SimOptions::default()
        };
        let h = play_game(&c, &agents, 3, 1, &opt).unwrap();
        let p = c.pieces();
        let log: Vec<_> = h.events.iter().map(|e| e.to_json(p)).collect();
        replay(&log).unwrap_or_else(|e| panic!("{id}: {e}"));
        let mut bad = log.clone();
        if let Some(last) = bad.last_mut() {
            last["tampered"] = serde_json::json!(true);
        }
        assert!(replay(&bad).is_err(), "{id}");
    }
}

#[test]
fn replay_prefix_is_the_table_after_k_decisions() {
    for id in PRESETS {
        let c = compiled(id);
        let agents = vec![BotKind::Greedy; c.seats()];
        let opt = SimOptions {
            keep_events: true,
            ..SimOptions::default()
        };
        let h = play_game(&c, &agents, 5, 2, &opt).unwrap();
        let p = c.pieces();
        let log: Vec<_> = h.events.iter().map(|e| e.to_json(p)).collect();
        let actions = log.iter().filter(|r| r["type"] == "action").count();
        // after every decision the rebuilt log is a prefix of the hand's log
        for k in [0, 1, actions / 2, actions] {
            let t = replay_prefix(&log, k).unwrap_or_else(|e| panic!("{id} {k}: {e}"));
            let part = t.log_json();
            assert_eq!(part[..], log[..part.len()], "{id} {k}");
            let done = part.iter().filter(|r| r["type"] == "action").count();
            assert_eq!(done, k, "{id}");
        }
        assert_eq!(
            replay_prefix(&log, actions).unwrap().log_json(),
            log,
            "{id}"
        );
        assert!(replay_prefix(&log, actions + 1).is_err(), "{id}");
        assert!(replay_prefix(&[], 0).is_err());
    }
}

/// `cargo test --release --lib speed -- --ignored --nocapture`: hands per second of the bots.
#[test]
#[ignore]
fn speed() {
    for id in ["sichuan", "mcr", "zipai_guilin"] {
        let c = compiled(id);
        for bot in [BotKind::Random, BotKind::Greedy] {
            let agents = vec![bot; c.seats()];
            let n = if bot == BotKind::Random {
                20_000
            } else {
                4_000
            };
            let t0 = std::time::Instant::now();
            let r = super::sim::simulate(&c, &agents, 1, 0, n, 1, &SimOptions::default()).unwrap();
            let dt = t0.elapsed().as_secs_f64();
            let steps: u64 = r.iter().map(|h| u64::from(h.steps)).sum();
            let wins: usize = r.iter().map(|h| h.n_wins).sum();
            println!(
                "{id} {bot:?}: {:.0} hands/s, {:.1} steps/hand, {wins} wins",
                n as f64 / dt,
                steps as f64 / n as f64
            );
        }
    }
}

/// Profiling helper: `HUPAI_PROF=sichuan:random cargo test --release --lib prof -- --ignored`.
#[test]
#[ignore]
fn prof() {
    let spec = std::env::var("HUPAI_PROF").unwrap_or_else(|_| "sichuan:random".into());
    let (id, bot) = spec.split_once(':').unwrap_or((&spec, "random"));
    let c = compiled(id);
    let agents = vec![BotKind::parse(bot).unwrap(); c.seats()];
    let n = std::env::var("HUPAI_PROF_N")
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(20_000);
    super::sim::simulate(&c, &agents, 1, 0, n, 1, &SimOptions::default()).unwrap();
}

/// Each win is scored once: the settlement takes the score the claim check computed (changing
/// that score changes the payment), for a single-win preset and a chip-style one.
#[test]
fn settlement_uses_the_score_the_win_was_taken_with() {
    for id in ["hebei", "huanle3d"] {
        let c = compiled(id);
        let agents = vec![BotKind::Greedy; c.seats()];
        let mut found = false;
        for i in 0..200 {
            let seed = super::rng::game_seed(9, i);
            let mut t = c
                .table(super::table::TableSetup {
                    seed: i128::from(seed),
                    ..Default::default()
                })
                .unwrap();
            let mut bots = super::bots::Bot::seats(&agents, seed);
            while let Some(s) = t.to_act() {
                let legal = t.legal_actions(s);
                let k = bots[s].choose(&t, s, &legal);
                t.step(&legal[k]).unwrap();
            }
            let super::table::Table::Mahjong(m) = &t else {
                unreachable!()
            };
            let Some(w) = m.wins.first() else { continue };
            let gain = |l: &crate::scoring::ledger::Ledger| -> i64 {
                l.events()
                    .iter()
                    .filter(|e| e.kind == "WIN")
                    .map(|e| {
                        e.deltas
                            .get(super::mahjong::SEAT_NAMES[w.seat])
                            .copied()
                            .unwrap_or(0)
                    })
                    .sum()
            };
            let Some(sc) = w.option.score.as_deref() else {
                continue;
            };
            let rec = super::mahjong::preset::hand_record(m, false);
            let rs = m.variant.ruleset();
            let n = m.wins.len();
            let scores: Vec<_> = m.wins.iter().map(|_| sc.clone()).collect();
            let mut twice = scores.clone();
            for s in &mut twice {
                s.total *= 2;
                s.raw_total *= 2;
                s.per_payer *= 2;
            }
            let a = gain(&rs.settle_scored(&rec, &scores).unwrap().ledger);
            let b = gain(&rs.settle_scored(&rec, &twice).unwrap().ledger);
            assert!(a > 0 && (n > 1 || b == 2 * a), "{id}: {a} {b}");
            if n == 1 {
                // scored from the record, the same win pays the same
                assert_eq!(a, gain(&rs.settle(&rec).unwrap().ledger), "{id}");
            }
            found = true;
            break;
        }
        assert!(found, "{id}: no win to check");
    }
}
