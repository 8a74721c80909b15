"""Instruction counts (callgrind) beside timings for the hot functions, into ``benches/RESULTS.md``.

    python benches/callgrind.py [--runs 31] [--python] [--no-build] [--no-write] [--only TEXT ...]

Instruction counts do not depend on the machine's load, so they are the figures to compare across
runs and commits on a shared machine; the timings beside them are medians of ``--runs`` timed
passes and do depend on it.

* Rust kernels: ``cargo build --release --example hot``, then for each kernel of
  ``examples/hot.rs`` (``hot list``): ``valgrind --tool=callgrind --branch-sim=yes
  --toggle-collect='*measure*' hot count NAME 1`` (only the measured loop is counted) → instructions
  and simulated mispredicted branches per item; ``hot time NAME RUNS`` → median ns per item.
* ``--python``: instructions per call through Python, hupai and the installed peers on the same
  inputs: each driver runs under callgrind twice, with N and 3N calls; the difference ÷ 2N is the
  cost of one call (interpreter loop and lambda included, import and set-up excluded). Needs
  ``riichienv`` and ``PyMahjongGB`` for the peer rows (skipped when missing); takes several minutes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _results import machine, write_section  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HOT = ROOT / "target" / "release" / "examples" / "hot"


def callgrind_counts(cmd: list[str], env: dict[str, str] | None = None, toggle: str | None = None) -> dict[str, int]:
    """Run ``cmd`` under callgrind; return its event totals (Ir, and Bcm with branch simulation)."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "cg.out"
        args = ["valgrind", "--tool=callgrind", "--branch-sim=yes", f"--callgrind-out-file={out}"]
        if toggle:
            args.append(f"--toggle-collect={toggle}")
        res = subprocess.run(args + cmd, capture_output=True, text=True, env=env, check=True)
        events: list[str] = []
        totals: list[int] = []
        for line in out.read_text().splitlines():
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:"):
                totals = [int(x) for x in line.split()[1:]]
        counts = dict(zip(events, totals, strict=False))
        counts["_stdout"] = int(res.stdout.strip().splitlines()[-1]) if res.stdout.strip() else 0
        return counts


def wanted(name: str, only: list[str] | None) -> bool:
    return not only or any(o in name for o in only)


def rust_rows(runs: int, only: list[str] | None = None) -> list[list[str]]:
    rows = []
    listing = subprocess.run([str(HOT), "list"], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        name, what = line.split("\t", 1)
        if not wanted(name, only):
            continue
        c = callgrind_counts([str(HOT), "count", name, "1"], toggle="*measure*")
        items = c["_stdout"]
        ns = subprocess.run([str(HOT), "time", name, str(runs)], capture_output=True, text=True, check=True).stdout.strip()
        rows.append([f"`{name}`", what, ns, f"{c['Ir'] / items:,.0f}", f"{c.get('Bcm', 0) / items:.1f}"])
        print(" | ".join(rows[-1]), flush=True)
    return rows


DRIVER = r'''
import json, os, sys
mode, n = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, os.path.join(os.environ["HUPAI_ROOT"], "benches"))
import numpy as np
import bench_analysis as b
import hupai, hupai.batch
sets = b.hand_sets(2000, 7)
riichi = hupai.Shapes(honors_knitted=False, knitted_straight=False, seven_pairs_quads=False)
H = lambda h: hupai.Hand([hupai.Tile.from_index(t) for t in h])
def mcr():
    shared = os.environ.get("HUPAI_SHARED", "/work/shared")
    lines = open(os.path.join(shared, "cases", "mcr_dev.jsonl"), encoding="utf-8").read().splitlines()
    return [json.loads(x) for x in lines if '"gen-' in x]
per = 1
if mode == "empty lambda (baseline)":
    items = [H(h) for h in sets["win14"]]; f = lambda x: None
elif mode == "hupai.is_winning(Hand)":
    items = [H(h) for h in sets["win14"]]; f = lambda x: hupai.is_winning(x, shapes=riichi)
elif mode == "riichienv win":
    import riichienv
    items = [b.to_136(h) for h in sets["win14"]]; f = lambda x: riichienv.calculate_shanten(x) == -1
elif mode == "hupai.shanten(Hand)":
    items = [H(h) for h in sets["shanten13"]]; f = lambda x: hupai.shanten(x, shapes=riichi)
elif mode == "riichienv shanten":
    import riichienv
    items = [b.to_136(h) for h in sets["shanten13"]]; f = lambda x: riichienv.calculate_shanten(x)
elif mode == "hupai.score(Situation)":
    v = hupai.Variant("mcr", flag_policy="repair")
    items = [hupai.Situation.from_dict({k: c[k] for k in ("hand", "situation")}) for c in mcr()]; f = lambda s: hupai.score(s, v)
elif mode == "PyMahjongGB MahjongFanCalculator":
    import MahjongGB
    g = MahjongGB.MahjongFanCalculator
    items = []
    for c in mcr():
        i = c["pymahjonggb"]["input"]
        items.append((tuple(tuple(p) for p in i["pack"]), tuple(i["hand"]), i["winTile"], i["flowerCount"],
                      i["isSelfDrawn"], i["is4thTile"], i["isAboutKong"], i["isWallLast"], i["seatWind"], i["prevalentWind"]))
    f = lambda r: g(*r)
elif mode == "hupai.batch.score, per hand (1 thread)":
    v = hupai.Variant("mcr", flag_policy="repair")
    sits = [hupai.Situation.from_dict({k: c[k] for k in ("hand", "situation")}) for c in mcr()]
    items = [sits]; per = len(sits); f = lambda xs: hupai.batch.score(xs, v, threads=1)
elif mode == "hupai.batch.score of JSON lines, per line (1 thread)":
    v = hupai.Variant("mcr", flag_policy="repair")
    lines = [json.dumps({k: c[k] for k in ("hand", "situation")}) for c in mcr()]
    items = [lines]; per = len(lines); f = lambda xs: hupai.batch.score(xs, v, threads=1)
elif mode in ("hupai.batch.is_winning, per row", "hupai.batch.shanten, per row"):
    key = "win14" if "is_winning" in mode else "shanten13"
    arr = np.array([b.to_counts(h) for h in sets[key]], dtype=np.uint8)
    items = [arr]; per = len(arr)
    f = hupai.batch.is_winning if "is_winning" in mode else hupai.batch.shanten
else:
    raise SystemExit(f"unknown mode {mode}")
for x in items[:20]:
    f(x)
for i in range(n):
    f(items[i % len(items)])
print(per)
'''

# N calls per mode: a run's instruction total moves by ~1 million between identical runs, so the 2N
# extra calls of the second run must cost far more (a batch call of 2,000 rows is ~0.5 million).
PY_MODES = [
    ("empty lambda (baseline)", 2000),
    ("hupai.is_winning(Hand)", 2000),
    ("riichienv win", 2000),
    ("hupai.shanten(Hand)", 2000),
    ("riichienv shanten", 2000),
    ("hupai.score(Situation)", 1000),
    ("PyMahjongGB MahjongFanCalculator", 1000),
    ("hupai.batch.score, per hand (1 thread)", 5),
    ("hupai.batch.score of JSON lines, per line (1 thread)", 2),
    ("hupai.batch.is_winning, per row", 20),
    ("hupai.batch.shanten, per row", 5),
]


def python_rows(only: list[str] | None = None) -> list[list[str]]:
    rows = []
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", RAYON_NUM_THREADS="1", HUPAI_ROOT=str(ROOT))
    with tempfile.TemporaryDirectory() as d:
        driver = Path(d) / "driver.py"
        driver.write_text(DRIVER)
        for mode, n in PY_MODES:
            if not wanted(mode, only):
                continue
            try:
                a = callgrind_counts([sys.executable, str(driver), mode, str(n)], env=env)
                b = callgrind_counts([sys.executable, str(driver), mode, str(3 * n)], env=env)
            except subprocess.CalledProcessError as e:
                print(f"{mode}: skipped ({e.stderr.strip().splitlines()[-1] if e.stderr.strip() else e})", flush=True)
                continue
            calls = 2 * n * a["_stdout"]
            rows.append([mode, f"{(b['Ir'] - a['Ir']) / calls:,.0f}", f"{(b.get('Bcm', 0) - a.get('Bcm', 0)) / calls:.1f}"])
            print(" | ".join(rows[-1]), flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=31, help="timed passes per kernel; the median is reported")
    ap.add_argument("--python", action="store_true", help="also count instructions per call through Python (slow)")
    ap.add_argument("--no-build", action="store_true", help="use the existing target/release/examples/hot")
    ap.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    ap.add_argument("--only", nargs="+", metavar="TEXT",
                    help="only the kernels and Python calls whose name contains one of these (implies --no-write)")
    args = ap.parse_args(argv)
    if args.only:
        args.no_write = True
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--example", "hot"], cwd=ROOT, check=True)
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    rows = rust_rows(args.runs, args.only)
    py = python_rows(args.only) if args.python else []
    cmd = "python benches/callgrind.py" + (" --python" if args.python else "") + f" --runs {args.runs}"
    md = [
        "## Instruction counts of the hot functions (callgrind)",
        "",
        f"Command: `{cmd}` · {machine()} · load average {load} at the start.",
        "",
        "Instructions and (simulated) mispredicted branches per item come from `valgrind --tool=callgrind "
        "--branch-sim=yes` and do not depend on the machine's load; the timings are medians of "
        f"{args.runs} passes over the same inputs, taken on a machine shared with other jobs, so they move "
        "with its load. Kernels: `examples/hot.rs` (`cargo run --release --example hot -- list`).",
        "",
        "| kernel | what | ns / item (median) | instructions / item | mispredicts / item |",
        "|---|---|---:|---:|---:|",
        *[f"| {' | '.join(r)} |" for r in rows],
    ]
    if py:
        md += [
            "",
            "Per call through Python (interpreter loop and a lambda included — the baseline row is that "
            "overhead alone, so a call's own cost is its row minus the baseline; difference of two runs with N "
            "and 3N calls, so import and set-up cancel), hupai and the peers on the same inputs:",
            "",
            "| call | instructions / call | mispredicts / call |",
            "|---|---:|---:|",
            *[f"| {' | '.join(r)} |" for r in py],
        ]
    text = "\n".join(md)
    print(text)
    if not args.no_write:
        write_section("callgrind", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
