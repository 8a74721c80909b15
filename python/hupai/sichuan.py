"""四川麻将 (血战到底 / 血流成河 / 普通场): thin aliases of the generic API with ``variant="sichuan"``.

``score`` is ``hupai.score(situation, variant="sichuan")`` and ``settle`` is
``hupai.settle_hand(record, "sichuan")``; ``max_win_value`` (查大叫) is
``hupai.waiting_value(hand, "sichuan", void_suit=...)``. Every rule decision is made by the Rust
core from ``presets/sichuan.toml``. Example::

    >>> import hupai
    >>> r = hupai.sichuan.score("1111m23m456p789p5p+5p", win_type="discard")
    >>> r.total, r.extras["multiplier"], r.per_payer
    (2, 2, 12)
"""

from __future__ import annotations

from typing import Any

from hupai._core import Hand, Variant, waiting_value
from hupai._presets import scorer, settler

__all__ = ["draw_end_state", "max_win_value", "score", "settle"]

score = scorer("sichuan")
settle = settler("sichuan")


def max_win_value(
    hand: Hand | str | dict[str, Any],
    variant: Variant | str | None = None,
    *,
    void_suit: str | None = None,
) -> dict[str, Any]:
    """The highest value a waiting hand can reach over all its winning tiles (查大叫).

    Returns ``{"huazhu", "ready", "waits", "best", "best_situational", "da_jiao"}``: ``best`` is
    the best discard win without situational fans (the seed's 大叫), ``best_situational`` the best
    over every win type (自摸, 杠上花, 杠上炮, 抢杠, 海底), ``da_jiao`` the amount used at draw-end.
    """
    flags = {} if void_suit is None else {"void_suit": void_suit}
    return waiting_value(hand, "sichuan" if variant is None else variant, **flags)


def draw_end_state(
    hand: Hand | str | dict[str, Any],
    variant: Variant | str | None = None,
    *,
    void_suit: str | None = None,
) -> dict[str, Any]:
    """``{"huazhu": bool, "da_jiao": int | None}`` of a hand at draw-end, for
    ``Settlement.draw_end``."""
    v = max_win_value(hand, variant, void_suit=void_suit)
    return {"huazhu": v["huazhu"], "da_jiao": v["da_jiao"]}
