//! Fan ids of the MCR preset, in the order of `presets/mcr.toml` (= the walk order of the
//! exclusion rule, mcr.md §5.1). `McrRules::compile` checks that the preset file lists exactly
//! these ids in this order, so values, names and exclusions stay data while detection is keyed
//! by these constants.
#![allow(missing_docs)]

/// Number of fans in the MCR table (81 official + 明暗杠 + 4 optional non-standard).
pub const N_FANS: usize = 86;

pub const BLESSING_OF_HEAVEN: usize = 0;
pub const BLESSING_OF_EARTH: usize = 1;
pub const BLESSING_OF_HUMAN: usize = 2;
pub const BIG_FOUR_WINDS_GREEN_PAIR: usize = 3;
pub const BIG_FOUR_WINDS: usize = 4;
pub const BIG_THREE_DRAGONS: usize = 5;
pub const ALL_GREEN: usize = 6;
pub const NINE_GATES: usize = 7;
pub const FOUR_KONGS: usize = 8;
pub const SEVEN_SHIFTED_PAIRS: usize = 9;
pub const THIRTEEN_ORPHANS: usize = 10;
pub const ALL_TERMINALS: usize = 11;
pub const LITTLE_FOUR_WINDS: usize = 12;
pub const LITTLE_THREE_DRAGONS: usize = 13;
pub const ALL_HONORS: usize = 14;
pub const FOUR_CONCEALED_PUNGS: usize = 15;
pub const PURE_TERMINAL_CHOWS: usize = 16;
pub const QUADRUPLE_CHOW: usize = 17;
pub const FOUR_PURE_SHIFTED_PUNGS: usize = 18;
pub const FOUR_PURE_SHIFTED_CHOWS: usize = 19;
pub const THREE_KONGS: usize = 20;
pub const ALL_TERMINALS_AND_HONORS: usize = 21;
pub const SEVEN_PAIRS: usize = 22;
pub const GREATER_HONORS_AND_KNITTED_TILES: usize = 23;
pub const ALL_EVEN_PUNGS: usize = 24;
pub const FULL_FLUSH: usize = 25;
pub const PURE_TRIPLE_CHOW: usize = 26;
pub const PURE_SHIFTED_PUNGS: usize = 27;
pub const UPPER_TILES: usize = 28;
pub const MIDDLE_TILES: usize = 29;
pub const LOWER_TILES: usize = 30;
pub const PURE_STRAIGHT: usize = 31;
pub const THREE_SUITED_TERMINAL_CHOWS: usize = 32;
pub const PURE_SHIFTED_CHOWS: usize = 33;
pub const ALL_FIVE: usize = 34;
pub const TRIPLE_PUNG: usize = 35;
pub const THREE_CONCEALED_PUNGS: usize = 36;
pub const LESSER_HONORS_AND_KNITTED_TILES: usize = 37;
pub const KNITTED_STRAIGHT: usize = 38;
pub const UPPER_FOUR: usize = 39;
pub const LOWER_FOUR: usize = 40;
pub const BIG_THREE_WINDS: usize = 41;
pub const MIXED_STRAIGHT: usize = 42;
pub const REVERSIBLE_TILES: usize = 43;
pub const MIXED_TRIPLE_CHOW: usize = 44;
pub const MIXED_SHIFTED_PUNGS: usize = 45;
pub const CHICKEN_HAND: usize = 46;
pub const LAST_TILE_DRAW: usize = 47;
pub const LAST_TILE_CLAIM: usize = 48;
pub const OUT_WITH_REPLACEMENT_TILE: usize = 49;
pub const ROBBING_THE_KONG: usize = 50;
pub const ALL_PUNGS: usize = 51;
pub const HALF_FLUSH: usize = 52;
pub const MIXED_SHIFTED_CHOWS: usize = 53;
pub const ALL_TYPES: usize = 54;
pub const MELDED_HAND: usize = 55;
pub const TWO_CONCEALED_KONGS: usize = 56;
pub const TWO_DRAGONS_PUNGS: usize = 57;
pub const OUTSIDE_HAND: usize = 58;
pub const FULLY_CONCEALED_HAND: usize = 59;
pub const TWO_MELDED_KONGS: usize = 60;
pub const LAST_TILE: usize = 61;
pub const DRAGON_PUNG: usize = 62;
pub const PREVALENT_WIND: usize = 63;
pub const SEAT_WIND: usize = 64;
pub const CONCEALED_HAND: usize = 65;
pub const ALL_CHOWS: usize = 66;
pub const TILE_HOG: usize = 67;
pub const DOUBLE_PUNG: usize = 68;
pub const TWO_CONCEALED_PUNGS: usize = 69;
pub const CONCEALED_KONG: usize = 70;
pub const ALL_SIMPLES: usize = 71;
pub const PURE_DOUBLE_CHOW: usize = 72;
pub const MIXED_DOUBLE_CHOW: usize = 73;
pub const SHORT_STRAIGHT: usize = 74;
pub const TWO_TERMINAL_CHOWS: usize = 75;
pub const PUNG_OF_TERMINALS_OR_HONORS: usize = 76;
pub const MELDED_KONG: usize = 77;
pub const ONE_VOIDED_SUIT: usize = 78;
pub const NO_HONORS: usize = 79;
pub const EDGE_WAIT: usize = 80;
pub const CLOSED_WAIT: usize = 81;
pub const SINGLE_WAIT: usize = 82;
pub const SELF_DRAWN: usize = 83;
pub const FLOWER_TILES: usize = 84;
pub const CONCEALED_KONG_AND_MELDED_KONG: usize = 85;

/// The ids as strings, index = constant.
pub const FAN_IDS: [&str; N_FANS] = [
    "BLESSING_OF_HEAVEN",
    "BLESSING_OF_EARTH",
    "BLESSING_OF_HUMAN",
    "BIG_FOUR_WINDS_GREEN_PAIR",
    "BIG_FOUR_WINDS",
    "BIG_THREE_DRAGONS",
    "ALL_GREEN",
    "NINE_GATES",
    "FOUR_KONGS",
    "SEVEN_SHIFTED_PAIRS",
    "THIRTEEN_ORPHANS",
    "ALL_TERMINALS",
    "LITTLE_FOUR_WINDS",
    "LITTLE_THREE_DRAGONS",
    "ALL_HONORS",
    "FOUR_CONCEALED_PUNGS",
    "PURE_TERMINAL_CHOWS",
    "QUADRUPLE_CHOW",
    "FOUR_PURE_SHIFTED_PUNGS",
    "FOUR_PURE_SHIFTED_CHOWS",
    "THREE_KONGS",
    "ALL_TERMINALS_AND_HONORS",
    "SEVEN_PAIRS",
    "GREATER_HONORS_AND_KNITTED_TILES",
    "ALL_EVEN_PUNGS",
    "FULL_FLUSH",
    "PURE_TRIPLE_CHOW",
    "PURE_SHIFTED_PUNGS",
    "UPPER_TILES",
    "MIDDLE_TILES",
    "LOWER_TILES",
    "PURE_STRAIGHT",
    "THREE_SUITED_TERMINAL_CHOWS",
    "PURE_SHIFTED_CHOWS",
    "ALL_FIVE",
    "TRIPLE_PUNG",
    "THREE_CONCEALED_PUNGS",
    "LESSER_HONORS_AND_KNITTED_TILES",
    "KNITTED_STRAIGHT",
    "UPPER_FOUR",
    "LOWER_FOUR",
    "BIG_THREE_WINDS",
    "MIXED_STRAIGHT",
    "REVERSIBLE_TILES",
    "MIXED_TRIPLE_CHOW",
    "MIXED_SHIFTED_PUNGS",
    "CHICKEN_HAND",
    "LAST_TILE_DRAW",
    "LAST_TILE_CLAIM",
    "OUT_WITH_REPLACEMENT_TILE",
    "ROBBING_THE_KONG",
    "ALL_PUNGS",
    "HALF_FLUSH",
    "MIXED_SHIFTED_CHOWS",
    "ALL_TYPES",
    "MELDED_HAND",
    "TWO_CONCEALED_KONGS",
    "TWO_DRAGONS_PUNGS",
    "OUTSIDE_HAND",
    "FULLY_CONCEALED_HAND",
    "TWO_MELDED_KONGS",
    "LAST_TILE",
    "DRAGON_PUNG",
    "PREVALENT_WIND",
    "SEAT_WIND",
    "CONCEALED_HAND",
    "ALL_CHOWS",
    "TILE_HOG",
    "DOUBLE_PUNG",
    "TWO_CONCEALED_PUNGS",
    "CONCEALED_KONG",
    "ALL_SIMPLES",
    "PURE_DOUBLE_CHOW",
    "MIXED_DOUBLE_CHOW",
    "SHORT_STRAIGHT",
    "TWO_TERMINAL_CHOWS",
    "PUNG_OF_TERMINALS_OR_HONORS",
    "MELDED_KONG",
    "ONE_VOIDED_SUIT",
    "NO_HONORS",
    "EDGE_WAIT",
    "CLOSED_WAIT",
    "SINGLE_WAIT",
    "SELF_DRAWN",
    "FLOWER_TILES",
    "CONCEALED_KONG_AND_MELDED_KONG",
];
