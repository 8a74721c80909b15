"""Play a hand in the browser and watch a logged one: the ``/play`` and ``/replay`` pages and their
JSON endpoints (``install(app)`` adds them to the scoring service).

``POST /v1/play`` deals a table (``variant``, ``seat``, ``seed``, ``bots``, ``dealer``, ``options``)
and answers ``{id, game, board}``: the bots have played in the core (``Table.advance``) until the
person's seat must act, ``board`` is what to draw (``hupai.game.session.board``: the person's hand,
every river and meld, the legal actions with labels, the result at the end). ``POST
/v1/play/act`` takes ``{id, game, choice}`` (an index into ``board.legal``) and answers the same
shape plus ``events`` (caption lines since the person's last decision) and, at the end, ``log``
(the JSON records ``hupai replay`` reads).

A game is its description: ``game`` = ``{variant, options, seed, seat, bots, dealer, history}``
with ``history`` the person's choices so far. Live tables are kept in memory by ``id`` (at most
``MAX_SESSIONS``, dropped after ``SESSION_TTL`` seconds idle, the least recently used first);
a request whose table is not in this process — another worker of ``hupai serve``, a restart, an
expired id — rebuilds it from ``game`` (the seed and the choices give the same hand). The core
checks every choice; nothing of the rules is here or in the page's JavaScript.

``POST /v1/replay`` takes a log (JSON Lines text or a JSON array of records), checks it replays
exactly and answers ``{steps}``: the table rebuilt by the core after the deal and after each
decision (``hupai.game.session.replay_steps``). ``GET /v1/replay/preloaded`` answers the log given
to ``hupai replay --serve LOG`` (the ``HUPAI_REPLAY_LOG`` environment variable), 404 without one.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

import hupai
from hupai._core import table_seats
from hupai.server.schemas import ERROR_RESPONSES, ErrorBody
from hupai.game.session import PlaySession, card_names, card_words, event_text, seat_labels

STATIC = Path(__file__).with_name("static")

#: Live tables kept in memory (per process); the least recently used goes first beyond it.
MAX_SESSIONS = 256
#: Seconds a table stays in memory without a request.
SESSION_TTL = 3600.0
#: Decisions a game may hold (a hand has a few hundred at most).
MAX_HISTORY = 4000
#: Environment variable naming the log ``GET /v1/replay/preloaded`` answers.
REPLAY_ENV = "HUPAI_REPLAY_LOG"


class GameSpec(BaseModel):
    """A game: the table's setup and the person's choices so far."""

    model_config = ConfigDict(extra="forbid", strict=True)
    variant: str = Field("sichuan", description="any preset the table plays (hupai.variants())")
    options: dict[str, bool | int | str] = Field(default_factory=dict, description="switch overrides")
    seed: int = Field(0, ge=-(2**53), le=2**53, description="the table's seed (the same seed deals the same wall)")
    seat: int = Field(0, ge=0, le=7, description="the person's seat (0 = 东 / the first seat)")
    bots: str = Field("greedy", description="the bots at the other seats: greedy, defensive or random")
    dealer: int = Field(0, ge=0, le=7, description="the dealer's seat")
    history: list[int] = Field(default_factory=list, max_length=MAX_HISTORY, description="the person's choices (indices into the legal actions)")


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    variant: str = "sichuan"
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    seed: int | None = Field(None, ge=-(2**53), le=2**53, description="none: a random seed")
    seat: int = Field(0, ge=0, le=7)
    bots: str = "greedy"
    dealer: int = Field(0, ge=0, le=7)


class ActRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: str = Field("", max_length=64, description="the id of the live table (may be unknown here)")
    game: GameSpec
    choice: int = Field(..., ge=0, description="an index into board.legal")


class _Store:
    """Live sessions by id: bounded, expiring, least recently used out first."""

    def __init__(self) -> None:
        self.items: OrderedDict[str, tuple[float, GameSpec, PlaySession]] = OrderedDict()

    def get(self, key: str, spec: GameSpec) -> PlaySession | None:
        self.expire()
        hit = self.items.get(key)
        if hit is None:
            return None
        _, have, s = hit
        same = have.model_dump(exclude={"history"}) == spec.model_dump(exclude={"history"}) and have.history == spec.history
        return s if same else None

    def put(self, key: str, spec: GameSpec, s: PlaySession) -> None:
        self.items[key] = (time.monotonic(), spec.model_copy(deep=True), s)
        self.items.move_to_end(key)
        while len(self.items) > MAX_SESSIONS:
            self.items.popitem(last=False)

    def expire(self) -> None:
        now = time.monotonic()
        while self.items:
            key, (t, _, _) = next(iter(self.items.items()))
            if now - t <= SESSION_TTL:
                break
            del self.items[key]


STORE = _Store()


@functools.lru_cache(maxsize=1)
def _table_variants() -> list[dict[str, Any]]:
    out = []
    for v in hupai.variants():
        try:
            n = table_seats(hupai.Variant.load(v["id"]))
        except (hupai.HupaiError, ValueError):
            continue  # not played at the table (yet)
        switches = [
            {k: sw.get(k) for k in ("name", "default", "values", "min", "max", "description")}
            for sw in hupai.Variant.load(v["id"]).describe().get("switches", [])
        ]
        out.append({"id": v["id"], "name": v.get("name", v["id"]), "seats": n, "seat_names": seat_labels(n), "switches": switches})
    return out


@functools.lru_cache(maxsize=1)
def _faces() -> list[str]:
    return sorted(p.stem for p in (STATIC / "tiles").glob("*.svg") if p.stem != "back")


def _fail(status: int, error: str, field: str, message: str) -> JSONResponse:
    return JSONResponse({"error": error, "field": field, "message": message}, status_code=status)


def _build(spec: GameSpec) -> PlaySession:
    """A session from its description: dealt, then the person's choices replayed."""
    v = hupai.Variant(spec.variant, **spec.options) if spec.options else hupai.Variant.load(spec.variant)
    s = PlaySession(v, human=spec.seat, seed=spec.seed, bots=spec.bots, dealer=spec.dealer)
    for i, c in enumerate(spec.history):
        try:
            s.act(c)
        except hupai.HupaiError as e:
            raise hupai.RuleConfigError(f"history[{i}]: {e}") from None
    return s


def _answer(key: str, spec: GameSpec, s: PlaySession, since: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": key, "game": spec.model_dump(), "board": s.board()}
    names = seat_labels(s.table.n)
    if since is not None:
        recs = s.table.log[since:]
        cards = s.table.family == "cards"
        pieces = card_names(s.table.variant) if cards else None
        words = card_words(s.table.variant) if cards else None
        out["events"] = [x for x in (event_text(r, names, pieces, words) for r in recs) if x]
    if s.done:
        out["log"] = s.table.log
    return out


def _records(text: str) -> list[dict[str, Any]]:
    """A log from JSON Lines text or a JSON array."""
    text = text.strip()
    if not text:
        raise ValueError("empty log")
    if text.startswith("["):
        recs = json.loads(text)
    else:
        recs = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not isinstance(recs, list) or not all(isinstance(r, dict) for r in recs):
        raise ValueError("a log is JSON records, one per line (or a JSON array of them)")
    return recs


def replay_answer(text: str) -> dict[str, Any]:
    from hupai.game.session import replay_steps

    recs = _records(text)
    return {"steps": replay_steps(recs), "log": recs}


def install(app: FastAPI) -> None:
    """Add the play and replay pages and their endpoints to ``app``."""

    @app.get("/play", include_in_schema=False)
    async def play_page() -> FileResponse:
        return FileResponse(STATIC / "play.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/v1/play/variants", tags=["play"])
    async def play_variants() -> JSONResponse:
        """The presets the table plays (``id``, ``name``, ``seats``, ``seat_names``, ``switches``)
        and the piece names that have a picture in ``/static/tiles``."""
        return JSONResponse({"variants": _table_variants(), "faces": _faces()})

    @app.post("/v1/play", tags=["play"], responses=ERROR_RESPONSES)
    async def new_game(req: NewGame) -> JSONResponse:
        """Deal a table with the person at ``seat`` and the bots elsewhere; the bots play until the
        person must act. Answers ``{id, game, board}``."""
        seed = req.seed if req.seed is not None else secrets.randbelow(2**31)
        spec = GameSpec(variant=req.variant, options=req.options, seed=seed, seat=req.seat, bots=req.bots, dealer=req.dealer)
        try:
            s = _build(spec)
        except hupai.HupaiError as e:
            msg = str(e)
            field = "seat" if msg.startswith("human") else "bots" if "bot" in msg else "options" if req.options else "variant"
            return _fail(422, type(e).__name__, field, msg)
        key = secrets.token_urlsafe(12)
        STORE.put(key, spec, s)
        return JSONResponse(_answer(key, spec, s, 0))

    @app.post("/v1/play/act", tags=["play"], responses=ERROR_RESPONSES)
    async def act(req: ActRequest) -> JSONResponse:
        """Take the person's choice (an index into ``board.legal``); the bots play on until the
        person must act again or the hand is over. Answers ``{id, game, board, events}`` (and
        ``log`` at the end)."""
        spec = req.game
        key = req.id or secrets.token_urlsafe(12)
        s = STORE.get(key, spec)
        try:
            if s is None:
                s = _build(spec)
            since = len(s.table.log)
            s.act(req.choice)
        except hupai.HupaiError as e:
            return _fail(422, type(e).__name__, "choice", str(e))
        spec = spec.model_copy(update={"history": [*spec.history, req.choice]})
        STORE.put(key, spec, s)
        return JSONResponse(_answer(key, spec, s, since))

    @app.post(
        "/v1/replay",
        tags=["play"],
        responses=ERROR_RESPONSES,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "text/plain": {"schema": {"type": "string", "description": "the log as JSON Lines"}},
                    "application/json": {"schema": {"type": "array", "items": {"type": "object"}, "description": "the log's records"}},
                },
            }
        },
    )
    async def replay_log(request: Request) -> JSONResponse:
        """Step through a logged hand: the body is its JSON Lines (or a JSON array of records).
        Answers ``{steps, log}``: the table after the deal and after each decision, every hand
        shown (a ``pass`` folds into the next step)."""
        try:
            text = (await request.body()).decode("utf-8")
            return JSONResponse(replay_answer(text))
        except (UnicodeDecodeError, ValueError, TypeError, KeyError, OverflowError) as e:  # json errors and HupaiError are ValueErrors
            return _fail(422, type(e).__name__, "log", str(e))

    @app.get(
        "/v1/replay/preloaded",
        tags=["play"],
        responses={**ERROR_RESPONSES, 404: {"model": ErrorBody, "description": "no log given to hupai replay --serve"}},
    )
    async def preloaded() -> JSONResponse:
        """The log of ``hupai replay --serve LOG``, stepped (404 when the server has none)."""
        path = os.environ.get(REPLAY_ENV)
        if not path:
            return _fail(404, "NotFound", "log", "no log given: hupai replay --serve LOG")
        try:
            text = Path(path).read_text(encoding="utf-8")
            return JSONResponse({**replay_answer(text), "path": path})
        except (OSError, UnicodeDecodeError, ValueError) as e:
            return _fail(422, type(e).__name__, "log", f"{path}: {e}")
