//! The simulator: whole hands with built-in bots, no Python per decision, on many threads; and its
//! checking mode, which verifies after every step that every piece is accounted for and the action
//! was legal, and at the end of every hand that each ledger event and the hand are zero-sum and
//! that the hand replays exactly from its event log.
//!
//! Game `i` of a run with master seed `m` is dealt with seed [`game_seed`]`(m, i)` by dealer
//! `i % seats`; seat `k`'s bot is seeded with `game_seed(seed, k)`. Results do not depend on how
//! games are split into chunks or threads.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use crate::error::{Error, Result};

use super::action::Action;
use super::bots::{Bot, BotKind};
use super::event::Event;
use super::matches::Match;
use super::rng::game_seed;
use super::table::{Compiled, Table, TableSetup, replay, replay_events};

/// What the checking mode verifies (all on by default).
#[derive(Clone, Copy, Debug)]
pub struct SimOptions {
    /// Check pieces, legality, zero-sum and replay (the event replay of every hand).
    pub check: bool,
    /// Also replay every `json_replay_every`-th hand from its JSON log (0: never).
    pub json_replay_every: u64,
    /// Keep each hand's events (trajectories).
    pub keep_events: bool,
    /// Give up on a hand after this many decisions (a bug, never a rule).
    pub max_steps: u32,
    /// Keep each card hand's own result record ([`super::cards::CardEnd::result`]): the
    /// per-game statistics are built from it.
    pub keep_results: bool,
    /// Hands per match (1: every hand on its own). With `k > 1` game `i` is hand `i % k` of
    /// match `i / k`, a [`Match`] seeded with [`game_seed`]`(master, i / k)`: dealer, carry
    /// (够级's tribute, 顶牛's 头牌, 斗地主's first bidder …) and scores run from hand to hand.
    pub hands_per_match: u32,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            check: false,
            json_replay_every: 0,
            keep_events: false,
            max_steps: 100_000,
            keep_results: false,
            hands_per_match: 1,
        }
    }
}

/// One simulated hand.
#[derive(Clone, Debug)]
pub struct HandSummary {
    pub game: u64,
    pub seed: u64,
    pub dealer: usize,
    pub winners: Vec<usize>,
    pub n_wins: usize,
    pub exhausted: bool,
    pub balances: Vec<i64>,
    pub turns: u32,
    /// Decisions taken.
    pub steps: u32,
    /// The counted fans / patterns of every win (字牌: the win type).
    pub fans: Vec<String>,
    /// The value of every win (字牌: its 胡息).
    pub values: Vec<i64>,
    /// The hand's events (with `keep_events`).
    pub events: Vec<Event>,
    /// A card hand's own result record (with `keep_results`; its keys are the game's).
    pub result: Option<serde_json::Value>,
}

/// Play game `index` of a run.
pub fn play_game(
    c: &Compiled,
    agents: &[BotKind],
    master: i128,
    index: u64,
    opt: &SimOptions,
) -> Result<HandSummary> {
    let seats = c.seats();
    if agents.len() != seats {
        return Err(Error::rule(format!(
            "agents: {seats} bots for {}, got {}",
            c.variant.id(),
            agents.len()
        )));
    }
    let seed = game_seed(master, index);
    let dealer = (index % seats as u64) as usize;
    let setup = TableSetup {
        seed: i128::from(seed),
        dealer,
        ..TableSetup::default()
    };
    play_setup(c, agents, setup, index, opt).map(|(h, _)| h)
}

/// Play hand `index` of a run dealt with `setup`; the summary and the finished table.
fn play_setup(
    c: &Compiled,
    agents: &[BotKind],
    setup: TableSetup,
    index: u64,
    opt: &SimOptions,
) -> Result<(HandSummary, Table)> {
    let seed = u64::try_from(setup.seed).unwrap_or_else(|_| game_seed(setup.seed, u64::MAX));
    let dealer = setup.dealer;
    let mut t = c.table(setup.clone())?;
    let mut bots = Bot::seats(agents, seed);
    let mut buf: Vec<Action> = Vec::with_capacity(32);
    let mut steps = 0u32;
    let fail = |what: String| Error::rule(format!("game {index} (seed {seed}): {what}"));
    let game_check = |t: &Table| -> Result<()> {
        match t {
            Table::Cards(c) => {
                c.hand.check().map_err(|e| fail(e.to_string()))?;
                // the settlement is written lazily: it must be writable
                match c.result().map(|r| r.ledger()) {
                    Some(Err(e)) => Err(fail(e.to_string())),
                    _ => Ok(()),
                }
            }
            _ => Ok(()),
        }
    };
    if opt.check {
        game_check(&t)?;
    }
    while let Some(s) = t.to_act() {
        if let (Table::Cards(c), false) = (&mut t, opt.check) {
            // A card hand's legal list can be long: the bot picks without listing it.
            c.bot_step(&mut bots[s])?;
            steps += 1;
            if steps > opt.max_steps {
                return Err(fail("the hand did not end".into()));
            }
            continue;
        }
        t.legal_into(s, &mut buf);
        if buf.is_empty() {
            return Err(fail(format!("seat {s} is to act with no legal action")));
        }
        let i = bots[s].choose(&t, s, &buf);
        if opt.check {
            t.step(&buf[i]).map_err(|e| fail(e.to_string()))?;
            let (have, want) = t.piece_count();
            if have != want {
                return Err(fail(format!(
                    "after step {steps} ({}): {have} pieces accounted for, {want} in play",
                    buf[i].describe(t.pieces())
                )));
            }
            game_check(&t)?;
        } else {
            t.apply(&buf[i])?;
        }
        steps += 1;
        if steps > opt.max_steps {
            return Err(fail("the hand did not end".into()));
        }
    }
    let balances = t.balances().unwrap_or_default();
    if opt.check {
        check_end(&t).map_err(|e| fail(e.to_string()))?;
        replay_events(c, setup, t.events()).map_err(|e| fail(e.to_string()))?;
        if opt.json_replay_every > 0 && index % opt.json_replay_every == 0 {
            replay(&t.log_json()).map_err(|e| fail(e.to_string()))?;
        }
    }
    let (fans, values) = match &t {
        Table::Mahjong(m) => (
            m.wins
                .iter()
                .flat_map(|w| w.option.fans.iter().map(|f| f.0.clone()))
                .collect(),
            m.wins.iter().map(|w| w.option.value).collect(),
        ),
        Table::Zipai(z) => match &z.result {
            Some(r) if r.winner.is_some() => (
                r.win_type.map(str::to_string).into_iter().collect(),
                r.huxi.map(i64::from).into_iter().collect(),
            ),
            _ => (Vec::new(), Vec::new()),
        },
        Table::Cards(c) => match c.result() {
            Some(r) if !r.winners.is_empty() => (r.fans.clone(), vec![r.value]),
            _ => (Vec::new(), Vec::new()),
        },
    };
    let n_wins = values.len();
    let exhausted = t.exhausted();
    let summary = HandSummary {
        game: index,
        seed,
        dealer,
        winners: t.winners(),
        n_wins,
        exhausted,
        balances,
        turns: t.turns(),
        steps,
        fans,
        values,
        events: if opt.keep_events {
            t.events().to_vec()
        } else {
            Vec::new()
        },
        result: match (&t, opt.keep_results) {
            (Table::Cards(c), true) => c.result().map(|r| r.result_json()),
            _ => None,
        },
    };
    Ok((summary, t))
}

/// The hands `lo..hi` of match `m` (hands `m*k .. m*k+k` of the run; the earlier hands of the
/// match are played for their carry and not returned).
fn play_match(
    c: &Compiled,
    agents: &[BotKind],
    master: i128,
    m: u64,
    lo: u64,
    hi: u64,
    opt: &SimOptions,
) -> Result<Vec<HandSummary>> {
    let k = u64::from(opt.hands_per_match.max(1));
    let mut mt = Match::new(c.clone(), i128::from(game_seed(master, m)));
    let mut out = Vec::new();
    for i in m * k..((m + 1) * k).min(hi) {
        let (h, t) = play_setup(c, agents, mt.next_setup(), i, opt)?;
        mt.finish(&t)?;
        if i >= lo {
            out.push(h);
        }
    }
    Ok(out)
}

/// The end-of-hand invariants: every ledger event and the balances are zero-sum.
pub fn check_end(t: &Table) -> Result<()> {
    let l = t.ledger();
    for e in l.events() {
        let s: i64 = e.deltas.values().sum();
        if s != 0 {
            return Err(Error::settlement(format!(
                "ledger event {} ({}) is not zero-sum: {s}",
                e.id, e.kind
            )));
        }
    }
    let b = t
        .balances()
        .ok_or_else(|| Error::rule("the hand has no result"))?;
    if b.iter().sum::<i64>() != 0 {
        return Err(Error::settlement(format!(
            "balances {b:?} are not zero-sum"
        )));
    }
    let from_ledger: Vec<i64> = l.balances().into_iter().map(|(_, x)| x).collect();
    if from_ledger != b {
        return Err(Error::settlement(format!(
            "result balances {b:?} differ from the ledger's {from_ledger:?}"
        )));
    }
    Ok(())
}

pub(crate) fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let m = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut g = m
        .lock()
        .map_err(|_| Error::rule("the simulator's thread pools are poisoned"))?;
    if let Some(p) = g.get(&threads) {
        return Ok(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Error::rule(format!("thread pool: {e}")))?,
    );
    g.insert(threads, p.clone());
    Ok(p)
}

/// Games `lo..hi` of a run on `threads` threads (in game order).
pub fn simulate(
    c: &Compiled,
    agents: &[BotKind],
    master: i128,
    lo: u64,
    hi: u64,
    threads: usize,
    opt: &SimOptions,
) -> Result<Vec<HandSummary>> {
    if opt.hands_per_match > 1 && hi > lo {
        let k = u64::from(opt.hands_per_match);
        let matches = lo / k..(hi - 1) / k + 1;
        let one = |m: u64| play_match(c, agents, master, m, lo, hi, opt);
        let parts: Vec<Vec<HandSummary>> = if threads <= 1 {
            matches.map(one).collect::<Result<_>>()?
        } else {
            pool(threads)?.install(|| matches.into_par_iter().map(one).collect::<Result<_>>())?
        };
        return Ok(parts.into_iter().flatten().collect());
    }
    if threads <= 1 {
        return (lo..hi)
            .map(|i| play_game(c, agents, master, i, opt))
            .collect();
    }
    let p = pool(threads)?;
    p.install(|| {
        (lo..hi)
            .into_par_iter()
            .map(|i| play_game(c, agents, master, i, opt))
            .collect()
    })
}

/// Totals of a checked run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckStats {
    pub hands: u64,
    pub steps: u64,
    pub wins: u64,
    pub exhausted: u64,
}

/// A checked run of `n` games that keeps only totals (CI invariants over many hands).
pub fn check_run(
    c: &Compiled,
    agents: &[BotKind],
    master: i128,
    n: u64,
    threads: usize,
    json_replay_every: u64,
) -> Result<CheckStats> {
    let opt = SimOptions {
        check: true,
        json_replay_every,
        ..SimOptions::default()
    };
    let one = |i: u64| -> Result<CheckStats> {
        let h = play_game(c, agents, master, i, &opt)?;
        Ok(CheckStats {
            hands: 1,
            steps: u64::from(h.steps),
            wins: h.n_wins as u64,
            exhausted: u64::from(h.exhausted),
        })
    };
    let add = |a: CheckStats, b: CheckStats| CheckStats {
        hands: a.hands + b.hands,
        steps: a.steps + b.steps,
        wins: a.wins + b.wins,
        exhausted: a.exhausted + b.exhausted,
    };
    if threads <= 1 {
        return (0..n).try_fold(CheckStats::default(), |acc, i| Ok(add(acc, one(i)?)));
    }
    pool(threads)?.install(|| {
        (0..n)
            .into_par_iter()
            .map(one)
            .try_reduce(CheckStats::default, |a, b| Ok(add(a, b)))
    })
}
