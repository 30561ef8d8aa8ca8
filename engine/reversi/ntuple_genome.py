"""Where each weight lives in an n-tuple genome (``game.genome.kind: ntuple``): the layout a
setting names, the genome (``engine.kernels.ntuple_genome.NetworkGenome``, with the feature
groups as its feature blocks), and the reference weights re-expressed as networks.

A layout is the kernel's (``engine.kernels.ntuple``) on the 64 squares, cell = square (a1 = 0,
row-major, the bitboard order), 3 states per cell (0 empty, 1 side to move, 2 opponent). Per
phase the genome holds every LUT one after another (``layout.lut_offsets``), then the weights
of the feature groups (``game.genome.features``, as in the ``weights`` genome)::

    p0.t0.00 p0.t0.01 ... p0.t31.22  p0.mobility_own ... | p1.t0.00 ...

Gene ``p{phase}.t{lut}.{digits}``: LUT ``lut`` of that phase, the entry whose tuple cells hold
``digits`` (one digit per cell, in the tuple's order: 0 empty, 1 own, 2 opponent). Crossover
blocks: one per LUT per phase (``p0.t3``) and one per feature group per phase (``p0.mobility``),
as ``GenomeLayout`` does for the weights genome.
"""

from __future__ import annotations

import functools

import numpy as np

from engine.kernels import ntuple as nt
from engine.kernels.ntuple_genome import NetworkGenome, lut_states
from engine.kernels.ntuple_layout import Layout, LayoutError
from engine.kernels.ntuple_settings import layout_from_setting
from engine.reversi.evaluation import WIN_SCORE
from engine.reversi.layout import (
    FEATURE_GROUPS,
    MAX_FEATURE_COUNT,
    canonical_groups,
    group_feature_names,
)

BOARD = 8
DEFAULT_LAYOUT = "straight2"  # Jaskowski's systematic 2-tuples: 32 tables, 288 weights
DEFAULT_SYMMETRY = "d4"


@functools.lru_cache(maxsize=32)
def family_layout(spec: str, symmetry: str) -> Layout:
    """The systematic layout of a family spec (``straight2``, ``corner3+edge2x``) under a group
    of the square board's symmetries; ``LayoutError`` naming what is wrong."""
    if not isinstance(spec, str) or not spec.strip():
        raise LayoutError(f"pattern: expected a family spec such as {DEFAULT_LAYOUT}, got "
                          f"{spec!r}")
    return nt.board_layout(BOARD, BOARD, nt.family_tuples(BOARD, BOARD, spec), symmetry,
                           name=spec)


def network_layout(layout, symmetry: str | None) -> Layout:
    """The layout ``game.genome.layout`` names: a family spec (``symmetry`` default d4), a
    layout JSON file, or the layout JSON data itself (files and data have their own
    symmetries). Refuses layouts the bitboard kernels cannot read. ``LayoutError``."""
    built = layout_from_setting(layout, lambda spec: family_layout(
        spec, symmetry or DEFAULT_SYMMETRY), DEFAULT_LAYOUT)
    nt.check_bitboard_layout(built)
    if built.n_cells != BOARD * BOARD:
        raise LayoutError(f"cells: a Reversi layout has 64 cells (the squares), got "
                          f"{built.n_cells}")
    return built


def network_genome(layout: Layout, n_phases: int, groups=()) -> NetworkGenome:
    """The genome of a network with the feature ``groups`` (catalogue order), one crossover
    block per group per phase; bounds [-1, 1], as the weights genome."""
    groups = canonical_groups(groups)
    return NetworkGenome(layout, n_phases, group_feature_names(groups),
                         tuple((g, len(FEATURE_GROUPS[g])) for g in groups))


def max_gene_magnitude(genome: NetworkGenome) -> float:
    """Largest ``m`` such that every genome with all genes in [-m, m] is valid: each instance
    adds one entry of its LUT, each feature counts at most ``MAX_FEATURE_COUNT``, so the
    heuristic stays below ``WIN_SCORE``."""
    per_unit = len(genome.layout.instances) + len(genome.feature_names) * MAX_FEATURE_COUNT
    return WIN_SCORE / per_unit * (1.0 - 1e-9)


def signed_entries(layout: Layout, lut: int, values: np.ndarray) -> np.ndarray:
    """LUT ``lut`` with each entry ``sum_j values[j] * sign(state of cell j)`` (own disc +1,
    opponent -1, empty 0): a square table spread over a tuple."""
    signs = np.array([0.0, 1.0, -1.0])[lut_states(layout, lut)]
    out = np.zeros(len(signs))
    for j, value in enumerate(values):
        out += value * signs[:, j]
    return out


def network_of_square_table(layout: Layout, table: np.ndarray) -> np.ndarray:
    """One phase's LUT weights whose network value is the square table's ``sum(own) -
    sum(opponent)``: each square's weight is shared by the instances covering it (each LUT
    entry takes the mean over its instances). Exact when the table is invariant under the
    layout's symmetries and every square is in some tuple; a square in no tuple is lost."""
    cover = np.zeros(BOARD * BOARD)
    for _, cells in layout.instances:
        cover[list(cells)] += 1
    share = np.divide(table, cover, out=np.zeros(BOARD * BOARD), where=cover > 0)
    weights = np.zeros(layout.n_weights)
    for k in range(len(layout.tuples)):
        images = [c for lut, c in layout.instances if lut == k]
        values = np.mean([[share[c] for c in image] for image in images], axis=0)
        lo = layout.lut_offsets[k]
        weights[lo:lo + layout.lut_sizes[k]] = signed_entries(layout, k, values)
    return weights
