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
Everything that loads a file goes through ``engine.reversi.files`` (``load_weights``, ``read``);
the validation is in ``engine.reversi.files.squares_json``.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.reversi.genome.evaluation import N_ALL_FEATURES, WIN_SCORE
from engine.reversi.genome.layout import (  # noqa: F401 - the layout's names are the weights' words too
    CATALOGUE_INDEX,
    CLASS_OF_SQUARE,
    DEFAULT_FEATURE_GROUPS,
    FEATURE_GROUPS,
    FEATURE_NAMES,
    MAX_DISCS,
    MAX_FEATURE_COUNT,
    MIN_DISCS,
    N_FEATURES,
    SYMMETRY_CLASS_SQUARES,
    SYMMETRY_CLASSES,
    GenomeLayout,
    PhasedFeatures,
    canonical_groups,
    default_phase_bounds,
    group_feature_names,
    groups_of_features,
    phase_of_discs_table,
)
from engine.reversi.rules.state import SQUARE_NAMES

SCHEMA_VERSION = 1
GAME = "reversi"

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
class Weights(PhasedFeatures):
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

    def search_arrays(self, incremental: bool = True) -> tuple:
        """The evaluation arguments of ``engine.reversi.search.negamax.negamax`` (``phase_of_discs``
        to ``mode``); ``incremental`` is for networks (as ``NtupleWeights.search_arrays``)."""
        from engine.reversi.search.negamax import SQUARE_TABLES

        return (*self.numba_arrays(), None, None, SQUARE_TABLES)


class WeightsFileError(ValueError):
    """A weights file (or dict) that cannot be used; the message says what is wrong and where."""


@contextmanager
def naming_file(path):
    """Lets a ``WeightsFileError`` raised inside name the file it is about."""
    try:
        yield
    except WeightsFileError as e:
        raise WeightsFileError(f"{path}: {e}") from None


REFERENCE_NAMES = ("course", "wpc", "wpc_negated")
DATA_DIR = Path(__file__).parent.parent / "data"  # the package data, engine/reversi/data
