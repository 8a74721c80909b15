"""卡五星 (``kawuxing``): every worked example of shared/rules/kawuxing.md, the KWX reference cases,
the spec's "points easy to get wrong", typed errors and cheap properties."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hupai
from tests.preset_helpers import balances, flat_case, ids
from hupai import kawuxing


def sit(concealed: str, win: str, melds: list[dict[str, Any]] | None = None, **flags: Any) -> dict[str, Any]:
    tiles = [str(t) for t in hupai.parse_tiles(concealed)]
    return {"hand": {"concealed": tiles, "win_tile": win, "melds": melds or []}, "situation": flags}


def waiting(concealed: str) -> dict[str, Any]:
    return {"melds": [], "concealed": [str(t) for t in hupai.parse_tiles(concealed)]}


def win(s: dict[str, Any], winner: str, **extra: Any) -> dict[str, Any]:
    return {"kind": "win", "winner": winner, **s, **extra}


def test_listed_by_variants() -> None:
    v = {x["id"]: x for x in hupai.variants()}["kawuxing"]
    assert v["players"] == 3 and "卡五星" in v["name"] and "84" in v["description"]


def test_example1_liangdao_self_draw_mai_ma() -> None:
    s = sit("46s123p789pCCCFF", "5s", self_drawn=True, liangdao=True)
    r = hupai.score(s, variant="kawuxing")
    assert isinstance(r, hupai.Score)
    assert ids(r) == ["KA_WU_XING", "LIANG_DAO"] and r.total == 4
    led = kawuxing.settle(["A", "B", "W"], [win(s, "W", mai_ma="7p")])
    assert balances(led) == {"A": -11, "B": -11, "W": 22}


@pytest.mark.parametrize(("cap", "c_pays"), [(8, 16), (0, 64)])
def test_example2_dui_liang_bao(cap: int, c_pays: int) -> None:
    v = hupai.Variant("kawuxing", cap=cap)
    s = sit("1123355667799s", "2s", liangdao=True)
    r = kawuxing.score(s, v)
    assert ids(r) == ["QI_DUI", "QING_YI_SE", "LIANG_DAO"] and r.raw_total == 32
    led = kawuxing.settle(["A", "B", "C"], [win(s, "A", discarder="C", liangdao=["C"])], v)
    assert balances(led) == {"A": c_pays, "B": 0, "C": -c_pays}


def test_example3_kong_chain_and_gang_shang_kai_hua() -> None:
    melds = [
        {"type": "kong_open", "tile": "3p", "offer": 1},
        {"type": "kong_concealed", "tile": "9s"},
        {"type": "pon", "tile": "1s", "offer": 2},
    ]
    s = sit("555p2s", "2s", melds, win_type="kong_replacement")
    assert ids(kawuxing.score(s)) == ["PENG_PENG_HU", "GANG_SHANG_KAI_HUA"]
    events = [
        {"kind": "kong", "owner": "W", "type": "open", "feeder": "A", "chain": 1},
        {"kind": "kong", "owner": "W", "type": "concealed", "chain": 2},
        win(s, "W", mai_ma="C"),
    ]
    led = kawuxing.settle(["A", "B", "W"], events)
    assert balances(led) == {"A": -20, "B": -18, "W": 38}
    assert [e["deltas"]["W"] for e in led.events] == [2, 8, 28]


def test_example4_draw_k3_chajiao_and_k1() -> None:
    draw = {
        "kind": "draw",
        "players": {
            "A": {"hand": waiting("46s123p789pCCCFF"), "liangdao": True},
            "B": {"hand": waiting("1p3p5p7p9p1s3s5s7s9sCFP")},
            "C": {"hand": waiting("111p234p567p78p99p")},
        },
    }
    assert kawuxing.da_jiao(waiting("111p234p567p78p99p")) == ("6p", 4) or kawuxing.da_jiao(
        waiting("111p234p567p78p99p")
    )[1] == 4
    assert kawuxing.da_jiao(waiting("1p3p5p7p9p1s3s5s7s9sCFP")) is None
    assert balances(kawuxing.settle(["A", "B", "C"], [draw])) == {"A": 4, "B": -8, "C": 4}
    # 荒庄不荒杠: the kong money of the hand stands.
    kong = {"kind": "kong", "owner": "C", "type": "concealed"}
    assert balances(kawuxing.settle(["A", "B", "C"], [kong, draw])) == {"A": 2, "B": -10, "C": 8}
    k1 = hupai.Variant("kawuxing", draw_settlement="liangdao_pays")
    assert balances(kawuxing.settle(["A", "B", "C"], [draw], k1)) == {"A": -2, "B": 1, "C": 1}
    # all three ready: each 亮倒 player pays each non-亮倒 player his 大叫.
    ready = dict(draw, players=dict(draw["players"], B={"hand": waiting("46s123p789pCCCPP")}))
    assert balances(kawuxing.settle(["A", "B", "C"], [ready])) == {"A": -6, "B": 2, "C": 4}


def test_reference_cases(shared: Path) -> None:
    cases = [
        json.loads(line)
        for line in (shared / "cases" / "variants_ref.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip() and json.loads(line)["id"].startswith("KWX-")
    ]
    assert len(cases) == 3
    for c in cases:
        v = hupai.Variant("kawuxing", **c["options"])
        r = kawuxing.score(flat_case(c), v)
        exp = c["expected"]
        assert r.total == exp["multiplier"], c["id"]
        assert sorted(f.value for f in r.fans) == sorted(x["value"] for x in exp["fans"]), c["id"]
        if "payments" in exp:
            s = flat_case(c)
            if s["situation"].get("self_drawn") or s["situation"].get("win_type") == "self_draw":
                led = kawuxing.settle(["A", "B", "W"], [win(s, "W")], v)
                assert balances(led) == exp["payments"], c["id"]
            else:
                led = kawuxing.settle(["discarder", "other", "W"], [win(s, "W", discarder="discarder")], v)
                got = {k: b for k, b in balances(led).items() if b}
                assert got == exp["payments"], c["id"]


def test_minimum_two_fan_and_k6() -> None:
    pi = sit("123p456p789p12s99s", "3s", self_drawn=True)
    with pytest.raises(hupai.InvalidHandError, match="起胡"):
        kawuxing.score(pi)
    k6 = hupai.Variant("kawuxing", min_multiplier="discard_only")
    assert kawuxing.score(pi, k6).total == 1
    with pytest.raises(hupai.InvalidHandError):
        kawuxing.score(sit("123p456p789p12s99s", "3s"), k6)
    assert kawuxing.score(sit("123p456p789p12s99s", "3s"), hupai.Variant("kawuxing", min_multiplier="none")).total == 1


def test_multiplicative_and_cap() -> None:
    nocap = hupai.Variant("kawuxing", cap=0)
    s = sit("111s333s555s777s9s", "9s", self_drawn=True, liangdao=True)
    r = kawuxing.score(s, nocap)
    assert ids(r) == ["PENG_PENG_HU", "QING_YI_SE", "LIANG_DAO"] and r.total == 16
    assert kawuxing.score(s).total == 8
    assert kawuxing.score(s, hupai.Variant("kawuxing", cap=32)).total == 16


def test_liangdao_bao_hu_and_kong_money_not_doubled() -> None:
    s = sit("46s123p789pCCCFF", "5s", liangdao=True)
    # non-亮倒 discarder: 包胡, pays both shares; the third player pays nothing.
    led = kawuxing.settle(["A", "B", "W"], [win(s, "W", discarder="A")])
    assert balances(led) == {"A": -8, "B": 0, "W": 8}
    # kong money of a 亮倒 player is not doubled.
    led = kawuxing.settle(["A", "B", "W"], [{"kind": "kong", "owner": "W", "type": "added"}])
    assert balances(led) == {"A": -1, "B": -1, "W": 2}
    # a robbed kong earns nothing; 抢杠胡 ×2 paid by the robbed player.
    rob = sit("46s123p789pCCCFF", "5s", win_type="rob_kong")
    events = [{"kind": "kong", "owner": "A", "type": "added", "robbed": True}, win(rob, "W", discarder="A")]
    assert balances(kawuxing.settle(["A", "B", "W"], events)) == {"A": -4, "B": 0, "W": 4}


def test_kong_chain_doubling() -> None:
    chain = [{"kind": "kong", "owner": "W", "type": "added", "chain": n} for n in (1, 2, 3)]
    led = kawuxing.settle(["A", "B", "W"], chain)
    assert [e["deltas"]["W"] for e in led.events] == [2, 4, 8]
    k6 = hupai.Variant("kawuxing", kong_chain_cap="k6")
    led = kawuxing.settle(["A", "B", "W"], chain, k6)
    assert [e["deltas"]["W"] for e in led.events] == [2, 4, 4]


def test_piao_and_mai_ma_switches() -> None:
    s = sit("46s123p789pCCCFF", "5s", self_drawn=True)
    led = kawuxing.settle(["A", "B", "W"], [win(s, "W", piao={"W": 1, "A": 2})])
    assert balances(led) == {"A": -5, "B": -3, "W": 8}
    with pytest.raises(hupai.SettlementError, match="买码"):
        kawuxing.settle(["A", "B", "W"], [win(s, "W", mai_ma="3p")], hupai.Variant("kawuxing", mai_ma="off"))
    with pytest.raises(hupai.SettlementError, match="漂"):
        kawuxing.settle(["A", "B", "W"], [win(s, "W", piao={"W": 1})], hupai.Variant("kawuxing", piao=False))


def test_forced_end() -> None:
    ev = {
        "kind": "forced_end",
        "payer": "C",
        "held": ["5s", "4s"],
        "liangdao_hands": {"A": waiting("46s123p789pCCCFF"), "B": waiting("123p456p789p4sCCC")},
    }
    assert balances(kawuxing.settle(["A", "B", "C"], [ev])) == {"A": 4, "B": 2, "C": -6}


@pytest.mark.parametrize(
    "bad",
    [
        sit("123m456p789p12s99s", "3s", liangdao=True),
        sit("123s456p789p12sEE", "3s", liangdao=True),
        sit("456p789p12s99s", "3s", [{"type": "chow", "tile": "2p"}], liangdao=True),
        sit("46s123p789pCCCFF", "5s", liangdao="yes"),
        sit("46s123p789pCCCFF", "5s", players=4),
        sit("46s123p789pCCCFF", "5s", flowers=1, liangdao=True),
        sit("46s123p789pCCCF", "5s", liangdao=True),
    ],
)
def test_invalid_situations(bad: dict[str, Any]) -> None:
    with pytest.raises(hupai.InvalidHandError):
        kawuxing.score(bad)


def test_config_and_settlement_errors() -> None:
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("kawuxing", cap=1)
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("kawuxing", qidui_quads="huge")
    with pytest.raises(hupai.InvalidHandError, match="liangdao"):  # a flag sichuan does not read
        kawuxing.score(sit("46s123p789pCCCFF", "5s", liangdao=True), "sichuan")
    for events in (
        [{"kind": "kong", "owner": "Z", "type": "added"}],
        [{"kind": "kong", "owner": "W", "type": "open"}],
        [{"kind": "boom"}],
        [{"kind": "draw", "players": {}}, {"kind": "kong", "owner": "W", "type": "added"}],
    ):
        with pytest.raises(hupai.SettlementError):
            kawuxing.settle(["A", "B", "W"], events)
    with pytest.raises(hupai.SettlementError):
        kawuxing.settle(["A", "B"], [])


SWAP = {"p": "s", "s": "p"}


def _swap(t: str) -> str:
    return t[0] + SWAP[t[1]] if len(t) == 2 and t[1] in SWAP else t


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["123p456p789p4sCCC", "2234567p11sCCFF", "46s123p789pCCCFF", "1123355667799s", "111s333s555s777s9s"]),
       st.booleans(), st.booleans())
def test_suit_swap_invariance_and_zero_sum(concealed: str, self_drawn: bool, liangdao: bool) -> None:
    tiles = [str(t) for t in hupai.parse_tiles(concealed)]
    waits = hupai.waits(tiles)
    for w in [str(x) for x in waits]:
        a = {"hand": {"concealed": tiles, "win_tile": w}, "situation": {"self_drawn": self_drawn, "liangdao": liangdao}}
        b = {"hand": {"concealed": [_swap(t) for t in tiles], "win_tile": _swap(w)}, "situation": a["situation"]}
        try:
            ra = kawuxing.score(a)
        except hupai.InvalidHandError:
            with pytest.raises(hupai.InvalidHandError):
                kawuxing.score(b)
            continue
        rb = kawuxing.score(b)
        assert ids(ra) == ids(rb) and ra.total == rb.total
        ev = win(a, "W") if self_drawn else win(a, "W", discarder="A")
        led = kawuxing.settle(["A", "B", "W"], [{"kind": "kong", "owner": "B", "type": "concealed"}, ev])
        assert sum(led.balances.values()) == 0
        assert led.events[-1]["deltas"]["W"] > 0
