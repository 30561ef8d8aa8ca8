"""What a person running ``python -m evolve`` reads: the first line (what runs, where its outputs
go), a legend of the per-generation line, that line (``ProgressLog``), the playoff's progress
bar, and a summary at the end (the champion, its Elo, the files, what to run next).

Generations are numbered from 0 everywhere, as ``generations.csv`` and ``champions/gen_XXXX``
number them: ``gen 4/29`` is generation 4 of 0..29.
"""

from __future__ import annotations

import logging
import math
import sys

from evolve.analysis.names import elo_range, opponent_label

log = logging.getLogger("evolve")


def hms(seconds: float) -> str:
    m, s = divmod(int(round(seconds)), 60)
    return f"{m // 60}:{m % 60:02d}:{s:02d}"


def generations_text(generations: int, first: int = 0) -> str:
    """``generations 0-29`` for 30 generations (``first``: the first one's number)."""
    last = first + generations - 1
    return f"generation {first}" if last == first else f"generations {first}-{last}"


def announce(config, run_dir: str, experiment: str | None = None) -> str:
    """The first line: the study and where its outputs go."""
    what = f"+experiment={experiment}" if experiment else "study"
    where = "serial (in this process)" if config.backend == "serial" else \
        f"Ray cluster {config.ray.address}" if config.ray.address else "local Ray"
    return (f"evolve: {what} ({config.game.name}, population {config.ga.population}, "
            f"{generations_text(config.ga.generations)}, search depth {config.search.depth}, "
            f"{where}); outputs and evolve.log in {run_dir}/")


def legend(config, panel: list[str]) -> str:
    """What each part of the per-generation line means (logged once, at the start)."""
    every = config.yardstick.hall_of_fame_every
    lines = [
        "each generation logs one line:",
        "  gen g/L       generation g of 0..L (0-based, as in generations.csv and "
        "champions/gen_XXXX.json)",
    ]
    if panel:
        deeper = [f"{p} = {opponent_label(p).removeprefix('vs ')}" for p in panel
                  if "@d" in p]
        lines += [
            "  Elo           the generation's champion against the yardstick panel (every panel "
            "agent rated 0), with its 95% CI",
            "  vs panel      its score (win 1, draw 1/2) against each panel agent"
            + (f" ({'; '.join(deeper)}; the study searches to depth {config.search.depth})"
               if deeper else ""),
        ]
        if every:
            lines.append(f"  vs hof        its score against earlier champions (the hall of "
                         f"fame: every {every}th generation's), not part of the Elo")
    lines += [
        f"  best          the best fitness in the population: {_fitness_text(config)}",
        "  diversity     mean spread of the genes (std / bound range; 0 = all identical)",
        "  games, s      games played for this generation and its wall time",
        "  elapsed, ETA  since the command started; time left, the final playoff included",
    ]
    return "\n".join(lines)


def _fitness_text(config) -> str:
    g, f = config.games, config.fitness
    points = f"win {_points(g.win)}, draw {_points(g.draw)}, loss {_points(g.loss)}"
    if f.references == 0 and f.hall_of_fame == 0:
        return f"its round-robin points ({points} per game), relative to this population"
    return (f"the weighted mean of its points per game ({points}) against the population, "
            "the fixed opponents and the hall of fame (docs/tuning.md)")


def _points(value: float) -> str:
    return f"{value:+g}" if value else "0"


class ProgressLog:
    """One log line per generation, with the elapsed time and an ETA from this process's
    generations (start-up excluded) plus an estimate for the final playoff."""

    def __init__(self, generations: int, playoff_games: int = 0):
        self.generations, self.playoff_games = generations, playoff_games
        self.wall = self.games = 0.0
        self.done = 0

    def on_generation(self, r) -> None:
        self.done += 1
        games = len(r.games) + len(r.yardstick_games)
        self.wall += r.wall_seconds
        self.games += games
        left = self.generations - r.generation - 1
        eta = self.wall / self.done * left + self.playoff_games * self.wall / max(self.games, 1)
        best = float(r.standings.fitness.max())  # summed points, or a mixed fitness's mean
        log.info("gen %d/%d  %s  best %s  diversity %.3f  %d games %.1f s  elapsed %s  ETA %s",
                 r.generation, self.generations - 1, _strength(r),
                 f"{best:+.0f}" if best.is_integer() else f"{best:+.2f}", r.diversity, games,
                 r.wall_seconds, hms(r.elapsed), hms(eta))


def _strength(r) -> str:
    if r.champion_elo is None:
        return "(no yardstick)"
    e = r.champion_elo
    panel = " ".join(f"{k} {v:.2f}" for k, v in r.yardstick.items())
    hof = "" if math.isnan(r.hall_of_fame_score) else f"  vs hof {r.hall_of_fame_score:.2f}"
    return f"Elo {elo_range(e.elo, e.elo_low, e.elo_high)}  vs panel {panel}{hof}"


def progress_bar(total: int, what: str, enabled: bool):
    """A tqdm bar with ETA on a terminal (None otherwise: a log file gets the lines alone)."""
    if not (enabled and sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=what, unit="game", file=sys.stderr, leave=False)


def summary(result, elapsed: float) -> str:
    """The end of a run (``result``: an ``evolve.ga.study.RunResult``): the champion, its Elo,
    where the files are, what to run next."""
    import pandas as pd

    d, c = result.run_dir, result.config
    selection = result.champion.metadata.get("selection", {})
    g = selection.get("generation", result.generation)
    how = f"won the playoff among generations {_listed(selection['candidates'])}" \
        if selection.get("method") == "playoff" else "best of its generation's round robin"
    first = f"done in {hms(elapsed)}: the champion is generation {g}'s ({how})"
    gens = pd.read_csv(d / "generations.csv") if (d / "generations.csv").exists() else None
    if gens is not None and "champion_elo" in gens and g in set(gens.generation):
        row = gens[gens.generation == g].iloc[0]
        if not math.isnan(row.champion_elo):
            elo = elo_range(row.champion_elo, row.champion_elo_low, row.champion_elo_high)
            first += f", Elo {elo} against the yardstick panel"
    files = [f for f in ("champion.json", "generations.csv", "games.csv", "fitness.png",
                         "playoff.csv", "evolve.log") if (d / f).exists()]
    vs = f" --vs {' '.join(result.panel)}" if result.panel else ""
    # measured as it was evolved: with the study's random moves, if any
    vs += f" --epsilon {c.games.epsilon:g}" if c.games.epsilon else ""
    return "\n".join([
        first, f"files in {d}/: {', '.join(files)}", "next:",
        f"  python -m engine.play --opponent {d / 'champion.json'}   # play against it",
        f"  python -m evolve.evaluate {d / 'champion.json'}{vs} --depth {c.search.depth} "
        f"--endgame-empties {c.search.endgame_empties} --games 200   # measure it",
        f"  python -m evolve.report {d}   # figures and report.md",
        f"  python -m evolve resume={d} ga.generations={c.ga.generations + 10}   # evolve "
        f"10 more generations"])


def _listed(generations: list[int]) -> str:
    return ", ".join(map(str, generations))
