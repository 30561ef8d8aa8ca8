"""The run directories the web app may read: their champions and their recorded games.

Only files found by scanning the ``--runs`` directories are ever opened, and only where they
really are inside one of them: every path is resolved (symlinks followed) and refused when it
leads out of its root. A request names a run or a champion by an id from the catalogue built
here (``<root>/<run>/champions/gen_0003.json``); ids with ``..`` or an absolute path are refused
before the lookup.

Each run is listed under a name that tells it apart from the other runs of its game: its folder's
name, marked ``(legacy)`` for a run kept under a ``legacy`` folder (earlier default runs,
experiments/README.md) and ``(cannot be replayed)`` where its tables hold no moves, or its whole
id where two runs of a game would still read the same. Runs that cannot be replayed come last,
legacy runs before them, so a page that picks the first run gets a current one it can replay.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from engine.core.champions.files import ChampionDocument
from engine.web.errors import ApiError
from engine.web.run_files import (
    champion_file,
    confined,
    header,
    is_run,
    run_dirs,
    run_game,
)

LEGACY_FOLDER = "legacy"  # earlier default runs are kept in such a folder (experiments/README.md)
TABLES = ("games", "yardstick_games")
MAX_SCAN_DEPTH = 3
_GENERATION = re.compile(r"^gen_(\d+)\.json$")


def study_of(run_id: str) -> str:
    """The study a run belongs to: the folder holding it (``runs/diversity`` for
    ``runs/diversity/keepers_seed0``), or its root for a run at the top of one."""
    parent = PurePosixPath(run_id).parent.as_posix()
    return run_id if parent == "." else parent


@dataclass(frozen=True)
class ChampionEntry:
    id: str
    run: str
    game: str
    generation: int | None  # None: the run's final champion
    path: Path  # resolved, inside its root
    settings: dict | None = None  # the run's game settings (board size, genome layout)
    name: str = ""  # the run's name in the lists (RunEntry.label); its folder's if empty
    legacy: bool = False
    in_run: bool = True  # False: a loose file of a --runs folder, with no run (no config)
    # the file's content when scanning read it already (loose files, runs without a config):
    # a session plays it from this rather than reading the file again
    document: ChampionDocument | None = field(default=None, compare=False, repr=False)
    config: Path | None = None  # its run's Hydra config (resolved, inside the root), if any

    def to_json(self) -> dict:
        label = "final" if self.generation is None else f"gen {self.generation}"
        return {"id": self.id, "run": self.run, "study": study_of(self.run),
                "name": self.name or PurePosixPath(self.run).name, "game": self.game,
                "generation": self.generation, "label": f"{self.run} ({label})",
                "legacy": self.legacy}


@dataclass(frozen=True)
class RunEntry:
    id: str
    path: Path
    root: Path  # the resolved --runs directory it was found under: no file outside is read
    game: str | None  # None when no file says which game the run played
    settings: dict | None = None  # ``game:`` of its Hydra config without name/seed_references
    documents: dict = field(default_factory=dict, compare=False, repr=False)  # files read
    name: str = ""  # set where its folder's name would read like another run's (_named_apart)

    @property
    def legacy(self) -> bool:
        """Kept in a ``legacy`` folder of its root: an earlier default run."""
        return LEGACY_FOLDER in self.path.relative_to(self.root).parts

    def replayable(self) -> bool:
        """Whether one of its tables has a ``moves`` column (tables written before the GA
        recorded moves list their games but cannot replay them)."""
        return any("moves" in header(self.file(f"{t}.csv")) for t in self.tables())

    def label(self, unreplayable: bool = False) -> str:
        """How the lists name it: ``othello``, ``othello (legacy)``; ``unreplayable``: also
        ``(legacy, cannot be replayed)``."""
        marks = [m for m, on in (("legacy", self.legacy and not self.name),
                                 ("cannot be replayed", unreplayable)) if on]
        name = self.name or PurePosixPath(self.id).name
        return f"{name} ({', '.join(marks)})" if marks else name

    def file(self, relative: str) -> Path | None:
        """The run's file ``relative`` (resolved), or None if missing or a link out of the
        root."""
        return confined(self.path / relative, self.root)

    def table_path(self, table: str) -> Path:
        if table not in TABLES:
            raise ApiError(400, f"table: {table!r} is not one of {', '.join(TABLES)}")
        path = self.path / f"{table}.csv"
        resolved = self.file(f"{table}.csv")
        if resolved is None and path.is_file():
            raise ApiError(403, f"{table}.csv of run {self.id!r} leads out of the --runs "
                                "directories (a symlink); it is not served")
        if resolved is None:
            raise ApiError(404, f"run {self.id!r} has no {table}.csv")
        return resolved

    def tables(self) -> list[str]:
        return [t for t in TABLES if self.file(f"{t}.csv") is not None]

    def champions(self) -> list[ChampionEntry]:
        if self.game is None:
            return []
        found, config = [], self.file(".hydra/config.yaml")
        final = self.file("champion.json")
        if final is not None:
            found.append(ChampionEntry(f"{self.id}/champion.json", self.id, self.game, None,
                                       final, self.settings, self.label(), self.legacy,
                                       document=self._read(final), config=config))
        for file in sorted((self.path / "champions").glob("gen_*.json")):
            match, resolved = _GENERATION.match(file.name), confined(file, self.root)
            if match and resolved is not None:
                found.append(ChampionEntry(f"{self.id}/champions/{file.name}", self.id,
                                           self.game, int(match[1]), resolved, self.settings,
                                           self.label(), self.legacy,
                                           document=self._read(resolved), config=config))
        return found

    def _read(self, path: Path) -> ChampionDocument | None:
        return self.documents.get(path)

    def to_json(self) -> dict:
        tables, replayable = self.tables(), self.replayable()
        name = self.label(unreplayable=bool(tables) and not replayable)
        return {"id": self.id, "study": study_of(self.id), "name": name, "game": self.game,
                "tables": tables, "replayable": replayable, "legacy": self.legacy}


def check_relative_id(field: str, value) -> str:
    """A catalogue id from a request: a relative POSIX path without ``..`` (else 400)."""
    if not isinstance(value, str) or not value:
        raise ApiError(400, f"{field}: expected a non-empty string id")
    if value.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", value) or \
            PurePosixPath(value).is_absolute():
        raise ApiError(400, f"{field}: absolute paths are not allowed ({value!r})")
    if ".." in re.split(r"[\\/]", value):
        raise ApiError(400, f"{field}: '..' is not allowed in {value!r}")
    return value


class RunCatalogue:
    """The runs under the ``--runs`` roots, rescanned on every listing (runs grow while the GA
    runs); each root is labelled by its directory name."""

    def __init__(self, roots: list[Path]):
        self.roots = []
        labels: set[str] = set()
        for root in roots:
            label, n = root.resolve().name or "runs", 2
            while label in labels:
                label, n = f"{root.resolve().name}-{n}", n + 1
            labels.add(label)
            self.roots.append((label, root.resolve()))

    def runs(self) -> list[RunEntry]:
        """Every run, named apart from the other runs of its game (module docstring): current
        ones first, top-level runs before studies (as the page groups them), then legacy runs,
        then runs that cannot be replayed."""
        found = []
        for label, root in self.roots:
            for directory in run_dirs(root, MAX_SCAN_DEPTH):
                rel = directory.relative_to(root).as_posix()
                run_id = label if rel == "." else f"{label}/{rel}"
                found.append(RunEntry(run_id, directory, root, *run_game(directory, root)))
        return sorted(_named_apart(found), key=_listed_order)

    def run(self, run_id) -> RunEntry:
        return _entry("run", run_id, self.runs())

    def champions(self, game: str | None = None) -> list[ChampionEntry]:
        """The runs' champions, then the champion files lying loose in a ``--runs`` directory
        (``--runs experiments/results/champions``: the committed champions, each with the
        search its strength row was measured at)."""
        found = [c for r in self.runs() for c in r.champions()]
        found += [c for label, root in self.roots for c in _loose_champions(label, root)]
        return [c for c in found if game in (None, c.game)]

    def champion(self, champion_id) -> ChampionEntry:
        return _entry("champion", champion_id, self.champions())


def _entry(what: str, entry_id, entries):
    """The entry of ``entries`` (runs or champions) with the id a request names."""
    entry_id = check_relative_id(what, entry_id)
    for entry in entries:
        if entry.id == entry_id:
            return entry
    raise ApiError(404, f"{what}: unknown {what} {entry_id!r}")


def _loose_champions(label: str, root: Path) -> list[ChampionEntry]:
    """Champion files directly in a root that is no run itself, each its own final champion
    (id ``<root label>/<file>``, listed under the root's label)."""
    if is_run(root):
        return []
    found = []
    for file in sorted(root.glob("*.json")):
        resolved = confined(file, root)
        if resolved is None:
            continue
        champion = champion_file(resolved)
        if champion is None:
            continue  # not a champion file of a registered game
        game, settings, document = champion
        found.append(ChampionEntry(f"{label}/{file.name}", f"{label}/{file.stem}", game, None,
                                   resolved, settings, file.stem, in_run=False,
                                   document=document))
    return found


def _named_apart(runs: list[RunEntry]) -> list[RunEntry]:
    """The runs, each named by its whole id where its label would read like another run's of
    the same game (two ``--runs`` folders that both hold an ``othello``)."""
    seen: dict[tuple, int] = {}
    for r in runs:
        seen[(r.game, r.label())] = seen.get((r.game, r.label()), 0) + 1
    return [replace(r, name=r.id) if seen[(r.game, r.label())] > 1 else r for r in runs]


def _listed_order(run: RunEntry) -> tuple:
    unreplayable = bool(run.tables()) and not run.replayable()
    return unreplayable, run.legacy, "/" in study_of(run.id), study_of(run.id), run.id
