"""The command line as a person meets it: help for every option, no markup in --help, CJK columns
aligned by display width, ``simulate --out`` refused before any work, progress in hands with an ETA,
Chinese fan names in summaries, ``waits`` on a hand that must discard pointing at ``discards``."""

from __future__ import annotations

import argparse
import importlib
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import hupai
from hupai import _text, cli
from hupai.game import cli as game_cli

sim = importlib.import_module("hupai.game.simulate")  # the module (hupai.game.simulate is also a function)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _parsers(p: argparse.ArgumentParser, path: list[str]) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield " ".join(path), p
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sp in a.choices.items():
                yield from _parsers(sp, [*path, name])


PARSERS = list(_parsers(cli.build_parser(), ["hupai"]))


@pytest.mark.parametrize("path,parser", PARSERS, ids=[p for p, _ in PARSERS])
def test_every_option_has_help_and_no_markup_leaks(path: str, parser: argparse.ArgumentParser) -> None:
    for a in parser._actions:
        if isinstance(a, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)):
            continue
        assert a.help and a.help != argparse.SUPPRESS, f"{path} {a.option_strings or a.dest}: no help text"
    text = parser.format_help()
    assert "``" not in text and ":func:" not in text and ":class:" not in text, f"{path} --help shows markup"


def test_plain_strips_rest_markup() -> None:
    assert cli.plain("run ``hupai waits`` or :func:`hupai.waits`") == "run hupai waits or hupai.waits"


def test_display_width_counts_cjk_as_two_columns() -> None:
    assert _text.width("四川麻将（血战到底）") == 20 and _text.width("mcr") == 3 and _text.width("東 E") == 4
    assert _text.width("e\u0301") == 1  # a combining accent takes no column
    assert _text.table([["国标", "1"], ["mcr", "22"]], right=frozenset({1})) == ["国标   1", "mcr   22"]


def _column_starts(lines: list[str], cells: list[str]) -> set[int]:
    return {_text.width(line[: line.index(cell)]) for line, cell in zip(lines, cells, strict=True)}


def test_variants_list_aligns_cjk_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants")
    assert code == 0
    listed = hupai.variants()
    rows = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert len(rows) == len(listed) + 1  # the header, then one row per preset
    body = rows[1:]
    assert [r.split()[0] for r in body] == [v["id"] for v in listed]
    # the Chinese name, the players and the English name each start in one display column
    assert len(_column_starts(body, [v["name"] for v in listed])) == 1
    assert len(_column_starts(body, [v["name_en"] for v in listed])) == 1
    # descriptions under each row, indented to the name column
    assert all(f"  {v['description']}" in out for v in listed)


def test_variant_fan_table_aligns_cjk_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants", "sichuan")
    assert code == 0
    fans = hupai.Variant("sichuan").describe()["fans"]
    lines = [line for line in out.splitlines() if line.startswith("  ") and line.split()[0] in {f["id"] for f in fans}]
    assert len(lines) == len(fans)
    assert len(_column_starts(lines, [f" {f['op']} " for f in fans])) == 1


def test_waits_on_a_hand_that_must_discard_points_at_discards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "waits", "12234m456p78s99sCF")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "hupai discards '12234m456p78s99sCF'" in err and "discard_options" not in err
    code, out, _ = run(capsys, "discards", "12234m456p78s99sCF", "--top", "1")
    assert code == 0 and "discard options" in out


@pytest.fixture
def no_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if a hand is played (the checks must come first)."""

    def boom(*a: Any, **k: Any) -> Any:
        raise AssertionError("a hand was played before the output path was checked")

    monkeypatch.setattr(game_cli, "simulate", boom)
    monkeypatch.setattr(sim, "play_game", boom)


@pytest.mark.parametrize(
    "out,says",
    [
        ("/nonexistent/x.parquet", "the directory /nonexistent does not exist"),
        ("/nonexistent/x.jsonl", "the directory /nonexistent does not exist"),
        ("g.csv", "unknown format ('.csv')"),
        ("records", "unknown format (no extension)"),
    ],
)
def test_simulate_out_is_checked_before_any_work(
    capsys: pytest.CaptureFixture[str], no_simulation: None, out: str, says: str
) -> None:
    code, stdout, err = run(capsys, "simulate", "-n", "100000", "--out", out)
    assert code == 2 and stdout == ""
    assert err.startswith("hupai: error: ") and f"--out {out}: {says}" in err and err.count("\n") == 1, err


def test_simulate_out_directory_and_unwritable(capsys: pytest.CaptureFixture[str], no_simulation: None, tmp_path: Path) -> None:
    d = tmp_path / "x.jsonl"
    d.mkdir()
    code, _, err = run(capsys, "simulate", "--out", str(d))
    assert code == 2 and "is a directory" in err and err.count("\n") == 1
    if os.geteuid() != 0:  # root may write anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
        code, _, err = run(capsys, "simulate", "--out", str(ro / "g.jsonl"))
        assert code == 2 and "cannot be written" in err
    with pytest.raises(hupai.RuleConfigError, match="unknown format"):
        sim.simulate("sichuan", 10, out=tmp_path / "g.csv")  # the library refuses it too, first


def test_simulate_writes_the_format_its_extension_names(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    res = sim.simulate("sichuan", 5, seed=1, out=out, progress=False)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == res.n_games == 5 and all(line.startswith("{") for line in lines)
    if "pyarrow" in sys.modules or _has_pyarrow():
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        pq_out = tmp_path / "g.parquet"
        sim.simulate("sichuan", 5, seed=1, out=pq_out, progress=False)
        assert pq.read_table(pq_out).num_rows == 5


def _has_pyarrow() -> bool:
    import importlib.util

    return importlib.util.find_spec("pyarrow") is not None


def test_progress_counts_hands_with_an_eta(capsys: pytest.CaptureFixture[str]) -> None:
    sim.simulate("sichuan", 200, seed=1, progress=True)
    err = capsys.readouterr().err
    last = err.strip().split("\r")[-1]
    assert "200/200 hands" in last and "hands/s" in last and "ETA" in last


def test_summary_names_fans_in_chinese() -> None:
    names = sim.fan_names("mcr")
    assert names["FLOWER_TILES"] == "花牌"
    res = sim._aggregate("mcr", ["random"] * 4, [])
    res.fan_frequency = {"FLOWER_TILES": 3, "ALL_PUNGS": 1}
    text = res.summary()
    assert f"{names['FLOWER_TILES']} 3" in text and f"{names['ALL_PUNGS']} 1" in text and "FLOWER_TILES" not in text


def test_serve_url() -> None:
    assert cli.serve_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert cli.serve_url("0.0.0.0", 80) == "http://localhost:80/"
    assert cli.serve_url("::1", 9) == "http://[::1]:9/"
