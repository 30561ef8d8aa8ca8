"""Incremental indices (Edax's way) equal a full recomputation after every move and undo."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from engine.kernels import ntuple as nt

LAYOUTS = [
    (8, 8, "corner3+edge2x+straight2+lines", "d4"),
    (6, 6, "straight3+square2", "rot180"),
]


def random_moves(rng, n_cells, plies):
    """A game-like sequence without any game's rules: each ply the mover either places a stone
    on an empty cell and turns a random subset of the other colour's stones, or passes.
    Yields ``(black, white, mover, placed, flips)`` before each move (mover 1 = black)."""
    black = white = 0
    mover = 1
    for _ in range(plies):
        own, other = (black, white) if mover == 1 else (white, black)
        empty = [c for c in range(n_cells) if not (black | white) >> c & 1]
        if not empty or rng.random() < 0.05:
            placed, flips = -1, 0  # a pass: nothing changes but the side to move
        else:
            placed = int(rng.choice(empty))
            flips = sum(1 << c for c in range(n_cells) if other >> c & 1 and rng.random() < 0.3)
        yield black, white, mover, placed, flips
        own |= flips | (1 << placed if placed >= 0 else 0)
        other &= ~flips
        black, white = (own, other) if mover == 1 else (other, own)
        mover = 3 - mover


@pytest.mark.parametrize("width, height, families, group", LAYOUTS)
def test_incremental_indices_equal_full_recomputation_move_by_move(
        width, height, families, group):
    layout = nt.board_layout(width, height, nt.family_tuples(width, height, families), group)
    t = nt.index_tables(layout)
    rng = np.random.default_rng(11)
    weights = rng.normal(size=layout.n_weights)
    by_mover = {1: weights, 2: nt.colour_swapped(weights, layout)}
    full = np.empty(len(t.offset), dtype=np.int64)
    for _ in range(5):
        incremental = np.zeros(len(t.offset), dtype=np.int64)  # the empty board
        history = []
        for black, white, mover, placed, flips in random_moves(rng, layout.n_cells, 45):
            nt.indices_bits(np.uint64(black), np.uint64(white), t, full)
            assert np.array_equal(incremental, full)
            P, O = (black, white) if mover == 1 else (white, black)
            assert nt.evaluate_indices(incremental, t, by_mover[mover]) == pytest.approx(
                nt.evaluate_bits(np.uint64(P), np.uint64(O), t, weights), abs=1e-9)
            nt.play_bits(incremental, t, placed, np.uint64(flips), mover)
            history.append((placed, flips, mover))
        for placed, flips, mover in reversed(history):
            nt.undo_bits(incremental, t, placed, np.uint64(flips), mover)
        assert not incremental.any()


def test_set_cell_keeps_generic_cell_indices_equal_to_a_recomputation():
    layout = nt.layout_from_tuples(12, 4, [(0, 1, 2, 3), (3, 7, 11), (5, 6), (4, 8, 9, 10)],
                                   [list(range(12)), [11 - c for c in range(12)]])
    t = nt.index_tables(layout)
    rng = np.random.default_rng(12)
    cells = rng.integers(0, 4, size=12).astype(np.uint8)
    incremental = np.empty(len(t.offset), dtype=np.int64)
    full = np.empty_like(incremental)
    nt.indices_cells(cells, t, incremental)
    for _ in range(300):
        cell, new = int(rng.integers(12)), int(rng.integers(4))
        nt.set_cell(incremental, t, cell, int(cells[cell]), new)
        cells[cell] = new
        nt.indices_cells(cells, t, full)
        assert np.array_equal(incremental, full)


@njit(cache=True)
def _search_like_walk(t, weights, swapped, placed, flips, colours):
    """What a game's search does in numba: play, evaluate the child, undo."""
    indices = np.zeros(t.offset.shape[0], dtype=np.int64)
    out = np.empty(placed.shape[0])
    for k in range(placed.shape[0]):
        nt.play_bits(indices, t, placed[k], flips[k], colours[k])
        side = swapped if colours[k] == 1 else weights  # the other colour is to move now
        out[k] = nt.evaluate_indices(indices, t, side)
        nt.undo_bits(indices, t, placed[k], flips[k], colours[k])
    return out


def test_the_incremental_kernels_run_inside_a_jitted_caller():
    layout = nt.board_layout(8, 8, nt.family_tuples(8, 8, "corner3+edge2x"), "d4")
    t = nt.index_tables(layout)
    weights = np.random.default_rng(13).normal(size=layout.n_weights)
    placed = np.array([0, 9, 63], dtype=np.int64)
    colours = np.array([1, 2, 1], dtype=np.int64)
    flips = np.zeros(3, dtype=np.uint64)  # from the empty board: nothing to flip
    values = _search_like_walk(t, weights, nt.colour_swapped(weights, layout), placed, flips,
                               colours)
    for k in range(3):
        stone = np.uint64(1 << int(placed[k]))
        # after the move the other colour is to move: the stone is the opponent's
        assert values[k] == pytest.approx(nt.evaluate_bits(np.uint64(0), stone, t, weights))


@pytest.mark.parametrize("width, height, families, group", LAYOUTS)
def test_side_to_move_indices_kept_by_swaps_and_changed_cells(width, height, families, group):
    """TD self-play's way (``engine.reversi.td.step.advance``): indices in the mover's colours,
    the other side's view by ``swapped_states`` from the occupancy's indices, each move's cells by
    ``change_bits``; always the integers of a full ``indices_bits``, whatever changes."""
    layout = nt.board_layout(width, height, nt.family_tuples(width, height, families), group)
    t = nt.index_tables(layout)
    rng = np.random.default_rng(12)
    full, swapped = (np.empty(len(t.offset), dtype=np.int64) for _ in range(2))
    zero = np.uint64(0)
    for _ in range(5):
        kept, occupied = (np.zeros(len(t.offset), dtype=np.int64) for _ in range(2))
        P = O = 0  # the side to move's stones and the other's
        for black, white, mover, _, _ in random_moves(rng, layout.n_cells, 45):
            nP, nO = (black, white) if mover == 1 else (white, black)
            if (nP, nO) != (P, O):  # the other side moved: its view, then the changed cells
                nt.swapped_states(kept, occupied, kept)
                nt.change_bits(kept, t, np.uint64(O), np.uint64(P), np.uint64(nP),
                               np.uint64(nO))
                nt.change_bits(occupied, t, np.uint64(P | O), zero, np.uint64(nP | nO), zero)
            P, O = nP, nO
            nt.indices_bits(np.uint64(P), np.uint64(O), t, full)
            assert np.array_equal(kept, full)
            nt.indices_bits(np.uint64(P | O), zero, t, swapped)
            assert np.array_equal(occupied, swapped)
            nt.swapped_states(kept, occupied, swapped)
            nt.indices_bits(np.uint64(O), np.uint64(P), t, full)
            assert np.array_equal(swapped, full)
    # any two positions, not only a move apart
    a, b = (rng.integers(0, 3, layout.n_cells) for _ in range(2))
    bits = [(np.uint64(sum(1 << c for c in range(layout.n_cells) if s[c] == k)))
            for s in (a, b) for k in (1, 2)]
    nt.indices_bits(bits[0], bits[1], t, swapped)
    nt.change_bits(swapped, t, *bits)
    nt.indices_bits(bits[2], bits[3], t, full)
    assert np.array_equal(swapped, full)
