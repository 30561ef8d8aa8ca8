"""Pentago Twist agents: ``simple`` (random, greedy), ``alphabeta`` (the tuned agent), ``mcts``
(the course's seed agent), ``tactics`` (one-move wins and losses, numba) and ``factory``
(agent specs: the short text naming a player)."""
