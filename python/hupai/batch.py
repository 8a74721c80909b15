"""Vectorised hand analysis over numpy arrays.

Every function takes ``hands``: a numpy ``uint8`` array of shape ``(N, 34)`` whose row ``i`` holds the
tile counts (0..4) of one hand's standing tiles, column ``k`` = tile index ``k`` (``0..9`` 1m-9m,
``9..18`` 1p-9p, ``18..27`` 1s-9s, ``27..34`` E S W N C F P; see ``hupai.Tile.index``). Rows have no
declared melds: a row of ``3n+1`` / ``3n+2`` tiles with ``n < 4`` counts its missing sets as
declared, exactly like a single call on the same tiles.

The array is copied out, the GIL is released and rows are processed in parallel on all cores
(rayon; set ``RAYON_NUM_THREADS`` to limit). Results equal a loop of the single calls
(``hupai.is_winning`` …). ``shapes`` and ``wildcards`` (wildcards per row besides the counted
tiles) apply to every row. Bad input (dtype, shape, counts above 4, a row of 3n tiles) raises
``hupai.InvalidHandError`` naming the first bad row.

* ``is_winning(hands) -> ndarray[bool]`` of shape ``(N,)``
* ``shanten(hands) -> ndarray[int8]`` of shape ``(N,)`` (−1 complete, 0 ready)
* ``waits(hands) -> ndarray[bool]`` of shape ``(N, 34)``: ``out[i, k]`` is true when tile ``k``
  completes waiting hand ``i`` (rows must hold 3n+1 tiles; kinds held four times are never waits)
"""

from hupai._core import batch_is_winning as is_winning
from hupai._core import batch_shanten as shanten
from hupai._core import batch_waits as waits

__all__ = ["is_winning", "shanten", "waits"]
