"""hupai: a Rust-accelerated engine for Chinese mahjong variants and 字牌.

The Rust core (``hupai._core``) makes every rule decision; this package re-exports it with a
Pythonic surface. Quick tour::

    >>> import hupai
    >>> hupai.parse_tiles("123m EEE")
    [Tile('1m'), Tile('2m'), Tile('3m'), Tile('E'), Tile('E'), Tile('E')]
    >>> hupai.Hand("123m456p789sEEEC").is_complete
    False
    >>> hupai.waits("1112345678999m")
    ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
    >>> hupai.shanten("123m456p789sEEEC"), hupai.is_winning("123m456p789sEEEC", wildcards=1)
    (0, True)

Analysis calls (``is_winning``, ``shanten``, ``shanten_forms``, ``waits``, ``useful_tiles``,
``discard_options``, ``decompose``) take a ``Hand``, a string in any notation (bracket melds
``"[EEE,1]123m456p78s9s"``, ``+`` winning tile) or a list of tiles. Unlike ``Hand``, they accept any
``3n+1`` (waiting) or ``3n+2`` (complete) number of standing tiles: when the hand has fewer tiles
than its melds call for, the missing sets count as already declared (``"55p"`` is a complete hand
with four sets declared). Options are keyword-only: ``shapes`` (a ``Shapes``, or shape names;
default every shape) and ``wildcards`` (wildcard tiles besides the given ones, 0..8).
``hupai.batch`` has vectorised ``is_winning``, ``shanten`` and ``waits`` over numpy arrays.

Scoring is one API for every preset (``hupai.variants()``): ``hupai.score`` returns a
``hupai.Score`` (``total``, ``fans``, ``payments``, ``decomposition``, ``extras``, ``to_dict()``),
``hupai.settle_hand`` settles a whole hand record into a ``hupai.Settlement``.
"""

from hupai import batch
from hupai._core import (
    analyse,
    decompose,
    discard_options,
    Fan,
    format_tiles,
    from_counts,
    Hand,
    is_winning,
    mcr_waits,
    Meld,
    parse_tiles,
    score,
    Score,
    score_json,
    Settlement,
    settle_hand,
    shanten,
    shanten_forms,
    Shapes,
    Situation,
    Tile,
    to_counts,
    useful_tiles,
    Variant,
    variants,
    waiting_value,
    waits,
    __version__,
)

#: Former names of the one result type (every preset now returns a ``hupai.Score``).
SichuanScore = Score
VariantScore = Score
PatternScore = Score

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
from hupai import doudizhu
from hupai import dingniu
from hupai import gouji
from hupai import kawuxing
from hupai import hebei, hebei_draft4, shanghai
from hupai import game
from hupai.game import (
    Action,
    Bot,
    DefensiveBot,
    Event,
    GreedyBot,
    IllegalActionError,
    Match,
    Observation,
    RandomBot,
    ReplayError,
    Table,
    replay,
    simulate,
)

__all__ = [
    "Action",
    "batch",
    "Bot",
    "DefensiveBot",
    "Event",
    "IllegalActionError",
    "Observation",
    "ReplayError",
    "game",
    "gouji",
    "GreedyBot",
    "Match",
    "RandomBot",
    "replay",
    "simulate",
    "Table",
    "decompose",
    "dingniu",
    "discard_options",
    "doudizhu",
    "Fan",
    "format_tiles",
    "from_counts",
    "Hand",
    "hebei",
    "hebei_draft4",
    "HupaiError",
    "InvalidHandError",
    "InvalidTileError",
    "is_winning",
    "kawuxing",
    "max_win_value",
    "mcr_waits",
    "Meld",
    "parse_tiles",
    "PatternScore",
    "RuleConfigError",
    "Score",
    "score",
    "score_json",
    "analyse",
    "settle_hand",
    "Settlement",
    "SettlementError",
    "shanghai",
    "shanten",
    "shanten_forms",
    "Shapes",
    "sichuan",
    "SichuanScore",
    "Situation",
    "Tile",
    "to_counts",
    "useful_tiles",
    "Variant",
    "variants",
    "VariantScore",
    "waiting_value",
    "waits",
    "zipai",
    "__version__",
]
