//! `Settlement`: the settlement ledger of one hand (core `hupai_core::scoring::ledger::Ledger`).

use hupai_core::scoring::ledger::{DrawEndState, KongPay, Ledger, SettlementRules};
use hupai_core::scoring::score::Score;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::convert::{AnyInt, json_to_py};
use crate::convert::{Seq, Text};
use crate::errors::{BindError, BindResult};
use crate::score::PyScore;

/// The settlement ledger of one hand: an ordered list of zero-sum events (common.md §6).
///
/// ``Settlement(seats=("A", "B", "C", "D"), variant=None)``; the variant's ledger rules (its
/// ruleset's: for ``sichuan``, the default, the kong values, base, 呼叫转移, 血战/血流 payer rules
/// and draw-end steps of its switches) drive ``kong``, ``win`` and ``draw_end``. Every event names
/// payer, payee, amount and reason and may refer to an earlier event; balances always sum to zero
/// (a non-zero-sum event raises ``SettlementError``). ``hupai.settle_hand`` returns one with the
/// ``scores`` of the hand's wins.
#[pyclass(module = "hupai._core", name = "Settlement")]
pub struct PySettlement {
    ledger: Ledger,
    scores: Vec<Score>,
}

impl PySettlement {
    /// Wrap a ledger settled by the core, with the scores of its wins.
    pub(crate) fn from_settled(ledger: Ledger, scores: Vec<Score>) -> Self {
        Self { ledger, scores }
    }
}

fn rules_for(variant: Option<&Bound<'_, PyAny>>) -> BindResult<SettlementRules> {
    let v = match variant {
        None => crate::request::variant_by_id("sichuan")?,
        Some(obj) => crate::score::variant_from_py(Some(obj))?,
    };
    Ok(v.ruleset().ledger_rules())
}

#[pymethods]
impl PySettlement {
    #[new]
    #[pyo3(signature = (seats = None, variant = None))]
    fn new(seats: Option<Seq<Text>>, variant: Option<&Bound<'_, PyAny>>) -> BindResult<Self> {
        let seats = seats
            .map(|s| s.0.into_iter().map(|t| t.0).collect())
            .unwrap_or_else(|| ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect());
        Ok(Self {
            ledger: Ledger::new(seats, rules_for(variant)?)?,
            scores: Vec::new(),
        })
    }

    /// 刮风下雨: an instant kong payment; ``kind`` is ``open`` (直杠, needs ``feeder``), ``added``
    /// (面下杠) or ``concealed`` (暗杠). Returns the event id (the kong id).
    #[pyo3(signature = (owner, kind, *, feeder = None))]
    fn kong(&mut self, owner: Text, kind: Text, feeder: Option<Text>) -> BindResult<usize> {
        Ok(self
            .ledger
            .kong(&owner, KongPay::parse(&kind)?, feeder.as_deref())?)
    }

    /// A win: ``amount`` per payer (an int or a ``Score``, whose ``per_payer`` is paid); the
    /// discarder pays a discard win, every other player still in the hand a self-draw.
    /// ``after_kong`` (杠上炮) triggers 呼叫转移. In 血战 the winner then leaves the hand. Returns
    /// the event id.
    #[pyo3(signature = (winner, amount, *, discarder = None, after_kong = false))]
    fn win(
        &mut self,
        winner: Text,
        amount: &Bound<'_, PyAny>,
        discarder: Option<Text>,
        after_kong: bool,
    ) -> BindResult<usize> {
        let (per_payer, data) = if let Ok(sc) = amount.cast::<PyScore>() {
            let sc = &sc.get().score;
            (sc.per_payer, sc.to_json_value())
        } else {
            (money(amount.extract::<AnyInt>()?, "amount")?, Value::Null)
        };
        Ok(self
            .ledger
            .win(&winner, per_payer, discarder.as_deref(), after_kong, data)?)
    }

    /// A seat leaves the hand without winning (no later payments or receipts).
    fn leave(&mut self, seat: Text) -> BindResult<()> {
        Ok(self.ledger.leave(&seat)?)
    }

    /// ``payer`` pays ``amount`` to each of ``payees`` (e.g. a penalty for leaving the table).
    #[pyo3(signature = (payer, payees, amount, *, reason = Text::from("penalty")))]
    fn penalty(
        &mut self,
        payer: Text,
        payees: Seq<Text>,
        amount: AnyInt,
        reason: Text,
    ) -> BindResult<usize> {
        let amount = money(amount, "amount")?;
        let payees: Vec<String> = payees.into_iter().map(|t| t.0).collect();
        Ok(self.ledger.penalty(&payer, &payees, amount, &reason)?)
    }

    /// A raw event from per-seat amounts, which must sum to zero. ``kind`` is one of the event
    /// kinds of common.md §6.1 (``ADJUSTMENT`` for anything else); ``ref`` an earlier event id.
    #[pyo3(signature = (kind, deltas, *, reason = Text::from(""), r#ref = None))]
    fn record(
        &mut self,
        kind: Text,
        deltas: Seq<(Text, AnyInt)>,
        reason: Text,
        r#ref: Option<AnyInt>,
    ) -> BindResult<usize> {
        let deltas = deltas
            .into_iter()
            .map(|(s, d)| Ok((s.0.clone(), money(d, &format!("deltas[{:?}]", s.0))?)))
            .collect::<BindResult<Vec<_>>>()?;
        let r#ref: Option<usize> = r#ref
            .map(|r| r.within("ref", 0, i64::from(u32::MAX), settlement_err))
            .transpose()?;
        Ok(self.ledger.record_deltas(&kind, &reason, &deltas, r#ref)?)
    }

    /// Draw-end (流局): 查花猪 → 查大叫 → 退税 in the preset's order. ``states`` maps every seat
    /// still in the hand to ``{"huazhu": bool, "da_jiao": int | None}`` (``da_jiao``: the ready
    /// player's 大叫 amount, e.g. ``hupai.sichuan.max_win_value(...)["da_jiao"]``; None = not
    /// ready). Returns the new event ids; the hand then ends.
    fn draw_end(&mut self, states: &Bound<'_, PyDict>) -> BindResult<Vec<usize>> {
        const KEYS: &[&str] = &["huazhu", "da_jiao"];
        let Value::Object(states) = crate::convert::to_json(states.as_any(), "states")? else {
            return Err(settlement_err(
                "states: a dict {seat: {\"huazhu\", \"da_jiao\"}}".into(),
            ));
        };
        let mut out = Vec::new();
        for (seat, v) in states {
            let Value::Object(d) = v else {
                return Err(settlement_err(format!(
                    "states.{seat}: a dict {{\"huazhu\": bool, \"da_jiao\": int | None}}, got {v}"
                )));
            };
            if let Some(k) = d.keys().find(|k| !KEYS.contains(&k.as_str())) {
                return Err(settlement_err(format!(
                    "states.{seat}: unknown key {k:?}; accepted: {}",
                    KEYS.join(", ")
                )));
            }
            let huazhu = match d.get("huazhu") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(x) => {
                    return Err(settlement_err(format!(
                        "states.{seat}.huazhu: true or false, got {x}"
                    )));
                }
            };
            let da_jiao = match d.get("da_jiao") {
                None | Some(Value::Null) => None,
                Some(Value::Number(n)) if n.is_i64() => Some(money(
                    AnyInt(n.as_i64().unwrap_or_default()),
                    &format!("states.{seat}.da_jiao"),
                )?),
                Some(x) => {
                    return Err(settlement_err(format!(
                        "states.{seat}.da_jiao: an int amount or None (not ready), got {x}"
                    )));
                }
            };
            out.push((seat, DrawEndState { huazhu, da_jiao }));
        }
        Ok(self.ledger.draw_end(&out)?)
    }

    /// End the hand (普通场 after a win; no further events).
    fn end_hand(&mut self) {
        self.ledger.end_hand();
    }

    #[getter]
    fn seats(&self) -> Vec<String> {
        self.ledger.seats().to_vec()
    }
    /// Seats still in the hand.
    #[getter]
    fn in_hand(&self) -> Vec<String> {
        self.ledger.in_hand()
    }
    #[getter]
    fn ended(&self) -> bool {
        self.ledger.is_ended()
    }
    /// Balance per seat.
    #[getter]
    fn balances<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, b) in self.ledger.balances() {
            d.set_item(k, b)?;
        }
        Ok(d)
    }
    /// Events as JSON-ready dicts: ``id``, ``kind``, ``reason``, ``payments`` (payer, payee,
    /// amount), ``deltas``, ``ref``, ``data``.
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.ledger.to_json_value()["events"])
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.ledger.to_json_value())
    }
    fn to_json(&self) -> String {
        self.ledger.to_json_value().to_string()
    }
    /// The scores of the hand's wins, in record order (``hupai.settle_hand``).
    #[getter]
    fn scores(&self) -> Vec<PyScore> {
        self.scores.iter().cloned().map(PyScore::new).collect()
    }
    fn __len__(&self) -> usize {
        self.ledger.events().len()
    }
    fn __repr__(&self) -> String {
        let b: Vec<String> = self
            .ledger
            .balances()
            .iter()
            .map(|(k, v)| format!("{k}={v:+}"))
            .collect();
        format!(
            "Settlement({} events, {})",
            self.ledger.events().len(),
            b.join(" ")
        )
    }
}

/// Largest absolute amount a binding accepts for one payment or delta.
const MONEY_MAX: i64 = 1 << 52;

fn settlement_err(msg: String) -> BindError {
    BindError::Core(hupai_core::Error::settlement(msg))
}

/// An amount argument in `-MONEY_MAX..=MONEY_MAX`, else a `SettlementError` naming it.
fn money(v: AnyInt, name: &str) -> BindResult<i64> {
    v.within(name, -MONEY_MAX, MONEY_MAX, settlement_err)
}
