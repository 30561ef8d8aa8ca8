"""The fixed-depth CS303 export (``--depth D --endgame-empties E``) plays exactly the move the
engine's alpha-beta agent plays at that depth, ties included, in every position of whole games.

Within ``E`` empties the file solves exactly like the ``negamax`` endgame solver
(``game.endgame_solver=negamax``); the default ``pvs`` solver orders moves by other keys, so
there the file's move is checked to be exactly as good (the same final disc difference)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.reversi.agents.alphabeta import AlphaBetaAgent
from engine.reversi.files import load_weights
from engine.reversi.genome.weights import GenomeLayout, Weights, default_phase_bounds
from engine.reversi.rules.state import PASS, Position
from evolve.export import main as export_main
from tests.engine.reversi.test_cs303 import chessboard_of

ROOT_DATA = "engine/reversi/data"


def symmetric_champion(seed: int, integer: bool) -> Weights:
    """Symmetric weights make equal values common (mirror-image moves): the tie-break matters.
    Integer weights make them commoner still."""
    rng = np.random.default_rng(seed)
    genome = rng.uniform(-1, 1, GenomeLayout(3, True).size)
    if integer:
        genome = np.round(genome * 8)
    w = Weights.from_genome(genome, default_phase_bounds(3), True, name=f"s{seed}")
    w.metadata["variant"] = "reversed"
    return w


def course() -> Weights:
    w = load_weights(f"{ROOT_DATA}/course.json")
    w.metadata["variant"] = "reversed"
    return w


def generated(weights: Weights, tmp_path, depth: int, endgame: int):
    from engine.reversi.export.cs303 import render_cs303

    path = tmp_path / f"fixed_{depth}_{endgame}.py"
    path.write_text(render_cs303(weights, depth, endgame))
    return load_generated_path(path)


def load_generated_path(path):
    import importlib.util

    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def exact_value(module, position: Position, move: int) -> float:
    after = position.play(move)
    return -module.fixed_value(after.player, after.opponent, 0, -1e13, 1e13, True)


def moves_compared(module, weights: Weights, depth: int, endgame: int, games: int,
                   solver: str = "negamax") -> int:
    """Play ``games`` games (random 4-ply openings) with the engine agent on both sides; at
    every position the generated agent must choose the engine's move (with ``pvs``, in the
    exact endgame: a move of the same exact value). Returns moves checked."""
    agent = AlphaBetaAgent(weights, "reversed", depth=depth, endgame_empties=endgame,
                           exact_solver=solver)
    checked = 0
    for seed in range(games):
        rng = np.random.default_rng(seed)
        position = Position.start()
        for _ in range(4):
            moves = position.legal_moves()
            position = position.play(moves[rng.integers(len(moves))])
        agent.reset(seed)
        while not position.is_game_over():
            if position.legal_moves_mask() == 0:
                position = position.play(PASS)
                continue
            expected = agent.select_move(position)
            ai = module.AI(8, -1 if position.black_to_move else 1, 5.0)
            ai.go(chessboard_of(position))
            row, col = ai.candidate_list[-1]
            if solver == "pvs" and position.empties <= endgame:
                assert exact_value(module, position, 8 * row + col) == \
                    exact_value(module, position, expected), position.to_string()
            else:
                assert (row, col) == divmod(expected, 8), (position.to_string(), depth)
            checked += 1
            position = position.play(expected)
    return checked


@pytest.mark.parametrize("depth, endgame", [
    (1, 3), pytest.param(2, 3, marks=pytest.mark.slow), pytest.param(3, 3, marks=pytest.mark.slow),
    pytest.param(1, 8, marks=pytest.mark.slow)])
@pytest.mark.parametrize("make", [lambda: symmetric_champion(5, False),
                                  lambda: symmetric_champion(6, True), course],
                         ids=["symmetric", "integer", "course"])
def test_fixed_depth_agent_plays_every_move_of_the_engine_agent(tmp_path, depth, endgame, make):
    weights = make()
    module = generated(weights, tmp_path, depth, endgame)
    games = 3 if depth < 3 else 2
    assert moves_compared(module, weights, depth, endgame, games) > 40 * games


@pytest.mark.parametrize("endgame", [3, 8])
def test_with_the_default_pvs_solver_the_endgame_moves_are_exactly_as_good(tmp_path, endgame):
    weights = symmetric_champion(6, True)
    module = generated(weights, tmp_path, 1, endgame)
    assert moves_compared(module, weights, 1, endgame, 3, solver="pvs") > 40 * 3


def test_the_evaluation_in_engine_order_is_bit_identical(tmp_path):
    from engine.reversi.genome import evaluation
    from tests.engine.reversi.conftest import random_reachable

    weights = symmetric_champion(7, False)
    module = generated(weights, tmp_path, 1, 3)
    arrays = weights.numba_arrays()
    for seed in range(40):
        for plies in (5, 20, 40, 58):
            pos = random_reachable(seed, plies)
            expected = evaluation.evaluate(*pos.boards, *arrays, True)
            assert module.evaluate_in_engine_order(pos.player, pos.opponent) == expected


def test_export_cli_writes_a_fixed_depth_agent_and_refuses_bad_options(tmp_path, capsys):
    out = tmp_path / "ai.py"
    source = f"{ROOT_DATA}/wpc_negated.json"
    assert export_main([source, "--format", "cs303", "--depth", "1", "--endgame-empties", "3",
                        "--out", str(out)]) == 0
    text = out.read_text()
    assert "FIXED_DEPTH = 1\n" in text and "ENDGAME_EMPTIES = 3\n" in text
    assert export_main([source, "--format", "cs303", "--out", str(out)]) == 0
    assert "FIXED_DEPTH = None\n" in out.read_text()  # the time-limited agent stays the default
    assert export_main([source, "--format", "cs303", "--depth", "0", "--out", str(out)]) == 1
    assert "--depth 0 must be >= 1" in capsys.readouterr().err
    assert export_main([source, "--format", "json", "--depth", "2", "--out",
                        str(tmp_path / "w.json")]) == 1
    assert "--depth is not an option of --format json" in capsys.readouterr().err
