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

mod flow {
    use super::super::flow::{WuhanCtx, WuhanSeat, claims, ready, turn};
    use crate::game::flow::{SeatState, TEST_CTX as T, test_seat};
    use crate::hand::{Meld, MeldKind};
    use crate::situation::WinType;
    use crate::tile::Tile;
    use crate::variant::Variant;

    fn seat(hand: &str, pung: Option<&str>) -> SeatState {
        let mut s = test_seat(hand);
        if let Some(t) = pung {
            let m = Meld::new(MeldKind::Pung, Tile::parse(t).unwrap(), false, 1);
            s.melds.push((m.unwrap(), None));
        }
        s
    }

    #[test]
    fn pizi_laizi_kongs_claims_and_hongzhong_block() {
        let v = Variant::load("wuhan").unwrap();
        // 癞子 5s (indicator 4s)
        let w = WuhanCtx {
            indicator: Tile::parse("4s").unwrap(),
            haidi: false,
        };
        let p = |s: &str| Tile::parse(s).unwrap();
        let mover = seat("C5s9s5p1m4m7m1p7p2s6sWNF", None);
        let o = turn(
            &v,
            &mover,
            &WuhanSeat::default(),
            0,
            None,
            WinType::SelfDraw,
            &T,
            w,
            true,
        )
        .unwrap();
        assert_eq!(o.pizi_kongs, vec![p("5s"), p("C")]);
        assert!(!o.base.discards.contains(&p("C")) && !o.base.discards.contains(&p("5s")));
        assert!(o.base.analysis.is_empty(), "no analysis while holding 红中");
        let ready_hand = seat("2m2m3p4p6s7s8s1m1m1m", Some("9s"));
        let red_hand = seat("2m2m3p4p6s7s8s1m1mC", Some("9s"));
        let other = seat("1s2s3s4m5m6m2p8p9pSWNF", None);
        let seats = vec![
            other.clone(),
            ready_hand.clone(),
            other.clone(),
            other.clone(),
        ];
        let ex = [WuhanSeat::default(); 4];
        let r = claims(&v, &seats, &ex, 0, p("5p"), WinType::Discard, &T, w).unwrap();
        assert!(r[1].win.is_some());
        // the 癞子 is dead: no claim, no win on it
        let r = claims(&v, &seats, &ex, 0, p("5s"), WinType::Discard, &T, w).unwrap();
        assert!(r.iter().all(|x| x.is_empty()));
        // 海底: no claim at all
        let h = WuhanCtx { haidi: true, ..w };
        let r = claims(&v, &seats, &ex, 0, p("5p"), WinType::Discard, &T, h).unwrap();
        assert!(r.iter().all(|x| x.is_empty()));
        let seats = vec![other.clone(), red_hand.clone(), other.clone(), other];
        let r = claims(&v, &seats, &ex, 0, p("5p"), WinType::Discard, &T, w).unwrap();
        assert!(r[1].win.is_none(), "红中 held: no win");
        assert!(ready(&v, &ready_hand, w).unwrap());
        assert!(!ready(&v, &red_hand, w).unwrap());
        assert!(
            claims(
                &Variant::load("hebei").unwrap(),
                &[],
                &[],
                0,
                p("5p"),
                WinType::Discard,
                &T,
                w
            )
            .is_err()
        );
    }
}
