"""Pentago Twist's alpha-beta: its parts of the shared kernel (``negamax``) and the Python
searcher (``searcher``: fixed depth, time limits, exact near the end)."""
