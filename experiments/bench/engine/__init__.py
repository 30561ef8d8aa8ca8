"""The engine's speed: move generation, search, exact solvers, evaluations and networks, MCTS,
every game through its contract, and before/after against an older checkout."""
