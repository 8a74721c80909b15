"""End to end in headless Debian chromium: play a whole 四川 hand and a whole 国标 hand as the
person's seat on the ``/play`` page (from the first draw to the settlement, clicking a legal
action each time), and step a logged hand to its end in the ``/replay`` viewer — uploaded on the
page, and given to ``hupai replay --serve``. The numbers shown are compared with the core's.

Needs ``chromium`` and ``chromium-driver`` (installed by ``.ci/run``); skipped locally when they are
missing, a failure under CI. ``HUPAI_SCREENSHOTS=DIR`` saves the pictures of ``docs/img``.
About 30 s on a free core.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("selenium.webdriver")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

import hupai  # noqa: E402
from hupai.game import write_jsonl  # noqa: E402
from tests.browser import CHROMEDRIVER, CHROMIUM, chromium, serving  # noqa: E402

if not (CHROMIUM and CHROMEDRIVER):
    if os.environ.get("CI"):
        pytest.fail("chromium / chromedriver missing (.ci/run installs them)", pytrace=False)
    pytest.skip("chromium / chromedriver not installed", allow_module_level=True)

SHOTS = os.environ.get("HUPAI_SCREENSHOTS")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving() as base:
        assert f"play against the bots: {base}/play" in base.banner
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as d:
        yield d


def _shot(d: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        d.save_screenshot(str(Path(SHOTS) / name))


def _state(d: Any) -> str:
    return str(d.find_element(By.TAG_NAME, "body").get_attribute("data-state") or "")


def _settled(d: Any) -> str:
    WebDriverWait(d, 60).until(lambda d: _state(d) in ("turn", "done") or d.find_element(By.ID, "error").text)
    err = d.find_element(By.ID, "error").text
    assert not err, err
    return _state(d)


def _play_hand(d: Any, base: str, variant: str, seed: int, shots: bool = False, options: str = "") -> dict[str, Any]:
    """Play one hand as seat 0: take a win when offered, else the first legal action."""
    d.get("about:blank")
    d.get(f"{base}/play#v={variant}&seat=0&seed={seed}" + (f"&o={options}" if options else ""))
    clicks = 0
    shot_at: int | None = 6 if shots else None
    kinds: set[str] = set()
    while _settled(d) == "turn":
        buttons = d.find_elements(By.CSS_SELECTOR, "#actions button[data-i]")
        assert buttons, "the person's turn shows its legal actions"
        # the prompt says what is asked: a claim names the discard
        prompt = d.find_element(By.ID, "prompt").text
        by_kind = {b.get_attribute("data-kind"): b for b in buttons}
        if "pass" in by_kind:
            assert "打出" in prompt and "过" in prompt, prompt
        if shot_at is not None and clicks >= shot_at and "pass" in by_kind:
            _shot(d, "play.png")  # the first claim prompt after a few turns
            shot_at = None
        pick = by_kind.get("win") or min(buttons, key=lambda b: int(b.get_attribute("data-i") or 0))
        kinds.add(str(pick.get_attribute("data-kind")))
        pick.click()
        clicks += 1
        assert clicks < 400, "the hand did not end"
    # the settlement: balances per seat, equal to the core's replay of the hand's log
    res = d.find_element(By.ID, "result")
    assert res.is_displayed() and "结算" in res.text
    shown = [int(td.get_attribute("data-balance") or 0) for td in res.find_elements(By.CSS_SELECTOR, "td[data-balance]")]
    text = d.execute_script("return sessionStorage.getItem('hupai-replay-log')")
    log = [json.loads(line) for line in text.splitlines() if line.strip()]
    t = hupai.replay(log)
    assert log[0]["variant"] == variant and log[0]["seed"] == seed
    assert shown == list(t.balances) and sum(shown) == 0
    assert clicks > 0 and "discard" in kinds
    # the person's decisions are in the log at seat 0
    assert sum(1 for r in log if r["type"] == "action" and r["seat"] == 0) == clicks
    if t.result and t.result["wins"]:
        assert "胡" in res.text
    if shots:
        _shot(d, "play-end.png")
    return {"clicks": clicks, "log": log, "table": t}


def test_play_a_sichuan_hand_to_the_settlement(server: str, browser: Any) -> None:
    out = _play_hand(browser, server, "sichuan", 7, shots=True, options="huan_san_zhang:true,ding_que:true")
    assert out["table"].done
    # the switches chosen on the page are played: 换三张 and 定缺 come first
    opts = out["log"][0]["options"]
    assert opts["huan_san_zhang"] is True and opts["ding_que"] is True
    mine = [r["kind"] for r in out["log"] if r["type"] == "action" and r["seat"] == 0]
    assert mine[:2] == ["exchange", "declare_void"]
    box = browser.find_element(By.CSS_SELECTOR, '#switches [data-switch="huan_san_zhang"]')
    assert box.get_attribute("type") == "checkbox" and box.is_selected()


def test_play_an_mcr_hand_to_the_settlement(server: str, browser: Any) -> None:
    out = _play_hand(browser, server, "mcr", 11)
    assert out["table"].done
    # flowers are drawn from the core's names (no picture: a drawn tile with its Chinese name)
    flowers = [x for r in out["log"] if r["type"] == "flower" for x in [r["tile"]]]
    if flowers:
        assert browser.find_elements(By.CSS_SELECTOR, f'.flowers [data-tile="{flowers[0]}"]')


def _step_to_end(d: Any) -> int:
    WebDriverWait(d, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-steps") or d.find_element(By.ID, "error").text)
    assert not d.find_element(By.ID, "error").text
    n = int(d.find_element(By.TAG_NAME, "body").get_attribute("data-steps") or 0)
    body = d.find_element(By.TAG_NAME, "body")
    assert body.get_attribute("data-step") == "0"
    # the deal: every hand shown
    assert len(d.find_elements(By.CSS_SELECTOR, ".seat .hand img, .seat .hand .drawn")) > 13 * 3
    for k in range(1, n):
        d.find_element(By.ID, "next").click()
        assert body.get_attribute("data-step") == str(k)
    assert body.get_attribute("data-last") == "1"
    d.find_element(By.ID, "prev").click()
    assert body.get_attribute("data-step") == str(n - 2)
    d.find_element(By.ID, "last").click()
    return n


def _logged_hand(tmp: Path, variant: str, seed: int) -> tuple[Path, Any]:
    t = hupai.Table(variant, seed=seed)
    t.run([hupai.GreedyBot(k) for k in range(t.n)])
    path = tmp / f"{variant}-{seed}.jsonl"
    write_jsonl(t.log, path)
    return path, t


def test_replay_viewer_steps_an_uploaded_log_to_its_end(server: str, browser: Any, tmp_path: Path) -> None:
    path, t = _logged_hand(tmp_path, "sichuan", 21)
    d = browser
    d.get("about:blank")
    d.get(server + "/replay")
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") == "1")
    d.find_element(By.ID, "file").send_keys(str(path))
    n = _step_to_end(d)
    decisions = sum(1 for r in t.log if r["type"] == "action")
    assert f"决策 decisions {decisions}" in d.find_element(By.ID, "stepno").text
    assert 1 < n <= decisions + 1
    shown = [int(td.get_attribute("data-balance") or 0) for td in d.find_elements(By.CSS_SELECTOR, "#result td[data-balance]")]
    assert shown == list(t.balances)
    # every hand at the end is the core's
    for s in range(t.n):
        tiles = [e.get_attribute("data-tile") for e in d.find_elements(By.CSS_SELECTOR, f'.hand[data-hand="{s}"] [data-tile]')]
        assert tiles == t.hand(s)
    d.find_element(By.ID, "first").click()
    d.find_element(By.ID, "next").click()
    for _ in range(min(30, n - 2)):
        d.find_element(By.ID, "next").click()
    _shot(d, "replay.png")


def test_replay_serve_opens_the_log(browser: Any, tmp_path: Path) -> None:
    """``hupai replay --serve LOG``: the viewer opens with the log, stepped to its end."""
    path, t = _logged_hand(tmp_path, "zipai_guilin", 4)
    with serving(["replay", str(path), "--serve"]) as base:
        assert base.banner == f"hupai: the replay viewer of {path} at {base}/replay; Ctrl-C stops"
        d = browser
        d.get("about:blank")
        d.get(base + "/replay")
        _step_to_end(d)
        assert str(path) in d.find_element(By.ID, "source").text
        assert d.find_elements(By.CSS_SELECTOR, "#moves li.now")
        shown = [int(td.get_attribute("data-balance") or 0) for td in d.find_elements(By.CSS_SELECTOR, "#result td[data-balance]")]
        assert shown == list(t.balances)


@pytest.mark.parametrize(("variant", "seed"), [("doudizhu_qq", 3), ("gouji", 5), ("dingniu", 2)])
def test_play_a_card_game_to_the_settlement(server: str, browser: Any, variant: str, seed: int) -> None:
    """Seat 0 plays a whole card hand by clicking its first legal move each time; the settlement
    shown is the core's replay of the page's log, and 够级 shows its finishing order."""
    d = browser
    d.get("about:blank")
    d.get(f"{server}/play#v={variant}&seat=0&seed={seed}")
    clicks = 0
    while _settled(d) == "turn":
        buttons = d.find_elements(By.CSS_SELECTOR, "#actions button[data-i]")
        assert buttons, "the person's turn shows its legal moves"
        labels = [b.text.replace("\n", " ") for b in buttons]
        assert len(set(labels)) == len(labels), labels  # each button says which move it is
        min(buttons, key=lambda b: int(b.get_attribute("data-i") or 0)).click()
        clicks += 1
        assert clicks < 400, "the hand did not end"
    res = d.find_element(By.ID, "result")
    assert res.is_displayed() and "结算" in res.text and "荒庄" not in res.text
    text = d.execute_script("return sessionStorage.getItem('hupai-replay-log')")
    log = [json.loads(line) for line in text.splitlines() if line.strip()]
    t = hupai.replay(log)
    assert log[0]["variant"] == variant and t.done and clicks > 0
    shown = [int(td.get_attribute("data-balance") or 0) for td in res.find_elements(By.CSS_SELECTOR, "td[data-balance]")]
    assert shown == list(t.balances) and len(shown) == t.n and sum(shown) == 0
    heads = [th.text for th in res.find_elements(By.CSS_SELECTOR, "table.balances thead th")][1:]
    assert len(heads) == t.n and len(set(heads)) == t.n
    if variant == "gouji":
        places = [li.text for li in res.find_elements(By.CSS_SELECTOR, "ol.places li")]
        assert [p.split()[0] for p in places] == ["头科", "二科", "三科", "四科", "二落", "大落"]
        assert heads == ["1号", "2号", "3号", "4号", "5号", "6号"]
        _shot(d, "play-gouji-end.png")
    if t.result and t.result["winners"]:
        assert "赢" in res.text
