"""斗地主 invariants over many simulated hands (issue 15): run through the table engine's checking
mode (``ddz.simulate(check=True)`` = ``hupai.simulate(variant, results=True, check=True)``), which verifies after every step that the 54 cards are accounted for and that only legal moves are
played (checked independently of the generator: held, a reading of the cards, beating the trick),
and at the end that the settlement is zero-sum, that the multiplier equals the product of the
recorded doublings, and that replaying the event log gives the same log.

≥ 50,000 hands in total (``HUPAI_DDZ_HANDS`` per preset, default 25,000 × 2 presets, random bots)
plus smaller runs over switch combinations and the greedy bot. About 20 s on the shared 2-core
machine.
"""

from __future__ import annotations

import os

import pytest

from hupai import doudizhu as ddz

HANDS = int(os.environ.get("HUPAI_DDZ_HANDS", "25000"))


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["doudizhu_qq", "doudizhu_contest"])
def test_invariants_over_many_hands(variant: str) -> None:
    st = ddz.simulate(HANDS, seed=2024, check=True, rules=ddz.Rules(variant))
    assert st["hands"] == HANDS
    assert st["landlord_wins"] + st["farmer_wins"] == HANDS
    assert sum(st["scores"]) == 0
    assert st["decisions"] > 40 * HANDS and st["plays"] + st["passes"] < st["decisions"]
    # the runs reach the rare events the invariants are about
    assert st["bombs"] > 0 and st["rockets"] > 0 and st["redeals"] > 0
    assert st["springs"] + st["anti_springs"] > 0


SWITCHES = [
    {"profile": "rlcard"},
    {"profile": "douzero"},
    {"profile": "openspiel"},
    {"profile": "onestraw"},
    {"profile": "pagat"},
    {"auction": "call_rob", "rob": True},
    {"all_pass": "random_landlord_after_3", "must_bid": True},
    {"bomb_cap": 1, "multiplier_cap": 4, "coin_room": True, "room_factor": 10, "house_fee": 3},
    {"first_bidder": "last_winner", "show_hand": True, "escape_to": "split"},
    {"trio_pair": False, "four_two_single": False, "single_kickers": "no_triple"},
    {"wing_main_rank": True, "four_two_pair_same_rank": True, "wing_pair_same_rank": True},
]


@pytest.mark.parametrize("switches", SWITCHES, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
@pytest.mark.parametrize("bots", [("random",) * 3, ("greedy", "random", "greedy")])
def test_invariants_under_switches(switches: dict[str, object], bots: tuple[str, ...]) -> None:
    sw = dict(switches)
    profile = sw.pop("profile", None)
    rules = ddz.Rules("doudizhu_qq", profile=profile, **sw)  # type: ignore[arg-type]
    st = ddz.simulate(600, seed=77, bots=bots, check=True, rules=rules)
    assert st["hands"] == 600
    assert st["landlord_wins"] + st["farmer_wins"] + st["no_game"] == 600
    assert st["decisions"] > 600 * 10


def test_contest_rob_and_show_happen() -> None:
    st = ddz.simulate(2000, seed=5, bots=("greedy",) * 3, check=True, rules=ddz.Rules("doudizhu_contest"))
    assert st["max_multiplier"] >= 4
