"""The COMP90054 export (``--format comp90054``): ``agents/<team>/myTeam.py`` for the course's
Othello framework, from a square-table and from an n-tuple champion. It imports the way the
framework imports it (with our stand-ins of its classes, ``comp90054_standins/``), plays whole
games through them with either colour and never an illegal action, passes when it must, and
at a fixed depth plays exactly the engine agent's move (its exact solver's move near the end).
Timing is measured in ``experiments/bench/exports/comp90054.py``, not here."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from engine.reversi.agents.alphabeta import AlphaBetaAgent
from engine.reversi.files import load_evaluation
from engine.reversi.genome.weights import GenomeLayout, Weights, default_phase_bounds
from engine.reversi.rules.state import PASS, Position
from evolve.export import main as export_main

STANDINS = Path(__file__).with_name("comp90054_standins")
CHAMPIONS = Path(__file__).parents[3] / "experiments" / "results" / "champions"
SQUARE, NETWORK = CHAMPIONS / "othello.json", CHAMPIONS / "othello_ntuple.json"
FRAMEWORK_MODULES = ("template", "runner", "Reversi", "Reversi.reversi_model",
                     "Reversi.reversi_utils")


@pytest.fixture(scope="module")
def framework():
    """The stand-ins importable as the framework's modules (``template``, ``Reversi...``)."""
    sys.path.insert(0, str(STANDINS))
    try:
        runner = importlib.import_module("runner")
        utils = importlib.import_module("Reversi.reversi_utils")
        yield SimpleNamespace(runner=runner, Cell=utils.Cell,
                              Agent=importlib.import_module("template").Agent)
    finally:
        sys.path.remove(str(STANDINS))
        for name in FRAMEWORK_MODULES:
            sys.modules.pop(name, None)


def export(source, out: Path, *options: str) -> Path:
    assert export_main([str(source), "--format", "comp90054", "--out", str(out), *options]) == 0
    return out


def load_agent(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def timed(framework, tmp_path_factory):
    """Time-limited agents (a short budget: only legality is checked) of both champions."""
    out = tmp_path_factory.mktemp("comp90054")
    export(SQUARE, out, "--move-ms", "20", "--first-move-ms", "40", "--team", "t_001")
    export(NETWORK, out, "--move-ms", "20", "--first-move-ms", "40", "--team", "t_002")
    return (load_agent(out / "agents/t_001/myTeam.py", "comp90054_square"),
            load_agent(out / "agents/t_002/myTeam.py", "comp90054_network"))


def state_of(position: Position, cell, as_int: bool = False):
    """A framework game state of ``position``: board[x][y] is square 8 * x + y; agent 0 is
    black, agent 1 white."""
    colour = (lambda c: c.value) if as_int else (lambda c: c)
    board = [[colour(cell.EMPTY)] * 8 for _ in range(8)]
    for sq in range(64):
        if position.black >> sq & 1:
            board[sq // 8][sq % 8] = colour(cell.BLACK)
        elif position.white >> sq & 1:
            board[sq // 8][sq % 8] = colour(cell.WHITE)
    return SimpleNamespace(board=board, agent_colors={0: colour(cell.BLACK),
                                                      1: colour(cell.WHITE)})


def actions_of(position: Position):
    return [divmod(sq, 8) for sq in position.legal_moves()] or ["Pass"]


# --- the file and the command ------------------------------------------------------------------


def test_export_writes_myteam_into_the_team_folder_and_refuses_bad_options(tmp_path, capsys):
    export(SQUARE, tmp_path)
    text = (tmp_path / "agents" / "t_000" / "myTeam.py").read_text()
    assert "FIXED_DEPTH = None\n" in text and "ENDGAME_EMPTIES = 10\n" in text  # the file's
    assert "MOVE_SECONDS = 1.0 " in text and "FIRST_MOVE_SECONDS = 15.0 " in text
    export(NETWORK, tmp_path, "--team", "t_042", "--depth", "3", "--endgame-empties", "6")
    text = (tmp_path / "agents" / "t_042" / "myTeam.py").read_text()
    assert "FIXED_DEPTH = 3\n" in text and "ENDGAME_EMPTIES = 6\n" in text
    assert "n-tuple network" in ast.get_docstring(ast.parse(text))
    reversed_weights = "engine/reversi/data/wpc_negated.json"
    for args, message in [((SQUARE, "--depth", "0"), "--depth 0 must be >= 1"),
                          ((SQUARE, "--move-ms", "0"), "--move-ms 0 must be > 0"),
                          ((SQUARE, "--team", "t-1"), "must be a Python identifier"),
                          ((reversed_weights,), "the COMP90054 framework plays Othello")]:
        assert export_main([str(args[0]), "--format", "comp90054", "--out", str(tmp_path),
                            *args[1:]]) == 1
        assert message in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert export_main([str(SQUARE), "--format", "comp90054", "--out",
                        str(tmp_path / "file")]) == 1


@pytest.mark.parametrize("source", [SQUARE, NETWORK], ids=["square", "network"])
def test_the_file_is_python_38_with_only_time_and_the_frameworks_agent(tmp_path, source):
    path = export(source, tmp_path) / "agents" / "t_000" / "myTeam.py"
    tree = ast.parse(path.read_text(), feature_version=(3, 8))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported == {"time", "template"}
    called = {n.func.id for n in ast.walk(tree)
              if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not called & {"open", "exec", "eval", "__import__", "print"}
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)]
    assert len(names) == len(set(names)) and "myAgent" in names and "AI" not in names
    assert not {"start_compiling", "compiled_search", "numba_failed"} & set(names)  # CS303's


def test_the_framework_imports_the_agent_by_its_module_name(framework, tmp_path):
    export(SQUARE, tmp_path, "--team", "t_007")
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("agents.t_007.myTeam")  # as the framework loads it
        agent = module.myAgent(1)
        assert agent.id == 1 and isinstance(agent, framework.Agent)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == "agents" or m.startswith("agents.")]:
            del sys.modules[name]


# --- games through the stand-ins ---------------------------------------------------------------


class StandinRandom:
    """A random agent of the framework's kind (its moves make passes likelier)."""

    def __init__(self, _id, seed):
        self.id, self.rng = _id, np.random.default_rng(seed)

    def SelectAction(self, actions, game_state):  # noqa: N802
        return actions[int(self.rng.integers(len(actions)))]


def test_whole_games_through_the_standins_with_both_colours(framework, timed):
    square, network = timed
    games = [([square.myAgent(0), network.myAgent(1)], 0),  # agent `first` plays black
             ([square.myAgent(0), network.myAgent(1)], 1),
             ([square.myAgent(0), StandinRandom(1, 3)], 1),
             ([StandinRandom(0, 4), network.myAgent(1)], 0)]
    for agents, first in games:
        result = framework.runner.play(agents, first)
        assert result["illegal"] == []
        assert 4 < sum(result["scores"].values()) <= 64
        assert result["colors"][first] == framework.Cell.BLACK
        assert any(action != "Pass" for _, action, _ in result["moves"])


def test_it_passes_when_it_must_and_reads_int_boards_like_the_cell_enum(framework, timed):
    square, _ = timed
    must_pass = a_pass(seed=0)
    agent = square.myAgent(0 if must_pass.black_to_move else 1)
    assert agent.SelectAction(["Pass"], state_of(must_pass, framework.Cell)) == "Pass"
    for seed in range(6):
        rng = np.random.default_rng(seed)
        p = Position.start()
        for _ in range(int(rng.integers(5, 50))):
            p = p.play(actions_and_moves(p, rng))
        if p.is_game_over() or p.legal_moves_mask() == 0:
            continue
        me = 0 if p.black_to_move else 1
        for as_int in (False, True):
            state = state_of(p, framework.Cell, as_int)
            action = square.myAgent(me).SelectAction(actions_of(p), state)
            assert action in actions_of(p)


def a_pass(seed: int) -> Position:
    """The first position of seeded random games where the side to move must pass."""
    rng = np.random.default_rng(seed)
    while True:
        p = Position.start()
        while not p.is_game_over():
            if p.legal_moves_mask() == 0:
                return p
            p = p.play(actions_and_moves(p, rng))


def actions_and_moves(p: Position, rng) -> int:
    moves = p.legal_moves()
    return moves[int(rng.integers(len(moves)))] if moves else PASS


def test_a_legal_action_even_when_the_time_is_already_over(framework, tmp_path):
    export(SQUARE, tmp_path, "--move-ms", "1", "--first-move-ms", "1")
    module = load_agent(tmp_path / "agents/t_000/myTeam.py", "comp90054_no_time")
    for seed in range(10):
        rng = np.random.default_rng(seed)
        p = Position.start()
        for _ in range(int(rng.integers(10, 56))):
            p = p.play(actions_and_moves(p, rng))
        if p.is_game_over() or p.legal_moves_mask() == 0:
            continue
        agent = module.myAgent(0 if p.black_to_move else 1)
        assert agent.SelectAction(actions_of(p), state_of(p, framework.Cell)) in actions_of(p)
        ticks = iter(range(0, 10**9, 10))  # a clock 10 s later at every look
        module.time.perf_counter, clock = (lambda t=ticks: float(next(t))), module.time.perf_counter
        try:  # past the deadline at the first look: the move ready before any search
            assert agent.SelectAction(actions_of(p), state_of(p, framework.Cell)) \
                in actions_of(p)
        finally:
            module.time.perf_counter = clock


# --- the same player as the engine at a fixed depth -------------------------------------------


def sampled_positions(agent: AlphaBetaAgent, n: int, seed: int, keep: float = 0.3):
    """``n`` (position, engine move) pairs from seeded games (``SeedSequence``: one stream per
    game): each position where the side to move has a move is kept with odds ``keep`` (every
    phase down to the exact endgame, both colours); each game goes on with the engine's move or
    a random one (even odds)."""
    out = []
    for game_seed in np.random.SeedSequence(seed).spawn(n):
        rng = np.random.default_rng(game_seed)
        p = Position.start()
        agent.reset()
        while not p.is_game_over() and len(out) < n:
            moves = p.legal_moves()
            if not moves:
                p = p.play(PASS)
                continue
            kept, engine = rng.random() < keep, rng.random() < 0.5
            expected = agent.select_move(p) if kept or engine else PASS
            if kept:
                out.append((p, expected))
            p = p.play(expected if engine else moves[int(rng.integers(len(moves)))])
        if len(out) >= n:
            break
    return out


def tie_heavy_champion() -> Weights:
    """Symmetric integer weights: equal values everywhere, so the tie-break is checked too."""
    rng = np.random.default_rng(6)
    genome = np.round(rng.uniform(-1, 1, GenomeLayout(3, True).size) * 8)
    w = Weights.from_genome(genome, default_phase_bounds(3), True, name="ties")
    w.metadata["variant"] = "othello"
    return w


def fixed_depth_agent(framework, tmp_path, weights, depth: int, endgame: int, name: str):
    from engine.reversi.export.comp90054 import write_comp90054

    path = write_comp90054(weights, tmp_path / name, endgame, depth)
    return load_agent(path, f"comp90054_{name}")


def moves_checked(framework, module, weights, depth: int, endgame: int, n: int,
                  seed: int) -> int:
    """The export's action equals the engine agent's move at every sampled position."""
    agent = AlphaBetaAgent(weights, "othello", depth=depth, endgame_empties=endgame)
    positions = sampled_positions(agent, n, seed)
    exact = 0
    for p, expected in positions:
        me = 0 if p.black_to_move else 1
        action = module.myAgent(me).SelectAction(actions_of(p), state_of(p, framework.Cell))
        assert action == divmod(expected, 8), (p.to_string(), depth, endgame)
        exact += p.empties <= endgame
    assert exact >= n // 20 and {p.black_to_move for p, _ in positions} == {True, False}
    return len(positions)


CASES = {"square": (lambda: load_evaluation(SQUARE), 2, 10),
         "network": (lambda: load_evaluation(NETWORK), 2, 10),
         "ties": (tie_heavy_champion, 3, 8)}


@pytest.mark.parametrize("case", list(CASES))
def test_at_a_fixed_depth_it_plays_the_engine_agents_move(framework, tmp_path, case):
    make, depth, endgame = CASES[case]
    weights = make()
    module = fixed_depth_agent(framework, tmp_path, weights, depth, endgame, case)
    assert moves_checked(framework, module, weights, depth, endgame, 50, seed=11) == 50


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_at_a_fixed_depth_it_plays_the_engine_agents_move_on_1000_positions(framework,
                                                                            tmp_path, case):
    make, depth, endgame = CASES[case]
    weights = make()
    module = fixed_depth_agent(framework, tmp_path, weights, depth, endgame, case)
    assert moves_checked(framework, module, weights, depth, endgame, 1000, seed=90054) == 1000
