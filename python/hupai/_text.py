"""Terminal text helpers: column alignment by display width (a CJK character takes two columns)."""

from __future__ import annotations

import unicodedata

__all__ = ["width", "pad", "rpad", "table"]


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal: wide and full-width characters (CJK, ``（）``) count
    two, combining marks none, everything else one."""
    n = 0
    for c in text:
        if unicodedata.combining(c):
            continue
        n += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return n


def pad(text: str, columns: int) -> str:
    """``text`` left-aligned in ``columns`` display columns (never cut)."""
    return text + " " * max(0, columns - width(text))


def rpad(text: str, columns: int) -> str:
    """``text`` right-aligned in ``columns`` display columns (never cut)."""
    return " " * max(0, columns - width(text)) + text


def table(rows: list[list[str]], right: frozenset[int] = frozenset(), gap: str = "  ") -> list[str]:
    """Rows of cells as aligned lines (columns in ``right`` right-aligned), by display width."""
    if not rows:
        return []
    cols = max(len(r) for r in rows)
    widths = [max((width(r[k]) for r in rows if k < len(r)), default=0) for k in range(cols)]
    out = []
    for r in rows:
        cells = [(rpad if k in right else pad)(c, widths[k]) for k, c in enumerate(r)]
        out.append(gap.join(cells).rstrip())
    return out
