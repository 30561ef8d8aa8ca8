"""The generated CS303 single-file agent: same rules and evaluation as the engine, legal play
through the platform's ``AI`` interface, full games against the project's agents."""

from __future__ import annotations

import ast
import importlib.util
import time

import numpy as np
import pytest

from engine.reversi.agents.simple import GreedyAgent, RandomAgent
from engine.reversi.export.cs303 import render_cs303
from engine.reversi.genome import evaluation
from engine.reversi.genome.weights import GenomeLayout, Weights, default_phase_bounds
from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import PASS, Position, square
from tests.engine.reversi.conftest import random_reachable


def random_champion(n_phases: int, seed: int) -> Weights:
    rng = np.random.default_rng(seed)
    genome = rng.uniform(-1, 1, GenomeLayout(n_phases, False).size)
    w = Weights.from_genome(genome, default_phase_bounds(n_phases), False, name=f"r{seed}")
    w.metadata["variant"] = "reversed"
    return w


def load_generated(weights: Weights, tmp_path, name: str = "cs303_ai", numba: str = "off"):
    """The generated agent as a module; pure Python unless ``numba="on"`` (the export's
    default), so that these tests start no background compile."""
    path = tmp_path / f"{name}.py"
    path.write_text(render_cs303(weights, numba=numba))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


@pytest.fixture(scope="module")
def ai_module(tmp_path_factory):
    module, _ = load_generated(random_champion(4, seed=11), tmp_path_factory.mktemp("cs303"))
    return module


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    plies = (3, 15, 30, 45, 56, 70)
    return [random_reachable(seed, n) for seed in range(30) for n in plies]


def imports(nodes) -> set[str]:
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            found.add(node.module.split(".")[0])
    return found


def test_generated_file_imports_only_numpy_and_the_standard_library(tmp_path):
    _, path = load_generated(random_champion(2, seed=1), tmp_path)
    assert imports(ast.walk(ast.parse(path.read_text()))) <= {"numpy", "time"}
    # the default export: numba (and the thread that compiles it) only inside functions
    _, path = load_generated(random_champion(2, seed=1), tmp_path, "with_numba", numba="on")
    tree = ast.parse(path.read_text())
    assert imports(tree.body) <= {"numpy", "time", "collections"}
    assert imports(ast.walk(tree)) == {"numpy", "time", "collections", "numba", "threading", "sys",
                                       "types"}


@pytest.mark.parametrize("numba", ["off", "on"])
def test_generated_file_is_python_3_7_syntax(tmp_path, numba):
    _, path = load_generated(random_champion(2, seed=1), tmp_path, numba=numba)
    ast.parse(path.read_text(), feature_version=(3, 7))  # the course's Python


def test_edge_stability_table_equals_the_engines(ai_module):
    assert np.array_equal(np.array(ai_module.EDGE_STABLE), evaluation.EDGE_STABLE.astype(np.int64))


def test_legal_moves_and_flips_equal_the_engines(ai_module, positions):
    for pos in positions:
        P, O = pos.player, pos.opponent
        assert ai_module.legal_moves(P, O) == int(bb.legal_moves(*pos.boards))
        for sq in range(64):
            if not (P | O) >> sq & 1:
                assert ai_module.flips(P, O, sq) == int(bb.flips(*pos.boards, sq))


def test_stable_discs_equal_the_engines(ai_module, positions):
    for pos in positions:
        P, O = pos.player, pos.opponent
        assert ai_module.stable_discs(P, O) == int(evaluation.stable_discs(*pos.boards))
        assert ai_module.stable_discs(O, P) == int(evaluation.stable_discs(*pos.boards[::-1]))


@pytest.mark.parametrize("n_phases, seed", [(1, 2), (4, 3), (60, 4)])
def test_evaluation_equals_the_engines(tmp_path, positions, n_phases, seed):
    weights = random_champion(n_phases, seed)
    module, _ = load_generated(weights, tmp_path, f"ai_{n_phases}")
    arrays = weights.numba_arrays()
    for pos in positions:
        expected = evaluation.evaluate(*pos.boards, *arrays, True)
        value = module.evaluate(pos.player, pos.opponent)
        assert value == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_finished_games_are_scored_by_the_reversed_rule(ai_module):
    # black owns everything but h8, which is empty: game over, black has more discs -> loses
    pos = Position.from_boards((1 << 63) - 1, 0, True)
    assert pos.is_game_over()
    assert ai_module.evaluate(pos.player, pos.opponent) == pytest.approx(-1e6 - 64)


def chessboard_of(pos: Position) -> np.ndarray:
    """The platform's 8x8 array: -1 black, 1 white; row r, column c is square 8 * r + c."""
    board = np.zeros(64, dtype=np.int64)
    for sq in range(64):
        board[sq] = -1 if pos.black >> sq & 1 else 1 if pos.white >> sq & 1 else 0
    return board.reshape(8, 8)


def test_start_position_maps_to_the_platforms_board(ai_module):
    board = chessboard_of(Position.start())
    assert board[3, 3] == board[4, 4] == 1 and board[3, 4] == board[4, 3] == -1
    ai = ai_module.AI(8, -1, 0.2)
    ai.go(board)
    expected = {divmod(square(n), 8) for n in ("d3", "c4", "f5", "e6")}
    assert set(ai.candidate_list) == expected
    assert ai.candidate_list[-1] in expected


def test_no_legal_move_leaves_the_list_empty(ai_module):
    # white to move has no move (black owns everything but a1): candidate list stays empty
    pos = Position.from_boards(((1 << 64) - 1) ^ 1 ^ (1 << 9), 1 << 9, False)
    assert pos.legal_moves_mask() == 0
    ai = ai_module.AI(8, 1, 0.2)
    ai.candidate_list.append((9, 9))  # stale entries from an earlier call must go
    ai.go(chessboard_of(pos))
    assert ai.candidate_list == []


def test_a_tiny_time_out_still_leaves_only_legal_moves(ai_module, positions):
    for pos in positions[::7]:
        if pos.legal_moves_mask() == 0:
            continue
        ai = ai_module.AI(8, -1 if pos.black_to_move else 1, 0.001)
        ai.go(chessboard_of(pos))
        legal = {divmod(m, 8) for m in pos.legal_moves()}
        assert ai.candidate_list and set(ai.candidate_list) <= legal


def test_with_time_it_finds_the_exact_best_move_near_the_end(ai_module):
    # 6 empties: the agent searches to the end; its move must keep the exact value optimal
    checked = 0
    for seed in range(40):
        pos = random_reachable(seed, 54)
        if pos.is_game_over() or pos.legal_moves_mask() == 0 or pos.empties > 8:
            continue
        ai = ai_module.AI(8, -1 if pos.black_to_move else 1, 2.0)
        ai.go(chessboard_of(pos))
        r, c = ai.candidate_list[-1]
        values = {m: -exact(pos.play(m)) for m in pos.legal_moves()}
        assert values[8 * r + c] == max(values.values())
        checked += 1
    assert checked >= 5


def exact(pos: Position) -> int:
    """Brute-force final score (reversed rules) for the side to move: an independent reference."""
    moves = pos.legal_moves()
    if not moves:
        return pos.final_score("reversed")
    return max(-exact(pos.play(m)) for m in moves)


def make_opponent(kind: str):
    if kind == "random":
        return RandomAgent(seed=5)
    if kind == "greedy":
        return GreedyAgent("reversed", seed=5)
    from engine.reversi.agents.factory import make_agent

    return make_agent("wpc_negated", "reversed", depth=2, seed=5)


@pytest.mark.parametrize("opponent", ["random", "greedy", "alphabeta"])
@pytest.mark.parametrize("ai_colour", [-1, 1])
def test_full_games_through_the_platform_interface(ai_module, opponent, ai_colour):
    agent = make_opponent(opponent)
    agent.reset(5)
    ai = ai_module.AI(8, ai_colour, 0.05)
    pos = Position.start()
    plies = 0
    while not pos.is_game_over():
        ai_turn = (ai_colour == -1) == pos.black_to_move
        if pos.legal_moves_mask() == 0:
            move = PASS
        elif ai_turn:
            ai.go(chessboard_of(pos))
            legal = {divmod(m, 8) for m in pos.legal_moves()}
            assert ai.candidate_list and set(ai.candidate_list) <= legal
            r, c = ai.candidate_list[-1]
            move = 8 * r + c
        else:
            move = agent.select_move(pos)
        pos = pos.play(move)
        plies += 1
    black, white = pos.disc_counts()
    assert plies >= 30 and black + white <= 64


def minimax(module, P, O, depth):
    """Plain negamax without pruning or ordering (passes keep the depth, like the agent)."""
    moves = module.legal_moves(P, O)
    if not moves:
        if not module.legal_moves(O, P):
            return module.terminal_value(P, O)
        return -minimax(module, O, P, depth)
    if depth == 0:
        return module.evaluate(P, O)
    best = -float("inf")
    for sq in range(64):
        if moves >> sq & 1:
            f = module.flips(P, O, sq)
            best = max(best, -minimax(module, O ^ f, P ^ f ^ (1 << sq), depth - 1))
    return best


def test_alpha_beta_value_equals_plain_minimax(ai_module, positions):
    for pos in positions[::9]:
        for depth in (1, 2, 3):
            searcher = ai_module.Searcher(deadline=float("inf"))
            value = searcher.negamax(pos.player, pos.opponent, depth, -2e6, 2e6)
            assert value == pytest.approx(minimax(ai_module, pos.player, pos.opponent, depth))


def test_deepening_searches_every_depth_up_to_the_last_empty_square(ai_module):
    assert ai_module.deepening_schedule(30)[:3] == [1, 2, 3]
    assert ai_module.deepening_schedule(30)[-1] == 30
    k = ai_module.ENDGAME_EMPTIES
    assert ai_module.deepening_schedule(k) == list(range(1, k + 1))
    assert ai_module.deepening_schedule(1) == [1]
    assert ai_module.deepening_schedule(30, max_depth=5) == [1, 2, 3, 4, 5]


def test_the_root_reports_each_move_proven_better_and_ends_on_the_best(ai_module, positions):
    for pos in positions[1::9]:
        if pos.legal_moves_mask() == 0:
            continue
        P, O = pos.player, pos.opponent
        values = {}
        for sq in pos.legal_moves():
            f = ai_module.flips(P, O, sq)
            values[sq] = -minimax(ai_module, O ^ f, P ^ f ^ (1 << sq), 1)
        heard = []
        best = ai_module.Searcher(float("inf")).root(P, O, 2, None, heard.append)
        assert heard[-1] == best and values[best] == max(values.values())
        assert [values[sq] for sq in heard] == sorted(values[sq] for sq in heard)
        assert len(set(values[sq] for sq in heard)) == len(heard)  # each strictly better


def test_the_search_uses_the_time_out_less_a_margin_and_never_more(ai_module):
    ai = ai_module.AI(8, -1, 1.0)
    assert 0.8 <= ai.search_seconds() < 0.9
    assert ai_module.AI(8, -1, 5.0).search_seconds() == pytest.approx(4.65)
    pos = random_reachable(3, 24)
    ai = ai_module.AI(8, -1 if pos.black_to_move else 1, 1.0)
    start = time.perf_counter()
    ai.go(chessboard_of(pos))
    seconds = time.perf_counter() - start
    assert ai.search_seconds() <= seconds < 1.0  # 36 empties: the search cannot finish early
    assert ai.last_search["depth"] >= 3 and ai.last_search["nodes"] > 1000
    assert ai.candidate_list[-1] in {divmod(m, 8) for m in pos.legal_moves()}


# --- optional feature groups (game.genome.features) ---------------------------------------------

ALL_GROUPS = ("mobility", "stability", "corners", "parity")


def every_group_champion(n_phases: int, seed: int, symmetric: bool = False) -> Weights:
    rng = np.random.default_rng(seed)
    genome = rng.uniform(-1, 1, GenomeLayout(n_phases, symmetric, ALL_GROUPS).size)
    w = Weights.from_genome(genome, default_phase_bounds(n_phases), symmetric, name=f"all{seed}",
                            groups=ALL_GROUPS)
    w.metadata["variant"] = "reversed"
    return w


def test_every_feature_equals_the_engines(ai_module, positions):
    from engine.reversi.genome.evaluation import ALL_FEATURE_NAMES

    assert ai_module.ALL_FEATURES == ALL_FEATURE_NAMES
    for pos in positions:
        expected = [int(v) for v in evaluation.feature_vector(*pos.boards)]
        assert ai_module.all_feature_values(pos.player, pos.opponent) == expected


def test_the_file_names_only_the_features_its_weights_use(tmp_path):
    default, _ = load_generated(random_champion(2, seed=1), tmp_path, "ai_default")
    assert len(default.FEATURE_NAMES) == 6 and len(default.FEATURES[0]) == 6
    assert all(row[6:] == (0.0,) * 6 for row in default.WEIGHTS)
    weights = every_group_champion(2, seed=1)
    every, _ = load_generated(weights, tmp_path, "ai_every")
    assert every.FEATURE_NAMES == every.ALL_FEATURES
    assert np.array_equal(np.array(every.WEIGHTS), weights.numba_arrays()[2])


@pytest.mark.parametrize("n_phases, seed", [(1, 5), (4, 6)])
def test_evaluation_with_every_feature_group_equals_the_engines(tmp_path, positions, n_phases,
                                                                 seed):
    weights = every_group_champion(n_phases, seed)
    module, _ = load_generated(weights, tmp_path, f"ai_every_{n_phases}")
    arrays = weights.numba_arrays()
    for pos in positions:
        expected = evaluation.evaluate(*pos.boards, *arrays, True)
        assert module.evaluate(pos.player, pos.opponent) == pytest.approx(expected, rel=1e-9,
                                                                          abs=1e-9)
        assert module.evaluate_in_engine_order(pos.player, pos.opponent) == expected


@pytest.mark.parametrize("groups", [("corners",), ("mobility", "parity")])
def test_evaluation_with_some_groups_equals_the_engines(tmp_path, positions, groups):
    rng = np.random.default_rng(8)
    genome = rng.uniform(-1, 1, GenomeLayout(3, True, groups).size)
    weights = Weights.from_genome(genome, default_phase_bounds(3), True, groups=groups)
    weights.metadata["variant"] = "reversed"
    module, _ = load_generated(weights, tmp_path, f"ai_{'_'.join(groups)}")
    arrays = weights.numba_arrays()
    for pos in positions:
        expected = evaluation.evaluate(*pos.boards, *arrays, True)
        assert module.evaluate_in_engine_order(pos.player, pos.opponent) == expected


def test_fixed_depth_agent_with_every_feature_group_plays_the_engines_moves(tmp_path):
    from tests.engine.reversi.test_cs303_fixed_depth import generated, moves_compared

    weights = every_group_champion(3, seed=9, symmetric=True)
    module = generated(weights, tmp_path, 2, 3)
    assert moves_compared(module, weights, 2, 3, games=2) > 80
