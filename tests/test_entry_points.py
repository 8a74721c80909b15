"""Every preset through every entry point gives the same ``hupai.Score``.

For each preset ``hupai.variants()`` lists, its example hand (``Variant(id).describe()["example"]``,
the ``[example]`` table of ``presets/<id>.toml``) is scored by ``hupai.score`` (hand string and
keyword flags, and the request dict), ``hupai.batch.score``, ``hupai.score_json``, the CLI
(``hupai score --variant X --json`` and ``--jsonl``), ``POST /v1/score`` and ``POST
/v1/score/batch`` (the Rust fast path, checked equal to the Python handler), and
``hupai.settle_hand`` (a one-win hand record settles to the payments of the score).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import hupai
from hupai.cli import main

PRESETS = [v["id"] for v in hupai.variants()]


def example(preset: str) -> dict[str, Any]:
    ex = hupai.Variant(preset).describe()["example"]
    assert isinstance(ex, dict) and set(ex) <= {"hand", "situation"}, preset
    return ex


def reference(preset: str) -> dict[str, Any]:
    """The example's score as a dict (``hupai.score`` of the request dict)."""
    return hupai.score(example(preset), preset).to_dict()


def test_every_listed_preset_has_an_example_that_wins() -> None:
    assert len(PRESETS) >= 12
    for preset in PRESETS:
        s = hupai.score(example(preset), preset)
        assert isinstance(s, hupai.Score)
        assert s.variant == preset and s.meets_minimum and s.total > 0, preset
        assert s.payments and sum(s.net) == 0, preset  # a 字牌 win without 名堂 has no fans
        if hupai.Variant(preset).input in ("tiles", "zipai"):  # a card game may have no decomposition
            assert s.decomposition is not None and {"form", "sets", "pair", "pairs"} <= set(s.decomposition)


@pytest.mark.parametrize("preset", PRESETS)
def test_hand_string_with_keyword_flags(preset: str) -> None:
    ex = example(preset)
    s = hupai.score(ex["hand"], preset, **ex.get("situation", {}))
    assert isinstance(s, hupai.Score)
    assert s.to_dict() == reference(preset)
    # and through a Variant object
    assert hupai.score(ex["hand"], hupai.Variant(preset), **ex.get("situation", {})).to_dict() == reference(preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_batch_score(preset: str) -> None:
    ex = example(preset)
    out = hupai.batch.score([ex, ex], preset)
    assert [r.to_dict() for r in out if isinstance(r, hupai.Score)] == [reference(preset)] * 2
    mixed = hupai.batch.score([{**ex, "variant": preset}, {**ex, "variant": preset, "id": 3}])
    assert [r.to_dict() for r in mixed if isinstance(r, hupai.Score)] == [reference(preset)] * 2


@pytest.mark.parametrize("preset", PRESETS)
def test_score_json(preset: str) -> None:
    out = hupai.score_json({**example(preset), "variant": preset, "id": "x"})
    assert out == {**reference(preset), "id": "x"}
    assert json.loads(hupai.score(example(preset), preset).to_json()) == reference(preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_cli_json(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    ex = example(preset)
    argv = ["score", ex["hand"], "--variant", preset, "--situation", json.dumps(ex.get("situation", {})), "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == reference(preset)
    # the table names the preset, its total and every fan
    assert main(argv[:-1]) == 0
    table = capsys.readouterr().out
    assert preset in table and all(f["zh"] in table for f in reference(preset)["fans"])


def test_cli_jsonl_every_preset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({**example(p), "variant": p, "id": p}) + "\n" for p in PRESETS), encoding="utf-8")
    assert main(["score", "--jsonl", str(src)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows == [{"id": p, **reference(p)} for p in PRESETS]


@pytest.fixture(scope="module")
def client() -> Any:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from hupai.server.app import create_app

    return TestClient(create_app())


@pytest.mark.parametrize("preset", PRESETS)
def test_http_score_and_batch(preset: str, client: Any) -> None:
    from fastapi.responses import JSONResponse

    from hupai._core import serve_score, serve_score_batch
    from hupai.server.app import score_many, score_one
    from hupai.server.schemas import ScoreRequest

    body = {**example(preset), "variant": preset, "id": 1}
    r = client.post("/v1/score", json=body)
    assert r.status_code == 200, r.text
    assert r.json() == {**reference(preset), "id": 1}
    # the Rust fast path answers every preset, byte for byte as the Python handler
    fast = serve_score(json.dumps(body).encode())
    assert fast is not None and fast == bytes(JSONResponse(score_one(ScoreRequest.model_validate(body))).body)
    r = client.post("/v1/score/batch", json={"items": [body, {**body, "id": 2}]})
    assert r.status_code == 200, r.text
    assert r.json()["results"] == [{**reference(preset), "id": 1}, {**reference(preset), "id": 2}]
    batch = serve_score_batch(json.dumps({"items": [body]}).encode())
    assert batch is not None and batch == bytes(JSONResponse({"results": score_many([body])}).body)


def test_http_variants_lists_every_preset(client: Any) -> None:
    r = client.get("/v1/variants")
    assert r.status_code == 200
    listed = r.json()
    assert [v["id"] for v in listed] == PRESETS
    assert all(v["input"] in ("tiles", "zipai", "doudizhu", "gouji", "dingniu") for v in listed)


@pytest.mark.parametrize("preset", PRESETS)
def test_settle_hand_of_one_win_equals_the_score_payments(preset: str) -> None:
    """The example as the only event of a hand record (``hupai.settle_hand``) pays what its score
    says (the score's seats: winner ``situation.seat``, else the seat-wind index)."""
    s = hupai.score(example(preset), preset)
    ex = example(preset)
    if hupai.Variant(preset).input not in ("tiles", "zipai"):
        # a card game's hand record is its deals, each in the case form
        seats = [f"s{i}" for i in range(s.players)]
        settled = hupai.settle_hand({"seats": seats, "events": [ex, {**ex, "kind": "deal"}]}, preset)
        assert [settled.balances[name] for name in seats] == [2 * x for x in s.net]
        assert [x.to_dict() for x in settled.scores] == [s.to_dict()] * 2
        return
    situation = {k: v for k, v in ex.get("situation", {}).items() if k not in ("seat", "discarder", "dealer", "players")}
    seats = [f"s{i}" for i in range(s.players)]
    winner = s.payments[0]["payee"]
    win: dict[str, Any] = {"kind": "win", "winner": seats[winner], "hand": ex["hand"], "situation": situation}
    sit = ex.get("situation", {})
    if sit.get("win_type") == "discard" or ("win_type" not in sit and not sit.get("self_drawn")):
        win["discarder"] = seats[sit.get("discarder", (winner + s.players - 1) % s.players)]
    dealer = winner if sit.get("dealer") is True else int(winner == 0)
    settled = hupai.settle_hand({"seats": seats, "dealer": seats[dealer], "events": [win]}, preset)
    assert [settled.balances[name] for name in seats] == s.net
    assert [x.to_dict() for x in settled.scores] == [s.to_dict()]


def test_mcr_is_the_default() -> None:
    s = hupai.score("[EEE,1]123m456p78s99s+9s", self_drawn=True)
    assert s.variant == "mcr" and s.unit == "fan"
    assert s.to_dict() == hupai.score(hupai.Situation.parse("[EEE,1]123m456p78s99s+9s", self_drawn=True), "mcr").to_dict()
    assert s.total == sum(f.value * f.count for f in s.fans)


def test_the_score_shape_is_one_for_every_preset() -> None:
    keys = {tuple(reference(p)) for p in PRESETS}
    assert keys == {
        ("decomposition", "extras", "fans", "meets_minimum", "net", "payments", "per_payer", "raw_total", "total", "unit", "variant")
    }
    fan_keys = {tuple(f) for p in PRESETS for f in reference(p)["fans"]}
    assert fan_keys == {("count", "en", "id", "op", "value", "zh")}
    units = {reference(p)["unit"] for p in PRESETS}
    assert units <= {"fan", "multiplier", "point", "huxi"}


@pytest.mark.parametrize(
    "make",
    [
        lambda: hupai.Situation.parse("[EEE,1]123m456p78s99s+9s", flowers=10**30),
        lambda: hupai.score({"hand": {"concealed": ["1m"], "win_tile": "1m"}, "situation": {"flowers": 10**30}}),
        lambda: hupai.Variant("mcr", min_fan=10**30),
    ],
)
def test_huge_integers_are_typed_errors(make: Any) -> None:
    with pytest.raises(hupai.HupaiError, match="out of range"):
        make()
