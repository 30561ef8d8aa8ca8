"""The CS303 single-file agent of a network: standalone (numpy only), its evaluation the
engine's to the bit, its fixed-depth moves the engine agent's in whole games, legal moves
within a time limit; the export command writes it from a network champion."""

from __future__ import annotations

import ast
import importlib.util
import json

import pytest

from engine.reversi.export.cs303_ntuple import render_cs303_network
from engine.reversi.genome.network_eval import network_value
from evolve.export import main as export_main
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_ntuple import network_game, random_network
from tests.engine.reversi.test_cs303 import chessboard_of
from tests.engine.reversi.test_cs303_fixed_depth import moves_compared


def champion(seed: int, integer: bool = False, layout: str = "straight2", phases: int = 3,
             features=("mobility", "stability", "parity")):
    game = network_game("reversed_reversi", layout=layout, phases=phases,
                        features=list(features))
    return random_network(game, seed, scale=0.5, integer=integer)


def load(source: str, tmp_path, name: str):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def test_the_file_imports_only_numpy_and_time_and_keeps_the_square_table_agents_rules(tmp_path):
    module, path = load(render_cs303_network(champion(1), numba="off"), tmp_path, "ai_net")
    tree = ast.parse(path.read_text(), feature_version=(3, 7))  # the course's Python
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom)}
    assert imported <= {"numpy", "time"}, imported
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert len(names) == len(set(names))  # one evaluation, not the square table's as well
    assert {"network_value", "evaluate", "legal_moves", "fixed_depth_move"} <= set(names)
    assert "n-tuple network" in ast.get_docstring(tree)
    assert module.FIXED_DEPTH is None and module.VARIANT == "reversed"


@pytest.mark.parametrize("layout", ["straight2", "corner3+edge2x"])
def test_the_evaluation_is_the_engines_to_the_bit(tmp_path, layout):
    w = champion(2, layout=layout)
    module, _ = load(render_cs303_network(w, 1, 3), tmp_path, f"ai_{layout[:6]}")
    arrays = w.numba_arrays()
    for seed in range(20):
        for plies in (5, 20, 40, 58, 70):
            p = random_reachable(seed, plies)
            want = network_value(*p.boards, *arrays, True)
            assert module.evaluate_in_engine_order(p.player, p.opponent) == want
            assert module.evaluate(p.player, p.opponent) == want


@pytest.mark.parametrize("depth, endgame", [
    (1, 3), (2, 3), pytest.param(3, 3, marks=pytest.mark.slow),
    pytest.param(1, 8, marks=pytest.mark.slow)])
@pytest.mark.parametrize("integer", [False, True], ids=["random", "ties"])
def test_fixed_depth_agent_plays_every_move_of_the_engine_agent(tmp_path, depth, endgame,
                                                                integer):
    w = champion(5, integer=integer)
    module, _ = load(render_cs303_network(w, depth, endgame), tmp_path, f"fixed{depth}")
    assert moves_compared(module, w, depth, endgame, 2) > 40 * 2


def test_the_time_limited_agent_plays_legal_moves(tmp_path):
    module, _ = load(render_cs303_network(champion(3), numba="off"), tmp_path, "timed")
    for seed in range(6):
        p = random_reachable(seed, 20 + 6 * seed)
        if p.legal_moves_mask() == 0:
            continue
        ai = module.AI(8, -1 if p.black_to_move else 1, 0.05)
        ai.go(chessboard_of(p))
        assert ai.candidate_list and set(ai.candidate_list) <= {divmod(m, 8)
                                                                for m in p.legal_moves()}


def test_export_writes_the_network_agent_and_refuses_othello_networks(tmp_path, capsys):
    game = network_game("reversed_reversi", phases=1)
    path = tmp_path / "champion.json"
    game.save_champion(path, random_network(game, 4).to_genome(), "c",
                       {"search": {"depth": 1, "endgame_empties": 3}})
    out = tmp_path / "ai.py"
    assert export_main([str(path), "--format", "cs303", "--depth", "1", "--out", str(out)]) == 0
    text = out.read_text()
    assert "FIXED_DEPTH = 1\n" in text and "ENDGAME_EMPTIES = 3\n" in text
    assert "# straight2: 64 cells x 3 states" in text and "\nINSTANCES = (\n" in text
    othello = network_game("othello", phases=1)
    other = tmp_path / "othello.json"
    othello.save_champion(other, random_network(othello, 4).to_genome(), "o")
    assert export_main([str(other), "--format", "cs303", "--out", str(out)]) == 1
    assert "the CS303 platform plays Reversed Reversi" in capsys.readouterr().err
    assert json.loads(other.read_text())["game"] == "othello"
