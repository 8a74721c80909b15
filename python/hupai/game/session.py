"""A person at the table: ``PlaySession`` (one seat against the built-in bots) and ``board`` (what a
page or a terminal draws of a table), shared by ``hupai play --human`` and the play / replay pages
of ``hupai serve``.

Nothing here decides a rule: the table (``hupai.Table``, the core) deals, offers the legal actions,
runs the bots between the person's decisions (``Table.advance``) and settles the hand. This module
only turns the table's public state into plain JSON — seat names, piece names and their Chinese
names from the core, the legal actions with labels — and keeps the person's choices.

>>> s = PlaySession("sichuan", human=0, seed=3)
>>> while not s.done:
...     _ = s.act(0)                       # the first legal action each time
>>> sum(s.table.balances)                  # the zero-sum ledger of the hand
0
>>> b = s.board()
>>> b["done"], len(b["seats"]), b["result"] is not None
(True, 4, True)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hupai._core import (
    analyse,
    Action,
    Event,
    Table,
    Variant,
    format_tiles,
    game_seed,
    seat_names,
    table_seats,
    zipai_format_cards,
)
from hupai.errors import HupaiError, RuleConfigError
from hupai.game.actions import TILE_NAMES
from hupai.game.agents import AGENTS, make_agent

__all__ = ["PlaySession", "board", "replay_steps", "piece_zh", "card_names", "card_words", "seat_labels", "KIND_ZH", "action_label", "event_text"]

#: Chinese names of the action kinds (labels only; which actions are legal is the core's).
KIND_ZH: dict[str, str] = {
    "discard": "打",
    "win": "胡",
    "pass": "过",
    "pung": "碰",
    "kong": "杠",
    "chow": "吃",
    "concealed_kong": "暗杠",
    "added_kong": "补杠",
    "exchange": "换牌",
    "declare_void": "定缺",
    "declare_ting": "报听",
    "declare_ready": "报听",
    "declare_pao_zi": "下炮子",
    "declare_piao": "漂",
    "escape": "逃跑",
    "auto_play": "托管",
    "bid": "叫分",
    "play": "出牌",
    "call": "叫地主",
    "rob": "抢地主",
    "show": "明牌",
    "yield": "让牌",
    "revolt": "革命",
    "head": "要头",
    "xuan_dian": "宣点",
    "return": "还贡",
    "open": "开牌",
    "lay": "接牌",
    "kou": "扣牌",
}

#: Event types worth a line in a caption, in Chinese (a declaration or a kong shows as its action).
_EVENT_ZH: dict[str, str] = {
    "draw": "摸牌",
    "flower": "补花",
    "win": "胡",
    "wall_empty": "荒庄",
    "exhausted": "荒庄",
    "gen_zhuang": "跟庄",
    "mai_ma": "买码",
    "flip": "翻癞子",
    "pizi_kong": "痞子杠",
    "exchange_done": "换三张",
    "sao": "扫",
    "saochuan": "扫穿",
    "guosao": "过扫",
    "kaiduo": "开舵",
    "chou": "臭牌",
    "xianggong": "相公",
    "kong_abort": "流局",
}

#: How a win was taken, in Chinese (labels of the core's ``win_type``).
WIN_TYPE_ZH: dict[str, str] = {
    "self_draw": "自摸",
    "discard": "点炮",
    "kong_replacement": "杠上开花",
    "after_kong_discard": "杠上炮",
    "rob_kong": "抢杠",
    "other_draw": "他家翻",
    "heavenly": "天胡",
}

_SUITS_ZH = ("万", "筒", "条")
_CORE_BOTS = ("greedy", "defensive", "random")


@functools.lru_cache(maxsize=512)
def piece_zh(name: str) -> str:
    """The Chinese name of a tile or card by its core name (``5m`` → 五万, ``x5`` → 五, ``d5`` →
    伍); the name itself when neither reader knows it (cards of other families)."""
    for reader in (format_tiles, zipai_format_cards):
        try:
            return str(reader([name], chinese=True)).strip()
        except (ValueError, TypeError):
            continue
    return name


@functools.lru_cache(maxsize=64)
def card_names(variant: Variant) -> dict[str, str]:
    """The Chinese names of a card game's pieces by notation (斗地主 ``x`` → 小王, 够级 ``J`` → 钩,
    顶牛 ``56`` → 虎头), from the game's analyser in the core (``hupai.analyse(...)["pieces"]``);
    empty for a preset without one."""
    try:
        return {str(p["name"]): str(p["zh"]) for p in analyse(variant, "")["pieces"]}
    except HupaiError:
        return {}


@functools.lru_cache(maxsize=64)
def card_words(variant: Variant) -> dict[tuple[str, int], str]:
    """The words of a card game's decisions whose ``value`` says what they are, by ``(kind,
    value)`` (够级 ``("show", 3)`` → 不亮, 顶牛 ``("lay", 0)`` → 接左端, 斗地主 ``("bid", 3)`` → 叫3分),
    from the game's analyser in the core (``hupai.analyse(...)["decisions"]``); empty for a preset
    without one."""
    try:
        return {(str(d["kind"]), int(d["value"])): str(d["zh"]) for d in analyse(variant, "")["decisions"]}
    except HupaiError:
        return {}


def action_label(
    a: Action, names: Mapping[str, str] | None = None, words: Mapping[tuple[str, int], str] | None = None
) -> str:
    """A short readable label of an action: ``打 五万``, ``碰 東``, ``吃 三四五条``, ``定缺 条``;
    ``names`` (a card game's :func:`card_names`) names the pieces of the game, ``words`` (its
    :func:`card_words`) the decisions whose value says what they are (够级 ``不亮``, 顶牛 ``接左端 虎头``)."""
    if names:
        word = (words or {}).get((a.kind, a.value)) if a.value is not None else None
        zh = word or KIND_ZH.get(a.kind, a.kind)
        if a.tiles:
            return f"{zh} " + " ".join(names.get(t, t) for t in a.tiles)
        if a.tile is not None:
            return f"{zh} {names.get(a.tile, a.tile)}"
        if word is not None:
            return word
    zh = KIND_ZH.get(a.kind, a.kind)
    if a.kind == "chow" and a.tile is not None and not a.tiles and a.tile in _INDEX:
        i = _INDEX[a.tile]
        return f"{zh} " + "".join(piece_zh(t) for t in TILE_NAMES[i : i + 3])
    if a.tiles:
        return f"{zh} " + " ".join(piece_zh(t) for t in a.tiles)
    if a.tile is not None:
        return f"{zh} {piece_zh(a.tile)}"
    if a.kind == "declare_void" and a.value is not None and 0 <= a.value < 3:
        return f"{zh} {_SUITS_ZH[a.value]}"
    if a.value is not None:
        return f"{zh} {a.value}"
    return zh


_INDEX = {t: i for i, t in enumerate(TILE_NAMES)}


def _meld_tiles(kind: str, tile: str, kong: str | None) -> list[str]:
    """The pieces of a mahjong meld as the table reports it (kind, its tile)."""
    if kind == "chow" and tile in _INDEX and _INDEX[tile] % 9 <= 6 and _INDEX[tile] < 27:
        i = _INDEX[tile]
        return list(TILE_NAMES[i : i + 3])
    if kind == "kong":
        return [tile] * 4
    return [tile] * 3


def _action_of(rec: Mapping[str, Any]) -> Action:
    """An action record as an ``Action`` (a card game's names kept as written)."""
    return Action(str(rec.get("kind")), int(rec.get("seat", 0)), rec.get("tile"), rec.get("tiles"), rec.get("value"))


def event_text(
    rec: Mapping[str, Any],
    names: Sequence[str],
    pieces: Mapping[str, str] | None = None,
    words: Mapping[tuple[str, int], str] | None = None,
) -> str | None:
    """One caption line for a log record (``None`` for records not worth a line); ``pieces`` and
    ``words`` (a card game's :func:`card_names` and :func:`card_words`) name the game's pieces and
    decisions."""
    k = rec.get("type")
    seat = rec.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    if k == "action":
        if rec.get("kind") == "win":
            return None  # the win record that follows says it all
        return f"{who} {action_label(_action_of(rec), pieces, words)}"
    if k == "OUT" and isinstance(rec.get("place"), str):
        return f"{who} 走科 {rec['place']}"  # a card game's finishing place, named by the core
    if k == "win":
        how = WIN_TYPE_ZH.get(str(rec.get("win_type")), str(rec.get("win_type", "")))
        src = rec.get("from")
        frm = f" ← {names[src]}" if isinstance(src, int) and src != seat and 0 <= src < len(names) else ""
        return f"{who} 胡 {piece_zh(str(rec.get('tile', '')))} ({how}{frm}) {rec.get('value', '')}".rstrip()
    if k in ("draw", "deal", "start", "claim_resolved", "end", "settle"):
        return None
    zh = _EVENT_ZH.get(str(k))
    if zh is None:
        return None
    tile = rec.get("tile")
    return f"{who} {zh} {piece_zh(str(tile)) if tile else ''}".strip()




def board(t: Table, viewer: int | None = None, *, reveal: bool = False) -> dict[str, Any]:
    """The public state of a table as plain JSON, seen from ``viewer`` (its hand shown, the others'
    counted) or from above (``reveal=True``: every hand, as a replay shows it). The hand's end
    reveals every hand. Keys: ``variant``, ``name``, ``family``, ``n``, ``dealer``, ``to_act``,
    ``phase``, ``done``, ``wall`` (tiles left), ``last_discard``, ``last_play`` (card games: the
    latest move that put cards on the table — ``seat``, ``name``, ``kind``, ``tiles``, ``label`` —
    else ``None``), ``seats`` (``name``, ``hand``, ``count`` (pieces held: a card game's cards
    left), ``melds``, ``discards``, ``flowers``, ``void``, ``declared``, ``dealer``,
    ``last_action`` (card games: the seat's latest decision as a label); pieces by their core
    names), ``zh`` (the Chinese name of every piece named),
    ``legal`` (the viewer's actions: ``i``, ``kind``, ``tile``, ``tiles``, ``value``, ``label``)
    and ``result`` (winners, balances, wins with fans, the ledger's payments) once over."""
    n = t.n
    names = seat_labels(n)
    cards_zh = card_names(t.variant) if t.family == "cards" else {}
    words = card_words(t.variant) if t.family == "cards" else {}
    done = t.done
    show_all = reveal or done
    seats: list[dict[str, Any]] = []
    seen: set[str] = set()

    def _pieces(ps: Iterable[str]) -> list[str]:
        out = list(ps)
        seen.update(out)
        return out

    zp = t.players if t.family == "zipai" else None
    melds_all = t.melds if t.family == "mahjong" else None
    discards = t.discards if t.family == "mahjong" else None
    flowers = t.flowers if t.family == "mahjong" else None
    void = t.void if t.family == "mahjong" else [None] * n
    won: list[list[str]] = [[] for _ in range(n)]
    for w in t.wins if t.family == "mahjong" else []:
        if isinstance(w.get("seat"), int) and 0 <= w["seat"] < n and w.get("tile"):
            won[w["seat"]].append(str(w["tile"]))
    declared = t.declared if t.family == "mahjong" else []
    for s in range(n):
        hand = t.hand(s)
        visible = show_all or s == viewer
        d: dict[str, Any] = {
            "seat": s,
            "name": names[s],
            "dealer": s == t.dealer,
            "count": len(hand),
            "hand": _pieces(hand) if visible else None,
            "last_action": None,
        }
        if zp is not None:
            p = zp[s]
            d["melds"] = [{"kind": m["type"], "tiles": _pieces(m["tiles"]), "from": None} for m in p["melds"]]
            d["discards"] = _pieces(p["river"])
            d["flowers"] = []
        elif melds_all is not None and discards is not None and flowers is not None:
            d["melds"] = [
                {
                    "kind": kong or kind,
                    "tiles": _pieces(_meld_tiles(kind, tile, kong)),
                    "from": None if frm == s or kong == "concealed" else names[frm] if 0 <= frm < n else None,
                    "concealed": kong == "concealed",
                }
                for kind, tile, frm, kong in melds_all[s]
            ]
            d["discards"] = _pieces(discards[s])
            d["flowers"] = _pieces(flowers[s])
        else:  # a family this page does not know yet: the hands and the log tell the story
            d["melds"], d["discards"], d["flowers"] = [], [], []
        v = void[s] if s < len(void) else None
        d["void"] = _SUITS_ZH[v] if isinstance(v, int) and 0 <= v < 3 else None
        d["declared"] = bool(declared[s]) if s < len(declared) else False
        d["won"] = _pieces(won[s])
        seats.append(d)
    to_act = t.to_act
    legal: list[dict[str, Any]] = []
    if viewer is not None and to_act == viewer:
        for i, a in enumerate(t.legal_actions(viewer)):
            legal.append(
                {"i": i, "kind": a.kind, "tile": a.tile, "tiles": list(a.tiles), "value": a.value, "label": action_label(a, cards_zh, words)}
            )
    last = None
    last_play = None
    if t.family == "cards":
        # each seat's latest decision and the latest move that put cards on the table (the log's
        # action records; which moves are legal and what beats what stays the core's)
        for rec in t.log:
            if rec.get("type") != "action" or not isinstance(rec.get("seat"), int) or not 0 <= rec["seat"] < n:
                continue
            label = action_label(_action_of(rec), cards_zh, words) if rec.get("kind") in KIND_ZH else str(rec.get("kind"))
            seats[rec["seat"]]["last_action"] = label
            cards = list(rec.get("tiles") or ([rec["tile"]] if rec.get("tile") else []))
            if cards and rec.get("kind") in ("play", "open", "lay"):
                last_play = {"seat": rec["seat"], "name": names[rec["seat"]], "kind": rec["kind"], "tiles": _pieces(cards), "label": label}
    if t.family == "mahjong" and t.last_discard is not None:
        for rec in reversed(t.log):
            if rec.get("type") == "action" and rec.get("kind") in ("discard", "declare_ting", "declare_ready"):
                last = {"seat": rec["seat"], "name": names[rec["seat"]], "tile": rec["tile"], "zh": piece_zh(rec["tile"])}
                break
    variant = t.variant
    drawn = t.drawn if t.family == "mahjong" and viewer is not None and to_act == viewer and not done else None
    out: dict[str, Any] = {
        "variant": t.vid,
        "name": variant.name,
        "family": t.family,
        "n": n,
        "seat_names": names,
        "seat_ids": seat_names(n),
        "dealer": t.dealer,
        "to_act": to_act,
        "phase": t.phase,
        "done": done,
        "wall": t.wall_remaining,
        "last_discard": last,
        "last_play": last_play,
        "drawn": drawn,
        "seats": seats,
        "legal": legal,
        "result": _result(t, names) if done else None,
    }
    if t.family == "mahjong" and t.laizi is not None:
        out["laizi"] = {"name": t.laizi, "zh": piece_zh(t.laizi)}
    for act in legal:
        seen.update(x for x in [act["tile"], *act["tiles"]] if x)
    out["zh"] = {x: cards_zh.get(x) or piece_zh(x) for x in sorted(seen)}
    return out


def seat_labels(n: int) -> list[str]:
    """The seats' names as people read them: 东 南 西 北 (the core's ``E S W N``) at up to four
    seats; 1号 … 6号 at a six-seat table (够级 has no winds: seat ``k`` is ``k+1``号, in playing
    order)."""
    if n > 4:
        return [f"{k + 1}号" for k in range(n)]
    return [piece_zh(x) for x in seat_names(n)]


@functools.lru_cache(maxsize=64)
def _fan_names(vid: str) -> dict[str, str]:
    try:
        fans = Variant.load(vid).describe().get("fans") or []
    except ValueError:
        return {}
    return {str(f["id"]): str(f.get("zh") or f["id"]) for f in fans if isinstance(f, dict) and "id" in f}


def _payments(ledger: Any, ids: Sequence[str], names: Sequence[str]) -> list[dict[str, Any]]:
    """The ledger's events as ``{kind, reason, deltas (per seat), payments [{from, to, amount}]}``."""
    zh: dict[Any, str] = dict(zip(ids, names))
    zh.update({str(k): x for k, x in enumerate(names)})  # ledgers that name seats by index (字牌)
    out = []
    for e in ledger.get("events", []) if isinstance(ledger, dict) else []:
        if not isinstance(e, dict):
            continue
        deltas = e.get("deltas") or {}
        out.append(
            {
                "kind": e.get("kind"),
                "reason": e.get("reason", ""),
                "deltas": [deltas.get(i, deltas.get(str(k), 0)) for k, i in enumerate(ids)] if isinstance(deltas, dict) else list(deltas),
                "payments": [
                    {"from": zh.get(p.get("payer"), p.get("payer")), "to": zh.get(p.get("payee"), p.get("payee")), "amount": p.get("amount")}
                    for p in e.get("payments", [])
                    if isinstance(p, dict)
                ],
            }
        )
    return out


def _result(t: Table, names: Sequence[str]) -> dict[str, Any]:
    res = t.result or {}
    fan_zh = _fan_names(t.vid)
    wins = []
    for w in res.get("wins", []):
        seat = w.get("seat")
        group = [names[k] for k in w.get("seats", []) if isinstance(k, int) and 0 <= k < len(names)]  # card games
        wins.append(
            {
                "seat": seat,
                "name": names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else " ".join(group),
                "tile": w.get("tile"),
                "zh": piece_zh(str(w["tile"])) if w.get("tile") else "",
                "win_type": w.get("win_type"),
                "how": WIN_TYPE_ZH.get(str(w.get("win_type")), str(w.get("win_type", ""))),
                "from": names[w["from"]] if isinstance(w.get("from"), int) and 0 <= w["from"] < len(names) else None,
                "value": w.get("value"),
                "fans": [[fan_zh.get(str(f), WIN_TYPE_ZH.get(str(f), str(f))), c] for f, c in w.get("fans", [])],
            }
        )
    ledger = t.ledger
    # a card game's finishing order (够级: 头科 … 大落), as the core's records name the places
    places = [
        {"seat": r["seat"], "name": names[r["seat"]], "place": r["place"]}
        for r in t.log
        if r.get("type") == "OUT" and isinstance(r.get("seat"), int) and 0 <= r["seat"] < len(names) and isinstance(r.get("place"), str)
    ]
    return {
        "winners": [names[s] for s in res.get("winners", [])],
        "exhausted": bool(res.get("exhausted")),
        "places": places,
        "balances": list(t.balances),
        "wins": wins,
        "payments": _payments(ledger, seat_names(t.n), names),
    }


class PlaySession:
    """One person at one seat of a table against the built-in bots.

    ``PlaySession(variant, human=0, seed=0, bots="greedy", dealer=0)``: the table is dealt and the
    bots play (in the core, ``Table.advance``) until the person must act. ``legal`` is the person's
    legal actions now; ``act(choice)`` takes one (an index into ``legal``, or an ``Action``), then
    the bots play on; ``done`` once the hand is over. ``board()`` is what to draw; ``events`` every
    event so far; ``table`` the core's table."""

    def __init__(
        self,
        variant: Variant | str,
        human: int = 0,
        seed: int = 0,
        bots: str | Sequence[str] = "greedy",
        dealer: int = 0,
    ) -> None:
        v = variant if isinstance(variant, Variant) else Variant.load(variant)
        n = table_seats(v)
        if not isinstance(human, int) or isinstance(human, bool) or not 0 <= human < n:
            raise RuleConfigError(f"human: a seat 0..{n - 1} of {v.id}'s table, got {human!r}")
        kinds = [bots] * n if isinstance(bots, str) else list(bots)
        bad = [k for k in kinds if k not in AGENTS]
        if bad:
            raise RuleConfigError(f"unknown bot {bad[0]!r}: the bots are {', '.join(_CORE_BOTS)}")
        if len(kinds) != n:
            raise RuleConfigError(f"bots: one name, or one per seat ({n} for {v.id}), got {len(kinds)}")
        self.human = human
        self.table = Table(v, seed=seed, dealer=dealer)
        self.agents: list[Any] = [None if k == human else make_agent(kinds[k], game_seed(seed, k)) for k in range(n)]
        self.events: list[Event] = []
        self._advance()

    def _advance(self) -> list[Event]:
        evs = list(self.table.advance(self.agents, [self.human]))
        self.events.extend(evs)
        return evs

    @property
    def done(self) -> bool:
        return self.table.done

    @property
    def legal(self) -> list[Action]:
        """The person's legal actions now (empty once the hand is over)."""
        t = self.table
        return t.legal_actions(self.human) if t.to_act == self.human else []

    def act(self, choice: int | Action) -> list[Event]:
        """Take one of ``legal`` (its index or the ``Action``); the bots then play until the
        person must act again. Returns every event since (the person's action first)."""
        legal = self.legal
        if not legal:
            raise RuleConfigError("the hand is over" if self.done else "not this seat's turn")
        if isinstance(choice, Action):
            a = choice
        elif isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(legal):
            a = legal[choice]
        else:
            raise RuleConfigError(f"choice: an index 0..{len(legal) - 1} of the legal actions, got {choice!r}")
        evs = list(self.table.step(a))
        self.events.extend(evs)
        return evs + self._advance()

    def board(self) -> dict[str, Any]:
        return board(self.table, self.human)


def replay_steps(log: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A logged hand step by step, every hand shown: the log is checked to replay exactly
    (``hupai.replay``), then rebuilt from its ``start`` by the core (``replay(log, actions=0)``) and
    stepped through its decisions. One step for the deal and one after every decision but a
    ``pass`` (whose effect shows in the next step), and the last one after every decision; each
    step is a ``board(reveal=True)`` with ``caption`` (the lines of the records since the previous
    step), ``record`` (the index of its last log record) and ``actions`` (decisions applied)."""
    from hupai.game.log import replay

    records = [dict(r) for r in log]
    replay(records)  # the whole log first: a log that does not replay is refused
    t = replay(records, actions=0)
    names = seat_labels(t.n)
    pieces = card_names(t.variant) if t.family == "cards" else None
    words = card_words(t.variant) if t.family == "cards" else None
    steps: list[dict[str, Any]] = []
    # a cursor into the log that follows the rebuilt table's log (the same records, in order)
    done_actions = 0
    last_rec = len(t.log) - 1

    def snap(upto: int, caption_from: int) -> None:
        b = board(t, None, reveal=True)
        b["caption"] = [x for x in (event_text(r, names, pieces, words) for r in records[caption_from : upto + 1]) if x]
        b["record"] = upto
        b["actions"] = done_actions
        steps.append(b)

    snap(last_rec, 0)
    prev = last_rec + 1
    action_recs = [r for r in records if r.get("type") == "action"]
    for i, rec in enumerate(action_recs):
        # a card game's record names its pieces in the game's notation (typed, as the table reads it)
        t.step(_action_of(rec) if t.family == "cards" else Action.from_json(rec))
        done_actions += 1
        last_rec = len(t.log) - 1
        is_last = i == len(action_recs) - 1
        if rec.get("kind") == "pass" and not is_last:
            continue
        snap(last_rec, prev)
        prev = last_rec + 1
    return steps


def check_variant(name: str) -> Variant:
    """The variant of a name, refused with one clear line when the table does not play it."""
    v = Variant.load(name)
    table_seats(v)
    return v
