//! 陕西麻将 (`presets/shaanxi.toml`, spec `shared/rules/shaanxi.md`): flat 推倒胡 — every legal win
//! is worth A × 底 (A = 2 自摸, 1 放胡) from each loser, 庄家翻倍 on that part only, plus the 下炮子
//! side bet and instant kong income.

use std::any::Any;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::decompose::{Form, Shapes, decompose};
use crate::error::{Error, Result};
use crate::game::flow::FlowFacts;
use crate::hand::MeldKind;
use crate::preset::{FanDef, Options, PresetData};
use crate::rules::{Book, Case, Ruleset, TileBook};
use crate::scoring::record::{HandRecord, RecordSpec};
use crate::scoring::score::{FanHit, Reading, Score, Unit};
use crate::scoring::{fan, param_int};
use crate::situation::{Situation, WinType};

pub mod table;
#[cfg(test)]
mod tests;

/// Who pays the 胡牌分数 of a 放胡.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscardPayers {
    AllOthers,
    DiscarderPaysForAll,
    DiscarderOnly,
}

/// 下炮子 mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaoZi {
    Free,
    None,
    Fixed(i64),
}

/// The compiled 陕西 rules.
#[derive(Clone, Debug)]
pub struct ShaanxiRules {
    fans: Vec<FanDef>,
    /// The preset data (the names of the fans).
    data: &'static PresetData,
    pub base: i64,
    pub kong_concealed: i64,
    pub kong_open: i64,
    pub kong_added: i64,
    pub pao_zi_max: i64,
    /// 逃跑: the escaper pays 底 × (`escape_units` + 3·p(self) + Σ p(others)).
    pub escape_units: i64,
    pub discard_payers: DiscardPayers,
    pub dealer_double: bool,
    pub pao_zi: PaoZi,
    pub chi_allowed: bool,
    pub multi_ron: bool,
    pub shapes: Shapes,
    pub suits_only: bool,
}

impl ShaanxiRules {
    pub fn compile(p: &'static PresetData, o: &Options) -> Result<ShaanxiRules> {
        let (fans, _, _) = p.fans_for_profile(Some(o.str("fan_profile")?));
        let seed_shapes = o.str("shapes")? == "seed";
        Ok(ShaanxiRules {
            data: p,
            fans: fans.into_iter().filter(|f| f.enabled).collect(),
            base: param_int(p, "base")?,
            kong_concealed: param_int(p, "kong_concealed")?,
            kong_open: param_int(p, "kong_open")?,
            kong_added: param_int(p, "kong_added")?,
            pao_zi_max: param_int(p, "pao_zi_max")?,
            escape_units: param_int(p, "escape_units")?,
            discard_payers: match o.str("discard_payers")? {
                "all_others" => DiscardPayers::AllOthers,
                "discarder_pays_for_all" => DiscardPayers::DiscarderPaysForAll,
                _ => DiscardPayers::DiscarderOnly,
            },
            dealer_double: o.bool("dealer_double")?,
            pao_zi: match o.str("pao_zi")? {
                "free" => PaoZi::Free,
                "none" => PaoZi::None,
                _ => PaoZi::Fixed(o.int("pao_zi_fixed")?),
            },
            chi_allowed: o.bool("chi_allowed")?,
            multi_ron: o.bool("multi_ron")?,
            shapes: Shapes {
                standard: true,
                seven_pairs: true,
                seven_pairs_quads: o.bool("qidui_quad_as_two_pairs")?,
                thirteen_orphans: seed_shapes,
                honors_knitted: seed_shapes,
                knitted_straight: seed_shapes,
            },
            suits_only: o.str("tile_set")? == "suits3",
        })
    }

    /// Score one win: the shape, the coefficient A and (profile kuaikai) doublings.
    pub fn score(&self, s: &Situation) -> Result<Score> {
        s.check_flags("shaanxi", &[])?;
        let mut all = s.hand.all_counts();
        all[s.win_tile.idx()] += 1;
        if self.suits_only && all[27..34].iter().any(|&c| c > 0) {
            return Err(Error::hand("陕西 with tile_set=suits3 has no honours"));
        }
        if s.flowers > 0 || !s.flower_tiles.is_empty() {
            return Err(Error::hand("陕西麻将 has no flowers"));
        }
        if !self.chi_allowed && s.hand.melds().iter().any(|m| m.kind == MeldKind::Chow) {
            return Err(Error::hand(
                "陕西麻将 has no 吃 (switch chi_allowed=true allows chow melds)",
            ));
        }
        let decs = decompose(&s.full_counts(), s.hand.melds(), self.shapes)?;
        // shape priority for reporting: special shapes first
        let shape = [
            (Form::ThirteenOrphans, "SHI_SAN_YAO"),
            (Form::HonorsKnitted, "QUAN_BU_KAO"),
            (Form::KnittedStraight, "ZU_HE_LONG"),
            (Form::SevenPairs, "QI_DUI"),
            (Form::Standard, "PING_HU"),
        ]
        .into_iter()
        .find(|(f, _)| decs.iter().any(|d| d.form == *f))
        .map(|x| x.1)
        .ok_or_else(|| {
            Error::hand(format!(
                "not a winning hand: {} + {} is none of 平胡, 七对, 十三幺, 全不靠, 组合龙 (allowed by the switches)",
                s.hand, s.win_tile
            ))
        })?;
        let a_id = if s.is_self_drawn() {
            "ZI_MO"
        } else {
            "FANG_HU"
        };
        let mut patterns = vec![
            FanHit::entry(self.data, fan(&self.fans, shape)?, 1),
            FanHit::entry(self.data, fan(&self.fans, a_id)?, 1),
        ];
        let a = patterns[1].value();
        // optional doublings (profile kuaikai)
        let suits = (0..3)
            .filter(|&su| all[su * 9..su * 9 + 9].iter().any(|&c| c > 0))
            .count();
        let honours = all[27..34].iter().any(|&c| c > 0);
        let mut dbl: Vec<&str> = Vec::new();
        if shape == "QI_DUI" {
            dbl.push("QI_DUI_DOUBLE");
        }
        if suits == 1 && !honours {
            dbl.push("QING_YI_SE");
        }
        if s.win_type == WinType::KongReplacement {
            dbl.push("GANG_SHANG_HUA");
        }
        if s.wall_last {
            dbl.push("HAI_DI_LAO");
        }
        if s.win_type == WinType::RobKong {
            dbl.push("QIANG_GANG_HU");
        }
        let mut mult = 1;
        for f in self.fans.iter().filter(|f| dbl.contains(&f.id.as_str())) {
            mult *= f.value;
            patterns.push(FanHit::entry(self.data, f, 1));
        }
        let value = mult;
        let form = [
            ("SHI_SAN_YAO", Form::ThirteenOrphans),
            ("QUAN_BU_KAO", Form::HonorsKnitted),
            ("ZU_HE_LONG", Form::KnittedStraight),
            ("QI_DUI", Form::SevenPairs),
            ("PING_HU", Form::Standard),
        ]
        .into_iter()
        .find(|x| x.0 == shape)
        .map(|x| x.1);
        let reading = decs.into_iter().find(|d| Some(d.form) == form);
        Ok(Score {
            variant: "shaanxi",
            fans: patterns.into(),
            raw_total: value,
            total: value,
            unit: Unit::Multiplier,
            meets_minimum: true,
            per_payer: a * self.base * value,
            players: 4,
            payments: Default::default(),
            decomposition: reading.map(Reading::Tiles),
            extras: Default::default(),
        }
        .with_extras(vec![("a", json!(a)), ("base", json!(self.base))]))
    }

    /// 逃跑 (spec §9, 算该玩家输): the escaper `e` pays 底 × (8 + 3·p(e) + Σ p(others)) in total.
    /// Split (gap-fill, the seed names only the total): each other player O receives
    /// 底 × (p(e) + p(O)) — the 炮子 line of a loss to O — plus an equal part of 8 × 底, the
    /// remainder going to the players nearest after `e` in turn order.
    pub fn escape_lines(&self, pao: &[i64], e: usize) -> Vec<(usize, usize, i64)> {
        let n = pao.len();
        let others: Vec<usize> = (1..n).map(|k| (e + k) % n).collect();
        let fixed = self.escape_units * self.base;
        let m = others.len() as i64;
        others
            .iter()
            .enumerate()
            .map(|(i, &o)| {
                let part = fixed / m + i64::from((i as i64) < fixed % m);
                (e, o, self.base * (pao[e] + pao[o]) + part)
            })
            .collect()
    }

    fn pao(&self, rec: &HandRecord, i: usize) -> Result<i64> {
        let seat = &rec.seats[i];
        let given = rec.seat_data[i].get("pao_zi");
        match self.pao_zi {
            PaoZi::None => {
                if given.is_some_and(|v| v.as_i64() != Some(0)) {
                    return Err(Error::settlement(format!(
                        "seat_data.{seat}.pao_zi: 下炮子 is off (switch pao_zi=none)"
                    )));
                }
                Ok(0)
            }
            PaoZi::Fixed(n) => {
                let p = rec.seat_int(i, "pao_zi", n, 0, 1000)?;
                if p != n {
                    return Err(Error::settlement(format!(
                        "seat_data.{seat}.pao_zi = {p}: every seat has {n} (switch pao_zi=fixed)"
                    )));
                }
                Ok(n)
            }
            PaoZi::Free => rec.seat_int(i, "pao_zi", 0, 0, self.pao_zi_max),
        }
    }
}

/// The 陕西 ruleset.
#[derive(Debug)]
pub struct Shaanxi {
    pub rules: ShaanxiRules,
    flow: FlowFacts,
}

/// Compile the `shaanxi` preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    let rules = ShaanxiRules::compile(p, o)?;
    let mut flow = FlowFacts::from_data(p, o);
    flow.chi = rules.chi_allowed;
    flow.shapes = rules.shapes;
    Ok(Arc::new(Shaanxi { rules, flow }))
}

impl TileBook for Shaanxi {
    fn id(&self) -> &'static str {
        "shaanxi"
    }
    fn seats(&self) -> u8 {
        4
    }
    fn spec(&self) -> RecordSpec {
        RecordSpec {
            kong_types: &["open", "added", "concealed"],
            draw_keys: Some(&[]),
            seat_keys: &["pao_zi"],
            table_keys: &["escaped"],
            ..RecordSpec::default()
        }
    }
    fn evaluate(&self, s: &Situation) -> Result<Score> {
        self.rules.score(s)
    }
    /// Instant kong income, then the win's 胡牌分数 (庄家翻倍) and 炮子 lines (`seat_data.<seat>.
    /// pao_zi`); `table.escaped` (逃跑) ends a hand without a win. No win = 荒庄: kong payments
    /// stand, nothing else.
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()> {
        let r = &self.rules;
        let n = rec.seats.len();
        let pao: Vec<i64> = (0..n).map(|i| r.pao(rec, i)).collect::<Result<_>>()?;
        let dealer = rec.dealer;
        if dealer.is_none() && r.dealer_double && rec.n_wins() > 0 {
            return Err(Error::settlement(
                "陕西: the record needs the dealer (庄家翻倍)",
            ));
        }
        for (_, o, kind, feeder, _) in rec.kongs() {
            let lines: Vec<(usize, usize, i64)> = match (kind, feeder) {
                ("open", Some(f)) => vec![(f, o, r.kong_open * r.base)],
                // 补杠 / 暗杠: every other player pays (a 补杠's feeder is not charged here)
                _ => {
                    let v = if kind == "added" {
                        r.kong_added
                    } else {
                        r.kong_concealed
                    };
                    (0..n)
                        .filter(|&i| i != o)
                        .map(|i| (i, o, v * r.base))
                        .collect()
                }
            };
            book.pay(
                "KONG_INSTANT",
                &format!("{} {kind} kong", rec.seats[o]),
                &lines,
            )?;
        }
        if let Some(e) = rec.table.get("escaped") {
            let ei = rec
                .seat_value(Some(e), "table.escaped")?
                .ok_or_else(|| Error::settlement("table.escaped: a seat name"))?;
            if rec.n_wins() > 0 {
                return Err(Error::settlement(format!(
                    "{} escaped (逃跑): the hand has no win",
                    rec.seats[ei]
                )));
            }
            let lines = r.escape_lines(&pao, ei);
            book.pay("PENALTY", &format!("{} 逃跑", rec.seats[ei]), &lines)?;
            book.ledger.end_hand();
            return Ok(());
        }
        let wins: Vec<_> = rec.wins().collect();
        if wins.len() > 1 {
            let d0 = wins[0].2;
            if !r.multi_ron || !wins.iter().all(|w| w.2.is_some() && w.2 == d0) {
                return Err(Error::settlement(
                    "陕西 截胡: one winner per discard (switch multi_ron=true for 一炮多响)",
                ));
            }
        }
        for (k, &(_, wi, disc, case, _)) in wins.iter().enumerate() {
            let Case::Tiles(s) = case else { continue };
            let sc = &scores[k];
            let disc = disc.filter(|_| !s.is_self_drawn());
            let a = sc.extra("a").and_then(Value::as_i64).unwrap_or(1);
            let unit = sc.per_payer;
            let share = |l: usize| {
                let dbl = r.dealer_double && (dealer == Some(wi) || dealer == Some(l));
                unit * if dbl { 2 } else { 1 }
            };
            let losers: Vec<usize> = (0..n).filter(|&i| i != wi).collect();
            let hu_lines: Vec<(usize, usize, i64)> = match (disc, r.discard_payers) {
                (None, _) | (Some(_), DiscardPayers::AllOthers) => {
                    losers.iter().map(|&l| (l, wi, share(l))).collect()
                }
                (Some(d), DiscardPayers::DiscarderPaysForAll) => {
                    vec![(d, wi, losers.iter().map(|&l| share(l)).sum())]
                }
                (Some(d), DiscardPayers::DiscarderOnly) => vec![(d, wi, share(d))],
            };
            let ids: Vec<&str> = sc.fans.iter().map(|p| p.id()).collect();
            book.begin_win(k);
            book.pay(
                "WIN",
                &format!("{} wins: {}", rec.seats[wi], ids.join(" + ")),
                &hu_lines,
            )?;
            let pao_lines: Vec<(usize, usize, i64)> = losers
                .iter()
                .map(|&l| (l, wi, (pao[l] + pao[wi]) * a * r.base))
                .collect();
            if pao_lines.iter().any(|l| l.2 > 0) {
                book.pay("ADDON", &format!("{} 下炮子", rec.seats[wi]), &pao_lines)?;
            }
            book.end_win();
        }
        book.ledger.end_hand();
        Ok(())
    }
}

impl Ruleset for Shaanxi {
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
            table::ShaanxiTable,
        )))
    }
    fn flow(&self) -> Option<&FlowFacts> {
        Some(&self.flow)
    }
}
