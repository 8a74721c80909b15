//! Worked examples of kawuxing.md and the KWX reference cases.

use serde_json::{Value, json};

use super::*;
use crate::preset::SwitchValue;
use crate::variant::Variant;

fn rules_with(opts: &[(&str, SwitchValue)]) -> crate::test_util::Rules<KawuxingRules> {
    crate::test_util::rules("kawuxing", opts, rules_of)
}

fn rules() -> crate::test_util::Rules<KawuxingRules> {
    rules_with(&[])
}

fn case(concealed: &str, win: &str, melds: Value, sit: Value) -> Value {
    let tiles: Vec<String> = crate::tile::parse_tiles(concealed)
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    json!({"hand": {"concealed": tiles, "win_tile": win, "melds": melds}, "situation": sit})
}

fn score(r: &KawuxingRules, c: &Value) -> Result<KawuxingScore> {
    let s = Situation::from_case(c)?;
    let f = KawuxingFlags {
        liangdao: s.extra.liangdao,
    };
    r.score(&s, f)
}

/// Settle `events` between `seats` (base factor `bf`).
fn settle(
    r: &crate::test_util::Rules<KawuxingRules>,
    seats: &[String],
    events: &[Value],
    bf: i64,
) -> Result<crate::scoring::ledger::Ledger> {
    crate::test_util::settle(
        r,
        &json!({"seats": seats, "events": events, "table": {"base_factor": bf}}),
    )
}

fn ids(sc: &KawuxingScore) -> Vec<&str> {
    sc.patterns.iter().map(|p| p.id.as_str()).collect()
}

fn seats() -> Vec<String> {
    ["A", "B", "W"].iter().map(|s| s.to_string()).collect()
}

fn balances(l: &crate::scoring::ledger::Ledger) -> Vec<(String, i64)> {
    l.balances()
}

#[test]
fn example1_liangdao_self_draw_ka_wu_xing_mai_ma() {
    let r = rules();
    let c = case(
        "46s123p789pCCCFF",
        "5s",
        json!([]),
        json!({"self_drawn": true, "liangdao": true}),
    );
    let sc = score(&r, &c).unwrap();
    assert_eq!(ids(&sc), ["KA_WU_XING", "LIANG_DAO"]);
    assert_eq!(sc.value, 4);
    let mut ev = c.clone();
    ev["kind"] = json!("win");
    ev["winner"] = json!("W");
    ev["mai_ma"] = json!("7p");
    let l = settle(&r, &seats(), &[ev], 1).unwrap();
    assert_eq!(
        balances(&l),
        [("A".into(), -11), ("B".into(), -11), ("W".into(), 22)]
    );
}

#[test]
fn example2_dui_liang_bao_capped() {
    let seats: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
    for (cap, c_pays) in [(8, 16), (0, 64)] {
        let r = rules_with(&[("cap", SwitchValue::Int(cap))]);
        let mut ev = case("1123355667799s", "2s", json!([]), json!({"liangdao": true}));
        let sc = score(&r, &ev).unwrap();
        assert_eq!(ids(&sc), ["QI_DUI", "QING_YI_SE", "LIANG_DAO"]);
        assert_eq!(sc.raw, 32);
        ev["kind"] = json!("win");
        ev["winner"] = json!("A");
        ev["discarder"] = json!("C");
        ev["liangdao"] = json!(["C"]);
        let l = settle(&r, &seats, &[ev.clone()], 1).unwrap();
        assert_eq!(
            balances(&l),
            [("A".into(), c_pays), ("B".into(), 0), ("C".into(), -c_pays)]
        );
        // K6 对亮不包胡: one share only.
        let r6 = rules_with(&[
            ("cap", SwitchValue::Int(cap)),
            ("dui_liang_bao", SwitchValue::Bool(false)),
        ]);
        let l = settle(&r6, &seats, &[ev], 1).unwrap();
        assert_eq!(balances(&l)[2].1, -c_pays / 2);
    }
}

#[test]
fn example3_kong_chain_then_gang_shang_kai_hua() {
    let r = rules();
    let kong1 = json!({"kind": "kong", "owner": "W", "type": "open", "feeder": "A", "chain": 1});
    let kong2 = json!({"kind": "kong", "owner": "W", "type": "concealed", "chain": 2});
    let mut win = case(
        "555p2s",
        "2s",
        json!([
            {"type": "kong_open", "tile": "3p", "offer": 1},
            {"type": "kong_concealed", "tile": "9s"},
            {"type": "pon", "tile": "1s", "offer": 2}
        ]),
        json!({"win_type": "kong_replacement"}),
    );
    let sc = score(&r, &win).unwrap();
    assert_eq!(ids(&sc), ["PENG_PENG_HU", "GANG_SHANG_KAI_HUA"]);
    assert_eq!(sc.value, 4);
    win["kind"] = json!("win");
    win["winner"] = json!("W");
    win["mai_ma"] = json!("C");
    let l = settle(
        &r,
        &seats(),
        &[kong1.clone(), kong2.clone(), win.clone()],
        1,
    )
    .unwrap();
    assert_eq!(
        balances(&l),
        [("A".into(), -20), ("B".into(), -18), ("W".into(), 38)]
    );
    let amounts: Vec<i64> = l.events().iter().map(|e| e.deltas["W"]).collect();
    assert_eq!(amounts, [2, 8, 28]);
    // K6 chain cap: the third kong of a chain is still ×2.
    let r6 = rules_with(&[("kong_chain_cap", SwitchValue::Str("k6".into()))]);
    let k3 = json!({"kind": "kong", "owner": "W", "type": "added", "chain": 3});
    let l = settle(&r6, &seats(), std::slice::from_ref(&k3), 1).unwrap();
    assert_eq!(l.balances()[2].1, 4);
    let l = settle(&r, &seats(), &[k3], 1).unwrap();
    assert_eq!(l.balances()[2].1, 8);
}

fn waiting(concealed: &str) -> Value {
    let tiles: Vec<String> = crate::tile::parse_tiles(concealed)
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    json!({"melds": [], "concealed": tiles})
}

#[test]
fn example4_draw_chajiao() {
    let seats: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
    let draw = json!({"kind": "draw", "players": {
        "A": {"hand": waiting("46s123p789pCCCFF"), "liangdao": true},
        "B": {"hand": waiting("1p3p5p7p9p1s3s5s7s9sCFP"), "liangdao": false},
        "C": {"hand": waiting("111p234p567p78p99p"), "liangdao": false}}});
    let kong = json!({"kind": "kong", "owner": "C", "type": "concealed"});
    let r = rules();
    let (hand_c, _) =
        crate::rules::sichuan::waiting_hand_from_json(&waiting("111p234p567p78p99p").to_string())
            .unwrap();
    assert_eq!(r.da_jiao(&hand_c, false).unwrap().map(|x| x.1), Some(4));
    let l = settle(&r, &seats, &[kong, draw.clone()], 1).unwrap();
    assert_eq!(
        balances(&l),
        [
            ("A".into(), 4 - 2),
            ("B".into(), -8 - 2),
            ("C".into(), 4 + 4)
        ]
    );
    let rk1 = rules_with(&[("draw_settlement", SwitchValue::Str("liangdao_pays".into()))]);
    let l = settle(&rk1, &seats, &[draw], 1).unwrap();
    assert_eq!(
        balances(&l),
        [("A".into(), -2), ("B".into(), 1), ("C".into(), 1)]
    );
}

#[test]
fn forced_end_pays_best_value_per_liangdao_player() {
    // A waits on 1p (平胡) / 2s? Use a 卡五星 wait: 46s → 5s.
    let seats: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
    let r = rules();
    let ev = json!({"kind": "forced_end", "payer": "C", "held": ["5s", "4s"],
        "liangdao_hands": {"A": waiting("46s123p789pCCCFF")}});
    let l = settle(&r, &seats, &[ev], 1).unwrap();
    assert_eq!(
        balances(&l),
        [("A".into(), 4), ("B".into(), 0), ("C".into(), -4)]
    );
}

fn reference_cases() -> Vec<Value> {
    let dir = std::env::var("HUPAI_SHARED")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared").into());
    let Ok(text) = std::fs::read_to_string(format!("{dir}/cases/variants_ref.jsonl")) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["id"].as_str().is_some_and(|i| i.starts_with("KWX-")))
        .collect()
}

#[test]
fn kwx_reference_cases() {
    for c in reference_cases() {
        let opts: Vec<(String, SwitchValue)> = c["options"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), SwitchValue::Int(v.as_i64().unwrap())))
            .collect();
        let v = Variant::with_options("kawuxing", opts).unwrap();
        let r = rules_of(&v).unwrap();
        let input = json!({"hand": {"concealed": c["concealed"], "win_tile": c["win_tile"],
            "melds": c["melds"]}, "situation": c["situation"]});
        let sc = score(r, &input).unwrap();
        assert_eq!(
            sc.value,
            c["expected"]["multiplier"].as_i64().unwrap(),
            "{}",
            c["id"]
        );
        let want: Vec<i64> = c["expected"]["fans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["value"].as_i64().unwrap())
            .collect();
        let mut got: Vec<i64> = sc.patterns.iter().map(|p| p.value).collect();
        let mut want_sorted = want.clone();
        got.sort_unstable();
        want_sorted.sort_unstable();
        assert_eq!(got, want_sorted, "{}", c["id"]);
    }
}

#[test]
fn points_easy_to_get_wrong() {
    let r = rules();
    // 2番起胡: a bare 屁胡 cannot win, even self-drawn; K6 allows it by self-draw.
    let pi = case(
        "123p456p789p12s99s",
        "3s",
        json!([]),
        json!({"self_drawn": true}),
    );
    assert!(matches!(score(&r, &pi), Err(Error::InvalidHand(m)) if m.contains("起胡")));
    let r6 = rules_with(&[("min_multiplier", SwitchValue::Str("discard_only".into()))]);
    assert_eq!(score(&r6, &pi).unwrap().value, 1);
    let mut pi_d = pi.clone();
    pi_d["situation"] = json!({});
    assert!(score(&r6, &pi_d).is_err());
    // 84 tiles: no 万, no winds.
    let bad = case(
        "123m456p789p12s99s",
        "3s",
        json!([]),
        json!({"liangdao": true}),
    );
    assert!(matches!(score(&r, &bad), Err(Error::InvalidHand(_))));
    let bad = case(
        "123s456p789p12sEE",
        "3s",
        json!([]),
        json!({"liangdao": true}),
    );
    assert!(matches!(score(&r, &bad), Err(Error::InvalidHand(_))));
    // 吃 is not allowed.
    let chow = case(
        "456p789p12s99s",
        "3s",
        json!([{"type": "chow", "tile": "2p"}]),
        json!({"liangdao": true}),
    );
    assert!(matches!(score(&r, &chow), Err(Error::InvalidHand(_))));
    // multiplicative: 清一色 ×4 × 碰碰胡 ×2 × 暗四归 ×4 = 32 → cap 8.
    let big = case("111s333s555s777s9s", "9s", json!([]), json!({}));
    let rn = rules_with(&[("cap", SwitchValue::Int(0))]);
    assert_eq!(score(&rn, &big).unwrap().value, 8);
    let big = case("111s333s555s77s99s", "9s", json!([]), json!({}));
    let sc = score(&rn, &big).unwrap();
    assert_eq!(ids(&sc), ["PENG_PENG_HU", "QING_YI_SE"]);
    let big = case(
        "111s333s555s777s9s",
        "9s",
        json!([]),
        json!({"self_drawn": true, "liangdao": true}),
    );
    assert_eq!(score(&rn, &big).unwrap().raw, 16);
    assert_eq!(score(&r, &big).unwrap().value, 8);
    // 暗四归 on a discard ("逮炮也算") and 龙七对 does not add it.
    let an = case("555s46s123pCCCFF", "5s", json!([]), json!({}));
    let sc = score(&r, &an).unwrap();
    assert!(ids(&sc).contains(&"AN_SI_GUI"), "{:?}", ids(&sc));
    let lqd = case("1111s33s55s77p99pC", "C", json!([]), json!({}));
    let sc = score(&rn, &lqd).unwrap();
    assert_eq!(ids(&sc), ["LONG_QI_DUI"]);
    // 双龙七对 and three quads (Q6 default ×16; K2 ×128).
    let sl = case("1111s3333s5555sC", "C", json!([]), json!({}));
    assert_eq!(score(&rn, &sl).unwrap().value, 16);
    let rh = rules_with(&[
        ("cap", SwitchValue::Int(0)),
        ("qidui_quads", SwitchValue::Str("haohua".into())),
    ]);
    assert_eq!(score(&rh, &sl).unwrap().value, 128);
    // 大三元 excludes 小三元.
    let dsy = case("CCCFFFPPP123p5s", "5s", json!([]), json!({}));
    assert_eq!(ids(&score(&rn, &dsy).unwrap()), ["DA_SAN_YUAN"]);
    let xsy = case("CCCFFFPP123p55s", "P", json!([]), json!({}));
    let sc = score(&rn, &xsy).unwrap();
    assert!(ids(&sc).contains(&"DA_SAN_YUAN"));
    let xsy = case("CCCFFFP123p456s", "P", json!([]), json!({}));
    assert_eq!(ids(&score(&rn, &xsy).unwrap()), ["XIAO_SAN_YUAN"]);
    // 海底捞月 only on a self-draw; off under hai_di = false.
    let hd = case(
        "46s123p789pCCCFF",
        "5s",
        json!([]),
        json!({"self_drawn": true, "wall_last": true}),
    );
    assert_eq!(
        ids(&score(&r, &hd).unwrap()),
        ["KA_WU_XING", "HAI_DI_LAO_YUE"]
    );
    let hd2 = case(
        "46s123p789pCCCFF",
        "5s",
        json!([]),
        json!({"wall_last": true}),
    );
    assert_eq!(ids(&score(&r, &hd2).unwrap()), ["KA_WU_XING"]);
    // 卡五星 only with the 5 in a 456 sequence: 3-4 wait on 5 is not 卡五星.
    let k = case(
        "34s123p789pCCCFF",
        "5s",
        json!([]),
        json!({"liangdao": true}),
    );
    assert_eq!(ids(&score(&r, &k).unwrap()), ["LIANG_DAO"]);
    // 手抓一.
    let sz = case(
        "2s",
        "2s",
        json!([{"type": "pon", "tile": "1p"}, {"type": "pon", "tile": "3p"},
        {"type": "pon", "tile": "C"}, {"type": "kong_open", "tile": "9s"}]),
        json!({}),
    );
    assert_eq!(
        ids(&score(&rn, &sz).unwrap()),
        ["PENG_PENG_HU", "SHOU_ZHUA_YI"]
    );
}

#[test]
fn settlement_errors_are_typed() {
    let r = rules();
    let bad = [
        json!({"kind": "kong", "owner": "Z", "type": "added"}),
        json!({"kind": "kong", "owner": "W", "type": "open"}),
        json!({"kind": "kong", "owner": "W", "type": "open", "feeder": "W"}),
        json!({"kind": "nope"}),
        json!({"kind": "kong", "owner": "W", "type": "added", "chain": 0}),
    ];
    for b in bad {
        assert!(
            matches!(
                settle(&r, &seats(), std::slice::from_ref(&b), 1),
                Err(Error::Settlement(_))
            ),
            "{b}"
        );
    }
    assert!(settle(&r, &seats()[..2], &[], 1).is_err());
    // a win below the minimum is rejected; a second self-draw win is rejected.
    let mut w = case(
        "46s123p789pCCCFF",
        "5s",
        json!([]),
        json!({"self_drawn": true}),
    );
    w["kind"] = json!("win");
    w["winner"] = json!("W");
    let mut w2 = w.clone();
    w2["winner"] = json!("A");
    assert!(settle(&r, &seats(), &[w.clone(), w2], 1).is_err());
    // 一炮双响: two discard wins on the same discarder.
    let mut a = case("46s123p789pCCCFF", "5s", json!([]), json!({}));
    a["kind"] = json!("win");
    a["winner"] = json!("W");
    a["discarder"] = json!("B");
    let mut b = case("46s123p789pCCCPP", "5s", json!([]), json!({}));
    b["kind"] = json!("win");
    b["winner"] = json!("A");
    b["discarder"] = json!("B");
    let l = settle(&r, &seats(), &[a, b], 1).unwrap();
    assert_eq!(
        balances(&l),
        [("A".into(), 2), ("B".into(), -4), ("W".into(), 2)]
    );
    // 上楼: base factor 2 doubles everything.
    let l = settle(&r, &seats(), &[w], 2).unwrap();
    assert_eq!(l.balances()[2].1, 8);
}
