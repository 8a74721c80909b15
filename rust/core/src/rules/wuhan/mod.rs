//! 武汉麻将 开口翻 / 红中癞子杠 (`presets/wuhan.toml`, spec `shared/rules/wuhan.md`): each loser pays
//! base × Π(winner's factors) × Π(his own factors). Factors of ×1.5 (大胡 自摸 / 放冲) are handled
//! exactly by computing in halves (base 10 keeps every amount whole).

use std::any::Any;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::decompose::{Decomposition, Shapes};
use crate::error::{Error, Result};
use crate::game::flow::FlowFacts;
use crate::hand::MeldKind;
use crate::preset::{FanDef, Options, PresetData};
use crate::rules::{Book, Case, Ruleset, TileBook};
use crate::scoring::record::{HandRecord, RecordSpec};
use crate::scoring::score::{FanHit, Reading, Score, Unit};
use crate::scoring::{fan, param_int};
use crate::situation::{KongKind, Situation, WinType};
use crate::tile::{Counts, Tile};
use crate::wild::decompose_wild;

pub mod flow;
pub mod table;
#[cfg(test)]
mod tests;

const HONGZHONG: Tile = Tile::new_unchecked(31);
const FACAI: Tile = Tile::new_unchecked(32);

/// The compiled 武汉 rules.
#[derive(Clone, Debug)]
pub struct WuhanRules {
    fans: Vec<FanDef>,
    /// The preset data (the names of the fans).
    data: &'static PresetData,
    pub kou_kou_fan: bool,
    pub laizi_is_next: bool,
    pub cap: i64,
    pub jin_ding: i64,
    /// The 痞子 (switch `pizi_set`): 红中, or 红中 and 发 (八痞四赖).
    pub pizi: Vec<Tile>,
    /// Switch `discard_payers`: a 小胡 on a discard is paid by the discarder alone.
    pub discarder_only_xiao_hu: bool,
    /// Switch `round_to`: each loser's amount rounded up to a multiple of 5 or 10 (0: none).
    pub round_to: i64,
    /// Switch `piao`: a fixed amount added to every payment line (0, 5, 10, 20).
    pub piao: i64,
    /// Switch `bao_amount`: the 承包者 pays three caps (金顶 when reached) instead of the sum.
    pub bao_three_caps: bool,
    /// Switch `big_hands = extended`: 七小对 is a 大胡 (门清, no 开口 needed).
    pub qi_xiao_dui: bool,
}

/// The 癞子 for an indicator: suits 1→…→9→1, honours E→S→W→N→F→P→E; 中 gives 发.
pub fn laizi_of(indicator: Tile, next: bool) -> Result<Tile> {
    if indicator.is_flower() {
        return Err(Error::hand("the 癞子 indicator cannot be a flower"));
    }
    if !next {
        if indicator == HONGZHONG {
            return Err(Error::hand("红中 is the 痞子 and cannot be the 癞子"));
        }
        return Ok(indicator);
    }
    Ok(match indicator.index() {
        0..=26 => indicator.next(),
        27..=29 => Tile::new_unchecked(indicator.index() + 1),
        30 | 31 => Tile::new_unchecked(32), // N → F (skip 中), 中 → F
        32 => Tile::new_unchecked(33),
        _ => Tile::new_unchecked(27), // P → E
    })
}

/// Seat factors of a player (in halves where ×1.5 applies): what every loser and the winner have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatFactors {
    pub openings: i64,
    pub ming_gang: i64,
    pub an_gang: i64,
    pub hongzhong_gang: i64,
    pub laizi_gang: i64,
}

impl WuhanRules {
    pub fn compile(p: &'static PresetData, o: &Options) -> Result<WuhanRules> {
        let kkf = o.bool("kou_kou_fan")?;
        let round_to = o.int("round_to")?;
        if ![0, 5, 10].contains(&round_to) {
            return Err(Error::rule(format!(
                "switch \"round_to\" cannot be {round_to}; allowed: 0 (none), 5, 10"
            )));
        }
        let piao = o.int("piao")?;
        if ![0, 5, 10, 20].contains(&piao) {
            return Err(Error::rule(format!(
                "switch \"piao\" cannot be {piao}; allowed: 0, 5, 10, 20"
            )));
        }
        let qi_xiao_dui = o.str("big_hands")? == "extended";
        Ok(WuhanRules {
            data: p,
            fans: p
                .fans
                .iter()
                .filter(|f| f.enabled || (qi_xiao_dui && f.id == "QI_XIAO_DUI"))
                .cloned()
                .collect(),
            kou_kou_fan: kkf,
            laizi_is_next: o.str("laizi_from_indicator")? == "next",
            cap: param_int(p, "cap_per_loser")?,
            jin_ding: param_int(
                p,
                if kkf {
                    "jin_ding_kou_kou_fan"
                } else {
                    "jin_ding"
                },
            )?,
            pizi: if o.str("pizi_set")? == "hongzhong_facai" {
                vec![HONGZHONG, FACAI]
            } else {
                vec![HONGZHONG]
            },
            discarder_only_xiao_hu: o.str("discard_payers")? == "discarder",
            round_to,
            piao,
            bao_three_caps: o.str("bao_amount")? == "three_caps",
            qi_xiao_dui,
        })
    }

    /// Whether `t` is a 痞子 (never claimed, never held at a win, leaves the hand only as a 杠).
    pub fn is_pizi(&self, t: Tile) -> bool {
        self.pizi.contains(&t)
    }

    /// The 癞子 for an indicator under the switches: the successor in the cycle, skipping every
    /// 痞子 (`laizi_from_indicator = next`), or the indicator itself (never a 痞子).
    pub fn laizi_for(&self, indicator: Tile) -> Result<Tile> {
        if indicator.is_flower() {
            return Err(Error::hand("the 癞子 indicator cannot be a flower"));
        }
        if !self.laizi_is_next {
            if self.is_pizi(indicator) {
                return Err(Error::hand(format!(
                    "{indicator} is a 痞子 and cannot be the 癞子"
                )));
            }
            return Ok(indicator);
        }
        let mut t = laizi_of(indicator, true)?;
        while self.is_pizi(t) {
            t = laizi_of(t, true)?;
        }
        Ok(t)
    }

    /// The product of a seat's own factors (开口, kongs).
    pub fn seat_product(&self, f: &SeatFactors) -> i64 {
        let kai = if self.kou_kou_fan {
            1i64 << f.openings.clamp(0, 20)
        } else if f.openings > 0 {
            2
        } else {
            1
        };
        kai * (1i64 << f.ming_gang.clamp(0, 8))
            * (1i64 << (2 * f.an_gang.clamp(0, 8)))
            * (1i64 << f.hongzhong_gang.clamp(0, 8))
            * (1i64 << f.laizi_gang.clamp(0, 8))
    }

    fn winner_factors(s: &Situation) -> SeatFactors {
        let mut f = SeatFactors {
            hongzhong_gang: i64::from(s.extra.hongzhong_kongs),
            laizi_gang: i64::from(s.extra.laizi_kongs),
            ..SeatFactors::default()
        };
        for (m, kk) in s.hand.melds().iter().zip(&s.kong_kinds) {
            match m.kind {
                MeldKind::Chow | MeldKind::Pung => f.openings += 1,
                MeldKind::Kong => {
                    let kind = kk.unwrap_or(if m.concealed {
                        KongKind::Concealed
                    } else {
                        KongKind::Open
                    });
                    match kind {
                        KongKind::Concealed => f.an_gang += 1,
                        KongKind::Open => {
                            f.openings += 1;
                            f.ming_gang += 1;
                        }
                        KongKind::Added => {
                            // 蓄杠 upgrades a 碰: the 碰 was the opening
                            f.openings += 1;
                            f.ming_gang += 1;
                        }
                    }
                }
            }
        }
        f
    }

    fn laizi(&self, s: &Situation) -> Result<Tile> {
        let ind = s.extra.wild_indicator.ok_or_else(|| {
            Error::hand("武汉: situation.wild_indicator (the flipped 癞子 indicator) is required")
        })?;
        self.laizi_for(ind)
    }

    /// Score one win: the base (1 or 10 per 大胡), the patterns, and the winner's factor product
    /// (in `details.winner_factor_x2`, doubled so ×1.5 stays exact); `per_payer` = base × winner's
    /// factors for a loser without factors (rounded down when odd halves remain).
    pub fn score(&self, s: &Situation) -> Result<Score> {
        s.check_flags(
            "wuhan",
            &["wild_indicator", "hongzhong_kongs", "laizi_kongs"],
        )?;
        let laizi = self.laizi(s)?;
        let mut all = s.hand.all_counts();
        all[s.win_tile.idx()] += 1;
        if let Some(p) = self.pizi.iter().find(|p| all[p.idx()] > 0) {
            return Err(Error::hand(format!(
                "武汉: the 痞子 {p} (红中) may never be held at a win (杠 it out first)"
            )));
        }
        if all.iter().skip(34).any(|&c| c > 0) {
            return Err(Error::hand("武汉麻将 has no flowers"));
        }
        for m in s.hand.melds() {
            if m.tiles().contains(&laizi) {
                return Err(Error::hand(format!(
                    "武汉: the 癞子 {laizi} cannot be used in 吃/碰/杠"
                )));
            }
        }
        let wf = Self::winner_factors(s);
        let full = s.full_counts();
        let k = full[laizi.idx()];
        let mut without = full;
        without[laizi.idx()] = 0;
        if wf.openings == 0 {
            // 七小对 (switch big_hands = extended) is a 门清 大胡: the only win without 开口.
            if let Some(ying) = self.qi_xiao_dui(s, &full, &without, k) {
                let q = fan(&self.fans, "QI_XIAO_DUI")?;
                return self.finish(s, &wf, q.value, ying, vec![q], laizi, k, None);
            }
            return Err(Error::hand(
                "武汉: 开口 required — the winner has made no 吃, 碰 or 冲杠",
            ));
        }
        let shapes = Shapes::STANDARD;
        // candidates: (ying, decomposition or None for 乱风/乱将)
        let mut cands: Vec<(bool, Option<Decomposition>)> = Vec::new();
        for d in decompose_wild(&full, 0, s.hand.melds(), shapes)? {
            cands.push((true, Some(d)));
        }
        if k > 0 {
            for d in decompose_wild(&without, k, s.hand.melds(), shapes)? {
                let ying = d.wildcards.iter().all(|&w| w == laizi);
                cands.push((ying, Some(d)));
            }
        }
        let feng = |ying: bool| {
            (0..34).all(|i| {
                let c = if ying {
                    all[i]
                } else {
                    all[i] - if i == laizi.idx() { all[i] } else { 0 }
                };
                c == 0 || (i >= 27 && i != HONGZHONG.idx())
            })
        };
        let jiang = |ying: bool| {
            (0..34).all(|i| {
                let c = if ying {
                    all[i]
                } else {
                    all[i] - if i == laizi.idx() { all[i] } else { 0 }
                };
                c == 0 || (i < 27 && matches!(i % 9, 1 | 4 | 7))
            })
        };
        for ying in [true, false] {
            if (!ying && k == 0) || !(feng(ying) || jiang(ying)) {
                continue;
            }
            cands.push((ying, None));
        }
        let mut best: Option<(i64, bool, Vec<&FanDef>, Option<&Decomposition>)> = None;
        let (mut bad_pair, mut two_laizi) = (false, false);
        for (ying, d) in &cands {
            let mut big: Vec<&str> = Vec::new();
            if feng(*ying) {
                big.push("FENG_YI_SE");
            }
            if jiang(*ying) {
                big.push("JIANG_YI_SE");
            }
            let mut pair258 = false;
            if let Some(d) = d {
                let pair = d.pair.expect("standard form has a pair");
                pair258 = pair.rank().is_some_and(|r| matches!(r, 2 | 5 | 8));
                if d.sets.iter().all(|x| x.kind != MeldKind::Chow) {
                    big.push("PENG_PENG_HU");
                }
                let suits: Vec<u8> = d
                    .sets
                    .iter()
                    .map(|x| x.tile)
                    .chain([pair])
                    .map(|t| t.suit_index().unwrap_or(9))
                    .collect();
                if suits.iter().all(|&x| x < 3 && x == suits[0]) {
                    big.push("QING_YI_SE");
                }
                if s.hand.melds().len() == 4
                    && s.hand.melds().iter().all(|m| !m.concealed)
                    && pair258
                {
                    big.push("QUAN_QIU_REN");
                }
            }
            let exempt = big.iter().any(|b| {
                matches!(
                    *b,
                    "FENG_YI_SE" | "JIANG_YI_SE" | "PENG_PENG_HU" | "QING_YI_SE"
                )
            });
            if !exempt && !pair258 {
                bad_pair = true;
                continue;
            }
            if pair258 || exempt {
                if s.is_self_drawn() && s.wall_last {
                    big.push("HAI_DI_LAO");
                }
                if s.win_type == WinType::KongReplacement {
                    big.push("GANG_SHANG_HUA");
                }
                if s.win_type == WinType::RobKong {
                    big.push("QIANG_GANG");
                }
            }
            if big.is_empty() && k >= 2 {
                two_laizi = true;
                continue;
            }
            let defs: Vec<&FanDef> = self
                .fans
                .iter()
                .filter(|f| big.contains(&f.id.as_str()))
                .collect();
            let base: i64 = if defs.is_empty() {
                1
            } else {
                defs.iter().map(|f| f.value).sum()
            };
            let val = base * if *ying { 2 } else { 1 };
            if best
                .as_ref()
                .is_none_or(|b| (val, *ying) > (b.0 * if b.1 { 2 } else { 1 }, b.1))
            {
                best = Some((base, *ying, defs, d.as_ref()));
            }
        }
        let reason = if two_laizi {
            "武汉: two 癞子 in hand forbid a 小胡 (only a 大胡 may win)"
        } else if bad_pair {
            "武汉: the pair must be 2, 5 or 8 (except 风一色, 将一色, 碰碰胡, 清一色)"
        } else {
            "not a winning hand: no 4 sets + a pair (癞子 as any tile), 乱风 or 乱将"
        };
        let (base, ying, defs, reading) = best.ok_or_else(|| {
            Error::hand(format!(
                "{reason}: {} + {} (癞子 {laizi})",
                s.hand, s.win_tile
            ))
        })?;
        let reading = reading.cloned();
        self.finish(s, &wf, base, ying, defs, laizi, k, reading)
    }

    /// 七小对 (seven pairs, the 癞子 pairing with anything; no melds, no four of a kind):
    /// `Some(硬胡)` when the hand has that shape and the switch is on.
    fn qi_xiao_dui(&self, s: &Situation, full: &Counts, without: &Counts, k: u8) -> Option<bool> {
        if !self.qi_xiao_dui || !s.hand.melds().is_empty() {
            return None;
        }
        let pairs_of = |c: &Counts| c.iter().take(34).all(|&x| x == 0 || x == 2);
        if pairs_of(full) {
            return Some(true);
        }
        if without.iter().take(34).any(|&x| x > 2) {
            return None;
        }
        let singles = without.iter().take(34).filter(|&&x| x == 1).count() as u8;
        (singles <= k && (k - singles) % 2 == 0).then_some(false)
    }

    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        s: &Situation,
        wf: &SeatFactors,
        base: i64,
        ying: bool,
        defs: Vec<&FanDef>,
        laizi: Tile,
        k: u8,
        reading: Option<Decomposition>,
    ) -> Result<Score> {
        let wf = *wf;
        let da = !defs.is_empty();
        // winner's factors ×2 (halves): seat factors, 硬胡 ×2, 自摸 ×2 (小胡) / ×1.5 (大胡)
        let mut w2 = 2 * self.seat_product(&wf) * if ying { 2 } else { 1 };
        if s.is_self_drawn() {
            w2 = if da { w2 * 3 / 2 } else { w2 * 2 };
        }
        let mut fans: Vec<FanHit> = defs
            .iter()
            .map(|f| FanHit::entry(self.data, f, 1))
            .collect();
        if !da {
            fans.push(FanHit::entry(self.data, fan(&self.fans, "XIAO_HU")?, 1));
        }
        Ok(Score {
            variant: "wuhan",
            fans: fans.into(),
            raw_total: base,
            total: base,
            unit: Unit::Point,
            meets_minimum: true,
            per_payer: base * w2 / 2,
            players: 4,
            payments: Default::default(),
            decomposition: reading.map(Reading::Tiles),
            extras: Default::default(),
        }
        .with_extras(vec![
            ("da_hu", json!(da)),
            ("laizi", json!(laizi.to_string())),
            ("laizi_held", json!(k)),
            (
                "winner",
                json!({"openings": wf.openings, "ming_gang": wf.ming_gang, "an_gang": wf.an_gang,
                       "hongzhong_gang": wf.hongzhong_gang, "laizi_gang": wf.laizi_gang}),
            ),
            ("winner_factor_x2", json!(w2)),
            ("ying_hu", json!(ying)),
        ]))
    }

    fn loser_factors(rec: &HandRecord, i: usize) -> Result<SeatFactors> {
        Ok(SeatFactors {
            openings: rec.seat_int(i, "openings", 0, 0, 8)?,
            ming_gang: rec.seat_int(i, "ming_gang", 0, 0, 8)?,
            an_gang: rec.seat_int(i, "an_gang", 0, 0, 8)?,
            hongzhong_gang: rec.seat_int(i, "hongzhong_gang", 0, 0, 8)?,
            laizi_gang: rec.seat_int(i, "laizi_gang", 0, 0, 8)?,
        })
    }
}

/// The 武汉 ruleset (its table queries are its own: [`flow`]).
#[derive(Debug)]
pub struct Wuhan {
    pub rules: WuhanRules,
    flow: FlowFacts,
}

/// Compile the `wuhan` preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    let rules = WuhanRules::compile(p, o)?;
    let mut flow = FlowFacts::from_data(p, o);
    flow.generic = false;
    flow.rotation = crate::game::flow::Rotation::StayOnDealerWinOrDraw {
        to_previous: o.str("dealer_next")? == "shang_jia",
    };
    Ok(Arc::new(Wuhan { rules, flow }))
}

/// The 武汉 rules of a variant.
pub fn rules_of(v: &crate::Variant) -> Result<&WuhanRules> {
    v.rules_as::<Wuhan>().map(|m| &m.rules).ok_or_else(|| {
        Error::rule(format!(
            "the 武汉 queries need the wuhan preset, not {}",
            v.id()
        ))
    })
}

impl TileBook for Wuhan {
    fn id(&self) -> &'static str {
        "wuhan"
    }
    fn seats(&self) -> u8 {
        4
    }
    fn spec(&self) -> RecordSpec {
        RecordSpec {
            kong_types: &[],
            draw_keys: Some(&[]),
            seat_keys: &[
                "openings",
                "ming_gang",
                "an_gang",
                "hongzhong_gang",
                "laizi_gang",
                "ready",
                "third_opening_from",
            ],
            ..RecordSpec::default()
        }
    }
    fn evaluate(&self, s: &Situation) -> Result<Score> {
        self.rules.score(s)
    }
    /// One winner (一炮单响): every loser pays base × winner's × own factors (`seat_data`: 开口,
    /// kongs), capped at 300 (金顶 when all three exceed it); 承包 (抢杠, 全求人 on a discard by a
    /// seat not `ready`, 清一色's `third_opening_from`) moves the sum onto the 承包者. No win = 荒庄.
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()> {
        let r = &self.rules;
        if rec.n_wins() > 1 {
            return Err(Error::settlement("武汉 一炮单响: one winner per hand"));
        }
        let Some((_, wi, disc, Case::Tiles(s), _)) = rec.wins().next() else {
            book.ledger.end_hand();
            return Ok(());
        };
        let sc = &scores[0];
        let dealer = rec
            .dealer
            .ok_or_else(|| Error::settlement("武汉: the record needs the dealer"))?;
        let disc = disc.filter(|_| !s.is_self_drawn());
        let da = sc.extra("da_hu").and_then(Value::as_bool).unwrap_or(false);
        let base = sc.total;
        let w2 = sc
            .extra("winner_factor_x2")
            .and_then(Value::as_i64)
            .unwrap_or(2);
        let mut raw = Vec::new();
        for l in 0..rec.seats.len() {
            if l == wi {
                continue;
            }
            let f = WuhanRules::loser_factors(rec, l)?;
            let mut l2 = 2 * r.seat_product(&f);
            if Some(l) == disc {
                l2 = if da { l2 * 3 / 2 } else { l2 * 2 };
            }
            if !da && (dealer == wi || dealer == l) {
                l2 *= 2;
            }
            let mut a = base * w2 * l2 / 4;
            if r.round_to > 0 {
                a = (a + r.round_to - 1) / r.round_to * r.round_to;
            }
            raw.push((l, a));
        }
        let jin = raw.iter().all(|x| x.1 > r.cap);
        let limit = if jin { r.jin_ding } else { r.cap };
        let capped: Vec<(usize, i64)> = raw
            .iter()
            .map(|&(l, a)| (l, if jin { r.jin_ding } else { a.min(r.cap) }))
            // discard_payers = discarder: a 小胡 on a discard is paid by the discarder alone
            .filter(|&(l, _)| !(r.discarder_only_xiao_hu && !da && disc.is_some_and(|d| d != l)))
            // 漂: a fixed amount on every payment line
            .map(|(l, a)| (l, a + r.piao))
            .collect();
        // 承包
        let mut bao: Option<usize> = None;
        if s.win_type == WinType::RobKong {
            bao = disc;
        } else if sc.has("QUAN_QIU_REN") {
            if let Some(d) = disc {
                if !rec.seat_bool(d, "ready")? {
                    bao = Some(d);
                }
            }
        }
        if bao.is_none() && sc.has("QING_YI_SE") {
            if let Some(v) = rec.seat_data[wi].get("third_opening_from") {
                let b = rec
                    .seat_value(Some(v), "seat_data.<winner>.third_opening_from")?
                    .ok_or_else(|| {
                        Error::settlement("seat_data.<winner>.third_opening_from: a seat name")
                    })?;
                if b == wi {
                    return Err(Error::settlement("third_opening_from names the winner"));
                }
                bao = Some(b);
            }
        }
        let lines: Vec<(usize, usize, i64)> = match bao {
            Some(b) if r.bao_three_caps => vec![(b, wi, 3 * (limit + r.piao))],
            Some(b) => vec![(b, wi, capped.iter().map(|x| x.1).sum())],
            None => capped.iter().map(|&(l, a)| (l, wi, a)).collect(),
        };
        let ids: Vec<&str> = sc.fans.iter().map(|p| p.id()).collect();
        let mut reason = format!("{} wins: {}", rec.seats[wi], ids.join(" + "));
        if jin {
            reason.push_str(" (金顶)");
        }
        if let Some(b) = bao {
            reason.push_str(&format!(" ({} 承包)", rec.seats[b]));
        }
        book.begin_win(0);
        book.pay("WIN", &reason, &lines)?;
        book.end_win();
        book.ledger.end_hand();
        Ok(())
    }
}

impl Ruleset for Wuhan {
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
            table::WuhanTable,
        )))
    }
    fn flow(&self) -> Option<&FlowFacts> {
        Some(&self.flow)
    }
}
