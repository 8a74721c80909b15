"""河北 basic 推倒胡 (``hebei``): the worked examples of shared/rules/hebei.md, the SXTDH reference
cases (山西推倒胡 = the preset's default ``tdh_points`` profile), typed errors and properties."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hupai
from tests.preset_helpers import balances, hand, ids, settle, tiles
from hupai import hebei

SEATS = ["A", "W", "B", "C"]


def test_listed() -> None:
    v = {x["id"]: x for x in hupai.variants()}["hebei"]
    assert v["players"] == 4 and "推倒胡" in v["name"]


def test_example1_ping_hu_and_kong_settlement() -> None:
    s = hand("234m678m345s7p", "7p", [{"type": "kong_open", "tile": "9p", "offer": 2}])
    r = hupai.score(s, variant="hebei")
    assert isinstance(r, hupai.Score) and r.total == 3
    led = settle({"seats": SEATS, "dealer": "A", "win": {"winner": "W", "discarder": "B", **s},
                        "kongs": [{"owner": "W", "type": "open", "feeder": "B"}, {"owner": "C", "type": "concealed"}]}, "hebei")
    assert balances(led) == {"A": -2, "W": 4, "B": -8, "C": 6}


def test_example2_qi_dui_self_draw() -> None:
    s = hand("1133m5577p22sEEF", "F", self_drawn=True)
    assert ids(hebei.score(s)) == ["QI_DUI"]
    led = settle({"seats": SEATS, "dealer": "A", "win": {"winner": "W", **s}}, "hebei")
    assert balances(led) == {"A": -9, "W": 27, "B": -9, "C": -9}


def test_example3_gang_shang_kai_hua_floor() -> None:
    s = hand("123m567p789p6m", "6m", [{"type": "kong_concealed", "tile": "4s"}], win_type="kong_replacement")
    r = hebei.score(s)
    assert ids(r) == ["PING_HU", "GANG_SHANG_KAI_HUA"] and r.total == 4
    led = settle({"seats": SEATS, "dealer": "A", "win": {"winner": "W", **s},
                        "kongs": [{"owner": "W", "type": "concealed"}]}, "hebei")
    assert balances(led) == {"A": -6, "W": 18, "B": -6, "C": -6}


def test_draw_no_payments_and_switches() -> None:
    draw = {"seats": SEATS, "dealer": "A", "kongs": [{"owner": "C", "type": "concealed"}]}
    assert balances(settle(draw, "hebei")) == dict.fromkeys(SEATS, 0)
    inst = hupai.Variant("hebei", kong_payment="instant")
    assert balances(settle(draw, inst)) == {"A": -2, "W": -2, "B": -2, "C": 6}
    s = hand("234m678m345s7p", "7p", [{"type": "kong_open", "tile": "9p", "offer": 2}])
    win = {"seats": SEATS, "dealer": "A", "win": {"winner": "W", "discarder": "B", **s}}
    assert balances(settle(win, hupai.Variant("hebei", discard_payers="all_three")))["W"] == 9
    assert balances(settle(win, hupai.Variant("hebei", discard_payers="da_bao"))) == {"A": 0, "W": 9, "B": -9, "C": 0}
    assert balances(settle(win, hupai.Variant("hebei", discard_payers="da_bao", dealer_factor="double")))["B"] == -12


def test_sxtdh_reference_cases(shared: Path) -> None:
    cases = [
        json.loads(line)
        for line in (shared / "cases" / "variants_ref.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip() and json.loads(line)["id"].startswith("SXTDH-")
    ]
    assert len(cases) == 3
    for c in cases:
        # dai_feng (with winds) is the preset's full136 tile set.
        assert set(c.get("options") or {}) <= {"dai_feng"}
        sd = c["situation"]["win_type"] == "self_draw"
        s = {"hand": {"concealed": c["concealed"], "win_tile": c["win_tile"], "melds": c["melds"]},
             "situation": {"self_drawn": sd}}
        r = hebei.score(s)
        exp = c["expected"]
        assert r.total == exp.get("points", exp.get("points_each")), c["id"]
        assert [f.value for f in r.fans] == [x["value"] for x in exp["fans"]], c["id"]
        if "payments" in exp:
            win: dict[str, Any] = {"winner": "W", **s}
            seats = ["A", "B", "C", "W"] if sd else ["discarder", "B", "C", "W"]
            if not sd:
                win["discarder"] = "discarder"
            got = {k: v for k, v in balances(settle({"seats": seats, "dealer": "A" if sd else "B", "win": win}, "hebei")).items() if v}
            assert got == exp["payments"], c["id"]


def test_errors() -> None:
    with pytest.raises(hupai.InvalidHandError, match="吃"):
        hebei.score(hand("123m456p789s9s", "9s", [{"type": "chow", "tile": "2s"}]))
    with pytest.raises(hupai.InvalidHandError):
        hebei.score(hand("123m456p789s19s", "5s"))
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("hebei", fan_profile="nope")
    for bad in (
        {"seats": SEATS[:3]},
        {"seats": SEATS, "kongs": [{"owner": "W", "type": "open"}]},
        {"seats": SEATS, "win": {"winner": "W", **hand("123m456p789s78s99s", "9s")}},
        {"seats": SEATS, "win": {"winner": "W", "discarder": "W", **hand("123m456p789s78s99s", "9s")}},
    ):
        with pytest.raises(hupai.SettlementError):
            settle(bad, "hebei")


PERM = {"m": "s", "p": "m", "s": "p"}


def _perm(t: str) -> str:
    return t[0] + PERM[t[1]] if len(t) == 2 and t[1] in PERM else t


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["123456789m123p5p", "1133m5577p22sEEF", "234m678m345s77p99p", "19m19p19sESWNCFP"]),
       st.booleans(), st.sampled_from(SEATS))
def test_suit_permutation_and_zero_sum(concealed: str, self_drawn: bool, winner: str) -> None:
    ts = tiles(concealed)
    for w in [str(x) for x in hupai.waits(ts)]:
        a = {"hand": {"concealed": ts, "win_tile": w}, "situation": {"self_drawn": self_drawn}}
        b = {"hand": {"concealed": [_perm(t) for t in ts], "win_tile": _perm(w)}, "situation": a["situation"]}
        assert hebei.score(a).total == hebei.score(b).total
        win: dict[str, Any] = {"winner": winner, **a}
        if not self_drawn:
            win["discarder"] = next(x for x in SEATS if x != winner)
        led = settle({"seats": SEATS, "dealer": "A", "win": win, "kongs": [{"owner": "B", "type": "added"}]}, "hebei")
        assert sum(led.balances.values()) == 0
