"""``Match``: a sequence of hands with dealer rotation, round winds and running scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hupai._core import Variant
from hupai.game.actions import Action
from hupai.game.simulate import game_seed
from hupai.game.table import Table

__all__ = ["Match"]


class Match:
    """``Match(variant, seed=0, agents=...)``; ``play_hand()`` plays the next hand, ``play(n)`` n hands.

    Dealer rotation: the dealer keeps the deal after winning (or after an exhaustive draw) and
    passes it to the right otherwise; after four passes the round (prevalent) wind advances
    (E → S → W → N). 四川 (``rules.dealer_rotation = random_each_hand``) draws the dealer of each
    hand from the match seed instead. ``scores`` are the running totals per seat.
    """

    def __init__(self, variant: Variant | str, seed: int = 0, agents: Sequence[Callable[..., Action]] | None = None) -> None:
        self.variant = variant if isinstance(variant, Variant) else Variant.load(variant)
        self.seed = seed
        self.agents = list(agents) if agents is not None else None
        self.dealer = 0
        self.wind = 0
        self.passes = 0
        self.scores = [0, 0, 0, 0]
        self.hands: list[dict[str, Any]] = []
        self.random_dealer = self.variant.describe()["rules"].get("dealer_rotation") == "random_each_hand"

    def play_hand(self, agents: Sequence[Callable[..., Action]] | None = None) -> dict[str, Any]:
        i = len(self.hands)
        s = game_seed(self.seed, i)
        if self.random_dealer:
            self.dealer = s % 4
        t = Table(self.variant, seed=s, dealer=self.dealer, prevalent_wind=self.wind)
        res = t.run(agents if agents is not None else self.agents)
        for k in range(4):
            self.scores[k] += res["balances"][k]
        self.hands.append({"dealer": self.dealer, "wind": self.wind, "result": res, "log": t.log})
        if "next_dealer" in res:  # the preset's own rotation (武汉 switch dealer_next)
            if res["next_dealer"] != self.dealer:
                self.dealer = res["next_dealer"]
                self.passes += 1
                if self.passes % 4 == 0:
                    self.wind = (self.wind + 1) % 4
        elif not self.random_dealer and not (self.dealer in res["winners"] or res["exhausted"]):
            self.dealer = (self.dealer + 1) % 4
            self.passes += 1
            if self.passes % 4 == 0:
                self.wind = (self.wind + 1) % 4
        return res

    def play(self, n: int, agents: Sequence[Callable[..., Action]] | None = None) -> list[int]:
        for _ in range(n):
            self.play_hand(agents)
        return list(self.scores)
