//! Core checks of `shared/rules/wuhan.md` (the worked examples: `tests/test_wuhan.py`).

use super::laizi_of;
use crate::tile::Tile;

#[test]
fn laizi_cycle_skips_hongzhong() {
    let p = |s: &str| Tile::parse(s).unwrap();
    assert_eq!(laizi_of(p("5m"), true).unwrap(), p("6m"));
    assert_eq!(laizi_of(p("9m"), true).unwrap(), p("1m"));
    assert_eq!(laizi_of(p("N"), true).unwrap(), p("F"));
    assert_eq!(laizi_of(p("C"), true).unwrap(), p("F"));
    assert_eq!(laizi_of(p("P"), true).unwrap(), p("E"));
    assert_eq!(laizi_of(p("E"), true).unwrap(), p("S"));
    assert!(laizi_of(p("C"), false).is_err());
}
