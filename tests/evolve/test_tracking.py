"""A study's objective (what ``python -m evolve`` returns to a sweeper, ``objective.json``) and
its MLflow tracking (``tracking.backend=mlflow``): every generation logged as generations.csv
has it, a resumed run continues its MLflow run, a failing tracker never stops the study, and
with tracking off MLflow is never imported."""

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from evolve.ga.configuration.config import ConfigError, config_hash, to_config
from evolve.ga.loop import run

ROOT = Path(__file__).resolve().parents[2]
CONF = str(ROOT / "conf")


def smoke_config(*overrides):
    with initialize_config_dir(config_dir=CONF, version_base="1.3"):
        return compose("config", overrides=["+experiment=smoke", "progress=false", *overrides])


def tracked(store: Path, *overrides):
    return smoke_config("tracking.backend=mlflow", f"tracking.uri=file:{store}",
                        "tracking.experiment=tracking-test", *overrides)


def client(store: Path):
    from mlflow.tracking import MlflowClient

    return MlflowClient(f"file:{store}")


@pytest.fixture(scope="module")
def tracked_run(tmp_path_factory):
    """A tracked smoke study of 2 generations, then resumed to 3 (the same MLflow run)."""
    pytest.importorskip("mlflow")
    tmp = tmp_path_factory.mktemp("tracked")
    store, run_dir = tmp / "mlruns", tmp / "run"
    with pytest.MonkeyPatch.context() as mp:  # MLflow 3.x's local file store needs the opt-out
        mp.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
        run(tracked(store), run_dir=run_dir)
        first = json.loads((run_dir / "tracking.json").read_text())["run_id"]
        result = run(tracked(store, f"resume={run_dir}", "ga.generations=3"))
    return result, store, first


@pytest.fixture
def file_store(monkeypatch):
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")


def test_every_generation_is_logged_with_the_values_of_generations_csv(tracked_run, file_store):
    result, store, _ = tracked_run
    run_id = json.loads((result.run_dir / "tracking.json").read_text())["run_id"]
    rows = pd.read_csv(result.run_dir / "generations.csv")
    for metric in ("champion_elo", "champion_elo_low", "best_fitness", "diversity"):
        history = sorted(client(store).get_metric_history(run_id, metric), key=lambda m: m.step)
        assert [m.step for m in history] == [0, 1, 2], metric
        assert [m.value for m in history] == rows[metric].tolist(), metric


def test_the_config_is_logged_as_params_and_the_outputs_as_artifacts(tracked_run, file_store):
    result, store, _ = tracked_run
    run_id = json.loads((result.run_dir / "tracking.json").read_text())["run_id"]
    mlflow_run = client(store).get_run(run_id)
    params = mlflow_run.data.params
    assert (params["ga.population"], params["search.depth"], params["tracking.backend"]) == \
        ("4", "1", "mlflow")
    assert params["yardstick.panel"] == "null" and params["game.genome.phases"] == "2"
    artifacts = {a.path for a in client(store).list_artifacts(run_id)}
    assert {"champion.json", "fitness.png", "generations.csv", "objective.json"} <= artifacts
    assert mlflow_run.data.metrics["objective"] == result.objective.value
    assert mlflow_run.info.status == "FINISHED"


def test_a_resumed_run_continues_its_mlflow_run(tracked_run, file_store):
    result, store, first = tracked_run
    assert json.loads((result.run_dir / "tracking.json").read_text())["run_id"] == first
    experiment = client(store).get_experiment_by_name("tracking-test")
    assert [r.info.run_id for r in client(store).search_runs([experiment.experiment_id])] == \
        [first]


def test_the_objective_is_the_exported_champions_elo_against_the_panel(tracked_run):
    result = tracked_run[0]
    saved = json.loads((result.run_dir / "objective.json").read_text())
    chosen = json.loads((result.run_dir / "champion.json").read_text())["metadata"]["selection"]
    rows = pd.read_csv(result.run_dir / "generations.csv").set_index("generation")
    assert saved == {"schema": 1, "metric": "champion_elo", "value": result.objective.value,
                     "direction": "maximize", "generation": chosen["generation"]}
    assert result.objective.value == rows.loc[chosen["generation"], "champion_elo"]


def test_the_main_task_returns_the_last_champions_elo_without_a_playoff(tmp_path, monkeypatch):
    from evolve.__main__ import main

    monkeypatch.chdir(tmp_path)  # outside Hydra's job the run directory is the current one
    value = main(smoke_config("playoff.enabled=false", "plot=false"))
    last = pd.read_csv(tmp_path / "generations.csv")["champion_elo"].iloc[-1]
    assert value == last
    assert json.loads((tmp_path / "objective.json").read_text())["value"] == last


def test_another_objective_metric_reads_its_column(tmp_path):
    result = run(smoke_config("playoff.enabled=false", "plot=false",
                              "objective.metric=best_fitness", "objective.direction=minimize"),
                 run_dir=tmp_path)
    saved = json.loads((tmp_path / "objective.json").read_text())
    assert (saved["metric"], saved["direction"], saved["generation"]) == \
        ("best_fitness", "minimize", 1)
    assert saved["value"] == pd.read_csv(tmp_path / "generations.csv")["best_fitness"].iloc[-1]
    assert result.objective.value == saved["value"]


@pytest.mark.parametrize("override, message", [
    ("objective.metric=elo", "objective.metric=elo must be one of: champion_elo, "
                             "champion_elo_low, best_fitness, yardstick_score"),
    ("objective.direction=up", "objective.direction=up must be one of: maximize, minimize"),
    ("tracking.backend=wandb", "tracking.backend=wandb must be one of: none, mlflow"),
])
def test_bad_objective_and_tracking_values_are_refused_with_one_line(override, message):
    with pytest.raises(ConfigError) as err:
        to_config(smoke_config(override))
    assert str(err.value) == message


def test_tracking_without_mlflow_installed_is_refused_at_start(monkeypatch):
    monkeypatch.setitem(sys.modules, "mlflow", None)  # find_spec then says: not installed
    with pytest.raises(ConfigError, match=r"^tracking.backend=mlflow needs MLflow's client"):
        to_config(smoke_config("tracking.backend=mlflow"))


def test_a_bad_objective_metric_on_the_command_line_exits_with_one_line(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT),
                                                        os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "evolve", "+experiment=smoke",
                           "objective.metric=elo", f"hydra.run.dir={tmp_path / 'run'}"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("error: objective.metric=elo must be one of: champion_elo, "
                                   "champion_elo_low, best_fitness, yardstick_score")
    assert not (tmp_path / "run").exists()


def test_objective_and_tracking_leave_the_config_hash_alone():
    base = config_hash(to_config(smoke_config()))
    assert base == config_hash(to_config(smoke_config(
        "objective.metric=best_fitness", "tracking.backend=mlflow", "tracking.uri=file:/x")))


@pytest.mark.parametrize("fail_in", ["create_run", "log_batch"])
def test_a_failing_tracker_warns_once_and_the_study_finishes(tmp_path, monkeypatch, caplog,
                                                             file_store, fail_in):
    mlflow_client = pytest.importorskip("mlflow.tracking").MlflowClient
    original = getattr(mlflow_client, fail_in)

    def failing(self, *args, **kwargs):
        if fail_in == "log_batch" and not kwargs.get("metrics"):
            return original(self, *args, **kwargs)  # the params at start go through
        raise RuntimeError("the tracking server is gone")

    monkeypatch.setattr(mlflow_client, fail_in, failing)
    caplog.set_level(logging.WARNING, logger="evolve")
    result = run(tracked(tmp_path / "mlruns", "plot=false", "ga.generations=3"),
                 run_dir=tmp_path / "run")
    warnings = [r.getMessage() for r in caplog.records if "tracking" in r.getMessage()]
    assert warnings == ["tracking: MLflow failed (RuntimeError: the tracking server is gone); "
                        "the study goes on without tracking"]
    assert len(pd.read_csv(tmp_path / "run" / "generations.csv")) == 3
    assert (tmp_path / "run" / "objective.json").is_file() and result.objective is not None


def test_a_study_without_tracking_never_imports_mlflow(tmp_path):
    script = (
        "import sys\n"
        "from hydra import compose, initialize_config_dir\n"
        "from evolve.ga.loop import run\n"
        f"with initialize_config_dir(config_dir={CONF!r}, version_base='1.3'):\n"
        "    cfg = compose('config', overrides=['+experiment=smoke', 'plot=false',\n"
        "                                       'progress=false', 'ga.generations=1'])\n"
        f"run(cfg, run_dir={str(tmp_path / 'run')!r})\n"
        "print('mlflow imported:', 'mlflow' in sys.modules)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT),
                                                        os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "mlflow imported: False"
    assert (tmp_path / "run" / "objective.json").is_file()
