"""Hexifence (Melbourne COMP30024, 2016): hexagonal dots-and-boxes. See docs/hexifence.md."""
