"""Champion files and run directories, game-neutrally: which game a file is for, where a run
directory's champion is, and the JSON header every champion file starts with.

A champion file is read once, at the edge (``load_champion``): its bytes are parsed into a
``ChampionDocument`` (the JSON object, or the arrays of an ``.npz``), the registered game that
recognises its header turns that document into a ``Champion`` (``Game.read_champion``, the one
reader of each game), and from there on the ``Champion`` object is passed, never the path.

Conventions every game's files follow: a JSON object with ``game`` and ``schema_version`` at the
top (a game may name a family there and tell its variants apart by other keys: it decides with
``Game.recognizes``); an ``.npz`` champion carries that header as the JSON string array
``header_json`` (the shared network files, ``engine.kernels.ntuple.files``) or ``metadata_json``
(loaded with ``allow_pickle=False``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from engine.core.records import Champion, ChampionFileError


@dataclass(frozen=True)
class ChampionDocument:
    """A champion file's parsed content: ``data``, its JSON object, or (``npz``) its arrays,
    loaded with ``allow_pickle=False``. Games read champions from this, never from the path
    again."""

    path: Path
    data: dict
    npz: bool = False

    @property
    def header(self) -> dict:
        """What ``file_header`` says of the file (for ``Game.recognizes``)."""
        return _npz_header(self.path, self.data) if self.npz else self.data


def read_document(path: str | Path) -> ChampionDocument:
    """The one read of a champion file; ``ChampionFileError`` naming the file if it is not a
    readable JSON object or ``.npz`` archive."""
    path = Path(path)
    if path.suffix.lower() == ".npz":
        return ChampionDocument(path, read_npz_arrays(path), npz=True)
    return ChampionDocument(path, read_json_object(path))


def read_npz_arrays(path: Path) -> dict[str, np.ndarray]:
    """Every array of an ``.npz`` archive. A corrupt archive surfaces as many exception types
    (zipfile.BadZipFile, zlib.error, EOFError, ValueError from a bad .npy header, ...) and a
    plain .npy file loads as an array, not an archive: all of them become one clear error."""
    try:
        loaded = np.load(path, allow_pickle=False)
        if isinstance(loaded, np.ndarray):
            raise ChampionFileError(f"{path}: not a .npz archive (it holds a single .npy "
                                    "array)")
        with loaded as z:
            return {k: z[k] for k in z.files}
    except ChampionFileError:
        raise
    except Exception as e:  # noqa: BLE001 -- see the docstring: any read failure is the file's
        raise ChampionFileError(f"{path}: not a readable .npz weights file "
                                f"({type(e).__name__}: {e})") from None


def load_champion(source: str | Path, game=None) -> Champion:
    """The champion in ``source`` (a champion file, or a run directory's ``champion.json``),
    read once: by ``game`` when given (the file must be one it reads), else by the registered
    game that recognises the file's header. ``ChampionFileError`` / ``ValueError`` naming the
    file when it cannot be used."""
    return champion_of(read_document(resolve_source(source)), game)


def as_champion(source, game=None) -> Champion:
    """``source`` itself when it is a ``Champion``, else the champion its path holds (read
    here, once): for functions that take either."""
    return source if isinstance(source, Champion) else load_champion(source, game)


def champion_of(document: ChampionDocument, game=None) -> Champion:
    """The champion in a file read already (``load_champion`` without the read)."""
    if game is None:
        game = recognizing_game(document.header)
        if game is None:
            raise ChampionFileError(f"{document.path}: no registered game recognises this "
                                    f"champion file (game={document.header.get('game')!r})")
    return replace(game.read_champion(document), path=document.path)


def recognizing_game(header: dict):
    """The first registered game that ``recognizes`` a champion file's header, else None."""
    from engine.core.registry import get_game, usable_game_names

    for name in usable_game_names():
        if get_game(name).recognizes(header):
            return get_game(name)
    return None


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
    game = recognizing_game(file_header(Path(path)))
    return None if game is None else game.name


def file_header(path: Path) -> dict:
    """The top-level JSON object of a champion file (for ``.npz``: its ``metadata_json``, with
    the file's own ``game`` and ``variant`` kept at the top as well)."""
    if path.suffix.lower() == ".npz":
        return _npz_header(path, read_npz_arrays(path))
    return read_json_object(path)


def _npz_header(path: Path, arrays: dict) -> dict:
    try:
        if "header_json" in arrays:  # the npz twin of a shared network file
            header = json.loads(str(arrays["header_json"]))
            return header if isinstance(header, dict) else {}
        meta = json.loads(str(arrays["metadata_json"])) if "metadata_json" in arrays else {}
    except (ValueError, RecursionError) as exc:
        raise ChampionFileError(f"{path}: not a readable champion file ({exc})") from None
    meta = meta if isinstance(meta, dict) else {}
    return {"game": meta.get("game"), "variant": meta.get("variant"), "metadata": meta}


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
