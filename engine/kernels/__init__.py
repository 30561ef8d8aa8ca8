"""Numba pieces every game shares: bit intrinsics, the seeded in-kernel RNG, the transposition
table, the alpha-beta scaffolding and its Python driver, the MCTS loop and pattern (n-tuple)
evaluation. A game supplies its move generation, make/undo and evaluation as jitted functions;
nothing here knows a board."""
