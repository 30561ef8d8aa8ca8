"""The COMP30024 Java export: it compiles against stand-ins of the course's classes, plays whole
games through the tests' referee (both colours, N=2 and N=3) with legal moves and right answers,
refuses an illegal move, and at a fixed depth plays the engine agent's move (both genome kinds).
Timing is in ``experiments/bench/exports/comp30024.py``, not here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.hexifence.game import GAME
from evolve.export import export, main
from tests.engine.hexifence import comp30024_check as check

ROOT = Path(__file__).resolve().parents[3]
STANDINS = Path(__file__).with_name("comp30024_standins") / "aiproj" / "hexifence"
FEATURES = ROOT / "experiments" / "results" / "champions" / "hexifence.json"
NETWORK = ROOT / "experiments" / "results" / "champions" / "hexifence_ntuple.json"

pytestmark = pytest.mark.skipif(not check.have_java(), reason="javac/java not installed (CI "
                                "installs a JDK): the Java export cannot be compiled")

# class name -> (champion, export options)
EXPORTS = {
    "FixedPlayer": ("features", {"depth": 2, "endgame_empties": 12, "move_ms": 0}),
    "TimedPlayer": ("features", {"move_ms": 20}),
    "StarvedPlayer": ("features", {"move_ms": 1, "endgame_empties": 30}),
    "NetworkPlayer": ("network", {"depth": 2, "endgame_empties": 12, "move_ms": 0}),
    "SmallNetworkPlayer": ("small_network", {"depth": 2, "endgame_empties": 10, "move_ms": 0}),
}


def small_network_champion(path: Path) -> Path:
    """A network-only genome on N=2 with random entries (ties are rare, every entry counts)."""
    game = GAME.with_settings({"size": 2, "genome": {"kind": "ntuple", "layout": "cell+pair",
                                                     "phases": 2, "features": False}})
    genome = np.random.default_rng(5).uniform(-1, 1, game.genome_spec().size)
    game.save_champion(path, genome, name="random_network")
    return path


@pytest.fixture(scope="module")
def classes(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("comp30024")
    sources = {"features": FEATURES, "network": NETWORK,
               "small_network": small_network_champion(tmp / "small_network.json")}
    for name, (champion, options) in EXPORTS.items():
        export(sources[champion], "comp30024", tmp / "out", class_name=name, **options)
    out = tmp / "classes"
    check.compile_java([*STANDINS.glob("*.java"), *(tmp / "out").rglob("*.java")], out)
    out.joinpath("sources.txt").write_text("\n".join(f"{k}={v}" for k, v in sources.items()))
    return out


def champion_of(classes: Path, kind: str) -> Path:
    sources = dict(line.split("=", 1) for line in
                   classes.joinpath("sources.txt").read_text().splitlines())
    return Path(sources[kind])


def referee(classes: Path, size: int, blue: str, red: str, *extra: str, seed: int = 1) -> str:
    result = check.java(classes, "TestReferee", str(size), f"{check.PACKAGE}.{blue}",
                        f"{check.PACKAGE}.{red}", *extra, properties={"seed": seed})
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return result.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("size", [2, 3])
def test_whole_games_both_colours_are_legal_and_scored(classes, size):
    """The referee checks every move, every opponentMove answer and getWinner (EMPTY during
    the game, the winner at the end) of both players."""
    for blue, red in (("FixedPlayer", "RandomPlayer"), ("RandomPlayer", "FixedPlayer")):
        line = referee(classes, size, blue, red)
        _, winner, blue_cells, red_cells, _ = line.split()
        cells = {2: 7, 3: 19}[size]
        assert int(blue_cells) + int(red_cells) == cells
        ours = 1 if blue == "FixedPlayer" else 2
        assert int(winner) == ours, f"the champion lost to a random player: {line}"


def test_export_against_itself_and_the_network(classes):
    assert referee(classes, 3, "FixedPlayer", "NetworkPlayer").startswith("RESULT")
    assert referee(classes, 2, "SmallNetworkPlayer", "FixedPlayer").startswith("RESULT")


@pytest.mark.parametrize("size", [2, 3])
def test_a_legal_move_when_time_runs_out(classes, size):
    """1 ms per move with an exact endgame from 30 undrawn edges: the solver is stopped by the
    clock and the deepening's depth-1 move is played; 20 ms per move deepens normally."""
    assert referee(classes, size, "StarvedPlayer", "RandomPlayer").startswith("RESULT")
    assert referee(classes, size, "RandomPlayer", "TimedPlayer").startswith("RESULT")


def test_an_illegal_opponent_move_is_refused(classes):
    assert referee(classes, 3, "FixedPlayer", "RandomPlayer", "illegal") == \
        "RESULT illegal refused"
    assert referee(classes, 2, "RandomPlayer", "FixedPlayer", "illegal") == \
        "RESULT illegal refused"


def same_moves(classes: Path, kind: str, class_name: str, size: int, count: int, depth: int,
               endgame_empties: int, seed: int) -> None:
    positions = check.sample_positions(size, count, seed)
    engine = check.engine_moves(champion_of(classes, kind), positions, depth, endgame_empties)
    lines = [check.driver_line(p, depth, endgame_empties) for p in positions]
    java = [move for move, _, _ in check.java_moves(classes, class_name, lines)]
    differ = [i for i in range(count) if engine[i] != java[i]]
    assert not differ, (f"{len(differ)} of {count} moves differ, first:\n"
                        f"{positions[differ[0]].to_text()}\nengine {engine[differ[0]]}, "
                        f"java {java[differ[0]]}")


@pytest.mark.parametrize("size", [2, 3])
def test_fixed_depth_plays_the_engine_move_50(classes, size):
    same_moves(classes, "features", "FixedPlayer", size, 50, 2, 10, seed=3)


@pytest.mark.slow
@pytest.mark.parametrize("size", [2, 3])
def test_fixed_depth_plays_the_engine_move_1000(classes, size):
    """Features at depth 3 with the exact endgame from 16 undrawn edges."""
    same_moves(classes, "features", "FixedPlayer", size, 1000, 3, 16, seed=11)


@pytest.mark.slow
def test_network_plays_the_engine_move_1000(classes):
    """The committed network (with its features, N=3) and a network-only genome (N=2)."""
    same_moves(classes, "network", "NetworkPlayer", 3, 1000, 2, 14, seed=12)
    same_moves(classes, "small_network", "SmallNetworkPlayer", 2, 1000, 3, 12, seed=13)


def test_network_plays_the_engine_move_50(classes):
    same_moves(classes, "network", "NetworkPlayer", 3, 50, 2, 10, seed=4)
    same_moves(classes, "small_network", "SmallNetworkPlayer", 2, 50, 2, 10, seed=5)


def test_export_writes_the_class_in_its_package_folder(tmp_path, capsys):
    assert main([str(FEATURES), "--format", "comp30024", "--out", str(tmp_path),
                 "--class-name", "Team", "--move-ms", "500"]) == 0
    source = (tmp_path / "aiproj" / "hexifence" / "Team.java").read_text()
    assert "public class Team implements Player, Piece" in source
    assert "static final long MOVE_MS = 500;" in source
    assert "static final int ENDGAME_EMPTIES = 24;" in source  # the file's play search
    assert "import java.io.PrintStream;" in source and "java.net" not in source
    assert "wrote" in capsys.readouterr().out


@pytest.mark.parametrize("flags, message", [
    (["--class-name", "9x"], "Java identifier"),
    (["--depth", "0"], "--depth 0"),
    (["--move-ms", "0"], "needs a fixed --depth"),
])
def test_bad_options_are_one_line_errors(tmp_path, capsys, flags, message):
    assert main([str(FEATURES), "--format", "comp30024", "--out", str(tmp_path), *flags]) == 1
    assert message in capsys.readouterr().err
