"""The genome of an n-tuple network, written once for every game: where each weight lives in a
flat genome, its gene names, crossover blocks and bounds, and the split into the arrays the
kernels take (and back).

Per phase, every LUT's entries one after another (``layout.lut_offsets``), then the game's
feature weights (none, or a row of named weights its own evaluation adds to the network's)::

    p0.t0.00 p0.t0.01 ... p0.t31.22  p0.<feature> ... | p1.t0.00 ...

Gene ``p{phase}.t{lut}.{digits}``: LUT ``lut`` of that phase, the entry whose cells (in the
tuple's order) hold ``digits``, one digit per cell, its state (``p0.t0.12``: the first cell in
state 1, the second in state 2). Crossover blocks: one per LUT per phase (``p0.t3``: block
crossover exchanges whole tables), and a phase's feature genes as one block ``p0.features`` or
as the game's named groups (``p0.mobility``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from engine.core.records import GenomeSpec
from engine.kernels.ntuple.evaluation import IndexTables, index_tables
from engine.kernels.ntuple.layout import Layout

# how a game's search evaluates: its features alone (the other genome kind), the network, both
FEATURES_ONLY, NETWORK_ONLY, NETWORK_AND_FEATURES = 0, 1, 2


def lut_states(layout: Layout, lut: int) -> np.ndarray:
    """``int [entries, cells]``: the state of each cell of the tuple in each entry of LUT
    ``lut``, in index order (first cell the most significant digit, each in its cell's base)."""
    bases = [layout.cell_states[c] for c in layout.tuples[lut]]
    return np.indices(bases).reshape(len(bases), -1).T


def entry_digits(layout: Layout, lut: int) -> list[str]:
    """Each entry of LUT ``lut`` as its cells' states written one after another, first cell
    first; separated by ``_`` only when a cell has more than 10 states (a state would then take
    two characters)."""
    sep = "_" if max(layout.cell_states[c] for c in layout.tuples[lut]) > 10 else ""
    return [sep.join(str(d) for d in row) for row in lut_states(layout, lut).tolist()]


@dataclass(frozen=True, eq=False)
class NetworkGenome:
    """The genome of one configuration: ``layout``, ``phases``, and one phase's feature genes
    (``feature_names``, after the LUTs), grouped into crossover blocks by ``feature_blocks``
    (``(name, width)`` pairs; default one block ``features``). ``feature_inputs``: columns of
    the feature weights ``split`` hands an evaluation that always reads a row of them (zeros
    when the genome has no feature genes). Genes start and are clipped in ``[-bound, bound]``."""

    layout: Layout
    phases: int
    feature_names: tuple[str, ...] = ()
    feature_blocks: tuple[tuple[str, int], ...] = ()
    feature_inputs: int = 0
    bound: float = 1.0

    def __post_init__(self):
        if self.phases < 1:
            raise ValueError(f"phases must be >= 1, got {self.phases}")
        object.__setattr__(self, "feature_names", tuple(self.feature_names))
        blocks = tuple(self.feature_blocks) or ((("features", len(self.feature_names)),)
                                                if self.feature_names else ())
        if sum(width for _, width in blocks) != len(self.feature_names):
            raise ValueError(f"feature_blocks {blocks} do not cover the "
                             f"{len(self.feature_names)} feature genes")
        object.__setattr__(self, "feature_blocks", blocks)

    @property
    def features(self) -> bool:
        """Whether the genome holds feature weights."""
        return bool(self.feature_names)

    @property
    def mode(self) -> int:
        return NETWORK_AND_FEATURES if self.features else NETWORK_ONLY

    @property
    def width(self) -> int:
        """Genes per phase."""
        return self.layout.n_weights + len(self.feature_names)

    @property
    def size(self) -> int:
        return self.phases * self.width

    @cached_property
    def tables(self) -> IndexTables:
        return index_tables(self.layout)

    @cached_property
    def names(self) -> tuple[str, ...]:
        luts = [f"t{lut}.{digits}" for lut in range(len(self.layout.tuples))
                for digits in entry_digits(self.layout, lut)]
        return tuple(f"p{p}.{name}" for p in range(self.phases)
                     for name in (*luts, *self.feature_names))

    @cached_property
    def blocks(self) -> dict[str, slice]:
        offsets = self.layout.lut_offsets
        out = {}
        for p in range(self.phases):
            start = p * self.width
            for lut in range(len(self.layout.tuples)):
                out[f"p{p}.t{lut}"] = slice(start + int(offsets[lut]),
                                            start + int(offsets[lut + 1]))
            at = start + self.layout.n_weights
            for name, width in self.feature_blocks:
                out[f"p{p}.{name}"] = slice(at, at + width)
                at += width
        return out

    @cached_property
    def spec(self) -> GenomeSpec:
        return GenomeSpec(self.names, self.blocks, np.full(self.size, -self.bound),
                          np.full(self.size, self.bound))

    def default_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.spec.default_bounds()

    def split(self, genome) -> tuple[np.ndarray, np.ndarray]:
        """(network ``[phases, n_weights]``, feature weights ``[phases, F]``), fresh contiguous
        float64 arrays (``F``: the feature genes, or ``feature_inputs`` zeros without them);
        ``ValueError`` on a wrong length or a non-finite gene."""
        genome = np.asarray(genome, dtype=np.float64)
        if genome.shape != (self.size,):
            raise ValueError(f"genome has {genome.size} genes, this n-tuple genome needs "
                             f"{self.phases} x {self.width} = {self.size}")
        if not np.all(np.isfinite(genome)):
            raise ValueError("genome holds a non-finite weight")
        rows = genome.reshape(self.phases, self.width)
        net = rows[:, :self.layout.n_weights].copy()
        if self.features:
            return net, rows[:, self.layout.n_weights:].copy()
        return net, np.zeros((self.phases, self.feature_inputs))

    def join(self, net: np.ndarray, feat: np.ndarray | None = None) -> np.ndarray:
        """The flat genome of ``split``'s two arrays (``feat`` is ignored without features)."""
        net = np.asarray(net, dtype=np.float64).reshape(self.phases, self.layout.n_weights)
        if not self.features:
            return net.ravel().copy()
        feat = np.asarray(feat, dtype=np.float64).reshape(self.phases, len(self.feature_names))
        return np.concatenate([net, feat], axis=1).ravel()

    def __repr__(self) -> str:
        return (f"NetworkGenome({self.layout.name or 'layout'}, phases={self.phases}, "
                f"features={len(self.feature_names)}, size={self.size})")
