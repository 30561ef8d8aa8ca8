"""The game-neutral core: the ``Game`` contract and its defaults (``GameBase``), agents,
outcomes, the plug-in registry, the match runner.

Nothing here mentions a board; ``evolve`` imports only this package.
"""

from engine.core.agent import Agent, Seed, child_seeds, make_rng
from engine.core.base import GameBase
from engine.core.game import (
    DRAW,
    JSON_EXPORT,
    Champion,
    ChampionFileError,
    ExportFormat,
    Game,
    GameSettingsError,
    GenomeSpec,
    Option,
    Outcome,
    SearchSettings,
    StepRule,
    moves_text,
    parse_moves,
)
from engine.core.registry import default_game, game_names, get_game

__all__ = ["DRAW", "JSON_EXPORT", "Agent", "Champion", "ChampionFileError", "ExportFormat",
           "Game", "GameBase", "GameSettingsError", "GenomeSpec", "Option", "Outcome",
           "SearchSettings", "Seed", "StepRule", "child_seeds", "default_game", "game_names",
           "get_game", "make_rng", "moves_text", "parse_moves"]
