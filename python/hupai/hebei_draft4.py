"""麻将规则（第4稿） (``hebei_draft4``, 河北/京津 family): scoring and the settlement of a hand.

Scoring: ``hupai.score(situation, variant="hebei_draft4")`` → ``hupai.VariantScore`` (additive 番,
``multiplier`` = 2^min(番, 6)); a discard win by an open hand, or a 0-番 推倒和 on a discard, raises
``InvalidHandError``.

Settlement: ``settle(hand)`` with ``hand`` =
``{"seats": [4 names], "dealer": seat, "floor": 0..2 (上楼), "gen_zhuang": bool,
"kongs": [{"owner": s, "type": "open"|"added"|"concealed", "feeder": s}],
"win": {"winner": s, "discarder": s | None, "hand": ..., "situation": ...} | None}``
(``win = None``: 荒牌, nothing is paid). Returns the shared ledger as a dict (``events``,
``balances``), zero-sum by construction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hupai._core import Situation, Variant, VariantScore, hebei_draft4_settle
from hupai._core import score as _score

__all__ = ["score", "settle"]


def score(situation: Situation | Mapping[str, Any], variant: Variant | str | None = None) -> VariantScore:
    """Score one win (same as ``hupai.score(situation, variant="hebei_draft4")``)."""
    r = _score(dict(situation) if isinstance(situation, Mapping) else situation, variant or "hebei_draft4")
    assert isinstance(r, VariantScore)
    return r


def settle(hand: Mapping[str, Any], variant: Variant | str | None = None) -> dict[str, Any]:
    """Settle one hand on the shared ledger."""
    return hebei_draft4_settle(dict(hand), variant)
