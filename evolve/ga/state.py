"""What a study carries from one generation to the next (``State``), and how it goes into and
comes out of a checkpoint (``evolve.ga.run_files.checkpoint`` holds the file format).

A checkpoint is written once a generation is complete, and holds the *next* population (already
bred), the RNG right after breeding it, the next free id and the algorithm's state, so a resumed
run carries on exactly where the uninterrupted one would have.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from evolve.ga.population import Population
from evolve.ga.run_files import checkpoint as ckpt
from evolve.ga.scoring.progress import Member


@dataclass
class State:
    generation: int  # next generation to score
    population: Population
    rng: np.random.Generator
    next_id: int
    elapsed: float  # wall seconds of the run's earlier processes (0 unless resumed)
    hall_of_fame: list[Member] = field(default_factory=list)
    # CMA-ES: {"told": fitness per generation}; the ES: {"es": centre, moments, step}; GA: {}
    algorithm_state: dict = field(default_factory=dict)
    # the population has yet to learn by local search before it is scored (a fresh run's
    # generation 0; a checkpoint holds a population that has learnt)
    needs_learning: bool = False


@dataclass(frozen=True)
class Snapshot:
    """The part of a ``State`` a generation's checkpoint holds, taken right after breeding: the
    next population, the RNG state, the next free id (taken before breeding any further) and
    the algorithm's state (CMA-ES: the fitness told so far; the ES: its centre and moments)."""

    population: Population
    rng_state: dict
    next_id: int
    algorithm_state: dict


def snapshot(state: State) -> Snapshot:
    return Snapshot(state.population, state.rng.bit_generator.state, state.next_id,
                    dict(state.algorithm_state))


def save(run_dir: Path, config: dict, generation: int, snap: Snapshot, state: State,
         elapsed: float) -> None:
    """Checkpoint generation ``generation`` (atomic: see ``evolve.ga.run_files.checkpoint``);
    ``elapsed``: the run's wall seconds so far."""
    ckpt.save(run_dir, ckpt.Checkpoint(
        config, generation, snap.next_id, snap.population, snap.rng_state, elapsed,
        hall_of_fame=[m.as_dict() for m in state.hall_of_fame],
        algorithm_state=snap.algorithm_state))


def restored(saved: ckpt.Checkpoint) -> State:
    """The state a checkpoint describes: the generation after the saved one comes next."""
    members = [Member(m["generation"], tuple(m["genome"]), m["elo"]) for m in saved.hall_of_fame]
    return State(saved.generation + 1, saved.population, ckpt.restore_rng(saved.rng_state),
                 saved.next_id, saved.elapsed, members, dict(saved.algorithm_state))
