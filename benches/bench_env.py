"""RL environment throughput: ``hupai.env.VecEnv`` steps per second on one core, random legal
actions sampled in numpy, beside rlcard's mahjong and doudizhu envs and riichienv's env when
installed, in the same run. Writes the ``env`` section of ``benches/RESULTS.md``.

    python benches/bench_env.py                 # 5 rounds of about 2 s per engine, medians
    python benches/bench_env.py --rounds 3 --seconds 1

The card games (斗地主, 顶牛, 够级) sample from ``VecEnv.sample`` (the legal ids read from
``legal_ids()``, drawn in numpy) since their masks are wide (27,853 and 93,957 ids); the tile
games sample from the mask (``random_actions``).

A step is one decision of the seat to act (a discard, a claim answer, a pre-play choice): with
every seat a learner each decision is a step; with one learner seat and built-in bots at the
others, a step also plays the bots' decisions in the core (their count is shown).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _results import machine, write_section  # noqa: E402

from hupai import env as henv  # noqa: E402


def vec_round(
    variant: str,
    n: int,
    learners: list[int] | None,
    seconds: float,
    seed: int,
    ids: bool = False,
    switches: dict[str, str] | None = None,
) -> tuple[float, float, float]:
    env = henv.VecEnv(variant, n, seed=seed, learners=learners, opponents="random", threads=1, **(switches or {}))
    rng = np.random.default_rng(seed)
    mask = env.mask
    steps = 0
    st0 = env.stats()
    t0 = time.perf_counter()
    while True:
        env.step(env.sample(rng) if ids else henv.random_actions(mask, rng))
        steps += n
        el = time.perf_counter() - t0
        if el >= seconds:
            break
    st = env.stats()
    hands = st["episodes"] - st0["episodes"]
    dec_per_step = (st["decisions"] / st["steps"]) if st["steps"] else 1.0
    return steps / el, hands / el, dec_per_step


def rlcard_round(seconds: float, seed: int) -> tuple[float, float, float]:
    import rlcard

    env = rlcard.make("mahjong", config={"seed": seed})
    rng = np.random.default_rng(seed)
    steps = hands = 0
    t0 = time.perf_counter()
    state, _pid = env.reset()
    while True:
        legal = list(state["legal_actions"].keys())
        state, _pid = env.step(legal[int(rng.integers(len(legal)))])
        steps += 1
        if env.is_over():
            hands += 1
            state, _pid = env.reset()
            el = time.perf_counter() - t0
            if el >= seconds:
                break
    el = time.perf_counter() - t0
    return steps / el, hands / el, 1.0


def rlcard_doudizhu_round(seconds: float, seed: int) -> tuple[float, float, float]:
    """rlcard's doudizhu env, every seat random among its legal action ids."""
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": seed})
    rng = np.random.default_rng(seed)
    steps = hands = 0
    t0 = time.perf_counter()
    state, _pid = env.reset()
    while True:
        legal = list(state["legal_actions"].keys())
        state, _pid = env.step(legal[int(rng.integers(len(legal)))])
        steps += 1
        if env.is_over():
            hands += 1
            state, _pid = env.reset()
            el = time.perf_counter() - t0
            if el >= seconds:
                break
    el = time.perf_counter() - t0
    return steps / el, hands / el, 1.0


def riichienv_round(seconds: float, seed: int) -> tuple[float, float, float]:
    """riichienv's env, one-round games (``4p-red-single``, mjai logging off), every seat random
    among its legal actions; a step is one seat's decision (seats answering a claim together are
    one decision each)."""
    import random

    import riichienv

    env = riichienv.RiichiEnv(game_mode="4p-red-single", skip_mjai_logging=True, seed=seed)
    rng = random.Random(seed)
    steps = hands = 0
    t0 = time.perf_counter()
    while True:
        obs = env.reset()
        while not env.done():
            acts = {pid: rng.choice(o.legal_actions()) for pid, o in obs.items()}
            steps += len(acts)
            obs = env.step(acts)
        hands += 1
        el = time.perf_counter() - t0
        if el >= seconds:
            break
    return steps / el, hands / el, 1.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="timed rounds per engine (median reported; default 5)")
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one round in seconds (default 2)")
    ap.add_argument("--envs", type=int, default=256, help="tables per VecEnv (default 256)")
    ap.add_argument("--card-envs", type=int, default=64, help="tables per VecEnv for the card games (default 64)")
    ap.add_argument("--only-cards", action="store_true", help="time the card games and rlcard doudizhu only (prints; does not write RESULTS.md)")
    ap.add_argument("--no-write", action="store_true", help="print only, do not write RESULTS.md")
    args = ap.parse_args()

    rows: list[tuple[str, str, float, float, float]] = []

    def med(name: str, what: str, fn: Callable[[int], tuple[float, float, float]]) -> None:
        res = [fn(r) for r in range(args.rounds)]
        s = statistics.median(x[0] for x in res)
        h = statistics.median(x[1] for x in res)
        d = statistics.median(x[2] for x in res)
        rows.append((name, what, s, h, d))
        print(f"{name:28s} {what:42s} {s:12,.0f} steps/s {h:9,.0f} hands/s  ({d:.2f} decisions/step)", flush=True)

    if not args.only_cards:
        for v in ("sichuan", "mcr"):
            med(f"hupai VecEnv {v}", f"n={args.envs}, every seat a learner", lambda r, v=v: vec_round(v, args.envs, None, args.seconds, r))
            med(f"hupai VecEnv {v}", f"n={args.envs}, seat 0 vs 3 random bots", lambda r, v=v: vec_round(v, args.envs, [0], args.seconds, r))
        med("hupai VecEnv zipai_hunan", f"n={args.envs}, every seat a learner", lambda r: vec_round("zipai_hunan", args.envs, None, args.seconds, r))
    ce = args.card_envs
    for v, seats in (("doudizhu_qq", 3), ("dingniu", 4), ("gouji", 6)):
        med(f"hupai VecEnv {v}", f"n={ce}, every seat a learner", lambda r, v=v: vec_round(v, ce, None, args.seconds, r, ids=True))
        med(f"hupai VecEnv {v}", f"n={ce}, seat 0 vs {seats - 1} random bots", lambda r, v=v: vec_round(v, ce, [0], args.seconds, r, ids=True))
    med(
        "hupai VecEnv doudizhu_qq (rlcard ids)",
        f"n={ce}, single_kickers=no_adjacent_triple, every seat a learner",
        lambda r: vec_round("doudizhu_qq", ce, None, args.seconds, r, ids=True, switches={"single_kickers": "no_adjacent_triple"}),
    )
    peers: list[str] = []
    try:
        import rlcard  # noqa: F401

        if not args.only_cards:
            med("rlcard mahjong", "1 env, every seat random", lambda r: rlcard_round(args.seconds, r))
        med("rlcard doudizhu", "1 env, every seat random", lambda r: rlcard_doudizhu_round(args.seconds, r))
    except ImportError:
        peers.append("rlcard is not installed")
    if args.only_cards:
        return
    try:
        import riichienv  # noqa: F401

        med("riichienv RiichiEnv", "1 env, one-round riichi games, every seat random", lambda r: riichienv_round(args.seconds, r))
    except ImportError:
        peers.append("riichienv is not installed on this machine (`pip show riichienv`), so it is not timed")

    lines = [
        "## RL environment (`benches/bench_env.py`)",
        "",
        f"Machine: {machine()}. **Shared machine** (other engineers' builds and tests were running): "
        f"medians of {args.rounds} rounds of {args.seconds:g} s, one thread (`threads=1`: per core). "
        "Random legal actions are sampled in numpy (`hupai.env.random_actions`) and their cost is included. "
        "A step is one learner decision; with bots at the other seats it also plays their decisions in the core.",
        "",
        "| engine | setting | steps/s | hands/s | decisions per step |",
        "|---|---|---:|---:|---:|",
    ]
    for name, what, s, h, d in rows:
        lines.append(f"| {name} | {what} | {s:,.0f} | {h:,.0f} | {d:.2f} |")
    lines += [
        "",
        "Target (issue 17): ≥ 50,000 steps/s per core for 四川 and MCR. The card games (issues 15, 18, 19) "
        f"run {args.card_envs} tables and sample with `VecEnv.sample` (legal ids, not the wide mask).",
    ]
    for p in peers:
        lines.append(f"- {p}.")
    lines.append("")
    lines.append(
        f"Command: `python benches/bench_env.py --rounds {args.rounds} --seconds {args.seconds:g} --envs {args.envs} --card-envs {args.card_envs}`"
    )
    if not args.no_write:
        write_section("env", "\n".join(lines))


if __name__ == "__main__":
    main()
