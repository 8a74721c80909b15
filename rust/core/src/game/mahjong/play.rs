//! Play of a mahjong hand: turns, claims and their priority, kongs, wins, the wall's end.

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::game::action::{Action, ActionKind};
use crate::game::event::Event;
use crate::game::facts::{AfterWin, MaiMa, PrePhaseKind};
use crate::game::flow::{self, HandEnd, PassLock, Response, TableCtx, WinOption};
use crate::hand::{Meld, MeldKind};
use crate::situation::{KongKind, WinType};
use crate::tile::{N_KINDS, Tile};

use super::{Carry, Claim, HandResult, KongRec, LastKong, Mahjong, Phase, SEAT_NAMES, WinRec, act};

fn kong_name(k: KongKind) -> &'static str {
    match k {
        KongKind::Open => "open",
        KongKind::Added => "added",
        KongKind::Concealed => "concealed",
    }
}

impl Mahjong {
    // ------------------------------------------------------------------ turns

    pub(crate) fn start_turn(
        &mut self,
        seat: usize,
        drawn: Option<Tile>,
        win_type: WinType,
    ) -> Result<()> {
        let first = drawn.is_some()
            && !self.drawn_once[seat]
            && !self.claim_made
            && win_type == WinType::SelfDraw;
        self.phase = Phase::Turn;
        self.to_act = seat;
        self.drawn = drawn.map(Tile::index);
        self.win_type = win_type;
        self.refresh_flowers(false);
        let empty = self.live_remaining() == 0;
        let ctx = self.ctx(empty && drawn.is_some(), empty, first);
        self.turn = self.preset.turn(self, seat, drawn, win_type, &ctx, false)?;
        self.drawn_once[seat] = true;
        self.version += 1;
        // The declarations the seat may make with a discard (河北 报听, 卡五星 亮倒, 二人 报听).
        self.ready_cache = Vec::new();
        if let Some(d) = &self.facts.declaration {
            if !self.seats[seat].hand_locked
                && flow::may_be_ready(&self.variant, &self.seats[seat])?
            {
                let plain = self.plain_ctx();
                let ready = flow::ready_discards(&self.variant, &self.seats[seat], seat, &plain)?;
                let legal = &self.turn.opts.discards;
                self.ready_cache = ready
                    .into_iter()
                    .map(|(t, _)| t)
                    .filter(|t| !d.legal_discards_only || legal.contains(t))
                    .collect();
            }
        }
        let o = &self.turn.opts;
        if o.win.is_none()
            && o.discards.is_empty()
            && o.concealed_kongs.is_empty()
            && o.added_kongs.is_empty()
            && self.turn.pizi_kongs.is_empty()
            && self.ready_cache.is_empty()
        {
            self.no_options(seat)?;
        }
        Ok(())
    }

    /// A query context with no table flags (waits, ready discards).
    pub(crate) fn plain_ctx(&self) -> TableCtx {
        TableCtx {
            wall_last: false,
            wall_empty: false,
            last_kong: None,
            wall_remaining: 1000,
            first_turn: false,
            after_exhaustion: false,
            forbidden_discards: 0,
            ready_first_turn: 0,
            ..self.ctx(false, false, false)
        }
    }

    /// The seat to move has no legal action at all: the 卡五星 forced end (K3), else an error.
    fn no_options(&mut self, seat: usize) -> Result<()> {
        if self
            .facts
            .declaration
            .as_ref()
            .is_some_and(|d| d.forbid_waits)
        {
            self.forced_end = Some(seat);
            self.events.push(Event::ForcedEnd { seat: seat as u8 });
            return self.end(false);
        }
        Err(Error::rule(format!(
            "seat {seat}: the seat to move has no legal action"
        )))
    }

    /// Every legal action of `seat` now; empty when it has nothing to do.
    pub fn legal_actions(&self, seat: usize) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_into(seat, &mut out);
        out
    }

    /// [`Self::legal_actions`] into a buffer (cleared first).
    pub fn legal_into(&self, seat: usize, out: &mut Vec<Action>) {
        out.clear();
        if self.phase == Phase::Done || seat != self.to_act {
            return;
        }
        let s8 = seat as u8;
        match self.phase {
            Phase::Turn => {
                let o = &self.turn.opts;
                let drawn = self.drawn;
                if let (true, Some(d)) = (o.forced_win, drawn) {
                    out.push(Action::tile(ActionKind::Win, s8, d));
                    return;
                }
                if let (Some(_), Some(d)) = (&o.win, drawn) {
                    out.push(Action::tile(ActionKind::Win, s8, d));
                    if self.auto[seat] && self.facts.auto_win {
                        return;
                    }
                }
                for &t in &o.concealed_kongs {
                    out.push(act(ActionKind::ConcealedKong, seat, t));
                }
                for &t in &o.added_kongs {
                    out.push(act(ActionKind::AddedKong, seat, t));
                }
                for &t in &o.discards {
                    out.push(act(ActionKind::Discard, seat, t));
                }
                if let Some(d) = &self.facts.declaration {
                    for &t in &self.ready_cache {
                        out.push(act(d.action, seat, t));
                    }
                }
                for &t in &self.turn.pizi_kongs {
                    out.push(act(ActionKind::PiziKong, seat, t));
                }
            }
            Phase::Claim | Phase::Rob => {
                let Some(c) = &self.claim else { return };
                let r = &c.responses[seat];
                let t = c.tile;
                if r.win.is_some() && (r.forced_win || (self.auto[seat] && self.facts.auto_win)) {
                    out.push(act(ActionKind::Win, seat, t));
                    return;
                }
                out.push(act(ActionKind::Pass, seat, t));
                if r.win.is_some() {
                    out.push(act(ActionKind::Win, seat, t));
                }
                if r.kong {
                    out.push(act(ActionKind::Kong, seat, t));
                }
                if r.pung {
                    out.push(act(ActionKind::Pung, seat, t));
                }
                for &lo in &r.chows {
                    out.push(act(ActionKind::Chow, seat, lo));
                }
            }
            Phase::Haidi => {
                if let Some(d) = self.drawn {
                    if self.turn.opts.win.is_some() {
                        out.push(Action::tile(ActionKind::Win, s8, d));
                    }
                    out.push(Action::tile(ActionKind::Discard, s8, d));
                }
            }
            Phase::Pre(k) => self.pre_legal(k, seat, out),
            Phase::Done => {}
        }
    }

    /// Apply one action. An illegal action is an `IllegalAction` error and changes nothing.
    pub fn step(&mut self, a: &Action) -> Result<()> {
        if self.phase == Phase::Done {
            return Err(Error::illegal("the hand is over"));
        }
        if a.kind.is_management() {
            return self.manage(a);
        }
        let legal = self.legal_actions(usize::from(a.seat));
        if !legal.contains(a) {
            return Err(Error::illegal(format!(
                "{} is not legal now (seat {} is to act in phase {})",
                a.describe(self.pieces()),
                self.to_act,
                self.phase.name()
            )));
        }
        self.apply(a)
    }

    /// Apply an action known to be legal (one of `legal_actions(to_act)`).
    pub fn apply(&mut self, a: &Action) -> Result<()> {
        self.log_action(a);
        self.version += 1;
        match self.phase {
            Phase::Turn => self.turn_action(a),
            Phase::Claim | Phase::Rob => self.claim_action(a),
            Phase::Haidi => self.haidi_action(a),
            Phase::Pre(k) => self.pre_action(k, a),
            Phase::Done => Err(Error::illegal("the hand is over")),
        }
    }

    fn manage(&mut self, a: &Action) -> Result<()> {
        let s = usize::from(a.seat);
        if s >= self.n {
            return Err(Error::illegal(format!("seat {s} is not 0..{}", self.n - 1)));
        }
        if a.kind == ActionKind::AutoPlay {
            let on = match a.value {
                Some(0) => false,
                Some(1) => true,
                _ => return Err(Error::illegal("auto_play: value 1 (on) or 0 (off)")),
            };
            if a.tile.is_some() || !a.tiles.is_empty() {
                return Err(Error::illegal("auto_play takes a value only"));
            }
            self.log_action(a);
            self.version += 1;
            self.auto[s] = on;
            return Ok(());
        }
        if !self.facts.escape {
            return Err(Error::illegal(format!(
                "{} has no escape (逃跑) rule at the table",
                self.variant.id()
            )));
        }
        if a.tile.is_some() || !a.tiles.is_empty() || a.value.is_some() {
            return Err(Error::illegal("escape takes no tile or value"));
        }
        self.log_action(a);
        self.version += 1;
        self.escaped = Some(s);
        if self.phase == Phase::Rob {
            if let Some(c) = &self.claim {
                self.seats[c.from].counts[c.tile.idx()] += 1;
            }
        }
        self.claim = None;
        self.pre.clear();
        for p in &mut self.picked {
            // tiles in transit go back to their owners
            p.clear();
        }
        self.end(false)
    }

    fn turn_action(&mut self, a: &Action) -> Result<()> {
        let s = usize::from(a.seat);
        let t = Tile::new_unchecked(a.tile.unwrap_or(0));
        match a.kind {
            ActionKind::Win => {
                let opt = self
                    .turn
                    .opts
                    .win
                    .clone()
                    .ok_or_else(|| Error::illegal("no win on offer"))?;
                self.seats[s].counts[t.idx()] -= 1;
                let wt = self.win_type;
                self.record_win(s, t, wt, None, opt, false)?;
                if self.hand_over() {
                    return self.end(false);
                }
                self.last_kong = None;
                match self.next_active(s) {
                    None => self.end(false),
                    Some(nx) => self.draw_turn(nx),
                }
            }
            ActionKind::Discard | ActionKind::DeclareTing | ActionKind::DeclareReady => {
                if a.kind != ActionKind::Discard {
                    self.declare(s, t);
                }
                if let Some(fd) = &mut self.first_discards {
                    fd.push((s, t));
                    if fd.len() == 4 {
                        let fd = self.first_discards.take().unwrap_or_default();
                        if flow::gen_zhuang(&self.variant, self.dealer, &fd)? {
                            self.gen_zhuang = true;
                            self.events.push(Event::GenZhuang { tile: t.index() });
                        }
                    }
                }
                self.seats[s].counts[t.idx()] -= 1;
                self.discards[s].push(t.index());
                self.last_discard = Some(t.index());
                self.turns += 1;
                self.on_discard(s, t)?;
                let source = if self.last_kong.is_some() {
                    WinType::AfterKongDiscard
                } else {
                    WinType::Discard
                };
                self.offer(s, t, source)?;
                Ok(())
            }
            ActionKind::ConcealedKong => {
                self.first_discards = None;
                self.seats[s].counts[t.idx()] -= 4;
                self.seats[s].melds.push((
                    Meld::new(MeldKind::Kong, t, true, 0)?,
                    Some(KongKind::Concealed),
                ));
                let chained = self.win_type == WinType::KongReplacement;
                self.kong_made(s, KongKind::Concealed, t, None, chained)?;
                self.replacement(s, LastKong::Kong(KongKind::Concealed))
            }
            ActionKind::AddedKong => {
                self.first_discards = None;
                self.seats[s].counts[t.idx()] -= 1;
                if self.offer(s, t, WinType::RobKong)? {
                    return Ok(());
                }
                self.seats[s].counts[t.idx()] += 1;
                self.finish_added_kong(s, t)
            }
            ActionKind::PiziKong => {
                self.seats[s].counts[t.idx()] -= 1;
                self.pizi_tiles[s].push(t.index());
                let laizi = Some(t.index()) == self.laizi;
                self.pizi_kongs[s][usize::from(laizi)] += 1;
                self.events.push(Event::PiziKong {
                    seat: s as u8,
                    tile: t.index(),
                    laizi,
                });
                self.replacement(s, LastKong::Pizi)
            }
            _ => Err(Error::illegal(format!("{:?} in a turn", a.kind))),
        }
    }

    /// A declaration made with the discard of `t` (before the discard).
    fn declare(&mut self, s: usize, t: Tile) {
        let Some(d) = self.facts.declaration.clone() else {
            return;
        };
        self.seats[s].hand_locked = true;
        self.declared.push(s);
        let tian = if d.tian_ting {
            let first = self.discards[s].is_empty() && !self.claim_made && self.kongs.is_empty();
            let t_t = first && (s == self.dealer || Some(t.index()) == self.drawn);
            self.tian[s] = t_t;
            Some(t_t)
        } else {
            None
        };
        if !d.reveal {
            self.events.push(Event::Declare {
                name: d.event,
                seat: s as u8,
                tile: (d.event == "ting").then_some(t.index()),
                hand: Vec::new(),
                waits: Vec::new(),
                tian_ting: tian,
            });
        }
    }

    fn on_discard(&mut self, s: usize, t: Tile) -> Result<()> {
        if let Some(d) = &self.facts.declaration {
            if d.reveal && self.declared.contains(&s) && !self.revealed[s] {
                let plain = self.plain_ctx();
                self.waits[s] = flow::waits(&self.variant, &self.seats[s], s, &plain)?;
                self.revealed[s] = true;
                self.events.push(Event::Declare {
                    name: d.event,
                    seat: s as u8,
                    tile: None,
                    hand: self.hand_tiles(s),
                    waits: self.waits[s].iter().map(|w| w.index()).collect(),
                    tian_ting: None,
                });
            }
        }
        if !self.hua_pos.is_empty() {
            self.offer_hua = self.release(s, t);
            self.refresh_flowers(false);
            let plain = self.plain_ctx();
            let ready = flow::may_be_ready(&self.variant, &self.seats[s])?
                && !flow::waits(&self.variant, &self.seats[s], s, &plain)?.is_empty();
            if !ready {
                self.ready_since[s] = None;
            } else if self.ready_since[s].is_none() {
                self.ready_since[s] = Some(self.turns);
            }
        }
        Ok(())
    }

    /// 二人麻将 花牌: `t` left the seat's hand; a face-up copy goes only when no ordinary one is
    /// left. Returns whether a face-up copy went.
    pub(crate) fn release(&mut self, seat: usize, t: Tile) -> bool {
        let k = t.idx();
        let mut held = u32::from(self.seats[seat].counts[k]);
        for (m, _) in &self.seats[seat].melds {
            match m.kind {
                MeldKind::Chow => held += u32::from((m.tile.idx()..m.tile.idx() + 3).contains(&k)),
                MeldKind::Kong if m.tile.idx() == k => held += 4,
                MeldKind::Pung if m.tile.idx() == k => held += 3,
                _ => {}
            }
        }
        let gone = u32::from(self.hua[seat][k]) > held;
        if gone {
            self.hua[seat][k] -= 1;
        }
        gone
    }

    fn kong_made(
        &mut self,
        owner: usize,
        kind: KongKind,
        tile: Tile,
        feeder: Option<usize>,
        chained: bool,
    ) -> Result<()> {
        self.chain = if chained && self.chain > 0 {
            self.chain + 1
        } else {
            1
        };
        let k = KongRec {
            owner,
            kind,
            tile,
            feeder,
            chain: self.chain,
            seq: self.events.len(),
        };
        let mut ledger = self.ledger.take().expect("ledger");
        let r = self.preset.on_kong(self, &k, &mut ledger);
        self.ledger = Some(ledger);
        self.kongs.push(k);
        r
    }

    fn finish_added_kong(&mut self, s: usize, t: Tile) -> Result<()> {
        self.seats[s].counts[t.idx()] -= 1;
        let i = self.seats[s]
            .melds
            .iter()
            .position(|(m, _)| m.kind == MeldKind::Pung && m.tile == t)
            .ok_or_else(|| Error::illegal(format!("no pung of {t} to add to")))?;
        let from = self.seats[s].melds[i].0.from;
        self.seats[s].melds[i] = (
            Meld::new(MeldKind::Kong, t, false, from)?,
            Some(KongKind::Added),
        );
        let feeder = (from > 0).then(|| (s + self.n - usize::from(from)) % self.n);
        let chained = self.win_type == WinType::KongReplacement;
        self.kong_made(s, KongKind::Added, t, feeder, chained)?;
        self.replacement(s, LastKong::Kong(KongKind::Added))
    }

    fn replacement(&mut self, seat: usize, kind: LastKong) -> Result<()> {
        if self.facts.kong_abort {
            let mut owners: Vec<usize> = self.kongs.iter().map(|k| k.owner).collect();
            owners.sort_unstable();
            owners.dedup();
            if owners.len() >= 3 {
                self.events.push(Event::KongAbort);
                return self.exhaustive_draw();
            }
        }
        self.last_kong = Some(kind);
        let Some(t) = self.draw(seat, true) else {
            return self.exhaustive_draw();
        };
        self.events.push(Event::Draw {
            seat: seat as u8,
            replacement: true,
            haidi: false,
        });
        self.start_turn(seat, Some(Tile::new_unchecked(t)), WinType::KongReplacement)
    }

    pub(crate) fn draw_turn(&mut self, seat: usize) -> Result<()> {
        self.seats[seat].win_locked = false;
        self.lock_tiles[seat] = 0;
        self.pass_value[seat] = None;
        self.last_kong = None;
        self.haidi = false;
        if self.live_remaining() > 0 {
            let Some(t) = self.draw(seat, false) else {
                return self.exhaustive_draw();
            };
            self.events.push(Event::Draw {
                seat: seat as u8,
                replacement: false,
                haidi: false,
            });
            return self.start_turn(seat, Some(Tile::new_unchecked(t)), WinType::SelfDraw);
        }
        // 海底 (武汉): after the live wall each player in turn draws once.
        if self.haidi_count < self.facts.haidi_draws && self.wall_remaining() > self.facts.dead_wall
        {
            self.haidi = true;
            self.haidi_count += 1;
            let Some(t) = self.draw(seat, false) else {
                return self.exhaustive_draw();
            };
            self.events.push(Event::Draw {
                seat: seat as u8,
                replacement: false,
                haidi: true,
            });
            return self.start_turn(seat, Some(Tile::new_unchecked(t)), WinType::SelfDraw);
        }
        self.exhaustive_draw()
    }

    // ------------------------------------------------------------------ claims

    /// Ask every seat about `t` from `s`; returns whether anyone may respond.
    fn offer(&mut self, s: usize, t: Tile, source: WinType) -> Result<bool> {
        let empty = self.live_remaining() == 0;
        self.refresh_flowers(true);
        let first_turn = self.facts.di_he_first_discard
            && source == WinType::Discard
            && s == self.dealer
            && self.discards[s].len() == 1
            && !self.claim_made
            && self.kongs.is_empty();
        let mut ctx = self.ctx(empty, empty, first_turn);
        if source != WinType::AfterKongDiscard {
            ctx.last_kong = None;
        }
        // 漏胡 (same tile): a declined win on t locks t only, until the seat's next action.
        let bit = 1u64 << t.idx();
        let same_tile = source != WinType::RobKong && self.facts.pass_lock == PassLock::SameTile;
        let mut locked = Vec::new();
        if same_tile {
            for k in 0..self.n {
                if self.lock_tiles[k] & bit != 0 && !self.seats[k].win_locked {
                    self.seats[k].win_locked = true;
                    locked.push(k);
                }
            }
        }
        let resp = self.preset.claims(self, &self.seats, s, t, source, &ctx);
        for k in locked {
            self.seats[k].win_locked = false;
        }
        let mut resp = resp?;
        // 顺和: a seat that declined a win may win again only for more.
        for (k, r) in resp.iter_mut().enumerate() {
            if let (Some(v), Some(w)) = (self.pass_value[k], &r.win) {
                if w.value <= v {
                    r.win = None;
                    r.forced_win = false;
                }
            }
        }
        let order: Vec<usize> = if self.facts.claim_order_from_dealer {
            (0..self.n)
                .map(|k| (self.dealer + k) % self.n)
                .filter(|&k| k != s)
                .collect()
        } else {
            (1..self.n).map(|k| (s + k) % self.n).collect()
        };
        self.open_claim(s, t, source, resp, order)
    }

    fn open_claim(
        &mut self,
        s: usize,
        t: Tile,
        source: WinType,
        resp: Vec<Response>,
        order: Vec<usize>,
    ) -> Result<bool> {
        let pending: Vec<usize> = order.into_iter().filter(|&k| !resp[k].is_empty()).collect();
        if pending.is_empty() {
            if source != WinType::RobKong {
                self.after_discard(s)?;
            }
            return Ok(false);
        }
        self.to_act = pending[0];
        self.phase = if source == WinType::RobKong {
            Phase::Rob
        } else {
            Phase::Claim
        };
        self.claim = Some(Claim {
            from: s,
            tile: t,
            source,
            responses: resp,
            pending,
            decided: vec![None; self.n],
        });
        self.version += 1;
        Ok(true)
    }

    fn after_discard(&mut self, s: usize) -> Result<()> {
        self.last_kong = None;
        match self.next_active(s) {
            None => self.end(false),
            Some(nx) => self.draw_turn(nx),
        }
    }

    fn claim_action(&mut self, a: &Action) -> Result<()> {
        let seat = usize::from(a.seat);
        let Some(c) = &mut self.claim else {
            return Err(Error::illegal("no claim is open"));
        };
        c.decided[seat] = Some(a.clone());
        if a.kind == ActionKind::Pass && c.source != WinType::RobKong {
            if let Some(w) = &c.responses[seat].win {
                match self.facts.pass_lock {
                    PassLock::UntilOwnDraw => self.seats[seat].win_locked = true,
                    PassLock::SameTile => self.lock_tiles[seat] |= 1u64 << c.tile.idx(),
                    PassLock::LowerValue => {
                        let v = self.pass_value[seat].map_or(w.value, |p| p.max(w.value));
                        self.pass_value[seat] = Some(v);
                    }
                    PassLock::None => {}
                }
            }
        }
        if let Some(&next) = c.pending.iter().find(|&&k| c.decided[k].is_none()) {
            self.to_act = next;
            return Ok(());
        }
        self.resolve()
    }

    fn resolve(&mut self) -> Result<()> {
        let c = self
            .claim
            .take()
            .ok_or_else(|| Error::illegal("no claim is open"))?;
        let (s, t, source) = (c.from, c.tile, c.source);
        let decided = |k: usize| c.decided[k].as_ref().map(|a| a.kind);
        let mut winners: Vec<usize> = c
            .pending
            .iter()
            .copied()
            .filter(|&k| decided(k) == Some(ActionKind::Win))
            .collect();
        if !winners.is_empty() {
            if !self.facts.multi_ron {
                winners.truncate(1);
            }
            if source != WinType::RobKong {
                self.discards[s].pop();
            }
            for (i, &w) in winners.iter().enumerate() {
                let opt = c.responses[w]
                    .win
                    .clone()
                    .ok_or_else(|| Error::illegal("a win that was not offered"))?;
                self.record_win(w, t, source, Some(s), opt, i > 0)?;
            }
            self.events.push(Event::ClaimResolved {
                winners: winners.iter().map(|&w| w as u8).collect(),
            });
            if self.hand_over() {
                return self.end(false);
            }
            let last = *winners.last().unwrap_or(&s);
            self.last_kong = None;
            return match self.next_active(last) {
                None => self.end(false),
                Some(nx) => self.draw_turn(nx),
            };
        }
        if source == WinType::RobKong {
            self.seats[s].counts[t.idx()] += 1;
            return self.finish_added_kong(s, t);
        }
        for kind in [ActionKind::Kong, ActionKind::Pung, ActionKind::Chow] {
            for &k in &c.pending {
                let Some(a) = &c.decided[k] else { continue };
                if a.kind != kind {
                    continue;
                }
                self.discards[s].pop();
                if self.offer_hua {
                    self.hua[k][t.idx()] += 1;
                    self.offer_hua = false;
                }
                self.last_kong = None;
                self.claim_made = true;
                self.lock_tiles[k] = 0;
                self.first_discards = None;
                let off = ((k + self.n - s) % self.n) as u8;
                match kind {
                    ActionKind::Kong => {
                        self.seats[k].counts[t.idx()] -= 3;
                        self.seats[k].melds.push((
                            Meld::new(MeldKind::Kong, t, false, off)?,
                            Some(KongKind::Open),
                        ));
                        let chained = source == WinType::AfterKongDiscard;
                        self.kong_made(k, KongKind::Open, t, Some(s), chained)?;
                        return self.replacement(k, LastKong::Kong(KongKind::Open));
                    }
                    ActionKind::Pung => {
                        self.seats[k].counts[t.idx()] -= 2;
                        self.seats[k]
                            .melds
                            .push((Meld::new(MeldKind::Pung, t, false, off)?, None));
                    }
                    _ => {
                        let lo = a.tile.unwrap_or(0);
                        for x in lo..lo + 3 {
                            if x != t.index() {
                                self.seats[k].counts[usize::from(x)] -= 1;
                            }
                        }
                        let pos = t.index() - lo + 1;
                        self.seats[k].melds.push((
                            Meld::new(MeldKind::Chow, Tile::new_unchecked(lo), false, pos)?,
                            None,
                        ));
                    }
                }
                return self.start_turn(k, None, WinType::SelfDraw);
            }
        }
        self.after_discard(s)
    }

    // ------------------------------------------------------------------ wins and the end

    fn record_win(
        &mut self,
        w: usize,
        t: Tile,
        win_type: WinType,
        discarder: Option<usize>,
        option: WinOption,
        shared: bool,
    ) -> Result<()> {
        let mut rec = WinRec {
            seat: w,
            tile: t,
            win_type,
            from: discarder,
            option,
            record: Value::Null,
            mai_ma: None,
            seq: self.events.len(),
        };
        rec.record = self.win_json(w, t, win_type, discarder);
        let mut record = std::mem::take(&mut rec.record);
        self.preset.win_record(self, &rec, &mut record)?;
        rec.record = record;
        if win_type.is_self_drawn() {
            let buy = match self.facts.mai_ma {
                MaiMa::Off => false,
                MaiMa::SelfDraw => true,
                MaiMa::DeclaredSelfDraw => self.seats[w].hand_locked,
            };
            if buy {
                if let Some((m, _)) = self.take(true) {
                    self.aside.push(m);
                    rec.mai_ma = Some(m);
                    rec.record["mai_ma"] = json!(Tile::new_unchecked(m).to_string());
                    self.events.push(Event::MaiMa { tile: m });
                }
            }
        }
        let mut ledger = self.ledger.take().expect("ledger");
        let r = self.preset.on_win(self, &rec, &mut ledger);
        self.ledger = Some(ledger);
        r?;
        if !shared {
            self.won_tiles[w].push(t.index());
        }
        self.win_count[w] += 1;
        self.events.push(Event::Win {
            seat: w as u8,
            tile: Some(t.index()),
            win_type: win_type.name(),
            from: discarder.map(|d| d as u8),
            value: rec.option.value,
            duo: None,
            payments: Vec::new(),
        });
        self.wins.push(rec);
        match self.facts.after_win {
            AfterWin::Leave => self.seats[w].active = false,
            AfterWin::Lock => self.seats[w].hand_locked = true,
            AfterWin::End => {}
        }
        Ok(())
    }

    /// The win as the presets' settlements read it: winner, hand (standing tiles, winning tile,
    /// melds), situation (win type, 海底, winds, dealer) and the discarder.
    pub(crate) fn win_json(
        &self,
        w: usize,
        t: Tile,
        win_type: WinType,
        discarder: Option<usize>,
    ) -> Value {
        let melds: Vec<Value> = self.seats[w]
            .melds
            .iter()
            .map(|(m, kk)| match m.kind {
                MeldKind::Chow => json!({"type": "chow", "tiles": m.tiles().iter().map(ToString::to_string).collect::<Vec<_>>()}),
                MeldKind::Pung => json!({"type": "pung", "tile": m.tile.to_string(), "offer": m.from}),
                MeldKind::Kong => json!({
                    "type": format!("kong_{}", kong_name(kk.unwrap_or(KongKind::Open))),
                    "tile": m.tile.to_string(),
                    "offer": m.from,
                }),
            })
            .collect();
        let concealed: Vec<String> = self
            .hand_tiles(w)
            .into_iter()
            .map(|x| Tile::new_unchecked(x).to_string())
            .collect();
        let mut rec = json!({
            "winner": SEAT_NAMES[w],
            "hand": {"concealed": concealed, "win_tile": t.to_string(), "melds": melds},
            "situation": {
                "win_type": win_type.name(),
                "wall_last": self.live_remaining() == 0,
                "seat_wind": self.seats[w].seat_wind.to_string(),
                "prevalent_wind": self.prevalent.to_string(),
                "dealer": w == self.dealer,
            },
        });
        if let Some(d) = discarder {
            rec["discarder"] = json!(SEAT_NAMES[d]);
        }
        rec
    }

    fn hand_over(&self) -> bool {
        match self.facts.after_win {
            AfterWin::End => true,
            _ => self.seats.iter().filter(|s| s.active).count() <= 1,
        }
    }

    pub(crate) fn exhaustive_draw(&mut self) -> Result<()> {
        self.events.push(Event::WallEmpty);
        if let Some(draws) = self.facts.haidi_phase {
            // 海底捞月: the first ready seat draws from the unused pool.
            self.refresh_flowers(false);
            let plain = self.plain_ctx();
            let mut ready = Vec::new();
            for k in 0..self.n {
                if flow::may_be_ready(&self.variant, &self.seats[k])?
                    && !flow::waits(&self.variant, &self.seats[k], k, &plain)?.is_empty()
                {
                    ready.push(k);
                }
            }
            if let Some(&first) = ready.iter().min_by_key(|&&k| {
                let since = self.ready_since[k].unwrap_or(self.turns + 1);
                let bao = self
                    .declared
                    .iter()
                    .position(|&d| d == k)
                    .unwrap_or(self.declared.len());
                (since, bao, usize::from(k != self.dealer))
            }) {
                self.haidi_seat = first;
                self.haidi_left = draws;
                self.events.push(Event::Haidi { seat: first as u8 });
                return self.haidi_draw();
            }
        }
        let mut ledger = self.ledger.take().expect("ledger");
        let r = self.preset.on_exhausted(self, &mut ledger);
        self.ledger = Some(ledger);
        r?;
        self.end(true)
    }

    fn haidi_draw(&mut self) -> Result<()> {
        let k = self.haidi_seat;
        if self.haidi_left == 0 || self.pool.is_empty() {
            return self.end(true);
        }
        let t = self.pool.remove(0);
        self.haidi_left -= 1;
        self.seats[k].counts[usize::from(t)] += 1;
        self.events.push(Event::Draw {
            seat: k as u8,
            replacement: false,
            haidi: true,
        });
        self.refresh_flowers(false);
        let ctx = TableCtx {
            wall_last: false,
            wall_empty: true,
            last_kong: None,
            wall_remaining: 0,
            first_turn: false,
            after_exhaustion: true,
            forbidden_discards: 0,
            ready_first_turn: 0,
            ..self.ctx(false, true, false)
        };
        let tile = Tile::new_unchecked(t);
        self.turn = self
            .preset
            .turn(self, k, Some(tile), WinType::SelfDraw, &ctx, false)?;
        self.phase = Phase::Haidi;
        self.to_act = k;
        self.drawn = Some(t);
        self.win_type = WinType::SelfDraw;
        self.version += 1;
        Ok(())
    }

    fn haidi_action(&mut self, a: &Action) -> Result<()> {
        let k = usize::from(a.seat);
        let t = Tile::new_unchecked(a.tile.unwrap_or(0));
        self.seats[k].counts[t.idx()] -= 1;
        if a.kind == ActionKind::Win {
            let opt = self
                .turn
                .opts
                .win
                .clone()
                .ok_or_else(|| Error::illegal("no win on offer"))?;
            self.record_win(k, t, WinType::SelfDraw, None, opt, false)?;
            return self.end(false);
        }
        self.discards[k].push(t.index());
        self.haidi_draw()
    }

    pub(crate) fn end(&mut self, exhausted: bool) -> Result<()> {
        let mut ledger = self.ledger.take().expect("ledger");
        let r = if ledger.is_ended() {
            Ok(())
        } else {
            self.preset.settle(self, &mut ledger)
        };
        if !ledger.is_ended() {
            ledger.end_hand();
        }
        let balances: Vec<i64> = ledger.balances().into_iter().map(|(_, b)| b).collect();
        self.ledger = Some(ledger);
        r?;
        self.phase = Phase::Done;
        self.claim = None;
        self.version += 1;
        let mut winners: Vec<usize> = Vec::new();
        for w in &self.wins {
            if !winners.contains(&w.seat) {
                winners.push(w.seat);
            }
        }
        let discarder = self.wins.iter().find_map(|w| w.from);
        let mut carry = self.carry.clone();
        if let Some(p) = &self.pao_zi {
            carry.pao_zi = p.clone();
        }
        let end = HandEnd {
            players: self.n,
            dealer: self.dealer,
            winners: winners.clone(),
            // 一炮多响: the wins of one discard name its discarder (上海's next dealer).
            discarder: match (winners.len() > 1, discarder) {
                (true, Some(d)) if self.wins.iter().all(|w| w.from == Some(d)) => Some(d),
                _ => None,
            },
            random: 0,
        };
        let flow_carry = flow::Carry {
            floor: carry.floor,
            kai_bao: carry.kai_bao,
            huang_fan: carry.huang_fan,
        };
        let (nd, nc) = flow::next_hand(&self.variant, &end, flow_carry)?;
        let random_rotation = self.variant.preset().rules.dealer_rotation == "random_each_hand";
        let next_carry = Carry {
            floor: nc.floor,
            kai_bao: nc.kai_bao,
            huang_fan: nc.huang_fan,
            pao_zi: if matches!(self.facts.pao_zi, crate::game::facts::PaoZi::Free { .. }) {
                carry.pao_zi.clone()
            } else {
                vec![0; self.n]
            },
            cards: None,
        };
        let mut sorted = winners.clone();
        sorted.sort_unstable();
        let exhausted = exhausted && self.wins.is_empty();
        self.events.push(Event::End {
            winners: sorted.iter().map(|&w| w as u8).collect(),
            balances: balances.clone(),
            exhausted,
        });
        self.result = Some(HandResult {
            winners: sorted,
            exhausted,
            balances,
            turns: self.turns,
            discarder,
            carry,
            escaped: self.escaped,
            next_dealer: (!random_rotation).then_some(nd),
            next_carry,
        });
        Ok(())
    }

    /// The (shanten, useful) analysis of the seat to move's discards, best first (bots).
    pub fn discard_analysis(&self, seat: usize) -> Vec<(Tile, i8, u32)> {
        if self.phase != Phase::Turn || seat != self.to_act {
            return Vec::new();
        }
        let ctx = TableCtx {
            wall_empty: true,
            ..self.plain_ctx()
        };
        self.preset
            .turn(self, seat, None, WinType::SelfDraw, &ctx, true)
            .map(|t| t.opts.analysis)
            .unwrap_or_default()
    }

    /// Whether the seat holds `k` tiles of kind `t` (standing).
    pub fn held(&self, seat: usize, t: usize) -> u8 {
        self.seats[seat].counts.get(t).copied().unwrap_or(0)
    }

    /// Count of standing tiles of a seat.
    pub fn standing(&self, seat: usize) -> usize {
        self.seats[seat]
            .counts
            .iter()
            .map(|&c| usize::from(c))
            .sum()
    }

    /// Whether a pre-play phase is running.
    pub fn in_pre_phase(&self) -> bool {
        matches!(self.phase, Phase::Pre(_))
    }

    /// The pre-phase kinds still to come.
    pub fn pre_phases(&self) -> &[PrePhaseKind] {
        &self.pre
    }

    /// The number of tile kinds.
    pub const KINDS: usize = N_KINDS;
}

impl Carry {
    /// The carry as `flow::Carry` (without the 炮子).
    pub fn flow(&self) -> flow::Carry {
        flow::Carry {
            floor: self.floor,
            kai_bao: self.kai_bao,
            huang_fan: self.huang_fan,
        }
    }
}

impl HandResult {
    /// The result as JSON (without the wins and the ledger, which the table adds).
    pub fn to_json(&self) -> Value {
        json!({
            "winners": self.winners,
            "exhausted": self.exhausted,
            "balances": self.balances,
            "turns": self.turns,
            "discarder": self.discarder,
            "escaped": self.escaped,
            "next_dealer": self.next_dealer,
        })
    }
}

impl Mahjong {
    /// A 13-tile hand as the presets' settlements read it (`concealed` + `melds`).
    pub(crate) fn hand_json(&self, seat: usize) -> Value {
        let rec = self.win_json(seat, Tile::new_unchecked(0), WinType::Discard, None);
        json!({"concealed": rec["hand"]["concealed"], "melds": rec["hand"]["melds"]})
    }
}
