"""够级 (gouji): the six-player, four-deck Shandong climbing game (``shared/rules/gouji.md``).

Every rule is decided by the Rust core (``hupai-core``, module ``rules::gouji``); this module gives
it a Pythonic surface. Strings in, strings out.

Cards: one character each — ``3 4 5 6 7 8 9 T J Q K A 2``, ``w`` = 小花 (small joker), ``W`` = 大花
(big joker); ``10`` and the Chinese names (三 … 十, 钩 圈 凯 尖, 二, 小王/小花, 大王/大花) are accepted
too. Canonical order is descending::

    >>> from hupai import gouji
    >>> gouji.format_cards("9 9 W 2 W 9 2 9 2")
    'WW2229999'
    >>> p = gouji.Play("WW2229999")          # 2 大花 + 7 × 9 (贴钱: the 2s count as 9s)
    >>> (p.jokers, p.joker_level, p.base, p.base_count)
    (2, 'W', '9', 7)
    >>> gouji.beats("WW999", "ww888"), gouji.beats("WWw99", "ww888")   # mixed jokers count as 小花
    (True, False)
    >>> gouji.beats("WWw99", "ww888", mixed_jokers="per_card")
    True
    >>> gouji.is_gouji("22TTT"), gouji.is_gouji("2TTT")                  # 5 × T, 4 × T
    (True, False)
    >>> gouji.legal_plays("AAww555999", top="KK")
    ['AA', 'wA', 'ww']
    >>> gouji.burn_options("AAww555999", "KK", bie_san=False)           # 烧牌: the rest can go out
    ['AA']

Every function takes the variant as ``variant="gouji"`` plus switches as keyword arguments
(``bie_san=False``, ``mixed_jokers="per_card"`` …; see ``docs/gouji.md``), or a compiled
``rules=gouji.Rules(...)`` (faster for many calls). Invalid cards raise ``InvalidTileError``,
impossible plays or hands ``InvalidHandError``, unknown switches ``RuleConfigError`` — all
``hupai.HupaiError``.

A hand is played with :class:`Game` (the core's state machine)::

    >>> g = gouji.Game(seed=1)
    >>> g.phase, len(g.hands[0])
    ('show', 36)
    >>> while not g.is_over:
    ...     _ = g.step(g.bot_action("greedy"))
    >>> sum(g.outcome["scores"])
    0
    >>> gouji.replay(g.events).outcome == g.outcome
    True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from hupai import _core
from hupai._args import items as _items
from hupai._args import uint8_array
from hupai._core import GoujiGame as _Game
from hupai._core import GoujiPlay as Play
from hupai._core import GoujiRules as Rules

if TYPE_CHECKING:  # numpy is imported where it is used: `import hupai` stays quick
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ACTION_SPACE",
    "Game",
    "Match",
    "Play",
    "PLACES",
    "Rules",
    "answer_rights",
    "batch_can_burn",
    "batch_legal_count",
    "beats",
    "bie_san_ok",
    "burn_lead",
    "burn_options",
    "burn_priority",
    "buy_three",
    "can_burn",
    "compare",
    "decode_action",
    "dian_gong",
    "encode_action",
    "first_leader",
    "format_cards",
    "is_gouji",
    "kaidian_eligible",
    "legal_plays",
    "may_revolt",
    "parse_cards",
    "parse_play",
    "places",
    "ranks",
    "remainder_feasible",
    "replay",
    "score",
    "simulate",
    "summary",
    "tribute",
    "tribute_cards",
]

#: Names of the places, 头科 (first out) to 大落 (last).
PLACES = ("头科", "二科", "三科", "四科", "二落", "大落")
#: Number of flat action ids (see ``docs/gouji.md``, "Action space").
ACTION_SPACE: int = _core.gouji_action_space()

Cards = str | Sequence[str] | Play
SwitchArg = bool | int | str


@lru_cache(maxsize=64)
def _compiled(variant: str, switches: tuple[tuple[str, str, SwitchArg], ...]) -> Rules:
    return Rules(variant, **{k: v for k, _, v in switches})


def _rules(rules: Rules | None, variant: str, switches: Mapping[str, SwitchArg]) -> Rules:
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a preset id (str), got {type(variant).__name__}")
    if rules is not None:
        if switches or variant != "gouji":
            raise _core.RuleConfigError("give either rules=... or variant/switches, not both")
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a hupai.gouji.Rules, got {type(rules).__name__}")
        return rules
    try:
        # The type is part of the key: True == 1 must not share a cache entry.
        key = tuple(sorted((k, type(v).__name__, v) for k, v in switches.items()))
        hash(key)
    except TypeError as e:
        raise _core.RuleConfigError(f"switch values must be bool, int or str: {e}") from None
    return _compiled(variant, key)


# ------------------------------------------------------------------------------------- cards


def parse_cards(cards: Cards) -> list[str]:
    """Cards in canonical (descending) order, one string per card.

    >>> parse_cards("9 W 大王 10 2")
    ['W', 'W', '2', 'T', '9']
    """
    return _core.gouji_parse_cards(cards)


def format_cards(cards: Cards, *, chinese: bool = False) -> str:
    """The canonical compact string of cards, or their Chinese names.

    >>> format_cards(["9", "W", "2"]), format_cards("WW2229999", chinese=True)
    ('W29', '大王×2 二×3 九×4')
    """
    return _core.gouji_format_cards(cards, chinese=chinese)


def ranks() -> list[tuple[str, str, str]]:
    """The 15 ranks low to high as ``(char, Chinese, English)``.

    >>> ranks()[-1], len(ranks())
    (('W', '大王', 'big joker'), 15)
    """
    return _core.gouji_ranks()


def parse_play(cards: Cards) -> Play:
    """A normalised play (§4.2); cards of two base ranks are refused.

    >>> parse_play("Ww225555").base_count, parse_play("Ww").joker_level
    (6, 'w')
    """
    return Play(cards)


# ------------------------------------------------------------------------------------- plays


def beats(play: Cards, top: Cards, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg) -> bool:
    """Whether ``play`` beats ``top`` (顺牌/上牌, §4.3): same number of cards, every card higher.

    >>> beats("99999", "22888"), beats("22KK", "AAAA"), beats("w2", "22")
    (True, False, False)
    """
    return _core.gouji_beats(play, top, _rules(rules, variant, switches))


def compare(a: Cards, b: Cards, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg) -> int:
    """``1`` if ``a`` beats ``b``, ``-1`` if ``b`` beats ``a``, ``0`` if neither (a strict partial order).

    >>> compare("KK", "QQ"), compare("QQ", "KK"), compare("KK", "KKK")
    (1, -1, 0)
    """
    return _core.gouji_compare(a, b, _rules(rules, variant, switches))


def is_gouji(play: Cards, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg) -> bool:
    """Whether a play is a 够级牌 (§4.4): a joker, or T×5 J×4 Q×3 K×2 A×2 2×1 or more (2s count).

    >>> [is_gouji(x) for x in ("TTTTT", "QQ", "w9", "2")]
    [True, False, True, True]
    """
    return _core.gouji_is_gouji(play, _rules(rules, variant, switches))


def kaidian_eligible(play: Cards, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg) -> bool:
    """Whether a 够级牌 earns 开点 when it stands unanswered (§4.5: no joker, not a single 2).

    >>> kaidian_eligible("KK"), kaidian_eligible("wKK"), kaidian_eligible("2")
    (True, False, False)
    """
    return _core.gouji_kaidian_eligible(play, _rules(rules, variant, switches))


def bie_san_ok(hand: Cards, play: Cards, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg) -> bool:
    """The 憋3 rule (§4.6): 3s only alone and only when the hand holds nothing else.

    >>> bie_san_ok("3355", "33"), bie_san_ok("33", "33"), bie_san_ok("3355", "33", bie_san=False)
    (False, True, True)
    """
    return _core.gouji_bie_san_ok(hand, play, _rules(rules, variant, switches))


def legal_plays(
    hand: Cards, top: Cards | None = None, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg
) -> list[str]:
    """Every legal play of ``hand`` (distinct multisets): leads, or the plays beating ``top``.

    >>> legal_plays("5566", top="44")
    ['55', '66']
    >>> len(legal_plays("2w55"))   # leads: 5, 55, with any 2/joker added, and 2, w, w2
    11
    """
    return _core.gouji_legal_plays(hand, top, _rules(rules, variant, switches))


def burn_options(hand: Cards, top: Cards, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg) -> list[str]:
    """The plays that may burn (烧牌) the 够级牌 ``top`` (§6.1 conditions 4–5).

    >>> burn_options("AA555999", "KK", bie_san=False), burn_options("AA2999", "KK", bie_san=False)
    ([], ['AA'])
    """
    return _core.gouji_burn_options(hand, top, _rules(rules, variant, switches))


def can_burn(hand: Cards, top: Cards, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg) -> bool:
    """Whether ``hand`` can burn ``top``.

    >>> can_burn("AA2233", "KK"), can_burn("AA2233", "KK", bie_san=False)
    (False, True)
    """
    return bool(burn_options(hand, top, rules=rules, variant=variant, **switches))


def remainder_feasible(cards: Cards, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg) -> bool:
    """Whether cards can go out one lead at a time with a joker in every lead but the last.

    >>> remainder_feasible("ww555999"), remainder_feasible("555999")
    (True, False)
    """
    return _core.gouji_remainder_feasible(cards, _rules(rules, variant, switches))


def burn_lead(hand: Cards, lead: Cards) -> str:
    """A burner's lead (§6.3): ``'continue'`` (joker), ``'success'`` (empties the hand), ``'fail'``.

    >>> burn_lead("w555999", "w555"), burn_lead("w555999", "555"), burn_lead("2999", "2999")
    ('continue', 'fail', 'success')
    """
    return _core.gouji_burn_lead(hand, lead)


# ------------------------------------------------------------------------------------- table rules


def answer_rights(
    top_seat: int,
    play: Cards,
    active: Iterable[int] = range(6),
    passed: Iterable[int] = (),
    luanchan: bool = False,
    *,
    rules: Rules | None = None,
    variant: str = "gouji",
    **switches: SwitchArg,
) -> dict[str, Any]:
    """Who may answer or burn a play (§5.2–5.7): ``{'restricted', 'burners', 'answerers'}``.

    >>> answer_rights(0, "KK")
    {'restricted': True, 'burners': [1, 2, 4, 5], 'answerers': [3]}
    >>> answer_rights(2, "99", passed=[1, 4, 5])["answerers"]
    [3, 5, 0]
    """
    return _core.gouji_answer_rights(top_seat, play, _items(active, "active"), _items(passed, "passed"), luanchan, _rules(rules, variant, switches))


def burn_priority(gouji_seat: int, declarers: Iterable[int]) -> list[int]:
    """Declared burners in the order they may burn (§6.2: the 够级 player's 联邦 first).

    >>> burn_priority(0, [1, 4])
    [4, 1]
    """
    return _core.gouji_burn_priority(gouji_seat, _items(declarers, "declarers"))


def places(events: Iterable[tuple[str, int]], revolution: int | None = None) -> list[int]:
    """Seats from 头科 to 大落 (§7.1) from ``('out' | 'burn_fail', seat)`` events in time order.

    >>> places([("burn_fail", 4), ("out", 1), ("out", 0), ("out", 3), ("out", 5)])
    [1, 0, 3, 5, 2, 4]
    """
    return _core.gouji_places(_items(events, "events"), revolution)


def score(place_seats: Sequence[int], *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg) -> tuple[list[int], bool]:
    """Scores per seat (§7.2: each player gets his team's place points) and 串三户.

    >>> score([0, 3, 2, 1, 4, 5])
    ([2, -2, 2, -2, 2, -2], False)
    """
    s, c = _core.gouji_score(_items(place_seats, "place_seats"), _rules(rules, variant, switches))
    return list(s), c


def dian_gong(declared: tuple[bool, bool], opened: tuple[bool, bool]) -> tuple[int, int]:
    """点贡 cards between 对家 A and B (§8.4): ``(A → B, B → A)``.

    >>> dian_gong((True, True), (True, False))
    (0, 4)
    """
    return _core.gouji_dian_gong(declared, opened)


def tribute(
    place_seats: Sequence[int],
    kaidian: Sequence[bool],
    xuandian: Sequence[bool] = (False,) * 6,
    burns: Iterable[tuple[int, int]] = (),
    men: Iterable[tuple[int, int]] = (),
    *,
    first_hand: bool = False,
    revolution: int | None = None,
    rules: Rules | None = None,
    variant: str = "gouji",
    **switches: SwitchArg,
) -> list[dict[str, Any]]:
    """The tribute of the next hand (§8) in processing order (闷 > 烧 > 点 > 落).

    ``burns`` are ``(victim, burner)``, ``men`` ``(victim, beater)``.

    >>> tribute([0, 3, 2, 1, 4, 5], [True, True, True, True, False, False])[-1]
    {'type': '落贡', 'from': 5, 'to': 0, 'n': 2}
    """
    return _core.gouji_tribute(
        _items(place_seats, "place_seats"),
        _items(kaidian, "kaidian"),
        _items(xuandian, "xuandian"),
        _items(burns, "burns"),
        _items(men, "men"),
        first_hand,
        revolution,
        _rules(rules, variant, switches),
    )


def tribute_cards(hand: Cards, n: int) -> str:
    """The ``n`` highest cards of a hand (what a tribute gives).

    >>> tribute_cards("9TWJ2A8AKQW", 2)
    'WW'
    """
    return _core.gouji_tribute_cards(hand, n)


def buy_three(
    buyer: int, threes: Sequence[int], paycards: Cards, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg
) -> dict[str, Any]:
    """买三 / 要三 (§9.3) of a player without a 3; ``paycards`` are his 2s and jokers.

    >>> buy_three(0, [0, 1, 2, 2, 0, 3], "2")
    {'action': 'buy', 'from': 3, 'pay': '2'}
    """
    return _core.gouji_buy_three(buyer, _items(threes, "threes"), paycards, _rules(rules, variant, switches))


def first_leader(shows: Iterable[tuple[int, int]]) -> int | None:
    """上班 (§3.4): the seat showing the most same-suit 4s (ties: first shown); None if nobody.

    >>> first_leader([(2, 3), (4, 3), (1, 2)]), first_leader([])
    (2, None)
    """
    return _core.gouji_first_leader(_items(shows, "shows"))


def may_revolt(hand: Cards) -> bool:
    """革命 eligibility (§9.1): no 大花, no 小花, no 2.

    >>> may_revolt("AKQJ"), may_revolt("AKQ2J")
    (True, False)
    """
    return _core.gouji_may_revolt(hand)


def encode_action(action: str) -> int:
    """The flat action id of an action text (``docs/gouji.md``, "Action space").

    >>> encode_action("pass"), decode_action(encode_action("ww888"))
    (0, 'ww888')
    """
    return _core.gouji_encode_action(action)


def decode_action(action_id: int) -> str | None:
    """The action text of a flat id, or None."""
    return _core.gouji_decode_action(action_id)


def batch_legal_count(
    hands: npt.NDArray[np.uint8], top: Cards | None = None, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg
) -> npt.NDArray[np.uint32]:
    """Number of legal plays per row of an ``(N, 15)`` uint8 count array (ranks 3 … W).

    GIL released, rows in parallel.

    >>> import numpy as np
    >>> batch_legal_count(np.array([[0, 2, 2] + [0] * 12], np.uint8), "33")
    array([2], dtype=uint32)
    """
    return _core.gouji_batch_legal_count(uint8_array(hands, "hands"), top, _rules(rules, variant, switches))


def batch_can_burn(
    hands: npt.NDArray[np.uint8], top: Cards, *, rules: Rules | None = None, variant: str = "gouji", **switches: SwitchArg
) -> npt.NDArray[np.bool_]:
    """Whether each row of an ``(N, 15)`` uint8 count array can burn ``top``."""
    return _core.gouji_batch_can_burn(uint8_array(hands, "hands"), top, _rules(rules, variant, switches))


# ------------------------------------------------------------------------------------- the hand


class Game:
    """One hand of 够级: the core's state machine with a small Python surface.

    ``Game(seed=0, carry=None, variant="gouji", **switches)`` deals from ``seed``; ``carry`` is
    the previous hand's :attr:`next_carry` (tribute, session position). ``to_act`` is the seat
    to decide, :meth:`legal_actions` its options, :meth:`step` applies one (an illegal action
    raises ``InvalidHandError`` and changes nothing). Actions are strings: cards (``'AA'``),
    ``'pass'``, ``'yield'`` (让牌), ``'show'``/``'no_show'`` (上班), ``'revolt'``/``'no_revolt'``,
    ``'yaotou'``/``'wutou'``, ``'xuandian'``/``'no_xuandian'``, ``'return:<card>'`` (还贡).
    A burn is a play asked as ``ask == 'burn'``.

    >>> g = Game.from_position(["JJJJKKKK55", "66", "77", "QQQQ66", "88", "99"], leader=0)
    >>> g.step("JJJJ")[0]["type"], g.to_act, g.ask
    ('PLAY', 3, 'answer')
    """

    def __init__(
        self,
        seed: int = 0,
        carry: str | Mapping[str, Any] | None = None,
        *,
        rules: Rules | None = None,
        variant: str = "gouji",
        log: bool = True,
        **switches: SwitchArg,
    ) -> None:
        self.rules = _rules(rules, variant, switches)
        if carry is not None and not isinstance(carry, str):
            if not isinstance(carry, Mapping):
                raise TypeError(f"carry must be the next_carry dict (or its JSON), got {type(carry).__name__}")
            try:
                carry = json.dumps(dict(carry), ensure_ascii=False)
            except (ValueError, RecursionError) as e:  # a cycle or a NaN: not a carry record
                raise _core.InvalidHandError(f"invalid hand: carry: {e}") from None
        self._g = _Game(self.rules, seed, carry, log)

    @classmethod
    def _wrap(cls, g: _Game, rules: Rules | None = None) -> Game:
        self = cls.__new__(cls)
        self.rules = rules if rules is not None else Rules()
        self._g = g
        return self

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Cards],
        leader: int,
        out: Sequence[int] = (),
        revolution: int | None = None,
        yaotou: bool = True,
        *,
        rules: Rules | None = None,
        variant: str = "gouji",
        **switches: SwitchArg,
    ) -> Game:
        """A hand starting in the play phase from six given hands (for examples and what-ifs).

        Cards in no hand count as already played; ``out`` lists seats already out (in order),
        ``revolution`` a 革命 seat (``yaotou``: his 对头 chose 要头).
        """
        r = _rules(rules, variant, switches)
        g = _Game.from_position(_items(hands, "hands"), leader, _items(out, "out"), revolution, yaotou, r)
        return cls._wrap(g, r)

    @property
    def to_act(self) -> int | None:
        """The seat to decide, None when the hand is over."""
        return self._g.to_act

    @property
    def ask(self) -> str | None:
        """What the seat to act is asked (``'lead'``, ``'turn'``, ``'answer'``, ``'burn'`` …)."""
        return self._g.ask

    @property
    def phase(self) -> str:
        """``'tribute'``, ``'show'``, ``'revolt'``, ``'head'``, ``'xuandian'``, ``'play'``, ``'over'``."""
        return self._g.phase

    @property
    def is_over(self) -> bool:
        return self._g.is_over

    @property
    def seed(self) -> int:
        return self._g.seed

    @property
    def hands(self) -> list[str]:
        """Cards per seat (a failed burner keeps his dead cards)."""
        return self._g.hands

    @property
    def top(self) -> dict[str, Any] | None:
        """The play on top: ``{'seat', 'cards', 'restricted', 'dead'}``."""
        return self._g.top

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """Legal actions of ``seat`` (default: the seat to act; empty if it is not his turn)."""
        return self._g.legal_actions(seat)

    def legal_action_ids(self) -> list[int]:
        """Legal actions of the seat to act as flat action ids."""
        return self._g.legal_action_ids()

    def step(self, action: str | int | Play, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply the action of the seat to act; returns the events it produced."""
        return self._g.step(action, seat)

    def bot_action(self, bot: str = "greedy", seed: int = 0) -> str | None:
        """The action a built-in bot (``'random'`` / ``'greedy'``) would take now."""
        return self._g.bot_action(bot, seed)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: his cards, card counts, the table and public flags."""
        return self._g.observation(seat)

    @property
    def events(self) -> list[dict[str, Any]]:
        """The event log (JSON-ready; :func:`replay` rebuilds the hand from it)."""
        return self._g.events

    @property
    def outcome(self) -> dict[str, Any] | None:
        """Places (头科 … 大落), 革命, void, 开点, 宣点, burns, 闷, 串三户, scores; None while running."""
        return self._g.outcome

    @property
    def ledger(self) -> dict[str, Any] | None:
        """The zero-sum settlement: ``{'balances', 'events'}`` (ledger events), None while running."""
        return self._g.ledger

    @property
    def carry(self) -> dict[str, Any]:
        """The carry this hand started with."""
        out: dict[str, Any] = json.loads(self._g.carry)
        return out

    @property
    def next_carry(self) -> dict[str, Any] | None:
        """The carry for the next hand (tribute owed, session position), None while running."""
        c = self._g.next_carry
        return None if c is None else json.loads(c)

    def cards_conserved(self) -> bool:
        """Whether hands + table + 革命 discards hold exactly the 216 cards."""
        return self._g.cards_conserved()

    def __repr__(self) -> str:
        return f"gouji.Game(seed={self.seed}, phase={self.phase!r}, to_act={self.to_act})"


def replay(events: Sequence[Mapping[str, Any]] | str) -> Game:
    """Rebuild a hand from its event log (list of dicts or JSON text) and check it exactly.

    Raises ``InvalidHandError`` naming the first event that differs.
    """
    return Game._wrap(_core.gouji_replay(events))


Agent = Callable[[Game, int], str]


class Match:
    """Hands in a row with the carry (tribute) between them; agents are bot names or callables.

    An agent callable gets ``(game, seat)`` and returns an action string.

    >>> m = Match(["greedy"] * 6, seed=3)
    >>> outcomes = m.play(2)
    >>> len(outcomes), sum(m.totals)
    (2, 0)
    """

    def __init__(
        self,
        agents: Sequence[str | Agent],
        seed: int = 0,
        *,
        rules: Rules | None = None,
        variant: str = "gouji",
        **switches: SwitchArg,
    ) -> None:
        if len(agents) != 6:
            raise _core.RuleConfigError(f"a 够级 match needs six agents, got {len(agents)}")
        self.rules = _rules(rules, variant, switches)
        self.agents = _items(agents, "agents")
        self.seed = seed
        self.carry: dict[str, Any] | None = None
        self.totals = [0] * 6
        self.hands_played = 0
        self._deals = 0

    def play_hand(self) -> Game:
        """Deal and play one hand (a void hand is returned too; it is redealt next time)."""
        g = Game(self.seed * 1_000_003 + self._deals, self.carry, rules=self.rules)
        self._deals += 1
        k = 0
        while not g.is_over:
            k += 1
            seat = g.to_act
            assert seat is not None
            agent = self.agents[seat]
            action = g.bot_action(agent, (g.seed + k) % 2**63) if isinstance(agent, str) else agent(g, seat)
            if action is None:
                break
            g.step(action)
        out = g.outcome
        assert out is not None
        if not out["void"]:
            self.hands_played += 1
            self.totals = [a + b for a, b in zip(self.totals, out["scores"], strict=True)]
        self.carry = g.next_carry
        return g

    def play(self, n: int) -> list[dict[str, Any]]:
        """Play until ``n`` more hands are completed; returns their outcomes."""
        done: list[dict[str, Any]] = []
        while len(done) < n:
            g = self.play_hand()
            if g.outcome and not g.outcome["void"]:
                done.append(g.outcome)
        return done


def simulate(
    n_hands: int,
    *,
    seed: int = 0,
    bots: str | Sequence[str] = "random",
    check: bool = False,
    hands_per_match: int = 10,
    parallel: bool = True,
    rules: Rules | None = None,
    variant: str = "gouji",
    **switches: SwitchArg,
) -> dict[str, Any]:
    """Play ``n_hands`` hands with built-in bots (``random``, ``greedy``, ``defensive``: one name or
    six) through the one table engine — ``hupai.simulate(variant, n_hands, results=True,
    check=check, hands_per_match=hands_per_match)`` — and tally them with :func:`summary`. Matches
    of ``hands_per_match`` hands carry the tribute, dealer and scores; whole hands run in Rust with
    the GIL released, on every core when ``parallel`` (the totals are the same either way).
    ``check`` verifies after every step that all 216 cards are accounted for and only legal
    actions are taken, and at the end of every hand a complete finishing order, scores per §7,
    the tribute moving the right cards, the next hand's obligations and an exact replay of the log.

    A void hand (two 革命) ends the game at the table and is counted in ``voids``, so
    ``hands + voids == n_hands``.

    >>> st = simulate(20, seed=1, bots="greedy", check=True)
    >>> st["hands"] + st["voids"], sum(st["scores"])
    (20, 0)
    """
    import os

    from hupai._args import int_arg
    from hupai.game.simulate import simulate as table_simulate

    r = _rules(rules, variant, switches)
    if isinstance(bots, str):
        agents = [bots] * 6
    else:
        agents = _items(bots, "bots")
        if len(agents) != 6:
            raise _core.RuleConfigError(f"bots: six names, one per seat (got {len(agents)})")
    for a in agents:
        if a not in ("random", "greedy", "defensive"):
            raise _core.RuleConfigError(f"bots: unknown bot {a!r}; built-in bots: random, greedy, defensive")
    v = _core.Variant.load(variant).with_options(**r.switches)
    sim = table_simulate(v, int_arg("n_hands", n_hands, 0, 1 << 40), agents=agents,
                         seed=int_arg("seed", seed, 0, 2**63 - 1),
                         workers=(os.cpu_count() or 1) if parallel else 1, check=check, results=True,
                         hands_per_match=hands_per_match, progress=False)
    return summary(sim)


def _table_results(sim: Any) -> list[dict[str, Any]]:
    """The per-hand records of a table simulation (``hupai.simulate(..., results=True)``)."""
    records = getattr(sim, "records", sim)
    out = _items(records, "records")
    for r in out:
        if not isinstance(r, Mapping) or "result" not in r:
            raise _core.RuleConfigError("summary: give hupai.simulate(variant, n, results=True) (or its records)")
    return out


def summary(sim: Any) -> dict[str, Any]:
    """够级 statistics of a table simulation, built from each hand's result record: the one table
    engine plays the hands (``hupai.simulate("gouji", n, agents=…, results=True[, check=True])``),
    this tallies them — ``hands`` (played to the end), ``voids`` (two 革命), ``decisions``,
    ``scores`` and ``places[seat][place]`` per seat, ``burns``, ``burn_fails`` (failed burns),
    ``kaidian``, ``men``, ``revolutions``, ``chuan_san_hu``, ``tribute_cards`` (cards given as
    tribute before the hands; the last two are the game's own counters in the record).

    >>> import hupai
    >>> st = summary(hupai.simulate("gouji", 20, agents="random", seed=1, results=True))
    >>> st["hands"] + st["voids"], sum(st["scores"])
    (20, 0)
    """
    st: dict[str, Any] = {"hands": 0, "voids": 0, "decisions": 0, "scores": [0] * 6, "places": [[0] * 6 for _ in range(6)],
                          "burns": 0, "burn_fails": 0, "kaidian": 0, "men": 0, "revolutions": 0, "chuan_san_hu": 0,
                          "tribute_cards": 0}
    for rec in _table_results(sim):
        st["decisions"] += rec.get("steps", rec.get("turns", 0))
        o = rec["result"]
        if o["void"]:
            st["voids"] += 1
            continue
        st["hands"] += 1
        for s in range(6):
            st["scores"][s] += o["scores"][s]
        for place, seat in enumerate(o["places"]):
            st["places"][seat][place] += 1
        st["burns"] += len(o["burns"])
        st["kaidian"] += sum(bool(k) for k in o["kaidian"])
        st["men"] += len(o["men"])
        st["revolutions"] += o["revolution"] is not None
        st["chuan_san_hu"] += bool(o["chuan_san_hu"])
        st["burn_fails"] += o.get("burn_fails", 0)
        st["tribute_cards"] += o.get("tribute_cards", 0)
    return st
