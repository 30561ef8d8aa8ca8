"""Where each weight lives in an n-tuple genome (``game.genome.kind: ntuple``): the layout a
setting names, and ``NetworkGenome``, the map from a flat genome to named genes and crossover
blocks, and the reference weights re-expressed as networks.

A layout is the kernel's (``engine.kernels.ntuple``) on the 64 squares, cell = square (a1 = 0,
row-major, the bitboard order), 3 states per cell (0 empty, 1 side to move, 2 opponent). Per
phase the genome holds every LUT one after another (``layout.lut_offsets``), then the weights
of the feature groups (``game.genome.features``, as in the ``weights`` genome)::

    p0.t0.00 p0.t0.01 ... p0.t31.22  p0.mobility_own ... | p1.t0.00 ...

Gene ``p{phase}.t{lut}.{digits}``: LUT ``lut`` of that phase, the entry whose tuple cells hold
``digits`` (one digit per cell, in the tuple's order: 0 empty, 1 own, 2 opponent).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from engine.kernels import ntuple as nt
from engine.kernels.ntuple_layout import Layout, LayoutError
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


def is_layout_file(layout) -> bool:
    """A ``game.genome.layout`` that names a layout JSON file (else a family spec or data)."""
    return isinstance(layout, str | Path) and str(layout).lower().endswith(".json")


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
    if isinstance(layout, Mapping):
        built = nt.layout_from_json(dict(layout))
    elif is_layout_file(layout):
        built = nt.load_layout(layout)
    else:
        built = family_layout(layout, symmetry or DEFAULT_SYMMETRY)
    nt.check_bitboard_layout(built)
    if built.n_cells != BOARD * BOARD:
        raise LayoutError(f"cells: a Reversi layout has 64 cells (the squares), got "
                          f"{built.n_cells}")
    return built


def lut_gene_names(layout: Layout, lut: int) -> list[str]:
    """``t{lut}.{digits}`` for every entry of a LUT, in index order (first cell = first
    digit)."""
    n = len(layout.tuples[lut])
    return [f"t{lut}." + "".join(d) for d in itertools.product("012", repeat=n)]


class NetworkGenome:
    """Where each weight lives in an n-tuple genome, and the blocks crossover exchanges: one
    per LUT per phase (``p0.t3``: block crossover exchanges whole tuples) and one per feature
    group per phase (``p0.mobility``), as ``GenomeLayout`` does for the weights genome."""

    def __init__(self, layout: Layout, n_phases: int, groups=()):
        if n_phases < 1:
            raise ValueError(f"n_phases must be >= 1, got {n_phases}")
        self.network = layout
        self.n_phases = n_phases
        self.feature_groups = canonical_groups(groups)
        self.feature_names = group_feature_names(self.feature_groups)
        self.n_features = len(self.feature_names)
        self.n_network = layout.n_weights
        self.phase_size = self.n_network + self.n_features
        self.size = n_phases * self.phase_size
        self.blocks: dict[str, slice] = {}
        for p in range(n_phases):
            start = p * self.phase_size
            for k in range(len(layout.tuples)):
                lo, hi = layout.lut_offsets[k], layout.lut_offsets[k + 1]
                self.blocks[f"p{p}.t{k}"] = slice(start + int(lo), start + int(hi))
            offset = start + self.n_network
            for group in self.feature_groups:
                width = len(FEATURE_GROUPS[group])
                self.blocks[f"p{p}.{group}"] = slice(offset, offset + width)
                offset += width

    @functools.cached_property
    def names(self) -> list[str]:
        luts = [name for k in range(len(self.network.tuples))
                for name in lut_gene_names(self.network, k)]
        return [f"p{p}.{name}" for p in range(self.n_phases)
                for name in (*luts, *self.feature_names)]

    def network_slice(self, phase: int) -> slice:
        start = phase * self.phase_size
        return slice(start, start + self.n_network)

    def features_slice(self, phase: int) -> slice:
        start = phase * self.phase_size + self.n_network
        return slice(start, start + self.n_features)

    def default_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Initialisation/clipping range of every gene: [-1, 1], as the weights genome."""
        return np.full(self.size, -1.0), np.full(self.size, 1.0)

    def max_gene_magnitude(self) -> float:
        """Largest ``m`` such that every genome with all genes in [-m, m] is valid: each
        instance adds one entry of its LUT, each feature counts at most ``MAX_FEATURE_COUNT``,
        so the heuristic stays below ``WIN_SCORE``."""
        per_unit = len(self.network.instances) + self.n_features * MAX_FEATURE_COUNT
        return WIN_SCORE / per_unit * (1.0 - 1e-9)

    def __repr__(self) -> str:
        return (f"NetworkGenome({self.network.name or 'layout'}, n_phases={self.n_phases}, "
                f"groups={list(self.feature_groups)}, size={self.size})")


def signed_entries(n: int, values: np.ndarray) -> np.ndarray:
    """A LUT of ``n`` cells whose entry is ``sum_j values[j] * sign(digit j)`` (own disc +1,
    opponent -1, empty 0): a square table spread over a tuple."""
    index = np.arange(3**n, dtype=np.int64)
    sign = np.array([0.0, 1.0, -1.0])
    out = np.zeros(3**n)
    for j in range(n):
        out += values[j] * sign[(index // 3 ** (n - 1 - j)) % 3]
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
    for k, cells in enumerate(layout.tuples):
        images = [c for lut, c in layout.instances if lut == k]
        values = np.mean([[share[c] for c in image] for image in images], axis=0)
        lo = layout.lut_offsets[k]
        weights[lo:lo + layout.lut_sizes[k]] = signed_entries(len(cells), values)
    return weights
