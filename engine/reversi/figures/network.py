"""Figures and Markdown of an n-tuple network (``NtupleWeights``): which tables matter, their
strongest patterns drawn on the board, and the square table the network implies
(``engine.kernels.ntuple.figures`` with this board).

- ``lut_spread``: per phase, each LUT's spread (largest - smallest entry), the most important
  tables first: a table whose entries are all alike changes no decision;
- ``patterns``: the tables of largest spread, their squares (numbered in digit order, their
  symmetric copies shaded), then their best and worst entry in the phase where they spread most
  (black disc: the side to move's, white disc: the opponent's, hatched: an empty square of the
  tuple), with their weights;
- ``square_values``: the network's value of a lone disc per square (``square_values``), drawn
  like the square-table genome's heat maps, so both kinds compare at a glance;
- ``features`` (when the genome has feature groups) and ``weight_history`` as for square tables.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from engine.kernels.ntuple import figures as nf
from engine.reversi.figures.heatmaps import (
    FILES,
    board_matrix,
    phase_label,
    plot_features,
    plot_positional,
    plot_weight_history,
)
from engine.reversi.rules.state import SQUARE_NAMES

TOP_PATTERNS = 6  # tables drawn
MAX_PHASES_DRAWN = 3  # first, middle and last phase in the Markdown when there are more
MAX_BARS = 40
LEGEND = "black: side to move, white: opponent, hatched: empty"
MARKS = {0: "-", 1: "own", 2: "opp"}


def lut_spreads(w) -> np.ndarray:
    """``(n_phases, n_luts)``: largest minus smallest entry of every LUT."""
    return nf.lut_spreads(w.weights, w.layout.lut_offsets, "range")


def squares_text(cells) -> str:
    return " ".join(SQUARE_NAMES[c] for c in cells)


def entry_text(cells, states) -> str:
    """``a1 own, b1 opp, c1 -``: each square of an entry with its state."""
    return ", ".join(f"{SQUARE_NAMES[c]} {MARKS[s]}" for c, s in zip(cells, states, strict=True))


def shown_phases(n: int) -> list[int]:
    return list(range(n)) if n <= MAX_PHASES_DRAWN else sorted({0, n // 2, n - 1})


def plot_lut_spread(w) -> Figure:
    spreads = lut_spreads(w)
    shown = "" if spreads.shape[1] <= MAX_BARS else f", the {MAX_BARS} largest"
    labels = [f"t{k}: {squares_text(cells)}" for k, cells in enumerate(w.layout.tuples)]
    return nf.spread_figure(
        spreads, f"Table spread per phase{shown} — {w.name or 'champion'} "
        f"({w.layout.describe()})", "spread (largest - smallest entry)",
        "table (t<k>: its squares, in the order of its digits)", labels,
        [phase_label(w, p) for p in range(w.n_phases)], most=MAX_BARS)


def plot_strongest_patterns(w, count: int = TOP_PATTERNS) -> Figure:
    """The ``count`` tables of largest spread: their squares, best and worst entry."""
    return nf.patterns_figure(w.layout, w.weights, lut_spreads(w), _drawer(w.layout),
                              f"Strongest patterns — {w.name or 'champion'}", LEGEND,
                              top=count, extremes=1, cell_word="squares")


def _drawer(layout):
    def draw(ax, lut: int, states) -> None:
        from matplotlib.patches import Circle, Rectangle

        cells = layout.tuples[lut]
        ax.add_patch(Rectangle((-0.5, -0.5), 8, 8, facecolor="#2e7d32", alpha=0.25))
        if states is None:
            copies = {c for k, image in layout.instances if k == lut for c in image}
            for c in copies - set(cells):
                ax.add_patch(Rectangle((c % 8 - 0.5, c // 8 - 0.5), 1, 1, facecolor="#c8e6c9",
                                       edgecolor="black", lw=0.3))
        for j, cell in enumerate(cells):
            rank, file = divmod(cell, 8)
            hatch = "//" if states is not None and states[j] == 0 else None
            ax.add_patch(Rectangle((file - 0.5, rank - 0.5), 1, 1, facecolor="#a5d6a7",
                                   edgecolor="black", hatch=hatch, lw=0.6))
            if states is None:
                ax.text(file, rank, str(j + 1), ha="center", va="center", fontsize=6)
            elif states[j]:
                ax.add_patch(Circle((file, rank), 0.38, edgecolor="black", lw=0.8,
                                    facecolor="black" if states[j] == 1 else "white"))
        ax.set_xlim(-0.5, 7.5)
        ax.set_ylim(-0.5, 7.5)
        ax.set_aspect("equal")
        ax.set_xticks(range(8), list(FILES), fontsize=5)
        ax.set_yticks(range(8), [str(r) for r in range(1, 9)], fontsize=5)
        ax.tick_params(length=0)

    return draw


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


def network_markdown(w, top: int = 10) -> str:
    """The layout, the tables of largest spread per shown phase with their best and worst
    pattern, the feature weights and the implied square values of the first and last phase."""
    parts = [f"### Network\n\n{w.layout.describe()}; {w.n_phases} phase(s)\n"]
    spreads = lut_spreads(w)
    for p in shown_phases(w.n_phases):
        luts = [int(k) for k in np.argsort(-spreads[p], kind="stable")[:top]]
        parts += [f"### Tables of largest spread, {phase_label(w, p)}\n",
                  nf.tables_markdown(w.layout, w.weights, spreads, squares_text, entry_text,
                                     luts, p, cell_word="squares")]
    if w.feature_names:
        rows = [[str(p), "{}-{}".format(*w.phase_discs(p)), *(f"{v:.4g}" for v in w.features[p])]
                for p in range(w.n_phases)]
        parts += ["### Feature weights per phase\n",
                  nf.markdown_table(["phase", "discs", *w.feature_names], rows)]
    values = w.square_values()
    for p in sorted({0, w.n_phases - 1}):
        board = board_matrix(values[p])
        rows = [[str(r + 1), *(f"{v:.3g}" for v in board[r])] for r in range(7, -1, -1)]
        parts += [f"### Square values the network implies, {phase_label(w, p)}\n",
                  nf.markdown_table(["", *FILES], rows)]
    return "\n".join(parts)
