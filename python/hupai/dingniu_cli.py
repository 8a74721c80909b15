"""``hupai dingniu …``: play 顶牛 in the terminal against the built-in bots, simulate, replay a log,
list the tiles or the legal moves of a hand."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from hupai import dingniu
from hupai.errors import HupaiError, InvalidHandError, RuleConfigError

POSITION = ("头牌", "二牌", "三牌", "末牌")


def _switches(items: Sequence[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items or []:
        k, sep, v = item.partition("=")
        if not sep or not k:
            raise RuleConfigError(f"--set takes SWITCH=VALUE, got {item!r}")
        out[k] = True if v == "true" else False if v == "false" else int(v) if v.lstrip("-").isdigit() else v
    return out


def _bots(text: str) -> list[str]:
    names = [b.strip() for b in text.split(",") if b.strip()]
    if len(names) not in (1, 4) or any(n not in dingniu.BOTS for n in names):
        raise RuleConfigError(
            f"--bots: one bot for every seat or four comma-separated; bots: {', '.join(dingniu.BOTS)}; got {text!r}"
        )
    return names * 4 if len(names) == 1 else names


def _tiles(codes: Sequence[str]) -> str:
    return " ".join(f"{c}{dingniu.name(c)}" for c in codes) if codes else "-"


def _who(g: dingniu.Game, seat: int) -> str:
    return f"seat {seat} ({POSITION[(seat - g.toupai) % 4]})"


def _line(obs: dict[str, Any]) -> str:
    """The line as laid, left to right."""
    chain: list[str] = []
    for item in obs["line"]:
        t = item["tile"]
        if item["side"] == "L":
            chain.insert(0, t)
        else:
            chain.append(t)
    return " ".join(chain) if chain else "(empty)"


def _describe(e: dict[str, Any], g: dingniu.Game) -> str | None:
    k = e["type"]
    if k == "open":
        return f"{_who(g, e['seat'])} opens {e['tile']} → ends {tuple(e['ends'])}"
    if k == "lay":
        return f"{_who(g, e['seat'])} lays {e['tile']}:{e['side']} ({dingniu.name(e['tile'])}) → ends {tuple(e['ends'])}"
    if k == "kou":
        return f"{_who(g, e['seat'])} turns a tile down (扣)"
    if k == "zhang":
        if e["counted"]:
            return f"*** {_who(g, e['seat'])} 算帐: {e['kind']} — the hand ends"
        why = "头牌净手, not a 帐" if e["toupai_jingshou"] else "forced (死砸), not a 帐"
        return f"    ({e['kind']} by {_who(g, e['seat'])}: {why})"
    return None


def _print_result(g: dingniu.Game, out: TextIO) -> None:
    r = g.result()
    assert r is not None
    what = "played out (扣 pips)" if r["reason"] == "played_out" else "算帐 (hand + 扣 pips)"
    print(f"== end: {what}", file=out)
    places = {r["winner"]: "赢家", r["da_zhuang"]: "大庄", r["er_zhuang"]: "二庄", r["xiao_zhuang"]: "小庄"}
    for s in range(4):
        print(f"   {_who(g, s)}: {r['points'][s]:3d} pips  {places[s]}  {r['pay'][s]:+d}", file=out)
    if r["zhang"]:
        z = r["zhang"]
        verdict = "succeeds (stakes doubled)" if z["success"] else f"fails: 包庄, seat {z['by']} pays 12"
        print(f"   {z['kind']} by seat {z['by']} {verdict}", file=out)
    if r["silan_by"] is not None:
        print(f"   死拦红帐: seat {r['silan_by']} pays the 红帐 instead of the others", file=out)


def _ask(g: dingniu.Game, seat: int, inp: TextIO, out: TextIO) -> str | None:
    """Read the human's move; None to quit."""
    obs = g.observation(seat)
    legal: list[str] = obs["legal"]
    print(f"\nline: {_line(obs)}   ends: {tuple(obs['ends']) if obs['ends'] else '-'}", file=out)
    others = "  ".join(f"s{s}:{obs['hand_sizes'][s]} tiles/{obs['kou_sizes'][s]} 扣" for s in range(4) if s != seat)
    print(f"others: {others}", file=out)
    print(f"your hand: {_tiles(obs['hand'])}   your 扣: {_tiles(obs['kou'])} ({obs['kou_pips']} pips)", file=out)
    if legal and legal[0].startswith("kou"):
        print("nothing fits: turn a tile down (its pips count against you)", file=out)
    print("moves: " + "  ".join(f"[{i}] {m}" for i, m in enumerate(legal, 1)), file=out)
    while True:
        print("your move (number or notation, q to quit)> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            return None
        text = line.strip()
        if text in ("q", "quit", "exit"):
            return None
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        if text:
            return text


def _play_hand(
    g: dingniu.Game, human: int | None, bots: list[str], seed: int, inp: TextIO, out: TextIO
) -> bool:
    """Play one hand; False if the human quit."""
    k = 0
    while (s := g.to_act) is not None:
        if s == human:
            move = _ask(g, s, inp, out)
            if move is None:
                return False
            try:
                events = g.step(move)
            except HupaiError as err:
                print(f"  not allowed: {err}", file=out)
                continue
        else:
            events = g.step(g.bot_action(bots[s], seed * 1000 + k))
        k += 1
        for e in events:
            text = _describe(e, g)
            if text:
                print(text, file=out)
    _print_result(g, out)
    return True


def _cmd_play(args: argparse.Namespace) -> int:
    switches = _switches(args.set)
    bots = _bots(args.bots)
    human = None if args.auto else args.seat
    if human is not None and not 0 <= human <= 3:
        raise InvalidHandError(f"--seat {human}: seats are 0..3")
    if args.rounds < 1:
        raise InvalidHandError(f"--rounds {args.rounds}: play at least one hand")
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    out, inp = sys.stdout, sys.stdin
    totals = [0, 0, 0, 0]
    carry: dict[str, Any] | None = None
    logs: list[list[dict[str, Any]]] = []
    for n in range(args.rounds):
        g = dingniu.Game(seed=seed + n, carry=carry, **switches)
        print(f"\n== hand {n + 1} (seed {seed + n}): 头牌 {_who(g, g.toupai)}" + (f"; you are {_who(g, human)}" if human is not None else ""), file=out)
        done = _play_hand(g, human, bots, seed + n, inp, out)
        logs.append(g.events())
        if not done:
            print("bye", file=out)
            break
        result = g.result()
        assert result is not None
        totals = [a + b for a, b in zip(totals, result["pay"])]
        print(f"   running totals: {totals}", file=out)
        carry = g.carry()
    if args.log:
        text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for log in logs for e in log)
        try:
            with open(args.log, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as err:
            raise InvalidHandError(f"cannot write {args.log}: {err.strerror}") from None
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    s = dingniu.simulate(
        args.n,
        seed=args.seed,
        bots=_bots(args.bots),
        check=not args.no_check,
        rounds_per_match=args.rounds_per_match,
        **_switches(args.set),
    )
    if args.json:
        print(json.dumps(s, ensure_ascii=False))
        return 0
    print(f"{s['rounds']} hands ({s['matches']} matches), {s['decisions']} moves" + (", invariants checked after every move: OK" if not args.no_check else ""))
    print(f"ends: played out {s['played_out']}, 算帐 success {s['zhang_success']}, 包庄 {s['baozhuang']}, 死拦红帐 {s['silan']}")
    print("帐 that ended a hand: " + ", ".join(f"{k} {v}" for k, v in s["zhang"].items() if v))
    print(f"not counted: 死砸 {s['forced']}, 头牌净手 {s['toupai_jingshou']}")
    print(f"wins per seat {s['wins']}, net per seat {s['net']}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    events: list[dict[str, Any]] = []
    try:
        with open(args.file, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as err:
        raise InvalidHandError(f"cannot read {args.file}: {err.strerror}") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as x:
            raise InvalidHandError(f"{args.file}:{n}: not JSON ({x.msg})") from None
        if not isinstance(rec, dict):
            raise InvalidHandError(f"{args.file}:{n}: an event is a JSON object")
        events.append(rec)
    hands: list[list[dict[str, Any]]] = []
    for rec in events:
        if rec.get("type") == "deal":
            hands.append([])
        if not hands:
            raise InvalidHandError(f"{args.file}: the log must start with a deal event")
        hands[-1].append(rec)
    switches = _switches(args.set)
    for i, log in enumerate(hands, 1):
        g = dingniu.replay(log, **switches)
        r = g.result()
        print(f"hand {i}: {len(log)} events replayed identically; " + (f"pay {r['pay']}" if r else "unfinished"))
    return 0


def _cmd_tiles(args: argparse.Namespace) -> int:
    ts = dingniu.tile_set()
    if args.json:
        print(json.dumps(ts, ensure_ascii=False))
        return 0
    for k in ts["kinds"]:
        cls = "横牌" if k["double"] else "竖牌"
        print(f"{k['code']}  {k['name']:<3} ({k['paijiu']})  {cls}  x{k['copies']}  {k['pips']} pips")
    print(f"{ts['count']} tiles, {ts['total_pips']} pips; removed: " + " ".join(f"{r['code']}{r['name']}" for r in ts["removed"]))
    return 0


def _cmd_moves(args: argparse.Namespace) -> int:
    parts = args.ends.replace("|", " ").replace(",", " ").strip("[]() ").split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise InvalidHandError(f"ends {args.ends!r}: write the two open ends as L,R (e.g. 4,6)")
    ends = (int(parts[0]), int(parts[1]))
    moves = dingniu.legal_moves(ends, args.hand)
    if args.json:
        print(json.dumps(moves))
    else:
        print("  ".join(moves))
    return 0


def add_parser(sub: Any) -> None:
    """Add the ``dingniu`` command group to the top-level ``hupai`` parser."""
    d = sub.add_parser("dingniu", help="顶牛 (Chinese dominoes): play in the terminal, simulate, replay")
    dsub = d.add_subparsers(dest="dingniu_command", required=True)
    sw = argparse.ArgumentParser(add_help=False)
    sw.add_argument("--set", action="append", metavar="SWITCH=VALUE", help="override a switch of presets/dingniu.toml (repeatable)")

    p = dsub.add_parser("play", parents=[sw], help="play hands against the built-in bots")
    p.add_argument("--seat", type=int, default=0, help="your seat 0..3 (default 0)")
    p.add_argument("--bots", default="greedy", help="bots for the other seats: random or greedy, or four comma-separated (default greedy)")
    p.add_argument("--seed", type=int, default=None, help="seed of the first hand (default: random, printed)")
    p.add_argument("--rounds", type=int, default=1, help="hands to play in a row, with the carry (default 1)")
    p.add_argument("--auto", action="store_true", help="bots play every seat (a demo)")
    p.add_argument("--log", metavar="FILE", help="write the event log (JSON lines) to FILE")
    p.set_defaults(func=_cmd_play)

    s = dsub.add_parser("simulate", parents=[sw], help="simulate 顶牛 hands through the table engine (hupai simulate --variant dingniu) and print 顶牛 statistics")
    s.add_argument("n", type=int, help="number of hands")
    s.add_argument("--bots", default="greedy", help="the table's built-in bots random or greedy: one, or four comma-separated (default greedy)")
    s.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    s.add_argument("--rounds-per-match", type=int, default=1, help="hands per match, with the carry (default 1)")
    s.add_argument("--no-check", action="store_true", help="skip the invariant checks (faster)")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=_cmd_simulate)

    r = dsub.add_parser("replay", parents=[sw], help="replay an event log (JSON lines) and check it")
    r.add_argument("file", help="a log written by 'hupai dingniu play --log'")
    r.set_defaults(func=_cmd_replay)

    t = dsub.add_parser("tiles", help="the 24 tiles: codes, names, pips")
    t.add_argument("--json", action="store_true", help="print JSON")
    t.set_defaults(func=_cmd_tiles)

    m = dsub.add_parser("moves", help="legal moves of a hand against two open ends")
    m.add_argument("ends", help="the open ends, e.g. 4,6")
    m.add_argument("hand", help="the hand, e.g. '66 44 16 13'")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=_cmd_moves)
