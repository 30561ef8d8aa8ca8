"""The CS303 agent's numba search (the export's default, square tables and networks alike):
compiled in a background thread, it hears the same best moves as the agent's pure-Python search,
evaluates to the same bits, and the agent plays pure Python whenever numba cannot be used."""

from __future__ import annotations

import importlib.util
import threading
import time

import numpy as np
import pytest

from engine.reversi.export.cs303 import render_cs303
from engine.reversi.export.cs303_ntuple import render_cs303_network
from engine.reversi.rules.state import Position
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.test_cs303 import (
    chessboard_of,
    every_group_champion,
    load_generated,
    random_champion,
)
from tests.engine.reversi.test_cs303_solver import (
    endgame_positions,
    won_positions_played,
)
from tests.engine.reversi.test_ntuple_cs303 import champion as network_champion

numba = pytest.importorskip("numba")
COMPILE_SECONDS = 900  # a bound for a hung compile, not a speed requirement


def with_legal_moves(positions: list[Position]) -> list[Position]:
    return [p for p in positions if p.legal_moves()]


def load_network_agent(weights, folder, name: str):
    path = folder / f"{name}.py"
    path.write_text(render_cs303_network(weights, numba="on"))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module", params=["default features", "every feature group", "network"])
def compiled(request, tmp_path_factory):
    """An agent module whose numba search has compiled: the default six features, every
    optional group (corners, parity) so that each term of the evaluation is compared, and an
    n-tuple network with features."""
    folder, name = tmp_path_factory.mktemp("numba"), f"ai_numba_{request.param_index}"
    if request.param == "network":
        module = load_network_agent(network_champion(23, layout="corner3"), folder, name)
    else:
        weights = (random_champion(3, seed=21) if request.param == "default features"
                   else every_group_champion(3, seed=22))
        module, _ = load_generated(weights, folder, name, numba="on")
    assert module.wait_until_compiled(COMPILE_SECONDS), module._COMPILED["error"]
    return module


def positions_for(seeds: range) -> list[Position]:
    plies = (2, 12, 24, 36, 48, 54, 57, 70)  # 70: random games that may have ended earlier
    return with_legal_moves([random_reachable(seed, n) for seed in seeds for n in plies])


def same_best_moves(module, positions: list[Position], max_depth: int) -> int:
    """Asserts that both searches hear the same moves, depth by depth, to ``max_depth``; returns
    the number of positions compared."""
    fast = module.compiled_search()
    for pos in positions:
        pure_heard, numba_heard = [], []
        pure = module.search_root(pos.player, pos.opponent, float("inf"), pure_heard.append,
                                  max_depth)
        fast_ = fast.search_root(pos.player, pos.opponent, float("inf"), numba_heard.append,
                                 max_depth)
        assert numba_heard == pure_heard, pos
        assert fast_[0] == pure[0]  # the same deepest depth completed
    return len(positions)


def test_the_numba_evaluation_is_the_pure_one_to_the_bit(compiled):
    evaluate = compiled._COMPILED["evaluate"]
    for pos in positions_for(range(25)):
        P, O = pos.player, pos.opponent
        moves = compiled.legal_moves(P, O)
        got = evaluate(np.uint64(P), np.uint64(O), np.uint64(moves))
        assert got == compiled.evaluate(P, O), pos


def test_the_numba_search_hears_the_pure_searchs_best_moves(compiled):
    """Each depth's moves that become the best, in order (the candidates ``go`` appends): the
    same values to the bit and the same move order give the same moves, whatever the table
    keeps. Depth 5 reaches the 1-ply sorted order (from depth 4) and, near the end, the last
    empty square."""
    assert same_best_moves(compiled, positions_for(range(6)), 5) >= 40


@pytest.mark.slow
def test_the_numba_search_hears_the_same_moves_on_1000_positions(compiled):
    assert same_best_moves(compiled, positions_for(range(6, 200))[:1000], 5) == 1000


def same_solutions(module, positions: list[Position]) -> int:
    """Asserts that the compiled solver finds the pure one's outcome and move, with and
    without a first move to try; returns the number of positions compared."""
    fast, solve_root = module.compiled_search(), module._COMPILED["solve_root"]
    for pos in positions:
        P, O = pos.player, pos.opponent
        for first in (None, pos.legal_moves()[-1]):
            stats = np.zeros(3, np.int64)
            fast.solver_table[:, :2] = 0
            outcome, move = solve_root(np.uint64(P), np.uint64(O),
                                            -1 if first is None else first, fast.solver_table,
                                            stats, float("inf"))
            want_outcome, want_move = module.Solver(float("inf")).root(P, O, first)
            assert (outcome, move) == (want_outcome, -1 if want_move is None else want_move), pos
    return len(positions)


def test_the_numba_solver_finds_the_pure_solvers_outcomes_and_moves(compiled):
    assert same_solutions(compiled, endgame_positions(range(8, 13), range(6))) >= 20


@pytest.mark.slow
def test_the_numba_solver_finds_the_same_on_300_positions(compiled):
    positions = endgame_positions(range(8, 15), range(6, 60))[:300]
    assert same_solutions(compiled, positions) == 300


def test_the_numba_solve_stops_at_its_deadline(compiled):
    fast, solve_root = compiled.compiled_search(), compiled._COMPILED["solve_root"]
    pos = endgame_positions(range(22, 24), range(5))[0]
    stats = np.zeros(3, np.int64)
    got = solve_root(np.uint64(pos.player), np.uint64(pos.opponent), -1, fast.solver_table,
                          stats, 0.0)  # long past: the first clock read stops it
    assert got == (compiled.OUT_OF_TIME, -1) and stats[0] == compiled.CLOCK_EVERY + 1


def test_until_the_solver_has_compiled_the_compiled_search_does_not_solve(compiled,
                                                                          monkeypatch):
    monkeypatch.setitem(compiled._COMPILED, "solve_root", None)
    monkeypatch.setattr(compiled, "heuristic_deadline", lambda deadline: 0.0)  # were it solving
    pos = endgame_positions(range(10, 11), range(5))[0]
    depth, _, solved = compiled.compiled_search().search_root(pos.player, pos.opponent,
                                                              float("inf"), id)
    assert solved is None and depth == pos.empties  # the deepening searched to the end


def test_go_with_numba_near_the_end_plays_a_proven_win(compiled):
    """14 empties at 1 s a move: the compiled solve needs a few milliseconds."""
    told = won_positions_played(compiled, 14, range(24), 1.0)
    assert len(told) >= 4 and all(t["numba"] for t in told)


def test_go_searches_with_numba_once_compiled_and_plays_legal_moves(compiled):
    for seed in range(8):
        pos = random_reachable(seed, 10 + 6 * seed)
        if not pos.legal_moves():
            continue
        ai = compiled.AI(8, -1 if pos.black_to_move else 1, 0.2)
        ai.go(chessboard_of(pos))
        assert ai.last_search["numba"] and ai.last_search["depth"] >= 1
        legal = {divmod(m, 8) for m in pos.legal_moves()}
        assert set(ai.candidate_list) <= legal and ai.candidate_list[-1] in legal


def test_the_compiled_search_uses_the_time_out_less_the_margin(compiled):
    pos = random_reachable(3, 24)
    ai = compiled.AI(8, -1 if pos.black_to_move else 1, 1.0)
    start = time.perf_counter()
    ai.go(chessboard_of(pos))
    seconds = time.perf_counter() - start
    assert ai.last_search["numba"]
    assert ai.search_seconds() <= seconds < 1.0  # 36 empties: the search cannot finish early
    assert ai.last_search["depth"] >= 3
    assert ai.candidate_list[-1] in {divmod(m, 8) for m in pos.legal_moves()}


def test_while_numba_compiles_the_agent_plays_pure_python(tmp_path):
    module, _ = load_generated(random_champion(2, seed=6), tmp_path, "ai_compiling", numba="on")
    released = threading.Event()

    def slow_compile():  # held until the test has played a move
        released.wait(COMPILE_SECONDS)
        raise ImportError("No module named 'numba'")

    module._compile_kernels = slow_compile
    pos = random_reachable(5, 20)
    ai = module.AI(8, -1 if pos.black_to_move else 1, 0.1)  # starts the compile
    ai.go(chessboard_of(pos))
    assert module._COMPILED["thread"].is_alive() and not ai.last_search["numba"]
    assert ai.candidate_list[-1] in {divmod(m, 8) for m in pos.legal_moves()}
    released.set()
    assert not module.wait_until_compiled(COMPILE_SECONDS)


def test_a_numba_failure_during_a_move_leaves_it_to_pure_python(tmp_path):
    module, _ = load_generated(random_champion(2, seed=7), tmp_path, "ai_failing", numba="on")

    def failing_root(*args):
        raise RuntimeError("object mode failed")

    module.start_compiling = lambda: None
    module._COMPILED["root"] = failing_root  # as if compiled, failing at its first clock read
    pos = random_reachable(6, 22)
    ai = module.AI(8, -1 if pos.black_to_move else 1, 0.1)
    ai.go(chessboard_of(pos))
    assert not ai.last_search["numba"] and ai.last_search["depth"] >= 1
    assert ai.candidate_list[-1] in {divmod(m, 8) for m in pos.legal_moves()}
    assert module._COMPILED["root"] is None
    assert module._COMPILED["error"] == "RuntimeError: object mode failed"


def test_without_numba_the_agent_plays_pure_python(tmp_path):
    module, _ = load_generated(random_champion(2, seed=3), tmp_path, "ai_no_numba", numba="on")

    def no_numba():
        raise ImportError("No module named 'numba'")

    module._compile_kernels = no_numba  # as on a platform without numba
    assert not module.wait_until_compiled(COMPILE_SECONDS)
    assert module._COMPILED["error"] == "ImportError: No module named 'numba'"
    pos = random_reachable(4, 20)
    ai = module.AI(8, -1 if pos.black_to_move else 1, 0.1)
    ai.go(chessboard_of(pos))
    assert not ai.last_search["numba"] and ai.last_search["depth"] >= 1
    assert ai.candidate_list[-1] in {divmod(m, 8) for m in pos.legal_moves()}


def test_numba_is_the_default_and_off_and_fixed_depth_are_pure_python():
    weights = random_champion(2, seed=1)
    assert "import numba" in render_cs303(weights)
    for pure in (render_cs303(weights, numba="off"), render_cs303(weights, depth=2)):
        assert "import numba" not in pure and "class NumbaSearch" not in pure
        assert '"""Nothing to compile: this file searches in pure Python."""' in pure
    with pytest.raises(ValueError, match="--numba on applies to the time-limited agent"):
        render_cs303(weights, depth=2, numba="on")
    with pytest.raises(ValueError, match="--numba maybe: allowed values are on, off"):
        render_cs303(weights, numba="maybe")
    network = network_champion(1)
    assert "import numba" in render_cs303_network(network)
    assert "import numba" not in render_cs303_network(network, numba="off")
    assert "import numba" not in render_cs303_network(network, depth=2)


def test_a_node_with_more_than_32_moves(tmp_path, monkeypatch):
    """Reachable positions have at most 33 legal moves; this made-up one has 35. Compiled with
    numba's bounds checks, a move list too short for them raises instead of overwriting."""
    monkeypatch.setattr(numba.config, "BOUNDSCHECK", 1)
    module, _ = load_generated(random_champion(2, seed=5), tmp_path, "ai_checked", numba="on")
    assert module.wait_until_compiled(COMPILE_SECONDS), module._COMPILED["error"]
    pos = Position(0x20083660243C1000, 0x005640024A026A00, True)
    assert len(pos.legal_moves()) == 35
    assert same_best_moves(module, [pos], 4) == 1
