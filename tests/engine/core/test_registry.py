"""A registered plug-in whose module is gone: a one-line error naming it, the other games usable."""

from importlib.metadata import EntryPoint

import pytest

from engine.core import registry


@pytest.fixture
def ghost_plugin(monkeypatch):
    points = dict(registry._entry_points())
    points["ghost"] = EntryPoint(name="ghost", value="no_such_module_for_board_evolve:GAME",
                                 group=registry.GROUP)
    monkeypatch.setattr(registry, "_entry_points", lambda: points)
    registry._warn_once.cache_clear()
    yield
    registry._warn_once.cache_clear()


def test_a_broken_plugin_names_itself_and_how_to_mend_it(ghost_plugin):
    with pytest.raises(registry.BrokenPluginError) as raised:
        registry.get_game("ghost")
    message = str(raised.value)
    assert "\n" not in message
    assert "'ghost'" in message and "no_such_module_for_board_evolve:GAME" in message
    assert "ModuleNotFoundError" in message and "reinstall" in message


def test_a_broken_plugin_leaves_the_other_games_selectable(ghost_plugin):
    with pytest.warns(RuntimeWarning, match="ghost"):
        table = registry.selectors()
    assert table["variant"]["reversed"] == "reversed_reversi"
    assert registry.select_game(None, {"variant": "othello"}) == "othello"
    assert registry.get_game("othello").name == "othello"


class _FailingPoint:
    """An entry point whose load raises ``exc`` (a module that fails while importing)."""

    def __init__(self, exc):
        self.exc, self.value, self.name = exc, "ghost_module:GAME", "ghost"

    def load(self):
        raise self.exc


@pytest.mark.parametrize("point, kind", [
    (EntryPoint(name="ghost", value="engine.core.registry:NO_SUCH_GAME", group=registry.GROUP),
     "AttributeError"),
    (_FailingPoint(ImportError("cannot import name 'X'\n  from 'y' (z.py)")), "ImportError"),
])
def test_a_missing_attribute_or_a_long_import_error_is_one_line_too(monkeypatch, point, kind):
    points = dict(registry._entry_points())
    points["ghost"] = point
    monkeypatch.setattr(registry, "_entry_points", lambda: points)
    with pytest.raises(registry.BrokenPluginError) as raised:
        registry.get_game("ghost")
    message = str(raised.value)
    assert "\n" not in message and kind in message and message.endswith("or uninstall it")


def test_every_command_that_goes_over_the_games_skips_a_broken_plugin(ghost_plugin, capsys):
    """The loops over every game (the study's config folders, export formats, champion files,
    the game list, the web page's games) use ``usable_game_names``."""
    from engine import games
    from engine.core.champions.files import champion_game
    from engine.web.errors import ApiError
    from engine.web.games import available_games, load_game
    from evolve.__main__ import game_config_dirs
    from evolve.export import all_formats

    with pytest.warns(RuntimeWarning, match="ghost"):
        usable = registry.usable_game_names()
    assert "ghost" in registry.game_names() and "ghost" not in usable and "othello" in usable
    game_config_dirs()
    assert "cs303" in all_formats()
    assert champion_game("experiments/results/champions/hexifence.json") == "hexifence"
    assert games.main([]) == 0 and "othello" in capsys.readouterr().out
    assert "ghost" not in [g["name"] for g in available_games()]
    with pytest.raises(ApiError) as raised:
        load_game("ghost")
    assert raised.value.status == 503
