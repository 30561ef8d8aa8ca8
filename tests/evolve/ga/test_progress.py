"""The champion's Elo per generation is its Elo against the fixed panel alone; earlier
champions (the hall of fame) are scored apart, so beating its own ancestors cannot inflate it
(the default study once reported +656 where the panel alone says +436)."""

from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evolve.arena.elo import elo_estimate, performance_rating
from evolve.ga.scoring.progress import champion_rating, hall_of_fame_score, joins
from tests.evolve.ga.test_run import champion_counts

ROOT = Path(__file__).resolve().parents[3]
PROGRESS_RUN = ROOT / "experiments" / "runs" / "reversed_reversi_progress"


def test_beating_earlier_champions_does_not_move_the_elo():
    panel = {"a": [5, 0, 5], "b": [2, 2, 6]}  # (losses, draws, wins)
    crushed = {**panel, 16: [0, 0, 20], 17: [0, 1, 19]}  # two hall-of-fame members
    alone = champion_rating(panel)
    assert champion_rating(crushed) == alone
    assert alone == performance_rating([(c, 0.0) for c in panel.values()])
    assert alone.elo == pytest.approx(elo_estimate(11, 2, 7).elo)
    assert hall_of_fame_score(crushed) == (39 + 0.5) / 40
    assert champion_rating({16: [0, 0, 4]}) is None


def counts_strategy():
    trio = st.lists(st.integers(0, 6), min_size=3, max_size=3)
    keys = st.one_of(st.sampled_from(["a", "b", "c"]), st.integers(10, 12))
    return st.dictionaries(keys, trio, min_size=1, max_size=5).filter(
        lambda d: sum(map(sum, d.values())) > 0)


@given(counts=counts_strategy(), generation=st.integers(0, 20), every=st.integers(0, 5),
       ratings=st.lists(st.floats(-800, 800), min_size=3, max_size=3))
def test_the_hall_of_fame_takes_whom_it_took_when_members_were_rated(counts, generation, every,
                                                                     ratings):
    """Members used to join when their rating against panel and members was finite; the same
    champions join now (so the games of every run made since stay the same)."""
    rated = [(c, ratings[k - 10] if isinstance(k, int) else 0.0) for k, c in counts.items()]
    finite = abs(performance_rating(rated).elo) != float("inf")
    assert joins(generation, every, counts) == (every > 0 and generation % every == 0 and finite)


def test_the_committed_default_study_gets_its_panel_elo_not_the_inflated_one():
    """Every generation of the committed default study, from its recorded yardstick games: the
    Elo is the panel-only estimate (generation 29: score 0.925, +436), where the in-run Elo of
    the version that made it said +656 (its generations.csv)."""
    yard = pd.read_csv(PROGRESS_RUN / "yardstick_games.csv")
    old = pd.read_csv(PROGRESS_RUN / "generations.csv").set_index("generation")
    for g, games in yard.groupby("generation"):
        counts = {(int(k[7:]) if k.startswith("hof_gen") else k): c  # members: genome indices
                  for k, c in champion_counts(games).items()}
        panel = [c for k, c in counts.items() if isinstance(k, str)]
        losses, draws, wins = (sum(c[i] for c in panel) for i in range(3))
        reference = elo_estimate(wins, draws, losses)
        est = champion_rating(counts)
        assert (est.elo, est.elo_low, est.elo_high) == pytest.approx(
            (reference.elo, reference.elo_low, reference.elo_high))
        assert old.yardstick_score[g] == pytest.approx(est.score)
    assert est.score == 0.925 and round(est.elo) == 436 and round(old.champion_elo[29]) == 656
