"""Reversi's genome settings (``game.genome``): phases and their disc-count bounds, symmetric
positional matrices, feature groups; validated with one-line messages naming the key."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from engine.core.records import GameSettingsError
from engine.core.settings import int_in, with_defaults

GENOME_DEFAULTS = {"phases": 3, "phase_bounds": None, "symmetric": True,
                   "features": ["mobility", "stability"]}


def validated_genome(genome: Mapping) -> dict:
    """Same rules and one-line messages as before the genome settings moved to ``game:``."""
    g = with_defaults(genome, GENOME_DEFAULTS, "game.genome")
    phases, bounds = int_in("game.genome.phases", g["phases"], 1, 60), g["phase_bounds"]
    if not isinstance(g["symmetric"], bool):
        raise GameSettingsError(f"game.genome.symmetric={g['symmetric']} must be true or false")
    g["features"] = _validated_feature_groups(g["features"])
    if bounds is not None:
        b = list(bounds)
        increasing = all(x < y for x, y in zip(b, b[1:], strict=False))
        if not (increasing and all(isinstance(x, int) and 5 <= x <= 64 for x in b)):
            raise GameSettingsError(f"game.genome.phase_bounds={b} must satisfy strictly "
                                    "increasing disc counts within 5..64 (null: equal split)")
        if len(b) != phases - 1:
            raise GameSettingsError(
                f"game.genome.phase_bounds={b} must satisfy one bound per phase after the "
                f"first: {phases - 1} bounds for game.genome.phases={phases} (set "
                f"game.genome.phases={len(b) + 1} with these bounds)")
        g["phase_bounds"] = b
    return g


def _validated_feature_groups(groups) -> list[str]:
    """The feature groups in catalogue order (the genome's block order, whatever the order
    given), or a one-line error naming the allowed groups."""
    from engine.reversi.weights import FEATURE_GROUPS, canonical_groups

    is_list = isinstance(groups, Sequence) and not isinstance(groups, str)
    if not (is_list and all(isinstance(g, str) and g in FEATURE_GROUPS for g in groups)
            and len(set(groups)) == len(groups)):
        shown = f"[{', '.join(map(str, groups))}]" if is_list else groups
        raise GameSettingsError(f"game.genome.features={shown} must be a list of distinct "
                                f"feature groups from: {', '.join(FEATURE_GROUPS)} (default: "
                                "[mobility, stability])")
    return list(canonical_groups(groups))


def projected_reference(reference: str, phase_bounds, symmetric: bool, groups) -> np.ndarray:
    """A reference weight set re-expressed as a genome of this layout: each of our phases takes
    the reference phase that covers its middle disc count (references may have fewer phases);
    features our groups have and the reference lacks weigh 0 (the shipped references weigh
    every feature 0)."""
    from engine.reversi.layout import MIN_DISCS, GenomeLayout, phase_of_discs_table
    from engine.reversi.weights import Weights
    from engine.reversi.weights_io import reference_weights

    ref = reference_weights(reference)
    starts, ends = (MIN_DISCS, *phase_bounds), (*phase_bounds, 65)
    ref_phase_of = phase_of_discs_table(ref.phase_bounds)
    rows = [int(ref_phase_of[min(64, (s + e) // 2)]) for s, e in zip(starts, ends, strict=True)]
    layout = GenomeLayout(len(rows), symmetric, tuple(groups))
    features = np.zeros((len(rows), layout.n_features))
    for k, feature in enumerate(layout.feature_names):
        if feature in ref.feature_names:
            features[:, k] = ref.features[rows, ref.feature_names.index(feature)]
    projected = Weights(tuple(phase_bounds), np.array(ref.positional[rows], dtype=np.float64),
                        features, symmetric, name=reference, feature_groups=layout.feature_groups)
    return projected.to_genome()
