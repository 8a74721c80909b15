"""End to end: start ``hupai serve`` on a free loopback port, drive the fan calculator page in
headless Debian chromium (Selenium + the system chromedriver), enter a known MCR hand by clicking
tiles, read the total and compare it with ``hupai.score``.

Needs ``chromium`` and ``chromium-driver`` (installed by ``.ci/run``); skipped locally when they are
missing, a failure under CI.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

import hupai  # noqa: E402
import hupai.zipai  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

if not (CHROMIUM and CHROMEDRIVER):
    if os.environ.get("CI"):
        pytest.fail("chromium / chromedriver missing (.ci/run installs them)", pytrace=False)
    pytest.skip("chromium / chromedriver not installed", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hupai", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):  # readiness poll, not a timing assertion
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
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,900"):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        yield d
    finally:
        d.quit()


def _click_tile(d: Any, tile: str) -> None:
    d.find_element(By.CSS_SELECTOR, f'#palette img[data-tile="{tile}"]').click()


def _mode(d: Any, mode: str) -> None:
    d.find_element(By.CSS_SELECTOR, f'input[name="mode"][value="{mode}"]').click()


def _total(d: Any) -> str:
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.ID, "total").get_attribute("data-total"))
    return str(d.find_element(By.ID, "total").get_attribute("data-total"))


def test_enter_hand_by_clicking_and_compare_total(server: str, browser: Any) -> None:
    d = browser
    d.get(server + "/")
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    _mode(d, "pung")
    _click_tile(d, "E")
    _mode(d, "tile")
    for t in ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "9s"]:
        _click_tile(d, t)
    # ready hand: the waits come from the server
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#waits img"))
    waits = [e.get_attribute("data-tile") for e in d.find_elements(By.CSS_SELECTOR, "#waits img")]
    assert waits == hupai.waits("[EEE,1]123m456p789s9s")
    Select(d.find_element(By.ID, "seat_wind")).select_by_value("S")
    d.find_element(By.ID, "self_drawn").click()
    _mode(d, "win")
    _click_tile(d, "9s")

    want = hupai.score(hupai.Situation.parse("[EEE,1]123m456p78s99s+9s", seat_wind="S", self_drawn=True))
    assert _total(d) == str(want.total)
    rows = d.find_elements(By.CSS_SELECTOR, "#fans tbody tr")
    names = [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows]
    assert names == [f.zh for f in want.fans]
    assert d.find_element(By.ID, "notation").get_attribute("value") == "[EEE,1]123m456p7899s+9s"

    # the shareable URL restores the same hand and situation in a fresh page
    link = d.find_element(By.ID, "share").get_attribute("href")
    assert "#" in link
    d.get("about:blank")
    d.get(link)
    assert _total(d) == str(want.total)
    assert Select(d.find_element(By.ID, "seat_wind")).first_selected_option.get_attribute("value") == "S"


def test_bad_hand_shows_error_not_total(server: str, browser: Any) -> None:
    d = browser
    d.get("about:blank")
    d.get(server + "/#v=mcr&h=1357m2468p13579s%2BE")  # 13 tiles + E: not a winning hand
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.ID, "error").text)
    assert d.find_element(By.ID, "total").text == "–"


def test_zipai_cards_by_clicking_show_huxi(server: str, browser: Any) -> None:
    """字牌 (桂林): the same hand as the spec's worked example G1, entered with card pictures."""
    d = browser
    d.get("about:blank")
    d.get(server + "/")
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    Select(d.find_element(By.ID, "variant")).select_by_value("zipai_guilin")
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#palette img[data-tile="d10"]'))
    assert d.find_element(By.CSS_SELECTOR, '#palette img[data-tile="x2"]').get_attribute("src").endswith("/static/tiles/x2.svg")
    _mode(d, "chow")
    _click_tile(d, "d1")  # 吃 d1d2d3
    _mode(d, "pung")
    _click_tile(d, "x5")  # 碰 x5x5x5
    _mode(d, "tile")
    for c in ["d8", "d8", "d8", "x2", "x7", "x10", "d4", "d5", "d6", "x6", "x7", "x8", "x9", "x10"]:
        _click_tile(d, c)
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#waits img"))
    melds = ["chi:d1d2d3", "peng:x5x5x5"]
    hand = "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10"
    waits = [e.get_attribute("data-tile") for e in d.find_elements(By.CSS_SELECTOR, "#waits img")]
    assert waits == [str(c) for c, _ in hupai.zipai.waits(hand, melds=melds)]
    _mode(d, "win")
    _click_tile(d, "x8")
    want = hupai.score({"hand": hand, "situation": {"melds": melds, "win_card": "x8", "win_type": "discard"}}, "zipai_guilin")
    assert _total(d) == str(want.total) == "16"
    assert want.decomposition is not None
    names = [s["name"] for s in want.decomposition["sets"]]
    rows = d.find_elements(By.CSS_SELECTOR, "#fans tbody tr")
    assert [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows][: len(names)] == names
    assert "胡 win" in d.find_element(By.ID, "extra").text


@pytest.mark.parametrize("preset", [v["id"] for v in hupai.variants()])
def test_every_preset_is_listed_and_its_example_scores(server: str, browser: Any, preset: str) -> None:
    """The preset list is every scoring preset; its example (the button) shows the Score's total,
    generic fans and payments."""
    d = browser
    d.get("about:blank")
    d.get(server + "/")
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    listed = [o.get_attribute("value") for o in Select(d.find_element(By.ID, "variant")).options]
    assert listed == [v["id"] for v in hupai.variants()]
    Select(d.find_element(By.ID, "variant")).select_by_value(preset)
    d.find_element(By.ID, "example").click()
    want = hupai.score(hupai.Variant(preset).describe()["example"], preset)
    assert _total(d) == str(want.total)
    rows = d.find_elements(By.CSS_SELECTOR, "#fans tbody tr")
    names = [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows]
    assert names[len(names) - len(want.fans) :] == [f.zh for f in want.fans]
    assert "收支 net" in d.find_element(By.ID, "payments").text
