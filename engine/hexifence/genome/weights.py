"""The genome: evaluation weights per phase and the reference weights.

A genome is the flat float64 vector of ``phases x len(FEATURES)`` weights, phase-major (phase
``k`` evaluates positions with ``drawn * phases // (edges + 1) == k`` edges drawn). Crossover
swaps whole phases (the genome spec's blocks). Its champion files: ``engine.hexifence.files``.
"""

from __future__ import annotations

import numpy as np

from engine.core.game import GenomeSpec
from engine.hexifence.genome.evaluation import FEATURES, N_FEATURES

BOUND = 1.0  # genes start and are clipped in [-BOUND, BOUND]

# The reference weights: the score, then the structure the seed agent reasoned about. Odd
# safe-edge counts and a favourable long-chain parity mean the opponent opens the chains;
# the controlled value (signed by that parity) is what keeping control is worth.
REFERENCE = {
    "margin": 1.0,
    "three_loops": 0.0,
    "cells_two_empty": 0.0,
    "cells_three_empty": 0.0,
    "safe_edges": 0.0,
    "safe_parity": 0.5,
    "short_chains": 0.0,
    "long_chains": 0.0,
    "loops": 0.0,
    "chain_parity": 0.5,
    "controlled_value": 0.25,
}
REFERENCES = ("reference", "margin")


def genome_spec(phases: int) -> GenomeSpec:
    names = tuple(f"p{k}.{f}" for k in range(phases) for f in FEATURES)
    blocks = {f"phase{k}": slice(k * N_FEATURES, (k + 1) * N_FEATURES) for k in range(phases)}
    size = phases * N_FEATURES
    return GenomeSpec(names, blocks, np.full(size, -BOUND), np.full(size, BOUND))


def reference_genome(reference: str, phases: int) -> np.ndarray:
    """``reference``: the structure-aware weights; ``margin``: the score alone."""
    if reference == "reference":
        row = np.array([REFERENCE[f] for f in FEATURES], dtype=np.float64)
    elif reference == "margin":
        row = np.zeros(N_FEATURES)
        row[FEATURES.index("margin")] = 1.0
    else:
        raise ValueError(f"unknown reference weights {reference!r} (allowed: "
                         f"{', '.join(REFERENCES)})")
    return np.tile(row, phases)


def weights_matrix(genome: np.ndarray, phases: int) -> np.ndarray:
    """[phases, features] from a flat genome; ``ValueError`` on a wrong length."""
    genome = np.asarray(genome, dtype=np.float64)
    if genome.shape != (phases * N_FEATURES,):
        raise ValueError(f"genome must have {phases} x {N_FEATURES} = {phases * N_FEATURES} "
                         f"genes, got shape {genome.shape}")
    return genome.reshape(phases, N_FEATURES).copy()

