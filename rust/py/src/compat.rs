//! Entry points of `hupai.compat.MahjongGB`, the pymahjonggb-compatible module: reference tile
//! codes (`W1`..`J3`), packs `(type, tile, offer)`, and the reference's return shapes. Inputs the
//! reference accepts silently but cannot be real (offer 0 on PENG/CHI, five copies, oversized
//! tuples, flowers outside 0..8) are rejected with a typed error whose message starts with the
//! reference's error code.

use std::sync::{Arc, OnceLock};

use hupai_core::preset::SwitchValue;
use hupai_core::rules::mcr::{self, ids};
use hupai_core::situation::WinType;
use hupai_core::{Error as CoreError, Hand, Meld, MeldKind, Situation, Tile, Variant};
use pyo3::prelude::*;

use crate::convert::Text;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyTuple, PyType};

use crate::errors::{BindError, BindResult};

/// The compat module's exception class (`hupai.compat.MahjongGB.MahjongGBError`, a HupaiError and
/// a TypeError), registered by that module at import; until then the typed core errors are raised.
static COMPAT_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Register the exception class raised by the compat entry points (called by
/// `hupai.compat.MahjongGB` at import).
#[pyfunction]
pub fn _set_compat_error(py: Python<'_>, cls: Bound<'_, PyType>) {
    let _ = COMPAT_ERROR.set(py, cls.unbind());
}

/// A core error as the compat exception: `str()` = the reference's bare error code, `.detail` the
/// full message.
fn compat_err(py: Python<'_>, e: CoreError) -> BindError {
    let Some(cls) = COMPAT_ERROR.get(py) else {
        return BindError::Core(e);
    };
    let msg = match &e {
        CoreError::InvalidHand(m)
        | CoreError::RuleConfig(m)
        | CoreError::Settlement(m)
        | CoreError::IllegalAction(m)
        | CoreError::Replay(m) => m.clone(),
        CoreError::InvalidTile { text, reason } => format!("{reason} ({text:?})"),
    };
    // the reference's own TypeError text for a list where a tuple belongs
    if msg.starts_with("Param `") {
        return match cls.bind(py).call1((msg.clone(), msg)) {
            Ok(obj) => BindError::Py(PyErr::from_value(obj)),
            Err(err) => BindError::Py(err),
        };
    }
    let code = msg
        .split(|c: char| c.is_whitespace() || c == ':' || c == '"')
        .find(|t| t.starts_with("ERROR_") || t.starts_with("ERROE_"))
        .unwrap_or("ERROR_WRONG_INPUT")
        .to_string();
    match cls.bind(py).call1((code, msg)) {
        Ok(obj) => BindError::Py(PyErr::from_value(obj)),
        Err(err) => BindError::Py(err),
    }
}

fn err(code: &str, detail: impl std::fmt::Display) -> CoreError {
    CoreError::hand(format!("{code}: {detail}"))
}

/// Reference tile code → tile.
pub fn ref_tile(code: &str) -> Result<Tile, CoreError> {
    let b = code.as_bytes();
    let bad = || {
        CoreError::tile(
            code,
            "ERROE_WRONG_TILE_CODE: reference tile codes are W1-W9, B1-B9, T1-T9, F1-F4, J1-J3",
        )
    };
    if b.len() != 2 || !b[1].is_ascii_digit() {
        return Err(bad());
    }
    let n = b[1] - b'0';
    let t = match (b[0], n) {
        (b'W', 1..=9) => Tile::suited(0, n),
        (b'B', 1..=9) => Tile::suited(1, n),
        (b'T', 1..=9) => Tile::suited(2, n),
        (b'F', 1..=4) => Tile::honor(n - 1),
        (b'J', 1..=3) => Tile::honor(3 + n),
        _ => None,
    };
    t.ok_or_else(bad)
}

/// Tile → reference code.
pub fn ref_code(t: Tile) -> String {
    let i = t.index();
    match i {
        0..=8 => format!("W{}", i + 1),
        9..=17 => format!("B{}", i - 8),
        18..=26 => format!("T{}", i - 17),
        27..=30 => format!("F{}", i - 26),
        _ => format!("J{}", i - 30),
    }
}

fn extract_tiles(hand: &Bound<'_, PyAny>, max: usize) -> Result<Vec<Tile>, CoreError> {
    let tup = hand
        .cast::<PyTuple>()
        .map_err(|_| CoreError::hand("Param `hand` must be a tuple!"))?;
    if tup.len() > max {
        return Err(err(
            "ERROR_WRONG_TILES_COUNT",
            format!("{} tiles in hand (at most {max})", tup.len()),
        ));
    }
    let mut out = Vec::with_capacity(tup.len());
    for x in tup.iter() {
        let s = x
            .cast::<PyString>()
            .map_err(|_| CoreError::tile("?", "ERROE_WRONG_TILE_CODE: tiles are strings"))?;
        out.push(ref_tile(s.to_str().map_err(|_| {
            err(
                "ERROE_WRONG_TILE_CODE",
                "a tile code holds a lone surrogate",
            )
        })?)?);
    }
    Ok(out)
}

/// How `extract_pack` reads what the reference reads without checking.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PackUse {
    /// Fan calculation: offer 0 on a PENG/CHI (a concealed pack in the reference) is refused, a
    /// CHI whose middle tile cannot be one (W1, W9, honours) makes the hand "not a win".
    Fans,
    /// Shanten: the offer does not matter; an impossible CHI is refused.
    Shanten,
}

/// The packs, and whether one is a CHI no tiles can form (its hand can never be a win).
fn extract_pack(pack: &Bound<'_, PyAny>, using: PackUse) -> Result<(Vec<Meld>, bool), CoreError> {
    let tup = pack
        .cast::<PyTuple>()
        .map_err(|_| CoreError::hand("Param `pack` must be a tuple!"))?;
    if tup.len() > 4 {
        return Err(err(
            "ERROE_WRONG_PACK_CODE",
            format!("{} packs (at most 4)", tup.len()),
        ));
    }
    let mut out = Vec::with_capacity(tup.len());
    let mut impossible = false;
    for p in tup.iter() {
        let (kind, tile, offer): (Text, Text, i64) = p.extract().map_err(|_| {
            err(
                "ERROE_WRONG_PACK_CODE",
                "each pack is a tuple (\"CHI\"|\"PENG\"|\"GANG\", tile, offer)",
            )
        })?;
        let t = ref_tile(&tile)?;
        if !(0..=3).contains(&offer) {
            return Err(err(
                "ERROE_WRONG_OFFER_CODE",
                format!("offer {offer} not in 0..3"),
            ));
        }
        let mut offer = offer as u8;
        if using == PackUse::Shanten && offer == 0 && kind.as_str() != "GANG" {
            offer = 1;
        }
        let m = match kind.as_str() {
            "CHI" => {
                let low = match t.rank() {
                    Some(2..=8) => Tile::new_unchecked(t.index() - 1),
                    _ if using == PackUse::Fans => {
                        // the reference reads neighbours that do not exist; no such hand wins
                        impossible = true;
                        continue;
                    }
                    _ => {
                        return Err(err(
                            "ERROE_WRONG_PACK_CODE",
                            format!("{} cannot be the middle tile of a chow", tile.as_str()),
                        ));
                    }
                };
                if offer == 0 {
                    return Err(err(
                        "ERROE_WRONG_OFFER_CODE",
                        "a CHI is claimed: offer 1..3 (offer 0, a concealed chow, is not supported)",
                    ));
                }
                Meld::new(MeldKind::Chow, low, false, offer)
            }
            "PENG" => {
                if offer == 0 {
                    return Err(err(
                        "ERROE_WRONG_OFFER_CODE",
                        "a PENG is claimed: offer 1..3 (offer 0, a concealed pung, is not supported)",
                    ));
                }
                Meld::new(MeldKind::Pung, t, false, offer)
            }
            "GANG" => Meld::new(MeldKind::Kong, t, offer == 0, offer),
            other => {
                return Err(err(
                    "ERROE_WRONG_PACK_CODE",
                    format!("pack type {:?} (CHI, PENG or GANG)", other),
                ));
            }
        }
        .map_err(|e| err("ERROE_WRONG_PACK_CODE", e))?;
        out.push(m);
    }
    Ok((out, impossible))
}

fn compat_variant() -> &'static Arc<Variant> {
    static V: OnceLock<Arc<Variant>> = OnceLock::new();
    V.get_or_init(|| {
        Arc::new(
            Variant::with_options("mcr", [("flag_policy", SwitchValue::Str("repair".into()))])
                .expect("the mcr preset compiles"),
        )
    })
}

#[allow(clippy::too_many_arguments)]
fn build(
    pack: &Bound<'_, PyAny>,
    hand: &Bound<'_, PyAny>,
    win_tile: &str,
    flower_count: i64,
    self_drawn: bool,
    fourth: bool,
    about_kong: bool,
    wall_last: bool,
    seat: i64,
    prevalent: i64,
) -> Result<Situation, CoreError> {
    let (melds, impossible) = extract_pack(pack, PackUse::Fans)?;
    let standing = extract_tiles(hand, 13)?;
    let win = ref_tile(win_tile)?;
    let packs = melds.len() + usize::from(impossible);
    if impossible && standing.len() + 3 * packs == 13 {
        return Err(err(
            "ERROR_NOT_WIN",
            "a CHI pack whose middle tile has no neighbours (W1, W9, honours) never wins",
        ));
    }
    if standing.len() + 3 * melds.len() != 13 {
        return Err(err(
            "ERROR_WRONG_TILES_COUNT",
            format!(
                "{} standing tiles with {} packs (need {})",
                standing.len(),
                melds.len(),
                13 - 3 * melds.len()
            ),
        ));
    }
    if !(0..=8).contains(&flower_count) {
        return Err(err(
            "ERROR_WRONG_FLOWER_COUNT",
            format!("flowerCount {flower_count} not in 0..8"),
        ));
    }
    let wind = |v: i64, what: &str| -> Result<Tile, CoreError> {
        if (0..=3).contains(&v) {
            Ok(Tile::honor(v as u8).unwrap_or(Tile::E))
        } else {
            Err(err("ERROR_WRONG_WIND", format!("{what} {v} not in 0..3")))
        }
    };
    let seat_wind = wind(seat, "seatWind")?;
    let prevalent_wind = wind(prevalent, "prevalentWind")?;
    let n = melds.len();
    let h = Hand::new(standing, melds).map_err(|e| err("ERROR_WRONG_TILES_COUNT", e))?;
    let mut all = h.all_counts();
    all[win.idx()] += 1;
    if all[win.idx()] > 4 {
        return Err(err(
            "ERROR_TILE_COUNT_GREATER_THAN_4",
            format!("five copies of {}", ref_code(win)),
        ));
    }
    let win_type = match (self_drawn, about_kong) {
        (true, false) => WinType::SelfDraw,
        (true, true) => WinType::KongReplacement,
        (false, false) => WinType::Discard,
        (false, true) => WinType::RobKong,
    };
    Ok(Situation {
        hand: h,
        kong_kinds: vec![None; n],
        win_tile: win,
        win_type,
        fourth_tile: fourth,
        wall_last,
        seat_wind,
        prevalent_wind,
        flowers: flower_count as u8,
        flower_tiles: Vec::new(),
        dealer: seat == 0,
        blessing: None,
        void_suit: None,
        last_kong: None,
        extra: Default::default(),
        table: Default::default(),
    })
}

/// The reference's Chinese name of a fan (1.4.0 renamed the wait fans).
fn ref_zh(i: usize, zh: &'static str) -> &'static str {
    match i {
        ids::EDGE_WAIT => "独听・边张",
        ids::CLOSED_WAIT => "独听・嵌张",
        ids::SINGLE_WAIT => "独听・单钓",
        _ => zh,
    }
}

/// Calculate Mahjong Fans (pymahjonggb's `MahjongFanCalculator` on hupai's MCR scorer, flag policy
/// "repair" like the reference).
///
/// pack: tuple of `("CHI"/"PENG"/"GANG", tile, offer 0..3)`; hand: tuple of standing tiles; winTile;
/// flowerCount; isSelfDrawn; is4thTile; isAboutKong; isWallLast; seatWind, prevalentWind: 0..3.
/// Returns a tuple of `(points × count, zh_name)`, or with `verbose` of
/// `(points, count, zh_name, en_name)`, in fan-table order.
#[pyfunction]
#[pyo3(signature = (pack, hand, winTile, flowerCount, isSelfDrawn, is4thTile, isAboutKong, isWallLast, seatWind, prevalentWind, verbose=None))]
#[allow(clippy::too_many_arguments, non_snake_case)]
pub fn mcr_fan_calculator<'py>(
    py: Python<'py>,
    pack: &Bound<'py, PyAny>,
    hand: &Bound<'py, PyAny>,
    winTile: &Bound<'py, PyAny>,
    flowerCount: &Bound<'py, PyAny>,
    isSelfDrawn: &Bound<'py, PyAny>,
    is4thTile: &Bound<'py, PyAny>,
    isAboutKong: &Bound<'py, PyAny>,
    isWallLast: &Bound<'py, PyAny>,
    seatWind: &Bound<'py, PyAny>,
    prevalentWind: &Bound<'py, PyAny>,
    verbose: Option<&Bound<'py, PyAny>>,
) -> BindResult<Bound<'py, PyTuple>> {
    let int = |o: &Bound<'py, PyAny>, what: &str| -> Result<i64, CoreError> {
        o.extract::<i64>()
            .map_err(|_| err("ERROR_WRONG_INPUT", format!("{what} must be an int")))
    };
    let truth = |o: &Bound<'py, PyAny>| o.is_truthy();
    let run = || -> Result<Bound<'py, PyTuple>, CoreError> {
        let win = winTile
            .cast::<PyString>()
            .map_err(|_| CoreError::tile("?", "ERROE_WRONG_TILE_CODE: winTile must be a str"))?
            .to_str()
            .map_err(|e| CoreError::hand(e.to_string()))?
            .to_string();
        let flags = (
            truth(isSelfDrawn).map_err(|e| CoreError::hand(e.to_string()))?,
            truth(is4thTile).map_err(|e| CoreError::hand(e.to_string()))?,
            truth(isAboutKong).map_err(|e| CoreError::hand(e.to_string()))?,
            truth(isWallLast).map_err(|e| CoreError::hand(e.to_string()))?,
        );
        let s = build(
            pack,
            hand,
            &win,
            int(flowerCount, "flowerCount")?,
            flags.0,
            flags.1,
            flags.2,
            flags.3,
            int(seatWind, "seatWind")?,
            int(prevalentWind, "prevalentWind")?,
        )?;
        let verbose = match verbose {
            Some(v) => truth(v).map_err(|e| CoreError::hand(e.to_string()))?,
            None => false,
        };
        let v = compat_variant();
        let r = mcr::rules_of(v)?;
        let sc = mcr::score(&s, r).map_err(|e| match e {
            CoreError::InvalidHand(m) if m.starts_with("not a winning hand") => {
                err("ERROR_NOT_WIN", m)
            }
            other => other,
        })?;
        let items: Vec<Bound<'py, PyTuple>> = sc
            .fans
            .iter()
            .map(|(i, c)| {
                let zh = ref_zh(i, r.zh[i]);
                if verbose {
                    (r.values[i], c, zh, r.en[i]).into_pyobject(py)
                } else {
                    (r.values[i] * i32::from(c), zh).into_pyobject(py)
                }
                .map(|t| t.into_any().cast_into::<PyTuple>().expect("a tuple"))
                .map_err(|e| CoreError::hand(e.to_string()))
            })
            .collect::<Result<_, _>>()?;
        PyTuple::new(py, items).map_err(|e| CoreError::hand(e.to_string()))
    };
    run().map_err(|e| compat_err(py, e))
}

/// Shanten entry points for the compat module (temporary simple implementation, see
/// `hupai_core::rules::mcr::shanten`): `kind` is "all", "regular", "seven_pairs", "thirteen_orphans",
/// "honors_and_knitted" or "knitted_straight"; returns `(shanten, useful tiles as reference codes)`.
#[pyfunction]
#[pyo3(signature = (pack, hand, kind=Text::from("all")))]
pub fn mcr_shanten(
    py: Python<'_>,
    pack: &Bound<'_, PyAny>,
    hand: &Bound<'_, PyAny>,
    kind: Text,
) -> BindResult<(i32, Vec<String>)> {
    shanten_inner(pack, hand, kind).map_err(|e| compat_err(py, e))
}

fn shanten_inner(
    pack: &Bound<'_, PyAny>,
    hand: &Bound<'_, PyAny>,
    kind: Text,
) -> Result<(i32, Vec<String>), CoreError> {
    let (melds, _) = extract_pack(pack, PackUse::Shanten)?;
    let tiles = extract_tiles(hand, 14)?;
    let n = tiles.len() + 3 * melds.len();
    // the reference's accepted sizes: 13 tiles with the packs (MahjongShanten), 3n+1 up to 13
    // (RegularShanten), 10 or 13 (KnittedStraightShanten), exactly 13 (the other special forms)
    let ok = match kind.as_str() {
        "all" => n == 13,
        "regular" => tiles.len() % 3 == 1 && tiles.len() <= 13,
        "knitted_straight" => tiles.len() == 10 || tiles.len() == 13,
        _ => tiles.len() == 13,
    };
    if !ok {
        let code = if kind.as_str() == "all" {
            "ERROR_INVALID_HAND_OR_PACK"
        } else {
            "ERROR_INVALID_HAND"
        };
        return Err(err(
            code,
            format!("{} tiles with {} packs", tiles.len(), melds.len()),
        ));
    }
    let counts = hupai_core::tile::to_counts(&tiles)
        .map_err(|e| err("ERROR_TILE_COUNT_GREATER_THAN_4", e))?;
    let mut all = counts;
    for m in &melds {
        m.add_to(&mut all);
    }
    hupai_core::hand::check_copies(&all).map_err(|e| err("ERROR_TILE_COUNT_GREATER_THAN_4", e))?;
    let kind = match kind.as_str() {
        "all" => mcr::shanten::Kind::All,
        "regular" => mcr::shanten::Kind::Regular,
        "seven_pairs" => mcr::shanten::Kind::SevenPairs,
        "thirteen_orphans" => mcr::shanten::Kind::ThirteenOrphans,
        "honors_and_knitted" => mcr::shanten::Kind::HonorsAndKnitted,
        "knitted_straight" => mcr::shanten::Kind::KnittedStraight,
        other => return Err(CoreError::rule(format!("unknown shanten kind {other:?}"))),
    };
    let (sh, useful) = mcr::shanten::shanten_with_useful(&counts, melds.len(), kind);
    // reference order of useful tiles: W (m), T (s), B (p), F, J
    let mut useful: Vec<Tile> = useful;
    useful.sort_by_key(|t| match t.index() {
        i @ 0..=8 => i,
        i @ 9..=17 => i + 9,
        i @ 18..=26 => i - 9,
        i => i,
    });
    Ok((sh, useful.into_iter().map(ref_code).collect()))
}
