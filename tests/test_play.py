"""Terminal play: driven through ``main()`` with fake stdin/stdout (and once as a subprocess)."""

from __future__ import annotations

import io
import re
import subprocess
import sys

from engine.play import main
from engine.position import Position


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
        if "has no legal move and passes." in out:
            return
    raise AssertionError("no pass in 60 games")


def test_module_runs_as_a_program():
    result = subprocess.run([sys.executable, "-m", "engine.play", "--opponent", "random"],
                            input="e6\nquit\n", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "you quit the game" in result.stdout and "Traceback" not in result.stderr


def test_weights_file_opponent(tmp_path):
    import engine.weights as weights_mod
    path = tmp_path / "mine.json"
    weights_mod.reference_weights("course").save_json(path)
    code, out = run(["--opponent", str(path), "--depth", "3"], "f5\nquit\n")
    assert code == 0 and re.search(r"O \(white\) \(.+\) plays [a-h][1-8]", out)


def test_corrupt_weights_file_is_a_one_line_error(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    code, _ = run(["--opponent", str(path)], "")
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
