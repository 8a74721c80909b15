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
from hupai.errors import HupaiError, InvalidHandError, InvalidTileError, RuleConfigError
from hupai import zipai  # noqa: E402  (字牌; after the core names it uses)

__all__ = [
    "Hand",
    "HupaiError",
    "InvalidHandError",
    "InvalidTileError",
    "Meld",
    "RuleConfigError",
    "Tile",
    "Variant",
    "__version__",
    "decompose",
    "format_tiles",
    "from_counts",
    "parse_tiles",
    "to_counts",
    "variants",
    "zipai",
]
