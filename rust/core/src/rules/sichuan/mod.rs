//! 四川麻将 (血战到底 / 血流成河 / 普通场): scoring of one win, the highest value a ready hand can
//! reach (查大叫), and the preset's settlement parameters. Spec: `shared/rules/sichuan.md`; every
//! number comes from `presets/sichuan.toml` (fan values, exclusions, switches).
//!
//! Pipeline (common.md §5.1): legality (suits3 only, no 吃, 缺一门, 定缺) → every decomposition
//! (standard + 七对 with quads) → fan detection ([`fans`]) → data-driven exclusion, 根 absorption
//! and combination (best base pattern + extra 番, or SBR's additive fan) → cap → multiplier
//! `2^(番 − offset)` → per-payer amount `base × multiplier` (+ 自摸加底).

mod fans;
mod ruleset;

pub use ruleset::{Sichuan, compile, rules_of};

use serde_json::{Value, json};

use crate::decompose::{Decomposition, Shapes, decompose};
use crate::error::{Error, Result};
use crate::hand::{Hand, Meld, MeldKind};
use crate::preset::{FanDef, FanOp, Options, PresetData};
use crate::scoring::ledger::{HuazhuAmount, SettlementRules, Transfer};
use crate::situation::{KongKind, Situation, WinType};
use crate::tile::{Counts, Tile};

const SUIT_ZH: [&str; 3] = ["万 (m)", "筒 (p)", "条 (s)"];

/// Game mode (switch `mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// 血战到底: winners leave; the hand goes on until one (or no) player is left.
    Xuezhan,
    /// 血流成河: winners stay and may win again until the wall is exhausted.
    Xueliu,
    /// 普通场: the first win ends the hand.
    Single,
}

/// How a fan combines (from `rules.combine` or the fan profile).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// Only the highest base pattern counts, extra items add 番 (seed).
    BestPattern,
    /// Every fan adds (SBR).
    Additive,
}

/// 自摸 bonus (switch `zimo_bonus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZimoBonus {
    None,
    /// +1番 (the `ZI_MO` fan).
    Double,
    /// each payer pays one more 底.
    PlusOneBase,
}

/// The compiled 四川 rules of a variant.
#[derive(Clone, Debug)]
pub struct SichuanRules {
    pub mode: Mode,
    pub profile: String,
    pub players: u8,
    pub ding_que: bool,
    /// The effective fan table (profile and switches applied).
    pub fans: Vec<FanDef>,
    pub combine: Combine,
    pub doubling_offset: i64,
    pub gen_counts_kongs: bool,
    pub zimo_bonus: ZimoBonus,
    /// 点杠花 is paid by the 直杠 feeder alone, as a discard.
    pub dian_gang_hua_discard: bool,
    pub cap_fan: Option<i64>,
    pub cap_multiplier: Option<i64>,
    pub base_points: i64,
    pub tianhu_dihu_count_gen: bool,
    pub di_hu_on_discard: bool,
    pub da_jiao_excludes_situational: bool,
    pub settlement: SettlementRules,
    /// Win shapes (`rules.shapes`, `rules.qidui_quad_as_two_pairs`).
    pub shapes: Shapes,
    /// `rules.chi_allowed`.
    pub chi_allowed: bool,
    /// `rules.que_men`: `at_win` / `ding_que` check 缺一门 at the win.
    pub que_men_at_win: bool,
}

fn set_fan(fans: &mut [FanDef], id: &str, f: impl Fn(&mut FanDef)) {
    if let Some(x) = fans.iter_mut().find(|x| x.id == id) {
        f(x);
    }
}

impl SichuanRules {
    /// Compile a preset (normally `sichuan`) and its resolved switches.
    pub fn compile(preset: &PresetData, o: &Options) -> Result<SichuanRules> {
        let mode = match o.str("mode")? {
            "xuezhan" => Mode::Xuezhan,
            "xueliu" => Mode::Xueliu,
            "single" => Mode::Single,
            other => return Err(Error::rule(format!("mode {other:?}"))),
        };
        let profile = o.str("fan_profile")?.to_string();
        let (mut fans, combine, offset) = preset.fans_for_profile(Some(&profile));
        let combine = match combine.as_str() {
            "best_pattern_plus_doublings" => Combine::BestPattern,
            "additive_doubling" | "doubling" => Combine::Additive,
            other => {
                return Err(Error::rule(format!(
                    "sichuan cannot combine fans with {other:?} (best_pattern_plus_doublings, additive_doubling)"
                )));
            }
        };
        if let Some(f) = fans
            .iter()
            .find(|f| matches!(f.op, FanOp::FixedLimit | FanOp::Mul))
        {
            return Err(Error::rule(format!(
                "sichuan fan {} uses op {:?}; values are in 番 (add/base/pow2)",
                f.id, f.op
            )));
        }
        let lqd = o.int("long_qi_dui_fan")?;
        if lqd > 0 {
            set_fan(&mut fans, "LONG_QI_DUI", |f| f.value = lqd);
        }
        let off = |fans: &mut Vec<FanDef>, id: &str| set_fan(fans, id, |f| f.enabled = false);
        let on = |fans: &mut Vec<FanDef>, id: &str| set_fan(fans, id, |f| f.enabled = true);
        if !o.bool("dai_yao_jiu")? {
            off(&mut fans, "DAI_YAO_JIU");
            off(&mut fans, "QING_YAO_JIU");
        }
        if !o.bool("jiang_dui")? {
            off(&mut fans, "JIANG_DUI");
        }
        if o.bool("men_qing_zhong_zhang")? {
            on(&mut fans, "MEN_QING");
            on(&mut fans, "ZHONG_ZHANG");
        }
        if !o.bool("tian_di_hu")? || mode == Mode::Xueliu {
            off(&mut fans, "TIAN_HU");
            off(&mut fans, "DI_HU");
        }
        if o.bool("jin_gou_diao")? {
            on(&mut fans, "JIN_GOU_DIAO");
            if combine == Combine::BestPattern {
                on(&mut fans, "QING_JIN_GOU_DIAO");
            }
        }
        if o.bool("shi_ba_luo_han")? {
            on(&mut fans, "SHI_BA_LUO_HAN");
            on(&mut fans, "QING_SHI_BA_LUO_HAN");
        }
        if o.bool("hai_di")? {
            on(&mut fans, "HAI_DI");
        }
        let rob = o.int("rob_kong_bonus")?;
        if rob > 0 {
            set_fan(&mut fans, "QIANG_GANG", |f| {
                f.enabled = true;
                f.value = rob;
            });
        }
        let zimo_bonus = match o.str("zimo_bonus")? {
            "double" => ZimoBonus::Double,
            "plus_one_base" => ZimoBonus::PlusOneBase,
            _ => ZimoBonus::None,
        };
        if zimo_bonus == ZimoBonus::Double {
            on(&mut fans, "ZI_MO");
        }
        let positive = |name: &str| -> Result<Option<i64>> {
            let v = o.int(name)?;
            Ok((v > 0).then_some(v))
        };
        let cap_fan = positive("cap_fan")?;
        let cap_multiplier = positive("cap_multiplier")?;
        let base = o.int("base_points")?;
        let huazhu_points = match o.str("cha_hua_zhu")? {
            "cap" => {
                let Some(c) = cap_multiplier.or(cap_fan.map(|f| 1i64 << (f - offset).clamp(0, 40)))
                else {
                    return Err(Error::rule(
                        "switch cha_hua_zhu=\"cap\" needs a cap: set cap_multiplier or cap_fan",
                    ));
                };
                HuazhuAmount::Fixed(c * base)
            }
            "fixed_plus_da_jiao" => {
                HuazhuAmount::FixedPlusDaJiao(o.int("cha_hua_zhu_amount")? * base)
            }
            _ => HuazhuAmount::Fixed(o.int("cha_hua_zhu_amount")? * base),
        };
        let transfer = match o.str("hu_jiao_zhuan_yi")? {
            "none" => Transfer::None,
            "all_kongs" => Transfer::AllKongs,
            "refund_kong" => Transfer::RefundKong,
            _ => Transfer::LastKong,
        };
        let settlement = SettlementRules {
            base,
            kong_open: o.int("kong_value_open")?,
            kong_added: o.int("kong_value_added")?,
            kong_concealed: o.int("kong_value_concealed")?,
            transfer,
            winners_leave: mode == Mode::Xuezhan,
            single_win: mode == Mode::Single,
            multi_ron: preset.rules.multi_ron,
            huazhu: huazhu_points,
            huazhu_pays_winners: o.str("huazhu_recipients")? == "all",
            huazhu_refunds_kongs: o.bool("huazhu_refunds_kongs")?,
            draw_end_order: preset.rules.draw_end_order.clone(),
            min_in_hand_for_draw: if mode == Mode::Xuezhan { 2 } else { 1 },
        };
        Ok(SichuanRules {
            mode,
            profile,
            players: u8::try_from(o.int("players")?).unwrap_or(4),
            ding_que: o.bool("ding_que")?,
            fans,
            combine,
            doubling_offset: offset,
            gen_counts_kongs: o.bool("gen_counts_kongs")?,
            zimo_bonus,
            dian_gang_hua_discard: o.str("dian_gang_hua")? == "discard",
            cap_fan,
            cap_multiplier,
            base_points: base,
            tianhu_dihu_count_gen: o.bool("tianhu_dihu_count_gen")?,
            di_hu_on_discard: o.str("di_hu_definition")? == "dealer_first_discard",
            da_jiao_excludes_situational: o.bool("da_jiao_excludes_situational")?,
            settlement,
            shapes: Shapes {
                standard: preset.rules.shapes.iter().any(|x| x == "standard"),
                seven_pairs: preset.rules.shapes.iter().any(|x| x == "seven_pairs"),
                seven_pairs_quads: preset.rules.qidui_quad_as_two_pairs,
                thirteen_orphans: false,
                honors_knitted: false,
                knitted_straight: false,
            },
            chi_allowed: preset.rules.chi_allowed,
            que_men_at_win: preset.rules.que_men != "none",
        })
    }

    fn fan_index(&self, id: &str) -> Option<usize> {
        self.fans.iter().position(|f| f.id == id)
    }
}

/// One counted fan of a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FanHit {
    pub id: String,
    pub zh: String,
    pub en: String,
    /// 番 per occurrence.
    pub value: i64,
    pub count: u32,
    pub op: FanOp,
    pub scope: String,
}

/// The score of one 四川 win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SichuanScore {
    pub fans: Vec<FanHit>,
    /// 番 total before any cap.
    pub fan_total: i64,
    /// 番 total after `cap_fan`.
    pub capped_fan_total: i64,
    /// The hand multiplier (倍数) after caps.
    pub multiplier: i64,
    /// The multiplier without caps.
    pub uncapped_multiplier: i64,
    pub base_points: i64,
    /// Amount each payer pays.
    pub per_payer: i64,
    /// Paid as a self-draw (every other player still in the hand) rather than by one discarder.
    pub self_draw_payment: bool,
    pub win_type: WinType,
    pub decomposition: Decomposition,
}

impl SichuanScore {
    /// The 番 of the pattern (non-situational) fans, used to break ties between decompositions.
    fn pattern_fan(&self) -> i64 {
        self.fans
            .iter()
            .filter(|f| f.scope != "situational")
            .map(|f| f.value * i64::from(f.count))
            .sum()
    }

    pub fn to_json_value(&self) -> Value {
        let fans: Vec<Value> = self
            .fans
            .iter()
            .map(|f| {
                json!({"id": f.id, "zh": f.zh, "en": f.en, "value": f.value, "count": f.count,
                       "op": f.op, "scope": f.scope})
            })
            .collect();
        json!({
            "fans": fans,
            "fan_total": self.fan_total,
            "capped_fan_total": self.capped_fan_total,
            "multiplier": self.multiplier,
            "uncapped_multiplier": self.uncapped_multiplier,
            "base_points": self.base_points,
            "per_payer": self.per_payer,
            "self_draw_payment": self.self_draw_payment,
            "win_type": self.win_type.name(),
            "decomposition": crate::scoring::score::decomposition_json(&self.decomposition),
        })
    }
}

/// The value of a ready hand over its waits (查大叫).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaxWin {
    /// 花猪: the hand holds three suits (or its void suit).
    pub huazhu: bool,
    /// Every winning tile with its value as a discard win without situational fans.
    pub waits: Vec<(Tile, SichuanScore)>,
    /// The best of `waits` (大叫 without situational fans).
    pub best: Option<(Tile, SichuanScore)>,
    /// The best over every win type (自摸, 杠上花, 杠上炮, 抢杠, 海底 where possible).
    pub best_situational: Option<(Tile, SichuanScore)>,
    /// The 大叫 amount per payer used at draw-end (per switch `da_jiao_excludes_situational`).
    pub da_jiao: Option<i64>,
}

impl MaxWin {
    pub fn to_json_value(&self) -> Value {
        let item = |x: &Option<(Tile, SichuanScore)>| {
            x.as_ref().map(|(t, s)| {
                let mut v = s.to_json_value();
                v["tile"] = json!(t.to_string());
                v
            })
        };
        json!({
            "huazhu": self.huazhu,
            "ready": !self.waits.is_empty(),
            "waits": self.waits.iter().map(|(t, s)| json!({
                "tile": t.to_string(), "fan_total": s.fan_total, "multiplier": s.multiplier,
                "per_payer": s.per_payer})).collect::<Vec<_>>(),
            "best": item(&self.best),
            "best_situational": item(&self.best_situational),
            "da_jiao": self.da_jiao,
        })
    }
}

fn suits_of(all: &Counts) -> [bool; 3] {
    let mut s = [false; 3];
    for (i, &n) in all.iter().enumerate().take(27) {
        if n > 0 {
            s[i / 9] = true;
        }
    }
    s
}

impl SichuanRules {
    /// Legality of the tiles independent of the shape: suits3 only, no 吃, 缺一门, 定缺.
    fn check_tiles(&self, hand: &Hand, all: &Counts, void_suit: Option<u8>) -> Result<()> {
        if let Some(i) = (27..all.len()).find(|&i| all[i] > 0) {
            return Err(Error::hand(format!(
                "sichuan plays with 万/筒/条 only (108 tiles): {} is not in the set",
                Tile::new_unchecked(i as u8)
            )));
        }
        if let Some(i) = hand.melds().iter().position(|m| m.kind == MeldKind::Chow) {
            return Err(Error::hand(format!(
                "hand.melds[{i}]: 吃 (chow) is not allowed in sichuan (\"不可以吃\")"
            )));
        }
        let suits = suits_of(all);
        if self.que_men_at_win && suits.iter().all(|&b| b) {
            return Err(Error::hand(
                "not 缺一门: the hand holds 万, 筒 and 条; a hand with three suits (花猪) cannot win",
            ));
        }
        match void_suit {
            Some(v) if suits[usize::from(v)] => {
                return Err(Error::hand(format!(
                    "the hand holds {} tiles, its declared void suit (定缺); it cannot win",
                    SUIT_ZH[usize::from(v)]
                )));
            }
            None if self.ding_que => {
                return Err(Error::hand(
                    "switch ding_que=true: situation.void_suit (m, p or s) is required",
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// Score one win. Errors (`InvalidHand`) name what makes the situation impossible in 四川.
    pub fn score(&self, s: &Situation) -> Result<SichuanScore> {
        let mut all = s.hand.all_counts();
        all[s.win_tile.idx()] += 1;
        self.check_tiles(&s.hand, &all, s.void_suit)?;
        if s.blessing == Some(crate::situation::Blessing::Heavenly) && !s.dealer {
            return Err(Error::hand(
                "situation.blessing=heavenly (天胡) needs situation.dealer=true",
            ));
        }
        if s.blessing == Some(crate::situation::Blessing::Earthly) && s.dealer {
            return Err(Error::hand(
                "situation.blessing=earthly (地胡) is a non-dealer's win; dealer=true",
            ));
        }
        let full = s.full_counts();
        let decs = decompose(&full, s.hand.melds(), self.shapes)?;
        if decs.is_empty() {
            return Err(Error::hand(format!(
                "not a winning hand: {} + {} is neither 4 sets + a pair nor 七对",
                s.hand, s.win_tile
            )));
        }
        let self_draw_payment = s.is_self_drawn()
            && !(self.dian_gang_hua_discard
                && s.win_type == WinType::KongReplacement
                && s.last_kong == Some(KongKind::Open));
        let cx = fans::Context {
            situation: s,
            all: &all,
            gen_counts_kongs: self.gen_counts_kongs,
            self_draw_payment,
            di_hu_on_discard: self.di_hu_on_discard,
        };
        let mut best: Option<SichuanScore> = None;
        for d in decs {
            let detected = fans::detect(&cx, &d);
            let sc = self.evaluate(&detected, d, s.win_type, self_draw_payment)?;
            let better = match &best {
                None => true,
                Some(b) => (sc.per_payer, sc.pattern_fan()) > (b.per_payer, b.pattern_fan()),
            };
            if better {
                best = Some(sc);
            }
        }
        Ok(best.expect("at least one decomposition"))
    }

    fn evaluate(
        &self,
        detected: &[(&'static str, u32)],
        d: Decomposition,
        win_type: WinType,
        self_draw_payment: bool,
    ) -> Result<SichuanScore> {
        // Enabled fans the hand satisfies.
        let mut kept: Vec<(usize, u32)> = detected
            .iter()
            .filter_map(|&(id, n)| {
                let i = self.fan_index(id)?;
                (self.fans[i].enabled && n > 0).then_some((i, n))
            })
            .collect();
        // 不计: drop everything a present fan excludes.
        let excluded: Vec<&str> = kept
            .iter()
            .flat_map(|&(i, _)| self.fans[i].excludes.iter().map(String::as_str))
            .collect();
        kept.retain(|&(i, _)| !excluded.contains(&self.fans[i].id.as_str()));
        if !self.tianhu_dihu_count_gen
            && kept
                .iter()
                .any(|&(i, _)| matches!(self.fans[i].id.as_str(), "TIAN_HU" | "DI_HU"))
        {
            kept.retain(|&(i, _)| self.fans[i].id != "GEN");
        }
        match self.combine {
            Combine::BestPattern => {
                // Only the highest base pattern counts (ties: the later, more specific entry).
                let top = kept
                    .iter()
                    .filter(|&&(i, _)| self.fans[i].op == FanOp::Base)
                    .max_by_key(|&&(i, _)| (self.fans[i].value, i))
                    .map(|&(i, _)| i);
                kept.retain(|&(i, _)| self.fans[i].op != FanOp::Base || Some(i) == top);
            }
            Combine::Additive => {
                let others = kept
                    .iter()
                    .any(|&(i, _)| !self.fans[i].fallback && self.fans[i].value != 0);
                if others {
                    kept.retain(|&(i, _)| !self.fans[i].fallback);
                }
            }
        }
        // 减根: `reduces` absorbs occurrences of countable fans.
        let mut reduce: Vec<(String, u32)> = Vec::new();
        for &(i, _) in &kept {
            for (id, n) in &self.fans[i].reduces {
                reduce.push((id.clone(), *n));
            }
        }
        for (id, n) in reduce {
            for k in kept.iter_mut() {
                if self.fans[k.0].id == id {
                    k.1 = k.1.saturating_sub(n);
                }
            }
        }
        kept.retain(|&(_, n)| n > 0);
        kept.sort_by_key(|&(i, _)| i);
        let fan_total: i64 = kept
            .iter()
            .map(|&(i, n)| self.fans[i].value * i64::from(n))
            .sum();
        let capped = self.cap_fan.map_or(fan_total, |c| fan_total.min(c));
        let pow = |f: i64| -> Result<i64> {
            let e = (f - self.doubling_offset).max(0);
            if e > 50 {
                return Err(Error::rule(format!("{f} 番 is out of range")));
            }
            Ok(1i64 << e)
        };
        let uncapped_multiplier = pow(fan_total)?;
        let mut multiplier = pow(capped)?;
        if let Some(c) = self.cap_multiplier {
            multiplier = multiplier.min(c);
        }
        let mut per_payer = self.base_points * multiplier;
        if self_draw_payment && self.zimo_bonus == ZimoBonus::PlusOneBase {
            per_payer += self.base_points;
        }
        let fans = kept
            .iter()
            .map(|&(i, n)| {
                let f = &self.fans[i];
                FanHit {
                    id: f.id.clone(),
                    zh: f.zh.clone(),
                    en: f.en.clone(),
                    value: f.value,
                    count: n,
                    op: f.op,
                    scope: f.scope.clone(),
                }
            })
            .collect();
        Ok(SichuanScore {
            fans,
            fan_total,
            capped_fan_total: capped,
            multiplier,
            uncapped_multiplier,
            base_points: self.base_points,
            per_payer,
            self_draw_payment,
            win_type,
            decomposition: d,
        })
    }

    /// 花猪 test of a hand at draw-end: three suits, or tiles of the declared void suit.
    pub fn is_huazhu(&self, hand: &Hand, void_suit: Option<u8>) -> bool {
        let suits = suits_of(&hand.all_counts());
        suits.iter().all(|&b| b) || void_suit.is_some_and(|v| suits[usize::from(v)])
    }

    /// The highest value a waiting hand can reach over all its winning tiles (查大叫): as a discard
    /// win without situational fans, and over every win type. A tile counts as a wait only if the
    /// player does not own all four copies.
    pub fn max_win_value(
        &self,
        hand: &Hand,
        kong_kinds: &[Option<KongKind>],
        void_suit: Option<u8>,
    ) -> Result<MaxWin> {
        if hand.is_complete() {
            return Err(Error::hand(format!(
                "max_win_value needs a waiting hand (13 tiles, kongs as 3); {hand} is complete"
            )));
        }
        let huazhu = self.is_huazhu(hand, void_suit);
        let all = hand.all_counts();
        let mut waits = Vec::new();
        let mut best_sit: Option<(Tile, SichuanScore)> = None;
        let has_kong = hand.melds().iter().any(Meld::is_kong);
        let mut kinds = vec![
            WinType::Discard,
            WinType::SelfDraw,
            WinType::AfterKongDiscard,
            WinType::RobKong,
        ];
        if has_kong {
            kinds.push(WinType::KongReplacement);
        }
        if !huazhu {
            for i in 0..27u8 {
                if all[usize::from(i)] >= 4 {
                    continue;
                }
                let t = Tile::new_unchecked(i);
                let mut sit = Situation::plain(hand.clone(), t);
                sit.kong_kinds = kong_kinds.to_vec();
                sit.void_suit = void_suit;
                let Ok(plain) = self.score(&sit) else {
                    continue;
                };
                for &wt in &kinds {
                    for wall_last in [false, true] {
                        sit.win_type = wt;
                        sit.wall_last = wall_last;
                        if let Ok(x) = self.score(&sit) {
                            if best_sit
                                .as_ref()
                                .is_none_or(|(_, b)| x.per_payer > b.per_payer)
                            {
                                best_sit = Some((t, x));
                            }
                        }
                    }
                }
                waits.push((t, plain));
            }
        }
        let best = waits
            .iter()
            .max_by_key(|(t, s)| (s.per_payer, std::cmp::Reverse(t.index())))
            .cloned();
        let da_jiao = if self.da_jiao_excludes_situational {
            best.as_ref().map(|(_, s)| s.per_payer)
        } else {
            best_sit.as_ref().map(|(_, s)| s.per_payer)
        };
        Ok(MaxWin {
            huazhu,
            waits,
            best,
            best_situational: best_sit,
            da_jiao,
        })
    }
}

pub mod table;
#[cfg(test)]
mod tests;

/// A waiting hand in the JSON schema: `{"melds": [...], "concealed": [...]}` (the case schema's
/// `hand` object without `win_tile`; 13 tiles with kongs counted as 3).
pub fn waiting_hand_from_json(text: &str) -> Result<(Hand, Vec<Option<KongKind>>)> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Input {
        #[serde(default)]
        melds: Vec<crate::situation::MeldInput>,
        concealed: Vec<String>,
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error::hand(format!("hand JSON: {e}")))?;
    crate::situation::melds_are_objects(&value, "hand")?;
    let input: Input = crate::situation::input_object(
        &value,
        "hand",
        "an object {\"melds\": [...], \"concealed\": [\"1m\", ...]} (13 tiles, kongs as 3)",
    )?;
    let mut melds = Vec::new();
    let mut kinds = Vec::new();
    for (i, m) in input.melds.iter().enumerate() {
        let (meld, k) = m.to_meld(i)?;
        melds.push(meld);
        kinds.push(k);
    }
    let tiles = input
        .concealed
        .iter()
        .map(|t| Tile::parse(t))
        .collect::<Result<Vec<_>>>()
        .map_err(|e| Error::hand(format!("hand.concealed: {e}")))?;
    let hand = Hand::new(tiles, melds).map_err(|e| Error::hand(format!("hand: {e}")))?;
    Ok((hand, kinds))
}
