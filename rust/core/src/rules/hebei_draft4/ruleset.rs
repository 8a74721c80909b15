//! The 河北 第4稿 [`Ruleset`]: additive 番 (×2^番, capped), the fixed situation table for the
//! payments, 上楼 floors, kongs paid only to the winner, 跟庄.

use std::any::Any;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{Floor, HebeiDraft4Rules, HebeiDraft4Score};
use crate::error::{Error, Result};
use crate::game::flow::{Carry, FlowFacts, HandEnd, WinOption};
use crate::preset::{FanOp, Options, PresetData};
use crate::rules::{Book, Case, Ruleset, TableWin, TileBook};
use crate::scoring::record::{HandRecord, RecordSpec};
use crate::scoring::score::{FanHit, Reading, Score, Unit};
use crate::situation::Situation;

/// The 河北 第4稿 ruleset.
#[derive(Debug)]
pub struct HebeiDraft4 {
    pub rules: HebeiDraft4Rules,
    preset: &'static PresetData,
    flow: FlowFacts,
}

/// Compile the `hebei_draft4` preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    let rules = HebeiDraft4Rules::compile(p, o)?;
    let mut flow = FlowFacts::from_data(p, o);
    flow.shapes = super::SHAPES;
    flow.gen_zhuang = rules.gen_zhuang;
    Ok(Arc::new(HebeiDraft4 {
        rules,
        preset: p,
        flow,
    }))
}

/// The 第4稿 rules of a variant.
pub fn rules_of(v: &crate::Variant) -> Result<&HebeiDraft4Rules> {
    v.rules_as::<HebeiDraft4>()
        .map(|m| &m.rules)
        .ok_or_else(|| Error::rule(format!("variant {} is not a hebei_draft4 variant", v.id())))
}

impl HebeiDraft4 {
    /// What a payer pays with this 番 total, base amount and floor.
    fn amount(&self, fan_total: i64, capped: i64, base: i64, floor: i64) -> i64 {
        let r = &self.rules;
        let fan = match r.floor {
            Floor::PlusFan => (fan_total + floor).min(r.fan_cap),
            _ => capped,
        };
        let mult = 1i64 << fan.clamp(0, 40);
        let floor_factor = match r.floor {
            Floor::Double => 1i64 << floor.clamp(0, 20),
            Floor::Linear => 1 + floor,
            Floor::PlusFan => 1,
        };
        let cap = |x: i64| {
            if r.payer_cap > 0 {
                x.min(r.payer_cap)
            } else {
                x
            }
        };
        if r.cap_before_floor {
            cap(base * mult) * floor_factor
        } else {
            cap(base * mult * floor_factor)
        }
    }

    fn to_score(&self, sc: HebeiDraft4Score, self_drawn: bool) -> Score {
        let b = &self.rules.base;
        let base = if self_drawn {
            b.ping_mo_other
        } else {
            b.ping_dian
        };
        Score {
            variant: self.preset.id.as_str(),
            fans: sc
                .fans
                .into_iter()
                .map(|(id, zh, en, v)| {
                    FanHit::new(self.preset.fan_named(&id, &zh, &en), v, FanOp::Add, 1)
                })
                .collect(),
            raw_total: sc.fan_total,
            total: sc.capped_fan_total,
            unit: Unit::Fan,
            meets_minimum: true,
            per_payer: self.amount(sc.fan_total, sc.capped_fan_total, base, 0),
            players: 4,
            payments: Default::default(),
            decomposition: Some(Reading::Tiles(sc.decomposition)),
            extras: Default::default(),
        }
        .with_extras(vec![
            ("men_qing", json!(sc.men_qing)),
            ("multiplier", json!(sc.multiplier)),
            ("win_type", json!(sc.win_type.name())),
        ])
    }
}

impl TileBook for HebeiDraft4 {
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
            table_keys: &["floor", "gen_zhuang"],
            ..RecordSpec::default()
        }
    }
    fn evaluate(&self, s: &Situation) -> Result<Score> {
        s.check_flags("hebei_draft4", &[])?;
        Ok(self.to_score(self.rules.score(s)?, s.is_self_drawn()))
    }
    /// 跟庄 (`table.gen_zhuang`), the win by the situation table (平点/庄点/点庄/平摸/庄摸) and the
    /// 上楼 floor (`table.floor`), then the winner's kongs (不赢没钱). One winner per hand.
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()> {
        let r = &self.rules;
        let dealer = rec.dealer.ok_or_else(|| {
            Error::settlement("\"dealer\" is required (the situation table pays by it)")
        })?;
        let floor = rec.table_int("floor", 0, 0, r.max_floor)?;
        if rec.n_wins() > 1 {
            return Err(Error::settlement("第4稿: one winner per hand"));
        }
        if rec.table_bool("gen_zhuang")? {
            if !r.gen_zhuang {
                return Err(Error::settlement("跟庄 is off (switch gen_zhuang = false)"));
            }
            let lines: Vec<(usize, usize, i64)> = (0..4)
                .filter(|&i| i != dealer)
                .map(|i| (dealer, i, r.gen_zhuang_amount))
                .collect();
            book.pay(
                "FOLLOW_DEALER",
                "跟庄: the dealer pays each non-dealer",
                &lines,
            )?;
        }
        for (i, _, ty, feeder, _) in rec.kongs() {
            if ty != "concealed" && feeder.is_none() {
                return Err(Error::settlement(format!(
                    "events[{i}]: a 明杠 needs \"feeder\" (the discarder of the kong tile)"
                )));
            }
        }
        let Some((_, winner, discarder, Case::Tiles(s), _)) = rec.wins().next() else {
            // 荒牌: no payments; kongs are paid only to a winner.
            book.ledger.end_hand();
            return Ok(());
        };
        let sc = &scores[0];
        let fan_total = sc.raw_total;
        let b = &r.base;
        let mut lines = Vec::new();
        match discarder.filter(|_| !s.is_self_drawn()) {
            None => {
                for p in (0..4).filter(|&p| p != winner) {
                    let base = if winner == dealer {
                        b.zhuang_mo
                    } else if p == dealer {
                        b.ping_mo_dealer
                    } else {
                        b.ping_mo_other
                    };
                    lines.push((p, winner, self.amount(fan_total, sc.total, base, floor)));
                }
            }
            Some(d) => {
                let base = if winner == dealer {
                    b.zhuang_dian
                } else if d == dealer {
                    b.dian_zhuang
                } else {
                    b.ping_dian
                };
                lines.push((d, winner, self.amount(fan_total, sc.total, base, floor)));
            }
        }
        book.begin_win(0);
        book.pay(
            "WIN",
            &format!(
                "{} wins: {} 番, floor {floor}",
                rec.seats[winner], fan_total
            ),
            &lines,
        )?;
        book.end_win();
        for (_, owner, ty, feeder, _) in rec.kongs() {
            if owner != winner {
                continue; // 不赢没钱
            }
            let lines: Vec<(usize, usize, i64)> = if ty == "concealed" {
                (0..4)
                    .filter(|&p| p != owner)
                    .map(|p| (p, owner, r.an_gang_amount))
                    .collect()
            } else {
                let payer = if r.ming_gang_win_discarder {
                    discarder.or(feeder)
                } else {
                    feeder
                }
                .ok_or_else(|| Error::settlement("a 明杠 needs \"feeder\""))?;
                vec![(payer, owner, r.ming_gang_amount)]
            };
            book.pay(
                "KONG_DEFERRED",
                "kong paid to its winning owner (杠不上楼)",
                &lines,
            )?;
        }
        book.ledger.end_hand();
        Ok(())
    }
}

impl Ruleset for HebeiDraft4 {
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
            super::table::HebeiDraft4Table,
        )))
    }
    fn flow(&self) -> Option<&FlowFacts> {
        Some(&self.flow)
    }
    /// The value at the table is the multiplier 2^番.
    fn table_win(&self, q: &TableWin<'_>) -> Option<WinOption> {
        let sc = self.evaluate(&q.situation).ok()?;
        let m = sc.extra("multiplier").and_then(Value::as_i64).unwrap_or(1);
        Some(WinOption::from_score(m, q.situation.is_self_drawn(), sc))
    }
    /// 上楼: up one floor (at most `max_floor`) when the dealer stays, back to 0 otherwise.
    fn next_carry(&self, _end: &HandEnd, carry: Carry, dealer_stays: bool) -> Result<Carry> {
        let max = u32::try_from(self.rules.max_floor).unwrap_or(0);
        if carry.floor > max {
            return Err(Error::hand(format!(
                "floor {} is above the top floor {max} (上楼)",
                carry.floor
            )));
        }
        Ok(Carry {
            floor: if dealer_stays {
                (carry.floor + 1).min(max)
            } else {
                0
            },
            ..Carry::default()
        })
    }
}
