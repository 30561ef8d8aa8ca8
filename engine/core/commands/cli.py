"""The game-neutral command lines (``python -m engine.perft|solve|play --game NAME ...``).

Each game declares its commands (``Game.cli_commands``: command -> module with
``main(argv)``); this module only picks the game from ``--game`` and hands over the rest of the
arguments, after the game's own ``cli_arguments(command)``. Without ``--game``, the game of the
first champion file or run directory among the arguments; without one either, the registry's
``default_game`` module runs with the arguments as given (its own defaults decide, e.g. the
Reversi commands' ``--variant``). A game without the command says so in one line.
"""

from __future__ import annotations

import importlib
import sys

from engine.core.capabilities import PLAY_ANY, arguments, commands
from engine.core.moved import current_name
from engine.core.registry import default_game, game_names, get_game, usable_game_names


def split_game(argv: list[str], default: str | None) -> tuple[str | None, list[str]]:
    """``--game NAME`` / ``--game=NAME`` taken out of ``argv``."""
    rest, game = [], default
    it = iter(argv)
    for arg in it:
        if arg == "--game":
            game = next(it, None)
            if game is None:
                raise ValueError(f"--game needs a value (allowed: {', '.join(game_names())})")
        elif arg.startswith("--game="):
            game = arg.split("=", 1)[1]
        else:
            rest.append(arg)
    return game, rest


def game_of_files(argv: list[str]) -> str | None:
    """The game of the first argument that is a champion file or run directory, if any (so
    ``python -m engine.play --opponent champion.json`` needs no ``--game``)."""
    from pathlib import Path

    from engine.core.champions.files import champion_game, resolve_source
    from engine.core.records import ChampionFileError

    for arg in argv:
        path = Path(arg.split("=", 1)[-1])
        if path.suffix.lower() in (".json", ".npz") or (path / "champion.json").is_file():
            try:
                found = champion_game(resolve_source(path))
            except (ChampionFileError, ValueError, OSError):
                continue
            if found is not None:
                return found
    return None


def dispatch(command: str, argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--version" in argv:  # the distribution's, whatever the game
        from engine.core.commands.version import version_line

        print(version_line())
        return 0
    try:
        name, rest = split_game(argv, None)
        name = name if name is not None else game_of_files(rest)
        game = get_game(name if name is not None else default_game())
    except ValueError as exc:
        print(f"error: --game: {exc}", file=sys.stderr)
        return 2
    module = commands(game).get(command)
    if module is None:
        having = [n for n in usable_game_names() if command in commands(get_game(n))]
        print(f"error: --game {game.name} has no `{command}` command (games that have it: "
              f"{', '.join(having) or 'none'})", file=sys.stderr)
        return 2
    own = arguments(game, command) if name is not None or current_name(module) == PLAY_ANY else []
    return importlib.import_module(module).main(own + rest)
