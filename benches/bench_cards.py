"""Whole card-game hands per second per core through the one table engine (``hupai.simulate`` with
the built-in random bots, ``workers=1``), beside rlcard's ``doudizhu`` env driven by its
``RandomAgent`` in the same run (issue 15's target: ≥ 20,000 斗地主 games/s per core). 够级 and 顶牛
are timed the same way (issue 18: ≥ 5,000 够级 hands/s per core), with the rule modules' ``simulate``
(``hupai.doudizhu.simulate`` …, one thread: the same table engine with ``results=True`` and the
game's summary) beside them for reference.

    python benches/bench_cards.py [--games 20000] [--rlcard-games 300] [--no-write]

Writes the ``cards`` section of ``benches/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import hupai  # noqa: E402
from hupai import dingniu, gouji  # noqa: E402
from hupai import doudizhu as ddz  # noqa: E402

from _results import machine, write_section  # noqa: E402


def table_rate(variant: str, n: int, seed: int = 2) -> tuple[float, float, float]:
    """Hands per CPU-second and per wall second through hupai.simulate (one worker, built-in
    random bots; best of 3) and the mean turns. The process's CPU time is what one core gives
    when the machine is shared; the wall-clock rate is lower when other jobs take the core."""
    hupai.simulate(variant, max(50, n // 20), agents="random", seed=1)  # warm-up
    best_cpu = best_wall = 0.0
    turns = 0.0
    for rep in range(3):
        t, c = time.perf_counter(), time.process_time()
        r = hupai.simulate(variant, n, agents="random", seed=seed + rep, workers=1)
        best_cpu = max(best_cpu, n / max(time.process_time() - c, 1e-9))
        best_wall = max(best_wall, n / (time.perf_counter() - t))
        turns = r.avg_turns
    return best_cpu, best_wall, turns


def module_rate(variant: str, n: int) -> float:
    """Hands/s of the rule module's ``simulate`` (the table engine with each hand's result record,
    tallied by the game's summary), one thread."""
    t = time.process_time()
    if variant == "doudizhu_qq":
        ddz.simulate(n, seed=2, threads=1)
    elif variant == "gouji":
        gouji.simulate(n, seed=2, bots="random", parallel=False)
    else:
        dingniu.simulate(n, seed=2, bots="random", check=False, threads=1)
    return n / max(time.process_time() - t, 1e-9)


def rlcard_rate(n: int) -> float:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("doudizhu", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(3)])
    env.run(is_training=False)
    t = time.process_time()
    for _ in range(n):
        env.run(is_training=False)
    return n / max(time.process_time() - t, 1e-9)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000, help="斗地主 games per timing (够级, 顶牛: a fifth / the same)")
    ap.add_argument("--rlcard-games", type=int, default=300, help="games of rlcard's doudizhu env")
    ap.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = ap.parse_args()
    rows = []
    for variant, n, target in (("doudizhu_qq", args.games, 20000), ("gouji", max(200, args.games // 10), 5000), ("dingniu", args.games, None)):
        rate, wall, turns = table_rate(variant, n)
        mod = module_rate(variant, n)
        rows.append((variant, rate, wall, turns, mod, target))
        print(variant, f"{rate:,.0f}/CPU-s ({wall:,.0f}/s wall) table, {mod:,.0f}/CPU-s module, {turns:.1f} turns", flush=True)
    rl = rlcard_rate(args.rlcard_games)
    print(f"rlcard doudizhu env {rl:,.0f} games/s", flush=True)
    ddz_rate = rows[0][1]
    lines = [
        "## Card games: whole hands per second per core (`benches/bench_cards.py`)",
        "",
        f"Machine: {machine()} (shared with other jobs while measured: figures are a lower bound).",
        "",
        "Hands per CPU-second of the process (what one core gives; the wall-clock rate beside it is lower while other jobs",
        "share the core). Built-in random bots, one worker, best of 3 runs; the table engine is `hupai.simulate(variant, n, agents=\"random\", workers=1)`",
        "(the one engine behind `Table`, `Match`, `replay` and `hupai play`). The modules' `simulate` (`hupai.doudizhu.simulate`",
        "with `threads=1`, `hupai.gouji.simulate(parallel=False)`, `hupai.dingniu.simulate(threads=1)`) are the same engine",
        "with each hand's result record kept and tallied by the game's summary; shown for reference.",
        "",
        "| game | table engine, hands per CPU-s | (wall-clock) | target | mean turns | module `simulate`, hands per CPU-s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for variant, rate, wall, turns, mod, target in rows:
        tgt = f"≥ {target:,}" if target else ""
        lines.append(f"| {variant} | **{rate:,.0f}** | {wall:,.0f} | {tgt} | {turns:.1f} | {mod:,.0f} |")
    lines += [
        "",
        f"rlcard 1.2.0 `rlcard.make(\"doudizhu\")` with three `RandomAgent`s, same run: **{rl:,.0f}** games per CPU-s "
        f"({args.rlcard_games} games) — hupai's table engine is **{ddz_rate / rl:,.0f}×** faster per core.",
        "",
        f"Reproduce: `python benches/bench_cards.py --games {args.games} --rlcard-games {args.rlcard_games}`.",
    ]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("cards", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
