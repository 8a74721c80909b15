"""Every ```python block of README.md runs as written and passes mypy (docs with runnable examples)."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_block_runs(code: str) -> None:
    exec(compile(code, str(README), "exec"), {"__name__": "readme"})


def test_readme_blocks_pass_mypy(tmp_path: Path) -> None:
    """mypy (strict) accepts every README example as written."""
    api = pytest.importorskip("mypy.api")
    for i, code in enumerate(BLOCKS):
        (tmp_path / f"readme_block{i}.py").write_text(code, encoding="utf-8")
    out, err, status = api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / ".cache"), str(tmp_path)])
    assert status == 0, out + err
