"""The command line: bad values exit non-zero with one clear line; multirun sweeps work."""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent


def evolve(tmp_path, *args):
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}
    return subprocess.run([sys.executable, "-m", "evolve", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("override, key", [
    ("ga.elites=12", "error: ga.elites=12 must satisfy 0 <= elites < population (4)"),
    ("search.depth=0", "error: search.depth=0 must satisfy depth >= 1"),
    ("ga.mutation_prob=2", "error: ga.mutation_prob=2.0 must satisfy 0 <= value <= 1"),
    ("backend=gpu", "error: backend=gpu must be one of: serial, ray"),
])
def test_a_bad_value_exits_non_zero_with_one_line(tmp_path, override, key):
    proc = evolve(tmp_path, "+experiment=smoke", override, f"hydra.run.dir={tmp_path / 'run'}")
    assert proc.returncode != 0
    assert proc.stderr.strip() == key
    assert "Traceback" not in proc.stdout + proc.stderr


def test_resume_of_a_directory_without_checkpoint_is_one_line(tmp_path):
    proc = evolve(tmp_path, f"resume={tmp_path}", f"hydra.run.dir={tmp_path / 'run'}")
    assert proc.returncode != 0
    assert proc.stderr.strip().startswith("error: resume=") and "\n" not in proc.stderr.strip()


def test_multirun_sweeps_population_sizes(tmp_path):
    sweep = tmp_path / "sweep"
    proc = evolve(tmp_path, "-m", "+experiment=smoke", "ga.population=4,6", "plot=false",
                  f"hydra.sweep.dir={sweep}")
    assert proc.returncode == 0, proc.stderr
    for job, population in (("0", 4), ("1", 6)):
        individuals = pd.read_csv(sweep / job / "individuals.csv")
        assert individuals.groupby("generation").size().tolist() == [population, population]
        assert (sweep / job / "champion.json").is_file()
        assert (sweep / job / ".hydra" / "config.yaml").is_file()


def test_more_ray_workers_than_cpus_is_refused_instead_of_hanging(tmp_path):
    proc = evolve(tmp_path, "+experiment=smoke", "backend=ray", "ray.num_cpus=1", "ray.workers=2",
                  f"hydra.run.dir={tmp_path / 'run'}")
    assert proc.returncode != 0
    assert proc.stderr.strip() == (
        "error: ray.workers=2 must satisfy workers <= the Ray cluster's CPUs (1)")
