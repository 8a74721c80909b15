"""上海麻将 清混碰 (``shanghai``): thin aliases of the generic API — ``score`` is
``hupai.score(situation, variant="shanghai")``, ``settle`` is ``hupai.settle_hand(record, "shanghai")``
(the hand record format: ``presets/README.md``; this preset's record keys and score extras:
``docs/presets.md``)."""

from __future__ import annotations

from hupai._presets import scorer, settler

__all__ = ["score", "settle"]

score = scorer("shanghai")
settle = settler("shanghai")
