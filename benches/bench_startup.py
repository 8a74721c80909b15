"""Start-up: ``import hupai`` and ``hupai --help`` in fresh interpreters (what every ``hupai``
command and every worker process pays once), median of ``--runs`` wall-clock runs, with the core's
own module init (its lookup tables) from ``python -X importtime``.

    python benches/bench_startup.py [--runs 11] [--no-write]

Writes the ``startup`` section of ``benches/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _results import machine, write_section  # noqa: E402


def wall(cmd: list[str], runs: int) -> float:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def core_init(runs: int) -> float:
    """Median self time of ``hupai._core`` in ``python -X importtime`` (its module init)."""
    out = []
    for _ in range(runs):
        err = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import hupai"], check=True, capture_output=True, text=True
        ).stderr
        line = next(x for x in err.splitlines() if x.rstrip().endswith("hupai._core"))
        out.append(int(line.split("|")[0].split(":")[1]) / 1e6)
    return statistics.median(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = ap.parse_args()
    rows = [
        ("`python -c pass` (the interpreter alone)", wall([sys.executable, "-c", "pass"], args.runs)),
        ("`python -c 'import hupai'`", wall([sys.executable, "-c", "import hupai"], args.runs)),
        ("`hupai --help`", wall([sys.executable, "-m", "hupai", "--help"], args.runs)),
        ("of which `hupai._core`'s init (its tables; `-X importtime`)", core_init(args.runs)),
    ]
    body = "\n".join(
        [
            "## Start-up (`benches/bench_startup.py`)",
            "",
            f"Machine: {machine()}.",
            "",
            f"Wall-clock seconds, median of {args.runs} fresh processes (`import hupai` does not import numpy; the",
            "batch functions import it when first called).",
            "",
            "| what | seconds |",
            "|---|---:|",
            *[f"| {what} | {s:.3f} |" for what, s in rows],
            "",
            f"Reproduce: `python benches/bench_startup.py --runs {args.runs}`.",
        ]
    )
    print(body)
    if not args.no_write:
        write_section("startup", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
