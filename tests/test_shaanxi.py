"""陕西麻将 (presets/shaanxi.toml): every worked example of shared/rules/shaanxi.md and the points
easy to get wrong (win shapes, 截胡, 庄家翻倍 only on the win part, 下炮子 formulas, 荒庄 data)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import hupai
from tests.preset_helpers import ids
from tests.preset_helpers import settle as settle_record


def case(concealed: str, win: str, win_type: str = "self_draw", melds: list[dict[str, Any]] | None = None,
         **sit: Any) -> dict[str, Any]:
    return {"hand": {"concealed": [str(t) for t in hupai.parse_tiles(concealed)], "win_tile": win,
                     "melds": melds or []},
            "situation": {"win_type": win_type, **sit}}


def settle(rec: dict[str, Any], v: Any = "shaanxi") -> dict[str, int]:
    return settle_record(rec, v).balances


EX1_WIN = case("123m456m789s2s", "2s", "self_draw", [{"type": "kong_concealed", "tiles": ["6p"] * 4}])
EX1 = {"seats": ["D", "W", "X", "Y"], "dealer": "D", "kongs": [{"owner": "W", "kind": "concealed"}],
       "wins": [{"winner": "W", **EX1_WIN}],
       "seat_data": {"W": {"pao_zi": 2}, "D": {"pao_zi": 1}, "X": {"pao_zi": 0}, "Y": {"pao_zi": 3}}}


def test_listed() -> None:
    v = {x["id"]: x for x in hupai.variants()}
    assert v["shaanxi"]["players"] == 4 and "截胡" in v["shaanxi"]["description"]


def test_example_1_self_draw_pao_zi_dealer_double() -> None:
    r = hupai.score(EX1_WIN, variant="shaanxi")
    assert ids(r) == ["PING_HU", "ZI_MO"] and r.per_payer == 6
    s = settle_record(EX1, "shaanxi")
    assert s.balances == {"D": -36, "X": -24, "Y": -42, "W": 102}
    ev = {e["kind"]: e["deltas"] for e in s.events}
    # 庄家翻倍 only on the win part: the dealer pays 12 there, but his 炮子 line has no factor
    assert ev["WIN"] == {"D": -12, "X": -6, "Y": -6, "W": 24}
    assert ev["ADDON"] == {"D": -18, "X": -12, "Y": -30, "W": 60}
    assert ev["KONG_INSTANT"] == {"D": -6, "X": -6, "Y": -6, "W": 18}


EX2_WIN = case("1m9m1p9p1s9sESWNCFP", "1m", "discard", dealer=True)


def test_example_2_dealer_shi_san_yao_on_discard() -> None:
    r = hupai.score(EX2_WIN, variant="shaanxi")
    assert ids(r) == ["SHI_SAN_YAO", "FANG_HU"] and r.per_payer == 3
    rec = {"seats": ["W", "X", "Y", "Z"], "dealer": "W", "kongs": [{"owner": "Z", "kind": "concealed"}],
           "wins": [{"winner": "W", "discarder": "X", **EX2_WIN}],
           "seat_data": {"W": {"pao_zi": 0}, "X": {"pao_zi": 1}, "Y": {"pao_zi": 0}, "Z": {"pao_zi": 2}}}
    assert settle(rec) == {"W": 21, "X": -15, "Y": -12, "Z": 6}
    # Q2 alternatives
    assert settle(rec, hupai.Variant("shaanxi", discard_payers="discarder_pays_for_all")) == \
        {"W": 21, "X": -27, "Y": -6, "Z": 12}
    # 截胡: a second winner on the same discard is refused
    rec2 = dict(rec, wins=rec["wins"] + [{"winner": "Y", "discarder": "X", **case("1m9m1p9p1s9sESWNCFP", "1m", "discard")}])
    with pytest.raises(hupai.SettlementError, match="截胡"):
        settle(rec2)


def test_example_3_kong_then_huangzhuang() -> None:
    rec = {"seats": ["D", "X", "Y", "Z"], "dealer": "D", "kongs": [{"owner": "Y", "kind": "open", "feeder": "X"}],
           "seat_data": {"X": {"pao_zi": 4}}}
    assert settle(rec) == {"D": 0, "X": -6, "Y": 6, "Z": 0}
    assert settle({"seats": ["D", "X", "Y", "Z"], "kongs": [{"owner": "Y", "kind": "added"}]}) == \
        {"D": -3, "X": -3, "Y": 9, "Z": -3}


@pytest.mark.parametrize(("concealed", "win", "shape"), [
    ("1122m3344p5566s7s", "7s", "QI_DUI"),
    ("1111m3344p5566s7s", "7s", "QI_DUI"),
    ("147m258p369sESWN", "C", "QUAN_BU_KAO"),
    ("147m258p369s123m5p", "5p", "ZU_HE_LONG"),
    ("1m9m1p9p1s9sESWNCFP", "P", "SHI_SAN_YAO"),
])
def test_special_shapes(concealed: str, win: str, shape: str) -> None:
    r = hupai.score(case(concealed, win), variant="shaanxi")
    assert ids(r)[0] == shape and r.raw_total == 1
    if shape != "QI_DUI":
        with pytest.raises(hupai.InvalidHandError):
            hupai.score(case(concealed, win), variant=hupai.Variant("shaanxi", shapes="standard_and_seven_pairs"))


def test_flat_value_and_kuaikai_doubling() -> None:
    big = case("111m222m333m789m5m", "5m", "discard")
    assert hupai.score(big, variant="shaanxi").per_payer == 3
    assert hupai.score(big, variant=hupai.Variant("shaanxi", fan_profile="kuaikai")).per_payer == 6
    with pytest.raises(hupai.InvalidHandError, match="not a winning hand"):
        hupai.score(case("1111m3344p5566s7s", "7s"), variant=hupai.Variant("shaanxi", qidui_quad_as_two_pairs=False))


def test_flow_data() -> None:
    flow = hupai.Variant("shaanxi").describe()["rules"]["flow"]
    assert flow["jiehu_order"] == "from_discarder"
    # switch-mapped table fact: the switch exhaustion_reserve_stacks picks the list (default literal)
    assert flow["exhaustion_reserve_stacks"]["switch"] == "exhaustion_reserve_stacks"
    assert flow["exhaustion_reserve_stacks"]["literal_13_7_8_13"] == [13, 7, 8, 13]
    assert flow["pass_win_lock"] == "same_tile_until_action"
    assert hupai.Variant("shaanxi").describe()["rules"]["multi_ron"] is False


def test_typed_errors() -> None:
    with pytest.raises(hupai.SettlementError, match="pao_zi"):
        settle(dict(EX1, seat_data={"W": {"pao_zi": 5}}))
    with pytest.raises(hupai.SettlementError, match="dealer"):
        settle({k: v for k, v in EX1.items() if k != "dealer"})
    with pytest.raises(hupai.InvalidHandError, match="吃"):
        hupai.score(case("456m789s22s99p", "2s", "discard", [{"type": "chi", "tiles": ["1m", "2m", "3m"]}]),
                    variant="shaanxi")
    with pytest.raises(hupai.InvalidHandError, match="not a winning hand"):
        hupai.score(case("123m456m789s258s4p", "5s"), variant="shaanxi")
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("shaanxi", discard_payers="nobody")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=4, max_size=4), st.integers(0, 3), st.integers(0, 3),
       st.booleans())
def test_zero_sum_and_pao_formula(p: list[int], wi: int, di: int, self_draw: bool) -> None:
    seats = ["A", "B", "C", "D"]
    w = case("123m456m789s2s", "2s", "self_draw" if self_draw else "discard",
             [{"type": "kong_concealed", "tiles": ["6p"] * 4}], dealer=(wi == di))
    win: dict[str, Any] = {"winner": seats[wi], **w}
    if not self_draw:
        win["discarder"] = seats[(wi + 1) % 4]
    rec = {"seats": seats, "dealer": seats[di], "wins": [win],
           "seat_data": {s: {"pao_zi": x} for s, x in zip(seats, p)}}
    s = settle_record(rec, "shaanxi")
    assert sum(s.balances.values()) == 0
    a = 2 if self_draw else 1
    addon = [e for e in s.events if e["kind"] == "ADDON"]
    got = addon[0]["deltas"].get(seats[wi], 0) if addon else 0
    assert got == (3 * p[wi] + sum(p) - p[wi]) * a * 3
