"""Strength evaluation: pairing, determinism, SPRT stopping, round robin, command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.core.game import DRAW
from engine.core.registry import get_game
from engine.reversi.weights_io import save_json
from evolve.arena import evaluate as ev
from evolve.arena import schedule as sch
from evolve.arena.elo import elo_from_score, score_from_elo, sprt
from evolve.arena.matches import EvalSettings, EvalTask, make_player
from evolve.arena.tables import format_table
from evolve.arena.tally import Match, MatchResult
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


def feed(match: Match, points: list[float]) -> int:
    """Record games with the given points for the first player (game k: a black on even k);
    returns the number of games recorded when the SPRT decided (or all of them)."""
    winner_of = {1.0: (0, 1), 0.0: (1, 0), 0.5: (DRAW, DRAW)}
    for k, p in enumerate(points):
        if match.record(EvalTask(k, "", "", (), ()), winner_of[p][k % 2]):
            return k + 1
    return len(points)


def test_pairs_are_counted_into_the_pentanomial():
    m = Match("a", "b")
    # pairs: W+W, W+L, D+D, L+D, L+L, D+W  ->  points 2, 1, 1, 1/2, 0, 3/2
    feed(m, [1, 1, 1, 0, 0.5, 0.5, 0, 0.5, 0, 0, 0.5, 1])
    assert m.result.penta == [1, 1, 2, 1, 1]
    assert (m.result.wins, m.result.draws, m.result.losses) == (4, 4, 4)


def test_sprt_on_a_perfect_sweep_neither_explodes_nor_accepts_h0():
    # n won pairs: LLR ~ n log(s1 / s0) (Bernoulli likelihood ratio of "WW" under each
    # hypothesis); with s1 = score(50) that crosses log(19) = 2.944 at n = 23 pairs = 46 games.
    per_pair = np.log(score_from_elo(50) / 0.5)
    assert 22 * per_pair < np.log(19) < 23 * per_pair
    m = Match("a", "b", sprt_elo=(0, 50))
    assert feed(m, [1.0] * 20) == 20 and m.result.sprt["decision"] == "continue"
    assert m.result.sprt["llr"] == pytest.approx(10 * per_pair, rel=1e-3)
    m = Match("a", "b", sprt_elo=(0, 50))
    assert feed(m, [1.0] * 100) == 46 and m.result.sprt["decision"] == "H1"
    m = Match("a", "b", sprt_elo=(0, 50))  # and the mirror image: H0 from lost pairs
    lost_pair = np.log((1 - score_from_elo(50)) / 0.5)
    assert feed(m, [0.0] * 20) == 20 and m.result.sprt["decision"] == "continue"
    assert m.result.sprt["llr"] == pytest.approx(10 * lost_pair, rel=1e-3)
    assert feed(m, [0.0] * 80) < 80 and m.result.sprt["decision"] == "H0"


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


def run_cli(argv, capsys):
    """The CLI in-process; serial unless the test asks for a backend (Ray is the CLI default
    and has its own test), so each call does not pay Ray's start-up."""
    if "--backend" not in argv:
        argv = [*argv, "--backend", "serial"]
    code = ev.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_prints_a_table_and_writes_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    code, text, _ = run_cli(["wpc1", "--vs", "random", "greedy", "--games", "8", "--depth", "1",
                             "--variant", "othello", "--json", str(out)], capsys)
    assert code == 0 and "random" in text and "95% CI" in text
    data = json.loads(out.read_text())
    assert data["command"].startswith("python -m evolve.evaluate wpc1 --vs random greedy")
    assert [m["opponent"] for m in data["matches"]] == ["random", "greedy"]
    for m in data["matches"]:
        assert m["wins"] + m["draws"] + m["losses"] == m["games"] == 8
        if m["elo"] is not None:
            assert m["elo"] == pytest.approx(elo_from_score(m["score"]))


def test_cli_sprt_says_which_hypothesis_it_accepted(capsys):
    code, text, _ = run_cli(["wpc1", "--vs", "random", "--games", "400", "--depth", "1",
                             "--variant", "othello", "--sprt", "0", "100"], capsys)
    assert code == 0 and "SPRT vs random: H1 accepted" in text


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["greedy", "--vs", "nonsense", "--variant", "othello"], "unknown agent spec"),
        (["greedy", "--vs", "random", "--games", "0", "--variant", "othello"], "--games"),
        (["greedy", "--vs", "random", "--sprt", "10", "0", "--variant", "othello"], "ELO0 < ELO1"),
        (["greedy", "--vs", "random", "--epsilon", "2", "--variant", "othello"], "--epsilon"),
        (["greedy", "--vs", "random", "--epsilon", "-0.1", "--variant", "othello"], "--epsilon"),
        (["greedy", "--vs", "random", "--games", "-4", "--variant", "othello"], "--games"),
        (["greedy", "--vs", "random", "--time", "0", "--variant", "othello"], "--time"),
        (["greedy", "--vs", "random", "--time", "-1", "--variant", "othello"], "--time"),
        (["greedy", "--vs", "random", "--workers", "0", "--backend", "ray", "--variant",
          "othello"], "--workers"),
        (["greedy", "--vs", "random", "--workers", "-2", "--variant", "othello"], "--workers"),
        (["greedy", "--vs", "random", "--seed", "-1", "--variant", "othello"], "--seed"),
        (["greedy", "--vs", "random", "--json", "/", "--variant", "othello"], "directory"),
        (["greedy", "--vs", "random", "--json", "/no/such/dir/o.json", "--variant", "othello"],
         "does not exist"),
        (["greedy", "--vs", "random"], "give --game NAME"),
        (["greedy", "--vs", "random", "--game", "chess"], "unknown game 'chess'"),
        (["greedy", "--vs", "random", "--game", "othello", "--variant", "reversed"],
         "--variant reversed contradicts --game othello"),
        (["greedy"], "--vs"),
    ],
)
def test_cli_bad_input_is_one_clear_line(argv, fragment, capsys):
    code, _, err = run_cli(argv, capsys)
    assert code == 1 and fragment in err and err.count("\n") == 1


def test_cli_checks_the_json_path_before_playing(tmp_path, monkeypatch, capsys):
    def no_games(*args, **kwargs):
        raise AssertionError("games were started before the --json path was checked")

    monkeypatch.setattr(ev, "open_backend", no_games)
    code, _, err = run_cli(["greedy", "--vs", "random", "--variant", "othello", "--json",
                            str(tmp_path)], capsys)
    assert code == 1 and "is a directory" in err and err.count("\n") == 1


def test_cli_says_when_odd_game_counts_round_up(capsys):
    code, text, err = run_cli(["greedy", "--vs", "random", "--games", "3", "--depth", "1",
                               "--variant", "othello"], capsys)
    assert code == 0 and "rounded up to 4" in err
    assert text.splitlines()[2].split()[2] == "4"


def test_cli_refuses_a_malformed_weights_file(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 2}')
    code, _, err = run_cli([str(bad), "--vs", "random", "--variant", "othello"], capsys)
    assert code == 1 and "schema_version" in err and err.count("\n") == 1


def test_weights_file_players_take_the_files_variant(tmp_path, capsys):
    pytest.importorskip("engine.reversi.agents.alphabeta")
    from engine.reversi.weights_io import reference_weights

    w = reference_weights("course")
    save_json(w, tmp_path / "course.json")
    code, text, _ = run_cli([str(tmp_path / "course.json"), "--vs", "random", "--games", "4",
                             "--depth", "1", "--json", str(tmp_path / "o.json")], capsys)
    assert code == 0
    assert json.loads((tmp_path / "o.json").read_text())["settings"]["game"] == \
        "reversed_reversi"


def test_a_variant_that_contradicts_the_weights_file_is_never_silent(tmp_path, capsys):
    from engine.reversi.weights_io import reference_weights

    save_json(reference_weights("course"), tmp_path / "course.json")  # a reversed weight set
    argv = [f"eps0.5:{tmp_path / 'course.json'}", "--vs", "random", "--games", "2", "--depth",
            "1", "--json", str(tmp_path / "o.json")]
    code, _, err = run_cli([*argv, "--variant", "othello"], capsys)
    assert code == 0 and err.count("\n") == 1
    assert "warning: --game othello overrides the game of course.json (reversed_reversi)" in err
    assert json.loads((tmp_path / "o.json").read_text())["settings"]["game"] == "othello"
    code, _, err = run_cli([*argv, "--variant", "reversed"], capsys)
    assert code == 0 and err == ""


def test_ray_backend_gives_the_serial_results():
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        settings = EvalSettings("reversed_reversi", depth=1)
        backend = sch.open_backend("ray", 2, None, "reversed_reversi")
        try:
            on_ray = sch.evaluate("greedy", ["random", "wpc1"], settings, 12, 3,
                                  sch.Runner(settings, backend))
        finally:
            backend.close()
        serial = sch.evaluate("greedy", ["random", "wpc1"], settings, 12, 3, SerialRunner(settings))
        assert [r.as_dict() for r in on_ray] == [r.as_dict() for r in serial]
    finally:
        ray.shutdown()


def test_run_directories_inside_any_spec_become_their_champion_file(tmp_path):
    from engine.reversi.weights_io import reference_weights
    from evolve.arena.matches import choose_game, resolve_players

    run = tmp_path / "run"
    run.mkdir()
    save_json(reference_weights("course"), run / "champion.json")
    champion = run / "champion.json"
    specs = [f"eps0.5:{run}", f"mcts:10:{run}", str(run), "course", "greedy"]
    assert resolve_players(specs) == [f"eps0.5:{champion}", f"mcts:10:{champion}",
                                      str(champion), "course", "greedy"]
    assert choose_game(None, resolve_players([f"bfs::{run}", "random"])) == \
        ("reversed_reversi", None)
    table = format_table([MatchResult(f"eps0.5:{champion}", "random", 1, 0, 1)])
    assert table.splitlines()[2].startswith("eps0.5:run ")


def test_game_settings_reach_the_games_and_bad_ones_are_one_line(tmp_path, capsys):
    out = tmp_path / "h.json"
    code, _, _ = run_cli(["random", "--vs", "greedy", "--game", "hexifence", "--game-settings",
                          '{"size": 2}', "--games", "2", "--depth", "1", "--backend", "serial",
                          "--json", str(out)], capsys)
    assert code == 0
    assert json.loads(out.read_text())["settings"]["game_settings"] == {"size": 2}
    for bad, fragment in (('{"size": 0}', "game.size=0"), ("[1]", "JSON object"),
                          ("{oops", "not valid JSON")):
        code, _, err = run_cli(["random", "--vs", "greedy", "--game", "hexifence",
                                "--game-settings", bad, "--backend", "serial"], capsys)
        assert code == 1 and fragment in err and err.count("\n") == 1
