"""The registered games as the page sees them: names, players, renderer, agent specs (and which
of them search), and the settings a game has by default (the page's settings hint)."""

from __future__ import annotations

from engine.core import game_names, get_game
from engine.core.registry import BrokenPluginError, usable_game_names
from engine.web.errors import ApiError

# game name -> renderer in static/renderers/<renderer>.js (others get the generic renderer)
RENDERERS = {"othello": "reversi", "reversed_reversi": "reversi",
             "pentago_twist": "pentago", "hexifence": "hexifence"}


def load_game(name):
    if not isinstance(name, str) or name not in game_names():
        raise ApiError(400, f"game: expected one of {', '.join(game_names())}, got {name!r}")
    try:
        return get_game(name)
    except (ImportError, BrokenPluginError) as err:  # registered, its package not there
        raise ApiError(503, f"game: {name} cannot be loaded ({err})") from None


def available_games() -> list[dict]:
    games = []
    for name in usable_game_names():  # a broken plug-in: skipped, with a warning
        game = get_game(name)
        specs = list(game.agent_specs())
        games.append({"name": name, "description": game.description,
                      "players": list(game.players), "margin_unit": game.margin_unit,
                      "renderer": RENDERERS.get(name, "generic"), "agent_specs": specs,
                      "searching_specs": [s for s in specs
                                          if "<" not in s and game.spec_searches(s)],
                      "settings": game.settings()})
    return games
