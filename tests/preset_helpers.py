"""Helpers shared by the regional preset tests: case dicts in the case schema and ledger balances."""

from __future__ import annotations

from typing import Any

import hupai


def tiles(s: str) -> list[str]:
    return [str(t) for t in hupai.parse_tiles(s)]


def hand(concealed: str, win: str, melds: list[dict[str, Any]] | None = None, **flags: Any) -> dict[str, Any]:
    return {"hand": {"concealed": tiles(concealed), "win_tile": win, "melds": melds or []}, "situation": flags}


def balances(ledger: dict[str, Any]) -> dict[str, int]:
    assert sum(ledger["balances"].values()) == 0
    return dict(ledger["balances"])
