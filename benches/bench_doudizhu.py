"""斗地主 benchmark: legal-move generation per call and whole games, hupai against its peers.

* Legal moves on the same random game states (hands and the move on the table met in random
  self-play), one call per state through Python, each engine with its inputs and outputs in its own
  format (converted outside the timed loop) and under the matching hupai rule profile:
  - DouZero 1.1.0 (``pip install --no-deps douzero==1.1.0``): ``GameEnv.get_legal_card_play_actions``,
    i.e. ``move_generator.MovesGener`` + ``move_detector.get_move_type`` + ``move_selector`` filters;
  - rlcard 1.2.0: ``DoudizhuJudger.playable_cards_from_hand`` for leads (from scratch; rlcard's game
    caches it per player and updates it) and ``utils.get_gt_cards`` for answers (what its game calls);
  - hupai: ``hupai.doudizhu.legal_moves(hand, last, rules=...)`` (list of str), and the batch count
    (``batch_legal_count``, rayon + GIL released) per state.
  The results are compared in the same run (rlcard: identical; DouZero: identical except the two
  DouZero defects of doudizhu.md §12.3, counted).
* Whole games with built-in random bots: ``hupai.doudizhu.simulate(n, threads=1)`` (Rust, one core)
  against rlcard's ``doudizhu`` env driven by ``RandomAgent`` and DouZero's ``GameEnv`` with random
  agents.

Writes the ``doudizhu`` section of ``benches/RESULTS.md``:

    python benches/bench_doudizhu.py [--states 3000] [--games 300] [--no-write]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import machine, write_section  # noqa: E402

from hupai import doudizhu as ddz  # noqa: E402

RANKS = "3456789TJQKA2xX"
_DZ = {**{RANKS[i]: i + 3 for i in range(12)}, "2": 17, "x": 20, "X": 30}
_DZ_BACK = {v: k for k, v in _DZ.items()}


class _Obj:
    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)


def states(n: int, seed: int) -> list[tuple[str, str | None]]:
    """Decision points of the play phase met in random self-play (default rules)."""
    out: list[tuple[str, str | None]] = []
    i = 0
    while len(out) < n:
        g = ddz.Game(seed=seed + i, first_bidder=i % 3)
        step = 0
        while not g.is_over:
            s = g.to_act
            assert s is not None
            if g.phase == "play":
                top = g.observation(s)["top"]
                out.append((g.hand(s), top["cards"] if top else None))
            g.step(g.bot_action("random", seed=i * 1000 + step))
            step += 1
        i += 1
    random.Random(seed).shuffle(out)
    return out[:n]


def per_call(fn: Callable[[Any], Any], inputs: list[Any], repeat: int = 1) -> float:
    """Best of ``repeat`` runs: µs per call."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for x in inputs:
            fn(x)
        best = min(best, time.perf_counter() - t)
    return best / len(inputs) * 1e6


def bench_douzero(st: list[tuple[str, str | None]]) -> dict[str, Any]:
    from douzero.env.game import GameEnv

    rules = ddz.Rules(profile="douzero")
    envs = []
    for hand, last in st:
        envs.append(
            _Obj(
                acting_player_position="landlord",
                info_sets={"landlord": _Obj(player_hand_cards=sorted(_DZ[c] for c in hand))},
                card_play_action_seq=[sorted(_DZ[c] for c in last)] if last else [],
            )
        )
    args = [(h, last) for h, last in st]
    peer_us = per_call(GameEnv.get_legal_card_play_actions, envs, repeat=3)
    ours_us = per_call(lambda a: ddz.legal_moves(a[0], a[1], rules=rules), args, repeat=3)
    same = differ = 0
    for env, (hand, last) in zip(envs, st):
        theirs = {ddz.parse("".join(_DZ_BACK[c] for c in m)) for m in GameEnv.get_legal_card_play_actions(env) if m}
        if theirs == set(ddz.legal_moves(hand, last, rules=rules)):
            same += 1
        else:
            differ += 1
    return {"peer": peer_us, "ours": ours_us, "same": same, "differ": differ, "n": len(st)}


def bench_rlcard(st: list[tuple[str, str | None]]) -> dict[str, Any]:
    from rlcard.games.base import Card
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards

    rules = ddz.Rules(profile="rlcard")
    st = [(h, last) for h, last in st if last is None or ddz.classify(last, rules=rules)]

    def rl(cards: str) -> str:
        return cards.replace("x", "B").replace("X", "R")

    def rl_cards(cards: str) -> list[Any]:
        return [Card("BJ", "") if c == "B" else Card("RJ", "") if c == "R" else Card("S", c) for c in rl(cards)]

    calls: list[Callable[[], Any]] = []
    for hand, last in st:
        if last is None:
            calls.append(lambda h=rl(hand): DoudizhuJudger.playable_cards_from_hand(h))
        else:
            me, rival = _Obj(current_hand=rl_cards(hand)), _Obj(played_cards=rl(last))
            calls.append(lambda me=me, rival=rival: get_gt_cards(me, rival))
    peer_us = per_call(lambda f: f(), calls, repeat=3)
    ours_us = per_call(lambda a: ddz.legal_moves(a[0], a[1], rules=rules), st, repeat=3)
    same = 0
    for f, (hand, last) in zip(calls, st):
        theirs = {ddz.parse(x.replace("B", "x").replace("R", "X")) for x in f() if x != "pass"}
        same += theirs == set(ddz.legal_moves(hand, last, rules=rules))
    leads = sum(last is None for _, last in st)
    lead_us = per_call(lambda a: ddz.legal_moves(a[0], a[1], rules=rules), [s for s in st if s[1] is None], repeat=3)
    peer_lead_us = per_call(lambda f: f(), [f for f, s in zip(calls, st) if s[1] is None], repeat=3)
    return {
        "peer": peer_us,
        "ours": ours_us,
        "same": same,
        "n": len(st),
        "leads": leads,
        "lead_ours": lead_us,
        "lead_peer": peer_lead_us,
    }


def bench_batch(st: list[tuple[str, str | None]]) -> float:
    import numpy as np

    hands = ddz.counts_batch([h for h, _ in st])
    lasts = ddz.counts_batch([last or "" for _, last in st])
    ddz.batch_legal_count(hands, lasts)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        out = ddz.batch_legal_count(hands, lasts)
        best = min(best, time.perf_counter() - t)
    assert int(np.asarray(out).sum()) == sum(len(ddz.legal_moves(h, last)) for h, last in st)
    return best / len(st) * 1e6


def games_hupai(n: int) -> float:
    ddz.simulate(200, seed=1, threads=1)
    st = ddz.simulate(n, seed=2, threads=1)
    return st["hands"] / st["seconds"]


def games_rlcard(n: int) -> float:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("doudizhu", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(3)])
    env.run(is_training=False)
    t = time.perf_counter()
    for _ in range(n):
        env.run(is_training=False)
    return n / (time.perf_counter() - t)


def games_douzero(n: int) -> float:
    from douzero.env.game import GameEnv

    rng = random.Random(0)

    class RandomPlayer:
        def act(self, infoset: Any) -> Any:
            return rng.choice(infoset.legal_actions)

    deck = [r for r in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30]
    env = GameEnv({p: RandomPlayer() for p in ("landlord", "landlord_up", "landlord_down")})
    t = time.perf_counter()
    for _ in range(n):
        d = deck[:]
        rng.shuffle(d)
        env.card_play_init(
            {
                "landlord": sorted(d[:20]),
                "landlord_up": sorted(d[20:37]),
                "landlord_down": sorted(d[37:54]),
                "three_landlord_cards": sorted(d[17:20]),
            }
        )
        while not env.game_over:
            env.step()
        env.reset()
    return n / (time.perf_counter() - t)


def criterion_lines() -> list[str]:
    """The criterion bench (optional: compiles the bench in release mode)."""
    r = subprocess.run(
        ["cargo", "bench", "-q", "--bench", "doudizhu", "--", "--warm-up-time", "1", "--measurement-time", "3"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        check=False,
    )
    lines, name = [], ""
    for line in r.stdout.splitlines():
        if line.startswith("doudizhu"):
            name = line.strip()
        elif "time:" in line and name:
            mid = line.split("[")[1].split()[2:4]
            lines.append(f"| {name} | {' '.join(mid)} |")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=3000, help="random game states for the legal-move timing")
    ap.add_argument("--games", type=int, default=300, help="games for the peers' whole-game timing")
    ap.add_argument("--hupai-games", type=int, default=50000, help="games for hupai's whole-game timing")
    ap.add_argument("--criterion", action="store_true", help="also run the criterion bench (slow to compile)")
    ap.add_argument("--no-write", action="store_true", help="print only; do not write RESULTS.md")
    args = ap.parse_args()

    st = states(args.states, seed=11)
    leads = sum(last is None for _, last in st)
    print(f"{len(st)} states ({leads} leads, {len(st) - leads} answers)", flush=True)
    dz = bench_douzero(st)
    print("douzero", dz, flush=True)
    rl = bench_rlcard(st)
    print("rlcard", rl, flush=True)
    batch_us = bench_batch(st)
    print("batch", batch_us, flush=True)
    g_h = games_hupai(args.hupai_games)
    g_rl = games_rlcard(args.games)
    g_dz = games_douzero(args.games)
    print("games/s", g_h, g_rl, g_dz, flush=True)
    crit = criterion_lines() if args.criterion else []

    cmd = f"python benches/bench_doudizhu.py --states {args.states} --games {args.games}" + (" --criterion" if args.criterion else "")
    body = f"""## 斗地主: legal moves per call and whole games

`{cmd}` — {machine()}. The machine is shared with other jobs: absolute figures are noisy, same-run
ratios are meaningful.

Legal moves on {len(st)} game states met in random self-play ({leads} leads, {len(st) - leads} answers to the
move on the table), one call per state through Python (best of 3 passes over all states, for every
engine); each engine in its own card format and under
the matching hupai rule profile (§11); results compared in the same run.

| engine (profile) | µs per call | hupai speed-up | same move set |
|---|---:|---:|---|
| DouZero 1.1.0 `GameEnv.get_legal_card_play_actions` (move_generator + move_detector + move_selector) | {dz['peer']:.1f} | | |
| hupai `doudizhu.legal_moves(hand, last, rules=Rules(profile="douzero"))` | {dz['ours']:.2f} | **{dz['peer'] / dz['ours']:.0f}×** | {dz['same']}/{dz['n']} states{f" (the {dz['differ']} others: DouZero defects §12.3)" if dz['differ'] else ""} |
| rlcard 1.2.0 `playable_cards_from_hand` (leads) / `get_gt_cards` (answers) | {rl['peer']:.1f} | | |
| hupai `doudizhu.legal_moves(hand, last, rules=Rules(profile="rlcard"))` | {rl['ours']:.2f} | **{rl['peer'] / rl['ours']:.0f}×** | {rl['same']}/{rl['n']} states |
| — leads only: rlcard `playable_cards_from_hand` vs hupai ({rl['leads']} states) | {rl['lead_peer']:.1f} vs {rl['lead_ours']:.2f} | {rl['lead_peer'] / rl['lead_ours']:.0f}× | |
| hupai `doudizhu.batch_legal_count` (N, 15) uint8, rayon + GIL released, per state | {batch_us:.3f} | {dz['peer'] / batch_us:.0f}× DouZero | |

Whole games with random bots (deal, auction where the engine has one, play to the end, settlement):

| engine | games/s (one core) | hupai speed-up |
|---|---:|---:|
| hupai `doudizhu.simulate(n, threads=1)` (Rust: random bots, auction, events, settlement) | {g_h:,.0f} | |
| rlcard 1.2.0 `doudizhu` env, 3 × `RandomAgent`, `env.run` (no auction) | {g_rl:,.0f} | {g_h / g_rl:,.0f}× |
| DouZero 1.1.0 `GameEnv`, 3 random agents (no auction) | {g_dz:,.0f} | {g_h / g_dz:,.0f}× |
"""
    if crit:
        body += "\nInside Rust (criterion, `cargo bench --bench doudizhu`; middle estimate):\n\n| bench | time |\n|---|---:|\n" + "\n".join(crit) + "\n"
    body += """
Notes. Targets of issue 15: ≥ 50× DouZero's generator and ≥ 20× rlcard's per call through Python,
≥ 20,000 games/s per core. hupai's call includes parsing the strings, the generation (rank masks,
AND-ed shifted masks for chains, a capped recursion for kickers; no allocation per move) and
building the Python list of strings. rlcard's game keeps the leads of each player cached and prunes
them as cards leave; the timing above calls its generator from scratch, as for any new state.
"""
    print(body)
    if not args.no_write:
        write_section("doudizhu", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
