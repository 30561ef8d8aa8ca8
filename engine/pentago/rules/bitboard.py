"""Pentago Twist rules on bitboards (numba, no Python objects).

A position is two ``uint64`` boards of 36 used bits: ``P`` (stones of the side to move) and
``O`` (the opponent's). The side to move is implied by the stone count (white moves first and
every move adds one stone). ``play`` returns the boards *already swapped* for the next player,
so search is one negamax branch with no colour tests.

Cell (x, y) = row x (0 = top), column y is bit ``6 * x + y``; quadrants 0..3 are top-left,
top-right, bottom-left, bottom-right::

          y=0 1  2 | 3  4  5
    x=0    0  1  2 | 3  4  5      quadrant 0 | quadrant 1
    x=1    6  7  8 | 9 10 11
    x=2   12 13 14 |15 16 17
          ---------+---------
    x=3   18 19 20 |21 22 23      quadrant 2 | quadrant 3
    x=4   24 25 26 |27 28 29
    x=5   30 31 32 |33 34 35

A move id is ``cell * 8 + twist`` with ``twist = 2 * a + b``: place a stone on ``cell``, then
transform quadrant ``a``: ``b = 0`` rotates it 90 degrees clockwise, ``b = 1`` mirrors its
columns. The twist is a table lookup: the quadrant's 9 bits index ``TWIST_TABLE``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.bits import ONE, ZERO, lowest_bit_index, nth_set_bit, popcount
from engine.kernels.rng import below

U64 = np.uint64
SIZE = 6
CELLS = 36
TWISTS = 8
MOVES = CELLS * TWISTS  # 288 move ids
FULL = U64((1 << CELLS) - 1)
QUADRANT_ORIGINS = ((0, 0), (0, 3), (3, 0), (3, 3))  # (row, column) of each top-left cell

# result of a position, seen from the side to move
ONGOING, TO_MOVE_WINS, TO_MOVE_LOSES, DRAWN = 0, 1, 2, 3


def cell_of(x: int, y: int) -> int:
    return SIZE * x + y


def _twisted_local(i: int, j: int, b: int) -> tuple[int, int]:
    """Where local cell (i, j) of a 3x3 quadrant goes: clockwise (b=0) or column mirror."""
    return (j, 2 - i) if b == 0 else (i, 2 - j)


def _build_twist_table() -> np.ndarray:
    """``table[2a+b, pattern]``: the board bits of quadrant ``a`` holding ``pattern`` (bit
    ``3i+j`` = local cell (i, j)) after twist ``b``."""
    table = np.zeros((TWISTS, 512), np.uint64)
    for a, (r0, c0) in enumerate(QUADRANT_ORIGINS):
        for b in (0, 1):
            for pattern in range(512):
                out = 0
                for i in range(3):
                    for j in range(3):
                        if pattern >> (3 * i + j) & 1:
                            ti, tj = _twisted_local(i, j, b)
                            out |= 1 << cell_of(r0 + ti, c0 + tj)
                table[2 * a + b, pattern] = out
    return table


def _quadrant_mask(a: int) -> int:
    r0, c0 = QUADRANT_ORIGINS[a]
    return sum(1 << cell_of(r0 + i, c0 + j) for i in range(3) for j in range(3))


def _build_windows() -> np.ndarray:
    """The 32 five-in-a-row windows: rows, columns, both diagonal directions."""
    windows = []
    for dx, dy in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for x in range(SIZE):
            for y in range(SIZE):
                cells = [(x + k * dx, y + k * dy) for k in range(5)]
                if all(0 <= cx < SIZE and 0 <= cy < SIZE for cx, cy in cells):
                    windows.append(sum(1 << cell_of(cx, cy) for cx, cy in cells))
    return np.array(windows, np.uint64)


TWIST_TABLE = _build_twist_table()
QUADRANT_MASKS = np.array([_quadrant_mask(a) for a in range(4)], np.uint64)
QUADRANT_SHIFTS = np.array([cell_of(r0, c0) for r0, c0 in QUADRANT_ORIGINS], np.uint64)
WINDOWS = _build_windows()
assert len(WINDOWS) == 32


def _split_windows() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per quadrant, the windows touching it and the others (rows padded with zeros)."""
    touching = np.zeros((4, 32), np.uint64)
    untouched = np.zeros((4, 32), np.uint64)
    n_touching, n_untouched = np.zeros(4, np.int64), np.zeros(4, np.int64)
    for a in range(4):
        for w in WINDOWS:
            if int(w) & _quadrant_mask(a):
                touching[a, n_touching[a]] = w
                n_touching[a] += 1
            else:
                untouched[a, n_untouched[a]] = w
                n_untouched[a] += 1
    return touching, n_touching, untouched, n_untouched


TOUCHING, N_TOUCHING, UNTOUCHED, N_UNTOUCHED = _split_windows()


@njit(cache=True, inline="always")
def quadrant_pattern(board, a):
    """The 9 bits of quadrant ``a`` packed as ``3 * local_row + local_column``."""
    s = QUADRANT_SHIFTS[a]
    seven = U64(7)
    return np.int64((board >> s) & seven
                    | ((board >> (s + U64(6))) & seven) << U64(3)
                    | ((board >> (s + U64(12))) & seven) << U64(6))


@njit(cache=True, inline="always")
def twist(board, t):
    """``board`` after twist ``t = 2a + b``."""
    a = t >> 1
    return (board & ~QUADRANT_MASKS[a]) | TWIST_TABLE[t, quadrant_pattern(board, a)]


@njit(cache=True, inline="always")
def play(P, O, move):
    """The position after ``move`` (a legal move id), from the next player's view."""
    t = move & 7
    placed = P | (ONE << U64(move >> 3))
    return twist(O, t), twist(placed, t)


@njit(cache=True, inline="always")
def has_five(board):
    for w in WINDOWS:
        if board & w == w:
            return True
    return False


@njit(cache=True)
def result(P, O):
    """ONGOING, TO_MOVE_WINS, TO_MOVE_LOSES or DRAWN for the side to move (owning ``P``)."""
    p5, o5 = has_five(P), has_five(O)
    if p5 and o5:
        return DRAWN
    if p5:
        return TO_MOVE_WINS
    if o5:
        return TO_MOVE_LOSES
    if P | O == FULL:
        return DRAWN
    return ONGOING


@njit(cache=True)
def can_win_now(P, O):
    """Whether the side to move has a move that wins at once (in an unfinished position),
    without trying every move.

    Placing on cell c then twisting t gives ``twist(P, t) | twist(c, t)``, and a twist maps
    empty cells to empty cells; so twist t wins iff the opponent has no five after it and some
    window holds 5 of ``twist(P, t)``, or 4 and an empty cell. A twist of quadrant a changes
    only the windows touching a: the others are checked once per quadrant, and (the position
    being unfinished) cannot hold an opponent's five.
    """
    if popcount(P) < 4:
        return False
    for a in range(4):
        untouched_four = False
        for k in range(N_UNTOUCHED[a]):
            w = UNTOUCHED[a, k]
            if O & w == ZERO and popcount(P & w) >= 4:
                untouched_four = True
                break
        for t in range(2 * a, 2 * a + 2):
            tP, tO = twist(P, t), twist(O, t)
            four, five = untouched_four, False
            for k in range(N_TOUCHING[a]):
                w = TOUCHING[a, k]
                if tO & w == w:
                    five = True
                    break
                if tO & w == ZERO and popcount(tP & w) >= 4:
                    four = True
            if four and not five:
                return True
    return False


@njit(cache=True, inline="always")
def empty_cells(P, O):
    return ~(P | O) & FULL


@njit(cache=True)
def legal_move_ids(P, O):
    """Every legal move id in increasing order (8 per empty cell; empty if the game is over)."""
    if result(P, O) != ONGOING:
        return np.empty(0, np.int64)
    empties = empty_cells(P, O)
    out = np.empty(popcount(empties) * TWISTS, np.int64)
    n = 0
    while empties:
        cell = lowest_bit_index(empties)
        empties &= empties - ONE
        for t in range(TWISTS):
            out[n] = cell * TWISTS + t
            n += 1
    return out


DEDUP_SLOTS = 1024  # open-addressing set of distinct_children (a power of two > 288)


@njit(cache=True)
def distinct_children(P, O, out_P, out_O, out_move):
    """Fill ``out_*`` with one move per distinct successor position (the first in move-id
    order); returns how many. The arrays need room for 288 entries. Duplicates are found with
    a small open-addressing set (many twists give the same board: an empty quadrant, a lone
    centre stone, two placements that one twist maps onto each other)."""
    return distinct_children_into(P, O, out_P, out_O, out_move, np.empty(DEDUP_SLOTS, np.int64))


@njit(cache=True)
def distinct_children_into(P, O, out_P, out_O, out_move, used):
    """``distinct_children`` with the caller's scratch set (``DEDUP_SLOTS`` int64, any content):
    no allocation, for kernels compiled without reference counting."""
    slots = used.shape[0]
    used[:] = 0  # 0 = free, else index + 1 into out_*
    n = 0
    empties = empty_cells(P, O)
    while empties:
        cell = lowest_bit_index(empties)
        empties &= empties - ONE
        for t in range(TWISTS):
            move = cell * TWISTS + t
            nP, nO = play(P, O, move)
            h = np.int64(((nP * U64(0x9E3779B97F4A7C15)) ^ (nO * U64(0xC2B2AE3D27D4EB4F)))
                         >> U64(54))
            while used[h] != 0 and not (out_P[used[h] - 1] == nP and out_O[used[h] - 1] == nO):
                h = (h + 1) & (slots - 1)
            if used[h] == 0:
                used[h] = n + 1
                out_P[n], out_O[n], out_move[n] = nP, nO, move
                n += 1
    return n


@njit(cache=True, inline="always")
def random_move(P, O, rng_state):
    """A uniformly random legal move id (the game must not be over)."""
    empties = empty_cells(P, O)
    cell = nth_set_bit(empties, below(rng_state, popcount(empties)))
    return cell * TWISTS + below(rng_state, TWISTS)


@njit(cache=True)
def random_playout(P, O, rng_state):
    """Play uniformly random moves to the end; the result for the side to move at (P, O)."""
    flipped = False
    while True:
        r = result(P, O)
        if r != ONGOING:
            if r == DRAWN or not flipped:
                return r
            return TO_MOVE_LOSES if r == TO_MOVE_WINS else TO_MOVE_WINS
        P, O = play(P, O, random_move(P, O, rng_state))
        flipped = not flipped


@njit(cache=True)
def random_games(n, rng_state):
    """Play ``n`` random games from the start; returns [white wins, black wins, draws]."""
    counts = np.zeros(3, np.int64)
    for _ in range(n):
        r = random_playout(ZERO, ZERO, rng_state)
        counts[0 if r == TO_MOVE_WINS else 1 if r == TO_MOVE_LOSES else 2] += 1
    return counts
