//! Groups (组) of 字牌 and the declared melds a hand can carry.

use serde::Serialize;

use crate::error::{Error, Result};

use super::card::Card;

/// Every group kind of zipai.md §4. The 胡息 of each is preset data (`[params.huxi]`, key = `id()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupKind {
    /// 顺子 other than 一二三 (same size).
    Shunzi,
    /// 一二三 / 壹贰叁.
    YiErSan,
    /// 二七十 / 贰柒拾.
    ErQiShi,
    /// 大小三搭 (绞): same rank, 2+1 across sizes.
    Jiao,
    /// 坎: dealt triplet.
    Kan,
    /// 扫 (Hunan 偎): concealed pair + own draw.
    Sao,
    /// 过扫 (Hunan 臭偎).
    GuoSao,
    /// 碰.
    Peng,
    /// 开舵 (Hunan 跑).
    KaiDuo,
    /// 扫穿 (Hunan 提).
    SaoChuan,
    /// 将: the pair after 开舵/扫穿.
    Pair,
    /// Triplet completed in hand by another player's winning card (valued as 碰).
    WinTriplet,
    /// Same, when the player had passed a 碰 of that card (过碰牌不算胡息).
    GuoPeng,
}

impl GroupKind {
    pub const COUNT: usize = 13;
    pub const ALL: [GroupKind; GroupKind::COUNT] = [
        GroupKind::Shunzi,
        GroupKind::YiErSan,
        GroupKind::ErQiShi,
        GroupKind::Jiao,
        GroupKind::Kan,
        GroupKind::Sao,
        GroupKind::GuoSao,
        GroupKind::Peng,
        GroupKind::KaiDuo,
        GroupKind::SaoChuan,
        GroupKind::Pair,
        GroupKind::WinTriplet,
        GroupKind::GuoPeng,
    ];

    /// Key in `[params.huxi]` and in results.
    pub fn id(self) -> &'static str {
        match self {
            GroupKind::Shunzi => "shunzi",
            GroupKind::YiErSan => "yiersan",
            GroupKind::ErQiShi => "erqishi",
            GroupKind::Jiao => "jiao",
            GroupKind::Kan => "kan",
            GroupKind::Sao => "sao",
            GroupKind::GuoSao => "guosao",
            GroupKind::Peng => "peng",
            GroupKind::KaiDuo => "kaiduo",
            GroupKind::SaoChuan => "saochuan",
            GroupKind::Pair => "pair",
            GroupKind::WinTriplet => "win_triplet",
            GroupKind::GuoPeng => "guopeng",
        }
    }

    /// Chinese name under the Guangxi or the Hunan naming.
    pub fn zh(self, hunan: bool) -> &'static str {
        match (self, hunan) {
            (GroupKind::Shunzi, _) => "顺子",
            (GroupKind::YiErSan, _) => "一二三",
            (GroupKind::ErQiShi, _) => "二七十",
            (GroupKind::Jiao, _) => "大小三搭",
            (GroupKind::Kan, _) => "坎",
            (GroupKind::Sao, false) => "扫",
            (GroupKind::Sao, true) => "偎",
            (GroupKind::GuoSao, false) => "过扫",
            (GroupKind::GuoSao, true) => "臭偎",
            (GroupKind::Peng, _) => "碰",
            (GroupKind::KaiDuo, false) => "开舵",
            (GroupKind::KaiDuo, true) => "跑",
            (GroupKind::SaoChuan, false) => "扫穿",
            (GroupKind::SaoChuan, true) => "提",
            (GroupKind::Pair, _) => "将",
            (GroupKind::WinTriplet, _) => "胡牌成刻",
            (GroupKind::GuoPeng, _) => "过碰",
        }
    }

    /// A 吃-type shape (sequence, 一二三, 二七十, 大小三搭): matters for 对胡.
    pub fn is_chi_type(self) -> bool {
        matches!(
            self,
            GroupKind::Shunzi | GroupKind::YiErSan | GroupKind::ErQiShi | GroupKind::Jiao
        )
    }

    /// 开舵/跑 or 扫穿/提.
    pub fn is_four(self) -> bool {
        matches!(self, GroupKind::KaiDuo | GroupKind::SaoChuan)
    }
}

/// Classify three cards as a 吃-type shape, if they form one.
pub fn chi_shape(cards: &[Card]) -> Option<GroupKind> {
    let mut c = [
        cards.first()?.index(),
        cards.get(1)?.index(),
        cards.get(2)?.index(),
    ];
    if cards.len() != 3 {
        return None;
    }
    c.sort_unstable();
    let a = Card::new_unchecked(c[0]);
    let b = Card::new_unchecked(c[1]);
    let d = Card::new_unchecked(c[2]);
    if a.is_big() == b.is_big() && b.is_big() == d.is_big() {
        let r = [a.rank(), b.rank(), d.rank()];
        if r == [1, 2, 3] {
            return Some(GroupKind::YiErSan);
        }
        if r == [2, 7, 10] {
            return Some(GroupKind::ErQiShi);
        }
        if r[1] == r[0] + 1 && r[2] == r[1] + 1 {
            return Some(GroupKind::Shunzi);
        }
        return None;
    }
    let same_rank = a.rank() == b.rank() && b.rank() == d.rank();
    // 2+1 across sizes (all three identical was excluded above).
    same_rank.then_some(GroupKind::Jiao)
}

/// One group of a decomposition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    pub kind: GroupKind,
    pub cards: Vec<Card>,
    /// Shown on the table (吃/比, 碰, 开舵; 过扫 shows one card but counts as not exposed).
    pub exposed: bool,
    /// Holds the winning card.
    pub has_win_card: bool,
    pub huxi: i32,
    /// The cards of `cards` that are jokers (王) standing for them (switch `jokers`).
    pub jokers: Vec<Card>,
}

impl Group {
    /// The card whose size sets the value (the doubled card of a 大小三搭, else the lowest).
    pub fn value_big(&self) -> bool {
        if self.kind == GroupKind::Jiao {
            let bigs = self.cards.iter().filter(|c| c.is_big()).count();
            bigs >= 2
        } else {
            self.cards.first().is_some_and(|c| c.is_big())
        }
    }
}

/// Type of a declared meld (a group already fixed before the win).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeldType {
    /// 吃 or 比 (exposed 吃-type group).
    Chi,
    Peng,
    /// 扫 / 偎 (concealed).
    Sao,
    /// 过扫 / 臭偎.
    GuoSao,
    /// 开舵 / 跑 (exposed four).
    KaiDuo,
    /// 扫穿 / 提 (concealed four).
    SaoChuan,
    /// 坎 declared explicitly (three identical dealt cards kept in hand).
    Kan,
}

impl MeldType {
    /// Accepts the Guangxi and Hunan names (and Chinese).
    pub fn parse(s: &str) -> Result<MeldType> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "chi" | "bi" | "吃" | "比" => MeldType::Chi,
            "peng" | "碰" => MeldType::Peng,
            "wei" | "sao" | "偎" | "扫" => MeldType::Sao,
            "chouwei" | "guosao" | "臭偎" | "过扫" => MeldType::GuoSao,
            "pao" | "kaiduo" | "跑" | "开舵" => MeldType::KaiDuo,
            "ti" | "saochuan" | "提" | "扫穿" => MeldType::SaoChuan,
            "kan" | "坎" => MeldType::Kan,
            other => {
                return Err(Error::hand(format!(
                    "unknown meld type {other:?}; expected chi, peng, wei/sao, chouwei/guosao, pao/kaiduo, ti/saochuan or kan"
                )));
            }
        })
    }
}

/// A declared meld: type + cards, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meld {
    pub ty: MeldType,
    pub cards: Vec<Card>,
    /// Group kind it scores as.
    pub kind: GroupKind,
}

impl Meld {
    pub fn new(ty: MeldType, mut cards: Vec<Card>) -> Result<Meld> {
        cards.sort();
        let desc = super::card::format_cards(&cards, false);
        let same = |n: usize| cards.len() == n && cards.iter().all(|&c| c == cards[0]);
        let kind = match ty {
            MeldType::Chi => chi_shape(&cards)
                .filter(|_| cards.len() == 3)
                .ok_or_else(|| {
                    Error::hand(format!(
                        "chi meld [{desc}] is not a sequence, 一二三, 二七十 or 大小三搭 of 3 cards"
                    ))
                })?,
            MeldType::Peng | MeldType::Sao | MeldType::GuoSao | MeldType::Kan => {
                if !same(3) {
                    return Err(Error::hand(format!(
                        "meld [{desc}] must be 3 identical cards"
                    )));
                }
                match ty {
                    MeldType::Peng => GroupKind::Peng,
                    MeldType::Sao => GroupKind::Sao,
                    MeldType::GuoSao => GroupKind::GuoSao,
                    _ => GroupKind::Kan,
                }
            }
            MeldType::KaiDuo | MeldType::SaoChuan => {
                if !same(4) {
                    return Err(Error::hand(format!(
                        "meld [{desc}] must be 4 identical cards"
                    )));
                }
                if ty == MeldType::KaiDuo {
                    GroupKind::KaiDuo
                } else {
                    GroupKind::SaoChuan
                }
            }
        };
        Ok(Meld { ty, cards, kind })
    }

    pub fn exposed(&self) -> bool {
        matches!(self.ty, MeldType::Chi | MeldType::Peng | MeldType::KaiDuo)
    }
}
