//! Hands: concealed tiles plus declared melds, and their validation.

use std::fmt;

use crate::error::{Error, Result};
use crate::tile::{Counts, N_KINDS, Tile, format_tiles};

/// Kind of a declared meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MeldKind {
    /// 吃: three consecutive ranks of one suit.
    Chow,
    /// 碰: three of a kind.
    Pung,
    /// 杠: four of a kind (明杠 or, with `concealed`, 暗杠).
    Kong,
}

impl MeldKind {
    pub const fn name(self) -> &'static str {
        match self {
            MeldKind::Chow => "chow",
            MeldKind::Pung => "pung",
            MeldKind::Kong => "kong",
        }
    }
    pub fn parse(s: &str) -> Result<MeldKind> {
        match s.to_ascii_lowercase().as_str() {
            "chow" | "chi" | "吃" => Ok(MeldKind::Chow),
            "pung" | "pon" | "peng" | "碰" => Ok(MeldKind::Pung),
            "kong" | "kan" | "gang" | "杠" => Ok(MeldKind::Kong),
            other => Err(Error::hand(format!(
                "unknown meld type {other:?} (chow, pung or kong)"
            ))),
        }
    }
}

/// A declared meld.
///
/// `tile` is the lowest tile of a chow and the tile of a pung or kong. `from` says where the claimed
/// tile came from: for a pung/kong the relative seat (1 = 上家 left, 2 = 对家 opposite, 3 = 下家 right,
/// 0 = not claimed, e.g. a concealed kong); for a chow which of its three tiles was claimed (1..=3,
/// low to high; 0 = unknown).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Meld {
    pub kind: MeldKind,
    pub tile: Tile,
    pub concealed: bool,
    pub from: u8,
}

impl Meld {
    /// Build and validate a meld.
    pub fn new(kind: MeldKind, tile: Tile, concealed: bool, from: u8) -> Result<Meld> {
        if tile.is_flower() {
            return Err(Error::hand(format!(
                "a meld cannot be made of flowers ({tile})"
            )));
        }
        if from > 3 {
            return Err(Error::hand(format!(
                "meld source {from} out of range 0..=3"
            )));
        }
        match kind {
            MeldKind::Chow => {
                let Some(rank) = tile.rank() else {
                    return Err(Error::hand(format!(
                        "a chow cannot be made of honours ({tile})"
                    )));
                };
                if rank > 7 {
                    return Err(Error::hand(format!(
                        "a chow starting at {tile} would run past 9 (chows start at 1..7)"
                    )));
                }
                if concealed {
                    return Err(Error::hand("only a kong can be declared concealed (暗杠)"));
                }
            }
            MeldKind::Pung if concealed => {
                return Err(Error::hand("only a kong can be declared concealed (暗杠)"));
            }
            _ => {}
        }
        if concealed && from != 0 {
            return Err(Error::hand("a concealed kong has no claimed-from seat"));
        }
        Ok(Meld {
            kind,
            tile,
            concealed,
            from,
        })
    }

    /// Infer a meld from its tiles (3 identical: pung, 4 identical: kong, 3 consecutive: chow).
    pub fn from_tiles(tiles: &[Tile], concealed: bool, from: u8) -> Result<Meld> {
        let mut t = tiles.to_vec();
        t.sort_unstable();
        let shown = format_tiles(&t);
        match t.len() {
            3 if t[0] == t[1] && t[1] == t[2] => Meld::new(MeldKind::Pung, t[0], concealed, from),
            4 if t.iter().all(|&x| x == t[0]) => Meld::new(MeldKind::Kong, t[0], concealed, from),
            3 => {
                if t.iter().any(|x| !x.is_suited()) {
                    return Err(Error::hand(format!(
                        "{shown} is neither a pung nor a chow: honours and flowers cannot form a chow"
                    )));
                }
                if t[0].suit_index() != t[2].suit_index() {
                    return Err(Error::hand(format!("{shown} is not a chow: mixed suits")));
                }
                if t[1].index() != t[0].index() + 1 || t[2].index() != t[1].index() + 1 {
                    return Err(Error::hand(format!(
                        "{shown} is not a chow: ranks are not consecutive"
                    )));
                }
                Meld::new(MeldKind::Chow, t[0], concealed, from)
            }
            4 => Err(Error::hand(format!(
                "{shown} is not a kong: four different tiles"
            ))),
            n => Err(Error::hand(format!(
                "a meld has 3 or 4 tiles, got {n} ({shown})"
            ))),
        }
    }

    /// The tiles of the meld, low to high.
    pub fn tiles(&self) -> Vec<Tile> {
        let i = self.tile.index();
        match self.kind {
            MeldKind::Chow => (i..i + 3).map(Tile::new_unchecked).collect(),
            MeldKind::Pung => vec![self.tile; 3],
            MeldKind::Kong => vec![self.tile; 4],
        }
    }

    /// Add this meld's tiles to a count vector.
    #[inline]
    pub fn add_to(&self, counts: &mut Counts) {
        let i = self.tile.idx();
        match self.kind {
            MeldKind::Chow => {
                counts[i] += 1;
                counts[i + 1] += 1;
                counts[i + 2] += 1;
            }
            MeldKind::Pung => counts[i] += 3,
            MeldKind::Kong => counts[i] += 4,
        }
    }

    pub fn is_kong(&self) -> bool {
        self.kind == MeldKind::Kong
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Round-trips through `parse_notation`: a kong without an offer is concealed.
        let tiles = format_tiles(&self.tiles());
        match (self.concealed, self.kind, self.from) {
            (true, _, _) => write!(f, "[{tiles}]"),
            (false, MeldKind::Kong, from) => write!(f, "[{tiles},{from}]"),
            (false, _, 0) => write!(f, "[{tiles}]"),
            (false, _, from) => write!(f, "[{tiles},{from}]"),
        }
    }
}

/// A player's hand: the standing (concealed) tiles and the declared melds.
///
/// A valid hand has at most four melds, `13 - 3·melds` (waiting) or `14 - 3·melds` (complete)
/// concealed tiles, no flowers among them, and at most four copies of any kind in all.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hand {
    concealed: Vec<Tile>,
    counts: Counts,
    melds: Vec<Meld>,
}

impl Hand {
    /// Validate and build a hand.
    pub fn new(mut concealed: Vec<Tile>, melds: Vec<Meld>) -> Result<Hand> {
        if melds.len() > 4 {
            return Err(Error::hand(format!(
                "{} melds declared; a hand has at most 4",
                melds.len()
            )));
        }
        if let Some(f) = concealed.iter().find(|t| t.is_flower()) {
            return Err(Error::hand(format!(
                "flower {f} cannot stand in the hand; count it as a flower"
            )));
        }
        let m = melds.len();
        let n = concealed.len();
        if n + 3 * m != 13 && n + 3 * m != 14 {
            return Err(Error::hand(format!(
                "{n} concealed tiles with {m} meld(s): expected {} (waiting) or {} (complete)",
                13 - 3 * m,
                14 - 3 * m
            )));
        }
        let mut counts = [0u8; N_KINDS];
        for t in &concealed {
            counts[t.idx()] += 1;
        }
        let mut all = counts;
        for meld in &melds {
            meld.add_to(&mut all);
        }
        check_copies(&all)?;
        concealed.sort_unstable();
        Ok(Hand {
            concealed,
            counts,
            melds,
        })
    }

    /// Parse `"123m456p789sEEE"` style concealed tiles plus melds.
    pub fn parse(concealed: &str, melds: Vec<Meld>) -> Result<Hand> {
        Hand::new(crate::tile::parse_tiles(concealed)?, melds)
    }

    pub fn concealed(&self) -> &[Tile] {
        &self.concealed
    }
    pub fn counts(&self) -> &Counts {
        &self.counts
    }
    pub fn melds(&self) -> &[Meld] {
        &self.melds
    }
    /// True when the hand has 14 + kongs tiles (a complete hand), false when waiting (13 + kongs).
    pub fn is_complete(&self) -> bool {
        self.concealed.len() + 3 * self.melds.len() == 14
    }
    /// Count vector of all tiles the player owns: concealed tiles plus melds.
    pub fn all_counts(&self) -> Counts {
        let mut c = self.counts;
        for m in &self.melds {
            m.add_to(&mut c);
        }
        c
    }
    /// The hand with one more concealed tile (e.g. the winning tile).
    pub fn with_tile(&self, t: Tile) -> Result<Hand> {
        if self.is_complete() {
            return Err(Error::hand(
                "the hand is already complete; cannot add a tile",
            ));
        }
        let mut c = self.concealed.clone();
        c.push(t);
        Hand::new(c, self.melds.clone())
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.melds {
            write!(f, "{m}")?;
        }
        write!(f, "{}", format_tiles(&self.concealed))
    }
}

/// A hand written in the bracket notation of the reference cases, e.g.
/// `"[345m,3][2222s][5555p,1]67mEE+8m"`: melds in brackets (tiles, then an optional `,offer`);
/// a kong without an offer is concealed (暗杠); then the standing tiles; then optionally `+` and the
/// winning tile. Returns (standing tiles, melds, winning tile).
pub fn parse_notation(text: &str) -> Result<(Vec<Tile>, Vec<Meld>, Option<Tile>)> {
    let mut rest = text.trim();
    let mut melds = Vec::new();
    while let Some(stripped) = rest.strip_prefix('[') {
        let Some(end) = stripped.find(']') else {
            return Err(Error::hand(format!("unclosed '[' in {text:?}")));
        };
        let inner = &stripped[..end];
        rest = stripped[end + 1..].trim_start();
        let (tiles_txt, offer) = match inner.split_once(',') {
            Some((t, o)) => {
                let o = o.trim();
                let offer: u8 = o.parse().ok().filter(|v| *v <= 3).ok_or_else(|| {
                    Error::hand(format!("meld offer {o:?} must be 0..3 in [{inner}]"))
                })?;
                (t, Some(offer))
            }
            None => (inner, None),
        };
        let tiles = crate::tile::parse_tiles(tiles_txt)?;
        let concealed = tiles.len() == 4 && offer.is_none();
        melds.push(Meld::from_tiles(&tiles, concealed, offer.unwrap_or(0))?);
    }
    let (standing, win) = match rest.split_once('+') {
        Some((s, w)) => (s, Some(Tile::parse(w)?)),
        None => (rest, None),
    };
    if standing.contains('[') || standing.contains(']') {
        return Err(Error::hand(format!(
            "melds must come before the standing tiles in {text:?}"
        )));
    }
    Ok((crate::tile::parse_tiles(standing)?, melds, win))
}

/// Reject more than four copies of a kind.
pub fn check_copies(counts: &Counts) -> Result<()> {
    if let Some(i) = counts.iter().position(|&c| c > 4) {
        return Err(Error::hand(format!(
            "{} copies of {} (there are only four)",
            counts[i],
            Tile::new_unchecked(i as u8)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::parse_tiles;

    fn t(s: &str) -> Tile {
        Tile::parse(s).unwrap()
    }

    #[test]
    fn meld_inference() {
        assert_eq!(
            Meld::from_tiles(&parse_tiles("345m").unwrap(), false, 1)
                .unwrap()
                .kind,
            MeldKind::Chow
        );
        assert_eq!(
            Meld::from_tiles(&parse_tiles("EEEE").unwrap(), true, 0)
                .unwrap()
                .kind,
            MeldKind::Kong
        );
        for bad in ["ESW", "13m5m", "3m4p5s", "EEC", "135m"] {
            assert!(
                Meld::from_tiles(&parse_tiles(bad).unwrap(), false, 1).is_err(),
                "{bad}"
            );
        }
        assert!(Meld::new(MeldKind::Chow, t("8m"), false, 1).is_err());
        assert!(Meld::new(MeldKind::Pung, t("8m"), true, 0).is_err());
    }

    #[test]
    fn notation() {
        let (c, m, w) = parse_notation("[345m,3][2222s][5555p,1]67mEE+8m").unwrap();
        assert_eq!(format_tiles(&c), "67mEE");
        assert_eq!(m.len(), 3);
        assert!(m[1].concealed && !m[2].concealed && m[2].from == 1);
        assert_eq!(m[0].kind, MeldKind::Chow);
        assert_eq!(w, Some(t("8m")));
        assert!(parse_notation("[345m,7]1m").is_err());
        assert!(parse_notation("[345m1m").is_err());
    }

    #[test]
    fn hand_validation() {
        assert!(Hand::parse("123m456p789sEEEC", vec![]).is_ok());
        assert!(
            Hand::parse("123m456p789sEEECC", vec![])
                .unwrap()
                .is_complete()
        );
        assert!(Hand::parse("123m456p789sEEE", vec![]).is_err());
        assert!(Hand::parse("11111m456p789sEE", vec![]).is_err());
        let kong = Meld::new(MeldKind::Kong, t("E"), false, 2).unwrap();
        assert!(Hand::parse("456p789sEEECC", vec![kong]).is_err()); // seven E
        assert!(Hand::parse("456p789sSSSCC", vec![kong]).is_ok());
        assert!(Hand::parse("456p789sSSSC", vec![kong]).is_ok());
        assert!(Hand::parse("456p789sSSS", vec![kong]).is_err()); // 12 tiles
    }
}
