"""Which games a match plays: pairing, determinism, SPRT stopping, round robin, Ray == serial."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.registry import get_game
from evolve.arena import schedule as sch
from evolve.arena.elo import sprt
from evolve.arena.matches import EvalSettings, make_player
from evolve.execution.backends import SerialBackend

OTHELLO = EvalSettings("othello", depth=1)


def SerialRunner(settings):  # noqa: N802 - reads like the class it stands for
    return sch.Runner(settings, SerialBackend())


def test_match_tasks_play_each_opening_with_both_colours():
    openings = [(19,), (26,), (37,)]
    tasks = sch.match_tasks("a", "b", 5, range(6), openings, seed=9)
    for k in range(3):
        first, second = tasks[2 * k], tasks[2 * k + 1]
        assert first.opening == second.opening == openings[k]
        assert (first.first, first.second) == ("a", "b")
        assert (second.first, second.second) == ("b", "a")
    assert len({t.seed for t in tasks}) == 6 and all(t.seed[:2] == (9, 5) for t in tasks)


def test_results_are_counted_from_the_players_point_of_view():
    # Replay every game independently and count the first player's points by hand.
    runner = SerialRunner(OTHELLO)
    result = sch.evaluate("wpc1", ["random"], OTHELLO, 12, seed=4, runner=runner)[0]
    game = get_game("othello")
    openings = sch.openings(game, 6, seed=4)
    points = 0.0
    for k in range(12):
        tasks = sch.match_tasks("wpc1", "random", 0, range(k, k + 1), openings, 4)
        t = tasks[0]
        b, w, g = np.random.SeedSequence(list(t.seed)).spawn(3)
        outcome = game.play(make_player(game, t.first, OTHELLO, b),
                            make_player(game, t.second, OTHELLO, w), t.opening, g)
        points += outcome.score_for(0 if k % 2 == 0 else 1)
    assert result.games == 12
    assert result.wins + result.draws / 2 == points


def test_same_seed_same_results_and_the_seed_matters():
    settings = EvalSettings("reversed_reversi", depth=1)
    runner = SerialRunner(settings)
    a = sch.evaluate("greedy", ["random", "wpc1"], settings, 20, seed=1, runner=runner)
    b = sch.evaluate("greedy", ["random", "wpc1"], settings, 20, seed=1, runner=runner)
    assert [r.as_dict() for r in a] == [r.as_dict() for r in b]
    c = [sch.evaluate("greedy", ["random"], settings, 20, s, runner)[0] for s in range(2, 6)]
    assert len({(r.wins, r.draws, r.losses) for r in c}) > 1


def test_odd_game_counts_round_up_to_whole_pairs():
    res = sch.evaluate("greedy", ["random"], OTHELLO, 5, seed=0, runner=SerialRunner(OTHELLO))[0]
    assert res.games == 6


def test_sprt_stops_with_h1_for_a_much_stronger_player_and_h0_for_a_weaker_one():
    runner = SerialRunner(OTHELLO)
    strong = sch.evaluate("wpc1", ["random"], OTHELLO, 400, 0, runner, sprt_elo=(0, 100))[0]
    assert strong.sprt["decision"] == "H1" and strong.games < 400 and strong.games % 2 == 0
    assert strong.sprt["llr"] >= strong.sprt["bounds"][1]
    # the LLR is the pentanomial one, recomputed from the pair counts
    assert 2 * sum(strong.penta) == strong.games
    assert strong.sprt["llr"] == pytest.approx(sprt(strong.penta, 0, 100).llr, rel=1e-12)
    weak = sch.evaluate("random", ["wpc1"], OTHELLO, 400, 0, runner, sprt_elo=(0, 100))[0]
    assert weak.sprt["decision"] == "H0" and weak.games < 400
    assert weak.sprt["llr"] <= weak.sprt["bounds"][0]


def test_sprt_decision_does_not_depend_on_the_batch_size(monkeypatch):
    runner = SerialRunner(OTHELLO)
    results = []
    for pairs in (1, 3, 8):
        monkeypatch.setattr(sch, "SPRT_BATCH_PAIRS", pairs)
        res = sch.evaluate("wpc1", ["random"], OTHELLO, 400, 0, runner, (0, 100))[0]
        results.append(res.as_dict())
    assert results[0] == results[1] == results[2]


def test_sprt_full_plays_every_game_and_reports_where_the_test_would_have_stopped():
    runner = SerialRunner(OTHELLO)
    stopped = sch.evaluate("wpc1", ["random"], OTHELLO, 100, 0, runner, (0, 100))[0]
    full = sch.evaluate("wpc1", ["random"], OTHELLO, 100, 0, runner, (0, 100), stop=False)[0]
    assert full.games == 100 and stopped.games < 100
    assert full.sprt["decision"] == stopped.sprt["decision"] == "H1"
    assert full.sprt["games"] == stopped.games and full.sprt["llr"] == stopped.sprt["llr"]


def test_round_robin_fits_elo_with_mean_zero_and_orders_players():
    runner = SerialRunner(OTHELLO)
    players = ["random", "wpc1", "greedy"]
    matches, elo, score, played = sch.round_robin(players, OTHELLO, 16, seed=2, runner=runner)
    assert len(matches) == 3 and np.all(played[~np.eye(3, dtype=bool)] == 16)
    assert np.allclose(score + score.T, played)
    assert elo.mean() == pytest.approx(0.0, abs=1e-9)
    # the player with the best total score has the best rating (Bradley-Terry is monotone here)
    assert np.argmax(elo) == np.argmax(score.sum(axis=1))


def test_ray_backend_gives_the_serial_results(ray_session):
    settings = EvalSettings("reversed_reversi", depth=1)
    backend = sch.open_backend("ray", 2, None, "reversed_reversi")
    try:
        on_ray = sch.evaluate("greedy", ["random", "wpc1"], settings, 12, 3,
                              sch.Runner(settings, backend))
    finally:
        backend.close()
    serial = sch.evaluate("greedy", ["random", "wpc1"], settings, 12, 3, SerialRunner(settings))
    assert [r.as_dict() for r in on_ray] == [r.as_dict() for r in serial]


class Bar:
    """Counts what a tqdm bar would show."""

    def __init__(self, total: int):
        self.total, self.n = total, 0

    def update(self, n: int) -> None:
        self.n += n

    def refresh(self) -> None:
        pass


def test_a_progress_bar_sees_every_game_and_changes_no_result():
    plain = sch.evaluate("wpc1", ["random", "greedy"], OTHELLO, 60, 5, SerialRunner(OTHELLO))
    bar = Bar(120)
    shown = sch.evaluate("wpc1", ["random", "greedy"], OTHELLO, 60, 5,
                         sch.Runner(OTHELLO, SerialBackend(), bar))
    assert [r.as_dict() for r in shown] == [r.as_dict() for r in plain]
    assert bar.n == bar.total == 120


def test_games_an_sprt_saves_come_off_the_progress_bar():
    bar = Bar(400)
    res = sch.evaluate("wpc1", ["random"], OTHELLO, 400, 0, sch.Runner(OTHELLO, SerialBackend(),
                                                                       bar), (0, 100))[0]
    assert res.games < bar.total < 400  # played up to the end of the deciding batch
    assert bar.n == bar.total and bar.total - res.games < 2 * sch.SPRT_BATCH_PAIRS
