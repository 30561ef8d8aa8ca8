"""Figures of evolved weights: positional heatmaps, feature weights, and their history.

Takes ``engine.reversi.genome.weights.Weights`` objects (a champion, or
``RunData.champion_history()``).
Heatmaps are drawn like a board diagram: files a..h left to right, rank 8 on top. The matrix is
row-major from a1 (row 0 = rank 1), so it is drawn with ``origin="lower"``.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from engine.reversi.rules.state import square

FILES = "abcdefgh"
# One square of each classic WPC square class: corner, C, A, B, X, and an inner square.
CHARACTERISTIC_SQUARES = ("a1", "b1", "c1", "d1", "b2", "c3")
_ANNOTATE_MAX_PHASES = 6  # above this the cells are too small to print the values


def phase_label(weights, phase: int) -> str:
    lo, hi = weights.phase_discs(phase)
    return f"phase {phase} (discs {lo}-{hi})"


def board_matrix(row: np.ndarray) -> np.ndarray:
    """64 weights a1..h8 as an 8x8 array indexed ``[rank - 1, file]``."""
    return np.asarray(row, dtype=np.float64).reshape(8, 8)


def plot_positional(weights, positional: np.ndarray | None = None, title: str | None = None,
                    cmap: str = "RdBu") -> Figure:
    """One heatmap per phase on a shared colour scale centred on 0 (blue = good for the mover).

    ``positional`` overrides ``weights.positional`` (e.g. a difference between two champions),
    ``weights`` still provides the phase labels."""
    matrix = np.asarray(weights.positional if positional is None else positional, np.float64)
    n = matrix.shape[0]
    cols = min(n, 4 if n <= 8 else 8)
    rows = math.ceil(n / cols)
    size = 2.8 if n <= 8 else 1.6
    fig, axes = plt.subplots(rows, cols, figsize=(size * cols + 1.2, size * rows + 0.6),
                             layout="constrained", squeeze=False)
    limit = float(np.max(np.abs(matrix))) or 1.0
    image = None
    for phase, ax in enumerate(axes.flat):
        if phase >= n:
            ax.set_axis_off()
            continue
        image = ax.imshow(board_matrix(matrix[phase]), origin="lower", cmap=cmap,
                          vmin=-limit, vmax=limit)
        _board_axes(ax, small=n > _ANNOTATE_MAX_PHASES)
        ax.set_title(phase_label(weights, phase), fontsize=8 if n <= 8 else 6)
        if n <= _ANNOTATE_MAX_PHASES:
            _annotate(ax, board_matrix(matrix[phase]), limit)
    fig.colorbar(image, ax=axes, shrink=0.8, label="weight")
    fig.suptitle(title or f"Positional weights — {weights.name or 'champion'}", fontsize=11)
    return fig


def plot_features(weights) -> Figure:
    """The scalar feature weights (mobility, potential mobility, stability, ...) of every phase."""
    n, names = weights.n_phases, list(weights.feature_names)
    fig, ax = plt.subplots(figsize=(min(14.0, max(7.0, 0.8 * n + 3)), 4), layout="constrained")
    x = np.arange(n)
    if not names:  # a positional-only genome (game.genome.features=[])
        ax.text(0.5, 0.5, "no feature weights", ha="center", va="center", transform=ax.transAxes)
    elif n <= 12:
        width = 0.8 / len(names)
        for k, name in enumerate(names):
            offset = (k - (len(names) - 1) / 2) * width
            ax.bar(x + offset, weights.features[:, k], width, label=name)
        ax.set_xticks(x, [phase_label(weights, p).replace(" (", "\n(") for p in range(n)],
                      fontsize=7)
    else:  # one bar group per move number would be unreadable: lines instead
        for k, name in enumerate(names):
            ax.plot(x, weights.features[:, k], "-o", ms=2, label=name)
        ax.set_xlabel("phase")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_ylabel("weight")
    ax.grid(axis="y", alpha=0.3)
    if names:
        ax.legend(fontsize=7, ncols=2)
    ax.set_title(f"Feature weights per phase — {weights.name or 'champion'}",
                 fontsize=10)
    return fig


def plot_weight_history(history: list[tuple[int, object]]) -> Figure:
    """How each generation's champion moved: genome distance from generation 0 and from the
    previous champion, the feature weights, and characteristic squares (first and last phase)."""
    if not history:
        raise ValueError("plot_weight_history needs at least one generation")
    generations = np.array([g for g, _ in history])
    genomes = np.array([w.to_genome() for _, w in history])
    first = history[0][1]
    phases = sorted({0, first.n_phases - 1})
    fig, axes = plt.subplots(1, 3, figsize=(16, 5.5), layout="constrained")

    axes[0].plot(generations, np.linalg.norm(genomes - genomes[0], axis=1), "-o", ms=3,
                 label=f"from generation {generations[0]}")
    steps = np.r_[0.0, np.linalg.norm(np.diff(genomes, axis=0), axis=1)]
    axes[0].plot(generations, steps, "-", lw=1, label="from previous champion")
    axes[0].set_title("Champion genome distance (L2)", fontsize=10)

    for phase, style in zip(phases, ("-", "--"), strict=False):
        features = np.array([w.features[phase] for _, w in history])
        for k, name in enumerate(history[0][1].feature_names):
            axes[1].plot(generations, features[:, k], style, color=f"C{k}",
                         label=f"{name} p{phase}")
    axes[1].set_title("Feature weights (solid: first phase, dashed: last)", fontsize=10)

    for phase, style in zip(phases, ("-", "--"), strict=False):
        for k, name in enumerate(CHARACTERISTIC_SQUARES):
            values = [w.positional[phase, square(name)] for _, w in history]
            axes[2].plot(generations, values, style, color=f"C{k}", label=f"{name} p{phase}")
    axes[2].set_title("Positional weight of characteristic squares", fontsize=10)

    for ax in axes:
        ax.set_xlabel("generation")
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:  # a positional-only genome has no feature lines
            ax.legend(fontsize=6, ncols=2, loc="upper center", bbox_to_anchor=(0.5, -0.15))
        ax.xaxis.get_major_locator().set_params(integer=True)
    return fig


def weight_figures(champion, history=None) -> dict[str, Figure]:
    """All weight figures by file stem (what ``evolve.analysis.report`` writes)."""
    figures = {"positional": plot_positional(champion), "features": plot_features(champion)}
    if history:
        figures["weight_history"] = plot_weight_history(history)
    return figures


def _board_axes(ax, small: bool) -> None:
    ax.set_xticks(range(8), list(FILES), fontsize=5 if small else 7)
    ax.set_yticks(range(8), [str(r) for r in range(1, 9)], fontsize=5 if small else 7)
    ax.tick_params(length=0)


def _annotate(ax, board: np.ndarray, limit: float) -> None:
    for rank in range(8):
        for file in range(8):
            value = board[rank, file]
            colour = "white" if abs(value) > 0.6 * limit else "black"
            ax.text(file, rank, f"{value:.2g}", ha="center", va="center", fontsize=5.5,
                    color=colour)

