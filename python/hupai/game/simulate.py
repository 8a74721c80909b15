"""Batch simulation: ``simulate(variant, n_games, agents=..., seed=..., workers=..., backend=...)``.

Game ``i`` is played with the seed ``game_seed(seed, i)`` (BLAKE2b of the master seed and the
index), its agents seeded from that seed and the seat, so results do not depend on how games are
split into shards: same seed → identical results for any number of workers and either backend.

Backends: ``"local"`` (one process, or a ``multiprocessing`` pool with ``workers > 1``) and
``"ray"`` (each shard a Ray task). With Ray, ``ray_address`` (or the ``RAY_ADDRESS`` environment
variable) points at an existing cluster, e.g. ``ray_address="ray://head:10001"`` or
``"auto"``; without it a local Ray instance is started with ``num_cpus=workers``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hupai._args import int_arg
from hupai._core import Variant
from hupai.errors import RuleConfigError
from hupai.game.agents import make_agent
from hupai.game.table import Table, players_of

__all__ = ["simulate", "SimResult", "game_seed", "play_game"]


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a run with master seed ``master`` (BLAKE2b of both)."""
    master = int_arg("master", master, -(2**127), 2**127)
    index = int_arg("index", index, 0, 2**63)
    h = hashlib.blake2b(f"{master}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "little") & ((1 << 63) - 1)


def _variant_spec(v: Variant) -> tuple[str, dict[str, Any]]:
    base = Variant.load(v.id).options
    return v.id, {k: x for k, x in v.options.items() if base.get(k) != x}


def _make_variant(spec: tuple[str, dict[str, Any]]) -> Variant:
    vid, opts = spec
    v = Variant.load(vid)
    return v.with_options(**opts) if opts else v


def play_game(variant: Variant, agents: Sequence[str], master: int, index: int, keep_log: bool = False) -> dict[str, Any]:
    """Play game ``index`` of a run and return its record."""
    s = game_seed(master, index)
    if _is_zipai(variant):
        return _play_zipai(variant, agents, s, index, keep_log)
    n = players_of(variant)
    bots = [make_agent(agents[k], s * 4 + k) for k in range(n)]
    t = Table(variant, seed=s, dealer=index % n)
    res = t.run(bots)
    rec: dict[str, Any] = {
        "game": index,
        "seed": s,
        "dealer": index % n,
        "winners": res["winners"],
        "n_wins": len(res["wins"]),
        "exhausted": res["exhausted"],
        "balances": res["balances"],
        "turns": res["turns"],
        "fans": [f for w in res["wins"] for f, _c in w["fans"]],
        "values": [w["value"] for w in res["wins"]],
    }
    if keep_log:
        rec["log"] = json.dumps(t.log, ensure_ascii=False)
    return rec


def _is_zipai(v: Variant) -> bool:
    return v.id.startswith("zipai")


def _play_zipai(variant: Variant, agents: Sequence[str], s: int, index: int, keep_log: bool) -> dict[str, Any]:
    """A 字牌 hand (3 seats, dealer rotating over 3); same record shape (``fans``: the win type,
    ``values``: the winner's 胡息)."""
    from hupai.game.zipai_table import play_zipai_game

    t, res = play_zipai_game(variant, agents, s, index % 3)
    win = res["win"]
    rec: dict[str, Any] = {
        "game": index,
        "seed": s,
        "dealer": index % 3,
        "winners": [] if win is None else [win["seat"]],
        "n_wins": 0 if win is None else 1,
        "exhausted": res["exhausted"],
        "balances": res["balances"],
        "turns": res["turns"],
        "fans": [] if win is None else [win["win_type"]],
        "values": [] if win is None else [win["huxi"]],
    }
    if keep_log:
        rec["log"] = json.dumps(t.log, ensure_ascii=False)
    return rec


def _shard(spec: tuple[str, dict[str, Any]], agents: Sequence[str], master: int, lo: int, hi: int, keep_log: bool) -> list[dict[str, Any]]:
    v = _make_variant(spec)
    return [play_game(v, agents, master, i, keep_log) for i in range(lo, hi)]


@dataclass
class SimResult:
    """Aggregates of a run (and the per-game records)."""

    variant: str
    n_games: int
    agents: list[str]
    win_rate: list[float]
    avg_score: list[float]
    draw_rate: float
    avg_turns: float
    fan_frequency: dict[str, int]
    records: list[dict[str, Any]] = field(repr=False, default_factory=list)

    def summary(self) -> str:
        lines = [
            f"{self.variant}: {self.n_games} hands, agents {', '.join(self.agents)}",
            f"{'seat':<6}{'agent':<11}{'win rate':>10}{'avg score':>12}",
        ]
        for k in range(len(self.agents)):
            lines.append(f"{k:<6}{self.agents[k]:<11}{self.win_rate[k]:>10.3f}{self.avg_score[k]:>12.2f}")
        lines.append(f"draw rate {self.draw_rate:.3f}   average length {self.avg_turns:.1f} discards")
        top = sorted(self.fan_frequency.items(), key=lambda kv: (-kv[1], kv[0]))[:8]
        lines.append("top fans: " + ", ".join(f"{k} {v}" for k, v in top))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d.pop("records")
        return d


def _aggregate(vid: str, agents: list[str], recs: list[dict[str, Any]]) -> SimResult:
    n = len(recs)
    seats = len(agents)
    wins = [0] * seats
    score = [0] * seats
    fans: Counter[str] = Counter()
    for r in recs:
        for w in r["winners"]:
            wins[w] += 1
        for k in range(seats):
            score[k] += r["balances"][k]
        fans.update(r["fans"])
    return SimResult(
        variant=vid,
        n_games=n,
        agents=agents,
        win_rate=[w / n if n else 0.0 for w in wins],
        avg_score=[s / n if n else 0.0 for s in score],
        draw_rate=sum(1 for r in recs if r["exhausted"]) / n if n else 0.0,
        avg_turns=sum(r["turns"] for r in recs) / n if n else 0.0,
        fan_frequency=dict(sorted(fans.items())),
        records=recs,
    )


def _write_records(recs: list[dict[str, Any]], out: str | Path) -> None:
    p = Path(out)
    if p.suffix == ".parquet":
        try:
            import pyarrow as pa  # type: ignore[import-untyped]
            import pyarrow.parquet as pq  # type: ignore[import-untyped]
        except ImportError:
            raise RuleConfigError("Parquet records need pyarrow: pip install 'hupai[sim]'") from None
        pq.write_table(pa.Table.from_pylist(recs), p)
    else:
        with open(p, "w", encoding="utf-8") as f:
            for r in recs:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")


#: Most worker processes / Ray tasks ``simulate`` starts (a typo like ``workers=10**6`` is refused).
MAX_WORKERS = 1024


def simulate(
    variant: Variant | str,
    n_games: int,
    *,
    agents: str | Sequence[str] = "random",
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    out: str | Path | None = None,
    keep_logs: bool = False,
    progress: bool | None = None,
    ray_address: str | None = None,
) -> SimResult:
    """Simulate ``n_games`` hands (dealer rotating with the game index) and aggregate them.

    ``agents``: one bot name (``random``, ``greedy``, ``defensive``) or one per seat (卡五星 3,
    二人麻将 2, the others 4; 字牌 variants
    ``zipai_*``: 3 seats, bots ``random`` and ``greedy``, see :mod:`hupai.game.zipai_table`); ``out``: write the
    per-game records to ``.parquet`` (pyarrow) or JSON Lines; ``keep_logs``: add each game's event
    log (JSON text) to its record; ``progress``: a progress bar on stderr (default: on for runs
    of 2000+ games in a terminal).
    """
    n_games = int_arg("n_games", n_games, 0, 10**9)
    workers = int_arg("workers", workers, 1, MAX_WORKERS)
    seed = int_arg("seed", seed, -(2**63), 2**64 - 1)
    v = variant if isinstance(variant, Variant) else Variant.load(variant)
    seats = 3 if _is_zipai(v) else players_of(v)
    names = [agents] * seats if isinstance(agents, str) else list(agents)
    if len(names) != seats:
        raise RuleConfigError(f"agents: one name or {seats}")
    for a in names:
        if _is_zipai(v):
            from hupai.game.zipai_table import make_zipai_agent

            make_zipai_agent(a, 0)
        else:
            make_agent(a, 0)
    if n_games < 0 or workers < 1:
        raise RuleConfigError("n_games must be ≥ 0 and workers ≥ 1")
    if backend not in ("local", "ray"):
        raise RuleConfigError(f"backend {backend!r} (local, ray)")
    spec = _variant_spec(v)
    n_shards = 1 if workers == 1 and backend == "local" else max(workers * 4, 1)
    bounds = [(n_games * i // n_shards, n_games * (i + 1) // n_shards) for i in range(n_shards)]
    bounds = [b for b in bounds if b[1] > b[0]]
    show = progress if progress is not None else (n_games >= 2000 and sys.stderr.isatty())
    recs: list[dict[str, Any]] = []
    if backend == "ray":
        try:
            import ray
        except ImportError:
            raise RuleConfigError("backend='ray' needs ray: pip install 'hupai[ray]'") from None
        if not ray.is_initialized():
            addr = ray_address or os.environ.get("RAY_ADDRESS")
            if addr:
                ray.init(address=addr)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        task = ray.remote(_shard)
        futures = [task.remote(spec, names, seed, lo, hi, keep_logs) for lo, hi in bounds]
        for i, part in enumerate(ray.get(futures)):
            recs.extend(part)
            if show:
                _bar(i + 1, len(futures))
    elif workers == 1:
        step = max(n_games // 100, 1)
        for i in range(n_games):
            recs.append(play_game(v, names, seed, i, keep_logs))
            if show and (i + 1) % step == 0:
                _bar(i + 1, n_games)
    else:
        import multiprocessing as mp

        ctx = mp.get_context("fork" if sys.platform == "linux" else "spawn")
        with ctx.Pool(workers) as pool:
            res = [pool.apply_async(_shard, (spec, names, seed, lo, hi, keep_logs)) for lo, hi in bounds]
            for i, r in enumerate(res):
                recs.extend(r.get())
                if show:
                    _bar(i + 1, len(res))
    if show:
        sys.stderr.write("\n")
    result = _aggregate(v.id, names, recs)
    if out is not None:
        _write_records(recs, out)
    return result


def _bar(done: int, total: int) -> None:
    w = 40
    k = w * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * k}{'.' * (w - k)}] {done}/{total}")
    sys.stderr.flush()
