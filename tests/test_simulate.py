"""``hupai.simulate``: built-in bots in the core, the same records for any split into chunks and
workers, Python agents at any seat, per-hand summaries and trajectories (one row per event) to
Parquet / JSON Lines, progress with an ETA, and hostile inputs of the table API."""

from __future__ import annotations

import json
from typing import Any

import pytest

import hupai
from hupai._core import Tables, game_seed, simulate_games
from hupai.game import Action, RandomBot, Table, read_jsonl, replay, simulate


def test_same_records_for_any_chunking_and_workers() -> None:
    a = simulate("sichuan", 300, seed=3, progress=False)
    assert a.agents == ["greedy"] * 4  # greedy is the default
    b = simulate("sichuan", 300, seed=3, workers=2, chunk=37, progress=False)
    assert a.records == b.records
    assert [r["game"] for r in a.records] == list(range(300))
    assert a.records[5]["seed"] == game_seed(3, 5) and a.records[5]["dealer"] == 5 % 4
    assert abs(sum(a.avg_score)) < 1e-9 and a.draw_rate < 0.5  # greedy bots win most hands
    part, _ = simulate_games("sichuan", ["greedy"] * 4, 3, 100, 110)
    assert part == a.records[100:110]


def test_python_agents_plug_into_any_seat() -> None:
    class Counting:
        def __init__(self) -> None:
            self.calls = 0
            self.inner = RandomBot(1)

        def __call__(self, obs: Any, legal: list[Action]) -> Action:
            self.calls += 1
            assert obs.seat in range(4) and legal
            return self.inner(obs, legal)

    agent = Counting()
    r = simulate("mcr", 5, agents=[agent, "greedy", "random", "defensive"], seed=1, progress=False)
    assert r.n_games == 5 and agent.calls > 0 and abs(sum(r.avg_score)) < 1e-9
    # A built-in bot plays the same through Table.run (a Python call per hand) as in the core.
    import importlib

    play_game = importlib.import_module("hupai.game.simulate").play_game
    names = ["greedy", "defensive", "greedy", "greedy"]
    core, _ = simulate_games("mcr", names, 1, 2, 3)
    via_table = play_game(hupai.Variant("mcr"), names, 1, 2)
    assert {k: via_table[k] for k in core[0] if k != "steps"} == {k: v for k, v in core[0].items() if k != "steps"}


def test_summaries_and_trajectories(tmp_path: Any) -> None:
    out, traj = tmp_path / "hands.jsonl", tmp_path / "events.jsonl"
    r = simulate("kawuxing", 20, seed=2, out=out, trajectories=traj, keep_logs=True, progress=False)
    rows = read_jsonl(out)
    assert len(rows) == 20 and rows[0]["game"] == 0 and "log" in rows[0]
    ev = read_jsonl(traj)
    assert {e["game"] for e in ev} == set(range(20))
    first = [e for e in ev if e["game"] == 0]
    assert [e["seq"] for e in first] == list(range(len(first))) and first[0]["type"] == "start"
    log = [json.loads(e["record"]) for e in first]
    assert log == json.loads(r.records[0]["log"])
    assert replay(log).result["balances"] == r.records[0]["balances"]
    acts = [e for e in first if e["type"] == "action"]
    assert acts and all(e["kind"] and e["seat"] >= 0 for e in acts)
    wins = [e for e in ev if e["type"] == "win"]
    assert all(e["value"] is not None and e["tile"] for e in wins)


def test_parquet_outputs(tmp_path: Any) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    simulate("zipai_guilin", 30, seed=1, out=tmp_path / "h.parquet", trajectories=tmp_path / "e.parquet", chunk=7, progress=False)
    assert pq.read_table(tmp_path / "h.parquet").num_rows == 30
    t = pq.read_table(tmp_path / "e.parquet")
    assert t.column_names == ["game", "seq", "type", "seat", "kind", "tile", "tiles", "value", "record"]
    assert set(t.column("game").to_pylist()) == set(range(30))


def test_progress_shows_hands_rate_and_eta(capsys: Any) -> None:
    simulate("sichuan", 600, seed=1, progress=True, chunk=200)
    err = capsys.readouterr().err
    assert "600/600 hands" in err and "hands/s" in err and "ETA" in err


@pytest.mark.parametrize(
    "bad",
    [
        lambda: Table("sichuan", seed="x"),
        lambda: Table("sichuan", seed=True),
        lambda: Table("sichuan", seed=2**200),
        lambda: Table("sichuan", dealer=4),
        lambda: Table("sichuan", dealer=-1),
        lambda: Table("sichuan", prevalent_wind=9),
        lambda: Table("sichuan", carry={"floor": 1}),
        lambda: Table("hebei_draft4", carry={"floor": 3}),
        lambda: Table("hebei_draft4", carry={"upstairs": 1}),
        lambda: Table("shaanxi", carry={"pao_zi": [1, 2]}),
        lambda: Table("shaanxi", carry=[1, 2]),
        lambda: Table("sichuan", wall=["1m"] * 108),
        lambda: Table("sichuan", wall="123m"),
        lambda: Table("nonsense"),
        lambda: Table(hupai.Variant("hebei", wildcard="dai_hun")),
        lambda: Table.zipai_position("zipai_guilin", ["x1", "x2", "x3"], "x5"),  # no start given
        lambda: Table.zipai_position("zipai_guilin", ["x1", "x2"], "x5", draw=0),
        lambda: Table.zipai_position("zipai_guilin", ["x1", "x2", "x3"], "x5", discard=(0, "x9")),
        lambda: Table.zipai_position("sichuan", ["x1", "x2", "x3"], "x5", draw=0),
        lambda: Action("fly", 0),
        lambda: Action("discard", 9, "1m"),
        lambda: Action("discard", 0, "1m", tiles=["x1"]),
        lambda: Action("discard", 0, "zz"),
        lambda: Action.from_json({"kind": "discard", "seat": 0, "tile": "1m", "extra": 1}),
        lambda: Action.from_json({"kind": "discard"}),
        lambda: replay([]),
        lambda: replay([{"type": "start", "variant": "sichuan", "seed": "abc"}]),
        lambda: replay([{"type": "start", "variant": "sichuan", "options": {"mode": 7}}]),
        lambda: replay([{"type": "start", "variant": "sichuan"}, {"type": "action", "kind": "win", "seat": 3}]),
        lambda: simulate("sichuan", -1),
        lambda: simulate("sichuan", 1, workers=0),
        lambda: simulate("sichuan", 1, backend="mpi"),
        lambda: simulate_games("sichuan", ["random"] * 4, 1, 5, 2),
        lambda: Tables("sichuan", [1, 2], dealers=[0]),
        lambda: Tables("sichuan", [1]).step([0, 0]),
    ],
)
def test_hostile_table_inputs_are_typed_errors(bad: Any) -> None:
    with pytest.raises((hupai.HupaiError, TypeError)) as e:
        bad()
    assert not isinstance(e.value, OverflowError) and str(e.value)


def test_a_table_refuses_actions_it_did_not_offer() -> None:
    t = Table("sichuan", seed=1)
    n = len(t.log)
    with pytest.raises(hupai.IllegalActionError, match="not legal"):
        t.step(Action("pung", 0, "1m"))
    with pytest.raises(hupai.IllegalActionError):
        t.set_auto_play(7)
    with pytest.raises(hupai.IllegalActionError):
        t.step(Action("auto_play", 0, value=5))
    with pytest.raises(hupai.IllegalActionError, match="escape"):
        t.escape(0)
    assert len(t.log) == n
    t.step(t.legal_actions()[0])
    with pytest.raises(hupai.RuleConfigError):
        t.set_aside(3)  # only before the first decision
    done = Table("sichuan", seed=1)
    done.run([RandomBot(k) for k in range(4)])
    with pytest.raises(hupai.IllegalActionError, match="over"):
        done.step(Action("discard", 0, "1m"))
    assert done.legal_actions() == [] and done.to_act is None
