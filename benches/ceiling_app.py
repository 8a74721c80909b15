"""The ceiling of the service bench: a raw ASGI app that does no work.

It reads the request body and answers a fixed JSON score (a real ``/v1/score`` answer, 453 bytes;
the bench's answers average about 790), so ``wrk`` against it measures what uvicorn (+
uvloop/httptools when installed), the kernel and wrk cost per request on this machine, with
nothing of hupai in the path. ``benches/bench_service.py``
starts it with the same worker count as the service::

    python -m uvicorn --app-dir benches ceiling_app:app --workers 2 --no-access-log
"""

from __future__ import annotations

from typing import Any

BODY = (
    '{"decomposition":{"form":"knitted_straight","knitted":["2m","5m","8m","3p","6p","9p","1s","4s","7s"],'
    '"pair":"8s","pairs":[],"sets":[{"concealed":false,"declared":true,"tiles":["3m","4m","5m"],"type":"chow"}]},'
    '"fans":[{"count":1,"en":"Knitted Straight","id":"KNITTED_STRAIGHT","points":12,"zh":"组合龙"},'
    '{"count":1,"en":"All Chows","id":"ALL_CHOWS","points":2,"zh":"平和"}],"meets_minimum":true,"total":14,'
    '"total_without_flowers":14,"variant":"mcr"}'
).encode()
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
