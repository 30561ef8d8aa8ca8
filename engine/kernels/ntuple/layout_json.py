"""The JSON form of a layout: what a weight file embeds so another program can read it alone.

    {"schema": "board-evolve/ntuple-layout", "version": 1, "name": "...",
     "cells": 64, "states": 3,                or one number per cell: [2, 2, ..., 3]
     "index": "first cell most significant",
     "tuples": [[0, 1], ...],                 one LUT each, in weight-array order
     "symmetries": [[0, 1, ..., 63], ...],    row s: cell -> image
     "lut_offsets": [0, 9, ..., 288],         derived: LUT k = weights[off[k]:off[k+1]]
     "instances": [[0, [0, 1]], ...]}         derived: (LUT, cells in digit order)

An instance's index reads its cells' states as digits, the first cell the most significant:
``index = 0; for c in cells: index = index * states[c] + state[c]`` (cell ``j`` weighs
``states ** (len - 1 - j)`` when every cell has ``states``). The value of a position is the sum
over instances of ``weights[lut_offsets[lut] + index]``. The derived fields let a reader skip the
expansion; they are optional when a person writes a layout by hand and are checked against the
expansion when present (a mismatch is refused, never guessed at).
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.kernels.ntuple.layout import Layout, LayoutError

SCHEMA = "board-evolve/ntuple-layout"
VERSION = 1
INDEX_ORDER = "first cell most significant"
REQUIRED = ("schema", "version", "cells", "states", "tuples", "symmetries")
OPTIONAL = ("name", "index", "lut_offsets", "instances")


def layout_to_json(layout: Layout) -> dict:
    """The layout as plain JSON data (ints, lists, strings)."""
    return {
        "schema": SCHEMA, "version": VERSION, "name": layout.name,
        "cells": layout.n_cells, "states": layout.states, "index": INDEX_ORDER,
        "tuples": [list(t) for t in layout.tuples],
        "symmetries": layout.symmetries.tolist(),
        "lut_offsets": layout.lut_offsets.tolist(),
        "instances": [[lut, list(cells)] for lut, cells in layout.instances],
    }


def layout_from_json(data) -> Layout:
    """The layout ``data`` describes; one-line ``LayoutError`` naming the field otherwise."""
    if not isinstance(data, dict):
        raise LayoutError(f"layout JSON: expected an object, got {type(data).__name__}")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise LayoutError(f"layout JSON: missing field(s) {', '.join(missing)}")
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise LayoutError(f"layout JSON: unknown field(s) {', '.join(unknown)} "
                          f"(allowed: {', '.join(REQUIRED + OPTIONAL)})")
    if data["schema"] != SCHEMA:
        raise LayoutError(f"schema: expected {SCHEMA!r}, got {data['schema']!r}")
    if data["version"] != VERSION:
        raise LayoutError(f"version: this program reads version {VERSION}, got "
                          f"{data['version']!r}")
    if data.get("index", INDEX_ORDER) != INDEX_ORDER:
        raise LayoutError(f"index: only {INDEX_ORDER!r} is defined, got {data['index']!r}")
    if not isinstance(data["tuples"], list):
        raise LayoutError("tuples: must be a list of lists of cell ids")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise LayoutError(f"name: must be a string, got {name!r}")
    layout = Layout(data["cells"], data["states"], tuple(data["tuples"]), data["symmetries"],
                    name)
    _check_derived(layout, data)
    return layout


def save_layout(layout: Layout, path: str | Path) -> None:
    Path(path).write_text(json.dumps(layout_to_json(layout)) + "\n")


def load_layout(path: str | Path) -> Layout:
    """A layout file, or a ``LayoutError`` naming the file and what is wrong."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LayoutError(f"{path}: cannot read a layout JSON ({error})") from None
    try:
        return layout_from_json(data)
    except LayoutError as error:
        raise LayoutError(f"{path}: {error}") from None


def _check_derived(layout: Layout, data: dict) -> None:
    expected = layout_to_json(layout)
    for key in ("lut_offsets", "instances"):
        if key in data and data[key] != expected[key]:
            raise LayoutError(f"{key}: does not match the expansion of tuples and symmetries "
                              "(delete the field to recompute it)")
