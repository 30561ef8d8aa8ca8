"""``fitness.png``, redrawn from ``generations.csv`` after every generation: the champion's Elo
against the panel with its 95% CI (absolute progress), the population's round-robin numbers
(relative), the champion's score against each panel agent and the hall of fame, and diversity.
Every axis says what it measures and every legend entry what its line is; legends sit below
their panel, off the curves.
"""

from __future__ import annotations

from pathlib import Path

from evolve.analysis.names import diversity_label, opponent_label
from evolve.analysis.plots import plot_champion_elo

GENERATION_AXIS = "generation (0-based)"


class FitnessPlot:
    """The hook that writes ``fitness.png`` (atomically: a reader never sees half a file)."""

    def __init__(self, run_dir: Path):
        self.path = run_dir / "fitness.png"
        self.csv = run_dir / "generations.csv"

    def on_generation(self, report) -> None:
        import pandas as pd

        fig = figure(pd.read_csv(self.csv))
        tmp = self.path.with_name(".fitness.tmp.png")
        fig.savefig(tmp, dpi=80)
        tmp.replace(self.path)


def figure(df):
    """The four panels of ``fitness.png`` for a ``generations.csv`` table."""
    # the object-oriented API: no pyplot state in the driver, which draws this every generation
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(12, 9), layout="constrained")
    axes = fig.subplots(2, 2)
    strength(axes[0, 0], df)
    population(axes[0, 1], df)
    opponents(axes[1, 0], df)
    diversity(axes[1, 1], df)
    for ax in axes.flat:
        ax.set_xlabel(GENERATION_AXIS)
        ax.grid(alpha=0.3)
        # a panel left empty (no yardstick) has fixed ticks: replace, do not adjust
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return fig


def _legend_below(ax, *extra_axes, ncols: int = 2) -> None:
    handles, labels = ax.get_legend_handles_labels()
    for other in extra_axes:
        h, lab = other.get_legend_handles_labels()
        handles, labels = handles + h, labels + lab
    if handles:
        ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.14),
                  ncols=ncols, fontsize="small", frameon=False)


def strength(ax, df) -> None:
    """``evolve.analysis.plots.plot_champion_elo``, the report's strength figure, with the
    legend below like the other panels."""
    plot_champion_elo(ax, df, legend=False)
    ax.set_title("Champion strength (absolute)")
    _legend_below(ax)


def population(ax, df) -> None:
    ax.set(title="Population (relative: a zero-sum round robin)",
           ylabel="elite's score fraction (win 1, draw 1/2)", ylim=(-0.05, 1.05))
    x = df["generation"]
    if "elite_score" in df:
        ax.plot(x, df["elite_score"], "-o", ms=3, label="the elites' round-robin score (left)")
    twin = ax.twinx()
    twin.plot(x, df["best_fitness"] - df["min_fitness"], "--", color="tab:grey",
              label="fitness spread: best minus worst (right)")
    twin.set_ylabel("fitness spread (round-robin points)", color="tab:grey")
    twin.tick_params(axis="y", colors="tab:grey")
    _legend_below(ax, twin)


def opponents(ax, df) -> None:
    ax.set(title="Champion against fixed opponents", ylim=(-0.05, 1.05),
           ylabel="champion's score fraction (win 1, draw 1/2)")
    x = df["generation"]
    panel = [c for c in df.columns if c.startswith("yardstick_") and c != "yardstick_score"]
    for col in panel:
        ax.plot(x, df[col], marker=".", lw=1, label=opponent_label(col[len("yardstick_"):]))
    if panel:
        ax.plot(x, df["yardstick_score"], "k-", lw=2, label="mean over the panel")
    if "hall_of_fame_score" in df and df["hall_of_fame_score"].notna().any():
        ax.plot(x, df["hall_of_fame_score"], "--", color="tab:purple", lw=1.5,
                label="vs earlier champions (hall of fame; not in the Elo)")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    _legend_below(ax)


def diversity(ax, df) -> None:
    ax.set(title="Diversity (0: every individual identical)",
           ylabel="mean gene std / gene bound range")
    x = df["generation"]
    ax.plot(x, df["diversity"], "k-", lw=2, label="all genes")
    for col in [c for c in df.columns if c.startswith("diversity_")]:
        ax.plot(x, df[col], lw=1, label=diversity_label(col))
    _legend_below(ax, ncols=3)
