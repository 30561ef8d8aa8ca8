"""Epsilon-random moves (``games.epsilon``, the Othello League protocol): both players play a
uniformly random legal move with that probability, drawn from the game's seed, so a game is
still a function of its task; 0 plays exactly the games of before."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from engine.core.game import SearchSettings
from evolve.execution.games import Context, GameTask
from evolve.ga.console import summary
from evolve.ga.loop import run
from tests.evolve.ga import toy_game

ROOT = Path(__file__).resolve().parents[3]
SEARCH = SearchSettings(depth=1, endgame_empties=0)


@pytest.fixture(scope="module", autouse=True)
def toy():
    with toy_game.registered() as game:
        yield game


def tasks(n: int = 200) -> list[GameTask]:
    """Individual 0 against 1, alternating colours, each game its own seed."""
    return [GameTask(k, 0, k, k % 2, 1 - k % 2, (), (7, 0, 0, k)) for k in range(n)]


def play(genomes: np.ndarray, epsilon: float | None, n: int = 200) -> list:
    args = (toy_game.NAME, {}, SEARCH, genomes)
    context = Context(*args) if epsilon is None else Context(*args, epsilon=epsilon)
    return context.play(tasks(n))


def genomes(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, (2, 27))


def test_epsilon_games_are_reproducible_from_their_seeds():
    assert play(genomes(0), 0.3) == play(genomes(0), 0.3)


def test_epsilon_zero_plays_the_games_of_a_context_without_it():
    assert play(genomes(0), 0.0) == play(genomes(0), None)


def test_epsilon_one_plays_uniformly_random_legal_moves_whatever_the_genomes():
    a, b = play(genomes(0), 1.0, 900), play(genomes(1), 1.0, 900)
    assert a == b  # the genomes never choose a move
    first = np.array([int(r.moves.split()[0]) for r in a])
    counts = np.bincount(first, minlength=9)
    # 900 first moves over 9 cells: chi-square with 8 degrees of freedom, p < 0.001 above 26.1
    assert np.sum((counts - 100) ** 2 / 100) < 26.1
    assert len({r.moves for r in a}) > 800  # no replayed games, unlike deterministic players


def test_a_small_epsilon_changes_some_games_and_keeps_most():
    plain, noisy = play(genomes(2), 0.0), play(genomes(2), 0.1)
    changed = sum(p.moves != q.moves for p, q in zip(plain, noisy, strict=True))
    assert 0 < changed < len(plain)
    assert len({r.moves for r in plain}) == 2  # deterministic players: one game per colour


SMOKE = ["+experiment=smoke", "search.depth=1", "search.endgame_empties=3", "plot=false",
         "progress=false", "ga.generations=2", "yardstick.panel=[wpc_negated]"]


def smoke(run_dir: Path, *overrides):
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = compose("config", overrides=[*SMOKE, *overrides])
    return run(cfg, run_dir=run_dir)


def test_a_run_with_epsilon_is_reproducible_and_differs_from_one_without(tmp_path):
    result = smoke(tmp_path / "a", "games.epsilon=0.2")
    a = result.run_dir
    b = smoke(tmp_path / "b", "games.epsilon=0.2").run_dir
    plain_result = smoke(tmp_path / "plain")
    plain = plain_result.run_dir
    # the summary's command measures the champion with the same random moves
    assert "--vs wpc_negated --epsilon 0.2 --depth 1" in summary(result, 1.0)
    assert "--epsilon" not in summary(plain_result, 1.0)
    for table in ("games.csv", "yardstick_games.csv", "individuals.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(a / table), pd.read_csv(b / table),
                                      check_exact=True)
    for table in ("games.csv", "yardstick_games.csv"):
        assert not pd.read_csv(a / table)["moves"].equals(pd.read_csv(plain / table)["moves"])
