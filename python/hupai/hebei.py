"""河北麻将 推倒胡 (``hebei``): thin aliases of the generic API — ``score`` is
``hupai.score(situation, variant="hebei")``, ``settle`` is ``hupai.settle_hand(record, "hebei")``
(the hand record format: ``presets/README.md``; this preset's record keys and score extras:
``docs/presets.md``)."""

from __future__ import annotations

from hupai._presets import scorer, settler

__all__ = ["score", "settle"]

score = scorer("hebei")
settle = settler("hebei")
