"""Hexifence's rules: the geometry for dimension N (``board``: cells, edges, the course's
grid, symmetries), the numba kernels over an undrawn-edge bitset (``bitboard``: degrees,
drawing, captures, safe edges), positions (``state``) and a slow reference for the tests
(``reference``)."""
