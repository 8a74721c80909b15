//! Worked examples of hebei.md and the SXTDH reference cases.

use serde_json::json;

use super::*;
use crate::preset::SwitchValue;
use crate::test_util::{bal, settle, tiles};

fn rules_with(opts: &[(&str, SwitchValue)]) -> crate::test_util::Rules<HebeiRules> {
    crate::test_util::rules("hebei", opts, rules_of)
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
    let s = crate::test_util::case(&win);
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
        r.score(&crate::situation::Situation::from_case(&v).unwrap())
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
    let s = crate::situation::Situation::from_case(&chow).unwrap();
    assert!(matches!(r.score(&s), Err(Error::InvalidHand(_))));
    let rc = rules_with(&[("chi_allowed", SwitchValue::Bool(true))]);
    assert!(rc.score(&s).is_ok());
}

fn wild_score(
    r: &HebeiRules,
    concealed: &str,
    win: &str,
    melds: serde_json::Value,
    sit: serde_json::Value,
) -> Result<HebeiScore> {
    let v = json!({"hand": {"concealed": tiles(concealed), "win_tile": win, "melds": melds}, "situation": sit});
    let s = Situation::from_input(&serde_json::from_value(v).unwrap())?;
    r.score(&s)
}

#[test]
fn dai_hun_family() {
    let none = rules_with(&[]);
    let sw = |v: &str| rules_with(&[("wildcard", SwitchValue::Str(v.into()))]);
    let kong = json!([{"type": "kong_open", "tile": "9p", "offer": 2}]);
    // Example 1 with the 7p replaced by a 5m: not a win without a wildcard.
    let plain = |r: &HebeiRules, ind: Option<&str>| {
        let sit = match ind {
            Some(t) => json!({"wild_indicator": t}),
            None => json!({}),
        };
        wild_score(r, "234m678m345s5m", "7p", kong.clone(), sit)
    };
    assert!(matches!(plain(&none, None), Err(Error::InvalidHand(_))));
    // 带混儿: the flipped 4m makes 5m the 混儿 (stands for the 7p of the pair): 平胡 3.
    let d = plain(&sw("dai_hun"), Some("4m")).unwrap();
    assert_eq!((d.pattern.0.as_str(), d.points), ("PING_HU", 3));
    assert_eq!(d.wild, Some(Tile::parse("5m").unwrap()));
    assert_eq!(d.decomposition.wildcards, vec![Tile::parse("7p").unwrap()]);
    // 9→1 wrap: a flipped 9m makes 1m the 混儿, so 5m is plain again.
    assert!(plain(&sw("dai_hun"), Some("9m")).is_err());
    // 随机癞子: the flipped kind itself is wild.
    assert_eq!(plain(&sw("random_laizi"), Some("5m")).unwrap().points, 3);
    assert!(plain(&sw("random_laizi"), Some("4m")).is_err());
    // The indicator is required by dai_hun / random_laizi and refused without a flip.
    assert!(
        matches!(plain(&sw("dai_hun"), None), Err(Error::InvalidHand(m)) if m.contains("wild_indicator"))
    );
    assert!(
        matches!(plain(&none, Some("4m")), Err(Error::InvalidHand(m)) if m.contains("wildcard=none"))
    );
    assert!(plain(&sw("hongzhong"), Some("4m")).is_err());
    assert!(plain(&sw("dai_hun"), Some("f1")).is_err());
    // 红中癞子: 红中 completes 七对 (9) and, read as 5m, a 清一色 (9, not 平胡 2).
    let hz = sw("hongzhong");
    let q = wild_score(
        &hz,
        "1133m5577p22sEEC",
        "F",
        json!([]),
        json!({"self_drawn": true}),
    )
    .unwrap();
    assert_eq!((q.pattern.0.as_str(), q.points), ("QI_DUI", 9));
    assert!(
        wild_score(
            &none,
            "1133m5577p22sEEC",
            "F",
            json!([]),
            json!({"self_drawn": true})
        )
        .is_err()
    );
    let qys = wild_score(
        &hz,
        "111m345m678m999m5m",
        "C",
        json!([]),
        json!({"self_drawn": true}),
    )
    .unwrap();
    assert_eq!((qys.pattern.0.as_str(), qys.points), ("QING_YI_SE", 9));
    // Without substitution the same tiles score as before.
    let ex2 = wild_score(
        &hz,
        "1133m5577p22sEEF",
        "F",
        json!([]),
        json!({"self_drawn": true}),
    )
    .unwrap();
    assert_eq!(ex2.points, 9);
}

/// 截胡 by default; under the switch `multi_ron` every winner on the one discard is paid by the
/// discarder, and the kongs once.
#[test]
fn multi_ron_pays_each_winner_once() {
    let w1 = json!({"kind": "win", "winner": "W", "discarder": "B", "hand": {"concealed": tiles("234m678m345s7p"),
        "win_tile": "7p", "melds": [{"type": "kong_open", "tile": "9p", "offer": 2}]}, "situation": {}});
    let w2 = json!({"kind": "win", "winner": "C", "discarder": "B", "hand": {"concealed": tiles("123m456m789m11s77p"),
        "win_tile": "7p", "melds": []}, "situation": {}});
    let kong = json!({"kind": "kong", "owner": "W", "type": "open", "feeder": "B"});
    let rec = json!({"seats": ["A", "W", "B", "C"], "dealer": "A", "events": [kong, w1, w2]});
    let plain = crate::Variant::load("hebei").unwrap();
    let e = plain.ruleset().settle(&rec).unwrap_err().to_string();
    assert!(
        e.contains("one winner per hand") && e.contains("multi_ron"),
        "{e}"
    );
    let v =
        crate::Variant::with_options("hebei", [("multi_ron", SwitchValue::Bool(true))]).unwrap();
    let s = v.ruleset().settle(&rec).unwrap();
    assert_eq!(s.scores.len(), 2);
    let bal: Vec<i64> = s.ledger.balances().into_iter().map(|x| x.1).collect();
    let (p1, p2) = (s.scores[0].per_payer, s.scores[1].per_payer);
    // the discarder pays both wins and the 直杠 (kong_open points) once
    let k = bal[1] - p1;
    assert!(k > 0, "{bal:?}");
    assert_eq!(bal, [0, p1 + k, -(p1 + p2 + k), p2]);
    // a second winner by self-draw is not an 一炮多响
    let mut bad = rec.clone();
    bad["events"][2]["situation"] = json!({"self_drawn": true});
    bad["events"][2]
        .as_object_mut()
        .unwrap()
        .remove("discarder");
    assert!(v.ruleset().settle(&bad).is_err());
}
