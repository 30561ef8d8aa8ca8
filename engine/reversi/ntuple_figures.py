"""Figures and Markdown of an n-tuple network (``NtupleWeights``): which tables matter, their
strongest patterns drawn on the board, and the square table the network implies.

- ``lut_spread``: per phase, each LUT's spread (largest - smallest entry), the most important
  tables first: a table whose entries are all alike changes no decision;
- ``patterns``: for the tables of largest spread, the best and the worst entry drawn on a board
  (black disc: the side to move's, white disc: the opponent's, hatched: an empty square of the
  tuple), with their weights;
- ``square_values``: the network's value of a lone disc per square (``square_values``), drawn
  like the square-table genome's heat maps, so both kinds compare at a glance;
- ``features`` (when the genome has feature groups) and ``weight_history`` as for square tables.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Rectangle

from engine.reversi.heatmaps import (
    FILES,
    board_matrix,
    phase_label,
    plot_features,
    plot_positional,
    plot_weight_history,
)
from engine.reversi.position import SQUARE_NAMES

TOP_PATTERNS = 6  # tables drawn per phase
MAX_PHASES_DRAWN = 3  # first, middle and last phase when there are more
MAX_BARS = 40


def lut_spreads(w) -> np.ndarray:
    """``(n_phases, n_luts)``: largest minus smallest entry of every LUT."""
    lo, hi = w.layout.lut_offsets[:-1], w.layout.lut_offsets[1:]
    return np.array([[row[a:b].max() - row[a:b].min() for a, b in zip(lo, hi, strict=True)]
                     for row in w.weights])


def tuple_label(w, lut: int) -> str:
    return " ".join(SQUARE_NAMES[c] for c in w.layout.tuples[lut])


def entry_states(n: int, index: int) -> list[int]:
    """The cell states (0 empty, 1 own, 2 opponent) of LUT entry ``index``, first cell first."""
    return [(index // 3 ** (n - 1 - j)) % 3 for j in range(n)]


def extreme_entries(w, phase: int, lut: int) -> tuple[int, int]:
    """(best, worst) entry of a LUT in a phase."""
    a, b = w.layout.lut_offsets[lut], w.layout.lut_offsets[lut + 1]
    row = w.weights[phase, a:b]
    return int(np.argmax(row)), int(np.argmin(row))


def shown_phases(n: int) -> list[int]:
    return list(range(n)) if n <= MAX_PHASES_DRAWN else sorted({0, n // 2, n - 1})


def plot_lut_spread(w) -> Figure:
    spreads = lut_spreads(w)
    order = np.argsort(-spreads.max(axis=0))[:MAX_BARS]
    fig, ax = plt.subplots(figsize=(min(14.0, 3 + 0.3 * len(order)), 4.5), layout="constrained")
    width = 0.8 / w.n_phases
    for p in range(w.n_phases):
        offset = (p - (w.n_phases - 1) / 2) * width
        ax.bar(np.arange(len(order)) + offset, spreads[p, order], width, label=phase_label(w, p))
    ax.set_xticks(np.arange(len(order)), [f"t{k}: {tuple_label(w, k)}" for k in order],
                  rotation=90, fontsize=6)
    ax.set_ylabel("spread (largest - smallest entry)")
    ax.set_xlabel("table (t<k>: its squares, in the order of its digits)", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    if w.n_phases > 1:
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.35), ncols=3)
    shown = "" if len(order) == spreads.shape[1] else f", the {len(order)} largest"
    ax.set_title(f"Table spread per phase{shown} — {w.name or 'champion'} "
                 f"({w.layout.describe()})", fontsize=9)
    return fig


def _draw_entry(ax, w, lut: int, index: int, title: str) -> None:
    cells = w.layout.tuples[lut]
    ax.add_patch(Rectangle((-0.5, -0.5), 8, 8, facecolor="#2e7d32", alpha=0.25))
    for cell, state in zip(cells, entry_states(len(cells), index), strict=True):
        rank, file = divmod(cell, 8)
        ax.add_patch(Rectangle((file - 0.5, rank - 0.5), 1, 1, facecolor="#a5d6a7",
                               edgecolor="black", hatch="//" if state == 0 else None, lw=0.6))
        if state:
            ax.add_patch(Circle((file, rank), 0.38, facecolor="black" if state == 1 else "white",
                                edgecolor="black", lw=0.8))
    ax.set_xlim(-0.5, 7.5)
    ax.set_ylim(-0.5, 7.5)
    ax.set_aspect("equal")
    ax.set_xticks(range(8), list(FILES), fontsize=5)
    ax.set_yticks(range(8), [str(r) for r in range(1, 9)], fontsize=5)
    ax.tick_params(length=0)
    ax.set_title(title, fontsize=7)


def plot_strongest_patterns(w, count: int = TOP_PATTERNS) -> Figure:
    """Per shown phase, the ``count`` tables of largest spread: their best entry (top row)
    and worst entry (bottom row) on the board; black = side to move, white = opponent."""
    phases = shown_phases(w.n_phases)
    count = min(count, len(w.layout.tuples))
    fig, axes = plt.subplots(2 * len(phases), count, squeeze=False, layout="constrained",
                             figsize=(max(6.0, 1.75 * count + 0.4), 4.0 * len(phases) + 0.8))
    spreads = lut_spreads(w)
    for row, p in enumerate(phases):
        for col, lut in enumerate(np.argsort(-spreads[p])[:count]):
            best, worst = extreme_entries(w, p, int(lut))
            a = w.layout.lut_offsets[lut]
            for k, (index, what) in enumerate(((best, "best"), (worst, "worst"))):
                _draw_entry(axes[2 * row + k, col], w, int(lut), index,
                            f"p{p} t{lut} {what} {w.weights[p, a + index]:+.3g}")
    fig.suptitle(f"Strongest patterns — {w.name or 'champion'}\nbest (upper) and worst (lower) "
                 "entry of each table\nblack: side to move, white: opponent, hatched: empty",
                 fontsize=9)
    return fig


def plot_square_values(w) -> Figure:
    return plot_positional(w, positional=w.square_values(),
                           title=f"Square values the network implies — {w.name or 'champion'}")


class _SquareView:
    """A network seen as square tables (its ``square_values``), for the weight history."""

    def __init__(self, w):
        self.positional, self.features = w.square_values(), w.features
        self.feature_names, self.n_phases = w.feature_names, w.n_phases
        self.to_genome = w.to_genome


def network_figures(w, history=None) -> dict[str, Figure]:
    """All figures of a network by file stem (what ``evolve.report`` writes)."""
    figures = {"lut_spread": plot_lut_spread(w), "patterns": plot_strongest_patterns(w),
               "square_values": plot_square_values(w)}
    if w.feature_names:
        figures["features"] = plot_features(w)
    if history:
        fig = plot_weight_history([(g, _SquareView(past)) for g, past in history])
        fig.axes[2].set_title("Implied value of characteristic squares", fontsize=10)
        if not w.feature_names:
            fig.axes[1].text(0.5, 0.5, "no feature weights (game.genome.features=[])",
                             ha="center", va="center", transform=fig.axes[1].transAxes)
        fig.suptitle("Champions' networks by generation: distance, feature weights, implied "
                     "square values", fontsize=11)
        figures["weight_history"] = fig
    return figures


def _pattern_text(w, lut: int, index: int) -> str:
    states = entry_states(len(w.layout.tuples[lut]), index)
    marks = {0: "-", 1: "own", 2: "opp"}
    return ", ".join(f"{SQUARE_NAMES[c]} {marks[s]}"
                     for c, s in zip(w.layout.tuples[lut], states, strict=True))


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows]) + "\n"


def network_markdown(w, top: int = 10) -> str:
    """The layout, the tables of largest spread per phase with their best and worst pattern,
    the feature weights and the implied square values of the first and last phase."""
    parts = [f"### Network\n\n{w.layout.describe()}; {w.n_phases} phase(s)\n"]
    spreads = lut_spreads(w)
    for p in shown_phases(w.n_phases):
        rows = []
        for lut in np.argsort(-spreads[p])[:top]:
            best, worst = extreme_entries(w, p, int(lut))
            a = w.layout.lut_offsets[lut]
            rows.append([f"t{lut}", tuple_label(w, int(lut)), f"{spreads[p, lut]:.3g}",
                         _pattern_text(w, int(lut), best), f"{w.weights[p, a + best]:+.3g}",
                         _pattern_text(w, int(lut), worst), f"{w.weights[p, a + worst]:+.3g}"])
        parts += [f"### Tables of largest spread, {phase_label(w, p)}\n",
                  _table(["table", "squares", "spread", "best", "weight", "worst", "weight"],
                         rows)]
    if w.feature_names:
        rows = [[str(p), "{}-{}".format(*w.phase_discs(p)), *(f"{v:.4g}" for v in w.features[p])]
                for p in range(w.n_phases)]
        parts += ["### Feature weights per phase\n",
                  _table(["phase", "discs", *w.feature_names], rows)]
    values = w.square_values()
    for p in sorted({0, w.n_phases - 1}):
        board = board_matrix(values[p])
        rows = [[str(r + 1), *(f"{v:.3g}" for v in board[r])] for r in range(7, -1, -1)]
        parts += [f"### Square values the network implies, {phase_label(w, p)}\n",
                  _table(["", *FILES], rows)]
    return "\n".join(parts)
