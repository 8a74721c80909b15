"""The ceiling of the service bench: a raw ASGI app that does no work.

It reads the request body and answers a fixed small JSON object (the size of a short score),
so ``wrk`` against it measures what uvicorn (+ uvloop/httptools when installed) and the kernel
cost per request on this machine, with nothing of hupai in the path. ``benches/bench_service.py``
starts it with the same worker count as the service::

    python -m uvicorn --app-dir benches ceiling_app:app --workers 2 --no-access-log
"""

from __future__ import annotations

from typing import Any

BODY = b'{"variant":"mcr","total":10,"fans":[]}'
HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":  # lifespan: accept startup/shutdown
        while True:
            msg = await receive()
            if msg["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif msg["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    more = True
    while more:
        msg = await receive()
        more = msg.get("more_body", False)
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": BODY})
