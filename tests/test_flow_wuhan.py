"""武汉 红中癞子杠 at the table (hupai.game.rules_wuhan): the flipped indicator and the 癞子, 红中杠 and
癞子杠 with their replacement draws and their factors in the payments, 红中 forbidding a win, 海底
and 荒庄, dealer rotation, 一炮单响 order; and the wuhan switches of spec §10 in the core."""

from __future__ import annotations

import json
from typing import Any

import pytest

import hupai
from tests.preset_helpers import ids, settle
from hupai._core import wuhan_flow_claims, wuhan_laizi
from hupai.game import TILE_NAMES, Action, GreedyBot, Match, RandomBot, Table, arrange_wall, replay
from hupai.game.actions import CHOW, DISCARD, PASS, PIZI_KONG, PUNG, WIN


def T(name: str) -> str:
    return name


def I(name: str) -> int:
    """The index of a tile (count vectors, the low-level flow queries)."""
    return hupai.Tile(name).index


# 癞子 = 5s (indicator 4s, the first tile after the deal). Seat 0 deals and holds 红中 and a 癞子;
# seat 1 pungs 9s, then waits on 2p/5p with the 258 pair 2m2m.
HANDS = [
    "C 5s 9s 5p 1m 4m 7m 1p 7p 2s 6s W N F",
    "9s 9s 2m 2m 3p 4p 6s 7s 8s 1m 1m 1m E",
    "1s 2s 3s 4m 5m 6m 2p 8p 9p S W N F",
    "3m 6m 9m 2p 6p 9p 1s 4s 7s 8s S E F",
]
DRAWS = "4s N W S"  # indicator, then the draws of seats 2, 3, 0


def table(hands: list[str] = HANDS, draws: str = DRAWS, **switches: Any) -> Table:
    v = hupai.Variant("wuhan", **switches) if switches else hupai.Variant.load("wuhan")
    return Table(v, seed=1, wall=arrange_wall("wuhan", hands, draws))


def act(t: Table, kind: str, seat: int, tile: str) -> None:
    """Step ``seat``'s action, passing every claim offered to other seats before it."""
    while t.to_act != seat and t.phase == "claim":
        t.step(Action(PASS, t.to_act, t.last_discard))
    t.step(Action(kind, seat, T(tile)))
    assert t.tile_count() == t.n_tiles


def test_flip_gives_the_laizi() -> None:
    t = table()
    assert t.vid == "wuhan" and t.n_tiles == 136
    flip = next(e for e in t.log if e["type"] == "flip")
    assert t.log.index(flip) > next(i for i, e in enumerate(t.log) if e["type"] == "deal")
    assert (t.indicator, t.laizi) == (T("4s"), T("5s")) == (flip["tile"], flip["laizi"])
    assert t.tile_count() == t.n_tiles  # the indicator stays face up, out of play
    v = hupai.Variant.load("wuhan")
    cycle = {"9m": "1m", "N": "F", "C": "F", "P": "E", "E": "S", "1p": "2p"}
    for ind, lz in cycle.items():
        assert wuhan_laizi(v, I(ind)) == I(lz)
    # 八痞四赖: 发 is a 痞子 too, so the cycle skips it; the indicator itself (KuaiKai)
    assert wuhan_laizi(hupai.Variant("wuhan", pizi_set="hongzhong_facai"), I("N")) == I("P")
    assert wuhan_laizi(hupai.Variant("wuhan", laizi_from_indicator="itself"), I("7m")) == I("7m")
    with pytest.raises(hupai.InvalidHandError):
        wuhan_laizi(hupai.Variant("wuhan", laizi_from_indicator="itself"), I("C"))
    for seed in range(20):  # random walls: the 癞子 is always the successor of the flipped tile
        t = Table("wuhan", seed=seed)
        assert t.laizi == TILE_NAMES[wuhan_laizi(v, I(t.wall[53]))] and t.indicator == t.wall[53]


def test_hongzhong_and_laizi_kongs_at_the_table() -> None:
    t = table()
    legal = t.legal_actions(0)
    assert Action(PIZI_KONG, 0, T("C")) in legal and Action(PIZI_KONG, 0, T("5s")) in legal
    assert Action(DISCARD, 0, T("C")) not in legal and Action(DISCARD, 0, T("5s")) not in legal
    tail = t.wall[-1]
    act(t, PIZI_KONG, 0, "C")  # 红中杠: replacement from the tail, same seat moves again
    assert t.pizi_kongs[0] == [1, 0] and t.pizi_tiles[0] == [T("C")]
    assert t.to_act == 0 and t.hands[0][I(tail)] >= 1 and t.hands[0][I("C")] == 0
    act(t, PIZI_KONG, 0, "5s")  # 癞子杠
    assert t.pizi_kongs[0] == [1, 1]
    assert [e["type"] for e in t.log].count("pizi_kong") == 2
    act(t, DISCARD, 0, "9s")
    assert t.to_act == 1 and {PUNG, CHOW} <= {a.kind for a in t.legal_actions(1)}
    act(t, PUNG, 1, "9s")
    act(t, DISCARD, 1, "E")
    act(t, DISCARD, 2, "N")
    act(t, DISCARD, 3, "W")
    act(t, DISCARD, 0, "5p")
    assert Action(WIN, 1, T("5p")) in t.legal_actions(1)
    act(t, WIN, 1, "5p")
    assert t.done and [f[0] for f in t.wins[0]["fans"]] == ["XIAO_HU"]
    # winner: 开口 ×2 · 硬胡 ×2 = 4; seat 0 (dealer, discarder, 红中杠, 癞子杠): ×2·×2·×2·×2 = 16
    assert t.result["balances"] == [-64, 72, -4, -4]
    assert sum(e["deltas"]["E"] for e in t.result["ledger"]["events"]) == -64
    assert t.result["next_dealer"] == 1
    assert replay(json.loads(json.dumps(t.log))).result == t.result


def test_without_the_laizi_kong_the_discarder_pays_half() -> None:
    t = table()
    act(t, PIZI_KONG, 0, "C")
    act(t, DISCARD, 0, "9s")
    act(t, PUNG, 1, "9s")
    act(t, DISCARD, 1, "E")
    act(t, DISCARD, 2, "N")
    act(t, DISCARD, 3, "W")
    act(t, DISCARD, 0, "5p")
    act(t, WIN, 1, "5p")
    assert t.result["balances"] == [-32, 40, -4, -4]


def test_hongzhong_held_forbids_the_win() -> None:
    v = hupai.Variant.load("wuhan")
    # seat 1: pung 9s, 2m2m 3p4p 678s 111m waiting on 2p/5p; the same hand holding 红中 instead of a 1m
    ready = [0] * 34
    for x in "2m 2m 3p 4p 6s 7s 8s 1m 1m 1m".split():
        ready[I(x)] += 1
    with_c = list(ready)
    with_c[I("1m")] -= 1
    with_c[I("C")] += 1
    empty = [0] * 34
    empty[I("1s")] = 13

    def seat(c: list[int], melds: list[Any]) -> tuple[Any, ...]:
        return (c, melds, True, None, False, False, 0, 27, False)

    other = [0] * 34
    for x in "1s 2s 3s 4m 5m 6m 2p 8p 9p S W N F".split():
        other[I(x)] += 1
    pung = [("pung", I("9s"), 3, None)]
    for hand, wins in ((ready, True), (with_c, False)):
        seats = [seat(other, []), seat(hand, pung), seat(other, []), seat(other, [])]
        r = wuhan_flow_claims(v, seats, [(0, 0)] * 4, 0, I("5p"), "discard", I("4s"), False, False)
        assert (r[1] is not None and r[1][0] is not None) == wins
    # at the table, 红中 never leaves the hand as a plain discard in live play
    t = table()
    assert all(a.tile != T("C") for a in t.legal_actions(0) if a.kind == DISCARD)


def test_haidi_and_huang_zhuang() -> None:
    exhausted = 0
    for seed in range(40):
        t = Table("wuhan", seed=seed, dealer=seed % 4)
        t.run([RandomBot(7 * seed + k) for k in range(4)])
        haidi = [e for e in t.log if e.get("haidi")]
        assert len(haidi) <= 4
        if t.result["exhausted"]:
            exhausted += 1
            assert t.wall_remaining == 10 and len(haidi) == 4  # the last 5 stacks stay undrawn
            assert t.result["balances"] == [0, 0, 0, 0] and t.result["next_dealer"] == t.dealer
        for w in t.wins:
            if any(e.get("haidi") for e in t.log):
                assert w["from"] is None  # 海底: self-draw wins only
    assert exhausted > 10


def test_greedy_wins_and_dealer_rotation() -> None:
    seen_shang_jia = False
    for seed in range(30):
        for dn in ("next_in_turn_order", "shang_jia"):
            v = hupai.Variant("wuhan", dealer_next=dn)
            t = Table(v, seed=seed, dealer=1)
            t.run([GreedyBot(seed + k) for k in range(4)])
            w = t.result["winners"]
            if w and w != [1]:
                assert t.result["next_dealer"] == (2 if dn == "next_in_turn_order" else 0)
                seen_shang_jia |= dn == "shang_jia"
            elif w == [1]:
                assert t.result["next_dealer"] == 1
    assert seen_shang_jia
    m = Match(hupai.Variant("wuhan", dealer_next="shang_jia"), seed=3, agents=[GreedyBot(k) for k in range(4)])
    for _ in range(6):
        before = m.dealer
        res = m.play_hand()
        assert m.dealer == res["next_dealer"]
        assert m.dealer in (before, (before - 1) % 4)


def test_jiehu_order_switch() -> None:
    # Seats 0 (dealer) and 2 both open and wait on 2p/5p; seat 1 discards 5p. 一炮单响: the first
    # eligible seat from the discarder (seat 2), or with jiehu_order = from_dealer the dealer (seat 0).
    hands = [
        "2m 2m 3p 4p 6s 7s 8s 1m 1m 1m S S E W",
        "5p 1s 9s 9m 1p 9p 4m 7s 7p N F P P",
        "E E 5m 5m 3p 4p 2s 3s 4s 6m 7m 8m S",
        "3m 6m 9m 2p 6p 8p 5s 8s 1s 3s N F C",
    ]
    for order, winner in (("from_discarder", 2), ("from_dealer", 0)):
        t = table(hands, "8m 7m", jiehu_order=order)
        act(t, DISCARD, 0, "E")
        act(t, PUNG, 2, "E")
        act(t, DISCARD, 2, "S")
        act(t, PUNG, 0, "S")
        act(t, DISCARD, 0, "W")
        act(t, DISCARD, 1, "5p")
        assert t.phase == "claim" and t.to_act == winner
        while not t.done:
            t.step(Action(WIN, t.to_act, T("5p")))
        assert [w["seat"] for w in t.wins] == [winner] and t.wins[0]["from"] == 1
        assert t.result["balances"][winner] > 0 and sum(t.result["balances"]) == 0


# ---------------------------------------------------------------- switches (spec §10), core only

def case(concealed: str, win: str, win_type: str = "self_draw", melds: list[dict[str, Any]] | None = None,
         indicator: str = "4s") -> dict[str, Any]:
    return {"hand": {"concealed": [str(t) for t in hupai.parse_tiles(concealed)], "win_tile": win,
                     "melds": melds or []},
            "situation": {"win_type": win_type, "wild_indicator": indicator}}


def pon(t: str) -> dict[str, Any]:
    return {"type": "pon", "tiles": [t] * 3}


EX1 = case("34m22568s", "5m", "self_draw", [pon("2p"), {"type": "kong_open", "tiles": ["7m"] * 4}], "4s")
REC1 = {"seats": ["A", "W", "B", "C"], "dealer": "A", "wins": [{"winner": "W", **EX1}],
        "seat_data": {"A": {"openings": 1, "an_gang": 1}, "C": {"openings": 1}}}
EX2 = case("78s33s", "6s", "discard", [pon("2s"), {"type": "chi", "tiles": ["4s", "5s", "6s"]}, pon("9s")], "1p")
REC2 = {"seats": ["A", "B", "C", "D"], "dealer": "D", "wins": [{"winner": "B", "discarder": "C", **EX2}],
        "seat_data": {"A": {"an_gang": 1}, "C": {"openings": 1}, "B": {"third_opening_from": "A"}}}
XIAO = case("234m678p2m", "2m", "discard", [pon("9p"), {"type": "chi", "tiles": ["1s", "2s", "3s"]}], "9m")
REC_XIAO = {"seats": ["A", "B", "C", "D"], "dealer": "A", "wins": [{"winner": "B", "discarder": "C", **XIAO}]}


def bal(rec: dict[str, Any], **sw: Any) -> dict[str, int]:
    return settle(rec, hupai.Variant("wuhan", **sw) if sw else "wuhan").balances


def test_switch_discard_payers() -> None:
    # 小胡 on a discard: winner 开口 ×2 · 硬胡 ×2 = 4; A dealer ×2, C 放冲 ×2
    assert bal(REC_XIAO) == {"A": -8, "B": 20, "C": -8, "D": -4}
    assert bal(REC_XIAO, discard_payers="discarder") == {"A": 0, "B": 8, "C": -8, "D": 0}
    # 大胡 on a discard: still all three (大胡陪冲)
    no_bao = dict(REC2, seat_data={"A": {"an_gang": 1}, "C": {"openings": 1}})
    assert bal(no_bao, discard_payers="discarder") == bal(no_bao) == {"A": -160, "B": 320, "C": -120, "D": -40}
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("wuhan", discard_payers="winner")


def test_switch_pizi_set() -> None:
    ppf = case("333m666pF", "F", "discard", [pon("9p"), pon("1s")], "9m")
    assert ids(hupai.score(ppf, variant="wuhan")) == ["PENG_PENG_HU"]
    with pytest.raises(hupai.InvalidHandError, match="痞子"):
        hupai.score(ppf, variant=hupai.Variant("wuhan", pizi_set="hongzhong_facai"))
    # at the table 发 becomes a 痞子杠 instead of a discard
    t = Table(hupai.Variant("wuhan", pizi_set="hongzhong_facai"), seed=1, wall=arrange_wall("wuhan", HANDS, DRAWS))
    assert Action(PIZI_KONG, 0, T("F")) in t.legal_actions(0)
    assert Action(DISCARD, 0, T("F")) not in t.legal_actions(0)
    assert Action(DISCARD, 0, T("F")) in table().legal_actions(0)
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("wuhan", pizi_set="facai")


def test_switch_round_to() -> None:
    assert bal(REC1) == {"A": -128, "W": 152, "B": -8, "C": -16}
    assert bal(REC1, round_to=10) == {"A": -130, "W": 160, "B": -10, "C": -20}
    assert bal(REC_XIAO, round_to=5) == {"A": -10, "B": 25, "C": -10, "D": -5}
    assert bal(REC_XIAO, round_to=10) == {"A": -10, "B": 30, "C": -10, "D": -10}
    for bad in (7, 3, 20):
        with pytest.raises(hupai.RuleConfigError, match="round_to"):
            hupai.Variant("wuhan", round_to=bad)


def test_switch_piao() -> None:
    assert bal(REC1, piao=10) == {"A": -138, "W": 182, "B": -18, "C": -26}
    # with 承包 the 承包者 pays the 漂 of every loser
    assert bal(REC2, piao=5) == {"A": -335, "B": 335, "C": 0, "D": 0}
    with pytest.raises(hupai.RuleConfigError, match="piao"):
        hupai.Variant("wuhan", piao=7)


def test_switch_bao_amount() -> None:
    assert bal(REC2) == {"A": -320, "B": 320, "C": 0, "D": 0}
    assert bal(REC2, bao_amount="three_caps") == {"A": -900, "B": 900, "C": 0, "D": 0}
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("wuhan", bao_amount="double")


def test_switch_big_hands_qi_xiao_dui() -> None:
    qd = case("1m1m3p3p5s5s7m7mEESS9p", "9p", "self_draw", [], "9m")
    with pytest.raises(hupai.InvalidHandError, match="开口"):
        hupai.score(qd, variant="wuhan")
    r = hupai.score(qd, variant=hupai.Variant("wuhan", big_hands="extended"))
    assert ids(r) == ["QI_XIAO_DUI"] and r.raw_total == 10 and r.extras["ying_hu"] is True
    # the 癞子 (1m, indicator 9m) pairs with anything: 软胡
    soft = case("1m2m3p3p5s5s7m7mEESS9p", "9p", "self_draw", [], "9m")
    r = hupai.score(soft, variant=hupai.Variant("wuhan", big_hands="extended"))
    assert ids(r) == ["QI_XIAO_DUI"] and r.extras["ying_hu"] is False
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("wuhan", big_hands="all")
