"""Slow, obviously-correct Hexifence rules straight from the rules text (tests only).

Works on grid coordinates only: no tables, no bitsets, no shared code with the engine. Cell
(r, c) exists iff 0 <= r, c <= 2N-2 and |r - c| <= N-1; its six edges are (2r,2c), (2r,2c+1),
(2r+1,2c), (2r+1,2c+2), (2r+2,2c+1), (2r+2,2c+2). Drawing the last empty edge of a cell captures
it; a capture earns one more move; the game ends when every edge is drawn.
"""

from __future__ import annotations


def cells(n: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(2 * n - 1) for c in range(2 * n - 1) if abs(r - c) <= n - 1]


def cell_edges(r: int, c: int) -> list[tuple[int, int]]:
    return [(2 * r, 2 * c), (2 * r, 2 * c + 1), (2 * r + 1, 2 * c), (2 * r + 1, 2 * c + 2),
            (2 * r + 2, 2 * c + 1), (2 * r + 2, 2 * c + 2)]


def edges(n: int) -> list[tuple[int, int]]:
    """Every edge of every cell, row-major."""
    return sorted({e for r, c in cells(n) for e in cell_edges(r, c)})


class RefGame:
    """A game in progress: ``drawn`` maps edges to "B"/"R", ``owner`` maps cells to "b"/"r"."""

    def __init__(self, n: int):
        self.n = n
        self.drawn: dict[tuple[int, int], str] = {}
        self.owner: dict[tuple[int, int], str] = {}
        self.blue_to_move = True

    def legal_moves(self) -> list[tuple[int, int]]:
        return [e for e in edges(self.n) if e not in self.drawn]

    def is_over(self) -> bool:
        return not self.legal_moves()

    def play(self, edge: tuple[int, int]) -> int:
        """Draw ``edge``; returns the number of cells captured by it."""
        if edge not in edges(self.n) or edge in self.drawn:
            raise ValueError(f"illegal edge {edge}")
        self.drawn[edge] = "B" if self.blue_to_move else "R"
        captured = 0
        for cell in cells(self.n):
            if cell not in self.owner and edge in cell_edges(*cell):
                if all(e in self.drawn for e in cell_edges(*cell)):
                    self.owner[cell] = "b" if self.blue_to_move else "r"
                    captured += 1
        if captured == 0:
            self.blue_to_move = not self.blue_to_move
        return captured

    def scores(self) -> tuple[int, int]:
        owners = list(self.owner.values())
        return owners.count("b"), owners.count("r")

    def empty_count(self, cell: tuple[int, int]) -> int:
        return sum(e not in self.drawn for e in cell_edges(*cell))

    def safe_moves(self) -> list[tuple[int, int]]:
        """Edges whose drawing neither captures nor leaves a cell with one empty edge."""
        return [e for e in self.legal_moves()
                if all(self.empty_count(c) >= 3 for c in cells(self.n) if e in cell_edges(*c))]
