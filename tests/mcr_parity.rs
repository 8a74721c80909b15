//! Parity of the MCR scorer with the reference engine (pymahjonggb 1.4.0) on every case of
//! `shared/cases/mcr_dev.jsonl`. The shared directory is `$HUPAI_SHARED`, else
//! `<repo>/../shared`, else `/work/shared`; a missing fixture file FAILS the test.

use std::collections::BTreeMap;
use std::path::PathBuf;

use hupai_core::preset::SwitchValue;
use hupai_core::rules::mcr::{self, ids::FAN_IDS};
use hupai_core::{Error, Situation, Variant};

fn shared_dir() -> PathBuf {
    if let Ok(p) = std::env::var("HUPAI_SHARED") {
        return PathBuf::from(p);
    }
    let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if beside.join("cases/mcr_dev.jsonl").exists() {
        return beside;
    }
    PathBuf::from("/work/shared")
}

fn rules(v: &Variant) -> &mcr::McrRules {
    mcr::rules_of(v).expect("mcr variant without MCR rules")
}

type Multiset = BTreeMap<String, u64>;

fn expected(fans: &serde_json::Value) -> Multiset {
    fans.as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["id"].as_str().unwrap().to_string(),
                f["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn got(s: &mcr::McrScore) -> Multiset {
    s.fans
        .iter()
        .map(|(i, c)| (FAN_IDS[i].to_string(), c as u64))
        .collect()
}

#[test]
fn mcr_dev_reference_parity() {
    let path = shared_dir().join("cases/mcr_dev.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e}); set HUPAI_SHARED", path.display()));
    let strict = Variant::load("mcr").unwrap();
    let repair =
        Variant::with_options("mcr", [("flag_policy", SwitchValue::Str("repair".into()))]).unwrap();
    let (mut n, mut equal, mut rejected) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        n += 1;
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let id = case["id"].as_str().unwrap();
        let core = serde_json::json!({"hand": case["hand"], "situation": case["situation"]});
        let sit = Situation::from_case(&core).unwrap_or_else(|e| panic!("{id}: {e}"));
        let want = expected(&case["pymahjonggb"]["fans"]);
        let total = case["pymahjonggb"]["total"].as_i64().unwrap();
        // Inputs the reference silently repairs are rejected under the default strict policy.
        match mcr::score(&sit, rules(&strict)) {
            Ok(s) => {
                if got(&s) == want && s.total as i64 == total {
                    equal += 1;
                } else {
                    failures.push(format!("{id}: got {:?} want {want:?}", got(&s)));
                }
            }
            Err(Error::InvalidHand(_)) => {
                rejected += 1;
                let s = mcr::score(&sit, rules(&repair)).unwrap();
                if got(&s) == want && s.total as i64 == total {
                    equal += 1;
                } else {
                    failures.push(format!("{id} (repair): got {:?} want {want:?}", got(&s)));
                }
            }
            Err(e) => failures.push(format!("{id}: {e}")),
        }
    }
    assert_eq!(n, 1414, "fixture count");
    assert!(
        failures.is_empty(),
        "{} of {n} differ ({equal} equal, {rejected} rejected by strict flags):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        rejected, 21,
        "strict rejections (和绝张 with the tile in hand)"
    );
}
