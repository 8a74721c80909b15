//! The reinforcement-learning encoding of a table: a flat, stable action space per variant, the
//! mapping between legal [`Action`]s and action ids (with a mask), and fixed-shape observation
//! planes. Documented in `docs/rl.md` (the tables there are the contract; this module writes them).
//!
//! **Actions (mahjong)**: the base block (109 ids, every variant) then the blocks the variant can
//! use, in this order: `declare` (34: the declaring discard; 报听 / 亮倒), `pizi_kong` (34; 武汉),
//! `declare_void` (3; 定缺), `declare_pao_zi` (`max + 1`; 下炮子), `declare_piao` (one per amount;
//! 漂), `exchange3` (495 = 3 suits × 165 multisets; 换三张), `exchange1` (34; 开始时换牌). A chow is
//! named by where the claimed tile sits in it (`chow_low`: the claimed tile is the lowest). The
//! claimed `win` / `pass` / `pung` / `kong` have one id each (the tile is the one on offer).
//!
//! **Actions (字牌)**: `discard` × 21 (the joker last), `win`, `pass`, `pung`, then 168 `chow` ids =
//! 6 group forms × 28 比 sets. A form is where the claimed card X sits: `seq_low` (X is the lowest
//! of a same-size sequence), `seq_mid`, `seq_high`, `2710` (二七十 of X's size), `jiao_xxy` (two
//! of X's size and one of the other size, same rank), `jiao_xyy` (one and two). A 比 set is a
//! multiset of at most two forms (each 比 group holds another copy of X): 0 = none, 1..=6 = one
//! form, 7..=27 = two forms `(f, g)`, `f <= g`, in lexicographic order.
//!
//! **Observations**: `planes × width` `u8` (mahjong: 65 × 34, 字牌: 45 × 21), from the point of
//! view of one seat: slot `r` is the seat `r` places after it (slot 0 = itself); mahjong always has
//! four slots (the missing seats of 2- and 3-seat variants stay zero). Nothing hidden from that
//! seat is written: other seats' standing tiles (unless revealed by 亮倒), their concealed kongs'
//! tiles (counted in a scalar), the wall.

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::hand::MeldKind;
use crate::rules::zipai::MeldType;
use crate::situation::KongKind;
use crate::tile::N_KINDS;

use super::action::{Action, ActionKind, JOKER};
use super::cards::CardHand;
use super::dispatch::Family;
use super::facts::{PaoZi, PrePhaseKind};
use super::mahjong::{Mahjong, Phase};
use super::table::{Compiled, Table};
use super::zipai::Zipai;

/// The last discards of each seat written in order (one one-hot plane each).
pub const RECENT: usize = 6;
/// Mahjong observation: planes × 34.
pub const MJ_PLANES: usize = 65;
/// 字牌 observation: planes × 21.
pub const ZP_PLANES: usize = 45;
/// 字牌 piece codes (20 cards and the joker).
pub const ZP_WIDTH: usize = 21;

/// Mahjong base block.
pub const MJ_DISCARD: usize = 0;
pub const MJ_CHOW: usize = 34;
pub const MJ_PUNG: usize = 37;
pub const MJ_KONG: usize = 38;
pub const MJ_CONCEALED_KONG: usize = 39;
pub const MJ_ADDED_KONG: usize = 73;
pub const MJ_WIN: usize = 107;
pub const MJ_PASS: usize = 108;
pub const MJ_BASE: usize = 109;

/// 字牌 layout.
pub const ZP_DISCARD: usize = 0;
pub const ZP_WIN: usize = 21;
pub const ZP_PASS: usize = 22;
pub const ZP_PUNG: usize = 23;
pub const ZP_CHOW: usize = 24;
pub const ZP_FORMS: usize = 6;
pub const ZP_BI_SETS: usize = 28;
pub const ZP_ACTIONS: usize = ZP_CHOW + ZP_FORMS * ZP_BI_SETS;

const ZP_FORM_NAMES: [&str; ZP_FORMS] = [
    "seq_low", "seq_mid", "seq_high", "2710", "jiao_xxy", "jiao_xyy",
];
const CHOW_NAMES: [&str; 3] = ["chow_low", "chow_mid", "chow_high"];

/// A card game's encoding (斗地主, 够级, 顶牛 …), written by the game's own module
/// (`rules/<game>/encode.rs`) and returned by its table part ([`super::cards::CardPart::codec`]).
/// It reads the hand's state and never decides a rule: the legal actions are the table's.
pub trait CardCodec: Send + Sync + std::fmt::Debug {
    /// Every action id's name (unique).
    fn names(&self) -> Vec<String>;
    /// Observation shape `(planes, width)`.
    fn shape(&self) -> (usize, usize);
    /// `(name, meaning, planes)` rows of the observation (the docs' table).
    fn rows(&self) -> &'static [(&'static str, &'static str, usize)];
    /// The id of an action of `hand` (`None`: not in the space).
    fn action_id(&self, hand: &dyn CardHand, a: &Action) -> Option<usize>;
    /// Write the observation of `seat` into `out` (zeroed by the caller).
    fn observe(&self, hand: &dyn CardHand, seat: usize, out: &mut [u8]);
}

/// Optional mahjong blocks: their first id (`None`: the variant has no such decision).
#[derive(Clone, Debug, Default)]
struct Blocks {
    declare: Option<usize>,
    pizi_kong: Option<usize>,
    void: Option<usize>,
    pao_zi: Option<(usize, i32)>,
    piao: Option<(usize, Vec<i32>)>,
    exchange3: Option<usize>,
    exchange1: Option<usize>,
}

/// The encoding of one variant: its action space and observation shape.
#[derive(Clone, Debug)]
pub struct Encoding {
    pub family: Family,
    pub seats: usize,
    /// Every action id's name (`discard 5m`, `chow_mid`, `exchange3 1m1m2m` …).
    pub names: Vec<String>,
    pub planes: usize,
    pub width: usize,
    blocks: Blocks,
    /// 换三张 multiset (a <= b <= d within a suit) → its index 0..165.
    tri: Vec<u16>,
    /// The card game's codec (`Family::Cards`).
    cards: Option<Arc<dyn CardCodec>>,
}

fn tile_name(k: usize) -> String {
    crate::tile::Tile::new_unchecked(k as u8).to_string()
}

fn card_name(k: usize) -> String {
    super::action::Pieces::Cards.name(k as u8)
}

fn tri_index() -> Vec<u16> {
    let mut t = vec![u16::MAX; 729];
    let mut i = 0u16;
    for a in 0..9 {
        for b in a..9 {
            for d in b..9 {
                t[a * 81 + b * 9 + d] = i;
                i += 1;
            }
        }
    }
    t
}

impl Encoding {
    /// The encoding of a compiled variant.
    pub fn new(c: &Compiled) -> Result<Encoding> {
        let seats = c.seats();
        match c.family {
            Family::Cards => {
                let codec = c.cards.as_ref().and_then(|p| p.codec()).ok_or_else(|| {
                    Error::rule(format!(
                        "{}: this card game has no RL encoding",
                        c.variant.id()
                    ))
                })?;
                let (planes, width) = codec.shape();
                Ok(Encoding {
                    family: Family::Cards,
                    seats,
                    names: codec.names(),
                    planes,
                    width,
                    blocks: Blocks::default(),
                    tri: Vec::new(),
                    cards: Some(codec),
                })
            }
            Family::Zipai => {
                let mut names: Vec<String> = (0..ZP_WIDTH)
                    .map(|k| format!("discard {}", card_name(k)))
                    .collect();
                names.extend(["win", "pass", "pung"].map(String::from));
                for f in ZP_FORM_NAMES {
                    for b in 0..ZP_BI_SETS {
                        names.push(format!("chow {f} bi {}", bi_name(b)));
                    }
                }
                Ok(Encoding {
                    family: Family::Zipai,
                    seats,
                    names,
                    planes: ZP_PLANES,
                    width: ZP_WIDTH,
                    blocks: Blocks::default(),
                    tri: Vec::new(),
                    cards: None,
                })
            }
            Family::Mahjong => {
                let facts = c
                    .facts
                    .as_ref()
                    .ok_or_else(|| Error::rule("a mahjong variant without table facts"))?;
                let mut names: Vec<String> = Vec::with_capacity(800);
                names.extend((0..N_KINDS).map(|k| format!("discard {}", tile_name(k))));
                names.extend(CHOW_NAMES.iter().map(|s| s.to_string()));
                names.push("pung".into());
                names.push("kong".into());
                names.extend((0..N_KINDS).map(|k| format!("concealed_kong {}", tile_name(k))));
                names.extend((0..N_KINDS).map(|k| format!("added_kong {}", tile_name(k))));
                names.push("win".into());
                names.push("pass".into());
                debug_assert_eq!(names.len(), MJ_BASE);
                let mut b = Blocks::default();
                if let Some(d) = &facts.declaration {
                    b.declare = Some(names.len());
                    let k = d.action.name();
                    names.extend((0..N_KINDS).map(|t| format!("{k} {}", tile_name(t))));
                }
                if facts.wild_flip {
                    b.pizi_kong = Some(names.len());
                    names.extend((0..N_KINDS).map(|t| format!("pizi_kong {}", tile_name(t))));
                }
                for &p in &facts.pre_phases {
                    match p {
                        PrePhaseKind::DingQue if b.void.is_none() => {
                            b.void = Some(names.len());
                            names.extend(["m", "p", "s"].map(|s| format!("declare_void {s}")));
                        }
                        PrePhaseKind::PaoZi if b.pao_zi.is_none() => {
                            let max = match facts.pao_zi {
                                PaoZi::Free { max } => max.max(0),
                                _ => 0,
                            };
                            b.pao_zi = Some((names.len(), max));
                            names.extend((0..=max).map(|v| format!("declare_pao_zi {v}")));
                        }
                        PrePhaseKind::Piao if b.piao.is_none() => {
                            b.piao = Some((names.len(), facts.piao_choices.clone()));
                            names.extend(
                                facts
                                    .piao_choices
                                    .iter()
                                    .map(|v| format!("declare_piao {v}")),
                            );
                        }
                        PrePhaseKind::HuanSanZhang if b.exchange3.is_none() => {
                            b.exchange3 = Some(names.len());
                            for s in 0..3 {
                                for a in 0..9 {
                                    for x in a..9 {
                                        for y in x..9 {
                                            names.push(format!(
                                                "exchange3 {}{}{}",
                                                tile_name(9 * s + a),
                                                tile_name(9 * s + x),
                                                tile_name(9 * s + y)
                                            ));
                                        }
                                    }
                                }
                            }
                        }
                        PrePhaseKind::OpeningExchange if b.exchange1.is_none() => {
                            b.exchange1 = Some(names.len());
                            names.extend(
                                (0..N_KINDS).map(|t| format!("exchange1 {}", tile_name(t))),
                            );
                        }
                        _ => {}
                    }
                }
                Ok(Encoding {
                    family: Family::Mahjong,
                    seats,
                    names,
                    planes: MJ_PLANES,
                    width: N_KINDS,
                    blocks: b,
                    tri: tri_index(),
                    cards: None,
                })
            }
        }
    }

    /// A shared encoding of a variant (built once per variant and switches, then reused: the
    /// card games' spaces have tens of thousands of names).
    pub fn of(c: &Compiled) -> Result<Arc<Encoding>> {
        use std::collections::HashMap;
        use std::sync::{Mutex, OnceLock};
        static CACHE: OnceLock<Mutex<HashMap<String, Arc<Encoding>>>> = OnceLock::new();
        let key = format!("{}|{}", c.variant.id(), c.options);
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        if let Some(e) = cache.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return Ok(e);
        }
        let e = Arc::new(Encoding::new(c)?);
        if let Ok(mut m) = cache.lock() {
            if m.len() >= 64 {
                m.clear();
            }
            m.insert(key, e.clone());
        }
        Ok(e)
    }

    /// Number of action ids.
    pub fn n_actions(&self) -> usize {
        self.names.len()
    }

    /// Length of one observation (`planes * width`).
    pub fn obs_len(&self) -> usize {
        self.planes * self.width
    }

    /// The id of a legal action of `t` (the action must be one of `t`'s legal actions now: a
    /// claim's form is read against the tile on offer).
    pub fn action_id(&self, t: &Table, a: &Action) -> Result<usize> {
        let id = match t {
            Table::Mahjong(m) => self.mj_id(m, a),
            Table::Zipai(_) => zp_id(a),
            Table::Cards(c) => self
                .cards
                .as_ref()
                .and_then(|k| k.action_id(c.hand.as_ref(), a))
                .filter(|&id| id < self.names.len()),
        };
        id.ok_or_else(|| {
            Error::illegal(format!(
                "{} has no id in the action space of {}",
                a.describe(t.pieces()),
                t.variant().id()
            ))
        })
    }

    /// The ids of `legal` (in order) into `ids`, and the mask (cleared first, one byte per id).
    pub fn mask_into(
        &self,
        t: &Table,
        legal: &[Action],
        ids: &mut Vec<u32>,
        mask: &mut [bool],
    ) -> Result<()> {
        ids.clear();
        mask.fill(false);
        for a in legal {
            let id = self.action_id(t, a)?;
            if mask[id] {
                return Err(Error::rule(format!(
                    "two legal actions share the id {id} ({})",
                    self.names[id]
                )));
            }
            mask[id] = true;
            ids.push(id as u32);
        }
        Ok(())
    }

    fn mj_id(&self, m: &Mahjong, a: &Action) -> Option<usize> {
        let tile = a.tile.map(usize::from).filter(|&t| t < N_KINDS);
        let b = &self.blocks;
        let id = match a.kind {
            ActionKind::Discard => tile.map(|t| MJ_DISCARD + t),
            ActionKind::Win => Some(MJ_WIN),
            ActionKind::Pass => Some(MJ_PASS),
            ActionKind::Pung => Some(MJ_PUNG),
            ActionKind::Kong => Some(MJ_KONG),
            ActionKind::Chow => {
                let lo = tile?;
                let on = m.claim.as_ref()?.tile.idx();
                let d = on.checked_sub(lo).filter(|&d| d < 3)?;
                Some(MJ_CHOW + d)
            }
            ActionKind::ConcealedKong => tile.map(|t| MJ_CONCEALED_KONG + t),
            ActionKind::AddedKong => tile.map(|t| MJ_ADDED_KONG + t),
            ActionKind::DeclareTing | ActionKind::DeclareReady => Some(b.declare? + tile?),
            ActionKind::PiziKong => Some(b.pizi_kong? + tile?),
            ActionKind::DeclareVoid => {
                let v = usize::try_from(a.value?).ok().filter(|&v| v < 3)?;
                Some(b.void? + v)
            }
            ActionKind::DeclarePaoZi => {
                let (o, max) = b.pao_zi?;
                let v = a.value.filter(|&v| (0..=max).contains(&v))?;
                Some(o + v as usize)
            }
            ActionKind::DeclarePiao => {
                let (o, ch) = b.piao.as_ref()?;
                Some(o + ch.iter().position(|&v| Some(v) == a.value)?)
            }
            ActionKind::Exchange => match a.tiles.len() {
                1 => Some(b.exchange1? + usize::from(*a.tiles.first()?).min(N_KINDS)),
                3 => {
                    let mut s = [a.tiles[0], a.tiles[1], a.tiles[2]].map(usize::from);
                    s.sort_unstable();
                    let suit = s[0] / 9;
                    if s[2] >= 27 || s[2] / 9 != suit {
                        return None;
                    }
                    let k = (s[0] % 9) * 81 + (s[1] % 9) * 9 + s[2] % 9;
                    Some(b.exchange3? + suit * 165 + usize::from(self.tri[k]))
                }
                _ => None,
            },
            _ => None,
        };
        id.filter(|&id| id < self.names.len())
    }

    /// Write the observation of `seat` into `out` (`planes * width` bytes, overwritten).
    pub fn observe(&self, t: &Table, seat: usize, out: &mut [u8]) {
        out.fill(0);
        match t {
            Table::Mahjong(m) => mj_observe(m, seat, out),
            Table::Zipai(z) => zp_observe(z, seat, out),
            Table::Cards(c) => {
                if let Some(k) = &self.cards {
                    k.observe(c.hand.as_ref(), seat, out);
                }
            }
        }
    }

    /// `(name, meaning)` of every plane (the docs' table).
    pub fn plane_names(&self) -> Vec<(String, String)> {
        let rows: &[(&str, &str, usize)] = match self.family {
            Family::Mahjong => MJ_ROWS,
            Family::Zipai => ZP_ROWS,
            Family::Cards => self.cards.as_ref().map_or(&[], |k| k.rows()),
        };
        let mut out = Vec::new();
        for &(n, d, k) in rows {
            if k == 1 {
                out.push((n.to_string(), d.to_string()));
            } else {
                for i in 0..k {
                    out.push((format!("{n}[{i}]"), d.to_string()));
                }
            }
        }
        out
    }
}

fn bi_name(b: usize) -> String {
    match bi_forms(b) {
        (None, _) => "-".into(),
        (Some(f), None) => ZP_FORM_NAMES[f].into(),
        (Some(f), Some(g)) => format!("{}+{}", ZP_FORM_NAMES[f], ZP_FORM_NAMES[g]),
    }
}

/// The forms of a 比 set id.
fn bi_forms(b: usize) -> (Option<usize>, Option<usize>) {
    if b == 0 {
        return (None, None);
    }
    if b <= ZP_FORMS {
        return (Some(b - 1), None);
    }
    let mut i = ZP_FORMS + 1;
    for f in 0..ZP_FORMS {
        for g in f..ZP_FORMS {
            if i == b {
                return (Some(f), Some(g));
            }
            i += 1;
        }
    }
    (None, None)
}

fn bi_id(forms: &[usize]) -> Option<usize> {
    match forms {
        [] => Some(0),
        [f] => Some(1 + f),
        [f, g] => {
            let (f, g) = ((*f).min(*g), (*f).max(*g));
            // pairs (f, g) with f <= g before (f, g): sum over f' < f of (6 - f')
            let before: usize = (0..f).map(|x| ZP_FORMS - x).sum();
            Some(ZP_FORMS + 1 + before + (g - f))
        }
        _ => None,
    }
}

/// The form of a 吃-type group of three cards holding the card `x`.
fn zp_form(x: u8, g: &[u8]) -> Option<usize> {
    if g.len() != 3 || !g.contains(&x) || g.iter().any(|&c| c >= 20) {
        return None;
    }
    let big = |c: u8| c >= 10;
    let rank = |c: u8| c % 10 + 1;
    if g.iter().all(|&c| big(c) == big(x)) {
        let mut r = [rank(g[0]), rank(g[1]), rank(g[2])];
        r.sort_unstable();
        if r == [2, 7, 10] {
            return Some(3);
        }
        if r[1] == r[0] + 1 && r[2] == r[1] + 1 {
            let d = rank(x).checked_sub(r[0])?;
            return (d < 3).then_some(usize::from(d));
        }
        return None;
    }
    if g.iter().all(|&c| rank(c) == rank(x)) {
        let same = g.iter().filter(|&&c| c == x).count();
        return match same {
            2 => Some(4),
            1 => Some(5),
            _ => None,
        };
    }
    None
}

fn zp_id(a: &Action) -> Option<usize> {
    match a.kind {
        ActionKind::Discard => a
            .tile
            .map(usize::from)
            .filter(|&t| t < ZP_WIDTH)
            .map(|t| ZP_DISCARD + t),
        ActionKind::Win => Some(ZP_WIN),
        ActionKind::Pass => Some(ZP_PASS),
        ActionKind::Pung => Some(ZP_PUNG),
        ActionKind::Chow => {
            let x = a.tile?;
            if a.tiles.len() < 3 || a.tiles.len() % 3 != 0 {
                return None;
            }
            let f = zp_form(x, &a.tiles[..3])?;
            let mut forms = [0usize; 2];
            let n = a.tiles.len() / 3 - 1;
            if n > 2 {
                return None;
            }
            for (i, g) in a.tiles[3..].chunks(3).enumerate() {
                forms[i] = zp_form(x, g)?;
            }
            Some(ZP_CHOW + f * ZP_BI_SETS + bi_id(&forms[..n])?)
        }
        _ => None,
    }
}

// ------------------------------------------------------------------------------- observations

/// Mahjong planes: `(name, meaning, count)` in order.
pub const MJ_ROWS: &[(&str, &str, usize)] = &[
    (
        "hand",
        "own standing tiles: plane i = 1 where the count is > i",
        4,
    ),
    (
        "drawn",
        "the tile the seat just drew (its turn), one-hot",
        1,
    ),
    ("on_offer", "the tile on offer to claim or rob, one-hot", 1),
    (
        "visible",
        "copies of each kind this seat can see (own hand, shown melds, rivers, revealed hands, indicator)",
        1,
    ),
    (
        "meld_chow",
        "slot r: tiles in its chows (counts); planes 7 + 3r",
        4,
    ),
    (
        "meld_pung",
        "slot r: tiles in its pungs (counts); planes 8 + 3r",
        4,
    ),
    (
        "meld_kong",
        "slot r: tiles in its kongs (counts; others' concealed kongs are not shown); planes 9 + 3r",
        4,
    ),
    (
        "river",
        "slot r: its discards still in its river (counts)",
        4,
    ),
    (
        "recent",
        "slot r, j: its (j+1)-th most recent discard, one-hot; plane 23 + 6r + j",
        4 * RECENT,
    ),
    ("void", "slot r: 1 over its 定缺 suit's nine kinds", 4),
    (
        "revealed",
        "slot r: its standing tiles when revealed (亮倒), counts",
        4,
    ),
    (
        "forbidden",
        "tiles no seat may discard (the 亮倒 waits, 卡五星 K3)",
        1,
    ),
    ("laizi", "the wildcard (武汉 癞子), one-hot", 1),
    ("indicator", "the flipped indicator (武汉), one-hot", 1),
    ("hua", "slot r: its face-up 花牌 held (二人麻将), counts", 4),
    (
        "seat_row",
        "cols 0-3 own seat wind one-hot, 4-7 prevalent wind, 8-11 dealer slot, 12-15 active per slot, 16-19 declared (报听/亮倒) per slot, 20-23 wins per slot, 24-27 flowers per slot, 28 own win locked (过水), 29 own hand locked, 30-33 concealed kongs per slot",
        1,
    ),
    (
        "phase_row",
        "cols 0-9 phase one-hot (turn, claim, rob, haidi, huan_san_zhang, ding_que, pao_zi, piao, exchange, done), 12-15 the slot that offers the tile",
        1,
    ),
    (
        "count_row",
        "col 0 wall remaining, 1 live wall remaining, 2 discards made (≤ 255), 3-6 炮子 per slot, 7-10 漂 per slot, 11-14 kongs per slot, 15 floor, 16 开宝, 17 黄番, 18-21 痞子/癞子杠 per slot, 22 own 换三张 tiles picked",
        1,
    ),
];

/// 字牌 planes.
pub const ZP_ROWS: &[(&str, &str, usize)] = &[
    (
        "hand",
        "own concealed cards (col 20: jokers): plane i = 1 where the count is > i",
        4,
    ),
    (
        "in_play",
        "the card in play (drawn or discarded, on offer), one-hot",
        1,
    ),
    (
        "visible",
        "copies of each card this seat can see (own hand and groups, shown groups, rivers, the card in play)",
        1,
    ),
    (
        "meld_chi",
        "slot r: cards in its 吃 / 比 groups; plane 6 + 4r",
        3,
    ),
    (
        "meld_peng",
        "slot r: cards in its 碰 groups; plane 7 + 4r",
        3,
    ),
    (
        "meld_four",
        "slot r: cards in its 开舵 / 过扫 groups; plane 8 + 4r",
        3,
    ),
    (
        "meld_hidden",
        "own 扫 / 扫穿 / 坎 groups (slot 0 only; others' are counted in row 43); plane 9 + 4r",
        3,
    ),
    (
        "river",
        "slot r: cards in front of it (untaken draws and discards), counts",
        3,
    ),
    (
        "recent",
        "slot r, j: its (j+1)-th most recent river card, one-hot; plane 21 + 6r + j",
        3 * RECENT,
    ),
    ("chou_chi", "own cards 臭 for 吃", 1),
    ("chou_peng", "own cards 臭 for 碰", 1),
    ("passed_peng", "own cards whose 碰 was passed", 1),
    ("chou", "own cards 臭 for both", 1),
    (
        "seat_row",
        "cols 0-2 dealer slot one-hot, 3-5 相公 per slot, 6-8 hidden groups per slot, 9-11 concealed cards per slot",
        1,
    ),
    (
        "phase_row",
        "cols 0-4 phase one-hot (win, discard, pung, chow, done), 8 wall remaining, 9 turns (≤ 255)",
        1,
    ),
];

#[inline]
fn sat(x: usize) -> u8 {
    x.min(255) as u8
}

fn mj_observe(m: &Mahjong, seat: usize, out: &mut [u8]) {
    const W: usize = N_KINDS;
    let n = m.n;
    let slot = |s: usize| (s + n - seat) % n;
    let row = |p: usize| p * W;
    let me = &m.seats[seat];
    let mut visible = [0u8; N_KINDS];
    for (k, &c) in me.counts.iter().enumerate() {
        for i in 0..usize::from(c).min(4) {
            out[row(i) + k] = 1;
        }
        visible[k] += c;
    }
    let to_act = (!m.is_done()).then_some(m.to_act);
    if m.phase == Phase::Turn && to_act == Some(seat) {
        if let Some(d) = m.drawn.filter(|&d| usize::from(d) < W) {
            out[row(4) + usize::from(d)] = 1;
        }
    }
    let mut offer_from = None;
    if matches!(m.phase, Phase::Claim | Phase::Rob) {
        if let Some(c) = &m.claim {
            out[row(5) + c.tile.idx()] = 1;
            offer_from = Some(c.from);
            if m.phase == Phase::Rob {
                visible[c.tile.idx()] += 1;
            }
        }
    }
    let mut ck = [0u8; 4];
    for s in 0..n {
        let r = slot(s);
        let st = &m.seats[s];
        for (meld, kk) in &st.melds {
            let t = meld.tile.idx();
            match meld.kind {
                MeldKind::Chow => {
                    for i in 0..3 {
                        if t + i < W {
                            out[row(7 + 3 * r) + t + i] += 1;
                            visible[t + i] += 1;
                        }
                    }
                }
                MeldKind::Pung => {
                    out[row(8 + 3 * r) + t] += 3;
                    visible[t] += 3;
                }
                MeldKind::Kong => {
                    let hidden = s != seat
                        && (*kk == Some(KongKind::Concealed) || (kk.is_none() && meld.concealed));
                    if hidden {
                        ck[r] += 1;
                    } else {
                        out[row(9 + 3 * r) + t] += 4;
                        visible[t] += 4;
                    }
                }
            }
        }
        for &d in &m.discards[s] {
            let d = usize::from(d);
            if d < W {
                out[row(19 + r) + d] += 1;
                visible[d] += 1;
            }
        }
        for (j, &d) in m.discards[s].iter().rev().take(RECENT).enumerate() {
            if usize::from(d) < W {
                out[row(23 + RECENT * r + j) + usize::from(d)] = 1;
            }
        }
        if let Some(v) = st.void_suit.filter(|&v| v < 3) {
            let v = usize::from(v);
            out[row(47 + r) + 9 * v..row(47 + r) + 9 * v + 9].fill(1);
        }
        if s != seat && m.revealed.get(s).copied().unwrap_or(false) {
            for (k, &c) in st.counts.iter().enumerate() {
                out[row(51 + r) + k] = c;
                visible[k] += c;
            }
        }
        for (k, &c) in m.hua[s].iter().enumerate() {
            out[row(58 + r) + k] = c;
        }
    }
    if let Some(d) = &m.facts.declaration {
        if d.reveal {
            for &s in &m.declared {
                for w in &m.waits[s] {
                    out[row(55) + w.idx()] = 1;
                }
            }
        }
    }
    if let Some(l) = m.laizi.filter(|&l| usize::from(l) < W) {
        out[row(56) + usize::from(l)] = 1;
    }
    if let Some(i) = m.indicator.filter(|&i| usize::from(i) < W) {
        out[row(57) + usize::from(i)] = 1;
        visible[usize::from(i)] += 1;
    }
    for (k, &v) in visible.iter().enumerate() {
        out[row(6) + k] = v.min(4);
    }
    // seat row (62)
    let sr = row(62);
    let wind = |t: crate::tile::Tile| t.idx().saturating_sub(27).min(3);
    out[sr + wind(me.seat_wind)] = 1;
    out[sr + 4 + wind(m.prevalent)] = 1;
    out[sr + 8 + slot(m.dealer)] = 1;
    for s in 0..n {
        let r = slot(s);
        let st = &m.seats[s];
        out[sr + 12 + r] = u8::from(st.active);
        out[sr + 16 + r] = u8::from(m.declared.contains(&s));
        out[sr + 20 + r] = sat(m.win_count[s] as usize);
        out[sr + 24 + r] = sat(m.flowers[s].len());
        out[sr + 30 + r] = ck[r];
    }
    out[sr + 28] = u8::from(me.win_locked);
    out[sr + 29] = u8::from(me.hand_locked);
    // phase row (63)
    let pr = row(63);
    let ph = match m.phase {
        Phase::Turn => 0,
        Phase::Claim => 1,
        Phase::Rob => 2,
        Phase::Haidi => 3,
        Phase::Pre(PrePhaseKind::HuanSanZhang) => 4,
        Phase::Pre(PrePhaseKind::DingQue) => 5,
        Phase::Pre(PrePhaseKind::PaoZi) => 6,
        Phase::Pre(PrePhaseKind::Piao) => 7,
        Phase::Pre(PrePhaseKind::OpeningExchange) => 8,
        Phase::Done => 9,
    };
    out[pr + ph] = 1;
    if let Some(f) = offer_from {
        out[pr + 12 + slot(f)] = 1;
    }
    // count row (64)
    let cr = row(64);
    out[cr] = sat(m.wall_remaining());
    out[cr + 1] = sat(m.live_remaining());
    out[cr + 2] = sat(m.turns as usize);
    for s in 0..n {
        let r = slot(s);
        if let Some(p) = &m.pao_zi {
            out[cr + 3 + r] = p.get(s).map_or(0, |&v| v.clamp(0, 255) as u8);
        }
        out[cr + 7 + r] = m.piao[s].map_or(0, |v| v.clamp(0, 255) as u8);
        out[cr + 11 + r] = sat(m.kongs.iter().filter(|k| k.owner == s).count());
        out[cr + 18 + r] = m.pizi_kongs[s][0].saturating_add(m.pizi_kongs[s][1]);
    }
    out[cr + 15] = sat(m.carry.floor as usize);
    out[cr + 16] = sat(m.carry.kai_bao as usize);
    out[cr + 17] = sat(m.carry.huang_fan as usize);
    out[cr + 22] = sat(m.picked[seat].len());
}

fn zp_observe(z: &Zipai, seat: usize, out: &mut [u8]) {
    const W: usize = ZP_WIDTH;
    let n = 3;
    let slot = |s: usize| (s + n - seat) % n;
    let row = |p: usize| p * W;
    let me = &z.players[seat];
    let mut visible = [0u8; W];
    for (k, &c) in me.hand.iter().enumerate() {
        for i in 0..usize::from(c).min(4) {
            out[row(i) + k] = 1;
        }
        visible[k] += c;
    }
    if let Some(c) = z.in_play.filter(|&c| usize::from(c) < W) {
        out[row(4) + usize::from(c)] = 1;
        visible[usize::from(c)] += 1;
    }
    let sr = row(43);
    for s in 0..n {
        let r = slot(s);
        let p = &z.players[s];
        let mut hidden = 0u8;
        for m in &p.melds {
            let plane = match m.ty {
                MeldType::Chi => 6,
                MeldType::Peng => 7,
                MeldType::KaiDuo | MeldType::GuoSao => 8,
                MeldType::Sao | MeldType::SaoChuan | MeldType::Kan => {
                    hidden += 1;
                    if s != seat {
                        continue;
                    }
                    9
                }
            };
            for c in &m.cards {
                let k = usize::from(c.index());
                out[row(plane + 4 * r) + k] += 1;
                if s != seat || plane != 9 {
                    visible[k] += 1;
                }
            }
        }
        for &c in &p.river {
            let c = usize::from(c);
            if c < W {
                out[row(18 + r) + c] += 1;
                visible[c] += 1;
            }
        }
        for (j, &c) in p.river.iter().rev().take(RECENT).enumerate() {
            if usize::from(c) < W {
                out[row(21 + RECENT * r + j) + usize::from(c)] = 1;
            }
        }
        out[sr + 3 + r] = u8::from(p.dead);
        out[sr + 6 + r] = hidden;
        out[sr + 9 + r] = sat(p.hand.iter().map(|&c| usize::from(c)).sum());
    }
    for k in 0..20 {
        let bit = 1u32 << k;
        out[row(39) + k] = u8::from(me.chou_chi & bit != 0);
        out[row(40) + k] = u8::from(me.chou_peng & bit != 0);
        out[row(41) + k] = u8::from(me.passed_peng & bit != 0);
        out[row(42) + k] = u8::from(me.chou & bit != 0);
    }
    let _ = JOKER;
    for (k, &v) in visible.iter().enumerate() {
        out[row(5) + k] = v.min(4);
    }
    out[sr + slot(z.dealer)] = 1;
    let pr = row(44);
    let ph = match z.phase() {
        "win" => 0,
        "discard" => 1,
        "pung" => 2,
        "chow" => 3,
        _ => 4,
    };
    out[pr + ph] = 1;
    out[pr + 8] = sat(z.wall.len());
    out[pr + 9] = sat(z.turns as usize);
}

/// Training samples from event logs: one row per decision of any seat.
#[derive(Clone, Debug)]
pub struct Dataset {
    pub enc: Arc<Encoding>,
    /// `rows × obs_len` observations of the seat deciding.
    pub obs: Vec<u8>,
    /// `rows × n_actions`.
    pub mask: Vec<bool>,
    pub action: Vec<i64>,
    pub seat: Vec<i64>,
    /// The deciding seat's settlement of the hand.
    pub reward: Vec<f32>,
    /// The index of the log the row comes from.
    pub hand: Vec<i64>,
}

impl Dataset {
    pub fn rows(&self) -> usize {
        self.action.len()
    }
}

/// Replay each log (JSON records, as `Table::log_json` writes them) from its `start` record and
/// encode every decision: the observation and mask of the deciding seat, the action's id, and
/// that seat's settlement of the hand. Every log must be of the same variant (with the same
/// switches) and replay to the same records. Management actions (逃跑, 托管) are applied but not
/// rows.
pub fn dataset(logs: &[Vec<serde_json::Value>]) -> Result<Dataset> {
    let mut enc: Option<Arc<Encoding>> = None;
    let mut d = Dataset {
        enc: Arc::new(Encoding {
            family: Family::Mahjong,
            seats: 0,
            names: Vec::new(),
            planes: 0,
            width: 0,
            blocks: Blocks::default(),
            tri: Vec::new(),
            cards: None,
        }),
        obs: Vec::new(),
        mask: Vec::new(),
        action: Vec::new(),
        seat: Vec::new(),
        reward: Vec::new(),
        hand: Vec::new(),
    };
    let mut legal = Vec::new();
    let mut ids = Vec::new();
    for (h, log) in logs.iter().enumerate() {
        let first = log
            .first()
            .ok_or_else(|| Error::replay(format!("log {h} is empty")))?;
        let mut t = super::table::table_of_start(first)?;
        let e = match &enc {
            Some(e) => e.clone(),
            None => {
                let c = Compiled::new(t.variant().clone())?;
                let e = Encoding::of(&c)?;
                enc = Some(e.clone());
                e
            }
        };
        let here = Encoding::of(&Compiled::new(t.variant().clone())?)?;
        if here.names != e.names || here.planes != e.planes {
            return Err(Error::replay(format!(
                "log {h} is of another variant or switches than log 0 ({})",
                t.variant().id()
            )));
        }
        let start = d.action.len();
        let pieces = t.pieces();
        let (ol, al) = (e.obs_len(), e.n_actions());
        for r in &log[1..] {
            if r.get("type").and_then(serde_json::Value::as_str) != Some("action") {
                continue;
            }
            let a =
                Action::from_json(r, pieces).map_err(|x| Error::replay(format!("log {h}: {x}")))?;
            if !a.kind.is_management() {
                let s = usize::from(a.seat);
                t.legal_into(s, &mut legal);
                let k = d.mask.len();
                d.mask.resize(k + al, false);
                e.mask_into(&t, &legal, &mut ids, &mut d.mask[k..])?;
                let id = e
                    .action_id(&t, &a)
                    .map_err(|x| Error::replay(format!("log {h}: {x}")))?;
                let k = d.obs.len();
                d.obs.resize(k + ol, 0);
                e.observe(&t, s, &mut d.obs[k..]);
                d.action.push(id as i64);
                d.seat.push(s as i64);
                d.hand.push(h as i64);
            }
            t.step(&a)
                .map_err(|x| Error::replay(format!("log {h}: {x}")))?;
        }
        if t.log_json() != *log {
            return Err(Error::replay(format!(
                "log {h} does not replay to the same records"
            )));
        }
        let bal = t.balances().unwrap_or_default();
        for i in start..d.action.len() {
            let s = d.seat[i] as usize;
            d.reward.push(bal.get(s).copied().unwrap_or(0) as f32);
        }
    }
    if let Some(e) = enc {
        d.enc = e;
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bots::{Bot, BotKind};
    use crate::game::table::TableSetup;
    use crate::variant::Variant;

    fn presets() -> Vec<&'static str> {
        vec![
            "mcr",
            "sichuan",
            "hebei",
            "hebei_draft4",
            "shaanxi",
            "shanghai",
            "kawuxing",
            "wuhan",
            "erren",
            "huanle3d",
            "zipai_hunan",
            "zipai_guilin",
        ]
    }

    #[test]
    fn bi_ids_are_a_bijection() {
        let mut seen = [false; ZP_BI_SETS];
        seen[bi_id(&[]).unwrap()] = true;
        for f in 0..ZP_FORMS {
            let i = bi_id(&[f]).unwrap();
            assert!(!seen[i]);
            seen[i] = true;
            assert_eq!(bi_forms(i), (Some(f), None));
            for g in f..ZP_FORMS {
                let i = bi_id(&[g, f]).unwrap();
                assert!(!seen[i], "{f} {g}");
                seen[i] = true;
                assert_eq!(bi_forms(i), (Some(f), Some(g)));
            }
        }
        assert!(seen.iter().all(|&x| x));
    }

    /// Over many random states of every table-played preset: every legal action has an id, the
    /// ids are distinct, the mask is exactly the legal set, and the observation has no byte set
    /// outside its shape.
    #[test]
    fn round_trip_over_random_states() {
        let mut variants: Vec<(&str, Variant)> = presets()
            .into_iter()
            .map(|id| (id, Variant::load(id).unwrap()))
            .collect();
        let on = crate::preset::SwitchValue::Bool(true);
        variants.push((
            "sichuan+huan_san_zhang+ding_que",
            Variant::with_options(
                "sichuan",
                vec![
                    ("huan_san_zhang".to_string(), on.clone()),
                    ("ding_que".to_string(), on),
                ],
            )
            .unwrap(),
        ));
        for (id, v) in variants {
            let c = Compiled::new(Arc::new(v)).unwrap();
            let enc = Encoding::new(&c).unwrap();
            let mut mask = vec![false; enc.n_actions()];
            let mut ids = Vec::new();
            let mut obs = vec![0u8; enc.obs_len()];
            let mut legal = Vec::new();
            let mut states = 0;
            for g in 0..40u64 {
                let mut t = c
                    .table(TableSetup {
                        seed: i128::from(g) * 7919 + 3,
                        dealer: (g as usize) % c.seats(),
                        ..TableSetup::default()
                    })
                    .unwrap();
                let mut bot = Bot::new(
                    if g % 2 == 0 {
                        BotKind::Random
                    } else {
                        BotKind::Greedy
                    },
                    g,
                );
                while let Some(s) = t.to_act() {
                    t.legal_into(s, &mut legal);
                    enc.mask_into(&t, &legal, &mut ids, &mut mask)
                        .unwrap_or_else(|e| panic!("{id}: {e}"));
                    assert_eq!(ids.len(), legal.len());
                    assert_eq!(mask.iter().filter(|&&x| x).count(), legal.len());
                    for (a, &i) in legal.iter().zip(&ids) {
                        assert_eq!(enc.action_id(&t, a).unwrap(), i as usize);
                        assert!(mask[i as usize]);
                    }
                    for k in 0..t.seats() {
                        enc.observe(&t, k, &mut obs);
                    }
                    enc.observe(&t, s, &mut obs);
                    // the phase row always has its one-hot phase
                    assert!(obs.iter().any(|&x| x > 0), "{id}");
                    states += 1;
                    let k = bot.choose(&t, s, &legal);
                    let a = legal[k].clone();
                    t.apply(&a).unwrap();
                }
            }
            assert!(states > 500, "{id}: {states} states");
        }
    }

    /// The card games: over many random and greedy states every legal action has a distinct id
    /// inside the space (so the mask is exactly the table's legal set), an id outside the mask
    /// is refused by the environment with nothing changed, observations stay in shape, and under
    /// the rlcard profile a play's id is rlcard's id of its cards.
    #[test]
    fn card_games_round_trip_over_random_states() {
        use crate::rules::doudizhu::cards::Cards;
        use crate::rules::doudizhu::space::rlcard_space;
        let kick = crate::preset::SwitchValue::Str("no_adjacent_triple".into());
        let show = crate::preset::SwitchValue::Bool(true);
        let cases: Vec<(&str, Variant, u64)> = vec![
            ("doudizhu_qq", Variant::load("doudizhu_qq").unwrap(), 60),
            (
                "doudizhu_qq+rob+show_hand",
                Variant::with_options(
                    "doudizhu_qq",
                    vec![
                        ("rob".to_string(), show.clone()),
                        ("show_hand".to_string(), show),
                    ],
                )
                .unwrap(),
                40,
            ),
            (
                "doudizhu_contest",
                Variant::load("doudizhu_contest").unwrap(),
                40,
            ),
            (
                "doudizhu_qq rlcard",
                Variant::with_options("doudizhu_qq", vec![("single_kickers".to_string(), kick)])
                    .unwrap(),
                40,
            ),
            ("dingniu", Variant::load("dingniu").unwrap(), 200),
            ("gouji", Variant::load("gouji").unwrap(), 6),
        ];
        for (id, v, games) in cases {
            let c = Compiled::new(Arc::new(v)).unwrap();
            let enc = Encoding::new(&c).unwrap();
            let rl = id.ends_with("rlcard");
            if rl {
                assert_eq!(enc.n_actions(), 27_472 + 7);
                assert_eq!(enc.names[27_471], "pass");
            } else if id.starts_with("doudizhu") {
                assert_eq!(enc.names[0], "pass");
            }
            let mut mask = vec![false; enc.n_actions()];
            let mut ids = Vec::new();
            let mut obs = vec![0u8; enc.obs_len()];
            let mut legal = Vec::new();
            let mut states = 0;
            let mut kinds = std::collections::HashSet::new();
            for g in 0..games {
                let mut t = c
                    .table(TableSetup {
                        seed: i128::from(g) * 7919 + 3,
                        dealer: (g as usize) % c.seats(),
                        ..TableSetup::default()
                    })
                    .unwrap();
                let mut bot = Bot::new(
                    if g % 2 == 0 {
                        BotKind::Random
                    } else {
                        BotKind::Greedy
                    },
                    g,
                );
                while let Some(s) = t.to_act() {
                    t.legal_into(s, &mut legal);
                    enc.mask_into(&t, &legal, &mut ids, &mut mask)
                        .unwrap_or_else(|e| panic!("{id}: {e}"));
                    assert_eq!(ids.len(), legal.len());
                    assert_eq!(mask.iter().filter(|&&x| x).count(), legal.len(), "{id}");
                    for (a, &i) in legal.iter().zip(&ids) {
                        let i = i as usize;
                        assert_eq!(enc.action_id(&t, a).unwrap(), i);
                        kinds.insert(a.kind);
                        if rl && a.kind == ActionKind::Play {
                            let mut cnt = [0u8; 15];
                            for &x in &a.tiles {
                                cnt[usize::from(x)] += 1;
                            }
                            let cards = Cards::from_counts(&cnt).unwrap();
                            let m = rlcard_space().get(i as u32).unwrap().unwrap();
                            assert_eq!(m.0, cards, "{id}: rlcard id {i}");
                        }
                        // the name says what the id does
                        let name = &enc.names[i];
                        assert!(
                            name.starts_with(a.kind.name())
                                || matches!(
                                    a.kind,
                                    ActionKind::Show
                                        | ActionKind::Revolt
                                        | ActionKind::Head
                                        | ActionKind::XuanDian
                                        | ActionKind::Return
                                ),
                            "{id}: {name} for {}",
                            a.kind.name()
                        );
                    }
                    // the seats not to act have no legal id
                    for k in 0..t.seats() {
                        obs.fill(0);
                        enc.observe(&t, k, &mut obs);
                        assert!(obs.iter().any(|&x| x > 0), "{id}");
                    }
                    states += 1;
                    let k = bot.choose(&t, s, &legal);
                    let a = legal[k].clone();
                    t.apply(&a).unwrap();
                }
            }
            assert!(states > 300, "{id}: {states} states");
            assert!(kinds.len() >= 2, "{id}: {kinds:?}");
        }
    }

    #[test]
    fn names_are_unique_and_sized() {
        let cards = ["doudizhu_qq", "doudizhu_contest", "dingniu", "gouji"];
        for id in presets().into_iter().chain(cards) {
            let v = Arc::new(Variant::load(id).unwrap());
            let c = Compiled::new(v).unwrap();
            let enc = Encoding::new(&c).unwrap();
            let mut n = enc.names.clone();
            n.sort();
            n.dedup();
            assert_eq!(n.len(), enc.n_actions(), "{id}");
            assert_eq!(enc.plane_names().len(), enc.planes, "{id}");
        }
    }
}
