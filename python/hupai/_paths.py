"""Output files named on the command line or passed to ``simulate``: the format from the
extension, and every check that can be made before any work starts."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from hupai.errors import RuleConfigError

__all__ = ["OUTPUT_FORMATS", "output_format"]

#: Extensions of the record files and their format.
OUTPUT_FORMATS = {".parquet": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def output_format(path: str | os.PathLike[str], option: str = "out") -> str:
    """The format (``"parquet"`` or ``"jsonl"``) of the output file ``path``, from its extension;
    raises ``RuleConfigError`` (one line naming ``option``) for an unknown extension, Parquet
    without pyarrow, a directory that does not exist, a path that is a directory, or a place that
    cannot be written — before anything is computed."""
    p = Path(path)
    fmt = OUTPUT_FORMATS.get(p.suffix.lower())
    if fmt is None:
        got = repr(p.suffix) if p.suffix else "no extension"
        raise RuleConfigError(f"{option} {path}: unknown format ({got}); name a .parquet or .jsonl file")
    if fmt == "parquet" and importlib.util.find_spec("pyarrow") is None:
        raise RuleConfigError(f"{option} {path}: Parquet needs pyarrow: pip install 'hupai[sim]' (or write .jsonl)")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise RuleConfigError(f"{option} {path}: the directory {parent} does not exist")
    if p.is_dir():
        raise RuleConfigError(f"{option} {path}: is a directory; name a file in it")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise RuleConfigError(f"{option} {path}: cannot be written here (permission denied)")
    return fmt
