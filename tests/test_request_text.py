"""Requests given as JSON text (``batch.score`` of JSON lines and of dicts, the CLI's ``--jsonl``) are
read without a JSON tree when they can be (``Ruleset::parse_case_text``); everything else goes
through the tree (``hupai.score_json``). The two readings must give the same score, and for an
invalid request the same error, whatever the text: checked here on every MCR reference case under
every tile preset, and on hostile variations of requests."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hupai
import hupai.batch

SHARED = Path(os.environ.get("HUPAI_SHARED", Path(__file__).resolve().parents[2] / "shared"))
if not (SHARED / "cases").exists():
    SHARED = Path("/work/shared")

TILE_PRESETS = [v["id"] for v in hupai.variants() if v["input"] == "tiles"]


def tree(text: str) -> Any:
    """The tree reading: the answer of ``hupai.score_json`` (or its error) as a comparable value."""
    try:
        return hupai.score_json(text)
    except hupai.HupaiError as e:
        return {"error": type(e).__name__, "message": str(e)}


def direct(text: str) -> Any:
    """The text reading of ``batch.score`` (JSON lines), as the same comparable value."""
    (out,) = hupai.batch.score([text], threads=1)
    if isinstance(out, hupai.Score):
        return out.to_dict()
    return out


def same(text: str) -> None:
    a, b = tree(text), direct(text)
    if isinstance(a, dict) and "id" in a and "error" not in a:
        a = {k: v for k, v in a.items() if k != "id"}  # batch.score echoes no id
    assert a == b, text


def mcr_cases() -> list[dict[str, Any]]:
    lines = (SHARED / "cases" / "mcr_dev.jsonl").read_text(encoding="utf-8").splitlines()
    return [{k: c[k] for k in ("hand", "situation") if k in c} for c in map(json.loads, lines)]


def test_tile_presets_are_listed() -> None:
    assert "mcr" in TILE_PRESETS and "sichuan" in TILE_PRESETS and "zipai_guilin" not in TILE_PRESETS


@pytest.mark.parametrize("preset", TILE_PRESETS)
def test_every_reference_case_reads_the_same_under_every_tile_preset(preset: str) -> None:
    cases = mcr_cases()
    assert len(cases) > 1000
    lines = [json.dumps({"variant": preset, **c}) for c in cases]
    got = hupai.batch.score(lines, threads=1)
    scored = 0
    for line, out in zip(lines, got, strict=True):
        want = tree(line)
        if isinstance(out, hupai.Score):
            scored += 1
            assert out.to_dict() == want, line
        else:
            assert out == want, line
    if preset == "mcr":
        assert scored > 1000  # (other presets refuse many of these hands: the errors are compared)


def test_dict_items_read_the_same() -> None:
    cases = mcr_cases()[:300]
    dicts = [{"variant": "mcr", "options": {"flag_policy": "repair"}, **c} for c in cases]
    got = hupai.batch.score(dicts, threads=1)
    for d, out in zip(dicts, got, strict=True):
        want = tree(json.dumps(d))
        assert (out.to_dict() if isinstance(out, hupai.Score) else out) == want


WIN = {"concealed": ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m"], "win_tile": "5m"}


@pytest.mark.parametrize(
    "text",
    [
        '{"hand": "123m456p789s1122z+1z"}',
        '  {"hand" : "123m456p789s1122z+1z" , "situation" : null , "id" : null}  ',
        '{"hand": "123m456p789s1122z+1z", "variant": null, "options": null}',
        '{"hand": "123m456p789s1122z+1z", "id": 5}',
        '{"hand": "123m456p789s1122z+1z", "id": 5.5}',
        '{"hand": "123m456p789s1122z+1z", "id": [1]}',
        '{"hand": "123m456p789s1122z+1z", "hand": "123m456p789s1122z+2z"}',  # duplicate key: the tree keeps the last
        '{"hand": "123m456p789s1122z+1z", "situation": {"self_drawn": true, "self_drawn": false}}',
        '{"hand": "123m456p789s1122z+1z", "situation": []}',
        '{"hand": "123m456p789s1122z+1z", "situation": {"seat_wind": "X"}}',
        '{"hand": "123m456p789s1122z+1z", "variant": "nope"}',
        '{"hand": "123m456p789s1122z+1z", "variant": "sichuan"}',
        '{"hand": "123m456p789s1122z+1z", "variant": "zipai_guilin"}',
        '{"hand": "123m456p789s1122z+1z", "options": {"min_fan": 0}}',
        '{"hand": "123m456p789s1122z+1z", "options": {"nope": 1}}',
        '{"hand": "123m456p789s1122z+1z", "options": 3}',
        '{"hand": "123m456p789s1122z+1z", "x": 1}',
        '{"hand": "123m456p789s1122z"}',
        '{"hand": "\\u0031\\u0032\\u0033m456p789s1122z+1z"}',  # escapes
        '{"hand": null}',
        "{}",
        "[]",
        '"123m456p789s1122z+1z"',
        '{"hand": "123m456p789s1122z+1z"',
        json.dumps({"hand": WIN}),
        json.dumps({"hand": {**WIN, "melds": []}}),
        json.dumps({"hand": {**WIN, "melds": [["pung", "E"]]}}),
        json.dumps({"hand": {**WIN, "concealed": WIN["concealed"][:10], "melds": [{"type": "pung", "tile": "E", "offer": 1}]}}),
        json.dumps({"hand": {**WIN, "concealed": WIN["concealed"][:10], "melds": [{"type": "pung", "tile": "E", "offer": 1, "z": 0}]}}),
        json.dumps({"hand": {**WIN, "win_tile": None}}),
        json.dumps({"hand": [[], WIN["concealed"], "5m"]}),
        json.dumps({"hand": WIN, "situation": {"flowers": 1.0}}),
        json.dumps({"hand": WIN, "situation": {"flowers": 300}}),
    ],
)
def test_edge_requests_read_the_same(text: str) -> None:
    same(text)


# Hostile variations: a valid request whose values are replaced, dropped or duplicated at random.
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 300), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "E", "5m", "x", "mcr", "sichuan", "123m456p789s1122z+1z", "discard", "self_draw"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["type", "tile", "a"]), inner, max_size=2), max_leaves=6)
KEYS = ["variant", "options", "hand", "situation", "id", "hand.concealed", "hand.win_tile", "hand.melds",
        "situation.self_drawn", "situation.seat_wind", "situation.flowers", "situation.win_type", "extra"]


@settings(max_examples=int(os.environ.get("HUPAI_FUZZ_EXAMPLES", "300")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(KEYS), st.one_of(st.just("<drop>"), VALUES)), max_size=3), st.booleans())
def test_hostile_requests_read_the_same(edits: list[tuple[str, Any]], notation: bool) -> None:
    req: dict[str, Any] = {
        "hand": "1m1m1m2m3m4m5m6m7m8m9m9m9m+5m" if notation else json.loads(json.dumps(WIN)),
        "situation": {"self_drawn": True},
    }
    for key, value in edits:
        head, _, tail = key.partition(".")
        target = req
        if tail:
            if not isinstance(req.get(head), dict):
                req[head] = {}
            target, key = req[head], tail
        if value == "<drop>":
            target.pop(key, None)
        else:
            target[key] = value
    same(json.dumps(req))


def test_score_jsonl_answers_are_the_scores_and_errors_with_the_id_first() -> None:
    cases = mcr_cases()[:200]
    lines = [json.dumps({"id": i, **c}) if i % 3 else json.dumps(c) for i, c in enumerate(cases)]
    lines += ["not json", '{"id": [1, 2], "hand": 5}', '{"id": "q", "hand": "123m456p789s1122z+1z", "x": 1}', "[]"]
    answers, failed = hupai.batch.score_jsonl(lines, "mcr")
    assert len(answers) == len(lines)
    for i, (line, answer) in enumerate(zip(lines, answers, strict=True)):
        got = json.loads(answer)
        want = tree(line)
        request = json.loads(line) if line.startswith("{") else None
        if request is not None and request.get("id") is not None:
            assert next(iter(got)) == "id" and got["id"] == request["id"]  # echoed first, even beside an error
            want = {**want, "id": request["id"]}
        assert got == want, line
        assert ("error" in got) == (i in failed)
    assert failed[-4:] == [len(lines) - 4, len(lines) - 3, len(lines) - 2, len(lines) - 1]
    # the same answers from any number of threads
    assert hupai.batch.score_jsonl(lines, "mcr", threads=2) == (answers, failed)


def test_score_jsonl_refuses_what_is_not_text() -> None:
    answers, failed = hupai.batch.score_jsonl([{"hand": "123m456p789s1122z+1z"}])
    assert failed == [0] and "JSON text lines" in json.loads(answers[0])["message"]
