"""The COMP 424 export (``--format comp424``) compiles against the framework stand-ins, plays
whole legal games through them and, at a fixed depth, plays the engine agent's move.

Each check exports a champion file with ``python -m evolve.export``'s function, compiles the
``student_player`` package with the stand-ins (``javac --release 8``) and asks one JVM about a
list of positions (``tests.engine.pentago.comp424_check``). No timing is asserted: the speed and the
share of the time budget used are ``experiments/bench/exports/comp424.py``'s.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from engine.core import SearchSettings
from engine.pentago.game import GAME
from engine.pentago.rules import state as st
from evolve.export import export
from experiments.stamp import ROOT
from tests.engine.pentago import comp424_check as cc

CHAMPIONS = {
    "features": ROOT / "experiments" / "results" / "champions" / "pentago_twist.json",
    "ntuple": ROOT / "experiments" / "results" / "champions" / "pentago_twist_ntuple.json",
}
ENDGAME = 8
needs_jdk = pytest.mark.skipif(not cc.have_jdk(), reason="javac/java not found: the COMP 424 "
                               "export is Java (CI installs a JDK)")
pytestmark = pytest.mark.xdist_group("comp424")


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """(kind, depth or None) -> compiled classes, built once per module."""
    built = {}

    def get(kind: str, depth: int | None = None, **options):
        key = (kind, depth, tuple(sorted(options.items())))
        if key not in built:
            folder = tmp_path_factory.mktemp(f"comp424_{Path(kind).stem}_{depth}")
            built[key] = cc.export_and_compile(CHAMPIONS[kind] if kind in CHAMPIONS else kind,
                                               folder, depth=depth, endgame_empties=ENDGAME,
                                               **options)
        return built[key]

    return get


def engine_agent(champion_path, depth: int):
    champion = GAME.load_champion(champion_path)
    game = GAME.with_settings(champion.settings)
    return game.make_agent(champion.genome, SearchSettings(depth=depth,
                                                           endgame_empties=ENDGAME))


def assert_same_moves(classes, champion_path, depth: int, positions) -> None:
    """The export's move equals the engine agent's on every position; the stand-ins' board
    after replaying the moves equals the engine's."""
    lines = cc.run_harness(classes, ["moves"], [cc.sequence_line(p) for p in positions])
    agent = engine_agent(champion_path, depth)
    different = []
    for moves, line in zip(positions, lines, strict=True):
        state = cc.replay(moves)
        java_move, java_board, _ = line.split("\t")
        assert java_board == "".join(st.state_text(state).splitlines()[:6]), moves
        engine_move = st.move_text(agent.select_move(state))
        if java_move != engine_move:
            different.append((cc.sequence_line(moves), engine_move, java_move))
    assert not different, f"{len(different)} of {len(positions)} differ, e.g. {different[:3]}"


def endgame_positions(n: int, seed: int):
    """Unfinished positions with at most ``ENDGAME`` empty cells (the exact search)."""
    found = [p for p in cc.positions(8 * n, seed, 28, 34) if 36 - len(p) <= ENDGAME]
    assert len(found) >= n
    return found[:n]


# ---- the files ------------------------------------------------------------------------------

def test_export_writes_the_student_player_package(tmp_path):
    out = export(CHAMPIONS["features"], "comp424", tmp_path / "student_player",
                 student_id="261234567")
    assert sorted(p.name for p in out.iterdir()) == ["MyTools.java", "StudentPlayer.java"]
    player = (out / "StudentPlayer.java").read_text()
    assert "package student_player;" in player
    assert "public class StudentPlayer extends PentagoPlayer" in player
    assert 'super("261234567");' in player
    assert "public Move chooseMove(PentagoBoardState boardState)" in player
    for source in out.glob("*.java"):
        text = source.read_text()
        imports = set(re.findall(r"^import ([\w.]+)\.\w+;", text, re.M))
        assert imports <= {"boardgame", "pentago_twist", "java.util"}, source.name
        for banned in ("java.io", "java.net", "java.nio", "Thread", "System.exit", "Runtime",
                       "getBoard()"):
            assert banned not in text, (source.name, banned)


def test_bad_options_are_refused_in_one_line(tmp_path):
    with pytest.raises(ValueError, match="--depth 0 must be >= 1"):
        export(CHAMPIONS["features"], "comp424", tmp_path / "a", depth=0)
    with pytest.raises(ValueError, match="--move-ms 10 must be >= 200"):
        export(CHAMPIONS["features"], "comp424", tmp_path / "b", move_ms=10)
    with pytest.raises(ValueError, match="not an option of --format json"):
        export(CHAMPIONS["features"], "json", tmp_path / "c.json", move_ms=500)


# ---- whole games through the stand-ins ------------------------------------------------------

@needs_jdk
@pytest.mark.parametrize("kind", ["features", "ntuple"])
def test_fixed_depth_export_plays_whole_legal_games_both_colours(compiled, kind):
    lines = cc.run_harness(compiled(kind, 2), ["games", "6", "11"])
    assert not [line for line in lines if line.startswith("ILLEGAL")], lines
    games = [line for line in lines if line.startswith("game ")]
    assert [line.split()[3] for line in games] == ["0", "1"] * 3  # the export's colour
    summary = lines[-1].split()
    assert summary[0] == "summary" and int(summary[2]) + int(summary[4]) + int(summary[6]) == 6


@needs_jdk
def test_timed_export_plays_legal_moves_when_time_runs_out(compiled):
    """200 ms a move (the smallest budget allowed): the deepening is cut at every move."""
    classes = compiled("features", None, move_ms=200, first_move_ms=200)
    lines = cc.run_harness(classes, ["games", "2", "5"])
    assert not [line for line in lines if line.startswith("ILLEGAL")], lines
    assert lines[-1].startswith("summary")


# ---- the same player as the engine ----------------------------------------------------------

@needs_jdk
@pytest.mark.parametrize("kind", ["features", "ntuple"])
def test_fixed_depth_move_equals_the_engine_agent_on_50_positions(compiled, kind):
    assert_same_moves(compiled(kind, 2), CHAMPIONS[kind], 2, cc.positions(50, 424))


@needs_jdk
def test_depth_3_and_the_exact_endgame_equal_the_engine_agent(compiled):
    positions = cc.positions(12, 3) + endgame_positions(8, 4)
    assert_same_moves(compiled("features", 3), CHAMPIONS["features"], 3, positions)


@needs_jdk
@pytest.mark.slow
@pytest.mark.parametrize("kind", ["features", "ntuple"])
def test_fixed_depth_move_equals_the_engine_agent_on_1000_positions(compiled, kind):
    positions = cc.positions(960, 2024) + endgame_positions(40, 2025)
    assert_same_moves(compiled(kind, 2), CHAMPIONS[kind], 2, positions)


@needs_jdk
@pytest.mark.slow
def test_depth_3_move_equals_the_engine_agent_on_200_positions(compiled):
    positions = cc.positions(180, 33) + endgame_positions(20, 34)
    assert_same_moves(compiled("features", 3), CHAMPIONS["features"], 3, positions)


@needs_jdk
@pytest.mark.slow
def test_a_large_network_without_features_equals_the_engine_agent(compiled, tmp_path):
    """The default layout (straight5+corner3), 3 phases, network only: 129,762 weights, in
    string chunks in the Java source."""
    game = GAME.with_settings({"genome": {"kind": "ntuple"}})
    rng = np.random.default_rng(np.random.SeedSequence(77))
    genome = rng.uniform(-1, 1, game.genome_spec().size)
    path = tmp_path / "big_network.json"
    game.save_champion(path, genome, "big_network", {"search": {"depth": 2,
                                                                 "endgame_empties": ENDGAME}})
    assert_same_moves(compiled(str(path), 2), path, 2, cc.positions(150, 78))
