"""The play command every game gets from GameBase (engine.core.play_any), on the plug-in game:
a person plays through the shared loop; bad input is one line; the game is found from a
champion file given on the line."""

import io

from engine.core.cli import dispatch
from engine.core.play_any import main


def test_a_game_without_its_own_play_command_is_played_through_the_shared_loop():
    out = io.StringIO()
    code = main(["--game", "connect_four", "--opponent", "random", "--seed", "3"],
                stdin=io.StringIO("9\n3\nquit\n"), stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "You are red against random" in text
    assert "move 9 is not legal here; legal moves: 0 1 2 3 4 5 6" in text  # asked again
    assert "yellow (random) plays" in text and "you quit" in text


def test_an_unknown_opponent_is_one_line(capsys):
    assert main(["--game", "connect_four", "--opponent", "nonsense"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: unknown agent spec 'nonsense'") and "\n" not in err


def test_the_dispatcher_gives_the_shared_command_its_game(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert dispatch("play", ["--game", "connect_four", "--opponent", "random"]) == 0
    assert "You are red against random" in capsys.readouterr().out
