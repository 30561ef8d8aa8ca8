"""Hexifence agents: ``simple`` (random, the course's greedy, safe-edge, the perfect player),
``alphabeta`` (the tuned agent), ``chain`` (the chain-aware agent of the seed program) and
``tactics`` (what each move offers the opponent, numba)."""
