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
    pub fn to_meld(&self, path: &str) -> Result<(Meld, Option<KongKind>)> {
        let err = |msg: String| Error::hand(format!("{path}: {msg}"));
        let (kind, kong_kind, mut concealed) = match self.kind.as_str() {
            "chow" | "chi" => (MeldKind::Chow, None, false),
            "pung" | "pon" | "peng" => (MeldKind::Pung, None, false),
            "kong" => (MeldKind::Kong, None, false),
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

fn parse_list(ts: &[String]) -> Result<Vec<Tile>> {
    ts.iter().map(|t| Tile::parse(t)).collect()
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

fn default_wind() -> String {
    "E".into()
}

/// `situation` object of the JSON schema. The first eight keys are the MCR reference schema; the
/// rest are optional keys used by other presets.
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
    pub dealer: bool,
    #[serde(default)]
    pub blessing: Option<Blessing>,
    /// 定缺: the suit (`m`, `p`, `s`) the winner declared void.
    #[serde(default)]
    pub void_suit: Option<String>,
    /// The flower tiles themselves (`f1`..`f8`), where a preset cares which ones.
    #[serde(default)]
    pub flower_tiles: Option<Vec<String>>,
    /// 杠上开花 / 杠上炮: the kind of the kong just made (`open` 直杠 / `added` / `concealed`), where a
    /// preset cares (四川 点杠花).
    #[serde(default)]
    pub last_kong: Option<KongKind>,
    /// 报听 declared (二人麻将 门清报听, …).
    #[serde(default)]
    pub ready_declared: bool,
    /// 天听: 报听 declared on the first turn with no claim before (二人麻将).
    #[serde(default)]
    pub ready_first_turn: bool,
    /// The win came in the draws after the wall was exhausted (二人麻将 海底捞月 phase).
    #[serde(default)]
    pub after_exhaustion: bool,
    /// The flipped 癞子 indicator tile (武汉: the 癞子 is its successor).
    #[serde(default)]
    pub wild_indicator: Option<String>,
    /// 武汉: the winner's 红中杠 count (红中 exposed or discarded), and his 癞子杠 count.
    #[serde(default)]
    pub hongzhong_kongs: u8,
    #[serde(default)]
    pub laizi_kongs: u8,
    /// 报听一发: the win came within the first go-around after 报听 (二人麻将
    /// `fan_profile = billee1011_option_4`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ready_yi_fa: bool,
}

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
}

/// The JSON form of a situation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SituationInput {
    pub hand: HandInput,
    #[serde(default = "default_flags")]
    pub situation: FlagsInput,
}

/// An absent `situation` object means every key at its serde default (winds `E`), not the
/// derived `Default` (empty strings).
fn default_flags() -> FlagsInput {
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
    /// Optional per-preset flags (报听, 天听, 海底 phase).
    pub extra: ExtraFlags,
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

impl Situation {
    /// Parse and validate the JSON form.
    pub fn from_json(text: &str) -> Result<Situation> {
        let input: SituationInput =
            serde_json::from_str(text).map_err(|e| Error::hand(format!("situation JSON: {e}")))?;
        Situation::from_input(&input)
    }

    /// Parse the `hand` and `situation` keys of a case-schema object (a preset's own extra keys
    /// beside them are read by the preset).
    pub fn from_case(v: &serde_json::Value) -> Result<Situation> {
        let serde_json::Value::Object(o) = v else {
            return Err(Error::hand(
                "a situation needs the keys 'hand' and 'situation'",
            ));
        };
        let mut core = serde_json::Map::new();
        for k in ["hand", "situation"] {
            if let Some(x) = o.get(k) {
                core.insert(k.into(), x.clone());
            }
        }
        let input: SituationInput = serde_json::from_value(serde_json::Value::Object(core))
            .map_err(|e| Error::hand(format!("situation JSON: {e}")))?;
        Situation::from_input(&input)
    }

    /// Validate a parsed input.
    pub fn from_input(input: &SituationInput) -> Result<Situation> {
        let mut melds = Vec::with_capacity(input.hand.melds.len());
        let mut kong_kinds = Vec::with_capacity(input.hand.melds.len());
        for (i, m) in input.hand.melds.iter().enumerate() {
            let (meld, kk) = m.to_meld(&format!("hand.melds[{i}]"))?;
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
            seat_wind: wind(&f.seat_wind, "seat_wind")?,
            prevalent_wind: wind(&f.prevalent_wind, "prevalent_wind")?,
            flowers: if flower_tiles.is_empty() {
                f.flowers
            } else {
                flower_tiles.len() as u8
            },
            flower_tiles,
            dealer: f.dealer,
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
            },
        })
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
        ];
        for b in bad {
            assert!(
                matches!(Situation::from_json(&b), Err(Error::InvalidHand(_))),
                "{b}"
            );
        }
    }
}
