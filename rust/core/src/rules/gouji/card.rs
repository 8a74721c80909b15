//! 够级 cards and notation (gouji.md §2.2–2.3).
//!
//! A card is identified by its rank only, except at 上班 (§3.4), where suits count; hands are
//! count vectors over the 15 ranks `3 4 5 6 7 8 9 T J Q K A 2 w W` (index 0..15, value = index + 3).
//! One character per card; canonical order is descending (`W w 2 A K Q J T 9 8 7 6 5 4 3`).

use crate::error::{Error, Result};

/// Number of ranks (3 … A, 2, 小花, 大花).
pub const N_RANKS: usize = 15;
/// A hand or play as counts per rank index.
pub type Counts = [u8; N_RANKS];

/// Rank index of the 3.
pub const THREE: usize = 0;
/// Rank index of the 4.
pub const FOUR: usize = 1;
/// Rank index of the 10 (`T`).
pub const TEN: usize = 7;
/// Rank index of the ace.
pub const ACE: usize = 11;
/// Rank index of the 2 (钱).
pub const TWO: usize = 12;
/// Rank index of the 小花 (small joker, `w`).
pub const SMALL: usize = 13;
/// Rank index of the 大花 (big joker, `W`).
pub const BIG: usize = 14;
/// Base ranks are 3 … A (indices 0..12).
pub const N_BASE: usize = 12;

/// Copies of each rank in the four decks: 16 of 3 … 2, 4 of each joker.
pub const FULL_COUNTS: Counts = [16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 4, 4];
/// Cards in the game.
pub const N_CARDS: usize = 216;

const CHARS: [char; N_RANKS] = [
    '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A', '2', 'w', 'W',
];
const ZH: [&str; N_RANKS] = [
    "三", "四", "五", "六", "七", "八", "九", "十", "钩", "圈", "凯", "尖", "二", "小王", "大王",
];
const EN: [&str; N_RANKS] = [
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
    "two",
    "small joker",
    "big joker",
];

/// The notation character of a rank index (`0` → `'3'`, `14` → `'W'`).
pub fn rank_char(r: usize) -> char {
    CHARS[r]
}

/// Chinese name of a rank (三 … 十, 钩 圈 凯 尖 (J Q K A, the Shandong names), 二, 小王, 大王).
pub fn rank_zh(r: usize) -> &'static str {
    ZH[r]
}

/// English name of a rank.
pub fn rank_en(r: usize) -> &'static str {
    EN[r]
}

/// Value of a rank index for comparison (3 … 17; §2.2).
pub const fn value(r: usize) -> u8 {
    r as u8 + 3
}

/// Rank index of one notation character.
pub fn rank_of_char(c: char) -> Option<usize> {
    CHARS.iter().position(|&x| x == c)
}

/// Whether a rank index is a joker.
pub const fn is_joker(r: usize) -> bool {
    r >= SMALL
}

/// Parse a compact card string into counts. Accepted: the characters `3`–`9 T J Q K A 2 w W`,
/// `10` for `T`, the Chinese names of [`rank_zh`] and 小花/大花; whitespace, `,` and `·` are ignored.
/// More than 16 copies of a rank or 4 of a joker is an error.
pub fn parse_counts(text: &str) -> Result<Counts> {
    let mut c = [0u8; N_RANKS];
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
        let (r, len) = if ch.is_whitespace() || ch == '·' || ch == ',' {
            i += 1;
            continue;
        } else if let Some(r) = rank_of_char(ch) {
            (r, 1)
        } else if rest == "10" {
            (TEN, 2)
        } else if rest == "小王" || rest == "小花" {
            (SMALL, 2)
        } else if rest == "大王" || rest == "大花" {
            (BIG, 2)
        } else if let Some(r) = ZH[..=TWO].iter().position(|z| z.starts_with(ch)) {
            (r, 1)
        } else {
            let hint = match ch {
                't' | 'j' | 'q' | 'k' | 'a' => format!(
                    "; ranks are upper case ({}); lower-case w is the 小花",
                    ch.to_ascii_uppercase()
                ),
                '1' | '0' => "; write the ten as T (or 10)".into(),
                _ => String::new(),
            };
            return Err(Error::tile(
                text,
                format!(
                    "unknown card {ch:?} at position {i}: cards are 3 4 5 6 7 8 9 T J Q K A 2, w (小花) and W (大花){hint}"
                ),
            ));
        };
        c[r] += 1;
        if c[r] > FULL_COUNTS[r] {
            return Err(Error::tile(
                text,
                format!(
                    "more than {} copies of {} ({}): four decks hold {} of it",
                    FULL_COUNTS[r], CHARS[r], ZH[r], FULL_COUNTS[r]
                ),
            ));
        }
        i += len;
    }
    Ok(c)
}

/// Canonical compact string of counts (descending: `WW2229999`).
pub fn format_counts(c: &Counts) -> String {
    let mut s = String::new();
    for r in (0..N_RANKS).rev() {
        for _ in 0..c[r] {
            s.push(CHARS[r]);
        }
    }
    s
}

/// Chinese rendering of counts, e.g. `大王×2 二×3 九×4`.
pub fn format_counts_zh(c: &Counts) -> String {
    (0..N_RANKS)
        .rev()
        .filter(|&r| c[r] > 0)
        .map(|r| {
            if c[r] == 1 {
                ZH[r].to_string()
            } else {
                format!("{}×{}", ZH[r], c[r])
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Number of cards.
pub fn total(c: &Counts) -> u32 {
    c.iter().map(|&x| u32::from(x)).sum()
}

/// `a ⊆ b` as multisets.
pub fn contains(b: &Counts, a: &Counts) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

/// Suits of the long form (`♠ ♥ ♣ ♦`), used only for 上班.
pub const SUITS: [char; 4] = ['s', 'h', 'c', 'd'];

/// One physical card of the 216: rank index and suit (0..4; jokers have suit 0) — the deck
/// (0..4) is not needed by any rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Physical {
    pub rank: u8,
    pub suit: u8,
}

/// The 216 cards in a fixed order (deck by deck; ranks 3 … 2 by suit, then 小花, 大花).
pub fn full_deck() -> [Physical; N_CARDS] {
    let mut out = [Physical { rank: 0, suit: 0 }; N_CARDS];
    let mut k = 0;
    for _deck in 0..4 {
        for rank in 0..=TWO as u8 {
            for suit in 0..4 {
                out[k] = Physical { rank, suit };
                k += 1;
            }
        }
        for rank in [SMALL as u8, BIG as u8] {
            out[k] = Physical { rank, suit: 0 };
            k += 1;
        }
    }
    out
}

/// Parse the long form of one card with a suit (`4h`, `Ts`, `w`, `W`): used for 上班 inputs.
pub fn parse_physical(text: &str) -> Result<Physical> {
    let t = text.trim();
    let mut it = t.chars();
    let (Some(rc), s) = (it.next(), it.next()) else {
        return Err(Error::tile(text, "empty card"));
    };
    let rank = rank_of_char(rc).ok_or_else(|| {
        Error::tile(
            text,
            "unknown rank: use 3-9 T J Q K A 2 followed by a suit s h c d, or w / W",
        )
    })?;
    if it.next().is_some() {
        return Err(Error::tile(text, "one card is a rank and a suit, e.g. 4h"));
    }
    match (is_joker(rank), s) {
        (true, None) => Ok(Physical {
            rank: rank as u8,
            suit: 0,
        }),
        (true, Some(_)) => Err(Error::tile(text, "jokers (w, W) have no suit")),
        (false, Some(sc)) => match SUITS.iter().position(|&x| x == sc) {
            Some(suit) => Ok(Physical {
                rank: rank as u8,
                suit: suit as u8,
            }),
            None => Err(Error::tile(text, "unknown suit: use s h c d (♠ ♥ ♣ ♦)")),
        },
        (false, None) => Err(Error::tile(
            text,
            "a suited card needs a suit s h c d, e.g. 4h",
        )),
    }
}

/// The generator of 够级 deals and bots: the table's one card-game generator
/// ([`crate::game::rng::SplitMix64`]) seeded with `seed ^ 0x6A09_E667_F3BC_C909`, drawing
/// `0..n` by one multiply-shift.
#[derive(Clone, Debug)]
pub struct Rng(pub crate::game::rng::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(crate::game::rng::SplitMix64::new(
            seed ^ 0x6A09_E667_F3BC_C909,
        ))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..n` (`n > 0`), by multiply-shift (bias below 2^-32 for n < 2^32).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below_shift(n)
    }
}
