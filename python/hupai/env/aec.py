"""The PettingZoo ``AECEnv`` of a table-played preset (``hupai.env.make``): one hand per episode,
one agent per seat, over a one-table ``VecEnv`` without automatic reset."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from hupai._core import Variant, game_seed
from hupai.env.vec import VecEnv

__all__ = ["HupaiAECEnv"]


class HupaiAECEnv(AECEnv):  # type: ignore[misc]
    """One hand of a preset as a PettingZoo AEC environment.

    Agents ``seat_0`` … ``seat_{n-1}``; ``agent_selection`` is the seat to decide. Observations are
    ``{"observation": uint8 (planes, width), "action_mask": int8 (actions,)}`` (the mask is all
    zero for a seat not to act); actions are ids of ``action_names`` (``Discrete``). When the
    hand ends every agent is terminated and rewarded with its settlement. ``reset(seed=s)`` deals
    ``VecEnv(variant, 1, s)``'s first hand; ``reset()`` without a seed deals the next hand of the
    last seed.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "hupai_v0", "is_parallelizable": False}

    def __init__(self, variant: Variant | str, seed: int | None = None, render_mode: str | None = None, **switches: Any) -> None:
        super().__init__()
        self._vec = VecEnv(variant, 1, 0 if seed is None else seed, auto_reset=False, **switches)
        self.variant = self._vec.variant
        self.metadata = dict(self.metadata, name=f"hupai_{self.variant.id}_v0")
        self.render_mode = render_mode
        self.action_names = self._vec.action_names
        n = self._vec.seats
        self.possible_agents = [f"seat_{k}" for k in range(n)]
        planes, width = self._vec.obs_shape
        a = self._vec.n_actions
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (planes, width), np.uint8),
                "action_mask": spaces.Box(0, 1, (a,), np.int8),
            }
        )
        self.observation_spaces = {ag: obs_space for ag in self.possible_agents}
        self.action_spaces = {ag: spaces.Discrete(a) for ag in self.possible_agents}
        self._seed = 0 if seed is None else seed
        self._hands = 0
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        obs, mask = self._vec.observe(0, self._seat(agent))
        return {"observation": obs, "action_mask": mask.astype(np.int8)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed, self._hands = seed, 0
            self._vec.reset(seed)
        else:
            self._vec.reset(self._seed if self._hands == 0 else game_seed(self._seed, self._hands))
        self._hands += 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[int(self._vec.seat[0])]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        _obs, _mask, seat, reward, done = self._vec.step(np.array([int(action)], dtype=np.int64))
        if done[0]:
            log = self._vec.last_log(0)
            last = log[-1] if log else None
            for a in self.agents:
                self.rewards[a] = float(reward[0, self._seat(a)])
                self.terminations[a] = True
                self.infos[a] = {"result": last}
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[int(seat[0])]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The last events of the hand (``ansi``: returned; ``human``: printed)."""
        log = self._vec.log(0)
        text = "\n".join(str(r) for r in log[-8:])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
