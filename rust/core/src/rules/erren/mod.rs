//! 二人麻将 (`presets/erren.toml`, spec `shared/rules/erren.md`): additive 番 (1 番 = 1 point) capped
//! at 13; 役满 hands are worth exactly the cap and combine with nothing. Values and exclusions come
//! from the preset file; this module detects the patterns.

use std::any::Any;
use std::sync::Arc;

use serde_json::json;

use crate::decompose::{Decomposition, Form, Set, Shapes, decompose};
use crate::error::{Error, Result};
use crate::game::flow::{FlowFacts, SeatState, WinOption};
use crate::hand::MeldKind;
use crate::preset::{FanDef, FanOp, Options, PresetData};
use crate::rules::{Book, Ruleset, TableWin, TileBook};
use crate::scoring::param_int;
use crate::scoring::record::{HandRecord, RecordSpec};
use crate::scoring::score::{FanHit, Reading, Score, Unit};
use crate::situation::{Blessing, Situation, WinType};
use crate::tile::{Counts, Tile};

mod option4;
pub mod table;
#[cfg(test)]
mod tests;

/// The compiled 二人麻将 rules.
#[derive(Clone, Debug)]
pub struct ErrenRules {
    fans: Vec<FanDef>,
    /// The preset data (the names of the fans).
    data: &'static PresetData,
    pub cap: i64,
    pub hua_pai_count: i64,
    pub hua_physical: bool,
    pub ping_he_requires_menqing: bool,
    pub qiang_gang_as_zimo: bool,
    pub unit: i64,
    /// `fan_profile = billee1011_option_4`: the `B4_` fans, 72 tiles, no cap.
    pub option4: bool,
}

const GREEN: [u8; 6] = [19, 20, 21, 23, 25, 32]; // 2s 3s 4s 6s 8s F
const RED: [u8; 5] = [31, 18, 22, 24, 26]; // C 1s 5s 7s 9s

fn t(i: usize) -> Tile {
    Tile::new_unchecked(i as u8)
}

/// Concealed triplets of a reading (standing or 暗杠), not counting one the winning discard
/// completes when that tile has no other place (the pair, a standing chow).
fn concealed_pungs(s: &Situation, sets: &[Set], pair: Option<Tile>) -> usize {
    let win_elsewhere = pair == Some(s.win_tile)
        || sets
            .iter()
            .any(|x| !x.declared && x.kind == MeldKind::Chow && x.contains(s.win_tile));
    sets.iter()
        .filter(|x| x.kind != MeldKind::Chow && x.concealed)
        .filter(|x| x.declared || s.is_self_drawn() || x.tile != s.win_tile || win_elsewhere)
        .count()
}

impl ErrenRules {
    pub fn compile(p: &'static PresetData, o: &Options) -> Result<ErrenRules> {
        let option4 = o.str("fan_profile")? == "billee1011_option_4";
        let profile = if option4 {
            "billee1011_option_4"
        } else {
            o.str("exclusion_profile")?
        };
        let (fans, _, _) = p.fans_for_profile(Some(profile));
        Ok(ErrenRules {
            data: p,
            option4,
            fans: fans
                .into_iter()
                .filter(|f| f.enabled && f.id.starts_with("B4_") == option4)
                .collect(),
            cap: o.int("cap_points")?,
            hua_pai_count: o.int("hua_pai_count")?,
            hua_physical: o.str("hua_pai_mode")? == "physical",
            ping_he_requires_menqing: o.bool("ping_he_requires_menqing")?,
            qiang_gang_as_zimo: o.bool("qiang_gang_as_zimo")?,
            unit: param_int(p, "unit")?,
        })
    }

    fn check(&self, s: &Situation) -> Result<()> {
        if s.extra.ready_yi_fa && !self.option4 {
            return Err(Error::hand(
                "situation.ready_yi_fa (报听一发) is scored only under fan_profile billee1011_option_4",
            ));
        }
        if self.option4 {
            option4::check_tiles(s)?;
        } else if self.hua_physical && i64::from(s.flowers) > self.hua_pai_count {
            return Err(Error::hand(format!(
                "situation.flowers = {}: only {} 花牌 are face up (switch hua_pai_count)",
                s.flowers, self.hua_pai_count
            )));
        }
        if !s.flower_tiles.is_empty() && !self.option4 {
            return Err(Error::hand(
                "二人麻将 has no flower tiles; 花牌 are face-up wall tiles counted in situation.flowers",
            ));
        }
        match s.blessing {
            Some(Blessing::Heavenly) if !(s.dealer && s.is_self_drawn()) => {
                return Err(Error::hand(
                    "situation.blessing=heavenly (天和) is the dealer's self-draw (dealer=true)",
                ));
            }
            Some(Blessing::Earthly | Blessing::Human) if s.dealer => {
                return Err(Error::hand(
                    "地和 / 人和 are the non-dealer's wins; situation.dealer=true",
                ));
            }
            _ => {}
        }
        if s.extra.after_exhaustion && !s.is_self_drawn() {
            return Err(Error::hand(
                "situation.after_exhaustion (海底捞月 phase) wins are self-draws",
            ));
        }
        Ok(())
    }

    /// Score one win.
    pub fn score(&self, s: &Situation) -> Result<Score> {
        s.check_flags(
            "erren",
            &[
                "ready_declared",
                "ready_first_turn",
                "after_exhaustion",
                "ready_yi_fa",
            ],
        )?;
        self.check(s)?;
        if self.option4 {
            return self.score_option4(s);
        }
        let shapes = Shapes {
            standard: true,
            seven_pairs: true,
            seven_pairs_quads: true,
            thirteen_orphans: true,
            ..Shapes::STANDARD
        };
        let decs = decompose(&s.full_counts(), s.hand.melds(), shapes)?;
        let mut all = s.hand.all_counts();
        all[s.win_tile.idx()] += 1;
        let green = all
            .iter()
            .enumerate()
            .all(|(i, &c)| c == 0 || GREEN.contains(&(i as u8)));
        if decs.is_empty() && !green {
            return Err(Error::hand(format!(
                "not a winning hand: {} + {} is not 4 sets + a pair, 七对子, 国士无双 or 绿一色",
                s.hand, s.win_tile
            )));
        }
        let mut cands: Vec<Option<&Decomposition>> = decs.iter().map(Some).collect();
        if cands.is_empty() {
            cands.push(None);
        }
        let mut best: Option<(bool, i64, Vec<FanHit>, Option<&Decomposition>)> = None;
        for d in cands {
            let (limit, pats) = self.patterns(s, &all, d, green)?;
            let total: i64 = pats.iter().map(|p| p.value() * i64::from(p.count())).sum();
            let key = (limit, total);
            if best.as_ref().is_none_or(|b| key > (b.0, b.1)) {
                best = Some((limit, total, pats, d));
            }
        }
        let (limit, total, patterns, d) = best.expect("at least one candidate");
        let value = if limit { self.cap } else { total };
        let capped = value.min(self.cap);
        Ok(Score {
            variant: "erren",
            fans: patterns.into(),
            raw_total: value,
            total: capped,
            unit: Unit::Fan,
            meets_minimum: true,
            per_payer: capped * self.unit,
            players: 2,
            payments: Default::default(),
            decomposition: d.map(|d| Reading::Tiles(d.clone())),
            extras: Default::default(),
        }
        .with_extras(vec![("yakuman", json!(limit))]))
    }

    fn patterns(
        &self,
        s: &Situation,
        all: &Counts,
        d: Option<&Decomposition>,
        green: bool,
    ) -> Result<(bool, Vec<FanHit>)> {
        let mut ids: Vec<(&str, u32)> = Vec::new();
        let form = d.map(|d| d.form);
        let standard = form == Some(Form::Standard);
        let sets = d.map_or(&[][..], |d| &d.sets[..]);
        let pair = d.and_then(|d| d.pair);
        let present = |f: &dyn Fn(Tile) -> bool| (0..34).any(|i| all[i] > 0 && f(t(i)));
        let every = |f: &dyn Fn(Tile) -> bool| (0..34).all(|i| all[i] == 0 || f(t(i)));
        let is_pung = |k: MeldKind| k != MeldKind::Chow;
        let pungs: Vec<Tile> = sets
            .iter()
            .filter(|x| is_pung(x.kind))
            .map(|x| x.tile)
            .collect();
        let chows: Vec<Tile> = sets
            .iter()
            .filter(|x| x.kind == MeldKind::Chow)
            .map(|x| x.tile)
            .collect();
        let kongs = sets.iter().filter(|x| x.kind == MeldKind::Kong).count();
        let concealed_pungs = concealed_pungs(s, sets, pair);
        let wind_p = pungs.iter().filter(|x| x.is_wind()).count();
        let dragon_p = pungs.iter().filter(|x| x.is_dragon()).count();
        let consecutive = |n: usize| {
            (0..3u8).any(|suit| {
                (1..=10 - n as u8).any(|r| {
                    (0..n as u8).all(|k| pungs.contains(&Tile::suited(suit, r + k).expect("rank")))
                })
            })
        };
        let straight = (0..3u8).any(|suit| {
            [1u8, 4, 7]
                .iter()
                .all(|&r| chows.contains(&Tile::suited(suit, r).expect("rank")))
        });
        let suits: Vec<u8> = (0..3u8)
            .filter(|&su| (0..9).any(|r| all[usize::from(su) * 9 + r] > 0))
            .collect();
        let honours = present(&|x| x.is_honor());
        let terminals = present(&|x| x.is_terminal());
        let menqing = s
            .hand
            .melds()
            .iter()
            .all(|m| m.kind == MeldKind::Kong && m.concealed);

        // 役满
        match s.blessing {
            Some(Blessing::Heavenly) => ids.push(("TIAN_HE", 1)),
            Some(Blessing::Earthly | Blessing::Human) => {
                ids.push((if s.is_self_drawn() { "REN_HE" } else { "DI_HE" }, 1));
            }
            None => {}
        }
        if form == Some(Form::ThirteenOrphans) {
            ids.push(("GUO_SHI_WU_SHUANG", 1));
        }
        if standard {
            if wind_p == 3 && pair.is_some_and(|p| p.is_wind()) {
                ids.push(("XIAO_SI_XI", 1));
            }
            if wind_p == 4 {
                ids.push(("DA_SI_XI", 1));
            }
            if dragon_p == 3 {
                ids.push(("DA_SAN_YUAN", 1));
            }
            if concealed_pungs == 4 {
                ids.push(("SI_AN_KE", 1));
            }
            if consecutive(4) {
                ids.push(("SI_LIAN_KE", 1));
            }
            if kongs == 4 {
                ids.push(("SI_GANG_ZI", 1));
            }
            if every(&|x| x.is_honor()) {
                ids.push(("ZI_YI_SE", 1));
            }
            if every(&|x| x.is_terminal()) {
                ids.push(("QING_LAO_TOU", 1));
            }
            if chows.is_empty() && every(&|x| RED.contains(&x.index())) {
                ids.push(("HONG_KONG_QUE", 1));
            }
            let e = Tile::E;
            let n = Tile::N;
            if straight
                && ((pungs.contains(&e) && pair == Some(n))
                    || (pungs.contains(&n) && pair == Some(e)))
            {
                ids.push(("DONG_BEI_XIN_GAN_XIAN", 1));
            }
        }
        if s.hand.melds().is_empty() {
            let c = s.hand.counts();
            for su in 0..3usize {
                let want = [3u8, 1, 1, 1, 1, 1, 1, 1, 3];
                let ok = (0..34).all(|i| {
                    let w = if i / 9 == su && i < 27 {
                        want[i % 9]
                    } else {
                        0
                    };
                    c[i] == w
                });
                if ok && s.win_tile.suit_index() == Some(su as u8) {
                    ids.push(("JIU_LIAN_BAO_DENG", 1));
                }
            }
        }
        if form == Some(Form::SevenPairs)
            && suits.len() == 1
            && !honours
            && every(&|x| x.is_honor() || x.is_simple())
        {
            ids.push(("DA_CHE_LUN", 1));
        }
        if suits == [0] && !honours {
            let sum: u32 = (0..9).map(|r| u32::from(all[r]) * (r as u32 + 1)).sum();
            if sum >= 100 {
                ids.push(("BAI_WAN_SHI", 1));
            }
        }
        if green {
            ids.push(("LU_YI_SE", 1));
        }
        let limits: Vec<FanHit> = self
            .fans
            .iter()
            .filter(|f| f.op == FanOp::FixedLimit)
            .filter(|f| ids.iter().any(|(i, _)| *i == f.id))
            .map(|f| FanHit::entry(self.data, f, 1))
            .collect();
        if !limits.is_empty() {
            return Ok((true, limits));
        }
        if d.is_none() {
            return Err(Error::hand("not a winning hand"));
        }
        ids.clear();

        // ordinary patterns
        let self_like =
            s.is_self_drawn() || (s.win_type == WinType::RobKong && self.qiang_gang_as_zimo);
        if menqing {
            ids.push(("MEN_QING", 1));
            if s.extra.ready_declared {
                ids.push(("MEN_QING_BAO_TING", 1));
            }
            if self_like {
                ids.push(("MEN_QING_ZI_MO", 1));
            }
        }
        if s.extra.ready_first_turn {
            ids.push(("TIAN_TING", 1));
        }
        if standard
            && chows.len() == 4
            && pair.is_some_and(|p| !p.is_honor())
            && (menqing || !self.ping_he_requires_menqing)
        {
            let two_sided = sets.iter().any(|x| {
                let r = x.tile.rank().unwrap_or(0);
                !x.declared
                    && x.kind == MeldKind::Chow
                    && ((s.win_tile == x.tile && r <= 6)
                        || (s.win_tile.index() == x.tile.index() + 2 && r >= 2))
            });
            if two_sided {
                ids.push(("PING_HE", 1));
            }
        }
        if every(&|x| x.is_simple()) {
            ids.push(("DUAN_YAO_JIU", 1));
        }
        if s.flowers > 0 {
            ids.push(("HUA_PAI", u32::from(s.flowers)));
        }
        if standard {
            let mut sorted = chows.clone();
            sorted.sort_unstable();
            let mut twins = 0;
            let mut i = 0;
            while i + 1 < sorted.len() {
                if sorted[i] == sorted[i + 1] {
                    twins += 1;
                    i += 2;
                } else {
                    i += 1;
                }
            }
            if twins == 1 {
                ids.push(("YI_BEI_KOU", 1));
            } else if twins >= 2 {
                ids.push(("LIANG_BEI_KOU", 1));
            }
            if chows.is_empty() {
                ids.push(("PENG_PENG_HU", 1));
            }
            if (1..=7u8)
                .any(|r| (0..3u8).all(|su| chows.contains(&Tile::suited(su, r).expect("rank"))))
            {
                ids.push(("SAN_SE_TONG_SHUN", 1));
            }
            if concealed_pungs == 3 {
                ids.push(("SAN_AN_KE", 1));
            }
            if consecutive(3) {
                ids.push(("SAN_LIAN_KE", 1));
            }
            if (1..=9u8)
                .any(|r| (0..3u8).all(|su| pungs.contains(&Tile::suited(su, r).expect("rank"))))
            {
                ids.push(("SAN_SE_TONG_KE", 1));
            }
            let set_has = |f: &dyn Fn(Tile) -> bool| {
                sets.iter().all(|x| {
                    if x.kind == MeldKind::Chow {
                        f(x.tile) || f(t(x.tile.idx() + 2))
                    } else {
                        f(x.tile)
                    }
                }) && pair.is_some_and(f)
            };
            if honours && set_has(&|x| x.is_yaojiu()) {
                ids.push(("HUN_QUAN_DAI_YAO", 1));
            }
            if !honours && set_has(&|x| x.is_terminal()) {
                ids.push(("CHUN_QUAN_DAI_YAO", 1));
            }
            if chows.is_empty() && honours && terminals && every(&|x| x.is_yaojiu()) {
                ids.push(("HUN_LAO_TOU", 1));
            }
            if dragon_p == 2 && pair.is_some_and(|p| p.is_dragon()) {
                ids.push(("XIAO_SAN_YUAN", 1));
            }
            if straight {
                ids.push(("YI_QI_TONG_GUAN", 1));
            }
        }
        if form == Some(Form::SevenPairs) {
            if s.hand.counts()[s.win_tile.idx()] == 3 {
                ids.push(("LONG_QI_DUI", 1));
            } else {
                ids.push(("QI_DUI_ZI", 1));
            }
        }
        if suits.len() == 1 {
            ids.push((if honours { "HUN_YI_SE" } else { "QING_YI_SE" }, 1));
        }
        if s.win_type == WinType::KongReplacement {
            ids.push(("GANG_SHANG_KAI_HUA", 1));
        }
        if s.wall_last {
            ids.push((
                if s.is_self_drawn() {
                    "HE_DI_LAO_YUE"
                } else {
                    "HE_DI_LAO_YU"
                },
                1,
            ));
        }
        if s.extra.after_exhaustion {
            ids.push(("HAI_DI_LAO_YUE", 1));
        }
        ids.dedup();
        let ids: Vec<(String, u32)> = ids.iter().map(|(i, n)| ((*i).to_string(), *n)).collect();
        let mut out = self.counted(&ids);
        if out.is_empty() {
            if let Some(f) = self.fans.iter().find(|f| f.id == "TUI_DAO_HU") {
                out.push(FanHit::entry(self.data, f, 1));
            }
        }
        Ok((false, out))
    }

    /// The table entries of the detected `ids`, minus every fan a detected one excludes (不计).
    fn counted(&self, ids: &[(String, u32)]) -> Vec<FanHit> {
        let table: Vec<&FanDef> = self
            .fans
            .iter()
            .filter(|f| f.op != FanOp::FixedLimit && ids.iter().any(|(i, _)| *i == f.id))
            .collect();
        let excluded: Vec<&str> = table
            .iter()
            .flat_map(|f| f.excludes.iter().map(String::as_str))
            .collect();
        table
            .iter()
            .filter(|f| !excluded.contains(&f.id.as_str()))
            .map(|f| {
                let n = ids.iter().find(|(i, _)| *i == f.id).map_or(1, |x| x.1);
                FanHit::entry(self.data, f, n)
            })
            .collect()
    }

    /// `billee1011_option_4`: the best reading's additive sum × the `mul` fans (杠上开花 ×2), no cap.
    fn score_option4(&self, s: &Situation) -> Result<Score> {
        let decs = decompose(&s.full_counts(), s.hand.melds(), option4::SHAPES)?;
        if decs.is_empty() {
            return Err(Error::hand(format!(
                "not a winning hand: {} + {} is not 4 sets + a pair or 七对",
                s.hand, s.win_tile
            )));
        }
        let mut all = s.hand.all_counts();
        all[s.win_tile.idx()] += 1;
        let single = option4::single_wait(s)?;
        let mut best: Option<(i64, i64, i64, Vec<FanHit>, &Decomposition)> = None;
        for d in &decs {
            let ids: Vec<(String, u32)> = option4::detect(s, &all, d, single)
                .into_iter()
                .map(|(i, n)| (format!("B4_{i}"), n))
                .collect();
            let pats = self.counted(&ids);
            let is_mul = |id: &str| self.fans.iter().any(|f| f.id == id && f.op == FanOp::Mul);
            let sum: i64 = pats
                .iter()
                .filter(|p| !is_mul(p.id()))
                .map(|p| p.value() * i64::from(p.count()))
                .sum();
            let factor: i64 = pats
                .iter()
                .filter(|p| is_mul(p.id()))
                .map(|p| p.value().pow(p.count()))
                .product();
            let total = sum * factor;
            if best.as_ref().is_none_or(|b| total > b.0) {
                best = Some((total, sum, factor, pats, d));
            }
        }
        let (total, sum, factor, patterns, d) = best.expect("at least one reading");
        Ok(Score {
            variant: "erren",
            fans: patterns.into(),
            raw_total: total,
            total,
            unit: Unit::Fan,
            meets_minimum: true,
            per_payer: total * self.unit,
            players: 2,
            payments: Default::default(),
            decomposition: Some(Reading::Tiles(d.clone())),
            extras: Default::default(),
        }
        .with_extras(vec![
            ("factor", json!(factor)),
            ("fan_profile", json!("billee1011_option_4")),
            ("sum", json!(sum)),
            ("yakuman", json!(false)),
        ]))
    }
}

/// 二人麻将 绿一色 in 乱牌 form: any tiles of 2s 3s 4s 6s 8s F, no structure.
fn all_green(c: &Counts) -> bool {
    c.iter()
        .enumerate()
        .all(|(i, &n)| n == 0 || GREEN.contains(&(i as u8)))
}

/// The 二人麻将 ruleset.
#[derive(Debug)]
pub struct Erren {
    pub rules: ErrenRules,
    flow: FlowFacts,
}

/// Compile the `erren` preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    let rules = ErrenRules::compile(p, o)?;
    let mut flow = FlowFacts::from_data(p, o);
    flow.shapes = Shapes {
        thirteen_orphans: true,
        seven_pairs: true,
        seven_pairs_quads: true,
        ..Shapes::STANDARD
    };
    Ok(Arc::new(Erren { rules, flow }))
}

impl TileBook for Erren {
    fn id(&self) -> &'static str {
        "erren"
    }
    fn seats(&self) -> u8 {
        2
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
    /// The loser pays the capped points × unit; no kong payments, no dealer factor; 流局 (no win)
    /// pays nothing. One winner per hand.
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()> {
        if rec.n_wins() > 1 {
            return Err(Error::settlement("二人麻将: one winner per hand"));
        }
        for (k, (_, w, _, _, _)) in rec.wins().enumerate() {
            let sc = &scores[k];
            let ids: Vec<&str> = sc.fans.iter().map(|p| p.id()).collect();
            book.begin_win(k);
            book.pay(
                "WIN",
                &format!("{} wins: {}", rec.seats[w], ids.join(" + ")),
                &[(1 - w, w, sc.per_payer)],
            )?;
            book.end_win();
        }
        book.ledger.end_hand();
        Ok(())
    }
}

impl Ruleset for Erren {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn players(&self) -> u8 {
        2
    }
    fn tile_book(&self) -> Option<&dyn TileBook> {
        Some(self)
    }
    fn table(&self) -> Option<crate::rules::TablePart> {
        Some(crate::rules::TablePart::Mahjong(std::sync::Arc::new(
            table::ErrenTable,
        )))
    }
    fn flow(&self) -> Option<&FlowFacts> {
        Some(&self.flow)
    }
    /// 绿一色 in 乱牌 form: a hand without melds of green tiles only.
    fn may_be_ready_outside_shapes(&self, seat: &SeatState) -> bool {
        seat.melds.is_empty() && all_green(&seat.counts)
    }
    /// 绿一色 in 乱牌 form wins without structure (a hand without melds).
    fn wins_outside_shapes(&self, seat: &SeatState, full: &Counts, _win_type: WinType) -> bool {
        seat.melds.is_empty() && all_green(full)
    }
    /// The seat's 报听 (`hand_locked`), 天听 and the 海底 phase go into the situation; 天和 (the
    /// dealer's initial 14), 人和 (the non-dealer's first draw), 地和 (the non-dealer on the
    /// dealer's first discard). The value is the capped points.
    fn table_win(&self, q: &TableWin<'_>) -> Option<WinOption> {
        let (seat, idx, ctx) = (q.seat, q.idx, q.ctx);
        let mut sit = q.situation.clone();
        sit.extra.ready_declared = seat.hand_locked;
        sit.extra.after_exhaustion = ctx.after_exhaustion;
        sit.extra.ready_first_turn =
            seat.hand_locked && idx < 8 && ctx.ready_first_turn & (1u8 << idx) != 0;
        let self_drawn = sit.win_type == WinType::SelfDraw;
        let blessed = (ctx.first_turn && (self_drawn || !seat.dealer)).then(|| {
            let mut b = sit.clone();
            b.blessing = Some(match (seat.dealer, self_drawn) {
                (true, _) => Blessing::Heavenly,
                (false, true) => Blessing::Human,
                (false, false) => Blessing::Earthly,
            });
            b
        });
        let sc = blessed
            .and_then(|b| self.rules.score(&b).ok())
            .or_else(|| self.rules.score(&sit).ok())?;
        Some(WinOption::from_score(sc.total, false, sc))
    }
}
