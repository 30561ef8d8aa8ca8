"""Checkpoints that describe themselves: JSON (config, generation, ids, RNG state) + ``.npz``
(genomes), no pickle.

Atomic against ``kill -9`` at any moment: the arrays go to a generation-specific ``.npz`` first
(temp file + ``os.replace``), then ``checkpoint.json`` - the commit point - is replaced the same
way and names that ``.npz`` with its SHA-256. A reader therefore sees either the previous
complete checkpoint or the new one, never a mix.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from evolve.ga.population import Population

SCHEMA_VERSION = 1
DIR = "checkpoint"
STATE = "checkpoint.json"


class CheckpointError(ValueError):
    pass


@dataclass(frozen=True)
class Checkpoint:
    config: dict
    generation: int  # last completed generation; ``population`` is the next one, unscored
    next_id: int
    population: Population
    rng_state: dict  # ``np.random.Generator.bit_generator.state``
    elapsed: float  # wall seconds spent so far (for ETA after resume)
    # the population after the last planned generation is bred too (older checkpoints: not), so
    # a finished run can be extended
    next_bred: bool = True
    # ``evolve.ga.scoring.progress.Member.as_dict``
    hall_of_fame: list = field(default_factory=list)
    algorithm_state: dict = field(default_factory=dict)  # CMA-ES: {"told": fitness per gen}


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def save(run_dir: str | Path, ck: Checkpoint) -> Path:
    folder = Path(run_dir) / DIR
    folder.mkdir(parents=True, exist_ok=True)
    npz_name = f"population_{ck.generation:04d}.npz"
    npz_path = folder / npz_name
    tmp = folder / f".{npz_name}.tmp{os.getpid()}.npz"
    pop = ck.population
    with open(tmp, "wb") as f:
        np.savez(f, genomes=pop.genomes, ids=pop.ids, parent_a=pop.parent_a,
                 parent_b=pop.parent_b)
        f.flush()
        os.fsync(f.fileno())  # the data is on disk before the name that commits it
    os.replace(tmp, npz_path)
    state = {
        "schema_version": SCHEMA_VERSION,
        "generation": ck.generation,
        "next_id": ck.next_id,
        "operator": pop.operator,
        "rng_state": ck.rng_state,
        "elapsed": ck.elapsed,
        "next_bred": ck.next_bred,
        "hall_of_fame": ck.hall_of_fame,
        "algorithm_state": ck.algorithm_state,
        "population_file": npz_name,
        "population_sha256": hashlib.sha256(npz_path.read_bytes()).hexdigest(),
        "config": ck.config,
    }
    _atomic_write(folder / STATE, json.dumps(state, indent=1).encode())
    for old in folder.glob("population_*.npz"):  # only after the commit point
        if old.name != npz_name:
            old.unlink(missing_ok=True)
    return folder / STATE


def load(run_dir: str | Path) -> Checkpoint:
    folder = Path(run_dir) / DIR
    try:
        state = json.loads((folder / STATE).read_text())
    except FileNotFoundError:
        raise CheckpointError(f"no checkpoint in {run_dir} (expected {folder / STATE})") from None
    except json.JSONDecodeError as exc:
        raise CheckpointError(f"{folder / STATE} is not valid JSON: {exc}") from None
    if state.get("schema_version") != SCHEMA_VERSION:
        raise CheckpointError(f"{folder / STATE}: schema_version {state.get('schema_version')!r}, "
                              f"expected {SCHEMA_VERSION}")
    npz_path = folder / str(state.get("population_file"))
    try:
        data = npz_path.read_bytes()
    except OSError as exc:
        raise CheckpointError(f"{npz_path}: population file named by {STATE} cannot be read "
                              f"({exc.strerror or exc})") from None
    if hashlib.sha256(data).hexdigest() != state.get("population_sha256"):
        raise CheckpointError(f"{npz_path} does not match its checksum in {STATE}")
    with np.load(npz_path, allow_pickle=False) as z:
        pop = Population(z["genomes"], z["ids"], z["parent_a"], z["parent_b"],
                         list(state["operator"]))
    from evolve.ga.configuration.config import migrate

    return Checkpoint(migrate(state["config"]), state["generation"], state["next_id"], pop,
                      state["rng_state"], state["elapsed"], state.get("next_bred", False),
                      state.get("hall_of_fame", []), state.get("algorithm_state", {}))


def restore_rng(state: dict) -> np.random.Generator:
    bit_generator = getattr(np.random, state["bit_generator"])()
    bit_generator.state = state
    return np.random.Generator(bit_generator)
