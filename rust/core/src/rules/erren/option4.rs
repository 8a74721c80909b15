//! 二人麻将 `fan_profile = billee1011_option_4` (erren.md §10): 72 tiles (万, honours, 8 flowers),
//! MCR-style additive 番 with per-fan 不计 lists, 杠上开花 doubling the sum, no cap. Values and
//! exclusions are the `B4_` fans of `presets/erren.toml`; this module only detects them.

use crate::analysis;
use crate::decompose::{Decomposition, Form, Shapes};
use crate::error::{Error, Result};
use crate::hand::MeldKind;
use crate::situation::{Blessing, Situation, WinType};
use crate::tile::{Counts, Tile};

/// The shapes of this profile (no 十三幺 / 绿一色: they need other suits).
pub const SHAPES: Shapes = Shapes {
    standard: true,
    seven_pairs: true,
    seven_pairs_quads: true,
    thirteen_orphans: false,
    honors_knitted: false,
    knitted_straight: false,
};

fn m(rank: u8) -> Tile {
    Tile::suited(0, rank).expect("a rank 1..=9")
}

/// Refuse what the 72-tile set cannot hold.
pub fn check_tiles(s: &Situation) -> Result<()> {
    let mut all = s.hand.all_counts();
    all[s.win_tile.idx()] += 1;
    if s.extra.ready_yi_fa && !s.extra.ready_declared {
        return Err(Error::hand(
            "situation.ready_yi_fa (报听一发) needs situation.ready_declared (报听)",
        ));
    }
    if let Some(i) = (9..27).find(|&i| all[i] > 0) {
        return Err(Error::hand(format!(
            "fan_profile billee1011_option_4 plays 72 tiles (万, honours, flowers): {} is not one of them",
            Tile::new_unchecked(i as u8)
        )));
    }
    Ok(())
}

/// Whether the hand before the winning tile waits on that tile only.
pub fn single_wait(s: &Situation) -> Result<bool> {
    let w = analysis::waits(s.hand.counts(), 0, s.hand.melds().len(), SHAPES, None)?;
    Ok(w == [s.win_tile])
}

/// The fan ids (without the `B4_` prefix) and counts of one reading of the hand.
pub fn detect(
    s: &Situation,
    all: &Counts,
    d: &Decomposition,
    single: bool,
) -> Vec<(&'static str, u32)> {
    let mut ids: Vec<(&'static str, u32)> = Vec::new();
    let mut add = |id: &'static str, n: u32| {
        if n > 0 {
            ids.push((id, n));
        }
    };
    let standard = d.form == Form::Standard;
    let pairs7 = d.form == Form::SevenPairs;
    let sets = &d.sets[..];
    let pair = d.pair;
    let tiles = || {
        (0..34)
            .filter(|&i| all[i] > 0)
            .map(|i| Tile::new_unchecked(i as u8))
    };
    let every = |f: &dyn Fn(Tile) -> bool| tiles().all(f);
    let any = |f: &dyn Fn(Tile) -> bool| tiles().any(f);
    let pungs: Vec<Tile> = sets
        .iter()
        .filter(|x| x.kind != MeldKind::Chow)
        .map(|x| x.tile)
        .collect();
    let mut chows: Vec<Tile> = sets
        .iter()
        .filter(|x| x.kind == MeldKind::Chow)
        .map(|x| x.tile)
        .collect();
    chows.sort_unstable();
    let melds = s.hand.melds();
    let kongs = melds.iter().filter(|x| x.kind == MeldKind::Kong).count();
    let an_gang = melds
        .iter()
        .filter(|x| x.kind == MeldKind::Kong && x.concealed)
        .count();
    let ming_gang = kongs - an_gang;
    let claimed = melds.iter().filter(|x| !x.concealed).count();
    let concealed_pungs = super::concealed_pungs(s, sets, pair);
    let wind_p = pungs.iter().filter(|x| x.is_wind()).count();
    let dragon_p = pungs.iter().filter(|x| x.is_dragon()).count();
    let honour_p = wind_p + dragon_p;
    let self_drawn = s.is_self_drawn();

    match s.blessing {
        Some(Blessing::Heavenly) => add("TIAN_HU", 1),
        Some(Blessing::Earthly | Blessing::Human) => {
            add(if self_drawn { "DI_HU" } else { "REN_HU" }, 1);
        }
        None => {}
    }
    if standard {
        add("DA_SI_XI", u32::from(wind_p == 4));
        add(
            "XIAO_SI_XI",
            u32::from(wind_p == 3 && pair.is_some_and(|p| p.is_wind())),
        );
        add("DA_SAN_FENG", u32::from(wind_p == 3));
        add(
            "XIAO_SAN_FENG",
            u32::from(wind_p == 2 && pair.is_some_and(|p| p.is_wind())),
        );
        add("DA_SAN_YUAN", u32::from(dragon_p == 3));
        add(
            "XIAO_SAN_YUAN",
            u32::from(dragon_p == 2 && pair.is_some_and(|p| p.is_dragon())),
        );
        add("SHUANG_JIAN_KE", u32::from(dragon_p == 2));
        add("JIAN_KE", dragon_p as u32);
        add("SI_ZI_KE", u32::from(honour_p == 4));
        add(
            "SHUANG_LONG_HUI",
            u32::from(chows == [m(1), m(1), m(7), m(7)] && pair == Some(m(5))),
        );
        let same = |n: usize| {
            chows
                .iter()
                .any(|c| chows.iter().filter(|x| *x == c).count() >= n)
        };
        add("SI_TONG_SHUN", u32::from(same(4)));
        add("SAN_TONG_SHUN", u32::from(same(3)));
        add("YI_BAN_GAO", u32::from(same(2)));
        let pung_m = |r: u8| pungs.contains(&m(r));
        let run = |n: u8| (1..=10 - n).any(|r| (0..n).all(|k| pung_m(r + k)));
        add("SI_LIAN_KE", u32::from(run(4)));
        add("SAN_LIAN_KE", u32::from(run(3)));
        let chow_m = |r: u8| chows.contains(&m(r));
        let steps = |n: u8| {
            [1u8, 2]
                .iter()
                .any(|&st| (1..=7u8).any(|r| (0..n).all(|k| r + k * st <= 7 && chow_m(r + k * st))))
        };
        add("SI_BU_GAO", u32::from(steps(4)));
        add("SAN_BU_GAO", u32::from(steps(3)));
        add("QING_LONG", u32::from(chow_m(1) && chow_m(4) && chow_m(7)));
        add(
            "LIAN_LIU",
            u32::from((1..=4u8).any(|r| chow_m(r) && chow_m(r + 3))),
        );
        add("LAO_SHAO_FU", u32::from(chow_m(1) && chow_m(7)));
        add("PENG_PENG_HE", u32::from(chows.is_empty()));
        add(
            "PING_HE",
            u32::from(chows.len() == 4 && pair.is_some_and(|p| !p.is_honor())),
        );
        let yao = |t: Tile| t.is_yaojiu();
        add(
            "QUAN_DAI_YAO",
            u32::from(
                sets.iter().all(|x| {
                    yao(x.tile)
                        || (x.kind == MeldKind::Chow
                            && yao(Tile::new_unchecked(x.tile.index() + 2)))
                }) && pair.is_some_and(yao),
            ),
        );
        add(
            "QUAN_QIU_REN",
            u32::from(claimed == 4 && !self_drawn && pair == Some(s.win_tile)),
        );
        add("MEN_FENG_KE", u32::from(pungs.contains(&s.seat_wind)));
        add("QUAN_FENG_KE", u32::from(pungs.contains(&s.prevalent_wind)));
        // 四归一: four copies used without being a kong
        let hogs = (0..34)
            .filter(|&i| all[i] == 4)
            .filter(|&i| {
                !sets
                    .iter()
                    .any(|x| x.kind == MeldKind::Kong && x.tile.idx() == i)
            })
            .count();
        add("SI_GUI_YI", hogs as u32);
    }
    if pairs7 {
        let has = |i: usize| d.pairs.iter().any(|p| p.idx() == i);
        let big_seven = (27..34).all(has);
        add("DA_QI_XING", u32::from(big_seven));
        add("SAN_YUAN_QI_DUI", u32::from((31..34).all(has)));
        add("SI_XI_QI_DUI", u32::from((27..31).all(has)));
        add(
            "LIAN_QI_DUI",
            u32::from((0..3).any(|r0| (r0..r0 + 7).all(|i| all[i] == 2))),
        );
        add("QI_DUI", 1);
        if pairs7 && d.pairs.windows(2).any(|w| w[0] == w[1]) {
            add(
                "SI_GUI_YI",
                d.pairs.windows(2).filter(|w| w[0] == w[1]).count() as u32,
            );
        }
    }
    // whole-hand fans (every form)
    if melds.is_empty() {
        let c = s.hand.counts();
        let want = [3u8, 1, 1, 1, 1, 1, 1, 1, 3];
        let nine = (0..34).all(|i| c[i] == if i < 9 { want[i] } else { 0 });
        add(
            "JIU_LIAN_BAO_DENG",
            u32::from(nine && s.win_tile.index() < 9),
        );
    }
    add(
        "DA_YU_WU",
        u32::from(every(&|t| t.index() < 9 && t.index() >= 5)),
    );
    add("XIAO_YU_WU", u32::from(every(&|t| t.index() < 4)));
    add("ZI_YI_SE", u32::from(every(&|t| t.is_honor())));
    add(
        "HUN_YAO_JIU",
        u32::from(every(&|t| t.is_yaojiu()) && any(&|t| t.is_honor()) && any(&|t| !t.is_honor())),
    );
    add("QING_YI_SE", u32::from(every(&|t| !t.is_honor())));
    add(
        "HUN_YI_SE",
        u32::from(any(&|t| t.is_honor()) && any(&|t| !t.is_honor())),
    );
    add("DUAN_YAO", u32::from(every(&|t| t.is_simple())));
    add("SI_GANG", u32::from(kongs == 4));
    add("SAN_GANG", u32::from(kongs == 3));
    add("SHUANG_MING_GANG", u32::from(ming_gang == 2));
    add("MING_GANG", u32::from(ming_gang == 1));
    add("SHUANG_AN_GANG", u32::from(an_gang == 2));
    add("AN_GANG", u32::from(an_gang == 1));
    add("SI_AN_KE", u32::from(standard && concealed_pungs == 4));
    add("SAN_AN_KE", u32::from(standard && concealed_pungs == 3));
    add("SHUANG_AN_KE", u32::from(standard && concealed_pungs == 2));
    add("TIAN_TING", u32::from(s.extra.ready_first_turn));
    add("BAO_TING", u32::from(s.extra.ready_declared));
    add("BAO_TING_YI_FA", u32::from(s.extra.ready_yi_fa));
    // flowers
    let fl = u32::from(s.flowers);
    let holds = |r: std::ops::RangeInclusive<u8>| {
        fl == 8
            || r.clone()
                .all(|k| s.flower_tiles.iter().any(|t| t.index() == 33 + k))
    };
    add("QUAN_HUA", u32::from(fl == 8));
    add("CHUN_XIA_QIU_DONG", u32::from(holds(1..=4)));
    add("MEI_LAN_ZHU_JU", u32::from(holds(5..=8)));
    add("WU_HUA_PAI", u32::from(fl == 0));
    add("HUA_PAI", fl);
    // how and when
    add("MIAO_SHOU_HUI_CHUN", u32::from(s.wall_last && self_drawn));
    add("HAI_DI_LAO_YUE", u32::from(s.wall_last && !self_drawn));
    add(
        "GANG_SHANG_KAI_HUA",
        u32::from(s.win_type == WinType::KongReplacement),
    );
    add("QIANG_GANG_HU", u32::from(s.win_type == WinType::RobKong));
    add("HE_JUE_ZHANG", u32::from(s.fourth_tile));
    add("BU_QIU_REN", u32::from(claimed == 0 && self_drawn));
    add("MEN_QIAN_QING", u32::from(claimed == 0));
    add("ZI_MO", u32::from(self_drawn));
    // wait (the hand had this single wait)
    if single {
        let w = s.win_tile;
        let standing_chow = |f: &dyn Fn(Tile) -> bool| {
            sets.iter()
                .any(|x| !x.declared && x.kind == MeldKind::Chow && f(x.tile))
        };
        if pair == Some(w) || pairs7 {
            add("DAN_DIAO_JIANG", 1);
        } else if standing_chow(&|c| c.index() + 1 == w.index()) {
            add("KAN_ZHANG", 1);
        } else if standing_chow(&|c| {
            (c.rank() == Some(1) && c.index() + 2 == w.index()) || (c.rank() == Some(7) && c == w)
        }) {
            add("BIAN_ZHANG", 1);
        }
    }
    ids
}
