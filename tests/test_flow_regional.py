"""Regional presets at the table (hebei, huanle3d, shaanxi, hebei_draft4, shanghai, wuhan; kawuxing
with 3 seats and erren with 2, see also test_flow_nplayer.py): invariants
over 1,000 random hands per preset (tile conservation at every step, only legal actions, zero-sum
ledger, replay reproduces the log), greedy hands with wins scored by the core, claim scenarios."""

from __future__ import annotations

import json
import os

import pytest
from typing import Any

import hupai
from hupai._core import flow_next_hand
from hupai.game import TILE_NAMES, Action, GreedyBot, Match, RandomBot, Table, arrange_wall, replay
from hupai.game.table import players_of
from hupai.game.actions import DISCARD, KONG, PASS, PUNG, WIN

PRESETS = ["hebei", "huanle3d", "shaanxi", "hebei_draft4", "shanghai", "wuhan", "kawuxing", "erren"]
HANDS = int(os.environ.get("HUPAI_FLOW_REGIONAL_HANDS", "1000"))


def T(name: str) -> str:
    return name


def _play_checked(t: Table, bots: list) -> None:
    while not t.done:
        s = t.to_act
        legal = t.legal_actions(s)
        a = bots[s](t.observation(s), legal)
        assert a in legal
        t.step(a)
        assert t.tile_count() == t.n_tiles


def _check_result(t: Table) -> None:
    r = t.result
    assert r is not None and sum(r["balances"]) == 0
    for e in r["ledger"]["events"]:
        assert sum(e["deltas"].values()) == 0
    if t.vid not in ("huanle3d", "shanghai", "kawuxing"):  # 一炮多响 may have several winners
        assert len(t.wins) <= 1
    names = ("E", "S", "W", "N")
    won = {names[w["seat"]] for w in t.wins}
    gains = {n for e in r["ledger"]["events"] if e["kind"] == "WIN" for n, d in e["deltas"].items() if d > 0}
    assert won == gains  # every winner is paid for the win, nobody else is


@pytest.mark.parametrize("vid", PRESETS)
def test_random_play_invariants(vid: str) -> None:
    v = hupai.Variant.load(vid)
    n = players_of(v)
    for i in range(HANDS):
        t = Table(v, seed=i, dealer=i % n)
        _play_checked(t, [RandomBot(1000 * i + k) for k in range(n)])
        _check_result(t)
        if i % 10 == 0:
            assert replay(json.loads(json.dumps(t.log))).result == t.result


@pytest.mark.parametrize("vid", PRESETS)
def test_greedy_play_wins_scored_by_the_core(vid: str) -> None:
    wins = 0
    n = players_of(hupai.Variant.load(vid))
    for i in range(60):
        t = Table(vid, seed=i, dealer=i % n)
        _play_checked(t, [GreedyBot(10 * i + k) for k in range(n)])
        _check_result(t)
        wins += len(t.wins)
        for w in t.wins:
            assert w["fans"] and w["value"] > 0
            if vid == "huanle3d":
                assert w["win_type"] in ("self_draw", "kong_replacement", "after_kong_discard")
            if vid == "hebei_draft4" and w["from"] is not None:
                # 吃碰后只能自摸: a discard win needs a 门清 hand (concealed kongs only).
                assert all(m[0] == "kong" and m[3] == "concealed" for m in t.melds[w["seat"]])
        assert replay(json.loads(json.dumps(t.log))).result == t.result
    assert wins >= (3 if vid == "shanghai" else 30)  # 上海 清混碰 needs a P pattern


def test_wall_sizes_and_reserve() -> None:
    assert Table("huanle3d", seed=1).n_tiles == 108
    assert Table("shanghai", seed=1).n_tiles == 144  # 8 flowers, replaced from the tail
    for vid in ("hebei", "shaanxi", "hebei_draft4"):
        assert Table(vid, seed=1).n_tiles == 136
    t = Table("shaanxi", seed=3)
    _play_checked(t, [RandomBot(k) for k in range(4)])
    if not t.wins:  # 荒庄 with 2 × S(kongs) tiles left undrawn
        assert t.wall_remaining >= 2 * 7
    assert Table("wuhan", seed=1).n_tiles == 136
    assert Table("zipai_hunan", seed=1).n_tiles == 80  # 字牌 plays on the same engine
    with pytest.raises(hupai.RuleConfigError):
        Table(hupai.Variant("sichuan", players=3), seed=1)


@pytest.mark.parametrize(
    ("vid", "switches", "size", "kinds"),
    [
        ("huanle3d", {"tile_set": "full136"}, 136, set(range(34))),
        ("huanle3d", {"tile_set": "suits3_red"}, 112, set(range(27)) | {31}),
        ("shaanxi", {"tile_set": "suits3"}, 108, set(range(27))),
        ("kawuxing", {"suits": "mp"}, 84, set(range(18)) | {31, 32, 33}),
    ],
)
def test_the_wall_follows_the_tile_set_switches(vid: str, switches: dict, size: int, kinds: set[int]) -> None:
    # The wall is built from the core's tile set of the variant (switches applied), not the preset id.
    v = hupai.Variant(vid, **switches)
    assert len(v.tile_set()) == size and set(v.tile_set()) == kinds
    n = players_of(v)
    for i in range(30):
        t = Table(v, seed=i, dealer=i % n)
        assert t.n_tiles == size and set(t.wall) <= {TILE_NAMES[k] for k in kinds}
        _play_checked(t, [RandomBot(7 * i + k) for k in range(n)])
        _check_result(t)


@pytest.mark.parametrize(
    ("vid", "switches"),
    [
        ("hebei", {"wildcard": "dai_hun"}),
        ("hebei", {"wildcard": "hongzhong"}),
        ("shanghai", {"mode": "qiao_ma"}),
        ("shanghai", {"baida": "indicator_next"}),
        ("shanghai", {"dragons_as_flowers": True}),
        ("erren", {"fan_profile": "billee1011_option_4"}),
    ],
)
def test_scoring_only_switches_are_refused_at_the_table(vid: str, switches: dict) -> None:
    # These score through hupai.score but the table would deal or judge the hand without them.
    name = next(iter(switches))
    with pytest.raises(hupai.RuleConfigError, match=name):
        Table(hupai.Variant(vid, **switches), seed=1)
    assert Table(hupai.Variant(vid), seed=1).n_tiles > 0


@pytest.mark.parametrize("variant", ["kawuxing", "erren", "wuhan", {"id": "kawuxing", "players": 4}])
def test_match_rotates_the_dealer_by_the_core(variant: Any) -> None:
    # Several hands in a row: the next dealer is the core's flow_next_hand for the preset's
    # seat count; running scores stay zero-sum.
    v = hupai.Variant(variant["id"], players=variant["players"]) if isinstance(variant, dict) else hupai.Variant(variant)
    n = players_of(v)
    m = Match(v, seed=5, agents=[GreedyBot(k) for k in range(n)])
    dealers = []
    for _ in range(12):
        dealers.append(m.dealer)
        res = m.play_hand()
        assert len(res["balances"]) == n
        winners = list(dict.fromkeys(w["seat"] for w in res["wins"]))
        discarder = res["discarder"] if len(winners) > 1 else None
        assert m.dealer == flow_next_hand(v, dealers[-1], winners, discarder, players=n)[0]
    assert sum(m.scores) == 0 and len(m.scores) == n
    assert len(set(dealers)) > 1


# Seat 1 waits on 7s (七对), seat 2 can win on 7s as well; the dealer discards 7s first.
SEAT0 = "7s 2s 2s 8s 8s 9s 9s 5m 5m 6m 7m 8m 9m 4p"
SEAT1 = "1m1m2m2m3m3m4s4s5s5s6s6s7s"
SEAT2_WIN = "1p1p2p2p3p3p4p4p5p5p6p6p7s"
SEAT2_PUNG = "7s7s1p3p5p7p9p2m4m6m8m1s3s"
SEAT3 = "2m4m6m8m9s9m9m1s3s7p8p8p9p"


def test_hebei_jiehu_nearest_winner_and_ledger() -> None:
    t = Table("hebei", seed=1, wall=arrange_wall("hebei", [SEAT0, SEAT1, SEAT2_WIN, SEAT3]))
    t.step(Action(DISCARD, 0, T("7s")))
    assert t.phase == "claim" and t.to_act == 1
    t.step(Action(WIN, 1, T("7s")))
    t.step(Action(WIN, 2, T("7s")))
    assert [w["seat"] for w in t.wins] == [1]  # 截胡: the nearest winner only
    assert t.done and sum(t.result["balances"]) == 0
    assert t.result["balances"][1] > 0 and t.result["balances"][0] < 0
    assert t.wins[0]["fans"][0][0] == "QI_DUI"


def test_hebei_pass_lock_and_pung() -> None:
    t = Table("hebei", seed=1, wall=arrange_wall("hebei", [SEAT0, SEAT1, SEAT2_PUNG, SEAT3]))
    t.step(Action(DISCARD, 0, T("7s")))
    t.step(Action(PASS, 1, T("7s")))
    assert t.win_locked[1]  # 过水不胡 until the own draw
    assert {a.kind for a in t.legal_actions(2)} >= {PUNG, PASS}
    t.step(Action(PUNG, 2, T("7s")))
    assert t.melds[2] == [("pung", T("7s"), 2, None)]


def test_huanle3d_no_plain_discard_win() -> None:
    t = Table("huanle3d", seed=1, wall=arrange_wall("huanle3d", [SEAT0, SEAT1, SEAT2_PUNG, "1p2p2p4p4p6p6p8p8p9s9m9m1s"]))
    t.step(Action(DISCARD, 0, T("7s")))
    # Seat 1 is ready on 7s but 欢乐3D wins on a discard only after the discarder's kong (杠上炮).
    assert t.to_act == 2 and WIN not in {a.kind for a in t.legal_actions(2)}
    assert {PUNG, KONG} & {a.kind for a in t.legal_actions(2)}


def test_hebei_draft4_discard_win_needs_men_qing() -> None:
    t = Table("hebei_draft4", seed=1, wall=arrange_wall("hebei_draft4", [SEAT0, SEAT1, SEAT2_WIN, SEAT3]))
    t.step(Action(DISCARD, 0, T("7s")))
    assert t.to_act == 1 and WIN in {a.kind for a in t.legal_actions(1)}  # 门清 七对 on a discard
