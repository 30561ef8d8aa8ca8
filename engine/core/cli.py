"""The game-neutral command lines (``python -m engine.perft|solve|play --game NAME ...``).

Each game package owns its CLI logic (``<package>.perft`` etc. with ``main(argv)``); this module
only picks the game from ``--game`` and hands over the rest of the arguments. A game without a
given command says so in one line.
"""

from __future__ import annotations

import importlib
import sys

from engine.core.registry import game_names, get_game


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


def dispatch(command: str, argv: list[str] | None = None, default_game: str | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        name, rest = split_game(argv, default_game)
        game = get_game(name) if name is not None else None
    except ValueError as exc:
        print(f"error: --game: {exc}", file=sys.stderr)
        return 2
    if game is None:  # the command's default game family decides (e.g. Reversi's --variant)
        module = DEFAULT_MODULES[command]
    else:
        module = getattr(game, "cli_modules", {}).get(command)
        if module is None:
            print(f"error: --game {name} has no `{command}` command", file=sys.stderr)
            return 2
        rest = getattr(game, "cli_arguments", lambda _c: [])(command) + rest
    return importlib.import_module(module).main(rest)


DEFAULT_MODULES = {"perft": "engine.reversi.perft", "solve": "engine.reversi.solve",
                   "play": "engine.reversi.play"}
