"""Behaviour cloning of a linear policy with numpy only (docs/rl.md).

1. Built-in greedy bots play ``--train-hands`` hands in the core (``hupai.simulate``); every
   decision of every seat becomes a row ``(observation, mask, action)`` (``hupai.env.from_logs``).
2. A linear softmax policy over the flat action space (logits = W·obs + b, illegal ids masked) is
   fitted to the greedy actions by minibatch Adam on the cross-entropy.
3. The policy plays seat 0 of ``hupai.env.VecEnv`` against three random agents for
   ``--eval-hands`` hands; its win rate is printed beside a random policy's in the same seats.

    python examples/bc_linear.py                      # 四川, 600 training hands, 1,000 hands
    python examples/bc_linear.py --train-hands 60 --eval-hands 100 --epochs 1   # CI budget
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

import hupai
from hupai import env as henv

Policy = Callable[[npt.NDArray[np.uint8], npt.NDArray[np.bool_]], npt.NDArray[np.int64]]


def features(obs: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """Flattened planes scaled to about 0..1 (counts are ≤ 4; the scalar rows go higher)."""
    return np.minimum(obs.reshape(len(obs), -1).astype(np.float32), 8.0) * 0.25


def masked_softmax(logits: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:
    z = np.where(mask, logits, -1e9)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z) * mask
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def train(data: dict[str, np.ndarray], epochs: int, batch: int, lr: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x_all, m_all, y_all = data["obs"], data["mask"], data["action"]
    n, a = len(y_all), m_all.shape[1]
    d = x_all[0].size
    w = np.zeros((d, a), np.float32)
    b = np.zeros(a, np.float32)
    mw, vw, mb, vb = np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)
    t = 0
    for ep in range(epochs):
        order = rng.permutation(n)
        loss = acc = 0.0
        for lo in range(0, n, batch):
            idx = order[lo : lo + batch]
            x, m, y = features(x_all[idx]), m_all[idx], y_all[idx]
            p = masked_softmax(x @ w + b, m)
            loss += float(-np.log(p[np.arange(len(y)), y] + 1e-9).sum())
            acc += float((p.argmax(axis=1) == y).sum())
            g = p
            g[np.arange(len(y)), y] -= 1.0
            g /= len(y)
            gw, gb = x.T @ g, g.sum(axis=0)
            t += 1
            for par, grad, mm, vv in ((w, gw, mw, vw), (b, gb, mb, vb)):
                mm *= 0.9
                mm += 0.1 * grad
                vv *= 0.999
                vv += 0.001 * grad * grad
                par -= lr * (mm / (1 - 0.9**t)) / (np.sqrt(vv / (1 - 0.999**t)) + 1e-8)
        print(f"  epoch {ep + 1}: cross-entropy {loss / n:.3f}, agreement with greedy {acc / n:.1%}")
    return w, b


def evaluate(variant: str, policy: Policy, hands: int, envs: int, seed: int) -> tuple[int, int]:
    """``(hands seat 0 won, hands played)``: the policy at seat 0, random agents at the others."""
    env = henv.VecEnv(variant, envs, seed=seed, learners=[0], opponents="random")
    played = won = 0
    while played < hands:
        _o, _m, _s, _r, done = env.step(policy(env.obs, env.mask))
        for i in np.flatnonzero(done)[: hands - played]:  # the first `hands` hands to finish
            played += 1
            log = env.last_log(int(i))
            assert log is not None
            won += int(any(r.get("type") == "win" and r.get("seat") == 0 for r in log))
    return won, played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="sichuan", help="a table-played preset (default: sichuan)")
    ap.add_argument("--train-hands", type=int, default=600, help="greedy hands to clone (default: 600)")
    ap.add_argument("--eval-hands", type=int, default=1000, help="hands against random agents (default: 1000)")
    ap.add_argument("--epochs", type=int, default=4, help="passes over the data (default: 4)")
    ap.add_argument("--batch", type=int, default=512, help="minibatch rows (default: 512)")
    ap.add_argument("--lr", type=float, default=3e-3, help="Adam step size (default: 0.003)")
    ap.add_argument("--envs", type=int, default=64, help="tables stepped together in evaluation (default: 64)")
    ap.add_argument("--seed", type=int, default=0, help="master seed (default: 0)")
    args = ap.parse_args()

    t0 = time.perf_counter()
    res = hupai.simulate(args.variant, args.train_hands, agents="greedy", seed=args.seed, keep_logs=True)
    data = henv.from_logs([r["log"] for r in res.records])
    print(f"{args.variant}: {len(data['action'])} greedy decisions from {args.train_hands} hands ({time.perf_counter() - t0:.1f}s)")
    w, b = train(data, args.epochs, args.batch, args.lr, args.seed)

    def linear(obs: npt.NDArray[np.uint8], mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        z = np.where(mask, features(obs) @ w + b, -np.inf)
        return z.argmax(axis=1).astype(np.int64)

    rng = np.random.default_rng(args.seed)

    def uniform(obs: npt.NDArray[np.uint8], mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        return henv.random_actions(mask, rng)

    n_envs = max(1, min(args.envs, args.eval_hands))
    lw, ln = evaluate(args.variant, linear, args.eval_hands, n_envs, args.seed + 1)
    rw, rn = evaluate(args.variant, uniform, args.eval_hands, n_envs, args.seed + 1)
    print(f"linear BC policy vs 3 random agents: won {lw}/{ln} hands = {lw / ln:.1%}")
    print(f"random policy    vs 3 random agents: won {rw}/{rn} hands = {rw / rn:.1%}")
    print(f"total {time.perf_counter() - t0:.1f}s")


if __name__ == "__main__":
    main()
