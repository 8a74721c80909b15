"""Every ``SC-*`` reference case of ``shared/cases/variants_ref.jsonl`` under its profile's switches,
and the worked examples of ``shared/rules/sichuan.md`` §7.4."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import hupai
from tests.preset_helpers import flat_case, ids

# Profile of a case → the sichuan switches that reproduce it.
PROFILES: dict[str, dict[str, Any]] = {
    "omu_sbr_3fan_cap": {"fan_profile": "sbr_3fan_cap", "zimo_bonus": "plus_one_base", "base_points": 1},
    "riichi_advanced_SBR": {
        "fan_profile": "sbr_3fan_cap",
        "zimo_bonus": "plus_one_base",
        "base_points": 1,
        "cap_fan": 3,
    },
    "chengdu_multiplier_table(M2_CLIENT=guogeer_gold)": {
        "fan_profile": "chengdu_multiplier_table",
        "gen_counts_kongs": True,
        "zimo_bonus": "double",
        "base_points": 1,
    },
    "billee1011_option_1": {"fan_profile": "billee1011_option_1", "gen_counts_kongs": True, "base_points": 1},
}

# Case options → switches.
OPTION_SWITCHES = {
    "fan_cap": lambda v: {"cap_fan": v},
    "zimo": lambda v: {"zimo_bonus": {"jiadi": "plus_one_base", "jiafan": "double"}[v]},
    "cap_multiplier": lambda v: {"cap_multiplier": v or 0},
}

ALIASES = {"平和": "平胡", "大对子": "对对胡"}

# Amounts stated only in prose (payments_note).
PER_PAYER = {"SC-SBR-07": 5}

# Settlement-only cases (no hand): covered by the ledger tests below.
LEDGER_CASES = {"SC-TB-06", "SC-TB-07", "SC-TB-08", "SC-TB-09"}


def load_cases(shared: Path) -> list[dict[str, Any]]:
    path = shared / "cases" / "variants_ref.jsonl"
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [c for c in cases if c["id"].startswith("SC-")]


def switches_for(case: dict[str, Any]) -> dict[str, Any]:
    sw = dict(PROFILES[case["profile"]])
    for k, v in (case.get("options") or {}).items():
        if k in OPTION_SWITCHES:
            sw.update(OPTION_SWITCHES[k](v))
    return sw


def test_all_sc_cases_are_known(shared: Path) -> None:
    cases = load_cases(shared)
    assert len(cases) >= 20
    assert {c["profile"] for c in cases} <= set(PROFILES)


def _expected_fans(case: dict[str, Any]) -> set[str]:
    out = set()
    for f in case["expected"].get("fans", []):
        if f["method"] in ("add", "pow") and f["value"] == 0:
            continue
        out.add(ALIASES.get(f["name"], f["name"]))
    return out


def test_sc_hand_cases(shared: Path) -> None:
    checked = 0
    for case in load_cases(shared):
        if case["id"] in LEDGER_CASES:
            continue
        variant = hupai.Variant("sichuan", **switches_for(case))
        exp = case["expected"]
        if not exp["can_win"]:
            with pytest.raises(hupai.InvalidHandError):
                hupai.sichuan.score(flat_case(case), variant)
            checked += 1
            continue
        r = hupai.sichuan.score(flat_case(case), variant)
        cid = case["id"]
        mine = {ALIASES.get(f.zh, f.zh) for f in r.fans if f.value != 0}
        assert mine == _expected_fans(case), (cid, r.fans)
        if "fan_total" in exp:
            assert r.raw_total == exp["fan_total"], cid
        if "capped_multiplier" in exp:
            assert r.extras["uncapped_multiplier"] == exp["multiplier"], cid
            assert r.extras["multiplier"] == exp["capped_multiplier"], cid
        else:
            assert r.extras["multiplier"] == exp["multiplier"], cid
        if "payments" in exp:
            # seats: the winner at 0, a discarder at his 上家 (3); every amount must match
            assert sorted(v for v in r.net if v) == sorted(v for v in exp["payments"].values() if v), (cid, r.payments)
        if cid in PER_PAYER:
            assert r.per_payer == PER_PAYER[cid]
        checked += 1
    assert checked == 19


def _settle(variant: hupai.Variant) -> hupai.Settlement:
    return hupai.Settlement(["A", "B", "C", "W"], variant)


TB = PROFILES["chengdu_multiplier_table(M2_CLIENT=guogeer_gold)"]


@pytest.mark.parametrize(
    ("switches", "expected"),
    [
        # guogeer: 16 to every other non-pig, winners included.
        ({}, {"A": -48, "B": 16, "C": 16, "W": 16}),
        # billee1011: ready players also get their 大叫 (B: 4).
        ({"cha_hua_zhu": "fixed_plus_da_jiao"}, {"A": -52, "B": 20, "C": 16, "W": 16}),
        # M2 text: the 封顶 multiplier (×64).
        ({"cha_hua_zhu": "cap", "cap_multiplier": 64}, {"A": -192, "B": 64, "C": 64, "W": 64}),
        # only players still in the hand.
        ({"huazhu_recipients": "in_hand"}, {"A": -32, "B": 16, "C": 16, "W": 0}),
    ],
)
def test_sc_tb_06_huazhu_profiles(switches: dict[str, Any], expected: dict[str, int]) -> None:
    v = hupai.Variant("sichuan", **TB, **switches)
    s = _settle(v)
    s.win("W", 0)  # W has already won (血战: left the hand)
    ev = s.draw_end({"A": {"huazhu": True}, "B": {"da_jiao": 4}, "C": {"da_jiao": None}})
    first = s.events[ev[0]]
    assert first["kind"] == "HUAZHU_PENALTY"
    assert {k: first["deltas"].get(k, 0) for k in "ABCW"} == expected


def test_sc_tb_07_cha_da_jiao() -> None:
    v = hupai.Variant("sichuan", **TB)
    # B: 清一色 with one 根 at best → ×8; C not ready.
    b = hupai.sichuan.max_win_value("1111m234m567m99m8m", v)
    assert b["da_jiao"] == 8
    assert b["best"]["fan_total"] == 4 and {f["zh"] for f in b["best"]["fans"]} == {"清一色", "根"}
    s = _settle(v)
    s.kong("C", "added")
    s.win("W", 0)
    s.draw_end({"A": {"da_jiao": None}, "B": hupai.sichuan.draw_end_state("1111m234m567m99m8m", v),
                "C": {"da_jiao": None}})
    kinds = [e["kind"] for e in s.events]
    assert kinds.count("CHA_JIAO") == 2 and kinds[-1] == "REFUND_KONG"
    c_pays = [e for e in s.events if e["kind"] == "CHA_JIAO" and "C" in e["deltas"]][0]
    assert c_pays["deltas"] == {"C": -8, "B": 8}


def test_sc_tb_08_kong_and_transfer() -> None:
    v = hupai.Variant("sichuan", **TB, kong_value_open=2)
    s = hupai.Settlement(["A", "B", "C", "D"], v)
    k = s.kong("D", "concealed")
    assert s.events[k]["deltas"] == {"A": -2, "B": -2, "C": -2, "D": 6}
    r = hupai.sichuan.score(
        {"hand": {"concealed": ["2m", "3m", "4m", "5m", "6m", "7m", "2m", "2m", "4p", "5p", "7p", "8p", "9p"],
                  "win_tile": "6p"}, "situation": {"win_type": "after_kong_discard", "discarder": 3}},
        v)
    assert r.extras["multiplier"] == 2 and r.net == [2, 0, 0, -2]
    w = s.win("A", r, discarder="D", after_kong=True)
    assert s.events[w]["deltas"] == {"D": -2, "A": 2}
    t = s.events[w + 1]
    assert t["kind"] == "TRANSFER_KONG_INCOME" and t["ref"] == k and t["deltas"] == {"D": -6, "A": 6}


def test_sc_tb_09_yi_pao_duo_xiang() -> None:
    v = hupai.Variant("sichuan", **TB)
    rb = hupai.sichuan.score({"hand": {"concealed": ["1p", "2p", "3p", "6p", "7p", "8p", "9p", "9p", "9p", "1p", "1p", "4p", "6p"],
                                       "win_tile": "5p"}}, v)
    rc = hupai.sichuan.score({"hand": {"concealed": ["1m", "1m", "1m", "1m", "2m", "3m", "4p", "5p", "6p", "7p", "8p", "9p", "5p"],
                                       "win_tile": "5p"}}, v)
    assert (rb.extras["multiplier"], rc.extras["multiplier"]) == (4, 2)
    s = hupai.Settlement(["A", "B", "C", "D"], v)
    s.win("B", rb, discarder="A")
    s.win("C", rc, discarder="A")
    assert s.balances == {"A": -6, "B": 4, "C": 2, "D": 0}


# ----- sichuan.md §7.4 worked examples (seed rules) ----------------------------------------------


def test_example_1() -> None:
    r = hupai.sichuan.score(
        {"hand": {"concealed": ["1m", "1m", "1m", "1m", "2m", "3m", "4p", "5p", "6p", "7p", "8p", "9p", "5p"], "win_tile": "5p"},
         "situation": {"win_type": "discard", "discarder": 2}})
    assert ids(r) == ["PING_HU", "GEN"]
    assert (r.raw_total, r.extras["multiplier"], r.per_payer) == (2, 2, 12)
    assert r.payments == [{"payer": 2, "payee": 0, "amount": 12}]


EX2 = {"hand": {"melds": [{"type": "kong_concealed", "tiles": ["5s"] * 4}, {"type": "pon", "tiles": ["8s"] * 3}],
                "concealed": ["2s", "2s", "2s", "3s", "3s", "3s", "9s"], "win_tile": "9s"},
       "situation": {"win_type": "kong_replacement"}}


def test_example_2() -> None:
    s = hupai.Settlement(["A", "B", "C", "W"])
    s.win("A", 0)  # A has already won
    s.kong("W", "concealed")
    r = hupai.sichuan.score(EX2)
    assert ids(r) == ["QING_DUI", "GANG_SHANG_HUA"]
    assert (r.raw_total, r.extras["multiplier"], r.per_payer) == (5, 16, 96)
    assert r.net == [288, -96, -96, -96]  # the score alone: all four at the table
    s.win("W", r)
    assert s.balances == {"A": 0, "B": -108, "C": -108, "W": 216}
    r2 = hupai.sichuan.score(EX2, hupai.Variant("sichuan", gen_counts_kongs=True))
    assert r2.per_payer == 192 and 24 + 2 * r2.per_payer == 408


def test_example_3() -> None:
    s = hupai.Settlement(["A", "B", "C", "D"])
    s.kong("D", "open", feeder="A")
    b = hupai.sichuan.score({"hand": {"concealed": ["2m", "3m", "4m", "5m", "6m", "7m", "2m", "2m", "4p", "5p", "7p", "8p", "9p"], "win_tile": "6p"},
                             "situation": {"win_type": "after_kong_discard"}})
    c = hupai.sichuan.score({"hand": {"concealed": ["1m", "1m", "1m", "3m", "3m", "3m", "9m", "9m", "6p", "6p", "7p", "7p", "7p"], "win_tile": "6p"},
                             "situation": {"win_type": "after_kong_discard"}})
    assert (b.raw_total, b.per_payer, c.raw_total, c.per_payer) == (2, 12, 3, 24)
    s.win("B", b, discarder="D", after_kong=True)
    s.win("C", c, discarder="D", after_kong=True)
    assert s.balances == {"A": -6, "B": 18, "C": 30, "D": -42}
    assert [e["kind"] for e in s.events].count("TRANSFER_KONG_INCOME") == 2
    assert s.in_hand == ["A", "D"]


def test_example_4() -> None:
    s = hupai.Settlement(["A", "B", "C", "D"])
    s.kong("C", "added")
    s.win("A", 0)
    b = hupai.sichuan.draw_end_state("123m234m567m88m99m")
    assert b == {"huazhu": False, "da_jiao": 24}
    d = hupai.sichuan.draw_end_state("123m456p789s11s23m")
    assert d["huazhu"] is True
    s.draw_end({"B": b, "C": {"da_jiao": None}, "D": d})
    assert s.balances == {"A": 96, "B": 120, "C": 72, "D": -288}
    assert [e["kind"] for e in s.events][-3:] == ["HUAZHU_PENALTY", "CHA_JIAO", "REFUND_KONG"]
    assert s.events[-1]["ref"] == 0
    assert json.loads(s.to_json())["balances"]["D"] == -288
