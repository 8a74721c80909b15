//! Every MCR answer of a fixed input set, one line each, for before/after comparisons of changes
//! that must not change behaviour (`diff` two dumps):
//!
//! ```sh
//! cargo run --release --example mcr_dump -- /tmp/before.txt [N_RANDOM]
//! ```
//!
//! Inputs: every case of `shared/cases/mcr_dev.jsonl` (`HUPAI_SHARED=<dir>`, else `../shared`,
//! else `/work/shared`) and `N_RANDOM` (default 60,000) seeded random wins: regular hands built
//! set by set (related sets often, so that the chow and pung combinations show up), 0..4 declared
//! melds with open and concealed kongs, 九莲宝灯, 七对 (shifted, with quads), 十三幺, 全不靠, 组合龙, random
//! flags, flowers and blessings, and a few non-winning or malformed hands for the errors. Each
//! input is scored under several switch sets, as the generic `Score` (its JSON), as
//! `rules::mcr::score` (its `Debug`), and its formal waits; errors are written as `Debug`.

use std::fmt::Write as _;
use std::io::Write as _;

use hupai_core::decompose::KNITTED_PERMUTATIONS;
use hupai_core::game::rng::SplitMix64;
use hupai_core::preset::SwitchValue;
use hupai_core::rules::CaseRef;
use hupai_core::rules::mcr::{self, formal_waits_of};
use hupai_core::{Situation, Variant};

/// The core's seeded generator, with the one draw the inputs need besides `below`.
struct Rng(SplitMix64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0.below(n)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn name(k: usize) -> String {
    const HONORS: [&str; 7] = ["E", "S", "W", "N", "C", "F", "P"];
    if k < 27 {
        format!("{}{}", k % 9 + 1, ["m", "p", "s"][k / 9])
    } else {
        HONORS[k - 27].to_string()
    }
}

/// A set: (is a chow, tile; lowest tile of a chow).
type Set = (bool, usize);

/// A kind from the palette of this hand (a few suits, honours or not, terminals or greens now and
/// then), so that the whole-hand fans appear.
fn kind(rng: &mut Rng, palette: u64) -> usize {
    loop {
        let k = rng.below(34) as usize;
        if palette >> k & 1 != 0 {
            return k;
        }
    }
}

fn palette(rng: &mut Rng) -> u64 {
    let suit = |s: u64| 0x1FFu64 << (9 * s);
    let honors = 0x7Fu64 << 27;
    match rng.below(12) {
        0 => suit(rng.below(3)),
        1 => suit(rng.below(3)) | honors,
        2 => suit(rng.below(3)) | suit(rng.below(3)),
        3 => honors,
        4 => (0b1_0000_0001 * 0b100_0000_0010_0000_0001) | honors, // terminals and honours
        5 => 0b0_1010_1110 << 18 | 1 << 32,                        // greens
        6 => 0b1_1100_0000 * 0b100_0000_0010_0000_0001,            // 7..9
        7 => 0b0_0000_1111 * 0b100_0000_0010_0000_0001,            // 1..4
        8 => (0b0_0011_1000 * 0b100_0000_0010_0000_0001) | 1 << 27,
        _ => (1 << 34) - 1,
    }
}

/// A set related to `prev` most of the time (same or next ranks, same or other suit).
fn next_set(rng: &mut Rng, palette: u64, prev: Option<Set>) -> Set {
    if let Some((_, t)) = prev.filter(|_| rng.chance(60))
        && t < 27
    {
        let s = match rng.below(3) {
            0 => t / 9,
            _ => rng.below(3) as usize,
        };
        let r = (t % 9) as i64 + [0, 0, 1, 2, 3, -1, 6, -3][rng.below(8) as usize];
        let chow = rng.chance(55);
        let max = if chow { 6 } else { 8 };
        let r = r.clamp(0, max) as usize;
        return (chow, 9 * s + r);
    }
    let k = kind(rng, palette);
    if k < 27 && k % 9 <= 6 && rng.chance(50) {
        (true, k)
    } else {
        (false, k)
    }
}

fn add(c: &mut [u8; 34], s: Set, n: u8) {
    if s.0 {
        for k in 0..3 {
            c[s.1 + k] += 1;
        }
    } else {
        c[s.1] += n;
    }
}

/// The JSON of one random win (or, now and then, of a hand that is no win).
fn random_case(rng: &mut Rng) -> serde_json::Value {
    loop {
        let mut standing = [0u8; 34];
        let mut all = [0u8; 34];
        let mut melds = Vec::new();
        let form = rng.below(100);
        if form < 2 {
            // 九莲宝灯: 1112345678999 of a suit and one more of it
            let st = 9 * rng.below(3) as usize;
            for (r, n) in [3, 1, 1, 1, 1, 1, 1, 1, 3].into_iter().enumerate() {
                standing[st + r] = n;
            }
            standing[st + rng.below(9) as usize] += 1;
        } else if form < 78 {
            let pal = palette(rng);
            let n_melds = [0, 0, 0, 1, 1, 2, 2, 3, 4][rng.below(9) as usize];
            let mut prev = None;
            for i in 0..4 {
                let s = next_set(rng, pal, prev);
                prev = Some(s);
                if i < n_melds {
                    let kong = !s.0 && rng.chance(30);
                    let concealed = kong && rng.chance(40);
                    add(&mut all, s, if kong { 4 } else { 3 });
                    let tiles: Vec<String> = if s.0 {
                        (0..3).map(|k| name(s.1 + k)).collect()
                    } else {
                        vec![name(s.1); if kong { 4 } else { 3 }]
                    };
                    let kind = match (s.0, kong) {
                        (true, _) => "chow",
                        (false, true) => "kong",
                        _ => "pung",
                    };
                    let offer = if concealed { 0 } else { 1 + rng.below(3) };
                    melds.push(serde_json::json!({
                        "type": kind, "tiles": tiles, "offer": offer, "concealed": concealed,
                    }));
                } else {
                    add(&mut standing, s, 3);
                }
            }
            let p = if rng.chance(30) {
                prev.map_or(0, |s| s.1)
            } else {
                kind(rng, pal)
            };
            standing[p] += 2;
        } else if form < 85 {
            // 七对, shifted now and then, quads allowed
            if rng.chance(25) {
                let s = rng.below(3) as usize;
                let r = rng.below(3) as usize;
                for k in 0..7 {
                    standing[9 * s + r + k] += 2;
                }
            } else {
                let pal = palette(rng);
                for _ in 0..7 {
                    standing[kind(rng, pal)] += 2;
                }
            }
        } else if form < 88 {
            for k in [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33] {
                standing[k] += 1;
            }
            let pick = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33][rng.below(13) as usize];
            standing[pick] += 1;
        } else {
            // 全不靠 or 组合龙 (+ a set and a pair, one meld at most)
            let perm = KNITTED_PERMUTATIONS[rng.below(6) as usize];
            let mut knitted = Vec::new();
            for (s, &off) in perm.iter().enumerate() {
                for step in 0..3 {
                    knitted.push(9 * s + usize::from(off) + 3 * step);
                }
            }
            if form < 93 {
                let mut pool: Vec<usize> = knitted.iter().copied().chain(27..34).collect();
                while pool.len() > 14 {
                    let i = rng.below(pool.len() as u64) as usize;
                    pool.remove(i);
                }
                for k in pool {
                    standing[k] += 1;
                }
            } else {
                for &k in &knitted {
                    standing[k] += 1;
                }
                let s = next_set(rng, (1 << 34) - 1, None);
                if rng.chance(30) {
                    add(&mut all, s, 3);
                    let tiles: Vec<String> = if s.0 {
                        (0..3).map(|k| name(s.1 + k)).collect()
                    } else {
                        vec![name(s.1); 3]
                    };
                    let kind = if s.0 { "chow" } else { "pung" };
                    melds.push(serde_json::json!({
                        "type": kind, "tiles": tiles, "offer": 1 + rng.below(3), "concealed": false,
                    }));
                } else {
                    add(&mut standing, s, 3);
                }
                standing[rng.below(34) as usize] += 2;
            }
        }
        if rng.chance(2) {
            // noise: probably no win
            standing = [0; 34];
            let n = 14 - 3 * melds.len();
            let mut k = 0;
            while k < n {
                let t = rng.below(34) as usize;
                if standing[t] < 4 {
                    standing[t] += 1;
                    k += 1;
                }
            }
        }
        for k in 0..34 {
            all[k] += standing[k];
        }
        if all.iter().any(|&n| n > 4) && !rng.chance(1) {
            continue;
        }
        // the winning tile: one of the standing ones
        let n: u64 = standing.iter().map(|&x| u64::from(x)).sum();
        let mut pick = rng.below(n);
        let mut win = 0;
        for (k, &x) in standing.iter().enumerate() {
            if pick < u64::from(x) {
                win = k;
                break;
            }
            pick -= u64::from(x);
        }
        standing[win] -= 1;
        let mut concealed = Vec::new();
        for (k, &x) in standing.iter().enumerate() {
            for _ in 0..x {
                concealed.push(name(k));
            }
        }
        let winds = ["E", "S", "W", "N"];
        let mut sit = serde_json::json!({
            "self_drawn": rng.chance(50),
            "fourth_tile": rng.chance(15),
            "about_kong": rng.chance(15),
            "wall_last": rng.chance(15),
            "seat_wind": winds[rng.below(4) as usize],
            "prevalent_wind": winds[rng.below(4) as usize],
            "flowers": if rng.chance(70) { 0 } else { rng.below(9) },
        });
        if rng.chance(5) {
            sit["blessing"] = ["heavenly", "earthly", "human"][rng.below(3) as usize].into();
        }
        return serde_json::json!({
            "hand": {"melds": melds, "concealed": concealed, "win_tile": name(win)},
            "situation": sit,
        });
    }
}

fn shared_dir() -> String {
    if let Ok(p) = std::env::var("HUPAI_SHARED") {
        return p;
    }
    let beside = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared");
    if std::path::Path::new(beside).join("cases").exists() {
        beside.to_string()
    } else {
        "/work/shared".to_string()
    }
}

fn variant(opts: &[(&str, SwitchValue)]) -> Variant {
    Variant::with_options("mcr", opts.iter().map(|(k, v)| (*k, v.clone()))).expect("mcr variant")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: mcr_dump OUT [N_RANDOM]");
    let n_random: usize = args.get(2).map_or(60_000, |s| s.parse().expect("N_RANDOM"));
    let s = |x: &str| SwitchValue::Str(x.to_string());
    let b = SwitchValue::Bool;
    let variants = [
        variant(&[]),
        variant(&[("flag_policy", s("repair"))]),
        variant(&[
            ("flag_policy", s("repair")),
            ("knitted_straight_wait_fans", b(false)),
            ("concealed_and_melded_kong", s("off")),
            ("blessings", s("lianzhong")),
            ("lianzhong_extras", b(true)),
        ]),
        variant(&[
            ("special_form_self_draw", s("fully_concealed")),
            ("blessings", s("reference8")),
            ("concealed_and_melded_kong", s("6")),
            ("require_minimum", b(true)),
            ("flowers_count_toward_minimum", b(true)),
        ]),
        variant(&[
            ("flag_policy", s("repair")),
            ("min_fan", SwitchValue::Int(0)),
            ("require_minimum", b(true)),
        ]),
    ];
    let text = std::fs::read_to_string(format!("{}/cases/mcr_dev.jsonl", shared_dir()))
        .expect("shared/cases/mcr_dev.jsonl");
    let mut inputs: Vec<(String, serde_json::Value)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: serde_json::Value = serde_json::from_str(l).expect("case JSON");
            let id = c["id"].as_str().expect("id").to_string();
            (
                id,
                serde_json::json!({"hand": c["hand"], "situation": c["situation"]}),
            )
        })
        .collect();
    let mut rng = Rng(SplitMix64::new(0x9e37_79b9_7f4a_7c15));
    for i in 0..n_random {
        inputs.push((format!("rand-{i}"), random_case(&mut rng)));
    }
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("output file"));
    let mut lines = 0usize;
    for (id, case) in &inputs {
        let sit = match Situation::from_case(case) {
            Ok(s) => s,
            Err(e) => {
                writeln!(out, "{id} input {e:?}").unwrap();
                lines += 1;
                continue;
            }
        };
        let mut line = String::new();
        let waits: Vec<String> = formal_waits_of(&sit)
            .iter()
            .map(|t| t.to_string())
            .collect();
        writeln!(out, "{id} waits {}", waits.join(" ")).unwrap();
        lines += 1;
        for (k, v) in variants.iter().enumerate() {
            line.clear();
            match v.ruleset().score(CaseRef::Tiles(&sit)) {
                Ok(sc) => write!(line, "{}", serde_json::to_string(&sc).unwrap()).unwrap(),
                Err(e) => write!(line, "ERR {e:?}").unwrap(),
            }
            writeln!(out, "{id} v{k} score {line}").unwrap();
            let r = mcr::rules_of(v).unwrap();
            match mcr::score(&sit, r) {
                Ok(sc) => writeln!(out, "{id} v{k} mcr {sc:?}").unwrap(),
                Err(e) => writeln!(out, "{id} v{k} mcr ERR {e:?}").unwrap(),
            }
            if let Some(tb) = v.ruleset().tile_book() {
                match tb.evaluate(&sit) {
                    Ok(sc) => writeln!(out, "{id} v{k} eval {}", sc.total).unwrap(),
                    Err(e) => writeln!(out, "{id} v{k} eval ERR {e:?}").unwrap(),
                }
            }
            lines += 3;
        }
    }
    out.flush().unwrap();
    eprintln!("{lines} lines, {} inputs", inputs.len());
}
