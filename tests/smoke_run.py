"""A real ``smoke`` multirun (two seeds) shared by test_report.py and test_notebooks.py.

Each test file has a one-line session fixture calling ``smoke_sweep_for``; the module-level
cache makes the sweep once per pytest session however many files ask for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = (1, 2)
_CACHE: dict[Path, list[Path]] = {}


def run_env() -> dict[str, str]:
    """Environment for subprocesses: this checkout first on the path, no display needed."""
    env = dict(os.environ, MPLBACKEND="Agg")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def make_smoke_sweep(sweep_dir: Path) -> list[Path]:
    """``python -m evolve --multirun +experiment=smoke seed=1,2`` into ``sweep_dir``; returns
    the job run directories (``sweep_dir/0``, ``sweep_dir/1``)."""
    if sweep_dir not in _CACHE:
        command = [sys.executable, "-m", "evolve", "--multirun", "+experiment=smoke",
                   f"seed={','.join(map(str, SEEDS))}", f"hydra.sweep.dir={sweep_dir}",
                   "progress=false", "plot=false"]  # the figure: tests/evolve/ga/test_figure.py
        done = subprocess.run(command, cwd=ROOT, env=run_env(), capture_output=True, text=True,
                              timeout=900)
        if done.returncode != 0:
            pytest.fail(f"smoke run failed ({' '.join(command)}):\n{done.stderr[-3000:]}")
        _CACHE[sweep_dir] = [sweep_dir / str(job) for job in range(len(SEEDS))]
    return _CACHE[sweep_dir]


def smoke_sweep_for(tmp_path_factory) -> list[Path]:
    """The session's smoke sweep (made on first use) under pytest's base temporary folder."""
    return make_smoke_sweep(tmp_path_factory.getbasetemp() / "smoke_sweep")
