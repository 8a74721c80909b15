"""MCR scoring API: Situation, score, results, switches, typed errors, settlement, batch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import hupai
import hupai.batch

E1 = "[EEE,2][SSSS,1]55pWWWNN+N"  # gbm-unit-001 (the kong is melded)


def _fans(r: hupai.Score) -> dict[str, int]:
    return r.counts()


def test_situation_forms_agree() -> None:
    a = hupai.Situation.parse(E1, self_drawn=True)
    b = hupai.Situation(
        "55pWWWNN",
        "N",
        [{"type": "pung", "tile": "E", "offer": 2}, {"type": "kong", "tile": "S", "offer": 1}],
        self_drawn=True,
    )
    c = hupai.Situation.from_dict(a.to_dict())
    for s in (a, b, c):
        r = hupai.score(s)
        assert r.total == 98
        assert _fans(r) == {"BIG_FOUR_WINDS": 1, "HALF_FLUSH": 1, "TWO_CONCEALED_PUNGS": 1, "MELDED_KONG": 1, "SELF_DRAWN": 1}
    assert a.self_drawn and a.win_tile == "N" and a.seat_wind == "E"
    d = hupai.score(a.to_dict(), "mcr")
    assert d.total == 98


def test_result_object() -> None:
    r = hupai.score(hupai.Situation.parse("1p1p1p2p3p4p5p6p7p8p9p9p9p+2p"), hupai.Variant.load("mcr"))
    assert r.total == 92 and r.unit == "fan" and r.variant == "mcr"
    f = r.fans[0]
    assert (f.id, f.zh, f.en, f.value, f.op, f.count) == ("NINE_GATES", "九莲宝灯", "Nine Gates", 88, "add", 1)
    d = r.to_dict()
    json.dumps(d)
    assert d["decomposition"]["pair"] == "2p" and len(d["decomposition"]["sets"]) == 4
    assert r.decomposition["form"] == "standard"  # the reading of 九莲宝灯; the fan says the rest
    assert {x["id"] for x in d["fans"]} == set(r.counts())


def test_minimum_and_flowers() -> None:
    r = hupai.score(hupai.Situation.parse("234567p234567sE+E", flowers=3))
    assert r.counts()["FLOWER_TILES"] == 3 and r.total == 10 and not r.meets_minimum  # 7 without the flowers
    assert hupai.score(hupai.Situation.parse("234567p234567sE+E", flowers=3), hupai.Variant("mcr", flowers_count_toward_minimum=True)).meets_minimum
    with pytest.raises(hupai.InvalidHandError, match="诈和"):
        hupai.score(hupai.Situation.parse("234567p234567sE+E"), hupai.Variant("mcr", require_minimum=True))


def test_switches() -> None:
    s = hupai.Situation.parse("[1111m][1111p,2]111s344s4s+5s", self_drawn=True)  # gbm-unit-040
    assert hupai.score(s).total == 28 and "CONCEALED_KONG_AND_MELDED_KONG" in _fans(hupai.score(s))
    off = hupai.score(s, hupai.Variant("mcr", concealed_and_melded_kong="off"))
    assert off.total == 26 and {"MELDED_KONG", "CONCEALED_KONG"} <= set(_fans(off))
    assert hupai.score(s, hupai.Variant("mcr", concealed_and_melded_kong="6")).total == 29
    assert hupai.score(s, hupai.Variant("mcr", concealed_and_melded_kong=6)).total == 29
    k = hupai.Situation.parse("258m234p69p147s88s+3p")  # gbm-unit-081
    assert hupai.score(k).total == 17
    assert hupai.score(k, hupai.Variant("mcr", knitted_straight_wait_fans=False)).total == 16


def test_blessings_and_lianzhong() -> None:
    s = hupai.Situation.parse("123m456p789s11pEE+E", self_drawn=True, blessing="heaven")
    assert "BLESSING_OF_HEAVEN" not in _fans(hupai.score(s))  # off by default
    on = hupai.score(s, hupai.Variant("mcr", blessings="lianzhong"))
    assert on.counts()["BLESSING_OF_HEAVEN"] == 1 and "SELF_DRAWN" not in on.counts()
    assert hupai.score(s, hupai.Variant("mcr", blessings="reference8")).total == hupai.score(s).total - 4 + 8  # 不求人 (4) gives way to 天和 8
    bad = hupai.Situation.parse("123m456p789s11pEE+E", self_drawn=True, blessing="heaven", seat_wind="S")
    with pytest.raises(hupai.InvalidHandError, match="天和"):
        hupai.score(bad, hupai.Variant("mcr", blessings="lianzhong"))
    human = hupai.Situation.parse("123m456p789s11pEE+E", seat_wind="W", blessing="human")
    assert hupai.score(human, hupai.Variant("mcr", blessings="lianzhong")).counts()["BLESSING_OF_HUMAN"] == 1
    green = hupai.Situation.parse("[EEE,1][SSS,2][WWW,3]NNNF+F")
    assert "BIG_FOUR_WINDS_GREEN_PAIR" not in _fans(hupai.score(green))
    lz = hupai.score(green, hupai.Variant("mcr", lianzhong_extras=True)).counts()
    assert lz.get("BIG_FOUR_WINDS_GREEN_PAIR") == 1 and "BIG_FOUR_WINDS" not in lz and "ALL_HONORS" in lz


@pytest.mark.parametrize(
    ("text", "flags", "match"),
    [
        ("123m456p789s11pEE+E", {"about_kong": True}, "抢杠和"),  # robbing a tile already held
        ("123m456p789s11pEE+E", {"about_kong": True, "self_drawn": True}, "杠上开花"),
        ("123m456p789s13pEE+2p", {"about_kong": True, "wall_last": True}, "抢杠和 with wall_last"),
        ("123m456p789s11pEE+E", {"fourth_tile": True}, "和绝张"),
        ("123m456p789s11pEE+E", {"flowers": 9}, "flowers"),
        ("123m456p789s11pEE+E", {"seat_wind": "C"}, "wind"),
        ("123m456p789s12pEE+E", {}, "not a winning hand"),
    ],
)
def test_impossible_situations_are_rejected(text: str, flags: dict[str, Any], match: str) -> None:
    with pytest.raises(hupai.InvalidHandError, match=match):
        hupai.score(hupai.Situation.parse(text, **flags))


def test_repair_policy_reproduces_the_reference() -> None:
    s = hupai.Situation.parse("123m456p789s11pEE+E", fourth_tile=True)
    r = hupai.score(s, hupai.Variant("mcr", flag_policy="repair"))
    assert "LAST_TILE" not in r.counts()


def test_implied_last_tile() -> None:
    r = hupai.score(hupai.Situation.parse("[666m,2][777m,2][999m,2]7888m+6m"))  # gbm-unit-032
    assert r.total == 45 and r.counts()["LAST_TILE"] == 1


def test_errors_are_typed() -> None:
    with pytest.raises(hupai.InvalidTileError):
        hupai.Situation("123m456p789s11pXE", "E")
    with pytest.raises(hupai.InvalidHandError):
        hupai.Situation("11111m456p789s11p", "E")
    with pytest.raises(hupai.RuleConfigError):
        hupai.score(hupai.Situation.parse(E1, self_drawn=True), "no-such-variant")
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant("mcr", concealed_and_melded_kong="7")
    with pytest.raises(hupai.InvalidHandError):
        hupai.score({"hand": {"concealed": ["1m"], "win_tile": "1m"}})
    with pytest.raises(TypeError):
        hupai.score(42)  # type: ignore[arg-type]


def test_settlement() -> None:
    # mcr.md §11: self-drawn, each other seat pays 8 + total; the winner sits at his seat wind's seat.
    r = hupai.score(hupai.Situation.parse(E1, self_drawn=True))
    assert [p["amount"] for p in r.payments] == [106, 106, 106] and r.net == [318, -106, -106, -106]
    assert r.per_payer == 106
    led = r.settlement()
    assert led.balances == {"E": 318, "S": -106, "W": -106, "N": -106} and len(led) == 1
    assert r.settlement(["a", "b", "c", "d"]).balances["a"] == 318
    # 抢杠和 40: the robbed player pays 8 + 40, the other two 8; the discarder defaults to the 上家.
    r = hupai.score(hupai.Situation.parse("11179999p11999s+8p", about_kong=True))  # gbm-unit-084
    assert r.total == 40 and r.net == [64, -8, -8, -48]
    r = hupai.score("11179999p11999s+8p", about_kong=True, discarder=2)
    assert r.net == [64, -8, -48, -8]
    r = hupai.score("11179999p11999s+8p", about_kong=True, seat_wind="S", discarder=3)
    assert r.net == [-8, 64, -8, -48]
    with pytest.raises(hupai.InvalidHandError, match="discarder"):
        hupai.score(E1, self_drawn=True, discarder=1)  # a self-drawn win has no discarder
    with pytest.raises(hupai.InvalidHandError, match="discarder"):
        hupai.score("11179999p11999s+8p", about_kong=True, discarder=0)  # the winner's own seat
    with pytest.raises(hupai.SettlementError):
        r.settlement(["a", "b"])


def test_waits() -> None:
    assert hupai.mcr_waits(hupai.Situation.parse("123m4444m678m456p+1m")) == ["1m", "4m"]


def test_batch_order_errors_threads() -> None:
    good = hupai.Situation.parse(E1, self_drawn=True)
    items: list[Any] = [good, {"hand": {"concealed": ["1m"], "win_tile": "1m"}}, good.to_dict(), "not json"]
    for threads in (None, 1, 2):
        out = hupai.batch.score(items, threads=threads)
        assert out[0].total == 98 and out[2].total == 98
        assert out[1]["error"] == "InvalidHandError" and out[3]["error"] == "InvalidHandError"
    gen = (good for _ in range(10))
    assert [r.total for r in hupai.batch.score(gen)] == [98] * 10
    assert [r.total for r in hupai.batch.iter_score(iter([good] * 5), chunk=2)] == [98] * 5
    assert hupai.batch.score([{**good.to_dict(), "variant": "no-such"}])[0]["error"] == "RuleConfigError"


def _scores(case: dict[str, Any]) -> bool:
    try:
        hupai.score(case)
    except hupai.HupaiError:
        return False
    return True


def test_batch_pipeline_equals_one_thread(shared: Path) -> None:
    """Batches of 256 items or more overlap reading and result building with the scoring
    (rust/py/src/pipeline.rs): same results, same order, errors in their slots, any iterable."""
    cases = shared / "cases" / "mcr_dev.jsonl"
    rows = [json.loads(line) for line in cases.read_text(encoding="utf-8").splitlines()]
    valid = [c for c in ({"hand": r["hand"], "situation": r["situation"]} for r in rows) if _scores(c)][:700]
    items: list[Any] = []
    for i, case in enumerate(valid):
        kind = i % 4
        items.append(
            hupai.Situation.from_dict(case) if kind == 0 else case if kind == 1 else json.dumps(case) if kind == 2
            else {"hand": {"concealed": ["1m"], "win_tile": "1m"}}
        )

    def key(x: Any) -> Any:
        return x if isinstance(x, dict) else x.to_dict()

    raw = hupai.batch.score(items, threads=1)
    assert [isinstance(x, dict) for x in raw] == [i % 4 == 3 for i in range(len(items))]
    one = [key(x) for x in raw]
    for threads in (None, 2, 3):
        assert [key(x) for x in hupai.batch.score(items, threads=threads)] == one
        assert [key(x) for x in hupai.batch.score(iter(items), threads=threads)] == one
        assert [key(x) for x in hupai.batch.score((x for x in items), threads=threads)] == one

    def broken() -> Any:
        yield from items[:300]
        raise KeyError("the caller's iterator failed")

    with pytest.raises(KeyError, match="iterator failed"):
        hupai._core.score_batch(broken(), "mcr", 2)


def test_batch_json_lines_parse_off_the_gil_with_the_same_errors(shared: Path) -> None:
    """JSON text items are copied under the GIL and parsed by the scoring threads: each slot holds
    what the same request as a dict gives (the Score, or the error's name and message), and a line
    that is not JSON, or not valid Unicode, says so."""
    cases = shared / "cases" / "mcr_dev.jsonl"
    rows = [json.loads(line) for line in cases.read_text(encoding="utf-8").splitlines()]
    good = [json.dumps({"hand": r["hand"], "situation": r["situation"]}) for r in rows[:300]]
    bad = [
        '{"hand": {"concealed": ["1m"], "win_tile": "1m"',  # cut short
        "not json",
        '{"hand": {"concealed": ["1m"], "win_tile": "1m"}, "colour": 1}',  # unknown key
        '{"hand": "1m\ud800", "situation": {}}',  # a lone surrogate
        "",
    ]
    items = [x for pair in zip(good, bad * 60, strict=True) for x in pair]

    def one(text: str) -> Any:
        """What the batch must put in the slot of ``text``."""
        if "\ud800" in text:
            return ("InvalidHandError", "case: the string holds a lone surrogate")
        try:
            case = json.loads(text)
        except json.JSONDecodeError:
            return ("InvalidHandError", "case JSON: ")
        # the same request as a dict (copied to JSON under the GIL, as before)
        (r,) = hupai.batch.score([case], threads=1)
        return (r["error"], r["message"]) if isinstance(r, dict) else r.to_dict()

    def slot(x: Any, want: Any) -> Any:
        if not isinstance(x, dict):
            return x.to_dict()
        # a bad line's message: its cause, worded as a single call words it
        return (x["error"], want[1] if isinstance(want, tuple) and want[1] in x["message"] else x["message"])

    want = [one(t) for t in items]
    assert all(isinstance(w, tuple) for w in want[1::2])  # every bad line is refused
    assert sum(isinstance(w, dict) for w in want[::2]) > 250  # and most cases score
    for threads in (1, 2):
        got = hupai.batch.score(items, threads=threads)
        assert [slot(x, w) for x, w in zip(got, want, strict=True)] == want


def test_batch_dicts_copy_as_json_text_exactly() -> None:
    """A dict item is copied under the GIL as JSON text (rust/py/src/convert.rs `to_json_text`)
    and parsed by the scoring threads: every value arrives as the dict holds it — floats to the
    last bit, big ints, escapes and non-ASCII text in keys and strings, tuples, ``hupai.Tile`` —
    so each slot equals what the same request written as JSON text gives, and a bad value is
    refused with the same message."""
    base = {
        "hand": {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "P", "P"], "win_tile": "P"},
        "situation": {"self_drawn": True},
    }
    tricky: list[dict[str, Any]] = [
        base,
        {**base, "situation": {"self_drawn": True, "flowers": 0.1 + 0.2}},
        {**base, "situation": {"self_drawn": True, "flowers": 1e300}},
        {**base, "situation": {"self_drawn": True, "flowers": -(2**63)}},
        {**base, "situation": {"self_drawn": True, "flowers": 2**63 - 1}},
        {**base, 'we"ird\\key\n\u2028é': 1},
        {**base, "id": "é\u2028\"\\x\t"},
        {**base, "id": -7},
        {**base, "situation": {"seat_wind": "东", "prevalent_wind": "S", "self_drawn": False}},
        {**base, "hand": {**base["hand"], "concealed": tuple(base["hand"]["concealed"])}},
        {**base, "hand": {**base["hand"], "win_tile": "P\x00"}},
        {**base, "options": {"flag_policy": "repair"}},
        {**base, "variant": None, "situation": None},
    ]
    texts = [json.dumps(d, ensure_ascii=False) for d in tricky]

    def slot(x: Any) -> Any:
        return x if isinstance(x, dict) else x.to_dict()

    want = [slot(x) for x in hupai.batch.score(texts, threads=1)]
    assert [i for i, w in enumerate(want) if "error" in w] == [1, 2, 3, 4, 5, 10]  # the bad values are refused ...
    assert want[1]["message"].endswith("floating point `0.30000000000000004`, expected u8")  # ... as written
    items = tricky * 30  # enough for the 2-thread pipeline
    for threads in (1, 2):
        assert [slot(x) for x in hupai.batch.score(items, threads=threads)] == want * 30
    # a hupai.Tile is its text
    tile = {**base, "hand": {**base["hand"], "win_tile": hupai.Tile("P")}}
    assert slot(hupai.batch.score([tile])[0]) == want[0]
