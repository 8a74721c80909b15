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
    Fan,
    Hand,
    Meld,
    Score,
    Situation,
    Tile,
    Variant,
    __version__,
    decompose,
    format_tiles,
    from_counts,
    mcr_settlement,
    mcr_waits,
    parse_tiles,
    score,
    score_json,
    to_counts,
    variants,
)
from hupai.errors import HupaiError, InvalidHandError, InvalidTileError, RuleConfigError

__all__ = [
    "Fan",
    "Hand",
    "HupaiError",
    "InvalidHandError",
    "InvalidTileError",
    "Meld",
    "RuleConfigError",
    "Score",
    "Situation",
    "Tile",
    "Variant",
    "__version__",
    "decompose",
    "format_tiles",
    "from_counts",
    "mcr_settlement",
    "mcr_waits",
    "parse_tiles",
    "score",
    "score_json",
    "to_counts",
    "variants",
]
