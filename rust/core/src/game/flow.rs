//! Rule queries for table engines (game flow): given a compiled [`Variant`] and the seats' hands,
//! one call returns every legal response of every seat to a discard (or a kong being added), or
//! every legal option of the seat to move after a draw. The flow layer (Python `hupai.game`)
//! only keeps state and resolves priorities; every rule decision (whether a hand wins and for how
//! much, which claims and kongs are allowed, 定缺 and 过水不胡 restrictions) is made here.

use crate::analysis::{self, is_winning_planned};
use crate::decompose::Shapes;
use crate::error::{Error, Result};
use crate::hand::{Hand, Meld, MeldKind};
use crate::preset::{Options, PresetData, SwitchValue};
use crate::rules::{Ruleset, TableWin};
use crate::scoring::score::Score;
use crate::situation::{KongKind, Situation, WinType};
use crate::tile::{Counts, N_KINDS, Tile};
use crate::variant::Variant;

/// What the flow layer knows about one seat.
#[derive(Clone, Debug)]
pub struct SeatState {
    /// Standing tiles.
    pub counts: Counts,
    /// Declared melds and, for kongs, their kind.
    pub melds: Vec<(Meld, Option<KongKind>)>,
    /// Still in the hand (血战: a winner has left).
    pub active: bool,
    /// 定缺 suit (0 m, 1 p, 2 s).
    pub void_suit: Option<u8>,
    /// 过水不胡: this seat passed a win and may not win on a discard until its next draw.
    pub win_locked: bool,
    /// 血流成河: the seat has won and its hand is locked (it may only win again). Also a hand
    /// frozen by a declaration — 卡五星 亮倒, 二人麻将 报听 — whose wins score the declaration.
    pub hand_locked: bool,
    pub flowers: u8,
    pub seat_wind: Tile,
    pub dealer: bool,
}

/// Table facts shared by every seat for one query.
#[derive(Clone, Copy, Debug)]
pub struct TableCtx {
    pub prevalent_wind: Tile,
    /// The tile in question is the last of the wall (海底).
    pub wall_last: bool,
    /// No tile left to draw (no kong, no claim but a win).
    pub wall_empty: bool,
    /// The kong just made, for 杠上开花 / 杠上炮.
    pub last_kong: Option<KongKind>,
    /// Tiles left in the wall (for 最后四张 forced wins).
    pub wall_remaining: u32,
    /// The mover's first draw with no claim made yet in the hand (天胡 / 地胡).
    pub first_turn: bool,
    /// 二人麻将: a draw of the 海底捞月 phase after the 71 tiles are used.
    pub after_exhaustion: bool,
    /// 卡五星 (switch `liangdao_discard_restriction`): bit `k` set = tile kind `k` is a winning
    /// tile of a 亮倒 player; a seat that has not declared may not discard it.
    pub forbidden_discards: u64,
    /// 二人麻将 天听: bit `k` set = seat `k` declared 报听 on its first turn.
    pub ready_first_turn: u8,
    /// 上海: pending 开宝 / 黄番 carried into this hand (they multiply the win).
    pub pending_kai_bao: u32,
    pub pending_huang_fan: u32,
}

/// A legal win and what it is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct WinOption {
    /// 四川: points each payer pays; MCR: the fan total (flowers included).
    pub value: i64,
    /// Paid by every other player still in the hand (self-draw) rather than one discarder.
    pub self_draw_payment: bool,
    /// Counted fans `(id, count)`.
    pub fans: Vec<(String, u32)>,
    /// Per-seat amounts when the preset settles a win by itself (MCR; empty for 四川, whose
    /// payments the settlement ledger derives from `value`).
    pub deltas: Vec<i64>,
    /// The preset's full score of the win, which its settlement reads (each win is scored once:
    /// the table settles the win it took with this score). `None` where `value`/`deltas` say all.
    pub score: Option<Box<Score>>,
}

impl WinOption {
    /// A win of a preset whose settlement pays it at the end of the hand: `value` and the counted
    /// fans of its score, no deltas; the score is kept for the settlement.
    pub fn from_score(value: i64, self_draw_payment: bool, sc: Score) -> Self {
        WinOption {
            value,
            self_draw_payment,
            fans: sc
                .fans
                .iter()
                .map(|f| (f.id().to_string(), f.count()))
                .collect(),
            deltas: Vec::new(),
            score: Some(Box::new(sc)),
        }
    }
}

/// The legal responses of one seat to a discard (or an added kong).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Response {
    pub win: Option<WinOption>,
    /// The win may not be declined (四川 最后四张, switch `forced_win_last_n`).
    pub forced_win: bool,
    pub kong: bool,
    pub pung: bool,
    /// Lowest tile of each possible chow.
    pub chows: Vec<Tile>,
}

impl Response {
    pub fn is_empty(&self) -> bool {
        self.win.is_none() && !self.kong && !self.pung && self.chows.is_empty()
    }
}

/// The options of the seat to move, holding `3n+2` tiles.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnOptions {
    pub win: Option<WinOption>,
    /// The win may not be declined (四川 最后四张).
    pub forced_win: bool,
    pub concealed_kongs: Vec<Tile>,
    pub added_kongs: Vec<Tile>,
    /// Legal discards.
    pub discards: Vec<Tile>,
    /// With `analyze`: `(discard, shanten after it, useful tiles left unseen by the seat)`.
    pub analysis: Vec<(Tile, i8, u32)>,
}

/// How the next hand's dealer is chosen (common.md §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// A seeded random seat each hand (四川 血战: 每局投骰).
    RandomEachHand,
    /// The winner deals; several winners on one discard: the discarder deals, or the winner
    /// nearest to him (`nearest_winner`, 上海 switch `multi_winner_dealer`).
    WinnerDeals { nearest_winner: bool },
    /// The dealer stays after his win or a draw, else the deal passes to the next seat (or the
    /// previous one, `to_previous`: 武汉 switch `dealer_next`).
    StayOnDealerWinOrDraw { to_previous: bool },
}

/// The flow facts of a preset: what the table engine asks beyond the scorer, as data. Built by
/// [`FlowFacts::from_data`] from the preset file (`[rules]`, `[rules.flow]`, `[params]` flags)
/// and adjusted by the preset's module for what its switches decide.
#[derive(Clone, Debug)]
pub struct FlowFacts {
    /// The generic queries of this module play the preset (false: it has its own, e.g. 武汉's
    /// `rules::wuhan::flow`).
    pub generic: bool,
    /// 吃 from the previous seat.
    pub chi: bool,
    /// The table's shape pre-filter of a win (the preset's scorer still decides).
    pub shapes: Shapes,
    pub kong_open: bool,
    pub kong_added: bool,
    pub kong_concealed: bool,
    /// 报听 (河北): a declared hand (`SeatState::hand_locked`) may still make kongs that keep it
    /// ready, no 碰.
    pub ting: bool,
    /// Only a seat that declared 听 may win (河北 `bao_ting = required`).
    pub ting_required: bool,
    /// An added kong may be robbed.
    pub rob_kong: bool,
    /// 定缺: tiles of the void suit must be discarded first.
    pub void_discard_first: bool,
    /// 卡五星 K3: a seat that has not declared may not discard a 亮倒 player's winning tile.
    pub liangdao_discard_restriction: bool,
    /// 最后四张: a ready player must win once fewer than this many tiles are left (0: off).
    pub forced_win_last_n: i64,
    /// A concealed triplet may 直杠 the fourth copy but not 碰 it (`[params]`
    /// `no_pung_when_holding_concealed_triplet`).
    pub no_pung_on_concealed_triplet: bool,
    /// An added kong only of the tile just drawn (`[params]` `added_kong_only_on_draw_turn`).
    pub added_kong_only_on_draw: bool,
    /// A locked (亮倒) hand may kong when its waits stay the same (`[params]`
    /// `liangdao_may_kong_if_waits_unchanged`).
    pub liangdao_may_kong: bool,
    /// 跟庄 is played (河北第4稿 switch).
    pub gen_zhuang: bool,
    pub rotation: Rotation,
    pub pass_lock: PassLock,
    /// 开宝: equal dice add one pending 开宝 (`[params] kai_bao`).
    pub kai_bao_on_equal_dice: bool,
    /// Switch values the table does not play yet (`[rules.flow.scoring_only]`: switch → refused
    /// values; an empty list refuses any value but the default).
    pub scoring_only: Vec<(String, Vec<String>)>,
}

/// A boolean `[params]` entry of the preset.
fn param_flag(p: &PresetData, key: &str) -> bool {
    p.params
        .get(key)
        .and_then(toml::Value::as_bool)
        .unwrap_or(false)
}

impl FlowFacts {
    /// The facts the preset file says: `[rules]` (吃, kong kinds, 抢杠, shapes, dealer rotation),
    /// `[params]` flags, the pass lock (switch `pass_win_lock`, else `params.pass_win_lock_default`
    /// or `[rules.flow] pass_win_lock`), the rotation (switch `dealer_rotation`, else the data) and
    /// `[rules.flow.scoring_only]`.
    pub fn from_data(p: &PresetData, o: &Options) -> FlowFacts {
        let r = &p.rules;
        let has = |k: &str| r.kong_kinds.iter().any(|x| x == k);
        let shape = |k: &str| r.shapes.iter().any(|x| x == k);
        let rotation = match o.get("dealer_rotation") {
            Some(SwitchValue::Str(s)) => s.as_str(),
            _ => r.dealer_rotation.as_str(),
        };
        let lock = match o.get("pass_win_lock") {
            Some(SwitchValue::Str(s)) => Some(s.as_str()),
            _ => p
                .params
                .get("pass_win_lock_default")
                .or_else(|| r.flow.get("pass_win_lock"))
                .and_then(toml::Value::as_str),
        };
        let scoring_only = r
            .flow
            .get("scoring_only")
            .and_then(toml::Value::as_table)
            .map(|t| {
                t.iter()
                    .map(|(k, v)| {
                        let vals = v
                            .as_array()
                            .map(|a| {
                                a.iter()
                                    .map(|x| {
                                        x.as_str()
                                            .map(String::from)
                                            .or_else(|| x.as_bool().map(|b| b.to_string()))
                                            .or_else(|| x.as_integer().map(|i| i.to_string()))
                                            .unwrap_or_default()
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        (k.clone(), vals)
                    })
                    .collect()
            })
            .unwrap_or_default();
        FlowFacts {
            generic: true,
            chi: r.chi_allowed,
            shapes: Shapes {
                standard: shape("standard"),
                seven_pairs: shape("seven_pairs"),
                seven_pairs_quads: shape("seven_pairs") && r.qidui_quad_as_two_pairs,
                thirteen_orphans: shape("thirteen_orphans"),
                honors_knitted: shape("honors_knitted"),
                knitted_straight: shape("knitted_straight"),
            },
            kong_open: has("open"),
            kong_added: has("added"),
            kong_concealed: has("concealed"),
            ting: false,
            ting_required: false,
            rob_kong: r.rob_kong != "none",
            void_discard_first: false,
            liangdao_discard_restriction: false,
            forced_win_last_n: 0,
            no_pung_on_concealed_triplet: param_flag(p, "no_pung_when_holding_concealed_triplet"),
            added_kong_only_on_draw: param_flag(p, "added_kong_only_on_draw_turn"),
            liangdao_may_kong: param_flag(p, "liangdao_may_kong_if_waits_unchanged"),
            gen_zhuang: false,
            rotation: match rotation {
                "random_each_hand" => Rotation::RandomEachHand,
                "winner_deals" => Rotation::WinnerDeals {
                    nearest_winner: false,
                },
                _ => Rotation::StayOnDealerWinOrDraw { to_previous: false },
            },
            pass_lock: match lock {
                Some("same_tile_until_action") => PassLock::SameTile,
                Some("lower_value_until_own_draw") => PassLock::LowerValue,
                Some(
                    "all_discards_until_own_draw"
                    | "go_around"
                    | "all_waits_until_draw"
                    | "until_own_draw"
                    | "until_go_around",
                ) => PassLock::UntilOwnDraw,
                _ => PassLock::None,
            },
            kai_bao_on_equal_dice: p.params.get("kai_bao").and_then(toml::Value::as_str)
                == Some("dice_equal_adds_one_pending"),
            scoring_only,
        }
    }
}

struct Flow<'a> {
    rs: &'a dyn Ruleset,
    f: &'a FlowFacts,
}

/// The flow facts of a variant the table plays, or a RuleConfig error.
fn facts_of(variant: &Variant) -> Result<&FlowFacts> {
    variant.ruleset().flow().ok_or_else(|| {
        Error::rule(format!(
            "the table does not play {} (its ruleset has no flow rules)",
            variant.id()
        ))
    })
}

/// Whether the table plays this variant: a preset with flow facts and no switch value of its
/// `[rules.flow.scoring_only]`; else a RuleConfig error naming the switch. The table checks it
/// once when it is set up.
pub fn check_playable(variant: &Variant) -> Result<()> {
    let f = facts_of(variant)?;
    for (switch, refused) in &f.scoring_only {
        let Some(v) = variant.options().get(switch) else {
            continue;
        };
        let shown = match v {
            SwitchValue::Str(s) => s.clone(),
            other => other.to_string(),
        };
        let default = variant
            .preset()
            .switches
            .iter()
            .find(|d| &d.name == switch)
            .map(|d| &d.default);
        let changed = default.is_some_and(|d| d != v);
        if refused.contains(&shown) || (refused.is_empty() && changed) {
            return Err(Error::rule(format!(
                "{}: the table does not play {switch}={shown} yet (scoring only: \
                 hupai.score accepts it)",
                variant.id()
            )));
        }
    }
    Ok(())
}

fn flow_of(variant: &Variant) -> Result<Flow<'_>> {
    let f = facts_of(variant)?;
    if !f.generic {
        return Err(Error::rule(format!(
            "{} has its own flow queries (rules/{}/flow.rs), not the generic ones",
            variant.id(),
            variant.id()
        )));
    }
    Ok(Flow {
        rs: variant.ruleset(),
        f,
    })
}

/// A cheap necessary condition for [`waits`] (3n+1 tiles) or [`ready_discards`] (3n+2) being
/// non-empty: shanten over the table's shapes at most 0, or a hand the preset's scorer may accept
/// outside them ([`Ruleset::may_be_ready_outside_shapes`]). The table skips the full query when
/// false.
pub fn may_be_ready(variant: &Variant, seat: &SeatState) -> Result<bool> {
    let fl = flow_of(variant)?;
    Ok(
        analysis::shanten_planned(&seat.counts, 0, sets_needed(seat), fl.f.shapes) <= 0
            || fl.rs.may_be_ready_outside_shapes(seat),
    )
}

/// The win shapes the table checks before asking the preset's scorer (bots plan with them).
pub fn table_shapes(variant: &Variant) -> Result<Shapes> {
    Ok(facts_of(variant)?.shapes)
}

/// Bit `k` set = kind `k` is held (branch-free over the 34 counts).
fn held_mask(c: &Counts) -> u64 {
    c.iter()
        .enumerate()
        .fold(0u64, |m, (k, &n)| m | (u64::from(n > 0) << k))
}

/// `counts` (3n+1 standing tiles, `sets` sets still to make) waits on some tile.
fn ready(counts: &Counts, sets: u8, shapes: Shapes) -> bool {
    (0..N_KINDS).any(|k| {
        if counts[k] >= 4 {
            return false;
        }
        let mut c = *counts;
        c[k] += 1;
        is_winning_planned(&c, 0, sets, shapes)
    })
}

/// 最后四张: a ready player must win once fewer than `forced_win_last_n` tiles are left.
fn forced(f: &FlowFacts, ctx: &TableCtx) -> bool {
    f.forced_win_last_n > 0 && i64::from(ctx.wall_remaining) < f.forced_win_last_n
}

pub(crate) fn sets_needed(seat: &SeatState) -> u8 {
    4u8.saturating_sub(seat.melds.len() as u8)
}

/// The seat to move (`idx`) holds `3n+2` standing tiles.
pub(crate) fn check_to_move(seat: &SeatState, idx: usize) -> Result<()> {
    let total: u32 = seat.counts.iter().map(|&c| u32::from(c)).sum();
    if total % 3 != 2 {
        return Err(Error::hand(format!(
            "seat {idx}: the seat to move holds 3n+2 tiles, not {total}"
        )));
    }
    Ok(())
}

/// A claims query answers a discard (or an added kong) by one of the `n` seats.
pub(crate) fn check_claim(n: usize, discarder: usize, source: WinType) -> Result<()> {
    if discarder >= n {
        return Err(Error::hand(format!(
            "discarder {discarder} is not a seat (0..{n})"
        )));
    }
    if source.is_self_drawn() {
        return Err(Error::hand(
            "claims answer a discard or an added kong, not a self-draw",
        ));
    }
    Ok(())
}

pub(crate) fn check_seat(seat: &SeatState, i: usize, extra: u8) -> Result<()> {
    let n: u32 = seat.counts.iter().map(|&c| u32::from(c)).sum::<u32>() + u32::from(extra);
    let need = 3 * u32::from(sets_needed(seat)) + 2;
    if n != need && n + 1 != need {
        return Err(Error::hand(format!(
            "seat {i}: {n} standing tiles with {} melds (expected {} or {})",
            seat.melds.len(),
            need - 1,
            need
        )));
    }
    if let Some(k) = seat.counts.iter().position(|&c| c > 4) {
        return Err(Error::hand(format!(
            "seat {i}: {} copies of {}",
            seat.counts[k],
            Tile::new_unchecked(k as u8)
        )));
    }
    if seat.melds.len() > 4 {
        return Err(Error::hand(format!("seat {i}: more than four melds")));
    }
    Ok(())
}

fn void_blocks(seat: &SeatState, t: Tile) -> bool {
    matches!((seat.void_suit, t.suit_index()), (Some(v), Some(s)) if v == s)
}

/// The standing tiles and melds of `seat` as a [`Hand`].
pub(crate) fn seat_hand(seat: &SeatState) -> Result<Hand> {
    let mut standing = Vec::with_capacity(14);
    for (k, &c) in seat.counts.iter().enumerate() {
        for _ in 0..c {
            standing.push(Tile::new_unchecked(k as u8));
        }
    }
    Hand::new(standing, seat.melds.iter().map(|m| m.0).collect())
}

/// The [`Situation`] of `seat` winning on `tile` (not in `seat.counts`) with the table facts of
/// `ctx`; `None` when the seat's tiles do not make a hand.
pub(crate) fn seat_situation(
    seat: &SeatState,
    tile: Tile,
    win_type: WinType,
    ctx: &TableCtx,
) -> Option<Situation> {
    Some(Situation {
        hand: seat_hand(seat).ok()?,
        kong_kinds: seat.melds.iter().map(|m| m.1).collect(),
        win_tile: tile,
        win_type,
        fourth_tile: false,
        wall_last: ctx.wall_last,
        seat_wind: seat.seat_wind,
        prevalent_wind: ctx.prevalent_wind,
        flowers: seat.flowers,
        flower_tiles: Vec::new(),
        dealer: seat.dealer,
        blessing: None,
        void_suit: seat.void_suit,
        last_kong: ctx.last_kong,
        extra: Default::default(),
        table: Default::default(),
    })
}

impl Flow<'_> {
    /// The cheap shape filter of [`Flow::win`]: `full` (the seat's tiles with the winning one)
    /// makes a hand of the table's shapes, or one the preset's scorer may accept outside them.
    fn shape_ok(&self, seat: &SeatState, full: &Counts, win_type: WinType) -> bool {
        is_winning_planned(full, 0, sets_needed(seat), self.f.shapes)
            || self.rs.wins_outside_shapes(seat, full, win_type)
    }

    /// Score `seat` winning on `tile` (not in `seat.counts`), or `None` when it is not a legal win.
    fn win(
        &self,
        seat: &SeatState,
        idx: usize,
        tile: Tile,
        win_type: WinType,
        discarder: Option<usize>,
        ctx: &TableCtx,
    ) -> Option<WinOption> {
        let mut full = seat.counts;
        full[tile.idx()] += 1;
        if !self.shape_ok(seat, &full, win_type) {
            return None;
        }
        if self.f.ting_required && !seat.hand_locked {
            return None;
        }
        let situation = seat_situation(seat, tile, win_type, ctx)?;
        self.rs.table_win(&TableWin {
            seat,
            idx,
            discarder,
            ctx,
            situation,
        })
    }

    /// The tiles on which `seat` (13 tiles, kongs as 3) wins as a discard win (its waits as the
    /// preset's scorer accepts them).
    fn waits(&self, seat: &SeatState, idx: usize, ctx: &TableCtx) -> Vec<Tile> {
        let c = TableCtx {
            wall_last: false,
            last_kong: None,
            first_turn: false,
            after_exhaustion: false,
            ..*ctx
        };
        (0..N_KINDS)
            .map(|k| Tile::new_unchecked(k as u8))
            .filter(|&t| {
                let held: u8 = seat.counts[t.idx()]
                    + seat
                        .melds
                        .iter()
                        .filter(|(m, _)| m.tile == t && m.kind != MeldKind::Chow)
                        .map(|(m, _)| if m.kind == MeldKind::Kong { 4 } else { 3 })
                        .sum::<u8>();
                held < 4 && self.win(seat, idx, t, WinType::Discard, None, &c).is_some()
            })
            .collect()
    }
}

/// The waits of `seat` (13 tiles, kongs as 3): the tiles the preset's scorer accepts as a discard
/// win (with the seat's declaration, `hand_locked`, counted).
pub fn waits(variant: &Variant, seat: &SeatState, idx: usize, ctx: &TableCtx) -> Result<Vec<Tile>> {
    let fl = flow_of(variant)?;
    check_seat(seat, idx, 0)?;
    let total: u32 = seat.counts.iter().map(|&c| u32::from(c)).sum();
    if total % 3 != 1 {
        return Err(Error::hand(format!(
            "seat {idx}: waits need a hand of 3n+1 standing tiles, not {total}"
        )));
    }
    Ok(fl.waits(seat, idx, ctx))
}

/// 亮倒 / 报听: the discards of the seat to move (3n+2 tiles) after which its hand is ready, each
/// with the waits it would then declare (scored as a declared hand).
pub fn ready_discards(
    variant: &Variant,
    seat: &SeatState,
    idx: usize,
    ctx: &TableCtx,
) -> Result<Vec<(Tile, Vec<Tile>)>> {
    let fl = flow_of(variant)?;
    check_seat(seat, idx, 0)?;
    check_to_move(seat, idx)?;
    let mut out = Vec::new();
    for k in 0..N_KINDS {
        if seat.counts[k] == 0 {
            continue;
        }
        let mut s = seat.clone();
        s.counts[k] -= 1;
        s.hand_locked = true;
        let w = fl.waits(&s, idx, ctx);
        if !w.is_empty() {
            out.push((Tile::new_unchecked(k as u8), w));
        }
    }
    Ok(out)
}

/// Every seat's legal responses to `tile`, discarded (or, with `WinType::RobKong`, added to a
/// pung) by `discarder`. `source` is `Discard`, `AfterKongDiscard` or `RobKong`.
pub fn claims(
    variant: &Variant,
    seats: &[SeatState],
    discarder: usize,
    tile: Tile,
    source: WinType,
    ctx: &TableCtx,
) -> Result<Vec<Response>> {
    let fl = flow_of(variant)?;
    let f = fl.f;
    check_claim(seats.len(), discarder, source)?;
    if tile.idx() >= N_KINDS || tile.is_flower() {
        return Err(Error::hand(format!("{tile} cannot be discarded")));
    }
    let n = seats.len();
    let no_pung_on_triplet = f.no_pung_on_concealed_triplet;
    let mut out = Vec::with_capacity(n);
    for (i, seat) in seats.iter().enumerate() {
        let mut r = Response::default();
        if !seat.active && seat.melds.is_empty() && seat.counts.iter().all(|&c| c == 0) {
            out.push(r); // a seat resting this hand (卡五星 4 seated)
            continue;
        }
        check_seat(seat, i, 0)?;
        if i == discarder || !seat.active {
            out.push(r);
            continue;
        }
        if !seat.win_locked && (source != WinType::RobKong || f.rob_kong) {
            r.win = fl.win(seat, i, tile, source, Some(discarder), ctx);
            r.forced_win = r.win.is_some() && forced(f, ctx);
        }
        let can_claim = source != WinType::RobKong
            && !ctx.wall_empty
            && !seat.hand_locked
            && !void_blocks(seat, tile);
        if f.ting
            && seat.hand_locked
            && source != WinType::RobKong
            && !ctx.wall_empty
            && f.kong_open
            && seat.counts[tile.idx()] == 3
        {
            // 报听: a kong only when the hand is still ready after it.
            let mut c = seat.counts;
            c[tile.idx()] = 0;
            r.kong = ready(&c, sets_needed(seat).saturating_sub(1), f.shapes);
        }
        if can_claim {
            let c = seat.counts[tile.idx()];
            // 卡五星 "不能碰后再杠": a concealed triplet may 直杠 the 4th copy, not 碰 it.
            r.pung = c == 2 || (c >= 2 && !no_pung_on_triplet);
            r.kong = c >= 3 && f.kong_open;
            if f.chi && i == (discarder + 1) % n {
                if let (Some(s), Some(rank)) = (tile.suit_index(), tile.rank()) {
                    for lo in rank.saturating_sub(2).max(1)..=rank.min(7) {
                        let ok = (lo..lo + 3)
                            .all(|rk| rk == rank || seat.counts[usize::from(s * 9 + rk - 1)] > 0);
                        if ok {
                            r.chows.push(Tile::new_unchecked(s * 9 + lo - 1));
                        }
                    }
                }
            }
        }
        out.push(r);
    }
    Ok(out)
}

/// The options of `seat` (index `idx`), which holds `3n+2` tiles; `drawn` is the tile just drawn
/// (`None` after a claim: no win then), `win_type` `SelfDraw` or `KongReplacement`.
pub fn turn(
    variant: &Variant,
    seat: &SeatState,
    idx: usize,
    drawn: Option<Tile>,
    win_type: WinType,
    ctx: &TableCtx,
    analyze: bool,
) -> Result<TurnOptions> {
    let fl = flow_of(variant)?;
    let f = fl.f;
    check_seat(seat, idx, 0)?;
    check_to_move(seat, idx)?;
    let mut o = TurnOptions::default();
    if let Some(t) = drawn {
        if seat.counts[t.idx()] == 0 {
            return Err(Error::hand(format!(
                "seat {idx}: drawn tile {t} is not in the hand"
            )));
        }
        // The seat's counts hold the drawn tile: the shape filter first, the copy only for a hand.
        if fl.shape_ok(seat, &seat.counts, win_type) {
            let mut before = seat.clone();
            before.counts[t.idx()] -= 1;
            o.win = fl.win(&before, idx, t, win_type, None, ctx);
            o.forced_win = o.win.is_some() && forced(f, ctx);
        }
    }
    if seat.hand_locked {
        // 血流成河 after a win, 亮倒, 报听: the hand is fixed, the drawn tile goes out again.
        o.discards = drawn.into_iter().collect();
        if f.ting && !ctx.wall_empty && seat.melds.len() < 4 {
            // 报听: kongs are allowed when the hand is still ready after them.
            let sets = sets_needed(seat);
            for k in 0..N_KINDS {
                let t = Tile::new_unchecked(k as u8);
                let mut c = seat.counts;
                if f.kong_concealed && c[k] == 4 {
                    c[k] = 0;
                    if ready(&c, sets.saturating_sub(1), f.shapes) {
                        o.concealed_kongs.push(t);
                    }
                } else if f.kong_added
                    && c[k] >= 1
                    && seat
                        .melds
                        .iter()
                        .any(|(m, _)| m.kind == MeldKind::Pung && m.tile == t)
                {
                    c[k] -= 1;
                    if ready(&c, sets, f.shapes) {
                        o.added_kongs.push(t);
                    }
                }
            }
        }
        // 卡五星 亮倒: a kong is allowed when the hand stays ready with the same waits.
        if let Some(t) = drawn {
            if !ctx.wall_empty && seat.melds.len() < 4 && f.liangdao_may_kong {
                let mut before = seat.clone();
                before.counts[t.idx()] -= 1;
                let w0 = fl.waits(&before, idx, ctx);
                for k in 0..N_KINDS {
                    let kt = Tile::new_unchecked(k as u8);
                    let pung = seat
                        .melds
                        .iter()
                        .position(|(m, _)| m.kind == MeldKind::Pung && m.tile == kt);
                    let mut after = seat.clone();
                    if f.kong_concealed && seat.counts[k] == 4 {
                        after.counts[k] = 0;
                        after.melds.push((
                            Meld::new(MeldKind::Kong, kt, true, 0)?,
                            Some(KongKind::Concealed),
                        ));
                        if fl.waits(&after, idx, ctx) == w0 {
                            o.concealed_kongs.push(kt);
                        }
                    } else if let (true, Some(i), true) = (f.kong_added, pung, kt == t) {
                        after.counts[k] -= 1;
                        let from = after.melds[i].0.from;
                        after.melds[i] = (
                            Meld::new(MeldKind::Kong, kt, false, from)?,
                            Some(KongKind::Added),
                        );
                        if fl.waits(&after, idx, ctx) == w0 {
                            o.added_kongs.push(kt);
                        }
                    }
                }
            }
        }
        return Ok(o);
    }
    let added_on_draw_only = !seat.melds.is_empty() && f.added_kong_only_on_draw;
    let held = held_mask(&seat.counts);
    if !ctx.wall_empty && seat.melds.len() < 4 {
        // both kongs need the tile in hand
        let mut m = held;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            let t = Tile::new_unchecked(k as u8);
            if void_blocks(seat, t) {
                continue;
            }
            if f.kong_concealed && seat.counts[k] == 4 {
                o.concealed_kongs.push(t);
            }
            if f.kong_added
                && seat.counts[k] >= 1
                && (!added_on_draw_only || drawn == Some(t))
                && seat
                    .melds
                    .iter()
                    .any(|(m, _)| m.kind == MeldKind::Pung && m.tile == t)
            {
                o.added_kongs.push(t);
            }
        }
    }
    let holds_void: Vec<Tile> = (0..N_KINDS)
        .filter(|&k| seat.void_suit.is_some() && seat.counts[k] > 0)
        .map(|k| Tile::new_unchecked(k as u8))
        .filter(|&t| void_blocks(seat, t))
        .collect();
    o.discards = if f.void_discard_first && !holds_void.is_empty() {
        holds_void
    } else {
        let mut d = Vec::with_capacity(14);
        let mut m = held;
        while m != 0 {
            d.push(Tile::new_unchecked(m.trailing_zeros() as u8));
            m &= m - 1;
        }
        d
    };
    // 卡五星 K3: a seat that has not declared 亮倒 may not discard a 亮倒 player's winning tile
    // (no legal discard left = the forced end, decided by the table).
    if f.liangdao_discard_restriction && ctx.forbidden_discards != 0 {
        o.discards
            .retain(|t| ctx.forbidden_discards & (1u64 << t.idx()) == 0);
    }
    if analyze {
        let ds = analysis::discard_options(
            &seat.counts,
            0,
            seat.melds.len(),
            f.shapes,
            Some(&seen_by(seat)),
        )?;
        o.analysis = ds.iter().map(|d| (d.tile, d.shanten, d.total)).collect();
    }
    Ok(o)
}

/// What one hand carries into the next: the 上楼 floor (河北第4稿) and the pending 开宝 / 黄番
/// counters (上海).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Carry {
    pub floor: u32,
    pub kai_bao: u32,
    pub huang_fan: u32,
}

/// How a hand ended, for [`next_hand`].
#[derive(Clone, Debug)]
pub struct HandEnd {
    pub players: usize,
    pub dealer: usize,
    /// Winners in the order the table resolved them (for one discard: nearest to the discarder
    /// first); empty = 荒庄 / 和局 (also an aborted hand).
    pub winners: Vec<usize>,
    /// The discarder (放炮者) when the winners won on one discard.
    pub discarder: Option<usize>,
    /// A seeded random number (dealer of a `random_each_hand` preset: `random % players`).
    pub random: u64,
}

/// The next hand's dealer and carry: the preset's rotation ([`FlowFacts::rotation`]) and its
/// carry-over rules ([`Ruleset::next_carry`]: 第4稿 上楼 floor, 上海 pending 开宝/黄番). `carry`
/// holds the values used in the hand that ended (上海: this hand's 开宝 roll included).
pub fn next_hand(variant: &Variant, end: &HandEnd, carry: Carry) -> Result<(usize, Carry)> {
    let n = end.players;
    if !(2..=4).contains(&n) {
        return Err(Error::rule(format!("players must be 2..4, got {n}")));
    }
    let seat_ok = |s: usize, what: &str| {
        if s < n {
            Ok(s)
        } else {
            Err(Error::hand(format!("{what} {s} is not a seat (0..{n})")))
        }
    };
    let dealer = seat_ok(end.dealer, "dealer")?;
    for (i, &w) in end.winners.iter().enumerate() {
        seat_ok(w, "winner")?;
        if end.winners[..i].contains(&w) {
            return Err(Error::hand(format!("winner {w} listed twice")));
        }
    }
    if let Some(d) = end.discarder {
        seat_ok(d, "discarder")?;
        if end.winners.contains(&d) {
            return Err(Error::hand("the discarder cannot be a winner"));
        }
    }
    let facts = facts_or_data(variant);
    let dealer_stays = end.winners.is_empty() || end.winners.contains(&dealer);
    let next = match facts.rotation {
        Rotation::RandomEachHand => (end.random % n as u64) as usize,
        Rotation::WinnerDeals { nearest_winner } => match end.winners.as_slice() {
            [] => dealer,
            [w] => *w,
            [first, ..] if nearest_winner => *first,
            [first, ..] => end.discarder.unwrap_or(*first),
        },
        Rotation::StayOnDealerWinOrDraw { .. } if dealer_stays => dealer,
        Rotation::StayOnDealerWinOrDraw { to_previous: true } => (dealer + n - 1) % n,
        Rotation::StayOnDealerWinOrDraw { to_previous: false } => (dealer + 1) % n,
    };
    let out = variant.ruleset().next_carry(end, carry, dealer_stays)?;
    Ok((next, out))
}

/// The variant's flow facts, or (for a preset the table does not play) those of its data.
fn facts_or_data(variant: &Variant) -> std::borrow::Cow<'_, FlowFacts> {
    match variant.ruleset().flow() {
        Some(f) => std::borrow::Cow::Borrowed(f),
        None => std::borrow::Cow::Owned(FlowFacts::from_data(variant.preset(), variant.options())),
    }
}

/// The 漏胡 / 过水 lock of a preset whose rules say so (the switch `pass_win_lock`, else the
/// preset's `params.pass_win_lock_default` or `[rules.flow] pass_win_lock`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassLock {
    /// No lock.
    None,
    /// A seat that declines a discard win may not win on any discard until its next draw.
    UntilOwnDraw,
    /// Only the declined tile is locked, until the seat's next action (碰/杠/吃 or draw).
    SameTile,
    /// 顺和: until its next draw the seat may win on a discard only for more than the win it
    /// declined.
    LowerValue,
}

pub fn pass_lock(variant: &Variant) -> PassLock {
    facts_or_data(variant).pass_lock
}

/// 跟庄 (河北第4稿, switch `gen_zhuang`): the first four discards of the hand — the dealer's, then
/// each non-dealer's in turn order, with no claim or kong between them (the table stops
/// recording at one) — are the same tile.
pub fn gen_zhuang(variant: &Variant, dealer: usize, first: &[(usize, Tile)]) -> Result<bool> {
    if dealer >= 4 || first.iter().any(|&(s, _)| s >= 4) {
        return Err(Error::hand("跟庄: seats are 0..4"));
    }
    let on = variant.ruleset().flow().is_some_and(|f| f.gen_zhuang);
    Ok(on
        && first.len() == 4
        && first
            .iter()
            .enumerate()
            .all(|(i, &(s, t))| s == (dealer + i) % 4 && t == first[0].1))
}

/// 开宝 (上海 `params.kai_bao`): the pending 开宝 added by this hand's dice roll (1 on equal dice).
pub fn kai_bao(variant: &Variant, dice: (u8, u8)) -> Result<u32> {
    if !(1..=6).contains(&dice.0) || !(1..=6).contains(&dice.1) {
        return Err(Error::hand(format!("dice {dice:?}: each 1..=6")));
    }
    Ok(u32::from(
        facts_or_data(variant).kai_bao_on_equal_dice && dice.0 == dice.1,
    ))
}

pub(crate) fn seen_by(seat: &SeatState) -> Counts {
    let mut c = seat.counts;
    for (m, _) in &seat.melds {
        m.add_to(&mut c);
    }
    for x in c.iter_mut() {
        *x = (*x).min(4);
    }
    c
}

/// Draw-end state of each seat still in the hand (四川 查花猪 / 查大叫): `(花猪, 大叫 amount when
/// ready)`, decided by the preset.
pub fn draw_end_states(variant: &Variant, seats: &[SeatState]) -> Result<Vec<(bool, Option<i64>)>> {
    for (i, seat) in seats.iter().enumerate() {
        check_seat(seat, i, 0)?;
    }
    variant.ruleset().draw_end_states(seats)
}

/// Tests: an active East seat holding the standing tiles `hand`, no melds, no flags.
#[cfg(test)]
pub(crate) fn test_seat(hand: &str) -> SeatState {
    let tiles = crate::tile::parse_tiles(hand).unwrap();
    SeatState {
        counts: crate::tile::to_counts(&tiles).unwrap(),
        melds: Vec::new(),
        active: true,
        void_suit: None,
        win_locked: false,
        hand_locked: false,
        flowers: 0,
        seat_wind: Tile::E,
        dealer: false,
    }
}

/// Tests: an East round in live play (50 tiles left), no table flags.
#[cfg(test)]
pub(crate) const TEST_CTX: TableCtx = TableCtx {
    prevalent_wind: Tile::E,
    wall_last: false,
    wall_empty: false,
    last_kong: None,
    wall_remaining: 50,
    first_turn: false,
    after_exhaustion: false,
    forbidden_discards: 0,
    ready_first_turn: 0,
    pending_kai_bao: 0,
    pending_huang_fan: 0,
};

#[cfg(test)]
mod tests {
    use super::{TEST_CTX as CTX, test_seat as seat, *};

    /// `turn` of seat 0 on the self-drawn tile `drawn`, without analysis.
    fn drew(v: &Variant, s: &SeatState, drawn: &str, ctx: &TableCtx) -> TurnOptions {
        turn(
            v,
            s,
            0,
            Tile::parse(drawn).ok(),
            WinType::SelfDraw,
            ctx,
            false,
        )
        .unwrap()
    }

    /// Every seat's responses to `tile` discarded by seat 0.
    fn on_discard(v: &Variant, seats: &[SeatState], tile: &str) -> Vec<Response> {
        claims(
            v,
            seats,
            0,
            Tile::parse(tile).unwrap(),
            WinType::Discard,
            &CTX,
        )
        .unwrap()
    }

    #[test]
    fn scoring_only_switches_are_refused_at_the_table() {
        let with = |id: &str, k: &str, v: crate::preset::SwitchValue| {
            check_playable(&Variant::with_options(id, [(k, v)]).unwrap())
        };
        use crate::preset::SwitchValue::{Bool, Int, Str};
        assert!(with("hebei", "wildcard", Str("dai_hun".into())).is_err());
        assert!(with("hebei", "wildcard", Str("none".into())).is_ok());
        assert!(with("shanghai", "dragons_as_flowers", Bool(true)).is_err());
        assert!(with("shanghai", "mode", Str("any_hand".into())).is_ok());
        assert!(with("erren", "fan_profile", Str("billee1011_option_4".into())).is_err());
        assert!(with("erren", "random_events_probability", Int(5)).is_err());
        assert!(with("erren", "random_events_probability", Int(0)).is_ok());
        assert!(check_playable(&Variant::load("wuhan").unwrap()).is_ok());
        assert!(check_playable(&Variant::load("zipai_guilin").unwrap()).is_err());
    }

    #[test]
    fn sichuan_claims_for_every_seat() {
        let v = Variant::load("sichuan").unwrap();
        let seats = vec![
            seat("2s2s8s8s9s9s5m5m6m7m8m9m4p"),
            seat("1m1m2m2m3m3m4s4s5s5s6s6s7s"),
            seat("7s7s1p3p5p7p9p2m4m6m8m1s3s"),
            seat("1p2p2p4p4p6p6p8p8p9s9m9m1s"),
        ];
        let t = Tile::parse("7s").unwrap();
        let r = claims(&v, &seats, 0, t, WinType::Discard, &CTX).unwrap();
        assert!(r[0].is_empty());
        assert!(r[1].win.is_some() && !r[1].pung);
        assert!(r[2].win.is_none() && r[2].pung && !r[2].kong);
        assert!(r[2].chows.is_empty(), "no 吃 in sichuan");
        assert!(r[3].is_empty());
        // 过水不胡: a locked seat is not offered the win; 定缺 blocks the pung of the void suit.
        let mut locked = seats.clone();
        locked[1].win_locked = true;
        locked[2].void_suit = Some(2);
        let r = claims(&v, &locked, 0, t, WinType::Discard, &CTX).unwrap();
        assert!(r[1].win.is_none());
        assert!(!r[2].pung);
        // Robbing a kong: wins only.
        let r = claims(&v, &seats, 0, t, WinType::RobKong, &CTX).unwrap();
        assert!(r[1].win.is_some() && !r[2].pung);
    }

    #[test]
    fn mcr_minimum_and_chow_from_the_left() {
        let v = Variant::load("mcr").unwrap();
        let seats = vec![
            seat("EESSWWNNCCFFP"),
            seat("1m2m3m4m5m6m7p8p9p2s3s4s5s"),
            seat("1p1p1p2p2p2p3p3p3p4p4p4p6m"),
            seat("7m7m7m8m8m8m9m9m9m1s1s1s6s"),
        ];
        let t = Tile::parse("5s").unwrap();
        let r = claims(&v, &seats, 0, t, WinType::Discard, &CTX).unwrap();
        assert!(r[1].win.is_none(), "below the 8-fan minimum");
        assert!(!r[1].chows.is_empty(), "the left seat may chow 345s");
        let t = Tile::parse("3s").unwrap();
        let r = claims(&v, &seats, 2, t, WinType::Discard, &CTX).unwrap();
        assert!(r[3].chows.is_empty() && r[1].chows.is_empty());
    }

    #[test]
    fn regional_wins_come_from_the_preset_scorer() {
        let seats = vec![
            seat("7s2s2s8s8s9s9s5m5m6m7m8m9m"),
            seat("1m1m2m2m3m3m4s4s5s5s6s6s7s"),
            seat("1p2p2p4p4p6p6p8p8p9s9m9m1s"),
            seat("2m4m6m8m9s9m9m1s3s7p8p8p9p"),
        ];
        let t = Tile::parse("7s").unwrap();
        // 河北: 七对 on a discard is a win; 欢乐3D: only 杠上炮 wins on a discard.
        let h = Variant::load("hebei").unwrap();
        let r = claims(&h, &seats, 0, t, WinType::Discard, &CTX).unwrap();
        let w = r[1].win.as_ref().expect("hebei 七对");
        assert!(w.value > 0 && w.fans[0].0 == "QI_DUI" && w.deltas.is_empty());
        let hl = Variant::load("huanle3d").unwrap();
        let r = claims(&hl, &seats, 0, t, WinType::Discard, &CTX).unwrap();
        assert!(r[1].win.is_none());
        let r = claims(&hl, &seats, 0, t, WinType::AfterKongDiscard, &CTX).unwrap();
        assert!(r[1].win.is_some());
        for id in ["shaanxi", "hebei_draft4"] {
            let v = Variant::load(id).unwrap();
            let r = claims(&v, &seats, 0, t, WinType::Discard, &CTX).unwrap();
            assert!(r[1].win.is_some(), "{id}");
            assert!(r[2].win.is_none() && r[3].win.is_none(), "{id}");
        }
        // 上海 清混碰: a two-suit hand with chows has no P pattern, hence no win.
        let sh = Variant::load("shanghai").unwrap();
        let r = claims(&sh, &seats, 0, t, WinType::Discard, &CTX).unwrap();
        assert!(r[1].win.is_none());
    }

    #[test]
    fn kawuxing_and_erren_queries() {
        let k = Variant::load("kawuxing").unwrap();
        let t = |x: &str| Tile::parse(x).unwrap();
        // 46s 123p 789p CCC FF waits on 5s (卡五星 ×2 meets 2番起胡).
        let s = seat("4s6s1p2p3p7p8p9pCCCFF");
        assert_eq!(waits(&k, &s, 0, &CTX).unwrap(), vec![t("5s")]);
        let mut s14 = s.clone();
        s14.counts[t("9s").idx()] += 1;
        let rd = ready_discards(&k, &s14, 0, &CTX).unwrap();
        assert!(rd.contains(&(t("9s"), vec![t("5s")])));
        // K3: a forbidden tile is not a legal discard of a seat that has not declared.
        let ctx = TableCtx {
            forbidden_discards: 1u64 << t("5s").idx(),
            ..CTX
        };
        let o = turn(
            &k,
            &seat("5s5s1s2s3s7s8s9s1p2p3pCCC"),
            0,
            None,
            WinType::SelfDraw,
            &ctx,
            false,
        )
        .unwrap();
        assert!(!o.discards.contains(&t("5s")) && o.discards.contains(&t("1s")));
        // A concealed triplet may 直杠 the 4th copy but not 碰 it; no claim on the last discard.
        let seats = vec![
            seat("1s2s3s4s5s6s7s8s9s1p2p3pF"),
            seat("CCC1p1p2p2p4p5p6p7p8p9p"),
            seat("4s4s5s5s6s6s7s7s8s8s9s9sP"),
        ];
        let r = claims(&k, &seats, 0, t("C"), WinType::Discard, &CTX).unwrap();
        assert!(r[1].kong && !r[1].pung);
        let empty = TableCtx {
            wall_empty: true,
            ..CTX
        };
        let r = claims(&k, &seats, 0, t("C"), WinType::Discard, &empty).unwrap();
        assert!(r[1].is_empty());
        // 二人麻将 绿一色 乱牌: a green hand with no structure waits on every green tile.
        let e = Variant::load("erren").unwrap();
        let g = seat("2s3s3s4s6s6s8s8sFF2s4s8s");
        let w = waits(&e, &g, 0, &CTX).unwrap();
        assert!(w.contains(&t("2s")) && w.contains(&t("F")) && !w.contains(&t("5s")));
    }

    #[test]
    fn turn_options_and_errors() {
        let v = Variant::load("sichuan").unwrap();
        let s = seat("1m1m1m1m2m3m4m5m6m7m8m9m9m9m");
        let o = turn(
            &v,
            &s,
            0,
            Tile::parse("9m").ok(),
            WinType::SelfDraw,
            &CTX,
            true,
        )
        .unwrap();
        assert!(o.win.is_some() && !o.forced_win);
        let last = TableCtx {
            wall_remaining: 2,
            ..CTX
        };
        let o2 = drew(&v, &s, "9m", &last);
        assert!(o2.forced_win, "最后四张: the win is forced");
        let first = TableCtx {
            first_turn: true,
            ..CTX
        };
        let mut dealer = s.clone();
        dealer.dealer = true;
        let o3 = drew(&v, &dealer, "9m", &first);
        assert!(o3.win.unwrap().fans.iter().any(|f| f.0 == "TIAN_HU"));
        assert_eq!(o.concealed_kongs, vec![Tile::parse("1m").unwrap()]);
        assert_eq!(o.analysis.len(), o.discards.len());
        assert!(turn(&v, &seat("1m2m"), 0, None, WinType::SelfDraw, &CTX, false).is_err());
        assert!(
            Variant::load("zipai_guilin").is_ok_and(|z| claims(
                &z,
                &[],
                0,
                Tile::E,
                WinType::Discard,
                &CTX
            )
            .is_err())
        );
    }
    #[test]
    fn bao_ting_locks_the_hand_but_keeps_ready_kongs() {
        let v = Variant::load("hebei").unwrap();
        // 1m1m1m 234p 567s EE + 9p9p waiting; drew 1m (the 4th): the kong keeps 9p/E waits.
        let mut s = seat("1m1m1m1m2p3p4p5s6s7sEE9p9p");
        s.hand_locked = true;
        let o = drew(&v, &s, "1m", &CTX);
        assert_eq!(
            o.discards,
            vec![Tile::parse("1m").unwrap()],
            "locked: only the drawn tile"
        );
        assert_eq!(o.concealed_kongs, vec![Tile::parse("1m").unwrap()]);
        // A kong that breaks the wait is refused: 2p2p2p2p 3p4p ... with the 2p needed as a run.
        let mut s2 = seat("2p2p2p2p3p4p5s6s7sEE9p9p1m");
        s2.hand_locked = true;
        let o2 = drew(&v, &s2, "1m", &CTX);
        assert!(o2.concealed_kongs.is_empty());
        // Unlocked, the same kong is offered; 血流 (sichuan) locks offer no kong.
        s2.hand_locked = false;
        let o3 = drew(&v, &s2, "1m", &CTX);
        assert_eq!(o3.concealed_kongs, vec![Tile::parse("2p").unwrap()]);
        // Claims after 听: no pung, the win stays.
        let mut seats = vec![
            seat("2m4m6m8m9s9m9m1s3s7p8p8p9p"),
            seat("5s5s5s1m2m3m4p5p6pEEE9p"),
            seat("1p2p2p4p4p6p6p8p8p9s9m9m1s"),
            seat("2m4m6m8m9s9m9m1s3s7p8p8p9p"),
        ];
        seats[1].hand_locked = true;
        let r = on_discard(&v, &seats, "5s");
        assert!(!r[1].pung && r[1].kong, "5s kong keeps the 9p wait");
        let r = on_discard(&v, &seats, "9p");
        assert!(r[1].win.is_some());
        // 报听 discards: 14 tiles, discarding 9p or 1s leaves a ready hand.
        let t: Vec<Tile> = ready_discards(&v, &seat("1m2m3m4p5p6p7s8s9sEEE9p1s"), 0, &CTX)
            .unwrap()
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        assert_eq!(
            t,
            vec![Tile::parse("9p").unwrap(), Tile::parse("1s").unwrap()]
        );
        // bao_ting = required: no win without 听.
        let req = Variant::with_options(
            "hebei",
            [(
                "bao_ting",
                crate::preset::SwitchValue::Str("required".into()),
            )],
        )
        .unwrap();
        seats[1].hand_locked = false;
        let r = on_discard(&req, &seats, "9p");
        assert!(r[1].win.is_none());
    }

    #[test]
    fn shanghai_special_wins_pass_the_table_filter() {
        let v = Variant::load("shanghai").unwrap();
        // 风一色 in no structure: E S W N C F P tiles.
        let mut s = seat("EESWWNNCCFFPP");
        s.flowers = 1;
        let seats = vec![
            seat("1m1m1m2m2m2m3m3m3m4m4m4m5m"),
            s.clone(),
            seat("1p2p2p4p4p6p6p8p8p9s9m9m1s"),
            seat("2m4m6m8m9s9m9m1s3s7p8p8p9p"),
        ];
        let r = on_discard(&v, &seats, "S");
        assert!(
            r[1].win
                .as_ref()
                .is_some_and(|w| w.fans[0].0 == "FENG_YI_SE")
        );
        // 八花齐: any hand on the seat's own draw, not on a discard.
        let mut b = seat("1m4m7m2p5p8p3s6s9sESWNC");
        b.flowers = 8;
        let o = drew(&v, &b, "C", &CTX);
        assert!(o.win.is_some_and(|w| w.fans[0].0 == "BA_HUA_QI"));
        b.flowers = 7;
        let o = drew(&v, &b, "C", &CTX);
        assert!(o.win.is_none());
    }

    #[test]
    fn rob_kong_follows_the_preset() {
        let seats = vec![
            seat("1p2p2p4p4p6p6p8p8p9s9m9m1s"),
            seat("1m1m2m2m3m3m4s4s5s5s6s6s7s"),
            seat("2m4m6m8m9s9m9m1s3s7p8p8p9p"),
            seat("2m4m6m8m9s9m9m1s3s7p8p8p9p"),
        ];
        let t = Tile::parse("7s").unwrap();
        let h = Variant::load("huanle3d").unwrap();
        let r = claims(&h, &seats, 0, t, WinType::RobKong, &CTX).unwrap();
        assert!(r[1].win.is_none());
        let h2 = Variant::with_options(
            "huanle3d",
            [(
                "discard_win",
                crate::preset::SwitchValue::Str("also_rob_kong".into()),
            )],
        )
        .unwrap();
        let r = claims(&h2, &seats, 0, t, WinType::RobKong, &CTX).unwrap();
        assert!(r[1].win.is_some());
    }

    #[test]
    fn table_events_decided_by_the_preset() {
        let d4 = Variant::load("hebei_draft4").unwrap();
        let p = Tile::P;
        let follow = [(2, p), (3, p), (0, p), (1, p)];
        assert!(gen_zhuang(&d4, 2, &follow).unwrap());
        assert!(!gen_zhuang(&d4, 2, &follow[..3]).unwrap());
        assert!(
            !gen_zhuang(&d4, 1, &follow).unwrap(),
            "the dealer discards first"
        );
        let off = Variant::with_options(
            "hebei_draft4",
            [("gen_zhuang", crate::preset::SwitchValue::Bool(false))],
        )
        .unwrap();
        assert!(!gen_zhuang(&off, 2, &follow).unwrap());
        assert!(!gen_zhuang(&Variant::load("hebei").unwrap(), 2, &follow).unwrap());
        assert!(gen_zhuang(&d4, 9, &follow).is_err());
        let sh = Variant::load("shanghai").unwrap();
        assert_eq!(kai_bao(&sh, (4, 4)).unwrap(), 1);
        assert_eq!(kai_bao(&sh, (4, 5)).unwrap(), 0);
        assert_eq!(kai_bao(&d4, (4, 4)).unwrap(), 0);
        assert!(kai_bao(&sh, (0, 7)).is_err());
        assert_eq!(
            pass_lock(&Variant::load("shaanxi").unwrap()),
            PassLock::SameTile
        );
        assert_eq!(pass_lock(&sh), PassLock::UntilOwnDraw);
        assert_eq!(pass_lock(&d4), PassLock::UntilOwnDraw);
        assert_eq!(
            pass_lock(&Variant::load("huanle3d").unwrap()),
            PassLock::None
        );
    }

    #[test]
    fn next_hand_rotation_and_carry() {
        let end = |dealer, winners: &[usize], discarder| HandEnd {
            players: 4,
            dealer,
            winners: winners.to_vec(),
            discarder,
            random: 7,
        };
        let c0 = Carry::default();
        let d4 = Variant::load("hebei_draft4").unwrap();
        // 上楼: dealer wins → up; 荒牌 → up, capped at 2; non-dealer wins → floor 0, next dealer.
        let (d, c) = next_hand(&d4, &end(1, &[1], None), c0).unwrap();
        assert_eq!((d, c.floor), (1, 1));
        let (d, c) = next_hand(&d4, &end(1, &[], None), Carry { floor: 2, ..c0 }).unwrap();
        assert_eq!((d, c.floor), (1, 2));
        let (d, c) = next_hand(&d4, &end(3, &[2], Some(0)), Carry { floor: 2, ..c0 }).unwrap();
        assert_eq!((d, c.floor), (0, 0));
        assert!(next_hand(&d4, &end(0, &[], None), Carry { floor: 3, ..c0 }).is_err());
        // 上海: winner deals; several winners → the 放炮者 (switch: nearest winner); 和局: dealer stays, 黄番 + 1.
        let sh = Variant::load("shanghai").unwrap();
        let (d, c) = next_hand(
            &sh,
            &end(0, &[2], None),
            Carry {
                kai_bao: 1,
                huang_fan: 2,
                floor: 0,
            },
        )
        .unwrap();
        assert_eq!((d, c), (2, c0));
        let (d, _) = next_hand(&sh, &end(0, &[3, 1], Some(2)), c0).unwrap();
        assert_eq!(d, 2);
        let near = Variant::with_options(
            "shanghai",
            [(
                "multi_winner_dealer",
                crate::preset::SwitchValue::Str("nearest_winner".into()),
            )],
        )
        .unwrap();
        assert_eq!(
            next_hand(&near, &end(0, &[3, 1], Some(2)), c0).unwrap().0,
            3
        );
        let (d, c) = next_hand(
            &sh,
            &end(1, &[], None),
            Carry {
                kai_bao: 1,
                huang_fan: 0,
                floor: 0,
            },
        )
        .unwrap();
        assert_eq!((d, c.kai_bao, c.huang_fan), (1, 1, 1));
        // stay_on_dealer_win_or_draw (河北, 陕西); random_each_hand (四川).
        let hb = Variant::load("hebei").unwrap();
        assert_eq!(next_hand(&hb, &end(3, &[1], Some(3)), c0).unwrap().0, 0);
        assert_eq!(next_hand(&hb, &end(3, &[3], None), c0).unwrap().0, 3);
        let sc = Variant::load("sichuan").unwrap();
        assert_eq!(next_hand(&sc, &end(0, &[1], None), c0).unwrap().0, 3);
        assert!(next_hand(&hb, &end(0, &[1, 1], None), c0).is_err());
        assert!(next_hand(&hb, &end(5, &[], None), c0).is_err());
    }
}
