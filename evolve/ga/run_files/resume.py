"""Which settings a resumed run takes from its checkpoint and which from the command line.

A resumed run must end exactly as the uninterrupted run would have, so the saved config wins.
The command line may only change where and how visibly the run executes (``backend``, ``ray.*``,
``plot``, ``progress``) and may raise ``ga.generations`` (generation g never depends on how many
follow, so continuing to a larger count equals having asked for it from the start). Any other
setting the command line sets to a different value than the saved one is refused, naming it.

"Set by the command line" means: under ``python -m evolve``, the keys named in the overrides or
changed from ``conf/config.yaml``'s defaults by a group override (``+experiment=...``); called
from Python with a composed config, every key (the config must then match the saved one).
"""

from __future__ import annotations

import logging
from pathlib import Path

from evolve.ga.configuration.config import (
    RUNTIME_KEYS,
    Config,
    ConfigError,
    ResolvedConfig,
    from_dict,
    migrate,
    parse,
    resolve,
    to_dict,
)
from evolve.ga.run_files import checkpoint as ckpt
from evolve.ga.state import State, restored

# what a resumed run's command line may change, as the refusal names it
CHANGEABLE = tuple(f"{k}.*" if k in ("ray", "objective", "tracking") else k
                   for k in RUNTIME_KEYS if k != "resume")

log = logging.getLogger("evolve")
GROWABLE = "ga.generations"


def resume(current: Config, task: list[str] | None = None,
           resolved: ResolvedConfig | None = None) -> tuple[ResolvedConfig, State, Path]:
    """The run ``current.resume`` names: its config (the saved one, with the command line's
    allowed changes) resolved, the state its checkpoint holds, and its directory. ``task``:
    the command line's overrides (default: Hydra's, when under ``python -m evolve``);
    ``resolved``: that config resolved already (``resume_config``: the command line's
    preflight), so it is neither merged nor resolved again."""
    saved = _load(current)
    resolved = resolved or _checked(current, task, saved)
    log.info("resuming %s after generation %d (next: generation %d, backend %s)",
             current.resume, saved.generation, saved.generation + 1, resolved.config.backend)
    return resolved, restored(saved), Path(current.resume)


def resume_config(current: Config, task: list[str]) -> ResolvedConfig:
    """The config a resume with the overrides ``task`` would run, resolved (or
    ``ConfigError``)."""
    return _checked(current, task, _load(current))


def _load(current: Config) -> ckpt.Checkpoint:
    try:
        return ckpt.load(Path(current.resume))
    except ckpt.CheckpointError as exc:
        raise ConfigError(f"resume={current.resume}: {exc}") from None


def _checked(current: Config, task: list[str] | None,
             saved: ckpt.Checkpoint) -> ResolvedConfig:
    config = resolve(_merged(saved.config, current, command_line_keys(current, task)))
    finished = saved.generation + 1 >= saved.config["ga"]["generations"]
    generations = config.config.ga.generations
    if finished and not saved.next_bred and generations > saved.generation + 1:
        raise ConfigError(f"resume={current.resume}: this checkpoint (written by an older "
                          f"version) cannot be extended to ga.generations={generations}")
    return config


def merged_config(saved: dict, current: Config, set_keys: set[str] | None) -> Config:
    """The resumed run's config: ``saved`` with the command line's allowed changes applied."""
    return from_dict(_merged(saved, current, set_keys))


def _merged(saved: dict, current: Config, set_keys: set[str] | None) -> dict:
    """``merged_config`` as a plain dict, not yet validated."""
    now, before = flatten(to_dict(current)), flatten(_with_defaults(saved))
    chosen = set(now) if set_keys is None else _expand(set_keys, now)
    merged, conflicts, saved_values = dict(before), [], []
    for key in sorted(chosen - {"resume"}):
        if key.split(".")[0] in RUNTIME_KEYS or key not in before:
            # a setting the saved run did not know (it predates it): the command line says
            merged[key] = now[key]
        elif key == GROWABLE and now[key] >= before[key]:
            merged[key] = now[key]
        elif now[key] != before[key]:
            conflicts.append(f"{key}={_show(now[key])} (saved: {_show(before[key])})")
            saved_values.append(f"{key}={_show(before[key])}")
    if conflicts:
        # the usual cause: an experiment whose defaults changed since the run started; setting
        # the saved values on the command line continues the run as it was
        raise ConfigError(f"resume={current.resume}: the command line changes the saved run's "
                          f"{'; '.join(conflicts)}; only {', '.join(CHANGEABLE)} may "
                          f"change and ga.generations may grow (to continue the saved run as "
                          f"it was, add: {' '.join(saved_values)})")
    merged["resume"] = None
    return unflatten(merged)


def command_line_keys(current: Config, task: list[str] | None = None) -> set[str] | None:
    """Dotted keys the ``python -m evolve`` command line set (``current`` is what it composed,
    ``task`` its overrides: default Hydra's); ``None`` outside Hydra without ``task``."""
    if task is None:
        try:
            from hydra.core.hydra_config import HydraConfig

            task = list(HydraConfig.get().overrides.task)
        except ValueError:  # not running under @hydra.main
            return None
    from hydra import compose
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parsed = OverridesParser.create().parse_overrides(task)
    keys = {o.key_or_group for o in parsed}
    defaults = flatten(_plain(compose("config", overrides=[])))
    now = flatten(to_dict(current))
    return keys | {k for k in now if now[k] != defaults.get(k)}


def _plain(cfg) -> dict:
    from omegaconf import OmegaConf

    d = OmegaConf.to_container(cfg, resolve=True)
    d.pop("hydra", None)
    return to_dict(parse(migrate(d)))


def _with_defaults(saved: dict) -> dict:
    """A checkpoint from before a key existed: the key's default (what that run used)."""
    d = dict(saved)
    d["resume"] = None
    return to_dict(parse(migrate(d)))


def _expand(keys: set[str], flat: dict) -> set[str]:
    """``ray`` -> ``ray.address``, ``ray.workers``, ...; unknown names are dropped (Hydra has
    already refused them) and group names (``game``, ``experiment``) match their keys."""
    return {k for k in flat for name in keys if k == name or k.startswith(name + ".")}


def flatten(d: dict, prefix: str = "") -> dict:
    out = {}
    for key, value in d.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def unflatten(flat: dict) -> dict:
    out: dict = {}
    for key, value in flat.items():
        *parents, leaf = key.split(".")
        node = out
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    return out


def _show(value) -> str:
    return "null" if value is None else str(value)
