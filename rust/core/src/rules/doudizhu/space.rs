//! The move space (doudizhu.md §6.7) and flat action encodings for learning environments.
//!
//! * **hupai encoding** (any rules): id 0 = pass; ids 1.. = every multiset that is a move under
//!   the rules, ordered by its canonical reading's (kind, length, main rank), then by the card
//!   string (rank order). 27,846 ids under the seeds' rules.
//! * **rlcard encoding** (the `rlcard` profile only): the ids of rlcard 1.2.0's
//!   `action_space.txt`, 27,472 of them with `pass` last (id 27,471). Derived, not copied:
//!   rlcard orders by type (its 37 type names = our kinds split by length), then main rank, then
//!   the card string, except for planes with 3 single wings (distinct wings, then a wing triple,
//!   then pair + single by the pair's rank) and with 4 or 5 single wings (wings holding a joker
//!   first, ordered by the other wings, then the rest). `tests/test_doudizhu_peers.py` checks the
//!   whole table against rlcard.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use crate::error::{Error, Result};

use super::cards::{BIG_JOKER, Cards, SMALL_JOKER, U64Map};
use super::movegen::generate;
use super::moves::{Kind, Reading};
use super::rules::{MoveRules, SingleKickers};

/// A flat action space: id ↔ move.
#[derive(Debug)]
pub struct ActionSpace {
    /// Moves by id; `None` is pass.
    moves: Vec<Option<(Cards, Reading)>>,
    ids: U64Map<u32>,
    pass_id: u32,
}

impl ActionSpace {
    /// Number of ids (pass included).
    pub fn len(&self) -> usize {
        self.moves.len()
    }
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
    pub fn pass_id(&self) -> u32 {
        self.pass_id
    }
    /// The id of a move (`Cards::EMPTY` = pass).
    pub fn id(&self, cards: Cards) -> Option<u32> {
        if cards.is_empty() {
            return Some(self.pass_id);
        }
        self.ids.get(&cards.0).copied()
    }
    /// The move of an id (`None` inside: pass).
    pub fn get(&self, id: u32) -> Option<Option<(Cards, Reading)>> {
        self.moves.get(id as usize).copied()
    }
    pub fn iter(&self) -> impl Iterator<Item = Option<(Cards, Reading)>> + '_ {
        self.moves.iter().copied()
    }
}

/// Every move (multiset) under `rules` with its canonical reading, unordered.
pub fn all_moves(rules: &MoveRules) -> Vec<(Cards, Reading)> {
    let h = super::movegen::HandInfo::new(Cards::full_pack());
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut out: Vec<(Cards, Reading)> = Vec::new();
    let mut sink = |c: Cards, r: Reading, _dup: bool| {
        if c.len() > 20 {
            return;
        }
        match seen.get(&c.0) {
            Some(&i) => {
                let old = out[i].1;
                if (r.kind.priority(), r.main) > (old.kind.priority(), old.main) {
                    out[i].1 = r;
                }
            }
            None => {
                seen.insert(c.0, out.len());
                out.push((c, r));
            }
        }
    };
    generate(&h, rules, None, &mut sink);
    out
}

/// Rank indices of the canonical string.
fn seq(c: Cards) -> Vec<u8> {
    let mut v = Vec::with_capacity(20);
    for (r, n) in c.iter() {
        for _ in 0..n {
            v.push(r);
        }
    }
    v
}

fn build(
    rules: &MoveRules,
    key: impl Fn(Cards, Reading) -> Vec<u8>,
    pass_first: bool,
) -> ActionSpace {
    let mut all: Vec<(Vec<u8>, Cards, Reading)> = all_moves(rules)
        .into_iter()
        .map(|(c, r)| (key(c, r), c, r))
        .collect();
    all.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    let mut moves: Vec<Option<(Cards, Reading)>> = Vec::with_capacity(all.len() + 1);
    if pass_first {
        moves.push(None);
    }
    moves.extend(all.into_iter().map(|(_, c, r)| Some((c, r))));
    if !pass_first {
        moves.push(None);
    }
    let mut ids = U64Map::with_capacity_and_hasher(moves.len(), Default::default());
    let mut pass_id = 0;
    for (i, m) in moves.iter().enumerate() {
        match m {
            Some((c, _)) => {
                ids.insert(c.0, i as u32);
            }
            None => pass_id = i as u32,
        }
    }
    ActionSpace {
        moves,
        ids,
        pass_id,
    }
}

fn hupai_key(c: Cards, r: Reading) -> Vec<u8> {
    let mut k = vec![r.kind as u8, r.len, r.main];
    k.extend(seq(c));
    k
}

/// rlcard's type order: our kinds in this order, each split by length.
const RLCARD_KINDS: [Kind; 14] = [
    Kind::Single,
    Kind::Pair,
    Kind::Trio,
    Kind::TrioSingle,
    Kind::TrioPair,
    Kind::Chain,
    Kind::PairChain,
    Kind::TrioChain,
    Kind::PlaneSingle,
    Kind::PlanePair,
    Kind::FourTwoSingle,
    Kind::FourTwoPair,
    Kind::Bomb,
    Kind::Rocket,
];

fn rlcard_key(c: Cards, r: Reading) -> Vec<u8> {
    let seg = RLCARD_KINDS.iter().position(|&k| k == r.kind).unwrap_or(0) as u8;
    let mut k = vec![seg, r.len, r.main];
    if r.kind == Kind::PlaneSingle && r.len >= 3 {
        let lo = r.main + 1 - r.len;
        let body = (lo..=r.main).fold(Cards::EMPTY, |a, x| a.plus(Cards::of(x, 3)));
        let wings = c.minus(body);
        if r.len == 3 {
            let counts: Vec<u8> = wings.iter().map(|(_, n)| n).collect();
            let class = if counts.len() == 3 {
                0
            } else if counts.len() == 1 {
                1
            } else {
                2
            };
            k.push(class);
            k.push(wings.iter().find(|&(_, n)| n == 2).map_or(0, |(x, _)| x));
            k.extend(seq(c));
        } else {
            let jokers: Vec<u8> = seq(wings)
                .into_iter()
                .filter(|&x| x >= SMALL_JOKER)
                .collect();
            let others: Vec<u8> = seq(wings)
                .into_iter()
                .filter(|&x| x < SMALL_JOKER)
                .collect();
            k.push(u8::from(jokers.is_empty()));
            k.extend(others);
            k.extend(jokers);
        }
    } else {
        k.extend(seq(c));
    }
    k
}

/// The rlcard profile's move rules (doudizhu.md §11: `single_kickers = no_adjacent_triple`).
pub fn rlcard_rules() -> MoveRules {
    MoveRules {
        single_kickers: SingleKickers::NoAdjacentTriple,
        ..MoveRules::default()
    }
}

static SPACES: LazyLock<Mutex<HashMap<MoveRules, Arc<ActionSpace>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));
static RLCARD: LazyLock<Arc<ActionSpace>> =
    LazyLock::new(|| Arc::new(build(&rlcard_rules(), rlcard_key, false)));

/// The hupai action space of `rules` (built once per distinct move rules, then shared).
pub fn action_space(rules: &MoveRules) -> Arc<ActionSpace> {
    let mut map = SPACES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    map.entry(*rules)
        .or_insert_with(|| Arc::new(build(rules, hupai_key, true)))
        .clone()
}

/// rlcard 1.2.0's action space (27,472 ids, pass = 27,471).
pub fn rlcard_space() -> &'static ActionSpace {
    &RLCARD
}

/// rlcard 1.2.0's action space, shared.
pub fn rlcard_space_arc() -> Arc<ActionSpace> {
    RLCARD.clone()
}

/// The rlcard id of a move, for rules equal to the rlcard profile's move rules.
pub fn rlcard_id(rules: &MoveRules, cards: Cards) -> Result<u32> {
    if *rules != rlcard_rules() {
        return Err(Error::rule(
            "rlcard action ids exist only under the rlcard profile (single_kickers = no_adjacent_triple, other move switches at their defaults)",
        ));
    }
    rlcard_space()
        .id(cards)
        .ok_or_else(|| Error::hand(format!("{cards} is not a move under the rlcard profile")))
}

/// Whether a move holds both jokers among its kickers (used by tests of K2).
pub fn has_rocket(c: Cards) -> bool {
    c.count(SMALL_JOKER) == 1 && c.count(BIG_JOKER) == 1
}
