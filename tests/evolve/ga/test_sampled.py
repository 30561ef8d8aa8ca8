"""The sampled tournament (``evolve.ga.scoring.sampled``): k opponents each, drawn from the seed,
and every sampled game is the very game of the full round robin (same players, opening, seed)."""

from collections import Counter

import pytest

from evolve.ga.scoring.sampled import pairing_index, sampled_pairs, sampled_tasks
from evolve.ga.scoring.tournament import round_robin_tasks

OPENINGS = [(19,), (26, 18)]


@pytest.mark.parametrize("n, k", [(6, 2), (6, 3), (7, 4), (16, 5), (16, 15), (129, 8)])
def test_everyone_plays_exactly_k_distinct_opponents(n, k):
    pairs = sampled_pairs(n, k, seed=3, generation=1)
    assert len(set(pairs)) == len(pairs) == n * k // 2
    assert all(i < j for i, j in pairs)
    degree = Counter(x for pair in pairs for x in pair)
    assert sorted(degree) == list(range(n)) and set(degree.values()) == {k}


def test_the_pairs_come_from_the_seed_and_generation_only():
    assert sampled_pairs(16, 4, 0, 2) == sampled_pairs(16, 4, 0, 2)
    assert sampled_pairs(16, 4, 0, 2) != sampled_pairs(16, 4, 0, 3)
    assert sampled_pairs(16, 4, 0, 2) != sampled_pairs(16, 4, 1, 2)


def test_every_sampled_game_is_the_full_round_robins_game():
    full = {(t.first, t.second, t.opening): t for t in round_robin_tasks(9, OPENINGS, 5, 2)}
    tasks = sampled_tasks(9, 4, OPENINGS, 5, 2)
    assert len(tasks) == 9 * 4 // 2 * len(OPENINGS) * 2
    assert [t.index for t in tasks] == list(range(len(tasks)))
    for t in tasks:
        twin = full[t.first, t.second, t.opening]
        assert (t.pairing, t.game, t.seed) == (twin.pairing, twin.game, twin.seed)


def test_pairing_index_is_the_position_in_the_full_round_robin():
    import itertools

    for index, (i, j) in enumerate(itertools.combinations(range(11), 2)):
        assert pairing_index(i, j, 11) == index


@pytest.mark.parametrize("n, k, message", [
    (6, 6, "games.opponents_per_individual=6 must satisfy 1 <= opponents < population (6)"),
    (6, 0, "games.opponents_per_individual=0 must satisfy"),
    (7, 3, "games.opponents_per_individual=3 must be even when the population (7) is odd"),
])
def test_impossible_opponent_counts_are_refused_in_one_line(n, k, message):
    with pytest.raises(ValueError) as err:
        sampled_pairs(n, k, 0, 0)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_a_study_with_sampled_opponents_plays_k_opponents_each(tmp_path):
    from pathlib import Path

    import pandas as pd
    from hydra import compose, initialize_config_dir

    from evolve.ga.loop import run

    conf = str(Path(__file__).resolve().parents[3] / "conf")
    with initialize_config_dir(config_dir=conf, version_base="1.3"):
        cfg = compose("config", overrides=["+experiment=smoke", "ga.population=6",
                                           "games.opponents_per_individual=2", "plot=false",
                                           "progress=false"])
    run(cfg, run_dir=tmp_path)
    games = pd.read_csv(tmp_path / "games.csv")
    for _, gen in games.groupby("generation"):
        assert len(gen) == 6 * 2 // 2 * 2  # 6 pairs, both colours
        opponents = {}
        for a, b in zip(gen.black_id, gen.white_id, strict=True):
            opponents.setdefault(a, set()).add(b)
        assert len(opponents) == 6 and all(len(o) == 2 for o in opponents.values())
    individuals = pd.read_csv(tmp_path / "individuals.csv")
    assert set(individuals.wins + individuals.draws + individuals.losses) == {4}
