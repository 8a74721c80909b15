//! Tests of 够级: every case of `shared/cases/gouji_dev.jsonl`, every worked example of
//! gouji.md (E1–E13, S1–S5, §8.5), properties against brute force, and simulated hands with the
//! invariant checks on.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::{Value, json};

use super::bots::BotKind;
use super::card::{Counts, N_RANKS, format_counts, parse_counts};
use super::hand::{Action, Ask, Carry, Event, GoujiHand};
use super::outcome::{
    BuyThree, Outcome, PLACE_NAMES, SEATS, answer_rights, burn_priority, buy_three, dian_gong,
    first_leader, heads_from_active, may_revolt, obligations, places_from_events, scores,
    tribute_cards,
};
use super::play::{
    BurnLead, Play, beats, bie_san_ok, burn_lead, burn_options, is_gouji, kaidian_eligible,
    legal_plays, play_from_id, play_id, remainder_feasible,
};
use super::rules::{GoujiRules, MixedJokers};
use crate::preset::SwitchValue;

fn shared_dir() -> PathBuf {
    if let Ok(p) = std::env::var("HUPAI_SHARED") {
        return PathBuf::from(p);
    }
    let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if beside.exists() {
        return beside;
    }
    PathBuf::from("/work/shared")
}

fn cases() -> Vec<Value> {
    let path = shared_dir().join("cases/gouji_dev.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e}); set HUPAI_SHARED", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn rules_with(sw: &[(&str, SwitchValue)]) -> GoujiRules {
    GoujiRules::load("gouji", sw.iter().map(|(k, v)| (*k, v.clone()))).unwrap()
}

fn seats(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

fn set_of(v: &Value) -> [bool; SEATS] {
    let mut out = [false; SEATS];
    for s in seats(v) {
        out[s] = true;
    }
    out
}

fn places_json(p: &[usize; SEATS]) -> Value {
    let m: serde_json::Map<String, Value> = p
        .iter()
        .enumerate()
        .map(|(i, &s)| (PLACE_NAMES[i].to_string(), json!(s)))
        .collect();
    Value::Object(m)
}

fn places_from_json(v: &Value) -> [usize; SEATS] {
    std::array::from_fn(|i| v[PLACE_NAMES[i]].as_u64().unwrap() as usize)
}

fn bools(v: &Value) -> [bool; SEATS] {
    let a = v.as_array().unwrap();
    std::array::from_fn(|i| a[i].as_bool().unwrap())
}

fn pairs(v: &Value) -> Vec<[u8; 2]> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| [p[0].as_u64().unwrap() as u8, p[1].as_u64().unwrap() as u8])
        .collect()
}

/// Evaluate one fixture; returns the computed `expected` object.
fn eval_case(c: &Value) -> Value {
    let inp = &c["input"];
    let d = GoujiRules::default();
    match c["kind"].as_str().unwrap() {
        "parse_play" => match Play::parse(inp["cards"].as_str().unwrap()) {
            Err(_) => json!({"valid": false}),
            Ok(p) => json!({
                "valid": true,
                "jokers": p.jokers(),
                "joker_level": p.joker_level().map(|l| match l {
                    super::play::JokerLevel::Big => "W",
                    super::play::JokerLevel::Small => "w",
                }),
                "base": p.norm_base().map(|b| super::card::rank_char(b).to_string()),
                "base_count": p.base_count(),
                "total": p.total(),
            }),
        },
        "is_gouji" => {
            json!({"gouji": is_gouji(&Play::parse(inp["cards"].as_str().unwrap()).unwrap(), &d)})
        }
        "beats" => {
            let mj = match inp.get("mixed_jokers").and_then(Value::as_str) {
                Some("per_card") => MixedJokers::PerCard,
                _ => MixedJokers::Downgrade,
            };
            let top = Play::parse(inp["top"].as_str().unwrap()).unwrap();
            let p = Play::parse(inp["play"].as_str().unwrap()).unwrap();
            json!({"beats": beats(&p, &top, mj)})
        }
        "kaidian_on_unanswered" => {
            // Play it from a position: the seat leads the play, everyone passes.
            let seat = inp["seat"].as_u64().unwrap() as usize;
            let p = Play::parse(inp["play"].as_str().unwrap()).unwrap();
            let mut hands = [[0u8; N_RANKS]; SEATS];
            for (s, h) in hands.iter_mut().enumerate() {
                *h = parse_counts(if s == seat { "999" } else { "56" }).unwrap();
            }
            let pc = p.counts();
            for r in 0..N_RANKS {
                hands[seat][r] += pc[r];
            }
            let mut h = GoujiHand::from_position(d, hands, seat, &[], None, true).unwrap();
            h.step(Action::Play(p)).unwrap();
            while h.top().is_some() {
                h.step(Action::Pass).unwrap();
            }
            json!({"leader": h.to_act(), "kaidian": h.kaidian()[seat]})
        }
        "answer_rights" => {
            let t = inp["top_seat"].as_u64().unwrap() as usize;
            let p = Play::parse(inp["play"].as_str().unwrap()).unwrap();
            let active = set_of(&inp["active"]);
            let passed = set_of(&inp["passed"]);
            let r = answer_rights(
                t,
                is_gouji(&p, &d),
                false,
                false,
                &active,
                &passed,
                &heads_from_active(&active),
                inp["luanchan"].as_bool().unwrap(),
                &d,
            );
            json!({"restricted": r.restricted, "burners": r.burners, "answerers": r.answerers})
        }
        "burn_check" => {
            let r = rules_with(&[(
                "bie_san",
                SwitchValue::Bool(inp["bie_san"].as_bool().unwrap()),
            )]);
            let hand = parse_counts(inp["hand"].as_str().unwrap()).unwrap();
            let top = Play::parse(inp["top"].as_str().unwrap()).unwrap();
            let mut opts: Vec<String> = burn_options(&hand, &top, &r)
                .iter()
                .map(Play::cards)
                .collect();
            opts.sort();
            json!({"allowed": !opts.is_empty(), "options": opts})
        }
        "burn_priority" => {
            let order = burn_priority(
                inp["gouji_seat"].as_u64().unwrap() as usize,
                &seats(&inp["declarers"]),
            );
            json!({"burner": order[0], "order": order})
        }
        "burn_lead" => {
            let hand = parse_counts(inp["hand"].as_str().unwrap()).unwrap();
            let lead = Play::parse(inp["lead"].as_str().unwrap()).unwrap();
            let r = match burn_lead(&hand, &lead) {
                BurnLead::Continue => "continue",
                BurnLead::Success => "success",
                BurnLead::Fail => "fail",
            };
            json!({"result": r})
        }
        "places" => {
            let ev: Vec<(bool, usize)> = inp["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| (e[0] == "burn_fail", e[1].as_u64().unwrap() as usize))
                .collect();
            let rev = inp["revolution"].as_u64().map(|x| x as usize);
            json!({"places": places_json(&places_from_events(&ev, rev).unwrap())})
        }
        "score" => {
            let (sc, csh) = scores(&places_from_json(&inp["places"]), &d);
            json!({"scores": sc, "chuan_san_hu": csh})
        }
        "dian_gong" => {
            let dec = inp["declared"].as_array().unwrap();
            let op = inp["opened"].as_array().unwrap();
            let (ab, ba) = dian_gong(
                [dec[0].as_bool().unwrap(), dec[1].as_bool().unwrap()],
                [op[0].as_bool().unwrap(), op[1].as_bool().unwrap()],
            );
            json!({"a_to_b": ab, "b_to_a": ba})
        }
        "tribute" => {
            let places = places_from_json(&inp["places"]);
            let o = Outcome {
                places: places.iter().map(|&s| s as u8).collect(),
                revolution: inp
                    .get("revolution")
                    .and_then(Value::as_u64)
                    .map(|x| x as u8),
                void: false,
                kaidian: bools(&inp["kaidian"]),
                xuandian: bools(&inp["xuandian"]),
                burns: pairs(&inp["burns"]),
                men: pairs(&inp["men"]),
                chuan_san_hu: false,
                scores: [0; SEATS],
            };
            let obs = obligations(&o, inp["first_hand"].as_bool().unwrap(), &d).unwrap();
            let v: Vec<Value> = obs
                .iter()
                .map(|x| json!({"type": x.kind.zh(), "from": x.from, "to": x.to, "n": x.n}))
                .collect();
            json!({"obligations": v})
        }
        "tribute_cards" => {
            let hand = parse_counts(inp["hand"].as_str().unwrap()).unwrap();
            let g = tribute_cards(&hand, inp["n"].as_u64().unwrap() as usize).unwrap();
            json!({"give": format_counts(&g)})
        }
        "bie_san_play" => {
            let hand = parse_counts(inp["hand"].as_str().unwrap()).unwrap();
            let p = Play::parse(inp["play"].as_str().unwrap()).unwrap();
            json!({"legal": bie_san_ok(&hand, &p, true)})
        }
        "buy_three" => {
            let buyer = inp["buyer"].as_u64().unwrap() as usize;
            let th = inp["threes"].as_array().unwrap();
            let threes: [u8; SEATS] = std::array::from_fn(|i| th[i].as_u64().unwrap() as u8);
            let pay = parse_counts(inp["paycards"][buyer].as_str().unwrap()).unwrap();
            match buy_three(
                buyer,
                &threes,
                [pay[12], pay[13], pay[14]],
                true,
                d.buy_order,
            ) {
                BuyThree::Buy { from, pay } => json!({"action": "buy", "from": from,
                    "pay": super::card::rank_char(pay).to_string()}),
                BuyThree::Ask { from } => json!({"action": "ask", "from": from}),
                BuyThree::AutoRevolution => json!({"action": "auto_revolution"}),
                BuyThree::None => json!({"action": "none"}),
                BuyThree::Unresolved => json!({"action": "unresolved"}),
            }
        }
        "first_leader" => {
            let shows: Vec<(usize, u8)> = inp["shows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    (
                        s[0].as_u64().unwrap() as usize,
                        s[1].as_u64().unwrap() as u8,
                    )
                })
                .collect();
            match first_leader(&shows) {
                Some(s) => json!({"leader": s}),
                None => json!({"leader": "random"}),
            }
        }
        "may_revolt" => {
            json!({"may_revolt": may_revolt(&parse_counts(inp["hand"].as_str().unwrap()).unwrap())})
        }
        k => panic!("unknown fixture kind {k}"),
    }
}

#[test]
fn every_dev_case() {
    let cs = cases();
    assert_eq!(cs.len(), 79, "gouji_dev.jsonl has 79 cases");
    let mut bad = Vec::new();
    for c in &cs {
        let got = eval_case(c);
        let want = &c["expected"];
        let mut g = got.clone();
        if c["kind"] == "burn_check" {
            let mut w = want.clone();
            let mut o: Vec<String> = serde_json::from_value(w["options"].clone()).unwrap();
            o.sort();
            w["options"] = json!(o);
            if g != w {
                bad.push(format!("{}: got {g}, want {w}", c["id"]));
            }
            continue;
        }
        if let (Some(gm), Some(wm)) = (g.as_object_mut(), want.as_object()) {
            gm.retain(|k, _| wm.contains_key(k));
        }
        if &g != want {
            bad.push(format!("{}: got {g}, want {want}", c["id"]));
        }
    }
    assert!(
        bad.is_empty(),
        "{} failing cases:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

// ---------------------------------------------------------------------------- worked examples

fn p(s: &str) -> Play {
    Play::parse(s).unwrap()
}

fn c(s: &str) -> Counts {
    parse_counts(s).unwrap()
}

/// A position: the given hands (seat → cards), everyone else `filler`.
fn pos(given: &[(usize, &str)], filler: &str) -> [Counts; SEATS] {
    let mut h: [Counts; SEATS] = std::array::from_fn(|_| c(filler));
    for &(s, x) in given {
        h[s] = c(x);
    }
    h
}

fn act(h: &mut GoujiHand, seat: usize, a: &str) {
    assert_eq!(
        h.to_act(),
        Some(seat),
        "expected seat {seat} to act ({a}); ask {:?}",
        h.ask()
    );
    h.step(Action::parse(a).unwrap())
        .unwrap_or_else(|e| panic!("seat {seat} {a}: {e}"));
}

#[test]
fn e1_e2_e3_plays() {
    let d = GoujiRules::default();
    assert_eq!(p("22333").base_count(), 5);
    assert!(Play::parse("33344").is_err());
    assert_eq!(
        (p("WW2229999").jokers(), p("WW2229999").base_count()),
        (2, 7)
    );
    assert_eq!(p("w2").norm_base(), Some(12));
    assert!(!bie_san_ok(&c("3355"), &p("33"), true));
    assert!(bie_san_ok(&c("33"), &p("33"), true));
    assert!(!bie_san_ok(&c("2333"), &p("2333"), true));
    for g in ["TTTTT", "JJJJ", "QQQ", "KK", "AA", "2", "w", "w9", "22TTT"] {
        assert!(is_gouji(&p(g), &d), "{g}");
    }
    for g in ["TTTT", "QQ", "K", "A", "9999999", "2TTT"] {
        assert!(!is_gouji(&p(g), &d), "{g}");
    }
    let dg = MixedJokers::Downgrade;
    for (top, q, want) in [
        ("ww888", "WW999", true),
        ("ww888", "WWW99", true),
        ("ww888", "WWw99", false),
        ("ww888", "WW888", false),
        ("ww888", "WWW888", false),
        ("ww888", "ww999", false),
        ("22888", "99999", true),
        ("22888", "22299", true),
        ("22", "Ww", true),
        ("22", "w2", false),
        ("AAAA", "2222", true),
        ("AAAA", "22KK", false),
    ] {
        assert_eq!(beats(&p(q), &p(top), dg), want, "{q} on {top}");
    }
    assert!(beats(&p("WWw99"), &p("ww888"), MixedJokers::PerCard));
    // Nothing beats a single 大花.
    let all = c("WWWWwwww2222AAAA");
    assert!(legal_plays(&all, Some(&p("W")), &d).is_empty());
    assert!(kaidian_eligible(&p("22"), &d) && kaidian_eligible(&p("TTTTT"), &d));
    assert!(kaidian_eligible(&p("KK"), &d) && kaidian_eligible(&p("22JJ"), &d));
    assert!(!kaidian_eligible(&p("w"), &d) && !kaidian_eligible(&p("wKK"), &d));
    assert!(!kaidian_eligible(&p("2"), &d));
    let strict = rules_with(&[("kaidian_allows_tieqian", SwitchValue::Bool(false))]);
    assert!(!kaidian_eligible(&p("22JJ"), &strict) && kaidian_eligible(&p("22"), &strict));
}

#[test]
fn e4_gouji_duel_and_kaidian() {
    let d = GoujiRules::default();
    let mut h = GoujiHand::from_position(
        d,
        pos(&[(0, "JJJJKKKK55"), (3, "QQQQ66")], "4444"),
        0,
        &[],
        None,
        true,
    )
    .unwrap();
    act(&mut h, 0, "JJJJ");
    assert!(h.top().unwrap().restricted);
    act(&mut h, 3, "QQQQ"); // nobody could burn: the 对头 answers directly
    act(&mut h, 0, "KKKK");
    act(&mut h, 3, "pass");
    assert_eq!((h.to_act(), h.ask()), (Some(0), Some(Ask::Lead)));
    assert!(h.kaidian()[0] && !h.kaidian()[3]);
    // With wKKK as the last play: he leads but no 开点.
    let mut h = GoujiHand::from_position(
        d,
        pos(&[(0, "JJJJwKKK55"), (3, "QQQQ66")], "4444"),
        0,
        &[],
        None,
        true,
    )
    .unwrap();
    act(&mut h, 0, "JJJJ");
    act(&mut h, 3, "QQQQ");
    act(&mut h, 0, "wKKK");
    act(&mut h, 3, "pass");
    assert_eq!(h.to_act(), Some(0));
    assert!(!h.kaidian()[0]);
}

#[test]
fn e5_passed_player_reenters_only_against_his_duitou() {
    let d = GoujiRules::default();
    let mk = || {
        GoujiHand::from_position(
            d,
            pos(
                &[(2, "9944"), (3, "TT44"), (0, "JJ44"), (1, "QQ44")],
                "KK44",
            ),
            2,
            &[],
            None,
            true,
        )
        .unwrap()
    };
    let mut h = mk();
    act(&mut h, 2, "99");
    act(&mut h, 3, "TT");
    act(&mut h, 4, "pass");
    act(&mut h, 5, "pass");
    act(&mut h, 0, "JJ");
    act(&mut h, 1, "pass");
    act(&mut h, 2, "pass");
    act(&mut h, 3, "pass");
    // 4 and 5 skipped: the round ends, seat 0 leads.
    assert_eq!((h.to_act(), h.ask()), (Some(0), Some(Ask::Lead)));
    let mut h = mk();
    act(&mut h, 2, "99");
    act(&mut h, 3, "TT");
    act(&mut h, 4, "pass");
    act(&mut h, 5, "pass");
    act(&mut h, 0, "JJ");
    act(&mut h, 1, "QQ");
    act(&mut h, 2, "pass");
    act(&mut h, 3, "pass");
    act(&mut h, 4, "pass"); // seat 4 may act again: seat 1 is his 对头
    act(&mut h, 0, "pass"); // seat 5 skipped
    assert_eq!((h.to_act(), h.ask()), (Some(1), Some(Ask::Lead)));
}

#[test]
fn e6_yield() {
    let d = GoujiRules::default();
    let mk = || {
        GoujiHand::from_position(
            d,
            pos(&[(0, "9944"), (5, "TT44"), (3, "TT55")], "4455"),
            0,
            &[],
            None,
            true,
        )
        .unwrap()
    };
    let mut h = mk();
    act(&mut h, 0, "99");
    act(&mut h, 1, "pass");
    act(&mut h, 2, "pass");
    assert!(h.legal_actions(3).contains(&Action::Yield));
    act(&mut h, 3, "yield");
    act(&mut h, 4, "pass");
    act(&mut h, 5, "TT");
    // Only seat 2 (5's 对头) may answer now.
    assert_eq!((h.to_act(), h.ask()), (Some(2), Some(Ask::Answer)));
    act(&mut h, 2, "pass");
    assert_eq!((h.to_act(), h.ask()), (Some(5), Some(Ask::Lead)));
    // Both after him pass: seat 3 plays or passes; after his pass seat 0 leads.
    let mut h = mk();
    act(&mut h, 0, "99");
    act(&mut h, 1, "pass");
    act(&mut h, 2, "pass");
    act(&mut h, 3, "yield");
    act(&mut h, 4, "pass");
    act(&mut h, 5, "pass");
    assert_eq!(h.ask(), Some(Ask::YieldBack));
    assert!(!h.legal_actions(3).contains(&Action::Yield));
    act(&mut h, 3, "pass");
    assert_eq!((h.to_act(), h.ask()), (Some(0), Some(Ask::Lead)));
}

#[test]
fn e7_burn_completed() {
    let d = rules_with(&[("bie_san", SwitchValue::Bool(false))]);
    let mut h = GoujiHand::from_position(
        d,
        pos(&[(0, "KK44"), (1, "AAww555999"), (4, "66")], "4455"),
        0,
        &[],
        None,
        true,
    )
    .unwrap();
    act(&mut h, 0, "KK");
    // Burn window in priority order: seat 0's 联邦 (2, 4) first — they cannot burn — then 1.
    assert_eq!((h.to_act(), h.ask()), (Some(1), Some(Ask::Burn)));
    assert_eq!(
        h.legal_actions(1),
        vec![Action::Play(p("AA")), Action::Pass]
    );
    act(&mut h, 1, "AA");
    assert_eq!(h.burn(), Some((1, 0)));
    assert_eq!((h.to_act(), h.ask()), (Some(4), Some(Ask::Answer)));
    act(&mut h, 4, "pass");
    assert!(h.kaidian()[1]);
    act(&mut h, 1, "w555");
    act(&mut h, 4, "pass");
    act(&mut h, 1, "w999");
    assert!(h.events().contains(&Event::BurnSuccess {
        burner: 1,
        victim: 0
    }));
    assert_eq!(h.places().place_of(1), Some(0));
}

#[test]
fn e8_burn_not_allowed() {
    let no3 = rules_with(&[("bie_san", SwitchValue::Bool(false))]);
    let d = GoujiRules::default();
    let kk = p("KK");
    assert!(burn_options(&c("AA555999"), &kk, &no3).is_empty());
    assert_eq!(burn_options(&c("AA999"), &kk, &no3), vec![p("AA")]);
    assert_eq!(burn_options(&c("AA2999"), &kk, &no3), vec![p("AA")]);
    assert!(burn_options(&c("AA2233"), &kk, &d).is_empty());
    assert_eq!(burn_options(&c("AA2233"), &kk, &no3), vec![p("AA")]);
    // A seat that cannot burn is never asked.
    let mut h = GoujiHand::from_position(
        no3,
        pos(&[(0, "KK44"), (1, "AA555999")], "4455"),
        0,
        &[],
        None,
        true,
    )
    .unwrap();
    act(&mut h, 0, "KK");
    assert_eq!((h.to_act(), h.ask()), (Some(3), Some(Ask::Answer)));
}

#[test]
fn e9_burn_priority_and_lift() {
    let d = GoujiRules::default();
    let mut h = GoujiHand::from_position(
        d,
        pos(
            &[(0, "AAA55"), (1, "www66"), (4, "22266"), (5, "22266")],
            "4455",
        ),
        0,
        &[],
        None,
        true,
    )
    .unwrap();
    act(&mut h, 0, "AAA");
    // Seat 4 (seat 0's 联邦) is asked before seat 1 and 5.
    assert_eq!((h.to_act(), h.ask()), (Some(4), Some(Ask::Burn)));
    act(&mut h, 4, "222");
    assert_eq!(h.burn(), Some((4, 0)));
    // Burn window on 4's play: nobody can burn it (222 does not beat 222); the 对头 answers.
    assert_eq!((h.to_act(), h.ask()), (Some(1), Some(Ask::Answer)));
    assert!(!h.legal_actions(1).contains(&Action::Play(p("ww2"))));
    act(&mut h, 1, "www");
    assert_eq!(h.burn(), None);
    assert!(h.events().contains(&Event::BurnLift { burner: 4, by: 1 }));
    assert_eq!(burn_priority(0, &[1, 5]), vec![1, 5]);
}

#[test]
fn e10_burn_failure() {
    let d = rules_with(&[("bie_san", SwitchValue::Bool(false))]);
    let mut h = GoujiHand::from_position(
        d,
        pos(&[(0, "KK44"), (5, "AAw55599")], "4455"),
        0,
        &[],
        None,
        true,
    )
    .unwrap();
    act(&mut h, 0, "KK");
    act(&mut h, 5, "AA");
    act(&mut h, 2, "pass"); // seat 5's 对头 passes
    act(&mut h, 5, "99"); // no joker, cards remain: 烧失败
    assert!(!h.active()[5]);
    assert_eq!(h.places().place_of(5), Some(5)); // 大落
    assert_eq!(h.hands()[5], c("w55599")); // the dead cards stay in his hand
    assert_eq!((h.to_act(), h.ask()), (Some(0), Some(Ask::Lead)));
    assert!(h.cards_conserved());
}

#[test]
fn ledger_is_zero_sum_and_matches_scores() {
    let r = GoujiRules::default();
    bot_match(&r, 4, 3, &all_bots(BotKind::Greedy), false, |h| {
        let l = h.ledger().unwrap().unwrap();
        let bal: Vec<i64> = l.balances().into_iter().map(|(_, b)| b).collect();
        assert_eq!(bal, h.outcome().unwrap().scores.to_vec());
        assert_eq!(bal.iter().sum::<i64>(), 0);
    })
    .unwrap();
}

#[test]
fn e11_wutou_after_touke() {
    let d = GoujiRules::default();
    let mut h = GoujiHand::from_position(
        d,
        pos(&[(0, "KK66"), (3, ""), (1, "AA66"), (4, "KK66")], "4455"),
        0,
        &[3],
        None,
        true,
    )
    .unwrap();
    act(&mut h, 0, "KK");
    assert!(!h.top().unwrap().restricted); // seat 0 is 无头
    assert_eq!(h.ask(), Some(Ask::Turn));
    act(&mut h, 1, "AA");
    // Seat 1's AA is restricted (4 active); seat 0 answers it as a 无头 answerer.
    assert!(h.top().unwrap().restricted);
    let mut order = Vec::new();
    while h.ask() == Some(Ask::Burn) {
        order.push(h.to_act().unwrap());
        h.step(Action::Pass).unwrap();
    }
    assert_eq!(h.to_act(), Some(4)); // the 对头 of 1
    act(&mut h, 4, "pass");
    assert_eq!((h.to_act(), h.ask()), (Some(0), Some(Ask::Answer)));
    let active = [true, true, true, false, true, true];
    let r = answer_rights(
        4,
        true,
        false,
        false,
        &active,
        &[false; 6],
        &heads_from_active(&active),
        false,
        &d,
    );
    assert_eq!(
        (r.burners.clone(), r.answerers.clone()),
        (vec![5, 2], vec![0, 1])
    );
}

#[test]
fn e12_men() {
    let d = GoujiRules::default();
    let mut h = GoujiHand::from_position(
        d,
        pos(&[(2, "8833"), (3, "9944")], "4455"),
        2,
        &[],
        None,
        true,
    )
    .unwrap();
    act(&mut h, 2, "88");
    act(&mut h, 3, "99");
    assert!(h.events().contains(&Event::Men {
        victim: 2,
        beater: 3
    }));
    // Seat 2 can only pass until he leads; a second 闷 of the same player is not recorded.
    assert!(h.only_threes(2));
    act(&mut h, 4, "pass");
    act(&mut h, 5, "pass");
    act(&mut h, 0, "pass");
    act(&mut h, 1, "pass");
    assert_eq!(h.legal_actions(2), vec![Action::Pass]);
}

#[test]
fn e13_luanchan() {
    let d = GoujiRules::default();
    let mut h = GoujiHand::from_position(
        d,
        pos(
            &[
                (3, ""),
                (4, ""),
                (0, "QQQAAA55"),
                (1, "222566"),
                (2, "KKK66"),
                (5, "6666"),
            ],
            "",
        ),
        0,
        &[3, 4],
        None,
        true,
    )
    .unwrap();
    assert!(h.luanchan());
    act(&mut h, 0, "QQQ");
    act(&mut h, 1, "pass");
    act(&mut h, 2, "KKK");
    act(&mut h, 5, "pass");
    act(&mut h, 0, "AAA");
    act(&mut h, 1, "222"); // passed before: 乱缠
    act(&mut h, 2, "pass");
    act(&mut h, 5, "pass");
    act(&mut h, 0, "pass");
    assert_eq!((h.to_act(), h.ask()), (Some(1), Some(Ask::Lead)));
    assert!(h.kaidian().iter().all(|&k| !k));
}

#[test]
fn s1_to_s5_and_example_8_5() {
    let d = GoujiRules::default();
    let pl = |ev: &[(bool, usize)], r: Option<usize>| places_from_events(ev, r).unwrap();
    let s1 = pl(
        &[(false, 0), (false, 3), (false, 2), (false, 1), (false, 4)],
        None,
    );
    assert_eq!(scores(&s1, &d), ([2, -2, 2, -2, 2, -2], false));
    let s2 = pl(
        &[(false, 0), (false, 2), (false, 4), (false, 1), (false, 3)],
        None,
    );
    assert_eq!(scores(&s2, &d).0[0], 12);
    let s3 = pl(&[(false, 3), (false, 5), (false, 0), (false, 2)], Some(1));
    assert_eq!(s3[2], 1);
    assert_eq!(scores(&s3, &d), ([-12, 12, -12, 12, -12, 12], true));
    let s4 = pl(&[(false, 1), (false, 3), (false, 5), (false, 0)], Some(2));
    assert_eq!((s4[3], scores(&s4, &d).0[1]), (2, 12));
    let s5 = pl(
        &[(true, 4), (false, 1), (false, 0), (false, 3), (false, 5)],
        None,
    );
    assert_eq!(s5, [1, 0, 3, 5, 2, 4]);
    assert_eq!(scores(&s5, &d).0, [-4, 4, -4, 4, -4, 4]);
    // §8.5
    let o = Outcome {
        places: s5.iter().map(|&s| s as u8).collect(),
        revolution: None,
        void: false,
        kaidian: [true, false, false, true, false, true],
        xuandian: [true, true, false, true, false, false],
        burns: vec![[0, 1]],
        men: vec![[2, 5]],
        chuan_san_hu: false,
        scores: [0; 6],
    };
    let got: Vec<(String, u8, u8, u8)> = obligations(&o, false, &d)
        .unwrap()
        .iter()
        .map(|x| (x.kind.zh().to_string(), x.from, x.to, x.n))
        .collect();
    let want: Vec<(String, u8, u8, u8)> = [
        ("闷贡", 2, 5, 1),
        ("烧贡", 0, 1, 1),
        ("点贡", 1, 4, 1),
        ("点贡", 2, 5, 1),
        ("点贡", 3, 0, 2),
        ("点贡", 4, 1, 2),
        ("点贡", 0, 3, 2),
        ("落贡", 2, 0, 1),
        ("落贡", 4, 1, 2),
    ]
    .iter()
    .map(|&(k, a, b, n)| (k.to_string(), a, b, n))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn gouji_si_ji_after_touke_and_yaotou() {
    let d = GoujiRules::default();
    // Seat 0 goes out as 头科 with KK; seat 3 beats it: 够死级 — nobody may answer.
    let mut h = GoujiHand::from_position(
        d,
        pos(&[(0, "KK"), (3, "AA55"), (1, "AA5566")], "4455"),
        0,
        &[],
        None,
        true,
    )
    .unwrap();
    act(&mut h, 0, "KK");
    assert_eq!(h.places().place_of(0), Some(0));
    // Seat 1 cannot burn: after AA, 5566 has two ranks and no joker.
    act(&mut h, 3, "AA");
    // Without the rule seat 3 (无头: his 对头 is out) could be answered by anyone in turn.
    assert_eq!((h.to_act(), h.ask()), (Some(3), Some(Ask::Lead)));
    assert!(h.kaidian()[3]);
    // 要头: the 对头 of a 革命 player plays three 够死级 plays, then he is 无头.
    let mut h = GoujiHand::from_position(
        d,
        pos(&[(1, ""), (4, "KKQQQJJJJAA5"), (0, "AAAAA")], "4466"),
        4,
        &[],
        Some((1, true)),
        true,
    )
    .unwrap();
    for (i, x) in ["KK", "QQQ", "JJJJ"].iter().enumerate() {
        assert_eq!(h.heads()[4], super::outcome::Head::YaoTou(3 - i as u8));
        act(&mut h, 4, x);
        while h.ask() == Some(Ask::Burn) {
            h.step(Action::Pass).unwrap(); // only burns could take it
        }
        assert_eq!(
            (h.to_act(), h.ask()),
            (Some(4), Some(Ask::Lead)),
            "play {i}"
        );
    }
    assert!(h.kaidian()[4]);
    assert_eq!(h.heads()[4], super::outcome::Head::Wu);
    act(&mut h, 4, "AA");
    assert!(!h.top().unwrap().restricted);
    assert_eq!((h.to_act(), h.ask()), (Some(5), Some(Ask::Turn)));
    assert_eq!(h.heads()[4], super::outcome::Head::Wu);
}

#[test]
fn legal_plays_equal_brute_force() {
    // Every sub-multiset of small hands, filtered by the rules, equals the enumeration.
    let d = GoujiRules::default();
    let no3 = rules_with(&[("bie_san", SwitchValue::Bool(false))]);
    let pc = rules_with(&[("mixed_jokers", SwitchValue::Str("per_card".into()))]);
    let mut rng = super::card::Rng::new(7);
    for _ in 0..400 {
        let mut hand = [0u8; N_RANKS];
        for _ in 0..(2 + rng.below(9)) {
            let r = [0, 1, 5, 9, 11, 12, 12, 13, 14][rng.below(9)];
            if hand[r] < 4 {
                hand[r] += 1;
            }
        }
        let top = [
            None,
            Some("5"),
            Some("99"),
            Some("ww8"),
            Some("22"),
            Some("Ww"),
            Some("KKK"),
        ][rng.below(7)]
        .map(p);
        for r in [&d, &no3, &pc] {
            let got: BTreeSet<Play> = legal_plays(&hand, top.as_ref(), r).into_iter().collect();
            let mut want = BTreeSet::new();
            let mut sub = [0u8; N_RANKS];
            fn rec(
                i: usize,
                hand: &Counts,
                sub: &mut Counts,
                out: &mut BTreeSet<Play>,
                top: Option<&Play>,
                r: &GoujiRules,
            ) {
                if i == N_RANKS {
                    if let Ok(q) = Play::from_counts(sub) {
                        let ok = bie_san_ok(hand, &q, r.bie_san)
                            && top.is_none_or(|t| beats(&q, t, r.mixed_jokers));
                        if ok {
                            out.insert(q);
                        }
                    }
                    return;
                }
                for k in 0..=hand[i] {
                    sub[i] = k;
                    rec(i + 1, hand, sub, out, top, r);
                }
                sub[i] = 0;
            }
            rec(0, &hand, &mut sub, &mut want, top.as_ref(), r);
            assert_eq!(got, want, "hand {} top {:?}", format_counts(&hand), top);
            assert_eq!(
                got.len(),
                legal_plays(&hand, top.as_ref(), r).len(),
                "duplicates"
            );
        }
    }
}

#[test]
fn burn_feasibility_equals_search() {
    // The closed form of §6.1 condition 5 against a search over lead sequences.
    fn search(rest: &Counts, bie_san: bool) -> bool {
        if rest.iter().all(|&x| x == 0) {
            return true;
        }
        let mut leads = Vec::new();
        super::play::leads_into(rest, bie_san, &mut leads);
        leads.iter().any(|l| {
            let n: u32 = rest.iter().map(|&x| u32::from(x)).sum();
            if u32::from(l.total()) == n {
                return true;
            }
            if l.jokers() == 0 {
                return false;
            }
            let mut r2 = *rest;
            let c = l.counts();
            for i in 0..N_RANKS {
                r2[i] -= c[i];
            }
            search(&r2, bie_san)
        })
    }
    let mut rng = super::card::Rng::new(11);
    for _ in 0..3000 {
        let mut rest = [0u8; N_RANKS];
        for _ in 0..rng.below(8) {
            let r = [0, 0, 3, 6, 8, 11, 12, 12, 13, 14][rng.below(10)];
            rest[r] += 1;
        }
        for bs in [false, true] {
            assert_eq!(
                remainder_feasible(&rest, bs),
                search(&rest, bs),
                "{} bie_san={bs}",
                format_counts(&rest)
            );
        }
    }
}

#[test]
fn play_ids_round_trip() {
    let mut rng = super::card::Rng::new(3);
    for _ in 0..2000 {
        let id = rng.below(super::play::N_PLAY_IDS as usize) as u32;
        if let Some(q) = play_from_id(id) {
            assert_eq!(play_id(&q), id);
            assert_eq!(Play::from_counts(&q.counts()).unwrap(), q);
        }
    }
    assert_eq!(play_from_id(play_id(&p("WW2229999"))), Some(p("WW2229999")));
    for id in 0..40 {
        if let Some(a) = Action::from_id(id) {
            assert_eq!(a.id(), id);
            assert_eq!(Action::parse(&a.text()).unwrap(), a);
        }
    }
    let a = Action::Play(p("ww888"));
    assert_eq!(Action::from_id(a.id()), Some(a));
}

#[test]
fn illegal_actions_change_nothing() {
    let d = GoujiRules::default();
    let mut h =
        GoujiHand::from_position(d, pos(&[(0, "KK44")], "4455"), 0, &[], None, true).unwrap();
    let before = h.observation(0);
    for a in ["pass", "AA", "444", "yield", "show", "33"] {
        assert!(h.step(Action::parse(a).unwrap()).is_err(), "{a}");
    }
    assert!(h.step_seat(1, Action::parse("44").unwrap()).is_err());
    assert_eq!(h.observation(0), before);
    assert!(Action::parse("44x").is_err());
}

#[test]
fn switches_refused_and_applied() {
    assert!(GoujiRules::load("gouji", [("nope", SwitchValue::Bool(true))]).is_err());
    assert!(GoujiRules::load("gouji", [("bie_san", SwitchValue::Int(1))]).is_err());
    assert!(GoujiRules::load("gouji", [("burners", SwitchValue::Str("x".into()))]).is_err());
    assert!(GoujiRules::load("doudizhu", Vec::<(String, SwitchValue)>::new()).is_err());
    let r = rules_with(&[("place_points", SwitchValue::Str("2,1,0,0,-1,-2".into()))]);
    assert_eq!(r.place_points, [2, 1, 0, 0, -1, -2]);
    assert_eq!(super::rules_switches(&r).len(), 1);
}

fn all_bots(k: BotKind) -> [BotKind; SEATS] {
    [k; SEATS]
}

/// Test helper: `n_hands` hands of one match played by the game's own bots on the game's state
/// machine, the carry passed from hand to hand (a void hand ends and the next hand is dealt);
/// `on_hand` sees each.
fn bot_match(
    rules: &GoujiRules,
    seed: u64,
    n_hands: u64,
    bots: &[BotKind; SEATS],
    check: bool,
    mut on_hand: impl FnMut(&GoujiHand),
) -> crate::error::Result<()> {
    let mut carry = Carry::default();
    let mut rngs: [super::card::Rng; SEATS] =
        std::array::from_fn(|s| super::card::Rng::new(seed * 1000 + s as u64));
    let mut buf = Vec::new();
    for k in 0..n_hands {
        let mut h = GoujiHand::new(*rules, seed * 1_000_003 + k, carry.clone(), check)?;
        while let Some(seat) = h.to_act() {
            h.legal_actions_into(seat, &mut buf);
            let a = super::bots::choose(bots[seat], &mut rngs[seat], &h, &buf);
            h.step(a)?;
            assert!(h.steps < 100_000, "the hand does not end");
        }
        on_hand(&h);
        carry = h.next_carry().expect("a finished hand has a carry");
    }
    Ok(())
}

fn table_of(sw: &[(&str, SwitchValue)]) -> crate::game::table::Compiled {
    let v = crate::Variant::with_options("gouji", sw.iter().map(|(k, v)| (*k, v.clone())));
    crate::game::table::Compiled::new(std::sync::Arc::new(v.unwrap())).unwrap()
}

#[test]
fn simulated_hands_keep_every_invariant() {
    // The table engine's checking mode in matches of 10 (the tribute carried from hand to hand):
    // conservation after every step, every legal action checked on its own, places, scores,
    // tribute, carry, replays (the table's every hand, its JSON log and the game's own log every
    // 8th). 250 hands per bot kind and switch set here; the pytest suite runs 20,000 more.
    let sets: Vec<Vec<(&str, SwitchValue)>> = vec![
        vec![],
        vec![
            ("bie_san", SwitchValue::Bool(false)),
            ("hand_end", SwitchValue::Str("side_out".into())),
        ],
        vec![
            ("burners", SwitchValue::Str("between_only".into())),
            ("duitou_last_word", SwitchValue::Bool(true)),
            ("yield_allowed_on_gouji", SwitchValue::Bool(true)),
            ("luanchan_at", SwitchValue::Str("immediately".into())),
            ("mixed_jokers", SwitchValue::Str("per_card".into())),
            ("return_tribute", SwitchValue::Str("luo_only".into())),
            ("shangban", SwitchValue::Str("first_pair_dealt".into())),
            ("buy_three_order", SwitchValue::Str("lamb".into())),
        ],
    ];
    let opt = checked_matches();
    for sw in &sets {
        let c = table_of(sw);
        for k in [
            crate::game::bots::BotKind::Random,
            crate::game::bots::BotKind::Greedy,
        ] {
            let bots = [k; SEATS];
            let hands = crate::game::sim::simulate(&c, &bots, 42, 0, 250, 2, &opt).unwrap();
            assert_eq!(hands.len(), 250);
            let steps: u64 = hands.iter().map(|h| u64::from(h.steps)).sum();
            assert!(steps > 250 * 50, "{steps} decisions");
            assert_eq!(hands.iter().flat_map(|h| &h.balances).sum::<i64>(), 0);
            // the tribute ran: hands after the first of a session start with tribute
            let tribute: u64 = hands
                .iter()
                .map(|h| {
                    h.result.as_ref().unwrap()["tribute_cards"]
                        .as_u64()
                        .unwrap()
                })
                .sum();
            assert!(tribute > 0, "no tribute in 250 hands of {sw:?}");
        }
    }
}

/// The checking mode over matches of 10 hands, each hand's result record kept.
fn checked_matches() -> crate::game::sim::SimOptions {
    crate::game::sim::SimOptions {
        check: true,
        json_replay_every: 8,
        keep_results: true,
        hands_per_match: 10,
        ..crate::game::sim::SimOptions::default()
    }
}

#[test]
fn simulation_is_deterministic_and_thread_independent() {
    use crate::game::bots::BotKind as TableBot;
    use crate::game::sim::simulate;
    let c = table_of(&[]);
    let bots = [TableBot::Random; SEATS];
    let opt = checked_matches();
    let key = |hs: &[crate::game::sim::HandSummary]| -> Vec<(u64, Vec<i64>, String)> {
        hs.iter()
            .map(|h| {
                let r = h.result.as_ref().unwrap().to_string();
                (h.seed, h.balances.clone(), r)
            })
            .collect()
    };
    let a = key(&simulate(&c, &bots, 5, 0, 60, 1, &opt).unwrap());
    let b = key(&simulate(&c, &bots, 5, 0, 60, 2, &opt).unwrap());
    assert_eq!(a, b, "the thread count changes nothing");
    // a slice of the run is the same hands (the earlier hands of a match played for the carry)
    let tail = key(&simulate(&c, &bots, 5, 25, 60, 2, &opt).unwrap());
    assert_eq!(&a[25..], &tail[..]);
    let other = key(&simulate(&c, &bots, 6, 0, 60, 2, &opt).unwrap());
    assert_ne!(a, other);
}

#[test]
fn greedy_beats_random() {
    use crate::game::bots::BotKind as TableBot;
    use crate::game::sim::{SimOptions, simulate};
    let c = table_of(&[]);
    let bots = [
        TableBot::Greedy,
        TableBot::Random,
        TableBot::Greedy,
        TableBot::Random,
        TableBot::Greedy,
        TableBot::Random,
    ];
    let opt = SimOptions {
        hands_per_match: 10,
        ..SimOptions::default()
    };
    let seat0: i64 = simulate(&c, &bots, 9, 0, 600, 1, &opt)
        .unwrap()
        .iter()
        .map(|h| h.balances[0])
        .sum();
    assert!(seat0 > 0, "greedy team should win on average: {seat0}");
}

#[test]
fn match_carries_tribute() {
    let r = GoujiRules::default();
    let mut seen = 0;
    let mut prev: Option<Carry> = None;
    bot_match(&r, 3, 12, &all_bots(BotKind::Greedy), true, |h| {
        if let Some(pc) = &prev {
            assert_eq!(h.carry(), pc);
        }
        if !h.carry().obligations.is_empty() {
            seen += 1;
        }
        prev = h.next_carry();
    })
    .unwrap();
    assert!(seen > 0, "some hand had tribute");
}

#[test]
fn replay_round_trip_and_tamper() {
    let r = GoujiRules::default();
    let mut logs = Vec::new();
    bot_match(&r, 21, 3, &all_bots(BotKind::Random), true, |h| {
        logs.push(h.events_json())
    })
    .unwrap();
    for log in &logs {
        let h = super::replay(log).unwrap();
        assert_eq!(&h.events_json(), log);
    }
    let mut bad = logs[0].clone();
    let i = bad.iter().position(|e| e["type"] == "PLAY").unwrap();
    bad[i]["cards"] = json!("WWWW");
    assert!(super::replay(&bad).is_err());
    let mut bad = logs[0].clone();
    bad.pop();
    assert!(super::replay(&bad).is_err());
}

/// The random bot's lead without the list: `lead_count` and `lead_nth` say what `leads_into`
/// lists, for random hands (憋3 on and off, only 3s, no 2s or jokers, many of them).
#[test]
fn lead_count_and_nth_follow_the_list() {
    let mut rng = super::card::Rng::new(29);
    for k in 0..3000 {
        let mut hand: Counts = [0; N_RANKS];
        let n = 1 + rng.below(40);
        let only3 = k % 10 == 0;
        for _ in 0..n {
            let r = if only3 { 0 } else { rng.below(N_RANKS) };
            if hand[r] < 16 {
                hand[r] += 1;
            }
        }
        for bie_san in [false, true] {
            let mut list = Vec::new();
            super::play::leads_into(&hand, bie_san, &mut list);
            assert_eq!(
                super::play::lead_count(&hand, bie_san),
                list.len(),
                "{}",
                format_counts(&hand)
            );
            for (i, p) in list.iter().enumerate() {
                assert_eq!(super::play::lead_nth(&hand, bie_san, i), *p);
            }
        }
    }
}
