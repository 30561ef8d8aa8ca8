"""The numba exact solver of the CS303 agent: ``cs303.py`` pastes the section between the
markers after the numba search part (``numba_search.py``), whose ``_compile_kernels``
hands it the rules' kernels.

The template's ``Solver`` compiled: the same outcome and the same move (the first move, in the
same order, that wins, else draws), found 20-50x as fast.
"""
# ruff: noqa: F821 - a part, not a module: the template and the numba part define the names it
# uses (SOLVE_SMALL, SQUARE_BONUS, CORNERS, HINT_KEY, CLOCK_EVERY, NUMBA_TABLE_BITS, ...).

# --- BEGIN NUMBA SOLVER ---
NUMBA_SOLVE_SPEED = 5_000_000  # a first guess (SolveSpeed): this machine's speed is ~7,700,000
OUT_OF_TIME = -2  # the compiled solve's outcome when the deadline came first


def _empty_solver_table(bits):
    """Per slot: the two boards, then lower + 128, upper + 128 and best move + 1, a byte each
    (one array: each array passed down the recursion costs reference counting)."""
    return np.zeros((1 << bits, 3), np.uint64)


def _compile_solver(popcount, low_square, legal, flips, final_score, clock, proven_bounds):
    """``Solver.root`` compiled, from the numba part's kernels. A slot whose keys are both 0
    is empty: no position has no discs."""
    from numba import njit

    u = np.uint64
    U1, S29, FULL_ = u(1), u(29), u(FULL)
    CORNERS_ = u(CORNERS)
    HASH = u(0x9E3779B97F4A7C15)
    TABLE_SHIFT = u(64 - NUMBA_TABLE_BITS)
    bonus = np.array(SQUARE_BONUS, dtype=np.int64)
    small = SOLVE_SMALL
    hint_key = HINT_KEY

    @njit(cache=False)
    def fastest_first(P, O, moves, hint, squares, kids_p, kids_o):
        """``fastest_first`` of the template, into the arrays; returns how many moves."""
        keys = np.empty(64, dtype=np.int64)
        n = 0
        while moves:
            sq = low_square(moves)
            low = moves & (~moves + U1)
            moves ^= low
            f = flips(P, O, sq)
            nP, nO = O ^ f, P ^ f ^ low
            if sq == hint:
                key = hint_key
            else:
                replies = legal(nP, nO)
                key = bonus[sq] - 16 * (popcount(replies) + popcount(replies & CORNERS_))
            i = n  # squares arrive in increasing order: equal keys stay in square order
            while i > 0 and keys[i - 1] < key:
                keys[i], squares[i] = keys[i - 1], squares[i - 1]
                kids_p[i], kids_o[i] = kids_p[i - 1], kids_o[i - 1]
                i -= 1
            keys[i], squares[i], kids_p[i], kids_o[i] = key, sq, nP, nO
            n += 1
        return n

    @njit(cache=False)
    def tick(stats, deadline):
        """Count a node; True once the deadline has come (``stats[1]``)."""
        stats[0] += 1
        if not stats[0] & CLOCK_EVERY and clock() > deadline:
            stats[1] = 1
        return stats[1] != 0

    @njit(cache=False)
    def last_square(P, O, square):
        """``last_square`` of the template."""
        sq = low_square(square)
        f = flips(P, O, sq)
        if f:
            return final_score(P ^ f ^ square, O ^ f)
        f = flips(O, P, sq)
        if f:
            return final_score(P ^ f, O ^ f ^ square)
        return final_score(P, O)

    @njit(cache=False)
    def small_value(P, O, alpha, beta, passed, stats, deadline):
        """``Solver.small``."""
        if tick(stats, deadline):
            return 0
        empty = ~(P | O) & FULL_
        if not empty & (empty - U1):
            return last_square(P, O, empty) if empty else final_score(P, O)
        best, x = -65, empty
        while x:
            low = x & (~x + U1)
            x ^= low
            f = flips(P, O, low_square(low))
            if f:
                v = -small_value(O ^ f, P ^ f ^ low, -beta, -max(alpha, best), False, stats,
                                 deadline)
                if stats[1]:
                    return 0
                if v > best:
                    best = v
                    if best >= beta:
                        return best
        if best > -65:
            return best
        if passed:
            return final_score(P, O)
        return -small_value(O, P, -beta, -alpha, True, stats, deadline)

    @njit(cache=False)
    def value(P, O, alpha, beta, t, stats, deadline):
        """``Solver.value``; ``stats[1]`` set when the deadline came (the value is then 0 and
        nothing more is stored)."""
        if 64 - popcount(P | O) <= small:
            return small_value(P, O, alpha, beta, False, stats, deadline)
        if tick(stats, deadline):
            return 0
        moves = legal(P, O)
        if not moves:
            if not legal(O, P):
                return final_score(P, O)
            return -value(O, P, -beta, -alpha, t, stats, deadline)
        slot = np.int64(((P * HASH) ^ (O + (O >> S29))) * HASH >> TABLE_SHIFT)
        lower, upper, hint = -65, 65, -1
        if t[slot, 0] == P and t[slot, 1] == O:
            data = np.int64(t[slot, 2])
            lower, upper, hint = (data & 255) - 128, ((data >> 8) & 255) - 128, (data >> 16) - 1
            if lower >= beta:
                return lower
            if upper <= alpha or lower == upper:
                return upper
        a, b = max(alpha, lower), min(beta, upper)
        squares = np.empty(64, dtype=np.int64)
        kids_p, kids_o = np.empty(64, dtype=np.uint64), np.empty(64, dtype=np.uint64)
        n = fastest_first(P, O, moves, hint, squares, kids_p, kids_o)
        best, best_move = -65, -1
        for i in range(n):
            if i == 0:
                v = -value(kids_p[i], kids_o[i], -b, -a, t, stats, deadline)
            else:
                v = -value(kids_p[i], kids_o[i], -a - 1, -a, t, stats, deadline)
                if a < v < b and not stats[1]:
                    v = -value(kids_p[i], kids_o[i], -b, -a, t, stats, deadline)
            if stats[1]:
                return 0
            if v > best:
                best, best_move = v, squares[i]
                if v > a:
                    a = v
                    if a >= b:
                        break
        lower, upper = proven_bounds(best, max(alpha, lower), b, lower, upper)
        t[slot, 0], t[slot, 1] = P, O
        t[slot, 2] = np.uint64((lower + 128) | ((upper + 128) << 8) | ((best_move + 1) << 16))
        return best

    @njit(cache=False)
    def solve_root(P, O, first, t, stats, deadline):
        """``Solver.root``: (outcome, move), (``OUT_OF_TIME``, -1) when the deadline came
        first."""
        squares = np.empty(64, dtype=np.int64)
        kids_p, kids_o = np.empty(64, dtype=np.uint64), np.empty(64, dtype=np.uint64)
        n = fastest_first(P, O, legal(P, O), first, squares, kids_p, kids_o)
        alpha, best_move = -1, -1
        for i in range(n):
            v = -value(kids_p[i], kids_o[i], -1, -alpha, t, stats, deadline)
            if stats[1]:
                return OUT_OF_TIME, -1
            if v > alpha:
                if v >= 1:
                    return 1, squares[i]
                alpha, best_move = 0, squares[i]
        return alpha, best_move

    return solve_root
# --- END NUMBA SOLVER ---
