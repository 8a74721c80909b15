//! 陕西麻将 (`presets/shaanxi.toml`, spec `shared/rules/shaanxi.md`): flat 推倒胡 — every legal win
//! is worth A × 底 (A = 2 自摸, 1 放胡) from each loser, 庄家翻倍 on that part only, plus the 下炮子
//! side bet and instant kong income.

use serde_json::json;

use crate::decompose::{Form, Shapes, decompose};
use crate::error::{Error, Result};
use crate::hand::MeldKind;
use crate::preset::{FanDef, Options, PresetData};
use crate::scoring::ledger::Ledger;
use crate::scoring::pattern::{CountedPattern, HandRecord, PatternScore, fan, param_int, pay};
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
    pub fn compile(p: &PresetData, o: &Options) -> Result<ShaanxiRules> {
        let (fans, _, _) = p.fans_for_profile(Some(o.str("fan_profile")?));
        let seed_shapes = o.str("shapes")? == "seed";
        Ok(ShaanxiRules {
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
    pub fn score(&self, s: &Situation) -> Result<PatternScore> {
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
            CountedPattern::from_def(fan(&self.fans, shape)?, 1),
            CountedPattern::from_def(fan(&self.fans, a_id)?, 1),
        ];
        let a = patterns[1].value;
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
            patterns.push(CountedPattern::from_def(f, 1));
        }
        let value = mult;
        Ok(PatternScore {
            variant: "shaanxi".into(),
            patterns,
            value,
            capped_value: value,
            per_payer: a * self.base * value,
            payers: if s.is_self_drawn() {
                "all"
            } else {
                "discarder"
            }
            .into(),
            details: json!({"a": a, "base": self.base, "shape": shape}),
        })
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

    fn pao(&self, rec: &HandRecord, seat: &str) -> Result<i64> {
        let given = rec.seat_data.get(seat).and_then(|v| v.get("pao_zi"));
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
                let p = rec.seat_int(seat, "pao_zi", n)?;
                if p != n {
                    return Err(Error::settlement(format!(
                        "seat_data.{seat}.pao_zi = {p}: every seat has {n} (switch pao_zi=fixed)"
                    )));
                }
                Ok(n)
            }
            PaoZi::Free => {
                let p = rec.seat_int(seat, "pao_zi", 0)?;
                if !(0..=self.pao_zi_max).contains(&p) {
                    return Err(Error::settlement(format!(
                        "seat_data.{seat}.pao_zi = {p}: 炮子 is 0..={}",
                        self.pao_zi_max
                    )));
                }
                Ok(p)
            }
        }
    }

    /// Settle one hand: instant kong income, then the win's 胡牌分数 (庄家翻倍) and 炮子 lines.
    /// No win = 荒庄: kong payments stand, nothing else.
    pub fn settle(&self, rec: &HandRecord) -> Result<(Ledger, Vec<PatternScore>)> {
        self.settle_scored(rec, &[])
    }

    /// [`Self::settle`] with the wins already scored, in record order (the table settles each win
    /// with the score it was taken with); a win without a score is scored from the record.
    pub fn settle_scored(
        &self,
        rec: &HandRecord,
        scored: &[PatternScore],
    ) -> Result<(Ledger, Vec<PatternScore>)> {
        let mut ledger = rec.ledger(4)?;
        let n = rec.seats.len();
        let pao: Vec<i64> = rec
            .seats
            .iter()
            .map(|s| self.pao(rec, s))
            .collect::<Result<_>>()?;
        let dealer = match &rec.dealer {
            Some(d) => Some(rec.seat(d, "dealer")?),
            None if self.dealer_double && !rec.wins.is_empty() => {
                return Err(Error::settlement(
                    "陕西: the record needs the dealer (庄家翻倍)",
                ));
            }
            None => None,
        };
        for k in &rec.kongs {
            let o = rec.seat(&k.owner, "kongs[].owner")?;
            let lines: Vec<(usize, usize, i64)> = match (k.kind.as_str(), &k.feeder) {
                ("open", Some(f)) => vec![(
                    rec.seat(f, "kongs[].feeder")?,
                    o,
                    self.kong_open * self.base,
                )],
                ("open", None) => {
                    return Err(Error::settlement(format!(
                        "{}'s 放杠 needs the feeder",
                        k.owner
                    )));
                }
                ("added" | "concealed", None) => {
                    let v = if k.kind == "added" {
                        self.kong_added
                    } else {
                        self.kong_concealed
                    };
                    (0..n)
                        .filter(|&i| i != o)
                        .map(|i| (i, o, v * self.base))
                        .collect()
                }
                ("added" | "concealed", Some(_)) => {
                    return Err(Error::settlement(format!(
                        "{}'s {} kong has no feeder (every other player pays)",
                        k.owner, k.kind
                    )));
                }
                (other, _) => {
                    return Err(Error::settlement(format!(
                        "unknown kong kind {other:?} (open, added, concealed)"
                    )));
                }
            };
            pay(
                &mut ledger,
                "KONG_INSTANT",
                &format!("{} {} kong", k.owner, k.kind),
                &lines,
            )?;
        }
        if let Some(e) = rec.table.get("escaped") {
            let name = e
                .as_str()
                .ok_or_else(|| Error::settlement(format!("table.escaped: a seat name, got {e}")))?;
            let ei = rec.seat(name, "table.escaped")?;
            if !rec.wins.is_empty() {
                return Err(Error::settlement(format!(
                    "{name} escaped (逃跑): the hand has no win"
                )));
            }
            let lines = self.escape_lines(&pao, ei);
            pay(&mut ledger, "PENALTY", &format!("{name} 逃跑"), &lines)?;
            ledger.end_hand();
            return Ok((ledger, Vec::new()));
        }
        if rec.wins.len() > 1 {
            let d0 = rec.wins[0].discarder.as_ref();
            if !self.multi_ron
                || !rec
                    .wins
                    .iter()
                    .all(|w| w.discarder.is_some() && w.discarder.as_ref() == d0)
            {
                return Err(Error::settlement(
                    "陕西 截胡: one winner per discard (switch multi_ron=true for 一炮多响)",
                ));
            }
        }
        let mut scores = Vec::new();
        for (i, w) in rec.wins.iter().enumerate() {
            let s = w.situation()?;
            let sc = match scored.get(i) {
                Some(x) => x.clone(),
                None => self.score(&s)?,
            };
            let wi = rec.seat(&w.winner, "wins[].winner")?;
            if s.dealer != (dealer == Some(wi)) {
                return Err(Error::settlement(format!(
                    "situation.dealer of {}'s win disagrees with the record's dealer",
                    w.winner
                )));
            }
            let disc = match (&w.discarder, s.is_self_drawn()) {
                (Some(d), false) => Some(rec.seat(d, "wins[].discarder")?),
                (None, true) => None,
                (None, false) => {
                    return Err(Error::settlement(format!(
                        "{}'s win on a discard needs the discarder (the robbed player for 抢杠)",
                        w.winner
                    )));
                }
                (Some(_), true) => {
                    return Err(Error::settlement("a self-drawn win has no discarder"));
                }
            };
            let a = sc.details["a"].as_i64().unwrap_or(1);
            let unit = sc.per_payer;
            let share = |l: usize| {
                let dbl = self.dealer_double && (dealer == Some(wi) || dealer == Some(l));
                unit * if dbl { 2 } else { 1 }
            };
            let losers: Vec<usize> = (0..n).filter(|&i| i != wi).collect();
            let hu_lines: Vec<(usize, usize, i64)> = match (disc, self.discard_payers) {
                (None, _) | (Some(_), DiscardPayers::AllOthers) => {
                    losers.iter().map(|&l| (l, wi, share(l))).collect()
                }
                (Some(d), DiscardPayers::DiscarderPaysForAll) => {
                    vec![(d, wi, losers.iter().map(|&l| share(l)).sum())]
                }
                (Some(d), DiscardPayers::DiscarderOnly) => vec![(d, wi, share(d))],
            };
            let ids: Vec<&str> = sc.patterns.iter().map(|p| p.id.as_str()).collect();
            pay(
                &mut ledger,
                "WIN",
                &format!("{} wins: {}", w.winner, ids.join(" + ")),
                &hu_lines,
            )?;
            let pao_lines: Vec<(usize, usize, i64)> = losers
                .iter()
                .map(|&l| (l, wi, (pao[l] + pao[wi]) * a * self.base))
                .collect();
            if pao_lines.iter().any(|l| l.2 > 0) {
                pay(
                    &mut ledger,
                    "ADDON",
                    &format!("{} 下炮子", w.winner),
                    &pao_lines,
                )?;
            }
            scores.push(sc);
        }
        ledger.end_hand();
        Ok((ledger, scores))
    }
}
