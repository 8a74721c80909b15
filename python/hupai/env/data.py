"""Event logs → training arrays (``hupai._core.logs_to_arrays``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hupai._core import logs_to_arrays
from hupai.errors import RuleConfigError

__all__ = ["from_logs", "from_trajectories"]


def from_logs(logs: Sequence[Sequence[dict[str, Any]] | str]) -> dict[str, npt.NDArray[Any]]:
    """Replay event logs (each a list of records, as ``Table.log`` / ``VecEnv.last_log`` give it,
    or its JSON text) and encode every decision of every seat: ``obs`` ``(M, planes, width)``
    uint8, ``mask`` ``(M, actions)`` bool, ``action`` ``(M,)`` int64 (the id taken), ``seat``,
    ``reward`` ``(M,)`` float32 (that seat's settlement of the hand) and ``hand`` (the log's index).
    The logs must be of one variant; a log that does not replay raises ``ReplayError``."""
    return logs_to_arrays(list(logs))


def _rows(path: str | Path) -> Iterable[tuple[int, int, str]]:
    p = Path(path)
    if p.suffix == ".parquet":
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        t = pq.read_table(p, columns=["game", "seq", "record"]).to_pydict()
        return zip(t["game"], t["seq"], t["record"])
    if p.suffix == ".jsonl":
        out = []
        with p.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    out.append((r["game"], r["seq"], r["record"]))
        return out
    raise RuleConfigError(f"trajectories: a .parquet or .jsonl file written by hupai.simulate(trajectories=...), got {p.name!r}")


def from_trajectories(path: str | Path) -> dict[str, npt.NDArray[Any]]:
    """``simulate(..., trajectories=path)`` output (one row per event) → :func:`from_logs`'s
    arrays (``hand`` = the game index)."""
    by: dict[int, list[tuple[int, str]]] = {}
    for g, s, r in _rows(path):
        by.setdefault(int(g), []).append((int(s), r))
    games = sorted(by)
    logs = ["[" + ", ".join(r for _s, r in sorted(by[g])) + "]" for g in games]
    out = from_logs(logs)
    out["hand"] = np.asarray(games, dtype=np.int64)[out["hand"]]
    return out
