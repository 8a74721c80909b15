"""The scoring service through an in-process client (hupai.server; issue 8)."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

import hupai  # noqa: E402
from hupai.cli import build_parser  # noqa: E402
from hupai.server.app import create_app  # noqa: E402
from hupai.server.schemas import MAX_BATCH, MAX_BODY  # noqa: E402

WIN = "[EEE,1]123m456p78s99s+9s"
SICHUAN = {
    "hand": {
        "concealed": ["1m", "1m", "1m", "1m", "2m", "3m", "4p", "5p", "6p", "7p", "8p", "9p", "5p"],
        "win_tile": "5p",
    },
    "situation": {"win_type": "discard"},
}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _err(r: Any, status: int, field: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error", "field", "message"}
    assert body["field"] == field, body
    assert body["message"]
    return body


def test_healthz(client: TestClient) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok", "version": hupai.__version__}


def test_score_string_hand_matches_library(client: TestClient) -> None:
    r = client.post("/v1/score", json={"hand": WIN, "situation": {"seat_wind": "S", "self_drawn": False}})
    assert r.status_code == 200
    want = hupai.score(hupai.Situation.parse(WIN, seat_wind="S")).to_dict()
    got = r.json()
    assert got["total"] == want["total"] == 10
    assert [(f["id"], f["zh"], f["en"], f["value"]) for f in got["fans"]] == [
        (f["id"], f["zh"], f["en"], f["value"]) for f in want["fans"]
    ]
    assert got["variant"] == "mcr"


def test_score_case_schema_and_options(client: TestClient) -> None:
    case = hupai.Situation.parse(WIN, seat_wind="S").to_dict()
    r = client.post("/v1/score", json={**case, "id": "a1", "options": {"min_fan": 12}})
    assert r.status_code == 200
    body = r.json()
    assert body["id"] == "a1" and body["total"] == 10 and body["meets_minimum"] is False


def test_score_sichuan(client: TestClient) -> None:
    r = client.post("/v1/score", json={"variant": "sichuan", **SICHUAN})
    assert r.status_code == 200
    want = hupai.sichuan.score(SICHUAN).to_dict()
    assert r.json()["raw_total"] == want["raw_total"] == 2 and r.json()["unit"] == "fan"
    assert r.json()["per_payer"] == want["per_payer"]


def test_score_zipai_bad_hand_is_422(client: TestClient) -> None:
    r = client.post("/v1/score", json={"variant": "zipai_guilin", "hand": "x1x2", "situation": {}})
    assert r.status_code == 422 and r.json()["error"].endswith("Error")


@pytest.mark.parametrize(
    ("body", "field", "error"),
    [
        ({"hand": "12m"}, "hand", "InvalidHandError"),
        ({"hand": "123m456p789s11Z+1z"}, "hand", None),
        ({"hand": WIN, "variant": "nope"}, "variant", "RuleConfigError"),
        ({"hand": WIN, "options": {"bogus": 1}}, "options", "RuleConfigError"),
        ({"hand": WIN, "situation": {"seat_wind": "Q"}}, None, None),
        ({}, "hand", "ValidationError"),
        ({"hand": WIN, "extra": 1}, "extra", "ValidationError"),
        ({"hand": 5}, None, "ValidationError"),
        ({"hand": "1" * 1000}, None, "ValidationError"),
        ({"hand": WIN, "situation": {"flowers": 10**30}}, "situation.flowers", "ValidationError"),
        ({"hand": WIN, "options": {"min_fan": 10**30}}, "options.min_fan", "ValidationError"),
        ({"hand": {"concealed": ["1m"], "melds": [{"type": "pung", "tiles": ["E"] * 3, "offer": 10**20}]}}, "hand.melds[0].offer", None),
    ],
)
def test_score_bad_input_names_the_field(client: TestClient, body: Any, field: str | None, error: str | None) -> None:
    r = client.post("/v1/score", json=body)
    assert r.status_code == 422, r.text
    b = r.json()
    assert set(b) == {"error", "field", "message"} and b["message"]
    if field is not None:
        assert b["field"] == field, b
    if error is not None:
        assert b["error"] == error


def test_nan_is_refused(client: TestClient) -> None:
    body = b'{"hand": "[EEE,1]123m456p78s99s+9s", "situation": {"flowers": NaN}}'
    r = client.post("/v1/score", content=body, headers={"content-type": "application/json"})
    _err(r, 422, "situation.flowers")


def test_malformed_json_is_400(client: TestClient) -> None:
    r = client.post("/v1/score", content=b'{"hand": ', headers={"content-type": "application/json"})
    _err(r, 400, "body")


def test_oversized_body_is_413(client: TestClient) -> None:
    big = json.dumps({"hand": WIN, "situation": {"pad": "x" * (MAX_BODY + 10)}})
    _err(client.post("/v1/score", content=big, headers={"content-type": "application/json"}), 413, "body")


def test_oversized_chunked_body_is_413(client: TestClient) -> None:
    def chunks() -> Any:
        for _ in range(MAX_BODY // 1000 + 2):
            yield b"x" * 1000

    r = client.post("/v1/score", content=chunks(), headers={"content-type": "application/json"})
    _err(r, 413, "body")


def test_batch_in_order_with_per_item_errors(client: TestClient) -> None:
    items = [{"hand": WIN}, {"hand": "12m"}, {"hand": WIN, "situation": {"seat_wind": "S"}}, {"nope": 1}]
    r = client.post("/v1/score/batch", json={"items": items})
    assert r.status_code == 200
    res = r.json()["results"]
    assert len(res) == 4
    assert res[0]["total"] == hupai.score(hupai.Situation.parse(WIN)).total
    assert res[1]["error"] == "InvalidHandError" and res[1]["field"] == "items[1].hand"
    assert res[2]["total"] == 10
    assert res[3]["error"] == "ValidationError" and res[3]["field"] == "items[3]"


def test_batch_equals_single_calls(client: TestClient) -> None:
    hands = [WIN, "[EEE,2][SSSS,1]55pWWWNN+N", "123m456p789s11155z+5z", "1112345678999m+5m", "19m19p19sESWNCFP+P", "12m"]
    items: list[dict[str, Any]] = []
    for k, h in enumerate(hands):
        items.append({"hand": h, "situation": {"self_drawn": k % 2 == 1}, "id": k})
        items.append({"hand": h, "options": {"min_fan": 1}, "id": f"o{k}"})
    items.append({"variant": "sichuan", **SICHUAN})
    items.append({"hand": WIN, "situation": {"flowers": 10**30}})
    res = client.post("/v1/score/batch", json={"items": items}).json()["results"]
    assert len(res) == len(items)
    for i, (item, got) in enumerate(zip(items, res)):
        single = client.post("/v1/score", json=item)
        if single.status_code == 200:
            assert got == single.json(), i
        else:
            assert got["error"] == single.json()["error"] and got["field"] == f"items[{i}].{single.json()['field']}", (i, got)


def test_batch_limit_is_413(client: TestClient) -> None:
    ok = client.post("/v1/score/batch", json={"items": [{"hand": WIN}] * MAX_BATCH})
    assert ok.status_code == 200 and len(ok.json()["results"]) == MAX_BATCH
    _err(client.post("/v1/score/batch", json={"items": [{"hand": WIN}] * (MAX_BATCH + 1)}), 413, "items")


def test_waits_and_shanten(client: TestClient) -> None:
    r = client.post("/v1/waits", json={"hand": "1112345678999m"})
    assert r.status_code == 200
    assert r.json()["waits"] == hupai.waits("1112345678999m") and r.json()["shanten"] == 0
    r = client.post("/v1/waits", json={"hand": ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m"]})
    assert r.status_code == 200 and len(r.json()["waits"]) == 9
    r = client.post("/v1/shanten", json={"hand": "123m456p789sEEECS"})
    assert r.status_code == 200
    forms = hupai.shanten_forms("123m456p789sEEECS")
    assert r.json()["shanten"] == forms["min"] and r.json()["forms"]["standard"] == forms["standard"]
    # 四川: no honours shapes, so 七对/standard only
    r = client.post("/v1/shanten", json={"hand": "1122334455667m", "variant": "sichuan"})
    assert r.status_code == 200 and set(r.json()["forms"]) <= {"standard", "seven_pairs", "seven_pairs_quads"}


def test_waits_zipai(client: TestClient) -> None:
    hand, melds = "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10", ["chi:d1d2d3", "peng:x5x5x5"]
    r = client.post("/v1/waits", json={"hand": hand, "melds": melds, "variant": "zipai_guilin"})
    assert r.status_code == 200, r.text
    assert r.json()["waits"] == [str(c) for c, _ in hupai.zipai.waits(hand, melds=melds)] != []
    assert r.json()["shanten"] is None
    _err(client.post("/v1/waits", json={"hand": "123m", "melds": ["peng:x5x5x5"]}), 422, "melds")


def test_waits_bad_input(client: TestClient) -> None:
    _err(client.post("/v1/waits", json={"hand": "12"}), 422, "hand")
    _err(client.post("/v1/waits", json={"hand": "123m", "shapes": ["bogus"]}), 422, "shapes[0]")
    _err(client.post("/v1/waits", json={"hand": "123m", "wildcards": 9}), 422, "wildcards")
    _err(client.post("/v1/shanten", json={"hand": "x1", "variant": "zipai_guilin"}), 422, "variant")


def test_variants_lists_presets_with_switches_and_fans(client: TestClient) -> None:
    r = client.get("/v1/variants")
    assert r.status_code == 200
    by_id = {v["id"]: v for v in r.json()}
    assert set(by_id) == {v["id"] for v in hupai.variants()}
    mcr = by_id["mcr"]
    assert mcr["switches"] and any(f["id"] == "MIXED_STRAIGHT" and f["zh"] == "花龙" for f in mcr["fans"])


def test_openapi_documents_the_endpoints(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    for path in ["/v1/score", "/v1/score/batch", "/v1/waits", "/v1/shanten", "/v1/parse", "/v1/variants", "/healthz"]:
        assert path in doc["paths"], path
    responses = doc["paths"]["/v1/score"]["post"]["responses"]
    assert {"200", "400", "413", "422"} <= set(responses)


def test_page_and_tiles_are_served(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "app.js" in r.text
    assert client.get("/static/app.js").status_code == 200
    for t in ["1m", "9p", "5s", "E", "C", "F", "P"]:
        svg = client.get(f"/static/tiles/{t}.svg")
        assert svg.status_code == 200 and svg.text.startswith("<svg")


def test_tile_faces_are_generated_from_the_script() -> None:
    from hupai.server import make_tiles

    for name, svg in make_tiles.faces().items():
        assert (make_tiles.OUT / f"{name}.svg").read_text(encoding="utf-8") == svg, name
    assert (make_tiles.OUT.parent / "favicon.svg").read_text(encoding="utf-8") == make_tiles.favicon()


def test_variants_give_each_preset_its_palette_from_the_core(client: TestClient) -> None:
    """``tiles`` is each kind of the preset's tile set once (core order), ``flowers`` its flower
    tiles; every listed piece has a face under /static/tiles."""
    for v in client.get("/v1/variants").json():
        variant = hupai.Variant(v["id"])
        if v["input"] == "zipai":
            assert v["tiles"] == [str(c) for c in hupai.zipai.from_counts([1] * 20)] and v["flowers"] == []
        elif v["input"] != "tiles":  # card games: a case is written as text, no tile palette
            assert v["tiles"] == [] and v["flowers"] == [], v["id"]
        else:
            kinds = [hupai.Tile.from_index(i) for i in sorted(set(variant.tile_set()))]
            assert v["tiles"] == [str(t) for t in kinds if not t.is_flower]
            assert v["flowers"] == [str(t) for t in kinds if t.is_flower]
        for t in v["tiles"] + v["flowers"]:
            assert client.get(f"/static/tiles/{t}.svg").status_code == 200, t
    by_id = {v["id"]: v for v in client.get("/v1/variants").json()}
    assert "E" not in by_id["sichuan"]["tiles"] and len(by_id["sichuan"]["tiles"]) == 27
    assert by_id["mcr"]["flowers"] == [f"f{k}" for k in range(1, 9)] and by_id["hebei"]["flowers"] == []


@pytest.mark.parametrize(
    "text",
    [
        "[EEE,1]123m456p7899s+9s",
        "123m456p789s1112z+2z",
        "一万二万三万四万五万六万七万八万九万红中红中红中白+白",
        "東東東123万456p789s9s+9s",
        "W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 F1 T9+T9",
        "[1111m][7777p,2]456p789s9s+9s",
    ],
)
def test_parse_reads_every_notation_as_the_core_does(client: TestClient, text: str) -> None:
    r = client.post("/v1/parse", json={"hand": text})
    assert r.status_code == 200, r.text
    got = r.json()
    want = hupai.Situation.parse(text).to_dict()["hand"]
    assert got["concealed"] == want["concealed"] and got["win_tile"] == want["win_tile"] and got["complete"]
    assert [(m["type"], m["tiles"], m["concealed"], m["offer"]) for m in got["melds"]] == [
        (m["type"], m["tiles"], m["concealed"], m["offer"]) for m in want["melds"]
    ]


def test_parse_reads_a_partial_hand_and_refuses_what_the_core_refuses(client: TestClient) -> None:
    r = client.post("/v1/parse", json={"hand": "[EEE,1]12m"}).json()
    assert r["concealed"] == ["1m", "2m"] and r["melds"][0]["tiles"] == ["E", "E", "E"] and not r["complete"]
    text = "一万二万三万四万五万六万七万八万九万红中红中红中红中+红中"
    with pytest.raises(hupai.HupaiError) as e:
        hupai.Situation.parse(text)
    assert _err(client.post("/v1/parse", json={"hand": text}), 422, "hand")["message"] == str(e.value)
    _err(client.post("/v1/parse", json={"hand": "123q"}), 422, "hand")
    _err(client.post("/v1/parse", json={"hand": "1m", "variant": "nope"}), 422, "variant")
    _err(client.post("/v1/parse", json={"hand": "1m", "bogus": 1}), 422, "bogus")
    _err(client.post("/v1/parse", json={"hand": WIN, "situation": {"seat_wind": "Q"}}), 422, "hand")


def test_parse_splits_a_situation_into_the_form_and_the_rest(client: TestClient) -> None:
    r = client.post("/v1/parse", json={"hand": WIN, "situation": {"self_drawn": True, "seat_wind": "S", "flower_tiles": ["f2"], "dealer_seat": 2}})
    body = r.json()
    assert body["form"]["win_type"] == "self_draw" and body["form"]["seat_wind"] == "S"
    assert body["form"]["flower_tiles"] == ["f2"] and body["more"] == {"dealer_seat": 2}
    ex = hupai.Variant("zipai_guilin").describe()["example"]
    body = client.post("/v1/parse", json={"variant": "zipai_guilin", "hand": ex["hand"], "situation": ex["situation"]}).json()
    assert [m["type"] for m in body["melds"]] == ["chi", "peng"] and body["win_tile"] == ex["situation"]["win_card"]
    assert body["form"] == {"win_type": "discard"} and "melds" not in body["more"] and body["more"]["seat"] == 1
    _err(client.post("/v1/parse", json={"variant": "zipai_guilin", "hand": "[foo:x1x2x3]x4"}), 422, "hand")


def test_docs_and_favicon_are_served_without_a_cdn(client: TestClient) -> None:
    for path in ("/docs", "/redoc"):
        r = client.get(path)
        assert r.status_code == 200 and "/openapi.json" in r.text
        assert "http://" not in r.text and "https://" not in r.text.replace("https://github.com", ""), r.text
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js"):
        assert client.get(f"/docs-assets/{asset}").status_code == 200
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml") and r.text.startswith("<svg")


def test_cli_serve_arguments() -> None:
    args = build_parser().parse_args(["serve", "--port", "9001", "--workers", "2"])
    assert (args.host, args.port, args.workers) == ("127.0.0.1", 9001, 2)
