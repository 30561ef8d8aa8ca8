"""``python -m evolve [overrides]``: a thin Hydra entry point around ``evolve.ga.loop``.

Before Hydra starts (and creates the run's folder), ``evolve.ga.configuration.preflight``
prints what will run and where, and resolves the config (a bad value stops the command there,
leaving no folder); the task function takes that ``ResolvedConfig`` on, so a study builds its
game once. After the run, a summary says what came out."""

from __future__ import annotations

import time

STARTED = time.monotonic()  # the log's elapsed time counts from the start of the command

import logging  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import hydra  # noqa: E402
from omegaconf import DictConfig  # noqa: E402

from evolve.errors import ConfigError  # noqa: E402
from evolve.execution.cluster import ClusterLostError  # noqa: E402
from evolve.sweep import use_plugins  # noqa: E402

use_plugins()  # hydra/sweeper=optuna (evolve.sweep)


def config_dir() -> Path:
    """The Hydra configs: ``evolve/conf`` where a wheel installed them (the build ships the
    repository's top-level ``conf/`` inside the package), else ``conf/`` of the checkout the
    package is imported from (an editable install)."""
    here = Path(__file__).resolve().parent
    for folder in (here / "conf", here.parent / "conf"):
        if (folder / "config.yaml").is_file():
            return folder
    raise SystemExit(f"error: no Hydra configs beside {here} (evolve/conf in an installed "
                     "package, conf/ in a checkout): reinstall board-evolve")


CONF_DIR = config_dir()


def game_config_dirs() -> list[Path]:
    """Config folders of plug-in games whose ``game/<name>.yaml`` is not in ``conf/`` (their
    ``Game.config_dir``); only those games are imported."""
    from engine.core.capabilities import GENOMES, has
    from engine.core.registry import get_game, usable_game_names

    dirs: list[Path] = []
    for name in usable_game_names():
        if not (CONF_DIR / "game" / f"{name}.yaml").is_file():
            game = get_game(name)
            folder = game.config_dir if has(game, GENOMES) else None
            if folder is not None and (Path(folder) / "game").is_dir() and folder not in dirs:
                dirs.append(Path(folder))
    return dirs


def with_game_configs(args: list[str]) -> list[str]:
    """``args`` plus Hydra's documented ``hydra.searchpath`` override for the plug-in games'
    config folders, so ``game=<plug-in>`` composes like a game of ``conf/``."""
    dirs = game_config_dirs()
    if not dirs or any(a.startswith("hydra.searchpath=") for a in args):
        return args
    return with_overrides(args, ["hydra.searchpath=[" + ",".join(f"file://{d}" for d in dirs)
                                 + "]"])


def with_overrides(args: list[str], extra: list[str]) -> list[str]:
    """``args`` with ``extra`` overrides right after the user's last override: Hydra's parser
    takes the overrides as one group of positional arguments and refuses a second one after a
    flag (``seed=1 -m``, ``seed=1 --cfg job`` followed by an override)."""
    last = max((i for i, a in enumerate(args) if "=" in a and not a.startswith("-")),
               default=len(args) - 1)
    return [*args[:last + 1], *extra, *args[last + 1:]]


def study(cfg: DictConfig, resolved=None) -> float:
    """Run the study; return its objective (``objective.metric``), for a Hydra sweeper.
    ``resolved``: ``cfg``'s ``ResolvedConfig``, made by the preflight (``None``: resolved
    here, as in a multirun's jobs)."""
    from evolve.ga.console import summary
    from evolve.ga.loop import run

    try:
        result = run(cfg, started=STARTED, resolved=resolved)
    except ConfigError as exc:
        # SystemExit passes through Hydra's error handler, so the user sees one line only
        _fail(str(exc))
    except ClusterLostError as exc:  # the last finished generation is checkpointed
        from hydra.core.hydra_config import HydraConfig

        run_dir = cfg.resume or HydraConfig.get().runtime.output_dir
        print(f"error: {exc}; continue later with resume={run_dir}", file=sys.stderr)
        raise SystemExit(1) from None
    log = logging.getLogger("evolve")
    log.info(summary(result, time.monotonic() - STARTED))
    objective = result.objective
    log.info("objective: %s = %s (generation %d's row of generations.csv; objective.json)",
             objective.metric, f"{objective.value:.6g}", objective.generation)
    return objective.value


def task(resolved=None):
    """The Hydra task function (``@hydra.main``) of ``study`` with ``resolved`` handed on."""

    def main(cfg: DictConfig) -> float:
        return study(cfg, resolved)

    return hydra.main(config_path=str(CONF_DIR), config_name="config", version_base="1.3")(main)


main = task()  # a study whose config is resolved in the task (``main(cfg)`` outside Hydra)


def _fail(message: str):
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2) from None


def check_overrides(args: list[str]) -> None:
    """``evolve.ga.configuration.overrides.check_overrides`` over ``conf/`` and the plug-in
    games' config folders, a bad override as one line on stderr (exit code 2)."""
    from evolve.ga.configuration.overrides import check_overrides as check

    try:
        check(args, [CONF_DIR, *game_config_dirs()])
    except ConfigError as exc:
        _fail(str(exc))


def preflight(args: list[str]):
    """``evolve.ga.configuration.preflight`` with a bad value as one line on stderr (exit code
    2): its ``Checked`` (the overrides that fix the output folder, a single run's resolved
    config)."""
    from evolve.ga.configuration.preflight import preflight as check

    try:
        return check(args, CONF_DIR)
    except ConfigError as exc:
        _fail(str(exc))


if __name__ == "__main__":
    if "--version" in sys.argv[1:]:  # ours, not Hydra's own version
        from engine.core.commands.version import version_line

        print(version_line())
        raise SystemExit(0)
    check_overrides(sys.argv[1:])
    sys.argv[1:] = with_game_configs(sys.argv[1:])
    checked = preflight(sys.argv[1:])
    sys.argv[1:] = with_overrides(sys.argv[1:], checked.overrides)
    task(checked.resolved)()
