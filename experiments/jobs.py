"""What a job of the reproduce catalogue (``experiments/catalogue.py``) is, and the kinds of job
it lists, each building its command one way: a script of ``experiments/`` writing
``--out {results}/<name>.md`` (``script``; ``bench`` for the speed scripts named after their
module), a row of the strength goals (``goal``), a committed run's champion exported
(``export``). The networks learnt by TD are ``network_jobs``'s.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace

from experiments.strength.goals import Goal

PY = "python"


@dataclass(frozen=True)
class Job:
    name: str
    command: tuple[str, ...]
    outputs: tuple[str, ...]   # relative to the results folder
    seconds: float             # estimate on the idle 2-core machine
    kind: str                  # timing | games | exact
    what: str
    quick: bool = False
    capture: str | None = None  # title of the captured stdout's Markdown file
    needs: tuple[str, ...] = ()  # result files (relative) it reads that another job may write


def job(name, command, outputs, seconds, kind, what, quick=False, capture=None) -> Job:
    return Job(name, tuple(shlex.split(command)), tuple(outputs.split()), seconds, kind, what,
               quick, capture)


def players(entries: list[str]) -> str:
    return " ".join(f"--player {e}" for e in entries)


def script(name: str, module: str, options: str, seconds: float, kind: str, what: str,
           quick: bool = False, also: str = "", json: bool = True) -> Job:
    """A job of ``python -m experiments.<module>`` that writes ``--out {results}/<name>.md``,
    the ``.json`` beside it (unless ``json`` is false) and ``also``."""
    outputs = " ".join([f"{name}.md", *([f"{name}.json"] if json else []), also])
    return job(name, f"{PY} -m experiments.{module} {options} --out {{results}}/{name}.md"
               .replace("  ", " "), outputs, seconds, kind, what, quick)


def bench(module: str, options: str, seconds: float, what: str, kind: str = "timing",
          quick: bool = False) -> Job:
    """``script`` for a script of ``experiments/bench/`` (``module`` under it: ``room.name``),
    the job and its result named ``bench_<name>``; a speed measurement unless ``kind`` says."""
    return script(f"bench_{module.rpartition('.')[2]}", f"bench.{module}", options, seconds, kind,
                  what, quick)


def goal(g: Goal) -> Job:
    """A row of the strength goals table, measured by ``experiments.strength.run``; it needs
    the committed champions it plays (a job that writes one runs first)."""
    players = (g.champion, *g.opponents)
    needs = tuple(p.removeprefix("experiments/results/") for p in players
                  if p.startswith("experiments/results/"))
    return replace(job(g.name, f"{PY} -m experiments.strength.run --goal {g.name} --results "
                       "{results}", f"{g.name}.md {g.name}.json", g.seconds, g.kind, g.what),
                   needs=needs)


def export(name: str, run: str, what: str, fmt: str = "json", play: str = "") -> Job:
    """A committed run's champion as a file under ``champions/`` (``python -m evolve.export``);
    ``play``: the search its README strength row is measured at, recorded in the file so that
    every front end plays it there (``metadata.play``)."""
    out = f"champions/{name}.{'py' if fmt == 'cs303' else 'json'}"
    options = f" --play '{play}'" if play else ""
    return job(f"champion_{name}", f"{PY} -m evolve.export experiments/runs/{run} --format {fmt} "
               f"--out {{results}}/{out}{options}", out, 5, "exact", what)
