"""四川 properties (hypothesis), typed errors, switch validation and the preset description."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hupai
from tests.preset_helpers import ids, settle

SUITS = "mps"


@st.composite
def winning_situations(draw: st.DrawFn) -> dict[str, Any]:
    """A random legal 四川 win: two suits at most, 0-4 declared pon/kongs, any win type."""
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=2, unique=True))
    counts: dict[str, int] = {}

    def take(tiles: list[str]) -> bool:
        for t in tiles:
            if counts.get(t, 0) + tiles.count(t) > 4:
                return False
        for t in tiles:
            counts[t] = counts.get(t, 0) + 1
        return True

    sets: list[tuple[str, list[str]]] = []
    while len(sets) < 4:
        suit = draw(st.sampled_from(suits))
        if draw(st.booleans()):
            r = draw(st.integers(1, 7))
            tiles = [f"{r}{suit}", f"{r + 1}{suit}", f"{r + 2}{suit}"]
            kind = "chow"
        else:
            r = draw(st.integers(1, 9))
            kind = draw(st.sampled_from(["pung", "pung", "kong_open", "kong_added", "kong_concealed", "pon"]))
            tiles = [f"{r}{suit}"] * (4 if kind.startswith("kong") else 3)
        if take(tiles):
            sets.append((kind, tiles))
    while True:
        suit = draw(st.sampled_from(suits))
        pair = [f"{draw(st.integers(1, 9))}{suit}"] * 2
        if take(pair):
            break
    melds: list[dict[str, Any]] = [{"type": k, "tiles": t} for k, t in sets if k not in ("chow", "pung")]
    standing = [t for k, ts in sets if k in ("chow", "pung") for t in ts] + pair
    standing.sort()
    win = draw(st.sampled_from(standing))
    standing.remove(win)
    has_kong = any(str(m["type"]).startswith("kong") for m in melds)
    kinds = ["self_draw", "discard", "after_kong_discard", "rob_kong"] + (["kong_replacement"] if has_kong else [])
    win_type = draw(st.sampled_from(kinds))
    return {"hand": {"melds": melds, "concealed": standing, "win_tile": win}, "situation": {"win_type": win_type}}


def permute(sit: dict[str, Any], perm: dict[str, str]) -> dict[str, Any]:
    def p(t: str) -> str:
        return t[0] + perm[t[1]]

    h = sit["hand"]
    return {
        "hand": {
            "melds": [{"type": m["type"], "tiles": [p(t) for t in m["tiles"]]} for m in h["melds"]],
            "concealed": [p(t) for t in h["concealed"]],
            "win_tile": p(h["win_tile"]),
        },
        "situation": dict(sit["situation"]),
    }


VARIANTS = [
    hupai.Variant.load("sichuan"),
    hupai.Variant("sichuan", fan_profile="sbr_3fan_cap", cap_fan=3, zimo_bonus="plus_one_base"),
    hupai.Variant("sichuan", fan_profile="chengdu_multiplier_table", gen_counts_kongs=True, zimo_bonus="double"),
]


HC = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.filter_too_much, HealthCheck.data_too_large]


@settings(max_examples=150, deadline=None, suppress_health_check=HC)
@given(winning_situations(), st.permutations(SUITS), st.sampled_from(range(len(VARIANTS))))
def test_score_invariant_under_suit_permutation(sit: dict[str, Any], order: list[str], vi: int) -> None:
    v = VARIANTS[vi]
    a = hupai.sichuan.score(sit, v)
    b = hupai.sichuan.score(permute(sit, dict(zip(SUITS, order, strict=True))), v)
    assert (a.fans, a.raw_total, a.extras["multiplier"], a.per_payer, a.net) == (
        b.fans, b.raw_total, b.extras["multiplier"], b.per_payer, b.net)


@settings(max_examples=150, deadline=None, suppress_health_check=HC)
@given(winning_situations(), st.booleans())
def test_gen_never_double_counts_a_kong(sit: dict[str, Any], kongs_count: bool) -> None:
    v = hupai.Variant("sichuan", gen_counts_kongs=kongs_count)
    r = hupai.sichuan.score(sit, v)
    h = sit["hand"]
    all_tiles = h["concealed"] + [h["win_tile"]] + [t for m in h["melds"] for t in m["tiles"]]
    quads = {t for t in all_tiles if all_tiles.count(t) == 4}
    kong_tiles = {m["tiles"][0] for m in h["melds"] if m["type"].startswith("kong")}
    expected = len(quads) if kongs_count else len(quads - kong_tiles)
    gen = sum(f.count for f in r.fans if f.id == "GEN")
    absorbed = sum(1 for f in r.fans if f.id in ("LONG_QI_DUI", "QING_LONG_QI_DUI"))
    assert gen == max(expected - absorbed, 0)
    assert gen <= len(quads)


ops = st.lists(
    st.tuples(st.integers(0, 6), st.sampled_from("ABCD"), st.sampled_from("ABCD"), st.integers(0, 300)),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(ops, st.sampled_from(["xuezhan", "xueliu", "single"]),
       st.sampled_from(["last_kong", "all_kongs", "refund_kong", "none"]))
def test_ledger_zero_sum_under_random_events(seq: list[tuple[int, str, str, int]], mode: str, hjzy: str) -> None:
    s = hupai.Settlement(variant=hupai.Variant("sichuan", mode=mode, hu_jiao_zhuan_yi=hjzy))
    for op, a, b, amt in seq:
        try:
            if op == 0:
                s.kong(a, "open", feeder=b)
            elif op == 1:
                s.kong(a, "added")
            elif op == 2:
                s.kong(a, "concealed")
            elif op == 3:
                s.win(a, amt, discarder=b, after_kong=amt % 2 == 0)
            elif op == 4:
                s.win(a, amt)
            elif op == 5:
                s.record("ADJUSTMENT", [(a, amt), (b, -amt - amt % 3)])
            else:
                s.penalty(a, [b], amt)
        except hupai.SettlementError:
            pass
        assert sum(s.balances.values()) == 0
    states = {seat: {"huazhu": i == 0, "da_jiao": 24 if i == 1 else None} for i, seat in enumerate(s.in_hand)}
    try:
        s.draw_end(states)
    except hupai.SettlementError:
        pass
    bal = s.balances
    assert sum(bal.values()) == 0
    totals = dict.fromkeys("ABCD", 0)
    for e in s.events:
        assert sum(e["deltas"].values()) == 0
        for p in e["payments"]:
            totals[p["payer"]] -= p["amount"]
            totals[p["payee"]] += p["amount"]
    assert totals == bal


def test_non_zero_sum_event_is_rejected() -> None:
    s = hupai.Settlement()
    with pytest.raises(hupai.SettlementError, match="zero-sum"):
        s.record("ADJUSTMENT", [("A", 5), ("B", -4)])
    with pytest.raises(hupai.SettlementError, match="unknown seat"):
        s.kong("Z", "added")
    with pytest.raises(hupai.SettlementError, match="feeder"):
        s.kong("A", "open")
    assert len(s) == 0 and s.balances == dict.fromkeys("ABCD", 0)


@pytest.mark.parametrize(
    ("hand", "match"),
    [
        ({"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1s", "1s", "2s", "2s"], "win_tile": "2s"}, "缺一门"),
        ({"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "E", "E", "2m", "2m"], "win_tile": "2m"}, "108"),
        ({"melds": [{"type": "chi", "tiles": ["1m", "2m", "3m"]}],
          "concealed": ["4m", "5m", "6m", "7m", "8m", "9m", "2p", "2p", "3p", "3p"], "win_tile": "3p"}, "吃"),
        ({"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "2m", "5m"], "win_tile": "8p"}, "not a winning hand"),
    ],
)
def test_invalid_sichuan_situations(hand: dict[str, Any], match: str) -> None:
    with pytest.raises(hupai.InvalidHandError, match=match):
        hupai.sichuan.score({"hand": hand})


def test_void_suit_and_ding_que() -> None:
    hand = {"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "2m", "2m"], "win_tile": "2m"}
    with pytest.raises(hupai.InvalidHandError, match="void suit"):
        hupai.sichuan.score({"hand": hand, "situation": {"void_suit": "p"}})
    with pytest.raises(hupai.InvalidHandError, match="void_suit"):
        hupai.sichuan.score({"hand": hand}, hupai.Variant("sichuan", ding_que=True))
    assert hupai.sichuan.score({"hand": hand, "situation": {"void_suit": "s"}}, hupai.Variant("sichuan", ding_que=True))


@pytest.mark.parametrize(
    ("switches", "match"),
    [
        ({"mode": "bloody"}, "xuezhan"),
        ({"zimo_bonus": 1}, "zimo_bonus"),
        ({"cap_fan": -1}, "cap_fan"),
        ({"no_such_switch": True}, "no switch"),
        ({"huan_san_zhang_direction": "dice"}, "conflicts with huan_san_zhang=false"),
        ({"ding_que_discard_first": True}, "conflicts with ding_que=false"),
        ({"fan_profile": "sbr_3fan_cap", "long_qi_dui_fan": 4}, "conflicts"),
        ({"cha_hua_zhu": "cap"}, "cap_multiplier"),
    ],
)
def test_rule_config_errors(switches: dict[str, Any], match: str) -> None:
    with pytest.raises(hupai.RuleConfigError, match=match):
        hupai.Variant("sichuan", **switches)


def test_describe_and_listing() -> None:
    listed = {v["id"]: v for v in hupai.variants()}
    assert "血战" in listed["sichuan"]["description"]
    v = hupai.Variant.load("sichuan").with_options(mode="xueliu", huan_san_zhang=True, huan_san_zhang_direction="dice")
    d = v.describe()
    assert {f["id"] for f in d["fans"]} >= {"PING_HU", "QING_LONG_QI_DUI", "GEN", "GANG_SHANG_PAO"}
    assert set(d["profiles"]) == {"qq_seed", "chengdu_multiplier_table", "billee1011_option_1", "sbr_3fan_cap"}
    assert d["rules"]["combine"] == "best_pattern_plus_doublings" and d["rules"]["chi_allowed"] is False
    sw = {s["name"]: s for s in d["switches"]}
    assert sw["mode"]["value"] == "xueliu" and sw["mode"]["default"] == "xuezhan"
    assert repr(v) == "Variant('sichuan', mode='xueliu', huan_san_zhang=True, huan_san_zhang_direction='dice')"


def test_xueliu_payers_stay_and_single_mode() -> None:
    s = hupai.Settlement(variant=hupai.Variant("sichuan", mode="xueliu"))
    s.win("A", 6)
    s.win("A", 6)
    assert s.balances == {"A": 36, "B": -12, "C": -12, "D": -12}


def test_max_win_value_situational() -> None:
    # 杠上花 / 自摸加番 only count in best_situational.
    v = hupai.Variant("sichuan", zimo_bonus="double")
    m = hupai.max_win_value({"melds": [{"type": "kong_concealed", "tiles": ["5s"] * 4}],
                             "concealed": ["2s", "2s", "2s", "3s", "3s", "3s", "8s", "8s", "9s", "9s"]}, v)
    assert m["ready"] and {w["tile"] for w in m["waits"]} == {"8s", "9s"}
    assert m["best"]["fan_total"] == 4  # 清对
    assert m["best_situational"]["fan_total"] == 6  # 清对 + 杠上花 + 自摸
    assert m["da_jiao"] == m["best"]["per_payer"] == 6 * 8
    assert not hupai.max_win_value("123m456m789m11m23p", void_suit="p")["ready"]


def test_score_result_dict_and_json() -> None:
    r = hupai.sichuan.score({"hand": {"concealed": ["1s","1s","2s","2s","4s","4s","5s","5s","6s","6s","8s","8s","9s"], "win_tile": "9s"}})
    d = r.to_dict()
    assert d["fans"][0]["id"] == "QING_QI_DUI" and d["extras"]["multiplier"] == 16 and d["decomposition"]["form"] == "seven_pairs"
    assert "清七对" in repr(r)
    import json

    assert json.loads(r.to_json()) == d


def test_cli_variants(capsys: pytest.CaptureFixture[str]) -> None:
    from hupai.cli import main

    assert main(["variants"]) == 0
    assert "sichuan" in capsys.readouterr().out
    assert main(["variants", "sichuan", "--set", "mode=xueliu"]) == 0
    out = capsys.readouterr().out
    assert "QING_LONG_QI_DUI" in out and 'mode = "xueliu"' in out
    assert main(["variants", "sichuan", "--set", "huan_san_zhang_direction=dice"]) == 2
    assert "conflicts" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("tiles", "fan_id", "fan_total"),
    [
        ("111222333m78999p", "DAI_YAO_JIU", 3),  # seed example: 123m 123m 123m 789p 99p
        ("222555888s88855m", "JIANG_DUI", 4),  # seed example
        ("11123777888999p", "QING_YAO_JIU", 5),  # seed example: 11p 123p 789p ×3
        ("11222244p557799m", "LONG_QI_DUI", 5),  # seed example: 减1根 → 根 0
        ("99887755221166p", "QING_QI_DUI", 5),  # the seed's "清对" example is a 清七对 shape (Q8)
    ],
)
def test_seed_pattern_examples(tiles: str, fan_id: str, fan_total: int) -> None:
    ts = [str(t) for t in hupai.parse_tiles(tiles)]
    win = ts.pop()
    r = hupai.sichuan.score({"hand": {"concealed": ts, "win_tile": win}})
    assert ids(r) == [fan_id]
    assert r.raw_total == fan_total
