"""Typed table actions and tile helpers of the game engine.

Tiles are tile indices 0..33 (``1m``..``9m`` = 0..8, ``p`` 9..17, ``s`` 18..26, ``E S W N C F P``
27..33) and flowers 34..41; ``tile_name`` gives the notation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hupai.errors import HupaiError

__all__ = [
    "Action",
    "IllegalActionError",
    "ReplayError",
    "TILE_NAMES",
    "tile_name",
    "DISCARD",
    "WIN",
    "PASS",
    "PUNG",
    "KONG",
    "CHOW",
    "CONCEALED_KONG",
    "ADDED_KONG",
    "EXCHANGE",
    "DECLARE_VOID",
    "DECLARE_TING",
    "DECLARE_PAO_ZI",
    "ESCAPE",
    "AUTO_PLAY",
    "PIZI_KONG",
    "DECLARE_READY",
    "DECLARE_PIAO",
]

_SUITS = "mps"
TILE_NAMES: tuple[str, ...] = tuple(
    [f"{r}{s}" for s in _SUITS for r in range(1, 10)]
    + list("ESWNCFP")
    + [f"f{i}" for i in range(1, 9)]
)


def tile_name(t: int) -> str:
    return TILE_NAMES[t]


class IllegalActionError(HupaiError):
    """An action that is not legal in the table's current state (the table is unchanged)."""


class ReplayError(HupaiError):
    """A log that does not replay to the same events."""


DISCARD = "discard"
WIN = "win"
PASS = "pass"
PUNG = "pung"
KONG = "kong"
CHOW = "chow"
CONCEALED_KONG = "concealed_kong"
ADDED_KONG = "added_kong"
EXCHANGE = "exchange"
DECLARE_VOID = "declare_void"
#: 报听 (河北): discard ``tile`` and declare 听 (the hand is locked from then on).
DECLARE_TING = "declare_ting"
#: 下炮子 (陕西): ``tile`` is the number of 炮子 (0..4) declared before the dealer's first discard.
DECLARE_PAO_ZI = "declare_pao_zi"
#: Table management, accepted from any seat at any time (``Table.escape`` / ``Table.set_auto_play``):
#: 逃跑 (the seat leaves; the hand ends with the preset's escape penalty) and 托管 on/off
#: (``tile`` 1/0: the table plays the seat; a possible win is taken automatically where the preset says so).
ESCAPE = "escape"
AUTO_PLAY = "auto_play"
#: 武汉: a single 痞子 (红中) or 癞子 set aside as a kong (红中杠 / 癞子杠), then a replacement draw.
PIZI_KONG = "pizi_kong"
#: 卡五星 亮倒 / 二人麻将 报听: discard ``tile`` and declare the hand ready (it is frozen afterwards).
DECLARE_READY = "declare_ready"
#: 卡五星 漂: ``tile`` is the declared amount.
DECLARE_PIAO = "declare_piao"

_CACHE: dict[tuple[str, int, int], "Action"] = {}

KINDS = (
    DISCARD,
    WIN,
    PASS,
    PUNG,
    KONG,
    CHOW,
    CONCEALED_KONG,
    ADDED_KONG,
    EXCHANGE,
    DECLARE_VOID,
    DECLARE_TING,
    DECLARE_PAO_ZI,
    ESCAPE,
    AUTO_PLAY,
    PIZI_KONG,
    DECLARE_READY,
    DECLARE_PIAO,
)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat.

    ``kind`` is one of the module constants; ``tile`` the tile concerned (discard, claim, kong;
    the lowest tile of a chow; the suit 0/1/2 of ``declare_void``), ``tiles`` the three tiles of
    ``exchange`` (换三张). Actions compare by value; pick them from ``table.legal_actions(seat)``.
    """

    kind: str
    seat: int
    tile: int = -1
    tiles: tuple[int, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.tile >= 0:
            d["tile"] = self.tile
        if self.tiles:
            d["tiles"] = list(self.tiles)
        return d

    @staticmethod
    def from_json(d: dict[str, Any]) -> Action:
        try:
            kind = d["kind"]
            if kind not in KINDS:
                raise IllegalActionError(f"unknown action kind {kind!r}")
            return Action(kind, int(d["seat"]), int(d.get("tile", -1)), tuple(int(t) for t in d.get("tiles", ())))
        except (KeyError, TypeError, ValueError) as e:
            raise IllegalActionError(f"malformed action {d!r}: {e}") from None

    @staticmethod
    def of(kind: str, seat: int, tile: int = -1) -> Action:
        """The shared (interned) action object; cheap to build and to compare."""
        key = (kind, seat, tile)
        a = _CACHE.get(key)
        if a is None:
            a = _CACHE[key] = Action(kind, seat, tile)
        return a

    def __str__(self) -> str:
        if self.kind == DECLARE_VOID:
            return f"seat {self.seat} declares void {_SUITS[self.tile]}"
        if self.kind == DECLARE_PAO_ZI:
            return f"seat {self.seat} declares {self.tile} 炮子"
        if self.kind == AUTO_PLAY:
            return f"seat {self.seat} 托管 {'on' if self.tile else 'off'}"
        if self.kind == DECLARE_PIAO:
            return f"seat {self.seat} declares 漂 {self.tile}"
        if self.kind == EXCHANGE:
            return f"seat {self.seat} passes {' '.join(tile_name(t) for t in self.tiles)}"
        if self.kind == CHOW:
            return f"seat {self.seat} chow {''.join(tile_name(self.tile + i)[0] for i in range(3))}{tile_name(self.tile)[1]}"
        if self.tile >= 0:
            return f"seat {self.seat} {self.kind} {tile_name(self.tile)}"
        return f"seat {self.seat} {self.kind}"
