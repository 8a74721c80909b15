//! 够级 bindings: `GoujiRules`, `GoujiPlay`, `GoujiGame` and the `gouji_*` functions re-exported
//! by `hupai.gouji`. Strings in, strings out: cards in the compact notation of gouji.md §2.3.

use hupai_core::rules::gouji::{
    self, Action, BotKind, Carry, GoujiHand, GoujiRules, Outcome, Play, card, hand, outcome, play,
};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;
use serde_json::Value;

use crate::convert::Tup;
use crate::convert::{AnyInt, json_to_py};
use crate::convert::{Seq, Text};
use crate::errors::{BindError, BindResult, hand_err};
use crate::variant::overrides;

const SEATS: usize = outcome::SEATS;

fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<object>".into())
}

/// Cards from a compact string or a sequence of card strings.
fn counts_from_py(obj: &Bound<'_, PyAny>) -> BindResult<card::Counts> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(card::parse_counts(crate::convert::text(s, "cards")?)?);
    }
    if let Ok(p) = obj.cast::<PyGoujiPlay>() {
        return Ok(p.get().inner.counts());
    }
    if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        let mut text = String::new();
        for x in obj.try_iter()? {
            let x = x?;
            let s = x.cast::<PyString>().map_err(|_| {
                BindError::Py(pyo3::exceptions::PyTypeError::new_err(format!(
                    "cards must be strings, got {}",
                    repr(&x)
                )))
            })?;
            text.push_str(crate::convert::text(s, "cards")?);
            text.push(' ');
        }
        return Ok(card::parse_counts(&text)?);
    }
    Err(BindError::Py(pyo3::exceptions::PyTypeError::new_err(
        format!(
            "cards must be a str like 'WW2229999' or a list of card strings, got {}",
            repr(obj)
        ),
    )))
}

/// A play from a `GoujiPlay`, a compact string or a list of card strings.
fn play_from_py(obj: &Bound<'_, PyAny>) -> BindResult<Play> {
    if let Ok(p) = obj.cast::<PyGoujiPlay>() {
        return Ok(p.get().inner);
    }
    Ok(Play::from_counts(&counts_from_py(obj)?)?)
}

fn opt_play(obj: Option<&Bound<'_, PyAny>>) -> BindResult<Option<Play>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => Ok(Some(play_from_py(o)?)),
    }
}

fn rules_of(rules: Option<&Bound<'_, PyGoujiRules>>) -> GoujiRules {
    rules.map_or_else(GoujiRules::default, |r| r.get().inner)
}

fn seat_arg(v: AnyInt, name: &str) -> BindResult<usize> {
    v.within(name, 0, 5, hand_err)
}

fn seats_arg(v: &[AnyInt], name: &str) -> BindResult<Vec<usize>> {
    v.iter().map(|&s| seat_arg(s, name)).collect()
}

fn seat_set(v: &[AnyInt], name: &str) -> BindResult<[bool; SEATS]> {
    let mut out = [false; SEATS];
    for s in seats_arg(v, name)? {
        out[s] = true;
    }
    Ok(out)
}

/// The compiled rules of a 够级 variant: ``GoujiRules("gouji", bie_san=False)``.
///
/// Unknown switches, wrong types and values outside the allowed set raise ``RuleConfigError``.
#[pyclass(frozen, from_py_object, module = "hupai._core", name = "GoujiRules")]
#[derive(Clone)]
pub struct PyGoujiRules {
    inner: GoujiRules,
}

#[pymethods]
impl PyGoujiRules {
    #[new]
    #[pyo3(signature = (variant = Text::from("gouji"), /, **switches))]
    fn new(variant: Text, switches: Option<&Bound<'_, PyDict>>) -> BindResult<Self> {
        Ok(Self {
            inner: GoujiRules::load(&variant, overrides(switches)?)?,
        })
    }
    /// The switches that differ from the preset's defaults.
    #[getter]
    fn switches<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in gouji::rules_switches(&self.inner) {
            match v {
                hupai_core::preset::SwitchValue::Bool(b) => d.set_item(k, b)?,
                hupai_core::preset::SwitchValue::Int(i) => d.set_item(k, i)?,
                hupai_core::preset::SwitchValue::Str(s) => d.set_item(k, s)?,
            }
        }
        Ok(d)
    }
    #[getter]
    fn bie_san(&self) -> bool {
        self.inner.bie_san
    }
    /// Points of 头科 … 大落.
    #[getter]
    fn place_points(&self) -> [i64; 6] {
        self.inner.place_points
    }
    fn __repr__(&self) -> String {
        let sw: Vec<String> = gouji::rules_switches(&self.inner)
            .iter()
            .map(|(k, v)| format!(", {k}={v}"))
            .collect();
        format!("GoujiRules('gouji'{})", sw.concat())
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGoujiRules>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }
    fn __hash__(&self) -> u64 {
        let mut h = 1469598103934665603u64;
        for (k, v) in gouji::rules_switches(&self.inner) {
            for b in format!("{k}={v};").bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(1099511628211);
            }
        }
        h
    }
}

/// A 够级 play, normalised (gouji.md §4.2): ``GoujiPlay("WW2229999")`` = 2 大花 + 7 × 9.
///
/// Frozen, hashable, comparable for equality (same cards). Invalid cards raise
/// ``InvalidTileError``; cards that are not one play (two base ranks, empty) raise
/// ``InvalidHandError``.
#[pyclass(
    frozen,
    eq,
    hash,
    from_py_object,
    module = "hupai._core",
    name = "GoujiPlay"
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyGoujiPlay {
    inner: Play,
}

#[pymethods]
impl PyGoujiPlay {
    #[new]
    #[pyo3(signature = (cards, /))]
    fn new(cards: &Bound<'_, PyAny>) -> BindResult<Self> {
        Ok(Self {
            inner: play_from_py(cards)?,
        })
    }
    /// Canonical compact string, e.g. ``'WW2229999'``.
    #[getter]
    fn cards(&self) -> String {
        self.inner.cards()
    }
    /// Number of jokers (花).
    #[getter]
    fn jokers(&self) -> u8 {
        self.inner.jokers()
    }
    /// ``'W'`` (all 大花), ``'w'`` (小花 or mixed), ``None`` without jokers.
    #[getter]
    fn joker_level(&self) -> Option<&'static str> {
        self.inner.joker_level().map(|l| match l {
            play::JokerLevel::Big => "W",
            play::JokerLevel::Small => "w",
        })
    }
    /// Normalised base rank (``'9'``, ``'2'`` for pure 2s), ``None`` for pure jokers.
    #[getter]
    fn base(&self) -> Option<String> {
        self.inner
            .norm_base()
            .map(|b| card::rank_char(b).to_string())
    }
    /// Base-rank cards plus every 2 (贴钱).
    #[getter]
    fn base_count(&self) -> u8 {
        self.inner.base_count()
    }
    /// Number of cards.
    #[getter]
    fn total(&self) -> u8 {
        self.inner.total()
    }
    /// 贴钱: 2s converted to the base rank.
    #[getter]
    fn tie_qian(&self) -> bool {
        self.inner.tie_qian()
    }
    /// 挂花: the play has a joker.
    #[getter]
    fn gua_hua(&self) -> bool {
        self.inner.jokers() > 0
    }
    /// Flat id of the play as an action (docs/gouji.md "Action space").
    #[getter]
    fn action_id(&self) -> u32 {
        Action::Play(self.inner).id()
    }
    /// Chinese rendering, e.g. ``'大王×2 二×3 九×4'``.
    #[getter]
    fn chinese(&self) -> String {
        card::format_counts_zh(&self.inner.counts())
    }
    fn __str__(&self) -> String {
        self.inner.cards()
    }
    fn __repr__(&self) -> String {
        format!("GoujiPlay('{}')", self.inner.cards())
    }
    fn __len__(&self) -> usize {
        usize::from(self.inner.total())
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, pyo3::types::PyType>, (String,))> {
        Ok((slf.get_type(), (slf.get().inner.cards(),)))
    }
}

/// Cards in canonical order, one string per card (``['W', 'W', '2', '9']``).
#[pyfunction]
pub fn gouji_parse_cards(cards: &Bound<'_, PyAny>) -> BindResult<Vec<String>> {
    let c = counts_from_py(cards)?;
    Ok(card::format_counts(&c).chars().map(String::from).collect())
}

/// The canonical compact string of cards (``'WW2229999'``), or Chinese names.
#[pyfunction]
#[pyo3(signature = (cards, /, *, chinese = false))]
pub fn gouji_format_cards(cards: &Bound<'_, PyAny>, chinese: bool) -> BindResult<String> {
    let c = counts_from_py(cards)?;
    Ok(if chinese {
        card::format_counts_zh(&c)
    } else {
        card::format_counts(&c)
    })
}

/// The 15 ranks: ``(char, Chinese, English)``, low to high.
#[pyfunction]
pub fn gouji_ranks() -> Vec<(String, &'static str, &'static str)> {
    (0..card::N_RANKS)
        .map(|r| {
            (
                card::rank_char(r).to_string(),
                card::rank_zh(r),
                card::rank_en(r),
            )
        })
        .collect()
}

/// Whether ``play`` beats ``top`` (顺牌/上牌, §4.3).
#[pyfunction]
#[pyo3(signature = (play, top, /, rules = None))]
pub fn gouji_beats(
    play: &Bound<'_, PyAny>,
    top: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<bool> {
    let r = rules_of(rules);
    Ok(gouji::beats(
        &play_from_py(play)?,
        &play_from_py(top)?,
        r.mixed_jokers,
    ))
}

/// ``1`` if ``a`` beats ``b``, ``-1`` if ``b`` beats ``a``, ``0`` if neither (a partial order).
#[pyfunction]
#[pyo3(signature = (a, b, /, rules = None))]
pub fn gouji_compare(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<i8> {
    let r = rules_of(rules);
    let (x, y) = (play_from_py(a)?, play_from_py(b)?);
    Ok(if gouji::beats(&x, &y, r.mixed_jokers) {
        1
    } else if gouji::beats(&y, &x, r.mixed_jokers) {
        -1
    } else {
        0
    })
}

/// Whether a play is a 够级牌 (§4.4).
#[pyfunction]
#[pyo3(signature = (play, /, rules = None))]
pub fn gouji_is_gouji(
    play: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<bool> {
    Ok(gouji::is_gouji(&play_from_py(play)?, &rules_of(rules)))
}

/// Whether a 够级牌 can earn 开点 when it stands (§4.5).
#[pyfunction]
#[pyo3(signature = (play, /, rules = None))]
pub fn gouji_kaidian_eligible(
    play: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<bool> {
    Ok(gouji::kaidian_eligible(
        &play_from_py(play)?,
        &rules_of(rules),
    ))
}

/// Whether ``play`` may be played from ``hand`` under the 憋3 rule (§4.6; always true without).
#[pyfunction]
#[pyo3(signature = (hand, play, /, rules = None))]
pub fn gouji_bie_san_ok(
    hand: &Bound<'_, PyAny>,
    play: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<bool> {
    let h = counts_from_py(hand)?;
    let p = play_from_py(play)?;
    if !card::contains(&h, &p.counts()) {
        return Err(hand_err(format!(
            "{} is not in the hand {}",
            p.cards(),
            card::format_counts(&h)
        )));
    }
    Ok(play::bie_san_ok(&h, &p, rules_of(rules).bie_san))
}

/// The legal plays of ``hand`` (canonical strings): leads when ``top`` is None, else the plays
/// that beat ``top``.
#[pyfunction]
#[pyo3(signature = (hand, top = None, /, rules = None))]
pub fn gouji_legal_plays(
    hand: &Bound<'_, PyAny>,
    top: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<Vec<String>> {
    let h = counts_from_py(hand)?;
    let t = opt_play(top)?;
    Ok(gouji::legal_plays(&h, t.as_ref(), &rules_of(rules))
        .iter()
        .map(Play::cards)
        .collect())
}

/// The burning plays of ``hand`` on the 够级牌 ``top`` (§6.1 conditions 4–5).
#[pyfunction]
#[pyo3(signature = (hand, top, /, rules = None))]
pub fn gouji_burn_options(
    hand: &Bound<'_, PyAny>,
    top: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<Vec<String>> {
    let h = counts_from_py(hand)?;
    let t = play_from_py(top)?;
    Ok(gouji::burn_options(&h, &t, &rules_of(rules))
        .iter()
        .map(Play::cards)
        .collect())
}

/// Whether the remaining cards can go out with a joker in every lead but the last (§6.1 c. 5).
#[pyfunction]
#[pyo3(signature = (cards, /, rules = None))]
pub fn gouji_remainder_feasible(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<bool> {
    Ok(play::remainder_feasible(
        &counts_from_py(cards)?,
        rules_of(rules).bie_san,
    ))
}

/// A burner's lead (§6.3): ``'continue'``, ``'success'`` or ``'fail'``.
#[pyfunction]
pub fn gouji_burn_lead(
    hand: &Bound<'_, PyAny>,
    lead: &Bound<'_, PyAny>,
) -> BindResult<&'static str> {
    let h = counts_from_py(hand)?;
    let l = play_from_py(lead)?;
    if !card::contains(&h, &l.counts()) {
        return Err(hand_err(format!(
            "{} is not in the hand {}",
            l.cards(),
            card::format_counts(&h)
        )));
    }
    Ok(match play::burn_lead(&h, &l) {
        play::BurnLead::Continue => "continue",
        play::BurnLead::Success => "success",
        play::BurnLead::Fail => "fail",
    })
}

/// Who may do what on a play by ``top_seat`` (§5.2–5.7): ``{'restricted', 'burners',
/// 'answerers'}``; 有头/无头 from who is active.
#[pyfunction]
#[pyo3(signature = (top_seat, play, active, passed, luanchan, /, rules = None))]
pub fn gouji_answer_rights<'py>(
    py: Python<'py>,
    top_seat: AnyInt,
    play: &Bound<'_, PyAny>,
    active: Seq<AnyInt>,
    passed: Seq<AnyInt>,
    luanchan: bool,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<Bound<'py, PyDict>> {
    let r = rules_of(rules);
    let t = seat_arg(top_seat, "top_seat")?;
    let p = play_from_py(play)?;
    let act = seat_set(&active, "active")?;
    let pas = seat_set(&passed, "passed")?;
    let x = outcome::answer_rights(
        t,
        gouji::is_gouji(&p, &r),
        false,
        false,
        &act,
        &pas,
        &outcome::heads_from_active(&act),
        luanchan,
        &r,
    );
    let d = PyDict::new(py);
    d.set_item("restricted", x.restricted)?;
    d.set_item("burners", x.burners)?;
    d.set_item("answerers", x.answerers)?;
    Ok(d)
}

/// Burn priority (§6.2): the declarers in the order they may burn.
#[pyfunction]
pub fn gouji_burn_priority(gouji_seat: AnyInt, declarers: Seq<AnyInt>) -> BindResult<Vec<usize>> {
    Ok(outcome::burn_priority(
        seat_arg(gouji_seat, "gouji_seat")?,
        &seats_arg(&declarers, "declarers")?,
    ))
}

/// Places (§7.1) from ``[(kind, seat), ...]`` (kind ``'out'`` or ``'burn_fail'``, in time order)
/// and the 革命 seat: the seats from 头科 to 大落.
#[pyfunction]
#[pyo3(signature = (events, revolution = None))]
pub fn gouji_places(
    events: Seq<(Text, AnyInt)>,
    revolution: Option<AnyInt>,
) -> BindResult<Vec<usize>> {
    let mut ev = Vec::new();
    for (k, s) in events {
        let fail = match k.as_str() {
            "out" => false,
            "burn_fail" => true,
            _ => {
                return Err(hand_err(format!(
                    "place event {k:?}: expected 'out' or 'burn_fail'"
                )));
            }
        };
        ev.push((fail, seat_arg(s, "seat")?));
    }
    let rev = revolution.map(|r| seat_arg(r, "revolution")).transpose()?;
    Ok(outcome::places_from_events(&ev, rev)?.to_vec())
}

fn places_arg(places: &[AnyInt]) -> BindResult<[usize; SEATS]> {
    let v = seats_arg(places, "places")?;
    let arr: [usize; SEATS] = v
        .try_into()
        .map_err(|_| hand_err("places: six seats, 头科 to 大落"))?;
    let mut seen = [false; SEATS];
    for &s in &arr {
        if std::mem::replace(&mut seen[s], true) {
            return Err(hand_err(format!(
                "places: seat {s} appears twice; give each seat 0..5 once"
            )));
        }
    }
    Ok(arr)
}

/// Scores per seat (§7.2) of the places (seats from 头科 to 大落) and whether it is 串三户.
#[pyfunction]
#[pyo3(signature = (places, /, rules = None))]
pub fn gouji_score(
    places: Seq<AnyInt>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<([i64; 6], bool)> {
    Ok(outcome::scores(&places_arg(&places)?, &rules_of(rules)))
}

/// 点贡 of a 对家 pair (§8.4): ``(cards A → B, cards B → A)``.
#[pyfunction]
pub fn gouji_dian_gong(
    declared: crate::convert::Tup<(bool, bool)>,
    opened: crate::convert::Tup<(bool, bool)>,
) -> (u8, u8) {
    let (declared, opened) = (declared.0, opened.0);
    outcome::dian_gong([declared.0, declared.1], [opened.0, opened.1])
}

fn pairs_arg(v: Vec<(AnyInt, AnyInt)>, name: &str) -> BindResult<Vec<[u8; 2]>> {
    v.into_iter()
        .map(|(a, b)| {
            let (a, b) = (seat_arg(a, name)?, seat_arg(b, name)?);
            if a == b {
                return Err(hand_err(format!("{name}: [{a}, {b}] names one seat twice")));
            }
            Ok([a as u8, b as u8])
        })
        .collect()
}

/// The tribute owed at the next hand (§8), in processing order, as
/// ``[{'type': '闷贡', 'from': 2, 'to': 5, 'n': 1}, ...]``.
#[pyfunction]
#[pyo3(signature = (places, kaidian, xuandian, burns, men, first_hand, revolution = None, rules = None))]
#[allow(clippy::too_many_arguments)]
pub fn gouji_tribute<'py>(
    py: Python<'py>,
    places: Seq<AnyInt>,
    kaidian: Tup<[bool; 6]>,
    xuandian: Tup<[bool; 6]>,
    burns: Seq<(AnyInt, AnyInt)>,
    men: Seq<(AnyInt, AnyInt)>,
    first_hand: bool,
    revolution: Option<AnyInt>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<Bound<'py, PyList>> {
    let places = places_arg(&places)?;
    let o = Outcome {
        places: places.iter().map(|&s| s as u8).collect(),
        revolution: revolution
            .map(|r| seat_arg(r, "revolution"))
            .transpose()?
            .map(|r| r as u8),
        void: false,
        kaidian: kaidian.0,
        xuandian: xuandian.0,
        burns: pairs_arg(burns.0, "burns")?,
        men: pairs_arg(men.0, "men")?,
        chuan_san_hu: outcome::chuan_san_hu(&places),
        scores: [0; 6],
    };
    let obs = outcome::obligations(&o, first_hand, &rules_of(rules))?;
    let out = PyList::empty(py);
    for ob in obs {
        let d = PyDict::new(py);
        d.set_item("type", ob.kind.zh())?;
        d.set_item("from", ob.from)?;
        d.set_item("to", ob.to)?;
        d.set_item("n", ob.n)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The ``n`` highest cards of a hand (进贡时要进手里最大的牌).
#[pyfunction]
pub fn gouji_tribute_cards(hand: &Bound<'_, PyAny>, n: AnyInt) -> BindResult<String> {
    let h = counts_from_py(hand)?;
    let n: usize = n.within("n", 0, 216, hand_err)?;
    Ok(card::format_counts(&outcome::tribute_cards(&h, n)?))
}

/// 买三 / 要三 (§9.3) for ``buyer`` given the 3s per seat and the buyer's cards to pay with:
/// ``{'action': 'buy'|'ask'|'auto_revolution'|'none'|'unresolved', 'from': seat, 'pay': card}``.
#[pyfunction]
#[pyo3(signature = (buyer, threes, paycards, /, rules = None))]
pub fn gouji_buy_three<'py>(
    py: Python<'py>,
    buyer: AnyInt,
    threes: Seq<AnyInt>,
    paycards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyGoujiRules>>,
) -> BindResult<Bound<'py, PyDict>> {
    let r = rules_of(rules);
    let b = seat_arg(buyer, "buyer")?;
    if threes.len() != SEATS {
        return Err(hand_err("threes: six counts, one per seat"));
    }
    let mut th = [0u8; SEATS];
    for (i, t) in threes.iter().enumerate() {
        th[i] = t.within("threes", 0, 16, hand_err)?;
    }
    let pay = counts_from_py(paycards)?;
    let d = PyDict::new(py);
    match outcome::buy_three(
        b,
        &th,
        [pay[card::TWO], pay[card::SMALL], pay[card::BIG]],
        r.revolution,
        r.buy_order,
    ) {
        outcome::BuyThree::Buy { from, pay } => {
            d.set_item("action", "buy")?;
            d.set_item("from", from)?;
            d.set_item("pay", card::rank_char(pay).to_string())?;
        }
        outcome::BuyThree::Ask { from } => {
            d.set_item("action", "ask")?;
            d.set_item("from", from)?;
        }
        outcome::BuyThree::AutoRevolution => d.set_item("action", "auto_revolution")?,
        outcome::BuyThree::None => d.set_item("action", "none")?,
        outcome::BuyThree::Unresolved => d.set_item("action", "unresolved")?,
    }
    Ok(d)
}

/// 上班 (§3.4): the first leader from the shows ``[(seat, count), ...]`` in the order made;
/// ``None`` when nobody showed (the engine then draws one at random).
#[pyfunction]
pub fn gouji_first_leader(shows: Seq<(AnyInt, AnyInt)>) -> BindResult<Option<usize>> {
    let mut v = Vec::new();
    for (s, n) in shows {
        v.push((seat_arg(s, "seat")?, n.within("count", 2, 16, hand_err)?));
    }
    Ok(outcome::first_leader(&v))
}

/// Whether a hand may declare 革命 (§9.1: no 大花, no 小花, no 2).
#[pyfunction]
pub fn gouji_may_revolt(hand: &Bound<'_, PyAny>) -> BindResult<bool> {
    Ok(outcome::may_revolt(&counts_from_py(hand)?))
}

/// The action with flat id ``id`` as text, or ``None``.
#[pyfunction]
pub fn gouji_decode_action(id: AnyInt) -> Option<String> {
    u32::try_from(id.0)
        .ok()
        .and_then(Action::from_id)
        .map(|a| a.text())
}

/// The flat id of an action given as text (``'pass'``, ``'AA'``, ``'return:4'`` …).
#[pyfunction]
pub fn gouji_encode_action(action: Text) -> BindResult<u32> {
    Ok(Action::parse(&action)?.id())
}

/// Number of flat action ids.
#[pyfunction]
pub fn gouji_action_space() -> u32 {
    hand::N_ACTION_IDS
}

fn hands_array(hands: &PyReadonlyArray2<'_, u8>) -> BindResult<Vec<card::Counts>> {
    let a = hands.as_array();
    if a.ncols() != card::N_RANKS {
        return Err(hand_err(format!(
            "hands must have shape (N, 15) (counts of 3 4 5 6 7 8 9 T J Q K A 2 w W), got {:?}",
            a.shape()
        )));
    }
    let mut out = Vec::with_capacity(a.nrows());
    for (i, row) in a.rows().into_iter().enumerate() {
        let mut c = [0u8; card::N_RANKS];
        for (r, &x) in row.iter().enumerate() {
            if x > card::FULL_COUNTS[r] {
                return Err(hand_err(format!(
                    "row {i}: {x} copies of {} (at most {})",
                    card::rank_char(r),
                    card::FULL_COUNTS[r]
                )));
            }
            c[r] = x;
        }
        out.push(c);
    }
    Ok(out)
}

/// Per row of ``hands`` (N, 15) uint8 counts: the number of legal plays on ``top`` (leads when
/// None). GIL released, rows in parallel.
#[pyfunction]
#[pyo3(signature = (hands, top = None, /, rules = None))]
pub fn gouji_batch_legal_count<'py>(
    py: Python<'py>,
    hands: PyReadonlyArray2<'py, u8>,
    top: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyGoujiRules>>,
) -> BindResult<Bound<'py, PyArray1<u32>>> {
    let hs = hands_array(&hands)?;
    let t = opt_play(top)?;
    let r = rules_of(rules);
    let out: Vec<u32> = py.detach(|| {
        hs.par_iter()
            .map_init(Vec::new, |buf, h| {
                buf.clear();
                match &t {
                    None => play::leads_into(h, r.bie_san, buf),
                    Some(t) => play::beating_into(h, t, r.mixed_jokers, buf),
                }
                buf.len() as u32
            })
            .collect()
    });
    Ok(out.into_pyarray(py))
}

/// Per row of ``hands`` (N, 15) uint8 counts: whether it can burn the 够级牌 ``top``. GIL
/// released, rows in parallel.
#[pyfunction]
#[pyo3(signature = (hands, top, /, rules = None))]
pub fn gouji_batch_can_burn<'py>(
    py: Python<'py>,
    hands: PyReadonlyArray2<'py, u8>,
    top: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyGoujiRules>>,
) -> BindResult<Bound<'py, PyArray1<bool>>> {
    let hs = hands_array(&hands)?;
    let t = play_from_py(top)?;
    let r = rules_of(rules);
    let out: Vec<bool> = py.detach(|| {
        hs.par_iter()
            .map_init(Vec::new, |buf, h| play::can_burn(h, &t, &r, buf))
            .collect()
    });
    Ok(out.into_pyarray(py))
}

/// Rebuild a hand from its log (a list of event dicts or its JSON text) and check it replays to
/// the same log.
#[pyfunction]
pub fn gouji_replay(events: &Bound<'_, PyAny>) -> BindResult<PyGoujiGame> {
    let Value::Array(v) = crate::convert::json_arg(events, "events")? else {
        return Err(hand_err(
            "replay: the log is a list of event dicts (or its JSON text)",
        ));
    };
    Ok(PyGoujiGame {
        inner: gouji::replay(&v)?,
        buf: Vec::new(),
    })
}

/// One hand of 够级 (the state machine of the core).
///
/// ``GoujiGame(rules, seed=0, carry=None)`` deals from ``seed``; ``carry`` is the JSON string of
/// the previous hand's ``next_carry`` (tribute). Actions are strings: cards (``'AA'``), ``'pass'``,
/// ``'yield'``, ``'show'``/``'no_show'``, ``'revolt'``/``'no_revolt'``, ``'yaotou'``/``'wutou'``,
/// ``'xuandian'``/``'no_xuandian'``, ``'return:<card>'``. An illegal action raises
/// ``InvalidHandError`` and changes nothing.
#[pyclass(module = "hupai._core", name = "GoujiGame")]
pub struct PyGoujiGame {
    inner: GoujiHand,
    buf: Vec<Action>,
}

fn carry_arg(carry: Option<&str>) -> BindResult<Carry> {
    match carry {
        None => Ok(Carry::default()),
        Some(s) => serde_json::from_str(s)
            .map_err(|e| hand_err(format!("carry: {e}; expected {{\"hand_in_session\": int, \"obligations\": [{{\"kind\": \"落贡\", \"from\": 5, \"to\": 0, \"n\": 2}}]}}"))),
    }
}

fn action_arg(a: &Bound<'_, PyAny>) -> BindResult<Action> {
    if let Ok(s) = a.cast::<PyString>() {
        return Ok(Action::parse(crate::convert::text(s, "action")?)?);
    }
    if let Ok(p) = a.cast::<PyGoujiPlay>() {
        return Ok(Action::Play(p.get().inner));
    }
    if let Ok(i) = a.extract::<AnyInt>() {
        return u32::try_from(i.0)
            .ok()
            .and_then(Action::from_id)
            .ok_or_else(|| hand_err(format!("action id {} names no action", i.0)));
    }
    Err(BindError::Py(pyo3::exceptions::PyTypeError::new_err(
        format!(
            "an action is a str ('AA', 'pass', ...), a GoujiPlay or an action id, got {}",
            repr(a)
        ),
    )))
}

#[pymethods]
impl PyGoujiGame {
    #[new]
    #[pyo3(signature = (rules = None, seed = AnyInt(0), carry = None, log = true))]
    fn new(
        rules: Option<&Bound<'_, PyGoujiRules>>,
        seed: AnyInt,
        carry: Option<Text>,
        log: bool,
    ) -> BindResult<Self> {
        Ok(Self {
            inner: GoujiHand::new(
                rules_of(rules),
                seed.within("seed", 0, i64::MAX, hand_err)?,
                carry_arg(carry.as_deref())?,
                log,
            )?,
            buf: Vec::new(),
        })
    }

    /// A hand starting in the play phase from given hands (six card strings; cards in no hand
    /// count as played), the seat to lead, the seats already out (in order) and an optional
    /// 革命 seat with his 对头's choice (``yaotou``).
    #[staticmethod]
    #[pyo3(signature = (hands, leader, out = Seq(Vec::new()), revolution = None, yaotou = true, rules = None))]
    fn from_position(
        hands: Vec<Bound<'_, PyAny>>,
        leader: AnyInt,
        out: Seq<AnyInt>,
        revolution: Option<AnyInt>,
        yaotou: bool,
        rules: Option<&Bound<'_, PyGoujiRules>>,
    ) -> BindResult<Self> {
        if hands.len() != SEATS {
            return Err(hand_err("hands: six card strings, one per seat"));
        }
        let mut hs = [[0u8; card::N_RANKS]; SEATS];
        for (i, h) in hands.iter().enumerate() {
            hs[i] = counts_from_py(h)?;
        }
        let rev = revolution
            .map(|r| seat_arg(r, "revolution"))
            .transpose()?
            .map(|r| (r, yaotou));
        Ok(Self {
            inner: GoujiHand::from_position(
                rules_of(rules),
                hs,
                seat_arg(leader, "leader")?,
                &seats_arg(&out, "out")?,
                rev,
                true,
            )?,
            buf: Vec::new(),
        })
    }

    /// The seat to decide, ``None`` when the hand is over.
    #[getter]
    fn to_act(&self) -> Option<usize> {
        self.inner.to_act()
    }
    /// What the seat to act is asked: ``'lead'``, ``'turn'``, ``'answer'``, ``'burn'``,
    /// ``'yield_reply'``, ``'yield_back'``, ``'return'``, ``'show'``, ``'revolt'``, ``'head'``,
    /// ``'xuandian'``; ``None`` when over.
    #[getter]
    fn ask(&self) -> Option<&'static str> {
        self.inner.ask().map(hand::Ask::name)
    }
    /// ``'tribute'``, ``'show'``, ``'revolt'``, ``'head'``, ``'xuandian'``, ``'play'`` or ``'over'``.
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.phase().name()
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }
    /// Cards held per seat (canonical strings).
    #[getter]
    fn hands(&self) -> Vec<String> {
        self.inner.hands().iter().map(card::format_counts).collect()
    }
    /// The play on top: ``{'seat', 'cards', 'restricted', 'dead'}`` or ``None``.
    #[getter]
    fn top<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(t) = self.inner.top() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("seat", t.seat)?;
        d.set_item("cards", t.play.cards())?;
        d.set_item("restricted", t.restricted)?;
        d.set_item("dead", t.dead)?;
        Ok(Some(d))
    }
    /// The legal actions of ``seat`` (default: the seat to act) as text.
    #[pyo3(signature = (seat = None))]
    fn legal_actions(&mut self, seat: Option<AnyInt>) -> BindResult<Vec<String>> {
        let s = match seat {
            Some(s) => seat_arg(s, "seat")?,
            None => match self.inner.to_act() {
                Some(s) => s,
                None => return Ok(Vec::new()),
            },
        };
        self.inner.legal_actions_into(s, &mut self.buf);
        Ok(self.buf.iter().map(Action::text).collect())
    }
    /// The legal actions of the seat to act as flat action ids.
    fn legal_action_ids(&mut self) -> Vec<u32> {
        let Some(s) = self.inner.to_act() else {
            return Vec::new();
        };
        self.inner.legal_actions_into(s, &mut self.buf);
        self.buf.iter().map(Action::id).collect()
    }
    /// Apply the action of the seat to act (``seat``, if given, must be that seat). Returns the
    /// events it produced.
    #[pyo3(signature = (action, seat = None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
        seat: Option<AnyInt>,
    ) -> BindResult<Bound<'py, PyList>> {
        let a = action_arg(action)?;
        let n = self.inner.events().len();
        match seat {
            Some(s) => self.inner.step_seat(seat_arg(s, "seat")?, a)?,
            None => self.inner.step(a)?,
        }
        let out = PyList::empty(py);
        for e in &self.inner.events_json_from(n) {
            out.append(json_to_py(py, e)?)?;
        }
        Ok(out)
    }
    /// The action a built-in bot (``'random'`` or ``'greedy'``) takes now (``seed`` drives
    /// the random bot).
    #[pyo3(signature = (bot = Text::from("greedy"), seed = AnyInt(0)))]
    fn bot_action(&mut self, bot: Text, seed: AnyInt) -> BindResult<Option<String>> {
        let kind = BotKind::parse(&bot)?;
        let Some(s) = self.inner.to_act() else {
            return Ok(None);
        };
        self.inner.legal_actions_into(s, &mut self.buf);
        let mut rng = card::Rng::new(seed.0 as u64 ^ u64::from(self.inner.steps));
        Ok(Some(
            gouji::bots::choose(kind, &mut rng, &self.inner, &self.buf).text(),
        ))
    }
    /// What ``seat`` may see (own cards, card counts, the table, flags) as a dict.
    fn observation<'py>(&self, py: Python<'py>, seat: AnyInt) -> BindResult<Bound<'py, PyAny>> {
        let s = seat_arg(seat, "seat")?;
        Ok(json_to_py(py, &self.inner.observation(s))?)
    }
    /// The event log (list of dicts; ``json.dumps`` it to store, ``replay`` to rebuild).
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &Value::Array(self.inner.events_json()))
    }
    /// The outcome (§7.3: places from 头科 to 大落, 革命, void, 开点, 宣点, burns, 闷, 串三户,
    /// scores) or ``None`` while the hand runs.
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.outcome_json())
    }
    /// The settlement as ledger events (zero-sum) or ``None`` while the hand runs.
    #[getter]
    fn ledger<'py>(&self, py: Python<'py>) -> BindResult<Bound<'py, PyAny>> {
        let Some(l) = self.inner.ledger()? else {
            return Ok(py.None().into_bound(py));
        };
        let v = serde_json::json!({
            "balances": l.balances().into_iter().map(|(_, b)| b).collect::<Vec<_>>(),
            "events": l.events(),
        });
        Ok(json_to_py(py, &v)?)
    }
    /// The carry for the next hand as a JSON string (``None`` while the hand runs).
    #[getter]
    fn next_carry(&self) -> BindResult<Option<String>> {
        match self.inner.next_carry() {
            None => Ok(None),
            Some(c) => Ok(Some(
                serde_json::to_string(&c).map_err(|e| hand_err(e.to_string()))?,
            )),
        }
    }
    /// The carry this hand started with, as a JSON string.
    #[getter]
    fn carry(&self) -> BindResult<String> {
        serde_json::to_string(self.inner.carry()).map_err(|e| hand_err(e.to_string()))
    }
    /// Whether hands + table + 革命 discards hold exactly the 216 cards.
    fn cards_conserved(&self) -> bool {
        self.inner.cards_conserved()
    }
    fn __repr__(&self) -> String {
        format!(
            "GoujiGame(seed={}, phase={:?}, to_act={:?})",
            self.inner.seed(),
            self.inner.phase().name(),
            self.inner.to_act()
        )
    }
}
