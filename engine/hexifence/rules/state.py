"""A Hexifence position: who drew each edge, who owns each cell, whose turn it is.

Immutable and small: ``edges`` holds one byte per edge (0 undrawn, 1 blue, 2 red) in the
compact order of ``engine.hexifence.rules.board``, ``cells`` one byte per cell (0 free, 1 blue,
2 red). Drawing the last empty edge of a cell captures it and the mover moves again.

Text (``to_text`` / ``from_text``): the course's board text -- first line N, then 4N-1 lines of
4N-1 symbols separated by spaces (``+`` empty edge, ``B``/``R`` edge drawn by blue/red, ``-``
no edge, ``b``/``r`` at the centre of a captured cell) -- plus a last line ``blue`` or ``red``
naming the side to move (optional when reading: blue by default).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from engine.hexifence.rules.board import Board, board, check_size

BLUE, RED = 0, 1
PLAYER_NAMES = ("blue", "red")
EDGE_SYMBOLS = "+BR"
CELL_SYMBOLS = "-br"


@dataclass(frozen=True)
class State:
    size: int
    edges: bytes
    cells: bytes
    to_move: int = BLUE

    @property
    def board(self) -> Board:
        return board(self.size)

    @cached_property
    def undrawn(self) -> np.ndarray:
        """The undrawn edges as a uint64 bitset (``board.words`` words), for the kernels."""
        words = np.zeros(self.board.words, dtype=np.uint64)
        for e, owner in enumerate(self.edges):
            if owner == 0:
                words[e >> 6] |= np.uint64(1) << np.uint64(e & 63)
        return words

    @property
    def scores(self) -> tuple[int, int]:
        return self.cells.count(1), self.cells.count(2)

    @property
    def margin(self) -> int:
        """Blue cells minus red cells."""
        blue, red = self.scores
        return blue - red

    @property
    def drawn(self) -> int:
        return len(self.edges) - self.edges.count(0)

    @property
    def empty_edges(self) -> int:
        return self.edges.count(0)

    def is_terminal(self) -> bool:
        return self.edges.count(0) == 0

    def legal_edges(self) -> list[int]:
        return [e for e, owner in enumerate(self.edges) if owner == 0]

    def legal_moves(self) -> list[int]:
        move_of_edge = self.board.move_of_edge
        return [int(move_of_edge[e]) for e in self.legal_edges()]

    def play_edge(self, e: int) -> State:
        """Draw edge ``e`` (compact index) for the side to move; ``ValueError`` if it is drawn."""
        if not 0 <= e < len(self.edges) or self.edges[e] != 0:
            raise ValueError(f"edge {self.edge_name(e)} is already drawn")
        b = self.board
        edges = bytearray(self.edges)
        edges[e] = self.to_move + 1
        cells = bytearray(self.cells)
        captured = 0
        for c in b.edge_cells[e]:
            if c >= 0 and all(edges[x] for x in b.cell_edges[c]):
                cells[c] = self.to_move + 1
                captured += 1
        to_move = self.to_move if captured else 1 - self.to_move
        return State(self.size, bytes(edges), bytes(cells), to_move)

    def play(self, move: int) -> State:
        """Draw the edge with move id ``move`` (row * (4N-1) + col)."""
        return self.play_edge(edge_of_move(self.board, move))

    def edge_name(self, e: int) -> str:
        if 0 <= e < len(self.edges):
            row, col = self.board.edges[e]
            return f"{row} {col}"
        return str(e)

    def to_text(self) -> str:
        return board_text(self) + "\n" + PLAYER_NAMES[self.to_move]

    def grid(self) -> list[str]:
        """The 4N-1 rows of the edge grid as strings (``+BR-`` and ``br`` or `` `` at centres)."""
        b = self.board
        rows = [["-"] * b.width for _ in range(b.width)]
        for e, (y, x) in enumerate(b.edges):
            rows[y][x] = EDGE_SYMBOLS[self.edges[e]]
        for c, (r, col) in enumerate(b.cells):
            rows[2 * r + 1][2 * col + 1] = " br"[self.cells[c]]
        return ["".join(r) for r in rows]

    def __str__(self) -> str:
        return self.to_text()


def initial_state(size: int = 3) -> State:
    b = board(check_size(size))
    return State(b.size, bytes(b.n_edges), bytes(b.n_cells), BLUE)


def edge_of_move(b: Board, move) -> int:
    """The compact edge index of a move id; ``ValueError`` when it names no edge."""
    try:
        move = int(move)
    except (TypeError, ValueError):
        raise ValueError(f"move must be an integer move id, got {move!r}") from None
    if not 0 <= move < b.width * b.width or b.edge_of_move[move] < 0:
        raise ValueError(f"move {move} is not an edge of the N={b.size} board "
                         f"(row * {b.width} + col with (row, col) an edge point)")
    return int(b.edge_of_move[move])


def board_text(state: State) -> str:
    """The course's board text: N, then the grid with symbols separated by spaces."""
    rows = [" ".join("-" if ch == " " else ch for ch in row) for row in state.grid()]
    return "\n".join([str(state.size), *rows])


def from_text(text: str) -> State:
    """Parse the board text (with or without the side-to-move line); ``ValueError`` on bad text."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    if not lines:
        raise ValueError("board text is empty (expected N on the first line)")
    try:
        size = check_size(int(lines[0]))
    except ValueError:
        raise ValueError(f"board text: first line must be the dimension N (1..12), "
                         f"got {lines[0]!r}") from None
    b = board(size)
    to_move = BLUE
    rows = lines[1:]
    if len(rows) == b.width + 1:
        last = rows.pop().lower()
        if last not in PLAYER_NAMES:
            raise ValueError(f"board text: last line must be 'blue' or 'red', got {last!r}")
        to_move = PLAYER_NAMES.index(last)
    if len(rows) != b.width:
        raise ValueError(f"board text: N={size} needs {b.width} grid rows, got {len(rows)}")
    grid = [_split_row(row, y, b.width) for y, row in enumerate(rows)]
    return _state_from_grid(b, grid, to_move)


def _split_row(row: str, y: int, width: int) -> list[str]:
    symbols = row.split() if " " in row else list(row)
    if len(symbols) != width or any(len(s) != 1 for s in symbols):
        raise ValueError(f"board text: row {y} must have {width} symbols, got {row!r}")
    return symbols


def _state_from_grid(b: Board, grid: list[list[str]], to_move: int) -> State:
    edges = bytearray(b.n_edges)
    cells = bytearray(b.n_cells)
    for y in range(b.width):
        for x in range(b.width):
            ch = grid[y][x]
            if b.is_edge_point(y, x):
                if ch not in EDGE_SYMBOLS:
                    raise ValueError(f"board text: ({y},{x}) is an edge; expected one of + B R, "
                                     f"got {ch!r}")
                edges[int(b.edge_of_move[b.move_id(y, x)])] = EDGE_SYMBOLS.index(ch)
            elif b.cell_at(y, x) >= 0:
                if ch not in CELL_SYMBOLS:
                    raise ValueError(f"board text: ({y},{x}) is a cell centre; expected - b r, "
                                     f"got {ch!r}")
                cells[b.cell_at(y, x)] = CELL_SYMBOLS.index(ch)
            elif ch != "-":
                raise ValueError(f"board text: ({y},{x}) is not an edge; expected -, got {ch!r}")
    for c, (r, col) in enumerate(b.cells):
        closed = all(edges[e] for e in b.cell_edges[c])
        if closed != bool(cells[c]):
            what = "closed but not marked b or r" if closed else "marked captured but open"
            raise ValueError(f"board text: cell at ({2 * r + 1},{2 * col + 1}) is {what}")
    return State(b.size, bytes(edges), bytes(cells), to_move)

