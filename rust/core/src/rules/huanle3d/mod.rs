//! 欢乐麻将3D (`presets/huanle3d.toml`, spec `shared/rules/huanle3d.md`): self-draw only (杠上炮
//! excepted), no 吃, a 小胡 is 1 unit from each payer and each 大胡 pattern multiplies by 3.
//! Pattern values and parameters come from the preset file; this module detects the patterns,
//! checks the win and turns a hand record into ledger events.

use serde_json::json;

use crate::decompose::{Decomposition, Form, Shapes, decompose};
use crate::error::{Error, Result};
use crate::hand::MeldKind;
use crate::preset::{FanDef, Options, PresetData};
use crate::scoring::ledger::Ledger;
use crate::scoring::pattern::{
    CountedPattern, HandRecord, PatternScore, enabled_fans, fan, param_int, pay,
};
use crate::situation::{Situation, WinType};

pub mod table;
#[cfg(test)]
mod tests;

/// Which tiles are in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileSet {
    Suits3,
    Full136,
    Suits3Red,
}

/// The compiled 欢乐麻将3D rules.
#[derive(Clone, Debug)]
pub struct Huanle3dRules {
    fans: Vec<FanDef>,
    pub tile_set: TileSet,
    /// 抢杠胡 on a 补杠 allowed (switch discard_win).
    pub rob_kong: bool,
    /// 大胡 combine additively (3 × n) instead of 3^n.
    pub additive: bool,
    /// 七大对 = seven pairs with a quad (else an alias of 对对碰).
    pub qi_da_dui_quad: bool,
    pub multi_ron: bool,
    /// Kong chips only when the owner wins.
    pub kong_on_owner_win: bool,
    pub xiao_hu: i64,
    pub kong_open: i64,
    pub kong_added: i64,
    pub kong_concealed: i64,
}

impl Huanle3dRules {
    pub fn compile(p: &PresetData, o: &Options) -> Result<Huanle3dRules> {
        let tile_set = match o.str("tile_set")? {
            "suits3" => TileSet::Suits3,
            "full136" => TileSet::Full136,
            _ => TileSet::Suits3Red,
        };
        Ok(Huanle3dRules {
            fans: enabled_fans(p),
            tile_set,
            rob_kong: o.str("discard_win")? == "also_rob_kong",
            additive: o.str("da_hu_combine")? == "additive",
            qi_da_dui_quad: o.str("qi_da_dui")? == "quad_seven_pairs",
            multi_ron: o.bool("multi_ron_on_gang_shang_pao")?,
            kong_on_owner_win: o.str("kong_payment")? == "on_owner_win",
            xiao_hu: param_int(p, "xiao_hu")?,
            kong_open: param_int(p, "kong_open")?,
            kong_added: param_int(p, "kong_added")?,
            kong_concealed: param_int(p, "kong_concealed")?,
        })
    }

    fn check_tiles(&self, s: &Situation) -> Result<()> {
        let mut all = s.hand.all_counts();
        all[s.win_tile.idx()] += 1;
        for (i, &c) in all.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let t = crate::tile::Tile::new_unchecked(i as u8);
            let ok = match self.tile_set {
                TileSet::Full136 => !t.is_flower(),
                TileSet::Suits3 => t.is_suited(),
                TileSet::Suits3Red => t.is_suited() || t.index() == 31,
            };
            if !ok {
                return Err(Error::hand(format!(
                    "{t} is not in play in 欢乐麻将3D with tile_set={:?}",
                    self.tile_set
                )));
            }
        }
        if s.hand.melds().iter().any(|m| m.kind == MeldKind::Chow) {
            return Err(Error::hand(
                "欢乐麻将3D has no 吃 (chow melds are not allowed)",
            ));
        }
        if s.flowers > 0 {
            return Err(Error::hand("欢乐麻将3D has no flowers"));
        }
        Ok(())
    }

    fn check_win_type(&self, s: &Situation) -> Result<()> {
        match s.win_type {
            WinType::SelfDraw | WinType::KongReplacement | WinType::AfterKongDiscard => Ok(()),
            WinType::RobKong if self.rob_kong => Ok(()),
            WinType::RobKong => Err(Error::hand(
                "欢乐麻将3D: 抢杠胡 is not allowed (switch discard_win=also_rob_kong allows it)",
            )),
            WinType::Discard => Err(Error::hand(
                "欢乐麻将3D wins only by self-draw; the one discard win is 杠上炮 (win_type=after_kong_discard)",
            )),
        }
    }

    fn patterns(&self, s: &Situation, d: &Decomposition) -> Vec<&FanDef> {
        let mut ids: Vec<&str> = Vec::new();
        match d.form {
            Form::Standard if d.sets.iter().all(|x| x.kind != MeldKind::Chow) => {
                ids.push("DUI_DUI_PENG");
            }
            Form::SevenPairs => {
                let quad = d.pairs.windows(2).any(|w| w[0] == w[1]);
                ids.push(if quad && self.qi_da_dui_quad {
                    "QI_DA_DUI"
                } else {
                    "QI_XIAO_DUI"
                });
            }
            _ => {}
        }
        match s.win_type {
            WinType::KongReplacement => ids.push("GANG_SHANG_KAI_HUA"),
            WinType::AfterKongDiscard => ids.push("GANG_SHANG_PAO"),
            _ => {}
        }
        self.fans
            .iter()
            .filter(|f| ids.contains(&f.id.as_str()))
            .collect()
    }

    fn value_of(&self, big: &[&FanDef]) -> i64 {
        if big.is_empty() {
            self.xiao_hu
        } else if self.additive {
            big.iter().map(|f| f.value).sum()
        } else {
            big.iter().map(|f| f.value).product()
        }
    }

    /// Score one win.
    pub fn score(&self, s: &Situation) -> Result<PatternScore> {
        self.check_tiles(s)?;
        self.check_win_type(s)?;
        let shapes = Shapes {
            standard: true,
            seven_pairs: true,
            seven_pairs_quads: true,
            ..Shapes::STANDARD
        };
        let decs = decompose(&s.full_counts(), s.hand.melds(), shapes)?;
        let best = decs
            .iter()
            .map(|d| (self.patterns(s, d), d))
            .max_by_key(|(p, _)| self.value_of(p))
            .ok_or_else(|| {
                Error::hand(format!(
                    "not a winning hand: {} + {} is neither 4 sets + a pair nor seven pairs",
                    s.hand, s.win_tile
                ))
            })?;
        let (big, d) = best;
        let value = self.value_of(&big);
        let mut patterns: Vec<CountedPattern> =
            big.iter().map(|f| CountedPattern::from_def(f, 1)).collect();
        if big.is_empty() {
            patterns.push(CountedPattern::from_def(fan(&self.fans, "XIAO_HU")?, 1));
        }
        let payers = if s.is_self_drawn() {
            "all"
        } else {
            "discarder"
        };
        Ok(PatternScore {
            variant: "huanle3d".into(),
            patterns,
            value,
            capped_value: value,
            per_payer: value,
            payers: payers.into(),
            details: json!({"da_hu_count": big.len(), "form": d.form.name()}),
        })
    }

    /// Settle one hand: kong chips (instant, or only for a winning owner), then the win(s).
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
        let mut scores = Vec::new();
        let mut winners = Vec::new();
        if rec.wins.len() > 1 {
            let d0 = rec.wins[0].discarder.as_ref();
            let same = rec
                .wins
                .iter()
                .all(|w| w.discarder.is_some() && w.discarder.as_ref() == d0);
            if !same {
                return Err(Error::settlement(
                    "several winners only on one 杠上炮 discard (all wins need the same discarder)",
                ));
            }
            if !self.multi_ron {
                return Err(Error::settlement(
                    "multi_ron_on_gang_shang_pao=false: only one player wins on a 杠上炮",
                ));
            }
        }
        for (i, w) in rec.wins.iter().enumerate() {
            let s = w.situation()?;
            let sc = match scored.get(i) {
                Some(x) => x.clone(),
                None => self.score(&s)?,
            };
            let wi = rec.seat(&w.winner, "wins[].winner")?;
            if winners.contains(&wi) {
                return Err(Error::settlement(format!("{} wins twice", w.winner)));
            }
            match (&w.discarder, s.is_self_drawn()) {
                (None, false) => {
                    return Err(Error::settlement(format!(
                        "{}'s win on a discard needs the discarder",
                        w.winner
                    )));
                }
                (Some(_), true) => {
                    return Err(Error::settlement(format!(
                        "{}'s self-drawn win has no discarder",
                        w.winner
                    )));
                }
                _ => {}
            }
            if s.win_type == WinType::AfterKongDiscard {
                let d = w.discarder.as_deref().unwrap_or_default();
                if rec.kongs.last().is_some_and(|k| k.owner != d) {
                    return Err(Error::settlement(format!(
                        "杠上炮: the discarder {d} must be the owner of the last kong"
                    )));
                }
            }
            winners.push(wi);
            scores.push((wi, w.discarder.clone(), sc));
        }
        let mut kong_lines = Vec::new();
        for k in &rec.kongs {
            let o = rec.seat(&k.owner, "kongs[].owner")?;
            let lines: Vec<(usize, usize, i64)> = match k.kind.as_str() {
                "open" | "added" => {
                    let Some(f) = &k.feeder else {
                        return Err(Error::settlement(format!(
                            "{}'s {} kong needs the feeder (the discarder of the kong tile or of the 碰'd tile)",
                            k.owner, k.kind
                        )));
                    };
                    let f = rec.seat(f, "kongs[].feeder")?;
                    let v = if k.kind == "open" {
                        self.kong_open
                    } else {
                        self.kong_added
                    };
                    vec![(f, o, v)]
                }
                "concealed" => {
                    if k.feeder.is_some() {
                        return Err(Error::settlement("a concealed kong has no feeder"));
                    }
                    (0..n)
                        .filter(|&i| i != o)
                        .map(|i| (i, o, self.kong_concealed))
                        .collect()
                }
                other => {
                    return Err(Error::settlement(format!(
                        "unknown kong kind {other:?} (open, added, concealed)"
                    )));
                }
            };
            let reason = format!("{} {} kong", k.owner, k.kind);
            if self.kong_on_owner_win {
                if winners.contains(&o) {
                    kong_lines.push((reason, lines));
                }
            } else {
                pay(&mut ledger, "KONG_INSTANT", &reason, &lines)?;
            }
        }
        for (wi, discarder, sc) in &scores {
            let lines: Vec<(usize, usize, i64)> = match discarder {
                Some(d) => vec![(rec.seat(d, "wins[].discarder")?, *wi, sc.per_payer)],
                None => (0..n)
                    .filter(|i| i != wi)
                    .map(|i| (i, *wi, sc.per_payer))
                    .collect(),
            };
            let ids: Vec<&str> = sc.patterns.iter().map(|p| p.id.as_str()).collect();
            let reason = format!("{} wins: {}", rec.seats[*wi], ids.join(" + "));
            pay(&mut ledger, "WIN", &reason, &lines)?;
        }
        for (reason, lines) in kong_lines {
            pay(&mut ledger, "KONG_DEFERRED", &reason, &lines)?;
        }
        ledger.end_hand();
        Ok((ledger, scores.into_iter().map(|x| x.2).collect()))
    }
}
