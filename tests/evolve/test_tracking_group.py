"""``tracking=mlflow`` is a Hydra config group (conf/tracking/), as ``hydra/sweeper=optuna``
is; ``tracking.backend=`` and the other keys stay overridable; a tracked run reads back from a
plain shell (``evolve.ga.run_files.tracking.tracked_run`` sets MLflow's file-store switch
itself)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

from evolve.ga.configuration.config import to_config

ROOT = Path(__file__).resolve().parents[2]


def tracking(*overrides):
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return to_config(compose("config", overrides=list(overrides))).tracking


def test_tracking_mlflow_selects_the_group_option_and_its_keys_stay_overridable():
    assert tracking().backend == "none"
    assert tracking("tracking=mlflow").backend == "mlflow"
    chosen = tracking("tracking=mlflow", "tracking.uri=file:/tmp/x", "tracking.experiment=e")
    assert (chosen.backend, chosen.uri, chosen.experiment) == ("mlflow", "file:/tmp/x", "e")


def test_the_backend_key_still_works_alone_and_over_the_group():
    assert tracking("tracking.backend=mlflow").backend == "mlflow"
    assert tracking("tracking=mlflow", "tracking.backend=none").backend == "none"


def test_an_unknown_tracking_option_is_refused_in_one_line(capsys):
    from evolve.__main__ import check_overrides

    with pytest.raises(SystemExit):
        check_overrides(["tracking=wandb"])
    assert capsys.readouterr().err == "error: tracking=wandb must be one of: mlflow, none\n"


def test_a_tracked_run_reads_back_from_a_plain_shell(tmp_path, monkeypatch):
    """The documented read-back, in a process without MLFLOW_ALLOW_FILE_STORE."""
    pytest.importorskip("mlflow")
    from mlflow.tracking import MlflowClient

    store = (tmp_path / "mlruns").as_uri()
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # only to make the store here
    client = MlflowClient(store)
    run = client.create_run(client.create_experiment("smoke"))
    client.log_metric(run.info.run_id, "champion_elo", 42.0, step=1)
    run_dir = tmp_path / "outputs" / "run"
    run_dir.mkdir(parents=True)
    (run_dir / "tracking.json").write_text(json.dumps({"schema": 1, "uri": store,
                                                       "run_id": run.info.run_id}))
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_ALLOW_FILE_STORE"}
    shell = subprocess.run(
        [sys.executable, "-c", "from evolve.ga.run_files.tracking import tracked_run; "
         f"client, run = tracked_run({str(run_dir)!r}); print(run.data.metrics)"],
        env=env, capture_output=True, text=True, timeout=120)
    assert shell.returncode == 0, shell.stderr[-2000:]
    assert shell.stdout.strip() == "{'champion_elo': 42.0}"


def test_a_folder_without_a_tracked_run_says_so(tmp_path):
    pytest.importorskip("mlflow")
    from evolve.ga.run_files.tracking import tracked_run

    with pytest.raises(ValueError, match="no tracking.json .the run was not started with "
                                         "tracking=mlflow."):
        tracked_run(tmp_path)
