"""The JSON form of a layout: round trips, a reader without our code, refusals."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.kernels import ntuple as nt
from tests.engine.kernels.reference_ntuple import board_of_bits


@pytest.fixture
def layout():
    return nt.board_layout(6, 6, nt.family_tuples(6, 6, "straight2+corner3"), "rot180",
                           name="test layout")


def test_a_layout_survives_json_text_and_files(layout, tmp_path):
    assert nt.layout_from_json(json.loads(json.dumps(nt.layout_to_json(layout)))) == layout
    nt.save_layout(layout, tmp_path / "layout.json")
    assert nt.load_layout(tmp_path / "layout.json") == layout


def test_another_program_evaluates_from_the_json_alone(layout):
    """Only the documented fields and the index rule: no import of the engine."""
    data = json.loads(json.dumps(nt.layout_to_json(layout)))
    rng = np.random.default_rng(7)
    weights = rng.normal(size=layout.n_weights)
    t = nt.index_tables(layout)
    for _ in range(20):
        cells = rng.choice(36, size=20, replace=False)
        P, O = (np.uint64(sum(1 << int(c) for c in part)) for part in (cells[:10], cells[10:]))
        board = board_of_bits(P, O, data["cells"])
        value = 0.0
        for lut, members in data["instances"]:
            index = sum(board[c] * data["states"] ** (len(members) - 1 - j)
                        for j, c in enumerate(members))
            value += weights[data["lut_offsets"][lut] + index]
        assert nt.evaluate_bits(P, O, t, weights) == pytest.approx(value, abs=1e-12)


def test_a_hand_written_layout_needs_no_derived_fields():
    data = {"schema": "board-evolve/ntuple-layout", "version": 1, "cells": 4, "states": 2,
            "tuples": [[0, 1]], "symmetries": [[0, 1, 2, 3], [2, 3, 0, 1]]}
    layout = nt.layout_from_json(data)
    assert [cells for _, cells in layout.instances] == [(0, 1), (2, 3)]
    assert layout.n_weights == 4


def edit(layout, **changes):
    data = nt.layout_to_json(layout)
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize("changes, message", [
    ({"schema": "other"}, r"^schema: expected 'board-evolve/ntuple-layout', got 'other'$"),
    ({"version": 2}, r"^version: this program reads version 1, got 2$"),
    ({"states": None, "cells": None}, r"^layout JSON: missing field\(s\) cells, states$"),
    ({"weights": [0.0]}, r"^layout JSON: unknown field\(s\) weights \(allowed: "),
    ({"index": "last cell most significant"}, r"^index: only 'first cell most significant'"),
    ({"lut_offsets": [0, 9]}, r"^lut_offsets: does not match the expansion"),
    ({"instances": []}, r"^instances: does not match the expansion"),
    ({"tuples": [[0, 1], [35, 34]]}, r"^tuples\[1\] is a symmetric image of tuples\[0\]"),
    ({"tuples": "01"}, r"^tuples: must be a list of lists of cell ids$"),
    ({"states": "3"}, r"^states: must be an integer in 2\.\.255 or a list of one such "
                      r"integer per cell \(36\), got '3'$"),
    ({"states": [3] * 35}, r"^states: must be an integer in 2\.\.255 or a list"),
    ({"name": 5}, r"^name: must be a string, got 5$"),
])
def test_a_bad_layout_json_is_refused_naming_the_field(layout, changes, message):
    with pytest.raises(nt.LayoutError, match=message):
        nt.layout_from_json(edit(layout, **changes))


def test_a_bad_layout_file_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(nt.LayoutError, match=r"broken\.json: cannot read a layout JSON"):
        nt.load_layout(path)
    path.write_text("[]")
    with pytest.raises(nt.LayoutError, match=r"broken\.json: layout JSON: expected an object"):
        nt.load_layout(path)
