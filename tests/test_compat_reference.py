"""The PyMahjongGB drop-in gives the reference's answer or error wherever the reference's is
defined (issue 14 item 9); compared with the installed reference when it is importable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hupai.compat import MahjongGB as ours

T14 = ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B1", "B1", "B2", "B3", "B4")
HAND10 = ("W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B1", "B1")


def outcome(f: Callable[[], Any]) -> Any:
    try:
        return ("ok", f())
    except TypeError as e:  # MahjongGBError is a TypeError, like the reference's errors
        return ("error", str(e))


def calls(m: Any) -> dict[str, Callable[[], Any]]:
    fan = m.MahjongFanCalculator
    out: dict[str, Callable[[], Any]] = {
        # the official binding's example: a CHI on W1 with offer 0 is "not a win"
        "chi_w1_offer0": lambda: fan((("CHI", "W1", 0),), HAND10, "B1", 0, False, False, False, False, 0, 0),
        "chi_w1_offer1": lambda: fan((("CHI", "W1", 1),), HAND10, "B1", 0, False, False, False, False, 0, 0),
        "chi_offer4": lambda: fan((("CHI", "W2", 4),), HAND10, "B1", 0, False, False, False, False, 0, 0),
        "chi_not_win": lambda: fan((("CHI", "W2", 1),), HAND10, "B1", 0, False, False, False, False, 0, 0),
        "hand_list": lambda: fan((), ["W1"] * 13, "W1", 0, False, False, False, False, 0, 0),
        "pack_list": lambda: fan([], ("W1",) * 13, "W1", 0, False, False, False, False, 0, 0),
        "shanten_pack_list": lambda: m.MahjongShanten([], ("W1",) * 13),
        "shanten_14": lambda: m.MahjongShanten((), T14),
        "shanten_11_with_pack": lambda: m.MahjongShanten((("PENG", "W9", 1),), T14[:11]),
        "shanten_9": lambda: m.MahjongShanten((), T14[:9]),
        "shanten_chi_offer0": lambda: m.MahjongShanten((("CHI", "W2", 0),), T14[3:13]),
    }
    for n in (0, 1, 4, 5, 7, 10, 11, 13, 14):
        out[f"regular_{n}"] = lambda n=n: m.RegularShanten(T14[:n])
        out[f"knitted_straight_{n}"] = lambda n=n: m.KnittedStraightShanten(T14[:n])
        for name in ("SevenPairsShanten", "ThirteenOrphansShanten", "HonorsAndKnittedTilesShanten"):
            out[f"{name}_{n}"] = lambda n=n, name=name: getattr(m, name)(T14[:n])
    out["regular_list"] = lambda: m.RegularShanten(["W1"] * 13)
    return out


# The reference's answers (PyMahjongGB 1.4.0), for runs where it is not installed.
EXPECTED = {
    "chi_w1_offer0": ("error", "ERROR_NOT_WIN"),
    "chi_w1_offer1": ("error", "ERROR_NOT_WIN"),
    "chi_offer4": ("error", "ERROE_WRONG_OFFER_CODE"),
    "chi_not_win": ("error", "ERROR_NOT_WIN"),
    "hand_list": ("error", "Param `hand` must be a tuple!"),
    "pack_list": ("error", "Param `pack` must be a tuple!"),
    "shanten_pack_list": ("error", "Param `pack` must be a tuple!"),
    "shanten_14": ("error", "ERROR_INVALID_HAND_OR_PACK"),
    "shanten_11_with_pack": ("error", "ERROR_INVALID_HAND_OR_PACK"),
    "shanten_9": ("error", "ERROR_INVALID_HAND_OR_PACK"),
    "regular_14": ("error", "ERROR_INVALID_HAND"),
    "regular_11": ("error", "ERROR_INVALID_HAND"),
    "regular_0": ("error", "ERROR_INVALID_HAND"),
    "knitted_straight_7": ("error", "ERROR_INVALID_HAND"),
    "SevenPairsShanten_10": ("error", "ERROR_INVALID_HAND"),
    "ThirteenOrphansShanten_14": ("error", "ERROR_INVALID_HAND"),
    "HonorsAndKnittedTilesShanten_4": ("error", "ERROR_INVALID_HAND"),
    "regular_list": ("error", "Param `hand` must be a tuple!"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_known_reference_answers(name: str) -> None:
    assert outcome(calls(ours)[name]) == EXPECTED[name]


def test_same_answer_as_the_installed_reference() -> None:
    ref = pytest.importorskip("MahjongGB")
    mine, theirs = calls(ours), calls(ref)
    for name in mine:
        assert outcome(mine[name]) == outcome(theirs[name]), name


def test_documented_differences_refuse() -> None:
    # offer 0 on a PENG (the reference scores a concealed pung) is refused with the offer code
    with pytest.raises(ours.MahjongGBError, match="ERROE_WRONG_OFFER_CODE"):
        ours.MahjongFanCalculator((("PENG", "W2", 0),), HAND10, "B1", 0, False, False, False, False, 0, 0)
    # a CHI on W9 in a shanten query (the reference reads past the suit) is refused
    with pytest.raises(ours.MahjongGBError, match="ERROE_WRONG_PACK_CODE"):
        ours.MahjongShanten((("CHI", "W9", 1),), T14[3:13])
