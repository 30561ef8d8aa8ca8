"""The strength goals table (``experiments/strength/goals.py``) and its runner: every row is a
job, names a champion some job or the repository provides, and a target among its opponents;
a target is met or not as its kind says."""

import pytest

from experiments.catalogue import KEPT, by_name
from experiments.stamp import ROOT
from experiments.strength.goals import CHAMPIONS, GOALS, Target
from experiments.strength.run import short, verdict


@pytest.mark.parametrize("goal", GOALS, ids=lambda g: g.name)
def test_every_goal_is_a_job_with_a_champion_and_a_target_among_its_opponents(goal):
    job = by_name()[goal.name]
    assert job.outputs == (f"{goal.name}.md", f"{goal.name}.json") and job.kind == goal.kind
    exported = {o for j in by_name().values() for o in j.outputs if o.startswith("champions/")}
    made = goal.champion.removeprefix(f"{CHAMPIONS.rsplit('/', 1)[0]}/")  # champions/...
    assert made in exported | set(KEPT) or (ROOT / goal.champion).is_file() or \
        goal.champion == "reference"
    if goal.target is not None:
        assert goal.target.opponent in {short(o) for o in goal.opponents}


def match(score, low, elo):
    return {"score": score, "score_ci95": [low, 1.0], "elo": elo}


def test_a_target_is_met_by_its_kind_and_says_how_far_off():
    assert verdict(Target("course", "score", 0.75), match(0.8, 0.7, 240)) == (
        True, "score >= 75% vs `course` (5.0% over)")
    assert verdict(Target("x", "elo", 200.0), match(0.7, 0.6, 150))[0] is False
    assert verdict(Target("x", "elo", 200.0), match(1.0, 0.9, None))[0] is False  # unbounded
    assert verdict(Target("reference", "beats"), match(0.55, 0.51, 35))[0] is True
    assert verdict(Target("reference", "beats"), match(0.55, 0.49, 35))[0] is False
    assert verdict(None, match(0.5, 0.4, 0)) == (None, "none (for comparison)")


def test_an_opponent_file_is_named_by_its_stem_or_its_run():
    assert short("experiments/results/champions/othello_league.json") == "othello_league"
    assert short("experiments/runs/othello_1ply_cmaes/champion.json") == "othello_1ply_cmaes"
    assert short("mcts:1000") == "mcts:1000"
