"""The command line's overrides checked before Hydra composes them: a misspelt key
(``ga.populaton=5``), an unknown group option (``game=chess``) or a key that moved stops the
command with one line naming it and what is allowed, since Hydra's own messages span several
lines. Anything this does not understand is left to Hydra."""

from __future__ import annotations

from pathlib import Path

from evolve.errors import ConfigError
from evolve.ga.configuration.config import MOVED_TO_GAME, Config, moved_key_message, to_dict


def check_overrides(args: list[str], conf_dirs: list[Path]) -> None:
    """Raise ``ConfigError`` for the first override of ``args`` that names no key or group
    option of the config folders ``conf_dirs`` (``conf/`` first, then the plug-in games')."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    groups: dict[str, list[str]] = {}
    for root in conf_dirs:
        for d in (x for x in root.iterdir() if x.is_dir()):
            groups[d.name] = sorted({*groups.get(d.name, ()), *(f.stem for f in d.glob("*.yaml"))})
    keys = dotted_keys(to_dict(Config())) | _game_keys(conf_dirs)
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
                    raise ConfigError(f"{name}={value} must be one of: {', '.join(groups[name])}")
        elif name.startswith("ray.runtime_env.") and name not in keys and not o.is_add():
            raise ConfigError(f"{name}: a Ray runtime_env field conf/config.yaml does not list; "
                              f"add it with a +: +{name}=...")
        elif name in {f"ga.{k}" for k in MOVED_TO_GAME}:
            raise ConfigError(moved_key_message(name))
        elif not (o.is_add() or o.is_force_add() or name.startswith("hydra")) and name not in keys:
            raise ConfigError(unknown_key(name, keys))


def _game_keys(conf_dirs: list[Path]) -> set[str]:
    """Every key some ``game/*.yaml`` defines (``game.genome.phases``, ``game.size``): the game
    itself validates the values."""
    import yaml

    keys = set()
    for root in conf_dirs:
        for file in (root / "game").glob("*.yaml"):
            keys |= dotted_keys({"game": yaml.safe_load(file.read_text()) or {}})
    return keys


def unknown_key(name: str, keys: set[str]) -> str:
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


def dotted_keys(d: dict, prefix: str = "") -> set[str]:
    out = set()
    for key, value in d.items():
        out.add(prefix + key)
        if isinstance(value, dict):
            out |= dotted_keys(value, f"{prefix}{key}.")
    return out
