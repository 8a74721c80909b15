"""The RL environment of the card games (斗地主, 够级, 顶牛): the encoding against the table's own legal
actions over random states, VecEnv hands replayed through ``hupai.Table``, illegal ids refused with
nothing changed, rlcard's ids under the rlcard profile, logs → arrays, and PettingZoo's ``api_test``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import hupai
from hupai import env as henv
from hupai._core import table_seats
from hupai.errors import IllegalActionError

CARDS = ["doudizhu_qq", "doudizhu_contest", "dingniu", "gouji"]
RLCARD = {"single_kickers": "no_adjacent_triple"}
# (variant, switches, hands): 够级 hands are long (six seats, 216 cards).
VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    ("doudizhu_qq", {}, 12),
    ("doudizhu_qq", {"rob": True, "show_hand": True}, 8),
    ("doudizhu_contest", {}, 8),
    ("doudizhu_qq", RLCARD, 6),
    ("dingniu", {}, 30),
    ("gouji", {}, 1),
]


@pytest.mark.parametrize(("vid", "sw", "hands"), VARIANTS)
def test_card_encoding_matches_the_tables_legal_actions(vid: str, sw: dict[str, Any], hands: int) -> None:
    """Over random states: every legal action of the table has its own id, the mask is exactly
    those ids, each id's name is its action, and every seat's observation has the documented shape
    (a seat not to act has an empty mask)."""
    v = hupai.Variant(vid, **sw)
    info = henv.encoding(v)
    names = info["action_names"]
    assert info["family"] == "cards"
    assert len(set(names)) == len(names)
    assert len(info["planes"]) == info["obs_shape"][0]
    rng = np.random.default_rng(1)
    states = 0
    for g in range(hands):
        t = hupai.Table(v, seed=g, dealer=g % table_seats(v))
        while not t.done and states < 400:
            legal = t.legal_actions()
            obs, mask, ids = henv.encode(t)
            assert obs.shape == tuple(info["obs_shape"]) and obs.dtype == np.uint8
            assert len(ids) == len(legal) == len(set(ids))
            assert np.flatnonzero(mask).tolist() == sorted(ids)
            for a, i in zip(legal, ids):
                name = names[i]
                if a.kind == "play":
                    assert name.startswith("play ")
                elif a.kind in ("pass", "call", "rob", "kou", "open", "lay", "yield"):
                    assert name.split()[0] in (a.kind, "open_pair"), (name, a)
            for s in range(table_seats(v)) if states % 4 == 0 else []:
                o, m, _ = henv.encode(t, s)
                assert o.shape == obs.shape
                assert m.any() == (s == t.to_act)
            t.step(legal[int(rng.integers(len(legal)))])
            states += 1
    assert states > 50


@pytest.mark.parametrize("vid", CARDS)
def test_card_vec_env_episode_replays_through_table(vid: str) -> None:
    """A VecEnv hand (every seat a learner) replayed through hupai.Table from ``hand(i)`` with the
    same action ids gives the same log and rewards."""
    n = 3
    env = henv.VecEnv(vid, n, seed=11)
    rng = np.random.default_rng(0)
    starts = [env.hand(i) for i in range(n)]
    taken: list[list[int]] = [[] for _ in range(n)]
    finished: dict[int, tuple[list[int], tuple[int, int], np.ndarray, list[dict[str, object]]]] = {}
    for _ in range(20000):
        acts = env.sample(rng)
        assert env.mask[np.arange(n), acts].all()
        for i in range(n):
            taken[i].append(int(acts[i]))
        _obs, _mask, _seat, reward, done = env.step(acts)
        for i in np.flatnonzero(done):
            if i not in finished:
                finished[int(i)] = (taken[i][:], starts[i], reward[i].copy(), env.last_log(int(i)))
            taken[i] = []
            starts[i] = env.hand(int(i))
        if len(finished) == n:
            break
    assert len(finished) == n
    for i, (acts_i, (seed, dealer), reward, log) in finished.items():
        t = hupai.Table(vid, seed=seed, dealer=dealer)
        for a in acts_i:
            legal = t.legal_actions()
            _o, _m, ids = henv.encode(t)
            t.step(legal[ids.index(a)])
        assert t.done
        assert t.log == log
        assert list(reward) == [float(b) for b in t.balances]
        assert sum(reward) == 0


@pytest.mark.parametrize("vid", CARDS)
def test_card_illegal_ids_change_nothing(vid: str) -> None:
    env = henv.VecEnv(vid, 2, seed=4)
    before = (env.obs.copy(), env.mask.copy(), env.seat.copy(), env.log(0), env.log(1))
    illegal = np.array([int(np.flatnonzero(~env.mask[i])[0]) for i in range(2)])
    legal_first = np.array([int(np.flatnonzero(env.mask[0])[0]), int(illegal[1])])
    for bad in (illegal, legal_first, np.array([env.n_actions, -1]), np.array([2**40, 0])):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert (env.obs == before[0]).all() and (env.mask == before[1]).all()
        assert (env.seat == before[2]).all()
        assert env.log(0) == before[3] and env.log(1) == before[4]


@pytest.mark.parametrize("vid", CARDS)
def test_card_vec_env_with_bots_sample_and_stats(vid: str) -> None:
    """Seat 0 learns, the others are the core's greedy bots; ``sample`` draws legal ids only,
    returns are zero-sum and equal the rewards handed out; legal_ids agrees with the mask."""
    env = henv.VecEnv(vid, 4, seed=3, learners=[0], opponents="greedy")
    rng = np.random.default_rng(2)
    total = np.zeros(env.seats)
    steps = {"gouji": 600}.get(vid, 400)
    for _ in range(steps):
        assert (env.seat == 0).all()
        ids, off = env.legal_ids()
        for i in range(4):
            assert sorted(ids[off[i] : off[i + 1]].tolist()) == np.flatnonzero(env.mask[i]).tolist()
        _o, _m, _s, reward, _d = env.step(env.sample(rng))
        total += reward.sum(axis=0)
    st = env.stats()
    assert st["episodes"] >= 1
    assert np.allclose(total, st["returns"])
    assert abs(sum(st["returns"])) < 1e-6


def test_legal_ids_and_sample_wait_with_a_finished_hand() -> None:
    """Without auto_reset a finished hand has no legal ids, ``sample`` gives -1 there, and the
    ids of the other tables still match their masks."""
    env = henv.VecEnv("dingniu", 2, seed=6, auto_reset=False)
    rng = np.random.default_rng(1)
    for _ in range(200):
        env.step(env.sample(rng))
        if (env.seat == -1).any():
            break
    i = int(np.flatnonzero(env.seat == -1)[0])
    ids, off = env.legal_ids()
    assert off[i] == off[i + 1] and env.sample(rng)[i] == -1
    assert env.legal(i) == ([], [])
    j = 1 - i
    if env.seat[j] >= 0:
        assert sorted(ids[off[j] : off[j + 1]].tolist()) == np.flatnonzero(env.mask[j]).tolist()


def test_doudizhu_rlcard_profile_uses_rlcards_ids() -> None:
    """Under the rlcard profile's move rules a VecEnv step with rlcard id k plays rlcard 1.2.0's
    move k (its ``action_space``), pass is rlcard's 27,471, and the auction block follows."""
    pytest.importorskip("rlcard")
    from rlcard.games.doudizhu.utils import ACTION_2_ID, ID_2_ACTION

    info = henv.encoding("doudizhu_qq", **RLCARD)
    names = info["action_names"]
    assert len(ACTION_2_ID) == 27472 and names[27471] == "pass" == ID_2_ACTION[27471]
    assert names[27472:] == ["bid 1", "bid 2", "bid 3", "call", "rob", "show", "no_show"]
    rl = "3456789TJQKA2BR"
    ours = "3456789TJQKA2xX"
    tr = str.maketrans(rl, ours)
    for k in range(0, 27471, 97):
        assert names[k] == "play " + ID_2_ACTION[k].translate(tr), k
    assert henv.encoding("doudizhu_qq")["action_names"][0] == "pass"  # hupai encoding otherwise

    env = henv.VecEnv("doudizhu_qq", 4, seed=8, **RLCARD)
    rng = np.random.default_rng(5)
    plays = 0
    for _ in range(600):
        acts = env.sample(rng)
        expect = []
        for i in range(4):
            legal, ids = env.legal(i)
            a = legal[ids.index(int(acts[i]))]
            expect.append((a, int(acts[i])))
        logs_before = [len(env.log(i)) for i in range(4)]
        env.step(acts)
        for i, (a, k) in enumerate(expect):
            if a.kind != "play":
                continue
            plays += 1
            cards = "".join(sorted(ID_2_ACTION[k].translate(tr), key=ours.index))
            assert "".join(sorted(a.tiles, key=ours.index)) == cards
            log = env.last_log(i) if env.done[i] else env.log(i)
            rec = log[logs_before[i]] if not env.done[i] else None
            if rec is not None:
                assert rec["type"] == "action" and rec["kind"] == "play"
                assert "".join(sorted(rec["tiles"], key=ours.index)) == cards
    assert plays > 500


def test_card_logs_to_arrays() -> None:
    res = hupai.simulate("doudizhu_qq", 5, agents="greedy", seed=4, keep_logs=True)
    logs = [r["log"] for r in res.records]
    d = henv.from_logs(logs)
    m = len(d["action"])
    assert m > 50
    assert d["obs"].shape == (m, 23, 15)
    assert d["mask"][np.arange(m), d["action"]].all()
    bal = [r["balances"] for r in res.records]
    for k in range(m):
        assert d["reward"][k] == bal[d["hand"][k]][d["seat"][k]]


@pytest.mark.parametrize("vid", CARDS)
def test_card_pettingzoo_api(vid: str) -> None:
    from pettingzoo.test import api_test

    env = henv.make(vid, seed=3)
    api_test(env, num_cycles=60 if vid == "gouji" else 150, verbose_progress=False)


def test_docs_list_every_card_plane_and_block() -> None:
    import pathlib

    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    for vid in CARDS:
        info = henv.encoding(vid)
        for name, _meaning in info["planes"]:
            assert f"`{name.split('[')[0]}`" in text, (vid, name)
    sizes = {"doudizhu_qq": 27853, "doudizhu_contest": 27853, "dingniu": 58, "gouji": 93957}
    for vid, n in sizes.items():
        assert len(henv.encoding(vid)["action_names"]) == n, vid
        assert f"{n:,}" in text or str(n) in text, vid
