"""斗地主, 够级 and 顶牛 at the one table engine: ``Table``, ``Match``, ``simulate``, ``replay`` and the
checking simulator (cards accounted for after every step, legal moves only, zero-sum ledgers,
identical replays, and each game's own invariants: 斗地主 54 cards and the multiplier equal to the product
of the recorded doublings, 够级 tribute moving the right cards, a complete finishing order and points as
gouji.md §7 says, 顶牛 payments zero-sum and points equal to the 扣 pips). The invariant run has the
issues' sizes by default: 50,000 斗地主 games (``HUPAI_CARD_GAMES`` changes it), 20,000 够级 hands and
50,000 顶牛 rounds with random bots, plus greedy runs — about 30 CPU-seconds in all."""

from __future__ import annotations

import json
import os

import pytest

import hupai
from hupai._core import check_games

DDZ_GAMES = int(os.environ.get("HUPAI_CARD_GAMES", "50000"))
CARD_GAMES = ["doudizhu_qq", "doudizhu_contest", "gouji", "dingniu"]
SEATS = {"doudizhu_qq": 3, "doudizhu_contest": 3, "gouji": 6, "dingniu": 4}


@pytest.mark.parametrize("variant", CARD_GAMES)
def test_table_plays_to_the_end_and_replays(variant: str) -> None:
    t = hupai.Table(variant, seed=1)
    assert t.family == "cards" and t.n == SEATS[variant]
    steps = 0
    while t.to_act is not None:
        legal = t.legal_actions()
        assert legal and all(a.seat == t.to_act for a in legal)
        other = (t.to_act + 1) % t.n
        assert t.legal_actions(other) == []
        t.step(legal[steps % len(legal)])
        steps += 1
    r = t.result
    assert sum(r["balances"]) == 0 and r["balances"] == t.balances
    assert hupai.replay(t.log).result["balances"] == r["balances"]
    assert t.log[0]["type"] == "start" and t.log[-1]["type"] == "end"


@pytest.mark.parametrize("variant", CARD_GAMES)
def test_bots_match_and_simulate(variant: str) -> None:
    n = SEATS[variant]
    res = hupai.Table(variant, seed=3).run([hupai.Bot("greedy", k) for k in range(n)])
    assert sum(res["balances"]) == 0
    m = hupai.Match(variant, seed=2, agents=[hupai.Bot("random", k) for k in range(n)])
    m.play(4)
    assert len(m.hands) == 4 and sum(m.scores) == 0
    a = hupai.simulate(variant, 40, agents="random", seed=5)
    b = hupai.simulate(variant, 40, agents="random", seed=5, workers=2)
    assert a.records == b.records and a.n_games == 40 and len(a.records) == 40


def test_illegal_actions_are_typed_errors() -> None:
    t = hupai.Table("doudizhu_qq", seed=1)
    wrong_seat = hupai.Action("bid", (t.to_act + 1) % 3, value=1)
    with pytest.raises(hupai.IllegalActionError):
        t.step(wrong_seat)
    with pytest.raises(hupai.IllegalActionError):
        t.step(hupai.Action("bid", t.to_act, value=7))
    with pytest.raises(hupai.IllegalActionError):
        t.step(hupai.Action("discard", t.to_act, "5m"))
    assert t.log[-1]["type"] != "action"  # nothing changed


def test_doudizhu_play_actions_name_cards_and_reading() -> None:
    t = hupai.Table("doudizhu_qq", seed=11)
    while t.phase != "play":
        t.step(t.legal_actions()[-1])
    play = next(a for a in t.legal_actions() if a.kind == "play")
    assert play.tiles and all(c in "3456789TJQKA2xX" for c in play.tiles)
    assert play.tile is not None and play.value is not None
    t.step(play)
    assert t.log[-1]["type"] == "action" or t.log[-1]["type"] in ("double", "settle", "end")


def _always_pass(obs: object, legal: list[hupai.Action]) -> hupai.Action:
    return next((a for a in legal if a.kind == "pass"), legal[0])


@pytest.mark.parametrize(("cap", "deals"), [(None, 10), (1, 1), (4, 4)])
def test_doudizhu_all_pass_redeals_up_to_the_cap_then_ends_as_a_draw(cap: int | None, deals: int) -> None:
    v = hupai.Variant("doudizhu_qq") if cap is None else hupai.Variant("doudizhu_qq", redeal_cap=cap)
    t = hupai.Table(v, seed=4)
    res = t.run([_always_pass] * 3)
    assert res["result"] == "no_game" and res["balances"] == [0, 0, 0] and res["winners"] == []
    assert res["turns"] == 3 * deals
    assert sum(r["type"] == "redeal" for r in t.log) == deals - 1
    assert t.log[-1] == {"type": "end", "winners": [], "balances": [0, 0, 0], "exhausted": True}
    assert hupai.replay(t.log).result["balances"] == [0, 0, 0]
    sim = hupai.simulate(v, 5, agents=_always_pass, seed=1)
    assert all(r["exhausted"] and r["balances"] == [0, 0, 0] and r["turns"] == 3 * deals for r in sim.records)
    with pytest.raises(hupai.HupaiError):
        hupai.Variant("doudizhu_qq", redeal_cap=0)


@pytest.mark.parametrize(
    ("variant", "agents", "n"),
    [
        ("doudizhu_qq", "random", DDZ_GAMES),
        ("doudizhu_qq", "greedy", DDZ_GAMES // 5),
        ("doudizhu_contest", "random", DDZ_GAMES // 5),
        ("gouji", "random", 20000),
        ("gouji", "greedy", 4000),
        ("dingniu", "random", 50000),
        ("dingniu", "greedy", 10000),
    ],
)
def test_invariants_over_many_hands(variant: str, agents: str, n: int) -> None:
    stats = check_games(variant, [agents] * SEATS[variant], 7, n, 2, 97)
    assert stats["hands"] == n


@pytest.mark.parametrize("variant", CARD_GAMES)
def test_simulate_check_runs_the_games_own_invariants(variant: str) -> None:
    checked = hupai.simulate(variant, 60, agents="random", seed=9, check=True, workers=2)
    fast = hupai.simulate(variant, 60, agents="random", seed=9)
    assert checked.records == fast.records  # checking changes nothing
    with pytest.raises(hupai.HupaiError, match="built-in agents"):
        hupai.simulate(variant, 1, agents=_always_pass, check=True)
    with pytest.raises(TypeError):
        hupai.simulate(variant, 1, agents="random", check="yes")  # type: ignore[arg-type]


def test_cli_simulate_check(capsys: pytest.CaptureFixture[str]) -> None:
    from hupai.cli import main

    assert main(["simulate", "--variant", "gouji", "-n", "50", "--agents", "random", "--check", "--quiet", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"n_games": 50' in out


@pytest.mark.parametrize(("variant", "module", "n"), [("doudizhu_qq", "doudizhu", 300), ("gouji", "gouji", 60), ("dingniu", "dingniu", 300)])
def test_per_game_summaries_from_the_table_results(variant: str, module: str, n: int) -> None:
    summary = getattr(hupai, module).summary
    sim = hupai.simulate(variant, n, agents="greedy", seed=3, results=True, check=True)
    st = summary(sim)
    assert st == summary(sim.records)
    seats = SEATS[variant]
    totals = [sum(r["balances"][s] for r in sim.records) for s in range(seats)]
    if module == "doudizhu":
        assert st["hands"] == n and st["scores"] == totals
        assert st["landlord_wins"] + st["farmer_wins"] + st["no_game"] + st["escapes"] == n
        assert st["bombs"] == sum(r["fans"].count("BOMB") for r in sim.records)
    elif module == "gouji":
        assert st["hands"] + st["voids"] == n and st["scores"] == totals
        assert all(sum(row) == st["hands"] for row in st["places"])
    else:
        assert st["rounds"] == n and st["net"] == totals and sum(st["wins"]) == n
    assert st["decisions"] == sum(r["steps"] for r in sim.records)
    with pytest.raises(hupai.HupaiError, match="results=True"):
        summary(hupai.simulate(variant, 2, agents="random"))
    assert "result" not in hupai.simulate(variant, 2, agents="random").records[0]


@pytest.mark.parametrize("variant", CARD_GAMES)
def test_simulate_matches_carry_from_hand_to_hand(variant: str) -> None:
    a = hupai.simulate(variant, 24, agents="greedy", seed=3, hands_per_match=6, check=True, keep_logs=True)
    b = hupai.simulate(variant, 24, agents="greedy", seed=3, hands_per_match=6, workers=2, chunk=5, check=True, keep_logs=True)
    assert a.records == b.records and [r["game"] for r in a.records] == list(range(24))
    # the start record of a later hand of a match carries what the previous hand left
    starts = [json.loads(r["log"])[0] for r in a.records]
    assert all(s.get("carry") is None for s in starts[::6])
    assert any(s.get("carry") is not None for i, s in enumerate(starts) if i % 6)
    with pytest.raises(hupai.HupaiError, match="hands_per_match"):
        hupai.simulate(variant, 2, agents=_always_pass, hands_per_match=2)
    with pytest.raises(hupai.HupaiError):
        hupai.simulate(variant, 2, agents="random", hands_per_match=0)


def test_gouji_tribute_in_checked_matches() -> None:
    """够级 matches of 10 hands: the tribute of every later hand is checked (the giver's highest cards,
    the hands at the first lead, the next hand's obligations from the finishing order)."""
    sim = hupai.simulate("gouji", 4000, agents="random", seed=11, hands_per_match=10, check=True, results=True, workers=2, keep_logs=False)
    st = hupai.gouji.summary(sim)
    assert st["hands"] + st["voids"] == 4000 and sum(st["scores"]) == 0
