"""Reinforcement-learning environments over the table engine (``docs/rl.md``).

* ``VecEnv(variant, n, seed=0, *, learners=None, opponents="greedy", auto_reset=True,
  threads=1, **switches)`` — ``n`` hands stepped in one core call with the GIL released; batched
  numpy observations, masks, seats, rewards and dones written in place.
* ``make(variant, seed=None, **switches)`` — a PettingZoo ``AECEnv`` (one agent per seat;
  ``pettingzoo`` and ``gymnasium`` must be installed).
* ``encoding(variant)`` — the action names, observation shape and plane meanings of a variant;
  ``encode(table, seat=None)`` — a ``hupai.Table``'s observation, mask and the ids of its legal
  actions.
* ``from_logs(logs)`` / ``from_trajectories(path)`` — event logs (``Table.log``, ``simulate``
  trajectories) → ``(observation, mask, action, reward)`` arrays.
* ``random_actions(mask, rng)`` — one uniformly random legal id per row of a mask.

The encoding (action ids, planes) is the core's (``hupai_core::game::encode``); nothing here
decides a rule.
"""

from __future__ import annotations

from typing import Any

from hupai._core import Variant

from hupai.env.data import from_logs, from_trajectories
from hupai.env.vec import VecEnv, encode, encoding, random_actions

__all__ = ["VecEnv", "encode", "encoding", "from_logs", "from_trajectories", "make", "random_actions"]


def make(variant: Variant | str, seed: int | None = None, render_mode: str | None = None, **switches: Any) -> Any:
    """A PettingZoo ``AECEnv`` for a table-played preset (mahjong or 字牌): agents ``seat_0`` …,
    observations ``{"observation": uint8 (planes, width), "action_mask": int8 (actions,)}``,
    ``Discrete(actions)`` actions (ids of ``env.action_names``), reward = each seat's settlement
    of the hand, deterministic by seed. One episode is one hand."""
    from hupai.env.aec import HupaiAECEnv

    return HupaiAECEnv(variant, seed=seed, render_mode=render_mode, **switches)
