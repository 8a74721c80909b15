"""够级 through the Python API: every dev case, the doc examples, hypothesis properties against slow
Python references written here (comparison, burn feasibility, legal plays), error paths, the state
machine, replay, the match loop and the CLI. Simulated-hand invariants: tests/test_gouji_sim.py."""

from __future__ import annotations

import doctest
import io
import itertools
import json
import os
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hupai
from hupai import gouji

SHARED = Path(os.environ.get("HUPAI_SHARED", Path(__file__).resolve().parents[1].parent / "shared"))
if not SHARED.exists():
    SHARED = Path("/work/shared")
CASES = [json.loads(line) for line in (SHARED / "cases" / "gouji_dev.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]

# ------------------------------------------------------------------------------ slow references

ORDER = "3456789TJQKA2wW"
VAL = {c: i + 3 for i, c in enumerate(ORDER)}
BASE = set("3456789TJQKA")


def ref_valid(cards: str) -> bool:
    """A play: non-empty, all cards other than 2s and jokers of one rank."""
    return bool(cards) and len({c for c in cards if c in BASE}) <= 1


def ref_values(cards: str, mixed: str) -> list[int]:
    """The play as compared (§4.3): jokers at their level, then base cards (2s at the base rank)."""
    base = [c for c in cards if c in BASE]
    jokers = [c for c in cards if c in "wW"]
    b = base[0] if base else ("2" if "2" in cards else None)
    if mixed == "downgrade" and "w" in jokers:
        jv = [VAL["w"]] * len(jokers)
    else:
        jv = sorted((VAL[j] for j in jokers), reverse=True)
    rest = len(cards) - len(jokers)
    return jv + ([VAL[b]] * rest if b else [])


def ref_beats(q: str, p: str, mixed: str = "downgrade") -> bool:
    a, b = ref_values(q, mixed), ref_values(p, mixed)
    return len(a) == len(b) and all(x > y for x, y in zip(a, b, strict=True))


def ref_bie_san(hand: str, play: str, bie_san: bool) -> bool:
    if not bie_san or "3" not in play:
        return True
    return set(hand) == {"3"} and set(play) == {"3"}


def sub_multisets(hand: str) -> list[str]:
    cnt = Counter(hand)
    keys = sorted(cnt, key=ORDER.index)
    out = []
    for ks in itertools.product(*(range(cnt[k] + 1) for k in keys)):
        s = "".join(k * n for k, n in zip(keys, ks, strict=True))
        if s:
            out.append(s)
    return out


def canon(cards: str) -> str:
    return "".join(sorted(cards, key=ORDER.index, reverse=True))


def ref_legal(hand: str, top: str | None, bie_san: bool, mixed: str) -> set[str]:
    out = set()
    for s in sub_multisets(hand):
        if ref_valid(s) and ref_bie_san(hand, s, bie_san) and (top is None or ref_beats(s, top, mixed)):
            out.add(canon(s))
    return out


@lru_cache(maxsize=None)
def ref_can_go_out(rest: str, bie_san: bool) -> bool:
    """Search: lead by lead, each a legal play with a joker except the one that empties the hand."""
    if not rest:
        return True
    for lead in sub_multisets(rest):
        if not ref_valid(lead) or not ref_bie_san(rest, lead, bie_san):
            continue
        if len(lead) == len(rest):
            return True
        if "w" in lead or "W" in lead:
            left = Counter(rest)
            left.subtract(lead)
            if ref_can_go_out(canon("".join(left.elements())), bie_san):
                return True
    return False


def ref_burn_options(hand: str, top: str, bie_san: bool) -> set[str]:
    out = set()
    for k in ref_legal(hand, top, bie_san, "downgrade"):
        left = Counter(hand)
        left.subtract(k)
        if ref_can_go_out(canon("".join(left.elements())), bie_san):
            out.add(k)
    return out


# ------------------------------------------------------------------------------ dev cases


def _eval(case: dict[str, Any]) -> dict[str, Any]:
    i = case["input"]
    k = case["kind"]
    if k == "parse_play":
        try:
            p = gouji.parse_play(i["cards"])
        except hupai.InvalidHandError:
            return {"valid": False}
        return {"valid": True, "jokers": p.jokers, "joker_level": p.joker_level, "base": p.base, "base_count": p.base_count, "total": p.total}
    if k == "is_gouji":
        return {"gouji": gouji.is_gouji(i["cards"])}
    if k == "beats":
        return {"beats": gouji.beats(i["play"], i["top"], mixed_jokers=i.get("mixed_jokers", "downgrade"))}
    if k == "kaidian_on_unanswered":
        seat = i["seat"]
        hands = ["56"] * 6
        hands[seat] = i["play"] + "999"
        g = gouji.Game.from_position(hands, leader=seat)
        g.step(i["play"])
        while g.top is not None:
            g.step("pass")
        return {"leader": g.to_act, "kaidian": g.observation(seat)["kaidian"][seat]}
    if k == "answer_rights":
        return gouji.answer_rights(i["top_seat"], i["play"], i["active"], i["passed"], i["luanchan"])
    if k == "burn_check":
        opts = gouji.burn_options(i["hand"], i["top"], bie_san=i["bie_san"])
        return {"allowed": bool(opts), "options": sorted(opts)}
    if k == "burn_priority":
        order = gouji.burn_priority(i["gouji_seat"], i["declarers"])
        return {"burner": order[0], "order": order}
    if k == "burn_lead":
        return {"result": gouji.burn_lead(i["hand"], i["lead"])}
    if k == "places":
        ps = gouji.places([(e[0], e[1]) for e in i["events"]], i["revolution"])
        return {"places": dict(zip(gouji.PLACES, ps, strict=True))}
    if k == "score":
        s, c = gouji.score([i["places"][n] for n in gouji.PLACES])
        return {"scores": s, "chuan_san_hu": c}
    if k == "dian_gong":
        a, b = gouji.dian_gong(tuple(i["declared"]), tuple(i["opened"]))
        return {"a_to_b": a, "b_to_a": b}
    if k == "tribute":
        obs = gouji.tribute(
            [i["places"][n] for n in gouji.PLACES],
            i["kaidian"],
            i["xuandian"],
            [tuple(x) for x in i["burns"]],
            [tuple(x) for x in i["men"]],
            first_hand=i["first_hand"],
            revolution=i.get("revolution"),
        )
        return {"obligations": obs}
    if k == "tribute_cards":
        return {"give": gouji.tribute_cards(i["hand"], i["n"])}
    if k == "bie_san_play":
        return {"legal": gouji.bie_san_ok(i["hand"], i["play"])}
    if k == "buy_three":
        return gouji.buy_three(i["buyer"], i["threes"], i["paycards"][i["buyer"]])
    if k == "first_leader":
        ld = gouji.first_leader([tuple(s) for s in i["shows"]])
        return {"leader": "random" if ld is None else ld}
    if k == "may_revolt":
        return {"may_revolt": gouji.may_revolt(i["hand"])}
    raise AssertionError(f"unknown kind {k}")


def test_dev_file_has_every_case() -> None:
    assert len(CASES) == 79
    assert len({c["id"] for c in CASES}) == 79


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_dev_case(case: dict[str, Any]) -> None:
    got = _eval(case)
    want = dict(case["expected"])
    if case["kind"] == "burn_check":
        want["options"] = sorted(want["options"])
    got = {k: v for k, v in got.items() if k in want}
    assert got == want


def test_doc_examples_run() -> None:
    res = doctest.testmod(gouji, optionflags=doctest.ELLIPSIS)
    assert res.attempted > 25 and res.failed == 0


# ------------------------------------------------------------------------------ properties

CARD = st.sampled_from(list("3456789TJQKA2wW"))


@st.composite
def plays(draw: st.DrawFn) -> str:
    """A random valid play (one base rank or none, plus 2s and jokers)."""
    n = draw(st.integers(1, 6))
    base = draw(st.sampled_from(list("3456789TJQKA") + [""]))
    cards = [draw(st.sampled_from([base, "2", "w", "W"] if base else ["2", "w", "W"])) for _ in range(n)]
    for j in "wW":  # four decks hold four of each joker
        while cards.count(j) > 4:
            cards.remove(j)
    return canon("".join(cards))


@settings(max_examples=400, deadline=None)
@given(plays(), plays(), plays(), st.sampled_from(["downgrade", "per_card"]))
def test_comparison_is_a_strict_partial_order_and_matches_reference(a: str, b: str, c: str, mixed: str) -> None:
    r = gouji.Rules(mixed_jokers=mixed)
    beats = lambda x, y: gouji.beats(x, y, rules=r)  # noqa: E731
    assert beats(a, b) == ref_beats(a, b, mixed)
    assert not beats(a, a)  # irreflexive
    if beats(a, b):
        assert not beats(b, a)  # asymmetric
        if beats(b, c):
            assert beats(a, c)  # transitive
    assert gouji.compare(a, b, rules=r) == (1 if beats(a, b) else -1 if beats(b, a) else 0)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["downgrade", "per_card"]))
def test_comparison_same_length_chains_are_transitive(mixed: str) -> None:
    # Exhaustive over all plays of 2 cards: transitivity with no sampling gaps.
    r = gouji.Rules(mixed_jokers=mixed)
    two = sorted({canon(x + y) for x in ORDER for y in ORDER if ref_valid(x + y)})
    rel = {(x, y) for x in two for y in two if gouji.beats(x, y, rules=r)}
    for x, y in rel:
        for y2, z in rel:
            if y == y2:
                assert (x, z) in rel


@st.composite
def small_hands(draw: st.DrawFn, max_cards: int = 9) -> str:
    ranks = draw(st.lists(st.sampled_from(list("34569TKA2wW")), min_size=1, max_size=max_cards))
    c = Counter(ranks)
    for j in "wW":
        c[j] = min(c[j], 4)
    return canon("".join(c.elements()))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands(), st.one_of(st.none(), plays()), st.booleans(), st.sampled_from(["downgrade", "per_card"]))
def test_legal_plays_equal_brute_force(hand: str, top: str | None, bie_san: bool, mixed: str) -> None:
    got = gouji.legal_plays(hand, top, bie_san=bie_san, mixed_jokers=mixed)
    assert len(got) == len(set(got))
    assert set(got) == ref_legal(hand, top, bie_san, mixed)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands(8), st.booleans())
def test_remainder_feasibility_equals_search(rest: str, bie_san: bool) -> None:
    assert gouji.remainder_feasible(rest, bie_san=bie_san) == ref_can_go_out(rest, bie_san)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands(9), st.sampled_from(["KK", "AA", "QQQ", "2", "w", "22", "TTTTT", "w9", "JJJJ"]), st.booleans())
def test_burn_options_equal_search(hand: str, top: str, bie_san: bool) -> None:
    got = gouji.burn_options(hand, top, bie_san=bie_san)
    assert set(got) == ref_burn_options(hand, top, bie_san)
    assert gouji.can_burn(hand, top, bie_san=bie_san) == bool(got)


def test_batch_functions_equal_single_calls() -> None:
    rng = np.random.default_rng(1)
    hands = rng.integers(0, 3, size=(300, 15)).astype(np.uint8)
    texts = [gouji.format_cards("".join(ORDER[r] * int(n) for r, n in enumerate(row))) for row in hands]
    for top in (None, "KK", "99"):
        got = gouji.batch_legal_count(hands, top)
        assert got.dtype == np.uint32
        assert got.tolist() == [len(gouji.legal_plays(t, top)) if t else 0 for t in texts]
    burn = gouji.batch_can_burn(hands, "KK")
    assert burn.tolist() == [gouji.can_burn(t, "KK") if t else False for t in texts]


# ------------------------------------------------------------------------------ notation and errors


def test_notation() -> None:
    assert gouji.parse_cards("大王 小花 10 钩 二") == ["W", "w", "2", "J", "T"]
    assert gouji.format_cards("33·4 4,W") == "W4433"
    assert gouji.format_cards("Ww2A", chinese=True) == "大王 小王 二 尖"
    assert [r[0] for r in gouji.ranks()] == list(ORDER)
    p = gouji.Play(["9", "2", "W"])
    assert (p.cards, p.tie_qian, p.gua_hua, len(p), str(p), repr(p)) == ("W29", True, True, 3, "W29", "GoujiPlay('W29')")
    assert gouji.Play("W29") == p and hash(gouji.Play("W29")) == hash(p)
    import pickle

    assert pickle.loads(pickle.dumps(p)) == p
    assert gouji.decode_action(p.action_id) == "W29"
    assert gouji.ACTION_SPACE > 90_000


@pytest.mark.parametrize(
    ("call", "exc", "words"),
    [
        (lambda: gouji.parse_cards("33x"), hupai.InvalidTileError, "unknown card 'x'"),
        (lambda: gouji.parse_cards("jj"), hupai.InvalidTileError, "upper case"),
        (lambda: gouji.parse_cards("W" * 5), hupai.InvalidTileError, "four decks hold 4"),
        (lambda: gouji.parse_cards("3" * 17), hupai.InvalidTileError, "more than 16"),
        (lambda: gouji.Play("33344"), hupai.InvalidHandError, "one rank"),
        (lambda: gouji.Play(""), hupai.InvalidHandError, "at least one card"),
        (lambda: gouji.Play(42), TypeError, "cards must be"),
        (lambda: gouji.parse_cards(["3", 4]), TypeError, "cards must be strings"),
        (lambda: gouji.beats("KK", "QQ", nope=True), hupai.RuleConfigError, "no switch"),
        (lambda: gouji.beats("KK", "QQ", mixed_jokers="x"), hupai.RuleConfigError, "downgrade"),
        (lambda: gouji.beats("KK", "QQ", bie_san=1), hupai.RuleConfigError, "true or false"),
        (lambda: gouji.beats("KK", "QQ", variant="doudizhu"), hupai.RuleConfigError, "unknown 够级 variant"),
        (lambda: gouji.beats("KK", "QQ", rules=gouji.Rules(), bie_san=True), hupai.RuleConfigError, "not both"),
        (lambda: gouji.bie_san_ok("55", "33"), hupai.InvalidHandError, "not in the hand"),
        (lambda: gouji.burn_lead("55", "66"), hupai.InvalidHandError, "not in the hand"),
        (lambda: gouji.answer_rights(6, "KK"), hupai.InvalidHandError, "top_seat=6"),
        (lambda: gouji.places([("out", 0)]), hupai.InvalidHandError, "seats left"),
        (lambda: gouji.places([("gone", 0)]), hupai.InvalidHandError, "'out' or 'burn_fail'"),
        (lambda: gouji.places([("out", 0), ("out", 0)]), hupai.InvalidHandError, "twice"),
        (lambda: gouji.score([0, 1, 2, 3, 4, 4]), hupai.InvalidHandError, "appears twice"),
        (lambda: gouji.score([0, 1, 2]), hupai.InvalidHandError, "six seats"),
        (lambda: gouji.tribute_cards("55", 3), hupai.InvalidHandError, "fewer than 3"),
        (lambda: gouji.buy_three(0, [0, 1], ""), hupai.InvalidHandError, "six counts"),
        (lambda: gouji.first_leader([(0, 1)]), hupai.InvalidHandError, "count=1"),
        (lambda: gouji.tribute([0, 1, 2, 3, 4, 5], [False] * 6, burns=[(1, 1)]), hupai.InvalidHandError, "twice"),
        (lambda: gouji.batch_legal_count(np.zeros((2, 14), np.uint8)), hupai.InvalidHandError, "shape (N, 15)"),
        (lambda: gouji.batch_legal_count(np.full((1, 15), 17, np.uint8)), hupai.InvalidHandError, "copies"),
        (lambda: gouji.Game(seed=-1), hupai.InvalidHandError, "seed=-1"),
        (lambda: gouji.Game(carry="{"), hupai.InvalidHandError, "carry"),
        (lambda: gouji.Game(carry={"hand_in_session": 1, "extra": 1}), hupai.InvalidHandError, "unknown field"),
        (
            lambda: gouji.Game(carry={"obligations": [{"kind": "落贡", "from": 1, "to": 1, "n": 2}]}),
            hupai.InvalidHandError,
            "two different seats",
        ),
        (lambda: gouji.Game.from_position(["55"] * 5, 0), hupai.InvalidHandError, "six"),
        (lambda: gouji.Game.from_position(["5555"] * 6, 0), hupai.InvalidHandError, "copies"),
        (lambda: gouji.Game.from_position(["55", "", "55", "55", "55", "55"], 0), hupai.InvalidHandError, "list him in `out`"),
        (lambda: gouji.replay("[]"), hupai.InvalidHandError, "empty"),
        (lambda: gouji.replay("not json"), hupai.InvalidHandError, "JSON"),
        (lambda: gouji.replay([{"type": "PLAY"}]), hupai.InvalidHandError, "DEAL"),
        (lambda: gouji.simulate(1, bots="smart"), hupai.RuleConfigError, "built-in bots"),
        (lambda: gouji.simulate(1, bots=["random"] * 5), hupai.RuleConfigError, "six names"),
        (lambda: gouji.simulate(-1), hupai.RuleConfigError, "n_hands=-1"),
        (lambda: gouji.Match(["greedy"] * 5), hupai.RuleConfigError, "six agents"),
        (lambda: gouji.encode_action("pas"), hupai.InvalidTileError, "an action is cards"),
    ],
)
def test_errors_are_typed_and_say_what_is_wrong(call: Any, exc: type[BaseException], words: str) -> None:
    with pytest.raises(exc) as e:
        call()
    assert words in str(e.value)
    if exc is not TypeError:
        assert isinstance(e.value, hupai.HupaiError) and isinstance(e.value, ValueError)


# ------------------------------------------------------------------------------ the hand


def test_illegal_steps_change_nothing() -> None:
    g = gouji.Game.from_position(["KK44", "55", "66", "77", "88", "99"], leader=0)
    before = (g.observation(0), g.events, g.to_act, g.ask)
    for a in ["pass", "AA", "444", "yield", "show", "33", "return:4", 10**30, "revolt"]:
        with pytest.raises((hupai.HupaiError, TypeError)):
            g.step(a)
    with pytest.raises(hupai.InvalidHandError, match="seat 0's turn"):
        g.step("44", seat=1)
    with pytest.raises(TypeError):
        g.step(None)  # type: ignore[arg-type]
    assert (g.observation(0), g.events, g.to_act, g.ask) == before
    assert g.legal_actions(3) == []


def test_e7_burn_through_the_api() -> None:
    g = gouji.Game.from_position(["KK44", "AAww555999", "4455", "4455", "66", "55"], leader=0, bie_san=False)
    g.step("KK")
    assert (g.to_act, g.ask, g.legal_actions()) == (1, "burn", ["AA", "pass"])
    ev = g.step("AA")
    assert {"type": "BURN_START", "burner": 1, "victim": 0} in ev
    g.step("pass")  # seat 4, the 对头
    g.step("w555")
    g.step("pass")
    ev = g.step("w999")
    assert {"type": "BURN_SUCCESS", "burner": 1, "victim": 0} in ev
    assert g.observation(1)["kaidian"][1]
    assert g.cards_conserved()


def test_e6_yield_through_the_api() -> None:
    g = gouji.Game.from_position(["9944", "4455", "4455", "TT55", "4455", "TT44"], leader=0)
    g.step("99")
    g.step("pass")
    g.step("pass")
    assert "yield" in g.legal_actions()
    g.step("yield")
    g.step("pass")
    g.step("TT")
    assert (g.to_act, g.ask) == (2, "answer")


def test_full_hand_outcome_ledger_carry_and_replay() -> None:
    g = gouji.Game(seed=5)
    assert g.phase in ("show", "revolt", "xuandian") and all(len(h) == 36 for h in g.hands)
    ids: list[int] = []
    while not g.is_over:
        legal = g.legal_actions()
        assert legal and len(g.legal_action_ids()) == len(legal)
        a = g.bot_action("random", seed=len(ids))
        assert a in legal
        ids.append(gouji.encode_action(a))
        g.step(a)
        assert g.cards_conserved()
    o = g.outcome
    assert o is not None and sorted(o["places"]) == list(range(6))
    assert sum(o["scores"]) == 0
    led = g.ledger
    assert led is not None and led["balances"] == o["scores"]
    assert led["events"][0]["kind"] == "ADJUSTMENT"
    carry = g.next_carry
    assert carry is not None and carry["hand_in_session"] == 1
    kinds = [x["kind"] for x in carry["obligations"]]
    assert kinds == sorted(kinds, key=["闷贡", "烧贡", "点贡", "落贡"].index)
    # The next hand pays it; replay from the JSON log is exact.
    g2 = gouji.Game(seed=6, carry=carry)
    assert g2.carry == carry
    assert [e["type"] for e in g2.events[1 : 1 + 1]] == ["TRIBUTE"]
    text = json.dumps(g.events, ensure_ascii=False)
    r = gouji.replay(text)
    assert r.events == g.events and r.outcome == o
    bad = json.loads(text)
    i = next(i for i, e in enumerate(bad) if e["type"] == "PASS")
    bad[i]["type"] = "YIELD"
    with pytest.raises(hupai.InvalidHandError, match="replay"):
        gouji.replay(bad)
    # Same seed, same hand.
    h = gouji.Game(seed=5)
    for i in ids:
        h.step(i)
    assert h.events == g.events


def test_observation_hides_other_hands() -> None:
    g = gouji.Game(seed=2)
    o = g.observation(3)
    assert o["hand"] == g.hands[3] and o["cards_left"] == [36] * 6
    assert all(h not in json.dumps({k: v for k, v in o.items() if k != "hand"}) for i, h in enumerate(g.hands) if i != 3)


def test_match_carries_tribute_and_is_zero_sum() -> None:
    m = gouji.Match(["greedy", "random"] * 3, seed=1)
    outs = m.play(6)
    assert len(outs) == 6 and m.hands_played == 6 and sum(m.totals) == 0
    calls: list[int] = []

    def me(game: gouji.Game, seat: int) -> str:
        calls.append(seat)
        a = game.bot_action("greedy")
        assert a is not None
        return a

    m2 = gouji.Match([me] + ["greedy"] * 5, seed=2)
    m2.play(1)
    assert calls and set(calls) == {0}


def test_simulate_api_is_deterministic() -> None:
    a = gouji.simulate(40, seed=3, bots="greedy")
    b = gouji.simulate(40, seed=3, bots="greedy", parallel=False)
    assert a == b and a["hands"] + a["voids"] == 40 and sum(a["scores"]) == 0
    c = gouji.simulate(40, seed=3, bots=["greedy", "random"] * 3)
    assert c != a


# ------------------------------------------------------------------------------ CLI


def _cli(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    import contextlib
    import sys

    from hupai.cli import main

    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(args)
    finally:
        sys.stdin = old
    return rc, out.getvalue(), err.getvalue()


def test_cli_check_legal_simulate_replay(tmp_path: Path) -> None:
    rc, out, _ = _cli(["gouji", "check", "WW999", "--top", "ww888", "--json"])
    assert rc == 0 and json.loads(out)["beats_top"] is True
    rc, out, _ = _cli(["gouji", "check", "AA", "--top", "KK", "--hand", "AAww555999", "--set", "bie_san=false"])
    assert rc == 0 and "can burn KK: yes with AA" in out
    rc, out, _ = _cli(["gouji", "legal", "AAww555999", "--top", "KK"])
    assert (rc, out.split()) == (0, ["AA", "wA", "ww"])
    rc, out, _ = _cli(["gouji", "simulate", "30", "--bots", "greedy", "--check", "--json"])
    assert rc == 0 and json.loads(out)["hands"] + json.loads(out)["voids"] == 30
    g = gouji.Game(seed=8)
    while not g.is_over:
        g.step(g.bot_action())
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(g.events, ensure_ascii=False), encoding="utf-8")
    rc, out, _ = _cli(["gouji", "replay", str(f)])
    assert rc == 0 and json.loads(out) == g.outcome
    rc, _, err = _cli(["gouji", "check", "33344"])
    assert rc == 2 and err.count("\n") == 1 and "not a play" in err
    rc, _, err = _cli(["gouji", "legal", "55", "--set", "bie_san"])
    assert rc == 2 and "SWITCH=VALUE" in err


def test_cli_play_in_the_terminal() -> None:
    # Always the first option; a bad action is refused with a message and asked again.
    rc, out, _ = _cli(["gouji", "play", "--seed", "4", "--seat", "2", "--hands", "2"], "ZZ\nhint\n?\n" + "0\n" * 2000)
    assert rc == 0
    assert "not allowed: invalid tile" in out and "greedy would play" in out
    assert out.count("places: 头科") == 2 and "totals" in out
    rc, out, _ = _cli(["gouji", "play", "--seed", "4"], "q\n")
    assert rc == 0 and "you are asked" in out


DOC = Path(__file__).resolve().parents[1] / "docs" / "gouji.md"
DOC_BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("code", DOC_BLOCKS, ids=[f"block{i}" for i in range(len(DOC_BLOCKS))])
def test_docs_examples_run(code: str) -> None:
    assert len(DOC_BLOCKS) >= 5
    exec(compile(code, str(DOC), "exec"), {"__name__": "docs"})


def test_action_space_documented() -> None:
    assert gouji.ACTION_SPACE == 93_957 and "93,957" in DOC.read_text(encoding="utf-8")
