//! The auction (doudizhu.md §4): 叫分 (once each, or OpenSpiel's rounds), 叫地主 (call_rob), 抢地主
//! and the all-pass outcome. Cards play no part here except `must_bid` (given per seat).

use crate::error::{Error, Result};

use super::rules::{AuctionKind, DdzRules};

/// One auction action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bid {
    /// 不叫 (bidding) or 不抢 (robbing).
    Pass,
    /// 叫分 1..=max_bid.
    Points(u8),
    /// 叫地主 (call_rob auction).
    Call,
    /// 抢地主.
    Rob,
}

impl Bid {
    /// The case notation: `pass`, `1`..`3`, `call`, `rob`.
    pub fn parse(s: &str) -> Result<Bid> {
        match s {
            "pass" => Ok(Bid::Pass),
            "call" => Ok(Bid::Call),
            "rob" => Ok(Bid::Rob),
            _ => s
                .parse::<u8>()
                .ok()
                .filter(|b| *b >= 1)
                .map(Bid::Points)
                .ok_or_else(|| {
                    Error::hand(format!(
                        "unknown auction action {s:?}; actions: pass, 1, 2, 3, call, rob"
                    ))
                }),
        }
    }
    pub fn name(self) -> String {
        match self {
            Bid::Pass => "pass".into(),
            Bid::Points(b) => b.to_string(),
            Bid::Call => "call".into(),
            Bid::Rob => "rob".into(),
        }
    }
}

/// The outcome of a finished auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuctionResult {
    Landlord { seat: u8, bid: u8, robs: u8 },
    AllPass,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Bidding,
    Robbing,
    Done(AuctionResult),
}

/// The auction of one deal.
#[derive(Clone, Debug)]
pub struct Auction {
    kind: AuctionKind,
    once: bool,
    max_bid: u8,
    call_base: u8,
    rob_phase: bool,
    rob_back: bool,
    must_bid: [bool; 3],
    first: u8,
    stage: Stage,
    to_act: u8,
    /// Bidding actions taken so far (any round).
    acted: u8,
    passes_in_row: u8,
    said_pass: [bool; 3],
    high_bid: u8,
    high_bidder: Option<u8>,
    /// Rob phase: the queue of seats still to act (in order), then H if someone robbed.
    rob_queue: [u8; 3],
    rob_len: u8,
    rob_pos: u8,
    robs: u8,
    last_robber: Option<u8>,
    h_turn_added: bool,
}

impl Auction {
    /// A new auction starting with seat `first`. `must_bid[s]`: seat s must bid the maximum (or
    /// call) when it first acts (`must_bid` switch; the caller computes it from the hands).
    pub fn new(rules: &DdzRules, first: u8, must_bid: [bool; 3]) -> Auction {
        Auction {
            kind: rules.auction,
            once: rules.bid_once,
            max_bid: rules.max_bid,
            call_base: u8::try_from(rules.call_base.clamp(1, 255)).unwrap_or(1),
            rob_phase: rules.rob_phase(),
            rob_back: rules.rob_back,
            must_bid: if rules.must_bid { must_bid } else { [false; 3] },
            first: first % 3,
            stage: Stage::Bidding,
            to_act: first % 3,
            acted: 0,
            passes_in_row: 0,
            said_pass: [false; 3],
            high_bid: 0,
            high_bidder: None,
            rob_queue: [0; 3],
            rob_len: 0,
            rob_pos: 0,
            robs: 0,
            last_robber: None,
            h_turn_added: false,
        }
    }

    pub fn first(&self) -> u8 {
        self.first
    }
    /// The seat to act, or `None` when the auction is over.
    pub fn to_act(&self) -> Option<u8> {
        match self.stage {
            Stage::Done(_) => None,
            _ => Some(self.to_act),
        }
    }
    pub fn result(&self) -> Option<AuctionResult> {
        match self.stage {
            Stage::Done(r) => Some(r),
            _ => None,
        }
    }
    /// Whether the rob phase is running.
    pub fn robbing(&self) -> bool {
        self.stage == Stage::Robbing
    }
    /// The highest bid so far (0: none).
    pub fn high_bid(&self) -> u8 {
        self.high_bid
    }
    /// Whether anybody has bid or called yet (escape before that costs the flat amount).
    pub fn anybody_bid(&self) -> bool {
        self.high_bidder.is_some()
    }
    pub fn robs(&self) -> u8 {
        self.robs
    }

    /// The legal actions of the seat to act.
    pub fn legal(&self) -> Vec<Bid> {
        let mut v = Vec::with_capacity(4);
        match self.stage {
            Stage::Done(_) => {}
            Stage::Robbing => {
                v.push(Bid::Pass);
                v.push(Bid::Rob);
            }
            Stage::Bidding => {
                let forced =
                    self.must_bid[self.to_act as usize] && !self.said_pass[self.to_act as usize];
                match self.kind {
                    AuctionKind::CallRob => {
                        if !forced {
                            v.push(Bid::Pass);
                        }
                        v.push(Bid::Call);
                    }
                    AuctionKind::Bid => {
                        if forced {
                            v.push(Bid::Points(self.max_bid));
                        } else {
                            v.push(Bid::Pass);
                            for b in self.high_bid + 1..=self.max_bid {
                                v.push(Bid::Points(b));
                            }
                        }
                    }
                }
            }
        }
        v
    }

    /// Apply the action of the seat to act; an illegal action is refused and changes nothing.
    pub fn step(&mut self, action: Bid) -> Result<()> {
        if !self.legal().contains(&action) {
            let what = match self.stage {
                Stage::Done(_) => "the auction is over".to_string(),
                _ => format!(
                    "seat {} may {}",
                    self.to_act,
                    self.legal()
                        .iter()
                        .map(|b| b.name())
                        .collect::<Vec<_>>()
                        .join(" / ")
                ),
            };
            return Err(Error::hand(format!(
                "illegal auction action {}: {what}",
                action.name()
            )));
        }
        let seat = self.to_act;
        match self.stage {
            Stage::Bidding => self.bid(seat, action),
            Stage::Robbing => self.rob(seat, action),
            Stage::Done(_) => {}
        }
        Ok(())
    }

    fn bid(&mut self, seat: u8, action: Bid) {
        self.acted += 1;
        match action {
            Bid::Pass => {
                self.said_pass[seat as usize] = true;
                self.passes_in_row += 1;
            }
            Bid::Points(b) => {
                self.high_bid = b;
                self.high_bidder = Some(seat);
                self.passes_in_row = 0;
            }
            Bid::Call => {
                self.high_bid = self.call_base;
                self.high_bidder = Some(seat);
                self.passes_in_row = 0;
            }
            Bid::Rob => {}
        }
        let done = match self.kind {
            // The first call ends the calling.
            AuctionKind::CallRob => self.high_bidder.is_some() || self.acted >= 3,
            AuctionKind::Bid => {
                self.high_bid >= self.max_bid
                    || if self.once {
                        self.acted >= 3
                    } else if self.high_bidder.is_some() {
                        self.passes_in_row >= 2
                    } else {
                        self.passes_in_row >= 3
                    }
            }
        };
        if !done {
            self.to_act = (seat + 1) % 3;
            return;
        }
        let Some(h) = self.high_bidder else {
            self.stage = Stage::Done(AuctionResult::AllPass);
            return;
        };
        if self.rob_phase {
            // Eligible: everybody but H who never said 不叫, in play order from H's 下家.
            let mut n = 0;
            for k in 1..3 {
                let s = (h + k) % 3;
                if !self.said_pass[s as usize] {
                    self.rob_queue[n] = s;
                    n += 1;
                }
            }
            self.rob_len = n as u8;
            if n > 0 {
                self.stage = Stage::Robbing;
                self.rob_pos = 0;
                self.to_act = self.rob_queue[0];
                return;
            }
        }
        self.stage = Stage::Done(AuctionResult::Landlord {
            seat: h,
            bid: self.high_bid,
            robs: 0,
        });
    }

    fn rob(&mut self, seat: u8, action: Bid) {
        if action == Bid::Rob {
            self.robs += 1;
            self.last_robber = Some(seat);
        }
        self.rob_pos += 1;
        let h = self.high_bidder.unwrap_or(0);
        if self.rob_pos < self.rob_len {
            self.to_act = self.rob_queue[self.rob_pos as usize];
            return;
        }
        if !self.h_turn_added && self.rob_back && self.robs > 0 {
            // H closes the phase: 抢地主转到最后一个叫分的玩家结束.
            self.h_turn_added = true;
            self.rob_queue[self.rob_len as usize] = h;
            self.rob_len += 1;
            self.to_act = h;
            return;
        }
        self.stage = Stage::Done(AuctionResult::Landlord {
            seat: self.last_robber.unwrap_or(h),
            bid: self.high_bid,
            robs: self.robs,
        });
    }
}
