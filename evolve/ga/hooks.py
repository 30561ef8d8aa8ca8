"""Run outputs, attached to the loop as hooks: CSV tables, champion files, the fitness plot and
a log line per generation. Each hook has ``on_generation(report)``; ``resume(generation)`` drops
rows written after the last checkpoint (a run killed between the CSV write and the checkpoint
would otherwise list that generation twice).
"""

from __future__ import annotations

import csv
import logging
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.core.game import DRAW, Game, moves_text
from evolve.ga.population import Population
from evolve.ga.tournament import GameResult, GameTask, Standings

log = logging.getLogger("evolve")

GENERATION_COLUMNS = ["generation", "best_fitness", "mean_fitness", "min_fitness", "std_fitness",
                      "yardstick_score", "diversity", "games", "wall_seconds"]
# after the yardstick columns: the champion's Elo against the panel (every panel agent rated 0)
# with its 95% CI, the elite's round-robin score, the champion's score against the hall of fame
# (earlier champions; evolve.ga.progress), then ``diversity_<group>`` per block kind and phase
PROGRESS_COLUMNS = ["champion_elo", "champion_elo_low", "champion_elo_high", "elite_score",
                    "hall_of_fame_score"]
INDIVIDUAL_COLUMNS = ["generation", "id", "parent_a", "parent_b", "operator", "fitness", "wins",
                      "draws", "losses"]


def game_columns(game: Game) -> list[str]:
    """``games.csv`` columns: Reversi's are those of earlier versions plus plies and moves."""
    first, second = game.players
    return ["generation", "pairing", "game", f"{first}_id", f"{second}_id", "opening",
            *game.result_columns, "winner", "plies", "moves"]


@dataclass
class ChampionRecord:
    """A generation's champion: its genome and what its file says about it."""

    genome: np.ndarray
    name: str
    metadata: dict


@dataclass
class GenerationReport:
    generation: int
    generations: int  # total planned
    population: Population
    standings: Standings
    games: list[tuple[GameTask, GameResult]]  # round robin
    yardstick: dict[str, float]  # panel opponent -> champion's score fraction
    yardstick_games: list[tuple[GameTask, GameResult]]
    champion_index: int
    champion: ChampionRecord
    diversity: float
    wall_seconds: float
    elapsed: float  # since the run started, including before a resume
    diversity_groups: dict = field(default_factory=dict)
    elite_score: float = math.nan
    champion_elo: object = None  # evolve.arena.elo.EloEstimate once the yardstick is in
    hall_of_fame_score: float = math.nan  # the champion's score against earlier champions
    joins_hall_of_fame: bool = False
    anchor_labels: dict = field(default_factory=dict)  # genome index -> label (hall of fame)
    fitness_labels: dict = field(default_factory=dict)  # the same for the fitness games


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
                 diversity_groups: list[str] = ()):
        self.generations = CsvTable(run_dir / "generations.csv",
                                    GENERATION_COLUMNS + [f"yardstick_{p}" for p in panel]
                                    + PROGRESS_COLUMNS
                                    + [f"diversity_{g}" for g in diversity_groups])
        self.diversity_groups = list(diversity_groups)
        self.individuals = CsvTable(run_dir / "individuals.csv", INDIVIDUAL_COLUMNS + gene_names)
        self.games = CsvTable(run_dir / "games.csv", game_columns(game))
        self.yardstick_games = CsvTable(run_dir / "yardstick_games.csv", game_columns(game))
        self.panel, self.game = panel, game

    def resume(self, generation: int) -> None:
        for table in (self.generations, self.individuals, self.games, self.yardstick_games):
            table.truncate_after(generation)

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
        self.individuals.append([
            [g, pop.ids[i], pop.parent_a[i], pop.parent_b[i], pop.operator[i], fit[i], s.wins[i],
             s.draws[i], s.losses[i], *pop.genomes[i].tolist()] for i in range(len(pop))])
        self.games.append([self._row(g, t, res, pop, r.fitness_labels) for t, res in r.games])
        self.yardstick_games.append([self._row(g, t, res, pop, r.anchor_labels)
                                     for t, res in r.yardstick_games])

    def _row(self, g: int, t: GameTask, res: GameResult, pop: Population, labels: dict) -> list:
        def who(x):
            if not isinstance(x, int | np.integer):
                return x
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


class FitnessPlot:
    """``fitness.png``: the champion's Elo against the anchors with its 95% CI (absolute
    progress), the elite's round-robin score and the fitness spread (relative), the yardstick
    per opponent, and diversity per block kind and phase."""

    def __init__(self, run_dir: Path):
        self.path = run_dir / "fitness.png"
        self.csv = run_dir / "generations.csv"

    def on_generation(self, r: GenerationReport) -> None:
        # the object-oriented API (no pyplot state) and fixed margins instead of tight_layout:
        # this runs in the driver every generation, on a CPU the game workers also want
        import pandas as pd
        from matplotlib.figure import Figure

        from evolve.analysis.plots import plot_champion_elo

        df = pd.read_csv(self.csv)
        fig = Figure(figsize=(12, 7.5))
        fig.subplots_adjust(left=0.07, right=0.98, bottom=0.08, top=0.95, wspace=0.22,
                            hspace=0.32)
        axes = fig.subplots(2, 2)
        x = df["generation"]
        plot_champion_elo(axes[0, 0], df)
        ax = axes[0, 1]
        if "elite_score" in df:
            ax.plot(x, df["elite_score"], marker=".", label="elite's round-robin score")
        ax.set(xlabel="generation", ylabel="score fraction", ylim=(-0.05, 1.05),
               title="Population (relative: zero-sum round robin)")
        twin = ax.twinx()
        twin.plot(x, df["best_fitness"] - df["min_fitness"], "--", color="tab:gray",
                  label="fitness spread (best - worst)")
        twin.set_ylabel("fitness spread")
        ax.legend(loc="upper left", fontsize="small")
        twin.legend(loc="upper right", fontsize="small")
        ax = axes[1, 0]
        for col in [c for c in df.columns if c.startswith("yardstick_") and c != "yardstick_score"]:
            ax.plot(x, df[col], marker=".", label=col.removeprefix("yardstick_"))
        ax.plot(x, df["yardstick_score"], "k-", lw=2, label="mean")
        ax.set(xlabel="generation", ylabel="champion score vs panel", ylim=(-0.05, 1.05),
               title="Yardstick")
        ax.legend(fontsize="small")
        ax = axes[1, 1]
        ax.plot(x, df["diversity"], "k-", lw=2, label="all genes")
        for col in [c for c in df.columns if c.startswith("diversity_")]:
            ax.plot(x, df[col], lw=1, label=col.removeprefix("diversity_"))
        ax.set(xlabel="generation", ylabel="mean gene std / bound range", title="Diversity")
        ax.legend(fontsize="x-small", ncols=2)
        tmp = self.path.with_name(".fitness.tmp.png")
        fig.savefig(tmp, dpi=80)
        tmp.replace(self.path)


class ProgressLog:
    """One log line per generation with elapsed time and ETA."""

    def __init__(self, start_generation: int, elapsed_before: float):
        self.start_generation, self.elapsed_before = start_generation, elapsed_before

    def on_generation(self, r: GenerationReport) -> None:
        done = r.generation - self.start_generation + 1
        per_gen = (r.elapsed - self.elapsed_before) / done
        eta = per_gen * (r.generations - r.generation - 1)
        yard = " ".join(f"{k}={v:.2f}" for k, v in r.yardstick.items())
        fit, elo = r.standings.fitness, r.champion_elo
        strength = "" if elo is None else \
            f"  Elo {elo.elo:+.0f} [{elo.elo_low:+.0f}, {elo.elo_high:+.0f}]"
        log.info("gen %d/%d  best %.0f%s  yardstick[%s]  diversity %.3f  %d games %.1fs  "
                 "elapsed %s  ETA %s",
                 r.generation + 1, r.generations, fit.max(), strength, yard, r.diversity,
                 len(r.games) + len(r.yardstick_games), r.wall_seconds, _hms(r.elapsed), _hms(eta))


def _hms(seconds: float) -> str:
    m, s = divmod(int(round(seconds)), 60)
    return f"{m // 60}:{m % 60:02d}:{s:02d}"
