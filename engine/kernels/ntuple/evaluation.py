"""Evaluating an n-tuple network (numba): full recomputation, and Edax-style incremental indices.

``index_tables(layout)`` turns a layout into ``IndexTables``, a namedtuple of plain int arrays
that numba passes by value (built once per layout; no Python object crosses into the kernels).
The weights are a flat ``float64`` array of ``layout.n_weights`` (one row per game phase: the
game passes ``weights[phase]``). Cell states:

- bitboards ``(P, O)``: ``uint64`` masks of the side to move and the opponent, bit ``c`` =
  cell ``c``; state 0 empty, 1 own (``P``), 2 opponent (``O``). Needs 3 states in every cell
  and at most 64 cells; ``P & O`` must be 0.
- cell vectors: a ``uint8`` array of ``n_cells`` states, cell ``c`` in ``0..states[c]-1``
  (edges drawn or not, cells by owner, ...), for games that are not two bitboards.

Incremental use (as Edax's ``eval.c``): ``indices_bits(black, white, t, idx)`` once at the root
with **absolute colours** (1 = the first player, 2 = the second), then ``play_bits`` /
``undo_bits`` per move; the indices never depend on who is to move. ``evaluate_indices`` sums
``weights[offset + index]``: pass the weights when the first player is to move, and
``colour_swapped(weights, layout)`` (built once per genome) when the second player is, so
``evaluate_indices(idx, t, w_or_swapped) == evaluate_bits(P, O, t, w)``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from engine.kernels.bits import lowest_bit_index
from engine.kernels.ntuple.layout import Layout, LayoutError

U64 = np.uint64
_ONE = U64(1)

IndexTables = namedtuple("IndexTables", (
    "offset",       # int64 [I]: where the instance's LUT starts in the weight array
    "length",       # int64 [I]: number of cells of the instance
    "cells",        # int64 [I, M]: its cells in digit order (first = most significant)
    "powers",       # int64 [I, M]: the digit weight of cells[i, j] (product of the states of
                    # the cells after it; states ** (length - 1 - j) when all cells have states)
    "cell_start",   # int64 [C + 1]: cell c occurs in cell_instance[cell_start[c]:cell_start[c+1]]
    "cell_instance",  # int64 [K]: the instances reading cell c ...
    "cell_power",   # int64 [K]: ... and the digit weight c has in each
))


def index_tables(layout: Layout) -> IndexTables:
    """The arrays every kernel takes, built from the layout's instances."""
    instances = layout.instances
    width = max(len(cells) for _, cells in instances)
    count = len(instances)
    offset = np.array([layout.lut_offsets[lut] for lut, _ in instances], dtype=np.int64)
    length = np.array([len(cells) for _, cells in instances], dtype=np.int64)
    cells = np.zeros((count, width), dtype=np.int64)
    powers = np.zeros((count, width), dtype=np.int64)
    by_cell = [[] for _ in range(layout.n_cells)]
    for i, (_, members) in enumerate(instances):
        power = 1
        for j in range(len(members) - 1, -1, -1):  # from the least significant digit
            c = members[j]
            cells[i, j], powers[i, j] = c, power
            by_cell[c].append((i, power))
            power *= layout.cell_states[c]
    cell_start = np.zeros(layout.n_cells + 1, dtype=np.int64)
    cell_start[1:] = np.cumsum([len(entries) for entries in by_cell])
    flat = [entry for entries in by_cell for entry in entries]
    cell_instance = np.array([i for i, _ in flat], dtype=np.int64)
    cell_power = np.array([p for _, p in flat], dtype=np.int64)
    return IndexTables(offset, length, cells, powers, cell_start, cell_instance, cell_power)


def check_bitboard_layout(layout: Layout) -> None:
    """Refuse a layout the ``(P, O)`` kernels cannot read (one line)."""
    if layout.uniform_states != 3 or layout.n_cells > 64:
        raise LayoutError(f"layout: the bitboard kernels need 3 states in every cell and <= 64 "
                          f"cells, got {layout.uniform_states or 'mixed'} states and "
                          f"{layout.n_cells} cells")


def check_weights(layout: Layout, weights: np.ndarray) -> None:
    """Refuse weights whose last axis is not ``layout.n_weights`` float64 (the kernels do not
    check bounds)."""
    if weights.dtype != np.float64 or weights.ndim not in (1, 2) or (
            weights.shape[-1] != layout.n_weights):
        raise LayoutError(f"weights: expected float64 [phases,] {layout.n_weights}, got "
                          f"{weights.dtype} {list(weights.shape)}")


def state_permuted(weights: np.ndarray, layout: Layout, permutation) -> np.ndarray:
    """Weights read through relabelled cell states: ``result[index(x)] == weights[index(p(x))]``
    where ``p`` maps state ``s`` to ``permutation[s]`` in every cell (works on a 2-D
    ``[phases, n_weights]`` array too). Every cell must have the same number of states."""
    return weights[..., _permuted_indices(layout, tuple(permutation))]


def colour_swapped(weights: np.ndarray, layout: Layout) -> np.ndarray:
    """The weights seen from the other side: own and opponent stones exchanged (states 1, 2)."""
    return state_permuted(weights, layout, (0, 2, 1))


def _permuted_indices(layout: Layout, permutation) -> np.ndarray:
    base = layout.uniform_states
    if base is None:
        raise LayoutError("permutation: the cells have different numbers of states")
    if sorted(permutation) != list(range(base)):
        raise LayoutError(f"permutation: must reorder the states 0..{base - 1}, "
                          f"got {list(permutation)}")
    perm = np.array(permutation, dtype=np.int64)
    out = np.empty(layout.n_weights, dtype=np.int64)
    for lut, cells in enumerate(layout.tuples):
        index = np.arange(layout.lut_sizes[lut], dtype=np.int64)
        mapped = np.zeros_like(index)
        for j in range(len(cells)):  # digit j from the least significant
            mapped += perm[(index // base ** j) % base] * base ** j
        out[layout.lut_offsets[lut]:layout.lut_offsets[lut + 1]] = layout.lut_offsets[lut] + mapped
    return out


@njit(cache=True, inline="always")
def bit_state(P, O, cell):
    """0 empty, 1 in ``P``, 2 in ``O``."""
    shift = U64(cell)
    return np.int64((P >> shift) & _ONE) + 2 * np.int64((O >> shift) & _ONE)


@njit(cache=True)
def evaluate_bits(P, O, t, weights):
    """The network's value of ``(P, O)``, every index recomputed from the bits."""
    total = 0.0
    for i in range(t.offset.shape[0]):
        index = 0
        for j in range(t.length[i]):
            index = index * 3 + bit_state(P, O, t.cells[i, j])
        total += weights[t.offset[i] + index]
    return total


@njit(cache=True)
def evaluate_cells(states, t, weights):
    """The network's value of a ``uint8`` cell-state vector."""
    total = 0.0
    for i in range(t.offset.shape[0]):
        index = 0
        for j in range(t.length[i]):
            index += np.int64(states[t.cells[i, j]]) * t.powers[i, j]
        total += weights[t.offset[i] + index]
    return total


@njit(cache=True)
def indices_bits(P, O, t, out):
    """Every instance's LUT index (without its offset) into ``out`` (int64 [I])."""
    for i in range(t.offset.shape[0]):
        index = 0
        for j in range(t.length[i]):
            index = index * 3 + bit_state(P, O, t.cells[i, j])
        out[i] = index


@njit(cache=True)
def swapped_states(indices, occupied, out):
    """The indices of the same cells with states 1 and 2 exchanged (the other side's view of
    a bitboard position), into ``out``: a digit ``s`` becomes ``3 o - s`` (``o`` = 1 where the
    cell is not empty), so an index becomes ``3 x occupied - index``, where ``occupied`` holds
    the instances' indices of the occupancy alone (``indices_bits(P | O, 0, t, occupied)``,
    kept up to date by ``change_bits``). Exact integer arithmetic: the same indices as a full
    ``indices_bits`` of the swapped position, at the cost of one subtraction each."""
    for i in range(indices.shape[0]):
        out[i] = 3 * occupied[i] - indices[i]


@njit(cache=True)
def change_bits(indices, t, P0, O0, P1, O1):
    """Indices of ``(P0, O0)`` become those of ``(P1, O1)``: only the cells whose state
    differs are read (a move: the placed cell and its flips; the same colours on both sides).
    Every set bit must be a cell of the layout (``indices_bits`` ignores others; this would
    read past ``t.cell_start``)."""
    diff = (P0 ^ P1) | (O0 ^ O1)
    while diff:
        cell = lowest_bit_index(diff)
        change_cell(indices, t, cell, bit_state(P1, O1, cell) - bit_state(P0, O0, cell))
        diff &= diff - _ONE


@njit(cache=True)
def indices_cells(states, t, out):
    for i in range(t.offset.shape[0]):
        index = 0
        for j in range(t.length[i]):
            index += np.int64(states[t.cells[i, j]]) * t.powers[i, j]
        out[i] = index


@njit(cache=True)
def evaluate_indices(indices, t, weights):
    """The value from indices kept up to date (see the module docstring for which weights)."""
    total = 0.0
    for i in range(indices.shape[0]):
        total += weights[t.offset[i] + indices[i]]
    return total


@njit(cache=True, inline="always")
def change_cell(indices, t, cell, delta):
    """A cell's state grew by ``delta`` (may be negative): shift every index reading it."""
    for k in range(t.cell_start[cell], t.cell_start[cell + 1]):
        indices[t.cell_instance[k]] += delta * t.cell_power[k]


@njit(cache=True)
def set_cell(indices, t, cell, old_state, new_state):
    change_cell(indices, t, cell, np.int64(new_state) - np.int64(old_state))


@njit(cache=True)
def play_bits(indices, t, placed, flips, colour):
    """A stone of ``colour`` (1 or 2, absolute) on the empty cell ``placed`` (or -1 for none),
    and the other colour's stones on ``flips`` turned to ``colour``."""
    if placed >= 0:
        change_cell(indices, t, placed, np.int64(colour))
    _flip(indices, t, flips, 2 * np.int64(colour) - 3)


@njit(cache=True)
def undo_bits(indices, t, placed, flips, colour):
    """The exact inverse of ``play_bits`` with the same arguments."""
    if placed >= 0:
        change_cell(indices, t, placed, -np.int64(colour))
    _flip(indices, t, flips, 3 - 2 * np.int64(colour))


@njit(cache=True, inline="always")
def _flip(indices, t, flips, delta):
    while flips:
        change_cell(indices, t, lowest_bit_index(flips), delta)
        flips &= flips - _ONE


@njit(cache=True)
def move_delta(indices, t, row, placed, flips, colour, marks, touched):
    """How much ``play_bits(indices, t, placed, flips, colour)`` changes the network's sum
    (``evaluate_indices`` with ``row``), from the instances it changes alone (each once): Edax's
    update of a move's value. The same terms as the difference of the two full sums in another
    order, so equal to it up to rounding. ``indices`` are left as they were; ``marks``: int64
    zeros of the instances (left zero), ``touched``: int64 scratch of the instances."""
    n = _touch(t, placed, marks, touched, 0)
    rest = flips
    while rest:
        n = _touch(t, lowest_bit_index(rest), marks, touched, n)
        rest &= rest - _ONE
    before = 0.0
    for j in range(n):
        before += row[t.offset[touched[j]] + indices[touched[j]]]
    play_bits(indices, t, placed, flips, colour)
    after = 0.0
    for j in range(n):
        after += row[t.offset[touched[j]] + indices[touched[j]]]
        marks[touched[j]] = 0
    undo_bits(indices, t, placed, flips, colour)
    return after - before


@njit(cache=True, inline="always")
def _touch(t, cell, marks, touched, n):
    """Adds the instances reading ``cell`` (not yet marked) to ``touched[n:]``."""
    if cell < 0:
        return n
    for k in range(t.cell_start[cell], t.cell_start[cell + 1]):
        i = t.cell_instance[k]
        if marks[i] == 0:
            marks[i] = 1
            touched[n] = i
            n += 1
    return n
