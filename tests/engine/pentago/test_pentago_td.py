"""TD self-play of Pentago Twist's ``ntuple`` genomes: the twist's results, reproducibility,
the contract, and that it learns something a zero network does not know."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.core import SearchSettings, get_game
from engine.core.matches.runner import play_game
from engine.kernels import ntuple as nt
from engine.kernels.ntuple import evaluate_bits
from engine.kernels.ntuple.td import squared_counts
from engine.pentago.agents import tactics
from engine.pentago.genome.evaluation import phase_table
from engine.pentago.rules.state import State, parse_state
from engine.pentago.td import selfplay as td

GAME = get_game("pentago_twist")
SMALL = GAME.with_settings({"genome": {"kind": "ntuple", "layout": "straight5", "phases": 1}})


def network_args(game, genome):
    net, feat = game.network.split(genome)
    idx = np.empty(len(game.network.tables.offset), np.int64)
    return game.network.tables, net, feat, phase_table(game.network.phases), False, idx


# White to move. Twisting the top-right quadrant clockwise carries black's stones from (1, 5)
# and (2, 5) to (2, 4) and (2, 3): black's row 2 then holds (2,0)..(2,4), a five made by white's
# own twist.
OPPONENTS_FIVE = parse_state("""W.....
W....B
BBB..B
B.....
WW.W..
.....W
W""")


def test_a_successor_is_lost_when_the_movers_twist_completes_the_opponents_five():
    args = network_args(SMALL, np.zeros(SMALL.genome_spec().size))
    seen = {}
    for move in OPPONENTS_FIVE.legal_moves():
        child = OPPONENTS_FIVE.after(move)
        value = td._afterstate(*child.boards(), *args)
        threat = not child.is_over() and tactics.winning_move(*child.boards()) >= 0
        seen.setdefault((child.winner(), threat), set()).add(value)
    assert seen[(1, False)] == {-1.0}  # black, the opponent of the mover, has five
    assert seen[(None, True)] == {-1.0}  # black can win at once: what the search's leaves say
    assert seen[(None, False)] == {-0.0}  # zero network: the other successors are worth 0
    white_wins = parse_state("WWWW..\n......\n......\n......\n......\nBBB.B.\nW")
    values = {td._afterstate(*white_wins.after(m).boards(), *args)
              for m in white_wins.legal_moves()}
    assert max(values) == 1.0 and min(values) == -1.0


def test_the_final_result_is_read_for_white_after_an_even_or_odd_number_of_plies():
    over = OPPONENTS_FIVE.after(4 * 8 + 2)  # white plays (0,4), twists top-right: black's five
    assert over.winner() == 1
    assert td._final_result(*over.boards(), over.stones) == -1.0
    full_draw = parse_state("WBWBWB\nBWBWBW\nBWBWBW\nWBWBWB\nWBWBWB\nBWBWBW\nW")
    assert full_draw.winner() == -1 and td._final_result(*full_draw.boards(), 36) == 0.0


def test_learning_is_reproducible_from_the_seed_and_leaves_its_input_alone():
    genome = np.zeros(SMALL.genome_spec().size)
    a = SMALL.td_learn(genome, 30, 7, 0.3, 0.1)
    assert not genome.any()
    assert np.array_equal(a, SMALL.td_learn(genome, 30, 7, 0.3, 0.1))
    assert not np.array_equal(a, SMALL.td_learn(genome, 30, 8, 0.3, 0.1))
    assert a.dtype == np.float64 and a.shape == genome.shape and a.any()
    assert np.array_equal(SMALL.td_learn(a, 0, 1, 0.3, 0.1), a)


@pytest.mark.parametrize("state", [State(), OPPONENTS_FIVE])
def test_a_step_moves_the_sum_by_alpha_times_the_error_however_entries_are_shared(state):
    """One position learnt alone towards a result: its sum moves by alpha x error x tanh's
    slope (normalised LMS), on the empty board too, where both instances of every table read
    the same entry."""
    genome = np.random.default_rng(1).normal(0, 0.1, SMALL.genome_spec().size)
    tables, net, feat, phases, _, idx = network_args(SMALL, genome)
    P, O = state.boards()
    before = evaluate_bits(P, O, tables, net[0])
    counts = np.zeros(net.shape[1], np.int64)
    players, opponents = np.array([P], np.uint64), np.array([O], np.uint64)
    td._learn_game(players, opponents, 1, 1.0, 0.3, tables, net, feat, phases, False, idx,
                   counts)
    value = math.tanh(before)
    expected = 0.3 * (1.0 - value) * (1 - value**2)  # a game's first mover is player 0
    assert evaluate_bits(P, O, tables, net[0]) - before == pytest.approx(expected)
    assert not counts.any()


def test_squared_counts_counts_instances_per_entry():
    tables = SMALL.network.tables
    idx = np.empty(len(tables.offset), np.int64)
    counts = np.zeros(SMALL.network.layout.n_weights, np.int64)
    nt.indices_bits(np.uint64(0), np.uint64(0), tables, idx)
    assert squared_counts(idx, tables, counts) == 16 * 2**2  # 16 tables, 2 instances each
    nt.indices_bits(*OPPONENTS_FIVE.boards(), tables, idx)
    entries = tables.offset + idx
    assert squared_counts(idx, tables, counts) == sum(
        int(n) ** 2 for n in np.unique(entries, return_counts=True)[1])


def test_feature_genomes_do_not_learn_by_td():
    assert not GAME.learns_by_td() and SMALL.learns_by_td()
    with pytest.raises(ValueError, match="temporal differences"):
        GAME.td_learn(GAME.reference_genome("reference"), 1, 0, 0.1, 0.1)
    with pytest.raises(ValueError, match="epsilon"):
        SMALL.td_learn(np.zeros(SMALL.genome_spec().size), 1, 0, 0.1, 2.0)


def test_with_features_the_network_learns_around_fixed_feature_weights():
    game = GAME.with_settings({"genome": {"kind": "ntuple", "layout": "straight5",
                                          "phases": 2, "features": True}})
    genome = game.reference_genome("reference")
    learnt = game.td_learn(genome, 20, 0, 0.3, 0.1)
    net, feat = game.network.split(learnt)
    assert np.array_equal(feat, game.network.split(genome)[1]) and net.any()


def test_the_sum_td_reads_is_the_kernels_network_value():
    genome = np.random.default_rng(0).normal(0, 0.2, SMALL.genome_spec().size)
    tables, net, feat, phases, _, idx = network_args(SMALL, genome)
    state = OPPONENTS_FIVE
    s = td._sum(*state.boards(), tables, net, feat, phases, False, idx)
    assert s == pytest.approx(evaluate_bits(*state.boards(), tables, net[0]))
    assert math.tanh(s) == pytest.approx(-td._afterstate(*state.boards(), tables, net, feat,
                                                         phases, False, idx))


def test_a_few_thousand_games_beat_the_zero_network_at_one_ply():
    """Same search, same openings, both colours: only what TD learnt differs."""
    zero = np.zeros(SMALL.genome_spec().size)
    learnt = SMALL.td_learn(zero, 3000, 0, 0.3, 0.1)
    search = SearchSettings(depth=1, endgame_empties=0)
    score = 0.0
    openings = SMALL.random_openings(20, 3, 2, 4)
    for i, opening in enumerate(openings):
        for side in (0, 1):
            ours, theirs = SMALL.make_agent(learnt, search), SMALL.make_agent(zero, search)
            pair = (ours, theirs) if side == 0 else (theirs, ours)
            score += play_game(SMALL, *pair, opening, i).score_for(side)
    assert score / (2 * len(openings)) >= 0.6
