"""Load test of the scoring service: ``hupai serve`` on loopback under ``wrk``, against
``hupai.batch.score`` on the same hands.

Run (needs the Debian ``wrk`` package and the ``server`` extra)::

    python benches/bench_service.py [--duration 60] [--connections 32] [--threads 2] [--workers 2] [--no-write]

The hand mix is every case of ``shared/cases/mcr_dev.jsonl`` that scores (MCR, all forms; the
situation flags as recorded) plus the two-suit, honour-free, chow-free ones again as 四川 hands.
Each is turned into a ``POST /v1/score`` body; a Lua script makes wrk cycle through them. The
server runs on 127.0.0.1 on a free port, wrk runs ``--duration`` seconds (loopback only). Records
requests/s, p50/p99 latency, non-2xx and socket errors, and the in-process ``hupai.batch.score``
throughput on the same hands, into section ``service`` of ``benches/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hupai  # noqa: E402
import hupai.batch  # noqa: E402
from _results import machine, write_section  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _shared() -> Path:
    env = os.environ.get("HUPAI_SHARED")
    if env:
        return Path(env)
    beside = ROOT.parent / "shared"
    return beside if (beside / "cases").exists() else Path("/work/shared")


def _sichuan_shape(case: dict[str, Any]) -> bool:
    h = case["hand"]
    tiles = list(h["concealed"]) + [h["win_tile"]] + [t for m in h.get("melds", []) for t in m["tiles"]]
    if any(len(t) != 2 for t in tiles):
        return False
    if any(m.get("type") == "chow" for m in h.get("melds", [])):
        return False
    return len({t[1] for t in tiles}) <= 2


def hand_mix() -> list[dict[str, Any]]:
    """Request bodies that all score (so any error under load is the service's)."""
    bodies: list[dict[str, Any]] = []
    for line in (_shared() / "cases" / "mcr_dev.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        body = {"variant": "mcr", "hand": case["hand"], "situation": case.get("situation") or {}}
        bodies.append(body)
        if _sichuan_shape(case):
            win = "self_draw" if body["situation"].get("self_drawn") else "discard"
            bodies.append({"variant": "sichuan", "hand": case["hand"], "situation": {"win_type": win}})
    from fastapi.testclient import TestClient

    from hupai.server.app import create_app

    client = TestClient(create_app())
    return [b for b in bodies if client.post("/v1/score", json=b).status_code == 200]


def lua_script(bodies: list[dict[str, Any]], path: str = "/v1/score") -> str:
    rows = []
    for b in bodies:
        text = json.dumps(b, separators=(",", ":"), ensure_ascii=False)
        assert "]==]" not in text
        rows.append(f"[==[{text}]==]")
    return (
        'wrk.method = "POST"\n'
        'wrk.headers["Content-Type"] = "application/json"\n'
        "local bodies = {\n" + ",\n".join(rows) + "\n}\n"
        "local n = #bodies\n"
        "local i = 0\n"
        "request = function()\n"
        "  i = i % n + 1\n"
        f'  return wrk.format(nil, "{path}", nil, bodies[i])\n'
        "end\n"
    )


def batch_bodies(bodies: list[dict[str, Any]], size: int) -> list[dict[str, Any]]:
    """The same hands grouped ``size`` per ``POST /v1/score/batch`` body."""
    return [{"items": bodies[i : i + size]} for i in range(0, len(bodies) - size + 1, size)]


def run_wrk(wrk: str, base: str, script: str, args: argparse.Namespace, duration: int) -> tuple[str, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        lua = Path(tmp) / "score.lua"
        lua.write_text(script, encoding="utf-8")
        cmd = [wrk, f"-t{args.threads}", f"-c{args.connections}", f"-d{duration}s", "--latency", "-s", str(lua), base]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return out, cmd


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ms(value: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s)", value)
    if not m:
        raise ValueError(value)
    x = float(m.group(1))
    return {"us": x / 1000, "ms": x, "s": x * 1000}[m.group(2)]


def parse_wrk(out: str) -> dict[str, Any]:
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    p = {k: _ms(v) for k, v in re.findall(r"^\s+(50|99)%\s+(\S+)", out, re.M)}
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "rps": rps,
        "requests": total,
        "p50": p.get("50"),
        "p99": p.get("99"),
        "non2xx": int(non2xx.group(1)) if non2xx else 0,
        "socket_errors": sum(int(x) for x in sock.groups()) if sock else 0,
    }


def batch_throughput(bodies: list[dict[str, Any]], seconds: float = 3.0) -> float:
    """Hands per second of hupai.batch.score on the same hands (all cores)."""
    items = [{"variant": b["variant"], "hand": b["hand"], "situation": b["situation"]} for b in bodies]
    mcr = [i for i in items if i["variant"] == "mcr"]
    sic = [i for i in items if i["variant"] == "sichuan"]
    done, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        hupai.batch.score(mcr, "mcr")
        for s in sic:  # 四川 has no batch scorer yet: single calls
            hupai.sichuan.score({"hand": s["hand"], "situation": s["situation"]})
        done += len(items)
    return done / (time.perf_counter() - t0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=int, default=60, help="wrk seconds (default 60)")
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2, help="wrk threads")
    ap.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    ap.add_argument("--batch-size", type=int, default=32, help="hands per /v1/score/batch body")
    ap.add_argument("--batch-duration", type=int, default=20, help="wrk seconds on /v1/score/batch (0: skip)")
    ap.add_argument("--no-write", action="store_true", help="print, do not write RESULTS.md")
    args = ap.parse_args()
    wrk = shutil.which("wrk")
    if not wrk:
        print("wrk not found (apt-get install wrk)", file=sys.stderr)
        return 2

    load0 = os.getloadavg()[0]
    bodies = hand_mix()
    n_sichuan = sum(b["variant"] == "sichuan" for b in bodies)
    print(f"{len(bodies)} request bodies ({len(bodies) - n_sichuan} MCR, {n_sichuan} 四川)")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "hupai", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(args.workers)]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(base + "/healthz") as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("server did not start")
        out, wrk_cmd = run_wrk(wrk, base, lua_script(bodies), args, args.duration)
        bout = ""
        if args.batch_duration > 0:
            script = lua_script(batch_bodies(bodies, args.batch_size), "/v1/score/batch")
            bout, _ = run_wrk(wrk, base, script, args, args.batch_duration)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    print(out)
    print(bout)
    r = parse_wrk(out)
    rb = parse_wrk(bout) if bout else None
    direct = batch_throughput(bodies)
    ratio = direct / r["rps"]
    errors = r["non2xx"] + r["socket_errors"]
    batch_rows = ""
    if rb is not None:
        errors += rb["non2xx"] + rb["socket_errors"]
        hands = rb["rps"] * args.batch_size
        batch_rows = (
            f"| `/v1/score/batch`, {args.batch_size} hands per request, {args.batch_duration} s | "
            f"{rb['rps']:.0f} requests/s = {hands:.0f} hands/s, p50 {rb['p50']:.2f} ms, p99 {rb['p99']:.2f} ms, "
            f"errors {rb['non2xx'] + rb['socket_errors']} |\n"
            f"| batch ÷ service (batch endpoint) | {direct / hands:.1f}× |\n"
        )
    shown = " ".join(Path(c).name if i == 0 else c for i, c in enumerate(wrk_cmd[:-3])) + " -s score.lua URL"
    md = f"""## Scoring service under load (`benches/bench_service.py`)

Machine: {machine()}.
Command: `python benches/bench_service.py --duration {args.duration} --connections {args.connections} --threads {args.threads} --workers {args.workers} --batch-size {args.batch_size} --batch-duration {args.batch_duration}`
Load average when it started: {load0:.1f} (the machine is shared).
(`hupai serve --workers {args.workers}` on 127.0.0.1, then `{shown}`; wrk and the server share the cores).
Hand mix: {len(bodies)} `POST /v1/score` bodies cycled in order: every scorable case of `mcr_dev.jsonl`
({len(bodies) - n_sichuan} MCR) plus {n_sichuan} two-suit honour-free ones as 四川.

| measure | value |
|---|---|
| requests | {r["requests"]} in {args.duration} s |
| requests/s | {r["rps"]:.0f} |
| latency p50 | {r["p50"]:.2f} ms |
| latency p99 | {r["p99"]:.2f} ms |
| errors (non-2xx + socket, both runs) | {errors} |
| `hupai.batch.score` on the same hands, in process | {direct:.0f} hands/s |
| batch ÷ service (`/v1/score`) | {ratio:.1f}× |
{batch_rows}
Goal: zero errors ({"met" if errors == 0 else "NOT met"}); throughput within 2× of the direct batch call
({"met" if ratio <= 2 else "NOT met"}: each HTTP request carries one hand, so per-request HTTP/JSON work
dominates; `POST /v1/score/batch` amortises it).
"""
    if args.no_write:
        print(md)
    else:
        write_section("service", md)
        print(md)
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
