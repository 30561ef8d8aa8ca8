"""Temporal-difference learning of the ``ntuple`` genome (numba): online self-play
(``selfplay``), fixed opponents (``opponents``), games played and learnt in rounds
(``rounds``) and per-weight step-size rules (``step_rules``)."""
