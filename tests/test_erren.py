"""二人麻将 (presets/erren.toml): every worked example of shared/rules/erren.md, the 役满 rule,
the 71-tile data, properties and typed errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import hupai
from tests.preset_helpers import ids, settle


def case(concealed: str, win: str, win_type: str = "self_draw", melds: list[dict[str, Any]] | None = None,
         **sit: Any) -> dict[str, Any]:
    return {"hand": {"concealed": [str(t) for t in hupai.parse_tiles(concealed)], "win_tile": win,
                     "melds": melds or []},
            "situation": {"win_type": win_type, **sit}}


def score(c: dict[str, Any], v: Any = "erren") -> hupai.Score:
    return hupai.score(c, variant=v)


def pats(r: hupai.Score) -> dict[str, int]:
    return {p.id: p.value * p.count for p in r.fans}


def test_listed_and_data() -> None:
    v = {x["id"]: x for x in hupai.variants()}
    assert v["erren"]["players"] == 2 and "71" in v["erren"]["description"]
    d = hupai.Variant("erren").describe()
    assert "71" in str(d) or d is not None


def test_example_1_small_hand() -> None:
    r = score(case("234m456m678p2245s", "3s", flowers=1, dealer=True))
    assert pats(r) == {"MEN_QING": 1, "MEN_QING_ZI_MO": 1, "DUAN_YAO_JIU": 1, "PING_HE": 1, "HUA_PAI": 1}
    assert r.total == 5
    s = settle({"seats": ["W", "O"], "dealer": "W",
                           "wins": [{"winner": "W", **case("234m456m678p2245s", "3s", flowers=1, dealer=True)}]},
                          "erren")
    assert s.balances == {"W": 5, "O": -5}


def test_example_2_capped_at_13() -> None:
    r = score(case("1122335678999m", "4m", flowers=2, ready_declared=True))
    assert pats(r) == {"QING_YI_SE": 5, "YI_QI_TONG_GUAN": 2, "YI_BEI_KOU": 2, "PING_HE": 1, "MEN_QING": 1,
                       "MEN_QING_ZI_MO": 1, "MEN_QING_BAO_TING": 1, "HUA_PAI": 2}
    assert r.raw_total == 15 and r.total == 13 and r.per_payer == 13
    # cap switch
    assert score(case("1122335678999m", "4m", flowers=2, ready_declared=True),
                 hupai.Variant("erren", cap_points=20)).total == 15


def test_example_3_yakuman_does_not_combine() -> None:
    c = case("55m123sCCCFF", "F", "discard", [{"type": "pon", "tiles": ["P", "P", "P"]}], flowers=1)
    r = score(c)
    assert ids(r) == ["DA_SAN_YUAN"] and r.total == 13 and r.extras["yakuman"]
    s = settle({"seats": ["W", "D"], "dealer": "D", "wins": [{"winner": "W", "discarder": "D", **c}]},
                          "erren")
    assert s.balances == {"W": 13, "D": -13}


def test_example_4_haidi_phase() -> None:
    c = case("123m678m456s9s", "9s", "self_draw", [{"type": "chi", "tiles": ["3p", "4p", "5p"]}],
             after_exhaustion=True)
    r = score(c)
    assert pats(r) == {"HAI_DI_LAO_YUE": 1} and r.total == 1
    # 流局 with no win: nothing paid
    assert settle({"seats": ["W", "O"]}, "erren").balances == {"W": 0, "O": 0}


def test_several_yakuman_still_13() -> None:
    # 字一色 + 大四喜 + 四暗刻
    r = score(case("EEESSSWWWNNNC", "C"))
    assert {"ZI_YI_SE", "DA_SI_XI", "SI_AN_KE"} <= set(ids(r)) and r.total == 13


@pytest.mark.parametrize(("concealed", "win", "wt", "yk"), [
    ("19m19p19sESWNCFP", "1m", "discard", "GUO_SHI_WU_SHUANG"),
    ("1112345678999m", "5m", "discard", "JIU_LIAN_BAO_DENG"),
    ("2223334446688s", "F", "discard", "LU_YI_SE"),
    ("2266m4488m3355m7m", "7m", "self_draw", "DA_CHE_LUN"),
    ("123456789mEEEN", "N", "discard", "DONG_BEI_XIN_GAN_XIAN"),
])
def test_yakuman_hands(concealed: str, win: str, wt: str, yk: str | None) -> None:
    try:
        r = score(case(concealed, win, wt))
    except hupai.InvalidHandError:
        assert yk is None
        return
    if yk is not None:
        assert yk in ids(r) and r.total == 13


def test_lu_yi_se_loose_needs_no_structure() -> None:
    r = score(case("223446888sFFFF", "6s", "discard"))
    assert ids(r) == ["LU_YI_SE"] and r.decomposition is None  # 绿一色 乱牌: no reading
    with pytest.raises(hupai.InvalidHandError):
        score(case("223446888sFFFF", "5s", "discard"))


def test_long_qi_dui_only_when_the_win_completes_the_quad() -> None:
    assert "LONG_QI_DUI" in ids(score(case("111m3344p5566s77s", "1m")))
    r = score(case("1111m3344p5566s7s", "7s"))
    assert "QI_DUI_ZI" in ids(r) and "LONG_QI_DUI" not in ids(r)


def test_tian_ting_replaces_bao_ting_and_tui_dao_hu() -> None:
    r = score(case("234m456m678p2245s", "3s", ready_first_turn=True))
    assert "TIAN_TING" in ids(r) and "MEN_QING_BAO_TING" not in ids(r)
    # an open hand with nothing: 推倒胡 1
    r = score(case("123m789p45s99s", "3s", "discard", [{"type": "pon", "tiles": ["E", "E", "E"]}]))
    assert ids(r) == ["TUI_DAO_HU"] and r.total == 1
    # 花牌 alone: scores the 花牌 count, no 推倒胡 (Q7)
    r = score(case("123m789p45s99s", "3s", "discard", [{"type": "pon", "tiles": ["E", "E", "E"]}], flowers=2))
    assert ids(r) == ["HUA_PAI"] and r.total == 2


def test_rob_kong_counts_as_self_draw() -> None:
    r = score(case("234m456m678p2245s", "3s", "rob_kong"))
    assert "MEN_QING_ZI_MO" in ids(r)
    r = score(case("234m456m678p2245s", "3s", "rob_kong"), hupai.Variant("erren", qiang_gang_as_zimo=False))
    assert "MEN_QING_ZI_MO" not in ids(r)


def test_san_an_ke_not_completed_by_discard() -> None:
    assert "SAN_AN_KE" in ids(score(case("111m222p333s456m7s", "7s")))
    assert "SAN_AN_KE" not in ids(score(case("111m222p33s456m77s", "3s", "discard")))


def test_typed_errors() -> None:
    with pytest.raises(hupai.InvalidHandError, match="not a winning hand"):
        score(case("234m456m678p2245s", "9s"))
    with pytest.raises(hupai.InvalidHandError, match="hua_pai_count"):
        score(case("234m456m678p2245s", "3s", flowers=5))
    with pytest.raises(hupai.InvalidHandError, match="dealer"):
        score(case("234m456m678p2245s", "3s", blessing="heavenly"))
    with pytest.raises(hupai.SettlementError, match="2 players"):
        settle({"seats": ["A", "B", "C"]}, "erren")
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("erren", cap_points=0)
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("erren", exclusion_profile="mcr")


PERMS = [("m", "p", "s"), ("p", "s", "m"), ("s", "m", "p"), ("p", "m", "s")]


def _perm(t: str, p: tuple[str, str, str]) -> str:
    return t[0] + p["mps".index(t[1])] if len(t) == 2 and t[1] in "mps" else t


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(PERMS), st.sampled_from([
    ("234m456m678p2245s", "3s"), ("1122335678999m", "4m"), ("123m789p456s99sEE", "E"), ("1133m5577p99s11pE", "E"),
]))
def test_suit_permutation_invariance_and_zero_sum(p: tuple[str, str, str], hw: tuple[str, str]) -> None:
    c0 = case(hw[0], hw[1])
    c1 = {"hand": {"concealed": [_perm(t, p) for t in c0["hand"]["concealed"]], "win_tile": _perm(hw[1], p),
                   "melds": []}, "situation": c0["situation"]}
    assert score(c0).total == score(c1).total
    s = settle({"seats": ["A", "B"], "wins": [{"winner": "A", **c1}]}, "erren")
    assert sum(s.balances.values()) == 0
