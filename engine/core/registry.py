"""Game names -> games, from plug-ins: every installed distribution may register games under
the entry-point group ``board_evolve.games`` (``name = "module:attribute"`` of an unconfigured
``Game``). Games are imported lazily: listing the names never compiles an engine.

Adding a game = one package exposing a ``Game`` + one entry point in its ``pyproject.toml`` +
one ``game/<name>.yaml`` (in ``conf/``, or in the package's ``Game.config_dir``). This project's
own games are registered in its ``pyproject.toml``; the conformance test covers every registered
game. The game a command uses when ``--game`` is not given is the entry point ``game`` of the
group ``board_evolve.defaults``. A Ray worker running from shipped sources (``ray.runtime_env``,
no distribution installed) finds the driver's games in ``$BOARD_EVOLVE_GAMES`` instead.
"""

from __future__ import annotations

import json
import os
import warnings
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from engine.core.capabilities import capabilities
from engine.core.capabilities import selectors as capability_selectors
from engine.core.game import Conveniences, Game

GROUP = "board_evolve.games"
DEFAULTS_GROUP = "board_evolve.defaults"
SHIPPED_ENV = "BOARD_EVOLVE_GAMES"  # {name: "module:attribute"}, set by evolve.execution

_loaded: dict[str, Game] = {}


class NoGamesError(RuntimeError):
    """No game is registered: the project is not installed."""


class BrokenPluginError(ValueError):
    """A registered game's module cannot be imported (a plug-in moved or half uninstalled)."""


@cache
def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, ep)  # the first distribution to claim a name keeps it
    for name, value in json.loads(os.environ.get(SHIPPED_ENV) or "{}").items():
        found.setdefault(name, EntryPoint(name, value, GROUP))
    if not found:
        raise NoGamesError(f"no game is registered under the entry-point group {GROUP!r}: "
                           "install the project first (pip install -e .)")
    return found


def game_names() -> list[str]:
    """Every registered game, the default game first."""
    first = default_game()
    return [first, *(name for name in _entry_points() if name != first)]


@cache
def default_game() -> str:
    """The game commands use without ``--game`` (declared by an installed distribution)."""
    points = _entry_points()
    for ep in entry_points(group=DEFAULTS_GROUP):
        if ep.name == "game" and ep.value in points:
            return ep.value
    return next(iter(points))


def get_game(name: str, settings: dict | None = None) -> Game:
    """The registered game ``name`` (configured with ``settings`` when given); ``ValueError``
    lists the allowed names."""
    points = _entry_points()
    if name not in points:
        raise ValueError(f"unknown game {name!r} (allowed: {', '.join(game_names())})")
    if name not in _loaded:
        try:
            game = points[name].load()
        except (ImportError, AttributeError) as exc:  # the others stay usable: say which
            why = " ".join(str(exc).split())  # one line, so the advice is never cut off
            raise BrokenPluginError(
                f"game {name!r}: its plug-in {points[name].value} cannot be imported "
                f"({type(exc).__name__}: {why}); reinstall the distribution that registers "
                "it, or uninstall it") from None
        if not isinstance(game, Game) or not isinstance(game, Conveniences):
            raise TypeError(f"entry point {name} = {points[name].value} is not a Game "
                            "(engine.core.game: Game and its Conveniences)")
        capabilities(game)  # TypeError naming a declared capability it does not have
        _loaded[name] = game
    game = _loaded[name]
    return game.with_settings(settings) if settings else game


def game_capabilities() -> dict[str, tuple[str, ...]]:
    """Every usable game's declared capabilities (``engine.core.capabilities``)."""
    return {name: capabilities(get_game(name)) for name in usable_game_names()}


def usable_game_names() -> list[str]:
    """``game_names()`` without the games whose plug-in cannot be imported, each of those
    skipped with one warning: what commands that go over every game use, so that one broken
    plug-in does not stop them (``get_game`` of it still raises ``BrokenPluginError``)."""
    usable = []
    for name in game_names():
        try:
            get_game(name)
        except BrokenPluginError as exc:
            _warn_once(str(exc))
            continue
        usable.append(name)
    return usable


def selectors() -> dict[str, dict[str, str]]:
    """Option -> {value: game} from every game's ``cli_selectors`` (``--variant reversed``)."""
    found: dict[str, dict[str, str]] = {}
    for name in usable_game_names():
        for option, value in capability_selectors(get_game(name)).items():
            found.setdefault(option, {}).setdefault(value, name)
    return found


@cache
def _warn_once(message: str) -> None:
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def select_game(requested: str | None, chosen: dict[str, str | None]) -> str | None:
    """The game named by ``--game`` and/or selector options (``{"variant": "reversed"}``);
    ``ValueError`` when they disagree or a value selects nothing."""
    table = selectors()
    game = requested
    for option, value in chosen.items():
        if value is None:
            continue
        flag = "--" + option.replace("_", "-")
        by_value = table.get(option, {})
        if value not in by_value:
            raise ValueError(f"{flag} {value}: allowed {', '.join(by_value) or 'nothing'}")
        if game is not None and game != by_value[value]:
            raise ValueError(f"{flag} {value} contradicts --game {game}")
        game = by_value[value]
    return game
