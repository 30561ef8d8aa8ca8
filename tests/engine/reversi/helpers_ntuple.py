"""Shared pieces of the n-tuple genome tests: games with network settings, random networks,
and a reader of network files written from the file's own description (``value``): the
"other program" a network file promises to be enough for."""

from __future__ import annotations

import numpy as np

from engine.core.registry import get_game
from engine.reversi.genome.network import NtupleWeights


def network_game(name: str = "othello", **genome):
    """The game ``name`` with an ntuple genome (straight2, d4, 1 phase, no features unless
    given)."""
    settings = {"kind": "ntuple", "layout": "straight2", "phases": 1, "features": [], **genome}
    return get_game(name, {"genome": settings})


def random_network(game, seed: int, scale: float = 1.0, integer: bool = False,
                   name: str = "") -> NtupleWeights:
    """A network of ``game``'s genome with uniform weights in its bounds (times ``scale``);
    ``integer``: rounded to small integers, so that equal values (ties) are common."""
    low, high = game.genome_spec().default_bounds()
    genome = np.random.default_rng(seed).uniform(low, high) * scale
    if integer:
        genome = np.round(genome * 2)
    variant = "reversed" if "reversed" in game.name else "othello"
    return game.weights(genome, name or f"n{seed}", {"variant": variant})


def cells_of(P: int, O: int) -> list[int]:
    """0 empty, 1 side to move, 2 opponent per square a1..h8."""
    return [(int(P) >> c & 1) + 2 * (int(O) >> c & 1) for c in range(64)]


def file_network_value(data: dict, P: int, O: int) -> float:
    """The network part of a position's value, read from a network file's JSON data alone as
    its ``value`` field says: the phase whose ``phase_discs`` range holds the disc count, then
    the sum over ``layout.instances`` of ``weights[phase][lut_offsets[lut] + index]``."""
    cells = cells_of(P, O)
    discs = sum(1 for c in cells if c)
    phase = next(p for p, (lo, hi) in enumerate(data["phase_discs"]) if lo <= discs <= hi)
    total = 0.0
    for lut, members in data["layout"]["instances"]:
        index = 0
        for c in members:
            index = 3 * index + cells[c]
        total += data["weights"][phase][data["layout"]["lut_offsets"][lut] + index]
    return total
