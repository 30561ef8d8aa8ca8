"""The ``.npz`` form of a Reversi weights file: arrays only, loaded with
``allow_pickle=False``, validated by turning the arrays into the JSON file's dict
(``squares_json.weights_from_dict`` checks the rest, with the same messages)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from engine.core.champions.files import read_npz_arrays
from engine.core.game import ChampionFileError
from engine.reversi.files.squares_json import _exactly, _fail, weights_from_dict
from engine.reversi.genome.weights import (
    GAME,
    SCHEMA_VERSION,
    Weights,
    WeightsFileError,
    naming_file,
)


def save_npz(w: Weights, path) -> None:
    meta = dict(w.metadata)
    meta.setdefault("game", GAME)
    np.savez(
        path,
        schema_version=np.int64(SCHEMA_VERSION),
        phase_bounds=np.asarray(w.phase_bounds, np.int64),
        positional=w.positional.reshape(-1, 8, 8),
        features=w.features,
        feature_names=np.asarray(w.feature_names, dtype=str),  # str even when empty
        symmetric=np.bool_(w.symmetric),
        name=np.str_(w.name),
        metadata_json=np.str_(json.dumps(meta, allow_nan=False)),
    )


STRING_SCALAR = ("U", 0, "a string scalar")


def npz_arrays(**own) -> dict[str, tuple[str, int, str]]:
    """name -> (numpy dtype kinds allowed, number of dimensions, what the message says is
    expected) of a weights archive: the arrays every kind holds, and its ``own``."""
    return {
        "schema_version": ("iu", 0, "an integer scalar"),
        **own,
        "phase_bounds": ("iu", 1, "a 1-d integer array"),
        "feature_names": ("U", 1, "a 1-d string array"),
        "name": STRING_SCALAR,
        "metadata_json": STRING_SCALAR,
    }


NPZ_ARRAYS = npz_arrays(
    positional=("iuf", 3, "a float array (n, 8, 8)"),
    features=("iuf", 2, "a float array (n, features)"),
    symmetric=("b", 0, "a boolean scalar"),
)


def _read_npz(path: Path) -> dict[str, np.ndarray]:
    """Every array of the archive (``read_npz_arrays``), its one clear error a
    ``WeightsFileError``."""
    try:
        return read_npz_arrays(path)
    except ChampionFileError as e:
        raise WeightsFileError(str(e)) from None


def _check_npz_arrays(arrays: dict[str, np.ndarray], expected: dict | None = None) -> None:
    """Every array of ``expected`` (default ``NPZ_ARRAYS``) present and no other, each with its
    dtype kind and dimensions."""
    expected = NPZ_ARRAYS if expected is None else expected
    _exactly("", arrays, expected, "array")
    for key, (kinds, ndim, what) in expected.items():
        a = arrays[key]
        if a.dtype.kind not in kinds or a.ndim != ndim:
            _fail(key, f"expected {what}, got an array of shape {a.shape} and dtype {a.dtype}")
    if int(arrays["schema_version"]) != SCHEMA_VERSION:
        _fail("schema_version", f"expected {SCHEMA_VERSION}, got {int(arrays['schema_version'])}")


def _npz_metadata(text: str) -> dict:
    try:
        meta = json.loads(
            text, parse_constant=lambda c: _fail("metadata_json", f"{c} is not allowed")
        )
    except (json.JSONDecodeError, RecursionError) as e:
        _fail("metadata_json", f"invalid JSON ({getattr(e, 'msg', 'nested too deeply')})")
    if not isinstance(meta, dict):
        _fail("metadata_json", f"expected a JSON object, got {type(meta).__name__}")
    return meta


def _npz_to_dict(arrays: dict[str, np.ndarray]) -> dict:
    """The arrays as the JSON file's dict, so that ``weights_from_dict`` validates the rest."""
    _check_npz_arrays(arrays)
    meta = _npz_metadata(str(arrays["metadata_json"]))
    pos, feats, bounds = arrays["positional"], arrays["features"], arrays["phase_bounds"]
    names = [str(x) for x in arrays["feature_names"]]
    n = len(bounds) + 1
    if pos.shape != (n, 8, 8) or feats.shape != (n, len(names)):
        _fail(
            "",
            f"positional must be ({n}, 8, 8) and features ({n}, {len(names)}) for "
            f"{len(bounds)} phase bound(s), got {pos.shape} and {feats.shape}",
        )
    return {
        "schema_version": SCHEMA_VERSION,
        "game": meta.pop("game", GAME),
        "variant": meta.pop("variant", None),
        "name": str(arrays["name"]),
        "symmetric": bool(arrays["symmetric"]),
        "phase_bounds": [int(b) for b in bounds],
        "feature_names": names,
        "phases": [
            {
                "positional": pos[p].tolist(),
                "features": dict(zip(names, feats[p].tolist(), strict=True)),
            }
            for p in range(n)
        ],
        "metadata": meta,
    }


def load_npz(path: Path) -> Weights:
    return weights_from_arrays(path, _read_npz(path))


def weights_from_arrays(path: Path, arrays: dict[str, np.ndarray]) -> Weights:
    """The ``Weights`` of an archive's arrays (``_read_npz``); ``WeightsFileError`` naming the
    file and the field."""
    with naming_file(path):
        return weights_from_dict(_npz_to_dict(arrays))
