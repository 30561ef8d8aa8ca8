"""A labelled-position dataset on disk: a folder with ``dataset.json`` and one ``.npz`` per
batch (numpy arrays only, read with ``allow_pickle=False``).

``dataset.json`` (schema ``board-evolve/labels``, version 1) says what made the data (game,
settings, seed, exact-solve empties, search depth, the evaluation that searched, the command and
commit) and lists the finished batches in order, each with its file, position count and
SHA-256. A batch file holds, one row per position:

========== ================ =====================================================================
``cells``  uint8 [n, C]     the board's cell states from the side to move's view (the game's
                            layout encoding; Reversi: 0 empty, 1 own, 2 opponent; C cells)
``ply``    int16 [n]        moves made before the position (Reversi: discs - 4)
``target`` float32 [n]      the label: the final score for the side to move, in the game's score
                            units (Reversi: disc difference), exact or from a depth-D search
``source`` uint8 [n]        ``EXACT`` (0) or ``SEARCH`` (1)
``depth``  int8 [n]         the search depth behind a ``SEARCH`` label; the empties of an
                            ``EXACT`` one
========== ================ =====================================================================

A batch is written to a temporary name and renamed, then the manifest (likewise), so a kill -9
leaves either the batch listed and whole or not listed at all.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

SCHEMA = "board-evolve/labels"
VERSION = 1
MANIFEST = "dataset.json"
EXACT, SEARCH = 0, 1
COLUMNS = {"cells": np.uint8, "ply": np.int16, "target": np.float32, "source": np.uint8,
           "depth": np.int8}


class DatasetError(ValueError):
    """A dataset that cannot be read or extended; the message is one line naming the file and
    field at fault."""


@dataclass(frozen=True, eq=False)
class Labelled:
    """Positions and their labels, in batch order (the columns of the module docstring)."""

    cells: np.ndarray
    ply: np.ndarray
    target: np.ndarray
    source: np.ndarray
    depth: np.ndarray
    meta: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.target)

    def columns(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in COLUMNS}


def batch_name(index: int) -> str:
    return f"batch-{index:05d}.npz"


def check_columns(columns: dict) -> dict[str, np.ndarray]:
    """The columns as their schema dtypes; ``DatasetError`` naming a missing or ragged one."""
    missing = [name for name in COLUMNS if name not in columns]
    if missing:
        raise DatasetError(f"batch: column {missing[0]!r} missing (columns: {', '.join(COLUMNS)})")
    out = {name: np.ascontiguousarray(columns[name], dtype=dtype)
           for name, dtype in COLUMNS.items()}
    n = len(out["target"])
    if out["cells"].ndim != 2 or any(len(a) != n for a in out.values()):
        raise DatasetError("batch: cells must be [n, cells] and every column n rows long")
    return out


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _atomic_write(path: Path, write) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        write(f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_manifest(folder) -> dict:
    """``dataset.json`` of ``folder``, checked for schema and version; ``DatasetError``."""
    path = Path(folder) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise DatasetError(f"{path}: no such file (a dataset folder holds {MANIFEST})") from None
    except (OSError, ValueError) as err:
        raise DatasetError(f"{path}: not readable as JSON ({err})") from None
    if not isinstance(manifest, dict) or manifest.get("schema") != SCHEMA:
        raise DatasetError(f"{path}: schema: expected {SCHEMA!r}")
    if manifest.get("version") != VERSION:
        raise DatasetError(f"{path}: version: expected {VERSION}, got {manifest.get('version')!r}")
    return manifest


def write_manifest(folder, manifest: dict) -> None:
    manifest = {"schema": SCHEMA, "version": VERSION, **manifest, "batches":
                list(manifest.get("batches", []))}
    text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    _atomic_write(Path(folder) / MANIFEST, lambda f: f.write(text.encode()))


def write_batch(folder, index: int, columns: dict) -> dict:
    """Write batch ``index`` (atomically) and return its manifest entry; the caller appends the
    entry to the manifest and writes it (``write_manifest``)."""
    cols = check_columns(columns)
    path = Path(folder) / batch_name(index)
    _atomic_write(path, lambda f: np.savez(f, **cols))
    return {"index": index, "file": path.name, "positions": int(len(cols["target"])),
            "sha256": _digest(path)}


def read_batch(folder, entry: dict) -> dict[str, np.ndarray]:
    path = Path(folder) / entry["file"]
    if not path.is_file():
        raise DatasetError(f"{path}: missing (listed in {MANIFEST})")
    if _digest(path) != entry["sha256"]:
        raise DatasetError(f"{path}: sha256 differs from {MANIFEST} (the file changed)")
    with np.load(path, allow_pickle=False) as data:
        return check_columns({name: data[name] for name in data.files})


def read_dataset(folder, limit: int | None = None) -> Labelled:
    """Every listed batch of ``folder``, in order (the first ``limit`` positions if given)."""
    manifest = read_manifest(folder)
    parts, total = [], 0
    for entry in manifest["batches"]:
        if limit is not None and total >= limit:
            break
        part = read_batch(folder, entry)
        parts.append(part)
        total += len(part["target"])
    if not parts:
        raise DatasetError(f"{Path(folder) / MANIFEST}: batches: none finished yet")
    cols = {name: np.concatenate([p[name] for p in parts]) for name in COLUMNS}
    if limit is not None:
        cols = {name: a[:limit] for name, a in cols.items()}
    return Labelled(**cols, meta={k: v for k, v in manifest.items() if k != "batches"})
