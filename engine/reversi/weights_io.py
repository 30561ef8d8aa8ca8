"""Reading and writing weights files, with validation that says exactly what is wrong.

JSON (schema version 1), keys in this order::

    schema_version  1
    game            "reversi"
    variant         "othello" | "reversed" | null (the rules the weights were made for)
    name            free text
    symmetric       true if every positional matrix is tied under the 8 board symmetries
    phase_bounds    disc counts where phases 1..n-1 start (strictly increasing)
    feature_names   names of the per-phase scalar features: the features of the weights'
                    feature groups (which the names give back; a group whose names are only
                    partly listed, as in a hand-written file, gets 0 for the others)
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

from engine.reversi.weights import (
    ALL_FEATURE_NAMES,
    DATA_DIR,
    GAME,
    REFERENCE_NAMES,
    SCHEMA_VERSION,
    Weights,
    WeightsFileError,
    group_feature_names,
    groups_of_features,
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
                    n: float(v) for n, v in zip(w.feature_names, w.features[p], strict=True)
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
        "feature_names": list(w.feature_names),
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
        feature_names=np.asarray(w.feature_names, dtype=str),  # str even when empty
        symmetric=np.bool_(w.symmetric),
        name=np.str_(w.name),
        metadata_json=np.str_(json.dumps(meta, allow_nan=False)),
    )


# --- validation -----------------------------------------------------------------------------


def _fail(where: str, msg: str):
    raise WeightsFileError(f"{where}: {msg}" if where else msg)


def _number(x, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        _fail(where, f"expected a number, got {type(x).__name__} {_short(x)}")
    try:
        value = float(x)  # a JSON integer may be too large for a float
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        _fail(where, f"expected a finite number, got {_short(x)}")
    return value


def _short(x, limit: int = 60) -> str:
    text = repr(x)
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


def _phase(d, p: int, names: list[str], columns: tuple[str, ...]) -> tuple[np.ndarray,
                                                                           np.ndarray, list]:
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
    # Features of the file's groups that it does not list weigh 0.
    features = np.array(
        [_number(feats[n], f"{where}.features.{n}") if n in feats else 0.0 for n in columns]
    )
    discs = d.get("discs")
    if discs is not None and not (
        isinstance(discs, list) and len(discs) == 2 and all(type(x) is int for x in discs)
    ):
        _fail(f"{where}.discs", f"expected [first, last] disc counts, got {_short(discs)}")
    return positional, features, discs


def weights_from_dict(d) -> Weights:
    if not isinstance(d, dict):
        _fail("", f"expected a JSON object at the top level, got {type(d).__name__}")
    version = d.get("schema_version")
    if type(version) is not int or version != SCHEMA_VERSION:
        _fail("schema_version", f"expected {SCHEMA_VERSION}, got {_short(version)}")
    for key in TOP_KEYS:
        if key not in d:
            _fail("", f"missing key {key!r}")
    unknown = sorted(set(d) - set(TOP_KEYS))
    if unknown:
        _fail("", f"unknown top-level key(s) {unknown}")
    if not isinstance(d["game"], str) or d["game"] != GAME:
        _fail("game", f"expected {GAME!r}, got {_short(d['game'])}")
    if d["variant"] is not None and not (
        isinstance(d["variant"], str) and d["variant"] in VARIANTS
    ):
        _fail("variant", f"expected one of {list(VARIANTS)} or null, got {_short(d['variant'])}")
    if not isinstance(d["name"], str):
        _fail("name", f"expected a string, got {type(d['name']).__name__}")
    if not isinstance(d["symmetric"], bool):
        _fail("symmetric", f"expected true or false, got {_short(d['symmetric'])}")
    if not isinstance(d["metadata"], dict):
        _fail("metadata", f"expected an object, got {type(d['metadata']).__name__}")
    bounds = d["phase_bounds"]
    if not isinstance(bounds, list) or not all(type(b) is int for b in bounds):
        _fail("phase_bounds", f"expected a list of integers, got {_short(bounds)}")
    names = d["feature_names"]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        _fail("feature_names", f"expected a list of strings, got {_short(names)}")
    if len(set(names)) != len(names):
        _fail("feature_names", f"names must be distinct, got {names}")
    unknown = sorted(set(names) - set(ALL_FEATURE_NAMES))
    if unknown:
        _fail("feature_names", f"unknown feature(s) {unknown} (known: {list(ALL_FEATURE_NAMES)})")
    groups = groups_of_features(names)
    phases = d["phases"]
    if not isinstance(phases, list) or len(phases) != len(bounds) + 1:
        got = len(phases) if isinstance(phases, list) else type(phases).__name__
        _fail("phases", f"expected {len(bounds) + 1} phases (len(phase_bounds) + 1), got {got}")
    columns = group_feature_names(groups)
    parsed = [_phase(ph, p, names, columns) for p, ph in enumerate(phases)]
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
            groups,
        )
    except ValueError as e:  # bounds order, symmetry, magnitude: Weights says what is wrong
        raise WeightsFileError(str(e)) from None
    for p, (_, _, discs) in enumerate(parsed):
        if discs is not None and discs != list(w.phase_discs(p)):
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
    except OSError as e:
        _fail(str(path), f"cannot read the file ({e.strerror or e})")
    try:
        data = json.loads(text, parse_constant=lambda c: _fail(str(path), f"{c} is not allowed"))
    except json.JSONDecodeError as e:
        what = "truncated JSON" if e.pos >= len(text.rstrip()) else "invalid JSON"
        _fail(str(path), f"{what} at line {e.lineno} column {e.colno}: {e.msg}")
    except RecursionError:
        _fail(str(path), "invalid JSON: nested too deeply")
    try:
        return weights_from_dict(data)
    except WeightsFileError as e:
        raise WeightsFileError(f"{path}: {e}") from None


# name -> (numpy dtype kinds allowed, number of dimensions, what the message says is expected)
NPZ_ARRAYS = {
    "schema_version": ("iu", 0, "an integer scalar"),
    "phase_bounds": ("iu", 1, "a 1-d integer array"),
    "positional": ("iuf", 3, "a float array (n, 8, 8)"),
    "features": ("iuf", 2, "a float array (n, features)"),
    "feature_names": ("U", 1, "a 1-d string array"),
    "symmetric": ("b", 0, "a boolean scalar"),
    "name": ("U", 0, "a string scalar"),
    "metadata_json": ("U", 0, "a string scalar"),
}


def _read_npz(path: Path) -> dict[str, np.ndarray]:
    """Every array of the archive. A corrupt archive surfaces as many exception types
    (zipfile.BadZipFile, zlib.error, EOFError, ValueError from a bad .npy header, ...) and a
    plain .npy file loads as an array, not an archive: all of them become one clear error."""
    try:
        loaded = np.load(path, allow_pickle=False)
        if isinstance(loaded, np.ndarray):
            _fail(str(path), "not a .npz archive (it holds a single .npy array)")
        with loaded as z:
            return {k: z[k] for k in z.files}
    except WeightsFileError:
        raise
    except Exception as e:  # noqa: BLE001 -- see the docstring: any read failure is the file's
        _fail(str(path), f"not a readable .npz weights file ({type(e).__name__}: {e})")


def _check_npz_arrays(arrays: dict[str, np.ndarray]) -> None:
    """Every array of ``NPZ_ARRAYS`` present, with its dtype kind and dimensions."""
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


def _load_npz(path: Path) -> Weights:
    arrays = _read_npz(path)
    try:
        return weights_from_dict(_npz_to_dict(arrays))
    except WeightsFileError as e:
        raise WeightsFileError(f"{path}: {e}") from None


def load_weights(path) -> Weights:
    path = Path(path)
    if not path.is_file():
        _fail(str(path), "no such weights file")
    if path.suffix.lower() == ".npz":
        return _load_npz(path)
    return _load_json(path)


def reference_weights(name: str) -> Weights:
    """One of the shipped reference weight sets (``REFERENCE_NAMES``), loaded from its file."""
    if name not in REFERENCE_NAMES:
        raise ValueError(
            f"unknown reference weights {name!r} (allowed: {', '.join(REFERENCE_NAMES)})"
        )
    return load_weights(DATA_DIR / f"{name}.json")
