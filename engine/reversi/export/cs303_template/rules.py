"""The rules on bitboards: legal moves, flips, the final score (Reversed Reversi or Othello).
``cs303.py`` pastes the section between the markers into ``base.py``, after the parts before it
(``cs303.PARTS``).
"""
# ruff: noqa: F821 - a part, not a module: base.py and the other parts define the names it
# uses.

# --- BEGIN PART ---
# --- rules ------------------------------------------------------------------------------------

# (shift, mask applied to the opponent discs so that a run cannot wrap around a board edge)
_AXES = ((1, INNER_FILES), (8, FULL), (7, INNER_FILES), (9, INNER_FILES))


def legal_moves(P, O):
    """Bitboard of the legal moves of the side to move (P) against O. Runs of opponent discs
    grow by doubling (Kogge-Stone, as Edax's ``get_moves``): 1, 2, 4 then 6 discs, both ways
    along each axis of ``_AXES``."""
    moves = 0
    for shift, mask in _AXES:
        m = O & mask
        double = shift + shift
        x = m & (P << shift)
        x |= m & (x << shift)
        pair = m & (m << shift)
        x |= pair & (x << double)
        x |= pair & (x << double)
        moves |= x << shift
        x = m & (P >> shift)
        x |= m & (x >> shift)
        pair = m & (m >> shift)
        x |= pair & (x >> double)
        x |= pair & (x >> double)
        moves |= x >> shift
    return moves & ~(P | O) & FULL


def _rays():
    """Per square, per direction with room for a flip: (adjacent square, the squares beyond
    it up to the edge); ``up``: directions towards higher squares, ``down``: towards lower."""
    up, down = [], []
    for sq in range(64):
        row, col = divmod(sq, 8)
        u, d = [], []
        for dr, dc in ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)):
            ray, r, c = 0, row + dr, col + dc
            while 0 <= r < 8 and 0 <= c < 8:
                ray |= 1 << (8 * r + c)
                r, c = r + dr, c + dc
            if _popcount(ray) >= 2:
                (u if 8 * dr + dc > 0 else d).append((1 << (8 * (row + dr) + col + dc), ray))
        up.append(tuple(u))
        down.append(tuple(d))
    return tuple(up), tuple(down)


def flips(P, O, sq):
    """Opponent discs flipped by playing ``sq`` (0 when the move flips nothing): along each
    ray that starts with an opponent disc, the first square that is not one must be P's."""
    flipped = 0
    for adjacent, ray in _RAYS_UP[sq]:
        if adjacent & O:
            stop = ray & ~O
            stop &= -stop
            if stop & P:
                flipped |= ray & (stop - 1)
    for adjacent, ray in _RAYS_DOWN[sq]:
        if adjacent & O:
            stop = ray & ~O
            if stop:
                stop = 1 << (stop.bit_length() - 1)
                if stop & P:
                    flipped |= ray & ~(stop + stop - 1)
    return flipped


_RAYS_UP, _RAYS_DOWN = _rays()


def neighbours(x):
    east = (x << 1) & NOT_FILE_A
    west = (x >> 1) & NOT_FILE_H
    row = x | east | west
    return (east | west | (row << 8) | (row >> 8)) & FULL


def final_score(P, O):
    """Final disc difference for the side to move; empties go to the winner (then negated
    for Reversed Reversi, where the fewer discs win)."""
    diff = _popcount(P) - _popcount(O)
    empties = 64 - _popcount(P | O)
    if diff > 0:
        diff += empties
    elif diff < 0:
        diff -= empties
    return -diff if REVERSED else diff


# --- END PART ---
