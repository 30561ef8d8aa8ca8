"""TD learning: one step equals the formula by hand; repeated steps converge; a game's targets."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit

from engine.kernels import ntuple as nt
from engine.kernels.ntuple.td import add_to_entries, check_td_args, squared_counts

U = np.uint64


@pytest.fixture
def pair():
    """Two cells read as one 2-tuple, the swap of the cells a symmetry: instances (0, 1) and
    (1, 0) share one table of 9 weights."""
    layout = nt.layout_from_tuples(2, 3, [(0, 1)], [[0, 1], [1, 0]])
    return layout, nt.index_tables(layout)


def test_a_linear_step_moves_each_active_entry_by_alpha_times_the_error(pair):
    layout, t = pair
    weights = np.zeros(layout.n_weights)
    weights[5], weights[7] = 0.2, -0.1  # own on cell 0, opponent on 1: (1, 2) -> 5, (2, 1) -> 7
    error = nt.td_step_bits(U(0b01), U(0b10), 1.0, 0.5, False, t, weights)
    assert error == pytest.approx(0.9)  # 1 - (0.2 - 0.1)
    expected = np.zeros(9)
    expected[5], expected[7] = 0.2 + 0.45, -0.1 + 0.45
    assert weights == pytest.approx(expected)


def test_an_entry_two_instances_share_moves_twice(pair):
    layout, t = pair
    weights = np.zeros(layout.n_weights)
    weights[0] = 0.25  # the empty board: both instances read entry 0, value 0.5
    nt.td_step_bits(U(0), U(0), 1.5, 0.1, False, t, weights)
    assert weights[0] == pytest.approx(0.25 + 2 * 0.1 * 1.0)
    assert not weights[1:].any()


def test_a_squashed_step_scales_by_the_slope_of_tanh(pair):
    layout, t = pair
    weights = np.zeros(layout.n_weights)
    weights[5], weights[7] = 0.2, -0.1
    value = math.tanh(0.1)
    step = 0.5 * (0.8 - value) * (1 - value**2)
    error = nt.td_step_bits(U(0b01), U(0b10), 0.8, 0.5, True, t, weights)
    assert error == pytest.approx(0.8 - value)
    assert (weights[5], weights[7]) == pytest.approx((0.2 + step, -0.1 + step))


def test_the_cell_step_equals_the_bitboard_step():
    layout = nt.board_layout(6, 6, nt.family_tuples(6, 6, "straight2+square2"), "rot180")
    t = nt.index_tables(layout)
    rng = np.random.default_rng(21)
    start = rng.normal(size=layout.n_weights)
    by_bits, by_cells = start.copy(), start.copy()
    P, O = U(0b1011 << 14), U(0b0100_0001 << 20)
    cells = np.array([(int(P) >> c & 1) + 2 * (int(O) >> c & 1) for c in range(36)], np.uint8)
    for squash in (False, True):
        a = nt.td_step_bits(P, O, 0.3, 0.05, squash, t, by_bits)
        b = nt.td_step_cells(cells, 0.3, 0.05, squash, t, by_cells)
        assert a == pytest.approx(b) and by_bits == pytest.approx(by_cells)


def random_positions(rng, count):
    out = []
    for _ in range(count):
        cells = rng.permutation(64)[: rng.integers(4, 60)]
        split = len(cells) // 2
        out.append((U(sum(1 << int(c) for c in cells[:split])),
                    U(sum(1 << int(c) for c in cells[split:]))))
    return out


@pytest.mark.parametrize("squash", [False, True])
def test_steps_on_fixed_positions_converge_to_fixed_targets(squash):
    """Targets a hidden network of the same layout produces, so an exact fit exists. A step
    is stable while alpha x (sum of squared entry counts) < 2; here that sum is at most 54."""
    layout = nt.board_layout(8, 8, nt.family_tuples(8, 8, "corner3+edge2x"), "d4")
    t = nt.index_tables(layout)
    rng = np.random.default_rng(22)
    hidden = rng.normal(scale=0.05, size=layout.n_weights)
    positions = random_positions(rng, 40)
    targets = [nt.value_bits(P, O, t, hidden, squash) for P, O in positions]
    weights = np.zeros(layout.n_weights)

    def squared_error():
        return sum((y - nt.value_bits(P, O, t, weights, squash)) ** 2
                   for (P, O), y in zip(positions, targets, strict=True))

    first = squared_error()
    for _ in range(200):
        for (P, O), y in zip(positions, targets, strict=True):
            nt.td_step_bits(P, O, y, 1 / 64, squash, t, weights)
    assert first > 0.5 and squared_error() < 1e-12 * first


def test_a_game_step_uses_the_next_value_with_the_sign_of_who_moves(pair):
    """Three positions, mover 0, 0 (player 1 passed), 1; player 0 won (+1)."""
    layout, t = pair
    players = np.array([0b00, 0b01, 0b01], dtype=np.uint64)
    opponents = np.array([0b00, 0b00, 0b10], dtype=np.uint64)
    mover = np.array([0, 0, 1], dtype=np.int64)
    start = np.random.default_rng(23).normal(size=layout.n_weights)
    by_game, by_steps = start.copy(), start.copy()
    squared = nt.td_game_bits(players, opponents, mover, 1.0, 0.1, False, t, by_game)
    errors = []
    for k, sign in ((0, +1), (1, -1)):  # same mover next: +V(next); other mover: -V(next)
        target = sign * nt.value_bits(players[k + 1], opponents[k + 1], t, by_steps, False)
        errors.append(nt.td_step_bits(players[k], opponents[k], target, 0.1, False, t, by_steps))
    errors.append(nt.td_step_bits(players[2], opponents[2], -1.0, 0.1, False, t, by_steps))
    assert by_game == pytest.approx(by_steps)
    assert squared == pytest.approx(sum(e * e for e in errors))


def test_td_on_one_game_learns_its_result_for_every_position():
    layout = nt.board_layout(8, 8, nt.straight_tuples(8, 8, 2), "identity")
    t = nt.index_tables(layout)
    rng = np.random.default_rng(24)
    positions = random_positions(rng, 12)
    players = np.array([p for p, _ in positions], dtype=np.uint64)
    opponents = np.array([o for _, o in positions], dtype=np.uint64)
    mover = np.array([0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0], dtype=np.int64)  # a pass at 3
    weights = np.zeros(layout.n_weights)
    for _ in range(2000):
        nt.td_game_bits(players, opponents, mover, -0.6, 0.01, True, t, weights)
    for k in range(12):
        expected = -0.6 if mover[k] == 0 else 0.6
        value = nt.value_bits(players[k], opponents[k], t, weights, True)
        assert value == pytest.approx(expected, abs=1e-3)


def test_a_game_of_cell_vectors_learns_like_a_game_of_bitboards():
    layout = nt.board_layout(8, 8, nt.family_tuples(8, 8, "straight2"), "d4")
    t = nt.index_tables(layout)
    rng = np.random.default_rng(25)
    positions = random_positions(rng, 6)
    cells = np.array([[(int(P) >> c & 1) + 2 * (int(O) >> c & 1) for c in range(64)]
                      for P, O in positions], dtype=np.uint8)
    mover = np.array([0, 1, 0, 1, 0, 1], dtype=np.int64)
    players, opponents = (np.array(side, dtype=np.uint64) for side in zip(*positions, strict=True))
    by_bits, by_cells = np.zeros(layout.n_weights), np.zeros(layout.n_weights)
    for _ in range(5):
        a = nt.td_game_bits(players, opponents, mover, 1.0, 0.02, True, t, by_bits)
        b = nt.td_game_cells(cells, mover, 1.0, 0.02, True, t, by_cells)
        assert a == pytest.approx(b)
    assert by_bits == pytest.approx(by_cells) and by_bits.any()


@njit(cache=True)
def _self_play_like(t, weights, players, opponents, mover, result):
    """A game's numba self-play loop hands each finished game to the kernel."""
    total = 0.0
    for _ in range(3):
        total += nt.td_game_bits(players, opponents, mover, result, 0.01, True, t, weights)
    return total


def test_a_jitted_game_loop_drives_the_td_kernel():
    layout = nt.board_layout(8, 8, nt.straight_tuples(8, 8, 2), "d4")
    t = nt.index_tables(layout)
    players = np.array([0b1, 0b10], dtype=np.uint64)
    opponents = np.array([0b100, 0b1000], dtype=np.uint64)
    weights = np.zeros(layout.n_weights)
    assert _self_play_like(t, weights, players, opponents, np.array([0, 1]), 1.0) > 0
    assert weights.any()


def test_alpha_one_puts_a_linear_value_on_its_target_wherever_entries_are_shared(pair):
    """The one meaning of alpha in every game's ``td_learn``: a step moves the sum by alpha
    times the error, each entry by that over ``squared_counts``. On the empty board both
    instances read entry 0 (squared counts 2 ** 2 = 4); after one move they read two entries."""
    layout, t = pair
    idx = np.empty(len(t.offset), np.int64)
    counts = np.zeros(layout.n_weights, np.int64)
    for P, O, norm in ((U(0), U(0), 4), (U(0b01), U(0b10), 2)):
        weights = np.random.default_rng(int(P)).uniform(-1, 1, layout.n_weights)
        nt.indices_bits(P, O, t, idx)
        assert squared_counts(idx, t, counts) == norm and not counts.any()  # scratch left 0
        error = 0.7 - nt.evaluate_bits(P, O, t, weights)
        add_to_entries(idx, t, weights, 1.0 * error / norm)
        assert nt.evaluate_bits(P, O, t, weights) == pytest.approx(0.7, abs=1e-12)
        # the kernel's step at the per-entry rate alpha / squared counts: a quarter of the way
        assert nt.td_step_bits(P, O, -0.3, 0.25 / norm, False, t, weights) == pytest.approx(-1)
        assert nt.evaluate_bits(P, O, t, weights) == pytest.approx(0.7 - 0.25, abs=1e-12)


@pytest.mark.parametrize("args, message", [
    ((-1, 0.1, 0.1), "games=-1 must be an integer >= 0"),
    ((True, 0.1, 0.1), "games=True must be an integer >= 0"),
    ((1, 0.0, 0.1), "alpha=0.0 must satisfy 0 < alpha <= 1 (the share of the TD error a step "
                    "moves the position's value by)"),
    ((1, 1.01, 0.1), "alpha=1.01 must satisfy 0 < alpha <= 1 (the share of the TD error a step "
                     "moves the position's value by)"),
    ((1, 0.1, -0.5), "epsilon=-0.5 must satisfy 0 <= epsilon <= 1"),
])
def test_every_games_td_arguments_are_checked_in_one_line(args, message):
    with pytest.raises(ValueError) as err:
        check_td_args(*args)
    assert str(err.value) == message
    check_td_args(0, 1.0, 0.0)  # the edges are allowed
