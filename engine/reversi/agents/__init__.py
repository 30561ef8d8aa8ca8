"""Agents: anything with ``select_move(position) -> move`` and ``reset(seed)``."""
