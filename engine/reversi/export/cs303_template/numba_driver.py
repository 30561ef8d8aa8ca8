"""The numba part's driver, for the CS303 agent: ``cs303.py`` pastes the section between the
markers after the numba search and solver parts. It compiles them in a background thread
(the search first, then the solver), and runs the template's ``search_root`` on them
(``NumbaSearch``): the same moves as the pure-Python search.
"""
# ruff: noqa: F821 - a part, not a module: the template and the other numba parts define the
# names it uses (_compile_kernels, _empty_table, SolveSpeed, deepening_schedule, ...).

# --- BEGIN NUMBA DRIVER ---
# a position of 10 empties (a game's end, reached by legal moves) that the warm-up solves
WARM_UP_SOLVE = (0x1D80F2736FDCC4C2, 0x607F0C8810203B30)


def _compile_in_background():
    """Compile the search, publish it, then the exact solver (needed only near the end: the
    search is ready in about half the time)."""
    try:
        root, evaluate, solve_root = _compile_kernels()
        # the first node reads the clock (object mode), as every 1,024th does later
        stats, events = np.array([CLOCK_EVERY, 0, 0], np.int64), np.zeros(64, np.int64)
        P, O = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000)
        # compiles on this first call, with the argument types of every later one
        root(P, O, 2, -1, _empty_table(NUMBA_TABLE_BITS), stats, 1e300, events)
        if stats[0] <= CLOCK_EVERY or stats[1]:
            raise RuntimeError("the warm-up search did not run as it should")
        _COMPILED["root"], _COMPILED["evaluate"] = root, evaluate
        stats[:] = CLOCK_EVERY, 0, 0
        P, O = (np.uint64(x) for x in WARM_UP_SOLVE)
        outcome, _ = solve_root(P, O, -1, _empty_solver_table(NUMBA_TABLE_BITS), stats, 1e300)
        if stats[0] <= CLOCK_EVERY or stats[1] or outcome == OUT_OF_TIME:
            raise RuntimeError("the warm-up solve did not run as it should")
        _COMPILED["solve_root"] = solve_root
    except Exception as exc:  # no numba, or it cannot compile here: play pure Python
        _COMPILED["error"] = type(exc).__name__ + ": " + str(exc)


def numba_failed(error):
    """The numba search failed during a move: pure Python from now on (``_COMPILED`` says
    why)."""
    _COMPILED["root"] = None
    _COMPILED["error"] = type(error).__name__ + ": " + str(error)


def start_compiling():
    """Start compiling the numba search in a daemon thread (once per process)."""
    if _COMPILED["thread"] is None:
        import threading

        _COMPILED["thread"] = threading.Thread(target=_compile_in_background, daemon=True)
        _COMPILED["thread"].start()


def wait_until_compiled(seconds=None):
    """True once the numba search can be used (waits up to ``seconds``; for tests, benchmarks)."""
    start_compiling()
    _COMPILED["thread"].join(seconds)
    return _COMPILED["root"] is not None


class NumbaSearch:
    """``search_root`` on the compiled kernels: the same moves as the pure-Python one."""

    def __init__(self, root):
        self.root = root
        self.table = _empty_table(NUMBA_TABLE_BITS)
        self.solver_table = _empty_solver_table(NUMBA_TABLE_BITS)
        self.events = np.zeros(64, np.int64)
        self.speed = SolveSpeed(NUMBA_SOLVE_SPEED)

    def search_root(self, P, O, deadline, on_best, max_depth=64, solve_empties=None):
        """``search_root`` of the template, compiled (its solve's speed: ``self.speed``); no
        solve until the solver has compiled."""
        empties = 64 - _popcount(P | O)
        solve_root = _COMPILED["solve_root"]
        solving = solve_root is not None and will_solve(empties, deadline, max_depth,
                                                        solve_empties, self.speed)
        self.table.keys[:, 2] = 0
        stats = np.zeros(3, np.int64)  # nodes, out of time, moves in ``events``
        P, O = np.uint64(P), np.uint64(O)
        depths = deepening_schedule(empties, max_depth)
        until = heuristic_deadline(deadline) if solving else deadline
        best, completed = self.deepen(P, O, depths, -1, until, stats, on_best)
        if not solving or completed == empties:
            return completed, int(stats[0]), None
        self.solver_table[:, :2] = 0
        solve_stats = np.zeros(2, np.int64)  # nodes, out of time
        start = time.perf_counter()
        outcome, move = solve_root(P, O, best, self.solver_table, solve_stats, deadline)
        self.speed.measured(solve_stats[0], time.perf_counter() - start)
        if move >= 0:
            on_best(int(move))
        if outcome == -1:  # lost against perfect play: the deepening goes on
            stats[1] = 0
            more = self.deepen(P, O, depths[completed:], best, deadline, stats, on_best)[1]
            completed = max(completed, more)
        nodes = int(stats[0] + solve_stats[0])
        return completed, nodes, None if outcome == OUT_OF_TIME else int(outcome)

    def deepen(self, P, O, depths, best, deadline, stats, on_best):
        """``deepen`` of the template: (the deepest completed depth's move, that depth or 0)."""
        completed = 0
        for depth in depths:
            stats[2] = 0
            move = self.root(P, O, depth, best, self.table, stats, deadline, self.events)
            for sq in self.events[:stats[2]]:
                on_best(int(sq))
            if stats[1]:
                break
            best, completed = move, depth
        return best, completed


def compiled_search(held=None):
    """A ``NumbaSearch`` once numba has compiled (``held``: the caller's, reused), else None."""
    if held is not None or _COMPILED["root"] is None:
        return held
    return NumbaSearch(_COMPILED["root"])
# --- END NUMBA DRIVER ---
