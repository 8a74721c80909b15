"""Batch simulation: ``simulate(variant, n_games, agents="greedy", seed=..., workers=..., backend=...)``.

With built-in agents (``random``, ``greedy``, ``defensive``) whole hands are played in the core —
no Python call per decision, the GIL released, ``workers`` threads. Python agents (any callable)
may sit at any seat; those games go through ``Table.run`` one by one.

Game ``i`` is played with the seed ``game_seed(seed, i)`` (the core's SplitMix64 of the master seed
and the index) by dealer ``i % seats``; the built-in bot of seat ``k`` is seeded with
``game_seed(game seed, k)``. Results do not depend on how games are split: the same seed gives
identical records for any number of workers, chunk size and either backend.

Backends: ``"local"`` (this process, ``workers`` threads) and ``"ray"`` (shards as Ray tasks; with
``ray_address`` or ``RAY_ADDRESS`` an existing cluster, else a local one with ``num_cpus=workers``).

Outputs: ``out`` — one summary row per hand (``.parquet`` or ``.jsonl``); ``trajectories`` — one
row per event (``.parquet`` or ``.jsonl``) with the columns ``game`` (int), ``seq`` (int, the
event's place in its hand), ``type`` (str, the record type), ``seat`` (int, -1 = none), ``kind``
(str, the action kind of an ``action`` row), ``tile`` (str), ``tiles`` (list of str), ``value``
(int, a win's value), ``record`` (str, the full JSON record); see ``docs/table.md``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hupai._args import int_arg, items
from hupai._core import Table, Variant, game_seed, simulate_games, table_seats
from hupai._paths import output_format
from hupai.errors import RuleConfigError
from hupai.game.agents import AGENTS

__all__ = ["simulate", "SimResult", "game_seed", "play_game"]

AgentSpec = str | Callable[..., Any]


def _variant_spec(v: Variant) -> tuple[str, dict[str, Any]]:
    base = Variant.load(v.id).options
    return v.id, {k: x for k, x in v.options.items() if base.get(k) != x}


def _make_variant(spec: tuple[str, dict[str, Any]]) -> Variant:
    vid, opts = spec
    v = Variant.load(vid)
    return v.with_options(**opts) if opts else v


def play_game(variant: Variant, agents: Sequence[AgentSpec], master: int, index: int, keep_log: bool = False) -> dict[str, Any]:
    """Play game ``index`` of a run through ``Table.run`` (Python agents) and return its record."""
    n = len(agents)
    s = game_seed(master, index)
    bots = [a if callable(a) else AGENTS[a](game_seed(s, k)) for k, a in enumerate(agents)]
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


def _shard(
    spec: tuple[str, dict[str, Any]],
    agents: list[str],
    master: int,
    lo: int,
    hi: int,
    traj: bool,
    check: bool = False,
    results: bool = False,
    hands_per_match: int = 1,
) -> tuple[list[dict[str, Any]], dict[str, list[Any]] | None]:
    """Games ``lo..hi`` in the core on one thread (a Ray task)."""
    return simulate_games(_make_variant(spec), agents, master, lo, hi, 1, traj, check, results, hands_per_match)


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
        lines.append(f"draw rate {self.draw_rate:.3f}   average length {self.avg_turns:.1f} turns")
        top = sorted(self.fan_frequency.items(), key=lambda kv: (-kv[1], kv[0]))[:8]
        names = fan_names(self.variant)
        lines.append("top fans: " + ", ".join(f"{names.get(k, k)} {v}" for k, v in top))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d.pop("records")
        return d


def fan_names(variant: str) -> dict[str, str]:
    """Chinese names of a preset's fan ids (``FLOWER_TILES`` → ``花牌``), from its fan table."""
    try:
        return {f["id"]: f["zh"] for f in Variant.load(variant).describe().get("fans") or []}
    except (RuleConfigError, KeyError, TypeError):
        return {}


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


class _Writer:
    """Rows to ``.parquet`` (pyarrow, written chunk by chunk) or ``.jsonl``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.parquet = self.path.suffix == ".parquet"
        self._pq: Any = None
        self._pa: Any = None
        self._writer: Any = None
        self._file: Any = None
        if self.parquet:
            try:
                import pyarrow as pa  # type: ignore[import-untyped]
                import pyarrow.parquet as pq  # type: ignore[import-untyped]
            except ImportError:
                raise RuleConfigError("Parquet output needs pyarrow: pip install 'hupai[sim]'") from None
            self._pa, self._pq = pa, pq
        else:
            self._file = open(self.path, "w", encoding="utf-8")

    def rows(self, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        if self.parquet:
            self.columns({k: [r[k] for r in rows] for k in rows[0]})
        else:
            for r in rows:
                self._file.write(json.dumps(r, ensure_ascii=False) + "\n")

    def columns(self, cols: dict[str, list[Any]]) -> None:
        if not cols or not next(iter(cols.values())):
            return
        if not self.parquet:
            keys = list(cols)
            for i in range(len(cols[keys[0]])):
                self._file.write(json.dumps({k: cols[k][i] for k in keys}, ensure_ascii=False) + "\n")
            return
        table = self._pa.Table.from_pydict(cols)
        if self._writer is None:
            self._writer = self._pq.ParquetWriter(self.path, table.schema)
        self._writer.write_table(table)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        if self._file is not None:
            self._file.close()


class _Progress:
    """``hands done / total, hands/s, ETA`` on stderr."""

    def __init__(self, total: int, show: bool) -> None:
        self.total = total
        self.show = show
        self.t0 = time.perf_counter()
        self.done = 0

    def add(self, k: int) -> None:
        self.done += k
        if not self.show:
            return
        dt = time.perf_counter() - self.t0
        rate = self.done / dt if dt > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else float("nan")
        w = 30
        bar = "#" * (w * self.done // max(self.total, 1))
        sys.stderr.write(
            f"\r[{bar:<{w}}] {self.done}/{self.total} hands  {rate:,.0f} hands/s  ETA {_clock(eta)}  "
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.show:
            sys.stderr.write("\n")


def _clock(s: float) -> str:
    if s != s:  # NaN
        return "?"
    s = int(s + 0.5)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _logs_of(cols: dict[str, list[Any]]) -> dict[int, str]:
    """Each game's JSON log text from trajectory columns."""
    by: dict[int, list[str]] = {}
    for g, r in zip(cols["game"], cols["record"]):
        by.setdefault(g, []).append(r)
    return {g: "[" + ", ".join(rs) + "]" for g, rs in by.items()}


#: Most worker processes / Ray tasks ``simulate`` starts (a typo like ``workers=10**6`` is refused).
MAX_WORKERS = 1024


def simulate(
    variant: Variant | str,
    n_games: int,
    *,
    agents: AgentSpec | Sequence[AgentSpec] = "greedy",
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    out: str | Path | None = None,
    trajectories: str | Path | None = None,
    keep_logs: bool = False,
    progress: bool | None = None,
    ray_address: str | None = None,
    chunk: int | None = None,
    check: bool = False,
    results: bool = False,
    hands_per_match: int = 1,
) -> SimResult:
    """Simulate ``n_games`` hands (dealer rotating with the game index) and aggregate them.

    ``agents``: one agent or one per seat (the preset's seats; 字牌 3): a built-in name (``random``,
    ``greedy`` — the default —, ``defensive``) or a Python agent (a callable). ``out``: per-hand
    summaries to ``.parquet`` (pyarrow) or ``.jsonl``; ``trajectories``: every event to ``.parquet``
    or ``.jsonl`` (one row per event, schema in the module docstring); ``keep_logs``: add each
    game's event log (JSON text) to its record; ``progress``: hands done, rate and ETA on stderr
    (default: on for runs of 2000+ hands in a terminal). ``check``: the checking mode — after every
    step every piece is accounted for and the action was legal, the game's own invariants hold (斗地主:
    54 cards, the multiplier equal to the product of the recorded doublings; 够级: 216 cards, tribute
    moving the right cards, a complete finishing order, points as gouji.md §7 says; 顶牛: 24 tiles,
    payments zero-sum, points equal to the 扣 pips), every ledger event and hand is zero-sum and the
    hand replays identically from its events; a violation raises ``HupaiError`` naming the game and
    its seed (built-in agents only). ``results``: add each card hand's own result record to its
    record (``record["result"]``, the game's keys — what the per-game summaries such as
    :func:`hupai.gouji.summary` tally; built-in agents only). ``hands_per_match``: play matches of
    that many hands (game ``i`` is hand ``i % k`` of match ``i // k``, a ``Match`` seeded with
    ``game_seed(seed, i // k)``): dealer, carry (够级's tribute, 顶牛's 头牌, 斗地主's first bidder)
    and scores run from hand to hand; 1 (default): every hand on its own (built-in agents only).
    """
    for path, option in ((out, "out"), (trajectories, "trajectories")):
        if path is not None:
            output_format(path, option)  # before any work: a known extension, a writable place
    n_games = int_arg("n_games", n_games, 0, 10**12)
    workers = int_arg("workers", workers, 1, MAX_WORKERS)
    if chunk is not None:
        chunk = int_arg("chunk", chunk, 1, 1 << 20)
    v = variant if isinstance(variant, Variant) else Variant.load(variant)
    seats = table_seats(v)
    specs: list[AgentSpec] = [agents] * seats if isinstance(agents, str) or callable(agents) else items(agents, "agents")
    if len(specs) != seats:
        raise RuleConfigError(f"agents: one agent or {seats}")
    for a in specs:
        if not callable(a) and a not in AGENTS:
            raise RuleConfigError(f"unknown agent {a!r} (random, greedy, defensive, or a callable)")
    if not isinstance(n_games, int) or n_games < 0 or not isinstance(workers, int) or workers < 1:
        raise RuleConfigError("n_games must be ≥ 0 and workers ≥ 1")
    if not isinstance(check, bool):
        raise TypeError(f"check must be True or False, not {type(check).__name__}")
    if not isinstance(results, bool):
        raise TypeError(f"results must be True or False, not {type(results).__name__}")
    hands_per_match = int_arg("hands_per_match", hands_per_match, 1, 1_000_000)
    if (check or results or hands_per_match > 1) and any(callable(a) for a in specs):
        what = "check=True" if check else "results=True" if results else "hands_per_match > 1"
        raise RuleConfigError(f"{what} runs in the core: give built-in agents (random, greedy, defensive)")
    if backend not in ("local", "ray"):
        raise RuleConfigError(f"backend {backend!r} (local, ray)")
    names = [a if isinstance(a, str) else getattr(a, "__name__", type(a).__name__) for a in specs]
    show = progress if progress is not None else (n_games >= 2000 and sys.stderr.isatty())
    bar = _Progress(n_games, show)
    summaries = _Writer(out) if out is not None else None
    traj = _Writer(trajectories) if trajectories is not None else None
    want_traj = traj is not None or keep_logs
    recs: list[dict[str, Any]] = []

    def take(part: list[dict[str, Any]], cols: dict[str, list[Any]] | None) -> None:
        if keep_logs and cols is not None:
            logs = _logs_of(cols)
            for r in part:
                r["log"] = logs.get(r["game"], "[]")
        if traj is not None and cols is not None:
            traj.columns(cols)
        if summaries is not None:
            summaries.rows(part)
        recs.extend(part)
        bar.add(len(part))

    try:
        if any(callable(a) for a in specs):
            for i in range(n_games):
                take([play_game(v, specs, seed, i, keep_logs)], None)
        elif backend == "ray":
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
            n_shards = max(workers * 4, 1)
            k, n_matches = hands_per_match, -(-n_games // hands_per_match)  # shards of whole matches
            bounds = [(min(n_games, k * (n_matches * i // n_shards)), min(n_games, k * (n_matches * (i + 1) // n_shards))) for i in range(n_shards)]
            task = ray.remote(_shard)
            spec = _variant_spec(v)
            futures = [task.remote(spec, names, seed, lo, hi, want_traj, check, results, hands_per_match) for lo, hi in bounds if hi > lo]
            for f in futures:  # in order: records stay in game order
                part, cols = ray.get(f)
                take(part, cols)
        else:
            step = chunk or max(min(n_games // 100, 5000), 256 * workers)
            step = -(-step // hands_per_match) * hands_per_match  # whole matches per chunk
            for lo in range(0, n_games, step):
                hi = min(lo + step, n_games)
                part, cols = simulate_games(v, names, seed, lo, hi, workers, want_traj, check, results, hands_per_match)
                take(part, cols)
    finally:
        bar.close()
        if summaries is not None:
            summaries.close()
        if traj is not None:
            traj.close()
    return _aggregate(v.id, names, recs)
