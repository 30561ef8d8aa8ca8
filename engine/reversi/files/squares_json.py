"""The JSON weights file: writing it, and reading it back with validation that says exactly what
is wrong.

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

from engine.reversi.genome.evaluation import ALL_FEATURE_NAMES
from engine.reversi.genome.weights import (
    DATA_DIR,
    GAME,
    REFERENCE_NAMES,
    SCHEMA_VERSION,
    Weights,
    WeightsFileError,
    group_feature_names,
    groups_of_features,
    naming_file,
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


# --- validation -----------------------------------------------------------------------------


def _fail(where: str, msg: str):
    raise WeightsFileError(f"{where}: {msg}" if where else msg)


def _no_others(where: str, found, allowed, what: str) -> None:
    unknown = sorted(set(found) - set(allowed))
    if unknown:
        _fail(where, f"unknown {what}(s) {unknown}")


def _exactly(where: str, found, expected, what: str, unknown_what: str | None = None) -> None:
    """``found`` (keys, arrays) holds every name of ``expected`` and no other."""
    missing = [k for k in expected if k not in found]
    if missing:
        _fail(where, f"missing {what}(s) {missing}")
    _no_others(where, found, expected, unknown_what or what)


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
    _no_others(where, d, ("discs", "positional", "features"), "key")
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
    if d.get("kind") == "ntuple":
        _fail("kind", "this file holds an n-tuple network, not square tables (an alpha-beta "
              "player reads it; engine.reversi.files.read loads either)")
    version = d.get("schema_version")
    if type(version) is not int or version != SCHEMA_VERSION:
        _fail("schema_version", f"expected {SCHEMA_VERSION}, got {_short(version)}")
    for key in TOP_KEYS:
        if key not in d:
            _fail("", f"missing key {key!r}")
    _no_others("", d, TOP_KEYS, "top-level key")
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


def read_json(path: Path):
    """The JSON data of a weights file; ``WeightsFileError`` naming the file otherwise
    (unreadable, not UTF-8, truncated or invalid JSON, NaN / Infinity)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        _fail(str(path), "not a UTF-8 text file")
    except OSError as e:
        _fail(str(path), f"cannot read the file ({e.strerror or e})")
    try:
        return json.loads(text, parse_constant=lambda c: _fail(str(path), f"{c} is not allowed"))
    except json.JSONDecodeError as e:
        what = "truncated JSON" if e.pos >= len(text.rstrip()) else "invalid JSON"
        _fail(str(path), f"{what} at line {e.lineno} column {e.colno}: {e.msg}")
    except RecursionError:
        _fail(str(path), "invalid JSON: nested too deeply")


def reference_weights(name: str) -> Weights:
    """One of the shipped reference weight sets (``REFERENCE_NAMES``), loaded from its file."""
    if name not in REFERENCE_NAMES:
        raise ValueError(
            f"unknown reference weights {name!r} (allowed: {', '.join(REFERENCE_NAMES)})"
        )
    return _load_json(DATA_DIR / f"{name}.json")


def _load_json(path: Path) -> Weights:
    data = read_json(path)
    with naming_file(path):
        return weights_from_dict(data)
