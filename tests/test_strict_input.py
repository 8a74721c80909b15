"""Strict input: every dict/JSON input (cases, situations, melds, options, hand records) refuses
unknown keys and contradictions with a ``HupaiError`` naming the key and listing the accepted ones;
a kong meld with ``offer: 0`` is concealed unless it says ``"concealed": false``."""

from __future__ import annotations

from typing import Any

import pytest

import hupai
import hupai.batch

WIN = "[EEE,1]123m456p78s99s+9s"
STANDING = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5s"]


def kong_hand(**meld: Any) -> dict[str, Any]:
    return {"hand": {"concealed": STANDING, "melds": [{"type": "kong", "tiles": ["E"] * 4, **meld}], "win_tile": "5s"}}


def fan_ids(case: dict[str, Any]) -> set[str]:
    return {f.id for f in hupai.score(case).fans}


@pytest.mark.parametrize(
    ("make", "match"),
    [
        # a flat situation key beside "hand" is refused (it used to be ignored), naming the fix
        (lambda: hupai.Situation.from_dict({"hand": WIN, "self_drawn": True}), r'"self_drawn" is a situation key'),
        (lambda: hupai.score({"hand": WIN, "self_drawn": True}), r'"self_drawn" is a situation key'),
        (lambda: hupai.score({"hand": WIN, "id": 3}), r'unknown key "id".*accepted: hand, situation'),
        (lambda: hupai.score({"hand": WIN, "situation": {"selfdrawn": True}}), r"selfdrawn.*expected one of `self_drawn`"),
        (
            lambda: hupai.score({"hand": {"concealed": STANDING, "melds": [{"type": "pung", "tiles": ["E"] * 3, "offer": 1, "x": 1}], "win_tile": "5s"}}),
            r"hand\.melds\[0\]: unknown field `x`, expected one of `type`, `tile`, `tiles`, `offer`, `concealed`",
        ),
        (lambda: hupai.score(kong_hand(offer=1, concealed=True)), r"concealed kong .*'offer' must be 0"),
        (lambda: hupai.score(WIN, "mcr", self_drawn=True, discarder=2), r"discarder: a self_draw win has no discarder"),
        (lambda: hupai.score(WIN, "mcr", liangdao=True), r"mcr does not read this flag"),
        (lambda: hupai.score(WIN, "mcr", options={"nope": 1}), r'no switch "nope"; its switches: min_fan'),
        (lambda: hupai.Variant("mcr", nope=1), r'no switch "nope"'),
        (lambda: hupai.score(WIN, "mcr", dealer=True, dealer_seat=2, seat=0), r"dealer"),
        (
            lambda: hupai.settle_hand({"seats": ["a", "b", "c", "d"], "events": [], "x": 1}, "mcr"),
            r'unknown key "x"; accepted: seats, dealer, events, seat_data, table',
        ),
        (
            lambda: hupai.settle_hand({"seats": ["a", "b", "c", "d"], "events": [{"kind": "win", "winner": "a", "hand": WIN, "note": 1}]}, "mcr"),
            r"note",
        ),
    ],
)
def test_unknown_keys_and_contradictions_are_refused(make: Any, match: str) -> None:
    with pytest.raises(hupai.HupaiError, match=match):
        make()


HAND = {"concealed": STANDING + ["E", "E", "E"], "win_tile": "5s"}


@pytest.mark.parametrize(
    ("case", "match"),
    [
        # not an object: the shape it should have, never the Rust type's name
        ({"hand": 5}, r'^invalid hand: hand: expected notation text such as "123m456p789s1122z\+1z" or an object \{"melds".*got a number 5$'),
        # serde would read a struct from a list by field order: no documented form, refused
        ({"hand": [[], HAND["concealed"], "5s"]}, r"hand: expected notation text .* got a list$"),
        ({"hand": {**HAND, "melds": [["pung", "E"]]}}, r'hand\.melds\[0\]: expected a meld object such as \{"type": "pung".* got a list$'),
        ({"hand": {**HAND, "melds": [5]}}, r"hand\.melds\[0\]: expected a meld object .* got a number 5$"),
        ({"hand": HAND, "situation": [True]}, r"situation: expected an object of flags such as .* got a list$"),
        # a field of the wrong type is named by its path
        ({"hand": {**HAND, "concealed": "123m"}}, r'hand\.concealed: invalid type: string "123m", expected a list$'),
        ({"hand": {**HAND, "concealed": [1]}}, r"hand\.concealed\[0\]: invalid type: integer `1`, expected a string$"),
        ({"hand": {**HAND, "win_tile": 5}}, r"hand\.win_tile: invalid type: integer `5`, expected a string$"),
        ({"hand": {**HAND, "melds": [{"type": "chi", "tiles": "123m"}]}}, r'hand\.melds\[0\]\.tiles: invalid type: string "123m"'),
        ({"hand": HAND, "situation": {"self_drawn": "yes"}}, r'situation\.self_drawn: invalid type: string "yes", expected a boolean$'),
        # an unknown key: named once, at the object that holds it
        ({"hand": {**HAND, "x": 1}}, r"^invalid hand: hand: unknown field `x`, expected one of `melds`, `concealed`, `win_tile`$"),
        ({"hand": {"concealed": HAND["concealed"]}}, r"hand: missing field `win_tile`$"),
    ],
)
def test_wrong_shapes_name_the_field_and_the_expected_form(case: dict[str, Any], match: str) -> None:
    with pytest.raises(hupai.InvalidHandError, match=match) as e:
        hupai.score(case)
    assert "Input" not in str(e.value)  # no Rust type names
    # the batch call reports the same error for the same item
    (out,) = hupai.batch.score([case], "mcr")
    assert out == {"error": "InvalidHandError", "message": str(e.value)}


def test_a_kong_with_offer_0_is_concealed_unless_it_says_otherwise() -> None:
    concealed = fan_ids(kong_hand(offer=0))
    assert "CONCEALED_KONG" in concealed and "MELDED_KONG" not in concealed
    assert fan_ids(kong_hand()) == concealed  # no offer: concealed
    assert fan_ids(kong_hand(concealed=True)) == concealed
    melded = fan_ids(kong_hand(offer=0, concealed=False))
    assert "MELDED_KONG" in melded and "CONCEALED_KONG" not in melded
    assert fan_ids(kong_hand(offer=2)) == melded


def test_flags_of_hupai_score_are_the_situation_keys() -> None:
    by_flags = hupai.score(WIN, "mcr", self_drawn=True, flowers=1)
    by_dict = hupai.score({"hand": WIN, "situation": {"self_drawn": True, "flowers": 1}}, "mcr")
    assert by_flags.to_dict() == by_dict.to_dict()
    assert "SELF_DRAWN" in {f.id for f in by_flags.fans}
    with pytest.raises(TypeError):
        hupai.score({"hand": WIN}, "mcr", self_drawn=True)  # flags go with a hand string
