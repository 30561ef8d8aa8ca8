"""Reading and writing Reversi weights files: the entry points. ``load_weights`` reads either
form (by the suffix: ``.npz`` or JSON) through one validator; ``save_json`` / ``save_npz``
write them. The JSON schema is documented in ``engine.reversi.weights_json``, the arrays of the
npz form in ``engine.reversi.weights_npz``."""

from __future__ import annotations

from pathlib import Path

from engine.reversi.weights import DATA_DIR, REFERENCE_NAMES, Weights, WeightsFileError
from engine.reversi.weights_json import (
    _fail,
    _load_json,
    dumps,
    save_json,
    weights_from_dict,
    weights_to_dict,  # noqa: F401 - part of this API
)
from engine.reversi.weights_npz import load_npz, save_npz

__all__ = ["Weights", "WeightsFileError", "dumps", "load_weights", "reference_weights",
           "save_json", "save_npz", "weights_from_dict", "weights_to_dict"]


def load_weights(path) -> Weights:
    path = Path(path)
    if not path.is_file():
        _fail(str(path), "no such weights file")
    if path.suffix.lower() == ".npz":
        return load_npz(path)
    return _load_json(path)


def reference_weights(name: str) -> Weights:
    """One of the shipped reference weight sets (``REFERENCE_NAMES``), loaded from its file."""
    if name not in REFERENCE_NAMES:
        raise ValueError(
            f"unknown reference weights {name!r} (allowed: {', '.join(REFERENCE_NAMES)})"
        )
    return load_weights(DATA_DIR / f"{name}.json")
