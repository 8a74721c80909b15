"""斗地主: every dev case, hypothesis properties against a brute-force reference, the state machine,
batch functions, action encodings, the CLI and the error paths (shared/rules/doudizhu.md)."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hupai
from hupai import doudizhu as ddz
from tests.conftest import shared_dir

RANKS = "3456789TJQKA2xX"
PROFILES = [None, "rlcard", "douzero", "openspiel", "onestraw", "pagat"]
RULES = {p: ddz.Rules(profile=p) for p in PROFILES}


def cases() -> list[dict[str, Any]]:
    path = shared_dir() / "cases" / "doudizhu_dev.jsonl"
    if not path.exists():
        pytest.fail(f"{path} not found; set HUPAI_SHARED")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def case_rules(inp: dict[str, Any]) -> ddz.Rules:
    return ddz.Rules("doudizhu_qq", **inp.get("rules", {}))


# ------------------------------------------------------------------------------------------------
# Every dev case


@pytest.mark.parametrize("case", cases(), ids=lambda c: c["id"])
def test_dev_case(case: dict[str, Any]) -> None:
    inp, exp, kind = case["input"], case["expected"], case["kind"]
    if kind == "classify":
        r = case_rules(inp)
        got = ddz.classify(inp["cards"], rules=r)
        assert (list(got) if got else None) == exp["reading"]
        assert [list(x) for x in ddz.readings(inp["cards"], rules=r)] == exp["readings"]
    elif kind == "beats":
        r = case_rules(inp)
        assert ddz.beats(inp["a"], inp["b"], b_reading=tuple(inp["b_reading"]), rules=r) is exp["beats"]
        a = ddz.classify(inp["a"], rules=r)
        assert (list(a) if a else None) == exp["a_reading"]
    elif kind == "legal_moves_count":
        r = case_rules(inp)
        last = inp["last"]
        moves = ddz.legal_moves(
            inp["hand"],
            last["cards"] if last else None,
            last_reading=tuple(last["reading"]) if last else None,
            rules=r,
        )
        assert len(moves) == len(set(moves)) == exp["count"]
        digest = hashlib.sha256("\n".join(sorted(moves)).encode()).hexdigest()
        assert digest == exp["sha256"]
        if "moves" in exp:
            assert sorted(moves) == sorted(exp["moves"])
        assert (last is not None) is exp["pass_allowed"]
    elif kind == "settle":
        variant = "doudizhu_" + inp["preset"]
        switches: dict[str, Any] = {}
        if "stake" in inp:
            switches["stake"] = inp["stake"]
        if "room" in inp:
            switches.update(coin_room=True, room_factor=inp["room"]["N"], house_fee=inp["room"]["A"])
        rec = {k: inp[k] for k in ("bid", "landlord_won", "bombs", "rockets", "landlord_hands", "farmer_hands", "robs", "shown") if k in inp}
        got = ddz.settle(rec, rules=ddz.Rules(variant, **switches))
        for k in ("spring", "multiplier", "unit", "scores"):
            assert got[k] == exp[k], k
        assert sum(got["scores"].values()) == 0
        if "coin" in exp:
            assert got["coin"] == exp["coin"]
    elif kind == "auction":
        rules = ddz.Rules("doudizhu_" + inp["preset"], rob=inp["rob_room"], show_hand=inp["rob_room"])
        got = ddz.auction(inp["actions"], first=inp["first"], rules=rules)
        assert got["legal"] is exp["legal"]
        if exp["legal"]:
            for k in ("result", "landlord", "bid", "robs", "actors"):
                if k in exp:
                    assert got[k] == exp[k], k
        else:
            assert got["error_at"] == exp["error_at"]
    else:
        pytest.fail(f"unknown case kind {kind}")


def test_every_case_kind_is_covered() -> None:
    kinds = {c["kind"] for c in cases()}
    assert kinds == {"classify", "beats", "legal_moves_count", "settle", "auction"}
    assert len(cases()) == 172


# ------------------------------------------------------------------------------------------------
# A slow, obviously-correct reference written from the spec (§6, §7.1), and brute-force legal moves


def counts_of(cards: str) -> list[int]:
    c = [0] * 15
    for ch in cards:
        c[RANKS.index(ch)] += 1
    return c


def text_of(c: list[int] | tuple[int, ...]) -> str:
    return "".join(RANKS[r] * n for r, n in enumerate(c))


def switches_of(rules: ddz.Rules) -> dict[str, Any]:
    return dict(rules.switches)


def ref_readings(c: list[int], sw: dict[str, Any]) -> list[tuple[str, int, int]]:
    """Every (type, main rank index, length) reading of the multiset, by trying each definition."""
    n = sum(c)
    out: list[tuple[str, int, int]] = []
    if n == 0 or n > 20:
        return out
    present = [r for r in range(15) if c[r]]
    if len(present) == 1:
        r = present[0]
        out.append(({1: "single", 2: "pair", 3: "trio", 4: "bomb"}[c[r]], r, 1))
    if n == 2 and c[13] == 1 and c[14] == 1:
        out.append(("rocket", 14, 1))
    for t in range(13):
        if c[t] != 3:
            continue
        rest = [x - (3 if r == t else 0) for r, x in enumerate(c)]
        if sum(rest) == 1:
            out.append(("trio_single", t, 1))
        if sum(rest) == 2 and sw["trio_pair"] and any(rest[r] == 2 for r in range(13)):
            out.append(("trio_pair", t, 1))
    for w, kind, lmin, lmax in ((1, "chain", 5, 12), (2, "pair_chain", 3, 10), (3, "trio_chain", 2, 6)):
        for lo in range(12):
            for length in range(lmin, lmax + 1):
                hi = lo + length - 1
                if hi > 11:
                    continue
                if all(c[r] == (w if lo <= r <= hi else 0) for r in range(15)):
                    out.append((kind, hi, length))

    def cap(r: int, lo: int, hi: int) -> int:
        base = 4 if sw["kicker_bomb"] else 3
        mode = sw["single_kickers"]
        if mode == "any":
            return base
        if mode == "no_triple":
            return 2
        if mode == "distinct":
            return 1
        return 2 if (r == lo - 1 or (r == hi + 1 and r < 12)) else base

    for length in range(2, 6):
        if n != 4 * length:
            continue
        for lo in range(12):
            hi = lo + length - 1
            if hi > 11 or any(c[r] < 3 for r in range(lo, hi + 1)):
                continue
            wings = [x - (3 if lo <= r <= hi else 0) for r, x in enumerate(c)]
            ok = not (wings[13] and wings[14] and not sw["kicker_rocket"])
            for r in range(15):
                if lo <= r <= hi:
                    ok = ok and (wings[r] == 0 or (sw["wing_main_rank"] and wings[r] <= 1))
                else:
                    ok = ok and wings[r] <= cap(r, lo, hi)
            if ok:
                out.append(("plane_single", hi, length))
    for length in range(2, 5):
        if n != 5 * length:
            continue
        for lo in range(12):
            hi = lo + length - 1
            if hi > 11 or any(c[r] != 3 for r in range(lo, hi + 1)):
                continue
            pairs, ok = 0, True
            for r in range(15):
                if lo <= r <= hi or c[r] == 0:
                    continue
                if c[r] == 2:
                    pairs += 1
                elif c[r] == 4 and sw["wing_pair_same_rank"]:
                    pairs += 2
                else:
                    ok = False
            if ok and pairs == length:
                out.append(("plane_pair", hi, length))
    for q in range(13):
        if c[q] != 4:
            continue
        rest = [x - (4 if r == q else 0) for r, x in enumerate(c)]
        if n == 6 and sw["four_two_single"]:
            rocket = rest[13] == 1 and rest[14] == 1
            pair = 2 in rest
            if not (rocket and not sw["kicker_rocket"]) and not (pair and sw["single_kickers"] == "distinct"):
                out.append(("four_two_single", q, 1))
        if n == 8 and sw["four_two_pair"]:
            pairs, ok = 0, True
            for x in rest:
                if x == 2:
                    pairs += 1
                elif x == 4 and sw["four_two_pair_same_rank"]:
                    pairs += 2
                elif x:
                    ok = False
            if ok and pairs == 2:
                out.append(("four_two_pair", q, 1))
    return out


def ref_beats(a: tuple[str, int, int], b: tuple[str, int, int]) -> bool:
    if b[0] == "rocket":
        return False
    if a[0] == "rocket":
        return True
    if a[0] == "bomb":
        return b[0] != "bomb" or a[1] > b[1]
    return b[0] != "bomb" and a[0] == b[0] and a[2] == b[2] and a[1] > b[1]


def ref_legal(hand: str, target: tuple[str, int, int] | None, sw: dict[str, Any]) -> set[str]:
    c = counts_of(hand)
    out = set()
    for sub in itertools.product(*(range(x + 1) for x in c)):
        if not any(sub):
            continue
        rs = ref_readings(list(sub), sw)
        if rs and (target is None or any(ref_beats(r, target) for r in rs)):
            out.add(text_of(sub))
    return out


def as_reading(r: tuple[str, int, int]) -> tuple[str, str, int]:
    return (r[0], RANKS[r[1]], r[2])


DECK = [r for r in range(15) for _ in range(1 if r >= 13 else 4)]


@st.composite
def hands(draw: st.DrawFn, max_cards: int = 12) -> str:
    n = draw(st.integers(1, max_cards))
    rich = draw(st.booleans())
    c = [0] * 15
    if rich:
        for r in draw(st.lists(st.integers(0, 12), max_size=3, unique=True)):
            c[r] = draw(st.integers(3, 4))
    idx = draw(st.permutations(list(range(54))))
    for i in idx:
        if sum(c) >= n:
            break
        r = DECK[i]
        if c[r] < (1 if r >= 13 else 4):
            c[r] += 1
    while sum(c) > max(n, 1):
        r = max(range(15), key=lambda x: c[x])
        c[r] -= 1
    return text_of(c)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(), st.sampled_from(PROFILES))
def test_readings_equal_the_reference(hand: str, profile: str | None) -> None:
    rules = RULES[profile]
    sw = switches_of(rules)
    for sub in itertools.product(*(range(x + 1) for x in counts_of(hand))):
        text = text_of(sub)
        if not text:
            continue
        want = sorted(as_reading(r) for r in ref_readings(list(sub), sw))
        assert sorted(ddz.readings(text, rules=rules)) == want, text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(), hands(max_cards=20), st.sampled_from(PROFILES), st.randoms(use_true_random=False))
def test_answers_are_exactly_the_moves_that_beat(hand: str, other: str, profile: str | None, rnd: random.Random) -> None:
    """A move's answers are exactly the legal moves (sub-multisets with a reading) that beat it."""
    rules = RULES[profile]
    sw = switches_of(rules)
    assert set(ddz.legal_moves(hand, rules=rules)) == ref_legal(hand, None, sw)
    leads = ddz.legal_plays(other, rules=rules)
    cards, _ = rnd.choice(leads)
    for reading in ddz.readings(cards, rules=rules):
        target = (reading[0], RANKS.index(reading[1]), reading[2])
        got = ddz.legal_moves(hand, cards, last_reading=reading, rules=rules)
        assert len(got) == len(set(got))
        assert set(got) == ref_legal(hand, target, sw), (hand, cards, reading)


ALL_READINGS = sorted(
    {r for c in ddz.action_space() if c for r in ddz.readings(c)},
    key=lambda r: (r[0], r[2], RANKS.index(r[1])),
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ALL_READINGS), st.sampled_from(ALL_READINGS), st.sampled_from(ALL_READINGS))
def test_beats_is_irreflexive_and_transitive_within_a_type(a: Any, b: Any, c: Any) -> None:
    ra, rb, rc = ((x[0], RANKS.index(x[1]), x[2]) for x in (a, b, c))
    assert not ref_beats(ra, ra)
    assert not (ref_beats(ra, rb) and ref_beats(rb, ra))
    if ra[0] == rb[0] == rc[0] and ref_beats(ra, rb) and ref_beats(rb, rc):
        assert ref_beats(ra, rc)


def test_beats_through_the_api_is_irreflexive() -> None:
    for cards in ddz.action_space()[1::97]:
        assert cards is not None
        for r in ddz.readings(cards):
            assert not ddz.beats(cards, cards, b_reading=r) or len(ddz.readings(cards)) > 1


@settings(max_examples=200, deadline=None)
@given(hands(max_cards=20))
def test_parse_and_classify_round_trip(hand: str) -> None:
    shuffled = "".join(random.Random(hand).sample(hand, len(hand)))
    canon = ddz.parse(shuffled)
    assert canon == hand
    assert ddz.from_counts(ddz.to_counts(hand)) == hand
    assert ddz.readings(shuffled) == ddz.readings(canon)
    r = ddz.classify(canon)
    if r is not None:
        assert r in ddz.readings(canon)
        assert ddz.action_cards(ddz.action_id(canon)) == canon


# ------------------------------------------------------------------------------------------------
# Move space and encodings


def test_move_space_sizes() -> None:
    assert len(ddz.action_space()) == 27_846
    assert ddz.action_space()[0] is None
    assert len(ddz.action_space(encoding="rlcard", rules=RULES["rlcard"])) == 27_472
    assert len(ddz.action_space(rules=RULES["pagat"])) == 12_655
    total = sum(len(ddz.readings(c)) for c in ddz.action_space() if c)
    assert total == 28_237


def test_action_ids_round_trip() -> None:
    for encoding, rules in (("hupai", None), ("rlcard", RULES["rlcard"])):
        space = ddz.action_space(encoding=encoding, rules=rules)
        for i in range(0, len(space), 53):
            cards = space[i]
            assert ddz.action_cards(i, encoding=encoding, rules=rules) == cards
            assert ddz.action_id(cards or "pass", encoding=encoding, rules=rules) == i


def _bot_hand(i: int, seed: int) -> ddz.Game:
    """A hand played to the end by the game's own random bot (its log to inspect)."""
    g = ddz.Game(seed=seed * 100_003 + i, first_bidder=i % 3)
    k = 0
    while (a := g.bot_action("random", seed=k)) is not None:
        g.step(a)
        k += 1
    return g


def test_batch_functions_equal_single_calls() -> None:
    rng = random.Random(3)
    hands_, lasts = [], []
    for i in range(400):
        g = _bot_hand(i, seed=5)
        plays = [e["cards"] for e in g.events() if e["type"] == "play"]
        lasts.append(rng.choice(["", rng.choice(plays)]))
        deck = list("3456789TJQKA2" * 4) + ["x", "X"]
        rng.shuffle(deck)
        hands_.append(ddz.parse("".join(deck[: rng.randint(1, 20)])))
    H = ddz.counts_batch(hands_)
    L = ddz.counts_batch(lasts)
    counts = ddz.batch_legal_count(H, L)
    masks = ddz.batch_legal_mask(H, L)
    space = ddz.action_space()
    for i, (h, last) in enumerate(zip(hands_, lasts)):
        moves = ddz.legal_moves(h, last or None)
        assert counts[i] == len(moves)
        ids = set(np.flatnonzero(masks[i]).tolist())
        want = {ddz.action_id(m) for m in moves} | ({0} if last else set())
        assert ids == want
        assert all(space[j] in moves for j in ids if j != 0)
    rl = RULES["rlcard"]
    L = ddz.counts_batch([x if not x or ddz.classify(x, rules=rl) else "" for x in lasts])
    m2 = ddz.batch_legal_mask(H, L, encoding="rlcard", rules=rl)
    assert m2.shape == (400, 27_472)
    assert (m2.sum(axis=1) == ddz.batch_legal_count(H, L, rules=rl) + (L.sum(axis=1) > 0)).all()


# ------------------------------------------------------------------------------------------------
# The state machine through Python


def test_game_flow_observation_and_replay() -> None:
    g = ddz.Game("doudizhu_contest", seed=11, stake=2)
    assert g.phase == "auction"
    while g.phase == "auction":
        g.step(g.bot_action("greedy"))
    if g.phase == "show":
        landlord = g.landlord
        assert landlord is not None
        g.step("show")
        farmer = (landlord + 1) % 3
        assert g.observation(farmer)["landlord_hand"] == g.hand(landlord)
        assert g.observation(landlord)["landlord_hand"] is None
    obs = g.observation(0)
    assert obs["hand"] == g.hand(0)
    assert "hands" not in obs
    assert sum(obs["cards_left"]) + sum(len(p) for p in obs["played"]) == 54
    while not g.is_over:
        before = g.events()
        with pytest.raises(hupai.InvalidHandError):
            g.step({"type": "bid", "bid": 3})
        assert g.events() == before
        g.step(g.bot_action("random", seed=len(before)))
    res = g.result()
    assert res is not None and sum(res["scores"]) + res["house"] == 0
    again = ddz.replay(g.events(), rules=g.rules)
    assert again.events() == g.events()
    bad = g.events()
    plays = [i for i, e in enumerate(bad) if e["type"] == "play"]
    bad[plays[0]] = {**bad[plays[0]], "cards": "3"}
    with pytest.raises(hupai.InvalidHandError, match=r"event \d+"):
        ddz.replay(bad, rules=g.rules)


def test_worked_example_e3_spring_through_python() -> None:
    # find a seed where the landlord is seat 0 after bidding 2, then play with the bots: the
    # settlement must equal ddz.settle on the recorded counts (one source of truth)
    for seed in range(50):
        g = ddz.Game(seed=seed)
        while not g.is_over:
            g.step(g.bot_action("greedy"))
        res = g.result()
        assert res is not None
        if res["result"] not in ("landlord_won", "farmers_won"):
            continue
        evs = g.events()
        landlord = g.landlord
        assert landlord is not None
        plays = [0, 0, 0]
        bombs = rockets = 0
        deal_start = max(i for i, e in enumerate(evs) if e["type"] == "deal")
        for e in evs[deal_start:]:
            if e["type"] == "play":
                plays[e["seat"]] += 1
                bombs += e["reading"][0] == "bomb"
                rockets += e["reading"][0] == "rocket"
        rec = {
            "bid": g.bid,
            "landlord_won": res["result"] == "landlord_won",
            "bombs": bombs,
            "rockets": rockets,
            "landlord_hands": plays[landlord],
            "farmer_hands": [plays[(landlord + 1) % 3], plays[(landlord + 2) % 3]],
        }
        s = ddz.settle(rec)
        assert s["multiplier"] == res["multiplier"]
        assert s["scores"]["landlord"] == res["scores"][landlord]
        assert s["scores"]["farmer_down"] == res["scores"][(landlord + 1) % 3]


def test_simulate_is_deterministic() -> None:
    a = ddz.simulate(300, seed=9, threads=2)
    b = ddz.simulate(300, seed=9, threads=1)
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    g = _bot_hand(7, seed=9)
    assert ddz.replay(g.events()).events() == g.events()


# ------------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    "text, hint",
    [("10", "write 10 as T"), ("3j", "upper case"), ("BR", "x and the big joker as X"), ("3 4", "no separators"), ("33333", "more than 4"), ("xx", "more than 1")],
)
def test_bad_cards_are_invalid_tile_errors(text: str, hint: str) -> None:
    with pytest.raises(hupai.InvalidTileError, match=hint):
        ddz.parse(text)
    with pytest.raises(hupai.InvalidTileError):
        ddz.legal_moves(text)


def test_errors_are_typed_and_say_what_is_wrong() -> None:
    with pytest.raises(hupai.InvalidHandError, match="at most 20"):
        ddz.legal_moves("3333444455556666777788")
    with pytest.raises(hupai.InvalidHandError, match="not a move"):
        ddz.legal_moves("345", "34")
    with pytest.raises(hupai.InvalidHandError, match="cannot be read as"):
        ddz.legal_moves("345", "444555666777", last_reading=("plane_single", "5", 3))
    with pytest.raises(hupai.InvalidHandError, match="unknown card type"):
        ddz.beats("3", "4", b_reading=("solo", "4", 1))
    with pytest.raises(hupai.InvalidHandError, match="reading is"):
        ddz.beats("3", "4", b_reading=("single", "4"))  # type: ignore[arg-type]
    with pytest.raises(hupai.RuleConfigError, match="no switch"):
        ddz.Rules(nope=True)
    with pytest.raises(hupai.RuleConfigError, match="allowed"):
        ddz.Rules(single_kickers="some")
    with pytest.raises(hupai.RuleConfigError, match="profile"):
        ddz.Rules(profile="tencent")
    with pytest.raises(hupai.RuleConfigError, match="unknown 斗地主 variant"):
        ddz.Rules("doudizhu_xx")
    with pytest.raises(hupai.RuleConfigError, match="power of 2"):
        ddz.Rules(multiplier_cap=3)
    with pytest.raises(TypeError):
        ddz.legal_moves(33)  # type: ignore[arg-type]
    with pytest.raises(hupai.RuleConfigError, match="rlcard profile"):
        ddz.action_id("3", encoding="rlcard")
    with pytest.raises(hupai.RuleConfigError, match="encoding"):
        ddz.action_id("3", encoding="douzero")
    with pytest.raises(hupai.InvalidHandError, match="not a move"):
        ddz.action_id("34")
    with pytest.raises(hupai.InvalidHandError, match="action_id"):
        ddz.action_cards(10**9)
    with pytest.raises(hupai.InvalidHandError, match="unknown record key"):
        ddz.settle(bid=1, landlord_won=True, bonus=2)
    with pytest.raises(hupai.InvalidHandError, match="bid"):
        ddz.settle(landlord_won=True)
    with pytest.raises(hupai.InvalidHandError, match="unknown auction action"):
        ddz.auction(["4x"])
    with pytest.raises(hupai.InvalidHandError, match=r"\(N, 15\)"):
        ddz.batch_legal_count(np.zeros((3, 14), np.uint8))
    with pytest.raises(hupai.InvalidHandError, match="uint8"):
        ddz.batch_legal_count(np.zeros((3, 15), np.int64))  # type: ignore[arg-type]
    with pytest.raises(hupai.InvalidHandError, match="row 1"):
        ddz.batch_legal_count(np.array([[1] + [0] * 14, [5] + [0] * 14], np.uint8))
    with pytest.raises(hupai.InvalidHandError, match="lasts row 0"):
        ddz.batch_legal_count(np.zeros((1, 15), np.uint8), np.array([[1, 1] + [0] * 13], np.uint8))


def test_game_errors_leave_the_state_unchanged() -> None:
    g = ddz.Game(seed=3)
    before = g.events()
    for bad in (
        {"type": "play", "cards": "3"},
        {"type": "bid", "bid": 4},
        {"type": "bid"},
        {"type": "dance"},
        {"type": "pass", "extra": 1},
        "33 44",
    ):
        with pytest.raises(hupai.InvalidHandError):
            g.step(bad)
        assert g.events() == before
    with pytest.raises(TypeError):
        g.step({"type": "play", "cards": object()})  # type: ignore[dict-item]
    g.step("3")
    assert g.phase == "play"
    with pytest.raises(hupai.InvalidHandError, match="may not pass"):
        g.step("pass")
    with pytest.raises(hupai.InvalidHandError, match="does not hold"):
        g.step("2222xX" if "2222" not in g.hand(g.to_act or 0) else "3333")
    with pytest.raises(hupai.InvalidHandError, match="seat"):
        g.hand(3)
    with pytest.raises(hupai.InvalidHandError, match="seed"):
        ddz.Game(seed=-1)
    with pytest.raises(hupai.RuleConfigError, match="unknown bot"):
        g.bot_action("smart")
    with pytest.raises(hupai.RuleConfigError, match="bots"):
        ddz.simulate(1, bots=["random"])
    deep: Any = "3"
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(hupai.InvalidHandError, match="nested"):
        g.step({"type": "play", "cards": deep})
    with pytest.raises(hupai.InvalidHandError, match="nested"):
        ddz.replay(deep)
    g.escape(1)
    with pytest.raises(hupai.InvalidHandError, match="over"):
        g.step("pass")
    with pytest.raises(hupai.InvalidHandError, match="no deal"):
        ddz.replay([])


# ------------------------------------------------------------------------------------------------
# CLI


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hupai", "doudizhu", *args], input=stdin, capture_output=True, text=True, timeout=120)


def test_cli(tmp_path: Path) -> None:
    r = run_cli("classify", "444555666777", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["reading"] == ["trio_chain", "7", 4]
    r = run_cli("legal", "5556667778", "--last", "33344456")
    assert r.returncode == 0 and "4 plays + pass" in r.stdout
    r = run_cli("simulate", "-n", "200", "--check", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["hands"] == 200
    log = tmp_path / "hand.json"
    r = run_cli("play", "--auto", "--seed", "4", "--log", str(log))
    assert r.returncode == 0 and log.exists()
    r = run_cli("replay", str(log))
    assert r.returncode == 0 and "replay OK" in r.stdout
    r = run_cli("play", "--seed", "1", stdin="3\nhint\nmoves\nquit\n")
    assert r.returncode == 0 and "greedy would" in r.stdout
    r = run_cli("classify", "10")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "write 10 as T" in r.stderr
    r = run_cli("legal", "33", "--set", "nope=1")
    assert r.returncode == 2 and "no switch" in r.stderr


def test_docs_examples_run() -> None:
    """Every ```python block of docs/doudizhu.md runs."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "doudizhu.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert len(blocks) >= 3
    for block in blocks:
        exec(compile(block, "docs/doudizhu.md", "exec"), {})
