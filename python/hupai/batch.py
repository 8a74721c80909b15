"""Batch entry points: many hands per call, read by Rust in one pass, processed in parallel.

**Hand analysis over numpy arrays.** ``is_winning``, ``shanten`` and ``waits`` take ``hands``: a numpy
``uint8`` array of shape ``(N, 34)`` whose row ``i`` holds the tile counts (0..4) of one hand's
standing tiles, column ``k`` = tile index ``k`` (``0..9`` 1m-9m, ``9..18`` 1p-9p, ``18..27`` 1s-9s,
``27..34`` E S W N C F P; see ``hupai.Tile.index``). Rows have no declared melds: a row of
``3n+1`` / ``3n+2`` tiles with ``n < 4`` counts its missing sets as declared, exactly like a single
call on the same tiles. A C-contiguous array is read in place (any other layout is copied once),
the GIL is released and rows are processed in parallel on all cores (rayon; set
``RAYON_NUM_THREADS`` to limit; with one thread, or at most 512 rows, the calling thread does the
work itself). Results equal a loop of the
single calls (``hupai.is_winning`` …). ``shapes`` and ``wildcards`` (wildcards per row besides the
counted tiles) apply to every row. Bad input (dtype, shape, counts above 4, a row of 3n tiles)
raises ``hupai.InvalidHandError`` naming the first bad row.

* ``is_winning(hands) -> ndarray[bool]`` of shape ``(N,)``
* ``shanten(hands) -> ndarray[int8]`` of shape ``(N,)`` (−1 complete, 0 ready)
* ``waits(hands) -> ndarray[bool]`` of shape ``(N, 34)``: ``out[i, k]`` is true when tile ``k``
  completes waiting hand ``i`` (rows must hold 3n+1 tiles; kinds held four times are never waits)

**Scoring.** ``score`` / ``iter_score`` score many wins (any preset with a scorer), results in input
order, one error object per bad item; ``score_jsonl`` turns JSON request lines into JSON answer
lines without Python objects in between (the CLI's ``score --jsonl``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any

from hupai import _core
from hupai._args import int_arg, items
from hupai._core import batch_is_winning as is_winning
from hupai._core import batch_shanten as shanten
from hupai._core import batch_waits as waits

__all__ = ["is_winning", "iter_score", "score", "score_jsonl", "shanten", "waits"]


# ---------------------------------------------------------------------------------------------
# Scoring (MCR today; any preset with a scorer) — rust/py/src/score.rs `score_batch`

_CHUNK = 65536


def score(
    situations: Iterable[Any],
    variant: str | _core.Variant = "mcr",
    *,
    threads: int | None = None,
) -> list[_core.Score | dict[str, str]]:
    """Score many wins of any preset at once; results (each a :class:`hupai.Score`) in input order.

    Each item is a :class:`hupai.Situation` (fastest), a request dict ``{"hand": ...,
    "situation": ...}`` (optional ``"variant"``, ``"options"`` and ``"id"`` keys as ``POST
    /v1/score`` takes them; ``variant`` is the default preset) or a JSON line. The
    GIL is released and the hands are scored in parallel with rayon (``threads`` threads, default:
    all cores or ``RAYON_NUM_THREADS``). A bad item yields ``{"error": <exception name>,
    "message": ...}`` in its slot; it never aborts the batch. Iterators are consumed in chunks.
    """
    if isinstance(situations, (list, tuple)):
        return _core.score_batch(situations, variant, threads)
    if hasattr(situations, "__len__"):  # a sized collection: its size is checked before any work
        return _core.score_batch(items(situations, "situations"), variant, threads)
    out: list[_core.Score | dict[str, str]] = []
    for chunk in _chunks(iter(situations), _CHUNK):
        out.extend(_core.score_batch(chunk, variant, threads))
    return out


def iter_score(
    situations: Iterable[Any],
    variant: str | _core.Variant = "mcr",
    *,
    threads: int | None = None,
    chunk: int = 4096,
) -> Iterator[_core.Score | dict[str, str]]:
    """Like :func:`score` but lazily, ``chunk`` items per parallel call (for large streams).

    ``chunk`` is 1..=1,048,576 (``RuleConfigError`` otherwise)."""
    chunk = int_arg("chunk", chunk, 1, 1 << 20)
    for part in _chunks(iter(situations), chunk):
        yield from _core.score_batch(part, variant, threads)


def score_jsonl(
    lines: Iterable[str],
    variant: str | _core.Variant = "mcr",
    *,
    threads: int | None = None,
) -> tuple[list[str], list[int]]:
    """Score JSON request lines into JSON answer lines, in input order: the whole round trip in Rust.

    Each line is one request's JSON text, as :func:`score` takes it (``variant``: the default
    preset). Its answer is the score's JSON (:meth:`hupai.Score.to_json`) or ``{"error": <exception
    name>, "message": ...}``, with the request's ``"id"`` as the first key when it has one (an error
    too, when the line has an ``id`` at all). Returns ``(answers, failed)``: ``failed`` lists the
    indices of the lines that could not be scored.

    >>> import hupai.batch
    >>> answers, failed = hupai.batch.score_jsonl(['{"id": 1, "hand": "123m456p789s1122z+1z"}', "not json"])
    >>> answers[0][:30], failed
    ('{"id":1,"decomposition":{"form', [1])
    """
    if not isinstance(lines, (list, tuple)):
        lines = items(lines, "lines") if hasattr(lines, "__len__") else list(lines)
    return _core.score_jsonl(lines, variant, threads)


def _chunks(it: Iterator[Any], n: int) -> Iterator[list[Any]]:
    while True:
        part = list(itertools.islice(it, n))
        if not part:
            return
        yield part
