"""Per-preset flow details at the table (issue 6): 河北 报听 / 托管, 陕西 下炮子 / 漏胡 / 逃跑,
第4稿 上楼 / 跟庄 / 过水, 上海 八花齐 / 风一色 / 开宝·黄番 / dealer after several winners, 欢乐3D
抢杠胡 switch, dealer rotation and carry-over between hands (``Match``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import hupai
from hupai._core import flow_next_hand
from hupai.game import Action, GreedyBot, IllegalActionError, Match, RandomBot, Table, arrange_wall, replay
from hupai.game.actions import (
    ADDED_KONG,
    DECLARE_PAO_ZI,
    DECLARE_TING,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    WIN,
)
from hupai.errors import RuleConfigError


def T(name: str) -> str:
    return name


def kinds(t: Table, seat: int | None = None) -> set[tuple[str, int]]:
    return {(a.kind, a.tile) for a in t.legal_actions(seat)}


def act(t: Table, kind: str, tile: str | None = None) -> None:
    t.step(Action(kind, t.to_act, tile))


def discard_drawn(t: Table) -> None:
    """The seat to move discards the tile it just drew."""
    assert t.drawn is not None
    t.step(Action(DISCARD, t.to_act, t.drawn))


def res(t: Table) -> dict[str, Any]:
    assert t.result is not None
    return t.result


def declare_pao(t: Table, pao: list[int]) -> None:
    while t.phase == "pao_zi":
        t.step(Action(DECLARE_PAO_ZI, t.to_act, value=pao[t.to_act]))


# Junk hands without pairs of the tiles used below and far from ready.
J1 = "2m5m8m2p5p8p3s6sSWNCE"
J2 = "2m5m8m2p5p8p3s6sSWNCF"
J3 = "3m6m9m3p6p9p4s7sSWNFP"
J3b = J3.replace("9p", "8s")  # without 9p


# ---------------------------------------------------------------- 河北 报听 and 托管
def _hebei_ting_table(variant: hupai.Variant | str = "hebei") -> Table:
    wall = arrange_wall("hebei", ["1m2m3m4p5p6p7s8s9sEEE9p1s", J1, J2, J3], "1p7m7p5m")
    return Table(variant, wall=wall)


def test_hebei_bao_ting_locks_the_hand() -> None:
    t = _hebei_ting_table()
    # 报听 with a discard that leaves the hand ready (9p or 1s), next to the plain discards.
    assert {x for x in kinds(t) if x[0] == DECLARE_TING} == {(DECLARE_TING, T("9p")), (DECLARE_TING, T("1s"))}
    act(t, DECLARE_TING, "1s")
    assert t.observation(2).declared == [True, False, False, False]
    act(t, DISCARD, "E")  # seat 1 (drew 1p) lets go of its E
    # After 听: no 碰, but a kong that keeps the hand ready (1m2m3m 456p 789s 9p waits on 9p).
    assert kinds(t) == {(PASS, T("E")), (KONG, T("E"))}
    act(t, PASS, "E")
    discard_drawn(t)  # seat 2: 7m
    discard_drawn(t)  # seat 3: 7p
    assert t.to_act == 0 and t.drawn == T("5m")
    assert kinds(t) == {(DISCARD, T("5m"))}  # the locked hand discards what it draws
    assert replay(json.loads(json.dumps(t.log))).log == t.log


def test_hebei_bao_ting_without_declaring_keeps_the_pung() -> None:
    t = _hebei_ting_table()
    act(t, DISCARD, "1s")
    act(t, DISCARD, "E")
    assert (PUNG, T("E")) in kinds(t)


def test_hebei_bao_ting_required_switch() -> None:
    # Seat 1 is ready on 9p without 听: with bao_ting=required the 9p discard is no win.
    hands = ["1m2m3m4p5p6p7s8s9s9p1s1sEW", "1m2m3m4p5p6p7s8s9sEEE9p", J2, J3]
    for opt, offered in (("optional", True), ("required", False)):
        v = hupai.Variant("hebei", bao_ting=opt)
        t = Table(v, wall=arrange_wall("hebei", hands, ""))
        act(t, DISCARD, "9p")
        assert (t.phase == "claim" and (WIN, T("9p")) in kinds(t, 1)) is offered


def test_hebei_auto_play_wins_automatically() -> None:
    hands = ["1m2m3m4p5p6p7s8s9sEEE9p9p", J1, J2, J3]
    t = Table("hebei", wall=arrange_wall("hebei", hands, ""))
    assert len(kinds(t)) > 1 and (WIN, T("9p")) in kinds(t)
    t.set_auto_play(0)
    assert kinds(t) == {(WIN, T("9p"))}  # 托管: the system takes the win
    res = t.run([RandomBot(k) for k in range(4)])
    assert res["winners"] == [0]
    assert replay(json.loads(json.dumps(t.log))).result == t.result
    with pytest.raises(IllegalActionError):
        Table("hebei").step(Action("auto_play", 7, value=1))


# ---------------------------------------------------------------- 陕西 下炮子, 漏胡, 逃跑
def test_shaanxi_pao_zi_declarations_feed_the_settlement() -> None:
    hands = ["1m2m3m4p5p6p7s8s9sEEE9p9p", J1, J2, J3]
    t = Table("shaanxi", wall=arrange_wall("shaanxi", hands, ""), carry={"pao_zi": [2, 0, 4, 1]})
    assert t.phase == "pao_zi"
    assert t.legal_actions()[0] == Action(DECLARE_PAO_ZI, 0, value=2)  # default: last hand's choice
    assert {a.value for a in t.legal_actions()} == {0, 1, 2, 3, 4}
    declare_pao(t, [2, 1, 0, 3])
    assert t.observation(1).pao_zi == [2, 1, 0, 3]
    act(t, WIN, "9p")  # the dealer's own first draw still wins after 下炮子
    ev = [e for e in res(t)["ledger"]["events"] if "炮子" in e["reason"]]
    # A = 2 (自摸), 底 3: loser L pays (p(L) + p(W)) × 2 × 3.
    assert [ev[0]["deltas"][n] for n in "ESWN"] == [18 + 12 + 30, -18, -12, -30]
    assert res(t)["carry"]["pao_zi"] == [2, 1, 0, 3]
    with pytest.raises(RuleConfigError):
        Table("shaanxi", carry={"pao_zi": [5, 0, 0, 0]})


def test_shaanxi_pao_zi_switch_off_has_no_phase() -> None:
    t = Table(hupai.Variant("shaanxi", pao_zi="none"), seed=3)
    assert t.phase == "turn" and t.observation(0).pao_zi is None


def _shaanxi_lou_hu(variant: hupai.Variant | str, third: str) -> Table:
    # Seat 1 waits on E / 9p; seat 2 discards 9p (seat 1 declines), seat 3 then discards `third`.
    hands = ["1m4m7m1p4p7p1s4s7sSWNCF", "1m2m3m4p5p6p7s8s9sEE9p9p", J2[:-1] + "P", J3b]
    wall = arrange_wall("shaanxi", hands, "2s9p" + third)
    t = Table(variant, wall=wall)
    declare_pao(t, [0, 0, 0, 0])
    act(t, DISCARD, "F")
    discard_drawn(t)  # seat 1: 2s
    discard_drawn(t)  # seat 2: 9p
    assert (WIN, T("9p")) in kinds(t, 1)
    act(t, PASS, "9p")
    discard_drawn(t)  # seat 3: `third`
    return t


def test_shaanxi_lou_hu_locks_the_declined_tile_only() -> None:
    t = _shaanxi_lou_hu("shaanxi", "E")
    assert t.phase == "claim" and (WIN, T("E")) in kinds(t, 1)  # another wait: still a win
    t = _shaanxi_lou_hu("shaanxi", "9p")
    assert not (t.phase == "claim" and (WIN, T("9p")) in kinds(t, 1))
    assert t.phase == "claim" and (PUNG, T("9p")) in kinds(t, 1)  # 碰 is still offered
    # 漏胡所有 (switch): every wait is locked until the seat draws.
    t = _shaanxi_lou_hu(hupai.Variant("shaanxi", pass_win_lock="all_waits_until_draw"), "E")
    assert not (t.phase == "claim" and (WIN, T("E")) in kinds(t, 1))


def test_shaanxi_escape_penalty() -> None:
    t = Table("shaanxi", seed=5)
    declare_pao(t, [1, 2, 0, 3])
    t.escape(1)
    assert t.done and res(t)["escaped"] == 1 and res(t)["winners"] == []
    # 底 3 × (8 + 3·2 + 1 + 0 + 3) = 54 from seat 1; each other O gets 3·(2 + p(O)) + 8.
    assert res(t)["balances"] == [3 * 3 + 8, -54, 3 * 2 + 8, 3 * 5 + 8]
    assert replay(json.loads(json.dumps(t.log))).result == t.result
    with pytest.raises(IllegalActionError):
        Table("hebei", seed=1).escape(0)
    with pytest.raises(IllegalActionError):
        t.escape(2)  # the hand is over


# ---------------------------------------------------------------- 河北第4稿 上楼, 跟庄, 过水
def test_draft4_floor_doubles_the_win_payment() -> None:
    hands = ["1m2m3m4p5p6p7s8s9sEEE9p9p", J1, J2, J3]
    bal = []
    for floor in (0, 1, 2):
        t = Table("hebei_draft4", wall=arrange_wall("hebei_draft4", hands, ""), carry={"floor": floor})
        act(t, WIN, "9p")
        bal.append(res(t)["balances"][0])
    assert bal[1] == 2 * bal[0] and bal[2] == 4 * bal[0] > 0
    with pytest.raises(RuleConfigError):
        Table("hebei_draft4", carry={"floor": 3})


def test_draft4_gen_zhuang() -> None:
    hands = ["1m4m7m1p4p7p1s4s7sSWNCP", J1, J2, J3[:-1] + "2s"]
    t = Table("hebei_draft4", wall=arrange_wall("hebei_draft4", hands, "PPP2m"))
    act(t, DISCARD, "P")
    for _ in range(3):
        discard_drawn(t)  # each non-dealer follows with P
    assert any(e["type"] == "gen_zhuang" for e in t.log)
    while not t.done:
        t.step(t.legal_actions()[0])
    ev = [e for e in res(t)["ledger"]["events"] if "跟庄" in e["reason"]]
    assert ev and [ev[0]["deltas"][n] for n in "ESWN"] == [-30, 10, 10, 10]
    # Switch off: no 跟庄.
    t = Table(hupai.Variant("hebei_draft4", gen_zhuang=False), wall=arrange_wall("hebei_draft4", hands, "PPP2m"))
    act(t, DISCARD, "P")
    for _ in range(3):
        discard_drawn(t)
    assert not t.gen_zhuang


def test_draft4_pass_win_lock() -> None:
    # Seat 1 (门清, waits E / 9p) declines 9p from seat 2; seat 3's E is then no win for it.
    hands = ["1m4m7m1p4p7p1s4s7sSWNCF", "1m2m3m4p5p6p7s8s9sEE9p9p", J2[:-1] + "P", J3b]
    for variant, offered in (("hebei_draft4", False), (hupai.Variant("hebei_draft4", pass_win_lock="none"), True)):
        t = Table(variant, wall=arrange_wall("hebei_draft4", hands, "2s9pE"))
        act(t, DISCARD, "F")
        discard_drawn(t)
        discard_drawn(t)
        assert (WIN, T("9p")) in kinds(t, 1)
        act(t, PASS, "9p")
        discard_drawn(t)
        assert (t.phase == "claim" and (WIN, T("E")) in kinds(t, 1)) is offered


# ---------------------------------------------------------------- 上海
def test_shanghai_ba_hua_qi_instant_win() -> None:
    hands = ["f1f2f3f4f5f6f7f8 1m4m7m2p5p8p", J1, J2, J3]
    t = Table("shanghai", wall=arrange_wall("shanghai", hands, ""))
    assert len(t.flowers[0]) == 8
    assert (WIN, t.drawn) in kinds(t)
    act(t, WIN, t.drawn)
    assert t.wins[0]["fans"][0][0] == "BA_HUA_QI"


def test_shanghai_feng_yi_se_without_structure() -> None:
    hands = ["1m4m7m1p4p7p1s4s7s2m5m8m3sS", "EESWWNNCCFFPP", J2.replace("S", "3m"), J3.replace("S", "3p")]
    t = Table("shanghai", wall=arrange_wall("shanghai", hands, ""))
    act(t, DISCARD, "S")
    assert (WIN, T("S")) in kinds(t, 1)
    t.step(Action(WIN, 1, T("S")))
    while not t.done:
        t.step(t.legal_actions()[0])
    assert t.wins[0]["fans"][0][0] == "FENG_YI_SE"


def _shanghai_pung_win(carry: dict | None, seed: int) -> Table:
    hands = ["1m4m7m1p4p7p1s4s7s2m5m8m3s9p", "1m1m1m7p7p7p9s9s9sEEE9p", J1[:-1] + "P", J3]
    t = Table("shanghai", seed=seed, wall=arrange_wall("shanghai", hands, ""), carry=carry)
    act(t, DISCARD, "9p")
    t.step(Action(WIN, 1, T("9p")))
    while not t.done:
        t.step(t.legal_actions()[0])
    return t


def test_shanghai_pending_counters_reach_the_payment() -> None:
    seed = next(s for s in range(50) if Table("shanghai", seed=s).carry["kai_bao"] == 0)
    plain = res(_shanghai_pung_win(None, seed))["balances"][1]
    assert plain > 0
    t = _shanghai_pung_win({"huang_fan": 1}, seed)
    assert res(t)["balances"][1] == 2 * plain
    assert t.wins[0]["value"] == 2 * plain and ("HUANG_FAN", 1) in t.wins[0]["fans"]
    assert res(_shanghai_pung_win({"kai_bao": 1, "huang_fan": 1}, seed))["balances"][1] == 4 * plain
    rolled = next(s for s in range(200) if Table("shanghai", seed=s).carry["kai_bao"] == 1)
    t = _shanghai_pung_win(None, rolled)  # equal dice at this hand's roll: 开宝 counts now
    assert t.log[1]["type"] == "dice" and res(t)["balances"][1] == 2 * plain
    assert res(t)["carry"]["kai_bao"] == 1  # used in the result; reset by the win for the next hand
    assert flow_next_hand(t.variant, 0, [1], None, 0, 1, 0) == (1, 0, 0, 0)


def test_shanghai_dealer_after_several_winners() -> None:
    v = hupai.Variant.load("shanghai")
    assert flow_next_hand(v, 0, [3, 1], 2) == (2, 0, 0, 0)  # the 放炮者
    assert flow_next_hand(v, 0, [], None, 0, 1, 2) == (0, 0, 1, 3)  # 和局: dealer stays, 黄番 + 1
    near = hupai.Variant("shanghai", multi_winner_dealer="nearest_winner")
    assert flow_next_hand(near, 0, [3, 1], 2)[0] == 3
    with pytest.raises(hupai.HupaiError):
        flow_next_hand(v, 0, [1, 1], None)


# ---------------------------------------------------------------- 欢乐3D 抢杠胡 switch
def _huanle_rob(variant: hupai.Variant | str) -> Table:
    hands = [
        "5s1m2m3m4m6m7m8m1p2p3p4p6p7p",
        "5s5s9m9m8p8p9p9p1s1s2s6s7s",
        "1m1m1m2p2p2p3p3p3p9m9m3s4s",
        "2m2m5m5m7m7m5p5p6p6p7s7s8s",
    ]
    t = Table(variant, wall=arrange_wall("huanle3d", hands, "7p8m7p5s"))
    act(t, DISCARD, "5s")
    t.step(Action(PUNG, 1, T("5s")))
    act(t, DISCARD, "2s")
    discard_drawn(t)  # seat 2: 7p
    discard_drawn(t)  # seat 3: 8m
    discard_drawn(t)  # seat 0: 7p
    assert t.to_act == 1 and (ADDED_KONG, T("5s")) in kinds(t)
    t.step(Action(ADDED_KONG, 1, T("5s")))
    return t


def test_huanle3d_discard_win_also_rob_kong() -> None:
    t = _huanle_rob("huanle3d")
    assert t.phase == "turn" and t.to_act == 1  # default: 补杠 cannot be robbed
    t = _huanle_rob(hupai.Variant("huanle3d", discard_win="also_rob_kong"))
    assert t.phase == "rob" and (WIN, T("5s")) in kinds(t, 2)
    t.step(Action(WIN, 2, T("5s")))
    assert t.done and t.wins[0]["win_type"] == "rob_kong" and res(t)["balances"][1] < 0


# ---------------------------------------------------------------- Match: rotation and carry-over
@pytest.mark.parametrize("vid", ["hebei", "shaanxi", "hebei_draft4", "shanghai", "huanle3d"])
def test_match_rotation_and_carry(vid: str) -> None:
    m = Match(vid, seed=11, agents=[GreedyBot(k) for k in range(4)])
    m.play(12)
    for h, nxt in zip(m.hands, m.hands[1:]):
        res, d = h["result"], h["dealer"]
        winners = list(dict.fromkeys(w["seat"] for w in res["wins"]))
        if not winners:
            assert nxt["dealer"] == d
        elif vid in ("shanghai", "huanle3d"):
            assert nxt["dealer"] == (winners[0] if len(winners) == 1 else res["discarder"])
        else:
            assert nxt["dealer"] == (d if d in winners else (d + 1) % 4)
        if vid == "hebei_draft4":
            stays = not winners or d in winners
            assert nxt["carry"]["floor"] == (min(h["carry"]["floor"] + 1, 2) if stays else 0)
        if vid == "shanghai":
            hf = h["carry"]["huang_fan"]
            assert nxt["carry"]["huang_fan"] == (0 if winners else hf + 1)
        if vid == "shaanxi":
            assert nxt["carry"]["pao_zi"] == res["carry"]["pao_zi"]
    assert sum(m.scores) == 0
    if vid == "hebei_draft4":
        assert any(h["carry"]["floor"] > 0 for h in m.hands)


def test_new_flow_queries_reject_bad_input() -> None:
    from hupai._core import flow_gen_zhuang, flow_kai_bao, flow_pass_lock, flow_ready_discards

    sh, d4 = hupai.Variant.load("shanghai"), hupai.Variant.load("hebei_draft4")
    assert flow_kai_bao(sh, 3, 3) == 1 and flow_kai_bao(sh, 3, 4) == 0
    assert flow_pass_lock(hupai.Variant.load("shaanxi")) == "same_tile"
    assert flow_gen_zhuang(d4, 1, [(1, 33), (2, 33), (3, 33), (0, 33)])
    seat = ([0] * 34, [], True, None, False, False, 0, 27, True)
    for bad in (
        lambda: flow_kai_bao(sh, 0, 7),
        lambda: flow_gen_zhuang(d4, 9, []),
        lambda: flow_gen_zhuang(d4, 0, [(0, 40)]),
        lambda: flow_next_hand(sh, 0, [], None, 0, 0, 0, 9),
        lambda: flow_next_hand(d4, 0, [], None, 5),
        lambda: flow_ready_discards(d4, seat, 0),
    ):
        with pytest.raises(hupai.HupaiError):
            bad()
