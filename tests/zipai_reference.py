"""Slow, exhaustive pure-Python reference for 字牌 decomposition (tests only).

Independent of the Rust search: it follows zipai.md §4/§11 literally and enumerates EVERY split of
the free cards (no memo, no pruning), returning the 胡息 of each complete split. Group values come
from the preset data (``Variant.describe()["params"]["huxi"]``), not from the engine's code.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import hupai
from hupai import zipai


def idx(card: Any) -> int:
    return zipai.Card(card).index if not isinstance(card, int) else card


def size(i: int) -> int:
    return 1 if i >= 10 else 0


def rank(i: int) -> int:
    return i % 10 + 1


class Rules:
    def __init__(self, variant: hupai.Variant) -> None:
        d = variant.describe()
        self.huxi: dict[str, list[int]] = d["params"]["huxi"]
        o = variant.options
        self.pair_needs_four = o["pair_rule"] == "with_four"
        self.guo_peng_zero = bool(o["guo_peng_triplet_zero"])
        self.kaiduo_on_discard = bool(o["kaiduo_on_discard"])
        self.min_huxi = int(o["min_huxi"])

    def v(self, kind: str, big: int) -> int:
        return int(self.huxi[kind][big])


def chi_kind(cards: Sequence[int]) -> tuple[str, int]:
    c = sorted(cards)
    sizes = {size(x) for x in c}
    if len(sizes) == 1:
        r = [rank(x) for x in c]
        if r == [1, 2, 3]:
            return "yiersan", size(c[0])
        if r == [2, 7, 10]:
            return "erqishi", size(c[0])
        if r[1] == r[0] + 1 and r[2] == r[1] + 1:
            return "shunzi", size(c[0])
        raise ValueError(c)
    if len({rank(x) for x in c}) == 1:
        bigs = sum(size(x) for x in c)
        return "jiao", 1 if bigs >= 2 else 0
    raise ValueError(c)


MELD_KIND = {
    "peng": "peng",
    "wei": "sao",
    "sao": "sao",
    "chouwei": "guosao",
    "guosao": "guosao",
    "pao": "kaiduo",
    "kaiduo": "kaiduo",
    "ti": "saochuan",
    "saochuan": "saochuan",
    "kan": "kan",
}
FOURS = {"kaiduo", "saochuan"}


def free_groups(i: int, c: list[int]) -> Iterator[tuple[str, list[int], int]]:
    """Every 吃-type group holding card i (as its lowest card), from counts c."""
    r = rank(i)
    if r <= 8 and c[i + 1] and c[i + 2]:
        yield ("yiersan" if r == 1 else "shunzi"), [i, i + 1, i + 2], size(i)
    if r == 2 and c[i + 5] and c[i + 8]:
        yield "erqishi", [i, i + 5, i + 8], size(i)
    if i < 10:
        if c[i] >= 2 and c[i + 10] >= 1:
            yield "jiao", [i, i, i + 10], 0
        if c[i] >= 1 and c[i + 10] >= 2:
            yield "jiao", [i, i + 10, i + 10], 1


def all_splits(rules: Rules, c: list[int], need_pair: bool, win: int | None, tri_kind: str) -> Iterator[int]:
    """胡息 of every split of counts ``c`` (every partition once: the lowest card's group first)."""
    nz = [k for k in range(20) if c[k]]
    if not nz:
        if not need_pair:
            yield 0
        return
    i = nz[0]
    options: list[tuple[str, list[int], int]] = []
    if need_pair and c[i] >= 2:
        options.append(("pair", [i, i], size(i)))
    if win == i and c[i] >= 3:
        options.append((tri_kind, [i, i, i], size(i)))
    options.extend(free_groups(i, c))
    for kind, cards, big in options:
        for x in cards:
            c[x] -= 1
        np_ = need_pair and kind != "pair"
        for rest in all_splits(rules, c, np_, win, tri_kind):
            yield rest + rules.v(kind, big)
        for x in cards:
            c[x] += 1


def shapes_with(i: int) -> Iterator[tuple[str, list[int], int]]:
    """Every 3-card group shape holding kind ``i`` (any position), as (kind, kinds, value size);
    the triplet [i, i, i] is yielded with kind "triplet" (valued by the caller)."""
    s, r = size(i), rank(i)
    base = 10 * s
    for a in range(max(1, r - 2), min(8, r) + 1):
        ks = [base + a - 1, base + a, base + a + 1]
        yield ("yiersan" if a == 1 else "shunzi"), ks, s
    if r in (2, 7, 10):
        yield "erqishi", [base + 1, base + 6, base + 9], s
    sm, bg = r - 1, r - 1 + 10
    yield "jiao", [sm, sm, bg], 0
    yield "jiao", [sm, bg, bg], 1
    yield "triplet", [i, i, i], s


def all_splits_jokers(
    rules: Rules, c: list[int], need_pair: bool, win: int | None, tri_kind: str, jokers: int
) -> Iterator[int]:
    """Like :func:`all_splits` with ``jokers`` wildcards: each group holding the lowest real card
    takes any of its other cards either from the hand or as a joker; groups of jokers alone come
    last (a pair of jokers, or three jokers as any 3-card group)."""
    nz = [k for k in range(20) if c[k]]
    if not nz:
        if jokers == 0 and not need_pair:
            yield 0
        elif jokers == 2 and need_pair:
            yield rules.v("pair", 0)
        elif jokers == 3 and not need_pair:
            for kind in ("kan", "yiersan", "erqishi", "shunzi", "jiao"):
                for big in (0, 1):
                    yield rules.v(kind, big)
        return
    i = nz[0]
    options: list[tuple[str, list[int], int]] = []
    if need_pair:
        options.append(("pair", [i, i], size(i)))
    for kind, ks, big in shapes_with(i):
        if kind == "triplet":
            kind = tri_kind if win == i else "kan"
        options.append((kind, ks, big))
    seen: set[tuple[str, int, tuple[int, ...], int]] = set()
    for kind, ks, big in options:
        rest = list(ks)
        rest.remove(i)
        # every way to take the other cards from the hand (r) or as jokers (j)
        for mask in range(1 << len(rest)):
            use_real = [k for b, k in enumerate(rest) if not mask >> b & 1]
            n_j = len(rest) - len(use_real)
            if n_j > jokers:
                continue
            c[i] -= 1
            ok = True
            taken: list[int] = []
            for k in use_real:
                if c[k] <= 0:
                    ok = False
                    break
                c[k] -= 1
                taken.append(k)
            key = (kind, big, tuple(sorted(taken)), n_j)
            if ok and key not in seen:
                seen.add(key)
                np_ = need_pair and kind != "pair"
                for r in all_splits_jokers(rules, c, np_, win, tri_kind, jokers - n_j):
                    yield r + rules.v(kind, big)
            for k in taken:
                c[k] += 1
            c[i] += 1


def reference_splits(
    rules: Rules,
    concealed: Sequence[Any],
    win_card: Any | None,
    melds: Sequence[tuple[str, Sequence[Any]]],
    win_type: str,
    passed_peng: Sequence[Any] = (),
    jokers: int = 0,
) -> list[int]:
    """胡息 of every complete decomposition (every upgrade reading, every split); ``jokers`` wildcards
    among the concealed cards (a joker stands for any card of a free group)."""
    counts = [0] * 20
    for x in concealed:
        counts[idx(x)] += 1
    win = None if win_card is None else idx(win_card)
    if win_type == "tianhu" and win is not None:
        counts[win] += 1
        win = None
    fixed: list[tuple[str, int]] = []  # (kind, card) for triplets/fours
    fixed_huxi = 0
    for t, cards in melds:
        ci = [idx(x) for x in cards]
        if t in ("chi", "bi"):
            k, b = chi_kind(ci)
            fixed_huxi += rules.v(k, b)
        else:
            k = MELD_KIND[t]
            fixed.append((k, ci[0]))
    for kk in range(20):
        if counts[kk] == 4:
            fixed.append(("saochuan", kk))
            counts[kk] = 0
        elif counts[kk] == 3:
            fixed.append(("kan", kk))
            counts[kk] = 0
    passed = {idx(x) for x in passed_peng}
    branches: list[tuple[list[tuple[str, int]], list[int], int | None]] = []
    if win is None:
        branches.append((fixed, counts, None))
    else:
        triple_pos = next((n for n, (k, cd) in enumerate(fixed) if cd == win and k in ("kan", "sao", "guosao")), None)
        peng_pos = next((n for n, (k, cd) in enumerate(fixed) if cd == win and k == "peng"), None)
        if win_type == "self_draw":
            if triple_pos is not None:
                f = list(fixed)
                f[triple_pos] = ("saochuan", win)
                branches.append((f, counts, None))
            elif peng_pos is not None:  # 胡牌时可以不开舵: with or without the 开舵
                f = list(fixed)
                f[peng_pos] = ("kaiduo", win)
                branches.append((f, counts, None))
                c2 = list(counts)
                c2[win] += 1
                branches.append((fixed, c2, None))
            elif counts[win] == 2:
                c2 = list(counts)
                c2[win] = 0
                branches.append((fixed + [("guosao" if win in passed else "sao", win)], c2, None))
            else:
                c2 = list(counts)
                c2[win] += 1
                branches.append((fixed, c2, None))
        else:
            other_draw = win_type == "other_draw"
            up = None
            if triple_pos is not None and (other_draw or rules.kaiduo_on_discard):
                up = triple_pos
            elif peng_pos is not None and other_draw:
                up = peng_pos
            if up is not None:
                f = list(fixed)
                f[up] = ("kaiduo", win)
                branches.append((f, counts, None))
            c2 = list(counts)
            c2[win] += 1
            branches.append((fixed, c2, win))
    tri_kind = "guopeng" if (win is not None and win in passed and rules.guo_peng_zero) else "win_triplet"
    out: list[int] = []
    for f, c, w in branches:
        base = fixed_huxi + sum(rules.v(k, size(cd)) for k, cd in f)
        if rules.pair_needs_four:
            need_pair = any(k in FOURS for k, _ in f)
        else:
            need_pair = (sum(c) + jokers) % 3 == 2
        if (sum(c) + jokers) % 3 != (2 if need_pair else 0):
            continue
        if jokers:
            out.extend(base + s for s in all_splits_jokers(rules, list(c), need_pair, w, tri_kind, jokers))
        else:
            out.extend(base + s for s in all_splits(rules, list(c), need_pair, w, tri_kind))
    return out
