"""The service's Rust hot path (``hupai._core.serve_score`` / ``serve_score_batch``) against the
Python handlers: byte-identical 200 answers, and ``None`` (so the Python handler answers) for
everything that is not plainly valid."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.responses import JSONResponse  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from hupai._core import serve_score, serve_score_batch, serve_shanten, serve_waits  # noqa: E402
from hupai.server.app import ApiError, create_app, score_many, score_one, shanten_one, waits_one  # noqa: E402
from hupai.server.schemas import HandQuery, ScoreRequest  # noqa: E402

WIN = "[EEE,1]123m456p78s99s+9s"


def _two_suits(case: dict[str, Any]) -> bool:
    h = case["hand"]
    tiles = list(h["concealed"]) + [h["win_tile"]] + [t for m in h.get("melds", []) for t in m["tiles"]]
    if any(len(t) != 2 for t in tiles) or any(m.get("type") == "chow" for m in h.get("melds", [])):
        return False
    return len({t[1] for t in tiles}) <= 2


@pytest.fixture(scope="module")
def bodies(shared: Path) -> list[dict[str, Any]]:
    """The bench's hand mix: every mcr_dev case as MCR, the two-suit honour-free ones as 四川,
    with ids, string hands and extra keys mixed in."""
    out: list[dict[str, Any]] = []
    for k, line in enumerate((shared / "cases" / "mcr_dev.jsonl").read_text(encoding="utf-8").splitlines()):
        case = json.loads(line)
        body: dict[str, Any] = {"variant": "mcr", "hand": case["hand"], "situation": case.get("situation") or {}}
        if k % 3 == 0:
            body["id"] = k
        elif k % 3 == 1:
            body["id"] = f"c{k}"
        out.append(body)
        if _two_suits(case):
            win = "self_draw" if body["situation"].get("self_drawn") else "discard"
            out.append({"variant": "sichuan", "hand": case["hand"], "situation": {"win_type": win}})
    return out


def _slow(body: Any) -> bytes | None:
    """The Python handler's 200 answer, or None when it answers 4xx."""
    try:
        return bytes(JSONResponse(score_one(ScoreRequest.model_validate(body))).body)
    except (ApiError, ValueError):
        return None


def test_fast_path_equals_python_handler_on_the_hand_mix(bodies: list[dict[str, Any]]) -> None:
    fast_answers = 0
    for i, body in enumerate(bodies):
        slow = _slow(body)
        fast = serve_score(json.dumps(body, ensure_ascii=False).encode())
        if slow is None:
            assert fast is None, (i, body)
        else:
            assert fast == slow, (i, body, fast, slow)
            fast_answers += 1
    # the mix is nearly all valid: the hot path must take it
    assert fast_answers > 0.9 * len(bodies)


def test_fast_batch_equals_python_handler(bodies: list[dict[str, Any]]) -> None:
    valid = [b for b in bodies if _slow(b) is not None]
    for start in range(0, len(valid), 97):
        items = valid[start : start + 97]
        fast = serve_score_batch(json.dumps({"items": items}).encode())
        assert fast == bytes(JSONResponse({"results": score_many(items)}).body)
    assert serve_score_batch(b'{"items": []}') == b'{"results":[]}'


@pytest.mark.parametrize(
    "body",
    [
        {"hand": {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5s"], "melds": [{"type": "pung", "tiles": ["E"] * 3, "offer": 1}], "win_tile": "5s"}},
        {"hand": {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "5s"], "win_tile": "5s"}},
        {"hand": WIN, "id": None},
        {"hand": WIN, "options": {}},
        {"hand": WIN, "options": {"min_fan": 12}},
        {"hand": WIN, "variant": "sichuan", "options": {"mode": "xueliu"}, "situation": {"self_drawn": True}} | {"hand": "[5555s][888s,1]2223339s+9s"},
        {"variant": "zipai_guilin", "hand": "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10", "id": 7,
         "situation": {"win_card": "x8", "melds": ["chi:d1d2d3", "peng:x5x5x5"], "seat": 1, "discarder": 2}},
        {"hand": WIN, "variant": "mcr", "situation": {"flowers": 2, "self_drawn": True}},
        {"hand": "123m456p789s1115z+5z", "id": "x\"\\\n中"},
    ],
)
def test_fast_path_answers_valid_variations(body: dict[str, Any]) -> None:
    fast = serve_score(json.dumps(body).encode())
    assert fast is not None and fast == _slow(body)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"hand": ',  # bad JSON
        b"[1, 2]",
        b'{"hand": "12m"}',  # engine error
        b'{"hand": "[EEE,1]123m456p78s99s+9s", "extra": 1}',
        b'{"hand": "[EEE,1]123m456p78s99s+9s", "options": {"min_fan": 1.5}}',
        b'{"hand": "[EEE,1]123m456p78s99s+9s", "options": {"nope": 1}}',
        b'{"hand": "[EEE,1]123m456p78s99s+9s", "situation": {"flowers": 1.0}}',
        b'{"hand": "[EEE,1]123m456p78s99s+9s", "situation": {"flowers": 100000000000000000000}}',
        b'{"hand": "[EEE,1]123m456p78s99s+9s", "id": 1.5}',
        b'{"hand": "[EEE,1]123m456p78s99s+9s", "id": true}',
        b'{"hand": {"concealed": ["1m"], "win_tile": null}}',
        b'{"hand": {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "5s"], "win_tile": "5s", "note": 1}}',
        b'{"hand": "[EEE,1]123m456p78s99s+9s", "variant": "zipai_guilin"}',
        b'{"hand": "[EEE,1]123m456p78s99s+9s", "variant": "kawuxing"}',
        b'{"hand": "' + b"1" * 201 + b'"}',
        b'\xef\xbb\xbf{"hand": "[EEE,1]123m456p78s99s+9s"}',
    ],
)
def test_fast_path_declines_what_is_not_plainly_valid(raw: bytes) -> None:
    assert serve_score(raw) is None
    assert serve_score_batch(b'{"items": [' + raw + b"]}") is None


def test_client_gets_the_same_answer_through_either_path() -> None:
    client = TestClient(create_app())
    body = {"hand": WIN, "situation": {"seat_wind": "S"}, "id": 3}
    fast = client.post("/v1/score", json=body)
    assert fast.status_code == 200 and fast.headers["content-type"] == "application/json"
    assert fast.content == _slow(body)
    # a non-JSON content type is not the hot path's: FastAPI refuses it as before
    r = client.post("/v1/score", content=json.dumps(body), headers={"content-type": "text/plain"})
    assert r.status_code == 422
    r = client.post("/v1/score", content=json.dumps(body), headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 200 and r.content == fast.content
    # two content types: the first one counts, on either path
    raw = json.dumps(body).encode()
    headers = [(b"content-type", b"text/plain"), (b"content-type", b"application/json")]
    assert _asgi_post(create_app(), "/v1/score", raw, headers)[0] == 422
    headers.reverse()
    assert _asgi_post(create_app(), "/v1/score", raw, headers) == (200, fast.content)


def _asgi_post(app: Any, path: str, body: bytes, headers: list[tuple[bytes, bytes]]) -> tuple[int, bytes]:
    """POST straight through the ASGI interface (raw header list, repeated names allowed)."""
    import asyncio

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(msg: dict[str, Any]) -> None:
        sent.append(msg)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(b"host", b"test"), *headers], "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
    }  # fmt: skip
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_big_batch_goes_through_the_worker_thread_with_the_same_answer() -> None:
    from hupai.server.app import INLINE_BATCH_BYTES

    client = TestClient(create_app())
    items = [{"hand": WIN, "id": i} for i in range(40)]
    raw = json.dumps({"items": items}).encode()
    assert len(raw) > INLINE_BATCH_BYTES
    r = client.post("/v1/score/batch", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.content == serve_score_batch(raw)
    assert [x["id"] for x in r.json()["results"]] == list(range(40))


def test_serve_defaults_are_for_throughput() -> None:
    from hupai.cli import build_parser, default_workers

    args = build_parser().parse_args(["serve"])
    assert args.workers is None and default_workers() >= 1
    assert args.access_log is False and args.keep_alive == 5


def _slow_analysis(fn: Any, body: Any) -> bytes | None:
    try:
        return bytes(JSONResponse(fn(HandQuery.model_validate(body))).body)
    except (ApiError, ValueError):
        return None


def test_fast_waits_and_shanten_equal_python_handlers(bodies: list[dict[str, Any]]) -> None:
    import hupai

    queries: list[dict[str, Any]] = []
    for k, b in enumerate(bodies[::4]):
        h = b["hand"]
        if not isinstance(h, dict):
            continue
        hand = hupai.format_tiles(hupai.parse_tiles(h["concealed"]))
        q: dict[str, Any] = {"hand": hand, "variant": b["variant"]}
        if k % 5 == 1:
            q["wildcards"] = 1
        if k % 7 == 2:
            q["shapes"] = ["standard", "seven_pairs"]
        queries.append(q)
        queries.append({**q, "hand": hand + h["win_tile"]})
    queries += [
        {"hand": "1112345678999m"},
        {"hand": "1112345678999m", "melds": [], "shapes": None},
        {"hand": "19m19p19sESWNCFP", "variant": "mcr"},
        {"hand": "1122334455667m", "variant": "sichuan"},
        {"hand": "123m456p789sEEECS"},
    ]
    answered = 0
    for q in queries:
        raw = json.dumps(q).encode()
        for fast_fn, slow_fn in ((serve_waits, waits_one), (serve_shanten, shanten_one)):
            slow = _slow_analysis(slow_fn, q)
            fast = fast_fn(raw)
            if slow is None:
                assert fast is None, q
            else:
                assert fast == slow, (q, fast, slow)
                answered += 1
    assert answered > len(queries)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"hand": ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m"]}',
        b'{"hand": "d8d8d8 x2x7x10", "variant": "zipai_guilin"}',
        b'{"hand": "123m", "melds": ["peng:x5x5x5"]}',
        b'{"hand": "123m", "wildcards": 9}',
        b'{"hand": "123m", "wildcards": 1.0}',
        b'{"hand": "123m", "shapes": ["bogus"]}',
        b'{"hand": "12"}',
        b'{"hand": "1112345678999m", "extra": 1}',
        b'{"hand": "1112345678999m", "variant": "nope"}',
    ],
)
def test_fast_analysis_declines_what_is_not_plainly_valid(raw: bytes) -> None:
    assert serve_waits(raw) is None and serve_shanten(raw) is None
