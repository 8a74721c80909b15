"""Game flow: tables, bots, event logs and replay, batch simulation (local processes or Ray).

The Python layer owns the flow; every rule decision comes from the Rust core
(``hupai._core.flow_turn`` / ``flow_claims`` / ``flow_draw_end``) and payments from the
``hupai.Settlement`` ledger.
"""

from hupai.game.actions import Action, IllegalActionError, ReplayError, tile_name
from hupai.game.agents import DefensiveBot, GreedyBot, RandomBot
from hupai.game.log import read_jsonl, replay, write_jsonl
from hupai.game.match import Match
from hupai.game.simulate import SimResult, game_seed, simulate
from hupai.game.table import Observation, PrePhase, Table, arrange_wall, build_wall, register_pre_phase
from hupai.game import rules_wuhan as _rules_wuhan  # noqa: F401  (registers the wuhan table)

__all__ = [
    "Action",
    "arrange_wall",
    "DefensiveBot",
    "GreedyBot",
    "IllegalActionError",
    "Match",
    "Observation",
    "PrePhase",
    "RandomBot",
    "ReplayError",
    "SimResult",
    "Table",
    "build_wall",
    "game_seed",
    "read_jsonl",
    "register_pre_phase",
    "replay",
    "simulate",
    "tile_name",
    "write_jsonl",
]
