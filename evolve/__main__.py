"""``python -m evolve [overrides]``: a thin Hydra entry point around ``evolve.ga.loop``.

Before Hydra starts (and creates the run's folder), ``evolve.ga.preflight`` prints what will run
and where, and checks the config; after the run, a summary says what came out."""

from __future__ import annotations

import time

STARTED = time.monotonic()  # the log's elapsed time counts from the start of the command

import logging  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import hydra  # noqa: E402
from omegaconf import DictConfig  # noqa: E402

from evolve.execution.cluster import ClusterLostError  # noqa: E402
from evolve.ga.config import (  # noqa: E402
    MOVED_TO_GAME,
    Config,
    ConfigError,
    moved_key_message,
    to_dict,
)
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
    from engine.core.registry import get_game, usable_game_names

    dirs: list[Path] = []
    for name in usable_game_names():
        if not (CONF_DIR / "game" / f"{name}.yaml").is_file():
            folder = get_game(name).config_dir
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


@hydra.main(config_path=str(CONF_DIR), config_name="config", version_base="1.3")
def main(cfg: DictConfig) -> float:
    """Run the study; return its objective (``objective.metric``), for a Hydra sweeper."""
    from evolve.ga.console import summary
    from evolve.ga.loop import run

    try:
        result = run(cfg, started=STARTED)
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


def _fail(message: str):
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2) from None


def check_overrides(args: list[str]) -> None:
    """Refuse a misspelt key (``ga.populaton=5``) or an unknown group option (``game=chess``)
    in one line before Hydra composes, since Hydra's own messages span several lines. Anything
    this does not understand is left to Hydra."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    groups: dict[str, list[str]] = {}
    for root in (CONF_DIR, *game_config_dirs()):
        for d in (x for x in root.iterdir() if x.is_dir()):
            groups[d.name] = sorted({*groups.get(d.name, ()), *(f.stem for f in d.glob("*.yaml"))})
    keys = _dotted_keys(to_dict(Config())) | _game_keys()
    try:
        parsed = OverridesParser.create().parse_overrides(
            [a for a in args if "=" in a and not a.startswith("-")])
    except Exception:  # noqa: BLE001 - a syntax error: Hydra reports it
        return
    for o in parsed:
        name = o.key_or_group
        if name in groups:
            values = list(o.sweep_string_iterator()) if o.is_sweep_override() \
                else [o.get_value_element_as_str()]
            for value in values:
                if value not in groups[name]:
                    _fail(f"{name}={value} must be one of: {', '.join(groups[name])}")
        elif name.startswith("ray.runtime_env.") and name not in keys and not o.is_add():
            _fail(f"{name}: a Ray runtime_env field conf/config.yaml does not list; add it "
                  f"with a +: +{name}=...")
        elif name in {f"ga.{k}" for k in MOVED_TO_GAME}:
            _fail(moved_key_message(name))
        elif not (o.is_add() or o.is_force_add() or name.startswith("hydra")) and name not in keys:
            _fail(_unknown_key(name, keys))


def _game_keys() -> set[str]:
    """Every key some ``conf/game/*.yaml`` defines (``game.genome.phases``, ``game.size``): the
    game itself validates the values."""
    import yaml

    keys = set()
    for root in (CONF_DIR, *game_config_dirs()):
        for file in (root / "game").glob("*.yaml"):
            keys |= _dotted_keys({"game": yaml.safe_load(file.read_text()) or {}})
    return keys


def _unknown_key(name: str, keys: set[str]) -> str:
    """Name the first unknown part (``ga.x.y``: ``ga.x``) and what its parent allows."""
    parts = name.split(".")
    i = next(i for i in range(1, len(parts) + 1) if ".".join(parts[:i]) not in keys)
    bad, section = ".".join(parts[:i]), ".".join(parts[: i - 1])
    known = sorted(k.removeprefix(f"{section}.") for k in keys
                   if k.count(".") == i - 1 and (not section or k.startswith(f"{section}.")))
    if not known:
        return f"unknown key {bad} ({section} is a value, not a group of keys)"
    where = f" in {section}" if section else ""
    return f"unknown key {bad} (allowed{where}: {', '.join(known)})"


def _dotted_keys(d: dict, prefix: str = "") -> set[str]:
    out = set()
    for key, value in d.items():
        out.add(prefix + key)
        if isinstance(value, dict):
            out |= _dotted_keys(value, f"{prefix}{key}.")
    return out


def preflight(args: list[str]) -> list[str]:
    """``evolve.ga.preflight`` with a bad value as one line on stderr (exit code 2)."""
    from evolve.ga.preflight import preflight as check

    try:
        return check(args, CONF_DIR)
    except ConfigError as exc:
        _fail(str(exc))


if __name__ == "__main__":
    if "--version" in sys.argv[1:]:  # ours, not Hydra's own version
        from engine.core.version import version_line

        print(version_line())
        raise SystemExit(0)
    check_overrides(sys.argv[1:])
    sys.argv[1:] = with_game_configs(sys.argv[1:])
    sys.argv[1:] = with_overrides(sys.argv[1:], preflight(sys.argv[1:]))
    main()
