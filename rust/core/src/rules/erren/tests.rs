//! The worked examples of `shared/rules/erren.md` are tested in `tests/test_erren.py`; these are
//! core-level smoke checks.

use crate::situation::Situation;
use crate::variant::Variant;

use super::ErrenRules;

fn rules(v: &Variant) -> &ErrenRules {
    &v.rules_as::<super::Erren>().unwrap().rules
}

#[test]
fn example_3_da_san_yuan_is_the_cap() {
    let v = Variant::load("erren").unwrap();
    let r = rules(&v);
    let s = Situation::from_json(
        r#"{"hand": {"concealed": ["5m","5m","1s","2s","3s","C","C","C","F","F"], "win_tile": "F",
        "melds": [{"type": "pon", "tiles": ["P","P","P"]}]}, "situation": {"win_type": "discard", "flowers": 1}}"#,
    )
    .unwrap();
    let sc = r.score(&s).unwrap();
    assert_eq!(sc.total, 13);
    assert_eq!(sc.fans.len(), 1);
    assert_eq!(sc.fans[0].id(), "DA_SAN_YUAN");
}

#[test]
fn option4_additive_without_cap() {
    let v = Variant::with_options(
        "erren",
        [(
            "fan_profile",
            crate::preset::SwitchValue::Str("billee1011_option_4".into()),
        )],
    )
    .unwrap();
    let r = rules(&v);
    // 四步高 32 (不计 三步高, 老少副) + 清一色 16 + 无花牌 4 + 门前清 2 + 平和 2 = 56.
    let s = Situation::from_json(
        r#"{"hand": {"concealed": ["1m","2m","3m","3m","4m","5m","5m","6m","7m","7m","8m","9m","9m"],
        "win_tile": "9m", "melds": []}, "situation": {"win_type": "discard"}}"#,
    )
    .unwrap();
    let sc = r.score(&s).unwrap();
    let ids: Vec<&str> = sc.fans.iter().map(|p| p.id()).collect();
    assert_eq!(
        ids,
        [
            "B4_SI_BU_GAO",
            "B4_QING_YI_SE",
            "B4_WU_HUA_PAI",
            "B4_MEN_QIAN_QING",
            "B4_PING_HE"
        ]
    );
    assert_eq!((sc.raw_total, sc.total), (56, 56));
    // The seed table never sees a B4_ fan.
    let seed = Variant::load("erren").unwrap();
    let r0 = rules(&seed);
    let sc0 = r0.score(&s).unwrap();
    assert!(sc0.fans.iter().all(|p| !p.id().starts_with("B4_")));
    // 筒 / 条 are not in the 72-tile set.
    let bad = Situation::from_json(
        r#"{"hand": {"concealed": ["1p","2p","3p","3m","4m","5m","5m","6m","7m","7m","8m","9m","9m"],
        "win_tile": "9m", "melds": []}, "situation": {"win_type": "discard"}}"#,
    )
    .unwrap();
    assert!(r.score(&bad).is_err());
}
