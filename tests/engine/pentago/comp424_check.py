"""Run an exported COMP 424 package against the framework stand-ins and compare it with the
engine (used by the tests and by ``experiments/bench/exports/comp424.py``).

The stand-ins (``tests/engine/pentago/comp424_standins``: the course's ``boardgame`` and
``pentago_twist`` classes, written from the rules, plus the driver ``Comp424Harness``) are
compiled with the export by ``javac --release 8``; one JVM then answers a whole list of
positions. A position is a move sequence from the start (``positions``: seeded random play).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np

from engine.pentago.rules import state as st

STANDINS = Path(__file__).resolve().parent / "comp424_standins"
HARNESS = "student_player.Comp424Harness"
# the JVM otherwise leaves its perf-data file in /tmp/hsperfdata_<user>
NO_PERF_DATA, NO_PERF_DATA_JAVAC = "-XX:-UsePerfData", "-J-XX:-UsePerfData"


def have_jdk() -> bool:
    return shutil.which("javac") is not None and shutil.which("java") is not None


def export_and_compile(champion, folder: Path, **options) -> Path:
    """Export ``champion`` as ``comp424`` into ``folder/student_player`` and compile it with
    the stand-ins into ``folder/classes`` (returned); ``CalledProcessError`` on a compile
    error (its output in the message)."""
    from evolve.export import export

    package = export(champion, "comp424", Path(folder) / "student_player", **options)
    classes = Path(folder) / "classes"
    classes.mkdir(parents=True, exist_ok=True)
    sources = sorted(str(p) for p in STANDINS.rglob("*.java")) + \
        sorted(str(p) for p in package.glob("*.java"))
    done = subprocess.run(["javac", NO_PERF_DATA_JAVAC, "--release", "8", "-encoding", "UTF-8",
                           "-d", str(classes), *sources], capture_output=True, text=True)
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, "javac", done.stdout, done.stderr)
    return classes


def run_harness(classes: Path, args: list[str], lines: list[str] = (),
                timeout: float = 600) -> list[str]:
    """The driver's output lines (``Comp424Harness``'s modes) for the input ``lines``."""
    done = subprocess.run(["java", NO_PERF_DATA, "-Xmx500m", "-cp", str(classes), HARNESS, *args],
                          input="".join(line + "\n" for line in lines), capture_output=True,
                          text=True, timeout=timeout, check=True)
    return done.stdout.splitlines()


def positions(n: int, seed: int, min_stones: int = 0, max_stones: int = 30) -> list[list[int]]:
    """``n`` unfinished positions as move-id sequences: uniformly random games cut after a
    uniformly drawn number of plies in ``min_stones..max_stones`` (a seeded ``SeedSequence``)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    out = []
    while len(out) < n:
        plies = int(rng.integers(min_stones, max_stones + 1))
        state, moves = st.State(), []
        for _ in range(plies):
            legal = state.legal_moves()
            move = legal[int(rng.integers(len(legal)))]
            state, moves = state.apply(move), moves + [move]
            if state.is_over():
                break
        if not state.is_over():
            out.append(moves)
    return out


def sequence_line(moves: list[int]) -> str:
    return ",".join(st.move_text(m) for m in moves)


def replay(moves: list[int]) -> st.State:
    state = st.State()
    for m in moves:
        state = state.apply(m)
    return state
