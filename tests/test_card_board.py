"""The play page's ``board()`` and typed moves (``Action("play", 0, "33")``) at the card tables:
card hands, each seat's cards left, the move on the table and the result, drawn from the core."""

from __future__ import annotations

import json

import pytest

import hupai
from hupai.game.session import PlaySession, board


def _cards(a: hupai.Action) -> list[str]:
    return list(a.tiles) or ([a.tile] if a.tile else [])


@pytest.mark.parametrize(("variant", "seats", "dealt"), [("doudizhu_qq", 3, 17), ("doudizhu_contest", 3, 17), ("gouji", 6, 36), ("dingniu", 4, 6)])
def test_board_of_a_card_game(variant: str, seats: int, dealt: int) -> None:
    s = PlaySession(variant, human=0, seed=6, bots="greedy")
    b = s.board()
    assert b["family"] == "cards" and b["n"] == seats and len(b["seats"]) == seats
    assert b["seats"][0]["hand"] == s.table.hand(0) and len(b["seats"][0]["hand"]) >= dealt - 1
    assert all(d["hand"] is None for d in b["seats"][1:])  # the others' cards are counted, not shown
    assert [d["count"] for d in b["seats"]] == [len(s.table.hand(k)) for k in range(seats)]
    json.dumps(b, ensure_ascii=False)  # plain JSON for the page
    steps = 0
    while not s.done:
        b = s.board()
        assert b["legal"] and b["to_act"] == 0
        assert [x["label"] for x in b["legal"]] and all(x["label"] for x in b["legal"])
        s.act(len(b["legal"]) - 1 if steps % 2 else 0)
        steps += 1
        b = s.board()
        lp = b["last_play"]
        if lp is not None:  # the latest cards on the table are the log's latest move with cards
            moves = [r for r in s.table.log if r.get("type") == "action" and r.get("kind") in ("play", "open", "lay") and (r.get("tiles") or r.get("tile"))]
            assert moves and lp["seat"] == moves[-1]["seat"]
            assert lp["tiles"] == (moves[-1].get("tiles") or [moves[-1]["tile"]])
            assert b["seats"][lp["seat"]]["last_action"]
        assert [d["count"] for d in b["seats"]] == [len(s.table.hand(k)) for k in range(seats)]
        assert steps < 500
    b = s.board()
    assert b["done"] and b["result"] is not None
    assert b["result"]["balances"] == list(s.table.balances) and sum(b["result"]["balances"]) == 0
    assert all(d["hand"] is not None for d in b["seats"])  # the end shows every hand
    for w in b["result"]["wins"]:
        assert all(isinstance(f, str) and isinstance(c, int) for f, c in w["fans"])


def test_typed_doudizhu_moves() -> None:
    t = hupai.Table("doudizhu_qq", seed=1)
    t.step(hupai.Action("bid", 0, value=3))
    hand = t.hand(0)
    pair = next(c for c in hand if hand.count(c) >= 2)
    a = hupai.Action("play", 0, pair * 2)
    assert (a.kind, a.seat, a.tile) == ("play", 0, pair * 2)
    ev = t.step(a)
    assert ev[0].action is not None and sorted(ev[0].action.tiles) == [pair, pair]
    assert t.hand(0).count(pair) == hand.count(pair) - 2
    # the move to beat is the pair: a single is no answer, and the error lists the answers
    single = next(c for c in t.hand(1))
    with pytest.raises(hupai.IllegalActionError, match="legal: "):
        t.step(hupai.Action("play", 1, single))
    with pytest.raises(hupai.InvalidTileError, match="cards of a card game"):
        hupai.Action("play", 1, "zz")  # no game's notation
    with pytest.raises(hupai.IllegalActionError, match="not a legal move now; legal: seat 1 play"):
        t.step(hupai.Action("play", 1, "56"))  # read as 5 6 in 斗地主's notation: no type
    with pytest.raises(hupai.IllegalActionError, match="cards of this game"):
        t.step(hupai.Action("play", 1, "W"))  # a tile name (West), not a card of 斗地主

    with pytest.raises(hupai.IllegalActionError, match="not seat 2's turn"):
        t.step(hupai.Action("play", 2, single))
    with pytest.raises(hupai.InvalidTileError, match="cards of a card game"):
        hupai.Action("play", 1, "3!")
    before = len(t.log)
    t.step(hupai.Action("pass", 1))
    assert len(t.log) > before


def test_typed_dingniu_and_gouji_moves() -> None:
    t = hupai.Table("dingniu", seed=1)
    seat = t.to_act
    assert seat is not None
    first = t.legal_actions()[0]
    assert first.tile is not None
    t.step(hupai.Action("open", seat, first.tile))
    assert t.log[-1]["type"] != "action" or t.log[-1]["kind"] == "open"
    nxt = t.legal_actions()
    lay = next(a for a in nxt if a.kind == "lay")
    ev = t.step(hupai.Action("lay", lay.seat, lay.tile, value=lay.value))
    assert ev[0].action == lay
    g = hupai.Table("gouji", seed=3)
    while g.phase != "play":
        g.step(g.legal_actions()[0])
    play = next(a for a in g.legal_actions() if a.kind == "play")
    ev = g.step(hupai.Action("play", play.seat, " ".join(_cards(play))))
    assert ev[0].action == play


def test_play_endpoint_deals_and_plays_a_doudizhu_hand() -> None:
    from fastapi.testclient import TestClient

    from hupai.server.app import create_app

    c = TestClient(create_app())
    r = c.post("/v1/play", json={"variant": "doudizhu_qq", "seat": 0, "seed": 4})
    assert r.status_code == 200, r.text
    g = r.json()
    for _ in range(200):
        b = g["board"]
        assert b["family"] == "cards" and len(b["seats"]) == 3 and b["seats"][0]["hand"] is not None
        if b["done"]:
            break
        r = c.post("/v1/play/act", json={"id": g["id"], "game": g.get("game"), "choice": len(b["legal"]) - 1})
        assert r.status_code == 200, r.text
        g = {**g, **r.json()}
    assert g["board"]["done"] and sum(g["board"]["result"]["balances"]) == 0


@pytest.mark.parametrize("doc", ["doudizhu", "gouji", "dingniu"])
def test_at_the_table_examples_run(doc: str) -> None:
    """The ``## At the table`` block of docs/<game>.md runs as written."""
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / f"{doc}.md").read_text(encoding="utf-8")
    section = text.split("## At the table", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, f"docs/{doc}.md", "exec"), {})


def test_gouji_level_hand_is_played_out_with_its_finishing_order() -> None:
    # seed 1 with greedy bots: the teams end level (0 each) — a played-out hand, not a 流局
    t = hupai.Table("gouji", seed=1)
    t.run([hupai.GreedyBot(k) for k in range(6)])
    assert t.done and t.result is not None
    assert t.result["winners"] == [] and not t.result["exhausted"] and list(t.balances) == [0] * 6
    assert t.log[-1]["type"] == "end" and t.log[-1]["exhausted"] is False
    b = board(t)
    res = b["result"]
    assert res["exhausted"] is False
    # the finishing order as the core's records name it, 头科 first, every seat once
    assert [p["place"] for p in res["places"]] == ["头科", "二科", "三科", "四科", "二落", "大落"]
    assert [p["seat"] for p in res["places"]] == t.result["places"]
    assert b["seat_names"] == ["1号", "2号", "3号", "4号", "5号", "6号"]
    assert [p["name"] for p in res["places"]] == [f"{s + 1}号" for s in t.result["places"]]


def test_doudizhu_escape_is_not_exhausted_and_balances_stay_per_seat() -> None:
    # 逃跑: the hand ends without winners but was not a 流局; the penalty goes to the house, a
    # party of the ledger that is not a seat — the balances shown per seat stay three
    t = hupai.Table("doudizhu_qq", seed=2)
    t.step(hupai.Action("bid", 0, value=3))
    t.step(hupai.Action("escape", 1))
    assert t.done and t.result is not None and t.result["result"] == "escape"
    assert t.result["winners"] == [] and not t.result["exhausted"]
    assert list(t.balances) == t.result["balances"] == [0, -9, 0]
    assert t.ledger["balances"]["house"] == 9
    res = board(t)["result"]
    assert res["balances"] == [0, -9, 0] and not res["exhausted"] and res["places"] == []


@pytest.mark.parametrize("variant", ["gouji", "dingniu", "doudizhu_qq", "doudizhu_contest"])
def test_decision_labels_name_what_the_value_means(variant: str) -> None:
    from hupai.game.session import card_words

    words = card_words(hupai.Variant(variant))
    assert words and len(set(words.values())) == len(words)  # one word per (kind, value)
    labels: set[str] = set()
    for seed in range(3):
        s = PlaySession(variant, human=0, seed=seed, bots="greedy")
        k = 0
        while not s.done and k < 300:
            b = s.board()
            for x in b["legal"]:
                labels.add(x["label"])
                if (x["kind"], x["value"]) in words:  # the label says the word, never the number
                    assert x["label"].startswith(words[(x["kind"], x["value"])]), x
                    assert str(x["value"]) not in x["label"].split(), x
            # the legal actions of one decision have different labels (顶牛's two ends, 亮牌 / 不亮)
            assert len({x["label"] for x in b["legal"]}) == len(b["legal"]), [x["label"] for x in b["legal"]]
            s.act(k % len(b["legal"]))
            k += 1
    assert labels


def test_gouji_decision_words_follow_the_core_action_ids() -> None:
    from hupai import gouji
    from hupai.game.session import card_words

    words = card_words(hupai.Variant("gouji"))
    by_id = {v: w for (_, v), w in words.items()}
    assert {gouji.decode_action(i): by_id[i] for i in range(10)} == {
        "pass": "过", "yield": "让牌", "show": "亮牌", "no_show": "不亮", "revolt": "革命",
        "no_revolt": "不革命", "yaotou": "要头", "wutou": "无头", "xuandian": "宣点", "no_xuandian": "不宣点",
    }
