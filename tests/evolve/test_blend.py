"""python -m evolve.blend: the weighted mean of networks re-expressed in one layout scores every
position as the weighted mean of their scores; its file names its sources; bad input is one
line and writes nothing."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import numpy as np
import pytest

from engine.reversi.files import save_evaluation
from engine.reversi.genome.network_eval import network_value
from evolve import blend
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_ntuple import network_game, random_network

BIG = {"layout": "straight2+square2", "phases": 2, "features": ["mobility"]}


def value(w, p) -> float:
    phase_of_discs, tables, weights, features = w.numba_arrays()
    return network_value(*p.boards, phase_of_discs, tables, weights, features, False)


@pytest.fixture
def networks(tmp_path):
    """A network of another layout and phases than the blend's (one phase: it covers the
    blend's two), one of the blend's settings, and their files."""
    a = random_network(network_game(layout="straight2", phases=1, features=["mobility"]), 1,
                       0.1)
    b = random_network(network_game(**BIG), 2, 0.1)
    paths = tmp_path / "a.json", tmp_path / "b.json"
    for w, path in zip((a, b), paths, strict=True):
        save_evaluation(w, path)
    return (a, b), paths


def test_the_blend_scores_every_position_as_the_weighted_mean(tmp_path, networks):
    (a, b), paths = networks
    out = tmp_path / "blend.json"
    assert blend.main([*map(str, paths), "--weights", "1", "3", "--game", "othello",
                       "--settings", json.dumps({"genome": {"kind": "ntuple", **BIG}}),
                       "--out", str(out)]) == 0
    game = network_game(**BIG)
    mixed = game.weights(game.load_champion(out).genome)
    played = 0
    for seed in range(30):
        p = random_reachable(seed, 5 + 2 * seed)
        if p.is_game_over():
            continue
        want = 0.25 * value(a, p) + 0.75 * value(b, p)
        assert value(mixed, p) == pytest.approx(want, rel=1e-12, abs=1e-12)
        played += 1
    assert played > 20
    meta = json.loads(out.read_text())["metadata"]
    assert [s["weight"] for s in meta["blend"]] == [0.25, 0.75]
    assert meta["blend"][0]["sha256"] == hashlib.sha256(paths[0].read_bytes()).hexdigest()
    assert meta["command"].startswith("python -m evolve.blend ")


def test_the_first_files_game_and_settings_are_the_default(tmp_path, networks):
    _, (small, big) = networks
    out = tmp_path / "blend.json"
    assert blend.main([str(big), str(small), "--out", str(out)]) == 0
    game = network_game(**BIG)
    np.testing.assert_allclose(game.load_champion(out).genome,
                               (game.projected_genome(big) + game.projected_genome(small)) / 2)


@pytest.mark.parametrize("options, message", [
    (["{a}"], "error: give two or more files to blend"),
    (["{a}", "{b}", "--weights", "1"], "error: --weights: 1 given, one per file needed (2)"),
    (["{a}", "{b}", "--weights", "1", "-1"], "error: --weights: allowed finite numbers >= 0"),
    (["{b}", "{a}", "--settings", "{{bad"], "error: --settings is not JSON"),
    (["{b}", "{a}", "--settings",
      '{{"genome": {{"kind": "ntuple", "layout": "straight4", "phases": 2}}}}'],
     "straight4 has no tuple"),
    (["{a}", "{b}", "--game", "chess"], "error: --game 'chess': allowed"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, networks, options, message):
    _, (a, b) = networks
    out = tmp_path / "blend.json"
    proc = subprocess.run([sys.executable, "-m", "evolve.blend",
                           *[o.format(a=a, b=b) for o in options], "--out", str(out)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert message in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert not out.exists()
