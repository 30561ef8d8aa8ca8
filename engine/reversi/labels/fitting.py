"""The game's own n-tuple network fitted to labelled positions (``fit_network``, the ``labels``
capability): regularised least squares per phase by ``engine.kernels.ntuple.fit``.

The fit is in the labels' units: a fitted network's value of a position is its predicted final
disc difference for the side to move (Othello; Reversed Reversi: its own final score, the
disc difference under its rules). The evaluation uses the value as it is (``scale`` 1: one
evaluation unit per disc); ``scale`` multiplies every weight (one unit = ``1 / scale`` discs),
which changes no move choice of a search, only the numbers it shows. Either way the values stay
far below ``WIN_SCORE`` (a finished game scores ``WIN_SCORE`` plus its disc difference, so won
and lost positions dominate); ``check_network_magnitude`` refuses a fit that would reach it.
Fitted weights may exceed the genome's initialisation bounds ([-1, 1]): a GA seeded with the
champion clips what it mutates, TD and play take the values as they are. Feature-group weights
are 0 (the network alone carries the value; a group that weighs 0 costs no time).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

import numpy as np

from engine.kernels.ntuple import fit
from engine.reversi.genome.evaluation import WIN_SCORE
from engine.reversi.genome.layout import MIN_DISCS, phase_of_discs_table
from engine.reversi.genome.network import check_network_magnitude, index_tables, network_bound

EXACT = 0  # evolve.labels.dataset.EXACT: a label from the exact solver
OPTIONS = {"l2": 1.0, "holdout": 0.1, "seed": 0, "iterations": 100, "tolerance": 1e-4,
           "min_count": 0, "exact_only": False, "scale": 1.0, "progress": None}
MAX_PLY = 60


def fit_network(game, columns: Mapping[str, np.ndarray], options: Mapping
                ) -> tuple[np.ndarray, dict]:
    """A genome of ``game``'s network settings fitted to ``columns`` (``cells``, ``ply``,
    ``target``, ``source``: the dataset's), and a report (per phase: positions, train and
    held-out RMSE and MAE; overall; options; time). ``options`` (``OPTIONS``): ``l2`` penalty,
    ``holdout`` share, ``seed`` of the split, CG ``iterations`` and ``tolerance``, ``min_count``
    (weights read fewer times in training stay 0), ``exact_only`` (exact labels alone),
    ``scale`` (evaluation units per disc), ``progress`` (called per CG pass, as
    ``fit.fit_phases`` says). ``ValueError`` in one line naming the option or column."""
    opts = checked_options(options)
    network = game.network
    if network is None:
        raise ValueError("fitting needs an n-tuple genome (game.genome.kind=ntuple)")
    layout, n_phases = network.layout, network.phases
    cells, ply, target = checked_columns(columns, opts["exact_only"], layout.n_cells)
    phase = phase_of_discs_table(game.phase_bounds)[ply.astype(np.int64) + MIN_DISCS]
    held = fit.holdout_mask(len(target), opts["holdout"], opts["seed"])
    if held.all():
        raise ValueError(f"holdout={opts['holdout']}: no position left to train on "
                         f"({len(target)} positions)")
    started = time.perf_counter()
    order = np.argsort(phase, kind="stable")  # one phase's weights at a time: cache-sized
    indices = fit.position_indices(cells, phase, index_tables(layout), layout.n_weights,
                                   n_phases, order)
    phase, target, held = phase[order], target[order], held[order]
    train = np.flatnonzero(~held)
    index_seconds = time.perf_counter() - started
    result = fit.fit_phases(indices, target, train, n_phases, layout.n_weights, opts["l2"],
                            opts["iterations"], opts["tolerance"], opts["min_count"],
                            opts["progress"])
    prediction = fit.predict(indices, result.weights.ravel())
    del indices
    weights = result.weights * opts["scale"]
    features = np.zeros((n_phases, len(network.feature_names)))
    try:
        check_network_magnitude(layout, weights, features)
    except ValueError as exc:
        raise ValueError(f"scale={opts['scale']}: {exc}") from None
    genome = network.join(weights, features if network.features else None)
    report = fit_report(game, opts, result, prediction, target, phase, held, weights)
    report["index_seconds"] = round(index_seconds, 3)
    report["index_bytes"] = int(len(target) * len(index_tables(layout).offset) * 4)
    return genome, report


def checked_options(options: Mapping) -> dict:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"fit option {unknown[0]!r}: unknown (allowed: "
                         f"{', '.join(k for k in OPTIONS if k != 'progress')})")
    opts = {**OPTIONS, **options}
    numbers = {"l2": (0.0, np.inf), "holdout": (0.0, 0.999), "tolerance": (0.0, 1.0),
               "scale": (1e-9, 1e9)}
    for key, (lo, hi) in numbers.items():
        value = opts[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or not (
                lo <= value <= hi and np.isfinite(value)):
            raise ValueError(f"{key}={value!r}: allowed a number in [{lo:g}, {hi:g}]")
        opts[key] = float(value)
    for key, lo in (("seed", 0), ("iterations", 1), ("min_count", 0)):
        if isinstance(opts[key], bool) or not isinstance(opts[key], int | np.integer) or \
                opts[key] < lo:
            raise ValueError(f"{key}={opts[key]!r}: allowed an integer >= {lo}")
        opts[key] = int(opts[key])
    if not isinstance(opts["exact_only"], bool):
        raise ValueError(f"exact_only={opts['exact_only']!r}: allowed true or false")
    if opts["progress"] is not None and not isinstance(opts["progress"], Callable):
        raise ValueError("progress: allowed a callable or None")
    return opts


def checked_columns(columns: Mapping, exact_only: bool, n_cells: int):
    """(cells, ply, target) of the positions to fit; ``ValueError`` naming the column."""
    missing = [k for k in ("cells", "ply", "target", "source") if k not in columns]
    if missing:
        raise ValueError(f"column {missing[0]!r} missing (fitting reads cells, ply, target, "
                         "source)")
    cells, ply = np.asarray(columns["cells"]), np.asarray(columns["ply"])
    target, source = np.asarray(columns["target"]), np.asarray(columns["source"])
    if cells.ndim != 2 or cells.shape[1] != n_cells:
        raise ValueError(f"cells: expected [n, {n_cells}], got {list(cells.shape)}")
    n = len(cells)
    if any(len(a) != n for a in (ply, target, source)):
        raise ValueError("columns: cells, ply, target and source must have as many rows")
    if exact_only:
        keep = source == EXACT
        cells, ply, target = cells[keep], ply[keep], target[keep]
    if len(target) == 0:
        raise ValueError("positions: none to fit" + (" (no exact label)" if exact_only else ""))
    if cells.dtype != np.uint8 or int(cells.max()) > 2:
        raise ValueError("cells: expected uint8 states 0 (empty), 1 (own), 2 (opponent)")
    if not np.issubdtype(ply.dtype, np.integer) or ply.min() < 0 or ply.max() > MAX_PLY:
        raise ValueError(f"ply: expected integers in 0..{MAX_PLY}")
    target = target.astype(np.float64)
    if not np.all(np.isfinite(target)):
        raise ValueError("target: expected finite numbers")
    return cells, ply, target


def fit_report(game, opts: dict, result: fit.FitResult, prediction, target, phase, held,
               weights) -> dict:
    """Per phase and overall: positions, train and held-out RMSE / MAE (in discs), CG
    iterations and residual, weights the training read; ``null`` where a phase has none."""
    n_phases = weights.shape[0]
    train_err = fit.phase_errors(prediction, target, phase, ~held, n_phases)
    test_err = fit.phase_errors(prediction, target, phase, held, n_phases)
    zero = fit.phase_errors(np.zeros_like(target), target, phase, held, n_phases)
    bounds = (MIN_DISCS, *game.phase_bounds, 65)

    def row(k):
        return {"train_positions": int(train_err["positions"][k]),
                "held_out_positions": int(test_err["positions"][k]),
                "train_rmse": _number(train_err["rmse"][k]),
                "train_mae": _number(train_err["mae"][k]),
                "held_out_rmse": _number(test_err["rmse"][k]),
                "held_out_mae": _number(test_err["mae"][k]),
                "held_out_rmse_of_zero": _number(zero["rmse"][k])}

    phases = [{"phase": p, "discs": [bounds[p], bounds[p + 1] - 1], **row(p),
               "iterations": int(result.iterations[p]),
               "residual": float(result.residual[p]),
               "weights_read": int((result.counts[p] > 0).sum())} for p in range(n_phases)]
    return {"positions": int(len(target)), "units": "discs (the labels' final score)",
            "scale": opts["scale"], "weights": int(weights.size),
            "weights_read": int((result.counts > 0).sum()),
            "largest_value": float(network_bound(game.network.layout, weights).max()),
            "win_score": WIN_SCORE, "seconds": round(result.seconds, 3),
            "seconds_per_pass": round(result.seconds / max(len(result.log), 1), 4),
            "options": {k: v for k, v in opts.items() if k != "progress"},
            "overall": row(n_phases), "phases": phases}


def _number(x) -> float | None:
    return None if not np.isfinite(x) else round(float(x), 6)
