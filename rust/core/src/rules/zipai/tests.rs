//! Worked examples of zipai.md §13 and the core invariants.

use super::*;
use crate::preset::SwitchValue;
use crate::variant::Variant;

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn rules(id: &str, opts: &[(&str, SwitchValue)]) -> ZipaiRules {
    let v = Variant::with_options(id, opts.iter().cloned()).unwrap();
    rules_of(&v).unwrap().clone()
}

#[allow(clippy::too_many_arguments)]
fn sit(
    concealed: &str,
    win: Option<&str>,
    melds: &[(&str, &str)],
    win_type: WinType,
    seat: u8,
    dealer: u8,
    discarder: Option<u8>,
    flips: &str,
    haidi: bool,
) -> ZipaiSituation {
    ZipaiSituation {
        hand: HandSpec {
            concealed: cards(concealed),
            win: win.map(|w| Card::parse(w).unwrap()),
            melds: melds
                .iter()
                .map(|(t, c)| Meld::new(MeldType::parse(t).unwrap(), cards(c)).unwrap())
                .collect(),
            source: None,
            passed_peng: Vec::new(),
            jokers: 0,
        },
        win_type,
        haidi,
        players: 3,
        seat,
        dealer,
        discarder,
        flips: cards(flips),
        difficulty: None,
    }
}

fn check(s: &ZipaiScore, huxi: i32, duo: i64, xing: i64, amount: i64, net: &[i64]) {
    assert!(s.is_win, "{s:?}");
    assert_eq!(s.huxi, huxi, "huxi {s:?}");
    assert_eq!(s.duo, duo, "duo");
    assert_eq!(s.xing, xing, "xing");
    assert_eq!(s.amount_per_payer, amount, "amount");
    assert_eq!(s.net, net, "net");
    assert_eq!(s.net.iter().sum::<i64>(), 0);
}

#[test]
fn g1_dianpao_three_xing() {
    let r = rules("zipai_guilin", &[]);
    let s = sit(
        "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10",
        Some("x8"),
        &[("chi", "d1d2d3"), ("peng", "x5x5x5")],
        WinType::Discard,
        1,
        0,
        Some(2),
        "d7",
        false,
    );
    let out = score(&r, &s).unwrap();
    check(&out, 16, 3, 3, 6, &[0, 12, -12]);
    let r2 = rules(
        "zipai_guilin",
        &[("discard_payment", SwitchValue::Str("all_pay".into()))],
    );
    check(&score(&r2, &s).unwrap(), 16, 3, 3, 6, &[-6, 12, -6]);
}

#[test]
fn g2_zimo_saochuan_chain() {
    let r = rules("zipai_guilin", &[]);
    let s = sit(
        "x1x1x1x1 d1d2d3 x2x7x10 x4x5x6 d7d8d9 x9",
        Some("x9"),
        &[("sao", "d5d5d5")],
        WinType::SelfDraw,
        0,
        1,
        None,
        "x10 x5 x7",
        false,
    );
    let out = score(&r, &s).unwrap();
    check(&out, 24, 5, 5, 15, &[30, -15, -15]);
    assert_eq!(out.hu_score, 10);
    assert_eq!(out.flips_used.len(), 2);
    let r2 = rules(
        "zipai_guilin",
        &[("xing_in_multiplier", SwitchValue::Bool(true))],
    );
    assert_eq!(score(&r2, &s).unwrap().amount_per_payer, 20);
}

#[test]
fn g3_guo_peng_zero() {
    let r = rules("zipai_guilin", &[]);
    let mut s = sit(
        "d2d7d10 x1x2x3 x8x9x10 x4x4 x5x5",
        Some("x4"),
        &[("kaiduo", "x6x6x6x6"), ("peng", "d3d3d3")],
        WinType::Discard,
        2,
        0,
        None,
        "x3",
        false,
    );
    s.hand.passed_peng = cards("x4");
    check(&score(&r, &s).unwrap(), 18, 3, 3, 6, &[0, -12, 12]);
    s.hand.passed_peng.clear();
    assert_eq!(score(&r, &s).unwrap().huxi, 19);
}

#[test]
fn g4_tianhu() {
    let r = rules("zipai_guilin", &[]);
    let s = sit(
        "d10d10d10d10 x7x7x7 d1d1d1 x1x2x3 x3x4x5 d4d5d6 x9x9",
        None,
        &[],
        WinType::Tianhu,
        0,
        0,
        None,
        "d6",
        false,
    );
    let out = score(&r, &s).unwrap();
    check(&out, 24, 5, 0, 10, &[20, -10, -10]);
    assert_eq!(out.multiplier, 2);
}

#[test]
fn g5_haidi_other_draw() {
    let r = rules("zipai_guilin", &[]);
    let s = sit(
        "x4x4x4 d2d7d10 d3d4d5 x8x8d8 x5x6",
        Some("x7"),
        &[("peng", "d9d9d9"), ("chi", "x2x7x10")],
        WinType::OtherDraw,
        1,
        0,
        None,
        "x1",
        true,
    );
    let out = score(&r, &s).unwrap();
    check(&out, 15, 2, 0, 4, &[-4, 8, -4]);
    assert!(out.xing_cards.is_empty());
}

#[test]
fn g6_chong_duo() {
    let r = rules("zipai_guilin", &[]);
    let s = sit(
        "d2d7d10 d1d2d3 x4x5x6 x7x8x9 x10",
        Some("x10"),
        &[("kaiduo", "x2x2x2x2"), ("saochuan", "d9d9d9d9")],
        WinType::OtherDraw,
        0,
        1,
        None,
        "d8 x3",
        false,
    );
    check(&score(&r, &s).unwrap(), 30, 7, 5, 12, &[24, -12, -12]);
}

#[test]
fn g7_split_matters() {
    let r = rules("zipai_guilin", &[]);
    let s = sit(
        "d1d1d2d2d3d3 x1x2x3x4x5",
        Some("x3"),
        &[("chi", "x2x7x10"), ("chi", "x8x9x10"), ("peng", "x6x6x6")],
        WinType::OtherDraw,
        1,
        0,
        None,
        "d2",
        false,
    );
    check(&score(&r, &s).unwrap(), 19, 4, 2, 6, &[-6, 12, -6]);
}

#[test]
fn g8_dihu_exactly_ten() {
    let r = rules("zipai_guilin", &[]);
    let s = sit(
        "x3x3x3 x5x5x5 x9x9x9 d4d5d6 x6x7x8 d1d1x1 x10x10",
        Some("x10"),
        &[],
        WinType::Dihu,
        1,
        0,
        None,
        "x4",
        false,
    );
    let out = score(&r, &s).unwrap();
    check(&out, 10, 1, 3, 5, &[-5, 10, -5]);
}

#[test]
fn h1_hunan_pao_honghu() {
    let r = rules("zipai_hunan", &[]);
    let s = sit(
        "x2x7x10 d1d2d3 x7x8x9 d4d5d6 x4",
        Some("x4"),
        &[("pao", "d7d7d7d7"), ("chi", "x1x2x3")],
        WinType::OtherDraw,
        1,
        0,
        None,
        "",
        false,
    );
    let out = score(&r, &s).unwrap();
    check(&out, 21, 3, 0, 12, &[-12, 24, -12]);
    assert_eq!(out.fan, 4);
    assert_eq!(out.mingtang[0].name, "红胡");
}

#[test]
fn h2_hunan_ti_on_own_wei() {
    let r = rules("zipai_hunan", &[]);
    let s = sit(
        "x1x2x3 d2d7d10 d1d2d3 x6x7x8 d8d8x8 d5d5",
        Some("x9"),
        &[("wei", "x9x9x9")],
        WinType::SelfDraw,
        0,
        1,
        None,
        "",
        false,
    );
    let out = score(&r, &s).unwrap();
    check(&out, 24, 4, 0, 8, &[16, -8, -8]);
    let r2 = rules("zipai_hunan", &[("zimo", SwitchValue::Str("none".into()))]);
    assert_eq!(score(&r2, &s).unwrap().amount_per_payer, 4);
}

#[test]
fn batch_counts_equals_spec() {
    let r = rules("zipai_guilin", &[]);
    let hand = cards("d10d10d10d10 x7x7x7 d1d1d1 x1x2x3 x3x4x5 d4d5d6 x9x9");
    let c = card::to_counts(&hand).unwrap();
    assert_eq!(best_huxi_counts(&r, &c).unwrap(), Some(24));
}

#[test]
fn chi_with_bi() {
    // G7: B holds x2 x7 x10 x8 x9 and eats x10: the extra x10 must go into x8x9x10.
    let hand = card::to_counts(&cards("x2x7x10x8x9")).unwrap();
    let x10 = Card::parse("x10").unwrap();
    let opts = chi_options(&hand, x10);
    assert!(
        opts.iter()
            .any(|o| o.kind == GroupKind::ErQiShi && o.bi.len() == 1)
    );
    // Without the x8 x9 the leftover x10 cannot be placed: no 吃 via 二七十.
    let hand = card::to_counts(&cards("x2x7x10x4")).unwrap();
    assert!(chi_options(&hand, x10).is_empty());
}

#[test]
fn duo_table() {
    assert_eq!(duo(22, 15, 15, 3), 3);
    assert_eq!(duo(22, 10, 10, 3), 5);
    assert_eq!(duo(22, 15, 15, 5), 2);
    assert_eq!(duo(9, 10, 10, 3), 0);
    assert_eq!(duo(12, 10, 10, 3), 1);
    assert_eq!(duo(13, 10, 10, 3), 2);
}

#[test]
fn typed_errors() {
    use crate::error::Error;
    let r = rules("zipai_guilin", &[]);
    assert!(matches!(parse_cards("q"), Err(Error::InvalidTile { .. })));
    let spec = HandSpec {
        concealed: cards("x1x1x1x1"),
        win: Some(Card::parse("x1").unwrap()),
        ..HandSpec::default()
    };
    assert!(matches!(best_huxi(&r, &spec), Err(Error::InvalidHand(_))));
    let spec = HandSpec {
        concealed: cards("x1x2"),
        ..HandSpec::default()
    };
    assert!(matches!(best_huxi(&r, &spec), Err(Error::InvalidHand(_))));
    assert!(Meld::new(MeldType::Chi, cards("x1x2x4")).is_err());
    assert!(Meld::new(MeldType::SaoChuan, cards("x1x1x1")).is_err());
    assert!(MeldType::parse("gang").is_err());
    assert!(Variant::with_options("zipai_guilin", [("jokers", SwitchValue::Int(5))]).is_err());
    assert!(rules_of(&Variant::load("mcr").unwrap()).is_err());
}

fn hand_spec(concealed: &str, win: Option<&str>, source: WinSource) -> HandSpec {
    let (c, j) = parse_hand_cards(concealed).unwrap();
    HandSpec {
        concealed: c,
        win: win.map(|w| Card::parse(w).unwrap()),
        source: Some(source),
        jokers: j,
        ..HandSpec::default()
    }
}

#[test]
fn joker_completes_a_kan_and_is_reported() {
    let r = rules("zipai_guilin", &[("jokers", SwitchValue::Int(2))]);
    let spec = hand_spec(
        "x1x2x3 d1d2d3 x2x7x10 d2d7d10 x4x5x6 d4d5d6 d8d8 K",
        None,
        WinSource::Deal,
    );
    let d = best_decomposition(&r, &spec).unwrap().unwrap();
    assert_eq!(d.huxi, 24, "{d:?}");
    let kan = d.groups.iter().find(|g| !g.jokers.is_empty()).unwrap();
    assert_eq!(kan.kind, GroupKind::Kan);
    assert_eq!(kan.jokers, cards("d8"));
    // Without the switch a joker is an input error.
    let r0 = rules("zipai_guilin", &[]);
    assert!(matches!(
        best_huxi(&r0, &spec),
        Err(crate::error::Error::InvalidHand(_))
    ));
    // A drawn joker as the winning card (no win card, self-draw source).
    let spec = hand_spec(
        "x1x2x3 d1d2d3 x2x7x10 d2d7d10 x4x5x6 d4d5d6 d8d8 K",
        None,
        WinSource::SelfDraw,
    );
    assert_eq!(best_huxi(&r, &spec).unwrap(), Some(24));
    // Jokers alone form a group: three jokers = the best 3-card group (6 胡息).
    let spec = hand_spec(
        "x1x2x3 d1d2d3 x2x7x10 d2d7d10 x4x5x6 d4d5d6 KK",
        Some("x9"),
        WinSource::Discard,
    );
    let r3 = rules("zipai_guilin", &[("jokers", SwitchValue::Int(3))]);
    assert_eq!(best_huxi(&r3, &spec).unwrap(), Some(18 + 1));
}

#[test]
fn xianggong_is_decided_by_the_core() {
    let ok = hand_spec(
        "x1x2x3 d1d2d3 x2x7x10 d2d7d10 x4x5x6 d4d5d6 d8d8 x9",
        None,
        WinSource::Deal,
    );
    let c = discard_check(&ok, true).unwrap();
    assert!(c.xianggong.is_none());
    assert_eq!(c.discards, cards("x1x2x3x4x5x6x7x9x10 d1d2d3d4d5d6d7d8d10"));
    let kans = hand_spec(
        "x1x1x1 x2x2x2 x3x3x3 x4x4x4 d1d1d1 d2d2d2 d3d3d3",
        None,
        WinSource::Deal,
    );
    let c = discard_check(&kans, true).unwrap();
    assert!(c.discards.is_empty() && c.xianggong.unwrap().contains("no card"));
    let short = hand_spec("x1x2x3 d1d2d3 x2x7x10", None, WinSource::Deal);
    assert!(discard_check(&short, false).unwrap().xianggong.is_none());
    assert!(
        discard_check(&short, true)
            .unwrap()
            .xianggong
            .unwrap()
            .contains("cards")
    );
    let jokers = hand_spec(
        "x1x1x1 x2x2x2 x3x3x3 x4x4x4 d1d1d1 d2d2d2 d3d3 K",
        None,
        WinSource::Deal,
    );
    let c = discard_check(&jokers, true).unwrap();
    assert_eq!(c.discards, cards("d3"));
}

#[test]
fn sanlong_wukan_pays_like_tianhu() {
    let on = rules(
        "zipai_guilin",
        &[("sanlong_wukan", SwitchValue::Bool(true))],
    );
    let mut s = sit(
        "x1x1x1 x2x2x2 x3x3x3 x4x4x4 x5x5x5 x6 x8 d1 d5 d9",
        None,
        &[],
        WinType::Sanlong,
        1,
        0,
        None,
        "",
        false,
    );
    let out = score(&on, &s).unwrap();
    // 5 small 坎 = 15 胡息 → 舵 2, ×2 (paid like 天胡) = 4 from each other player.
    check(&out, 15, 2, 0, 4, &[-4, 8, -4]);
    assert!(score(&rules("zipai_guilin", &[]), &s).is_err());
    s.hand.concealed = cards("x1x1x1 x2x2x2 x3x3x3 x4x4x4 x5x6x7 x6 x8 d1 d5 d9");
    assert!(score(&on, &s).is_err());
    assert!(is_sanlong_wukan(&to_counts("x1x1x1x1 x2x2x2x2 x3x3x3x3")));
}

fn to_counts(s: &str) -> CardCounts {
    card::to_counts(&cards(s)).unwrap()
}

#[test]
fn sui_and_double_xing() {
    let s = sit(
        "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10",
        Some("x8"),
        &[("chi", "d1d2d3"), ("peng", "x5x5x5")],
        WinType::Discard,
        1,
        0,
        Some(2),
        "d7",
        false,
    );
    // 随醒: the winning card x8 itself; B owns two x8 → 醒 2, amount 3 + 2.
    let sui = rules("zipai_guilin", &[("xing", SwitchValue::Str("sui".into()))]);
    let out = score(&sui, &s).unwrap();
    assert_eq!(out.xing_cards, cards("x8"));
    check(&out, 16, 3, 2, 5, &[0, 10, -10]);
    // 双醒: 翻醒 (d7 → d8, 3 copies) counted twice → 醒 6, amount 3 + 6.
    let dbl = rules(
        "zipai_guilin",
        &[("xing", SwitchValue::Str("double".into()))],
    );
    check(&score(&dbl, &s).unwrap(), 16, 3, 6, 9, &[0, 18, -18]);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The allocation-free batch path equals the general path on dealt (天胡) hands, and the
        /// reported split covers exactly the cards with group values adding up.
        #[test]
        fn batch_equals_general(cards_idx in proptest::collection::vec(0u8..20, 2..=23)) {
            let r = rules("zipai_guilin", &[]);
            let mut counts = [0u8; N_CARDS];
            for &i in &cards_idx {
                let c = &mut counts[usize::from(i)];
                *c = (*c + 1).min(4);
            }
            let hand = card::from_counts(&counts);
            let spec = HandSpec {
                concealed: hand.clone(),
                source: Some(WinSource::Deal),
                ..HandSpec::default()
            };
            let fast = best_huxi_counts(&r, &counts).unwrap();
            prop_assert_eq!(fast, best_huxi(&r, &spec).unwrap());
            let d = best_decomposition(&r, &spec).unwrap();
            prop_assert_eq!(fast, d.as_ref().map(|d| d.huxi));
            if let Some(d) = d {
                let mut got: Vec<Card> = d.groups.iter().flat_map(|g| g.cards.iter().copied()).collect();
                got.sort();
                prop_assert_eq!(got, hand);
                prop_assert_eq!(d.huxi, d.groups.iter().map(|g| g.huxi).sum::<i32>());
            }
        }

        /// With jokers, the wildcard search (best 胡息) equals the best of the enumeration of
        /// every joker assignment (the split), for every win source.
        #[test]
        fn joker_wildcard_search_equals_enumeration(
            cards_idx in proptest::collection::vec(0u8..20, 40..=60),
            jokers in 1u8..=3,
            win in 0u8..20,
            source in 0usize..4,
        ) {
            let r = rules("zipai_hunan", &[("jokers", SwitchValue::Int(4))]);
            let source = [WinSource::Discard, WinSource::SelfDraw, WinSource::OtherDraw, WinSource::Deal][source];
            // 20 - jokers concealed cards in random order (cards_idx), at most 3 of a kind
            let mut hand = Vec::new();
            let mut seen = [0u8; N_CARDS];
            for &i in &cards_idx {
                if seen[usize::from(i)] < 3 && hand.len() < 20 - usize::from(jokers) {
                    seen[usize::from(i)] += 1;
                    hand.push(Card::from_index(i).unwrap());
                }
            }
            let spec = HandSpec {
                concealed: hand,
                win: Card::from_index(win),
                source: Some(source),
                jokers,
                ..HandSpec::default()
            };
            let Ok(fast) = best_huxi(&r, &spec) else { return Ok(()); };
            let d = best_decomposition(&r, &spec).unwrap();
            prop_assert_eq!(fast, d.as_ref().map(|d| d.huxi));
            if let Some(d) = d {
                prop_assert_eq!(d.groups.iter().map(|g| g.jokers.len()).sum::<usize>(), usize::from(jokers));
            }
        }
    }
}

#[test]
fn claims_for_flow() {
    let r = rules("zipai_guilin", &[]);
    let hand = HandSpec {
        concealed: cards("d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10 x3x3"),
        melds: vec![Meld::new(MeldType::Peng, cards("x5x5x5")).unwrap()],
        ..HandSpec::default()
    };
    let d8 = Card::parse("d8").unwrap();
    let c = claims(&r, &hand, d8, WinSource::SelfDraw, true, false).unwrap();
    assert!(c.saochuan && c.chi.is_empty());
    let c = claims(&r, &hand, d8, WinSource::Discard, true, false).unwrap();
    assert!(c.kaiduo && !c.peng);
    let x3 = Card::parse("x3").unwrap();
    let c = claims(&r, &hand, x3, WinSource::Discard, true, false).unwrap();
    assert!(c.peng && !c.kaiduo);
    let c = claims(&r, &hand, x3, WinSource::Discard, true, true).unwrap();
    assert!(!c.peng && c.chi.is_empty());
    let x5 = Card::parse("x5").unwrap();
    assert!(
        claims(&r, &hand, x5, WinSource::OtherDraw, false, false)
            .unwrap()
            .kaiduo
    );
    assert!(
        !claims(&r, &hand, x5, WinSource::Discard, false, false)
            .unwrap()
            .kaiduo
    );
    let x8 = Card::parse("x8").unwrap();
    let c = claims(&r, &hand, x8, WinSource::Discard, true, false).unwrap();
    assert!(c.hu.is_none());
    assert!(!c.chi.is_empty());
}

#[test]
fn claims_keep_a_free_card_for_the_discard() {
    let r = rules("zipai_guilin", &[]);
    let x5 = Card::parse("x5").unwrap();
    let spec = |s: &str| HandSpec {
        concealed: cards(s),
        ..HandSpec::default()
    };
    let c = claims(&r, &spec("x5x5"), x5, WinSource::Discard, true, false).unwrap();
    assert!(!c.peng);
    let c = claims(&r, &spec("x5x5 x1"), x5, WinSource::Discard, true, false).unwrap();
    assert!(c.peng);
    let c = claims(&r, &spec("x4x6"), x5, WinSource::Discard, true, false).unwrap();
    assert!(c.chi.is_empty());
    let c = claims(&r, &spec("x4x6 d9"), x5, WinSource::Discard, true, false).unwrap();
    assert!(!c.chi.is_empty());
}
