//! The worked examples of `shared/rules/erren.md` are tested in `tests/test_erren.py`; these are
//! core-level smoke checks.

use crate::situation::Situation;
use crate::variant::{Rules, Variant};

#[test]
fn example_3_da_san_yuan_is_the_cap() {
    let v = Variant::load("erren").unwrap();
    let Rules::Erren(r) = v.rules() else {
        unreachable!()
    };
    let s = Situation::from_json(
        r#"{"hand": {"concealed": ["5m","5m","1s","2s","3s","C","C","C","F","F"], "win_tile": "F",
        "melds": [{"type": "pon", "tiles": ["P","P","P"]}]}, "situation": {"win_type": "discard", "flowers": 1}}"#,
    )
    .unwrap();
    let sc = r.score(&s).unwrap();
    assert_eq!(sc.capped_value, 13);
    assert_eq!(sc.patterns.len(), 1);
    assert_eq!(sc.patterns[0].id, "DA_SAN_YUAN");
}
