"""Strict input: every dict/JSON input (cases, situations, melds, options, hand records) refuses
unknown keys and contradictions with a ``HupaiError`` naming the key and listing the accepted ones;
a kong meld with ``offer: 0`` is concealed unless it says ``"concealed": false``."""

from __future__ import annotations

from typing import Any

import pytest

import hupai

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
