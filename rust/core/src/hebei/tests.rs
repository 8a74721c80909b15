//! Worked examples of hebei.md and the SXTDH reference cases.

use serde_json::json;

use super::*;
use crate::preset::SwitchValue;
use crate::test_util::{bal, tiles};
use crate::variant::{Rules, Variant};

fn rules_with(opts: &[(&str, SwitchValue)]) -> HebeiRules {
    let v = Variant::with_options("hebei", opts.iter().cloned()).unwrap();
    match v.rules() {
        Rules::Hebei(r) => (**r).clone(),
        _ => unreachable!(),
    }
}

#[test]
fn example1_ping_hu_discard_with_kongs() {
    let r = rules_with(&[]);
    let win = json!({"winner": "W", "discarder": "B", "hand": {"concealed": tiles("234m678m345s7p"),
        "win_tile": "7p", "melds": [{"type": "kong_open", "tile": "9p", "offer": 2}]}, "situation": {}});
    let hand = json!({"seats": ["A", "W", "B", "C"], "dealer": "A", "win": win,
        "kongs": [{"owner": "W", "type": "open", "feeder": "B"}, {"owner": "C", "type": "concealed"}]});
    assert_eq!(bal(&settle(&r, &hand).unwrap()), [-2, 4, -8, 6]);
    // 荒庄荒杠.
    let draw = json!({"seats": ["A", "W", "B", "C"], "dealer": "A",
        "kongs": [{"owner": "C", "type": "concealed"}]});
    assert_eq!(bal(&settle(&r, &draw).unwrap()), [0, 0, 0, 0]);
    let ri = rules_with(&[("kong_payment", SwitchValue::Str("instant".into()))]);
    assert_eq!(bal(&settle(&ri, &draw).unwrap()), [-2, -2, -2, 6]);
}

#[test]
fn example2_qi_dui_self_draw() {
    let r = rules_with(&[]);
    let win = json!({"winner": "W", "hand": {"concealed": tiles("1133m5577p22sEEF"), "win_tile": "F"},
        "situation": {"self_drawn": true}});
    let hand = json!({"seats": ["A", "W", "B", "C"], "dealer": "A", "win": win});
    assert_eq!(bal(&settle(&r, &hand).unwrap()), [-9, 27, -9, -9]);
}

#[test]
fn example3_gang_shang_kai_hua_floor() {
    let r = rules_with(&[]);
    let win = json!({"winner": "W", "hand": {"concealed": tiles("123m567p789p6m"), "win_tile": "6m",
        "melds": [{"type": "kong_concealed", "tile": "4s"}]}, "situation": {"win_type": "kong_replacement"}});
    let s = crate::hebei_draft4::situation_from_value(&win).unwrap();
    let sc = r.score(&s).unwrap();
    assert_eq!((sc.pattern.3, sc.points), (2, 4));
    let hand = json!({"seats": ["A", "W", "B", "C"], "dealer": "A", "win": win,
        "kongs": [{"owner": "W", "type": "concealed"}]});
    assert_eq!(bal(&settle(&r, &hand).unwrap()), [-6, 18, -6, -6]);
}

#[test]
fn single_pattern_and_profiles() {
    let r = rules_with(&[]);
    let sc = |concealed: &str, w: &str, r: &HebeiRules| {
        let v = json!({"hand": {"concealed": tiles(concealed), "win_tile": w}, "situation": {}});
        r.score(&crate::hebei_draft4::situation_from_value(&v).unwrap())
    };
    // 清一色 七对 is still 9; 龙七对 18; 清一色 一条龙 9.
    assert_eq!(sc("1133557799m22m4m", "4m", &r).unwrap().points, 9);
    assert_eq!(sc("1111335577m99m2m", "2m", &r).unwrap().points, 18);
    assert_eq!(sc("123456789m123m5m", "5m", &r).unwrap().points, 9);
    let t = rules_with(&[("fan_profile", SwitchValue::Str("taohyson_tdh".into()))]);
    assert_eq!(sc("19m19p19sESWNCFP", "P", &t).unwrap().points, 27);
    let f = rules_with(&[("fan_profile", SwitchValue::Str("flat".into()))]);
    assert_eq!(sc("19m19p19sESWNCFP", "P", &f).unwrap().points, 1);
    // no 吃.
    let chow = json!({"hand": {"concealed": tiles("123m456p789s9s"), "win_tile": "9s",
        "melds": [{"type": "chow", "tile": "2s"}]}, "situation": {}});
    let s = crate::hebei_draft4::situation_from_value(&chow).unwrap();
    assert!(matches!(r.score(&s), Err(Error::InvalidHand(_))));
    let rc = rules_with(&[("chi_allowed", SwitchValue::Bool(true))]);
    assert!(rc.score(&s).is_ok());
}
