"""The ``hupai`` command line: hand analysis (``win``, ``waits``, ``shanten``, ``decompose``,
``discards``) and a ``demo``.

Hands are written in any notation hupai reads: compact ``123m456p789sEEECC``, bracket melds
``[EEE,1]123m456p78s9s`` (a ``+9s`` winning tile may follow), tenhou ``1234567z``, Chinese names.
Output is readable text; ``--json`` prints one JSON document instead. Bad input prints a message
and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import hupai
import hupai.batch
from hupai._text import pad as _pad
from hupai._text import table as _table
from hupai._text import width as _width

FORM_ZH = {
    "standard": "标准型 (4 sets + pair)",
    "seven_pairs": "七对 (seven pairs)",
    "thirteen_orphans": "十三幺 (thirteen orphans)",
    "honors_knitted": "全不靠 (honors and knitted)",
    "knitted_straight": "组合龙 (knitted straight)",
}
KIND_ZH = {"chow": "顺", "pung": "刻", "kong": "杠"}


def _zh(tiles: Sequence[str]) -> str:
    return " ".join(hupai.Tile(t).chinese for t in tiles)


def _tiles(tiles: Sequence[str]) -> str:
    return hupai.format_tiles(list(tiles)) if tiles else "-"


def _opts(args: argparse.Namespace) -> dict[str, Any]:
    shapes = [s.strip() for s in args.shapes.split(",") if s.strip()] if args.shapes else None
    return {"shapes": shapes, "wildcards": args.wildcards}


def _visible(args: argparse.Namespace) -> dict[str, Any]:
    return {"visible": args.visible} if args.visible else {}


def _emit(args: argparse.Namespace, data: Any, text: Callable[[], list[str]]) -> int:
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print("\n".join(text()))
    return 0


def _describe_decomposition(d: dict[str, Any]) -> str:
    parts = []
    for s in d["sets"]:
        tag = KIND_ZH.get(s["kind"], s["kind"])
        where = "declared" if s["declared"] else "hand"
        parts.append(f"{_tiles(s['tiles'])}({tag},{where})")
    if d["form"] == "seven_pairs":
        parts = [f"{p}{p}" for p in d["pairs"]]
    if d["knitted"]:
        parts.insert(0, "knitted " + "/".join(d["knitted"]))
    if d["pair"] and d["form"] != "thirteen_orphans":
        parts.append(f"{d['pair']}{d['pair']}(将)")
    if d["form"] == "thirteen_orphans":
        parts.append(f"pair {d['pair']}")
    line = f"{FORM_ZH[d['form']]}: " + " ".join(parts)
    if d["wildcards"]:
        line += f"  [wildcards → {' '.join(d['wildcards'])}]"
    return line


def _cmd_win(args: argparse.Namespace) -> int:
    opts = _opts(args)
    win = hupai.is_winning(args.hand, **opts)
    ds = hupai.decompose(args.hand, **opts) if win else []
    data = {"hand": args.hand, "winning": win, "decompositions": ds}

    def text() -> list[str]:
        lines = [f"{args.hand}: {'winning hand (胡)' if win else 'not a winning hand'}"]
        forms = sorted({d["form"] for d in ds})
        if forms:
            lines.append("shapes: " + ", ".join(FORM_ZH[f] for f in forms))
        return lines

    return _emit(args, data, text)


class CliError(Exception):
    """An error worded for the command line (printed as one line, exit status 2)."""


def _cmd_waits(args: argparse.Namespace) -> int:
    opts = _opts(args)
    try:
        waits = hupai.waits(args.hand, **opts, **_visible(args))
    except hupai.InvalidHandError as e:
        if "discard_options" not in str(e):
            raise
        # the core names the Python function; on the command line it is `hupai discards`
        raise CliError(f"{str(e).split(': use discard_options')[0]}: see which tile to discard with: hupai discards '{args.hand}'") from None
    sh = hupai.shanten(args.hand, **opts)
    data = {"hand": args.hand, "shanten": sh, "waits": waits}

    def text() -> list[str]:
        if waits:
            return [f"{args.hand}: ready (听牌), waits on {_tiles(waits)}", f"  {_zh(waits)}"]
        state = "ready, but every winning tile is used up" if sh == 0 else f"not ready ({sh}-shanten)"
        return [f"{args.hand}: {state}"]

    return _emit(args, data, text)


def _cmd_shanten(args: argparse.Namespace) -> int:
    forms = hupai.shanten_forms(args.hand, **_opts(args))
    data = {"hand": args.hand, "shanten": forms["min"], "forms": {k: v for k, v in forms.items() if k != "min"}}

    def text() -> list[str]:
        sh = forms["min"]
        label = {-1: "complete (和了)", 0: "ready (听牌)"}.get(sh, f"{sh}-shanten ({sh}向听)")
        lines = [f"{args.hand}: {label}"]
        for name, v in forms.items():
            if name != "min":
                lines.append(f"  {_pad(FORM_ZH[name], 32)} {v}")
        return lines

    return _emit(args, data, text)


def _cmd_decompose(args: argparse.Namespace) -> int:
    ds = hupai.decompose(args.hand, **_opts(args))
    data = {"hand": args.hand, "decompositions": ds}

    def text() -> list[str]:
        if not ds:
            return [f"{args.hand}: not a winning hand"]
        lines = [f"{args.hand}: {len(ds)} decomposition(s)"]
        lines += [f"  {i + 1}. {_describe_decomposition(d)}" for i, d in enumerate(ds)]
        return lines

    return _emit(args, data, text)


def _cmd_discards(args: argparse.Namespace) -> int:
    opts = hupai.discard_options(args.hand, **_opts(args), **_visible(args))
    data = {"hand": args.hand, "options": opts}

    def text() -> list[str]:
        lines = [f"{args.hand}: discard options, best first", "  discard  shanten  useful tiles (unseen copies)"]
        for o in opts[: args.top] if args.top else opts:
            useful = " ".join(f"{t}×{n}" for t, n in o["useful"])
            lines.append(f"  {o['discard']:<8} {o['shanten']:>7}  {o['total']:>2}: {useful}")
        return lines

    return _emit(args, data, text)


DEMO_HAND = "[EEE,1]123m456p78s99s+9s"
DEMO_WAITING = "[EEE,1]123m456p78s99s"
DEMO_DRAWN = "12234m456p78s99sCF"


def _cmd_demo(args: argparse.Namespace) -> int:
    def run(title: str, argv: list[str]) -> None:
        print(f"$ hupai {' '.join(argv)}    # {title}")
        main(argv)
        print()

    run("a complete hand with a declared pung of East", ["win", DEMO_HAND])
    run("every way to read it", ["decompose", DEMO_HAND])
    run("before the winning 9s: what does it wait on?", ["waits", DEMO_WAITING])
    run("shanten of each shape", ["shanten", "147m258p369sESWN"])
    run("which tile to discard after a draw", ["discards", DEMO_DRAWN, "--top", "4"])
    run("one wildcard (癞子) completes a different hand", ["decompose", "13m456p789sEEECC", "--wildcards", "1"])
    run("国标 fan table of the self-drawn win", ["score", DEMO_HAND, "--self-drawn"])
    run("a 四川 win: 清对 + 杠上花, paid by the three others", ["score", "[5555s][888s,1]2223339s+9s",
        "--variant", "sichuan", "--win-type", "kong_replacement"])
    run("simulate 200 四川 hands with greedy bots", ["simulate", "--variant", "sichuan", "-n", "200",
        "--agents", "greedy", "--seed", "1", "--quiet"])
    return 0


def _cmd_variants(args: argparse.Namespace) -> int:
    if not args.id:
        listed = hupai.variants()
        if args.json:
            print(json.dumps(listed, ensure_ascii=False))
        else:
            rows = [["id", "名称", "players", "name"]] + [[v["id"], v["name"], str(v["players"]), v["name_en"]] for v in listed]
            lines = _table(rows, right=frozenset({2}))
            print(lines[0])
            indent = " " * (_width(max((v["id"] for v in listed), key=_width)) + 2)
            for line, v in zip(lines[1:], listed):
                print(f"{line}\n{indent}{v['description']}")
        return 0
    overrides: dict[str, bool | int | str] = {}
    for item in args.set or []:
        name, _, raw = item.partition("=")
        value: bool | int | str = raw
        if raw in ("true", "false"):
            value = raw == "true"
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        overrides[name] = value
    d = hupai.Variant(args.id, **overrides).describe()
    if args.json:
        print(json.dumps(d, ensure_ascii=False))
        return 0
    print(f"{d['id']}: {d['name']} / {d['name_en']}\n{d['description']}\n")
    if d["fans"]:
        print("fans:")
        rows = []
        for f in d["fans"]:
            flags = [] if f.get("enabled", True) else ["off by default"]
            if f.get("countable"):
                flags.append("each")
            rows.append([f["id"], f["zh"], f["op"], str(f["value"]), f"({', '.join(flags)})" if flags else ""])
        for line in _table(rows, right=frozenset({3})):
            print(f"  {line}")
    if d["switches"]:
        print("\nswitches:")
        for sw in d["switches"]:
            allowed = "|".join(str(x) for x in sw.get("values", [])) or (
                "true|false" if isinstance(sw["default"], bool) else f"{sw.get('min')}..{sw.get('max')}"
            )
            print(f"  {sw['name']} = {json.dumps(sw['value'], ensure_ascii=False)}  [{allowed}]")
            print(f"      {sw['description']}")
    return 0


# ---------------------------------------------------------------------------------------------
# score (MCR and any preset with a scorer)


def _switch_value(text: str) -> bool | int | str:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def _variant(args: argparse.Namespace) -> hupai.Variant:
    options: dict[str, Any] = {}
    for item in args.set or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise hupai.RuleConfigError(f"--set expects switch=value, got {item!r}")
        options[name.strip()] = _switch_value(value.strip())
    return hupai.Variant(args.variant, **options)


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    """The situation keys of the command line: the options given (not their defaults), every
    ``--flag KEY=VALUE``, and the keys of ``--situation JSON`` (a key given twice with two values is
    refused)."""
    flags: dict[str, Any] = {}
    for key in ("self_drawn", "fourth_tile", "about_kong", "wall_last", "dealer"):
        if getattr(args, key, False):
            flags[key] = True
    for key, default in (("seat_wind", "E"), ("prevalent_wind", "E"), ("flowers", 0)):
        if getattr(args, key) != default:
            flags[key] = getattr(args, key)
    for key in ("blessing", "win_type", "void_suit"):
        if getattr(args, key, None):
            flags[key] = getattr(args, key)
    for item in args.flag or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise hupai.InvalidHandError(f"--flag expects key=value, got {item!r}")
        flags[name.strip()] = _switch_value(value.strip())
    return _merge_situation(flags, args.situation)


def _merge_situation(flags: dict[str, Any], text: str | None) -> dict[str, Any]:
    """``flags`` with the keys of the ``--situation`` JSON object ``text`` added."""
    if not text:
        return flags
    try:
        extra = json.loads(text)
    except json.JSONDecodeError as e:
        raise hupai.InvalidHandError(f"--situation is not JSON: {e}") from None
    if not isinstance(extra, dict):
        raise hupai.InvalidHandError("--situation must be a JSON object, e.g. '{\"self_drawn\": true}'")
    for key, value in extra.items():
        if key in flags and flags[key] != value:
            raise hupai.InvalidHandError(f"situation key {key!r} given twice ({flags[key]!r} and {value!r})")
        flags[key] = value
    return flags


def _hand_text(args: argparse.Namespace) -> str:
    text = args.hand.strip()
    melds = "".join(m if m.startswith("[") else f"[{m}]" for m in args.melds or [])
    if "+" in text:
        if args.win_tile:
            raise hupai.InvalidHandError("give the winning tile either after '+' or with --win-tile, not both")
    elif args.win_tile:
        text = f"{text}+{args.win_tile}"
    else:
        raise hupai.InvalidHandError("the winning tile is missing: use --win-tile T or write the hand as '...+T'")
    return melds + text


def _situation(args: argparse.Namespace) -> hupai.Situation:
    return hupai.Situation.parse(_hand_text(args), **_flags(args))


def _print_table(result: hupai.Score, out: TextIO) -> None:
    """The score of any preset: its fans, totals, the payments between the seats and the reading."""
    unit = {"fan": "番", "multiplier": "倍", "point": "分", "huxi": "胡息"}.get(result.unit, result.unit)
    rows = [(f.zh, f.en, f.op, f.value, f.count) for f in result.fans]
    zh_w = max([_width(r[0]) for r in rows] + [4])
    en_w = max([len(r[1]) for r in rows] + [3])
    out.write(f"{_pad('番种', zh_w)}  {'fan'.ljust(en_w)}  {'op':<5} {'value':>5}  {'×':>2}\n")
    for zh, en, op, val, cnt in rows:
        out.write(f"{_pad(zh, zh_w)}  {en.ljust(en_w)}  {op:<5} {val:>5}  {cnt:>2}\n")
    out.write(f"{'-' * (zh_w + en_w + 20)}\n")
    capped = "" if result.raw_total == result.total else f" (capped from {result.raw_total})"
    out.write(f"{result.variant}: total {result.total} {unit}{capped}, {result.per_payer} per payer; ")
    out.write("meets the minimum\n" if result.meets_minimum else "BELOW the minimum: not a legal win (诈和)\n")
    if result.payments:
        names = "ESWN" if result.players <= 4 else [str(k) for k in range(result.players)]
        out.write("payments: " + ", ".join(f"{names[k]} {n:+d}" for k, n in enumerate(result.net)) + "\n")
    d = result.decomposition
    if d and d.get("form") != "zipai":
        sets = " ".join("".join(s["tiles"]) + ("" if s["concealed"] else "*") for s in d["sets"])
        extra = f" pair {d['pair']}" if d.get("pair") else ""
        extra += f" pairs {' '.join(d['pairs'])}" if d.get("pairs") else ""
        out.write(f"reading: {d['form']} {sets}{extra}  (* = melded)\n")
    if result.extras:
        out.write("extras: " + ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in result.extras.items()) + "\n")


def _score_jsonl(args: argparse.Namespace) -> int:
    variant = _variant(args)
    src: TextIO = sys.stdin if args.jsonl == "-" else open(args.jsonl, encoding="utf-8")  # noqa: SIM115
    dst: TextIO = sys.stdout if args.output in (None, "-") else open(args.output, "w", encoding="utf-8")  # noqa: SIM115
    lines = src.read().splitlines()
    show = args.progress or (sys.stderr.isatty() and len(lines) >= 1000)
    errors = 0
    done = 0
    chunk = 4096
    t0 = time.perf_counter()
    try:
        for start in range(0, len(lines), chunk):
            part = lines[start : start + chunk]
            # the whole round trip in the core: request text in, answer text out (blank lines skipped)
            answers, failed = hupai.batch.score_jsonl([line for line in part if line.strip()], variant)
            errors += len(failed)
            dst.writelines(a + "\n" for a in answers)
            done += len(part)
            if show:
                pct = 100 * done // max(len(lines), 1)
                bar = "#" * (pct // 4)
                dt = time.perf_counter() - t0
                eta = (len(lines) - done) * dt / done if done and dt > 0 else 0.0
                sys.stderr.write(f"\r[{bar:<25}] {done}/{len(lines)} hands ({pct}%)  ETA {int(eta) // 60}:{int(eta) % 60:02d} ")
                sys.stderr.flush()
    finally:
        if show:
            sys.stderr.write("\n")
        if src is not sys.stdin:
            src.close()
        if dst is not sys.stdout:
            dst.close()
    if errors:
        print(f"hupai: {errors} of {done} lines could not be scored (see their error objects)", file=sys.stderr)
        return 1
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.hand:
            raise hupai.InvalidHandError("give either a hand or --jsonl, not both")
        return _score_jsonl(args)
    if not args.hand:
        raise hupai.InvalidHandError("no hand given (or use --jsonl FILE)")
    variant = _variant(args)
    if variant.input not in ("tiles", "zipai"):
        # a card game's case: the hand string and its situation keys (docs/<game>.md)
        result = hupai.score({"hand": args.hand, "situation": _flags(args)}, variant)
    else:
        result = hupai.score(_situation(args), variant)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        _print_table(result, sys.stdout)
    return 0


def _add_score_parser(sub: Any) -> None:
    sc = sub.add_parser(
        "score",
        help="score a win under any preset (国标 MCR by default): fan table, total, payments",
        description=(
            "Score a winning hand under any preset (--variant; `hupai variants` lists them). HAND is "
            "standing tiles ('123m456p78s99s', winning tile via --win-tile) or bracket notation with "
            "melds and the winning tile: '[EEE,1]123m456p78s99s+9s' (',1/2/3' = claimed from "
            "left/across/right; a kong without it is concealed). 字牌 presets take cards (see "
            "`hupai zipai score -h`). With --jsonl, score one request per line: "
            '{"variant"?, "options"?, "hand", "situation"?, "id"?}.'
        ),
    )
    sc.add_argument("hand", nargs="?", help="the hand, e.g. '[EEE,1]123m456p78s99s+9s'")
    sc.add_argument("--win-tile", "-w", help="the winning tile (instead of '+T' in HAND)")
    sc.add_argument("--melds", "-m", nargs="*", help="melds such as EEE,2 or [1111m] (concealed kong)")
    sc.add_argument("--self-drawn", action="store_true", help="自摸")
    sc.add_argument(
        "--win-type",
        choices=["self_draw", "kong_replacement", "discard", "after_kong_discard", "rob_kong"],
        help="how the tile arrived (instead of --self-drawn/--about-kong; 杠上炮 = after_kong_discard)",
    )
    sc.add_argument("--void-suit", choices=["m", "p", "s"], help="定缺 suit (四川)")
    sc.add_argument("--dealer", action="store_true", help="the winner is the dealer")
    sc.add_argument("--fourth-tile", action="store_true", help="和绝张")
    sc.add_argument("--about-kong", action="store_true", help="杠上开花 (self-drawn) / 抢杠和 (discard)")
    sc.add_argument("--wall-last", action="store_true", help="妙手回春 (self-drawn) / 海底捞月 (discard)")
    sc.add_argument("--seat-wind", default="E", help="the winner's seat wind (E, S, W, N)")
    sc.add_argument("--prevalent-wind", default="E", help="the prevalent (round) wind")
    sc.add_argument("--flowers", type=int, default=0, help="number of flowers (0..8)")
    sc.add_argument("--blessing", choices=["heaven", "earth", "human"], help="天和 / 地和 / 人和")
    sc.add_argument(
        "--flag",
        action="append",
        metavar="KEY=VALUE",
        help="any other situation key, e.g. liangdao=true, kai_bao=1, wild_indicator=4m, seat=2 (repeatable)",
    )
    sc.add_argument(
        "--situation",
        metavar="JSON",
        help='situation keys as a JSON object, as POST /v1/score takes them, e.g. \'{"flower_tiles": ["f1"]}\'',
    )
    sc.add_argument("--variant", default="mcr", help="the preset id (default mcr; `hupai variants` lists them)")
    sc.add_argument("--set", action="append", metavar="SWITCH=VALUE", help="override a variant switch")
    sc.add_argument("--json", action="store_true", help="print the result as JSON")
    sc.add_argument("--jsonl", metavar="IN", help="score every line of a JSON Lines file ('-' = stdin)")
    sc.add_argument("-o", "--output", metavar="OUT", help="output file for --jsonl (default stdout)")
    sc.add_argument("--progress", action="store_true", help="progress bar on stderr (default: only on a tty)")
    sc.set_defaults(func=_cmd_score)


def plain(doc: str | None) -> str:
    """A docstring as --help text: reST markup (double backticks, ``:func:`` roles) removed."""
    text = re.sub(r":[a-z]+:`([^`]*)`", r"\1", doc or "")
    return text.replace("``", "")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hupai", description=plain(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"hupai {hupai.__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    hand_opts = argparse.ArgumentParser(add_help=False)
    hand_opts.add_argument("hand", help="the hand, e.g. '[EEE,1]123m456p78s99s' or '123m456p789sEEECC'")
    hand_opts.add_argument(
        "--shapes",
        help="comma-separated allowed shapes: standard, seven_pairs, seven_pairs_quads, "
        "thirteen_orphans, honors_knitted, knitted_straight, all (default: all)",
    )
    hand_opts.add_argument("--wildcards", type=int, default=0, help="wildcard tiles in the hand besides HAND")
    hand_opts.add_argument("--json", action="store_true", help="print JSON")
    visible = argparse.ArgumentParser(add_help=False)
    visible.add_argument("--visible", help="tiles seen elsewhere (discards, others' melds), e.g. '555m9p'")

    def add(name: str, help: str, func: Callable[[argparse.Namespace], int], *parents: argparse.ArgumentParser) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help, parents=[hand_opts, *parents])
        sp.set_defaults(func=func)
        return sp

    add("win", "is the hand complete (胡)?", _cmd_win)
    add("waits", "tiles that complete a waiting hand (听牌)", _cmd_waits, visible)
    add("shanten", "shanten number (向听) per shape", _cmd_shanten)
    add("decompose", "every decomposition of a complete hand", _cmd_decompose)
    d = add("discards", "discard options of a hand that just drew, best first", _cmd_discards, visible)
    d.add_argument("--top", type=int, default=0, help="show only the best N options")
    v = sub.add_parser("variants", help="list the presets, or show one preset's fan table and switches")
    v.add_argument("id", nargs="?", help="a preset id, e.g. sichuan")
    v.add_argument("--set", action="append", metavar="SWITCH=VALUE", help="override a switch (repeatable)")
    v.add_argument("--json", action="store_true", help="print JSON")
    v.set_defaults(func=_cmd_variants)
    demo = sub.add_parser("demo", help="a short tour on built-in examples")
    demo.set_defaults(func=_cmd_demo)
    _add_score_parser(sub)
    _add_zipai(sub)
    from hupai.doudizhu_cli import add_parsers as _add_doudizhu

    _add_doudizhu(sub)
    from hupai.dingniu_cli import add_parser as _add_dingniu

    _add_dingniu(sub)
    from hupai.gouji_cli import add_parsers as _add_gouji

    _add_gouji(sub)
    _add_serve(sub)
    from hupai.game.cli import add_parsers as _add_game

    _add_game(sub, default_variant="sichuan")  # the preset `hupai play|simulate` use without --variant
    return p


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        print("hupai: error: the service needs the server extra: pip install 'hupai[server]'", file=sys.stderr)
        return 2
    # loop/http "auto": uvloop and httptools when installed (the server extra installs them)
    import importlib.util

    if importlib.util.find_spec("httptools") is None:
        print(
            "hupai: warning: httptools is not installed, uvicorn falls back to h11, which answers"
            " about 40x fewer requests per second here (delayed ACKs); pip install 'hupai[server]'",
            file=sys.stderr,
        )
    url = serve_url(args.host, args.port)
    print(
        f"hupai: serving the fan calculator at {url} (play against the bots: {url}play, replays: {url}replay;"
        " API docs /docs, /redoc); Ctrl-C stops",
        flush=True,
    )
    uvicorn.run(
        "hupai.server.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers if args.workers is not None else default_workers(),
        log_level=args.log_level,
        access_log=args.access_log,
        loop="auto",
        http="auto",
        timeout_keep_alive=args.keep_alive,
    )
    return 0


def serve_url(host: str, port: int) -> str:
    """The URL to open for ``hupai serve --host HOST --port PORT`` (a wildcard host is reached
    through localhost; an IPv6 address is bracketed)."""
    shown = "localhost" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def default_workers() -> int:
    """Worker processes of ``hupai serve`` by default: one per CPU this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _add_serve(sub: Any) -> None:
    """``hupai serve``: the scoring service and the web fan calculator (hupai.server)."""
    sv = sub.add_parser("serve", help="run the scoring service and web fan calculator (needs hupai[server])")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)")
    sv.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    sv.add_argument("--workers", type=int, default=None, help="worker processes (default: one per CPU)")
    sv.add_argument(
        "--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"], help="server log level (default warning)"
    )
    sv.add_argument("--access-log", action="store_true", help="log every request (off by default: it costs throughput)")
    sv.add_argument("--keep-alive", type=int, default=5, metavar="SECONDS", help="idle keep-alive timeout (default 5)")
    sv.set_defaults(func=_cmd_serve)


def _add_zipai(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``hupai zipai score ...`` and ``hupai zipai waits ...`` (字牌)."""
    from hupai import zipai

    z = sub.add_parser("zipai", help="字牌: score a win or list waits")
    zsub = z.add_subparsers(dest="zipai_command", required=True)
    zs = zsub.add_parser("score", help="score a 字牌 win (胡息, 舵/囤, 醒, payments)")
    zipai.add_cli_arguments(zs)
    zs.set_defaults(func=zipai.score_cli)
    zw = zsub.add_parser("waits", help="cards completing a 字牌 hand, with 胡息")
    zipai.add_cli_arguments(zw, waits_only=True)
    zw.set_defaults(func=zipai.waits_cli)


def _route_zipai_score(argv: list[str]) -> list[str]:
    """``hupai score --variant X`` of a preset that scores cards (``Variant.input == "zipai"``) takes
    字牌 arguments: route it to ``hupai zipai score``."""
    if not argv or argv[0] != "score" or any(a == "--jsonl" or a.startswith("--jsonl=") for a in argv):
        return argv  # --jsonl takes requests of any preset
    variant = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--variant"), None)
    variant = variant or next((a.split("=", 1)[1] for a in argv if a.startswith("--variant=")), None)
    try:
        cards = variant is not None and hupai.Variant(variant).input == "zipai"
    except hupai.HupaiError:
        cards = False  # the score command reports the unknown variant
    if not cards:
        return argv
    return ["zipai", "score", *("--option" if a == "--set" else a for a in argv[1:])]


def main(argv: Sequence[str] | None = None) -> int:
    argv = _route_zipai_score(list(sys.argv[1:] if argv is None else argv))
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (hupai.HupaiError, CliError) as e:
        print(f"hupai: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `hupai variants | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
