"""What each figure of ``python -m evolve.report`` shows and how to read it: the caption under
the figure in ``report.md`` (the notebooks say the same in their Markdown cells)."""

from __future__ import annotations

from evolve.analysis.names import elo_range
from evolve.analysis.rundata import RunData

__all__ = ["caption", "elo_range"]


def caption(stem: str, run: RunData, title: str = "") -> str:
    """The caption of figure ``stem`` of ``run``. A game's own figure (``genome_figures``) gets
    its title and where it comes from: the game knows what its genome means, the report not."""
    known = {"strength": strength, "fitness": fitness, "yardstick": yardstick,
             "diversity": diversity}
    if stem in known:
        return known[stem](run)
    subject = f"{title}: " if title else ""
    return (f"{subject}drawn by the game from the champion's genome (and, where it shows "
            "generations, from each generation's champion in champions/gen_XXXX.json, "
            "0-based).")


def strength(run: RunData) -> str:
    g = run.generations
    if "champion_elo" not in g or g["champion_elo"].isna().all():
        return ("Champion strength: not recorded in this run (no champion_elo in "
                "generations.csv), so only the relative fitness below and the yardstick score "
                "show progress.")
    last = g.iloc[-1]
    shown = elo_range(last["champion_elo"], last["champion_elo_low"], last["champion_elo_high"])
    return (f"Each generation's champion rated against the fixed yardstick panel (rated 0), "
            f"with its 95% confidence interval: absolute progress, independent of the rest of "
            f"the population. Generation {int(last['generation'])}: "
            f"{shown}. An interval with no upper (lower) end, from a 100% (0%) score or from "
            "too few games to exclude one, is drawn to the edge of the plot with a marker.")


def fitness(run: RunData) -> str:
    games = run.config.get("games", {}) if isinstance(run.config.get("games"), dict) else {}
    points = (f" (win {games['win']:g}, draw {games['draw']:g}, loss {games['loss']:g} per "
              "game)" if {"win", "draw", "loss"} <= set(games) else "")
    if run.zero_sum:
        what = (f"Fitness is the points{points} each individual took in the round robin "
                "within its own population: zero-sum, so the mean is 0 every generation and "
                "a falling best can mean a stronger, more even population.")
    else:
        what = ("Fitness is a weighted mean of points per game against the population, fixed "
                "references and earlier champions (the run's fitness.* weights); the dashed "
                "line is its population mean.")
    elite = (" The dotted line (right axis) is the elites' score fraction in the games that "
             "made their fitness." if "elite_score" in run.generations else "")
    return (f"Best and worst individual per generation, the band between them the population's "
            f"range. {what}{elite} Relative to the population: the strength figure measures "
            "against fixed opponents.")


def yardstick(run: RunData) -> str:
    if run.generations["yardstick_score"].isna().all():
        return "Yardstick: off in this run (yardstick.enabled=false)."
    deeper = (" 'N plies deeper' opponents search N plies more than the run's own search."
              if any("@d" in o for o in run.yardstick_opponents) else "")
    return ("Each generation's champion against the fixed panel of reference agents (the same "
            "opponents and openings every generation): its score fraction (win 1, draw 1/2) "
            f"against each opponent, dashed, and their mean, solid.{deeper} Above the dotted "
            "50% line the champion beats that opponent more often than not.")


def diversity(run: RunData) -> str:
    groups = [c for c in run.generations.columns if c.startswith("diversity_")]
    split = (" Thin lines split it by kind of gene and by game phase (phase 0 = the opening "
             "phase)." if groups else "")
    return ("How different the individuals are: each gene's standard deviation across the "
            "population divided by the width of its allowed range, averaged over the genes "
            f"(0 = every individual identical).{split} A value that falls to near 0 early "
            "means the search has stopped exploring.")

