"""The evaluation kernels against the plain-Python reference, and the symmetry they promise."""

from __future__ import annotations

import numpy as np
import pytest

from engine.kernels import ntuple as nt
from tests.engine.kernels.reference_ntuple import ReferenceNetwork, board_of_bits, image_bits

BOARDS = [  # (width, height, families, group)
    (8, 8, "straight2", "d4"),
    (8, 8, "corner3+edge2x+square2", "d4"),
    (8, 8, "lines3", "d2"),
    (6, 6, "straight3+corner3", "rot180"),  # 36 bits, only the half turn
    (5, 3, "rect2x3+straight2", "identity"),
]


def random_bitboards(rng, n_cells, count):
    """Pairs (P, O) with every fill level, from empty to full."""
    out = []
    for _ in range(count):
        owner = rng.integers(0, 3, size=n_cells) * (rng.random(n_cells) < rng.random())
        P = sum(1 << c for c in range(n_cells) if owner[c] == 1)
        O = sum(1 << c for c in range(n_cells) if owner[c] == 2)
        out.append((np.uint64(P), np.uint64(O)))
    return out


def network(width, height, families, group):
    tuples = nt.family_tuples(width, height, families)
    layout = nt.board_layout(width, height, tuples, group)
    reference = ReferenceNetwork(3, tuples, layout.symmetries.tolist())
    return layout, reference


@pytest.mark.parametrize("width, height, families, group", BOARDS)
def test_bitboard_and_cell_kernels_equal_the_reference(width, height, families, group):
    layout, reference = network(width, height, families, group)
    t = nt.index_tables(layout)
    rng = np.random.default_rng(1)
    weights = rng.normal(size=layout.n_weights)
    indices = np.empty(len(t.offset), dtype=np.int64)
    for P, O in random_bitboards(rng, layout.n_cells, 60):
        board = board_of_bits(P, O, layout.n_cells)
        expected = reference.evaluate(board, weights)
        assert nt.evaluate_bits(P, O, t, weights) == pytest.approx(expected, abs=1e-9)
        cells = np.array(board, dtype=np.uint8)
        assert nt.evaluate_cells(cells, t, weights) == pytest.approx(expected, abs=1e-9)
        nt.indices_bits(P, O, t, indices)
        assert (indices + t.offset).tolist() == reference.entries(board)
        nt.indices_cells(cells, t, indices)
        assert (indices + t.offset).tolist() == reference.entries(board)


@pytest.mark.parametrize("states", [2, 4, 7])
def test_the_cell_kernel_reads_any_number_of_states(states):
    tuples = [(0, 1, 2), (3, 4), (5, 0, 6, 1), (7,)]
    symmetries = [[0, 1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1, 0]]
    layout = nt.layout_from_tuples(8, states, tuples, symmetries)
    reference = ReferenceNetwork(states, tuples, symmetries)
    t = nt.index_tables(layout)
    rng = np.random.default_rng(states)
    weights = rng.normal(size=layout.n_weights)
    assert layout.n_weights == reference.n_weights
    for _ in range(100):
        board = rng.integers(0, states, size=8)
        assert nt.evaluate_cells(board.astype(np.uint8), t, weights) == pytest.approx(
            reference.evaluate(board.tolist(), weights), abs=1e-9)


@pytest.mark.parametrize("width, height, families, group", BOARDS)
def test_a_board_and_its_symmetric_images_evaluate_equal(width, height, families, group):
    layout, _ = network(width, height, families, group)
    t = nt.index_tables(layout)
    rng = np.random.default_rng(2)
    weights = rng.normal(size=layout.n_weights)
    for P, O in random_bitboards(rng, layout.n_cells, 20):
        value = nt.evaluate_bits(P, O, t, weights)
        for symmetry in layout.symmetries.tolist():
            image = np.uint64(image_bits(P, symmetry)), np.uint64(image_bits(O, symmetry))
            assert nt.evaluate_bits(*image, t, weights) == pytest.approx(value, abs=1e-9)


def test_without_a_symmetry_the_mirror_image_generally_evaluates_differently():
    """The symmetry test above can fail: under the identity group a mirror image differs."""
    layout, _ = network(8, 8, "corner3", "identity")
    t = nt.index_tables(layout)
    weights = np.random.default_rng(3).normal(size=layout.n_weights)
    P, O = np.uint64(0b011), np.uint64(0b100)  # a1, b1 own; c1 opponent
    mirror = nt.board_symmetries(8, 8, "mirror")[1].tolist()
    image = np.uint64(image_bits(P, mirror)), np.uint64(image_bits(O, mirror))
    assert nt.evaluate_bits(P, O, t, weights) != nt.evaluate_bits(*image, t, weights)


@pytest.mark.parametrize("width, height, families, group", BOARDS[:4])
def test_colour_swapped_weights_evaluate_the_board_from_the_other_side(
        width, height, families, group):
    layout, reference = network(width, height, families, group)
    t = nt.index_tables(layout)
    rng = np.random.default_rng(4)
    weights = rng.normal(size=(2, layout.n_weights))
    swapped = nt.colour_swapped(weights, layout)
    assert swapped.shape == weights.shape
    for P, O in random_bitboards(rng, layout.n_cells, 30):
        for phase in range(2):
            expected = reference.evaluate(board_of_bits(O, P, layout.n_cells), weights[phase])
            assert nt.evaluate_bits(P, O, t, swapped[phase]) == pytest.approx(expected, abs=1e-9)


def test_a_state_permutation_relabels_every_cell():
    layout = nt.layout_from_tuples(3, 3, [(0, 1, 2)])
    weights = np.arange(27, dtype=np.float64)
    shifted = nt.state_permuted(weights, layout, (1, 2, 0))  # 0 -> 1, 1 -> 2, 2 -> 0
    assert shifted[0 * 9 + 1 * 3 + 2] == weights[1 * 9 + 2 * 3 + 0]
    with pytest.raises(nt.LayoutError, match=r"^permutation: must reorder the states 0\.\.2"):
        nt.state_permuted(weights, layout, (0, 1, 1))


def test_layouts_and_weights_the_kernels_cannot_read_are_refused():
    cells = nt.layout_from_tuples(100, 2, [(0, 99)])
    with pytest.raises(nt.LayoutError, match=r"^layout: the bitboard kernels need 3 states"):
        nt.check_bitboard_layout(cells)
    layout = nt.board_layout(8, 8, nt.straight_tuples(8, 8, 2), "d4")
    nt.check_weights(layout, np.zeros((3, 288)))
    for bad in (np.zeros(287), np.zeros(288, dtype=np.float32), np.zeros((2, 2, 288))):
        with pytest.raises(nt.LayoutError, match=r"^weights: expected float64 \[phases,\] 288"):
            nt.check_weights(layout, bad)
