"""``hupai simulate``, ``hupai play`` and ``hupai replay`` subcommands (every preset, 字牌 too)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from hupai._core import Match, Table, Variant, seat_names, table_seats
from hupai._paths import output_format
from hupai.game.agents import make_agent
from hupai.game.log import read_jsonl, replay, write_jsonl
from hupai.game.simulate import simulate


def _variant(args: argparse.Namespace) -> Variant:
    v = Variant.load(args.variant)
    opts: dict[str, Any] = {}
    for item in args.set or []:
        k, _, val = item.partition("=")
        opts[k] = True if val == "true" else False if val == "false" else int(val) if val.lstrip("-").isdigit() else val
    return v.with_options(**opts) if opts else v


def _agent_names(args: argparse.Namespace, seats: int) -> list[str]:
    names = args.agents.split(",")
    return (names * seats)[:seats] if len(names) == 1 else names


def _cmd_simulate(args: argparse.Namespace) -> int:
    for path, option in ((args.out, "--out"), (args.trajectories, "--trajectories")):
        if path is not None:
            output_format(path, option)  # refused before any hand is played
    v = _variant(args)
    names = _agent_names(args, table_seats(v))
    res = simulate(
        v,
        args.n,
        agents=names,
        seed=args.seed,
        workers=args.workers,
        backend=args.backend,
        out=args.out,
        trajectories=args.trajectories,
        progress=not args.quiet,
        ray_address=args.ray_address,
        check=args.check,
    )
    print(json.dumps(res.to_json(), ensure_ascii=False) if args.json else res.summary())
    return 0


def _print_events(log: list[dict[str, Any]], out: Any) -> None:
    names: list[str] = []
    for e in log:
        k = e["type"]
        who = names[e["seat"]] if "seat" in e and isinstance(e["seat"], int) and e["seat"] < len(names) else ""
        if k == "start":
            names = seat_names(max(2, table_seats(Variant.load(e["variant"]))))
            print(f"{e['variant']} seed {e['seed']} dealer {names[e['dealer']]}", file=out)
        elif k == "action":
            if e["kind"] == "pass":
                continue
            what = " ".join(e.get("tiles", [])) or e.get("tile", "") or str(e.get("value", ""))
            print(f"  {names[e['seat']]} {e['kind']} {what}".rstrip(), file=out)
        elif k == "win":
            print(f"  ** {who} wins on {e['tile']} ({e['win_type']}) value {e['value']}", file=out)
        elif k in ("flower", "sao", "saochuan", "guosao", "kaiduo", "bi_hu", "xianggong"):
            print(f"  {who} {k} {e.get('tile', '')}".rstrip(), file=out)
        elif k in ("wall_empty", "exhausted"):
            print("  wall empty", file=out)
        elif k == "end":
            print(f"end: winners {[names[w] for w in e['winners']]} balances {e['balances']}", file=out)
        elif k == "settle":
            print(f"end: balances {e['net']}", file=out)


def _cmd_play(args: argparse.Namespace) -> int:
    v = _variant(args)
    if args.human is not None:
        from hupai.errors import RuleConfigError
        from hupai.game.terminal import play_terminal

        if args.hands != 1:
            raise RuleConfigError("--human plays one hand: leave out --hands")
        return play_terminal(v, args.human, args.seed, _agent_names(args, table_seats(v)), log=args.log)
    n = table_seats(v)
    names = _agent_names(args, n)
    if args.hands > 1:
        m = Match(v, seed=args.seed)
        for _ in range(args.hands):
            m.play_hand([make_agent(a, args.seed * 4 + k) for k, a in enumerate(names)])
        for i, h in enumerate(m.hands):
            r = h["result"]
            how = f"seats {r['winners']} win" if r["winners"] else "荒庄"
            print(f"hand {i + 1}: dealer {h['dealer']}, {how}, balances {r['balances']}")
        print(f"totals {m.scores}; next dealer {m.dealer}")
        return 0
    t = Table(v, seed=args.seed)
    seats = seat_names(n)
    if t.family == "mahjong":
        for s in range(n):
            print(f"{seats[s]} dealt: {t.hand_text(s)}")
    t.run([make_agent(a, args.seed * 4 + k) for k, a in enumerate(names)])
    _print_events(t.log, sys.stdout)
    if t.family == "mahjong":
        for s in range(n):
            print(f"  {seats[s]}: {t.hand_text(s)}")
    if args.log:
        write_jsonl(t.log, args.log)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    log = read_jsonl(args.log)
    replay(log)
    if args.serve:
        return _serve_replay(args)
    _print_events(log, sys.stdout)
    print("replay: identical")
    return 0


def _serve_replay(args: argparse.Namespace) -> int:
    """``hupai replay --serve LOG``: the replay viewer with this log, on one local server."""
    import os

    try:
        import uvicorn
    except ImportError:
        print("hupai: error: the viewer needs the server extra: pip install 'hupai[server]'", file=sys.stderr)
        return 2
    from hupai.server.play import REPLAY_ENV

    os.environ[REPLAY_ENV] = os.path.abspath(args.log)
    from hupai.cli import serve_url

    print(f"hupai: the replay viewer of {args.log} at {serve_url(args.host, args.port)}replay; Ctrl-C stops", flush=True)
    uvicorn.run("hupai.server.app:create_app", factory=True, host=args.host, port=args.port, workers=1, log_level="warning")
    return 0


def add_parsers(sub: Any, default_variant: str) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--variant",
        default=default_variant,
        help="any preset the table plays: sichuan, mcr, hebei, huanle3d, shaanxi, hebei_draft4, shanghai, wuhan, kawuxing (3 seats), erren (2 seats), zipai_guilin / zipai_hunan (3 seats)",
    )
    common.add_argument("--set", action="append", metavar="SWITCH=VALUE", help="override a switch (repeatable)")
    common.add_argument("--seed", type=int, default=0, help="master seed (the same seed plays the same hands)")
    common.add_argument("--agents", default="greedy", help="random, greedy, defensive: one for every seat, or one per seat comma-separated")
    s = sub.add_parser("simulate", help="simulate many hands in the core and print a summary", parents=[common])
    s.add_argument("-n", type=int, default=1000, help="number of hands")
    s.add_argument("--workers", type=int, default=1, help="threads (local) or Ray CPUs")
    s.add_argument("--backend", choices=["local", "ray"], default="local", help="local threads or Ray tasks")
    s.add_argument("--ray-address", default=None, help="an existing Ray cluster (else RAY_ADDRESS or a local one)")
    s.add_argument("--out", metavar="FILE", help="per-hand summaries: FILE.parquet (needs pyarrow) or FILE.jsonl; checked before any hand is played")
    s.add_argument("--trajectories", metavar="FILE", help="every event, one row each: FILE.parquet or FILE.jsonl; checked before any hand is played")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.add_argument("--quiet", action="store_true", help="no progress line (hands done, hands/s, ETA)")
    s.add_argument(
        "--check",
        action="store_true",
        help="checking mode: pieces accounted for and legal actions after every step, the game's own invariants, zero-sum, identical replays",
    )
    s.set_defaults(func=_cmd_simulate)
    p = sub.add_parser("play", help="play one hand and print it turn by turn", parents=[common])
    p.add_argument(
        "--human",
        type=int,
        metavar="SEAT",
        help="play this seat yourself (0 = the dealer's seat) against the bots of --agents, in the terminal",
    )
    p.add_argument("--log", help="write the event log as JSON Lines")
    p.add_argument("--hands", type=int, default=1, help="play a match of this many hands (dealer rotation by the rules)")
    p.set_defaults(func=_cmd_play)
    r = sub.add_parser("replay", help="replay a JSON Lines event log (any preset) and check it")
    r.add_argument("log", help="the JSON Lines event log")
    r.add_argument("--serve", action="store_true", help="open the log in the web replay viewer (a local server) instead of printing it")
    r.add_argument("--host", default="127.0.0.1", help="with --serve: the address to listen on")
    r.add_argument("--port", type=int, default=8000, help="with --serve: the port to listen on")
    r.set_defaults(func=_cmd_replay)
