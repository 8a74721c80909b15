//! 麻将规则（第4稿） (`hebei_draft4`): scoring of one win (additive 番, ×2^番 capped at 6番) and the
//! settlement of a hand on the shared ledger (fixed situation table 平点/庄点/点庄/平摸/庄摸, 640 per
//! payer for the dealer too, 上楼 floors, kongs paid only to the winner, 跟庄). Spec:
//! `shared/rules/hebei_draft4.md`; numbers come from `presets/hebei_draft4.toml`.

mod ruleset;
pub mod table;
#[cfg(test)]
mod tests;

pub use ruleset::{HebeiDraft4, compile, rules_of};

use serde_json::{Value, json};

use crate::decompose::{Decomposition, Form, Shapes, decompose};
use crate::error::{Error, Result};
use crate::hand::{Hand, MeldKind};
use crate::preset::{FanDef, Options, PresetData};
use crate::situation::{Situation, WinType};
use crate::tile::{Counts, Tile};

/// 上楼 model (switch `shang_lou`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Floor {
    Double,
    PlusFan,
    Linear,
}

/// Base amounts of the situation table (rule 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseTable {
    pub ping_dian: i64,
    pub zhuang_dian: i64,
    pub dian_zhuang: i64,
    pub ping_mo_dealer: i64,
    pub ping_mo_other: i64,
    pub zhuang_mo: i64,
}

/// The compiled rules.
#[derive(Clone, Debug)]
pub struct HebeiDraft4Rules {
    pub fans: Vec<FanDef>,
    pub fan_cap: i64,
    pub payer_cap: i64,
    pub floor: Floor,
    pub cap_before_floor: bool,
    pub qidui_counts_menqing: bool,
    pub yi_tiao_long_ranks: bool,
    pub ming_gang_win_discarder: bool,
    pub gen_zhuang: bool,
    pub hun_winds_only: bool,
    pub base: BaseTable,
    pub gen_zhuang_amount: i64,
    pub ming_gang_amount: i64,
    pub an_gang_amount: i64,
    pub max_floor: i64,
}

fn int_param(t: &toml::Table, key: &str) -> Result<i64> {
    t.get(key)
        .and_then(toml::Value::as_integer)
        .ok_or_else(|| Error::rule(format!("hebei_draft4: params.{key} missing")))
}

impl HebeiDraft4Rules {
    pub fn compile(preset: &PresetData, o: &Options) -> Result<HebeiDraft4Rules> {
        let (fans, _, _) = preset.fans_for_profile(None);
        let p = &preset.params;
        let b = p
            .get("base")
            .and_then(toml::Value::as_table)
            .ok_or_else(|| Error::rule("hebei_draft4: params.base missing"))?;
        Ok(HebeiDraft4Rules {
            fans,
            fan_cap: o.int("fan_cap")?,
            payer_cap: o.int("payer_cap")?,
            floor: match o.str("shang_lou")? {
                "plus_fan" => Floor::PlusFan,
                "linear" => Floor::Linear,
                _ => Floor::Double,
            },
            cap_before_floor: o.bool("cap_before_floor")?,
            qidui_counts_menqing: o.bool("qidui_counts_menqing")?,
            yi_tiao_long_ranks: o.str("yi_tiao_long")? == "ranks",
            ming_gang_win_discarder: o.str("ming_gang_payer")? == "win_discarder",
            gen_zhuang: o.bool("gen_zhuang")?,
            hun_winds_only: o.str("hun_yi_se_honours")? == "winds",
            base: BaseTable {
                ping_dian: int_param(b, "ping_dian")?,
                zhuang_dian: int_param(b, "zhuang_dian")?,
                dian_zhuang: int_param(b, "dian_zhuang")?,
                ping_mo_dealer: int_param(b, "ping_mo_dealer")?,
                ping_mo_other: int_param(b, "ping_mo_other")?,
                zhuang_mo: int_param(b, "zhuang_mo")?,
            },
            gen_zhuang_amount: int_param(p, "gen_zhuang_amount")?,
            ming_gang_amount: int_param(p, "ming_gang_amount")?,
            an_gang_amount: int_param(p, "an_gang_amount")?,
            max_floor: int_param(p, "max_floor")?,
        })
    }
}

/// The score of one win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HebeiDraft4Score {
    /// (id, zh, en, 番).
    pub fans: Vec<(String, String, String, i64)>,
    pub fan_total: i64,
    pub capped_fan_total: i64,
    /// 2^capped 番.
    pub multiplier: i64,
    pub men_qing: bool,
    pub win_type: WinType,
    pub decomposition: Decomposition,
}

impl HebeiDraft4Score {
    pub fn to_json_value(&self) -> Value {
        json!({
            "variant": "hebei_draft4",
            "fans": self.fans.iter().map(|(id, zh, en, v)| json!({
                "id": id, "zh": zh, "en": en, "value": v, "count": 1, "op": "add"})).collect::<Vec<_>>(),
            "fan_total": self.fan_total,
            "capped_fan_total": self.capped_fan_total,
            "raw_multiplier": 1i64 << self.fan_total.clamp(0, 40),
            "multiplier": self.multiplier,
            "men_qing": self.men_qing,
            "win_type": self.win_type.name(),
            "decomposition": crate::scoring::score::decomposition_json(&self.decomposition),
        })
    }
}

pub(crate) const SHAPES: Shapes = Shapes {
    standard: true,
    seven_pairs: true,
    seven_pairs_quads: true,
    thirteen_orphans: false,
    honors_knitted: false,
    knitted_straight: false,
};

fn winning_tiles(hand: &Hand) -> Vec<Tile> {
    let all = hand.all_counts();
    (0..34u8)
        .map(Tile::new_unchecked)
        .filter(|t| all[t.idx()] < 4)
        .filter(|t| {
            let mut c = *hand.counts();
            c[t.idx()] += 1;
            decompose(&c, hand.melds(), SHAPES).is_ok_and(|d| !d.is_empty())
        })
        .collect()
}

impl HebeiDraft4Rules {
    fn detect(
        &self,
        s: &Situation,
        d: &Decomposition,
        all: &Counts,
        waits: &[Tile],
    ) -> Vec<&'static str> {
        let melds = s.hand.melds();
        let men_qing = melds.iter().all(|m| m.concealed);
        let mut out = vec!["TUI_DAO_HE"];
        let seven = d.form == Form::SevenPairs;
        if men_qing && (!seven || self.qidui_counts_menqing) {
            out.push("MEN_QING");
        }
        let suits: Vec<usize> = (0..3)
            .filter(|&k| (k * 9..k * 9 + 9).any(|i| all[i] > 0))
            .collect();
        let winds = (27..31).any(|i| all[i] > 0);
        let dragons = (31..34).any(|i| all[i] > 0);
        if suits.len() == 1 && !winds && !dragons {
            out.push("QING_YI_SE");
        }
        let honours_ok = if self.hun_winds_only {
            winds && !dragons
        } else {
            winds || dragons
        };
        if suits.len() == 1 && honours_ok {
            out.push("HUN_YI_SE");
        }
        if d.form == Form::Standard {
            if d.sets.iter().all(|x| x.kind != MeldKind::Chow) {
                out.push("DUI_DUI_HE");
            }
            if melds.len() == 4 && melds.iter().all(|m| !m.concealed) {
                out.push("DA_DIAO");
            }
            let w = s.win_tile;
            if w == Tile::new_unchecked(4)
                && d.sets
                    .iter()
                    .any(|x| !x.declared && x.kind == MeldKind::Chow && x.tile.index() == 3)
                && waits == [w]
            {
                out.push("ZHUO_WU_KUI");
            }
            let long = if self.yi_tiao_long_ranks {
                (0..3).any(|k| (k * 9..k * 9 + 9).all(|i| all[i] > 0))
            } else {
                (0..3u8).any(|k| {
                    [0u8, 3, 6].iter().all(|r| {
                        d.sets
                            .iter()
                            .any(|x| x.kind == MeldKind::Chow && x.tile.index() == k * 9 + r)
                    })
                })
            };
            if long {
                out.push("YI_TIAO_LONG");
            }
        }
        if seven {
            out.push("QI_DUI");
            if d.pairs.windows(2).any(|p| p[0] == p[1]) {
                out.push("HAO_HUA_QI_DUI");
            }
        }
        if s.wall_last {
            out.push("HAI_DI_LAO_YUE");
        }
        if s.win_type == WinType::KongReplacement {
            out.push("GANG_SHANG_KAI_HUA");
        }
        out
    }

    /// Score one win; a discard win (捉铳, 抢杠和) needs 门清, a 0-番 推倒和 needs a self-draw.
    pub fn score(&self, s: &Situation) -> Result<HebeiDraft4Score> {
        if s.flowers > 0 || !s.flower_tiles.is_empty() {
            return Err(Error::hand("hebei_draft4 plays without flowers"));
        }
        let men_qing = s.hand.melds().iter().all(|m| m.concealed);
        if !s.is_self_drawn() && !men_qing {
            return Err(Error::hand(
                "吃碰后只能自摸: an open hand (吃/碰/明杠) may not win on a discard or rob a kong; only 门清 hands may 捉铳",
            ));
        }
        let mut all = s.hand.all_counts();
        all[s.win_tile.idx()] += 1;
        let decs = decompose(&s.full_counts(), s.hand.melds(), SHAPES)?;
        if decs.is_empty() {
            return Err(Error::hand(format!(
                "not a winning hand: {} + {} is neither 4 sets + a pair nor 七对",
                s.hand, s.win_tile
            )));
        }
        let waits = winning_tiles(&s.hand);
        let mut best: Option<HebeiDraft4Score> = None;
        for d in decs {
            let det = self.detect(s, &d, &all, &waits);
            let mut kept: Vec<usize> = det
                .iter()
                .filter_map(|id| self.fans.iter().position(|f| f.id == *id && f.enabled))
                .collect();
            let excluded: Vec<String> = kept
                .iter()
                .flat_map(|&i| self.fans[i].excludes.clone())
                .collect();
            kept.retain(|&i| !excluded.contains(&self.fans[i].id));
            if kept.iter().any(|&i| !self.fans[i].fallback) {
                kept.retain(|&i| !self.fans[i].fallback);
            }
            kept.sort_unstable();
            let total: i64 = kept.iter().map(|&i| self.fans[i].value).sum();
            if best.as_ref().is_some_and(|b| b.fan_total >= total) {
                continue;
            }
            let capped = total.min(self.fan_cap);
            best = Some(HebeiDraft4Score {
                fans: kept
                    .iter()
                    .map(|&i| {
                        let f = &self.fans[i];
                        (f.id.clone(), f.zh.clone(), f.en.clone(), f.value)
                    })
                    .collect(),
                fan_total: total,
                capped_fan_total: capped,
                multiplier: 1i64 << capped.clamp(0, 40),
                men_qing,
                win_type: s.win_type,
                decomposition: d,
            });
        }
        let best = best.expect("at least one decomposition");
        if best.fan_total == 0 && !s.is_self_drawn() {
            return Err(Error::hand("推倒和 (0 番) may only win by self-draw"));
        }
        Ok(best)
    }
}
