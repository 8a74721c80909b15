"""The table engine's invariants over many hands of every preset (字牌 included), checked in the
core's checking mode (``hupai._core.check_games``): after every step every tile / card is accounted
for and the action was one of the legal actions; at the end of every hand every ledger event and the
balances are zero-sum, the result equals the ledger, and the hand replays exactly from its events
(every tenth hand also from its JSON log).

CI runs ``HUPAI_TABLE_HANDS=100000`` hands per preset (half with random bots, half greedy and
defensive): about 370 CPU-seconds in all, 3–4 minutes on 2 free cores. The default here is smaller.
Also: the wall of every preset is ``random.Random(seed).shuffle`` of its tile set, as before the
engine moved to the core, and the table's own draws follow ``random.Random(seed ^ 0x5EED)``.
"""

from __future__ import annotations

import os
import random
import time

import pytest

import hupai
from hupai._core import build_wall, check_games, table_seats
from hupai.game import TILE_NAMES, Table

PRESETS = [
    "sichuan",
    "mcr",
    "hebei",
    "hebei_draft4",
    "shanghai",
    "shaanxi",
    "huanle3d",
    "kawuxing",
    "erren",
    "wuhan",
    "zipai_guilin",
    "zipai_hunan",
]
HANDS = int(os.environ.get("HUPAI_TABLE_HANDS", "4000"))
THREADS = min(os.cpu_count() or 1, 2)


@pytest.mark.slow
@pytest.mark.parametrize("vid", PRESETS)
def test_checked_hands(vid: str) -> None:
    n = table_seats(vid)
    t0 = time.perf_counter()
    rnd = check_games(vid, ["random"] * n, 13, HANDS // 2, threads=THREADS, json_replay_every=10)
    mixed = ["greedy", "defensive"] * n
    smart = check_games(vid, mixed[:n], 17, HANDS - HANDS // 2, threads=THREADS, json_replay_every=10)
    assert rnd["hands"] + smart["hands"] == HANDS
    assert smart["wins"] > 0 and rnd["steps"] > 0
    print(f"{vid}: {HANDS} checked hands in {time.perf_counter() - t0:.1f}s")


@pytest.mark.parametrize("vid", PRESETS + ["kawuxing:4", "huanle3d:full136"])
def test_checked_hands_with_switches(vid: str) -> None:
    vid, _, opt = vid.partition(":")
    v = hupai.Variant(vid, players=4) if opt == "4" else hupai.Variant(vid, tile_set=opt) if opt else hupai.Variant(vid)
    n = table_seats(v)
    st = check_games(v, ["greedy"] * n, 3, 200, threads=1, json_replay_every=1)
    assert st["hands"] == 200


@pytest.mark.parametrize(
    "variant",
    [
        {"id": "sichuan", "mode": "xueliu"},
        {"id": "sichuan", "mode": "single"},
        {"id": "sichuan", "ding_que": True, "huan_san_zhang": True, "huan_san_zhang_direction": "dice"},
        {"id": "sichuan", "pass_win_lock": "lower_value_until_own_draw"},
        {"id": "sichuan", "pass_win_lock": "all_discards_until_own_draw"},
        {"id": "shaanxi", "exhaustion_reserve_stacks": "monotone_6_7_8_9", "pao_zi": "fixed", "pao_zi_fixed": 2},
        {"id": "hebei", "multi_ron": True},
        {"id": "hebei", "bao_ting": "required"},
        {"id": "huanle3d", "discard_win": "also_rob_kong"},
        {"id": "kawuxing", "mai_ma": "off", "piao": False, "liangdao_discard_restriction": False},
        {"id": "erren", "opening_exchange": False},
        {"id": "wuhan", "jiehu_order": "from_dealer", "pizi_set": "hongzhong_facai"},
        {"id": "zipai_guilin", "jokers": 4, "bi_hu": "any", "chou_scope": "per_action"},
        {"id": "zipai_hunan", "sanlong_wukan": True, "dealer_after_draw": "next"},
    ],
)
def test_checked_hands_of_switch_values(variant: dict) -> None:
    opts = dict(variant)
    v = hupai.Variant(opts.pop("id"), **opts)
    n = table_seats(v)
    for bots in (["random"] * n, ["greedy"] * n):
        assert check_games(v, bots, 5, 300, threads=1, json_replay_every=5)["hands"] == 300


def test_walls_are_cpython_shuffles_of_the_tile_set() -> None:
    for vid in PRESETS:
        v = hupai.Variant(vid)
        if vid.startswith("zipai"):
            deck = [f"{s}{r}" for s in "xd" for r in range(1, 11) for _ in range(4)]
        else:
            deck = [TILE_NAMES[i] for i in v.tile_set()]
        for seed in list(range(60)) + [-3, 2**31, 2**40 + 7, 10**18, 2**63 - 1, 2**100 + 3]:
            w = list(deck)
            random.Random(seed).shuffle(w)
            assert build_wall(v, seed) == w, (vid, seed)
    # the table deals that wall: the dealer's first tiles are its first 4 …
    t = Table("sichuan", seed=42)
    w = build_wall("sichuan", 42)
    assert t.wall == w and sum(t.hands[0]) == 14


def test_table_randomness_follows_cpython() -> None:
    # 上海 开宝 dice: random.Random(seed ^ 0x5EED).randint(1, 6) twice, before the deal.
    for seed in range(30):
        r = random.Random(seed ^ 0x5EED)
        dice = [r.randint(1, 6), r.randint(1, 6)]
        assert Table("shanghai", seed=seed).log[1] == {"type": "dice", "dice": dice, "kai_bao": int(dice[0] == dice[1])}
    # 二人麻将 花牌: random.Random(seed ^ 0x5EED).sample(range(71), 4) positions of the 71-tile wall.
    for seed in range(30):
        t = Table("erren", seed=seed)
        pos = random.Random(seed ^ 0x5EED).sample(range(71), 4)
        hua = next(e for e in t.log if e["type"] == "hua_pai")["tiles"]
        assert sorted(hua, key=lambda x: TILE_NAMES.index(x)) == sorted((t.wall[p] for p in pos), key=lambda x: TILE_NAMES.index(x))
    # 换三张 random direction: choice((1, 2, 3)) after the exchange.
    v = hupai.Variant("sichuan", huan_san_zhang=True)
    for seed in range(20):
        t = Table(v, seed=seed)
        while t.phase == "huan_san_zhang":
            t.step(t.legal_actions()[0])
        shift = next(e for e in t.log if e["type"] == "exchange_done")["shift"]
        assert shift == random.Random(seed ^ 0x5EED).choice((1, 2, 3))


def test_checking_mode_reports_bad_input() -> None:
    with pytest.raises(hupai.RuleConfigError):
        check_games("sichuan", ["random"] * 3, 1, 10)
    with pytest.raises(hupai.RuleConfigError):
        check_games("sichuan", ["nobody"] * 4, 1, 10)
    with pytest.raises(hupai.RuleConfigError):
        check_games("sichuan", ["random"] * 4, 1, 10, threads=0)


def test_tables_step_together_like_single_tables() -> None:
    from hupai._core import Tables

    seeds = list(range(8))
    ts = Tables("mcr", seeds)
    rng = random.Random(3)
    choices_per: list[list[int]] = [[] for _ in seeds]
    while True:
        counts = ts.legal_counts()
        if all(c == 0 for c in counts):
            break
        picks = [rng.randrange(c) if c else -1 for c in counts]
        for i, p in enumerate(picks):
            if p >= 0:
                choices_per[i].append(p)
        ts.step(picks)
    assert all(a == -1 for a in ts.to_act())
    for i, s in enumerate(seeds):  # the same choices on a single table give the same hand
        t = Table("mcr", seed=s, dealer=i % 4)
        for p in choices_per[i]:
            t.step(t.legal_actions()[p])
        assert t.log == ts.log(i) and t.result == ts.result(i)
    with pytest.raises(hupai.IllegalActionError):
        Tables("mcr", [1]).step([999])
