//! Core check of example 1 of `shared/rules/shaanxi.md` (the rest: `tests/test_shaanxi.py`).

use serde_json::json;

use crate::test_util::{Rules, bal, rules, settle};

#[test]
fn example_1_pao_zi_and_dealer_double() {
    let r: Rules<super::ShaanxiRules> = rules("shaanxi", &[], |v| {
        Ok(&v.rules_as::<super::Shaanxi>().unwrap().rules)
    });
    let rec = json!({
        "seats": ["D", "W", "X", "Y"], "dealer": "D",
        "kongs": [{"owner": "W", "kind": "concealed"}],
        "wins": [{"winner": "W", "hand": {"concealed": ["1m","2m","3m","4m","5m","6m","7s","8s","9s","2s"],
            "win_tile": "2s", "melds": [{"type": "kong_concealed", "tiles": ["6p","6p","6p","6p"]}]},
            "situation": {"win_type": "self_draw"}}],
        "seat_data": {"W": {"pao_zi": 2}, "D": {"pao_zi": 1}, "X": {"pao_zi": 0}, "Y": {"pao_zi": 3}}
    });
    let b = bal(&settle(&r, &rec).unwrap());
    assert_eq!(b, vec![-36, 102, -24, -42]);
}

#[test]
fn escape_penalty_is_the_spec_total_split_among_the_others() {
    let r: Rules<super::ShaanxiRules> = rules("shaanxi", &[], |v| {
        Ok(&v.rules_as::<super::Shaanxi>().unwrap().rules)
    });
    let rec = json!({
        "seats": ["D", "W", "X", "Y"], "dealer": "D",
        "kongs": [{"owner": "X", "kind": "concealed"}],
        "table": {"escaped": "W"},
        "seat_data": {"W": {"pao_zi": 2}, "D": {"pao_zi": 1}, "X": {"pao_zi": 0}, "Y": {"pao_zi": 3}}
    });
    let b = bal(&settle(&r, &rec).unwrap());
    // kong: X +18, others −6; escape: 3 × (8 + 3·2 + 1 + 0 + 3) = 54 paid by W:
    // X 3·(2+0)+8 = 14, Y 3·(2+3)+8 = 23, D 3·(2+1)+8 = 17.
    assert_eq!(b, vec![-6 + 17, -6 - 54, 18 + 14, -6 + 23]);
    let bad = json!({
        "seats": ["D", "W", "X", "Y"], "dealer": "D", "table": {"escaped": "Q"}
    });
    assert!(settle(&r, &bad).is_err());
}
