//! The mahjong family of the table engine: one hand (局) of any mahjong preset — 4, 3 or 2 seats.
//!
//! Wall (deterministic): the variant's tile set in index order ([`Variant::tile_set`]: four of each
//! kind, flowers once each) shuffled by CPython's `random.Random(seed).shuffle` ([`PyRandom`]).
//! Players draw from the front; kong and flower replacements come from the back. The dealer gets
//! 14 tiles, the others 13, dealt round-robin from the dealer (13 rounds, then the dealer's 14th);
//! a preset with `wall_subset` plays only the first `n` tiles and keeps the rest as the unused
//! pool. The table's own random choices (换三张 direction, 开宝 dice, 花牌 positions) come from
//! `random.Random(seed ^ 0x5EED)` in that order.
//!
//! Claims: after a discard every seat with a response is asked in claim order (from the
//! discarder's right, or from the dealer where the preset says so); once all have answered, wins
//! take priority (一炮多响 where the preset allows it, else 截胡: the first winner in claim order),
//! then kong/pung, then chow. Every rule decision comes from the core's queries
//! ([`crate::game::flow`], or the preset's own through [`PresetTable`]) and the table facts
//! ([`TableFacts`]).

mod phases;
mod play;
pub mod preset;

use std::sync::Arc;

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::game::action::{Action, ActionKind, Pieces};
use crate::game::event::Event;
use crate::game::facts::{PaoZi, PrePhaseKind, TableFacts};
use crate::game::flow::{Response, SeatState, TableCtx, WinOption};
use crate::game::rng::PyRandom;
use crate::hand::MeldKind;
use crate::scoring::ledger::Ledger;
use crate::situation::{KongKind, WinType};
use crate::tile::{N_KINDS, Tile};
use crate::variant::Variant;

pub use preset::{PresetTable, Turn};

/// Seat names of the ledger, in seat order.
pub const SEAT_NAMES: [&str; 8] = ["E", "S", "W", "N", "5", "6", "7", "8"];

/// What a hand carries into the next (and what it was played with).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carry {
    /// 上楼 floor (河北第4稿).
    pub floor: u32,
    /// Pending 开宝 / 黄番 (上海).
    pub kai_bao: u32,
    pub huang_fan: u32,
    /// Each seat's 下炮子 of the previous hand (陕西: this hand's defaults).
    pub pao_zi: Vec<i32>,
    /// A card game's carry in its own JSON form (斗地主 first bidder, 够级 tribute, 顶牛 …; see
    /// `game::cards`); `None` at mahjong and 字牌 tables.
    pub cards: Option<Value>,
}

impl Carry {
    /// The carry as the log's `start` record writes it (only what is set).
    pub fn to_json(&self) -> Value {
        let mut m = serde_json::Map::new();
        if self.floor > 0 {
            m.insert("floor".into(), json!(self.floor));
        }
        if self.kai_bao > 0 {
            m.insert("kai_bao".into(), json!(self.kai_bao));
        }
        if self.huang_fan > 0 {
            m.insert("huang_fan".into(), json!(self.huang_fan));
        }
        if self.pao_zi.iter().any(|&p| p != 0) {
            m.insert("pao_zi".into(), json!(self.pao_zi));
        }
        Value::Object(m)
    }

    /// Read a carry (keys `floor`, `kai_bao`, `huang_fan`, `pao_zi`; unknown keys refused) and
    /// check it against the variant.
    pub fn from_json(v: &Value, variant: &Variant, seats: usize) -> Result<Carry> {
        let Value::Object(m) = v else {
            return Err(Error::rule(format!("carry must be a mapping, got {v}")));
        };
        let mut c = Carry {
            pao_zi: vec![0; seats],
            ..Carry::default()
        };
        let pao_max = variant
            .preset()
            .params
            .get("pao_zi_max")
            .and_then(toml::Value::as_integer)
            .unwrap_or(0);
        let max_floor = variant
            .preset()
            .params
            .get("max_floor")
            .and_then(toml::Value::as_integer)
            .unwrap_or(0);
        for (k, x) in m {
            let int = |hi: i64| -> Result<u32> {
                x.as_i64()
                    .filter(|&i| (0..=hi).contains(&i) && !x.is_boolean())
                    .map(|i| i as u32)
                    .ok_or_else(|| {
                        Error::rule(format!(
                            "carry {k}: an int 0..{hi} for {}, got {x}",
                            variant.id()
                        ))
                    })
            };
            match k.as_str() {
                "floor" => c.floor = int(max_floor)?,
                "kai_bao" => c.kai_bao = int(20)?,
                "huang_fan" => c.huang_fan = int(20)?,
                "pao_zi" => {
                    let bad =
                        || Error::rule(format!("carry pao_zi: {seats} ints 0..{pao_max}, got {x}"));
                    let a = x.as_array().ok_or_else(bad)?;
                    if a.len() != seats {
                        return Err(bad());
                    }
                    c.pao_zi = a
                        .iter()
                        .map(|p| {
                            p.as_i64()
                                .filter(|&i| (0..=pao_max).contains(&i))
                                .map(|i| i as i32)
                                .ok_or_else(bad)
                        })
                        .collect::<Result<_>>()?;
                }
                other => {
                    return Err(Error::rule(format!(
                        "unknown carry key {other:?} (floor, kai_bao, huang_fan, pao_zi)"
                    )));
                }
            }
        }
        Ok(c)
    }
}

/// A kong made during the hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KongRec {
    pub owner: usize,
    pub kind: KongKind,
    pub tile: Tile,
    /// 直杠: the discarder; 补杠: the seat whose discard was 碰'd.
    pub feeder: Option<usize>,
    /// 杠上杠: the place of this kong in a chain (1 = a first kong).
    pub chain: u32,
    /// The index of the event log at which it was made.
    pub seq: usize,
}

/// A win taken.
#[derive(Clone, Debug)]
pub struct WinRec {
    pub seat: usize,
    pub tile: Tile,
    pub win_type: WinType,
    pub from: Option<usize>,
    /// The claim check's answer, with the preset score it was taken with.
    pub option: WinOption,
    /// The win as the preset's settlement reads it (hand, melds, situation flags).
    pub record: Value,
    /// 买码: the tile set aside after the win.
    pub mai_ma: Option<u8>,
    pub seq: usize,
}

/// The phase of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Pre(PrePhaseKind),
    Turn,
    Claim,
    Rob,
    /// 二人麻将 海底捞月.
    Haidi,
    Done,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Pre(k) => k.name(),
            Phase::Turn => "turn",
            Phase::Claim => "claim",
            Phase::Rob => "rob",
            Phase::Haidi => "haidi",
            Phase::Done => "done",
        }
    }
}

/// An open claim window on a discard (or an added kong).
#[derive(Clone, Debug)]
pub(crate) struct Claim {
    pub from: usize,
    pub tile: Tile,
    pub source: WinType,
    pub responses: Vec<Response>,
    /// Seats with a response, in claim order.
    pub pending: Vec<usize>,
    pub decided: Vec<Option<Action>>,
}

/// The kong just made (for 杠上开花 / 杠上炮), or a 武汉 痞子杠.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LastKong {
    Kong(KongKind),
    Pizi,
}

/// The result of a finished hand.
#[derive(Clone, Debug)]
pub struct HandResult {
    /// Winners, sorted, each once.
    pub winners: Vec<usize>,
    /// 荒庄 (no win).
    pub exhausted: bool,
    pub balances: Vec<i64>,
    /// Discards made.
    pub turns: u32,
    /// The discarder of the first discard win.
    pub discarder: Option<usize>,
    /// What the hand was played with (陕西: this hand's 炮子).
    pub carry: Carry,
    pub escaped: Option<usize>,
    /// The next dealer by the preset's rotation (`None` where it is drawn at random).
    pub next_dealer: Option<usize>,
    /// The next hand's carry.
    pub next_carry: Carry,
}

/// One hand of a mahjong preset.
#[derive(Debug)]
pub struct Mahjong {
    pub variant: Arc<Variant>,
    pub(crate) preset: Arc<dyn PresetTable>,
    pub facts: Arc<TableFacts>,
    pub n: usize,
    pub seed: i128,
    /// The table's own random choices: `random.Random(seed ^ 0x5EED)`, made when first needed.
    rng: Option<PyRandom>,
    pub dealer: usize,
    pub prevalent: Tile,
    pub wall: Vec<u8>,
    pub head: usize,
    pub tail: usize,
    /// Tiles outside the wall still in the box (二人麻将: the 65 unused).
    pub pool: Vec<u8>,
    /// Scenario set-up: live-wall tiles set aside (never drawn).
    pub set_aside: Vec<u8>,
    pub n_tiles: usize,
    pub seats: Vec<SeatState>,
    pub flowers: Vec<Vec<u8>>,
    pub discards: Vec<Vec<u8>>,
    pub won_tiles: Vec<Vec<u8>>,
    pub win_count: Vec<u32>,
    pub wins: Vec<WinRec>,
    pub kongs: Vec<KongRec>,
    pub(crate) lock_tiles: Vec<u64>,
    pub(crate) pass_value: Vec<Option<i64>>,
    pub phase: Phase,
    pub to_act: usize,
    pub last_discard: Option<u8>,
    pub turns: u32,
    pub drawn: Option<u8>,
    pub(crate) win_type: WinType,
    pub(crate) last_kong: Option<LastKong>,
    pub(crate) turn: Turn,
    /// The discards with which the seat to move may declare a ready hand.
    pub(crate) ready_cache: Vec<Tile>,
    pub(crate) claim: Option<Claim>,
    pub(crate) pre: Vec<PrePhaseKind>,
    pub(crate) pre_changed: bool,
    pub(crate) pre_done: Vec<bool>,
    pub(crate) picked: Vec<Vec<u8>>,
    pub(crate) drawn_once: Vec<bool>,
    pub(crate) claim_made: bool,
    pub auto: Vec<bool>,
    pub escaped: Option<usize>,
    pub(crate) first_discards: Option<Vec<(usize, Tile)>>,
    pub gen_zhuang: bool,
    pub carry: Carry,
    pub pao_zi: Option<Vec<i32>>,
    pub piao: Vec<Option<i32>>,
    /// Seats in the order they declared (报听 / 亮倒).
    pub declared: Vec<usize>,
    /// 亮倒 waits of each declared seat.
    pub waits: Vec<Vec<Tile>>,
    pub(crate) revealed: Vec<bool>,
    pub(crate) chain: u32,
    /// 买码 tiles set aside.
    pub aside: Vec<u8>,
    pub forced_end: Option<usize>,
    // 二人麻将 花牌 and 海底捞月
    pub(crate) hua_pos: Vec<bool>,
    pub hua: Vec<[u8; N_KINDS]>,
    pub(crate) offer_hua: bool,
    pub(crate) ready_since: Vec<Option<u32>>,
    pub tian: Vec<bool>,
    pub(crate) haidi_seat: usize,
    pub(crate) haidi_left: usize,
    // 武汉
    pub indicator: Option<u8>,
    pub laizi: Option<u8>,
    pub pizi_tiles: Vec<Vec<u8>>,
    /// Per seat: 痞子杠, 癞子杠 made.
    pub pizi_kongs: Vec<[u8; 2]>,
    pub(crate) haidi_count: usize,
    /// A 海底 draw of the current turn (武汉).
    pub haidi: bool,
    pub(crate) ledger: Option<Ledger>,
    pub events: Vec<Event>,
    pub result: Option<HandResult>,
    /// Bumped on every change of state (caches of legal actions key on it).
    pub version: u64,
}

/// How a table is set up.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub seed: i128,
    pub dealer: usize,
    /// 0..4: E S W N.
    pub prevalent_wind: u8,
    /// A custom wall: a permutation of the variant's tile set (scenarios, tests).
    pub wall: Option<Vec<u8>>,
    pub carry: Option<Carry>,
    /// The variant's switches as the log writes them (computed when absent).
    pub options: Option<Arc<Value>>,
}

impl Mahjong {
    /// A new hand: the wall from the seed (or `setup.wall`), the deal, and the first decision.
    pub fn new(
        variant: Arc<Variant>,
        preset: Arc<dyn PresetTable>,
        facts: Arc<TableFacts>,
        setup: Setup,
    ) -> Result<Mahjong> {
        let n = facts.seats;
        if setup.dealer >= n || setup.prevalent_wind >= 4 {
            return Err(Error::rule(format!(
                "dealer is a seat index 0..{} and prevalent_wind a wind index 0..3",
                n - 1
            )));
        }
        let set: Vec<u8> = variant.tile_set()?.iter().map(|t| t.index()).collect();
        let wall = match &setup.wall {
            Some(w) => {
                let mut a = w.clone();
                let mut b = set.clone();
                a.sort_unstable();
                b.sort_unstable();
                if a != b {
                    return Err(Error::rule(format!(
                        "wall: not the {} tile set ({} tiles given, {} in the set)",
                        variant.id(),
                        w.len(),
                        set.len()
                    )));
                }
                w.clone()
            }
            None => {
                let mut w = set;
                PyRandom::new(setup.seed).shuffle(&mut w);
                w
            }
        };
        let carry = match setup.carry.clone() {
            Some(c) => {
                if c.pao_zi.len() != n {
                    return Err(Error::rule(format!("carry pao_zi: {n} ints")));
                }
                c
            }
            None => Carry {
                pao_zi: vec![0; n],
                ..Carry::default()
            },
        };
        let pao_zi = match facts.pao_zi {
            PaoZi::None => None,
            PaoZi::Fixed(p) => Some(vec![p; n]),
            PaoZi::Free { .. } => Some(carry.pao_zi.clone()),
        };
        let winds = [Tile::E, Tile::S, Tile::W, Tile::N];
        let seats = (0..n)
            .map(|s| SeatState {
                counts: [0; N_KINDS],
                melds: Vec::new(),
                active: true,
                void_suit: None,
                win_locked: false,
                hand_locked: false,
                flowers: 0,
                seat_wind: winds[(s + n - setup.dealer) % n % 4],
                dealer: s == setup.dealer,
            })
            .collect();
        let ledger = Ledger::new(
            (0..n).map(|k| SEAT_NAMES[k].to_string()).collect(),
            preset.ledger_rules(),
        )?;
        let len = wall.len();
        let mut t = Mahjong {
            variant,
            preset,
            n,
            seed: setup.seed,
            rng: None,
            dealer: setup.dealer,
            prevalent: winds[usize::from(setup.prevalent_wind)],
            wall,
            head: 0,
            tail: len,
            pool: Vec::new(),
            set_aside: Vec::new(),
            n_tiles: len,
            seats,
            flowers: vec![Vec::new(); n],
            discards: vec![Vec::new(); n],
            won_tiles: vec![Vec::new(); n],
            win_count: vec![0; n],
            wins: Vec::new(),
            kongs: Vec::new(),
            lock_tiles: vec![0; n],
            pass_value: vec![None; n],
            phase: Phase::Turn,
            to_act: setup.dealer,
            last_discard: None,
            turns: 0,
            drawn: None,
            win_type: WinType::SelfDraw,
            last_kong: None,
            turn: Turn::default(),
            ready_cache: Vec::new(),
            claim: None,
            pre: Vec::new(),
            pre_changed: false,
            pre_done: vec![false; n],
            picked: vec![Vec::new(); n],
            drawn_once: vec![false; n],
            claim_made: false,
            auto: vec![false; n],
            escaped: None,
            first_discards: Some(Vec::new()),
            gen_zhuang: false,
            carry,
            pao_zi,
            piao: vec![None; n],
            declared: Vec::new(),
            waits: vec![Vec::new(); n],
            revealed: vec![false; n],
            chain: 0,
            aside: Vec::new(),
            forced_end: None,
            hua_pos: Vec::new(),
            hua: vec![[0; N_KINDS]; n],
            offer_hua: false,
            ready_since: vec![None; n],
            tian: vec![false; n],
            haidi_seat: 0,
            haidi_left: 0,
            indicator: None,
            laizi: None,
            pizi_tiles: vec![Vec::new(); n],
            pizi_kongs: vec![[0, 0]; n],
            haidi_count: 0,
            haidi: false,
            ledger: Some(ledger),
            events: Vec::with_capacity(256),
            result: None,
            version: 0,
            facts,
        };
        // Resting seats (卡五星 4 seated): the seats before the dealer sit this hand out.
        for i in t.facts.playing..n {
            let s = (t.dealer + i) % n;
            t.seats[s].active = false;
        }
        t.events.push(Event::Start {
            variant: t.variant.id().to_string(),
            options: setup
                .options
                .clone()
                .unwrap_or_else(|| Arc::new(options_json(&t.variant))),
            seed: t.seed,
            dealer: t.dealer as u8,
            prevalent_wind: setup.prevalent_wind,
            wall: setup.wall.clone(),
            carry: setup.carry.as_ref().map(Carry::to_json),
            set_aside: 0,
            position: None,
        });
        if t.facts.opening_dice {
            let d1 = t.rng().randint(1, 6) as u8;
            let d2 = t.rng().randint(1, 6) as u8;
            t.carry.kai_bao += crate::game::flow::kai_bao(&t.variant, (d1, d2))?;
            t.events.push(Event::Dice {
                dice: [d1, d2],
                kai_bao: t.carry.kai_bao,
            });
        }
        if let Some(k) = t.facts.wall_subset {
            let k = k.min(t.wall.len());
            t.pool = t.wall.split_off(k);
            t.tail = t.wall.len();
        }
        if t.facts.hua_pai > 0 {
            let len = t.wall.len();
            let k = t.facts.hua_pai.min(len);
            let pos = t.rng().sample_range(len, k);
            t.hua_pos = vec![false; len];
            let mut tiles: Vec<u8> = pos.iter().map(|&p| t.wall[p]).collect();
            for p in pos {
                t.hua_pos[p] = true;
            }
            tiles.sort_unstable();
            t.events.push(Event::HuaPai { tiles });
        }
        t.deal()?;
        Ok(t)
    }

    /// Scenario set-up before the first decision: the last `n` tiles of the live wall are set
    /// aside (never drawn), as if the hand were that far on. Logged in the `start` record.
    pub fn set_aside(&mut self, n: usize) -> Result<()> {
        if self.turns > 0 || self.events.iter().any(|e| matches!(e, Event::Action(_))) {
            return Err(Error::rule("set_aside: only before the first decision"));
        }
        if n > self.wall_remaining() {
            return Err(Error::rule(format!(
                "set_aside: {n} tiles, only {} left in the wall",
                self.wall_remaining()
            )));
        }
        for _ in 0..n {
            self.tail -= 1;
            self.set_aside.push(self.wall[self.tail]);
        }
        if let Some(Event::Start { set_aside, .. }) = self.events.first_mut() {
            *set_aside += n;
        }
        // The seat to move sees the shorter wall.
        if self.phase == Phase::Turn {
            let (seat, drawn) = (self.to_act, self.drawn.map(Tile::new_unchecked));
            let wt = self.win_type;
            self.drawn_once[seat] = false; // no decision was made: still the seat's first turn
            self.start_turn(seat, drawn, wt)?;
        }
        self.version += 1;
        Ok(())
    }

    pub fn pieces(&self) -> Pieces {
        Pieces::Tiles
    }

    /// The table's generator (created on first use: most hands never need it).
    pub(crate) fn rng(&mut self) -> &mut PyRandom {
        let seed = self.seed;
        self.rng.get_or_insert_with(|| PyRandom::new(seed ^ 0x5EED))
    }

    pub fn wall_remaining(&self) -> usize {
        self.tail - self.head
    }

    /// Tiles that stay undrawn: the 荒庄 reserve (growing with the kongs made) or the dead wall
    /// and the 海底 draws.
    fn reserve(&self) -> usize {
        if !self.facts.reserve_stacks.is_empty() {
            let s = &self.facts.reserve_stacks;
            return 2 * s[self.kongs.len().min(s.len() - 1)];
        }
        self.facts.dead_wall + self.facts.haidi_draws
    }

    /// Tiles that may still be drawn in turn.
    pub fn live_remaining(&self) -> usize {
        self.wall_remaining().saturating_sub(self.reserve())
    }

    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    pub fn to_act(&self) -> Option<usize> {
        (!self.is_done()).then_some(self.to_act)
    }

    pub fn ledger(&self) -> &Ledger {
        self.ledger.as_ref().expect("the ledger is always put back")
    }

    /// Every tile accounted for: wall + pool + hands + melds + rivers + flowers + won tiles + a
    /// tile being robbed or passed + tiles set aside; equals `n_tiles` after every step.
    pub fn tile_count(&self) -> usize {
        let mut c =
            self.wall_remaining() + self.pool.len() + self.set_aside.len() + self.aside.len();
        for (k, s) in self.seats.iter().enumerate() {
            c += s.counts.iter().map(|&x| usize::from(x)).sum::<usize>();
            c += s
                .melds
                .iter()
                .map(|(m, _)| if m.kind == MeldKind::Kong { 4 } else { 3 })
                .sum::<usize>();
            c += self.discards[k].len() + self.flowers[k].len() + self.won_tiles[k].len();
            c += self.pizi_tiles[k].len() + self.picked[k].len();
        }
        if self.phase == Phase::Rob && self.claim.is_some() {
            c += 1;
        }
        c + usize::from(self.indicator.is_some())
    }

    /// Tiles in play that the wall started with (`n_tiles` minus the pool at the start).
    pub fn total_tiles(&self) -> usize {
        self.n_tiles
    }

    // ------------------------------------------------------------------ wall

    fn take(&mut self, from_back: bool) -> Option<(u8, usize)> {
        if self.head >= self.tail {
            return None;
        }
        if from_back {
            self.tail -= 1;
            Some((self.wall[self.tail], self.tail))
        } else {
            self.head += 1;
            Some((self.wall[self.head - 1], self.head - 1))
        }
    }

    /// Draw for `seat` (flowers replaced from the back); `None` when the wall is empty.
    fn draw(&mut self, seat: usize, mut from_back: bool) -> Option<u8> {
        loop {
            let (t, pos) = self.take(from_back)?;
            if t >= N_KINDS as u8 {
                self.flowers[seat].push(t);
                self.seats[seat].flowers = self.flowers[seat].len().min(8) as u8;
                self.events.push(Event::Flower {
                    seat: seat as u8,
                    tile: t,
                });
                from_back = true;
                continue;
            }
            self.seats[seat].counts[usize::from(t)] += 1;
            if !self.hua_pos.is_empty() {
                self.offer_hua = false;
                if self.hua_pos.get(pos).copied().unwrap_or(false) {
                    self.hua[seat][usize::from(t)] += 1;
                }
            }
            return Some(t);
        }
    }

    fn deal(&mut self) -> Result<()> {
        let (d_deal, o_deal) = self.facts.deal;
        let rounds = o_deal.min(d_deal);
        for _ in 0..rounds {
            for k in 0..self.n {
                let s = (self.dealer + k) % self.n;
                if !self.seats[s].active {
                    continue;
                }
                if self.draw(s, false).is_none() {
                    return Err(Error::rule("the wall is too short to deal"));
                }
            }
        }
        let mut last = None;
        for _ in rounds..d_deal {
            last = self.draw(self.dealer, false);
            if last.is_none() {
                return Err(Error::rule("the wall is too short to deal"));
            }
        }
        self.events.push(Event::Deal {
            wall_remaining: self.wall_remaining(),
        });
        self.pre = self.facts.pre_phases.clone();
        self.drawn = last;
        if self.facts.wild_flip {
            let (t, _) = self
                .take(false)
                .ok_or_else(|| Error::rule("the wall is too short to flip the indicator"))?;
            let laizi = self.preset.wildcard(self, Tile::new_unchecked(t))?.index();
            self.indicator = Some(t);
            self.laizi = Some(laizi);
            self.events.push(Event::Flip { tile: t, laizi });
        }
        if self.pre.is_empty() {
            self.start_turn(
                self.dealer,
                last.map(Tile::new_unchecked),
                WinType::SelfDraw,
            )
        } else {
            self.start_pre();
            Ok(())
        }
    }

    pub(crate) fn next_active(&self, seat: usize) -> Option<usize> {
        (1..=self.n)
            .map(|k| (seat + k) % self.n)
            .find(|&s| self.seats[s].active)
    }

    /// The scoring flower counts (二人麻将: the face-up 花牌 held; `claim`: plus the discard on
    /// offer when it is one).
    pub(crate) fn refresh_flowers(&mut self, claim: bool) {
        if self.hua_pos.is_empty() {
            return;
        }
        for k in 0..self.n {
            let base: u32 = self.hua[k].iter().map(|&x| u32::from(x)).sum();
            let extra = u32::from(claim && self.offer_hua);
            self.seats[k].flowers = (base + extra).min(8) as u8;
        }
    }

    /// Table facts of one query.
    pub(crate) fn ctx(&self, wall_last: bool, wall_empty: bool, first_turn: bool) -> TableCtx {
        let mut forbidden = 0u64;
        if let Some(d) = &self.facts.declaration {
            if d.reveal {
                for &s in &self.declared {
                    for w in &self.waits[s] {
                        forbidden |= 1u64 << w.idx();
                    }
                }
            }
        }
        let mut ready_first = 0u8;
        for (k, &t) in self.tian.iter().enumerate() {
            if t && k < 8 {
                ready_first |= 1 << k;
            }
        }
        TableCtx {
            prevalent_wind: self.prevalent,
            wall_last,
            wall_empty,
            last_kong: match self.last_kong {
                Some(LastKong::Kong(k)) => Some(k),
                _ => None,
            },
            wall_remaining: self.live_remaining() as u32,
            first_turn,
            after_exhaustion: false,
            forbidden_discards: forbidden,
            ready_first_turn: ready_first,
            pending_kai_bao: self.carry.kai_bao,
            pending_huang_fan: self.carry.huang_fan,
        }
    }

    /// The seat's standing tiles as a list of codes.
    pub fn hand_tiles(&self, seat: usize) -> Vec<u8> {
        let c = &self.seats[seat].counts;
        (0..N_KINDS as u8)
            .flat_map(|k| std::iter::repeat_n(k, usize::from(c[usize::from(k)])))
            .collect()
    }

    /// The action record of the log for a decision.
    fn log_action(&mut self, a: &Action) {
        self.events.push(Event::Action(a.clone()));
    }
}

/// Every switch of the variant as JSON (the `start` record's `options`).
pub fn options_json(v: &Variant) -> Value {
    let mut m = serde_json::Map::new();
    for (k, x) in v.options().iter() {
        m.insert(k.clone(), serde_json::to_value(x).unwrap_or(Value::Null));
    }
    Value::Object(m)
}

/// The winds: 0..4 → E S W N.
pub fn wind_tile(i: u8) -> Tile {
    [Tile::E, Tile::S, Tile::W, Tile::N][usize::from(i % 4)]
}

/// A wall that deals `hands[k]` (13 tiles, the dealer 14) to seat `k` and then yields `draws`
/// from the front; the other tiles follow in index order (scenarios, tests).
pub fn arrange_wall(
    variant: &Variant,
    seats: usize,
    hands: &[Vec<Tile>],
    draws: &[Tile],
    dealer: usize,
) -> Result<Vec<u8>> {
    let full = variant.tile_set()?;
    let mut pool = [0i32; 42];
    for t in &full {
        pool[t.idx()] += 1;
    }
    if hands.len() != seats || dealer >= seats {
        return Err(Error::rule(format!(
            "arrange_wall: {seats} hands, 13 tiles each and 14 for the dealer"
        )));
    }
    for (k, h) in hands.iter().enumerate() {
        let want = if k == dealer { 14 } else { 13 };
        if !(h.len() == want || h.is_empty()) {
            return Err(Error::rule(format!(
                "arrange_wall: {seats} hands, 13 tiles each and 14 for the dealer (seat {k} has {})",
                h.len()
            )));
        }
    }
    let mut order: Vec<u8> = Vec::with_capacity(full.len());
    for r in 0..13 {
        for k in 0..seats {
            if let Some(t) = hands[(dealer + k) % seats].get(r) {
                order.push(t.index());
            }
        }
    }
    if let Some(t) = hands[dealer].get(13) {
        order.push(t.index());
    }
    order.extend(draws.iter().map(|t| t.index()));
    for &t in &order {
        pool[usize::from(t)] -= 1;
        if pool[usize::from(t)] < 0 {
            return Err(Error::rule(format!(
                "arrange_wall: too many {}",
                Tile::new_unchecked(t)
            )));
        }
    }
    for (t, &c) in pool.iter().enumerate() {
        for _ in 0..c {
            order.push(t as u8);
        }
    }
    Ok(order)
}

/// Legal-action helpers shared by the phases.
pub(crate) fn act(kind: ActionKind, seat: usize, tile: Tile) -> Action {
    Action::tile(kind, seat as u8, tile.index())
}
