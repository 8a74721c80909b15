"""字牌 at the table — the same core engine and protocol as mahjong (``hupai.Table``): invariants over
simulated hands, determinism, replay, and the flow rules (priority, mandatory 扫穿/扫/开舵, 臭牌, 下比,
放炮必胡, 重舵) on crafted positions.

Changed from the former Python ``ZipaiTable``: agents get ``Action`` objects (``win``, ``pass``,
``pung``, ``chow`` with its 比 groups in ``tiles``, ``discard``) like every other table; the log is the
shared format (decisions are ``action`` records naming the card under ``tile``; public events name it
under ``tile`` too); positions are ``Table.zipai_position``; a match is ``hupai.Match``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import hupai
from hupai import zipai
from hupai.game import Action, IllegalActionError, Match, RandomBot, ReplayError, Table, replay
from hupai.game.agents import make_agent

KINDS = [f"x{i}" for i in range(1, 11)] + [f"d{i}" for i in range(1, 11)]


class Prefer:
    """Picks the first legal action whose kind comes first in ``order`` (else the first legal)."""

    def __init__(self, *order: str) -> None:
        self.order = order
        self.seen: list[list[Action]] = []

    def __call__(self, obs: Any, legal: list[Action]) -> Action:
        self.seen.append(legal)
        for t in self.order:
            for a in legal:
                if a.kind == t:
                    return a
        return legal[0]


def events(t: Table, *types: str) -> list[dict[str, Any]]:
    return [r for r in t.log if r["type"] in types]


def play_checked(t: Table, bots: list[Any]) -> dict[str, Any]:
    """Play to the end checking that every card is accounted for after every step."""
    while not t.done:
        s = t.to_act
        legal = t.legal_actions(s)
        a = bots[s](t.observation(s), legal)
        assert a in legal
        t.step(a)
        assert t.tile_count() == t.n_tiles, t.log[-1]
    assert t.result is not None
    return t.result


# ---------------------------------------------------------------------------------------------
# invariants over many simulated hands


def _check_game(i: int, agents: str) -> Table:
    t = Table("zipai_guilin" if i % 4 else "zipai_hunan", seed=1000 + i, dealer=i % 3)
    res = play_checked(t, [make_agent(agents, i * 3 + k) for k in range(3)])
    assert sum(res["balances"]) == 0
    # every payment is its own zero-sum ledger event; the ledger's balances are the result
    for ev in res["ledger"]["events"]:
        assert sum(ev["deltas"].values()) == 0 and len(ev["payments"]) == 1
    ledger_net = [sum(ev["deltas"].get(str(k), 0) for ev in res["ledger"]["events"]) for k in range(3)]
    assert ledger_net == res["balances"]
    assert sum(p["amount"] for p in res["payments"]) == sum(b for b in res["balances"] if b > 0)
    deal = events(t, "deal")
    assert sorted(len(d["tiles"]) for d in deal) == [20, 20, 21] or events(t, "extra_card")
    assert events(t, "dangdi")[0]["seat"] == t.dealer
    if res["win"] is not None:
        assert res["balances"][res["winner"]] > 0
    return t


def test_many_hands_conserve_cards_zero_sum_and_replay() -> None:
    kinds: Counter[str] = Counter()
    for i in range(600):
        t = _check_game(i, "random" if i % 5 else "greedy")
        kinds[t.result["win"]["win_type"] if t.result and t.result["win"] else "draw"] += 1
        if i % 10 == 0:
            replay(json.loads(json.dumps(t.log, ensure_ascii=False)))
    assert kinds["draw"] < 600
    assert kinds["discard"] + kinds["dihu"] > 0 and kinds["self_draw"] > 0 and kinds["other_draw"] > 0


def test_same_seed_same_log_and_other_seed_differs() -> None:
    def play(seed: int) -> list[dict[str, Any]]:
        t = Table("zipai_guilin", seed=seed, dealer=1)
        t.run([make_agent("greedy", seed + k) for k in range(3)])
        return t.log

    assert play(7) == play(7)
    assert play(7) != play(8)


def test_replay_detects_a_tampered_log() -> None:
    t = Table("zipai_guilin", seed=3)
    t.run([RandomBot(k) for k in range(3)])
    log = json.loads(json.dumps(t.log))
    assert replay(log).result == t.result
    acts = [r for r in log if r["type"] == "action"]
    assert acts
    acts[0]["kind"] = "pung"
    with pytest.raises(ReplayError):
        replay(log)
    with pytest.raises(ReplayError):
        replay(log[1:])


def test_illegal_action_is_a_typed_error() -> None:
    t = Table("zipai_guilin", seed=1)
    with pytest.raises(IllegalActionError):
        t.run([lambda obs, legal: Action("pung", 2, "d10")] * 3)
    with pytest.raises(IllegalActionError):
        t.step(Action("discard", t.to_act, "5m"))  # a mahjong tile at a 字牌 table
    assert issubclass(IllegalActionError, hupai.HupaiError)


def test_bad_configuration() -> None:
    with pytest.raises(hupai.RuleConfigError):
        Table("zipai_guilin", dealer=3)
    with pytest.raises(hupai.RuleConfigError):
        hupai.simulate("zipai_guilin", 1, agents="nobody")
    with pytest.raises(hupai.RuleConfigError):
        Table("zipai_guilin").run([RandomBot(0)] * 4)
    with pytest.raises(hupai.RuleConfigError):
        Table("zipai_guilin", carry={"floor": 1})


def test_simulate_and_cli() -> None:
    r = hupai.simulate("zipai_guilin", 30, agents="random", seed=5)
    assert r.n_games == 30 and len(r.win_rate) == 3
    assert abs(sum(r.avg_score)) < 1e-9
    assert r.records == hupai.simulate("zipai_guilin", 30, agents=["random"] * 3, seed=5).records
    with pytest.raises(hupai.RuleConfigError):
        hupai.simulate("zipai_guilin", 1, agents=["random"] * 4)
    from hupai.cli import main

    assert main(["simulate", "--variant", "zipai_guilin", "-n", "5", "--quiet", "--json"]) == 0


# ---------------------------------------------------------------------------------------------
# rules on crafted positions (seat 0 draws or discards; seat 1 is his 下家)

WIN_ON_X5 = "d1d2d3 d2d7d10 x4x6"  # + x5: 壹贰叁 6 + 贰柒拾 6 + x4x5x6 = 12 胡息


def position(hands: list[str], wall: str | list[str], variant: Any = "zipai_guilin", **kw: Any) -> Table:
    if "draw" not in kw and "discard" not in kw:
        kw["draw"] = 0
    return Table.zipai_position(variant, hands, wall, **kw)


def test_sao_outranks_another_players_win() -> None:
    t = position(["x5x5 x1 x9", WIN_ON_X5, "d5 d6"], "x5 x8")
    bots = [Prefer("win", "discard"), Prefer("win"), Prefer("win")]
    t.run(bots)
    assert events(t, "sao")[0]["seat"] == 0
    assert {"type": "sao", "tiles": ["x5"] * 3} in t.players[0]["melds"]
    assert not bots[1].seen or all(a.kind != "win" for a in bots[1].seen[0])
    assert not any(w["tile"] == "x5" for w in events(t, "win"))


def test_win_outranks_peng_and_drawer_may_pass_a_win_on_a_draw() -> None:
    t = position(["x1 x9", WIN_ON_X5, "x5x5 d9"], "x5 x8")
    t.run([Prefer("pass"), Prefer("win"), Prefer("pung")])
    w = events(t, "win")[0]
    assert (w["seat"], w["tile"], w["win_type"]) == (1, "x5", "other_draw")
    assert t.result is not None and sum(t.result["balances"]) == 0
    # seat 1 passes the (optional) win on a drawn card: seat 2 may then 碰
    t = position(["x1 x9", WIN_ON_X5, "x5x5 d9"], "x5 x8")
    t.run([Prefer("pass"), Prefer("pass"), Prefer("pung", "discard")])
    assert {"type": "peng", "tiles": ["x5"] * 3} in t.players[2]["melds"]


def test_kaiduo_is_mandatory_and_peng_outranks_chi() -> None:
    t = position(["x1 x9", "x4x6 d1", "x5x5x5 d9 d8"], "x5 x8")
    bots = [Prefer("pass"), Prefer("chow"), Prefer("pass", "discard")]
    t.run(bots)
    assert events(t, "kaiduo")[0] == {"type": "kaiduo", "seat": 2, "tile": "x5"}
    assert {"type": "kaiduo", "tiles": ["x5"] * 4} in t.players[2]["melds"]
    assert not any(a.kind == "chow" and a.tile == "x5" for legal in bots[1].seen for a in legal)
    # 碰 before 吃: seat 2 (pair) is asked first; when he takes it seat 1 never sees the 吃
    t = position(["x1 x9", "x4x6 d1", "x5x5 d9 d8"], "x5 x8")
    bots = [Prefer("pass"), Prefer("chow"), Prefer("pung", "discard")]
    t.run(bots)
    assert {"type": "peng", "tiles": ["x5"] * 3} in t.players[2]["melds"]
    assert not any(m["type"] == "chi" and "x5" in m["tiles"] for m in t.players[1]["melds"])


def test_saochuan_is_mandatory_and_zhongduo_skips_the_discard() -> None:
    t = position(["x5x5x5 x1 x9", "d1 d3", "d5 d9"], "x5 x8")
    bots = [Prefer("pass", "discard")] * 3
    t.run(bots)
    assert events(t, "saochuan")[0]["seat"] == 0
    i = t.log.index(events(t, "saochuan")[0])
    assert t.log[i + 2]["type"] == "discard" and t.log[i + 2]["seat"] == 0  # first four: discard
    # second four of the same player (重舵): no discard, his 下家 draws
    t = position(["x5x5x5 x1 x9", "d1 d3", "d5 d9"], "x5 x8", melds=[[("kaiduo", "d4d4d4d4")], [], []])
    t.run(bots)
    i = t.log.index(events(t, "saochuan")[0])
    assert t.log[i + 1] == {"type": "zhongduo", "seat": 0}
    assert t.log[i + 2]["type"] == "draw" and t.log[i + 2]["seat"] == 1


def test_chou_after_a_passed_chi_and_guosao_after_a_passed_peng() -> None:
    # seat 0 may 吃 his own drawn x5 (x4 x6), passes: x5 is 臭 for him
    t = position(["x4x6 d9 d8", "d1 d3", "d5 d6"], "x5 x7 x5")
    bots = [Prefer("pass", "discard")] * 3
    t.run(bots)
    assert "x5" in t.players[0]["chou"]
    assert events(t, "chou")[0] == {"type": "chou", "seat": 0, "tile": "x5"}
    # the second x5 is drawn by seat 2, whose 下家 is seat 0: x5 is 臭, no 吃 is offered again
    offers = [legal for legal in bots[0].seen if any(a.kind == "chow" for a in legal)]
    assert len(offers) == 1
    # passed 碰 → the kind is 臭 and a later own draw makes a 过扫
    t = position(["x1 x9", "x5x5 d9 d8", "d5 d6"], "x5 x5 d2")
    t.run([Prefer("pass", "discard")] * 3)
    p1 = t.players[1]
    assert "x5" in p1["passed_peng"] and "x5" in p1["chou"]
    assert {"type": "guosao", "tiles": ["x5"] * 3} in p1["melds"]


def test_xiabi_groups_are_exposed_with_the_chi() -> None:
    t = position(["x1 x9", "x3x4x5x6x7 d9", "d5 d6"], "x5 d2")
    bots = [Prefer("pass"), Prefer("chow", "discard"), Prefer("pass")]
    t.run(bots)
    chis = [a for legal in bots[1].seen for a in legal if a.kind == "chow"]
    assert chis and all(len(a.tiles) > 3 for a in chis)  # he holds another x5: every 吃 carries a 比
    melds = [m["tiles"] for m in t.players[1]["melds"] if m["type"] == "chi"]
    assert len(melds) == 2 and sum(m.count("x5") for m in melds) == 2
    # 有比不比, 吃取消: the extra x5 cannot be placed → no 吃 is offered at all
    t = position(["x1 x9", "x4x5x6 d9", "d5 d6"], "x5 d2")
    bots = [Prefer("pass"), Prefer("chow", "discard"), Prefer("pass")]
    t.run(bots)
    assert not any(a.kind == "chow" for legal in bots[1].seen for a in legal)
    assert "x5" not in t.players[1]["chou"]


def test_fangpao_bihu_is_forced_and_goes_to_the_next_seat_first() -> None:
    t = position(["x5 x9 x1", WIN_ON_X5, WIN_ON_X5.replace("x4x6", "x5x5")], "x8 x8", discard=(0, "x5"))
    t.run([Prefer("pass")] * 3)  # nobody is asked: the win is mandatory
    w = events(t, "win")[0]
    assert (w["seat"], w["win_type"]) == (1, "discard")
    assert events(t, "bi_hu")[0]["seat"] == 1
    assert not events(t, "action")
    assert t.result is not None and t.result["balances"][0] < 0 and sum(t.result["balances"]) == 0


def test_greedy_bot_beats_random_bots() -> None:
    r = hupai.simulate("zipai_guilin", 120, agents=["greedy", "random", "random"], seed=11)
    assert r.win_rate[0] > max(r.win_rate[1], r.win_rate[2])
    assert r.avg_score[0] > 0


def test_ledger_records_the_core_payments() -> None:
    for seed in range(40):
        t = Table("zipai_guilin", seed=seed)
        res = t.run([make_agent("greedy", seed * 3 + k) for k in range(3)])
        if res["win"] is None:
            assert res["ledger"]["events"] == [] and res["balances"] == [0, 0, 0]
            continue
        # one ledger event per paying seat, each naming payer, payee and amount
        assert len(res["ledger"]["events"]) == len(res["payments"])
        paid = sorted((p["payer"], p["payee"], p["amount"]) for ev in res["ledger"]["events"] for p in ev["payments"])
        core = sorted((str(p["from"]), str(p["to"]), p["amount"]) for p in res["payments"])
        assert paid == core
        return
    raise AssertionError("no win in 40 greedy hands")


def test_core_claims_keep_a_free_card_and_accept_many_fours() -> None:
    assert not zipai.claims("x5x5", "x5", source="discard")["peng"]
    assert zipai.claims("x5x5 x1", "x5", source="discard")["peng"]
    assert zipai.claims("x4x6 x9", "x5", source="discard")["chi"]
    assert not zipai.claims("x4x6", "x5", source="discard")["chi"]
    # four 4-card groups: 23 cards held (21 + 3 重舵) + the card in play
    melds = [f"kaiduo:{c * 4}" for c in ("x1", "x3", "d5", "d7")]
    c = zipai.claims("x2x2 d1d2d3 x8x9", "x7", melds, source="discard")
    assert c["hu"] is not None
    with pytest.raises(hupai.InvalidHandError):
        zipai.claims("x2x2 d1d2d3 x8x9 x10x10", "x7", melds, source="discard")


# ---------------------------------------------------------------------------------------------
# switches honoured by the table, 相公, 天胡/地胡 payments, jokers


class Script:
    """Answers its first decisions from ``script`` (a kind, or a card to discard) in order, then
    like ``Prefer``."""

    def __init__(self, script: list[str], *order: str) -> None:
        self.script = list(script)
        self.fallback = Prefer(*order)
        self.seen: list[list[Action]] = []

    def __call__(self, obs: Any, legal: list[Action]) -> Action:
        self.seen.append(legal)
        while self.script:
            want = self.script.pop(0)
            for a in legal:
                if a.kind == want or (a.kind == "discard" and a.tile == want):
                    return a
        return self.fallback(obs, legal)


def dealt_table(variant: hupai.Variant | str, hands: list[str], dealer: int = 0, seed: int = 5) -> Table:
    """A fresh table whose deal gives ``hands[k]`` to seat ``(dealer + k) % 3`` (empty: random
    cards); the rest of the deck is shuffled with ``seed``."""
    rest = Counter(hupai.game.build_wall(variant, seed))
    fixed = [[str(c) for c in zipai.parse_cards(h)] for h in hands]
    for h in fixed:
        rest.subtract(h)
    assert all(v >= 0 for v in rest.values())
    pool = sorted(rest.elements(), key=lambda c: (c == "K", KINDS.index(c) if c != "K" else 0))
    random.Random(seed).shuffle(pool)
    wall: list[str] = []
    for k, h in enumerate(fixed):
        n = 21 if k == 0 else 20
        wall += h + [pool.pop() for _ in range(n - len(h))]
    return Table(variant, seed=seed, dealer=dealer, wall=wall + pool)


def test_chou_scope_per_action_only_blocks_the_passed_action() -> None:
    # seat 1 passes a 碰 of x5 (drawn by seat 2; he is not seat 2's 下家, so no 吃 there); the next
    # x5 is drawn by seat 0, whose 下家 he is: a 吃 (with its 比 groups) is offered only per_action.
    hands = ["x1 x9 d10", "x5x5 x3x4 x6x7 d5d5 d9 d8", "d2 d3 x10"]
    for scope, offered in (("both", False), ("per_action", True)):
        t = position(hands, "x5 x5 d1 d1", hupai.Variant("zipai_guilin", chou_scope=scope), draw=2)
        bots = [Prefer("pass", "discard"), Prefer("pass", "discard"), Prefer("pass", "discard")]
        t.run(bots)
        assert "x5" in t.players[1]["passed_peng"]
        chi = any(a.kind == "chow" for legal in bots[1].seen for a in legal)
        assert chi is offered, scope


def test_chou_blocks_hu_switch() -> None:
    # seat 1 passes the win and the 碰 on seat 2's drawn x5; seat 0 then draws x5: the win is
    # offered again unless 臭 blocks 胡.
    hands = ["x1 x9 d10", "x5x5 d1d2d3 d2d7d10", "d4 d6 x10"]
    for blocks in (False, True):
        t = position(hands, "x5 x5 d8 d8", hupai.Variant("zipai_guilin", chou_blocks_hu=blocks), draw=2)
        bots = [Prefer("pass", "discard"), Script(["pass", "pass"], "win", "discard"), Prefer("pass", "discard")]
        t.run(bots)
        wins = events(t, "win")
        assert bool(wins and wins[0]["seat"] == 1) is (not blocks), blocks


def test_bi_hu_any_forces_a_win_on_a_draw() -> None:
    for bi_hu, forced in (("dianpao", False), ("any", True)):
        t = position(["x1 x9", WIN_ON_X5, "d9"], "x5 x8", hupai.Variant("zipai_guilin", bi_hu=bi_hu))
        t.run([Prefer("pass", "discard")] * 3)
        assert bool(events(t, "win")) is forced


def test_sanlong_wukan_wins_at_the_deal_and_is_paid_by_both() -> None:
    five_kan = "x1x1x1 x2x2x2 x3x3x3 x4x4x4 x5x5x5 x6 x8 d1 d5 d9"
    for on in (False, True):
        t = dealt_table(hupai.Variant("zipai_guilin", sanlong_wukan=on), ["", five_kan, ""], seed=3)
        if not t.done:
            t.run([Prefer("pass", "discard")] * 3)
        res = t.result
        assert res is not None
        if not on:
            assert not events(t, "sanlong_wukan")
            continue
        assert events(t, "sanlong_wukan") == [{"type": "sanlong_wukan", "seat": 1}]
        w = events(t, "win")[0]
        assert (w["seat"], w["win_type"], w["value"]) == (1, "sanlong", 15)
        assert sorted(e["payments"][0]["payer"] for e in res["ledger"]["events"]) == ["0", "2"]
        assert res["balances"][0] == res["balances"][2] < 0 and sum(res["balances"]) == 0
        assert not events(t, "draw")


G4 = "d10d10d10d10 x7x7x7 d1d1d1 x1x2x3 x3x4x5 d4d5d6 x9x9"


def test_declined_tianhu_play_continues_and_accepted_tianhu_is_paid_by_both() -> None:
    t = dealt_table("zipai_guilin", [G4], seed=8)
    res = t.run([Prefer("pass", "discard")] * 3)
    first = t.log.index(events(t, "action")[0])
    assert t.log[first] == {"type": "action", "kind": "pass", "seat": 0}
    assert t.log[first + 2]["type"] == "discard" and t.log[first + 2]["seat"] == 0
    assert events(t, "draw")  # the hand went on
    assert res["win"] is None or res["win"]["win_type"] != "tianhu"
    t = dealt_table("zipai_guilin", [G4], seed=8)
    res = t.run([Prefer("win")] * 3)
    assert res["win"]["win_type"] == "tianhu" and res["win"]["value"] == 24
    payers = sorted((e["payments"][0]["payer"], e["payments"][0]["amount"]) for e in res["ledger"]["events"])
    assert [p for p, _a in payers] == ["1", "2"] and payers[0][1] == payers[1][1] >= 10
    assert res["balances"][0] == 2 * payers[0][1]


def test_dihu_is_paid_by_both_other_players() -> None:
    g8 = "x3x3x3 x5x5x5 x9x9x9 d4d5d6 x6x7x8 d1d1x1 x10x10"  # zipai.md G8: 地胡 on x10
    t = dealt_table("zipai_guilin", ["x10", g8], seed=4)
    dealt = t.hand(0)
    assert zipai.huxi(dealt, win_type="tianhu") is None or zipai.huxi(dealt, win_type="tianhu") < 10
    res = t.run([Script(["pass", "x10"], "discard"), Prefer("win"), Prefer("win")])
    w = res["win"]
    assert (w["seat"], w["win_type"], w["value"]) == (1, "dihu", 10)
    payers = sorted(e["payments"][0]["payer"] for e in res["ledger"]["events"])
    assert payers == ["0", "2"]  # "两家输": the third player pays too
    assert res["balances"][0] == res["balances"][2] < 0


def test_xianggong_is_decided_by_the_core_at_the_table() -> None:
    seven_kan = "x1x1x1 x2x2x2 x3x3x3 x4x4x4 d1d1d1 d2d2d2 d3d3d3"
    t = dealt_table("zipai_guilin", [seven_kan], seed=2)
    bots = [Prefer("pass", "discard"), Prefer("pass", "discard"), Prefer("pass", "discard")]
    res = t.run(bots)
    (xg,) = events(t, "xianggong")
    assert xg["seat"] == 0 and "no card" in xg["reason"]
    assert len(bots[0].seen) == 1  # only the declined 天胡: no discard, no claim, no win later
    assert res["winner"] != 0
    assert not any(r["type"] == "discard" and r["seat"] == 0 for r in t.log)


def test_next_dealer_and_a_match_follow_dealer_after_draw() -> None:
    assert zipai.next_dealer(0, 2) == 2
    assert zipai.next_dealer(1, None) == 1
    assert zipai.next_dealer(1, None, hupai.Variant("zipai_guilin", dealer_after_draw="next")) == 2
    assert zipai.next_dealer(2, None, hupai.Variant("zipai_guilin", dealer_after_draw="next")) == 0
    with pytest.raises(hupai.InvalidHandError):
        zipai.next_dealer(0, 3)
    for rule in ("same", "next"):
        m = Match(hupai.Variant("zipai_guilin", dealer_after_draw=rule), seed=4)
        for _ in range(12):
            m.play_hand([RandomBot(k) for k in range(3)])
        ds = [h["dealer"] for h in m.hands]
        ws = [h["result"]["winner"] for h in m.hands]
        assert ds[0] == 0 and None in ws and any(w is not None for w in ws)
        for k in range(11):
            if ws[k] is not None:
                assert ds[k + 1] == ws[k]
            else:
                assert ds[k + 1] == (ds[k] if rule == "same" else (ds[k] + 1) % 3)
        assert m.scores == [sum(h["result"]["balances"][s] for h in m.hands) for s in range(3)]
        assert sum(m.scores) == 0
    from hupai.cli import main

    assert main(["play", "--variant", "zipai_guilin", "--hands", "3", "--seed", "3", "--set", "dealer_after_draw=next"]) == 0


def test_a_drawn_joker_joins_the_hand_then_wins_or_is_followed_by_a_discard() -> None:
    v = hupai.Variant("zipai_guilin", jokers=2)
    hand = "x1x2x3 d1d2d3 x2x7x10 d2d7d10 x4x5x6 d4d5d6 d8d8"
    t = position([hand, "x1", "x9"], ["K", "x8"], v)
    res = t.run([Prefer("win")] * 3)
    assert events(t, "joker") == [{"type": "joker", "seat": 0}]
    assert (res["win"]["seat"], res["win"]["tile"], res["win"]["win_type"], res["win"]["value"]) == (0, None, "self_draw", 24)
    t = position([hand, "x1", "x9"], ["K", "x8"], v)
    t.run([Prefer("pass", "discard")] * 3)
    i = t.log.index(events(t, "joker")[0])
    assert t.log[i + 1] == {"type": "action", "kind": "pass", "seat": 0}
    assert t.log[i + 2]["type"] == "action" and t.log[i + 2]["kind"] == "discard"
    assert t.log[i + 3]["type"] == "discard" and t.log[i + 3]["tile"] != "K"
    assert t.players[0]["hand"].count("K") == 1


@pytest.mark.parametrize("vid", ["zipai_guilin", "zipai_hunan"])
def test_games_with_jokers_conserve_cards_and_are_zero_sum(vid: str) -> None:
    v = hupai.Variant(vid, jokers=4)
    wins = 0
    for i in range(60):
        t = Table(v, seed=500 + i, dealer=i % 3)
        assert t.n_tiles == 84
        res = play_checked(t, [make_agent("greedy" if i % 3 == 0 else "random", i * 3 + k) for k in range(3)])
        assert sum(res["balances"]) == 0
        wins += res["win"] is not None
        if i % 15 == 0:
            replay(json.loads(json.dumps(t.log, ensure_ascii=False)))
    assert wins > 0
