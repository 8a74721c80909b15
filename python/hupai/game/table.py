"""``Table``: one hand (局) of 4-player mahjong as a state machine (sichuan, mcr, hebei, huanle3d,
shaanxi, hebei_draft4, shanghai; wuhan through its subclass in ``hupai.game.rules_wuhan``).

The table only keeps state and runs the flow; every rule decision comes from the Rust core in one
coarse call per decision point: ``flow_turn`` (the mover's win with its score, kongs, legal
discards, optional discard analysis), ``flow_claims`` (every seat's responses to a discard or an
added kong at once: win with its score, kong, pung, chows, with 定缺 and 过水不胡 applied) and
``flow_draw_end`` (查花猪 / 查大叫). Payments go through the shared ``hupai.Settlement`` ledger.

Wall algorithm (deterministic): the tiles in index order (four of each kind; MCR adds the eight
flowers once each) are shuffled by ``random.Random(seed).shuffle``. Players draw from the front;
kong and flower replacements come from the back. Dealer gets 14 tiles, the others 13, dealt
round-robin from the dealer (13 each, then the dealer's 14th).

Claim resolution: after a discard every seat with a response is asked in seat order from the
discarder's right; once all have answered, wins take priority (一炮多响 when the preset's
``rules.multi_ron``, otherwise 截胡: the nearest winner), then kong/pung, then chow. A seat that
passes a win is locked from discard wins until its next draw (过水不胡, ``params.pass_win_lock``).

Regional presets (``REGIONAL``): the core decides every win with the preset's own scorer; kongs
and wins are kept as a hand record and settled at the end of the hand by the preset's settlement
(``hupai.settle_hand`` of one hand record), whose events are booked one by one
in the table's ledger. A preset's 荒庄 reserve (``exhaustion_reserve_stacks``) stays undrawn.

Per-preset details (rules decided by the core; see ``docs/presets.md``): 河北 报听 (``declare_ting``,
the locked hand, ``flow_ready_discards``) and 托管 (``set_auto_play``); 陕西 下炮子 (pre-phase
``declare_pao_zi``), 漏胡 on the declined tile only, 逃跑 (``escape``); 第4稿 上楼 floor and 跟庄; 上海
开宝 dice and pending 开宝/黄番. What a hand carries into the next (floor, pending counters, 炮子
defaults) is ``Table(carry=...)`` in and ``result["carry"]`` out; ``Match`` asks the core
(``flow_next_hand``) for the next dealer and carry.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any

from hupai._core import (
    Settlement,
    Variant,
    flow_check,
    flow_claims,
    flow_draw_end,
    flow_gen_zhuang,
    flow_kai_bao,
    flow_pass_lock,
    flow_ready_discards,
    flow_turn,
)
from hupai.errors import RuleConfigError
from hupai.game.actions import (
    ADDED_KONG,
    AUTO_PLAY,
    CHOW,
    CONCEALED_KONG,
    DECLARE_PAO_ZI,
    DECLARE_TING,
    DECLARE_READY,
    DECLARE_VOID,
    ESCAPE,
    DISCARD,
    EXCHANGE,
    KONG,
    PASS,
    PUNG,
    WIN,
    Action,
    IllegalActionError,
    tile_name,
)

__all__ = [
    "Table",
    "Observation",
    "PrePhase",
    "TableHooks",
    "register_pre_phase",
    "register_hooks",
    "register_table_type",
    "build_wall",
    "arrange_wall",
    "tile_set",
    "players_of",
]

N = 4
WINDS = (27, 28, 29, 30)
SEAT_NAMES = ("E", "S", "W", "N")


_RULES: dict[Variant, dict[str, Any]] = {}
_DISCARDS = [[Action.of(DISCARD, s, t) for t in range(34)] for s in range(N)]


def _rules_of(v: Variant) -> dict[str, Any]:
    r = _RULES.get(v)
    if r is None:
        r = _RULES[v] = v.describe()["rules"]
    return r


_PARAMS: dict[Variant, dict[str, Any]] = {}


def _params_of(v: Variant) -> dict[str, Any]:
    r = _PARAMS.get(v)
    if r is None:
        r = _PARAMS[v] = dict(v.describe().get("params") or {})
    return r


#: Regional presets: wins scored by the core per decision, the hand settled at its end by the
#: preset's own settlement (kongs and wins recorded as a hand record).
REGIONAL = ("hebei", "huanle3d", "shaanxi", "hebei_draft4", "shanghai", "wuhan")
#: Presets whose flow lives in a ``Table`` subclass (``register_table_type``; e.g. wuhan in
#: ``hupai.game.rules_wuhan``): ``Table(variant, ...)`` builds that subclass.
_TABLE_TYPES: dict[str, type[Table]] = {}


def register_table_type(preset: str, cls: type[Table]) -> None:
    """Make ``Table(<preset>, ...)`` build ``cls`` (a ``Table`` subclass with the preset's flow hooks)."""
    _TABLE_TYPES[preset] = cls


def players_of(v: Variant) -> int:
    """Seats at the table: the ``players`` switch where the preset has one (四川 must be 4;
    卡五星 3, or 4 seated with one resting each hand), else the preset's ``players``."""
    n = _PLAYERS.get(v)
    if n is None:
        opt = v.options.get("players")
        n = opt if isinstance(opt, int) and not isinstance(opt, bool) else int(v.describe().get("players") or 4)
        _PLAYERS[v] = n
    return n


_PLAYERS: dict[Variant, int] = {}


def _variant(variant: Variant | str, options: Mapping[str, Any] | None = None) -> Variant:
    if isinstance(variant, Variant):
        return variant.with_options(**options) if options else variant
    return Variant(variant, **(options or {}))


def tile_set(variant: Variant | str, options: Mapping[str, Any] | None = None) -> list[int]:
    """Every physical tile of the variant's set in index order, as the core defines it
    (``Variant.tile_set``: the effective ``tile_set`` switch; 卡五星 the two suits of ``suits`` +
    中发白, 84 tiles; 二人麻将 the full 136, of which 71 are drawn into play; flowers 34..41)."""
    return _variant(variant, options).tile_set()


def build_wall(variant: Variant | str, seed: int, options: Mapping[str, Any] | None = None) -> list[int]:
    """The shuffled wall of a hand (see the module docstring)."""
    tiles = tile_set(variant, options)
    random.Random(seed).shuffle(tiles)
    return tiles


def _carry(v: Variant, carry: Mapping[str, Any] | None, n: int) -> dict[str, Any]:
    """What the previous hand carries into this one (``Match`` passes it): the 上楼 ``floor``
    (河北第4稿), the pending ``kai_bao`` / ``huang_fan`` (上海) and each seat's last ``pao_zi``
    (陕西 下炮子 defaults). Checked here; unknown keys or bad values raise RuleConfigError."""
    out: dict[str, Any] = {"floor": 0, "kai_bao": 0, "huang_fan": 0, "pao_zi": [0] * n}
    if carry is None:
        return out
    if not isinstance(carry, Mapping):
        raise RuleConfigError(f"carry must be a mapping, got {carry!r}")
    params = _params_of(v)
    for k, val in carry.items():
        if k == "pao_zi":
            hi = int(params.get("pao_zi_max", 0))
            if (
                not isinstance(val, (list, tuple))
                or len(val) != n
                or any(not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= hi for x in val)
            ):
                raise RuleConfigError(f"carry pao_zi: {n} ints 0..{hi}, got {val!r}")
            out[k] = list(val)
        elif k in ("floor", "kai_bao", "huang_fan"):
            hi = int(params.get("max_floor", 0)) if k == "floor" else 20
            if not isinstance(val, int) or isinstance(val, bool) or not 0 <= val <= hi:
                raise RuleConfigError(f"carry {k}: an int 0..{hi} for {v.id}, got {val!r}")
            out[k] = val
        else:
            raise RuleConfigError(f"unknown carry key {k!r} (floor, kai_bao, huang_fan, pao_zi)")
    return out


def arrange_wall(
    variant: Variant | str, hands: Sequence[str], draws: str = "", dealer: int = 0, options: Mapping[str, Any] | None = None
) -> list[int]:
    """A wall that deals ``hands[k]`` (notation; 13 tiles, the dealer 14) to seat ``k`` (one hand
    per seat of the preset) and then yields ``draws`` from the front; the other tiles follow in
    index order (scenarios, tests)."""
    from hupai._core import parse_tiles

    v = _variant(variant, options)
    full = v.tile_set()
    pool = [0] * 42
    for t in full:
        pool[t] += 1
    n = players_of(v)
    hs = [[t.index for t in parse_tiles(h)] if h else [] for h in hands]
    if len(hs) != n or any(len(hs[k]) != (14 if k == dealer else 13) for k in range(n)):
        raise RuleConfigError(f"arrange_wall: {n} hands, 13 tiles each and 14 for the dealer")
    order: list[int] = []
    for r in range(13):
        for k in range(n):
            order.append(hs[(dealer + k) % n][r])
    order.append(hs[dealer][13])
    order += [t.index for t in parse_tiles(draws)] if draws else []
    for t in order:
        pool[t] -= 1
        if pool[t] < 0:
            raise RuleConfigError(f"arrange_wall: too many {tile_name(t)}")
    order += [t for t in range(42) for _ in range(pool[t])]
    return order


class PrePhase:
    """A pre-play phase hook (换三张, 定缺, 下炮子/漂/买码 declarations …): every seat acts once,
    in seat order from the dealer; ``finish`` runs when all have acted. ``changes_hands``: the
    phase may change the tiles held (then the dealer's first turn offers no win)."""

    name = "pre"
    changes_hands = True

    def legal_actions(self, table: Table, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, table: Table, action: Action) -> None:
        raise NotImplementedError

    def finish(self, table: Table) -> None:
        pass

    def held_tiles(self) -> int:
        """Tiles the phase holds in transit (for the tile-accounting invariant)."""
        return 0

    def seat_done(self, seat: int) -> bool:
        """Whether ``seat`` has finished acting in this phase (phases with several actions per
        seat, such as 二人麻将 开始时换牌, return ``False`` until the seat's closing action)."""
        return True


class HuanSanZhang(PrePhase):
    """换三张: each seat picks three tiles of one suit; they are passed in one direction drawn from
    the table's RNG (``random``: left/across/right uniformly; ``dice``: two dice, 3/6/9/12 left,
    2/5/8/11 across, 4/7/10 right)."""

    name = "huan_san_zhang"

    def __init__(self, direction: str) -> None:
        self.direction = direction
        self.picked: dict[int, tuple[int, ...]] = {}

    def legal_actions(self, table: Table, seat: int) -> list[Action]:
        c = table.hands[seat]
        out: set[tuple[int, ...]] = set()
        for s in range(3):
            tiles = [k for k in range(9 * s, 9 * s + 9) for _ in range(c[k])]
            if len(tiles) >= 3:
                out.update(combinations(tiles, 3))
        return [Action(EXCHANGE, seat, -1, t) for t in sorted(out)]

    def apply(self, table: Table, action: Action) -> None:
        for t in action.tiles:
            table.hands[action.seat][t] -= 1
        self.picked[action.seat] = action.tiles

    def held_tiles(self) -> int:
        return sum(len(t) for t in self.picked.values())

    def finish(self, table: Table) -> None:
        if self.direction == "dice":
            d = table.rng.randint(1, 6) + table.rng.randint(1, 6)
            shift = 1 if d in (3, 6, 9, 12) else 2 if d in (2, 5, 8, 11) else 3
        else:
            shift = table.rng.choice((1, 2, 3))
        for seat, tiles in self.picked.items():
            to = (seat + shift) % table.n
            for t in tiles:
                table.hands[to][t] += 1
        self.picked = {}
        table._event({"type": "exchange_done", "shift": shift})


class DingQue(PrePhase):
    """定缺: each seat declares a void suit (public)."""

    name = "ding_que"

    def legal_actions(self, table: Table, seat: int) -> list[Action]:
        return [Action(DECLARE_VOID, seat, s) for s in range(3)]

    def apply(self, table: Table, action: Action) -> None:
        table.void[action.seat] = action.tile


_PRE_PHASES: dict[str, list[Callable[[Variant], PrePhase | None]]] = {}


def register_pre_phase(preset: str, factory: Callable[[Variant], PrePhase | None]) -> None:
    """Plug a pre-play phase into every table of ``preset`` (``factory`` returns ``None`` when the
    variant's switches leave the phase off)."""
    _PRE_PHASES.setdefault(preset, []).append(factory)


register_pre_phase(
    "sichuan",
    lambda v: HuanSanZhang(str(v.options["huan_san_zhang_direction"])) if v.options["huan_san_zhang"] else None,
)
register_pre_phase("sichuan", lambda v: DingQue() if v.options["ding_que"] else None)


class DeclarePaoZi(PrePhase):
    """下炮子 (陕西, switch ``pao_zi = free``): before the dealer's first discard each seat declares
    0..``pao_zi_max`` 炮子 (public); the first legal action is the seat's default, its choice of
    the previous hand (``carry["pao_zi"]``, 0 in a first hand)."""

    name = "pao_zi"
    changes_hands = False

    def __init__(self, most: int) -> None:
        self.most = most

    def legal_actions(self, table: Table, seat: int) -> list[Action]:
        d = table.carry["pao_zi"][seat]
        return [Action.of(DECLARE_PAO_ZI, seat, p) for p in [d] + [p for p in range(self.most + 1) if p != d]]

    def apply(self, table: Table, action: Action) -> None:
        assert table.pao_zi is not None
        table.pao_zi[action.seat] = action.tile
        table._event({"type": "pao_zi", "seat": action.seat, "pao_zi": action.tile})


register_pre_phase(
    "shaanxi",
    lambda v: DeclarePaoZi(int(_params_of(v)["pao_zi_max"])) if v.options["pao_zi"] == "free" else None,
)
class TableHooks:
    """Preset hook points of the table (卡五星, 二人麻将: ``hupai.game.nplayer``). The table calls
    them at fixed points of the flow; rule decisions stay in the core (``flow_*`` queries and the
    preset's settle function), the hooks keep the preset's extra state and records."""

    #: Phases the hooks run themselves (``legal_actions`` / ``apply``).
    phases: tuple[str, ...] = ()

    def setup(self, table: Table) -> None:
        """After the wall is built, before the deal."""

    def on_draw(self, table: Table, seat: int, tile: int, pos: int) -> None:
        """``seat`` drew ``tile`` from wall position ``pos``."""

    def forbidden(self, table: Table, seat: int) -> list[int]:
        """Tile kinds ``seat`` may not discard (passed to the core's ``flow_turn``)."""
        return []

    def flowers(self, table: Table, seat: int, extra_tile: int | None = None) -> int:
        """The seat's flower count for scoring (``extra_tile``: a discard it may win on)."""
        return min(len(table.flowers[seat]), 8)

    def turn_actions(self, table: Table, seat: int) -> list[Action]:
        """Extra actions of the seat to move (declarations)."""
        return []

    def first_discard(self, table: Table, seat: int) -> bool:
        """The discard just made by ``seat`` is the dealer's first, no claim before (地和)."""
        return False

    def ready_first_turn(self, table: Table) -> list[int]:
        """Seats whose declaration was made on their first turn (二人麻将 天听)."""
        return []

    def no_options(self, table: Table, seat: int) -> None:
        """The seat to move has no legal action at all (卡五星 forced end)."""
        raise RuleConfigError("the seat to move has no legal action")

    def declare(self, table: Table, seat: int, tile: int) -> None:
        """``seat`` declares with the discard ``tile`` (before the discard is made)."""

    def on_discard(self, table: Table, seat: int, tile: int) -> None:
        """After ``seat`` discarded ``tile`` (before the claims)."""

    def on_claim(self, table: Table, seat: int, tile: int) -> None:
        """``seat`` claimed the discard ``tile`` (pung, kong or chow)."""

    def on_kong(self, table: Table, seat: int, kind: str, feeder: int | None, chained: bool) -> None:
        """A kong was made; ``chained``: right after the owner's kong replacement or on a post-kong
        discard (杠上杠)."""

    def on_win(self, table: Table, w: int, t: int, win_type: str, discarder: int | None, opt: Any) -> None:
        """Record a win (settled in ``settle``)."""

    def on_exhausted(self, table: Table) -> bool:
        """The wall is exhausted; return ``True`` when the hooks continue the hand (a phase)."""
        return False

    def legal_actions(self, table: Table, seat: int) -> list[Action]:
        return []

    def apply(self, table: Table, action: Action) -> None:
        raise IllegalActionError(f"no phase {table.phase!r}")

    def settle(self, table: Table) -> None:
        """Settle the hand into ``table.settlement`` (at the end)."""

    def held_tiles(self, table: Table) -> int:
        """Tiles the hooks hold outside the wall, hands, melds and rivers (tile accounting)."""
        return 0


_HOOKS: dict[str, Callable[[Variant], TableHooks]] = {}


def register_hooks(preset: str, factory: Callable[[Variant], TableHooks]) -> None:
    """Plug preset hooks into every table of ``preset``."""
    _HOOKS[preset] = factory


def _hooks_for(v: Variant) -> TableHooks | None:
    if v.id in ("kawuxing", "erren") and v.id not in _HOOKS:
        import hupai.game.nplayer  # noqa: F401  (registers the hooks)
    f = _HOOKS.get(v.id)
    return f(v) if f is not None else None


class Observation:
    """What ``seat`` can see: its own standing tiles, every meld, discard, flower count, declared
    void suit, the wall size and balances; never another seat's standing tiles or the wall."""

    __slots__ = ("_t", "seat")

    def __init__(self, table: Table, seat: int) -> None:
        self._t = table
        self.seat = seat

    @property
    def hand(self) -> list[int]:
        return list(self._t.hands[self.seat])

    @property
    def melds(self) -> list[list[tuple[str, int, int, str | None]]]:
        return [list(m) for m in self._t.melds]

    @property
    def discards(self) -> list[list[int]]:
        return [list(d) for d in self._t.discards]

    @property
    def void(self) -> list[int | None]:
        return list(self._t.void)

    @property
    def declared(self) -> list[bool]:
        """Seats whose hand is frozen by a declaration (卡五星 亮倒, 二人麻将 报听)."""
        return list(self._t.hand_locked)

    @property
    def revealed(self) -> dict[int, list[int]]:
        """Standing tiles revealed to everyone (卡五星 亮倒 hands)."""
        t = self._t
        if t.vid != "kawuxing":
            return {}
        return {s: list(t.hands[s]) for s in range(t.n) if t.hand_locked[s]}

    @property
    def active(self) -> list[bool]:
        return list(self._t.active)

    @property
    def ting(self) -> list[bool]:
        """Seats that declared 报听 (河北; public)."""
        return [self._t.vid == "hebei" and x for x in self._t.hand_locked]

    @property
    def pao_zi(self) -> list[int] | None:
        """Declared 炮子 (陕西; public), ``None`` without the side bet."""
        return None if self._t.pao_zi is None else list(self._t.pao_zi)

    @property
    def won(self) -> list[int]:
        return list(self._t.win_count)

    @property
    def wall_remaining(self) -> int:
        return self._t.wall_remaining

    @property
    def phase(self) -> str:
        return self._t.phase

    @property
    def last_discard(self) -> int | None:
        return self._t.last_discard

    @property
    def variant_id(self) -> str:
        return self._t.variant.id

    @property
    def laizi(self) -> int | None:
        """The wildcard tile of the hand (武汉 癞子), ``None`` without one."""
        return getattr(self._t, "laizi", None)

    def discard_analysis(self) -> list[tuple[int, int, int]]:
        """``(discard, shanten after it, unseen useful tiles)`` for the seat to move, best first."""
        return self._t._analysis(self.seat)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": [tile_name(k) for k in range(34) for _ in range(self._t.hands[self.seat][k])],
            "melds": self.melds,
            "discards": [[tile_name(t) for t in d] for d in self._t.discards],
            "void": self.void,
            "active": self.active,
            "wall_remaining": self.wall_remaining,
            "phase": self.phase,
        }


class Table:
    """One hand. ``Table(variant, seed=..., agents=None, dealer=0, prevalent_wind=0)``.

    Drive it with ``legal_actions(seat)`` / ``step(action)`` (``to_act`` is the seat to decide),
    or ``run()`` with agents (callables ``(observation, legal_actions) -> action``). ``done`` and
    ``result`` (winners, fans, balances, ledger) after the end; ``log`` is the event log
    (JSON-ready records) that ``hupai.replay`` rebuilds the table from.
    """

    def __new__(cls, variant: Variant | str, *args: Any, **kwargs: Any) -> Table:
        if cls is Table:
            sub = _TABLE_TYPES.get(variant.id if isinstance(variant, Variant) else str(variant))
            if sub is not None:
                return super().__new__(sub)
        return super().__new__(cls)

    def __init__(
        self,
        variant: Variant | str,
        seed: int = 0,
        agents: Sequence[Callable[..., Action]] | None = None,
        *,
        dealer: int = 0,
        prevalent_wind: int = 0,
        wall: Sequence[int] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> None:
        v = variant if isinstance(variant, Variant) else Variant.load(variant)
        flow_check(v)  # the core: the presets it plays, and switch values that only score
        if v.id == "sichuan" and v.options["players"] != 4:
            raise RuleConfigError("the table plays 4-player hands only (switch players = 4)")
        self.n = players_of(v)
        if not 0 <= dealer < self.n or not 0 <= prevalent_wind < 4:
            raise RuleConfigError(f"dealer is a seat index 0..{self.n - 1} and prevalent_wind a wind index 0..3")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RuleConfigError(f"seed must be an int, got {seed!r}")
        self.variant = v
        self.vid = v.id
        self.seed = seed
        self.agents = list(agents) if agents is not None else None
        self.rng = random.Random(seed ^ 0x5EED)
        desc_rules = _rules_of(v)
        self.multi_ron: bool = bool(desc_rules.get("multi_ron", False))
        # Added kongs are always offered for robbing; the core answers whether the preset allows it.
        self.rob_added = True
        params = _params_of(v)
        self.pass_lock = bool(params.get("pass_win_lock", False)) or (
            params.get("pass_win_lock_default") in ("all_discards_until_own_draw", "go_around")
        )
        self.regional = v.id in REGIONAL
        # 漏胡 / 过水 of a regional preset, as the core reads its switch ``pass_win_lock`` / defaults.
        self.lock_tile_only = False
        if self.regional:
            mode = flow_pass_lock(v)
            self.lock_tile_only = mode == "same_tile"
            self.pass_lock = mode == "until_own_draw"
        self.lock_tiles: list[set[int]] = [set() for _ in range(self.n)]
        self.carry = _carry(v, carry, self.n)
        # 下炮子 (陕西): free → declared in the pre-phase (defaults: the carried choices); fixed; none.
        pz = v.options.get("pao_zi") if v.id == "shaanxi" else None
        self.pao_zi: list[int] | None = (
            None if pz in (None, "none") else [int(v.options["pao_zi_fixed"])] * N if pz == "fixed" else list(self.carry["pao_zi"])
        )
        self.auto = [False] * self.n
        self.auto_win = bool(params.get("auto_win_when_auto_played", False))
        self.escaped: int | None = None
        self._first_discards: list[tuple[int, int]] | None = [] if v.id == "hebei_draft4" else None
        self.gen_zhuang = False
        self._kongs: list[dict[str, Any]] = []
        self._win_records: list[dict[str, Any]] = []
        # 荒庄 reserve (陕西, 河北第4稿): stacks left undrawn, indexed by the kongs made so far.
        stacks = params.get("exhaustion_reserve_stacks") or (desc_rules.get("flow") or {}).get("exhaustion_reserve_stacks")
        self.reserve_stacks: list[int] = [int(x) for x in stacks] if stacks else []
        self.kong_abort = bool(params.get("three_player_kong_abort", False))  # 三家杠荒牌
        self.mode = str(v.options["mode"]) if v.id == "sichuan" else "single"
        self.dealer = dealer
        self.prevalent = WINDS[prevalent_wind]
        self.seat_wind = [WINDS[(s - dealer) % self.n] for s in range(self.n)]
        self.wall = list(wall) if wall is not None else build_wall(v, seed)
        if wall is not None and sorted(self.wall) != sorted(v.tile_set()):
            raise RuleConfigError(f"wall: not the {v.id} tile set ({len(self.wall)} tiles given)")
        self._custom_wall = wall is not None
        self.n_tiles = len(self.wall)
        self.head = 0
        self.tail = len(self.wall)
        self.hands: list[list[int]] = [[0] * 34 for _ in range(self.n)]
        self.melds: list[list[tuple[str, int, int, str | None]]] = [[] for _ in range(self.n)]
        self.discards: list[list[int]] = [[] for _ in range(self.n)]
        self.flowers: list[list[int]] = [[] for _ in range(self.n)]
        self.won_tiles: list[list[int]] = [[] for _ in range(self.n)]
        self.active = [True] * self.n
        self.void: list[int | None] = [None] * self.n
        self.win_locked = [False] * self.n
        self.hand_locked = [False] * self.n
        self.win_count = [0] * self.n
        self.wins: list[dict[str, Any]] = []
        self.settlement = Settlement([SEAT_NAMES[s] for s in range(self.n)], variant=v)
        self.log: list[dict[str, Any]] = []
        self.phase = "deal"
        self.to_act = dealer
        self.done = False
        self.result: dict[str, Any] | None = None
        self.last_discard: int | None = None
        self.turns = 0
        self._drawn: int | None = None
        self._pos = -1  # wall position of the last tile taken
        self._win_type = "self_draw"
        self._last_kong: str | None = None
        self._opts: Any = None
        self._claim: dict[str, Any] | None = None
        self._pre: list[PrePhase] = []
        self._pre_changed = False
        self._drawn_once = [False] * self.n
        self._claim_made = False
        self._pre_done: set[int] = set()
        self._ver = 0
        self.pool: list[int] = []  # tiles outside the wall still in the box (二人麻将: 65 unused)
        self.hooks = _hooks_for(v)
        self._legal: tuple[int, int, list[Action]] | None = None
        self._event(
            {
                "type": "start",
                "variant": v.id,
                "options": {k: val for k, val in v.options.items()},
                "seed": seed,
                "dealer": dealer,
                "prevalent_wind": prevalent_wind,
                **({"wall": list(self.wall)} if self._custom_wall else {}),
                **({"carry": dict(carry)} if carry else {}),
            }
        )
        if v.id == "shanghai":
            dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))  # 开宝 (the core: equal dice add one)
            self.carry["kai_bao"] += flow_kai_bao(v, *dice)
            self._event({"type": "dice", "dice": list(dice), "kai_bao": self.carry["kai_bao"]})
        if self.hooks is not None:
            self.hooks.setup(self)
            self.n_tiles = len(self.wall) + len(self.pool)
        self._deal()

    # ------------------------------------------------------------------ state helpers
    def _event(self, e: dict[str, Any]) -> None:
        self.log.append(e)

    @property
    def wall_remaining(self) -> int:
        return self.tail - self.head

    def _reserve(self) -> int:
        """Tiles that stay undrawn (the preset's 荒庄 reserve, growing with the kongs made)."""
        if not self.reserve_stacks:
            return 0
        return 2 * self.reserve_stacks[min(len(self._kongs), len(self.reserve_stacks) - 1)]

    @property
    def live_remaining(self) -> int:
        """Tiles that may still be drawn in turn (the wall minus the 荒庄 reserve)."""
        return max(self.wall_remaining - self._reserve(), 0)

    def _seat_tuple(self, s: int, extra_tile: int | None = None) -> tuple[Any, ...]:
        return (
            self.hands[s],
            self.melds[s],
            self.active[s],
            self.void[s],
            self.win_locked[s],
            self.hand_locked[s],
            min(len(self.flowers[s]), 8) if self.hooks is None else self.hooks.flowers(self, s, extra_tile),
            self.seat_wind[s],
            s == self.dealer,
        )

    def _take(self, from_back: bool) -> int | None:
        if self.head >= self.tail:
            return None
        if from_back:
            self.tail -= 1
            self._pos = self.tail
            return self.wall[self.tail]
        t = self.wall[self.head]
        self._pos = self.head
        self.head += 1
        return t

    def _draw(self, seat: int, from_back: bool) -> int | None:
        """Draw for ``seat`` (flowers replaced from the back); ``None`` when the wall is empty."""
        while True:
            t = self._take(from_back)
            if t is None:
                return None
            if t >= 34:
                self.flowers[seat].append(t)
                self._event({"type": "flower", "seat": seat, "tile": t})
                from_back = True
                continue
            self.hands[seat][t] += 1
            if self.hooks is not None:
                self.hooks.on_draw(self, seat, t, self._pos)
            return t

    def _deal(self) -> None:
        for _ in range(13):
            for k in range(self.n):
                s = (self.dealer + k) % self.n
                if not self.active[s]:
                    continue  # 卡五星 4 seated: the resting seat
                if self._draw(s, False) is None:
                    raise RuleConfigError("the wall is too short to deal")
        last = self._draw(self.dealer, False)
        if last is None:
            raise RuleConfigError("the wall is too short to deal")
        self._event({"type": "deal", "wall_remaining": self.wall_remaining})
        self._pre = [p for f in _PRE_PHASES.get(self.vid, []) if (p := f(self.variant)) is not None]
        self._drawn = last
        if self._pre:
            self._start_pre()
        else:
            self._start_turn(self.dealer, last, "self_draw")

    def _start_pre(self) -> None:
        self.phase = self._pre[0].name
        self._pre_done = set()
        self.to_act = self.dealer

    def _start_turn(self, seat: int, drawn: int | None, win_type: str) -> None:
        first = drawn is not None and not self._drawn_once[seat] and not self._claim_made and win_type == "self_draw"
        self.phase = "turn"
        self.to_act = seat
        self._drawn = drawn
        self._win_type = win_type
        self._opts = flow_turn(
            self.variant,
            self._seat_tuple(seat),
            seat,
            drawn,
            win_type,
            self.prevalent,
            self.live_remaining == 0 and drawn is not None,
            self.live_remaining == 0,
            self._last_kong,
            False,
            self.live_remaining,
            first,
            forbidden=self.hooks.forbidden(self, seat) if self.hooks is not None else (),
            ready_first_turn=self.hooks.ready_first_turn(self) if self.hooks is not None else (),
        )
        self._drawn_once[seat] = True
        if self.hooks is not None and not self._compute_legal(seat):
            self.hooks.no_options(self, seat)

    def _analysis(self, seat: int) -> list[tuple[int, int, int]]:
        if self.phase != "turn" or seat != self.to_act:
            return []
        return flow_turn(
            self.variant,
            self._seat_tuple(seat),
            seat,
            None,
            "self_draw",
            self.prevalent,
            False,
            True,
            None,
            True,
        )[4]

    def _next_active(self, seat: int) -> int | None:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if self.active[s]:
                return s
        return None

    def _draw_turn(self, seat: int) -> None:
        """``seat`` draws from the wall and moves (or the hand ends on an empty wall)."""
        self.win_locked[seat] = False
        self.lock_tiles[seat].clear()
        self._last_kong = None
        t = self._draw(seat, False) if self.live_remaining > 0 else None
        if t is None:
            self._exhaustive_draw()
            return
        self._event({"type": "draw", "seat": seat})
        self._start_turn(seat, t, "self_draw")

    def _replacement(self, seat: int, kong_kind: str) -> None:
        if self.kong_abort and len({k["owner"] for k in self._kongs}) >= 3:
            self._event({"type": "kong_abort"})  # 三家杠: three different players kong → 荒牌
            self._exhaustive_draw()
            return
        self._last_kong = kong_kind
        t = self._draw(seat, True)
        if t is None:
            self._exhaustive_draw()
            return
        self._event({"type": "draw", "seat": seat, "replacement": True})
        self._start_turn(seat, t, "kong_replacement")

    # ------------------------------------------------------------------ public API
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (default ``to_act``) now; empty when it has nothing to do."""
        if seat is None:
            seat = self.to_act
        if self.done or seat != self.to_act:
            return []
        lc = self._legal
        if lc is not None and lc[0] == self._ver and lc[1] == seat:
            return list(lc[2])
        out = self._compute_legal(seat)
        self._legal = (self._ver, seat, out)
        return list(out)

    def _compute_legal(self, seat: int) -> list[Action]:
        A = Action.of
        if self.phase == "turn":
            win, ck, ak, discards, _, forced = self._opts
            if forced and self._drawn is not None:
                return [A(WIN, seat, self._drawn)]  # 最后四张: the win is forced
            out = [A(WIN, seat, self._drawn)] if win is not None and self._drawn is not None else []
            if out and self.auto[seat] and self.auto_win:
                return out  # 托管: the system takes the win
            if ck:
                out += [A(CONCEALED_KONG, seat, t) for t in ck]
            if ak:
                out += [A(ADDED_KONG, seat, t) for t in ak]
            da = _DISCARDS[seat]
            out += [da[t] for t in discards]
            if self.vid == "hebei" and not self.hand_locked[seat]:
                ready = flow_ready_discards(self.variant, self._seat_tuple(seat), seat, self.prevalent)
                out += [A(DECLARE_TING, seat, t) for t, _ in ready]
            if self.hooks is not None:
                out += self.hooks.turn_actions(self, seat)
            return out
        if self.phase in ("claim", "rob"):
            c = self._claim
            assert c is not None
            r = c["responses"][seat]
            t = c["tile"]
            if r[0] is not None and (r[4] or (self.auto[seat] and self.auto_win)):
                return [A(WIN, seat, t)]  # forced win (最后四张; 托管 auto-win)
            out = [A(PASS, seat, t)]
            if r[0] is not None:
                out.append(A(WIN, seat, t))
            if r[1]:
                out.append(A(KONG, seat, t))
            if r[2]:
                out.append(A(PUNG, seat, t))
            out += [A(CHOW, seat, lo) for lo in r[3]]
            return out
        if self.hooks is not None and self.phase in self.hooks.phases:
            return self.hooks.legal_actions(self, seat)
        if self._pre:
            return self._pre[0].legal_actions(self, seat)
        return []

    def observation(self, seat: int) -> Observation:
        return Observation(self, seat)

    def step(self, action: Action) -> None:
        """Apply one action of ``to_act``. An illegal action raises ``IllegalActionError`` and changes
        nothing."""
        if self.done:
            raise IllegalActionError("the hand is over")
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an Action: {action!r}")
        if action.kind in (ESCAPE, AUTO_PLAY):
            self._manage(action)
            return
        legal = self.legal_actions(action.seat)
        if not any(x is action for x in legal) and action not in legal:
            raise IllegalActionError(
                f"illegal action {action} (seat {self.to_act} is to act in phase {self.phase})"
            )
        self._ver += 1
        if action.tiles:
            self.log.append({"type": "action", **action.to_json()})
        elif action.tile >= 0:
            self.log.append({"type": "action", "kind": action.kind, "seat": action.seat, "tile": action.tile})
        else:
            self.log.append({"type": "action", "kind": action.kind, "seat": action.seat})
        if self.phase == "turn":
            self._turn_action(action)
        elif self.phase in ("claim", "rob"):
            self._claim_action(action)
        elif self.hooks is not None and self.phase in self.hooks.phases:
            self.hooks.apply(self, action)
        else:
            self._pre_action(action)

    def run(self, agents: Sequence[Callable[..., Action]] | None = None, max_steps: int = 100000) -> dict[str, Any]:
        """Play to the end with ``agents`` (or the table's) and return ``result``."""
        ag = list(agents) if agents is not None else self.agents
        if ag is None or len(ag) != self.n:
            raise RuleConfigError(f"run() needs {self.n} agents")
        steps = 0
        while not self.done:
            s = self.to_act
            legal = self.legal_actions(s)
            a = self.auto_action(s, legal) if self.auto[s] else ag[s](Observation(self, s), legal)
            self.step(a)
            steps += 1
            if steps > max_steps:
                raise RuleConfigError("the hand did not end")
        assert self.result is not None
        return self.result

    # ------------------------------------------------------------------ table management
    def escape(self, seat: int) -> None:
        """逃跑: ``seat`` leaves; the hand ends and the preset's escape penalty is settled
        (陕西: 底 × (8 + 3·p(self) + Σ p(others)), see ``docs/presets.md``). Logged as an action."""
        self.step(Action(ESCAPE, seat))

    def set_auto_play(self, seat: int, on: bool = True) -> None:
        """托管 on/off for ``seat``: ``run`` plays the seat with ``auto_action``, and where the
        preset says so (河北 ``auto_win_when_auto_played``) a possible win is its only action."""
        self.step(Action(AUTO_PLAY, seat, int(bool(on))))

    def auto_action(self, seat: int, legal: Sequence[Action] | None = None) -> Action:
        """The table's move for a seat under 托管: win, else pass, else discard the drawn tile."""
        legal = list(legal) if legal is not None else self.legal_actions(seat)
        if not legal:
            raise IllegalActionError(f"seat {seat} has nothing to do")
        for kind in (WIN, PASS):
            for a in legal:
                if a.kind == kind:
                    return a
        for a in legal:
            if a.kind == DISCARD and a.tile == self._drawn:
                return a
        return next((a for a in legal if a.kind == DISCARD), legal[0])

    def _manage(self, a: Action) -> None:
        if not 0 <= a.seat < self.n:
            raise IllegalActionError(f"seat {a.seat} is not 0..3")
        if a.kind == AUTO_PLAY:
            if a.tile not in (0, 1):
                raise IllegalActionError("auto_play: tile 1 (on) or 0 (off)")
            self._ver += 1
            self.auto[a.seat] = bool(a.tile)
            self.log.append({"type": "action", **a.to_json()})
            return
        if "escape_units" not in _params_of(self.variant):  # the preset's 逃跑 penalty (陕西)
            raise IllegalActionError(f"{self.vid} has no escape (逃跑) rule at the table")
        self._ver += 1
        self.log.append({"type": "action", **a.to_json()})
        self.escaped = a.seat
        if self.phase == "rob" and self._claim is not None:  # the robbed tile goes back to its owner
            self.hands[self._claim["from"]][self._claim["tile"]] += 1
        self._claim = None
        self._pre = []
        self._end()

    def _track_gen_zhuang(self, s: int, t: int) -> None:
        """跟庄 (河北第4稿): the hand's first four discards (recording stops at a claim or a kong) go to
        the core, which decides whether the three non-dealers followed the dealer's tile."""
        fd = self._first_discards
        assert fd is not None
        fd.append((s, t))
        if len(fd) == N:
            self._first_discards = None
            if flow_gen_zhuang(self.variant, self.dealer, fd):
                self.gen_zhuang = True
                self._event({"type": "gen_zhuang", "tile": t})

    # ------------------------------------------------------------------ phases
    def _pre_action(self, a: Action) -> None:
        ph = self._pre[0]
        ph.apply(self, a)
        if not ph.seat_done(a.seat):
            return
        self._pre_done.add(a.seat)
        nxt = self._next_active(a.seat)
        if nxt is not None and nxt not in self._pre_done:
            self.to_act = nxt
            return
        ph.finish(self)
        self._pre.pop(0)
        self._pre_changed = self._pre_changed or ph.changes_hands
        if self._pre:
            self._start_pre()
        else:
            self._start_turn(self.dealer, None if self._pre_changed else self._drawn, "self_draw")

    def _turn_action(self, a: Action) -> None:
        s = a.seat
        h = self.hands[s]
        if a.kind == WIN:
            self._win_self(s, a.tile)
        elif a.kind in (DISCARD, DECLARE_TING, DECLARE_READY):
            if a.kind == DECLARE_TING:
                self.hand_locked[s] = True  # 报听: the hand is locked from now on
                self._event({"type": "ting", "seat": s, "tile": a.tile})
            elif a.kind == DECLARE_READY:
                assert self.hooks is not None
                self.hooks.declare(self, s, a.tile)
            if self._first_discards is not None:
                self._track_gen_zhuang(s, a.tile)
            h[a.tile] -= 1
            self.discards[s].append(a.tile)
            self.last_discard = a.tile
            self.turns += 1
            if self.hooks is not None:
                self.hooks.on_discard(self, s, a.tile)
            source = "after_kong_discard" if self._last_kong else "discard"
            self._offer(s, a.tile, source)
        elif a.kind == CONCEALED_KONG:
            self._first_discards = None
            h[a.tile] -= 4
            self.melds[s].append(("kong", a.tile, 0, "concealed"))
            self._kongs.append({"owner": SEAT_NAMES[s], "type": "concealed"})
            if self.hooks is not None:
                self.hooks.on_kong(self, s, "concealed", None, self._win_type == "kong_replacement")
            if self.vid == "sichuan":
                self.settlement.kong(SEAT_NAMES[s], "concealed")
            self._replacement(s, "concealed")
        elif a.kind == ADDED_KONG:
            self._first_discards = None
            if self.rob_added:
                h[a.tile] -= 1
                if self._offer(s, a.tile, "rob_kong"):
                    return
                h[a.tile] += 1
            self._finish_added_kong(s, a.tile)

    def _finish_added_kong(self, s: int, t: int) -> None:
        self.hands[s][t] -= 1
        ms = self.melds[s]
        i = next(i for i, m in enumerate(ms) if m[0] == "pung" and m[1] == t)
        ms[i] = ("kong", t, ms[i][2], "added")
        self._kongs.append({"owner": SEAT_NAMES[s], "type": "added", "feeder": SEAT_NAMES[(s - ms[i][2]) % self.n]})
        if self.hooks is not None:
            self.hooks.on_kong(self, s, "added", None, self._win_type == "kong_replacement")
        if self.vid == "sichuan":
            self.settlement.kong(SEAT_NAMES[s], "added")
        self._replacement(s, "added")

    def _offer(self, s: int, t: int, source: str) -> bool:
        """Ask every seat about tile ``t`` from ``s``; returns whether anyone may respond."""
        empty = self.live_remaining == 0
        seats = [self._seat_tuple(k, t) for k in range(self.n)]
        if self.lock_tile_only and source != "rob_kong":
            # 漏胡 (陕西): a declined win on t locks t only, until the seat's next action.
            seats = [st[:4] + (True,) + st[5:] if t in self.lock_tiles[k] else st for k, st in enumerate(seats)]
        resp = flow_claims(
            self.variant,
            seats,
            s,
            t,
            source,
            self.prevalent,
            empty,
            empty,
            self._last_kong if source == "after_kong_discard" else None,
            self.live_remaining,
            first_turn=self.hooks is not None and source == "discard" and self.hooks.first_discard(self, s),
            ready_first_turn=self.hooks.ready_first_turn(self) if self.hooks is not None else (),
        )
        return self._open_claim(s, t, source, resp, [(s + k) % self.n for k in range(1, self.n)])

    def _open_claim(self, s: int, t: int, source: str, resp: Sequence[Any], order: Sequence[int]) -> bool:
        """Open the claim window on ``t`` from ``s`` for the seats in ``order`` that have a response
        in ``resp``; with none, play goes on. Returns whether anyone may respond."""
        pending = [k for k in order if resp[k] is not None]
        if not pending:
            if source != "rob_kong":
                self._after_discard(s)
            return False
        self._claim = {"from": s, "tile": t, "source": source, "responses": resp, "pending": pending, "decided": {}}
        self.phase = "rob" if source == "rob_kong" else "claim"
        self.to_act = pending[0]
        return True

    def _after_discard(self, s: int) -> None:
        self._last_kong = None
        nxt = self._next_active(s)
        if nxt is None:
            self._end()
        else:
            self._draw_turn(nxt)

    def _claim_action(self, a: Action) -> None:
        c = self._claim
        assert c is not None
        c["decided"][a.seat] = a
        if a.kind == PASS and c["responses"][a.seat][0] is not None and c["source"] != "rob_kong":
            if self.pass_lock:
                self.win_locked[a.seat] = True
            elif self.lock_tile_only:
                self.lock_tiles[a.seat].add(c["tile"])
        rest = [k for k in c["pending"] if k not in c["decided"]]
        if rest:
            self.to_act = rest[0]
            return
        self._resolve(c)

    def _resolve(self, c: dict[str, Any]) -> None:
        s, t, source = c["from"], c["tile"], c["source"]
        decided: dict[int, Action] = c["decided"]
        order = [k for k in c["pending"]]
        self._claim = None
        winners = [k for k in order if decided[k].kind == WIN]
        if winners:
            if not self.multi_ron:
                winners = winners[:1]
            if source == "rob_kong":
                pass  # the robbed tile already left the owner's hand
            else:
                self.discards[s].pop()
            for i, w in enumerate(winners):
                self._record_win(w, t, source, s, c["responses"][w][0], shared=i > 0)
            self._event({"type": "claim_resolved", "winners": winners})
            if self._hand_over():
                self._end()
                return
            nxt = self._next_active(winners[-1])
            if nxt is None:
                self._end()
            else:
                self._last_kong = None
                self._draw_turn(nxt)
            return
        if source == "rob_kong":
            self.hands[s][t] += 1
            self._finish_added_kong(s, t)
            return
        for kind in (KONG, PUNG, CHOW):
            for k in order:
                a = decided[k]
                if a.kind != kind:
                    continue
                self.discards[s].pop()
                if self.hooks is not None:
                    self.hooks.on_claim(self, k, t)
                h = self.hands[k]
                self._last_kong = None
                self._claim_made = True
                self.lock_tiles[k].clear()
                self._first_discards = None
                if kind == KONG:
                    h[t] -= 3
                    self.melds[k].append(("kong", t, (k - s) % self.n, "open"))
                    self._kongs.append({"owner": SEAT_NAMES[k], "type": "open", "feeder": SEAT_NAMES[s]})
                    if self.hooks is not None:
                        self.hooks.on_kong(self, k, "open", s, source == "after_kong_discard")
                    if self.vid == "sichuan":
                        self.settlement.kong(SEAT_NAMES[k], "open", feeder=SEAT_NAMES[s])
                    self._replacement(k, "open")
                    return
                if kind == PUNG:
                    h[t] -= 2
                    self.melds[k].append(("pung", t, (k - s) % self.n, None))
                else:
                    for x in range(a.tile, a.tile + 3):
                        if x != t:
                            h[x] -= 1
                    self.melds[k].append(("chow", a.tile, t - a.tile + 1, None))
                self._start_turn(k, None, "self_draw")
                return
        self._after_discard(s)

    # ------------------------------------------------------------------ wins and the end
    def _record_win(self, w: int, t: int, win_type: str, discarder: int | None, opt: Any, shared: bool = False) -> None:
        value, _sdp, fans, deltas = opt
        names = SEAT_NAMES
        if self.vid == "sichuan":
            self.settlement.win(
                names[w],
                value,
                discarder=None if discarder is None else names[discarder],
                after_kong=win_type == "after_kong_discard",
            )
        elif self.hooks is not None:
            self.hooks.on_win(self, w, t, win_type, discarder, opt)
        elif self.regional:
            rec = self._win_record(w, t, win_type, discarder)
            self._win_records.append(rec)
            if self.vid == "shanghai" and (self.carry["kai_bao"] or self.carry["huang_fan"]):
                # The pending 开宝/黄番 番 (the flow query scores without them): the core's scorer.
                from hupai import score as core_score

                sc = core_score({"hand": rec["hand"], "situation": rec["situation"]}, self.variant)
                value, fans = sc.per_payer, [(f.id, f.count) for f in sc.fans]
        else:
            self.settlement.record("WIN", [(names[k], deltas[k]) for k in range(self.n)], reason=f"{names[w]} wins")
        if not shared:  # 一炮多响: one physical tile, kept by the first winner
            self.won_tiles[w].append(t)
        self.win_count[w] += 1
        self.wins.append({"seat": w, "tile": t, "win_type": win_type, "from": discarder, "value": value, "fans": fans})
        self._event({"type": "win", "seat": w, "tile": t, "win_type": win_type, "from": discarder, "value": value})
        if self.mode == "xuezhan":
            self.active[w] = False
        elif self.mode == "xueliu":
            self.hand_locked[w] = True

    def _win_record(self, w: int, t: int, win_type: str, discarder: int | None) -> dict[str, Any]:
        """The win as the preset's settlement reads it (hand, melds, situation flags)."""
        melds: list[dict[str, Any]] = []
        for kind, tile, off, kk in self.melds[w]:
            if kind == "chow":
                melds.append({"type": "chow", "tiles": [tile_name(x) for x in range(tile, tile + 3)]})
            elif kind == "pung":
                melds.append({"type": "pung", "tile": tile_name(tile), "offer": off})
            else:
                melds.append({"type": f"kong_{kk}", "tile": tile_name(tile), "offer": off})
        h = self.hands[w]
        rec: dict[str, Any] = {
            "winner": SEAT_NAMES[w],
            "hand": {
                "concealed": [tile_name(k) for k in range(34) for _ in range(h[k])],
                "win_tile": tile_name(t),
                "melds": melds,
            },
            "situation": {
                "win_type": win_type,
                "wall_last": self.live_remaining == 0,
                "seat_wind": tile_name(self.seat_wind[w]),
                "prevalent_wind": tile_name(self.prevalent),
                "dealer": w == self.dealer,
            },
        }
        if discarder is not None:
            rec["discarder"] = SEAT_NAMES[discarder]
        if self.vid == "shanghai":
            rec["situation"]["flowers"] = min(len(self.flowers[w]), 8)
            rec["situation"]["kai_bao"] = self.carry["kai_bao"]  # pending counters (开宝/黄番)
            rec["situation"]["huang_fan"] = self.carry["huang_fan"]
            claims: dict[str, int] = {}
            for kind, _tile, off, kk in self.melds[w]:
                if kind == "chow":
                    src: int | None = (w - 1) % self.n
                elif kind == "pung" or kk == "open":
                    src = (w - off) % self.n
                else:
                    src = None
                if src is not None and src != w:
                    claims[SEAT_NAMES[src]] = claims.get(SEAT_NAMES[src], 0) + 1
            rec["claims"] = claims
        return rec

    def _settle_regional(self) -> None:
        """Settle the hand with the preset's own settlement (one hand record, ``hupai.settle_hand``)
        and book the result in the ledger."""
        from hupai import settle_hand

        seats = [SEAT_NAMES[k] for k in range(self.n)]
        # 陕西 charges every other player for a 补杠 (no feeder); the others the 碰'd discarder.
        keep_added_feeder = self.vid != "shaanxi"
        kongs = [
            {"kind": "kong", "owner": k["owner"], "type": k["type"]}
            | ({"feeder": k["feeder"]} if "feeder" in k and (k["type"] == "open" or keep_added_feeder) else {})
            for k in self._kongs
        ]
        rec: dict[str, Any] = {"seats": seats, "events": kongs + [{"kind": "win", **w} for w in self._win_records]}
        if self.vid != "shanghai":
            rec["dealer"] = SEAT_NAMES[self.dealer]
        if self.vid == "hebei_draft4":
            rec["table"] = {"floor": self.carry["floor"], "gen_zhuang": self.gen_zhuang}
        if self.vid == "shaanxi":
            if self.pao_zi is not None:
                rec["seat_data"] = {seats[k]: {"pao_zi": self.pao_zi[k]} for k in range(self.n)}
            if self.escaped is not None:
                rec["table"] = {"escaped": seats[self.escaped]}
        events = settle_hand(rec, self.variant).events
        for e in events:  # the preset's ledger events, booked one by one (each zero-sum)
            self.settlement.record(e["kind"], [(n, int(e["deltas"].get(n, 0))) for n in seats], reason=e["reason"])

    def _win_self(self, s: int, t: int) -> None:
        opt = self._opts[0]
        self.hands[s][t] -= 1
        self._record_win(s, t, self._win_type, None, opt)
        if self._hand_over():
            self._end()
            return
        nxt = self._next_active(s)
        self._last_kong = None
        if nxt is None:
            self._end()
        else:
            self._draw_turn(nxt)

    def _hand_over(self) -> bool:
        if self.mode == "single":
            return True
        return sum(self.active) <= 1

    def _exhaustive_draw(self) -> None:
        self._event({"type": "wall_empty"})
        if self.hooks is not None and self.hooks.on_exhausted(self):
            return
        if self.vid == "sichuan":
            seats = [k for k in range(self.n) if self.active[k]]
            if len(seats) >= 2:
                states = flow_draw_end(self.variant, [self._seat_tuple(k) for k in seats])
                self.settlement.draw_end(
                    {SEAT_NAMES[k]: {"huazhu": hz, "da_jiao": dj} for k, (hz, dj) in zip(seats, states)}
                )
        self._end(exhausted=True)

    def _end(self, exhausted: bool = False) -> None:
        if self.regional and not self.settlement.ended:
            self._settle_regional()
        if self.hooks is not None and not self.settlement.ended:
            self.hooks.settle(self)
        if not self.settlement.ended:
            self.settlement.end_hand()
        self.done = True
        self.phase = "done"
        bal = self.settlement.balances
        self.result = {
            "winners": sorted({w["seat"] for w in self.wins}),
            "wins": [dict(w) for w in self.wins],
            "exhausted": exhausted and not self.wins,
            "balances": [bal[SEAT_NAMES[k]] for k in range(self.n)],
            "turns": self.turns,
            "ledger": self.settlement.to_dict(),
            "discarder": next((w["from"] for w in self.wins if w["from"] is not None), None),
            "carry": {**self.carry, "pao_zi": list(self.pao_zi) if self.pao_zi is not None else self.carry["pao_zi"]},
            "escaped": self.escaped,
        }
        self._event({"type": "end", "winners": self.result["winners"], "balances": self.result["balances"], "exhausted": self.result["exhausted"]})

    # ------------------------------------------------------------------ invariants
    def tile_count(self) -> int:
        """Every tile accounted for: wall + hands + melds + rivers + flowers + won tiles (+ a tile
        being robbed) must equal the wall size."""
        n = self.wall_remaining
        n += sum(sum(h) for h in self.hands)
        n += sum(4 if m[0] == "kong" else 3 for ms in self.melds for m in ms)
        n += sum(len(d) for d in self.discards) + sum(len(f) for f in self.flowers)
        n += sum(len(w) for w in self.won_tiles)
        if self.phase == "rob" and self._claim is not None:
            n += 1
        n += sum(p.held_tiles() for p in self._pre)
        if self.hooks is not None:
            n += len(self.pool) + self.hooks.held_tiles(self)
        return n

    def hand_text(self, seat: int) -> str:
        h = " ".join(tile_name(k) for k in range(34) for _ in range(self.hands[seat][k]))
        ms = " ".join(f"[{m[0]} {tile_name(m[1])}]" for m in self.melds[seat])
        return (h + " " + ms).strip()
