"""``hupai.score`` dispatches on the variant's preset to that preset's scorer."""

from typing import Any

import pytest

import hupai
from hupai import zipai

SICHUAN_WIN: dict[str, Any] = {
    "hand": {
        "melds": [{"type": "kong_concealed", "tiles": ["5s"] * 4}, {"type": "pon", "tiles": ["8s"] * 3}],
        "concealed": ["2s", "2s", "2s", "3s", "3s", "3s", "9s"],
        "win_tile": "9s",
    },
    "situation": {"win_type": "kong_replacement"},
}

ZIPAI_WIN: dict[str, Any] = {
    "concealed": "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10",
    "win_card": "x8",
    "melds": [{"type": "chi", "tiles": ["d1", "d2", "d3"]}, {"type": "peng", "tiles": ["x5", "x5", "x5"]}],
    "win_type": "discard",
    "seat": 1,
    "dealer": 0,
    "discarder": 2,
    "flips": ["d7"],
}


def test_sichuan_through_score_equals_the_preset_function() -> None:
    via_score = hupai.score(SICHUAN_WIN, "sichuan")
    direct = hupai.sichuan.score(SICHUAN_WIN, "sichuan")
    assert isinstance(via_score, hupai.SichuanScore)
    assert via_score.to_dict() == direct.to_dict()
    assert via_score.fan_total == 5 and via_score.per_payer == 96


def test_zipai_through_score_equals_the_preset_function() -> None:
    via_score = hupai.score(ZIPAI_WIN, hupai.Variant.load("zipai_guilin"))
    assert isinstance(via_score, dict)
    assert via_score == zipai.score(ZIPAI_WIN, "zipai_guilin").to_dict()


def test_zipai_needs_a_dict() -> None:
    with pytest.raises(TypeError):
        hupai.score("d8d8d8", "zipai_guilin")


def test_mcr_is_the_default() -> None:
    situation = hupai.Situation.parse("[EEE,1]123m456p78s99s+9s", self_drawn=True)
    s = hupai.score(situation)
    assert isinstance(s, hupai.Score)
    assert s.to_dict() == hupai.score(situation, "mcr").to_dict()
    assert s.total == sum(f.points * f.count for f in s.fans)


def test_cli_score_routes_by_variant(capsys: pytest.CaptureFixture[str]) -> None:
    from hupai.cli import main

    assert main(["score", "[5555s][888s,1]2223339s+9s", "--variant", "sichuan", "--win-type", "kong_replacement"]) == 0
    out = capsys.readouterr().out
    assert "清对" in out and "×16" in out and "W +288" in out
    argv = ["score", "d8d8d8 x2x7x10 d4d5d6 x6x7x8 x9x10", "--variant", "zipai_guilin", "--win", "x8"]
    argv += ["--meld", "chi:d1d2d3", "--meld", "peng:x5x5x5", "--seat", "1", "--discarder", "2", "--flip", "d7"]
    assert main(argv) == 0
    assert "胡息 16" in capsys.readouterr().out


@pytest.mark.parametrize(
    "make",
    [
        lambda: hupai.Situation.parse("[EEE,1]123m456p78s99s+9s", flowers=10**30),
        lambda: hupai.score({"hand": {"concealed": ["1m"], "win_tile": "1m"}, "situation": {"flowers": 10**30}}),
        lambda: hupai.Variant("mcr", min_fan=10**30),
    ],
)
def test_huge_integers_are_typed_errors(make: Any) -> None:
    with pytest.raises(hupai.HupaiError, match="out of range"):
        make()
