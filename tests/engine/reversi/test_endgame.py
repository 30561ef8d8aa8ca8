"""Every shortcut of the exact endgame solver against brute force.

The references share no code with the solver: flips from ``reference_rules.py`` (lists of
cells), exact scores from plain recursive minimax (``tests/helpers_search.exact_score``),
stable discs from enumerating every continuation of the game.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.reversi.endgame import small
from engine.reversi.endgame.flips import flips
from engine.reversi.endgame.solver import solve_exact
from engine.reversi.endgame.stability import stable_discs
from engine.reversi.endgame.table import new_table
from engine.reversi.rules.state import PASS, Position
from tests.engine.reversi import reference_rules as ref
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_search import exact_score, positions_with_empties, with_passes

SIGNS = {"othello": 1, "reversed": -1}


def random_boards(n: int, seed: int):
    """Arbitrary (not necessarily reachable) boards: each square empty, P or O at random."""
    rng = np.random.default_rng(seed)
    for cells in rng.integers(-1, 2, size=(n, 64)):
        yield ref.to_boards(list(cells))


def test_flips_equal_the_reference_rules_on_every_empty_square():
    boards = list(random_boards(300, seed=1))
    boards += [random_reachable(seed, plies).boards for seed in range(30) for plies in (20, 45)]
    for P, O in boards:
        cells = ref.from_boards(int(P), int(O))
        for sq in range(64):
            if cells[sq] == 0:
                want = sum(1 << s for s in ref.flipped_squares(cells, sq))
                assert int(flips(np.uint64(P), np.uint64(O), sq)) == want, (P, O, sq)


def small_positions() -> list[Position]:
    """Positions with 0..7 empties, the side to move sometimes having to pass."""
    out = [p for e in range(1, 8) for p in positions_with_empties(10, e, seed=40 + e)]
    out += [p for p in with_passes(60, seed=3) if p.empties <= 7]
    out.append(Position.parse("X" * 40 + "O" * 24 + " X"))  # game over, full board
    out.append(Position.parse("X" * 30 + "-" * 4 + "X" * 30 + " O"))  # nobody can move
    return out


@pytest.mark.parametrize("variant", ["othello", "reversed"])
def test_last_1_to_7_solvers_equal_brute_force_for_any_window(variant):
    """Fail-soft: a value at or below alpha is an upper bound, at or above beta a lower bound,
    and inside the window the exact score."""
    rng = np.random.default_rng(7)
    for p in small_positions():
        want = exact_score(p, variant == "reversed")
        for _ in range(4):
            alpha = int(rng.integers(-66, 64))
            beta = alpha + int(rng.choice([1, 2, 10, 130]))
            v, nodes = small.solve_small(*p.boards, alpha, beta, SIGNS[variant])
            assert nodes >= 1
            if v <= alpha:
                assert want <= v, (p.to_string(), alpha, beta)
            elif v >= beta:
                assert want >= v, (p.to_string(), alpha, beta)
            else:
                assert v == want, (p.to_string(), alpha, beta)


def continuations_flip(p: Position, discs: int, black: bool) -> bool:
    """True if some sequence of legal moves from ``p`` turns one of ``discs`` (of colour
    ``black``) to the other colour."""
    own = p.black if black else p.white
    if discs & ~own:
        return True
    return any(continuations_flip(p.play(m), discs, black) for m in p.legal_moves())


def test_stable_discs_never_flip_in_any_continuation():
    positions = [p for e in (4, 5, 6) for p in positions_with_empties(25, e, seed=60 + e)]
    found = 0
    for p in positions:
        for mover in (True, False):
            P, O = p.boards if mover else p.boards[::-1]
            stable = int(stable_discs(P, O))
            assert stable & ~int(P) == 0
            black = p.black_to_move == mover
            assert not continuations_flip(p, stable, black), p.to_string()
            found += bin(stable).count("1")
    assert found > 100  # the test is not vacuous


def test_stability_bound_holds_for_the_exact_score():
    """The cut-off's bound: the side to move scores at most 64 - 2 x opponent's stable discs."""
    for p in [p for e in (5, 7) for p in positions_with_empties(20, e, seed=80 + e)]:
        P, O = p.boards
        for reversed_rules in (False, True):
            binding = stable_discs(P, O) if reversed_rules else stable_discs(O, P)
            bound = 64 - 2 * bin(int(binding)).count("1")
            assert exact_score(p, reversed_rules) <= bound


def test_whole_board_is_stable_and_a_lone_corner_is():
    full = Position.parse("XO" * 32 + " X")
    assert int(stable_discs(*full.boards)) == full.player
    corner = Position.parse("X" + "-" * 26 + "OX------XO" + "-" * 27 + " O")
    assert int(stable_discs(corner.opponent, corner.player)) & 1  # a1 is black's for good


def check_against_brute_force(positions, variant, bits):
    table = new_table(bits)
    rev = variant == "reversed"
    for gen, p in enumerate(positions, start=1):
        move, score, nodes, aborted = solve_exact(*p.boards, rev, table, gen)
        want = exact_score(p, rev)
        assert (score, aborted) == (want, False), p.to_string()
        assert -exact_score(p.play(move), rev) == want  # the move really reaches the score


@pytest.mark.parametrize("variant", ["othello", "reversed"])
@pytest.mark.parametrize("bits", [4, 16])
def test_solver_equals_brute_force_at_8_empties(variant, bits):
    """8 empties: one table level above the 7-empties solver. bits=4: a 16-entry table, so
    nearly every store evicts another position."""
    positions = positions_with_empties(5, 8, seed=8)
    positions += [p for p in with_passes(30, seed=11) if 6 <= p.empties <= 8][:3]
    check_against_brute_force(positions, variant, bits)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["othello", "reversed"])
def test_solver_equals_brute_force_at_9_and_10_empties(variant):
    positions = positions_with_empties(4, 9, seed=9) + positions_with_empties(2, 10, seed=10)
    check_against_brute_force(positions, variant, 4)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["othello", "reversed"])
def test_solver_equals_the_plain_negamax_solver_at_12_to_16_empties(variant):
    """Beyond brute force: the old explicit-stack negamax (no shortcuts but the table)."""
    from engine.kernels.search.tt import new_table as midgame_table
    from engine.reversi.files import reference_weights
    from engine.reversi.search.negamax import EXACT_DEPTH, negamax

    arrays = reference_weights("wpc").search_arrays()
    rev = variant == "reversed"
    for gen, p in enumerate(
        [p for e in (12, 14, 16) for p in positions_with_empties(3, e, seed=90 + e)], start=1
    ):
        _, want, _, _ = negamax(*p.boards, EXACT_DEPTH, True, rev, *arrays, midgame_table(16),
                                np.uint32(1), 2**62)
        _, score, _, _ = solve_exact(*p.boards, rev, new_table(12), gen)
        assert score == want, p.to_string()


def test_results_do_not_depend_on_what_the_table_holds():
    warm = new_table(10)
    positions = [p for e in (8, 10, 12) for p in positions_with_empties(4, e, seed=30 + e)]
    for p in positions + positions[::-1]:
        for rev in (False, True):
            cold = solve_exact(*p.boards, rev, new_table(10), 1)
            again = solve_exact(*p.boards, rev, warm, 2 + rev)  # warm: entries of earlier solves
            assert cold[:2] == again[:2], p.to_string()


def test_an_aborted_solve_leaves_the_table_sound():
    table = new_table(12)
    for p in positions_with_empties(4, 12, seed=5):
        *_, aborted = solve_exact(*p.boards, False, table, 1, max_nodes=500)
        assert aborted
        _, score, _, aborted = solve_exact(*p.boards, False, table, 1)  # same generation
        assert not aborted and score == solve_exact(*p.boards, False, new_table(12), 1)[1]


def passes_at(empties: range, n: int, seed: int) -> list[Position]:
    """Positions whose side to move must pass, with a number of empties in ``empties``."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < n:
        p = Position.start()
        while p.legal_moves() and p.empties >= empties.start:
            moves = p.legal_moves()
            if moves == [PASS] and p.empties in empties:
                found.append(p)
                break
            p = p.play(moves[rng.integers(len(moves))])
    return found


@pytest.mark.parametrize("variant", ["othello", "reversed"])
def test_solver_passes_correctly_above_7_empties(variant):
    """A pass at a table node (8+ empties) and at the root."""
    check_against_brute_force(passes_at(range(8, 10), 3, seed=1), variant, 8)
