"""Where each weight lives in a Reversi genome: the feature groups (``game.genome.features``),
the game phases (by discs on the board), the 10 symmetry classes of the squares, and
``GenomeLayout``, the map from a flat genome to named genes and crossover blocks."""

from __future__ import annotations

import numpy as np

from engine.reversi.genome.evaluation import ALL_FEATURE_NAMES, WIN_SCORE
from engine.reversi.rules.state import SQUARE_NAMES

# Scalar features, side-to-move view (engine/reversi/genome/evaluation.py defines each exactly), in
# groups a genome uses or not (``game.genome.features``). A group is also the unit a block
# crossover exchanges, besides each phase's positional matrix.
FEATURE_GROUPS: dict[str, tuple[str, ...]] = {
    # legal moves of each side; frontier discs (the opponent's first: potential mobility)
    "mobility": ALL_FEATURE_NAMES[0:4],
    # discs that can never be flipped (sound lower bound, Edax-style)
    "stability": ALL_FEATURE_NAMES[4:6],
    # discs on X and C squares next to an empty corner
    "corners": ALL_FEATURE_NAMES[6:10],
    # regions of empty squares with an odd / even number of squares
    "parity": ALL_FEATURE_NAMES[10:12],
}
DEFAULT_FEATURE_GROUPS: tuple[str, ...] = ("mobility", "stability")
# The features of the default genome (and of every weights file made before the optional groups)
FEATURE_NAMES: tuple[str, ...] = ALL_FEATURE_NAMES[0:6]
N_FEATURES = len(FEATURE_NAMES)
MIN_DISCS, MAX_DISCS = 4, 64
# Largest value any feature can take (legal moves, frontier and stable discs are all disc or
# square counts), used to bound the heuristic so that won/lost games always dominate it.
MAX_FEATURE_COUNT = 64


def _symmetry_images(sq: int) -> set[int]:
    """The (up to 8) squares that ``sq`` maps to under rotations and reflections of the board."""
    r, c = divmod(sq, 8)
    images = set()
    for rr, cc in ((r, c), (c, r)):
        for a in (rr, 7 - rr):
            for b in (cc, 7 - cc):
                images.add(8 * a + b)
    return images


def _symmetry_classes() -> tuple[tuple[int, ...], ...]:
    """Orbits of the 64 squares, ordered by their smallest square (a1, b1, c1, d1, b2, ...)."""
    seen: set[int] = set()
    classes = []
    for sq in range(64):
        if sq not in seen:
            orbit = tuple(sorted(_symmetry_images(sq)))
            seen.update(orbit)
            classes.append(orbit)
    return tuple(classes)


SYMMETRY_CLASSES = _symmetry_classes()  # 10 orbits
SYMMETRY_CLASS_SQUARES = tuple(SQUARE_NAMES[orbit[0]] for orbit in SYMMETRY_CLASSES)
CLASS_OF_SQUARE = np.empty(64, np.int64)
for _k, _orbit in enumerate(SYMMETRY_CLASSES):
    CLASS_OF_SQUARE[list(_orbit)] = _k


def default_phase_bounds(n_phases: int) -> tuple[int, ...]:
    """Disc counts where phases 1..n-1 start: the 60 moves split into ``n_phases`` equal parts.

    ``n_phases == 60`` gives one phase per move number (5, 6, ..., 63).
    """
    if not 1 <= n_phases <= 60:
        raise ValueError(f"n_phases must be in 1..60, got {n_phases}")
    span = MAX_DISCS - MIN_DISCS
    return tuple(MIN_DISCS + round(span * i / n_phases) for i in range(1, n_phases))


def canonical_groups(groups) -> tuple[str, ...]:
    """``groups`` in catalogue order; ``ValueError`` naming the allowed ones for an unknown or
    repeated name."""
    groups = list(groups)
    unknown = [g for g in groups if g not in FEATURE_GROUPS]
    if unknown or len(set(groups)) != len(groups):
        what = f"unknown feature group(s) {unknown}" if unknown else f"repeated groups {groups}"
        raise ValueError(f"{what} (allowed: {', '.join(FEATURE_GROUPS)})")
    return tuple(g for g in FEATURE_GROUPS if g in groups)


def group_feature_names(groups) -> tuple[str, ...]:
    """The features of ``groups``, in catalogue order."""
    return tuple(n for g in canonical_groups(groups) for n in FEATURE_GROUPS[g])


class PhasedFeatures:
    """What weights with ``phase_bounds`` and ``feature_groups`` (square tables or a network)
    say about their phases and feature columns."""

    @property
    def n_phases(self) -> int:
        return len(self.phase_bounds) + 1

    @property
    def feature_names(self) -> tuple[str, ...]:
        """The names of the columns of ``features`` (the features of ``feature_groups``)."""
        return group_feature_names(self.feature_groups)


def groups_of_features(names) -> tuple[str, ...]:
    """The groups with at least one of ``names`` (known feature names), in catalogue order."""
    return tuple(g for g, members in FEATURE_GROUPS.items() if set(members) & set(names))


CATALOGUE_INDEX = {n: i for i, n in enumerate(ALL_FEATURE_NAMES)}


def phase_of_discs_table(phase_bounds: tuple[int, ...]) -> np.ndarray:
    """``int64[65]``: phase index for every disc count 0..64."""
    discs = np.arange(65)
    return np.searchsorted(np.asarray(phase_bounds, np.int64), discs, side="right").astype(np.int64)


class GenomeLayout:
    """Where each weight lives in the flat genome, and the named blocks crossover exchanges."""

    def __init__(self, n_phases: int, symmetric: bool,
                 groups: tuple[str, ...] = DEFAULT_FEATURE_GROUPS):
        if n_phases < 1:
            raise ValueError(f"n_phases must be >= 1, got {n_phases}")
        self.n_phases = n_phases
        self.symmetric = symmetric
        self.feature_groups = canonical_groups(groups)
        self.feature_names = group_feature_names(self.feature_groups)
        self.n_features = len(self.feature_names)
        self.n_positional = len(SYMMETRY_CLASSES) if symmetric else 64
        self.phase_size = self.n_positional + self.n_features
        self.size = n_phases * self.phase_size
        self.names: list[str] = []
        self.blocks: dict[str, slice] = {}
        pos_names = (
            [f"s{k}" for k in range(len(SYMMETRY_CLASSES))] if symmetric else list(SQUARE_NAMES)
        )
        for p in range(n_phases):
            start = p * self.phase_size
            self.blocks[f"p{p}.positional"] = slice(start, start + self.n_positional)
            self.names += [f"p{p}.pos.{n}" for n in pos_names]
            offset = start + self.n_positional
            for block in self.feature_groups:
                names = FEATURE_GROUPS[block]
                self.blocks[f"p{p}.{block}"] = slice(offset, offset + len(names))
                offset += len(names)
                self.names += [f"p{p}.{n}" for n in names]

    def positional_slice(self, phase: int) -> slice:
        return self.blocks[f"p{phase}.positional"]

    def features_slice(self, phase: int) -> slice:
        start = phase * self.phase_size + self.n_positional
        return slice(start, start + self.n_features)

    def default_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Initialisation/clipping range of every gene: [-1, 1] (the WPC's scale)."""
        return np.full(self.size, -1.0), np.full(self.size, 1.0)

    def max_gene_magnitude(self) -> float:
        """Largest ``m`` such that every genome with all genes in [-m, m] is a valid ``Weights``
        (its heuristic can never reach ``WIN_SCORE``). A tied positional gene covers up to 8
        squares but the 10 classes cover the 64 squares once, so both layouts give 64 squares +
        ``n_features`` features of at most ``MAX_FEATURE_COUNT`` each, per phase."""
        per_unit = 64 + self.n_features * MAX_FEATURE_COUNT
        return WIN_SCORE / per_unit * (1.0 - 1e-9)  # a hair below: float sums may round up

    def __repr__(self) -> str:
        groups = "" if self.feature_groups == DEFAULT_FEATURE_GROUPS else \
            f", groups={list(self.feature_groups)}"
        return (f"GenomeLayout(n_phases={self.n_phases}, symmetric={self.symmetric}{groups}, "
                f"size={self.size})")
