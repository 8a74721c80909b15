"""顶牛 (hupai.dingniu): every dev case, the worked examples, hypothesis properties against slow
Python references (placements, ranking, 算帐 detection), error paths, the game API and the
simulated-hands invariants."""

from __future__ import annotations

import doctest
import itertools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hupai
from hupai import dingniu
from hupai.errors import HupaiError, InvalidHandError, InvalidTileError, RuleConfigError

# ---------------------------------------------------------------------------------------------
# A slow, obviously-correct reference of the rules (written from dingniu.md, not from the engine)

KINDS = ["66", "55", "44", "33", "22", "11", "56", "46", "16", "15", "13", "36", "26"]
COPIES = {k: (1 if k in ("36", "26") else 2) for k in KINDS}
SET = [k for k in KINDS for _ in range(COPIES[k])]


def ref_pips(t: str) -> int:
    return int(t[0]) + int(t[1])


def ref_is_double(t: str) -> bool:
    return t[0] == t[1]


def ref_fit(t: str, end: int) -> int | None:
    a, b = int(t[0]), int(t[1])
    if a == end:
        return b
    if b == end:
        return a
    return None


def ref_placements(ends: tuple[int, int], hand: list[str]) -> list[tuple[str, str, tuple[int, int]]]:
    out = []
    for t in KINDS:  # kind order
        if t not in hand:
            continue
        for side in ("L", "R"):
            if side == "R" and ends[0] == ends[1]:
                continue
            end = ends[0] if side == "L" else ends[1]
            new = ref_fit(t, end)
            if new is not None:
                out.append((t, side, (new, ends[1]) if side == "L" else (ends[0], new)))
    return out


def ref_rank(points: list[int], order: list[int]) -> dict[str, Any]:
    pos = {s: i for i, s in enumerate(order)}
    winner = min(range(4), key=lambda s: (points[s], pos[s]))
    losers = sorted((s for s in range(4) if s != winner), key=lambda s: (-points[s], pos[s]))
    pay = [0] * 4
    pay[winner] = 6
    for s, a in zip(losers, (3, 2, 1)):
        pay[s] = -a
    return {"winner": winner, "da_zhuang": losers[0], "er_zhuang": losers[1], "xiao_zhuang": losers[2], "pay": pay}


BLOCKS = {(1, 1): "一帐", (2, 3): "二三帐", (4, 4): "红帐", (5, 5): "五帐"}


def ref_block(ends: tuple[int, int], hands: list[list[str]], x: int) -> str | None:
    kind = BLOCKS.get((min(ends), max(ends)))
    if kind is None:
        return None
    for s in range(4):
        if s == x:
            continue
        for t in hands[s]:
            if not ref_is_double(t) and (int(t[0]) in ends or int(t[1]) in ends):
                return None
    return kind


def ref_reachable(ends: tuple[int, int], hands: list[list[str]]) -> set[int]:
    edges = [(int(t[0]), int(t[1])) for h in hands for t in h if not ref_is_double(t)]
    seen = set(ends)
    todo = list(ends)
    while todo:
        n = todo.pop()
        for a, b in edges:
            for u, v in ((a, b), (b, a)):
                if u == n and v not in seen:
                    seen.add(v)
                    todo.append(v)
    return seen


def ref_effect(ends: tuple[int, int], hands: list[list[str]], x: int, tile: str, new: tuple[int, int]) -> tuple[str | None, list[tuple[str, int]]]:
    after = [list(h) for h in hands]
    after[x].remove(tile)
    block = ref_block(new, after, x) if ref_block(ends, hands, x) is None else None
    before_r = ref_reachable(ends, hands)
    after_r = ref_reachable(new, after)
    smothered = []
    for s in range(4):
        if s == x:
            continue
        for t in sorted(set(after[s]), key=KINDS.index):
            if "4" not in t and "5" not in t:
                continue
            pips = {int(t[0]), int(t[1])}
            if pips & before_r and not pips & after_r:
                smothered.append((t, s))
    if block:
        return block, smothered
    if any("4" in t for t, _ in smothered):
        return "砸红帐", smothered
    if smothered:
        return "闷五帐", smothered
    return None, smothered


def ref_can_lay_all(ends: tuple[int, int], hand: list[str]) -> bool:
    if not hand:
        return True
    for t, _, new in ref_placements(ends, hand):
        rest = list(hand)
        rest.remove(t)
        if ref_can_lay_all(new, rest):
            return True
    return False


def ref_check(ends: tuple[int, int], hands: list[list[str]], x: int, tile: str, side: str, toupai: int, kou: list[int]) -> dict[str, Any]:
    new = dict(((t, s), e) for t, s, e in ref_placements(ends, hands[x]))[(tile, side)]
    kind, smothered = ref_effect(ends, hands, x, tile, new)
    if kind is None:
        return {"zhang": None, "deliberate": None, "suanzhang": False, "toupai_jingshou": False, "smothered": smothered}
    deliberate = any(
        ref_effect(ends, hands, x, t, e)[0] is None
        for t, s, e in ref_placements(ends, hands[x])
        if not (t == tile and (s == side or ends[0] == ends[1]))
    )
    rest = list(hands[x])
    rest.remove(tile)
    jingshou = x == toupai and kou[x] == 0 and ref_can_lay_all(new, rest)
    return {"zhang": kind, "deliberate": deliberate, "suanzhang": deliberate and not jingshou, "toupai_jingshou": jingshou, "smothered": smothered}


# ---------------------------------------------------------------------------------------------
# The shared dev cases


def load_cases(shared: Path) -> list[dict[str, Any]]:
    path = shared / "cases" / "dingniu_dev.jsonl"
    if not path.exists():
        pytest.fail(f"{path} is missing (set HUPAI_SHARED)")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_there_are_45_cases(shared: Path) -> None:
    assert len(load_cases(shared)) == 45


def run_case(c: dict[str, Any]) -> None:
    inp, exp, kind = c["input"], c["expected"], c["kind"]
    if kind == "tile_set":
        ts = dingniu.tile_set()
        assert ts["count"] == exp["count"] and ts["total_pips"] == exp["total_pips"]
        assert {k["code"]: k["copies"] for k in ts["kinds"]} == exp["kinds"]
        assert {k["code"]: k["name"] for k in ts["kinds"]} == exp["names"]
        for p in "123456":
            assert sum(k["copies"] for k in ts["kinds"] if p in k["code"]) == exp["tiles_with_pip"][p]
            assert sum(k["copies"] for k in ts["kinds"] if p in k["code"] and not k["double"]) == exp["non_doubles_with_pip"][p]
        assert [r["code"] for r in ts["removed"]] == exp["removed"]
        for r in exp["removed"]:
            with pytest.raises(InvalidTileError):
                dingniu.parse_hand(r)
    elif kind == "parse_hand":
        if exp["valid"]:
            assert dingniu.parse_hand(inp["hand"]) == exp["tiles"]
            assert dingniu.pips(inp["hand"]) == exp["pips"]
        else:
            err = {"not_in_set": InvalidTileError, "too_many_copies": InvalidHandError}[exp["reason"]]
            text = {"not_in_set": "not in the 24-tile set", "too_many_copies": "too many copies"}[exp["reason"]]
            with pytest.raises(err, match=text):
                dingniu.parse_hand(inp["hand"])
    elif kind == "place":
        got = dingniu.place(tuple(inp["ends"]), inp["tile"], inp["side"])
        assert (got is not None) == exp["legal"]
        assert (list(got) if got else None) == exp["ends"]
    elif kind == "legal_placements":
        got = [{"tile": p.tile, "side": p.side, "ends": list(p.ends)} for p in dingniu.placements(tuple(inp["ends"]), inp["hand"])]
        assert got == exp["placements"]
        assert dingniu.may_kou(tuple(inp["ends"]), inp["hand"]) == exp["may_kou"]
    elif kind == "opening":
        assert dingniu.opening_allowed(inp["hands"], inp["tile"], inp["toupai"]) == exp["allowed"]
    elif kind == "settle":
        got = dingniu.settle(inp["kou_points"], inp["play_order"])
        assert {k: got[k] for k in exp} == exp
    elif kind == "zhang_settle":
        got = dingniu.zhang_settle(inp["counts"], inp["by"], inp["play_order"])
        assert got["success"] == exp["success"] and got["pay"] == exp["pay"]
    elif kind == "zhang_detect":
        kou = [len(inp["kou"][str(s)]) for s in range(4)] if "kou" in inp else None
        got = dingniu.detect_zhang(
            tuple(inp["ends"]), inp["hands"], inp["seat"], f"{inp['place']['tile']}:{inp['place']['side']}",
            toupai=inp.get("toupai", 0), kou=kou,
        )
        assert got["zhang"] == exp["zhang"] and got["deliberate"] == exp["deliberate"]
        if "ends" in exp:
            assert got["ends"] == exp["ends"]
        if "smothered" in exp:
            assert got["smothered"][0] == {"tile": exp["smothered"], "holder": exp["holder"]}
        for k in ("toupai_jingshou", "suanzhang"):
            if k in exp:
                assert got[k] == exp[k]
    elif kind == "silan":
        got = dingniu.silan(tuple(inp["ends"]), inp["hands"], inp["seat"], inp["next_seat"], f"{inp['played']['tile']}:{inp['played']['side']}")
        assert got == exp
    elif kind == "play_hand":
        g = dingniu.Game(hands=inp["hands"], toupai=inp["play_order"][0])
        assert g.order == inp["play_order"]
        for m in inp["moves"]:
            g.step(m)
        r = g.result()
        assert r is not None and r["pay"] == exp["pay"]
        if exp["end"] == "played_out":
            assert r["reason"] == "played_out" and r["points"] == exp["kou_points"] and r["winner"] == exp["winner"]
        else:
            assert r["reason"] == "suanzhang" and r["points"] == exp["counts"]
            assert r["zhang"] == {"kind": exp["zhang"], "by": exp["by"], "success": exp["success"]}
            assert r["silan_by"] == exp.get("silan_by")
        assert dingniu.replay(g.events()).events() == g.events()
    else:
        raise AssertionError(f"unknown kind {kind}")


def test_every_dev_case(shared: Path) -> None:
    for c in load_cases(shared):
        try:
            run_case(c)
        except AssertionError as e:
            raise AssertionError(f"{c['id']}: {e}") from e


def test_dev_cases_against_the_reference(shared: Path) -> None:
    """The slow reference agrees with the fixtures too (so it is a fair oracle)."""
    for c in load_cases(shared):
        inp, exp = c["input"], c["expected"]
        if c["kind"] == "legal_placements":
            got = [{"tile": t, "side": s, "ends": list(e)} for t, s, e in ref_placements(tuple(inp["ends"]), inp["hand"].split())]
            assert got == exp["placements"], c["id"]
        elif c["kind"] == "settle":
            assert ref_rank(inp["kou_points"], inp["play_order"]) == {k: exp[k] for k in ("winner", "da_zhuang", "er_zhuang", "xiao_zhuang", "pay")}, c["id"]
        elif c["kind"] == "zhang_detect":
            hands = [h.split() for h in inp["hands"]]
            kou = [len(inp["kou"][str(s)]) for s in range(4)] if "kou" in inp else [0] * 4
            got = ref_check(tuple(inp["ends"]), hands, inp["seat"], inp["place"]["tile"], inp["place"]["side"], inp.get("toupai", 0), kou)
            assert got["zhang"] == exp["zhang"] and got["deliberate"] == exp["deliberate"], c["id"]


# ---------------------------------------------------------------------------------------------
# Worked examples beyond the fixtures (dingniu.md §7 D6 without 死拦, D8, D9)


def play(hands: list[str], moves: list[str], **switches: Any) -> dingniu.Game:
    g = dingniu.Game(hands=hands, **switches)
    for m in moves:
        g.step(m)
    return g


D6 = ["66 33 11 46 15 26", "44 22 56 56 46 16", "55 55 33 13 13 36", "66 44 22 11 16 15"]
D6_MOVES = ["66", "46:L", "36:R", "44:L", "33:R", "44:L", "13:R", "16:R", "46:R"]


def test_d6_silan_switch() -> None:
    assert play(D6, D6_MOVES).result()["pay"] == [12, 0, 0, -12]  # type: ignore[index]
    assert play(D6, D6_MOVES, silan=False).result()["pay"] == [12, -6, -4, -2]  # type: ignore[index]


def test_d8_d9() -> None:
    g = play(["44 22 16 16 15 36", "66 11 56 46 46 15", "55 55 22 13 13 26", "66 44 33 33 11 56"], ["15", "56:R", "13:L", "56:R", "36:L", "15:R"])
    r = g.result()
    assert r is not None and r["zhang"] == {"kind": "闷五帐", "by": 1, "success": False} and r["pay"] == [12, -12, 0, 0]
    g = play(
        ["66 33 33 11 46 16", "55 44 11 13 13 36", "55 44 22 15 15 26", "66 22 56 56 46 16"],
        ["66", "36:L", "26:R", "22:R", "33:L", "13:L", "15:L", "56:L", "16:L", "13:L"],
    )
    r = g.result()
    assert r is not None and r["zhang"]["kind"] == "二三帐" and r["points"] == [18, 20, 28, 40] and r["pay"] == [12, -12, 0, 0]


# ---------------------------------------------------------------------------------------------
# Hypothesis properties against the reference

pip = st.integers(1, 6)


@st.composite
def hands_from_set(draw: st.DrawFn, max_each: int = 6) -> list[list[str]]:
    tiles = draw(st.permutations(SET))
    sizes = [draw(st.integers(0, max_each)) for _ in range(4)]
    out, i = [], 0
    for n in sizes:
        out.append(list(tiles[i : i + n]))
        i += n
    return out


@given(ends=st.tuples(pip, pip), hand=st.lists(st.sampled_from(KINDS), max_size=6))
@settings(max_examples=400, deadline=None)
def test_placements_match_reference(ends: tuple[int, int], hand: list[str]) -> None:
    hand = [t for i, t in enumerate(hand) if hand[: i + 1].count(t) <= COPIES[t]]
    got = [(p.tile, p.side, p.ends) for p in dingniu.placements(ends, hand)]
    assert got == ref_placements(ends, hand)
    moves = dingniu.legal_moves(ends, hand)
    if got:
        assert moves == [f"{t}:{s}" for t, s, _ in got]
    else:
        assert moves == [f"kou {t}" for t in KINDS if t in hand]
    for t in set(hand):
        for side in "LR":
            e = dingniu.place(ends, t, side)
            end = ends[0] if side == "L" else ends[1]
            new = ref_fit(t, end)
            assert e == (None if new is None else ((new, ends[1]) if side == "L" else (ends[0], new)))


@given(points=st.lists(st.integers(0, 60), min_size=4, max_size=4), order=st.permutations([0, 1, 2, 3]))
@settings(max_examples=400, deadline=None)
def test_ranking_matches_reference(points: list[int], order: list[int]) -> None:
    got = dingniu.settle(points, order)
    assert got == ref_rank(points, order)
    assert sum(got["pay"]) == 0


@given(counts=st.lists(st.integers(0, 80), min_size=4, max_size=4), order=st.permutations([0, 1, 2, 3]), by=st.integers(0, 3))
@settings(max_examples=300, deadline=None)
def test_zhang_settlement_matches_reference(counts: list[int], order: list[int], by: int) -> None:
    got = dingniu.zhang_settle(counts, by, order)
    r = ref_rank(counts, order)
    if r["winner"] == by:
        want = [12 if s == by else 2 * r["pay"][s] for s in range(4)]
    else:
        want = [0] * 4
        want[by], want[r["winner"]] = -12, 12
    assert got["success"] == (r["winner"] == by) and got["pay"] == want and sum(got["pay"]) == 0


@given(hands=hands_from_set(), ends=st.tuples(pip, pip), x=st.integers(0, 3), toupai=st.integers(0, 3), kou_x=st.integers(0, 1), data=st.data())
@settings(max_examples=500, deadline=None)
def test_zhang_detection_matches_reference(
    hands: list[list[str]], ends: tuple[int, int], x: int, toupai: int, kou_x: int, data: st.DataObject
) -> None:
    ps = ref_placements(ends, hands[x])
    if not ps:
        return
    tile, side, _ = data.draw(st.sampled_from(ps))
    kou = [0] * 4
    kou[x] = kou_x
    got = dingniu.detect_zhang(ends, [" ".join(h) for h in hands], x, f"{tile}:{side}", toupai=toupai, kou=kou)
    want = ref_check(ends, hands, x, tile, side, toupai, kou)
    assert got["zhang"] == want["zhang"]
    assert got["deliberate"] == want["deliberate"]
    assert got["suanzhang"] == want["suanzhang"]
    assert got["toupai_jingshou"] == want["toupai_jingshou"]
    assert [(s["tile"], s["holder"]) for s in got["smothered"]] == sorted(want["smothered"], key=lambda th: (th[1], KINDS.index(th[0])))


@given(seed=st.integers(0, 2**40), bots=st.sampled_from(["greedy", "random", "greedy,random,random,greedy"]))
@settings(max_examples=60, deadline=None)
def test_games_follow_the_rules(seed: int, bots: str) -> None:
    """Bot games step by step: every legal list equals the reference, 24 tiles accounted for."""
    g = dingniu.Game(seed=seed)
    names = bots.split(",") * (4 // len(bots.split(",")))
    k = 0
    while (s := g.to_act) is not None:
        obs = g.observation(s)
        if obs["ends"] is not None:
            ends = tuple(obs["ends"])
            ref = ref_placements(ends, obs["hand"])  # type: ignore[arg-type]
            want = [f"{t}:{sd}" for t, sd, _ in ref] or [f"kou {t}" for t in KINDS if t in obs["hand"]]
            assert obs["legal"] == want
        g.step(g.bot_action(names[s], seed + k))
        k += 1
        seen = [t for s2 in range(4) for t in g.hand(s2)]
        line = [item["tile"] for item in g.observation(0)["line"]]
        laid = [t for item in line for t in item.split("+")]
        assert len(seen) + len(laid) + sum(g.observation(0)["kou_sizes"]) == 24
    r = g.result()
    assert r is not None and sum(r["pay"]) == 0


# ---------------------------------------------------------------------------------------------
# Game API


def test_game_api_and_observation() -> None:
    g = dingniu.Game(seed=123)
    assert g.to_act == g.toupai and g.ends is None and not g.is_over
    assert g.order == [(g.toupai + i) % 4 for i in range(4)]
    obs = g.observation((g.toupai + 1) % 4)
    assert obs["legal"] == [] and len(obs["hand"]) == 6 and "hands" not in obs
    assert set(obs) >= {"hand", "kou", "line", "ends", "hand_sizes", "kou_sizes", "legal", "to_act", "result"}
    ids = g.legal_ids()
    assert [dingniu.action_name(i) for i in ids] == g.legal_actions()
    c = g.copy()
    g.step(ids[0])
    assert c.ends is None and g.ends is not None
    r = g.play_bots("greedy,random,greedy,random", seed=5)
    assert sum(r["pay"]) == 0 and g.is_over and g.legal_actions() == [] and g.to_act is None
    ledger = g.ledger(["东", "南", "西", "北"])
    assert sum(ledger["balances"].values()) == 0 and ledger["ended"]
    assert [ledger["balances"][n] for n in ["东", "南", "西", "北"]] == r["pay"]
    carry = g.carry()
    assert carry is not None and carry["prev_winner"] == r["winner"] and carry["prev_da_zhuang"] == r["da_zhuang"]
    nxt = dingniu.Game(seed=124, carry=carry)
    deal = nxt.events()[0]
    assert deal["dice"] is not None and nxt.toupai == (carry["prev_da_zhuang"] + sum(deal["dice"]) - 1) % 4
    with pytest.raises(InvalidHandError, match="over"):
        g.bot_action()
    assert "Game(" in repr(g)


def test_same_seed_same_game() -> None:
    def run(seed: int) -> list[dict[str, Any]]:
        g = dingniu.Game(seed=seed)
        g.play_bots("random", seed=9)
        return g.events()

    assert run(5) == run(5)
    assert run(5) != run(6)
    assert dingniu.simulate(300, seed=3, bots="random") == dingniu.simulate(300, seed=3, bots="random")


def test_events_are_json_and_replay() -> None:
    g = dingniu.Game(seed=77)
    g.play_bots()
    text = json.dumps(g.events(), ensure_ascii=False)
    again = dingniu.replay(json.loads(text))
    assert again.result() == g.result() and again.events() == g.events()
    bad = json.loads(text)
    bad[1]["tile"] = "11" if bad[1]["tile"] != "11" else "66"
    with pytest.raises(InvalidHandError, match="replay"):
        dingniu.replay(bad)
    bad = json.loads(text)
    bad[-1]["pay"] = [0, 0, 0, 0]
    with pytest.raises(InvalidHandError, match="differs"):
        dingniu.replay(bad)
    with pytest.raises(InvalidHandError):
        dingniu.replay([])
    with pytest.raises(InvalidHandError, match="unknown event type"):
        dingniu.replay([*json.loads(text)[:2], {"type": "fly", "seat": 0}])


def test_switches() -> None:
    r = dingniu.rules(silan=False, double_pair_opening="none")
    assert r.options()["silan"] is False and "silan=false" in repr(r)
    h = ["44 44 66 16 13 56", "66 55 33 22 46 15", "55 33 22 11 56 46", "11 16 15 13 36 26"]
    assert "44+44" in dingniu.openings(h)
    assert "44" in dingniu.openings(h, double_pair_opening="none")
    assert "66+66" not in dingniu.openings(h, double_pair_opening="all_doubles")
    s = dingniu.simulate(300, seed=2, suanzhang="off")
    assert s["played_out"] == 300
    desc = r.describe()
    assert {sw["name"] for sw in desc["switches"]} == {
        "opening_h1", "double_pair_opening", "suanzhang", "smother_tiles", "suanzhang_doubles_laid",
        "forced_block_exempt", "silan", "silan_payment",
    }


def test_batch_legal() -> None:
    rng = np.random.default_rng(0)
    n = 500
    ends = rng.integers(1, 7, size=(n, 2)).astype(np.uint8)
    hands = np.zeros((n, 13), np.uint8)
    for i in range(n):
        for t in rng.choice(SET, size=6, replace=False):
            hands[i, KINDS.index(t)] += 1
    mask = dingniu.batch_legal(ends, hands)
    assert mask.shape == (n, dingniu.N_ACTIONS) and mask.dtype == np.bool_
    for i in range(n):
        hand = [t for k, t in enumerate(KINDS) for _ in range(hands[i, k])]
        want = dingniu.legal_moves((int(ends[i, 0]), int(ends[i, 1])), hand)
        assert sorted(dingniu.action_name(int(a)) for a in np.flatnonzero(mask[i])) == sorted(want)


# ---------------------------------------------------------------------------------------------
# Errors: every invalid input raises a typed HupaiError saying what is wrong


@pytest.mark.parametrize(
    "call, err, text",
    [
        (lambda: dingniu.parse_hand("12"), InvalidTileError, "丁三"),
        (lambda: dingniu.parse_hand("77"), InvalidTileError, "1 to 6"),
        (lambda: dingniu.parse_hand("5"), InvalidTileError, "two pips"),
        (lambda: dingniu.parse_hand("26 62"), InvalidHandError, "too many copies"),
        (lambda: dingniu.placements((0, 6), "66"), InvalidHandError, "pip 1-6"),
        (lambda: dingniu.placements((4, 7), "66"), InvalidHandError, "pip 1-6"),
        (lambda: dingniu.place((4, 6), "46", "X"), InvalidHandError, "L"),
        (lambda: dingniu.settle([1, 2, 3]), InvalidHandError, "four"),
        (lambda: dingniu.settle([1, 2, 3, 4], [0, 1, 1, 2]), InvalidHandError, "permutation"),
        (lambda: dingniu.settle([1, 2, 3, -4]), InvalidHandError, "0..=177"),
        (lambda: dingniu.zhang_settle([1, 2, 3, 4], by=4), InvalidHandError, "seat"),
        (lambda: dingniu.openings(["66 66 66", "", "", ""]), InvalidHandError, "too many copies"),
        (lambda: dingniu.openings(["66 66", "66", "", ""]), InvalidHandError, "copies"),
        (lambda: dingniu.openings(["66", "55"]), InvalidHandError, "four hands"),
        (lambda: dingniu.openings(["", "55", "", ""]), InvalidHandError, "holds no tile"),
        (lambda: dingniu.detect_zhang((4, 6), ["46", "", "", ""], 0, "46"), InvalidHandError, "tile:side"),
        (lambda: dingniu.detect_zhang((4, 6), ["46", "", "", ""], 1, "46:L"), InvalidHandError, "does not hold"),
        (lambda: dingniu.detect_zhang((4, 6), ["13", "", "", ""], 0, "13:L"), InvalidHandError, "does not fit"),
        (lambda: dingniu.detect_zhang((4, 6), ["46", "", "", ""], 0, "46:L", kou=[9, 0, 0, 0]), InvalidHandError, "kou"),
        (lambda: dingniu.silan((4, 6), ["46", "46", "", ""], 0, 0, "46:L"), InvalidHandError, "differ"),
        (lambda: dingniu.rules(nope=1), RuleConfigError, "no switch"),
        (lambda: dingniu.rules(silan="maybe"), RuleConfigError, "silan"),
        (lambda: dingniu.rules("mcr"), RuleConfigError, "unknown"),
        (lambda: dingniu.simulate(10, bots="smart"), RuleConfigError, "random, greedy"),
        (lambda: dingniu.simulate(10, bots="greedy,random"), RuleConfigError, "four"),
        (lambda: dingniu.simulate(10, rounds_per_match=0), RuleConfigError, "rounds_per_match"),
        (lambda: dingniu.simulate(10, seed=-1), RuleConfigError, "seed"),
        (lambda: dingniu.simulate(10, threads=0), RuleConfigError, "threads"),
        (lambda: dingniu.Game(hands=["66 55", "", "", ""]), InvalidHandError, "six"),
        (lambda: dingniu.Game(seed=1, toupai=4), InvalidHandError, "seat"),
        (lambda: dingniu.Game(seed=1, carry={"dealer": 1}), InvalidHandError, "unknown key"),
        (lambda: dingniu.Game(hands=["66"] * 4, seed=1), InvalidHandError, "either"),
        (lambda: dingniu.action_id("46:Q"), InvalidHandError, "side"),
        (lambda: dingniu.action_id("44+55"), InvalidHandError, "pair"),
        (lambda: dingniu.action_name(58), InvalidHandError, "action_id"),
        (lambda: dingniu.batch_legal(np.zeros((2, 2), np.uint8), np.zeros((2, 13), np.uint8)), InvalidHandError, "pips"),
        (lambda: dingniu.batch_legal(np.ones((2, 2), np.uint8), np.zeros((2, 12), np.uint8)), InvalidHandError, "shape"),
        (lambda: dingniu.batch_legal(np.ones((1, 2), np.uint8), np.full((1, 13), 3, np.uint8)), InvalidHandError, "copies"),
    ],
)
def test_errors(call: Any, err: type[HupaiError], text: str) -> None:
    with pytest.raises(err, match=text):
        call()


def test_type_errors() -> None:
    with pytest.raises(TypeError):
        dingniu.parse_hand(56)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        dingniu.openings("66 55 44 33")
    with pytest.raises(TypeError):
        dingniu.openings({"66": 1, "55": 1, "44": 1, "33": 1})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        dingniu.placements((4, 6), 46)  # type: ignore[arg-type]
    g = dingniu.Game(seed=1)
    with pytest.raises(TypeError):
        g.step(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        g.step(True)  # type: ignore[arg-type]


def test_illegal_moves_are_refused_and_change_nothing() -> None:
    hands = ["66 11 11 46 13 26", "44 56 16 15 13 36", "66 55 33 22 16 15", "55 44 33 22 56 46"]
    g = dingniu.Game(hands=hands)
    for bad, text in [("13:L", "has not started"), ("kou 66", "has not started"), ("扣66", "has not started"), ("55", "does not hold"), ("12", "丁三"), ("", "empty move")]:
        with pytest.raises(HupaiError, match=text):
            g.step(bad)
    assert len(g.events()) == 1
    g.step("46")
    before = g.events()
    for bad, text in [("kou 44", "不能扣活牌"), ("13:L", "does not fit"), ("13", "tile:side"), ("11:L", "does not hold")]:
        with pytest.raises(InvalidHandError, match=text):
            g.step(bad)
        assert g.events() == before
    g.step("16")  # fits only the 6 end: read as 16:R
    assert g.ends == (4, 1)
    with pytest.raises(InvalidHandError, match="action_id"):
        g.step(99)
    # H1 and H2 refusals name the rule
    g = dingniu.Game(hands=["44 44 66 16 13 56", "66 55 33 22 46 15", "55 33 22 11 56 46", "11 16 15 13 36 26"])
    with pytest.raises(InvalidHandError, match="44\\+44"):
        g.step("44")
    g = dingniu.Game(hands=["46 46 44 11 26 33", "66 55 44 22 56 16", "66 55 33 22 11 15", "56 16 15 13 13 36"])
    with pytest.raises(InvalidHandError, match="不能拉三家"):
        g.step("44")


def test_doctests() -> None:
    res = doctest.testmod(dingniu)
    assert res.attempted > 10 and res.failed == 0


# ---------------------------------------------------------------------------------------------
# Invariants over many simulated hands (the table engine's checking mode, hupai.simulate(check=True))


def test_simulated_invariants_50k() -> None:
    """50,000 hands with every check on (≈10 s here on the shared 2-core machine)."""
    t = time.perf_counter()
    total = 0
    seen: dict[str, int] = {}
    for seed, bots, per in [(11, "greedy", 1), (12, "random", 4), (13, "greedy,random,greedy,random", 8)]:
        s = dingniu.simulate(16_667, seed=seed, bots=bots, check=True, rounds_per_match=per)
        assert s["rounds"] == 16_667 and sum(s["net"]) == 0
        assert s["decisions"] == s["lays"] + s["kous"] + s["rounds"]  # an opening, then lays and 扣s
        assert s["played_out"] + s["zhang_success"] + s["baozhuang"] + s["silan"] == s["rounds"]
        for k in ("played_out", "zhang_success", "baozhuang", "silan", "forced", "toupai_jingshou", "pair_openings"):
            seen[k] = seen.get(k, 0) + s[k]
        total += s["rounds"]
    assert total >= 50_000
    assert all(v > 0 for v in seen.values()), seen
    print(f"50k checked hands in {time.perf_counter() - t:.1f} s")


def test_simulate_is_thread_independent() -> None:
    a = dingniu.simulate(600, seed=5, bots="greedy,random,greedy,random", rounds_per_match=3, threads=1)
    b = dingniu.simulate(600, seed=5, bots="greedy,random,greedy,random", rounds_per_match=3, threads=2)
    assert a == b


def test_play_match_carry() -> None:
    m = dingniu.play_match(12, seed=4, bots="greedy,random,greedy,random")
    assert len(m["hands"]) == 12 and sum(m["totals"]) == 0
    assert m["totals"] == [sum(h["pay"][s] for h in m["hands"]) for s in range(4)]
    assert m["stats"]["rounds"] == 12 and [h["toupai"] for h in m["hands"]][0] in range(4)


def test_all_names_exported() -> None:
    assert hupai.dingniu is dingniu
    for n in dingniu.__all__:
        assert hasattr(dingniu, n), n


def test_permutations_of_order_keep_zero_sum() -> None:
    for order in itertools.permutations(range(4)):
        assert sum(dingniu.settle([5, 5, 5, 5], list(order))["pay"]) == 0
        assert dingniu.settle([5, 5, 5, 5], list(order))["winner"] == order[0]


def test_zhang_detection_random_positions() -> None:
    """4,000 seeded random positions (about 6% form a 帐) against the reference."""
    import random

    rng = random.Random(2024)
    formed = 0
    for _ in range(4000):
        tiles = SET[:]
        rng.shuffle(tiles)
        hands, j = [], 0
        for _s in range(4):
            n = rng.randint(0, 6)
            hands.append(tiles[j : j + n])
            j += n
        ends = (rng.randint(1, 6), rng.randint(1, 6))
        x = rng.randrange(4)
        ps = ref_placements(ends, hands[x])
        if not ps:
            continue
        t, side, _ = rng.choice(ps)
        toupai, kou = rng.randrange(4), [0, 0, 0, 0]
        kou[x] = rng.randint(0, 1)
        got = dingniu.detect_zhang(ends, [" ".join(h) for h in hands], x, f"{t}:{side}", toupai=toupai, kou=kou)
        want = ref_check(ends, hands, x, t, side, toupai, kou)
        assert (got["zhang"], got["deliberate"], got["suanzhang"], got["toupai_jingshou"]) == (
            want["zhang"], want["deliberate"], want["suanzhang"], want["toupai_jingshou"]
        ), (ends, hands, x, t, side)
        formed += got["zhang"] is not None
    assert formed > 100


def test_docs_examples_run() -> None:
    """Every ```python block of docs/dingniu.md runs as written."""
    import re

    doc = Path(__file__).resolve().parents[1] / "docs" / "dingniu.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 3
    for code in blocks:
        exec(compile(code, str(doc), "exec"), {"__name__": "docs"})
