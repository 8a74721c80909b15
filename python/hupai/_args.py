"""Checks of the resource arguments a caller chooses in the Python layer (``workers``, ``chunk``,
``n_games``): a wrong type raises ``TypeError``, a value out of range ``RuleConfigError`` naming the
argument and the accepted range. (Rust entry points check theirs in ``rust/py/src/convert.rs``.)"""

from __future__ import annotations

import operator
from typing import Any

from hupai._core import RuleConfigError

__all__ = ["MAX_ITEMS", "int_arg", "items", "uint8_array"]


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


#: Most items a sequence argument may hold (the Rust layer's ``MAX_ITEMS``).
MAX_ITEMS = 1 << 22


def items(value: Any, name: str = "items") -> list[Any]:
    """A sequence argument as a list, its ``len()`` checked before anything is copied (``list()``
    would pre-allocate whatever ``len()`` claims); a ``str``/``bytes``/``dict`` or a non-iterable is a
    ``TypeError``, too many items an ``InvalidHandError``."""
    from hupai._core import InvalidHandError

    if isinstance(value, list):
        n = len(value)
    elif isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name} must be a list or tuple, got {type(value).__name__}")
    else:
        try:
            n = len(value) if hasattr(value, "__len__") else 0
        except OverflowError:
            n = MAX_ITEMS + 1
    if n > MAX_ITEMS:
        raise InvalidHandError(f"invalid hand: {name}: more than the {MAX_ITEMS} items accepted")
    out: list[Any] = []
    for x in value:
        if len(out) >= MAX_ITEMS:
            raise InvalidHandError(f"invalid hand: {name}: more than the {MAX_ITEMS} items accepted")
        out.append(x)
    return out


def uint8_array(value: Any, name: str) -> Any:
    """A count array for the batch calls as a C-contiguous ``uint8`` numpy array. A ``uint8`` array
    passes as is; anything else is converted only when every entry is an integer in 0..=255 (no
    silent wrap-around: ``300`` is an error, not ``44``). Bad shapes, types or sizes raise
    ``InvalidHandError`` (``TypeError`` for a non-array-like)."""
    import numpy as np

    from hupai._core import InvalidHandError

    if isinstance(value, np.ndarray) and value.dtype == np.uint8:
        return np.ascontiguousarray(value)
    if not isinstance(value, np.ndarray):
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
            raise TypeError(f"{name} must be a numpy array or a list of rows, got {type(value).__name__}")
        items(value, name)  # its size, before numpy allocates what len() claims
    try:
        a = np.asarray(value)
    except (ValueError, OverflowError, MemoryError) as e:
        raise InvalidHandError(f"invalid hand: {name}: not a rectangular array of integers ({e})") from None
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise InvalidHandError(f"invalid hand: {name}: entries must be integers, got dtype {a.dtype}")
    if a.size and (a.min() < 0 or a.max() > 255):
        raise InvalidHandError(f"invalid hand: {name}: entries must lie in 0..=255")
    return np.ascontiguousarray(a, dtype=np.uint8)
