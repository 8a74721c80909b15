//! 字牌 (zipai): the Guangxi/桂林 game of the seed and the Hunan 跑胡子 family (switches).
//!
//! * [`card`]: the 20 card kinds, notation, count vectors;
//! * [`group`]: groups and declared melds;
//! * [`rules`]: the compiled rules (胡息 table from the preset, switches);
//! * [`decompose`]: 胡息-maximising decomposition, win detection, waits, batch helper;
//! * [`score`]: 舵/囤, multipliers, 名堂, 醒, payments;
//! * [`flow`]: claim questions for a flow engine (吃 with 下比, 碰);
//! * [`ruleset`]: the preset's `Ruleset` and its JSON input.

pub mod card;
pub mod decompose;
pub mod flow;
pub mod group;
pub mod rules;
pub mod ruleset;
pub mod score;

pub use card::{Card, CardCounts, N_CARDS, format_cards, is_joker, parse_cards, parse_hand_cards};
pub use decompose::{
    Decomposition, HandSpec, Wait, WinSource, best_decomposition, best_huxi, best_huxi_counts,
    candidates, waits,
};
pub use flow::{
    ChiOption, Chou, Claims, DiscardCheck, can_peng, chi_options, claims, claims_with,
    discard_check, next_dealer,
};
pub use group::{Group, GroupKind, Meld, MeldType};
pub use rules::{ZipaiRules, duo};
pub use ruleset::{Zipai, ZipaiCase, case_of, compile, rules_of};
pub use score::{Payment, WinType, ZipaiScore, ZipaiSituation, is_sanlong_wukan, score};

#[cfg(test)]
mod tests;
