//! Worked examples of hebei_draft4.md.

use serde_json::{Value, json};

use super::*;
use crate::preset::SwitchValue;
use crate::test_util::{bal, settle, tiles};

fn rules_with(opts: &[(&str, SwitchValue)]) -> crate::test_util::Rules<HebeiDraft4Rules> {
    crate::test_util::rules("hebei_draft4", opts, rules_of)
}

#[test]
fn example1_men_qing_zhuo_wu_kui_dian_zhuang() {
    let r = rules_with(&[]);
    let win = json!({"winner": "W", "discarder": "D",
        "hand": {"concealed": tiles("123m46m789p234s55s"), "win_tile": "5m"}, "situation": {}});
    let s = crate::test_util::case(&win);
    let sc = r.score(&s).unwrap();
    let ids: Vec<&str> = sc.fans.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(ids, ["MEN_QING", "ZHUO_WU_KUI"]);
    let hand = json!({"seats": ["D", "W", "A", "B"], "dealer": "D", "win": win,
        "kongs": [{"owner": "A", "type": "open", "feeder": "W"}]});
    assert_eq!(bal(&settle(&r, &hand).unwrap()), [-160, 160, 0, 0]);
}

#[test]
fn example2_dealer_self_draw_capped() {
    let r = rules_with(&[]);
    let win = json!({"winner": "D", "hand": {"concealed": tiles("345m666m777m9m"), "win_tile": "9m",
        "melds": [{"type": "kong_concealed", "tile": "2m"}]}, "situation": {"self_drawn": true}});
    let sc = r.score(&crate::test_util::case(&win)).unwrap();
    assert_eq!(sc.fan_total, 6);
    let hand = json!({"seats": ["D", "W", "A", "B"], "dealer": "D", "win": win,
        "kongs": [{"owner": "D", "type": "concealed"}]});
    assert_eq!(bal(&settle(&r, &hand).unwrap()), [1980, -660, -660, -660]);
}

#[test]
fn example3_floor_one_gen_zhuang() {
    let r = rules_with(&[]);
    let win = json!({"winner": "W", "hand": {"concealed": tiles("555m888m2s"), "win_tile": "2s",
        "melds": [{"type": "kong_open", "tile": "7p", "offer": 2}, {"type": "pon", "tile": "3s", "offer": 3}]},
        "situation": {"self_drawn": true}});
    let hand = json!({"seats": ["D", "W", "X", "Y"], "dealer": "D", "table": {"floor": 1, "gen_zhuang": true},
        "win": win, "kongs": [{"owner": "W", "type": "open", "feeder": "X"}]});
    assert_eq!(bal(&settle(&r, &hand).unwrap()), [-110, 180, -40, -30]);
}

#[test]
fn example4_legality() {
    let r = rules_with(&[]);
    let open = |sd: bool| {
        json!({"hand": {"concealed": tiles("123m456p78s99s"), "win_tile": "9s",
        "melds": [{"type": "pon", "tile": "E"}]}, "situation": {"self_drawn": sd}})
    };
    assert!(matches!(
        r.score(&Situation::from_case(&open(false)).unwrap()),
        Err(Error::InvalidHand(_))
    ));
    assert!(r.score(&Situation::from_case(&open(true)).unwrap()).is_ok());
    let mq = json!({"winner": "W", "discarder": "A", "hand": {"concealed": tiles("123m456p789s78s99s"), "win_tile": "9s"},
        "situation": {}});
    let sc = r.score(&crate::test_util::case(&mq)).unwrap();
    assert_eq!(sc.fan_total, 1);
    let hand = json!({"seats": ["D", "W", "A", "B"], "dealer": "D", "win": mq});
    assert_eq!(bal(&settle(&r, &hand).unwrap()), [0, 40, -40, 0]);
}

#[test]
fn points_easy_to_get_wrong() {
    let r = rules_with(&[]);
    // 捉五魁 needs 5m to be the only winning tile: 4-6 with 5m also as a pair wait is not.
    let two_waits = json!({"hand": {"concealed": tiles("4446m789p234s555s"), "win_tile": "5m"}, "situation": {"self_drawn": true}});
    let sc = r.score(&Situation::from_case(&two_waits).unwrap()).unwrap();
    assert!(
        sc.fans.iter().all(|f| f.0 != "ZHUO_WU_KUI"),
        "{:?}",
        sc.fans
    );
    // 6-番 cap applied to the dealer: 庄点 30 × 64 = 1920 → 640; floor 2 → 2560.
    let big = json!({"winner": "D", "discarder": "A", "hand": {"concealed": tiles("1122334455667m"), "win_tile": "7m"}, "situation": {}});
    let sc = r.score(&crate::test_util::case(&big)).unwrap();
    assert!(sc.fan_total >= 6);
    let hand =
        json!({"seats": ["D", "W", "A", "B"], "dealer": "D", "table": {"floor": 2}, "win": big});
    assert_eq!(bal(&settle(&r, &hand).unwrap()), [2560, 0, -2560, 0]);
    let rf = rules_with(&[("cap_before_floor", SwitchValue::Bool(false))]);
    assert_eq!(bal(&settle(&rf, &hand).unwrap()), [640, 0, -640, 0]);
    // 荒牌: no payments at all, even kongs.
    let draw = json!({"seats": ["D", "W", "A", "B"], "dealer": "D", "kongs": [{"owner": "A", "type": "concealed"}]});
    assert_eq!(bal(&settle(&r, &draw).unwrap()), [0, 0, 0, 0]);
    // floors: only 0..=2.
    let bad = json!({"seats": ["D", "W", "A", "B"], "dealer": "D", "table": {"floor": 3}});
    assert!(matches!(settle(&r, &bad), Err(Error::Settlement(_))));
    let bad: Value = json!({"seats": ["D", "W", "A"], "dealer": "D"});
    assert!(matches!(settle(&r, &bad), Err(Error::Settlement(_))));
}
