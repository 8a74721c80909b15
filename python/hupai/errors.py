"""The hupai exception hierarchy. Every error is a ``HupaiError``, which is a ``ValueError``."""

from hupai._core import (
    HupaiError,
    InvalidHandError,
    InvalidTileError,
    RuleConfigError,
    SettlementError,
)

__all__ = [
    "HupaiError",
    "InvalidHandError",
    "InvalidTileError",
    "RuleConfigError",
    "SettlementError",
]
