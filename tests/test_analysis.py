"""Hand analysis through the Python API, checked against the slow reference in ``reference.py``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hupai
from hupai import Hand, Shapes
from tests import reference

NAMES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP")
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)


def tiles_of(counts: list[int]) -> list[str]:
    return [NAMES[k] for k in range(34) for _ in range(counts[k])]


@st.composite
def hands(draw: st.DrawFn, size: int = 14, kinds: int | None = None) -> list[int]:
    """Random hands of `size` tiles, often concentrated on few kinds (to hit wins and waits)."""
    pool_size = kinds if kinds is not None else draw(st.sampled_from([9, 12, 18, 34]))
    offset = draw(st.integers(0, 34 - pool_size))
    picks = draw(st.lists(st.integers(0, pool_size - 1), min_size=size, max_size=size))
    counts = [0] * 34
    for p in picks:
        k = offset + p
        while counts[k] >= 4:  # a fifth copy moves to the next kind with room
            k = (k + 1) % 34
        counts[k] += 1
    return counts


@st.composite
def complete_hands(draw: st.DrawFn) -> list[int]:
    """Constructed standard wins (4 sets + a pair), then possibly one tile swapped."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if draw(st.booleans()):
                k = draw(st.integers(0, 33))
                counts[k] += 3
            else:
                suit = draw(st.integers(0, 2))
                r = draw(st.integers(0, 6))
                for d in range(3):
                    counts[suit * 9 + r + d] += 1
        counts[draw(st.integers(0, 33))] += 2
        if max(counts) <= 4:
            break
    if draw(st.booleans()):
        held = [k for k in range(34) if counts[k]]
        out = draw(st.sampled_from(held))
        into = draw(st.integers(0, 33))
        if counts[into] < 4 or into == out:
            counts[out] -= 1
            counts[into] += 1
    return counts


def permute_suits(counts: list[int], perm: tuple[int, int, int]) -> list[int]:
    out = [0] * 34
    for s in range(3):
        out[perm[s] * 9 : perm[s] * 9 + 9] = counts[s * 9 : s * 9 + 9]
    out[27:] = counts[27:]
    return out


# ---------------------------------------------------------------- examples


def test_examples() -> None:
    assert hupai.is_winning("123m456p789sEEECC")
    assert hupai.is_winning("[EEE,1]123m456p78s99s+9s")
    assert hupai.is_winning(Hand.parse("[EEE,1]123m456p78s99s+9s"))
    assert not hupai.is_winning("123m456p789sEEEC")  # waiting hands are never complete
    assert hupai.is_winning("19m19p19sESWNCFPP")
    assert hupai.is_winning("1122m3344p5566sEE")
    assert not hupai.is_winning("1122m3344p5566sEE", shapes=Shapes.STANDARD)
    assert hupai.is_winning("1111m3344p5566sEE")
    assert not hupai.is_winning("1111m3344p5566sEE", shapes=Shapes(seven_pairs_quads=False))
    assert hupai.is_winning("147m258p369sESWNC")
    assert hupai.is_winning("147m258p369s234sEE", shapes="knitted_straight")
    assert hupai.shanten("123m456p789sEEEC") == 0
    assert hupai.waits("1112345678999m") == NAMES[:9]
    assert hupai.waits(["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m"]) == NAMES[:9]


def test_implied_melds() -> None:
    # 3n+1 / 3n+2 hands with n < 4 count the missing sets as declared.
    assert hupai.is_winning("55p")
    assert hupai.is_winning("123m55p")
    assert hupai.waits("5p") == ["5p"]
    with pytest.raises(hupai.InvalidHandError):
        hupai.waits("23m")  # 3n+2: not waiting
    assert hupai.shanten("1m") == 0


def test_wildcards() -> None:
    assert hupai.is_winning("123m456p789sEEEC", wildcards=1)
    assert hupai.is_winning("13m456p789sEEECC", wildcards=1, shapes=Shapes.STANDARD)
    assert hupai.shanten("123m456p789sEE", wildcards=3) == -1
    assert hupai.shanten("123m456p789sEE", wildcards=2) == 0
    assert hupai.waits("123m456p789sEE", wildcards=2) == NAMES  # any tile: a pung with two wildcards
    ds = hupai.decompose("13m456p789sEEECC", wildcards=1)
    assert [d["wildcards"] for d in ds] == [["2m"]]


def test_visible_drops_exhausted_waits() -> None:
    h = "1112345678999m"
    assert "5m" not in hupai.waits(h, visible="555m")
    assert "5m" not in hupai.waits(h, visible=[0, 0, 0, 0, 3] + [0] * 29)
    assert "1m" in hupai.waits("1m")
    assert hupai.waits("1111m") == []  # 1m would be a fifth copy
    assert hupai.waits("[1111m]2m") == ["2m"]
    with pytest.raises(hupai.InvalidHandError, match="copies"):
        hupai.waits(h, visible="99m")


def test_useful_and_discards() -> None:
    useful = hupai.useful_tiles("123m456p789sEEC1p")
    assert ("E", 2) in useful and ("2p", 4) in useful and ("1p", 3) in useful
    opts = hupai.discard_options("123m456p789sEECF1p")
    assert [o["discard"] for o in opts[:2]] == ["C", "F"]
    assert opts[0]["shanten"] == 1 and opts[0]["total"] == sum(n for _, n in opts[0]["useful"])
    keys = [(o["shanten"], -o["total"]) for o in opts]
    assert keys == sorted(keys)


def test_shanten_forms() -> None:
    f = hupai.shanten_forms("147m258p369sESWN")
    assert f["honors_knitted"] == 0 and f["min"] == 0 and f["standard"] > 0
    assert set(hupai.shanten_forms("1234m")) == {"standard", "min"}


def test_shapes_object() -> None:
    assert Shapes() == Shapes.ALL
    assert Shapes.of("standard").names() == ["standard"]
    assert Shapes.of("standard", "seven_pairs") == Shapes(
        seven_pairs_quads=False, thirteen_orphans=False, honors_knitted=False, knitted_straight=False
    )
    assert "seven_pairs=False" in repr(Shapes.STANDARD)


# ---------------------------------------------------------------- properties


@SETTINGS
@given(st.one_of(hands(14), complete_hands()))
def test_win_matches_reference_and_shanten(counts: list[int]) -> None:
    tiles = tiles_of(counts)
    win = hupai.is_winning(tiles)
    assert win == reference.is_winning(counts)
    assert win == (hupai.shanten(tiles) == -1)


@SETTINGS
@given(st.one_of(hands(14), hands(13), hands(11), hands(8), complete_hands()))
def test_standard_shanten_matches_reference(counts: list[int]) -> None:
    melds = reference.implied_melds(counts)
    shapes = Shapes.of("standard", "seven_pairs", "thirteen_orphans")
    assert hupai.shanten(tiles_of(counts), shapes=shapes) == reference.shanten(counts, melds)


@SETTINGS
@given(hands(13))
def test_waits_iff_winning(counts: list[int]) -> None:
    tiles = tiles_of(counts)
    w = hupai.waits(tiles)
    assert w == [NAMES[k] for k in reference.waits(counts)]
    for k in range(34):
        if counts[k] < 4:
            assert (NAMES[k] in w) == hupai.is_winning(tiles + [NAMES[k]])
    assert (hupai.shanten(tiles) == 0) == bool(w) or any(c == 4 for c in counts)


@settings(SETTINGS, max_examples=60)
@given(st.one_of(hands(13), hands(10)), st.integers(0, 1))
def test_useful_tiles_lower_shanten(counts: list[int], wildcards: int) -> None:
    if sum(counts) % 3 == 1 and wildcards:
        counts = list(counts)
        counts[next(k for k in range(34) if counts[k])] -= 1  # make room for the wildcard
    tiles = tiles_of(counts)
    base = hupai.shanten(tiles, wildcards=wildcards)
    useful = dict(hupai.useful_tiles(tiles, wildcards=wildcards))
    for k in range(34):
        if counts[k] < 4:
            lower = hupai.shanten(tiles + [NAMES[k]], wildcards=wildcards) < base
            assert (NAMES[k] in useful) == lower
            if lower:
                assert useful[NAMES[k]] == 4 - counts[k]


@settings(SETTINGS, max_examples=40)
@given(hands(14))
def test_discard_options_consistent(counts: list[int]) -> None:
    tiles = tiles_of(counts)
    opts = hupai.discard_options(tiles)
    assert sorted(o["discard"] for o in opts) == sorted({t for t in tiles})
    for o in opts:
        rest = list(tiles)
        rest.remove(o["discard"])
        assert o["shanten"] == hupai.shanten(rest)
        assert o["useful"] == hupai.useful_tiles(rest, visible=[o["discard"]])
    assert min(o["shanten"] for o in opts) == max(hupai.shanten(tiles), 0)


@SETTINGS
@given(hands(13), st.permutations([0, 1, 2]))
def test_suit_permutation_invariance(counts: list[int], perm: list[int]) -> None:
    p = (perm[0], perm[1], perm[2])
    other = permute_suits(counts, p)
    a, b = tiles_of(counts), tiles_of(other)
    assert hupai.shanten(a) == hupai.shanten(b)
    wa = [0] * 34
    for t in hupai.waits(a):
        wa[NAMES.index(t)] = 1
    wb = [1 if NAMES[k] in hupai.waits(b) else 0 for k in range(34)]
    assert permute_suits(wa, p) == wb


@SETTINGS
@given(st.one_of(complete_hands(), hands(14, kinds=9)))
def test_decompositions_reassemble(counts: list[int]) -> None:
    ds = hupai.decompose(tiles_of(counts))
    assert bool(ds) == hupai.is_winning(tiles_of(counts))
    for d in ds:
        if d["form"] != "honors_knitted":
            assert reference.reassemble(d) == counts


@settings(SETTINGS, max_examples=60)
@given(st.one_of(complete_hands(), hands(14, kinds=9), hands(14)), st.integers(1, 2), st.data())
def test_wildcard_wins_match_reference(counts: list[int], wildcards: int, data: st.DataObject) -> None:
    # Turn `wildcards` real tiles into wildcards.
    held = [k for k in range(34) for _ in range(counts[k])]
    drop = data.draw(st.lists(st.sampled_from(held), min_size=wildcards, max_size=wildcards))
    real = list(counts)
    for k in drop:
        if real[k] == 0:
            return
        real[k] -= 1
    tiles = tiles_of(real)
    win = hupai.is_winning(tiles, wildcards=wildcards)
    assert win == reference.is_winning(real, wildcards)
    assert win == (hupai.shanten(tiles, wildcards=wildcards) == -1)
    ds = hupai.decompose(tiles, wildcards=wildcards)
    assert bool(ds) == win
    for d in ds[:50]:
        assert len(d["wildcards"]) == wildcards
        if d["form"] != "honors_knitted":
            total = reference.reassemble(d)
            for t in d["wildcards"]:
                total[NAMES.index(t)] -= 1
            assert total == real


@settings(SETTINGS, max_examples=30)
@given(st.lists(st.one_of(hands(14), complete_hands(), hands(11)), min_size=1, max_size=40))
def test_batch_equals_loop(rows: list[list[int]]) -> None:
    arr = np.array(rows, dtype=np.uint8)
    assert hupai.batch.is_winning(arr).tolist() == [hupai.is_winning(tiles_of(r)) for r in rows]
    assert hupai.batch.shanten(arr).tolist() == [hupai.shanten(tiles_of(r)) for r in rows]
    waiting = arr.copy()
    for row in waiting:
        row[int(np.flatnonzero(row)[0])] -= 1
    got = hupai.batch.waits(waiting, shapes=Shapes.STANDARD)
    for i, row in enumerate(waiting.tolist()):
        assert [NAMES[k] for k in np.flatnonzero(got[i])] == hupai.waits(tiles_of(row), shapes=Shapes.STANDARD)
    # Strided (non-contiguous) input is accepted too.
    wide = np.zeros((len(rows), 68), dtype=np.uint8)
    wide[:, ::2] = arr
    assert hupai.batch.shanten(wide[:, ::2]).tolist() == hupai.batch.shanten(arr).tolist()


@settings(SETTINGS, max_examples=40)
@given(st.lists(st.one_of(hands(14), complete_hands(), hands(8)), min_size=1, max_size=30))
def test_batch_in_place_views_equal_copies(rows: list[list[int]]) -> None:
    """C-contiguous arrays are read in place, at any alignment; other layouts are copied: same answers."""
    arr = np.array(rows, dtype=np.uint8)
    want_win, want_sh = hupai.batch.is_winning(arr).tolist(), hupai.batch.shanten(arr).tolist()
    buf = np.zeros(arr.size + 7, dtype=np.uint8)
    for off in range(1, 8):  # misaligned, still C-contiguous
        view = buf[off : off + arr.size].reshape(arr.shape)
        view[:] = arr
        assert hupai.batch.is_winning(view).tolist() == want_win
        assert hupai.batch.shanten(view).tolist() == want_sh
    fortran = np.asfortranarray(arr)
    assert hupai.batch.is_winning(fortran).tolist() == want_win
    assert hupai.batch.shanten(fortran).tolist() == want_sh


@settings(SETTINGS, max_examples=100)
@given(st.one_of(hands(14), hands(13), complete_hands(), hands(11), hands(5)), st.integers(0, 2), st.data())
def test_fast_entry_equals_pyo3_path(counts: list[int], wildcards: int, data: st.DataObject) -> None:
    """``is_winning`` / ``shanten`` with a Hand or tiles and keyword ``Shapes`` take the vectorcall
    entry; given shape names (or a numpy integer) they take the PyO3 wrapper: same answers, same
    errors."""
    shapes = data.draw(st.sampled_from([Shapes(), Shapes.STANDARD, Shapes(seven_pairs_quads=False, knitted_straight=False)]))
    tiles = tiles_of(counts)
    for fn in (hupai.is_winning, hupai.shanten):
        def call(*args: object, **kw: object) -> object:
            try:
                return fn(*args, **kw)  # type: ignore[operator]
            except hupai.HupaiError as e:
                return (type(e), str(e))

        fast = call(tiles, shapes=shapes, wildcards=wildcards)
        assert call(tiles, shapes=shapes.names(), wildcards=np.int64(wildcards)) == fast
        assert call(" ".join(tiles), wildcards=wildcards, shapes=shapes) == fast


def test_batch_large_parallel_equals_loop() -> None:
    rng = np.random.default_rng(0)
    rows = []
    while len(rows) < 3000:
        c = np.bincount(rng.integers(0, 34, 14), minlength=34)
        if c.max() <= 4:
            rows.append(c)
    arr = np.array(rows, dtype=np.uint8)
    want = [hupai.shanten(tiles_of(r)) for r in arr.tolist()]
    assert hupai.batch.shanten(arr).tolist() == want
    assert hupai.batch.is_winning(arr, wildcards=0).dtype == np.bool_
    assert hupai.batch.waits(arr[:, :][:0]).shape == (0, 34)


# ---------------------------------------------------------------- invalid input, one per kind


def test_invalid_tile_text() -> None:
    with pytest.raises(hupai.InvalidTileError):
        hupai.is_winning("123x")


def test_invalid_tile_in_list() -> None:
    with pytest.raises(hupai.InvalidTileError):
        hupai.shanten(["1m", 5])  # type: ignore[list-item]


def test_invalid_tile_count() -> None:
    with pytest.raises(hupai.InvalidHandError, match="3n\\+1"):
        hupai.shanten("123m")


def test_too_many_tiles() -> None:
    with pytest.raises(hupai.InvalidHandError):
        hupai.shanten("123m456p789s123sEEEC")


def test_too_many_copies() -> None:
    with pytest.raises(hupai.InvalidHandError, match="copies"):
        hupai.is_winning("11111m")


def test_flower_in_hand() -> None:
    with pytest.raises(hupai.InvalidHandError, match="flower"):
        hupai.shanten("123m456p789sEEf1")


def test_bad_wildcards() -> None:
    with pytest.raises(hupai.InvalidHandError, match="wildcards"):
        hupai.is_winning("1m", wildcards=9)
    with pytest.raises(hupai.InvalidHandError, match="wildcards"):
        hupai.is_winning("1m", wildcards=-1)


def test_bad_shape_name() -> None:
    with pytest.raises(hupai.RuleConfigError):
        hupai.shanten("1m", shapes="nine_gates")
    with pytest.raises(hupai.RuleConfigError):
        Shapes.of("standard", "x")


def test_waits_on_complete_hand() -> None:
    with pytest.raises(hupai.InvalidHandError, match="waiting"):
        hupai.waits("123m456p789sEEECC")
    with pytest.raises(hupai.InvalidHandError, match="3n\\+2"):
        hupai.discard_options("123m456p789sEEEC")
    with pytest.raises(hupai.InvalidHandError):
        hupai.useful_tiles("123m456p789sEEECC")


def test_decompose_needs_complete_hand() -> None:
    with pytest.raises(hupai.InvalidHandError, match="complete"):
        hupai.decompose("123m456p789sEEEC")
    with pytest.raises(hupai.InvalidHandError, match="complete"):
        hupai.decompose("55p")


def test_meld_copies_counted() -> None:
    with pytest.raises(hupai.InvalidHandError, match="copies"):
        hupai.shanten("[EEE,1]EE456p789sSS")


def test_batch_wrong_dtype() -> None:
    with pytest.raises(hupai.InvalidHandError, match="uint8"):
        hupai.batch.shanten(np.zeros((2, 34), dtype=np.int64))


def test_batch_wrong_shape() -> None:
    with pytest.raises(hupai.InvalidHandError, match="34"):
        hupai.batch.is_winning(np.zeros((2, 33), dtype=np.uint8))
    with pytest.raises(hupai.InvalidHandError, match="uint8"):
        hupai.batch.is_winning(np.zeros(34, dtype=np.uint8))


def test_batch_values_above_four() -> None:
    a = np.zeros((2, 34), dtype=np.uint8)
    a[:, 0] = 2
    a[1, 0] = 5
    with pytest.raises(hupai.InvalidHandError, match="row 1"):
        hupai.batch.shanten(a)


def test_batch_bad_row_size() -> None:
    with pytest.raises(hupai.InvalidHandError, match="row 0"):
        hupai.batch.shanten(np.zeros((1, 34), dtype=np.uint8))


def test_batch_waits_needs_waiting_rows() -> None:
    a = np.zeros((1, 34), dtype=np.uint8)
    a[0, 0] = 2
    with pytest.raises(hupai.InvalidHandError, match="waiting"):
        hupai.batch.waits(a)


def test_batch_not_an_array() -> None:
    with pytest.raises(hupai.InvalidHandError):
        hupai.batch.waits([[0] * 34])  # type: ignore[arg-type]


def test_no_allowed_shape_fits() -> None:
    # Seven pairs needs a full concealed hand: a 4-tile hand (three sets declared) cannot use it.
    with pytest.raises(hupai.InvalidHandError, match="no allowed shape"):
        hupai.shanten("1122m", shapes="seven_pairs")
    with pytest.raises(hupai.InvalidHandError, match="no allowed shape"):
        hupai.waits("[EEE]1122m456p", shapes=Shapes.of("seven_pairs"))
    assert hupai.is_winning("11m", shapes="seven_pairs") is False
    a = np.zeros((1, 34), dtype=np.uint8)
    a[0, :2] = 2  # 1122m: 4 tiles
    with pytest.raises(hupai.InvalidHandError, match="row 0: no allowed shape"):
        hupai.batch.shanten(a, shapes="seven_pairs")


@settings(SETTINGS, max_examples=40)
@given(st.one_of(hands(12), hands(11)), st.data())
def test_wildcard_waits_iff_winning(counts: list[int], data: st.DataObject) -> None:
    wildcards = 13 - sum(counts)
    tiles = tiles_of(counts)
    w = hupai.waits(tiles, wildcards=wildcards)
    for k in data.draw(st.lists(st.integers(0, 33), min_size=1, max_size=6, unique=True)):
        if counts[k] < 4:
            assert (NAMES[k] in w) == hupai.is_winning(tiles + [NAMES[k]], wildcards=wildcards)
            assert (NAMES[k] in w) == reference.is_winning(
                [c + (i == k) for i, c in enumerate(counts)], wildcards
            )


@settings(SETTINGS, max_examples=15)
@given(st.lists(hands(12), min_size=1, max_size=20), st.sampled_from([None, Shapes.STANDARD]))
def test_batch_with_wildcards_equals_loop(rows: list[list[int]], shapes: Shapes | None) -> None:
    arr = np.array(rows, dtype=np.uint8)
    assert hupai.batch.is_winning(arr, wildcards=2, shapes=shapes).tolist() == [
        hupai.is_winning(tiles_of(r), wildcards=2, shapes=shapes) for r in rows
    ]
    assert hupai.batch.shanten(arr, wildcards=1, shapes=shapes).tolist() == [
        hupai.shanten(tiles_of(r), wildcards=1, shapes=shapes) for r in rows
    ]
    got = hupai.batch.waits(arr, wildcards=1, shapes=shapes)
    for i, r in enumerate(rows):
        assert [NAMES[k] for k in np.flatnonzero(got[i])] == hupai.waits(tiles_of(r), wildcards=1, shapes=shapes)
