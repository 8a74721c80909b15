"""The RL environment (``hupai.env``): the encoding over random states of every table-played preset,
VecEnv episodes replayed through ``hupai.Table``, logs → arrays, and PettingZoo's ``api_test``."""

from __future__ import annotations

import numpy as np
import pytest

import hupai
from hupai import env as henv
from hupai._core import table_seats
from hupai.errors import HupaiError, IllegalActionError

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
# Pre-play phases and declarations that are switched off by default.
SWITCHED = [
    ("sichuan", {"ding_que": True, "huan_san_zhang": True}),
    ("sichuan", {"mode": "xueliu"}),
    ("hebei", {"bao_ting": "required"}),
    ("kawuxing", {"players": 4}),
]


def _variants() -> list[tuple[str, dict[str, object]]]:
    return [(p, {}) for p in PRESETS] + SWITCHED


@pytest.mark.parametrize(("vid", "sw"), _variants())
def test_encoding_round_trip_over_random_states(vid: str, sw: dict[str, object]) -> None:
    """Every legal action maps to a unique id, the mask is exactly the legal set, and the
    observation of every seat has the documented shape."""
    v = hupai.Variant(vid, **sw)
    info = henv.encoding(v)
    names = info["action_names"]
    assert len(set(names)) == len(names)
    assert len(info["planes"]) == info["obs_shape"][0]
    rng = np.random.default_rng(1)
    states = 0
    for g in range(12):
        t = hupai.Table(v, seed=g, dealer=g % table_seats(v))
        while not t.done:
            legal = t.legal_actions()
            obs, mask, ids = henv.encode(t)
            assert obs.shape == tuple(info["obs_shape"]) and obs.dtype == np.uint8
            assert len(ids) == len(legal) == len(set(ids))
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
            for a, i in zip(legal, ids):
                # the id's name says the action's kind
                assert names[i].split()[0].startswith(a.kind) or a.kind == "chow" or a.kind in ("declare_ting", "declare_ready") or a.kind == "exchange"
            for s in range(table_seats(v)):
                o, m, _ = henv.encode(t, s)
                assert o.shape == obs.shape
                assert m.any() == (s == t.to_act)
            t.step(legal[int(rng.integers(len(legal)))])
            states += 1
    assert states > 100


@pytest.mark.parametrize("vid", ["sichuan", "mcr", "kawuxing", "zipai_hunan"])
def test_vec_env_episode_replays_through_table(vid: str) -> None:
    """A VecEnv hand (every seat a learner) replayed through hupai.Table with the same seed and
    actions gives the same events and rewards."""
    env = henv.VecEnv(vid, 4, seed=11)
    rng = np.random.default_rng(0)
    starts = [env.hand(i) for i in range(4)]
    taken: list[list[int]] = [[] for _ in range(4)]
    finished: dict[int, tuple[list[int], tuple[int, int], np.ndarray, list[dict[str, object]]]] = {}
    for _ in range(5000):
        acts = henv.random_actions(env.mask, rng)
        for i in range(4):
            taken[i].append(int(acts[i]))
        _obs, _mask, _seat, reward, done = env.step(acts)
        for i in np.flatnonzero(done):
            if i not in finished:
                finished[int(i)] = (taken[i][:], starts[i], reward[i].copy(), env.last_log(int(i)))
            taken[i] = []
            starts[i] = env.hand(int(i))
        if len(finished) == 4:
            break
    assert len(finished) == 4
    for i, (acts_i, (seed, dealer), reward, log) in finished.items():
        t = hupai.Table(vid, seed=seed, dealer=dealer)
        for a in acts_i:
            legal = t.legal_actions()
            _o, _m, ids = henv.encode(t)
            t.step(legal[ids.index(a)])
        assert t.done
        assert t.log == log
        assert list(reward) == [float(b) for b in t.balances]


def test_vec_env_with_bots_and_stats() -> None:
    env = henv.VecEnv("sichuan", 8, seed=3, learners=[0], opponents="greedy")
    rng = np.random.default_rng(2)
    total = np.zeros(4)
    for _ in range(3000):
        assert (env.seat == 0).all()
        _o, _m, _s, reward, _d = env.step(henv.random_actions(env.mask, rng))
        total += reward.sum(axis=0)
    st = env.stats()
    assert st["episodes"] > 20
    assert np.allclose(total, st["returns"])
    assert abs(sum(st["returns"])) < 1e-6  # zero-sum
    # greedy opponents beat a random learner
    assert st["returns"][0] < 0
    # each finished hand replays from its log
    for i in range(8):
        log = env.last_log(i)
        assert log is not None and hupai.replay(log).done


def test_vec_env_is_deterministic_and_threads_agree() -> None:
    def run(threads: int) -> tuple[np.ndarray, dict[str, object]]:
        env = henv.VecEnv("mcr", 6, seed=5, threads=threads)
        rng = np.random.default_rng(9)
        for _ in range(400):
            env.step(henv.random_actions(env.mask, rng))
        return env.obs.copy(), env.stats()

    (a, sa), (b, sb) = run(1), run(2)
    assert (a == b).all()
    assert sa["returns"] == sb["returns"] and sa["episodes"] == sb["episodes"]


def test_vec_env_refuses_bad_input() -> None:
    env = henv.VecEnv("mcr", 2, seed=1)
    illegal = np.array([int(np.flatnonzero(~env.mask[i])[0]) for i in range(2)])
    before = env.obs.copy()
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert (env.obs == before).all()
    with pytest.raises(IllegalActionError):
        env.step(np.array([0, 1, 2]))
    with pytest.raises(IllegalActionError):
        env.step(np.array([0.0, 1.0]))  # ids are integers, never rounded
    with pytest.raises(HupaiError):
        henv.VecEnv("mcr", 2, no_such_switch=True)
    with pytest.raises(HupaiError):
        henv.VecEnv("mcr", 2, learners=[])
    with pytest.raises(HupaiError):
        henv.VecEnv("mcr", 2, learners=[7])
    with pytest.raises(HupaiError):
        henv.VecEnv("mcr", 2, opponents="clever")
    with pytest.raises(HupaiError):
        henv.VecEnv("mcr", 0)


def test_no_auto_reset_waits() -> None:
    env = henv.VecEnv("mcr", 1, seed=2, auto_reset=False)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        _o, _m, seat, reward, done = env.step(henv.random_actions(env.mask, rng))
        if done[0]:
            break
    assert done[0] and seat[0] == -1 and not env.mask.any()
    _o, _m, seat, reward, done = env.step(np.array([-1]))
    assert not done[0] and not reward.any()
    env.reset()
    assert env.seat[0] >= 0


def test_logs_to_arrays() -> None:
    res = hupai.simulate("sichuan", 6, agents="greedy", seed=4, keep_logs=True)
    logs = [r["log"] for r in res.records]
    d = henv.from_logs(logs)
    m = len(d["action"])
    assert m > 100
    assert d["obs"].shape[0] == d["mask"].shape[0] == m
    assert d["mask"][np.arange(m), d["action"]].all()  # the action taken was legal
    bal = [r["balances"] for r in res.records]
    for k in range(m):
        assert d["reward"][k] == bal[d["hand"][k]][d["seat"][k]]
    with pytest.raises(HupaiError):
        henv.from_logs([logs[0][:-30] + "]"])


def test_from_trajectories(tmp_path: object) -> None:
    import pathlib

    p = pathlib.Path(str(tmp_path)) / "t.jsonl"
    hupai.simulate("zipai_hunan", 4, agents="greedy", seed=2, trajectories=p)
    d = henv.from_trajectories(p)
    assert len(d["action"]) > 10 and set(d["hand"].tolist()) <= {0, 1, 2, 3}


@pytest.mark.parametrize("vid", PRESETS)
def test_pettingzoo_api(vid: str) -> None:
    from pettingzoo.test import api_test

    env = henv.make(vid, seed=3)
    api_test(env, num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("vid", ["sichuan", "zipai_hunan"])
def test_pettingzoo_seed_determinism(vid: str) -> None:
    def play(seed: int) -> list[int]:
        env = henv.make(vid)
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = []
        for agent in env.agent_iter():
            obs, rew, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            out.append(a)
            env.step(a)
        return out

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_bc_linear_example_runs_on_a_small_budget() -> None:
    """examples/bc_linear.py end to end (CI budget; the full run is 600 + 1,000 hands)."""
    import pathlib
    import subprocess
    import sys

    script = pathlib.Path(__file__).resolve().parent.parent / "examples" / "bc_linear.py"
    out = subprocess.run(
        [sys.executable, str(script), "--train-hands", "40", "--eval-hands", "100", "--epochs", "1", "--envs", "16"],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    assert "linear BC policy vs 3 random agents: won" in out and "/100 hands" in out


def test_docs_rl_examples_run() -> None:
    """Every ```python block of docs/rl.md runs as written."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    for b in blocks:
        exec(compile(b, "docs/rl.md", "exec"), {})


def test_docs_list_every_plane_and_the_base_actions() -> None:
    """The plane tables of docs/rl.md name every plane the core writes."""
    import pathlib

    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    for vid in ("mcr", "zipai_hunan"):
        info = henv.encoding(vid)
        for name, _meaning in info["planes"]:
            assert f"`{name.split('[')[0]}`" in text, name
    assert henv.encoding("mcr")["action_names"][34:39] == ["chow_low", "chow_mid", "chow_high", "pung", "kong"]
    sizes = {"mcr": 109, "shanghai": 109, "huanle3d": 109, "hebei_draft4": 109, "sichuan": 109, "shaanxi": 114}
    sizes |= {"hebei": 143, "wuhan": 143, "kawuxing": 147, "erren": 177, "zipai_hunan": 192, "zipai_guilin": 192}
    for vid, n in sizes.items():
        assert len(henv.encoding(vid)["action_names"]) == n, vid
    assert len(henv.encoding("sichuan", ding_que=True, huan_san_zhang=True)["action_names"]) == 607
