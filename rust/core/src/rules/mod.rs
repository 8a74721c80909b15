//! The one extension point: a [`Ruleset`] per preset, and the registry that maps a preset id to
//! its data file and its ruleset.
//!
//! Each preset is a data file (`presets/<id>.toml`) plus one folder here, `rules/<id>/`, whose
//! module implements [`Ruleset`]: how to read its input ([`Ruleset::parse_case`]), score one win
//! ([`Ruleset::score`]), settle a whole hand record ([`Ruleset::settle`]) and — for the tile games
//! the table engine plays — its flow facts ([`Ruleset::flow`]) and the few hooks data cannot say.
//! [`REGISTRY`] is the only list of presets in the code: the bindings, the batch API, the
//! service, the CLI and the table find every preset through it (via [`crate::Variant`]), and
//! nothing outside a preset's own folder branches on its id. What adding a preset takes is
//! written in `presets/README.md`.

use std::any::Any;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::game::flow::{Carry, FlowFacts, HandEnd, SeatState, TableCtx, WinOption};
use crate::hand::Hand;
use crate::preset::{Options, PresetData};
use crate::scoring::ledger::Ledger;
use crate::scoring::record::{HandRecord, RecordSpec};
use crate::scoring::score::{Payment, Score};
use crate::situation::{CaseHand, FlagsInput, KongKind, Situation, WinType};
use crate::tile::{Counts, Tile};

pub mod analysis;
pub mod dingniu;
pub mod doudizhu;
pub mod erren;
pub mod gouji;
pub mod hebei;
pub mod hebei_draft4;
pub mod huanle3d;
pub mod kawuxing;
pub mod mcr;
pub mod shaanxi;
pub mod shanghai;
pub mod sichuan;
pub mod wuhan;
pub mod zipai;

/// Compiles a preset's data and resolved switches into its ruleset.
pub type Compile = fn(&'static PresetData, &Options) -> Result<Arc<dyn Ruleset>>;

/// Every built-in preset: its id, its data file (embedded at build time) and the function that
/// compiles its ruleset. Adding a preset adds one line here (and `pub mod <id>;` above).
pub const REGISTRY: &[(&str, &str, Compile)] = &[
    (
        "mcr",
        include_str!("../../../../presets/mcr.toml"),
        mcr::compile,
    ),
    (
        "sichuan",
        include_str!("../../../../presets/sichuan.toml"),
        sichuan::compile,
    ),
    (
        "zipai_guilin",
        include_str!("../../../../presets/zipai_guilin.toml"),
        zipai::compile,
    ),
    (
        "zipai_hunan",
        include_str!("../../../../presets/zipai_hunan.toml"),
        zipai::compile,
    ),
    (
        "kawuxing",
        include_str!("../../../../presets/kawuxing.toml"),
        kawuxing::compile,
    ),
    (
        "hebei",
        include_str!("../../../../presets/hebei.toml"),
        hebei::compile,
    ),
    (
        "shanghai",
        include_str!("../../../../presets/shanghai.toml"),
        shanghai::compile,
    ),
    (
        "hebei_draft4",
        include_str!("../../../../presets/hebei_draft4.toml"),
        hebei_draft4::compile,
    ),
    (
        "huanle3d",
        include_str!("../../../../presets/huanle3d.toml"),
        huanle3d::compile,
    ),
    (
        "erren",
        include_str!("../../../../presets/erren.toml"),
        erren::compile,
    ),
    (
        "shaanxi",
        include_str!("../../../../presets/shaanxi.toml"),
        shaanxi::compile,
    ),
    (
        "wuhan",
        include_str!("../../../../presets/wuhan.toml"),
        wuhan::compile,
    ),
    (
        "doudizhu_qq",
        include_str!("../../../../presets/doudizhu_qq.toml"),
        doudizhu::compile,
    ),
    (
        "doudizhu_contest",
        include_str!("../../../../presets/doudizhu_contest.toml"),
        doudizhu::compile,
    ),
    (
        "gouji",
        include_str!("../../../../presets/gouji.toml"),
        gouji::compile,
    ),
    (
        "dingniu",
        include_str!("../../../../presets/dingniu.toml"),
        dingniu::compile,
    ),
];

/// The compile function of a preset id.
pub fn compiler(id: &str) -> Option<Compile> {
    REGISTRY.iter().find(|(k, _, _)| *k == id).map(|x| x.2)
}

/// One parsed, validated input of a win.
pub enum Case {
    /// A mahjong win (every tile preset): the case schema `{"hand", "situation"}`.
    Tiles(Situation),
    /// A preset's own input type (字牌 cards, card games), made by its [`Ruleset::parse_case`] and
    /// read back by its [`Ruleset::score`] (`downcast_ref`).
    Own(Box<dyn Any + Send + Sync>),
}

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Case::Tiles(s) => f.debug_tuple("Tiles").field(s).finish(),
            Case::Own(_) => f.write_str("Own(..)"),
        }
    }
}

impl Case {
    pub fn as_ref(&self) -> CaseRef<'_> {
        match self {
            Case::Tiles(s) => CaseRef::Tiles(s),
            Case::Own(x) => CaseRef::Own(x.as_ref()),
        }
    }
}

/// A borrowed [`Case`] (a `hupai.Situation` scores without copying its situation).
#[derive(Clone, Copy)]
pub enum CaseRef<'a> {
    Tiles(&'a Situation),
    Own(&'a (dyn Any + Send + Sync)),
}

impl<'a> CaseRef<'a> {
    /// The tile situation, or an error naming the preset (whose input is something else).
    pub fn tiles(self, preset: &str) -> Result<&'a Situation> {
        match self {
            CaseRef::Tiles(s) => Ok(s),
            CaseRef::Own(_) => Err(Error::hand(format!(
                "{preset} scores a mahjong situation ({{\"hand\", \"situation\"}}), not this input"
            ))),
        }
    }
    /// The preset's own input type.
    pub fn own<T: 'static>(self, preset: &str, what: &str) -> Result<&'a T> {
        match self {
            CaseRef::Own(x) => x.downcast_ref::<T>(),
            CaseRef::Tiles(_) => None,
        }
        .ok_or_else(|| Error::hand(format!("{preset} scores {what}, not a mahjong situation")))
    }
}

/// A settled hand: the zero-sum ledger and the score of each win in record order (each score's
/// payments are the ledger payments of that win).
#[derive(Clone, Debug)]
pub struct Settled {
    pub ledger: Ledger,
    pub scores: Vec<Score>,
}

/// What each preset implements once. Only `parse_case`, `score` and `settle` are required of
/// every game; the rest has defaults for games the tile table does not play (字牌, card games).
pub trait Ruleset: Send + Sync + std::fmt::Debug {
    /// This ruleset as `Any`, for the preset's own entry points (`rules/<id>/` downcasts it).
    fn as_any(&self) -> &dyn Any;

    /// Seats at the table (the preset's `players`, or its switch).
    fn players(&self) -> u8;

    /// Read one case — the preset's input of one win — strictly: unknown keys and contradictory
    /// fields are errors naming the key. The default is the tile presets' case schema
    /// `{"hand": {...} | "notation+T", "situation": {...}}` ([`tile_case`]); a game with an input
    /// of its own ([`Self::input`]) reads it here.
    fn parse_case(&self, case: &Value) -> Result<Case> {
        tile_case(case)
    }

    /// [`Self::parse_case`] of a tile case already read from JSON text into its input types (the
    /// request parsers of JSON lines and batch items, [`Situation::from_case_text`]: no JSON tree);
    /// `None` when it is not read that way (another game's input, no hand): the caller parses the
    /// tree.
    fn parse_case_text(
        &self,
        hand: Option<CaseHand>,
        situation: Option<FlagsInput>,
    ) -> Option<Result<Case>> {
        if self.input() != TILE_INPUT {
            return None;
        }
        Situation::from_case_text(hand, situation).map(|r| r.map(Case::Tiles))
    }

    /// A tile preset's evaluate / book split ([`TileBook`]), which the default [`Self::score`],
    /// [`Self::settle`] and [`Self::settle_scored`] use: a tile preset returns `Some(self)` and
    /// writes neither; any other game overrides `score` and `settle`.
    fn tile_book(&self) -> Option<&dyn TileBook> {
        None
    }

    /// Score one win (tile presets: evaluate it and book it as the only event of a hand,
    /// [`score_tiles`]).
    fn score(&self, case: CaseRef<'_>) -> Result<Score> {
        let b = self.tile_book().ok_or_else(no_tile_book)?;
        score_tiles(b, case.tiles(b.id())?)
    }

    /// [`Self::score`] written into `out` (set only on `Ok`): a batch scores straight into the
    /// memory that keeps the result (a `Score` is a few hundred bytes, each move a copy). A preset
    /// whose scorer builds the result in place overrides it; the default moves `score`'s.
    fn score_into(&self, case: CaseRef<'_>, out: &mut std::mem::MaybeUninit<Score>) -> Result<()> {
        out.write(self.score(case)?);
        Ok(())
    }

    /// Settle a whole hand record (tile presets: [`HandRecord`]) into the shared ledger.
    fn settle(&self, record: &Value) -> Result<Settled> {
        self.settle_scored(record, &[])
    }

    /// The kind of input the preset scores (`"tiles"`, `"zipai"`, …), for user interfaces.
    fn input(&self) -> &'static str {
        TILE_INPUT
    }

    /// The physical tiles of the variant (the wall is a permutation of them); the default reads
    /// the effective `tile_set` (the switch where the preset has one, else the data).
    fn tile_set(&self, preset: &PresetData, options: &Options) -> Result<Vec<Tile>> {
        default_tile_set(preset, options, &[])
    }

    /// What the tile table engine needs (`crate::game::flow`); `None`: the table does not play it.
    fn flow(&self) -> Option<&FlowFacts> {
        None
    }

    /// Which table engine plays this preset, with the preset's part of it (its payments and the
    /// record its settlement reads: `rules/<id>/table.rs`); `None`: the table does not play it.
    fn table(&self) -> Option<TablePart> {
        None
    }

    /// [`Self::settle`] with the wins already scored, in record order (the table settles each win
    /// with the score it was taken with, so no win is scored twice); a win without a score is
    /// scored from the record.
    fn settle_scored(&self, record: &Value, scored: &[Score]) -> Result<Settled> {
        let b = self.tile_book().ok_or_else(no_tile_book)?;
        settle_tiles_scored(b, self, record, scored)
    }

    /// The win shapes of hand analysis under this preset (waits, shanten of the service and the
    /// calculator); `None` for games without mahjong tiles. Default: the table's shapes.
    fn shapes(&self) -> Option<crate::decompose::Shapes> {
        self.flow().map(|f| f.shapes)
    }

    /// The table's win query: score `q.situation` for `q.seat`, `None` when it is not a legal win.
    /// Default: the preset's score, its total as the value.
    fn table_win(&self, q: &TableWin<'_>) -> Option<WinOption> {
        let sc = self.score(CaseRef::Tiles(&q.situation)).ok()?;
        sc.meets_minimum
            .then(|| WinOption::from_score(sc.per_payer, q.situation.win_type.is_self_drawn(), sc))
    }

    /// A seat (3n+1 or 3n+2 standing tiles) may be ready for a win outside the table's shapes
    /// (the table's cheap filter before asking for waits; see [`Self::wins_outside_shapes`]).
    fn may_be_ready_outside_shapes(&self, _seat: &SeatState) -> bool {
        false
    }

    /// Hands that win outside the table's shape pre-filter (the preset's scorer still decides).
    fn wins_outside_shapes(&self, _seat: &SeatState, _full: &Counts, _win_type: WinType) -> bool {
        false
    }

    /// What one hand carries into the next (上楼 floor, pending 开宝 …), given the carry used in
    /// the hand that ended and whether the dealer stays.
    fn next_carry(&self, _end: &HandEnd, _carry: Carry, _dealer_stays: bool) -> Result<Carry> {
        Ok(Carry::default())
    }

    /// Draw-end state of each seat still in the hand: `(花猪, 大叫 amount when ready)`.
    fn draw_end_states(&self, _seats: &[SeatState]) -> Result<Vec<(bool, Option<i64>)>> {
        Err(Error::rule(
            "this preset has no draw-end checks (查花猪 / 查大叫)",
        ))
    }

    /// The value of a waiting hand over its winning tiles (查大叫), in the preset's own shape.
    fn waiting_value(
        &self,
        _hand: &Hand,
        _kong_kinds: &[Option<KongKind>],
        _flags: &Map<String, Value>,
    ) -> Result<Value> {
        Err(Error::rule(
            "this preset does not value waiting hands (大叫)",
        ))
    }

    /// The card games' analyser ([`analysis`]): what a hand can do — the type of a selection, its
    /// legal answers to a move, the best split, a play checked and whether it can be burned,
    /// the placements against the line's ends — answered by the game's own functions
    /// (`rules/<game>/analyse.rs`). Default: this preset has no analyser (a `RuleConfig` error).
    fn analyse(&self, _q: &analysis::Query) -> Result<analysis::Analysis> {
        Err(analysis::no_analyser())
    }

    /// The starting seat-ledger rules of `hupai.Settlement(variant=...)` (kong values, 血战 …).
    fn ledger_rules(&self) -> crate::scoring::ledger::SettlementRules {
        crate::scoring::ledger::SettlementRules {
            base: 1,
            ..Default::default()
        }
    }
}

fn no_tile_book() -> Error {
    Error::rule("this ruleset is not a tile preset: it implements its own score and settle")
}

/// The table engine of a preset ([`Ruleset::table`]).
pub enum TablePart {
    /// The mahjong state machine (4, 3 or 2 seats) with the preset's part.
    Mahjong(Arc<dyn crate::game::mahjong::PresetTable>),
    /// The 字牌 state machine (3 seats).
    Zipai,
    /// A card game (斗地主, 够级, 顶牛): the game's own state machine behind the card table
    /// (`game::cards`), dealt by this part (`rules/<id>/table.rs`).
    Cards(Arc<dyn crate::game::cards::CardPart>),
}

/// Settle a card game's hand record `{"seats": [names], "events": [case, ...]}`: each event is one
/// settled deal of the game in its case form (`{"hand", "situation"}`, optionally with
/// `"kind": "deal"`), scored by the game's ruleset; the ledger books each score's payments.
pub fn settle_cases<R: Ruleset + ?Sized>(r: &R, record: &Value) -> Result<Settled> {
    let Value::Object(m) = record else {
        return Err(Error::hand(
            "a hand record is an object {\"seats\": [...], \"events\": [...]}",
        ));
    };
    if let Some(k) = m.keys().find(|k| !matches!(k.as_str(), "seats" | "events")) {
        return Err(Error::hand(format!(
            "hand record: unknown key {k:?} (keys: seats, events)"
        )));
    }
    let n = usize::from(r.players());
    let seats: Vec<String> = match m.get("seats") {
        Some(Value::Array(a)) if a.len() == n => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| Error::hand(format!("seats: names (strings), got {x}")))
            })
            .collect::<Result<_>>()?,
        _ => {
            return Err(Error::hand(format!(
                "hand record needs \"seats\": a list of {n} seat names"
            )));
        }
    };
    let events = m
        .get("events")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::hand("hand record needs \"events\": a list of deals (cases)"))?;
    let mut ledger = Ledger::new(
        seats.clone(),
        crate::scoring::ledger::SettlementRules::default(),
    )?;
    let mut scores = Vec::with_capacity(events.len());
    for (i, e) in events.iter().enumerate() {
        let ctx = |e: Error| e.context(&format!("events[{i}]"));
        let mut case = e.clone();
        if let Value::Object(o) = &mut case {
            match o.remove("kind") {
                None => {}
                Some(Value::String(k)) if k == "deal" => {}
                Some(x) => {
                    return Err(ctx(Error::hand(format!(
                        "kind {x}: a card game's hand record holds deals (\"kind\": \"deal\")"
                    ))));
                }
            }
        }
        let c = r.parse_case(&case).map_err(ctx)?;
        let sc = r.score(c.as_ref()).map_err(ctx)?;
        let lines: Vec<(String, String, i64)> = sc
            .payments
            .iter()
            .map(|p| {
                (
                    seats[usize::from(p.payer)].clone(),
                    seats[usize::from(p.payee)].clone(),
                    p.amount,
                )
            })
            .collect();
        if !lines.is_empty() {
            ledger.record_payments("WIN", &format!("{} deal {i}", sc.variant), &lines, None)?;
        }
        scores.push(sc);
    }
    ledger.end_hand();
    Ok(Settled { ledger, scores })
}

/// A seat of a card game's situation (`key`, default `default`).
pub fn case_seat(o: &Map<String, Value>, key: &str, players: u8, default: u8) -> Result<u8> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|&s| s < u64::from(players))
            .map(|s| s as u8)
            .ok_or_else(|| {
                Error::hand(format!("situation.{key} = {v}: a seat 0..{}", players - 1))
            }),
    }
}

/// A non-negative integer of a card game's situation (`key`, default `default`, at most `max`).
pub fn case_int(o: &Map<String, Value>, key: &str, default: i64, max: i64) -> Result<i64> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_i64()
            .filter(|&x| (0..=max).contains(&x) && !v.is_boolean())
            .ok_or_else(|| Error::hand(format!("situation.{key} = {v}: an integer 0..{max}"))),
    }
}

/// The `{"hand", "situation"}` envelope of a card game's case: the hand string and the
/// situation's keys, refusing keys outside `allowed`.
pub fn card_case<'a>(case: &'a Value, allowed: &[&str]) -> Result<(&'a str, Map<String, Value>)> {
    let Value::Object(m) = case else {
        return Err(Error::hand(
            "a case is an object {\"hand\": ..., \"situation\": {...}}",
        ));
    };
    if let Some(k) = m
        .keys()
        .find(|k| !matches!(k.as_str(), "hand" | "situation"))
    {
        return Err(Error::hand(format!(
            "unknown key {k:?} in a case (keys: hand, situation)"
        )));
    }
    let hand = m
        .get("hand")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::hand("a case needs \"hand\" (a string)"))?;
    let sit = match m.get("situation") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(o)) => o.clone(),
        Some(x) => return Err(Error::hand(format!("situation: an object, got {x}"))),
    };
    if let Some(k) = sit.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(Error::hand(format!(
            "unknown situation key {k:?}; keys: {}",
            allowed.join(", ")
        )));
    }
    Ok((hand, sit))
}

/// Payments `(payer, payee, amount)` that move `net` (zero-sum, per seat): each loser pays the
/// winners in seat order.
pub fn payments_of_net(net: &[i64]) -> Vec<Payment> {
    let mut owe: Vec<(usize, i64)> = net
        .iter()
        .enumerate()
        .filter(|x| *x.1 < 0)
        .map(|(i, &x)| (i, -x))
        .collect();
    let mut out = Vec::new();
    for (w, &gain) in net.iter().enumerate() {
        let mut need = gain;
        for (l, debt) in owe.iter_mut() {
            if need <= 0 {
                break;
            }
            let x = need.min(*debt);
            if x > 0 {
                out.push(Payment {
                    payer: *l as u8,
                    payee: w as u8,
                    amount: x,
                });
                *debt -= x;
                need -= x;
            }
        }
    }
    out
}

/// The table's question to [`Ruleset::table_win`].
pub struct TableWin<'a> {
    pub seat: &'a SeatState,
    /// The seat's index.
    pub idx: usize,
    /// The discarder, `None` for a self-draw.
    pub discarder: Option<usize>,
    pub ctx: &'a TableCtx,
    /// The seat winning on the tile in question, with the table's flags.
    pub situation: Situation,
}

/// The physical tiles of a tile set id (common.md §1.2): `full136`, `full144` (+ the eight
/// flowers, one each), `suits3` (108), `suits3_red` (108 + four 红中); `suits2_dragons` with the
/// two suits given (卡五星).
pub fn default_tile_set(preset: &PresetData, options: &Options, suits: &[u8]) -> Result<Vec<Tile>> {
    let set = match options.get("tile_set") {
        Some(crate::preset::SwitchValue::Str(s)) => s.as_str(),
        _ => preset.tile_set.as_str(),
    };
    let kinds: Vec<u8> = match set {
        "suits2_dragons" if suits.len() == 2 => suits
            .iter()
            .flat_map(|&s| 9 * s..9 * s + 9)
            .chain(31..34)
            .collect(),
        "suits3" => (0..27).collect(),
        "suits3_red" => (0..27).chain([31]).collect(),
        "full136" | "full144" => (0..34).collect(),
        _ => {
            return Err(Error::rule(format!(
                "{}: tile set {set:?} is not a mahjong tile set",
                preset.id
            )));
        }
    };
    let mut out: Vec<Tile> = kinds
        .iter()
        .flat_map(|&k| std::iter::repeat_n(Tile::new_unchecked(k), 4))
        .collect();
    if set == "full144" {
        out.extend((34..42).map(Tile::new_unchecked));
    }
    Ok(out)
}

/// The [`Ruleset::input`] of the tile presets (the case schema of [`tile_case`]).
pub const TILE_INPUT: &str = "tiles";

/// The case schema of the tile presets: `{"hand": {...} | "notation+T", "situation": {...}}`,
/// nothing else (a situation key beside `hand` is refused with a hint).
pub fn tile_case(case: &Value) -> Result<Case> {
    Ok(Case::Tiles(Situation::from_case(case)?))
}

// ---------------------------------------------------------------------------------------------
// The tile presets' common driver: score = evaluate + the payments of a one-win hand record,
// settle = evaluate every win + book the record.

/// What a tile preset's module provides to [`score_tiles`] and [`settle_tiles`].
pub trait TileBook {
    /// The preset id (`'static`, from the preset data).
    fn id(&self) -> &'static str;
    /// Seats at the table.
    fn seats(&self) -> u8;
    /// The record keys this preset reads beyond the common ones.
    fn spec(&self) -> RecordSpec;
    /// Score one win without its payments.
    fn evaluate(&self, s: &Situation) -> Result<Score>;
    /// Book a hand record whose wins scored `scores` (record order) on a ledger: wrap each win's
    /// events in `book.begin_win(i)` / `book.end_win()`.
    fn book(&self, rec: &HandRecord, scores: &[Score], book: &mut Book) -> Result<()>;
    /// The ledger rules of a fresh hand (base 1 unless the preset pays through the ledger's own
    /// kong / win / draw-end steps).
    fn ledger_rules(&self) -> crate::scoring::ledger::SettlementRules {
        crate::scoring::ledger::SettlementRules {
            base: 1,
            ..Default::default()
        }
    }
}

/// A ledger being booked, remembering which events belong to which win.
pub struct Book {
    pub ledger: Ledger,
    current: Option<(usize, usize)>,
    spans: Vec<(usize, usize, usize)>,
}

impl Book {
    pub fn new(ledger: Ledger) -> Book {
        Book {
            ledger,
            current: None,
            spans: Vec::new(),
        }
    }
    /// The events recorded from now until [`Book::end_win`] pay win `i` (record order).
    pub fn begin_win(&mut self, i: usize) {
        self.end_win();
        self.current = Some((i, self.ledger.events().len()));
    }
    pub fn end_win(&mut self) {
        if let Some((i, start)) = self.current.take() {
            self.spans.push((i, start, self.ledger.events().len()));
        }
    }
    /// Record payment lines `(payer, payee, amount)` by seat index (zero amounts dropped).
    pub fn pay(&mut self, kind: &str, reason: &str, lines: &[(usize, usize, i64)]) -> Result<()> {
        crate::scoring::record::pay(&mut self.ledger, kind, reason, lines).map(|_| ())
    }
    /// The payments of win `i`, by seat index.
    fn payments_of(&self, i: usize) -> Vec<Payment> {
        let seats = self.ledger.seats();
        let idx = |n: &str| seats.iter().position(|s| s == n).unwrap_or(0) as u8;
        let mut out = Vec::new();
        for &(w, a, b) in &self.spans {
            if w != i {
                continue;
            }
            for e in &self.ledger.events()[a..b] {
                for p in &e.payments {
                    out.push(Payment {
                        payer: idx(&p.payer),
                        payee: idx(&p.payee),
                        amount: p.amount,
                    });
                }
            }
        }
        out
    }
}

fn run_book<R: TileBook + ?Sized>(r: &R, rec: &HandRecord, scores: &[Score]) -> Result<Book> {
    let ledger = Ledger::new(rec.seats.clone(), r.ledger_rules())?;
    let mut book = Book::new(ledger);
    r.book(rec, scores, &mut book)?;
    book.end_win();
    Ok(book)
}

/// Score one win of a tile preset: evaluate it, then book it as the only event of a hand at the
/// table its situation describes (seats `0..players`), whose payments become the score's.
pub fn score_tiles<R: TileBook + ?Sized>(r: &R, s: &Situation) -> Result<Score> {
    let mut sc = r.evaluate(s)?;
    let n = r.seats();
    let winner = s.winner_seat(n)?;
    let discarder = s.discarder_seat(n)?;
    let dealer = s.dealer_seat(n)?;
    let mut sit = s.clone();
    sit.place(winner, discarder, Some(dealer))?;
    let rec = HandRecord::one_win(n, dealer, winner, discarder, sit);
    let book = run_book(r, &rec, std::slice::from_ref(&sc))?;
    sc.payments = book.payments_of(0).into();
    sc.players = n;
    Ok(sc)
}

/// Settle a hand record of a tile preset (`book`, whose ruleset `rs` reads each win's case),
/// the first wins scored already (`scored`, in record order: the table's wins with the scores
/// they were taken with).
pub fn settle_tiles_scored<R: Ruleset + ?Sized>(
    r: &dyn TileBook,
    rs: &R,
    record: &Value,
    scored: &[Score],
) -> Result<Settled> {
    let rec = HandRecord::parse(record, rs, &r.spec())?;
    let mut scores = Vec::new();
    for (k, (i, s)) in rec.win_situations().into_iter().enumerate() {
        scores.push(match scored.get(k) {
            Some(sc) => sc.clone(),
            None => r
                .evaluate(s)
                .map_err(|e| e.context(&format!("events[{i}]")))?,
        });
    }
    let book = run_book(r, &rec, &scores)?;
    let n = rec.seats.len() as u8;
    for (i, sc) in scores.iter_mut().enumerate() {
        sc.payments = book.payments_of(i).into();
        sc.players = n;
    }
    Ok(Settled {
        ledger: book.ledger,
        scores,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::Variant;

    /// Every registered preset scores its example win through its ruleset, in the one JSON shape,
    /// with zero-sum payments, and settles it as a one-win hand record paying the same.
    #[test]
    fn every_preset_scores_and_settles_its_example() {
        for (id, _, _) in super::REGISTRY {
            let v = Variant::load(id).unwrap();
            let rs = v.ruleset();
            let ex = v
                .preset()
                .example
                .clone()
                .unwrap_or_else(|| panic!("{id}: no example"));
            let case = rs.parse_case(&ex).unwrap_or_else(|e| panic!("{id}: {e}"));
            let sc = rs
                .score(case.as_ref())
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(sc.variant, *id);
            assert!(sc.meets_minimum && sc.total > 0, "{id}: {sc:?}");
            assert!(
                !sc.fans.is_empty() || sc.unit == crate::scoring::score::Unit::Huxi,
                "{id}"
            );
            assert!(!sc.payments.is_empty(), "{id}");
            assert_eq!(sc.net().iter().sum::<i64>(), 0, "{id}");
            sc.check_payments().unwrap();
            let j = sc.to_json_value();
            let keys: Vec<&String> = j.as_object().unwrap().keys().collect();
            assert_eq!(
                keys,
                [
                    "decomposition",
                    "extras",
                    "fans",
                    "meets_minimum",
                    "net",
                    "payments",
                    "per_payer",
                    "raw_total",
                    "total",
                    "unit",
                    "variant"
                ],
                "{id}"
            );
            assert_eq!(serde_json::to_string(&sc).unwrap(), j.to_string(), "{id}");
            let n = usize::from(rs.players());
            let seats: Vec<String> = (0..n).map(|i| format!("s{i}")).collect();
            if !matches!(rs.input(), "tiles" | "zipai") {
                // A card game: no decomposition; its hand record is a list of deals.
                assert!(j["decomposition"].is_null(), "{id}");
                let rec = json!({"seats": seats, "events": [ex, ex]});
                let settled = rs.settle(&rec).unwrap_or_else(|e| panic!("{id}: {e}"));
                let bal: Vec<i64> = settled.ledger.balances().into_iter().map(|x| x.1).collect();
                let twice: Vec<i64> = sc.net().iter().map(|x| 2 * x).collect();
                assert_eq!(bal, twice, "{id}");
                assert_eq!(settled.scores.len(), 2);
                let mut bad = rec.clone();
                bad["bogus"] = Value::Bool(true);
                let e = rs.settle(&bad).unwrap_err().to_string();
                assert!(e.contains("bogus") && e.contains("seats"), "{id}: {e}");
                continue;
            }
            let d = &j["decomposition"];
            for k in ["form", "knitted", "pair", "pairs", "sets", "wildcards"] {
                assert!(d.get(k).is_some(), "{id}: decomposition.{k}");
            }
            // The same win as the only event of a hand record pays what the score says.
            let winner = sc.payments[0].payee;
            let needs_discarder = match &case {
                super::Case::Tiles(s) => !s.is_self_drawn(),
                super::Case::Own(_) => ex["situation"]["win_type"] == json!("discard"),
            };
            let mut win = json!({"kind": "win", "winner": seats[usize::from(winner)],
                "hand": ex["hand"], "situation": ex["situation"]});
            let sit = win["situation"].as_object_mut().unwrap();
            for k in ["seat", "discarder", "dealer", "players"] {
                sit.remove(k);
            }
            if needs_discarder {
                let d = ex["situation"]["discarder"]
                    .as_u64()
                    .map(|d| d as usize)
                    .unwrap_or((usize::from(winner) + n - 1) % n);
                win["discarder"] = json!(seats[d]);
            }
            let dealer = if ex["situation"]["dealer"] == json!(true) {
                usize::from(winner)
            } else {
                usize::from(winner == 0)
            };
            let rec = json!({"seats": seats, "dealer": seats[dealer], "events": [win]});
            let settled = rs.settle(&rec).unwrap_or_else(|e| panic!("{id}: {e}"));
            let bal: Vec<i64> = settled.ledger.balances().into_iter().map(|x| x.1).collect();
            assert_eq!(bal, sc.net(), "{id}");
            assert_eq!(settled.scores.len(), 1);
            assert_eq!(settled.scores[0].net(), sc.net(), "{id}");
            // A record refuses an unknown key, naming the accepted ones.
            let mut bad = rec.clone();
            bad["bogus"] = Value::Bool(true);
            let e = rs.settle(&bad).unwrap_err().to_string();
            assert!(e.contains("bogus") && e.contains("seats"), "{id}: {e}");
        }
    }

    /// Every card preset answers its analyser example with its pieces named and at least one
    /// list; the tile presets have no analyser (a `RuleConfig` error); a bad query names the key.
    #[test]
    fn every_card_preset_analyses_its_example() {
        use super::analysis::Query;
        for (id, _, _) in super::REGISTRY {
            let v = Variant::load(id).unwrap();
            let rs = v.ruleset();
            let card_game = !matches!(rs.input(), "tiles" | "zipai");
            let Some(ex) = v.preset().analyse_example.clone() else {
                assert!(!card_game, "{id}: a card preset needs [analyse_example]");
                let e = rs.analyse(&Query::default()).unwrap_err();
                assert!(matches!(e, crate::Error::RuleConfig(_)), "{id}: {e}");
                continue;
            };
            let q = Query::from_json(&ex).unwrap_or_else(|e| panic!("{id}: {e}"));
            let a = rs.analyse(&q).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(a.variant, *id);
            assert!(!a.pieces.is_empty() && !a.lists.is_empty(), "{id}");
            assert!(a.checks.iter().all(|c| c.ok), "{id}: {:?}", a.checks);
            assert!(a.lists.iter().all(|l| l.total >= l.items.len()), "{id}");
            // every listed move uses pieces the hand holds
            for l in &a.lists {
                for it in &l.items {
                    for c in &it.cards {
                        assert!(a.hand.cards.contains(c), "{id}: {} uses {c}", it.text);
                        assert!(a.pieces.iter().any(|p| &p.name == c), "{id}: {c}");
                    }
                }
            }
            let j = a.to_json_value();
            let keys: Vec<&String> = j.as_object().unwrap().keys().collect();
            assert_eq!(
                keys,
                [
                    "against",
                    "checks",
                    "decisions",
                    "hand",
                    "lists",
                    "pieces",
                    "play",
                    "variant"
                ]
            );
            // one word per decision (kind, value), none empty
            let mut seen = std::collections::HashSet::new();
            assert!(!a.decisions.is_empty(), "{id}");
            for d in &a.decisions {
                assert!(
                    !d.zh.is_empty() && seen.insert((d.kind, d.value)),
                    "{id}: {d:?}"
                );
            }
            let mut bad = ex.clone();
            bad["bogus"] = Value::Bool(true);
            let e = Query::from_json(&bad).unwrap_err().to_string();
            assert!(e.contains("bogus") && e.contains("against"), "{e}");
            let e = Query::from_json(&json!({"hand": 3}))
                .unwrap_err()
                .to_string();
            assert!(e.contains("hand"), "{e}");
        }
    }

    /// Nothing outside `rules/<id>/` names a preset: the generic modules list none.
    #[test]
    fn generic_modules_name_no_preset() {
        let generic = [
            include_str!("../game/flow.rs"),
            include_str!("../variant.rs"),
            include_str!("../scoring/score.rs"),
            include_str!("../scoring/record.rs"),
            include_str!("../scoring/ledger.rs"),
            include_str!("../situation.rs"),
        ];
        for (id, _, _) in super::REGISTRY {
            for text in generic {
                let code = text.split("#[cfg(test)]").next().unwrap_or(text);
                assert!(
                    !code.contains(&format!("\"{id}\"")),
                    "a generic module names the preset {id:?}"
                );
            }
        }
    }
}
