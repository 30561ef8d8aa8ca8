"""The ``ntuple`` genome of Pentago Twist: a pattern (n-tuple) network over the 36 cells.

The network is ``engine.kernels.ntuple`` on the ``(P, O)`` bitboards (cell ``6x + y`` = bit, as
in ``engine.pentago.rules.bitboard``; states 0 empty, 1 side to move, 2 opponent), with its lookup
tables shared by the board symmetries that keep Pentago Twist's move set: the identity and the
half turn (``rot180``; a mirror or a quarter turn would turn the clockwise twist or the column
flip into a move the game does not have). A position's value for the side to move is the sum
of its phase's table entries, plus the weighted features of ``engine.pentago.genome.evaluation``
when ``features`` is on.

A genome is ``phases`` rows, each the network's ``layout.n_weights`` entries (LUT after LUT, as
the layout orders them) followed, with ``features``, by the 18 feature weights of that phase.
Gene ``p1.t3.01202`` is phase 1, LUT 3, the entry whose cells (in the tuple's order) hold
0, 1, 2, 0, 2; crossover blocks are one per LUT per phase (``p1.t3``) and ``p1.features``.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from engine.core import GameSettingsError
from engine.core.settings import one_of
from engine.kernels import ntuple as nt
from engine.kernels.ntuple.genome import (  # noqa: F401  (the search's evaluation modes)
    FEATURES_ONLY,
    NETWORK_AND_FEATURES,
    NETWORK_ONLY,
    NetworkGenome,
    lut_states,
)
from engine.kernels.ntuple.settings import is_layout_file, layout_from_setting, validated_kinds
from engine.pentago.genome import weights as genes
from engine.pentago.genome.evaluation import CENTRES, CORNERS, EDGES, N_FEATURES, QUADRANT_LINES
from engine.pentago.rules import bitboard as bb

SIZE = 6
SYMMETRIES = ("rot180", "identity")  # the board symmetries that keep the move set
DEFAULT_LAYOUT = "straight5+corner3"  # every five-window and every quadrant
FEATURES_DEFAULTS = {"phases": 3}
NTUPLE_DEFAULTS = {"kind": "ntuple", "phases": 3, "layout": DEFAULT_LAYOUT,
                   "symmetry": "rot180", "features": False}
GENE_BOUND = 1.0  # network entries start and are clipped in [-1, 1], as the feature weights
FEATURE_GENES = 2 * N_FEATURES
FEATURE_NAMES = tuple(name.split(".", 1)[1] for name in genes.gene_names(1))  # own.win1 ...
HALF_TURN = tuple(35 - c for c in range(36))
CELL_CLASSES = ((4, CENTRES), (5, CORNERS), (6, EDGES))  # feature index, cells of the class


def validated_genome(genome: dict) -> tuple[dict, NetworkGenome | None]:
    """The genome settings with their defaults, and the network of an ``ntuple`` genome."""
    g = validated_kinds(genome, "features", FEATURES_DEFAULTS, NTUPLE_DEFAULTS, 36)
    if g.get("kind") != "ntuple":
        return g, None
    one_of("game.genome.symmetry", g["symmetry"], SYMMETRIES)
    if not is_layout_file(g["layout"]) and isinstance(g["layout"], str):
        return g, _family_network(g["layout"], g["symmetry"], g["phases"], g["features"])
    network = network_of(build_layout(g["layout"], g["symmetry"]), g["phases"], g["features"])
    own = symmetry_of(network.layout)
    if own != g["symmetry"]:
        if "symmetry" in genome:
            raise GameSettingsError(f"game.genome.symmetry={g['symmetry']} contradicts the "
                                    f"layout's own symmetries ({own})")
        g["symmetry"] = own
    return g, network


def network_of(layout: nt.Layout, phases: int, features: bool) -> NetworkGenome:
    """The genome of a network: its LUTs, then with ``features`` the 18 feature weights of
    ``engine.pentago.genome.evaluation`` (own then opp) per phase."""
    return NetworkGenome(layout, phases, FEATURE_NAMES if features else (),
                         feature_inputs=FEATURE_GENES, bound=GENE_BOUND)


@cache
def _family_network(spec: str, symmetry: str, phases: int, features: bool) -> NetworkGenome:
    """Networks of family specs are built once per process (tables, gene names); layout files
    are read every time."""
    return network_of(build_layout(spec, symmetry), phases, features)


def build_layout(spec, symmetry: str) -> nt.Layout:
    """The layout a ``game.genome.layout`` setting names: families of
    ``engine.kernels.ntuple`` joined by ``+`` (``straight5+corner3``), a layout JSON file, or
    the layout JSON itself (what a champion file holds); ``GameSettingsError`` otherwise."""
    def family(name: str) -> nt.Layout:
        name = name.replace(" ", "")
        return nt.board_layout(SIZE, SIZE, nt.family_tuples(SIZE, SIZE, name), symmetry,
                               name=name)

    try:
        layout = layout_from_setting(spec, family, DEFAULT_LAYOUT)
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


def reference_genome(network: NetworkGenome, name: str) -> np.ndarray:
    """The seed's reference weights: kept as feature weights when the genome has them (the
    network starts at zero), else projected onto the network (``projected``)."""
    row = genes.reference_genome(name, 1)
    if network.features:
        net = np.zeros((network.phases, network.layout.n_weights))
        return network.join(net, np.tile(row, (network.phases, 1)))
    return network.join(np.tile(projected(network.layout, row), (network.phases, 1)))


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
        states = lut_states(layout, lut)
        own, opp = (states == 1), (states == 2)
        if mask in windows:
            values = _window_values(own.sum(1), opp.sum(1), row)
        elif mask in quadrants:
            values = _quadrant_values(cells, own, opp, row)
        else:
            continue
        out[layout.lut_offsets[lut]:layout.lut_offsets[lut + 1]] = values
    return out


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
