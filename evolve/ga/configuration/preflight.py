"""Before Hydra starts a job (and creates its output folder): compose the config the command line
asks for, say in one line what will run and where its outputs go, and check every value, so a
bad value stops the command with one line and leaves no folder behind.

The output folder is fixed here (``hydra.run.dir``, or ``hydra.sweep.dir`` for ``-m``) and handed
to Hydra, so the folder the first line names is the one the run writes to; a single run's config,
resolved here, is handed to the run too, so its game is built once.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass, field
from pathlib import Path

from evolve.errors import ConfigError


@dataclass(frozen=True)
class Checked:
    """What ``preflight`` hands on: the overrides that fix the output folder (to append to
    Hydra's command line) and, for a single run, its config resolved (a resume: the resumed
    run's), for the run to take instead of resolving it again (``None``: a multirun, or a
    command left to Hydra)."""

    overrides: list[str] = field(default_factory=list)
    resolved: object = None  # evolve.ga.configuration.config.ResolvedConfig

# command-line flags after which a command runs no study (Hydra's own options)
NO_STUDY = ("--help", "-h", "--hydra-help", "--info", "-i", "--cfg", "-c", "--resolve",
            "--shell-completion", "-sc", "--version")


def preflight(args: list[str], conf_dir: Path, out=None) -> Checked:
    """Print the first line, validate every job, and return what the run takes on
    (``Checked``). Raises ``ConfigError``. Anything it cannot compose is left to Hydra, whose
    message is then the one the user sees."""
    if any(a.split("=")[0] in NO_STUDY for a in args):
        return Checked()
    multirun = "-m" in args or "--multirun" in args
    overrides = [a for a in args if "=" in a and not a.startswith("-")]
    try:
        optuna = multirun and _optuna_sweep(conf_dir, overrides)
        # an Optuna sweep: its trials' values are the sweeper's; the rest is checked once
        jobs = [optuna] if optuna else _jobs(overrides) if multirun else [overrides]
        configs = [_compose(conf_dir, job) for job in jobs]
    except ConfigError:
        raise
    except Exception:  # noqa: BLE001 - a malformed override or a sweep Hydra expands itself
        return Checked()
    key = "hydra.sweep.dir" if multirun else "hydra.run.dir"
    where = str(_select(configs[0], key))
    first = _optuna_line(configs[0], where) if optuna else \
        _first_line(configs, jobs, where, multirun)
    print(first, file=out or sys.stdout, flush=True)  # the stdout of the call, not of the import
    resolved = [_validate(cfg, job, conf_dir) for cfg, job in zip(configs, jobs, strict=True)]
    fixed = [] if any(o.startswith(f"{key}=") for o in overrides) else [f"{key}={where}"]
    return Checked(fixed, None if multirun else resolved[0])


def _jobs(overrides: list[str]) -> list[list[str]]:
    """The jobs of a multirun: every combination of the sweeps' values (``a=1,2 b=3,4``)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parsed = OverridesParser.create().parse_overrides(overrides)
    choices = []
    for text, o in zip(overrides, parsed, strict=True):
        if o.is_sweep_override():
            prefix = text.split("=", 1)[0]
            choices.append([f"{prefix}={v}" for v in o.sweep_string_iterator()])
        else:
            choices.append([text])
    return [list(job) for job in itertools.product(*choices)]


def _optuna_sweep(conf_dir: Path, overrides: list[str]) -> list[str] | None:
    """The overrides that are not sweeps, when the multirun is an Optuna sweep (None if not)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parsed = OverridesParser.create().parse_overrides(overrides)
    fixed = [text for text, o in zip(overrides, parsed, strict=True)
             if not o.is_sweep_override()]
    sweeper = _select(_compose(conf_dir, fixed), "hydra.runtime.choices.hydra/sweeper")
    return fixed if sweeper == "optuna" else None


def _optuna_line(cfg, where: str) -> str:
    sweeper = cfg.hydra.sweeper
    n = int(sweeper.n_trials)
    return (f"evolve: an Optuna sweep, {n} trial{'s' * (n != 1)} ({sweeper.sampler}, "
            f"seed {sweeper.seed}, "
            f"{sweeper.direction} objective.metric={cfg.objective.metric}), {sweeper.n_jobs} "
            f"at a time; outputs in {where}/0 ... {where}/{n - 1} and {where}/"
            "optimization_results.yaml")


def _compose(conf_dir: Path, overrides: list[str]):
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(conf_dir), version_base="1.3"):
        return compose("config", overrides=overrides, return_hydra_config=True)


def _select(cfg, key: str):
    from omegaconf import OmegaConf

    return OmegaConf.select(cfg, key)


def _first_line(configs, jobs, where: str, multirun: bool) -> str:
    from evolve.ga.console import announce

    if multirun:
        return (f"evolve: {len(jobs)} jobs (multirun), one after the other; outputs in "
                f"{where}/0 ... {where}/{len(jobs) - 1}")
    cfg = configs[0]
    if cfg.resume:
        return f"evolve: resuming {cfg.resume} (this session's log: {where}/evolve.log)"
    experiment = _select(cfg, "hydra.runtime.choices.experiment")
    return announce(_quick_config(cfg), where, experiment)


def _quick_config(cfg):
    """The few values the first line names, without validating (that imports the games)."""
    from types import SimpleNamespace as NS

    return NS(backend=cfg.backend, ray=NS(address=cfg.ray.address),
              game=NS(name=cfg.game.name), ga=NS(population=cfg.ga.population,
                                                generations=cfg.ga.generations),
              search=NS(depth=cfg.search.depth))


def _validate(cfg, job: list[str], conf_dir: Path):
    """Every check a run makes before its first game, here before any folder exists: the
    job's ``ResolvedConfig`` (a resume: the resumed run's)."""
    from evolve.execution.cluster import check_reachable
    from evolve.ga.configuration.config import parse, resolve

    config = parse(_without_hydra(cfg))
    if config.resume:
        from evolve.ga.run_files.resume import resume_config

        with _hydra(conf_dir):
            resolved = resume_config(config, job)
    else:
        resolved = resolve(config)
    config = resolved.config
    if config.backend == "ray" and config.ray.address:
        check_reachable(config.ray.address)
    return resolved


def _without_hydra(cfg):
    """The job's config alone (``hydra.*`` resolves only inside a running job)."""
    from omegaconf import open_dict

    job = cfg.copy()
    with open_dict(job):
        job.pop("hydra")
    return job


def _hydra(conf_dir: Path):
    from hydra import initialize_config_dir

    return initialize_config_dir(config_dir=str(conf_dir), version_base="1.3")
