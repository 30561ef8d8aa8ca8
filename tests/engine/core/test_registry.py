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
