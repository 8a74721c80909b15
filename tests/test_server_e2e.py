"""End to end: start ``hupai serve`` on a free loopback port, drive the fan calculator page in
headless Debian chromium (Selenium + the system chromedriver): a hand entered by clicking tiles, the
example of every registered preset with its payments, every notation the core reads typed in the
box (and the core's error shown when it refuses one), the README's share link, the layout at
400 px, the API docs without a CDN. Every expected value comes from ``hupai`` itself.

``HUPAI_SCREENSHOTS=DIR`` also saves the README screenshots (``docs/img/calculator*.png``) there.

Needs ``chromium`` and ``chromium-driver`` (installed by ``.ci/run``); skipped locally when they are
missing, a failure under CI.
"""

from __future__ import annotations

import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

import hupai  # noqa: E402
import hupai.zipai  # noqa: E402
from tests.browser import CHROMEDRIVER, CHROMIUM, chromium, serving  # noqa: E402

if not (CHROMIUM and CHROMEDRIVER):
    if os.environ.get("CI"):
        pytest.fail("chromium / chromedriver missing (.ci/run installs them)", pytrace=False)
    pytest.skip("chromium / chromedriver not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving() as base:
        # `hupai serve` says where it listens before anything else
        assert base.banner.startswith(f"hupai: serving the fan calculator at {base}/"), base.banner
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(1300, 900) as d:
        yield d


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
    Select(d.find_element(By.ID, "win_type")).select_by_value("self_draw")
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


def _ready(d: Any) -> None:
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")


def _open(d: Any, url: str) -> None:
    d.get("about:blank")
    d.get(url)
    _ready(d)


def _payments(d: Any) -> list[tuple[str, int]]:
    rows = d.find_elements(By.CSS_SELECTOR, "#payments tbody tr")
    return [(str(r.get_attribute("data-seat")), int(r.find_elements(By.TAG_NAME, "td")[1].text.replace("+", ""))) for r in rows]


@pytest.mark.parametrize("preset", [v["id"] for v in hupai.variants()])
def test_every_preset_is_listed_and_its_example_scores_with_payments(server: str, browser: Any, preset: str) -> None:
    """The preset list is every registered preset; its palette is the core's tile set; its example
    (the button) shows the Score's total, fans and the payments of every seat; the share link of the
    result names the preset and opens the same result in a fresh page."""
    d = browser
    _open(d, server + "/")
    listed = [o.get_attribute("value") for o in Select(d.find_element(By.ID, "variant")).options]
    assert listed == [v["id"] for v in hupai.variants()]
    Select(d.find_element(By.ID, "variant")).select_by_value(preset)
    variant = hupai.Variant(preset)
    palette = [e.get_attribute("data-tile") for e in d.find_elements(By.CSS_SELECTOR, "#palette img")]
    flowers = [e.get_attribute("data-tile") for e in d.find_elements(By.CSS_SELECTOR, "#flower-palette img")]
    if variant.input == "zipai":
        assert palette == [str(c) for c in hupai.zipai.from_counts([1] * len(hupai.zipai.to_counts([])))]
    elif variant.input != "tiles":  # card games: the hand is written in the notation field
        assert palette == [] and flowers == []
    else:
        kinds = [hupai.Tile.from_index(i) for i in sorted(set(variant.tile_set()))]
        assert palette == [str(t) for t in kinds if not t.is_flower]
        assert flowers == [str(t) for t in kinds if t.is_flower]
    d.find_element(By.ID, "example").click()
    want = hupai.score(variant.describe()["example"], preset)
    assert _total(d) == str(want.total)
    rows = d.find_elements(By.CSS_SELECTOR, "#fans tbody tr")
    names = [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows]
    assert names[len(names) - len(want.fans) :] == [f.zh for f in want.fans]
    assert want.payments, preset
    assert _payments(d) == [(str(k), n) for k, n in enumerate(want.net)]
    pays = [r.find_elements(By.TAG_NAME, "td")[2].text for r in d.find_elements(By.CSS_SELECTOR, "#payments tbody tr")]
    for p in want.payments:
        assert any(str(p["amount"]) in t for t in (pays[p["payer"]],)), (p, pays)
    assert d.find_element(By.ID, "error").text == ""
    # nothing is wider than the window (long extras wrap)
    assert int(d.execute_script("return document.documentElement.scrollWidth")) <= int(d.execute_script("return window.innerWidth"))
    # the share link names the preset and gives the same total in a fresh page
    link = str(d.find_element(By.ID, "share").get_attribute("href"))
    assert f"v={preset}" in link
    _open(d, link)
    assert Select(d.find_element(By.ID, "variant")).first_selected_option.get_attribute("value") == preset
    assert _total(d) == str(want.total)
    assert _payments(d) == [(str(k), n) for k, n in enumerate(want.net)]


def _readme_link() -> str:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    m = re.search(r"\(`(#v=[^`]+)`\)", readme)
    assert m, "README names a share link (#v=...)"
    return m.group(1)


def test_readme_share_link_opens_as_written(server: str, browser: Any) -> None:
    """The README's share link, with a literal '+' before the winning tile, opens that hand (the
    '+' is not read as a space)."""
    d = browser
    link = _readme_link()
    _open(d, server + "/" + link)
    hand = link.split("h=", 1)[1].split("&", 1)[0]
    assert "+" in hand
    assert d.find_element(By.ID, "notation").get_attribute("value") == hand
    want = hupai.score(hupai.Situation.parse(hand, self_drawn=True, seat_wind="S"))
    assert _total(d) == str(want.total)
    assert d.find_element(By.ID, "summary-total").text.startswith(str(want.total))
    assert d.find_element(By.ID, "error").text == ""
    assert d.find_element(By.ID, "notation-error").text == ""
    # a link in the older form (flags by name, '+' written as is) opens the same result
    _open(d, server + f"/#v=mcr&h={hand}&f=self_drawn&sw=S&pw=E")
    assert _total(d) == str(want.total)
    assert Select(d.find_element(By.ID, "win_type")).first_selected_option.get_attribute("value") == "self_draw"


@pytest.mark.parametrize(
    "text",
    [
        "一万二万三万四万五万六万七万八万九万红中红中红中白+白",  # Chinese names
        "123m456p789s1112z+2z",  # tenhou honours
        "東東東123万456p789s9s+9s",  # 東 and 123万
        "[EEE,1]123m456p7899s+9s",  # bracket melds
        "W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 F1 T9+T9",  # PyMahjongGB codes
    ],
)
def test_notation_box_takes_every_notation_the_core_reads(server: str, browser: Any, text: str) -> None:
    d = browser
    _open(d, server + "/")
    box = d.find_element(By.ID, "notation")
    box.clear()
    box.send_keys(text)
    d.find_element(By.ID, "apply").click()
    want = hupai.score(hupai.Situation.parse(text))
    assert _total(d) == str(want.total)
    shown = d.find_element(By.ID, "notation").get_attribute("value")
    got, read = hupai.Situation.parse(str(shown)).to_dict()["hand"], hupai.Situation.parse(text).to_dict()["hand"]
    assert (sorted(got["concealed"]), got["melds"], got["win_tile"]) == (sorted(read["concealed"]), read["melds"], read["win_tile"])
    assert d.find_element(By.ID, "notation-error").text == ""


def test_notation_the_core_refuses_shows_its_error(server: str, browser: Any) -> None:
    d = browser
    _open(d, server + "/")
    text = "一万二万三万四万五万六万七万八万九万红中红中红中红中+红中"  # five 红中
    box = d.find_element(By.ID, "notation")
    box.clear()
    box.send_keys(text)
    d.find_element(By.ID, "apply").click()
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.ID, "notation-error").text)
    with pytest.raises(hupai.HupaiError) as e:
        hupai.Situation.parse(text)
    assert d.find_element(By.ID, "notation-error").text == str(e.value)
    assert d.find_element(By.ID, "notation").get_attribute("value") == text  # the text stays to be fixed


def test_flowers_are_clicked_where_the_preset_has_them(server: str, browser: Any) -> None:
    d = browser
    _open(d, server + "/#v=mcr&h=[EEE,1]123m456p7899s+9s&wt=self_draw")
    first = _total(d)
    for f in ("f1", "f6"):
        d.find_element(By.CSS_SELECTOR, f'#flower-palette img[data-tile="{f}"]').click()
    want = hupai.score({"hand": "[EEE,1]123m456p7899s+9s", "situation": {"win_type": "self_draw", "flower_tiles": ["f1", "f6"]}}, "mcr")
    WebDriverWait(d, 30).until(lambda d: _total(d) != first)
    assert _total(d) == str(want.total)
    assert [e.get_attribute("data-tile") for e in d.find_elements(By.CSS_SELECTOR, "#flowers-held img")] == ["f1", "f6"]
    assert "fw=f1,f6" in str(d.find_element(By.ID, "share").get_attribute("href"))
    Select(d.find_element(By.ID, "variant")).select_by_value("sichuan")  # no flowers in 四川
    WebDriverWait(d, 30).until(lambda d: not d.find_element(By.ID, "flower-row").is_displayed())
    assert not d.find_elements(By.CSS_SELECTOR, '#palette img[data-tile="E"]')  # nor honours


def test_layout_at_400px(server: str, browser: Any) -> None:
    """At 400 px wide: no horizontal scrolling, the preset list and the total inside the viewport
    (the total stays in the sticky header while the page scrolls)."""
    d = browser
    d.set_window_size(400, 800)
    try:
        w = int(d.execute_script("return window.innerWidth"))
        _open(d, server + "/#v=sichuan&h=[5555s][888s,1]2223339s+9s&wt=kong_replacement")
        want = hupai.score({"hand": "[5555s][888s,1]2223339s+9s", "situation": {"win_type": "kong_replacement"}}, "sichuan")
        assert _total(d) == str(want.total)
        assert int(d.execute_script("return document.documentElement.scrollWidth")) <= w
        for el_id in ("variant", "summary-total"):
            r = d.execute_script("return arguments[0].getBoundingClientRect().toJSON()", d.find_element(By.ID, el_id))
            assert 0 <= r["left"] and r["right"] <= w and 0 <= r["top"] and r["bottom"] <= 800, (el_id, r)
        assert d.find_element(By.ID, "summary-total").text.startswith(str(want.total))
        d.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        r = d.execute_script("return arguments[0].getBoundingClientRect().toJSON()", d.find_element(By.ID, "summary-total"))
        assert 0 <= r["top"] and r["bottom"] <= 800, r
        if os.environ.get("HUPAI_SCREENSHOTS"):
            d.execute_script("window.scrollTo(0, 0)")
            d.save_screenshot(os.path.join(os.environ["HUPAI_SCREENSHOTS"], "calculator-400px.png"))
    finally:
        d.set_window_size(1300, 900)


def test_desktop_screenshot(server: str, browser: Any) -> None:
    """The README's desktop screenshot: the README's share link, flowers and payments shown."""
    d = browser
    _open(d, server + "/#v=shanghai&h=[EEE,1]234p567p88pSS+S&wt=self_draw&fw=f1,f5")
    want = hupai.score({"hand": "[EEE,1]234p567p88pSS+S", "situation": {"win_type": "self_draw", "flower_tiles": ["f1", "f5"]}}, "shanghai")
    assert _total(d) == str(want.total)
    assert [e.get_attribute("data-tile") for e in d.find_elements(By.CSS_SELECTOR, "#flowers-held img")] == ["f1", "f5"]
    if os.environ.get("HUPAI_SCREENSHOTS"):
        d.set_window_size(1300, 960)
        d.save_screenshot(os.path.join(os.environ["HUPAI_SCREENSHOTS"], "calculator.png"))
        d.set_window_size(1300, 900)


def test_api_docs_load_without_a_cdn(server: str, browser: Any) -> None:
    """Swagger UI and ReDoc render from the installed assets: every script and stylesheet is local."""
    d = browser
    for path, ready in (("/docs", ".swagger-ui .info"), ("/redoc", "redoc-wrap, .api-content")):
        d.get("about:blank")
        d.get(server + path)
        WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, ready))
        srcs = d.execute_script(
            "return [...document.querySelectorAll('script[src], link[href]')].map(e => e.src || e.href)"
        )
        assert srcs and all(str(u).startswith(server) for u in srcs), srcs
    with urllib.request.urlopen(server + "/favicon.ico") as r:
        assert r.status == 200 and r.headers["content-type"].startswith("image/svg+xml")
