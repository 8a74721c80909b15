"""The hupai exception hierarchy. Every error is a ``HupaiError``, which is a ``ValueError``."""

from hupai._core import (
    HupaiError,
    IllegalActionError,
    InvalidHandError,
    InvalidTileError,
    ReplayError,
    RuleConfigError,
    SettlementError,
)

__all__ = [
    "HupaiError",
    "IllegalActionError",
    "ReplayError",
    "InvalidHandError",
    "InvalidTileError",
    "RuleConfigError",
    "SettlementError",
]
