"""Configured games, built once per process (Ray actors are reused across batches)."""

from __future__ import annotations

from engine.core.game import Game

_GAMES: dict[tuple[str, str], Game] = {}


def configured_game(name: str, settings: dict) -> Game:
    from engine.core.registry import get_game

    key = (name, repr(sorted(settings.items())))
    if key not in _GAMES:
        _GAMES[key] = get_game(name, settings)
    return _GAMES[key]
