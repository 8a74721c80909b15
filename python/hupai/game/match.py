"""``Match``: a sequence of hands with dealer rotation, round winds, carry-over and running scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hupai._core import Variant, flow_next_hand
from hupai.game.actions import Action
from hupai.game.simulate import game_seed
from hupai.game.table import Table, players_of

__all__ = ["Match"]


class Match:
    """``Match(variant, seed=0, agents=...)``; ``play_hand()`` plays the next hand, ``play(n)`` n hands.

    Between hands the core (``flow_next_hand``) decides by the preset's own rules: the next dealer
    (``rules.dealer_rotation``: ``stay_on_dealer_win_or_draw`` — 河北, 陕西, 第4稿, MCR —,
    ``winner_deals`` — 上海 (several winners: the 放炮者, switch ``multi_winner_dealer``),
    欢乐3D —, ``random_each_hand`` — 四川, drawn from the match seed) and what carries over:
    the 上楼 floor (第4稿) and the pending 开宝/黄番 counters (上海). Each seat's 下炮子 (陕西)
    is the next hand's default. The round (prevalent) wind advances after as many changes of dealer
    as there are seats (E → S → W → N); 卡五星 and 二人麻将 rotate by their ``winner_deals`` rule. ``scores`` are the running totals per seat; ``carry`` what the next hand gets.
    """

    def __init__(self, variant: Variant | str, seed: int = 0, agents: Sequence[Callable[..., Action]] | None = None) -> None:
        self.variant = variant if isinstance(variant, Variant) else Variant.load(variant)
        self.seed = seed
        self.agents = list(agents) if agents is not None else None
        self.dealer = 0
        self.wind = 0
        self.passes = 0
        self.n = players_of(self.variant)
        self.scores = [0] * self.n
        self.hands: list[dict[str, Any]] = []
        self.carry: dict[str, Any] = {}
        self.random_dealer = self.variant.describe()["rules"].get("dealer_rotation") == "random_each_hand"

    def play_hand(self, agents: Sequence[Callable[..., Action]] | None = None) -> dict[str, Any]:
        i = len(self.hands)
        s = game_seed(self.seed, i)
        if self.random_dealer:
            self.dealer = s % self.n
        t = Table(self.variant, seed=s, dealer=self.dealer, prevalent_wind=self.wind, carry=self.carry or None)
        res = t.run(agents if agents is not None else self.agents)
        for k in range(self.n):
            self.scores[k] += res["balances"][k]
        self.hands.append({"dealer": self.dealer, "wind": self.wind, "carry": dict(t.carry), "result": res, "log": t.log})
        self._advance(t, res, game_seed(self.seed ^ 0xD1CE, i))
        return res

    def _advance(self, t: Table, res: dict[str, Any], random: int) -> None:
        """The next hand's dealer, wind and carry (the core decides; ``random`` for 四川's dealer)."""
        winners = [w["seat"] for w in res["wins"]]
        winners = list(dict.fromkeys(winners))  # 血流: a seat may win twice; first wins count
        used = res["carry"]
        dealer, floor, kai_bao, huang_fan = flow_next_hand(
            self.variant,
            self.dealer,
            winners,
            res["discarder"] if len(winners) > 1 else None,
            used["floor"],
            used["kai_bao"],
            used["huang_fan"],
            self.n,
            random,
        )
        carry: dict[str, Any] = {"floor": floor, "kai_bao": kai_bao, "huang_fan": huang_fan}
        if t.pao_zi is not None and self.variant.options.get("pao_zi") == "free":
            carry["pao_zi"] = list(t.pao_zi)
        self.carry = {k: val for k, val in carry.items() if val}  # only what the preset carries
        if self.random_dealer:
            return  # 四川: every hand's dealer is drawn from the match seed
        if dealer != self.dealer:
            self.dealer = dealer
            self.passes += 1
            if self.passes % self.n == 0:
                self.wind = (self.wind + 1) % 4

    def play(self, n: int, agents: Sequence[Callable[..., Action]] | None = None) -> list[int]:
        for _ in range(n):
            self.play_hand(agents)
        return list(self.scores)
