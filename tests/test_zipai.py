"""字牌: cards, decomposition, win detection, waits, scoring, batch, CLI (shared/rules/zipai.md)."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hupai
from hupai import zipai
from hupai.cli import main as cli_main
from tests.zipai_reference import Rules, reference_splits

REPO = Path(__file__).resolve().parents[1]


class View:
    """A 字牌 ``hupai.Score`` under the spec's names: 胡息 ``huxi`` (the total), ``is_win``
    (``meets_minimum``), ``amount_per_payer``, the 名堂 and win factors (fans ``add`` / ``mul``),
    the split, and the extras (舵 ``duo``, ``multiplier``, ``fan``, ``xing`` …)."""

    def __init__(self, s: hupai.Score) -> None:
        self.score = s
        self.flat: dict[str, Any] = {
            **s.extras,
            "is_win": s.meets_minimum,
            "huxi": s.total,
            "amount_per_payer": s.per_payer,
            "net": s.net,
            "payments": s.payments,
            "mingtang": [{"id": f.id, "name": f.zh, "fan": f.value} for f in s.fans if f.op == "add"],
            "factors": [{"name": f.zh, "value": f.value} for f in s.fans if f.op == "mul"],
        }
        self.decomposition = zipai.split(s)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.flat[name]
        except KeyError:
            raise AttributeError(name) from None

    def to_dict(self) -> dict[str, Any]:
        return self.flat


def zscore(situation: dict[str, Any], variant: Any = "zipai_guilin") -> View:
    return View(zipai.score(situation, variant))


def shared_dir() -> Path:
    env = os.environ.get("HUPAI_SHARED")
    path = Path(env) if env else REPO.parent / "shared"
    if not (path / "rules" / "zipai.md").is_file():
        pytest.fail(f"shared/ not found at {path} (set HUPAI_SHARED to the shared directory)")
    return path


def zp_cases() -> dict[str, dict[str, Any]]:
    out = {}
    for line in (shared_dir() / "cases" / "variants_ref.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            case = json.loads(line)
            if case["id"].startswith("ZP-"):
                out[case["id"]] = case
    return out


# --------------------------------------------------------------------------- cards


def test_cards_parse_format_and_value_semantics() -> None:
    cs = zipai.parse_cards("x2x7x10 壹贰叁, D10")
    assert [c.code for c in cs] == ["x2", "x7", "x10", "d1", "d2", "d3", "d10"]
    assert zipai.format_cards("拾x1d1十") == "x1 x10 d1 d10"
    assert zipai.format_cards("x1 x10 d1 d10", chinese=True) == "一十壹拾"
    c = zipai.Card("柒")
    assert (c.code, c.rank, c.size, c.is_big, c.is_red, c.chinese, c.index) == ("d7", 7, "big", True, True, "柒", 16)
    assert str(c) == "d7" and repr(c) == "Card('d7')"
    assert pickle.loads(pickle.dumps(c)) == c and hash(c) == hash(zipai.Card("d7"))
    assert sorted(zipai.parse_cards("d1 x10 x1")) == zipai.parse_cards("x1 x10 d1")
    assert zipai.Card.from_index(19) == zipai.Card("d10")
    assert sum(1 for i in range(20) if zipai.Card.from_index(i).is_red) == 6
    counts = zipai.to_counts("x1x1 d10")
    assert len(counts) == 20 and counts[0] == 2 and counts[19] == 1
    assert zipai.from_counts(counts) == zipai.parse_cards("x1x1d10")


@pytest.mark.parametrize("text", ["y1", "x0", "x11", "d", "K", "王", "x1?"])
def test_bad_card_text(text: str) -> None:
    with pytest.raises(hupai.InvalidTileError):
        zipai.parse_cards(text)


def test_three_dealt_fours_and_a_pao_make_a_24_card_hand() -> None:
    # 21 cards plus one per four of a kind after the first: three 扫穿 dealt and one 跑 allow 24
    # (the validation used to count at most two dealt fours; a dealt hand with three raised).
    hand = "x1x1x1x1x2x2x2x2x3x3x3x3d1d2d3x7x8x9d9"
    assert zipai.huxi(hand, win_card="d9", melds=["pao:d7d7d7d7"]) == 42
    with pytest.raises(hupai.InvalidHandError, match="at most 24"):
        zipai.huxi(hand + "d4", win_card="d9", melds=["pao:d7d7d7d7"])


def test_typed_errors() -> None:
    with pytest.raises(hupai.InvalidHandError, match="more than 4 copies"):
        zipai.to_counts("x1x1x1x1x1")
    with pytest.raises(hupai.InvalidHandError, match="more than 4 copies"):
        zipai.huxi("x1x1x1", win_card="x1", melds=["peng:x1x1x1"])
    with pytest.raises(hupai.InvalidHandError, match="wrong hand size"):
        zipai.huxi("x1x2x3x4x5x6x7x8x9x10" * 2 + "d1d2d3d4", win_card="x5")
    with pytest.raises(hupai.InvalidHandError, match="winning card is required"):
        zipai.huxi("x1x2x3", win_type="discard")
    with pytest.raises(hupai.InvalidHandError, match="unknown meld type"):
        zipai.huxi("x1x2", win_card="x3", melds=["gang:x4x4x4"])
    with pytest.raises(hupai.InvalidHandError, match="not a sequence"):
        zipai.huxi("x1x2", win_card="x3", melds=["chi:x4x5x7"])
    with pytest.raises(hupai.InvalidHandError, match="4 identical"):
        zipai.huxi("x1x2", win_card="x3", melds=["ti:x4x4x4"])
    with pytest.raises(hupai.InvalidHandError, match="unknown win_type"):
        zipai.huxi("x1x2", win_card="x3", win_type="robbed")
    with pytest.raises(hupai.InvalidHandError, match="unknown situation key"):
        zscore({"concealed": "x1x2", "win_card": "x3", "colour": 1})
    with pytest.raises(hupai.InvalidHandError, match="seat must equal dealer"):
        zscore({"concealed": "x1x2x3", "win_type": "tianhu", "seat": 1})
    with pytest.raises(hupai.InvalidHandError, match="discarder"):
        zscore({"concealed": "x1x2", "win_card": "x3", "seat": 1, "discarder": 1})
    with pytest.raises(hupai.RuleConfigError, match="not a 字牌 preset"):
        zipai.huxi("x1x2", win_card="x3", variant="mcr")
    with pytest.raises(hupai.RuleConfigError, match="jokers"):
        hupai.Variant("zipai_guilin", jokers=5)
    with pytest.raises(hupai.InvalidHandError, match="switch jokers"):
        zipai.huxi("x1x2 K", win_card="x3")  # the default variant has no jokers
    with pytest.raises(hupai.InvalidHandError, match="at most 4"):
        zipai.huxi(["K"] * 5, win_card="x3", variant=hupai.Variant("zipai_guilin", jokers=4))
    with pytest.raises(hupai.InvalidTileError, match="joker"):
        zipai.claims("x1x2", "K")  # a joker is never a claimed card
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("zipai_guilin", xing="sideways")
    with pytest.raises(hupai.InvalidHandError, match=r"shape \(N, 20\)"):
        zipai.batch_huxi(np.zeros((2, 19), dtype=np.uint8))
    with pytest.raises(hupai.InvalidHandError, match="more than 4"):
        zipai.batch_huxi(np.full((1, 20), 5, dtype=np.uint8))
    with pytest.raises(hupai.InvalidHandError, match="0..=4"):
        zipai.batch_huxi(np.full((1, 20), -1))
    with pytest.raises(hupai.InvalidHandError, match="integers"):
        zipai.batch_huxi(np.full((1, 20), 0.5))
    with pytest.raises(hupai.InvalidHandError, match="2-D"):
        zipai.batch_huxi([0] * 20)
    with pytest.raises(hupai.InvalidTileError):
        zipai.huxi("x1x2", win_card=5)  # type: ignore[arg-type]
    with pytest.raises(hupai.InvalidHandError, match="must be a list"):
        zipai.huxi("x1x2", win_card="x3", melds="peng:x4x4x4")
    with pytest.raises(hupai.RuleConfigError):
        zipai.huxi("x1x2", win_card="x3", variant=5)  # type: ignore[arg-type]
    assert issubclass(hupai.InvalidHandError, ValueError)


def test_presets_listed() -> None:
    ids = {v["id"] for v in hupai.variants()}
    assert {"zipai_guilin", "zipai_hunan"} <= ids
    hunan = hupai.Variant.load("zipai_hunan").options
    assert (hunan["min_huxi"], hunan["mingtang"], hunan["xing"], hunan["naming"]) == (15, "woaiwyhty", "none", "hunan")
    d = hupai.Variant.load("zipai_guilin").describe()
    assert d["params"]["huxi"]["saochuan"] == [9, 12] and d["params"]["huxi"]["jiao"] == [0, 0]


# --------------------------------------------------------------------------- worked examples (zipai.md §13)

EXAMPLES: list[tuple[str, str, dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    (
        "G1",
        "zipai_guilin",
        {
            "concealed": "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10",
            "win_card": "x8",
            "melds": [{"type": "chi", "tiles": ["d1", "d2", "d3"]}, {"type": "peng", "tiles": ["x5", "x5", "x5"]}],
            "win_type": "discard",
            "seat": 1,
            "dealer": 0,
            "discarder": 2,
            "flips": ["d7"],
        },
        {},
        {"huxi": 16, "duo": 3, "multiplier": 1, "xing": 3, "hu_score": 3, "amount_per_payer": 6, "net": [0, 12, -12]},
    ),
    (
        "G1-all_pay",
        "zipai_guilin",
        {
            "concealed": "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10",
            "win_card": "x8",
            "melds": ["chi:d1d2d3", "peng:x5x5x5"],
            "seat": 1,
            "discarder": 2,
            "flips": ["d7"],
        },
        {"discard_payment": "all_pay"},
        {"huxi": 16, "amount_per_payer": 6, "net": [-6, 12, -6]},
    ),
    (
        "G2",
        "zipai_guilin",
        {
            "concealed": "x1x1x1x1 d1d2d3 x2x7x10 x4x5x6 d7d8d9 x9",
            "win_card": "x9",
            "melds": [("sao", "d5d5d5")],
            "win_type": "self_draw",
            "seat": 0,
            "dealer": 1,
            "flips": ["x10", "x5", "x7"],
        },
        {},
        {"huxi": 24, "duo": 5, "multiplier": 2, "hu_score": 10, "xing": 5, "amount_per_payer": 15, "net": [30, -15, -15]},
    ),
    (
        "G2-xing_in_multiplier",
        "zipai_guilin",
        {
            "concealed": "x1x1x1x1 d1d2d3 x2x7x10 x4x5x6 d7d8d9 x9",
            "win_card": "x9",
            "melds": [("sao", "d5d5d5")],
            "win_type": "self_draw",
            "dealer": 1,
            "flips": ["x10", "x5"],
        },
        {"xing_in_multiplier": True},
        {"amount_per_payer": 20},
    ),
    (
        "G3",
        "zipai_guilin",
        {
            "concealed": "d2d7d10 x1x2x3 x8x9x10 x4x4 x5x5",
            "win_card": "x4",
            "melds": ["kaiduo:x6x6x6x6", "peng:d3d3d3"],
            "win_type": "discard",
            "seat": 2,
            "passed_peng": ["x4"],
            "flips": ["x3"],
        },
        {},
        {"huxi": 18, "duo": 3, "xing": 3, "amount_per_payer": 6, "net": [0, -12, 12]},
    ),
    (
        "G3-no-pass",
        "zipai_guilin",
        {
            "concealed": "d2d7d10 x1x2x3 x8x9x10 x4x4 x5x5",
            "win_card": "x4",
            "melds": ["kaiduo:x6x6x6x6", "peng:d3d3d3"],
            "seat": 2,
        },
        {},
        {"huxi": 19, "duo": 4},
    ),
    (
        "G4",
        "zipai_guilin",
        {"concealed": "d10d10d10d10 x7x7x7 d1d1d1 x1x2x3 x3x4x5 d4d5d6 x9x9", "win_type": "tianhu", "flips": ["d6"]},
        {},
        {"huxi": 24, "duo": 5, "multiplier": 2, "xing": 0, "amount_per_payer": 10, "net": [20, -10, -10]},
    ),
    (
        "G5",
        "zipai_guilin",
        {
            "concealed": "x4x4x4 d2d7d10 d3d4d5 x8x8d8 x5x6",
            "win_card": "x7",
            "melds": ["peng:d9d9d9", "chi:x2x7x10"],
            "win_type": "other_draw",
            "haidi": True,
            "seat": 1,
            "flips": ["x1"],
        },
        {},
        {"huxi": 15, "duo": 2, "multiplier": 2, "xing": 0, "amount_per_payer": 4, "net": [-4, 8, -4]},
    ),
    (
        "G6",
        "zipai_guilin",
        {
            "concealed": "d2d7d10 d1d2d3 x4x5x6 x7x8x9 x10",
            "win_card": "x10",
            "melds": ["kaiduo:x2x2x2x2", "saochuan:d9d9d9d9"],
            "win_type": "other_draw",
            "dealer": 1,
            "flips": ["d8", "x3"],
        },
        {},
        {"huxi": 30, "duo": 7, "xing": 5, "amount_per_payer": 12, "net": [24, -12, -12]},
    ),
    (
        "G7",
        "zipai_guilin",
        {
            "concealed": "d1d1d2d2d3d3 x1x2x3x4x5",
            "win_card": "x3",
            "melds": ["chi:x2x7x10", "chi:x8x9x10", "peng:x6x6x6"],
            "win_type": "other_draw",
            "seat": 1,
            "flips": ["d2"],
        },
        {},
        {"huxi": 19, "duo": 4, "xing": 2, "amount_per_payer": 6, "net": [-6, 12, -6]},
    ),
    (
        "G8",
        "zipai_guilin",
        {
            "concealed": "x3x3x3 x5x5x5 x9x9x9 d4d5d6 x6x7x8 d1d1x1 x10x10",
            "win_card": "x10",
            "win_type": "dihu",
            "seat": 1,
            "flips": ["x4"],
        },
        {},
        {"huxi": 10, "duo": 1, "multiplier": 2, "xing": 3, "amount_per_payer": 5, "net": [-5, 10, -5]},
    ),
    (
        "H1",
        "zipai_hunan",
        {
            "concealed": "x2x7x10 d1d2d3 x7x8x9 d4d5d6 x4",
            "win_card": "x4",
            "melds": ["pao:d7d7d7d7", "chi:x1x2x3"],
            "win_type": "other_draw",
            "seat": 1,
        },
        {},
        {"huxi": 21, "duo": 3, "fan": 4, "amount_per_payer": 12, "net": [-12, 24, -12]},
    ),
    (
        "H2",
        "zipai_hunan",
        {
            "concealed": "x1x2x3 d2d7d10 d1d2d3 x6x7x8 d8d8x8 d5d5",
            "win_card": "x9",
            "melds": ["wei:x9x9x9"],
            "win_type": "self_draw",
            "dealer": 1,
        },
        {},
        {"huxi": 24, "duo": 4, "fan": 1, "multiplier": 2, "amount_per_payer": 8, "net": [16, -8, -8]},
    ),
    (
        "H2-zimo-none",
        "zipai_hunan",
        {
            "concealed": "x1x2x3 d2d7d10 d1d2d3 x6x7x8 d8d8x8 d5d5",
            "win_card": "x9",
            "melds": ["wei:x9x9x9"],
            "win_type": "self_draw",
            "dealer": 1,
        },
        {"zimo": "none"},
        {"huxi": 24, "duo": 4, "amount_per_payer": 4},
    ),
]


@pytest.mark.parametrize(("name", "variant", "situation", "options", "expected"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_worked_examples(
    name: str, variant: str, situation: dict[str, Any], options: dict[str, Any], expected: dict[str, Any]
) -> None:
    s = zscore(situation, hupai.Variant(variant, **options))
    assert s.is_win, s.to_dict()
    got = {k: s.to_dict()[k] for k in expected}
    assert got == expected
    assert sum(s.net) == 0
    json.dumps(s.to_dict(), ensure_ascii=False)


def test_g7_split_and_g1_groups() -> None:
    d = zipai.decompose(
        "d1d1d2d2d3d3x1x2x3x4x5",
        win_card="x3",
        melds=["chi:x2x7x10", "chi:x8x9x10", "peng:x6x6x6"],
        win_type="other_draw",
    )
    assert d is not None and d.huxi == 19
    assert sorted(g.type for g in d.groups if not g.exposed) == ["shunzi", "yiersan", "yiersan", "yiersan"]
    assert "大小三搭" not in str(d)
    g2 = zscore(EXAMPLES[2][2])
    assert g2.xing_cards == ["x1", "x6"] and g2.flips_used == ["x10", "x5"]


def test_haidi_no_xing_and_stacking() -> None:
    sit = dict(EXAMPLES[2][2], haidi=True)
    s = zscore(sit)
    assert s.multiplier == 2 and s.xing == 0  # 自摸 + 海底 do not stack; no 翻醒 after 海底
    s = zscore(sit, hupai.Variant("zipai_guilin", stack_win_multipliers=True))
    assert s.multiplier == 4


def test_open_kaiduo_choice_on_other_players_card() -> None:
    # 坎 d5 + another player's d5: 开舵 (9, needs a pair) or the 坎 stays (6) — best reading wins.
    base = "d5d5d5 x1x2x3 d2d7d10 x4x5x6 x7x8x9 x10x10"
    d = zipai.decompose(base, win_card="d5", win_type="other_draw")
    assert d is not None and d.kaiduo_by_win and d.huxi == 9 + 3 + 6
    assert zipai.decompose(base, win_card="d5", win_type="other_draw", variant=hupai.Variant("zipai_guilin", kaiduo_on_discard=False)) is not None
    # 碰 + a discarded card is never 开舵; + another player's drawn card may be.
    hand = "x1x2x3 d2d7d10 x4x5x6 x7x8x9 x10x10"
    assert zipai.huxi(hand, win_card="d5", melds=["peng:d5d5d5"], win_type="discard") is None
    assert zipai.huxi(hand, win_card="d5", melds=["peng:d5d5d5"], win_type="other_draw") == 9 + 3 + 6
    # Own draw on one's 碰: 开舵, but 胡 outranks 开舵 (胡牌时可以不开舵) so the plain reading counts too.
    assert zipai.huxi(hand, win_card="d5", melds=["peng:d5d5d5"], win_type="self_draw") == 9 + 3 + 6
    assert zipai.huxi("x1x2x3 d2d7d10 x4x5x6 x7x8x9 d4d6", win_card="d5", melds=["peng:d5d5d5"], win_type="self_draw") == 3 + 3 + 6
    # Own draw on a concealed pair is a forced 扫 (3/6), not a 碰-valued triplet.
    assert zipai.huxi("x1x2x3 d2d7d10 x4x5x6 x7x8x9 d5d5", win_card="d5", win_type="self_draw") == 6 + 3 + 6
    assert zipai.huxi("x1x2x3 d2d7d10 x4x5x6 x7x8x9 d5d5", win_card="d5", win_type="discard") == 3 + 3 + 6


def test_waits() -> None:
    ws = zipai.waits("d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10", melds=["chi:d1d2d3", "peng:x5x5x5"])
    assert [(c.code, h) for c, h in ws] == [("x5", 16), ("x8", 16)]
    for c, h in ws:
        assert zipai.huxi("d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10", win_card=c, melds=["chi:d1d2d3", "peng:x5x5x5"]) == h
    # Below the minimum: listed only with reach_min=False.
    low = "x3x4x5 x6x7x8 d4d5d6 d6d7d8 x8x9x10 x5x6"
    assert zipai.waits(low, melds=["peng:x1x1x1"]) == []
    assert (zipai.Card("x7"), 1) in zipai.waits(low, melds=["peng:x1x1x1"], reach_min=False)
    assert zipai.is_winning("d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10", win_card="x8", melds=["chi:d1d2d3", "peng:x5x5x5"])


def test_chi_options_bi() -> None:
    opts = zipai.chi_options("x2x7x10x8x9", "x10")
    assert {"group": ["x2", "x7", "x10"], "type": "erqishi", "bi": [["x8", "x9", "x10"]]} in opts
    assert zipai.chi_options("x2x7x10x4", "x10") == []  # 有比不比, 吃取消
    assert zipai.chi_options("x4x5", "x6") == [{"group": ["x4", "x5", "x6"], "type": "shunzi", "bi": []}]


# --------------------------------------------------------------------------- ZP-* reference cases


def _zp_score(case: dict[str, Any], variant: hupai.Variant) -> Any:
    sit = {
        "concealed": case["concealed"],
        "win_card": case["win_tile"],
        "melds": case["melds"],
        "win_type": case["situation"]["win_type"],
        "players": case["situation"].get("players", 3),
    }
    return zscore(sit, variant)


def test_zp_cases_present() -> None:
    assert len(zp_cases()) == 12


def test_zp_qa_01_ti_not_pao() -> None:
    # The library scores the self-drawn 4th card on one's own 偎 as 跑 (21); the spec (§12.1, H2)
    # says 提: we must produce 24, and must NOT reproduce the library's 21.
    # The case is a partial hand as fed to the library (18 cards, no pair after the 提), so it is
    # evaluated under the library's partial-hand profile pair_rule="any"; by default (the seed:
    # a 提 needs a pair) it is incomplete.
    case = zp_cases()["ZP-QA-01"]
    assert not _zp_score(case, hupai.Variant("zipai_hunan")).complete
    s = _zp_score(case, hupai.Variant("zipai_hunan", pair_rule="any"))
    assert s.is_win and s.huxi == 24 and s.huxi != case["expected"]["huxi"]
    assert s.decomposition.groups[0].name == "提"


def test_zp_qa_02_pair_without_four() -> None:
    # The library accepts any 3n+2 remainder; the seed allows a pair only with 开舵/扫穿. Default:
    # not complete. With pair_rule="any" (the library's partial-hand profile) the case holds.
    case = zp_cases()["ZP-QA-02"]
    s = _zp_score(case, hupai.Variant("zipai_hunan"))
    assert not s.complete and not s.is_win
    s = _zp_score(case, hupai.Variant("zipai_hunan", pair_rule="any"))
    assert s.is_win and s.huxi == case["expected"]["huxi"] == 18


def test_zp_qa_03() -> None:
    case = zp_cases()["ZP-QA-03"]
    s = _zp_score(case, hupai.Variant("zipai_hunan"))
    assert s.is_win == case["expected"]["can_win"] and s.huxi == case["expected"]["huxi"] == 22


def test_zp_qa_04() -> None:
    case = zp_cases()["ZP-QA-04"]
    assert not _zp_score(case, hupai.Variant("zipai_hunan")).is_win
    s = _zp_score(case, hupai.Variant("zipai_hunan", pair_rule="any"))
    assert not s.is_win and s.complete and s.huxi == case["expected"]["huxi"] == 2
    assert not _zp_score(case, hupai.Variant("zipai_hunan", pair_rule="any", min_huxi=10)).is_win


@pytest.mark.parametrize("cid", ["ZP-WY-01", "ZP-WY-02", "ZP-WY-03", "ZP-WY-05"])
def test_zp_wy_woaiwyhty_profile(cid: str) -> None:
    # woaiwyhty checkHu: 15 胡起, 名堂 × 囤, every payer pays, no 自摸 factor (zimo="none").
    case = zp_cases()[cid]
    e = case["expected"]
    s = _zp_score(case, hupai.Variant("zipai_hunan", zimo="none"))
    assert s.is_win and s.huxi == e["huxi"] and s.duo == e["tun"] and s.fan == e["fan"]
    assert [(m["name"], m["fan"]) for m in s.mingtang] == [(m["name"], m["fan"]) for m in e["mingtang"]]
    assert s.amount_per_payer == e["score_units"]


def test_zp_wy_03_self_draw_is_wei_and_default_zimo_doubles() -> None:
    case = zp_cases()["ZP-WY-03"]
    s = _zp_score(case, hupai.Variant("zipai_hunan"))
    assert s.huxi == 27 and s.amount_per_payer == 80  # zipai_hunan default 自摸 ×2
    # From a discard the completed x1 triplet is a 碰-valued triplet (1), not 偎 (3): §12.3.
    s = _zp_score(dict(case, situation={"win_type": "discard"}), hupai.Variant("zipai_hunan"))
    assert s.huxi == 25


def test_zp_wy_04_not_a_win() -> None:
    case = zp_cases()["ZP-WY-04"]
    s = _zp_score(case, hupai.Variant("zipai_hunan"))
    assert s.complete and not s.is_win and s.huxi == 1


def test_zp_tun_01() -> None:
    assert zipai.duo(22, "zipai_hunan") == 3
    assert zipai.duo(22, "zipai_guilin") == 5
    assert zipai.duo(22, hupai.Variant("zipai_hunan", tun_step=5)) == 2
    assert zipai.duo(14, "zipai_hunan") == 0
    # "1息1囤": 1 + (22 - 15) = 8 with this engine's formula; the case leaves the room rule open.
    assert zipai.duo(22, hupai.Variant("zipai_hunan", tun_step=1)) == 8


def test_zp_gl_01_multiplicative_not_additive() -> None:
    # guilin-zipai adds +1 for 自摸 (fan 6 for 22 胡息); the seed multiplies: 舵 5 × 2 = 10. Low
    # confidence case (spec §12.6): we assert we do NOT produce its 6.
    case = zp_cases()["ZP-GL-01"]
    assert zipai.duo(22) == case["expected"]["duo"] == 5
    s = zscore(EXAMPLES[2][2])  # a 自摸 win
    assert s.hu_score == s.duo * 2 and s.hu_score != s.duo + 1


def test_zp_gx_01_group_values() -> None:
    case = zp_cases()["ZP-GX-01"]
    values = [zipai.group_huxi(m["type"], m["tiles"]) for m in case["melds"]]
    assert values == [6, 6, 12, 1, 6] and sum(values) == case["expected"]["sum"] == 31
    assert zipai.group_huxi("chi", "x8x8d8") == 0 and zipai.group_huxi("pao", "d9d9d9d9") == 9  # not §12.6's 4/5, 12


# --------------------------------------------------------------------------- reference comparison (hypothesis)

TRIPLE_SHAPES: list[list[int]] = []
for _s in (0, 10):
    for _r in range(8):
        TRIPLE_SHAPES.append([_s + _r, _s + _r + 1, _s + _r + 2])
    TRIPLE_SHAPES.append([_s + 1, _s + 6, _s + 9])
for _r in range(10):
    TRIPLE_SHAPES += [[_r, _r, _r + 10], [_r, _r + 10, _r + 10], [_r] * 3, [_r + 10] * 3]


@st.composite
def hands(draw: st.DrawFn) -> dict[str, Any]:
    counts = [0] * 20

    def fits(cards: list[int]) -> bool:
        c = list(counts)
        for x in cards:
            c[x] += 1
        return max(c) <= 4

    def take(cards: list[int]) -> None:
        for x in cards:
            counts[x] += 1

    melds: list[tuple[str, list[int]]] = []
    concealed: list[int] = []
    fours = draw(st.integers(0, 2))
    for _ in range(fours):
        k = draw(st.sampled_from([k for k in range(20) if counts[k] == 0]))
        take([k] * 4)
        where = draw(st.sampled_from(["pao", "ti", "hand"]))
        if where == "hand":
            concealed += [k] * 4
        else:
            melds.append((where, [k] * 4))
    groups = 7 if fours == 0 else 6 - fours
    if fours:
        k = draw(st.sampled_from([k for k in range(20) if counts[k] <= 2]))
        take([k, k])
        concealed += [k, k]
    for _ in range(groups):
        shape = draw(st.sampled_from([s for s in TRIPLE_SHAPES if fits(s)]))
        take(shape)
        same = len(set(shape)) == 1
        where = draw(st.sampled_from(["hand", "hand", "hand", "meld"]))
        if where == "meld":
            melds.append((draw(st.sampled_from(["peng", "wei", "chouwei", "kan"])) if same else "chi", list(shape)))
        else:
            concealed += shape
    if not concealed:
        concealed = list(melds.pop()[1])
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    if draw(st.booleans()):  # perturb: another winning card (often incomplete or a new reading)
        choices = [k for k in range(20) if counts[k] - (1 if k == win else 0) < 4]
        win = draw(st.sampled_from(choices))
    win_type = draw(st.sampled_from(["discard", "self_draw", "other_draw"]))
    passed = [win] if draw(st.booleans()) else []
    return {"concealed": concealed, "win": win, "melds": melds, "win_type": win_type, "passed": passed}


def _names(cards: list[int]) -> list[str]:
    return [zipai.Card.from_index(i).code for i in cards]


VARIANTS = [hupai.Variant("zipai_guilin"), hupai.Variant("zipai_hunan"), hupai.Variant("zipai_guilin", pair_rule="any", kaiduo_on_discard=False)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(), st.sampled_from(range(len(VARIANTS))))
def test_best_split_matches_exhaustive_reference(h: dict[str, Any], vi: int) -> None:
    variant = VARIANTS[vi]
    melds = [(t, _names(c)) for t, c in h["melds"]]
    got = zipai.huxi(
        _names(h["concealed"]),
        win_card=zipai.Card.from_index(h["win"]),
        melds=melds,
        win_type=h["win_type"],
        passed_peng=_names(h["passed"]),
        variant=variant,
    )
    splits = reference_splits(Rules(variant), h["concealed"], h["win"], melds, h["win_type"], h["passed"])
    if not splits:
        assert got is None
    else:
        assert got is not None and all(got >= s for s in splits) and got == max(splits)
    d = zipai.decompose(
        _names(h["concealed"]),
        zipai.Card.from_index(h["win"]),
        melds,
        win_type=h["win_type"],
        passed_peng=_names(h["passed"]),
        variant=variant,
    )
    if got is None:
        assert d is None
    else:
        # The reported split covers exactly the player's cards and its groups add up.
        assert d is not None and d.huxi == got == sum(g.huxi for g in d.groups)
        owned = sorted(_names(h["concealed"] + [h["win"]] + [x for _, c in h["melds"] for x in c]), key=lambda s: zipai.Card(s).index)
        grouped = sorted([c for g in d.groups for c in g.cards], key=lambda s: zipai.Card(s).index)
        assert grouped == owned
        assert sum(g.has_win_card for g in d.groups) == 1
        assert sum(g.type == "pair" for g in d.groups) <= 1


# --------------------------------------------------------------------------- batch

@st.composite
def dealt_rows(draw: st.DrawFn) -> list[int]:
    """Random multisets, or the cards of a generated complete-ish hand (dealt reading)."""
    if draw(st.booleans()):
        h = draw(hands())
        cards = h["concealed"] + [h["win"]] + [x for _, c in h["melds"] for x in c]
    else:
        cards = draw(st.lists(st.integers(0, 19), min_size=2, max_size=23))
    row = [0] * 20
    for x in cards:
        row[x] = min(4, row[x] + 1)
    return row


@settings(max_examples=50, deadline=None)
@given(st.lists(dealt_rows(), min_size=1, max_size=8))
def test_batch_equals_loop(rows: list[list[int]]) -> None:
    a = np.array(rows, dtype=np.uint8)
    got = zipai.batch_huxi(a)
    want = [zipai.huxi(zipai.from_counts(r), win_type="tianhu") for r in rows]
    assert got.dtype == np.int32 and got.tolist() == [-1 if w is None else w for w in want]
    win = zipai.batch_is_winning(a, "zipai_hunan")
    assert win.tolist() == [w is not None and w >= 15 for w in want]


def test_batch_complete_hands() -> None:
    g4 = zipai.to_counts("d10d10d10d10 x7x7x7 d1d1d1 x1x2x3 x3x4x5 d4d5d6 x9x9")
    a = np.array([g4] * 1000, dtype=np.uint8)
    assert (zipai.batch_huxi(a) == 24).all()
    assert zipai.batch_is_winning(a).all()


# --------------------------------------------------------------------------- CLI


def test_cli_score_and_waits(capsys: pytest.CaptureFixture[str]) -> None:
    rc = cli_main(
        ["zipai", "score", "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10", "--win", "x8", "--meld", "chi:d1d2d3",
         "--meld", "peng:x5x5x5", "--seat", "1", "--discarder", "2", "--flip", "d7"]
    )
    out = capsys.readouterr().out
    assert rc == 0 and "胡息 16" in out and "= 6 per payer" in out and "seat 2 pays seat 1: 12" in out
    rc = cli_main(["zipai", "score", "x1x2x3 d2d7d10 d1d2d3 x6x7x8 d8d8x8 d5d5", "--win", "x9", "--meld", "wei:x9x9x9",
                   "--win-type", "self_draw", "--variant", "zipai_hunan", "-o", "zimo=none", "--dealer", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0 and data["per_payer"] == 4 and data["variant"] == "zipai_hunan"
    rc = cli_main(["zipai", "waits", "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10", "--meld", "chi:d1d2d3", "--meld", "peng:x5x5x5"])
    assert rc == 0 and "x8 八  16 胡息" in capsys.readouterr().out
    assert cli_main(["zipai", "score", "x1", "--win", "y1"]) == 2
    rc = cli_main(["zipai", "score", "x1x2x3 d1d2d3 x2x7x10 d2d7d10 x4x5x6 d4d5d6 d8d8 K", "--win-type", "self_draw", "-o", "jokers=1"])
    out = capsys.readouterr().out
    assert rc == 0 and "王 = d8" in out and "胡息 24" in out
    rc = cli_main(["zipai", "score", "x1x1x1 x2x2x2 x3x3x3 x4x4x4 x5x5x5 x6 x8 d1 d5 d9", "--win-type", "sanlong",
                   "-o", "sanlong_wukan=true", "--seat", "1"])
    assert rc == 0 and "三龙五坎 ×2" in capsys.readouterr().out


def test_claims_for_flow_engine() -> None:
    hand, melds = "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10 x3x3", ["peng:x5x5x5"]
    c = zipai.claims(hand, "d8", melds, source="self_draw")
    assert c["saochuan"] and c["chi"] == [] and c["hu"] is None
    assert zipai.claims(hand, "d8", melds, source="discard")["kaiduo"]
    assert zipai.claims(hand, "x3", melds, source="discard")["peng"]
    assert not zipai.claims(hand, "x3", melds, source="discard", chou=True)["peng"]
    assert zipai.claims(hand, "x5", melds, source="other_draw")["kaiduo"]
    assert not zipai.claims(hand, "x5", melds, source="discard")["kaiduo"]
    assert zipai.claims(hand, "x3", melds, source="self_draw")["sao"]
    assert zipai.claims(hand, "x3", melds, source="self_draw", passed_peng="x3")["guosao"]
    g1 = zipai.claims("d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10", "x8", ["chi:d1d2d3", "peng:x5x5x5"])
    assert g1["hu"] == 16
    with pytest.raises(hupai.InvalidHandError, match="source"):
        zipai.claims(hand, "x3", melds, source="tianhu")


# --------------------------------------------------------------------------- jokers (王)

JOKER_VARIANTS = [
    hupai.Variant("zipai_guilin", jokers=4),
    hupai.Variant("zipai_hunan", jokers=4),
    hupai.Variant("zipai_guilin", jokers=4, pair_rule="any", kaiduo_on_discard=False),
]


@settings(max_examples=int(os.environ.get("HUPAI_ZIPAI_JOKER_EXAMPLES", "200")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(), st.sampled_from(range(len(JOKER_VARIANTS))), st.integers(1, 3), st.randoms(use_true_random=False))
def test_jokers_best_split_matches_exhaustive_reference(h: dict[str, Any], vi: int, n_jokers: int, rnd: Any) -> None:
    """Some concealed cards become jokers; the core's best 胡息 equals the maximum of a slow
    reference that lets each joker fill any slot of any group (an independent method)."""
    variant = JOKER_VARIANTS[vi]
    concealed = list(h["concealed"])
    n = min(n_jokers, len(concealed))
    for _ in range(n):
        concealed.pop(rnd.randrange(len(concealed)))
    melds = [(t, _names(c)) for t, c in h["melds"]]
    hand = _names(concealed) + ["K"] * n
    got = zipai.huxi(hand, win_card=zipai.Card.from_index(h["win"]), melds=melds, win_type=h["win_type"], passed_peng=_names(h["passed"]), variant=variant)
    splits = reference_splits(Rules(variant), concealed, h["win"], melds, h["win_type"], h["passed"], jokers=n)
    if not splits:
        assert got is None
    else:
        assert got == max(splits)
        d = zipai.decompose(hand, zipai.Card.from_index(h["win"]), melds, win_type=h["win_type"], passed_peng=_names(h["passed"]), variant=variant)
        assert d is not None and d.huxi == got == sum(g.huxi for g in d.groups)
        # the split covers the real cards plus one card per joker, and names the jokers
        assert sum(len(g.jokers) for g in d.groups) == n
        owned = sorted(_names(concealed + [h["win"]] + [x for _, c in h["melds"] for x in c]) + [j for g in d.groups for j in g.jokers], key=lambda s: zipai.Card(s).index)
        grouped = sorted([c for g in d.groups for c in g.cards], key=lambda s: zipai.Card(s).index)
        assert grouped == owned


def test_jokers_examples_and_errors() -> None:
    v = hupai.Variant("zipai_guilin", jokers=2)
    # G4 (天胡, 24 胡息) with its x3 replaced by a joker: still 24, the joker stands for x3 or x6.
    g4 = "d10d10d10d10 x7x7x7 d1d1d1 x1x2x3 K x4x5 d4d5d6 x9x9"
    assert zipai.huxi(g4, win_type="tianhu", variant=v) == 24
    # a joker completes a pair into a 坎 (valued as 坎: 6 for big cards)
    d = zipai.decompose("x1x2x3 d1d2d3 x2x7x10 d2d7d10 x4x5x6 d4d5d6 d8d8 K", win_type="tianhu", variant=v)
    assert d is not None and d.huxi == 24
    (kan,) = [g for g in d.groups if g.jokers]
    assert (kan.type, kan.cards, kan.jokers) == ("kan", ("d8", "d8", "d8"), ("d8",))
    assert "王 for d8" in str(kan)
    # a drawn joker wins: self_draw without a winning card
    s = zscore({"concealed": "x1x2x3 d1d2d3 x2x7x10 d2d7d10 x4x5x6 d4d5d6 d8d8 K", "win_type": "self_draw", "seat": 1}, v)
    assert s.is_win and s.huxi == 24 and s.multiplier == 2
    # jokers are not cards: never discarded, never claimed, never a 醒
    assert "K" not in zipai.discard_check("x1x2x3 d1d2d3 x2x7x10 d2d7d10 x4x5x6 d4d5d6 d8d8 K x9")["discards"]
    with pytest.raises(hupai.InvalidHandError, match="winning card is required"):
        zscore({"concealed": "x1x2x3", "win_type": "discard"}, v)
    # waits with a joker in hand
    ws = dict((str(c), h) for c, h in zipai.waits("x1x2x3 d1d2d3 x2x7x10 d2d7d10 x4x5x6 d4d5d6 K x9", win_type="discard", variant=v))
    assert ws["x9"] == 18 + 1 and ws["x8"] == 18 and ws["d9"] == 18 and len(ws) > 3
