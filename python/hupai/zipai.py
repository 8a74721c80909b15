"""字牌 (zipai): cards, 胡息-maximising decomposition, win detection, waits, scoring.

Two presets of one engine: ``"zipai_guilin"`` (default; the seed's 桂林/广西 game) and
``"zipai_hunan"`` (跑胡子 switches). Every rule decision is made by the Rust core
(``hupai-core``, module ``zipai``); this module gives it a Pythonic surface.

Cards: ``x1``..``x10`` = small 一..十, ``d1``..``d10`` = big 壹..拾 (Chinese characters work too)::

    >>> from hupai import zipai
    >>> zipai.parse_cards("x2x7x10 壹贰叁")
    [Card('x2'), Card('x7'), Card('x10'), Card('d1'), Card('d2'), Card('d3')]
    >>> zipai.huxi("d1d1d2d2d3d3x1x2x3x4x5", win_card="x3", win_type="other_draw")
    15

Melds (already fixed groups) are given as ``{"type": "peng", "tiles": "x5x5x5"}``,
``("peng", "x5x5x5")`` or ``"peng:x5x5x5"``; types ``chi`` (also 比 groups), ``peng``,
``wei``/``sao``, ``chouwei``/``guosao``, ``pao``/``kaiduo``, ``ti``/``saochuan``, ``kan``.
Concealed cards may include 坎 (three copies: a fixed triplet) and a dealt 扫穿 (four copies), and,
when the variant has jokers (switch ``jokers`` 1..4), jokers written ``K`` (王, 鬼): each stands for
any card in the free groups of the split (``Group.jokers`` lists the cards they stand for).

Win types: ``"discard"`` (点炮), ``"self_draw"`` (自摸), ``"other_draw"`` (another player's drawn
card), ``"tianhu"`` (天胡: no winning card needed, all cards are dealt), ``"dihu"`` (地胡),
``"sanlong"`` (三龙五坎, switch ``sanlong_wukan``: three dealt fours or five dealt triplets, any seat).
A ``self_draw`` without a winning card is a win on a drawn joker (the joker is among the concealed).

:func:`score` is ``hupai.score(situation, variant)`` and returns the one ``hupai.Score`` (``total``
= 胡息 in unit ``huxi``, ``meets_minimum``, ``per_payer``, ``payments`` between seats, ``net``,
``fans`` = the 名堂 and the win factors, ``decomposition`` = the 胡息-best split in the one shape,
``extras`` = 舵/囤 ``duo``, ``multiplier``, ``fan``, ``xing``, ``xing_cards``, ``hu_score`` …).
Situation dict of :func:`score` (unknown keys are an error; ``hupai.score`` also takes the
envelope ``{"hand": cards, "situation": {...}}``)::

    {
      "concealed": "d8d8d8 x2x7x10 ...",   # concealed cards before the winning card
      "win_card": "x8",                    # (alias "win_tile"); None only for tianhu
      "melds": [{"type": "chi", "tiles": ["d1", "d2", "d3"]}, ...],
      "win_type": "discard",               # discard | self_draw | other_draw | tianhu | dihu
      "haidi": False,                      # 海底胡: the last wall card (no 翻醒)
      "players": 3, "seat": 1, "dealer": 0,
      "discarder": 2,                      # discard/dihu; default: the winner's 上家 (dihu: dealer)
      "flips": ["d7"],                     # wall cards turned for 翻醒, in order
      "difficulty": 1,                     # 难度 (default: the variant's switch)
      "passed_peng": ["x4"],               # kinds whose 碰 the winner passed (过碰 / 过扫)
    }
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hupai import _core
from hupai._args import items as _items
from hupai._args import uint8_array
from hupai._core import Score, Variant
from hupai import _text
from hupai._core import ZipaiCard as Card

if TYPE_CHECKING:  # numpy is imported where it is used: `import hupai` stays quick
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Card",
    "Decomposition",
    "Group",
    "Score",
    "batch_huxi",
    "batch_is_winning",
    "chi_options",
    "claims",
    "decompose",
    "discard_check",
    "duo",
    "format_cards",
    "from_counts",
    "group_huxi",
    "huxi",
    "is_sanlong_wukan",
    "is_winning",
    "next_dealer",
    "parse_cards",
    "score",
    "score_cli",
    "split",
    "to_counts",
    "waits",
    "waits_cli",
]

CardsLike = str | Sequence[str | Card]
MeldLike = Mapping[str, Any] | tuple[str, CardsLike] | str
VariantLike = str | Variant

DEFAULT_VARIANT = "zipai_guilin"


def parse_cards(cards: CardsLike) -> list[Card]:
    """Cards from codes (``"x2x7x10"``, ``"d1 d2 d3"``) or Chinese (``"二七十壹贰叁"``)."""
    return _core.zipai_parse_cards(cards)


def format_cards(cards: CardsLike, *, chinese: bool = False) -> str:
    """Canonical sorted notation (``"x1 x2 x3 d10"``) or Chinese (``"一二三拾"``)."""
    return _core.zipai_format_cards(cards, chinese=chinese)


def to_counts(cards: CardsLike) -> list[int]:
    """20-count vector: index 0..9 small 一..十, 10..19 big 壹..拾."""
    return _core.zipai_to_counts(cards)


def from_counts(counts: Sequence[int]) -> list[Card]:
    """Cards of a 20-count vector."""
    return _core.zipai_from_counts(_items(counts, "counts"))


@dataclass(frozen=True)
class Group:
    """One group of a decomposition (``type`` is the group id of the 胡息 table)."""

    type: str
    name: str
    cards: tuple[str, ...]
    exposed: bool
    has_win_card: bool
    huxi: int
    jokers: tuple[str, ...] = ()
    """The cards of ``cards`` that are jokers (王) standing for them."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "name": self.name,
            "cards": list(self.cards),
            "exposed": self.exposed,
            "has_win_card": self.has_win_card,
            "huxi": self.huxi,
            "jokers": list(self.jokers),
        }

    def __str__(self) -> str:
        j = f" (王 for {' '.join(self.jokers)})" if self.jokers else ""
        return f"{self.name}[{' '.join(self.cards)}]{j} {self.huxi}"


@dataclass(frozen=True)
class Decomposition:
    """The 胡息-best split of a complete hand."""

    huxi: int
    groups: tuple[Group, ...]
    kaiduo_by_win: bool

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Decomposition:
        """From the one decomposition shape (``sets`` of the split, each group a set)."""
        if not isinstance(d, Mapping):
            raise TypeError(f"a decomposition is a dict, got {type(d).__name__}")
        try:
            return cls._from_dict(d)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError) as e:
            raise _core.InvalidHandError(f"invalid hand: not a 字牌 decomposition dict ({type(e).__name__}: {e})") from None

    @classmethod
    def _from_dict(cls, d: Mapping[str, Any]) -> Decomposition:
        return cls(
            huxi=int(d["huxi"]),
            groups=tuple(
                Group(
                    type=g["kind"],
                    name=g["name"],
                    cards=tuple(g["tiles"]),
                    exposed=bool(g["declared"]),
                    has_win_card=bool(g["has_win_card"]),
                    huxi=int(g["huxi"]),
                    jokers=tuple(g.get("jokers", ())),
                )
                for g in d["sets"]
            ),
            kaiduo_by_win=bool(d["kaiduo_by_win"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"huxi": self.huxi, "kaiduo_by_win": self.kaiduo_by_win, "groups": [g.to_dict() for g in self.groups]}

    def __str__(self) -> str:
        return " + ".join(str(g) for g in self.groups) + f" = {self.huxi} 胡息"


def decompose(
    concealed: CardsLike,
    win_card: str | Card | None = None,
    melds: Sequence[MeldLike] | None = None,
    *,
    win_type: str = "discard",
    passed_peng: CardsLike | None = None,
    variant: VariantLike = DEFAULT_VARIANT,
) -> Decomposition | None:
    """The 胡息-maximising decomposition of the hand + winning card, or ``None`` if incomplete.

    The minimum 胡息 is not checked here (see :func:`is_winning`).
    """
    d = _core.zipai_decompose(
        concealed, win_card, _items([] if melds is None else melds, "melds"), win_type=win_type, passed_peng=passed_peng, variant=variant
    )
    return None if d is None else Decomposition.from_dict(d)


huxi = _core.zipai_huxi
"""``huxi(concealed, win_card=None, melds=None, *, win_type="discard", passed_peng=None,
variant="zipai_guilin")``: best 胡息 over every reading and split, ``None`` when the hand does not
split into groups (the minimum 胡息 is not checked; see :func:`is_winning`)."""


def is_winning(
    concealed: CardsLike,
    win_card: str | Card | None = None,
    melds: Sequence[MeldLike] | None = None,
    *,
    win_type: str = "discard",
    passed_peng: CardsLike | None = None,
    variant: VariantLike = DEFAULT_VARIANT,
) -> bool:
    """Complete hand reaching the variant's minimum 胡息 (10 Guilin, 15 Hunan)."""
    v = variant if isinstance(variant, Variant) else Variant.load(variant)
    h = huxi(concealed, win_card, melds, win_type=win_type, passed_peng=passed_peng, variant=v)
    return h is not None and h >= int(v.options["min_huxi"])


def waits(
    concealed: CardsLike,
    melds: Sequence[MeldLike] | None = None,
    *,
    win_type: str = "discard",
    passed_peng: CardsLike | None = None,
    variant: VariantLike = DEFAULT_VARIANT,
    reach_min: bool = True,
) -> list[tuple[Card, int]]:
    """Cards that complete the hand from ``win_type`` with the best 胡息 of each; only wins
    reaching the minimum 胡息 unless ``reach_min=False``."""
    ws = _core.zipai_waits(
        concealed,
        _items([] if melds is None else melds, "melds"),
        win_type=win_type,
        passed_peng=passed_peng,
        variant=variant,
        reach_min=reach_min,
    )
    return [(Card(w["card"]), int(w["huxi"])) for w in ws]


def score(situation: Mapping[str, Any], variant: VariantLike = DEFAULT_VARIANT) -> Score:
    """Score a win (schema of ``situation`` in the module docstring): ``hupai.score(situation,
    variant)``."""
    return _core.score(dict(situation) if isinstance(situation, Mapping) else situation, variant)


def split(s: Score) -> Decomposition | None:
    """The 胡息 split of a 字牌 score."""
    if not isinstance(s, Score):
        raise TypeError(f"split takes a hupai.Score, got {type(s).__name__}")
    d = s.decomposition
    return None if d is None else Decomposition.from_dict(d)


def _batch_array(counts: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    import numpy as np

    a = uint8_array(counts, "counts") if not isinstance(counts, np.ndarray) else counts
    if a.dtype != np.uint8:
        if a.size and not np.issubdtype(a.dtype, np.integer):
            raise _core.InvalidHandError(f"invalid hand: batch counts must be integers, got dtype {a.dtype}")
        if a.size and (a.min() < 0 or a.max() > 4):
            raise _core.InvalidHandError("invalid hand: batch counts must be in 0..=4")
        a = a.astype(np.uint8)
    if a.ndim != 2:
        raise _core.InvalidHandError(f"invalid hand: batch input must be 2-D (N, 20), got {a.ndim}-D")
    return np.ascontiguousarray(a)


def batch_huxi(counts: npt.ArrayLike, variant: VariantLike = DEFAULT_VARIANT) -> npt.NDArray[np.int32]:
    """Best 胡息 of each row of an ``(N, 20)`` count array of fully concealed hands (3 = 坎,
    4 = 扫穿); -1 where a row does not split. Releases the GIL, runs in parallel; equal to
    ``huxi(from_counts(row), win_type="tianhu")`` row by row."""
    return _core.zipai_batch_huxi(_batch_array(counts), variant)


def batch_is_winning(counts: npt.ArrayLike, variant: VariantLike = DEFAULT_VARIANT) -> npt.NDArray[np.bool_]:
    """Whether each row of ``(N, 20)`` counts is complete and reaches the minimum 胡息."""
    return _core.zipai_batch_is_winning(_batch_array(counts), variant)


def chi_options(hand: CardsLike, card: str | Card) -> list[dict[str, Any]]:
    """Legal 吃 of ``card`` by a player whose free hand cards are ``hand`` (坎 excluded), each
    with the 比 groups that must be exposed with it (下比). Empty list: no legal 吃."""
    return _core.zipai_chi_options(hand, card)


def duo(huxi: int, variant: VariantLike = DEFAULT_VARIANT) -> int:
    """舵 (Guangxi) / 囤 (Hunan) of a 胡息 total: 1 + (胡息 - base) // step; 0 below the minimum."""
    return _core.zipai_duo(huxi, variant)


def discard_check(concealed: CardsLike, melds: Sequence[MeldLike] | None = None, *, check_count: bool = True) -> dict[str, Any]:
    """The flow's discard decision, made by the core: ``{"discards": [...], "xianggong": reason or
    None}`` for a player who must discard now. 相公 = a card count other than 21 (+1 per 4-card
    group after the first) or no card that may be discarded (坎, dealt 扫穿 and jokers never are).
    ``check_count=False`` skips the count test (positions)."""
    return _core.zipai_discard_check(concealed, melds, check_count=check_count)


def next_dealer(dealer: int, winner: int | None, variant: VariantLike = DEFAULT_VARIANT) -> int:
    """Dealer of the next hand: the winner; after a 荒庄 the same dealer or his 下家 (switch
    ``dealer_after_draw``)."""
    return _core.zipai_next_dealer(dealer, winner, variant)


def is_sanlong_wukan(concealed: CardsLike) -> bool:
    """Whether dealt cards hold 三龙五坎: three fours or five triplets (switch ``sanlong_wukan``)."""
    return _core.zipai_is_sanlong_wukan(concealed)


claims = _core.zipai_claims
"""``claims(concealed, card, melds=None, *, source="discard", may_chi=True, chou=False,
passed_peng=None, variant="zipai_guilin", chou_chi=None, chou_peng=None)``: what a player may / must
do with ``card`` (for a flow engine): ``hu`` (胡息 of the win, or ``None``), mandatory
``saochuan``/``sao``/``guosao``/``kaiduo``, optional ``peng`` and ``chi`` (each with its 下比 groups).
``chou`` marks the card 臭 for both 吃 and 碰; ``chou_chi`` / ``chou_peng`` override it per action
(switch ``chou_scope``); with ``chou_blocks_hu`` a 臭 card cannot be won on either."""


def group_huxi(meld_type: str, cards: CardsLike, variant: VariantLike = DEFAULT_VARIANT) -> int:
    """胡息 of one meld, e.g. ``group_huxi("ti", "d9d9d9d9") == 12``."""
    return _core.zipai_group_huxi(meld_type, cards, variant)


# ---------------------------------------------------------------------------------------------
# CLI helpers (`hupai zipai score ...`, `hupai zipai waits ...`, and `hupai score --variant zipai_*`)


def _parse_melds(texts: Sequence[str] | None) -> list[str]:
    return _items([] if texts is None else texts, "texts")


def _variant_from_args(args: argparse.Namespace) -> Variant:
    opts: dict[str, bool | int | str] = {}
    for item in getattr(args, "option", None) or []:
        key, _, raw = item.partition("=")
        value: bool | int | str
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        else:
            try:
                value = int(raw)
            except ValueError:
                value = raw
        opts[key] = value
    return Variant(getattr(args, "variant", None) or DEFAULT_VARIANT, **opts)


def score_cli(args: argparse.Namespace) -> int:
    """Score from parsed CLI arguments (``hand``, ``win``, ``meld``, ``win_type``, ``flip``,
    ``seat``, ``dealer``, ``discarder``, ``haidi``, ``passed_peng``, ``variant``, ``option``,
    ``json``) and print a readable table (or JSON)."""
    import json

    if not isinstance(args, argparse.Namespace):
        raise TypeError("score_cli takes parsed arguments (argparse.Namespace)")
    v = _variant_from_args(args)
    sit: dict[str, Any] = {
        "concealed": args.hand,
        "win_card": getattr(args, "win", None),
        "melds": _parse_melds(getattr(args, "meld", None)),
        "win_type": getattr(args, "win_type", None) or "discard",
        "haidi": bool(getattr(args, "haidi", False)),
        "seat": getattr(args, "seat", 0) or 0,
        "dealer": getattr(args, "dealer", 0) or 0,
        "flips": getattr(args, "flip", None) or [],
    }
    if getattr(args, "discarder", None) is not None:
        sit["discarder"] = args.discarder
    if getattr(args, "passed_peng", None):
        sit["passed_peng"] = args.passed_peng
    if getattr(args, "situation", None):
        extra = json.loads(args.situation)
        if not isinstance(extra, dict):
            raise _core.InvalidHandError("--situation must be a JSON object")
        sit.update(extra)
    s = score(sit, v)
    if getattr(args, "json", False):
        print(json.dumps(s.to_dict(), ensure_ascii=False, indent=2))
        return 0
    print(_score_table(s, v))
    return 0


def _score_table(s: Score, v: Variant) -> str:
    lines = [f"variant {v!r}"]
    d = split(s)
    x = s.extras
    if d is None:
        lines.append("not a complete hand")
        return "\n".join(lines)
    w = max(_width(g.name) for g in d.groups) + 2
    lines.append(f"{_pad('group', w)} {'cards':<16} shown  胡息")
    for g in d.groups:
        mark = "*" if g.has_win_card else " "
        shown = "yes" if g.exposed else "no"
        joker = f"  王 = {' '.join(g.jokers)}" if g.jokers else ""
        lines.append(f"{_pad(g.name, w)} {' '.join(g.cards) + mark:<16} {shown:<5} {g.huxi:>4}{joker}")
    lines.append("(* holds the winning card)")
    unit = "囤" if v.options.get("naming") == "hunan" else "舵"
    lines.append(f"胡息 {s.total} (minimum {x['min_huxi']})" + ("" if s.meets_minimum else " — not a win"))
    if not s.meets_minimum:
        return "\n".join(lines)
    factors = ", ".join(f"{f.zh} ×{f.value}" for f in s.fans if f.op == "mul") or "none"
    lines.append(f"{unit} {x['duo']}; multiplier {x['multiplier']} ({factors})")
    mingtang = [f for f in s.fans if f.op == "add"]
    if mingtang:
        lines.append("名堂: " + ", ".join(f"{m.zh} {m.value}" for m in mingtang) + f" → fan {x['fan']}")
    if x["xing_cards"]:
        lines.append(f"醒 cards {' '.join(x['xing_cards'])} (flips {' '.join(x['flips_used']) or '-'}) → 醒 {x['xing']}")
    lines.append(f"胡牌分数 {x['hu_score']} + 翻醒分数 {x['xing_score']} = {s.per_payer} per payer")
    for p in s.payments:
        lines.append(f"  seat {p['payer']} pays seat {p['payee']}: {p['amount']}")
    lines.append("net: " + ", ".join(f"seat {i} {n:+d}" for i, n in enumerate(s.net)))
    return "\n".join(lines)


def _width(s: str) -> int:
    return _text.width(s)


def _pad(s: str, w: int) -> str:
    return _text.pad(s, w)


def waits_cli(args: argparse.Namespace) -> int:
    """Print the waits of ``args.hand`` (+ ``args.meld``) for ``args.win_type``."""
    if not isinstance(args, argparse.Namespace):
        raise TypeError("waits_cli takes parsed arguments (argparse.Namespace)")
    v = _variant_from_args(args)
    ws = waits(
        args.hand,
        melds=_parse_melds(getattr(args, "meld", None)),
        win_type=getattr(args, "win_type", None) or "discard",
        variant=v,
        reach_min=not getattr(args, "all", False),
    )
    if not ws:
        print("no waits")
    for c, h in ws:
        print(f"{c} {c.chinese}  {h} 胡息")
    return 0


def add_cli_arguments(p: argparse.ArgumentParser, *, waits_only: bool = False) -> None:
    """Arguments of ``hupai zipai score`` / ``waits`` (shared with ``hupai score``)."""
    p.add_argument("hand", help="concealed cards before the winning card, e.g. 'd8d8d8 x2x7x10 x9x10'")
    if not waits_only:
        p.add_argument("--win", help="winning card (omit for tianhu)")
    p.add_argument("--meld", action="append", help="a meld 'type:cards', e.g. 'peng:x5x5x5' (repeatable)")
    p.add_argument(
        "--win-type",
        default="discard",
        choices=["discard", "self_draw", "other_draw", "tianhu", "dihu", "sanlong"],
        help="how the card came: discard 点炮 (default), self_draw 自摸, other_draw 他家翻, tianhu 天胡, dihu 地胡, sanlong 三龙五坎",
    )
    p.add_argument("--variant", default=DEFAULT_VARIANT, help=f"the 字牌 preset: zipai_guilin or zipai_hunan (default {DEFAULT_VARIANT})")
    p.add_argument("--option", "-o", action="append", help="switch override name=value (repeatable)")
    if waits_only:
        p.add_argument("--all", action="store_true", help="also list completions below the minimum 胡息")
        return
    p.add_argument("--flip", action="append", help="a card turned for 翻醒 (repeatable, in order)")
    p.add_argument("--seat", type=int, default=0, help="the winner's seat 0..2 (default 0)")
    p.add_argument("--dealer", type=int, default=0, help="the dealer's seat 0..2 (default 0)")
    p.add_argument("--discarder", type=int, help="the discarder's seat on a discard win (default: the winner's 上家)")
    p.add_argument("--haidi", action="store_true", help="海底胡: the last wall card")
    p.add_argument("--passed-peng", help="cards whose 碰 the winner passed")
    p.add_argument("--situation", metavar="JSON", help="situation keys as a JSON object (as POST /v1/score takes them)")
    p.add_argument("--json", action="store_true", help="print the score as JSON")
