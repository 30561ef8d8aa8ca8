"""``python -m evolve.evaluate``: what it prints, the JSON, bad input, players' names."""

from __future__ import annotations

import json
import re

import pytest

from engine.reversi.files import save_json
from evolve.arena import evaluate as ev
from evolve.arena.elo import elo_from_score


def run_cli(argv, capsys):
    """The CLI in-process; serial unless the test asks for a backend (Ray is the CLI default
    and has its own test), so each call does not pay Ray's start-up."""
    if "--backend" not in argv:
        argv = [*argv, "--backend", "serial"]
    code = ev.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def table_rows(text: str, first_column: str = "player") -> list[dict[str, str]]:
    """The rows of the printed table whose header starts with ``first_column`` (cells are
    separated by two or more spaces)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(first_column + " "))
    header = re.split(r"\s{2,}", lines[start].strip())
    rows = []
    for line in lines[start + 2:]:
        if not line.strip():
            break
        rows.append(dict(zip(header, re.split(r"\s{2,}", line.strip()), strict=True)))
    return rows


def test_cli_prints_what_it_plays_a_table_and_writes_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    code, text, err = run_cli(["wpc1", "--vs", "random", "greedy", "--games", "8", "--depth",
                               "1", "--variant", "othello", "--json", str(out)], capsys)
    assert code == 0 and err == ""  # no progress bar when stderr is not a terminal
    plan = text.splitlines()[:2]
    assert plan[0] == "wpc1 vs random, greedy"
    assert "8 games per pairing (4 openings" in plan[1] and "othello, depth 1" in plan[1]
    data = json.loads(out.read_text())
    assert data["command"].startswith("python -m evolve.evaluate wpc1 --vs random greedy")
    rows = table_rows(text)
    assert [m["opponent"] for m in data["matches"]] == [r["opponent"] for r in rows]
    for m, row in zip(data["matches"], rows, strict=True):
        assert m["wins"] + m["draws"] + m["losses"] == m["games"] == 8
        assert row["W-D-L"] == f"{m['wins']}-{m['draws']}-{m['losses']}"
        score = (m["wins"] + m["draws"] / 2) / 8
        low, high = m["score_ci95"]
        assert row["score [95% CI]"] == f"{100 * score:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
        assert low <= score <= high
        if m["elo"] is not None:
            assert m["elo"] == pytest.approx(elo_from_score(m["score"]))
    assert "played 16 games in" in text and "on serial" in text


def test_cli_without_sprt_says_how_to_get_one(capsys):
    code, text, _ = run_cli(["wpc1", "--vs", "random", "--games", "4", "--depth", "1",
                             "--variant", "othello"], capsys)
    assert code == 0 and "SPRT: none (add --sprt ELO0 ELO1" in text
    assert "SPRT" not in " ".join(table_rows(text)[0])


def test_cli_sprt_says_which_hypothesis_it_accepted(capsys):
    code, text, _ = run_cli(["wpc1", "--vs", "random", "--games", "400", "--depth", "1",
                             "--variant", "othello", "--sprt", "0", "100"], capsys)
    assert code == 0 and "SPRT vs random: H1 accepted (Elo >= 100 more likely" in text
    row = table_rows(text)[0]
    assert row["SPRT(0, 100)"] == f"H1 at game {row['games']}" and int(row["games"]) < 400
    assert "SPRT: none" not in text and "(the SPRT stopped early)" in text


def test_cli_round_robin_ranks_the_players_and_explains_the_missing_sprt(capsys):
    code, text, _ = run_cli(["--round-robin", "wpc1", "random", "greedy", "--games", "4",
                             "--depth", "1", "--variant", "othello"], capsys)
    assert code == 0
    ranking = table_rows(text, "rank")
    assert sorted(r["player"] for r in ranking) == ["greedy", "random", "wpc1"]
    assert [float(r["Elo"]) for r in ranking] == sorted((float(r["Elo"]) for r in ranking),
                                                        reverse=True)
    assert all(r["games"] == "8" for r in ranking)
    assert len(table_rows(text)) == 3 and "a round robin has no single player to test" in text


def test_cli_progress_bar_on_request(capsys):
    code, _, err = run_cli(["wpc1", "--vs", "random", "--games", "8", "--depth", "1",
                            "--variant", "othello", "--progress"], capsys)
    assert code == 0 and "games: 100%" in err and "8/8" in err
    code, _, err = run_cli(["wpc1", "--vs", "random", "--games", "8", "--depth", "1",
                            "--variant", "othello", "--no-progress"], capsys)
    assert code == 0 and err == ""


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
        (["greedy", "--vs", "random", "--clock", "1:00", "--variant", "othello"],
         "--clock: time control '1:00': expected <seconds>[+<increment>]"),
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
    assert table_rows(text)[0]["games"] == "4"


def test_cli_refuses_a_malformed_weights_file(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 2}')
    code, _, err = run_cli([str(bad), "--vs", "random", "--variant", "othello"], capsys)
    assert code == 1 and "schema_version" in err and err.count("\n") == 1


def test_weights_file_players_take_the_files_variant(tmp_path, capsys):
    pytest.importorskip("engine.reversi.agents.alphabeta")
    from engine.reversi.files import reference_weights

    w = reference_weights("course")
    save_json(w, tmp_path / "course.json")
    code, text, _ = run_cli([str(tmp_path / "course.json"), "--vs", "random", "--games", "4",
                             "--depth", "1", "--json", str(tmp_path / "o.json")], capsys)
    assert code == 0
    assert json.loads((tmp_path / "o.json").read_text())["settings"]["game"] == \
        "reversed_reversi"


def test_a_variant_that_contradicts_the_weights_file_is_never_silent(tmp_path, capsys):
    from engine.reversi.files import reference_weights

    save_json(reference_weights("course"), tmp_path / "course.json")  # a reversed weight set
    argv = [f"eps0.5:{tmp_path / 'course.json'}", "--vs", "random", "--games", "2", "--depth",
            "1", "--json", str(tmp_path / "o.json")]
    code, _, err = run_cli([*argv, "--variant", "othello"], capsys)
    assert code == 0 and err.count("\n") == 1
    assert "warning: --game othello overrides the game of course.json (reversed_reversi)" in err
    assert json.loads((tmp_path / "o.json").read_text())["settings"]["game"] == "othello"
    code, _, err = run_cli([*argv, "--variant", "reversed"], capsys)
    assert code == 0 and err == ""


def test_run_directories_inside_any_spec_become_their_champion_file(tmp_path):
    from engine.reversi.files import reference_weights
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


def test_a_game_clock_plays_timed_agents_and_says_so(capsys):
    """--clock 2+0.02: both sides timed by their clocks (alpha-beta and a rule); the summary
    names the time control and the JSON keeps it."""
    code, out, _ = run_cli(["course", "--vs", "greedy", "--games", "2", "--clock", "2+0.02",
                            "--variant", "reversed", "--backend", "serial", "--no-progress"],
                           capsys)
    assert code == 0
    assert "a 2+0.02 game clock per player" in out


def test_a_champion_file_is_read_once_for_the_whole_evaluation(tmp_path, capsys, monkeypatch):
    """The command reads each champion file once and its games play the ``Champion``."""
    import shutil
    from pathlib import Path

    from tests.engine.core.reads import count_opens

    champions = Path(__file__).resolve().parents[3] / "experiments" / "results" / "champions"
    path = tmp_path / "h.json"
    shutil.copy(champions / "hexifence.json", path)
    opened = count_opens(monkeypatch, path)
    code, text, _ = run_cli([str(path), "--vs", "random", "greedy", "--games", "4",
                             "--depth", "1", "--endgame-empties", "0"], capsys)
    assert code == 0 and "played 8 games" in text
    assert len(opened) == 1, opened
