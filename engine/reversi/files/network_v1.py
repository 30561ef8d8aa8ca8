"""Reading the network files of schema version 1: every n-tuple network file written before
schema 2 (``engine.reversi.files.network``), committed champions and exported files alike.
Nothing writes this form any more; ``python -m evolve.export old.json --format json --out
new.json`` rewrites a file in schema 2 (the same weights).

JSON, keys in this order::

    schema_version  1
    game            "reversi"
    kind            "ntuple" (square-table files have no such key)
    variant         "othello" | "reversed" | null (the rules the network was made for)
    name            free text
    cells           how squares are numbered (a1 = 0, ..., h8 = 63: 8 * (rank - 1) + file)
    states          ["empty", "side to move", "opponent"]: the digit of each state
    value           how a position is evaluated (the formula below, in words)
    layout_spec     {"family": "straight2", "symmetry": "d4"} the layout was built from, or null
    layout          the layout JSON (``engine.kernels.ntuple.layout_to_json``): tuples,
                    symmetries, lut_offsets, instances
    phase_bounds    disc counts where phases 1..n-1 start (strictly increasing)
    feature_names   the scalar features per phase (as in the square-table file)
    phases          one object per phase:
        discs       [first, last] disc count of the phase (informative, checked)
        weights     layout.lut_offsets[-1] numbers: every LUT, one after another
        features    {feature name: weight}
    metadata        free object: "command" (what made the file, when given), "search",
                    "provenance", "td" (self-play settings), ...

The value of a position for the side to move, in a phase chosen by its number of discs:
``sum over layout.instances [lut, cells] of weights[lut_offsets[lut] + index]`` with
``index = 0; for c in cells: index = 3 * index + state(c)``, plus ``features . counts``; a
finished game is scored by its result instead.

``.npz``: arrays ``schema_version``, ``kind``, ``layout_json`` and ``layout_spec_json``
(strings), ``phase_bounds``, ``weights`` (n, W), ``features`` (n, F), ``feature_names``,
``name``, ``metadata_json`` (the metadata plus game and variant); loaded with
``allow_pickle=False`` and validated as the JSON form (``network_from_arrays``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from engine.kernels import ntuple as nt
from engine.kernels.ntuple.layout import LayoutError
from engine.reversi.files.squares_json import (
    VARIANTS,
    _exactly,
    _fail,
    _number,
    _short,
    read_json,
)
from engine.reversi.files.squares_npz import (
    STRING_SCALAR,
    _check_npz_arrays,
    _npz_metadata,
    npz_arrays,
)
from engine.reversi.genome.evaluation import ALL_FEATURE_NAMES
from engine.reversi.genome.layout import FEATURE_GROUPS, groups_of_features
from engine.reversi.genome.network import NtupleWeights, family_layout
from engine.reversi.genome.weights import GAME, WeightsFileError, naming_file

SCHEMA_VERSION = 1
KIND = "ntuple"
CELLS = "square = 8 * (rank - 1) + file: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63"
STATES = ["empty", "side to move", "opponent"]
VALUE = ("side to move's view, in the phase of the number of discs: sum over layout.instances "
         "[lut, cells] of phases[p].weights[layout.lut_offsets[lut] + index], index = 0; for c "
         "in cells: index = 3 * index + state(c); plus sum of phases[p].features[name] * the "
         "feature's count; a finished game is scored by its result instead")
TOP_KEYS = ("schema_version", "game", "kind", "variant", "name", "cells", "states", "value",
            "layout_spec", "layout", "phase_bounds", "feature_names", "phases", "metadata")
DESCRIPTIVE = ("cells", "states", "value")  # for readers; checked only for presence


def _layout(d: dict):
    try:
        layout = nt.layout_from_json(d["layout"])
        nt.check_bitboard_layout(layout)
    except LayoutError as e:
        _fail("layout", str(e))
    if layout.n_cells != 64:
        _fail("layout.cells", f"expected 64 (the squares), got {layout.n_cells}")
    spec = d["layout_spec"]
    if spec is None:
        return layout, None, None
    if not (isinstance(spec, dict) and set(spec) == {"family", "symmetry"}
            and all(isinstance(v, str) for v in spec.values())):
        _fail("layout_spec", f"expected null or {{\"family\": ..., \"symmetry\": ...}}, got "
              f"{_short(spec)}")
    try:
        built = family_layout(spec["family"], spec["symmetry"])
    except LayoutError as e:
        _fail("layout_spec", str(e))
    if built != layout:
        _fail("layout_spec", "does not build the layout the file holds (set it to null)")
    return built, spec["family"], spec["symmetry"]  # the shared object: tables built once


def _phase(d, p: int, n_weights: int, names: list[str]) -> tuple[np.ndarray, list, object]:
    where = f"phases[{p}]"
    if not isinstance(d, dict) or set(d) - {"discs", "weights", "features"} or not {
            "weights", "features"} <= set(d):
        _fail(where, "expected an object with weights, features (and discs)")
    row = d["weights"]
    if not isinstance(row, list) or len(row) != n_weights:
        got = f"{len(row)} numbers" if isinstance(row, list) else type(row).__name__
        _fail(f"{where}.weights", f"expected {n_weights} numbers (layout.lut_offsets[-1]), "
              f"got {got}")
    weights = np.array([_number(v, f"{where}.weights[{i}]") for i, v in enumerate(row)])
    feats = d["features"]
    if not isinstance(feats, dict) or set(feats) != set(names):
        _fail(f"{where}.features", f"expected an object with the keys of feature_names "
              f"{names}, got {_short(feats)}")
    return weights, [_number(feats[n], f"{where}.features.{n}") for n in names], d.get("discs")


def _check_top(d) -> None:
    if not isinstance(d, dict):
        _fail("", f"expected a JSON object at the top level, got {type(d).__name__}")
    if d.get("schema_version") != SCHEMA_VERSION or type(d.get("schema_version")) is not int:
        _fail("schema_version", f"expected {SCHEMA_VERSION}, got {_short(d.get('schema_version'))}")
    _exactly("", d, TOP_KEYS, "key", "top-level key")
    for key, expected in (("game", GAME), ("kind", KIND)):
        if d[key] != expected:
            _fail(key, f"expected {expected!r}, got {_short(d[key])}")
    if d["variant"] is not None and d["variant"] not in VARIANTS:
        _fail("variant", f"expected one of {list(VARIANTS)} or null, got {_short(d['variant'])}")
    if not isinstance(d["name"], str):
        _fail("name", f"expected a string, got {type(d['name']).__name__}")
    if not isinstance(d["metadata"], dict):
        _fail("metadata", f"expected an object, got {type(d['metadata']).__name__}")


def _feature_names(names) -> list[str]:
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or len(
            set(names)) != len(names):
        _fail("feature_names", f"expected a list of distinct strings, got {_short(names)}")
    unknown = sorted(set(names) - set(ALL_FEATURE_NAMES))
    if unknown:
        _fail("feature_names", f"unknown feature(s) {unknown} (known: {list(ALL_FEATURE_NAMES)})")
    groups = groups_of_features(names)
    if tuple(names) != tuple(n for g in groups for n in FEATURE_GROUPS[g]):
        _fail("feature_names", "expected whole feature groups in catalogue order (mobility, "
              f"stability, corners, parity), got {names}")
    return names


def network_from_dict(d) -> NtupleWeights:
    """The network a file's data holds; ``WeightsFileError`` naming the field otherwise."""
    _check_top(d)
    layout, family, symmetry = _layout(d)
    bounds = d["phase_bounds"]
    if not isinstance(bounds, list) or not all(type(b) is int for b in bounds):
        _fail("phase_bounds", f"expected a list of integers, got {_short(bounds)}")
    names = _feature_names(d["feature_names"])
    phases = d["phases"]
    if not isinstance(phases, list) or len(phases) != len(bounds) + 1:
        got = len(phases) if isinstance(phases, list) else type(phases).__name__
        _fail("phases", f"expected {len(bounds) + 1} phases (len(phase_bounds) + 1), got {got}")
    parsed = [_phase(ph, p, layout.n_weights, names) for p, ph in enumerate(phases)]
    meta = {**d["metadata"], "game": d["game"]}
    if d["variant"] is not None:
        meta["variant"] = d["variant"]
    try:
        w = NtupleWeights(layout, tuple(bounds), np.array([p[0] for p in parsed]),
                          np.array([p[1] for p in parsed]).reshape(len(parsed), len(names)),
                          groups_of_features(names), d["name"], meta, family, symmetry)
    except ValueError as e:  # bounds order, magnitude: NtupleWeights says what is wrong
        raise WeightsFileError(str(e)) from None
    for p, (_, _, discs) in enumerate(parsed):
        if discs is not None and discs != list(w.phase_discs(p)):
            _fail(f"phases[{p}].discs", f"expected {list(w.phase_discs(p))} from phase_bounds, "
                  f"got {_short(discs)}")
    return w


def load_network_json(path: Path) -> NtupleWeights:
    data = read_json(path)
    with naming_file(path):
        return network_from_dict(data)


NPZ_ARRAYS = npz_arrays(
    kind=STRING_SCALAR,
    layout_json=STRING_SCALAR,
    layout_spec_json=STRING_SCALAR,
    weights=("iuf", 2, "a float array (phases, weights)"),
    features=("iuf", 2, "a float array (phases, features)"),
)


def is_network_npz(arrays: dict) -> bool:
    return "kind" in arrays and arrays["kind"].dtype.kind == "U" and str(arrays["kind"]) == KIND


def _json_array(arrays, key: str):
    try:
        return json.loads(str(arrays[key]))
    except (json.JSONDecodeError, RecursionError) as e:
        _fail(key, f"invalid JSON ({getattr(e, 'msg', 'nested too deeply')})")


def _npz_to_dict(arrays: dict) -> dict:
    _check_npz_arrays(arrays, NPZ_ARRAYS)
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
    with naming_file(path):
        return network_from_dict(_npz_to_dict(arrays))
