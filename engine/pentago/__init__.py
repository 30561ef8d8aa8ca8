"""Pentago Twist (McGill COMP 424): bitboard rules, agents and the ``Game`` contract."""
