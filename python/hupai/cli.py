"""The ``hupai`` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import hupai
import hupai.batch


def _cmd_decompose(args: argparse.Namespace) -> int:
    ds = hupai.decompose(hupai.Hand.parse(args.hand))
    if args.json:
        print(json.dumps(ds, ensure_ascii=False))
    else:
        if not ds:
            print("not a winning hand")
        for d in ds:
            print(d)
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    hand = hupai.Hand.parse("[EEE,1]123m456p78s99s+9s")
    print(f"hand: {hand}")
    for d in hupai.decompose(hand):
        print(" ", d)
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


def _situation(args: argparse.Namespace) -> hupai.Situation:
    text = args.hand.strip()
    melds = "".join(m if m.startswith("[") else f"[{m}]" for m in args.melds or [])
    if "+" in text:
        if args.win_tile:
            raise hupai.InvalidHandError("give the winning tile either after '+' or with --win-tile, not both")
    elif args.win_tile:
        text = f"{text}+{args.win_tile}"
    else:
        raise hupai.InvalidHandError("the winning tile is missing: use --win-tile T or write the hand as '...+T'")
    flags: dict[str, Any] = {
        "self_drawn": args.self_drawn,
        "fourth_tile": args.fourth_tile,
        "about_kong": args.about_kong,
        "wall_last": args.wall_last,
        "seat_wind": args.seat_wind,
        "prevalent_wind": args.prevalent_wind,
        "flowers": args.flowers,
    }
    if args.blessing:
        flags["blessing"] = args.blessing
    return hupai.Situation.parse(melds + text, **flags)


def _print_table(result: hupai.Score, out: TextIO) -> None:
    rows = [(f.zh, f.en, f.points, f.count, f.points * f.count) for f in result.fans]
    zh_w = max([_width(r[0]) for r in rows] + [4])
    en_w = max([len(r[1]) for r in rows] + [3])
    out.write(f"{_pad('番种', zh_w)}  {'fan'.ljust(en_w)}  {'pts':>4}  {'×':>2}  {'sum':>4}\n")
    for zh, en, pts, cnt, tot in rows:
        out.write(f"{_pad(zh, zh_w)}  {en.ljust(en_w)}  {pts:>4}  {cnt:>2}  {tot:>4}\n")
    out.write(f"{'-' * (zh_w + en_w + 20)}\n")
    out.write(f"total {result.total} (without flowers {result.total_without_flowers}); ")
    out.write("meets the minimum\n" if result.meets_minimum else "BELOW the minimum: not a legal win (诈和)\n")
    d = result.decomposition
    sets = " ".join("".join(s["tiles"]) + ("" if s["concealed"] else "*") for s in d["sets"])
    extra = f" pair {d['pair']}" if d.get("pair") else ""
    out.write(f"reading: {d['form']} {sets}{extra}  (* = melded)\n")


def _width(text: str) -> int:
    return sum(2 if ord(c) > 0x2E7F else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def _score_jsonl(args: argparse.Namespace) -> int:
    variant = _variant(args)
    src: TextIO = sys.stdin if args.jsonl == "-" else open(args.jsonl, encoding="utf-8")  # noqa: SIM115
    dst: TextIO = sys.stdout if args.output in (None, "-") else open(args.output, "w", encoding="utf-8")  # noqa: SIM115
    lines = src.read().splitlines()
    show = args.progress or (sys.stderr.isatty() and len(lines) >= 1000)
    errors = 0
    done = 0
    chunk = 4096
    try:
        for start in range(0, len(lines), chunk):
            part = lines[start : start + chunk]
            items: list[Any] = []
            ids: list[Any] = []
            for line in part:
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as e:
                    obj = {"__bad__": f"invalid JSON: {e}"}
                ids.append(obj.get("id") if isinstance(obj, dict) else None)
                items.append(obj if isinstance(obj, dict) and "__bad__" not in obj else line)
            for item_id, res in zip(ids, hupai.batch.score(items, variant), strict=True):
                row = res.to_dict() if isinstance(res, hupai.Score) else dict(res)
                if "error" in row:
                    errors += 1
                if item_id is not None:
                    row = {"id": item_id, **row}
                dst.write(json.dumps(row, ensure_ascii=False) + "\n")
            done += len(part)
            if show:
                pct = 100 * done // max(len(lines), 1)
                bar = "#" * (pct // 4)
                sys.stderr.write(f"\r[{bar:<25}] {done}/{len(lines)} ({pct}%)")
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
    result = hupai.score(_situation(args), _variant(args))
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        _print_table(result, sys.stdout)
    return 0


def _add_score_parser(sub: Any) -> None:
    sc = sub.add_parser(
        "score",
        help="score a win (国标 MCR by default): fan table and total",
        description=(
            "Score a winning hand. HAND is standing tiles ('123m456p78s99s', winning tile via "
            "--win-tile) or bracket notation with melds and the winning tile: '[EEE,1]123m456p78s99s+9s' "
            "(',1/2/3' = claimed from left/across/right; a kong without it is concealed). "
            "With --jsonl, score one case-schema JSON object per line."
        ),
    )
    sc.add_argument("hand", nargs="?")
    sc.add_argument("--win-tile", "-w")
    sc.add_argument("--melds", "-m", nargs="*", help="melds such as EEE,2 or [1111m] (concealed kong)")
    sc.add_argument("--self-drawn", action="store_true", help="自摸")
    sc.add_argument("--fourth-tile", action="store_true", help="和绝张")
    sc.add_argument("--about-kong", action="store_true", help="杠上开花 (self-drawn) / 抢杠和 (discard)")
    sc.add_argument("--wall-last", action="store_true", help="妙手回春 (self-drawn) / 海底捞月 (discard)")
    sc.add_argument("--seat-wind", default="E")
    sc.add_argument("--prevalent-wind", default="E")
    sc.add_argument("--flowers", type=int, default=0)
    sc.add_argument("--blessing", choices=["heaven", "earth", "human"])
    sc.add_argument("--variant", default="mcr")
    sc.add_argument("--set", action="append", metavar="SWITCH=VALUE", help="override a variant switch")
    sc.add_argument("--json", action="store_true", help="print the result as JSON")
    sc.add_argument("--jsonl", metavar="IN", help="score every line of a JSON Lines file ('-' = stdin)")
    sc.add_argument("-o", "--output", metavar="OUT", help="output file for --jsonl (default stdout)")
    sc.add_argument("--progress", action="store_true", help="progress bar on stderr (default: only on a tty)")
    sc.set_defaults(func=_cmd_score)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hupai", description=__doc__)
    p.add_argument("--version", action="version", version=f"hupai {hupai.__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("decompose", help="every decomposition of a complete hand")
    d.add_argument("hand")
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=_cmd_decompose)
    demo = sub.add_parser("demo", help="a short tour on a built-in example")
    demo.set_defaults(func=_cmd_demo)
    _add_score_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except hupai.HupaiError as e:
        print(f"hupai: error: {e}", file=sys.stderr)
        return 2
