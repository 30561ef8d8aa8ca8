"""Perft reproduces the published Othello table and the slow reference counts."""

from __future__ import annotations

import json

import pytest

from engine.reversi.perft import main, perft
from engine.reversi.rules.state import Position
from tests.engine.reversi import reference_rules as ref
from tests.engine.reversi.conftest import random_reachable

PUBLISHED = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800]


@pytest.mark.parametrize("depth", range(1, 10))
def test_perft_matches_published_table(depth):
    assert perft(Position.start(), depth) == PUBLISHED[depth - 1]


@pytest.mark.slow
@pytest.mark.claims
@pytest.mark.parametrize("depth", [10, 11])
def test_perft_matches_published_table_deep(depth):
    assert perft(Position.start(), depth) == PUBLISHED[depth - 1]


@pytest.mark.parametrize("seed, plies", [(1, 30), (2, 44), (3, 52), (4, 56), (5, 58)])
def test_perft_matches_reference_from_midgame_and_endgame_positions(seed, plies):
    position = random_reachable(seed, plies)
    cells = ref.from_boards(position.player, position.opponent)
    for depth in (1, 2, 3, 4):
        assert perft(position, depth) == ref.perft(cells, depth)


def test_perft_counts_passes_as_plies_and_finished_games_as_one_leaf():
    # White to move must pass; then black has c1 only, after which the game is over.
    position = Position.parse("XO" + "-" * 62 + " O")
    assert [perft(position, d) for d in (1, 2, 3, 4)] == [1, 1, 1, 1]


def test_cli_prints_leaves_and_json(capsys):
    assert main(["--depth", "6"]) == 0
    assert capsys.readouterr().out.strip() == "8200"
    assert main(["--depth", "3", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["depth"] == 3 and record["leaves"] == 56 and record["leaves_per_second"] > 0


def test_cli_rejects_bad_input_with_one_line(capsys):
    assert main(["--depth", "0"]) == 2
    assert main(["--depth", "3", "--position", "XX X"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: --depth must be >= 1, got 0", "error: board must have 64 squares, got 2"]
