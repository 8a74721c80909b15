"""``hupai simulate``, ``hupai play`` and ``hupai replay`` subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from hupai._core import Variant
from hupai._paths import output_format
from hupai.game.actions import tile_name
from hupai.game.agents import make_agent
from hupai.game.log import read_jsonl, replay
from hupai.game.simulate import simulate
from hupai.game.table import SEAT_NAMES, Table


def _variant(args: argparse.Namespace) -> Variant:
    v = Variant.load(args.variant)
    opts: dict[str, Any] = {}
    for item in args.set or []:
        k, _, val = item.partition("=")
        opts[k] = True if val == "true" else False if val == "false" else int(val) if val.lstrip("-").isdigit() else val
    return v.with_options(**opts) if opts else v


def _cmd_simulate(args: argparse.Namespace) -> int:
    if args.out is not None:
        output_format(args.out, "--out")  # refused before any hand is played
    agents = args.agents.split(",")
    res = simulate(
        _variant(args),
        args.n,
        agents=agents[0] if len(agents) == 1 else agents,
        seed=args.seed,
        workers=args.workers,
        backend=args.backend,
        out=args.out,
        progress=not args.quiet,
        ray_address=args.ray_address,
    )
    if args.json:
        print(json.dumps(res.to_json(), ensure_ascii=False))
    else:
        print(res.summary())
    return 0


def _print_events(t: Table, log: list[dict[str, Any]], out: Any) -> None:
    for e in log:
        k = e["type"]
        if k == "start":
            print(f"{e['variant']} seed {e['seed']} dealer {SEAT_NAMES[e['dealer']]}", file=out)
        elif k == "action":
            who = SEAT_NAMES[e["seat"]]
            tile = tile_name(e["tile"]) if e.get("tile", -1) >= 0 else ""
            if e["kind"] == "pass":
                continue
            if e["kind"] == "exchange":
                tile = " ".join(tile_name(x) for x in e["tiles"])
            if e["kind"] == "declare_void":
                tile = "mps"[e["tile"]]
            if e["kind"] == "declare_piao":
                tile = str(e["tile"])
            print(f"  {who} {e['kind']} {tile}", file=out)
        elif k == "win":
            print(f"  ** {SEAT_NAMES[e['seat']]} wins on {tile_name(e['tile'])} ({e['win_type']}) value {e['value']}", file=out)
        elif k == "flower":
            print(f"  {SEAT_NAMES[e['seat']]} flower {tile_name(e['tile'])}", file=out)
        elif k == "wall_empty":
            print("  wall empty", file=out)
        elif k == "end":
            print(f"end: winners {[SEAT_NAMES[w] for w in e['winners']]} balances {e['balances']}", file=out)
    for s in range(t.n):
        print(f"  {SEAT_NAMES[s]}: {t.hand_text(s)}", file=out)


def _cmd_play(args: argparse.Namespace) -> int:
    if args.variant.startswith("zipai"):
        from hupai.game.zipai_table import ZipaiMatch, ZipaiTable, make_zipai_agent

        names = (args.agents.split(",") * 3)[:3]
        if args.hands > 1:  # a match: the core's next_dealer between hands (dealer_after_draw)
            m = ZipaiMatch(_variant(args), seed=args.seed)
            m.play([make_zipai_agent(a, args.seed * 4 + k) for k, a in enumerate(names)], args.hands)
            for k, zt in enumerate(m.tables):
                res = zt.result or {}
                w = res.get("win")
                how = f"seat {w['seat']} wins ({w['win_type']}, {w['huxi']} 胡息)" if w else "荒庄"
                print(f"hand {k + 1}: dealer {zt.dealer}, {how}, balances {res.get('balances')}")
            print(f"totals {m.totals}; next dealer {m.dealer}")
            return 0
        zt = ZipaiTable(_variant(args), seed=args.seed)
        zt.run([make_zipai_agent(a, args.seed * 4 + k) for k, a in enumerate(names)])
        for e in zt.log[1:]:
            print(json.dumps(e, ensure_ascii=False))
        if args.log:
            from hupai.game.log import write_jsonl

            write_jsonl(zt.log, args.log)
        return 0
    t = Table(_variant(args), seed=args.seed)
    agents = [make_agent(a, args.seed * 4 + k) for k, a in enumerate((args.agents.split(",") * 4)[: t.n])]
    for s in range(t.n):
        print(f"{SEAT_NAMES[s]} dealt: {t.hand_text(s)}")
    t.run(agents)
    _print_events(t, t.log, sys.stdout)
    if args.log:
        from hupai.game.log import write_jsonl

        write_jsonl(t.log, args.log)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    log = read_jsonl(args.log)
    if log and str(log[0].get("variant", "")).startswith("zipai"):
        from hupai.game.zipai_table import replay as zipai_replay

        zipai_replay(log)
        for e in log[1:]:
            print(json.dumps(e, ensure_ascii=False))
        print("replay: identical")
        return 0
    t = replay(log)
    _print_events(t, log, sys.stdout)
    print("replay: identical")
    return 0


def add_parsers(sub: Any) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--variant",
        default="sichuan",
        help="sichuan, mcr, hebei, huanle3d, shaanxi, hebei_draft4, shanghai, wuhan, kawuxing (3 seats), erren (2 seats), or zipai_guilin / zipai_hunan (3 seats)",
    )
    common.add_argument("--set", action="append", metavar="SWITCH=VALUE", help="override a switch (repeatable)")
    common.add_argument("--seed", type=int, default=0, help="master seed (the same seed plays the same hands)")
    common.add_argument("--agents", default="random", help="random, greedy, defensive (one, or four comma-separated; zipai: random, greedy, one or three)")
    s = sub.add_parser("simulate", help="simulate many hands and print a summary", parents=[common])
    s.add_argument("-n", type=int, default=1000, help="number of hands")
    s.add_argument("--workers", type=int, default=1, help="worker processes (local) or Ray CPUs (default 1)")
    s.add_argument("--backend", choices=["local", "ray"], default="local", help="local processes or Ray tasks (default local)")
    s.add_argument("--ray-address", default=None, help="an existing Ray cluster (else RAY_ADDRESS or a local one)")
    s.add_argument("--out", metavar="FILE", help="per-hand records: FILE.parquet (needs pyarrow) or FILE.jsonl; checked before any hand is played")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.add_argument("--quiet", action="store_true", help="no progress line (hands done, hands/s, ETA)")
    s.set_defaults(func=_cmd_simulate)
    p = sub.add_parser("play", help="play one hand and print it turn by turn", parents=[common])
    p.add_argument("--log", help="write the event log as JSON Lines")
    p.add_argument("--hands", type=int, default=1, help="zipai: play a match of this many hands (dealer rotation by the rules)")
    p.set_defaults(func=_cmd_play)
    r = sub.add_parser("replay", help="replay a JSON Lines event log and check it")
    r.add_argument("log", help="the JSON Lines event log (written by play --log)")
    r.set_defaults(func=_cmd_replay)


