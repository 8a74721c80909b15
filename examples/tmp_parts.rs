use hupai_core::decompose::{Decomposition, Form, Set};
use hupai_core::preset::FanOp;
use hupai_core::rules::mcr::{self, McrForm};
use hupai_core::scoring::score::{Extras, FanHit, Payment, Payments, Reading, Score, Unit};
use hupai_core::situation::Situation;
use hupai_core::Variant;
use serde_json::Value;
use std::borrow::Cow;
use std::hint::black_box;

#[derive(Clone, Copy)]
pub struct Hit16 { pub def: &'static hupai_core::preset::FanDef, pub value: i32, pub count: u16, pub op: FanOp }

fn build16(sc: mcr::McrScore, defs: &[&'static hupai_core::preset::FanDef], r: &mcr::McrRules) -> (Vec<Hit16>, i64) {
    let hits: Vec<Hit16> = sc.fans.into_iter().map(|(i, c)| Hit16 { def: defs[i % defs.len()], value: r.values[i], count: u16::from(c), op: FanOp::Add }).collect();
    (hits, i64::from(sc.total))
}

fn build(sc: mcr::McrScore, r: &mcr::McrRules, fans_on: bool, pay_on: bool, ext_on: bool) -> Score {
    let fans = if fans_on {
        sc.fans.iter().map(|&(i, c)| FanHit {
            id: Cow::Borrowed(mcr::ids::FAN_IDS[i]),
            zh: Cow::Borrowed(r.zh[i]),
            en: Cow::Borrowed(r.en[i]),
            value: i64::from(r.values[i]),
            op: FanOp::Add,
            count: u32::from(c),
        }).collect()
    } else { Vec::new() };
    let form = match sc.form { McrForm::Regular | McrForm::NineGates => Form::Standard, _ => Form::SevenPairs };
    let sets: Vec<Set> = sc.sets.into_iter().map(|x| Set { kind: x.kind, tile: x.tile, declared: x.declared, concealed: x.concealed }).collect();
    let total = i64::from(sc.total);
    let payments = if pay_on {
        let p = Payment { payer: 1, payee: 0, amount: total + 8 };
        Payments::from_array([p, p, p], 3)
    } else { Payments::default() };
    Score {
        variant: "mcr", fans, raw_total: total, total, unit: Unit::Fan, meets_minimum: sc.meets_minimum,
        per_payer: 8 + total, players: 4, payments,
        decomposition: Some(Reading::Tiles(Decomposition { form, sets, pair: sc.pair, pairs: sc.pairs, knitted: sc.knitted, wildcards: Vec::new() })),
        extras: if ext_on { vec![("total_without_flowers", Value::from(sc.total_without_flowers))] } else { Extras::default() },
    }
}

fn main() {
    let text = std::fs::read_to_string("/work/shared/cases/mcr_dev.jsonl").unwrap();
    let mut sits = Vec::new();
    for line in text.lines().filter(|l| l.contains("\"gen-")) {
        let v: Value = serde_json::from_str(line).unwrap();
        let mut m = serde_json::Map::new();
        for k in ["hand", "situation"] { if let Some(x) = v.get(k) { m.insert(k.into(), x.clone()); } }
        sits.push(Situation::from_case(&Value::Object(m)).unwrap());
    }
    let v = Variant::with_options("mcr", [("flag_policy", hupai_core::preset::SwitchValue::Str("repair".into()))]).unwrap();
    let r = mcr::rules_of(&v).unwrap();
    let modes: [(&str, bool, bool, bool); 5] = [("bare", false, false, false), ("+fans", true, false, false), ("+pay", false, true, false), ("+ext", false, false, true), ("all", true, true, true)];
    let defs: Vec<&'static hupai_core::preset::FanDef> = v.preset().fans.iter().collect();
    let mut best = [f64::MAX; 7];
    let mut n = 0i64;
    for _ in 0..30 {
        let t = std::time::Instant::now();
        for s in &sits { n += i64::from(black_box(mcr::score(s, r).unwrap()).total); }
        best[0] = best[0].min(t.elapsed().as_nanos() as f64 / sits.len() as f64);
        for (k, m) in modes.iter().enumerate() {
            let t = std::time::Instant::now();
            for s in &sits { n += black_box(build(mcr::score(s, r).unwrap(), r, m.1, m.2, m.3)).total; }
            best[k + 1] = best[k + 1].min(t.elapsed().as_nanos() as f64 / sits.len() as f64);
        }
        let t = std::time::Instant::now();
        for s in &sits { n += black_box(build16(mcr::score(s, r).unwrap(), &defs, r)).1; }
        best[6] = best[6].min(t.elapsed().as_nanos() as f64 / sits.len() as f64);
    }
    print!("mcr {:.0}", best[0]);
    for (k, m) in modes.iter().enumerate() { print!("  {} {:+.0}", m.0, best[k + 1] - best[0]); }
    println!("  hit16-only {:+.0} ({n})", best[6] - best[0]);
}
