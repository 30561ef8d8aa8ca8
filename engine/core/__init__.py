"""The game-neutral core. On top, the contract (what a game is): ``game`` (the ``Game``
protocol), ``base`` (``GameBase``, its defaults), ``capabilities`` (what a game may declare
beyond it), ``records`` (the plain records it speaks in), ``agent`` (the ``Agent`` protocol and
seeds), ``settings`` (the settings checks every game shares) and ``registry`` (games from
plug-ins). In rooms by role:

    champions/   files (champion files and run directories, read once), search (the search a
                 champion plays at)
    matches/     runner (one game between two agents, seeded openings), clock (time controls),
                 specs (players: an agent spec or a champion), agents (agent wrappers)
    commands/    cli (``python -m engine.perft|solve|play --game``), play (the terminal play loop
                 every game's play command shares), play_any (the play command of a game without
                 one), helptext, version

Nothing here mentions a board; ``evolve`` imports only this package. ``moved`` keeps the old
flat names of the modules now in rooms importable (with a ``DeprecationWarning``).
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
from engine.core.moved import keep_old_names
from engine.core.registry import default_game, game_names, get_game

# old name under this package -> new name under it
MOVED = {
    "files": "champions.files",
    "champion_search": "champions.search",
    "match": "matches.runner",
    "clock": "matches.clock",
    "specs": "matches.specs",
    "agents": "matches.agents",
    "cli": "commands.cli",
    "helptext": "commands.helptext",
    "version": "commands.version",
    "play": "commands.play",
    "play_any": "commands.play_any",
}
keep_old_names(__name__, MOVED)

__all__ = ["DRAW", "JSON_EXPORT", "Agent", "Champion", "ChampionFileError", "ExportFormat",
           "Game", "GameBase", "GameSettingsError", "GenomeSpec", "Option", "Outcome",
           "SearchSettings", "Seed", "StepRule", "child_seeds", "default_game", "game_names",
           "get_game", "make_rng", "moves_text", "parse_moves"]
