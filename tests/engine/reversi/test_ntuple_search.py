"""Alpha-beta with a network: the evaluation equals a plain-Python network, the search plain
minimax over it, the incremental children the recomputed ones (moves, values and node counts);
agents, time limits and the exact endgame work with network genomes."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from engine.core.records import SearchSettings
from engine.reversi.genome.evaluation import feature_vector, terminal_score
from engine.reversi.genome.layout import CATALOGUE_INDEX
from engine.reversi.genome.network_eval import network_value
from engine.reversi.rules.state import PASS
from engine.reversi.search.searcher import Searcher
from tests.engine.kernels.reference_ntuple import ReferenceNetwork
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_ntuple import cells_of, network_game, random_network
from tests.engine.reversi.helpers_search import minimax, with_passes

ROOT = Path(__file__).resolve().parents[3]
POSITIONS = [random_reachable(seed, plies) for seed in range(3) for plies in (10, 30, 50)] + \
    with_passes(3, seed=5)


def slow_value(w, position, reversed_rules: bool) -> float:
    """The value from the definitions: a plain-Python network of the layout's tuples and
    symmetries (tests/engine/kernels) plus the features' counts times their weights."""
    P, O = position.player, position.opponent
    if position.is_game_over():
        return terminal_score(np.uint64(P), np.uint64(O), reversed_rules)
    reference = ReferenceNetwork(3, [list(t) for t in w.layout.tuples],
                                 w.layout.symmetries.tolist())
    phase = next(p for p in range(w.n_phases)
                 if w.phase_discs(p)[0] <= 64 - position.empties <= w.phase_discs(p)[1])
    value = reference.evaluate(cells_of(P, O), list(w.weights[phase]))
    counts = feature_vector(np.uint64(P), np.uint64(O))
    return value + sum(f * counts[CATALOGUE_INDEX[n]]
                       for n, f in zip(w.feature_names, w.features[phase], strict=True))


@pytest.mark.parametrize("layout, features", [("straight2", []),
                                              ("corner3+edge2x", ["mobility", "stability"]),
                                              ("straight3+square2", ["corners", "parity"])])
def test_the_evaluation_is_the_plain_python_network_plus_the_features(layout, features):
    game = network_game(layout=layout, phases=3, features=features)
    w = random_network(game, 1)
    arrays = w.numba_arrays()
    positions = [random_reachable(seed, plies) for seed in range(6) for plies in (3, 25, 45, 70)]
    for p in positions + with_passes(2, seed=3):
        got = network_value(*p.boards, *arrays, False)
        assert got == pytest.approx(slow_value(w, p, False), rel=1e-12, abs=1e-12)


def leaf_for(w, reversed_rules: bool):
    arrays = w.numba_arrays()
    return lambda p: network_value(*p.boards, *arrays, reversed_rules)


@pytest.mark.parametrize("variant", ["othello", "reversed"])
@pytest.mark.parametrize("integer", [False, True], ids=["random", "ties"])
def test_alphabeta_with_a_network_equals_minimax(variant, integer):
    game = network_game("reversed_reversi" if variant == "reversed" else "othello", phases=2,
                        features=["mobility"])
    w = random_network(game, 7, scale=0.3, integer=integer)
    searcher = Searcher(w, variant, endgame_empties=0, tt_bits=10)
    leaf = leaf_for(w, variant == "reversed")
    for p in POSITIONS:
        if not p.legal_moves():
            continue
        for depth in (1, 2, 3):
            got = searcher.search(p, depth=depth)
            want = minimax(p, depth, leaf, variant == "reversed")
            assert got.score == want, (p.to_string(), depth)
            d = depth if got.move == PASS else depth - 1
            assert -minimax(p.play(got.move), d, leaf, variant == "reversed") == want


@pytest.mark.parametrize("layout", ["straight2", "corner3+edge2x"])
def test_incremental_children_search_exactly_as_recomputed_ones(layout):
    game = network_game(layout=layout, phases=3, features=["mobility", "stability"])
    w = random_network(game, 3, integer=True)
    incremental = Searcher(w, "othello", endgame_empties=0, tt_bits=12, incremental=True)
    recomputed = Searcher(w, "othello", endgame_empties=0, tt_bits=12, incremental=False)
    for p in [random_reachable(seed, 24) for seed in range(4)] + with_passes(2, seed=8):
        for depth in (1, 2, 3, 4, 5):
            a, b = incremental.search(p, depth=depth), recomputed.search(p, depth=depth)
            assert (a.move, a.score, a.nodes) == (b.move, b.score, b.nodes), (p, depth)


def test_network_agents_play_legal_reproducible_games_with_time_limits_and_exact_endgames():
    game = network_game("reversed_reversi", phases=3, features=["mobility"])
    genome = random_network(game, 5).to_genome()
    opening = game.random_openings(1, 3)[0]

    def one_game(search):
        first = game.make_agent(genome, search, seed=1, name="net")
        return game.play(first, game.make_panel_agent("greedy", search, seed=2), opening, 9)

    fixed = SearchSettings(depth=2, endgame_empties=8)
    assert one_game(fixed) == one_game(fixed)
    timed = one_game(SearchSettings(depth=2, endgame_empties=6, time_limit=0.01))
    assert timed.plies >= 58
    searcher = Searcher(random_network(game, 5), "reversed", endgame_empties=10)
    p = next(p for p in (random_reachable(s, 52) for s in range(20)) if p.legal_moves())
    assert searcher.search(p, depth=1).exact == (p.empties <= 10)


def test_a_network_file_is_an_alpha_beta_player_and_nothing_else(tmp_path):
    game = network_game("othello")
    path = tmp_path / "net.json"
    game.save_champion(path, random_network(game, 2).to_genome(), "net")
    settings = SearchSettings(depth=2, endgame_empties=4)
    agent = game.make_panel_agent(str(path), settings, seed=0)
    assert agent.name == "net"
    outcome = game.play(agent, game.make_panel_agent("random", settings, seed=1), (), 5)
    assert outcome.plies >= 50
    for spec in (f"wpc1:{path}", f"mcts:10:{path}", f"bfs::{path}"):
        with pytest.raises(ValueError) as err:
            game.check_spec(spec)
        assert "reads square tables" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.slow
def test_the_network_search_and_self_play_compile_from_a_cold_numba_cache():
    """The callbacks compiled without reference counting must not reach an allocation: only a
    cold cache shows it (a warm one loads what an earlier, differently compiled run left)."""
    script = ("import numpy as np\n"
              "from tests.engine.reversi.helpers_ntuple import network_game, random_network\n"
              "from engine.reversi.search.searcher import Searcher\n"
              "from engine.reversi.rules.state import Position\n"
              "g = network_game(features=['mobility', 'stability'])\n"
              "w = random_network(g, 0)\n"
              "for inc in (True, False):\n"
              "    Searcher(w, 'othello', incremental=inc).search(Position.start(), depth=4)\n"
              "g.td_learn(w.to_genome(), 2, 0, 0.001, 0.1)\n")
    with tempfile.TemporaryDirectory() as cache:
        run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                             text=True, env={**os.environ, "NUMBA_CACHE_DIR": cache})
    assert run.returncode == 0, run.stderr[-2000:]
