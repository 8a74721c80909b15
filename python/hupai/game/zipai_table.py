"""字牌 game flow (spec ``shared/rules/zipai.md`` §3, §5): a 3-player table, bots, log and replay.

Every rule decision comes from the Rust core: ``zipai.claims`` (what a player may / must do with
a card: 胡, 扫穿, 扫, 过扫, 开舵, 碰, 吃 with its 下比 groups, 臭 per action), ``zipai.discard_check``
(legal discards and 相公), ``zipai.is_sanlong_wukan``, ``zipai.score`` (the settlement of a win) and
``zipai.next_dealer`` (between the hands of a :class:`ZipaiMatch`). This module only orders the
claims (扫穿/扫 > 胡 > 开舵/碰 > 吃, seat order), asks the agents, keeps the 臭牌 / passed-碰
bookkeeping and the card locations, records the payments in a ``hupai.Settlement`` ledger, and logs.

Agents are callables ``agent(obs, legal) -> action`` where ``legal`` is a list of action dicts
(``{"type": "hu"|"pass"|"peng"|"chi"|"discard", ...}``) and the result is one of them.

The log is a list of JSON-ready records: ``start`` (variant, switches, seed, dealer), ``deal``,
``draw``, ``action`` (every agent decision, with the index chosen), the forced moves (``sao``,
``saochuan``, ``kaiduo``…), ``win`` / ``exhausted`` and ``settle``. :func:`replay` rebuilds the table
from the start record, re-applies the recorded decisions and checks the rebuilt log is identical.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from hupai import zipai
from hupai._core import Settlement, Variant
from hupai.errors import RuleConfigError
from hupai.game.actions import IllegalActionError, ReplayError

__all__ = ["ZipaiTable", "ZipaiMatch", "ZipaiRandomBot", "ZipaiGreedyBot", "make_zipai_agent", "replay", "ALL_CARDS", "JOKER", "deck"]

N_PLAYERS = 3
KINDS = [f"x{i}" for i in range(1, 11)] + [f"d{i}" for i in range(1, 11)]
ALL_CARDS: list[str] = [k for k in KINDS for _ in range(4)]
JOKER = "K"


def deck(jokers: int = 0) -> list[str]:
    """The deck in index order: 80 cards, then ``jokers`` jokers (``"K"``, switch ``jokers``)."""
    return ALL_CARDS + [JOKER] * jokers

Agent = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]]


class _Player:
    def __init__(self) -> None:
        self.hand: Counter[str] = Counter()  # concealed cards (incl. 坎 and dealt 扫穿)
        self.melds: list[dict[str, Any]] = []  # {"type", "tiles"}
        self.chou: set[str] = set()  # kinds 臭 for 吃 or 碰 (either)
        self.chou_chi: set[str] = set()
        self.chou_peng: set[str] = set()
        self.passed_peng: set[str] = set()
        self.fours = 0  # 4-card groups made or dealt (重舵: the second and later skip the discard)
        self.river: list[str] = []  # untaken drawn / discarded cards placed in front of him
        self.dead = False  # 相公 (decided by the core): no further claims or wins

    def concealed(self) -> list[str]:
        return [k for k in KINDS for _ in range(self.hand[k])] + [JOKER] * self.hand[JOKER]

    def n_cards(self) -> int:
        return sum(self.hand.values()) + sum(len(m["tiles"]) for m in self.melds) + len(self.river)

    def view(self) -> dict[str, Any]:
        return {
            "hand": self.concealed(),
            "melds": [dict(m, tiles=list(m["tiles"])) for m in self.melds],
            "chou": sorted(self.chou),
            "passed_peng": sorted(self.passed_peng),
            "river": list(self.river),
        }


class ZipaiTable:
    """One hand of 字牌 for 3 players (dealer 21 cards, others 20; 19 in the wall)."""

    def __init__(self, variant: Variant | str = "zipai_guilin", *, seed: int = 0, dealer: int = 0) -> None:
        self.variant = variant if isinstance(variant, Variant) else Variant.load(variant)
        if not self.variant.id.startswith("zipai"):
            raise RuleConfigError(f"ZipaiTable needs a zipai variant, got {self.variant.id!r}")
        if not 0 <= dealer < N_PLAYERS:
            raise RuleConfigError(f"dealer must be 0..2, got {dealer}")
        self.opts = self.variant.options
        self.seed = seed
        self.dealer = dealer
        self.players = [_Player() for _ in range(N_PLAYERS)]
        rng = random.Random(seed)
        self.wall = deck(int(self.opts.get("jokers", 0)))
        rng.shuffle(self.wall)
        self.position = False  # a table built by from_position (card counts not checked)
        self.log: list[dict[str, Any]] = [
            {"type": "start", "variant": self.variant.id, "options": dict(self.opts), "seed": seed, "dealer": dealer}
        ]
        self.result: dict[str, Any] | None = None
        self._agents: Sequence[Agent] = ()
        self._on_step: Callable[[ZipaiTable], None] | None = None
        self.first_discard = True

    # -- bookkeeping ---------------------------------------------------------------------------

    def card_count(self) -> Counter[str]:
        """Every card's location counted: hands + melds + rivers + wall (+ the card in play)."""
        c: Counter[str] = Counter(self.wall)
        for p in self.players:
            c.update(p.hand)
            for m in p.melds:
                c.update(m["tiles"])
            c.update(p.river)
        if self._in_play is not None:
            c[self._in_play] += 1
        return c

    _in_play: str | None = None

    def _emit(self, rec: dict[str, Any]) -> None:
        self.log.append(rec)
        if self._on_step is not None:
            self._on_step(self)

    def _obs(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "dealer": self.dealer,
            "me": self.players[seat].view(),
            "melds": [[dict(m, tiles=list(m["tiles"])) for m in p.melds if m["type"] not in ("sao", "saochuan")] for p in self.players],
            "rivers": [list(p.river) for p in self.players],
            "wall": len(self.wall),
            "variant": self.variant,
        }

    def _ask(self, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
        choice = self._agents[seat](self._obs(seat), legal)
        if choice not in legal:
            raise IllegalActionError(f"seat {seat} chose an illegal action {choice!r}")
        self._emit({"type": "action", "seat": seat, "index": legal.index(choice), "action": choice})
        return choice

    def _claims(self, seat: int, card: str, source: str, may_chi: bool) -> dict[str, Any]:
        p = self.players[seat]
        if p.dead:
            return {"hu": None, "saochuan": False, "sao": False, "guosao": False, "kaiduo": False, "peng": False, "chi": []}
        res: dict[str, Any] = zipai.claims(
            p.concealed(),
            card,
            p.melds,
            source=source,
            may_chi=may_chi,
            chou_chi=card in p.chou_chi,
            chou_peng=card in p.chou_peng,
            passed_peng=sorted(p.passed_peng) or None,
            variant=self.variant,
        )
        return res

    # -- moves -----------------------------------------------------------------------------------

    def _take_four(self, seat: int, card: str, ty: str) -> None:
        """扫穿 / 开舵 onto a 坎 (concealed), 扫 / 过扫 or 碰 (meld) of ``card``."""
        p = self.players[seat]
        if p.hand[card] == 3:
            p.hand[card] = 0
        else:
            m = next(m for m in p.melds if m["tiles"][0] == card and m["type"] in ("sao", "guosao", "peng"))
            p.melds.remove(m)
        p.melds.append({"type": ty, "tiles": [card] * 4})
        p.fours += 1
        self._in_play = None
        self._emit({"type": ty, "seat": seat, "card": card})

    def _next_after_claim(self, seat: int, made_four: bool) -> int | None:
        """Discard after a claim (not after 重舵); returns the seat that draws next, or None (win)."""
        p = self.players[seat]
        if made_four and p.fours >= 2:
            self._emit({"type": "zhongduo", "seat": seat})
            return (seat + 1) % N_PLAYERS
        return self._discard(seat)

    def _discard(self, seat: int) -> int | None:
        p = self.players[seat]
        if p.dead:
            return (seat + 1) % N_PLAYERS
        # The core decides the legal discards and 相公 (wrong card count / nothing to discard).
        chk = zipai.discard_check(p.concealed(), p.melds, check_count=not self.position)
        if chk["xianggong"] is not None:
            p.dead = True
            self._emit({"type": "xianggong", "seat": seat, "reason": chk["xianggong"]})
            return (seat + 1) % N_PLAYERS
        legal = [{"type": "discard", "card": k} for k in chk["discards"]]
        card = self._ask(seat, legal)["card"]
        p.hand[card] -= 1
        self._in_play = card
        self._emit({"type": "discard", "seat": seat, "card": card})
        src = "dihu" if self.first_discard else "discard"
        self.first_discard = False
        return self._offer_discard(seat, card, src)

    def _offer_discard(self, d: int, card: str, win_type: str) -> int | None:
        order = [(d + 1) % N_PLAYERS, (d + 2) % N_PLAYERS]
        cl = {s: self._claims(s, card, "discard", may_chi=(s == order[0])) for s in order}
        # 胡: 放炮必胡 (mandatory, first in turn order; switch bi_hu)
        for s in order:
            if cl[s]["hu"] is not None:
                if self.opts.get("bi_hu", "dianpao") in ("dianpao", "any"):
                    self._emit({"type": "bi_hu", "seat": s, "card": card})
                    self._win(s, card, win_type, discarder=d)
                    return None
                if self._ask(s, [{"type": "hu"}, {"type": "pass"}])["type"] == "hu":
                    self._win(s, card, win_type, discarder=d)
                    return None
        # 开舵 (mandatory)
        for s in order:
            if cl[s]["kaiduo"]:
                self._take_four(s, card, "kaiduo")
                return self._next_after_claim(s, True)
        # 碰 (optional) then 吃 (下家 only)
        for s in order:
            if cl[s]["peng"]:
                if self._peng_offer(s, card):
                    return self._next_after_claim(s, False)
        s = order[0]
        if cl[s]["chi"] and self._chi_offer(s, card, cl[s]["chi"]):
            return self._next_after_claim(s, False)
        self.players[d].river.append(card)
        self._in_play = None
        self._emit({"type": "untaken", "seat": d, "card": card})
        return (d + 1) % N_PLAYERS

    def _mark_chou(self, seat: int, card: str, peng: bool) -> None:
        p = self.players[seat]
        p.chou.add(card)
        both = self.opts.get("chou_scope", "both") == "both"
        if peng or both:
            p.chou_peng.add(card)
        if not peng or both:
            p.chou_chi.add(card)
        if peng:
            p.passed_peng.add(card)
        self._emit({"type": "chou", "seat": seat, "card": card})

    def _peng_offer(self, s: int, card: str) -> bool:
        if self._ask(s, [{"type": "peng", "card": card}, {"type": "pass"}])["type"] == "peng":
            p = self.players[s]
            p.hand[card] -= 2
            p.melds.append({"type": "peng", "tiles": [card] * 3})
            self._in_play = None
            return True
        self._mark_chou(s, card, peng=True)
        return False

    def _chi_offer(self, s: int, card: str, options: list[dict[str, Any]]) -> bool:
        legal = [{"type": "chi", "card": card, "group": o["group"], "bi": o["bi"]} for o in options]
        legal.append({"type": "pass"})
        a = self._ask(s, legal)
        if a["type"] == "pass":
            self._mark_chou(s, card, peng=False)
            return False
        p = self.players[s]
        g = list(a["group"])
        g.remove(card)
        for c in g:
            p.hand[c] -= 1
        p.melds.append({"type": "chi", "tiles": list(a["group"])})
        for b in a["bi"]:  # 下比: the 比 groups come from the hand
            for c in b:
                p.hand[c] -= 1
            p.melds.append({"type": "chi", "tiles": list(b)})
        self._in_play = None
        return True

    def _must_win_on_draw(self) -> bool:
        return bool(self.opts.get("must_win_on_draw", False)) or self.opts.get("bi_hu") == "any"

    def _joker_drawn(self, seat: int) -> int | None:
        """A drawn joker joins the drawer's hand (nobody may claim it); he may win with it (自摸),
        else he discards as after a claim (gap-fill, docs/zipai.md)."""
        p = self.players[seat]
        p.hand[JOKER] += 1
        self._in_play = None
        self._emit({"type": "joker", "seat": seat})
        if p.dead:
            return (seat + 1) % N_PLAYERS
        h = zipai.huxi(p.concealed(), None, p.melds, win_type="self_draw", passed_peng=sorted(p.passed_peng) or None, variant=self.variant)
        if h is not None and h >= int(self.opts["min_huxi"]):
            if self._must_win_on_draw():
                self._emit({"type": "bi_hu", "seat": seat, "card": JOKER})
                self._win(seat, None, "self_draw")
                return None
            if self._ask(seat, [{"type": "hu"}, {"type": "pass"}])["type"] == "hu":
                self._win(seat, None, "self_draw")
                return None
        return self._discard(seat)

    def _draw_turn(self, seat: int) -> int | None:
        card = self.wall.pop(0)
        self._in_play = card
        self._emit({"type": "draw", "seat": seat, "card": card, "left": len(self.wall)})
        if card == JOKER:
            return self._joker_drawn(seat)
        order = [seat, (seat + 1) % N_PLAYERS, (seat + 2) % N_PLAYERS]
        own = self._claims(seat, card, "self_draw", may_chi=True)
        # 1. mandatory 扫穿 / 扫 / 过扫 (the drawer may win with it: 自摸)
        if own["saochuan"] or own["sao"] or own["guosao"]:
            if own["hu"] is not None and self._ask(seat, [{"type": "hu"}, {"type": "pass"}])["type"] == "hu":
                self._win(seat, card, "self_draw")
                return None
            p = self.players[seat]
            if own["saochuan"]:
                self._take_four(seat, card, "saochuan")
                return self._next_after_claim(seat, True)
            ty = "guosao" if own["guosao"] else "sao"
            p.hand[card] -= 2
            p.melds.append({"type": ty, "tiles": [card] * 3})
            self._in_play = None
            self._emit({"type": ty, "seat": seat, "card": card})
            return self._next_after_claim(seat, False)
        cl = {seat: own}
        for s in order[1:]:
            cl[s] = self._claims(s, card, "other_draw", may_chi=(s == order[1]))
        # 2. 胡 (optional unless must_win_on_draw), drawer first
        for s in order:
            if cl[s]["hu"] is not None:
                wt = "self_draw" if s == seat else "other_draw"
                if self._must_win_on_draw():
                    self._emit({"type": "bi_hu", "seat": s, "card": card})
                    self._win(s, card, wt)
                    return None
                if self._ask(s, [{"type": "hu"}, {"type": "pass"}])["type"] == "hu":
                    self._win(s, card, wt)
                    return None
        # 3. 开舵 (mandatory), 碰 (optional)
        for s in order:
            if cl[s]["kaiduo"]:
                self._take_four(s, card, "kaiduo")
                return self._next_after_claim(s, True)
        for s in order[1:]:
            if cl[s]["peng"] and self._peng_offer(s, card):
                return self._next_after_claim(s, False)
        # 4. 吃: drawer, then his 下家
        for s in order[:2]:
            if cl[s]["chi"] and self._chi_offer(s, card, cl[s]["chi"]):
                return self._next_after_claim(s, False)
        self.players[seat].river.append(card)
        self._in_play = None
        self._emit({"type": "untaken", "seat": seat, "card": card})
        return (seat + 1) % N_PLAYERS

    def _win(self, seat: int, card: str | None, win_type: str, discarder: int | None = None) -> None:
        p = self.players[seat]
        haidi = not self.wall and win_type in ("self_draw", "other_draw")
        sit: dict[str, Any] = {
            "concealed": p.concealed(),
            "win_card": card,
            "melds": p.melds,
            "win_type": win_type,
            "haidi": haidi,
            "players": N_PLAYERS,
            "seat": seat,
            "dealer": self.dealer,
            "flips": [] if haidi else list(self.wall),
        }
        if discarder is not None:
            sit["discarder"] = discarder
        if p.passed_peng:
            sit["passed_peng"] = sorted(p.passed_peng)
        s = zipai.score(sit, self.variant)
        if not s.meets_minimum:  # the core said 胡 in claims; a disagreement is an engine bug
            raise RuntimeError(f"claims/score disagree on {sit}")
        # the winning card joins the winner's hand
        if card is not None:
            p.hand[card] += 1
            self._in_play = None
        pays = [{"from": x["payer"], "to": x["payee"], "amount": x["amount"]} for x in s.payments]
        duo = s.extras["duo"]
        self._emit({"type": "win", "seat": seat, "card": card, "win_type": win_type, "huxi": s.total, "duo": duo, "payments": pays})
        self._settle(list(s.net), pays, seat, win_type)

    def _settle(self, net: list[int], payments: list[dict[str, Any]], winner: int | None, reason: str = "") -> None:
        """The core's payments, one ledger event per payer (``hupai.Settlement`` enforces zero-sum
        per event); the balances are the ledger's, checked against the core's net result."""
        ledger = Settlement([str(k) for k in range(N_PLAYERS)])
        for pay in payments:
            ledger.record(
                "WIN",
                [(str(pay["from"]), -int(pay["amount"])), (str(pay["to"]), int(pay["amount"]))],
                reason=f"zipai {reason}: seat {pay['from']} pays seat {pay['to']}",
            )
        ledger.end_hand()
        bal = ledger.balances
        balances = [int(bal[str(k)]) for k in range(N_PLAYERS)]
        if balances != [int(v) for v in net]:  # the core's payments and net result disagree
            raise RuntimeError(f"ledger {balances} differs from the core's net {net}")
        self._emit({"type": "settle", "net": balances})
        self.result = {
            "winner": winner,
            "exhausted": winner is None,
            "balances": balances,
            "payments": payments,
            "ledger": ledger.events,
            "win": next((r for r in self.log if r["type"] == "win"), None),
            "turns": sum(1 for r in self.log if r["type"] in ("draw", "discard")),
        }

    # -- run -------------------------------------------------------------------------------------

    def run(self, agents: Sequence[Agent], on_step: Callable[[ZipaiTable], None] | None = None) -> dict[str, Any]:
        """Play the hand to the end; returns ``{winner, exhausted, balances, payments, win, turns}``."""
        if len(agents) != N_PLAYERS:
            raise RuleConfigError("a zipai table needs 3 agents")
        if self.result is not None:
            raise RuleConfigError("this table has already been played")
        self._agents = agents
        self._on_step = on_step
        for k in range(N_PLAYERS):  # deal: dealer 21, others 20
            s = (self.dealer + k) % N_PLAYERS
            n = 21 if s == self.dealer else 20
            if s == self.dealer:
                dangdi = self.wall[n - 1]  # 挡底: the dealer's 21st card, shown to everybody
            self.players[s].hand.update(self.wall[:n])
            del self.wall[:n]
        for s, p in enumerate(self.players):
            p.fours = sum(1 for k in KINDS if p.hand[k] == 4)
            self._emit({"type": "deal", "seat": s, "cards": p.concealed()})
            for _ in range(max(0, p.fours - 1)):  # 起手2扫穿: one extra card per extra four
                c = self.wall.pop(0)
                p.hand[c] += 1
                self._emit({"type": "extra_card", "seat": s, "card": c})
        self._emit({"type": "dangdi", "seat": self.dealer, "card": dangdi})
        if self.opts.get("sanlong_wukan", False):  # 三龙五坎 wins at once (dealer first)
            for k in range(N_PLAYERS):
                s = (self.dealer + k) % N_PLAYERS
                if zipai.is_sanlong_wukan(self.players[s].concealed()):
                    self._emit({"type": "sanlong_wukan", "seat": s})
                    self._win(s, None, "sanlong")
                    return self.result  # type: ignore[return-value]
        d = self.players[self.dealer]
        t = zipai.huxi(d.concealed(), None, d.melds, win_type="tianhu", variant=self.variant)
        if t is not None and t >= int(self.opts["min_huxi"]):
            if self._ask(self.dealer, [{"type": "hu"}, {"type": "pass"}])["type"] == "hu":
                self._win(self.dealer, None, "tianhu")
                return self.result  # type: ignore[return-value]
        return self._loop(self._discard(self.dealer))

    def _loop(self, nxt: int | None) -> dict[str, Any]:
        while nxt is not None:
            if not self.wall:
                self._emit({"type": "exhausted"})
                self._settle([0] * N_PLAYERS, [], None)
                break
            nxt = self._draw_turn(nxt)
        assert self.result is not None
        return self.result

    # -- positions (tests, analysis) -------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        variant: Variant | str,
        hands: Sequence[str | Sequence[str]],
        wall: str | Sequence[str],
        *,
        melds: Sequence[Sequence[tuple[str, str]]] | None = None,
        dealer: int = 0,
    ) -> ZipaiTable:
        """A table in the middle of a hand: concealed ``hands`` and ``melds`` (``(type, cards)``)
        per seat and the remaining ``wall`` (top first); continue with :meth:`play_draw` or
        :meth:`play_discard`. Card counts are not checked against the 80-card deck."""
        t = cls(variant, dealer=dealer)
        if len(hands) != N_PLAYERS:
            raise RuleConfigError("a zipai position needs 3 hands")
        t.wall = _cards(wall) if wall else []
        for s, h in enumerate(hands):
            p = t.players[s]
            p.hand = Counter(_cards(h)) if h else Counter()
            for ty, cards in (melds[s] if melds else []):
                p.melds.append({"type": ty, "tiles": [str(c) for c in zipai.parse_cards(cards)]})
            p.fours = sum(1 for m in p.melds if len(m["tiles"]) == 4) + sum(1 for k in KINDS if p.hand[k] == 4)
        t.first_discard = False
        t.position = True
        t.log.append({"type": "position", "hands": [p.view() for p in t.players], "wall": list(t.wall)})
        return t

    def play_draw(self, seat: int, agents: Sequence[Agent]) -> dict[str, Any]:
        """Continue a position: ``seat`` draws the top wall card; play to the end of the hand."""
        self._agents = agents
        return self._loop(seat)

    def play_discard(self, seat: int, card: str, agents: Sequence[Agent]) -> dict[str, Any]:
        """Continue a position: ``seat`` discards ``card`` from his hand; play to the end."""
        self._agents = agents
        p = self.players[seat]
        if not 0 < p.hand[card] < 3:
            raise RuleConfigError(f"seat {seat} cannot discard {card}")
        p.hand[card] -= 1
        self._in_play = card
        self._emit({"type": "discard", "seat": seat, "card": card})
        return self._loop(self._offer_discard(seat, card, "discard"))


def _cards(cards: str | Sequence[str]) -> list[str]:
    """Card codes in order; a list may hold jokers ``"K"`` (a string may not: it is parsed as cards)."""
    if isinstance(cards, str):
        return [str(c) for c in zipai.parse_cards(cards)]
    return [JOKER if c == JOKER else str(zipai.Card(c)) for c in cards]


class ZipaiMatch:
    """Several hands in a row at one table: the dealer of each hand comes from the core
    (``zipai.next_dealer``: the winner; after a 荒庄 the same dealer, or his 下家 with
    ``dealer_after_draw="next"``), balances add up. Hand ``k`` is dealt with seed
    ``seed * 1_000_003 + k`` (deterministic)."""

    def __init__(self, variant: Variant | str = "zipai_guilin", *, seed: int = 0, dealer: int = 0) -> None:
        self.variant = variant if isinstance(variant, Variant) else Variant.load(variant)
        if not 0 <= dealer < N_PLAYERS:
            raise RuleConfigError(f"dealer must be 0..2, got {dealer}")
        self.seed = seed
        self.dealer = dealer
        self.tables: list[ZipaiTable] = []
        self.totals = [0] * N_PLAYERS

    def play(self, agents: Sequence[Agent], hands: int) -> dict[str, Any]:
        """Play ``hands`` more hands; returns ``{dealers, winners, totals}`` over all hands so far."""
        if hands < 0:
            raise RuleConfigError(f"hands must be >= 0, got {hands}")
        for _ in range(hands):
            k = len(self.tables)
            t = ZipaiTable(self.variant, seed=self.seed * 1_000_003 + k, dealer=self.dealer)
            res = t.run(agents)
            self.tables.append(t)
            self.totals = [a + int(b) for a, b in zip(self.totals, res["balances"], strict=True)]
            self.dealer = zipai.next_dealer(self.dealer, res["winner"], self.variant)
        return {
            "dealers": [t.dealer for t in self.tables],
            "winners": [t.result["winner"] if t.result else None for t in self.tables],
            "totals": list(self.totals),
        }


# ---------------------------------------------------------------------------------------------
# bots


class ZipaiRandomBot:
    """Uniformly random legal action (seeded)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, obs: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return legal[self.rng.randrange(len(legal))]


class ZipaiGreedyBot:
    """Always wins; takes 碰 and 胡息-scoring 吃; discards the card whose removal keeps the best
    waits (胡息 of the completions, from the core), then the most isolated card."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, obs: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        types = {a["type"] for a in legal}
        if "hu" in types:
            return next(a for a in legal if a["type"] == "hu")
        if "peng" in types:
            return next(a for a in legal if a["type"] == "peng")
        if "chi" in types:
            v = obs["variant"]
            best = max(
                (a for a in legal if a["type"] == "chi"),
                key=lambda a: sum(zipai.group_huxi("chi", g, v) for g in [a["group"], *a["bi"]]),
            )
            if sum(zipai.group_huxi("chi", g, obs["variant"]) for g in [best["group"], *best["bi"]]) > 0:
                return best
            return next(a for a in legal if a["type"] == "pass")
        if "discard" in types:
            return self._discard(obs, legal)
        return legal[0]

    def _discard(self, obs: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        hand = Counter(obs["me"]["hand"])
        melds = obs["me"]["melds"]

        def key(a: dict[str, Any]) -> tuple[int, int, float]:
            c = a["card"]
            rest = hand.copy()
            rest[c] -= 1
            cards = [k for k in KINDS for _ in range(rest[k])] + [JOKER] * rest[JOKER]
            ws = zipai.waits(cards, melds, win_type="discard", variant=obs["variant"], reach_min=False)
            best = max((h for _c, h in ws), default=-1)
            i = KINDS.index(c)
            near = sum(hand[KINDS[j]] for j in range(i - 2, i + 3) if 0 <= j < 20 and j // 10 == i // 10 and j != i)
            near += hand[KINDS[(i + 10) % 20]]  # 大小三搭 partner
            return (best, len(ws), -near - 2 * (hand[c] - 1) + self.rng.random() * 0.1)

        return max(legal, key=key)


def make_zipai_agent(name: str, seed: int) -> Agent:
    if name == "random":
        return ZipaiRandomBot(seed)
    if name == "greedy":
        return ZipaiGreedyBot(seed)
    raise RuleConfigError(f"unknown zipai agent {name!r} (random, greedy)")


# ---------------------------------------------------------------------------------------------
# replay


class _Scripted:
    def __init__(self, seat: int, choices: list[int]) -> None:
        self.seat = seat
        self.choices = choices
        self.i = 0

    def __call__(self, obs: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        if self.i >= len(self.choices):
            raise ReplayError(f"seat {self.seat}: the log has no more decisions")
        k = self.choices[self.i]
        self.i += 1
        if not 0 <= k < len(legal):
            raise ReplayError(f"seat {self.seat}: recorded choice {k} is not legal here")
        return legal[k]


def replay(log: Sequence[dict[str, Any]]) -> ZipaiTable:
    """Rebuild a hand from its log and check the rebuilt log is identical (``ReplayError``)."""
    if not log or log[0].get("type") != "start":
        raise ReplayError("a log starts with a 'start' record")
    st = log[0]
    try:
        base = Variant.load(st["variant"])
        changed = {k: v for k, v in st.get("options", {}).items() if base.options.get(k) != v}
        v = base.with_options(**changed) if changed else base
        t = ZipaiTable(v, seed=int(st["seed"]), dealer=int(st.get("dealer", 0)))
    except (KeyError, TypeError, ValueError) as e:
        raise ReplayError(f"bad start record: {e}") from None
    choices: list[list[int]] = [[] for _ in range(N_PLAYERS)]
    for r in log:
        if r.get("type") == "action":
            choices[int(r["seat"])].append(int(r["index"]))
    t.run([_Scripted(s, choices[s]) for s in range(N_PLAYERS)])
    if [dict(r) for r in t.log] != [dict(r) for r in log]:
        raise ReplayError("the replayed log differs from the recorded one")
    return t


def play_zipai_game(variant: Variant, agents: Sequence[str], seed: int, dealer: int, keep_log: bool = False) -> tuple[ZipaiTable, dict[str, Any]]:
    bots = [make_zipai_agent(agents[k], seed * 4 + k) for k in range(N_PLAYERS)]
    t = ZipaiTable(variant, seed=seed, dealer=dealer)
    return t, t.run(bots)
