//! Built-in bots: `random` (uniform over the legal actions) and `greedy` (split the hand into the
//! fewest moves, play the smallest that beats, keep bombs).

use super::cards::{BIG_JOKER, Cards, N_RANKS, SMALL_JOKER, TWO};
use super::game::{Action, Game, Phase};
use super::movegen::legal_moves;
use super::moves::{Kind, Reading};
use super::rng::Rng;
use super::rules::{AuctionKind, MoveRules};

/// Which built-in bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    Random,
    Greedy,
}

impl BotKind {
    pub fn parse(s: &str) -> crate::error::Result<BotKind> {
        match s {
            "random" => Ok(BotKind::Random),
            "greedy" => Ok(BotKind::Greedy),
            _ => Err(crate::error::Error::rule(format!(
                "unknown bot {s:?}; bots: random, greedy"
            ))),
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
        }
    }
}

/// The action of the seat to act chosen by `bot` (`None` when the hand is over).
pub fn choose(bot: BotKind, game: &mut Game, rng: &mut Rng) -> Option<Action> {
    match bot {
        BotKind::Random => random_action(game, rng),
        BotKind::Greedy => greedy_action(game, rng),
    }
}

/// Uniform over the legal actions (pass included when allowed).
pub fn random_action(game: &mut Game, rng: &mut Rng) -> Option<Action> {
    let seat = game.to_act()?;
    if game.phase() == Phase::Play {
        let pass = game.may_pass();
        let moves = game.legal_moves();
        let n = moves.len() + usize::from(pass);
        let i = rng.below(n as u64) as usize;
        if pass && i == moves.len() {
            return Some(Action::Pass);
        }
        let (c, r) = moves[i];
        return Some(Action::Play(c, Some(r)));
    }
    let acts = game.legal_actions(seat);
    if acts.is_empty() {
        return None;
    }
    Some(acts[rng.below(acts.len() as u64) as usize])
}

/// A rough strength of a 17-card hand for the auction: 2s, jokers and bombs.
fn strength(h: Cards) -> u32 {
    let mut s = 2 * u32::from(h.count(TWO))
        + 3 * u32::from(h.count(BIG_JOKER))
        + 2 * u32::from(h.count(SMALL_JOKER));
    for r in 0..TWO {
        if h.count(r) == 4 {
            s += 4;
        }
    }
    if h.count(SMALL_JOKER) + h.count(BIG_JOKER) == 2 {
        s += 2;
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Hand split (fewest moves)

/// Split a hand into few moves: bombs and the rocket apart, then chains chosen by a bounded
/// search, trios taking the smallest singles (then pairs) as kickers. Returns the moves.
pub fn split(hand: Cards, rules: &MoveRules) -> Vec<(Cards, Reading)> {
    let mut out = Vec::new();
    let mut rest = hand;
    if rest.count(SMALL_JOKER) == 1 && rest.count(BIG_JOKER) == 1 {
        let r = Cards::of(SMALL_JOKER, 1).plus(Cards::of(BIG_JOKER, 1));
        out.push((r, Reading::new(Kind::Rocket, BIG_JOKER, 1)));
        rest = rest.minus(r);
    }
    for r in 0..=TWO {
        if rest.count(r) == 4 {
            out.push((Cards::of(r, 4), Reading::new(Kind::Bomb, r, 1)));
            rest = rest.minus(Cards::of(r, 4));
        }
    }
    // Chain candidates of the rest.
    let cands: Vec<(Cards, Reading)> = legal_moves(rest, rules, None)
        .into_iter()
        .filter(|(_, r)| matches!(r.kind, Kind::Chain | Kind::PairChain | Kind::TrioChain))
        .collect();
    let mut best: (u32, Vec<usize>) = (remainder_cost(rest, &[]), Vec::new());
    let mut chosen = Vec::new();
    let mut budget = 4000u32;
    search(rest, &cands, 0, &mut chosen, &mut best, &mut budget);
    let mut planes_slots = Vec::new();
    for &i in &best.1 {
        let (c, r) = cands[i];
        rest = rest.minus(c);
        if r.kind == Kind::TrioChain {
            planes_slots.push((c, r));
        } else {
            out.push((c, r));
        }
    }
    assign_kickers(rest, planes_slots, rules, &mut out);
    out
}

/// The number of moves of [`split`].
pub fn split_count(hand: Cards, rules: &MoveRules) -> usize {
    split(hand, rules).len()
}

fn search(
    rest: Cards,
    cands: &[(Cards, Reading)],
    from: usize,
    chosen: &mut Vec<usize>,
    best: &mut (u32, Vec<usize>),
    budget: &mut u32,
) {
    for i in from..cands.len() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let (c, _) = cands[i];
        if !c.is_subset(rest) {
            continue;
        }
        let rest2 = rest.minus(c);
        chosen.push(i);
        let mut planes = [0u8; 8];
        let mut np = 0;
        for &j in chosen.iter() {
            if cands[j].1.kind == Kind::TrioChain && np < planes.len() {
                planes[np] = cands[j].1.len;
                np += 1;
            }
        }
        let others = chosen.len() as u32 - np as u32;
        let cost = others + remainder_cost(rest2, &planes[..np]);
        if cost < best.0 {
            *best = (cost, chosen.clone());
        }
        search(rest2, cands, i + 1, chosen, best, budget);
        chosen.pop();
    }
}

/// Moves needed for the planes (`plane_lens`), trios, pairs and singles of `rest`: a plane takes
/// L singles or else L pairs as wings, a trio one single or else one pair.
fn remainder_cost(rest: Cards, plane_lens: &[u8]) -> u32 {
    let (mut s, mut p, mut t) = (0u32, 0u32, 0u32);
    for r in 0..N_RANKS as u8 {
        match rest.count(r) {
            1 => s += 1,
            2 => p += 1,
            3 => t += 1,
            4 => {
                t += 1;
                s += 1;
            }
            _ => {}
        }
    }
    for &l in plane_lens {
        let l = u32::from(l);
        if s >= l {
            s -= l;
        } else if p >= l {
            p -= l;
        }
    }
    let a = t.min(s);
    s -= a;
    let b = (t - a).min(p);
    p -= b;
    plane_lens.len() as u32 + t + s + p
}

fn assign_kickers(
    rest: Cards,
    planes: Vec<(Cards, Reading)>,
    rules: &MoveRules,
    out: &mut Vec<(Cards, Reading)>,
) {
    let mut singles: Vec<u8> = Vec::new();
    let mut pairs: Vec<u8> = Vec::new();
    let mut trios: Vec<u8> = Vec::new();
    for r in 0..N_RANKS as u8 {
        match rest.count(r) {
            1 => singles.push(r),
            2 => pairs.push(r),
            3 => trios.push(r),
            4 => {
                trios.push(r);
                singles.push(r);
            }
            _ => {}
        }
    }
    // Planes first (they need L kickers of one type), then trios.
    for (body, br) in planes {
        let l = br.len as usize;
        let lo = br.main + 1 - br.len;
        let free = |v: &Vec<u8>| v.iter().filter(|&&r| r < lo || r > br.main).count();
        if free(&singles) >= l {
            let take: Vec<u8> = singles
                .iter()
                .copied()
                .filter(|&r| r < lo || r > br.main)
                .take(l)
                .collect();
            let w = take
                .iter()
                .fold(Cards::EMPTY, |a, &r| a.plus(Cards::of(r, 1)));
            if let Some(m) = as_move(body.plus(w), rules) {
                singles.retain(|r| !take.contains(r));
                out.push(m);
                continue;
            }
        }
        if free(&pairs) >= l && rules.trio_pair {
            let take: Vec<u8> = pairs
                .iter()
                .copied()
                .filter(|&r| r < lo || r > br.main)
                .take(l)
                .collect();
            let w = take
                .iter()
                .fold(Cards::EMPTY, |a, &r| a.plus(Cards::of(r, 2)));
            if let Some(m) = as_move(body.plus(w), rules) {
                pairs.retain(|r| !take.contains(r));
                out.push(m);
                continue;
            }
        }
        out.push((body, br));
    }
    for t in trios {
        let body = Cards::of(t, 3);
        if let Some(pos) = singles.iter().position(|&r| r != t && r != BIG_JOKER) {
            let k = singles.remove(pos);
            out.push((
                body.plus(Cards::of(k, 1)),
                Reading::new(Kind::TrioSingle, t, 1),
            ));
        } else if let Some(pos) = pairs
            .iter()
            .position(|&r| r != t)
            .filter(|_| rules.trio_pair)
        {
            let k = pairs.remove(pos);
            out.push((
                body.plus(Cards::of(k, 2)),
                Reading::new(Kind::TrioPair, t, 1),
            ));
        } else {
            out.push((body, Reading::new(Kind::Trio, t, 1)));
        }
    }
    for p in pairs {
        out.push((Cards::of(p, 2), Reading::new(Kind::Pair, p, 1)));
    }
    for s in singles {
        out.push((Cards::of(s, 1), Reading::new(Kind::Single, s, 1)));
    }
}

fn as_move(c: Cards, rules: &MoveRules) -> Option<(Cards, Reading)> {
    super::moves::classify(c, rules).map(|r| (c, r))
}

fn is_bomb(r: Reading) -> bool {
    matches!(r.kind, Kind::Bomb | Kind::Rocket)
}

/// The greedy bot.
pub fn greedy_action(game: &mut Game, rng: &mut Rng) -> Option<Action> {
    let seat = game.to_act()?;
    let rules = game.rules().moves;
    match game.phase() {
        Phase::Over => None,
        Phase::Auction => {
            let acts = game.legal_actions(seat);
            let s = strength(game.hand(seat));
            let want = if s >= 8 {
                3
            } else if s >= 5 {
                2
            } else if s >= 3 {
                1
            } else {
                0
            };
            let pick = acts.iter().copied().find(|a| match a {
                Action::Bid(b) => *b == want || (*b > 0 && acts.len() == 1),
                Action::Call => game.rules().auction == AuctionKind::CallRob && want >= 1,
                Action::Rob => want >= 2,
                _ => false,
            });
            Some(pick.unwrap_or_else(|| {
                if acts.contains(&Action::Pass) {
                    Action::Pass
                } else {
                    acts[rng.below(acts.len() as u64) as usize]
                }
            }))
        }
        Phase::Show => {
            let n = split_count(game.hand(seat), &rules);
            Some(if n <= 4 { Action::Show } else { Action::NoShow })
        }
        Phase::Play => {
            let hand = game.hand(seat);
            let top = game.top();
            let landlord = game.landlord();
            let moves: Vec<(Cards, Reading)> = game.legal_moves().to_vec();
            // Go out at once when possible.
            if let Some(&(c, r)) = moves.iter().find(|(c, _)| *c == hand) {
                return Some(Action::Play(c, Some(r)));
            }
            match top {
                None => {
                    let parts = split(hand, &rules);
                    let pick = parts
                        .iter()
                        .filter(|(_, r)| !is_bomb(*r))
                        .min_by_key(|(c, r)| (r.main, std::cmp::Reverse(c.len())))
                        .or_else(|| parts.first())
                        .copied();
                    let legal = |c: Cards| moves.iter().find(|(m, _)| *m == c).copied();
                    let chosen = pick.and_then(|(c, _)| legal(c)).or_else(|| {
                        moves
                            .iter()
                            .min_by_key(|(_, r)| (is_bomb(*r), r.main))
                            .copied()
                    });
                    chosen.map(|(c, r)| Action::Play(c, Some(r)))
                }
                Some((owner, _, _)) => {
                    let partner = landlord.is_some_and(|l| owner != l && seat != l);
                    if partner {
                        return Some(Action::Pass);
                    }
                    let base = split_count(hand, &rules);
                    let best = moves
                        .iter()
                        .filter(|(_, r)| !is_bomb(*r))
                        .map(|&(c, r)| (split_count(hand.minus(c), &rules), r.main, c, r))
                        .min_by_key(|x| (x.0, x.1));
                    if let Some((n, _, c, r)) = best {
                        if n <= base {
                            return Some(Action::Play(c, Some(r)));
                        }
                    }
                    let owner_left = game.hand(owner).len();
                    let bomb = moves
                        .iter()
                        .filter(|(_, r)| is_bomb(*r))
                        .min_by_key(|(_, r)| r.main)
                        .copied();
                    if let Some((c, r)) = bomb {
                        if split_count(hand.minus(c), &rules) <= 1 || owner_left <= 4 {
                            return Some(Action::Play(c, Some(r)));
                        }
                    }
                    if let Some((_, _, c, r)) = best {
                        if game.hand(owner).len() <= 6 {
                            return Some(Action::Play(c, Some(r)));
                        }
                    }
                    Some(Action::Pass)
                }
            }
        }
    }
}
