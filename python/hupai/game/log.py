"""Event logs: JSON Lines files and ``replay``.

A log is a list of JSON records, the same format for every preset (mahjong and 字牌): a ``start``
record (variant, every switch, seed, dealer, prevalent wind, a custom wall, the carry), then the
events; ``action`` records are the decisions. ``replay(log)`` rebuilds the table in the core,
re-applies every action and checks the rebuilt log is identical (``ReplayError`` otherwise).
The record types and their keys: ``docs/table.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hupai._args import items
from hupai._core import ReplayError, Table
from hupai._core import replay as _replay

__all__ = ["replay", "write_jsonl", "read_jsonl"]


def replay(log: Iterable[dict[str, Any]] | str | Path, actions: int | None = None) -> Table:
    """Rebuild the table of a log (records, or a JSON Lines path) and check it matches exactly.

    With ``actions=k``: the table after the log's ``start`` and its first ``k`` decisions (checked
    steps; the rest of the log is not compared) — a replay viewer's step."""
    records = read_jsonl(log) if isinstance(log, (str, Path)) else items(log, "log")
    if not records:
        raise ReplayError("empty log")
    return _replay(records) if actions is None else _replay(records, actions=actions)


def write_jsonl(log: Iterable[dict[str, Any]], path: str | Path) -> None:
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a str or a Path, got {type(path).__name__}")
    with open(path, "w", encoding="utf-8") as f:
        for r in log:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a str or a Path, got {type(path).__name__}")
    try:
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError) as e:  # ValueError: bad JSON, a NUL or a lone surrogate in the path
        raise ReplayError(f"cannot read log {path!r}: {e}") from None
