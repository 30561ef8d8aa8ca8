"""``ray.runtime_env``: the code and environment Ray ships to the game workers.

A worker node then needs only Ray and the project's dependencies, not the project itself: Ray
uploads the folders named by ``working_dir`` / ``py_modules`` (or installs what ``pip`` lists)
for this job, as its docs describe
(https://docs.ray.io/en/latest/ray-core/handling-dependencies.html). The value is Ray's own
``runtime_env`` dict, passed to ``ray.init``; this module only checks it at start, resolves a
``py_modules`` entry that names an importable package (``evolve``) to that package's folder,
and tells the workers which games the driver has registered (a worker without the project
installed has no entry points to find them by).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping
from pathlib import Path

from engine.core.registry import SHIPPED_ENV as GAMES_ENV
from evolve.errors import ConfigError

# the fields conf/config.yaml lists (null: unused); any other field of Ray's goes in with +
LISTED = ("working_dir", "py_modules", "pip", "env_vars")
URI_HINT = "a remote URI such as s3://bucket/code.zip"


def plain(value):
    """A plain dict/list copy of an OmegaConf node or a dict, ``None`` fields dropped."""
    if hasattr(value, "_metadata"):  # an OmegaConf node (a sweep hands one over)
        from omegaconf import OmegaConf

        value = OmegaConf.to_container(value, resolve=True)
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def check_runtime_env(value, key: str = "ray.runtime_env") -> dict:
    """The runtime_env as Ray takes it (see ``for_ray``); ``ConfigError`` naming the field."""
    env = plain(value or {})

    def field(name: str) -> str:  # ray.runtime_env.pip, or --runtime-env pip
        return f"{key} {name}" if key.startswith("-") else f"{key}.{name}"

    if not isinstance(env, dict):
        raise ConfigError(f"{key}={value} must be a mapping of Ray runtime_env fields "
                          f"({', '.join(LISTED)}, ...)")
    if "working_dir" in env:
        _check_location(field("working_dir"), env["working_dir"], folder=True)
    if "py_modules" in env:
        modules = env["py_modules"]
        if not isinstance(modules, list):
            raise ConfigError(f"{field('py_modules')}={modules} must be a list of folders, .whl "
                              "files, importable package names or URIs")
        env["py_modules"] = [_module_location(field("py_modules"), m) for m in modules]
    if "pip" in env and not isinstance(env["pip"], list | str | dict):
        raise ConfigError(f"{field('pip')}={env['pip']} must be a list of requirements or a "
                          "requirements file")
    if "env_vars" in env:
        if not isinstance(env["env_vars"], dict):
            raise ConfigError(f"{field('env_vars')}={env['env_vars']} must be a mapping of "
                              "variable names to values")
        env["env_vars"] = {k: str(v) for k, v in env["env_vars"].items()}
    return env


def for_ray(value) -> dict | None:
    """What ``ray.init(runtime_env=...)`` gets: the checked value, plus the driver's game
    registry in the workers' environment (``GAMES_ENV``), and no ``__pycache__`` folder uploaded
    unless ``excludes`` is given; ``None`` when nothing is set."""
    env = check_runtime_env(value)
    if not env:
        return None
    env_vars = dict(env.get("env_vars") or {})
    env_vars.setdefault(GAMES_ENV, registered_games())
    if ("working_dir" in env or "py_modules" in env) and "excludes" not in env:
        # the driver's bytecode and numba caches (ten times the sources) are of no use there
        env["excludes"] = ["__pycache__/"]
    return {**env, "env_vars": env_vars}


def registered_games() -> str:
    """The driver's games as JSON ``{name: "module:attribute"}``, the default game first."""
    from engine.core.registry import _entry_points, default_game

    points = _entry_points()
    first = default_game()
    order = [first, *(n for n in points if n != first)]
    return json.dumps({name: points[name].value for name in order})


def _check_location(key: str, location, folder: bool) -> None:
    if not isinstance(location, str):
        raise ConfigError(f"{key}={location} must be a folder or {URI_HINT}")
    if "://" in location:
        return
    path = Path(location).expanduser()
    if not (path.is_dir() or (path.is_file() and path.suffix in (".zip", ".whl"))):
        what = "folder" if folder else "folder or .whl file"
        raise ConfigError(f"{key}={location}: no such {what} (give a local {what}, or "
                          f"{URI_HINT})")


def _module_location(key: str, entry) -> str:
    """A local path (absolute), a URI, or the folder of the importable package ``entry``."""
    if isinstance(entry, str) and "://" not in entry and not Path(entry).exists() \
            and entry.isidentifier():
        spec = importlib.util.find_spec(entry)
        if spec is None or not spec.submodule_search_locations:
            raise ConfigError(f"{key}: {entry} is not a folder, a .whl file, a URI nor an "
                              "importable package")
        return str(Path(next(iter(spec.submodule_search_locations))).resolve())
    _check_location(key, entry, folder=False)
    return entry if "://" in entry else str(Path(entry).expanduser().resolve())


def from_option(text: str | None, option: str = "--runtime-env") -> dict | None:
    """``--runtime-env``: a JSON object, or a YAML/JSON file holding one (as ``ray job submit``
    takes ``--runtime-env-json`` and ``--runtime-env``); ``ValueError`` naming the option."""
    if text is None:
        return None
    import yaml

    try:
        value = yaml.safe_load(text if text.lstrip().startswith("{") else
                               Path(text).read_text())
    except OSError as exc:
        raise ValueError(f"{option} {text}: not a JSON object nor a readable file "
                         f"({exc.strerror or exc})") from None
    except yaml.YAMLError as exc:
        raise ValueError(f"{option}: not valid JSON/YAML ({' '.join(str(exc).split())})") \
            from None
    try:
        return check_runtime_env(value, option)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
