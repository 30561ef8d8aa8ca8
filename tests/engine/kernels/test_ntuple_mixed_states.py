"""Cells with different numbers of states in one layout: a ring of 6 boxes (none / own /
opponent) joined by 6 edges (not drawn / drawn), turned by a sixth of a circle."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.kernels import ntuple as nt
from tests.engine.kernels.reference_ntuple import ReferenceNetwork

BOXES, EDGES = list(range(6)), list(range(6, 12))  # edge 6 + k joins box k and box k + 1
STATES = [3] * 6 + [2] * 6
TURN = [(b + 1) % 6 for b in BOXES] + [6 + (e - 6 + 1) % 6 for e in EDGES]
TUPLES = [(0, 6, 1), (6, 7, 8), (0, 1, 2, 3), (0,), (9, 2)]


@pytest.fixture
def ring():
    group = nt.group_closure([TURN], 12)
    layout = nt.layout_from_tuples(12, STATES, TUPLES, group, name="ring")
    return layout, ReferenceNetwork(STATES, TUPLES, group.tolist())


def random_cells(rng):
    return np.array([rng.integers(3) for _ in BOXES] + [rng.integers(2) for _ in EDGES],
                    dtype=np.uint8)


def test_a_table_has_the_product_of_its_cells_states(ring):
    layout, reference = ring
    assert layout.lut_sizes.tolist() == [3 * 2 * 3, 2 * 2 * 2, 3**4, 3, 2 * 3]
    assert layout.lut_offsets.tolist() == reference.offsets
    assert layout.describe() == ("ring: 12 cells x 2/3 states, 6 symmetries, 5 tables, "
                                 f"{reference.n_weights} weights, 30 instances")  # 5 x 6


def test_the_cell_kernels_equal_the_reference_and_respect_the_turn(ring):
    layout, reference = ring
    t = nt.index_tables(layout)
    rng = np.random.default_rng(31)
    weights = rng.normal(size=layout.n_weights)
    indices = np.empty(len(t.offset), dtype=np.int64)
    for _ in range(200):
        cells = random_cells(rng)
        expected = reference.evaluate(cells.tolist(), weights)
        assert nt.evaluate_cells(cells, t, weights) == pytest.approx(expected, abs=1e-9)
        nt.indices_cells(cells, t, indices)
        assert (indices + t.offset).tolist() == reference.entries(cells.tolist())
        turned = np.empty_like(cells)
        turned[TURN] = cells  # what cell c held, its image TURN[c] holds now
        assert nt.evaluate_cells(turned, t, weights) == pytest.approx(expected, abs=1e-9)


def test_set_cell_tracks_mixed_digits(ring):
    layout, _ = ring
    t = nt.index_tables(layout)
    rng = np.random.default_rng(32)
    cells = random_cells(rng)
    incremental, full = np.empty(len(t.offset), np.int64), np.empty(len(t.offset), np.int64)
    nt.indices_cells(cells, t, incremental)
    for _ in range(300):
        cell = int(rng.integers(12))
        new = int(rng.integers(STATES[cell]))
        nt.set_cell(incremental, t, cell, int(cells[cell]), new)
        cells[cell] = new
        nt.indices_cells(cells, t, full)
        assert np.array_equal(incremental, full)


def test_mixed_states_survive_json_and_td_on_cells(ring):
    layout, _ = ring
    assert nt.layout_from_json(json.loads(json.dumps(nt.layout_to_json(layout)))) == layout
    t = nt.index_tables(layout)
    weights = np.zeros(layout.n_weights)
    cells = random_cells(np.random.default_rng(33))
    for _ in range(100):
        nt.td_step_cells(cells, 0.5, 0.02, True, t, weights)
    assert nt.value_cells(cells, t, weights, True) == pytest.approx(0.5, abs=1e-6)


def test_a_symmetry_must_keep_each_cells_number_of_states():
    swap_box_and_edge = [6, 1, 2, 3, 4, 5, 0, 7, 8, 9, 10, 11]
    with pytest.raises(nt.LayoutError, match=r"^symmetries\[1\]: maps cell 0 \(3 states\) to "
                                             r"cell 6 \(2 states\)$"):
        nt.layout_from_tuples(12, STATES, [(0,)], [list(range(12)), swap_box_and_edge])


def test_bitboards_and_state_permutations_need_the_same_states_everywhere(ring):
    layout, _ = ring
    with pytest.raises(nt.LayoutError, match=r"^layout: the bitboard kernels need 3 states in "
                                             r"every cell and <= 64 cells, got mixed states"):
        nt.check_bitboard_layout(layout)
    with pytest.raises(nt.LayoutError, match=r"^permutation: the cells have different numbers"):
        nt.colour_swapped(np.zeros(layout.n_weights), layout)
