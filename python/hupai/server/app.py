"""The hupai scoring service: versioned JSON endpoints and the fan calculator page.

``create_app()`` returns an ASGI app (FastAPI). Run it with ``hupai serve`` or any ASGI server::

    uvicorn --factory hupai.server.app:create_app

Endpoints (OpenAPI at ``/openapi.json``; Swagger UI at ``/docs`` and ReDoc at ``/redoc``, their
assets served from the installed ``fastapi-offline`` package, no CDN): ``POST /v1/score``, ``POST
/v1/score/batch``, ``POST /v1/waits``, ``POST /v1/shanten``, ``POST /v1/parse``, ``POST /v1/analyse`` (the card games' analyser), ``GET
/v1/variants``, ``GET /healthz`` and the calculator page at ``GET /`` (favicon ``/favicon.ico``). Every rule decision is the Rust core's (through ``hupai``); this module
only translates JSON. Invalid input answers 4xx with ``{"error", "field", "message"}``: 400 for a
body that is not JSON, 413 for a body over ``MAX_BODY`` bytes or a batch over ``MAX_BATCH`` items,
422 for anything the models or the engine reject.

Hot path: ``POST /v1/score``, ``/v1/score/batch``, ``/v1/waits`` and ``/v1/shanten`` are answered
by ONE call into Rust (``hupai._core.serve_score`` / ``serve_score_batch`` / ``serve_waits`` /
``serve_shanten``: raw body bytes in, response bytes out, GIL released) before FastAPI routing,
pydantic and the middleware stack. Rust answers only requests
that are plainly valid, under every preset, and returns ``None`` for anything else (bad JSON,
unknown keys, floats, any engine error); those go through the FastAPI handlers below,
which remain the one place where validation errors are worded. Both paths give byte-identical
200 answers (``tests/test_server.py`` checks it over the bench's hand mix).

Blocking: one hand is scored in a few microseconds, far less than a thread hand-off costs, so
``/v1/score``, ``/v1/waits`` and ``/v1/shanten`` run inline; a batch body over
``INLINE_BATCH_BYTES`` (≈ 3 hands) runs in a worker thread so it never stalls the event loop
(see the README service section for the figures). Handlers return their JSON directly (the
response models document the shape; they are not re-validated).
"""

from __future__ import annotations

import functools
import json
import re
from http import HTTPStatus
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import hupai
import hupai.batch
from hupai._core import serve_score, serve_score_batch, serve_shanten, serve_waits
import hupai.zipai
from hupai.server.schemas import (
    ERROR_RESPONSES,
    AnalyseRequest,
    AnalyseResult,
    MAX_BATCH,
    MAX_BODY,
    BatchRequest,
    BatchResult,
    ErrorBody,
    HandIn,
    HandQuery,
    Health,
    ParseRequest,
    ParseResult,
    ScoreRequest,
    ScoreResult,
    ShantenResult,
    WaitsResult,
)

STATIC = Path(__file__).with_name("static")


def _docs_assets() -> Path | None:
    """The directory of the Swagger UI and ReDoc bundles shipped by ``fastapi-offline`` (a
    dependency of the ``server`` extra), or ``None`` when it is not installed."""
    try:
        import fastapi_offline
    except ImportError:
        return None
    d = Path(fastapi_offline.__file__).with_name("static")
    return d if (d / "swagger-ui-bundle.js").is_file() else None


class ApiError(Exception):
    """A 4xx answer: ``status``, the exception name, the offending field and a message."""

    def __init__(self, status: int, error: str, field: str, message: str) -> None:
        super().__init__(message)
        self.status, self.error, self.field, self.message = status, error, field, message


def _error_response(
    status: int, error: str, field: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = ErrorBody(error=error, field=field, message=message)
    return JSONResponse(body.model_dump(), status_code=status, headers=headers)


# ---------------------------------------------------------------------------------------------
# body size limit (pure ASGI, so it also covers chunked bodies without Content-Length)


class BodyLimit:
    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = False
                if too_big:
                    await self._refuse(scope, receive, send)
                    return
        # Read the whole body first (it is small by contract), refusing as soon as it is too big;
        # then replay it to the app.
        chunks: list[bytes] = []
        seen = 0
        more = True
        while more:
            msg = await receive()
            if msg["type"] != "http.request":
                return  # client went away
            chunk = msg.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            more = msg.get("more_body", False)
        body = b"".join(chunks)
        await self.app(scope, _replay(body, receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        await _refuse(scope, receive, send, self.limit)


# ---------------------------------------------------------------------------------------------
# the hot path: one Rust call per request, before FastAPI

#: Batch bodies up to this many bytes are scored inline, bigger ones in a worker thread. A hand
#: costs half to two thirds of a thread hand-off (``anyio.to_thread.run_sync``) in ``serve_score``,
#: so a single hand runs inline; 1 KiB is ≈ 3 hands (the bench's bodies average 360 bytes), one to
#: two hand-offs of work — beyond that the event loop would stall longer than moving the work costs.
INLINE_BATCH_BYTES = 1024

_JSON_HEADERS = [(b"content-type", b"application/json")]
_FAST_PATHS = {
    "/v1/score": serve_score,
    "/v1/score/batch": serve_score_batch,
    "/v1/waits": serve_waits,
    "/v1/shanten": serve_shanten,
}


def _is_json(content_type: bytes) -> bool:
    return content_type.split(b";", 1)[0].strip().lower() == b"application/json"


class ScoringApp(FastAPI):
    """FastAPI with the Rust hot path in front (see the module docstring)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        fast = _FAST_PATHS.get(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        if fast is None:
            await super().__call__(scope, receive, send)
            return
        content_type: bytes | None = None
        for name, value in scope["headers"]:
            if name == b"content-type":
                if content_type is None:  # the first one, as Starlette reads it
                    content_type = value
            elif name == b"content-length":
                try:
                    too_big = int(value) > MAX_BODY
                except ValueError:
                    too_big = False
                if too_big:
                    await _refuse(scope, receive, send, MAX_BODY)
                    return
        msg = await receive()
        if msg["type"] != "http.request":
            return  # client went away
        body: bytes = msg.get("body", b"")
        if msg.get("more_body", False):
            chunks = [body]
            seen = len(body)
            while True:
                msg = await receive()
                if msg["type"] != "http.request":
                    return
                chunk = msg.get("body", b"")
                seen += len(chunk)
                if seen > MAX_BODY:
                    await _refuse(scope, receive, send, MAX_BODY)
                    return
                chunks.append(chunk)
                if not msg.get("more_body", False):
                    break
            body = b"".join(chunks)
        elif len(body) > MAX_BODY:
            await _refuse(scope, receive, send, MAX_BODY)
            return
        out = None
        if content_type is not None and _is_json(content_type):
            if fast is not serve_score_batch or len(body) <= INLINE_BATCH_BYTES:
                out = fast(body)
            else:
                out = await anyio.to_thread.run_sync(fast, body)
        if out is not None:
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [*_JSON_HEADERS, (b"content-length", str(len(out)).encode())],
                }
            )
            await send({"type": "http.response.body", "body": out})
            return
        await super().__call__(scope, _replay(body, receive), send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the already read ``body`` over once, then defers to ``receive``."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _refuse(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
    resp = _error_response(413, "PayloadTooLarge", "body", f"request body over {limit} bytes")
    await resp(scope, receive, send)


# ---------------------------------------------------------------------------------------------
# the work (plain functions; run in a worker thread)


@functools.lru_cache(maxsize=1)
def _variants() -> list[dict[str, Any]]:
    return hupai.variants()


def palette(variant: hupai.Variant) -> dict[str, list[str]]:
    """The pieces a hand of ``variant`` is made of, from the core: ``tiles`` (each kind once, in the
    core's order; for 字牌 the cards) and ``flowers`` (the flower tiles of its tile set, else empty).
    Presets whose input is neither tiles nor cards get empty lists."""
    if variant.input == "zipai":
        cards = len(hupai.zipai.to_counts([]))
        return {"tiles": [str(hupai.zipai.Card.from_index(i)) for i in range(cards)], "flowers": []}
    if variant.input != "tiles":
        return {"tiles": [], "flowers": []}
    kinds = sorted(set(variant.tile_set()))
    tiles = [hupai.Tile.from_index(i) for i in kinds]
    return {
        "tiles": [str(t) for t in tiles if not t.is_flower],
        "flowers": [str(t) for t in tiles if t.is_flower],
    }


@functools.lru_cache(maxsize=256)
def _variant(variant: str, options_json: str) -> hupai.Variant:
    return hupai.Variant(variant, **json.loads(options_json))


def _engine_error(e: hupai.HupaiError, field: str) -> ApiError:
    kind = type(e).__name__
    if isinstance(e, hupai.RuleConfigError) and field == "hand":
        field = "options"
    return ApiError(422, kind, field, str(e))


#: Integers beyond this are refused before they reach the engine (JSON's safe integer range).
MAX_INT = 2**53


def _check_ints(value: Any, path: str) -> None:
    """Refuse out-of-range integers anywhere in ``value`` with the path of the first one."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise ApiError(422, "ValidationError", path, f"integer {value} out of range (|n| <= 2**53)")
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ApiError(422, "ValidationError", path, "NaN and infinities are not numbers here")
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_ints(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_ints(v, f"{path}[{i}]")


def _checked_variant(req: ScoreRequest) -> hupai.Variant:
    """The compiled variant of a request after its integers are checked (ApiError if bad)."""
    _check_ints(req.options, "options")
    _check_ints(req.situation, "situation")
    if isinstance(req.hand, HandIn):
        _check_ints(req.hand.model_dump(), "hand")
    try:
        v = _variant(req.variant, json.dumps(req.options, sort_keys=True))
    except (hupai.HupaiError, TypeError, OverflowError) as e:
        if not isinstance(e, hupai.HupaiError):
            raise ApiError(422, "RuleConfigError", "options", f"invalid switch value: {e}") from None
        raise _engine_error(e, "options" if req.options else "variant") from None
    return v


def _request(req: ScoreRequest) -> dict[str, Any]:
    """The request as ``hupai.score_json`` / ``hupai.batch.score`` read it."""
    hand: Any = req.hand if isinstance(req.hand, str) else req.hand.model_dump(exclude_none=True)
    out: dict[str, Any] = {"variant": req.variant, "hand": hand, "situation": req.situation}
    if req.options:
        out["options"] = req.options
    if req.id is not None:
        out["id"] = req.id
    return out


def _scoring_error(e: Exception) -> ApiError:
    if isinstance(e, hupai.HupaiError):
        return _engine_error(e, "situation" if _mentions_situation(e) else "hand")
    return ApiError(422, "InvalidHandError", "situation", f"invalid situation: {e}")


def score_one(req: ScoreRequest) -> dict[str, Any]:
    """Score one request under any preset (raises ApiError on bad input): ``hupai.score_json``."""
    _checked_variant(req)
    try:
        out: dict[str, Any] = hupai.score_json(_request(req))
    except (hupai.HupaiError, TypeError, KeyError, OverflowError) as e:
        raise _scoring_error(e) from None
    return out


def _is_field(part: Any) -> bool:
    return isinstance(part, int) or (isinstance(part, str) and part.replace("_", "").isalnum() and part.islower())


def _loc(part: Any) -> str:
    return f"[{part}]" if isinstance(part, int) else str(part)


def _mentions_situation(e: Exception) -> bool:
    msg = str(e)
    return "situation" in msg and "hand" not in msg.split("situation")[0][-12:]


def score_many(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Score a batch in input order: the valid items in one ``hupai.batch.score`` call (parallel,
    GIL released), each an ``{error, field, message}`` object otherwise."""
    out: list[dict[str, Any] | None] = [None] * len(items)
    jobs: list[tuple[int, ScoreRequest]] = []
    for i, item in enumerate(items):
        try:
            req = ScoreRequest.model_validate(item)
            _checked_variant(req)
            jobs.append((i, req))
        except ApiError as e:
            out[i] = {"error": e.error, "field": f"items[{i}].{e.field}", "message": e.message}
        except ValueError as e:  # pydantic.ValidationError is a ValueError
            out[i] = {"error": "ValidationError", "field": f"items[{i}]", "message": str(e)}
    try:
        results = hupai.batch.score([_request(req) for _, req in jobs])
    except (TypeError, OverflowError) as e:  # defensive: the items were checked above
        results = [{"error": "InvalidHandError", "message": str(e)}] * len(jobs)
    for (i, req), r in zip(jobs, results):
        if isinstance(r, dict):
            field = "situation" if _mentions_situation(Exception(r.get("message", ""))) else "hand"
            out[i] = {"error": r.get("error", "InvalidHandError"), "field": f"items[{i}].{field}", "message": r.get("message", "")}
            continue
        d = r.to_dict()
        if req.id is not None:
            d["id"] = req.id
        out[i] = d
    return [o if o is not None else {"error": "InternalError", "field": "items", "message": "not scored"} for o in out]


def _query_variant(q: HandQuery) -> hupai.Variant:
    try:
        return _variant(q.variant, "{}")
    except hupai.HupaiError as e:
        raise _engine_error(e, "variant") from None


def _analysis_hand(q: HandQuery, v: hupai.Variant) -> tuple[Any, dict[str, Any]]:
    shapes = q.shapes if q.shapes is not None else v.shapes
    return q.hand, {"shapes": shapes, "wildcards": q.wildcards}


def waits_one(q: HandQuery) -> dict[str, Any]:
    v = _query_variant(q)
    if v.input == "zipai":
        try:
            zws = hupai.zipai.waits(q.hand, q.melds, variant=v)
        except hupai.HupaiError as e:
            raise _engine_error(e, "hand") from None
        text = q.hand if isinstance(q.hand, str) else " ".join(q.hand)
        # 字牌 has no shanten in the engine: report the waits only
        return {"hand": text, "waits": [str(c) for c, _ in zws], "shanten": None}
    if q.melds:
        raise ApiError(422, "InvalidHandError", "melds", "melds are for 字牌; write tile-game melds in hand: '[EEE,1]...'")
    hand, opts = _analysis_hand(q, v)
    try:
        h = hupai.format_tiles(hupai.parse_tiles(hand)) if isinstance(hand, list) else hand
        sh = hupai.shanten(h, **opts)
        ws = hupai.waits(h, **opts) if sh == 0 else []
    except hupai.HupaiError as e:
        raise _engine_error(e, "shapes" if isinstance(e, hupai.RuleConfigError) else "hand") from None
    return {"hand": h if isinstance(h, str) else str(h), "waits": list(ws), "shanten": sh}


def shanten_one(q: HandQuery) -> dict[str, Any]:
    v = _query_variant(q)
    if v.shapes is None:
        raise ApiError(422, "RuleConfigError", "variant", f"shanten is defined for mahjong tiles, not the {v.input} of {v.id}")
    hand, opts = _analysis_hand(q, v)
    try:
        h = hupai.format_tiles(hupai.parse_tiles(hand)) if isinstance(hand, list) else hand
        forms = hupai.shanten_forms(h, **opts)
    except hupai.HupaiError as e:
        raise _engine_error(e, "shapes" if isinstance(e, hupai.RuleConfigError) else "hand") from None
    return {"hand": h, "shanten": forms.pop("min"), "forms": forms}


@functools.lru_cache(maxsize=1)
def _variants_listing() -> list[dict[str, Any]]:
    out = []
    for v in _variants():
        variant = hupai.Variant(v["id"])
        d = variant.describe()
        keep = {k: d.get(k) for k in ("switches", "fans", "params", "example", "analyse_example")}
        out.append({**v, **keep, **palette(variant)})
    return out


def _no_docs() -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><title>API docs</title><p>The API docs need the <code>fastapi-offline</code> package "
        "(pip install 'hupai[server]'). The OpenAPI document is at <a href=/openapi.json>/openapi.json</a>.",
        status_code=503,
    )


# ---------------------------------------------------------------------------------------------
# reading a hand for the calculator (POST /v1/parse): every notation decision is the core's

#: The situation keys the calculator's form shows for tile presets; ``self_drawn`` and
#: ``about_kong`` are folded into ``win_type`` by the core's ``Situation``.
FORM_KEYS = ("win_type", "seat_wind", "prevalent_wind", "fourth_tile", "wall_last", "dealer", "flower_tiles")
_FOLDED = ("self_drawn", "about_kong")
#: The 字牌 form: the win type, the declared groups and the winning card.
ZIPAI_FORM_KEYS = ("win_type", "melds", "win_card")

_BRACKET = re.compile(r"\[([^\[\]]*)\]")


def _meld_dict(m: hupai.Meld) -> dict[str, Any]:
    return {"type": m.kind, "tiles": [str(t) for t in m.tiles], "concealed": m.concealed, "offer": m.from_seat}


def _pieces(text: str) -> tuple[list[hupai.Meld], list[hupai.Tile], hupai.Tile | None]:
    """A hand that is not (yet) the full count: each bracket meld, the standing tiles and the tile
    after ``+``, every piece read by the core (``parse_tiles`` / ``Meld``)."""
    melds = []
    for inner in _BRACKET.findall(text):
        tiles, _, offer = inner.partition(",")
        seat = offer.strip()
        if seat and not (seat.isdigit() and len(seat) == 1):
            raise hupai.InvalidHandError(f"meld [{inner}]: the seat after ',' is 1, 2 or 3 (left, across, right)")
        from_seat = int(seat) if seat else 0
        melds.append(hupai.Meld(tiles, concealed=not seat, from_seat=from_seat))
    rest = _BRACKET.sub("", text)
    standing, plus, win = rest.partition("+")
    concealed = hupai.parse_tiles(standing) if standing.strip() else []
    win_tile = None
    if plus:
        ws = hupai.parse_tiles(win)
        if len(ws) != 1:
            raise hupai.InvalidHandError(f"one winning tile after '+', got {win.strip()!r}")
        win_tile = ws[0]
    return melds, concealed, win_tile


def _parse_tiles_hand(text: str, situation: dict[str, Any] | None) -> dict[str, Any]:
    form: dict[str, Any] = {}
    more: dict[str, Any] = {}
    try:
        if "+" in text:
            sit = hupai.Situation.parse(text, **(situation or {}))
            d = sit.to_dict()["hand"]
            out = {
                "concealed": d["concealed"],
                "melds": [{"type": m["type"], "tiles": m["tiles"], "concealed": m["concealed"], "offer": m["offer"]} for m in d["melds"]],
                "win_tile": d["win_tile"],
                "complete": True,
            }
            if situation is not None:
                form = {"win_type": sit.win_type, "seat_wind": sit.seat_wind, "prevalent_wind": sit.prevalent_wind}
        else:
            h = hupai.Hand.parse(text)
            out = {"concealed": [str(t) for t in h.concealed], "melds": [_meld_dict(m) for m in h.melds], "win_tile": None, "complete": True}
    except hupai.HupaiError as e:
        # not the full count (or not a hand yet): read the pieces; a full-size hand keeps the core's error
        try:
            melds, concealed, win_tile = _pieces(text)
        except hupai.HupaiError:
            raise e from None
        if len(concealed) + 3 * len(melds) >= 13:
            raise
        out = {
            "concealed": [str(t) for t in concealed],
            "melds": [_meld_dict(m) for m in melds],
            "win_tile": None if win_tile is None else str(win_tile),
            "complete": False,
        }
    for k, v in (situation or {}).items():
        if k in FORM_KEYS:
            form.setdefault(k, v)
        elif k not in _FOLDED or "win_type" not in form:
            more[k] = v
    out.update(form=form, more=more)
    return out


def _parse_zipai_hand(text: str, situation: dict[str, Any] | None) -> dict[str, Any]:
    melds = []
    for inner in _BRACKET.findall(text):
        kind, sep, cards = inner.partition(":")
        if not sep:
            raise hupai.InvalidHandError(f"字牌 meld [{inner}]: write [type:cards], e.g. [chi:d1d2d3] or [peng:x5x5x5]")
        melds.append({"type": kind.strip(), "tiles": [str(c) for c in hupai.zipai.parse_cards(cards)]})
    rest = _BRACKET.sub("", text)
    standing, plus, win = rest.partition("+")
    concealed = [str(c) for c in hupai.zipai.parse_cards(standing)] if standing.strip() else []
    win_card = None
    if plus:
        ws = hupai.zipai.parse_cards(win)
        if len(ws) != 1:
            raise hupai.InvalidHandError(f"one winning card after '+', got {win.strip()!r}")
        win_card = str(ws[0])
    sit = dict(situation or {})
    for m in sit.pop("melds", None) or []:
        kind, _, cards = str(m).partition(":")
        melds.append({"type": kind, "tiles": [str(c) for c in hupai.zipai.parse_cards(cards)]})
    if win_card is None and sit.get("win_card"):
        win_card = str(hupai.zipai.parse_cards(str(sit["win_card"]))[0])
    sit.pop("win_card", None)
    form = {k: sit.pop(k) for k in ZIPAI_FORM_KEYS if k in sit}
    for m in melds:
        # the group kinds the core reads (吃 / 碰 / 跑 / 提 …): a kind it does not know is refused here
        hupai.zipai.group_huxi(m["type"], "".join(m["tiles"]))
        m["concealed"] = False
    return {"concealed": concealed, "melds": melds, "win_tile": win_card, "complete": False, "form": form, "more": sit}


def parse_one(req: ParseRequest) -> dict[str, Any]:
    """``POST /v1/parse`` (raises ApiError on a hand or situation the core refuses)."""
    v = _query_variant(HandQuery(hand="1m", variant=req.variant))
    if req.situation is not None:
        _check_ints(req.situation, "situation")
    try:
        if v.input == "zipai":
            return _parse_zipai_hand(req.hand, req.situation)
        if v.input == "tiles":
            return _parse_tiles_hand(req.hand, req.situation)
    except hupai.HupaiError as e:
        raise _engine_error(e, "situation" if _mentions_situation(e) else "hand") from None
    except (TypeError, KeyError, OverflowError) as e:
        raise ApiError(422, "InvalidHandError", "situation", f"invalid situation: {e}") from None
    raise ApiError(422, "RuleConfigError", "variant", f"{v.id} takes {v.input}, not a tile hand: write it as POST /v1/score takes it")


# ---------------------------------------------------------------------------------------------
# the card games' analyser (POST /v1/analyse): one core call, ``hupai.analyse``

_ANALYSE_FIELDS = ("against", "play", "hand")


def _analyse_field(e: hupai.HupaiError, req: AnalyseRequest) -> str:
    """The request field an analyser error is about: the core prefixes it (``play: ...``); the
    request's own text is taken out of the message first (a card string may hold any word)."""
    msg = str(e)
    for text in sorted((t for t in (req.hand, req.play, req.against) if t), key=len, reverse=True):
        msg = msg.replace(repr(text)[1:-1], "").replace(text, "")
    msg = msg.replace("invalid hand: ", "")  # the error kind's own prefix
    found = [(msg.find(f"{f}"), f) for f in _ANALYSE_FIELDS if f"{f}: " in msg or msg.startswith(f"{f} ")]
    return min(found)[1] if found else "hand"


def analyse_one(req: AnalyseRequest) -> dict[str, Any]:
    """``POST /v1/analyse`` (raises ApiError on a preset without an analyser or bad cards)."""
    _check_ints(req.options, "options")
    try:
        v = _variant(req.variant, json.dumps(req.options, sort_keys=True))
    except (hupai.HupaiError, TypeError, OverflowError) as e:
        if not isinstance(e, hupai.HupaiError):
            raise ApiError(422, "RuleConfigError", "options", f"invalid switch value: {e}") from None
        raise _engine_error(e, "options" if req.options else "variant") from None
    try:
        out: dict[str, Any] = hupai.analyse(v, req.hand, play=req.play, against=req.against)
    except hupai.RuleConfigError as e:
        raise ApiError(422, "RuleConfigError", "variant", f"{v.id} ({v.input}): {e}") from None
    except hupai.HupaiError as e:
        raise ApiError(422, type(e).__name__, _analyse_field(e, req), str(e)) from None
    return out


# ---------------------------------------------------------------------------------------------
# the app


def create_app() -> FastAPI:
    app = ScoringApp(
        docs_url=None,
        redoc_url=None,
        title="hupai scoring service",
        version=hupai.__version__,
        description=(
            "Scoring, waits and shanten under every preset of hupai.variants() (国标, 四川, the regional "
            "presets, 字牌): one result shape for every preset. "
            f"Errors: 400 malformed JSON, 413 body over {MAX_BODY} bytes or batch over {MAX_BATCH} "
            "items, 422 invalid input; every error body is {error, field, message}."
        ),
    )

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, e: ApiError) -> JSONResponse:
        return _error_response(e.status, e.error, e.field, e.message)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, e: RequestValidationError) -> JSONResponse:
        errs = e.errors()
        first = errs[0] if errs else {"loc": ("body",), "msg": "invalid request", "type": ""}
        status = 400 if first.get("type") == "json_invalid" else 422
        loc = [_loc(p) for p in first.get("loc", ()) if p != "body" and _is_field(p)] or ["body"]
        if status == 400:
            loc = ["body"]
        msg = "; ".join(f"{'.'.join(str(p) for p in x.get('loc', ()))}: {x.get('msg')}" for x in errs[:5])
        field = "".join(p if p.startswith("[") or i == 0 else f".{p}" for i, p in enumerate(loc))
        return _error_response(status, "ValidationError", field, msg)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, e: StarletteHTTPException) -> JSONResponse:
        name = "".join(w.capitalize() for w in str(HTTPStatus(e.status_code).phrase).split())
        # keep the exception's headers: a 405 carries ``Allow`` (RFC 9110 §15.5.6)
        headers = dict(e.headers) if e.headers else None
        return _error_response(e.status_code, name, "body" if e.status_code == 400 else "path", str(e.detail), headers)

    common: dict[str, Any] = {"responses": ERROR_RESPONSES}

    @app.get("/healthz", response_model=Health, tags=["service"])
    async def healthz() -> dict[str, Any]:
        return {"status": "ok", "version": hupai.__version__}

    @app.get("/v1/variants", tags=["rules"])
    async def variants() -> list[dict[str, Any]]:
        """Every preset with ``describe()``: switches, parameters, its fan table, its example
        request (``hand`` + ``situation``, the ``[example]`` of its preset file), and its palette:
        ``tiles`` (each tile kind of its tile set once, or 字牌 cards) and ``flowers`` (its flower
        tiles, empty when it has none)."""
        return _variants_listing()

    @app.post("/v1/parse", response_model=ParseResult, tags=["analysis"], **common)
    async def parse(req: ParseRequest) -> JSONResponse:
        """Read a hand written in any notation the core reads (bracket melds, ``+`` winning tile,
        compact, tenhou, Chinese names, PyMahjongGB codes; 字牌 cards with ``[chi:d1d2d3]`` melds)
        into its parts; with a ``situation``, also the form's view of it (``form``: ``win_type``,
        winds, flags, flowers as the core reads them; ``more``: the other keys)."""
        return JSONResponse(parse_one(req))

    @app.post("/v1/analyse", response_model=AnalyseResult, tags=["analysis"], **common)
    async def analyse(req: AnalyseRequest) -> JSONResponse:
        """The card games' analyser, answered by the game's own rules in the core: 斗地主 — the
        card type of a selection, whether it beats the move on the table, the hand's legal answers
        (or leads) and its best split; 够级 — is this play legal from the hand, does it beat that
        one, is that one a 够级牌, can the hand burn it (and with what); 顶牛 — the placements
        against the line's open ends (else the 扣 choices), or the openings. Tile presets answer
        422 (``RuleConfigError``, field ``variant``): use ``/v1/waits``."""
        return JSONResponse(analyse_one(req))

    @app.post("/v1/score", response_model=ScoreResult, tags=["scoring"], **common)
    async def score(req: ScoreRequest) -> JSONResponse:
        """Score one win under any preset."""
        return JSONResponse(score_one(req))

    @app.post("/v1/score/batch", response_model=BatchResult, tags=["scoring"], **common)
    async def score_batch(req: BatchRequest) -> JSONResponse:
        """Score a batch (at most ``MAX_BATCH`` items, else 413); each result is a score or an
        ``{error, field, message}`` object."""
        if len(req.items) > MAX_BATCH:
            raise ApiError(413, "BatchTooLarge", "items", f"{len(req.items)} items; at most {MAX_BATCH}")
        return JSONResponse({"results": await anyio.to_thread.run_sync(score_many, req.items)})

    @app.post("/v1/waits", response_model=WaitsResult, tags=["analysis"], **common)
    async def waits(q: HandQuery) -> JSONResponse:
        """Shanten and (when ready) the waits of a hand."""
        return JSONResponse(waits_one(q))

    @app.post("/v1/shanten", response_model=ShantenResult, tags=["analysis"], **common)
    async def shanten(q: HandQuery) -> JSONResponse:
        """Shanten overall and per shape."""
        return JSONResponse(shanten_one(q))

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    assets = _docs_assets()
    if assets is not None:
        app.mount("/docs-assets", StaticFiles(directory=assets), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger() -> HTMLResponse:
        if assets is None:
            return _no_docs()
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title=f"{app.title} · Swagger UI",
            swagger_js_url="/docs-assets/swagger-ui-bundle.js",
            swagger_css_url="/docs-assets/swagger-ui.css",
            swagger_favicon_url="/favicon.ico",
        )

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        if assets is None:
            return _no_docs()
        return get_redoc_html(
            openapi_url="/openapi.json",
            title=f"{app.title} · ReDoc",
            redoc_js_url="/docs-assets/redoc.standalone.js",
            redoc_favicon_url="/favicon.ico",
            with_google_fonts=False,
        )

    from hupai.server.play import install as install_play  # the /play and /replay pages

    install_play(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    return app
