"""Reading and writing weights files, with validation that says exactly what is wrong.

JSON (schema version 1), keys in this order::

    schema_version  1
    game            "reversi"
    variant         "othello" | "reversed" | null (the rules the weights were made for)
    name            free text
    symmetric       true if every positional matrix is tied under the 8 board symmetries
    phase_bounds    disc counts where phases 1..n-1 start (strictly increasing)
    feature_names   names of the per-phase scalar features
    phases          one object per phase:
        discs       [first, last] disc count of the phase (informative, checked)
        positional  8 rows of 8 numbers: rows a1..h1, a2..h2, ..., a8..h8
        features    {feature name: weight}
    metadata        free object: "search" (settings the weights were made with), "provenance", ...

``.npz``: arrays ``schema_version``, ``phase_bounds`` (int), ``positional`` (n, 8, 8),
``features`` (n, F), ``feature_names`` (str), ``symmetric`` (bool), ``name`` (str) and
``metadata_json`` (str, the JSON object above's ``metadata`` plus game/variant); loaded with
``allow_pickle=False``.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np

from engine.weights import (
    FEATURE_NAMES,
    GAME,
    SCHEMA_VERSION,
    Weights,
    WeightsFileError,
)

TOP_KEYS = (
    "schema_version",
    "game",
    "variant",
    "name",
    "symmetric",
    "phase_bounds",
    "feature_names",
    "phases",
    "metadata",
)
VARIANTS = ("othello", "reversed")


def weights_to_dict(w: Weights) -> dict:
    meta = {k: v for k, v in w.metadata.items() if k not in ("game", "variant")}
    phases = []
    for p in range(w.n_phases):
        phases.append(
            {
                "discs": list(w.phase_discs(p)),
                "positional": w.positional[p].reshape(8, 8).tolist(),
                "features": {
                    n: float(v) for n, v in zip(FEATURE_NAMES, w.features[p], strict=True)
                },
            }
        )
    return {
        "schema_version": SCHEMA_VERSION,
        "game": GAME,
        "variant": w.metadata.get("variant"),
        "name": w.name,
        "symmetric": w.symmetric,
        "phase_bounds": list(w.phase_bounds),
        "feature_names": list(FEATURE_NAMES),
        "phases": phases,
        "metadata": meta,
    }


_NUMBER_LIST = re.compile(r"\[\s*(-?[0-9][-0-9.eE+]*(?:,\s*-?[0-9][-0-9.eE+]*)*)\s*\]")


def dumps(w: Weights) -> str:
    """Indented JSON with every innermost list of numbers (a matrix row) on one line."""
    text = json.dumps(weights_to_dict(w), indent=2, allow_nan=False)
    return (
        _NUMBER_LIST.sub(lambda m: "[" + ", ".join(re.split(r",\s*", m.group(1))) + "]", text)
        + "\n"
    )


def save_json(w: Weights, path) -> None:
    Path(path).write_text(dumps(w), encoding="utf-8")


def save_npz(w: Weights, path) -> None:
    meta = dict(w.metadata)
    meta.setdefault("game", GAME)
    np.savez(
        path,
        schema_version=np.int64(SCHEMA_VERSION),
        phase_bounds=np.asarray(w.phase_bounds, np.int64),
        positional=w.positional.reshape(-1, 8, 8),
        features=w.features,
        feature_names=np.asarray(FEATURE_NAMES),
        symmetric=np.bool_(w.symmetric),
        name=np.str_(w.name),
        metadata_json=np.str_(json.dumps(meta, allow_nan=False)),
    )


# --- validation -----------------------------------------------------------------------------


def _fail(where: str, msg: str):
    raise WeightsFileError(f"{where}: {msg}" if where else msg)


def _number(x, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        _fail(where, f"expected a number, got {type(x).__name__} {x!r}")
    if not math.isfinite(x):
        _fail(where, f"expected a finite number, got {x!r}")
    return float(x)


def _matrix(rows, where: str) -> np.ndarray:
    if not isinstance(rows, list):
        _fail(where, f"expected 8 rows of 8 numbers, got {type(rows).__name__}")
    if len(rows) != 8:
        _fail(where, f"expected 8 rows of 8 numbers, got {len(rows)} rows")
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != 8:
            got = f"{len(row)} numbers" if isinstance(row, list) else type(row).__name__
            _fail(f"{where}[{r}]", f"expected a row of 8 numbers, got {got}")
    return np.array(
        [
            [_number(v, f"{where}[{r}][{c}]") for c, v in enumerate(row)]
            for r, row in enumerate(rows)
        ]
    ).reshape(64)


def _phase(d, p: int, names: list[str]) -> tuple[np.ndarray, np.ndarray, list]:
    where = f"phases[{p}]"
    if not isinstance(d, dict):
        _fail(where, f"expected an object, got {type(d).__name__}")
    for key in ("positional", "features"):
        if key not in d:
            _fail(where, f"missing key {key!r}")
    unknown = sorted(set(d) - {"discs", "positional", "features"})
    if unknown:
        _fail(where, f"unknown key(s) {unknown}")
    positional = _matrix(d["positional"], f"{where}.positional")
    feats = d["features"]
    if not isinstance(feats, dict):
        _fail(f"{where}.features", f"expected an object name -> weight, got {type(feats).__name__}")
    if set(feats) != set(names):
        missing, extra = sorted(set(names) - set(feats)), sorted(set(feats) - set(names))
        _fail(
            f"{where}.features", f"keys must equal feature_names (missing {missing}, extra {extra})"
        )
    # Features this version knows but the file lacks (an older file) weigh 0.
    features = np.array(
        [_number(feats[n], f"{where}.features.{n}") if n in feats else 0.0 for n in FEATURE_NAMES]
    )
    return positional, features, d.get("discs")


def weights_from_dict(d) -> Weights:
    if not isinstance(d, dict):
        _fail("", f"expected a JSON object at the top level, got {type(d).__name__}")
    version = d.get("schema_version")
    if version != SCHEMA_VERSION:
        _fail("schema_version", f"expected {SCHEMA_VERSION}, got {version!r}")
    for key in TOP_KEYS:
        if key not in d:
            _fail("", f"missing key {key!r}")
    unknown = sorted(set(d) - set(TOP_KEYS))
    if unknown:
        _fail("", f"unknown top-level key(s) {unknown}")
    if d["game"] != GAME:
        _fail("game", f"expected {GAME!r}, got {d['game']!r}")
    if d["variant"] is not None and d["variant"] not in VARIANTS:
        _fail("variant", f"expected one of {list(VARIANTS)} or null, got {d['variant']!r}")
    if not isinstance(d["name"], str):
        _fail("name", f"expected a string, got {type(d['name']).__name__}")
    if not isinstance(d["symmetric"], bool):
        _fail("symmetric", f"expected true or false, got {d['symmetric']!r}")
    if not isinstance(d["metadata"], dict):
        _fail("metadata", f"expected an object, got {type(d['metadata']).__name__}")
    bounds = d["phase_bounds"]
    if not isinstance(bounds, list) or not all(type(b) is int for b in bounds):
        _fail("phase_bounds", f"expected a list of integers, got {bounds!r}")
    names = d["feature_names"]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        _fail("feature_names", f"expected a list of strings, got {names!r}")
    unknown = sorted(set(names) - set(FEATURE_NAMES))
    if unknown:
        _fail("feature_names", f"unknown feature(s) {unknown} (known: {list(FEATURE_NAMES)})")
    phases = d["phases"]
    if not isinstance(phases, list) or len(phases) != len(bounds) + 1:
        got = len(phases) if isinstance(phases, list) else type(phases).__name__
        _fail("phases", f"expected {len(bounds) + 1} phases (len(phase_bounds) + 1), got {got}")
    parsed = [_phase(ph, p, names) for p, ph in enumerate(phases)]
    meta = dict(d["metadata"])
    meta["game"] = d["game"]
    if d["variant"] is not None:
        meta["variant"] = d["variant"]
    try:
        w = Weights(
            tuple(bounds),
            np.array([p[0] for p in parsed]),
            np.array([p[1] for p in parsed]),
            d["symmetric"],
            d["name"],
            meta,
        )
    except ValueError as e:
        raise WeightsFileError(str(e)) from None
    for p, (_, _, discs) in enumerate(parsed):
        if discs is not None and list(discs) != list(w.phase_discs(p)):
            _fail(
                f"phases[{p}].discs",
                f"expected {list(w.phase_discs(p))} from phase_bounds, got {discs!r}",
            )
    return w


def _load_json(path: Path) -> Weights:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        _fail(str(path), "not a UTF-8 text file")
    try:
        data = json.loads(text, parse_constant=lambda c: _fail(str(path), f"{c} is not allowed"))
    except json.JSONDecodeError as e:
        what = "truncated JSON" if e.pos >= len(text.rstrip()) else "invalid JSON"
        _fail(str(path), f"{what} at line {e.lineno} column {e.colno}: {e.msg}")
    try:
        return weights_from_dict(data)
    except WeightsFileError as e:
        raise WeightsFileError(f"{path}: {e}") from None


def _load_npz(path: Path) -> Weights:
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (ValueError, OSError) as e:
        _fail(str(path), f"not a readable .npz weights file ({e})")
    need = (
        "schema_version",
        "phase_bounds",
        "positional",
        "features",
        "feature_names",
        "symmetric",
        "name",
        "metadata_json",
    )
    missing = [k for k in need if k not in arrays]
    if missing:
        _fail(str(path), f"missing array(s) {missing}")
    if int(arrays["schema_version"]) != SCHEMA_VERSION:
        _fail(
            f"{path}: schema_version",
            f"expected {SCHEMA_VERSION}, got {int(arrays['schema_version'])}",
        )
    try:
        meta = json.loads(str(arrays["metadata_json"]))
    except json.JSONDecodeError as e:
        _fail(f"{path}: metadata_json", f"invalid JSON ({e.msg})")
    names = [str(n) for n in arrays["feature_names"]]
    pos, feats = arrays["positional"], arrays["features"]
    n = len(arrays["phase_bounds"]) + 1
    if pos.shape != (n, 8, 8) or feats.shape != (n, len(names)):
        _fail(
            str(path),
            f"positional must be ({n}, 8, 8) and features ({n}, {len(names)}), "
            f"got {pos.shape} and {feats.shape}",
        )
    d = {
        "schema_version": SCHEMA_VERSION,
        "game": meta.pop("game", GAME),
        "variant": meta.pop("variant", None),
        "name": str(arrays["name"]),
        "symmetric": bool(arrays["symmetric"]),
        "phase_bounds": [int(b) for b in arrays["phase_bounds"]],
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
    try:
        return weights_from_dict(d)
    except WeightsFileError as e:
        raise WeightsFileError(f"{path}: {e}") from None


def load_weights(path) -> Weights:
    path = Path(path)
    if not path.is_file():
        _fail(str(path), "no such weights file")
    if path.suffix.lower() == ".npz":
        return _load_npz(path)
    return _load_json(path)
