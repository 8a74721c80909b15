"""武汉麻将 红中癞子杠 at the table: ``WuhanTable``, the ``Table`` of the ``wuhan`` preset
(registered with ``register_table_type``; ``Table("wuhan", ...)`` builds it).

Flow (shared/rules/wuhan.md; every rule decision is the core's ``wuhan_flow_turn`` /
``wuhan_flow_claims`` / ``wuhan_ready``, every payment the preset's ``settle_hand``):

* 136 tiles, deal 14/13; then the next wall tile is flipped face up (event ``flip``; out of
  play) and the 癞子 is its successor in the seed's cycle (``wuhan_laizi``: 1–9 per suit,
  E S W N F P skipping 红中; switches ``laizi_from_indicator``, ``pizi_set``).
* A held 痞子 (红中) or 癞子 leaves the hand only as a single-tile kong, action ``pizi_kong``
  (红中杠 / 癞子杠), followed by a replacement draw from the tail; nobody claims it. Once no kong is
  possible (live wall exhausted) it may be discarded as a dead tile.
* 吃 from the left, 碰, 冲杠, 暗杠, 蓄杠 (robbable) — never with a 痞子 or the 癞子. Wins only by the
  core scorer (开口, no 痞子 held, 258 pair, 癞子 wildcard, 硬胡/软胡, 大胡). 一炮单响: the first
  eligible seat from the discarder (``jiehu_order = from_dealer``: in seat order from the dealer).
  No 过水不胡 lock (漏胡 does not exist).
* Wall end: the last 10 tiles are never drawn; when 14 remain live play ends and each player in
  turn makes one 海底 draw (4 at most): self-draw win only (海底捞), no kong, no claim on the
  discard. No win → 荒庄, no payment.
* Settlement at the end of the hand: the win record (situation with ``wild_indicator``,
  ``hongzhong_kongs``, ``laizi_kongs``) and every seat's factors (``openings``, ``ming_gang``,
  ``an_gang``, ``hongzhong_gang``, ``laizi_gang``; the discarder's ``ready``; the winner's
  ``third_opening_from``) go to ``settle_hand`` and its events are booked in the table's ledger.
* Dealer rotation (the core's ``flow_next_hand``): ``result["next_dealer"]`` — the dealer stays after his win or 荒庄, otherwise the
  next seat in turn order (``dealer_next = shang_jia``: the previous one); ``Match`` follows it.
"""

from __future__ import annotations

from typing import Any

from hupai._core import flow_next_hand, wuhan_flow_claims, wuhan_flow_turn, wuhan_laizi, wuhan_ready
from hupai.game.actions import PIZI_KONG, Action, tile_name
from hupai.game.table import N, SEAT_NAMES, Table, register_table_type

__all__ = ["WuhanTable", "DEAD_WALL", "HAIDI_DRAWS"]

#: Tiles never drawn (5 stacks) and the 海底 draws before them.
DEAD_WALL = 10
HAIDI_DRAWS = 4


class WuhanTable(Table):
    """One hand of 武汉麻将 红中癞子杠 (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.indicator: int | None = None
        self.laizi: int | None = None
        #: Tiles each seat set aside as 痞子杠 / 癞子杠.
        self.pizi_tiles: list[list[int]] = [[] for _ in range(N)]
        #: Per seat ``[痞子杠, 癞子杠]`` made.
        self.pizi_kongs: list[list[int]] = [[0, 0] for _ in range(N)]
        self.haidi_draws = 0
        self._haidi = False
        self._pizi_opts: list[int] = []
        self._ready: dict[str, bool] = {}
        super().__init__(*args, **kwargs)

    # ------------------------------------------------------------------ wall
    def _reserve(self) -> int:
        return DEAD_WALL + HAIDI_DRAWS

    def _flip(self) -> None:
        t = self._take(False)
        if t is None:
            raise AssertionError("the wall is too short to flip the indicator")
        self.indicator = t
        self.laizi = wuhan_laizi(self.variant, t)
        self._event({"type": "flip", "tile": t, "laizi": self.laizi})

    def _draw_turn(self, seat: int) -> None:
        if self.live_remaining > 0:
            super()._draw_turn(seat)
            return
        # 海底: one draw per player in turn, self-draw wins only.
        if self.haidi_draws >= HAIDI_DRAWS or self.wall_remaining <= DEAD_WALL:
            self._exhaustive_draw()
            return
        self._haidi = True
        self.haidi_draws += 1
        self.win_locked[seat] = False
        self._last_kong = None
        t = self._draw(seat, False)
        assert t is not None
        self._event({"type": "draw", "seat": seat, "haidi": True})
        self._start_turn(seat, t, "self_draw")

    def tile_count(self) -> int:
        n = super().tile_count() + sum(len(p) for p in self.pizi_tiles)
        return n + (self.indicator is not None)

    # ------------------------------------------------------------------ core queries
    def _start_turn(self, seat: int, drawn: int | None, win_type: str) -> None:
        if self.indicator is None:
            self._flip()
        assert self.indicator is not None
        self.phase = "turn"
        self.to_act = seat
        self._drawn = drawn
        self._win_type = win_type
        win, ck, ak, discards, _, pk = wuhan_flow_turn(
            self.variant,
            self._seat_tuple(seat),
            (self.pizi_kongs[seat][0], self.pizi_kongs[seat][1]),
            seat,
            drawn,
            win_type,
            self.indicator,
            self._haidi,
            self.live_remaining == 0,
            False,
            self.prevalent,
        )
        self._opts = (win, ck, ak, discards, [], False)
        self._pizi_opts = pk
        self._drawn_once[seat] = True

    def _analysis(self, seat: int) -> list[tuple[int, int, int]]:
        if self.phase != "turn" or seat != self.to_act or self.indicator is None:
            return []
        return wuhan_flow_turn(
            self.variant,
            self._seat_tuple(seat),
            (self.pizi_kongs[seat][0], self.pizi_kongs[seat][1]),
            seat,
            None,
            "self_draw",
            self.indicator,
            self._haidi,
            True,
            True,
            self.prevalent,
        )[4]

    def _compute_legal(self, seat: int) -> list[Action]:
        out = super()._compute_legal(seat)
        if self.phase == "turn" and self._pizi_opts:
            out += [Action.of(PIZI_KONG, seat, t) for t in self._pizi_opts]
        return out

    def _turn_action(self, a: Action) -> None:
        if a.kind != PIZI_KONG:
            super()._turn_action(a)
            return
        s = a.seat
        self.hands[s][a.tile] -= 1
        self.pizi_tiles[s].append(a.tile)
        laizi = a.tile == self.laizi
        self.pizi_kongs[s][1 if laizi else 0] += 1
        self._event({"type": "pizi_kong", "seat": s, "tile": a.tile, "laizi": laizi})
        self._replacement(s, "pizi")

    def _offer(self, s: int, t: int, source: str) -> bool:
        assert self.indicator is not None
        resp = wuhan_flow_claims(
            self.variant,
            [self._seat_tuple(k) for k in range(N)],
            [(k[0], k[1]) for k in self.pizi_kongs],
            s,
            t,
            source,
            self.indicator,
            self._haidi,
            self.live_remaining == 0,
            self.prevalent,
        )
        if self.variant.options["jiehu_order"] == "from_dealer":
            order = [(self.dealer + k) % N for k in range(N) if (self.dealer + k) % N != s]
        else:
            order = [(s + k) % N for k in range(1, N)]
        return self._open_claim(s, t, source, resp, order)

    # ------------------------------------------------------------------ settlement
    def _win_record(self, w: int, t: int, win_type: str, discarder: int | None) -> dict[str, Any]:
        rec = super()._win_record(w, t, win_type, discarder)
        sit = rec["situation"]
        assert self.indicator is not None
        sit["wild_indicator"] = tile_name(self.indicator)
        sit["hongzhong_kongs"] = self.pizi_kongs[w][0]
        sit["laizi_kongs"] = self.pizi_kongs[w][1]
        sit["wall_last"] = self._haidi and win_type in ("self_draw", "kong_replacement")
        if discarder is not None:
            ready = wuhan_ready(self.variant, self._seat_tuple(discarder), self.indicator)
            self._ready[SEAT_NAMES[discarder]] = bool(ready)
        return rec

    def _factors(self, k: int) -> dict[str, Any]:
        """The seat's factors as ``settle_hand`` reads them, and the source of its third opening."""
        d: dict[str, Any] = {"openings": 0, "ming_gang": 0, "an_gang": 0,
                             "hongzhong_gang": self.pizi_kongs[k][0], "laizi_gang": self.pizi_kongs[k][1]}
        sources: list[int] = []
        for kind, _tile, off, kk in self.melds[k]:
            if kind == "kong" and kk == "concealed":
                d["an_gang"] += 1
                continue
            d["openings"] += 1
            if kind == "kong":
                d["ming_gang"] += 1
            sources.append((k - 1) % N if kind == "chow" else (k - off) % N)
        if len(sources) >= 3:
            d["third_opening_from"] = SEAT_NAMES[sources[2]]
        return d

    def _settle_regional(self) -> None:
        from hupai import settle_hand

        seats = [SEAT_NAMES[k] for k in range(N)]
        seat_data: dict[str, dict[str, Any]] = {n: {"ready": r} for n, r in self._ready.items()}
        winners = {r["winner"] for r in self._win_records}
        for k in range(N):
            f = self._factors(k)
            if seats[k] not in winners:
                f.pop("third_opening_from", None)
            seat_data.setdefault(seats[k], {}).update(f)
        rec = {"seats": seats, "dealer": SEAT_NAMES[self.dealer], "seat_data": seat_data,
               "events": [{"kind": "win", **w} for w in self._win_records]}
        events = settle_hand(rec, self.variant).events
        for e in events:
            self.settlement.record(e["kind"], [(n, int(e["deltas"].get(n, 0))) for n in seats], reason=e["reason"])

    def _end(self, exhausted: bool = False) -> None:
        super()._end(exhausted)
        assert self.result is not None
        # The core's rotation rule (dealer stays after his win or 荒庄; switch ``dealer_next``).
        self.result["next_dealer"] = flow_next_hand(self.variant, self.dealer, list(self.result["winners"]))[0]


register_table_type("wuhan", WuhanTable)
