//! Actions of the table protocol: one decision of one seat, naming the pieces (tiles or cards) it
//! concerns. The same type serves every game family; a family reads the fields it uses.

use serde_json::{Map, Value, json};

use crate::error::{Error, Result};

/// The kind of a decision. Mahjong and 字牌 share the claim kinds (`win` = 胡, `pung` = 碰,
/// `chow` = 吃, `kong` = 杠/开舵 is forced in 字牌 and never a decision there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ActionKind {
    Discard = 0,
    Win,
    Pass,
    Pung,
    Kong,
    Chow,
    ConcealedKong,
    AddedKong,
    /// 换三张 (three tiles of one suit, `tiles`), 二人麻将 开始时换牌 (one tile, `tiles`).
    Exchange,
    /// 定缺: `value` = the suit (0 m, 1 p, 2 s).
    DeclareVoid,
    /// 河北 报听: discard `tile` and declare 听.
    DeclareTing,
    /// 陕西 下炮子: `value` 炮子.
    DeclarePaoZi,
    /// 逃跑: the seat leaves; accepted from any seat at any time where the preset has the rule.
    Escape,
    /// 托管 on (`value` 1) / off (0); accepted from any seat at any time.
    AutoPlay,
    /// 武汉 红中杠 / 癞子杠: the single `tile` set aside as a kong.
    PiziKong,
    /// 卡五星 亮倒 / 二人麻将 报听: discard `tile` and declare the hand ready.
    DeclareReady,
    /// 卡五星 漂: `value` = the amount.
    DeclarePiao,
    /// Card games: play `tiles` (斗地主: `tile` = the main rank and `value` = 32 × type index +
    /// length name the reading; 够级: the cards of a lead, answer or burn).
    Play,
    /// 斗地主 叫分: `value` = the bid.
    Bid,
    /// 斗地主 叫地主 (call_rob auction).
    Call,
    /// 斗地主 抢地主.
    Rob,
    /// 斗地主 明牌 / 够级 亮 (`value` 1) or not (0).
    Show,
    /// 够级 让牌.
    Yield,
    /// 够级 革命 (`value` 1) or not (0).
    Revolt,
    /// 够级 要头 (`value` 1) or 无头 (0).
    Head,
    /// 够级 宣点 (`value` 1) or not (0).
    XuanDian,
    /// 够级 还贡: give back one card (`tile`).
    Return,
    /// 顶牛: open the line with `tile` (`value` 2: both copies of a double).
    Open,
    /// 顶牛: lay `tile` on an end (`value` 0 left, 1 right).
    Lay,
    /// 顶牛 扣: turn `tile` face down.
    Kou,
}

impl ActionKind {
    pub const ALL: [ActionKind; 30] = [
        ActionKind::Discard,
        ActionKind::Win,
        ActionKind::Pass,
        ActionKind::Pung,
        ActionKind::Kong,
        ActionKind::Chow,
        ActionKind::ConcealedKong,
        ActionKind::AddedKong,
        ActionKind::Exchange,
        ActionKind::DeclareVoid,
        ActionKind::DeclareTing,
        ActionKind::DeclarePaoZi,
        ActionKind::Escape,
        ActionKind::AutoPlay,
        ActionKind::PiziKong,
        ActionKind::DeclareReady,
        ActionKind::DeclarePiao,
        ActionKind::Play,
        ActionKind::Bid,
        ActionKind::Call,
        ActionKind::Rob,
        ActionKind::Show,
        ActionKind::Yield,
        ActionKind::Revolt,
        ActionKind::Head,
        ActionKind::XuanDian,
        ActionKind::Return,
        ActionKind::Open,
        ActionKind::Lay,
        ActionKind::Kou,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            ActionKind::Discard => "discard",
            ActionKind::Win => "win",
            ActionKind::Pass => "pass",
            ActionKind::Pung => "pung",
            ActionKind::Kong => "kong",
            ActionKind::Chow => "chow",
            ActionKind::ConcealedKong => "concealed_kong",
            ActionKind::AddedKong => "added_kong",
            ActionKind::Exchange => "exchange",
            ActionKind::DeclareVoid => "declare_void",
            ActionKind::DeclareTing => "declare_ting",
            ActionKind::DeclarePaoZi => "declare_pao_zi",
            ActionKind::Escape => "escape",
            ActionKind::AutoPlay => "auto_play",
            ActionKind::PiziKong => "pizi_kong",
            ActionKind::DeclareReady => "declare_ready",
            ActionKind::DeclarePiao => "declare_piao",
            ActionKind::Play => "play",
            ActionKind::Bid => "bid",
            ActionKind::Call => "call",
            ActionKind::Rob => "rob",
            ActionKind::Show => "show",
            ActionKind::Yield => "yield",
            ActionKind::Revolt => "revolt",
            ActionKind::Head => "head",
            ActionKind::XuanDian => "xuan_dian",
            ActionKind::Return => "return",
            ActionKind::Open => "open",
            ActionKind::Lay => "lay",
            ActionKind::Kou => "kou",
        }
    }

    pub fn parse(s: &str) -> Result<ActionKind> {
        ActionKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                Error::hand(format!(
                    "unknown action kind {s:?}; kinds: {}",
                    ActionKind::ALL.map(ActionKind::name).join(", ")
                ))
            })
    }

    /// Table management, accepted from any seat at any time (not part of `legal_actions`).
    pub const fn is_management(self) -> bool {
        matches!(self, ActionKind::Escape | ActionKind::AutoPlay)
    }
}

/// How a family names its pieces (tiles of mahjong, cards of 字牌).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pieces {
    /// Mahjong tiles: indices 0..34 and flowers 34..42 (`crate::tile::Tile`).
    Tiles,
    /// 字牌 cards: indices 0..20 (`x1`..`x10`, `d1`..`d10`) and 20 = a joker (`K`).
    Cards,
    /// A card game's pieces by name, the code being the index (斗地主 and 够级 ranks, 顶牛 tiles):
    /// the game's own notation table (`rules/<game>/table.rs`).
    Named(&'static [&'static str]),
}

/// The piece code of a 字牌 joker.
pub const JOKER: u8 = 20;

impl Pieces {
    /// The notation of a piece code.
    pub fn name(self, code: u8) -> String {
        match self {
            Pieces::Tiles => crate::tile::Tile::new_unchecked(code.min(41)).to_string(),
            Pieces::Cards => {
                if code == JOKER {
                    "K".to_string()
                } else {
                    crate::rules::zipai::Card::from_index(code.min(19))
                        .map(|c| c.to_string())
                        .unwrap_or_default()
                }
            }
            Pieces::Named(names) => names.get(usize::from(code)).copied().unwrap_or("?").into(),
        }
    }

    /// The code of a piece written in the family's notation.
    pub fn parse(self, text: &str) -> Result<u8> {
        match self {
            Pieces::Tiles => Ok(crate::tile::Tile::parse(text)?.index()),
            Pieces::Cards => {
                if text == "K" {
                    Ok(JOKER)
                } else {
                    Ok(crate::rules::zipai::Card::parse(text)?.index())
                }
            }
            Pieces::Named(names) => names
                .iter()
                .position(|n| *n == text)
                .map(|i| i as u8)
                .ok_or_else(|| {
                    Error::tile(text, format!("a piece of this game: {}", names.join(" ")))
                }),
        }
    }

    /// Number of piece codes.
    pub fn codes(self) -> usize {
        match self {
            Pieces::Tiles => 42,
            Pieces::Cards => 21,
            Pieces::Named(names) => names.len(),
        }
    }
}

/// One decision of one seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action {
    pub kind: ActionKind,
    pub seat: u8,
    /// The piece concerned (discard, win, claim, kong; the lowest tile of a mahjong chow; the
    /// claimed card of a 字牌 吃).
    pub tile: Option<u8>,
    /// Several pieces: 换三张 (three), 开始时换牌 (one); a 字牌 吃: its group (3 cards) then each
    /// 比 group (3 cards each).
    pub tiles: Vec<u8>,
    /// A number: the suit of 定缺 (0 m, 1 p, 2 s), 炮子, 漂, 托管 on (1) / off (0).
    pub value: Option<i32>,
}

impl Action {
    pub const fn new(kind: ActionKind, seat: u8, tile: Option<u8>) -> Action {
        Action {
            kind,
            seat,
            tile,
            tiles: Vec::new(),
            value: None,
        }
    }
    pub const fn tile(kind: ActionKind, seat: u8, tile: u8) -> Action {
        Action::new(kind, seat, Some(tile))
    }
    pub const fn valued(kind: ActionKind, seat: u8, value: i32) -> Action {
        Action {
            kind,
            seat,
            tile: None,
            tiles: Vec::new(),
            value: Some(value),
        }
    }

    /// The action record of the event log: `{"type": "action", "kind", "seat", "tile"?,
    /// "tiles"?, "value"?}` with pieces named.
    pub fn to_json(&self, pieces: Pieces) -> Value {
        let mut m = Map::with_capacity(6);
        m.insert("type".into(), json!("action"));
        m.insert("kind".into(), json!(self.kind.name()));
        m.insert("seat".into(), json!(self.seat));
        if let Some(t) = self.tile {
            m.insert("tile".into(), json!(pieces.name(t)));
        }
        if !self.tiles.is_empty() {
            m.insert(
                "tiles".into(),
                Value::Array(self.tiles.iter().map(|&t| json!(pieces.name(t))).collect()),
            );
        }
        if let Some(v) = self.value {
            m.insert("value".into(), json!(v));
        }
        Value::Object(m)
    }

    /// Read an action record (the inverse of [`Action::to_json`]); unknown keys are refused.
    pub fn from_json(v: &Value, pieces: Pieces) -> Result<Action> {
        let Value::Object(m) = v else {
            return Err(Error::hand(format!(
                "an action record is an object, got {v}"
            )));
        };
        for k in m.keys() {
            if !matches!(
                k.as_str(),
                "type" | "kind" | "seat" | "tile" | "tiles" | "value"
            ) {
                return Err(Error::hand(format!(
                    "action record: unknown key {k:?} (type, kind, seat, tile, tiles, value)"
                )));
            }
        }
        let kind = ActionKind::parse(
            m.get("kind")
                .and_then(Value::as_str)
                .ok_or_else(|| Error::hand("action record needs \"kind\" (a string)"))?,
        )?;
        let seat = m
            .get("seat")
            .and_then(Value::as_u64)
            .filter(|&s| s < 16)
            .ok_or_else(|| Error::hand("action record needs \"seat\" (a seat number)"))?
            as u8;
        let piece =
            |x: &Value| -> Result<u8> {
                pieces.parse(x.as_str().ok_or_else(|| {
                    Error::hand(format!("action record: {x} is not a piece name"))
                })?)
            };
        let tile = m.get("tile").map(piece).transpose()?;
        let tiles = match m.get("tiles") {
            None => Vec::new(),
            Some(Value::Array(a)) => a.iter().map(piece).collect::<Result<_>>()?,
            Some(x) => {
                return Err(Error::hand(format!(
                    "action record: tiles {x} is not a list"
                )));
            }
        };
        let value =
            match m.get("value") {
                None => None,
                Some(x) => Some(x.as_i64().and_then(|v| i32::try_from(v).ok()).ok_or_else(
                    || Error::hand(format!("action record: value {x} is not an int")),
                )?),
            };
        Ok(Action {
            kind,
            seat,
            tile,
            tiles,
            value,
        })
    }

    /// A readable description: `seat 0 discard 5m`, `seat 2 chow 345p`.
    pub fn describe(&self, pieces: Pieces) -> String {
        let s = self.seat;
        let k = self.kind.name();
        match self.kind {
            ActionKind::DeclareVoid => format!(
                "seat {s} declares void {}",
                ["m", "p", "s"]
                    .get(self.value.unwrap_or(0) as usize)
                    .unwrap_or(&"?")
            ),
            ActionKind::DeclarePaoZi => {
                format!("seat {s} declares {} 炮子", self.value.unwrap_or(0))
            }
            ActionKind::DeclarePiao => format!("seat {s} declares 漂 {}", self.value.unwrap_or(0)),
            ActionKind::AutoPlay => format!(
                "seat {s} 托管 {}",
                if self.value == Some(1) { "on" } else { "off" }
            ),
            ActionKind::Chow if pieces == Pieces::Tiles && self.tile.is_some() => {
                let t = self.tile.unwrap_or(0);
                let names: String = (0..3)
                    .map(|i| pieces.name(t + i).chars().next().unwrap_or('?'))
                    .collect();
                format!("seat {s} chow {names}{}", &pieces.name(t)[1..])
            }
            // a card play: its cards (the main piece in `tile` is part of them)
            ActionKind::Play if !self.tiles.is_empty() => format!(
                "seat {s} play {}",
                self.tiles
                    .iter()
                    .map(|&t| pieces.name(t))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            _ => {
                let mut out = format!("seat {s} {k}");
                if let Some(t) = self.tile {
                    out.push(' ');
                    out.push_str(&pieces.name(t));
                }
                if !self.tiles.is_empty() {
                    out.push(' ');
                    out.push_str(
                        &self
                            .tiles
                            .iter()
                            .map(|&t| pieces.name(t))
                            .collect::<Vec<_>>()
                            .join(" "),
                    );
                }
                out
            }
        }
    }
}
