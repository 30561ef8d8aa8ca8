"""Temporal-difference self-play of the ``ntuple`` genome (``selfplay``, numba)."""
