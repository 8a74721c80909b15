//! 上海麻将 清混碰 (`shanghai`): scoring of one win (P group: the highest of 碰碰胡/混一色/清一色/
//! 混碰/八花齐/清碰/风一色/风碰; S group adds 杠开/大吊车/开宝/黄番; stake (底 + 花) × 2^番 capped by the
//! 勒子) and the settlement of a hand on the shared ledger (承包, 抢杠 3 shares, 一炮多响). Spec:
//! `shared/rules/shanghai.md`; numbers come from `presets/shanghai.toml`.

mod ruleset;
pub mod table;
#[cfg(test)]
mod tests;

pub use ruleset::{Shanghai, compile, rules_of};

use serde_json::{Value, json};

use crate::analysis;
use crate::decompose::{Decomposition, Shapes, decompose};
use crate::error::{Error, Result};
use crate::hand::MeldKind;
use crate::preset::{FanDef, Options, PresetData};
use crate::situation::{Situation, WinType};
use crate::tile::{Counts, Tile};
use crate::wild::{decompose_with_wild_kind, read_tiles};

/// 百搭 (switch `baida`): which tile kind is wild in a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baida {
    /// No wildcard (default).
    None,
    /// 翻百搭: the successor of the flipped tile (`situation.wild_indicator`) is 百搭.
    IndicatorNext,
    /// The flipped tile's own kind is 百搭.
    Indicator,
}

/// The compiled rules.
#[derive(Clone, Debug)]
pub struct ShanghaiRules {
    pub fans: Vec<FanDef>,
    pub any_hand: bool,
    /// 敲麻 (`mode = qiao_ma`): any complete hand wins after 敲; 番 only 门清 / 单吊.
    pub qiao_ma: bool,
    /// 中发白 are flowers (20 花); a hand may not hold them.
    pub dragons_as_flowers: bool,
    pub baida: Baida,
    pub must_have_hua: bool,
    pub base_chips: i64,
    pub hua_chip: i64,
    pub lezi: i64,
    pub winds_only: bool,
    pub bao_both: bool,
    pub cap_per_person: bool,
    pub chengbao_claims: i64,
}

impl ShanghaiRules {
    pub fn compile(preset: &PresetData, o: &Options) -> Result<ShanghaiRules> {
        let (mut fans, _, _) = preset.fans_for_profile(None);
        let qp = o.int("qing_peng_value")?;
        if let Some(f) = fans.iter_mut().find(|f| f.id == "QING_PENG") {
            f.value = qp;
        }
        Ok(ShanghaiRules {
            fans,
            any_hand: o.str("mode")? == "any_hand",
            qiao_ma: o.str("mode")? == "qiao_ma",
            dragons_as_flowers: o.bool("dragons_as_flowers")?,
            baida: match o.str("baida")? {
                "indicator_next" => Baida::IndicatorNext,
                "indicator" => Baida::Indicator,
                _ => Baida::None,
            },
            must_have_hua: o.bool("must_have_hua")?,
            base_chips: o.int("base_chips")?,
            hua_chip: o.int("hua_chip")?,
            lezi: o.int("lezi_chips")?,
            winds_only: o.str("hun_honours")? == "winds",
            bao_both: o.str("bao_discard_share")? == "both",
            cap_per_person: o.str("cap_scope")? == "per_person",
            chengbao_claims: preset
                .params
                .get("chengbao_claims")
                .and_then(toml::Value::as_integer)
                .unwrap_or(3),
        })
    }

    fn fan(&self, id: &str) -> Option<&FanDef> {
        self.fans.iter().find(|f| f.id == id && f.enabled)
    }
}

/// Pending counters carried into this win (situation keys `kai_bao`, `huang_fan`), and the
/// number of 中发白 set aside as flowers (`dragon_flowers`, switch `dragons_as_flowers`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pending {
    pub kai_bao: u32,
    pub huang_fan: u32,
    pub dragon_flowers: u32,
}

/// The score of one win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShanghaiScore {
    /// (id, zh, en, 番 each, count).
    pub fans: Vec<(String, String, String, i64, u32)>,
    pub fan_total: i64,
    /// 花: flowers + exposed honour 碰 + kongs.
    pub hua: i64,
    /// The 勒子 cap of this hand (0 = none).
    pub cap: i64,
    /// One payer's share before the cap.
    pub raw_share: i64,
    /// One payer's share.
    pub share: i64,
    /// Paid by the three others (self-draw, 杠开, 抢杠, 八花齐).
    pub self_draw_payment: bool,
    pub win_type: WinType,
    /// The reading that gave the P pattern (none for 八花齐 or 乱风 风一色 without a reading).
    pub decomposition: Option<Decomposition>,
}

impl ShanghaiScore {
    pub fn to_json_value(&self) -> Value {
        json!({
            "variant": "shanghai",
            "fans": self.fans.iter().map(|(id, zh, en, v, n)| json!({
                "id": id, "zh": zh, "en": en, "value": v, "count": n,
                "op": if matches!(id.as_str(), "GANG_KAI" | "DA_DIAO_CHE" | "KAI_BAO" | "HUANG_FAN" | "MEN_QING" | "DAN_DIAO") {"add"} else {"base"}}))
                .collect::<Vec<_>>(),
            "fan_total": self.fan_total,
            "hua": self.hua,
            "cap": self.cap,
            "raw_multiplier": self.raw_share,
            "multiplier": self.share,
            "share": self.share,
            "self_draw_payment": self.self_draw_payment,
            "win_type": self.win_type.name(),
        })
    }
}

impl Pending {
    /// The pending counters of a situation (`situation.kai_bao`, `huang_fan`, `dragon_flowers`).
    pub fn of(s: &Situation) -> Pending {
        Pending {
            kai_bao: u32::from(s.extra.kai_bao),
            huang_fan: u32::from(s.extra.huang_fan),
            dragon_flowers: u32::from(s.extra.dragon_flowers),
        }
    }
}

impl ShanghaiRules {
    /// The 百搭 kind of this hand under the `baida` switch. The indicator is required by the 百搭
    /// modes and refused otherwise (it would be silently ignored).
    pub fn baida_kind(&self, s: &Situation) -> Result<Option<Tile>> {
        let ind = s.extra.wild_indicator;
        if let Some(t) = ind.filter(|t| t.is_flower()) {
            return Err(Error::hand(format!(
                "situation.wild_indicator: {t} is a flower, not a tile that can be flipped for 百搭"
            )));
        }
        let w = match (self.baida, ind) {
            (Baida::None, Some(t)) => {
                return Err(Error::hand(format!(
                    "situation.wild_indicator {t} given, but switch baida=none (no 百搭)"
                )));
            }
            (Baida::None, None) => return Ok(None),
            (_, None) => {
                return Err(Error::hand(
                    "situation.wild_indicator (the flipped tile) is required with switch baida",
                ));
            }
            (Baida::IndicatorNext, Some(t)) => t.next(),
            (Baida::Indicator, Some(t)) => t,
        };
        if self.dragons_as_flowers && w.is_dragon() {
            return Err(Error::hand(format!(
                "百搭 {w} is a dragon, but dragons are flowers (switch dragons_as_flowers)"
            )));
        }
        Ok(Some(w))
    }

    /// The P patterns a reading of the hand (`read`: its tiles; `complete`: 4 sets + a pair,
    /// `all_pungs` in that reading) qualifies for.
    fn p_hits(&self, read: &Counts, complete: bool, all_pungs: bool) -> Vec<&'static str> {
        let suited = (0..3)
            .filter(|&k| (k * 9..k * 9 + 9).any(|i| read[i] > 0))
            .count();
        let winds = (27..31).any(|i| read[i] > 0);
        let dragons = (31..34).any(|i| read[i] > 0);
        let honours_ok = |any: bool| {
            if self.winds_only {
                winds && !dragons
            } else {
                any
            }
        };
        let feng_yi_se = suited == 0 && honours_ok(winds || dragons);
        let mut hits = Vec::new();
        if complete {
            if all_pungs {
                hits.push("PENG_PENG_HU");
            }
            if suited == 1 && !winds && !dragons {
                hits.push(if all_pungs { "QING_PENG" } else { "QING_YI_SE" });
                hits.push("QING_YI_SE");
            }
            if suited == 1 && honours_ok(winds || dragons) {
                hits.push(if all_pungs { "HUN_PENG" } else { "HUN_YI_SE" });
                hits.push("HUN_YI_SE");
            }
            if feng_yi_se && all_pungs {
                hits.push("FENG_PENG");
            }
        }
        if feng_yi_se {
            hits.push("FENG_YI_SE");
        }
        hits
    }

    /// 单吊 (敲麻): the hand before the winning tile waits on that tile only, and a reading
    /// uses it as the pair.
    fn dan_diao(&self, s: &Situation, wild: Option<Tile>, decs: &[Decomposition]) -> Result<bool> {
        if !decs.iter().any(|d| d.pair == Some(s.win_tile)) {
            return Ok(false);
        }
        let mut c = *s.hand.counts();
        let mut k = 0;
        if let Some(w) = wild {
            k = c[w.idx()];
            c[w.idx()] = 0;
        }
        let w = analysis::waits(&c, k, s.hand.melds().len(), Shapes::STANDARD, None)?;
        Ok(w == [s.win_tile])
    }

    /// Score one win. A hand without a P pattern (清混碰 mode) raises `InvalidHand`.
    pub fn score(&self, s: &Situation, p: Pending) -> Result<ShanghaiScore> {
        let mut all = s.hand.all_counts();
        all[s.win_tile.idx()] += 1;
        let melds = s.hand.melds();
        if self.dragons_as_flowers {
            if let Some(i) = (31..34).find(|&i| all[i] > 0) {
                return Err(Error::hand(format!(
                    "{} is a flower under switch dragons_as_flowers (set aside at once, never held): {} + {}",
                    Tile::new_unchecked(i as u8),
                    s.hand,
                    s.win_tile
                )));
            }
        } else if p.dragon_flowers > 0 {
            return Err(Error::hand(
                "situation.dragon_flowers needs switch dragons_as_flowers",
            ));
        }
        let wild = self.baida_kind(s)?;
        let ba_hua = s.flowers == 8;
        let full = s.full_counts();
        let decs = match wild {
            None => decompose(&full, melds, Shapes::STANDARD)?,
            Some(w) => decompose_with_wild_kind(&full, w, melds, Shapes::STANDARD)?,
        };
        // Tiles that are not standing 百搭 copies (乱风 风一色 needs no structure: the 百搭 copies
        // can be any honour).
        let mut fixed = all;
        if let Some(w) = wild {
            fixed[w.idx()] -= full[w.idx()];
        }
        let luan_feng = !self.qiao_ma && self.p_hits(&fixed, false, false).contains(&"FENG_YI_SE");
        if decs.is_empty() && !ba_hua && !luan_feng {
            return Err(Error::hand(format!(
                "not a winning hand: {} + {} is not 4 sets + a pair (no 七对 in 上海){}",
                s.hand,
                s.win_tile,
                wild.map_or(String::new(), |w| format!(" (百搭 {w})"))
            )));
        }
        if self.qiao_ma && !ba_hua && !s.extra.ready_declared {
            return Err(Error::hand(
                "敲麻: a win needs 敲 first (situation.ready_declared; \"不敲不能胡牌\")",
            ));
        }
        // The best P pattern over every reading (decompositions, and 乱风 without one).
        let mut top: Option<FanDef> = None;
        let mut top_reading: Option<usize> = None;
        // ties: the later table entry (the composite) wins
        let rank = |f: &FanDef| (f.value, self.fans.iter().position(|x| x.id == f.id));
        let consider = |hits: Vec<&str>, top: &mut Option<FanDef>| -> bool {
            if self.qiao_ma {
                return false;
            }
            let mut better = false;
            for f in hits.iter().filter_map(|id| self.fan(id)) {
                if top.as_ref().is_none_or(|t| rank(f) >= rank(t)) {
                    *top = Some(f.clone());
                    better = true;
                }
            }
            better
        };
        if ba_hua {
            consider(vec!["BA_HUA_QI"], &mut top);
        }
        for (i, d) in decs.iter().enumerate() {
            let read = if d.wildcards.is_empty() {
                all
            } else {
                read_tiles(d)
            };
            let all_pungs = d.sets.iter().all(|x| x.kind != MeldKind::Chow);
            if consider(self.p_hits(&read, true, all_pungs), &mut top) {
                top_reading = Some(i);
            }
        }
        if luan_feng && consider(vec!["FENG_YI_SE"], &mut top) {
            top_reading = None;
        }
        if top_reading.is_none() && top.is_none() {
            top_reading = (!decs.is_empty()).then_some(0);
        }
        if top.is_none() && !self.any_hand && !self.qiao_ma {
            return Err(Error::hand(format!(
                "清混碰: {} + {} has no 碰碰胡, 清一色, 混一色 or 风一色 (or 八花齐); a hand without 番 cannot win (switch mode)",
                s.hand, s.win_tile
            )));
        }
        let mut fans = Vec::new();
        let mut total = 0;
        if let Some(f) = &top {
            fans.push((f.id.clone(), f.zh.clone(), f.en.clone(), f.value, 1));
            total += f.value;
        }
        let mut add = |id: &str, n: u32, fans: &mut Vec<(String, String, String, i64, u32)>| {
            if let Some(f) = self.fan(id).filter(|_| n > 0) {
                fans.push((f.id.clone(), f.zh.clone(), f.en.clone(), f.value, n));
                total += f.value * i64::from(n);
            }
        };
        if self.qiao_ma {
            if !ba_hua {
                add(
                    "MEN_QING",
                    u32::from(melds.iter().all(|m| m.concealed)),
                    &mut fans,
                );
                add(
                    "DAN_DIAO",
                    u32::from(self.dan_diao(s, wild, &decs)?),
                    &mut fans,
                );
            }
        } else if !ba_hua {
            add(
                "GANG_KAI",
                u32::from(s.win_type == WinType::KongReplacement),
                &mut fans,
            );
            add("DA_DIAO_CHE", u32::from(melds.len() == 4), &mut fans);
        }
        add("KAI_BAO", p.kai_bao, &mut fans);
        add("HUANG_FAN", p.huang_fan, &mut fans);
        let hua = i64::from(s.flowers)
            + i64::from(p.dragon_flowers)
            + melds
                .iter()
                .filter(|m| {
                    m.is_kong() || (m.kind == MeldKind::Pung && !m.concealed && m.tile.is_honor())
                })
                .count() as i64;
        if self.must_have_hua && hua == 0 {
            return Err(Error::hand(
                "新规矩: a win needs at least one 花 (switch must_have_hua)",
            ));
        }
        let top_id = top.as_ref().map_or("", |f| f.id.as_str());
        let lez = if top_id == "FENG_PENG" {
            4
        } else if matches!(top_id, "QING_PENG" | "FENG_YI_SE") || p.kai_bao > 0 || p.huang_fan > 0 {
            2
        } else {
            1
        };
        let cap = self.lezi * lez;
        if total > 40 {
            return Err(Error::hand(format!("{total} 番 is out of range")));
        }
        let raw = (self.base_chips + hua * self.hua_chip) * (1i64 << total);
        let share = if cap > 0 { raw.min(cap) } else { raw };
        Ok(ShanghaiScore {
            fans,
            fan_total: total,
            hua,
            cap,
            raw_share: raw,
            share,
            self_draw_payment: s.is_self_drawn() || ba_hua || s.win_type == WinType::RobKong,
            win_type: s.win_type,
            decomposition: top_reading.and_then(|i| decs.get(i).cloned()),
        })
    }
}
