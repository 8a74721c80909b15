//! The compiled 字牌 rules: the 胡息 table (preset data) and every switch, read once.

use crate::error::{Error, Result};
use crate::preset::{Options, PresetData};

use super::group::GroupKind;

/// How 自摸 changes the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zimo {
    /// ×2 (Guilin seed; most Hunan rooms).
    X2,
    /// +1 囤 (SYZP 自摸加一囤).
    PlusOneTun,
    /// No bonus (woaiwyhty `checkHu`).
    None,
}

/// Which 醒 rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Xing {
    None,
    /// 翻醒: flipped wall cards, offset, continue on 4.
    Fan,
    /// 跟醒: the winning card itself gives the 醒 (offset applied to it).
    Gen,
    /// 随醒: the 醒 card is the winning card itself (no offset): every copy of it counts.
    Sui,
    /// 双醒: 翻醒 where every 醒 counts twice.
    Double,
}

/// Who pays for an ordinary discard win (点炮).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscardPayment {
    DiscarderPaysAll,
    AllPay,
    DiscarderOnly,
}

/// One 名堂 of the woaiwyhty set, with its table values.
#[derive(Clone, Debug, PartialEq)]
pub struct Mingtang {
    pub hong: i64,
    pub hong_min_red: u32,
    pub hei: i64,
    pub dian: i64,
    pub dui: i64,
    pub da: i64,
    pub da_min_big: u32,
    pub xiao: i64,
    pub xiao_min_small: u32,
    pub tuan: i64,
    pub shuahou: i64,
}

/// Compiled 字牌 rules (`Rules::Zipai`).
#[derive(Clone, Debug, PartialEq)]
pub struct ZipaiRules {
    /// 胡息 [small, big] per group kind, indexed by `GroupKind as usize`.
    pub huxi: [[i32; 2]; GroupKind::COUNT],
    pub hunan_names: bool,
    pub min_huxi: i32,
    pub tun_base: i32,
    pub tun_step: i32,
    pub zimo: Zimo,
    pub haidi_mult: i64,
    pub tianhu_mult: i64,
    pub dihu_mult: i64,
    pub stack_mult: bool,
    pub mingtang: Option<Mingtang>,
    pub xing: Xing,
    pub xing_offset: i8,
    pub xing_all_cards: bool,
    pub xing_in_multiplier: bool,
    pub difficulty: i64,
    pub discard_payment: DiscardPayment,
    pub guo_peng_zero: bool,
    /// A pair is allowed only with a 4-card group (the seed); `false` = any 3n+2 hand may have one
    /// pair (the q_algorithm library's partial hands).
    pub pair_needs_four: bool,
    pub kaiduo_on_discard: bool,
    /// Flow: 吃 / 碰 allowed on discards.
    pub chi_on_discard: bool,
    pub peng_on_discard: bool,
    /// Jokers (王) in the deck: at most this many in one hand (0: none).
    pub jokers: u8,
    /// 三龙五坎: 3 dealt fours or 5 dealt triplets win at once, paid like 天胡.
    pub sanlong_wukan: bool,
    /// Flow: a 臭 card also blocks 胡 for that player.
    pub chou_blocks_hu: bool,
    /// Flow: after a 荒庄 the dealer's 下家 deals the next hand (false: the same dealer).
    pub dealer_next_after_draw: bool,
}

fn param_int(p: &PresetData, table: &str, key: &str) -> Result<i64> {
    p.params
        .get(table)
        .and_then(|t| t.get(key))
        .and_then(|v| v.as_integer())
        .ok_or_else(|| {
            Error::rule(format!(
                "preset {}: missing integer params.{table}.{key}",
                p.id
            ))
        })
}

fn fan_value(p: &PresetData, id: &str) -> Result<i64> {
    p.fan(id)
        .map(|f| f.value)
        .ok_or_else(|| Error::rule(format!("preset {}: 名堂 table has no {id}", p.id)))
}

impl ZipaiRules {
    /// Compile the preset data and the resolved switches.
    pub fn compile(p: &PresetData, o: &Options) -> Result<ZipaiRules> {
        let mut huxi = [[0i32; 2]; GroupKind::COUNT];
        let table = p
            .params
            .get("huxi")
            .and_then(|t| t.as_table())
            .ok_or_else(|| Error::rule(format!("preset {}: missing [params.huxi]", p.id)))?;
        for k in GroupKind::ALL {
            let v = table
                .get(k.id())
                .and_then(|v| v.as_array())
                .ok_or_else(|| {
                    Error::rule(format!("preset {}: params.huxi.{} missing", p.id, k.id()))
                })?;
            let n: Vec<i64> = v.iter().filter_map(|x| x.as_integer()).collect();
            if n.len() != 2 {
                return Err(Error::rule(format!(
                    "preset {}: params.huxi.{} must be [small, big]",
                    p.id,
                    k.id()
                )));
            }
            huxi[k as usize] = [n[0] as i32, n[1] as i32];
        }
        let mingtang = match o.str("mingtang")? {
            "none" => None,
            _ => Some(Mingtang {
                hong: fan_value(p, "HONG_HU")?,
                hong_min_red: param_int(p, "mingtang", "hong_min_red")? as u32,
                hei: fan_value(p, "HEI_HU")?,
                dian: fan_value(p, "DIAN_HU")?,
                dui: fan_value(p, "DUI_HU")?,
                da: fan_value(p, "DA_HU")?,
                da_min_big: param_int(p, "mingtang", "da_min_big")? as u32,
                xiao: fan_value(p, "XIAO_HU")?,
                xiao_min_small: param_int(p, "mingtang", "xiao_min_small")? as u32,
                tuan: fan_value(p, "TUAN_HU")?,
                shuahou: fan_value(p, "SHUA_HOU")?,
            }),
        };
        Ok(ZipaiRules {
            huxi,
            hunan_names: o.str("naming")? == "hunan",
            min_huxi: o.int("min_huxi")? as i32,
            tun_base: o.int("tun_base_huxi")? as i32,
            tun_step: o.int("tun_step")? as i32,
            zimo: match o.str("zimo")? {
                "x2" => Zimo::X2,
                "plus_one_tun" => Zimo::PlusOneTun,
                _ => Zimo::None,
            },
            haidi_mult: o.int("haidi_multiplier")?,
            tianhu_mult: o.int("tianhu_multiplier")?,
            dihu_mult: o.int("dihu_multiplier")?,
            stack_mult: o.bool("stack_win_multipliers")?,
            mingtang,
            xing: match o.str("xing")? {
                "fan" => Xing::Fan,
                "gen" => Xing::Gen,
                "sui" => Xing::Sui,
                "double" => Xing::Double,
                _ => Xing::None,
            },
            xing_offset: match o.str("xing_offset")? {
                "+1" => 1,
                "0" => 0,
                _ => -1,
            },
            xing_all_cards: o.str("xing_scope")? == "all",
            xing_in_multiplier: o.bool("xing_in_multiplier")?,
            difficulty: o.int("difficulty")?,
            discard_payment: match o.str("discard_payment")? {
                "discarder_pays_all" => DiscardPayment::DiscarderPaysAll,
                "all_pay" => DiscardPayment::AllPay,
                _ => DiscardPayment::DiscarderOnly,
            },
            guo_peng_zero: o.bool("guo_peng_triplet_zero")?,
            pair_needs_four: o.str("pair_rule")? == "with_four",
            kaiduo_on_discard: o.bool("kaiduo_on_discard")?,
            chi_on_discard: o.bool("chi_on_discard")?,
            peng_on_discard: o.bool("peng_on_discard")?,
            jokers: u8::try_from(o.int("jokers")?)
                .map_err(|_| Error::rule("switch jokers must be 0..4"))?,
            sanlong_wukan: o.bool("sanlong_wukan")?,
            chou_blocks_hu: o.bool("chou_blocks_hu")?,
            dealer_next_after_draw: o.str("dealer_after_draw")? == "next",
        })
    }

    /// 胡息 of a group kind for a card size.
    #[inline]
    pub fn value(&self, kind: GroupKind, big: bool) -> i32 {
        self.huxi[kind as usize][usize::from(big)]
    }

    /// 舵 / 囤 of a 胡息 total (0 below the minimum): 1 + ⌊(胡息 − base) / step⌋.
    pub fn duo(&self, huxi: i32) -> i64 {
        duo(huxi, self.min_huxi, self.tun_base, self.tun_step)
    }
}

/// 舵 / 囤 of a 胡息 total: 0 below `min_huxi`, else 1 + ⌊(胡息 − base) / step⌋ (at least 1).
pub fn duo(huxi: i32, min_huxi: i32, base: i32, step: i32) -> i64 {
    if huxi < min_huxi || step <= 0 {
        return 0;
    }
    i64::from((1 + (huxi - base).div_euclid(step)).max(1))
}
