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
    assert!(Cards::parse("334").unwrap().is_subset(Cards::parse("3344").unwrap()));
    assert!(!Cards::parse("333").unwrap().is_subset(Cards::parse("3344").unwrap()));
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
                assert_eq!(strs.len() as u64, exp["count"].as_u64().unwrap(), "{id}: {strs:?}");
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
    for p in PROFILES {
        let rules = profile(p).moves;
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
            assert_eq!(count_legal_moves(hand, &rules, None, &mut scratch), want.len());
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
    assert_eq!(space::rlcard_id(&rl, Cards::parse("3").unwrap()).unwrap(), 0);
    assert_eq!(space::rlcard_id(&rl, Cards::parse("3334").unwrap()).unwrap(), 41);
    assert_eq!(space::rlcard_id(&rl, Cards::parse("xX").unwrap()).unwrap(), 27_470);
    assert_eq!(
        space::rlcard_id(&rl, Cards::parse("333444555666778x").unwrap()).unwrap(),
        4762
    );
    assert!(space::rlcard_id(&rules, Cards::parse("3").unwrap()).is_err());
}
