"""Tiles, notation, melds and hand validation through the Python API."""

import pickle

import pytest

import hupai
from hupai import Hand, Meld, Tile


def test_compact_and_canonical_format() -> None:
    tiles = hupai.parse_tiles("CCEEE987s654p321m")
    assert hupai.format_tiles(tiles) == "123m456p789sEEECC"
    assert [str(t) for t in tiles[:3]] == ["C", "C", "E"]


def test_all_notations_agree() -> None:
    compact = hupai.parse_tiles("1m5p9sESWNCFPf1")
    listed = hupai.parse_tiles(["1m", "5p", "9s", "E", "S", "W", "N", "C", "F", "P", "f1"])
    tenhou = hupai.parse_tiles("1m5p9s1234765zf1")
    chinese = hupai.parse_tiles("一万 五筒 九条 东 南 西 北 红中 发财 白板 春")
    assert compact == listed == tenhou == chinese


def test_tile_value_type() -> None:
    t = Tile("5m")
    assert t == Tile("五万") and hash(t) == hash(Tile("5m"))
    assert sorted([Tile("E"), Tile("1s"), Tile("9m")]) == [Tile("9m"), Tile("1s"), Tile("E")]
    assert pickle.loads(pickle.dumps(t)) == t
    assert (t.index, t.suit, t.rank, t.chinese) == (4, "m", 5, "五万")
    assert Tile.from_index(33) == Tile("P") and Tile("9p").next() == Tile("1p")


def test_counts_roundtrip() -> None:
    c = hupai.to_counts("1122m")
    assert len(c) == 34 and c[:2] == [2, 2]
    assert hupai.format_tiles(hupai.from_counts(c)) == "1122m"


@pytest.mark.parametrize("bad", ["0m", "123", "8z", "f9", "x", "一二"])
def test_unknown_tile_text(bad: str) -> None:
    with pytest.raises(hupai.InvalidTileError):
        hupai.parse_tiles(bad)


def test_errors_are_value_errors() -> None:
    assert issubclass(hupai.InvalidTileError, hupai.HupaiError)
    assert issubclass(hupai.HupaiError, ValueError)
    with pytest.raises(ValueError, match="not a tile|expected"):
        Tile(12)  # type: ignore[arg-type]


def test_too_many_copies() -> None:
    with pytest.raises(hupai.InvalidHandError, match="copies"):
        Hand("11111m456p789sEEC")
    with pytest.raises(hupai.InvalidHandError, match="copies"):
        Hand("1m456p789sEEEC", melds=[Meld("1111m", concealed=True)])


def test_wrong_tile_count() -> None:
    with pytest.raises(hupai.InvalidHandError, match="expected 13"):
        Hand("123m456p789sEE")
    with pytest.raises(hupai.InvalidHandError, match="expected 10"):
        Hand("123m456p789s", melds=[Meld("CCC")])


@pytest.mark.parametrize("bad", ["ESW", "3m4p5s", "135m", "EEC", "89m1p"])
def test_malformed_melds(bad: str) -> None:
    with pytest.raises(hupai.InvalidHandError):
        Meld(bad)


def test_meld_rules() -> None:
    with pytest.raises(hupai.InvalidHandError, match="honours"):
        Meld.of("chow", "E")
    with pytest.raises(hupai.InvalidHandError, match="concealed"):
        Meld("EEE", concealed=True)
    m = Meld.of("chow", "4m", middle=True, from_seat=3)
    assert m.tiles == hupai.parse_tiles("345m") and m.from_seat == 3
    assert pickle.loads(pickle.dumps(m)) == m


def test_hand_bracket_notation_roundtrip() -> None:
    h = Hand.parse("[345m,3][2222s][5555p,1]67mEE+8m")
    assert h.is_complete and len(h) == 14
    assert [m.concealed for m in h.melds] == [False, True, False]
    assert Hand.parse(str(h)) == h
    assert pickle.loads(pickle.dumps(h)) == h
