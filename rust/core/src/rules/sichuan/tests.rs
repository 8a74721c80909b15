//! The worked examples of sichuan.md §7.4 and switch behaviour.

use super::*;
use crate::preset::SwitchValue;
use crate::scoring::ledger::{DrawEndState, KongPay, Ledger};
use crate::variant::Variant;

fn rules(opts: &[(&str, SwitchValue)]) -> SichuanRules {
    let v = Variant::with_options("sichuan", opts.iter().cloned()).unwrap();
    rules_of(&v).unwrap().clone()
}

fn sit(json: &str) -> Situation {
    Situation::from_json(json).unwrap()
}

fn ids(s: &SichuanScore) -> Vec<(String, u32)> {
    s.fans.iter().map(|f| (f.id.clone(), f.count)).collect()
}

#[test]
fn example1_ping_hu_with_gen() {
    let r = rules(&[]);
    let s = sit(
        r#"{"hand": {"concealed": ["1m","1m","1m","1m","2m","3m","4p","5p","6p","7p","8p","9p","5p"], "win_tile": "5p"},
        "situation": {"win_type": "discard"}}"#,
    );
    let sc = r.score(&s).unwrap();
    assert_eq!(ids(&sc), vec![("PING_HU".into(), 1), ("GEN".into(), 1)]);
    assert_eq!((sc.fan_total, sc.multiplier, sc.per_payer), (2, 2, 12));
    // The score's payments: the winner (seat 0) is paid by the discarder (his 上家, seat 3).
    let v = Variant::load("sichuan").unwrap();
    let full = v.ruleset().score(crate::rules::CaseRef::Tiles(&s)).unwrap();
    assert_eq!(full.net(), vec![12, 0, 0, -12]);
    assert_eq!(full.per_payer, 12);
}

#[test]
fn tian_hu_on_qing_long_qi_dui_keeps_its_gen() {
    // Regression (issue 12): 天胡 on a 清龙七对 shape scored 清龙七对 6番 (減1根) = 192 per payer;
    // sichuan.md §6 (天胡 excludes every other base pattern) and common.md §3.7 give 天胡 + 根 = 7番.
    let r = rules(&[]);
    let s = sit(
        r#"{"hand": {"concealed": ["1m","1m","4m","4m","6m","6m","6m","7m","7m","8m","8m","9m","9m"], "win_tile": "6m"},
        "situation": {"win_type": "self_draw", "dealer": true, "blessing": "heavenly"}}"#,
    );
    let sc = r.score(&s).unwrap();
    assert_eq!(ids(&sc), vec![("TIAN_HU".into(), 1), ("GEN".into(), 1)]);
    assert_eq!((sc.fan_total, sc.per_payer), (7, 384));
    let d = sit(
        r#"{"hand": {"concealed": ["1m","1m","4m","4m","6m","6m","6m","7m","7m","8m","8m","9m","9m"], "win_tile": "6m"},
        "situation": {"win_type": "self_draw", "blessing": "earthly"}}"#,
    );
    let sc = r.score(&d).unwrap();
    assert_eq!(ids(&sc), vec![("DI_HU".into(), 1), ("GEN".into(), 1)]);
    assert_eq!((sc.fan_total, sc.per_payer), (7, 384));
}

const EX2: &str = r#"{"hand": {"melds": [{"type": "kong_concealed", "tiles": ["5s","5s","5s","5s"]}, {"type": "pon", "tiles": ["8s","8s","8s"]}],
    "concealed": ["2s","2s","2s","3s","3s","3s","9s"], "win_tile": "9s"}, "situation": {"win_type": "kong_replacement"}}"#;

#[test]
fn example2_kong_then_gang_shang_hua_qing_dui() {
    let r = rules(&[]);
    let s = sit(EX2);
    let sc = r.score(&s).unwrap();
    assert_eq!(
        ids(&sc),
        vec![("QING_DUI".into(), 1), ("GANG_SHANG_HUA".into(), 1)]
    );
    assert_eq!((sc.fan_total, sc.multiplier, sc.per_payer), (5, 16, 96));
    // Ledger: A has already won and left.
    let seats: Vec<String> = ["A", "B", "C", "W"].iter().map(|s| s.to_string()).collect();
    let mut l = Ledger::new(seats, r.settlement.clone()).unwrap();
    l.leave("A").unwrap();
    l.kong("W", KongPay::Concealed, None).unwrap();
    l.win("W", sc.per_payer, None, false, Value::Null).unwrap();
    let b: Vec<i64> = l.balances().into_iter().map(|x| x.1).collect();
    assert_eq!(b, vec![0, -108, -108, 216]);
    // gen_counts_kongs: 6番 → 192 each, W +408.
    let r2 = rules(&[("gen_counts_kongs", SwitchValue::Bool(true))]);
    let sc2 = r2.score(&s).unwrap();
    assert_eq!((sc2.fan_total, sc2.per_payer), (6, 192));
    assert_eq!(24 + 2 * sc2.per_payer, 408);
}

#[test]
fn example3_multi_ron_values() {
    let r = rules(&[]);
    let b = sit(
        r#"{"hand": {"concealed": ["2m","3m","4m","5m","6m","7m","2m","2m","4p","5p","7p","8p","9p"], "win_tile": "6p"},
        "situation": {"win_type": "after_kong_discard"}}"#,
    );
    let c = sit(
        r#"{"hand": {"concealed": ["1m","1m","1m","3m","3m","3m","9m","9m","6p","6p","7p","7p","7p"], "win_tile": "6p"},
        "situation": {"win_type": "after_kong_discard"}}"#,
    );
    let sb = r.score(&b).unwrap();
    let scc = r.score(&c).unwrap();
    assert_eq!((sb.fan_total, sb.per_payer), (2, 12));
    assert_eq!((scc.fan_total, scc.per_payer), (3, 24));
    let seats: Vec<String> = ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect();
    let mut l = Ledger::new(seats, r.settlement.clone()).unwrap();
    l.kong("D", KongPay::Open, Some("A")).unwrap();
    l.win("B", sb.per_payer, Some("D"), true, Value::Null)
        .unwrap();
    l.win("C", scc.per_payer, Some("D"), true, Value::Null)
        .unwrap();
    let bal: Vec<i64> = l.balances().into_iter().map(|x| x.1).collect();
    assert_eq!(bal, vec![-6, 18, 30, -42]);
}

#[test]
fn example4_da_jiao_and_draw_end() {
    let r = rules(&[]);
    let hand = Hand::parse("123m234m567m88m99m", Vec::new()).unwrap();
    let mw = r.max_win_value(&hand, &[], None).unwrap();
    let waits: Vec<String> = mw.waits.iter().map(|(t, _)| t.to_string()).collect();
    assert_eq!(waits, ["8m", "9m"]);
    assert_eq!(mw.da_jiao, Some(24));
    assert!(!mw.huazhu);
    let pig = Hand::parse("123m456p789s11s2m3m4m", Vec::new()).unwrap();
    assert!(r.is_huazhu(&pig, None));
    let seats: Vec<String> = ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect();
    let mut l = Ledger::new(seats, r.settlement.clone()).unwrap();
    l.kong("C", KongPay::Added, None).unwrap();
    l.leave("A").unwrap();
    l.draw_end(&[
        (
            "B".into(),
            DrawEndState {
                huazhu: false,
                da_jiao: mw.da_jiao,
            },
        ),
        ("C".into(), DrawEndState::default()),
        (
            "D".into(),
            DrawEndState {
                huazhu: true,
                da_jiao: None,
            },
        ),
    ])
    .unwrap();
    let bal: Vec<i64> = l.balances().into_iter().map(|x| x.1).collect();
    assert_eq!(bal, vec![96, 120, 72, -288]);
}

#[test]
fn long_qi_dui_absorbs_one_gen_and_profiles() {
    let s = sit(
        r#"{"hand": {"concealed": ["1m","1m","1m","1m","3m","3m","5m","5m","7p","7p","8p","8p","9p"], "win_tile": "9p"},
        "situation": {"win_type": "discard"}}"#,
    );
    let sc = rules(&[]).score(&s).unwrap();
    assert_eq!(ids(&sc), vec![("LONG_QI_DUI".into(), 1)]);
    assert_eq!(sc.multiplier, 16);
    let b = rules(&[(
        "fan_profile",
        SwitchValue::Str("billee1011_option_1".into()),
    )]);
    assert_eq!(b.score(&s).unwrap().multiplier, 8);
    let sbr = rules(&[
        ("fan_profile", SwitchValue::Str("sbr_3fan_cap".into())),
        ("cap_fan", SwitchValue::Int(3)),
    ]);
    let x = sbr.score(&s).unwrap();
    assert_eq!(ids(&x), vec![("QI_DUI".into(), 1), ("GEN".into(), 1)]);
    assert_eq!(x.multiplier, 8);
}

#[test]
fn invalid_sichuan_hands() {
    let r = rules(&[]);
    let bad = [
        // three suits
        r#"{"hand": {"concealed": ["1m","2m","3m","4p","5p","6p","7s","8s","9s","1s","1s","2s","2s"], "win_tile": "2s"}}"#,
        // honours
        r#"{"hand": {"concealed": ["1m","2m","3m","4m","5m","6m","7m","8m","9m","E","E","2m","2m"], "win_tile": "2m"}}"#,
        // chi
        r#"{"hand": {"melds": [{"type": "chi", "tiles": ["1m","2m","3m"]}], "concealed": ["4m","5m","6m","7m","8m","9m","2p","2p","3p","3p"], "win_tile": "3p"}}"#,
        // void suit held
        r#"{"hand": {"concealed": ["1m","2m","3m","4m","5m","6m","7m","8m","9m","1p","1p","2m","2m"], "win_tile": "2m"}, "situation": {"void_suit": "p"}}"#,
        // not a win
        r#"{"hand": {"concealed": ["1m","2m","3m","4m","5m","6m","7m","8m","9m","1p","1p","2m","5m"], "win_tile": "8p"}}"#,
    ];
    for b in bad {
        assert!(
            matches!(r.score(&sit(b)), Err(Error::InvalidHand(_))),
            "{b}"
        );
    }
    let dq = rules(&[("ding_que", SwitchValue::Bool(true))]);
    let ok = r#"{"hand": {"concealed": ["1m","2m","3m","4m","5m","6m","7m","8m","9m","1p","1p","2m","2m"], "win_tile": "2m"}}"#;
    assert!(r.score(&sit(ok)).is_ok());
    assert!(dq.score(&sit(ok)).is_err());
}

#[test]
fn conflicting_and_bad_switches() {
    let e = Variant::with_options(
        "sichuan",
        [("huan_san_zhang_direction", SwitchValue::Str("dice".into()))],
    )
    .unwrap_err();
    assert!(e.to_string().contains("conflicts"), "{e}");
    assert!(
        Variant::with_options(
            "sichuan",
            [
                ("huan_san_zhang_direction", SwitchValue::Str("dice".into())),
                ("huan_san_zhang", SwitchValue::Bool(true)),
            ],
        )
        .is_ok()
    );
    assert!(Variant::with_options("sichuan", [("mode", SwitchValue::Str("x".into()))]).is_err());
    assert!(
        Variant::with_options("sichuan", [("cha_hua_zhu", SwitchValue::Str("cap".into()))])
            .is_err()
    );
}

#[test]
fn tian_hu_and_zimo_bonus() {
    let r = rules(&[]);
    let s = sit(
        r#"{"hand": {"concealed": ["1m","1m","1m","1m","2m","3m","4p","5p","6p","7p","8p","9p","5p"], "win_tile": "5p"},
        "situation": {"win_type": "self_draw", "dealer": true, "blessing": "heavenly"}}"#,
    );
    let sc = r.score(&s).unwrap();
    assert_eq!(ids(&sc), vec![("TIAN_HU".into(), 1), ("GEN".into(), 1)]);
    let r2 = rules(&[("tianhu_dihu_count_gen", SwitchValue::Bool(false))]);
    assert_eq!(r2.score(&s).unwrap().fan_total, 6);
    let z = rules(&[("zimo_bonus", SwitchValue::Str("plus_one_base".into()))]);
    assert_eq!(z.score(&s).unwrap().per_payer, 6 * 64 + 6);
    let x = rules(&[("mode", SwitchValue::Str("xueliu".into()))]);
    assert_eq!(
        ids(&x.score(&s).unwrap()),
        vec![("PING_HU".into(), 1), ("GEN".into(), 1)]
    );
}
