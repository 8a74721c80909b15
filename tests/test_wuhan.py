"""武汉麻将 红中癞子杠 (presets/wuhan.toml): every worked example of shared/rules/wuhan.md and the
points easy to get wrong (癞子 cycle, 红中, 硬胡/软胡, 开口, 258 pair, two 癞子, factor products,
承包, 300 cap and 金顶)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import hupai
from tests.preset_helpers import ids, settle


def case(concealed: str, win: str, win_type: str = "self_draw", melds: list[dict[str, Any]] | None = None,
         indicator: str = "4s", **sit: Any) -> dict[str, Any]:
    return {"hand": {"concealed": [str(t) for t in hupai.parse_tiles(concealed)], "win_tile": win,
                     "melds": melds or []},
            "situation": {"win_type": win_type, "wild_indicator": indicator, **sit}}


def pon(t: str) -> dict[str, Any]:
    return {"type": "pon", "tiles": [t] * 3}


EX1 = case("34m22568s", "5m", "self_draw", [pon("2p"), {"type": "kong_open", "tiles": ["7m"] * 4}], "4s")


def test_listed() -> None:
    v = {x["id"]: x for x in hupai.variants()}
    assert v["wuhan"]["players"] == 4 and "癞子" in v["wuhan"]["description"]


def test_example_1_xiao_hu_ruan_hu() -> None:
    r = hupai.score(EX1, variant="wuhan")
    assert ids(r) == ["XIAO_HU"] and r.raw_total == 1
    assert r.extras["ying_hu"] is False and r.extras["laizi"] == "5s"
    assert r.extras["winner_factor_x2"] == 16  # 开口 2 · 明杠 2 · 自摸 2 · 软胡 1 = 8
    rec = {"seats": ["A", "W", "B", "C"], "dealer": "A", "wins": [{"winner": "W", **EX1}],
           "seat_data": {"A": {"openings": 1, "an_gang": 1}, "C": {"openings": 1}}}
    assert settle(rec, "wuhan").balances == {"A": -128, "W": 152, "B": -8, "C": -16}


EX2 = case("78s33s", "6s", "discard", [pon("2s"), {"type": "chi", "tiles": ["4s", "5s", "6s"]}, pon("9s")], "1p")


def test_example_2_qing_yi_se_cheng_bao() -> None:
    r = hupai.score(EX2, variant="wuhan")
    assert ids(r) == ["QING_YI_SE"] and r.raw_total == 10 and r.extras["ying_hu"] is True
    base = {"seats": ["A", "B", "C", "D"], "dealer": "D", "wins": [{"winner": "B", "discarder": "C", **EX2}],
            "seat_data": {"A": {"an_gang": 1}, "C": {"openings": 1}}}
    assert settle(base, "wuhan").balances == {"A": -160, "B": 320, "C": -120, "D": -40}
    bao = dict(base, seat_data={**base["seat_data"], "B": {"third_opening_from": "A"}})
    assert settle(bao, "wuhan").balances == {"A": -320, "B": 320, "C": 0, "D": 0}


EX3 = case("555p888p9p", "9p", "self_draw", [pon("1p"), {"type": "kong_added", "tiles": ["3p"] * 4}], "5s")


def test_example_3_two_da_hu_jin_ding() -> None:
    r = hupai.score(EX3, variant="wuhan")
    assert set(ids(r)) == {"PENG_PENG_HU", "QING_YI_SE"} and r.raw_total == 20 and r.per_payer == 240
    rec = {"seats": ["W", "X", "Y", "Z"], "dealer": "X", "wins": [{"winner": "W", **EX3}],
           "seat_data": {"X": {"openings": 1}, "Y": {"openings": 1}, "Z": {"an_gang": 1}}}
    assert settle(rec, "wuhan").balances == {"W": 1200, "X": -400, "Y": -400, "Z": -400}
    rec["seat_data"] = {"X": {"openings": 1}, "Y": {"openings": 1}}
    assert settle(rec, "wuhan").balances == {"W": 840, "X": -300, "Y": -300, "Z": -240}
    # 口口翻: 金顶 500
    rec["seat_data"] = {"X": {"openings": 1}, "Y": {"openings": 1}, "Z": {"an_gang": 1}}
    assert settle(rec, hupai.Variant("wuhan", kou_kou_fan=True)).balances["W"] == 1500


def test_example_4_two_laizi_forbid_xiao_hu() -> None:
    # 癞子 = 5s (indicator 4s); ready hand 234m 678p + pon + 2m2m … with two 癞子
    melds = [pon("9p"), {"type": "chi", "tiles": ["1s", "2s", "3s"]}]
    one = case("234m67p2m5s", "2m", "self_draw", melds, "4s")
    assert ids(hupai.score(one, variant="wuhan")) == ["XIAO_HU"]
    two = case("234m67p2m5s", "5s", "self_draw", melds, "4s")
    with pytest.raises(hupai.InvalidHandError, match="two 癞子"):
        hupai.score(two, variant="wuhan")
    # 红中 in hand: no win at all
    with pytest.raises(hupai.InvalidHandError, match="红中"):
        hupai.score(case("234m67pCC", "C", "self_draw", melds), variant="wuhan")


def test_kai_kou_required_and_258_pair() -> None:
    with pytest.raises(hupai.InvalidHandError, match="开口"):
        hupai.score(case("234m678p123s456s2m", "2m", "self_draw", [], "9m"), variant="wuhan")
    with pytest.raises(hupai.InvalidHandError, match="2, 5 or 8"):
        hupai.score(case("234m678p3m", "3m", "self_draw", [pon("9p"), {"type": "chi", "tiles": ["1s", "2s", "3s"]}],
                         "9m"), variant="wuhan")
    # 碰碰胡 exempts the pair
    r = hupai.score(case("333m666p3s", "3s", "discard", [pon("9p"), pon("1s")], "9m"), variant="wuhan")
    assert ids(r) == ["PENG_PENG_HU"]


def test_ying_hu_when_laizi_is_itself() -> None:
    # 癞子 6m used as a real 6m in 456m
    r = hupai.score(case("456m678p5s", "5s", "self_draw", [pon("9p"), {"type": "chi", "tiles": ["1s", "2s", "3s"]}],
                         "5m"), variant="wuhan")
    assert r.extras["ying_hu"] is True and r.extras["winner_factor_x2"] == 2 * 2 * 2 * 2


def test_luan_feng_and_luan_jiang() -> None:
    r = hupai.score(case("EESP", "S", "discard", [pon("E") | {"tiles": ["W"] * 3}, pon("N"), pon("F")], "9m"),
                    variant="wuhan")
    assert "FENG_YI_SE" in ids(r)
    r = hupai.score(case("2s5m8p2p", "5s", "discard", [pon("2m"), pon("5p"), pon("8s")], "9m"),
                    variant="wuhan")
    assert "JIANG_YI_SE" in ids(r)


def test_rob_kong_cheng_bao() -> None:
    c = case("234m678p2m", "2m", "rob_kong", [pon("9p"), {"type": "chi", "tiles": ["1s", "2s", "3s"]}], "9m")
    r = hupai.score(c, variant="wuhan")
    assert "QIANG_GANG" in ids(r)
    rec = {"seats": ["A", "B", "C", "D"], "dealer": "A", "wins": [{"winner": "B", "discarder": "C", **c}]}
    b = settle(rec, "wuhan").balances
    assert b["C"] == -b["B"] and b["A"] == 0 and b["D"] == 0


def test_typed_errors() -> None:
    with pytest.raises(hupai.InvalidHandError, match="wild_indicator"):
        c = case("34m22568s", "5m", "self_draw", EX1["hand"]["melds"])
        del c["situation"]["wild_indicator"]
        hupai.score(c, variant="wuhan")
    with pytest.raises(hupai.SettlementError, match="one winner"):
        settle({"seats": ["A", "B", "C", "D"], "dealer": "A",
                           "wins": [{"winner": "B", "discarder": "A", **EX2}, {"winner": "C", "discarder": "A", **EX2}]},
                          "wuhan")
    with pytest.raises(hupai.SettlementError, match="openings"):
        settle({"seats": ["A", "W", "B", "C"], "dealer": "A", "wins": [{"winner": "W", **EX1}],
                           "seat_data": {"B": {"openings": -1}}}, "wuhan")
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("wuhan", laizi_from_indicator="previous")


PERMS = [("m", "p", "s"), ("p", "s", "m"), ("s", "m", "p"), ("s", "p", "m")]


def _perm(t: str, p: tuple[str, str, str]) -> str:
    return t[0] + p["mps".index(t[1])] if len(t) == 2 and t[1] in "mps" else t


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(PERMS), st.lists(st.integers(0, 2), min_size=3, max_size=3))
def test_suit_permutation_and_zero_sum(p: tuple[str, str, str], opens: list[int]) -> None:
    c = {"hand": {"concealed": [_perm(t, p) for t in EX1["hand"]["concealed"]], "win_tile": _perm("5m", p),
                  "melds": [{"type": m["type"], "tiles": [_perm(t, p) for t in m["tiles"]]} for m in EX1["hand"]["melds"]]},
         "situation": {"win_type": "self_draw", "wild_indicator": _perm("4s", p)}}
    r = hupai.score(c, variant="wuhan")
    assert r.extras["winner_factor_x2"] == 16 and ids(r) == ["XIAO_HU"]
    rec = {"seats": ["A", "W", "B", "C"], "dealer": "A", "wins": [{"winner": "W", **c}],
           "seat_data": {s: {"openings": o} for s, o in zip(["A", "B", "C"], opens)}}
    assert sum(settle(rec, "wuhan").balances.values()) == 0


QQR = case("5m", "5m", "discard", [pon("9p"), {"type": "chi", "tiles": ["1s", "2s", "3s"]}, pon("3m"),
                                   {"type": "chi", "tiles": ["6p", "7p", "8p"]}], "9m")


def test_quan_qiu_ren_cheng_bao_and_kou_kou_fan() -> None:
    r = hupai.score(QQR, variant="wuhan")
    assert ids(r) == ["QUAN_QIU_REN"] and r.per_payer == 40
    rec = {"seats": ["A", "B", "C", "D"], "dealer": "A", "wins": [{"winner": "B", "discarder": "C", **QQR}]}
    # the discarder was not ready: he 承包s 40 + 60 + 40
    assert settle(rec, "wuhan").balances == {"A": 0, "B": 140, "C": -140, "D": 0}
    ready = dict(rec, seat_data={"C": {"ready": True}})
    assert settle(ready, "wuhan").balances == {"A": -40, "B": 140, "C": -60, "D": -40}
    # 口口翻: ×2 per opening (4 openings → ×16) → 320 / 480 / 320, all over 300 → 金顶 500
    kkf = hupai.Variant("wuhan", kou_kou_fan=True)
    assert hupai.score(QQR, variant=kkf).per_payer == 320
    assert settle(ready, kkf).balances == {"A": -500, "B": 1500, "C": -500, "D": -500}
