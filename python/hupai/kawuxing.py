"""卡五星 (湖北, three players): scoring, 大叫 values and the settlement of a hand.

Every rule decision is made by the Rust core from ``presets/kawuxing.toml``; this module only
accepts the friendly input forms. Example::

    >>> import hupai
    >>> r = hupai.kawuxing.score({"hand": {"concealed":
    ...     ["4s", "6s", "1p", "2p", "3p", "7p", "8p", "9p", "C", "C", "C", "F", "F"],
    ...     "win_tile": "5s"}, "situation": {"self_drawn": True, "liangdao": True}})
    >>> r.multiplier, [f["zh"] for f in r.fans]
    (4, ['卡五星', '亮倒'])

The situation is the shared case schema plus ``situation.liangdao`` (the winner declared 亮倒).
``hupai.score(situation, variant="kawuxing")`` gives the same ``VariantScore``.

Settlement (``settle``) takes the three seats and the table events of the hand in play order:

* ``{"kind": "kong", "owner": s, "type": "open"|"added"|"concealed", "feeder": s, "chain": n,
  "robbed": bool}`` — 喜钱 (instant): 补杠 1 and 暗杠 2 from each other player, 直杠 2 from the
  feeder; the n-th kong of a 杠上杠 chain ×2^(n−1); a robbed kong pays nothing;
* ``{"kind": "win", "winner": s, "hand": …, "situation": {…}, "discarder": s, "liangdao": [seats],
  "mai_ma": tile, "piao": {seat: n}}`` — ``liangdao`` lists the *other* seats that declared 亮倒
  (for 对亮包赔); a second win is allowed only on the same discard (一炮双响);
* ``{"kind": "draw", "players": {seat: {"hand": {...} | None, "liangdao": bool}},
  "liangdao_order": [seats]}`` — 荒庄;
* ``{"kind": "forced_end", "payer": s, "held": [tiles], "liangdao_hands": {seat: hand}}`` — K3.

It returns the ledger dict (``events``, ``balances`` …), zero-sum by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hupai._core import (
    Situation,
    Variant,
    VariantScore,
    kawuxing_da_jiao,
    kawuxing_score,
    kawuxing_settle,
)

__all__ = ["VariantScore", "da_jiao", "from_case", "score", "settle"]


def from_case(case: Mapping[str, Any]) -> dict[str, Any]:
    """Convert a flat ``variants_ref.jsonl`` case (``concealed``/``win_tile``/``melds``) into the
    situation schema ``{"hand": ..., "situation": ...}`` (keeps ``liangdao``)."""
    if "hand" in case:
        return dict(case)
    sit = {k: v for k, v in dict(case.get("situation") or {}).items() if k != "players"}
    melds = [{"type": m["type"], "tiles": list(m["tiles"])} for m in case.get("melds") or []]
    return {
        "hand": {"melds": melds, "concealed": list(case["concealed"]), "win_tile": case["win_tile"]},
        "situation": sit,
    }


def score(
    situation: Situation | Mapping[str, Any] | str, variant: Variant | str | None = None
) -> VariantScore:
    """Score one 卡五星 win (raises ``InvalidHandError`` for an illegal hand or one below 起胡)."""
    if isinstance(situation, Mapping) and "hand" not in situation:
        situation = from_case(situation)
    return kawuxing_score(situation, variant)


def settle(
    seats: Sequence[str],
    events: Sequence[Mapping[str, Any]],
    variant: Variant | str | None = None,
    base_factor: int = 1,
) -> dict[str, Any]:
    """Settle one hand on the shared ledger; ``base_factor`` = 2 under 上楼."""
    return kawuxing_settle(list(seats), list(events), variant, base_factor)


def da_jiao(
    hand: Mapping[str, Any], liangdao: bool = False, variant: Variant | str | None = None
) -> tuple[str, int] | None:
    """大叫 of a 13-tile hand: the best winning tile and its value as a discard win."""
    return kawuxing_da_jiao(hand, liangdao, variant)
