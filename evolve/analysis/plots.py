"""Figures of a GA run: strength, fitness, yardstick, diversity, run comparison.

Each function takes loaded run data (``evolve.analysis.rundata``) and returns a matplotlib
``Figure``; ``python -m evolve.report`` saves them as PNG files (with the captions of
``evolve.analysis.captions``) and the notebooks show them, so both show the same figures. Every
axis is labelled, legends sit below the axes (never over a curve or an axis label) and name
what each line is; generations are 0-based, as ``generations.csv`` counts them. The weight
figures (Reversi: heatmaps, feature bars, weight history) are the game's (``genome_figures``).
"""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from evolve.analysis.names import diversity_label, opponent_label
from evolve.analysis.rundata import RunData

COMPARISON_METRICS = {  # column: panel title
    "champion_elo": "champion strength",
    "best_fitness": "best fitness",
    "yardstick_score": "champion vs the yardstick panel",
    "diversity": "population diversity",
}
COMPARISON_UNITS = {
    "champion_elo": "Elo vs the yardstick panel (panel = 0)",
    "best_fitness": "fitness of the best individual",
    "yardstick_score": "score fraction (win 1, draw 1/2)",
    "diversity": "gene std / gene range",
}
GENERATION_AXIS = "generation (0 = the initial population)"


def plot_fitness(run: RunData) -> Figure:
    """Best and worst fitness per generation (the population's range), the mean when it is not
    0 by construction, and the elites' round-robin score fraction on a right axis."""
    g = run.generations
    fig, ax = plt.subplots(figsize=(7, 4.8), layout="constrained")
    x = g["generation"]
    ax.fill_between(x, g["min_fitness"], g["best_fitness"], alpha=0.15, color="tab:blue",
                    label="range of the population (worst to best)")
    ax.plot(x, g["best_fitness"], "-o", color="tab:green", ms=3, label="best individual")
    ax.plot(x, g["min_fitness"], "-", color="tab:red", lw=1, label="worst individual")
    if not run.zero_sum:
        ax.plot(x, g["mean_fitness"], "--", color="tab:blue", lw=1, label="population mean")
    ax.set_ylabel("fitness: round-robin points (mean 0)" if run.zero_sum
                  else "fitness: weighted points per game")
    axes = [ax]
    if "elite_score" in g and g["elite_score"].notna().any():
        twin = ax.twinx()
        twin.plot(x, g["elite_score"], ":", color="black",
                  label="elites' score fraction in their fitness games (right axis)")
        twin.set_ylim(-0.02, 1.02)
        twin.set_ylabel("elites' score fraction (win 1, draw 1/2)")
        axes.append(twin)
    relative = " (relative to the population)" if run.zero_sum else ""
    _finish(fig, axes, f"Fitness per generation{relative}", run)
    return fig


def plot_yardstick(run: RunData) -> Figure:
    """The champion's score fraction (win 1, draw 1/2) against the fixed panel: the mean and
    each opponent."""
    g = run.generations
    fig, ax = plt.subplots(figsize=(7, 4.8), layout="constrained")
    x = g["generation"]
    ax.plot(x, g["yardstick_score"], "-o", color="black", lw=2, ms=3,
            label="mean over the panel")
    for opponent in run.yardstick_opponents:
        ax.plot(x, g[f"yardstick_{opponent}"], "--", lw=1, label=opponent_label(opponent))
    ax.axhline(0.5, color="grey", lw=0.8, ls=":", label="50%: as strong as the opponent")
    if g["yardstick_score"].isna().all():
        _no_data(ax, "no yardstick in this run (yardstick.enabled=false)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_ylabel("champion's score fraction (win 1, draw 1/2)")
    _finish(fig, [ax], "Champion against the fixed yardstick panel", run)
    return fig


def plot_diversity(run: RunData) -> Figure:
    """All genes, and per block kind and per phase when the run recorded them."""
    g = run.generations
    fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    ax.plot(g["generation"], g["diversity"], "-o", color="black", lw=2, ms=3, label="all genes")
    for col in [c for c in g.columns if c.startswith("diversity_")]:
        ax.plot(g["generation"], g[col], "-", lw=1, label=diversity_label(col))
    ax.set_ylim(bottom=0)
    ax.set_ylabel("diversity: gene std / gene range")
    _finish(fig, [ax], "Population diversity per generation", run)
    return fig


def plot_strength(run: RunData) -> Figure:
    """The champion's Elo against the fixed anchors with its 95% CI (absolute progress)."""
    fig, ax = plt.subplots(figsize=(7, 4.8), layout="constrained")
    plot_champion_elo(ax, run.generations, legend=False)
    _finish(fig, [ax], "Champion strength per generation (absolute)", run)
    return fig


def plot_champion_elo(ax, df, legend: bool = True) -> None:
    """Champion Elo per generation with its 95% CI band, drawn into ``ax`` (also used by the
    GA's ``fitness.png``), with a legend inside the axes unless ``legend`` is false. An
    interval's missing end (a 100% or 0% score, or one the interval cannot exclude) is drawn
    at the edge of the plot with a marker."""
    ax.set(xlabel="generation", ylabel="Elo vs the yardstick panel (panel = 0)",
           title="Champion strength (absolute, 95% CI)")
    if "champion_elo" not in df or df["champion_elo"].isna().all():
        why = ("this run recorded no champion Elo (generations.csv has no champion_elo: a run "
               "made before it existed)" if "champion_elo" not in df
               else "no yardstick games in this run (yardstick.enabled=false)")
        _no_data(ax, why)
        return
    finite = df[["champion_elo", "champion_elo_low", "champion_elo_high"]].replace(
        [np.inf, -np.inf], np.nan)
    span = np.nanmax(np.abs(finite.to_numpy())) if finite.notna().any().any() else 400.0
    edge = max(400.0, 1.1 * span)
    x = df["generation"]
    low, high = df["champion_elo_low"].clip(-edge, edge), df["champion_elo_high"].clip(-edge, edge)
    ax.fill_between(x, low, high, alpha=0.25, label="95% confidence interval")
    ax.plot(x, df["champion_elo"].clip(-edge, edge), "-o", ms=3, label="champion's Elo")
    unbounded = np.isinf(df["champion_elo_high"]) | np.isinf(df["champion_elo_low"])
    if unbounded.any():
        ends = np.where(np.isinf(df["champion_elo_high"]), edge, -edge)[unbounded]
        ax.plot(x[unbounded], ends, "^", color="tab:blue", ms=5, ls="none",
                label="interval with no upper or lower end: drawn to the edge")
    ax.axhline(0.0, color="gray", lw=0.8)
    if legend:
        ax.legend(loc="upper left", fontsize="small")
    _integer_generations(ax)


def plot_comparison(runs: list[RunData], metrics=tuple(COMPARISON_METRICS)) -> Figure:
    """Several runs (e.g. the jobs of a multirun sweep) on one figure, one panel per metric,
    each run labelled by the overrides that distinguish it."""
    if not runs:
        raise ValueError("plot_comparison needs at least one run")
    fig, axes = plt.subplots(1, len(metrics), figsize=(4.5 * len(metrics), 4.2),
                             layout="constrained", squeeze=False)
    colours = plt.cm.viridis(np.linspace(0, 0.9, len(runs)))
    for ax, metric in zip(axes[0], metrics, strict=True):
        for run, colour in zip(runs, colours, strict=True):
            g = run.generations
            if metric in g:  # runs made before a column existed lack it
                ax.plot(g["generation"], g[metric].replace([np.inf, -np.inf], np.nan), "-o",
                        ms=2, color=colour, label=run.label)
        if not ax.get_lines():
            _no_data(ax, f"no run recorded {metric}")
        ax.set_xlabel("generation")
        ax.set_ylabel(COMPARISON_UNITS.get(metric, metric))
        ax.set_title(COMPARISON_METRICS.get(metric, metric), fontsize=10)
        ax.grid(alpha=0.3)
    handles = {line.get_label(): line for ax in axes[0] for line in ax.get_lines()}
    fig.legend(handles.values(), handles.keys(), fontsize=7, loc="outside lower center",
               ncols=min(len(runs), 4), title="run (overrides that differ)", title_fontsize=7)
    fig.suptitle(f"Comparison of {len(runs)} run(s)", fontsize=11)
    return fig


def run_figures(run: RunData) -> dict[str, Figure]:
    """All per-run curve figures by file stem (what ``evolve.analysis.report`` writes)."""
    return {"strength": plot_strength(run), "fitness": plot_fitness(run),
            "yardstick": plot_yardstick(run), "diversity": plot_diversity(run)}


def _title(what: str, run: RunData) -> str:
    """The figure's subject, then the run's label (its overrides) wrapped to the figure width."""
    label = textwrap.fill(run.label, 90) if run.label else ""
    return f"{what}\n{label}".strip()


def _finish(fig, axes, what: str, run: RunData) -> None:
    """Title, generation axis, grid, and one legend below the axes for all of ``axes``."""
    ax = axes[0]
    ax.set_title(_title(what, run), fontsize=9)
    ax.set_xlabel(GENERATION_AXIS)
    ax.grid(alpha=0.3)
    _integer_generations(ax)
    handles = [h for a in axes for h in a.get_legend_handles_labels()[0]]
    labels = [label for a in axes for label in a.get_legend_handles_labels()[1]]
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncols=2, fontsize=8,
                   frameon=False)


def _integer_generations(ax) -> None:
    """Whole generation numbers on the x axis (unless the axes were emptied by ``_no_data``)."""
    locator = ax.xaxis.get_major_locator()
    if isinstance(locator, MaxNLocator):
        locator.set_params(integer=True)


def _no_data(ax, why: str) -> None:
    """Say why the axes are empty, with no meaningless ticks."""
    ax.text(0.5, 0.5, textwrap.fill(why, 60), ha="center", va="center", color="grey",
            transform=ax.transAxes)
    ax.set_xticks([])
    ax.set_yticks([])
