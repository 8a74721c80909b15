"""Quick timing of the analysis API (single calls and ``hupai.batch``).

    python benches/analysis_timing.py            # all cores
    RAYON_NUM_THREADS=1 python benches/analysis_timing.py

Prints ns per call / per hand (best of 5; wall and process CPU time). Random hands: 14 tiles for
``is_winning``, 13 for ``shanten`` and ``waits``; ``/std`` = ``Shapes.STANDARD``, ``/all`` = every shape.
"""

from __future__ import annotations

import os
import time
import timeit

import numpy as np

import hupai


def random_hands(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    t = rng.integers(0, 34, (n * 2, size))
    c = np.zeros((n * 2, 34), np.uint8)
    np.add.at(c, (np.repeat(np.arange(n * 2), size), t.ravel()), 1)
    return np.ascontiguousarray(c[c.max(axis=1) <= 4][:n])


def main() -> None:
    std = hupai.Shapes.STANDARD
    print("single calls (ns per call, best of 5):")
    cases = [
        ("is_winning(str)", lambda: hupai.is_winning("123m456p789s234sEE")),
        ("is_winning(Hand)", (lambda h: lambda: hupai.is_winning(h))(hupai.Hand("123m456p789s234sEE"))),
        ("shanten(str)", lambda: hupai.shanten("123m456p789s23sEEC")),
        ("shanten(Hand, std)", (lambda h: lambda: hupai.shanten(h, shapes=std))(hupai.Hand("123m456p789s23sEEC"))),
        ("waits(str)", lambda: hupai.waits("123m456p789s23sEE")),
        ("waits(Hand) 9-sided", (lambda h: lambda: hupai.waits(h))(hupai.Hand("1112345678999m"))),
    ]
    for name, f in cases:
        n = 200_000
        best = min(timeit.repeat(f, number=n, repeat=5)) / n
        print(f"  {name:22s} {best * 1e9:7.1f}")
    rng = np.random.default_rng(1)
    n = 400_000
    h14, h13 = random_hands(rng, n, 14), random_hands(rng, n, 13)
    print(f"batch (ns per hand, RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', 'all')}):")
    for name, f, a, kw in [
        ("is_winning/std", hupai.batch.is_winning, h14, {"shapes": std}),
        ("is_winning/all", hupai.batch.is_winning, h14, {}),
        ("shanten/std", hupai.batch.shanten, h13, {"shapes": std}),
        ("shanten/all", hupai.batch.shanten, h13, {}),
        ("waits/std", hupai.batch.waits, h13, {"shapes": std}),
        ("waits/all", hupai.batch.waits, h13, {}),
    ]:
        f(a[:1000], **kw)
        wall = cpu = 1e9
        for _ in range(5):
            t, c = time.perf_counter(), time.process_time()
            f(a, **kw)
            wall = min(wall, time.perf_counter() - t)
            cpu = min(cpu, time.process_time() - c)
        print(f"  {name:16s} wall {wall / len(a) * 1e9:6.1f}  cpu {cpu / len(a) * 1e9:6.1f}")


if __name__ == "__main__":
    main()
