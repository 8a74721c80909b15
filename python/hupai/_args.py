"""Checks of the resource arguments a caller chooses in the Python layer (``workers``, ``chunk``,
``n_games``): a wrong type raises ``TypeError``, a value out of range ``RuleConfigError`` naming the
argument and the accepted range. (Rust entry points check theirs in ``rust/py/src/convert.rs``.)"""

from __future__ import annotations

import operator
from typing import Any

from hupai._core import RuleConfigError

__all__ = ["int_arg"]


def int_arg(name: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..=hi``; ``bool`` and non-integers are a ``TypeError``."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__}") from None
    if not lo <= v <= hi:
        shown = str(v) if abs(v) < 10**12 else f"{'-' if v < 0 else ''}{len(str(abs(v)))}-digit int"
        raise RuleConfigError(f"{name}={shown}: expected {lo}..={hi}")
    return v
