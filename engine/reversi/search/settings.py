"""Search settings the Reversi game exposes (kept apart so the game need not import numba)."""

# "pvs": engine.reversi.endgame.solver; "negamax": the exact mode of engine.reversi.search that
# games played before it used (the same scores; among equally good moves it may pick another).
EXACT_SOLVERS = ("pvs", "negamax")
