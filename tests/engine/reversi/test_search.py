"""Alpha-beta must return exactly the plain-minimax value, the endgame solver the exhaustive one."""

from __future__ import annotations

import numpy as np
import pytest

from engine.reversi.files import reference_weights, save_json
from engine.reversi.genome.evaluation import evaluate
from engine.reversi.genome.weights import FEATURE_NAMES, Weights, default_phase_bounds
from engine.reversi.rules.state import PASS, Position
from engine.reversi.search.searcher import NO_MOVE, Searcher
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_search import (
    exact_score,
    minimax,
    positions_with_empties,
    with_passes,
)


def free_weights(seed: int) -> Weights:
    """Three phases, free (asymmetric) matrices, every feature weighted."""
    rng = np.random.default_rng(seed)
    bounds = default_phase_bounds(3)
    return Weights(
        bounds,
        rng.uniform(-1, 1, (3, 64)),
        rng.uniform(-0.5, 0.5, (3, len(FEATURE_NAMES))),
        symmetric=False,
        name="free",
    )


def leaf_for(weights: Weights, reversed_rules: bool):
    arrays = weights.numba_arrays()
    return lambda p: evaluate(*p.boards, *arrays, reversed_rules)


def tied_weights(seed: int) -> Weights:
    """Small integer weights: many equal values, so bound handling at alpha == value matters."""
    rng = np.random.default_rng(seed)
    return Weights(
        default_phase_bounds(2),
        rng.integers(-1, 2, (2, 64)),
        rng.integers(-1, 2, (2, len(FEATURE_NAMES))),
        symmetric=False,
        name="ties",
    )


WEIGHT_SETS = {
    "wpc": lambda: reference_weights("wpc"),
    "free": lambda: free_weights(1),
    "ties": lambda: tied_weights(6),
}
POSITIONS = [
    random_reachable(seed, plies) for seed in range(3) for plies in (10, 30, 50)
] + with_passes(3, seed=5)


@pytest.mark.parametrize("weights_name", sorted(WEIGHT_SETS))
@pytest.mark.parametrize("variant", ["othello", "reversed"])
def test_alphabeta_equals_minimax_depth_1_to_3(weights_name, variant):
    weights = WEIGHT_SETS[weights_name]()
    searcher = Searcher(weights, variant, endgame_empties=0, tt_bits=12)  # table shared across
    leaf = leaf_for(weights, variant == "reversed")
    for p in POSITIONS:
        if not p.legal_moves():
            continue
        for depth in (1, 2, 3):
            got = searcher.search(p, depth=depth)
            want = minimax(p, depth, leaf, variant == "reversed")
            assert got.score == want, (p.to_string(), depth)
            # the move returned achieves the value
            child = p.play(got.move)
            d = depth if got.move == PASS else depth - 1
            assert -minimax(child, d, leaf, variant == "reversed") == want


@pytest.mark.parametrize("variant", ["othello", "reversed"])
@pytest.mark.parametrize("weights_name", ["free", "ties"])
def test_alphabeta_equals_minimax_depth_4(variant, weights_name):
    weights = free_weights(2) if weights_name == "free" else tied_weights(7)
    searcher = Searcher(weights, variant, endgame_empties=0, tt_bits=10)  # tiny: many collisions
    leaf = leaf_for(weights, variant == "reversed")
    positions = [random_reachable(s, plies) for s in (13, 14) for plies in (16, 24, 32, 44, 50)]
    for p in positions + with_passes(2, seed=9):
        assert searcher.search(p, depth=4).score == minimax(p, 4, leaf, variant == "reversed")


@pytest.mark.parametrize("variant", ["othello", "reversed"])
def test_solver_equals_brute_force(variant):
    searcher = Searcher(reference_weights("wpc"), variant, endgame_empties=10, tt_bits=12)
    rev = variant == "reversed"
    positions = positions_with_empties(6, 7, seed=3) + positions_with_empties(3, 9, seed=4)
    for p in positions + with_passes(2, seed=21):
        if p.empties > 10:
            continue
        result = searcher.solve(p)
        want = exact_score(p, rev)
        assert result.exact and result.score == want, p.to_string()
        assert -exact_score(p.play(result.move), rev) == want  # the best move really is best


def test_search_switches_to_exact_below_threshold():
    p = positions_with_empties(1, 8, seed=8)[0]
    result = Searcher(reference_weights("wpc"), "othello", endgame_empties=8, tt_bits=10).search(
        p, depth=2
    )
    assert result.exact and result.score == exact_score(p, False)


def test_game_over_and_pass_roots():
    searcher = Searcher(reference_weights("wpc"), "othello", endgame_empties=0, tt_bits=10)
    p = with_passes(1, seed=2)[0]
    assert searcher.search(p, depth=2).move == PASS
    over = Position.parse("X" * 40 + "O" * 24 + " X")
    r = searcher.search(over, depth=3)  # 0 empties: solved exactly
    assert r.move == NO_MOVE and r.exact and r.score == 16


def test_time_limited_search_returns_a_legal_move():
    """A completed depth's score is the fixed-depth value; a depth stopped by the clock plays
    a move whose score is that move's exact value at that depth (no better than the root's)."""
    searcher = Searcher(free_weights(3), "othello", endgame_empties=0, tt_bits=14)
    for p in POSITIONS[:4]:
        r = searcher.search(p, time_limit=0.05)
        assert r.depth >= 1 and r.move in p.legal_moves()
        fixed = Searcher(free_weights(3), "othello", endgame_empties=0, tt_bits=14)
        root = fixed.search(p, depth=r.depth).score
        if r.partial:
            assert r.score == -fixed.search(p.play(r.move), depth=r.depth - 1).score
            assert r.score <= root
        else:
            assert r.score == root


@pytest.mark.parametrize("weights_name", ["free", "ties"])
def test_results_do_not_depend_on_table_history(weights_name):
    weights = free_weights(4) if weights_name == "free" else tied_weights(8)
    warm = Searcher(weights, "reversed", endgame_empties=0, tt_bits=8)
    for p in POSITIONS:
        if p.legal_moves():
            for depth in (4, 2, 5):
                cold = Searcher(weights, "reversed", endgame_empties=0, tt_bits=8)
                a, b = warm.search(p, depth=depth), cold.search(p, depth=depth)
                assert (a.move, a.score) == (b.move, b.score)


def test_alphabeta_agent_plays_legal_reproducible_games(tmp_path):
    from engine.core.agent import Agent
    from engine.reversi.agents.alphabeta import AlphaBetaAgent

    path = tmp_path / "w.json"
    save_json(free_weights(5), path)

    def game(seed):
        a = AlphaBetaAgent(path, "reversed", depth=3, endgame_empties=6, seed=seed)
        b = AlphaBetaAgent(reference_weights("wpc_negated"), "reversed", depth=2, seed=seed)
        assert isinstance(a, Agent)
        a.reset(seed), b.reset(seed)
        p, moves = Position.start(), []
        while p.legal_moves():
            agent = a if p.black_to_move else b
            m = agent.select_move(p)
            assert m in p.legal_moves()
            moves.append(m)
            p = p.play(m)
        return moves, a.nodes

    first, nodes = game(1)
    assert nodes > 0 and game(2) == (first, nodes)  # deterministic; the seed changes nothing


def test_alphabeta_agent_moves_equal_a_fresh_search():
    from engine.reversi.agents.alphabeta import AlphaBetaAgent

    weights = tied_weights(10)
    agent = AlphaBetaAgent(weights, "othello", depth=3, endgame_empties=0)
    for p in POSITIONS:
        if p.legal_moves() and p.legal_moves() != [PASS]:
            fresh = Searcher(weights, "othello", endgame_empties=0, tt_bits=10).search(p, depth=3)
            assert agent.select_move(p) == fresh.move
