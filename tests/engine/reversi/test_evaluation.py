"""Evaluation features against slow computations; stable discs against exhaustive play."""

from __future__ import annotations

import numpy as np
import pytest

from engine.reversi.genome.evaluation import (
    WIN_SCORE,
    edge_stable,
    evaluate,
    feature_vector,
    stable_discs,
)
from engine.reversi.genome.weights import FEATURE_NAMES, Weights, default_phase_bounds
from engine.reversi.rules.state import PASS, Position, square
from tests.engine.reversi import reference_rules as ref
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_search import (
    positions_with_empties,
    slow_features,
    slow_positional,
)


def cells_of(p: Position) -> list[int]:
    return ref.from_boards(p.player, p.opponent)


def test_mobility_and_frontier_match_slow_counts(reachable_positions):
    for p in reachable_positions:
        got = feature_vector(*p.boards)
        assert list(got[:4]) == slow_features(cells_of(p)), p.to_string()
        assert got[0] == len([m for m in p.legal_moves() if m != PASS])


def test_evaluate_is_the_weighted_sum_of_slow_features(reachable_positions):
    rng = np.random.default_rng(0)
    w = Weights(
        default_phase_bounds(4),
        rng.uniform(-1, 1, (4, 64)),
        rng.uniform(-1, 1, (4, len(FEATURE_NAMES))),
    )
    phase_of, positional, features = w.numba_arrays()
    for p in reachable_positions:
        if p.is_game_over():
            continue
        cells = cells_of(p)
        discs = 64 - p.empties
        phase = [i for i in range(4) if w.phase_discs(i)[0] <= discs <= w.phase_discs(i)[1]]
        assert len(phase) == 1
        f = features[phase[0]]
        stab = feature_vector(*p.boards)[4:]
        want = (
            slow_positional(cells, positional[phase[0]])
            + float(np.dot(f[:4], slow_features(cells)))
            + float(np.dot(f[4:], stab))
        )
        for rev in (False, True):  # the variant matters only at the end of the game
            assert evaluate(*p.boards, phase_of, positional, features, rev) == pytest.approx(
                want, abs=1e-9
            )


def test_finished_games_dominate_and_follow_the_variant():
    w = Weights((), np.full((1, 64), 50.0), np.full((1, 6), 50.0))
    arrays = w.numba_arrays()
    win = Position.parse("X" * 40 + "-" * 24 + " X")  # white wiped out: nobody can move
    assert win.is_game_over()
    assert evaluate(*win.boards, *arrays, False) == WIN_SCORE + 64  # empties go to the winner
    assert evaluate(*win.boards, *arrays, True) == -WIN_SCORE - 64
    assert evaluate(win.boards[1], win.boards[0], *arrays, True) == WIN_SCORE + 64
    draw = Position.parse("X" * 32 + "O" * 32 + " O")
    assert evaluate(*draw.boards, *arrays, False) == evaluate(*draw.boards, *arrays, True) == 0.0


def test_known_stable_discs():
    full = Position.parse("XO" * 32 + " X")
    assert stable_discs(*full.boards) == full.boards[0]  # full board: everything stable
    p = Position.parse("X" + "-" * 62 + "O X")  # lone corners are stable
    assert stable_discs(*p.boards) == np.uint64(1 << square("a1"))
    assert stable_discs(p.boards[1], p.boards[0]) == np.uint64(1 << square("h8"))
    # a1 b1 c1 own in a row from the corner: stable; d1 after a gap: not
    q = Position.parse("XXX-X" + "-" * 58 + "O X")
    assert stable_discs(*q.boards) == np.uint64(0b111)
    # the start position has nothing stable
    assert stable_discs(*Position.start().boards) == 0


def never_flipped(p: Position) -> tuple[int, int]:
    """(black, white) discs that keep their colour in every legal continuation (exhaustive)."""
    moves = p.legal_moves()
    keep_b, keep_w = p.black, p.white
    for m in moves:
        child = p.play(m)
        cb, cw = never_flipped(child)
        keep_b &= cb
        keep_w &= cw
    return keep_b, keep_w


def test_stable_discs_are_truly_stable_exhaustive():
    """With few empties every continuation is enumerated: a claimed stable disc never flips."""
    positions = positions_with_empties(12, 6, seed=1) + positions_with_empties(6, 8, seed=2)
    claimed_total = 0
    for p in positions:
        keep_b, keep_w = never_flipped(p)
        own = int(stable_discs(*p.boards))
        opp = int(stable_discs(p.boards[1], p.boards[0]))
        black, white = (own, opp) if p.black_to_move else (opp, own)
        assert black & ~keep_b == 0 and white & ~keep_w == 0, p.to_string()
        claimed_total += bin(own | opp).count("1")
    assert claimed_total > 50  # the bound is not trivially empty


def test_stable_discs_survive_random_continuations():
    rng = np.random.default_rng(4)
    checked = 0
    for seed in range(30):
        p = random_reachable(seed, int(rng.integers(30, 56)))
        stable_b = (
            int(stable_discs(*p.boards))
            if p.black_to_move
            else int(stable_discs(p.boards[1], p.boards[0]))
        )
        stable_w = (
            int(stable_discs(p.boards[1], p.boards[0]))
            if p.black_to_move
            else int(stable_discs(*p.boards))
        )
        for _ in range(20):
            q = p
            while q.legal_moves():
                moves = q.legal_moves()
                q = q.play(moves[rng.integers(len(moves))])
                assert stable_b & ~q.black == 0 and stable_w & ~q.white == 0, p.to_string()
        checked += bin(stable_b | stable_w).count("1")
    assert checked > 0


def test_edge_table_rank_and_file_orientation():
    # own discs a1..a3 (file a) and h8, g8 (rank 8) from corners: stable through the edge table
    p = Position.parse("X-------X-------X-------" + "-" * 32 + "---O--XX X")
    assert edge_stable(*p.boards) == np.uint64(
        (1 << 0) | (1 << 8) | (1 << 16) | (1 << 62) | (1 << 63)
    )


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_won_and_lost_games_dominate_even_the_largest_allowed_weights(reachable_positions, sign):
    from engine.reversi.genome.weights import GenomeLayout

    layout = GenomeLayout(3, False)
    genome = np.full(layout.size, sign * layout.max_gene_magnitude())
    arrays = Weights.from_genome(genome, default_phase_bounds(3), False).numba_arrays()
    # nearly full boards push the positional sum towards its bound: X everywhere but one O
    # and one empty square that X can play (it flips the O)
    crowded = Position.parse("X" * 61 + "O" + "-" + "X" + " X")
    assert crowded.legal_moves() == [square("g8")] and not crowded.is_game_over()
    positions = [p for p in [*reachable_positions, crowded] if not p.is_game_over()]
    values = [evaluate(*p.boards, *arrays, False) for p in positions]
    assert max(abs(v) for v in values) > 0.1 * WIN_SCORE  # the test uses large values
    won = Position.parse("X" * 63 + "O" + " X")  # 63-1: finished, X won by 62 (othello)
    assert won.is_game_over()
    for reversed_rules in (False, True):
        won_value = evaluate(*won.boards, *arrays, reversed_rules)
        assert abs(won_value) > max(abs(v) for v in values)
        assert won_value > max(values) if not reversed_rules else won_value < min(values)
