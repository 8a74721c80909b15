"""上海麻将 清混碰 (``shanghai``): scoring and the settlement of a hand.

Scoring: ``hupai.score(situation, variant="shanghai")`` → ``hupai.VariantScore`` (the highest P
pattern + S items, ``hua`` = 花, ``multiplier`` = one payer's share after the 勒子 cap). The situation
is the shared case schema (``flowers`` / ``flower_tiles``) plus the pending counters
``situation.kai_bao`` and ``situation.huang_fan``. A hand without 碰碰胡/清一色/混一色/风一色 (or
八花齐) raises ``InvalidHandError``.

Settlement: ``settle(hand)`` with ``hand`` = ``{"seats": [4 names], "wins": [{"winner": s,
"discarder": s | None, "claims": {seat: n}, "hand": ..., "situation": ...}]}`` (or ``"win"``; no win
= 和局, nothing paid). ``claims`` counts the winner's 吃/碰/直杠 from each player (承包 at 3); for
抢杠 the ``discarder`` is the robbed player. Returns the shared ledger as a dict.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hupai._core import Situation, Variant, VariantScore, shanghai_settle
from hupai._core import score as _score

__all__ = ["score", "settle"]


def score(situation: Situation | Mapping[str, Any], variant: Variant | str | None = None) -> VariantScore:
    """Score one win (same as ``hupai.score(situation, variant="shanghai")``)."""
    r = _score(dict(situation) if isinstance(situation, Mapping) else situation, variant or "shanghai")
    assert isinstance(r, VariantScore)
    return r


def settle(hand: Mapping[str, Any], variant: Variant | str | None = None) -> dict[str, Any]:
    """Settle one hand on the shared ledger."""
    return shanghai_settle(dict(hand), variant)
