"""Bots. An agent is any callable ``(observation, legal_actions) -> action``.

``RandomBot`` picks uniformly; ``GreedyBot`` always wins, discards the void suit first, then the
tile leaving the lowest shanten with the most unseen useful tiles (from the core's discard
analysis), and claims pung/kong/chow only when that does not raise its shanten;
``DefensiveBot`` plays greedy but, when another seat looks ready (three or more melds, or a seat
that already won in 血流) and its own hand is far (shanten ≥ 2), discards safe tiles first
(tiles that seat discarded itself, or whose four copies are visible).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hupai._core import shanten as _shanten
from hupai.game.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DECLARE_PAO_ZI,
    DECLARE_PIAO,
    DECLARE_READY,
    DECLARE_VOID,
    DISCARD,
    EXCHANGE,
    KONG,
    PASS,
    PIZI_KONG,
    PUNG,
    WIN,
    Action,
    TILE_NAMES,
)
from hupai.game.table import Observation

__all__ = ["RandomBot", "GreedyBot", "DefensiveBot", "make_agent", "AGENTS"]


class RandomBot:
    """Uniform over the legal actions (seeded)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, obs: Observation, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


def _text(counts: Sequence[int]) -> str:
    return "".join(TILE_NAMES[k] for k in range(34) for _ in range(counts[k]))


_SHAPES = {
    "sichuan": ["standard", "seven_pairs"],
    "mcr": None,
    "huanle3d": ["standard", "seven_pairs"],
    "hebei_draft4": ["standard", "seven_pairs"],
    "hebei": ["standard", "seven_pairs", "thirteen_orphans"],
    "shaanxi": None,
    "wuhan": ["standard"],
}


def _sh(counts: Sequence[int], variant_id: str) -> int:
    if sum(counts) == 0:
        return -1
    shapes = _SHAPES.get(variant_id)
    if shapes is None:
        return int(_shanten(_text(counts)))
    return int(_shanten(_text(counts), shapes=shapes))


class GreedyBot:
    """Greedy on shanten and useful tiles; always wins."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @staticmethod
    def target_void(obs: Observation) -> int | None:
        """The declared void suit, or in 四川 (缺一门 at the win) the suit it holds least of."""
        void = obs.void[obs.seat]
        if void is None and obs.variant_id == "sichuan":
            h = obs.hand
            n = [sum(h[9 * s : 9 * s + 9]) for s in range(3)]
            for kind, t, _f, _k in obs.melds[obs.seat]:
                n[t // 9] += 3
            void = min(range(3), key=lambda s: (n[s], s))
        return void

    def pick_discard(self, obs: Observation, discards: list[Action]) -> Action:
        void = self.target_void(obs)
        if void is not None:
            vs = [a for a in discards if a.tile // 9 == void and a.tile < 27]
            if vs:
                return vs[0]
        allowed = {a.tile: a for a in discards}
        for t, _s, _u in obs.discard_analysis():
            if t in allowed:
                return allowed[t]
        return discards[0]

    def __call__(self, obs: Observation, legal: Sequence[Action]) -> Action:
        kinds = {a.kind for a in legal}
        if WIN in kinds:
            return next(a for a in legal if a.kind == WIN)
        first = legal[0]
        if first.kind == DECLARE_PIAO:
            return first
        if first.kind == DECLARE_VOID:
            h = obs.hand
            return min(legal, key=lambda a: (sum(h[9 * a.tile : 9 * a.tile + 9]), a.tile))
        if first.kind == DECLARE_PAO_ZI:
            # 下炮子: bet more the closer the hand is to ready (0 when far).
            sh = _sh(obs.hand, obs.variant_id)
            want = 3 if sh <= 1 else 1 if sh == 2 else 0
            return next((a for a in legal if a.tile == want), legal[0])
        if first.kind == EXCHANGE:
            h = obs.hand
            suit = min((s for s in range(3) if sum(h[9 * s : 9 * s + 9]) >= 3), key=lambda s: sum(h[9 * s : 9 * s + 9]))
            return next(a for a in legal if a.tiles[0] // 9 == suit)
        if PASS in kinds:
            return self.claim(obs, legal)
        discards = [a for a in legal if a.kind == DISCARD]
        declares = {a.tile: a for a in legal if a.kind == DECLARE_READY}
        if declares:  # 亮倒 / 报听 whenever a best discard leaves the hand ready
            best = self.pick_discard(obs, discards)
            if best.tile in declares:
                return declares[best.tile]
        void = self.target_void(obs)
        for a in legal:
            if a.kind in (CONCEALED_KONG, ADDED_KONG) and not (void is not None and a.tile < 27 and a.tile // 9 == void):
                return a
            # 武汉: 杠 a 痞子 (红中 / 发) out at once; a 癞子 only when holding two (no 小胡 with two)
            if a.kind == PIZI_KONG and (a.tile != obs.laizi or obs.hand[a.tile] >= 2 or not discards):
                return a
        if not discards:
            return legal[-1]
        return self.pick_discard(obs, discards)

    def claim(self, obs: Observation, legal: Sequence[Action]) -> Action:
        h = obs.hand
        vid = obs.variant_id
        best = next(a for a in legal if a.kind == PASS)
        void = self.target_void(obs)
        options = [a for a in legal if a.kind in (KONG, PUNG, CHOW) and not (void is not None and a.tile < 27 and a.tile // 9 == void)]
        if not options:
            return best
        now = _sh(h, vid)
        for a in options:
            c = list(h)
            t = a.tile
            if a.kind == KONG:
                c[t] -= 3
            elif a.kind == PUNG:
                c[t] -= 2
            else:
                for x in range(t, t + 3):
                    if x != obs.last_discard:
                        c[x] -= 1
            if a.kind == KONG:
                return a
            after = _sh(c, vid)
            if after <= now - 1 or (after <= now and a.kind == PUNG):
                return a
        return best


class DefensiveBot(GreedyBot):
    """Greedy, but discards safe tiles when another seat looks ready and its own hand is far."""

    def pick_discard(self, obs: Observation, discards: list[Action]) -> Action:
        seat = obs.seat
        melds = obs.melds
        won = obs.won
        danger = [
            k for k in range(len(obs.active)) if k != seat and obs.active[k] and (len(melds[k]) >= 3 or won[k] > 0)
        ]
        if danger:
            analysis = obs.discard_analysis()
            if analysis and analysis[0][1] >= 2:
                rivers = obs.discards
                visible = [0] * 34
                for d in rivers:
                    for t in d:
                        visible[t] += 1
                for ms in melds:
                    for kind, t, _f, _k in ms:
                        if kind == "chow":
                            for x in range(t, t + 3):
                                visible[x] += 1
                        else:
                            visible[t] += 4 if kind == "kong" else 3
                h = obs.hand
                allowed = {a.tile: a for a in discards}
                for t, _s, _u in analysis:
                    if t in allowed and all(t in rivers[k] for k in danger):
                        return allowed[t]
                for t, _s, _u in analysis:
                    if t in allowed and visible[t] + h[t] >= 4:
                        return allowed[t]
        return super().pick_discard(obs, discards)


AGENTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot, "defensive": DefensiveBot}


def make_agent(name: str, seed: int) -> RandomBot | GreedyBot:
    try:
        cls = AGENTS[name]
        bot: RandomBot | GreedyBot = cls(seed)  # type: ignore[operator]
        return bot
    except KeyError:
        from hupai.errors import RuleConfigError

        raise RuleConfigError(f"unknown agent {name!r} (random, greedy, defensive)") from None
