//! Worked examples of shanghai.md.

use serde_json::json;

use super::*;
use crate::preset::SwitchValue;
use crate::test_util::{bal, settle, tiles};

fn situation_from_value(v: &Value) -> Result<(Situation, Pending)> {
    let s = crate::test_util::case_of(v)?;
    let p = Pending::of(&s);
    Ok((s, p))
}

fn rules_with(opts: &[(&str, SwitchValue)]) -> crate::test_util::Rules<ShanghaiRules> {
    crate::test_util::rules("shanghai", opts, rules_of)
}

#[test]
fn example1_hun_yi_se_self_draw() {
    let r = rules_with(&[]);
    let w = json!({"winner": "W", "hand": {"concealed": tiles("234p567p88pSS"), "win_tile": "S",
        "melds": [{"type": "pon", "tile": "E"}]}, "situation": {"self_drawn": true, "flower_tiles": ["f1", "f5"]}});
    let (s, p) = situation_from_value(&w).unwrap();
    let sc = r.score(&s, p).unwrap();
    assert_eq!((sc.fan_total, sc.hua, sc.share), (2, 3, 24));
    let l = settle(&r, &json!({"seats": ["A", "B", "C", "W"], "win": w})).unwrap();
    assert_eq!(bal(&l), [-24, -24, -24, 72]);
}

#[test]
fn example2_qing_peng_double_lezi() {
    let r = rules_with(&[]);
    let w = json!({"winner": "W", "discarder": "B", "hand": {"concealed": tiles("444s666s9s"), "win_tile": "9s",
        "melds": [{"type": "kong_open", "tile": "7s"}, {"type": "pon", "tile": "2s"}]}, "situation": {"flowers": 1}});
    let (s, p) = situation_from_value(&w).unwrap();
    let sc = r.score(&s, p).unwrap();
    assert_eq!(
        (sc.fan_total, sc.hua, sc.raw_share, sc.share),
        (5, 2, 160, 80)
    );
    let l = settle(&r, &json!({"seats": ["A", "B", "C", "W"], "win": w})).unwrap();
    assert_eq!(bal(&l), [0, -80, 0, 80]);
}

#[test]
fn example3_chengbao_self_draw() {
    let r = rules_with(&[]);
    let w = json!({"winner": "W", "claims": {"A": 3}, "hand": {"concealed": tiles("555m1m"), "win_tile": "1m",
        "melds": [{"type": "pon", "tile": "3m"}, {"type": "pon", "tile": "N"}, {"type": "pon", "tile": "8m"}]},
        "situation": {"self_drawn": true, "flowers": 3}});
    let (s, p) = situation_from_value(&w).unwrap();
    let sc = r.score(&s, p).unwrap();
    assert_eq!((sc.fan_total, sc.hua, sc.share), (4, 4, 40));
    let l = settle(&r, &json!({"seats": ["A", "B", "C", "W"], "win": w})).unwrap();
    assert_eq!(bal(&l), [-120, 0, 0, 120]);
}

#[test]
fn example4_huang_fan_kai_bao() {
    let r = rules_with(&[]);
    let w = json!({"winner": "W", "discarder": "Z", "hand": {"concealed": tiles("222m777m3s"), "win_tile": "3s",
        "melds": [{"type": "pon", "tile": "5p"}, {"type": "pon", "tile": "9s"}]},
        "situation": {"flowers": 2, "huang_fan": 1, "kai_bao": 1}});
    let (s, p) = situation_from_value(&w).unwrap();
    let sc = r.score(&s, p).unwrap();
    assert_eq!((sc.fan_total, sc.cap, sc.share), (4, 80, 80));
    let l = settle(&r, &json!({"seats": ["W", "X", "Y", "Z"], "win": w})).unwrap();
    assert_eq!(bal(&l), [80, 0, 0, -80]);
}

#[test]
fn points_easy_to_get_wrong() {
    let r = rules_with(&[]);
    let sc = |c: &str, w: &str, sit: serde_json::Value| {
        let v = json!({"hand": {"concealed": tiles(c), "win_tile": w}, "situation": sit});
        let (s, p) = situation_from_value(&v)?;
        r.score(&s, p)
    };
    // 清混碰 minimum: a plain mixed hand cannot win.
    assert!(
        matches!(sc("123m456p789s11s23s", "4s", json!({})), Err(Error::InvalidHand(m)) if m.contains("清混碰"))
    );
    // 八花齐 is an instant win, 4番, paid as a self-draw.
    let b = sc("123m456p789s11s23s", "4s", json!({"flowers": 8})).unwrap();
    assert_eq!((b.fan_total, b.self_draw_payment), (4, true));
    // 风一色 any arrangement; 风碰 四勒.
    let f = sc("ESWNCFPESWNCF", "P", json!({})).unwrap();
    assert_eq!(f.fans[0].0, "FENG_YI_SE");
    let fp = sc("EEESSSWWWNNNC", "C", json!({"flowers": 4})).unwrap();
    assert_eq!(
        (fp.fans[0].0.as_str(), fp.cap, fp.share),
        ("FENG_PENG", 160, 160)
    );
    // 清一色 (not 碰) ×16 with one 花.
    let q = sc("123456789m11m23m", "4m", json!({"flowers": 1})).unwrap();
    assert_eq!((q.fan_total, q.share), (4, 40));
    // 大吊车 and 杠开.
    let v = json!({"hand": {"concealed": tiles("1m"), "win_tile": "1m", "melds": [{"type": "pon", "tile": "2m"},
        {"type": "pon", "tile": "3m"}, {"type": "pon", "tile": "E"}, {"type": "kong_concealed", "tile": "5m"}]},
        "situation": {"win_type": "kong_replacement"}});
    let (s, p) = situation_from_value(&v).unwrap();
    let d = r.score(&s, p).unwrap();
    let ids: Vec<&str> = d.fans.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(ids, ["HUN_PENG", "GANG_KAI", "DA_DIAO_CHE"]);
}

fn sc_with(
    r: &ShanghaiRules,
    c: &str,
    w: &str,
    melds: serde_json::Value,
    sit: serde_json::Value,
) -> Result<ShanghaiScore> {
    let v =
        json!({"hand": {"concealed": tiles(c), "win_tile": w, "melds": melds}, "situation": sit});
    let (s, p) = situation_from_value(&v)?;
    r.score(&s, p)
}

#[test]
fn dragons_as_flowers() {
    let r = rules_with(&[("dragons_as_flowers", SwitchValue::Bool(true))]);
    let pon_e = json!([{"type": "pon", "tile": "E"}]);
    // Example 1 with two dragon flowers besides f1, f5: 花 = 2 + 2 + 1 → (3 + 5) × 4 = 32.
    let sit = json!({"self_drawn": true, "flower_tiles": ["f1", "f5"], "dragon_flowers": 2});
    let s = sc_with(&r, "234p567p88pSS", "S", pon_e.clone(), sit.clone()).unwrap();
    assert_eq!((s.fan_total, s.hua, s.share), (2, 5, 32));
    // Without the switch dragon flowers do not exist.
    assert!(
        matches!(sc_with(&rules_with(&[]), "234p567p88pSS", "S", pon_e, sit),
        Err(Error::InvalidHand(m)) if m.contains("dragons_as_flowers"))
    );
    // A dragon can never be held (nor be the winning tile).
    assert!(sc_with(&r, "EEESSSWWWNNNC", "C", json!([]), json!({})).is_err());
    assert!(sc_with(&rules_with(&[]), "EEESSSWWWNNNC", "C", json!([]), json!({})).is_ok());
    assert!(
        sc_with(
            &r,
            "EEESSSWWWNNN1m",
            "1m",
            json!([]),
            json!({"dragon_flowers": 13})
        )
        .is_err()
    );
}

#[test]
fn qiao_ma_mode() {
    let r = rules_with(&[("mode", SwitchValue::Str("qiao_ma".into()))]);
    let ready = json!({"ready_declared": true});
    // A plain mixed hand wins after 敲: 门清 1 + 单吊 1 (the 5p pair was the only wait).
    let s = sc_with(&r, "123m456p789s234s5p", "5p", json!([]), ready.clone()).unwrap();
    let ids: Vec<&str> = s.fans.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(ids, ["MEN_QING", "DAN_DIAO"]);
    assert_eq!((s.fan_total, s.share), (2, 12));
    // The default mode refuses it; 敲麻 refuses it without 敲.
    assert!(
        sc_with(
            &rules_with(&[]),
            "123m456p789s234s5p",
            "5p",
            json!([]),
            ready.clone()
        )
        .is_err()
    );
    assert!(
        matches!(sc_with(&r, "123m456p789s234s5p", "5p", json!([]), json!({})),
        Err(Error::InvalidHand(m)) if m.contains("敲"))
    );
    // 无番胡: an open two-sided wait scores 0 番 (3 chips); 清一色 is worth nothing in 敲麻.
    let chi = json!([{"type": "chi", "tile": "2m"}]);
    let z = sc_with(&r, "456p789s22s5p6p", "7p", chi.clone(), ready.clone()).unwrap();
    assert_eq!((z.fan_total, z.share), (0, 3));
    let q = sc_with(&r, "123456789m11m23m", "4m", json!([]), ready.clone()).unwrap();
    assert_eq!(
        q.fans.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(),
        ["MEN_QING"]
    );
    // Pending 开宝 still adds.
    let k = sc_with(
        &r,
        "456p789s22s5p6p",
        "7p",
        chi,
        json!({"ready_declared": true, "kai_bao": 1}),
    )
    .unwrap();
    assert_eq!((k.fan_total, k.cap), (1, 80));
}

#[test]
fn baida_wildcard() {
    let r = rules_with(&[("baida", SwitchValue::Str("indicator_next".into()))]);
    let pon_e = json!([{"type": "pon", "tile": "E"}]);
    let sit = |ind: Option<&str>| {
        let mut v = json!({"self_drawn": true, "flower_tiles": ["f1", "f5"]});
        if let Some(t) = ind {
            v["wild_indicator"] = json!(t);
        }
        v
    };
    // Example 1 with one 8p replaced by a 2s: the flipped 1s makes 2s the 百搭, read as 8p →
    // 混一色 as in the worked example (24).
    let s = sc_with(&r, "234p567p8p2sSS", "S", pon_e.clone(), sit(Some("1s"))).unwrap();
    assert_eq!((s.fans[0].0.as_str(), s.share), ("HUN_YI_SE", 24));
    // No 百搭: not even a complete hand.
    assert!(
        sc_with(
            &rules_with(&[]),
            "234p567p8p2sSS",
            "S",
            pon_e.clone(),
            sit(None)
        )
        .is_err()
    );
    // 百搭 = the flipped kind itself.
    let ri = rules_with(&[("baida", SwitchValue::Str("indicator".into()))]);
    assert_eq!(
        sc_with(&ri, "234p567p8p2sSS", "S", pon_e.clone(), sit(Some("2s")))
            .unwrap()
            .share,
        24
    );
    // The indicator is required with 百搭 and refused without.
    assert!(
        matches!(sc_with(&r, "234p567p8p2sSS", "S", pon_e.clone(), sit(None)),
        Err(Error::InvalidHand(m)) if m.contains("wild_indicator"))
    );
    assert!(
        matches!(sc_with(&rules_with(&[]), "234p88p567pSS", "S", pon_e, sit(Some("1s"))),
        Err(Error::InvalidHand(m)) if m.contains("baida=none"))
    );
    // 风一色 乱风 with a 百搭 among the honours.
    let f = sc_with(
        &r,
        "ESWNCFPESWNC2s",
        "P",
        json!([]),
        json!({"wild_indicator": "1s"}),
    )
    .unwrap();
    assert_eq!(f.fans[0].0, "FENG_YI_SE");
    // A dragon 百搭 while dragons are flowers is impossible.
    let rd = rules_with(&[
        ("baida", SwitchValue::Str("indicator_next".into())),
        ("dragons_as_flowers", SwitchValue::Bool(true)),
    ]);
    assert!(
        sc_with(
            &rd,
            "234p567p88pSS",
            "S",
            json!([{"type": "pon", "tile": "E"}]),
            json!({"self_drawn": true, "wild_indicator": "C"})
        )
        .is_err()
    );
}
