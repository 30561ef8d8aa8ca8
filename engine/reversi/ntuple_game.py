"""The ``ntuple`` genome kind as the game sees it: from ``game.genome`` settings to the layout,
the genome map, reference genomes and weights, and back from a network file to settings.

``game.genome`` of this kind (validated by ``engine.reversi.genome``): ``kind: ntuple``,
``layout`` (a family spec, a layout JSON file or its data), ``symmetry`` (family specs only),
``phases``, ``phase_bounds``, ``features``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from engine.kernels import ntuple as nt
from engine.kernels.ntuple_genome import NetworkGenome
from engine.kernels.ntuple_layout import Layout
from engine.kernels.ntuple_settings import is_layout_file
from engine.reversi.ntuple_genome import network_genome, network_layout
from engine.reversi.ntuple_weights import NtupleWeights, projected_network


class NetworkKind:
    """The ``ntuple`` kind as the game uses it (``engine.reversi.genome.SquareTableKind`` is
    the other kind's, with the same methods)."""

    def __init__(self, genome: Mapping, phase_bounds):
        self.genome, self.phase_bounds = genome, tuple(phase_bounds)
        self.network, self.family, self.symmetry = layout_of(genome)

    def layout(self) -> NetworkGenome:
        return network_genome(self.network, len(self.phase_bounds) + 1, self.genome["features"])

    def reference(self, name: str) -> np.ndarray:
        """A reference weight set (``course``, ``wpc``, ...) as a genome of this network: its
        square tables spread over the tuples (``projected_network``)."""
        from engine.reversi.weights_io import reference_weights

        return projected_network(reference_weights(name), self.network, self.phase_bounds,
                                 self.genome["features"], self.family,
                                 self.symmetry).to_genome()

    def weights(self, genome, name: str = "", metadata: Mapping | None = None) -> NtupleWeights:
        return NtupleWeights.from_genome(np.asarray(genome, dtype=np.float64), self.network,
                                         self.phase_bounds, self.genome["features"], name,
                                         dict(metadata or {}), self.family, self.symmetry)

    def figures(self, weights, past) -> dict:
        from engine.reversi.ntuple_figures import network_figures

        return network_figures(weights, past)

    def markdown(self, weights) -> str:
        from engine.reversi.ntuple_figures import network_markdown

        return network_markdown(weights)

    def figure(self, weights):
        from engine.reversi.ntuple_figures import plot_strongest_patterns

        return plot_strongest_patterns(weights)


def layout_of(genome: Mapping) -> tuple[Layout, str | None, str | None]:
    """The layout of validated settings, and the (family spec, symmetry) it was built from
    (``None, None`` for a file's or data's own layout)."""
    layout, symmetry = genome["layout"], genome["symmetry"]
    family = layout if isinstance(layout, str) and not is_layout_file(layout) else None
    return network_layout(layout, symmetry), family, symmetry if family else None


def file_settings(w) -> dict:
    """The ``game.genome`` settings of weights read from a file (either kind)."""
    bounds, groups = list(w.phase_bounds), list(w.feature_groups)
    if isinstance(w, NtupleWeights):
        layout = w.spec if w.spec is not None else nt.layout_to_json(w.layout)
        return {"genome": {"kind": "ntuple", "layout": layout, "symmetry": w.symmetry,
                           "phases": w.n_phases, "phase_bounds": bounds, "features": groups}}
    return {"genome": {"phases": w.n_phases, "phase_bounds": bounds, "symmetric": w.symmetric,
                       "features": groups}}
