"""够级 benchmark: legal-play enumeration per call, and whole hands per second with built-in bots.

No 够级 engine is published on PyPI (rlcard ships no 够级; lamb-cn/rlcard_gouji is a GitHub fork of
a different app variant), so the baseline is a **naive Python enumeration written here**: nested
loops over how many cards of each rank group a play takes, each candidate built as a list of card
values, normalised and compared card by card in Python (the definition of gouji.md §4.3). It
returns the same plays as hupai (checked on every input in the run).

Measured, on the same dealt 36-card hands (the six hands of each seed) and the same top plays:

* ``hupai.gouji.legal_plays(hand, top)``: one Python call per hand (parsing and the list of
  strings included);
* ``hupai.gouji.batch_legal_count(hands, top)``: per hand, an (N, 15) array, GIL released, all
  cores;
* the naive Python enumeration, per hand;
* whole hands: ``hupai.gouji.simulate(n, bots=..., parallel=False)`` (one core, every decision in
  Rust, tribute carried over matches of 10 hands), the same on all cores, and a hand driven from
  Python (``Game.step(Game.bot_action("random"))`` per decision).

Writes the ``gouji`` section of ``benches/RESULTS.md``.

    python benches/bench_gouji.py [--seeds 300] [--sim-hands 20000] [--no-write]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import machine, write_section  # noqa: E402

from hupai import gouji  # noqa: E402

ORDER = "3456789TJQKA2wW"
VAL = {c: i + 3 for i, c in enumerate(ORDER)}
TOPS: list[str | None] = [None, "5", "99", "KK", "JJJJ", "ww888", "2"]


def naive_legal(hand: str, top: str | None, bie_san: bool = True) -> list[str]:
    """Naive enumeration: every (base rank, count, 2s, 小花, 大花) combination, compared card by card."""
    cnt = {c: hand.count(c) for c in ORDER}

    def values(cards: list[str]) -> list[int]:
        base = [c for c in cards if c not in "2wW"]
        jok = [c for c in cards if c in "wW"]
        b = base[0] if base else ("2" if "2" in cards else None)
        jv = [VAL["w"]] * len(jok) if "w" in jok else sorted((VAL[j] for j in jok), reverse=True)
        return jv + ([VAL[b]] * (len(cards) - len(jok)) if b else [])

    tv = values(list(top)) if top else None
    only3 = set(hand) == {"3"}
    out = []
    for base in [None, *ORDER[:12]]:
        nb_range = range(1, cnt[base] + 1) if base else range(0, 1)
        for nb in nb_range:
            for n2 in range(cnt["2"] + 1):
                for nw in range(cnt["w"] + 1):
                    for nW in range(cnt["W"] + 1):
                        cards = ([base] * nb if base else []) + ["2"] * n2 + ["w"] * nw + ["W"] * nW
                        if not cards:
                            continue
                        if bie_san and base == "3" and not (only3 and n2 + nw + nW == 0):
                            continue
                        if tv is not None:
                            v = values(cards)
                            if len(v) != len(tv) or not all(a > b for a, b in zip(v, tv, strict=True)):
                                continue
                        out.append("".join(sorted(cards, key=ORDER.index, reverse=True)))
    return out


def timed(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    best = float("inf")
    res: Any = None
    for _ in range(repeat):
        t = time.perf_counter()
        res = fn()
        best = min(best, time.perf_counter() - t)
    return best, res


def dealt_hands(seeds: int) -> list[str]:
    out = []
    for s in range(seeds):
        out.extend(gouji.Game(seed=s, log=False).hands)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=300, help="deals (6 hands each) for the enumeration timings")
    ap.add_argument("--sim-hands", type=int, default=20000, help="hands per simulate() timing")
    ap.add_argument("--py-hands", type=int, default=100, help="hands driven from Python")
    ap.add_argument("--no-write", action="store_true", help="print only, do not write RESULTS.md")
    args = ap.parse_args()

    hands = dealt_hands(args.seeds)
    arr = np.array([[h.count(c) for c in ORDER] for h in hands], np.uint8)
    rules = gouji.Rules()
    rows = []
    for top in TOPS:
        t_h, res_h = timed(lambda top=top: [gouji.legal_plays(h, top, rules=rules) for h in hands])
        t_b, res_b = timed(lambda top=top: gouji.batch_legal_count(arr, top, rules=rules))
        t_n, res_n = timed(lambda top=top: [naive_legal(h, top) for h in hands], repeat=1)
        for a, b, c in zip(res_h, res_n, res_b, strict=True):
            assert sorted(a) == sorted(b) and len(a) == c, (a, b, c)
        n = len(hands)
        mean = float(np.mean([len(x) for x in res_h]))
        rows.append((top or "(lead)", mean, t_h / n * 1e6, t_b / n * 1e6, t_n / n * 1e6))
        print(f"top {top or '(lead)':8s} plays {mean:7.1f}  hupai {t_h / n * 1e6:8.2f} µs  batch {t_b / n * 1e6:7.3f} µs  naive {t_n / n * 1e6:9.1f} µs", flush=True)

    sims = []
    for bots, parallel in (("random", False), ("greedy", False), ("random", True), ("greedy", True)):
        t, st = timed(lambda b=bots, p=parallel: gouji.simulate(args.sim_hands, seed=11, bots=b, parallel=p), repeat=2)
        dec = st["decisions"] / st["hands"]
        sims.append((bots, parallel, st["hands"] / t, dec))
        print(f"simulate {bots:6s} {'all cores' if parallel else 'one core '}: {st['hands'] / t:9.0f} hands/s ({dec:.0f} decisions/hand)", flush=True)

    def py_loop() -> int:
        n = 0
        for s in range(args.py_hands):
            g = gouji.Game(seed=s, log=False)
            k = 0
            while not g.is_over:
                a = g.bot_action("random", k)
                assert a is not None
                g.step(a)
                k += 1
            n += 1
        return n

    t_py, n_py = timed(py_loop, repeat=1)
    print(f"Python-driven loop (Game.step per decision): {n_py / t_py:.0f} hands/s", flush=True)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "## 够级 (gouji)",
        "",
        f"`python benches/bench_gouji.py --seeds {args.seeds} --sim-hands {args.sim_hands}` — {machine()}; load average {load:.1f} at the end "
        "(the machine was shared with other jobs: figures are lower bounds)",
        "",
        f"Legal-play enumeration on {len(hands)} dealt 36-card hands per top play (µs per hand; the naive Python baseline is written "
        "in the script — no 够级 engine is on PyPI; results checked equal on every hand):",
        "",
        "| top play | legal plays (mean) | `gouji.legal_plays` (one call) | `gouji.batch_legal_count` (per hand, all cores) | naive Python | hupai call vs naive |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for top, mean, th, tb, tn in rows:
        lines.append(f"| {top} | {mean:.1f} | {th:.2f} | {tb:.3f} | {tn:.1f} | {tn / th:.0f}× |")
    lines += [
        "",
        "Whole hands with the built-in bots (`gouji.simulate`, every decision in Rust, tribute carried across matches of 10 hands; "
        "goal ≥ 5,000 hands/s per core with random bots):",
        "",
        "| bots | cores | hands/s | decisions per hand |",
        "|---|---|---:|---:|",
    ]
    for bots, parallel, hps, dec in sims:
        lines.append(f"| {bots} | {'all (' + str(os.cpu_count()) + ')' if parallel else 'one'} | {hps:,.0f} | {dec:.0f} |")
    lines += [
        f"| random, driven from Python (`Game.step(Game.bot_action('random'))` per decision) | one | {n_py / t_py:,.0f} | — |",
        "",
        "Inside Rust (criterion, `cargo bench --bench gouji`): leads of a dealt hand, answers to a top play, burn options, 100 hands.",
    ]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("gouji", body)


if __name__ == "__main__":
    main()
