"""Hand analysis: hupai against the installed peers on the SAME generated hands, in ONE run.

    python benches/bench_analysis.py [--n 20000] [--seed 7]

Times, per call through Python (µs) and per hand in batch (ns), the win check, shanten and waits of
hupai, riichienv, mahjong (PyPI ``mahjong``) and PyMahjongGB, checks that the engines agree where
their rules coincide, and writes the ``analysis`` section of ``benches/RESULTS.md``.

Rule notes: riichienv and ``mahjong`` implement riichi shapes (4 sets + pair, seven DISTINCT pairs,
thirteen orphans); hupai is timed with that shape set for those comparisons and with every 国标
shape (incl. 全不靠 and 组合龙) against PyMahjongGB's ``MahjongShanten``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _results import machine, write_section  # noqa: E402

import hupai  # noqa: E402
import hupai.batch  # noqa: E402

GB_CODES = [f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)]
GB_CODES += ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]  # E S W N, 中 发 白


# ----------------------------------------------------------------------------- hand generation
def _wall(rng: random.Random) -> list[int]:
    w = [k for k in range(34) for _ in range(4)]
    rng.shuffle(w)
    return w


def random_hand(rng: random.Random, size: int) -> list[int]:
    """``size`` tiles drawn from a shuffled wall (kinds 0..33)."""
    return sorted(_wall(rng)[:size])


def winning_hand(rng: random.Random) -> list[int]:
    """A random 4 sets + pair hand (about half chows), at most four copies of a kind."""
    while True:
        counts = [0] * 34
        tiles: list[int] = []
        ok = True
        for _ in range(4):
            if rng.random() < 0.5:
                suit, start = rng.randrange(3), rng.randrange(7)
                group = [suit * 9 + start + i for i in range(3)]
            else:
                group = [rng.randrange(34)] * 3
            for t in group:
                counts[t] += 1
            tiles += group
        pair = rng.randrange(34)
        counts[pair] += 2
        tiles += [pair, pair]
        if max(counts) <= 4 and ok:
            return sorted(tiles)


def hand_sets(n: int, seed: int) -> dict[str, list[list[int]]]:
    rng = random.Random(seed)
    win14 = [winning_hand(rng) for _ in range(n // 2)] + [random_hand(rng, 14) for _ in range(n - n // 2)]
    rng.shuffle(win14)
    shanten13 = [random_hand(rng, 13) for _ in range(n)]
    ready13 = []
    for _ in range(n):
        h = winning_hand(rng)
        h.pop(rng.randrange(14))
        ready13.append(h)
    waits13 = ready13[: n // 2] + shanten13[: n - n // 2]
    rng.shuffle(waits13)
    return {"win14": win14, "shanten13": shanten13, "waits13": waits13}


def to_counts(h: Sequence[int]) -> list[int]:
    c = [0] * 34
    for t in h:
        c[t] += 1
    return c


def to_136(h: Sequence[int]) -> list[int]:
    seen = [0] * 34
    out = []
    for t in h:
        out.append(t * 4 + seen[t])
        seen[t] += 1
    return out


def to_str(h: Sequence[int]) -> str:
    return hupai.format_tiles([hupai.Tile.from_index(t) for t in h])


# ----------------------------------------------------------------------------- timing
# The machine is shared with other jobs: every figure is the median of REPEAT passes.
REPEAT = 15


def per_call(fn: Callable[[Any], Any], items: Sequence[Any], repeat: int = REPEAT) -> float:
    """Median over ``repeat`` passes of the mean time per call, in microseconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        for x in items:
            fn(x)
        times.append((time.perf_counter_ns() - t0) / len(items))
    return statistics.median(times) / 1000.0


def per_call_rounds(fns: Mapping[str, tuple[Callable[[Any], Any], Sequence[Any]]], repeat: int = REPEAT) -> dict[str, list[float]]:
    """µs per call of every engine, one figure per round, ``repeat`` rounds of one pass each: the passes
    of the engines alternate, so that load from other jobs falls on all of them alike."""
    out: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeat):
        for k, (fn, items) in fns.items():
            t0 = time.perf_counter_ns()
            for x in items:
                fn(x)
            out[k].append((time.perf_counter_ns() - t0) / len(items) / 1000.0)
    return out


def per_batch(fn: Callable[[np.ndarray], Any], arr: np.ndarray, repeat: int = 2 * REPEAT + 1) -> float:
    """Median over ``repeat`` calls of the time per hand of one batch call, in nanoseconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fn(arr)
        times.append((time.perf_counter_ns() - t0) / len(arr))
    return statistics.median(times)


def batch_child(kind: str, n: int, seed: int) -> float:
    """Run in a subprocess so that RAYON_NUM_THREADS takes effect for the whole pool."""
    sets = hand_sets(n, seed)
    key = {"win": "win14", "win-standard": "win14", "shanten": "shanten13", "waits": "waits13"}[kind]
    arr = np.array([to_counts(h) for h in sets[key]], dtype=np.uint8)
    standard = hupai.Shapes.STANDARD
    fn = {
        "win": hupai.batch.is_winning,
        # 4 sets + a pair only: the shape a per-suit table decides alone
        "win-standard": lambda a: hupai.batch.is_winning(a, shapes=standard),
        "shanten": hupai.batch.shanten,
        "waits": hupai.batch.waits,
    }[kind]
    fn(arr[:100])  # warm tables
    return per_batch(fn, arr)


def batch_timing(kind: str, n: int, seed: int, threads: int) -> float:
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--n", str(n), "--seed", str(seed)],
        capture_output=True, text=True, env=env, check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


# ----------------------------------------------------------------------------- engines
def engines() -> dict[str, dict[str, Callable[[Any], Any]]]:
    """Per engine: prepare(hand kinds) -> engine input, and win / shanten / waits on that input."""
    riichi = hupai.Shapes(honors_knitted=False, knitted_straight=False, seven_pairs_quads=False)
    out: dict[str, dict[str, Callable[[Any], Any]]] = {
        "hupai (Hand)": {
            "prepare": lambda h: hupai.Hand([hupai.Tile.from_index(t) for t in h]),
            "win": lambda x: hupai.is_winning(x, shapes=riichi),
            "shanten": lambda x: hupai.shanten(x, shapes=riichi),
            "waits": lambda x: hupai.waits(x, shapes=riichi),
        },
        "hupai (string)": {
            "prepare": to_str,
            "win": lambda x: hupai.is_winning(x, shapes=riichi),
            "shanten": lambda x: hupai.shanten(x, shapes=riichi),
            "waits": lambda x: hupai.waits(x, shapes=riichi),
        },
    }
    try:
        import riichienv
        from riichienv import _riichienv as rc

        out["riichienv"] = {
            "prepare": to_136,
            "win": lambda x: riichienv.calculate_shanten(x) == -1,
            "shanten": riichienv.calculate_shanten,
            "waits": lambda x: rc.HandEvaluator(x, []).get_waits(),
        }
    except ImportError:
        pass
    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten

        agari, sh = Agari(), Shanten()

        def mahjong_waits(c: list[int]) -> list[int]:
            res = []
            for t in range(34):
                if c[t] < 4:
                    c[t] += 1
                    if agari.is_agari(c):
                        res.append(t)
                    c[t] -= 1
            return res

        out["mahjong"] = {
            "prepare": to_counts,
            "win": agari.is_agari,
            "shanten": sh.calculate_shanten,
            "waits": mahjong_waits,
        }
    except ImportError:
        pass
    return out


def mcr_engines() -> dict[str, dict[str, Callable[[Any], Any]]]:
    """Shanten over every 国标 shape: hupai vs PyMahjongGB."""
    out: dict[str, dict[str, Callable[[Any], Any]]] = {
        "hupai (Hand)": {
            "prepare": lambda h: hupai.Hand([hupai.Tile.from_index(t) for t in h]),
            "shanten": hupai.shanten,
        }
    }
    try:
        import MahjongGB

        out["PyMahjongGB"] = {
            "prepare": lambda h: tuple(GB_CODES[t] for t in h),
            "shanten": lambda x: MahjongGB.MahjongShanten((), x),
        }
    except ImportError:
        pass
    return out


# ----------------------------------------------------------------------------- agreement
def agreement(sets: dict[str, list[list[int]]], eng: dict[str, dict[str, Callable[[Any], Any]]]) -> list[str]:
    """Compare every engine's answers with hupai's on the same hands; return report lines."""
    lines = []
    ref = eng["hupai (Hand)"]
    jobs = [("win", "win14", bool), ("shanten", "shanten13", int), ("waits", "waits13", None)]
    for name, e in eng.items():
        if name.startswith("hupai"):
            continue
        for fn, key, cast in jobs:
            if fn not in e:
                continue
            diff = 0
            for h in sets[key]:
                a = ref[fn](ref["prepare"](h))
                b = e[fn](e["prepare"](h))
                if fn == "waits":
                    a = sorted(hupai.Tile(t).index for t in a)
                    b = sorted(int(t) for t in b)
                elif cast is not None:
                    a, b = cast(a), cast(b)
                diff += a != b
            lines.append(f"- {name} `{fn}`: {len(sets[key]) - diff}/{len(sets[key])} hands agree with hupai")
    return lines


# ----------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=20000, help="hands per set (default 20000)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--child", choices=["win", "win-standard", "shanten", "waits"], help=argparse.SUPPRESS)
    ap.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = ap.parse_args(argv)
    if args.child:
        print(batch_child(args.child, args.n, args.seed))
        return 0

    sets = hand_sets(args.n, args.seed)
    small = {k: v[: min(len(v), 2000)] for k, v in sets.items()}
    eng = engines()
    times: dict[str, dict[str, float]] = {name: {} for name in eng}
    passes: dict[str, dict[str, list[float]]] = {name: {} for name in eng}
    for fn, key in [("win", "win14"), ("shanten", "shanten13"), ("waits", "waits13")]:
        compiled = {n: (e[fn], [e["prepare"](h) for h in sets[key]]) for n, e in eng.items() if n != "mahjong"}
        for n, ps in per_call_rounds(compiled).items():
            passes[n][fn], times[n][fn] = ps, statistics.median(ps)
        if "mahjong" in eng:  # pure Python: fewer hands and passes
            e = eng["mahjong"]
            times["mahjong"][fn] = per_call(e[fn], [e["prepare"](h) for h in small[key]], 3)
    rows = [[name, *(f"{times[name][fn]:.3f}" for fn in ("win", "shanten", "waits"))] for name in eng]
    for row in rows:
        print(" | ".join(row), flush=True)
    gb_rows = []
    for name, e in mcr_engines().items():
        items = [e["prepare"](h) for h in (sets["shanten13"] if name.startswith("hupai") else small["shanten13"])]
        gb_rows.append([name, f"{per_call(e['shanten'], items):.3f}"])
        print(" | ".join(gb_rows[-1]), flush=True)

    batch_rows = []
    for kind in ["win", "win-standard", "shanten", "waits"]:
        one = batch_timing(kind, args.n, args.seed, 1)
        two = batch_timing(kind, args.n, args.seed, 2)
        batch_rows.append([kind, f"{one:.1f}", f"{two:.1f}", f"{one / two:.2f}×"])
        print(" | ".join(batch_rows[-1]), flush=True)

    agree = agreement(small, eng)
    for line in agree:
        print(line)

    goals = []
    if "riichienv" in times:
        hp, rv = passes["hupai (Hand)"], passes["riichienv"]
        for fn, what, goal in [("win", "win check", 3), ("shanten", "shanten", 2)]:
            med = statistics.median(a / b for a, b in zip(rv[fn], hp[fn], strict=True))
            best = min(rv[fn]) / min(hp[fn])
            goals.append(
                f"- {what}, one call (Hand): riichienv ÷ hupai = {med:.2f}× (median over rounds of the ratio; "
                f"{best:.2f}× between the fastest passes) (goal ≥ {goal}×)"
            )
    goals.append(
        f"- win check, batch, 1 thread: {batch_rows[0][1]} ns per hand with every 国标 shape, "
        f"{batch_rows[1][1]} ns with Shapes.STANDARD (goal ≤ 12 ns)"
    )
    goals.append(f"- shanten, batch, 1 thread: {batch_rows[2][1]} ns per hand (goal ≤ 70 ns)")

    cmd = f"python benches/bench_analysis.py --n {args.n} --seed {args.seed}"
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    md = [
        "## Hand analysis: win check, shanten, waits",
        "",
        f"Command: `{cmd}` · {machine()} · load average {load} at the start",
        "",
        f"Timings were taken on a machine shared with other jobs: each figure is the median of {REPEAT} passes "
        f"({2 * REPEAT + 1} calls for the batch rows), the passes of the engines alternating round by round "
        "(so that load falls on all of them alike), and ratios between engines come from the same run. "
        "Load-independent instruction counts of the same calls: the `callgrind` section.",
        "",
        f"Same generated hands for every engine: {args.n} 14-tile hands (half winning) for the win check, "
        f"{args.n} random 13-tile hands for shanten, {args.n} 13-tile hands (half ready) for waits; the pure-Python "
        "`mahjong` and PyMahjongGB are timed on the first 2,000 of each. Riichi shape set for riichienv and "
        "`mahjong` (4 sets + pair, seven distinct pairs, thirteen orphans); every 国标 shape against PyMahjongGB.",
        "",
        "### Single call through Python, µs per call (lower is better)",
        "",
        "| engine | win check | shanten | waits (13 tiles) |",
        "|---|---:|---:|---:|",
        *[f"| {' | '.join(r)} |" for r in rows],
        "",
        "riichienv: win = `calculate_shanten(tiles) == -1`, waits = `HandEvaluator(tiles, []).get_waits()`; "
        "`mahjong`: `Agari.is_agari`, `Shanten.calculate_shanten`, waits = 34 `is_agari` probes.",
        "",
        "### 国标 shanten (all shapes), µs per call",
        "",
        "| engine | shanten |",
        "|---|---:|",
        *[f"| {' | '.join(r)} |" for r in gb_rows],
        "",
        f"### hupai batch over numpy (N={args.n}, 34) uint8, ns per hand",
        "",
        "| function | 1 thread | 2 threads | speed-up |",
        "|---|---:|---:|---:|",
        *[f"| {' | '.join(r)} |" for r in batch_rows],
        "",
        "### Agreement with hupai on the same hands",
        "",
        *agree,
        "",
        "### Goals (issue 20)",
        "",
        *goals,
    ]
    text = "\n".join(md)
    if not args.no_write:
        write_section("analysis", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
