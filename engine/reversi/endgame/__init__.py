"""Reversi's exact endgame solver (numba): the PVS driver (``solver``), its last 4 empties
(``shallow``) and 5..7 empties (``small``), move ordering (``order``), its transposition table
(``table``), loop-free flips (``flips``) and stable discs (``stability``)."""
