"""A champion file is read once into a ``Champion`` (its game, genome, evaluation, recorded
search, path) by its game's one reader, and everything after plays the object: agents, the
search it records, exports."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from engine.core import Champion, ChampionFileError, SearchSettings, get_game
from engine.core.champions.files import load_champion
from engine.core.champions.search import champion_search
from engine.core.matches import specs
from tests.engine.core.reads import count_opens

CHAMPIONS = Path(__file__).resolve().parents[3] / "experiments" / "results" / "champions"
FILES = ["othello.json", "othello_ntuple_square2.json", "pentago_twist.json",
         "hexifence.json", "hexifence_ntuple.json"]


@pytest.mark.parametrize("name", FILES)
def test_loading_reads_the_file_once_and_the_agent_needs_it_no_more(name, tmp_path,
                                                                    monkeypatch):
    path = tmp_path / name
    shutil.copy(CHAMPIONS / name, path)
    recorded = champion_search(path, SearchSettings(depth=5))  # read from the file itself
    opened = count_opens(monkeypatch, path)
    champion = load_champion(path)
    assert len(opened) == 1 and champion.path == path and champion.label
    path.unlink()  # nothing below may need it
    game = get_game(champion.game)
    agent = specs.make_agent(game, champion, SearchSettings(depth=1, endgame_empties=0), 0)
    assert agent.select_move(game.initial_state()) in game.legal_moves(game.initial_state())
    assert champion_search(champion, SearchSettings(depth=5)) == recorded


def test_a_reversi_champion_keeps_the_evaluation_it_was_read_as(tmp_path):
    champion = load_champion(CHAMPIONS / "othello_ntuple_square2.json")
    assert type(champion.evaluation).__name__ == "NtupleWeights"
    assert np.array_equal(champion.evaluation.to_genome(), champion.genome)
    assert champion.game == "othello" and champion.settings["genome"]["kind"] == "ntuple"


def test_an_npz_twin_is_read_once_too(tmp_path, monkeypatch):
    from evolve.export import export

    out = export(CHAMPIONS / "othello_ntuple_square2.json", "npz", tmp_path / "c.npz")
    opened = count_opens(monkeypatch, out)
    champion = load_champion(out)
    assert len(opened) == 1 and champion.game == "othello"
    assert np.array_equal(champion.genome,
                          load_champion(CHAMPIONS / "othello_ntuple_square2.json").genome)


def test_a_spec_that_names_a_file_becomes_a_champion_at_the_edge(tmp_path):
    game = get_game("hexifence")
    path = tmp_path / "h.json"
    shutil.copy(CHAMPIONS / "hexifence.json", path)
    player = specs.resolve_player(game, str(path))
    assert isinstance(player, Champion) and player.path == path
    assert specs.resolve_player(game, "chain") == "chain"
    assert specs.resolve_player(game, player) is player
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(path, run / "champion.json")
    assert specs.resolve_player(game, str(run)).path == run / "champion.json"


def test_a_file_no_game_reads_names_itself(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"game": "chess", "schema_version": 1}')
    with pytest.raises(ChampionFileError, match="x.json: no registered game"):
        load_champion(path)


def test_a_game_reads_only_its_own_files():
    with pytest.raises(ChampionFileError, match="hexifence"):
        load_champion(CHAMPIONS / "hexifence.json", get_game("pentago_twist"))
