"""河北麻将 basic 推倒胡 (``hebei``): scoring and the settlement of a hand.

Scoring: ``hupai.score(situation, variant="hebei")`` → ``hupai.VariantScore`` (one pattern counts,
then the 抢杠 / 杠上开花 / 杠上炮 floor; ``multiplier`` = points per payer).

Settlement: ``settle(hand)`` with ``hand`` = ``{"seats": [4 names], "dealer": seat,
"kongs": [{"owner": s, "type": "open"|"added"|"concealed", "feeder": s}],
"win": {"winner": s, "discarder": s | None, "hand": ..., "situation": ...} | None}``
(``win = None``: 荒庄, 荒庄荒杠). Returns the shared ledger as a dict.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hupai._core import Situation, Variant, VariantScore, hebei_settle
from hupai._core import score as _score

__all__ = ["score", "settle"]


def score(situation: Situation | Mapping[str, Any], variant: Variant | str | None = None) -> VariantScore:
    """Score one win (same as ``hupai.score(situation, variant="hebei")``)."""
    r = _score(dict(situation) if isinstance(situation, Mapping) else situation, variant or "hebei")
    assert isinstance(r, VariantScore)
    return r


def settle(hand: Mapping[str, Any], variant: Variant | str | None = None) -> dict[str, Any]:
    """Settle one hand on the shared ledger."""
    return hebei_settle(dict(hand), variant)
