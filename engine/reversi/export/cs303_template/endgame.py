"""The exact endgame: the win/draw/loss solver that ``search_root`` hands over to near the end.
``cs303.py`` pastes the section between the markers into ``base.py``, after the parts before it
(``cs303.PARTS``).
"""
# ruff: noqa: F821 - a part, not a module: base.py and the other parts define the names it
# uses.

# --- BEGIN PART ---
# --- the exact endgame ----------------------------------------------------------------------
# Near the end, the agent proves the game's outcome. The deepening plays first, for a share of
# the time; then a solver of the final disc difference looks for a winning move, else a drawing
# one, with the time left. A proven win or draw is played. After a proven loss the deepening
# goes on with the time left and its move is played (against a fallible opponent the heuristic
# move is a better bet than the least bad loss); so is it when the solve runs out of time. The
# move played depends only on proven facts (the first move in a fixed order that wins, else
# draws), so the numba solver plays the same moves.

SOLVE_SHARE = 0.25  # share of the time the deepening gets before the solve
SOLVE_NODES_16 = 150_000  # nodes a solve with 16 empties typically takes (most take fewer)
SOLVE_GROWTH = 4.0  # and each further empty square multiplies them by about this much
SOLVE_SMALL = 5  # nodes with this few empties use neither the table nor the ordering
# ordering ties (higher first): corners, then edges away from corners; next to corners last
SQUARE_BONUS = (
    9, 2, 8, 6, 6, 8, 2, 9, 2, 0, 3, 4, 4, 3, 0, 2, 8, 3, 7, 5, 5, 7, 3, 8, 6, 4, 5, 1, 1, 5, 4, 6,
    6, 4, 5, 1, 1, 5, 4, 6, 8, 3, 7, 5, 5, 7, 3, 8, 2, 0, 3, 4, 4, 3, 0, 2, 9, 2, 8, 6, 6, 8, 2, 9,
)
CORNERS = 0x8100000000000081
HINT_KEY = 1024  # above every other key (at most 9)


class SolveSpeed:
    """A solver's nodes per second (a running mean of its solves), and whether a solve of so
    many empty squares is expected to finish in the time left after the deepening's share."""

    def __init__(self, nodes_per_second):
        self.rate = float(nodes_per_second)

    def fits(self, empties, deadline):
        seconds = (1.0 - SOLVE_SHARE) * (deadline - time.perf_counter())
        return SOLVE_NODES_16 * SOLVE_GROWTH ** (empties - 16) <= self.rate * seconds

    def measured(self, nodes, seconds):
        if seconds > 0.01:  # shorter solves time mostly their start
            self.rate = 0.5 * self.rate + 0.5 * nodes / seconds


PURE_SOLVE_SPEED = SolveSpeed(200_000)  # a first guess: this machine's speed is ~270,000


def heuristic_deadline(deadline):
    """When the deepening stops so that the solve gets the rest of the time."""
    now = time.perf_counter()
    return now + SOLVE_SHARE * max(0.0, deadline - now)


def fastest_first(P, O, moves, hint=None):
    """(square, P, O) after each move, ``hint`` first, then fewest opponent replies (corners
    counting twice), ties by ``SQUARE_BONUS`` then square: the order that proves fastest."""
    keyed = []
    while moves:
        low = moves & -moves
        moves ^= low
        sq = low.bit_length() - 1
        f = flips(P, O, sq)
        nP, nO = O ^ f, P ^ f ^ low
        if sq == hint:
            key = HINT_KEY
        else:
            replies = legal_moves(nP, nO)
            key = SQUARE_BONUS[sq] - 16 * (_popcount(replies) + _popcount(replies & CORNERS))
        keyed.append((key, -sq, nP, nO))
    keyed.sort(reverse=True)
    return [(-sq, nP, nO) for _, sq, nP, nO in keyed]


class Solver(_Clocked):
    """The exact final disc difference (``final_score``): fail-soft alpha-beta with principal
    variation search (null windows after the first move), fastest-first ordering, and a table
    of proven bounds and best moves per position."""

    def __init__(self, deadline):
        self.deadline = deadline
        self.nodes = 0
        self.table = {}  # (P, O) -> (lower bound, upper bound, best move)

    def value(self, P, O, alpha, beta):
        """The exact value for the side to move if it lies in ``(alpha, beta)``, else a bound
        beyond the window."""
        if 64 - _popcount(P | O) <= SOLVE_SMALL:
            return self.small(P, O, alpha, beta, False)
        self.tick()
        moves = legal_moves(P, O)
        if not moves:
            if not legal_moves(O, P):
                return final_score(P, O)
            return -self.value(O, P, -beta, -alpha)
        lower, upper, hint = self.table.get((P, O), (-65, 65, None))
        cut = table_cut(lower, upper, alpha, beta)
        if cut is not None:
            return cut
        a, b = max(alpha, lower), min(beta, upper)
        best, best_move = -65, None
        for i, (sq, nP, nO) in enumerate(fastest_first(P, O, moves, hint)):
            if i == 0:
                v = -self.value(nP, nO, -b, -a)
            else:
                v = -self.value(nP, nO, -a - 1, -a)
                if a < v < b:
                    v = -self.value(nP, nO, -b, -a)
            if v > best:
                best, best_move = v, sq
                if v > a:
                    a = v
                    if a >= b:
                        break
        lower, upper = proven_bounds(best, max(alpha, lower), b, lower, upper)
        self.table[(P, O)] = (lower, upper, best_move)
        return best

    def small(self, P, O, alpha, beta, passed):
        """``value`` with few empties: each empty square tried in turn (no move list, no table,
        no ordering); ``passed``: the other side has just passed."""
        self.tick()
        empty = ~(P | O) & FULL
        if not empty & (empty - 1):  # none or one
            return last_square(P, O, empty) if empty else final_score(P, O)
        best, x = -65, empty
        while x:
            low = x & -x
            x ^= low
            f = flips(P, O, low.bit_length() - 1)
            if f:
                v = -self.small(O ^ f, P ^ f ^ low, -beta, -max(alpha, best), False)
                if v > best:
                    best = v
                    if best >= beta:
                        return best
        if best > -65:
            return best
        if passed:
            return final_score(P, O)
        return -self.small(O, P, -beta, -alpha, True)

    def root(self, P, O, first=None):
        """(outcome, move): the first move (``first``, then ``fastest_first``'s order) that
        wins (1), else the first that draws (0), else (-1, None): every move loses."""
        alpha, best_move = -1, None
        for sq, nP, nO in fastest_first(P, O, legal_moves(P, O), first):
            v = -self.value(nP, nO, -1, -alpha)
            if v > alpha:
                if v >= 1:
                    return 1, sq
                alpha, best_move = 0, sq
        return alpha, best_move


def last_square(P, O, square):
    """The final disc difference for the side to move with one empty ``square`` (a bit) left."""
    f = flips(P, O, square.bit_length() - 1)
    if f:
        return final_score(P ^ f ^ square, O ^ f)
    f = flips(O, P, square.bit_length() - 1)
    if f:
        return final_score(P ^ f, O ^ f ^ square)
    return final_score(P, O)


def solve_after(solver, P, O, first, on_best):
    """``solver``'s outcome of the position (``Solver.root``, the deepening's move ``first``
    tried first), None if it ran out of time; ``on_best`` hears a winning or drawing move."""
    try:
        outcome, move = solver.root(P, O, first)
    except _Timeout:
        return None
    if move is not None:
        on_best(move)
    return outcome


# --- END PART ---
