"""The fitness mix (round robin + fixed references + hall of fame): scores computed as documented,
paired openings, the legacy fitness untouched, and runs that are deterministic and resumable."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from engine.core.game import DRAW
from evolve.ga.configuration.config import ConfigError, to_config
from evolve.ga.loop import run
from evolve.ga.scoring.fitness import Opponents, opponent_tasks, opponents_for, score_mix
from evolve.ga.scoring.progress import Member
from evolve.ga.scoring.tournament import GameResult, round_robin_tasks, score_round_robin
from tests.evolve.ga.test_determinism import FlakyBackend, Interrupted, assert_same_run

ROOT = Path(__file__).resolve().parents[3]
# hall of fame every generation: generation 0's champion is a fitness opponent from generation 3
MIX = ["+experiment=smoke", "search.depth=1", "search.endgame_empties=3", "ga.population=4",
       "ga.generations=5", "ga.elites=1", "plot=false", "progress=false", "games.openings=1",
       "fitness.population=0.5", "fitness.references=2", "fitness.hall_of_fame=1",
       "fitness.opponents=[wpc_negated,greedy]", "fitness.openings=1",
       "yardstick.hall_of_fame_every=1", "yardstick.panel=[wpc_negated]"]
OPENINGS = [(19, 18), (37, 29)]


def config(*overrides):
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return compose("config", overrides=[*MIX, *overrides])


def result(index: int, winner: int) -> GameResult:
    return GameResult(index, winner, 0.0, 60, (), "")


class Weights:
    def __init__(self, population=1.0, references=0.0, hall_of_fame=0.0):
        self.population, self.references, self.hall_of_fame = population, references, hall_of_fame
        self.hall_of_fame_size = 4


class Points:
    win, draw, loss, margin = 5.0, 0.0, -5.0, 0.0


class MarginPoints(Points):
    margin = 0.5


def test_every_individual_meets_every_fixed_opponent_on_the_same_openings_with_both_colours():
    tasks = opponent_tasks(3, ["wpc", 3], OPENINGS, seed=1, generation=4, first_index=10,
                           first_pairing=3)
    assert [t.index for t in tasks] == list(range(10, 10 + 3 * 2 * 2 * 2))
    for i in range(3):
        for opponent in ("wpc", 3):
            mine = [t for t in tasks if {t.first, t.second} == {i, opponent}]
            assert sorted((t.opening, t.first == i) for t in mine) == sorted(
                (o, first) for o in OPENINGS for first in (False, True))
    assert len({t.seed for t in tasks}) == len(tasks)
    assert min(t.pairing for t in tasks) == 3  # after the round robin's pairings (3 for n = 3)


def test_the_fitness_is_the_weighted_mean_points_per_game_of_each_source():
    n = 2
    rr = round_robin_tasks(n, OPENINGS[:1], seed=0, generation=0)  # 2 games: 0 wins both
    fixed = opponent_tasks(n, ["ref", 2], OPENINGS[:1], 0, 0, len(rr), 1)
    # individual 0 wins every game against "ref" and draws the member; 1 loses everything
    winners = [0, 1]
    for t in fixed:
        me_first = t.first in (0, 1)
        me = t.first if me_first else t.second
        opponent = t.second if me_first else t.first
        if me == 0 and opponent == "ref":
            winners.append(0 if me_first else 1)
        elif me == 0:
            winners.append(DRAW)
        else:
            winners.append(1 if me_first else 0)
    tasks = [*rr, *fixed]
    results = [result(k, w) for k, w in enumerate(winners)]
    opponents = Opponents(("ref",), (Member(0, (0.0,), 0.0),))
    s = score_mix(n, tasks, results, Weights(1.0, 2.0, 1.0), Points, len(rr), opponents)
    # individual 0: population +5, references +5, hall of fame 0 -> (5 + 10 + 0) / 4
    assert s.fitness[0] == pytest.approx(15 / 4)
    assert s.fitness[1] == pytest.approx(-5.0)
    assert (s.wins[0], s.draws[0], s.losses[0]) == (4, 2, 0)
    assert (s.wins[1], s.draws[1], s.losses[1]) == (0, 0, 6)


def test_a_source_without_games_gives_its_weight_to_the_others():
    rr = round_robin_tasks(2, OPENINGS[:1], seed=0, generation=0)
    results = [result(0, 0), result(1, 1)]  # individual 0 wins both
    s = score_mix(2, rr, results, Weights(1.0, 0.0, 3.0), Points, len(rr), Opponents((), ()))
    assert list(s.fitness) == [5.0, -5.0]  # mean points, the empty hall of fame ignored


def test_the_round_robin_alone_keeps_the_summed_points_of_earlier_versions():
    rr = round_robin_tasks(3, OPENINGS, seed=0, generation=0)
    rng = np.random.default_rng(3)
    results = [result(k, int(rng.integers(0, 3)) if rng.random() < 0.8 else DRAW)
               for k in range(len(rr))]
    mixed = score_mix(3, rr, results, Weights(), Points, len(rr), Opponents((), ()))
    legacy = score_round_robin(3, rr, results, 5.0, 0.0, -5.0)
    assert np.array_equal(mixed.fitness, legacy.fitness)


def test_a_hall_of_fame_member_plays_from_three_generations_after_it_joined():
    members = [Member(g, (float(g),), 0.0) for g in range(6)]
    chosen = opponents_for(Weights(1.0, 1.0, 1.0), ["wpc"], members, generation=5)
    assert [m.generation for m in chosen.hall_of_fame] == [0, 1, 2]
    assert chosen.references == ("wpc",)
    assert opponents_for(Weights(1.0, 0.0, 0.0), ["wpc"], members, 5) == Opponents((), ())


@pytest.mark.parametrize("override, message", [
    ("fitness.references=-1", "fitness.references=-1.0 must satisfy weight >= 0"),
    ("fitness.population=0", None),  # allowed: references and hall of fame remain
    ("fitness.openings=0", "fitness.openings=0 must satisfy openings >= 1"),
    ("fitness.opponents=[nonsense]", "fitness.opponents: "),
    ("yardstick.hall_of_fame_every=0", "fitness.hall_of_fame=1.0 must satisfy weight 0 unless"),
])
def test_bad_fitness_settings_stop_the_run_at_start_with_one_line(override, message):
    if message is None:
        to_config(config(override))
        return
    with pytest.raises(ConfigError) as err:
        to_config(config(override))
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


@pytest.fixture(scope="module")
def mix_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("mix")
    run(config(), run_dir=d)
    return d


def test_the_mixed_run_plays_the_references_and_the_hall_of_fame(mix_run):
    games = pd.read_csv(mix_run / "games.csv")
    players = set(games["black_id"].astype(str)) | set(games["white_id"].astype(str))
    assert {"wpc_negated", "greedy"} <= players
    members = sorted(p for p in players if p.startswith("hof_gen"))
    assert members  # a champion with a finite Elo joined and became an opponent
    for member in members:
        joined = int(member.removeprefix("hof_gen"))
        plays = games[(games["black_id"] == member) | (games["white_id"] == member)]
        assert plays["generation"].min() == joined + 3


# waits: 1, 2, 4, 6, 8 = fitness games of generations 0..4; 3, 5, 7, 9, 10 = their yardsticks;
# 11 = the playoff. From generation 3 on the fitness games play the hall of fame, which must come
# back from the checkpoint
@pytest.mark.parametrize("fail_at", [7, 11])
def test_resume_after_a_crash_equals_the_uninterrupted_mixed_run(mix_run, tmp_path, fail_at):
    with pytest.raises(Interrupted):
        run(config(), run_dir=tmp_path, backend=FlakyBackend(fail_at))
    run(config(f"resume={tmp_path}"))
    assert_same_run(mix_run, tmp_path)


def test_ray_matches_serial_for_the_mixed_run(mix_run, ray_session, tmp_path):
    run(config("backend=ray", "ray.workers=2"), run_dir=tmp_path)
    assert_same_run(mix_run, tmp_path)


def test_the_margin_adds_points_per_disc_from_each_players_view():
    # round robin, 2 games: individual 0 (first in game 0) wins by 10 discs, then loses by 4
    rr = round_robin_tasks(2, OPENINGS[:1], seed=0, generation=0)
    first_of_game = [rr[0].first, rr[1].first]
    margins = [10.0 if first_of_game[0] == 0 else -10.0, -4.0 if first_of_game[1] == 0 else 4.0]
    results = [GameResult(k, 0 if margins[k] > 0 else 1, margins[k], 60, (), "")
               for k in range(2)]
    plain = score_round_robin(2, rr, results, 5.0, 0.0, -5.0)
    with_margin = score_round_robin(2, rr, results, 5.0, 0.0, -5.0, margin=0.5)
    assert list(plain.fitness) == [0.0, 0.0]
    assert list(with_margin.fitness) == [0.5 * (10 - 4), -0.5 * (10 - 4)]
    # against a fixed opponent: individual 0 wins by 6 as second player, individual 1 loses by 2
    fixed = opponent_tasks(2, ["ref"], OPENINGS[:1], 0, 0, 0, 1)
    outcome = {}
    for t in fixed:
        me = t.first if t.first in (0, 1) else t.second
        mine = 6.0 if me == 0 else -2.0
        outcome[t.index] = mine if t.first == me else -mine
    res = [GameResult(k, 0 if m > 0 else 1, m, 60, (), "") for k, m in sorted(outcome.items())]
    s = score_mix(2, fixed, res, Weights(0.0, 1.0, 0.0), MarginPoints, 0,
                  Opponents(("ref",), ()))
    assert list(s.fitness) == [5.0 + 0.5 * 6, -5.0 - 0.5 * 2]


def test_a_negative_margin_weight_is_refused_with_one_line():
    with pytest.raises(ConfigError, match="games.margin"):
        to_config(config("games.margin=-1"))
