//! Questions a flow engine asks about claims: 吃 with its 下比 obligations, 碰, 开舵/扫穿.

use serde::Serialize;

use crate::error::Result;

use super::card::{Card, CardCounts, N_CARDS};
use super::decompose::{HandSpec, WinSource, best_huxi};
use super::group::{GroupKind, MeldType, chi_shape};
use super::rules::ZipaiRules;

/// One legal 吃 of card X: the group made with X and two hand cards, plus the 比 groups that must
/// be exposed with it (each remaining copy of X in hand placed in a 吃-type group of hand cards).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChiOption {
    pub group: [Card; 3],
    pub kind: GroupKind,
    pub bi: Vec<[Card; 3]>,
}

/// Every 吃-type group containing `x` whose other two cards come from `hand` (counts).
fn groups_with(hand: &CardCounts, x: Card, take_x: bool) -> Vec<[Card; 3]> {
    let mut out = Vec::new();
    let xi = usize::from(x.index());
    for a in 0..20u8 {
        for b in a..20u8 {
            let (ca, cb) = (Card::new_unchecked(a), Card::new_unchecked(b));
            let mut need = *hand;
            if take_x {
                if need[xi] == 0 {
                    continue;
                }
                need[xi] -= 1;
            }
            let (ia, ib) = (usize::from(a), usize::from(b));
            if need[ia] == 0 {
                continue;
            }
            need[ia] -= 1;
            if need[ib] == 0 {
                continue;
            }
            let mut g = [x, ca, cb];
            g.sort();
            if chi_shape(&g).is_some() && !out.contains(&g) {
                out.push(g);
            }
        }
    }
    out
}

fn remove(hand: &mut CardCounts, g: &[Card], skip_one: Option<Card>) -> bool {
    let mut skip = skip_one;
    for c in g {
        if skip == Some(*c) {
            skip = None;
            continue;
        }
        let i = usize::from(c.index());
        if hand[i] == 0 {
            return false;
        }
        hand[i] -= 1;
    }
    true
}

fn bi_sets(hand: &CardCounts, x: Card, acc: &mut Vec<[Card; 3]>, out: &mut Vec<Vec<[Card; 3]>>) {
    let xi = usize::from(x.index());
    if hand[xi] == 0 {
        let mut v = acc.clone();
        v.sort();
        if !out.contains(&v) {
            out.push(v);
        }
        return;
    }
    for g in groups_with(hand, x, true) {
        let mut h = *hand;
        if remove(&mut h, &g, None) {
            acc.push(g);
            bi_sets(&h, x, acc, out);
            acc.pop();
        }
    }
}

/// Legal 吃 of `x` by a player whose free hand cards are `hand` (counts, 坎 excluded: a 坎 can
/// never be broken). A 吃 whose leftover copies of `x` cannot all be placed (下比) is not legal.
pub fn chi_options(hand: &CardCounts, x: Card) -> Vec<ChiOption> {
    let mut out = Vec::new();
    for g in groups_with(hand, x, false) {
        let mut h = *hand;
        if !remove(&mut h, &g, Some(x)) {
            continue;
        }
        let mut sets = Vec::new();
        bi_sets(&h, x, &mut Vec::new(), &mut sets);
        for bi in sets {
            out.push(ChiOption {
                group: g,
                kind: chi_shape(&g).expect("checked"),
                bi,
            });
        }
    }
    out
}

/// Whether a player holding `hand` (free counts) could 碰 `x` (a concealed pair).
pub fn can_peng(hand: &CardCounts, x: Card) -> bool {
    hand[usize::from(x.index())] == 2
}

/// What a player may / must do with a card X (zipai.md §5): the flow engine applies priorities
/// (扫穿/扫 > 胡 > 开舵/碰 > 吃) and seat order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Claims {
    /// 胡息 of the best win with X when it reaches the minimum (`None`: cannot win with X).
    pub hu: Option<i32>,
    /// Mandatory 扫穿/提 (own draw onto one's 坎 or 扫/过扫).
    pub saochuan: bool,
    /// Mandatory 扫/偎 (own draw onto a concealed pair).
    pub sao: bool,
    /// Mandatory 过扫/臭偎 (same, after passing a 碰 of X).
    pub guosao: bool,
    /// Mandatory 开舵/跑 (another player's card onto one's 坎/扫, or a drawn card onto one's 碰).
    pub kaiduo: bool,
    /// Optional 碰 (another player's card, concealed pair, not 臭; a free card must remain).
    pub peng: bool,
    /// Optional 吃 with their 下比 groups (when `may_chi` and not 臭).
    pub chi: Vec<ChiOption>,
}

/// The claims a player holding `hand` (concealed cards + melds; `hand.win` ignored) has on card
/// `x` coming from `source` (`SelfDraw` = his own draw). `may_chi`: he is the seat allowed to 吃
/// (the drawer himself or the drawer's/discarder's 下家); `chou`: X is 臭 for him (no 吃/碰).
pub fn claims(
    rules: &ZipaiRules,
    hand: &HandSpec,
    x: Card,
    source: WinSource,
    may_chi: bool,
    chou: bool,
) -> Result<Claims> {
    claims_with(
        rules,
        hand,
        x,
        source,
        may_chi,
        Chou {
            chi: chou,
            peng: chou,
        },
    )
}

/// Whether card X is 臭 for a player, per action (switch `chou_scope`: with `"both"` the flow
/// marks both on any passed 吃/碰; with `"per_action"` only the action passed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chou {
    /// A passed 吃 of X: no more 吃 of X.
    pub chi: bool,
    /// A passed 碰 of X: no more 碰 of X.
    pub peng: bool,
}

/// [`claims`] with the 臭 state per action. With the switch `chou_blocks_hu`, a 臭 card (either
/// flag) cannot be won on either.
pub fn claims_with(
    rules: &ZipaiRules,
    hand: &HandSpec,
    x: Card,
    source: WinSource,
    may_chi: bool,
    chou: Chou,
) -> Result<Claims> {
    let mut conc = [0u8; N_CARDS];
    for c in &hand.concealed {
        conc[usize::from(c.index())] += 1;
    }
    let xi = usize::from(x.index());
    let meld = |t: MeldType| hand.melds.iter().any(|m| m.ty == t && m.cards[0] == x);
    let has_kan = conc[xi] == 3 || meld(MeldType::Kan);
    let has_sao = meld(MeldType::Sao) || meld(MeldType::GuoSao);
    let has_peng = meld(MeldType::Peng);
    let pair = conc[xi] == 2;
    let mut out = Claims::default();
    let mut probe = hand.clone();
    probe.win = Some(x);
    probe.source = Some(source);
    out.hu = best_huxi(rules, &probe)?.filter(|&h| h >= rules.min_huxi);
    if rules.chou_blocks_hu && (chou.chi || chou.peng) {
        out.hu = None;
    }
    let mut free: CardCounts = conc;
    free.iter_mut().filter(|c| **c >= 3).for_each(|c| *c = 0);
    match source {
        WinSource::SelfDraw => {
            out.saochuan = has_kan || has_sao;
            let passed = hand.passed_peng.contains(&x);
            out.sao = pair && !passed;
            out.guosao = pair && passed;
            out.kaiduo = has_peng;
        }
        WinSource::OtherDraw => {
            out.kaiduo = has_kan || has_sao || has_peng;
            out.peng = pair && !chou.peng;
        }
        WinSource::Discard => {
            out.kaiduo = (has_kan || has_sao) && rules.kaiduo_on_discard;
            out.peng = pair && !chou.peng && rules.peng_on_discard;
        }
        WinSource::Deal => {}
    }
    let forced = out.saochuan || out.sao || out.guosao || out.kaiduo;
    let chi_ok = match source {
        WinSource::Discard => rules.chi_on_discard,
        WinSource::Deal => false,
        _ => true,
    };
    if may_chi && chi_ok && !chou.chi && !forced {
        out.chi = chi_options(&free, x);
    }
    // A 吃 / 碰 is followed by a discard from the free hand: one that would leave no free card is
    // not offered (gap-fill; the spec is silent).
    let n_free: u32 = free.iter().map(|&c| u32::from(c)).sum();
    out.peng &= n_free > 2;
    out.chi
        .retain(|o| n_free > 2 + 3 * u32::try_from(o.bi.len()).unwrap_or(u32::MAX / 4));
    Ok(out)
}

/// What a player who must discard may discard, and whether he is 相公 (zipai.md §5 gap-fill).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DiscardCheck {
    /// Legal discards: free concealed kinds (a 坎 or dealt 扫穿 is never broken, a joker never
    /// leaves the hand), in kind order.
    pub discards: Vec<Card>,
    /// Why the player is 相公 (no legal discard, or a card count that can never win), if he is.
    pub xianggong: Option<String>,
}

/// The discard decision of the flow: the legal discards of a player who must discard now (after
/// 吃/碰/扫/a first 开舵/扫穿, a drawn joker, or the dealer's first turn), and the 相公 verdict.
///
/// A player about to discard owns 21 cards plus one per 4-card group after the first (重舵):
/// concealed cards, jokers and melds. A different count, or no card he may discard, makes him
/// 相公: he can no longer win or claim for the rest of the hand (his turns only draw).
/// `check_count = false` skips the card-count test (positions built for analysis or tests).
pub fn discard_check(hand: &HandSpec, check_count: bool) -> Result<DiscardCheck> {
    let mut conc = [0u8; N_CARDS];
    for c in &hand.concealed {
        conc[usize::from(c.index())] += 1;
        if conc[usize::from(c.index())] > 4 {
            return Err(crate::error::Error::hand(format!(
                "more than 4 copies of {c} in the concealed cards"
            )));
        }
    }
    let fours = hand.melds.iter().filter(|m| m.cards.len() == 4).count()
        + conc.iter().filter(|&&n| n == 4).count();
    let owned = hand.concealed.len()
        + usize::from(hand.jokers)
        + hand.melds.iter().map(|m| m.cards.len()).sum::<usize>();
    let expected = 21 + fours.saturating_sub(1);
    let discards: Vec<Card> = Card::all()
        .filter(|c| (1..3).contains(&conc[usize::from(c.index())]))
        .collect();
    let xianggong = if check_count && owned != expected {
        Some(format!(
            "相公: {owned} cards where a player about to discard holds {expected}"
        ))
    } else if discards.is_empty() {
        Some("相公: no card may be discarded (only 坎, 扫穿 or jokers left)".to_string())
    } else {
        None
    };
    Ok(DiscardCheck {
        discards,
        xianggong,
    })
}

/// The dealer of the next hand (zipai.md §3): the winner; after a 荒庄 (`winner = None`) the same
/// dealer, or his 下家 with `dealer_after_draw = "next"`.
pub fn next_dealer(rules: &ZipaiRules, dealer: u8, winner: Option<u8>, players: u8) -> Result<u8> {
    if !(2..=4).contains(&players) || dealer >= players || winner.is_some_and(|w| w >= players) {
        return Err(crate::error::Error::hand(format!(
            "next_dealer: dealer {dealer} / winner {winner:?} out of range for {players} players"
        )));
    }
    Ok(match winner {
        Some(w) => w,
        None if rules.dealer_next_after_draw => (dealer + 1) % players,
        None => dealer,
    })
}
