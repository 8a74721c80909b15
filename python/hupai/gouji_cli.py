"""``hupai gouji …``: play 够级 in the terminal, check plays, list legal plays, simulate, replay."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from hupai import gouji
from hupai.errors import HupaiError, RuleConfigError

SEAT_NAMES = ("0", "1", "2", "3", "4", "5")


def _switches(items: list[str] | None) -> dict[str, bool | int | str]:
    out: dict[str, bool | int | str] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RuleConfigError(f"--set expects SWITCH=VALUE, got {item!r}")
        v = value.strip()
        low = v.lower()
        out[name.strip()] = True if low == "true" else False if low == "false" else int(v) if v.lstrip("-").isdigit() else v
    return out


def _rules(args: argparse.Namespace) -> gouji.Rules:
    return gouji.Rules(args.variant, **_switches(args.set))


# ------------------------------------------------------------------------------------- check


def _cmd_check(args: argparse.Namespace) -> int:
    r = _rules(args)
    p = gouji.Play(args.play)
    res: dict[str, Any] = {
        "play": p.cards,
        "chinese": p.chinese,
        "jokers": p.jokers,
        "joker_level": p.joker_level,
        "base": p.base,
        "base_count": p.base_count,
        "total": p.total,
        "gouji": gouji.is_gouji(p, rules=r),
        "kaidian_eligible": gouji.kaidian_eligible(p, rules=r),
    }
    if args.top:
        res["top"] = gouji.Play(args.top).cards
        res["beats_top"] = gouji.beats(p, args.top, rules=r)
    if args.hand:
        res["legal_from_hand"] = gouji.bie_san_ok(args.hand, p, rules=r)
        if args.top:
            opts = gouji.burn_options(args.hand, args.top, rules=r)
            res["hand_can_burn_top"] = bool(opts)
            res["burn_options"] = opts
            res["is_burn_option"] = p.cards in opts
    if args.json:
        print(json.dumps(res, ensure_ascii=False))
        return 0
    yn = {True: "yes", False: "no"}
    print(f"{p.cards} ({p.chinese}): {p.total} cards = ", end="")
    parts = []
    if p.jokers:
        parts.append(f"{p.jokers} × {'大花' if p.joker_level == 'W' else '小花'}")
    if p.base:
        parts.append(f"{p.base_count} × {p.base}")
    print(" + ".join(parts))
    print(f"  够级牌: {yn[res['gouji']]}   开点 if it stands: {yn[res['kaidian_eligible']]}")
    if "beats_top" in res:
        print(f"  beats {res['top']}: {yn[res['beats_top']]}")
    if "legal_from_hand" in res:
        print(f"  legal from {gouji.format_cards(args.hand)} (憋3): {yn[res['legal_from_hand']]}")
    if "hand_can_burn_top" in res:
        print(f"  the hand can burn {res['top']}: {yn[res['hand_can_burn_top']]}" + (f" with {', '.join(res['burn_options'])}" if res["burn_options"] else ""))
    return 0


def _cmd_legal(args: argparse.Namespace) -> int:
    plays = gouji.legal_plays(args.hand, args.top, rules=_rules(args))
    if args.json:
        print(json.dumps(plays))
    else:
        print(" ".join(plays) if plays else "(none: pass)")
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    bots = args.bots.split(",")
    st = gouji.simulate(
        args.n, seed=args.seed, bots=bots[0] if len(bots) == 1 else bots, check=args.check, rules=_rules(args)
    )
    if args.json:
        print(json.dumps(st, ensure_ascii=False))
        return 0
    n = max(st["hands"], 1)
    print(f"{st['hands']} hands played out, {st['voids']} void (two 革命: the hand ends), {st['decisions'] / max(st['hands'] + st['voids'], 1):.1f} decisions per hand")
    print("score per hand by seat: " + " ".join(f"{s / n:+.3f}" for s in st["scores"]))
    print(
        f"per hand: burns {st['burns'] / n:.3f}, burn failures {st['burn_fails'] / n:.3f}, 开点 {st['kaidian'] / n:.2f}, "
        f"闷 {st['men'] / n:.3f}, 革命 {st['revolutions'] / n:.3f}, 串三户 {st['chuan_san_hu'] / n:.3f}, "
        f"tribute cards {st['tribute_cards'] / n:.2f}"
    )
    if args.check:
        print(f"invariants checked after each of {st['decisions']:,} decisions: OK")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    with open(args.file, encoding="utf-8") if args.file != "-" else sys.stdin as f:
        text = f.read()
    g = gouji.replay(text)
    print(json.dumps(g.outcome, ensure_ascii=False))
    return 0


# ------------------------------------------------------------------------------------- play


def _describe(e: dict[str, Any]) -> str | None:
    t = e["type"]
    s = e.get("seat")
    if t == "PLAY":
        return f"seat {s} {'burns with' if e['burn'] else 'plays'} {e['cards']}"
    if t == "PASS":
        return f"seat {s} {'does not burn' if e['burn'] else 'passes'}"
    if t == "YIELD":
        return f"seat {s} yields (让牌)"
    if t == "TRIBUTE":
        return f"{e['kind']}: seat {e['from']} gives {e['cards']} to seat {e['to']}"
    if t == "RETURN":
        return f"还贡: seat {e['from']} returns {e['card']} to seat {e['to']}"
    if t == "SHOW":
        return f"seat {s} shows {e['count']} same-suit cards (上班)"
    if t == "FIRST_LEADER":
        return f"seat {s} leads first" + ("" if e["shown"] else " (drawn at random)")
    if t == "BUY_THREE":
        return f"seat {e['buyer']} buys a 3 from seat {e['from']} for a {e['pay']} (买三)"
    if t == "ASK_THREE":
        return f"seat {e['buyer']} gets a 3 from seat {e['from']} (要三)"
    if t == "REVOLT":
        return f"seat {s} declares 革命" + (" (automatic)" if e["auto"] else "")
    if t == "HEAD":
        return f"seat {s} chooses {e['choice']}"
    if t == "XUANDIAN" and e["declared"]:
        return f"seat {s} declares 宣点"
    if t == "BURN_START":
        return f"seat {e['burner']} burns seat {e['victim']} (烧牌)"
    if t == "BURN_LIFT":
        return f"seat {e['by']} lifts seat {e['burner']}'s burn (解烧)"
    if t == "BURN_SUCCESS":
        return f"seat {e['burner']}'s burn succeeds (烧成功)"
    if t == "BURN_FAIL":
        return f"seat {s} fails the burn with {e['cards']} (烧失败) → {e['place']}"
    if t == "KAIDIAN":
        return f"seat {s} earns 开点"
    if t == "MEN":
        return f"seat {e['victim']} is 闷 by seat {e['beater']}"
    if t == "OUT":
        return f"seat {s} is out: {e['place']}"
    if t == "ROUND_END":
        return f"-- round over, seat {e['leader']} leads"
    if t == "LUANCHAN_START":
        return "-- 四人乱缠 from now on"
    if t == "VOID":
        return "two 革命: the hand is void and redealt"
    return None


def _show_state(g: gouji.Game, me: int, out: TextIO) -> None:
    obs = g.observation(me)
    counts = " ".join(f"{s}:{n}" for s, n in enumerate(obs["cards_left"]))
    top = obs["top"]
    table = f"top {top['cards']} by seat {top['seat']}" + (" (够级, restricted)" if top["restricted"] else "") if top else "no play on the table"
    print(f"\n[{obs['phase']}] cards left {counts} | {table}" + (" | 四人乱缠" if obs["luanchan"] else ""), file=out)
    print(f"your hand (seat {me}): {obs['hand'] or '(none)'}", file=out)


def _cmd_play(args: argparse.Namespace, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    r = _rules(args)
    me = args.seat
    agents: list[str] = [args.bots] * 6
    carry: dict[str, Any] | None = None
    totals = [0] * 6
    for k in range(args.hands):
        g = gouji.Game(args.seed + k, carry, rules=r)
        print(f"== hand {k + 1} (seed {args.seed + k}); you are seat {me}, your 联邦 is {me % 2}, {(me + 2) % 6}, {(me + 4) % 6}; 对头 {(me + 3) % 6}", file=out)
        step = 0

        def show(events: list[dict[str, Any]]) -> None:
            for e in events:
                d = _describe(e)
                if d:
                    print("  " + d, file=out)

        show(g.events)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            step += 1
            if seat != me:
                a = g.bot_action(agents[seat], (args.seed * 7919 + step) % 2**63)
                assert a is not None
                show(g.step(a))
                continue
            _show_state(g, me, out)
            legal = g.legal_actions()
            shown = legal if len(legal) <= 30 else legal[:30] + ["…"]
            print(f"you are asked: {g.ask}. options: " + " ".join(f"[{i}]{a}" for i, a in enumerate(shown)), file=out)
            while True:
                print("> ", end="", file=out, flush=True)
                line = inp.readline()
                if not line:
                    print("\n(end of input)", file=out)
                    return 0
                text = line.strip()
                if text in ("q", "quit", "exit"):
                    return 0
                if text in ("?", "all"):
                    print(" ".join(legal), file=out)
                    continue
                if text == "hint":
                    print(f"greedy would play: {g.bot_action('greedy')}", file=out)
                    continue
                if text.isdigit() and int(text) < len(legal):
                    text = legal[int(text)]
                try:
                    show(g.step(text))
                    break
                except HupaiError as err:
                    print(f"not allowed: {err}", file=out)
        o = g.outcome
        assert o is not None
        if o["void"]:
            print("void hand", file=out)
        else:
            totals = [a + b for a, b in zip(totals, o["scores"], strict=True)]
            names = ", ".join(f"{gouji.PLACES[i]} {s}" for i, s in enumerate(o["places"]))
            print(f"places: {names}", file=out)
            print(f"scores: {o['scores']}" + (" (串三户)" if o["chuan_san_hu"] else "") + f"; totals {totals}", file=out)
        carry = g.next_carry
    return 0


# ------------------------------------------------------------------------------------- parsers


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``hupai gouji …`` to the top-level parser."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--variant", default="gouji", help="the 够级 preset (default: gouji)")
    common.add_argument("--set", action="append", metavar="SWITCH=VALUE", help="override a switch, e.g. bie_san=false (repeatable)")
    g = sub.add_parser("gouji", help="够级: play in the terminal, check plays, legal plays, simulate, replay")
    gs = g.add_subparsers(dest="gouji_command", required=True)

    p = gs.add_parser("play", parents=[common], help="play hands against the built-in bots")
    p.add_argument("--seat", type=int, default=0, choices=range(6), help="your seat 0-5 (default 0)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    p.add_argument("--hands", type=int, default=1, help="hands to play, with tribute between them (default 1)")
    p.add_argument("--bots", default="greedy", choices=["greedy", "random"], help="the other five seats (default greedy)")
    p.set_defaults(func=_cmd_play)

    c = gs.add_parser("check", parents=[common], help="the play checker: normalise a play, 够级?, beats TOP?, can HAND burn TOP?")
    c.add_argument("play", help="the play, e.g. WW2229999")
    c.add_argument("--top", help="the play on the table, e.g. ww888")
    c.add_argument("--hand", help="the player's whole hand (憋3 and burn checks)")
    c.add_argument("--json", action="store_true", help="print JSON")
    c.set_defaults(func=_cmd_check)

    lp = gs.add_parser("legal", parents=[common], help="every legal play of a hand (on TOP, or leads)")
    lp.add_argument("hand", help="the hand, e.g. AAww555999")
    lp.add_argument("--top", help="the play on the table")
    lp.add_argument("--json", action="store_true", help="print JSON")
    lp.set_defaults(func=_cmd_legal)

    s = gs.add_parser("simulate", parents=[common], help="simulate 够级 matches (the tribute carried) through the table engine (hupai simulate --variant gouji) and print 够级 statistics")
    s.add_argument("n", type=int, help="number of hands")
    s.add_argument("--bots", default="random", help="the table's built-in bots random, greedy or defensive: one, or six comma-separated (default random)")
    s.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    s.add_argument("--check", action="store_true", help="verify the invariants after every step")
    s.add_argument("--json", action="store_true", help="print the totals as JSON")
    s.set_defaults(func=_cmd_simulate)

    rp = gs.add_parser("replay", help="rebuild a hand from its JSON event log and check it")
    rp.add_argument("file", help="a JSON file with the list of events ('-' = stdin)")
    rp.set_defaults(func=_cmd_replay)
