//! 字牌 cards: 20 kinds (small 一..十 = `x1`..`x10`, big 壹..拾 = `d1`..`d10`), four copies each.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::error::{Error, Result};

/// Number of card kinds.
pub const N_CARDS: usize = 20;
/// A count vector: `counts[card.index()]` copies of each kind (small 0..10, big 10..20).
pub type CardCounts = [u8; N_CARDS];

const SMALL_ZH: [char; 10] = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];
const BIG_ZH: [char; 10] = ['壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖', '拾'];

/// One 字牌 card kind. Index 0..10 = small 一..十, 10..20 = big 壹..拾; ordered by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The card of index 0..20.
    pub fn from_index(i: u8) -> Option<Card> {
        (usize::from(i) < N_CARDS).then_some(Card(i))
    }
    pub(crate) const fn new_unchecked(i: u8) -> Card {
        Card(i)
    }
    /// A card from size (`big`) and rank 1..=10.
    pub fn new(big: bool, rank: u8) -> Option<Card> {
        (1..=10)
            .contains(&rank)
            .then(|| Card(rank - 1 + if big { 10 } else { 0 }))
    }
    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn is_big(self) -> bool {
        self.0 >= 10
    }
    /// Rank 1..=10.
    pub const fn rank(self) -> u8 {
        self.0 % 10 + 1
    }
    /// 红: 二七十 / 贰柒拾.
    pub const fn is_red(self) -> bool {
        matches!(self.rank(), 2 | 7 | 10)
    }
    /// The same rank in the other size.
    pub const fn other_size(self) -> Card {
        Card((self.0 + 10) % 20)
    }
    /// The card `offset` ranks away in the same size, wrapping 十 → 一 (醒 card).
    pub fn shifted(self, offset: i8) -> Card {
        let r = (i16::from(self.rank()) - 1 + i16::from(offset)).rem_euclid(10) as u8;
        Card(r + if self.is_big() { 10 } else { 0 })
    }
    /// Chinese character: 一..十 or 壹..拾.
    pub fn chinese(self) -> char {
        let r = usize::from(self.rank() - 1);
        if self.is_big() {
            BIG_ZH[r]
        } else {
            SMALL_ZH[r]
        }
    }
    /// Parse one card: `x1`..`x10`, `d1`..`d10` (case-insensitive) or one Chinese character.
    pub fn parse(text: &str) -> Result<Card> {
        let cards = parse_cards(text)?;
        match cards.as_slice() {
            [c] => Ok(*c),
            _ => Err(Error::tile(text, "expected exactly one 字牌 card")),
        }
    }
    pub fn all() -> impl Iterator<Item = Card> {
        (0..N_CARDS as u8).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            if self.is_big() { 'd' } else { 'x' },
            self.rank()
        )
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Parse cards: codes (`x2x7x10`, `d1 d2 d3`, `X5`), Chinese characters (`二七十 壹贰叁`), separated
/// by nothing, spaces or commas. Jokers (`K`, 王, 鬼) are rejected here: they are not a card kind and
/// are accepted only among a hand's concealed cards ([`parse_hand_cards`]).
pub fn parse_cards(text: &str) -> Result<Vec<Card>> {
    let (cards, jokers) = parse_inner(text, false)?;
    debug_assert_eq!(jokers, 0);
    Ok(cards)
}

/// Parse concealed cards that may include jokers (`K`, 王, 鬼; switch `jokers`): the cards and the
/// number of jokers.
pub fn parse_hand_cards(text: &str) -> Result<(Vec<Card>, u8)> {
    let (cards, jokers) = parse_inner(text, true)?;
    let jokers = u8::try_from(jokers)
        .map_err(|_| Error::hand(format!("{jokers} jokers: a deck has at most 4")))?;
    Ok((cards, jokers))
}

/// Whether a text is one joker (`K`, `k`, 王, 鬼).
pub fn is_joker(text: &str) -> bool {
    matches!(text.trim(), "K" | "k" | "王" | "鬼")
}

fn parse_inner(text: &str, allow_jokers: bool) -> Result<(Vec<Card>, usize)> {
    let mut out = Vec::new();
    let mut jokers = 0usize;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' || c == '，' {
            i += 1;
            continue;
        }
        if let Some(r) = SMALL_ZH.iter().position(|&z| z == c) {
            out.push(Card(r as u8));
            i += 1;
            continue;
        }
        if let Some(r) = BIG_ZH.iter().position(|&z| z == c) {
            out.push(Card(r as u8 + 10));
            i += 1;
            continue;
        }
        let big = match c.to_ascii_lowercase() {
            'x' => false,
            'd' => true,
            'k' | '王' | '鬼' => {
                if allow_jokers {
                    jokers += 1;
                    i += 1;
                    continue;
                }
                return Err(Error::tile(
                    c.to_string(),
                    "a joker (K/王/鬼) is not a card kind: jokers are accepted only among a hand's concealed cards (switch jokers)",
                ));
            }
            _ => {
                return Err(Error::tile(
                    c.to_string(),
                    format!(
                        "unknown 字牌 card in {text:?}; use x1..x10 (一..十), d1..d10 (壹..拾)"
                    ),
                ));
            }
        };
        let start = i;
        i += 1;
        let mut digits = String::new();
        while i < chars.len() && chars[i].is_ascii_digit() {
            digits.push(chars[i]);
            i += 1;
        }
        // "x10" is ten; "x1x0" would be an error; greedy "x101" = x10 + dangling "1".
        let rank: u8 = if digits.starts_with("10") {
            i = start + 3;
            10
        } else if let Some(d) = digits.chars().next() {
            i = start + 2;
            d.to_digit(10).unwrap_or(0) as u8
        } else {
            0
        };
        if !(1..=10).contains(&rank) {
            let tok: String = chars[start..i.max(start + 1).min(chars.len())]
                .iter()
                .collect();
            return Err(Error::tile(tok, "rank must be 1..10 (x1..x10, d1..d10)"));
        }
        out.push(Card::new(big, rank).expect("rank checked"));
    }
    Ok((out, jokers))
}

/// Canonical formatting: sorted codes separated by spaces (`x1 x2 x3 d10`), or Chinese (`一二三拾`).
pub fn format_cards(cards: &[Card], chinese: bool) -> String {
    let mut v = cards.to_vec();
    v.sort();
    if chinese {
        v.iter().map(|c| c.chinese()).collect()
    } else {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Count vector of cards; more than four copies of a kind is an error.
pub fn to_counts(cards: &[Card]) -> Result<CardCounts> {
    let mut c = [0u8; N_CARDS];
    for card in cards {
        c[usize::from(card.0)] += 1;
        if c[usize::from(card.0)] > 4 {
            return Err(Error::hand(format!(
                "more than 4 copies of {card} ({})",
                card.chinese()
            )));
        }
    }
    Ok(c)
}

/// Cards (sorted) of a count vector.
pub fn from_counts(counts: &CardCounts) -> Vec<Card> {
    let mut out = Vec::new();
    for (i, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            out.push(Card(i as u8));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_format() {
        let c = parse_cards("x1x2x10 d10,壹 十拾").unwrap();
        assert_eq!(format_cards(&c, false), "x1 x2 x10 x10 d1 d10 d10");
        assert_eq!(format_cards(&c, true), "一二十十壹拾拾");
        assert!(parse_cards("x11").is_err());
        assert!(parse_cards("x0").is_err());
        assert!(parse_cards("y1").is_err());
        assert!(parse_cards("K").is_err());
        let (c, j) = parse_hand_cards("x1 K 王 d2").unwrap();
        assert_eq!((format_cards(&c, false).as_str(), j), ("x1 d2", 2));
        assert!(is_joker("王") && !is_joker("x1"));
        assert!(Card::new(true, 7).unwrap().is_red());
        assert_eq!(
            Card::parse("x10").unwrap().shifted(1),
            Card::parse("x1").unwrap()
        );
        assert_eq!(
            Card::parse("d1").unwrap().shifted(-1),
            Card::parse("d10").unwrap()
        );
        assert!(to_counts(&parse_cards("x1x1x1x1x1").unwrap()).is_err());
    }
}
