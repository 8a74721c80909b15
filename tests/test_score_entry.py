"""The fast entries of scoring: ``hupai.score(Situation, Variant)`` (a vectorcall entry beside the
PyO3 wrapper) and ``hupai.batch.score`` on one thread (scored a chunk at a time on the calling
thread) give exactly the answers and errors of the general paths."""

from __future__ import annotations

import inspect
import json
import os
from pathlib import Path
from typing import Any

import pytest

import hupai
import hupai.batch

SHARED = Path(os.environ.get("HUPAI_SHARED", "/work/shared"))
E1 = "[EEE,2][SSSS,1]55pWWWNN+N"


def _cases(limit: int = 300) -> list[hupai.Situation]:
    path = SHARED / "cases" / "mcr_dev.jsonl"
    if not path.exists():
        pytest.skip(f"{path} not present")
    out = []
    for line in path.read_text(encoding="utf-8").splitlines()[:limit]:
        c = json.loads(line)
        try:
            out.append(hupai.Situation.from_dict({k: c[k] for k in ("hand", "situation")}))
        except hupai.HupaiError:
            continue
    return out


def _outcome(f: Any, *args: Any, **kw: Any) -> Any:
    try:
        r = f(*args, **kw)
    except hupai.HupaiError as e:
        return (type(e).__name__, str(e))
    return r.to_dict()


def test_score_keeps_its_signature_and_name() -> None:
    assert str(inspect.signature(hupai.score)) == "(situation, variant=None, *, options=None, **flags)"
    assert hupai.score.__name__ == "score"
    assert hupai.score.__doc__ is not None and hupai.score.__doc__.startswith("Score one win under any preset.")


@pytest.mark.parametrize("variant", ["strict", "repair", "default"])
def test_fast_score_equals_pyo3_path(variant: str) -> None:
    """Positional (Situation, Variant) takes the fast entry; the keyword forms take the PyO3 wrapper."""
    v = hupai.Variant("mcr") if variant == "default" else hupai.Variant("mcr", flag_policy=variant)
    sits = _cases()
    assert len(sits) > 50
    errors = 0
    for s in sits:
        fast = _outcome(hupai.score, s, v)
        assert _outcome(hupai.score, s, variant=v) == fast
        assert _outcome(hupai.score, s, v, options={}) == fast
        errors += isinstance(fast, tuple)
    if variant == "strict":
        assert errors > 0  # the refused situations go through the fallback and raise the same error


def test_fast_score_default_variant() -> None:
    for s in _cases(60):
        want = _outcome(hupai.score, s, variant="mcr")
        assert _outcome(hupai.score, s) == want
        assert _outcome(hupai.score, s, None) == want
        assert _outcome(hupai.score, s, variant=None) == want


def test_other_call_shapes_still_work_and_fail_alike() -> None:
    s = hupai.Situation.parse(E1, self_drawn=True)
    want = hupai.score(s, "mcr").to_dict()
    assert hupai.score(E1, "mcr", self_drawn=True).to_dict() == want
    assert hupai.score(s.to_dict(), hupai.Variant("mcr")).to_dict() == want
    with pytest.raises(TypeError):
        hupai.score()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        hupai.score(s, hupai.Variant("mcr"), 3)  # type: ignore[misc, arg-type]
    with pytest.raises(TypeError, match="keyword flags"):
        hupai.score(s, hupai.Variant("mcr"), self_drawn=True)
    with pytest.raises(TypeError):
        hupai.score(s, 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hupai.score(5, hupai.Variant("mcr"))  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [1, 255, 256, 257, 700])
def test_batch_one_thread_equals_loop(n: int) -> None:
    """On one thread the batch is scored a chunk at a time; results and error slots in order, across
    chunk boundaries, for lists and generators."""
    v = hupai.Variant("mcr", flag_policy="strict")
    sits = _cases()
    items: list[Any] = [sits[i % len(sits)] for i in range(n)]
    if n > 3:
        items[n // 2] = {"hand": "not a hand"}
        items[-1] = "{not json"
    want = [_outcome(hupai.score, x, v) if isinstance(x, hupai.Situation) else None for x in items]
    for got in (
        hupai.batch.score(items, v, threads=1),
        hupai.batch.score(iter(items), v, threads=1),
        list(hupai.batch.iter_score(items, v, threads=1, chunk=100)),
    ):
        assert len(got) == n
        for g, w in zip(got, want, strict=True):
            if isinstance(g, dict):
                assert "error" in g and "message" in g
                assert w is None or isinstance(w, tuple) and g["error"] == w[0] and g["message"] == w[1]
            else:
                assert g.to_dict() == w
    assert [_plain(x) for x in hupai.batch.score(items, v, threads=2)] == [
        _plain(x) for x in hupai.batch.score(items, v, threads=1)
    ]


def _plain(x: Any) -> Any:
    return x if isinstance(x, dict) else x.to_dict()


def test_batch_one_thread_propagates_iterator_errors() -> None:
    sits = _cases(20)

    def gen() -> Any:
        yield from sits
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        hupai.batch.score(gen(), "mcr", threads=1)
