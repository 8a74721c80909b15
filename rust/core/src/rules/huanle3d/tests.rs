//! The worked examples of `shared/rules/huanle3d.md` and the points easy to get wrong.

use serde_json::json;

use crate::preset::SwitchValue;
use crate::situation::Situation;
use crate::variant::Variant;

use super::Huanle3dRules;

fn rules(v: &Variant) -> &Huanle3dRules {
    &v.rules_as::<super::Huanle3d>().unwrap().rules
}

fn sit(v: serde_json::Value) -> Situation {
    Situation::from_json(&v.to_string()).unwrap()
}

fn balances(rec: serde_json::Value, v: &Variant) -> Vec<i64> {
    let l = v
        .ruleset()
        .settle(&crate::test_util::events(rec))
        .unwrap()
        .ledger;
    l.balances().into_iter().map(|x| x.1).collect()
}

#[test]
fn example_1_xiao_hu() {
    let v = Variant::load("huanle3d").unwrap();
    let s = sit(
        json!({"hand": {"concealed": ["1m","2m","3m","4m","5m","6m","7p","8p","9p","2s","3s","4s","5s"],
        "win_tile": "5s"}, "situation": {"win_type": "self_draw"}}),
    );
    let sc = rules(&v).score(&s).unwrap();
    assert_eq!(sc.per_payer, 1);
    assert!(sc.has("XIAO_HU"));
    let b = balances(
        json!({"seats": ["W","A","B","C"], "wins": [{"winner": "W", "hand": {"concealed":
        ["1m","2m","3m","4m","5m","6m","7p","8p","9p","2s","3s","4s","5s"], "win_tile": "5s"},
        "situation": {"win_type": "self_draw"}}]}),
        &v,
    );
    assert_eq!(b, vec![3, -1, -1, -1]);
}

#[test]
fn example_2_rule_5() {
    let v = Variant::load("huanle3d").unwrap();
    let win = json!({"winner": "D", "hand": {"concealed": ["7s","7s","7s","9s","9s","9s","4m"], "win_tile": "4m",
        "melds": [{"type": "kong_concealed", "tiles": ["6p","6p","6p","6p"]}, {"type": "pon", "tiles": ["2m","2m","2m"]}]},
        "situation": {"win_type": "kong_replacement"}});
    let b = balances(
        json!({"seats": ["D","A","B","C"], "kongs": [{"owner": "D", "kind": "concealed"}], "wins": [win]}),
        &v,
    );
    assert_eq!(b, vec![30, -10, -10, -10]);
    // additive switch: 3 × 2 = 6 each
    let v2 = Variant::with_options(
        "huanle3d",
        [("da_hu_combine", SwitchValue::Str("additive".into()))],
    )
    .unwrap();
    let b = balances(
        json!({"seats": ["D","A","B","C"], "kongs": [{"owner": "D", "kind": "concealed"}], "wins": [win]}),
        &v2,
    );
    assert_eq!(b, vec![21, -7, -7, -7]);
}

#[test]
fn example_3_gang_shang_pao() {
    let v = Variant::load("huanle3d").unwrap();
    let b = balances(
        json!({"seats": ["A","B","C","D"], "kongs": [{"owner": "C", "kind": "open", "feeder": "B"}],
        "wins": [{"winner": "A", "discarder": "C", "hand": {"concealed":
        ["3m","4m","5m","6m","6m","6m","4s","5s","6s","1p","3p","2s","2s"], "win_tile": "2p"},
        "situation": {"win_type": "after_kong_discard"}}]}),
        &v,
    );
    assert_eq!(b, vec![3, -1, -2, 0]);
}
