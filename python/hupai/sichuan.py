"""四川麻将 (血战到底 / 血流成河 / 普通场): scoring, 查大叫 values and the hand's settlement.

Every rule decision is made by the Rust core from ``presets/sichuan.toml``; this module only
accepts the friendly input forms. Example::

    >>> import hupai
    >>> r = hupai.sichuan.score({"hand": {"concealed": ["1m","1m","1m","1m","2m","3m","4p","5p","6p",
    ...     "7p","8p","9p","5p"], "win_tile": "5p"}, "situation": {"win_type": "discard"}})
    >>> r.fan_total, r.multiplier, r.per_payer
    (2, 2, 12)

``score`` accepts the same situation inputs as the generic ``hupai score`` command (a dict in the
case schema, its JSON text, or a path-free JSON string), so the CLI can route ``--variant sichuan``
here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from hupai._core import Hand, SichuanScore, Variant, sichuan_max_win_value, sichuan_score

__all__ = ["SichuanScore", "draw_end_state", "from_case", "max_win_value", "score"]

_VARIANT_CASE_KEYS = {"concealed", "win_tile", "melds"}


def from_case(case: Mapping[str, Any]) -> dict[str, Any]:
    """Convert a ``variants_ref.jsonl`` case (flat ``concealed``/``win_tile``/``melds`` and
    ``situation.dingque``) into the situation schema ``{"hand": ..., "situation": ...}``."""
    if "hand" in case:
        return dict(case)
    sit_in = dict(case.get("situation") or {})
    sit: dict[str, Any] = {}
    for key in ("win_type", "dealer", "blessing", "wall_last", "last_kong", "void_suit"):
        if key in sit_in:
            sit[key] = sit_in[key]
    if sit_in.get("dingque"):
        sit["void_suit"] = sit_in["dingque"]
    melds = [{"type": m["type"], "tiles": list(m["tiles"])} for m in case.get("melds") or []]
    return {
        "hand": {"melds": melds, "concealed": list(case["concealed"]), "win_tile": case["win_tile"]},
        "situation": sit,
    }


def _situation_arg(situation: Mapping[str, Any] | str) -> Mapping[str, Any] | str:
    if isinstance(situation, str):
        text = situation.strip()
        if text.startswith("{"):
            parsed = json.loads(text)
            if isinstance(parsed, dict) and _VARIANT_CASE_KEYS & set(parsed) and "hand" not in parsed:
                return from_case(parsed)
        return situation
    if "hand" not in situation and _VARIANT_CASE_KEYS & set(situation):
        return from_case(situation)
    return situation


def score(
    situation: Mapping[str, Any] | str,
    variant: Variant | str | None = None,
    *,
    winner: str = "W",
    others: Sequence[str] | None = None,
    discarder: str | None = None,
    kong_feeder: str | None = None,
) -> SichuanScore:
    """Score one 四川 win.

    ``situation``: the case schema (``{"hand": {"melds", "concealed", "win_tile"}, "situation":
    {"win_type", "dealer", "blessing", "void_suit", "wall_last", "last_kong"}}``) as a dict or JSON
    text; the flat ``variants_ref.jsonl`` form is accepted too. ``variant``: a ``sichuan``
    ``Variant`` (default: the seed rules). The table (``winner``, ``others`` still in the hand,
    ``discarder``, ``kong_feeder``) only affects ``payments``. Raises ``InvalidHandError`` for a
    hand that cannot win in 四川 (three suits, void suit, honours, 吃, not a winning shape).
    """
    return sichuan_score(
        _situation_arg(situation),
        variant,
        winner=winner,
        others=list(others) if others is not None else None,
        discarder=discarder,
        kong_feeder=kong_feeder,
    )


def max_win_value(
    hand: Hand | str | Mapping[str, Any],
    variant: Variant | str | None = None,
    *,
    void_suit: str | None = None,
) -> dict[str, Any]:
    """The highest value a waiting hand can reach over all its winning tiles (查大叫).

    Returns ``{"huazhu", "ready", "waits", "best", "best_situational", "da_jiao"}``: ``best`` is
    the best discard win without situational fans (the seed's 大叫), ``best_situational`` the best
    over every win type (自摸, 杠上花, 杠上炮, 抢杠, 海底), ``da_jiao`` the amount used at draw-end.
    """
    return sichuan_max_win_value(hand, variant, void_suit=void_suit)


def draw_end_state(
    hand: Hand | str | Mapping[str, Any],
    variant: Variant | str | None = None,
    *,
    void_suit: str | None = None,
) -> dict[str, Any]:
    """``{"huazhu": bool, "da_jiao": int | None}`` of a hand at draw-end, for
    ``Settlement.draw_end``."""
    v = max_win_value(hand, variant, void_suit=void_suit)
    return {"huazhu": v["huazhu"], "da_jiao": v["da_jiao"]}
