//! 卡五星 settlement of one hand on the shared ledger: a list of table events in play order
//! (JSON objects, `kind` = `kong`, `win`, `draw` or `forced_end`) becomes zero-sum ledger events.
//!
//! * `{"kind": "kong", "owner": s, "type": "open"|"added"|"concealed", "feeder": s, "chain": n,
//!   "robbed": bool}` — 喜钱, instant: 补杠 1 and 暗杠 2 from each other player, 直杠 2 from the
//!   feeder; the n-th kong of a 杠上杠 chain ×2^(n−1) (switch kong_chain_cap = k6: at most ×2);
//!   a robbed kong pays nothing. Not doubled by 亮倒, not capped, stands at 荒庄.
//! * `{"kind": "win", "winner": s, "hand": …, "situation": {…, "liangdao": bool}, "discarder": s,
//!   "liangdao": [other seats that declared 亮倒], "mai_ma": tile, "piao": {seat: n}}` — self-draw:
//!   each other pays the hand value; discard: the discarder pays it, or twice it (包胡) when the
//!   winner is 亮倒 and the discarder is not (or is, under 对亮包赔). 买码 adds the tail tile's rank
//!   (中发白 10) per payer after a self-draw; 漂 adds 漂(winner) + 漂(payer) per covered share.
//!   A second win is allowed only on the same discard (一炮双响).
//! * `{"kind": "draw", "players": {seat: {"hand": {"melds": …, "concealed": …} | null,
//!   "liangdao": bool}}, "liangdao_order": [seats]}` — 荒庄 (switch draw_settlement).
//! * `{"kind": "forced_end", "payer": s, "held": [tiles], "liangdao_hands": {seat: hand}}` — K3:
//!   the payer's every tile wins for some 亮倒 player; he pays each the best value among his tiles.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{DrawRule, KawuxingFlags, KawuxingRules, KawuxingScore, MaiMa, situation_from_value};
use crate::error::{Error, Result};
use crate::scoring::ledger::{Ledger, SettlementRules};
use crate::tile::Tile;

fn err(i: usize, msg: impl std::fmt::Display) -> Error {
    Error::settlement(format!("events[{i}]: {msg}"))
}

fn str_field<'a>(e: &'a Value, key: &str, i: usize) -> Result<Option<&'a str>> {
    match e.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(err(i, format!("{key:?} must be a seat name, got {other}"))),
    }
}

struct Table<'a> {
    seats: &'a [String],
}

impl Table<'_> {
    fn seat(&self, name: &str, what: &str, i: usize) -> Result<String> {
        if self.seats.iter().any(|s| s == name) {
            Ok(name.to_string())
        } else {
            Err(err(
                i,
                format!("{what} {name:?} is not a seat ({})", self.seats.join(", ")),
            ))
        }
    }
    fn others(&self, who: &str) -> Vec<String> {
        self.seats.iter().filter(|s| *s != who).cloned().collect()
    }
}

fn waiting_hand(v: &Value, what: &str, i: usize) -> Result<crate::hand::Hand> {
    let text = v.to_string();
    crate::rules::sichuan::waiting_hand_from_json(&text)
        .map(|(h, _)| h)
        .map_err(|e| err(i, format!("{what}: {e}")))
}

fn piao_map(
    v: Option<&Value>,
    t: &Table<'_>,
    i: usize,
    allowed: bool,
) -> Result<BTreeMap<String, i64>> {
    let mut out = BTreeMap::new();
    let Some(v) = v else { return Ok(out) };
    let Value::Object(m) = v else {
        return Err(err(i, "\"piao\" must be an object {seat: amount}"));
    };
    for (k, a) in m {
        let s = t.seat(k, "piao seat", i)?;
        let Some(a) = a.as_i64().filter(|a| (0..=1000).contains(a)) else {
            return Err(err(
                i,
                format!("piao of {k}: {a} is not an amount in 0..=1000"),
            ));
        };
        if a != 0 && !allowed {
            return Err(err(i, "漂 is off (switch piao = false)"));
        }
        out.insert(s, a);
    }
    Ok(out)
}

/// Settle one 卡五星 hand. `base_factor` multiplies the 底 (上楼: 2).
pub fn settle(
    r: &KawuxingRules,
    seats: &[String],
    events: &[Value],
    base_factor: i64,
) -> Result<Ledger> {
    settle_scored(r, seats, events, base_factor, &[])
}

/// [`settle`] with the wins already scored, in the order of the `win` events (the table settles
/// each win with the score it was taken with); a win without a score is scored from its event.
pub fn settle_scored(
    r: &KawuxingRules,
    seats: &[String],
    events: &[Value],
    base_factor: i64,
    scored: &[KawuxingScore],
) -> Result<Ledger> {
    if seats.len() != 3 {
        return Err(Error::settlement(format!(
            "卡五星 is settled between the 3 players in the hand, got {} seats",
            seats.len()
        )));
    }
    if !(1..=1024).contains(&base_factor) {
        return Err(Error::settlement(format!(
            "base_factor {base_factor} is not in 1..=1024"
        )));
    }
    let unit = r.base * base_factor;
    let mut ledger = Ledger::new(
        seats.to_vec(),
        SettlementRules {
            base: unit,
            ..SettlementRules::default()
        },
    )?;
    let t = Table { seats };
    let mut ended = false;
    // After a win: the discarder (Some(None) after a self-draw) and the winners so far.
    let mut won: Option<Option<String>> = None;
    let mut winners: Vec<String> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        if ended {
            return Err(err(i, "the hand has already ended (荒庄 or forced end)"));
        }
        let kind = e.get("kind").and_then(Value::as_str).unwrap_or("");
        match kind {
            "kong" => {
                if won.is_some() {
                    return Err(err(i, "no kong after a win: the hand is over"));
                }
                let owner = t.seat(
                    str_field(e, "owner", i)?.ok_or_else(|| err(i, "kong needs \"owner\""))?,
                    "owner",
                    i,
                )?;
                let chain = match e.get("chain") {
                    None | Some(Value::Null) => 1,
                    Some(c) => c
                        .as_i64()
                        .filter(|c| (1..=16).contains(c))
                        .ok_or_else(|| err(i, format!("\"chain\" must be 1..=16, got {c}")))?,
                };
                if e.get("robbed").and_then(Value::as_bool).unwrap_or(false) {
                    continue; // 抢的杠不算杠
                }
                let mut factor = 1i64 << (chain - 1);
                if r.kong_chain_k6 {
                    factor = factor.min(2);
                }
                let ty = e.get("type").and_then(Value::as_str).unwrap_or("");
                let lines: Vec<(String, String, i64)> = match ty {
                    "open" | "kong_open" => {
                        let f = str_field(e, "feeder", i)?
                            .ok_or_else(|| err(i, "直杠 (open kong) needs \"feeder\""))?;
                        let f = t.seat(f, "feeder", i)?;
                        if f == owner {
                            return Err(err(i, "the feeder of a 直杠 cannot be its owner"));
                        }
                        vec![(f, owner.clone(), 2 * factor * unit)]
                    }
                    "added" | "kong_added" | "concealed" | "kong_concealed" => {
                        let a = if ty.ends_with("added") { 1 } else { 2 };
                        t.others(&owner)
                            .into_iter()
                            .map(|p| (p, owner.clone(), a * factor * unit))
                            .collect()
                    }
                    other => {
                        return Err(err(
                            i,
                            format!("kong type {other:?} (open, added, concealed)"),
                        ));
                    }
                };
                ledger.record_payments(
                    "KONG_INSTANT",
                    &format!("喜钱 {ty} kong of {owner} (杠上杠 chain #{chain}, ×{factor})"),
                    &lines,
                    None,
                )?;
            }
            "win" => {
                let w = t.seat(
                    str_field(e, "winner", i)?.ok_or_else(|| err(i, "win needs \"winner\""))?,
                    "winner",
                    i,
                )?;
                if winners.contains(&w) {
                    return Err(err(i, format!("{w} has already won this hand")));
                }
                let (s, flags): (_, KawuxingFlags) =
                    situation_from_value(e).map_err(|x| err(i, x))?;
                let sc = match scored.get(winners.len()) {
                    Some(x) => x.clone(),
                    None => r.score(&s, flags).map_err(|x| err(i, x))?,
                };
                let declared: Vec<String> = match e.get("liangdao") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(a)) => a
                        .iter()
                        .map(|x| {
                            x.as_str()
                                .ok_or_else(|| err(i, "\"liangdao\" lists seat names"))
                                .and_then(|n| t.seat(n, "liangdao seat", i))
                        })
                        .collect::<Result<_>>()?,
                    Some(_) => return Err(err(i, "\"liangdao\" must be a list of seats")),
                };
                let piao = piao_map(e.get("piao"), &t, i, r.piao)?;
                let pz = |k: &str| piao.get(k).copied().unwrap_or(0);
                let discarder = match str_field(e, "discarder", i)? {
                    Some(d) => Some(t.seat(d, "discarder", i)?),
                    None => None,
                };
                let self_drawn = s.is_self_drawn();
                match (&won, self_drawn, &discarder) {
                    (Some(Some(d0)), false, Some(d)) if d0 == d => {}
                    (Some(_), _, _) => {
                        return Err(err(
                            i,
                            "only 一炮双响 allows a second win: a discard win on the same discarder",
                        ));
                    }
                    _ => {}
                }
                let value = sc.value * unit;
                let mai_ma = match str_field(e, "mai_ma", i)? {
                    None => 0,
                    Some(tx) => {
                        let tile = Tile::parse(tx).map_err(|x| err(i, format!("mai_ma: {x}")))?;
                        let on = self_drawn
                            && match r.mai_ma {
                                MaiMa::SelfDraw => true,
                                MaiMa::LiangdaoSelfDraw => flags.liangdao,
                                MaiMa::Off => false,
                            };
                        if !on {
                            return Err(err(
                                i,
                                "买码 does not apply to this win (self-draw only; see switch mai_ma)",
                            ));
                        }
                        if !r.tile_kinds().contains(&tile) {
                            return Err(err(
                                i,
                                format!("mai_ma: {tile} is not in the 84-tile set"),
                            ));
                        }
                        (tile.rank().map_or(10, i64::from)) * unit
                    }
                };
                let mut lines = Vec::new();
                if self_drawn {
                    if discarder.is_some() {
                        return Err(err(i, "a self-drawn win has no discarder"));
                    }
                    for p in t.others(&w) {
                        let a = value + mai_ma + (pz(&w) + pz(&p)) * unit;
                        lines.push((p, w.clone(), a));
                    }
                    won = Some(None);
                } else {
                    let Some(d) = discarder.clone() else {
                        return Err(err(i, "a win on a discard needs \"discarder\""));
                    };
                    if d == w {
                        return Err(err(i, "the discarder cannot be the winner"));
                    }
                    let bao = flags.liangdao && (!declared.contains(&d) || r.dui_liang_bao);
                    let mut a = value + (pz(&w) + pz(&d)) * unit;
                    if bao {
                        let third = t
                            .others(&w)
                            .into_iter()
                            .find(|x| *x != d)
                            .unwrap_or_default();
                        a += value + (pz(&w) + pz(&third)) * unit;
                    }
                    lines.push((d.clone(), w.clone(), a));
                    won = Some(Some(d));
                }
                let reason = format!(
                    "{w} wins ×{}{}",
                    sc.value,
                    if sc.capped { " (capped)" } else { "" }
                );
                ledger.record_payments("WIN", &reason, &lines, None)?;
                winners.push(w);
            }
            "draw" => {
                if won.is_some() {
                    return Err(err(i, "荒庄 after a win"));
                }
                ended = true;
                let Some(Value::Object(players)) = e.get("players") else {
                    return Err(err(i, "draw needs \"players\": {seat: {hand, liangdao}}"));
                };
                let mut liang = BTreeMap::new();
                let mut jiao: BTreeMap<String, Option<i64>> = BTreeMap::new();
                for s in seats {
                    let p = players.get(s).cloned().unwrap_or(Value::Null);
                    let ld = p.get("liangdao").and_then(Value::as_bool).unwrap_or(false);
                    let dj = match p.get("hand") {
                        None | Some(Value::Null) => None,
                        Some(h) => {
                            let hand = waiting_hand(h, &format!("players.{s}.hand"), i)?;
                            r.da_jiao(&hand, ld)
                                .map_err(|x| err(i, format!("players.{s}: {x}")))?
                                .map(|(_, v)| v * unit)
                        }
                    };
                    if ld && dj.is_none() {
                        return Err(err(
                            i,
                            format!("{s} declared 亮倒 but the hand given is not ready"),
                        ));
                    }
                    liang.insert(s.clone(), ld);
                    jiao.insert(s.clone(), dj);
                }
                for k in players.keys() {
                    t.seat(k, "players", i)?;
                }
                let mut lines = Vec::new();
                let kind = match r.draw_rule {
                    DrawRule::K3ChaJiao => {
                        let all_ready = jiao.values().all(Option::is_some);
                        for p in seats {
                            for q in seats {
                                if p == q {
                                    continue;
                                }
                                let pays = if all_ready {
                                    liang[p] && !liang[q]
                                } else {
                                    jiao[p].is_none() && jiao[q].is_some()
                                };
                                if pays {
                                    lines.push((p.clone(), q.clone(), jiao[q].unwrap_or(0)));
                                }
                            }
                        }
                        "CHA_JIAO"
                    }
                    DrawRule::LiangdaoPays => {
                        for p in seats.iter().filter(|p| liang[*p]) {
                            for q in seats.iter().filter(|q| !liang[*q]) {
                                lines.push((p.clone(), q.clone(), unit));
                            }
                        }
                        "LIANGDAO_DRAW"
                    }
                    DrawRule::FirstLiangdaoPays => {
                        let first = match e.get("liangdao_order") {
                            Some(Value::Array(a)) => a.first().and_then(Value::as_str),
                            _ => None,
                        };
                        let first = match first {
                            Some(f) => Some(t.seat(f, "liangdao_order", i)?),
                            None => seats.iter().find(|s| liang[*s]).cloned(),
                        };
                        if let Some(f) = first {
                            for q in t.others(&f) {
                                lines.push((f.clone(), q, unit));
                            }
                        }
                        "LIANGDAO_DRAW"
                    }
                };
                ledger.record_payments(
                    kind,
                    "荒庄 (kong money stands; the dealer stays)",
                    &lines,
                    None,
                )?;
                ledger.end_hand();
            }
            "forced_end" => {
                if won.is_some() {
                    return Err(err(i, "forced end after a win"));
                }
                ended = true;
                let payer = t.seat(
                    str_field(e, "payer", i)?
                        .ok_or_else(|| err(i, "forced_end needs \"payer\""))?,
                    "payer",
                    i,
                )?;
                let held: Vec<Tile> = match e.get("held") {
                    Some(Value::Array(a)) => a
                        .iter()
                        .map(|x| {
                            x.as_str()
                                .ok_or_else(|| err(i, "held lists tiles"))
                                .and_then(|s| Tile::parse(s).map_err(|x| err(i, x)))
                        })
                        .collect::<Result<_>>()?,
                    _ => return Err(err(i, "forced_end needs \"held\": [tiles]")),
                };
                let Some(Value::Object(hands)) = e.get("liangdao_hands") else {
                    return Err(err(i, "forced_end needs \"liangdao_hands\": {seat: hand}"));
                };
                let mut lines = Vec::new();
                for (k, h) in hands {
                    let l = t.seat(k, "liangdao_hands", i)?;
                    if l == payer {
                        return Err(err(i, "the payer of a forced end is not 亮倒"));
                    }
                    let hand = waiting_hand(h, &format!("liangdao_hands.{k}"), i)?;
                    let best = held
                        .iter()
                        .filter_map(|&x| r.value_on(&hand, x, true))
                        .max();
                    if let Some(v) = best {
                        lines.push((payer.clone(), l, v * unit));
                    }
                }
                if lines.is_empty() {
                    return Err(err(i, "forced end: no held tile wins for any 亮倒 player"));
                }
                ledger.record_payments("FORCED_END", "K3 forced end", &lines, None)?;
                ledger.end_hand();
            }
            other => {
                return Err(err(
                    i,
                    format!("unknown event kind {other:?} (kong, win, draw, forced_end)"),
                ));
            }
        }
    }
    Ok(ledger)
}
