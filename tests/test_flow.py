"""Game flow: claim resolution rules, invariants over simulated hands, replay, simulation.

The table is the core's (``hupai._core.Table``); actions and events name tiles. Changed from the
Python table: ``Action(kind, seat, tile)`` takes the tile's name (integer ids are refused), the
ledger so far is ``Table.balances`` / ``Table.ledger``, and 四川's 过水 follows its switch
``pass_win_lock`` (default ``none``, read by the core only) instead of always locking.
"""

from __future__ import annotations

import json
import os

import pytest

import hupai
from hupai._core import flow_claims
from hupai.game import (
    TILE_NAMES,
    Action,
    GreedyBot,
    IllegalActionError,
    RandomBot,
    ReplayError,
    Table,
    arrange_wall,
    read_jsonl,
    replay,
    simulate,
    write_jsonl,
)
from hupai.game.actions import ADDED_KONG, DISCARD, PASS, PUNG, WIN


def T(name: str) -> str:
    return name


def I(name: str) -> int:
    """The index of a tile in the 34-count vectors of ``Table.hands``."""
    return hupai.Tile(name).index


# Seat 1 waits on 7s (七对), seat 2 can pung 7s, seat 0 (dealer) discards 7s first.
SEAT0 = "7s 2s 2s 8s 8s 9s 9s 5m 5m 6m 7m 8m 9m 4p"
SEAT1 = "1m1m2m2m3m3m4s4s5s5s6s6s7s"
SEAT2_PUNG = "7s7s1p3p5p7p9p2m4m6m8m1s3s"
SEAT2_WIN = "1p1p2p2p3p3p4p4p5p5p6p6p7s"
SEAT2_WAIT_9S = "1p1p2p2p3p3p4p4p5p5p6p6p9s"
SEAT3 = "1p2p2p4p4p6p6p8p8p9s9m9m1s"
SEAT3_B = "2m4m6m8m9s9m9m1s3s7p8p8p9p"
SEAT3_C = "2m4m6m8m7m9m9m1s3s7p8p8p9p"


def table(variant: str | hupai.Variant, hands: list[str], draws: str = "") -> Table:
    vid = variant if isinstance(variant, str) else variant.id
    return Table(variant, seed=1, wall=arrange_wall(vid, hands, draws))


def legal_kinds(t: Table, seat: int) -> set[str]:
    return {a.kind for a in t.legal_actions(seat)}


def test_win_beats_pung() -> None:
    t = table("sichuan", [SEAT0, SEAT1, SEAT2_PUNG, SEAT3])
    t.step(Action(DISCARD, 0, T("7s")))
    assert t.phase == "claim" and t.to_act == 1
    assert {WIN, PASS} <= legal_kinds(t, 1)
    t.step(Action(WIN, 1, T("7s")))
    assert t.to_act == 2 and PUNG in legal_kinds(t, 2)
    t.step(Action(PUNG, 2, T("7s")))
    assert [w["seat"] for w in t.wins] == [1]
    assert t.melds[2] == []
    assert t.tile_count() == 108


def test_pung_after_pass_and_pass_win_lock() -> None:
    v = hupai.Variant("sichuan", pass_win_lock="all_discards_until_own_draw")
    t = table(v, [SEAT0, SEAT1, SEAT2_PUNG, SEAT3])
    t.step(Action(DISCARD, 0, T("7s")))
    t.step(Action(PASS, 1, T("7s")))
    assert t.win_locked[1]  # 过水不胡 until seat 1 draws again
    t.step(Action(PUNG, 2, T("7s")))
    assert t.melds[2] == [("pung", "7s", 2, None)]
    assert t.phase == "turn" and t.to_act == 2 and t.wins == []


# Seat 1 waits on 7s (七对); seat 2 discards a 7s (seat 1 passes the win), then seat 3 discards
# the next 7s before seat 1 draws again.
LOCK_HANDS = [
    "3p 2s 2s 8s 8s 9s 9s 5m 5m 6m 7m 8m 9m 4p",
    SEAT1,
    "1p5p7p9p7s2m4m6m8m1s3s5s9s",
    "7s2p4p6p8p1m3m5m7m9m2s4s6s",
]


def _passed_then_offered(variant: hupai.Variant) -> Table:
    t = table(variant, LOCK_HANDS, draws="8p 9p 3p")
    t.step(Action(DISCARD, 0, "3p"))
    t.step(Action(DISCARD, 1, "8p"))
    t.step(Action(DISCARD, 2, "7s"))
    assert t.phase == "claim" and t.to_act == 1 and Action(WIN, 1, "7s") in t.legal_actions(1)
    t.step(Action(PASS, 1, "7s"))
    t.step(Action(DISCARD, 3, "7s"))  # the next discard, before seat 1 draws again
    return t


def test_pass_win_lock_none_lets_a_passed_win_be_taken_on_the_next_discard() -> None:
    # 四川's default switch pass_win_lock = "none": read by the core's flow.pass_lock only.
    t = _passed_then_offered(hupai.Variant("sichuan"))
    assert not t.win_locked[1]
    assert t.phase == "claim" and t.to_act == 1 and Action(WIN, 1, "7s") in t.legal_actions(1)
    t.step(Action(WIN, 1, "7s"))
    assert [w["seat"] for w in t.wins] == [1] and t.wins[0]["from"] == 3
    # The lock switched on: the same next discard is no win for seat 1 (nobody else responds).
    t = _passed_then_offered(hupai.Variant("sichuan", pass_win_lock="all_discards_until_own_draw"))
    assert t.win_locked == [False, True, False, False] or t.to_act == 0
    assert not any(a.kind == WIN for a in t.legal_actions(1))
    assert t.phase == "turn" and t.to_act == 0


def test_core_applies_the_win_lock() -> None:
    v = hupai.Variant.load("sichuan")
    counts = [hupai.to_counts(h) for h in (SEAT0.replace("7s ", "", 1), SEAT1, SEAT2_PUNG, SEAT3)]
    seats = [[c, [], True, None, False, False, 0, 27 + k, k == 0] for k, c in enumerate(counts)]
    free = flow_claims(v, [tuple(s) for s in seats], 0, I("7s"), "discard", 27, False, False)
    assert free[1] is not None and free[1][0] is not None
    seats[1][4] = True
    locked = flow_claims(v, [tuple(s) for s in seats], 0, I("7s"), "discard", 27, False, False)
    assert locked[1] is None or locked[1][0] is None


def test_multi_ron_sichuan() -> None:
    t = table("sichuan", [SEAT0, SEAT1, SEAT2_WIN, SEAT3_B])
    t.step(Action(DISCARD, 0, T("7s")))
    t.step(Action(WIN, 1, T("7s")))
    t.step(Action(WIN, 2, T("7s")))
    assert sorted(w["seat"] for w in t.wins) == [1, 2]  # 一炮多响
    assert t.active == [True, False, False, True]
    bal = t.balances
    assert bal[0] < 0 and bal[1] > 0 and bal[2] > 0 and sum(bal) == 0
    assert t.tile_count() == 108


def test_nearest_winner_mcr() -> None:
    t = table("mcr", [SEAT0, SEAT1, SEAT2_WIN, SEAT3_B])
    t.step(Action(DISCARD, 0, T("7s")))
    t.step(Action(WIN, 1, T("7s")))
    t.step(Action(WIN, 2, T("7s")))
    assert [w["seat"] for w in t.wins] == [1]  # 截胡: the nearest seat only
    assert t.done and sum(t.result["balances"]) == 0
    assert t.result["balances"][1] > 0 and t.result["balances"][0] < 0
    assert t.tile_count() == 144


def test_mcr_eight_fan_minimum() -> None:
    # Seat 1's 5s completes 123m 456m 789p 234s 55s: a few fan, below the 8-fan minimum.
    seat0 = "5s E E S S W W N N C C F F P"
    seat1 = "1m2m3m4m5m6m7p8p9p2s3s4s5s"
    t = table("mcr", [seat0, seat1, "1p1p1p2p2p2p3p3p3p4p4p4p6m", "7m7m7m8m8m8m9m9m9m1s1s1s6s"])
    t.step(Action(DISCARD, 0, T("5s")))
    assert WIN not in legal_kinds(t, 1)


def test_rob_kong() -> None:
    # Seat 0 pungs seat 3's 8s (seat 1, waiting on 5s/8s, passes the win), later draws the fourth
    # 8s and adds it: seat 1 robs the kong.
    seat0 = "8s8s2p3p5p6p9p1p7p4m5m9m1m2m"
    seat1 = "1m1m2m2m3m3m4s5s6s6s7s9s9s"
    seat2 = "3m4m6m7m1p2p4p5p7p8p9p3s4s"
    seat3 = "8s5m6m7m8m9m5s7s1s2s3s6p3p"
    t = table("sichuan", [seat0, seat1, seat2, seat3], draws="9p 8p 4p 1s 2s 3s 8s")
    for seat, tile in ((0, "9m"), (1, "9p"), (2, "8p"), (3, "8s")):
        t.step(Action(DISCARD, seat, tile))
    assert t.phase == "claim" and t.to_act == 0 and Action(PUNG, 0, "8s") in t.legal_actions(0)
    t.step(Action(PUNG, 0, "8s"))
    t.step(Action(PASS, 1, "8s"))
    assert t.melds[0] == [("pung", "8s", 1, None)] and t.to_act == 0
    for seat, tile in ((0, "4m"), (1, "1s"), (2, "2s"), (3, "3s")):
        t.step(Action(DISCARD, seat, tile))
    assert t.to_act == 0 and t.drawn == "8s"
    assert Action(ADDED_KONG, 0, T("8s")) in t.legal_actions(0)
    t.step(Action(ADDED_KONG, 0, T("8s")))
    assert t.phase == "rob" and t.to_act == 1
    assert legal_kinds(t, 1) == {WIN, PASS}
    assert t.tile_count() == 108
    t.step(Action(WIN, 1, T("8s")))
    assert t.wins[0]["win_type"] == "rob_kong" and t.wins[0]["from"] == 0
    assert t.melds[0] == [("pung", "8s", 1, None)]  # the kong was robbed
    assert t.tile_count() == 108


def test_xuezhan_leaver_does_not_pay_later_winners() -> None:
    t = table("sichuan", [SEAT0, SEAT1, SEAT2_WAIT_9S, SEAT3_C], draws="9s")
    t.step(Action(DISCARD, 0, T("7s")))
    t.step(Action(WIN, 1, T("7s")))
    after_first = list(t.balances)
    assert not t.active[1]
    assert t.to_act == 2 and WIN in legal_kinds(t, 2)  # seat 2 drew 9s
    t.step(Action(WIN, 2, T("9s")))
    bal = t.balances
    assert bal[1] == after_first[1]  # seat 1 left: pays nothing for seat 2's win
    assert bal[2] > 0 and bal[0] < after_first[0] and bal[3] < 0
    assert sum(bal) == 0
    assert not t.done  # 血战 goes on with two players


def test_illegal_action_changes_nothing() -> None:
    t = Table("sichuan", seed=3)
    n = len(t.log)
    with pytest.raises(IllegalActionError):
        t.step(Action(DISCARD, (t.to_act + 1) % 4, "1m"))
    bogus = Action(DISCARD, t.to_act, next(TILE_NAMES[k] for k in range(27) if t.hands[t.to_act][k] == 0))
    with pytest.raises(hupai.HupaiError):  # IllegalActionError is a HupaiError (a ValueError)
        t.step(bogus)
    with pytest.raises(IllegalActionError):
        t.step("discard 1m")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        t.step(Action(DISCARD, t.to_act, "x5"))  # a 字牌 card at a mahjong table
    assert len(t.log) == n and t.tile_count() == 108
    with pytest.raises(IllegalActionError):
        Action.from_json({"kind": "fly", "seat": 0})
    with pytest.raises(TypeError):
        Action(DISCARD, 0, 5)  # type: ignore[arg-type]  # tiles are named, not integer ids
    with pytest.raises(hupai.InvalidTileError):
        Action(DISCARD, 0, "10m")
    a = Action(DISCARD, 0, hupai.Tile("5m"))
    assert a == Action(DISCARD, 0, "5m") and a.tile == "5m" and repr(a) == "Action('discard', 0, '5m')"
    assert str(a) == "seat 0 discard 5m" and Action.from_json(a.to_json()) == a


def test_pre_play_phases_sichuan() -> None:
    v = hupai.Variant("sichuan", ding_que=True, huan_san_zhang=True)
    t = Table(v, seed=5)
    assert t.phase == "huan_san_zhang"
    bots = [GreedyBot(k) for k in range(4)]
    t.run(bots)
    assert all(x is not None for x in t.void)
    assert t.tile_count() == 108 and sum(t.result["balances"]) == 0
    # Every declared void suit is respected by the winners.
    for w in t.wins:
        assert not any(t.hands[w["seat"]][9 * t.void[w["seat"]] + r] for r in range(9))
    assert [e["type"] for e in t.log].count("exchange_done") == 1


def _play_checked(t: Table, bots: list) -> None:
    while not t.done:
        s = t.to_act
        legal = t.legal_actions(s)
        if t.vid == "sichuan" and t.live_remaining < 4 and any(x.kind == WIN for x in legal):
            assert [x.kind for x in legal] == [WIN]  # 最后四张: forced win
        a = bots[s](t.observation(s), legal)
        assert a in legal
        t.step(a)
        assert t.wall_remaining >= 0
        assert t.tile_count() == t.n_tiles


# CI default; the full invariant run is HUPAI_FLOW_HANDS=10000 (10,000 hands per preset).
HANDS = int(os.environ.get("HUPAI_FLOW_HANDS", "600"))


@pytest.mark.parametrize(
    "variant",
    ["sichuan", "mcr", "sichuan:xueliu", "sichuan:single", "sichuan:dq"],
)
def test_invariants_random_play(variant: str) -> None:
    vid, _, mode = variant.partition(":")
    v = hupai.Variant.load(vid)
    if mode in ("xueliu", "single"):
        v = v.with_options(mode=mode)
    if mode == "dq":
        v = v.with_options(ding_que=True, huan_san_zhang=True)
    n = HANDS if not mode else max(HANDS // 4, 50)
    for i in range(n):
        t = Table(v, seed=i, dealer=i % 4)
        _play_checked(t, [RandomBot(1000 * i + k) for k in range(4)])
        assert sum(t.result["balances"]) == 0
        if vid == "mcr":
            assert all(w["value"] >= 8 for w in t.wins)
        r = replay(json.loads(json.dumps(t.log)))
        assert r.result == t.result


def test_greedy_play_and_determinism() -> None:
    for vid in ("sichuan", "mcr"):
        logs = []
        for _ in range(2):
            t = Table(vid, seed=11)
            bots = [GreedyBot(k) for k in range(2)] + [hupai.DefensiveBot(k) for k in range(2)]
            _play_checked(t, bots)
            logs.append(t.log)
        assert logs[0] == logs[1]


def test_replay_jsonl_and_tamper(tmp_path) -> None:
    t = Table("sichuan", seed=7)
    t.run([RandomBot(k) for k in range(4)])
    p = tmp_path / "g.jsonl"
    write_jsonl(t.log, p)
    assert replay(p).result == t.result
    bad = read_jsonl(p)
    i = next(i for i, r in enumerate(bad) if r["type"] == "win" or r["type"] == "end")
    bad[i] = {**bad[i], "tampered": True}
    with pytest.raises(ReplayError):
        replay(bad)
    with pytest.raises(ReplayError):
        replay(bad[1:])


def test_simulate_workers_identical(tmp_path) -> None:
    a = simulate("sichuan", 24, agents="random", seed=9, workers=1)
    b = simulate("sichuan", 24, agents="random", seed=9, workers=2, out=tmp_path / "r.jsonl")
    assert a.records == b.records and a.win_rate == b.win_rate
    assert len(read_jsonl(tmp_path / "r.jsonl")) == 24
    assert abs(sum(a.avg_score)) < 1e-9
    c = simulate("mcr", 8, agents=["greedy", "random", "defensive", "random"], seed=2)
    assert c.n_games == 8 and "seat" in c.summary()


def test_simulate_parquet(tmp_path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    simulate("mcr", 6, seed=1, out=tmp_path / "r.parquet")
    assert pq.read_table(tmp_path / "r.parquet").num_rows == 6


@pytest.mark.ray
def test_ray_backend_matches_local() -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        a = simulate("sichuan", 16, seed=4, workers=2, backend="ray")
    finally:
        ray.shutdown()
    b = simulate("sichuan", 16, seed=4)
    assert a.records == b.records


def test_bad_inputs() -> None:
    with pytest.raises(hupai.RuleConfigError):
        simulate("sichuan", 1, agents="nobody")
    with pytest.raises(hupai.InvalidHandError):
        flow_claims(hupai.Variant.load("sichuan"), [([0] * 34, [], True, None, False, False, 0, 27, False)] * 4, 0, 99, "discard", 27, False, False)


def test_hostile_table_inputs() -> None:
    with pytest.raises(hupai.RuleConfigError):
        Table("sichuan", seed="x")  # type: ignore[arg-type]
    with pytest.raises(hupai.RuleConfigError):
        Table("sichuan", wall=["1m"] * 108)
    with pytest.raises(TypeError):
        Table("sichuan", wall=[0] * 108)
    with pytest.raises(hupai.RuleConfigError):
        Table(hupai.Variant("sichuan", players=3))
    with pytest.raises(hupai.RuleConfigError):
        arrange_wall("sichuan", ["1m" * 14, "", "", ""])
    with pytest.raises(ReplayError):
        replay([{"type": "action", "kind": "discard", "seat": 0, "tile": 0}])


def test_observation_hides_other_hands_and_match() -> None:
    t = Table("mcr", seed=3)
    o = t.observation(1).to_json()
    assert o["seat"] == 1 and len(o["hand"]) == 13
    assert "wall" not in o and "hands" not in o
    m = hupai.Match("mcr", seed=5, agents=[GreedyBot(k) for k in range(4)])
    scores = m.play(4)
    assert len(m.hands) == 4 and sum(scores) == 0
    assert all(h["wind"] in range(4) and h["dealer"] in range(4) for h in m.hands)


def test_heavenly_win_is_scored() -> None:
    dealer = "1m1m1m2m3m4m5m6m7m8m9m9m9m9m"
    t = table("sichuan", [dealer, SEAT2_WIN, "7s7s1p3p5p7p9p2s4s6s8s1s3s", "7p7p8p8p9p9p2s2s4s4s5s5s6s"])
    assert t.legal_actions(0)[0] == Action(WIN, 0, T("9m"))
    events = t.step(Action(WIN, 0, T("9m")))  # the events the step caused
    assert events[0].type == "action" and events[0].action == Action(WIN, 0, "9m")
    assert [e.type for e in events] == ["action", "win", "draw"]  # 血战: seat 1 draws next
    assert events[1].tile == "9m" and events[1]["win_type"] == "self_draw" and repr(events[2]) == "Event(draw, seat 1)"
    assert any(f == "TIAN_HU" for f, _ in t.wins[0]["fans"])


def test_cli_simulate_play_replay(tmp_path, capsys) -> None:
    from hupai.cli import main

    assert main(["simulate", "--variant", "sichuan", "-n", "6", "--agents", "greedy", "--quiet"]) == 0
    assert "win rate" in capsys.readouterr().out
    log = tmp_path / "g.jsonl"
    assert main(["play", "--variant", "mcr", "--seed", "1", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "discard" in out and "end:" in out
    assert main(["replay", str(log)]) == 0
    assert "replay: identical" in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
