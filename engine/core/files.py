"""Champion files and run directories, game-neutrally: which game a file is for, and where a
run directory's champion is. Reading the genome itself is the game's job
(``Game.load_champion``)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.core.game import ChampionFileError

SCHEMA_VERSION = 1  # every game's champion files so far

# Reversi weights files name the family ("reversi") and the rules in "variant"
_REVERSI_VARIANTS = {"othello": "othello", "reversed": "reversed_reversi"}


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
    """The registered game a champion file is for (its top-level ``game``; for a Reversi weights
    file ``metadata.game_name`` or ``variant``); ``None`` when the file does not say.
    ``ChampionFileError`` if it is not a readable JSON / npz file."""
    header = _header(Path(path))
    game = header.get("game")
    if game != "reversi":
        return game if isinstance(game, str) else None
    meta = header.get("metadata") if isinstance(header.get("metadata"), dict) else {}
    if meta.get("game_name") in _REVERSI_VARIANTS.values():
        return meta["game_name"]
    return _REVERSI_VARIANTS.get(header.get("variant"))


def _header(path: Path) -> dict:
    try:
        if path.suffix.lower() == ".npz":
            import numpy as np

            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["metadata_json"])) if "metadata_json" in z.files else {}
            return {"game": meta.get("game"), "variant": meta.get("variant"), "metadata": meta}
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError, KeyError) as exc:
        raise ChampionFileError(f"{path}: not a readable champion file ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        what = "truncated JSON" if e.pos >= len(text.rstrip()) else "invalid JSON"
        raise ChampionFileError(f"{path}: {what} at line {e.lineno} column {e.colno}: "
                                f"{e.msg}") from None
    if not isinstance(data, dict):
        raise ChampionFileError(f"{path}: expected a JSON object")
    version = data.get("schema_version")
    if "game" not in data and version not in (None, SCHEMA_VERSION):
        raise ChampionFileError(f"{path}: schema_version {version!r}: expected {SCHEMA_VERSION}")
    return data
