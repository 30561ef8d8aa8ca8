"""Same seed, same result: serial == Ray with 1 worker == Ray with 2 workers (even when a worker
dies mid-generation), and a run killed at any moment then resumed ends exactly like an
uninterrupted one."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from evolve.execution.backends import SerialBackend
from evolve.ga.configuration.config import ConfigError, to_config
from evolve.ga.loop import run, study_backend
from evolve.ga.run_files import checkpoint

ROOT = Path(__file__).resolve().parents[3]
# depth 3 and an exact endgame from 8 empties: the transposition table (used from depth 2) and
# the exact solver both play a part in every game, so their results must be reproducible too
TINY = ["+experiment=smoke", "search.depth=3", "search.endgame_empties=8", "ga.population=5",
        "ga.generations=3", "ga.elites=1", "plot=false", "progress=false", "games.openings=2"]


def config(*overrides):
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return compose("config", overrides=[*TINY, *overrides])


def tables(run_dir: Path) -> dict:
    out = {name: pd.read_csv(run_dir / name).drop(columns=["wall_seconds"], errors="ignore")
           for name in ("generations.csv", "individuals.csv", "games.csv", "yardstick_games.csv")}
    champion = json.loads((run_dir / "champion.json").read_text())
    champion["metadata"]["provenance"].pop("run_dir")
    out["champion"] = champion
    return out


def assert_same_run(a: Path, b: Path) -> None:
    ta, tb = tables(a), tables(b)
    for name in ("generations.csv", "individuals.csv", "games.csv", "yardstick_games.csv"):
        pd.testing.assert_frame_equal(ta[name], tb[name], check_exact=True)
    assert ta["champion"] == tb["champion"]


@pytest.fixture(scope="module")
def serial_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("serial")
    run(config(), run_dir=d)
    return d


@pytest.mark.parametrize("workers", [1, 2])
def test_ray_matches_serial_bit_for_bit(serial_run, ray_session, tmp_path, workers):
    cfg = config("backend=ray", f"ray.workers={workers}")
    run(cfg, run_dir=tmp_path)
    assert_same_run(serial_run, tmp_path)


def test_a_worker_dying_mid_generation_loses_and_duplicates_nothing(serial_run, ray_session,
                                                                    tmp_path):
    flag = tmp_path / "crash-once"
    flag.touch()
    cfg = to_config(config("backend=ray", "ray.workers=2"))
    backend = study_backend(cfg, crash_flag=str(flag))
    run(cfg, run_dir=tmp_path / "run", backend=backend)
    assert not flag.exists()  # the crash did happen
    assert_same_run(serial_run, tmp_path / "run")


class Interrupted(Exception):
    pass


class FlakyBackend(SerialBackend):
    """Dies on its ``fail_at``-th batch, in the middle of a generation."""

    def __init__(self, fail_at: int):
        super().__init__()
        self.calls, self.fail_at = 0, fail_at

    def wait(self, future):
        self.calls += 1
        if self.calls == self.fail_at:
            raise Interrupted
        return super().wait(future)


# waits: 1 = generation 0's round robin (before the first checkpoint), 2 = generation 1's round
# robin, 3 = generation 0's yardstick, 4 = generation 2's round robin, 5 and 6 = the yardsticks
# of generations 1 and 2, 7 = the final playoff (every generation is checkpointed by then)
@pytest.mark.parametrize("fail_at", [1, 2, 3, 4, 5, 6, 7])
def test_resume_after_a_crash_mid_generation_equals_the_uninterrupted_run(serial_run, tmp_path,
                                                                           fail_at):
    with pytest.raises(Interrupted):
        run(config(), run_dir=tmp_path, backend=FlakyBackend(fail_at))
    if not (tmp_path / "checkpoint" / "checkpoint.json").exists():  # died before any checkpoint
        run(config(), run_dir=tmp_path)
    else:
        run(config(f"resume={tmp_path}"))
    assert_same_run(serial_run, tmp_path)


def test_resume_after_dying_between_the_csv_rows_and_the_checkpoint(serial_run, tmp_path,
                                                                    monkeypatch):
    real_save, calls = checkpoint.save, []

    def save_then_die(run_dir, ck):
        calls.append(ck.generation)
        if ck.generation == 1:
            raise Interrupted  # generation 1 is in the CSVs but not checkpointed
        return real_save(run_dir, ck)

    monkeypatch.setattr(checkpoint, "save", save_then_die)
    with pytest.raises(Interrupted):
        run(config(), run_dir=tmp_path)
    monkeypatch.setattr(checkpoint, "save", real_save)
    assert checkpoint.load(tmp_path).generation == 0
    run(config(f"resume={tmp_path}"))
    assert_same_run(serial_run, tmp_path)


def kill_at_the_first_checkpoint(proc: subprocess.Popen, run_dir: Path, last: int) -> int:
    """SIGKILL ``proc`` as soon as its first checkpoint exists; assert that the kill came mid-run
    (the process was still running and generations after the checkpoint were still to play),
    so a run that had already finished cannot pass a kill test. Returns the saved generation."""
    state = run_dir / "checkpoint" / "checkpoint.json"
    deadline = time.monotonic() + 300
    while not state.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, "the run ended before the kill"
    saved = checkpoint.load(run_dir).generation
    assert saved < last, f"killed after the last generation ({saved}) was checkpointed"
    return saved


def test_kill_9_then_resume_from_the_command_line(serial_run, tmp_path):
    run_dir = tmp_path / "killed"
    cmd = [sys.executable, "-m", "evolve", *TINY, f"hydra.run.dir={run_dir}"]
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    kill_at_the_first_checkpoint(proc, run_dir, last=2)
    resumed = subprocess.run([sys.executable, "-m", "evolve", f"resume={run_dir}",
                              f"hydra.run.dir={tmp_path / 'resume-log'}"],
                             cwd=tmp_path, env=env, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert_same_run(serial_run, run_dir)


def test_resume_drops_a_csv_row_cut_short_by_a_kill(serial_run, tmp_path, monkeypatch):
    real_save = checkpoint.save

    def save_then_die(run_dir, ck):
        if ck.generation == 1:
            with open(Path(run_dir) / "individuals.csv", "a") as f:
                # a kill in the middle of a row (e.g. of generation 10, cut after "1"): the
                # generation field alone cannot tell it apart from complete rows
                f.write("0,3")
            raise Interrupted
        return real_save(run_dir, ck)

    monkeypatch.setattr(checkpoint, "save", save_then_die)
    with pytest.raises(Interrupted):
        run(config(), run_dir=tmp_path)
    monkeypatch.setattr(checkpoint, "save", real_save)
    run(config(f"resume={tmp_path}"))
    assert_same_run(serial_run, tmp_path)


def test_a_finished_run_resumed_with_more_generations_equals_the_longer_run(serial_run, tmp_path):
    run(config("ga.generations=1"), run_dir=tmp_path)
    run(config("ga.generations=2", f"resume={tmp_path}"))
    assert checkpoint.load(tmp_path).generation == 1
    run(config(f"resume={tmp_path}"))  # ga.generations=3, as in TINY
    assert_same_run(serial_run, tmp_path)
    for g in range(3):  # every champion's provenance too (the hash ignores ga.generations)
        name = f"champions/gen_{g:04d}.json"
        mine, theirs = (json.loads((d / name).read_text()) for d in (tmp_path, serial_run))
        for champion in (mine, theirs):
            champion["metadata"]["provenance"].pop("run_dir")
        assert mine == theirs


@pytest.mark.parametrize("override, message", [
    ("search.depth=2", "search.depth=2 (saved: 3)"),
    ("seed=5", "seed=5 (saved: 0)"),
    ("ga.generations=1", "ga.generations=1 (saved: 2)"),  # may grow, not shrink
    ("game.genome.phase_bounds=[30]", "game.genome.phase_bounds=[30] (saved: null)"),
])
def test_resume_refuses_overrides_that_would_change_the_result(tmp_path, override, message):
    run(config("ga.generations=2"), run_dir=tmp_path)
    with pytest.raises(ConfigError) as err:
        run(config("ga.generations=2", override, f"resume={tmp_path}"))
    text = str(err.value)
    assert text.startswith(f"resume={tmp_path}: the command line changes the saved run's ")
    assert message in text and "\n" not in text
    key, _, saved = message.partition(" (saved: ")
    assert text.endswith(f"(to continue the saved run as it was, add: {key.split('=')[0]}="
                         f"{saved[:-1]})")
