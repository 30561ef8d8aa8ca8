"""Evaluation weights: per-phase positional matrices and named feature weights, as one genome.

A ``Weights`` object is what the GA evolves and what a user reads. It has one *phase* per range
of disc counts (``phase_bounds`` = the disc counts where each phase after the first starts) and,
per phase, a full 8x8 positional matrix (row-major a1..h8, like the bitboards) and one weight per
feature of its *feature groups* (``FEATURE_GROUPS``; by default mobility and stability, whose
names are ``FEATURE_NAMES``). The numba search never sees this object: ``numba_arrays()`` turns
it into plain arrays, the features spread over the whole catalogue (``ALL_FEATURE_NAMES``,
zeros for the groups not used).

Won and lost games must outweigh every heuristic value (the search scores them
``+-(WIN_SCORE + margin)``), so a ``Weights`` whose heuristic could reach ``WIN_SCORE`` is refused
(``check_magnitude``: sum of |positional| + 64 x sum of |feature weights|, per phase);
``GenomeLayout.max_gene_magnitude()`` is the gene range within which every genome passes.

Symmetric weights tie the positional matrix under the 8 symmetries of the square (rotations and
reflections), leaving 10 free values per phase; the matrix stored in the object and in files is
always the expanded 8x8 one.

File formats: the JSON weights file (schema version 1, documented key by key in the README and
written by ``save_json``) and ``.npz`` (arrays only, read with ``allow_pickle=False``).
Everything that loads a file goes through ``load_weights``; see ``engine/weights_io.py`` for the
validation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.reversi.evaluation import ALL_FEATURE_NAMES, N_ALL_FEATURES, WIN_SCORE
from engine.reversi.position import SQUARE_NAMES

SCHEMA_VERSION = 1
GAME = "reversi"

# Scalar features, side-to-move view (engine/reversi/evaluation.py defines each exactly), in
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


def asymmetric_squares(matrix: np.ndarray) -> list[str]:
    """Squares whose value differs from another square of the same symmetry class."""
    bad = []
    for orbit in SYMMETRY_CLASSES:
        values = matrix[list(orbit)]
        if not np.all(values == values[0]):
            bad += [SQUARE_NAMES[s] for s in orbit]
    return bad


def heuristic_bound(positional: np.ndarray, features: np.ndarray) -> float:
    """An upper bound of ``|evaluate(...)|`` over every non-final position, for weights of shape
    (n, 64) and (n, F): per phase, each square adds at most its |weight| to the positional sum
    (it holds one disc or none) and each feature counts at most ``MAX_FEATURE_COUNT``."""
    positional_part = np.abs(positional).sum(axis=1)
    feature_part = np.abs(features).sum(axis=1) * MAX_FEATURE_COUNT
    return float((positional_part + feature_part).max())


def check_magnitude(positional: np.ndarray, features: np.ndarray) -> None:
    """``ValueError`` unless won/lost games (worth more than ``WIN_SCORE`` in the search)
    dominate every heuristic value these weights can produce."""
    bound = heuristic_bound(positional, features)
    if not bound < WIN_SCORE:
        raise ValueError(
            f"weights too large: the heuristic can reach {bound:.6g} but must stay below the "
            f"win score {WIN_SCORE:g} (sum |positional| + {MAX_FEATURE_COUNT} * sum |features| "
            "per phase), or won/lost positions would not dominate it; scale the weights down"
        )


@dataclass
class Weights:
    phase_bounds: tuple[int, ...]
    positional: np.ndarray  # (n_phases, 64), expanded, a1..h8
    features: np.ndarray  # (n_phases, len(self.feature_names))
    symmetric: bool = False
    name: str = ""
    metadata: dict = field(default_factory=dict)
    feature_groups: tuple[str, ...] = DEFAULT_FEATURE_GROUPS  # which features ``features`` has

    def __post_init__(self):
        self.phase_bounds = tuple(int(b) for b in self.phase_bounds)
        n = len(self.phase_bounds) + 1
        prev = 0
        for b in self.phase_bounds:
            if not prev < b <= MAX_DISCS:
                raise ValueError(
                    f"phase_bounds must be strictly increasing disc counts in 1..64, "
                    f"got {list(self.phase_bounds)}"
                )
            prev = b
        self.positional = np.array(self.positional, dtype=np.float64).reshape(n, 64)
        self.feature_groups = canonical_groups(self.feature_groups)
        self.features = np.array(self.features, dtype=np.float64).reshape(
            n, len(self.feature_names))
        if not (np.all(np.isfinite(self.positional)) and np.all(np.isfinite(self.features))):
            raise ValueError("weights must be finite numbers (found NaN or infinity)")
        check_magnitude(self.positional, self.features)
        self.symmetric = bool(self.symmetric)
        if self.symmetric:
            for p in range(n):
                bad = asymmetric_squares(self.positional[p])
                if bad:
                    raise ValueError(
                        f"phases[{p}].positional is not symmetric but symmetric=true "
                        f"(squares {', '.join(bad[:8])}{'...' if len(bad) > 8 else ''})"
                    )
        self.metadata = dict(self.metadata)

    @property
    def n_phases(self) -> int:
        return len(self.phase_bounds) + 1

    @property
    def feature_names(self) -> tuple[str, ...]:
        """The names of the columns of ``features`` (the features of ``feature_groups``)."""
        return group_feature_names(self.feature_groups)

    @property
    def layout(self) -> GenomeLayout:
        return GenomeLayout(self.n_phases, self.symmetric, self.feature_groups)

    @property
    def variant(self) -> str | None:
        return self.metadata.get("variant")

    def phase_discs(self, phase: int) -> tuple[int, int]:
        """Inclusive disc-count range of a phase."""
        lo = MIN_DISCS if phase == 0 else self.phase_bounds[phase - 1]
        hi = MAX_DISCS if phase == self.n_phases - 1 else self.phase_bounds[phase] - 1
        return lo, hi

    def to_genome(self) -> np.ndarray:
        layout = self.layout
        genome = np.empty(layout.size, np.float64)
        for p in range(self.n_phases):
            if self.symmetric:
                reps = [orbit[0] for orbit in SYMMETRY_CLASSES]
                genome[layout.positional_slice(p)] = self.positional[p, reps]
            else:
                genome[layout.positional_slice(p)] = self.positional[p]
            genome[layout.features_slice(p)] = self.features[p]
        return genome

    @classmethod
    def from_genome(
        cls, genome, phase_bounds, symmetric: bool, name: str = "", metadata: dict | None = None,
        groups: tuple[str, ...] = DEFAULT_FEATURE_GROUPS,
    ) -> Weights:
        genome = np.asarray(genome, dtype=np.float64)
        layout = GenomeLayout(len(tuple(phase_bounds)) + 1, symmetric, groups)
        if genome.shape != (layout.size,):
            raise ValueError(
                f"genome has shape {genome.shape}, expected ({layout.size},) for {layout}"
            )
        positional = np.empty((layout.n_phases, 64))
        features = np.empty((layout.n_phases, layout.n_features))
        for p in range(layout.n_phases):
            values = genome[layout.positional_slice(p)]
            positional[p] = values[CLASS_OF_SQUARE] if symmetric else values
            features[p] = genome[layout.features_slice(p)]
        return cls(tuple(phase_bounds), positional, features, symmetric, name, metadata or {},
                   layout.feature_groups)

    def numba_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(phase_of_discs int64[65], positional float64[n,64], features float64[n,12]): the
        features over the whole catalogue (``ALL_FEATURE_NAMES``), 0 for unused groups."""
        features = np.zeros((self.n_phases, N_ALL_FEATURES))
        features[:, [CATALOGUE_INDEX[n] for n in self.feature_names]] = self.features
        return (
            phase_of_discs_table(self.phase_bounds),
            np.ascontiguousarray(self.positional),
            features,
        )


class WeightsFileError(ValueError):
    """A weights file (or dict) that cannot be used; the message says what is wrong and where."""


REFERENCE_NAMES = ("course", "wpc", "wpc_negated")
DATA_DIR = Path(__file__).parent / "data"
