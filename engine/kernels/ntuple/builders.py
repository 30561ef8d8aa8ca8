"""Layouts for rectangular boards: symmetry groups, systematic tuple families, board strings.

Cells are numbered row-major, ``cell = row * width + col`` (with a1 = 0 this is the usual
bitboard order: file = col, rank - 1 = row). Each builder returns *every* placement of its
pattern on the board (all positions, all four corners, all four edges); ``board_layout`` then
keeps one table per orbit of the chosen group, so the same family gives 1 table per orbit under
the 8 symmetries of a square and more under a smaller group (Pentago Twist's quadrant twists
keep only the identity and the half turn as board symmetries).

    >>> layout = board_layout(8, 8, straight_tuples(8, 8, 2), "d4")
    >>> layout.n_weights      # 32 tables of 9 weights, as Jaskowski (2014) counts
    288
"""

from __future__ import annotations

import re

import numpy as np

from engine.kernels.ntuple.layout import Layout, LayoutError, layout_from_tuples

GROUPS = ("identity", "rot180", "mirror", "d2", "c4", "d4")
BLANK = ".-"


def board_symmetries(width: int, height: int, group: str) -> np.ndarray:
    """The symmetry group of a ``width x height`` board as ``int64 [S, cells]``:
    ``identity``; ``rot180`` (identity + half turn); ``mirror`` (identity + left-right flip);
    ``d2`` (both flips and the half turn); ``c4`` (quarter turns) and ``d4`` (all 8: quarter
    turns and flips) on square boards only."""
    if group not in GROUPS:
        raise LayoutError(f"group: unknown {group!r} (allowed: {', '.join(GROUPS)})")
    if group in ("c4", "d4") and width != height:
        raise LayoutError(f"group: {group} needs a square board, got {width}x{height}")
    rows, cols = np.divmod(np.arange(width * height), width)
    flip_lr = rows * width + (width - 1 - cols)
    half_turn = (height - 1 - rows) * width + (width - 1 - cols)
    quarter_turn = cols * width + (width - 1 - rows)  # (row, col) -> (col, n - 1 - row)
    generators = {"identity": [], "rot180": [half_turn], "mirror": [flip_lr],
                  "d2": [flip_lr, half_turn], "c4": [quarter_turn],
                  "d4": [quarter_turn, flip_lr]}[group]
    return group_closure(generators, width * height)


def group_closure(generators, n_cells: int) -> np.ndarray:
    """Every permutation the generators make (cell -> image rows), identity first, in a fixed
    breadth-first order; for boards that are not rectangles (hexagons, graphs of edges)."""
    identity = tuple(range(n_cells))
    found, frontier = [identity], [identity]
    seen = {identity}
    gens = [tuple(int(c) for c in g) for g in generators]
    while frontier:
        following = []
        for perm in frontier:
            for g in gens:
                image = tuple(g[c] for c in perm)
                if image not in seen:
                    seen.add(image)
                    found.append(image)
                    following.append(image)
        frontier = following
    return np.array(found, dtype=np.int64)


def board_layout(width: int, height: int, tuples, group: str = "d4", states=3,
                 name: str = "") -> Layout:
    """A layout of ``tuples`` on the board, one table per orbit of ``group``."""
    _check_board(width, height)
    return layout_from_tuples(width * height, states, tuples,
                              board_symmetries(width, height, group), name)


def straight_tuples(width: int, height: int, n: int) -> list[tuple[int, ...]]:
    """Every ``n`` contiguous cells along a row, a column, a diagonal or an anti-diagonal."""
    _check_board(width, height)
    if not 1 <= n <= max(width, height):
        raise LayoutError(f"n: must be in 1..{max(width, height)}, got {n}")
    directions = ((0, 1), (1, 0), (1, 1), (1, -1)) if n > 1 else ((0, 1),)
    out = []
    for row in range(height):
        for col in range(width):
            for dr, dc in directions:
                end_r, end_c = row + dr * (n - 1), col + dc * (n - 1)
                if 0 <= end_r < height and 0 <= end_c < width:
                    out.append(tuple((row + dr * i) * width + col + dc * i for i in range(n)))
    return out


def rectangles(width: int, height: int, rect_width: int, rect_height: int):
    """Every ``rect_width x rect_height`` block (cells row-major within the block)."""
    _check_board(width, height)
    if not (1 <= rect_width <= width and 1 <= rect_height <= height):
        raise LayoutError(f"block: {rect_width}x{rect_height} does not fit a {width}x{height} "
                          "board")
    return [tuple((row + r) * width + col + c for r in range(rect_height)
                  for c in range(rect_width))
            for row in range(height - rect_height + 1) for col in range(width - rect_width + 1)]


def squares(width: int, height: int, k: int):
    """Every ``k x k`` square."""
    return rectangles(width, height, k, k)


def corner_blocks(width: int, height: int, k: int = 3):
    """The ``k x k`` block at each of the four corners, read from the corner outwards."""
    _check_board(width, height)
    if not (1 <= k <= min(width, height)):
        raise LayoutError(f"k: a {k}x{k} corner does not fit a {width}x{height} board")
    return corner_shapes(width, height, [(r, c) for r in range(k) for c in range(k)],
                         f"corner{k}")


def edges_2x(width: int, height: int):
    """Each edge line plus the two X cells diagonally inside its corners (Edax's 10-cell
    "edge + 2X" pattern on 8x8), read along the edge then the two X cells."""
    _check_board(width, height, minimum=4)
    return _along_edges(width, height, lambda n: [(0, i) for i in range(n)] + [(1, 1),
                                                                               (1, n - 2)])


def _along_edges(width: int, height: int, spots_of):
    """``spots_of(length)``, ``(row, col)`` steps from an edge's start, placed on the top,
    bottom, left and right edges (the top edge flipped, transposed, or both)."""
    out = []
    for flip_rows, flip_cols, transpose in ((False, False, False), (True, False, False),
                                            (False, False, True), (False, True, True)):
        length = height if transpose else width
        out.append(tuple(_place(width, height, *(rc[::-1] if transpose else rc),
                                flip_rows, flip_cols) for rc in spots_of(length)))
    return out


def corner_shapes(width: int, height: int, spots, name: str):
    """A shape given as ``(row, col)`` steps from a corner, at each of the four corners, read in
    the order of ``spots`` (the square's symmetries add the transposed orientation)."""
    _check_board(width, height)
    if any(r >= height or c >= width for r, c in spots):
        raise LayoutError(f"pattern: {name} does not fit a {width}x{height} board")
    return [tuple(_place(width, height, r, c, flip_rows, flip_cols) for r, c in spots)
            for flip_rows in (False, True) for flip_cols in (False, True)]


def triangle_spots(k: int = 4):
    """The corner triangle of ``k`` rows (``k = 4``: 4 + 3 + 2 + 1 = 10 cells, Egaroucid's
    "triangle")."""
    return [(r, c) for r in range(k) for c in range(k) if r + c < k]


def narrow_triangle_spots(k: int = 5):
    """``k`` cells along both edges from the corner plus the X cell (``k = 5``: 10 cells,
    Egaroucid's "narrow triangle")."""
    return [(0, c) for c in range(k)] + [(1, 0), (1, 1)] + [(r, 0) for r in range(2, k)]


def corner_block_edges(width: int, height: int):
    """Each edge without its two C cells, plus the cells of the second line between them
    (10 cells on 8x8, Egaroucid's "corner + block"), read along the edge then the block."""
    _check_board(width, height, minimum=5)

    def spots(n):
        inner = range(2, n - 2)
        return [(0, 0)] + [(0, i) for i in inner] + [(0, n - 1)] + [(1, i) for i in inner]
    return _along_edges(width, height, spots)


def corner_rects(width: int, height: int, rect_width: int, rect_height: int):
    """The ``rect_width x rect_height`` block at each of the four corners, read from the corner
    outwards row by row (Edax's 10-cell "2x5 corner" is ``corner5x2`` on 8x8: five along the
    edge, two deep; the square's symmetries add the other orientation)."""
    _check_board(width, height)
    if not (1 <= rect_width <= width and 1 <= rect_height <= height):
        raise LayoutError(f"block: a {rect_width}x{rect_height} corner does not fit a "
                          f"{width}x{height} board")
    return corner_shapes(width, height, [(r, c) for r in range(rect_height)
                                         for c in range(rect_width)],
                         f"corner{rect_width}x{rect_height}")


def edge_lines(width: int, height: int, k: int):
    """The whole rows and columns ``k`` lines in from an edge (``k = 1``: the edges; Edax's
    "hor/vert" patterns are ``k`` = 2, 3, 4 on 8x8), read from one end to the other."""
    _check_board(width, height)
    if not 1 <= k <= min(width, height):
        raise LayoutError(f"k: line {k} from an edge does not fit a {width}x{height} board")
    rows = sorted({k - 1, height - k})
    cols = sorted({k - 1, width - k})
    return ([tuple(r * width + c for c in range(width)) for r in rows]
            + [tuple(r * width + c for r in range(height)) for c in cols])


def diagonals(width: int, height: int, length: int):
    """Every whole diagonal and anti-diagonal of exactly ``length`` cells (Edax's "diag"
    patterns are lengths 4 to 8 on 8x8)."""
    found = [line for line in full_lines(width, height, 1)[width + height:]
             if len(line) == length]
    if not found:
        raise LayoutError(f"length: no diagonal of {length} cells on a {width}x{height} board")
    return found


def full_lines(width: int, height: int, min_length: int = 4):
    """Every whole row, column, diagonal and anti-diagonal of at least ``min_length`` cells."""
    _check_board(width, height)
    lines = [tuple(r * width + c for c in range(width)) for r in range(height)]
    lines += [tuple(r * width + c for r in range(height)) for c in range(width)]
    for start in range(-(height - 1), width):  # diagonals col - row = start, both directions
        lines.append(tuple(r * width + r + start for r in range(height)
                           if 0 <= r + start < width))
        lines.append(tuple(r * width + (width - 1 - r - start) for r in range(height)
                           if 0 <= r + start < width))
    return [line for line in lines if len(line) >= min_length]


FAMILIES = ("straight<n>", "square<k>", "rect<w>x<h>", "corner<k>", "corner<w>x<h>",
            "edge2x", "hv<k>", "diag<n>", "triangle", "narrowtriangle", "cornerblock", "lines",
            "lines<min length>")


def family_tuples(width: int, height: int, spec: str) -> list[tuple[int, ...]]:
    """The tuples a spec names, families joined by ``+``: ``straight2+square2``,
    ``corner3+edge2x``, ``lines`` (all full lines of >= 4 cells), ``lines3``, ``rect2x5``,
    ``corner5x2`` (a block at each corner), ``hv2`` (the rows and columns second from an edge),
    ``diag5`` (the diagonals of 5 cells), ``triangle``, ``narrowtriangle``, ``cornerblock``
    (Egaroucid's 10-cell corner shapes)."""
    out = []
    for part in spec.replace(" ", "").split("+"):
        match = re.fullmatch(r"([a-z]+)(\d*)(?:x(\d+))?", part)
        kind, a, b = match.groups() if match else (part, "", None)
        if part == "edge2x":
            out += edges_2x(width, height)
        elif part == "triangle":
            out += corner_shapes(width, height, triangle_spots(), part)
        elif part == "narrowtriangle":
            out += corner_shapes(width, height, narrow_triangle_spots(), part)
        elif part == "cornerblock":
            out += corner_block_edges(width, height)
        elif kind == "lines" and b is None:
            out += full_lines(width, height, int(a) if a else 4)
        elif kind in ("straight", "square", "corner") and a and b is None:
            build = {"straight": straight_tuples, "square": squares, "corner": corner_blocks}
            out += build[kind](width, height, int(a))
        elif kind == "rect" and a and b:
            out += rectangles(width, height, int(a), int(b))
        elif kind == "corner" and a and b:
            out += corner_rects(width, height, int(a), int(b))
        elif kind in ("hv", "diag") and a and b is None:
            out += (edge_lines if kind == "hv" else diagonals)(width, height, int(a))
        else:
            raise LayoutError(f"pattern: unknown family {part!r} (allowed, joined by '+': "
                              f"{', '.join(FAMILIES)})")
    return out


def tuples_from_board(text: str, width: int, height: int) -> list[tuple[int, ...]]:
    """Tuples drawn on a board: ``height`` lines of ``width`` characters (spaces ignored), the
    first line is row 0; ``.`` or ``-`` is a cell of no tuple; each other character marks the
    cells of one tuple, taken in reading order; tuples come in order of first appearance."""
    lines = [line.replace(" ", "") for line in text.strip().splitlines() if line.strip()]
    if len(lines) != height:
        raise LayoutError(f"board: expected {height} lines, got {len(lines)}")
    marks: dict[str, list[int]] = {}
    for row, line in enumerate(lines):
        if len(line) != width:
            raise LayoutError(f"board: line {row + 1} has {len(line)} cells, expected {width}")
        for col, mark in enumerate(line):
            if mark not in BLANK:
                marks.setdefault(mark, []).append(row * width + col)
    if not marks:
        raise LayoutError("board: no tuple drawn (mark cells with letters; '.' is blank)")
    return [tuple(cells) for cells in marks.values()]


def _place(width: int, height: int, r: int, c: int, flip_rows: bool, flip_cols: bool) -> int:
    """Cell ``(r, c)`` counted from the corner the flips select (no flip: top-left)."""
    return ((height - 1 - r) if flip_rows else r) * width + ((width - 1 - c) if flip_cols else c)


def _check_board(width: int, height: int, minimum: int = 1) -> None:
    for key, value in (("width", width), ("height", height)):
        if not isinstance(value, int) or value < minimum:
            raise LayoutError(f"{key}: must be an integer >= {minimum}, got {value!r}")
