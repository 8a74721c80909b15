//! Tiles and their notation (`shared/rules/common.md` §1).
//!
//! A [`Tile`] is one byte: `0..=8` 1m..9m, `9..=17` 1p..9p, `18..=26` 1s..9s, `27..=33` the honours in
//! the canonical order E S W N C F P, and `34..=41` the flowers f1..f8. Hands are count vectors
//! ([`Counts`]) over the 34 non-flower kinds.
//!
//! Accepted notation (all forms may be mixed in one string):
//! * compact: `123m456p789sEEECC`, one tile per digit, the suit letter closing the run;
//! * tenhou honours: `1234567z` = E S W N P F C;
//! * flowers: `f1`..`f8`;
//! * Chinese names: `一万`, `二三四万`, `五筒`/`五饼`, `七条`/`七索`, `幺鸡`, `东 南 西 北` (`东风` …),
//!   `中`/`红中`, `发`/`发财`/`青发`, `白`/`白板`, `春 夏 秋 冬 梅 兰 竹 菊`, in simplified or traditional
//!   characters (`萬 餅 條 東 風 紅中 發財 青發`);
//! * Arabic digits with a Chinese suit: `123万`, `5筒`, `9条`;
//! * PyMahjongGB codes, one per token: `W1`..`W9` (万), `B1`..`B9` (饼), `T1`..`T9` (条), `F1`..`F4`
//!   (东南西北), `J1`..`J3` (中发白), `H1`..`H8` (flowers) — a letter and ONE digit followed by a
//!   separator, the end, or the next code (`W1 T9 J1`, `W1,T9`); `W123m` stays West + 123m;
//! * separators: white space, `·`, `,`, `、`, `，` are ignored.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

/// Number of non-flower tile kinds.
pub const N_KINDS: usize = 34;
/// Number of tile values including the eight flowers.
pub const N_TILES_WITH_FLOWERS: usize = 42;

/// Count vector of a hand over the 34 kinds.
pub type Counts = [u8; N_KINDS];

/// The three suits and the honours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// 万 (characters), `m`
    Man,
    /// 筒 / 饼 (dots), `p`
    Pin,
    /// 条 / 索 (bamboo), `s`
    Sou,
    /// 字牌: winds and dragons
    Honor,
    /// 花牌
    Flower,
}

/// One tile kind (or a flower).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

/// 1m: only the filler of an inline tile list's unused slots.
impl Default for Tile {
    fn default() -> Self {
        Tile(0)
    }
}

const HONOR_LETTERS: [char; 7] = ['E', 'S', 'W', 'N', 'C', 'F', 'P'];
const HONOR_ZH: [&str; 7] = ["东", "南", "西", "北", "中", "发", "白"];
const FLOWER_ZH: [&str; 8] = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const NUM_ZH: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const SUIT_ZH: [&str; 3] = ["万", "筒", "条"];
/// tenhou `z` order: 1..7 = E S W N P F C, mapped to our honour offsets.
const TENHOU_Z: [u8; 7] = [0, 1, 2, 3, 6, 5, 4];

impl Tile {
    pub const E: Tile = Tile(27);
    pub const S: Tile = Tile(28);
    pub const W: Tile = Tile(29);
    pub const N: Tile = Tile(30);
    pub const C: Tile = Tile(31);
    pub const F: Tile = Tile(32);
    pub const P: Tile = Tile(33);

    /// Tile from its index `0..42` (34 kinds, then 8 flowers).
    pub const fn from_index(i: u8) -> Option<Tile> {
        if (i as usize) < N_TILES_WITH_FLOWERS {
            Some(Tile(i))
        } else {
            None
        }
    }

    /// Tile from its index; the caller guarantees `i < 42`.
    #[inline]
    pub const fn new_unchecked(i: u8) -> Tile {
        debug_assert!((i as usize) < N_TILES_WITH_FLOWERS);
        Tile(i)
    }

    /// Suited tile from suit index (0 m, 1 p, 2 s) and rank 1..=9.
    pub const fn suited(suit: u8, rank: u8) -> Option<Tile> {
        if suit < 3 && rank >= 1 && rank <= 9 {
            Some(Tile(suit * 9 + rank - 1))
        } else {
            None
        }
    }

    /// Honour by offset 0..7 in E S W N C F P order.
    pub const fn honor(offset: u8) -> Option<Tile> {
        if offset < 7 {
            Some(Tile(27 + offset))
        } else {
            None
        }
    }

    /// Flower f1..f8 by number 1..=8.
    pub const fn flower(n: u8) -> Option<Tile> {
        if n >= 1 && n <= 8 {
            Some(Tile(33 + n))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
    #[inline]
    pub const fn idx(self) -> usize {
        self.0 as usize
    }

    pub const fn suit(self) -> Suit {
        match self.0 {
            0..=8 => Suit::Man,
            9..=17 => Suit::Pin,
            18..=26 => Suit::Sou,
            27..=33 => Suit::Honor,
            _ => Suit::Flower,
        }
    }
    /// 0, 1, 2 for m, p, s; `None` for honours and flowers.
    #[inline]
    pub const fn suit_index(self) -> Option<u8> {
        if self.0 < 27 { Some(self.0 / 9) } else { None }
    }
    /// Rank 1..=9 of a suited tile, `None` otherwise.
    #[inline]
    pub const fn rank(self) -> Option<u8> {
        if self.0 < 27 {
            Some(self.0 % 9 + 1)
        } else {
            None
        }
    }
    #[inline]
    pub const fn is_suited(self) -> bool {
        self.0 < 27
    }
    #[inline]
    pub const fn is_honor(self) -> bool {
        self.0 >= 27 && self.0 < 34
    }
    #[inline]
    pub const fn is_wind(self) -> bool {
        self.0 >= 27 && self.0 < 31
    }
    #[inline]
    pub const fn is_dragon(self) -> bool {
        self.0 >= 31 && self.0 < 34
    }
    #[inline]
    pub const fn is_flower(self) -> bool {
        self.0 >= 34
    }
    /// 老头: suited 1 or 9.
    #[inline]
    pub const fn is_terminal(self) -> bool {
        self.0 < 27 && (self.0 % 9 == 0 || self.0 % 9 == 8)
    }
    /// 幺九: terminal or honour.
    #[inline]
    pub const fn is_yaojiu(self) -> bool {
        self.is_terminal() || self.is_honor()
    }
    /// 中张: suited 2..8.
    #[inline]
    pub const fn is_simple(self) -> bool {
        self.0 < 27 && !self.is_terminal()
    }

    /// Default successor (common.md §1.7): suited n→n+1 with 9→1, E→S→W→N→E, C→F→P→C.
    pub const fn next(self) -> Tile {
        match self.0 {
            0..=26 => {
                if self.0 % 9 == 8 {
                    Tile(self.0 - 8)
                } else {
                    Tile(self.0 + 1)
                }
            }
            27..=29 => Tile(self.0 + 1),
            30 => Tile(27),
            31 | 32 => Tile(self.0 + 1),
            33 => Tile(31),
            _ => self,
        }
    }

    /// All 34 kinds in canonical order.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..N_KINDS as u8).map(Tile)
    }

    /// Chinese name (一万, 五筒, 七条, 东, 中, 春 …).
    pub fn chinese(self) -> String {
        match self.suit() {
            Suit::Man | Suit::Pin | Suit::Sou => {
                let r = self.rank().unwrap_or(1) as usize;
                format!("{}{}", NUM_ZH[r - 1], SUIT_ZH[(self.0 / 9) as usize])
            }
            Suit::Honor => HONOR_ZH[(self.0 - 27) as usize].to_string(),
            Suit::Flower => FLOWER_ZH[(self.0 - 34) as usize].to_string(),
        }
    }

    /// Parse exactly one tile (any accepted notation).
    pub fn parse(text: &str) -> Result<Tile> {
        // The forms every case and request writes (`5m`, `E`), without the scanner's buffers; the
        // scanner reads them the same way (a test checks every one- and two-byte text).
        match *text.as_bytes() {
            [d @ b'1'..=b'9', s @ (b'm' | b'p' | b's')] => {
                let suit = match s {
                    b'm' => 0,
                    b'p' => 1,
                    _ => 2,
                };
                return Ok(Tile(suit * 9 + d - b'1'));
            }
            [c] => {
                if let Some(off) = HONOR_LETTERS.iter().position(|&h| h as u32 == u32::from(c)) {
                    return Ok(Tile(27 + off as u8));
                }
            }
            _ => {}
        }
        Tile::parse_scanned(text)
    }

    /// [`Tile::parse`] through the general scanner ([`parse_tiles`]).
    fn parse_scanned(text: &str) -> Result<Tile> {
        let tiles = parse_tiles(text)?;
        match tiles.as_slice() {
            [t] => Ok(*t),
            [] => Err(Error::tile(text, "no tile given")),
            _ => Err(Error::tile(
                text,
                format!("expected one tile, found {}", tiles.len()),
            )),
        }
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.suit() {
            Suit::Man => write!(f, "{}m", self.0 + 1),
            Suit::Pin => write!(f, "{}p", self.0 - 8),
            Suit::Sou => write!(f, "{}s", self.0 - 17),
            Suit::Honor => write!(f, "{}", HONOR_LETTERS[(self.0 - 27) as usize]),
            Suit::Flower => write!(f, "f{}", self.0 - 33),
        }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tile({self})")
    }
}

impl FromStr for Tile {
    type Err = Error;
    fn from_str(s: &str) -> Result<Tile> {
        Tile::parse(s)
    }
}

/// How to write a tile, appended to notation errors.
const HOW_TO_WRITE: &str = "write tiles as 123m 456p 789s, honours E S W N C F P (or 1z-7z), \
flowers f1-f8, Chinese names (一万 五筒 七条 东 中 发 白), 123万, or PyMahjongGB codes (W1 B5 T9 F1 J1 H1)";

/// A PyMahjongGB tile code at `i` (`W1`, `B5`, `T9`, `F1`..`F4`, `J1`..`J3`, `H1`..`H8`): the letter and
/// exactly one digit, then the end, a separator or the next code. `None` when the text there is not
/// such a code (compact notation like `W123m` keeps its meaning); `Some(Err)` for a code-shaped token
/// whose number does not exist.
fn gb_code(chars: &[char], i: usize) -> Option<std::result::Result<Tile, String>> {
    let letter = chars[i];
    if !matches!(letter, 'W' | 'B' | 'T' | 'F' | 'J' | 'H') {
        return None;
    }
    let n = chars.get(i + 1)?.to_digit(10)? as u8;
    let ends = match chars.get(i + 2) {
        None => true,
        Some(&c) if is_separator(c) => true,
        Some(&c) => {
            matches!(c, 'W' | 'B' | 'T' | 'F' | 'J' | 'H')
                && chars.get(i + 3).is_some_and(|d| d.is_ascii_digit())
        }
    };
    if !ends {
        return None;
    }
    let (tile, range) = match letter {
        'W' => (Tile::suited(0, n), "W1-W9"),
        'B' => (Tile::suited(1, n), "B1-B9"),
        'T' => (Tile::suited(2, n), "T1-T9"),
        'F' => ((1..=4).contains(&n).then(|| Tile(26 + n)), "F1-F4"),
        'J' => ((1..=3).contains(&n).then(|| Tile(30 + n)), "J1-J3"),
        _ => (Tile::flower(n), "H1-H8"),
    };
    Some(tile.ok_or_else(|| format!("PyMahjongGB code {letter}{n} does not exist ({range})")))
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '·' | ',' | '、' | '，')
}

fn zh_num(c: char) -> Option<u8> {
    NUM_ZH.iter().position(|&n| n == c).map(|p| p as u8 + 1)
}

fn zh_suit(c: char) -> Option<u8> {
    match c {
        '万' | '萬' => Some(0),
        '筒' | '饼' | '餅' => Some(1),
        '条' | '索' | '條' => Some(2),
        _ => None,
    }
}

/// Parse a string of tiles in any accepted notation, in the order written.
///
/// Copies are not limited here (a string may describe a wall); see [`to_counts`] and
/// [`crate::hand::Hand`] for hand-level checks.
pub fn parse_tiles(text: &str) -> Result<Vec<Tile>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    let err = |reason: String| Error::tile(text, format!("{reason}; {HOW_TO_WRITE}"));
    while i < chars.len() {
        let c = chars[i];
        if let Some(code) = gb_code(&chars, i) {
            out.push(code.map_err(err)?);
            i += 2;
            continue;
        }
        match c {
            c if is_separator(c) => i += 1,
            '0'..='9' => {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let digits = &chars[start..i];
                let Some(&suit) = chars.get(i) else {
                    return Err(err(format!(
                        "digits {:?} at position {start} are not followed by a suit letter m/p/s/z",
                        digits.iter().collect::<String>()
                    )));
                };
                i += 1;
                // `123万`: Arabic digits closed by a Chinese suit character.
                let suit = match zh_suit(suit) {
                    Some(s) => ['m', 'p', 's'][s as usize],
                    None => suit,
                };
                for &d in digits {
                    let n = d as u8 - b'0';
                    let tile = match suit {
                        'm' | 'p' | 's' => {
                            let s = match suit {
                                'm' => 0,
                                'p' => 1,
                                _ => 2,
                            };
                            Tile::suited(s, n).ok_or_else(|| {
                                err(format!("rank {n} does not exist (suited ranks are 1-9)"))
                            })?
                        }
                        'z' => {
                            if !(1..=7).contains(&n) {
                                return Err(err(format!("honour {n}z does not exist (1z-7z)")));
                            }
                            Tile(27 + TENHOU_Z[(n - 1) as usize])
                        }
                        other => {
                            return Err(err(format!(
                                "digits at position {start} are followed by {other:?}, not a suit letter m/p/s/z"
                            )));
                        }
                    };
                    out.push(tile);
                }
            }
            'f' => {
                let n = chars.get(i + 1).and_then(|d| d.to_digit(10));
                match n {
                    Some(n @ 1..=8) if !chars.get(i + 2).is_some_and(|d| d.is_ascii_digit()) => {
                        out.push(Tile(33 + n as u8));
                        i += 2;
                    }
                    _ => return Err(err(format!("flower at position {i} must be f1..f8"))),
                }
            }
            'E' | 'S' | 'W' | 'N' | 'C' | 'F' | 'P' => {
                let off = HONOR_LETTERS.iter().position(|&h| h == c).unwrap_or(0) as u8;
                out.push(Tile(27 + off));
                i += 1;
            }
            '幺' if chars.get(i + 1) == Some(&'鸡') => {
                out.push(Tile(18));
                i += 2;
            }
            c if zh_num(c).is_some() => {
                let start = i;
                let mut ranks = Vec::new();
                while let Some(n) = chars.get(i).copied().and_then(zh_num) {
                    ranks.push(n);
                    i += 1;
                }
                let Some(s) = chars.get(i).copied().and_then(zh_suit) else {
                    return Err(err(format!(
                        "Chinese numerals at position {start} are not followed by 万/筒/饼/条/索"
                    )));
                };
                i += 1;
                for r in ranks {
                    out.push(Tile(s * 9 + r - 1));
                }
            }
            '东' | '東' | '南' | '西' | '北' => {
                let c = if c == '東' { '东' } else { c };
                let off = HONOR_ZH.iter().position(|&h| h.starts_with(c)).unwrap_or(0) as u8;
                out.push(Tile(27 + off));
                i += 1;
                if matches!(chars.get(i), Some('风' | '風')) {
                    i += 1;
                }
            }
            '红' | '紅' if chars.get(i + 1) == Some(&'中') => {
                out.push(Tile::C);
                i += 2;
            }
            '中' => {
                out.push(Tile::C);
                i += 1;
            }
            '青' if matches!(chars.get(i + 1), Some('发' | '發')) => {
                out.push(Tile::F);
                i += 2;
            }
            '发' | '發' => {
                out.push(Tile::F);
                i += 1;
                if matches!(chars.get(i), Some('财' | '財')) {
                    i += 1;
                }
            }
            '白' => {
                out.push(Tile::P);
                i += 1;
                if matches!(chars.get(i), Some('板' | '皮')) {
                    i += 1;
                }
            }
            c if FLOWER_ZH.iter().any(|f| f.starts_with(c)) => {
                let off = FLOWER_ZH.iter().position(|f| f.starts_with(c)).unwrap_or(0) as u8;
                out.push(Tile(34 + off));
                i += 1;
            }
            other => {
                return Err(err(format!(
                    "unexpected character {other:?} at position {i}"
                )));
            }
        }
    }
    Ok(out)
}

/// Count vector of non-flower tiles; rejects flowers and more than four copies of a kind.
pub fn to_counts(tiles: &[Tile]) -> Result<Counts> {
    let mut c = [0u8; N_KINDS];
    for &t in tiles {
        if t.is_flower() {
            return Err(Error::hand(format!(
                "flower {t} cannot be part of a hand's tiles"
            )));
        }
        c[t.idx()] += 1;
        if c[t.idx()] > 4 {
            return Err(Error::hand(format!("more than four copies of {t}")));
        }
    }
    Ok(c)
}

/// Tiles of a count vector in canonical order.
pub fn from_counts(counts: &Counts) -> Vec<Tile> {
    let mut v = Vec::with_capacity(counts.iter().map(|&c| c as usize).sum());
    for (i, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            v.push(Tile(i as u8));
        }
    }
    v
}

/// Canonical compact notation of a list of tiles (sorted): `123m456p789sEEECCf1`.
pub fn format_tiles(tiles: &[Tile]) -> String {
    let mut sorted: Vec<Tile> = tiles.to_vec();
    sorted.sort_unstable();
    let mut s = String::with_capacity(sorted.len() + 4);
    for suit in 0..3u8 {
        let mut any = false;
        for t in sorted.iter().filter(|t| t.suit_index() == Some(suit)) {
            s.push((b'1' + t.0 % 9) as char);
            any = true;
        }
        if any {
            s.push(['m', 'p', 's'][suit as usize]);
        }
    }
    for t in sorted.iter().filter(|t| !t.is_suited()) {
        s.push_str(&t.to_string());
    }
    s
}

/// Canonical compact notation of a count vector.
pub fn format_counts(counts: &Counts) -> String {
    format_tiles(&from_counts(counts))
}

/// Chinese names joined without separators (一万二万东 …), in canonical order.
pub fn format_chinese(tiles: &[Tile]) -> String {
    let mut sorted = tiles.to_vec();
    sorted.sort_unstable();
    sorted
        .iter()
        .map(|t| t.chinese())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_roundtrip() {
        let t = parse_tiles("123m456p789sEEECC").unwrap();
        assert_eq!(t.len(), 14);
        assert_eq!(format_tiles(&t), "123m456p789sEEECC");
        assert_eq!(
            format_tiles(&parse_tiles("CCEEE987s654p321m").unwrap()),
            "123m456p789sEEECC"
        );
    }

    #[test]
    fn short_forms_parse_as_the_scanner_reads_them() {
        // every text of one or two ASCII characters: the same tile, or the same error message
        let one = (0u8..128).map(|a| vec![a]);
        let two = (0u8..128).flat_map(|a| (0u8..128).map(move |b| vec![a, b]));
        for bytes in one.chain(two) {
            let text = String::from_utf8(bytes).unwrap();
            let fast = Tile::parse(&text).map_err(|e| e.to_string());
            let scanned = Tile::parse_scanned(&text).map_err(|e| e.to_string());
            assert_eq!(fast, scanned, "{text:?}");
        }
    }

    #[test]
    fn every_tile_roundtrips() {
        for i in 0..N_TILES_WITH_FLOWERS as u8 {
            let t = Tile(i);
            assert_eq!(Tile::parse(&t.to_string()).unwrap(), t);
            assert_eq!(Tile::parse(&t.chinese()).unwrap(), t, "{}", t.chinese());
        }
    }

    #[test]
    fn tenhou_honours() {
        let t = parse_tiles("1234567z").unwrap();
        assert_eq!(format_tiles(&t), "ESWNCFP");
        assert_eq!(Tile::parse("5z").unwrap(), Tile::P);
        assert_eq!(Tile::parse("7z").unwrap(), Tile::C);
    }

    #[test]
    fn chinese_forms() {
        assert_eq!(
            format_tiles(&parse_tiles("一二三万 五饼 幺鸡 红中 发财 白板 东风").unwrap()),
            "123m5p1sECFP"
        );
        assert_eq!(Tile::parse("九索").unwrap().to_string(), "9s");
    }

    #[test]
    fn traditional_and_mixed_forms() {
        assert_eq!(
            format_tiles(&parse_tiles("東 東風 南風 紅中 發財 青發 白板 一萬 五餅 七條").unwrap()),
            "1m5p7sEESCFFP"
        );
        assert_eq!(
            format_tiles(&parse_tiles("123万 5筒 9条 4萬").unwrap()),
            "1234m5p9s"
        );
    }

    #[test]
    fn pymahjonggb_codes() {
        let t = parse_tiles("W1 B5 T9 F1 F4 J1 J2 J3 H1 H8").unwrap();
        assert_eq!(format_tiles(&t), "1m5p9sENCFPf1f8");
        assert_eq!(format_tiles(&parse_tiles("W1,T9、J1").unwrap()), "1m9sC");
        assert_eq!(format_tiles(&parse_tiles("W1T9J1").unwrap()), "1m9sC");
        // Compact notation keeps its meaning: West, then 1m2m3m.
        assert_eq!(format_tiles(&parse_tiles("W123m").unwrap()), "123mW");
        assert_eq!(format_tiles(&parse_tiles("EEEW11m").unwrap()), "11mEEEW");
        for bad in ["F5", "J4", "H9", "W0"] {
            let e = parse_tiles(bad).unwrap_err().to_string();
            assert!(e.contains("does not exist"), "{bad}: {e}");
        }
        let e = parse_tiles("X1").unwrap_err().to_string();
        assert!(e.contains("PyMahjongGB codes"), "{e}");
    }

    #[test]
    fn rejects() {
        for bad in ["0m", "123", "1x", "8z", "f9", "f", "Q", "一二", "f12"] {
            assert!(
                matches!(parse_tiles(bad), Err(Error::InvalidTile { .. })),
                "{bad}"
            );
        }
        assert!(to_counts(&parse_tiles("11111m").unwrap()).is_err());
    }

    #[test]
    fn successor() {
        assert_eq!(Tile::parse("9m").unwrap().next().to_string(), "1m");
        assert_eq!(Tile::N.next(), Tile::E);
        assert_eq!(Tile::P.next(), Tile::C);
    }
}
