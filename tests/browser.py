"""Helpers of the browser tests: ``hupai serve`` on a free loopback port and headless Debian
chromium (Selenium + the system chromedriver)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served(str):
    """The base URL of a server, with ``banner``: the first line it printed."""

    banner: str = ""


@contextmanager
def serving(argv: list[str] | None = None, env: Mapping[str, str] | None = None) -> Iterator[Served]:
    """Run ``python -m hupai <argv>`` (default ``serve``) on a free port until ``/healthz`` answers;
    yield its base URL (``.banner``: the line it printed first); stop it after."""
    port = free_port()
    args = argv or ["serve", "--workers", "1"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "hupai", *args, "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # readiness poll, not a timing assertion
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
            try:
                with urllib.request.urlopen(base + "/healthz") as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("server did not become ready")
        served = Served(base)
        served.banner = proc.stdout.readline().decode().strip() if proc.stdout else ""
        yield served
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextmanager
def chromium(width: int = 1400, height: int = 860) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM or ""
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        yield d
    finally:
        d.quit()
