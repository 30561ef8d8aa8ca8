"""The ``.npz`` form of an n-tuple network file: arrays only, loaded with ``allow_pickle=False``
and validated by turning them into the JSON file's data (``ntuple_file.network_from_dict``
checks the rest, with the same messages)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from engine.reversi.ntuple_file import (
    CELLS,
    KIND,
    SCHEMA_VERSION,
    STATES,
    VALUE,
    network_from_dict,
    network_to_dict,
)
from engine.reversi.ntuple_weights import NtupleWeights
from engine.reversi.weights import GAME, WeightsFileError
from engine.reversi.weights_json import _fail
from engine.reversi.weights_npz import _npz_metadata, _read_npz

# name -> (numpy dtype kinds allowed, number of dimensions, what the message says is expected)
NPZ_ARRAYS = {
    "schema_version": ("iu", 0, "an integer scalar"),
    "kind": ("U", 0, "a string scalar"),
    "layout_json": ("U", 0, "a string scalar"),
    "layout_spec_json": ("U", 0, "a string scalar"),
    "phase_bounds": ("iu", 1, "a 1-d integer array"),
    "weights": ("iuf", 2, "a float array (phases, weights)"),
    "features": ("iuf", 2, "a float array (phases, features)"),
    "feature_names": ("U", 1, "a 1-d string array"),
    "name": ("U", 0, "a string scalar"),
    "metadata_json": ("U", 0, "a string scalar"),
}


def is_network_npz(arrays: dict) -> bool:
    return "kind" in arrays and arrays["kind"].dtype.kind == "U" and str(arrays["kind"]) == KIND


def save_network_npz(w: NtupleWeights, path) -> None:
    d = network_to_dict(w)
    meta = {**w.metadata, "game": GAME}
    np.savez(path, schema_version=np.int64(SCHEMA_VERSION), kind=np.str_(KIND),
             layout_json=np.str_(json.dumps(d["layout"])),
             layout_spec_json=np.str_(json.dumps(d["layout_spec"])),
             phase_bounds=np.asarray(w.phase_bounds, np.int64), weights=w.weights,
             features=w.features, feature_names=np.asarray(w.feature_names, dtype=str),
             name=np.str_(w.name), metadata_json=np.str_(json.dumps(meta, allow_nan=False)))


def _json_array(arrays, key: str):
    try:
        return json.loads(str(arrays[key]))
    except (json.JSONDecodeError, RecursionError) as e:
        _fail(key, f"invalid JSON ({getattr(e, 'msg', 'nested too deeply')})")


def _npz_to_dict(arrays: dict) -> dict:
    missing = [k for k in NPZ_ARRAYS if k not in arrays]
    if missing:
        _fail("", f"missing array(s) {missing}")
    unknown = sorted(set(arrays) - set(NPZ_ARRAYS))
    if unknown:
        _fail("", f"unknown array(s) {unknown}")
    for key, (kinds, ndim, what) in NPZ_ARRAYS.items():
        a = arrays[key]
        if a.dtype.kind not in kinds or a.ndim != ndim:
            _fail(key, f"expected {what}, got an array of shape {a.shape} and dtype {a.dtype}")
    meta = _npz_metadata(str(arrays["metadata_json"]))
    weights, features = arrays["weights"], arrays["features"]
    names = [str(x) for x in arrays["feature_names"]]
    if features.shape != (weights.shape[0], len(names)):
        _fail("features", f"expected ({weights.shape[0]}, {len(names)}) for the weights' phases "
              f"and feature_names, got {features.shape}")
    return {
        "schema_version": int(arrays["schema_version"]), "game": meta.pop("game", GAME),
        "kind": str(arrays["kind"]), "variant": meta.pop("variant", None),
        "name": str(arrays["name"]), "cells": CELLS, "states": STATES, "value": VALUE,
        "layout_spec": _json_array(arrays, "layout_spec_json"),
        "layout": _json_array(arrays, "layout_json"),
        "phase_bounds": [int(b) for b in arrays["phase_bounds"]], "feature_names": names,
        "phases": [{"weights": weights[p].tolist(),
                    "features": dict(zip(names, features[p].tolist(), strict=True))}
                   for p in range(weights.shape[0])],
        "metadata": meta,
    }


def network_from_arrays(path: Path, arrays: dict) -> NtupleWeights:
    """The network of an npz file's arrays (``_read_npz``); ``WeightsFileError`` naming the
    file and the field."""
    try:
        return network_from_dict(_npz_to_dict(arrays))
    except WeightsFileError as e:
        raise WeightsFileError(f"{path}: {e}") from None


def load_network_npz(path: Path) -> NtupleWeights:
    return network_from_arrays(path, _read_npz(path))
