"""``hydra/sweeper=optuna``: each Optuna trial is one Hydra job, whose return value Optuna sees.
(Hydra instantiates it as ``hydra_plugins.board_evolve_optuna.optuna_sweeper.OptunaSweeper``,
``evolve/plugins/``: Hydra takes plugins from that namespace only.)

The loop is Optuna's ask/tell: ask ``n_jobs`` trials, launch them as one batch with Hydra's
launcher (each in its own folder under the sweep folder), tell Optuna what each returned, and
rewrite ``optimization_results.yaml`` and ``trials.csv`` in the sweep folder. A trial that
raises, exits, or returns no finite number is told as failed and the sweep goes on.
"""

# No ``from __future__ import annotations`` here: Hydra's plugin scanner imports the plugin module
# before it is in sys.modules, where a dataclass with string annotations looks itself up.
import logging
import math
import numbers
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hydra.core.config_store import ConfigStore
from hydra.core.utils import JobReturn, JobStatus
from hydra.plugins.sweeper import Sweeper
from hydra.types import HydraContext, TaskFunction
from omegaconf import DictConfig, OmegaConf

log = logging.getLogger(__name__)

SAMPLERS = ("tpe", "random")
DIRECTIONS = ("maximize", "minimize")


@dataclass
class OptunaSweeperConf:
    _target_: str = "hydra_plugins.board_evolve_optuna.optuna_sweeper.OptunaSweeper"
    sampler: str = "tpe"          # tpe | random
    seed: int = 0                 # the sampler's seed: the same seed, the same suggestions
    n_startup_trials: int = 10    # tpe: random trials before it models the results
    direction: str = "maximize"   # maximize | minimize what the task function returns
    n_trials: int = 20
    n_jobs: int = 1               # trials per batch handed to the launcher
    study_name: str | None = None
    storage: str | None = None    # an Optuna RDB URL (sqlite:///tune.db): keep or continue a study
    params: dict[str, Any] | None = None  # config key -> search space (evolve.sweep.search_space)


@contextmanager
def one_ray_for_every_trial(config: DictConfig):
    """With ``backend=ray`` and Hydra's basic launcher (trials one after another in this
    process), Ray starts once for the sweep: each trial's backend finds it running and leaves it
    up (a backend shuts down only a Ray it started), so no trial pays Ray's start. Results are
    unchanged: a study's champion does not depend on its Ray (docs/ray.md)."""
    launcher = str(OmegaConf.select(config, "hydra.launcher._target_", default=""))
    if OmegaConf.select(config, "backend") != "ray" or not launcher.endswith("BasicLauncher"):
        yield
        return
    import ray

    from evolve.execution.cluster import init_ray

    started = not ray.is_initialized()
    if started:
        init_ray(ray, config.ray)
    try:
        yield
    finally:
        if started:
            ray.shutdown()


def register() -> None:
    """Make ``hydra/sweeper=optuna`` a config Hydra can compose."""
    ConfigStore.instance().store(group="hydra/sweeper", name="optuna", node=OptunaSweeperConf,
                                 provider="board_evolve_optuna")


class EvolveOptunaSweeper(Sweeper):
    def __init__(self, sampler: str, seed: int, n_startup_trials: int, direction: str,
                 n_trials: int, n_jobs: int, study_name: str | None, storage: str | None,
                 params: DictConfig | dict | None) -> None:
        self.sampler, self.seed, self.n_startup_trials = sampler, seed, n_startup_trials
        self.direction, self.n_trials, self.n_jobs = direction, n_trials, n_jobs
        self.study_name, self.storage = study_name, storage
        self.params = OmegaConf.to_container(params) if OmegaConf.is_config(params) else params
        self.hydra_context: HydraContext | None = None
        self.config: DictConfig | None = None
        self.launcher = None

    def setup(self, *, hydra_context: HydraContext, task_function: TaskFunction,
              config: DictConfig) -> None:
        from hydra.core.plugins import Plugins

        self.hydra_context, self.config = hydra_context, config
        self.launcher = Plugins.instance().instantiate_launcher(
            hydra_context=hydra_context, task_function=task_function, config=config)

    def sweep(self, arguments: list[str]) -> list[list[JobReturn | None]]:
        import optuna

        from evolve.sweep.search_space import SearchSpaceError, search_space

        assert self.config is not None and self.launcher is not None
        self._check_settings()
        try:
            space = search_space(self.params, arguments, self.config)
        except SearchSpaceError as exc:
            _fail(str(exc))
        if not space.dimensions:
            _fail("nothing to search: hydra.sweeper.params has no search space and the command "
                  "line no sweep")
        self._warn_if_the_objective_points_the_other_way()
        sweep_dir = Path(self.config.hydra.sweep.dir)
        sweep_dir.mkdir(parents=True, exist_ok=True)
        OmegaConf.save(self.config, sweep_dir / "multirun.yaml")
        study = optuna.create_study(study_name=self.study_name, storage=self.storage,
                                    direction=self.direction, load_if_exists=True)
        # a study continued from storage: a seed moved by its trials, so as not to repeat them
        study.sampler = self._make_sampler(self.seed + len(study.trials))
        distributions, returns, done = space.distributions(), [], 0
        with one_ray_for_every_trial(self.config):
            while done < self.n_trials:
                done = self._batch(study, space, distributions, done, returns, sweep_dir)
        _log_best(study, sweep_dir)
        return returns

    def _batch(self, study, space, distributions, done: int, returns: list,
               sweep_dir: Path) -> int:
        """Ask for the next batch of trials, run it, tell Optuna; returns the trials done."""
        from evolve.sweep.results import write_results

        trials = [study.ask(distributions)
                  for _ in range(min(self.n_jobs, self.n_trials - done))]
        batch = [space.overrides(trial.params) for trial in trials]
        self.validate_batch_is_legal(batch)
        results = self._launch(batch, done)
        for trial, result in zip(trials, results, strict=True):
            _tell(study, trial, result)
        returns.append(results)
        done += len(trials)
        write_results(study, sweep_dir, self.direction)
        return done

    def _launch(self, batch: list[list[str]], first_job: int) -> list[JobReturn | None]:
        """The batch's job returns; ``None`` for jobs lost to an exit (``SystemExit``), which
        Hydra's launcher does not catch (only exceptions): with ``n_jobs > 1`` the whole batch."""
        from hydra.core.utils import configure_log

        exit_code = None
        try:
            results = list(self.launcher.launch(batch, initial_job_idx=first_job))
        except SystemExit as exc:
            results, exit_code = [None] * len(batch), exc.code
        # the last job's logging config writes to its own log file: back to Hydra's console
        configure_log(self.config.hydra.hydra_logging, self.config.hydra.verbose)
        if exit_code is not None:
            log.warning("optuna: job(s) #%d-#%d exited (code %s): counted as failed",
                        first_job, first_job + len(batch) - 1, exit_code)
        return results

    def _make_sampler(self, seed: int):
        from optuna.samplers import RandomSampler, TPESampler

        if self.sampler == "random":
            return RandomSampler(seed=seed)
        return TPESampler(seed=seed, n_startup_trials=self.n_startup_trials)

    def _check_settings(self) -> None:
        for name, value, allowed in (("sampler", self.sampler, SAMPLERS),
                                     ("direction", self.direction, DIRECTIONS)):
            if value not in allowed:
                _fail(f"hydra.sweeper.{name}={value} must be one of: {', '.join(allowed)}")
        for name, value, low in (("n_trials", self.n_trials, 1), ("n_jobs", self.n_jobs, 1),
                                 ("n_startup_trials", self.n_startup_trials, 0)):
            if value < low:
                _fail(f"hydra.sweeper.{name}={value} must be >= {low}")

    def _warn_if_the_objective_points_the_other_way(self) -> None:
        """``objective.direction`` (the task's own word on its return value) against ours."""
        task_direction = OmegaConf.select(self.config, "objective.direction")
        if task_direction in DIRECTIONS and task_direction != self.direction:
            log.warning("optuna: hydra.sweeper.direction=%s but objective.direction=%s",
                        self.direction, task_direction)


def _fail(message: str):
    """A bad sweep setting in one line, as ``python -m evolve`` reports a bad value (Hydra would
    add a line about stack traces after an exception's message)."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2) from None


def _tell(study, trial, result: JobReturn | None) -> None:
    from optuna.trial import TrialState

    if result is not None:
        trial.set_user_attr("job_dir", str(result.hydra_cfg.hydra.runtime.output_dir))
    value, failure = _outcome(result)
    if failure is None:
        study.tell(trial, value)
        best = study.best_trial
        log.info("optuna: trial %d returned %.6g (best so far: %.6g, trial %d)",
                 trial.number, value, best.value, best.number)
        return
    trial.set_user_attr("failure", failure)
    log.warning("optuna: trial %d failed (%s)", trial.number, failure)
    study.tell(trial, state=TrialState.FAIL)


def _outcome(result: JobReturn | None) -> tuple[float | None, str | None]:
    """The trial's value, or why it failed."""
    if result is None:
        return None, "its job exited"
    if result.status != JobStatus.COMPLETED:
        exc = result._return_value  # return_value would re-raise it
        return None, f"{type(exc).__name__}: {exc}"
    value = result.return_value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None, f"returned {value!r}, not a number"
    if not math.isfinite(value):
        return None, f"returned {value}, not a finite number"
    return float(value), None


def _log_best(study, sweep_dir: Path) -> None:
    from optuna.trial import TrialState

    where = sweep_dir / "optimization_results.yaml"
    if not study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        log.warning("optuna: no trial completed; %s lists the failures", where)
        return
    best = study.best_trial
    params = " ".join(f"{k}={v}" for k, v in best.params.items())
    log.info("optuna: best value %.6g, trial %d (%s): %s; %s", best.value, best.number,
             best.user_attrs.get("job_dir", "?"), params, where)
