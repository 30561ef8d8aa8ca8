"""Another evaluation re-expressed as a network of a given layout, phases and features, with
the values it had: a square table spread over the tuples (``projected_network``: seed
references, fixed TD opponents), or a network whose tuples the layout holds
(``embedded_network``: a 2x2-square network as the start of a 4+2x2 one in four phases, or
networks of other layouts averaged into one, ``python -m evolve.blend``).

Phases: each new phase takes the source's phase that covers its middle disc count; features by
name (0 for the groups the source lacks)."""

from __future__ import annotations

import numpy as np

from engine.kernels.ntuple_layout import Layout
from engine.reversi.layout import MAX_DISCS, MIN_DISCS, group_feature_names, phase_of_discs_table
from engine.reversi.network import NtupleWeights, network_of_square_table


def source_phases(source_bounds, phase_bounds) -> list[int]:
    """For each phase of ``phase_bounds``, the phase of ``source_bounds`` that covers its
    middle disc count."""
    starts, ends = (MIN_DISCS, *phase_bounds), (*phase_bounds, MAX_DISCS + 1)
    source_phase_of = phase_of_discs_table(tuple(source_bounds))
    return [int(source_phase_of[min(MAX_DISCS, (s + e) // 2)])
            for s, e in zip(starts, ends, strict=True)]


def _features(source, rows: list[int], groups) -> np.ndarray:
    names = group_feature_names(groups)
    features = np.zeros((len(rows), len(names)))
    for k, feature in enumerate(names):
        if feature in source.feature_names:
            features[:, k] = source.features[rows, source.feature_names.index(feature)]
    return features


def projected_network(reference, layout: Layout, phase_bounds, groups, spec=None,
                      symmetry=None) -> NtupleWeights:
    """A positional ``Weights`` (a reference) re-expressed as a network of ``layout``: each
    phase's square table spread over the tuples (``network_of_square_table``)."""
    rows = source_phases(reference.phase_bounds, phase_bounds)
    weights = np.array([network_of_square_table(layout, reference.positional[r]) for r in rows])
    return NtupleWeights(layout, tuple(phase_bounds), weights, _features(reference, rows, groups),
                         tuple(groups), name=reference.name, spec=spec, symmetry=symmetry)


def embedded_network(source: NtupleWeights, layout: Layout, phase_bounds, groups, spec=None,
                     symmetry=None) -> NtupleWeights:
    """``source`` as a network of ``layout``, which must hold every tuple of the source's layout
    (the same cells in the same order) under the same symmetries: the source's tables are
    copied, the layout's other tables are 0, so every position keeps its value (up to the
    order of the sums). ``ValueError`` naming what does not fit."""
    if source.layout.n_cells != layout.n_cells or not np.array_equal(
            source.layout.symmetries, layout.symmetries):
        raise ValueError(f"the network's layout ({source.layout.name or 'its own'}) uses other "
                         f"cells or symmetries than {layout.name or 'this layout'}")
    where = {t: k for k, t in enumerate(layout.tuples)}
    missing = [t for t in source.layout.tuples if t not in where]
    if missing:
        raise ValueError(f"{layout.name or 'this layout'} has no tuple {list(missing[0])} of the "
                         f"network's layout ({len(missing)} of its {len(source.layout.tuples)} "
                         "tuples missing): choose a layout that holds them")
    rows = source_phases(source.phase_bounds, phase_bounds)
    weights = np.zeros((len(rows), layout.n_weights))
    old, new = source.layout.lut_offsets, layout.lut_offsets
    for k, t in enumerate(source.layout.tuples):
        j = where[t]
        weights[:, new[j]:new[j + 1]] = source.weights[rows, old[k]:old[k + 1]]
    return NtupleWeights(layout, tuple(phase_bounds), weights, _features(source, rows, groups),
                         tuple(groups), name=source.name, spec=spec, symmetry=symmetry)
