//! The 24 牌九 tiles of 顶牛 (dingniu.md §2): kinds, notation, Chinese names, hands as count
//! vectors, the two open ends of the line and the placements of a hand.

use std::fmt;

use crate::error::{Error, Result};

/// Number of tile kinds (13: six doubles 横牌, seven non-doubles 竖牌).
pub const N_KINDS: usize = 13;
/// Tiles in the set.
pub const N_TILES: usize = 24;
/// Pips of the whole set.
pub const TOTAL_PIPS: u32 = 177;

/// Static facts of one tile kind.
#[derive(Clone, Copy, Debug)]
pub struct KindInfo {
    /// Low pip, high pip (1..=6).
    pub lo: u8,
    pub hi: u8,
    /// Copies in the set (2, or 1 for 三六 and 二六).
    pub copies: u8,
    /// The two-digit code, low pip first.
    pub code: &'static str,
    /// The seed's name (normative).
    pub name: &'static str,
    /// The usual 牌九 name (reference only).
    pub paijiu: &'static str,
}

/// The kinds in the order of dingniu.md §2.1 (doubles 66..11, then 56 46 16 15 13 36 26). Lists
/// of placements and actions follow this order.
pub const KINDS: [KindInfo; N_KINDS] = [
    k(6, 6, 2, "66", "大天", "天牌"),
    k(5, 5, 2, "55", "大五", "梅牌"),
    k(4, 4, 2, "44", "红八", "人牌"),
    k(3, 3, 2, "33", "长三", "长三"),
    k(2, 2, 2, "22", "二板", "板凳"),
    k(1, 1, 2, "11", "地幺", "地牌"),
    k(5, 6, 2, "56", "虎头", "斧头"),
    k(4, 6, 2, "46", "红十", "红头十"),
    k(1, 6, 2, "16", "一六", "高脚七"),
    k(1, 5, 2, "15", "一五", "铜锤六"),
    k(1, 3, 2, "13", "一三", "和牌"),
    k(3, 6, 1, "36", "三六", "杂九"),
    k(2, 6, 1, "26", "二六", "杂八"),
];

const fn k(
    lo: u8,
    hi: u8,
    copies: u8,
    code: &'static str,
    name: &'static str,
    paijiu: &'static str,
) -> KindInfo {
    KindInfo {
        lo,
        hi,
        copies,
        code,
        name,
        paijiu,
    }
}

/// The eight 牌九 tiles removed from the 32-tile set (dingniu.md §2.1), with their names.
pub const REMOVED: [(&str, &str); 8] = [
    ("12", "丁三"),
    ("14", "杂五"),
    ("23", "杂五"),
    ("24", "二四"),
    ("25", "杂七"),
    ("34", "杂七"),
    ("35", "杂八"),
    ("45", "杂九"),
];

/// Copies of each kind in the full set.
pub const FULL_SET: [u8; N_KINDS] = {
    let mut c = [0u8; N_KINDS];
    let mut i = 0;
    while i < N_KINDS {
        c[i] = KINDS[i].copies;
        i += 1;
    }
    c
};

/// Bit `i` set for every kind `i` with pip `p` on it, indexed by pip (indices 0 and 7 empty).
pub const KINDS_WITH_PIP: [u16; 8] = {
    let mut out = [0u16; 8];
    let mut i = 0;
    while i < N_KINDS {
        out[KINDS[i].lo as usize] |= 1 << i;
        out[KINDS[i].hi as usize] |= 1 << i;
        i += 1;
    }
    out
};

/// Bit set of the 竖牌 (non-double) kinds.
pub const SHUPAI: u16 = {
    let mut m = 0u16;
    let mut i = 0;
    while i < N_KINDS {
        if KINDS[i].lo != KINDS[i].hi {
            m |= 1 << i;
        }
        i += 1;
    }
    m
};

/// Bit set of the kinds with a pip in `pips` (a pip bit mask, bit `p` for pip `p`).
pub const fn kinds_with_pips(pips: u8) -> u16 {
    let mut m = 0u16;
    let mut p = 1;
    while p <= 6 {
        if pips & (1 << p) != 0 {
            m |= KINDS_WITH_PIP[p];
        }
        p += 1;
    }
    m
}

/// Bit set of the kinds present in a count vector.
pub fn kind_mask(c: &Counts) -> u16 {
    let mut m = 0u16;
    for (i, &x) in c.iter().enumerate() {
        m |= u16::from(x != 0) << i;
    }
    m
}

/// A tile kind (index into [`KINDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

/// Bit `p` set for pip `p` (1..=6).
pub const fn pip_bit(p: u8) -> u8 {
    1 << p
}

/// Kind index of the tile with pips `a`, `b` (any order), if it is in the set.
pub const fn kind_of(a: u8, b: u8) -> Option<u8> {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let mut i = 0;
    while i < N_KINDS {
        if KINDS[i].lo == lo && KINDS[i].hi == hi {
            return Some(i as u8);
        }
        i += 1;
    }
    None
}

impl Tile {
    pub const ALL: [Tile; N_KINDS] = {
        let mut t = [Tile(0); N_KINDS];
        let mut i = 0;
        while i < N_KINDS {
            t[i] = Tile(i as u8);
            i += 1;
        }
        t
    };
    /// The red 八 (红八, 4·4).
    pub const HONG_BA: Tile = Tile(2);
    /// The red 十 (红十, 4·6).
    pub const HONG_SHI: Tile = Tile(7);

    /// The kind of index `i` (0..13).
    pub const fn from_index(i: u8) -> Option<Tile> {
        if (i as usize) < N_KINDS {
            Some(Tile(i))
        } else {
            None
        }
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn info(self) -> &'static KindInfo {
        &KINDS[self.0 as usize]
    }
    pub const fn lo(self) -> u8 {
        self.info().lo
    }
    pub const fn hi(self) -> u8 {
        self.info().hi
    }
    pub const fn pips(self) -> u8 {
        self.lo() + self.hi()
    }
    /// 横牌: both ends equal.
    pub const fn is_double(self) -> bool {
        self.lo() == self.hi()
    }
    /// 红牌: a 4 on it (红八, 红十).
    pub const fn is_red(self) -> bool {
        self.lo() == 4 || self.hi() == 4
    }
    /// 五牌: a 5 on it (大五, 虎头, 一五).
    pub const fn is_five(self) -> bool {
        self.lo() == 5 || self.hi() == 5
    }
    /// Bit mask of its pips.
    pub const fn pip_mask(self) -> u8 {
        pip_bit(self.lo()) | pip_bit(self.hi())
    }
    pub const fn has_pip(self, p: u8) -> bool {
        self.lo() == p || self.hi() == p
    }
    pub const fn code(self) -> &'static str {
        self.info().code
    }
    pub const fn name(self) -> &'static str {
        self.info().name
    }
    pub const fn copies(self) -> u8 {
        self.info().copies
    }
    /// The end this tile leaves when laid against an end showing `end` (`None`: no match).
    pub const fn fit(self, end: u8) -> Option<u8> {
        if self.lo() == end {
            Some(self.hi())
        } else if self.hi() == end {
            Some(self.lo())
        } else {
            None
        }
    }

    /// Parse one tile: two digits in either order (`56`, `65`), or the seed's name (`虎头`).
    pub fn parse(text: &str) -> Result<Tile> {
        let t = text.trim();
        let b = t.as_bytes();
        if let [x @ b'1'..=b'6', y @ b'1'..=b'6'] = b {
            if let Some(i) = kind_of(x - b'0', y - b'0') {
                return Ok(Tile(i));
            }
        }
        if let Some(i) = KINDS.iter().position(|k| k.name == t) {
            return Ok(Tile(i as u8));
        }
        if b.len() != 2 || !b.iter().all(u8::is_ascii_digit) {
            return Err(Error::tile(
                text,
                "a 顶牛 tile is two pips 1-6, low first (\"56\" 虎头, \"44\" 红八) or its name \
                 (大天 大五 红八 长三 二板 地幺 虎头 红十 一六 一五 一三 三六 二六)",
            ));
        }
        let (a, c) = (b[0] - b'0', b[1] - b'0');
        if !(1..=6).contains(&a) || !(1..=6).contains(&c) {
            return Err(Error::tile(text, "pips run from 1 to 6"));
        }
        match kind_of(a, c) {
            Some(i) => Ok(Tile(i)),
            None => {
                let code = format!("{}{}", a.min(c), a.max(c));
                let name = REMOVED
                    .iter()
                    .find(|(c2, _)| *c2 == code)
                    .map_or("", |(_, n)| n);
                Err(Error::tile(
                    text,
                    format!(
                        "not in the 24-tile set: {code} ({name}) is one of the eight 牌九 tiles \
                         顶牛 removes; the set is 66 55 44 33 22 11 56 46 16 15 13 36 26"
                    ),
                ))
            }
        }
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A multiset of tiles as copies per kind.
pub type Counts = [u8; N_KINDS];

/// Tiles in a count vector.
pub fn count(c: &Counts) -> u32 {
    c.iter().map(|&x| u32::from(x)).sum()
}

/// Pips of a count vector.
pub fn pips(c: &Counts) -> u32 {
    c.iter()
        .enumerate()
        .map(|(i, &x)| u32::from(x) * u32::from(Tile::ALL[i].pips()))
        .sum()
}

/// The tiles of a count vector in kind order.
pub fn tiles_of(c: &Counts) -> Vec<Tile> {
    let mut out = Vec::with_capacity(count(c) as usize);
    for t in Tile::ALL {
        for _ in 0..c[t.index()] {
            out.push(t);
        }
    }
    out
}

/// Codes of a count vector in kind order, space-separated (`"66 44 16"`).
pub fn format_counts(c: &Counts) -> String {
    format_tiles(&tiles_of(c))
}

pub fn format_tiles(tiles: &[Tile]) -> String {
    tiles.iter().map(|t| t.code()).collect::<Vec<_>>().join(" ")
}

/// Count vector of a list of tiles, refusing more copies of a kind than the set has.
pub fn counts_of(tiles: &[Tile]) -> Result<Counts> {
    let mut c = [0u8; N_KINDS];
    for &t in tiles {
        c[t.index()] += 1;
        if c[t.index()] > t.copies() {
            return Err(Error::hand(format!(
                "too many copies of {} ({}): the set has {}",
                t.code(),
                t.name(),
                t.copies()
            )));
        }
    }
    Ok(c)
}

/// Parse a hand: tile codes separated by spaces, `·` or commas (`"66 56 46"`, `"62·63"`).
/// Keeps the order given, normalises each tile, and refuses more copies than the set holds.
pub fn parse_hand(text: &str) -> Result<Vec<Tile>> {
    let mut out = Vec::new();
    for tok in text
        .split(|c: char| c.is_whitespace() || c == '·' || c == ',')
        .filter(|s| !s.is_empty())
    {
        out.push(Tile::parse(tok)?);
    }
    counts_of(&out)?;
    Ok(out)
}

/// Which open end: `L` (left) or `R` (right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    L,
    R,
}

impl Side {
    pub const fn letter(self) -> &'static str {
        match self {
            Side::L => "L",
            Side::R => "R",
        }
    }
    pub fn parse(s: &str) -> Result<Side> {
        match s.trim() {
            "L" | "l" | "左" => Ok(Side::L),
            "R" | "r" | "右" => Ok(Side::R),
            other => Err(Error::hand(format!(
                "side {other:?}: write L (left end) or R (right end), as in \"16:R\""
            ))),
        }
    }
}

/// The two open ends `[L|R]` of the line (pips 1..=6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ends(pub u8, pub u8);

impl Ends {
    /// Checked constructor: both ends must be pips 1..=6.
    pub fn new(l: u8, r: u8) -> Result<Ends> {
        if (1..=6).contains(&l) && (1..=6).contains(&r) {
            Ok(Ends(l, r))
        } else {
            Err(Error::hand(format!(
                "ends [{l}|{r}]: each open end is a pip 1-6"
            )))
        }
    }
    /// The ends after the first tile `t` (low pip left).
    pub const fn opening(t: Tile) -> Ends {
        Ends(t.lo(), t.hi())
    }
    pub const fn get(self, s: Side) -> u8 {
        match s {
            Side::L => self.0,
            Side::R => self.1,
        }
    }
    pub const fn mask(self) -> u8 {
        pip_bit(self.0) | pip_bit(self.1)
    }
    /// The ends after laying `t` on side `s`, or `None` if it does not fit there.
    pub const fn place(self, t: Tile, s: Side) -> Option<Ends> {
        match s {
            Side::L => match t.fit(self.0) {
                Some(n) => Some(Ends(n, self.1)),
                None => None,
            },
            Side::R => match t.fit(self.1) {
                Some(n) => Some(Ends(self.0, n)),
                None => None,
            },
        }
    }
}

impl fmt::Display for Ends {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}|{}]", self.0, self.1)
    }
}

/// One legal placement: tile, end, and the ends after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub tile: Tile,
    pub side: Side,
    pub ends: Ends,
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.tile, self.side.letter())
    }
}

/// Up to 26 placements, on the stack (no allocation in the hot path).
#[derive(Clone, Copy, Debug)]
pub struct Placements {
    items: [Placement; 2 * N_KINDS],
    len: u8,
}

impl Placements {
    pub const fn new() -> Self {
        Placements {
            items: [Placement {
                tile: Tile(0),
                side: Side::L,
                ends: Ends(1, 1),
            }; 2 * N_KINDS],
            len: 0,
        }
    }
    pub fn push(&mut self, p: Placement) {
        self.items[self.len as usize] = p;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[Placement] {
        &self.items[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Placement> {
        self.as_slice().iter()
    }
}

impl Default for Placements {
    fn default() -> Self {
        Self::new()
    }
}

/// Every legal placement of a hand against the ends (dingniu.md §4.1), in kind order, `L` before
/// `R`. When both ends show the same number, `L` and `R` are equivalent and only `L` is listed.
pub fn placements(ends: Ends, hand: &Counts) -> Placements {
    let mut out = Placements::new();
    let mut bits = kind_mask(hand)
        & (KINDS_WITH_PIP[ends.0 as usize & 7] | KINDS_WITH_PIP[ends.1 as usize & 7]);
    while bits != 0 {
        let t = Tile(bits.trailing_zeros() as u8);
        bits &= bits - 1;
        if let Some(e) = ends.place(t, Side::L) {
            out.push(Placement {
                tile: t,
                side: Side::L,
                ends: e,
            });
        }
        if ends.0 != ends.1 {
            if let Some(e) = ends.place(t, Side::R) {
                out.push(Placement {
                    tile: t,
                    side: Side::R,
                    ends: e,
                });
            }
        }
    }
    out
}

/// Whether any tile of the hand fits an end.
pub fn can_lay(ends: Ends, hand: &Counts) -> bool {
    kind_mask(hand) & kinds_with_pips(ends.mask()) != 0
}

/// The pips connected to `start` (a pip bit mask) through the 竖牌 kinds in `edges`.
pub fn closure(start: u8, edges: u16) -> u8 {
    let mut r = start;
    loop {
        let before = r;
        let mut bits = edges & kinds_with_pips(r);
        while bits != 0 {
            r |= Tile(bits.trailing_zeros() as u8).pip_mask();
            bits &= bits - 1;
        }
        if r == before {
            return r;
        }
    }
}

/// Whether the player could lay every tile of `hand` one after another, starting from `ends`,
/// with nobody else moving (the 头牌净手 test of dingniu.md §6.4). A depth-first search over
/// his own tiles, remembering the states that failed.
pub fn can_lay_all(ends: Ends, hand: &Counts) -> bool {
    let m = kind_mask(hand);
    // Necessary: every tile has a pip connected to an end through his own 竖牌.
    if m & !kinds_with_pips(closure(ends.mask(), m & SHUPAI)) != 0 {
        return false;
    }
    let mut failed = std::collections::HashSet::new();
    lay_all(ends, *hand, &mut failed)
}

fn lay_all(
    ends: Ends,
    hand: Counts,
    failed: &mut std::collections::HashSet<(Ends, Counts)>,
) -> bool {
    if hand.iter().all(|&c| c == 0) {
        return true;
    }
    if failed.contains(&(ends, hand)) {
        return false;
    }
    for p in placements(ends, &hand).iter() {
        let mut h = hand;
        h[p.tile.index()] -= 1;
        if lay_all(p.ends, h, failed) {
            return true;
        }
    }
    failed.insert((ends, hand));
    false
}
