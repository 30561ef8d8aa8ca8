"""Each game's n-tuple search and TD compile from an empty numba cache (CI starts with one): the
search's callbacks run without reference counting, so anything below them that allocated would
fail to compile there and nowhere else."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = """
import json, sys
from engine.core import SearchSettings, get_game
name, settings, genomes = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
for genome in genomes:
    game = get_game(name, {**settings, "genome": genome})
    weights = game.reference_genome("reference")
    move = game.make_agent(weights, SearchSettings(depth=2, endgame_empties=4)).select_move(
        game.initial_state())
    assert move in game.legal_moves(game.initial_state())
    if game.learns_by_td():
        game.td_learn(weights, 2, 0, 0.1, 0.1)
print("compiled")
"""
# the game, its settings, and the genomes compiled: the features kind, a network without and
# with the features
GAMES = {
    "pentago_twist": ({}, [{}, {"kind": "ntuple"},
                           {"kind": "ntuple", "layout": "straight5", "features": True}]),
    "hexifence": ({"size": 2}, [{}, {"kind": "ntuple"}, {"kind": "ntuple", "features": True}]),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
def test_the_network_search_and_td_compile_from_an_empty_cache(tmp_path, name):
    settings, genomes = GAMES[name]
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", SCRIPT, name, json.dumps(settings),
                           json.dumps(genomes)], cwd=ROOT, env=env, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "compiled"
