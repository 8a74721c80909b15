"""Event logs: JSON-ready records, JSON Lines files, and ``replay``.

A log starts with a ``start`` record (variant id, every switch, seed, dealer, prevalent wind and,
for a custom wall, the wall) followed by the table's events; the ``action`` records are the
decisions. ``replay(log)`` rebuilds the table from the start record, re-applies every action and
checks that the rebuilt log is identical (``ReplayError`` otherwise).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hupai._core import Variant
from hupai.game.actions import Action, ReplayError
from hupai.game.table import Table

__all__ = ["replay", "write_jsonl", "read_jsonl"]


def _table_from_start(start: dict[str, Any]) -> Table:
    if start.get("type") != "start":
        raise ReplayError("a log starts with a 'start' record")
    try:
        base = Variant.load(start["variant"])
        defaults = base.options
        changed = {k: v for k, v in start.get("options", {}).items() if defaults.get(k) != v}
        v = base.with_options(**changed) if changed else base
        return Table(
            v,
            seed=int(start["seed"]),
            dealer=int(start.get("dealer", 0)),
            prevalent_wind=int(start.get("prevalent_wind", 0)),
            wall=start.get("wall"),
            carry=start.get("carry"),
        )
    except (KeyError, TypeError) as e:
        raise ReplayError(f"bad start record: {e}") from None


def replay(log: Iterable[dict[str, Any]] | str | Path) -> Table:
    """Rebuild the table of a log (records, or a JSON Lines path) and check it matches exactly."""
    records = read_jsonl(log) if isinstance(log, (str, Path)) else list(log)
    if not records:
        raise ReplayError("empty log")
    t = _table_from_start(records[0])
    for r in records:
        if r.get("type") == "action":
            t.step(Action.from_json(r))
    if t.log != records:
        n = next((i for i, (a, b) in enumerate(zip(t.log, records)) if a != b), min(len(t.log), len(records)))
        raise ReplayError(f"replay diverges at record {n}: {t.log[n] if n < len(t.log) else None} != {records[n] if n < len(records) else None}")
    return t


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
