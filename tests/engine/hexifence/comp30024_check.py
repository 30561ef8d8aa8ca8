"""Running an exported COMP30024 player from Python: compile it against stand-ins of the course's
classes, sample positions from seeded play, ask the Java driver for its moves, and the engine
agent's moves at the same settings (for the equality tests and the benchmark).

The stand-ins (``Player``, ``Piece``, ``Move``), the tests' referee and the driver
``ExportDriver`` (positions on stdin, one move a line out) live in
``tests/engine/hexifence/comp30024_standins/``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np

from engine.core.game import SearchSettings
from engine.hexifence.game import GAME
from engine.hexifence.rules.state import State

PACKAGE = "aiproj.hexifence"
# the JVM otherwise leaves its perf-data file in /tmp/hsperfdata_<user>
NO_PERF_DATA, NO_PERF_DATA_JAVAC = "-XX:-UsePerfData", "-J-XX:-UsePerfData"


def have_java() -> bool:
    return shutil.which("javac") is not None and shutil.which("java") is not None


def compile_java(sources: list[Path], classes: Path) -> None:
    """``javac --release 8`` into ``classes``; a failure raises with javac's message."""
    classes.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(["javac", NO_PERF_DATA_JAVAC, "--release", "8", "-Xlint:-options",
                             "-d", str(classes), *map(str, sources)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"javac failed:\n{result.stdout}{result.stderr}")


def java(classes: Path, main: str, *args: str, stdin: str = "", timeout: float = 600,
         properties: dict | None = None) -> subprocess.CompletedProcess:
    flags = [f"-D{k}={v}" for k, v in (properties or {}).items()]
    return subprocess.run(["java", NO_PERF_DATA, *flags, "-cp", str(classes),
                           f"{PACKAGE}.{main}", *args],
                          input=stdin, capture_output=True, text=True, timeout=timeout)


def sample_positions(size: int, count: int, seed: int) -> list[State]:
    """``count`` positions (nothing finished) from games of random, greedy, safe and chain-aware
    agents, seeded by ``seed``: one position a game at a uniformly random ply, so every phase
    of the game is represented."""
    game = GAME.with_settings({"size": size})
    rng = np.random.default_rng(np.random.SeedSequence([seed, size]))
    specs = ("random", "greedy", "safe", "chain")
    search = SearchSettings()
    positions = []
    while len(positions) < count:
        agents = [game.make_panel_agent(specs[int(rng.integers(len(specs)))], search,
                                        seed=int(rng.integers(2**31))) for _ in range(2)]
        stop = int(rng.integers(game.board.n_edges))
        state = game.initial_state()
        for _ in range(stop):
            state = game.apply(state, agents[state.to_move].select_move(state))
        positions.append(state)
    return positions


def driver_line(state: State, depth: int, endgame_empties: int, move_ms: int = 0) -> str:
    rows = state.to_text().splitlines()[1:1 + state.board.width]
    return (f"{state.size} {depth} {endgame_empties} {move_ms} {state.to_move + 1} "
            + "|".join(rows))


def java_moves(classes: Path, class_name: str, lines: list[str], warmup: bool = False,
               timeout: float = 600) -> list[tuple[int, int, int]]:
    """(move id, nodes, nanoseconds) per driver line."""
    args = [f"{PACKAGE}.{class_name}"] + (["warmup"] if warmup else [])
    result = java(classes, "ExportDriver", *args, stdin="\n".join(lines) + "\n", timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"ExportDriver failed:\n{result.stdout}{result.stderr}")
    out = []
    for line, given in zip(result.stdout.split("\n"), lines, strict=False):
        row, col, nodes, nanos = (int(x) for x in line.split())
        width = 4 * int(given.split()[0]) - 1
        out.append((row * width + col, nodes, nanos))
    return out


def engine_moves(champion: Path, positions: list[State], depth: int,
                 endgame_empties: int) -> list[int]:
    """The engine agent's move at a fixed depth, its table forgotten before each position (as
    the driver's ``loadPosition`` does)."""
    moves, agents = [], {}
    for state in positions:
        if state.size not in agents:
            game = GAME.with_settings({"size": state.size})
            agents[state.size] = game.make_panel_agent(
                str(champion), SearchSettings(depth=depth, endgame_empties=endgame_empties))
        agent = agents[state.size]
        agent.reset()
        moves.append(agent.select_move(state))
    return moves
