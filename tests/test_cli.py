"""The ``hupai`` command line (analysis commands and demo)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hupai import cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_win(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "win", "[EEE,1]123m456p78s99s+9s")
    assert code == 0 and "winning hand" in out
    code, out, _ = run(capsys, "win", "123m456p789sEEECF", "--json")
    assert json.loads(out)["winning"] is False


def test_waits_and_visible(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "waits", "1112345678999m", "--json")
    assert json.loads(out)["waits"] == [f"{r}m" for r in range(1, 10)]
    code, out, _ = run(capsys, "waits", "1112345678999m", "--visible", "555m", "--json")
    assert "5m" not in json.loads(out)["waits"]
    code, out, _ = run(capsys, "waits", "1112345678999m")
    assert "ready" in out and "一万" in out


def test_shanten_decompose_discards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "shanten", "147m258p369sESWN", "--json")
    assert json.loads(out)["shanten"] == 0
    code, out, _ = run(capsys, "decompose", "111222333m456pEE")
    assert "2 decomposition(s)" in out
    code, out, _ = run(capsys, "decompose", "13m456p789sEEECC", "--wildcards", "1", "--json")
    assert json.loads(out)["decompositions"][0]["wildcards"] == ["2m"]
    code, out, _ = run(capsys, "discards", "12234m456p78s99sCF", "--json")
    assert json.loads(out)["options"][0]["discard"] in {"C", "F"}
    code, out, _ = run(capsys, "shanten", "1122m3344p5566sEF", "--shapes", "standard")
    assert "七对" not in out


def test_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo")
    assert code == 0
    for word in ("hupai win", "hupai waits", "hupai discards", "wildcards"):
        assert word in out


@pytest.mark.parametrize(
    "argv",
    [
        ["win", "12x"],
        ["waits", "123m456p789sEEECC"],
        ["shanten", "123m"],
        ["decompose", "123m456p789sEEEC"],
        ["discards", "123m456p789sEEEC"],
        ["shanten", "1m", "--shapes", "bogus"],
    ],
)
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.startswith("hupai: error:") and out == ""


def test_import_leaves_numpy_out() -> None:
    """``import hupai`` (every ``hupai`` command) does not pay numpy's import: the modules import
    it where a batch function needs it, and the batch functions still return numpy arrays."""
    code = (
        "import sys, hupai\n"
        "assert 'numpy' not in sys.modules, 'import hupai imported numpy'\n"
        "a = hupai.doudizhu.to_counts('33')\n"
        "assert type(a).__module__ == 'numpy' and a.tolist()[0] == 2\n"
        "assert hupai.doudizhu.from_counts(a) == '33'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
