//! Every case of `shared/cases/dingniu_dev.jsonl`, every worked example D1–D10 of dingniu.md §7,
//! and the invariants over many hands played by the one table engine (`crate::game::sim`) in its
//! checking mode, which runs the game's own checks (`check.rs`) after every move.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;

use super::round::event_action;
use super::settle::{check_order, plain_lines, zhang_lines};
use super::tile::{FULL_SET, N_KINDS, counts_of, pips};
use super::zhang::{Position, check, silan_preventing};
use super::*;
use crate::error::Error;
use crate::game::bots::BotKind as TableBot;
use crate::game::matches::Match;
use crate::game::sim::{HandSummary, SimOptions, check_run, simulate};
use crate::game::table::Compiled;
use crate::preset::SwitchValue;

fn shared_dir() -> PathBuf {
    if let Ok(p) = std::env::var("HUPAI_SHARED") {
        return PathBuf::from(p);
    }
    let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if beside.join("cases/dingniu_dev.jsonl").exists() {
        return beside;
    }
    PathBuf::from("/work/shared")
}

fn cases() -> Vec<Value> {
    let path = shared_dir().join("cases/dingniu_dev.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e}); set HUPAI_SHARED", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn rules() -> DingniuRules {
    DingniuRules::default()
}

fn hand(s: &str) -> Counts {
    counts_of(&parse_hand(s).unwrap()).unwrap()
}

fn hands4(v: &Value) -> [Counts; 4] {
    let a = v.as_array().unwrap();
    [0, 1, 2, 3].map(|i| hand(a[i].as_str().unwrap()))
}

fn ends_of(v: &Value) -> Ends {
    let a = v.as_array().unwrap();
    Ends::new(a[0].as_u64().unwrap() as u8, a[1].as_u64().unwrap() as u8).unwrap()
}

fn ends_json(e: Ends) -> Value {
    serde_json::json!([e.0, e.1])
}

fn i64s(v: &Value) -> [i64; 4] {
    let a = v.as_array().unwrap();
    [0, 1, 2, 3].map(|i| a[i].as_i64().unwrap())
}

fn order_of(v: &Value) -> [u8; 4] {
    let a: Vec<u8> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u8)
        .collect();
    check_order(&a).unwrap()
}

fn placement(v: &Value, ends: Ends) -> Placement {
    let tile = Tile::parse(v["tile"].as_str().unwrap()).unwrap();
    let side = Side::parse(v["side"].as_str().unwrap()).unwrap();
    Placement {
        tile,
        side,
        ends: ends.place(tile, side).expect("fixture placement fits"),
    }
}

/// Play a fixture move list from `hands` (seat 0 = 头牌).
fn play(r: DingniuRules, hands: [Counts; 4], moves: &[&str]) -> Round {
    let mut round = Round::from_hands(r, hands, 0).unwrap();
    for (i, m) in moves.iter().enumerate() {
        let a = round.parse_action(m).unwrap();
        round
            .step(a)
            .unwrap_or_else(|e| panic!("move {} {m}: {e}", i + 1));
    }
    round
}

fn zhang_events(r: &Round) -> Vec<(u8, ZhangKind, bool, bool, bool)> {
    r.events()
        .iter()
        .filter_map(|e| match e {
            Event::Zhang {
                seat,
                kind,
                deliberate,
                toupai_jingshou,
                counted,
                ..
            } => Some((*seat, *kind, *deliberate, *toupai_jingshou, *counted)),
            _ => None,
        })
        .collect()
}

fn run_case(c: &Value) {
    let id = c["id"].as_str().unwrap();
    let inp = &c["input"];
    let exp = &c["expected"];
    let r = rules();
    match c["kind"].as_str().unwrap() {
        "tile_set" => {
            assert_eq!(
                FULL_SET.iter().map(|&x| u32::from(x)).sum::<u32>(),
                exp["count"].as_u64().unwrap() as u32
            );
            for t in Tile::ALL {
                assert_eq!(
                    u64::from(t.copies()),
                    exp["kinds"][t.code()].as_u64().unwrap(),
                    "{id} {t}"
                );
                assert_eq!(
                    t.name(),
                    exp["names"][t.code()].as_str().unwrap(),
                    "{id} {t}"
                );
            }
            assert_eq!(exp["kinds"].as_object().unwrap().len(), N_KINDS);
            assert_eq!(
                u64::from(pips(&FULL_SET)),
                exp["total_pips"].as_u64().unwrap()
            );
            for p in 1..=6u8 {
                let with: u64 = Tile::ALL
                    .iter()
                    .filter(|t| t.has_pip(p))
                    .map(|t| u64::from(t.copies()))
                    .sum();
                let nd: u64 = Tile::ALL
                    .iter()
                    .filter(|t| t.has_pip(p) && !t.is_double())
                    .map(|t| u64::from(t.copies()))
                    .sum();
                assert_eq!(
                    with,
                    exp["tiles_with_pip"][p.to_string()].as_u64().unwrap(),
                    "{id} pip {p}"
                );
                assert_eq!(
                    nd,
                    exp["non_doubles_with_pip"][p.to_string()].as_u64().unwrap(),
                    "{id} pip {p}"
                );
            }
            for rm in exp["removed"].as_array().unwrap() {
                let e = Tile::parse(rm.as_str().unwrap()).unwrap_err();
                assert!(matches!(e, Error::InvalidTile { .. }), "{id} {rm}");
            }
        }
        "parse_hand" => {
            let res = parse_hand(inp["hand"].as_str().unwrap());
            if exp["valid"].as_bool().unwrap() {
                let tiles = res.unwrap();
                let codes: Vec<&str> = tiles.iter().map(|t| t.code()).collect();
                let want: Vec<&str> = exp["tiles"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_str().unwrap())
                    .collect();
                assert_eq!(codes, want, "{id}");
                let p: u64 = tiles.iter().map(|t| u64::from(t.pips())).sum();
                assert_eq!(p, exp["pips"].as_u64().unwrap(), "{id}");
            } else {
                let e = res.unwrap_err();
                match exp["reason"].as_str().unwrap() {
                    "not_in_set" => assert!(
                        matches!(&e, Error::InvalidTile { reason, .. } if reason.contains("not in the 24-tile set")),
                        "{id} {e}"
                    ),
                    "too_many_copies" => assert!(
                        matches!(&e, Error::InvalidHand(m) if m.contains("too many copies")),
                        "{id} {e}"
                    ),
                    other => panic!("{id}: unknown reason {other}"),
                }
            }
        }
        "place" => {
            let e = ends_of(&inp["ends"]);
            let t = Tile::parse(inp["tile"].as_str().unwrap()).unwrap();
            let s = Side::parse(inp["side"].as_str().unwrap()).unwrap();
            let got = e.place(t, s);
            assert_eq!(got.is_some(), exp["legal"].as_bool().unwrap(), "{id}");
            assert_eq!(got.map_or(Value::Null, ends_json), exp["ends"], "{id}");
        }
        "legal_placements" => {
            let e = ends_of(&inp["ends"]);
            let h = hand(inp["hand"].as_str().unwrap());
            let got: Vec<Value> = placements(e, &h)
                .iter()
                .map(|p| serde_json::json!({"tile": p.tile.code(), "side": p.side.letter(), "ends": ends_json(p.ends)}))
                .collect();
            assert_eq!(Value::Array(got), exp["placements"], "{id}");
            let may_kou = turn_actions(e, &h)
                .as_slice()
                .iter()
                .all(|a| matches!(a, Action::Kou(_)));
            assert_eq!(may_kou, exp["may_kou"].as_bool().unwrap(), "{id}");
        }
        "opening" => {
            let hs = hands4(&inp["hands"]);
            let toupai = inp["toupai"].as_u64().unwrap() as u8;
            let a = Action::parse(inp["tile"].as_str().unwrap()).unwrap();
            let allowed = openings(&r, &hs, toupai).contains(&a);
            assert_eq!(allowed, exp["allowed"].as_bool().unwrap(), "{id}");
        }
        "settle" => {
            let pts = i64s(&inp["kou_points"]);
            let pl = rank(&pts, &order_of(&inp["play_order"]));
            assert_eq!(
                u64::from(pl.winner),
                exp["winner"].as_u64().unwrap(),
                "{id}"
            );
            assert_eq!(
                u64::from(pl.da_zhuang),
                exp["da_zhuang"].as_u64().unwrap(),
                "{id}"
            );
            assert_eq!(
                u64::from(pl.er_zhuang),
                exp["er_zhuang"].as_u64().unwrap(),
                "{id}"
            );
            assert_eq!(
                u64::from(pl.xiao_zhuang),
                exp["xiao_zhuang"].as_u64().unwrap(),
                "{id}"
            );
            assert_eq!(
                settle::net(&plain_lines(&r, &pl)),
                i64s(&exp["pay"]),
                "{id}"
            );
        }
        "zhang_settle" => {
            let pl = rank(&i64s(&inp["counts"]), &order_of(&inp["play_order"]));
            let by = inp["by"].as_u64().unwrap() as u8;
            let (o, lines) = zhang_lines(&r, &pl, by, None);
            assert_eq!(
                o == ZhangOutcome::Success,
                exp["success"].as_bool().unwrap(),
                "{id}"
            );
            assert_eq!(settle::net(&lines), i64s(&exp["pay"]), "{id}");
        }
        "zhang_detect" => {
            let ends = ends_of(&inp["ends"]);
            let hands = hands4(&inp["hands"]);
            let seat = inp["seat"].as_u64().unwrap() as u8;
            let mut kou_count = [0u8; 4];
            if let Some(k) = inp.get("kou").and_then(Value::as_object) {
                for (s, v) in k {
                    kou_count[s.parse::<usize>().unwrap()] = v.as_array().unwrap().len() as u8;
                }
            }
            let pos = Position {
                ends,
                hands,
                kou_count,
                toupai: inp.get("toupai").and_then(Value::as_u64).unwrap_or(0) as u8,
            };
            let p = placement(&inp["place"], ends);
            let c = check(&r, &pos, seat, &p);
            assert_eq!(
                c.kind.map_or(Value::Null, |k| k.zh().into()),
                exp["zhang"],
                "{id}"
            );
            if c.kind.is_some() {
                assert_eq!(Value::Bool(c.deliberate), exp["deliberate"], "{id}");
            } else {
                assert!(exp["deliberate"].is_null(), "{id}");
            }
            if let Some(e) = exp.get("ends") {
                assert_eq!(ends_json(p.ends), *e, "{id}");
            }
            if let Some(s) = exp.get("smothered") {
                let first = c.smothered.iter().next().unwrap();
                assert_eq!(first.tile.code(), s.as_str().unwrap(), "{id}");
                assert_eq!(
                    u64::from(first.holder),
                    exp["holder"].as_u64().unwrap(),
                    "{id}"
                );
            }
            if let Some(j) = exp.get("toupai_jingshou") {
                assert_eq!(Value::Bool(c.toupai_jingshou), *j, "{id}");
            }
            if let Some(s) = exp.get("suanzhang") {
                assert_eq!(Value::Bool(c.counted), *s, "{id}");
            } else {
                assert_eq!(c.counted, c.kind.is_some() && c.deliberate, "{id}");
            }
        }
        "silan" => {
            let ends = ends_of(&inp["ends"]);
            let pos = Position {
                ends,
                hands: hands4(&inp["hands"]),
                kou_count: [0; 4],
                toupai: 0,
            };
            let y = inp["seat"].as_u64().unwrap() as u8;
            let x = inp["next_seat"].as_u64().unwrap() as u8;
            let played = placement(&inp["played"], ends);
            let prev = silan_preventing(&r, &pos, y, x);
            let got: Vec<Value> = prev
                .iter()
                .map(|p| serde_json::json!({"tile": p.tile.code(), "side": p.side.letter(), "ends": ends_json(p.ends)}))
                .collect();
            assert_eq!(Value::Array(got), exp["preventing_placements"], "{id}");
            let liable = !prev.is_empty()
                && !prev
                    .iter()
                    .any(|p| p.tile == played.tile && p.side == played.side);
            assert_eq!(
                Value::Bool(liable),
                exp["silan_if_hongzhang_succeeds"],
                "{id}"
            );
        }
        "play_hand" => {
            let hands = hands4(&inp["hands"]);
            let order = order_of(&inp["play_order"]);
            let moves: Vec<&str> = inp["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            let round = play(r, hands, &moves);
            assert_eq!(round.order(), order, "{id}");
            assert!(round.is_over(), "{id}: not over");
            let o = round.outcome().unwrap();
            assert_eq!(o.pay, i64s(&exp["pay"]), "{id}");
            match exp["end"].as_str().unwrap() {
                "played_out" => {
                    assert_eq!(o.reason, EndReason::PlayedOut, "{id}");
                    assert_eq!(o.points, i64s(&exp["kou_points"]), "{id}");
                    assert_eq!(
                        u64::from(o.places.winner),
                        exp["winner"].as_u64().unwrap(),
                        "{id}"
                    );
                }
                "算帐" => {
                    assert_eq!(o.reason, EndReason::Zhang, "{id}");
                    assert_eq!(o.points, i64s(&exp["counts"]), "{id}");
                    let (k, by, oc) = o.zhang.unwrap();
                    assert_eq!(k.zh(), exp["zhang"].as_str().unwrap(), "{id}");
                    assert_eq!(u64::from(by), exp["by"].as_u64().unwrap(), "{id}");
                    assert_eq!(
                        oc != ZhangOutcome::Baozhuang,
                        exp["success"].as_bool().unwrap(),
                        "{id}"
                    );
                    let silan = exp.get("silan_by").and_then(Value::as_u64).map(|s| s as u8);
                    assert_eq!(o.silan_by(), silan, "{id}");
                }
                other => panic!("{id}: unknown end {other}"),
            }
            // The log replays to the identical hand.
            let again = replay(r, &round.events_json()).unwrap();
            assert_eq!(again.events(), round.events(), "{id}");
        }
        other => panic!("{id}: unknown kind {other}"),
    }
}

#[test]
fn every_dev_case() {
    let cs = cases();
    assert_eq!(cs.len(), 45, "dingniu_dev.jsonl has 45 cases");
    for c in &cs {
        run_case(c);
    }
}

// ---- worked examples of dingniu.md §7 ----

#[test]
fn d1_placements() {
    let p = placements(Ends(4, 6), &hand("66 44 16 13 22 55"));
    let got: Vec<String> = p.iter().map(|p| format!("{p}{}", p.ends)).collect();
    assert_eq!(got, ["66:R[4|6]", "44:L[4|6]", "16:R[4|1]"]);
    let p = placements(Ends(1, 6), &hand("16 11 22"));
    let got: Vec<String> = p.iter().map(|p| format!("{p}{}", p.ends)).collect();
    assert_eq!(got, ["11:L[1|6]", "16:L[6|6]", "16:R[1|1]"]);
    let a = turn_actions(Ends(2, 3), &hand("55 44 11"));
    let got: Vec<String> = a.as_slice().iter().map(ToString::to_string).collect();
    assert_eq!(got, ["kou 55", "kou 44", "kou 11"]);
}

fn opening_allowed(hs: [&str; 4], a: &str) -> bool {
    let hands = [0, 1, 2, 3].map(|i| hand(hs[i]));
    openings(&rules(), &hands, 0).contains(&Action::parse(a).unwrap())
}

#[test]
fn d2_openings() {
    let h = [
        "13 13 36 33 66 55",
        "66 44 22 56 46 16",
        "55 44 22 11 56 15",
        "33 11 46 16 15 26",
    ];
    assert!(!opening_allowed(h, "33"));
    assert!(opening_allowed(h, "13"));
    let h = [
        "46 46 44 11 26 33",
        "66 55 44 22 56 16",
        "66 55 33 22 11 15",
        "56 16 15 13 13 36",
    ];
    assert!(!opening_allowed(h, "44"));
    assert!(opening_allowed(h, "46"));
    let h = [
        "26 22 66 55 13 15",
        "66 55 44 22 56 46",
        "44 33 11 56 46 16",
        "33 11 16 15 13 36",
    ];
    assert!(!opening_allowed(h, "22"));
    assert!(opening_allowed(h, "26"));
    let h = [
        "44 44 66 16 13 56",
        "66 55 33 22 46 15",
        "55 33 22 11 56 46",
        "11 16 15 13 36 26",
    ];
    assert!(!opening_allowed(h, "44"));
    assert!(opening_allowed(h, "44+44"));
    // The refusal explains H2 and the state is unchanged.
    let hands = [0, 1, 2, 3].map(|i| hand(h[i]));
    let mut r = Round::from_hands(rules(), hands, 0).unwrap();
    let e = r.step(Action::Open(Tile::HONG_BA)).unwrap_err();
    assert!(e.to_string().contains("44+44"), "{e}");
    assert_eq!(r.events().len(), 1);
    r.step(Action::OpenPair(Tile::HONG_BA)).unwrap();
    assert_eq!(r.ends(), Some(Ends(4, 4)));
    assert_eq!(count_hand(&r, 0), 4);
    // Switches: no pair opening → the single 44 is allowed (others hold 红十).
    let none = DingniuRules::load(
        "dingniu",
        [("double_pair_opening", SwitchValue::Str("none".into()))],
    )
    .unwrap();
    assert!(openings(&none, &hands, 0).contains(&Action::Open(Tile::HONG_BA)));
    assert!(!openings(&none, &hands, 0).contains(&Action::OpenPair(Tile::HONG_BA)));
    // H1 off: 33 may open in the first example.
    let off = DingniuRules::load("dingniu", [("opening_h1", SwitchValue::Bool(false))]).unwrap();
    let h = [
        "13 13 36 33 66 55",
        "66 44 22 56 46 16",
        "55 44 22 11 56 15",
        "33 11 46 16 15 26",
    ];
    let hands = [0, 1, 2, 3].map(|i| hand(h[i]));
    assert!(openings(&off, &hands, 0).contains(&Action::Open(Tile::parse("33").unwrap())));
}

fn count_hand(r: &Round, s: u8) -> u32 {
    tile::count(r.hand(s))
}

#[test]
fn d3_ties() {
    let pl = rank(&[20, 10, 22, 10], &[0, 1, 2, 3]);
    assert_eq!(
        (pl.winner, pl.da_zhuang, pl.er_zhuang, pl.xiao_zhuang),
        (1, 2, 0, 3)
    );
    assert_eq!(settle::net(&plain_lines(&rules(), &pl)), [-2, 6, -3, -1]);
}

const D4: [&str; 4] = [
    "66 11 11 46 13 26",
    "44 56 16 15 13 36",
    "66 55 33 22 16 15",
    "55 44 33 22 56 46",
];

#[test]
fn d4_forced_blocks_are_not_zhang() {
    let moves = [
        "46", "16:R", "16:R", "56:R", "kou 11", "56:R", "66:R", "44:L", "26:R", "44:L", "22:R",
        "22:R", "kou 66", "kou 13", "kou 33", "46:L", "kou 13", "36:L", "kou 15", "33:L", "kou 11",
        "kou 15", "kou 55", "kou 55",
    ];
    let r = play(rules(), D4.map(hand), &moves);
    // Move 18: 二三帐 shape, forced (死砸); move 20 (33 on the block) is no new 帐.
    assert_eq!(
        zhang_events(&r),
        vec![(1, ZhangKind::ErSan, false, false, false)]
    );
    let o = r.outcome().unwrap();
    assert_eq!(o.points, [20, 10, 22, 10]);
    assert_eq!(o.pay, [-2, 6, -3, -1]);
    // With forced_block_exempt = smother_only the forced 二三帐 counts: 二牌 ends the hand at move 18.
    let lit = DingniuRules::load(
        "dingniu",
        [(
            "forced_block_exempt",
            SwitchValue::Str("smother_only".into()),
        )],
    )
    .unwrap();
    let r = play(lit, D4.map(hand), &moves[..18]);
    let o = r.outcome().unwrap();
    assert_eq!(o.zhang.map(|z| (z.0, z.1)), Some((ZhangKind::ErSan, 1)));
    assert!(r.is_over());
    // suanzhang off: plain block game, no 帐 events.
    let off =
        DingniuRules::load("dingniu", [("suanzhang", SwitchValue::Str("off".into()))]).unwrap();
    let r = play(off, D4.map(hand), &moves);
    assert!(zhang_events(&r).is_empty());
    assert_eq!(r.outcome().unwrap().pay, [-2, 6, -3, -1]);
}

#[test]
fn d5_hongzhang_fails_baozhuang() {
    let h = [
        "44 11 56 16 13 36",
        "66 55 55 22 56 26",
        "44 33 11 46 15 13",
        "66 33 22 46 16 15",
    ];
    let r = play(rules(), h.map(hand), &["44", "kou 55", "46:L", "46:L"]);
    let o = r.outcome().unwrap();
    assert_eq!(o.points, [33, 55, 26, 35]);
    assert_eq!(o.pay, [0, 0, 12, -12]);
    assert_eq!(o.zhang, Some((ZhangKind::Hong, 3, ZhangOutcome::Baozhuang)));
    assert_eq!(
        zhang_events(&r),
        vec![(3, ZhangKind::Hong, true, false, true)]
    );
}

const D6: [&str; 4] = [
    "66 33 11 46 15 26",
    "44 22 56 56 46 16",
    "55 55 33 13 13 36",
    "66 44 22 11 16 15",
];
const D6_MOVES: [&str; 9] = [
    "66", "46:L", "36:R", "44:L", "33:R", "44:L", "13:R", "16:R", "46:R",
];

#[test]
fn d6_hongzhang_with_silan() {
    let r = play(rules(), D6.map(hand), &D6_MOVES);
    let o = r.outcome().unwrap();
    assert_eq!(o.points, [16, 33, 30, 24]);
    assert_eq!(o.pay, [12, 0, 0, -12]);
    assert_eq!(o.silan_by(), Some(3));
    let no_silan = DingniuRules::load("dingniu", [("silan", SwitchValue::Bool(false))]).unwrap();
    let r = play(no_silan, D6.map(hand), &D6_MOVES);
    assert_eq!(r.outcome().unwrap().pay, [12, -6, -4, -2]);
    let shares = DingniuRules::load(
        "dingniu",
        [("silan_payment", SwitchValue::Str("shares".into()))],
    )
    .unwrap();
    let r = play(shares, D6.map(hand), &D6_MOVES);
    assert_eq!(r.outcome().unwrap().pay, [12, 0, 0, -12]);
    // The ledger view: one PENALTY event, zero-sum.
    let r = play(rules(), D6.map(hand), &D6_MOVES);
    let l = r
        .ledger(["a", "b", "c", "d"].map(String::from).to_vec())
        .unwrap();
    assert_eq!(l.events().len(), 1);
    assert_eq!(l.events()[0].kind, "PENALTY");
    assert_eq!(
        l.balances().iter().map(|b| b.1).collect::<Vec<_>>(),
        [12, 0, 0, -12]
    );
}

#[test]
fn d7_zahong_succeeds() {
    let h = [
        "66 22 22 11 16 26",
        "66 56 56 15 13 36",
        "55 44 33 46 16 15",
        "55 44 33 11 46 13",
    ];
    let r = play(
        rules(),
        h.map(hand),
        &["11", "13:L", "15:R", "13:L", "16:L", "15:R", "46:L", "46:L"],
    );
    let o = r.outcome().unwrap();
    assert_eq!(o.points, [28, 43, 31, 26]);
    assert_eq!(o.pay, [-2, -6, -4, 12]);
    assert_eq!(o.zhang, Some((ZhangKind::ZaHong, 3, ZhangOutcome::Success)));
}

#[test]
fn d8_menwu_fails() {
    let h = [
        "44 22 16 16 15 36",
        "66 11 56 46 46 15",
        "55 55 22 13 13 26",
        "66 44 33 33 11 56",
    ];
    let r = play(
        rules(),
        h.map(hand),
        &["15", "56:R", "13:L", "56:R", "36:L", "15:R"],
    );
    let o = r.outcome().unwrap();
    assert_eq!(
        o.zhang,
        Some((ZhangKind::MenWu, 1, ZhangOutcome::Baozhuang))
    );
    assert_eq!(o.points, [26, 34, 36, 34]);
    assert_eq!(o.pay, [12, -12, 0, 0]);
}

#[test]
fn d9_ersan_fails() {
    let h = [
        "66 33 33 11 46 16",
        "55 44 11 13 13 36",
        "55 44 22 15 15 26",
        "66 22 56 56 46 16",
    ];
    let moves = [
        "66", "36:L", "26:R", "22:R", "33:L", "13:L", "15:L", "56:L", "16:L", "13:L",
    ];
    let r = play(rules(), h.map(hand), &moves);
    let o = r.outcome().unwrap();
    assert_eq!(
        o.zhang,
        Some((ZhangKind::ErSan, 1, ZhangOutcome::Baozhuang))
    );
    assert_eq!(o.points, [18, 20, 28, 40]);
    assert_eq!(o.pay, [12, -12, 0, 0]);
}

#[test]
fn d10_toupai_jingshou() {
    let h = [
        "55 56 56 46 15 15",
        "33 22 46 16 13 36",
        "44 44 33 11 16 26",
        "66 66 55 22 11 13",
    ];
    let moves = [
        "56", "16:R", "11:R", "55:L", "15:R", "kou 22", "kou 26", "kou 22", "55:L", "kou 36",
        "kou 33", "kou 66", "56:L", "46:L", "44:L", "kou 66", "46:L", "kou 13", "16:L", "11:L",
        "15:R", "kou 33", "kou 44", "13:L",
    ];
    let r = play(rules(), h.map(hand), &moves);
    let z = zhang_events(&r);
    assert_eq!(
        z,
        vec![
            (0, ZhangKind::Wu, true, true, false),
            (0, ZhangKind::ZaHong, true, true, false)
        ]
    );
    let o = r.outcome().unwrap();
    assert_eq!(o.points, [0, 23, 22, 28]);
    assert_eq!(o.pay, [6, -2, -1, -3]);
}

// ---- engine behaviour ----

#[test]
fn notation_and_errors() {
    assert_eq!(Tile::parse("62").unwrap().code(), "26");
    assert_eq!(Tile::parse("虎头").unwrap().code(), "56");
    for bad in ["12", "45", "07", "x", "666", ""] {
        assert!(Tile::parse(bad).is_err(), "{bad}");
    }
    assert!(matches!(parse_hand("26 62"), Err(Error::InvalidHand(_))));
    assert!(matches!(parse_hand("44 44 44"), Err(Error::InvalidHand(_))));
    for a in ["46", "44+44", "16:R", "kou 11", "扣11"] {
        let x = Action::parse(a).unwrap();
        assert_eq!(Action::from_id(x.id()), Some(x));
    }
    assert!(Action::parse("44+46").is_err());
    assert!(Action::parse("16:X").is_err());
    for id in 0..N_ACTION_IDS as u8 {
        if let Some(a) = Action::from_id(id) {
            assert_eq!(a.id(), id);
        }
    }
    assert!(Action::from_id(58).is_none());
    assert!(Ends::new(0, 3).is_err());
    assert!(DingniuRules::load("dingniu", [("nope", SwitchValue::Bool(true))]).is_err());
    assert!(DingniuRules::load("dingniu", [("silan", SwitchValue::Int(3))]).is_err());
    assert!(DingniuRules::load("mcr", Vec::<(String, SwitchValue)>::new()).is_err());
}

#[test]
fn illegal_moves_leave_the_state_unchanged() {
    let mut r = Round::from_hands(rules(), D4.map(hand), 0).unwrap();
    r.step(Action::Open(Tile::parse("46").unwrap())).unwrap();
    let before = r.clone();
    for bad in ["kou 44", "13:L", "46", "66:L", "44+44", "11:L", "12"] {
        let a = r.parse_action(bad).and_then(|a| r.step(a).map(|_| ()));
        assert!(a.is_err(), "{bad}");
        assert_eq!(r.events(), before.events());
        assert_eq!(r.hands(), before.hands());
    }
    // 二牌 holds 16, fitting only the 6 end: the bare tile is read as 16:R.
    assert_eq!(
        r.parse_action("16").unwrap(),
        Action::Lay(Tile::parse("16").unwrap(), Side::R)
    );
    assert!(
        Round::from_hands(rules(), [hand("66"), hand("55"), hand("44"), hand("33")], 0).is_err()
    );
}

#[test]
fn deal_is_deterministic_and_complete() {
    let a = Round::new(rules(), 42, Carry::default()).unwrap();
    let b = Round::new(rules(), 42, Carry::default()).unwrap();
    assert_eq!(a.events(), b.events());
    let mut total = [0u8; N_KINDS];
    for s in 0..4u8 {
        assert_eq!(tile::count(a.hand(s)), 6);
        for (i, x) in total.iter_mut().enumerate() {
            *x += a.hand(s)[i];
        }
    }
    assert_eq!(total, FULL_SET);
    let c = Round::new(rules(), 43, Carry::default()).unwrap();
    assert_ne!(a.hands(), c.hands());
    // The dice from the previous 大庄 choose the 头牌.
    let d = Round::new(
        rules(),
        7,
        Carry {
            toupai: None,
            prev_winner: Some(1),
            prev_da_zhuang: Some(2),
        },
    )
    .unwrap();
    let Event::Deal {
        dice: Some([d1, d2]),
        toupai,
        ..
    } = d.events()[0]
    else {
        panic!()
    };
    assert_eq!(toupai, (2 + d1 + d2 - 1) % 4);
    let e = Round::new(
        rules(),
        7,
        Carry {
            toupai: Some(3),
            ..Carry::default()
        },
    )
    .unwrap();
    assert_eq!(e.toupai(), 3);
    assert_eq!(e.to_act(), Some(3));
}

#[test]
fn replay_rejects_tampered_logs() {
    let st = check_run(&table_of(&[]), &[TableBot::Greedy; 4], 5, 1, 1, 1).unwrap();
    assert_eq!(st.hands, 1);
    let mut r = Round::new(rules(), 11, Carry::default()).unwrap();
    let mut rng = rng::Rng::new(1);
    while let Some(s) = r.to_act() {
        let a = Bot::Random.act(&r.observe(s), &mut rng).unwrap();
        r.step(a).unwrap();
    }
    let log = r.events_json();
    assert!(replay(rules(), &log).is_ok());
    let mut bad = log.clone();
    bad[1]["tile"] = Value::String("11".into());
    assert!(replay(rules(), &bad).is_err());
    let mut bad = log.clone();
    let last = bad.len() - 1;
    bad[last]["pay"] = serde_json::json!([0, 0, 0, 0]);
    assert!(replay(rules(), &bad).is_err());
    assert!(replay(rules(), &log[..3]).is_ok_and(|r| !r.is_over()));
    // Cut before the end record: the last move reproduces an end the log does not have.
    assert!(replay(rules(), &log[..log.len() - 1]).is_err());
    assert!(replay(rules(), &[]).is_err());
    assert!(event_action(&serde_json::json!({"type": "fly"})).is_err());
}

fn table_of(sw: &[(&str, SwitchValue)]) -> Compiled {
    let v = crate::Variant::with_options("dingniu", sw.iter().map(|(k, v)| (*k, v.clone())));
    Compiled::new(Arc::new(v.unwrap())).unwrap()
}

/// The checking mode over matches of `per` hands, every 10th hand also replayed from its JSON
/// log, each hand's result record kept.
fn checked(per: u32) -> SimOptions {
    SimOptions {
        check: true,
        json_replay_every: 10,
        keep_results: true,
        hands_per_match: per,
        ..SimOptions::default()
    }
}

/// What a run's result records add up to (as `hupai.dingniu.summary` tallies them).
#[derive(Debug, Default, PartialEq, Eq)]
struct Totals {
    rounds: u64,
    played_out: u64,
    zhang_success: u64,
    baozhuang: u64,
    silan: u64,
    forced: u64,
    toupai_jingshou: u64,
    pair_openings: u64,
    net: [i64; 4],
}

fn totals(hands: &[HandSummary]) -> Totals {
    let mut t = Totals::default();
    for h in hands {
        let o = h.result.as_ref().expect("keep_results");
        t.rounds += 1;
        t.played_out += u64::from(o["reason"] == "played_out");
        t.zhang_success += u64::from(o["success"] == true && o["silan_by"].is_null());
        t.baozhuang += u64::from(o["baozhuang"] == true);
        t.silan += u64::from(!o["silan_by"].is_null());
        let n = |k: &str| o["counts"][k].as_u64().unwrap();
        t.forced += n("forced");
        t.toupai_jingshou += n("toupai_jingshou");
        t.pair_openings += n("pair_openings");
        for s in 0..4 {
            t.net[s] += h.balances[s];
            assert_eq!(h.balances[s], o["pay"][s].as_i64().unwrap());
        }
    }
    t
}

#[test]
fn simulated_invariants_50k_hands() {
    // 50,001 hands at the table in its checking mode: after every move the 24 tiles, the legal
    // list against the naive one, after every hand zero-sum payments and ledger, the carry, the
    // game's own replay and the table's (every 10th hand also from JSON); greedy and random bots,
    // four hands per match (the carry: the previous 大庄's dice choose the 头牌).
    let c = table_of(&[]);
    let mut total = Totals::default();
    for (bots, seed) in [
        ([TableBot::Greedy; 4], 1i128),
        ([TableBot::Random; 4], 2),
        (
            [
                TableBot::Greedy,
                TableBot::Random,
                TableBot::Greedy,
                TableBot::Random,
            ],
            3,
        ),
    ] {
        let hands = simulate(&c, &bots, seed, 0, 50_000 / 3 + 1, 2, &checked(4)).unwrap();
        let st = totals(&hands);
        assert_eq!(st.net.iter().sum::<i64>(), 0);
        assert_eq!(
            st.played_out + st.zhang_success + st.baozhuang + st.silan,
            st.rounds
        );
        total.rounds += st.rounds;
        total.zhang_success += st.zhang_success;
        total.baozhuang += st.baozhuang;
        total.silan += st.silan;
        total.forced += st.forced;
        total.toupai_jingshou += st.toupai_jingshou;
        total.played_out += st.played_out;
        total.pair_openings += st.pair_openings;
    }
    assert!(total.rounds >= 50_000);
    // Every ending and exception occurs.
    for (what, n) in [
        ("played out", total.played_out),
        ("算帐 success", total.zhang_success),
        ("包庄", total.baozhuang),
        ("死拦红帐", total.silan),
        ("死砸", total.forced),
        ("头牌净手", total.toupai_jingshou),
        ("44+44", total.pair_openings),
    ] {
        assert!(n > 0, "{what} never happened in {} hands", total.rounds);
    }
}

#[test]
fn simulation_is_deterministic_and_switches_run() {
    let bots = [
        TableBot::Greedy,
        TableBot::Random,
        TableBot::Greedy,
        TableBot::Random,
    ];
    let c = table_of(&[]);
    let a = totals(&simulate(&c, &bots, 9, 0, 2_000, 1, &checked(3)).unwrap());
    let b = totals(&simulate(&c, &bots, 9, 0, 2_000, 2, &checked(3)).unwrap());
    assert_eq!(a, b, "the thread count changes nothing");
    let d = totals(&simulate(&c, &bots, 10, 0, 2_000, 2, &checked(3)).unwrap());
    assert_ne!(a, d, "another seed, other hands");
    for (k, v) in [
        (
            "double_pair_opening",
            SwitchValue::Str("all_doubles".into()),
        ),
        ("double_pair_opening", SwitchValue::Str("none".into())),
        ("suanzhang", SwitchValue::Str("off".into())),
        ("smother_tiles", SwitchValue::Str("any".into())),
        ("suanzhang_doubles_laid", SwitchValue::Bool(true)),
        (
            "forced_block_exempt",
            SwitchValue::Str("smother_only".into()),
        ),
        ("silan", SwitchValue::Bool(false)),
        ("silan_payment", SwitchValue::Str("shares".into())),
        ("opening_h1", SwitchValue::Bool(false)),
    ] {
        let c = table_of(&[(k, v.clone())]);
        let st = totals(&simulate(&c, &bots, 9, 0, 2_000, 2, &checked(3)).unwrap());
        assert_eq!(st.rounds, 2_000, "{k}={v}");
        if k == "suanzhang" {
            assert_eq!(st.played_out, 2_000);
        }
        if k == "silan" {
            assert_eq!(st.silan, 0);
        }
        if k == "double_pair_opening" && v == SwitchValue::Str("none".into()) {
            assert_eq!(st.pair_openings, 0);
        }
    }
}

/// A match at the table: each hand is dealt with the carry of the one before (the previous
/// 大庄's dice choose the 头牌), and the scores add up to zero.
#[test]
fn the_carry_runs_across_a_match_at_the_table() {
    use crate::game::table::Table;
    let c = table_of(&[]);
    for seed in [1i128, 2, 3] {
        let mut m = Match::new(c.clone(), seed);
        let mut bots = crate::game::bots::Bot::seats(&[TableBot::Greedy; 4], seed as u64);
        let mut prev: Option<Carry> = None;
        let mut buf = Vec::new();
        for _ in 0..12 {
            let mut t = m.next_table().unwrap();
            while let Some(s) = t.to_act() {
                t.legal_into(s, &mut buf);
                let i = bots[s].choose(&t, s, &buf);
                t.step(&buf[i]).unwrap();
            }
            let Table::Cards(ct) = &t else {
                panic!("顶牛 is a card table")
            };
            ct.hand.check().unwrap();
            let h = ct
                .hand
                .as_any()
                .downcast_ref::<super::table::DingniuHand>()
                .unwrap();
            let Event::Deal { carry, dice, .. } = h.r.events()[0] else {
                panic!("the log starts with the deal")
            };
            match prev {
                None => assert_eq!((carry, dice), (Carry::default(), None)),
                Some(p) => {
                    assert_eq!(carry, p);
                    assert!(dice.is_some(), "the previous 大庄 rolls");
                }
            }
            prev = h.r.carry();
            m.finish(&t).unwrap();
        }
        assert_eq!(m.scores.iter().sum::<i64>(), 0);
    }
}

#[test]
fn greedy_beats_random() {
    let bots = [
        TableBot::Greedy,
        TableBot::Random,
        TableBot::Greedy,
        TableBot::Random,
    ];
    let hands = simulate(
        &table_of(&[]),
        &bots,
        4,
        0,
        20_000,
        2,
        &SimOptions::default(),
    )
    .unwrap();
    let greedy: i64 = hands.iter().map(|h| h.balances[0] + h.balances[2]).sum();
    assert!(greedy > 0, "greedy seats net {greedy}");
}
