//! Every decomposition of a complete hand (common.md §3): the standard shape (4 sets + pair, any
//! number of declared melds), 七对, 十三幺, 全不靠 and 组合龙 (+ a set + a pair).
//!
//! Scorers of every preset pick their best among these. Wildcard decompositions live in
//! [`crate::wild`] (when present); this module is the exact, wildcard-free enumerator.

use crate::error::{Error, Result};
use crate::hand::{Meld, MeldKind};
use crate::tile::{Counts, N_KINDS, Tile};

/// Which special shapes a caller allows (the standard shape is always considered unless
/// `standard` is false).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shapes {
    pub standard: bool,
    pub seven_pairs: bool,
    /// 七对 switch `qidui_quad_as_two_pairs`: four identical concealed tiles count as two pairs.
    pub seven_pairs_quads: bool,
    pub thirteen_orphans: bool,
    /// 全不靠 (lesser honours and knitted tiles).
    pub honors_knitted: bool,
    /// 组合龙 + one set + one pair.
    pub knitted_straight: bool,
}

impl Shapes {
    /// Only 4 sets + a pair.
    pub const STANDARD: Shapes = Shapes {
        standard: true,
        seven_pairs: false,
        seven_pairs_quads: false,
        thirteen_orphans: false,
        honors_knitted: false,
        knitted_straight: false,
    };
    /// Every shape of 国标 MCR (七对 needs seven distinct pairs there? no: MCR counts a concealed
    /// quad as two pairs, which the reference engine does).
    pub const MCR: Shapes = Shapes {
        standard: true,
        seven_pairs: true,
        seven_pairs_quads: true,
        thirteen_orphans: true,
        honors_knitted: true,
        knitted_straight: true,
    };
    /// Every shape, quads as two pairs.
    pub const ALL: Shapes = Shapes::MCR;
}

impl Default for Shapes {
    fn default() -> Self {
        Shapes::ALL
    }
}

/// The form of a decomposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    Standard,
    SevenPairs,
    ThirteenOrphans,
    HonorsKnitted,
    KnittedStraight,
}

impl Form {
    pub const fn name(self) -> &'static str {
        match self {
            Form::Standard => "standard",
            Form::SevenPairs => "seven_pairs",
            Form::ThirteenOrphans => "thirteen_orphans",
            Form::HonorsKnitted => "honors_knitted",
            Form::KnittedStraight => "knitted_straight",
        }
    }
}

/// One set of a decomposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Set {
    pub kind: MeldKind,
    /// Lowest tile of a chow; the tile of a pung or kong.
    pub tile: Tile,
    /// Declared (a meld) rather than formed from standing tiles.
    pub declared: bool,
    /// Concealed: formed from standing tiles, or a concealed kong.
    pub concealed: bool,
}

impl Set {
    pub fn from_meld(m: &Meld) -> Set {
        Set {
            kind: m.kind,
            tile: m.tile,
            declared: true,
            concealed: m.concealed,
        }
    }
    pub(crate) const fn standing(kind: MeldKind, tile: Tile) -> Set {
        Set {
            kind,
            tile,
            declared: false,
            concealed: true,
        }
    }
    /// Whether `t` is one of this set's tiles.
    pub fn contains(&self, t: Tile) -> bool {
        match self.kind {
            MeldKind::Chow => {
                t.suit_index() == self.tile.suit_index()
                    && t.index() >= self.tile.index()
                    && t.index() <= self.tile.index() + 2
            }
            _ => t == self.tile,
        }
    }
}

/// One way to read a complete hand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decomposition {
    pub form: Form,
    /// Declared melds first (in the order given), then standing sets from low to high.
    pub sets: Vec<Set>,
    /// The pair (standard and knitted-straight forms; for 十三幺 the doubled tile).
    pub pair: Option<Tile>,
    /// 七对: the seven pair tiles, low to high (a quad counted as two pairs appears twice).
    pub pairs: Vec<Tile>,
    /// 全不靠 / 组合龙: the knitted rank offset per suit m, p, s (0 = 147, 1 = 258, 2 = 369).
    pub knitted: Option<[u8; 3]>,
    /// What each wildcard stands for, sorted (empty without wildcards; see
    /// [`crate::wild::decompose_wild`]). The tiles listed are included in `sets` / `pair` / `pairs`.
    pub wildcards: Vec<Tile>,
}

/// The six suit → {147, 258, 369} assignments.
pub const KNITTED_PERMUTATIONS: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The nine tile indices of a knitted assignment.
pub fn knitted_tiles(perm: [u8; 3]) -> [usize; 9] {
    let mut out = [0usize; 9];
    let mut k = 0;
    for (suit, &off) in perm.iter().enumerate() {
        for step in 0..3 {
            out[k] = suit * 9 + off as usize + 3 * step;
            k += 1;
        }
    }
    out
}

pub(crate) const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// All decompositions of a complete hand: `concealed` counts the standing tiles *including* the
/// winning tile; `melds` are the declared melds. Errors if the tile count is not complete.
pub fn decompose(concealed: &Counts, melds: &[Meld], shapes: Shapes) -> Result<Vec<Decomposition>> {
    let n: usize = concealed.iter().map(|&c| c as usize).sum();
    if n + 3 * melds.len() != 14 {
        return Err(Error::hand(format!(
            "a complete hand has {} standing tiles with {} meld(s), got {n}",
            14 - 3 * melds.len().min(4),
            melds.len()
        )));
    }
    let mut out = Vec::new();
    let declared: Vec<Set> = melds.iter().map(Set::from_meld).collect();
    if shapes.standard {
        let mut c = *concealed;
        let mut sets = declared.clone();
        standard(&mut c, 0, &mut sets, None, &mut |sets, pair| {
            // The pair may be taken before or after a chow through the same tile, which reaches
            // the same multiset of groups twice: keep each reading once.
            let d = Decomposition {
                form: Form::Standard,
                sets: sets.to_vec(),
                pair: Some(pair),
                pairs: Vec::new(),
                knitted: None,
                wildcards: Vec::new(),
            };
            if !out.contains(&d) {
                out.push(d);
            }
        });
    }
    if melds.is_empty() {
        if shapes.seven_pairs {
            if let Some(pairs) = seven_pairs(concealed, shapes.seven_pairs_quads) {
                out.push(Decomposition {
                    form: Form::SevenPairs,
                    sets: Vec::new(),
                    pair: None,
                    pairs,
                    knitted: None,
                    wildcards: Vec::new(),
                });
            }
        }
        if shapes.thirteen_orphans {
            if let Some(pair) = thirteen_orphans(concealed) {
                out.push(Decomposition {
                    form: Form::ThirteenOrphans,
                    sets: Vec::new(),
                    pair: Some(pair),
                    pairs: Vec::new(),
                    knitted: None,
                    wildcards: Vec::new(),
                });
            }
        }
        if shapes.honors_knitted {
            if let Some(perm) = honors_knitted(concealed) {
                out.push(Decomposition {
                    form: Form::HonorsKnitted,
                    sets: Vec::new(),
                    pair: None,
                    pairs: Vec::new(),
                    knitted: Some(perm),
                    wildcards: Vec::new(),
                });
            }
        }
    }
    if shapes.knitted_straight && melds.len() <= 1 {
        for perm in KNITTED_PERMUTATIONS {
            let idx = knitted_tiles(perm);
            if idx.iter().all(|&i| concealed[i] > 0) {
                let mut c = *concealed;
                for &i in &idx {
                    c[i] -= 1;
                }
                let mut sets = declared.clone();
                standard(&mut c, 0, &mut sets, None, &mut |sets, pair| {
                    let d = Decomposition {
                        form: Form::KnittedStraight,
                        sets: sets.to_vec(),
                        pair: Some(pair),
                        pairs: Vec::new(),
                        knitted: Some(perm),
                        wildcards: Vec::new(),
                    };
                    if !out.contains(&d) {
                        out.push(d);
                    }
                });
            }
        }
    }
    Ok(out)
}

/// Enumerate standard decompositions of `c` (sets + exactly one pair), always consuming the lowest
/// remaining tile so that each multiset of groups is produced once.
fn standard(
    c: &mut Counts,
    start: usize,
    sets: &mut Vec<Set>,
    pair: Option<Tile>,
    emit: &mut dyn FnMut(&[Set], Tile),
) {
    let Some(i) = (start..N_KINDS).find(|&i| c[i] > 0) else {
        if let Some(p) = pair {
            emit(sets, p);
        }
        return;
    };
    let t = Tile::new_unchecked(i as u8);
    if pair.is_none() && c[i] >= 2 {
        c[i] -= 2;
        standard(c, i, sets, Some(t), emit);
        c[i] += 2;
    }
    if c[i] >= 3 {
        c[i] -= 3;
        sets.push(Set::standing(MeldKind::Pung, t));
        standard(c, i, sets, pair, emit);
        sets.pop();
        c[i] += 3;
    }
    if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        sets.push(Set::standing(MeldKind::Chow, t));
        standard(c, i, sets, pair, emit);
        sets.pop();
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
}

fn seven_pairs(c: &Counts, quads: bool) -> Option<Vec<Tile>> {
    let mut pairs = Vec::with_capacity(7);
    for (i, &n) in c.iter().enumerate() {
        let t = Tile::new_unchecked(i as u8);
        match n {
            0 => {}
            2 => pairs.push(t),
            4 if quads => {
                pairs.push(t);
                pairs.push(t);
            }
            _ => return None,
        }
    }
    (pairs.len() == 7).then_some(pairs)
}

fn thirteen_orphans(c: &Counts) -> Option<Tile> {
    let mut pair = None;
    for (i, &n) in c.iter().enumerate() {
        let orphan = ORPHANS.contains(&i);
        match (orphan, n) {
            (_, 0) if !orphan => {}
            (true, 1) => {}
            (true, 2) if pair.is_none() => pair = Some(Tile::new_unchecked(i as u8)),
            _ => return None,
        }
    }
    pair
}

fn honors_knitted(c: &Counts) -> Option<[u8; 3]> {
    if c.iter().any(|&n| n > 1) {
        return None;
    }
    KNITTED_PERMUTATIONS.into_iter().find(|&perm| {
        let allowed = knitted_tiles(perm);
        (0..27).all(|i| c[i] == 0 || allowed.contains(&i))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse_tiles, to_counts};

    fn counts(s: &str) -> Counts {
        to_counts(&parse_tiles(s).unwrap()).unwrap()
    }

    #[test]
    fn standard_multiple() {
        // 111222333m: three pungs or three chows.
        let d = decompose(&counts("111222333m456pEE"), &[], Shapes::STANDARD).unwrap();
        assert_eq!(d.len(), 2);
        let d = decompose(&counts("123m456p789sEEECC"), &[], Shapes::ALL).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].pair, Some(Tile::C));
    }

    #[test]
    fn no_duplicate_readings() {
        // 1112344478p9p + a pung: pair 1p with 123p 444p 789p used to be emitted twice.
        let d = decompose(&counts("11123444789pCCC"), &[], Shapes::STANDARD).unwrap();
        assert_eq!(d.len(), 2);
        for (i, a) in d.iter().enumerate() {
            assert!(!d[i + 1..].contains(a));
        }
    }

    #[test]
    fn special_forms() {
        let d = decompose(&counts("19m19p19sESWNCFPP"), &[], Shapes::ALL).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].form, Form::ThirteenOrphans);
        let d = decompose(&counts("1122m3344p5566sEE"), &[], Shapes::ALL).unwrap();
        assert!(d.iter().any(|x| x.form == Form::SevenPairs));
        let d = decompose(&counts("147m258p369sESWNC"), &[], Shapes::ALL).unwrap();
        assert!(d.iter().any(|x| x.form == Form::HonorsKnitted));
        assert!(!d.iter().any(|x| x.form == Form::KnittedStraight));
        let d = decompose(&counts("147m258p369s234sEE"), &[], Shapes::ALL).unwrap();
        assert!(d.iter().any(|x| x.form == Form::KnittedStraight));
        let quad = decompose(&counts("1111m3344p5566sEE"), &[], Shapes::ALL).unwrap();
        assert!(quad.iter().any(|x| x.form == Form::SevenPairs));
        let mut no_quads = Shapes::ALL;
        no_quads.seven_pairs_quads = false;
        let quad = decompose(&counts("1111m3344p5566sEE"), &[], no_quads).unwrap();
        assert!(!quad.iter().any(|x| x.form == Form::SevenPairs));
    }
}
