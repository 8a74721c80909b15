"""``Table``: one hand of any preset — mahjong with 4, 3 or 2 seats, or 字牌 with 3 — as a state
machine in the core (``hupai._core.Table``; the engine is ``hupai_core::game``).

The table holds no rule: the deal, pre-play phases, claims and their priority, kongs, 过水, forced
actions, the wall's end, settlement (each win scored once) and the next hand's dealer and carry are
the core's, from the preset's ruleset and data. Python holds the agents (examples: README.md, "Game
flow"; ``docs/table.md``).

Protocol: ``legal_actions(seat)``, ``step(action)`` (returns the ``Event`` objects it caused),
``observation(seat)``, ``events`` / ``log``, ``result``. Wall (deterministic, documented in
``docs/table.md``): the variant's tile set in index order shuffled by CPython's
``random.Random(seed).shuffle``; draws from the front, kong and flower replacements from the back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hupai._core import Observation, Table, Variant, arrange_wall, build_wall, table_seats

__all__ = ["Table", "Observation", "arrange_wall", "build_wall", "players_of", "tile_set"]


def _variant(variant: Variant | str, options: Mapping[str, Any] | None = None) -> Variant:
    if isinstance(variant, Variant):
        return variant.with_options(**options) if options else variant
    return Variant(variant, **(options or {}))


def players_of(variant: Variant | str) -> int:
    """Seats at the variant's table (the core's table facts: the ``players`` switch where the
    preset has one; 卡五星 may seat 4 with one resting each hand)."""
    return table_seats(variant)


def tile_set(variant: Variant | str, options: Mapping[str, Any] | None = None) -> list[str]:
    """Every physical tile of the variant's set in index order (the core's ``Variant.tile_set``)."""
    return [str(t) for t in _variant(variant, options).tile_set()]
