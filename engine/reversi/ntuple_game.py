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
from engine.kernels.ntuple_layout import Layout
from engine.reversi.ntuple_genome import NetworkGenome, is_layout_file, network_layout
from engine.reversi.ntuple_weights import NtupleWeights, projected_network


def layout_of(genome: Mapping) -> tuple[Layout, str | None, str | None]:
    """The layout of validated settings, and the (family spec, symmetry) it was built from
    (``None, None`` for a file's or data's own layout)."""
    layout, symmetry = genome["layout"], genome["symmetry"]
    family = layout if isinstance(layout, str) and not is_layout_file(layout) else None
    return network_layout(layout, symmetry), family, symmetry if family else None


def genome_map(genome: Mapping, phase_bounds) -> NetworkGenome:
    return NetworkGenome(layout_of(genome)[0], len(phase_bounds) + 1, genome["features"])


def network_weights(genome: Mapping, phase_bounds, values, name: str = "",
                    metadata: Mapping | None = None) -> NtupleWeights:
    """The ``NtupleWeights`` of a flat genome under these settings."""
    layout, family, symmetry = layout_of(genome)
    return NtupleWeights.from_genome(np.asarray(values, dtype=np.float64), layout, phase_bounds,
                                     genome["features"], name, dict(metadata or {}), family,
                                     symmetry)


def reference_network(genome: Mapping, reference: str, phase_bounds) -> np.ndarray:
    """A reference weight set (``course``, ``wpc``, ...) as a genome of this network: its
    square tables spread over the tuples (``projected_network``)."""
    from engine.reversi.weights_io import reference_weights

    layout, family, symmetry = layout_of(genome)
    return projected_network(reference_weights(reference), layout, phase_bounds,
                             genome["features"], family, symmetry).to_genome()


def file_settings(w) -> dict:
    """The ``game.genome`` settings of weights read from a file (either kind)."""
    common = {"phases": w.n_phases, "phase_bounds": list(w.phase_bounds),
              "features": list(w.feature_groups)}
    if not isinstance(w, NtupleWeights):
        return {"genome": {"phases": w.n_phases, "phase_bounds": list(w.phase_bounds),
                           "symmetric": w.symmetric, "features": list(w.feature_groups)}}
    layout = w.spec if w.spec is not None else nt.layout_to_json(w.layout)
    return {"genome": {"kind": "ntuple", "layout": layout, "symmetry": w.symmetry, **common}}
