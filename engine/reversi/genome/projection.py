"""Another evaluation re-expressed as a network of a given layout, phases and features, with
the values it had: a square table spread over the tuples (``projected_network``: seed
references, fixed TD opponents), or a network whose tuples the layout holds
(``embedded_network``: a 2x2-square network as the start of a 4+2x2 one in four phases, or
networks of other layouts averaged into one, ``python -m evolve.blend``).

Phases: each new phase takes the source's phase that covers its middle disc count; features by
name (0 for the groups the source lacks). ``exact_network`` (what ``Game.projected_genome``
uses for files) refuses what would change a position's value: a source phase boundary the new
phases lack, a feature weight with no place, a square table the layout cannot hold (not
symmetric under its symmetries, or squares outside its tuples)."""

from __future__ import annotations

import numpy as np

from engine.kernels.ntuple.layout import Layout
from engine.reversi.genome.layout import (
    MAX_DISCS,
    MIN_DISCS,
    group_feature_names,
    phase_of_discs_table,
)
from engine.reversi.genome.network import NtupleWeights, network_of_square_table


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
                         f"network's layout (the same cells in the same order; {len(missing)} of "
                         f"its {len(source.layout.tuples)} tuples missing): choose a layout that "
                         "holds them")
    rows = source_phases(source.phase_bounds, phase_bounds)
    weights = np.zeros((len(rows), layout.n_weights))
    old, new = source.layout.lut_offsets, layout.lut_offsets
    for k, t in enumerate(source.layout.tuples):
        j = where[t]
        weights[:, new[j]:new[j + 1]] = source.weights[rows, old[k]:old[k + 1]]
    return NtupleWeights(layout, tuple(phase_bounds), weights, _features(source, rows, groups),
                         tuple(groups), name=source.name, spec=spec, symmetry=symmetry)


def exact_network(source, layout: Layout, phase_bounds, groups, spec=None,
                  symmetry=None) -> NtupleWeights:
    """``embedded_network`` of a network, ``projected_network`` of a square table, refused
    (``ValueError``, one line) unless every position keeps its value."""
    missing = sorted(set(source.phase_bounds) - set(phase_bounds))
    if missing:
        raise ValueError(f"its phases start at {list(source.phase_bounds)} discs; these settings' "
                         f"phase_bounds {list(phase_bounds)} lack {missing[0]} (every boundary of "
                         "the file must be one of them)")
    names = set(group_feature_names(groups))
    lost = [n for k, n in enumerate(source.feature_names)
            if n not in names and np.any(source.features[:, k])]
    if lost:
        raise ValueError(f"its feature weight {lost[0]} has no place in these settings' "
                         f"features {list(groups)}")
    if isinstance(source, NtupleWeights):
        return embedded_network(source, layout, phase_bounds, groups, spec, symmetry)
    network = projected_network(source, layout, phase_bounds, groups, spec, symmetry)
    rows = source_phases(source.phase_bounds, phase_bounds)
    if not np.allclose(network.square_values(), source.positional[rows], rtol=0, atol=1e-9):
        raise ValueError(f"its square table does not fit {layout.name or 'this layout'} (not "
                         "symmetric under its symmetries, or squares outside its tuples)")
    return network
