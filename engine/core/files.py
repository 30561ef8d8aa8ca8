"""Champion files and run directories, game-neutrally: which game a file is for, where a run
directory's champion is, and the JSON header every champion file starts with. Reading the
genome itself is the game's job (``Game.load_champion``).

Conventions every game's files follow: a JSON object with ``game`` and ``schema_version`` at the
top (a game may name a family there and tell its variants apart by other keys: it decides with
``Game.recognizes``); an ``.npz`` champion carries that header as the JSON string array
``header_json`` (the shared network files, ``engine.kernels.ntuple_files``) or ``metadata_json``
(loaded with ``allow_pickle=False``).
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.core.records import ChampionFileError


def resolve_source(source: str | Path) -> Path:
    """A champion file, or a run directory's ``champion.json``; ``ValueError`` if neither."""
    path = Path(source)
    if path.is_dir():
        champion = path / "champion.json"
        if not champion.is_file():
            raise ValueError(f"{path} is a directory without champion.json (not a run directory)")
        return champion
    if not path.exists():
        raise ValueError(f"no such file or run directory: {path}")
    return path


def champion_game(path: str | Path) -> str | None:
    """The registered game a champion file is for (the first game that ``recognizes`` its
    header); ``None`` when no game does. ``ChampionFileError`` if it is not a readable JSON /
    npz file."""
    from engine.core.registry import get_game, usable_game_names

    header = file_header(Path(path))
    for name in usable_game_names():
        if get_game(name).recognizes(header):
            return name
    return None


def file_header(path: Path) -> dict:
    """The top-level JSON object of a champion file (for ``.npz``: its ``metadata_json``, with
    the file's own ``game`` and ``variant`` kept at the top as well)."""
    if path.suffix.lower() == ".npz":
        import numpy as np

        try:
            with np.load(path, allow_pickle=False) as z:
                if "header_json" in z.files:  # the npz twin of a shared network file
                    header = json.loads(str(z["header_json"]))
                    return header if isinstance(header, dict) else {}
                meta = json.loads(str(z["metadata_json"])) if "metadata_json" in z.files else {}
        except (OSError, ValueError, KeyError) as exc:
            raise ChampionFileError(f"{path}: not a readable champion file ({exc})") from None
        meta = meta if isinstance(meta, dict) else {}
        return {"game": meta.get("game"), "variant": meta.get("variant"), "metadata": meta}
    return read_json_object(path)


def read_json_object(path: str | Path) -> dict:
    """The JSON object in ``path``; ``ChampionFileError`` naming the file and what is wrong
    (unreadable, truncated or invalid JSON, not an object)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise ChampionFileError(f"{path}: not a readable champion file ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        what = "truncated JSON" if e.pos >= len(text.rstrip()) else "invalid JSON"
        raise ChampionFileError(f"{path}: {what} at line {e.lineno} column {e.colno}: "
                                f"{e.msg}") from None
    except RecursionError:
        raise ChampionFileError(f"{path}: invalid JSON (nested too deeply)") from None
    if not isinstance(data, dict):
        raise ChampionFileError(f"{path}: expected a JSON object")
    return data


def check_header(path: str | Path, data: dict, game: str, schema_version: int) -> None:
    """``ChampionFileError`` unless ``data`` names ``game`` and ``schema_version``."""
    if data.get("game") != game:
        raise ChampionFileError(f"{path}: game={data.get('game')!r}, expected {game!r}")
    version = data.get("schema_version")
    if type(version) is not int or version != schema_version:  # true == 1 and 2.0 == 2: no
        raise ChampionFileError(f"{path}: schema_version={data.get('schema_version')!r}, "
                                f"expected {schema_version}")


def read_champion_json(path: str | Path, game: str, schema_version: int) -> dict:
    """``read_json_object`` + ``check_header``: the first lines of every game's loader."""
    data = read_json_object(path)
    check_header(path, data, game, schema_version)
    return data
