"""pymahjonggb-compatible API (``import MahjongGB`` → ``from hupai.compat import MahjongGB``).

Same functions, arguments, return shapes and Chinese fan names as PyMahjongGB 1.4.0, on hupai's MCR
scorer. Differences, on purpose:

* errors are :class:`MahjongGBError`, a :class:`hupai.HupaiError` that is also a ``TypeError`` (so
  ``except TypeError`` in existing bots keeps working); ``str(error)`` is the reference's bare code
  (``"ERROR_NOT_WIN"``, ``"ERROE_WRONG_TILE_CODE"`` …) and ``error.detail`` says what is wrong;
* inputs the reference accepts but scores wrongly or crashes on (five copies of a tile, oversized
  tuples, ``offer = 0`` on PENG/CHI, flower counts outside 0..8, winds outside 0..3) raise;
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


def _wrap(e: HupaiError) -> MahjongGBError:
    msg = str(e)
    for prefix in ("invalid hand: ", "invalid rule configuration: "):
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    code = "ERROR_WRONG_INPUT"
    for token in msg.replace('"', " ").replace(":", " ").split():
        if token.startswith(("ERROR_", "ERROE_")):
            code = token
            break
    return MahjongGBError(code, msg)


def MahjongFanCalculator(  # noqa: N802 (reference name)
    pack: Any,
    hand: Any,
    winTile: str,  # noqa: N803
    flowerCount: int,  # noqa: N803
    isSelfDrawn: bool,  # noqa: N803
    is4thTile: bool,  # noqa: N803
    isAboutKong: bool,  # noqa: N803
    isWallLast: bool,  # noqa: N803
    seatWind: int,  # noqa: N803
    prevalentWind: int,  # noqa: N803
    verbose: bool = False,
) -> tuple[Any, ...]:
    """Fans of a win: tuple of ``(points × count, zh_name)``, or with ``verbose`` of
    ``(points, count, zh_name, en_name)``, in fan-table order."""
    try:
        return _core.mcr_fan_calculator(
            pack,
            hand,
            winTile,
            flowerCount,
            bool(isSelfDrawn),
            bool(is4thTile),
            bool(isAboutKong),
            bool(isWallLast),
            seatWind,
            prevalentWind,
            bool(verbose),
        )
    except HupaiError as e:
        raise _wrap(e) from None
    except (TypeError, OverflowError) as e:
        raise MahjongGBError("ERROR_WRONG_INPUT", str(e)) from None


def _shanten(pack: Any, hand: Any, kind: str) -> tuple[int, tuple[str, ...]]:
    try:
        sh, useful = _core.mcr_shanten(pack, hand, kind)
    except HupaiError as e:
        raise _wrap(e) from None
    except (TypeError, OverflowError) as e:
        raise MahjongGBError("ERROR_WRONG_INPUT", str(e)) from None
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
