"""Reversi's alpha-beta: its parts of the shared kernel (``negamax``), the Python searcher
(``searcher``: fixed depth, time limits, exact solving) and the settings the game exposes
without importing numba (``settings``)."""
