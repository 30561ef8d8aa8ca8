"""Sampling and labelling as indexed tasks on the execution layer (``evolve.execution``): any
backend runs any task on any worker, and what a task returns depends on the task alone.

A ``SampleContext`` samples whole batches: task ``b`` is batch ``b``'s positions, drawn from
the seed sequence ``(seed, b)`` (``Labels.sample_positions``). A ``LabelContext`` labels one
batch's positions in pieces (``LabelTask``: a slice of rows); each position's label depends on
the position alone, so the pieces put back in order are the same whoever labelled them.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np

from engine.core.records import Champion
from evolve.execution.games import configured_game


@dataclass(frozen=True)
class SampleTask:
    index: int  # position in this batch's result list
    batch: int  # the dataset batch whose positions it samples


@dataclass(frozen=True)
class SampleContext:
    game: str
    champion: Champion | None
    count: int  # positions sampled per batch
    seed: int
    options: dict  # the game's sampling options

    def play(self, tasks: list[SampleTask]) -> list[dict]:
        game = configured_game(self.game, {})
        return [game.sample_positions(self.count, np.random.SeedSequence([self.seed, t.batch]),
                                      self.champion, self.options) for t in tasks]


@dataclass(frozen=True)
class LabelTask:
    index: int
    cells: np.ndarray
    ply: np.ndarray


@dataclass(frozen=True)
class LabelResult:
    index: int
    labels: dict  # ``Labels.label_positions``' result
    cpu_seconds: float
    pid: int


@dataclass(frozen=True)
class LabelContext:
    game: str
    champion: Champion | None
    depth: int
    exact_empties: int

    def play(self, tasks: list[LabelTask]) -> list[LabelResult]:
        game = configured_game(self.game, {})
        out = []
        for task in tasks:
            started = time.process_time()
            labels = game.label_positions(task.cells, task.ply, self.champion, self.depth,
                                          self.exact_empties)
            out.append(LabelResult(task.index, labels, time.process_time() - started,
                                   os.getpid()))
        return out


def label_tasks(cells: np.ndarray, ply: np.ndarray, piece: int) -> list[LabelTask]:
    """A batch's positions in pieces of ``piece`` rows (the backend groups them for workers)."""
    return [LabelTask(i, cells[s:s + piece], ply[s:s + piece])
            for i, s in enumerate(range(0, len(ply), piece))]


def warm_up(game_name: str, champion: Champion | None, options: dict, depth: int) -> None:
    """Compile (or load) the kernels a worker runs (sampling, searching, solving) and measure
    what the labels need once per process (the evaluation's scale at ``depth``)."""
    game = configured_game(game_name, {})
    sample = game.sample_positions(8, 0, champion, {**options, "openings": [50, 56]})
    game.label_positions(sample["cells"], sample["ply"], champion, depth, 64 - 4 - 54)
