//! The 够级 play checker ([`crate::rules::Ruleset::analyse`]): is this play legal from the hand
//! (the cards held, 憋3 §4.6), does it beat that one (顺牌/上牌 §4.3), is that one a 够级牌 (§4.4)
//! and can the hand burn it (烧牌 §6.1 conditions 4–5, and does this play burn it), with the
//! hand's legal answers (or leads) and its burning plays listed. Everything is the module's own
//! functions: [`check_from_hand`], [`beats`], [`is_gouji`], [`kaidian_eligible`],
//! [`legal_plays`], [`burn_options`].
//!
//! The query's `hand`, `play` and `against` are card strings of §2.3 (`3`–`9 T J Q K A 2 w W`,
//! `10`, the Chinese names; spaces ignored); `play` and `against` are plays (one base rank with
//! 2s and jokers).

use crate::error::Result;
use crate::rules::analysis::{Analysis, Check, Decision, Item, MoveList, Piece, Query, Selection};

use super::card::{self, Counts, N_RANKS, format_counts, format_counts_zh, parse_counts};
use super::play::{
    Play, beats, burn_options, check_from_hand, is_gouji, kaidian_eligible, legal_plays,
};
use super::rules::GoujiRules;

fn cards_list(c: &Counts) -> Vec<String> {
    format_counts(c).chars().map(String::from).collect()
}

/// What a play is: its size, then 够级牌 / 贴钱 / 开点 facts.
pub fn play_label(p: &Play, rules: &GoujiRules) -> String {
    let mut parts = vec![format!("{}张 {} cards", p.total(), p.total())];
    if is_gouji(p, rules) {
        parts.push("够级牌 gouji".into());
    }
    if p.tie_qian() {
        parts.push("贴钱 2s as the base".into());
    }
    if kaidian_eligible(p, rules) {
        parts.push("可开点 may open a point".into());
    }
    parts.join(" · ")
}

fn selection_of_play(p: &Play, rules: &GoujiRules) -> Selection {
    let c = p.counts();
    Selection {
        text: p.cards(),
        cards: cards_list(&c),
        zh: format_counts_zh(&c),
        readings: vec![play_label(p, rules)],
    }
}

fn item(p: &Play, rules: &GoujiRules) -> Item {
    Item {
        text: p.cards(),
        cards: cards_list(&p.counts()),
        label: play_label(p, rules),
    }
}

/// Every piece (rank) with its Chinese name.
pub fn pieces() -> Vec<Piece> {
    (0..N_RANKS)
        .map(|r| Piece {
            name: card::rank_char(r).to_string(),
            zh: card::rank_zh(r).to_string(),
        })
        .collect()
}

/// The words of the decisions without cards: the table's `kind` with the flat id as `value`.
pub fn decisions() -> Vec<Decision> {
    use super::hand::Action as G;
    [
        (G::Pass, "过"),
        (G::Yield, "让牌"),
        (G::Show, "亮牌"),
        (G::NoShow, "不亮"),
        (G::Revolt, "革命"),
        (G::NoRevolt, "不革命"),
        (G::Head(true), "要头"),
        (G::Head(false), "无头"),
        (G::XuanDian(true), "宣点"),
        (G::XuanDian(false), "不宣点"),
    ]
    .into_iter()
    .map(|(g, zh)| Decision {
        kind: super::table::to_table(0, &g).kind.name(),
        value: g.id() as i32,
        zh,
    })
    .collect()
}

/// Answer a query under `rules` (see the module documentation).
pub fn analyse(variant: &str, rules: &GoujiRules, q: &Query) -> Result<Analysis> {
    let hand = parse_counts(&q.hand).map_err(|e| e.context("hand"))?;
    let play = q
        .play()
        .map(|t| Play::parse(t).map_err(|e| e.context("play")))
        .transpose()?;
    let against = q
        .against()
        .map(|t| Play::parse(t).map_err(|e| e.context("against")))
        .transpose()?;
    let held = card::total(&hand) > 0;
    let mut checks = Vec::new();
    if let Some(p) = &play {
        if held {
            let r = check_from_hand(&hand, p, rules.bie_san);
            checks.push(Check {
                id: "legal_from_hand",
                ok: r.is_ok(),
                label: match r {
                    Ok(()) => "可以出 the hand may play it".into(),
                    Err(e) => format!("不能出 not playable: {e}"),
                },
            });
        }
        if let Some(t) = &against {
            let ok = beats(p, t, rules.mixed_jokers);
            checks.push(Check {
                id: "beats",
                ok,
                label: if ok {
                    format!("管得住 beats {}", t.cards())
                } else {
                    format!("管不住 does not beat {}", t.cards())
                },
            });
        }
    }
    let mut lists = Vec::new();
    if let Some(t) = &against {
        let gouji = is_gouji(t, rules);
        checks.push(Check {
            id: "against_is_gouji",
            ok: gouji,
            label: if gouji {
                format!("{} 是够级牌 is a 够级牌: it can be burned", t.cards())
            } else {
                format!("{} 不是够级牌 is not a 够级牌: nobody burns it", t.cards())
            },
        });
        let burns = if gouji {
            burn_options(&hand, t, rules)
        } else {
            Vec::new()
        };
        if held {
            checks.push(Check {
                id: "can_burn",
                ok: !burns.is_empty(),
                label: if burns.is_empty() {
                    "烧不了 the hand cannot burn it".into()
                } else {
                    format!(
                        "能烧 the hand can burn it: {} 种 burning play(s)",
                        burns.len()
                    )
                },
            });
        }
        if let Some(p) = &play {
            if held {
                let ok = burns.contains(p);
                checks.push(Check {
                    id: "play_burns",
                    ok,
                    label: if ok {
                        "这手是烧牌 this play burns it (beats it and the rest goes out with a joker per lead)".into()
                    } else {
                        "这手烧不了 this play does not burn it".into()
                    },
                });
            }
        }
        lists.push(MoveList::of(
            "answers",
            format!("合法应对 plays that beat {}", t.cards()),
            legal_plays(&hand, Some(t), rules),
            |p| item(&p, rules),
        ));
        if gouji {
            lists.push(MoveList::of(
                "burns",
                format!("烧牌 burning plays on {}", t.cards()),
                burns.iter(),
                |p| item(p, rules),
            ));
        }
    } else {
        lists.push(MoveList::of(
            "leads",
            "可出的牌 legal leads",
            legal_plays(&hand, None, rules),
            |p| item(&p, rules),
        ));
    }
    Ok(Analysis {
        variant: variant.to_string(),
        hand: Selection {
            text: format_counts(&hand),
            cards: cards_list(&hand),
            zh: format_counts_zh(&hand),
            readings: Vec::new(),
        },
        play: play.as_ref().map(|p| selection_of_play(p, rules)),
        against: against.as_ref().map(|p| selection_of_play(p, rules)),
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
    fn checks_and_burns_follow_the_module() {
        let rules = GoujiRules::default();
        // A 够级牌 on the table and a hand that beats it with a joker and goes out.
        let a = analyse(
            "gouji",
            &rules,
            &q("W KKKKK 44", Some("WKKKKK"), Some("AAAAA5")),
        );
        // AAAAA5 is two ranks: an error naming `against`.
        let e = a.unwrap_err().to_string();
        assert!(e.contains("against"), "{e}");
        let a = analyse(
            "gouji",
            &rules,
            &q("WKKKKK4", Some("WKKKKK"), Some("wQQQQQ")),
        )
        .unwrap();
        let ids: Vec<(&str, bool)> = a.checks.iter().map(|c| (c.id, c.ok)).collect();
        assert_eq!(
            ids,
            [
                ("legal_from_hand", true),
                ("beats", true),
                ("against_is_gouji", true),
                ("can_burn", true),
                ("play_burns", true)
            ]
        );
        let burns = a.lists.iter().find(|l| l.id == "burns").unwrap();
        assert!(burns.items.iter().any(|i| i.text == "WKKKKK"));
        let answers = a.lists.iter().find(|l| l.id == "answers").unwrap();
        let expect = legal_plays(
            &parse_counts("WKKKKK4").unwrap(),
            Some(&Play::parse("wQQQQQ").unwrap()),
            &rules,
        );
        assert_eq!(answers.total, expect.len());
        assert_eq!(a.pieces[11].zh, "尖");
    }

    #[test]
    fn a_play_not_in_the_hand_is_reported_not_raised() {
        let rules = GoujiRules::default();
        let a = analyse("gouji", &rules, &q("99", Some("999"), Some("888"))).unwrap();
        assert!(
            !a.checks[0].ok && a.checks[0].label.contains("999"),
            "{:?}",
            a.checks
        );
        assert!(a.checks[1].ok);
        assert!(a.lists.iter().all(|l| l.id != "burns") || !a.checks[2].ok);
    }
}
