"""Agents. An agent is any callable ``(observation, legal_actions) -> action`` (one of
``legal_actions``); it plugs into any seat of ``Table.run`` / ``Match``.

``RandomBot`` is a plain Python agent (uniform, seeded). ``GreedyBot`` and ``DefensiveBot`` are the
core's built-in bots (``hupai._core.Bot``): called from Python they answer through the core, and
``Table.run`` / ``simulate`` play them inside the core without a Python call per decision. What they
do is documented in ``hupai_core::game::bots``: greedy by shanten and unseen useful tiles
(字牌: 胡, 碰, 胡息-scoring 吃, the discard keeping the best waits); defensive discards safe tiles
when another seat looks ready and its own hand is far.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hupai._args import int_arg

from hupai._core import Action, Bot
from hupai.errors import RuleConfigError

__all__ = ["RandomBot", "GreedyBot", "DefensiveBot", "Bot", "make_agent", "AGENTS"]


class RandomBot:
    """Uniform over the legal actions (seeded); a plain Python agent."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(int_arg("seed", seed, -(2**127), 2**127))

    def __call__(self, obs: Any, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


class GreedyBot(Bot):
    """The core's greedy bot: ``GreedyBot(seed)``."""

    def __new__(cls, seed: int = 0) -> GreedyBot:
        return super().__new__(cls, "greedy", seed)


class DefensiveBot(Bot):
    """The core's defensive bot: ``DefensiveBot(seed)``."""

    def __new__(cls, seed: int = 0) -> DefensiveBot:
        return super().__new__(cls, "defensive", seed)


AGENTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "defensive": DefensiveBot}


def make_agent(name: str, seed: int) -> Any:
    """A named agent (``random``, ``greedy``, ``defensive``) seeded with ``seed``."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise RuleConfigError(f"unknown agent {name!r} (random, greedy, defensive)") from None
    return cls(seed)
