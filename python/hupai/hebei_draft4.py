"""麻将规则（第4稿） (河北/京津) (``hebei_draft4``): thin aliases of the generic API — ``score`` is
``hupai.score(situation, variant="hebei_draft4")``, ``settle`` is ``hupai.settle_hand(record, "hebei_draft4")``
(the hand record format: ``presets/README.md``; this preset's record keys and score extras:
``docs/presets.md``)."""

from __future__ import annotations

from hupai._presets import scorer, settler

__all__ = ["score", "settle"]

score = scorer("hebei_draft4")
settle = settler("hebei_draft4")
