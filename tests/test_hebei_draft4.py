"""河北 第4稿 (``hebei_draft4``): the worked examples of shared/rules/hebei_draft4.md, the spec's
"points easy to get wrong", typed errors and zero-sum / suit-permutation properties."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hupai
from tests.preset_helpers import balances, hand, ids, settle, tiles
from hupai import hebei_draft4

SEATS = ["D", "W", "A", "B"]


def test_listed() -> None:
    v = {x["id"]: x for x in hupai.variants()}["hebei_draft4"]
    assert v["players"] == 4 and "640" in v["description"]


def test_example1_zhuo_wu_kui_dian_zhuang() -> None:
    s = hand("123m46m789p234s55s", "5m")
    r = hupai.score(s, variant="hebei_draft4")
    assert isinstance(r, hupai.Score)
    assert ids(r) == ["MEN_QING", "ZHUO_WU_KUI"] and r.extras["multiplier"] == 4
    led = settle(
        {"seats": SEATS, "dealer": "D", "win": {"winner": "W", "discarder": "D", **s},
         "kongs": [{"owner": "A", "type": "open", "feeder": "W"}]}
    , "hebei_draft4")
    assert balances(led) == {"D": -160, "W": 160, "A": 0, "B": 0}


def test_example2_dealer_self_draw_capped_640() -> None:
    s = hand("345m666m777m9m", "9m", [{"type": "kong_concealed", "tile": "2m"}], self_drawn=True)
    r = hebei_draft4.score(s)
    assert ids(r) == ["MEN_QING", "QING_YI_SE"] and r.extras["multiplier"] == 64
    led = settle({"seats": SEATS, "dealer": "D", "win": {"winner": "D", **s},
                               "kongs": [{"owner": "D", "type": "concealed"}]}, "hebei_draft4")
    assert balances(led) == {"D": 1980, "W": -660, "A": -660, "B": -660}


def test_example3_floor_gen_zhuang_open_kong() -> None:
    s = hand("555m888m2s", "2s", [{"type": "kong_open", "tile": "7p", "offer": 2}, {"type": "pon", "tile": "3s", "offer": 3}],
             self_drawn=True)
    assert ids(hebei_draft4.score(s)) == ["DUI_DUI_HE"]
    led = settle({"seats": ["D", "W", "X", "Y"], "dealer": "D", "table": {"floor": 1, "gen_zhuang": True},
                               "win": {"winner": "W", **s}, "kongs": [{"owner": "W", "type": "open", "feeder": "X"}]}, "hebei_draft4")
    assert balances(led) == {"D": -110, "W": 180, "X": -40, "Y": -30}
    assert [e["kind"] for e in led.events] == ["FOLLOW_DEALER", "WIN", "KONG_DEFERRED"]


def test_example4_men_qing_required_for_discard_wins() -> None:
    open_hand = hand("123m456p78s99s", "9s", [{"type": "pon", "tile": "E"}])
    with pytest.raises(hupai.InvalidHandError, match="门清"):
        hebei_draft4.score(open_hand)
    open_hand["situation"] = {"self_drawn": True}
    hebei_draft4.score(open_hand)
    rob = hand("123m456p78s99s", "9s", [{"type": "pon", "tile": "E"}], win_type="rob_kong")
    with pytest.raises(hupai.InvalidHandError):
        hebei_draft4.score(rob)
    mq = hand("123m456p789s78s99s", "9s")
    assert ids(hebei_draft4.score(mq)) == ["MEN_QING"]
    led = settle({"seats": SEATS, "dealer": "D", "win": {"winner": "W", "discarder": "A", **mq}}, "hebei_draft4")
    assert balances(led) == {"D": 0, "W": 40, "A": -40, "B": 0}


def test_payment_table_and_caps() -> None:
    # 平摸 (40: dealer 20, others 10) with 门清 + self-draw → ×2.
    s = hand("123m456p789s78s99s", "9s", self_drawn=True)
    led = settle({"seats": SEATS, "dealer": "D", "win": {"winner": "W", **s}}, "hebei_draft4")
    assert balances(led) == {"D": -40, "W": 80, "A": -20, "B": -20}
    # 庄点 30; 6番 cap applied to the dealer too: 豪华七对子 + 清一色 + 门清 = 11 → 6 → 30 × 64 → 640.
    big = hand("1122334455667m", "7m")
    assert hebei_draft4.score(big).extras["multiplier"] == 64
    led = settle({"seats": SEATS, "dealer": "D", "win": {"winner": "D", "discarder": "A", **big}}, "hebei_draft4")
    assert balances(led)["A"] == -640
    # 上楼 floors ×2 each, capped before the floor by default.
    led = settle({"seats": SEATS, "dealer": "D", "table": {"floor": 2}, "win": {"winner": "D", "discarder": "A", **big}}, "hebei_draft4")
    assert balances(led)["A"] == -2560
    v = hupai.Variant("hebei_draft4", cap_before_floor=False)
    led = settle({"seats": SEATS, "dealer": "D", "table": {"floor": 2}, "win": {"winner": "D", "discarder": "A", **big}}, v)
    assert balances(led)["A"] == -640
    # 荒牌: kongs are not paid.
    led = settle({"seats": SEATS, "dealer": "D", "kongs": [{"owner": "A", "type": "concealed"}]}, "hebei_draft4")
    assert balances(led) == {s: 0 for s in SEATS}


def test_zhuo_wu_kui_needs_single_wait() -> None:
    r = hebei_draft4.score(hand("4446m789p234s555s", "5m", self_drawn=True))
    assert "ZHUO_WU_KUI" not in ids(r)


def test_errors() -> None:
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("hebei_draft4", shang_lou="attic")
    with pytest.raises(hupai.InvalidHandError):
        hebei_draft4.score(hand("123m456p789s78s99s", "9s", flowers=1))
    for bad in (
        {"seats": SEATS[:3], "dealer": "D"},
        {"seats": SEATS, "dealer": "Z"},
        {"seats": SEATS, "dealer": "D", "table": {"floor": 3}},
        {"seats": SEATS, "dealer": "D", "win": {"winner": "W", **hand("123m456p789s78s99s", "9s")}},
    ):
        with pytest.raises(hupai.SettlementError):
            settle(bad, "hebei_draft4")


PERM = {"m": "p", "p": "s", "s": "m"}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["123m456p789s78s99s", "1122334455667p", "555p888p2sEEE333s"]), st.booleans(),
       st.sampled_from(SEATS), st.integers(0, 2))
def test_zero_sum_and_suit_permutation(concealed: str, self_drawn: bool, winner: str, floor: int) -> None:
    ts = tiles(concealed)
    for w in [str(x) for x in hupai.waits(ts)]:
        s = {"hand": {"concealed": ts, "win_tile": w}, "situation": {"self_drawn": self_drawn}}
        p = {"hand": {"concealed": [t[0] + PERM[t[1]] if len(t) == 2 else t for t in ts],
                      "win_tile": w[0] + PERM[w[1]] if len(w) == 2 else w}, "situation": s["situation"]}
        ra = hebei_draft4.score(s)
        if "5m" not in ts and not w.endswith("m"):
            rb = hebei_draft4.score(p)
            assert ra.raw_total == rb.raw_total
        win: dict[str, Any] = {"winner": winner, **s}
        if not self_drawn:
            win["discarder"] = next(x for x in SEATS if x != winner)
        led = settle({"seats": SEATS, "dealer": "D", "table": {"floor": floor}, "win": win}, "hebei_draft4")
        assert sum(led.balances.values()) == 0 and led.balances[winner] > 0
