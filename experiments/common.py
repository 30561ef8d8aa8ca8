"""What the scripts of ``experiments/`` share (a library, not a job of the catalogue): running a
command from the repository root, ``python -m evolve.evaluate`` to JSON, numba's first-call
cost, a best-of timer, random play over the game contract and an older tree to compare with.

Every script runs as ``python -m experiments.<kind>.<name>`` from the repository root and
writes its result through ``experiments/stamp.py``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shlex
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.core.commands.helptext import summary
from experiments.stamp import ROOT

__all__ = ["ROOT", "Evaluation", "arguments", "baseline_arguments", "baseline_tree", "best_of",
           "evaluate", "export", "first_call_seconds", "first_call_table", "random_game",
           "random_walk", "rel", "run", "train"]


def arguments(doc: str) -> argparse.ArgumentParser:
    """A script's parser: described by its docstring's first sentence, with ``--out`` (the
    Markdown result; its data beside it as ``.json``)."""
    p = argparse.ArgumentParser(description=summary(doc))
    p.add_argument("--out", type=Path, help="write the Markdown here (+ .json)")
    return p


def rel(path) -> str:
    """``path`` relative to the repository root when inside it (commands read better)."""
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def run(cmd: Sequence[str], log: list[str] | None = None, echo: bool = False,
        env: dict | None = None) -> str:
    """Run ``cmd`` from the repository root (``python`` is this interpreter) and return what it
    printed. ``log`` gets the command as typed; ``echo`` prints it (``$ ...``) and its output.
    A failure exits with the command and the end of its error output."""
    cmd = [str(part) for part in cmd]
    text = shlex.join(cmd)
    if log is not None:
        log.append(text)
    if echo:
        print(f"$ {text}", flush=True)
    proc = subprocess.run([sys.executable, *cmd[1:]] if cmd[0] == "python" else cmd, cwd=ROOT,
                          capture_output=True, text=True, env=env)
    if echo:
        print(proc.stdout, end="", flush=True)
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {text}\n{proc.stderr.strip()[-2000:]}")
    return proc.stdout


def train(experiment: str, run_dir: Path, log: list[str], *overrides: str) -> None:
    """``python -m evolve +experiment=<experiment>`` into ``run_dir``, echoed."""
    run(["python", "-m", "evolve", f"+experiment={experiment}", f"hydra.run.dir={rel(run_dir)}",
         *overrides], log, echo=True)


def export(run_dir: Path, out: Path, log: list[str], fmt: str = "json") -> Path:
    """``python -m evolve.export``: a run's champion as a file (``fmt``), echoed."""
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    run(["python", "-m", "evolve.export", rel(run_dir), "--format", fmt, "--out", rel(out)], log,
        echo=True)
    return Path(out)


@dataclass(frozen=True)
class Evaluation:
    command: str  # as typed from the repository root
    output: str   # the tables it printed
    data: dict    # its --json report


def evaluate(options: Sequence, out: Path | None = None, keep: bool = True,
             log: list[str] | None = None, echo: bool = False) -> Evaluation:
    """``python -m evolve.evaluate <options> --json <out>``. Without ``out`` the report goes to
    a temporary file and the command is recorded without ``--json``; ``keep=False`` removes
    ``out`` once read."""
    cmd = ["python", "-m", "evolve.evaluate", *map(str, options)]
    if out is None:
        with tempfile.TemporaryDirectory() as tmp:
            output = run([*cmd, "--json", f"{tmp}/evaluate.json"], None, echo)
            data = _json(Path(tmp) / "evaluate.json")
        command = shlex.join(cmd)
        if log is not None:
            log.append(command)
        return Evaluation(command, output, data)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    cmd += ["--json", rel(out)]
    output = run(cmd, log, echo)
    data = _json(out)
    if not keep:
        Path(out).unlink()
    return Evaluation(shlex.join(cmd), output, data)


def _json(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


PROBE = """import time
_t0 = time.perf_counter()
{setup}
_t1 = time.perf_counter()
{call}
print(_t1 - _t0, time.perf_counter() - _t1)
"""


def first_call_seconds(setup: str, call: str) -> dict[str, tuple[float, float]]:
    """numba's first-call cost, each in a fresh process: ``setup`` (imports, inputs) then one
    ``call``, with an empty numba cache (``compile``) and again with the cache that run filled
    (``cached``: what every later run pays). Each is (import seconds, call seconds)."""
    code = PROBE.format(setup=setup, call=call)
    out = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for kind in ("compile", "cached"):
            setup_s, call_s = (float(x) for x in run(["python", "-c", code], env=env).split())
            out[kind] = (setup_s, call_s)
    return out


def first_call_table(first: dict[str, tuple[float, float]], call: str) -> list[str]:
    """``first_call_seconds`` as a Markdown table; ``call`` names the call (``first solve``)."""
    return [f"| numba cache | import (s) | {call} (s) |", "|---|---|---|",
            *(f"| {label} | {first[k][0]:.2f} | {first[k][1]:.2f} |"
              for label, k in (("empty (compile)", "compile"), ("filled", "cached")))]


def best_of(fn: Callable, repeats: int, warm_up: bool = False,
            clock: Callable[[], float] = time.perf_counter) -> tuple[float, object]:
    """The fastest of ``repeats`` calls of ``fn()`` in seconds of ``clock`` (wall clock by
    default; ``time.process_time`` for CPU seconds) (the machine is shared: the least
    disturbed), and the last call's value; ``warm_up`` makes one untimed call first (numba
    compiles or loads its cache)."""
    if warm_up:
        fn()
    best, value = float("inf"), None
    for _ in range(repeats):
        start = clock()
        value = fn()
        best = min(best, clock() - start)
    return best, value


def baseline_arguments(doc: str) -> argparse.ArgumentParser:
    """``arguments`` with the ``--baseline`` of the before/after benchmarks."""
    p = arguments(doc)
    p.add_argument("--baseline", required=True,
                   help="an older checkout's folder, or a git revision of this repository")
    return p


def random_game(game, rng, state=None) -> Iterator:
    """Every state of one game of uniformly random moves (``rng``), from ``state`` (default:
    the initial one) until the game ends (the final state is not yielded)."""
    state = game.initial_state() if state is None else state
    while not game.is_terminal(state):
        yield state
        moves = game.legal_moves(state)
        state = game.apply(state, moves[int(rng.integers(len(moves)))])


def random_walk(game, rng, plies: int):
    """The state after ``plies`` uniformly random moves from the initial one, or None when the
    game ended before."""
    for k, state in enumerate(random_game(game, rng)):
        if k == plies:
            return state
    return None


def baseline_tree(spec: str | Path, into: Path) -> tuple[Path, str]:
    """An older version of this repository to compare with, and its commit: ``spec`` is a
    checkout's folder, or a git revision whose ``engine`` package is extracted into ``into``
    (``git archive``: the working tree and the repository are left as they are)."""
    if Path(spec).is_dir():
        tree = Path(spec).resolve()
        done = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True)
        return tree, done.stdout.strip() or "?"
    commit = run(["git", "rev-parse", "--short=12", str(spec)]).strip()
    archive = subprocess.run(["git", "archive", commit, "engine"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into)
    return Path(into), commit
