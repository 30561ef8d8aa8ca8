"""The game-neutral core: the ``Game`` contract, agents, outcomes, the registry, the match runner.

Nothing here mentions a board; ``evolve`` imports only this package.
"""

from engine.core.agent import Agent, Seed, child_seeds, make_rng
from engine.core.game import (
    DRAW,
    Champion,
    ChampionFileError,
    Game,
    GameSettingsError,
    GenomeSpec,
    Outcome,
    SearchSettings,
    moves_text,
    parse_moves,
)
from engine.core.registry import game_names, get_game

__all__ = ["DRAW", "Agent", "Champion", "ChampionFileError", "Game", "GameSettingsError",
           "GenomeSpec", "Outcome", "SearchSettings", "Seed", "child_seeds", "game_names",
           "get_game", "make_rng", "moves_text", "parse_moves"]
