"""Pentago Twist's rules: the bitboard kernels (``bitboard``), positions as small immutable
values with their text forms (``state``), and a slow reference from the rules text for the
tests (``reference``)."""
