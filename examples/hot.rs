//! The hot functions of the core, one at a time, for timing and instruction counts
//! (`benches/callgrind.py` runs this under `valgrind --tool=callgrind`).
//!
//! ```sh
//! cargo run --release --example hot -- list
//! cargo run --release --example hot -- time mcr/score          # median ns per item
//! valgrind --tool=callgrind --toggle-collect='*measure*' target/release/examples/hot count mcr/score 3
//! python benches/callgrind.py                                   # all of them, into RESULTS.md
//! ```
//!
//! `time NAME` prints the median of 15 timed runs (ns per item); `count NAME REPS` runs the kernel
//! `REPS` times over its inputs inside `measure` (the only function callgrind collects with
//! `--toggle-collect='*measure*'`) and prints the number of items processed, so that instructions
//! per item = collected instructions ÷ items. Inputs are generated deterministically (xorshift) or
//! read from `shared/cases/mcr_dev.jsonl` (`HUPAI_SHARED=<dir>`, else `../shared`, else `/work/shared`).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use hupai_core::analysis::{self, row_plan, waits_planned};
use hupai_core::decompose::{Readings, decompose_into};
use hupai_core::game::bots::BotKind;
use hupai_core::game::sim::{SimOptions, simulate};
use hupai_core::game::table::Compiled;
use hupai_core::preset::SwitchValue;
use hupai_core::rows;
use hupai_core::rules::CaseRef;
use hupai_core::rules::mcr::{self, McrRules};
use hupai_core::{Counts, Shapes, Situation, Variant, decompose, ensure_init};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `n` tiles drawn from a full wall (at most four copies of a kind).
fn random_hand(rng: &mut Rng, n: usize) -> Counts {
    let mut c = [0u8; 34];
    let mut k = 0;
    while k < n {
        let t = rng.below(34) as usize;
        if c[t] < 4 {
            c[t] += 1;
            k += 1;
        }
    }
    c
}

/// Four sets (half chows) and a pair, at most four copies of a kind.
fn winning_hand(rng: &mut Rng) -> Counts {
    loop {
        let mut c = [0u8; 34];
        for _ in 0..4 {
            if rng.below(2) == 0 {
                let (s, r) = (rng.below(3) as usize, rng.below(7) as usize);
                for k in 0..3 {
                    c[9 * s + r + k] += 1;
                }
            } else {
                c[rng.below(34) as usize] += 3;
            }
        }
        c[rng.below(34) as usize] += 2;
        if c.iter().all(|&x| x <= 4) {
            return c;
        }
    }
}

/// The hands of `benches/bench_analysis.py`: 14 tiles, half winning, in random order (so that no
/// branch predictor learns which is which).
fn win14(n: usize) -> Vec<Counts> {
    let mut rng = Rng(7);
    (0..n)
        .map(|_| {
            if rng.below(2) == 0 {
                winning_hand(&mut rng)
            } else {
                random_hand(&mut rng, 14)
            }
        })
        .collect()
}

fn rand13(n: usize) -> Vec<Counts> {
    let mut rng = Rng(11);
    (0..n).map(|_| random_hand(&mut rng, 13)).collect()
}

/// 13 tiles, half ready (a winning hand minus one tile), in random order.
fn waits13(n: usize) -> Vec<Counts> {
    let mut rng = Rng(13);
    (0..n)
        .map(|_| {
            if rng.below(2) == 0 {
                let mut c = winning_hand(&mut rng);
                loop {
                    let k = rng.below(34) as usize;
                    if c[k] > 0 {
                        c[k] -= 1;
                        break c;
                    }
                }
            } else {
                random_hand(&mut rng, 13)
            }
        })
        .collect()
}

fn mcr_cases() -> (Vec<Situation>, McrRules, Variant) {
    let beside = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared");
    let shared = std::env::var("HUPAI_SHARED").unwrap_or_else(|_| {
        if std::path::Path::new(beside).join("cases").exists() {
            beside.to_string()
        } else {
            "/work/shared".to_string()
        }
    });
    let text = std::fs::read_to_string(format!("{shared}/cases/mcr_dev.jsonl"))
        .expect("shared/cases/mcr_dev.jsonl (set HUPAI_SHARED)");
    let sits = text
        .lines()
        .filter(|l| l.contains("\"gen-"))
        .map(|l| {
            // a case line carries id/source/expected beside the hand record: keep the record
            let c: serde_json::Value = serde_json::from_str(l).expect("case JSON");
            Situation::from_case(
                &serde_json::json!({"hand": c["hand"], "situation": c["situation"]}),
            )
            .expect("case")
        })
        .collect();
    let v = Variant::with_options("mcr", [("flag_policy", SwitchValue::Str("repair".into()))])
        .expect("mcr variant");
    let r = mcr::rules_of(&v).expect("mcr rules").clone();
    (sits, r, v)
}

/// The riichi shape set (as `benches/bench_analysis.py` times the single calls).
const RIICHI: Shapes = Shapes {
    standard: true,
    seven_pairs: true,
    seven_pairs_quads: false,
    thirteen_orphans: true,
    honors_knitted: false,
    knitted_straight: false,
};

/// A kernel: runs its work once over its inputs and returns (items, checksum).
type Kernel = Box<dyn FnMut() -> (usize, u64)>;

const N: usize = 20_000;

/// The kernels, with what each measures (the inputs of `benches/bench_analysis.py` and
/// `benches/bench_mcr.py`, generated the same way).
pub const KERNELS: [(&str, &str); 18] = [
    (
        "mcr/score",
        "MCR score of one win: `rules::mcr::score` on the 1,000 gen-* cases (prebuilt Situation), result dropped",
    ),
    (
        "mcr/ruleset",
        "the generic Score of the same wins (`Variant::ruleset().score_into`: fan hits and payments, built in place and dropped), as `hupai.score` and `batch.score` compute it",
    ),
    (
        "mcr/readings",
        "every reading of the same hands: `decompose_into` (stack, no allocation)",
    ),
    (
        "mcr/decompose",
        "the same through `decompose` (a Vec of Decomposition per hand)",
    ),
    (
        "win/row",
        "batch win-check kernel, every shape, per 14-tile row (half complete)",
    ),
    ("win/row-standard", "the same with Shapes.STANDARD"),
    (
        "win/block",
        "`rows::win_block` (the batch call's kernel), every shape, per 14-tile row (half complete)",
    ),
    ("win/block-standard", "the same with Shapes.STANDARD"),
    (
        "win/single",
        "`analysis::is_winning` (validation + plan + check), riichi shapes",
    ),
    (
        "shanten/row",
        "batch shanten kernel, every shape, per random 13-tile row",
    ),
    ("shanten/row-standard", "the same with Shapes.STANDARD"),
    (
        "shanten/block",
        "`rows::shanten_block` (the batch call's kernel), every shape, per random 13-tile row",
    ),
    ("shanten/block-standard", "the same with Shapes.STANDARD"),
    (
        "shanten/single",
        "`analysis::shanten` (validation + plan + distance), riichi shapes",
    ),
    (
        "waits/row",
        "waits of a 13-tile row (half ready), every shape: `row_plan` + `waits_planned`",
    ),
    (
        "decompose/ambiguous",
        "`decompose` of 111222333m456pEE (2 readings)",
    ),
    (
        "cards/ddz-hand",
        "one whole 斗地主 (doudizhu_qq) hand at the table, random bots: `game::sim::simulate` of 2,000 games, one thread, no checking",
    ),
    (
        "cards/gouji-hand",
        "one whole 够级 hand at the table, random bots: `game::sim::simulate` of 500 games, one thread, no checking",
    ),
];

fn kernel(name: &str) -> Option<Kernel> {
    let all = Shapes::ALL;
    let t = hupai_core::tables::tables();
    Some(match name {
        "mcr/ruleset" => {
            let (sits, _, v) = mcr_cases();
            // as the bindings do: each score built in place (`score_into`), then dropped
            let mut slot = Box::<hupai_core::scoring::score::Score>::new_uninit();
            Box::new(move || {
                let mut acc = 0u64;
                for s in &sits {
                    if v.ruleset().score_into(CaseRef::Tiles(s), &mut slot).is_ok() {
                        // SAFETY: `score_into` wrote the score (it returned `Ok`); dropped once.
                        unsafe {
                            acc += slot.assume_init_ref().fans.len() as u64;
                            slot.assume_init_drop();
                        }
                    }
                }
                (sits.len(), acc)
            })
        }
        "mcr/score" => {
            let (sits, r, _) = mcr_cases();
            Box::new(move || {
                let mut acc = 0u64;
                for s in &sits {
                    acc += mcr::score(s, &r).map_or(0, |x| x.total as u64);
                }
                (sits.len(), acc)
            })
        }
        "mcr/readings" | "mcr/decompose" => {
            let (sits, _, _) = mcr_cases();
            let hands: Vec<_> = sits
                .iter()
                .map(|s| {
                    let mut c = *s.hand.counts();
                    c[s.win_tile.idx()] += 1;
                    (c, s.hand.melds().to_vec())
                })
                .collect();
            let vec_api = name == "mcr/decompose";
            let mut out = Readings::default();
            Box::new(move || {
                let mut acc = 0u64;
                for (c, m) in &hands {
                    acc += if vec_api {
                        decompose(c, m, Shapes::MCR).map_or(0, |d| d.len() as u64)
                    } else {
                        decompose_into(c, m, Shapes::MCR, &mut out).map_or(0, |_| out.len() as u64)
                    };
                }
                (hands.len(), acc)
            })
        }
        "win/row" | "win/row-standard" => {
            let rows = win14(N);
            let mut out = vec![false; N];
            let shapes = if name == "win/row" {
                all
            } else {
                Shapes::STANDARD
            };
            Box::new(move || {
                let shapes = black_box(shapes);
                for (o, c) in out.iter_mut().zip(&rows) {
                    *o = rows::win_row(t, c, 0, shapes).unwrap_or(false);
                }
                (N, out.iter().filter(|&&x| x).count() as u64)
            })
        }
        "win/block" | "win/block-standard" => {
            let rows = win14(N);
            let mut out = vec![false; N];
            let shapes = if name == "win/block" {
                all
            } else {
                Shapes::STANDARD
            };
            Box::new(move || {
                let shapes = black_box(shapes);
                let bad = rows::win_block(t, &rows, &mut out, 0, shapes);
                assert!(bad.is_none());
                (N, out.iter().filter(|&&x| x).count() as u64)
            })
        }
        "win/single" => {
            let rows = win14(N);
            Box::new(move || {
                let mut acc = 0u64;
                for c in &rows {
                    acc += u64::from(analysis::is_winning(c, 0, 0, RIICHI).unwrap_or(false));
                }
                (N, acc)
            })
        }
        "shanten/row" | "shanten/row-standard" => {
            let rows = rand13(N);
            let mut out = vec![0i8; N];
            let shapes = if name == "shanten/row" {
                all
            } else {
                Shapes::STANDARD
            };
            Box::new(move || {
                let shapes = black_box(shapes);
                for (o, c) in out.iter_mut().zip(&rows) {
                    *o = rows::shanten_row(t, c, 0, shapes).unwrap_or(0);
                }
                (N, out.iter().map(|&x| x as u64).sum())
            })
        }
        "shanten/block" | "shanten/block-standard" => {
            let rows = rand13(N);
            let mut out = vec![0i8; N];
            let shapes = if name == "shanten/block" {
                all
            } else {
                Shapes::STANDARD
            };
            Box::new(move || {
                let shapes = black_box(shapes);
                let bad = rows::shanten_block(t, |i| &rows[i], &mut out, 0, shapes);
                assert!(bad.is_none());
                (N, out.iter().map(|&x| x as u64).sum())
            })
        }
        "shanten/single" => {
            let rows = rand13(N);
            Box::new(move || {
                let mut acc = 0u64;
                for c in &rows {
                    acc += analysis::shanten(c, 0, 0, RIICHI).unwrap_or(0) as u64;
                }
                (N, acc)
            })
        }
        "waits/row" => {
            let rows = waits13(N);
            let mut out = vec![0u64; N];
            Box::new(move || {
                for (o, c) in out.iter_mut().zip(&rows) {
                    *o = row_plan(c, 0)
                        .filter(|p| !p.complete && p.fits(all))
                        .map_or(0, |p| waits_planned(c, 0, p.sets, all, None));
                }
                (N, out.iter().fold(0, |a, &m| a ^ m))
            })
        }
        "decompose/ambiguous" => {
            let hand =
                hupai_core::to_counts(&hupai_core::parse_tiles("111222333m456pEE").ok()?).ok()?;
            Box::new(move || {
                let mut acc = 0u64;
                for _ in 0..1000 {
                    acc +=
                        decompose(black_box(&hand), &[], Shapes::ALL).map_or(0, |d| d.len()) as u64;
                }
                (1000, acc)
            })
        }
        "cards/ddz-hand" | "cards/gouji-hand" => {
            let (id, n) = if name == "cards/ddz-hand" {
                ("doudizhu_qq", 2000)
            } else {
                ("gouji", 500)
            };
            let c = Compiled::new(Arc::new(Variant::load(id).ok()?)).ok()?;
            let agents = vec![BotKind::Random; c.seats()];
            let opt = SimOptions::default();
            Box::new(move || {
                let hands = simulate(&c, &agents, 20_251_202, 0, n, 1, &opt).expect("simulate");
                let acc = hands.iter().map(|h| u64::from(h.steps)).sum();
                (hands.len(), acc)
            })
        }
        _ => return None,
    })
}

#[inline(never)]
fn measure(k: &mut Kernel, reps: usize) -> (usize, u64) {
    let (mut items, mut acc) = (0, 0u64);
    for _ in 0..reps {
        let (n, a) = k();
        items += n;
        acc = acc.wrapping_add(a);
    }
    (items, acc)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: hot list | time NAME [RUNS] | count NAME REPS";
    let mode = args.first().map(String::as_str).unwrap_or("list");
    if mode == "list" {
        for (n, what) in KERNELS {
            println!("{n}\t{what}");
        }
        return;
    }
    let name = args.get(1).expect(usage);
    ensure_init();
    let mut k = kernel(name).unwrap_or_else(|| panic!("unknown kernel {name}; {usage}"));
    // warm up (tables, caches, lazy statics)
    black_box(k());
    match mode {
        "time" => {
            let runs: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(15);
            let mut per = Vec::with_capacity(runs);
            for _ in 0..runs {
                let t = Instant::now();
                let (items, acc) = measure(&mut k, 1);
                per.push(t.elapsed().as_secs_f64() * 1e9 / items as f64);
                black_box(acc);
            }
            per.sort_by(f64::total_cmp);
            println!("{:.1}", per[per.len() / 2]);
        }
        "count" => {
            let reps: usize = args.get(2).and_then(|r| r.parse().ok()).expect(usage);
            let (items, acc) = measure(&mut k, reps);
            black_box(acc);
            println!("{items}");
        }
        _ => panic!("{usage}"),
    }
}
