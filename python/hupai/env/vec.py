"""``VecEnv``: ``n`` hands of one variant stepped in one core call (``hupai._core.VecEnv``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hupai._core import Table, Variant
from hupai._core import VecEnv as _CoreVecEnv
from hupai._core import env_encoding, table_encode
from hupai.errors import IllegalActionError

__all__ = ["VecEnv", "encode", "encoding", "random_actions"]


def _variant(variant: Variant | str, switches: Mapping[str, Any]) -> Variant:
    if isinstance(variant, Variant):
        return variant.with_options(**switches) if switches else variant
    return Variant(variant, **switches)


def encoding(variant: Variant | str, **switches: Any) -> dict[str, Any]:
    """The encoding of a variant: ``family``, ``seats``, ``action_names`` (id → name),
    ``obs_shape`` ``(planes, width)``, ``planes`` (``(name, meaning)`` of each plane), ``recent``
    (the discards per seat written in order)."""
    return env_encoding(_variant(variant, switches))


def encode(table: Table, seat: int | None = None) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_], list[int]]:
    """A ``hupai.Table`` now, seen by ``seat`` (default: the seat to act): ``(obs, mask, ids)``
    where ``ids[k]`` is the action id of ``table.legal_actions(seat)[k]``."""
    (obs, mask), ids = table_encode(table, seat)
    return obs, mask, ids


def random_actions(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One uniformly random legal action id per row of ``mask`` (rows without a legal id: -1)."""
    u = rng.random(mask.shape, dtype=np.float32)
    u[~mask] = -1.0
    out = u.argmax(axis=1).astype(np.int64)
    out[~mask.any(axis=1)] = -1
    return out


class VecEnv:
    """``n`` hands of ``variant`` stepped together in one core call (GIL released).

    ``learners``: the seats played through :meth:`step` (default: all; every decision of every
    seat is then a step, ``seat`` says whose); the other seats are built-in bots in the core
    (``opponents``: ``"random"``, ``"greedy"``, ``"defensive"`` or one per seat). After
    :meth:`step` the bots play until a learner seat is to act. A hand that ends gives each seat
    its settlement in ``reward`` (``(n, seats)``) and ``done``; with ``auto_reset`` the next hand is
    dealt at once and ``obs`` / ``mask`` are already the new hand's. Table ``i``'s hand ``k`` is
    dealt with ``game_seed(game_seed(seed, i), k)`` by dealer ``(i + k) % seats`` (``hand(i)``
    gives the current ``(seed, dealer)``: ``hupai.Table(variant, seed, dealer=dealer)`` deals the
    same hand). ``threads`` > 1 steps the tables on that many threads (same results).

    The arrays returned are buffers rewritten by the next call: copy what you keep.
    """

    def __init__(
        self,
        variant: Variant | str,
        n: int,
        seed: int = 0,
        *,
        learners: Sequence[int] | None = None,
        opponents: str | Sequence[str] = "greedy",
        auto_reset: bool = True,
        threads: int = 1,
        **switches: Any,
    ) -> None:
        self.variant = _variant(variant, switches)
        self._env = _CoreVecEnv(
            self.variant,
            n,
            seed,
            None if learners is None else list(learners),
            opponents if isinstance(opponents, str) else list(opponents),
            auto_reset,
            threads,
        )
        self.n = n
        self.seats: int = self._env.seats
        self.learners: list[int] = self._env.learners
        self.action_names: list[str] = self._env.action_names
        self.n_actions: int = self._env.n_actions
        self.obs_shape: tuple[int, int] = self._env.obs_shape

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return f"VecEnv({self.variant.id!r}, n={self.n}, learners={self.learners})"

    @property
    def obs(self) -> npt.NDArray[np.uint8]:
        """``(n, planes, width)`` uint8: the observation of each table's seat to act."""
        return self._env.obs

    @property
    def mask(self) -> npt.NDArray[np.bool_]:
        """``(n, actions)`` bool: the legal action ids of each table's seat to act."""
        return self._env.mask

    @property
    def seat(self) -> npt.NDArray[np.int64]:
        """``(n,)`` int64: each table's seat to act (-1: the hand is over, waiting for reset)."""
        return self._env.seat

    @property
    def reward(self) -> npt.NDArray[np.float32]:
        """``(n, seats)`` float32: each seat's settlement of the hands that ended in the last step."""
        return self._env.reward

    @property
    def done(self) -> npt.NDArray[np.bool_]:
        """``(n,)`` bool: a hand ended in the last step."""
        return self._env.done

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        """Deal every table afresh (``seed``: a new master seed); returns ``(obs, mask, seat)``."""
        self._env.reset(seed)
        return self.obs, self.mask, self.seat

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """One action id per table (-1: leave it); returns ``(obs, mask, seat, reward, done)``.
        An id whose mask is false raises ``IllegalActionError`` and no table moves."""
        raw = np.asarray(actions)
        if raw.dtype.kind not in "iu" or raw.shape != (self.n,):
            raise IllegalActionError(f"step: an ({self.n},) integer array of action ids (-1: leave the table), got {raw.dtype} of shape {raw.shape}")
        a = np.ascontiguousarray(raw, dtype=np.int64)
        self._env.step(a)
        return self.obs, self.mask, self.seat, self.reward, self.done

    def stats(self) -> dict[str, Any]:
        """Totals: ``episodes``, ``returns`` and ``wins`` per seat, ``exhausted``, ``steps``
        (learner decisions), ``decisions`` (all); per table: ``last_return``, ``last_steps``,
        ``hands``."""
        return self._env.stats()

    def hand(self, i: int) -> tuple[int, int]:
        """Table ``i``'s current hand: ``(seed, dealer)``."""
        return self._env.hand(i)

    def log(self, i: int) -> list[dict[str, Any]]:
        """Table ``i``'s current hand's event log."""
        return self._env.log(i)

    def last_log(self, i: int) -> list[dict[str, Any]] | None:
        """Table ``i``'s last finished hand's event log (``None`` before the first)."""
        return self._env.last_log(i)

    def legal(self, i: int) -> tuple[list[Any], list[int]]:
        """Table ``i``'s legal actions (``hupai.Action``) and their ids."""
        return self._env.legal(i)

    def legal_ids(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Every table's legal ids at once: ``(ids, offsets)`` — table ``i``'s are
        ``ids[offsets[i]:offsets[i + 1]]`` (the true columns of ``mask[i]``, cheaper to read
        than a wide mask: 斗地主 has 27,853 ids, 够级 93,957)."""
        return self._env.legal_ids()

    def sample(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """One uniformly random legal id per table (-1 where none), drawn in numpy from
        :meth:`legal_ids` — the same distribution as :func:`random_actions` on ``mask``, without
        scanning the mask."""
        ids, off = self.legal_ids()
        cnt = np.diff(off)
        k = (rng.random(self.n) * cnt).astype(np.int64)
        out = np.full(self.n, -1, dtype=np.int64)
        has = cnt > 0
        out[has] = ids[off[:-1][has] + k[has]]
        return out

    def observe(self, i: int, seat: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]:
        """Any seat's view of table ``i``: ``(obs, mask)`` (the mask is all false unless the seat is to act)."""
        return self._env.observe(i, seat)
