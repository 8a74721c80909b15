//! Scoring of a 字牌 win: 胡息 → 舵/囤, win multipliers, 名堂 (Hunan), 醒, per-payer amount and the
//! zero-sum payment list (zipai.md §7, §9).

use serde::Serialize;

use crate::error::{Error, Result};

use super::card::{Card, CardCounts, N_CARDS};
use super::decompose::{Decomposition, HandSpec, WinSource, candidates};
use super::group::{Group, GroupKind};
use super::rules::{DiscardPayment, Xing, Zimo, ZipaiRules};

/// How the hand was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WinType {
    /// 自摸: the winner's own draw.
    SelfDraw,
    /// Another player's drawn card (翻牌胡).
    OtherDraw,
    /// 点炮: a discard.
    Discard,
    /// 天胡: the dealer's dealt hand.
    Tianhu,
    /// 地胡: a non-dealer wins on the dealer's first discard.
    Dihu,
    /// 三龙五坎 (switch `sanlong_wukan`): 3 dealt fours or 5 dealt triplets, any seat, at once.
    Sanlong,
}

impl WinType {
    pub fn parse(s: &str) -> Result<WinType> {
        Ok(match s {
            "self_draw" | "zimo" | "自摸" => WinType::SelfDraw,
            "other_draw" | "draw" | "翻牌" => WinType::OtherDraw,
            "discard" | "dianpao" | "点炮" => WinType::Discard,
            "tianhu" | "天胡" => WinType::Tianhu,
            "dihu" | "地胡" => WinType::Dihu,
            "sanlong" | "sanlong_wukan" | "三龙五坎" => WinType::Sanlong,
            other => {
                return Err(Error::hand(format!(
                    "unknown win_type {other:?}; expected self_draw, other_draw, discard, tianhu, dihu or sanlong"
                )));
            }
        })
    }
    pub fn source(self) -> WinSource {
        match self {
            WinType::SelfDraw => WinSource::SelfDraw,
            WinType::OtherDraw => WinSource::OtherDraw,
            WinType::Discard | WinType::Dihu => WinSource::Discard,
            WinType::Tianhu | WinType::Sanlong => WinSource::Deal,
        }
    }
}

/// The situation of a win.
#[derive(Clone, Debug)]
pub struct ZipaiSituation {
    pub hand: HandSpec,
    pub win_type: WinType,
    /// 海底胡: the winning card is the last wall card (no 翻醒).
    pub haidi: bool,
    pub players: u8,
    pub seat: u8,
    pub dealer: u8,
    /// Seat of the discarder (discard / 地胡); default: the winner's 上家 (地胡: the dealer).
    pub discarder: Option<u8>,
    /// Wall cards turned for 翻醒, in order (only as many as needed are used).
    pub flips: Vec<Card>,
    /// 难度 override (default: the `difficulty` switch).
    pub difficulty: Option<i64>,
}

/// One zero-sum transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Payment {
    pub from: u8,
    pub to: u8,
    pub amount: i64,
}

/// A named 名堂 with its fan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MingtangHit {
    pub id: &'static str,
    pub name: &'static str,
    pub fan: i64,
}

/// A multiplier that applied (自摸, 海底, 天胡, 地胡).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Factor {
    pub name: &'static str,
    pub value: i64,
}

/// Result of [`score`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ZipaiScore {
    /// Complete hand reaching the minimum 胡息.
    pub is_win: bool,
    /// Complete hand (whatever its 胡息).
    pub complete: bool,
    pub huxi: i32,
    pub min_huxi: i32,
    /// 舵 (Guangxi) / 囤 (Hunan), including a 自摸 +1 囤.
    pub duo: i64,
    pub factors: Vec<Factor>,
    /// The win multiplier m.
    pub multiplier: i64,
    pub mingtang: Vec<MingtangHit>,
    /// 名堂 fan (1 without 名堂).
    pub fan: i64,
    /// 醒 cards in the order they were determined.
    pub xing_cards: Vec<Card>,
    /// Flipped cards used.
    pub flips_used: Vec<Card>,
    pub xing: i64,
    pub difficulty: i64,
    /// 胡牌分数 = 舵 × m × fan × 难度.
    pub hu_score: i64,
    /// 翻醒分数 = 难度 × 醒 (or the part 醒 adds inside the multiplier).
    pub xing_score: i64,
    pub amount_per_payer: i64,
    pub payments: Vec<Payment>,
    /// Net result per seat (sums to 0).
    pub net: Vec<i64>,
    pub decomposition: Option<Decomposition>,
}

fn mingtang(r: &ZipaiRules, sit: &ZipaiSituation, d: &Decomposition) -> Vec<MingtangHit> {
    let Some(m) = &r.mingtang else {
        return Vec::new();
    };
    let cards: Vec<Card> = d
        .groups
        .iter()
        .flat_map(|g| g.cards.iter().copied())
        .collect();
    let red = cards.iter().filter(|c| c.is_red()).count() as u32;
    let big = cards.iter().filter(|c| c.is_big()).count() as u32;
    let small = cards.len() as u32 - big;
    let mut out = Vec::new();
    let mut hit = |id, name, fan| out.push(MingtangHit { id, name, fan });
    if red >= m.hong_min_red {
        hit("HONG_HU", "红胡", m.hong + i64::from(red - m.hong_min_red));
    }
    if red == 0 {
        hit("HEI_HU", "黑胡", m.hei);
    }
    if red == 1 {
        hit("DIAN_HU", "点胡", m.dian);
    }
    if d.no_chi() {
        hit("DUI_HU", "对胡", m.dui);
    }
    if big >= m.da_min_big {
        hit("DA_HU", "大胡", m.da + i64::from(big - m.da_min_big));
    }
    if small >= m.xiao_min_small {
        hit(
            "XIAO_HU",
            "小胡",
            m.xiao + i64::from(small - m.xiao_min_small),
        );
    }
    for rank in 1..=10u8 {
        let four = |big: bool| {
            d.groups
                .iter()
                .any(|g| g.kind.is_four() && g.cards[0] == Card::new(big, rank).expect("rank"))
        };
        if four(false) && four(true) {
            hit("TUAN_HU", "团胡", m.tuan);
        }
    }
    if sit.hand.concealed.len() + usize::from(sit.hand.jokers) == 1 && sit.hand.win.is_some() {
        hit("SHUA_HOU", "耍猴", m.shuahou);
    }
    out
}

/// Copies of `card` the winner owns (jokers never count: they are not that card).
fn count_owned(r: &ZipaiRules, sit: &ZipaiSituation, card: Card) -> i64 {
    let h = &sit.hand;
    let mut n =
        h.concealed.iter().filter(|&&c| c == card).count() + usize::from(h.win == Some(card));
    for m in &h.melds {
        if r.xing_all_cards || !m.exposed() {
            n += m.cards.iter().filter(|&&c| c == card).count();
        }
    }
    n as i64
}

fn xing(r: &ZipaiRules, sit: &ZipaiSituation) -> (Vec<Card>, Vec<Card>, i64) {
    let mut cards = Vec::new();
    let mut used = Vec::new();
    let mut total = 0;
    match r.xing {
        Xing::None => {}
        Xing::Gen => {
            if let Some(w) = sit.hand.win {
                let c = w.shifted(r.xing_offset);
                cards.push(c);
                total = count_owned(r, sit, c);
            }
        }
        Xing::Sui => {
            if let Some(w) = sit.hand.win {
                cards.push(w);
                total = count_owned(r, sit, w);
            }
        }
        Xing::Fan | Xing::Double => {
            if !sit.haidi {
                for &f in &sit.flips {
                    let c = f.shifted(r.xing_offset);
                    used.push(f);
                    cards.push(c);
                    let n = count_owned(r, sit, c);
                    total += n;
                    if n < 4 {
                        break;
                    }
                }
            }
            if r.xing == Xing::Double {
                total *= 2;
            }
        }
    }
    (cards, used, total)
}

fn factors(r: &ZipaiRules, sit: &ZipaiSituation) -> (Vec<Factor>, i64) {
    let mut f = Vec::new();
    if sit.win_type == WinType::SelfDraw && r.zimo == Zimo::X2 {
        f.push(Factor {
            name: "自摸",
            value: 2,
        });
    }
    if sit.haidi {
        f.push(Factor {
            name: "海底胡",
            value: r.haidi_mult,
        });
    }
    if sit.win_type == WinType::Sanlong {
        f.push(Factor {
            name: "三龙五坎",
            value: r.tianhu_mult,
        });
    }
    if sit.win_type == WinType::Tianhu {
        f.push(Factor {
            name: "天胡",
            value: r.tianhu_mult,
        });
    }
    if sit.win_type == WinType::Dihu {
        f.push(Factor {
            name: "地胡",
            value: r.dihu_mult,
        });
    }
    let m = if r.stack_mult {
        f.iter().map(|x| x.value).product::<i64>()
    } else {
        f.iter().map(|x| x.value).max().unwrap_or(1)
    };
    (f, m.max(1))
}

fn check_seats(sit: &ZipaiSituation) -> Result<Option<u8>> {
    let n = sit.players;
    if !(2..=4).contains(&n) {
        return Err(Error::hand(format!("players must be 2..4, got {n}")));
    }
    if sit.seat >= n || sit.dealer >= n {
        return Err(Error::hand(format!(
            "seat {} / dealer {} out of range for {n} players",
            sit.seat, sit.dealer
        )));
    }
    match sit.win_type {
        WinType::Tianhu if sit.seat != sit.dealer => {
            return Err(Error::hand(
                "天胡 (tianhu) is a win by the dealer: seat must equal dealer",
            ));
        }
        WinType::Dihu if sit.seat == sit.dealer => {
            return Err(Error::hand(
                "地胡 (dihu) is a win by a non-dealer: seat must differ from dealer",
            ));
        }
        _ => {}
    }
    let discarder = match sit.win_type {
        WinType::Discard => Some(sit.discarder.unwrap_or((sit.seat + n - 1) % n)),
        WinType::Dihu => Some(sit.discarder.unwrap_or(sit.dealer)),
        _ => None,
    };
    if let Some(d) = discarder {
        if d >= n || d == sit.seat {
            return Err(Error::hand(format!(
                "discarder {d} must be another seat in 0..{n}"
            )));
        }
        if sit.win_type == WinType::Dihu && d != sit.dealer {
            return Err(Error::hand("地胡: the discarder is the dealer"));
        }
    }
    Ok(discarder)
}

/// Score one win: the decomposition maximising the amount (Guangxi: 胡息; Hunan: fan × 囤) among
/// all splits reaching the minimum 胡息, the 醒, the per-payer amount and the payments.
pub fn score(r: &ZipaiRules, sit: &ZipaiSituation) -> Result<ZipaiScore> {
    let discarder = check_seats(sit)?;
    let mut hand = sit.hand.clone();
    hand.source = Some(sit.win_type.source());
    let sit = &ZipaiSituation {
        hand,
        ..sit.clone()
    };
    let difficulty = sit.difficulty.unwrap_or(r.difficulty);
    if difficulty < 1 {
        return Err(Error::hand(format!(
            "difficulty must be >= 1, got {difficulty}"
        )));
    }
    let cands = if sit.win_type == WinType::Sanlong {
        vec![sanlong(r, &sit.hand)?]
    } else {
        candidates(r, &sit.hand, r.mingtang.is_some())?
    };
    let complete = !cands.is_empty();
    let (factors, m) = factors(r, sit);
    let (xing_cards, flips_used, xing) = xing(r, sit);
    let plus_tun = i64::from(sit.win_type == WinType::SelfDraw && r.zimo == Zimo::PlusOneTun);
    // (amount, huxi, decomposition, 名堂, fan, duo, hu_score, xing_score)
    type Eval = (
        i64,
        i32,
        Decomposition,
        Vec<MingtangHit>,
        i64,
        i64,
        i64,
        i64,
    );
    let mut best: Option<Eval> = None;
    let mut best_incomplete: Option<Decomposition> = None;
    for d in cands {
        if d.huxi < r.min_huxi {
            if best_incomplete.as_ref().is_none_or(|b| d.huxi > b.huxi) {
                best_incomplete = Some(d);
            }
            continue;
        }
        let mt = mingtang(r, sit, &d);
        let fan = if mt.is_empty() {
            1
        } else {
            mt.iter().map(|x| x.fan).sum()
        };
        let duo = r.duo(d.huxi) + plus_tun;
        let hu = duo * m * fan * difficulty;
        let amount = if r.xing_in_multiplier {
            (duo + xing) * m * fan * difficulty
        } else {
            hu + xing * difficulty
        };
        let better = best
            .as_ref()
            .is_none_or(|b| amount > b.0 || (amount == b.0 && d.huxi > b.1));
        if better {
            best = Some((amount, d.huxi, d, mt, fan, duo, hu, amount - hu));
        }
    }
    let n = usize::from(sit.players);
    let mut net = vec![0i64; n];
    let mut payments = Vec::new();
    let Some((amount, huxi, d, mt, fan, duo, hu, xs)) = best else {
        let huxi = best_incomplete.as_ref().map_or(0, |d| d.huxi);
        return Ok(ZipaiScore {
            is_win: false,
            complete,
            huxi,
            min_huxi: r.min_huxi,
            duo: 0,
            factors: Vec::new(),
            multiplier: 1,
            mingtang: Vec::new(),
            fan: 1,
            xing_cards: Vec::new(),
            flips_used: Vec::new(),
            xing: 0,
            difficulty,
            hu_score: 0,
            xing_score: 0,
            amount_per_payer: 0,
            payments,
            net,
            decomposition: best_incomplete,
        });
    };
    let others = (0..sit.players).filter(|&p| p != sit.seat);
    let mut pay = |from: u8, amt: i64| {
        if amt != 0 {
            payments.push(Payment {
                from,
                to: sit.seat,
                amount: amt,
            });
            net[usize::from(from)] -= amt;
            net[usize::from(sit.seat)] += amt;
        }
    };
    match (sit.win_type, discarder) {
        (WinType::Discard, Some(dz)) => match r.discard_payment {
            DiscardPayment::DiscarderPaysAll => pay(dz, amount * (i64::from(sit.players) - 1)),
            DiscardPayment::DiscarderOnly => pay(dz, amount),
            DiscardPayment::AllPay => others.for_each(|p| pay(p, amount)),
        },
        _ => others.for_each(|p| pay(p, amount)),
    }
    Ok(ZipaiScore {
        is_win: true,
        complete,
        huxi,
        min_huxi: r.min_huxi,
        duo,
        factors,
        multiplier: m,
        mingtang: mt,
        fan,
        xing_cards,
        flips_used,
        xing,
        difficulty,
        hu_score: hu,
        xing_score: xs,
        amount_per_payer: amount,
        payments,
        net,
        decomposition: Some(d),
    })
}

/// Whether dealt cards (counts, jokers not included) make 三龙五坎: 3 fours or 5 triplets (a four
/// holds a triplet and counts toward the five).
pub fn is_sanlong_wukan(counts: &CardCounts) -> bool {
    counts.iter().filter(|&&n| n == 4).count() >= 3
        || counts.iter().filter(|&&n| n >= 3).count() >= 5
}

/// The 三龙五坎 reading of a dealt hand: its 扫穿 and 坎 as groups (the other cards need not
/// split); 胡息 = theirs, raised to `min_huxi` so the win is worth at least one 舵.
fn sanlong(r: &ZipaiRules, hand: &HandSpec) -> Result<Decomposition> {
    if !r.sanlong_wukan {
        return Err(Error::hand(
            "三龙五坎 (win_type sanlong) needs the switch sanlong_wukan = true",
        ));
    }
    hand.validate()?;
    let mut counts: CardCounts = [0; N_CARDS];
    for c in hand.concealed.iter().chain(hand.win.iter()) {
        counts[usize::from(c.index())] += 1;
    }
    if !hand.melds.is_empty() || !is_sanlong_wukan(&counts) {
        return Err(Error::hand(
            "三龙五坎 needs 3 dealt fours or 5 dealt triplets among the concealed cards and no melds",
        ));
    }
    let mut groups = Vec::new();
    for (i, &n) in counts.iter().enumerate() {
        let card = Card::from_index(i as u8).expect("index");
        let kind = match n {
            4 => GroupKind::SaoChuan,
            3 => GroupKind::Kan,
            _ => continue,
        };
        groups.push(Group {
            kind,
            cards: vec![card; usize::from(n)],
            exposed: false,
            has_win_card: false,
            huxi: r.value(kind, card.is_big()),
            jokers: Vec::new(),
        });
    }
    let huxi = groups.iter().map(|g| g.huxi).sum::<i32>().max(r.min_huxi);
    Ok(Decomposition {
        groups,
        huxi,
        kaiduo_by_win: false,
    })
}

/// 胡息 of a single group kind (for tables and the flow engine).
pub fn group_huxi(r: &ZipaiRules, kind: GroupKind, big: bool) -> i32 {
    r.value(kind, big)
}
