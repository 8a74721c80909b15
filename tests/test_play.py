"""A person at the table: ``PlaySession`` / ``board`` / ``replay_steps`` (hupai.game.session),
``Table.advance``, ``replay(log, actions=k)`` and the play / replay endpoints of the service."""

from __future__ import annotations

import json
from typing import Any

import pytest

import hupai
from hupai._core import table_seats
from hupai.game.session import PlaySession, board, replay_steps



def _table_presets() -> list[str]:
    out = []
    for v in hupai.variants():
        try:
            table_seats(hupai.Variant.load(v["id"]))
        except ValueError:
            continue
        out.append(v["id"])
    return out


PRESETS = _table_presets()


def test_every_scoring_preset_but_none_is_missing_from_the_table() -> None:
    assert {"sichuan", "mcr", "zipai_guilin"} <= set(PRESETS)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("pick", ["first", "last"])
def test_a_person_plays_every_preset_to_its_end(preset: str, pick: str) -> None:
    n = table_seats(hupai.Variant.load(preset))
    human = n - 1
    s = PlaySession(preset, human=human, seed=5)
    decisions = 0
    while not s.done:
        b = s.board()
        assert s.table.to_act == human == b["to_act"]
        legal = s.legal
        assert [a["i"] for a in b["legal"]] == list(range(len(legal)))
        assert [a["kind"] for a in b["legal"]] == [a.kind for a in legal]
        # the person sees its own hand, the others' counted
        assert b["seats"][human]["hand"] == s.table.hand(human)
        assert all(d["hand"] is None and d["count"] == len(s.table.hand(d["seat"])) for d in b["seats"] if d["seat"] != human)
        s.act(0 if pick == "first" else len(legal) - 1)
        decisions += 1
        assert decisions < 1000
    b = s.board()
    assert b["done"] and b["legal"] == [] and s.legal == []
    assert b["result"]["balances"] == list(s.table.balances) and sum(s.table.balances) == 0
    # the payments are the ledger's, by seat name, and add up to the balances
    pays = b["result"]["payments"]
    assert all(p["from"] in b["seat_names"] and p["to"] in b["seat_names"] for e in pays for p in e["payments"])
    total = [sum(e["deltas"][k] for e in pays) for k in range(n)]
    assert total == list(s.table.balances)
    # the end reveals every hand; the log replays exactly and holds the person's decisions
    assert all(d["hand"] == s.table.hand(d["seat"]) for d in b["seats"])
    hupai.replay(s.table.log)
    mine = [r for r in s.table.log if r["type"] == "action" and r["seat"] == human]
    assert len(mine) == decisions
    # every piece named on the board has its Chinese name
    named = {p for d in b["seats"] for p in [*d["hand"], *d["discards"], *d["flowers"], *(t for m in d["melds"] for t in m["tiles"])]}
    assert named <= set(b["zh"])
    with pytest.raises(hupai.RuleConfigError, match="over"):
        s.act(0)


def test_same_seed_and_choices_same_hand() -> None:
    def play() -> list[dict[str, Any]]:
        s = PlaySession("mcr", human=2, seed=9, bots="defensive")
        while not s.done:
            s.act(len(s.legal) // 2)
        return s.table.log

    assert play() == play()


def test_bad_sessions_are_refused() -> None:
    with pytest.raises(hupai.RuleConfigError, match="human"):
        PlaySession("sichuan", human=4)
    with pytest.raises(hupai.RuleConfigError, match="unknown bot 'smart'"):
        PlaySession("sichuan", bots="smart")
    with pytest.raises(hupai.RuleConfigError, match="one per seat"):
        PlaySession("sichuan", bots=["greedy", "random"])
    s = PlaySession("sichuan", human=0, seed=1)
    with pytest.raises(hupai.RuleConfigError, match="index"):
        s.act(len(s.legal))
    with pytest.raises(hupai.RuleConfigError, match="index"):
        s.act(-1)


def test_advance_stops_at_the_seat_and_plays_bots_in_the_core() -> None:
    t = hupai.Table("sichuan", seed=4)
    bots: list[Any] = [None, hupai.GreedyBot(1), hupai.GreedyBot(2), hupai.GreedyBot(3)]
    base = len(t.log)  # the start and the deal
    seen: list[dict[str, Any]] = []
    while not t.done:
        evs = t.advance(bots, [0])
        assert t.done or t.to_act == 0
        seen += [e.to_json() for e in evs]
        if not t.done:
            seen += [e.to_json() for e in t.step(t.legal_actions(0)[-1])]
    assert seen == t.log[base:]  # every event came back from advance / step
    with pytest.raises(hupai.RuleConfigError, match="4 agents"):
        hupai.Table("sichuan").advance([None], [0])
    with pytest.raises(hupai.RuleConfigError, match="stop seat"):
        hupai.Table("sichuan").advance([None] * 4, [4])


def test_replay_prefix_is_the_table_after_k_decisions() -> None:
    t = hupai.Table("hebei", seed=2)
    t.run([hupai.GreedyBot(k) for k in range(4)])
    actions = [r for r in t.log if r["type"] == "action"]
    u = hupai.replay(t.log, actions=0)
    for k, rec in enumerate(actions[:30]):
        p = hupai.replay(t.log, actions=k)
        assert p.log == u.log and p.hands == u.hands
        u.step(hupai.Action.from_json(rec))
    assert hupai.replay(t.log, actions=len(actions)).log == t.log
    with pytest.raises(hupai.ReplayError, match="decisions"):
        hupai.replay(t.log, actions=len(actions) + 1)
    with pytest.raises(hupai.RuleConfigError, match="actions"):
        hupai.replay(t.log, actions=-1)


@pytest.mark.parametrize("preset", ["sichuan", "mcr", "zipai_hunan", "kawuxing", "erren"])
def test_replay_steps_follow_the_log(preset: str) -> None:
    t = hupai.Table(preset, seed=3)
    t.run([hupai.GreedyBot(k) for k in range(t.n)])
    steps = replay_steps(t.log)
    actions = [r for r in t.log if r["type"] == "action"]
    assert steps[0]["actions"] == 0 and steps[-1]["actions"] == len(actions)
    assert len(steps) == 2 + sum(1 for r in actions[:-1] if r["kind"] != "pass")
    assert [s["actions"] for s in steps] == sorted(s["actions"] for s in steps)
    last = steps[-1]
    assert last["done"] and last["result"]["balances"] == list(t.balances)
    assert [d["hand"] for d in last["seats"]] == [t.hand(s) for s in range(t.n)]
    # every step shows every hand, and is the core's table after that many decisions
    for st in steps[:: max(1, len(steps) // 6)]:
        u = hupai.replay(t.log, actions=st["actions"])
        assert [d["hand"] for d in st["seats"]] == [u.hand(s) for s in range(t.n)]
        assert st["record"] == len(u.log) - 1
    assert board(t, None, reveal=True)["seats"][0]["hand"] == t.hand(0)


def test_replay_steps_refuse_a_tampered_log() -> None:
    t = hupai.Table("sichuan", seed=3)
    t.run([hupai.GreedyBot(k) for k in range(4)])
    log = json.loads(json.dumps(t.log))
    i = next(k for k, r in enumerate(log) if r["type"] == "action" and r["kind"] == "discard")
    log[i]["tile"] = "9m" if log[i]["tile"] != "9m" else "1m"
    with pytest.raises(hupai.ReplayError):
        replay_steps(log)


# ---------------------------------------------------------------------------------------------
# the service

fastapi = pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from hupai.server import play as play_mod  # noqa: E402
from hupai.server.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _play_out(client: TestClient, game: dict[str, Any], key: str, forget: bool = False) -> dict[str, Any]:
    r = client.post("/v1/play/act", json={"id": key, "game": game, "choice": 0})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    while not out["board"]["done"]:
        if forget:
            play_mod.STORE.items.clear()  # another worker / an expired table: rebuilt from `game`
        legal = out["board"]["legal"]
        pick = next((a["i"] for a in legal if a["kind"] == "win"), len(legal) - 1)
        r = client.post("/v1/play/act", json={"id": out["id"], "game": out["game"], "choice": pick})
        assert r.status_code == 200, r.text
        out = r.json()
    return out


@pytest.mark.parametrize("forget", [False, True])
def test_play_over_http_to_the_end(client: TestClient, forget: bool) -> None:
    r = client.post("/v1/play", json={"variant": "sichuan", "seat": 1, "seed": 12})
    assert r.status_code == 200, r.text
    first = r.json()
    assert first["board"]["to_act"] == 1 and first["board"]["legal"]
    assert first["game"] == {"variant": "sichuan", "options": {}, "seed": 12, "seat": 1, "bots": "greedy", "dealer": 0, "history": []}
    out = _play_out(client, first["game"], first["id"], forget)
    log = out["log"]
    t = hupai.replay(log)
    assert out["board"]["result"]["balances"] == list(t.balances)
    assert len(out["game"]["history"]) == sum(1 for r in log if r["type"] == "action" and r["seat"] == 1)
    # the same game from its description gives the same hand
    again = _play_out(client, first["game"], "", True) if not forget else out
    assert again["log"] == log


def test_play_requests_are_checked(client: TestClient) -> None:
    r = client.post("/v1/play", json={"variant": "nope"})
    assert r.status_code == 422 and r.json()["field"] == "variant"
    r = client.post("/v1/play", json={"variant": "sichuan", "colour": "red"})
    assert r.status_code == 422
    r = client.post("/v1/play", json={"variant": "sichuan", "seat": 5})
    assert r.status_code == 422 and r.json()["field"] == "seat"
    r = client.post("/v1/play", json={"variant": "sichuan", "bots": "smart"})
    assert r.status_code == 422 and r.json()["field"] == "bots"
    r = client.post("/v1/play", json={"variant": "sichuan", "options": {"mode": "nonsense"}})
    assert r.status_code == 422 and r.json()["field"] == "options"
    ok = client.post("/v1/play", json={"variant": "mcr", "seed": 1}).json()
    r = client.post("/v1/play/act", json={"id": ok["id"], "game": ok["game"], "choice": 99})
    assert r.status_code == 422 and r.json()["field"] == "choice"
    bad = {**ok["game"], "history": [99]}
    r = client.post("/v1/play/act", json={"id": "", "game": bad, "choice": 0})
    assert r.status_code == 422 and "history[0]" in r.json()["message"]


def test_sessions_are_bounded_and_expire(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play_mod, "MAX_SESSIONS", 3)
    play_mod.STORE.items.clear()
    ids = [client.post("/v1/play", json={"variant": "sichuan", "seed": k}).json()["id"] for k in range(5)]
    assert list(play_mod.STORE.items) == ids[2:]
    monkeypatch.setattr(play_mod, "SESSION_TTL", -1.0)
    play_mod.STORE.expire()
    assert not play_mod.STORE.items


def test_replay_endpoint(client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    t = hupai.Table("zipai_guilin", seed=6)
    t.run([hupai.GreedyBot(k) for k in range(3)])
    jsonl = "\n".join(json.dumps(r, ensure_ascii=False) for r in t.log) + "\n"
    for body in (jsonl, json.dumps(t.log)):
        r = client.post("/v1/replay", content=body.encode(), headers={"content-type": "text/plain"})
        assert r.status_code == 200, r.text
        steps = r.json()["steps"]
        assert steps[-1]["result"]["balances"] == list(t.balances)
    for bad in ("", "{", '{"type": "start"}', "[1, 2]"):
        r = client.post("/v1/replay", content=bad.encode())
        assert r.status_code == 422 and r.json()["field"] == "log", bad
    monkeypatch.delenv(play_mod.REPLAY_ENV, raising=False)
    assert client.get("/v1/replay/preloaded").status_code == 404
    path = tmp_path / "g.jsonl"
    path.write_text(jsonl, encoding="utf-8")
    monkeypatch.setenv(play_mod.REPLAY_ENV, str(path))
    r = client.get("/v1/replay/preloaded")
    assert r.status_code == 200 and r.json()["path"] == str(path) and r.json()["steps"][-1]["done"]
    for page in ("/play", "/replay"):
        r = client.get(page)
        assert r.status_code == 200 and "<html" in r.text
    info = client.get("/v1/play/variants").json()
    assert {v["id"] for v in info["variants"]} == set(PRESETS) and "5m" in info["faces"]
    sichuan = next(v for v in info["variants"] if v["id"] == "sichuan")
    assert {"huan_san_zhang", "ding_que", "mode"} <= {sw["name"] for sw in sichuan["switches"]}
    # a switch chosen on the page is played
    r = client.post("/v1/play", json={"variant": "sichuan", "seed": 1, "options": {"huan_san_zhang": True}})
    assert r.status_code == 200 and {a["kind"] for a in r.json()["board"]["legal"]} == {"exchange"}


def test_docs_play_md_examples_run() -> None:
    """The python blocks of docs/play.md run as written."""
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parents[1] / "docs" / "play.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, str(doc), "exec"), {"__name__": "docs"})
