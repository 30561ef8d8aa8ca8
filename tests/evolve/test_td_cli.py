"""python -m evolve.td: TD self-play alone into a champion file, reproducible from its seed
(exactly the game's td_learn over the documented seed streams), and one-line errors."""

import json

import numpy as np
import pytest

from engine.core.registry import get_game
from evolve import td, td_training

SETTINGS = {"genome": {"kind": "ntuple", "layout": "straight2", "features": []}}


def test_the_file_is_the_games_td_learn_over_its_seed_streams(tmp_path, monkeypatch):
    monkeypatch.setattr(td_training, "ONLINE_CHUNK", 30)
    out = tmp_path / "net.json"
    assert td.main(["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage",
                    "50:0.1", "--stage", "20:0.01", "--seed", "4", "--out", str(out)]) == 0
    game = get_game("othello", SETTINGS)
    expected = np.zeros(game.genome_spec().size)
    for k, chunks in enumerate([[(0, 30, 0.1), (1, 20, 0.1)], [(0, 20, 0.01)]]):
        for chunk, games, alpha in chunks:
            expected = game.td_learn(expected, games, np.random.SeedSequence([4, k, chunk]),
                                     alpha, 0.1)
    champion = game.load_champion(out)
    np.testing.assert_array_equal(champion.genome, expected)
    assert expected.any()
    meta = json.loads(out.read_text())["metadata"]
    assert meta["td"]["stages"] == [{"games": 50, "alpha": 0.1}, {"games": 20, "alpha": 0.01}]
    assert meta["command"].startswith("python -m evolve.td --game othello")


def test_a_champion_file_can_be_the_start(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    args = ["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage", "20:0.1"]
    assert td.main([*args, "--out", str(first)]) == 0
    assert td.main([*args, "--start", str(first), "--seed", "1", "--out", str(second)]) == 0
    game = get_game("othello", SETTINGS)
    a, b = game.load_champion(first).genome, game.load_champion(second).genome
    assert not np.array_equal(a, b)
    np.testing.assert_array_equal(
        b, game.td_learn(a, 20, np.random.SeedSequence([1, 0, 0]), 0.1, 0.1))


def test_a_smaller_network_can_be_the_start_of_a_bigger_one(tmp_path, capsys):
    small, big = tmp_path / "small.json", tmp_path / "big.json"
    assert td.main(["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage",
                    "20:0.1", "--out", str(small)]) == 0
    bigger = {"genome": {"kind": "ntuple", "layout": "straight2+square2", "phases": 3,
                         "features": ["mobility"]}}
    assert td.main(["--game", "othello", "--settings", json.dumps(bigger), "--stage", "20:0.1",
                    "--start", str(small), "--seed", "1", "--out", str(big)]) == 0
    game = get_game("othello", bigger)
    start = game.projected_genome(small)
    assert start.any()
    np.testing.assert_array_equal(
        game.load_champion(big).genome,
        game.td_learn(start, 20, np.random.SeedSequence([1, 0, 0]), 0.1, 0.1))
    capsys.readouterr()
    assert td.main(["--game", "othello", "--settings", json.dumps(
        {"genome": {"kind": "ntuple", "layout": "square2"}}), "--stage", "20:0.1", "--start",
        str(small), "--out", str(tmp_path / "no.json")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: --start {small}: square2 has no tuple") and \
        err.count("\n") == 1


@pytest.mark.parametrize("args, message", [
    (["--game", "chess"], "error: --game 'chess': allowed"),
    (["--game", "othello"], "error: othello with these settings does not learn by TD"),
    (["--game", "othello", "--settings", "{bad"], "error: --settings is not JSON"),
    (["--game", "othello", "--settings", json.dumps(SETTINGS), "--start", "nope"],
     "error: --start 'nope': allowed zero, a champion file, or one of"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, args, message):
    out = tmp_path / "x.json"
    assert td.main([*args, "--stage", "10:0.1", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1
    assert not out.exists()
