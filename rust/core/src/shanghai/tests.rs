//! Worked examples of shanghai.md.

use serde_json::json;

use super::*;
use crate::preset::SwitchValue;
use crate::test_util::{bal, tiles};
use crate::variant::{Rules, Variant};

fn rules_with(opts: &[(&str, SwitchValue)]) -> ShanghaiRules {
    let v = Variant::with_options("shanghai", opts.iter().cloned()).unwrap();
    match v.rules() {
        Rules::Shanghai(r) => (**r).clone(),
        _ => unreachable!(),
    }
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
