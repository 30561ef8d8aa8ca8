"""TD against fixed opponents (``td_learn(..., opponents=...)``, ``python -m evolve.td
--opponents``): the opponents as networks evaluate exactly as their square tables, the
opponent's side plays the opponent's 1-ply moves and never learns, and runs replay from their
seed."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.core.registry import get_game
from engine.kernels.rng import new_state
from engine.reversi.files import reference_weights
from engine.reversi.genome.evaluation import evaluate
from engine.reversi.genome.layout import CATALOGUE_INDEX
from engine.reversi.genome.network_eval import network_value
from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import Position
from engine.reversi.td.opponents import OPPONENT_BLOCK, opponent_network, opponent_schedule
from engine.reversi.td.selfplay import MAX_RECORD, needed_features, new_scratch, self_play_game
from engine.reversi.td.step_rules import largest_weights, no_rule
from evolve import td
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_ntuple import network_game, random_network

LEAGUE = "experiments/results/champions/othello_league.json"
MASK = (1 << 64) - 1
SETTINGS = {"genome": {"kind": "ntuple", "layout": "straight2", "features": []}}


@pytest.mark.parametrize("spec, table", [("wpc1", "wpc"), ("course", "course"),
                                         (LEAGUE, LEAGUE)])
def test_a_square_table_opponent_is_a_network_with_the_same_values(spec, table):
    from engine.reversi.files import load_weights

    net = opponent_network(spec, False)
    source = load_weights(table) if table.endswith(".json") else reference_weights(table)
    assert net.layout.n_weights == 64 * 3 and net.phase_bounds == source.phase_bounds
    for seed in range(60):
        P, O = random_reachable(seed, 4 + seed % 52).boards
        assert network_value(P, O, *net.numba_arrays(), False) == pytest.approx(
            evaluate(P, O, *source.numba_arrays(), False), abs=1e-9)


def wpc_sum(P: int, O: int, table) -> float:
    """Own minus opponent positional sum, in plain Python."""
    return sum(table[c] * ((P >> c & 1) - (O >> c & 1)) for c in range(64))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_opponents_side_plays_its_one_ply_moves_and_does_not_learn(seed):
    """epsilon 0, the opponent (wpc1) second: each of its moves reaches a child whose
    positional sum (its view) is the best of the legal moves', checked in plain Python."""
    game = network_game()
    w = random_network(game, seed, scale=0.05)
    phase_of_discs, t, weights, features = (a.copy() if isinstance(a, np.ndarray) else a
                                            for a in w.numba_arrays())
    opponent = opponent_network("wpc1", False)
    before = opponent.weights.copy()
    learnable = np.zeros(features.shape[1], np.bool_)
    learnable[[CATALOGUE_INDEX[n] for n in w.feature_names]] = True
    records = (np.empty(MAX_RECORD, np.uint64), np.empty(MAX_RECORD, np.uint64),
               np.empty(MAX_RECORD, np.int64))
    start = Position.start()
    count, _, _ = self_play_game(
        np.uint64(start.player), np.uint64(start.opponent), 0.5, 0.0,
        new_state(np.random.default_rng(seed)), phase_of_discs, t, weights, features,
        learnable, needed_features(features, learnable), largest_weights(weights), False,
        new_scratch(t, weights.shape[1]), *records, 1, *opponent.numba_arrays(),
        np.empty(len(opponent.tables.offset), np.int64), no_rule())
    players, opponents, mover = (r[:count] for r in records)
    assert one_ply_moves_checked(players, opponents, mover, 1) >= 15  # about half of its ~30
    # moves; the rest end the game or pass
    assert np.array_equal(opponent.weights, before)
    assert not np.array_equal(weights, w.weights)  # the network learnt


def one_ply_moves_checked(players, opponents, mover, side: int) -> int:
    """How many of ``side``'s moves in one recorded game were checked to be the moves of
    ``wpc1`` at 1 ply: each reaches a child whose positional sum (its view) is the best of the
    legal moves', in plain Python (moves that end the game are skipped)."""
    table = reference_weights("wpc").positional[0]
    checked = 0
    for k in range(len(players) - 1):
        if mover[k] != side:
            continue
        P, O = int(players[k]), int(opponents[k])
        played = (int(players[k + 1]) | int(opponents[k + 1])) & ~(P | O)
        values = {}
        moves = int(bb.legal_moves(np.uint64(P), np.uint64(O)))
        for sq in (s for s in range(64) if moves >> s & 1):
            nP, nO = (int(x) & MASK for x in bb.make_move(np.uint64(P), np.uint64(O), sq,
                                                   bb.flips(np.uint64(P), np.uint64(O), sq)))
            if not bb.legal_moves(np.uint64(nP), np.uint64(nO)) and \
                    not bb.legal_moves(np.uint64(nO), np.uint64(nP)):
                break  # a finished child is scored by its result, not the table
            values[sq] = -wpc_sum(nP, nO, table)
        else:
            assert played.bit_count() == 1
            assert values[played.bit_length() - 1] == pytest.approx(max(values.values()))
            checked += 1
    return checked


def test_rounds_against_opponents_learn_what_online_td_learns_when_every_move_is_random():
    """epsilon 1: the moves do not depend on who plays them, so a round (``td_play`` with
    opponents, then ``td_learn_games``) is online TD against them: the same schedule of
    blocks from the seed, every position learnt from, in order."""
    game = get_game("othello", SETTINGS)
    genome = np.random.default_rng(2).uniform(-0.05, 0.05, game.genome_spec().size)
    kwargs = {"opponents": ("wpc1", "course"), "self_play_share": 0.25}
    online = game.td_learn(genome, 250, 5, 0.1, 1.0, **kwargs)
    record = game.td_play(genome, 250, 5, 1.0, **kwargs)
    np.testing.assert_array_equal(game.td_learn_games(genome, [record], 0.1)[0], online)


def test_no_games_against_opponents_is_an_empty_record():
    game = get_game("othello", SETTINGS)
    record = game.td_play(np.zeros(game.genome_spec().size), 0, 1, 0.1, opponents=("wpc1",))
    assert all(len(v) == 0 for v in record.values())
    assert record["players"].dtype == np.uint64 and record["movers"].dtype == np.int8


def test_in_rounds_the_opponents_side_plays_its_one_ply_moves():
    """epsilon 0, only wpc1: in even games it is player 1, in odd ones player 0 (as online)."""
    game = get_game("othello", SETTINGS)
    genome = np.random.default_rng(4).uniform(-0.05, 0.05, game.genome_spec().size)
    record = game.td_play(genome, 4, 1, 0.0, opponents=("wpc1",), self_play_share=0.0)
    again = game.td_play(genome, 4, 1, 0.0, opponents=("wpc1",), self_play_share=0.0)
    assert all(np.array_equal(record[k], again[k]) for k in record)
    assert not np.array_equal(record["players"], game.td_play(genome, 4, 1, 0.0)["players"])
    ends = np.cumsum(record["lengths"])
    for g, (start, end) in enumerate(zip([0, *ends[:-1]], ends, strict=True)):
        game_of = (record[k][start:end] for k in ("players", "opponents", "movers"))
        assert one_ply_moves_checked(*game_of, 1 - g % 2) >= 12


def test_the_schedule_keeps_a_share_of_self_play_and_uses_every_opponent():
    blocks = opponent_schedule(200 * OPPONENT_BLOCK + 7, 2, 0.5, np.random.default_rng(3))
    assert sum(n for _, n in blocks) == 200 * OPPONENT_BLOCK + 7 and blocks[-1][1] == 7
    who = [w for w, _ in blocks]
    assert 0.35 < who.count(-1) / len(who) < 0.65 and who.count(0) and who.count(1)
    assert all(w == -1 for w, _ in opponent_schedule(1000, 2, 1.0, np.random.default_rng(0)))


def test_td_against_opponents_replays_from_its_seed_and_differs_from_self_play():
    game = get_game("othello", SETTINGS)
    genome = np.zeros(game.genome_spec().size)
    kwargs = {"opponents": ("wpc1", "course"), "self_play_share": 0.25}
    a = game.td_learn(genome, 300, 5, 0.1, 0.1, **kwargs)
    assert np.array_equal(a, game.td_learn(genome, 300, 5, 0.1, 0.1, **kwargs))
    assert not np.array_equal(a, game.td_learn(genome, 300, 5, 0.1, 0.1))
    assert np.array_equal(game.td_learn(genome, 300, 5, 0.1, 0.1, self_play_share=1.0),
                          game.td_learn(genome, 300, 5, 0.1, 0.1))


def test_the_cli_records_the_opponents(tmp_path):
    out = tmp_path / "net.json"
    assert td.main(["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage",
                    "200:0.1", "--opponents", "wpc1", "--self-play-share", "0.3", "--out",
                    str(out)]) == 0
    meta = json.loads(out.read_text())["metadata"]["td"]
    assert meta["opponents"] == ["wpc1"] and meta["self_play_share"] == 0.3
    game = get_game("othello", SETTINGS)
    np.testing.assert_array_equal(game.load_champion(out).genome, game.td_learn(
        np.zeros(game.genome_spec().size), 200, np.random.SeedSequence([0, 0, 0]), 0.1, 0.1,
        opponents=("wpc1",), self_play_share=0.3))


@pytest.mark.parametrize("game_name, args, message", [
    ("othello", ["--opponents", "nope"], "error: TD opponent 'nope': weights file not found"),
    ("othello", ["--opponents", "wpc1", "--self-play-share", "2"],
     "error: --self-play-share 2.0: allowed 0 <= share <= 1"),
    ("pentago_twist", ["--opponents", "greedy"],
     "error: --opponents: pentago_twist learns by self-play only"),
])
def test_bad_opponents_are_one_line_errors(tmp_path, capsys, game_name, args, message):
    out = tmp_path / "x.json"
    settings = SETTINGS if game_name == "othello" else {"genome": {"kind": "ntuple"}}
    assert td.main(["--game", game_name, "--settings", json.dumps(settings), "--stage",
                    "10:0.1", *args, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1
    assert not out.exists()
