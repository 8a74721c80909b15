//! What a mahjong preset adds to the shared table flow where data cannot say it: its rule queries
//! when they differ from [`crate::game::flow`] (武汉), how its wins and kongs are paid, the
//! record its settlement reads. One implementation per preset lives in `rules/<id>/table.rs`;
//! the preset's `Ruleset::table` returns it.

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::game::flow::{self, Response, SeatState, TableCtx, TurnOptions};
use crate::scoring::ledger::{Ledger, SettlementRules};
use crate::scoring::score::Score;
use crate::situation::{KongKind, WinType};
use crate::tile::Tile;

use super::{KongRec, Mahjong, SEAT_NAMES, WinRec};

/// The options of the seat to move.
#[derive(Clone, Debug, Default)]
pub struct Turn {
    pub opts: TurnOptions,
    /// 武汉: the 痞子 / 癞子 the seat may set aside as a kong.
    pub pizi_kongs: Vec<Tile>,
}

/// A preset's part of the table (see the module docs). Every method has the shared default.
pub trait PresetTable: Send + Sync + std::fmt::Debug {
    /// The ledger parameters of the hand (四川: kong values, 呼叫转移 …; others: base 1).
    fn ledger_rules(&self) -> SettlementRules {
        SettlementRules {
            base: 1,
            ..SettlementRules::default()
        }
    }

    /// The options of the seat to move (`t.seats[seat]` holds the drawn tile).
    fn turn(
        &self,
        t: &Mahjong,
        seat: usize,
        drawn: Option<Tile>,
        win_type: WinType,
        ctx: &TableCtx,
        analyze: bool,
    ) -> Result<Turn> {
        Ok(Turn {
            opts: flow::turn(
                &t.variant,
                &t.seats[seat],
                seat,
                drawn,
                win_type,
                ctx,
                analyze,
            )?,
            pizi_kongs: Vec::new(),
        })
    }

    /// Every seat's responses to `tile` from `discarder` (`seats`: the table's seats with the
    /// pass locks of this claim applied).
    fn claims(
        &self,
        t: &Mahjong,
        seats: &[SeatState],
        discarder: usize,
        tile: Tile,
        source: WinType,
        ctx: &TableCtx,
    ) -> Result<Vec<Response>> {
        flow::claims(&t.variant, seats, discarder, tile, source, ctx)
    }

    /// The wildcard of a flipped indicator (武汉 癞子).
    fn wildcard(&self, _t: &Mahjong, indicator: Tile) -> Result<Tile> {
        Err(Error::rule(format!(
            "this preset flips no wildcard indicator ({indicator})"
        )))
    }

    /// A kong was made (四川: 刮风下雨 paid at once).
    fn on_kong(&self, _t: &Mahjong, _k: &KongRec, _ledger: &mut Ledger) -> Result<()> {
        Ok(())
    }

    /// A win was taken (四川: paid at once; MCR: its deltas).
    fn on_win(&self, _t: &Mahjong, _w: &WinRec, _ledger: &mut Ledger) -> Result<()> {
        Ok(())
    }

    /// Preset keys added to the record of a win, read by its settlement (taken at the win).
    fn win_record(&self, _t: &Mahjong, _w: &WinRec, _rec: &mut Value) -> Result<()> {
        Ok(())
    }

    /// The wall ran out (四川: 查花猪 / 查大叫).
    fn on_exhausted(&self, _t: &Mahjong, _ledger: &mut Ledger) -> Result<()> {
        Ok(())
    }

    /// The hand ended: settle what is not settled yet into `ledger` (the preset's settlement of
    /// the whole hand record).
    fn settle(&self, _t: &Mahjong, _ledger: &mut Ledger) -> Result<()> {
        Ok(())
    }
}

/// The shared behaviour (MCR-style presets whose wins carry their own deltas use [`Deltas`]).
#[derive(Debug)]
pub struct Shared;

impl PresetTable for Shared {}

/// Wins paid by the per-seat deltas the claim check computed (MCR).
#[derive(Debug)]
pub struct Deltas;

impl PresetTable for Deltas {
    fn on_win(&self, t: &Mahjong, w: &WinRec, ledger: &mut Ledger) -> Result<()> {
        let names = ledger.seats().to_vec();
        let d: Vec<(String, i64)> = (0..t.n)
            .map(|k| {
                (
                    names[k].clone(),
                    w.option.deltas.get(k).copied().unwrap_or(0),
                )
            })
            .collect();
        ledger.record_deltas("WIN", &format!("{} wins", names[w.seat]), &d, None)?;
        Ok(())
    }
}

/// Book the events of a preset's settlement (over `settled`'s seats, a subset of the table's
/// seat names) into the table's ledger, one zero-sum event each.
pub fn book(ledger: &mut Ledger, settled: &Ledger) -> Result<()> {
    let everyone = ledger.seats().to_vec();
    for e in settled.events() {
        let d: Vec<(String, i64)> = everyone
            .iter()
            .map(|n| (n.clone(), e.deltas.get(n).copied().unwrap_or(0)))
            .collect();
        ledger.record_deltas(&e.kind, &e.reason, &d, None)?;
    }
    Ok(())
}

/// A kong as an event of the hand record (`scoring::record`): `type`, and the `feeder` of a 直杠
/// and — where the preset charges him (fact `added_kong_feeder`) — of a 补杠.
pub fn kong_event(t: &Mahjong, k: &KongRec) -> Value {
    let ty = match k.kind {
        KongKind::Open => "open",
        KongKind::Added => "added",
        KongKind::Concealed => "concealed",
    };
    let mut v = json!({"kind": "kong", "owner": SEAT_NAMES[k.owner], "type": ty});
    let keep = match k.kind {
        KongKind::Open => true,
        KongKind::Added => t.facts.added_kong_feeder,
        KongKind::Concealed => false,
    };
    if let (true, Some(f)) = (keep, k.feeder) {
        v["feeder"] = json!(SEAT_NAMES[f]);
    }
    v
}

/// The hand record of the table (`scoring::record`, the one format every preset settles):
/// `seats`, `dealer` and the events — the kongs (`kongs`: whether kong events are written) and
/// the wins, in play order. The preset's table part adds its own keys.
pub fn hand_record(t: &Mahjong, kongs: bool) -> Value {
    let mut events: Vec<(usize, Value)> = Vec::new();
    if kongs {
        events.extend(t.kongs.iter().map(|k| (k.seq, kong_event(t, k))));
    }
    for w in &t.wins {
        let mut e = w.record.clone();
        e["kind"] = json!("win");
        events.push((w.seq, e));
    }
    events.sort_by_key(|e| e.0);
    json!({
        "seats": (0..t.n).map(|k| SEAT_NAMES[k]).collect::<Vec<_>>(),
        "dealer": SEAT_NAMES[t.dealer],
        "events": events.into_iter().map(|e| e.1).collect::<Vec<_>>(),
    })
}

/// Settle `record` with the preset's ruleset and the scores the wins were taken with (each win
/// scored once), booking its events into the table's ledger.
pub fn settle_record(t: &Mahjong, record: &Value, ledger: &mut Ledger) -> Result<()> {
    let scores: Vec<Score> = t
        .wins
        .iter()
        .map_while(|w| w.option.score.as_deref().cloned())
        .collect();
    let settled = t.variant.ruleset().settle_scored(record, &scores)?;
    book(ledger, &settled.ledger)
}
