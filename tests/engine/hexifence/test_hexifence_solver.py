"""The exact solver against brute-force minimax over the reference rules (no filter, no table,
no symmetry), and the alpha-beta agent's search against the same tree without pruning."""

import json
from functools import cache

import numpy as np
import pytest

from engine.hexifence.game import GAME
from engine.hexifence.genome.evaluation import N_FEATURES
from engine.hexifence.genome.weights import reference_genome, weights_matrix
from engine.hexifence.rules import reference as ref
from engine.hexifence.rules.state import initial_state
from engine.hexifence.search.searcher import Searcher


@cache
def future_margin(size: int, drawn: frozenset) -> int:
    """Cells the side to move gains minus the opponent's, from here on, under perfect play
    (only the drawn edges matter)."""
    game = ref.RefGame(size)
    game.drawn = {e: "B" for e in drawn}
    best = None
    for edge in game.legal_moves():
        child = ref.RefGame(size)
        child.drawn = dict(game.drawn)
        taken = child.play(edge)
        value = future_margin(size, frozenset(child.drawn))
        value = taken + value if taken else -value
        best = value if best is None else max(best, value)
    return 0 if best is None else best


def random_position(size: int, empties: int, seed: int):
    rng = np.random.default_rng(seed)
    state = initial_state(size)
    while state.empty_edges > empties:
        state = state.play(int(rng.choice(state.legal_moves())))
    return state


def brute_value(state) -> int:
    drawn = frozenset(state.board.edges[e] for e in range(len(state.edges)) if state.edges[e])
    mover_margin = state.margin if state.to_move == 0 else -state.margin
    return mover_margin + future_margin(state.size, drawn)


SOLVER = {}


def solver(size):
    if size not in SOLVER:
        SOLVER[size] = Searcher(np.zeros((1, N_FEATURES)), size, tt_bits=16, shared=False)
    return SOLVER[size]


@pytest.mark.parametrize("size, empties", [(1, 6), (2, 7), (2, 8), (3, 7), (3, 8)])
def test_solver_matches_brute_force_and_its_move_keeps_the_value(size, empties):
    for seed in range(12):
        state = random_position(size, empties, seed)
        result = solver(size).solve(state)
        assert result.value == brute_value(state), state.to_text()
        child = state.play(result.move)
        same = child.to_move == state.to_move
        assert (1 if same else -1) * brute_value(child) == result.value


@pytest.mark.slow
@pytest.mark.parametrize("size, empties", [(2, 10), (2, 12), (3, 10)])
def test_solver_matches_brute_force_on_bigger_positions(size, empties):
    for seed in range(30):
        state = random_position(size, empties, seed)
        assert solver(size).solve(state).value == brute_value(state), state.to_text()


@pytest.mark.slow
@pytest.mark.claims
def test_the_empty_n2_board_is_a_blue_loss_by_three():
    assert Searcher(np.zeros((1, N_FEATURES)), 2, tt_bits=22).solve(initial_state(2)).value == -3


def naive_negamax(state, margin: int, depth: int, weights) -> float:
    """The engine's tree (turn depth, capture candidates, same leaves) without alpha-beta,
    table, symmetry or boundary-edge merging."""
    from engine.hexifence.genome.evaluation import evaluate
    from engine.hexifence.rules.bitboard import capture_candidates, degrees, draw

    b = state.board
    words = state.undrawn
    deg = np.empty(b.n_cells, np.int8)
    degrees(words, b.cell_edges, deg)
    if state.is_terminal():
        return float(margin)
    out = np.empty(2, np.int64)
    n = capture_candidates(words, deg, b.edge_cells, b.cell_edges, out)
    if depth <= 0 and n == 0:
        return evaluate(words, deg, margin, state.drawn, b.n_edges, weights, b.edge_cells,
                        b.cell_edges, np.empty(N_FEATURES))
    edges = out[:n] if n else state.legal_edges()
    best = -np.inf
    for e in edges:
        w, d = words.copy(), deg.copy()
        taken = draw(w, d, int(e), b.edge_cells)
        child = state.play_edge(int(e))
        if taken:
            value = naive_negamax(child, margin + taken, depth, weights)
        else:
            value = -naive_negamax(child, -margin, depth - 1, weights)
        best = max(best, value)
    return best


@pytest.mark.parametrize("size, empties, depth", [(2, 14, 2), (3, 13, 2), (2, 10, 3)])
def test_heuristic_search_value_is_the_plain_negamax_value(size, empties, depth):
    weights = weights_matrix(reference_genome("reference", 2), 2)
    weights[1, 4] = 0.1  # a feature that counts boundary edges one by one
    searcher = Searcher(weights, size, tt_bits=16, shared=False)
    for seed in range(4):
        state = random_position(size, empties, seed)
        margin = state.margin if state.to_move == 0 else -state.margin
        expected = naive_negamax(state, margin, depth, weights)
        assert searcher.search(state, depth=depth).value == pytest.approx(expected, abs=1e-9)


def test_solve_cli_prints_json(tmp_path, capsys):
    from engine.hexifence.solve import main

    path = tmp_path / "board.txt"
    state = random_position(2, 9, 3)
    path.write_text(state.to_text())
    assert main(["--file", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == brute_value(state)
    assert out["side_to_move"] == ("blue" if state.to_move == 0 else "red")
    assert GAME.with_settings({"size": 2}).parse_move(out["best_moves"][0], state) >= 0
