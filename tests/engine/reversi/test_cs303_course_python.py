"""The CS303 agent in the course's own environment (Python 3.7, numpy 1.21, numba 0.56): the
exported file imports there, compiles its numba search and solver, and they hear and prove
exactly what the pure-Python search does in the project's Python; ``go`` plays legal moves
there. The default tier checks the square-table agent; the slow tier also the n-tuple network
agent, and whole games.

The course's interpreter is ``$BOARD_EVOLVE_COURSE_PYTHON``, else the one ``.ci/course_python``
builds (CI builds it before the tests); without either these tests skip.
"""

from __future__ import annotations

import ast
import json
import subprocess
from pathlib import Path

import pytest

from engine.reversi.export.cs303_ntuple import render_cs303_network
from engine.reversi.rules.state import PASS, Position
from experiments.bench.exports.cs303 import course_python
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.test_cs303 import chessboard_of, every_group_champion, load_generated
from tests.engine.reversi.test_cs303_solver import endgame_positions
from tests.engine.reversi.test_ntuple_cs303 import champion as network_champion
from tests.engine.reversi.test_ntuple_cs303 import load

COURSE_PYTHON = course_python()
PROBE = Path(__file__).with_name("course_python_probe.py")
COMPILE_SECONDS = 900  # a bound for a hung compile, not a speed requirement
DEPTH = 5



def agent(kind: str, folder: Path):
    """(module loaded here, path) of an agent with numba: every feature group's square tables,
    or an n-tuple network with features."""
    if kind == "network":
        return load(render_cs303_network(network_champion(23, layout="corner3"), numba="on"),
                    folder, "course_network")
    return load_generated(every_group_champion(3, seed=22), folder, "course_tables", numba="on")


def run_in_course_python(path: Path, positions, endgames, boards, time_out: float,
                         games: int) -> dict:
    if not COURSE_PYTHON:
        pytest.skip("no course Python: set BOARD_EVOLVE_COURSE_PYTHON (.ci/course_python)")
    job = {"agent": str(path), "compile_seconds": COMPILE_SECONDS, "depth": DEPTH,
           "positions": [[p.player, p.opponent] for p in positions],
           "endgames": [[p.player, p.opponent] for p in endgames],
           "boards": [[chessboard_of(p).reshape(64).tolist(), -1 if p.black_to_move else 1]
                      for p in boards],
           "time_out": time_out, "games": games}
    done = subprocess.run([COURSE_PYTHON, str(PROBE)], input=json.dumps(job), text=True,
                          capture_output=True, timeout=3 * COMPILE_SECONDS)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def heard(module, pos: Position) -> list[int]:
    out: list[int] = []
    module.search_root(pos.player, pos.opponent, float("inf"), out.append, DEPTH)
    return out


def midgame(seeds: range) -> list[Position]:
    found = [random_reachable(seed, n) for seed in seeds for n in (2, 14, 26, 38, 50, 56)]
    return [p for p in found if p.legal_moves() and p.legal_moves() != [PASS]]


def assert_legal_game(moves: list) -> int:
    """Replays a game's moves ((row, col, numba) or None for a pass) from the start: each
    legal, to the game's end. Returns the number of moves searched with numba."""
    pos, with_numba = Position.start(), 0
    for move in moves:
        if move is None:  # a pass, or the game has ended
            if not pos.is_game_over():
                assert pos.legal_moves() == [PASS], pos
                pos = pos.play(PASS)
            continue
        row, col, numba = move
        assert 8 * row + col in pos.legal_moves(), (pos, move)
        pos, with_numba = pos.play(8 * row + col), with_numba + bool(numba)
    assert pos.is_game_over(), pos
    return with_numba


@pytest.fixture(scope="module",
                params=["square tables", pytest.param("network", marks=pytest.mark.slow)])
def course_run(request, tmp_path_factory):
    """The probe's report on one agent in the course's Python, the agent loaded here, the
    positions and what the agent's pure search hears on them here."""
    module, path = agent(request.param, tmp_path_factory.mktemp("course"))
    positions, endgames = midgame(range(4)), endgame_positions(range(8, 13), range(3))
    boards = midgame(range(4, 6))
    report = run_in_course_python(path, positions, endgames, boards, 0.3, 0)
    return module, report, positions, [heard(module, p) for p in positions], endgames, boards


def test_the_course_python_is_the_courses(course_run):
    _, report, *_ = course_run
    assert report["python"].startswith("3.7.")
    assert report["numpy"].startswith("1.21.") and report["numba"].startswith("0.56.")


def test_numba_compiles_there(course_run):
    _, report, *_ = course_run
    assert report["compiled"], report["error"]


def test_the_pure_search_there_hears_what_it_hears_here(course_run):
    _, report, positions, heard_here, *_ = course_run
    assert len(positions) >= 20
    assert report["pure_heard"] == heard_here


def test_the_numba_search_there_hears_what_the_pure_one_hears_here(course_run):
    _, report, _, heard_here, *_ = course_run
    assert report["numba_heard"] == heard_here


def test_the_numba_solver_there_proves_what_the_pure_one_proves_here(course_run):
    module, report, _, _, endgames, _ = course_run
    assert len(endgames) >= 10
    want = []
    for pos in endgames:
        outcome, move = module.Solver(float("inf")).root(pos.player, pos.opponent, None)
        want.append([outcome, -1 if move is None else move])
    assert report["numba_solved"] == want


def test_go_there_plays_legal_moves_with_numba(course_run):
    _, report, *_, boards = course_run
    for pos, told in zip(boards, report["played"], strict=True):
        legal = {divmod(m, 8) for m in pos.legal_moves()}
        assert told["numba"] and told["depth"] >= 1
        assert {tuple(c) for c in told["candidates"]} <= legal
        assert tuple(told["candidates"][-1]) in legal


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["square tables", "network"])
def test_whole_games_there_are_legal_and_searched_with_numba(kind, tmp_path):
    """Two games of the agent against itself at 0.5 s a move: every move legal, to the end;
    after the compile, the moves are searched with numba."""
    _, path = agent(kind, tmp_path)
    report = run_in_course_python(path, [], [], [], 0.5, 2)
    assert report["compiled"], report["error"]
    for moves in report["games"]:
        assert assert_legal_game(moves) >= 40


def test_the_probe_keeps_to_the_courses_python_syntax():
    ast.parse(PROBE.read_text(), feature_version=(3, 7))

