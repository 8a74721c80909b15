//! 卡五星 (湖北, three players): scoring of one win, the 大叫 value of a ready hand, and the
//! settlement of a hand on the shared ledger (喜钱 with 杠上杠 doubling, 包胡 / 对亮包赔, 买码, 漂,
//! 荒庄 查叫, the K3 forced end). Spec: `shared/rules/kawuxing.md`; every number comes from
//! `presets/kawuxing.toml` (multipliers, exclusions, switches).
//!
//! Pipeline: legality (84-tile set, no 吃, no winds/flowers) → every decomposition (standard with
//! any pair + 七对 with quads) → pattern detection → data-driven exclusion → product of the
//! multipliers → 起胡 minimum → cap.

mod settle;
pub mod table;
#[cfg(test)]
mod tests;

pub use settle::{Kawuxing, compile, rules_of};

use serde_json::{Value, json};

use crate::decompose::{Decomposition, Form, Shapes, decompose};
use crate::error::{Error, Result};
use crate::hand::{Hand, MeldKind};
use crate::preset::{FanDef, FanOp, Options, PresetData};
use crate::situation::{Situation, WinType};
use crate::tile::{Counts, Tile};

/// 起胡 minimum (switch `min_multiplier`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinRule {
    AllWins,
    DiscardOnly,
    None,
}

/// 荒庄 settlement (switch `draw_settlement`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawRule {
    K3ChaJiao,
    LiangdaoPays,
    FirstLiangdaoPays,
}

/// 买码 (switch `mai_ma`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaiMa {
    SelfDraw,
    LiangdaoSelfDraw,
    Off,
}

/// 四归 scope (switch `si_gui_scope`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiGui {
    /// The winning tile is the 4th copy (K1, default).
    WinningTile,
    /// 半频道: 明四归 also when the 4th copy of an exposed 碰 already stands in the hand.
    Half,
    /// 全频道: as `Half`, and 暗四归 also for four concealed copies of any kind (not a kong).
    Full,
}

/// The compiled 卡五星 rules of a variant.
#[derive(Clone, Debug)]
pub struct KawuxingRules {
    /// The effective pattern table (switches applied).
    pub fans: Vec<FanDef>,
    /// 0 = no cap.
    pub cap: i64,
    pub min_rule: MinRule,
    pub draw_rule: DrawRule,
    pub dui_liang_bao: bool,
    /// 杠上杠: the chain factor stops at ×2 (K6).
    pub kong_chain_k6: bool,
    pub mai_ma: MaiMa,
    pub piao: bool,
    pub si_gui: SiGui,
    /// Suit indices in play (0 m, 1 p, 2 s).
    pub suits: [u8; 2],
    pub base: i64,
    pub shapes: Shapes,
}

fn set_fan(fans: &mut [FanDef], id: &str, f: impl Fn(&mut FanDef)) {
    if let Some(x) = fans.iter_mut().find(|x| x.id == id) {
        f(x);
    }
}

impl KawuxingRules {
    pub fn compile(preset: &PresetData, o: &Options) -> Result<KawuxingRules> {
        let (mut fans, combine, _) = preset.fans_for_profile(None);
        if combine != "multiplier_product" {
            return Err(Error::rule(format!(
                "kawuxing combines patterns with multiplier_product, not {combine:?}"
            )));
        }
        if let Some(f) = fans.iter().find(|f| f.op != FanOp::Mul || f.value < 1) {
            return Err(Error::rule(format!(
                "kawuxing pattern {} must be op = \"mul\" with a value >= 1",
                f.id
            )));
        }
        let kwx = o.int("ka_wu_xing_value")?;
        if kwx != 2 && kwx != 4 {
            return Err(Error::rule(format!(
                "switch \"ka_wu_xing_value\" cannot be {kwx}; allowed: 2, 4"
            )));
        }
        set_fan(&mut fans, "KA_WU_XING", |f| f.value = kwx);
        if o.str("qidui_quads")? == "haohua" {
            set_fan(&mut fans, "SHUANG_LONG_QI_DUI", |f| f.value = 32);
            set_fan(&mut fans, "SAN_LONG_QI_DUI", |f| f.enabled = true);
        }
        if !o.bool("hai_di")? {
            set_fan(&mut fans, "HAI_DI_LAO_YUE", |f| f.enabled = false);
        }
        if o.bool("shu_kan")? {
            set_fan(&mut fans, "SHU_KAN", |f| f.enabled = true);
        }
        let cap = o.int("cap")?;
        if ![0, 4, 8, 16, 32].contains(&cap) && cap < 2 {
            return Err(Error::rule(format!(
                "switch \"cap\" cannot be {cap}; use 0 (no cap) or a cap >= 2 (4, 8, 16, 32)"
            )));
        }
        let suits = match o.str("suits")? {
            "mp" => [0, 1],
            "ms" => [0, 2],
            _ => [1, 2],
        };
        let base = preset
            .params
            .get("base")
            .and_then(toml::Value::as_integer)
            .unwrap_or(1);
        Ok(KawuxingRules {
            fans,
            cap,
            min_rule: match o.str("min_multiplier")? {
                "discard_only" => MinRule::DiscardOnly,
                "none" => MinRule::None,
                _ => MinRule::AllWins,
            },
            draw_rule: match o.str("draw_settlement")? {
                "liangdao_pays" => DrawRule::LiangdaoPays,
                "first_liangdao_pays" => DrawRule::FirstLiangdaoPays,
                _ => DrawRule::K3ChaJiao,
            },
            dui_liang_bao: o.bool("dui_liang_bao")?,
            kong_chain_k6: o.str("kong_chain_cap")? == "k6",
            mai_ma: match o.str("mai_ma")? {
                "liangdao_self_draw" => MaiMa::LiangdaoSelfDraw,
                "off" => MaiMa::Off,
                _ => MaiMa::SelfDraw,
            },
            piao: o.bool("piao")?,
            si_gui: match o.str("si_gui_scope")? {
                "half" => SiGui::Half,
                "full" => SiGui::Full,
                _ => SiGui::WinningTile,
            },
            suits,
            base,
            shapes: Shapes {
                standard: preset.rules.shapes.iter().any(|x| x == "standard"),
                seven_pairs: preset.rules.shapes.iter().any(|x| x == "seven_pairs"),
                seven_pairs_quads: preset.rules.qidui_quad_as_two_pairs,
                thirteen_orphans: false,
                honors_knitted: false,
                knitted_straight: false,
            },
        })
    }
}

/// One counted pattern of a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternHit {
    pub id: String,
    pub zh: String,
    pub en: String,
    /// Multiplier per occurrence.
    pub value: i64,
    pub count: u32,
    pub scope: String,
}

/// The score of one 卡五星 win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KawuxingScore {
    pub patterns: Vec<PatternHit>,
    /// The product of every counted pattern, before the cap.
    pub raw: i64,
    /// `min(cap, raw)`: what each payer pays in 底 before 包 doubling, 买码 and 漂.
    pub value: i64,
    pub capped: bool,
    pub liangdao: bool,
    pub win_type: WinType,
    pub decomposition: Decomposition,
}

impl KawuxingScore {
    pub fn to_json_value(&self) -> Value {
        json!({
            "variant": "kawuxing",
            "fans": self.patterns.iter().map(|p| json!({
                "id": p.id, "zh": p.zh, "en": p.en, "value": p.value, "count": p.count,
                "op": "mul", "scope": p.scope})).collect::<Vec<_>>(),
            "raw_multiplier": self.raw,
            "multiplier": self.value,
            "capped": self.capped,
            "liangdao": self.liangdao,
            "win_type": self.win_type.name(),
            "decomposition": crate::scoring::score::decomposition_json(&self.decomposition),
        })
    }
}

/// The 卡五星 flags of a situation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KawuxingFlags {
    /// The winner had declared 亮倒 (`situation.liangdao`).
    pub liangdao: bool,
}

fn pattern_ids_detected(
    s: &Situation,
    d: &Decomposition,
    all: &Counts,
    flags: KawuxingFlags,
    si_gui: SiGui,
) -> Vec<(&'static str, u32)> {
    let mut out: Vec<(&'static str, u32)> = vec![("PI_HU", 1)];
    let w = s.win_tile;
    let melds = s.hand.melds();
    match d.form {
        Form::Standard => {
            if d.sets.iter().all(|x| x.kind != MeldKind::Chow) {
                out.push(("PENG_PENG_HU", 1));
            }
            if w.rank() == Some(5)
                && d.sets.iter().any(|x| {
                    !x.declared && x.kind == MeldKind::Chow && x.tile.index() + 1 == w.index()
                })
            {
                out.push(("KA_WU_XING", 1));
            }
            let dragon_sets = d
                .sets
                .iter()
                .filter(|x| x.kind != MeldKind::Chow && x.tile.is_dragon())
                .count();
            if dragon_sets == 3 {
                out.push(("DA_SAN_YUAN", 1));
            }
            if dragon_sets == 2 && d.pair.is_some_and(Tile::is_dragon) {
                out.push(("XIAO_SAN_YUAN", 1));
            }
            if melds.len() == 4 && melds.iter().all(|m| !m.concealed) {
                out.push(("SHOU_ZHUA_YI", 1));
            }
            let kan = d
                .sets
                .iter()
                .filter(|x| x.kind == MeldKind::Kong || (x.kind == MeldKind::Pung && !x.declared))
                .count() as u32;
            if kan > 0 {
                out.push(("SHU_KAN", kan));
            }
        }
        Form::SevenPairs => {
            let quads = d.pairs.windows(2).filter(|p| p[0] == p[1]).count();
            out.push(match quads {
                0 => ("QI_DUI", 1),
                1 => ("LONG_QI_DUI", 1),
                2 => ("SHUANG_LONG_QI_DUI", 1),
                _ => ("SHUANG_LONG_QI_DUI", 1),
            });
            if quads >= 3 {
                out.push(("SAN_LONG_QI_DUI", 1));
            }
        }
        _ => {}
    }
    // The standing tiles with the winning tile (kongs are melds, not counted here).
    let standing = s.full_counts();
    if melds.iter().any(|m| {
        m.kind == MeldKind::Pung
            && (m.tile == w || (si_gui != SiGui::WinningTile && standing[m.tile.idx()] > 0))
    }) {
        out.push(("MING_SI_GUI", 1));
    }
    if standing[w.idx()] == 4 || (si_gui == SiGui::Full && standing.contains(&4)) {
        out.push(("AN_SI_GUI", 1));
    }
    let suits: Vec<bool> = (0..3)
        .map(|k| (k * 9..k * 9 + 9).any(|i| all[i] > 0))
        .collect();
    let honors = (27..34).any(|i| all[i] > 0);
    if !honors && suits.iter().filter(|&&b| b).count() == 1 {
        out.push(("QING_YI_SE", 1));
    }
    match s.win_type {
        WinType::KongReplacement => out.push(("GANG_SHANG_KAI_HUA", 1)),
        WinType::AfterKongDiscard => out.push(("GANG_SHANG_PAO", 1)),
        WinType::RobKong => out.push(("QIANG_GANG_HU", 1)),
        _ => {}
    }
    if s.wall_last && s.is_self_drawn() {
        out.push(("HAI_DI_LAO_YUE", 1));
    }
    if flags.liangdao {
        out.push(("LIANG_DAO", 1));
    }
    out
}

impl KawuxingRules {
    /// Legality of the tiles: the 84-tile set (two suits + 中发白), no 吃, no flowers.
    fn check_tiles(&self, hand: &Hand, all: &Counts) -> Result<()> {
        for (i, &n) in all.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let t = Tile::new_unchecked(i as u8);
            let ok = match t.suit_index() {
                Some(k) => self.suits.contains(&k),
                None => t.is_dragon(),
            };
            if !ok {
                return Err(Error::hand(format!(
                    "卡五星 plays with 84 tiles (two suits + 中发白): {t} is not in the set"
                )));
            }
        }
        if let Some(i) = hand.melds().iter().position(|m| m.kind == MeldKind::Chow) {
            return Err(Error::hand(format!(
                "hand.melds[{i}]: 吃 (chow) is not allowed in 卡五星 (\"不能吃牌\")"
            )));
        }
        Ok(())
    }

    fn evaluate(&self, detected: &[(&'static str, u32)]) -> (Vec<usize>, Vec<u32>, i64, i64) {
        let mut kept: Vec<(usize, u32)> = detected
            .iter()
            .filter_map(|&(id, n)| {
                let i = self.fans.iter().position(|f| f.id == id)?;
                (self.fans[i].enabled && n > 0).then_some((i, n))
            })
            .collect();
        let excluded: Vec<&str> = kept
            .iter()
            .flat_map(|&(i, _)| self.fans[i].excludes.iter().map(String::as_str))
            .collect();
        kept.retain(|&(i, _)| !excluded.contains(&self.fans[i].id.as_str()));
        if kept.iter().any(|&(i, _)| !self.fans[i].fallback) {
            kept.retain(|&(i, _)| !self.fans[i].fallback);
        }
        kept.sort_by_key(|&(i, _)| i);
        let mut raw: i64 = 1;
        let mut core: i64 = 1;
        for &(i, n) in &kept {
            let f = &self.fans[i];
            let m = f.value.saturating_pow(n);
            raw = raw.saturating_mul(m);
            if f.scope != "bonus" {
                core = core.saturating_mul(m);
            }
        }
        (
            kept.iter().map(|k| k.0).collect(),
            kept.iter().map(|k| k.1).collect(),
            raw,
            core,
        )
    }

    /// Score one win. Errors (`InvalidHand`) name what makes it impossible in 卡五星, including a
    /// win below the 起胡 minimum.
    pub fn score(&self, s: &Situation, flags: KawuxingFlags) -> Result<KawuxingScore> {
        let mut all = s.hand.all_counts();
        all[s.win_tile.idx()] += 1;
        self.check_tiles(&s.hand, &all)?;
        if s.flowers > 0 || !s.flower_tiles.is_empty() {
            return Err(Error::hand("卡五星 has no flowers"));
        }
        let decs = decompose(&s.full_counts(), s.hand.melds(), self.shapes)?;
        if decs.is_empty() {
            return Err(Error::hand(format!(
                "not a winning hand: {} + {} is neither 4 sets + a pair nor 七对",
                s.hand, s.win_tile
            )));
        }
        let mut best: Option<KawuxingScore> = None;
        let mut best_core = 0;
        for d in decs {
            let det = pattern_ids_detected(s, &d, &all, flags, self.si_gui);
            let (idx, counts, raw, core) = self.evaluate(&det);
            let value = if self.cap > 0 { raw.min(self.cap) } else { raw };
            if best
                .as_ref()
                .is_some_and(|b| (b.value, b.raw) >= (value, raw))
            {
                continue;
            }
            best_core = core;
            best = Some(KawuxingScore {
                patterns: idx
                    .iter()
                    .zip(&counts)
                    .map(|(&i, &n)| {
                        let f = &self.fans[i];
                        PatternHit {
                            id: f.id.clone(),
                            zh: f.zh.clone(),
                            en: f.en.clone(),
                            value: f.value,
                            count: n,
                            scope: f.scope.clone(),
                        }
                    })
                    .collect(),
                raw,
                value,
                capped: value < raw,
                liangdao: flags.liangdao,
                win_type: s.win_type,
                decomposition: d,
            });
        }
        let best = best.expect("at least one decomposition");
        let needs_two = match self.min_rule {
            MinRule::AllWins => true,
            MinRule::DiscardOnly => !s.is_self_drawn(),
            MinRule::None => false,
        };
        if needs_two && best_core < 2 {
            return Err(Error::hand(format!(
                "below the 起胡 minimum: {} + {} is only 屁胡 (×1); 卡五星 needs ×2 to win{} (switch min_multiplier)",
                s.hand,
                s.win_tile,
                if self.min_rule == MinRule::DiscardOnly {
                    " on a discard"
                } else {
                    ""
                }
            )));
        }
        Ok(best)
    }

    /// 大叫: the highest capped value of a 13-tile hand over its winning tiles, as a discard win
    /// (亮倒 ×2 included when `liangdao`). `None` when the hand cannot win on any tile.
    pub fn da_jiao(&self, hand: &Hand, liangdao: bool) -> Result<Option<(Tile, i64)>> {
        if hand.is_complete() {
            return Err(Error::hand(format!(
                "大叫 needs a waiting hand (13 tiles, kongs as 3); {hand} is complete"
            )));
        }
        let all = hand.all_counts();
        self.check_tiles(hand, &all)?;
        let mut best: Option<(Tile, i64)> = None;
        for t in self.tile_kinds() {
            if let Some(v) = self.value_on(hand, t, liangdao) {
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((t, v));
                }
            }
        }
        Ok(best)
    }

    /// The capped value of winning `hand` on discard `t` (`None`: no legal win).
    pub fn value_on(&self, hand: &Hand, t: Tile, liangdao: bool) -> Option<i64> {
        if hand.all_counts()[t.idx()] >= 4 {
            return None;
        }
        let s = plain_situation(hand.clone(), t);
        self.score(&s, KawuxingFlags { liangdao })
            .ok()
            .map(|x| x.value)
    }

    /// The 21 kinds in play.
    pub fn tile_kinds(&self) -> Vec<Tile> {
        let mut v: Vec<Tile> = self
            .suits
            .iter()
            .flat_map(|&k| (0..9).map(move |r| Tile::new_unchecked(k * 9 + r)))
            .collect();
        v.extend([Tile::C, Tile::F, Tile::P]);
        v
    }
}

/// A discard win with no situational flags (to probe waits).
fn plain_situation(hand: Hand, win_tile: Tile) -> Situation {
    Situation::plain(hand, win_tile)
}
