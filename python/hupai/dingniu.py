"""顶牛 (顶牛子 / 牛牌 / 拱牛 / 骨牌接龙): the four-player blocking domino game with the 24 牌九 tiles.

Every rule is decided in the Rust core (``rust/core/src/rules/dingniu/``); this module is the
typed Python surface. Spec: ``shared/rules/dingniu.md``; switches: ``presets/dingniu.toml``
(keyword arguments of every function, with ``variant="dingniu"``).

Notation: a tile is two pips, low first (``"56"`` 虎头, ``"44"`` 红八; ``"65"`` and the seed's
names are accepted); a hand is tiles separated by spaces; the line has two open ends ``(L, R)``;
a move is ``"46"`` (the opening tile), ``"44+44"`` (the 红八 pair opening), ``"16:R"`` (lay on the
right end) or ``"kou 11"`` (turn a tile face down). Seats are 0..3; play runs from the 头牌 in
increasing seat order.

>>> from hupai import dingniu
>>> dingniu.placements((4, 6), "66 44 16 13 22 55")
[Placement(tile='66', side='R', ends=(4, 6)), Placement(tile='44', side='L', ends=(4, 6)), Placement(tile='16', side='R', ends=(4, 1))]
>>> dingniu.legal_moves((2, 3), "55 44 11")          # nothing fits: 扣 any tile
['kou 55', 'kou 44', 'kou 11']
>>> dingniu.settle([20, 10, 22, 10])["pay"]          # ties go to the player nearer the 头牌
[-2, 6, -3, -1]
>>> g = dingniu.Game(seed=7)
>>> while not g.is_over:
...     _ = g.step(g.bot_action("greedy"))
>>> sum(g.result()["pay"])
0
>>> dingniu.replay(g.events()).result() == g.result()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from hupai import _core
from hupai._args import int_arg
from hupai._args import items as _items
from hupai._args import uint8_array
from hupai._core import DingniuRules as Rules

if TYPE_CHECKING:  # numpy is imported where it is used: `import hupai` stays quick
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BOTS",
    "Game",
    "N_ACTIONS",
    "Placement",
    "Rules",
    "action_id",
    "action_name",
    "batch_legal",
    "detect_zhang",
    "legal_moves",
    "may_kou",
    "name",
    "opening_allowed",
    "openings",
    "parse_hand",
    "pips",
    "place",
    "placements",
    "play_match",
    "replay",
    "rules",
    "settle",
    "silan",
    "simulate",
    "summary",
    "tile_set",
    "zhang_settle",
]

#: Built-in bots (played in Rust): a uniformly random legal move; a greedy player that blocks
#: (算帐) when it is sure of the block and expects to have the fewest pips.
BOTS = ("random", "greedy")
#: Size of the flat action space (see ``docs/dingniu.md``): lay 0..26, 扣 26..39, open 39..52,
#: pair opening 52..58.
N_ACTIONS = 58

HandLike = str | Sequence[str]
Ends = tuple[int, int]


class Placement(NamedTuple):
    """One legal placement: the tile, the end (``"L"``/``"R"``) and the ends after it."""

    tile: str
    side: str
    ends: Ends


@lru_cache(maxsize=64)
def _rules_cached(variant: str, items: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules(variant, **dict(items))


def rules(variant: str = "dingniu", **switches: Any) -> Rules:
    """The compiled rules of a variant with switch overrides (cached).

    >>> rules(silan=False).options()["silan"]
    False
    """
    try:
        key = tuple(sorted(switches.items()))
        hash(key)
    except TypeError:
        return Rules(variant, **switches)
    return _rules_cached(variant, key)


def tile_set() -> dict[str, Any]:
    """The 24-tile set: ``kinds`` (code, seed name, 牌九 name, ends, pips, copies, double, red,
    five), ``count``, ``total_pips`` and the eight ``removed`` 牌九 tiles.

    >>> [k["code"] for k in tile_set()["kinds"]][:3], tile_set()["total_pips"]
    (['66', '55', '44'], 177)
    """
    result: dict[str, Any] = _core.dingniu_tile_set()
    return result


@lru_cache(maxsize=None)
def _names() -> dict[str, tuple[str, int]]:
    return {k["code"]: (k["name"], k["pips"]) for k in tile_set()["kinds"]}


def name(tile: str) -> str:
    """The seed's Chinese name of a tile.

    >>> name("46"), name("62")
    ('红十', '二六')
    """
    return _names()[_core.dingniu_tile(tile)][0]


def parse_hand(hand: HandLike) -> list[str]:
    """Normalised tile codes of a hand, in the order given.

    Raises ``InvalidTileError`` for a tile outside the set and ``InvalidHandError`` for more
    copies than the set holds.

    >>> parse_hand("62 63 11")
    ['26', '36', '11']
    """
    return _core.dingniu_parse_hand(hand)


def pips(hand: HandLike) -> int:
    """Total pips of a tile or hand.

    >>> pips("66 56 46 16 15 13")
    50
    """
    return sum(_names()[t][1] for t in parse_hand(hand))


def place(ends: Ends, tile: str, side: str) -> Ends | None:
    """The ends after laying ``tile`` on ``side`` (``"L"``/``"R"``), or None if it does not fit.

    >>> place((1, 6), "16", "L"), place((1, 6), "16", "R"), place((4, 6), "13", "L")
    ((6, 6), (1, 1), None)
    """
    return _core.dingniu_place(ends, tile, side)


def placements(ends: Ends, hand: HandLike) -> list[Placement]:
    """Every legal placement of a hand (§4.1), in kind order, ``L`` before ``R``; when both ends
    show the same number only ``L`` is listed."""
    return [Placement(t, s, e) for t, s, e in _core.dingniu_placements(ends, hand)]


def may_kou(ends: Ends, hand: HandLike) -> bool:
    """Whether the hand must turn a tile down (nothing fits; 不能扣活牌 otherwise).

    >>> may_kou((2, 3), "55 44 11"), may_kou((4, 6), "66 13")
    (True, False)
    """
    return not _core.dingniu_placements(ends, hand)


def legal_moves(ends: Ends, hand: HandLike) -> list[str]:
    """The legal moves after the opening: every placement, else ``kou t`` for each kind held."""
    return _core.dingniu_turn_actions(ends, hand)


def openings(hands: Sequence[HandLike], toupai: int = 0, *, variant: str = "dingniu", **switches: Any) -> list[str]:
    """The 头牌's allowed first moves (§4.3: H1 不能拉三家, H2 the 红八 pair).

    >>> openings(["44 44 66 16 13 56", "66 55 33 22 46 15", "55 33 22 11 56 46", "11 16 15 13 36 26"])
    ['66', '44+44', '56', '16', '13']
    """
    return _core.dingniu_openings(rules(variant, **switches), hands, toupai)


def opening_allowed(
    hands: Sequence[HandLike], tile: str, toupai: int = 0, *, variant: str = "dingniu", **switches: Any
) -> bool:
    """Whether the 头牌 may open with ``tile`` (or ``"44+44"``)."""
    want = _core.dingniu_action_name(_core.dingniu_action_id(tile))
    return want in openings(hands, toupai, variant=variant, **switches)


def settle(
    points: Sequence[int], play_order: Sequence[int] | None = None, *, variant: str = "dingniu", **switches: Any
) -> dict[str, Any]:
    """Places and payments of a hand played out from the 扣 pips per seat (§5): ``winner``,
    ``da_zhuang``, ``er_zhuang``, ``xiao_zhuang`` (seats) and ``pay`` (per seat, zero-sum).
    ``play_order``: the seats from the 头牌 (default 0, 1, 2, 3)."""
    result: dict[str, Any] = _core.dingniu_settle(rules(variant, **switches), _items(points, "points"), None if play_order is None else _items(play_order, "play_order"))
    return result


def zhang_settle(
    counts: Sequence[int],
    by: int,
    play_order: Sequence[int] | None = None,
    *,
    variant: str = "dingniu",
    **switches: Any,
) -> dict[str, Any]:
    """Settlement of a 算帐 by seat ``by`` from the counts (hand + 扣 pips, §6.5): ``success`` and
    ``pay`` (doubled stakes, or 包庄: ``by`` pays 12 to the winner).

    >>> zhang_settle([33, 55, 26, 35], by=3)["pay"]
    [0, 0, 12, -12]
    """
    result: dict[str, Any] = _core.dingniu_zhang_settle(
        rules(variant, **switches), _items(counts, "counts"), by, None if play_order is None else _items(play_order, "play_order")
    )
    return result


def _split(move: str) -> tuple[str, str]:
    if not isinstance(move, str):
        raise TypeError(f"a placement is a str such as '46:L', got {type(move).__name__}")
    tile, sep, side = move.partition(":")
    if not sep:
        raise _core.InvalidHandError(f"a placement is written tile:side, e.g. '46:L', got {move!r}")
    return tile.strip(), side.strip()


def detect_zhang(
    ends: Ends,
    hands: Sequence[HandLike],
    seat: int,
    move: str,
    *,
    toupai: int = 0,
    kou: Sequence[int] | None = None,
    variant: str = "dingniu",
    **switches: Any,
) -> dict[str, Any]:
    """The 算帐 verdict on ``seat`` laying ``move`` (``"46:L"``) with these hands before the move
    (§6.1–6.4): ``zhang`` (``"红帐"`` … or None), ``deliberate``, ``ends``, ``smothered``
    (``[{"tile", "holder"}]``), ``toupai_jingshou`` and ``suanzhang`` (whether the hand ends in a
    算帐). ``kou``: tiles turned down per seat so far (for the 头牌净手 test).

    >>> detect_zhang((6, 4), ["11 56 16 13 36", "66 55 22 56 26", "44 33 11 15 13", "66 33 22 46 16 15"], 3, "46:L")["zhang"]
    '红帐'
    """
    tile, side = _split(move)
    result: dict[str, Any] = _core.dingniu_zhang_check(
        rules(variant, **switches), ends, hands, seat, tile, side, toupai, None if kou is None else _items(kou, "kou")
    )
    return result


def silan(
    ends: Ends,
    hands: Sequence[HandLike],
    seat: int,
    next_seat: int,
    move: str,
    *,
    toupai: int = 0,
    kou: Sequence[int] | None = None,
    variant: str = "dingniu",
    **switches: Any,
) -> dict[str, Any]:
    """死拦红帐 (§6.6): the placements of ``seat`` after which ``next_seat`` could make no 红帐
    (``preventing_placements``) and whether laying ``move`` makes ``seat`` liable should the 红帐
    succeed (``silan_if_hongzhang_succeeds``)."""
    tile, side = _split(move)
    result: dict[str, Any] = _core.dingniu_silan(
        rules(variant, **switches), ends, hands, seat, next_seat, tile, side, toupai, None if kou is None else _items(kou, "kou")
    )
    return result


def action_id(move: str) -> int:
    """The flat action id of a move (``"16:R"`` → 17).

    >>> action_id("16:R"), action_id("kou 11"), action_id("46"), action_id("44+44")
    (17, 31, 46, 54)
    """
    return _core.dingniu_action_id(move)


def action_name(action: int) -> str:
    """The move of a flat action id.

    >>> action_name(17)
    '16:R'
    """
    return _core.dingniu_action_name(action)


def batch_legal(ends: npt.ArrayLike, hands: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Legal-move masks of many positions at once (GIL released, all cores): ``ends`` (N, 2)
    pips, ``hands`` (N, 13) copies per kind in ``tile_set()`` order → (N, 58) bool over the
    flat action ids (lays and 扣; openings are not generated)."""
    e = uint8_array(ends, "ends")
    h = uint8_array(hands, "hands")
    return _core.dingniu_batch_legal(e, h)


def _bots(bots: str | Sequence[str]) -> list[str]:
    return [b.strip() for b in bots.split(",")] if isinstance(bots, str) else _items(bots, "bots")


def _table_sim(
    rounds: int, seed: int, bots: str | Sequence[str], check: bool, per_match: int, name: str, variant: str,
    switches: Mapping[str, Any], threads: int | None = None,
) -> Any:
    """``rounds`` hands through the one table engine, ``per_match`` hands a match, on ``threads``
    threads (default: every core)."""
    import os

    from hupai.game.simulate import simulate as table_simulate

    agents = _bots(bots)
    if len(agents) == 1:
        agents = agents * 4
    if len(agents) != 4:
        raise _core.RuleConfigError(f"bots: one bot name for every seat or four names, got {len(agents)}")
    for a in agents:
        if a not in ("random", "greedy", "defensive"):
            raise _core.RuleConfigError(f"bots: unknown bot {a!r}; bots: random, greedy, defensive")
    workers = (os.cpu_count() or 1) if threads is None else int_arg("threads", threads, 1, 1024)
    r = rules(variant, **switches)
    v = _core.Variant.load(r.variant).with_options(**r.options())
    return table_simulate(v, int_arg("rounds", rounds, 0, 10**9), agents=agents,
                          seed=int_arg("seed", seed, 0, 2**63 - 1), workers=workers, check=check,
                          results=True, hands_per_match=int_arg(name, per_match, 1, 1_000_000), progress=False)


def simulate(
    rounds: int,
    *,
    seed: int = 0,
    bots: str | Sequence[str] = "greedy",
    check: bool = True,
    rounds_per_match: int = 1,
    threads: int | None = None,
    variant: str = "dingniu",
    **switches: Any,
) -> dict[str, Any]:
    """Simulate ``rounds`` hands with the built-in bots through the one table engine —
    ``hupai.simulate(variant, rounds, results=True, check=check, hands_per_match=rounds_per_match)``
    in Rust on ``threads`` threads (default: every core; the totals do not depend on it), the GIL
    released — and tally them with :func:`summary`, adding ``matches``.

    ``bots``: one name for all seats or four (``"greedy,random,greedy,random"``; ``random``,
    ``greedy``, ``defensive``). ``check`` verifies after every move that the 24 tiles are accounted
    for and the legal moves are those of a separate naive reading of the rules, and after every
    hand that the payments sum to zero, the 头牌 and the carry follow §3 and the hand replays
    identically. ``rounds_per_match``: hands played in a row with the carry (the 大庄's dice
    choose the next 头牌).

    >>> s = simulate(200, seed=1)
    >>> s["rounds"], sum(s["net"])
    (200, 0)
    """
    sim = _table_sim(rounds, seed, bots, check, rounds_per_match, "rounds_per_match", variant, switches, threads)
    st = summary(sim)
    st["matches"] = -(-st["rounds"] // rounds_per_match)
    return st


def play_match(
    rounds: int,
    *,
    seed: int = 0,
    bots: str | Sequence[str] = "greedy",
    check: bool = True,
    variant: str = "dingniu",
    **switches: Any,
) -> dict[str, Any]:
    """A match of ``rounds`` hands played by bots with the carry of §3 (one match of the table
    engine, ``hupai.simulate(variant, rounds, hands_per_match=rounds, results=True)``): ``totals``
    per seat, ``hands`` (头牌, payments, the 帐 that ended each) and ``stats`` (:func:`summary`)."""
    n = int_arg("rounds", rounds, 1, 100_000)
    sim = _table_sim(n, seed, bots, check, n, "rounds", variant, switches)
    hands = [
        {"toupai": r["result"]["toupai"], "pay": r["result"]["pay"],
         "zhang": (r["result"].get("zhang") or {}).get("kind")}
        for r in sim.records
    ]
    totals = [sum(h["pay"][s] for h in hands) for s in range(4)]
    return {"totals": totals, "hands": hands, "stats": summary(sim)}


class Game:
    """One hand of 顶牛, played one move at a time (the state machine lives in the core).

    ``Game(seed=7)`` deals from a seed (the 头牌 at random, or ``toupai=``; ``carry=`` a previous
    hand's ``carry()`` lets the previous 大庄's dice choose it); ``Game(hands=[...4 hands...],
    toupai=0)`` plays given hands. Illegal moves raise ``InvalidHandError`` naming the legal ones
    and leave the state unchanged.

    >>> g = Game(hands=["44 11 56 16 13 36", "66 55 55 22 56 26", "44 33 11 46 15 13", "66 33 22 46 16 15"])
    >>> for m in ["44", "kou 55", "46:L", "46:L"]:
    ...     _ = g.step(m)
    >>> r = g.result()
    >>> r["zhang"]["kind"], r["zhang"]["success"], r["pay"]
    ('红帐', False, [0, 0, 12, -12])
    """

    __slots__ = ("_g", "rules")

    def __init__(
        self,
        hands: Sequence[HandLike] | None = None,
        *,
        seed: int | None = None,
        toupai: int | None = None,
        carry: dict[str, Any] | None = None,
        variant: str = "dingniu",
        **switches: Any,
    ) -> None:
        self.rules = rules(variant, **switches)
        self._g = _core.DingniuGame(self.rules, hands, seed, toupai, carry)

    @classmethod
    def _wrap(cls, core: _core.DingniuGame, r: Rules) -> Game:
        g = cls.__new__(cls)
        g._g = core
        g.rules = r
        return g

    @property
    def to_act(self) -> int | None:
        """The seat to act; None when the hand is over."""
        return self._g.to_act

    @property
    def is_over(self) -> bool:
        return self._g.is_over

    @property
    def toupai(self) -> int:
        """The 头牌 (first to play)."""
        return self._g.toupai

    @property
    def order(self) -> list[int]:
        """Seats in playing order from the 头牌."""
        return list(self._g.order)

    @property
    def ends(self) -> Ends | None:
        """The open ends ``(L, R)``; None before the opening."""
        return self._g.ends

    def hand(self, seat: int) -> list[str]:
        """A seat's tiles (full information; agents should use ``observation``)."""
        return self._g.hand(seat)

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """Legal moves of ``seat`` (default: the seat to act); empty for a seat not to act."""
        return self._g.legal_actions(seat)

    def legal_ids(self) -> list[int]:
        """Legal moves of the seat to act as flat action ids."""
        return self._g.legal_ids()

    def step(self, action: str | int) -> list[dict[str, Any]]:
        """Play a move of the seat to act (notation or flat id); returns the new events."""
        if isinstance(action, bool) or not isinstance(action, (str, int)):
            raise TypeError(f"a move is a str such as '16:R' or an action id, not {type(action).__name__}")
        if isinstance(action, int):
            return self._g.step_id(action)
        return self._g.step(action)

    def bot_action(self, bot: str = "greedy", seed: int = 0) -> str:
        """The move a built-in bot would make for the seat to act (raises when the hand is over)."""
        a = self._g.bot_action(bot, seed)
        if a is None:
            raise _core.InvalidHandError("the hand is over: no seat to act")
        return a

    def play_bots(self, bots: str | Sequence[str] = "greedy", seed: int = 0) -> dict[str, Any]:
        """Let bots play the rest of the hand; returns the result."""
        names = _bots(bots)
        seed = int_arg("seed", seed, 0, 2**53)
        if len(names) not in (1, 4):
            raise _core.RuleConfigError("bots: one name for all seats or four names")
        k = 0
        while (s := self.to_act) is not None:
            self.step(self.bot_action(names[s % len(names)], seed * 1000 + k))
            k += 1
        result = self.result()
        assert result is not None
        return result

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: ``hand``, own ``kou``, the ``line``, ``ends``, ``hand_sizes``,
        ``kou_sizes``, ``legal`` moves, ``to_act`` and the ``result`` once over."""
        result: dict[str, Any] = self._g.observation(seat)
        return result

    def events(self) -> list[dict[str, Any]]:
        """The event log (deal, open, lay, kou, zhang, end): JSON-serialisable; ``replay`` reads it."""
        result: list[dict[str, Any]] = self._g.events()
        return result

    def result(self) -> dict[str, Any] | None:
        """Places, ``points`` (扣 pips, or hand + 扣 at a 算帐), ``pay`` per seat, ``zhang``,
        ``silan_by``; None while playing."""
        result: dict[str, Any] | None = self._g.result()
        return result

    def carry(self) -> dict[str, Any] | None:
        """What carries to the next hand: ``prev_winner``, ``prev_da_zhuang`` (None while playing)."""
        result: dict[str, Any] | None = self._g.carry()
        return result

    def ledger(self, seats: Sequence[str] | None = None) -> dict[str, Any]:
        """The settlement as a zero-sum ledger (``seats``, ``events``, ``balances``)."""
        result: dict[str, Any] = self._g.ledger(None if seats is None else _items(seats, "seats"))
        return result

    def copy(self) -> Game:
        return Game._wrap(self._g.copy(), self.rules)

    def __repr__(self) -> str:
        return repr(self._g).replace("DingniuGame", "Game")


def replay(events: Sequence[dict[str, Any]], *, variant: str = "dingniu", **switches: Any) -> Game:
    """Rebuild a hand from its event log, checking that every event is reproduced exactly;
    raises ``InvalidHandError`` at the first difference."""
    r = rules(variant, **switches)
    return Game._wrap(_core.dingniu_replay(r, _items(events, "events")), r)


def _table_results(sim: Any) -> list[dict[str, Any]]:
    """The per-hand records of a table simulation (``hupai.simulate(..., results=True)``)."""
    records = getattr(sim, "records", sim)
    out = _items(records, "records")
    for r in out:
        if not isinstance(r, Mapping) or "result" not in r:
            raise _core.RuleConfigError("summary: give hupai.simulate(variant, n, results=True) (or its records)")
    return out


def summary(sim: Any) -> dict[str, Any]:
    """顶牛 statistics of a table simulation, built from each round's result record: the one table
    engine plays the rounds (``hupai.simulate("dingniu", n, agents=…, results=True[, check=True])``),
    this tallies them — ``rounds``, ``decisions``, the ends ``played_out``, ``zhang_success``,
    ``baozhuang`` and ``silan`` (死拦红帐; the four sum to ``rounds``), ``zhang`` (the 帐 that ended
    a round, by kind), ``wins`` and ``net`` per seat, ``toupai_wins`` and, from the game's own counters in the record (``result["counts"]``), ``lays``,
    ``kous``, ``pair_openings``, ``zhang_formed`` (every 帐 formed, by kind), ``forced`` (死砸 帐 that
    did not count) and ``toupai_jingshou`` (帐 exempt as 头牌净手).

    >>> import hupai
    >>> st = summary(hupai.simulate("dingniu", 100, agents="random", seed=1, results=True))
    >>> st["rounds"], sum(st["net"])
    (100, 0)
    """
    st: dict[str, Any] = {"rounds": 0, "decisions": 0, "lays": 0, "kous": 0, "pair_openings": 0, "played_out": 0,
                          "zhang_success": 0, "baozhuang": 0, "silan": 0, "zhang": {}, "zhang_formed": {}, "forced": 0,
                          "toupai_jingshou": 0, "wins": [0] * 4, "net": [0] * 4, "toupai_wins": 0}
    for rec in _table_results(sim):
        st["rounds"] += 1
        st["decisions"] += rec.get("steps", rec.get("turns", 0))
        o = rec["result"]
        st["played_out"] += o["reason"] == "played_out"
        st["zhang_success"] += o.get("success") is True and o.get("silan_by") is None  # 死拦 counted apart
        st["baozhuang"] += bool(o.get("baozhuang"))
        st["silan"] += o.get("silan_by") is not None
        if o.get("zhang"):
            k = o["zhang"]["kind"]
            st["zhang"][k] = st["zhang"].get(k, 0) + 1
        st["wins"][o["winner"]] += 1
        st["toupai_wins"] += o.get("toupai") == o["winner"]
        c = o.get("counts", {})
        for k in ("lays", "kous", "pair_openings", "forced", "toupai_jingshou"):
            st[k] += c.get(k, 0)
        for k, x in c.get("zhang_formed", {}).items():
            st["zhang_formed"][k] = st["zhang_formed"].get(k, 0) + x
        for s in range(4):
            st["net"][s] += o["pay"][s]
    return st
