"""Hexifence's alpha-beta: the negamax over undrawn-edge bitsets with its table (``negamax``,
numba) and the Python searcher (``searcher``: Zobrist keys, iterative deepening, exact
solving)."""
