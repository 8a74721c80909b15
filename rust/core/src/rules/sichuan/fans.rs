//! Detection of the 四川 fans (ids of `presets/sichuan.toml`). Detection is deliberately broad
//! (e.g. `QI_DUI` for every seven-pairs hand, quads included); which fans finally count is decided
//! by the data: `enabled`, `excludes`, `reduces` and the combination method.

use crate::decompose::{Decomposition, Form};
use crate::hand::MeldKind;
use crate::situation::{Blessing, Situation, WinType};
use crate::tile::{Counts, Tile};

/// What a detector needs to know beyond the decomposition.
pub(crate) struct Context<'a> {
    pub situation: &'a Situation,
    /// Every tile the winner owns, melds and winning tile included.
    pub all: &'a Counts,
    pub gen_counts_kongs: bool,
    /// The win is paid as a self-draw (自摸加番/加底 apply).
    pub self_draw_payment: bool,
    /// 地胡 is a discard win on the dealer's first discard (switch `di_hu_definition`).
    pub di_hu_on_discard: bool,
}

fn set_has_terminal(kind: MeldKind, t: Tile) -> bool {
    match kind {
        MeldKind::Chow => matches!(t.rank(), Some(1 | 7)),
        _ => t.is_terminal(),
    }
}

fn is_258(t: Tile) -> bool {
    matches!(t.rank(), Some(2 | 5 | 8))
}

/// Number of kinds the winner owns four times (根), declared kongs excluded unless they count.
pub(crate) fn gen_count(s: &Situation, all: &Counts, gen_counts_kongs: bool) -> u32 {
    let kongs: Vec<Tile> = s
        .hand
        .melds()
        .iter()
        .filter(|m| m.is_kong())
        .map(|m| m.tile)
        .collect();
    (0..27)
        .filter(|&i| all[i] == 4)
        .filter(|&i| gen_counts_kongs || !kongs.iter().any(|k| k.idx() == i))
        .count() as u32
}

/// Every fan id (with its count) the decomposition satisfies.
pub(crate) fn detect(cx: &Context<'_>, d: &Decomposition) -> Vec<(&'static str, u32)> {
    let s = cx.situation;
    let all = cx.all;
    let mut out: Vec<(&'static str, u32)> = Vec::new();
    let mut suits = [false; 3];
    for (i, &n) in all.iter().enumerate().take(27) {
        if n > 0 {
            suits[i / 9] = true;
        }
    }
    let qing = suits.iter().filter(|&&b| b).count() == 1;
    let melds = s.hand.melds();
    let no_terminals = (0..27).all(|i| all[i] == 0 || !Tile::new_unchecked(i as u8).is_terminal());

    match d.form {
        Form::Standard => {
            out.push(("PING_HU", 1));
            let pair = d.pair.expect("standard form has a pair");
            let all_pungs = d.sets.iter().all(|x| x.kind != MeldKind::Chow);
            if all_pungs {
                out.push(("DUI_DUI_HU", 1));
            }
            let yaojiu =
                pair.is_terminal() && d.sets.iter().all(|x| set_has_terminal(x.kind, x.tile));
            if yaojiu {
                out.push(("DAI_YAO_JIU", 1));
            }
            if all_pungs && is_258(pair) && d.sets.iter().all(|x| is_258(x.tile)) {
                out.push(("JIANG_DUI", 1));
            }
            if qing && all_pungs {
                out.push(("QING_DUI", 1));
            }
            if qing && yaojiu {
                out.push(("QING_YAO_JIU", 1));
            }
            // 金钩钓: four declared melds, the win completes the pair (a single wait).
            if melds.len() == 4 {
                out.push(("JIN_GOU_DIAO", 1));
                if qing {
                    out.push(("QING_JIN_GOU_DIAO", 1));
                }
                if melds.iter().all(|m| m.is_kong()) {
                    out.push(("SHI_BA_LUO_HAN", 1));
                    if qing {
                        out.push(("QING_SHI_BA_LUO_HAN", 1));
                    }
                }
            }
        }
        Form::SevenPairs => {
            out.push(("QI_DUI", 1));
            let quad = d.pairs.windows(2).any(|w| w[0] == w[1]);
            if quad {
                out.push(("LONG_QI_DUI", 1));
            }
            if qing {
                out.push(("QING_QI_DUI", 1));
                if quad {
                    out.push(("QING_LONG_QI_DUI", 1));
                }
            }
        }
        _ => {}
    }
    if qing {
        out.push(("QING_YI_SE", 1));
    }
    let n_gen = gen_count(s, all, cx.gen_counts_kongs);
    if n_gen > 0 {
        out.push(("GEN", n_gen));
    }
    let n_kongs = melds.iter().filter(|m| m.is_kong()).count() as u32;
    if n_kongs > 0 {
        out.push(("GANG", n_kongs));
    }
    let open_meld = melds.iter().any(|m| !m.concealed);
    if !open_meld {
        out.push(("MEN_QING", 1));
    }
    if no_terminals {
        out.push(("ZHONG_ZHANG", 1));
    }
    match s.blessing {
        Some(Blessing::Heavenly) if s.dealer => out.push(("TIAN_HU", 1)),
        Some(Blessing::Earthly) if !s.dealer => {
            let ok = if cx.di_hu_on_discard {
                !s.is_self_drawn()
            } else {
                s.win_type == WinType::SelfDraw
            };
            if ok {
                out.push(("DI_HU", 1));
            }
        }
        _ => {}
    }
    match s.win_type {
        WinType::KongReplacement => out.push(("GANG_SHANG_HUA", 1)),
        WinType::AfterKongDiscard => out.push(("GANG_SHANG_PAO", 1)),
        WinType::RobKong => out.push(("QIANG_GANG", 1)),
        _ => {}
    }
    if cx.self_draw_payment {
        out.push(("ZI_MO", 1));
    }
    if s.wall_last {
        out.push(("HAI_DI", 1));
    }
    out
}
