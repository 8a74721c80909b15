"""pymahjonggb-compatible API (``import MahjongGB`` → ``from hupai.compat import MahjongGB``).

Same functions, arguments, return shapes, Chinese fan names and error codes as PyMahjongGB 1.4.0,
on hupai's MCR scorer. Where the reference gives a defined answer or error, this module gives the
same one: ``("CHI", "W1", 0)`` and any CHI whose middle tile has no neighbours is ``ERROR_NOT_WIN``;
a list where a tuple belongs is ``"Param `hand` must be a tuple!"``; the special-shape shanten
functions need exactly 13 tiles (组合龙 10 or 13), ``RegularShanten`` 3n+1 tiles up to 13, and
``MahjongShanten`` 13 tiles with the packs — otherwise ``ERROR_INVALID_HAND`` /
``ERROR_INVALID_HAND_OR_PACK``. Every difference from the reference:

* errors are :class:`MahjongGBError`, a :class:`hupai.HupaiError` that is also a ``TypeError`` (so
  ``except TypeError`` in existing bots keeps working); ``str(error)`` is the reference's message
  (``"ERROR_NOT_WIN"``, ``"ERROE_WRONG_TILE_CODE"`` …) and ``error.detail`` says what is wrong;
* inputs on which the reference crashes or scores garbage raise instead: five copies of a tile,
  oversized tuples (it segfaults), flower counts outside 0..8, winds outside 0..3, and in the
  shanten functions a CHI whose middle tile has no neighbours (``ERROE_WRONG_PACK_CODE``; the
  reference reads tiles past the suit);
* ``offer = 0`` on a PENG or CHI (the reference scores it as a concealed pack: 门前清, 暗刻) raises
  ``ERROE_WRONG_OFFER_CODE`` in ``MahjongFanCalculator`` — hupai's melds are claimed or, for kongs
  only, concealed; the shanten functions accept it (the offer does not change shanten);
* situation flags are repaired exactly like the reference (和绝张 with the tile in hand is cleared,
  杠上开花 without a kong and 抢杠和 on a held tile lose the kong flag).

The shanten functions use a simple exact search (``hupai._core.mcr_shanten``), to be replaced by
the table-driven shanten of ``hupai`` at merge time; their output order follows the reference
(useful tiles W, T, B, F, J).
"""

from __future__ import annotations

from typing import Any

from hupai import _core
from hupai.errors import HupaiError

__all__ = [
    "HonorsAndKnittedTilesShanten",
    "KnittedStraightShanten",
    "MahjongFanCalculator",
    "MahjongGBError",
    "MahjongShanten",
    "RegularShanten",
    "SevenPairsShanten",
    "ThirteenOrphansShanten",
]


class MahjongGBError(HupaiError, TypeError):
    """An input the reference would reject (or mis-score); ``str()`` is the reference's error code."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


_core._set_compat_error(MahjongGBError)

# The Rust entry point itself (reference argument names: pack, hand, winTile, flowerCount,
# isSelfDrawn, is4thTile, isAboutKong, isWallLast, seatWind, prevalentWind, verbose=False); it
# raises MahjongGBError.
MahjongFanCalculator = _core.mcr_fan_calculator


def _shanten(pack: Any, hand: Any, kind: str) -> tuple[int, tuple[str, ...]]:
    sh, useful = _core.mcr_shanten(pack, hand, kind)
    return sh, tuple(useful)


def MahjongShanten(pack: Any, hand: Any) -> int:  # noqa: N802
    """Shanten over every form (regular, 七对, 十三幺, 全不靠, 组合龙)."""
    return _shanten(pack, hand, "all")[0]


def RegularShanten(hand: Any) -> tuple[int, tuple[str, ...]]:  # noqa: N802
    """``(shanten, useful tiles)`` of the regular form (4 sets + a pair)."""
    return _shanten((), hand, "regular")


def SevenPairsShanten(hand: Any) -> tuple[int, tuple[str, ...]]:  # noqa: N802
    """``(shanten, useful tiles)`` of 七对."""
    return _shanten((), hand, "seven_pairs")


def ThirteenOrphansShanten(hand: Any) -> tuple[int, tuple[str, ...]]:  # noqa: N802
    """``(shanten, useful tiles)`` of 十三幺."""
    return _shanten((), hand, "thirteen_orphans")


def HonorsAndKnittedTilesShanten(hand: Any) -> tuple[int, tuple[str, ...]]:  # noqa: N802
    """``(shanten, useful tiles)`` of 全不靠."""
    return _shanten((), hand, "honors_and_knitted")


def KnittedStraightShanten(hand: Any) -> tuple[int, tuple[str, ...]]:  # noqa: N802
    """``(shanten, useful tiles)`` of 组合龙."""
    return _shanten((), hand, "knitted_straight")
