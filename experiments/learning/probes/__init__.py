"""One-off probes of learning from search: each answers one question about what limits the
fitted networks, on a run's datasets (``outputs/from_search/...``); their answers and commands
are in ``experiments/notes/tuning.md``. What the fitting probes share is here: their arguments,
the labels read, and the positions' weight indices sorted by phase with the held-out tenth."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.commands.helptext import summary
from engine.kernels.ntuple import fit
from engine.reversi.genome.layout import MIN_DISCS, phase_of_discs_table
from engine.reversi.genome.network import index_tables
from evolve.labels.dataset import read_dataset

HELD_OUT = 0.1  # as evolve.fit: a tenth held out, seed 0


def probe_arguments(doc: str, out_help: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=summary(doc))
    p.add_argument("dataset", type=Path, help="a labelled Othello dataset folder")
    p.add_argument("out", type=Path, help=out_help)
    return p


def read_labels(dataset: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The dataset's cells, plies and targets (in discs, float64)."""
    data = read_dataset(dataset).columns()
    return data["cells"], data["ply"], data["target"].astype(np.float64)


def phases_of(game, ply: np.ndarray) -> np.ndarray:
    return phase_of_discs_table(game.phase_bounds)[ply.astype(np.int64) + MIN_DISCS]


@dataclass(frozen=True)
class PhaseSorted:
    """The positions sorted by phase (``order``), as ``fit.fit_phases`` reads them: their
    phases and weight indices, and which of them are held out."""
    phase: np.ndarray
    order: np.ndarray
    indices: np.ndarray
    held: np.ndarray

    @property
    def train(self) -> np.ndarray:
        return np.flatnonzero(~self.held)


def sorted_by_phase(game, cells: np.ndarray, ply: np.ndarray) -> PhaseSorted:
    """The weight indices of ``game``'s network for every position, sorted by phase."""
    layout, n_phases = game.network.layout, game.network.phases
    phase = phases_of(game, ply)
    order = np.argsort(phase, kind="stable")
    indices = fit.position_indices(cells, phase, index_tables(layout), layout.n_weights,
                                   n_phases, order)
    held = fit.holdout_mask(len(ply), HELD_OUT, 0)[order]
    return PhaseSorted(phase[order], order, indices, held)


def rmse(prediction: np.ndarray, target: np.ndarray, rows) -> float:
    return float(np.sqrt(np.mean((prediction[rows] - target[rows]) ** 2)))
