"""上海 清混碰 (``shanghai``): the worked examples of shared/rules/shanghai.md, the spec's "points easy
to get wrong" (flowers, 八花齐, the 清混碰 minimum, doubling, 勒子 caps, 承包), typed errors, properties."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hupai
from tests.preset_helpers import balances, hand, ids, settle, tiles
from hupai import shanghai

SEATS = ["A", "B", "C", "W"]


def test_listed() -> None:
    v = {x["id"]: x for x in hupai.variants()}["shanghai"]
    assert v["players"] == 4 and "勒子" in v["description"]


def test_example1_hun_yi_se_self_draw() -> None:
    s = hand("234p567p88pSS", "S", [{"type": "pon", "tile": "E"}], self_drawn=True, flower_tiles=["f1", "f5"])
    r = hupai.score(s, variant="shanghai")
    assert isinstance(r, hupai.Score)
    d = r.to_dict()
    assert ids(r) == ["HUN_YI_SE"] and r.extras["hua"] == 3 and r.per_payer == 24
    assert balances(settle({"seats": SEATS, "win": {"winner": "W", **s}}, "shanghai")) == {"A": -24, "B": -24, "C": -24, "W": 72}


def test_example2_qing_peng_shuang_le() -> None:
    s = hand("444s666s9s", "9s", [{"type": "kong_open", "tile": "7s"}, {"type": "pon", "tile": "2s"}], flowers=1)
    r = shanghai.score(s)
    assert ids(r) == ["QING_PENG"] and r.extras["raw_share"] == 160 and r.per_payer == 80
    led = settle({"seats": SEATS, "win": {"winner": "W", "discarder": "B", **s}}, "shanghai")
    assert balances(led) == {"A": 0, "B": -80, "C": 0, "W": 80}
    # Text B: 清碰 = 6 番.
    assert shanghai.score(s, hupai.Variant("shanghai", qing_peng_value=6)).extras["raw_share"] == 320


def test_example3_chengbao() -> None:
    s = hand("555m1m", "1m", [{"type": "pon", "tile": "3m"}, {"type": "pon", "tile": "N"}, {"type": "pon", "tile": "8m"}],
             self_drawn=True, flowers=3)
    r = shanghai.score(s)
    assert ids(r) == ["HUN_PENG"] and r.per_payer == 40
    led = settle({"seats": SEATS, "win": {"winner": "W", "claims": {"A": 3}, **s}}, "shanghai")
    assert balances(led) == {"A": -120, "B": 0, "C": 0, "W": 120}
    # two claims only: no 承包.
    led = settle({"seats": SEATS, "win": {"winner": "W", "claims": {"A": 2}, **s}}, "shanghai")
    assert balances(led) == {"A": -40, "B": -40, "C": -40, "W": 120}
    # 承包 on a discard win: the 承包者 pays instead of the discarder.
    s2 = dict(s, situation={"flowers": 3})
    led = settle({"seats": SEATS, "win": {"winner": "W", "discarder": "B", "claims": {"A": 3}, **s2}}, "shanghai")
    assert balances(led) == {"A": -40, "B": 0, "C": 0, "W": 40}
    v = hupai.Variant("shanghai", cap_scope="per_person")
    led = settle({"seats": SEATS, "win": {"winner": "W", "claims": {"A": 3}, **s}}, v)
    assert balances(led)["A"] == -40


def test_example4_huang_fan_kai_bao() -> None:
    s = hand("222m777m3s", "3s", [{"type": "pon", "tile": "5p"}, {"type": "pon", "tile": "9s"}],
             flowers=2, huang_fan=1, kai_bao=1)
    r = shanghai.score(s)
    assert ids(r) == ["PENG_PENG_HU", "KAI_BAO", "HUANG_FAN"] and r.per_payer == 80
    led = settle({"seats": ["W", "X", "Y", "Z"], "win": {"winner": "W", "discarder": "Z", **s}}, "shanghai")
    assert balances(led) == {"W": 80, "X": 0, "Y": 0, "Z": -80}


def test_minimum_flowers_and_special_hands() -> None:
    plain = hand("123m456p789s11s23s", "4s")
    with pytest.raises(hupai.InvalidHandError, match="清混碰"):
        shanghai.score(plain)
    assert shanghai.score(plain, hupai.Variant("shanghai", mode="any_hand")).per_payer == 3
    # 八花齐: instant win, paid by all three.
    eight = hand("123m456p789s11s23s", "4s", flowers=8, self_drawn=True)
    r = shanghai.score(eight)
    assert ids(r) == ["BA_HUA_QI"] and r.per_payer == 40
    assert balances(settle({"seats": SEATS, "win": {"winner": "W", **eight}}, "shanghai"))["W"] == 120
    # must_have_hua.
    ph = hand("111m222m333m44m55m", "5m")
    with pytest.raises(hupai.InvalidHandError, match="花"):
        shanghai.score(ph, hupai.Variant("shanghai", must_have_hua=True))
    # 风碰: 四勒.
    fp = shanghai.score(hand("EEESSSWWWNNNC", "C", flowers=4))
    assert fp.extras["cap"] == 160 and fp.per_payer == 160
    # winds-only honours: a suit + dragons hand is not 混一色.
    with pytest.raises(hupai.InvalidHandError):
        shanghai.score(hand("123m456m789m11mCC", "C", self_drawn=True), hupai.Variant("shanghai", hun_honours="winds"))
    assert shanghai.score(hand("123m456m789m11mCC", "C", self_drawn=True)).raw_total == 2


def test_rob_kong_three_shares_and_multi_ron() -> None:
    s = hand("222m777m3s", "3s", [{"type": "pon", "tile": "5p"}, {"type": "pon", "tile": "9s"}], win_type="rob_kong")
    led = settle({"seats": SEATS, "win": {"winner": "W", "discarder": "B", **s}}, "shanghai")
    assert balances(led) == {"A": 0, "B": -36, "C": 0, "W": 36}
    a = hand("222m777m3s", "3s", [{"type": "pon", "tile": "5p"}, {"type": "pon", "tile": "9s"}])
    b = hand("111p444p3s", "3s", [{"type": "pon", "tile": "6m"}, {"type": "pon", "tile": "9m"}])
    led = settle({"seats": SEATS, "wins": [{"winner": "W", "discarder": "B", **a}, {"winner": "A", "discarder": "B", **b}]}, "shanghai")
    assert balances(led) == {"A": 12, "B": -24, "C": 0, "W": 12}


def test_errors() -> None:
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("shanghai", qing_peng_value=7)
    with pytest.raises(hupai.InvalidHandError):
        shanghai.score(hand("222m777m3s", "3s", [{"type": "pon", "tile": "5p"}, {"type": "pon", "tile": "9s"}], kai_bao=-1))
    a = hand("222m777m3s", "3s", [{"type": "pon", "tile": "5p"}, {"type": "pon", "tile": "9s"}])
    for bad in (
        {"seats": SEATS[:3]},
        {"seats": SEATS, "win": {"winner": "W", **a}},
        {"seats": SEATS, "win": {"winner": "W", "discarder": "W", **a}},
        {"seats": SEATS, "win": {"winner": "W", "discarder": "B", "claims": {"A": 9}, **a}},
        {"seats": SEATS, "wins": [{"winner": "W", "discarder": "B", **a}, {"winner": "A", "discarder": "C", **a}]},
    ):
        with pytest.raises(hupai.SettlementError):
            settle(bad, "shanghai")


PERM = {"m": "s", "p": "m", "s": "p"}


def _perm(t: str) -> str:
    return t[0] + PERM[t[1]] if len(t) == 2 and t[1] in PERM else t


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["111m222m333m44m55m", "123456789p11pEE", "EEESSSWWW11pNN", "234p567p88pSSEEE"]),
       st.booleans(), st.integers(0, 8), st.sampled_from(SEATS))
def test_suit_permutation_and_zero_sum(concealed: str, self_drawn: bool, flowers: int, winner: str) -> None:
    ts = tiles(concealed)
    for w in [str(x) for x in hupai.waits(ts)]:
        a = {"hand": {"concealed": ts, "win_tile": w}, "situation": {"self_drawn": self_drawn, "flowers": flowers}}
        b = {"hand": {"concealed": [_perm(t) for t in ts], "win_tile": _perm(w)}, "situation": a["situation"]}
        try:
            ra = shanghai.score(a)
        except hupai.InvalidHandError:
            with pytest.raises(hupai.InvalidHandError):
                shanghai.score(b)
            continue
        assert shanghai.score(b).per_payer == ra.per_payer
        win: dict[str, Any] = {"winner": winner, **a}
        if not self_drawn:
            win["discarder"] = next(x for x in SEATS if x != winner)
        led = settle({"seats": SEATS, "win": win}, "shanghai")
        assert sum(led.balances.values()) == 0 and led.balances[winner] > 0
