"""Figures of a GA run: fitness, yardstick, diversity, run comparison.

Each function takes loaded run data (``evolve.analysis.rundata``) and returns a matplotlib
``Figure``;
``python -m evolve.report`` saves them as PNG files and the notebooks show them, so both show the
same figures. The weight figures (heatmaps, feature bars, weight history) are in
``engine.reversi.heatmaps``.
"""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from evolve.analysis.rundata import RunData

COMPARISON_METRICS = {
    "champion_elo": "champion Elo vs anchors",
    "best_fitness": "best fitness",
    "yardstick_score": "yardstick score",
    "diversity": "diversity",
}


def plot_fitness(run: RunData) -> Figure:
    """Best and worst round-robin fitness per generation, and the elite's score fraction.

    Round-robin fitness is zero-sum (its mean is always 0) and relative to the current
    population, so a falling best fitness can mean a stronger, more even population: absolute
    progress is the strength figure (Elo against fixed anchors)."""
    g = run.generations
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    x = g["generation"]
    ax.fill_between(x, g["min_fitness"], g["best_fitness"], alpha=0.15, color="tab:blue",
                    label="spread (worst to best)")
    ax.plot(x, g["best_fitness"], "-o", color="tab:green", ms=3, label="best")
    ax.plot(x, g["min_fitness"], "-", color="tab:red", lw=1, label="worst")
    if "elite_score" in g:
        twin = ax.twinx()
        twin.plot(x, g["elite_score"], ":", color="black", label="elite's score (right)")
        twin.set_ylim(-0.02, 1.02)
        twin.set_ylabel("elite's round-robin score fraction")
        twin.legend(fontsize=8, loc="lower left")
    _finish(ax, "fitness (population round robin, zero-sum)", "fitness")
    _title(ax, "Fitness per generation", run)
    return fig


def plot_yardstick(run: RunData) -> Figure:
    """Score fraction (win 1, draw 0.5) against the fixed panel: total and per opponent."""
    g = run.generations
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    x = g["generation"]
    ax.plot(x, g["yardstick_score"], "-o", color="black", lw=2, ms=3, label="total")
    for opponent in run.yardstick_opponents:
        ax.plot(x, g[f"yardstick_{opponent}"], "--", lw=1, label=f"vs {opponent}")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    if g["yardstick_score"].isna().all():
        ax.text(0.5, 0.5, "no yardstick in this run (yardstick.enabled=false)",
                transform=ax.transAxes, ha="center", color="grey")
        ax.set_xlim(x.min() - 0.5, x.max() + 0.5)
    ax.set_ylim(-0.02, 1.02)
    _finish(ax, "champion vs yardstick panel", "score fraction")
    _title(ax, "Yardstick score per generation", run)
    return fig


def plot_diversity(run: RunData) -> Figure:
    """All genes, and per block kind and per phase when the run recorded them."""
    g = run.generations
    fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
    ax.plot(g["generation"], g["diversity"], "-o", color="tab:purple", ms=3, label="all genes")
    for col in [c for c in g.columns if c.startswith("diversity_")]:
        ax.plot(g["generation"], g[col], "-", lw=1, label=col.removeprefix("diversity_"))
    _finish(ax, None, "mean gene std / bound range")
    _title(ax, "Population diversity per generation", run)
    return fig


def plot_strength(run: RunData) -> Figure:
    """The champion's Elo against the fixed anchors with its 95% CI (absolute progress)."""
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    plot_champion_elo(ax, run.generations)
    _title(ax, "Champion strength per generation", run)
    return fig


def plot_champion_elo(ax, df) -> None:
    """Champion Elo per generation with its 95% CI band (an unbounded end, from a 0% or 100%
    score, is drawn at the edge of the plot)."""
    ax.set(xlabel="generation", ylabel="Elo vs anchors (panel = 0)",
           title="Champion strength (absolute, 95% CI)")
    if "champion_elo" not in df or df["champion_elo"].isna().all():
        ax.text(0.5, 0.5, "no yardstick games", ha="center", transform=ax.transAxes)
        return
    finite = df[["champion_elo", "champion_elo_low", "champion_elo_high"]].replace(
        [np.inf, -np.inf], np.nan)
    span = np.nanmax(np.abs(finite.to_numpy())) if finite.notna().any().any() else 400.0
    edge = max(400.0, 1.1 * span)
    low = df["champion_elo_low"].clip(-edge, edge)
    high = df["champion_elo_high"].clip(-edge, edge)
    ax.fill_between(df["generation"], low, high, alpha=0.25, label="95% CI")
    ax.plot(df["generation"], df["champion_elo"].clip(-edge, edge), "-o", ms=3,
            label="champion")
    ax.axhline(0.0, color="gray", lw=0.8)
    ax.legend(loc="upper left", fontsize="small")



def plot_comparison(runs: list[RunData], metrics=tuple(COMPARISON_METRICS)) -> Figure:
    """Several runs (e.g. the jobs of a multirun sweep) on one figure, one panel per metric,
    each run labelled by the overrides that distinguish it."""
    if not runs:
        raise ValueError("plot_comparison needs at least one run")
    fig, axes = plt.subplots(1, len(metrics), figsize=(4.5 * len(metrics), 4),
                             layout="constrained", squeeze=False)
    colours = plt.cm.viridis(np.linspace(0, 0.9, len(runs)))
    for ax, metric in zip(axes[0], metrics, strict=True):
        for run, colour in zip(runs, colours, strict=True):
            g = run.generations
            if metric in g:  # runs made before a column existed lack it
                ax.plot(g["generation"], g[metric].replace([np.inf, -np.inf], np.nan), "-o",
                        ms=2, color=colour, label=run.label)
        ax.set_xlabel("generation")
        ax.set_title(COMPARISON_METRICS.get(metric, metric), fontsize=10)
        ax.grid(alpha=0.3)
    fig.legend(*axes[0][0].get_legend_handles_labels(), fontsize=7, loc="outside lower center",
               ncols=min(len(runs), 4))
    fig.suptitle(f"Comparison of {len(runs)} run(s)", fontsize=11)
    return fig


def run_figures(run: RunData) -> dict[str, Figure]:
    """All per-run curve figures by file stem (what ``evolve.analysis.report`` writes)."""
    return {"strength": plot_strength(run), "fitness": plot_fitness(run),
            "yardstick": plot_yardstick(run), "diversity": plot_diversity(run)}


def _title(ax, what: str, run: RunData) -> None:
    """The figure's subject, then the run's label (its overrides) wrapped to the figure width."""
    label = textwrap.fill(run.label, 90) if run.label else ""
    ax.set_title(f"{what}\n{label}".strip(), fontsize=9)


def _finish(ax, title: str | None, ylabel: str) -> None:
    ax.set_xlabel("generation")
    ax.set_ylabel(ylabel)
    if title:
        ax.text(0.01, 0.99, title, transform=ax.transAxes, va="top", fontsize=8, color="grey")
    ax.grid(alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))  # off the curves
    ax.xaxis.get_major_locator().set_params(integer=True)
