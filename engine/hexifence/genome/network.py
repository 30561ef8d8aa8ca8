"""The ``ntuple`` genome of Hexifence: a pattern (n-tuple) network over strings and coins.

The network (``engine.kernels.ntuple`` on cell-state vectors) reads **nodes**, not raw edges:
every inner edge (between two cells: state 0 undrawn, 1 drawn) and, for every rim cell, one
*ground node*: how many of its boundary edges are drawn (0..k, k its boundary edges: 2 or 3,
6 at N=1). Which boundary edge of a cell is drawn does not matter (strings and coins: each is a
string from the coin to the ground), and the search relies on it: it hashes such positions
alike and searches one boundary edge per cell. A network over raw boundary edges would value
those positions differently and make the table's answers depend on the search order; over nodes
it cannot. Its tables are shared by the 12 hexagon symmetries for the same reason (the table
folds positions by them), on any board size N.

Patterns (``game.genome.layout``, joined by ``+``):

- ``cell``: a cell's nodes, its inner edges in ``board.OFFSETS`` order then its ground node
  (64 entries for an inner cell, 48 or 32 for rim cells);
- ``pair``: two neighbouring cells: the first's nodes then the second's other nodes;
- ``triangle``: the three cells around a vertex.

The value of a position for the side to move is its cell margin plus the network's sum for
its phase (a cell count: the network estimates the cells still to come), or, with
``features``, the network plus the weighted features of ``engine.hexifence.genome.evaluation``
(whose ``margin`` weight then carries the margin). A genome is ``phases`` rows, each the network's
entries then, with ``features``, the 11 feature weights. Gene ``p0.t2.0101`` is phase 0, LUT 2,
the entry whose nodes (in the tuple's order) hold 0, 1, 0, 1; crossover blocks are one per LUT
per phase (``p0.t2``) and ``p0.features``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from engine.core import GameSettingsError
from engine.hexifence.genome import weights as W
from engine.hexifence.genome.evaluation import FEATURES, N_FEATURES
from engine.hexifence.rules.board import board, cell_symmetries
from engine.kernels import ntuple as nt
from engine.kernels.ntuple.genome import (  # noqa: F401  (the search's evaluation modes)
    FEATURES_ONLY,
    NETWORK_AND_FEATURES,
    NETWORK_ONLY,
    NetworkGenome,
)
from engine.kernels.ntuple.settings import validated_kinds

PATTERNS = ("cell", "pair", "triangle")
DEFAULT_LAYOUT = "cell+pair"
NTUPLE_DEFAULTS = {"kind": "ntuple", "phases": 3, "layout": DEFAULT_LAYOUT, "features": False}
GENE_BOUND = 1.0  # genes start and are clipped in [-1, 1] (cells), as the feature weights


@dataclass(frozen=True, eq=False)
class Nodes:
    """The nodes of a board of size N and how edges and symmetries act on them."""

    size: int
    node_of_edge: np.ndarray  # int64 [E]: an inner edge's node, a boundary edge's ground node
    states: tuple[int, ...]  # states of each node (2 for inner edges, k + 1 for ground nodes)
    of_cell: tuple[tuple[int, ...], ...]  # each cell's nodes: inner edges, then its ground node
    symmetries: np.ndarray  # int64 [12, nodes]: node -> image

    @property
    def count(self) -> int:
        return len(self.states)


@cache
def nodes(size: int) -> Nodes:
    b = board(size)
    inner = [e for e in range(b.n_edges) if b.edge_cells[e, 1] >= 0]
    rim = [c for c in range(b.n_cells) if any(b.edge_cells[e, 1] < 0 for e in b.cell_edges[c])]
    node_of_edge = np.full(b.n_edges, -1, dtype=np.int64)
    node_of_edge[inner] = np.arange(len(inner))
    ground = {c: len(inner) + k for k, c in enumerate(rim)}
    states = [2] * len(inner)
    for c in rim:
        boundary = [e for e in b.cell_edges[c] if b.edge_cells[e, 1] < 0]
        node_of_edge[boundary] = ground[c]
        states.append(len(boundary) + 1)
    of_cell = tuple(tuple(int(node_of_edge[e]) for e in b.cell_edges[c] if b.edge_cells[e, 1] >= 0)
                    + ((ground[c],) if c in ground else ()) for c in range(b.n_cells))
    sym_cell = cell_symmetries(b)
    symmetries = np.empty((len(b.symmetries), len(states)), dtype=np.int64)
    for s, edge_image in enumerate(b.symmetries):
        symmetries[s, :len(inner)] = node_of_edge[edge_image[inner]]
        symmetries[s, [ground[c] for c in rim]] = [ground[int(sym_cell[s, c])] for c in rim]
    distinct = sorted(np.unique(symmetries, axis=0, return_index=True)[1])  # N=1: one node
    return Nodes(size, node_of_edge, tuple(states), of_cell, symmetries[distinct])


def pattern_tuples(size: int, pattern: str) -> list[tuple[int, ...]]:
    """Every placement of ``pattern`` on the board of ``size``, as node tuples."""
    b, of_cell = board(size), nodes(size).of_cell
    if pattern == "cell":
        return [of_cell[c] for c in range(b.n_cells)]
    neighbours = _neighbours(size)
    if pattern == "pair":
        groups = [(c, d) for c in range(b.n_cells) for d in neighbours[c] if c < d]
    elif pattern == "triangle":
        groups = [(c, d, e) for c in range(b.n_cells) for d in neighbours[c] for e in neighbours[d]
                  if c < d < e and e in neighbours[c]]
    else:
        raise nt.LayoutError(f"unknown pattern {pattern!r} (allowed, joined by '+': "
                             f"{', '.join(PATTERNS)})")
    out = []
    for group in groups:
        cells = [n for c in group for n in of_cell[c]]
        out.append(tuple(dict.fromkeys(cells)))  # a shared edge once, first occurrence kept
    return out


def _neighbours(size: int) -> list[set[int]]:
    b = board(size)
    out = [set() for _ in range(b.n_cells)]
    for c, d in b.edge_cells:
        if d >= 0:
            out[c].add(int(d))
            out[d].add(int(c))
    return out


@cache
def build_layout(size: int, spec: str) -> nt.Layout:
    """The layout ``spec`` (patterns joined by ``+``) names on the board of ``size``."""
    if not isinstance(spec, str) or not spec.strip():
        raise GameSettingsError(f"game.genome.layout={spec!r} must name patterns joined by '+' "
                                f"(from {', '.join(PATTERNS)})")
    spec = spec.replace(" ", "")
    node_set = nodes(size)
    try:
        tuples = [t for part in spec.split("+") for t in pattern_tuples(size, part)]
        if not tuples:
            raise nt.LayoutError(f"no placement fits the N={size} board")
        return nt.layout_from_tuples(node_set.count, list(node_set.states), tuples,
                                     node_set.symmetries, name=spec)
    except nt.LayoutError as exc:
        raise GameSettingsError(f"game.genome.layout={spec}: {exc}") from None


def network_of(size: int, genome: dict) -> NetworkGenome:
    """The genome of validated ``ntuple`` settings on the board of ``size``: its LUTs, then with
    ``features`` the 11 feature weights of ``engine.hexifence.genome.evaluation`` per phase."""
    return _cached_network(size, genome["layout"], genome["phases"], genome["features"])


@cache
def _cached_network(size: int, layout: str, phases: int, features: bool) -> NetworkGenome:
    """One genome per configuration and process (tables and gene names built once)."""
    return NetworkGenome(build_layout(size, layout), phases, FEATURES if features else (),
                         feature_inputs=N_FEATURES, bound=GENE_BOUND)


def reference_genome(network: NetworkGenome, name: str) -> np.ndarray:
    """The seed's weights: with ``features`` they are the feature weights and the network
    starts at zero; without, the network starts at zero (the value is then the margin: the
    seed's other weights are on chains and parities, which no local pattern holds)."""
    row = W.reference_genome(name, 1)
    net = np.zeros((network.phases, network.layout.n_weights))
    return network.join(net, np.tile(row, (network.phases, 1)))


def validated_genome(genome: dict, size: int) -> dict:
    """The genome settings with their defaults (one-line ``GameSettingsError`` naming the key)."""
    g = validated_kinds(genome, "features", {"phases": 3}, NTUPLE_DEFAULTS, board(size).n_edges)
    if g.get("kind") != "ntuple":
        return g
    if not isinstance(g["layout"], str):
        raise GameSettingsError(f"game.genome.layout={g['layout']!r} must name patterns "
                                f"joined by '+' (from {', '.join(PATTERNS)})")
    g["layout"] = g["layout"].replace(" ", "")
    return g
