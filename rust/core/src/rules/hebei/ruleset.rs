//! The 河北 推倒胡 [`Ruleset`]: one pattern per win (then the situational floor), kongs paid at once
//! or only at the end of a won hand (荒庄荒杠), 报听 at the table.

use std::any::Any;
use std::sync::Arc;

use serde_json::json;

use super::{DiscardPayers, HebeiRules, HebeiScore};
use crate::error::{Error, Result};
use crate::game::flow::{FlowFacts, WinOption};
use crate::preset::{FanOp, Options, PresetData};
use crate::rules::{Book, Case, Ruleset, TableWin, TileBook};
use crate::scoring::record::{HandRecord, RecordSpec};
use crate::scoring::score::{FanHit, Reading, Score, Unit};
use crate::situation::Situation;

/// The 河北 ruleset.
#[derive(Debug)]
pub struct Hebei {
    pub rules: HebeiRules,
    preset: &'static PresetData,
    flow: FlowFacts,
}

/// Compile the `hebei` preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    let rules = HebeiRules::compile(p, o)?;
    let mut flow = FlowFacts::from_data(p, o);
    flow.chi = rules.chi_allowed;
    flow.shapes = rules.shapes;
    flow.ting = true;
    flow.ting_required = o.str("bao_ting")? == "required";
    Ok(Arc::new(Hebei {
        rules,
        preset: p,
        flow,
    }))
}

/// The 河北 rules of a variant.
pub fn rules_of(v: &crate::Variant) -> Result<&HebeiRules> {
    v.rules_as::<Hebei>()
        .map(|m| &m.rules)
        .ok_or_else(|| Error::rule(format!("variant {} is not a hebei variant", v.id())))
}

fn hit(p: &'static PresetData, (id, zh, en, v): (String, String, String, i64)) -> FanHit {
    FanHit::new(p.fan_named(&id, &zh, &en), v, FanOp::Base, 1)
}

impl Hebei {
    fn to_score(&self, sc: HebeiScore, self_drawn: bool) -> Score {
        let mut per_payer = sc.points * self.rules.base;
        if self.rules.zimo_double && self_drawn {
            per_payer *= 2;
        }
        let mut fans = vec![hit(self.preset, sc.pattern)];
        fans.extend(sc.floor.map(|f| hit(self.preset, f)));
        Score {
            variant: self.preset.id.as_str(),
            fans: fans.into(),
            raw_total: sc.points,
            total: sc.points,
            unit: Unit::Point,
            meets_minimum: true,
            per_payer,
            players: 4,
            payments: Default::default(),
            extras: Default::default(),
            decomposition: Some(Reading::Tiles(sc.decomposition)),
        }
        .with_extras(vec![
            ("wildcard", json!(sc.wild.map(|t| t.to_string()))),
            ("win_type", json!(sc.win_type.name())),
        ])
    }
}

impl TileBook for Hebei {
    fn id(&self) -> &'static str {
        self.preset.id.as_str()
    }
    fn seats(&self) -> u8 {
        4
    }
    fn spec(&self) -> RecordSpec {
        RecordSpec {
            kong_types: &["open", "added", "concealed"],
            draw_keys: Some(&[]),
            ..RecordSpec::default()
        }
    }
    fn evaluate(&self, s: &Situation) -> Result<Score> {
        s.check_flags("hebei", &["wild_indicator"])?;
        Ok(self.to_score(self.rules.score(s)?, s.is_self_drawn()))
    }
    /// Kongs (直杠 from the feeder, 补杠/暗杠 from every other player) are paid at once
    /// (`kong_payment = instant`) or after the win, and not at all after a 荒庄 (荒庄荒杠); the
    /// win is paid by the discarder (switch `discard_payers`) or every other player, ×2 between
    /// the dealer and another seat (switch `dealer_factor`). One winner per hand (截胡), or every
    /// winner on one discard under the switch `multi_ron` (一炮多响; the kongs are paid once).
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()> {
        let r = &self.rules;
        if rec.n_wins() > 1 && !r.multi_ron {
            return Err(Error::settlement(
                "河北: one winner per hand (截胡; the switch multi_ron plays 一炮多响)",
            ));
        }
        let mut kongs = Vec::new();
        for (i, owner, ty, feeder, _) in rec.kongs() {
            let lines: Vec<(usize, usize, i64)> = match ty {
                "open" => {
                    let f = feeder.ok_or_else(|| {
                        Error::settlement(format!("events[{i}]: a 直杠 needs \"feeder\""))
                    })?;
                    vec![(f, owner, r.kong_open * r.base)]
                }
                _ => {
                    // 补杠 / 暗杠: every other player pays (a 补杠's feeder is not charged here)
                    let a = if ty == "added" {
                        r.kong_added
                    } else {
                        r.kong_concealed
                    };
                    (0..4)
                        .filter(|&p| p != owner)
                        .map(|p| (p, owner, a * r.base))
                        .collect()
                }
            };
            kongs.push((format!("{ty} kong"), lines));
        }
        if r.kong_instant {
            for (reason, lines) in &kongs {
                book.pay("KONG_INSTANT", reason, lines)?;
            }
        }
        if rec.n_wins() == 0 {
            book.ledger.end_hand(); // 荒庄: nothing else is paid (荒庄荒杠 unless instant)
            return Ok(());
        }
        let dealer = rec.dealer;
        let factor = |a: usize, b: usize| -> i64 {
            if r.dealer_double && (Some(a) == dealer || Some(b) == dealer) {
                2
            } else {
                1
            }
        };
        if r.dealer_double && dealer.is_none() {
            return Err(Error::settlement(
                "河北 dealer_factor=double: the record needs \"dealer\"",
            ));
        }
        let mut first_discarder = None;
        for (k, (i, winner, discarder, case, _)) in rec.wins().enumerate() {
            let Case::Tiles(s) = case else {
                return Err(Error::settlement(format!("events[{i}]: not a tile win")));
            };
            if k > 0 && (s.is_self_drawn() || discarder != first_discarder) {
                return Err(Error::settlement(format!(
                    "events[{i}]: several winners only on one discard (一炮多响)"
                )));
            }
            first_discarder = discarder;
            let sc = &scores[k];
            let pts = sc.per_payer;
            let others: Vec<usize> = (0..4).filter(|&p| p != winner).collect();
            let lines: Vec<(usize, usize, i64)> = match (discarder, s.is_self_drawn()) {
                (_, true) => others
                    .iter()
                    .map(|&p| (p, winner, pts * factor(p, winner)))
                    .collect(),
                (Some(d), false) => match r.discard_payers {
                    DiscardPayers::Discarder => vec![(d, winner, pts * factor(d, winner))],
                    DiscardPayers::AllThree => others
                        .iter()
                        .map(|&p| (p, winner, pts * factor(p, winner)))
                        .collect(),
                    DiscardPayers::DaBao => {
                        let total: i64 = others.iter().map(|&p| pts * factor(p, winner)).sum();
                        vec![(d, winner, total)]
                    }
                },
                (None, false) => {
                    return Err(Error::settlement("a win on a discard needs \"discarder\""));
                }
            };
            book.begin_win(k);
            book.pay(
                "WIN",
                &format!("{} wins: {} points", rec.seats[winner], sc.total),
                &lines,
            )?;
            book.end_win();
        }
        if !r.kong_instant {
            for (reason, lines) in &kongs {
                book.pay("KONG_DEFERRED", reason, lines)?;
            }
        }
        book.ledger.end_hand();
        Ok(())
    }
}

impl Ruleset for Hebei {
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
            super::table::HebeiTable,
        )))
    }
    fn flow(&self) -> Option<&FlowFacts> {
        Some(&self.flow)
    }
    /// The value at the table is the points of the win (before base and factors).
    fn table_win(&self, q: &TableWin<'_>) -> Option<WinOption> {
        let sc = self.evaluate(&q.situation).ok()?;
        Some(WinOption::from_score(
            sc.total,
            q.situation.is_self_drawn(),
            sc,
        ))
    }
}
