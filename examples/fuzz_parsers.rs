//! A stable-toolchain fuzzer for the core's text and JSON parsers (issue 14).
//!
//! cargo-fuzz needs a nightly toolchain and libFuzzer; this harness needs neither. It keeps a
//! corpus (built-in seeds: notation, card texts, case and record JSON of every preset, plus any
//! files named on the command line), mutates it with a seeded xorshift generator (byte flips,
//! insertions of parser tokens, splices, truncations, repetition, UTF-8 edge characters) and feeds
//! every input to every parser: tile notation, hand notation with melds and `+`, case JSON →
//! `Ruleset::parse_case` → `score` for every registered preset, hand records → `settle`, and the
//! card-game parsers (斗地主, 够级, 顶牛, 字牌). Each call runs under `catch_unwind`: a panic, or a
//! call slower than `--slow-ms`, is a finding: the input is printed (escaped) and saved under
//! `target/fuzz-findings/`, and the process exits 1. Inputs that grew the set of distinct
//! (parser, outcome) pairs are kept in the corpus, a coarse stand-in for coverage feedback.
//!
//! ```sh
//! cargo run --release --example fuzz_parsers -- --seconds 60 --seed 1
//! cargo run --release --example fuzz_parsers -- --iterations 200000
//! ```

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use hupai_core::rules::{dingniu, doudizhu, gouji, zipai};
use hupai_core::{Variant, parse_notation, parse_tiles};
use serde_json::Value;

const SEEDS: &[&str] = &[
    "123m456p789sEEEC",
    "[EEE,1]123m456p78s99s+9s",
    "[5555s][888s,1]2223339s+9s",
    "46s123p789pCCCFF+5s",
    "1112345678999m",
    "147m258p369sESWN",
    "13m456p789sEEECC",
    "一万 五筒 七条 东 中 发 白 f1 f8 1z7z",
    "[123m,2][EEEE,0]55p+5p",
    "33344456",
    "444555666777 as plane_single 7 3",
    "10JQKA",
    "XD 2222",
    "x1x2x3 X4X5X6 x10",
    "66 56 46 12",
    r#"{"hand": "[EEE,1]123m456p78s99s+9s", "situation": {"self_drawn": true, "seat_wind": "S", "flowers": 2}}"#,
    r#"{"hand": {"concealed": ["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","E","5s"], "melds": [], "win_tile": "5s"}, "situation": {}}"#,
    r#"{"hand": {"concealed": "123m456p78s99s", "melds": [{"type": "pung", "tile": "E", "offer": 1}, {"type": "kong", "tiles": ["5s","5s","5s","5s"], "concealed": true}], "win_tile": "9s"}}"#,
    r#"{"hand": "1111m23m456p789p5p+5p", "situation": {"win_type": "kong_replacement", "dealer": 0, "void_suit": "s"}}"#,
    r#"{"seats": ["A","B","C","D"], "dealer": "A", "events": [{"kind": "win", "winner": "A", "hand": "[EEE,1]123m456p78s99s+9s", "situation": {"self_drawn": true}}], "seat_data": {"A": {}}}"#,
    r#"{"seats": ["A","B","C","D"], "events": [{"kind": "kong", "owner": "B", "type": "concealed"}, {"kind": "draw_end", "states": {"A": {"huazhu": true}}}]}"#,
];

const TOKENS: &[&str] = &[
    "[",
    "]",
    "+",
    ",",
    "{",
    "}",
    "\"",
    ":",
    "m",
    "p",
    "s",
    "z",
    "f",
    "0",
    "1",
    "5",
    "9",
    "10",
    "E",
    "C",
    "P",
    "x",
    "X",
    "as",
    "pass",
    "null",
    "true",
    "-1",
    "1e309",
    "18446744073709551616",
    "\u{0}",
    "\u{FFFD}",
    "🀄",
    "中",
    "\u{301}",
    "\n",
    " ",
    "[[[[",
    "]]]]",
    "\\u0000",
    "\\ud800",
    "\"hand\"",
    "\"situation\"",
    "\"melds\"",
    "\"offer\":",
    "\"events\"",
    "\"seats\"",
];

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut v = corpus[rng.below(corpus.len())].clone();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(v.len() + 1);
        match rng.below(9) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 if !v.is_empty() => {
                let end = (at + 1 + rng.below(8)).min(v.len());
                v.drain(at.min(end)..end);
            }
            2 | 3 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                v.splice(at..at, t.iter().copied());
            }
            4 => {
                let other = &corpus[rng.below(corpus.len())];
                let from = rng.below(other.len() + 1);
                let to = (from + rng.below(64)).min(other.len());
                v.splice(at..at, other[from..to].iter().copied());
            }
            5 => v.truncate(at),
            6 if !v.is_empty() => {
                // repeat a slice (deep nesting, long runs)
                let from = rng.below(v.len());
                let to = (from + 1 + rng.below(8)).min(v.len());
                let piece = v[from..to].to_vec();
                for _ in 0..rng.below(200) {
                    v.splice(at..at, piece.iter().copied());
                }
            }
            7 => v.insert(at, rng.next() as u8),
            _ => {
                let c = ['\u{0}', 'Ｍ', '万', '\u{10FFFF}', '٣'][rng.below(5)];
                let mut b = [0u8; 4];
                v.splice(at..at, c.encode_utf8(&mut b).bytes());
            }
        }
    }
    v.truncate(4096);
    v
}

/// Every parser on one input; returns (parser, ok?) outcomes for the corpus feedback.
fn run_all(text: &str, variants: &[Variant], out: &mut Vec<(usize, bool)>) {
    let mut note = |k: usize, ok: bool| out.push((k, ok));
    note(0, parse_tiles(text).is_ok());
    note(1, parse_notation(text).is_ok());
    note(
        2,
        hupai_core::situation::HandInput::from_notation(text).is_ok(),
    );
    note(3, hupai_core::analysis::parse_counts_fast(text).is_some());
    note(4, doudizhu::cards::Cards::parse(text).is_ok());
    note(5, gouji::card::parse_counts(text).is_ok());
    note(6, gouji::hand::Action::parse(text).is_ok());
    note(7, dingniu::tile::parse_hand(text).is_ok());
    note(8, zipai::card::parse_cards(text).is_ok());
    note(9, dingniu::round::Action::parse(text).is_ok());
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        note(10, false);
        return;
    };
    note(10, true);
    note(11, hupai_core::Situation::from_case(&v).is_ok());
    for (i, var) in variants.iter().enumerate() {
        let rs = var.ruleset();
        match rs.parse_case(&v) {
            Ok(case) => note(100 + 3 * i, rs.score(case.as_ref()).is_ok()),
            Err(_) => note(101 + 3 * i, false),
        }
        note(102 + 3 * i, rs.settle(&v).is_ok());
    }
}

fn escaped(b: &[u8]) -> String {
    String::from_utf8_lossy(b).escape_debug().to_string()
}

fn main() {
    let mut seconds: Option<u64> = None;
    let mut iterations: Option<u64> = None;
    let mut seed = 1u64;
    let mut slow_ms = 2000u64;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = || args.next().and_then(|s| s.parse::<u64>().ok());
        match a.as_str() {
            "--seconds" => seconds = num(),
            "--iterations" => iterations = num(),
            "--seed" => seed = num().unwrap_or(1).max(1),
            "--slow-ms" => slow_ms = num().unwrap_or(2000),
            "-h" | "--help" => {
                println!(
                    "fuzz_parsers [--seconds N] [--iterations N] [--seed N] [--slow-ms N] [corpus files...]"
                );
                return;
            }
            f => files.push(f.to_string()),
        }
    }
    if seconds.is_none() && iterations.is_none() {
        seconds = Some(30);
    }
    hupai_core::ensure_init();
    let variants: Vec<Variant> = hupai_core::preset::preset_ids()
        .into_iter()
        .filter_map(|id| Variant::load(id).ok())
        .collect();
    let mut corpus: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
    for f in &files {
        if let Ok(text) = std::fs::read_to_string(f) {
            corpus.extend(
                text.lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| l.as_bytes().to_vec()),
            );
        }
    }
    // a panic is reported by us, not by the default hook's backtrace
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let start = Instant::now();
    let deadline = seconds.map(|s| start + Duration::from_secs(s));
    let mut seen: HashSet<(usize, bool)> = HashSet::new();
    let mut outcomes = Vec::new();
    let mut n = 0u64;
    loop {
        if iterations.is_some_and(|m| n >= m) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let input = if (n as usize) < corpus.len() {
            corpus[n as usize].clone()
        } else {
            mutate(&mut rng, &corpus)
        };
        n += 1;
        // parsers take &str: invalid UTF-8 is what the bindings refuse before the core
        let text = String::from_utf8_lossy(&input).into_owned();
        outcomes.clear();
        let t0 = Instant::now();
        let r = catch_unwind(AssertUnwindSafe(|| {
            run_all(&text, &variants, &mut outcomes)
        }));
        let took = t0.elapsed();
        let finding = match r {
            Err(p) => Some(format!(
                "panic: {}",
                p.downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default()
            )),
            Ok(()) if took > Duration::from_millis(slow_ms) => {
                Some(format!("slow: {} ms", took.as_millis()))
            }
            Ok(()) => None,
        };
        if let Some(what) = finding {
            let dir = std::path::Path::new("target/fuzz-findings");
            let _ = std::fs::create_dir_all(dir);
            let path = dir.join(format!("finding-{seed}-{n}.txt"));
            let _ = std::fs::write(&path, &input);
            eprintln!(
                "FINDING after {n} inputs ({what}); input saved to {}:\n{}",
                path.display(),
                escaped(&input)
            );
            std::process::exit(1);
        }
        let mut new = false;
        for o in &outcomes {
            new |= seen.insert(*o);
        }
        if new && corpus.len() < 50_000 {
            corpus.push(input);
        }
    }
    println!(
        "fuzz_parsers: {n} inputs in {:.1} s (seed {seed}), corpus {}, {} distinct (parser, outcome) pairs, {} presets: no panic, no slow input",
        start.elapsed().as_secs_f64(),
        corpus.len(),
        seen.len(),
        variants.len()
    );
}
