//! The 够级 [`Ruleset`] (`gouji`): a case is one finished hand's places,
//! `{"hand": "0 3 2 1 4 5", "situation": {}}` — `hand` lists the seats of 头科, 二科, 三科, 四科,
//! 二落 and 大落 in that order (spaces or commas). The score (gouji.md §7.2): unit `point`; each
//! seat gets its team's sum of place points (× the 串三户 factor); `total` is the winning
//! team's per-player points; `fans` are the winning team's places (`TOU_KE` … `DA_LUO`, value the
//! place's points) and `CHUAN_SAN_HU` (× the factor); `extras`: `scores` per seat,
//! `chuan_san_hu`. A drawn hand (both teams equal) has no winner and no payments.

use std::any::Any;
use std::sync::Arc;

use serde_json::{Value, json};

use super::outcome::{SEATS, scores, team};
use super::rules::GoujiRules;
use crate::error::{Error, Result};
use crate::preset::{FanOp, Options, PresetData};
use crate::rules::{
    Case, CaseRef, Ruleset, Settled, TablePart, card_case, payments_of_net, settle_cases,
};
use crate::scoring::score::{FanHit, Score, Unit};

/// The 够级 ruleset.
#[derive(Debug)]
pub struct Gouji {
    pub rules: GoujiRules,
    preset: &'static PresetData,
}

/// Compile the 够级 preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    Ok(Arc::new(Gouji {
        rules: GoujiRules::from_options(p, o)?,
        preset: p,
    }))
}

/// The places of a finished hand: the seat of each place, 头科 first.
#[derive(Clone, Copy, Debug)]
pub struct PlacesCase(pub [usize; SEATS]);

/// The place fans, 头科 first.
pub const PLACE_FANS: [&str; SEATS] = ["TOU_KE", "ER_KE", "SAN_KE", "SI_KE", "ER_LUO", "DA_LUO"];

/// Read a case (see the module documentation).
pub fn parse_places(case: &Value) -> Result<PlacesCase> {
    let (hand, _) = card_case(case, &[])?;
    let mut out = [0usize; SEATS];
    let mut seen = [false; SEATS];
    let parts: Vec<&str> = hand
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    if parts.len() != SEATS {
        return Err(Error::hand(format!(
            "hand {hand:?}: the seats of 头科, 二科, 三科, 四科, 二落, 大落, e.g. \"0 3 2 1 4 5\""
        )));
    }
    for (i, p) in parts.iter().enumerate() {
        let s: usize = p
            .parse::<usize>()
            .ok()
            .filter(|&s| s < SEATS && !seen[s])
            .ok_or_else(|| {
                Error::hand(format!(
                    "hand {hand:?}: {p:?} — each seat 0..5 exactly once, 头科 first"
                ))
            })?;
        seen[s] = true;
        out[i] = s;
    }
    Ok(PlacesCase(out))
}

impl Gouji {
    /// Score one hand's places.
    pub fn score_places(&self, c: &PlacesCase) -> Result<Score> {
        let (sc, csh) = scores(&c.0, &self.rules);
        let total = sc.iter().copied().max().unwrap_or(0).max(0);
        let win_team = (0..SEATS).find(|&s| sc[s] == total && total > 0).map(team);
        let mut fans = Vec::new();
        if let Some(t) = win_team {
            for (i, &s) in c.0.iter().enumerate() {
                if team(s) == t {
                    let def = self.preset.fan(PLACE_FANS[i]).ok_or_else(|| {
                        Error::rule(format!("gouji: no [[fans]] entry {}", PLACE_FANS[i]))
                    })?;
                    fans.push(FanHit::new(def, self.rules.place_points[i], FanOp::Add, 1));
                }
            }
            if csh {
                let def = self
                    .preset
                    .fan("CHUAN_SAN_HU")
                    .ok_or_else(|| Error::rule("gouji: no [[fans]] entry CHUAN_SAN_HU"))?;
                fans.push(FanHit::new(def, self.rules.chuan_factor, FanOp::Mul, 1));
            }
        }
        let payments = payments_of_net(&sc).into_iter().collect();
        Ok(Score {
            variant: self.preset.id.as_str(),
            fans: fans.into(),
            raw_total: total,
            total,
            unit: Unit::Point,
            meets_minimum: true,
            per_payer: total,
            players: SEATS as u8,
            payments,
            decomposition: None,
            extras: Vec::new(),
        }
        .with_extras(vec![("chuan_san_hu", json!(csh)), ("scores", json!(sc))]))
    }
}

impl Ruleset for Gouji {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn players(&self) -> u8 {
        SEATS as u8
    }
    fn input(&self) -> &'static str {
        "gouji"
    }
    fn parse_case(&self, case: &Value) -> Result<Case> {
        Ok(Case::Own(Box::new(parse_places(case)?)))
    }
    fn score(&self, case: CaseRef<'_>) -> Result<Score> {
        let c = case.own::<PlacesCase>(self.preset.id.as_str(), "a 够级 hand's places")?;
        self.score_places(c)
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
        Some(TablePart::Cards(Arc::new(super::table::GoujiPart {
            rules: self.rules,
        })))
    }
}
