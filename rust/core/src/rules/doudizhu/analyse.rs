//! The 斗地主 hand analyser ([`crate::rules::Ruleset::analyse`]): the type of a selection (every
//! reading, §6), whether it beats the move on the table (§7), the hand's legal answers to that
//! move — or its leads — and the best split of the hand (the greedy bot's fewest-moves split).
//! Everything is the module's own functions: [`readings`], [`beating_reading`], [`legal_moves`],
//! [`split`].
//!
//! The query's `hand` and `play` are compact card strings (`3456789TJQKA2xX`, spaces ignored);
//! `against` is the move on the table, read as its canonical reading (§6.8) as the table reads it.

use crate::error::{Error, Result};
use crate::rules::analysis::{Analysis, Check, Decision, Item, MoveList, Piece, Query, Selection};

use super::bots::split;
use super::cards::{Cards, N_RANKS, RANK_CODES, RANK_ZH};
use super::movegen::legal_moves;
use super::moves::{Reading, beating_reading, readings};
use super::rules::MoveRules;

fn parse(text: &str, what: &str) -> Result<Cards> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    Cards::parse(&compact).map_err(|e| e.context(what))
}

fn cards_list(c: Cards) -> Vec<String> {
    let mut out = Vec::with_capacity(c.len() as usize);
    for (r, n) in c.iter() {
        for _ in 0..n {
            out.push((RANK_CODES[r as usize] as char).to_string());
        }
    }
    out
}

/// The cards of `p` beyond those of `hand`.
fn missing(p: Cards, hand: Cards) -> Cards {
    let mut c = Cards::default();
    for (r, n) in p.iter() {
        c = c.plus(Cards::of(r, n.saturating_sub(hand.count(r))));
    }
    c
}

/// `对牌 pair · 4`, `单顺 chain · 7 ×5`: the reading in Chinese then English.
pub fn reading_label(r: Reading) -> String {
    let len = if r.kind.is_chain() {
        format!(" ×{}", r.len)
    } else {
        String::new()
    };
    format!(
        "{} {} · {}{len}",
        r.kind.zh(),
        r.kind.name(),
        RANK_ZH[r.main as usize]
    )
}

fn selection(c: Cards, rules: &MoveRules) -> Selection {
    Selection {
        text: c.to_string(),
        cards: cards_list(c),
        zh: c.chinese(),
        readings: readings(c, rules).iter().map(reading_label).collect(),
    }
}

fn item(c: Cards, r: Reading) -> Item {
    Item {
        text: c.to_string(),
        cards: cards_list(c),
        label: reading_label(r),
    }
}

/// Every piece (rank) with its Chinese name.
pub fn pieces() -> Vec<Piece> {
    (0..N_RANKS)
        .map(|r| Piece {
            name: (RANK_CODES[r] as char).to_string(),
            zh: RANK_ZH[r].to_string(),
        })
        .collect()
}

/// The words of the decisions whose `value` says what they are: the bids (`bid` 1–3) and 明牌
/// (`show` 1, `show` 0 declines).
pub fn decisions() -> Vec<Decision> {
    use crate::game::action::ActionKind;
    let bid = |value, zh| Decision {
        kind: ActionKind::Bid.name(),
        value,
        zh,
    };
    let show = |value, zh| Decision {
        kind: ActionKind::Show.name(),
        value,
        zh,
    };
    vec![
        bid(1, "叫1分"),
        bid(2, "叫2分"),
        bid(3, "叫3分"),
        show(1, "明牌"),
        show(0, "不明牌"),
    ]
}

/// Answer a query under `rules` (see the module documentation).
pub fn analyse(variant: &str, rules: &MoveRules, q: &Query) -> Result<Analysis> {
    let hand = parse(&q.hand, "hand")?;
    let play = q.play().map(|t| parse(t, "play")).transpose()?;
    let against = q.against().map(|t| parse(t, "against")).transpose()?;
    let target = match against {
        None => None,
        Some(a) => Some(readings(a, rules).canonical().ok_or_else(|| {
            Error::hand(format!(
                "against: {a} is not a 斗地主 move (no card type reads it); write the move on \
                 the table, e.g. 33 or 34567"
            ))
        })?),
    };
    let mut checks = Vec::new();
    if let Some(p) = play {
        let rs = readings(p, rules);
        checks.push(Check {
            id: "is_move",
            ok: !rs.is_empty(),
            label: match rs.canonical() {
                Some(r) => format!("是合法牌型 a card type: {}", reading_label(r)),
                None => "不成牌型 not a card type".into(),
            },
        });
        if !hand.is_empty() {
            let ok = p.is_subset(hand);
            checks.push(Check {
                id: "in_hand",
                ok,
                label: if ok {
                    "手中有这些牌 the cards are in the hand".into()
                } else {
                    format!("手中没有 not in the hand: {}", missing(p, hand))
                },
            });
        }
        if let Some(t) = target {
            let b = beating_reading(p, t, rules);
            checks.push(Check {
                id: "beats",
                ok: b.is_some(),
                label: match b {
                    Some(r) => format!("压得住 beats {}: {}", reading_label(t), reading_label(r)),
                    None => format!("压不住 does not beat {}", reading_label(t)),
                },
            });
        }
    }
    let mut lists = Vec::new();
    let moves = legal_moves(hand, rules, target);
    lists.push(match target {
        Some(t) => MoveList::of(
            "answers",
            format!("合法应对 legal answers to {}", reading_label(t)),
            moves,
            |(c, r)| item(c, r),
        ),
        None => MoveList::of("leads", "可出的牌 legal leads", moves, |(c, r)| {
            item(c, r)
        }),
    });
    let sp = split(hand, rules);
    lists.push(MoveList::of(
        "split",
        format!("最少手数拆牌 best split: {} 手 moves", sp.len()),
        sp,
        |(c, r)| item(c, r),
    ));
    Ok(Analysis {
        variant: variant.to_string(),
        hand: selection(hand, rules),
        play: play.map(|p| selection(p, rules)),
        against: against.map(|a| selection(a, rules)),
        checks,
        lists,
        pieces: pieces(),
        decisions: decisions(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(hand: &str, play: Option<&str>, against: Option<&str>) -> Query {
        Query {
            hand: hand.into(),
            play: play.map(Into::into),
            against: against.map(Into::into),
        }
    }

    #[test]
    fn answers_are_the_legal_moves_that_beat_the_move() {
        let rules = MoveRules::default();
        let a = analyse(
            "doudizhu_qq",
            &rules,
            &q("3344556677xX", Some("55"), Some("44")),
        )
        .unwrap();
        let answers = &a.lists[0];
        assert_eq!(answers.id, "answers");
        let texts: Vec<&str> = answers.items.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(texts, ["55", "66", "77", "xX"]);
        assert!(a.checks.iter().all(|c| c.ok), "{:?}", a.checks);
        assert_eq!(a.play.as_ref().unwrap().readings, ["对牌 pair · 5"]);
        assert_eq!(a.hand.cards.len(), 12);
        assert_eq!(a.pieces[14].zh, "大王");
        // the split covers the hand
        let split = &a.lists[1];
        let n: usize = split.items.iter().map(|i| i.cards.len()).sum();
        assert_eq!(n, 12);
    }

    #[test]
    fn a_selection_that_is_no_move_and_bad_input() {
        let rules = MoveRules::default();
        let a = analyse("doudizhu_qq", &rules, &q("3345", Some("34"), None)).unwrap();
        assert!(!a.checks[0].ok);
        assert_eq!(a.lists[0].id, "leads");
        let e = analyse("doudizhu_qq", &rules, &q("33", None, Some("34"))).unwrap_err();
        assert!(e.to_string().contains("against"), "{e}");
        let e = analyse("doudizhu_qq", &rules, &q("3z", None, None)).unwrap_err();
        assert!(e.to_string().contains("hand"), "{e}");
    }
}
