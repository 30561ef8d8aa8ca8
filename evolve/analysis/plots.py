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
    "best_fitness": "best fitness",
    "yardstick_score": "yardstick score",
    "diversity": "diversity",
}


def plot_fitness(run: RunData) -> Figure:
    """Best / mean / min fitness per generation, mean +- one standard deviation shaded.

    Round-robin fitness is relative to the current population, so a flat curve here does not
    mean no progress: the yardstick figure measures against fixed opponents."""
    g = run.generations
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    x = g["generation"]
    ax.fill_between(x, g["mean_fitness"] - g["std_fitness"], g["mean_fitness"] + g["std_fitness"],
                    alpha=0.25, color="tab:blue", label="mean ± std")
    ax.plot(x, g["best_fitness"], "-o", color="tab:green", ms=3, label="best")
    ax.plot(x, g["mean_fitness"], "-", color="tab:blue", label="mean")
    ax.plot(x, g["min_fitness"], "-", color="tab:red", lw=1, label="min")
    _finish(ax, "fitness (population round robin)", "fitness")
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
    g = run.generations
    fig, ax = plt.subplots(figsize=(7, 3), layout="constrained")
    ax.plot(g["generation"], g["diversity"], "-o", color="tab:purple", ms=3)
    _finish(ax, None, "diversity")
    _title(ax, "Population diversity per generation", run)
    return fig


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
            ax.plot(g["generation"], g[metric], "-o", ms=2, color=colour, label=run.label)
        ax.set_xlabel("generation")
        ax.set_title(COMPARISON_METRICS.get(metric, metric), fontsize=10)
        ax.grid(alpha=0.3)
    fig.legend(*axes[0][0].get_legend_handles_labels(), fontsize=7, loc="outside lower center",
               ncols=min(len(runs), 4))
    fig.suptitle(f"Comparison of {len(runs)} run(s)", fontsize=11)
    return fig


def run_figures(run: RunData) -> dict[str, Figure]:
    """All per-run curve figures by file stem (what ``evolve.analysis.report`` writes)."""
    return {"fitness": plot_fitness(run), "yardstick": plot_yardstick(run),
            "diversity": plot_diversity(run)}


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
