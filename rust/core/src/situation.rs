//! The situation of a win, shared by every preset's scorer: the hand (melds, standing tiles, winning
//! tile) and how the win happened. Its JSON form is the case schema of `shared/cases/README.md`
//! (`{"hand": {...}, "situation": {...}}`), extended with optional keys that some presets need.
//!
//! Validation is strict: unknown keys, impossible flag combinations and impossible hands are
//! `InvalidHand` errors that name the field.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::hand::{Hand, Meld, MeldKind};
use crate::tile::{self, Tile};

/// How the winning tile arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinType {
    /// 自摸 from the wall.
    SelfDraw,
    /// 自摸 on the replacement tile after one's own kong (杠上开花).
    KongReplacement,
    /// On another player's discard (点炮).
    Discard,
    /// On the discard another player makes right after his kong's replacement draw (杠上炮).
    AfterKongDiscard,
    /// On the tile another player adds to a pung (抢杠).
    RobKong,
}

impl WinType {
    pub const fn is_self_drawn(self) -> bool {
        matches!(self, WinType::SelfDraw | WinType::KongReplacement)
    }
    pub const fn name(self) -> &'static str {
        match self {
            WinType::SelfDraw => "self_draw",
            WinType::KongReplacement => "kong_replacement",
            WinType::Discard => "discard",
            WinType::AfterKongDiscard => "after_kong_discard",
            WinType::RobKong => "rob_kong",
        }
    }
}

/// First-turn wins (天和 / 地和 / 人和); what exactly qualifies is defined per preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Blessing {
    /// 天和: the dealer wins on the initial deal.
    #[serde(alias = "heaven")]
    Heavenly,
    /// 地和: a non-dealer wins on his first draw (MCR: or on the dealer's first discard, per preset).
    #[serde(alias = "earth")]
    Earthly,
    /// 人和: a non-dealer wins on a discard in the first go-around.
    Human,
}

/// A declared meld in the JSON schema. Accepts the reference-case form (`type` chow/pung/kong,
/// `tile` = middle tile of a chow or the tile, `offer`, `concealed`) and the variant-case form
/// (`type` chi/pon/kong_open/kong_added/kong_concealed, `tiles`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeldInput {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub tile: Option<String>,
    #[serde(default)]
    pub tiles: Option<Vec<String>>,
    #[serde(default)]
    pub offer: Option<u8>,
    #[serde(default)]
    pub concealed: Option<bool>,
}

/// The kind of a kong, where a preset's payments depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KongKind {
    /// 直杠: claimed from a discard.
    Open,
    /// 补杠: added to one's own exposed pung.
    Added,
    /// 暗杠.
    Concealed,
}

impl MeldInput {
    /// Convert to a core meld (plus the kong kind when the input says it), `path` naming the field.
    pub fn to_meld(&self, index: usize) -> Result<(Meld, Option<KongKind>)> {
        let err = |msg: String| Error::hand(format!("hand.melds[{index}]: {msg}"));
        // A plain `kong` claimed from nobody (`offer` 0 or absent) is concealed (暗杠) unless
        // `concealed: false` says otherwise — the reference engine's reading of offer 0.
        let plain_kong_concealed = self.offer.unwrap_or(0) == 0;
        let (kind, kong_kind, mut concealed) = match self.kind.as_str() {
            "chow" | "chi" => (MeldKind::Chow, None, false),
            "pung" | "pon" | "peng" => (MeldKind::Pung, None, false),
            "kong" => (MeldKind::Kong, None, plain_kong_concealed),
            "kong_open" => (MeldKind::Kong, Some(KongKind::Open), false),
            "kong_added" => (MeldKind::Kong, Some(KongKind::Added), false),
            "kong_concealed" => (MeldKind::Kong, Some(KongKind::Concealed), true),
            other => {
                return Err(err(format!(
                    "unknown meld type {other:?} (chow, pung, kong, chi, pon, kong_open, kong_added, kong_concealed)"
                )));
            }
        };
        if let Some(c) = self.concealed {
            if kong_kind.is_some() && c != concealed {
                return Err(err(format!(
                    "'concealed': {c} contradicts type {:?}",
                    self.kind
                )));
            }
            concealed = c;
        }
        let from = self.offer.unwrap_or(0);
        if kind == MeldKind::Kong && concealed && from != 0 {
            return Err(err(format!(
                "a concealed kong (暗杠) is claimed from nobody: 'offer' must be 0, got {from}"
            )));
        }
        let meld = match (&self.tile, &self.tiles) {
            (Some(t), tiles) => {
                let t = Tile::parse(t).map_err(|e| err(format!("tile: {e}")))?;
                let lowest = if kind == MeldKind::Chow {
                    match t.rank() {
                        Some(2..=8) => Tile::new_unchecked(t.index() - 1),
                        _ => return Err(err(format!("{t} cannot be the middle tile of a chow"))),
                    }
                } else {
                    t
                };
                let m = Meld::new(kind, lowest, concealed, from).map_err(|e| err(e.to_string()))?;
                if let Some(ts) = tiles {
                    let listed = parse_list(ts).map_err(|e| err(format!("tiles: {e}")))?;
                    let mut listed_sorted = listed;
                    listed_sorted.sort_unstable();
                    if listed_sorted != m.tiles() {
                        return Err(err(format!(
                            "'tiles' {} do not match {} {}",
                            tile::format_tiles(&listed_sorted),
                            self.kind,
                            m.tiles()
                                .first()
                                .map(ToString::to_string)
                                .unwrap_or_default()
                        )));
                    }
                }
                m
            }
            (None, Some(ts)) => {
                let listed = parse_list(ts).map_err(|e| err(format!("tiles: {e}")))?;
                let m =
                    Meld::from_tiles(&listed, concealed, from).map_err(|e| err(e.to_string()))?;
                if m.kind != kind {
                    return Err(err(format!(
                        "tiles {} are a {}, not a {}",
                        tile::format_tiles(&listed),
                        m.kind.name(),
                        self.kind
                    )));
                }
                m
            }
            (None, None) => return Err(err("a meld needs 'tile' or 'tiles'".into())),
        };
        Ok((meld, kong_kind))
    }
}

/// The shape of a `hand` object, as error messages spell it.
const HAND_SHAPE: &str = "notation text such as \"123m456p789s1122z+1z\" or an object {\"melds\": [...], \
                          \"concealed\": [\"1m\", ...], \"win_tile\": \"1z\"}";
/// The shape of a meld object.
const MELD_SHAPE: &str = "a meld object such as {\"type\": \"pung\", \"tile\": \"5m\"} or {\"type\": \"chi\", \
                          \"tiles\": [\"3s\", \"4s\", \"5s\"]}";
/// The shape of a `situation` object.
const FLAGS_SHAPE: &str = "an object of flags such as {\"self_drawn\": true, \"seat_wind\": \"S\"}";

/// What a JSON value is, for an error message (`a number 5`, `a list`).
pub(crate) fn json_kind(v: &serde_json::Value) -> String {
    use serde_json::Value as V;
    match v {
        V::Null => "null".into(),
        V::Bool(b) => format!("{b}"),
        V::Number(n) => format!("a number {n}"),
        V::String(t) => format!("text {t:?}"),
        V::Array(_) => "a list".into(),
        V::Object(_) => "an object".into(),
    }
}

/// Deserialize one object of the input schema; `what` is where it is (`hand`, `situation`) and
/// `shape` what it should look like. Anything but an object is refused with that shape (serde
/// would also read a struct from a list, by field order), and a refused field is named by its
/// path (`hand.melds[1].tiles: ...`) in the schema's words, never the Rust type's (`expected
/// struct HandInput`). The plain deserialization runs first: the path-tracking one only runs to
/// explain an error.
pub(crate) fn input_object<T: serde::de::DeserializeOwned>(
    v: &serde_json::Value,
    what: &str,
    shape: &str,
) -> Result<T> {
    if !v.is_object() {
        return Err(Error::hand(format!(
            "{what}: expected {shape}, got {}",
            json_kind(v)
        )));
    }
    T::deserialize(v).map_err(|first| {
        let e = match serde_path_to_error::deserialize::<_, T>(v) {
            Ok(_) => return Error::hand(format!("{what}: {first}")),
            Err(e) => e,
        };
        let mut at = e.path().to_string();
        let mut msg = e.into_inner().to_string();
        if msg.starts_with("unknown field") {
            // the path ends with the unknown key itself, which the message names already
            at = at
                .rsplit_once('.')
                .map_or_else(|| ".".to_string(), |(head, _)| head.to_string());
        }
        for (rust, schema) in [
            ("struct HandInput", HAND_SHAPE),
            ("struct MeldInput", MELD_SHAPE),
            ("struct FlagsInput", FLAGS_SHAPE),
            ("a sequence", "a list"),
        ] {
            msg = msg.replace(rust, schema);
        }
        Error::hand(if at == "." {
            format!("{what}: {msg}")
        } else {
            format!("{what}.{at}: {msg}")
        })
    })
}

/// The hand object of a case; an error names where it is (`hand.melds[2]: unknown field ...`).
fn hand_from_value(h: &serde_json::Value) -> Result<HandInput> {
    melds_are_objects(h, "hand")?;
    input_object(h, "hand", HAND_SHAPE)
}

/// Every item of `v.melds` (when it is a list) is an object: serde would read a meld from a list
/// too, by field order, which no documented form is.
pub(crate) fn melds_are_objects(v: &serde_json::Value, what: &str) -> Result<()> {
    if let Some(ms) = v.get("melds").and_then(serde_json::Value::as_array)
        && let Some((i, m)) = ms.iter().enumerate().find(|(_, m)| !m.is_object())
    {
        return Err(Error::hand(format!(
            "{what}.melds[{i}]: expected {MELD_SHAPE}, got {}",
            json_kind(m)
        )));
    }
    Ok(())
}

fn flags_from_value(v: &serde_json::Value) -> Result<FlagsInput> {
    input_object(v, "situation", FLAGS_SHAPE)
}

fn parse_list(ts: &[String]) -> Result<Vec<Tile>> {
    ts.iter().map(|t| Tile::parse(t)).collect()
}

/// A value of the input schema that must be a JSON object, read from JSON text: serde would read a
/// struct from a list too (by field order), which no documented form is.
pub struct ObjectOnly<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ObjectOnly<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Object<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Object<T> {
            type Value = ObjectOnly<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(ObjectOnly)
            }
        }
        d.deserialize_map(Object(std::marker::PhantomData))
    }
}

/// The `hand` of a case read from JSON text: notation or the hand object (its melds objects).
pub enum CaseHand {
    Notation(String),
    Object(HandInput),
}

impl<'de> Deserialize<'de> for CaseHand {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Fields {
            #[serde(default)]
            melds: Vec<ObjectOnly<MeldInput>>,
            concealed: Vec<String>,
            win_tile: String,
        }
        struct Hand;
        impl<'de> serde::de::Visitor<'de> for Hand {
            type Value = CaseHand;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("notation text or a hand object")
            }
            fn visit_str<E: serde::de::Error>(
                self,
                text: &str,
            ) -> std::result::Result<CaseHand, E> {
                Ok(CaseHand::Notation(text.to_owned()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> std::result::Result<CaseHand, A::Error> {
                let f = Fields::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(CaseHand::Object(HandInput {
                    melds: f.melds.into_iter().map(|m| m.0).collect(),
                    concealed: f.concealed,
                    win_tile: f.win_tile,
                }))
            }
        }
        d.deserialize_any(Hand)
    }
}

/// `hand` object of the JSON schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandInput {
    #[serde(default)]
    pub melds: Vec<MeldInput>,
    /// Standing tiles before the winning tile.
    pub concealed: Vec<String>,
    pub win_tile: String,
}

impl HandInput {
    /// The hand of a notation string with a winning tile (`"[EEE,2]123m...+9s"`).
    pub fn from_notation(text: &str) -> Result<HandInput> {
        let (standing, melds, win) = crate::hand::parse_notation(text)?;
        let Some(win) = win else {
            return Err(Error::hand(format!(
                "{text:?}: the winning tile must follow '+', e.g. \"123m456p789s1122z+1z\""
            )));
        };
        Ok(HandInput {
            melds: melds
                .iter()
                .map(|m| MeldInput {
                    kind: m.kind.name().to_string(),
                    tile: None,
                    tiles: Some(m.tiles().iter().map(ToString::to_string).collect()),
                    offer: Some(m.from),
                    concealed: Some(m.concealed),
                })
                .collect(),
            concealed: standing.iter().map(ToString::to_string).collect(),
            win_tile: win.to_string(),
        })
    }
}

fn default_wind() -> String {
    "E".into()
}

/// `situation` object of the JSON schema. The first eight keys are the MCR reference schema; the
/// seat keys place the win at a table (see [`crate::scoring::score`] for the seats of payments);
/// the rest are flags that only some presets read ([`PRESET_FLAGS`]: a preset refuses those it
/// does not read).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlagsInput {
    #[serde(default)]
    pub self_drawn: Option<bool>,
    /// 和绝张: the winning tile is the last copy.
    #[serde(default)]
    pub fourth_tile: bool,
    /// Self-drawn: 杠上开花; on a discard: 抢杠和.
    #[serde(default)]
    pub about_kong: Option<bool>,
    /// Self-drawn: 妙手回春 / 海底捞月; on a discard: 海底捞月 / 河底.
    #[serde(default)]
    pub wall_last: bool,
    #[serde(default = "default_wind")]
    pub seat_wind: String,
    #[serde(default = "default_wind")]
    pub prevalent_wind: String,
    #[serde(default)]
    pub flowers: u8,
    /// Alternative to `self_drawn` + `about_kong` that can also say 杠上炮.
    #[serde(default)]
    pub win_type: Option<WinType>,
    /// The winner is the dealer.
    #[serde(default)]
    pub dealer: Option<bool>,
    #[serde(default)]
    pub blessing: Option<Blessing>,
    /// The flower tiles themselves (`f1`..`f8`), where a preset cares which ones.
    #[serde(default)]
    pub flower_tiles: Option<Vec<String>>,
    /// 杠上开花 / 杠上炮: the kind of the kong just made (`open` 直杠 / `added` / `concealed`), where a
    /// preset cares (四川 点杠花).
    #[serde(default)]
    pub last_kong: Option<KongKind>,
    /// Seats at the table (must be the preset's, when given).
    #[serde(default)]
    pub players: Option<u8>,
    /// The winner's seat (default: the seat wind's index, E 0 … N 3).
    #[serde(default)]
    pub seat: Option<u8>,
    /// The discarder's seat on a discard win (default: the winner's 上家).
    #[serde(default)]
    pub discarder: Option<u8>,
    /// The dealer's seat (default: the winner when `dealer`, else seat 0 — seat 1 when the winner
    /// sits at 0).
    #[serde(default)]
    pub dealer_seat: Option<u8>,
    /// 定缺: the suit (`m`, `p`, `s`) the winner declared void (四川).
    #[serde(default)]
    pub void_suit: Option<String>,
    /// 报听 declared (二人麻将 门清报听, 上海 敲麻 …).
    #[serde(default)]
    pub ready_declared: bool,
    /// 天听: 报听 declared on the first turn with no claim before (二人麻将).
    #[serde(default)]
    pub ready_first_turn: bool,
    /// The win came in the draws after the wall was exhausted (二人麻将 海底捞月 phase).
    #[serde(default)]
    pub after_exhaustion: bool,
    /// The flipped 癞子 / 混儿 / 百搭 indicator tile (武汉, 河北, 上海).
    #[serde(default)]
    pub wild_indicator: Option<String>,
    /// 武汉: the winner's 红中杠 count (红中 exposed or discarded), and his 癞子杠 count.
    #[serde(default)]
    pub hongzhong_kongs: u8,
    #[serde(default)]
    pub laizi_kongs: u8,
    /// 报听一发: the win came within the first go-around after 报听 (二人麻将
    /// `fan_profile = billee1011_option_4`).
    #[serde(default)]
    pub ready_yi_fa: bool,
    /// 卡五星: the winner had declared 亮倒.
    #[serde(default)]
    pub liangdao: bool,
    /// 上海: pending 开宝 and 黄番 counts carried into this hand (0..=20).
    #[serde(default)]
    pub kai_bao: u8,
    #[serde(default)]
    pub huang_fan: u8,
    /// 上海 `dragons_as_flowers`: 中发白 set aside as flowers (0..=12).
    #[serde(default)]
    pub dragon_flowers: u8,
}

/// The situation keys that only some presets read. A preset refuses a win that sets one it does
/// not read (naming the key and the keys it reads), so that no flag is silently ignored.
pub const PRESET_FLAGS: &[&str] = &[
    "void_suit",
    "ready_declared",
    "ready_first_turn",
    "after_exhaustion",
    "wild_indicator",
    "hongzhong_kongs",
    "laizi_kongs",
    "ready_yi_fa",
    "liangdao",
    "kai_bao",
    "huang_fan",
    "dragon_flowers",
];

/// Optional per-preset flags of a situation (see the matching [`FlagsInput`] keys).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExtraFlags {
    pub ready_declared: bool,
    pub ready_first_turn: bool,
    pub after_exhaustion: bool,
    pub wild_indicator: Option<Tile>,
    pub hongzhong_kongs: u8,
    pub laizi_kongs: u8,
    pub ready_yi_fa: bool,
    pub liangdao: bool,
    pub kai_bao: u8,
    pub huang_fan: u8,
    pub dragon_flowers: u8,
}

/// Where the win sits at the table, as the input said it (resolved against the number of seats
/// by [`Situation::winner_seat`] and friends).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatFacts {
    pub players: Option<u8>,
    pub seat: Option<u8>,
    pub discarder: Option<u8>,
    pub dealer_seat: Option<u8>,
    /// `situation.dealer` was given (else it follows `dealer_seat` when that is given).
    pub dealer_given: bool,
}

/// The JSON form of a situation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SituationInput {
    pub hand: HandInput,
    #[serde(default = "default_flags")]
    pub situation: FlagsInput,
}

/// An absent `situation` object means every key at its serde default (winds `E`), not the
/// derived `Default` (empty strings).
pub fn default_flags() -> FlagsInput {
    serde_json::from_str("{}").expect("every key has a default")
}

/// A validated situation of a win.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Situation {
    /// Standing tiles before the winning tile, and the declared melds.
    pub hand: Hand,
    /// The kong kind of each meld where known (same order as `hand.melds()`).
    pub kong_kinds: Vec<Option<KongKind>>,
    pub win_tile: Tile,
    pub win_type: WinType,
    pub fourth_tile: bool,
    pub wall_last: bool,
    pub seat_wind: Tile,
    pub prevalent_wind: Tile,
    /// Number of flowers (0..=8).
    pub flowers: u8,
    pub flower_tiles: Vec<Tile>,
    pub dealer: bool,
    pub blessing: Option<Blessing>,
    /// 定缺 suit index (0 m, 1 p, 2 s).
    pub void_suit: Option<u8>,
    /// The kind of the kong just made, for 杠上开花 / 杠上炮 (see [`FlagsInput::last_kong`]).
    pub last_kong: Option<KongKind>,
    /// Optional per-preset flags (报听, 天听, 海底 phase, 亮倒, pending 番 …).
    pub extra: ExtraFlags,
    /// The seats of the win (winner, discarder, dealer) as given.
    pub table: SeatFacts,
}

fn wind(text: &str, field: &str) -> Result<Tile> {
    let t = Tile::parse(text).map_err(|e| Error::hand(format!("situation.{field}: {e}")))?;
    if !t.is_wind() {
        return Err(Error::hand(format!(
            "situation.{field}: {t} is not a wind (E, S, W, N)"
        )));
    }
    Ok(t)
}

/// The situation keys, for the hint on a flat key.
const SITUATION_KEYS: &[&str] = &[
    "self_drawn",
    "fourth_tile",
    "about_kong",
    "wall_last",
    "seat_wind",
    "prevalent_wind",
    "flowers",
    "win_type",
    "dealer",
    "blessing",
    "flower_tiles",
    "last_kong",
    "players",
    "seat",
    "discarder",
    "dealer_seat",
];

impl Situation {
    /// Parse and validate the JSON form.
    pub fn from_json(text: &str) -> Result<Situation> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| Error::hand(format!("situation JSON: {e}")))?;
        Situation::from_case(&v)
    }

    /// [`Situation::from_case`] of a case already read from JSON text into its input types, in the
    /// same pass as the request around it ([`CaseHand`], [`ObjectOnly`]): the request parsers of
    /// JSON lines and batch items, which so skip a JSON tree (whose building and freeing cost
    /// several times the scoring). `None` without a hand: the caller then reads the tree, for
    /// `from_case`'s error message. Otherwise the same checks as `from_case`, on the same values.
    pub fn from_case_text(
        hand: Option<CaseHand>,
        situation: Option<FlagsInput>,
    ) -> Option<Result<Situation>> {
        let hand = match hand? {
            CaseHand::Notation(text) => match HandInput::from_notation(&text) {
                Ok(h) => h,
                Err(e) => return Some(Err(e)),
            },
            CaseHand::Object(h) => h,
        };
        let situation = situation.unwrap_or_else(default_flags);
        Some(Situation::from_input(&SituationInput { hand, situation }))
    }

    /// Parse a case-schema object `{"hand": {...} | "notation+T", "situation": {...}}`. Any other
    /// key is refused (a situation key written beside `hand` says where it belongs).
    pub fn from_case(v: &serde_json::Value) -> Result<Situation> {
        let serde_json::Value::Object(o) = v else {
            return Err(Error::hand(
                "a situation is an object {\"hand\": ..., \"situation\": {...}}",
            ));
        };
        for k in o.keys() {
            if k == "hand" || k == "situation" {
                continue;
            }
            if SITUATION_KEYS.contains(&k.as_str()) || PRESET_FLAGS.contains(&k.as_str()) {
                return Err(Error::hand(format!(
                    "{k:?} is a situation key: write {{\"hand\": ..., \"situation\": {{{k:?}: ...}}}}"
                )));
            }
            return Err(Error::hand(format!(
                "unknown key {k:?} beside the situation; accepted: hand, situation"
            )));
        }
        let hand = match o.get("hand") {
            None => return Err(Error::hand("a situation needs the key 'hand'")),
            Some(serde_json::Value::String(t)) => HandInput::from_notation(t)?,
            Some(h) => hand_from_value(h)?,
        };
        let situation = match o.get("situation") {
            None | Some(serde_json::Value::Null) => default_flags(),
            Some(f) => flags_from_value(f)?,
        };
        Situation::from_input(&SituationInput { hand, situation })
    }

    /// Validate a parsed input.
    pub fn from_input(input: &SituationInput) -> Result<Situation> {
        let mut melds = Vec::with_capacity(input.hand.melds.len());
        let mut kong_kinds = Vec::with_capacity(input.hand.melds.len());
        for (i, m) in input.hand.melds.iter().enumerate() {
            let (meld, kk) = m.to_meld(i)?;
            melds.push(meld);
            kong_kinds.push(kk);
        }
        let standing = parse_list(&input.hand.concealed)
            .map_err(|e| Error::hand(format!("hand.concealed: {e}")))?;
        let win_tile = Tile::parse(&input.hand.win_tile)
            .map_err(|e| Error::hand(format!("hand.win_tile: {e}")))?;
        let f = &input.situation;
        let win_type = match (f.win_type, f.self_drawn, f.about_kong) {
            (Some(w), sd, ak) => {
                if sd.is_some_and(|sd| sd != w.is_self_drawn()) {
                    return Err(Error::hand(format!(
                        "situation: self_drawn={} contradicts win_type={}",
                        sd.unwrap_or_default(),
                        w.name()
                    )));
                }
                let kongish = matches!(w, WinType::KongReplacement | WinType::RobKong);
                if ak.is_some_and(|ak| ak != kongish) && w != WinType::AfterKongDiscard {
                    return Err(Error::hand(format!(
                        "situation: about_kong={} contradicts win_type={}",
                        ak.unwrap_or_default(),
                        w.name()
                    )));
                }
                w
            }
            (None, sd, ak) => match (sd.unwrap_or(false), ak.unwrap_or(false)) {
                (true, false) => WinType::SelfDraw,
                (true, true) => WinType::KongReplacement,
                (false, false) => WinType::Discard,
                (false, true) => WinType::RobKong,
            },
        };
        if f.flowers > 8 {
            return Err(Error::hand(format!(
                "situation.flowers: {} (there are only 8 flowers)",
                f.flowers
            )));
        }
        let mut flower_tiles = Vec::new();
        if let Some(ft) = &f.flower_tiles {
            flower_tiles =
                parse_list(ft).map_err(|e| Error::hand(format!("situation.flower_tiles: {e}")))?;
            if let Some(t) = flower_tiles.iter().find(|t| !t.is_flower()) {
                return Err(Error::hand(format!(
                    "situation.flower_tiles: {t} is not a flower"
                )));
            }
            let mut sorted = flower_tiles.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() != flower_tiles.len() {
                return Err(Error::hand(
                    "situation.flower_tiles: each flower exists once",
                ));
            }
            if f.flowers != 0 && usize::from(f.flowers) != flower_tiles.len() {
                return Err(Error::hand(
                    "situation.flowers disagrees with situation.flower_tiles",
                ));
            }
        }
        let void_suit = match f.void_suit.as_deref() {
            None => None,
            Some("m") => Some(0),
            Some("p") => Some(1),
            Some("s") => Some(2),
            Some(other) => {
                return Err(Error::hand(format!(
                    "situation.void_suit: {other:?} is not m, p or s"
                )));
            }
        };
        for (key, v, max) in [
            ("kai_bao", f.kai_bao, 20),
            ("huang_fan", f.huang_fan, 20),
            ("dragon_flowers", f.dragon_flowers, 12),
            ("hongzhong_kongs", f.hongzhong_kongs, 8),
            ("laizi_kongs", f.laizi_kongs, 8),
        ] {
            if v > max {
                return Err(Error::hand(format!(
                    "situation.{key}: a count 0..={max}, got {v}"
                )));
            }
        }
        let seat_wind = wind(&f.seat_wind, "seat_wind")?;
        let table = SeatFacts {
            players: f.players,
            seat: f.seat,
            discarder: f.discarder,
            dealer_seat: f.dealer_seat,
            dealer_given: f.dealer.is_some(),
        };
        for (key, v) in [
            ("players", f.players.filter(|&p| !(2..=4).contains(&p))),
            ("seat", f.seat.filter(|&p| p > 3)),
            ("discarder", f.discarder.filter(|&p| p > 3)),
            ("dealer_seat", f.dealer_seat.filter(|&p| p > 3)),
        ] {
            if let Some(v) = v {
                return Err(Error::hand(format!(
                    "situation.{key}: {v} is not a seat of a table of 2..4 (seats 0..3)"
                )));
            }
        }
        let winner = f.seat.unwrap_or(seat_wind.index() - 27);
        let dian_gang_hua =
            win_type == WinType::KongReplacement && f.last_kong == Some(KongKind::Open);
        if win_type.is_self_drawn() && f.discarder.is_some() && !dian_gang_hua {
            return Err(Error::hand(format!(
                "situation.discarder: a {} win has no discarder",
                win_type.name()
            )));
        }
        if f.discarder == Some(winner) {
            return Err(Error::hand(
                "situation.discarder is the winner's own seat (situation.seat / seat_wind)",
            ));
        }
        let dealer = match (f.dealer, f.dealer_seat) {
            (Some(d), Some(ds)) if d != (ds == winner) => {
                return Err(Error::hand(format!(
                    "situation.dealer={d} contradicts dealer_seat={ds} (the winner sits at {winner})"
                )));
            }
            (Some(d), _) => d,
            (None, Some(ds)) => ds == winner,
            (None, None) => false,
        };
        let hand = Hand::new(standing, melds).map_err(|e| e.context("hand"))?;
        if hand.is_complete() {
            return Err(Error::hand(format!(
                "hand.concealed must hold {} tiles before the winning tile, got {}",
                13 - 3 * hand.melds().len(),
                hand.concealed().len()
            )));
        }
        // The winning tile must fit: at most four copies in all.
        let mut all = hand.all_counts();
        if win_tile.is_flower() {
            return Err(Error::hand(format!(
                "hand.win_tile: a flower ({win_tile}) cannot be the winning tile"
            )));
        }
        all[win_tile.idx()] += 1;
        if all[win_tile.idx()] > 4 {
            return Err(Error::hand(format!(
                "five copies of {win_tile} with the winning tile"
            )));
        }
        Ok(Situation {
            hand,
            kong_kinds,
            win_tile,
            win_type,
            fourth_tile: f.fourth_tile,
            wall_last: f.wall_last,
            seat_wind,
            prevalent_wind: wind(&f.prevalent_wind, "prevalent_wind")?,
            flowers: if flower_tiles.is_empty() {
                f.flowers
            } else {
                flower_tiles.len() as u8
            },
            flower_tiles,
            dealer,
            blessing: f.blessing,
            void_suit,
            last_kong: f.last_kong,
            extra: ExtraFlags {
                ready_declared: f.ready_declared || f.ready_first_turn,
                ready_first_turn: f.ready_first_turn,
                after_exhaustion: f.after_exhaustion,
                wild_indicator: match &f.wild_indicator {
                    None => None,
                    Some(t) => Some(
                        Tile::parse(t)
                            .map_err(|e| Error::hand(format!("situation.wild_indicator: {e}")))?,
                    ),
                },
                hongzhong_kongs: f.hongzhong_kongs,
                laizi_kongs: f.laizi_kongs,
                ready_yi_fa: f.ready_yi_fa,
                liangdao: f.liangdao,
                kai_bao: f.kai_bao,
                huang_fan: f.huang_fan,
                dragon_flowers: f.dragon_flowers,
            },
            table,
        })
    }

    /// A discard win of `hand` on `win_tile` with no other flag (to probe waits).
    pub fn plain(hand: Hand, win_tile: Tile) -> Situation {
        Situation {
            kong_kinds: vec![None; hand.melds().len()],
            hand,
            win_tile,
            win_type: WinType::Discard,
            fourth_tile: false,
            wall_last: false,
            seat_wind: Tile::E,
            prevalent_wind: Tile::E,
            flowers: 0,
            flower_tiles: Vec::new(),
            dealer: false,
            blessing: None,
            void_suit: None,
            last_kong: None,
            extra: ExtraFlags::default(),
            table: SeatFacts::default(),
        }
    }

    /// The preset-only flags this situation sets (names of [`PRESET_FLAGS`]).
    pub fn preset_flags(&self) -> impl Iterator<Item = &'static str> + '_ {
        let e = &self.extra;
        [
            ("void_suit", self.void_suit.is_some()),
            ("ready_declared", e.ready_declared && !e.ready_first_turn),
            ("ready_first_turn", e.ready_first_turn),
            ("after_exhaustion", e.after_exhaustion),
            ("wild_indicator", e.wild_indicator.is_some()),
            ("hongzhong_kongs", e.hongzhong_kongs > 0),
            ("laizi_kongs", e.laizi_kongs > 0),
            ("ready_yi_fa", e.ready_yi_fa),
            ("liangdao", e.liangdao),
            ("kai_bao", e.kai_bao > 0),
            ("huang_fan", e.huang_fan > 0),
            ("dragon_flowers", e.dragon_flowers > 0),
        ]
        .into_iter()
        .filter(|x| x.1)
        .map(|x| x.0)
    }

    /// Refuse a preset-only flag that `preset` does not read (`reads`: the flags it reads).
    #[inline]
    pub fn check_flags(&self, preset: &str, reads: &[&str]) -> Result<()> {
        // Most situations carry no preset-only flag: that test stays inline in every preset's
        // `score`, the search and the message are out of line.
        if self.extra == ExtraFlags::default() && self.void_suit.is_none() {
            return Ok(());
        }
        self.check_set_flags(preset, reads)
    }

    /// [`Situation::check_flags`] once some preset-only flag is set.
    #[cold]
    #[inline(never)]
    fn check_set_flags(&self, preset: &str, reads: &[&str]) -> Result<()> {
        if let Some(k) = self.preset_flags().find(|k| !reads.contains(k)) {
            return Err(Error::hand(format!(
                "situation.{k}: {preset} does not read this flag (its own flags: {})",
                if reads.is_empty() {
                    "none".to_string()
                } else {
                    reads.join(", ")
                }
            )));
        }
        Ok(())
    }

    /// The winner's seat at a table of `n`: `situation.seat`, else the seat wind's index.
    #[inline]
    pub fn winner_seat(&self, n: u8) -> Result<u8> {
        let s = self.table.seat.unwrap_or(self.seat_wind.index() - 27);
        // the checks inline (every score asks), the messages out of line
        if self.table.players.is_some_and(|p| p != n) || s >= n {
            return Err(self.seat_error(n, s));
        }
        Ok(s)
    }

    /// Why [`Situation::winner_seat`] refused: the table's size, or a seat beyond it.
    #[cold]
    #[inline(never)]
    fn seat_error(&self, n: u8, s: u8) -> Error {
        if let Some(p) = self.table.players.filter(|&p| p != n) {
            return Error::hand(format!(
                "situation.players: this preset seats {n} players, not {p}"
            ));
        }
        Error::hand(format!(
            "the winner's seat {s} ({}) is not a seat of this {n}-player table; give situation.seat (0..{n})",
            if self.table.seat.is_some() {
                "situation.seat".to_string()
            } else {
                format!("seat wind {}", self.seat_wind)
            }
        ))
    }

    /// The discarder's seat of a discard win at a table of `n` (`situation.discarder`, else the
    /// winner's 上家); `None` for a self-drawn win.
    pub fn discarder_seat(&self, n: u8) -> Result<Option<u8>> {
        let w = self.winner_seat(n)?;
        if self.is_self_drawn() {
            // only a 杠上开花 after a 直杠 names a payer (四川 点杠花)
            return match self.table.discarder {
                Some(d) if d >= n => Err(Error::hand(format!(
                    "situation.discarder {d} is not a seat of this {n}-player table"
                ))),
                d => Ok(d),
            };
        }
        let d = self.table.discarder.unwrap_or((w + n - 1) % n);
        if d >= n {
            return Err(Error::hand(format!(
                "situation.discarder {d} is not a seat of this {n}-player table"
            )));
        }
        Ok(Some(d))
    }

    /// The dealer's seat at a table of `n` (`situation.dealer_seat`; else the winner when
    /// `dealer`, else seat 0 — seat 1 when the winner sits at 0).
    pub fn dealer_seat(&self, n: u8) -> Result<u8> {
        let w = self.winner_seat(n)?;
        let d = match self.table.dealer_seat {
            Some(d) => d,
            None if self.dealer => w,
            None => u8::from(w == 0),
        };
        if d >= n {
            return Err(Error::hand(format!(
                "situation.dealer_seat {d} is not a seat of this {n}-player table"
            )));
        }
        Ok(d)
    }

    /// Place the win at a hand record's table: winner, discarder and dealer seats from the
    /// record; the situation's own seat keys, when given, must agree.
    pub fn place(
        &mut self,
        winner: impl Into<usize>,
        discarder: Option<impl Into<usize>>,
        dealer: Option<impl Into<usize>>,
    ) -> Result<()> {
        let winner = winner.into() as u8;
        let discarder = discarder.map(|d| d.into() as u8);
        let dealer = dealer.map(|d| d.into() as u8);
        if let Some(s) = self.table.seat.filter(|&s| s != winner) {
            return Err(Error::hand(format!(
                "situation.seat {s} disagrees with the record's winner (seat {winner})"
            )));
        }
        if self.is_self_drawn() {
            if discarder.is_some() && !self.allows_self_draw_payer() {
                return Err(Error::settlement(format!(
                    "a {} win has no discarder",
                    self.win_type.name()
                )));
            }
        } else if discarder.is_none() {
            return Err(Error::settlement(format!(
                "a {} win needs \"discarder\" (the robbed player for 抢杠)",
                self.win_type.name()
            )));
        }
        if let (Some(a), Some(b)) = (self.table.discarder, discarder) {
            if a != b {
                return Err(Error::hand(format!(
                    "situation.discarder {a} disagrees with the record's discarder (seat {b})"
                )));
            }
        }
        if let Some(d) = dealer {
            if let Some(x) = self.table.dealer_seat.filter(|&x| x != d) {
                return Err(Error::hand(format!(
                    "situation.dealer_seat {x} disagrees with the record's dealer (seat {d})"
                )));
            }
            if self.table.dealer_given && self.dealer != (d == winner) {
                return Err(Error::settlement(format!(
                    "situation.dealer={} disagrees with the record's dealer",
                    self.dealer
                )));
            }
            self.dealer = d == winner;
            self.table.dealer_seat = Some(d);
        }
        self.table.seat = Some(winner);
        self.table.discarder = discarder;
        Ok(())
    }

    /// 点杠花 paid as a discard (四川): a 杠上开花 after a 直杠 names its payer as the discarder.
    fn allows_self_draw_payer(&self) -> bool {
        self.win_type == WinType::KongReplacement && self.last_kong == Some(KongKind::Open)
    }

    pub fn is_self_drawn(&self) -> bool {
        self.win_type.is_self_drawn()
    }

    /// Standing tiles including the winning tile.
    pub fn full_counts(&self) -> tile::Counts {
        let mut c = *self.hand.counts();
        c[self.win_tile.idx()] += 1;
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: &str = r#"{"hand": {"melds": [{"type": "pung", "tile": "E", "offer": 2, "concealed": false, "tiles": ["E","E","E"]},
        {"type": "kong", "tile": "S", "offer": 0, "concealed": true}],
        "concealed": ["5p","5p","W","W","W","N","N"], "win_tile": "N"},
        "situation": {"self_drawn": true, "fourth_tile": false, "about_kong": false, "wall_last": false,
        "seat_wind": "E", "prevalent_wind": "E", "flowers": 0}}"#;

    #[test]
    fn parses_the_case_schema() {
        let s = Situation::from_json(CASE).unwrap();
        assert_eq!(s.win_type, WinType::SelfDraw);
        assert_eq!(s.hand.melds().len(), 2);
        assert!(s.hand.melds()[1].concealed);
        assert_eq!(
            s.full_counts().iter().map(|&c| c as usize).sum::<usize>(),
            8
        );
    }

    #[test]
    fn kong_offer_zero_is_concealed() {
        let k = |m: &str| {
            let v: serde_json::Value = serde_json::from_str(&format!(
                r#"{{"hand": {{"melds": [{m}], "concealed": ["5p","5p","W","W","W","N","N","C","C","C"], "win_tile": "N"}}}}"#
            ))
            .unwrap();
            Situation::from_case(&v).map(|s| s.hand.melds()[0].concealed)
        };
        assert_eq!(k(r#"{"type": "kong", "tile": "S", "offer": 0}"#), Ok(true));
        assert_eq!(k(r#"{"type": "kong", "tile": "S"}"#), Ok(true));
        assert_eq!(k(r#"{"type": "kong", "tile": "S", "offer": 1}"#), Ok(false));
        assert_eq!(
            k(r#"{"type": "kong", "tile": "S", "offer": 0, "concealed": false}"#),
            Ok(false)
        );
        assert!(k(r#"{"type": "kong", "tile": "S", "offer": 1, "concealed": true}"#).is_err());
    }

    #[test]
    fn flat_keys_and_seats() {
        let v: serde_json::Value =
            serde_json::from_str(r#"{"hand": "[EEE,1]123m456p78s99s+9s", "self_drawn": true}"#)
                .unwrap();
        let e = Situation::from_case(&v).unwrap_err().to_string();
        assert!(e.contains("situation key"), "{e}");
        let v: serde_json::Value = serde_json::from_str(
            r#"{"hand": "[EEE,1]123m456p78s99s+9s", "situation": {"seat_wind": "S", "dealer_seat": 3}}"#,
        )
        .unwrap();
        let s = Situation::from_case(&v).unwrap();
        assert_eq!(s.winner_seat(4), Ok(1));
        assert_eq!(s.discarder_seat(4), Ok(Some(0)));
        assert_eq!(s.dealer_seat(4), Ok(3));
        assert!(!s.dealer);
        assert!(
            s.winner_seat(3).is_ok()
                && Situation::plain(s.hand.clone(), s.win_tile).dealer_seat(2) == Ok(1)
        );
        let bad = Situation::from_case(
            &serde_json::from_str(
                r#"{"hand": "[EEE,1]123m456p78s99s+9s", "situation": {"flowers": "x"}}"#,
            )
            .unwrap(),
        )
        .unwrap_err()
        .to_string();
        assert!(bad.contains("situation.flowers"), "{bad}");
    }

    #[test]
    fn rejects_bad_fields() {
        let bad = [
            CASE.replace("\"flowers\": 0", "\"flowers\": 9"),
            CASE.replace("\"flowers\": 0", "\"flowers\": -1"),
            CASE.replace("\"seat_wind\": \"E\"", "\"seat_wind\": \"C\""),
            CASE.replace("\"win_tile\": \"N\"", "\"win_tile\": \"5p\", \"x\": 1"),
            CASE.replace("\"type\": \"pung\"", "\"type\": \"chow\""),
            CASE.replace("\"N\",\"N\"]", "\"N\"]"),
            CASE.replace(
                "\"self_drawn\": true",
                "\"self_drawn\": true, \"win_type\": \"discard\"",
            ),
            CASE.replace(
                "\"N\",\"N\"], \"win_tile\": \"N\"",
                "\"N\",\"W\"], \"win_tile\": \"W\"",
            ),
            CASE.replace("\"flowers\": 0", "\"flowers\": 0, \"discarder\": 2"),
            CASE.replace(
                "\"flowers\": 0",
                "\"flowers\": 0, \"dealer\": false, \"dealer_seat\": 0",
            ),
            CASE.replace(
                "\"offer\": 0, \"concealed\": true",
                "\"offer\": 2, \"concealed\": true",
            ),
            format!("{{\"self_drawn\": true, {}", &CASE[1..]),
            format!("{{\"id\": 1, {}", &CASE[1..]),
        ];
        for b in bad {
            assert!(
                matches!(Situation::from_json(&b), Err(Error::InvalidHand(_))),
                "{b}"
            );
        }
    }

    /// A wrong key in a meld names the meld (`hand.melds[1]`), not only the hand.
    #[test]
    fn a_meld_error_names_the_meld() {
        let case = serde_json::json!({"hand": {"concealed": ["1m","2m","3m","4m","5m","6m","7m","8m","9m","2p"],
            "melds": [{"type": "pung", "tile": "E", "offer": 1}, {"type": "pung", "tile": "S", "offer": 1, "bogus": 1}],
            "win_tile": "2p"}});
        let e = Situation::from_case(&case).unwrap_err().to_string();
        assert!(e.contains("hand.melds[1]") && e.contains("bogus"), "{e}");
        let bad_hand = serde_json::json!({"hand": {"concealed": [], "bogus": 1, "win_tile": "2p"}});
        let e = Situation::from_case(&bad_hand).unwrap_err().to_string();
        assert!(e.contains("hand: ") && e.contains("bogus"), "{e}");
    }
}
