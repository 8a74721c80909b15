"""Table hooks of the presets that do not seat four: 卡五星 (3 players, 84 tiles) and 二人麻将
(2 players, 71 of 136 tiles).

The ``Table`` seats ``players_of(variant)`` players and deals the preset's tile set; these hooks
add what the two presets play beyond the shared flow. Rule decisions stay in the core: legal wins
with their values (``flow_turn`` / ``flow_claims``, the preset scorer with the declaration counted),
waits and the discards after which a hand is ready (``flow_waits`` / ``flow_ready_discards``), the
K3 discard restriction and the kongs a 亮倒 hand may make (``flow_turn(forbidden=...)``), the no-pung
-on-a-concealed-triplet, 补杠-on-the-draw-turn and no-kong-on-the-last-tile rules (preset ``[params]``
read by the core), and every payment (``hupai.settle_hand``).

卡五星 (``KawuxingHooks``)

* 漂 (switch ``piao``): a pre-play phase, every seat declares an amount from ``params.piao_choices``.
* 亮倒: the action ``declare_ready`` (a discard after which the hand is ready). The hand is then
  revealed (``Observation.revealed``) and frozen: the seat discards each drawn tile unless it wins
  or makes a kong that leaves its waits unchanged; it may not claim. Its wins score 亮倒 ×2.
* K3 (switch ``liangdao_discard_restriction``): a seat that has not declared may not discard a
  winning tile of a 亮倒 player; with no legal action left the hand ends at once (forced end,
  settled by the preset: the best value among its tiles to each such 亮倒 player).
* 包胡 / 对亮包赔: the win event lists the seats that declared; the preset settlement charges both
  shares to the discarder.
* 杠上杠: a kong made right after the owner's kong replacement, or on a post-kong discard, continues
  the chain (``chain`` n pays ×2^(n−1)); a robbed 补杠 is not recorded (it earns nothing).
* 买码 (switch ``mai_ma``): after a self-draw win one tile is taken from the end of the wall (when
  one is left) and set aside face up (``mai_ma`` event).
* 荒庄: the hands at the end go to the preset's draw settlement (K3 查叫); kong money stands.

二人麻将 (``ErrenHooks``)

* The 136 tiles are shuffled; the first 71 are the wall, the other 65 the unused pool.
* 花牌: ``hua_pai_count`` wall positions are drawn (table RNG) and turned face up; each such physical
  tile in the winner's final hand scores (``situation.flowers``). A seat discards its ordinary
  copies of a kind before a face-up one.
* 报听: ``declare_ready``; the hand is frozen (it discards each drawn tile, may not claim or kong)
  and scores 门清报听 when 门清.
* 海底捞月 phase: when the 71 tiles are used and the last discard is not won, the ready seat (both
  ready: the one continuously ready since the earlier turn, then the earlier 报听, then the dealer)
  draws up to ``haidi_phase_draws`` tiles from the unused pool; after each it wins (self-draw,
  海底捞月) or discards the tile (unclaimable). Nobody ready, or three misses: 流局, no payment.

* 开始时换牌 (switch ``opening_exchange``): a pre-play phase, dealer first; a seat sets tiles aside
  one ``exchange`` action (one tile) at a time and closes with ``pass``; the tiles are then
  replaced from the front of the unused pool and go to its end.

* 天听 (a 报听 made with the dealer's first discard, or with the other seat's first drawn tile, no
  claim or kong before) and 地和 (a win on the dealer's first discard) are passed to the core.

Not played: the random 二人麻将 游戏中换牌 / 搓牌 events (probability 0 by default); 卡五星
数坎 / 上楼 counters across hands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hupai._core import Variant, flow_ready_discards, flow_turn, flow_waits
from hupai.game.actions import (
    DECLARE_PIAO,
    DECLARE_READY,
    DISCARD,
    EXCHANGE,
    PASS,
    WIN,
    Action,
    IllegalActionError,
    tile_name,
)
from hupai.game.table import SEAT_NAMES, PrePhase, TableHooks, register_hooks, register_pre_phase

if TYPE_CHECKING:
    from hupai.game.table import Table

__all__ = ["KawuxingHooks", "ErrenHooks", "PiaoPhase", "OpeningExchange"]


def _hand_json(t: Table, s: int) -> dict[str, Any]:
    """A 13-tile hand as the preset settlements read it (``concealed`` + ``melds``)."""
    rec = t._win_record(s, 0, "discard", None)["hand"]
    return {"concealed": rec["concealed"], "melds": rec["melds"]}


def _ready_actions(t: Table, seat: int) -> list[Action]:
    """``declare_ready`` for every legal discard after which the hand is ready (core decision)."""
    if t.hand_locked[seat] or t._opts is None:
        return []
    legal = set(t._opts[3])
    ready = flow_ready_discards(t.variant, t._seat_tuple(seat), seat, t.prevalent)
    return [Action.of(DECLARE_READY, seat, d) for d, _w in ready if d in legal]


class PiaoPhase(PrePhase):
    """漂: every seat declares an amount (``params.piao_choices``) before play."""

    name = "piao"

    def __init__(self, choices: list[int]) -> None:
        self.choices = choices

    def legal_actions(self, table: Table, seat: int) -> list[Action]:
        return [Action.of(DECLARE_PIAO, seat, c) for c in self.choices]

    def apply(self, table: Table, action: Action) -> None:
        assert isinstance(table.hooks, KawuxingHooks)
        table.hooks.piao[action.seat] = action.tile


def _piao_phase(v: Variant) -> PrePhase | None:
    if not v.options["piao"]:
        return None
    choices = v.describe()["params"].get("piao_choices") or [0]
    return PiaoPhase([int(c) for c in choices])


class KawuxingHooks(TableHooks):
    def __init__(self, v: Variant) -> None:
        self.mai_ma = str(v.options["mai_ma"])
        self.events: list[dict[str, Any]] = []
        self.declared: list[int] = []  # seats in the order they declared 亮倒
        self.waits: dict[int, list[int]] = {}
        self.piao: dict[int, int] = {}
        self.chain = 0
        self.aside: list[int] = []  # 买码 tiles
        self.forced = False
        self.playing: list[int] = []

    def setup(self, table: Table) -> None:
        table.pass_lock = str(table.variant.options["pass_win_lock"]) != "none"
        if table.n == 4:  # switch players = 4: the seat before the dealer rests this hand
            table.active[(table.dealer + 3) % 4] = False
        self.playing = [k for k in range(table.n) if table.active[k]]

    def forbidden(self, table: Table, seat: int) -> list[int]:
        if table.hand_locked[seat]:
            return []
        return sorted({x for s, w in self.waits.items() if s != seat for x in w})

    def turn_actions(self, table: Table, seat: int) -> list[Action]:
        return _ready_actions(table, seat)

    def declare(self, table: Table, seat: int, tile: int) -> None:
        table.hand_locked[seat] = True
        self.declared.append(seat)

    def on_discard(self, table: Table, seat: int, tile: int) -> None:
        if seat in self.declared and seat not in self.waits:
            self.waits[seat] = flow_waits(table.variant, table._seat_tuple(seat), seat, table.prevalent)
            table._event(
                {
                    "type": "liangdao",
                    "seat": seat,
                    "hand": [tile_name(k) for k in range(34) for _ in range(table.hands[seat][k])],
                    "waits": [tile_name(x) for x in self.waits[seat]],
                }
            )

    def on_kong(self, table: Table, seat: int, kind: str, feeder: int | None, chained: bool) -> None:
        self.chain = self.chain + 1 if chained and self.chain else 1
        e: dict[str, Any] = {"kind": "kong", "owner": SEAT_NAMES[seat], "type": kind, "chain": self.chain}
        if feeder is not None:
            e["feeder"] = SEAT_NAMES[feeder]
        self.events.append(e)

    def on_win(self, table: Table, w: int, t: int, win_type: str, discarder: int | None, opt: Any) -> None:
        rec = table._win_record(w, t, win_type, discarder)
        rec["kind"] = "win"
        rec["situation"]["liangdao"] = table.hand_locked[w]
        rec["liangdao"] = [SEAT_NAMES[k] for k in self.declared if k != w]
        if self.piao:
            rec["piao"] = {SEAT_NAMES[k]: a for k, a in self.piao.items()}
        self_drawn = win_type in ("self_draw", "kong_replacement")
        if self_drawn and (self.mai_ma == "self_draw" or (self.mai_ma == "liangdao_self_draw" and table.hand_locked[w])):
            m = table._take(True)
            if m is not None:
                self.aside.append(m)
                rec["mai_ma"] = tile_name(m)
                table._event({"type": "mai_ma", "tile": m})
        self.events.append(rec)

    def no_options(self, table: Table, seat: int) -> None:
        """K3 forced end: every tile of ``seat`` is a 亮倒 player's winning tile."""
        held = [tile_name(k) for k in range(34) for _ in range(table.hands[seat][k])]
        hands = {SEAT_NAMES[k]: _hand_json(table, k) for k in self.declared if set(self.waits.get(k, ())) & {
            x for x in range(34) if table.hands[seat][x]
        }}
        self.events.append({"kind": "forced_end", "payer": SEAT_NAMES[seat], "held": held, "liangdao_hands": hands})
        self.forced = True
        table._event({"type": "forced_end", "seat": seat})
        table._end()

    def held_tiles(self, table: Table) -> int:
        return len(self.aside)

    def settle(self, table: Table) -> None:
        from hupai.kawuxing import settle

        events = list(self.events)
        if not table.wins and not self.forced:  # 荒庄: 查叫 on the 13-tile hands
            events.append(
                {
                    "kind": "draw",
                    "players": {
                        SEAT_NAMES[k]: {"hand": _hand_json(table, k), "liangdao": table.hand_locked[k]}
                        for k in self.playing
                    },
                    "liangdao_order": [SEAT_NAMES[k] for k in self.declared],
                }
            )
        seats = [SEAT_NAMES[k] for k in self.playing]
        everyone = [SEAT_NAMES[k] for k in range(table.n)]
        for e in settle(seats, events, table.variant).events:
            table.settlement.record(e["kind"], [(n, int(e["deltas"].get(n, 0))) for n in everyone], reason=e["reason"])


class ErrenHooks(TableHooks):
    phases = ("haidi",)

    def __init__(self, v: Variant) -> None:
        flow = v.describe()["rules"].get("flow") or {}
        self.subset = int(flow.get("wall_subset", 71))
        self.haidi_draws = int(flow.get("haidi_phase_draws", 3))
        self.hua_count = int(v.options["hua_pai_count"])
        self.hua_pos: set[int] = set()
        self.hua: list[list[int]] = []
        self.offer_hua = False
        self.ready_since: list[int | None] = []
        self.declared: list[int] = []
        self.tian: set[int] = set()
        self.wins: list[dict[str, Any]] = []
        self.haidi_seat = -1
        self.haidi_left = 0
        self.haidi_tile = -1
        self.haidi_win: Any = None

    def setup(self, table: Table) -> None:
        full = table.wall
        table.wall, table.pool = full[: self.subset], full[self.subset :]
        table.tail = len(table.wall)
        self.hua_pos = set(table.rng.sample(range(len(table.wall)), min(self.hua_count, len(table.wall))))
        self.hua = [[0] * 34 for _ in range(table.n)]
        self.ready_since = [None] * table.n
        table._event({"type": "hua_pai", "tiles": sorted(table.wall[p] for p in self.hua_pos)})

    def on_draw(self, table: Table, seat: int, tile: int, pos: int) -> None:
        self.offer_hua = False
        if pos in self.hua_pos:
            self.hua[seat][tile] += 1

    def _held(self, table: Table, seat: int, k: int) -> int:
        n = table.hands[seat][k]
        for kind, t, _o, _kk in table.melds[seat]:
            if kind == "chow":
                n += 1 if t <= k < t + 3 else 0
            elif t == k:
                n += 4 if kind == "kong" else 3
        return n

    def flowers(self, table: Table, seat: int, extra_tile: int | None = None) -> int:
        return sum(self.hua[seat]) + (1 if extra_tile is not None and self.offer_hua else 0)

    def turn_actions(self, table: Table, seat: int) -> list[Action]:
        return _ready_actions(table, seat) if table.phase == "turn" else []

    def declare(self, table: Table, seat: int, tile: int) -> None:
        table.hand_locked[seat] = True
        self.declared.append(seat)
        # 天听: the dealer with his first discard, the other with his first draw discarded; no claim.
        first = not table.discards[seat] and not table._claim_made and not table._kongs
        if first and (seat == table.dealer or tile == table._drawn):
            self.tian.add(seat)
        table._event({"type": "bao_ting", "seat": seat, "tian_ting": seat in self.tian})

    def first_discard(self, table: Table, seat: int) -> bool:
        return seat == table.dealer and len(table.discards[seat]) == 1 and not table._claim_made and not table._kongs

    def ready_first_turn(self, table: Table) -> list[int]:
        return sorted(self.tian)

    def release(self, table: Table, seat: int, tile: int) -> bool:
        """``tile`` left the seat's hand: a face-up copy goes only when no ordinary one is left."""
        gone = self.hua[seat][tile] > self._held(table, seat, tile)
        if gone:
            self.hua[seat][tile] -= 1
        return gone

    def on_discard(self, table: Table, seat: int, tile: int) -> None:
        self.offer_hua = self.release(table, seat, tile)
        ready = bool(flow_waits(table.variant, table._seat_tuple(seat), seat, table.prevalent))
        if not ready:
            self.ready_since[seat] = None
        elif self.ready_since[seat] is None:
            self.ready_since[seat] = table.turns

    def on_claim(self, table: Table, seat: int, tile: int) -> None:
        if self.offer_hua:
            self.hua[seat][tile] += 1
            self.offer_hua = False

    def on_win(self, table: Table, w: int, t: int, win_type: str, discarder: int | None, opt: Any) -> None:
        haidi = table.phase == "haidi"
        rec = table._win_record(w, t, win_type, discarder)
        sit = rec["situation"]
        sit["flowers"] = self.flowers(table, w, t if discarder is not None else None)
        sit["ready_declared"] = table.hand_locked[w]
        sit["ready_first_turn"] = w in self.tian
        if haidi:
            sit["after_exhaustion"] = True
            sit["wall_last"] = False
        fans = {f[0] for f in opt[2]}
        if "TIAN_HE" in fans:
            sit["blessing"] = "heavenly"
        elif "REN_HE" in fans:
            sit["blessing"] = "human"
        elif "DI_HE" in fans:
            sit["blessing"] = "earthly"
        self.wins.append(rec)

    # ---------------------------------------------------------------- 海底捞月 phase
    def _ready(self, table: Table, seat: int) -> bool:
        return bool(flow_waits(table.variant, table._seat_tuple(seat), seat, table.prevalent))

    def on_exhausted(self, table: Table) -> bool:
        ready = [k for k in range(table.n) if self._ready(table, k)]
        if not ready:
            return False

        def order(k: int) -> tuple[int, int, int]:
            since = self.ready_since[k]
            bao = self.declared.index(k) if k in self.declared else len(self.declared)
            return (since if since is not None else table.turns + 1, bao, 0 if k == table.dealer else 1)

        self.haidi_seat = min(ready, key=order)
        self.haidi_left = self.haidi_draws
        table._event({"type": "haidi", "seat": self.haidi_seat})
        return self._haidi_draw(table)

    def _haidi_draw(self, table: Table) -> bool:
        k = self.haidi_seat
        if self.haidi_left <= 0 or not table.pool:
            table._end(exhausted=True)
            return True
        t = table.pool.pop(0)
        self.haidi_left -= 1
        table.hands[k][t] += 1
        table._event({"type": "draw", "seat": k, "haidi": True})
        opts = flow_turn(
            table.variant,
            table._seat_tuple(k),
            k,
            t,
            "self_draw",
            table.prevalent,
            False,
            True,
            None,
            False,
            0,
            False,
            after_exhaustion=True,
        )
        self.haidi_tile, self.haidi_win = t, opts[0]
        table.phase = "haidi"
        table.to_act = k
        table._drawn = t
        return True

    def legal_actions(self, table: Table, seat: int) -> list[Action]:
        if seat != self.haidi_seat:
            return []
        out = [Action.of(WIN, seat, self.haidi_tile)] if self.haidi_win is not None else []
        return out + [Action.of(DISCARD, seat, self.haidi_tile)]

    def apply(self, table: Table, action: Action) -> None:
        k, t = action.seat, action.tile
        table.hands[k][t] -= 1
        if action.kind == WIN:
            table._record_win(k, t, "self_draw", None, self.haidi_win)
            table._end()
        elif action.kind == DISCARD:
            table.discards[k].append(t)  # the miss goes out, unclaimable
            self._haidi_draw(table)
        else:  # pragma: no cover - legal_actions offers nothing else
            raise IllegalActionError(f"{action} in the 海底捞月 phase")

    def settle(self, table: Table) -> None:
        from hupai import settle_hand

        seats = [SEAT_NAMES[k] for k in range(table.n)]
        rec = {
            "seats": seats,
            "dealer": SEAT_NAMES[table.dealer],
            "events": [
                {"kind": "kong", "owner": k["owner"], "type": k["type"]} | ({"feeder": k["feeder"]} if "feeder" in k else {})
                for k in table._kongs
            ]
            + [{"kind": "win", **w} for w in self.wins],
        }
        for e in settle_hand(rec, table.variant).to_dict()["events"]:
            table.settlement.record(e["kind"], [(n, int(e["deltas"].get(n, 0))) for n in seats], reason=e["reason"])


class OpeningExchange(PrePhase):
    """二人麻将 开始时换牌 (see the module docstring)."""

    name = "exchange"

    def __init__(self) -> None:
        self.marked: list[int] = []
        self.closed: set[int] = set()

    def legal_actions(self, table: Table, seat: int) -> list[Action]:
        h = table.hands[seat]
        return [Action.of(PASS, seat)] + [Action(EXCHANGE, seat, -1, (k,)) for k in range(34) if h[k]]

    def apply(self, table: Table, action: Action) -> None:
        s = action.seat
        assert isinstance(table.hooks, ErrenHooks)
        if action.kind == EXCHANGE:
            t = action.tiles[0]
            table.hands[s][t] -= 1
            table.hooks.release(table, s, t)
            self.marked.append(t)
            return
        for _ in self.marked:
            table.hands[s][table.pool.pop(0)] += 1
        table.pool.extend(self.marked)
        table._event({"type": "exchange", "seat": s, "n": len(self.marked)})
        self.marked = []
        self.closed.add(s)

    def seat_done(self, seat: int) -> bool:
        return seat in self.closed

    def held_tiles(self) -> int:
        return len(self.marked)


register_pre_phase("kawuxing", _piao_phase)
register_pre_phase("erren", lambda v: OpeningExchange() if v.options["opening_exchange"] else None)
register_hooks("kawuxing", KawuxingHooks)
register_hooks("erren", ErrenHooks)
