"""An n-tuple network as evaluation weights: ``NtupleWeights``, the counterpart of ``Weights``
for ``game.genome.kind: ntuple``.

Per phase (disc-count ranges, as in ``Weights``): one flat row of LUT weights over the
layout (``engine.kernels.ntuple``) and the weights of the feature groups. The value of a
position for the side to move is

    sum over instances i of weights[phase, lut_offsets[lut_i] + index_i(P, O)]
    + features[phase] . (the feature counts, as in ``engine.reversi.evaluation``)

where ``index_i`` reads the instance's cells as base-3 digits, the first cell the most
significant (0 empty, 1 side to move, 2 opponent). Finished games are scored exactly, and the
heuristic must stay below ``WIN_SCORE`` (``check_network_magnitude``), as for ``Weights``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from engine.kernels import ntuple as nt
from engine.kernels.ntuple_genome import NetworkGenome
from engine.kernels.ntuple_layout import Layout
from engine.reversi.evaluation import N_ALL_FEATURES, WIN_SCORE
from engine.reversi.layout import (
    CATALOGUE_INDEX,
    MAX_DISCS,
    MAX_FEATURE_COUNT,
    MIN_DISCS,
    canonical_groups,
    group_feature_names,
    phase_of_discs_table,
)
from engine.reversi.ntuple_genome import network_genome, network_of_square_table

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
class NtupleWeights:
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
    def n_phases(self) -> int:
        return len(self.phase_bounds) + 1

    @property
    def feature_names(self) -> tuple[str, ...]:
        return group_feature_names(self.feature_groups)

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
        search and self-play take."""
        return (phase_of_discs_table(self.phase_bounds), self.tables,
                np.ascontiguousarray(self.weights), self.catalogue_features())

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


def projected_network(reference, layout: Layout, phase_bounds, groups, spec=None,
                      symmetry=None) -> NtupleWeights:
    """A positional ``Weights`` (a reference) re-expressed as a network of ``layout``: each
    of our phases takes the reference phase covering its middle disc count, its square table
    spread over the tuples (``network_of_square_table``); features as in the reference (0
    for the groups it lacks)."""
    starts, ends = (MIN_DISCS, *phase_bounds), (*phase_bounds, MAX_DISCS + 1)
    ref_phase_of = phase_of_discs_table(reference.phase_bounds)
    rows = [int(ref_phase_of[min(64, (s + e) // 2)]) for s, e in zip(starts, ends, strict=True)]
    names = group_feature_names(groups)
    features = np.zeros((len(rows), len(names)))
    for k, feature in enumerate(names):
        if feature in reference.feature_names:
            features[:, k] = reference.features[rows, reference.feature_names.index(feature)]
    weights = np.array([network_of_square_table(layout, reference.positional[r]) for r in rows])
    return NtupleWeights(layout, tuple(phase_bounds), weights, features, tuple(groups),
                         name=reference.name, spec=spec, symmetry=symmetry)
