"""Terminal play: driven through ``main()`` with fake stdin/stdout (and once as a subprocess)."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from engine.reversi.files import save_json
from engine.reversi.play import main
from engine.reversi.rules.state import Position


def run(argv, text):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(text), stdout=out)
    return code, out.getvalue()


def test_illegal_and_malformed_input_is_refused_with_the_legal_moves():
    code, out = run(["--opponent", "random", "--seed", "1"], "a1\nhello\nquit\n")
    assert code == 0
    legal = Position.start().legal_names()  # d3 c4 f5 e6
    assert f"illegal move a1; legal moves: {legal}" in out
    assert f"not a move: 'hello' (expected a1..h8 or pass); legal moves: {legal}" in out
    assert "plays" not in out  # nothing was applied: the opponent never got a turn
    assert "you quit the game" in out


def test_a_legal_move_is_applied_and_the_opponent_answers():
    code, out = run(["--opponent", "greedy"], "d3\nquit\n")
    assert code == 0
    assert re.search(r"O \(white\) \(greedy\) plays [a-h][1-8]", out)
    assert "X 3  O 3  X (black) to move" in out  # after d3 (4-1) and greedy's one-flip reply


def test_end_of_input_exits_cleanly_with_a_message():
    code, out = run(["--opponent", "random"], "")
    assert code == 0
    assert "end of input: game abandoned" in out


def test_unknown_opponent_is_a_one_line_error(capsys):
    code, _ = run(["--opponent", "nonsense"], "")
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "unknown agent spec 'nonsense'" in err and "greedy" in err


class FirstLegalMove(io.TextIOBase):
    """A fake human: answers each prompt with the first move of the last listed legal moves."""

    def __init__(self, out: io.StringIO):
        self.out = out

    def readline(self, size=-1):
        listed = re.findall(r"legal moves \(\*\): ([a-h1-8 ]+)", self.out.getvalue())
        return listed[-1].split()[0] + "\n"


def play_full_game(argv):
    out = io.StringIO()
    code = main(argv, stdin=FirstLegalMove(out), stdout=out)
    return code, out.getvalue()


def test_full_game_ends_with_counts_and_winner_under_the_variant():
    for variant, colour in (("othello", "X"), ("reversed", "O")):
        code, out = play_full_game(["--opponent", "random", "--variant", variant,
                                    "--color", colour, "--seed", "3"])
        assert code == 0
        last = out.strip().splitlines()[-1]
        match = re.match(r"game over: X (\d+)  O (\d+) \((\w+), .*\); (.*)$", last)
        assert match, last
        black, white, shown_variant, verdict = match.groups()
        black, white = int(black), int(white)
        assert shown_variant == variant
        black_wins = black > white if variant == "othello" else black < white
        if black == white:
            assert verdict == "draw"
        else:
            assert verdict.startswith("X (black) wins" if black_wins else "O (white) wins")
            human_wins = black_wins == (colour == "X")
            assert verdict.endswith("you win" if human_wins else "you lose")


def test_passes_are_announced():
    # play full games until one contains a pass (seeded, so the loop is deterministic)
    for seed in range(60):
        _, out = play_full_game(["--opponent", "random", "--seed", str(seed)])
        if re.search(r"[XO] \((black|white)\) \(.+\) has only one legal move: pass\n", out):
            return
    raise AssertionError("no pass in 60 games")


def test_module_runs_as_a_program():
    result = subprocess.run([sys.executable, "-m", "engine.reversi.play", "--opponent", "random"],
                            input="e6\nquit\n", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "you quit the game" in result.stdout and "Traceback" not in result.stderr


def test_weights_file_opponent(tmp_path):
    import engine.reversi.files as weights_io_mod
    path = tmp_path / "mine.json"
    save_json(weights_io_mod.reference_weights("course"), path)
    code, out = run(["--opponent", str(path), "--depth", "3"], "f5\nquit\n")
    assert code == 0 and re.search(r"O \(white\) \(.+\) plays [a-h][1-8]", out)


def test_corrupt_weights_file_is_a_one_line_error(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    code, _ = run(["--opponent", str(path)], "")
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


def saved_weights(tmp_path, variant):
    import engine.reversi.files as weights_io_mod
    w = weights_io_mod.reference_weights("wpc")
    if variant is None:
        w.metadata.pop("variant", None)
    else:
        w.metadata["variant"] = variant
    path = tmp_path / f"w_{variant}.json"
    save_json(w, path)
    return path


def test_variant_defaults_to_the_opponent_weights_variant(tmp_path, capsys):
    for variant, expected in (("reversed", "reversed"), ("othello", "othello"), (None, "othello")):
        path = saved_weights(tmp_path, variant)
        for spec in (str(path), f"mcts:20:{path}", f"eps0.1:wpc1:{path}"):
            code, out = run(["--opponent", spec, "--depth", "1"], "quit\n")
            assert code == 0 and f"({expected} rules)" in out, (spec, out)
    assert capsys.readouterr().err == ""  # nothing to warn about
    code, out = run(["--opponent", "course", "--depth", "1"], "quit\n")  # a reversed matrix
    assert code == 0 and "(reversed rules)" in out
    code, out = run(["--opponent", "wpc1"], "quit\n")  # no weights named: othello
    assert code == 0 and "(othello rules)" in out


def test_conflicting_variant_is_played_with_a_warning(tmp_path, capsys):
    path = saved_weights(tmp_path, "reversed")
    code, out = run(["--opponent", str(path), "--variant", "othello", "--depth", "1"], "quit\n")
    err = capsys.readouterr().err
    assert code == 0 and "(othello rules)" in out
    assert err.startswith("warning: ") and err.count("\n") == 1 and "made for reversed" in err
    run(["--opponent", str(path), "--variant", "reversed", "--depth", "1"], "quit\n")
    assert capsys.readouterr().err == ""  # agreeing: no warning


@pytest.mark.parametrize("argv, message", [
    (["--depth", "0"], "--depth must be >= 1, got 0"),
    (["--opponent", "random", "--depth", "-3"], "--depth must be >= 1, got -3"),
    (["--opponent", "mcts", "--time-limit", "-1"], "--time-limit must be > 0 seconds, got -1"),
    (["--opponent", "bfs", "--time-limit", "0"], "--time-limit must be > 0 seconds, got 0"),
    (["--opponent", "course", "--time-limit", "nan"], "--time-limit must be > 0 seconds"),
    (["--variant", "chess"], "unknown variant 'chess'"),
])
def test_bad_numbers_are_one_line_errors(argv, message, capsys):
    code, out = run(argv, "")
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err and out == ""
