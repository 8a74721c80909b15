"""Hostile-input fuzzing of every public callable of ``hupai`` (issue 14).

The callables are enumerated from the package itself (``__all__`` of ``hupai`` and of every
``hupai`` module it exports, plus ``hupai.compat.MahjongGB``; classes count as their constructor
and their public static/class methods; methods of a sample instance of each class that has one), so
a new public callable is fuzzed without touching this file. Each call gets arguments built from a
seeded ``random.Random``: plausible values (tiles, hands, case dicts, card strings, preset ids,
small ints) mixed with hostile ones (lone surrogates, NaN, 2**64, -1, deep and cyclic data, objects
claiming a huge ``len()``, unknown keys, wrong types, numpy arrays of the wrong dtype).

The contract: every call returns, or raises ``hupai.HupaiError`` (a ``ValueError``) or
``TypeError``. Anything else — another exception, a crash, a call running past the time limit — is
a finding. ``tests/test_fuzz_public.py`` runs this under hypothesis in CI with a fixed budget; the
long run is ``python -m tests.fuzz_public --inputs 1000000`` (``docs/robustness.md``).
"""

from __future__ import annotations

import argparse
import inspect
import math
import os
import random
import signal
import sys
import tempfile
import time
import types
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

import hupai
import hupai.compat.MahjongGB as mahjonggb

ALLOWED = (hupai.HupaiError, TypeError)

#: Callables not fuzzed, each with the reason. Everything else public is.
SKIP: dict[str, str] = {
    # time grows with an argument by design (games played, rounds): covered with small values in
    # their own test files; their argument checks (workers, n_games, chunk) are in test_fuzz_public
    "hupai.game.simulate": "plays n_games games",
    "hupai.simulate": "plays n_games games",
    "hupai.doudizhu.simulate": "plays n games",
    "hupai.gouji.simulate": "plays n games",
    "hupai.dingniu.simulate": "plays n rounds",
    "hupai.dingniu.play_match": "plays n rounds",
    "hupai.game.Match": "plays a match of n hands",
    "hupai.Match": "plays a match of n hands",
    "hupai.gouji.Match": "plays a match of n hands",
    "hupai.game.SimResult": "a result record (dataclass), not an entry point",
    "hupai.game.write_jsonl": "writes the file it is given (its path type is checked in test_fuzz_public)",
    "hupai.game.Observation": "a result record (dataclass), not an entry point",
}

# ---------------------------------------------------------------------------------------------
# the callables


@dataclass(frozen=True)
class Target:
    name: str
    fn: Callable[..., Any]
    params: tuple[inspect.Parameter, ...] | None  # None: signature unknown


def _params(fn: Any) -> tuple[inspect.Parameter, ...] | None:
    try:
        return tuple(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None


def _modules() -> list[types.ModuleType]:
    seen: dict[str, types.ModuleType] = {"hupai": hupai}
    todo = [hupai]
    while todo:
        mod = todo.pop()
        for name in getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]:
            obj = getattr(mod, name, None)
            if isinstance(obj, types.ModuleType) and obj.__name__.startswith("hupai") and obj.__name__ not in seen:
                seen[obj.__name__] = obj
                todo.append(obj)
    seen[mahjonggb.__name__] = mahjonggb
    return [seen[k] for k in sorted(seen)]


def _samples() -> dict[type, Callable[[], Any]]:
    """A valid instance of the classes whose methods are fuzzed too."""
    out: dict[type, Callable[[], Any]] = {
        hupai.Variant: lambda: hupai.Variant("sichuan"),
        hupai.Hand: lambda: hupai.Hand("[EEE,1]123m456p78s99s+9s"),
        hupai.Settlement: lambda: hupai.Settlement(variant="sichuan"),
        hupai.Situation: lambda: hupai.Situation.parse("[EEE,1]123m456p78s99s+9s"),
        hupai.Shapes: lambda: hupai.Shapes.STANDARD,
        hupai.Tile: lambda: hupai.Tile("5m"),
        hupai.Meld: lambda: hupai.Meld("EEE", from_seat=1),
        hupai.Score: lambda: hupai.score("[EEE,1]123m456p78s99s+9s"),
        hupai.game.Table: lambda: hupai.game.Table("mcr", seed=1),
    }
    for mod, name in ((hupai.doudizhu, "Game"), (hupai.gouji, "Game"), (hupai.dingniu, "Game")):
        cls = getattr(mod, name, None)
        if isinstance(cls, type):
            out[cls] = lambda cls=cls: cls()
    return out


def targets() -> list[Target]:
    """Every public callable, once (by identity), in a stable order."""
    out: list[Target] = []
    seen: set[int] = set()
    done: set[tuple[str, int]] = set()
    samples = _samples()

    def add(name: str, fn: Any) -> None:
        if id(fn) in seen or name in SKIP:
            return
        seen.add(id(fn))
        out.append(Target(name, fn, _params(fn)))

    for mod in _modules():
        for name in getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]:
            obj = getattr(mod, name, None)
            if obj is None or isinstance(obj, types.ModuleType) or not callable(obj):
                continue
            full = f"{mod.__name__}.{name}"
            if full in SKIP or isinstance(obj, types.GenericAlias):
                continue
            if isinstance(obj, type) and issubclass(obj, BaseException):
                continue  # exception classes take any message
            add(full, obj)
            if isinstance(obj, type):
                for attr, raw in sorted(vars(obj).items()):
                    if attr.startswith("_"):
                        continue
                    if isinstance(raw, (staticmethod, classmethod)) or type(raw).__name__ in (
                        "builtin_function_or_method",
                        "classmethod_descriptor",
                    ):
                        add(f"{full}.{attr}", getattr(obj, attr))
                make = samples.get(obj)
                if make is not None and ("instance", id(obj)) not in done:
                    done.add(("instance", id(obj)))
                    for attr in sorted(dir(obj)):
                        if attr.startswith("_"):
                            continue
                        raw = inspect.getattr_static(obj, attr)
                        if isinstance(raw, (staticmethod, classmethod, property)):
                            continue
                        if callable(raw) and not isinstance(raw, type):
                            out.append(Target(f"{full}().{attr}", _bound(make, attr), _params(raw)))
    return out


def _bound(make: Callable[[], Any], attr: str) -> Callable[..., Any]:
    """Call ``attr`` on a fresh sample instance (so a mutating call cannot poison the next)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(make(), attr)(*args, **kwargs)

    return call


# ---------------------------------------------------------------------------------------------
# the values

TILE_TEXT = [
    "123m456p789sEEEC", "[EEE,1]123m456p78s99s+9s", "1112345678999m", "5m", "E", "f1", "红中", "55p",
    "46s123p789pCCCFF+5s", "[5555s][888s,1]2223339s+9s", "147m258p369sESWN", "1m" * 5, "0m", "10m", "",
]
CARD_TEXT = ["33344", "3", "A", "2", "XD", "10JQKA", "pass", "x1x2x3", "bbb", "1122", "66", "JJJ", "rr"]
WORDS = [
    "mcr", "sichuan", "wuhan", "kawuxing", "shanghai", "hebei", "zipai_guilin", "doudizhu_qq", "gouji",
    "dingniu", "greedy", "random", "discard", "self_draw", "kong_replacement", "all", "standard", "hupai",
    "A", "B", "C", "D", "E", "S", "win", "left", "right", "CHI", "PENG", "GANG", "W1", "B1", "J3", "x",
]
HOSTILE_TEXT = ["1m\ud800", "\ud800", "\udfff" * 3, "\x00", "E" * 5000, "🀄", "{", "[", "null", "   ", "\n"]
HOSTILE_INT = [-1, -(2**63) - 1, 2**31, 2**63, 2**64, 10**30, -(10**30)]
HOSTILE_FLOAT = [math.nan, math.inf, -math.inf, 0.5, -0.0, 1e308]


class HugeLen:
    """A sequence that reports a huge ``len()`` (and is empty when iterated)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[int]:
        return iter(())

    def __getitem__(self, i: int) -> int:
        raise IndexError(i)


def _deep(r: random.Random) -> Any:
    d: Any = r.choice([[], {}, "5m"])
    for _ in range(r.choice([40, 200, 5000])):
        d = [d] if r.random() < 0.5 else {"hand": d}
    return d


def _cyclic(r: random.Random) -> Any:
    if r.random() < 0.5:
        x: dict[str, Any] = {}
        x[r.choice(["hand", "situation", "melds", "a"])] = x
        return x
    y: list[Any] = []
    y.append(y)
    return {"hand": y}


def case_dict(r: random.Random) -> dict[str, Any]:
    hand: Any = r.choice(
        [
            "[EEE,1]123m456p78s99s+9s",
            {"concealed": "123m456p78s99s", "melds": [{"type": "pung", "tile": "E", "offer": 1}], "win_tile": "9s"},
            {"concealed": ["1m"] * r.randint(0, 20), "win_tile": value(r, 1)},
        ]
    )
    case: dict[str, Any] = {"hand": hand}
    if r.random() < 0.7:
        case["situation"] = {r.choice(["self_drawn", "seat_wind", "flowers", "win_type", "dealer", "bogus"]): value(r, 1)}
    if r.random() < 0.2:
        case[r.choice(["variant", "options", "id", "extra"])] = value(r, 1)
    return case


def value(r: random.Random, depth: int = 0) -> Any:
    """One argument value: plausible or hostile."""
    k = r.randrange(22)
    if k == 0:
        return r.choice(TILE_TEXT)
    if k == 1:
        return r.choice(CARD_TEXT)
    if k == 2:
        return r.choice(WORDS)
    if k == 3:
        return r.choice(HOSTILE_TEXT)
    if k == 4:
        return r.randint(-2, 40)
    if k == 5:
        return r.choice(HOSTILE_INT)
    if k == 6:
        return r.choice(HOSTILE_FLOAT)
    if k == 7:
        return r.choice([True, False, None])
    if k == 8:
        return case_dict(r)
    if k == 9:
        return [r.randint(0, 4) for _ in range(r.choice([0, 3, 34, 35]))]
    if k == 10:
        return r.choice([range(10**12), range(2**62), HugeLen(10**12), HugeLen(2**40)])
    if k == 11:
        return _deep(r)
    if k == 12:
        return _cyclic(r)
    if k == 13:
        return tuple(r.choice(["W1", "B5", "T9", "F1", "J3", "X0"]) for _ in range(r.choice([0, 13, 14, 200])))
    if k == 14:
        return np.zeros((r.choice([0, 1, 2]), r.choice([34, 33, 54])), dtype=r.choice([np.uint8, np.int64, np.float32]))
    if k == 15:
        return object()
    if k == 16:
        key: Any = r.choice([*WORDS, 1, None, (1, 2), "\ud800"]) if r.random() < 0.3 else r.choice(WORDS)
        return {key: value(r, depth + 1) if depth < 2 else 1}
    if k == 17:
        return [value(r, depth + 1) for _ in range(r.randint(0, 4))] if depth < 2 else []
    if k == 18:
        return b"123m"
    if k == 19:
        return hupai.Tile("5m") if r.random() < 0.5 else hupai.Meld("EEE", from_seat=1)
    if k == 20:
        return {r.choice(["A", "B", "C", "D"]): {r.choice(["huazhu", "da_jiao", "dajiao"]): value(r, 2)}}
    return r.choice([hupai.Variant("mcr"), hupai.Variant("sichuan"), "x" * 100])


def args_for(t: Target, r: random.Random) -> tuple[list[Any], dict[str, Any]]:
    """Positional and keyword arguments for one call of ``t``."""
    if t.params is None:
        return [value(r) for _ in range(r.randint(0, 4))], {}
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for p in t.params:
        if p.name in ("self", "cls"):
            continue
        if p.kind is p.VAR_POSITIONAL:
            args.extend(value(r) for _ in range(r.randint(0, 2)))
        elif p.kind is p.VAR_KEYWORD:
            for _ in range(r.randint(0, 2)):
                kwargs[r.choice(["self_drawn", "seat_wind", "flowers", "win_type", "min_fan", "nope", "\ud800"])] = value(r)
        elif p.default is p.empty or r.random() < 0.3:
            if p.kind is p.KEYWORD_ONLY or (p.kind is p.POSITIONAL_OR_KEYWORD and r.random() < 0.2):
                kwargs[p.name] = value(r)
            elif p.kind is not p.KEYWORD_ONLY:
                if len(kwargs) == 0:
                    args.append(value(r))
                else:
                    kwargs[p.name] = value(r)
    if r.random() < 0.05:
        args.append(value(r))  # one too many
    if r.random() < 0.05:
        kwargs["unknown_keyword"] = 1
    return args, kwargs


# ---------------------------------------------------------------------------------------------
# running


class CallTimeout(Exception):
    """A call ran past the time limit (reported as a hang)."""


def _alarm(signum: int, frame: Any) -> None:
    raise CallTimeout


@dataclass
class Finding:
    target: str
    seed: int
    error: str

    def __str__(self) -> str:
        return f"{self.target} (seed {self.seed}): {self.error}"


def call_once(t: Target, seed: int, timeout: float = 10.0) -> Finding | None:
    """Call ``t`` with the arguments of ``seed``; a finding unless it returns or raises HupaiError /
    TypeError within ``timeout`` seconds."""
    r = random.Random(f"{t.name}:{seed}")
    args, kwargs = args_for(t, r)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        t.fn(*args, **kwargs)
    except ALLOWED:
        return None
    except CallTimeout:
        return Finding(t.name, seed, f"no answer within {timeout} s")
    except RecursionError as e:
        return Finding(t.name, seed, f"RecursionError: {e}")
    except Exception as e:  # noqa: BLE001 - any other exception is the finding
        return Finding(t.name, seed, f"{type(e).__name__}: {str(e)[:300]}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return None


def run(n_inputs: int, seed: int = 0, timeout: float = 10.0, progress: bool = False) -> tuple[int, list[Finding], Counter[str]]:
    """``n_inputs`` calls spread round-robin over every target; returns (calls, findings, calls per
    target)."""
    ts = targets()
    findings: list[Finding] = []
    per: Counter[str] = Counter()
    start = time.monotonic()
    for i in range(n_inputs):
        t = ts[i % len(ts)]
        s = seed * 10**9 + i // len(ts)
        f = call_once(t, s, timeout)
        per[t.name] += 1
        if f is not None:
            findings.append(f)
        if progress and (i + 1) % 50_000 == 0:
            print(f"{i + 1} inputs, {len(findings)} findings, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return n_inputs, findings, per


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Fuzz every public hupai callable with hostile input.")
    ap.add_argument("--inputs", type=int, default=10_000, help="number of calls in total (round-robin over the callables)")
    ap.add_argument("--seed", type=int, default=0, help="master seed (the same seed gives the same inputs)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds one call may take before it counts as a hang")
    ap.add_argument("--list", action="store_true", help="list the fuzzed callables and exit")
    a = ap.parse_args(argv)
    if a.list:
        for t in targets():
            print(t.name)
        return 0
    # callables that write the file they are given write it in a scratch directory
    os.chdir(tempfile.mkdtemp(prefix="hupai-fuzz-"))
    start = time.monotonic()
    n, findings, per = run(a.inputs, a.seed, a.timeout, progress=True)
    took = time.monotonic() - start
    print(f"{n} inputs over {len(per)} callables in {took:.0f} s ({n / took:.0f}/s): {len(findings)} findings")
    by: Counter[str] = Counter(f.target + ": " + f.error.split(":")[0] for f in findings)
    for k, c in by.most_common(40):
        print(f"  {c:6d}  {k}")
    for f in findings[:20]:
        print(f"  e.g. {f}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
