//! Built-in bots: they read the table directly (no observation copy) and pick one of the legal
//! actions, so a simulation needs no Python at all per decision.
//!
//! * `random`: uniform over the legal actions.
//! * `greedy` (mahjong): always wins; in the pre-play phases picks the weakest suit (定缺, 换三张),
//!   bets 炮子 by its shanten, 漂 0; claims a kong always, a pung when it does not raise its
//!   shanten, a chow when it lowers it; makes its kongs (not of its void suit), declares a ready
//!   hand when its best discard allows it, and discards its void suit first, then the tile that
//!   leaves the lowest shanten with the most unseen useful tiles. (字牌): always wins, takes 碰,
//!   takes a 吃 whose groups score 胡息, and discards the card that keeps the best waits.
//! * `defensive`: greedy, but when another seat looks ready (three melds, or it has won in 血流)
//!   and its own hand is far (shanten ≥ 2) it discards tiles that seat discarded itself, then
//!   tiles whose four copies are visible.

use crate::analysis::{self, exhausted, min_distance};
use crate::decompose::Shapes;
use crate::error::{Error, Result};
use crate::rules::zipai::{self as zr, MeldType, WinSource};
use crate::tile::{Counts, N_KINDS};

use super::action::{Action, ActionKind, JOKER};
use super::cards::CardHand;
use super::flow;
use super::mahjong::{Mahjong, Phase};
use super::rng::{BotRng, SplitMix64, game_seed};
use super::table::Table;
use super::zipai::Zipai;

/// A built-in bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    Random,
    Greedy,
    Defensive,
}

impl BotKind {
    pub fn parse(s: &str) -> Result<BotKind> {
        match s {
            "random" => Ok(BotKind::Random),
            "greedy" => Ok(BotKind::Greedy),
            "defensive" => Ok(BotKind::Defensive),
            o => Err(Error::rule(format!(
                "unknown agent {o:?} (random, greedy, defensive)"
            ))),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Defensive => "defensive",
        }
    }
}

/// A bot with its own seeded generator.
#[derive(Clone, Debug)]
pub struct Bot {
    pub kind: BotKind,
    rng: BotRng,
    shapes: Option<Shapes>,
    /// The card games' greedy bots draw from this (seeded from the bot's seed).
    cards: SplitMix64,
}

impl Bot {
    pub fn new(kind: BotKind, seed: u64) -> Bot {
        Bot {
            kind,
            rng: BotRng::new(seed),
            shapes: None,
            cards: SplitMix64::fork(seed, 0xCA7D),
        }
    }

    /// The bots of one simulated game: seat `k` seeded from the game seed and `k`.
    pub fn seats(kinds: &[BotKind], game: u64) -> Vec<Bot> {
        kinds
            .iter()
            .enumerate()
            .map(|(k, &b)| Bot::new(b, game_seed(i128::from(game), k as u64)))
            .collect()
    }

    /// The index in `legal` of the action the bot takes (`legal` non-empty, of `seat`).
    pub fn choose(&mut self, t: &Table, seat: usize, legal: &[Action]) -> usize {
        if legal.len() <= 1 {
            return 0;
        }
        match (self.kind, t) {
            (BotKind::Random, _) => self.rng.below(legal.len()),
            (_, Table::Mahjong(m)) => {
                if self.shapes.is_none() {
                    self.shapes = Some(flow::table_shapes(&m.variant).unwrap_or(Shapes::ALL));
                }
                let shapes = self.shapes.unwrap_or(Shapes::ALL);
                mahjong_greedy(m, seat, legal, shapes, self.kind == BotKind::Defensive)
            }
            (_, Table::Zipai(z)) => zipai_greedy(z, seat, legal, &mut self.rng),
            (_, Table::Cards(c)) => {
                // The game's greedy bot needs its hand mutable (move buffers): ask a copy.
                let mut h = c.hand.clone_box();
                let a = h.greedy(&mut self.cards);
                legal.iter().position(|x| *x == a).unwrap_or(0)
            }
        }
    }

    /// A card table's action for the seat to act, without the legal list: the same choice as
    /// [`Bot::choose`] over `legal_actions` (random: an index below the legal count; greedy and
    /// defensive: the game's greedy bot).
    pub fn card_action(&mut self, h: &mut dyn CardHand) -> Action {
        self.card_choice(h).1
    }

    /// [`Bot::card_action`] with the index of the action in the legal list when the bot drew
    /// one (random).
    pub fn card_choice(&mut self, h: &mut dyn CardHand) -> (Option<usize>, Action) {
        match self.kind {
            BotKind::Random => {
                let n = h.legal_count();
                let i = if n <= 1 { 0 } else { self.rng.below(n) };
                (Some(i), h.legal_nth(i))
            }
            BotKind::Greedy | BotKind::Defensive => (None, h.greedy(&mut self.cards)),
        }
    }
}

fn find(legal: &[Action], kind: ActionKind) -> Option<usize> {
    legal.iter().position(|a| a.kind == kind)
}

/// Shanten of standing tiles `c` with `melds` declared (the missing sets as declared).
fn shanten(c: &Counts, melds: usize, shapes: Shapes) -> i8 {
    let n: usize = c.iter().map(|&x| usize::from(x)).sum();
    if n == 0 {
        return -1;
    }
    let sets = (n.saturating_sub(1) / 3).min(4 - melds.min(4)) as u8;
    let sh = if sets == 4 { shapes } else { Shapes::STANDARD };
    analysis::shanten_planned(c, 0, sets, sh)
}

fn suit_count(m: &Mahjong, seat: usize, suit: usize) -> usize {
    let c = &m.seats[seat].counts;
    let mut n: usize = c[9 * suit..9 * suit + 9]
        .iter()
        .map(|&x| usize::from(x))
        .sum();
    for (meld, _) in &m.seats[seat].melds {
        if meld.tile.suit_index() == Some(suit as u8) {
            n += 3;
        }
    }
    n
}

/// The declared void suit, or (缺门 at the win) the suit the seat holds least of.
fn target_void(m: &Mahjong, seat: usize) -> Option<u8> {
    if let Some(v) = m.seats[seat].void_suit {
        return Some(v);
    }
    if m.variant.preset().rules.que_men != "none" {
        return (0..3u8).min_by_key(|&s| (suit_count(m, seat, usize::from(s)), s));
    }
    None
}

fn void_tile(void: Option<u8>, t: u8) -> bool {
    t < 27 && void == Some(t / 9)
}

/// The best discard by shanten, then unseen useful tiles.
fn best_discard(m: &Mahjong, seat: usize, discards: &[(usize, u8)], shapes: Shapes) -> usize {
    let s = &m.seats[seat];
    let sets = 4u8.saturating_sub(s.melds.len() as u8);
    let mut c = s.counts;
    let mut best: Vec<(usize, u8)> = Vec::new();
    let mut best_d = u8::MAX;
    for &(i, t) in discards {
        c[usize::from(t)] -= 1;
        let d = min_distance(&c, sets, shapes);
        c[usize::from(t)] += 1;
        if d < best_d {
            best_d = d;
            best.clear();
        }
        if d == best_d && !best.iter().any(|&(_, x)| x == t) {
            best.push((i, t));
        }
    }
    if best.len() == 1 {
        return best[0].0;
    }
    let seen = seen_counts(m, seat);
    let mut top = (0u32, best[0].0);
    for &(i, t) in &best {
        c[usize::from(t)] -= 1;
        let total = match analysis::useful_tiles(&c, 0, s.melds.len(), shapes, Some(&seen)) {
            Ok((_, u)) => u.iter().map(|x| u32::from(x.remaining)).sum(),
            Err(_) => 0,
        };
        c[usize::from(t)] += 1;
        if total > top.0 {
            top = (total, i);
        }
    }
    top.1
}

/// The tiles a seat sees: its own, every meld and every river (at most 4 each).
fn seen_counts(m: &Mahjong, seat: usize) -> Counts {
    let mut v = m.seats[seat].counts;
    for s in &m.seats {
        for (meld, _) in &s.melds {
            meld.add_to(&mut v);
        }
    }
    for d in &m.discards {
        for &t in d {
            if usize::from(t) < N_KINDS {
                v[usize::from(t)] += 1;
            }
        }
    }
    for x in &mut v {
        *x = (*x).min(4);
    }
    v
}

fn pick_discard(
    m: &Mahjong,
    seat: usize,
    discards: &[(usize, u8)],
    shapes: Shapes,
    defensive: bool,
) -> usize {
    let void = target_void(m, seat);
    if let Some(&(i, _)) = discards.iter().find(|&&(_, t)| void_tile(void, t)) {
        return i;
    }
    if defensive {
        let danger: Vec<usize> = (0..m.n)
            .filter(|&k| {
                k != seat
                    && m.seats[k].active
                    && (m.seats[k].melds.len() >= 3 || m.win_count[k] > 0)
            })
            .collect();
        if !danger.is_empty() {
            let s = &m.seats[seat];
            let sh = shanten(&s.counts, s.melds.len(), shapes);
            if sh >= 2 {
                let seen = seen_counts(m, seat);
                let ex = exhausted(&seen);
                if let Some(&(i, _)) = discards
                    .iter()
                    .find(|&&(_, t)| danger.iter().all(|&k| m.discards[k].contains(&t)))
                {
                    return i;
                }
                if let Some(&(i, _)) = discards.iter().find(|&&(_, t)| ex >> t & 1 == 1) {
                    return i;
                }
            }
        }
    }
    best_discard(m, seat, discards, shapes)
}

fn mahjong_greedy(
    m: &Mahjong,
    seat: usize,
    legal: &[Action],
    shapes: Shapes,
    defensive: bool,
) -> usize {
    if let Some(i) = find(legal, ActionKind::Win) {
        return i;
    }
    let first = legal[0].kind;
    let s = &m.seats[seat];
    match first {
        ActionKind::DeclarePiao => return 0,
        ActionKind::DeclareVoid => {
            return (0..legal.len())
                .min_by_key(|&i| {
                    let suit = legal[i].value.unwrap_or(0) as usize;
                    (suit_count(m, seat, suit), suit)
                })
                .unwrap_or(0);
        }
        ActionKind::DeclarePaoZi => {
            let sh = shanten(&s.counts, s.melds.len(), shapes);
            let want = if sh <= 1 {
                3
            } else if sh == 2 {
                1
            } else {
                0
            };
            return legal
                .iter()
                .position(|a| a.value == Some(want))
                .unwrap_or(0);
        }
        ActionKind::Exchange => {
            let suit = (0..3usize)
                .filter(|&x| suit_count(m, seat, x) >= 3)
                .min_by_key(|&x| (suit_count(m, seat, x), x));
            return legal
                .iter()
                .position(|a| a.tiles.first().map(|&t| usize::from(t) / 9) == suit)
                .unwrap_or(0);
        }
        _ => {}
    }
    if let Some(pass) = find(legal, ActionKind::Pass) {
        // a claim (or the 开始时换牌 pass)
        let void = target_void(m, seat);
        let now = shanten(&s.counts, s.melds.len(), shapes);
        let t = m.last_discard.unwrap_or(0);
        for (i, a) in legal.iter().enumerate() {
            let Some(x) = a.tile else { continue };
            if void_tile(void, x) {
                continue;
            }
            let mut c = s.counts;
            match a.kind {
                ActionKind::Kong => return i,
                ActionKind::Pung => {
                    c[usize::from(x)] -= 2;
                    if shanten(&c, s.melds.len() + 1, shapes) <= now {
                        return i;
                    }
                }
                ActionKind::Chow => {
                    for y in x..x + 3 {
                        if y != t {
                            c[usize::from(y)] = c[usize::from(y)].saturating_sub(1);
                        }
                    }
                    if shanten(&c, s.melds.len() + 1, shapes) < now {
                        return i;
                    }
                }
                _ => {}
            }
        }
        return pass;
    }
    if m.phase == Phase::Haidi {
        return 0;
    }
    let discards: Vec<(usize, u8)> = legal
        .iter()
        .enumerate()
        .filter(|(_, a)| a.kind == ActionKind::Discard)
        .filter_map(|(i, a)| a.tile.map(|t| (i, t)))
        .collect();
    let declares: Vec<(usize, u8)> = legal
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a.kind, ActionKind::DeclareReady | ActionKind::DeclareTing))
        .filter_map(|(i, a)| a.tile.map(|t| (i, t)))
        .collect();
    if !declares.is_empty() && !discards.is_empty() {
        let best = pick_discard(m, seat, &discards, shapes, defensive);
        let bt = legal[best].tile;
        if let Some(&(i, _)) = declares.iter().find(|&&(_, t)| Some(t) == bt) {
            return i;
        }
    }
    let void = target_void(m, seat);
    for (i, a) in legal.iter().enumerate() {
        match a.kind {
            ActionKind::ConcealedKong | ActionKind::AddedKong
                if !a.tile.is_some_and(|t| void_tile(void, t)) =>
            {
                return i;
            }
            ActionKind::PiziKong => {
                let t = a.tile.unwrap_or(0);
                if Some(t) != m.laizi || s.counts[usize::from(t)] >= 2 || discards.is_empty() {
                    return i;
                }
            }
            _ => {}
        }
    }
    if discards.is_empty() {
        return legal.len() - 1;
    }
    pick_discard(m, seat, &discards, shapes, defensive)
}

// ---------------------------------------------------------------------- 字牌

fn zipai_greedy(z: &Zipai, seat: usize, legal: &[Action], rng: &mut BotRng) -> usize {
    if let Some(i) = find(legal, ActionKind::Win) {
        return i;
    }
    if let Some(i) = find(legal, ActionKind::Pung) {
        return i;
    }
    let Ok(r) = crate::rules::zipai::rules_of(&z.variant) else {
        return 0;
    };
    if legal.iter().any(|a| a.kind == ActionKind::Chow) {
        let value = |a: &Action| -> i32 {
            a.tiles
                .chunks(3)
                .filter_map(|g| {
                    let cards: Vec<zr::Card> =
                        g.iter().filter_map(|&x| zr::Card::from_index(x)).collect();
                    zr::Meld::new(MeldType::Chi, cards).ok()
                })
                .map(|m| r.value(m.kind, m.cards.iter().all(|c| c.is_big())))
                .sum()
        };
        let best = (0..legal.len())
            .filter(|&i| legal[i].kind == ActionKind::Chow)
            .max_by_key(|&i| value(&legal[i]));
        if let Some(b) = best {
            if value(&legal[b]) > 0 {
                return b;
            }
        }
        return find(legal, ActionKind::Pass).unwrap_or(0);
    }
    if legal.iter().any(|a| a.kind == ActionKind::Discard) {
        let p = &z.players[seat];
        let hand = p.hand;
        let mut best = (i64::MIN, 0usize);
        for (i, a) in legal.iter().enumerate() {
            let Some(c) = a.tile else { continue };
            let mut rest = hand;
            rest[usize::from(c)] -= 1;
            let spec = zr::HandSpec {
                concealed: (0..20u8)
                    .flat_map(|k| std::iter::repeat_n(k, usize::from(rest[usize::from(k)])))
                    .filter_map(zr::Card::from_index)
                    .collect(),
                win: None,
                melds: p.melds.clone(),
                source: Some(WinSource::Discard),
                passed_peng: Vec::new(),
                jokers: rest[usize::from(JOKER)],
            };
            let ws = zr::waits(r, &spec, false).unwrap_or_default();
            let top = ws.iter().map(|w| i64::from(w.huxi)).max().unwrap_or(-1);
            let ci = usize::from(c);
            let lo = ci.saturating_sub(2);
            let mut near: i64 = hand[lo..=(ci + 2).min(19)]
                .iter()
                .enumerate()
                .filter(|&(d, _)| lo + d != ci && (lo + d) / 10 == ci / 10)
                .map(|(_, &x)| i64::from(x))
                .sum();
            near += i64::from(hand[(ci + 10) % 20]);
            let jitter = (rng.below(10)) as i64;
            let key = top * 1_000_000
                + (ws.len() as i64) * 10_000
                + (-near - 2 * (i64::from(hand[ci]) - 1)) * 10
                + jitter;
            if key > best.0 {
                best = (key, i);
            }
        }
        return best.1;
    }
    0
}
