"""Reversi's ``ntuple`` genome (``game.genome.kind: ntuple``): the layout a setting names, the
genome (``engine.kernels.ntuple.genome.NetworkGenome``, with the feature groups as its feature
blocks), and ``NtupleWeights``, a genome as evaluation weights (the counterpart of ``Weights``).

A layout is the kernel's (``engine.kernels.ntuple``) on the 64 squares, cell = square (a1 = 0,
row-major, the bitboard order), 3 states per cell (0 empty, 1 side to move, 2 opponent). Per
phase (disc-count ranges, as in ``Weights``) the genome holds every LUT one after another
(``layout.lut_offsets``), then the weights of the feature groups (``game.genome.features``)::

    p0.t0.00 p0.t0.01 ... p0.t31.22  p0.mobility_own ... | p1.t0.00 ...

Gene ``p{phase}.t{lut}.{digits}``: LUT ``lut`` of that phase, the entry whose tuple cells hold
``digits`` (0 empty, 1 own, 2 opponent). Crossover blocks: one per LUT per phase (``p0.t3``)
and one per feature group per phase (``p0.mobility``). The value of a position for the side to
move is

    sum over instances i of weights[phase, lut_offsets[lut_i] + index_i(P, O)]
    + features[phase] . (the feature counts, as in ``engine.reversi.genome.evaluation``)

(``engine.reversi.genome.network_eval``). Finished games are scored exactly, and the heuristic must
stay below ``WIN_SCORE`` (``check_network_magnitude``), as for ``Weights``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from engine.kernels import ntuple as nt
from engine.kernels.ntuple.genome import NetworkGenome, lut_states
from engine.kernels.ntuple.layout import Layout, LayoutError
from engine.kernels.ntuple.settings import layout_from_setting
from engine.reversi.genome.evaluation import N_ALL_FEATURES, WIN_SCORE
from engine.reversi.genome.layout import (
    CATALOGUE_INDEX,
    FEATURE_GROUPS,
    MAX_DISCS,
    MAX_FEATURE_COUNT,
    MIN_DISCS,
    PhasedFeatures,
    canonical_groups,
    group_feature_names,
    phase_of_discs_table,
)

BOARD = 8
DEFAULT_LAYOUT = "straight2"  # Jaskowski's systematic 2-tuples: 32 tables, 288 weights
DEFAULT_SYMMETRY = "d4"
# Named pattern sets: Edax's shapes (eval.c): the 3x3 and 2x5 corners, edge + 2X, the rows and
# columns 2 to 4 from an edge, the diagonals of 4 to 8 squares
EDAX = "corner3+corner5x2+edge2x+hv2+hv3+hv4+diag4+diag5+diag6+diag7+diag8"
# Egaroucid's (its evaluation since version 6): Edax's without the 2x5 corner and the 4-cell
# diagonal, with three more 10-cell corner shapes
EGAROUCID = ("hv2+hv3+hv4+diag5+diag6+diag7+diag8+edge2x+triangle+cornerblock+corner3+"
             "narrowtriangle")
NAMED_LAYOUTS = {"edax": EDAX, "egaroucid": EGAROUCID}


@functools.lru_cache(maxsize=32)
def family_layout(spec: str, symmetry: str) -> Layout:
    """The systematic layout of a family spec (``straight2``, ``corner3+edge2x``) or a named set
    (``edax``: ``EDAX``, ``egaroucid``: ``EGAROUCID``) under a group of the square board's
    symmetries; ``LayoutError`` naming what is wrong."""
    if not isinstance(spec, str) or not spec.strip():
        raise LayoutError(f"pattern: expected a family spec such as {DEFAULT_LAYOUT}, got "
                          f"{spec!r}")
    tuples = nt.family_tuples(BOARD, BOARD, NAMED_LAYOUTS.get(spec.strip(), spec))
    return nt.board_layout(BOARD, BOARD, tuples, symmetry, name=spec)


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


_TABLES: dict[int, tuple[Layout, nt.IndexTables]] = {}  # id(layout) -> its index tables


def index_tables(layout: Layout) -> nt.IndexTables:
    """The kernel's index tables of a layout, built once per layout object in a process."""
    if id(layout) not in _TABLES:
        _TABLES[id(layout)] = (layout, nt.index_tables(layout))  # keeps the layout alive
    return _TABLES[id(layout)][1]


def network_bound(layout: Layout, weights: np.ndarray) -> np.ndarray:
    """Per phase, the largest ``|network value|``: each instance adds at most the largest
    ``|entry|`` of its LUT."""
    rows = np.abs(np.atleast_2d(weights))
    luts = np.searchsorted(layout.lut_offsets, index_tables(layout).offset, side="right") - 1
    counts = np.bincount(luts, minlength=len(layout.tuples))  # instances per LUT
    largest = np.maximum.reduceat(rows, layout.lut_offsets[:-1], axis=1)
    return largest @ counts


def check_network_magnitude(layout: Layout, weights: np.ndarray, features: np.ndarray) -> None:
    """``ValueError`` unless won/lost games (worth more than ``WIN_SCORE``) dominate every
    heuristic value these weights can produce."""
    bound = network_bound(layout, weights) + np.abs(features).sum(axis=1) * MAX_FEATURE_COUNT
    if not float(bound.max(initial=0.0)) < WIN_SCORE:
        raise ValueError(f"weights too large: the heuristic can reach {bound.max():.6g} but "
                         f"must stay below the win score {WIN_SCORE:g}, or won/lost positions "
                         "would not dominate it; scale the weights down")


@dataclass
class NtupleWeights(PhasedFeatures):
    """A network per phase plus feature weights (see the module docstring). ``spec`` and
    ``symmetry`` say how the layout was built from a family spec (``None`` for a layout of
    its own, from a file)."""

    layout: Layout
    phase_bounds: tuple[int, ...]
    weights: np.ndarray  # (n_phases, layout.n_weights)
    features: np.ndarray  # (n_phases, len(self.feature_names))
    feature_groups: tuple[str, ...] = ()
    name: str = ""
    metadata: dict = field(default_factory=dict)
    spec: str | None = None
    symmetry: str | None = None

    def __post_init__(self):
        self.phase_bounds = tuple(int(b) for b in self.phase_bounds)
        prev = 0
        for b in self.phase_bounds:
            if not prev < b <= MAX_DISCS:
                raise ValueError(f"phase_bounds must be strictly increasing disc counts in "
                                 f"1..64, got {list(self.phase_bounds)}")
            prev = b
        n = len(self.phase_bounds) + 1
        self.feature_groups = canonical_groups(self.feature_groups)
        self.weights = np.array(self.weights, dtype=np.float64).reshape(n, self.layout.n_weights)
        self.features = np.array(self.features, dtype=np.float64).reshape(
            n, len(self.feature_names))
        if not (np.all(np.isfinite(self.weights)) and np.all(np.isfinite(self.features))):
            raise ValueError("weights must be finite numbers (found NaN or infinity)")
        check_network_magnitude(self.layout, self.weights, self.features)
        self.metadata = dict(self.metadata)

    @property
    def variant(self) -> str | None:
        return self.metadata.get("variant")

    @property
    def genome_layout(self) -> NetworkGenome:
        return network_genome(self.layout, self.n_phases, self.feature_groups)

    def phase_discs(self, phase: int) -> tuple[int, int]:
        """Inclusive disc-count range of a phase."""
        lo = MIN_DISCS if phase == 0 else self.phase_bounds[phase - 1]
        hi = MAX_DISCS if phase == self.n_phases - 1 else self.phase_bounds[phase] - 1
        return lo, hi

    def to_genome(self) -> np.ndarray:
        return self.genome_layout.join(self.weights, self.features)

    @classmethod
    def from_genome(cls, genome, layout: Layout, phase_bounds, groups=(), name: str = "",
                    metadata: dict | None = None, spec: str | None = None,
                    symmetry: str | None = None) -> NtupleWeights:
        weights, features = network_genome(layout, len(tuple(phase_bounds)) + 1,
                                           groups).split(genome)
        return cls(layout, tuple(phase_bounds), weights, features, canonical_groups(groups),
                   name, metadata or {}, spec, symmetry)

    @cached_property
    def tables(self) -> nt.IndexTables:
        return index_tables(self.layout)

    def catalogue_features(self) -> np.ndarray:
        """``float64 [n_phases, 12]``: the features over the whole catalogue
        (``ALL_FEATURE_NAMES``), 0 for unused groups, as ``Weights.numba_arrays`` gives them."""
        out = np.zeros((self.n_phases, N_ALL_FEATURES))
        out[:, [CATALOGUE_INDEX[n] for n in self.feature_names]] = self.features
        return out

    def numba_arrays(self):
        """(phase_of_discs int64[65], index tables, weights, features [n, 12]): what the numba
        evaluation and self-play take."""
        return (phase_of_discs_table(self.phase_bounds), self.tables,
                np.ascontiguousarray(self.weights), self.catalogue_features())

    def search_arrays(self, incremental: bool = True) -> tuple:
        """The evaluation arguments of ``engine.reversi.search.negamax.negamax`` (``phase_of_discs``
        to ``mode``); ``incremental``: how a node scores its children (the same values, moves
        and node counts either way, only the speed differs)."""
        from engine.reversi.search.negamax import NETWORK, NETWORK_INCREMENTAL, NO_SQUARE_TABLES

        phase_of_discs, tables, weights, features = self.numba_arrays()
        return (phase_of_discs, NO_SQUARE_TABLES, features, tables, weights,
                NETWORK_INCREMENTAL if incremental else NETWORK)

    def square_values(self) -> np.ndarray:
        """``(n_phases, 64)``: per square, half the difference between the network's value of
        a lone own disc there and of a lone opponent disc (the empty board's value cancels).
        The square table this network is closest to, for figures and move ordering; exactly
        the table a network projected from a square table came from."""
        out = np.zeros((self.n_phases, 64))
        zero = np.uint64(0)
        for p in range(self.n_phases):
            row = np.ascontiguousarray(self.weights[p])
            for sq in range(64):
                bit = np.uint64(1) << np.uint64(sq)
                own = nt.evaluate_bits(bit, zero, self.tables, row)
                opp = nt.evaluate_bits(zero, bit, self.tables, row)
                out[p, sq] = (own - opp) / 2
        return out
