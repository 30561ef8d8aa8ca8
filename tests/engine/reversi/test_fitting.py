"""Reversi's fit_network (engine.reversi.labels.fitting): options checked in one line, the
scale maps discs to evaluation units, the win score stays out of reach."""

import numpy as np
import pytest

from engine.core.registry import get_game

# the labels are the disc difference, a square table: 1-tuples hold it exactly
GENOME = {"kind": "ntuple", "layout": "straight1", "phases": 2, "features": ["mobility"]}


def columns(n: int = 300, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 3, (n, 64)).astype(np.uint8)
    ply = np.clip((cells > 0).sum(axis=1) - 4, 0, 60).astype(np.int16)
    target = ((cells == 1).sum(axis=1) - (cells == 2).sum(axis=1)).astype(np.float32)
    return {"cells": cells, "ply": ply, "target": target, "source": rng.integers(0, 2, n)}


def test_scale_multiplies_the_fitted_weights_and_features_stay_zero():
    game = get_game("othello", {"genome": GENOME})
    one, report = game.fit_network(columns(), {"iterations": 30})
    ten, _ = game.fit_network(columns(), {"iterations": 30, "scale": 10.0})
    np.testing.assert_allclose(ten, 10 * one)
    net, features = game.network.split(one)
    assert net.any() and not features.any()
    assert report["overall"]["held_out_rmse"] < 0.05 * report["overall"]["held_out_rmse_of_zero"]
    assert len(report["phases"]) == 2 and report["phases"][1]["discs"] == [34, 64]


def test_exact_only_fits_the_exact_labels_alone():
    game = get_game("othello", {"genome": GENOME})
    cols = columns()
    _, report = game.fit_network(cols, {"exact_only": True})
    assert report["positions"] == int((cols["source"] == 0).sum())


@pytest.mark.parametrize("options, message", [
    ({"lr": 1}, "fit option 'lr': unknown"),
    ({"l2": -1}, "l2=-1"),
    ({"holdout": 1.0}, "holdout=1.0"),
    ({"iterations": 0}, "iterations=0"),
    ({"min_count": 1.5}, "min_count=1.5"),
    ({"scale": 1e9}, "weights too large"),
])
def test_bad_options_are_one_line(options, message):
    game = get_game("othello", {"genome": GENOME})
    with pytest.raises(ValueError, match=message) as err:
        game.fit_network(columns(), options)
    assert "\n" not in str(err.value)


def test_square_tables_and_bad_columns_are_refused():
    with pytest.raises(ValueError, match="n-tuple genome"):
        get_game("othello").fit_network(columns(), {})
    game = get_game("othello", {"genome": GENOME})
    bad = columns()
    bad["cells"] = bad["cells"] + 1
    with pytest.raises(ValueError, match="cells: expected uint8 states"):
        game.fit_network(bad, {})
    with pytest.raises(ValueError, match="column 'target' missing"):
        game.fit_network({k: v for k, v in columns().items() if k != "target"}, {})
