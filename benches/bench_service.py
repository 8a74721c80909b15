"""Load test of the scoring service: ``hupai serve`` on loopback under ``wrk``, against
``hupai.batch.score`` on the same hands.

Run (needs the Debian ``wrk`` package and the ``server`` extra)::

    python benches/bench_service.py [--duration 60] [--connections 32] [--threads 2] [--workers 2]
        [--batch-duration 20] [--ceiling-duration 20] [--no-write]

The hand mix is every case of ``shared/cases/mcr_dev.jsonl`` that scores (MCR, all forms; the
situation flags as recorded) plus the two-suit, honour-free, chow-free ones again as 四川 hands.
Each is turned into a ``POST /v1/score`` body; a Lua script makes wrk cycle through them. The
server runs on 127.0.0.1 on a free port, wrk runs ``--duration`` seconds (loopback only). Records
requests/s, p50/p99 latency, non-2xx and socket errors into section ``service`` of
``benches/RESULTS.md``, with two references measured in the same run:

* the ceiling: the same wrk command against ``benches/ceiling_app.py``, a raw ASGI app on the
  same uvicorn (same workers, uvloop/httptools) that reads the body and answers a fixed JSON
  object — no service can beat it on this machine;
* ``hupai.batch.score`` in process on the same hands (see ``direct_throughput``).
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


def lua_script(bodies: list[dict[str, Any]], path: str = "/v1/score", pipeline: int = 1) -> str:
    """A wrk script cycling through ``bodies``; ``pipeline`` > 1 sends that many requests per
    write (HTTP/1.1 pipelining: each connection has ``pipeline`` requests in flight)."""
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
        "  local out = {}\n"
        f"  for _ = 1, {pipeline} do\n"
        "    i = i % n + 1\n"
        f'    out[#out + 1] = wrk.format(nil, "{path}", nil, bodies[i])\n'
        "  end\n"
        "  return table.concat(out)\n"
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


def direct_throughput(bodies: list[dict[str, Any]], seconds: float = 3.0) -> dict[str, float]:
    """Hands per second of calling hupai directly on the same hands, in this process, all cores.

    ``dicts`` (the figure the service is compared with): the request bodies as Python dicts
    (already parsed), MCR through one ``hupai.batch.score(cases, "mcr")`` call per pass (rayon, GIL
    released for the scoring), 四川 through ``hupai.sichuan.score`` one by one (there is no 四川
    batch scorer); results are the ``Score`` objects (not converted to dicts or JSON).
    ``json`` : the same with each MCR case as JSON text (``hupai.batch.score`` parses it in Rust).
    ``engine``: MCR only, prebuilt ``hupai.Situation`` objects — the scoring alone, no parsing.
    """
    import hupai.sichuan

    items = [{"variant": b["variant"], "hand": b["hand"], "situation": b["situation"]} for b in bodies]
    mcr = [{"hand": i["hand"], "situation": i["situation"]} for i in items if i["variant"] == "mcr"]
    sic = [{"hand": i["hand"], "situation": i["situation"]} for i in items if i["variant"] == "sichuan"]
    mcr_text = [json.dumps(c, separators=(",", ":"), ensure_ascii=False) for c in mcr]
    sits = [hupai.Situation.from_dict(c) for c in mcr]
    variant = hupai.Variant("mcr")

    def rate(one_pass: Any, n: int) -> float:
        one_pass()  # warm-up
        done, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            one_pass()
            done += n
        return done / (time.perf_counter() - t0)

    def sichuan() -> None:
        for c in sic:
            hupai.sichuan.score(c)

    return {
        "dicts": rate(lambda: (hupai.batch.score(mcr, variant), sichuan()), len(items)),
        "json": rate(lambda: (hupai.batch.score(mcr_text, variant), sichuan()), len(items)),
        "engine": rate(lambda: hupai.batch.score(sits, variant), len(sits)),
    }


def wait_ready(url: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("server did not start")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def run_ceiling(wrk: str, script: str, args: argparse.Namespace) -> str:
    """wrk against the do-nothing ASGI app (benches/ceiling_app.py) on the same uvicorn set-up."""
    port = _free_port()
    cmd = [
        sys.executable, "-m", "uvicorn", "--app-dir", str(Path(__file__).resolve().parent), "ceiling_app:app",
        "--host", "127.0.0.1", "--port", str(port), "--workers", str(args.workers),
        "--no-access-log", "--log-level", "warning",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(f"http://127.0.0.1:{port}/", proc)
        out, _ = run_wrk(wrk, f"http://127.0.0.1:{port}", script, args, args.ceiling_duration)
    finally:
        stop(proc)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=int, default=60, help="wrk seconds on /v1/score (default 60)")
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2, help="wrk threads")
    ap.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    ap.add_argument("--batch-size", type=int, default=32, help="hands per /v1/score/batch body")
    ap.add_argument("--batch-duration", type=int, default=20, help="wrk seconds on /v1/score/batch (0: skip)")
    ap.add_argument("--ceiling-duration", type=int, default=20, help="wrk seconds on the empty ASGI app (0: skip)")
    ap.add_argument(
        "--pipeline-duration", type=int, default=20, help="wrk seconds on /v1/score with HTTP pipelining (0: skip)"
    )
    ap.add_argument("--pipeline", type=int, default=8, help="requests per connection in flight for that run")
    ap.add_argument("--no-write", action="store_true", help="print, do not write RESULTS.md")
    args = ap.parse_args()
    wrk = shutil.which("wrk")
    if not wrk:
        print("wrk not found (apt-get install wrk)", file=sys.stderr)
        return 2

    import importlib.util

    missing = [m for m in ("httptools", "uvloop") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"{', '.join(missing)} not installed: pip install -e '.[server]' (uvicorn would fall back to a slower stack)", file=sys.stderr)
        return 2
    load0 = os.getloadavg()[0]
    bodies = hand_mix()
    n_sichuan = sum(b["variant"] == "sichuan" for b in bodies)
    print(f"{len(bodies)} request bodies ({len(bodies) - n_sichuan} MCR, {n_sichuan} 四川)")
    script = lua_script(bodies)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "hupai", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(args.workers)]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(base + "/healthz", server)
        out, wrk_cmd = run_wrk(wrk, base, script, args, args.duration)
        bout = pout = ""
        if args.pipeline_duration > 0:
            pout, _ = run_wrk(wrk, base, lua_script(bodies, pipeline=args.pipeline), args, args.pipeline_duration)
        if args.batch_duration > 0:
            bscript = lua_script(batch_bodies(bodies, args.batch_size), "/v1/score/batch")
            bout, _ = run_wrk(wrk, base, bscript, args, args.batch_duration)
    finally:
        stop(server)
    cout = run_ceiling(wrk, script, args) if args.ceiling_duration > 0 else ""
    print(out)
    print(bout)
    print(cout)
    r = parse_wrk(out)
    rb = parse_wrk(bout) if bout else None
    rp = parse_wrk(pout) if pout else None
    rc = parse_wrk(cout) if cout else None
    direct = direct_throughput(bodies)
    ratio = direct["dicts"] / r["rps"]
    errors = r["non2xx"] + r["socket_errors"]
    extra_rows = ""
    if rp is not None:
        errors += rp["non2xx"] + rp["socket_errors"]
        extra_rows += (
            f"| `/v1/score`, HTTP/1.1 pipelining ({args.pipeline} requests in flight per connection), "
            f"{args.pipeline_duration} s | {rp['rps']:.0f} requests/s, p50 {rp['p50']:.2f} ms, p99 {rp['p99']:.2f} ms, "
            f"errors {rp['non2xx'] + rp['socket_errors']} |\n"
            f"| direct ÷ service (pipelined) | {direct['dicts'] / rp['rps']:.2f}× |\n"
        )
    if rb is not None:
        errors += rb["non2xx"] + rb["socket_errors"]
        hands = rb["rps"] * args.batch_size
        extra_rows += (
            f"| `/v1/score/batch`, {args.batch_size} hands per request, {args.batch_duration} s | "
            f"{rb['rps']:.0f} requests/s = {hands:.0f} hands/s, p50 {rb['p50']:.2f} ms, p99 {rb['p99']:.2f} ms, "
            f"errors {rb['non2xx'] + rb['socket_errors']} |\n"
            f"| direct ÷ service (batch endpoint) | {direct['dicts'] / hands:.2f}× |\n"
        )
    ceiling_note = ""
    if rc is not None:
        extra_rows += (
            f"| ceiling: empty ASGI app, same uvicorn and wrk, {args.ceiling_duration} s | "
            f"{rc['rps']:.0f} requests/s, p50 {rc['p50']:.2f} ms, p99 {rc['p99']:.2f} ms |\n"
            f"| service ÷ ceiling | {r['rps'] / rc['rps']:.0%} |\n"
            f"| direct ÷ ceiling (best any one-hand-per-request server on this stack could reach) | "
            f"{direct['dicts'] / rc['rps']:.2f}× |\n"
        )
        ceiling_note = (
            f" The ceiling bounds it: an ASGI app that does nothing answers {rc['rps']:.0f} requests/s here, "
            f"so 2× of the direct figure ({direct['dicts'] / 2:.0f} requests/s) is "
            f"{'within' if rc['rps'] >= direct['dicts'] / 2 else 'beyond'} reach of any handler on this HTTP stack."
        )
    shown = " ".join(Path(c).name if i == 0 else c for i, c in enumerate(wrk_cmd[:-3])) + " -s score.lua URL"
    md = f"""## Scoring service under load (`benches/bench_service.py`)

Machine: {machine()}.
Command: `python benches/bench_service.py --duration {args.duration} --connections {args.connections} --threads {args.threads} --workers {args.workers} --batch-size {args.batch_size} --batch-duration {args.batch_duration} --ceiling-duration {args.ceiling_duration} --pipeline {args.pipeline} --pipeline-duration {args.pipeline_duration}`
Load average when it started: {load0:.1f} (the machine is shared).
(`hupai serve --workers {args.workers}` on 127.0.0.1 — uvicorn with uvloop and httptools, access log
off — then `{shown}`; wrk and the server share the cores).
Hand mix: {len(bodies)} `POST /v1/score` bodies cycled in order: every scorable case of `mcr_dev.jsonl`
({len(bodies) - n_sichuan} MCR) plus {n_sichuan} two-suit honour-free ones as 四川.
Direct (in process, same hands, all cores): MCR through one `hupai.batch.score(cases, "mcr")` call over
the case dicts, 四川 through `hupai.sichuan.score` one by one (no 四川 batch scorer), results left as
`Score` objects; parsing the JSON text into dicts is not counted.

| measure | value |
|---|---|
| requests | {r["requests"]} in {args.duration} s |
| requests/s | {r["rps"]:.0f} |
| latency p50 | {r["p50"]:.2f} ms |
| latency p99 | {r["p99"]:.2f} ms |
| errors (non-2xx + socket, all service runs) | {errors} |
| direct: `hupai.batch.score` on the case dicts (+ 四川 singles) | {direct["dicts"]:.0f} hands/s |
| direct ÷ service (`/v1/score`) | {ratio:.2f}× |
| direct, MCR cases as JSON text (parsed in Rust) | {direct["json"]:.0f} hands/s |
| engine only: `hupai.batch.score` on prebuilt `Situation`s (MCR) | {direct["engine"]:.0f} hands/s |
{extra_rows}
Goal: zero errors ({"met" if errors == 0 else "NOT met"}); throughput within 2× of the direct batch call
({"met" if ratio <= 2 else "NOT met"}: {ratio:.2f}×).{ceiling_note}
"""
    if args.no_write:
        print(md)
    else:
        write_section("service", md)
        print(md)
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
