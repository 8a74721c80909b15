//! Events of the table protocol and the event-log format, shared by every game family.
//!
//! A log is a list of JSON records. The first is `start` (what rebuilds the table: variant id,
//! every switch, seed, dealer, prevalent wind, a custom wall, the carry); then the events in the
//! order they happened. Decisions are `action` records ([`super::Action::to_json`]); everything
//! else follows from the seed and the decisions, so a log replays exactly. Pieces are named in the
//! family's notation (`"5m"`, `"E"`, `"f1"`; `"x5"`, `"d10"`, `"K"`) under the keys `tile` (one)
//! and `tiles` (several); seats are numbers `0..n`. The record types and their keys are listed in
//! `docs/table.md` ("Event log").

use serde_json::{Map, Value, json};

use super::action::{Action, Pieces};

/// One event of a hand.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The first record: everything that rebuilds the table.
    Start {
        variant: String,
        /// Every switch of the variant (shared by the tables of a run).
        options: std::sync::Arc<Value>,
        seed: i128,
        dealer: u8,
        prevalent_wind: u8,
        wall: Option<Vec<u8>>,
        carry: Option<Value>,
        /// Scenario set-up: live-wall tiles set aside before play (`Table::set_aside`).
        set_aside: usize,
        /// 字牌 scenario: the mid-hand position the table started from.
        position: Option<Value>,
    },
    /// A decision.
    Action(Action),
    /// 上海 开宝 dice at the start of the hand and the pending 开宝 after them.
    Dice {
        dice: [u8; 2],
        kai_bao: u32,
    },
    /// 二人麻将 花牌: the face-up wall tiles.
    HuaPai {
        tiles: Vec<u8>,
    },
    /// Mahjong: the deal is done.
    Deal {
        wall_remaining: usize,
    },
    /// 字牌: a seat's dealt cards (public in 字牌 logs: the deal is part of the record).
    DealCards {
        seat: u8,
        tiles: Vec<u8>,
    },
    Flower {
        seat: u8,
        tile: u8,
    },
    /// Mahjong draw (the tile stays hidden): a kong `replacement`, a 海底 draw.
    Draw {
        seat: u8,
        replacement: bool,
        haidi: bool,
    },
    /// 字牌 draw: the card is turned face up; `left` cards remain.
    DrawCard {
        seat: u8,
        tile: u8,
        left: usize,
    },
    /// 换三张 done: passed `shift` seats on (1 left, 2 across, 3 right).
    ExchangeDone {
        shift: u8,
    },
    PaoZi {
        seat: u8,
        pao_zi: i32,
    },
    /// 二人麻将 开始时换牌: the seat replaced `n` tiles.
    Exchange {
        seat: u8,
        n: usize,
    },
    /// A declaration made with a discard: `ting` (河北 报听), `liangdao` (卡五星, with the revealed
    /// hand and its waits), `bao_ting` (二人麻将, with 天听).
    Declare {
        name: &'static str,
        seat: u8,
        tile: Option<u8>,
        hand: Vec<u8>,
        waits: Vec<u8>,
        tian_ting: Option<bool>,
    },
    GenZhuang {
        tile: u8,
    },
    KongAbort,
    MaiMa {
        tile: u8,
    },
    ForcedEnd {
        seat: u8,
    },
    /// 二人麻将 海底捞月: the seat that draws from the unused pool.
    Haidi {
        seat: u8,
    },
    /// 武汉: the flipped indicator and the 癞子 it gives.
    Flip {
        tile: u8,
        laizi: u8,
    },
    PiziKong {
        seat: u8,
        tile: u8,
        laizi: bool,
    },
    /// A win: mahjong `value` (the preset's win value), 字牌 `value` = 胡息 with `duo` and the
    /// payments.
    Win {
        seat: u8,
        tile: Option<u8>,
        win_type: &'static str,
        from: Option<u8>,
        value: i64,
        duo: Option<i64>,
        payments: Vec<(u8, u8, i64)>,
    },
    ClaimResolved {
        winners: Vec<u8>,
    },
    WallEmpty,
    /// 字牌 forced and public moves: `sao`, `saochuan`, `guosao`, `kaiduo` (seat, tile);
    /// `zhongduo`, `joker`, `sanlong_wukan` (seat); `bi_hu`, `chou`, `discard`, `untaken`,
    /// `dangdi`, `extra_card` (seat, tile).
    Zipai {
        name: &'static str,
        seat: u8,
        tile: Option<u8>,
    },
    /// 字牌 相公.
    Xianggong {
        seat: u8,
        reason: String,
    },
    /// 字牌 荒庄.
    Exhausted,
    /// 字牌: the net result of the hand.
    Settle {
        net: Vec<i64>,
    },
    /// A card game's record (斗地主, 够级, 顶牛): `name` is its type; `seat`, `tiles` (pieces),
    /// `value` when it has them, and `data` its further keys (each game documents its records).
    Card {
        name: &'static str,
        seat: Option<u8>,
        tiles: Vec<u8>,
        value: Option<i64>,
        data: Option<super::cards::CardData>,
    },
    /// The end of the hand.
    End {
        winners: Vec<u8>,
        balances: Vec<i64>,
        exhausted: bool,
    },
}

impl Event {
    /// The record type (`"start"`, `"action"`, `"draw"` …).
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::Start { .. } => "start",
            Event::Action(_) => "action",
            Event::Dice { .. } => "dice",
            Event::HuaPai { .. } => "hua_pai",
            Event::Deal { .. } | Event::DealCards { .. } => "deal",
            Event::Flower { .. } => "flower",
            Event::Draw { .. } | Event::DrawCard { .. } => "draw",
            Event::ExchangeDone { .. } => "exchange_done",
            Event::PaoZi { .. } => "pao_zi",
            Event::Exchange { .. } => "exchange",
            Event::Declare { name, .. } => name,
            Event::GenZhuang { .. } => "gen_zhuang",
            Event::KongAbort => "kong_abort",
            Event::MaiMa { .. } => "mai_ma",
            Event::ForcedEnd { .. } => "forced_end",
            Event::Haidi { .. } => "haidi",
            Event::Flip { .. } => "flip",
            Event::PiziKong { .. } => "pizi_kong",
            Event::Win { .. } => "win",
            Event::ClaimResolved { .. } => "claim_resolved",
            Event::WallEmpty => "wall_empty",
            Event::Zipai { name, .. } => name,
            Event::Xianggong { .. } => "xianggong",
            Event::Exhausted => "exhausted",
            Event::Settle { .. } => "settle",
            Event::Card { name, .. } => name,
            Event::End { .. } => "end",
        }
    }

    /// The seat the event concerns, if any.
    pub fn seat(&self) -> Option<u8> {
        match self {
            Event::Action(a) => Some(a.seat),
            Event::DealCards { seat, .. }
            | Event::Flower { seat, .. }
            | Event::Draw { seat, .. }
            | Event::DrawCard { seat, .. }
            | Event::PaoZi { seat, .. }
            | Event::Exchange { seat, .. }
            | Event::Declare { seat, .. }
            | Event::ForcedEnd { seat }
            | Event::Haidi { seat }
            | Event::PiziKong { seat, .. }
            | Event::Win { seat, .. }
            | Event::Zipai { seat, .. }
            | Event::Xianggong { seat, .. } => Some(*seat),
            Event::Start { dealer, .. } => Some(*dealer),
            Event::Card { seat, .. } => *seat,
            _ => None,
        }
    }

    /// The piece the event concerns, if any.
    pub fn tile(&self) -> Option<u8> {
        match self {
            Event::Action(a) => a.tile,
            Event::Flower { tile, .. }
            | Event::DrawCard { tile, .. }
            | Event::GenZhuang { tile }
            | Event::MaiMa { tile }
            | Event::Flip { tile, .. }
            | Event::PiziKong { tile, .. } => Some(*tile),
            Event::Declare { tile, .. } | Event::Win { tile, .. } | Event::Zipai { tile, .. } => {
                *tile
            }
            _ => None,
        }
    }

    /// The JSON record of the event log.
    pub fn to_json(&self, pieces: Pieces) -> Value {
        let name = |t: u8| json!(pieces.name(t));
        let names = |ts: &[u8]| Value::Array(ts.iter().map(|&t| name(t)).collect());
        let mut m = Map::new();
        m.insert("type".into(), json!(self.type_name()));
        match self {
            Event::Start {
                variant,
                options,
                seed,
                dealer,
                prevalent_wind,
                wall,
                carry,
                set_aside,
                position,
            } => {
                m.insert("variant".into(), json!(variant));
                m.insert("options".into(), (**options).clone());
                // Seeds beyond 64 bits are written as decimal strings (JSON numbers are 64-bit).
                m.insert(
                    "seed".into(),
                    i64::try_from(*seed).map_or_else(|_| json!(seed.to_string()), |s| json!(s)),
                );
                m.insert("dealer".into(), json!(dealer));
                m.insert("prevalent_wind".into(), json!(prevalent_wind));
                if let Some(w) = wall {
                    m.insert("wall".into(), names(w));
                }
                if let Some(c) = carry {
                    m.insert("carry".into(), c.clone());
                }
                if *set_aside > 0 {
                    m.insert("set_aside".into(), json!(set_aside));
                }
                if let Some(p) = position {
                    m.insert("position".into(), p.clone());
                }
            }
            Event::Action(a) => return a.to_json(pieces),
            Event::Dice { dice, kai_bao } => {
                m.insert("dice".into(), json!(dice));
                m.insert("kai_bao".into(), json!(kai_bao));
            }
            Event::HuaPai { tiles } => {
                m.insert("tiles".into(), names(tiles));
            }
            Event::Deal { wall_remaining } => {
                m.insert("wall_remaining".into(), json!(wall_remaining));
            }
            Event::DealCards { seat, tiles } => {
                m.insert("seat".into(), json!(seat));
                m.insert("tiles".into(), names(tiles));
            }
            Event::Flower { seat, tile } => {
                m.insert("seat".into(), json!(seat));
                m.insert("tile".into(), name(*tile));
            }
            Event::Draw {
                seat,
                replacement,
                haidi,
            } => {
                m.insert("seat".into(), json!(seat));
                if *replacement {
                    m.insert("replacement".into(), json!(true));
                }
                if *haidi {
                    m.insert("haidi".into(), json!(true));
                }
            }
            Event::DrawCard { seat, tile, left } => {
                m.insert("seat".into(), json!(seat));
                m.insert("tile".into(), name(*tile));
                m.insert("left".into(), json!(left));
            }
            Event::ExchangeDone { shift } => {
                m.insert("shift".into(), json!(shift));
            }
            Event::PaoZi { seat, pao_zi } => {
                m.insert("seat".into(), json!(seat));
                m.insert("pao_zi".into(), json!(pao_zi));
            }
            Event::Exchange { seat, n } => {
                m.insert("seat".into(), json!(seat));
                m.insert("n".into(), json!(n));
            }
            Event::Declare {
                seat,
                tile,
                hand,
                waits,
                tian_ting,
                name: kind,
            } => {
                m.insert("seat".into(), json!(seat));
                if let Some(t) = tile {
                    m.insert("tile".into(), name(*t));
                }
                if *kind == "liangdao" {
                    m.insert("hand".into(), names(hand));
                    m.insert("waits".into(), names(waits));
                }
                if let Some(tt) = tian_ting {
                    m.insert("tian_ting".into(), json!(tt));
                }
            }
            Event::GenZhuang { tile } | Event::MaiMa { tile } => {
                m.insert("tile".into(), name(*tile));
            }
            Event::ForcedEnd { seat } | Event::Haidi { seat } => {
                m.insert("seat".into(), json!(seat));
            }
            Event::Flip { tile, laizi } => {
                m.insert("tile".into(), name(*tile));
                m.insert("laizi".into(), name(*laizi));
            }
            Event::PiziKong { seat, tile, laizi } => {
                m.insert("seat".into(), json!(seat));
                m.insert("tile".into(), name(*tile));
                m.insert("laizi".into(), json!(laizi));
            }
            Event::Win {
                seat,
                tile,
                win_type,
                from,
                value,
                duo,
                payments,
            } => {
                m.insert("seat".into(), json!(seat));
                m.insert("tile".into(), tile.map_or(Value::Null, name));
                m.insert("win_type".into(), json!(win_type));
                m.insert("from".into(), json!(from));
                m.insert("value".into(), json!(value));
                if let Some(d) = duo {
                    m.insert("duo".into(), json!(d));
                    m.insert(
                        "payments".into(),
                        Value::Array(
                            payments
                                .iter()
                                .map(|&(f, t, a)| json!({"from": f, "to": t, "amount": a}))
                                .collect(),
                        ),
                    );
                }
            }
            Event::ClaimResolved { winners } => {
                m.insert("winners".into(), json!(winners));
            }
            Event::WallEmpty | Event::KongAbort | Event::Exhausted => {}
            Event::Zipai { seat, tile, .. } => {
                m.insert("seat".into(), json!(seat));
                if let Some(t) = tile {
                    m.insert("tile".into(), name(*t));
                }
            }
            Event::Xianggong { seat, reason } => {
                m.insert("seat".into(), json!(seat));
                m.insert("reason".into(), json!(reason));
            }
            Event::Card {
                seat,
                tiles,
                value,
                data,
                ..
            } => {
                if let Some(s) = seat {
                    m.insert("seat".into(), json!(s));
                }
                if !tiles.is_empty() {
                    m.insert("tiles".into(), names(tiles));
                }
                if let Some(v) = value {
                    m.insert("value".into(), json!(v));
                }
                if let Some(d) = data {
                    if let Value::Object(o) = d.to_json() {
                        for (k, v) in o {
                            if k != "type" && k != "seat" {
                                m.insert(k, v);
                            }
                        }
                    }
                }
            }
            Event::Settle { net } => {
                m.insert("net".into(), json!(net));
            }
            Event::End {
                winners,
                balances,
                exhausted,
            } => {
                m.insert("winners".into(), json!(winners));
                m.insert("balances".into(), json!(balances));
                m.insert("exhausted".into(), json!(exhausted));
            }
        }
        Value::Object(m)
    }
}
