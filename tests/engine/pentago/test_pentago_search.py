"""Alpha-beta and the evaluation against slow, independent recomputations."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pentago.agents import tactics
from engine.pentago.genome.evaluation import (
    FEATURES,
    N_FEATURES,
    WIN_SCORE,
    evaluate,
    features,
    phase_table,
    terminal_value,
)
from engine.pentago.genome.weights import reference_genome, weights_matrix
from engine.pentago.rules import bitboard as bb
from engine.pentago.rules import reference as ref
from engine.pentago.rules.state import State, parse_state, state_text
from engine.pentago.search import searcher as search_module
from engine.pentago.search.searcher import Searcher
from tests.engine.kernels.work_clock import node_clock
from tests.engine.pentago.test_pentago_rules import random_board, random_reachable

PHASES = 3
WEIGHTS = weights_matrix(reference_genome("reference", PHASES), PHASES)
PHASE_OF = phase_table(PHASES)


def python_features(grid, me: str) -> list[float]:
    """Feature counts for colour ``me`` (own) and the other colour, recounted from a grid."""
    other = "B" if me == "W" else "W"
    lines5 = []
    for x in range(6):
        for y in range(6):
            for dx, dy in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(x + k * dx, y + k * dy) for k in range(5)]
                if all(0 <= a < 6 and 0 <= b < 6 for a, b in cells):
                    lines5.append(cells)
    qlines = []
    for r0, c0 in ref.ORIGINS.values():
        local = [[(i, j) for j in range(3)] for i in range(3)] + \
            [[(i, j) for i in range(3)] for j in range(3)] + \
            [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
        qlines += [[(r0 + i, c0 + j) for i, j in line] for line in local]
    out = []
    for colour, rival in ((me, other), (other, me)):
        f = [0.0] * N_FEATURES
        for line in lines5:
            mine = sum(grid[a][b] == colour for a, b in line)
            theirs = sum(grid[a][b] == rival for a, b in line)
            if mine and not theirs:
                f[min(mine, 4) - 1] += 1
        for r0, c0 in ref.ORIGINS.values():
            for i in range(3):
                for j in range(3):
                    if grid[r0 + i][c0 + j] == colour:
                        kind = "centre" if (i, j) == (1, 1) else \
                            "corner" if i != 1 and j != 1 else "edge"
                        f[FEATURES.index(kind)] += 1
        for line in qlines:
            mine = sum(grid[a][b] == colour for a, b in line)
            theirs = sum(grid[a][b] == rival for a, b in line)
            if mine == 3:
                f[FEATURES.index("qline3")] += 1
            elif mine == 2 and theirs == 0:
                f[FEATURES.index("qline2")] += 1
        out += f
    return out


@settings(max_examples=150, deadline=None)
@given(st.builds(random_board, st.integers(0, 2**32 - 1), st.integers(0, 36)))
def test_features_match_a_recount_from_the_reference_grid(state: State):
    grid = ref.from_text(state_text(state))
    out = np.zeros(2 * N_FEATURES)
    P, O = state.boards()
    features(P, O, out)
    assert list(out) == python_features(grid, "WB"[state.to_move])
    row = WEIGHTS[PHASE_OF[state.stones]]
    assert evaluate(P, O, WEIGHTS, PHASE_OF) == pytest.approx(float(row @ out))


@settings(max_examples=100, deadline=None)
@given(st.builds(random_board, st.integers(0, 2**32 - 1), st.integers(0, 36)),
       st.integers(0, 7))
def test_quadrant_features_survive_every_twist(state: State, twist: int):
    P, O = state.boards()
    before, after = np.zeros(2 * N_FEATURES), np.zeros(2 * N_FEATURES)
    features(P, O, before)
    features(bb.twist(P, twist), bb.twist(O, twist), after)
    for name in ("centre", "corner", "edge", "qline3", "qline2"):
        i = FEATURES.index(name)
        assert (before[i], before[N_FEATURES + i]) == (after[i], after[N_FEATURES + i])


def unfinished(seed: int, stones: int) -> State:
    """The first unfinished random position with ``stones`` stones from seeds ``seed``, +1000..."""
    for k in range(1000):
        state = random_reachable(seed + 1000 * k, stones)
        if state.stones == stones and not state.is_over():
            return state
    raise AssertionError("no unfinished position found")


def plain_negamax(state: State, depth: int) -> float:
    """Every legal move (duplicates included), no pruning, no table; a leaf whose side to move
    has a winning move (found by trying them all) is worth that win."""
    P, O = state.boards()
    if state.is_over():
        return terminal_value(P, O)
    if depth == 0:
        if tactics.winning_move(P, O) >= 0:
            return WIN_SCORE + 35 - state.stones
        return evaluate(P, O, WEIGHTS, PHASE_OF)
    return max(-plain_negamax(state.after(m), depth - 1) for m in state.legal_moves())


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("depth", [1, 2])
def test_alphabeta_value_equals_plain_negamax(seed, depth):
    state = unfinished(seed, 29 - seed)  # 7..12 empty cells: brute force stays cheap
    result = Searcher(WEIGHTS, PHASE_OF, endgame_empties=0).search(*state.boards(), depth=depth)
    assert result.score == pytest.approx(plain_negamax(state, depth))
    assert result.score == pytest.approx(-plain_negamax(state.after(result.move), depth - 1))


@functools.cache
def reference_solve(text: str) -> int:
    """+1 / 0 / -1 for the side to move with perfect play, from the pure-Python rules."""
    grid = ref.from_text(text)
    result = ref.winner(grid)
    me = ref.to_move(grid)
    if result is not None:
        return 0 if result == "draw" else (1 if result == me else -1)
    return max(-reference_solve(ref.to_text(ref.play(grid, m))) for m in ref.legal_moves(grid))


@pytest.mark.parametrize("seed", range(8))
def test_exact_endgame_matches_the_reference_solution(seed):
    state = unfinished(1000 + seed, 33)  # 3 empty cells
    result = Searcher(WEIGHTS, PHASE_OF, endgame_empties=4).search(*state.boards(), depth=1)
    assert result.exact
    assert int(np.sign(result.score)) == reference_solve(ref.to_text(ref.from_text(
        state_text(state))))


def test_search_takes_a_win_in_one_and_blocks_a_loss():
    threats = parse_state("WWWW..\n......\n......\n......\n......\nBBB.B.\nW")
    result = Searcher(WEIGHTS, PHASE_OF).search(*threats.boards(), depth=2)
    assert result.score >= WIN_SCORE and threats.after(result.move).winner() == 0
    # black to move must stop white's row 0, else white wins next move
    black = parse_state("WWWW..\n......\n......\n......\n....B.\nBB....\nB")
    reply = Searcher(WEIGHTS, PHASE_OF).search(*black.boards(), depth=2)
    assert -WIN_SCORE < reply.score
    assert tactics.winning_move(*black.after(reply.move).boards()) == -1


def value_of_move(state: State, move: int, depth: int) -> float:
    """``move``'s value at ``depth`` plies for the side to move (as a search's root sees it)."""
    child = Searcher(WEIGHTS, PHASE_OF, shared=False).search(*state.after(move).boards(),
                                                             depth=depth - 1)
    return -child.score


def test_a_timed_search_plays_its_last_completed_depth_or_a_move_proven_inside_the_next(
        monkeypatch):
    """What a time limit guarantees: a completed last depth answers as the fixed-depth search
    (same move and value); a depth the clock stopped (``partial``) plays a move whose exact
    value at that depth is its score, no better than the fixed-depth value and no worse than
    the previous depth's move there. The clock counts nodes, so where it stops is the same on
    any machine; the limits are chosen so both kinds of answer occur."""
    clock = node_clock(monkeypatch, search_module)
    state = random_reachable(7, 10)
    kinds = set()
    for limit in (0.02, 0.045, 0.055, 0.065, 0.2, 0.33, 0.5):
        clock.restart()
        result = Searcher(WEIGHTS, PHASE_OF).search(*state.boards(), time_limit=limit)
        assert result.move in state.legal_moves() and clock.now <= limit
        hints = {int(args[2]): int(args[-1]) for args, _ in clock.calls}  # depth: root hint
        fixed = Searcher(WEIGHTS, PHASE_OF, shared=False).search(*state.boards(),
                                                                 depth=result.depth)
        kinds.add(result.partial)
        if not result.partial:
            assert (result.move, result.score) == (fixed.move, fixed.score)
            continue
        previous = Searcher(WEIGHTS, PHASE_OF, shared=False).search(*state.boards(),
                                                                    depth=result.depth - 1)
        assert hints[result.depth] == previous.move  # the last completed depth's move
        assert result.score == value_of_move(state, result.move, result.depth)
        assert value_of_move(state, previous.move, result.depth) <= result.score <= fixed.score
    assert kinds == {False, True}
