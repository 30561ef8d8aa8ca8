"""The play command every game gets from GameBase (engine.core.commands.play_any), on the plug-in
game: a person plays through the shared loop; bad input is one line; the game is found from a
champion file given on the line."""

import io

from engine.core.commands.cli import dispatch
from engine.core.commands.play_any import main


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


def test_a_champion_opponent_plays_its_recorded_search_and_says_so(tmp_path):
    """Every play command gets the opponent's search from the shared helper: a champion's
    record (here the plug-in game's file with ``metadata.search``), the flags over it."""
    from engine.core import get_game

    game = get_game("connect_four")
    path = tmp_path / "champion.json"
    game.save_champion(path, game.reference_genome(game.reference_names()[0]), name="c4",
                       metadata={"search": {"depth": 2, "endgame_empties": 5}})
    out = io.StringIO()
    assert main(["--game", "connect_four", "--opponent", str(path)],
                stdin=io.StringIO("quit\n"), stdout=out) == 0
    # the agent bears the champion's name, as in every game (its file's stem when it has none)
    assert "c4 searches depth 2, exact endgame from 5 (champion file)." in out.getvalue()
    out = io.StringIO()
    main(["--game", "connect_four", "--opponent", str(path), "--depth", "1"],
         stdin=io.StringIO("quit\n"), stdout=out)
    assert ("c4 searches depth 1, exact endgame from 5 (depth set; the champion file "
            "records depth 2).") in out.getvalue()
    out = io.StringIO()
    main(["--game", "connect_four", "--opponent", "random"], stdin=io.StringIO("quit\n"),
         stdout=out)
    assert "searches" not in out.getvalue()  # no search settings for a random mover
