"""The n-tuple search and TD compile from an empty numba cache (CI starts with one): the
search's callbacks run without reference counting, so anything below them that allocated
would fail to compile there and nowhere else."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = """
from engine.core import SearchSettings, get_game
for genome in ({}, {"kind": "ntuple"}, {"kind": "ntuple", "features": True}):
    game = get_game("hexifence", {"size": 2, "genome": genome})
    weights = game.reference_genome("reference")
    move = game.make_agent(weights, SearchSettings(depth=2, endgame_empties=4)).select_move(
        game.initial_state())
    assert move in game.legal_moves(game.initial_state())
    if game.learns_by_td():
        game.td_learn(weights, 2, 0, 0.1, 0.1)
print("compiled")
"""


@pytest.mark.slow
def test_the_network_search_and_td_compile_from_an_empty_cache(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "compiled"
