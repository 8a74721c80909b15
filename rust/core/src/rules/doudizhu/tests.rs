//! Cargo tests of 斗地主: every dev case of `shared/cases/doudizhu_dev.jsonl`, the spec's worked
//! examples, the generator against a brute-force reference, and simulated-game invariants.

use super::*;
use crate::preset::SwitchValue;

fn rules_with(sw: &[(&str, SwitchValue)]) -> DdzRules {
    DdzRules::load("doudizhu_qq", sw.iter().map(|(k, v)| (*k, v.clone()))).unwrap()
}

#[test]
fn parse_and_format() {
    let c = Cards::parse("2xX3TT").unwrap();
    assert_eq!(c.to_string(), "3TT2xX");
    assert_eq!(c.len(), 6);
    assert!(Cards::parse("10").is_err());
    assert!(Cards::parse("33333").is_err());
    assert!(Cards::parse("xx").is_err());
    assert_eq!(Cards::full_pack().len(), 54);
    assert_eq!(Cards::parse("3334").unwrap().mask_at_least(3), 1);
    assert_eq!(Cards::parse("3334").unwrap().mask_at_least(1), 3);
    assert_eq!(Cards::parse("xX").unwrap().mask_at_least(1), 0x6000);
    assert!(
        Cards::parse("334")
            .unwrap()
            .is_subset(Cards::parse("3344").unwrap())
    );
    assert!(
        !Cards::parse("333")
            .unwrap()
            .is_subset(Cards::parse("3344").unwrap())
    );
}

// ---------------------------------------------------------------------------------------------
// Dev cases (shared/cases/doudizhu_dev.jsonl)

fn shared_dir() -> std::path::PathBuf {
    if let Ok(p) = std::env::var("HUPAI_SHARED") {
        return p.into();
    }
    let beside = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if beside.join("cases/doudizhu_dev.jsonl").exists() {
        return beside;
    }
    "/work/shared".into()
}

fn dev_cases() -> Vec<serde_json::Value> {
    let path = shared_dir().join("cases/doudizhu_dev.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e}); set HUPAI_SHARED", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn case_rules(input: &serde_json::Value) -> DdzRules {
    let mut sw = Vec::new();
    if let Some(obj) = input.get("rules").and_then(|r| r.as_object()) {
        for (k, v) in obj {
            let sv = match v {
                serde_json::Value::Bool(b) => SwitchValue::Bool(*b),
                serde_json::Value::Number(n) => SwitchValue::Int(n.as_i64().unwrap()),
                serde_json::Value::String(s) => SwitchValue::Str(s.clone()),
                _ => panic!("bad rule value {v}"),
            };
            sw.push((k.clone(), sv));
        }
    }
    DdzRules::load("doudizhu_qq", sw).unwrap()
}

fn reading_json(r: Option<Reading>) -> serde_json::Value {
    match r {
        None => serde_json::Value::Null,
        Some(r) => serde_json::json!([r.kind.name(), r.main_code().to_string(), r.len]),
    }
}

fn parse_reading(v: &serde_json::Value) -> Reading {
    let a = v.as_array().unwrap();
    Reading::from_parts(
        a[0].as_str().unwrap(),
        a[1].as_str().unwrap(),
        a[2].as_i64().unwrap(),
    )
    .unwrap()
}

/// SHA-256 (FIPS 180-4), for the cases' move-list digests.
pub(crate) fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    let bits = (data.len() as u64) * 8;
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                block[4 * i],
                block[4 * i + 1],
                block[4 * i + 2],
                block[4 * i + 3],
            ]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [
                t1.wrapping_add(t2),
                v[0],
                v[1],
                v[2],
                v[3].wrapping_add(t1),
                v[4],
                v[5],
                v[6],
            ];
        }
        for i in 0..8 {
            h[i] = h[i].wrapping_add(v[i]);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[test]
fn sha256_known_vectors() {
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn dev_cases_classify_beats_legal() {
    let mut n = 0;
    for case in dev_cases() {
        let id = case["id"].as_str().unwrap();
        let input = &case["input"];
        let exp = &case["expected"];
        match case["kind"].as_str().unwrap() {
            "classify" => {
                let rules = case_rules(input);
                let cards = Cards::parse(input["cards"].as_str().unwrap()).unwrap();
                let rs = readings(cards, &rules.moves);
                assert_eq!(reading_json(rs.canonical()), exp["reading"], "{id}");
                let all: Vec<_> = rs.iter().map(|r| reading_json(Some(r))).collect();
                assert_eq!(serde_json::Value::Array(all), exp["readings"], "{id}");
            }
            "beats" => {
                let rules = case_rules(input);
                let a = Cards::parse(input["a"].as_str().unwrap()).unwrap();
                let b_reading = parse_reading(&input["b_reading"]);
                let b = Cards::parse(input["b"].as_str().unwrap()).unwrap();
                assert!(
                    readings(b, &rules.moves).contains(b_reading),
                    "{id}: b_reading is a reading of b"
                );
                let got = beating_reading(a, b_reading, &rules.moves).is_some();
                assert_eq!(got, exp["beats"].as_bool().unwrap(), "{id}");
                assert_eq!(
                    reading_json(classify(a, &rules.moves)),
                    exp["a_reading"],
                    "{id}"
                );
            }
            "legal_moves_count" => {
                let rules = case_rules(input);
                let hand = Cards::parse(input["hand"].as_str().unwrap()).unwrap();
                let target = if input["last"].is_null() {
                    None
                } else {
                    Some(parse_reading(&input["last"]["reading"]))
                };
                let moves = legal_moves(hand, &rules.moves, target);
                let mut strs: Vec<String> = moves.iter().map(|(c, _)| c.to_string()).collect();
                let mut sorted = strs.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), strs.len(), "{id}: duplicate moves {strs:?}");
                assert_eq!(
                    strs.len() as u64,
                    exp["count"].as_u64().unwrap(),
                    "{id}: {strs:?}"
                );
                let mut scratch = Vec::new();
                assert_eq!(
                    count_legal_moves(hand, &rules.moves, target, &mut scratch) as u64,
                    exp["count"].as_u64().unwrap(),
                    "{id}: count"
                );
                assert_eq!(
                    sha256_hex(sorted.join("\n").as_bytes()),
                    exp["sha256"].as_str().unwrap(),
                    "{id}"
                );
                if let Some(m) = exp.get("moves").and_then(|m| m.as_array()) {
                    let mut want: Vec<String> =
                        m.iter().map(|x| x.as_str().unwrap().to_string()).collect();
                    want.sort();
                    strs.sort();
                    assert_eq!(strs, want, "{id}");
                }
                assert_eq!(
                    exp["pass_allowed"].as_bool().unwrap(),
                    target.is_some(),
                    "{id}"
                );
            }
            _ => continue,
        }
        n += 1;
    }
    assert_eq!(n, 142, "classify + beats + legal_moves_count cases");
}

// ---------------------------------------------------------------------------------------------
// The generator against a brute-force reference (every sub-multiset, classified one by one).

use super::rng::Rng;

const PROFILES: [Option<&str>; 6] = [
    None,
    Some("rlcard"),
    Some("douzero"),
    Some("openspiel"),
    Some("onestraw"),
    Some("pagat"),
];

fn profile(p: Option<&str>) -> DdzRules {
    DdzRules::load_profile::<&str>("doudizhu_qq", p, []).unwrap()
}

fn random_hand(rng: &mut Rng, n: usize, triple_rich: bool) -> Cards {
    let mut pack: Vec<u8> = (0..54u8).collect();
    rng.shuffle(&mut pack);
    let mut h = Cards::EMPTY;
    if triple_rich {
        // a few ranks three or four times, the rest random
        let mut ranks: Vec<u8> = (0..13).collect();
        rng.shuffle(&mut ranks);
        for &r in ranks.iter().take(3 + rng.below(3) as usize) {
            let k = 3 + rng.below(2) as u8;
            if h.len() as usize + k as usize <= n {
                h = h.plus(Cards::of(r, k));
            }
        }
    }
    for &c in &pack {
        if h.len() as usize >= n {
            break;
        }
        let r = Card(c).rank();
        if h.count(r) < cards::copies(r) {
            h = h.plus(Cards::of(r, 1));
        }
    }
    h
}

/// Every non-empty sub-multiset of `hand`.
fn submultisets(hand: Cards) -> Vec<Cards> {
    let mut out = vec![Cards::EMPTY];
    for (r, c) in hand.iter() {
        let n = out.len();
        for i in 0..n {
            for k in 1..=c {
                out.push(out[i].plus(Cards::of(r, k)));
            }
        }
    }
    out.retain(|c| !c.is_empty());
    out
}

fn reference(hand: Cards, rules: &MoveRules, target: Option<Reading>) -> Vec<Cards> {
    let mut v: Vec<Cards> = submultisets(hand)
        .into_iter()
        .filter(|&m| match target {
            None => !readings(m, rules).is_empty(),
            Some(t) => beating_reading(m, t, rules).is_some(),
        })
        .collect();
    v.sort();
    v
}

#[test]
fn generator_equals_brute_force_on_random_hands() {
    let mut rng = Rng::new(7);
    let wmr = rules_with(&[
        ("wing_main_rank", SwitchValue::Bool(true)),
        ("four_two_pair_same_rank", SwitchValue::Bool(true)),
        ("wing_pair_same_rank", SwitchValue::Bool(true)),
        ("kicker_bomb", SwitchValue::Bool(true)),
    ])
    .moves;
    let all: Vec<(Option<&str>, MoveRules)> = PROFILES
        .iter()
        .map(|p| (*p, profile(*p).moves))
        .chain([(Some("wing_main_rank"), wmr)])
        .collect();
    for (p, rules) in all {
        for i in 0..40 {
            let n = [5, 8, 12, 17, 20][i % 5];
            let hand = random_hand(&mut rng, n, i % 2 == 0);
            let mut got: Vec<Cards> = legal_moves(hand, &rules, None)
                .into_iter()
                .map(|(c, r)| {
                    assert!(readings(c, &rules).contains(r), "{c} {r}");
                    c
                })
                .collect();
            got.sort();
            let want = reference(hand, &rules, None);
            assert_eq!(got, want, "{p:?} lead {hand}");
            let mut scratch = Vec::new();
            assert_eq!(
                count_legal_moves(hand, &rules, None, &mut scratch),
                want.len()
            );
            // answers to a few random plays of another hand
            let other = random_hand(&mut rng, 20, i % 3 == 0);
            let leads = legal_moves(other, &rules, None);
            for _ in 0..6 {
                let (_, t) = leads[rng.below(leads.len() as u64) as usize];
                let mut got: Vec<Cards> = legal_moves(hand, &rules, Some(t))
                    .into_iter()
                    .map(|(c, r)| {
                        assert!(r.beats(t), "{c} {r} vs {t}");
                        c
                    })
                    .collect();
                got.sort();
                assert_eq!(
                    count_legal_moves(hand, &rules, Some(t), &mut scratch),
                    got.len()
                );
                assert_eq!(got, reference(hand, &rules, Some(t)), "{p:?} {hand} vs {t}");
            }
        }
    }
}

#[test]
fn move_space_sizes_match_the_spec() {
    use std::collections::BTreeMap;
    // §6.7: readings per type under the default rules.
    let rules = profile(None).moves;
    let moves = space::all_moves(&rules);
    assert_eq!(moves.len(), 27_845);
    let mut per: BTreeMap<&str, usize> = BTreeMap::new();
    let mut total = 0;
    let mut multi = 0;
    for (c, _) in &moves {
        let rs = readings(*c, &rules);
        total += rs.len();
        multi += usize::from(rs.len() > 1);
        for r in rs.iter() {
            *per.entry(r.kind.name()).or_default() += 1;
        }
    }
    assert_eq!(total, 28_237);
    assert_eq!(multi, 383);
    let want = [
        ("single", 15),
        ("pair", 13),
        ("trio", 13),
        ("bomb", 13),
        ("rocket", 1),
        ("trio_single", 182),
        ("trio_pair", 156),
        ("chain", 36),
        ("pair_chain", 52),
        ("trio_chain", 45),
        ("plane_single", 22_588),
        ("plane_pair", 2_939),
        ("four_two_single", 1_326),
        ("four_two_pair", 858),
    ];
    for (k, n) in want {
        assert_eq!(per.get(k).copied().unwrap_or(0), n, "{k}");
    }
    // §12.2: the peers' move spaces.
    let count = |p: Option<&str>| {
        let r = profile(p).moves;
        let m = space::all_moves(&r);
        let readings_n: usize = m.iter().map(|(c, _)| readings(*c, &r).len()).sum();
        (m.len(), readings_n)
    };
    assert_eq!(count(Some("rlcard")).0, 27_471);
    assert_eq!(count(Some("openspiel")).1, 26_053);
    assert_eq!(count(Some("onestraw")), (33_675, 34_152));
    assert_eq!(count(Some("pagat")).0, 12_654);
    // The encodings.
    let sp = space::action_space(&rules);
    assert_eq!(sp.len(), 27_846);
    assert_eq!(sp.pass_id(), 0);
    assert_eq!(space::rlcard_space().len(), 27_472);
    assert_eq!(space::rlcard_space().pass_id(), 27_471);
    let rl = space::rlcard_rules();
    assert_eq!(
        space::rlcard_id(&rl, Cards::parse("3").unwrap()).unwrap(),
        0
    );
    assert_eq!(
        space::rlcard_id(&rl, Cards::parse("3334").unwrap()).unwrap(),
        41
    );
    assert_eq!(
        space::rlcard_id(&rl, Cards::parse("xX").unwrap()).unwrap(),
        27_470
    );
    assert_eq!(
        space::rlcard_id(&rl, Cards::parse("333444555666778x").unwrap()).unwrap(),
        4762
    );
    assert!(space::rlcard_id(&rules, Cards::parse("3").unwrap()).is_err());
}

// ---------------------------------------------------------------------------------------------
// Auction and settlement cases, worked examples.

use super::auction::{Auction, AuctionResult, Bid};
use super::settle::{DealRecord, settle};

fn preset_rules(preset: &str, rob_room: Option<bool>) -> DdzRules {
    let id = format!("doudizhu_{preset}");
    let mut sw: Vec<(&str, SwitchValue)> = Vec::new();
    if let Some(r) = rob_room {
        sw.push(("rob", SwitchValue::Bool(r)));
        sw.push(("show_hand", SwitchValue::Bool(r)));
    }
    DdzRules::load(&id, sw).unwrap()
}

#[test]
fn dev_cases_auction_and_settle() {
    let mut n = 0;
    for case in dev_cases() {
        let id = case["id"].as_str().unwrap();
        let input = &case["input"];
        let exp = &case["expected"];
        match case["kind"].as_str().unwrap() {
            "auction" => {
                let rules = preset_rules(
                    input["preset"].as_str().unwrap(),
                    Some(input["rob_room"].as_bool().unwrap()),
                );
                let first = input["first"].as_u64().unwrap() as u8;
                let mut a = Auction::new(&rules, first, [false; 3]);
                let mut actors = Vec::new();
                let mut error_at = None;
                for (i, act) in input["actions"].as_array().unwrap().iter().enumerate() {
                    let Some(seat) = a.to_act() else {
                        error_at = Some(i);
                        break;
                    };
                    let b = Bid::parse(act.as_str().unwrap()).unwrap();
                    if a.step(b).is_err() {
                        error_at = Some(i);
                        break;
                    }
                    actors.push(seat);
                }
                if error_at.is_none() && a.result().is_none() {
                    error_at = Some(input["actions"].as_array().unwrap().len());
                }
                match error_at {
                    Some(i) => {
                        assert!(!exp["legal"].as_bool().unwrap(), "{id}: refused at {i}");
                        assert_eq!(exp["error_at"].as_u64().unwrap() as usize, i, "{id}");
                    }
                    None => {
                        assert!(exp["legal"].as_bool().unwrap(), "{id}");
                        let want: Vec<u8> = exp["actors"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|x| x.as_u64().unwrap() as u8)
                            .collect();
                        assert_eq!(actors, want, "{id}: actors");
                        match a.result().unwrap() {
                            AuctionResult::AllPass => {
                                assert_eq!(exp["result"], "redeal", "{id}")
                            }
                            AuctionResult::Landlord { seat, bid, robs } => {
                                assert_eq!(exp["result"], "landlord", "{id}");
                                assert_eq!(
                                    u64::from(seat),
                                    exp["landlord"].as_u64().unwrap(),
                                    "{id}"
                                );
                                assert_eq!(u64::from(bid), exp["bid"].as_u64().unwrap(), "{id}");
                                assert_eq!(u64::from(robs), exp["robs"].as_u64().unwrap(), "{id}");
                            }
                        }
                    }
                }
            }
            "settle" => {
                let mut rules = preset_rules(input["preset"].as_str().unwrap(), None);
                if let Some(st) = input.get("stake").and_then(|v| v.as_i64()) {
                    rules.stake = st;
                }
                if let Some(room) = input.get("room") {
                    rules.coin_room = true;
                    rules.room_factor = room["N"].as_i64().unwrap();
                    rules.house_fee = room["A"].as_i64().unwrap();
                }
                let g = |k: &str| input.get(k).and_then(|v| v.as_u64()).unwrap_or(0) as u32;
                let fh = input["farmer_hands"].as_array().unwrap();
                let rec = DealRecord {
                    bid: g("bid") as u8,
                    landlord_won: input["landlord_won"].as_bool().unwrap(),
                    bombs: g("bombs"),
                    rockets: g("rockets"),
                    landlord_hands: g("landlord_hands"),
                    farmer_hands: [
                        fh[0].as_u64().unwrap() as u32,
                        fh[1].as_u64().unwrap() as u32,
                    ],
                    robs: g("robs"),
                    shown: input
                        .get("shown")
                        .and_then(|v| v.as_bool())
                        .unwrap_or(false),
                };
                let s = settle(&rules, &rec).unwrap();
                assert_eq!(s.spring.name(), exp["spring"], "{id}");
                assert_eq!(s.multiplier, exp["multiplier"].as_i64().unwrap(), "{id}");
                assert_eq!(s.unit, exp["unit"].as_i64().unwrap(), "{id}");
                let sc = &exp["scores"];
                assert_eq!(
                    s.scores,
                    [
                        sc["landlord"].as_i64().unwrap(),
                        sc["farmer_down"].as_i64().unwrap(),
                        sc["farmer_up"].as_i64().unwrap()
                    ],
                    "{id}"
                );
                assert_eq!(s.scores.iter().sum::<i64>(), 0, "{id}");
                if let Some(c) = exp.get("coin") {
                    let got = s.coin.unwrap();
                    assert_eq!(
                        got,
                        [
                            c["landlord"].as_i64().unwrap(),
                            c["farmer_down"].as_i64().unwrap(),
                            c["farmer_up"].as_i64().unwrap(),
                            c["system"].as_i64().unwrap()
                        ],
                        "{id}"
                    );
                    assert_eq!(got.iter().sum::<i64>(), 0, "{id}: zero-sum with the house");
                }
            }
            _ => continue,
        }
        n += 1;
    }
    assert_eq!(n, 30, "auction + settle cases");
}

// ---------------------------------------------------------------------------------------------
// The state machine on the spec's worked examples (§10) with given deals.

use super::game::{Action, Carry, Game, OutcomeKind, Phase, replay};
use std::sync::Arc;

/// A deal from partial hands: each seat's given cards, filled up to 17 from the rest of the pack
/// (lowest cards first); `bottom` is exact. Suits are assigned lowest first.
fn deal(parts: [&str; 3], bottom: &str) -> ([Vec<Card>; 3], Vec<Card>) {
    let mut used = [false; 54];
    let mut take = |r: u8| -> Card {
        let (lo, hi) = if r >= 13 {
            (52 + r - 13, 52 + r - 13)
        } else {
            (4 * r, 4 * r + 3)
        };
        let c = (lo..=hi)
            .find(|&c| !used[c as usize])
            .expect("rank exhausted");
        used[c as usize] = true;
        Card(c)
    };
    let mut hands: [Vec<Card>; 3] = Default::default();
    let b: Vec<Card> = Cards::parse(bottom)
        .unwrap()
        .iter()
        .flat_map(|(r, n)| std::iter::repeat_n(r, n as usize))
        .map(&mut take)
        .collect();
    for (s, p) in parts.iter().enumerate() {
        for (r, n) in Cards::parse(p).unwrap().iter() {
            for _ in 0..n {
                hands[s].push(take(r));
            }
        }
    }
    for h in hands.iter_mut() {
        for c in 0..54u8 {
            if h.len() >= 17 {
                break;
            }
            if !used[c as usize] {
                used[c as usize] = true;
                h.push(Card(c));
            }
        }
        assert_eq!(h.len(), 17, "partial hand too long");
    }
    (hands, b)
}

fn act(s: &str, auction: bool) -> Action {
    match s {
        "pass" => Action::Pass,
        "rob" => Action::Rob,
        "call" => Action::Call,
        "show" => Action::Show,
        "no_show" => Action::NoShow,
        "1" | "2" | "3" if auction => Action::Bid(s.parse().unwrap()),
        cards => match cards.split_once('@') {
            None => Action::Play(Cards::parse(cards).unwrap(), None),
            Some((c, r)) => {
                let p: Vec<&str> = r.split(',').collect();
                Action::Play(
                    Cards::parse(c).unwrap(),
                    Some(Reading::from_parts(p[0], p[1], p[2].parse().unwrap()).unwrap()),
                )
            }
        },
    }
}

fn run(g: &mut Game, script: &[(u8, &str)]) {
    for (i, &(seat, a)) in script.iter().enumerate() {
        assert_eq!(g.to_act(), Some(seat), "step {i} ({a}): wrong seat");
        let auction = g.phase() == Phase::Auction;
        g.step(act(a, auction))
            .unwrap_or_else(|e| panic!("step {i} ({a}): {e}"));
    }
}

/// `marked`: (seat, rank code) of the marked card.
fn game(
    rules: DdzRules,
    parts: [&str; 3],
    bottom: &str,
    marked: Option<(usize, &str)>,
    first: u8,
) -> Game {
    let (h, b) = deal(parts, bottom);
    let marked = marked.map(|(s, m)| {
        let r = super::cards::rank_of(m.as_bytes()[0]).unwrap();
        *h[s].iter().find(|c| c.rank() == r).unwrap()
    });
    Game::with_deals(
        Arc::new(rules),
        vec![(h, b, marked)],
        Carry {
            first_bidder: first,
            last_winner: None,
        },
    )
    .unwrap()
}

fn check_replay(g: &Game) {
    let again = replay(Arc::new(g.rules().clone()), &g.events_json()).unwrap();
    assert_eq!(again.events(), g.events());
}

#[test]
fn e1_plain_win() {
    let mut g = game(
        DdzRules::qq(),
        ["23444555666777888", "4", ""],
        "999",
        None,
        0,
    );
    run(&mut g, &[(0, "1"), (1, "pass"), (2, "pass")]);
    assert_eq!(g.hand(0).len(), 20);
    run(
        &mut g,
        &[
            (0, "3"),
            (1, "4"),
            (2, "pass"),
            (0, "2"),
            (1, "pass"),
            (2, "pass"),
            (0, "444555666777888999"),
        ],
    );
    let o = g.outcome().unwrap();
    assert_eq!(o.kind, OutcomeKind::LandlordWon);
    assert_eq!(o.scores, [2, -1, -1]);
    assert_eq!(o.settlement.unwrap().multiplier, 1);
    check_replay(&g);
}

#[test]
fn e2_bomb_and_rocket_landlord_loses() {
    let mut g = game(
        DdzRules::qq(),
        ["", "7777333444TJQKA22", "589TJQxX"],
        "666",
        None,
        0,
    );
    run(&mut g, &[(0, "pass"), (1, "2"), (2, "3")]);
    assert_eq!(g.landlord(), Some(2));
    run(
        &mut g,
        &[
            (2, "5"),
            (0, "pass"),
            (1, "7777"),
            (2, "xX"),
            (0, "pass"),
            (1, "pass"),
            (2, "89TJQ"),
            (0, "pass"),
            (1, "TJQKA"),
            (2, "pass"),
            (0, "pass"),
            (1, "333444"),
            (2, "pass"),
            (0, "pass"),
            (1, "22"),
        ],
    );
    let o = g.outcome().unwrap();
    assert_eq!(o.kind, OutcomeKind::FarmersWon);
    assert_eq!(o.settlement.unwrap().multiplier, 4);
    assert_eq!(o.scores, [12, 12, -24]);
    check_replay(&g);
}

#[test]
fn e3_spring() {
    let mut g = game(
        DdzRules::qq(),
        ["3456789TJQQQQKKKA", "", ""],
        "222",
        None,
        0,
    );
    run(&mut g, &[(0, "2"), (1, "pass"), (2, "pass")]);
    run(
        &mut g,
        &[
            (0, "3456789TJ"),
            (1, "pass"),
            (2, "pass"),
            (0, "QQQQ"),
            (1, "pass"),
            (2, "pass"),
            (0, "KKKA"),
            (1, "pass"),
            (2, "pass"),
            (0, "222"),
        ],
    );
    let o = g.outcome().unwrap();
    let s = o.settlement.unwrap();
    assert_eq!(s.spring.name(), "spring");
    assert_eq!((s.multiplier, s.unit), (4, 8));
    assert_eq!(o.scores, [16, -8, -8]);
    check_replay(&g);
}

#[test]
fn e4_anti_spring() {
    let mut g = game(
        DdzRules::qq(),
        ["", "34567", "56789TTTTKKKKQQQJ"],
        "AAA",
        None,
        1,
    );
    run(&mut g, &[(1, "3")]);
    assert_eq!(g.landlord(), Some(1));
    run(
        &mut g,
        &[
            (1, "34567"),
            (2, "56789"),
            (0, "pass"),
            (1, "pass"),
            (2, "TTTT"),
            (0, "pass"),
            (1, "pass"),
            (2, "KKKK"),
            (0, "pass"),
            (1, "pass"),
            (2, "QQQJ"),
        ],
    );
    let o = g.outcome().unwrap();
    let s = o.settlement.unwrap();
    assert_eq!(s.spring.name(), "anti_spring");
    assert_eq!((s.multiplier, s.unit), (8, 24));
    assert_eq!(o.scores, [24, -48, 24]);
    check_replay(&g);
}

fn contest(rob_room: bool, stake: i64) -> DdzRules {
    DdzRules::load(
        "doudizhu_contest",
        [
            ("rob", SwitchValue::Bool(rob_room)),
            ("show_hand", SwitchValue::Bool(rob_room)),
            ("stake", SwitchValue::Int(stake)),
        ],
    )
    .unwrap()
}

#[test]
fn e5_e6_rob_show_stake() {
    let mut g = game(
        contest(true, 2),
        ["T", "3333456789TJQKAAA", "99"],
        "266",
        Some((0, "T")),
        2,
    );
    run(
        &mut g,
        &[(0, "1"), (1, "2"), (2, "pass"), (0, "rob"), (1, "rob")],
    );
    assert_eq!(g.landlord(), Some(1));
    assert_eq!(g.phase(), Phase::Show);
    run(
        &mut g,
        &[
            (1, "show"),
            (1, "66"),
            (2, "99"),
            (0, "pass"),
            (1, "3333"),
            (2, "pass"),
            (0, "pass"),
            (1, "456789TJQK"),
            (2, "pass"),
            (0, "pass"),
            (1, "AAA2"),
        ],
    );
    let o = g.outcome().unwrap();
    let s = o.settlement.unwrap();
    assert_eq!((s.multiplier, s.unit), (16, 64));
    assert_eq!(o.scores, [-64, 128, -64]);
    check_replay(&g);
}

#[test]
fn e7_contest_spring() {
    let mut g = game(
        contest(false, 1),
        ["", "", "3456789TJQKAKKKQQ"],
        "222",
        Some((2, "4")),
        0,
    );
    run(&mut g, &[(2, "3")]);
    run(
        &mut g,
        &[
            (2, "3456789TJQKA"),
            (0, "pass"),
            (1, "pass"),
            (2, "KKKQQ"),
            (0, "pass"),
            (1, "pass"),
            (2, "222"),
        ],
    );
    let o = g.outcome().unwrap();
    let s = o.settlement.unwrap();
    assert_eq!(s.spring.name(), "spring");
    assert_eq!((s.multiplier, s.unit), (2, 6));
    assert_eq!(o.scores, [-6, -6, 12]);
    check_replay(&g);
}

#[test]
fn e8_rob_then_anti_spring() {
    let mut g = game(
        contest(true, 1),
        ["xX777888999JJQQKK", "", "3"],
        "AAA",
        Some((0, "7")),
        0,
    );
    run(
        &mut g,
        &[(0, "2"), (1, "3"), (2, "rob"), (0, "pass"), (1, "pass")],
    );
    assert_eq!(g.landlord(), Some(2));
    run(
        &mut g,
        &[
            (2, "no_show"),
            (2, "3"),
            (0, "xX"),
            (1, "pass"),
            (2, "pass"),
            (0, "777888999JJQQKK"),
        ],
    );
    let o = g.outcome().unwrap();
    let s = o.settlement.unwrap();
    assert_eq!(s.spring.name(), "anti_spring");
    assert_eq!((s.multiplier, s.unit), (8, 24));
    assert_eq!(o.scores, [24, 24, -48]);
    check_replay(&g);
}

#[test]
fn e10_all_pass_redeals_and_rotates() {
    let rules = Arc::new(DdzRules::qq());
    let mut g = Game::new(rules.clone(), 42, Carry::default());
    run(&mut g, &[(0, "pass"), (1, "pass"), (2, "pass")]);
    assert_eq!(g.deal_no(), 1);
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(g.phase(), Phase::Auction);
    let ev = g.events_json();
    assert_eq!(ev[ev.len() - 2]["type"], "redeal");
    assert_eq!(ev[ev.len() - 1]["first_bidder"], 1);
    // end_zero: the game ends with zeros
    let r = DdzRules::load(
        "doudizhu_qq",
        [("all_pass", SwitchValue::Str("end_zero".into()))],
    )
    .unwrap();
    let mut g = Game::new(Arc::new(r), 42, Carry::default());
    run(&mut g, &[(0, "pass"), (1, "pass"), (2, "pass")]);
    assert_eq!(g.outcome().unwrap().kind, OutcomeKind::NoGame);
    // random_landlord_after_3
    let r = DdzRules::load(
        "doudizhu_qq",
        [(
            "all_pass",
            SwitchValue::Str("random_landlord_after_3".into()),
        )],
    )
    .unwrap();
    let mut g = Game::new(Arc::new(r), 42, Carry::default());
    run(
        &mut g,
        &[
            (0, "pass"),
            (1, "pass"),
            (2, "pass"),
            (1, "pass"),
            (2, "pass"),
            (0, "pass"),
            (2, "pass"),
            (0, "pass"),
            (1, "pass"),
        ],
    );
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.bid(), 1);
    check_replay(&g);
}

#[test]
fn p1_declared_readings() {
    let mut g = game(
        DdzRules::qq(),
        ["444555666777", "3888999TTTJQ", ""],
        "AKQ",
        None,
        0,
    );
    run(&mut g, &[(0, "3"), (0, "444555666777@plane_single,7,3")]);
    // B answers with a plane above 7 (main T)
    let mut g2 = g.clone();
    run(&mut g2, &[(1, "3888999TTTJQ")]);
    assert_eq!(g2.top().unwrap().2, Reading::new(Kind::PlaneSingle, 7, 3)); // T = index 7
    // canonical trio_chain would not answer a plane; 888999TTTJJJ would (as 999TTTJJJ + 888)
    let legal = g.legal_actions(1);
    assert!(legal.contains(&Action::Pass));
    assert!(
        legal.iter().any(
            |a| matches!(a, Action::Play(c, _) if *c == Cards::parse("3888999TTTJQ").unwrap())
        )
    );
    // an undeclared 444555666777 lead is a trio_chain
    let mut g3 = game(DdzRules::qq(), ["444555666777", "", ""], "AKQ", None, 0);
    run(&mut g3, &[(0, "3"), (0, "444555666777")]);
    assert_eq!(g3.top().unwrap().2, Reading::new(Kind::TrioChain, 4, 4));
    // a declared reading that is not one of the move's readings is refused, state unchanged
    let mut g4 = game(DdzRules::qq(), ["444555666777", "", ""], "AKQ", None, 0);
    run(&mut g4, &[(0, "3")]);
    let before = g4.events().len();
    assert!(
        g4.step(act("444555666777@plane_single,5,3", false))
            .is_err()
    );
    assert_eq!(g4.events().len(), before);
}

#[test]
fn p2_trick_and_illegal_actions() {
    let mut g = game(
        DdzRules::qq(),
        ["33344456", "KKKK", "66677789"],
        "JJJ",
        None,
        0,
    );
    run(
        &mut g,
        &[
            (0, "3"),
            (0, "33344456"),
            (1, "pass"),
            (2, "66677789"),
            (0, "pass"),
        ],
    );
    let before = g.events().len();
    // illegal: not held, not a move, does not beat, wrong phase action
    assert!(g.step(act("2222", false)).is_err());
    assert!(g.step(act("KKK", false)).is_err());
    assert!(g.step(Action::Bid(2)).is_err());
    assert_eq!(g.events().len(), before);
    run(&mut g, &[(1, "KKKK"), (2, "pass"), (0, "pass")]);
    assert_eq!(g.to_act(), Some(1));
    assert!(g.top().is_none());
    assert!(g.step(Action::Pass).is_err(), "a leader may not pass");
    assert_eq!(g.multiplier(), 2);
}

#[test]
fn escape_penalties() {
    let r = Arc::new(DdzRules::qq());
    let mut g = Game::new(r.clone(), 5, Carry::default());
    g.escape(1).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.scores, o.house), ([0, -3, 0], 3));
    let mut g = Game::new(r.clone(), 5, Carry::default());
    run(&mut g, &[(0, "2")]);
    g.escape(2).unwrap();
    assert_eq!(g.outcome().unwrap().scores, [0, 0, -6]);
    check_replay(&g);
    let split = Arc::new(
        DdzRules::load(
            "doudizhu_qq",
            [("escape_to", SwitchValue::Str("split".into()))],
        )
        .unwrap(),
    );
    let mut g = Game::new(split, 5, Carry::default());
    run(&mut g, &[(0, "3")]);
    g.escape(0).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.scores, o.house), ([-9, 4, 4], 1));
    assert!(g.escape(0).is_err());
}

// ---------------------------------------------------------------------------------------------
// Simulated hands with the invariant checks, at the one table engine (the big run is in
// tests/test_doudizhu_sim.py).

use crate::game::bots::BotKind;

fn table_of(id: &str, sw: &[(String, SwitchValue)]) -> crate::game::table::Compiled {
    let v = crate::Variant::with_options(id, sw.iter().map(|(k, v)| (k.as_str(), v.clone())));
    crate::game::table::Compiled::new(Arc::new(v.unwrap())).unwrap()
}

#[test]
fn simulated_hands_keep_the_invariants() {
    let s = |k: &str, v: SwitchValue| (k.to_string(), v);
    let mut sets: Vec<(&str, Vec<(String, SwitchValue)>)> = vec![
        ("doudizhu_qq", vec![]),
        ("doudizhu_contest", vec![]),
        (
            "doudizhu_qq",
            vec![
                s("auction", SwitchValue::Str("call_rob".into())),
                s("rob", SwitchValue::Bool(true)),
            ],
        ),
        (
            "doudizhu_qq",
            vec![
                s("bid_rounds", SwitchValue::Str("until_two_passes".into())),
                s("all_pass", SwitchValue::Str("end_zero".into())),
            ],
        ),
        (
            "doudizhu_qq",
            vec![
                s(
                    "all_pass",
                    SwitchValue::Str("random_landlord_after_3".into()),
                ),
                s("must_bid", SwitchValue::Bool(true)),
            ],
        ),
        (
            "doudizhu_qq",
            vec![
                s("bomb_cap", SwitchValue::Int(1)),
                s("multiplier_cap", SwitchValue::Int(4)),
                s("coin_room", SwitchValue::Bool(true)),
                s("house_fee", SwitchValue::Int(5)),
            ],
        ),
        (
            "doudizhu_qq",
            vec![
                s("first_bidder", SwitchValue::Str("last_winner".into())),
                s("show_hand", SwitchValue::Bool(true)),
            ],
        ),
        (
            "doudizhu_qq",
            vec![
                s("wing_main_rank", SwitchValue::Bool(true)),
                s("four_two_pair_same_rank", SwitchValue::Bool(true)),
            ],
        ),
    ];
    // A rule profile is a set of switch values: the table plays it as options.
    for p in ["douzero", "onestraw", "pagat", "openspiel", "rlcard"] {
        sets.push((
            "doudizhu_qq",
            super::rules::profile_switches("doudizhu_qq", p).unwrap(),
        ));
    }
    for (id, sw) in &sets {
        let c = table_of(id, sw);
        for bots in [
            [BotKind::Random; 3],
            [BotKind::Greedy, BotKind::Random, BotKind::Greedy],
        ] {
            let st = crate::game::sim::check_run(&c, &bots, 11, 150, 1, 10).unwrap();
            assert_eq!(st.hands, 150);
            assert!(st.steps > 150 * 10, "{id} {sw:?}: {st:?}");
        }
    }
}

#[test]
fn greedy_beats_random() {
    use crate::game::sim::{SimOptions, simulate};
    let c = table_of("doudizhu_qq", &[]);
    let total = |bots: [BotKind; 3]| -> i64 {
        simulate(&c, &bots, 5, 0, 600, 1, &SimOptions::default())
            .unwrap()
            .iter()
            .map(|h| h.balances[0])
            .sum()
    };
    let greedy_first = total([BotKind::Greedy, BotKind::Random, BotKind::Random]);
    let random_first = total([BotKind::Random, BotKind::Greedy, BotKind::Greedy]);
    assert!(
        greedy_first > 0,
        "greedy seat 0 wins points against random: {greedy_first}"
    );
    assert!(
        random_first < 0,
        "random seat 0 loses against greedy: {random_first}"
    );
}
