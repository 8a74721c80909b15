//! 欢乐麻将3D (`presets/huanle3d.toml`, spec `shared/rules/huanle3d.md`): self-draw only (杠上炮
//! excepted), no 吃, a 小胡 is 1 unit from each payer and each 大胡 pattern multiplies by 3.
//! Pattern values and parameters come from the preset file; this module detects the patterns,
//! checks the win and turns a hand record into ledger events.

use std::any::Any;
use std::sync::Arc;

use serde_json::json;

use crate::decompose::{Decomposition, Form, Shapes, decompose};
use crate::error::{Error, Result};
use crate::game::flow::FlowFacts;
use crate::hand::MeldKind;
use crate::preset::{FanDef, Options, PresetData};
use crate::rules::{Book, Case, Ruleset, TileBook};
use crate::scoring::record::{HandRecord, RecordSpec};
use crate::scoring::score::{FanHit, Reading, Score, Unit};
use crate::scoring::{enabled_fans, fan, param_int};
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
    /// The preset data (the names of the fans).
    data: &'static PresetData,
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
    pub fn compile(p: &'static PresetData, o: &Options) -> Result<Huanle3dRules> {
        let tile_set = match o.str("tile_set")? {
            "suits3" => TileSet::Suits3,
            "full136" => TileSet::Full136,
            _ => TileSet::Suits3Red,
        };
        Ok(Huanle3dRules {
            data: p,
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

    /// Score one win (no payments).
    pub fn score(&self, s: &Situation) -> Result<Score> {
        s.check_flags("huanle3d", &[])?;
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
        let mut fans: Vec<FanHit> = big.iter().map(|f| FanHit::entry(self.data, f, 1)).collect();
        if big.is_empty() {
            fans.push(FanHit::entry(self.data, fan(&self.fans, "XIAO_HU")?, 1));
        }
        Ok(Score {
            variant: "huanle3d",
            fans: fans.into(),
            raw_total: value,
            total: value,
            unit: Unit::Multiplier,
            meets_minimum: true,
            per_payer: value,
            players: 4,
            payments: Default::default(),
            decomposition: Some(Reading::Tiles(d.clone())),
            extras: vec![("da_hu_count", json!(big.len()))],
        })
    }
}

/// The 欢乐麻将3D ruleset.
#[derive(Debug)]
pub struct Huanle3d {
    pub rules: Huanle3dRules,
    flow: FlowFacts,
}

/// Compile the `huanle3d` preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    let rules = Huanle3dRules::compile(p, o)?;
    let mut flow = FlowFacts::from_data(p, o);
    flow.shapes = Shapes {
        standard: true,
        seven_pairs: true,
        seven_pairs_quads: true,
        ..Shapes::STANDARD
    };
    flow.rob_kong = rules.rob_kong;
    Ok(Arc::new(Huanle3d { rules, flow }))
}

impl TileBook for Huanle3d {
    fn id(&self) -> &'static str {
        "huanle3d"
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
        self.rules.score(s)
    }
    /// Kong chips (instant, or only for a winning owner), then the win(s): 杠上炮 is paid by the
    /// kong owner (several winners only on that one discard), a self-draw by every other player.
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()> {
        let r = &self.rules;
        let n = rec.seats.len();
        let wins: Vec<_> = rec.wins().collect();
        if wins.len() > 1 {
            let d0 = wins[0].2;
            if !wins.iter().all(|w| w.2.is_some() && w.2 == d0) {
                return Err(Error::settlement(
                    "several winners only on one 杠上炮 discard (all wins need the same discarder)",
                ));
            }
            if !r.multi_ron {
                return Err(Error::settlement(
                    "multi_ron_on_gang_shang_pao=false: only one player wins on a 杠上炮",
                ));
            }
        }
        let mut winners = Vec::new();
        for &(i, w, d, case, _) in &wins {
            if winners.contains(&w) {
                return Err(Error::settlement(format!("{} wins twice", rec.seats[w])));
            }
            if let (Case::Tiles(s), Some(d)) = (case, d) {
                if s.win_type == WinType::AfterKongDiscard {
                    let last = rec.kongs().filter(|k| k.0 < i).last().map(|k| k.1);
                    if last.is_some_and(|o| o != d) {
                        return Err(Error::settlement(format!(
                            "杠上炮: the discarder {} must be the owner of the last kong",
                            rec.seats[d]
                        )));
                    }
                }
            }
            winners.push(w);
        }
        let mut deferred = Vec::new();
        for (_, o, kind, feeder, _) in rec.kongs() {
            let lines: Vec<(usize, usize, i64)> = match kind {
                "open" | "added" => {
                    let f = feeder.ok_or_else(|| {
                        Error::settlement(format!(
                            "{}'s {kind} kong needs the feeder (the discarder of the kong tile or of the 碰'd tile)",
                            rec.seats[o]
                        ))
                    })?;
                    let v = if kind == "open" {
                        r.kong_open
                    } else {
                        r.kong_added
                    };
                    vec![(f, o, v)]
                }
                _ => {
                    if feeder.is_some() {
                        return Err(Error::settlement("a concealed kong has no feeder"));
                    }
                    (0..n)
                        .filter(|&i| i != o)
                        .map(|i| (i, o, r.kong_concealed))
                        .collect()
                }
            };
            let reason = format!("{} {kind} kong", rec.seats[o]);
            if r.kong_on_owner_win {
                if winners.contains(&o) {
                    deferred.push((reason, lines));
                }
            } else {
                book.pay("KONG_INSTANT", &reason, &lines)?;
            }
        }
        for (k, &(_, w, d, _, _)) in wins.iter().enumerate() {
            let sc = &scores[k];
            let lines: Vec<(usize, usize, i64)> = match d {
                Some(d) => vec![(d, w, sc.per_payer)],
                None => (0..n)
                    .filter(|&i| i != w)
                    .map(|i| (i, w, sc.per_payer))
                    .collect(),
            };
            let ids: Vec<&str> = sc.fans.iter().map(|p| p.id()).collect();
            book.begin_win(k);
            book.pay(
                "WIN",
                &format!("{} wins: {}", rec.seats[w], ids.join(" + ")),
                &lines,
            )?;
            book.end_win();
        }
        for (reason, lines) in deferred {
            book.pay("KONG_DEFERRED", &reason, &lines)?;
        }
        book.ledger.end_hand();
        Ok(())
    }
}

impl Ruleset for Huanle3d {
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
            table::Huanle3dTable,
        )))
    }
    fn flow(&self) -> Option<&FlowFacts> {
        Some(&self.flow)
    }
}
