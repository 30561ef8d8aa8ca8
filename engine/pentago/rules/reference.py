"""A slow, obviously correct Pentago Twist written straight from the rules (tests only).

A board is a 6x6 list of lists, ``grid[x][y]`` in {``"W"``, ``"B"``, ``None``}, x = row from
the top, y = column. Nothing here shares code with the bitboard kernels.
"""

from __future__ import annotations

Grid = list[list]
ORIGINS = {0: (0, 0), 1: (0, 3), 2: (3, 0), 3: (3, 3)}  # quadrant -> its top-left cell


def empty_grid() -> Grid:
    return [[None] * 6 for _ in range(6)]


def copy(grid: Grid) -> Grid:
    return [row[:] for row in grid]


def to_move(grid: Grid) -> str:
    """White moves first, so white is to move when both colours have as many stones."""
    whites = sum(row.count("W") for row in grid)
    blacks = sum(row.count("B") for row in grid)
    return "W" if whites == blacks else "B"


def transform_quadrant(grid: Grid, a: int, b: int) -> Grid:
    """Quadrant ``a`` rotated 90 degrees clockwise (b = 0) or flipped horizontally (b = 1)."""
    r0, c0 = ORIGINS[a]
    q = [[grid[r0 + i][c0 + j] for j in range(3)] for i in range(3)]
    if b == 0:  # clockwise: new row i is old column i read from the bottom up
        new = [[q[2 - j][i] for j in range(3)] for i in range(3)]
    else:  # horizontal flip: each row reversed
        new = [list(reversed(row)) for row in q]
    out = copy(grid)
    for i in range(3):
        for j in range(3):
            out[r0 + i][c0 + j] = new[i][j]
    return out


def has_five(grid: Grid, colour: str) -> bool:
    """Five or more in a row of ``colour``, in any of the four directions."""
    for x in range(6):
        for y in range(6):
            for dx, dy in ((0, 1), (1, 0), (1, 1), (1, -1)):
                run = 0
                cx, cy = x, y
                while 0 <= cx < 6 and 0 <= cy < 6 and grid[cx][cy] == colour:
                    run += 1
                    cx, cy = cx + dx, cy + dy
                if run >= 5:
                    return True
    return False


def winner(grid: Grid) -> str | None:
    """``"W"``, ``"B"``, ``"draw"`` or None (game goes on). Both fives: draw; a full board
    without a five: draw."""
    white, black = has_five(grid, "W"), has_five(grid, "B")
    if white and black:
        return "draw"
    if white:
        return "W"
    if black:
        return "B"
    if all(cell is not None for row in grid for cell in row):
        return "draw"
    return None


def legal_moves(grid: Grid) -> list[tuple[int, int, int, int]]:
    """Every (x, y, a, b): an empty cell, any quadrant, either twist; none once the game ends."""
    if winner(grid) is not None:
        return []
    return [(x, y, a, b) for x in range(6) for y in range(6) if grid[x][y] is None
            for a in range(4) for b in range(2)]


def play(grid: Grid, move: tuple[int, int, int, int]) -> Grid:
    """Place the mover's stone on (x, y), then transform quadrant a."""
    x, y, a, b = move
    assert grid[x][y] is None
    placed = copy(grid)
    placed[x][y] = to_move(grid)
    return transform_quadrant(placed, a, b)


def from_text(text: str) -> Grid:
    """The 6 board rows of a state text (``W``, ``B``, ``.``)."""
    rows = text.strip().splitlines()[:6]
    return [[None if ch == "." else ch for ch in row.strip()] for row in rows]


def to_text(grid: Grid) -> str:
    return "\n".join("".join(cell or "." for cell in row) for row in grid)
