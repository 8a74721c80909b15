//! Cards and notation (doudizhu.md §2): ranks `3456789TJQKA2xX`, multisets as nibble-packed counts.
//!
//! A [`Cards`] value is a multiset of ranks packed into one `u64`: bits `4r..4r+4` hold the count
//! of rank index `r` (0 = `3` … 12 = `2`, 13 = 小王 `x`, 14 = 大王 `X`). Suits never matter to the
//! rules; the suited form (`Ts`, `3h`, `x`) exists for deals and logs only ([`Card`]).

use std::fmt;

use crate::error::{Error, Result};

/// Number of ranks (13 ordinary ranks and the two jokers).
pub const N_RANKS: usize = 15;
/// Rank index of the `2`.
pub const TWO: u8 = 12;
/// Rank index of 小王 (small joker).
pub const SMALL_JOKER: u8 = 13;
/// Rank index of 大王 (big joker).
pub const BIG_JOKER: u8 = 14;
/// Rank index of the `A`, the highest rank a chain may use.
pub const ACE: u8 = 11;

/// A hasher for `u64` keys (multisets, move codes): one multiply and a rotation instead of SipHash,
/// for the hot lookups of the bindings and the action spaces. Not for untrusted string keys.
#[derive(Clone, Copy, Default)]
pub struct U64Hasher(u64);

impl std::hash::Hasher for U64Hasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

/// `HashMap` with [`U64Hasher`].
pub type U64Map<V> = std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<U64Hasher>>;

/// Rank codes in index order (`T` = 10, `x` = 小王, `X` = 大王).
pub const RANK_CODES: &[u8; N_RANKS] = b"3456789TJQKA2xX";
/// Chinese names of the ranks.
pub const RANK_ZH: [&str; N_RANKS] = [
    "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "小王", "大王",
];
/// Suit letters of the suited form (♠ ♥ ♦ ♣).
pub const SUITS: &[u8; 4] = b"shdc";

const NIBBLE_HIGH: u64 = 0x0888_8888_8888_8888;
const NIBBLE_ONE: u64 = 0x0111_1111_1111_1111;

/// Rank index of a rank code, or `None`.
#[inline]
pub fn rank_of(code: u8) -> Option<u8> {
    match code {
        b'3'..=b'9' => Some(code - b'3'),
        b'T' => Some(7),
        b'J' => Some(8),
        b'Q' => Some(9),
        b'K' => Some(10),
        b'A' => Some(11),
        b'2' => Some(12),
        b'x' => Some(13),
        b'X' => Some(14),
        _ => None,
    }
}

/// The number of copies of a rank in one pack (4, jokers 1).
#[inline]
pub const fn copies(rank: u8) -> u8 {
    if rank >= SMALL_JOKER { 1 } else { 4 }
}

/// A multiset of cards: the count of each rank, four bits per rank.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cards(pub u64);

impl Cards {
    pub const EMPTY: Cards = Cards(0);

    /// The whole 54-card pack.
    pub const fn full_pack() -> Cards {
        Cards(0x0114_4444_4444_4444)
    }

    /// `n` cards of `rank`.
    #[inline]
    pub const fn of(rank: u8, n: u8) -> Cards {
        Cards((n as u64) << (4 * rank as u32))
    }

    /// The count of `rank`.
    #[inline]
    pub const fn count(self, rank: u8) -> u8 {
        ((self.0 >> (4 * rank as u32)) & 0xF) as u8
    }

    /// The total number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        // Fold nibbles into bytes (each byte ≤ 8), then sum the bytes.
        let x = self.0;
        let b = (x & 0x0F0F_0F0F_0F0F_0F0F) + ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
        (b.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every count of `self` is at most the count in `other` (`self ⊆ other`).
    #[inline]
    pub const fn is_subset(self, other: Cards) -> bool {
        // Each nibble holds at most 4 (< 8): (o + 8 − s) keeps bit 3 iff o ≥ s, with no borrow.
        ((other.0 | NIBBLE_HIGH).wrapping_sub(self.0) & NIBBLE_HIGH) == NIBBLE_HIGH
    }

    /// `self + other` (the caller keeps counts ≤ 15 per rank).
    #[inline]
    #[must_use]
    pub const fn plus(self, other: Cards) -> Cards {
        Cards(self.0 + other.0)
    }

    /// `self − other`; `other` must be a subset.
    #[inline]
    #[must_use]
    pub const fn minus(self, other: Cards) -> Cards {
        Cards(self.0 - other.0)
    }

    /// Ranks held at least `k` times (1 ≤ k ≤ 4), as a 15-bit mask.
    #[inline]
    pub fn mask_at_least(self, k: u8) -> u16 {
        let hi = (self.0 | NIBBLE_HIGH).wrapping_sub(NIBBLE_ONE * u64::from(k)) & NIBBLE_HIGH;
        compress_nibble_high(hi)
    }

    /// Counts as an array.
    pub fn counts(self) -> [u8; N_RANKS] {
        let mut out = [0u8; N_RANKS];
        for (r, c) in out.iter_mut().enumerate() {
            *c = self.count(r as u8);
        }
        out
    }

    /// From counts; every count must be within one pack (4, jokers 1).
    pub fn from_counts(counts: &[u8]) -> Result<Cards> {
        if counts.len() != N_RANKS {
            return Err(Error::hand(format!(
                "card counts need {N_RANKS} entries (3 4 5 6 7 8 9 T J Q K A 2 x X), got {}",
                counts.len()
            )));
        }
        let mut x = 0u64;
        for (r, &c) in counts.iter().enumerate() {
            if c > copies(r as u8) {
                return Err(Error::hand(format!(
                    "{c} copies of {} (a pack has {})",
                    RANK_CODES[r] as char,
                    copies(r as u8)
                )));
            }
            x |= u64::from(c) << (4 * r);
        }
        Ok(Cards(x))
    }

    /// Whether the counts fit in one pack (4 of a rank, 1 of each joker).
    pub fn fits_pack(self) -> bool {
        self.is_subset(Cards::full_pack())
    }

    /// Parse the compact form (`"33445566JJQKA2xX"`, any order). Rejects any other character,
    /// more than 4 of a rank or more than one of a joker.
    pub fn parse(text: &str) -> Result<Cards> {
        let mut x = 0u64;
        for (i, b) in text.bytes().enumerate() {
            let Some(r) = rank_of(b) else {
                return Err(Error::tile(text, invalid_char_reason(text, i)));
            };
            x += 1u64 << (4 * u32::from(r));
            if ((x >> (4 * u32::from(r))) & 0xF) as u8 > copies(r) {
                return Err(Error::tile(
                    text,
                    format!(
                        "more than {} of {} (one pack has {})",
                        copies(r),
                        RANK_CODES[r as usize] as char,
                        copies(r)
                    ),
                ));
            }
        }
        Ok(Cards(x))
    }

    /// Write the canonical compact form (ascending rank index) into `buf`; returns its length.
    #[inline]
    pub fn write_to(self, buf: &mut [u8; 64]) -> usize {
        let mut n = 0;
        let mut x = self.0;
        let mut r = 0usize;
        while x != 0 {
            let c = (x & 0xF) as usize;
            let code = RANK_CODES[r];
            for _ in 0..c {
                buf[n] = code;
                n += 1;
            }
            x >>= 4;
            r += 1;
        }
        n
    }

    /// Iterate the ranks present, ascending, with their counts.
    pub fn iter(self) -> impl Iterator<Item = (u8, u8)> {
        (0..N_RANKS as u8).filter_map(move |r| {
            let c = self.count(r);
            (c > 0).then_some((r, c))
        })
    }

    /// Chinese text of the multiset, e.g. `3 3 10 小王`.
    pub fn chinese(self) -> String {
        let mut parts = Vec::new();
        for (r, c) in self.iter() {
            for _ in 0..c {
                parts.push(RANK_ZH[r as usize]);
            }
        }
        parts.join(" ")
    }
}

fn invalid_char_reason(text: &str, i: usize) -> String {
    let ch = text[i..].chars().next().unwrap_or('?');
    let hint = match ch {
        '1' | '0' => " (write 10 as T)",
        'j' | 'q' | 'k' | 'a' | 't' => " (ranks are upper case: T J Q K A)",
        'B' | 'R' => " (write the small joker as x and the big joker as X)",
        ' ' | ',' => " (no separators: write the cards one character each, e.g. 3345xX)",
        _ => "",
    };
    format!("{ch:?} at position {i} is not a card; cards are 3 4 5 6 7 8 9 T J Q K A 2 x X{hint}")
}

/// Gather bit 3 of each nibble of `x` into a 15-bit mask (bit r = nibble r).
#[inline]
fn compress_nibble_high(x: u64) -> u16 {
    // Flags at bits 4r. Per 16-bit chunk (4 flags at 0, 4, 8, 12), multiplying by
    // 2^12 + 2^9 + 2^6 + 2^3 moves flag j to bit 12 + j; the 16 partial products land on 16
    // distinct bits, so there are no carries.
    let y = x >> 3;
    let mut m = 0u64;
    let mut k = 0;
    while k < 4 {
        let chunk = (y >> (16 * k)) & 0x1111;
        m |= ((chunk * 0x1248) >> 12 & 0xF) << (4 * k);
        k += 1;
    }
    m as u16
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 64];
        let n = self.write_to(&mut buf);
        // Only ASCII codes are written.
        f.write_str(std::str::from_utf8(&buf[..n]).unwrap_or(""))
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cards({self})")
    }
}

/// One physical card (suited form, for deals and logs): index 0..54, `rank * 4 + suit` for the
/// 52 ordinary cards, 52 = 小王, 53 = 大王.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Card(pub u8);

impl Card {
    pub const fn rank(self) -> u8 {
        if self.0 >= 52 {
            self.0 - 52 + SMALL_JOKER
        } else {
            self.0 / 4
        }
    }
    /// Suit index 0..4 (`s h d c`), `None` for a joker.
    pub const fn suit(self) -> Option<u8> {
        if self.0 >= 52 { None } else { Some(self.0 % 4) }
    }
    /// Parse `Ts`, `3h`, `x`, `X`.
    pub fn parse(text: &str) -> Result<Card> {
        let b = text.as_bytes();
        match b {
            [b'x'] => Ok(Card(52)),
            [b'X'] => Ok(Card(53)),
            [r, s] => {
                let rank = rank_of(*r).filter(|&r| r < SMALL_JOKER).ok_or_else(|| {
                    Error::tile(
                        text,
                        "a suited card is a rank 3..9 T J Q K A 2 and a suit s h d c, or x / X",
                    )
                })?;
                let suit = SUITS.iter().position(|c| c == s).ok_or_else(|| {
                    Error::tile(text, "the suit must be one of s h d c (♠ ♥ ♦ ♣)")
                })?;
                Ok(Card(rank * 4 + suit as u8))
            }
            _ => Err(Error::tile(
                text,
                "a suited card is a rank and a suit (Ts, 3h) or a joker (x, X)",
            )),
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = RANK_CODES[self.rank() as usize] as char;
        match self.suit() {
            Some(s) => write!(f, "{r}{}", SUITS[s as usize] as char),
            None => write!(f, "{r}"),
        }
    }
}

/// The multiset of a list of physical cards.
pub fn cards_of(list: &[Card]) -> Cards {
    list.iter()
        .fold(Cards::EMPTY, |a, c| a.plus(Cards::of(c.rank(), 1)))
}

/// Format physical cards as space-separated suited codes, sorted by rank then suit.
pub fn format_suited(list: &[Card]) -> String {
    let mut v = list.to_vec();
    v.sort_unstable();
    v.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parse space-separated suited codes; every card at most once.
pub fn parse_suited(text: &str) -> Result<Vec<Card>> {
    let mut seen = 0u64;
    let mut out = Vec::new();
    for tok in text.split_whitespace() {
        let c = Card::parse(tok)?;
        if seen & (1 << c.0) != 0 {
            return Err(Error::tile(
                tok,
                "the same card twice (one pack has one of each)",
            ));
        }
        seen |= 1 << c.0;
        out.push(c);
    }
    Ok(out)
}
