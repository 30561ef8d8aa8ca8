"""The Pentago Twist genome: names, blocks, bounds and the hand-set reference weights."""

from __future__ import annotations

import numpy as np

from engine.core import GenomeSpec
from engine.pentago.genome.evaluation import FEATURES, N_FEATURES

MAX_WEIGHT = 1000.0  # far below WIN_SCORE / (counts per position): wins stay dominant
GENE_BOUND = 1.0  # default init/clip range [-1, 1]; WIN_SCORE dwarfs any weighted count
# A sensible hand-set vector (own weights, then opp): threats dominate, longer open windows
# grow fast, the twist-proof centres and quadrant lines help; the opponent's threats (it moves
# after us) count slightly more than ours of the same size except a 4 (we move first).
REFERENCE = {
    "own": {"win1": 0.01, "win2": 0.05, "win3": 0.2, "win4": 0.6, "centre": 0.15,
            "corner": 0.0, "edge": 0.02, "qline3": 0.1, "qline2": 0.03},
    "opp": {"win1": -0.01, "win2": -0.06, "win3": -0.25, "win4": -0.8, "centre": -0.15,
            "corner": 0.0, "edge": -0.02, "qline3": -0.1, "qline2": -0.03},
}
REFERENCE_NAMES = ("reference",)


def gene_names(phases: int) -> tuple[str, ...]:
    return tuple(f"p{p}.{side}.{f}" for p in range(phases) for side in ("own", "opp")
                 for f in FEATURES)


def genome_spec(phases: int) -> GenomeSpec:
    """One block per phase (crossover swaps whole phases)."""
    width = 2 * N_FEATURES
    blocks = {f"phase{p}": slice(p * width, (p + 1) * width) for p in range(phases)}
    size = phases * width
    return GenomeSpec(gene_names(phases), blocks, np.full(size, -GENE_BOUND),
                      np.full(size, GENE_BOUND))


def reference_genome(name: str, phases: int) -> np.ndarray:
    if name not in REFERENCE_NAMES:
        raise ValueError(f"unknown reference {name!r} (allowed: {', '.join(REFERENCE_NAMES)})")
    row = [REFERENCE[side][f] for side in ("own", "opp") for f in FEATURES]
    return np.tile(np.array(row, np.float64), phases)


def weights_matrix(genome: np.ndarray, phases: int) -> np.ndarray:
    """The genome as the ``(phases, 2 * N_FEATURES)`` array the kernels take."""
    genome = np.ascontiguousarray(genome, dtype=np.float64)
    if genome.shape != (phases * 2 * N_FEATURES,):
        raise ValueError(f"genome has {genome.size} genes, {phases} phases need "
                         f"{phases * 2 * N_FEATURES}")
    if not np.all(np.isfinite(genome)):
        raise ValueError("genome holds a non-finite weight")
    return genome.reshape(phases, 2 * N_FEATURES).copy()
