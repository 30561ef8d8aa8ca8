"""The time-limited search: iterative deepening of alpha-beta with a table, each depth's best moves
reported as they are found. ``cs303.py`` pastes the section between the markers into
``base.py``, after the parts before it (``cs303.PARTS``).
"""
# ruff: noqa: F821 - a part, not a module: base.py and the other parts define the names it
# uses.

# --- BEGIN PART ---
# --- search -----------------------------------------------------------------------------------


class _Timeout(Exception):
    pass


class _Clocked:
    """A search that counts its nodes and stops (``_Timeout``) once past ``self.deadline``,
    reading the clock every ``CHECK_EVERY`` nodes (a power of two: the clock costs time)."""

    CHECK_EVERY = 32

    def tick(self):
        self.nodes += 1
        if not self.nodes & (self.CHECK_EVERY - 1) and time.perf_counter() > self.deadline:
            raise _Timeout


def table_cut(lower, upper, alpha, beta):
    """The value stored bounds settle over ``(alpha, beta)``, or None if the node needs a
    search."""
    if lower >= beta:
        return lower
    if upper <= alpha or lower == upper:
        return upper
    return None


def proven_bounds(best, alpha, beta, lower, upper):
    """(lower, upper) narrowed by a fail-soft value ``best`` searched over ``(alpha, beta)``:
    exact inside the window, else a bound."""
    if best <= alpha:
        upper = min(upper, best)
    elif best >= beta:
        lower = max(lower, best)
    else:
        lower = upper = best
    return lower, upper


def children(P, O, squares):
    """(square, P, O) after each move of ``squares`` in turn, the side to move first."""
    for sq in squares:
        f = flips(P, O, sq)
        yield sq, O ^ f, P ^ f ^ (1 << sq)


def best_child(value, kids, alpha, beta, *depth):
    """(best value, its square) of fail-soft alpha-beta over ``kids`` ((square, P, O) each),
    stopping at the first cut; ``value(P, O, *depth, alpha, beta)`` values a child for its
    side to move."""
    best, best_move = -float("inf"), None
    for sq, nP, nO in kids:
        v = -value(nP, nO, *depth, -beta, -alpha)
        if v > best:
            best, best_move = v, sq
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best, best_move


class Searcher(_Clocked):
    """Fail-soft negamax alpha-beta under a deadline, for iterative deepening: a table keeps,
    per position, the bounds of its last search and its best move, which is searched first at
    the next depth."""

    INFINITE = float("inf")
    SORT_DEPTH = 4  # from this depth on, moves are ordered by a 1-ply search

    def __init__(self, deadline):
        self.deadline = deadline
        self.nodes = 0
        self.table = {}  # (P, O) -> (depth, lower bound, upper bound, best move)

    def _order(self, P, O, moves, hint=None):
        """Squares of ``moves``: ``hint`` first, then by positional weight."""
        weights = POSITIONAL[PHASE_OF_DISCS[_popcount(P | O) + 1]]
        squares = []
        while moves:
            low = moves & -moves
            squares.append(low.bit_length() - 1)
            moves ^= low
        squares.sort(key=weights.__getitem__, reverse=True)
        if hint is not None and hint in squares:
            squares.remove(hint)
            squares.insert(0, hint)
        return squares

    def _sorted(self, P, O, moves, hint):
        """Squares of ``moves``: ``hint`` first, then by the evaluation after the move (a
        1-ply search orders deep nodes better than the positional weights)."""
        keyed = []
        while moves:
            low = moves & -moves
            moves ^= low
            sq = low.bit_length() - 1
            f = flips(P, O, sq)
            keyed.append((evaluate(O ^ f, P ^ f ^ low) if sq != hint else -self.INFINITE, sq))
        keyed.sort()
        return [sq for _, sq in keyed]

    def negamax(self, P, O, depth, alpha, beta):
        self.tick()
        moves = legal_moves(P, O)
        if not moves:
            if not legal_moves(O, P):
                return terminal_value(P, O)
            return -self.negamax(O, P, depth, -beta, -alpha)  # pass: same depth, sides swap
        if depth == 0:
            return evaluate(P, O, moves)
        key = (P, O)
        entry = self.table.get(key)
        lower, upper, hint = -self.INFINITE, self.INFINITE, None
        if entry is not None:
            hint = entry[3]
            if entry[0] == depth:
                lower, upper = entry[1], entry[2]
                cut = table_cut(lower, upper, alpha, beta)
                if cut is not None:
                    return cut
        a = max(alpha, lower)
        b = min(beta, upper)
        squares = (self._sorted(P, O, moves, hint) if depth >= self.SORT_DEPTH
                   else self._order(P, O, moves, hint))
        best, best_move = best_child(self.negamax, children(P, O, squares), a, b, depth - 1)
        lower, upper = proven_bounds(best, max(alpha, lower), b, lower, upper)
        self.table[key] = (depth, lower, upper, best_move)
        return best

    def root(self, P, O, depth, first, on_best):
        """The best move at ``depth`` (``first``, the last depth's best, is searched first).
        ``on_best(sq)`` hears the first move once its value is known, then every move proven
        better than all before it, so an interrupted depth still improves on the last one."""
        best, best_move = -self.INFINITE, None
        for sq in self._order(P, O, legal_moves(P, O), first):
            f = flips(P, O, sq)
            value = -self.negamax(O ^ f, P ^ f ^ (1 << sq), depth - 1, -self.INFINITE, -best)
            if value > best:
                best, best_move = value, sq
                on_best(sq)
        self.table[(P, O)] = (depth, best, best, best_move)
        return best_move


def deepening_schedule(empties, max_depth=64):
    """Depths to search: 1, 2, 3, ... up to the last empty square (then the search is exact).
    Every depth is searched, also near the end: an exact search that cannot finish in time
    still leaves the deepest heuristic depth's move."""
    return list(range(1, min(max_depth, empties) + 1))


def search_root(P, O, deadline, on_best, max_depth=64, solve_empties=None, speed=None):
    """Iterative deepening until ``deadline``; ``on_best(sq)`` hears every move that becomes
    the best (see ``Searcher.root``). Near the end, unless ``max_depth`` stops short of it, the
    deepening gets ``SOLVE_SHARE`` of the time and ``Solver`` the rest (``solve_after``): when
    ``speed`` (a ``SolveSpeed``, default ``PURE_SOLVE_SPEED``) expects the solve to finish, or
    (``solve_empties``) whenever at most that many squares are empty. Returns (deepest depth
    completed, nodes searched, the solve's outcome: 1 won, 0 drawn, -1 lost, None when not
    solved)."""
    empties = 64 - _popcount(P | O)
    speed = PURE_SOLVE_SPEED if speed is None else speed
    solving = will_solve(empties, deadline, max_depth, solve_empties, speed)
    searcher = Searcher(heuristic_deadline(deadline) if solving else deadline)
    depths = deepening_schedule(empties, max_depth)
    best, completed = deepen(searcher, P, O, depths, None, on_best)
    if not solving or completed == empties:  # a search to the end is exact already
        return completed, searcher.nodes, None
    solver, start = Solver(deadline), time.perf_counter()
    outcome = solve_after(solver, P, O, best, on_best)
    speed.measured(solver.nodes, time.perf_counter() - start)
    if outcome == -1:  # lost against perfect play: the deepening's move, with the time left
        searcher.deadline = deadline
        completed = max(completed, deepen(searcher, P, O, depths[completed:], best, on_best)[1])
    return completed, searcher.nodes + solver.nodes, outcome


def will_solve(empties, deadline, max_depth, solve_empties, speed):
    """Whether ``search_root`` hands the end of the move to the solver (its docstring)."""
    if max_depth < empties:
        return False
    return speed.fits(empties, deadline) if solve_empties is None else empties <= solve_empties


def deepen(searcher, P, O, depths, best, on_best):
    """``searcher.root`` at each of ``depths`` until its deadline, ``best`` (the last depth's
    move) first; returns (the deepest completed depth's move, that depth or 0)."""
    completed = 0
    for depth in depths:
        try:
            best = searcher.root(P, O, depth, best, on_best)
        except _Timeout:
            break
        completed = depth
    return best, completed


# --- END PART ---
