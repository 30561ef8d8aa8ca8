"""The search a champion plays at, and where that came from, for every front end (the browser
board, ``engine.play``, ``evolve.evaluate``, ``evolve.export``).

A champion's strength belongs to a search: the same weights at depth 2 and at depth 3 are not
the same player. So a front end plays a champion at the search it records, in this order:

1. ``champion file's play search``: the file's ``metadata.play``, the search its strength was
   measured at (``python -m evolve.export ... --play '{"depth": 3, "endgame_empties": 24}'``
   writes it: a README strength row's settings are the ones a user gets);
   ``champion file``: else its ``metadata.search`` (``{"depth": 2, "endgame_empties": 20}``,
   the search it was evolved with, which the GA writes into every champion it saves);
2. ``study config``: the ``search:`` block of its run's ``.hydra/config.yaml`` (a file inside a
   run directory: ``<run>/champion.json`` or ``<run>/champions/gen_0003.json``);
3. ``defaults``: the front end's own defaults for the game.

The user's explicit settings (a command-line flag, a form field) override any field; the
result says which fields were set and where the others came from, so the front end can say so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from engine.core.champions.files import file_header
from engine.core.records import Champion, ChampionFileError, SearchSettings

CHAMPION_FILE = "champion file"
PLAY_RECORD = "champion file's play search"
STUDY_CONFIG = "study config"
DEFAULTS = "defaults"
SEARCH_FIELDS = ("depth", "endgame_empties", "time_limit")
_GENERATION_FILE = re.compile(r"^gen_\d+\.\w+$")
AUTO = object()  # recorded_search: find the run's config next to the file


@dataclass(frozen=True)
class ChampionSearch:
    """A champion's search: the settings, the ``source`` of the fields nobody set, and the
    fields the user set (``overridden``), with what the source said (``recorded``)."""

    search: SearchSettings
    source: str  # PLAY_RECORD, CHAMPION_FILE, STUDY_CONFIG or DEFAULTS
    recorded: SearchSettings  # what the source says, before any override
    overridden: tuple[str, ...] = ()  # SEARCH_FIELDS the user set

    def text(self) -> str:
        """``depth 2, exact endgame from 20 (champion file)``; with overrides
        ``depth 3 (set; the champion file records 2), exact endgame from 20 (champion file)``."""
        return search_text(self.search) + f" ({self.origin()})"

    def origin(self) -> str:
        """Where the settings come from, in words."""
        if not self.overridden:
            return self.source
        changed = [f for f in self.overridden
                   if getattr(self.search, f) != getattr(self.recorded, f)]
        if not changed:
            return f"set as the {self.source} records them"
        recorded = ", ".join(f"{_FIELD_WORDS[f]} {_value(getattr(self.recorded, f))}"
                             for f in changed)
        return f"{', '.join(_FIELD_WORDS[f] for f in changed)} set; the {self.source} " \
               f"records {recorded}"

    def to_json(self) -> dict:
        return {"depth": self.search.depth, "endgame_empties": self.search.endgame_empties,
                "time_limit": self.search.time_limit, "source": self.source,
                "overridden": list(self.overridden), "recorded": self.recorded.to_dict(),
                "text": self.text()}


_FIELD_WORDS = {"depth": "depth", "endgame_empties": "exact endgame",
                "time_limit": "seconds per move"}


def _value(value) -> str:
    return "none" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def search_text(search: SearchSettings) -> str:
    """``depth 2, exact endgame from 20`` or ``0.5 s per move, exact endgame from 8``."""
    parts = [f"{search.time_limit:g} s per move" if search.time_limit is not None
             else f"depth {search.depth}"]
    parts.append(f"exact endgame from {search.endgame_empties}" if search.endgame_empties
                 else "no exact endgame")
    return ", ".join(parts)


def run_dir_of(path: str | Path) -> Path | None:
    """The run directory a champion file lies in (``<run>/champion.json``,
    ``<run>/champions/gen_0003.json``), else ``None``."""
    path = Path(path)
    if path.name == "champion.json":
        return path.parent
    if path.parent.name == "champions" and _GENERATION_FILE.match(path.name):
        return path.parent.parent
    return None


def file_search(source: str | Path | Champion) -> tuple[SearchSettings, str] | None:
    """The champion's ``metadata.play`` (source ``PLAY_RECORD``), else its ``metadata.search``
    (``CHAMPION_FILE``); ``None`` when it records neither (or only unusable ones). A path is
    read for its header; a ``Champion`` was read already."""
    if isinstance(source, Champion):
        metadata = source.metadata
    else:
        try:
            metadata = file_header(Path(source)).get("metadata")
        except (ChampionFileError, OSError, ValueError):
            return None
    if not isinstance(metadata, dict):
        return None
    for key, source in (("play", PLAY_RECORD), ("search", CHAMPION_FILE)):
        found = parse_search(metadata.get(key))
        if found is not None:
            return found, source
    return None


def config_search(config: Path | None) -> SearchSettings | None:
    """The ``search:`` block of a study's Hydra config (``None`` if absent or unreadable)."""
    if config is None or not Path(config).is_file():
        return None
    import yaml

    try:
        data = yaml.safe_load(Path(config).read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, OSError, ValueError):
        return None
    return parse_search(data.get("search") if isinstance(data, dict) else None)


def parse_search(block) -> SearchSettings | None:
    """A recorded ``{"depth", "endgame_empties"[, "time_limit"]}`` as settings; ``None`` unless
    depth is an integer >= 1 (a missing endgame means none searched exactly)."""
    if not isinstance(block, dict):
        return None
    depth, empties = block.get("depth"), block.get("endgame_empties", 0)
    limit = block.get("time_limit")
    if not _integer(depth) or depth < 1 or not _integer(empties) or empties < 0:
        return None
    if limit is not None and not (isinstance(limit, int | float) and limit > 0):
        limit = None
    return SearchSettings(int(depth), int(empties), None if limit is None else float(limit))


def _integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def recorded_search(path: str | Path | Champion, defaults: SearchSettings,
                    config=AUTO) -> tuple[SearchSettings, str]:
    """(settings, source) of the champion file ``path``: its own record, else its study's
    config, else ``defaults``. ``config``: the run's Hydra config to read (``None``: none; by
    default ``.hydra/config.yaml`` of the run directory the file lies in)."""
    found = file_search(path)
    if found is not None:
        return found
    if isinstance(path, Champion):
        path = path.path
    if config is AUTO and path is not None:
        run_dir = run_dir_of(path)
        config = None if run_dir is None else run_dir / ".hydra" / "config.yaml"
    found = config_search(None if config is AUTO else config)
    if found is not None:
        return found, STUDY_CONFIG
    return defaults, DEFAULTS


def champion_search(path: str | Path | Champion | None, defaults: SearchSettings,
                    overrides: dict | None = None, config=AUTO) -> ChampionSearch:
    """The search to play the champion ``path`` (a file, or a ``Champion`` read already;
    ``None``: no champion, the defaults) at: its
    recorded search with the fields of ``overrides`` that are not ``None`` set over it. Setting
    ``time_limit`` replaces a depth with iterative deepening (the depth then only caps it)."""
    recorded, source = (defaults, DEFAULTS) if path is None else \
        recorded_search(path, defaults, config)
    given = {k: v for k, v in (overrides or {}).items() if v is not None}
    unknown = sorted(set(given) - set(SEARCH_FIELDS))
    if unknown:
        raise ValueError(f"unknown search setting {unknown[0]!r} (allowed: "
                         f"{', '.join(SEARCH_FIELDS)})")
    search = replace(recorded, **given)
    return ChampionSearch(search, source, recorded,
                          tuple(f for f in SEARCH_FIELDS if f in given))
