"""`hupai score` command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hupai.cli import main


def test_score_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "[EEE,2][SSSS,1]55pWWWNN+N", "--self-drawn"]) == 0
    out = capsys.readouterr().out
    assert "大四喜" in out and "Big Four Winds" in out and "total 98" in out


def test_score_plain_hand_and_switch(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "258m234p69p147s88s", "--win-tile", "3p", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 17
    assert main(["score", "258m234p69p147s88s", "-w", "3p", "--json", "--set", "knitted_straight_wait_fans=false"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 16
    assert main(["score", "123m456p789s11p", "-w", "E", "--melds", "EEE,1", "--json"]) == 2  # 17 tiles
    assert main(["score", "123m456p789s11pE", "--melds", "[EEE,1]"]) == 2


def test_score_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "123m", "-w", "1m"]) == 2
    assert "error" in capsys.readouterr().err
    assert main(["score", "123m456p789s11pEE+E", "--set", "nope=1"]) == 2


def test_score_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.jsonl"
    good = {"id": "x", "hand": {"melds": [], "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1p", "1p", "E", "E"], "win_tile": "E"}, "situation": {"self_drawn": True}}
    src.write_text(json.dumps(good) + "\n" + "not json\n" + json.dumps({**good, "variant": "mcr"}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["score", "--jsonl", str(src), "-o", str(out)]) == 1  # one bad line
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert rows[0]["id"] == "x" and rows[0]["total"] > 0
    assert rows[1]["error"] == "InvalidHandError"
    assert rows[2]["total"] == rows[0]["total"]
    assert "1 of 3" in capsys.readouterr().err
