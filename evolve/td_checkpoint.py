"""The files of a ``python -m evolve.td`` run besides its network. A checkpoint (``.npz``, no
pickle) holds the next step, the network, the network that plays that step's round, the games
and CPU seconds so far, and the settings it was made with; it is replaced atomically, so a kill
at any moment leaves the last one whole.

Also the ``--snapshot-every`` networks of a run (for learning curves)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CHECKPOINT_VERSION = 1


@dataclass
class Progress:
    step: int = 0  # the next step to run
    games: int = 0
    cpu_seconds: float = 0.0  # the driver's
    worker_cpu_seconds: float = 0.0  # the rounds' games played in other processes (Ray)
    wall_seconds: float = 0.0  # of the steps (a resumed run adds its own)

    @property
    def total_cpu_seconds(self) -> float:
        return self.cpu_seconds + self.worker_cpu_seconds


RULE_PREFIX = "rule_"  # a step rule's state arrays in a checkpoint


def write_checkpoint(path: Path, schedule, genome, snapshot, done: Progress,
                     rule=None) -> None:
    """Atomically: a temporary file beside ``path`` (``temporary_checkpoint``), then a rename.
    A snapshot that is the genome itself (online TD) is stored once (an empty ``snapshot``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_checkpoint(path)
    state = {} if rule is None else {RULE_PREFIX + k: v for k, v in rule.state.items()}
    np.savez(tmp, version=np.int64(CHECKPOINT_VERSION), schedule=np.str_(schedule.to_json()),
             genome=genome, snapshot=np.zeros(0) if snapshot is genome else snapshot,
             step=np.int64(done.step),
             games=np.int64(done.games), cpu_seconds=np.float64(done.cpu_seconds),
             worker_cpu_seconds=np.float64(done.worker_cpu_seconds),
             wall_seconds=np.float64(done.wall_seconds), **state)
    os.replace(tmp, path)


def temporary_checkpoint(path: Path) -> Path:
    """Where a checkpoint is written before its rename (left behind only by a kill mid-write;
    the next write replaces it, a finished run removes it)."""
    return path.with_name(path.name + ".tmp.npz")


def read_checkpoint(path: Path, schedule, rule=None
                    ) -> tuple[np.ndarray, np.ndarray, Progress]:
    """The checkpoint's genome, snapshot and progress (and the step rule's state, into
    ``rule``); ``ValueError`` if it cannot be read or was made with other settings (resuming
    it would not give the run they describe)."""
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in ("version", "schedule", "genome", "snapshot", "step",
                                      "games", "cpu_seconds")}
            state = {k[len(RULE_PREFIX):]: z[k].copy() for k in z.files
                     if k.startswith(RULE_PREFIX)}
            workers, wall = (float(z[k]) if k in z.files else 0.0  # older checkpoints: 0
                             for k in ("worker_cpu_seconds", "wall_seconds"))
    except Exception as exc:  # noqa: BLE001 -- a torn or foreign file: any read error is its
        raise ValueError(f"checkpoint {path}: not readable ({type(exc).__name__}); delete it "
                         "or run without --resume") from None
    if int(data["version"]) != CHECKPOINT_VERSION:
        raise ValueError(f"checkpoint {path}: version {int(data['version'])}, this program "
                         f"reads {CHECKPOINT_VERSION}")
    stored = str(data["schedule"])
    why = schedule.outdated(stored)
    if why:
        raise ValueError(f"checkpoint {path} {why}: delete it, or run without --resume, to "
                         "start again")
    if stored != schedule.to_json():
        raise ValueError(f"checkpoint {path} was made with other settings "
                         f"({data['schedule']}); delete it or give the same options")
    if rule is not None:
        rule.state.update(state)
    snapshot = data["snapshot"] if data["snapshot"].size else data["genome"]
    return (data["genome"].copy(), snapshot.copy(),
            Progress(int(data["step"]), int(data["games"]), float(data["cpu_seconds"]), workers,
                     wall))


def snapshot_path(out: Path, games: int) -> Path:
    """Where ``--snapshot-every`` saves the network after ``games`` games."""
    return out.with_name(f"{out.stem}.g{games}{out.suffix or '.json'}")


def save_snapshot(save, out: Path, every: int, genome, done, step_games: int) -> None:
    """After the step that reaches another multiple of ``every`` games."""
    if done.games // every > (done.games - step_games) // every:
        save(snapshot_path(out, done.games), genome, done)
