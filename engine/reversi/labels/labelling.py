"""Labels from the exact solver and depth-D search.

A position with at most ``exact_empties`` empty squares is solved exactly
(``engine.reversi.endgame.solver``, as ``python -m engine.solve`` does): its label is the final
disc difference for the side to move under perfect play, in the variant's own score (Reversed
Reversi: the negated Othello score; empty squares go to the winner, the FFO convention),
``source`` ``EXACT`` and ``depth`` its empties.

Any other position gets the value of a depth-``depth`` alpha-beta search
(``engine.reversi.search.negamax``) with the champion's evaluation (the game's reference square
table without one), ``source`` ``SEARCH``. That value is in the evaluation's units, which are
not discs (a TD network's values are a win/loss logit, a square table's are weighted squares),
so it is converted to discs for the side to move:

- a value that a finished game decides (the search reached the end on every line that counts:
  ``WIN_SCORE`` + the disc difference) becomes that disc difference;
- any other value ``v`` becomes ``v * scale``, ``scale`` the evaluation's discs per unit: the
  least-squares slope through the origin of exact scores on search values, measured on a fixed
  set of positions (``CALIBRATION``: ``CALIBRATION_POSITIONS`` positions at
  ``CALIBRATION_EMPTIES`` empties from seeded games, sampled as ``sampling`` does with its
  defaults) at the same depth. It depends on the evaluation, the variant and the depth only, so
  every batch and every worker uses the same one; ``label_positions`` returns it
  (``search_scale``) for the dataset's manifest.

So exact and search labels share one unit, the one a fitted evaluation predicts: a network
fitted to these labels values positions in discs, and its own scale measures close to 1 when it
labels the next round. The scale is linear: a TD network's values saturate where disc margins
keep growing, which the fit sees as noise in large margins, not as a bias of the small ones.

Deterministic: fixed depths, no clock. The tables are kept by the process (filling new ones
would cost as much as labelling a small piece) and each call takes a new generation; a root's
fixed-depth value never depends on what the table holds (``engine.kernels.search.tt.cutoff``), an
exact score never does.
"""

from __future__ import annotations

import hashlib

import numpy as np

from engine.kernels.search import tt
from engine.reversi.endgame import table as endgame_table
from engine.reversi.endgame.solver import solve_exact
from engine.reversi.genome.evaluation import WIN_SCORE
from engine.reversi.labels.evaluation import champion_evaluation
from engine.reversi.labels.symmetry import boards_of, cells_of
from engine.reversi.search.negamax import negamax

EXACT, SEARCH = 0, 1  # the dataset's ``source`` codes (``evolve.labels.dataset``)
TT_BITS = 18
ENDGAME_TT_BITS = 18
_TABLES: dict = {}  # the process's search and endgame tables
UNLIMITED = np.int64(2**62)
CALIBRATION_POSITIONS = 256
CALIBRATION_EMPTIES = 12
CALIBRATION_SEED = 20_240_547
_SCALES: dict = {}  # (evaluation digest, variant, depth) -> scale, per process


def search_values(P, O, reversed_rules: bool, arrays, depth: int) -> np.ndarray:
    """The raw depth-``depth`` search value of each position (the evaluation's units)."""
    table, generation = tables("search", TT_BITS)
    out = np.empty(len(P))
    for i in range(len(P)):
        out[i] = negamax(P[i], O[i], depth, False, reversed_rules, *arrays, table,
                         np.uint32(generation), UNLIMITED)[1]
    return out


def tables(kind: str, bits: int):
    """The process's table of ``kind`` and a generation no earlier call used."""
    if kind not in _TABLES:
        _TABLES[kind] = tt.new_table(bits) if kind == "search" else \
            endgame_table.new_table(bits)
    return _TABLES[kind], tt.next_generation()


def exact_scores(P, O, reversed_rules: bool) -> np.ndarray:
    """The exact final score (side to move) of each position."""
    table, generation = tables("endgame", ENDGAME_TT_BITS)
    return np.array([solve_exact(p, o, reversed_rules, table, generation)[1]
                     for p, o in zip(P, O, strict=True)], dtype=np.float64)


def decided(values: np.ndarray) -> np.ndarray:
    """Which search values a finished game decides (``terminal_score``'s)."""
    return np.abs(values) >= WIN_SCORE / 2


def to_discs(values: np.ndarray, scale: float) -> np.ndarray:
    """Search values in discs (module docstring)."""
    margin = values - np.sign(values) * WIN_SCORE
    return np.where(decided(values), margin, values * scale)


def calibration_boards(game) -> tuple[np.ndarray, np.ndarray]:
    """``CALIBRATION_POSITIONS`` positions at ``CALIBRATION_EMPTIES`` empties, from seeded
    games of the reference evaluation (the same set whatever evaluation is calibrated)."""
    from engine.reversi.labels.sampling import sample_boards

    P, O = sample_boards(game, 60 * CALIBRATION_POSITIONS, CALIBRATION_SEED, None, {})
    empties = 64 - np.count_nonzero(cells_of(P, O), axis=1)
    at = np.flatnonzero(empties == CALIBRATION_EMPTIES)[:CALIBRATION_POSITIONS]
    return P[at], O[at]


def digest(arrays) -> str:
    """What identifies an evaluation: its search arrays' bytes."""
    h = hashlib.sha256()
    for a in arrays:
        if isinstance(a, np.ndarray):
            h.update(np.ascontiguousarray(a).tobytes())
        elif isinstance(a, tuple):  # a network's index tables
            h.update(digest(a).encode())
        else:
            h.update(repr(a).encode())
    return h.hexdigest()


def search_scale(game, evaluation, depth: int) -> float:
    """Discs per unit of ``evaluation``'s depth-``depth`` search values (module docstring);
    1.0 when no calibration position has an undecided value."""
    key = (digest(evaluation.search_arrays(True)), game.variant.value, int(depth))
    if key not in _SCALES:
        P, O = calibration_boards(game)
        rev = game.variant.is_reversed
        values = search_values(P, O, rev, evaluation.search_arrays(True), depth)
        exact = exact_scores(P, O, rev)
        open_ = ~decided(values)
        denominator = float(np.dot(values[open_], values[open_]))
        scale = float(np.dot(values[open_], exact[open_])) / denominator if denominator else 1.0
        _SCALES[key] = scale
    return _SCALES[key]


def label_positions(game, cells, ply, champion, depth: int, exact_empties: int
                    ) -> dict[str, np.ndarray]:
    """``{"target", "source", "depth", "search_scale"}`` of the positions (module docstring;
    ``search_scale`` a 0-d float64 array, the same for every call with this evaluation and
    depth)."""
    if depth < 1:
        raise ValueError(f"depth={depth}: allowed >= 1")
    if not 0 <= exact_empties <= 30:
        raise ValueError(f"exact_empties={exact_empties}: allowed 0..30")
    P, O = boards_of(cells)
    empties = 64 - 4 - np.asarray(ply, dtype=np.int64)
    exact = empties <= exact_empties
    rev = game.variant.is_reversed
    evaluation = champion_evaluation(game, champion)
    target = np.zeros(len(P))
    target[exact] = exact_scores(P[exact], O[exact], rev)
    scale = search_scale(game, evaluation, depth)
    if (~exact).any():
        values = search_values(P[~exact], O[~exact], rev, evaluation.search_arrays(True), depth)
        target[~exact] = to_discs(values, scale)
    return {"target": target.astype(np.float32),
            "source": np.where(exact, EXACT, SEARCH).astype(np.uint8),
            "depth": np.where(exact, empties, depth).astype(np.int8),
            "search_scale": np.array(scale, dtype=np.float64)}
