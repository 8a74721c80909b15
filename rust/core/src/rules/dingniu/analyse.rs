//! The 顶牛 placement analyser ([`crate::rules::Ruleset::analyse`]): the legal moves of a hand
//! against the line's two open ends — every placement (both ends, §4.1), else a 扣 of any tile
//! held (§4.2) — or, with no line yet, the tiles the 头牌 may open with (§4.3: H2 pairs; H1 needs
//! the other hands, which the analyser does not see, so every tile is listed), and whether a given
//! move is one of them. Everything is the module's own functions: [`turn_actions`],
//! [`openings`], [`placements`], [`Action::parse`].
//!
//! The query's `hand` is tiles as the game writes them (`"66 56 46"`, names `虎头`); `against` is
//! the open ends `[3|5]` (also `3|5`, `3 5`); `play` is a move: `16:R`, a bare tile (laid where it
//! fits), `kou 11`, or with no line an opening (`46`, `44+44`).

use crate::error::{Error, Result};
use crate::rules::analysis::{Analysis, Check, Decision, Item, MoveList, Piece, Query, Selection};

use super::round::{Action, openings, turn_actions};
use super::rules::DingniuRules;
use super::tile::{Counts, Ends, N_KINDS, Side, Tile, counts_of, parse_hand, placements, tiles_of};

/// Read the open ends `[L|R]` (`3|5`, `3 5`, `3,5` too).
pub fn parse_ends(text: &str) -> Result<Ends> {
    let t = text.trim().trim_start_matches('[').trim_end_matches(']');
    let parts: Vec<&str> = t
        .split(|c: char| c == '|' || c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    let pip = |s: &str| s.parse::<u8>().ok().filter(|p| (1..=6).contains(p));
    match parts.as_slice() {
        [a, b] => match (pip(a), pip(b)) {
            (Some(l), Some(r)) => Ends::new(l, r),
            _ => Err(bad_ends(text)),
        },
        _ => Err(bad_ends(text)),
    }
}

fn bad_ends(text: &str) -> Error {
    Error::hand(format!(
        "against {text:?}: the line's two open ends, pips 1-6, written [3|5] (left|right)"
    ))
}

fn side_zh(s: Side) -> &'static str {
    match s {
        Side::L => "接左 on the left",
        Side::R => "接右 on the right",
    }
}

/// What a move does, in Chinese then English.
pub fn action_label(a: Action, ends: Option<Ends>) -> String {
    let t = a.tile();
    match a {
        Action::Open(_) => format!("开牌 open with {} {t} → [{}|{}]", t.name(), t.lo(), t.hi()),
        Action::OpenPair(_) => format!("双开 open with the pair {} {t}+{t}", t.name()),
        Action::Lay(_, s) => {
            let after = ends.and_then(|e| e.place(t, s));
            match after {
                Some(e) => format!("{} {t} {} → {e}", t.name(), side_zh(s)),
                None => format!("{} {t} {}", t.name(), side_zh(s)),
            }
        }
        Action::Kou(_) => format!(
            "扣 {} {t} turn it face down ({} 点 pips)",
            t.name(),
            t.pips()
        ),
    }
}

fn action_cards(a: Action) -> Vec<String> {
    let t = a.tile().code().to_string();
    match a {
        Action::OpenPair(_) => vec![t.clone(), t],
        _ => vec![t],
    }
}

fn item(a: Action, ends: Option<Ends>) -> Item {
    Item {
        text: a.to_string(),
        cards: action_cards(a),
        label: action_label(a, ends),
    }
}

/// Every tile kind with its name (the seed's).
pub fn pieces() -> Vec<Piece> {
    Tile::ALL
        .iter()
        .map(|t| Piece {
            name: t.code().to_string(),
            zh: t.name().to_string(),
        })
        .collect()
}

/// The words of the decisions whose `value` says what they are: the end a tile is laid at
/// (`lay`: 0 left, 1 right) and an opening with both copies of a double (`open` 2).
pub fn decisions() -> Vec<Decision> {
    use crate::game::action::ActionKind;
    vec![
        Decision {
            kind: ActionKind::Lay.name(),
            value: 0,
            zh: "接左端",
        },
        Decision {
            kind: ActionKind::Lay.name(),
            value: 1,
            zh: "接右端",
        },
        Decision {
            kind: ActionKind::Open.name(),
            value: 2,
            zh: "开一对",
        },
    ]
}

fn hand_selection(c: &Counts) -> Selection {
    let tiles = tiles_of(c);
    Selection {
        text: tiles.iter().map(|t| t.code()).collect::<Vec<_>>().join(" "),
        cards: tiles.iter().map(|t| t.code().to_string()).collect(),
        zh: tiles.iter().map(|t| t.name()).collect::<Vec<_>>().join(" "),
        readings: vec![format!(
            "{} 张 tiles · {} 点 pips",
            tiles.len(),
            super::tile::pips(c)
        )],
    }
}

/// Read a move against `ends` (a bare tile is laid where it fits; with both ends open to it,
/// the left one, as the table reads a tile that fits both ways only when both give the same line).
fn read_move(text: &str, ends: Option<Ends>, hand: &Counts) -> Result<Action> {
    let a = Action::parse(text).map_err(|e| e.context("play"))?;
    Ok(match (a, ends) {
        (Action::Open(t), Some(e)) => {
            let ps = placements(e, hand);
            let mut fits = ps.iter().filter(|p| p.tile == t);
            match (fits.next(), fits.next()) {
                (Some(p), None) => Action::Lay(t, p.side),
                (Some(_), Some(_)) => {
                    return Err(Error::hand(format!(
                        "play {text:?}: {t} fits both ends of {e}; say which, {t}:L or {t}:R"
                    )));
                }
                (None, _) => Action::Lay(
                    t,
                    if e.place(t, Side::L).is_some() {
                        Side::L
                    } else {
                        Side::R
                    },
                ),
            }
        }
        (a, _) => a,
    })
}

/// Answer a query under `rules` (see the module documentation).
pub fn analyse(variant: &str, rules: &DingniuRules, q: &Query) -> Result<Analysis> {
    let hand = counts_of(&parse_hand(&q.hand).map_err(|e| e.context("hand"))?)
        .map_err(|e| e.context("hand"))?;
    let ends = q.against().map(parse_ends).transpose()?;
    let legal: Vec<Action> = match ends {
        Some(e) => turn_actions(e, &hand).as_slice().to_vec(),
        None => {
            let mut hands = [[0u8; N_KINDS]; 4];
            hands[0] = hand;
            openings(rules, &hands, 0).as_slice().to_vec()
        }
    };
    let mut checks = Vec::new();
    let mut play_sel = None;
    if let Some(text) = q.play() {
        let a = read_move(text, ends, &hand)?;
        let ok = legal.contains(&a);
        let why = if hand[a.tile().index()] == 0 {
            format!("{} 不在手中 is not in the hand", a.tile())
        } else if ends.is_none() && matches!(a, Action::Lay(..) | Action::Kou(_)) {
            "还没有牌 the line is empty: the first move opens it".into()
        } else if matches!(a, Action::Kou(_)) {
            "有牌能接时不能扣 a tile fits, so 扣 is not allowed".into()
        } else if matches!(a, Action::Open(_) | Action::OpenPair(_)) && ends.is_some() {
            "已开牌 the line is open: lay a tile on an end".into()
        } else {
            "接不上 does not fit there".into()
        };
        checks.push(Check {
            id: "legal",
            ok,
            label: if ok {
                format!("可以 legal: {}", action_label(a, ends))
            } else {
                format!("不行 not legal: {why}")
            },
        });
        play_sel = Some(Selection {
            text: a.to_string(),
            cards: action_cards(a),
            zh: action_label(a, ends),
            readings: Vec::new(),
        });
    }
    let lists = match ends {
        Some(e) => {
            let can_lay = !placements(e, &hand).is_empty();
            checks.push(Check {
                id: "must_lay",
                ok: can_lay,
                label: if can_lay {
                    "有牌能接，必须接 a tile fits: the hand must lay one".into()
                } else {
                    "接不上，扣一张 nothing fits: turn one tile down (扣)".into()
                },
            });
            let (id, title) = if can_lay {
                ("placements", format!("可接的牌 placements on {e}"))
            } else {
                ("kou", "扣牌 tiles to turn down".to_string())
            };
            vec![MoveList::of(id, title, legal.iter(), |&a| item(a, Some(e)))]
        }
        None => vec![MoveList::of(
            "openings",
            "开牌 openings (头牌)",
            legal.iter(),
            |&a| item(a, None),
        )],
    };
    Ok(Analysis {
        variant: variant.to_string(),
        hand: hand_selection(&hand),
        play: play_sel,
        against: ends.map(|e| Selection {
            text: e.to_string(),
            cards: Vec::new(),
            zh: format!("两头 ends: 左 {} · 右 {}", e.0, e.1),
            readings: Vec::new(),
        }),
        checks,
        lists,
        pieces: pieces(),
        decisions: decisions(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(hand: &str, play: Option<&str>, against: Option<&str>) -> Query {
        Query {
            hand: hand.into(),
            play: play.map(Into::into),
            against: against.map(Into::into),
        }
    }

    #[test]
    fn placements_then_kou() {
        let r = DingniuRules::load(
            "dingniu",
            Vec::<(String, crate::preset::SwitchValue)>::new(),
        )
        .unwrap();
        let a = analyse("dingniu", &r, &q("16 56 44", Some("16:L"), Some("[1|5]"))).unwrap();
        let l = &a.lists[0];
        assert_eq!(l.id, "placements");
        let texts: Vec<&str> = l.items.iter().map(|i| i.text.as_str()).collect();
        let expect: Vec<String> = placements(
            Ends(1, 5),
            &counts_of(&parse_hand("16 56 44").unwrap()).unwrap(),
        )
        .iter()
        .map(|p| p.to_string())
        .collect();
        assert_eq!(texts, expect);
        assert!(a.checks[0].ok, "{:?}", a.checks);
        let a = analyse("dingniu", &r, &q("44 22", Some("kou 44"), Some("3|5"))).unwrap();
        assert_eq!(a.lists[0].id, "kou");
        assert!(a.checks[0].ok);
        assert_eq!(a.against.unwrap().text, "[3|5]");
        let e = analyse("dingniu", &r, &q("44", None, Some("7|1"))).unwrap_err();
        assert!(e.to_string().contains("against"), "{e}");
        let a = analyse("dingniu", &r, &q("44 44 56", None, None)).unwrap();
        assert_eq!(a.lists[0].id, "openings");
        assert_eq!(a.pieces[6].zh, "虎头");
    }
}
