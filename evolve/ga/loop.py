"""``run(cfg)``: a study from start to finish, or resumed from its checkpoint. The pieces:

- ``evolve.ga.study``: the study and its generation loop (score, breed, hooks, checkpoint);
- ``evolve.ga.scoring.playoff``: the exported champion, chosen among the last generations'
  champions;
- ``evolve.ga.state`` and ``evolve.ga.run_files.resume``: what a checkpoint holds and how a run
  resumes.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from evolve.execution.backends import make_backend, talking_warm_up
from evolve.ga.configuration.config import Config, ResolvedConfig, parse, resolve
from evolve.ga.run_files.resume import resume
from evolve.ga.scoring.tournament import warm_up
from evolve.ga.state import State
from evolve.ga.study import RunResult, Study

__all__ = ["RunResult", "State", "Study", "run", "study_backend"]
log = logging.getLogger("evolve")


def run(cfg, run_dir: str | Path | None = None, backend=None, started: float | None = None,
        resolved: ResolvedConfig | None = None) -> RunResult:
    """Run (or resume) a study; ``cfg`` is a composed Hydra config, a dict or a ``Config``.
    ``started``: the ``time.monotonic()`` the command started at (default: now), from which
    the log's elapsed time counts. ``resolved``: what ``cfg`` resolves to (for a resume: the
    resumed run's config), resolved already by the caller (``python -m evolve`` resolves it
    before Hydra makes the run's folder), so the game is built once per study."""
    config = parse(cfg)
    if config.resume:  # the checkpoint's config, with what the command line changed
        resolved, state, run_dir = resume(config, resolved=resolved)
    else:
        resolved = resolved or resolve(config)
        run_dir = Path(run_dir or _hydra_output_dir())
        state = None
    config = resolved.config
    run_dir.mkdir(parents=True, exist_ok=True)
    study = Study(resolved, run_dir, started)
    state = state or study.initial_state()
    backend = backend or study_backend(config)
    try:
        return study.loop(state, backend)
    finally:
        backend.close()


def study_backend(config: Config, crash_flag: str | None = None):
    """The configured backend, warmed up on this study's game: every Ray actor, or this
    process for the serial backend (the game's kernels load, or compile the first time)."""
    warm = functools.partial(warm_up, config.game.name, config.game.settings,
                             config.ga.local_search == "td")
    if config.backend == "serial":
        talk = log if config.progress else None
        if talk:
            talk.info("serial: warming up (loading the game's compiled kernels)")
        with talking_warm_up(talk, "serial"):
            warm()
    return make_backend(config.backend, config.ray, warm_up=warm, crash_flag=crash_flag)


def _hydra_output_dir() -> str:
    try:
        from hydra.core.hydra_config import HydraConfig

        return HydraConfig.get().runtime.output_dir
    except ValueError:  # not running under @hydra.main
        return "."
