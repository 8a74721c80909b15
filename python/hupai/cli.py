"""The ``hupai`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import hupai


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


def _cmd_variants(args: argparse.Namespace) -> int:
    if not args.id:
        listed = hupai.variants()
        if args.json:
            print(json.dumps(listed, ensure_ascii=False))
        else:
            for v in listed:
                print(f"{v['id']:<10} {v['name']}  ({v['players']} players)\n           {v['description']}")
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
        for f in d["fans"]:
            flags = [] if f.get("enabled", True) else ["off by default"]
            if f.get("countable"):
                flags.append("each")
            extra = f" ({', '.join(flags)})" if flags else ""
            print(f"  {f['id']:<20} {f['zh']:<8} {f['op']:<5} {f['value']:>3}{extra}")
    if d["switches"]:
        print("\nswitches:")
        for sw in d["switches"]:
            allowed = "|".join(str(x) for x in sw.get("values", [])) or (
                "true|false" if isinstance(sw["default"], bool) else f"{sw.get('min')}..{sw.get('max')}"
            )
            print(f"  {sw['name']} = {json.dumps(sw['value'], ensure_ascii=False)}  [{allowed}]")
            print(f"      {sw['description']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hupai", description=__doc__)
    p.add_argument("--version", action="version", version=f"hupai {hupai.__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("decompose", help="every decomposition of a complete hand")
    d.add_argument("hand")
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=_cmd_decompose)
    v = sub.add_parser("variants", help="list the presets, or show one preset's fan table and switches")
    v.add_argument("id", nargs="?", help="a preset id, e.g. sichuan")
    v.add_argument("--set", action="append", metavar="SWITCH=VALUE", help="override a switch (repeatable)")
    v.add_argument("--json", action="store_true")
    v.set_defaults(func=_cmd_variants)
    demo = sub.add_parser("demo", help="a short tour on a built-in example")
    demo.set_defaults(func=_cmd_demo)
    _add_zipai(sub)
    return p


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


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except hupai.HupaiError as e:
        print(f"hupai: error: {e}", file=sys.stderr)
        return 2
