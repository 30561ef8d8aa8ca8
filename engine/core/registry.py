"""Game names -> games, imported lazily (listing the games must not compile every engine).

Adding a game = one package under ``engine/`` exposing a ``Game`` plus one line here and one
``conf/game/<name>.yaml``. The shared conformance test (``tests/engine/core/test_games_conformance.py``)
covers every name listed here.
"""

from __future__ import annotations

import importlib

from engine.core.game import Game

# name -> "module:attribute" of an unconfigured Game (default settings)
GAMES: dict[str, str] = {
    "reversed_reversi": "engine.reversi.game:REVERSED_REVERSI",
    "othello": "engine.reversi.game:OTHELLO",
    "pentago_twist": "engine.pentago.game:GAME",
    "hexifence": "engine.hexifence.game:GAME",
}

_loaded: dict[str, Game] = {}


def game_names() -> list[str]:
    return list(GAMES)


def get_game(name: str, settings: dict | None = None) -> Game:
    """The registered game ``name`` (configured with ``settings`` when given); ``ValueError``
    lists the allowed names."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r} (allowed: {', '.join(GAMES)})")
    if name not in _loaded:
        module, _, attr = GAMES[name].partition(":")
        _loaded[name] = getattr(importlib.import_module(module), attr)
    game = _loaded[name]
    return game.with_settings(settings) if settings else game
