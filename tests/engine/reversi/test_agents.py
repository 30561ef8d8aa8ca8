"""Agents: each choice checked against a slow pure-Python reference, seeds reproduce games."""

from __future__ import annotations

import numpy as np
import pytest

from engine.kernels.search.mcts import TIMED_CHUNK
from engine.reversi.agents import mcts as reversi_mcts
from engine.reversi.agents.bfs import BFSEndgameAgent
from engine.reversi.agents.factory import (
    AGENT_SPECS,
    AgentSpec,
    allowed_specs,
    make_agent,
    parse_spec,
    split_epsilon,
)
from engine.reversi.agents.mcts import MCTSAgent
from engine.reversi.agents.simple import (
    EpsilonAgent,
    GreedyAgent,
    RandomAgent,
    WeightedPieceCounterAgent,
    legal_list,
)
from engine.reversi.files import save_json, save_npz
from engine.reversi.rules.state import PASS, Position, square
from tests.engine.kernels.work_clock import WorkClock
from tests.engine.reversi import reference_rules as ref
from tests.engine.reversi.conftest import random_reachable


def cells_of(position: Position) -> list[int]:
    return ref.from_boards(position.player, position.opponent)


def open_positions(reachable_positions) -> list[Position]:
    return [p for p in reachable_positions if p.legal_moves() and p.legal_moves() != [PASS]]


# --- greedy -------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["othello", "reversed"])
def test_greedy_picks_the_extreme_flip_count(reachable_positions, variant):
    agent = GreedyAgent(variant, seed=0)
    pick = max if variant == "othello" else min
    for position in open_positions(reachable_positions):
        cells = cells_of(position)
        counts = {m: len(ref.flipped_squares(cells, m)) for m in ref.legal_moves(cells)}
        move = agent.select_move(position)
        assert counts[move] == pick(counts.values()), position


def test_agents_pass_when_they_must(reachable_positions):
    must_pass = [p for p in reachable_positions if p.legal_moves() == [PASS]]
    assert must_pass, "the fixture should contain positions with a forced pass"
    agents = [RandomAgent(1), GreedyAgent("othello", 1), WeightedPieceCounterAgent(np.ones(64)),
              EpsilonAgent(GreedyAgent(), 0.5, seed=1), MCTSAgent(playouts=20, seed=1),
              BFSEndgameAgent(seed=1)]
    for position in must_pass:
        for agent in agents:
            assert agent.select_move(position) == PASS


def test_greedy_ties_are_broken_by_the_seed():
    start = Position.start()  # all four opening moves flip one disc
    picks = {GreedyAgent(seed=s).select_move(start) for s in range(40)}
    assert picks == set(start.legal_moves())


# --- weighted piece counter ----------------------------------------------------------------


def slow_wpc_value(cells: list[int], move: int, matrix: np.ndarray) -> float:
    after = ref.play(cells, move)  # seen from the next player: the mover's discs are -1
    return sum(matrix[i] * -c for i, c in enumerate(after))


def test_wpc_picks_the_argmax_of_a_slow_evaluation(reachable_positions):
    matrix = np.random.default_rng(5).normal(size=64)
    agent = WeightedPieceCounterAgent(matrix.reshape(8, 8), seed=0)
    for position in open_positions(reachable_positions):
        cells = cells_of(position)
        values = {m: slow_wpc_value(cells, m, matrix) for m in ref.legal_moves(cells)}
        move = agent.select_move(position)
        assert values[move] == pytest.approx(max(values.values()), abs=1e-9)


def test_wpc_reads_weights_objects_like_matrices(reachable_positions):
    import engine.reversi.files as weights_io_mod
    weights = weights_io_mod.reference_weights("wpc")
    matrix = weights.positional[0]
    from_weights, from_matrix = WeightedPieceCounterAgent(weights, 3), WeightedPieceCounterAgent(
        matrix, 3)
    for position in open_positions(reachable_positions)[:60]:
        assert from_weights.select_move(position) == from_matrix.select_move(position)


def test_wpc_rejects_a_wrong_shape():
    with pytest.raises(ValueError, match="shape"):
        WeightedPieceCounterAgent(np.ones(63))


# --- epsilon ------------------------------------------------------------------------------


class LastMove:
    """A deterministic stub: always the highest legal square."""

    name = "last"

    def reset(self, seed=None):
        pass

    def select_move(self, position):
        return position.legal_moves()[-1]


@pytest.mark.parametrize("epsilon", [0.1, 0.4])
def test_epsilon_frequency(epsilon):
    start = Position.start()  # 4 legal moves: a random move differs from the stub's 3 times in 4
    agent = EpsilonAgent(LastMove(), epsilon, seed=11)
    trials = 4000
    differs = sum(agent.select_move(start) != LastMove().select_move(start) for _ in range(trials))
    expected = epsilon * 3 / 4
    sd = (expected * (1 - expected) / trials) ** 0.5
    assert abs(differs / trials - expected) < 5 * sd


def test_epsilon_zero_is_the_inner_agent_and_one_is_uniform():
    start = Position.start()
    assert {EpsilonAgent(LastMove(), 0.0, seed=s).select_move(start) for s in range(20)} == {
        LastMove().select_move(start)}
    assert {EpsilonAgent(LastMove(), 1.0, seed=s).select_move(start) for s in range(40)} == set(
        start.legal_moves())
    with pytest.raises(ValueError, match="epsilon"):
        EpsilonAgent(LastMove(), 1.5)


# --- reproducibility --------------------------------------------------------------------------


def agent_zoo(seed):
    return [RandomAgent(seed), GreedyAgent("reversed", seed),
            EpsilonAgent(GreedyAgent(), 0.3, seed=seed), MCTSAgent(playouts=60, seed=seed),
            MCTSAgent("reversed", playouts=60, weights=np.arange(64.0), seed=seed),
            BFSEndgameAgent("othello", seed=seed, weights=np.ones(64), nodes=500)]


def moves_on(agent, positions) -> list[int]:
    return [agent.select_move(p) for p in positions]


def test_same_seed_same_moves_and_reset_restarts():
    positions = [random_reachable(s, plies) for s in range(6) for plies in (10, 30, 50)]
    positions = [p for p in positions if p.legal_moves()]
    for a, b in zip(agent_zoo(7), agent_zoo(7), strict=True):
        first = moves_on(a, positions)
        assert first == moves_on(b, positions), a.name
        a.reset(7)
        assert moves_on(a, positions) == first, a.name


def test_different_seeds_usually_differ():
    positions = [random_reachable(s, 20) for s in range(10)]
    for kind in (lambda s: RandomAgent(s), lambda s: MCTSAgent(playouts=30, seed=s)):
        assert len({tuple(moves_on(kind(s), positions)) for s in range(4)}) > 1


# --- MCTS and BFS: a move that ends the game at once ------------------------------------------


def wipeout_position() -> Position:
    """X to move with a5, c5, e5 or h4; h4 flips all six white discs: 64-0 and the game ends
    (a win under Othello rules, a loss under Reversed); the other moves let the game go on."""
    board = ["-"] * 64
    board[square("a4")] = board[square("c3")] = "X"
    for name in ("b4", "c4", "d4", "e4", "f4", "g4"):
        board[square(name)] = "O"
    return Position.parse("".join(board) + " X")


WIPEOUT = square("h4")


def test_wipeout_position_is_what_the_tests_assume():
    position = wipeout_position()
    assert sorted(position.legal_moves()) == sorted(square(n) for n in ("a5", "c5", "e5", "h4"))
    after = position.play(WIPEOUT)
    assert after.is_game_over() and after.black_score("othello") == 64
    assert after.black_score("reversed") == -64
    assert not any(position.play(m).is_game_over() for m in position.legal_moves() if m != WIPEOUT)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mcts_takes_the_win_at_once_and_avoids_the_loss_at_once(seed):
    position = wipeout_position()
    assert MCTSAgent("othello", playouts=2000, seed=seed).select_move(position) == WIPEOUT
    assert MCTSAgent("reversed", playouts=2000, seed=seed).select_move(position) != WIPEOUT


def test_mcts_guided_playouts_also_find_it():
    position = wipeout_position()
    agent = MCTSAgent("othello", playouts=2000, weights=-np.arange(64.0), seed=4)
    assert agent.select_move(position) == WIPEOUT


def test_mcts_time_budget_runs_playouts_until_its_clock_says_stop(monkeypatch):
    """On a clock that only the play-outs move (10,000 a second), so any machine runs the
    same play-outs: whole chunks until the limit is reached."""
    WorkClock(1e4).drive(monkeypatch, reversi_mcts, "mcts_run", lambda ran: ran)
    agent = MCTSAgent("othello", time_limit=0.05, seed=1)
    assert agent.select_move(wipeout_position()) == WIPEOUT
    assert agent.last_playouts == 2 * TIMED_CHUNK  # 0.0256 s, then 0.0512 s


def matrix_scoring(square_name: str, value: float) -> np.ndarray:
    matrix = np.ones(64)
    matrix[square(square_name)] = value
    return matrix


@pytest.mark.parametrize("nodes", [1, 200, 20_000])
def test_bfs_prefers_the_win_at_once_over_its_matrix(nodes):
    position = wipeout_position()
    hates_h4 = matrix_scoring("h4", -1000.0)  # the fallback alone would never play h4
    fallback = BFSEndgameAgent("othello", weights=hates_h4, search_empties=0, seed=0)
    assert fallback.select_move(position) != WIPEOUT
    for seed in range(3):
        agent = BFSEndgameAgent("othello", weights=hates_h4, nodes=nodes, search_empties=64,
                                seed=seed)
        assert agent.select_move(position) == WIPEOUT


@pytest.mark.parametrize("nodes", [1, 200, 20_000])
def test_bfs_reversed_avoids_the_loss_at_once_despite_its_matrix(nodes):
    position = wipeout_position()
    loves_h4 = matrix_scoring("h4", 1000.0)
    assert BFSEndgameAgent("reversed", weights=loves_h4, search_empties=0).select_move(
        position) == WIPEOUT
    for seed in range(3):
        agent = BFSEndgameAgent("reversed", weights=loves_h4, nodes=nodes, search_empties=64,
                                seed=seed)
        assert agent.select_move(position) != WIPEOUT


def test_bfs_time_budget_mode():
    agent = BFSEndgameAgent("othello", time_limit=0.02, search_empties=64, seed=0,
                            weights=matrix_scoring("h4", -1000.0))
    assert agent.select_move(wipeout_position()) == WIPEOUT


def corner_position() -> Position:
    """X to move: corner a1 (over b2 to c3), or d1 / e1 (over d2)."""
    return Position.parse("-" * 8 + "-O-O----" + "--XX----" + "-" * 40 + " X")


def test_bfs_corner_rule_is_mirrored_in_reversed():
    position = corner_position()
    assert square("a1") in position.legal_moves() and len(position.legal_moves()) > 1
    flat = np.ones(64)
    assert BFSEndgameAgent("othello", weights=flat, seed=0).select_move(position) == square("a1")
    assert BFSEndgameAgent("reversed", weights=flat, seed=0).select_move(position) != square("a1")


# --- factory --------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["random", "greedy", "wpc1", "mcts", "mcts:50", "bfs", "bfs:99",
                                  "eps0.1:greedy", "eps0.25:wpc1"])
@pytest.mark.parametrize("variant", ["othello", "reversed"])
def test_factory_builds_playable_agents(spec, variant):
    agent = make_agent(spec, variant, seed=1)
    assert agent.name == spec
    position = random_reachable(3, 12)
    assert agent.select_move(position) in position.legal_moves()


def test_factory_wpc1_uses_the_variant_matrix():
    import engine.reversi.files as weights_io_mod
    start = random_reachable(8, 20)
    for variant, ref_name in (("othello", "wpc"), ("reversed", "wpc_negated")):
        matrix = weights_io_mod.reference_weights(ref_name).positional[0]
        assert make_agent("wpc1", variant, seed=2).select_move(start) == \
            WeightedPieceCounterAgent(matrix, seed=2).select_move(start)


@pytest.mark.parametrize("spec", ["nope", "eps0.1:nope", "alphabeta", "mcts:x"])
def test_factory_unknown_spec_names_the_allowed_ones(spec):
    with pytest.raises(ValueError, match="allowed: random, greedy, wpc1"):
        make_agent(spec)


def test_factory_missing_weights_file(tmp_path):
    with pytest.raises(ValueError, match="not found"):
        make_agent(str(tmp_path / "missing.json"))


def test_factory_alphabeta_specs(tmp_path):
    import engine.reversi.files as weights_io_mod
    path = tmp_path / "mine.json"
    save_json(weights_io_mod.reference_weights("course"), path)
    position = random_reachable(4, 16)
    for spec in ("course", "wpc", "wpc_negated", str(path)):
        agent = make_agent(spec, "othello", depth=2, seed=0)
        assert agent.select_move(position) in position.legal_moves()
    assert set(AGENT_SPECS) >= {"random", "greedy", "wpc1", "course", "wpc", "wpc_negated",
                                "mcts", "bfs"}


# --- strength sanity: a sign error in a reward would make these lose ------------------------


@pytest.mark.parametrize("variant", ["othello", "reversed"])
def test_mcts_beats_random_in_both_variants(variant):
    from tests.engine.reversi.helpers_match import play_pairs, random_openings

    records = play_pairs(MCTSAgent(variant, playouts=200), RandomAgent(), random_openings(5, 1),
                         variant, seed=2)
    score = sum(r.score_for(black=(i % 2 == 0)) for i, r in enumerate(records))
    assert score >= 8, [r.black_score for r in records]


def test_kernel_rng_picks_set_bits_uniformly():
    from engine.kernels.rng import random_bit

    state = np.array([12345], np.uint64)
    mask = np.uint64((1 << 3) | (1 << 17) | (1 << 40) | (1 << 63))
    draws = [random_bit(state, mask) for _ in range(8000)]
    counts = {sq: draws.count(sq) for sq in set(draws)}
    assert set(counts) == {3, 17, 40, 63}
    assert all(abs(c - 2000) < 5 * (8000 * 0.25 * 0.75) ** 0.5 for c in counts.values())
    again = np.array([12345], np.uint64)
    assert [random_bit(again, mask) for _ in range(100)] == draws[:100]


# --- weights files for every agent that uses weights -----------------------------------------


def weights_file(tmp_path, seed=3, suffix=".json"):
    """A 3-phase random weights file and the ``Weights`` it holds."""
    from engine.reversi.genome.weights import GenomeLayout, Weights, default_phase_bounds

    layout = GenomeLayout(3, False)
    w = Weights.from_genome(np.random.default_rng(seed).uniform(-1, 1, layout.size),
                            default_phase_bounds(3), False, name="mine")
    path = tmp_path / f"mine{suffix}"
    (save_json if suffix == ".json" else save_npz)(w, path)
    return path, w


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_agents_accept_a_weights_file_path(tmp_path, suffix):
    path, w = weights_file(tmp_path, suffix=suffix)
    positions = [random_reachable(s, plies) for s in range(4) for plies in (8, 30, 48)]
    pairs = [
        (WeightedPieceCounterAgent(path, seed=1), WeightedPieceCounterAgent(w, seed=1)),
        (WeightedPieceCounterAgent(str(path), seed=1), WeightedPieceCounterAgent(w, seed=1)),
        (MCTSAgent(playouts=80, weights=path, seed=2), MCTSAgent(playouts=80, weights=w, seed=2)),
        (BFSEndgameAgent(weights=str(path), nodes=300, seed=3),
         BFSEndgameAgent(weights=w, nodes=300, seed=3)),
    ]
    for from_path, from_object in pairs:
        assert np.array_equal(from_path.positional, w.positional)
        assert moves_on(from_path, positions) == moves_on(from_object, positions)
    assert pairs[0][0].name == "mine" and pairs[2][0].guided


def test_agents_refuse_a_bad_weights_file(tmp_path):
    from engine.reversi.genome.weights import WeightsFileError

    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 1')
    for build in (lambda: WeightedPieceCounterAgent(bad), lambda: MCTSAgent(weights=bad),
                  lambda: BFSEndgameAgent(weights=str(bad)), lambda: make_agent(f"mcts:5:{bad}")):
        with pytest.raises(WeightsFileError, match="truncated JSON"):
            build()


def test_factory_weights_specs_use_the_file(tmp_path):
    path, w = weights_file(tmp_path)
    position = random_reachable(5, 20)
    guided = make_agent(f"mcts:40:{path}", "reversed", seed=1)
    assert guided.guided and guided.playouts == 40 and np.array_equal(guided.positional,
                                                                      w.positional)
    assert guided.name == f"mcts:40:{path}"
    timed = make_agent(f"mcts::{path}", time_limit=0.01, seed=1)
    assert timed.guided and timed.playouts is None and timed.time_limit == 0.01
    bfs = make_agent(f"bfs:99:{path}", seed=1)
    assert bfs.nodes == 99 and np.array_equal(bfs.positional, w.positional)
    assert np.array_equal(make_agent("bfs::course").positional[0],
                          make_agent("course").weights.positional[0])
    wpc = make_agent(f"wpc1:{path}", seed=1)
    assert np.array_equal(wpc.positional, w.positional)
    assert wpc.select_move(position) == WeightedPieceCounterAgent(w, seed=1).select_move(position)
    for spec in (f"mcts:40:{path}", f"bfs:99:{path}", f"wpc1:{path}", f"eps0.2:mcts::{path}"):
        agent = make_agent(spec, seed=0)
        assert agent.select_move(position) in position.legal_moves()


def test_parse_spec_round_trips_and_names_the_weights():
    cases = {
        "mcts": AgentSpec("mcts"),
        "mcts:50": AgentSpec("mcts", 50),
        "mcts:50:w.json": AgentSpec("mcts", 50, "w.json"),
        "mcts::wpc": AgentSpec("mcts", None, "wpc"),
        "bfs:7:dir/w.npz": AgentSpec("bfs", 7, "dir/w.npz"),
        "wpc1:course": AgentSpec("wpc1", None, "course"),
        "course": AgentSpec("alphabeta", None, "course"),
        "champ.json": AgentSpec("alphabeta", None, "champ.json"),
        "eps0.1:wpc1": AgentSpec("wpc1", epsilon=0.1),
        "eps0.25:bfs:9:w.json": AgentSpec("bfs", 9, "w.json", 0.25),
    }
    for text, spec in cases.items():
        assert parse_spec(text) == spec and str(spec) == text
    assert parse_spec("mcts:50:w.json").weights_file == "w.json"
    assert parse_spec("mcts::wpc").weights_file is None  # a reference set, not a file
    for form in ("mcts:<playouts>:<weights>", "bfs:<nodes>:<weights>", "wpc1:<weights>"):
        assert form in allowed_specs()


def test_split_epsilon():
    assert split_epsilon("eps0.1:wpc1") == (0.1, "wpc1")
    assert split_epsilon("eps.5:mcts:9:w.json") == (0.5, "mcts:9:w.json")
    assert split_epsilon(" greedy ") == (None, "greedy")
    for bad, message in (("eps1.5:wpc1", "epsilon must be in"), ("eps0.1", "expected eps<p>"),
                         ("eps0.1:eps0.2:wpc1", "only one eps")):
        with pytest.raises(ValueError, match=message):
            parse_spec(bad)


@pytest.mark.parametrize("build, message", [
    (lambda: MCTSAgent(time_limit=-1.0), "time_limit must be > 0"),
    (lambda: MCTSAgent(time_limit=0.0), "time_limit must be > 0"),
    (lambda: MCTSAgent(playouts=0), "playouts must be >= 1"),
    (lambda: MCTSAgent(guide_epsilon=1.5), "guide_epsilon"),
    (lambda: BFSEndgameAgent(time_limit=-0.5), "time_limit must be > 0"),
    (lambda: BFSEndgameAgent(nodes=0), "nodes must be >= 1"),
    (lambda: BFSEndgameAgent(search_empties=-1), "search_empties"),
    (lambda: make_agent("mcts", time_limit=-1.0), "time_limit must be > 0"),
    (lambda: make_agent("bfs", time_limit=0.0), "time_limit must be > 0"),
])
def test_search_agents_refuse_bad_budgets(build, message):
    with pytest.raises(ValueError, match=message):
        build()


def test_legal_list_is_the_position_s_legal_moves(reachable_positions):
    for position in reachable_positions:
        if position.is_game_over():
            with pytest.raises(ValueError, match="finished game"):
                legal_list(position)
        else:
            assert legal_list(position) == position.legal_moves()
