"""Read a GA run directory (what ``python -m evolve`` writes) for plots and reports.

Only reads files; never imports ray or the GA itself, so notebooks open any finished (or still
running) run quickly. The files and their columns are the run-directory contract of
``evolve.ga``: ``generations.csv``, ``individuals.csv``, ``champion.json``,
``champions/gen_XXXX.json`` and Hydra's ``.hydra/overrides.yaml``.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

GENERATION_COLUMNS = ("generation", "best_fitness", "mean_fitness", "min_fitness", "std_fitness",
                      "yardstick_score", "diversity")
RUNS_ENV_VAR = "BOARD_EVOLVE_RUNS"
_CHAMPION_FILE = re.compile(r"gen_(\d+)\.json$")


class RunDirError(ValueError):
    """A path that is not a readable run directory; the message names the path and the problem."""


@dataclass
class RunData:
    """One run directory, loaded lazily (individuals.csv can be large)."""

    path: Path
    generations: pd.DataFrame
    overrides: list[str] = field(default_factory=list)
    label: str = ""

    @property
    def yardstick_opponents(self) -> list[str]:
        """Panel opponents, from the ``yardstick_<opponent>`` columns."""
        prefix = "yardstick_"
        return [c[len(prefix):] for c in self.generations.columns
                if c.startswith(prefix) and c != "yardstick_score"]

    @cached_property
    def config(self) -> dict:
        """The run's composed config (Hydra's ``.hydra/config.yaml``); ``{}`` without one."""
        file = self.path / ".hydra" / "config.yaml"
        if not file.is_file():
            return {}
        try:
            config = yaml.safe_load(file.read_text())
        except yaml.YAMLError as exc:
            raise RunDirError(f"{file}: not valid YAML ({exc.__class__.__name__})") from None
        return config if isinstance(config, dict) else {}

    @property
    def zero_sum(self) -> bool:
        """Fitness is the population round robin's summed points alone, so its mean is 0 in
        every generation (from the config when the run has one, else from the data)."""
        fitness = self.config.get("fitness")
        if isinstance(fitness, dict):
            return not fitness.get("references") and not fitness.get("hall_of_fame")
        return bool((self.generations["mean_fitness"] == 0).all())

    @cached_property
    def individuals(self) -> pd.DataFrame:
        return _read_csv(self.path / "individuals.csv", ("generation", "id", "fitness"))

    @cached_property
    def champion(self):
        """The run's champion (``engine.core.Champion``: game, genome, settings, metadata)."""
        return _load_champion_file(self.path / "champion.json")

    @property
    def game(self):
        """The run's game, configured as the champion was evolved."""
        from engine.core.registry import get_game

        champion = self.champion
        return get_game(champion.game, champion.settings)

    def champion_history(self) -> list[tuple[int, object]]:
        """``(generation, Champion)`` of each generation's champion, oldest first.

        From ``champions/gen_XXXX.json``; if that folder is missing, rebuilt from the best
        individual of each generation in ``individuals.csv`` (same layout as the champion)."""
        folder = self.path / "champions"
        files = sorted(folder.glob("gen_*.json")) if folder.is_dir() else []
        if files:
            return [(int(_CHAMPION_FILE.search(f.name).group(1)), _load_champion_file(f))
                    for f in files if _CHAMPION_FILE.search(f.name)]
        return self._history_from_individuals()

    def _genome_from_npz(self, generation: int, ident: int) -> np.ndarray:
        return _npz_genome(self.path / "individuals" / f"gen_{generation:04d}.npz", ident)

    def _history_from_individuals(self) -> list[tuple[int, object]]:
        from dataclasses import replace

        champion = self.champion
        gene_columns = list(self.game.genome_spec().names)
        missing = [c for c in gene_columns if c not in self.individuals.columns]
        if missing and not (self.path / "individuals").is_dir():
            raise RunDirError(f"{self.path / 'individuals.csv'}: no gene columns {missing[:3]}...")
        history = []
        for generation, group in self.individuals.groupby("generation", sort=True):
            row = group["fitness"].idxmax()
            best = (self._genome_from_npz(int(generation), int(group.loc[row, "id"])) if missing
                    else group.loc[row, gene_columns].to_numpy(np.float64))
            history.append((int(generation), replace(champion, genome=best,
                                                     name=f"gen {generation}", metadata={})))
        return history


def _npz_genome(path: Path, ident: int) -> np.ndarray:
    """Individual ``ident``'s genome from a large-genome run's ``individuals/gen_XXXX.npz``."""
    with np.load(path, allow_pickle=False) as z:
        ids = z["ids"].tolist()
        if ident not in ids:
            raise RunDirError(f"{path}: no individual {ident}")
        return z["genomes"][ids.index(ident)].astype(np.float64)


def load_run(path: str | os.PathLike) -> RunData:
    """Read ``generations.csv`` and the Hydra overrides of the run at ``path``."""
    path = Path(path)
    if not path.is_dir():
        raise RunDirError(f"{path}: no such run directory")
    if not (path / "generations.csv").is_file():
        raise RunDirError(f"{path}: not a run directory (no generations.csv)")
    generations = _read_csv(path / "generations.csv", GENERATION_COLUMNS)
    if generations.empty:
        raise RunDirError(f"{path / 'generations.csv'}: no generations recorded yet")
    not_numbers = [c for c in GENERATION_COLUMNS
                   if not pd.api.types.is_numeric_dtype(generations[c])]
    if not_numbers:
        raise RunDirError(f"{path / 'generations.csv'}: non-numeric values in column "
                          f"{', '.join(not_numbers)}")
    generations = generations.sort_values("generation", ignore_index=True)
    overrides = read_overrides(path)
    return RunData(path, generations, overrides, label=" ".join(overrides) or path.name)


def load_runs(paths) -> list[RunData]:
    """Load runs (a sweep folder expands to its jobs) and label each by the overrides that
    differ between them, so a multirun comparison legend shows only what the sweep changed."""
    runs = [load_run(p) for path in paths for p in find_runs(path)]
    for run, label in zip(runs, distinct_labels([r.overrides for r in runs]), strict=True):
        run.label = label or run.path.name
    return runs


def read_overrides(path: Path) -> list[str]:
    """The command-line overrides Hydra recorded for the run (``[]`` if none/not a Hydra run)."""
    file = Path(path) / ".hydra" / "overrides.yaml"
    if not file.is_file():
        return []
    try:
        overrides = yaml.safe_load(file.read_text()) or []
    except yaml.YAMLError as exc:
        raise RunDirError(f"{file}: not valid YAML ({exc.__class__.__name__})") from None
    # hydra.* settings (output folders, job names) say where a run went, not what it did.
    return [str(o) for o in overrides if not str(o).lstrip("+~").startswith("hydra.")]


def distinct_labels(overrides: list[list[str]]) -> list[str]:
    """Per run, the overrides not shared by every run (all of them when there is one run)."""
    if len(overrides) < 2:
        return [" ".join(o) for o in overrides]
    common = set.intersection(*(set(o) for o in overrides))
    return [" ".join(o for o in run if o not in common) for run in overrides]


def find_runs(path: str | os.PathLike) -> list[Path]:
    """``path`` itself if it is a run directory, else the run directories below it (a Hydra
    multirun sweep folder holds one numbered folder per job), sorted by name."""
    path = Path(path)
    if (path / "generations.csv").is_file() or not path.is_dir():
        return [path]  # a non-run is reported by load_run with the reason
    runs = sorted({f.parent for f in path.glob("**/generations.csv")},
                  key=lambda p: [int(s) if s.isdigit() else s for s in re.split(r"(\d+)", str(p))])
    return runs or [path]


def newest_run_dirs(root: str | os.PathLike) -> list[Path]:
    """The most recent run under ``root/outputs`` and ``root/multirun``; when it belongs to a
    multirun sweep, all runs of that sweep. ``[]`` if there is none."""
    root = Path(root)
    candidates = [f.parent for base in ("outputs", "multirun") if (root / base).is_dir()
                  for f in (root / base).glob("**/generations.csv")]
    if not candidates:
        return []
    newest = max(candidates, key=lambda p: (p / "generations.csv").stat().st_mtime)
    sweep = newest.parent
    if (sweep / "multirun.yaml").is_file():
        return find_runs(sweep)
    return [newest]


def select_run_dirs(run_dirs, root: str | os.PathLike) -> list[Path]:
    """The runs a notebook shows: ``BOARD_EVOLVE_RUNS`` (os.pathsep-separated) when set, else
    ``run_dirs`` (relative paths are taken from the repository ``root``), else the newest run
    under ``root``. Raises ``RunDirError`` when there is nothing to show."""
    root = Path(root)
    value = os.environ.get(RUNS_ENV_VAR, "").strip()
    chosen = [p for p in value.split(os.pathsep) if p] if value else list(run_dirs or [])
    paths = [root / p if not Path(p).is_absolute() else Path(p) for p in chosen]
    if not paths:
        paths = newest_run_dirs(root)
    if not paths:
        raise RunDirError(f"no run directories: set RUN_DIRS or {RUNS_ENV_VAR}, or make a run "
                          f"first (python -m evolve +experiment=smoke) under {root / 'outputs'}")
    return paths


def _read_csv(file: Path, required: tuple[str, ...]) -> pd.DataFrame:
    if not file.is_file():
        raise RunDirError(f"{file}: missing")
    try:
        _check_row_lengths(file)
        frame = pd.read_csv(file)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError,
            csv.Error) as exc:
        raise RunDirError(f"{file}: not a readable CSV file ({exc})") from None
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise RunDirError(f"{file}: missing columns {', '.join(missing)}")
    return frame


def _check_row_lengths(file: Path) -> None:
    """pandas fills a short row with NaN without a word (a run killed mid-write, a file edited
    by hand); refuse every row whose field count differs from the header's."""
    with open(file, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows, None)
        if header is None:
            return  # empty: pandas reports it
        for row in rows:
            if row and len(row) != len(header):
                raise RunDirError(f"{file}: line {rows.line_num} has {len(row)} fields, the "
                                  f"header has {len(header)}")


def _load_champion_file(file: Path):
    """The champion in ``file``, read once (the game that recognises its header reads it)."""
    from engine.core.champions.files import load_champion
    from engine.core.game import ChampionFileError

    if not file.is_file():
        raise RunDirError(f"{file}: missing")
    try:
        return load_champion(file)
    except (ChampionFileError, ValueError) as exc:
        message = str(exc) if str(file) in str(exc) else f"{file}: {exc}"
        raise RunDirError(message) from None
