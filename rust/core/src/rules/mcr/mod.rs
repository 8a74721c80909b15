//! 国标麻将 (MCR) scoring with parity to the reference engine (pymahjonggb 1.4.0): fan detection
//! ([`score`]), switches ([`rules`]), fan ids ([`ids`]), the settlement of a win ([`settle`]) and
//! the preset's [`Ruleset`] ([`Mcr`]). Spec: `shared/rules/mcr.md`; fan table: `presets/mcr.toml`.

pub mod ids;
pub mod rules;
pub mod score;
pub mod shanten;

pub use rules::{BlessingRule, McrRules};
pub use score::{McrForm, McrScore, ScoredSet, formal_waits_of, score};

use std::any::Any;
use std::mem::MaybeUninit;
use std::ptr::addr_of_mut;
use std::sync::Arc;

use crate::decompose::{Decomposition, Form, Pairs, Set, Sets, Shapes};
use crate::error::{Error, Result};
use crate::game::flow::{FlowFacts, WinOption};
use crate::preset::{FanOp, Options, PresetData};
use crate::rules::{Book, Case, CaseRef, Ruleset, TableWin, TileBook};
use crate::scoring::record::{HandRecord, RecordSpec};
use crate::scoring::score::{Extras, FanHit, Fans, Payment, Payments, Reading, Score, Unit};
use crate::situation::Situation;

/// The MCR ruleset: the compiled rules and the table's flow facts.
#[derive(Debug)]
pub struct Mcr {
    pub rules: McrRules,
    preset: &'static PresetData,
    flow: FlowFacts,
    /// One hit of each fan index (`ids::FAN_IDS`): its table entry and its value under the
    /// switches, counted once; blanks in the padding slots past `N_FANS` (never counted). As long
    /// as the fan counts, so indexing both takes one bounds check.
    hits: Box<[FanHit; score::FAN_SLOTS]>,
}

/// Compile the `mcr` preset.
pub fn compile(p: &'static PresetData, o: &Options) -> Result<Arc<dyn Ruleset>> {
    let mut flow = FlowFacts::from_data(p, o);
    flow.shapes = Shapes::MCR;
    let rules = McrRules::compile(p, o)?;
    let mut hits = Box::new([FanHit::default(); score::FAN_SLOTS]);
    for (i, id) in ids::FAN_IDS.iter().enumerate() {
        let def = p.fan_entry(id)?;
        hits[i] = FanHit::new(def, i64::from(rules.values[i]), FanOp::Add, 1);
    }
    Ok(Arc::new(Mcr {
        rules,
        preset: p,
        flow,
        hits,
    }))
}

/// The MCR rules of a variant (a RuleConfig error for another preset).
pub fn rules_of(v: &crate::Variant) -> Result<&McrRules> {
    v.rules_as::<Mcr>()
        .map(|m| &m.rules)
        .ok_or_else(|| Error::rule(format!("variant {} is not an MCR variant", v.id())))
}

impl Mcr {
    /// The generic score of an MCR result, with `payments` (the result borrowed: moving it costs a
    /// copy).
    #[inline(always)]
    fn to_score(&self, sc: &McrScore, payments: Payments) -> Score {
        let mut out = MaybeUninit::uninit();
        self.to_score_into(sc, payments, &mut out);
        // SAFETY: `to_score_into` initialises every field of `out`.
        unsafe { out.assume_init() }
    }

    /// [`Self::to_score`] written into `out`, field by field where it lies: the fan list and the
    /// decomposition's sets and pairs are written as empty lists and then filled in place, so no
    /// list slot is written twice and no `Score` is built beside `out` and copied in.
    #[inline(always)]
    fn to_score_into(&self, sc: &McrScore, payments: Payments, out: &mut MaybeUninit<Score>) {
        let form = match sc.form {
            McrForm::Regular | McrForm::NineGates => Form::Standard,
            McrForm::SevenPairs | McrForm::SevenShiftedPairs => Form::SevenPairs,
            McrForm::ThirteenOrphans => Form::ThirteenOrphans,
            McrForm::HonorsAndKnitted => Form::HonorsKnitted,
            McrForm::KnittedStraight => Form::KnittedStraight,
        };
        let total = i64::from(sc.total);
        let p = out.as_mut_ptr();
        // SAFETY: `p` points to memory valid for writes of a `Score` (borrowed mutably through
        // `out`). Each field is written exactly once, through `addr_of_mut!` (no reference to the
        // uninitialised `Score` or its fields is made), with `ptr::write` (no drop of the old,
        // uninitialised contents). Nothing here can panic, and nothing reads the `Score` before
        // every field is written; `out` is only treated as initialised after that, below.
        unsafe {
            addr_of_mut!((*p).variant).write(self.preset.id.as_str());
            addr_of_mut!((*p).fans).write(Fans::new());
            addr_of_mut!((*p).raw_total).write(total);
            addr_of_mut!((*p).total).write(total);
            addr_of_mut!((*p).unit).write(Unit::Fan);
            addr_of_mut!((*p).meets_minimum).write(sc.meets_minimum);
            addr_of_mut!((*p).per_payer).write(self.rules.base_points + total);
            addr_of_mut!((*p).players).write(4);
            addr_of_mut!((*p).payments).write(payments);
            addr_of_mut!((*p).decomposition).write(Some(Reading::Tiles(Decomposition {
                form,
                sets: Sets::new(),
                pair: sc.pair,
                pairs: Pairs::new(),
                knitted: sc.knitted,
                wildcards: Vec::new(),
            })));
            addr_of_mut!((*p).extras).write(Extras::new());
        }
        // SAFETY: every field of the `Score` was written above.
        let out = unsafe { out.assume_init_mut() };
        self.fill_fans(out, sc);
        if let Some(Reading::Tiles(d)) = &mut out.decomposition {
            // at most 4 sets and 7 pairs: always inline
            let set = |x: &ScoredSet| Set {
                kind: x.kind,
                tile: x.tile,
                declared: x.declared,
                concealed: x.concealed,
            };
            d.sets.fill_inline(sc.sets.len(), sc.sets.iter().map(set));
            d.pairs
                .fill_inline(sc.pairs.len(), sc.pairs.iter().copied());
        }
    }

    /// The fan list of `out`, filled where it lies; more fans than fit inline (never seen in MCR)
    /// go to the heap.
    #[inline(always)]
    fn fill_fans(&self, out: &mut Score, sc: &McrScore) {
        out.fans.fill(
            sc.fans
                .iter()
                .map(|(i, c)| self.hits[i].with_count(u32::from(c))),
        );
    }

    /// Score one win and hand the result and its payments (mcr.md §11: the discarder, or every
    /// other seat after a self-draw, pays 8 + total; on a discard the other two pay 8) to
    /// `finish`, which builds the generic score where the caller wants it.
    #[inline(always)]
    fn score_with<R>(
        &self,
        case: CaseRef<'_>,
        finish: impl FnOnce(&McrScore, Payments) -> R,
    ) -> Result<R> {
        let s = case.tiles("mcr")?;
        s.check_flags("mcr", &[])?;
        // borrowed in place: moving the result out of the `Result` would copy it
        let res = score(s, &self.rules);
        let sc = match res {
            Ok(ref sc) => sc,
            Err(e) => return Err(e),
        };
        let winner = s.winner_seat(4)?;
        // the win type after the flag policy (a repaired flag may turn it)
        let discarder = if sc.win_type.is_self_drawn() {
            if s.table.discarder.is_some() {
                return Err(Error::hand(
                    "situation.discarder: a self-drawn MCR win has no discarder",
                ));
            }
            None
        } else {
            Some(s.table.discarder.unwrap_or((winner + 3) % 4))
        };
        // mcr.md §11 (as `settle`): 8 + total from the discarder or, self-drawn, from everyone;
        // 8 from the other two on a discard
        let total = i64::from(sc.total);
        let base = self.rules.base_points;
        let full = base + total;
        let mut pay = [Payment::default(); 3];
        for (k, p) in pay.iter_mut().enumerate() {
            let payer = (winner + 1 + k as u8) % 4;
            let amount = match discarder {
                Some(d) if d != payer => base,
                _ => full,
            };
            *p = Payment {
                payer,
                payee: winner,
                amount,
            };
        }
        if discarder == Some(winner) || discarder.is_some_and(|d| d > 3) {
            return Err(Error::hand(format!(
                "situation.discarder: {} is not another seat of the table",
                discarder.unwrap_or_default()
            )));
        }
        Ok(finish(sc, Payments::from_array(pay, 3)))
    }
}

impl TileBook for Mcr {
    fn id(&self) -> &'static str {
        self.preset.id.as_str()
    }
    fn seats(&self) -> u8 {
        4
    }
    fn spec(&self) -> RecordSpec {
        RecordSpec {
            kong_types: &["open", "added", "concealed"],
            draw_keys: Some(&[]),
            ..RecordSpec::default()
        }
    }
    fn evaluate(&self, s: &Situation) -> Result<Score> {
        s.check_flags("mcr", &[])?;
        Ok(self.to_score(&score(s, &self.rules)?, Payments::new()))
    }
    /// Kongs pay nothing in MCR; one win (截胡), paid per mcr.md §11.
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()> {
        if rec.n_wins() > 1 {
            return Err(Error::settlement("国标: one winner per hand (截胡)"));
        }
        for (k, (_, w, d, case, _)) in rec.wins().enumerate() {
            let Case::Tiles(s) = case else { continue };
            let sc = &scores[k];
            let d = if s.is_self_drawn() { None } else { d };
            let pay = settle(
                sc.total,
                self.rules.base_points,
                w as u8,
                d.map(|x| x as u8),
            )?;
            let lines: Vec<(usize, usize, i64)> = pay
                .iter()
                .map(|p| (usize::from(p.payer), usize::from(p.payee), p.amount))
                .collect();
            book.begin_win(k);
            book.pay(
                "WIN",
                &format!("{} wins: {} 番", rec.seats[w], sc.total),
                &lines,
            )?;
            book.end_win();
        }
        Ok(())
    }
}

impl Ruleset for Mcr {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn players(&self) -> u8 {
        4
    }
    /// Score one win; the payments follow mcr.md §11 (the discarder, or every other seat after a
    /// self-draw, pays 8 + total; on a discard the other two pay 8).
    fn score(&self, case: CaseRef<'_>) -> Result<Score> {
        self.score_with(case, |sc, pay| self.to_score(sc, pay))
    }
    /// [`Self::score`] built where it is kept.
    fn score_into(&self, case: CaseRef<'_>, out: &mut MaybeUninit<Score>) -> Result<()> {
        self.score_with(case, |sc, pay| self.to_score_into(sc, pay, out))
    }
    fn tile_book(&self) -> Option<&dyn TileBook> {
        Some(self)
    }
    fn table(&self) -> Option<crate::rules::TablePart> {
        Some(crate::rules::TablePart::Mahjong(std::sync::Arc::new(
            crate::game::mahjong::preset::Deltas,
        )))
    }
    fn flow(&self) -> Option<&FlowFacts> {
        Some(&self.flow)
    }
    /// A legal win reaches the minimum; the fourth-tile and last-tile flags may clash with the
    /// hand at the table, so it is scored again without them. The value is the fan total, the
    /// deltas the payments (seats = table seats).
    fn table_win(&self, q: &TableWin<'_>) -> Option<WinOption> {
        let sit = &q.situation;
        let sc = score(sit, &self.rules)
            .or_else(|_| {
                let mut s2 = sit.clone();
                s2.wall_last = false;
                score(&s2, &self.rules)
            })
            .ok()?;
        if !sc.meets_minimum {
            return None;
        }
        let total = i64::from(sc.total);
        let pay = settle(
            total,
            self.rules.base_points,
            q.idx as u8,
            q.discarder.map(|d| d as u8),
        )
        .ok()?;
        let mut deltas = vec![0i64; 4];
        for p in pay {
            deltas[usize::from(p.payer)] -= p.amount;
            deltas[usize::from(p.payee)] += p.amount;
        }
        Some(WinOption {
            value: total,
            self_draw_payment: q.discarder.is_none(),
            fans: sc
                .fans
                .iter()
                .map(|(f, c)| (ids::FAN_IDS[f].to_string(), u32::from(c)))
                .collect(),
            deltas,
            score: None,
        })
    }
}

/// One payment of a settlement (mcr.md §11). Seats are 0..4 = E S W N (门风).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettlePayment {
    pub payer: u8,
    pub payee: u8,
    pub amount: i64,
    /// `"self_drawn"` (8 + total), `"discard"` (8 + total, the discarder or the robbed kong's
    /// declarer) or `"base"` (8, the other players on a discard win).
    pub reason: &'static str,
}

/// Zero-sum settlement of one win: `total` = 基本分 (flowers included), `winner` the winner's seat,
/// `discarder` the seat that discarded the winning tile (or added the robbed kong); `None` for a
/// self-drawn win.
/// Largest `total` / `base` accepted by [`settle`] (far above any real hand; keeps the sums exact).
pub const SETTLE_MAX: i64 = 1_000_000_000;

pub fn settle(
    total: i64,
    base: i64,
    winner: u8,
    discarder: Option<u8>,
) -> Result<Vec<SettlePayment>> {
    let mut out = Vec::with_capacity(3);
    each_payment(
        total,
        base,
        winner,
        discarder,
        |payer, payee, amount, reason| {
            out.push(SettlePayment {
                payer,
                payee,
                amount,
                reason,
            })
        },
    )?;
    Ok(out)
}

/// The checked payments of [`settle`], one call of `pay(payer, payee, amount, reason)` each.
fn each_payment(
    total: i64,
    base: i64,
    winner: u8,
    discarder: Option<u8>,
    mut pay: impl FnMut(u8, u8, i64, &'static str),
) -> Result<()> {
    if winner > 3 {
        return Err(Error::hand(format!(
            "winner seat {winner} out of range 0..=3"
        )));
    }
    if let Some(d) = discarder {
        if d > 3 || d == winner {
            return Err(Error::hand(format!(
                "discarder seat {d} must be another player's seat (0..=3, not the winner {winner})"
            )));
        }
    }
    for (name, v) in [("total", total), ("base", base)] {
        if !(0..=SETTLE_MAX).contains(&v) {
            return Err(Error::hand(format!(
                "{name}={v}: expected 0..={SETTLE_MAX}"
            )));
        }
    }
    for seat in (0..4u8).map(|k| (winner + 1 + k) % 4).take(3) {
        let (amount, reason) = match discarder {
            None => (base + total, "self_drawn"),
            Some(d) if d == seat => (base + total, "discard"),
            Some(_) => (base, "base"),
        };
        pay(seat, winner, amount, reason);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `score_into` writes what `score` returns (MCR builds it in place, other presets through
    /// the trait's default) and reports the same errors.
    #[test]
    fn score_into_matches_score() {
        let into = |v: &crate::Variant, s: &Situation| {
            let mut out = MaybeUninit::<Score>::uninit();
            v.ruleset()
                .score_into(CaseRef::Tiles(s), &mut out)
                .map(|()| {
                    // SAFETY: `score_into` returned `Ok`, so it wrote the score.
                    unsafe { out.assume_init() }
                })
        };
        let win = Situation::from_json(
            r#"{"hand": {"concealed": ["1m","2m","3m","4m","5m","6m","7m","8m","9m","1p","1p","1p","5p"],
                "win_tile": "5p"}, "situation": {"win_type": "self_draw"}}"#,
        )
        .unwrap();
        for id in ["mcr", "sichuan"] {
            let v = crate::Variant::load(id).unwrap();
            let direct = v.ruleset().score(CaseRef::Tiles(&win)).unwrap();
            assert!(!direct.fans.is_empty());
            assert_eq!(into(&v, &win).unwrap(), direct);
        }
        // the lists filled in place hold what the MCR scorer found: sets (with a declared meld),
        // the pairs of 七对, the fans with their counts
        let v = crate::Variant::load("mcr").unwrap();
        let rules = rules_of(&v).unwrap();
        for json in [
            r#"{"hand": {"concealed": ["1m","2m","3m","4m","5m","6m","1p","1p","1p","5p"],
                "melds": [{"type": "pung", "tiles": ["7s","7s","7s"]}],
                "win_tile": "5p"}, "situation": {"win_type": "discard", "flowers": 2}}"#,
            r#"{"hand": {"concealed": ["1m","1m","3m","3m","5p","5p","7p","7p","9s","9s","E","E","C"],
                "win_tile": "C"}, "situation": {"win_type": "self_draw"}}"#,
        ] {
            let s = Situation::from_json(json).unwrap();
            let sc = score(&s, rules).unwrap();
            let out = into(&v, &s).unwrap();
            assert_eq!(out, v.ruleset().score(CaseRef::Tiles(&s)).unwrap());
            let Some(Reading::Tiles(d)) = &out.decomposition else {
                panic!("no decomposition")
            };
            let sets: Vec<_> = sc.sets.iter().map(|x| (x.kind, x.tile)).collect();
            assert_eq!(
                d.sets.iter().map(|x| (x.kind, x.tile)).collect::<Vec<_>>(),
                sets
            );
            assert_eq!(&*d.pairs, &*sc.pairs);
            let fans: Vec<_> = sc
                .fans
                .iter()
                .map(|(i, c)| (ids::FAN_IDS[i], u32::from(c)))
                .collect();
            assert!(!fans.is_empty());
            let got: Vec<_> = out.fans.iter().map(|f| (f.id(), f.count())).collect();
            assert_eq!(got, fans);
            assert_eq!(out.total, i64::from(sc.total));
        }
        // a hand that is not a win is refused by both
        let bad = Situation::from_json(
            r#"{"hand": {"concealed": ["1m","2m","3m","4m","5m","6m","7m","8m","9m","1p","1p","1p","5p"],
                "win_tile": "9s"}, "situation": {"win_type": "self_draw"}}"#,
        )
        .unwrap();
        let v = crate::Variant::load("mcr").unwrap();
        let e = v.ruleset().score(CaseRef::Tiles(&bad)).unwrap_err();
        assert_eq!(into(&v, &bad).unwrap_err().to_string(), e.to_string());
    }

    fn balance(p: &[SettlePayment], seat: u8) -> i64 {
        p.iter()
            .map(|x| {
                if x.payee == seat {
                    x.amount
                } else if x.payer == seat {
                    -x.amount
                } else {
                    0
                }
            })
            .sum()
    }

    #[test]
    fn settlement_is_zero_sum() {
        // self-drawn 98 (mcr.md §11): each pays 106, winner +318
        let p = settle(98, 8, 0, None).unwrap();
        assert_eq!(balance(&p, 0), 318);
        assert!(p.iter().all(|x| x.amount == 106));
        // 抢杠和 40: the kong declarer pays 48, the others 8; winner +64
        let p = settle(40, 8, 2, Some(1)).unwrap();
        assert_eq!(balance(&p, 2), 64);
        assert_eq!(balance(&p, 1), -48);
        assert_eq!((0..4).map(|s| balance(&p, s)).sum::<i64>(), 0);
        assert!(settle(10, 8, 1, Some(1)).is_err());
        assert!(settle(10, 8, 4, None).is_err());
    }
}
