"""hupai: a Rust-accelerated engine for Chinese mahjong variants and 字牌.

The Rust core (``hupai._core``) makes every rule decision; this package re-exports it with a
Pythonic surface. Quick tour::

    >>> import hupai
    >>> hupai.parse_tiles("123m EEE")
    [Tile('1m'), Tile('2m'), Tile('3m'), Tile('E'), Tile('E'), Tile('E')]
    >>> hupai.Hand("123m456p789sEEEC").is_complete
    False
"""

from hupai._core import (
    Hand,
    Meld,
    Settlement,
    SichuanScore,
    Tile,
    Variant,
    __version__,
    decompose,
    format_tiles,
    from_counts,
    parse_tiles,
    to_counts,
    variants,
)
from hupai import sichuan
from hupai.errors import (
    HupaiError,
    InvalidHandError,
    InvalidTileError,
    RuleConfigError,
    SettlementError,
)
from hupai.sichuan import max_win_value
from hupai import zipai

__all__ = [
    "Hand",
    "HupaiError",
    "InvalidHandError",
    "InvalidTileError",
    "Meld",
    "RuleConfigError",
    "Settlement",
    "SettlementError",
    "SichuanScore",
    "Tile",
    "Variant",
    "__version__",
    "decompose",
    "format_tiles",
    "from_counts",
    "max_win_value",
    "parse_tiles",
    "sichuan",
    "to_counts",
    "variants",
    "zipai",
]
