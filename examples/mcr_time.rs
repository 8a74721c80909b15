//! Profiling helper: time the MCR scorer in Rust on the 1,000 `gen-*` cases
//! (`cargo run --release --example mcr_time`; `REPS=n`, `HUPAI_SHARED=<dir>`).

use hupai_core::preset::SwitchValue;
use hupai_core::rules::mcr;
use hupai_core::{Situation, Variant};
use std::time::Instant;
fn main() {
    let beside = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared");
    let shared = std::env::var("HUPAI_SHARED").unwrap_or_else(|_| {
        if std::path::Path::new(beside).exists() {
            beside.to_string()
        } else {
            "/work/shared".to_string()
        }
    });
    let text = std::fs::read_to_string(format!("{shared}/cases/mcr_dev.jsonl")).unwrap();
    let sits: Vec<Situation> = text
        .lines()
        .filter(|l| l.contains("\"gen-"))
        .map(|l| {
            let c: serde_json::Value = serde_json::from_str(l).unwrap();
            let core = serde_json::json!({"hand": c["hand"], "situation": c["situation"]});
            Situation::from_case(&core).unwrap()
        })
        .collect();
    let v =
        Variant::with_options("mcr", [("flag_policy", SwitchValue::Str("repair".into()))]).unwrap();
    let r = hupai_core::rules::mcr::rules_of(&v).unwrap();
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let mut acc = 0i64;
        for _ in 0..reps {
            for s in &sits {
                acc += mcr::score(s, r).unwrap().total as i64;
            }
        }
        best = best.min(t.elapsed().as_secs_f64() / (reps as f64 * sits.len() as f64) * 1e9);
        std::hint::black_box(acc);
    }
    println!("score best {best:.0} ns/hand");
}
