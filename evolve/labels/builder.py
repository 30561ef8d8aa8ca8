"""Build a labelled-position dataset (``python -m evolve.label``): sample in seeded batches,
deduplicate under the board's symmetries, label, write each batch in order.

Batch ``b`` samples ``batch_positions`` positions from the seed sequence ``(seed, b)`` on the
backend. The driver keeps, in batch order, the positions whose symmetry key it has not seen in
this batch or an earlier one (the first of equal ones; the run stops at ``positions``, cutting
the last batch), has them labelled on the backend in pieces, and writes the batch when it is
whole (``evolve.labels.dataset``: the batch file, then the manifest listing it). Several batches
are in flight at once; they are written in order. What a batch holds depends on the seed, the
settings and the batches before it only: the same bits for any backend and number of workers.

``resume``: the batches the manifest lists are kept; their samples are drawn again (cheap next
to labelling) to know the keys seen, each checked against the count listed, and the run goes on
from the first batch missing. A kill -9 at any moment loses at most the batches not yet listed.
"""

from __future__ import annotations

import hashlib
import logging
import subprocess
import time
from collections import deque
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from evolve.labels import dataset
from evolve.labels.tasks import LabelContext, SampleContext, SampleTask, label_tasks

log = logging.getLogger("evolve.label")
LABEL_PIECE = 64  # positions per labelling task
MAX_EMPTY_BATCHES = 50  # batches in a row with nothing new: the sampling cannot give more


@dataclass(frozen=True)
class LabelSettings:
    """What decides a dataset's bits (a resumed run must give the same)."""

    game: str
    champion: str | None  # the champion file's SHA-256, None: the game's reference evaluation
    positions: int
    batch_positions: int
    exact_empties: int
    depth: int
    seed: int
    sampling: dict  # the game's sampling options


class SeenKeys:
    """The symmetry keys met so far: a sorted array and a smaller sorted one of recent keys,
    merged when it grows (8 bytes a key, no Python object per key)."""

    def __init__(self):
        self.old = np.zeros(0, np.uint64)
        self.recent = np.zeros(0, np.uint64)

    def fresh(self, keys: np.ndarray) -> np.ndarray:
        """Rows of ``keys`` never seen, each key's first row only (a boolean mask)."""
        first = np.zeros(len(keys), bool)
        first[np.unique(keys, return_index=True)[1]] = True
        return first & ~self._contains(self.old, keys) & ~self._contains(self.recent, keys)

    def add(self, keys: np.ndarray) -> None:
        self.recent = np.union1d(self.recent, keys)
        if len(self.recent) > max(1 << 16, len(self.old) // 4):
            self.old, self.recent = np.union1d(self.old, self.recent), np.zeros(0, np.uint64)

    @staticmethod
    def _contains(table: np.ndarray, keys: np.ndarray) -> np.ndarray:
        at = np.minimum(np.searchsorted(table, keys), max(len(table) - 1, 0))
        return table[at] == keys if len(table) else np.zeros(len(keys), bool)


def file_sha256(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def git_commit() -> str:
    """The checked-out commit of this code (``+dirty`` when tracked files differ)."""
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=here, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=here, text=True, capture_output=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return head + ("+dirty" if dirty else "")


def check_resumable(manifest: dict, settings: LabelSettings) -> None:
    """``ValueError`` naming the first setting a resumed run changes."""
    before = manifest.get("settings", {})
    for name, value in asdict(settings).items():
        if before.get(name) != value:
            raise ValueError(f"--resume: {name} differs from the dataset's ({before.get(name)!r}"
                             f" there, {value!r} now); give the same options or another --out")


class Pipeline:
    """Sampling batches ahead and labelling them on one backend; batches come out in order."""

    def __init__(self, backend, sampler: SampleContext, labeller: LabelContext, ahead: int):
        self.backend, self.sampler, self.labeller = backend, sampler, labeller
        self.ahead = ahead
        self.samples: deque = deque()  # (batch, future)
        self.next_sample = 0

    def sample(self, batch: int) -> dict:
        """Batch ``batch``'s sample (batches are asked for in order); keeps ``ahead`` more
        batches being sampled."""
        while self.next_sample <= batch + self.ahead:
            self.samples.append((self.next_sample, self.backend.submit(
                self.sampler, [SampleTask(0, self.next_sample)])))
            self.next_sample += 1
        while self.samples[0][0] < batch:
            self.samples.popleft()
        return self.samples.popleft()[1].result()[0]

    def label(self, cells, ply):
        return self.backend.submit(self.labeller, label_tasks(cells, ply, LABEL_PIECE))


def joined_labels(results) -> tuple[dict, dict, float]:
    """The pieces' labels put together, the scalars the game reports beside them (Reversi:
    ``search_scale``; the same in every piece) and what they cost (CPU-s)."""
    columns = {name: np.concatenate([r.labels[name] for r in results])
               for name in ("target", "source", "depth")}
    scalars = {}
    for r in results:
        for name, value in r.labels.items():
            if name in dataset.COLUMNS or np.ndim(value):
                continue
            value = float(value)
            if scalars.setdefault(name, value) != value:
                raise RuntimeError(f"the pieces of one batch report different {name}: "
                                   f"{scalars[name]} and {value}")
    return columns, scalars, sum(r.cpu_seconds for r in results)


def build(settings: LabelSettings, champion, out: Path, backend, resume: bool,
          header: dict) -> dict:
    """Write the dataset of ``settings`` into ``out`` (module docstring); returns the manifest.
    ``header``: what the manifest says besides (command, commit, evaluation)."""
    out.mkdir(parents=True, exist_ok=True)
    manifest = resumed_manifest(out, settings, header) if resume else new_manifest(
        out, settings, header)
    kept = list(manifest["batches"])
    ahead = 2 * max(1, backend.workers)
    pipeline = Pipeline(backend, SampleContext(settings.game, champion, settings.batch_positions,
                                               settings.seed, settings.sampling),
                        LabelContext(settings.game, champion, settings.depth,
                                     settings.exact_empties), ahead)
    seen, total, batch, empty_run = SeenKeys(), 0, 0, 0
    labelling: deque = deque()  # (batch, cells, ply, future)
    clock = Clock(settings.positions, sum(e["positions"] for e in kept))
    while total < settings.positions or labelling:
        if total < settings.positions:
            sample = pipeline.sample(batch)
            fresh = np.flatnonzero(seen.fresh(sample["key"]))[:settings.positions - total]
            seen.add(sample["key"][fresh])
            total += len(fresh)
            empty_run = 0 if len(fresh) else empty_run + 1
            if empty_run > MAX_EMPTY_BATCHES:
                raise ValueError(f"sampling gave no new position in {MAX_EMPTY_BATCHES} batches "
                                 f"in a row at {total:,} positions: widen --openings or raise "
                                 "--epsilon")
            if batch < len(kept):
                if kept[batch]["positions"] != len(fresh):
                    raise dataset.DatasetError(
                        f"{out / dataset.MANIFEST}: batch {batch} lists "
                        f"{kept[batch]['positions']} positions, its sample gives {len(fresh)} "
                        "(made by other code or settings)")
            else:
                cells, ply = sample["cells"][fresh], sample["ply"][fresh]
                labelling.append((batch, cells, ply, pipeline.label(cells, ply)))
            batch += 1
            if not labelling or (len(labelling) < ahead and total < settings.positions):
                continue
        index, cells, ply, future = labelling.popleft()
        labels, scalars, cpu = joined_labels(future.result())
        write(out, manifest, index, cells, ply, labels, scalars)
        clock.log(index, labels, total >= settings.positions and not labelling, cpu)
    manifest["complete"] = True
    dataset.write_manifest(out, manifest)
    return manifest


def write(out: Path, manifest: dict, index: int, cells, ply, labels: dict, scalars: dict
          ) -> None:
    """Batch ``index`` and then the manifest listing it; the game's scalars go to the manifest
    (each the same for every batch)."""
    entry = dataset.write_batch(out, index, {"cells": cells, "ply": ply, **labels})
    for name, value in scalars.items() if len(ply) else ():
        if manifest.setdefault(name, value) != value:
            raise RuntimeError(f"batch {index}: {name} {value} differs from the dataset's "
                               f"{manifest[name]}")
    manifest["batches"].append(entry)
    manifest["positions"] = sum(e["positions"] for e in manifest["batches"])
    dataset.write_manifest(out, manifest)


def new_manifest(out: Path, settings: LabelSettings, header: dict) -> dict:
    if (out / dataset.MANIFEST).exists():
        raise ValueError(f"--out {out}: holds a dataset already (give --resume to continue it, "
                         "or another folder)")
    manifest = {**header, "settings": asdict(settings), "game": settings.game,
                "seed": settings.seed, "exact_empties": settings.exact_empties,
                "depth": settings.depth, "positions": 0, "complete": False, "batches": []}
    dataset.write_manifest(out, manifest)
    return dataset.read_manifest(out)


def resumed_manifest(out: Path, settings: LabelSettings, header: dict) -> dict:
    manifest = dataset.read_manifest(out)
    check_resumable(manifest, settings)
    done = sum(e["positions"] for e in manifest["batches"])
    manifest["positions"], manifest["complete"] = done, False
    log.info("resumed from %s: %d batches, %s positions", out, len(manifest["batches"]),
             f"{done:,}")
    manifest.setdefault("resumed", []).append({"command": header["command"],
                                               "commit": header["commit"],
                                               "at_positions": done})
    return manifest


class Clock:
    """A log line per batch: its labels, positions/s this run, the time left."""

    def __init__(self, total: int, done: int):
        self.total, self.done, self.start_done = total, done, done
        self.started = time.monotonic()

    def log(self, index: int, labels: dict, last: bool, cpu: float) -> None:
        n = len(labels["target"])
        self.done += n
        seconds = max(time.monotonic() - self.started, 1e-9)
        rate = (self.done - self.start_done) / seconds
        left = (self.total - self.done) / max(rate, 1e-9)
        exact = int(np.sum(labels["source"] == dataset.EXACT))
        log.info("batch %d: %d positions (%d exact, %d search; %.1f CPU-s); %s/%s, %.0f "
                 "positions/s, ETA %s", index, n, exact, n - exact, cpu, f"{self.done:,}",
                 f"{self.total:,}", rate, "0s" if last else duration(left))


def duration(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    return f"{h}h{rest // 60:02d}m" if h else f"{rest // 60}m{rest % 60:02d}s"
