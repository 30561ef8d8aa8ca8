"""Reading and writing Reversi weights files: the entry points. ``load_weights`` reads either
form (by the suffix: ``.npz`` or JSON) through one validator; ``save_json`` / ``save_npz``
write them. The JSON schema is documented in ``engine.reversi.weights_json``, the arrays of the
npz form in ``engine.reversi.weights_npz``. ``load_evaluation`` reads square tables or an
n-tuple network (``game.genome.kind: ntuple``: ``engine.reversi.network_files``, and the
schema-1 files of ``engine.reversi.network_files_v1``), whichever the file holds."""

from __future__ import annotations

from pathlib import Path

from engine.reversi import network_files
from engine.reversi.network import NtupleWeights
from engine.reversi.network_files_v1 import (
    KIND,
    is_network_npz,
    network_from_arrays,
    network_from_dict,
)
from engine.reversi.weights import DATA_DIR, REFERENCE_NAMES, Weights, WeightsFileError
from engine.reversi.weights_json import (
    _fail,
    _load_json,
    dumps,
    read_json,
    save_json,
    weights_from_dict,
    weights_to_dict,  # noqa: F401 - part of this API
)
from engine.reversi.weights_npz import _read_npz, load_npz, save_npz, weights_from_arrays

__all__ = ["NtupleWeights", "Weights", "WeightsFileError", "dumps", "load_evaluation",
           "load_weights", "reference_weights", "save_evaluation", "save_json", "save_npz",
           "save_npz_evaluation",
           "weights_from_dict", "weights_to_dict"]


def load_weights(path) -> Weights:
    path = Path(path)
    if not path.is_file():
        _fail(str(path), "no such weights file")
    if path.suffix.lower() == ".npz":
        return load_npz(path)
    return _load_json(path)


def load_evaluation(path) -> Weights | NtupleWeights:
    """A square-table weights file or an n-tuple network file, told apart by their content
    (``"kind": "ntuple"``, in the npz form a ``kind`` or ``header_json`` array);
    ``WeightsFileError`` naming the file and the field."""
    path = Path(path)
    if not path.is_file():
        _fail(str(path), "no such weights file")
    if path.suffix.lower() == ".npz":
        arrays = _read_npz(path)
        if "header_json" in arrays:
            return network_files.load_npz(path, arrays)
        if is_network_npz(arrays):
            return network_from_arrays(path, arrays)
        return weights_from_arrays(path, arrays)
    data = read_json(path)
    if isinstance(data, dict) and data.get("kind") == KIND and data.get("schema_version") != 1:
        return network_files.load(path, data)
    try:
        if isinstance(data, dict) and data.get("kind") == KIND:
            return network_from_dict(data)
        return weights_from_dict(data)
    except WeightsFileError as e:
        raise WeightsFileError(f"{path}: {e}") from None


def save_evaluation(w: Weights | NtupleWeights, path) -> None:
    """The JSON file of either kind: square tables or a network."""
    if isinstance(w, NtupleWeights):
        network_files.save(path, w)
    else:
        save_json(w, path)


def save_npz_evaluation(w: Weights | NtupleWeights, path) -> None:
    """The ``.npz`` file of either kind."""
    if isinstance(w, NtupleWeights):
        network_files.save(path, w, npz=True)
    else:
        save_npz(w, path)


def reference_weights(name: str) -> Weights:
    """One of the shipped reference weight sets (``REFERENCE_NAMES``), loaded from its file."""
    if name not in REFERENCE_NAMES:
        raise ValueError(
            f"unknown reference weights {name!r} (allowed: {', '.join(REFERENCE_NAMES)})"
        )
    return load_weights(DATA_DIR / f"{name}.json")
