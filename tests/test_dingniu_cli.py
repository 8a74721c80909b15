"""``hupai dingniu …``: terminal play (scripted stdin), simulate, replay, tiles, moves, errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from hupai.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None, monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None and monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_play_auto_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "hands.jsonl"
    code, out, _ = run(["dingniu", "play", "--auto", "--seed", "3", "--rounds", "3", "--log", str(log)], capsys)
    assert code == 0
    assert out.count("== end:") == 3 and "running totals" in out
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert sum(e["type"] == "deal" for e in events) == 3
    code, out, _ = run(["dingniu", "replay", str(log)], capsys)
    assert code == 0 and out.count("replayed identically") == 3
    # a tampered log fails with one clear line
    events[2]["tile"] = "11" if events[2].get("tile") != "11" else "66"
    log.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in events), encoding="utf-8")
    code, _, err = run(["dingniu", "replay", str(log)], capsys)
    assert code == 2 and err.startswith("hupai: error:") and err.count("\n") == 1


def test_play_human_scripted(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Always pick the first listed move; one nonsense input first (refused, asked again).
    answers = "zz\n" + "1\n" * 30
    code, out, _ = run(["dingniu", "play", "--seed", "11", "--seat", "2", "--bots", "random"], capsys, answers, monkeypatch)
    assert code == 0
    assert "your hand:" in out and "moves: [1]" in out and "not allowed" in out and "== end:" in out


def test_play_quit(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["dingniu", "play", "--seed", "1", "--seat", "0"], capsys, "q\n" * 5, monkeypatch)
    assert code == 0 and "bye" in out
    code, out, _ = run(["dingniu", "play", "--seed", "1", "--seat", "0"], capsys, "", monkeypatch)  # EOF
    assert code == 0 and "bye" in out


def test_simulate_tiles_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["dingniu", "simulate", "500", "--seed", "2", "--bots", "greedy,random,greedy,random", "--rounds-per-match", "5"], capsys)
    assert code == 0 and "500 hands (100 matches)" in out and "invariants checked after every move: OK" in out
    code, out, _ = run(["dingniu", "simulate", "300", "--json", "--no-check", "--set", "suanzhang=off"], capsys)
    s = json.loads(out)
    assert s["rounds"] == 300 and s["played_out"] == 300 and s["decisions"] > 0
    code, out, _ = run(["dingniu", "tiles"], capsys)
    assert code == 0 and "红十" in out and "177 pips" in out
    code, out, _ = run(["dingniu", "tiles", "--json"], capsys)
    assert len(json.loads(out)["kinds"]) == 13
    code, out, _ = run(["dingniu", "moves", "4,6", "66 44 16 13 22 55"], capsys)
    assert out.split() == ["66:R", "44:L", "16:R"]
    code, out, _ = run(["dingniu", "moves", "[2|3]", "55 44 11", "--json"], capsys)
    assert json.loads(out) == ["kou 55", "kou 44", "kou 11"]


@pytest.mark.parametrize(
    "argv, text",
    [
        (["dingniu", "moves", "4", "66"], "open ends"),
        (["dingniu", "moves", "4,6", "12"], "丁三"),
        (["dingniu", "simulate", "10", "--bots", "smart"], "bots"),
        (["dingniu", "simulate", "10", "--set", "silan=maybe"], "silan"),
        (["dingniu", "simulate", "10", "--set", "nope"], "SWITCH=VALUE"),
        (["dingniu", "play", "--auto", "--seed", "1", "--set", "bogus=1"], "no switch"),
        (["dingniu", "play", "--seat", "7", "--seed", "1"], "seats are 0..3"),
        (["dingniu", "play", "--auto", "--rounds", "0"], "at least one hand"),
        (["dingniu", "replay", "/nonexistent/x.jsonl"], "cannot read"),
    ],
)
def test_errors_are_one_line(argv: list[str], text: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(argv, capsys)
    assert code == 2 and text in err and err.count("\n") == 1


def test_replay_bad_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "x.jsonl"
    for text, msg in [("{not json", "not JSON"), ("[1, 2]", "JSON object"), ('{"type": "lay"}', "start with a deal")]:
        f.write_text(text, encoding="utf-8")
        code, _, err = run(["dingniu", "replay", str(f)], capsys)
        assert code == 2 and msg in err


def test_help_mentions_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["dingniu", "--help"])
    out, _ = capsys.readouterr()
    for sub in ("play", "simulate", "replay", "tiles", "moves"):
        assert sub in out
