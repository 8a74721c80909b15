//! 算帐 (dingniu.md §6): the four blocks (一帐, 二三帐, 红帐, 五帐), the smothers (砸红帐, 闷五帐),
//! deliberate versus forced (死砸), the 头牌净手 exception and 死拦红帐.
//!
//! Everything here is a pure function of a [`Position`] (ends, every hand, 扣 counts, 头牌), so
//! the state machine, the fixtures and the bots share one definition.

use std::fmt;

use super::rules::{DingniuRules, ForcedExempt, SmotherTiles};
use super::tile::{
    Counts, Ends, KINDS_WITH_PIP, N_KINDS, Placement, SHUPAI, Tile, can_lay_all, closure,
    kind_mask, kinds_with_pips, pip_bit, placements,
};

/// The six kinds of 帐 of seed line 25, plus 闷帐 (any other smothered tile, switch
/// `smother_tiles = "any"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZhangKind {
    /// Ends 1|1, nobody else holds a 1-竖牌.
    Yi,
    /// Ends 2|3.
    ErSan,
    /// Ends 4|4.
    Hong,
    /// Ends 5|5.
    Wu,
    /// A 红牌 of another player can never be laid again.
    ZaHong,
    /// A 五牌 of another player can never be laid again.
    MenWu,
    /// Another smothered tile (`smother_tiles = "any"`).
    Men,
}

impl ZhangKind {
    pub const ALL: [ZhangKind; 7] = [
        ZhangKind::Yi,
        ZhangKind::ErSan,
        ZhangKind::Hong,
        ZhangKind::Wu,
        ZhangKind::ZaHong,
        ZhangKind::MenWu,
        ZhangKind::Men,
    ];
    /// The Chinese name (`红帐` …), used in events and results.
    pub const fn zh(self) -> &'static str {
        match self {
            ZhangKind::Yi => "一帐",
            ZhangKind::ErSan => "二三帐",
            ZhangKind::Hong => "红帐",
            ZhangKind::Wu => "五帐",
            ZhangKind::ZaHong => "砸红帐",
            ZhangKind::MenWu => "闷五帐",
            ZhangKind::Men => "闷帐",
        }
    }
    pub fn from_zh(s: &str) -> Option<ZhangKind> {
        Self::ALL.into_iter().find(|k| k.zh() == s)
    }
    pub const fn index(self) -> usize {
        self as usize
    }
    /// One of the four end layouts (as opposed to a smother).
    pub const fn is_block(self) -> bool {
        matches!(
            self,
            ZhangKind::Yi | ZhangKind::ErSan | ZhangKind::Hong | ZhangKind::Wu
        )
    }
}

impl fmt::Display for ZhangKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.zh())
    }
}

/// What the 算帐 rules look at: the ends before the move, every seat's hand, how many tiles each
/// seat has turned down, and the 头牌.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub ends: Ends,
    pub hands: [Counts; 4],
    pub kou_count: [u8; 4],
    pub toupai: u8,
}

/// The block layout the ends form, if any (§6.1, §2.2).
pub fn block_shape(e: Ends) -> Option<ZhangKind> {
    match (e.0.min(e.1), e.0.max(e.1)) {
        (1, 1) => Some(ZhangKind::Yi),
        (2, 3) => Some(ZhangKind::ErSan),
        (4, 4) => Some(ZhangKind::Hong),
        (5, 5) => Some(ZhangKind::Wu),
        _ => None,
    }
}

/// Whether a seat other than `x` holds a 竖牌 with a pip in `mask`.
fn others_hold_shupai(hands: &[Counts; 4], x: u8, mask: u8) -> bool {
    let mut others = 0u16;
    for (s, h) in hands.iter().enumerate() {
        if s != x as usize {
            others |= kind_mask(h);
        }
    }
    others & SHUPAI & kinds_with_pips(mask) != 0
}

/// The block the ends form against `x` (layout + nobody else holding a matching 竖牌).
pub fn block_at(e: Ends, hands: &[Counts; 4], x: u8) -> Option<ZhangKind> {
    let k = block_shape(e)?;
    if others_hold_shupai(hands, x, e.mask()) {
        None
    } else {
        Some(k)
    }
}

/// Pips that can still appear at an open end: those connected to an end through the 竖牌 still
/// in the hands (§6.2).
pub fn reachable(ends: Ends, hands: &[Counts; 4]) -> u8 {
    let present = hands.iter().fold(0u16, |m, h| m | kind_mask(h)) & SHUPAI;
    closure(ends.mask(), present)
}

/// Bit set of the kinds whose smothering is a 帐.
const fn eligible_mask(r: &DingniuRules) -> u16 {
    match r.smother_tiles {
        SmotherTiles::RedFive => KINDS_WITH_PIP[4] | KINDS_WITH_PIP[5],
        SmotherTiles::Any => (1 << N_KINDS) - 1,
    }
}

/// A smothered tile kind and who holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Smothered {
    pub tile: Tile,
    pub holder: u8,
}

/// Smothered tiles as a bit set (`holder * 13 + kind`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmotherSet(pub u64);

impl SmotherSet {
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Smothered> {
        (0..4u8).flat_map(move |s| {
            Tile::ALL.into_iter().filter_map(move |t| {
                (self.0 >> (u32::from(s) * N_KINDS as u32 + t.index() as u32) & 1 == 1)
                    .then_some(Smothered { tile: t, holder: s })
            })
        })
    }
    fn kind(self) -> Option<ZhangKind> {
        if self.is_empty() {
            return None;
        }
        let mut five = false;
        for s in self.iter() {
            if s.tile.is_red() {
                return Some(ZhangKind::ZaHong);
            }
            five |= s.tile.is_five();
        }
        Some(if five {
            ZhangKind::MenWu
        } else {
            ZhangKind::Men
        })
    }
}

/// The raw effect of one placement by `x`: a new block, smothered tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    pub block: Option<ZhangKind>,
    pub smothered: SmotherSet,
}

impl Effect {
    /// The 帐 it makes: the block, else the smother.
    pub fn kind(&self) -> Option<ZhangKind> {
        self.block.or_else(|| self.smothered.kind())
    }
}

/// Kind masks of a position seen from the mover `x`, computed once per move.
#[derive(Clone, Copy, Debug)]
struct Seen {
    /// Kinds held per seat.
    held: [u16; 4],
    /// Kinds held by the seats other than `x`.
    others: u16,
    /// Pips reachable before the move.
    before: u8,
    /// The ends before form a block against `x` already.
    was_block: bool,
}

impl Seen {
    fn new(pos: &Position, x: u8) -> Seen {
        let held = [0, 1, 2, 3].map(|s| kind_mask(&pos.hands[s]));
        let others = (0..4)
            .filter(|&s| s != x as usize)
            .fold(0u16, |m, s| m | held[s]);
        let all = held.iter().fold(0u16, |m, h| m | h);
        Seen {
            held,
            others,
            before: closure(pos.ends.mask(), all & SHUPAI),
            was_block: block_shape(pos.ends).is_some()
                && others & SHUPAI & kinds_with_pips(pos.ends.mask()) == 0,
        }
    }

    fn effect(&self, r: &DingniuRules, pos: &Position, x: u8, p: &Placement) -> Effect {
        let xs = x as usize;
        let left = pos.hands[xs][p.tile.index()].saturating_sub(1);
        let mine_after = if left == 0 {
            self.held[xs] & !(1 << p.tile.index())
        } else {
            self.held[xs]
        };
        let block = block_shape(p.ends).filter(|_| {
            !self.was_block && self.others & SHUPAI & kinds_with_pips(p.ends.mask()) == 0
        });
        let after_r = closure(p.ends.mask(), (self.others | mine_after) & SHUPAI);
        let mut set = 0u64;
        if self.before & !after_r != 0 {
            // Kinds playable before and not after, of the eligible kinds.
            let lost = eligible_mask(r) & kinds_with_pips(self.before) & !kinds_with_pips(after_r);
            for s in (0..4).filter(|&s| s != xs) {
                set |= u64::from(self.held[s] & lost) << (s * N_KINDS);
            }
        }
        Effect {
            block,
            smothered: SmotherSet(set),
        }
    }
}

/// The effect of `x` laying `p` in `pos` (§6.1, §6.2), whether deliberate or not.
pub fn effect(r: &DingniuRules, pos: &Position, x: u8, p: &Placement) -> Effect {
    Seen::new(pos, x).effect(r, pos, x, p)
}

/// The ends and hands after `x` lays `p` (the tile leaves x's hand).
fn after(pos: &Position, x: u8, p: &Placement) -> [Counts; 4] {
    let mut h = pos.hands;
    let c = &mut h[x as usize][p.tile.index()];
    *c = c.saturating_sub(1);
    h
}

/// The full 算帐 verdict on one placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZhangCheck {
    /// The 帐 the placement makes (also when forced or exempt), or `None`.
    pub kind: Option<ZhangKind>,
    pub smothered: SmotherSet,
    /// X had another placement making no 帐 (§6.3). `false` when `kind` is `None`.
    pub deliberate: bool,
    /// §6.4: X is the 头牌, has turned nothing down and can lay all his remaining tiles.
    pub toupai_jingshou: bool,
    /// The hand ends here with a 算帐 settlement.
    pub counted: bool,
}

/// The 算帐 verdict on `x` laying `p` in `pos` (§6.1–6.4). `p` must be a legal placement.
pub fn check(r: &DingniuRules, pos: &Position, x: u8, p: &Placement) -> ZhangCheck {
    let seen = Seen::new(pos, x);
    let eff = seen.effect(r, pos, x, p);
    let Some(kind) = eff.kind() else {
        return ZhangCheck {
            kind: None,
            smothered: eff.smothered,
            deliberate: false,
            toupai_jingshou: false,
            counted: false,
        };
    };
    let same_result = pos.ends.0 == pos.ends.1;
    let deliberate = placements(pos.ends, &pos.hands[x as usize])
        .iter()
        .filter(|q| !(q.tile == p.tile && (q.side == p.side || same_result)))
        .any(|q| seen.effect(r, pos, x, q).kind().is_none());
    let mut rest = pos.hands[x as usize];
    rest[p.tile.index()] = rest[p.tile.index()].saturating_sub(1);
    let toupai_jingshou =
        x == pos.toupai && pos.kou_count[x as usize] == 0 && can_lay_all(p.ends, &rest);
    let counts_if_forced = r.forced_exempt == ForcedExempt::SmotherOnly && eff.block.is_some();
    ZhangCheck {
        kind: Some(kind),
        smothered: eff.smothered,
        deliberate,
        toupai_jingshou,
        counted: r.suanzhang && !toupai_jingshou && (deliberate || counts_if_forced),
    }
}

/// Whether `x`, to move in `pos`, has a placement that would be a counted 红帐.
pub fn can_make_hongzhang(r: &DingniuRules, pos: &Position, x: u8) -> bool {
    placements(pos.ends, &pos.hands[x as usize])
        .iter()
        .any(|q| {
            let c = check(r, pos, x, q);
            c.kind == Some(ZhangKind::Hong) && c.counted
        })
}

/// 死拦红帐 (§6.6): the placements of `y` (to move in `pos`) after which his 下家 `x` could not
/// make a 红帐 that counts. `y` is liable when he laid another tile although this list is not
/// empty.
pub fn silan_preventing(r: &DingniuRules, pos: &Position, y: u8, x: u8) -> Vec<Placement> {
    placements(pos.ends, &pos.hands[y as usize])
        .iter()
        .filter(|p| {
            let next = Position {
                ends: p.ends,
                hands: after(pos, y, p),
                ..*pos
            };
            !can_make_hongzhang(r, &next, x)
        })
        .copied()
        .collect()
}

/// Counts at a 算帐 (§6.5): 扣 pips + pips in hand; with `suanzhang_doubles_laid` the other
/// players first lay every double that fits an end.
pub fn zhang_counts(
    r: &DingniuRules,
    ends: Ends,
    hands: &[Counts; 4],
    kou_pips: &[u32; 4],
    by: u8,
) -> [i64; 4] {
    let mut out = [0i64; 4];
    for s in 0..4usize {
        let mut h = hands[s];
        if r.doubles_laid && s != by as usize {
            for t in Tile::ALL {
                if t.is_double() && ends.mask() & pip_bit(t.lo()) != 0 {
                    h[t.index()] = 0;
                }
            }
        }
        out[s] = i64::from(kou_pips[s] + super::tile::pips(&h));
    }
    out
}
