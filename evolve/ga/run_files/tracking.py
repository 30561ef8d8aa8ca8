"""``MlflowTracker`` (``tracking=mlflow``): a hook like those of ``evolve.ga.run_files.hooks`` that
  records the run in MLflow: the config as params at start, every generation's metrics with
  ``step=generation``, and at the end the champion file, the plot, the report if one was made,
  and the objective. MLflow is imported only when the tracker starts. Any error of the tracker
  logs one warning and turns tracking off for the rest of the run: it never stops a study.
  ``tracked_run(run_dir)`` reads a study's MLflow run back from anywhere.
"""

from __future__ import annotations

import json
import logging
import math
import os
import time
from pathlib import Path

from evolve.ga.configuration.config import config_hash, to_dict
from evolve.ga.run_files.objective import OBJECTIVE_FILE
from evolve.ga.run_files.resume import flatten

log = logging.getLogger("evolve")
TRACKING_FILE = "tracking.json"  # the MLflow run a resumed run continues
SCHEMA = 1  # of tracking.json
# files of the run directory logged as artifacts at the end, when they exist
END_FILES = ("generations.csv", "playoff.csv", "fitness.png", OBJECTIVE_FILE, "report.md")
SWEEP_TAG = "evolve.sweep_dir"
PARENT_TAG = "evolve.sweep_parent"


class MlflowTracker:
    """Records the study in one MLflow run (see the module docstring). Hooks:
    ``on_generation(report)`` and ``on_run_end(result)``."""

    def __init__(self, config, run_dir: Path):
        self.config, self.run_dir = config, run_dir
        self.client = self.run_id = self.parent_id = None
        self.on = True
        self._safely(self._start)

    def on_generation(self, r) -> None:
        self._safely(self._log_generation, r)

    def on_run_end(self, result) -> None:
        self._safely(self._log_end, result)

    def _safely(self, step, *args) -> None:
        if not self.on:
            return
        try:
            step(*args)
        except Exception as exc:  # noqa: BLE001 - tracking must never stop a study
            self.on = False
            lines = str(exc).strip().splitlines()
            log.warning("tracking: MLflow failed (%s%s); the study goes on without tracking",
                        type(exc).__name__, f": {lines[0]}" if lines else "")

    def _start(self) -> None:
        from mlflow.tracking import MlflowClient

        saved = _read_json(self.run_dir / TRACKING_FILE)
        uri = self.config.tracking.uri or saved.get("uri") or default_uri()
        allow_file_store(uri)
        self.client = MlflowClient(tracking_uri=uri)
        run = self._resumed_run(saved) if saved.get("uri") == uri else None
        run = run or self._new_run()
        self.run_id = run.info.run_id
        self.parent_id = run.data.tags.get("mlflow.parentRunId")
        tmp = self.run_dir / f".{TRACKING_FILE}.tmp"
        tmp.write_text(json.dumps({"schema": SCHEMA, "uri": uri, "run_id": self.run_id,
                                   "experiment_id": run.info.experiment_id}, indent=2) + "\n")
        tmp.replace(self.run_dir / TRACKING_FILE)
        self._log_params(run.data.params)
        log.info("tracking: MLflow run %s (experiment %s) at %s", self.run_id,
                 run.info.experiment_id, uri)

    def _resumed_run(self, saved: dict):
        """The run ``tracking.json`` names, set running again (None when it is gone)."""
        from mlflow.exceptions import MlflowException

        try:
            run = self.client.get_run(saved["run_id"])
        except (MlflowException, KeyError):
            return None
        self.client.update_run(run.info.run_id, status="RUNNING")
        return run

    def _new_run(self):
        job = hydra_job()
        experiment = self.config.tracking.experiment or job["experiment"] or "evolve"
        experiment_id = self._experiment_id(experiment)
        tags = {"evolve.run_dir": str(self.run_dir.resolve()),
                "evolve.game": self.config.game.name,
                "evolve.config_hash": config_hash(self.config)}
        if job["overrides"]:
            tags["evolve.overrides"] = _clipped(" ".join(job["overrides"]), 5000)
        if job["sweep_dir"]:
            tags[SWEEP_TAG] = job["sweep_dir"]
            parent = self._sweep_parent(experiment_id, job["sweep_dir"])
            if parent:
                tags["mlflow.parentRunId"] = parent
        name = f"{self.run_dir.parent.name}/{self.run_dir.name}"
        return self.client.create_run(experiment_id, run_name=name, tags=tags)

    def _experiment_id(self, name: str) -> str:
        from mlflow.exceptions import MlflowException

        found = self.client.get_experiment_by_name(name)
        if found is not None:
            return found.experiment_id
        try:
            return self.client.create_experiment(name)
        except MlflowException:  # created meanwhile by another job of a sweep
            found = self.client.get_experiment_by_name(name)
            if found is None:
                raise
            return found.experiment_id

    def _sweep_parent(self, experiment_id: str, sweep_dir: str) -> str | None:
        """The parent run of a multirun's jobs, found by its tag or made by the first job
        (None for a folder name a search filter cannot quote)."""
        if "'" in sweep_dir:
            return None
        found = self.client.search_runs([experiment_id], max_results=1,
                                        filter_string=f"tags.`{PARENT_TAG}` = '{sweep_dir}'")
        if found:
            return found[0].info.run_id
        parent = self.client.create_run(experiment_id, run_name=Path(sweep_dir).name,
                                        tags={PARENT_TAG: sweep_dir, SWEEP_TAG: sweep_dir})
        return parent.info.run_id

    def _log_params(self, existing: dict) -> None:
        """The flattened config (``ga.population``, ...); a resumed run keeps the values it
        logged first (MLflow refuses to change a param)."""
        from mlflow.entities import Param
        from mlflow.utils.validation import MAX_PARAM_VAL_LENGTH, MAX_PARAMS_TAGS_PER_BATCH

        params = [Param(key, _clipped(_text(value), MAX_PARAM_VAL_LENGTH))
                  for key, value in sorted(flatten(to_dict(self.config)).items())
                  if key not in existing]
        for i in range(0, len(params), MAX_PARAMS_TAGS_PER_BATCH):
            self.client.log_batch(self.run_id, params=params[i:i + MAX_PARAMS_TAGS_PER_BATCH])

    def _log_generation(self, r) -> None:
        """The generation's row of ``generations.csv``, as far as MLflow takes numbers."""
        fitness = r.standings.fitness
        scores = list(r.yardstick.values())
        metrics = {"best_fitness": fitness.max(), "mean_fitness": fitness.mean(),
                   "yardstick_score": sum(scores) / len(scores) if scores else math.nan,
                   "diversity": r.diversity, "games": len(r.games) + len(r.yardstick_games),
                   "wall_seconds": round(r.wall_seconds, 3), "elite_score": r.elite_score,
                   "hall_of_fame_score": r.hall_of_fame_score}
        if r.champion_elo is not None:
            elo = r.champion_elo
            metrics.update(champion_elo=elo.elo, champion_elo_low=elo.elo_low,
                           champion_elo_high=elo.elo_high)
        self._log_metrics(metrics, r.generation)

    def _log_metrics(self, metrics: dict, step: int) -> None:
        from mlflow.entities import Metric

        now = int(time.time() * 1000)
        batch = [Metric(key, float(value), now, int(step)) for key, value in metrics.items()
                 if not math.isnan(float(value))]  # NaN: nothing measured (no panel, no hall)
        if batch:
            self.client.log_batch(self.run_id, metrics=batch)

    def _log_end(self, result) -> None:
        for path in sorted(self.run_dir.glob("champion.*")) + sorted(
                self.run_dir.glob("report_*.png")):
            self.client.log_artifact(self.run_id, str(path))
        for name in END_FILES:
            if (self.run_dir / name).is_file():
                self.client.log_artifact(self.run_id, str(self.run_dir / name))
        if result.objective is not None:
            self._log_metrics({"objective": result.objective.value}, result.generation)
        self.client.set_terminated(self.run_id, "FINISHED")
        if self.parent_id:  # the sweep's parent ends with its last job (each job marks it)
            self.client.set_terminated(self.parent_id, "FINISHED")


def allow_file_store(uri: str) -> None:
    """Recent MLflow refuses its local file store (a ``file:`` or plain-path URI) unless
    ``MLFLOW_ALLOW_FILE_STORE=true``: set it for this process when the URI is one (an explicit
    value is left alone)."""
    if "://" not in uri or uri.startswith("file:"):
        os.environ.setdefault("MLFLOW_ALLOW_FILE_STORE", "true")


def tracked_run(run_dir):
    """``(client, run)``: the MLflow run a study recorded, read back through the run folder's
    ``tracking.json`` (from a plain shell too: the file-store switch is set where needed).
    ``ValueError`` when the folder holds no tracked run."""
    from mlflow.tracking import MlflowClient

    saved = _read_json(Path(run_dir) / TRACKING_FILE)
    if "uri" not in saved or "run_id" not in saved:
        raise ValueError(f"{run_dir}: no {TRACKING_FILE} (the run was not started with "
                         "tracking=mlflow)")
    allow_file_store(saved["uri"])
    client = MlflowClient(tracking_uri=saved["uri"])
    return client, client.get_run(saved["run_id"])


def default_uri() -> str:
    """``$MLFLOW_TRACKING_URI``, else ``mlruns/`` in the folder the command started in (Hydra
    may change the working directory to the run's, ``hydra.job.chdir``)."""
    if os.environ.get("MLFLOW_TRACKING_URI"):
        return os.environ["MLFLOW_TRACKING_URI"]
    return (Path(hydra_job()["cwd"]) / "mlruns").resolve().as_uri()


def hydra_job() -> dict:
    """What Hydra says about this job: the ``+experiment`` name, the multirun's sweep folder
    (absolute; None for a single run), the command line's overrides, the original working
    directory. Outside ``@hydra.main``: none of them, and the current directory."""
    try:
        from hydra.core.hydra_config import HydraConfig
        from hydra.types import RunMode
        from hydra.utils import get_original_cwd

        h = HydraConfig.get()
        cwd = get_original_cwd()
    except (ImportError, ValueError):
        return {"experiment": None, "sweep_dir": None, "overrides": [], "cwd": os.getcwd()}
    sweep = None
    if h.mode == RunMode.MULTIRUN and h.sweep.dir:
        sweep = str((Path(cwd) / h.sweep.dir).resolve())
    return {"experiment": h.runtime.choices.get("experiment"), "sweep_dir": sweep,
            "overrides": list(h.overrides.task), "cwd": cwd}


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _text(value) -> str:
    return "null" if value is None else json.dumps(value) if isinstance(value, list | dict) \
        else str(value)


def _clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
