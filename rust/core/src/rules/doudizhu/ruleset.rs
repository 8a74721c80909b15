//! The 斗地主 [`Ruleset`] (`doudizhu_qq`, `doudizhu_contest`): a case is one settled deal,
//! `{"hand": "landlord" | "farmers", "situation": {...}}` — `hand` names the side that went out
//! (also 地主 / 农民), the situation says what settlement needs (doudizhu.md §8–§9):
//! `bid` (底分, 1..3, default 1), `bombs`, `rockets` (played), `robs` (抢地主), `shown` (明牌),
//! `landlord_hands` and `farmer_hands` ([下家, 上家]: plays made, for 春天 / 反春; default 1 and
//! [1, 1]) and `landlord` (the landlord's seat, default 0).
//!
//! The score: unit `point`, `total` = the settled unit (底注 × 底分 × 倍数, capped), each farmer
//! pays it to the landlord or receives it (the landlord ±2 units); `fans` are the multiplier's
//! events with the names of the preset's `[[fans]]` (`BID` the 底分, then one ×2 per `BOMB`,
//! `ROCKET`, `ROB`, `SHOW`, `SPRING`, `ANTI_SPRING`); `extras`: `multiplier`, `doublings`,
//! `spring`, `coins` (游戏币 room).

use std::any::Any;
use std::sync::Arc;

use serde_json::{Value, json};

use super::rules::DdzRules;
use super::settle::{DealRecord, Spring, bomb_doublings, settle};
use crate::error::{Error, Result};
use crate::preset::{FanOp, Options, PresetData};
use crate::rules::{
    Case, CaseRef, Ruleset, Settled, TablePart, card_case, case_int, case_seat, settle_cases,
};
use crate::scoring::score::{FanHit, Payment, Score, Unit};

/// The 斗地主 ruleset of one preset.
#[derive(Debug)]
pub struct Doudizhu {
    pub rules: Arc<DdzRules>,
    preset: &'static PresetData,
}

/// Compile a 斗地主 preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    Ok(Arc::new(Doudizhu {
        rules: Arc::new(DdzRules::compile(p, o.clone())?),
        preset: p,
    }))
}

/// One settled deal.
#[derive(Clone, Copy, Debug)]
pub struct DealCase {
    pub record: DealRecord,
    pub landlord: u8,
}

const KEYS: &[&str] = &[
    "bid",
    "bombs",
    "rockets",
    "robs",
    "shown",
    "landlord_hands",
    "farmer_hands",
    "landlord",
];

/// Read a case (see the module documentation).
pub fn parse_deal(case: &Value) -> Result<DealCase> {
    let (hand, o) = card_case(case, KEYS)?;
    let landlord_won = match hand.trim() {
        "landlord" | "地主" => true,
        "farmers" | "farmer" | "农民" => false,
        other => {
            return Err(Error::hand(format!(
                "hand {other:?}: the side that went out, \"landlord\" or \"farmers\" (地主 / 农民)"
            )));
        }
    };
    let farmer_hands = match o.get("farmer_hands") {
        None | Some(Value::Null) => [1, 1],
        Some(Value::Array(a)) if a.len() == 2 => {
            let f = |x: &Value| {
                x.as_u64()
                    .filter(|&n| n <= 20)
                    .map(|n| n as u32)
                    .ok_or_else(|| Error::hand(format!("farmer_hands: plays 0..20, got {x}")))
            };
            [f(&a[0])?, f(&a[1])?]
        }
        Some(x) => {
            return Err(Error::hand(format!(
                "farmer_hands: [下家 plays, 上家 plays], got {x}"
            )));
        }
    };
    let shown = match o.get("shown") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(x) => return Err(Error::hand(format!("shown: true or false, got {x}"))),
    };
    let record = DealRecord {
        bid: case_int(&o, "bid", 1, 3)? as u8,
        landlord_won,
        bombs: case_int(&o, "bombs", 0, 13)? as u32,
        rockets: case_int(&o, "rockets", 0, 1)? as u32,
        landlord_hands: case_int(&o, "landlord_hands", 1, 20)? as u32,
        farmer_hands,
        robs: case_int(&o, "robs", 0, 3)? as u32,
        shown,
    };
    if record.bid == 0 {
        return Err(Error::hand("bid: the 底分 is 1, 2 or 3"));
    }
    if landlord_won && record.landlord_hands == 0 {
        return Err(Error::hand(
            "landlord_hands: the landlord went out, so he played at least once",
        ));
    }
    Ok(DealCase {
        record,
        landlord: case_seat(&o, "landlord", 3, 0)?,
    })
}

impl Doudizhu {
    fn fan(&self, id: &str, value: i64, op: FanOp, count: u32) -> Result<FanHit> {
        let def = self
            .preset
            .fan(id)
            .ok_or_else(|| Error::rule(format!("{}: no [[fans]] entry {id}", self.preset.id)))?;
        Ok(FanHit::new(def, value, op, count))
    }

    /// Score one settled deal.
    pub fn score_deal(&self, c: &DealCase) -> Result<Score> {
        let r = &c.record;
        let s = settle(&self.rules, r)?;
        let mut fans = vec![self.fan("BID", i64::from(r.bid), FanOp::Mul, 1)?];
        // Bombs first, then the rocket, within the bomb cap.
        let counted = bomb_doublings(&self.rules, r.bombs + r.rockets);
        let bombs = r.bombs.min(counted);
        let rockets = counted - bombs;
        for (id, n) in [
            ("BOMB", bombs),
            ("ROCKET", rockets),
            ("ROB", r.robs),
            ("SHOW", u32::from(r.shown)),
            ("SPRING", u32::from(s.spring == Spring::Spring)),
            ("ANTI_SPRING", u32::from(s.spring == Spring::AntiSpring)),
        ] {
            if n > 0 {
                fans.push(self.fan(id, 1, FanOp::Pow2, n)?);
            }
        }
        let raw = self
            .rules
            .stake
            .saturating_mul(i64::from(r.bid))
            .saturating_mul(1i64.checked_shl(s.doublings).unwrap_or(i64::MAX));
        let l = c.landlord;
        let mut payments = crate::scoring::score::Payments::new();
        for k in 1..3u8 {
            let f = (l + k) % 3;
            let (payer, payee) = if r.landlord_won { (f, l) } else { (l, f) };
            payments.push(Payment {
                payer,
                payee,
                amount: s.unit,
            });
        }
        let mut extras = vec![
            ("doublings", json!(s.doublings)),
            ("multiplier", json!(s.multiplier)),
            ("spring", json!(s.spring.name())),
        ];
        if let Some(coin) = s.coin {
            extras.push(("coins", json!(coin)));
        }
        Ok(Score {
            variant: self.static_id(),
            fans: fans.into(),
            raw_total: raw.max(s.unit),
            total: s.unit,
            unit: Unit::Point,
            meets_minimum: true,
            per_payer: s.unit,
            players: 3,
            payments,
            decomposition: None,
            extras: Vec::new(),
        }
        .with_extras(extras))
    }

    fn static_id(&self) -> &'static str {
        self.preset.id.as_str()
    }
}

impl Ruleset for Doudizhu {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn players(&self) -> u8 {
        3
    }
    fn input(&self) -> &'static str {
        "doudizhu"
    }
    fn parse_case(&self, case: &Value) -> Result<Case> {
        Ok(Case::Own(Box::new(parse_deal(case)?)))
    }
    fn score(&self, case: CaseRef<'_>) -> Result<Score> {
        let c = case.own::<DealCase>(self.static_id(), "a 斗地主 deal")?;
        self.score_deal(c)
    }
    fn settle(&self, record: &Value) -> Result<Settled> {
        settle_cases(self, record)
    }
    fn analyse(
        &self,
        q: &crate::rules::analysis::Query,
    ) -> Result<crate::rules::analysis::Analysis> {
        super::analyse::analyse(self.static_id(), &self.rules.moves, q)
    }
    fn table(&self) -> Option<TablePart> {
        Some(TablePart::Cards(Arc::new(super::table::DdzPart {
            rules: self.rules.clone(),
        })))
    }
}
