"""POST /v1/analyse — the card games' analyser (one core call, ``hupai.analyse``): each game's
answers equal its own functions' (斗地主 legal moves and split, 够级 legal plays and burns, 顶牛
placements), every bad input is a 4xx naming the field, unknown keys are refused."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

import hupai  # noqa: E402
from hupai import dingniu, doudizhu, gouji  # noqa: E402
from hupai.server.app import create_app  # noqa: E402

CARD_PRESETS = [v["id"] for v in hupai.variants() if v["input"] not in ("tiles", "zipai")]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _ok(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/v1/analyse", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _err(client: TestClient, body: Any, field: str, error: str | None = None) -> str:
    r = client.post("/v1/analyse", json=body)
    assert r.status_code == 422, r.text
    e = r.json()
    assert set(e) == {"error", "field", "message"}
    assert e["field"] == field, e
    if error is not None:
        assert e["error"] == error, e
    assert e["message"]
    return str(e["message"])


def _list(d: dict[str, Any], lid: str) -> dict[str, Any]:
    found = [x for x in d["lists"] if x["id"] == lid]
    assert found, [x["id"] for x in d["lists"]]
    return found[0]


def test_every_card_preset_answers_its_example(client: TestClient) -> None:
    assert set(CARD_PRESETS) == {"doudizhu_qq", "doudizhu_contest", "gouji", "dingniu"}
    listing = {v["id"]: v for v in client.get("/v1/variants").json()}
    for vid in CARD_PRESETS:
        ex = listing[vid]["analyse_example"]
        assert set(ex) <= {"hand", "play", "against"}
        d = _ok(client, {"variant": vid, **ex})
        assert d == hupai.analyse(vid, ex["hand"], play=ex.get("play"), against=ex.get("against"))
        assert d["variant"] == vid
        assert d["checks"] and all(c["ok"] for c in d["checks"]), d["checks"]
        names = {p["name"] for p in d["pieces"]}
        assert all(p["zh"] for p in d["pieces"])
        for lst in d["lists"]:
            assert lst["total"] >= len(lst["items"]) and lst["truncated"] == (lst["total"] > len(lst["items"]))
            for it in lst["items"]:
                assert set(it["cards"]) <= names and it["label"]
    # tile presets list no example (they have no analyser)
    assert all(listing[v]["analyse_example"] is None for v in listing if v not in CARD_PRESETS)


def test_doudizhu_answers_are_the_games_legal_moves_and_split(client: TestClient) -> None:
    hand = "3344556677899JQKA2xX"
    d = _ok(client, {"variant": "doudizhu_qq", "hand": hand, "play": "55", "against": "44"})
    answers = _list(d, "answers")
    assert sorted(i["text"] for i in answers["items"]) == sorted(doudizhu.legal_moves(hand, "44"))
    assert [i["text"] for i in _list(d, "split")["items"]] == [c for c, _ in doudizhu.split(hand)]
    assert d["play"]["readings"] == ["对牌 pair · 5"]
    assert {c["id"]: c["ok"] for c in d["checks"]} == {"is_move": True, "in_hand": True, "beats": True}
    # a lead: every legal lead listed (or counted), and a selection that is no card type
    d = _ok(client, {"variant": "doudizhu_contest", "hand": "345", "play": "34"})
    assert sorted(i["text"] for i in _list(d, "leads")["items"]) == sorted(doudizhu.legal_moves("345"))
    assert d["checks"][0] == {"id": "is_move", "ok": False, "label": "不成牌型 not a card type"}
    # a play that does not beat the move on the table, and cards not held
    d = _ok(client, {"variant": "doudizhu_qq", "hand": "33", "play": "44", "against": "55"})
    checks = {c["id"]: c for c in d["checks"]}
    assert not checks["beats"]["ok"] and not checks["in_hand"]["ok"]
    assert checks["in_hand"]["label"].endswith("44")
    # the Chinese names of the jokers come from the core
    assert {p["name"]: p["zh"] for p in d["pieces"]}["X"] == "大王"


def test_gouji_checks_play_and_burn(client: TestClient) -> None:
    hand, play, top = "WwKKKKK99994", "WKKKKK", "wQQQQQ"
    d = _ok(client, {"variant": "gouji", "hand": hand, "play": play, "against": top})
    checks = {c["id"]: c["ok"] for c in d["checks"]}
    assert checks == {"legal_from_hand": True, "beats": True, "against_is_gouji": True, "can_burn": True, "play_burns": True}
    assert sorted(i["text"] for i in _list(d, "answers")["items"]) == sorted(gouji.legal_plays(hand, top=top))
    assert sorted(i["text"] for i in _list(d, "burns")["items"]) == sorted(gouji.burn_options(hand, top))
    # not a 够级牌: no burn list, the hand cannot burn it
    d = _ok(client, {"variant": "gouji", "hand": "9994", "play": "999", "against": "888"})
    checks = {c["id"]: c["ok"] for c in d["checks"]}
    assert checks["beats"] and not checks["against_is_gouji"] and not checks["can_burn"]
    assert [x["id"] for x in d["lists"]] == ["answers"]
    # 憋3: a 3 is never played while other cards are held
    d = _ok(client, {"variant": "gouji", "hand": "3339", "play": "333"})
    assert d["checks"][0]["id"] == "legal_from_hand" and not d["checks"][0]["ok"]
    assert {p["name"]: p["zh"] for p in d["pieces"]}["J"] == "钩"


def test_dingniu_placements_and_kou(client: TestClient) -> None:
    d = _ok(client, {"variant": "dingniu", "hand": "16 56 44 13 26", "play": "16:L", "against": "[1|5]"})
    got = [i["text"] for i in _list(d, "placements")["items"]]
    assert got == [f"{p.tile}:{p.side}" for p in dingniu.placements((1, 5), "16 56 44 13 26")]
    assert d["against"]["text"] == "[1|5]"
    assert {c["id"]: c["ok"] for c in d["checks"]} == {"legal": True, "must_lay": True}
    # nothing fits: 扣 any tile; a 扣 while a tile fits is refused
    d = _ok(client, {"variant": "dingniu", "hand": "44 22", "play": "kou 44", "against": "3|5"})
    assert _list(d, "kou")["items"] and d["checks"][0]["ok"]
    d = _ok(client, {"variant": "dingniu", "hand": "16 44", "play": "kou 44", "against": "1|5"})
    assert not d["checks"][0]["ok"] and "扣" in d["checks"][0]["label"]
    # no line yet: the openings
    d = _ok(client, {"variant": "dingniu", "hand": "44 44 56"})
    assert [x["id"] for x in d["lists"]] == ["openings"]
    assert {p["name"]: p["zh"] for p in d["pieces"]}["56"] == "虎头"


@pytest.mark.parametrize(
    ("body", "field", "error"),
    [
        ({"variant": "mcr", "hand": "123m"}, "variant", "RuleConfigError"),
        ({"variant": "zipai_guilin", "hand": "x1"}, "variant", "RuleConfigError"),
        ({"variant": "nope", "hand": "33"}, "variant", None),
        ({"variant": "doudizhu_qq", "hand": "3z"}, "hand", "InvalidTileError"),
        ({"variant": "doudizhu_qq", "hand": "33333"}, "hand", "InvalidTileError"),
        ({"variant": "doudizhu_qq", "hand": "33", "play": "1"}, "play", "InvalidTileError"),
        ({"variant": "doudizhu_qq", "hand": "33", "against": "34"}, "against", "InvalidHandError"),
        ({"variant": "gouji", "hand": "99", "against": "9988"}, "against", "InvalidHandError"),
        ({"variant": "gouji", "hand": "99", "play": "x"}, "play", None),
        ({"variant": "dingniu", "hand": "12"}, "hand", "InvalidTileError"),
        ({"variant": "dingniu", "hand": "44", "against": "[7|1]"}, "against", "InvalidHandError"),
        ({"variant": "dingniu", "hand": "16", "play": "16", "against": "1|6"}, "play", None),
        ({"variant": "doudizhu_qq", "hand": "33", "options": {"no_such_switch": True}}, "options", "RuleConfigError"),
        ({"variant": "doudizhu_qq", "hand": "33", "bogus": 1}, "bogus", "ValidationError"),
        ({"variant": "doudizhu_qq"}, "hand", "ValidationError"),
        ({"variant": "doudizhu_qq", "hand": 33}, "hand", "ValidationError"),
        ({"hand": "33"}, "variant", "ValidationError"),
        ({"variant": "doudizhu_qq", "hand": "3" * 201}, "hand", "ValidationError"),
    ],
)
def test_bad_input_is_422_naming_the_field(client: TestClient, body: dict[str, Any], field: str, error: str | None) -> None:
    _err(client, body, field, error)


def test_no_analyser_message_and_library_error() -> None:
    with pytest.raises(hupai.RuleConfigError, match="no analyser"):
        hupai.analyse("sichuan", "123m")
    with pytest.raises(hupai.InvalidHandError, match="against"):
        hupai.analyse("doudizhu_qq", "33", against="34")
    with pytest.raises(TypeError):
        hupai.analyse("doudizhu_qq", 33)  # type: ignore[arg-type]


def test_malformed_json_and_openapi(client: TestClient) -> None:
    r = client.post("/v1/analyse", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 400
    doc = client.get("/openapi.json").json()
    op = doc["paths"]["/v1/analyse"]["post"]
    assert set(op["responses"]) >= {"200", "400", "413", "422"}
    req = doc["components"]["schemas"]["AnalyseRequest"]
    assert req["additionalProperties"] is False and set(req["properties"]) == {"variant", "hand", "play", "against", "options"}


def test_a_long_lead_list_is_truncated_but_counted(client: TestClient) -> None:
    hand = "WWww222QQQQQQJJJJJJTTTTT99999888887777"
    d = _ok(client, {"variant": "gouji", "hand": hand})
    leads = _list(d, "leads")
    assert leads["truncated"] and len(leads["items"]) == 300
    assert leads["total"] == len(gouji.legal_plays(hand))


def test_play_board_names_card_pieces_from_the_core() -> None:
    from hupai.game.session import PlaySession, card_names

    assert card_names(hupai.Variant("gouji"))["A"] == "尖"
    assert card_names(hupai.Variant("sichuan")) == {}
    for vid, name, zh in (("doudizhu_qq", "x", "小王"), ("gouji", "K", "凯"), ("dingniu", "66", "大天")):
        s = PlaySession(vid, human=0, seed=3)
        b = s.board()
        held = b["seats"][0]["hand"]
        assert held and all(b["zh"][p] == card_names(hupai.Variant(vid))[p] for p in held)
        assert card_names(hupai.Variant(vid))[name] == zh


DOCS = __import__("pathlib").Path(__file__).resolve().parents[1] / "docs"


@pytest.mark.parametrize("game", ["doudizhu", "gouji", "dingniu"])
def test_the_docs_analyser_example_runs(game: str) -> None:
    """The python block of each game doc's "The analyser" section runs as written."""
    import re

    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    section = text.split("## The analyser", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], f"docs/{game}.md", "exec"), {"__name__": "docs"})
    assert f"img/analyser-{game}.png" in section


def test_card_moves_and_replay_captions_use_the_core_names() -> None:
    """The play page's moves list and the replay viewer's captions name a card game's pieces as
    the core does (dingniu: 虎头, not 56)."""
    from hupai.game.session import PlaySession, card_names, replay_steps

    names = card_names(hupai.Variant("dingniu"))
    s = PlaySession("dingniu", human=0, seed=5)
    while not s.done:
        s.act(0)
    steps = replay_steps(s.table.log)
    captions = [c for st in steps for c in st["caption"]]
    laid = [c for c in captions if "接牌" in c or "开牌" in c]
    assert laid, captions
    assert all(any(n in c for n in names.values()) for c in laid), laid
    assert not any(code in c for c in laid for code in names), laid


@pytest.mark.parametrize("vid", CARD_PRESETS)
def test_the_replay_endpoint_steps_a_card_game_log(client: TestClient, vid: str) -> None:
    """POST /v1/replay rebuilds a card game's log step by step (its records name the game's pieces:
    they are typed moves, not mahjong tiles), the last step being the settled hand."""
    import json

    from hupai.game.session import PlaySession

    s = PlaySession(vid, human=0, seed=2)
    while not s.done:
        s.act(0)
    r = client.post("/v1/replay", content="\n".join(json.dumps(x) for x in s.table.log), headers={"content-type": "text/plain"})
    assert r.status_code == 200, r.text
    steps = r.json()["steps"]
    assert steps[-1]["done"] and steps[-1]["result"]["balances"] == s.board()["result"]["balances"]
