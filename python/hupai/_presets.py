"""The per-preset modules (``hupai.sichuan``, ``hupai.kawuxing``, ``hupai.hebei``, …) are thin
aliases of the generic API with the preset filled in: ``score`` is ``hupai.score(...,
variant=<id>)``, ``settle`` is ``hupai.settle_hand(record, <id>)``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hupai._core import Score, Settlement, Variant
from hupai._core import score as _score
from hupai._core import settle_hand as _settle_hand


def scorer(preset: str) -> Callable[..., Score]:
    """``score(situation, variant=None, *, options=None, **flags)`` with ``variant`` defaulting to
    ``preset``."""

    def score(
        situation: Any,
        variant: Variant | str | None = None,
        *,
        options: Mapping[str, bool | int | str] | None = None,
        **flags: Any,
    ) -> Score:
        return _score(situation, preset if variant is None else variant, options=options, **flags)

    score.__doc__ = f"Score one win (``hupai.score(situation, variant={preset!r})``)."
    return score


def settler(preset: str) -> Callable[..., Settlement]:
    """``settle(record, variant=None)``: ``hupai.settle_hand(record, variant or preset)``."""

    def settle(record: Mapping[str, Any] | str, variant: Variant | str | None = None) -> Settlement:
        return _settle_hand(dict(record) if isinstance(record, Mapping) else record, preset if variant is None else variant)

    settle.__doc__ = f"Settle one hand record (``hupai.settle_hand(record, {preset!r})``)."
    return settle
