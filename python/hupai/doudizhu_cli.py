"""``hupai doudizhu …``: the 斗地主 command group (classify, legal, split, play, simulate, replay).

Every option has help text; errors are one line (``hupai: error: …``) via ``hupai.cli.main``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from hupai import doudizhu as ddz
from hupai.errors import HupaiError, InvalidHandError, RuleConfigError

_SEATS = ("A", "B", "C")


def _value(text: str) -> bool | int | str:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def _rules(args: argparse.Namespace) -> ddz.Rules:
    switches: dict[str, Any] = {}
    for item in args.set or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RuleConfigError(f"--set expects switch=value, got {item!r}")
        switches[name.strip()] = _value(value.strip())
    return ddz.Rules(args.variant, profile=args.profile, **switches)


def _reading_text(r: ddz.Reading | list[Any] | None) -> str:
    if r is None:
        return "not a move"
    kind, main, length = r
    return f"{kind} {main}" + (f" ×{length}" if int(length) > 1 else "")


def _bots(text: str, n: int = 3) -> list[str]:
    names = [b.strip() for b in text.split(",") if b.strip()]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise RuleConfigError(f"--bots takes one name or {n} comma-separated names, got {text!r}")
    return names


def _cmd_classify(args: argparse.Namespace) -> int:
    rules = _rules(args)
    rs = ddz.readings(args.cards, rules=rules)
    canon = ddz.classify(args.cards, rules=rules)
    if args.json:
        print(json.dumps({"cards": ddz.parse(args.cards), "reading": canon, "readings": rs}, ensure_ascii=False))
        return 0
    print(f"{ddz.parse(args.cards)}  ({ddz.chinese(args.cards)})")
    if not rs:
        print("  not a move")
    for r in rs:
        print(f"  {_reading_text(r)}" + ("  (canonical)" if r == canon else ""))
    return 0


def _cmd_legal(args: argparse.Namespace) -> int:
    rules = _rules(args)
    reading = None
    if args.reading:
        kind, main, length = args.reading
        reading = (kind, main, int(length))
    plays = ddz.legal_plays(args.hand, args.last, last_reading=reading, rules=rules)
    if args.json:
        print(json.dumps({"plays": plays, "pass": args.last is not None}, ensure_ascii=False))
        return 0
    for cards, r in plays:
        print(f"{cards:<22} {_reading_text(r)}")
    print(f"{len(plays)} plays" + (" + pass" if args.last else ""))
    return 0


def _cmd_split(args: argparse.Namespace) -> int:
    parts = ddz.split(args.hand, rules=_rules(args))
    if args.json:
        print(json.dumps(parts, ensure_ascii=False))
        return 0
    for cards, r in parts:
        print(f"{cards:<22} {_reading_text(r)}")
    print(f"{len(parts)} moves")
    return 0


def _describe(ev: dict[str, Any]) -> str:
    """One line per event for the terminal."""
    t = ev["type"]
    seat = _SEATS[ev["seat"]] if isinstance(ev.get("seat"), int) else ""
    if t == "deal":
        return f"— deal {ev['deal']}: first bidder {_SEATS[ev['first_bidder']]}"
    if t == "bid":
        return f"{seat} bids {ev['bid']}"
    if t == "pass":
        return f"{seat} passes"
    if t in ("call", "rob", "show", "no_show"):
        return f"{seat} {t.replace('_', ' ')}s" if t != "no_show" else f"{seat} does not show"
    if t == "play":
        return f"{seat} plays {ev['cards']:<20} {_reading_text(ev.get('reading'))}"
    if t == "landlord":
        return f"— landlord {_SEATS[ev['seat']]}, 底分 {ev['bid']}, robs {ev['robs']}, 底牌 {ev['bottom']}"
    if t == "double":
        return f"  ×2 ({ev['reason']}) → 倍数 {ev['multiplier']}"
    if t == "redeal":
        return "— everybody passed: redeal"
    if t == "escape":
        return f"{seat} escapes (penalty {ev['penalty']})"
    if t == "settle":
        scores = ", ".join(f"{_SEATS[i]} {s:+d}" for i, s in enumerate(ev["scores"]))
        extra = f", 倍数 {ev['multiplier']}, {ev['spring']}" if "multiplier" in ev else ""
        return f"— {ev['result']}: {scores}{extra}"
    return json.dumps(ev, ensure_ascii=False)


def _prompt(g: ddz.Game, seat: int, out: TextIO) -> None:
    obs = g.observation(seat)
    top = obs["top"]
    print(
        f"\nyour hand ({_SEATS[seat]}): {obs['hand']}   cards left A/B/C: {obs['cards_left']}   "
        f"倍数 {obs['multiplier']}",
        file=out,
    )
    if obs["landlord_hand"]:
        print(f"landlord shows: {obs['landlord_hand']}", file=out)
    if g.phase == "play":
        print(
            "to beat: " + (f"{top['cards']} ({_reading_text(top['reading'])}) by {_SEATS[top['seat']]}" if top else "you lead"),
            file=out,
        )
    kinds = sorted({a["type"] for a in g.legal_actions()})
    print(f"actions: {', '.join(kinds)}  (cards like 33344456, 'hint', 'moves', 'escape', 'quit')", file=out)


def _cmd_play(args: argparse.Namespace) -> int:
    rules = _rules(args)
    bots = _bots(args.bots)
    human = None if args.auto else args.seat
    if human is not None and not 0 <= human <= 2:
        raise InvalidHandError(f"--seat must be 0, 1 or 2, got {human}")
    g = ddz.Game(rules=rules, seed=args.seed, first_bidder=args.first_bidder)
    out = sys.stdout
    shown = 0

    def flush() -> None:
        nonlocal shown
        evs = g.events()
        for ev in evs[shown:]:
            if ev["type"] == "deal" and human is not None:
                print(f"— deal {ev['deal']}: your hand {ddz.parse(''.join(c[0] for c in ev['hands'][human].split()))}", file=out)
            print(_describe(ev), file=out)
        shown = len(evs)

    step = 0
    while not g.is_over:
        flush()
        seat = g.to_act
        assert seat is not None
        if seat == human:
            _prompt(g, seat, out)
            try:
                line = input("> ").strip()
            except EOFError:
                line = "quit"
            if line in ("quit", "q"):
                print("bye", file=out)
                return 0
            if line == "escape":
                g.escape(seat)
                continue
            if line == "moves":
                acts = g.legal_actions()
                print("  " + "  ".join(a.get("cards", a["type"]) if a["type"] == "play" else a["type"] if a["type"] != "bid" else f"bid {a['bid']}" for a in acts), file=out)
                continue
            if line == "hint":
                hint = g.bot_action("greedy")
                print(f"  greedy would: {hint}", file=out)
                continue
            try:
                g.step(line)
            except HupaiError as e:
                print(f"  illegal: {e}", file=out)
            continue
        action = g.bot_action(bots[seat], seed=args.seed * 1000 + step)
        assert action is not None
        g.step(action)
        step += 1
    flush()
    if args.log:
        with open(args.log, "w", encoding="utf-8") as f:
            json.dump(g.events(), f, ensure_ascii=False, indent=1)
        print(f"log written to {args.log}", file=out)
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    rules = _rules(args)
    st = ddz.simulate(args.n, seed=args.seed, bots=_bots(args.bots), check=args.check, threads=args.threads, rules=rules)
    if args.json:
        print(json.dumps(st))
        return 0
    n = max(st["hands"], 1)
    print(f"{st['hands']} hands of {rules.id} in {st['seconds']:.3f} s ({st['hands'] / max(st['seconds'], 1e-9):,.0f} hands/s)")
    print(f"landlord wins {st['landlord_wins'] / n:.1%}, farmers {st['farmer_wins'] / n:.1%}, no game {st['no_game']}")
    print(f"per hand: {st['plays'] / n:.1f} plays, {st['bombs'] / n:.2f} bombs, {st['rockets'] / n:.2f} rockets; redeals {st['redeals']}")
    print(f"春天 {st['springs']}, 反春 {st['anti_springs']}, max 倍数 {st['max_multiplier']}; points per seat {st['scores']}")
    if args.check:
        print(f"invariants checked after each of {st['decisions']:,} steps: OK")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    with open(args.log, encoding="utf-8") as f:
        text = f.read()
    try:
        events = json.loads(text)
    except json.JSONDecodeError:
        events = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not isinstance(events, list):
        raise InvalidHandError("the log must be a JSON list of events (or JSON Lines)")
    g = ddz.replay(events, rules=_rules(args))
    res = g.result()
    print(f"replay OK: {len(events)} events" + (f", {res['result']} {res['scores']}" if res else ", hand not finished"))
    return 0


def add_parsers(sub: Any) -> None:
    """Add ``hupai doudizhu …`` to the main parser's subcommands."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--variant", default="doudizhu_qq", help="doudizhu_qq (default) or doudizhu_contest")
    common.add_argument("--profile", default=None, help="rule profile of a peer: rlcard, douzero, openspiel, onestraw, pagat")
    common.add_argument("--set", action="append", metavar="SWITCH=VALUE", help="override a switch (repeatable)")
    common.add_argument("--json", action="store_true", help="print JSON")
    d = sub.add_parser("doudizhu", help="斗地主: classify cards, legal moves, play a hand, simulate, replay")
    ds = d.add_subparsers(dest="doudizhu_command", required=True)
    c = ds.add_parser("classify", help="the readings (type, main rank, length) of some cards", parents=[common])
    c.add_argument("cards", help="cards, e.g. 33344456 (T = 10, x = 小王, X = 大王)")
    c.set_defaults(func=_cmd_classify)
    lg = ds.add_parser("legal", help="the legal plays of a hand (leads, or answers to --last)", parents=[common])
    lg.add_argument("hand", help="the hand, e.g. 3456789TJQKA2xX")
    lg.add_argument("--last", default=None, help="the move on the table (omit to lead)")
    lg.add_argument("--reading", nargs=3, metavar=("TYPE", "MAIN", "LEN"), help="the declared reading of --last")
    lg.set_defaults(func=_cmd_legal)
    sp = ds.add_parser("split", help="the greedy bot's split of a hand into few moves", parents=[common])
    sp.add_argument("hand", help="the hand")
    sp.set_defaults(func=_cmd_split)
    p = ds.add_parser("play", help="play a hand in the terminal against the built-in bots", parents=[common])
    p.add_argument("--seat", type=int, default=0, help="your seat: 0 (A), 1 (B) or 2 (C)")
    p.add_argument("--auto", action="store_true", help="bots in every seat (watch a hand)")
    p.add_argument("--bots", default="greedy", help="random or greedy: one, or three comma-separated")
    p.add_argument("--seed", type=int, default=0, help="deal seed")
    p.add_argument("--first-bidder", type=int, default=0, help="first bidder of the first deal (rotate rule)")
    p.add_argument("--log", help="write the event log (JSON) to this file")
    p.set_defaults(func=_cmd_play)
    s = ds.add_parser("simulate", help="simulate 斗地主 hands through the table engine (hupai simulate --variant doudizhu_qq) and print 斗地主 statistics", parents=[common])
    s.add_argument("-n", type=int, default=10000, help="number of hands")
    s.add_argument("--bots", default="random", help="the table's built-in bots random, greedy or defensive: one, or three comma-separated")
    s.add_argument("--seed", type=int, default=0, help="base seed")
    s.add_argument("--check", action="store_true", help="verify the invariants after every step")
    s.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    s.set_defaults(func=_cmd_simulate)
    r = ds.add_parser("replay", help="replay an event log (JSON list or JSON Lines) and check it", parents=[common])
    r.add_argument("log", help="the log file")
    r.set_defaults(func=_cmd_replay)
