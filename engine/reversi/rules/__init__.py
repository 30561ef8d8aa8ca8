"""Reversi's rules: the uint64 bitboard kernels (``bitboard``) and positions, squares, moves
and the rule variants as Python values (``state``)."""
