"""Game flow: the table engine of the core (every preset, mahjong and 字牌, one protocol), agents,
event logs and replay, matches, batch simulation (local threads or Ray).

The core (``hupai_core::game``) keeps the state and decides every rule; this package holds the
agents, the configuration and the I/O. ``Table`` and ``Match`` call the core once per decision.
"""

from hupai._core import Bot, Event, Observation
from hupai.game.actions import Action, IllegalActionError, ReplayError, TILE_NAMES, tile_name
from hupai.game.agents import DefensiveBot, GreedyBot, RandomBot
from hupai.game.log import read_jsonl, replay, write_jsonl
from hupai.game.match import Match
from hupai.game.simulate import SimResult, game_seed, simulate
from hupai.game.table import Table, arrange_wall, build_wall, players_of

__all__ = [
    "Action",
    "arrange_wall",
    "Bot",
    "build_wall",
    "DefensiveBot",
    "Event",
    "game_seed",
    "GreedyBot",
    "IllegalActionError",
    "Match",
    "Observation",
    "players_of",
    "RandomBot",
    "read_jsonl",
    "replay",
    "ReplayError",
    "SimResult",
    "simulate",
    "Table",
    "TILE_NAMES",
    "tile_name",
    "write_jsonl",
]
