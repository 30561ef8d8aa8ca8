"""The ``ntuple`` genome of Pentago Twist: a pattern (n-tuple) network over the 36 cells.

The network is ``engine.kernels.ntuple`` on the ``(P, O)`` bitboards (cell ``6x + y`` = bit, as
in ``engine.pentago.bitboard``; states 0 empty, 1 side to move, 2 opponent), with its lookup
tables shared by the board symmetries that keep Pentago Twist's move set: the identity and the
half turn (``rot180``; a mirror or a quarter turn would turn the clockwise twist or the column
flip into a move the game does not have). A position's value for the side to move is the sum
of its phase's table entries, plus the weighted features of ``engine.pentago.evaluation`` when
``features`` is on.

A genome is ``phases`` rows, each the network's ``layout.n_weights`` entries (LUT after LUT, as
the layout orders them) followed, with ``features``, by the 18 feature weights of that phase.
Gene ``p1.t3.01202`` is phase 1, LUT 3, the entry whose cells (in the tuple's order) hold
0, 1, 2, 0, 2; crossover blocks are one per LUT per phase (``p1.t3``) and ``p1.features``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from engine.core import GameSettingsError, GenomeSpec
from engine.kernels import ntuple as nt
from engine.pentago import bitboard as bb
from engine.pentago import genome as genes
from engine.pentago.evaluation import CENTRES, CORNERS, EDGES, N_FEATURES, QUADRANT_LINES

SIZE = 6
SYMMETRIES = ("rot180", "identity")  # the board symmetries that keep the move set
DEFAULT_LAYOUT = "straight5+corner3"  # every five-window and every quadrant
NTUPLE_DEFAULTS = {"kind": "ntuple", "phases": 3, "layout": DEFAULT_LAYOUT,
                   "symmetry": "rot180", "features": False}
GENE_BOUND = 1.0  # network entries start and are clipped in [-1, 1], as the feature weights
FEATURE_GENES = 2 * N_FEATURES
HALF_TURN = tuple(35 - c for c in range(36))
CELL_CLASSES = ((4, CENTRES), (5, CORNERS), (6, EDGES))  # feature index, cells of the class
FEATURES_ONLY, NETWORK_ONLY, NETWORK_AND_FEATURES = 0, 1, 2  # evaluation modes of the search


def build_layout(spec, symmetry: str) -> nt.Layout:
    """The layout a ``game.genome.layout`` setting names: families of
    ``engine.kernels.ntuple`` joined by ``+`` (``straight5+corner3``), a layout JSON file, or
    the layout JSON itself (what a champion file holds); ``GameSettingsError`` otherwise."""
    try:
        if isinstance(spec, Mapping):
            layout = nt.layout_from_json(dict(spec))
        elif not isinstance(spec, str) or not spec.strip():
            raise nt.LayoutError(f"expected a family spec such as {DEFAULT_LAYOUT!r} or a "
                                 f"layout .json file, got {spec!r}")
        elif spec.strip().endswith(".json"):
            layout = nt.load_layout(Path(spec.strip()))
        else:
            spec = spec.replace(" ", "")
            layout = nt.board_layout(SIZE, SIZE, nt.family_tuples(SIZE, SIZE, spec), symmetry,
                                     name=spec)
    except nt.LayoutError as exc:
        raise GameSettingsError(f"game.genome.layout: {exc}") from None
    check_layout(layout)
    return layout


def check_layout(layout: nt.Layout) -> None:
    """A layout of the 36 cells with 3 states, shared only by the identity and the half turn."""
    if layout.n_cells != 36 or layout.uniform_states != 3:
        raise GameSettingsError(f"game.genome.layout: Pentago Twist needs 36 cells with 3 states "
                                f"each, got {layout.describe()}")
    allowed = {tuple(range(36)), HALF_TURN}
    if any(tuple(row) not in allowed for row in layout.symmetries.tolist()):
        raise GameSettingsError("game.genome.layout: its symmetries must be the identity and the "
                                "half turn only (no other board symmetry keeps the move set)")


def symmetry_of(layout: nt.Layout) -> str:
    return "rot180" if len(layout.symmetries) == 2 else "identity"


@dataclass(frozen=True, eq=False)
class Network:
    """The network genome of one configuration: layout, phases, and the optional features."""

    layout: nt.Layout
    phases: int
    features: bool

    @cached_property
    def tables(self) -> nt.IndexTables:
        return nt.index_tables(self.layout)

    @property
    def width(self) -> int:
        """Genes per phase."""
        return self.layout.n_weights + (FEATURE_GENES if self.features else 0)

    @cached_property
    def spec(self) -> GenomeSpec:
        names = tuple(name for p in range(self.phases) for name in self._phase_names(p))
        blocks = {}
        for p in range(self.phases):
            start = p * self.width
            offsets = self.layout.lut_offsets
            for lut in range(len(self.layout.tuples)):
                blocks[f"p{p}.t{lut}"] = slice(start + offsets[lut], start + offsets[lut + 1])
            if self.features:
                blocks[f"p{p}.features"] = slice(start + offsets[-1], start + self.width)
        size = len(names)
        return GenomeSpec(names, blocks, np.full(size, -GENE_BOUND), np.full(size, GENE_BOUND))

    def _phase_names(self, phase: int) -> list[str]:
        out = [f"p{phase}.t{lut}.{digits}" for lut, entries in enumerate(self._entry_digits)
               for digits in entries]
        if self.features:
            out += [name.replace("p0.", f"p{phase}.", 1) for name in genes.gene_names(1)]
        return out

    @cached_property
    def _entry_digits(self) -> list[list[str]]:
        """Each LUT's entries as the states of its cells, first cell first."""
        return [[np.base_repr(i, 3).zfill(len(cells)) for i in range(3 ** len(cells))]
                for cells in self.layout.tuples]

    def split(self, genome) -> tuple[np.ndarray, np.ndarray]:
        """(network ``[phases, n_weights]``, feature weights ``[phases, 18]``: zeros without
        features), fresh contiguous float64 arrays; ``ValueError`` on a wrong length."""
        genome = np.asarray(genome, dtype=np.float64)
        if genome.shape != (self.phases * self.width,):
            raise ValueError(f"genome has {genome.size} genes, this n-tuple genome needs "
                             f"{self.phases} x {self.width} = {self.phases * self.width}")
        if not np.all(np.isfinite(genome)):
            raise ValueError("genome holds a non-finite weight")
        rows = genome.reshape(self.phases, self.width)
        net = rows[:, :self.layout.n_weights].copy()
        feat = rows[:, self.layout.n_weights:].copy() if self.features else \
            np.zeros((self.phases, FEATURE_GENES))
        return net, feat

    def join(self, net: np.ndarray, feat: np.ndarray) -> np.ndarray:
        rows = [net] + ([feat] if self.features else [])
        return np.concatenate(rows, axis=1).ravel().astype(np.float64)

    def mode(self) -> int:
        return NETWORK_AND_FEATURES if self.features else NETWORK_ONLY

    def reference_genome(self, name: str) -> np.ndarray:
        """The seed's reference weights: kept as feature weights when ``features`` is on (the
        network starts at zero), else projected onto the network (``projected``)."""
        row = genes.reference_genome(name, 1)
        if self.features:
            net = np.zeros((self.phases, self.layout.n_weights))
            return self.join(net, np.tile(row, (self.phases, 1)))
        return self.join(np.tile(projected(self.layout, row), (self.phases, 1)), None)


def projected(layout: nt.Layout, row: np.ndarray) -> np.ndarray:
    """The feature weights ``row`` (own then opp) as network entries: a LUT reading a
    five-window gets that window's ``win1..win4`` values, a LUT reading a quadrant that
    quadrant's centre, corner, edge and line values; other LUTs stay zero. With every window and
    every quadrant in the layout (``straight5+corner3``) the network equals the features'
    evaluation exactly (each window and quadrant is read by exactly one instance: the half turn
    maps none of them onto itself)."""
    out = np.zeros(layout.n_weights)
    windows = {int(w) for w in bb.WINDOWS}
    quadrants = {int(q) for q in bb.QUADRANT_MASKS}
    for lut, cells in enumerate(layout.tuples):
        mask = sum(1 << c for c in cells)
        states = _entry_states(len(cells))
        own, opp = (states == 1), (states == 2)
        if mask in windows:
            values = _window_values(own.sum(1), opp.sum(1), row)
        elif mask in quadrants:
            values = _quadrant_values(cells, own, opp, row)
        else:
            continue
        out[layout.lut_offsets[lut]:layout.lut_offsets[lut + 1]] = values
    return out


def _entry_states(n: int) -> np.ndarray:
    """``[3**n, n]``: the state of each cell in each entry, first cell most significant."""
    index = np.arange(3 ** n)
    return np.stack([(index // 3 ** (n - 1 - j)) % 3 for j in range(n)], axis=1)


def _window_values(p: np.ndarray, o: np.ndarray, row: np.ndarray) -> np.ndarray:
    own = np.where((o == 0) & (p > 0), row[np.clip(p, 1, 4) - 1], 0.0)
    opp = np.where((p == 0) & (o > 0), row[N_FEATURES + np.clip(o, 1, 4) - 1], 0.0)
    return own + opp


def _quadrant_values(cells, own: np.ndarray, opp: np.ndarray, row: np.ndarray) -> np.ndarray:
    values = np.zeros(len(own))
    for column, cell in enumerate(cells):
        k = next(k for k, mask in CELL_CLASSES if int(mask) >> cell & 1)
        values += own[:, column] * row[k] + opp[:, column] * row[N_FEATURES + k]
    mask = sum(1 << c for c in cells)
    for line in (int(x) for x in QUADRANT_LINES if int(x) & mask == int(x)):
        columns = [j for j, c in enumerate(cells) if line >> c & 1]
        p, o = own[:, columns].sum(1), opp[:, columns].sum(1)
        values += np.where(p == 3, row[7], 0.0) + np.where(o == 3, row[N_FEATURES + 7], 0.0)
        values += np.where((p == 2) & (o == 0), row[8], 0.0)
        values += np.where((o == 2) & (p == 0), row[N_FEATURES + 8], 0.0)
    return values


@cache
def no_network() -> tuple:
    """(tables, weights) of a one-cell network that the features-only search never reads: the
    kernels take the same argument types whatever the genome."""
    layout = nt.layout_from_tuples(36, 3, [(0,)])
    return nt.index_tables(layout), np.zeros((1, layout.n_weights))
