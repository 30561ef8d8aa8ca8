"""The evaluation: the engine's features and square tables, to the bit. ``cs303.py`` pastes the
section between the markers into ``base.py``, after the parts before it (``cs303.PARTS``).
"""
# ruff: noqa: F821 - a part, not a module: base.py and the other parts define the names it
# uses.

# --- BEGIN PART ---
# --- evaluation -------------------------------------------------------------------------------

# Stability, as the engine computes it (Edax's sound lower bound): a disc is stable if along
# each of the 4 line directions its line is full or a neighbour on that line is stable; edge
# discs come from an exact one-edge table built by exploring every placement sequence.


def _edge_stability_table():
    """list[P * 256 + O] -> discs of P on one edge line that no placement sequence flips."""
    memo = {}

    def place(mover, other, x):
        mover |= 1 << x
        for step in (-1, 1):
            run, y = 0, x + step
            while 0 <= y < 8 and other >> y & 1:
                run |= 1 << y
                y += step
            if 0 <= y < 8 and mover >> y & 1:
                mover, other = mover | run, other & ~run
        return mover, other

    def never_change(P, O):
        key = (P, O)
        if key not in memo:
            keep = P | O
            for x in range(8):
                if not (P | O) >> x & 1:
                    for p2, o2 in (place(P, O, x), place(O, P, x)[::-1]):
                        keep &= never_change(p2, o2) & ~((p2 ^ P) | (o2 ^ O))
            memo[key] = keep
        return memo[key]

    table = [0] * 65536
    for P in range(256):
        for O in range(256):
            if not P & O:
                table[P * 256 + O] = never_change(P, O) & P
    return table


EDGE_STABLE = _edge_stability_table()
FILE_A = 0x0101010101010101
PACK_FILE = 0x0102040810204080  # ((x & FILE_A) * PACK_FILE) >> 56 = file a as a byte
UNPACK_FILE_A = [sum(1 << (8 * i) for i in range(8) if b >> i & 1) for b in range(256)]
INNER = 0x007E7E7E7E7E7E00


NOT_FILES_AB, NOT_FILES_GH = 0xFCFCFCFCFCFCFCFC, 0x3F3F3F3F3F3F3F3F
NOT_FILES_A_D, NOT_FILES_E_H = 0xF0F0F0F0F0F0F0F0, 0x0F0F0F0F0F0F0F0F


def full_lines(occupied):
    """(horizontal, vertical, a1-h8 diagonal, h1-a8 diagonal): squares whose line is full.
    Rows and files are and-reduced by halves; the empty squares spread along the diagonals by
    doubling (1, 2, then 4 steps), each shift masked so that it cannot wrap around an edge."""
    h = occupied & (occupied >> 1)
    h &= h >> 2
    h &= h >> 4  # bit 8 * row: the whole row is occupied
    h = (h & FILE_A) * 0xFF
    v = occupied & (occupied >> 8)
    v &= v >> 16
    v &= v >> 32  # bit col: the whole file is occupied
    v = (v & 0xFF) * FILE_A
    empty = ~occupied & FULL
    x = empty | ((empty << 9) & NOT_FILE_A) | ((empty >> 9) & NOT_FILE_H)
    x |= ((x << 18) & NOT_FILES_AB) | ((x >> 18) & NOT_FILES_GH)
    x |= ((x << 36) & NOT_FILES_A_D) | ((x >> 36) & NOT_FILES_E_H)
    d9 = ~x & FULL
    x = empty | ((empty << 7) & NOT_FILE_H) | ((empty >> 7) & NOT_FILE_A)
    x |= ((x << 14) & NOT_FILES_GH) | ((x >> 14) & NOT_FILES_AB)
    x |= ((x << 28) & NOT_FILES_E_H) | ((x >> 28) & NOT_FILES_A_D)
    d7 = ~x & FULL
    return h, v, d9, d7


def edge_stable(P, O):
    stable = EDGE_STABLE[((P & 0xFF) << 8) | (O & 0xFF)]
    stable |= EDGE_STABLE[((P >> 56) << 8) | (O >> 56)] << 56
    # file a (and, shifted by 7, file h) packed into a byte: bit i = rank i + 1
    p, o = (((P & FILE_A) * PACK_FILE) >> 56) & 0xFF, (((O & FILE_A) * PACK_FILE) >> 56) & 0xFF
    stable |= UNPACK_FILE_A[EDGE_STABLE[(p << 8) | o]]
    p = ((((P >> 7) & FILE_A) * PACK_FILE) >> 56) & 0xFF
    o = ((((O >> 7) & FILE_A) * PACK_FILE) >> 56) & 0xFF
    stable |= UNPACK_FILE_A[EDGE_STABLE[(p << 8) | o]] << 7
    return stable


def stable_discs(P, O, lines=None):
    """Discs of P that can never be flipped (sound lower bound)."""
    h, v, d9, d7 = lines or full_lines(P | O)
    stable = edge_stable(P, O) | (P & h & v & d9 & d7)
    if not stable:
        return stable
    central = P & INNER  # inner squares: shifts by 1, 7, 8, 9 never wrap an edge
    while True:
        old = stable
        sh = (stable >> 1) | (stable << 1) | h
        sv = (stable >> 8) | (stable << 8) | v
        s9 = (stable >> 9) | (stable << 9) | d9
        s7 = (stable >> 7) | (stable << 7) | d7
        stable |= sh & sv & s9 & s7 & central
        if stable == old:
            return stable


def _byte_tables(matrix):
    """tables[row][byte] = sum of the row's weights over the set bits of ``byte``."""
    return tuple(
        tuple(
            sum(matrix[8 * row + b] for b in range(8) if byte >> b & 1) for byte in range(256)
        )
        for row in range(8)
    )


_TABLES = tuple(_byte_tables(m) for m in POSITIONAL)


def positional(P, O, phase):
    tables = _TABLES[phase]
    total = 0.0
    for row in range(8):
        shift = 8 * row
        t = tables[row]
        total += t[(P >> shift) & 0xFF] - t[(O >> shift) & 0xFF]
    return total


# Corners: X squares (b2, g2, b7, g7) and C squares (b1, a2, g1, h2, a7, b8, h7, g8) next to an
# empty corner. Parity: regions of empty squares (8-connected) with an odd / even size.
A1, H1, A8, H8 = 1, 1 << 7, 1 << 56, 1 << 63


def next_to_empty_corners(occupied):
    """(X squares, C squares) whose corner is empty."""
    a1, h1, a8, h8 = (corner & ~occupied for corner in (A1, H1, A8, H8))
    x = (a1 << 9) | (h1 << 7) | (a8 >> 7) | (h8 >> 9)
    c = (a1 << 1) | (a1 << 8) | (h1 >> 1) | (h1 << 8)
    c |= (a8 << 1) | (a8 >> 8) | (h8 >> 1) | (h8 >> 8)
    return x, c


def parity_regions(empty):
    """(odd, even): regions of ``empty`` (8-connected components) of odd / even size."""
    odd = even = 0
    while empty:
        region = empty & -empty  # its lowest square, grown until it stops
        while True:
            grown = (region | neighbours(region)) & empty
            if grown == region:
                break
            region = grown
        empty ^= region
        if _popcount(region) & 1:
            odd += 1
        else:
            even += 1
    return odd, even


def all_feature_values(P, O):
    """Every feature of ALL_FEATURES, in that order (side to move's view)."""
    near_empty = neighbours(~(P | O) & FULL)
    lines = full_lines(P | O)
    x, c = next_to_empty_corners(P | O)
    return [
        _popcount(legal_moves(P, O)), _popcount(legal_moves(O, P)),
        # the opponent's frontier: where the side to move may later find moves
        _popcount(O & near_empty), _popcount(P & near_empty),
        _popcount(stable_discs(P, O, lines)), _popcount(stable_discs(O, P, lines)),
        _popcount(P & x), _popcount(O & x), _popcount(P & c), _popcount(O & c),
        *parity_regions(~(P | O) & FULL),
    ]


def add_features(value, P, O, f, mob_own, mob_opp):
    """``value`` plus the weighted features (``f``: one phase of WEIGHTS), group by group in the
    engine's order (bit-identical sums); a group that weighs 0 is not computed."""
    value += f[0] * mob_own + f[1] * mob_opp
    if f[2] != 0.0 or f[3] != 0.0:
        near_empty = neighbours(~(P | O) & FULL)
        value += f[2] * _popcount(O & near_empty) + f[3] * _popcount(P & near_empty)
    if f[4] != 0.0 or f[5] != 0.0:
        lines = full_lines(P | O)
        value += f[4] * _popcount(stable_discs(P, O, lines))
        value += f[5] * _popcount(stable_discs(O, P, lines))
    if f[6] != 0.0 or f[7] != 0.0 or f[8] != 0.0 or f[9] != 0.0:
        x, c = next_to_empty_corners(P | O)
        value += f[6] * _popcount(P & x) + f[7] * _popcount(O & x)
        value += f[8] * _popcount(P & c) + f[9] * _popcount(O & c)
    if f[10] != 0.0 or f[11] != 0.0:
        odd, even = parity_regions(~(P | O) & FULL)
        value += f[10] * odd + f[11] * even
    return value


def evaluate(P, O, moves=None):
    """Value of the position for the side to move: exact for a finished game, else heuristic.
    ``moves``: the side to move's legal moves when the caller has them already."""
    mob_own = _popcount(legal_moves(P, O) if moves is None else moves)
    mob_opp = _popcount(legal_moves(O, P))
    if mob_own == 0 and mob_opp == 0:
        return terminal_value(P, O)
    phase = PHASE_OF_DISCS[_popcount(P | O)]
    return add_features(positional(P, O, phase), P, O, WEIGHTS[phase], mob_own, mob_opp)


def _sign(x):
    return (x > 0) - (x < 0)


def terminal_value(P, O):
    """Value of a finished game for the side to move: decided games dominate heuristics."""
    s = final_score(P, O)
    return WIN * _sign(s) + s


# --- END PART ---
