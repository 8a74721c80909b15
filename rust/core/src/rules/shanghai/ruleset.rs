//! The 上海 清混碰 [`Ruleset`]: the highest P pattern + the S items, (底 + 花) × 2^番 capped by the
//! 勒子; the settlement (承包, 抢杠 three shares, 一炮多响); the table's special wins and carry.

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{Pending, ShanghaiRules, ShanghaiScore};
use crate::decompose::Shapes;
use crate::error::{Error, Result};
use crate::game::flow::{Carry, FlowFacts, HandEnd, Rotation, SeatState, WinOption};
use crate::preset::{FanOp, Options, PresetData};
use crate::rules::{Book, Case, Ruleset, TableWin, TileBook};
use crate::scoring::record::{HandRecord, RecordSpec, int_in};
use crate::scoring::score::{FanHit, Reading, Score, Unit};
use crate::situation::{Situation, WinType};
use crate::tile::Counts;

/// The 上海 ruleset.
#[derive(Debug)]
pub struct Shanghai {
    pub rules: ShanghaiRules,
    preset: &'static PresetData,
    flow: FlowFacts,
}

/// Compile the `shanghai` preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    let rules = ShanghaiRules::compile(p, o)?;
    let mut flow = FlowFacts::from_data(p, o);
    flow.shapes = Shapes::STANDARD;
    flow.rotation = Rotation::WinnerDeals {
        nearest_winner: o.str("multi_winner_dealer")? == "nearest_winner",
    };
    Ok(Arc::new(Shanghai {
        rules,
        preset: p,
        flow,
    }))
}

/// The 上海 rules of a variant.
pub fn rules_of(v: &crate::Variant) -> Result<&ShanghaiRules> {
    v.rules_as::<Shanghai>()
        .map(|m| &m.rules)
        .ok_or_else(|| Error::rule(format!("variant {} is not a shanghai variant", v.id())))
}

/// The S items add 番; the P pattern is the base.
const ADDED: &[&str] = &[
    "GANG_KAI",
    "DA_DIAO_CHE",
    "KAI_BAO",
    "HUANG_FAN",
    "MEN_QING",
    "DAN_DIAO",
];

impl Shanghai {
    fn to_score(&self, sc: ShanghaiScore) -> Score {
        Score {
            variant: self.preset.id.as_str(),
            fans: sc
                .fans
                .into_iter()
                .map(|(id, zh, en, v, n)| {
                    let op = if ADDED.contains(&id.as_str()) {
                        FanOp::Add
                    } else {
                        FanOp::Base
                    };
                    FanHit::new(self.preset.fan_named(&id, &zh, &en), v, op, n)
                })
                .collect(),
            raw_total: sc.fan_total,
            total: sc.fan_total,
            unit: Unit::Fan,
            meets_minimum: true,
            per_payer: sc.share,
            players: 4,
            payments: Default::default(),
            decomposition: sc.decomposition.map(Reading::Tiles),
            extras: Default::default(),
        }
        .with_extras(vec![
            ("cap", json!(sc.cap)),
            ("hua", json!(sc.hua)),
            ("raw_share", json!(sc.raw_share)),
            ("self_draw_payment", json!(sc.self_draw_payment)),
            ("win_type", json!(sc.win_type.name())),
        ])
    }
}

impl TileBook for Shanghai {
    fn id(&self) -> &'static str {
        self.preset.id.as_str()
    }
    fn seats(&self) -> u8 {
        4
    }
    fn spec(&self) -> RecordSpec {
        RecordSpec {
            kong_types: &["open", "added", "concealed"],
            win_keys: &["claims"],
            draw_keys: Some(&[]),
            ..RecordSpec::default()
        }
    }
    fn evaluate(&self, s: &Situation) -> Result<Score> {
        s.check_flags(
            "shanghai",
            &[
                "wild_indicator",
                "kai_bao",
                "huang_fan",
                "dragon_flowers",
                "ready_declared",
            ],
        )?;
        Ok(self.to_score(self.rules.score(s, Pending::of(s))?))
    }
    /// Kongs pay nothing (they count as 花 in the hand). Each win: a self-draw (and 杠开, 八花齐)
    /// is paid a share by each other player, a discard win by the discarder, 抢杠 three shares by
    /// the robbed player; `claims` (`{seat: n}`, the winner's 吃/碰/直杠 from each player) makes a
    /// player with `chengbao_claims` claims pay for the others (承包). Several wins only on one
    /// discard (一炮多响); no win = 和局.
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()> {
        let r = &self.rules;
        let mut discarder0: Option<Option<usize>> = None;
        let mut winners = Vec::new();
        for (k, (i, winner, discarder, case, extra)) in rec.wins().enumerate() {
            let Case::Tiles(s) = case else { continue };
            let at = format!("events[{i}]");
            if winners.contains(&winner) {
                return Err(Error::settlement(format!(
                    "{at}: {} already won",
                    rec.seats[winner]
                )));
            }
            match discarder0 {
                Some(d0) if d0.is_none() || d0 != discarder => {
                    return Err(Error::settlement(format!(
                        "{at}: several wins only on the same discard (一炮多响)"
                    )));
                }
                _ => {}
            }
            discarder0 = Some(discarder);
            let sc = &scores[k];
            let mut chengbao = None;
            match extra.get("claims") {
                None | Some(Value::Null) => {}
                Some(Value::Object(c)) => {
                    for (name, n) in c {
                        let who = rec.seat(name, &format!("{at}.claims"))?;
                        let n = int_in(Some(n), &format!("{at}.claims.{name}"), 0, 0, 4)?;
                        if who == winner && n > 0 {
                            return Err(Error::settlement(format!(
                                "{at}: the winner cannot claim from himself"
                            )));
                        }
                        if n >= r.chengbao_claims {
                            chengbao = Some(who);
                        }
                    }
                }
                Some(_) => {
                    return Err(Error::settlement(format!(
                        "{at}.claims: an object {{seat: count}}"
                    )));
                }
            }
            let share = sc.per_payer;
            let cap = sc.extra("cap").and_then(Value::as_i64).unwrap_or(0);
            let self_draw_payment = sc
                .extra("self_draw_payment")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let shares = |k: i64| {
                if r.cap_per_person && cap > 0 {
                    (share * k).min(cap)
                } else {
                    share * k
                }
            };
            let mut lines: BTreeMap<usize, i64> = BTreeMap::new();
            let others: Vec<usize> = (0..4).filter(|&x| x != winner).collect();
            if s.win_type == WinType::RobKong {
                let d = discarder.ok_or_else(|| {
                    Error::settlement("抢杠 needs \"discarder\" (the robbed player)")
                })?;
                lines.insert(d, shares(3));
            } else if self_draw_payment {
                match chengbao {
                    Some(c) => {
                        lines.insert(c, shares(3));
                    }
                    None => {
                        for &o in &others {
                            lines.insert(o, share);
                        }
                    }
                }
            } else {
                let d = discarder
                    .ok_or_else(|| Error::settlement("a win on a discard needs \"discarder\""))?;
                match chengbao {
                    Some(c) if c != d => {
                        lines.insert(c, share);
                        if r.bao_both {
                            lines.insert(d, share);
                        }
                    }
                    _ => {
                        lines.insert(d, share);
                    }
                }
            }
            let lines: Vec<(usize, usize, i64)> =
                lines.into_iter().map(|(p, a)| (p, winner, a)).collect();
            let hua = sc.extra("hua").and_then(Value::as_i64).unwrap_or(0);
            book.begin_win(k);
            book.pay(
                "WIN",
                &format!(
                    "{} wins: {} 番, 花 {hua}, share {share}",
                    rec.seats[winner], sc.total
                ),
                &lines,
            )?;
            book.end_win();
            winners.push(winner);
        }
        book.ledger.end_hand();
        Ok(())
    }
}

impl Ruleset for Shanghai {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn players(&self) -> u8 {
        4
    }
    fn tile_book(&self) -> Option<&dyn TileBook> {
        Some(self)
    }
    fn table(&self) -> Option<crate::rules::TablePart> {
        Some(crate::rules::TablePart::Mahjong(std::sync::Arc::new(
            super::table::ShanghaiTable,
        )))
    }
    fn flow(&self) -> Option<&FlowFacts> {
        Some(&self.flow)
    }
    /// The value at the table is one payer's share, with the pending 开宝/黄番 carried into the
    /// hand (the settlement pays the score the win was taken with).
    fn table_win(&self, q: &TableWin<'_>) -> Option<WinOption> {
        let mut sit = q.situation.clone();
        sit.extra.kai_bao = u8::try_from(q.ctx.pending_kai_bao).unwrap_or(u8::MAX);
        sit.extra.huang_fan = u8::try_from(q.ctx.pending_huang_fan).unwrap_or(u8::MAX);
        let sc = self.evaluate(&sit).ok()?;
        let sdp = sc
            .extra("self_draw_payment")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        Some(WinOption::from_score(sc.per_payer, sdp, sc))
    }
    /// 风一色 and 八花齐 are not shapes: any hand may be one tile from them.
    fn may_be_ready_outside_shapes(&self, _seat: &SeatState) -> bool {
        true
    }
    /// 八花齐 on the seat's own draw, and 风一色 in any arrangement.
    fn wins_outside_shapes(&self, seat: &SeatState, full: &Counts, win_type: WinType) -> bool {
        let honours_only =
            full[..27].iter().all(|&c| c == 0) && seat.melds.iter().all(|(m, _)| m.tile.is_honor());
        (seat.flowers >= 8 && win_type.is_self_drawn()) || honours_only
    }
    /// Pending 开宝/黄番: reset by a win; after a 和局 the 开宝 stays and 黄番 rises by one.
    fn next_carry(&self, end: &HandEnd, carry: Carry, _dealer_stays: bool) -> Result<Carry> {
        if carry.kai_bao > 20 || carry.huang_fan > 20 {
            return Err(Error::hand("pending 开宝/黄番 counts are 0..=20"));
        }
        let mut out = Carry::default();
        if end.winners.is_empty() {
            out.kai_bao = carry.kai_bao;
            out.huang_fan = (carry.huang_fan + 1).min(20);
        }
        Ok(out)
    }
}
