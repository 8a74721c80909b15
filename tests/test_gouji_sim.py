"""够级 invariants over simulated hands, through the table engine's checking mode
(``hupai.gouji.simulate(check=True)`` = ``hupai.simulate("gouji", results=True, check=True)``).

With ``check=True`` the core verifies after every decision that the 216 cards are all
in a hand, on the table or in a 革命 discard, and that the action was in the legal list, came
from the hand, was one play, kept 憋3 and beat the top play; at the end of every hand a complete
finishing order (a permutation, the 革命 seat at 四科 or 三科), the scores of gouji.md §7 (each
seat = its team's place points × the 串三户 factor, zero-sum), the tribute moved the giver's
highest cards and only what the log says, the next carry's 落/烧/闷 obligations and order, and
every 8th hand replays exactly from its JSON log. Any violation raises ``InvalidHandError``.

``HUPAI_GOUJI_HANDS`` (default 20,000) hands with the default rules, split between random and
greedy bots, plus 2,000 per alternative switch set. About 15 s here with both cores busy.
"""

from __future__ import annotations

import os

import pytest

from hupai import gouji

N = int(os.environ.get("HUPAI_GOUJI_HANDS", "20000"))


@pytest.mark.parametrize("bots", ["random", "greedy", ["greedy", "random"] * 3])
def test_default_rules_over_many_hands(bots: str | list[str]) -> None:
    n = N // 3 + 1
    st = gouji.simulate(n, seed=2024, bots=bots, check=True)
    assert st["hands"] + st["voids"] == n  # a void hand (two 革命) ends at the table
    assert st["decisions"] > n * 100
    assert sum(st["scores"]) == 0
    for place in range(6):
        assert sum(st["places"][s][place] for s in range(6)) == st["hands"]
    if bots == "greedy":
        assert st["burns"] > 0 and st["kaidian"] > 0 and st["men"] > 0 and st["tribute_cards"] > 0
    if bots == "random":
        assert st["revolutions"] > 0 and st["voids"] > 0


SWITCH_SETS: list[dict[str, bool | int | str]] = [
    {"bie_san": False},
    {"hand_end": "side_out", "return_tribute": "none"},
    {"burners": "between_only", "yield_allowed_on_gouji": True},
    {"duitou_last_word": True, "luanchan_at": "immediately"},
    {"mixed_jokers": "per_card", "kaidian_allows_tieqian": False, "shangban": "first_pair_dealt"},
    {"revolution": False, "tribute": False},
    {"return_tribute": "luo_only", "buy_three_order": "lamb", "head_choice_default": "wutou"},
    {"place_points": "2,1,0,0,-1,-2", "chuan_san_hu_factor": 3},
]


@pytest.mark.parametrize("switches", SWITCH_SETS, ids=[",".join(s) for s in SWITCH_SETS])
def test_switch_sets_keep_the_invariants(switches: dict[str, bool | int | str]) -> None:
    n = max(N // 10, 100)
    st = gouji.simulate(n, seed=7, bots=["greedy", "random"] * 3, check=True, **switches)
    assert st["hands"] + st["voids"] == n and sum(st["scores"]) == 0
    if switches.get("tribute") is False:
        assert st["tribute_cards"] == 0
    if switches.get("revolution") is False:
        assert st["revolutions"] == 0 and st["voids"] == 0
