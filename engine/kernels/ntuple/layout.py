"""N-tuple (pattern) layouts: which cells each lookup table reads, and the symmetries sharing it.

A *layout* is a number of cells, the number of states a cell can hold (one number for every
cell, or one per cell: edges drawn or not next to cells by owner), a list of *tuples* (each an
ordered list of cell ids) and a *symmetry group* (an int array ``[S, cells]``: row ``s`` maps
cell ``c`` to its image ``symmetries[s, c]``; the identity is one of the rows; a symmetry maps
a cell to a cell with as many states).

Each tuple owns one lookup table (LUT) of ``prod(states of its cells)`` weights (``states **
len(tuple)`` when all cells have ``states``), indexed by the contents of its cells read as a
number whose digits are the cells, **the first cell the most significant digit**, digit ``j`` in
base ``states[cells[j]]``. Every symmetric image of a tuple (``symmetries[s][tuple]``, cells kept
in the same order) is an *instance* that reads the same LUT, as in Edax's ``eval.c``, so the
evaluation is invariant under the group. Instances are distinct ordered cell lists: an image
equal to an earlier one as a sequence is dropped (every image repeats equally often, so dropping
repeats keeps the symmetry), while the same cells in another order are kept (a row and its
reversal both read the row's LUT, which makes the row's value mirror-symmetric).

Tuples are deduplicated by orbit: a tuple whose *set* of cells is the image of an earlier
tuple's set adds nothing (its LUT would be the earlier one with its digits permuted), so
``layout_from_tuples`` drops it and ``Layout`` refuses it. The LUTs sit one after another in one
flat weight array (one such array per game phase): LUT ``k`` starts at ``lut_offsets[k]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

MAX_LUT_SIZE = 3**10  # Edax's largest patterns (edge + 2X, 2x5 corner): 59,049 weights
MAX_STATES = 255  # cell states travel as uint8


class LayoutError(ValueError):
    """A layout that cannot be used; the message is one line naming the field at fault."""


@dataclass(frozen=True, eq=False)
class Layout:
    """A validated, deduplicated layout (see the module docstring). Build one with
    ``layout_from_tuples`` (which drops symmetric duplicates) or the builders of
    ``engine.kernels.ntuple.builders``; this constructor refuses duplicates."""

    n_cells: int
    states: int | tuple[int, ...]
    tuples: tuple[tuple[int, ...], ...]
    symmetries: np.ndarray
    name: str = ""

    def __post_init__(self):
        object.__setattr__(self, "states", check_counts(self.n_cells, self.states))
        cell_states = self.cell_states
        object.__setattr__(self, "tuples", tuple(
            check_tuple(t, k, self.n_cells, cell_states) for k, t in enumerate(self.tuples)))
        object.__setattr__(self, "symmetries",
                           check_symmetries(self.symmetries, self.n_cells, cell_states))
        if not self.tuples:
            raise LayoutError("tuples: empty (a layout needs at least one tuple)")
        for k, earlier in duplicate_pairs(self.tuples, self.symmetries):
            raise LayoutError(f"tuples[{k}] is a symmetric image of tuples[{earlier}] "
                              "(one table serves both: drop it)")

    @cached_property
    def cell_states(self) -> tuple[int, ...]:
        """The number of states of every cell."""
        if isinstance(self.states, int):
            return (self.states,) * self.n_cells
        return self.states

    @property
    def uniform_states(self) -> int | None:
        """The number of states if every cell has the same, else None."""
        return self.cell_states[0] if len(set(self.cell_states)) == 1 else None

    @cached_property
    def lut_sizes(self) -> np.ndarray:
        return np.array([table_size(t, self.cell_states) for t in self.tuples], dtype=np.int64)

    @cached_property
    def lut_offsets(self) -> np.ndarray:
        """Start of each LUT in the flat weight array, then the total: ``[L + 1]``."""
        return np.concatenate([[0], np.cumsum(self.lut_sizes)]).astype(np.int64)

    @property
    def n_weights(self) -> int:
        return int(self.lut_offsets[-1])

    @cached_property
    def instances(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """``(lut, cells in LUT order)`` for every distinct symmetric image of every tuple."""
        out = []
        for lut, cells in enumerate(self.tuples):
            seen = set()
            for image in self.symmetries:
                ordered = tuple(int(image[c]) for c in cells)
                if ordered not in seen:
                    seen.add(ordered)
                    out.append((lut, ordered))
        return tuple(out)

    def __eq__(self, other) -> bool:
        return isinstance(other, Layout) and (
            (self.n_cells, self.states, self.tuples, self.name)
            == (other.n_cells, other.states, other.tuples, other.name)
            and np.array_equal(self.symmetries, other.symmetries))

    __hash__ = None

    def describe(self) -> str:
        """One line: name, cells, states, symmetries, LUTs, weights, instances."""
        states = self.uniform_states or "/".join(str(n) for n in sorted(set(self.cell_states)))
        return (f"{self.name or 'layout'}: {self.n_cells} cells x {states} states, "
                f"{len(self.symmetries)} symmetries, {len(self.tuples)} tables, "
                f"{self.n_weights:,} weights, {len(self.instances)} instances")


def layout_from_tuples(n_cells: int, states, tuples, symmetries=None,
                       name: str = "") -> Layout:
    """A layout of the given tuples, dropping each tuple whose cell set is a symmetric image of
    an earlier one's (the first of an orbit is kept). ``states``: one int for every cell or a
    list of one per cell; ``symmetries=None`` means identity only."""
    states = check_counts(n_cells, states)
    cell_states = (states,) * n_cells if isinstance(states, int) else states
    tuples = [check_tuple(t, k, n_cells, cell_states) for k, t in enumerate(tuples)]
    symmetries = check_symmetries(
        np.arange(n_cells)[None, :] if symmetries is None else symmetries, n_cells, cell_states)
    dropped = {k for k, _ in duplicate_pairs(tuples, symmetries)}
    kept = tuple(t for k, t in enumerate(tuples) if k not in dropped)
    return Layout(n_cells, states, kept, symmetries, name)


def duplicate_pairs(tuples, symmetries):
    """``(k, j)`` for every tuple ``k`` whose cell set is an image of tuple ``j``'s (``j < k``,
    the first tuple of the orbit)."""
    owner = {}
    for k, cells in enumerate(tuples):
        key = frozenset(cells)
        if key in owner:
            yield k, owner[key]
            continue
        for image in symmetries:
            owner.setdefault(frozenset(int(image[c]) for c in cells), k)


def check_counts(n_cells, states) -> int | tuple[int, ...]:
    """``states`` as an int, or a tuple of one int per cell."""
    if not _is_int(n_cells) or n_cells < 1:
        raise LayoutError(f"cells: must be an integer >= 1, got {n_cells!r}")
    if _is_int(states) and 2 <= states <= MAX_STATES:
        return int(states)
    if isinstance(states, list | tuple | np.ndarray) and len(states) == n_cells and all(
            _is_int(n) and 2 <= n <= MAX_STATES for n in states):
        return tuple(int(n) for n in states)
    raise LayoutError(f"states: must be an integer in 2..{MAX_STATES} or a list of one such "
                      f"integer per cell ({n_cells}), got {_short(states)}")


def table_size(cells, cell_states) -> int:
    return int(np.prod([cell_states[c] for c in cells], dtype=object))


def check_tuple(cells, k: int, n_cells: int, cell_states) -> tuple[int, ...]:
    """The tuple as ints, or a ``LayoutError`` naming ``tuples[k]`` and what is wrong."""
    try:
        cells = list(cells)
    except TypeError:
        raise LayoutError(f"tuples[{k}]: must be a list of cell ids, got {cells!r}") from None
    if not cells:
        raise LayoutError(f"tuples[{k}]: empty (a tuple needs at least one cell)")
    for c in cells:
        if not _is_int(c) or not 0 <= c < n_cells:
            raise LayoutError(f"tuples[{k}]: cell {c!r} is out of range (cells are "
                              f"0..{n_cells - 1})")
    repeated = sorted({int(c) for c in cells if cells.count(c) > 1})
    if repeated:
        raise LayoutError(f"tuples[{k}]: cell {repeated[0]} appears more than once")
    size = table_size(cells, cell_states)
    if size > MAX_LUT_SIZE:
        raise LayoutError(f"tuples[{k}]: its {len(cells)} cells make a table of {size:,} "
                          f"weights; at most {MAX_LUT_SIZE:,} allowed")
    return tuple(int(c) for c in cells)


def check_symmetries(symmetries, n_cells: int, cell_states) -> np.ndarray:
    """The group as a read-only ``int64 [S, n_cells]`` array: every row a permutation of the
    cells that keeps each cell's number of states, the identity among them, closed under
    composition."""
    try:
        array = np.asarray(symmetries)
    except (TypeError, ValueError):
        raise LayoutError("symmetries: must be a list of rows of cell ids") from None
    if array.ndim != 2 or array.shape[1] != n_cells or array.shape[0] < 1:
        raise LayoutError(f"symmetries: must have one row of {n_cells} cell ids per symmetry, "
                          f"got shape {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise LayoutError("symmetries: cell ids must be integers")
    array = array.astype(np.int64)
    cells = np.arange(n_cells)
    for s, row in enumerate(array):
        if not np.array_equal(np.sort(row), cells):
            raise LayoutError(f"symmetries[{s}]: not a permutation of the cells 0..{n_cells - 1}")
        for c in range(n_cells):
            if cell_states[row[c]] != cell_states[c]:
                raise LayoutError(f"symmetries[{s}]: maps cell {c} ({cell_states[c]} states) to "
                                  f"cell {row[c]} ({cell_states[row[c]]} states)")
    rows = {tuple(row) for row in array}
    if len(rows) != len(array):
        raise LayoutError("symmetries: a symmetry is listed twice")
    if tuple(cells) not in rows:
        raise LayoutError("symmetries: the identity is missing")
    for a in range(len(array)):
        for b in range(len(array)):
            if tuple(array[a][array[b]]) not in rows:
                raise LayoutError(f"symmetries: not a group (symmetries[{a}] after "
                                  f"symmetries[{b}] is missing)")
    array.setflags(write=False)
    return array


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)
