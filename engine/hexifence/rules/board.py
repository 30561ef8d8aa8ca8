"""Hexifence geometry for dimension N: cells, edges, the course's edge grid, symmetries.

The course draws the board on a (4N-1) x (4N-1) grid of points (Row, Col). Cell (r, c)
(0 <= r, c <= 2N-2, |r - c| <= N-1) sits at grid point (2r+1, 2c+1); its six edges are the
points at offsets (-1,-1) (-1,0) (0,-1) (0,+1) (+1,0) (+1,+1) from it. For N = 2 (`+` an edge,
`o` a cell centre, `-` nothing)::

    + + + + - - -        edge (0,0) is row 0, col 0; move id = row * 7 + col
    + o + o + - -
    + + + + + + -        cells in row-major order get indices 0..6:
    + o + o + o +          (0,0)=0 (0,1)=1 (1,0)=2 (1,1)=3 (1,2)=4 (2,1)=5 (2,2)=6
    - + + + + + +
    - - + o + o +
    - - - + + + +

Edges get compact indices 0..E-1 in row-major order (what the kernels use); a move id is
``row * (4N-1) + col`` (what the game contract uses). An edge touches one cell (boundary) or
two. The 12 symmetries of the hexagon are linear maps of the grid around its centre point that
permute the six offsets.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

OFFSETS = ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1))  # a cell's edges, grid offsets
MAX_SIZE = 12  # grids beyond this are far outside the course and only slow the tests


@dataclass(frozen=True, eq=False)
class Board:
    """All tables for one dimension N (numpy arrays, shared read-only by the kernels)."""

    size: int
    width: int  # 4N - 1
    cells: tuple[tuple[int, int], ...]  # (r, c) of each cell index
    edges: tuple[tuple[int, int], ...]  # (row, col) of each edge index
    cell_edges: np.ndarray  # int64 [C, 6]: edge indices of each cell
    edge_cells: np.ndarray  # int64 [E, 2]: the one or two cells of each edge (-1 = outside)
    edge_of_move: np.ndarray  # int64 [width * width]: edge index of a move id, -1 if none
    move_of_edge: np.ndarray  # int64 [E]
    symmetries: np.ndarray  # int64 [12, E]: edge index -> its image under each symmetry
    cell_index: dict  # (r, c) -> cell index

    @property
    def n_cells(self) -> int:
        return len(self.cells)

    @property
    def n_edges(self) -> int:
        return len(self.edges)

    @property
    def words(self) -> int:
        """uint64 words needed for an edge bitset."""
        return (self.n_edges + 63) // 64

    def cell_at(self, row: int, col: int) -> int:
        """The index of the cell centred at grid point (row, col), or -1."""
        if row % 2 == 1 and col % 2 == 1:
            return self.cell_index.get(((row - 1) // 2, (col - 1) // 2), -1)
        return -1

    def move_id(self, row: int, col: int) -> int:
        return row * self.width + col

    def is_edge_point(self, row: int, col: int) -> bool:
        n2 = 2 * self.size
        in_grid = 0 <= row < self.width and 0 <= col < self.width
        return in_grid and abs(row - col) <= n2 - 1 and not (row % 2 == 1 and col % 2 == 1)


def check_size(size) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise ValueError(f"size must be an integer, got {size!r}")
    if not 1 <= int(size) <= MAX_SIZE:
        raise ValueError(f"size={size} must satisfy 1 <= size <= {MAX_SIZE}")
    return int(size)


@cache
def board(size: int) -> Board:
    """The tables for dimension ``size`` (built once per process)."""
    n = check_size(size)
    width = 4 * n - 1
    cells = tuple((r, c) for r in range(2 * n - 1) for c in range(2 * n - 1) if abs(r - c) <= n - 1)
    edges = tuple((y, x) for y in range(width) for x in range(width)
                  if abs(y - x) <= 2 * n - 1 and not (y % 2 == 1 and x % 2 == 1))
    edge_index = {e: i for i, e in enumerate(edges)}
    cell_edges = np.array([[edge_index[(2 * r + 1 + dy, 2 * c + 1 + dx)] for dy, dx in OFFSETS]
                           for r, c in cells], dtype=np.int64)
    edge_cells = np.full((len(edges), 2), -1, dtype=np.int64)
    for ci, row in enumerate(cell_edges):
        for e in row:
            slot = 0 if edge_cells[e, 0] < 0 else 1
            edge_cells[e, slot] = ci
    edge_of_move = np.full(width * width, -1, dtype=np.int64)
    move_of_edge = np.array([y * width + x for y, x in edges], dtype=np.int64)
    edge_of_move[move_of_edge] = np.arange(len(edges))
    symmetries = _symmetries(n, edges, edge_index)
    return Board(n, width, cells, edges, cell_edges, edge_cells, edge_of_move, move_of_edge,
                 symmetries, {rc: i for i, rc in enumerate(cells)})


def _symmetries(n: int, edges, edge_index) -> np.ndarray:
    """Edge permutations of the 12 hexagon symmetries: rotation (a, b) -> (a - b, a) and the
    swap (a, b) -> (b, a) map the six offsets onto themselves, applied around the centre."""
    centre = 2 * n - 1
    maps = []
    for mirror in (False, True):
        for turns in range(6):
            perm = []
            for y, x in edges:
                a, b = y - centre, x - centre
                if mirror:
                    a, b = b, a
                for _ in range(turns):
                    a, b = a - b, a
                perm.append(edge_index[(a + centre, b + centre)])
            maps.append(perm)
    return np.array(maps, dtype=np.int64)


def cell_symmetries(b: Board) -> np.ndarray:
    """[12, C]: the image of each cell under each symmetry (the cell of its edges' images)."""
    by_edges = {frozenset(int(e) for e in row): c for c, row in enumerate(b.cell_edges)}
    return np.array([[by_edges[frozenset(int(p[e]) for e in row)] for row in b.cell_edges]
                     for p in b.symmetries], dtype=np.int64)
