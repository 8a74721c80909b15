//! The 卡五星 [`Ruleset`] and the settlement of a hand record on the shared ledger (events in play
//! order; see `presets/README.md` for the record format):
//!
//! * `{"kind": "kong", "owner", "type", "feeder", "chain": n, "robbed": bool}` — 喜钱, instant:
//!   补杠 1 and 暗杠 2 from each other player, 直杠 2 from the feeder; the n-th kong of a 杠上杠
//!   chain ×2^(n−1) (switch kong_chain_cap = k6: at most ×2); a robbed kong pays nothing. Not
//!   doubled by 亮倒, not capped, stands at 荒庄.
//! * `{"kind": "win", "winner", "discarder", "hand", "situation": {…, "liangdao": bool},
//!   "liangdao": [other seats that declared 亮倒], "mai_ma": tile, "piao": {seat: n}}` — self-draw:
//!   each other pays the hand value; discard: the discarder pays it, or twice it (包胡) when the
//!   winner is 亮倒 and the discarder is not (or is, under 对亮包赔). 买码 adds the tail tile's rank
//!   (中发白 10) per payer after a self-draw; 漂 adds 漂(winner) + 漂(payer) per covered share.
//!   A second win is allowed only on the same discard (一炮双响).
//! * `{"kind": "draw", "players": {seat: {"hand": {"melds", "concealed"} | null, "liangdao":
//!   bool}}, "liangdao_order": [seats]}` — 荒庄 (switch draw_settlement).
//! * `{"kind": "forced_end", "payer", "held": [tiles], "liangdao_hands": {seat: hand}}` — K3: the
//!   payer's every tile wins for some 亮倒 player; he pays each the best value among his tiles.
//! * `table.base_factor` multiplies the 底 (上楼: 2).

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{DrawRule, KawuxingFlags, KawuxingRules, KawuxingScore, MaiMa};
use crate::error::{Error, Result};
use crate::game::flow::{FlowFacts, WinOption};
use crate::hand::Hand;
use crate::preset::{FanOp, Options, PresetData};
use crate::rules::{Book, Case, Ruleset, TableWin, TileBook};
use crate::scoring::record::{Event, HandRecord, RecordSpec, int_in};
use crate::scoring::score::{FanHit, Reading, Score, Unit};
use crate::situation::{KongKind, Situation};
use crate::tile::Tile;

/// The 卡五星 ruleset.
#[derive(Debug)]
pub struct Kawuxing {
    pub rules: KawuxingRules,
    preset: &'static PresetData,
    flow: FlowFacts,
}

/// Compile the `kawuxing` preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    let rules = KawuxingRules::compile(p, o)?;
    let mut flow = FlowFacts::from_data(p, o);
    flow.chi = false;
    flow.shapes = rules.shapes;
    flow.liangdao_discard_restriction = o.bool("liangdao_discard_restriction")?;
    Ok(Arc::new(Kawuxing {
        rules,
        preset: p,
        flow,
    }))
}

/// The 卡五星 rules of a variant.
pub fn rules_of(v: &crate::Variant) -> Result<&KawuxingRules> {
    v.rules_as::<Kawuxing>()
        .map(|m| &m.rules)
        .ok_or_else(|| Error::rule(format!("variant {} is not a 卡五星 variant", v.id())))
}

fn err(i: usize, msg: impl std::fmt::Display) -> Error {
    Error::settlement(format!("events[{i}]: {msg}"))
}

fn waiting_hand(v: &Value, what: &str, i: usize) -> Result<Hand> {
    crate::rules::sichuan::waiting_hand_from_json(&v.to_string())
        .map(|(h, _)| h)
        .map_err(|e| err(i, format!("{what}: {e}")))
}

fn seat_list(rec: &HandRecord, v: Option<&Value>, what: &str, i: usize) -> Result<Vec<usize>> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| {
                rec.seat_value(Some(x), what)
                    .and_then(|s| s.ok_or_else(|| err(i, format!("{what}: seat names"))))
            })
            .collect(),
        Some(_) => Err(err(i, format!("{what}: a list of seats"))),
    }
}

impl Kawuxing {
    fn to_score(&self, sc: KawuxingScore) -> Score {
        Score {
            variant: self.preset.id.as_str(),
            fans: sc
                .patterns
                .into_iter()
                .map(|p| {
                    FanHit::new(
                        self.preset.fan_named(&p.id, &p.zh, &p.en),
                        p.value,
                        FanOp::Mul,
                        p.count,
                    )
                })
                .collect(),
            raw_total: sc.raw,
            total: sc.value,
            unit: Unit::Multiplier,
            meets_minimum: true,
            per_payer: sc.value * self.rules.base,
            players: 3,
            payments: Default::default(),
            decomposition: Some(Reading::Tiles(sc.decomposition)),
            extras: Default::default(),
        }
        .with_extras(vec![
            ("capped", json!(sc.capped)),
            ("liangdao", json!(sc.liangdao)),
            ("win_type", json!(sc.win_type.name())),
        ])
    }

    fn piao_map(
        &self,
        rec: &HandRecord,
        v: Option<&Value>,
        i: usize,
    ) -> Result<BTreeMap<usize, i64>> {
        let mut out = BTreeMap::new();
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return Ok(out);
        };
        let Value::Object(m) = v else {
            return Err(err(i, "\"piao\" must be an object {seat: amount}"));
        };
        for (k, a) in m {
            let s = rec.seat(k, "piao seat").map_err(|x| err(i, x))?;
            let a = int_in(Some(a), &format!("piao of {k}"), 0, 0, 1000).map_err(|x| err(i, x))?;
            if a != 0 && !self.rules.piao {
                return Err(err(i, "漂 is off (switch piao = false)"));
            }
            out.insert(s, a);
        }
        Ok(out)
    }
}

impl TileBook for Kawuxing {
    fn id(&self) -> &'static str {
        self.preset.id.as_str()
    }
    fn seats(&self) -> u8 {
        3
    }
    fn spec(&self) -> RecordSpec {
        RecordSpec {
            kong_types: &["open", "added", "concealed"],
            kong_keys: &["chain", "robbed"],
            win_keys: &["liangdao", "mai_ma", "piao"],
            draw_keys: Some(&["players", "liangdao_order"]),
            other_events: &[("forced_end", &["payer", "held", "liangdao_hands"])],
            table_keys: &["base_factor"],
            ..RecordSpec::default()
        }
    }
    fn evaluate(&self, s: &Situation) -> Result<Score> {
        s.check_flags("kawuxing", &["liangdao"])?;
        let flags = KawuxingFlags {
            liangdao: s.extra.liangdao,
        };
        Ok(self.to_score(self.rules.score(s, flags)?))
    }
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()> {
        let r = &self.rules;
        let unit = r.base * rec.table_int("base_factor", 1, 1, 1024)?;
        let n = rec.seats.len();
        let others = |w: usize| (0..n).filter(move |&p| p != w);
        let mut ended = false;
        // After a win: the discarder (Some(None) after a self-draw) and the winners so far.
        let mut won: Option<Option<usize>> = None;
        let mut winners: Vec<usize> = Vec::new();
        let mut k = 0;
        for (i, e) in rec.events.iter().enumerate() {
            if ended {
                return Err(err(i, "the hand has already ended (荒庄 or forced end)"));
            }
            match e {
                Event::Kong {
                    owner,
                    kind,
                    feeder,
                    extra,
                } => {
                    if won.is_some() {
                        return Err(err(i, "no kong after a win: the hand is over"));
                    }
                    let chain =
                        int_in(extra.get("chain"), "chain", 1, 1, 16).map_err(|x| err(i, x))?;
                    let robbed = crate::scoring::record::bool_of(extra.get("robbed"), "robbed")
                        .map_err(|x| err(i, x))?;
                    if robbed {
                        continue; // 抢的杠不算杠
                    }
                    let mut factor = 1i64 << (chain - 1);
                    if r.kong_chain_k6 {
                        factor = factor.min(2);
                    }
                    let lines: Vec<(usize, usize, i64)> = match kind.as_str() {
                        "open" => {
                            let f = feeder
                                .ok_or_else(|| err(i, "直杠 (open kong) needs \"feeder\""))?;
                            vec![(f, *owner, 2 * factor * unit)]
                        }
                        _ => {
                            let a = if kind == "added" { 1 } else { 2 };
                            others(*owner)
                                .map(|p| (p, *owner, a * factor * unit))
                                .collect()
                        }
                    };
                    book.pay(
                        "KONG_INSTANT",
                        &format!(
                            "喜钱 {kind} kong of {} (杠上杠 chain #{chain}, ×{factor})",
                            rec.seats[*owner]
                        ),
                        &lines,
                    )?;
                }
                Event::Win {
                    winner,
                    discarder,
                    case,
                    extra,
                } => {
                    let Case::Tiles(s) = case else { continue };
                    let w = *winner;
                    if winners.contains(&w) {
                        return Err(err(
                            i,
                            format!("{} has already won this hand", rec.seats[w]),
                        ));
                    }
                    let sc = &scores[k];
                    let liangdao = s.extra.liangdao;
                    let declared = seat_list(rec, extra.get("liangdao"), "liangdao", i)?;
                    let piao = self.piao_map(rec, extra.get("piao"), i)?;
                    let pz = |x: usize| piao.get(&x).copied().unwrap_or(0);
                    let self_drawn = s.is_self_drawn();
                    match (&won, self_drawn, discarder) {
                        (Some(Some(d0)), false, Some(d)) if d0 == d => {}
                        (Some(_), _, _) => {
                            return Err(err(
                                i,
                                "only 一炮双响 allows a second win: a discard win on the same discarder",
                            ));
                        }
                        _ => {}
                    }
                    let value = sc.total * unit;
                    let mai_ma = match extra.get("mai_ma") {
                        None | Some(Value::Null) => 0,
                        Some(Value::String(tx)) => {
                            let tile =
                                Tile::parse(tx).map_err(|x| err(i, format!("mai_ma: {x}")))?;
                            let on = self_drawn
                                && match r.mai_ma {
                                    MaiMa::SelfDraw => true,
                                    MaiMa::LiangdaoSelfDraw => liangdao,
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
                        Some(x) => return Err(err(i, format!("mai_ma: a tile, got {x}"))),
                    };
                    let mut lines = Vec::new();
                    match discarder.filter(|_| !self_drawn) {
                        None => {
                            for p in others(w) {
                                lines.push((p, w, value + mai_ma + (pz(w) + pz(p)) * unit));
                            }
                            won = Some(None);
                        }
                        Some(d) => {
                            let bao = liangdao && (!declared.contains(&d) || r.dui_liang_bao);
                            let mut a = value + (pz(w) + pz(d)) * unit;
                            if bao {
                                let third = others(w).find(|&x| x != d).unwrap_or(d);
                                a += value + (pz(w) + pz(third)) * unit;
                            }
                            lines.push((d, w, a));
                            won = Some(Some(d));
                        }
                    }
                    let capped = sc.extra("capped").and_then(Value::as_bool).unwrap_or(false);
                    book.begin_win(k);
                    book.pay(
                        "WIN",
                        &format!(
                            "{} wins ×{}{}",
                            rec.seats[w],
                            sc.total,
                            if capped { " (capped)" } else { "" }
                        ),
                        &lines,
                    )?;
                    book.end_win();
                    winners.push(w);
                    k += 1;
                }
                Event::Other { kind, data } if kind == "draw" => {
                    if won.is_some() {
                        return Err(err(i, "荒庄 after a win"));
                    }
                    ended = true;
                    self.draw(rec, data, unit, i, book)?;
                }
                Event::Other { data, .. } => {
                    if won.is_some() {
                        return Err(err(i, "forced end after a win"));
                    }
                    ended = true;
                    self.forced_end(rec, data, unit, i, book)?;
                }
            }
        }
        Ok(())
    }
}

impl Kawuxing {
    fn draw(
        &self,
        rec: &HandRecord,
        e: &Map<String, Value>,
        unit: i64,
        i: usize,
        book: &mut Book,
    ) -> Result<()> {
        let r = &self.rules;
        let n = rec.seats.len();
        let Some(Value::Object(players)) = e.get("players") else {
            return Err(err(i, "draw needs \"players\": {seat: {hand, liangdao}}"));
        };
        for key in players.keys() {
            rec.seat(key, "players").map_err(|x| err(i, x))?;
        }
        let mut liang = vec![false; n];
        let mut jiao: Vec<Option<i64>> = vec![None; n];
        for (s, name) in rec.seats.iter().enumerate() {
            let p = players.get(name).cloned().unwrap_or(Value::Null);
            if let Value::Object(o) = &p {
                crate::scoring::record::check_keys(
                    o,
                    &format!("events[{i}].players.{name}"),
                    &["hand", "liangdao"],
                    &[],
                )?;
            }
            let ld = crate::scoring::record::bool_of(p.get("liangdao"), "liangdao")
                .map_err(|x| err(i, x))?;
            let dj = match p.get("hand") {
                None | Some(Value::Null) => None,
                Some(h) => {
                    let hand = waiting_hand(h, &format!("players.{name}.hand"), i)?;
                    r.da_jiao(&hand, ld)
                        .map_err(|x| err(i, format!("players.{name}: {x}")))?
                        .map(|(_, v)| v * unit)
                }
            };
            if ld && dj.is_none() {
                return Err(err(
                    i,
                    format!("{name} declared 亮倒 but the hand given is not ready"),
                ));
            }
            liang[s] = ld;
            jiao[s] = dj;
        }
        let mut lines = Vec::new();
        let kind = match r.draw_rule {
            DrawRule::K3ChaJiao => {
                let all_ready = jiao.iter().all(Option::is_some);
                for p in 0..n {
                    for q in 0..n {
                        if p == q {
                            continue;
                        }
                        let pays = if all_ready {
                            liang[p] && !liang[q]
                        } else {
                            jiao[p].is_none() && jiao[q].is_some()
                        };
                        if pays {
                            lines.push((p, q, jiao[q].unwrap_or(0)));
                        }
                    }
                }
                "CHA_JIAO"
            }
            DrawRule::LiangdaoPays => {
                for p in (0..n).filter(|&p| liang[p]) {
                    for q in (0..n).filter(|&q| !liang[q]) {
                        lines.push((p, q, unit));
                    }
                }
                "LIANGDAO_DRAW"
            }
            DrawRule::FirstLiangdaoPays => {
                let order = seat_list(rec, e.get("liangdao_order"), "liangdao_order", i)?;
                let first = order
                    .first()
                    .copied()
                    .or_else(|| (0..n).find(|&s| liang[s]));
                if let Some(f) = first {
                    for q in (0..n).filter(|&q| q != f) {
                        lines.push((f, q, unit));
                    }
                }
                "LIANGDAO_DRAW"
            }
        };
        book.pay(kind, "荒庄 (kong money stands; the dealer stays)", &lines)?;
        book.ledger.end_hand();
        Ok(())
    }

    fn forced_end(
        &self,
        rec: &HandRecord,
        e: &Map<String, Value>,
        unit: i64,
        i: usize,
        book: &mut Book,
    ) -> Result<()> {
        let payer = rec
            .seat_value(e.get("payer"), "payer")
            .map_err(|x| err(i, x))?
            .ok_or_else(|| err(i, "forced_end needs \"payer\""))?;
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
        for (name, h) in hands {
            let l = rec.seat(name, "liangdao_hands").map_err(|x| err(i, x))?;
            if l == payer {
                return Err(err(i, "the payer of a forced end is not 亮倒"));
            }
            let hand = waiting_hand(h, &format!("liangdao_hands.{name}"), i)?;
            let best = held
                .iter()
                .filter_map(|&x| self.rules.value_on(&hand, x, true))
                .max();
            if let Some(v) = best {
                lines.push((payer, l, v * unit));
            }
        }
        if lines.is_empty() {
            return Err(err(i, "forced end: no held tile wins for any 亮倒 player"));
        }
        book.pay("FORCED_END", "K3 forced end", &lines)?;
        book.ledger.end_hand();
        Ok(())
    }
}

impl Ruleset for Kawuxing {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn players(&self) -> u8 {
        3
    }
    fn tile_book(&self) -> Option<&dyn TileBook> {
        Some(self)
    }
    fn table(&self) -> Option<crate::rules::TablePart> {
        Some(crate::rules::TablePart::Mahjong(std::sync::Arc::new(
            super::table::KawuxingTable,
        )))
    }
    fn tile_set(&self, preset: &PresetData, options: &Options) -> Result<Vec<Tile>> {
        crate::rules::default_tile_set(preset, options, &self.rules.suits)
    }
    fn flow(&self) -> Option<&FlowFacts> {
        Some(&self.flow)
    }
    /// A 亮倒 seat (`hand_locked`) wins with 亮倒; the value is the capped multiplier.
    fn table_win(&self, q: &TableWin<'_>) -> Option<WinOption> {
        let flags = KawuxingFlags {
            liangdao: q.seat.hand_locked,
        };
        let sc = self.rules.score(&q.situation, flags).ok()?;
        let sdp = q.situation.is_self_drawn();
        let sc = self.to_score(sc);
        Some(WinOption::from_score(sc.total, sdp, sc))
    }
    /// 大叫: `{"ready", "tile", "value"}` of the best winning tile as a discard win (亮倒 ×2
    /// when `flags.liangdao`).
    fn waiting_value(
        &self,
        hand: &Hand,
        _kong_kinds: &[Option<KongKind>],
        flags: &Map<String, Value>,
    ) -> Result<Value> {
        crate::scoring::record::check_keys(flags, "waiting value", &[], &["liangdao"])
            .map_err(|e| Error::hand(e.to_string()))?;
        let ld = crate::scoring::record::bool_of(flags.get("liangdao"), "liangdao")
            .map_err(|e| Error::hand(e.to_string()))?;
        let best = self.rules.da_jiao(hand, ld)?;
        Ok(json!({
            "ready": best.is_some(),
            "tile": best.map(|b| b.0.to_string()),
            "value": best.map(|b| b.1),
        }))
    }
}
