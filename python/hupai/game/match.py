"""``Match``: hands in a row at one table (the core's ``hupai._core.Match``).

Between hands the core decides by the preset's own rules the next dealer (``rules.dealer_rotation``;
欢乐3D / 上海 switches) and what carries over (第4稿 上楼 floor, 上海 pending 开宝/黄番, 陕西 下炮子
defaults, 字牌 ``next_dealer``); the round wind advances after as many changes of dealer as there are
seats; ``scores`` are the running totals. Hand ``i`` is dealt with ``game_seed(seed, i)``.
"""

from hupai._core import Match

__all__ = ["Match"]
