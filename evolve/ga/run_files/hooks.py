"""Run outputs, attached to the loop as hooks: CSV tables and champion files (the fitness plot
is ``evolve.ga.run_files.figure``, the log line ``evolve.ga.console``). Each hook has
``on_generation(report)``; ``CsvLogger.resume(generation)`` drops rows written after the last
checkpoint (a run killed between the CSV write and the checkpoint would otherwise list that
generation twice).
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.core.game import DRAW, Game, moves_text
from evolve.ga.population import Population
from evolve.ga.scoring.tournament import GameResult, GameTask, Standings

GENERATION_COLUMNS = ["generation", "best_fitness", "mean_fitness", "min_fitness", "std_fitness",
                      "yardstick_score", "diversity", "games", "wall_seconds"]
# after the yardstick columns: the champion's Elo against the panel (every panel agent rated 0)
# with its 95% CI, the elite's round-robin score, the champion's score against the hall of fame
# (earlier champions; evolve.ga.scoring.progress), then ``diversity_<group>`` per block kind and
# phase
PROGRESS_COLUMNS = ["champion_elo", "champion_elo_low", "champion_elo_high", "elite_score",
                    "hall_of_fame_score"]
# Larger genomes (n-tuple networks: 10^3-10^5 weights) keep their genes out of individuals.csv:
# one array file per generation, individuals/gen_XXXX.npz (genomes [population, genes], ids).
MAX_GENES_IN_CSV = 1000
INDIVIDUAL_COLUMNS = ["generation", "id", "parent_a", "parent_b", "operator", "fitness", "wins",
                      "draws", "losses"]


def game_columns(game: Game) -> list[str]:
    """``games.csv`` columns: Reversi's are those of earlier versions plus plies and moves."""
    first, second = game.players
    return ["generation", "pairing", "game", f"{first}_id", f"{second}_id", "opening",
            *game.result_columns, "winner", "plies", "moves"]


@dataclass(frozen=True)
class ChampionRecord:
    """A generation's champion: its genome and what its file says about it."""

    genome: np.ndarray
    name: str
    metadata: dict


@dataclass(frozen=True, kw_only=True)
class GenerationReport:
    """One generation as the hooks see it. The study builds it from the fitness games
    (``Study.score``); the yardstick's games (``evolve.ga.scoring.yardstick.collect``) and the wall
    time (``Study.finish``) complete a copy of it (``dataclasses.replace``)."""

    generation: int
    generations: int  # total planned
    population: Population
    standings: Standings
    games: list[tuple[GameTask, GameResult]]  # the fitness games
    fitness_labels: dict  # genome index -> label of the fitness games' fixed opponents
    champion_index: int
    champion: ChampionRecord
    diversity: float
    diversity_groups: dict
    elite_score: float
    # the yardstick: panel opponent -> the champion's score fraction, its games, its Elo
    # (evolve.arena.elo.EloEstimate) and its score against earlier champions
    yardstick: dict[str, float] = field(default_factory=dict)
    yardstick_games: list[tuple[GameTask, GameResult]] = field(default_factory=list)
    champion_elo: object = None
    hall_of_fame_score: float = math.nan
    joins_hall_of_fame: bool = False
    anchor_labels: dict = field(default_factory=dict)  # genome index -> label (hall of fame)
    wall_seconds: float = 0.0
    elapsed: float = 0.0  # since the run started, including before a resume


class CsvTable:
    """Append-only CSV with a fixed header."""

    def __init__(self, path: Path, columns: list[str]):
        self.path, self.columns = path, columns

    def append(self, rows: list[list]) -> None:
        new = not self.path.exists()
        with open(self.path, "a", newline="") as f:
            writer = csv.writer(f)
            if new:
                writer.writerow(self.columns)
            writer.writerows(rows)

    def truncate_after(self, generation: int) -> None:
        """Keep the rows of generations <= ``generation`` (none: start afresh). A row cut short
        by a kill has the wrong number of fields and is dropped too. A table an older version
        wrote with other columns gets this version's: each value under its name, a new column
        empty in the old rows."""
        if generation < 0 or not self.path.exists():
            self.path.unlink(missing_ok=True)
            return
        with open(self.path, newline="") as f:
            rows = list(csv.reader(f))
        header = rows[0] if rows else self.columns
        keep = [r for r in rows[1:] if len(r) == len(header) and int(r[0]) <= generation]
        if header != self.columns:
            keep = [[dict(zip(header, r, strict=True)).get(c, "") for c in self.columns]
                    for r in keep]
        with open(self.path, "w", newline="") as f:
            csv.writer(f).writerows([self.columns, *keep])


class CsvLogger:
    def __init__(self, run_dir: Path, game: Game, gene_names: list[str], panel: list[str],
                 diversity_groups: list[str] = (), label=str):
        """``panel``: the panel's labels; ``label``: a task's panel player (an agent spec, or
        a ``Champion``) as the tables name it, the text the config names it by."""
        self.generations = CsvTable(run_dir / "generations.csv",
                                    GENERATION_COLUMNS + [f"yardstick_{p}" for p in panel]
                                    + PROGRESS_COLUMNS
                                    + [f"diversity_{g}" for g in diversity_groups])
        self.diversity_groups = list(diversity_groups)
        self.genes_in_csv = len(gene_names) <= MAX_GENES_IN_CSV
        self.genome_dir = run_dir / "individuals"
        self.individuals = CsvTable(run_dir / "individuals.csv", INDIVIDUAL_COLUMNS
                                    + (list(gene_names) if self.genes_in_csv else []))
        self.games = CsvTable(run_dir / "games.csv", game_columns(game))
        self.yardstick_games = CsvTable(run_dir / "yardstick_games.csv", game_columns(game))
        self.panel, self.game, self.label = panel, game, label

    def resume(self, generation: int) -> None:
        for table in (self.generations, self.individuals, self.games, self.yardstick_games):
            table.truncate_after(generation)
        for later in self.genome_dir.glob("gen_*.npz") if self.genome_dir.is_dir() else ():
            if int(later.stem.removeprefix("gen_")) > generation:
                later.unlink()

    def on_generation(self, r: GenerationReport) -> None:
        fit, pop, g = r.standings.fitness, r.population, r.generation
        yard = [r.yardstick.get(p, math.nan) for p in self.panel]
        yard_mean = float(np.mean(yard)) if yard else math.nan
        elo = r.champion_elo
        progress = [math.nan] * 3 if elo is None else [elo.elo, elo.elo_low, elo.elo_high]
        self.generations.append([[g, fit.max(), fit.mean(), fit.min(), fit.std(), yard_mean,
                                  r.diversity, len(r.games) + len(r.yardstick_games),
                                  round(r.wall_seconds, 3), *yard, *progress, r.elite_score,
                                  r.hall_of_fame_score,
                                  *(r.diversity_groups.get(k, math.nan)
                                    for k in self.diversity_groups)]])
        s = r.standings
        genes = (lambda i: pop.genomes[i].tolist()) if self.genes_in_csv else (lambda i: [])
        self.individuals.append([
            [g, pop.ids[i], pop.parent_a[i], pop.parent_b[i], pop.operator[i], fit[i], s.wins[i],
             s.draws[i], s.losses[i], *genes(i)] for i in range(len(pop))])
        if not self.genes_in_csv:
            self.genome_dir.mkdir(exist_ok=True)
            np.savez_compressed(self.genome_dir / f"gen_{g:04d}.npz",
                                ids=np.asarray(pop.ids, np.int64),
                                genomes=np.asarray(pop.genomes, np.float64))
        self.games.append([self._row(g, t, res, pop, r.fitness_labels) for t, res in r.games])
        self.yardstick_games.append([self._row(g, t, res, pop, r.anchor_labels)
                                     for t, res in r.yardstick_games])

    def _row(self, g: int, t: GameTask, res: GameResult, pop: Population, labels: dict) -> list:
        def who(x):
            if not isinstance(x, int | np.integer):
                return self.label(x)
            return labels[int(x)] if int(x) in labels else int(pop.ids[x])

        winner = "draw" if res.winner == DRAW else self.game.players[res.winner]
        return [g, t.pairing, t.game, who(t.first), who(t.second),
                moves_text(self.game, t.opening), *res.details, winner, res.plies, res.moves]


class ChampionWriter:
    """``champion.json`` (rewritten each generation) and ``champions/gen_XXXX.json``."""

    def __init__(self, run_dir: Path, game: Game):
        self.run_dir, self.game = run_dir, game
        (run_dir / "champions").mkdir(parents=True, exist_ok=True)

    def on_generation(self, r: GenerationReport) -> None:
        c = r.champion
        self.game.save_champion(self.run_dir / "champions" / f"gen_{r.generation:04d}.json",
                                c.genome, c.name, c.metadata)
        tmp = self.run_dir / ".champion.json.tmp"
        self.game.save_champion(tmp, c.genome, c.name, c.metadata)
        tmp.replace(self.run_dir / "champion.json")
