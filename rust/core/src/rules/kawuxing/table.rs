//! 卡五星 at the table: kongs with their 杠上杠 chain, wins with 亮倒 / 漂 / 买码, the K3 forced
//! end and the 荒庄 查叫 hands, in play order, settled at the end by the preset's ruleset
//! between the seats in the hand.

use serde_json::{Value, json};

use crate::error::Result;
use crate::game::mahjong::preset::{kong_event, settle_record};
use crate::game::mahjong::{Mahjong, PresetTable, SEAT_NAMES, WinRec};
use crate::scoring::ledger::Ledger;
use crate::situation::KongKind;
use crate::tile::Tile;

/// The 卡五星 part of the table.
#[derive(Debug)]
pub struct KawuxingTable;

impl PresetTable for KawuxingTable {
    fn win_record(&self, t: &Mahjong, w: &WinRec, rec: &mut Value) -> Result<()> {
        rec["kind"] = json!("win");
        rec["situation"]["liangdao"] = json!(t.seats[w.seat].hand_locked);
        rec["liangdao"] = json!(
            t.declared
                .iter()
                .filter(|&&k| k != w.seat)
                .map(|&k| SEAT_NAMES[k])
                .collect::<Vec<_>>()
        );
        if t.piao.iter().any(Option::is_some) {
            let mut p = serde_json::Map::new();
            for (k, a) in t.piao.iter().enumerate() {
                if let Some(a) = a {
                    p.insert(SEAT_NAMES[k].into(), json!(a));
                }
            }
            rec["piao"] = Value::Object(p);
        }
        Ok(())
    }

    fn settle(&self, t: &Mahjong, ledger: &mut Ledger) -> Result<()> {
        let mut events: Vec<(usize, Value)> = Vec::new();
        for k in &t.kongs {
            let mut e = kong_event(t, k);
            e["chain"] = json!(k.chain);
            if k.kind != KongKind::Open {
                // only a 直杠's feeder pays (a 补杠 is paid by everyone)
                if let Some(o) = e.as_object_mut() {
                    o.remove("feeder");
                }
            }
            events.push((k.seq, e));
        }
        for w in &t.wins {
            events.push((w.seq, w.record.clone()));
        }
        events.sort_by_key(|e| e.0);
        let mut events: Vec<Value> = events.into_iter().map(|e| e.1).collect();
        if let Some(p) = t.forced_end {
            let held: Vec<String> = t
                .hand_tiles(p)
                .into_iter()
                .map(|x| Tile::new_unchecked(x).to_string())
                .collect();
            let mut hands = serde_json::Map::new();
            for &k in &t.declared {
                if t.waits[k].iter().any(|w| t.seats[p].counts[w.idx()] > 0) {
                    hands.insert(SEAT_NAMES[k].into(), t.hand_json(k));
                }
            }
            events.push(json!({"kind": "forced_end", "payer": SEAT_NAMES[p], "held": held, "liangdao_hands": hands}));
        }
        // The seats in the hand (卡五星 4 seated: the resting seat is not).
        let playing: Vec<usize> = (0..t.n).filter(|&k| t.seats[k].active).collect();
        if t.wins.is_empty() && t.forced_end.is_none() {
            let mut players = serde_json::Map::new();
            for &k in &playing {
                players.insert(
                    SEAT_NAMES[k].into(),
                    json!({"hand": t.hand_json(k), "liangdao": t.seats[k].hand_locked}),
                );
            }
            events.push(json!({
                "kind": "draw",
                "players": players,
                "liangdao_order": t.declared.iter().map(|&k| SEAT_NAMES[k]).collect::<Vec<_>>(),
            }));
        }
        let rec = json!({
            "seats": playing.iter().map(|&k| SEAT_NAMES[k]).collect::<Vec<_>>(),
            "dealer": SEAT_NAMES[t.dealer],
            "events": events,
        });
        settle_record(t, &rec, ledger)
    }
}
