//! The 顶牛 [`Ruleset`] (`dingniu`): a case is one finished hand, `{"hand": "10 5 5 10",
//! "situation": {...}}` — `hand` gives each seat's 扣 pips (seats 0..3), the situation
//! `play_order` (the seats from the 头牌, default [0, 1, 2, 3]; it breaks ties, dingniu.md §5.2),
//! `zhang` (the seat that made a 算帐, default none) and `silan` (the 上家 liable for a 死拦红帐).
//! The score (§5.3, §6.5, §6.6): unit `point`; `total` = the winner's gain; `fans`: the places
//! paid (`DA_ZHUANG`, `ER_ZHUANG`, `XIAO_ZHUANG`, values their shares), `SUAN_ZHANG` (× the 算帐
//! multiplier), or `BAO_ZHUANG` / `SI_LAN` (a fixed amount); `extras`: `winner`, `places`,
//! `zhang` (`success`, `baozhuang`, `silan`).

use std::any::Any;
use std::sync::Arc;

use serde_json::{Value, json};

use super::rules::DingniuRules;
use super::settle::{ZhangOutcome, check_order, net, plain_lines, rank, zhang_lines};
use crate::error::{Error, Result};
use crate::preset::{FanOp, Options, PresetData};
use crate::rules::{
    Case, CaseRef, Ruleset, Settled, TablePart, card_case, case_seat, settle_cases,
};
use crate::scoring::score::{FanHit, Payment, Score, Unit};

/// The 顶牛 ruleset.
#[derive(Debug)]
pub struct Dingniu {
    pub rules: DingniuRules,
    preset: &'static PresetData,
}

/// Compile the 顶牛 preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    Ok(Arc::new(Dingniu {
        rules: DingniuRules::from_options(p, o)?,
        preset: p,
    }))
}

/// One finished hand.
#[derive(Clone, Copy, Debug)]
pub struct HandCase {
    pub pips: [i64; 4],
    pub order: [u8; 4],
    pub zhang: Option<u8>,
    pub silan: Option<u8>,
}

/// Read a case (see the module documentation).
pub fn parse_hand_case(case: &Value) -> Result<HandCase> {
    let (hand, o) = card_case(case, &["play_order", "zhang", "silan"])?;
    let parts: Vec<i64> = hand
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|p| p.parse::<i64>().ok().filter(|x| (0..=300).contains(x)))
        .collect::<Option<_>>()
        .filter(|v: &Vec<i64>| v.len() == 4)
        .ok_or_else(|| {
            Error::hand(format!(
                "hand {hand:?}: the 扣 pips of seats 0..3, e.g. \"10 5 5 10\""
            ))
        })?;
    let order = match o.get("play_order") {
        None | Some(Value::Null) => [0, 1, 2, 3],
        Some(Value::Array(a)) => {
            let v: Vec<u8> = a
                .iter()
                .map(|x| x.as_u64().filter(|&s| s < 4).map(|s| s as u8))
                .collect::<Option<_>>()
                .ok_or_else(|| Error::hand("play_order: the seats 0..3 from the 头牌"))?;
            check_order(&v)?
        }
        Some(x) => return Err(Error::hand(format!("play_order: a list of seats, got {x}"))),
    };
    let opt = |k: &str| -> Result<Option<u8>> {
        match o.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => case_seat(&o, k, 4, 0).map(Some),
        }
    };
    Ok(HandCase {
        pips: [parts[0], parts[1], parts[2], parts[3]],
        order,
        zhang: opt("zhang")?,
        silan: opt("silan")?,
    })
}

impl Dingniu {
    fn fan(&self, id: &str, value: i64, op: FanOp) -> Result<FanHit> {
        let def = self
            .preset
            .fan(id)
            .ok_or_else(|| Error::rule(format!("dingniu: no [[fans]] entry {id}")))?;
        Ok(FanHit::new(def, value, op, 1))
    }

    /// Score one hand.
    pub fn score_hand(&self, c: &HandCase) -> Result<Score> {
        let r = &self.rules;
        let pl = rank(&c.pips, &c.order);
        let mut fans = Vec::new();
        let (lines, outcome): (Vec<(u8, u8, i64)>, &str) = match c.zhang {
            None => {
                fans.push(self.fan("DA_ZHUANG", r.da_zhuang, FanOp::Add)?);
                fans.push(self.fan("ER_ZHUANG", r.er_zhuang, FanOp::Add)?);
                fans.push(self.fan("XIAO_ZHUANG", r.xiao_zhuang, FanOp::Add)?);
                (plain_lines(r, &pl).to_vec(), "none")
            }
            Some(by) => {
                let (o, lines) = zhang_lines(r, &pl, by, c.silan);
                match o {
                    ZhangOutcome::Success => {
                        fans.push(self.fan("DA_ZHUANG", r.da_zhuang, FanOp::Add)?);
                        fans.push(self.fan("ER_ZHUANG", r.er_zhuang, FanOp::Add)?);
                        fans.push(self.fan("XIAO_ZHUANG", r.xiao_zhuang, FanOp::Add)?);
                        fans.push(self.fan("SUAN_ZHANG", r.zhang_multiplier, FanOp::Mul)?);
                        (lines, "success")
                    }
                    ZhangOutcome::Baozhuang => {
                        fans.push(self.fan("BAO_ZHUANG", r.baozhuang, FanOp::Add)?);
                        (lines, "baozhuang")
                    }
                    ZhangOutcome::Silan(_) => {
                        let amount = lines.iter().map(|l| l.2).sum();
                        fans.push(self.fan("SI_LAN", amount, FanOp::Add)?);
                        (lines, "silan")
                    }
                }
            }
        };
        let n = net(&lines);
        let total = n.iter().copied().max().unwrap_or(0);
        let payments = lines
            .iter()
            .filter(|l| l.2 > 0)
            .map(|&(payer, payee, amount)| Payment {
                payer,
                payee,
                amount,
            })
            .collect();
        Ok(Score {
            variant: self.preset.id.as_str(),
            fans: fans.into(),
            raw_total: total,
            total,
            unit: Unit::Point,
            meets_minimum: true,
            per_payer: total,
            players: 4,
            payments,
            decomposition: None,
            extras: Vec::new(),
        }
        .with_extras(vec![
            ("winner", json!(pl.winner)),
            (
                "places",
                json!({"winner": pl.winner, "da_zhuang": pl.da_zhuang, "er_zhuang": pl.er_zhuang, "xiao_zhuang": pl.xiao_zhuang}),
            ),
            ("zhang", json!(outcome)),
        ]))
    }
}

impl Ruleset for Dingniu {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn players(&self) -> u8 {
        4
    }
    fn input(&self) -> &'static str {
        "dingniu"
    }
    fn parse_case(&self, case: &Value) -> Result<Case> {
        Ok(Case::Own(Box::new(parse_hand_case(case)?)))
    }
    fn score(&self, case: CaseRef<'_>) -> Result<Score> {
        let c = case.own::<HandCase>(self.preset.id.as_str(), "a 顶牛 hand")?;
        self.score_hand(c)
    }
    fn settle(&self, record: &Value) -> Result<Settled> {
        settle_cases(self, record)
    }
    fn analyse(
        &self,
        q: &crate::rules::analysis::Query,
    ) -> Result<crate::rules::analysis::Analysis> {
        super::analyse::analyse(self.preset.id.as_str(), &self.rules, q)
    }
    fn table(&self) -> Option<TablePart> {
        Some(TablePart::Cards(Arc::new(super::table::DingniuPart {
            rules: self.rules,
        })))
    }
}
