"""The round robin: who plays whom, with which seeds, and how games become fitness."""

import itertools
from collections import Counter

import numpy as np
import pytest

from engine.core.game import DRAW, SearchSettings
from engine.core.registry import get_game
from evolve.ga.scoring.tournament import (
    Context,
    GameResult,
    GameTask,
    openings_for,
    play_tasks,
    round_robin_tasks,
    score_round_robin,
    yardstick_scores,
    yardstick_tasks,
)

OPENINGS = [(19, 18), (37, 45)]  # two distinct openings as plain move tuples


def test_every_pair_plays_every_opening_with_both_colours():
    n = 5
    tasks = round_robin_tasks(n, OPENINGS, seed=3, generation=7)
    assert len(tasks) == n * (n - 1) // 2 * len(OPENINGS) * 2
    assert [t.index for t in tasks] == list(range(len(tasks)))
    colours = Counter((t.first, t.second, t.opening) for t in tasks)
    for i, j in itertools.permutations(range(n), 2):
        for opening in OPENINGS:
            assert colours[(i, j, opening)] == 1  # i first vs j once, and vice versa
    per_player = Counter([t.first for t in tasks] + [t.second for t in tasks])
    assert set(per_player.values()) == {(n - 1) * len(OPENINGS) * 2}


def test_game_seeds_are_seed_generation_pairing_game_and_all_distinct():
    tasks = round_robin_tasks(4, OPENINGS, seed=11, generation=2)
    assert all(t.seed == (11, 2, t.pairing, t.game) for t in tasks)
    assert len({t.seed for t in tasks}) == len(tasks)
    yard = yardstick_tasks(0, ["greedy", "random"], OPENINGS, seed=11, generation=2)
    assert not {t.seed for t in yard} & {t.seed for t in tasks}


def test_openings_are_fresh_each_generation_and_reproducible():
    game = get_game("reversed_reversi")
    a = openings_for(game, 0, 0, 3, 4, 8)
    assert a == openings_for(game, 0, 0, 3, 4, 8)
    assert a != openings_for(game, 0, 1, 3, 4, 8)
    assert a != openings_for(game, 1, 0, 3, 4, 8)
    assert all(4 <= len(o) <= 8 for o in a)


def _reference_fitness(n, tasks, results, win, draw, loss):
    """Slow and obvious: walk every individual over every game it played."""
    fitness = np.zeros(n)
    for i in range(n):
        for t, r in zip(tasks, results, strict=True):
            if i not in (t.first, t.second):
                continue
            side = 0 if t.first == i else 1
            fitness[i] += draw if r.winner == DRAW else win if r.winner == side else loss
    return fitness


@pytest.mark.parametrize("points", [(5, 0, -5), (1, 0.5, 0), (3, 1, 0)])
def test_fitness_is_the_sum_of_points_over_all_games(points):
    n = 4
    tasks = round_robin_tasks(n, OPENINGS, seed=0, generation=0)
    rng = np.random.default_rng(0)
    results = [_result(t.index, int(rng.choice([0, 1, DRAW]))) for t in tasks]
    s = score_round_robin(n, tasks, results, *points)
    assert np.array_equal(s.fitness, _reference_fitness(n, tasks, results, *points))
    assert np.all(s.wins + s.draws + s.losses == (n - 1) * len(OPENINGS) * 2)
    assert s.wins.sum() == s.losses.sum()


def _result(index: int, winner: int) -> GameResult:
    return GameResult(index, winner, 0.0, 60, (), "")


def test_yardstick_scores_are_the_champions_score_fractions():
    tasks = yardstick_tasks(2, ["greedy", "random"], OPENINGS, seed=0, generation=0)
    assert len(tasks) == 2 * len(OPENINGS) * 2
    outcome = {  # (opponent, champion's side) -> winner
        ("greedy", 0): 0, ("greedy", 1): DRAW,
        ("random", 0): 1, ("random", 1): 0,
    }
    results = []
    for t in tasks:
        opponent, side = (t.second, 0) if t.first == 2 else (t.first, 1)
        results.append(_result(t.index, outcome[(opponent, side)]))
    scores = yardstick_scores(["greedy", "random"], 2, tasks, results)
    assert scores == {"greedy": 0.75, "random": 0.0}


def _panel_only_tasks():
    """Games between panel agents only (no genomes needed), with varied seeds."""
    tasks = []
    for k in range(6):
        black, white = ("random", "greedy") if k % 2 else ("greedy", "random")
        seed = (5, 0, k // 2, k % 2)
        tasks.append(GameTask(k, k // 2, k % 2, black, white, OPENINGS[k % 2], seed))
    return tasks


def test_played_games_do_not_depend_on_order_or_batching():
    ctx = Context("reversed_reversi", {}, SearchSettings(1, 4), np.zeros((1, 1)))
    tasks = _panel_only_tasks()
    together = play_tasks(ctx, tasks)
    one_by_one = [play_tasks(ctx, [t])[0] for t in reversed(tasks)][::-1]
    assert together == one_by_one
    for r in together:
        black_discs, white_discs, black_score = r.details
        assert black_discs + white_discs <= 64
        # reversed reversi: fewer discs wins
        expected = DRAW if black_discs == white_discs else (
            0 if black_discs < white_discs else 1)
        assert r.winner == expected
        assert r.margin == black_score


def test_unknown_game_names_the_allowed_ones():
    with pytest.raises(ValueError, match="allowed: reversed_reversi, .*othello"):
        get_game("chess")


@pytest.mark.parametrize("bounds", [(24, 44), (30,), tuple(range(5, 64))])
def test_reference_genome_repeats_a_one_phase_reference_in_every_phase(bounds):
    from engine.reversi.files import reference_weights

    game = get_game("reversed_reversi", {"genome": {"phases": len(bounds) + 1,
                                                    "phase_bounds": list(bounds)}})
    genome = game.reference_genome("course")
    weights = game.weights(genome)
    assert weights.phase_bounds == bounds
    course = reference_weights("course")
    for phase in range(len(bounds) + 1):
        assert np.array_equal(weights.positional[phase], course.positional[0])
        assert np.array_equal(weights.features[phase], course.features[0])
