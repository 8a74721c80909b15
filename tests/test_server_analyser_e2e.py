"""End to end: the calculator page's card analyser (``POST /v1/analyse``) in headless Debian
chromium: for each card preset, the analyser appears, its example is analysed, the hand is drawn
with the core's Chinese names, the checks and lists are the core's, clicking a listed move
highlights its cards, clicking the hand's pieces selects them as the play; tile presets hide it;
the 400 px layout. Every expected value comes from ``hupai.analyse``.

``HUPAI_SCREENSHOTS=DIR`` also saves ``analyser-<game>.png`` and ``analyser-400px.png`` there
(the docs' screenshots, ``docs/img``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

import hupai  # noqa: E402
from tests.browser import CHROMEDRIVER, CHROMIUM, chromium, serving  # noqa: E402

if not (CHROMIUM and CHROMEDRIVER):
    if os.environ.get("CI"):
        pytest.fail("chromium / chromedriver missing (.ci/run installs them)", pytrace=False)
    pytest.skip("chromium / chromedriver not installed", allow_module_level=True)

CARD_PRESETS = [v["id"] for v in hupai.variants() if v["input"] not in ("tiles", "zipai")]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving() as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(1300, 900) as d:
        yield d


def _open(d: Any, url: str) -> None:
    d.get("about:blank")
    d.get(url)
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")


def _choose(d: Any, preset: str) -> None:
    Select(d.find_element(By.ID, "variant")).select_by_value(preset)


def _analysed(d: Any, before: str | None) -> None:
    """Wait until an analysis newer than ``before`` is drawn."""
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-analysed") not in (None, before))


def _example(d: Any) -> dict[str, Any]:
    before = d.find_element(By.TAG_NAME, "body").get_attribute("data-analysed")
    d.find_element(By.ID, "an-example").click()
    _analysed(d, before)
    return {k: d.find_element(By.ID, f"an-{k}").get_attribute("value") for k in ("hand", "play", "against")}


def _shot(d: Any, name: str, element: Any | None = None) -> None:
    out = os.environ.get("HUPAI_SCREENSHOTS")
    if out:
        path = os.path.join(out, name)
        if element is not None:
            element.screenshot(path)
        else:
            d.save_screenshot(path)


@pytest.mark.parametrize("preset", CARD_PRESETS)
def test_each_card_preset_analyses_its_example_and_a_click_highlights_the_move(server: str, browser: Any, preset: str) -> None:
    d = browser
    _open(d, server + "/")
    assert not d.find_element(By.ID, "analyser").is_displayed()
    _choose(d, preset)
    assert d.find_element(By.ID, "analyser").is_displayed()
    q = _example(d)
    want = hupai.analyse(preset, q["hand"], play=q["play"] or None, against=q["against"] or None)
    assert want["checks"]
    assert d.find_element(By.ID, "an-error").text == ""
    # the hand: one piece per card, each with the core's Chinese name
    zh = {p["name"]: p["zh"] for p in want["pieces"]}
    pieces = d.find_elements(By.CSS_SELECTOR, "#an-cards .piece")
    assert [p.get_attribute("data-tile") for p in pieces] == want["hand"]["cards"]
    assert [p.text for p in pieces] == [zh[c] for c in want["hand"]["cards"]]
    # the play's cards are the selected ones
    selected = [p.get_attribute("data-tile") for p in d.find_elements(By.CSS_SELECTOR, "#an-cards .piece.sel")]
    assert sorted(selected) == sorted(want["play"]["cards"])
    # the checks and lists are the core's
    checks = d.find_elements(By.CSS_SELECTOR, "#an-checks li")
    assert [(c.get_attribute("data-check"), c.get_attribute("data-ok"), c.text) for c in checks] == [
        (c["id"], str(c["ok"]).lower(), c["label"]) for c in want["checks"]
    ]
    lists = d.find_elements(By.CSS_SELECTOR, "#an-lists section.an-list")
    assert [x.get_attribute("data-list") for x in lists] == [x["id"] for x in want["lists"]]
    first = want["lists"][0]
    items = lists[0].find_elements(By.CSS_SELECTOR, "li")
    assert [i.get_attribute("data-move") for i in items] == [i["text"] for i in first["items"]]
    # click the last answer: it is marked, its cards are highlighted in the hand, its label shown
    pick = first["items"][-1]
    items[-1].click()
    assert "on" in (items[-1].get_attribute("class") or "")
    hl = [p.get_attribute("data-tile") for p in d.find_elements(By.CSS_SELECTOR, "#an-cards .piece.hl")]
    assert sorted(hl) == sorted(pick["cards"])
    assert d.find_element(By.ID, "an-picked").text == f"选中 selected: {pick['text']} — {pick['label']}"
    # no horizontal scrolling
    assert int(d.execute_script("return document.documentElement.scrollWidth")) <= int(d.execute_script("return window.innerWidth"))
    if preset != "doudizhu_contest":
        game = preset.split("_")[0]
        if os.environ.get("HUPAI_SCREENSHOTS"):
            d.set_window_size(1300, 1300)  # the whole analyser in view
            d.execute_script("window.scrollTo(0, 0)")
            _shot(d, f"analyser-{game}.png", d.find_element(By.ID, "analyser"))
            d.set_window_size(1300, 900)


def test_clicking_the_hand_selects_the_play_and_errors_show(server: str, browser: Any) -> None:
    d = browser
    _open(d, server + "/")
    _choose(d, "doudizhu_qq")
    _example(d)
    before = d.find_element(By.TAG_NAME, "body").get_attribute("data-analysed")
    d.find_element(By.ID, "an-play").clear()
    d.find_element(By.ID, "an-play").send_keys("\n")
    _analysed(d, before)
    assert not d.find_elements(By.CSS_SELECTOR, "#an-cards .piece.sel")
    # select the two 7s by clicking them in the hand: the play is read by the core
    before = d.find_element(By.TAG_NAME, "body").get_attribute("data-analysed")
    sevens = [p for p in d.find_elements(By.CSS_SELECTOR, "#an-cards .piece") if p.get_attribute("data-tile") == "7"]
    sevens[0].click()
    _analysed(d, before)
    before = d.find_element(By.TAG_NAME, "body").get_attribute("data-analysed")
    sevens = [p for p in d.find_elements(By.CSS_SELECTOR, "#an-cards .piece") if p.get_attribute("data-tile") == "7"]
    sevens[1].click()
    _analysed(d, before)
    assert d.find_element(By.ID, "an-play").get_attribute("value") == "7 7"
    want = hupai.analyse("doudizhu_qq", d.find_element(By.ID, "an-hand").get_attribute("value"), play="77", against="44")
    assert [c.text for c in d.find_elements(By.CSS_SELECTOR, "#an-checks li")] == [c["label"] for c in want["checks"]]
    # a card the game does not have: the core's error under the form, naming the field
    before = d.find_element(By.TAG_NAME, "body").get_attribute("data-analysed")
    box = d.find_element(By.ID, "an-against")
    box.clear()
    box.send_keys("34\n")
    _analysed(d, before)
    err = d.find_element(By.ID, "an-error").text
    assert err.startswith("against:") and "not a 斗地主 move" in err


def test_tile_presets_hide_the_analyser(server: str, browser: Any) -> None:
    d = browser
    _open(d, server + "/#v=sichuan")
    assert not d.find_element(By.ID, "analyser").is_displayed()
    _choose(d, "gouji")
    assert d.find_element(By.ID, "analyser").is_displayed()
    _choose(d, "mcr")
    assert not d.find_element(By.ID, "analyser").is_displayed()


def test_analyser_at_400px(server: str, browser: Any) -> None:
    """At 400 px: the form, the hand and the lists fit the width (no horizontal scrolling) and a
    listed move can be clicked."""
    d = browser
    d.set_window_size(400, 860)
    try:
        w = int(d.execute_script("return window.innerWidth"))
        _open(d, server + "/")
        _choose(d, "gouji")
        _example(d)
        assert int(d.execute_script("return document.documentElement.scrollWidth")) <= w
        for sel in ("#an-hand", "#an-against", "#an-go", "#an-cards", "#an-lists"):
            r = d.execute_script("return arguments[0].getBoundingClientRect().toJSON()", d.find_element(By.CSS_SELECTOR, sel))
            assert 0 <= r["left"] and r["right"] <= w, (sel, r)
        item = d.find_element(By.CSS_SELECTOR, '#an-lists section[data-list="burns"] li')
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", item)
        item.click()
        assert d.find_elements(By.CSS_SELECTOR, "#an-cards .piece.hl")
        d.execute_script("window.scrollTo(0, 0)")
        _shot(d, "analyser-400px.png")
    finally:
        d.set_window_size(1300, 900)


def test_the_share_link_names_the_question(server: str, browser: Any) -> None:
    """After an analysis the URL names the preset and the question; opening it analyses again."""
    d = browser
    _open(d, server + "/")
    _choose(d, "dingniu")
    q = _example(d)
    link = str(d.find_element(By.ID, "share").get_attribute("href"))
    assert "v=dingniu" in link and "ah=" in link and "aa=" in link
    d.get("about:blank")
    d.get(link)
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#an-lists li"))
    assert {k: d.find_element(By.ID, f"an-{k}").get_attribute("value") for k in ("hand", "play", "against")} == q
    want = hupai.analyse("dingniu", q["hand"], play=q["play"], against=q["against"])
    assert [li.get_attribute("data-move") for li in d.find_elements(By.CSS_SELECTOR, "#an-lists li")] == [
        i["text"] for x in want["lists"] for i in x["items"]
    ]
