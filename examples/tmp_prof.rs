use hupai_core::Variant;
use hupai_core::rules::CaseRef;
use hupai_core::rules::mcr;
use hupai_core::situation::Situation;
use serde_json::Value;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    if mode == "size" {
        println!(
            "Score {} FanHit {} Payments {} Extras {} Reading {} McrScore {}",
            std::mem::size_of::<hupai_core::scoring::score::Score>(),
            std::mem::size_of::<hupai_core::scoring::score::FanHit>(),
            std::mem::size_of::<hupai_core::scoring::score::Payments>(),
            std::mem::size_of::<hupai_core::scoring::score::Extras>(),
            std::mem::size_of::<Option<hupai_core::scoring::score::Reading>>(),
            std::mem::size_of::<mcr::McrScore>()
        );
        return;
    }
    let reps: usize = std::env::args()
        .nth(2)
        .map(|x| x.parse().unwrap())
        .unwrap_or(50);
    let text = std::fs::read_to_string("/work/shared/cases/mcr_dev.jsonl").unwrap();
    let mut sits = Vec::new();
    for line in text.lines().filter(|l| l.contains("\"gen-")) {
        let v: Value = serde_json::from_str(line).unwrap();
        let mut m = serde_json::Map::new();
        for k in ["hand", "situation"] {
            if let Some(x) = v.get(k) {
                m.insert(k.into(), x.clone());
            }
        }
        sits.push(Situation::from_case(&Value::Object(m)).unwrap());
    }
    let v = Variant::with_options(
        "mcr",
        [(
            "flag_policy",
            hupai_core::preset::SwitchValue::Str("repair".into()),
        )],
    )
    .unwrap();
    let r = mcr::rules_of(&v).unwrap();
    let rs = v.ruleset();
    let m = v.rules_as::<mcr::Mcr>().unwrap();
    let mut n = 0i64;
    if mode == "time" {
        let mut best = [f64::MAX; 4];
        for _ in 0..reps {
            for (k, best) in best.iter_mut().enumerate() {
                let t = std::time::Instant::now();
                for s in &sits {
                    n += match k {
                        0 => i64::from(std::hint::black_box(mcr::score(s, r).unwrap()).total),
                        1 => std::hint::black_box(rs.score(CaseRef::Tiles(s)).unwrap()).total,
                        2 => {
                            std::hint::black_box(
                                hupai_core::rules::TileBook::evaluate(m, s).unwrap(),
                            )
                            .total
                        }
                        _ => {
                            std::hint::black_box(
                                hupai_core::rules::Ruleset::score(m, CaseRef::Tiles(s)).unwrap(),
                            )
                            .total
                        }
                    };
                }
                *best = best.min(t.elapsed().as_nanos() as f64 / sits.len() as f64);
            }
        }
        println!(
            "mcr::score {:.0} ns, Ruleset::score {:+.0} ns evaluate {:+.0} static {:+.0} ({n}) sizes Score {} Result {}",
            best[0],
            best[1] - best[0],
            best[2] - best[0],
            best[3] - best[0],
            std::mem::size_of::<hupai_core::scoring::score::Score>(),
            std::mem::size_of::<hupai_core::error::Result<hupai_core::scoring::score::Score>>()
        );
        return;
    }
    for _ in 0..reps {
        for s in &sits {
            n += match mode.as_str() {
                "mcr" => i64::from(mcr::score(s, r).unwrap().total),
                "eval" => hupai_core::rules::TileBook::evaluate(m, s).unwrap().total,
                "ruleset" => rs.score(CaseRef::Tiles(s)).unwrap().total,
                _ => 0,
            };
        }
    }
    println!("{n}");
}
#[allow(dead_code)]
fn sizes() {}
