"""Reversi (Othello and Reversed Reversi) on uint64 bitboards: rules, evaluation, search, agents."""
