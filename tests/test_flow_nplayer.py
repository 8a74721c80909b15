"""卡五星 (3 seats, 84 tiles) and 二人麻将 (2 seats, 71 of 136 tiles) at the table: the deal, 亮倒
and its obligations, the K3 restriction and forced end, 包胡, no kong on the last tile, the 杠上杠
chain, 漂, the 4-seat switch, 四归 scope, the 海底捞月 phase (invariants over 1,000 games each are in
test_flow_regional.py)."""

from __future__ import annotations

import json

import pytest

import hupai
from hupai.game import TILE_NAMES, Action, RandomBot, Table, arrange_wall, replay
from hupai.game.actions import CONCEALED_KONG, DECLARE_PIAO, DECLARE_READY, DISCARD, EXCHANGE, PASS, PUNG, WIN

KWX = hupai.Variant.load("kawuxing").with_options(piao=False)
ERREN = hupai.Variant.load("erren").with_options(opening_exchange=False)


def T(name: str) -> str:
    return name


def I(name: str) -> int:
    """The index of a tile in the count vectors of ``Table.hands``."""
    return hupai.Tile(name).index


def kinds(t: Table, seat: int) -> set[str]:
    return {a.kind for a in t.legal_actions(seat)}


def finish(t: Table, seed: int = 0) -> None:
    bots = [RandomBot(seed + k) for k in range(t.n)]
    while not t.done:
        s = t.to_act
        t.step(bots[s](t.observation(s), t.legal_actions(s)))


# ---------------------------------------------------------------------------------------- deal
def test_kawuxing_deals_84_tiles_to_three_seats() -> None:
    t = Table("kawuxing", seed=5)
    assert t.n == 3 and t.n_tiles == 84 and len(t.wall) == 84
    assert set(t.wall) == {TILE_NAMES[i] for i in range(9, 27)} | {"C", "F", "P"}  # 筒 条 中发白: no 万, no winds
    assert [sum(h) for h in t.hands] == [14, 13, 13]
    assert t.wall_remaining == 84 - 40
    # 漂 (switch piao, on by default): every seat declares an amount before play, dealer first.
    assert t.phase == "piao" and kinds(t, 0) == {DECLARE_PIAO}
    for s, amount in ((0, 2), (1, 0), (2, 1)):
        assert t.to_act == s
        t.step(Action(DECLARE_PIAO, s, value=amount))
    assert t.phase == "turn" and t.to_act == 0
    assert t.piao == [2, 0, 1]
    m = Table(KWX.with_options(suits="mp"), seed=5)
    assert set(m.wall) == {TILE_NAMES[i] for i in range(0, 18)} | {"C", "F", "P"} and m.phase == "turn"
    with pytest.raises(hupai.RuleConfigError):
        Table("kawuxing", seed=1, dealer=3)


def test_erren_plays_71_of_136_tiles() -> None:
    t = Table("erren", seed=5)
    assert t.n == 2 and len(t.wall) == 71 and len(t.pool) == 65 and t.n_tiles == 136
    assert sorted(t.wall + t.pool, key=I) == [TILE_NAMES[k] for k in range(34) for _ in range(4)]
    assert [sum(h) for h in t.hands] == [14, 13]
    assert t.wall_remaining == 71 - 27
    hua = [e for e in t.log if e["type"] == "hua_pai"]
    assert len(hua) == 1 and len(hua[0]["tiles"]) == 4  # 花牌: four face-up wall tiles
    finish(t)
    assert t.tile_count() == t.n_tiles and sum(t.result["balances"]) == 0  # type: ignore[index]


# ---------------------------------------------------------------------------------------- 亮倒
# The dealer declares 亮倒 by discarding 9s: 46s 123p 789p CCC FF waits on 5s only (卡五星).
D0 = "4s6s9s1p2p3p7p8p9pCCCFF"
S1 = "5s1s1s2s2s3s3s7s7s8s8s1pF"
S2 = "4p4p5p5p6p6pPP2p3p9p6s4s"


def _declared(v: hupai.Variant = KWX, draws: str = "2p P 3s") -> Table:
    t = Table(v, seed=0, wall=arrange_wall("kawuxing", [D0, S1, S2], draws))
    assert Action(DECLARE_READY, 0, T("9s")) in t.legal_actions(0)
    assert Action(DECLARE_READY, 0, T("C")) not in t.legal_actions(0)  # not ready after it
    t.step(Action(DECLARE_READY, 0, T("9s")))
    return t


def test_liangdao_obligations() -> None:
    t = _declared()
    assert t.hand_locked[0] and t.observation(1).declared == [True, False, False]
    ev = [e for e in t.log if e["type"] == "liangdao"]
    assert ev and ev[0]["waits"] == ["5s"]
    assert t.observation(2).revealed == {0: t.hands[0]}  # the hand is shown to everyone
    # K3: seat 1 may not discard 5s, a winning tile of the 亮倒 player.
    assert t.to_act == 1
    legal = t.legal_actions(1)
    assert Action(DISCARD, 1, T("5s")) not in legal and Action(DISCARD, 1, T("F")) in legal
    # A 亮倒 hand may not claim: seat 0 holds FF but is not offered the pung.
    t.step(Action(DISCARD, 1, T("F")))
    assert t.to_act == 2 and t.phase == "turn"
    t.step(Action(DISCARD, 2, T("9p")))
    # Its own turn: only the drawn tile goes out.
    assert t.to_act == 0 and t.legal_actions(0) == [Action(DISCARD, 0, T("3s"))]
    t.step(Action(DISCARD, 0, T("3s")))
    assert t.to_act == 1 and PUNG in kinds(t, 1)


def test_baohu_discarder_pays_both_shares() -> None:
    # With the K3 restriction off a non-亮倒 seat may feed the 亮倒 hand: 包胡.
    t = _declared(KWX.with_options(liangdao_discard_restriction=False))
    t.step(Action(DISCARD, 1, T("5s")))
    assert WIN in kinds(t, 0)
    t.step(Action(WIN, 0, T("5s")))
    assert t.done
    fans = {f for f, _c in t.wins[0]["fans"]}
    assert fans == {"KA_WU_XING", "LIANG_DAO"} and t.wins[0]["value"] == 4
    assert t.result["balances"] == [8, -8, 0]  # type: ignore[index]  # 2 × 4 from the discarder, seat 2 pays nothing


def test_baohu_with_piao() -> None:
    v = hupai.Variant.load("kawuxing").with_options(liangdao_discard_restriction=False)
    t = Table(v, seed=0, wall=arrange_wall("kawuxing", [D0, S1, S2], "2p P 3s"))
    for s, amount in ((0, 1), (1, 2), (2, 0)):
        t.step(Action(DECLARE_PIAO, s, value=amount))
    t.step(Action(DECLARE_READY, 0, T("9s")))
    t.step(Action(DISCARD, 1, T("5s")))
    t.step(Action(WIN, 0, T("5s")))
    # 包: 4 + 漂(1 + 2) for the discarder's share, 4 + 漂(1 + 0) for the covered share.
    assert t.result["balances"] == [12, -12, 0]  # type: ignore[index]
    assert replay(json.loads(json.dumps(t.log))).result == t.result


def test_k3_forced_end() -> None:
    # Seat 1 declares on 1112345678999p (waits 1p..9p); seat 2 then holds only 筒.
    d0 = "1s2s3s4s5s6s7s8s9sCCFFP"
    s1 = "1p1p1p2p3p4p5p6p7p8p9p9p9p"
    s2 = "1p2p2p3p4p4p5p6p6p7p8p8p9p"
    t = Table(KWX, seed=0, wall=arrange_wall("kawuxing", [d0, s1, s2], "1s 5p"))
    t.step(Action(DISCARD, 0, T("P")))
    t.step(Action(DECLARE_READY, 1, T("1s")))
    assert t.done and not t.wins  # every tile seat 2 holds wins for seat 1: the hand ends at once
    assert [e["type"] for e in t.log][-2:] == ["forced_end", "end"]
    ev = [e for e in t.result["ledger"]["events"] if e["kind"] == "FORCED_END"]  # type: ignore[index]
    assert ev and t.result["balances"] == [0, 8, -8]  # type: ignore[index]  # 清一色 ×4 · 亮倒 ×2 = 8 (cap)
    assert t.tile_count() == t.n_tiles


# ---------------------------------------------------------------------------------------- kongs
def test_no_kong_on_the_last_tile() -> None:
    hands = ["1s2s3s4s5s6s7s8s9s1p2p3pFF", "CCC1p1p2p2p4p5p6p7p8p9p", "4s4s5s5s6s6s7s7s8s8s9s9sP"]

    def after_draw(last: bool) -> Table:
        t = Table(KWX, seed=0, wall=arrange_wall("kawuxing", hands, "C"))
        if last:
            t.set_aside(t.wall_remaining - 1)  # only the next tile (C) is left to draw
        t.step(Action(DISCARD, 0, T("1s")))
        return t

    assert CONCEALED_KONG in kinds(after_draw(False), 1)
    t = after_draw(True)
    assert t.to_act == 1 and t.wall_remaining == 0
    assert CONCEALED_KONG not in kinds(t, 1)  # "玩家抓了最后一张牌，有杠不许杠"


def test_kong_chain_doubles() -> None:
    # The dealer kongs 1p; the replacement (the wall's last tile, the 4th P) allows a 2nd kong.
    d0 = "1p1p1p1pPPP2s3s4s5s6s7s9s"
    t = Table(KWX, seed=0, wall=arrange_wall("kawuxing", [d0, "2p3p4p5p6p7p8p9p2p3p4p5p6p", "1s1s1s8s8s8sCCCFFF9p"]))
    t.step(Action(CONCEALED_KONG, 0, T("1p")))
    assert Action(CONCEALED_KONG, 0, T("P")) in t.legal_actions(0)
    t.step(Action(CONCEALED_KONG, 0, T("P")))
    assert [k["chain"] for k in t.kongs] == [1, 2]
    finish(t)
    kongs = [e for e in t.result["ledger"]["events"] if e["kind"] == "KONG_INSTANT"]  # type: ignore[index]
    assert [e["deltas"]["E"] for e in kongs[:2]] == [4, 8]  # 暗杠 2 each; the 2nd of the chain ×2
    assert sum(t.result["balances"]) == 0  # type: ignore[index]


# ---------------------------------------------------------------------------------------- switches
def test_four_seated_one_rests() -> None:
    v = hupai.Variant.load("kawuxing").with_options(players=4)
    for i in range(20):
        t = Table(v, seed=i, dealer=i % 4)
        rest = (i % 4 + 3) % 4
        assert t.n == 4 and not t.active[rest] and sum(t.hands[rest]) == 0
        assert sorted(sum(h) for h in t.hands) == [0, 13, 13, 14]
        finish(t, i)
        assert t.tile_count() == t.n_tiles == 84
        assert t.result["balances"][rest] == 0 and sum(t.result["balances"]) == 0  # type: ignore[index]
        assert all(w["seat"] != rest for w in t.wins)
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant.load("kawuxing").with_options(players=2)


@pytest.mark.parametrize(
    ("scope", "an", "ming"),
    [("winning_tile", (4, []), (2, [])), ("half", (4, []), (4, ["MING_SI_GUI"])), ("full", (8, ["AN_SI_GUI"]), (4, ["MING_SI_GUI"]))],
)
def test_si_gui_scope(scope: str, an: tuple[int, list[str]], ming: tuple[int, list[str]]) -> None:
    v = hupai.Variant.load("kawuxing").with_options(si_gui_scope=scope)
    # Four 1p stand in the hand (not a kong); the winning tile is 9p.
    a = hupai.kawuxing.score(
        {"hand": {"concealed": [f"{r}p" for r in (1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9)], "win_tile": "9p"},
         "situation": {"self_drawn": True}},
        v,
    )
    assert (a.total, [f.id for f in a.fans if f.id.endswith("SI_GUI")]) == an
    # An exposed 555s pung whose 4th copy already stands in the hand.
    b = hupai.kawuxing.score(
        {"hand": {"concealed": ["5s", "6s", "7s", "2p", "3p", "4p", "8p", "8p", "9p", "9p"],
                  "melds": [{"type": "pung", "tiles": ["5s", "5s", "5s"]}], "win_tile": "9p"},
         "situation": {"self_drawn": True, "liangdao": True}},
        v,
    )
    assert (b.total, [f.id for f in b.fans if f.id.endswith("SI_GUI")]) == ming
    with pytest.raises(hupai.RuleConfigError):
        hupai.Variant.load("kawuxing").with_options(si_gui_scope="some")


# ---------------------------------------------------------------------------------------- 二人 海底捞月
E0 = "1p5p9p2s7sNWWSSCFPE"
READY = "1m2m3m6m7m8m4s5s6s2p3p4p9s"  # waits on 9s


def _exhausted(seat1: str) -> Table:
    """The 71 wall tiles used up at once (set aside); the unused pool starts with E, then 9s (the
    海底捞月 draws: a miss, then the winning tile)."""
    w = arrange_wall("erren", [E0, seat1])
    rest = w[27:]
    rest.remove("E")
    rest.remove("9s")
    wall = w[:27] + rest[:44] + ["E", "9s"] + rest[44:]
    t = Table(ERREN, seed=0, wall=wall)
    assert t.pool[:2] == ["E", "9s"]
    t.set_aside(t.wall_remaining)
    t.step(Action(DISCARD, 0, T("E")))
    return t


def test_erren_haidi_phase() -> None:
    t = _exhausted(READY)
    assert any(e["type"] == "haidi" and e["seat"] == 1 for e in t.log)
    assert t.phase == "haidi" and t.to_act == 1
    assert t.legal_actions(1) == [Action(DISCARD, 1, T("E"))]  # a miss goes out, unclaimable
    t.step(Action(DISCARD, 1, T("E")))
    assert t.legal_actions(1) == [Action(WIN, 1, T("9s")), Action(DISCARD, 1, T("9s"))]
    t.step(Action(WIN, 1, T("9s")))
    assert t.done and "HAI_DI_LAO_YUE" in {f for f, _c in t.wins[0]["fans"]}
    bal = t.result["balances"]  # type: ignore[index]
    assert bal[1] == t.wins[0]["value"] > 0 and sum(bal) == 0


def test_erren_nobody_ready_is_a_draw() -> None:
    t = _exhausted("1m4m7m2p5p8p3s6s9sEESS")
    assert t.done and t.result["exhausted"] and t.result["balances"] == [0, 0]  # type: ignore[index]
    assert not any(e["type"] == "haidi" for e in t.log)


def test_erren_bao_ting_freezes_the_hand() -> None:
    t = Table(ERREN, seed=0, wall=arrange_wall("erren", [E0, READY.replace("9s", "1s")], "9m 2m"))
    t.step(Action(DISCARD, 0, T("E")))
    assert t.to_act == 1
    # Seat 1 drew 9m: discarding 1s or 9m leaves it ready (报听 offered with those discards).
    ready = {a.tile for a in t.legal_actions(1) if a.kind == DECLARE_READY}
    assert T("9m") in ready and T("1s") in ready
    t.step(Action(DECLARE_READY, 1, T("1s")))
    assert t.hand_locked[1]
    t.step(Action(DISCARD, 0, T("1p")))
    # No chow of 1p (seat 1 holds 2p3p): a 报听 hand does not claim; it discards what it draws.
    assert t.phase == "turn" and t.to_act == 1
    x = t.drawn
    assert x is not None and {a for a in t.legal_actions(1) if a.kind != WIN} == {Action(DISCARD, 1, x)}


def test_erren_opening_exchange() -> None:
    t = Table("erren", seed=3, dealer=1)
    assert t.phase == "exchange" and t.to_act == 1
    assert t.legal_actions(1)[0] == Action(PASS, 1)
    a, b = [TILE_NAMES[x] for x in range(34) if t.hands[1][x]][:2]
    t.step(Action(EXCHANGE, 1, tiles=(a,)))
    t.step(Action(EXCHANGE, 1, tiles=(b,)))
    assert t.to_act == 1 and sum(t.hands[1]) == 12 and t.tile_count() == t.n_tiles
    head = t.pool[:2]
    t.step(Action(PASS, 1))
    assert sum(t.hands[1]) == 14 and t.pool[-2:] == [a, b] and len(t.pool) == 65
    assert all(t.hands[1][I(x)] >= 1 for x in head)
    assert t.to_act == 0 and t.phase == "exchange"
    t.step(Action(PASS, 0))
    assert t.phase == "turn" and t.to_act == 1 and sum(t.hands[0]) == 13
    assert [e["n"] for e in t.log if e["type"] == "exchange"] == [2, 0]
    finish(t, 3)
    assert t.tile_count() == t.n_tiles
    assert replay(json.loads(json.dumps(t.log))).result == t.result


def test_erren_di_he_and_tian_ting() -> None:
    # 地和: the non-dealer wins on the dealer's first discard (役满 13).
    t = Table(ERREN, seed=0, wall=arrange_wall("erren", ["1p5p9p2s7sNWWSSCFP9s", READY]))
    t.step(Action(DISCARD, 0, T("9s")))
    assert WIN in kinds(t, 1)
    t.step(Action(WIN, 1, T("9s")))
    assert {f for f, _c in t.wins[0]["fans"]} == {"DI_HE"} and t.result["balances"] == [-13, 13]  # type: ignore[index]
    # 天听: 报听 on the first draw, discarding the drawn tile; the later win scores it.
    t = Table(ERREN, seed=0, wall=arrange_wall("erren", [E0, READY], "1s 9s"))
    t.step(Action(DISCARD, 0, T("E")))
    t.step(Action(DECLARE_READY, 1, T("1s")))
    assert [e.get("tian_ting") for e in t.log if e["type"] == "bao_ting"] == [True]
    t.step(Action(DISCARD, 0, T("9s")))
    t.step(Action(WIN, 1, T("9s")))
    fans = {f for f, _c in t.wins[0]["fans"]}
    assert "TIAN_TING" in fans and "MEN_QING_BAO_TING" not in fans and "DI_HE" not in fans
    bal = t.result["balances"]  # type: ignore[index]
    assert bal[1] == t.wins[0]["value"] and sum(bal) == 0
