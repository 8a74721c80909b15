"""卡五星 (湖北, three players): thin aliases of the generic API with ``variant="kawuxing"``.

``score`` is ``hupai.score(situation, variant="kawuxing")`` (``situation.liangdao``: the winner
declared 亮倒), ``settle(seats, events)`` is ``hupai.settle_hand({"seats", "events", "table":
{"base_factor"}}, "kawuxing")`` (its event kinds ``kong`` / ``win`` / ``draw`` / ``forced_end``:
``docs/presets.md``), ``da_jiao`` is ``hupai.waiting_value(hand, "kawuxing", liangdao=...)``.
Example::

    >>> import hupai
    >>> r = hupai.kawuxing.score("46s123p789pCCCFF+5s", self_drawn=True, liangdao=True)
    >>> r.total, [f.zh for f in r.fans]
    (4, ['卡五星', '亮倒'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hupai._core import Settlement, Variant, settle_hand, waiting_value
from hupai._presets import scorer

__all__ = ["da_jiao", "score", "settle"]

score = scorer("kawuxing")


def settle(
    seats: Sequence[str],
    events: Sequence[Mapping[str, Any]],
    variant: Variant | str | None = None,
    base_factor: int = 1,
) -> Settlement:
    """Settle one hand (the 3 seats, the events in play order); ``base_factor`` = 2 under 上楼."""
    # the record is checked by the core (seats, events and their keys); only wrap it here
    record = {"seats": seats, "events": events, "table": {"base_factor": base_factor}}
    return settle_hand(record, "kawuxing" if variant is None else variant)


def da_jiao(
    hand: Mapping[str, Any] | str, liangdao: bool = False, variant: Variant | str | None = None
) -> tuple[str, int] | None:
    """大叫 of a 13-tile hand: the best winning tile and its value as a discard win."""
    h = dict(hand) if isinstance(hand, Mapping) else hand
    v = waiting_value(h, "kawuxing" if variant is None else variant, liangdao=liangdao)
    return (v["tile"], v["value"]) if v["ready"] else None
