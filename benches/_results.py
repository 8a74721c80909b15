"""Write one named section of ``benches/RESULTS.md`` (between BEGIN/END markers), keeping the rest."""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path

RESULTS = Path(__file__).with_name("RESULTS.md")
HEADER = (
    "# Benchmark results\n\n"
    "Each section is written by the script named in it, which times hupai and the installed peers on the\n"
    "same inputs in one run. Re-run the command shown to reproduce a section; release builds only.\n"
)


def machine() -> str:
    """One line describing the machine the numbers come from."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False)
        commit = rev.stdout.strip() or "?"
    except OSError:
        commit = "?"
    return f"{cpu}, {os.cpu_count()} logical cores, Python {platform.python_version()}, hupai commit {commit}"


def write_section(name: str, body: str) -> None:
    """Replace (or append) the section ``name`` of RESULTS.md with ``body``."""
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else HEADER
    block = f"{begin}\n{body.rstrip()}\n{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + block + tail
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    RESULTS.write_text(text, encoding="utf-8")
