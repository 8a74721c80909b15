"""Typed table actions and events (the core's ``Action`` and ``Event``) and the action kinds.

An ``Action`` names the tile or card it concerns (``Action("discard", 0, "5m")``,
``Action("chow", 1, "3p")`` for 345p, ``Action("exchange", 2, tiles=("1m", "2m", "3m"))``,
``Action("declare_void", 0, value=1)``); compare them by value and pick them from
``table.legal_actions(seat)``. ``Table.step`` returns the ``Event`` objects it caused.
"""

from __future__ import annotations

from hupai._core import Action, Event, IllegalActionError, ReplayError, tile_names

__all__ = [
    "Action",
    "Event",
    "IllegalActionError",
    "ReplayError",
    "TILE_NAMES",
    "tile_name",
    "KINDS",
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

#: The mahjong tile names by index (``1m``..``9m``, ``1p``.., ``1s``.., ``E S W N C F P``, ``f1``..``f8``),
#: for reading the 34-count vectors of ``Table.hands`` and ``Observation.hand``.
TILE_NAMES: tuple[str, ...] = tuple(tile_names())


def tile_name(i: int) -> str:
    """The name of a mahjong tile index (count vectors)."""
    from hupai._args import int_arg

    return TILE_NAMES[int_arg("i", i, 0, len(TILE_NAMES) - 1)]


DISCARD = "discard"
WIN = "win"
PASS = "pass"
PUNG = "pung"
KONG = "kong"
CHOW = "chow"
CONCEALED_KONG = "concealed_kong"
ADDED_KONG = "added_kong"
#: 换三张 (three tiles of one suit, ``tiles``) and 二人麻将 开始时换牌 (one tile, ``tiles``).
EXCHANGE = "exchange"
#: 定缺: ``value`` = the suit (0 m, 1 p, 2 s).
DECLARE_VOID = "declare_void"
#: 河北 报听: discard ``tile`` and declare 听 (the hand is locked from then on).
DECLARE_TING = "declare_ting"
#: 陕西 下炮子: ``value`` = the 炮子 declared (0..4).
DECLARE_PAO_ZI = "declare_pao_zi"
#: Table management, accepted from any seat at any time (``Table.escape`` / ``set_auto_play``).
ESCAPE = "escape"
AUTO_PLAY = "auto_play"
#: 武汉: a single 痞子 (红中) or 癞子 set aside as a kong, then a replacement draw.
PIZI_KONG = "pizi_kong"
#: 卡五星 亮倒 / 二人麻将 报听: discard ``tile`` and declare the hand ready.
DECLARE_READY = "declare_ready"
#: 卡五星 漂: ``value`` = the amount.
DECLARE_PIAO = "declare_piao"

KINDS = (
    DISCARD, WIN, PASS, PUNG, KONG, CHOW, CONCEALED_KONG, ADDED_KONG, EXCHANGE, DECLARE_VOID,
    DECLARE_TING, DECLARE_PAO_ZI, ESCAPE, AUTO_PLAY, PIZI_KONG, DECLARE_READY, DECLARE_PIAO,
)
