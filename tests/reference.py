"""Slow, obviously-correct pure-Python reference for hand analysis (used by the hypothesis tests).

Hands are 34-count lists (index 0..8 = 1m..9m, 9..17 = 1p..9p, 18..26 = 1s..9s, 27..33 = E S W N C F P).
Nothing here is optimised: every check enumerates groups directly from the definitions of
common.md §3 and tries every wildcard substitution explicitly (a substitute may be a fifth copy).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement

ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
HONORS = list(range(27, 34))
KNITTED_PERMS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
ALL_SHAPES = frozenset(
    {"standard", "seven_pairs", "seven_pairs_quads", "thirteen_orphans", "honors_knitted", "knitted_straight"}
)


def knitted_tiles(perm: tuple[int, int, int]) -> list[int]:
    return [suit * 9 + off + 3 * step for suit, off in enumerate(perm) for step in range(3)]


def sets_only(c: list[int]) -> bool:
    """Can `c` be split into sets (pungs and chows) with nothing left over? Tries every group."""
    if not any(c):
        return True
    i = next(k for k, x in enumerate(c) if x)
    if c[i] >= 3:
        c[i] -= 3
        ok = sets_only(c)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        ok = sets_only(c)
        for k in (i, i + 1, i + 2):
            c[k] += 1
        if ok:
            return True
    return False


def standard_exact(c: list[int]) -> bool:
    """Sets plus exactly one pair, every tile used."""
    if sum(c) % 3 != 2:
        return False
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = sets_only(c)
            c[p] += 2
            if ok:
                return True
    return False


def seven_pairs_exact(c: list[int], quads: bool) -> bool:
    if sum(c) != 14:
        return False
    pairs = 0
    for x in c:
        if x % 2:
            return False
        if x == 4 and not quads:
            return False
        pairs += x // 2
    return pairs == 7


def thirteen_orphans_exact(c: list[int]) -> bool:
    return (
        sum(c) == 14
        and all(c[k] >= 1 for k in ORPHANS)
        and all(c[k] == 0 for k in range(34) if k not in ORPHANS)
        and sorted(c[k] for k in ORPHANS)[-1] == 2
    )


def honors_knitted_exact(c: list[int]) -> bool:
    if sum(c) != 14 or any(x > 1 for x in c):
        return False
    return any(all(c[i] == 0 or i in knitted_tiles(p) for i in range(27)) for p in KNITTED_PERMS)


def knitted_straight_exact(c: list[int]) -> bool:
    for p in KNITTED_PERMS:
        ks = knitted_tiles(p)
        if all(c[i] >= 1 for i in ks):
            rest = list(c)
            for i in ks:
                rest[i] -= 1
            if standard_exact(rest):
                return True
    return False


def exact(c: list[int], melds: int, shapes: frozenset[str] = ALL_SHAPES) -> bool:
    """Win check without wildcards; `melds` = declared (or implied) sets."""
    full = melds == 0 and sum(c) == 14
    if "standard" in shapes and standard_exact(list(c)):
        return True
    if full and "seven_pairs" in shapes and seven_pairs_exact(c, "seven_pairs_quads" in shapes):
        return True
    if full and "thirteen_orphans" in shapes and thirteen_orphans_exact(c):
        return True
    if full and "honors_knitted" in shapes and honors_knitted_exact(c):
        return True
    return melds <= 1 and "knitted_straight" in shapes and knitted_straight_exact(list(c))


def implied_melds(c: list[int], wildcards: int = 0) -> int:
    n = sum(c) + wildcards
    assert n % 3 in (1, 2)
    return 4 - (n - 2) // 3 if n % 3 == 2 else 4 - (n - 1) // 3


def substitutions(wildcards: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of `wildcards` tile kinds (what the wildcards become)."""
    return combinations_with_replacement(range(34), wildcards)


def is_winning(c: list[int], wildcards: int = 0, shapes: frozenset[str] = ALL_SHAPES) -> bool:
    n = sum(c) + wildcards
    if n % 3 != 2:
        return False
    melds = implied_melds(c, wildcards)
    for sub in substitutions(wildcards):
        x = list(c)
        for k in sub:
            x[k] += 1
        if exact(x, melds, shapes):
            return True
    return False


def waits(c: list[int], shapes: frozenset[str] = ALL_SHAPES) -> list[int]:
    """Kinds that complete a wildcard-free 3n+1 hand (fifth copies excluded)."""
    out = []
    for k in range(34):
        if c[k] >= 4:
            continue
        x = list(c)
        x[k] += 1
        if is_winning(x, 0, shapes):
            out.append(k)
    return out


def classic_standard_shanten(c: list[int], sets_needed: int) -> int:
    """Standard-shape shanten by enumerating every split into sets, partial sets (pair, two-sided,
    closed) and a head: 2·sets_needed − 2·sets − partials − head with sets + partials ≤ needed."""
    best = [99]
    c = list(c)

    def rec(i: int, sets: int, partials: int, head: bool) -> None:
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            p = min(partials, sets_needed - sets)
            best[0] = min(best[0], 2 * (sets_needed - sets) - p - int(head))
            return
        suited, r = i < 27, i % 9
        if c[i] >= 3:
            c[i] -= 3
            rec(i, sets + 1, partials, head)
            c[i] += 3
        if suited and r <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            rec(i, sets + 1, partials, head)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if not head:
                rec(i, sets, partials, True)
            rec(i, sets, partials + 1, head)
            c[i] += 2
        for gap in (1, 2):
            if suited and r + gap <= 8 and c[i + gap]:
                c[i] -= 1
                c[i + gap] -= 1
                rec(i, sets, partials + 1, head)
                c[i] += 1
                c[i + gap] += 1
        c[i] -= 1
        rec(i, sets, partials, head)
        c[i] += 1

    rec(0, 0, 0, False)
    return best[0]


def seven_pairs_shanten(c: list[int]) -> int:
    """Seven distinct pairs: 6 − pairs + max(0, 7 − kinds)."""
    pairs = sum(1 for x in c if x >= 2)
    kinds = sum(1 for x in c if x >= 1)
    return 6 - min(pairs, 7) + max(0, 7 - kinds)


def thirteen_orphans_shanten(c: list[int]) -> int:
    kinds = sum(1 for k in ORPHANS if c[k])
    pair = any(c[k] >= 2 for k in ORPHANS)
    return 13 - kinds - int(pair)


def shanten(c: list[int], melds: int, seven_pairs: bool = True, thirteen_orphans: bool = True) -> int:
    """Standard (+ distinct-kind seven pairs, thirteen orphans) shanten of a 3n+1 / 3n+2 hand."""
    s = classic_standard_shanten(c, 4 - melds)
    full = melds == 0 and sum(c) in (13, 14)
    if full and seven_pairs:
        s = min(s, seven_pairs_shanten(c))
    if full and thirteen_orphans:
        s = min(s, thirteen_orphans_shanten(c))
    return s


def reassemble(d: dict[str, object]) -> list[int]:
    """Standing tile counts (substitutes included) described by a decomposition dict of
    ``hupai.decompose`` (forms other than honors_knitted)."""
    names = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]
    names += [n.replace("m", "p") for n in names[:9]] + [n.replace("m", "s") for n in names[:9]]
    names += list("ESWNCFP")
    index = {n: i for i, n in enumerate(names)}
    c = [0] * 34
    sets = d["sets"]
    assert isinstance(sets, list)
    for s in sets:
        if not s["declared"]:
            for t in s["tiles"]:
                c[index[t]] += 1
    form = d["form"]
    pair = d["pair"]
    if form == "thirteen_orphans":
        for k in ORPHANS:
            c[k] += 1
        assert isinstance(pair, str)
        c[index[pair]] += 1
    elif pair is not None:
        assert isinstance(pair, str)
        c[index[pair]] += 2
    pairs = d["pairs"]
    assert isinstance(pairs, list)
    for p in pairs:
        c[index[p]] += 2
    if form == "knitted_straight":
        knitted = d["knitted"]
        assert isinstance(knitted, tuple)
        offsets = {"147": 0, "258": 1, "369": 2}
        for i in knitted_tiles(tuple(offsets[k] for k in knitted)):  # type: ignore[arg-type]
            c[i] += 1
    return c
