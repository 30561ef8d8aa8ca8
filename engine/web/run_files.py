"""What lies in a ``--runs`` folder, read without leaving it: which folders are runs, which game
and settings a run or a champion file has, and a run's tables.

Every path is resolved (symlinks followed) and refused when it leads out of its root; callers
open the resolved path, so a link cannot be swapped between the check and the read.
"""

from __future__ import annotations

import csv
from pathlib import Path

from engine.core.champions.files import ChampionDocument, read_document, recognizing_game
from engine.core.registry import game_names

RUN_MARKERS = ("champion.json", "champions", "games.csv", "yardstick_games.csv")


def champion_file(path: Path) -> tuple[str, dict | None, ChampionDocument] | None:
    """A champion file's game, its ``settings`` (None if it stores none) and its parsed
    content, from one read (a session playing it reads it no more); None if it is no champion
    file of a registered game."""
    try:
        document = read_document(path)
        game = recognizing_game(document.header)
    except (ValueError, OSError):
        return None
    if game is None or game.name not in game_names():
        return None
    stored = document.header.get("settings")
    return game.name, stored if isinstance(stored, dict) and stored else None, document


def confined(path: Path, root: Path) -> Path | None:
    """``path`` resolved (symlinks followed) if it is a file inside ``root`` (itself resolved);
    ``None`` if it is missing or leads out of ``root``."""
    resolved = path.resolve()
    return resolved if resolved.is_relative_to(root) and resolved.is_file() else None


def is_run(directory: Path) -> bool:
    return any((directory / m).exists() for m in RUN_MARKERS)


def run_dirs(root: Path, depth: int) -> list[Path]:
    """Directories under ``root`` (itself included) that hold run outputs, never leaving it."""
    if not root.is_dir() or depth < 0:
        return []
    found = [root] if is_run(root) else []
    for child in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if child.name in ("champions", "checkpoint") or not child.resolve().is_relative_to(root):
            continue
        found += run_dirs(child, depth - 1)
    return found


def run_game(directory: Path, root: Path
             ) -> tuple[str | None, dict | None, dict[Path, ChampionDocument]]:
    """The run's game and settings: its Hydra config's ``game`` block, else its champion files
    (the game they name and their ``settings``); files leading out of ``root`` are not read.
    Third: the champion files read to find them, by path (parsed once: a session reuses them)."""
    name, settings = _hydra_game(confined(directory / ".hydra" / "config.yaml", root))
    if name in game_names():
        return name, settings, {}
    candidates = [directory / "champion.json", *sorted((directory / "champions").glob("*.json"))]
    for file in filter(None, (confined(c, root) for c in candidates)):
        found = champion_file(file)
        if found is not None:
            return found[0], found[1], {file: found[2]}
    return None, None, {}


def _hydra_game(config: Path | None) -> tuple[str | None, dict | None]:
    if config is None:
        return None, None
    import yaml

    try:
        block = (yaml.safe_load(config.read_text()) or {}).get("game", {})
    except (yaml.YAMLError, AttributeError, OSError):
        return None, None
    if not isinstance(block, dict):
        return None, None
    settings = {k: v for k, v in block.items() if k not in ("name", "seed_references")}
    return block.get("name"), settings or None


def header(path: Path | None) -> list[str]:
    """A CSV file's column names (none for a missing or unreadable file)."""
    if path is None:
        return []
    try:
        with path.open(newline="") as handle:
            return next(csv.reader(handle), [])
    except (OSError, csv.Error, UnicodeDecodeError):
        return []


def read_table(path: Path) -> tuple[list[str], list[dict]]:
    """The header and rows of a games CSV."""
    with path.open(newline="") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), list(reader)
