"""Figures of an n-tuple network genome: its tables and patterns (``network``)."""
