//! Vectorised reinforcement-learning environments: `N` hands of one variant stepped together, the
//! learner's actions given as ids of the [`Encoding`]'s action space, observations and masks
//! written into caller-owned buffers (the Python `hupai.env.VecEnv` passes numpy arrays).
//!
//! Each environment `i` plays hand after hand: hand `k` is dealt with the seed
//! `game_seed(game_seed(seed, i), k)` by the dealer `(i + k) % seats`, and the built-in bot of a
//! seat no learner controls is seeded as the simulator seeds it (`Bot::seats(kinds, hand seed)`).
//! After the learner's action the bots play until a learner seat is to act again or the hand is
//! over; a finished hand's settlement is that step's reward (one value per seat) and, with
//! `auto_reset`, the next hand is dealt at once (its first observation is returned).

use std::sync::Arc;

use rayon::prelude::*;

use crate::error::{Error, Result};

use super::action::Action;
use super::bots::{Bot, BotKind};
use super::encode::Encoding;
use super::rng::game_seed;
use super::table::{Compiled, Table, TableSetup};

/// Who plays which seat.
#[derive(Clone, Debug)]
pub struct EnvOptions {
    /// `learners[s]`: seat `s` is played through `step` (else by `bots[s]`).
    pub learners: Vec<bool>,
    pub bots: Vec<BotKind>,
    /// Deal the next hand as soon as one is over (else the environment waits for `reset`).
    pub auto_reset: bool,
}

/// Totals of one environment (summed by [`VecEnv::stats`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EnvStats {
    /// Hands finished.
    pub episodes: u64,
    /// Sum of each seat's settlement over the finished hands.
    pub returns: Vec<f64>,
    /// Hands each seat won.
    pub wins: Vec<u64>,
    /// Hands that ended without being played out (`Table::exhausted`: the wall ran out, a card
    /// game's 流局 or void hand).
    pub exhausted: u64,
    /// Learner decisions (steps) in finished hands.
    pub steps: u64,
    /// Every decision (learners and bots) in finished hands.
    pub decisions: u64,
    /// The last finished hand: each seat's settlement and the learner steps it took.
    pub last_return: Vec<f64>,
    pub last_steps: u64,
}

/// One environment of a [`VecEnv`].
#[derive(Debug)]
pub struct Slot {
    pub table: Table,
    /// The hand finished last (its log and result stay readable after an automatic reset).
    pub finished: Option<Table>,
    legal: Vec<Action>,
    ids: Vec<u32>,
    bots: Vec<Bot>,
    env_seed: u64,
    /// Hands dealt so far (the current one included).
    pub hand: u64,
    pub hand_seed: u64,
    pub dealer: usize,
    steps: u64,
    decisions: u64,
    pub stats: EnvStats,
}

/// Output buffers of one environment.
struct Out<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [bool],
    seat: &'a mut i64,
    reward: &'a mut [f32],
    done: &'a mut bool,
}

/// `N` environments of one variant.
#[derive(Debug)]
pub struct VecEnv {
    pub compiled: Compiled,
    pub enc: Arc<Encoding>,
    pub opts: EnvOptions,
    pub slots: Vec<Slot>,
    pub threads: usize,
    /// The master seed of the last reset.
    pub seed: i128,
}

/// Output buffers of a whole [`VecEnv`] (row-major: `obs` is `N × obs_len`, `mask` `N × actions`,
/// `reward` `N × seats`).
pub struct Buffers<'a> {
    pub obs: &'a mut [u8],
    pub mask: &'a mut [bool],
    pub seat: &'a mut [i64],
    pub reward: &'a mut [f32],
    pub done: &'a mut [bool],
}

impl Slot {
    fn new(c: &Compiled, opts: &EnvOptions, env_seed: u64, index: usize) -> Result<Slot> {
        let mut s = Slot {
            table: deal(c, env_seed, 0, index)?,
            finished: None,
            legal: Vec::with_capacity(64),
            ids: Vec::with_capacity(64),
            bots: Vec::new(),
            env_seed,
            hand: 0,
            hand_seed: 0,
            dealer: 0,
            steps: 0,
            decisions: 0,
            stats: EnvStats {
                returns: vec![0.0; c.seats()],
                wins: vec![0; c.seats()],
                last_return: vec![0.0; c.seats()],
                ..EnvStats::default()
            },
        };
        s.hand_seed = game_seed(i128::from(env_seed), 0);
        s.dealer = index % c.seats();
        s.bots = Bot::seats(&opts.bots, s.hand_seed);
        Ok(s)
    }

    /// Deal hand `self.hand` (the current table is kept as the finished one).
    fn start_hand(&mut self, c: &Compiled, opts: &EnvOptions, index: usize) -> Result<()> {
        let n = c.seats();
        self.hand_seed = game_seed(i128::from(self.env_seed), self.hand);
        self.dealer = (index + self.hand as usize) % n;
        let t = deal(c, self.env_seed, self.hand, index)?;
        self.finished = Some(std::mem::replace(&mut self.table, t));
        self.bots = Bot::seats(&opts.bots, self.hand_seed);
        self.steps = 0;
        self.decisions = 0;
        Ok(())
    }

    fn id_index(&self, id: i64) -> Option<usize> {
        let id = u32::try_from(id).ok()?;
        self.ids.iter().position(|&x| x == id)
    }

    /// Apply the learner's action id (-1: none), let the bots play, settle and reset.
    fn step(
        &mut self,
        c: &Compiled,
        enc: &Encoding,
        opts: &EnvOptions,
        index: usize,
        action: i64,
        out: Out<'_>,
    ) -> Result<()> {
        out.reward.fill(0.0);
        *out.done = false;
        if action >= 0 && !self.table.is_done() {
            let k = self.id_index(action).ok_or_else(|| {
                Error::illegal(format!("environment {index}: action {action} is not legal"))
            })?;
            let a = self.legal[k].clone();
            self.table.apply(&a)?;
            self.steps += 1;
            self.decisions += 1;
        }
        self.advance(c, enc, opts, index, out)
    }

    fn advance(
        &mut self,
        c: &Compiled,
        enc: &Encoding,
        opts: &EnvOptions,
        index: usize,
        out: Out<'_>,
    ) -> Result<()> {
        loop {
            match self.table.to_act() {
                None => {
                    // settled once (a hand kept over without auto_reset is not settled again)
                    if self.settle(out.reward) {
                        *out.done = true;
                    }
                    if opts.auto_reset {
                        self.hand += 1;
                        self.start_hand(c, opts, index)?;
                        continue;
                    }
                    *out.seat = -1;
                    out.mask.fill(false);
                    out.obs.fill(0);
                    return Ok(());
                }
                Some(s) if opts.learners[s] => {
                    self.table.legal_into(s, &mut self.legal);
                    enc.mask_into(&self.table, &self.legal, &mut self.ids, out.mask)?;
                    enc.observe(&self.table, s, out.obs);
                    *out.seat = s as i64;
                    return Ok(());
                }
                Some(s) => {
                    self.table.legal_into(s, &mut self.legal);
                    let k = self.bots[s].choose(&self.table, s, &self.legal);
                    let a = self.legal[k].clone();
                    self.table.apply(&a)?;
                    self.decisions += 1;
                }
            }
        }
    }

    /// Add the finished hand's settlement to `reward` and the totals (false when it was already
    /// settled: a hand kept over without `auto_reset`).
    fn settle(&mut self, reward: &mut [f32]) -> bool {
        if self.decisions == u64::MAX {
            return false;
        }
        let bal = self.table.balances().unwrap_or_default();
        let st = &mut self.stats;
        st.episodes += 1;
        for (k, &b) in bal.iter().enumerate() {
            if let Some(r) = reward.get_mut(k) {
                *r += b as f32;
            }
            if let Some(r) = st.returns.get_mut(k) {
                *r += b as f64;
            }
            if let Some(r) = st.last_return.get_mut(k) {
                *r = b as f64;
            }
        }
        let winners = self.table.winners();
        if self.table.exhausted() {
            st.exhausted += 1;
        }
        for w in winners {
            if let Some(x) = st.wins.get_mut(w) {
                *x += 1;
            }
        }
        st.steps += self.steps;
        st.decisions += self.decisions;
        st.last_steps = self.steps;
        self.decisions = u64::MAX;
        true
    }
}

fn deal(c: &Compiled, env_seed: u64, hand: u64, index: usize) -> Result<Table> {
    c.table(TableSetup {
        seed: i128::from(game_seed(i128::from(env_seed), hand)),
        dealer: (index + hand as usize) % c.seats(),
        ..TableSetup::default()
    })
}

impl VecEnv {
    /// `n` environments of the compiled variant, seeded from `seed`.
    pub fn new(
        compiled: Compiled,
        n: usize,
        seed: i128,
        opts: EnvOptions,
        threads: usize,
    ) -> Result<VecEnv> {
        let seats = compiled.seats();
        if opts.learners.len() != seats || opts.bots.len() != seats {
            return Err(Error::rule(format!(
                "the environment needs one learner flag and one bot per seat ({seats} seats)"
            )));
        }
        if !opts.learners.iter().any(|&l| l) {
            return Err(Error::rule(
                "the environment needs at least one learner seat",
            ));
        }
        if n == 0 {
            return Err(Error::rule("the environment needs n >= 1 tables"));
        }
        let enc = Encoding::of(&compiled)?;
        let slots = (0..n)
            .map(|i| Slot::new(&compiled, &opts, game_seed(seed, i as u64), i))
            .collect::<Result<Vec<_>>>()?;
        Ok(VecEnv {
            compiled,
            enc,
            opts,
            slots,
            threads: threads.max(1),
            seed,
        })
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    fn check(&self, b: &Buffers<'_>) -> Result<()> {
        let n = self.slots.len();
        let ok = b.obs.len() == n * self.enc.obs_len()
            && b.mask.len() == n * self.enc.n_actions()
            && b.seat.len() == n
            && b.reward.len() == n * self.compiled.seats()
            && b.done.len() == n;
        if ok {
            Ok(())
        } else {
            Err(Error::rule("environment buffers of the wrong size"))
        }
    }

    fn each(
        &mut self,
        b: Buffers<'_>,
        f: impl Fn(&mut Slot, usize, Out<'_>) -> Result<()> + Sync + Send,
    ) -> Result<()> {
        self.check(&b)?;
        let (ol, al, sl) = (
            self.enc.obs_len(),
            self.enc.n_actions(),
            self.compiled.seats(),
        );
        let (serial, threads) = (self.threads <= 1 || self.slots.len() < 2, self.threads);
        let outs = b
            .obs
            .chunks_mut(ol)
            .zip(b.mask.chunks_mut(al))
            .zip(b.seat.iter_mut())
            .zip(b.reward.chunks_mut(sl))
            .zip(b.done.iter_mut())
            .map(|((((obs, mask), seat), reward), done)| Out {
                obs,
                mask,
                seat,
                reward,
                done,
            });
        let work = self.slots.iter_mut().zip(outs).enumerate();
        let run = |(i, (slot, out)): (usize, (&mut Slot, Out<'_>))| f(slot, i, out);
        if serial {
            work.into_iter().try_for_each(run)
        } else {
            let p = super::sim::pool(threads)?;
            let items: Vec<_> = work.collect();
            p.install(|| items.into_par_iter().try_for_each(run))
        }
    }

    /// Deal every environment afresh from `seed` and write the first observations.
    pub fn reset(&mut self, seed: i128, b: Buffers<'_>) -> Result<()> {
        let (c, opts) = (self.compiled.clone(), self.opts.clone());
        let enc = self.enc.clone();
        self.each(b, |slot, i, out| {
            *slot = Slot::new(&c, &opts, game_seed(seed, i as u64), i)?;
            out.reward.fill(0.0);
            *out.done = false;
            slot.advance(&c, &enc, &opts, i, out)
        })
    }

    /// One action id per environment (-1: leave it as it is); every id is checked against its
    /// mask before any environment moves.
    pub fn step(&mut self, actions: &[i64], b: Buffers<'_>) -> Result<()> {
        if actions.len() != self.slots.len() {
            return Err(Error::illegal(format!(
                "step: {} actions for {} environments",
                actions.len(),
                self.slots.len()
            )));
        }
        for (i, (s, &a)) in self.slots.iter().zip(actions).enumerate() {
            if a >= 0 && (s.table.is_done() || s.id_index(a).is_none()) {
                let name = usize::try_from(a)
                    .ok()
                    .and_then(|k| self.enc.names.get(k))
                    .map_or("out of range".to_string(), |n| format!("{n:?}"));
                return Err(Error::illegal(format!(
                    "environment {i}: action {a} ({name}) is not legal now (its mask is false)"
                )));
            }
        }
        let (c, opts) = (self.compiled.clone(), self.opts.clone());
        let enc = self.enc.clone();
        self.each(b, |slot, i, out| {
            let a = actions[i];
            if a < 0 && !slot.table.is_done() {
                // unchanged: rewrite its observation and mask
                out.reward.fill(0.0);
                *out.done = false;
                return slot.advance(&c, &enc, &opts, i, out);
            }
            slot.step(&c, &enc, &opts, i, a, out)
        })
    }

    /// The totals over every environment.
    pub fn stats(&self) -> EnvStats {
        let seats = self.compiled.seats();
        let mut t = EnvStats {
            returns: vec![0.0; seats],
            wins: vec![0; seats],
            last_return: vec![0.0; seats],
            ..EnvStats::default()
        };
        for s in &self.slots {
            t.episodes += s.stats.episodes;
            t.exhausted += s.stats.exhausted;
            t.steps += s.stats.steps;
            t.decisions += s.stats.decisions;
            for k in 0..seats {
                t.returns[k] += s.stats.returns[k];
                t.wins[k] += s.stats.wins[k];
            }
        }
        t
    }

    /// The legal actions of environment `i`'s seat to act, with their ids.
    pub fn legal(&self, i: usize) -> Result<(&[Action], &[u32])> {
        let s = self
            .slots
            .get(i)
            .ok_or_else(|| Error::rule(format!("environment {i} of {}", self.slots.len())))?;
        if s.table.is_done() {
            return Ok((&[], &[]));
        }
        Ok((&s.legal, &s.ids))
    }

    /// Every environment's legal ids at once (ragged, in each table's order): environment `i`'s
    /// are `ids[offsets[i]..offsets[i + 1]]` (none while a finished hand waits for `reset`).
    pub fn legal_ids_into(&self, ids: &mut Vec<i64>, offsets: &mut Vec<i64>) {
        ids.clear();
        offsets.clear();
        offsets.push(0);
        for s in &self.slots {
            if !s.table.is_done() {
                ids.extend(s.ids.iter().map(|&x| i64::from(x)));
            }
            offsets.push(ids.len() as i64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::BotRng;
    use crate::variant::Variant;

    fn run(id: &str, learners: Vec<bool>, threads: usize) -> (EnvStats, Vec<u8>) {
        let c = Compiled::new(Arc::new(Variant::load(id).unwrap())).unwrap();
        let seats = c.seats();
        let opts = EnvOptions {
            learners,
            bots: vec![BotKind::Greedy; seats],
            auto_reset: true,
        };
        let n = 8;
        let mut e = VecEnv::new(c, n, 5, opts, threads).unwrap();
        let (ol, al) = (e.enc.obs_len(), e.enc.n_actions());
        let mut obs = vec![0u8; n * ol];
        let mut mask = vec![false; n * al];
        let mut seat = vec![0i64; n];
        let mut reward = vec![0f32; n * seats];
        let mut done = vec![false; n];
        macro_rules! bufs {
            () => {
                Buffers {
                    obs: &mut obs,
                    mask: &mut mask,
                    seat: &mut seat,
                    reward: &mut reward,
                    done: &mut done,
                }
            };
        }
        e.reset(5, bufs!()).unwrap();
        let mut rng = BotRng::new(9);
        let mut total = vec![0f64; seats];
        for _ in 0..3000 {
            let acts: Vec<i64> = (0..n)
                .map(|i| {
                    let legal: Vec<usize> = (0..al).filter(|&k| mask[i * al + k]).collect();
                    assert!(!legal.is_empty());
                    legal[rng.below(legal.len())] as i64
                })
                .collect();
            // an illegal id is refused and changes nothing
            let bad: Vec<i64> = (0..n)
                .map(|i| (0..al).find(|&k| !mask[i * al + k]).unwrap() as i64)
                .collect();
            assert!(e.step(&bad, bufs!()).is_err());
            e.step(&acts, bufs!()).unwrap();
            for (k, r) in reward.iter().enumerate() {
                total[k % seats] += f64::from(*r);
            }
        }
        let st = e.stats();
        assert!(st.episodes > 10, "{id}: {} hands", st.episodes);
        for (r, t) in st.returns.iter().zip(&total) {
            assert!((r - t).abs() < 1e-6);
        }
        (st, obs)
    }

    #[test]
    fn vec_env_runs_and_is_deterministic() {
        for id in ["sichuan", "mcr", "zipai_hunan"] {
            let seats = Compiled::new(Arc::new(Variant::load(id).unwrap()))
                .unwrap()
                .seats();
            let mut one = vec![false; seats];
            one[0] = true;
            let a = run(id, one.clone(), 1);
            let b = run(id, one, 2);
            assert_eq!(a, b, "{id}: threads change nothing");
            let all = run(id, vec![true; seats], 1);
            assert!(all.0.episodes > 0);
            // zero-sum settlements
            let s: f64 = all.0.returns.iter().sum();
            assert!(s.abs() < 1e-6, "{id}: {s}");
        }
    }
}
