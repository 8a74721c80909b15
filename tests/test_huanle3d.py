"""欢乐麻将3D (presets/huanle3d.toml): every worked example of shared/rules/huanle3d.md and the
seed's five rules, plus properties and typed errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import hupai
from tests.preset_helpers import ids, settle


def case(concealed: str, win: str, win_type: str, melds: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "hand": {"concealed": [str(t) for t in hupai.parse_tiles(concealed)], "win_tile": win, "melds": melds or []},
        "situation": {"win_type": win_type},
    }


def win(winner: str, c: dict[str, Any], discarder: str | None = None) -> dict[str, Any]:
    return {"winner": winner, "discarder": discarder, **c}


def test_listed() -> None:
    v = {x["id"]: x for x in hupai.variants()}
    assert "huanle3d" in v and v["huanle3d"]["players"] == 4
    assert "欢乐麻将3D" in v["huanle3d"]["name"]


def test_example_1_xiao_hu() -> None:
    c = case("123m456m789p234s5s", "5s", "self_draw")
    r = hupai.score(c, variant="huanle3d")
    assert ids(r) == ["XIAO_HU"] and r.per_payer == 1 and len(r.payments) == 3
    s = settle({"seats": ["W", "A", "B", "C"], "wins": [win("W", c)]}, "huanle3d")
    assert s.balances == {"W": 3, "A": -1, "B": -1, "C": -1}


EX2 = case("777s999s4m", "4m", "kong_replacement",
           [{"type": "kong_concealed", "tiles": ["6p"] * 4}, {"type": "pon", "tiles": ["2m"] * 3}])


def test_example_2_rule_5_nine_each() -> None:
    r = hupai.score(EX2, variant="huanle3d")
    assert set(ids(r)) == {"DUI_DUI_PENG", "GANG_SHANG_KAI_HUA"} and r.per_payer == 9
    rec = {"seats": ["D", "A", "B", "C"], "kongs": [{"owner": "D", "kind": "concealed"}], "wins": [win("D", EX2)]}
    s = settle(rec, "huanle3d")
    assert s.balances == {"D": 30, "A": -10, "B": -10, "C": -10}
    kinds = [e["kind"] for e in s.events]
    assert kinds == ["KONG_INSTANT", "WIN"]


EX3 = case("345m666m456s13p22s", "2p", "after_kong_discard")


def test_example_3_gang_shang_pao_only_kong_owner_pays() -> None:
    r = hupai.score(EX3, variant="huanle3d")
    assert ids(r) == ["GANG_SHANG_PAO"] and r.per_payer == 3 and len(r.payments) == 1
    rec = {"seats": ["A", "B", "C", "D"], "kongs": [{"owner": "C", "kind": "open", "feeder": "B"}],
           "wins": [win("A", EX3, "C")]}
    assert settle(rec, "huanle3d").balances == {"A": 3, "B": -1, "C": -2, "D": 0}


def test_rule_1_self_draw_only() -> None:
    c = case("123m456m789p234s5s", "5s", "discard")
    with pytest.raises(hupai.InvalidHandError, match="self-draw"):
        hupai.score(c, variant="huanle3d")
    with pytest.raises(hupai.InvalidHandError, match="抢杠"):
        hupai.score(case("123m456m789p234s5s", "5s", "rob_kong"), variant="huanle3d")
    v = hupai.Variant("huanle3d", discard_win="also_rob_kong")
    assert hupai.score(case("123m456m789p234s5s", "5s", "rob_kong"), variant=v).per_payer == 1


def test_rule_1_no_chi_no_honours() -> None:
    with pytest.raises(hupai.InvalidHandError, match="吃"):
        hupai.score(case("456m789p234s5s", "5s", "self_draw", [{"type": "chi", "tiles": ["1m", "2m", "3m"]}]),
                    variant="huanle3d")
    with pytest.raises(hupai.InvalidHandError, match="not in play"):
        hupai.score(case("123m456m789pEEE5s", "5s", "self_draw"), variant="huanle3d")
    v = hupai.Variant("huanle3d", tile_set="full136")
    assert hupai.score(case("123m456m789pEEE5s", "5s", "self_draw"), variant=v).per_payer == 1


def test_rule_2_kong_chips() -> None:
    rec = {"seats": ["A", "B", "C", "D"], "kongs": [
        {"owner": "A", "kind": "open", "feeder": "B"},
        {"owner": "A", "kind": "added", "feeder": "C"},
        {"owner": "B", "kind": "concealed"}]}
    s = settle(rec, "huanle3d")
    assert s.balances == {"A": 1, "B": 2, "C": -2, "D": -1}
    with pytest.raises(hupai.SettlementError, match="feeder"):
        settle({"seats": ["A", "B", "C", "D"], "kongs": [{"owner": "A", "kind": "open"}]}, "huanle3d")
    # 荒庄: kong chips stand, nothing else is paid
    assert len(s.events) == 3
    # switch: kong chips only when the owner wins
    v = hupai.Variant("huanle3d", kong_payment="on_owner_win")
    assert settle(rec, v).balances == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_rule_3_seven_pairs() -> None:
    r = hupai.score(case("1122m3344p5566s7s", "7s", "self_draw"), variant="huanle3d")
    assert ids(r) == ["QI_XIAO_DUI"] and r.per_payer == 3
    r = hupai.score(case("1111m3344p5566s7s", "7s", "self_draw"), variant="huanle3d")
    assert ids(r) == ["QI_DA_DUI"] and r.per_payer == 3
    v = hupai.Variant("huanle3d", qi_da_dui="alias_dui_dui")
    assert ids(hupai.score(case("1111m3344p5566s7s", "7s", "self_draw"), variant=v)) == ["QI_XIAO_DUI"]
    # 七小对 on a kong replacement: two 大胡
    assert hupai.score(case("1122m3344p5566s7s", "7s", "kong_replacement"), variant="huanle3d").per_payer == 9


def test_multi_ron_on_gang_shang_pao() -> None:
    rec = {"seats": ["A", "B", "C", "D"], "kongs": [{"owner": "C", "kind": "concealed"}],
           "wins": [win("A", EX3, "C"), win("B", EX3, "C")]}
    assert settle(rec, "huanle3d").balances == {"A": 2, "B": 2, "C": -3, "D": -1}
    with pytest.raises(hupai.SettlementError):
        settle(rec, hupai.Variant("huanle3d", multi_ron_on_gang_shang_pao=False))
    bad = {"seats": ["A", "B", "C", "D"], "kongs": [{"owner": "C", "kind": "concealed"}], "wins": [win("A", EX3, "B")]}
    with pytest.raises(hupai.SettlementError, match="owner of the last kong"):
        settle(bad, "huanle3d")


def test_bad_inputs_are_typed() -> None:
    with pytest.raises(hupai.InvalidHandError, match="not a winning hand"):
        hupai.score(case("123m456m789p234s6s", "5s", "self_draw"), variant="huanle3d")
    with pytest.raises(hupai.SettlementError, match="unknown seat"):
        settle({"seats": ["A", "B", "C", "D"], "wins": [win("X", EX2)]}, "huanle3d")
    with pytest.raises(hupai.SettlementError, match="4 players"):
        settle({"seats": ["A", "B"]}, "huanle3d")
    with pytest.raises(hupai.SettlementError):
        settle({"seats": ["A", "B", "C", "D"], "bogus": 1}, "huanle3d")
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("huanle3d", tile_set="nope")


PERMS = [("m", "p", "s"), ("p", "s", "m"), ("s", "m", "p"), ("m", "s", "p")]


def _perm(t: str, p: tuple[str, str, str]) -> str:
    return t[0] + p["mps".index(t[1])] if len(t) == 2 and t[1] in "mps" else t


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(PERMS), st.sampled_from(["self_draw", "kong_replacement"]))
def test_suit_permutation_invariance_and_zero_sum(p: tuple[str, str, str], wt: str) -> None:
    base = EX2
    c = {"hand": {"concealed": [_perm(t, p) for t in base["hand"]["concealed"]],
                  "win_tile": _perm(base["hand"]["win_tile"], p),
                  "melds": [{"type": m["type"], "tiles": [_perm(t, p) for t in m["tiles"]]} for m in base["hand"]["melds"]]},
         "situation": {"win_type": wt}}
    r = hupai.score(c, variant="huanle3d")
    assert r.per_payer == (9 if wt == "kong_replacement" else 3)
    s = settle({"seats": ["D", "A", "B", "C"], "kongs": [{"owner": "D", "kind": "concealed"}],
                           "wins": [win("D", c)]}, "huanle3d")
    assert sum(s.balances.values()) == 0


def test_cli_score_pattern_preset(capsys: pytest.CaptureFixture[str]) -> None:
    from hupai import cli

    assert cli.main(["score", "123m456m789p234s5s", "--win-tile", "5s", "--variant", "huanle3d", "--self-drawn"]) == 0
    out = capsys.readouterr().out
    assert "小胡" in out and "1 per payer" in out
