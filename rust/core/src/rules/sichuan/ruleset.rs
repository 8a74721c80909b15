//! The 四川 [`Ruleset`]: scores through [`SichuanRules::score`], settles a hand record on the
//! ledger's own 血战 flow (刮风下雨, 呼叫转移, 查花猪 → 查大叫 → 退税), and the table facts.

use std::any::Any;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{MaxWin, Mode, SichuanRules, SichuanScore};
use crate::error::{Error, Result};
use crate::game::flow::{FlowFacts, SeatState, WinOption, seat_hand};
use crate::hand::Hand;
use crate::preset::{Options, PresetData};
use crate::rules::{Book, Case, Ruleset, TableWin, TileBook};
use crate::scoring::ledger::{DrawEndState, KongPay, SettlementRules};
use crate::scoring::record::{Event, HandRecord, RecordSpec};
use crate::scoring::score::{FanHit, Reading, Score, Unit};
use crate::situation::{Blessing, KongKind, Situation, WinType};

/// The 四川 ruleset.
#[derive(Debug)]
pub struct Sichuan {
    pub rules: SichuanRules,
    preset: &'static PresetData,
    flow: FlowFacts,
}

/// Compile the `sichuan` preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    let rules = SichuanRules::compile(p, o)?;
    let mut flow = FlowFacts::from_data(p, o);
    flow.chi = rules.chi_allowed;
    flow.shapes = rules.shapes;
    flow.void_discard_first = o.bool("ding_que_discard_first")?;
    flow.forced_win_last_n = o.int("forced_win_last_n")?;
    Ok(Arc::new(Sichuan {
        rules,
        preset: p,
        flow,
    }))
}

/// The 四川 rules of a variant (a RuleConfig error for another preset).
pub fn rules_of(v: &crate::Variant) -> Result<&SichuanRules> {
    v.rules_as::<Sichuan>()
        .map(|m| &m.rules)
        .ok_or_else(|| Error::rule(format!("variant {} is not a sichuan variant", v.id())))
}

impl Sichuan {
    fn to_score(&self, sc: SichuanScore) -> Score {
        let extras = vec![
            ("base_points", json!(sc.base_points)),
            ("multiplier", json!(sc.multiplier)),
            ("self_draw_payment", json!(sc.self_draw_payment)),
            ("uncapped_multiplier", json!(sc.uncapped_multiplier)),
            ("win_type", json!(sc.win_type.name())),
        ];
        Score {
            variant: self.preset.id.as_str(),
            fans: sc
                .fans
                .into_iter()
                .map(|f| {
                    FanHit::new(
                        self.preset.fan_named(&f.id, &f.zh, &f.en),
                        f.value,
                        f.op,
                        f.count,
                    )
                })
                .collect(),
            raw_total: sc.fan_total,
            total: sc.capped_fan_total,
            unit: Unit::Fan,
            meets_minimum: true,
            per_payer: sc.per_payer,
            players: self.rules.players,
            payments: Default::default(),
            decomposition: Some(Reading::Tiles(sc.decomposition)),
            extras: Default::default(),
        }
        .with_extras(extras)
    }
}

fn void_of(v: Option<&Value>, what: &str) -> Result<Option<u8>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => match s.as_str() {
            "m" => Ok(Some(0)),
            "p" => Ok(Some(1)),
            "s" => Ok(Some(2)),
            _ => Err(Error::settlement(format!("{what}: {s:?} is not m, p or s"))),
        },
        Some(x) => Err(Error::settlement(format!("{what}: m, p or s, got {x}"))),
    }
}

impl TileBook for Sichuan {
    fn id(&self) -> &'static str {
        self.preset.id.as_str()
    }
    fn seats(&self) -> u8 {
        self.rules.players
    }
    fn spec(&self) -> RecordSpec {
        RecordSpec {
            kong_types: &["open", "added", "concealed"],
            draw_keys: Some(&["hands"]),
            seat_keys: &["void_suit"],
            ..RecordSpec::default()
        }
    }
    fn evaluate(&self, s: &Situation) -> Result<Score> {
        s.check_flags("sichuan", &["void_suit"])?;
        Ok(self.to_score(self.rules.score(s)?))
    }
    fn ledger_rules(&self) -> SettlementRules {
        self.rules.settlement.clone()
    }
    /// Kongs pay at once (刮风下雨) from the players still in the hand; a win is paid by the
    /// discarder, or every player still in the hand after a self-draw (点杠花 as a discard: the
    /// feeder of the winner's last 直杠, else the given discarder, else the 上家); 杠上炮 transfers
    /// the kong (呼叫转移); a `draw` event (`hands`: the 13-tile hand of every seat still in the
    /// hand) runs 查花猪 → 查大叫 → 退税.
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()> {
        let n = rec.seats.len();
        let mut k = 0;
        let mut last_open_feeder: Vec<Option<usize>> = vec![None; n];
        for (i, e) in rec.events.iter().enumerate() {
            let at = |x: Error| x.context(&format!("events[{i}]"));
            match e {
                Event::Kong {
                    owner,
                    kind,
                    feeder,
                    ..
                } => {
                    let kp = KongPay::parse(kind).map_err(at)?;
                    last_open_feeder[*owner] = if kp == KongPay::Open { *feeder } else { None };
                    book.ledger
                        .kong(
                            &rec.seats[*owner],
                            kp,
                            feeder.map(|f| rec.seats[f].as_str()),
                        )
                        .map_err(at)?;
                }
                Event::Win {
                    winner,
                    discarder,
                    case: Case::Tiles(s),
                    ..
                } => {
                    let sc = &scores[k];
                    let self_draw_payment = sc
                        .extra("self_draw_payment")
                        .and_then(Value::as_bool)
                        .unwrap_or(s.is_self_drawn());
                    let payer = if self_draw_payment {
                        None
                    } else if s.is_self_drawn() {
                        // 点杠花 paid as a discard
                        Some(
                            last_open_feeder[*winner]
                                .or(*discarder)
                                .unwrap_or((*winner + n - 1) % n),
                        )
                    } else {
                        *discarder
                    };
                    book.begin_win(k);
                    book.ledger
                        .win(
                            &rec.seats[*winner],
                            sc.per_payer,
                            payer.map(|d| rec.seats[d].as_str()),
                            s.win_type == WinType::AfterKongDiscard,
                            sc.to_json_value(),
                        )
                        .map_err(at)?;
                    book.end_win();
                    k += 1;
                }
                Event::Win { .. } => {}
                Event::Other { kind, data } if kind == "draw" => {
                    let hands = match data.get("hands") {
                        Some(Value::Object(m)) => m.clone(),
                        _ => {
                            return Err(at(Error::settlement(
                                "draw needs \"hands\": {seat: {\"melds\", \"concealed\"}} for every seat still in the hand",
                            )));
                        }
                    };
                    let mut states = Vec::new();
                    for (name, h) in &hands {
                        let si = rec.seat(name, "draw.hands").map_err(at)?;
                        let (hand, kinds) =
                            super::waiting_hand_from_json(&h.to_string()).map_err(at)?;
                        let void = void_of(
                            rec.seat_data[si].get("void_suit"),
                            &format!("seat_data.{name}.void_suit"),
                        )?;
                        let mw = self.rules.max_win_value(&hand, &kinds, void).map_err(at)?;
                        states.push((
                            name.clone(),
                            DrawEndState {
                                huazhu: mw.huazhu,
                                da_jiao: if mw.huazhu { None } else { mw.da_jiao },
                            },
                        ));
                    }
                    book.ledger.draw_end(&states).map_err(at)?;
                }
                Event::Other { .. } => {}
            }
        }
        Ok(())
    }
}

impl Ruleset for Sichuan {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn players(&self) -> u8 {
        self.rules.players
    }
    fn tile_book(&self) -> Option<&dyn TileBook> {
        Some(self)
    }
    fn table(&self) -> Option<crate::rules::TablePart> {
        Some(crate::rules::TablePart::Mahjong(std::sync::Arc::new(
            super::table::SichuanTable(self.rules.settlement.clone()),
        )))
    }
    fn flow(&self) -> Option<&FlowFacts> {
        Some(&self.flow)
    }
    fn ledger_rules(&self) -> SettlementRules {
        self.rules.settlement.clone()
    }
    /// 天胡 / 地胡 on the mover's first self-draw (when the switches make them blessings of the
    /// table); the value is the amount per payer.
    fn table_win(&self, q: &TableWin<'_>) -> Option<WinOption> {
        let r = &self.rules;
        let sit = &q.situation;
        let first_self_draw = q.ctx.first_turn
            && sit.win_type == WinType::SelfDraw
            && r.mode != Mode::Xueliu
            && !r.di_hu_on_discard;
        let blessed = first_self_draw.then(|| {
            let mut b = sit.clone();
            b.blessing = Some(if q.seat.dealer {
                Blessing::Heavenly
            } else {
                Blessing::Earthly
            });
            b
        });
        let sc = blessed
            .and_then(|b| r.score(&b).ok())
            .or_else(|| r.score(sit).ok())?;
        Some(WinOption {
            value: sc.per_payer,
            self_draw_payment: sc.self_draw_payment,
            fans: sc.fans.iter().map(|f| (f.id.clone(), f.count)).collect(),
            deltas: Vec::new(),
            score: None,
        })
    }
    fn draw_end_states(&self, seats: &[SeatState]) -> Result<Vec<(bool, Option<i64>)>> {
        let mut out = Vec::with_capacity(seats.len());
        for (i, seat) in seats.iter().enumerate() {
            let hand = seat_hand(seat)?;
            let kinds: Vec<Option<KongKind>> = seat.melds.iter().map(|m| m.1).collect();
            if hand.is_complete() {
                return Err(Error::hand(format!(
                    "seat {i}: a draw-end hand holds 13 tiles (kongs as 3)"
                )));
            }
            let mw = self.rules.max_win_value(&hand, &kinds, seat.void_suit)?;
            out.push((mw.huazhu, if mw.huazhu { None } else { mw.da_jiao }));
        }
        Ok(out)
    }
    /// 查大叫: [`MaxWin`] of the hand (`flags`: `void_suit`).
    fn waiting_value(
        &self,
        hand: &Hand,
        kong_kinds: &[Option<KongKind>],
        flags: &Map<String, Value>,
    ) -> Result<Value> {
        crate::scoring::record::check_keys(flags, "waiting value", &[], &["void_suit"])
            .map_err(|e| Error::hand(e.to_string()))?;
        let void =
            void_of(flags.get("void_suit"), "void_suit").map_err(|e| Error::hand(e.to_string()))?;
        let mw: MaxWin = self.rules.max_win_value(hand, kong_kinds, void)?;
        Ok(mw.to_json_value())
    }
}
