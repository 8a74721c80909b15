//! Pre-play phases: 换三张, 定缺, 下炮子, 漂, 开始时换牌. Every active seat acts in seat order
//! from the dealer; a phase ends when every seat is done.

use crate::error::{Error, Result};
use crate::game::action::{Action, ActionKind};
use crate::game::event::Event;
use crate::game::facts::{HuanDirection, PaoZi, PrePhaseKind};
use crate::situation::WinType;
use crate::tile::Tile;

use super::{Mahjong, Phase};

impl Mahjong {
    pub(crate) fn start_pre(&mut self) {
        self.phase = Phase::Pre(self.pre[0]);
        self.pre_done = vec![false; self.n];
        self.to_act = self.dealer;
        self.version += 1;
    }

    pub(crate) fn pre_legal(&self, kind: PrePhaseKind, seat: usize, out: &mut Vec<Action>) {
        let s8 = seat as u8;
        let c = &self.seats[seat].counts;
        match kind {
            PrePhaseKind::HuanSanZhang => {
                for suit in 0..3usize {
                    let base = 9 * suit;
                    let n: u8 = c[base..base + 9].iter().sum();
                    if n < 3 {
                        continue;
                    }
                    for a in base..base + 9 {
                        for b in a..base + 9 {
                            for d in b..base + 9 {
                                let mut need = [0u8; 9];
                                need[a - base] += 1;
                                need[b - base] += 1;
                                need[d - base] += 1;
                                if (0..9).all(|i| need[i] <= c[base + i]) {
                                    out.push(Action {
                                        kind: ActionKind::Exchange,
                                        seat: s8,
                                        tile: None,
                                        tiles: vec![a as u8, b as u8, d as u8],
                                        value: None,
                                    });
                                }
                            }
                        }
                    }
                }
            }
            PrePhaseKind::DingQue => {
                for suit in 0..3 {
                    out.push(Action::valued(ActionKind::DeclareVoid, s8, suit));
                }
            }
            PrePhaseKind::PaoZi => {
                let max = match self.facts.pao_zi {
                    PaoZi::Free { max } => max,
                    _ => 0,
                };
                let d = self.carry.pao_zi.get(seat).copied().unwrap_or(0);
                out.push(Action::valued(ActionKind::DeclarePaoZi, s8, d));
                for p in (0..=max).filter(|&p| p != d) {
                    out.push(Action::valued(ActionKind::DeclarePaoZi, s8, p));
                }
            }
            PrePhaseKind::Piao => {
                for &p in &self.facts.piao_choices {
                    out.push(Action::valued(ActionKind::DeclarePiao, s8, p));
                }
            }
            PrePhaseKind::OpeningExchange => {
                out.push(Action::new(ActionKind::Pass, s8, None));
                for (k, &n) in c.iter().enumerate() {
                    if n > 0 {
                        out.push(Action {
                            kind: ActionKind::Exchange,
                            seat: s8,
                            tile: None,
                            tiles: vec![k as u8],
                            value: None,
                        });
                    }
                }
            }
        }
    }

    pub(crate) fn pre_action(&mut self, kind: PrePhaseKind, a: &Action) -> Result<()> {
        let s = usize::from(a.seat);
        match kind {
            PrePhaseKind::HuanSanZhang => {
                for &t in &a.tiles {
                    self.seats[s].counts[usize::from(t)] -= 1;
                }
                self.picked[s] = a.tiles.clone();
            }
            PrePhaseKind::DingQue => {
                self.seats[s].void_suit = a.value.map(|v| v as u8);
            }
            PrePhaseKind::PaoZi => {
                let p = a.value.unwrap_or(0);
                if let Some(pz) = &mut self.pao_zi {
                    pz[s] = p;
                }
                self.events.push(Event::PaoZi {
                    seat: s as u8,
                    pao_zi: p,
                });
            }
            PrePhaseKind::Piao => {
                self.piao[s] = a.value;
            }
            PrePhaseKind::OpeningExchange => {
                if a.kind == ActionKind::Exchange {
                    let t = a
                        .tiles
                        .first()
                        .copied()
                        .ok_or_else(|| Error::illegal("exchange: one tile"))?;
                    self.seats[s].counts[usize::from(t)] -= 1;
                    if !self.hua_pos.is_empty() {
                        self.release(s, Tile::new_unchecked(t));
                    }
                    self.picked[s].push(t);
                    return Ok(());
                }
                let marked = std::mem::take(&mut self.picked[s]);
                for _ in 0..marked.len() {
                    if self.pool.is_empty() {
                        return Err(Error::rule("开始时换牌: the unused pool is empty"));
                    }
                    let t = self.pool.remove(0);
                    self.seats[s].counts[usize::from(t)] += 1;
                }
                let n = marked.len();
                self.pool.extend(marked);
                self.events.push(Event::Exchange { seat: s as u8, n });
            }
        }
        self.pre_done[s] = true;
        if let Some(nx) = self.next_active(s) {
            if !self.pre_done[nx] {
                self.to_act = nx;
                return Ok(());
            }
        }
        self.finish_pre(kind)
    }

    fn finish_pre(&mut self, kind: PrePhaseKind) -> Result<()> {
        if kind == PrePhaseKind::HuanSanZhang {
            let facts = self.facts.clone();
            let shift = match &facts.huan_direction {
                HuanDirection::Dice([left, across, _right]) => {
                    let d = self.rng().randint(1, 6) + self.rng().randint(1, 6);
                    if left.contains(&d) {
                        1
                    } else if across.contains(&d) {
                        2
                    } else {
                        3
                    }
                }
                HuanDirection::Random => self.rng().choice(&[1usize, 2, 3]),
            };
            for seat in 0..self.n {
                let tiles = std::mem::take(&mut self.picked[seat]);
                let to = (seat + shift) % self.n;
                for t in tiles {
                    self.seats[to].counts[usize::from(t)] += 1;
                }
            }
            self.events.push(Event::ExchangeDone { shift: shift as u8 });
        }
        self.pre.remove(0);
        self.pre_changed |= kind.changes_hands();
        if self.pre.is_empty() {
            let drawn = if self.pre_changed {
                None
            } else {
                self.drawn.map(Tile::new_unchecked)
            };
            self.start_turn(self.dealer, drawn, WinType::SelfDraw)
        } else {
            self.start_pre();
            Ok(())
        }
    }
}
