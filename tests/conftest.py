"""Shared fixtures: the location of the shared rules/cases directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def shared_dir() -> Path:
    """``$HUPAI_SHARED``, else ``shared/`` beside the clone (CI) or any parent's ``shared/``."""
    env = os.environ.get("HUPAI_SHARED")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent
    for base in [here, *here.parents]:
        cand = base / "shared"
        if (cand / "cases").is_dir():
            return cand
        cand = base.parent / "shared"
        if (cand / "cases").is_dir():
            return cand
    return here.parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    d = shared_dir()
    if not (d / "cases").is_dir():
        pytest.fail(f"shared directory not found at {d}; set HUPAI_SHARED to the shared/ checkout")
    return d
