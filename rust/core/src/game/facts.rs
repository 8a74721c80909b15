//! The table facts of a variant: everything the engine needs to know about a preset's flow that
//! is data (deal, wall, phases, claim order, declarations, wall end …), read in ONE place from the
//! preset file (`[rules.flow]`, then `[params]`) and the variant's switches.
//!
//! A fact in `[rules.flow]` is either a literal (`dead_wall_tiles = 10`) or switch-mapped:
//! `{switch = "name"}` takes the switch's value as it is, `{switch = "name", a = x, b = y}` maps
//! the switch's value `a` to `x` … (`after_win = {switch = "mode", xuezhan = "leave", …}`). The
//! keys are listed in `docs/table.md` ("Table facts").

use crate::error::{Error, Result};
use crate::preset::SwitchValue;
use crate::variant::Variant;

use super::action::ActionKind;
use super::flow::{self, PassLock};

/// What happens to a winner when the hand goes on (四川 血战 / 血流) or ends (every other preset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterWin {
    /// The first win (or 一炮多响) ends the hand.
    End,
    /// 血战到底: the winner leaves; play goes on until one player is left.
    Leave,
    /// 血流成河: the winner stays with a locked hand and may win again.
    Lock,
}

/// A pre-play phase (every active seat acts in seat order from the dealer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrePhaseKind {
    /// 换三张: three tiles of one suit passed in one direction.
    HuanSanZhang,
    /// 定缺: a void suit declared.
    DingQue,
    /// 陕西 下炮子.
    PaoZi,
    /// 卡五星 漂.
    Piao,
    /// 二人麻将 开始时换牌: tiles set aside one by one and replaced from the unused pool.
    OpeningExchange,
}

impl PrePhaseKind {
    pub fn name(self) -> &'static str {
        match self {
            PrePhaseKind::HuanSanZhang => "huan_san_zhang",
            PrePhaseKind::DingQue => "ding_que",
            PrePhaseKind::PaoZi => "pao_zi",
            PrePhaseKind::Piao => "piao",
            PrePhaseKind::OpeningExchange => "exchange",
        }
    }
    fn parse(s: &str) -> Result<PrePhaseKind> {
        Ok(match s {
            "huan_san_zhang" => PrePhaseKind::HuanSanZhang,
            "ding_que" => PrePhaseKind::DingQue,
            "pao_zi" => PrePhaseKind::PaoZi,
            "piao" => PrePhaseKind::Piao,
            "opening_exchange" => PrePhaseKind::OpeningExchange,
            o => {
                return Err(Error::rule(format!(
                    "[rules.flow] pre_phases: unknown phase {o:?}"
                )));
            }
        })
    }
    /// Whether the phase changes the tiles held (then the dealer's first turn offers no win).
    pub fn changes_hands(self) -> bool {
        !matches!(self, PrePhaseKind::PaoZi)
    }
}

/// The declaration of a ready hand with a discard (河北 报听, 卡五星 亮倒, 二人麻将 报听).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// `declare_ting` or `declare_ready`.
    pub action: ActionKind,
    /// The event logged: `ting`, `liangdao`, `bao_ting`.
    pub event: &'static str,
    /// The hand is shown to everyone (亮倒) and its waits are logged.
    pub reveal: bool,
    /// Others may not discard the declared hand's winning tiles (卡五星 K3); the seat with no
    /// legal action left ends the hand (forced end).
    pub forbid_waits: bool,
    /// 天听: a declaration with the seat's first discard (no claim or kong before; the dealer, or
    /// another seat discarding its first drawn tile) is passed to the scorer.
    pub tian_ting: bool,
    /// Only discards the preset allows may declare (the legal discards of the turn).
    pub legal_discards_only: bool,
}

/// 买码 after a self-draw win (卡五星).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaiMa {
    Off,
    SelfDraw,
    DeclaredSelfDraw,
}

/// 换三张 direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HuanDirection {
    /// left / across / right uniformly (`rng.choice((1, 2, 3))`).
    Random,
    /// Two dice: the sums passing left, across, right.
    Dice([Vec<i64>; 3]),
}

/// 下炮子 (陕西).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaoZi {
    None,
    /// Declared before play, 0..=max; the default is the seat's choice of the previous hand.
    Free {
        max: i32,
    },
    Fixed(i32),
}

/// The table facts of a variant.
#[derive(Clone, Debug)]
pub struct TableFacts {
    /// Seats at the table.
    pub seats: usize,
    /// Players in a hand (fewer than `seats`: the seats before the dealer rest, 卡五星 4 seated).
    pub playing: usize,
    /// Tiles dealt: the dealer, the others.
    pub deal: (usize, usize),
    /// Only the first `n` tiles of the shuffled set are the wall; the rest is the unused pool.
    pub wall_subset: Option<usize>,
    /// Tiles at the end of the wall that are never drawn.
    pub dead_wall: usize,
    /// 海底 draws after the live wall: each player in turn draws once (self-draw wins only).
    pub haidi_draws: usize,
    /// 荒庄 reserve in stacks of two, by the kongs made so far (0, 1, 2, ≥ 3 …).
    pub reserve_stacks: Vec<usize>,
    /// 三家杠: kongs by three different players end the hand (荒牌).
    pub kong_abort: bool,
    /// 一炮多响 (else 截胡: the first winner in claim order).
    pub multi_ron: bool,
    /// Claims are asked in seat order from the dealer (else from the discarder's right).
    pub claim_order_from_dealer: bool,
    pub after_win: AfterWin,
    pub pre_phases: Vec<PrePhaseKind>,
    pub huan_direction: HuanDirection,
    pub pao_zi: PaoZi,
    pub piao_choices: Vec<i32>,
    pub declaration: Option<Declaration>,
    /// 托管: a possible win is the only action of an auto-played seat.
    pub auto_win: bool,
    /// 逃跑 ends the hand with the preset's penalty.
    pub escape: bool,
    /// Two dice at the start of the hand (上海 开宝).
    pub opening_dice: bool,
    /// 花牌: face-up wall positions (二人麻将).
    pub hua_pai: usize,
    /// 海底捞月 phase after the wall: the ready seat draws up to this many tiles from the pool.
    pub haidi_phase: Option<usize>,
    pub mai_ma: MaiMa,
    /// A wildcard indicator is flipped after the deal (武汉).
    pub wild_flip: bool,
    /// 地和: the dealer's first discard (no claim or kong before) is a first-turn discard.
    pub di_he_first_discard: bool,
    /// 过水 / 漏胡 (the core's reading of the switch).
    pub pass_lock: PassLock,
    /// A 补杠's record names the seat whose discard was 碰'd (the settlement may charge him).
    pub added_kong_feeder: bool,
}

/// A `[rules.flow]` fact, then a `[params]` entry, resolving `{switch = …}` indirection.
fn fact(v: &Variant, key: &str) -> Result<Option<toml::Value>> {
    let p = v.preset();
    let raw = p.rules.flow.get(key).or_else(|| p.params.get(key));
    let Some(raw) = raw else { return Ok(None) };
    let toml::Value::Table(t) = raw else {
        return Ok(Some(raw.clone()));
    };
    let Some(sw) = t.get("switch").and_then(toml::Value::as_str) else {
        return Ok(Some(raw.clone()));
    };
    let cur = v.options().get(sw).ok_or_else(|| {
        Error::rule(format!(
            "preset {}: fact {key} names switch {sw:?}, which the preset does not have",
            p.id
        ))
    })?;
    let as_toml = match cur {
        SwitchValue::Bool(b) => toml::Value::Boolean(*b),
        SwitchValue::Int(i) => toml::Value::Integer(*i),
        SwitchValue::Str(s) => toml::Value::String(s.clone()),
    };
    if t.len() == 1 {
        return Ok(Some(as_toml));
    }
    let name = match cur {
        SwitchValue::Str(s) => s.clone(),
        other => other.to_string(),
    };
    Ok(t.get(&name).cloned().or(Some(as_toml)))
}

fn fact_bool(v: &Variant, key: &str, default: bool) -> Result<bool> {
    Ok(fact(v, key)?.and_then(|x| x.as_bool()).unwrap_or(default))
}

fn fact_int(v: &Variant, key: &str, default: i64) -> Result<i64> {
    Ok(fact(v, key)?
        .and_then(|x| x.as_integer())
        .unwrap_or(default))
}

fn fact_str(v: &Variant, key: &str) -> Result<Option<String>> {
    Ok(fact(v, key)?.and_then(|x| x.as_str().map(str::to_string)))
}

fn int_list(x: &toml::Value, what: &str) -> Result<Vec<i64>> {
    x.as_array()
        .ok_or_else(|| Error::rule(format!("{what}: a list of integers")))?
        .iter()
        .map(|i| {
            i.as_integer()
                .ok_or_else(|| Error::rule(format!("{what}: a list of integers")))
        })
        .collect()
}

fn usize_of(i: i64, what: &str) -> Result<usize> {
    usize::try_from(i).map_err(|_| Error::rule(format!("{what}: {i} is negative")))
}

impl TableFacts {
    /// Read the facts of a variant (an error names the fact that is wrong).
    pub fn of(v: &Variant) -> Result<TableFacts> {
        let p = v.preset();
        let preset_players = usize::from(p.players);
        let seats = match v.options().get("players") {
            Some(SwitchValue::Int(n)) => usize_of(*n, "players")?,
            _ => preset_players,
        };
        if seats < preset_players {
            return Err(Error::rule(format!(
                "{}: the table plays {preset_players}-player hands only (switch players = {})",
                p.id, preset_players
            )));
        }
        let deal = match fact(v, "deal")? {
            Some(toml::Value::Table(t)) => (
                usize_of(
                    t.get("dealer")
                        .and_then(toml::Value::as_integer)
                        .unwrap_or(14),
                    "deal",
                )?,
                usize_of(
                    t.get("others")
                        .and_then(toml::Value::as_integer)
                        .unwrap_or(13),
                    "deal",
                )?,
            ),
            _ => (14, 13),
        };
        let reserve_stacks = match fact(v, "exhaustion_reserve_stacks")? {
            Some(x) => int_list(&x, "exhaustion_reserve_stacks")?
                .into_iter()
                .map(|i| usize_of(i, "exhaustion_reserve_stacks"))
                .collect::<Result<_>>()?,
            None => Vec::new(),
        };
        let after_win = match fact_str(v, "after_win")?.as_deref() {
            None | Some("end") => AfterWin::End,
            Some("leave") => AfterWin::Leave,
            Some("lock") => AfterWin::Lock,
            Some(o) => return Err(Error::rule(format!("after_win: {o:?} (end, leave, lock)"))),
        };
        let mut pre_phases = Vec::new();
        if let Some(list) = p.rules.flow.get("pre_phases") {
            let arr = list
                .as_array()
                .ok_or_else(|| Error::rule("[rules.flow] pre_phases: a list of tables"))?;
            for e in arr {
                let phase = e
                    .get("phase")
                    .and_then(toml::Value::as_str)
                    .ok_or_else(|| Error::rule("pre_phases: each entry needs phase"))?;
                let on = match e.get("switch").and_then(toml::Value::as_str) {
                    None => true,
                    Some(sw) => {
                        let cur = v
                            .options()
                            .get(sw)
                            .ok_or_else(|| Error::rule(format!("pre_phases: no switch {sw:?}")))?;
                        match (e.get("value"), cur) {
                            (Some(toml::Value::String(want)), SwitchValue::Str(s)) => want == s,
                            (None, SwitchValue::Bool(b)) => *b,
                            _ => false,
                        }
                    }
                };
                if on {
                    pre_phases.push(PrePhaseKind::parse(phase)?);
                }
            }
        }
        let huan_direction = match fact_str(v, "huan_san_zhang_direction")?.as_deref() {
            Some("dice") => {
                let t = p.rules.flow.get("huan_san_zhang_dice").ok_or_else(|| {
                    Error::rule("huan_san_zhang_direction = dice needs huan_san_zhang_dice")
                })?;
                let get = |k: &str| -> Result<Vec<i64>> {
                    int_list(
                        t.get(k)
                            .ok_or_else(|| Error::rule(format!("huan_san_zhang_dice needs {k}")))?,
                        "huan_san_zhang_dice",
                    )
                };
                HuanDirection::Dice([get("left")?, get("across")?, get("right")?])
            }
            _ => HuanDirection::Random,
        };
        let pao_zi = match fact_str(v, "pao_zi")?.as_deref() {
            Some("free") => PaoZi::Free {
                max: fact_int(v, "pao_zi_max", 4)? as i32,
            },
            Some("fixed") => PaoZi::Fixed(fact_int(v, "pao_zi_fixed", 0)? as i32),
            _ => PaoZi::None,
        };
        let piao_choices = match fact(v, "piao_choices")? {
            Some(x) => int_list(&x, "piao_choices")?
                .into_iter()
                .map(|i| i as i32)
                .collect(),
            None => vec![0],
        };
        let declaration = match p.rules.flow.get("declaration") {
            None => None,
            Some(d) => {
                let action = match d.get("action").and_then(toml::Value::as_str) {
                    Some("declare_ting") => ActionKind::DeclareTing,
                    Some("declare_ready") => ActionKind::DeclareReady,
                    o => {
                        return Err(Error::rule(format!(
                            "declaration.action: {o:?} (declare_ting, declare_ready)"
                        )));
                    }
                };
                let event = match d.get("event").and_then(toml::Value::as_str) {
                    Some("ting") => "ting",
                    Some("liangdao") => "liangdao",
                    Some("bao_ting") => "bao_ting",
                    o => {
                        return Err(Error::rule(format!(
                            "declaration.event: {o:?} (ting, liangdao, bao_ting)"
                        )));
                    }
                };
                let flag = |k: &str| d.get(k).and_then(toml::Value::as_bool).unwrap_or(false);
                let forbid_waits = match d.get("forbid_waits_switch").and_then(toml::Value::as_str)
                {
                    Some(sw) => matches!(v.options().get(sw), Some(SwitchValue::Bool(true))),
                    None => false,
                };
                Some(Declaration {
                    action,
                    event,
                    reveal: flag("reveal"),
                    forbid_waits,
                    tian_ting: flag("tian_ting"),
                    legal_discards_only: flag("legal_discards_only"),
                })
            }
        };
        let mai_ma = match fact_str(v, "mai_ma")?.as_deref() {
            Some("self_draw") => MaiMa::SelfDraw,
            Some("liangdao_self_draw") => MaiMa::DeclaredSelfDraw,
            _ => MaiMa::Off,
        };
        let haidi_phase = match fact_str(v, "exhaustion")?.as_deref() {
            Some("haidi_phase") => Some(usize_of(
                fact_int(v, "haidi_phase_draws", 3)?,
                "haidi_phase_draws",
            )?),
            _ => None,
        };
        let claim_order_from_dealer = fact_str(v, "jiehu_order")?.as_deref() == Some("from_dealer");
        Ok(TableFacts {
            seats,
            playing: preset_players,
            deal,
            wall_subset: fact(v, "wall_subset")?
                .and_then(|x| x.as_integer())
                .map(|i| usize_of(i, "wall_subset"))
                .transpose()?,
            dead_wall: usize_of(fact_int(v, "dead_wall_tiles", 0)?, "dead_wall_tiles")?,
            haidi_draws: usize_of(fact_int(v, "haidi_draws", 0)?, "haidi_draws")?,
            reserve_stacks,
            kong_abort: fact_bool(v, "three_player_kong_abort", false)?,
            multi_ron: fact_bool(v, "multi_ron", p.rules.multi_ron)?,
            claim_order_from_dealer,
            after_win,
            pre_phases,
            huan_direction,
            pao_zi,
            piao_choices,
            declaration,
            auto_win: fact_bool(v, "auto_win_when_auto_played", false)?,
            escape: p.params.contains_key("escape_units"),
            opening_dice: fact_str(v, "opening_dice")?.as_deref() == Some("kai_bao"),
            hua_pai: usize_of(fact_int(v, "hua_pai", 0)?, "hua_pai")?,
            haidi_phase,
            mai_ma,
            wild_flip: fact_str(v, "wildcard_flip")?.is_some(),
            di_he_first_discard: fact_bool(v, "di_he_first_discard", false)?,
            pass_lock: flow::pass_lock(v),
            added_kong_feeder: fact_bool(v, "added_kong_feeder", true)?,
        })
    }
}
