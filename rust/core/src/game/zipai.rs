//! The 字牌 family of the table engine: one hand for 3 seats (spec `shared/rules/zipai.md` §3,
//! §5), on the same protocol as mahjong.
//!
//! Deck: the 80 cards in index order (`x1`..`x10`, `d1`..`d10`, four each) and the switch's
//! jokers, shuffled by `random.Random(seed).shuffle` ([`PyRandom`]). The dealer takes 21 cards,
//! the others 20, in seat order from the dealer; 挡底 is the dealer's 21st card. A seat dealt more
//! than one four takes one extra card per extra four.
//!
//! Every rule decision comes from `rules::zipai`: [`claims_with`] (what a seat may / must do with a
//! card), [`discard_check`] (legal discards and 相公), the 胡息 of a hand, [`score`] (the
//! settlement of a win) and [`next_dealer`]. The table orders the claims (扫穿/扫 > 胡 > 开舵/碰 >
//! 吃, the drawer or the discarder's 下家 first), asks the seats one at a time, and keeps the
//! 臭牌 / passed-碰 bookkeeping and the card locations.

use std::collections::VecDeque;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::preset::SwitchValue;
use crate::rules::zipai::{
    self as zr, Card, Chou, Claims, HandSpec, Meld, MeldType, WinSource, ZipaiRules,
    ZipaiSituation, claims_with, discard_check,
};
use crate::scoring::ledger::{Ledger, SettlementRules};
use crate::variant::Variant;

use super::action::{Action, ActionKind, JOKER, Pieces};
use super::event::Event;
use super::mahjong::options_json;
use super::rng::PyRandom;

/// Card kinds plus the joker slot.
pub const N_CODES: usize = 21;
const N_SEATS: usize = 3;

/// The name of a meld type in the log and the observation.
pub fn meld_name(t: MeldType) -> &'static str {
    match t {
        MeldType::Chi => "chi",
        MeldType::Peng => "peng",
        MeldType::Sao => "sao",
        MeldType::GuoSao => "guosao",
        MeldType::KaiDuo => "kaiduo",
        MeldType::SaoChuan => "saochuan",
        MeldType::Kan => "kan",
    }
}

/// One seat of a 字牌 table.
#[derive(Clone, Debug, Default)]
pub struct Player {
    /// Concealed cards (坎 and dealt 扫穿 included) by code; `hand[20]` = jokers.
    pub hand: [u8; N_CODES],
    pub melds: Vec<Meld>,
    /// Kinds 臭 for 吃 / 碰 / either (bit per card).
    pub chou: u32,
    pub chou_chi: u32,
    pub chou_peng: u32,
    /// Kinds whose 碰 the seat passed.
    pub passed_peng: u32,
    /// 4-card groups made or dealt (重舵: the second and later skip the discard).
    pub fours: u32,
    /// Untaken drawn / discarded cards placed in front of him.
    pub river: Vec<u8>,
    /// 相公: no further claims or wins.
    pub dead: bool,
}

impl Player {
    /// Concealed cards in kind order (jokers not included).
    pub fn concealed(&self) -> Vec<Card> {
        (0..20u8)
            .flat_map(|k| std::iter::repeat_n(k, usize::from(self.hand[usize::from(k)])))
            .filter_map(Card::from_index)
            .collect()
    }
    fn bits(mask: u32) -> Vec<Card> {
        (0..20u8)
            .filter(|&k| mask & (1 << k) != 0)
            .filter_map(Card::from_index)
            .collect()
    }
    /// The hand as the rule queries read it.
    fn spec(&self, win: Option<Card>, source: WinSource) -> HandSpec {
        HandSpec {
            concealed: self.concealed(),
            win,
            melds: self.melds.clone(),
            source: Some(source),
            passed_peng: Player::bits(self.passed_peng),
            jokers: self.hand[usize::from(JOKER)],
        }
    }
    pub fn n_cards(&self) -> usize {
        self.hand.iter().map(|&c| usize::from(c)).sum::<usize>()
            + self.melds.iter().map(|m| m.cards.len()).sum::<usize>()
            + self.river.len()
    }
}

/// 放炮必胡 / forced wins (switch `bi_hu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BiHu {
    Dianpao,
    Any,
    None,
}

/// Where a paused flow resumes once the seat asked has answered.
#[derive(Clone, Debug)]
enum Cont {
    Tianhu,
    Discard {
        seat: usize,
    },
    DiscardHu {
        d: usize,
        card: u8,
        wt: zr::WinType,
        idx: usize,
        cl: Vec<Claims>,
    },
    DiscardPeng {
        d: usize,
        card: u8,
        idx: usize,
        cl: Vec<Claims>,
    },
    DiscardChi {
        d: usize,
        card: u8,
    },
    DrawOwnHu {
        seat: usize,
        card: u8,
        own: Claims,
    },
    DrawHu {
        seat: usize,
        card: u8,
        idx: usize,
        cl: Vec<Claims>,
    },
    DrawPeng {
        seat: usize,
        card: u8,
        idx: usize,
        cl: Vec<Claims>,
    },
    DrawChi {
        seat: usize,
        card: u8,
        idx: usize,
        cl: Vec<Claims>,
    },
    Joker {
        seat: usize,
    },
}

/// What to do next in the flow.
enum Next {
    Draw(usize),
    Discard(usize),
    Ask,
    Done,
}

/// The result of a 字牌 hand.
#[derive(Clone, Debug)]
pub struct ZipaiResult {
    pub winner: Option<usize>,
    pub exhausted: bool,
    pub balances: Vec<i64>,
    pub payments: Vec<(u8, u8, i64)>,
    pub win_type: Option<&'static str>,
    pub huxi: Option<i32>,
    pub duo: Option<i64>,
    pub turns: u32,
    pub next_dealer: usize,
}

/// Where a scenario starts (tests, analysis): the seat draws the top card, or discards a card.
#[derive(Clone, Debug)]
pub enum PositionStart {
    Draw(usize),
    Discard(usize, u8),
}

/// A mid-hand position (see [`Zipai::from_position`]).
#[derive(Clone, Debug)]
pub struct Position {
    pub hands: Vec<Vec<u8>>,
    pub melds: Vec<Vec<Meld>>,
    pub wall: Vec<u8>,
    pub start: PositionStart,
}

/// One hand of 字牌.
#[derive(Debug)]
pub struct Zipai {
    pub variant: Arc<Variant>,
    pub seed: i128,
    pub dealer: usize,
    pub wall: VecDeque<u8>,
    pub players: Vec<Player>,
    pub in_play: Option<u8>,
    first_discard: bool,
    /// A table built from a position (card counts not checked).
    pub position: bool,
    bi_hu: BiHu,
    must_win_on_draw: bool,
    chou_both: bool,
    ask: Option<(usize, Vec<Action>, Cont)>,
    pub events: Vec<Event>,
    pub result: Option<ZipaiResult>,
    ledger: Ledger,
    /// Cards in the deck, by code.
    pub deck: [u8; N_CODES],
    pub turns: u32,
    pub version: u64,
}

fn code(c: Card) -> u8 {
    c.index()
}

fn card(x: u8) -> Card {
    Card::from_index(x.min(19)).unwrap_or_else(|| Card::from_index(0).expect("card 0"))
}

impl Zipai {
    fn rules(&self) -> &ZipaiRules {
        crate::rules::zipai::rules_of(&self.variant)
            .expect("a 字牌 variant (checked when the table was made)")
    }

    fn blank(variant: Arc<Variant>, seed: i128, dealer: usize) -> Result<Zipai> {
        let r = crate::rules::zipai::rules_of(&variant)?;
        if dealer >= N_SEATS {
            return Err(Error::rule(format!("dealer must be 0..2, got {dealer}")));
        }
        let o = variant.options();
        let bi_hu = match o.get("bi_hu") {
            Some(SwitchValue::Str(s)) if s == "any" => BiHu::Any,
            Some(SwitchValue::Str(s)) if s == "none" => BiHu::None,
            _ => BiHu::Dianpao,
        };
        let must_win_on_draw = matches!(o.get("must_win_on_draw"), Some(SwitchValue::Bool(true)))
            || bi_hu == BiHu::Any;
        let chou_both =
            !matches!(o.get("chou_scope"), Some(SwitchValue::Str(s)) if s == "per_action");
        let mut deck = [4u8; N_CODES];
        deck[usize::from(JOKER)] = r.jokers;
        let ledger = Ledger::new(
            (0..N_SEATS).map(|k| k.to_string()).collect(),
            SettlementRules {
                base: 1,
                ..SettlementRules::default()
            },
        )?;
        Ok(Zipai {
            variant,
            seed,
            dealer,
            wall: VecDeque::new(),
            players: vec![Player::default(); N_SEATS],
            in_play: None,
            first_discard: true,
            position: false,
            bi_hu,
            must_win_on_draw,
            chou_both,
            ask: None,
            events: Vec::with_capacity(128),
            result: None,
            ledger,
            deck,
            turns: 0,
            version: 0,
        })
    }

    /// A new hand dealt from the seed (or a custom `wall`: a permutation of the deck).
    pub fn new(
        variant: Arc<Variant>,
        seed: i128,
        dealer: usize,
        wall: Option<Vec<u8>>,
        options: Option<Arc<Value>>,
    ) -> Result<Zipai> {
        let mut t = Zipai::blank(variant, seed, dealer)?;
        let mut deck: Vec<u8> = (0..20u8).flat_map(|k| [k; 4]).collect();
        deck.extend(std::iter::repeat_n(
            JOKER,
            usize::from(t.deck[usize::from(JOKER)]),
        ));
        let w = match &wall {
            Some(w) => {
                let (mut a, mut b) = (w.clone(), deck.clone());
                a.sort_unstable();
                b.sort_unstable();
                if a != b {
                    return Err(Error::rule(format!(
                        "wall: not the {} deck ({} cards given, {} in the deck)",
                        t.variant.id(),
                        w.len(),
                        deck.len()
                    )));
                }
                w.clone()
            }
            None => {
                PyRandom::new(seed).shuffle(&mut deck);
                deck
            }
        };
        t.wall = w.into();
        t.events.push(Event::Start {
            variant: t.variant.id().to_string(),
            options: options.unwrap_or_else(|| Arc::new(options_json(&t.variant))),
            seed,
            dealer: dealer as u8,
            prevalent_wind: 0,
            wall,
            carry: None,
            set_aside: 0,
            position: None,
        });
        t.deal()?;
        Ok(t)
    }

    /// A table in the middle of a hand: concealed `hands` and `melds` per seat and the remaining
    /// `wall` (top first); play starts with `start`. Card counts are not checked against the deck.
    pub fn from_position(variant: Arc<Variant>, dealer: usize, pos: Position) -> Result<Zipai> {
        let mut t = Zipai::blank(variant, 0, dealer)?;
        if pos.hands.len() != N_SEATS || pos.melds.len() != N_SEATS {
            return Err(Error::rule(
                "a 字牌 position needs 3 hands and 3 meld lists",
            ));
        }
        for (s, h) in pos.hands.iter().enumerate() {
            let p = &mut t.players[s];
            for &c in h {
                if usize::from(c) >= N_CODES {
                    return Err(Error::hand(format!("card code {c}")));
                }
                p.hand[usize::from(c)] += 1;
            }
            p.melds = pos.melds[s].clone();
            p.fours = (p.melds.iter().filter(|m| m.cards.len() == 4).count()
                + p.hand[..20].iter().filter(|&&c| c == 4).count()) as u32;
        }
        t.wall = pos.wall.iter().copied().collect();
        t.first_discard = false;
        t.position = true;
        // the deck of a position is what it holds
        t.deck = [0; N_CODES];
        for c in t.card_positions() {
            t.deck[usize::from(c)] += 1;
        }
        let hands: Vec<Value> = (0..N_SEATS).map(|s| t.seat_json(s)).collect();
        let start = match &pos.start {
            PositionStart::Draw(s) => json!({"draw": s}),
            PositionStart::Discard(s, c) => json!({"discard": s, "tile": Pieces::Cards.name(*c)}),
        };
        t.events.push(Event::Start {
            variant: t.variant.id().to_string(),
            options: Arc::new(options_json(&t.variant)),
            seed: 0,
            dealer: dealer as u8,
            prevalent_wind: 0,
            wall: None,
            carry: None,
            set_aside: 0,
            position: Some(json!({
                "hands": hands,
                "wall": pos.wall.iter().map(|&c| Pieces::Cards.name(c)).collect::<Vec<_>>(),
                "start": start,
            })),
        });
        let next = match pos.start {
            PositionStart::Draw(s) if s < N_SEATS => Next::Draw(s),
            PositionStart::Discard(s, c) if s < N_SEATS => {
                let h = t.players[s].hand.get(usize::from(c)).copied().unwrap_or(0);
                if !(1..3).contains(&h) {
                    return Err(Error::rule(format!(
                        "seat {s} cannot discard {}",
                        Pieces::Cards.name(c)
                    )));
                }
                t.players[s].hand[usize::from(c)] -= 1;
                t.in_play = Some(c);
                t.turns += 1;
                t.events.push(Event::Zipai {
                    name: "discard",
                    seat: s as u8,
                    tile: Some(c),
                });
                t.offer_discard(s, c, zr::WinType::Discard)?
            }
            _ => return Err(Error::rule("position start: a seat 0..2")),
        };
        t.run(next)?;
        Ok(t)
    }

    fn seat_json(&self, s: usize) -> Value {
        let p = &self.players[s];
        let mut hand: Vec<String> = p.concealed().iter().map(ToString::to_string).collect();
        hand.extend(std::iter::repeat_n(
            "K".to_string(),
            usize::from(p.hand[usize::from(JOKER)]),
        ));
        json!({
            "hand": hand,
            "melds": p.melds.iter().map(|m| json!({"type": meld_name(m.ty), "tiles": m.cards.iter().map(ToString::to_string).collect::<Vec<_>>()})).collect::<Vec<_>>(),
        })
    }

    fn deal(&mut self) -> Result<()> {
        let mut dangdi = 0u8;
        for k in 0..N_SEATS {
            let s = (self.dealer + k) % N_SEATS;
            let n = if s == self.dealer { 21 } else { 20 };
            for i in 0..n {
                let c = self
                    .wall
                    .pop_front()
                    .ok_or_else(|| Error::rule("the deck is too short to deal"))?;
                if s == self.dealer && i == n - 1 {
                    dangdi = c;
                }
                self.players[s].hand[usize::from(c)] += 1;
            }
        }
        for s in 0..N_SEATS {
            let fours = self.players[s].hand[..20]
                .iter()
                .filter(|&&c| c == 4)
                .count() as u32;
            self.players[s].fours = fours;
            let mut tiles: Vec<u8> = self.players[s]
                .concealed()
                .iter()
                .map(|&c| code(c))
                .collect();
            tiles.extend(std::iter::repeat_n(
                JOKER,
                usize::from(self.players[s].hand[usize::from(JOKER)]),
            ));
            self.events.push(Event::DealCards {
                seat: s as u8,
                tiles,
            });
            for _ in 0..fours.saturating_sub(1) {
                let c = self
                    .wall
                    .pop_front()
                    .ok_or_else(|| Error::rule("the deck is too short"))?;
                self.players[s].hand[usize::from(c)] += 1;
                self.events.push(Event::Zipai {
                    name: "extra_card",
                    seat: s as u8,
                    tile: Some(c),
                });
            }
        }
        self.events.push(Event::Zipai {
            name: "dangdi",
            seat: self.dealer as u8,
            tile: Some(dangdi),
        });
        if self.rules().sanlong_wukan {
            for k in 0..N_SEATS {
                let s = (self.dealer + k) % N_SEATS;
                let mut c = [0u8; 20];
                c.copy_from_slice(&self.players[s].hand[..20]);
                if zr::is_sanlong_wukan(&c) {
                    self.events.push(Event::Zipai {
                        name: "sanlong_wukan",
                        seat: s as u8,
                        tile: None,
                    });
                    return self.win(s, None, zr::WinType::Sanlong, None);
                }
            }
        }
        let d = self.dealer;
        let spec = self.players[d].spec(None, WinSource::Deal);
        let h = zr::best_huxi(self.rules(), &spec)?;
        if h.is_some_and(|h| h >= self.rules().min_huxi) {
            self.ask_hu(d, None, Cont::Tianhu);
            return Ok(());
        }
        let next = self.discard(d)?;
        self.run(next)
    }

    // ------------------------------------------------------------------ protocol

    pub fn is_done(&self) -> bool {
        self.result.is_some()
    }

    pub fn to_act(&self) -> Option<usize> {
        self.ask.as_ref().map(|a| a.0)
    }

    pub fn legal_actions(&self, seat: usize) -> Vec<Action> {
        match &self.ask {
            Some((s, legal, _)) if *s == seat => legal.clone(),
            _ => Vec::new(),
        }
    }

    pub fn legal_into(&self, seat: usize, out: &mut Vec<Action>) {
        out.clear();
        if let Some((s, legal, _)) = &self.ask {
            if *s == seat {
                out.extend(legal.iter().cloned());
            }
        }
    }

    pub fn phase(&self) -> &'static str {
        match &self.ask {
            None => "done",
            Some((_, _, c)) => match c {
                Cont::Tianhu | Cont::DrawOwnHu { .. } | Cont::Joker { .. } => "win",
                Cont::Discard { .. } => "discard",
                Cont::DiscardHu { .. } | Cont::DrawHu { .. } => "win",
                Cont::DiscardPeng { .. } | Cont::DrawPeng { .. } => "pung",
                Cont::DiscardChi { .. } | Cont::DrawChi { .. } => "chow",
            },
        }
    }

    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Apply one action; an illegal one is an `IllegalAction` error and changes nothing.
    pub fn step(&mut self, a: &Action) -> Result<()> {
        let Some((seat, legal, _)) = &self.ask else {
            return Err(Error::illegal("the hand is over"));
        };
        if usize::from(a.seat) != *seat || !legal.contains(a) {
            return Err(Error::illegal(format!(
                "{} is not legal now (seat {seat} is to act)",
                a.describe(Pieces::Cards)
            )));
        }
        self.apply(a)
    }

    /// Apply an action known to be legal.
    pub fn apply(&mut self, a: &Action) -> Result<()> {
        let (_, _, cont) = self
            .ask
            .take()
            .ok_or_else(|| Error::illegal("the hand is over"))?;
        self.events.push(Event::Action(a.clone()));
        self.version += 1;
        let next = self.resume(cont, a)?;
        self.run(next)
    }

    fn run(&mut self, mut next: Next) -> Result<()> {
        loop {
            next = match next {
                Next::Draw(s) => {
                    if self.wall.is_empty() {
                        self.events.push(Event::Exhausted);
                        return self.settle(&[], None, None, None);
                    }
                    self.draw_turn(s)?
                }
                Next::Discard(s) => self.discard(s)?,
                Next::Ask | Next::Done => return Ok(()),
            };
        }
    }

    fn ask_hu(&mut self, seat: usize, card: Option<u8>, cont: Cont) {
        let s8 = seat as u8;
        self.ask = Some((
            seat,
            vec![
                Action::new(ActionKind::Win, s8, card),
                Action::new(ActionKind::Pass, s8, card),
            ],
            cont,
        ));
        self.version += 1;
    }

    fn resume(&mut self, cont: Cont, a: &Action) -> Result<Next> {
        let win = a.kind == ActionKind::Win;
        match cont {
            Cont::Tianhu => {
                if win {
                    self.win(self.dealer, None, zr::WinType::Tianhu, None)?;
                    return Ok(Next::Done);
                }
                Ok(Next::Discard(self.dealer))
            }
            Cont::Discard { seat } => {
                let c = a.tile.ok_or_else(|| Error::illegal("discard: a card"))?;
                self.players[seat].hand[usize::from(c)] -= 1;
                self.in_play = Some(c);
                self.turns += 1;
                self.events.push(Event::Zipai {
                    name: "discard",
                    seat: seat as u8,
                    tile: Some(c),
                });
                let src = if self.first_discard {
                    zr::WinType::Dihu
                } else {
                    zr::WinType::Discard
                };
                self.first_discard = false;
                self.offer_discard(seat, c, src)
            }
            Cont::DiscardHu {
                d,
                card,
                wt,
                idx,
                cl,
            } => {
                let s = (d + 1 + idx) % N_SEATS;
                if win {
                    self.win(s, Some(card), wt, Some(d))?;
                    return Ok(Next::Done);
                }
                self.discard_offers(d, card, wt, cl, 0, idx + 1)
            }
            Cont::DiscardPeng { d, card, idx, cl } => {
                let s = (d + 1 + idx) % N_SEATS;
                if a.kind == ActionKind::Pung {
                    self.take_peng(s, card);
                    return self.after_claim(s, false);
                }
                self.mark_chou(s, card, true);
                self.discard_offers(d, card, zr::WinType::Discard, cl, 2, idx + 1)
            }
            Cont::DiscardChi { d, card, .. } => {
                let s = (d + 1) % N_SEATS;
                if a.kind == ActionKind::Chow {
                    self.take_chi(s, card, &a.tiles);
                    return self.after_claim(s, false);
                }
                self.mark_chou(s, card, false);
                self.untaken(d, card);
                Ok(Next::Draw((d + 1) % N_SEATS))
            }
            Cont::DrawOwnHu { seat, card, own } => {
                if win {
                    self.win(seat, Some(card), zr::WinType::SelfDraw, None)?;
                    return Ok(Next::Done);
                }
                self.forced_sao(seat, card, &own)
            }
            Cont::DrawHu {
                seat,
                card,
                idx,
                cl,
            } => {
                let s = (seat + idx) % N_SEATS;
                if win {
                    let wt = if s == seat {
                        zr::WinType::SelfDraw
                    } else {
                        zr::WinType::OtherDraw
                    };
                    self.win(s, Some(card), wt, None)?;
                    return Ok(Next::Done);
                }
                self.draw_offers(seat, card, cl, 0, idx + 1)
            }
            Cont::DrawPeng {
                seat,
                card,
                idx,
                cl,
            } => {
                let s = (seat + idx) % N_SEATS;
                if a.kind == ActionKind::Pung {
                    self.take_peng(s, card);
                    return self.after_claim(s, false);
                }
                self.mark_chou(s, card, true);
                self.draw_offers(seat, card, cl, 2, idx + 1)
            }
            Cont::DrawChi {
                seat,
                card,
                idx,
                cl,
            } => {
                let s = (seat + idx) % N_SEATS;
                if a.kind == ActionKind::Chow {
                    self.take_chi(s, card, &a.tiles);
                    return self.after_claim(s, false);
                }
                self.mark_chou(s, card, false);
                self.draw_offers(seat, card, cl, 3, idx + 1)
            }
            Cont::Joker { seat } => {
                if win {
                    self.win(seat, None, zr::WinType::SelfDraw, None)?;
                    return Ok(Next::Done);
                }
                Ok(Next::Discard(seat))
            }
        }
    }

    // ------------------------------------------------------------------ moves

    fn claims(&self, seat: usize, c: u8, source: WinSource, may_chi: bool) -> Result<Claims> {
        let p = &self.players[seat];
        if p.dead {
            return Ok(Claims::default());
        }
        let bit = 1u32 << c;
        let spec = p.spec(None, source);
        claims_with(
            self.rules(),
            &spec,
            card(c),
            source,
            may_chi,
            Chou {
                chi: p.chou_chi & bit != 0,
                peng: p.chou_peng & bit != 0,
            },
        )
    }

    /// The seat must discard (after a claim, a drawn joker, the dealer's first turn).
    fn discard(&mut self, seat: usize) -> Result<Next> {
        if self.players[seat].dead {
            return Ok(Next::Draw((seat + 1) % N_SEATS));
        }
        let spec = self.players[seat].spec(None, WinSource::Deal);
        let chk = discard_check(&spec, !self.position)?;
        if let Some(reason) = chk.xianggong {
            self.players[seat].dead = true;
            self.events.push(Event::Xianggong {
                seat: seat as u8,
                reason,
            });
            return Ok(Next::Draw((seat + 1) % N_SEATS));
        }
        let legal = chk
            .discards
            .iter()
            .map(|&c| Action::tile(ActionKind::Discard, seat as u8, code(c)))
            .collect();
        self.ask = Some((seat, legal, Cont::Discard { seat }));
        self.version += 1;
        Ok(Next::Ask)
    }

    fn offer_discard(&mut self, d: usize, c: u8, wt: zr::WinType) -> Result<Next> {
        let mut cl = vec![Claims::default(); N_SEATS];
        for i in 0..2 {
            let s = (d + 1 + i) % N_SEATS;
            cl[s] = self.claims(s, c, WinSource::Discard, i == 0)?;
        }
        self.discard_offers(d, c, wt, cl, 0, 0)
    }

    /// The claims on a discard from `stage` (0 胡, 1 开舵, 2 碰, 3 吃) and the `idx`-th seat on.
    fn discard_offers(
        &mut self,
        d: usize,
        c: u8,
        wt: zr::WinType,
        cl: Vec<Claims>,
        mut stage: u8,
        mut idx: usize,
    ) -> Result<Next> {
        loop {
            match stage {
                0 => {
                    while idx < 2 {
                        let s = (d + 1 + idx) % N_SEATS;
                        if cl[s].hu.is_some() {
                            if matches!(self.bi_hu, BiHu::Dianpao | BiHu::Any) {
                                self.events.push(Event::Zipai {
                                    name: "bi_hu",
                                    seat: s as u8,
                                    tile: Some(c),
                                });
                                self.win(s, Some(c), wt, Some(d))?;
                                return Ok(Next::Done);
                            }
                            self.ask_hu(
                                s,
                                Some(c),
                                Cont::DiscardHu {
                                    d,
                                    card: c,
                                    wt,
                                    idx,
                                    cl,
                                },
                            );
                            return Ok(Next::Ask);
                        }
                        idx += 1;
                    }
                }
                1 => {
                    for i in 0..2 {
                        let s = (d + 1 + i) % N_SEATS;
                        if cl[s].kaiduo {
                            self.take_four(s, c, MeldType::KaiDuo);
                            return self.after_claim(s, true);
                        }
                    }
                }
                2 => {
                    while idx < 2 {
                        let s = (d + 1 + idx) % N_SEATS;
                        if cl[s].peng {
                            let s8 = s as u8;
                            self.ask = Some((
                                s,
                                vec![
                                    Action::tile(ActionKind::Pung, s8, c),
                                    Action::tile(ActionKind::Pass, s8, c),
                                ],
                                Cont::DiscardPeng {
                                    d,
                                    card: c,
                                    idx,
                                    cl,
                                },
                            ));
                            self.version += 1;
                            return Ok(Next::Ask);
                        }
                        idx += 1;
                    }
                }
                _ => {
                    let s = (d + 1) % N_SEATS;
                    if !cl[s].chi.is_empty() {
                        let legal = chi_actions(s, c, &cl[s]);
                        self.ask = Some((s, legal, Cont::DiscardChi { d, card: c }));
                        self.version += 1;
                        return Ok(Next::Ask);
                    }
                    self.untaken(d, c);
                    return Ok(Next::Draw((d + 1) % N_SEATS));
                }
            }
            stage += 1;
            idx = 0;
        }
    }

    fn draw_turn(&mut self, seat: usize) -> Result<Next> {
        let c = self
            .wall
            .pop_front()
            .ok_or_else(|| Error::rule("the wall is empty"))?;
        self.in_play = Some(c);
        self.turns += 1;
        self.events.push(Event::DrawCard {
            seat: seat as u8,
            tile: c,
            left: self.wall.len(),
        });
        if c == JOKER {
            return self.joker_drawn(seat);
        }
        let own = self.claims(seat, c, WinSource::SelfDraw, true)?;
        if own.saochuan || own.sao || own.guosao {
            if own.hu.is_some() {
                self.ask_hu(seat, Some(c), Cont::DrawOwnHu { seat, card: c, own });
                return Ok(Next::Ask);
            }
            return self.forced_sao(seat, c, &own);
        }
        let mut cl = vec![Claims::default(); N_SEATS];
        cl[seat] = own;
        for i in 1..N_SEATS {
            let s = (seat + i) % N_SEATS;
            cl[s] = self.claims(s, c, WinSource::OtherDraw, i == 1)?;
        }
        self.draw_offers(seat, c, cl, 0, 0)
    }

    fn forced_sao(&mut self, seat: usize, c: u8, own: &Claims) -> Result<Next> {
        if own.saochuan {
            self.take_four(seat, c, MeldType::SaoChuan);
            return self.after_claim(seat, true);
        }
        let ty = if own.guosao {
            MeldType::GuoSao
        } else {
            MeldType::Sao
        };
        let p = &mut self.players[seat];
        p.hand[usize::from(c)] -= 2;
        p.melds.push(Meld::new(ty, vec![card(c); 3])?);
        self.in_play = None;
        self.events.push(Event::Zipai {
            name: meld_name(ty),
            seat: seat as u8,
            tile: Some(c),
        });
        self.after_claim(seat, false)
    }

    /// The claims on a drawn card from `stage` (0 胡, 1 开舵, 2 碰, 3 吃) and the `idx`-th seat
    /// on (counted from the drawer).
    fn draw_offers(
        &mut self,
        seat: usize,
        c: u8,
        cl: Vec<Claims>,
        mut stage: u8,
        mut idx: usize,
    ) -> Result<Next> {
        loop {
            match stage {
                0 => {
                    while idx < N_SEATS {
                        let s = (seat + idx) % N_SEATS;
                        if cl[s].hu.is_some() {
                            let wt = if s == seat {
                                zr::WinType::SelfDraw
                            } else {
                                zr::WinType::OtherDraw
                            };
                            if self.must_win_on_draw {
                                self.events.push(Event::Zipai {
                                    name: "bi_hu",
                                    seat: s as u8,
                                    tile: Some(c),
                                });
                                self.win(s, Some(c), wt, None)?;
                                return Ok(Next::Done);
                            }
                            self.ask_hu(
                                s,
                                Some(c),
                                Cont::DrawHu {
                                    seat,
                                    card: c,
                                    idx,
                                    cl,
                                },
                            );
                            return Ok(Next::Ask);
                        }
                        idx += 1;
                    }
                }
                1 => {
                    for i in 0..N_SEATS {
                        let s = (seat + i) % N_SEATS;
                        if cl[s].kaiduo {
                            self.take_four(s, c, MeldType::KaiDuo);
                            return self.after_claim(s, true);
                        }
                    }
                }
                2 => {
                    idx = idx.max(1);
                    while idx < N_SEATS {
                        let s = (seat + idx) % N_SEATS;
                        if cl[s].peng {
                            let s8 = s as u8;
                            self.ask = Some((
                                s,
                                vec![
                                    Action::tile(ActionKind::Pung, s8, c),
                                    Action::tile(ActionKind::Pass, s8, c),
                                ],
                                Cont::DrawPeng {
                                    seat,
                                    card: c,
                                    idx,
                                    cl,
                                },
                            ));
                            self.version += 1;
                            return Ok(Next::Ask);
                        }
                        idx += 1;
                    }
                }
                _ => {
                    while idx < 2 {
                        let s = (seat + idx) % N_SEATS;
                        if !cl[s].chi.is_empty() {
                            let legal = chi_actions(s, c, &cl[s]);
                            self.ask = Some((
                                s,
                                legal,
                                Cont::DrawChi {
                                    seat,
                                    card: c,
                                    idx,
                                    cl,
                                },
                            ));
                            self.version += 1;
                            return Ok(Next::Ask);
                        }
                        idx += 1;
                    }
                    self.untaken(seat, c);
                    return Ok(Next::Draw((seat + 1) % N_SEATS));
                }
            }
            stage += 1;
            idx = 0;
        }
    }

    fn joker_drawn(&mut self, seat: usize) -> Result<Next> {
        self.players[seat].hand[usize::from(JOKER)] += 1;
        self.in_play = None;
        self.events.push(Event::Zipai {
            name: "joker",
            seat: seat as u8,
            tile: None,
        });
        if self.players[seat].dead {
            return Ok(Next::Draw((seat + 1) % N_SEATS));
        }
        let spec = self.players[seat].spec(None, WinSource::SelfDraw);
        let h = zr::best_huxi(self.rules(), &spec)?;
        if h.is_some_and(|h| h >= self.rules().min_huxi) {
            if self.must_win_on_draw {
                self.events.push(Event::Zipai {
                    name: "bi_hu",
                    seat: seat as u8,
                    tile: Some(JOKER),
                });
                self.win(seat, None, zr::WinType::SelfDraw, None)?;
                return Ok(Next::Done);
            }
            self.ask_hu(seat, None, Cont::Joker { seat });
            return Ok(Next::Ask);
        }
        Ok(Next::Discard(seat))
    }

    fn untaken(&mut self, seat: usize, c: u8) {
        self.players[seat].river.push(c);
        self.in_play = None;
        self.events.push(Event::Zipai {
            name: "untaken",
            seat: seat as u8,
            tile: Some(c),
        });
    }

    /// 扫穿 / 开舵 onto a 坎 (concealed), 扫 / 过扫 or 碰 (meld).
    fn take_four(&mut self, seat: usize, c: u8, ty: MeldType) {
        let p = &mut self.players[seat];
        if p.hand[usize::from(c)] == 3 {
            p.hand[usize::from(c)] = 0;
        } else if let Some(i) = p.melds.iter().position(|m| {
            m.cards[0] == card(c)
                && matches!(m.ty, MeldType::Sao | MeldType::GuoSao | MeldType::Peng)
        }) {
            p.melds.remove(i);
        }
        if let Ok(m) = Meld::new(ty, vec![card(c); 4]) {
            p.melds.push(m);
        }
        p.fours += 1;
        self.in_play = None;
        self.events.push(Event::Zipai {
            name: meld_name(ty),
            seat: seat as u8,
            tile: Some(c),
        });
    }

    fn take_peng(&mut self, s: usize, c: u8) {
        let p = &mut self.players[s];
        p.hand[usize::from(c)] -= 2;
        if let Ok(m) = Meld::new(MeldType::Peng, vec![card(c); 3]) {
            p.melds.push(m);
        }
        self.in_play = None;
    }

    /// A 吃 of `c`: `tiles` = the group (with `c`), then each 比 group from the hand.
    fn take_chi(&mut self, s: usize, c: u8, tiles: &[u8]) {
        let p = &mut self.players[s];
        let mut skip = true;
        for (i, g) in tiles.chunks(3).enumerate() {
            for &x in g {
                if i == 0 && skip && x == c {
                    skip = false;
                    continue;
                }
                p.hand[usize::from(x)] -= 1;
            }
            if let Ok(m) = Meld::new(MeldType::Chi, g.iter().map(|&x| card(x)).collect()) {
                p.melds.push(m);
            }
        }
        self.in_play = None;
    }

    fn mark_chou(&mut self, seat: usize, c: u8, peng: bool) {
        let bit = 1u32 << c;
        let both = self.chou_both;
        let p = &mut self.players[seat];
        p.chou |= bit;
        if peng || both {
            p.chou_peng |= bit;
        }
        if !peng || both {
            p.chou_chi |= bit;
        }
        if peng {
            p.passed_peng |= bit;
        }
        self.events.push(Event::Zipai {
            name: "chou",
            seat: seat as u8,
            tile: Some(c),
        });
    }

    /// After a claim: a discard, unless the seat made its second four (重舵): then its 下家
    /// draws.
    fn after_claim(&mut self, seat: usize, made_four: bool) -> Result<Next> {
        if made_four && self.players[seat].fours >= 2 {
            self.events.push(Event::Zipai {
                name: "zhongduo",
                seat: seat as u8,
                tile: None,
            });
            return Ok(Next::Draw((seat + 1) % N_SEATS));
        }
        Ok(Next::Discard(seat))
    }

    fn win(
        &mut self,
        seat: usize,
        c: Option<u8>,
        wt: zr::WinType,
        discarder: Option<usize>,
    ) -> Result<()> {
        let haidi =
            self.wall.is_empty() && matches!(wt, zr::WinType::SelfDraw | zr::WinType::OtherDraw);
        let sit = ZipaiSituation {
            hand: self.players[seat].spec(c.map(card), wt.source()),
            win_type: wt,
            haidi,
            players: N_SEATS as u8,
            seat: seat as u8,
            dealer: self.dealer as u8,
            discarder: discarder.map(|d| d as u8),
            flips: if haidi {
                Vec::new()
            } else {
                // the flips stop at a joker (it is no 醒 card)
                self.wall
                    .iter()
                    .take_while(|&&x| x != JOKER)
                    .map(|&x| card(x))
                    .collect()
            },
            difficulty: None,
        };
        let s = zr::score(self.rules(), &sit)?;
        if !s.is_win {
            return Err(Error::rule(format!(
                "字牌: the claim check and the scorer disagree on seat {seat}'s win"
            )));
        }
        if let Some(c) = c {
            self.players[seat].hand[usize::from(c)] += 1;
            self.in_play = None;
        }
        let pays: Vec<(u8, u8, i64)> = s
            .payments
            .iter()
            .map(|p| (p.from, p.to, p.amount))
            .collect();
        let name = match wt {
            zr::WinType::SelfDraw => "self_draw",
            zr::WinType::OtherDraw => "other_draw",
            zr::WinType::Discard => "discard",
            zr::WinType::Tianhu => "tianhu",
            zr::WinType::Dihu => "dihu",
            zr::WinType::Sanlong => "sanlong",
        };
        self.events.push(Event::Win {
            seat: seat as u8,
            tile: c,
            win_type: name,
            from: discarder.map(|d| d as u8),
            value: i64::from(s.huxi),
            duo: Some(s.duo),
            payments: pays.clone(),
        });
        let net: Vec<i64> = s.net.clone();
        self.settle(&pays, Some(seat), Some((name, s.huxi, s.duo)), Some(net))
    }

    /// The payments of the hand, one ledger event per payer; the balances are the ledger's and
    /// must equal the scorer's net result.
    fn settle(
        &mut self,
        pays: &[(u8, u8, i64)],
        winner: Option<usize>,
        win: Option<(&'static str, i32, i64)>,
        net: Option<Vec<i64>>,
    ) -> Result<()> {
        for &(f, t, a) in pays {
            self.ledger.record_payments(
                "WIN",
                &format!("zipai {}: seat {f} pays seat {t}", win.map_or("", |w| w.0)),
                &[(f.to_string(), t.to_string(), a)],
                None,
            )?;
        }
        self.ledger.end_hand();
        let balances: Vec<i64> = self.ledger.balances().into_iter().map(|(_, b)| b).collect();
        if let Some(net) = net {
            if balances != net {
                return Err(Error::settlement(format!(
                    "ledger {balances:?} differs from the core's net {net:?}"
                )));
            }
        }
        self.events.push(Event::Settle {
            net: balances.clone(),
        });
        let next_dealer = zr::next_dealer(
            self.rules(),
            self.dealer as u8,
            winner.map(|w| w as u8),
            N_SEATS as u8,
        )?;
        self.ask = None;
        self.version += 1;
        self.result = Some(ZipaiResult {
            winner,
            exhausted: winner.is_none(),
            balances,
            payments: pays.to_vec(),
            win_type: win.map(|w| w.0),
            huxi: win.map(|w| w.1),
            duo: win.map(|w| w.2),
            turns: self.turns,
            next_dealer: usize::from(next_dealer),
        });
        Ok(())
    }

    // ------------------------------------------------------------------ invariants

    /// Every card's location: hands + melds + rivers + wall (+ the card in play).
    fn card_positions(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self.wall.iter().copied().collect();
        for p in &self.players {
            for (k, &n) in p.hand.iter().enumerate() {
                out.extend(std::iter::repeat_n(k as u8, usize::from(n)));
            }
            for m in &p.melds {
                out.extend(m.cards.iter().map(|&c| code(c)));
            }
            out.extend(&p.river);
        }
        out.extend(self.in_play);
        out
    }

    /// Per-code counts of every card's location (equal to [`Zipai::deck`] after every step).
    pub fn card_count(&self) -> [u8; N_CODES] {
        let mut c = [0u8; N_CODES];
        for x in self.card_positions() {
            c[usize::from(x)] += 1;
        }
        c
    }

    pub fn pieces(&self) -> Pieces {
        Pieces::Cards
    }
}

fn chi_actions(s: usize, c: u8, cl: &Claims) -> Vec<Action> {
    let mut out: Vec<Action> = cl
        .chi
        .iter()
        .map(|o| {
            let mut tiles: Vec<u8> = o.group.iter().map(|&x| code(x)).collect();
            for b in &o.bi {
                tiles.extend(b.iter().map(|&x| code(x)));
            }
            Action {
                kind: ActionKind::Chow,
                seat: s as u8,
                tile: Some(c),
                tiles,
                value: None,
            }
        })
        .collect();
    out.push(Action::tile(ActionKind::Pass, s as u8, c));
    out
}
