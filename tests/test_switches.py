"""Issue 6 switches: 二人 ``fan_profile = billee1011_option_4``, 上海 敲麻 / ``dragons_as_flowers`` /
百搭, 河北 带混儿 family (``wildcard``); and typed int arguments: an out-of-range Python int
(300, negative, 2**70) raises a ``hupai.HupaiError`` naming the parameter, never OverflowError."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import hupai
from tests.preset_helpers import tiles
from hupai import _core


def case(concealed: str, win: str, melds: list[dict[str, Any]] | None = None, **sit: Any) -> dict[str, Any]:
    return {"hand": {"concealed": tiles(concealed), "win_tile": win, "melds": melds or []}, "situation": sit}


def ids(r: Any) -> dict[str, int]:
    d = r.to_dict()
    key = "patterns" if "patterns" in d else "fans"
    return {p["id"]: p["value"] * p["count"] for p in d[key]}


def switch(variant: str, name: str) -> dict[str, Any]:
    v = {x["id"]: x for x in hupai.variants()}[variant]
    return {s["name"]: s for s in v["switches"]}[name]


# --- 二人麻将 billee1011_option_4 ------------------------------------------------------------

B4 = hupai.Variant("erren", fan_profile="billee1011_option_4")


def test_option4_listed_and_validated() -> None:
    sw = switch("erren", "fan_profile")
    assert sw["default"] == "qq_seed" and "billee1011_option_4" in sw["values"]
    with pytest.raises(hupai.RuleConfigError, match="fan_profile"):
        hupai.Variant("erren", fan_profile="option_5")
    with pytest.raises(hupai.RuleConfigError, match="riichi_like"):
        hupai.Variant("erren", fan_profile="billee1011_option_4", exclusion_profile="riichi_like")
    with pytest.raises(hupai.RuleConfigError, match="ping_he_requires_menqing"):
        hupai.Variant("erren", fan_profile="billee1011_option_4", ping_he_requires_menqing=True)


def test_option4_additive_values_and_exclusions() -> None:
    # 123m 345m 567m 789m 99m on a discard: 四步高 32 (不计 三步高, 老少副) + 清一色 16 + 无花牌 4
    # + 门前清 2 + 平和 2 = 56 — no 13-point cap.
    c = case("123m345m567m789m9m", "9m")
    r = hupai.score(c, variant=B4)
    assert ids(r) == {"B4_SI_BU_GAO": 32, "B4_QING_YI_SE": 16, "B4_WU_HUA_PAI": 4,
                      "B4_MEN_QIAN_QING": 2, "B4_PING_HE": 2}
    assert r.raw_total == r.total == r.per_payer == 56
    # The same call with the switch as a keyword of hupai.score.
    assert hupai.score(c, "erren", options={"fan_profile": "billee1011_option_4"}).raw_total == 56
    # Without the switch the seed table (cap 13) scores it differently.
    assert hupai.score(c, variant="erren").raw_total != 56
    # Self-drawn: 不求人 4 replaces 门前清 and 自摸.
    r = hupai.score(case("123m345m567m789m9m", "9m", self_drawn=True), variant=B4)
    assert "B4_BU_QIU_REN" in ids(r) and "B4_ZI_MO" not in ids(r) and r.raw_total == 58


def test_option4_limit_hands_and_waits() -> None:
    # 大三元 88 (不计 双箭刻, 箭刻) + 三暗刻 16 + 混一色 6 + 不求人 4 + 无花牌 4 + 单钓将 1.
    r = hupai.score(case("CCCFFFPPP123m5m", "5m", self_drawn=True), variant=B4)
    assert ids(r) == {"B4_DA_SAN_YUAN": 88, "B4_SAN_AN_KE": 16, "B4_HUN_YI_SE": 6, "B4_BU_QIU_REN": 4,
                      "B4_WU_HUA_PAI": 4, "B4_DAN_DIAO_JIANG": 1}
    # 九莲宝灯 不计 清一色 / 门前清 / 自摸.
    r = hupai.score(case("1112345678999m", "5m"), variant=B4)
    assert "B4_JIU_LIAN_BAO_DENG" in ids(r) and not {"B4_QING_YI_SE", "B4_MEN_QIAN_QING"} & ids(r).keys()
    # 大七星: seven honour pairs (不计 七对, 字一色 …).
    r = hupai.score(case("EESSWWNNCCFFP", "P"), variant=B4)
    assert "B4_DA_QI_XING" in ids(r) and not {"B4_QI_DUI", "B4_ZI_YI_SE"} & ids(r).keys()
    # 坎张: 46m waiting on 5m only.
    r = hupai.score(case("123m789mEEE46mSS", "5m"), variant=B4)
    assert ids(r).get("B4_KAN_ZHANG") == 1


def test_option4_kong_flower_doubling() -> None:
    # 杠上开花 doubles the sum (and replaces 自摸); flowers: 春夏秋冬 4 + 花牌 1 each.
    kong = [{"type": "kong_open", "tile": "E", "offer": 1}]
    base = case("123m456m789m5m", "5m", kong, win_type="self_draw", flower_tiles=["f1", "f2", "f3", "f4"])
    kai = case("123m456m789m5m", "5m", kong, win_type="kong_replacement", flower_tiles=["f1", "f2", "f3", "f4"])
    a, b = hupai.score(base, variant=B4), hupai.score(kai, variant=B4)
    pa = ids(a)
    assert pa["B4_CHUN_XIA_QIU_DONG"] == 4 and pa["B4_HUA_PAI"] == 4 and "B4_WU_HUA_PAI" not in pa
    assert "B4_ZI_MO" in pa and "B4_ZI_MO" not in ids(b)
    assert b.extras["factor"] == 2
    assert b.raw_total == 2 * (a.raw_total - pa["B4_ZI_MO"])
    # All eight flowers: 全花 16, not the two sets.
    r = hupai.score(case("123m456m789m5m", "5m", kong, flowers=8), variant=B4)
    assert ids(r)["B4_QUAN_HUA"] == 16 and "B4_CHUN_XIA_QIU_DONG" not in ids(r)


def test_option4_bao_ting_yi_fa() -> None:
    c = case("123m345m567m789m9m", "9m", ready_declared=True, ready_yi_fa=True)
    p = ids(hupai.score(c, variant=B4))
    assert p["B4_BAO_TING"] == 4 and p["B4_BAO_TING_YI_FA"] == 4
    with pytest.raises(hupai.InvalidHandError, match="ready_yi_fa"):
        hupai.score(c, variant="erren")
    with pytest.raises(hupai.InvalidHandError, match="ready_declared"):
        hupai.score(case("123m345m567m789m9m", "9m", ready_yi_fa=True), variant=B4)


def test_option4_tiles_checked() -> None:
    with pytest.raises(hupai.InvalidHandError, match="72 tiles"):
        hupai.score(case("123p345m567m789m9m", "9m"), variant=B4)
    with pytest.raises(hupai.InvalidHandError, match="not a winning hand"):
        hupai.score(case("123m345m567m789m9m", "8m"), variant=B4)


# --- 上海: 敲麻, dragons_as_flowers, 百搭 -----------------------------------------------------


def test_shanghai_switches_listed_and_validated() -> None:
    assert "qiao_ma" in switch("shanghai", "mode")["values"]
    assert switch("shanghai", "dragons_as_flowers")["default"] is False
    assert switch("shanghai", "baida")["values"] == ["none", "indicator_next", "indicator"]
    for bad in ({"mode": "qiaoma"}, {"baida": "white"}, {"dragons_as_flowers": "yes"}):
        with pytest.raises(hupai.RuleConfigError):
            hupai.Variant("shanghai", **bad)


def test_shanghai_qiao_ma() -> None:
    c = case("123m456p789s234s5p", "5p", ready_declared=True)
    with pytest.raises(hupai.InvalidHandError, match="清混碰"):
        hupai.score(c, "shanghai")
    r = hupai.score(c, "shanghai", options={"mode": "qiao_ma"})
    assert ids(r) == {"MEN_QING": 1, "DAN_DIAO": 1} and r.per_payer == 3 * 4
    with pytest.raises(hupai.InvalidHandError, match="敲"):
        hupai.score(case("123m456p789s234s5p", "5p"), "shanghai", options={"mode": "qiao_ma"})
    # 无番胡 after 吃: 3 chips.
    chi = [{"type": "chi", "tile": "2m"}]
    assert hupai.score(case("456p789s22s5p6p", "7p", chi, ready_declared=True), "shanghai", options={"mode": "qiao_ma"}).per_payer == 3


def test_shanghai_dragons_as_flowers() -> None:
    ex1 = case("234p567p88pSS", "S", [{"type": "pon", "tile": "E"}], self_drawn=True,
               flower_tiles=["f1", "f5"], dragon_flowers=2)
    r = hupai.score(ex1, "shanghai", options={"dragons_as_flowers": True})
    assert (r.extras["hua"], r.per_payer) == (5, 32)
    with pytest.raises(hupai.InvalidHandError, match="dragons_as_flowers"):
        hupai.score(ex1, "shanghai")
    with pytest.raises(hupai.InvalidHandError, match="flower"):
        hupai.score(case("EEESSSWWWNNNC", "C"), "shanghai", options={"dragons_as_flowers": True})


def test_shanghai_baida() -> None:
    # Example 1 with an 8p replaced by 2s; the flipped 1s makes 2s the 百搭 → 混一色 24 again.
    c = case("234p567p8p2sSS", "S", [{"type": "pon", "tile": "E"}], self_drawn=True,
             flower_tiles=["f1", "f5"], wild_indicator="1s")
    r = hupai.score(c, "shanghai", options={"baida": "indicator_next"})
    assert list(ids(r)) == ["HUN_YI_SE"] and r.per_payer == 24
    with pytest.raises(hupai.InvalidHandError, match="baida=none"):
        hupai.score(c, "shanghai")
    del c["situation"]["wild_indicator"]
    with pytest.raises(hupai.InvalidHandError, match="wild_indicator"):
        hupai.score(c, "shanghai", options={"baida": "indicator"})


# --- 河北: 带混儿 family ---------------------------------------------------------------------


def test_hebei_wildcard_family() -> None:
    assert switch("hebei", "wildcard")["values"] == ["none", "dai_hun", "random_laizi", "hongzhong"]
    kong = [{"type": "kong_open", "tile": "9p", "offer": 2}]
    c = case("234m678m345s5m", "7p", kong)
    with pytest.raises(hupai.InvalidHandError):
        hupai.score(c, "hebei")
    c["situation"]["wild_indicator"] = "4m"
    r = hupai.score(c, "hebei", options={"wildcard": "dai_hun"})  # 5m is the 混儿
    assert r.total == 3 and r.extras["wildcard"] == "5m" and r.decomposition["wildcards"] == ["7p"]
    c["situation"]["wild_indicator"] = "5m"
    assert hupai.score(c, "hebei", options={"wildcard": "random_laizi"}).total == 3
    with pytest.raises(hupai.InvalidHandError, match="wildcard=none"):
        hupai.score(c, "hebei")
    # 红中癞子: a 红中 read as 5m makes 清一色 (9), not 平胡 (2).
    r = hupai.score(case("111m345m678m999m5m", "C", self_drawn=True), "hebei", options={"wildcard": "hongzhong"})
    assert r.total == 9 and r.to_dict()["fans"][0]["id"] == "QING_YI_SE"
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("hebei", wildcard="hun")


# --- out-of-range ints ------------------------------------------------------------------------

H13 = "123m456p789s1122z"
ROWS = np.zeros((1, 34), np.uint8)
SEAT = ([0] * 34, [], True, None, False, False, 0, 27, False)

INT_PARAMS: list[tuple[str, Callable[[Any], Any]]] = [
    ("wildcards", lambda v: hupai.is_winning("123m456p789s11222z", wildcards=v)),
    ("wildcards", lambda v: hupai.shanten(H13, wildcards=v)),
    ("wildcards", lambda v: hupai.waits(H13, wildcards=v)),
    ("wildcards", lambda v: hupai.useful_tiles(H13, wildcards=v)),
    ("wildcards", lambda v: hupai.discard_options("123m456p789s11222z", wildcards=v)),
    ("wildcards", lambda v: hupai.decompose("123m456p789s11222z", wildcards=v)),
    ("wildcards", lambda v: hupai.batch.is_winning(ROWS, wildcards=v)),
    ("wildcards", lambda v: hupai.batch.shanten(ROWS, wildcards=v)),
    ("wildcards", lambda v: hupai.batch.waits(ROWS, wildcards=v)),
    ("from_seat", lambda v: hupai.Meld("111m", from_seat=v)),
    ("from_seat", lambda v: hupai.Meld.of("pung", "1m", from_seat=v)),
    ("index", lambda v: hupai.Tile.from_index(v)),
    ("count", lambda v: hupai.from_counts([v] + [0] * 33)),
    ("count", lambda v: hupai.zipai.from_counts([v] + [0] * 19)),
    ("flowers", lambda v: hupai.Situation.parse("123m456p789s1122z+1z", flowers=v)),
    ("kai_bao", lambda v: hupai.score(case("1m", "1m", kai_bao=v), "shanghai")),
    ("da_jiao", lambda v: hupai.Settlement(["A", "B", "C", "D"], "sichuan").draw_end({"A": {"da_jiao": v}})),
    ("index", lambda v: hupai.zipai.Card.from_index(v)),
    ("seat", lambda v: hupai.score("[EEE,1]123m456p78s99s+9s", seat=v)),
    ("discarder", lambda v: hupai.score("[EEE,1]123m456p78s99s+9s", discarder=v)),
    ("threads", lambda v: _core.score_batch([], threads=v)),
    ("huxi", lambda v: hupai.zipai.duo(v)),
    ("base_factor", lambda v: hupai.kawuxing.settle(["A", "B", "C"], [], base_factor=v)),
    ("amount", lambda v: hupai.Settlement(["A", "B", "C", "D"]).penalty("A", ["B"], v)),
    ("amount", lambda v: hupai.Settlement(["A", "B", "C", "D"]).win("A", v)),
    ("deltas", lambda v: hupai.Settlement(["A", "B"]).record("ADJUSTMENT", [("A", v), ("B", 0)])),
    ("ref", lambda v: hupai.Settlement(["A", "B"]).record("ADJUSTMENT", [("A", 1), ("B", -1)], ref=v)),
    ("flowers", lambda v: hupai.Situation("123m456p789s1122z", "1z", flowers=v)),
    ("min_fan", lambda v: hupai.Variant("mcr", min_fan=v)),
    ("lezi_chips", lambda v: hupai.Variant("shanghai", lezi_chips=v)),
    ("discarder", lambda v: _core.flow_claims(hupai.Variant("mcr"), [SEAT] * 4, v, 0, "discard", 27,
                                               False, False)),
    ("tile", lambda v: _core.flow_claims(hupai.Variant("mcr"), [SEAT] * 4, 0, v, "discard", 27, False, False)),
    ("wall_remaining", lambda v: _core.flow_claims(hupai.Variant("mcr"), [SEAT] * 4, 0, 0, "discard", 27,
                                                    False, False, wall_remaining=v)),
    ("counts", lambda v: _core.flow_turn(hupai.Variant("mcr"), ([v] + [0] * 33, [], True, None, False, False,
                                                                0, 27, False), 0, None, "self_draw", 27,
                                         False, False)),
    ("index", lambda v: _core.flow_turn(hupai.Variant("mcr"), SEAT, v, None, "self_draw", 27, False, False)),
    ("prevalent", lambda v: _core.flow_turn(hupai.Variant("mcr"), SEAT, 0, None, "self_draw", v, False, False)),
]


@pytest.mark.parametrize("value", [300, -1, 2**70, -(2**70)])
@pytest.mark.parametrize("name,call", INT_PARAMS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(INT_PARAMS)])
def test_out_of_range_ints_are_hupai_errors(name: str, call: Callable[[Any], Any], value: int) -> None:
    try:
        call(value)
    except hupai.HupaiError as e:
        assert not isinstance(e, OverflowError)
        if abs(value) > 2**63:  # rejected for its size: the message names the parameter
            assert name in str(e), f"{name}={value}: the message does not name the parameter: {e}"
    except OverflowError as e:  # pragma: no cover - the bug this test guards against
        pytest.fail(f"{name}={value}: OverflowError {e}")
    # 300 / -1 may be legal or rejected for another reason (an amount, a total, a huxi): any result
    # but OverflowError or a non-HupaiError is fine.


# --- properties of the wildcard switches ------------------------------------------------------

KINDS = [str(hupai.Tile.from_index(i)) for i in range(34)]
PRED = {str(hupai.Tile.from_index(i).next()): str(hupai.Tile.from_index(i)) for i in range(34)}


@st.composite
def complete_hands(draw: st.DrawFn) -> list[str]:
    """A random complete standard hand (4 sets + a pair, at most four copies of a kind)."""
    anchors = draw(st.lists(st.integers(0, 33), min_size=5, max_size=5, unique=True))
    chow = draw(st.lists(st.booleans(), min_size=4, max_size=4))
    out: list[str] = []
    for k, c in zip(anchors[:4], chow):
        if c and k < 27 and k % 9 <= 6:
            out += [KINDS[k + d] for d in range(3)]
        else:
            out += [KINDS[k]] * 3
    out += [KINDS[anchors[4]]] * 2
    assume(all(out.count(t) <= 4 for t in out))
    return out


@settings(max_examples=60, deadline=None)
@given(complete_hands(), st.integers(0, 12), st.booleans())
def test_wild_kind_never_lowers_a_win(hand14: list[str], j: int, self_drawn: bool) -> None:
    """带混儿 / 百搭: a hand without the wild kind scores as without the switch; replacing one of its
    standing tiles by a wild copy never turns a win into a loss or lowers its value."""
    concealed, win = hand14[:13], hand14[13]
    wild = next(k for k in KINDS if k not in hand14)
    ind = PRED[wild]
    c = case("".join(concealed), win, self_drawn=self_drawn)
    plain = hupai.score(c, "hebei").total
    c["situation"]["wild_indicator"] = ind
    assert hupai.score(c, "hebei", options={"wildcard": "dai_hun"}).total == plain
    swapped = [*concealed]
    swapped[j] = wild
    c2 = case("".join(swapped), win, self_drawn=self_drawn, wild_indicator=ind)
    assert hupai.score(c2, "hebei", options={"wildcard": "dai_hun"}).total >= plain
    # 上海 any_hand mode with 百搭: the same monotonicity for the share.
    sh = case("".join(concealed), win, self_drawn=self_drawn)
    base = hupai.score(sh, "shanghai", options={"mode": "any_hand"}).per_payer
    sh2 = case("".join(swapped), win, self_drawn=self_drawn, wild_indicator=ind)
    assert hupai.score(sh2, "shanghai", options={"mode": "any_hand", "baida": "indicator_next"}).per_payer >= base
