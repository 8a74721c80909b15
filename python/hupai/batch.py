"""Batch entry points: many hands per call, parsed once, scored in parallel in Rust.

Sections are owned by different parts of the engine; keep each in its own block.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any

from hupai import _core

__all__ = ["score", "iter_score"]


# ---------------------------------------------------------------------------------------------
# Scoring (MCR today; any preset with a scorer) — rust/py/src/score.rs `score_batch`

_CHUNK = 65536


def score(
    situations: Iterable[Any],
    variant: str | _core.Variant = "mcr",
    *,
    threads: int | None = None,
) -> list[Any]:
    """Score many wins at once; results in input order.

    Each item is a :class:`hupai.Situation` (fastest), a case-schema dict ``{"hand": ...,
    "situation": ...}`` (an optional ``"variant"`` key overrides ``variant``) or a JSON line. The
    GIL is released and the hands are scored in parallel with rayon (``threads`` threads, default:
    all cores or ``RAYON_NUM_THREADS``). A bad item yields ``{"error": <exception name>,
    "message": ...}`` in its slot; it never aborts the batch. Iterators are consumed in chunks.
    """
    if isinstance(situations, (list, tuple)):
        return _core.score_batch(situations, variant, threads)
    out: list[Any] = []
    for chunk in _chunks(iter(situations), _CHUNK):
        out.extend(_core.score_batch(chunk, variant, threads))
    return out


def iter_score(
    situations: Iterable[Any],
    variant: str | _core.Variant = "mcr",
    *,
    threads: int | None = None,
    chunk: int = 4096,
) -> Iterator[Any]:
    """Like :func:`score` but lazily, ``chunk`` items per parallel call (for large streams)."""
    for part in _chunks(iter(situations), chunk):
        yield from _core.score_batch(part, variant, threads)


def _chunks(it: Iterator[Any], n: int) -> Iterator[list[Any]]:
    while True:
        part = list(itertools.islice(it, n))
        if not part:
            return
        yield part
