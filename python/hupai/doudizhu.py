"""斗地主 (Dou Dizhu): card types, legal moves, the auction, a hand state machine, settlement, bots.

Two presets of one engine: ``"doudizhu_qq"`` (default; the QQ游戏 rules of the seed) and
``"doudizhu_contest"`` (棋牌争霸: marked card, 抢地主, 明牌, 底注). Every rule is decided by the Rust
core (``hupai-core``, module ``rules::doudizhu``); this module gives it a Pythonic surface. Spec:
``shared/rules/doudizhu.md``; decisions and the action encodings: ``docs/doudizhu.md``.

Cards are strings of rank codes ``3456789TJQKA2xX`` (``T`` = 10, ``x`` = 小王, ``X`` = 大王), in any
order; results use the canonical (ascending) order. A *reading* is ``(type, main rank, length)``::

    >>> from hupai import doudizhu as ddz
    >>> ddz.classify("44455579")
    ('plane_single', '5', 2)
    >>> ddz.readings("444555666777")
    [('trio_chain', '7', 4), ('plane_single', '6', 3), ('plane_single', '7', 3)]
    >>> ddz.legal_moves("2222xX", "3333")
    ['2222', 'xX']
    >>> ddz.beats("xX", "2222")
    True

Rules are compiled once: ``Rules(variant, profile=None, **switches)``; a profile reproduces a
peer's move set exactly (``rlcard``, ``douzero``, ``openspiel``, ``onestraw``, ``pagat``)::

    >>> rl = ddz.Rules(profile="rlcard")
    >>> ddz.readings("444555666777", rules=rl)
    [('trio_chain', '7', 4)]
    >>> ddz.action_id("3334", encoding="rlcard", rules=rl)
    41

A whole hand (deal from a seed, auction, play, settlement) with the built-in bots::

    >>> g = ddz.Game(seed=7)
    >>> while not g.is_over:
    ...     _ = g.step(g.bot_action("greedy"))
    >>> sum(g.result()["scores"]) + g.result()["house"]
    0
    >>> ddz.replay(g.events()).events() == g.events()
    True
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hupai import _core
from hupai._args import int_arg
from hupai._args import items as _items
from hupai._core import DoudizhuGame as _CoreGame
from hupai._core import DoudizhuRules as Rules

if TYPE_CHECKING:  # numpy is imported where it is used: `import hupai` stays quick
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Game",
    "Reading",
    "Rules",
    "action_cards",
    "action_id",
    "action_space",
    "auction",
    "batch_legal_count",
    "batch_legal_mask",
    "beats",
    "chinese",
    "classify",
    "counts_batch",
    "from_counts",
    "legal_moves",
    "legal_plays",
    "parse",
    "parse_action",
    "profiles",
    "readings",
    "replay",
    "settle",
    "simulate",
    "summary",
    "split",
    "to_counts",
    "variants",
]

Reading = tuple[str, str, int]
"""A reading: ``(type, main rank code, chain length)``, e.g. ``("plane_single", "7", 2)``."""

RulesLike = Rules | str | None
"""Compiled ``Rules``, a preset id, or ``None`` (``doudizhu_qq``)."""


@functools.lru_cache(maxsize=32)
def _rules_of_id(variant: str) -> Rules:
    return Rules(variant)


def parse(cards: str) -> str:
    """The canonical form of a card string.

    >>> parse("2xX3TT")
    '3TT2xX'
    """
    return _core.ddz_parse(cards)


def chinese(cards: str) -> str:
    """Chinese names of the cards.

    >>> chinese("3TxX")
    '3 10 小王 大王'
    """
    return _core.ddz_chinese(cards)


def to_counts(cards: str) -> npt.NDArray[np.uint8]:
    """Counts per rank (``3 … A, 2, x, X``) as a ``(15,)`` uint8 array."""
    return _core.ddz_to_counts(cards)


def from_counts(counts: Sequence[int] | npt.NDArray[np.integer[Any]]) -> str:
    """The card string of 15 rank counts.

    >>> from_counts([3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1])
    '333444xX'
    """
    tolist = getattr(counts, "tolist", None)  # a numpy array
    row: Sequence[int] = tolist() if callable(tolist) else counts  # type: ignore[assignment]
    return _core.ddz_from_counts(row)


def readings(cards: str, *, rules: RulesLike = None) -> list[Reading]:
    """Every reading of the cards (canonical order); empty when they are not a move."""
    return _core.ddz_readings(cards, rules=rules)


def classify(cards: str, *, rules: RulesLike = None) -> Reading | None:
    """The canonical reading (§6.8: rocket > bomb > trio chain > the highest main rank), or None.

    >>> classify("3334445556667778")
    ('plane_single', '7', 4)
    >>> classify("333xX") is None
    True
    """
    return _core.ddz_classify(cards, rules=rules)


def beats(a: str, b: str, *, b_reading: Reading | None = None, rules: RulesLike = None) -> bool:
    """Whether some reading of ``a`` beats ``b`` played as ``b_reading`` (default: canonical).

    >>> beats("444555666777", "333444555666", b_reading=("plane_single", "6", 3))
    True
    """
    return _core.ddz_beats(a, b, b_reading=b_reading, rules=rules)


legal_moves = _core.ddz_legal_moves
"""``legal_moves(hand, last=None, /, *, last_reading=None, rules=None) -> list[str]``: the distinct
legal plays of ``hand`` — every lead when ``last`` is None, else every play that beats ``last`` (read
as ``last_reading``, default canonical). Pass is not listed: it is legal exactly when ``last`` is given.
The Rust function itself (no Python frame: this is the hot call)."""


def legal_plays(
    hand: str, last: str | None = None, *, last_reading: Reading | None = None, rules: RulesLike = None
) -> list[tuple[str, Reading]]:
    """Like :func:`legal_moves`, with the reading each play is made as."""
    return _core.ddz_legal_plays(hand, last, last_reading=last_reading, rules=rules)


def split(hand: str, *, rules: RulesLike = None) -> list[tuple[str, Reading]]:
    """The greedy bot's split of a hand into few moves (bombs and the rocket kept apart).

    >>> split("33344456789TJQQ")
    [('6789TJQ', ('chain', 'Q', 7)), ('3334445Q', ('plane_single', '4', 2))]
    """
    return _core.ddz_split(hand, rules=rules)


def auction(actions: Sequence[str], *, first: int = 0, rules: RulesLike = None) -> dict[str, Any]:
    """Run an auction from seat ``first`` (actions ``pass``, ``1``–``3``, ``call``, ``rob``).

    >>> auction(["1", "2", "pass", "rob", "rob"], rules=Rules("doudizhu_contest"))["landlord"]
    1
    """
    return _core.ddz_auction(_items(actions, "actions"), first=first, rules=rules)


def settle(record: Mapping[str, Any] | None = None, *, rules: RulesLike = None, **fields: Any) -> dict[str, Any]:
    """Settle a finished deal (§8–§9): keys ``bid``, ``landlord_won``, ``bombs``, ``rockets``,
    ``landlord_hands``, ``farmer_hands`` ([下家, 上家]), ``robs``, ``shown``. Scores are per role.

    >>> settle(bid=2, landlord_won=True, bombs=1, landlord_hands=4, farmer_hands=[0, 0])["scores"]
    {'farmer_down': -8, 'farmer_up': -8, 'landlord': 16}
    """
    if record is not None and not isinstance(record, Mapping):
        raise TypeError(f"record must be a dict, got {type(record).__name__}")
    rec = dict(record or {})
    rec.update(fields)
    return _core.ddz_settle(rec, rules=rules)


def parse_action(text: str | Mapping[str, Any], phase: str = "play") -> dict[str, Any]:
    """An action dict from a short text: ``pass``, ``bid 2`` (or ``2`` in the auction), ``call``,
    ``rob``, ``show``, ``no_show``, cards (``33344456``), cards with a declared reading
    (``444555666777 as plane_single 7 3``). A dict is returned unchanged.

    >>> parse_action("2", "auction")
    {'type': 'bid', 'bid': 2}
    >>> parse_action("444555666777 as plane_single 7 3")
    {'type': 'play', 'cards': '444555666777', 'reading': ['plane_single', '7', 3]}
    """
    if not isinstance(phase, str):
        raise TypeError(f"phase must be a str, got {type(phase).__name__}")
    if isinstance(text, Mapping):
        return dict(text)
    if not isinstance(text, str):
        raise TypeError(f"an action is a str or a dict, got {type(text).__name__}")
    t = text.strip()
    words = t.split()
    if not words:
        raise _core.InvalidHandError("an empty action: write pass, bid 2, rob, show, or the cards")
    head = words[0].lower()
    if head in ("pass", "call", "rob", "show", "no_show") and len(words) == 1:
        return {"type": head}
    if head == "bid" and len(words) == 2 and words[1].isdigit():
        return {"type": "bid", "bid": int(words[1])}
    if phase == "auction" and len(words) == 1 and words[0].isdigit():
        return {"type": "bid", "bid": int(words[0])}
    if len(words) == 5 and words[1] == "as" and words[4].isdigit():
        return {"type": "play", "cards": words[0], "reading": [words[2], words[3], int(words[4])]}
    if len(words) == 1:
        return {"type": "play", "cards": words[0]}
    raise _core.InvalidHandError(
        f"cannot read the action {text!r}: write pass, bid 2, call, rob, show, no_show, "
        "the cards (33344456) or the cards with a reading (444555666777 as plane_single 7 3)"
    )


class Game:
    """One 斗地主 hand: the deal (from ``seed``), the auction with redeals, 明牌, play, settlement
    and 逃跑. Seats 0, 1, 2 in play order. Actions and events are dicts (JSON-ready); ``step``
    also takes the short texts of :func:`parse_action`.

    >>> g = Game(seed=1)
    >>> g.phase, g.to_act
    ('auction', 0)
    >>> [a["type"] for a in g.legal_actions()]
    ['pass', 'bid', 'bid', 'bid']
    >>> _ = g.step("3")
    >>> g.phase, g.landlord, g.to_act, len(g.hand(0))
    ('play', 0, 0, 20)
    """

    __slots__ = ("_g",)

    def __init__(
        self,
        variant: str = "doudizhu_qq",
        *,
        seed: int = 0,
        first_bidder: int = 0,
        last_winner: int | None = None,
        profile: str | None = None,
        rules: Rules | None = None,
        **switches: Any,
    ) -> None:
        if profile is not None and not isinstance(profile, str):
            raise TypeError(f"profile must be a str, got {type(profile).__name__}")
        if rules is None:
            rules = Rules(variant, profile=profile, **switches) if (switches or profile) else _rules_of_id(variant)
        elif switches or profile:
            raise _core.RuleConfigError("give either rules= or a variant with switches, not both")
        self._g = _CoreGame(rules=rules, seed=seed, first_bidder=first_bidder, last_winner=last_winner)

    @classmethod
    def _wrap(cls, core: _CoreGame) -> Game:
        g = cls.__new__(cls)
        g._g = core
        return g

    @property
    def to_act(self) -> int | None:
        """The seat to act, None when the hand is over."""
        return self._g.to_act

    @property
    def phase(self) -> str:
        """``auction``, ``show`` (the landlord decides on 明牌), ``play`` or ``over``."""
        return self._g.phase

    @property
    def landlord(self) -> int | None:
        return self._g.landlord

    @property
    def bid(self) -> int:
        """底分 (0 before there is a landlord)."""
        return self._g.bid

    @property
    def multiplier(self) -> int:
        """The current 倍数."""
        return self._g.multiplier

    @property
    def is_over(self) -> bool:
        return self._g.is_over

    @property
    def rules(self) -> Rules:
        return self._g.rules

    def hand(self, seat: int) -> str:
        """A seat's cards (compact form)."""
        return self._g.hand(seat)

    def hand_cards(self, seat: int) -> list[str]:
        """A seat's cards with suits (``3s``, ``Th``, ``x``)."""
        return self._g.hand_cards(seat)

    def legal_actions(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The legal actions of ``seat`` (default: the seat to act)."""
        return self._g.legal_actions(seat)

    def step(self, action: str | Mapping[str, Any]) -> list[dict[str, Any]]:
        """Apply the action of the seat to act; returns the new events. An illegal action raises
        ``InvalidHandError`` and leaves the hand unchanged."""
        return self._g.step(parse_action(action, self._g.phase))

    def escape(self, seat: int) -> dict[str, Any]:
        """逃跑: ``seat`` leaves the hand and pays the penalty (§9.4); returns the settlement."""
        return self._g.escape(seat)

    def bot_action(self, bot: str = "greedy", seed: int = 0) -> dict[str, Any] | None:
        """The action a built-in bot (``random`` or ``greedy``) takes now."""
        return self._g.bot_action(bot, seed)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its hand, card counts, the public record, the current trick."""
        return self._g.observation(seat)

    def events(self) -> list[dict[str, Any]]:
        """The event log (enough to replay the hand: :func:`replay`)."""
        return self._g.events()

    def result(self) -> dict[str, Any] | None:
        """The settlement once the hand is over: ``scores`` per seat, ``house``, multiplier …"""
        return self._g.result()

    def next_carry(self) -> dict[str, Any]:
        """What the next hand needs (``first_bidder``, ``last_winner``)."""
        return self._g.next_carry()

    def copy(self) -> Game:
        return Game._wrap(self._g.copy())

    def __repr__(self) -> str:
        return f"Game({self.rules.id!r}, phase={self.phase!r}, to_act={self.to_act!r})"


def replay(events: Sequence[Mapping[str, Any]], *, rules: RulesLike = None) -> Game:
    """Rebuild a hand from its event log and check that the rules give exactly that log."""
    return Game._wrap(_core.ddz_replay(_items(events, "events"), rules=rules))


def _variant_of(rules: RulesLike) -> Any:
    """The table variant playing ``rules``: the preset with every switch value (a rule profile is
    a set of switch values, so it travels as options too)."""
    r = rules if isinstance(rules, Rules) else _rules_of_id(rules or "doudizhu_qq")
    return _core.Variant.load(r.id).with_options(**r.switches)


def simulate(
    hands: int,
    *,
    seed: int = 0,
    bots: Sequence[str] = ("random", "random", "random"),
    check: bool = False,
    threads: int | None = None,
    rules: RulesLike = None,
) -> dict[str, Any]:
    """Play ``hands`` hands with built-in bots (one per seat: ``random``, ``greedy``, ``defensive``)
    through the one table engine — ``hupai.simulate(variant, hands, results=True, check=check)``
    with the variant of ``rules`` — and tally them with :func:`summary` (adding ``seconds``, the
    wall time). Whole hands run in Rust, the GIL released, on ``threads`` threads (default: every
    core; the totals do not depend on it). With ``check`` every step is verified (54 cards
    accounted for, only legal moves, zero-sum settlement, multiplier = product of the recorded
    doublings, replay identical). Hand ``i`` is game ``i`` of that table run (seed
    ``hupai.game_seed(seed, i)``, first bidder ``i % 3``); to see one hand's log run
    ``hupai.simulate(..., keep_logs=True)`` and rebuild it with ``hupai.replay``.

    >>> st = simulate(200, seed=1, check=True)
    >>> st["hands"], sum(st["scores"])
    (200, 0)
    """
    import time

    from hupai.game.simulate import simulate as table_simulate

    agents = _items(bots, "bots")
    if len(agents) != 3:
        raise _core.RuleConfigError(f"bots: one bot name per seat (3), got {len(agents)}")
    workers = (os.cpu_count() or 1) if threads is None else int_arg("threads", threads, 1, 1024)
    t0 = time.perf_counter()
    sim = table_simulate(_variant_of(rules), hands, agents=agents, seed=int_arg("seed", seed, 0, 2**63 - 1),
                         workers=workers, check=check, results=True, progress=False)
    st = summary(sim)
    st["seconds"] = time.perf_counter() - t0
    return st


def action_space(*, encoding: str = "hupai", rules: RulesLike = None) -> list[str | None]:
    """Every move of a flat action encoding in id order (None = pass). ``hupai``: pass = 0, then
    the moves by (type, length, main rank, cards); ``rlcard``: rlcard 1.2.0's ids (rlcard profile)."""
    return _core.ddz_action_space(encoding=encoding, rules=rules)


def action_id(cards: str, *, encoding: str = "hupai", rules: RulesLike = None) -> int:
    """The id of a move (``"pass"`` for pass) in an encoding."""
    return _core.ddz_action_id(cards, encoding=encoding, rules=rules)


def action_cards(action: int, *, encoding: str = "hupai", rules: RulesLike = None) -> str | None:
    """The move of an action id (None = pass)."""
    return _core.ddz_action_cards(action, encoding=encoding, rules=rules)


def batch_legal_count(
    hands: npt.NDArray[np.uint8], lasts: npt.NDArray[np.uint8] | None = None, *, rules: RulesLike = None
) -> npt.NDArray[np.uint32]:
    """Legal plays per state (pass excluded). ``hands``, ``lasts``: ``(N, 15)`` uint8 counts; a
    zero ``lasts`` row (or ``lasts=None``) is a lead. Rows run in parallel, GIL released."""
    return _core.ddz_batch_legal_count(hands, lasts, rules=rules)


def batch_legal_mask(
    hands: npt.NDArray[np.uint8],
    lasts: npt.NDArray[np.uint8] | None = None,
    *,
    encoding: str = "hupai",
    rules: RulesLike = None,
) -> npt.NDArray[np.bool_]:
    """Legal-action masks ``(N, A)`` over an encoding's ids (pass set when answering)."""
    return _core.ddz_batch_legal_mask(hands, lasts, encoding=encoding, rules=rules)


def variants() -> list[dict[str, Any]]:
    """The 斗地主 presets with their switches and rule profiles."""
    return _core.ddz_variants()


def profiles(variant: str = "doudizhu_qq") -> list[str]:
    """Names of a preset's rule profiles."""
    return _core.ddz_profiles(variant)


def counts_batch(hands: Iterable[str]) -> npt.NDArray[np.uint8]:
    """``(N, 15)`` uint8 counts of card strings (input of the batch functions)."""
    import numpy as np

    rows = [to_counts(h) for h in hands]
    return np.stack(rows) if rows else np.zeros((0, 15), np.uint8)


def _table_results(sim: Any) -> list[dict[str, Any]]:
    """The per-hand records of a table simulation (``hupai.simulate(..., results=True)``)."""
    records = getattr(sim, "records", sim)
    out = _items(records, "records")
    for r in out:
        if not isinstance(r, Mapping) or "result" not in r:
            raise _core.RuleConfigError("summary: give hupai.simulate(variant, n, results=True) (or its records)")
    return out


def summary(sim: Any) -> dict[str, Any]:
    """斗地主 statistics of a table simulation, built from each hand's result record: the one table
    engine plays the hands (``hupai.simulate("doudizhu_qq", n, agents=…, results=True[, check=True])``),
    this tallies them — ``hands``, ``landlord_wins``, ``farmer_wins``, ``no_game`` (流局),
    ``escapes``, ``decisions``, ``redeals`` (all-pass redeals), ``plays`` and ``passes`` (play
    phase; the game's own counters in the record), ``bombs``, ``rockets``, ``springs``, ``anti_springs``,
    ``max_multiplier``, ``scores`` per seat and ``landlord_points``.

    >>> import hupai
    >>> st = summary(hupai.simulate("doudizhu_qq", 50, agents="random", seed=1, results=True))
    >>> st["hands"], sum(st["scores"])
    (50, 0)
    """
    st: dict[str, Any] = {"hands": 0, "landlord_wins": 0, "farmer_wins": 0, "no_game": 0, "escapes": 0, "decisions": 0,
                          "redeals": 0, "plays": 0, "passes": 0, "bombs": 0, "rockets": 0, "springs": 0, "anti_springs": 0, "max_multiplier": 0,
                          "scores": [0, 0, 0], "landlord_points": 0}
    for rec in _table_results(sim):
        st["hands"] += 1
        st["decisions"] += rec.get("steps", rec.get("turns", 0))
        o = rec["result"]
        kind = o["result"]
        st["landlord_wins"] += kind == "landlord_won"
        st["farmer_wins"] += kind == "farmers_won"
        st["no_game"] += kind == "no_game"
        st["escapes"] += o.get("escaped") is not None
        st["springs"] += o.get("spring") == "spring"
        st["anti_springs"] += o.get("spring") == "anti_spring"
        st["max_multiplier"] = max(st["max_multiplier"], o.get("multiplier") or 0)
        for k in ("redeals", "plays", "passes"):
            st[k] += o.get(k, 0)
        fans = rec.get("fans", [])
        st["bombs"] += fans.count("BOMB")
        st["rockets"] += fans.count("ROCKET")
        for s in range(3):
            st["scores"][s] += o["scores"][s]
        if o.get("landlord") is not None:
            st["landlord_points"] += o["scores"][o["landlord"]]
    return st
