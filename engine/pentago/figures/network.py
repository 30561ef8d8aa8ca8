"""Figures and Markdown of a Pentago Twist ``ntuple`` genome (``engine.kernels.ntuple.figures``
with this board): which tables matter (the standard deviation of their entries per phase) and
the most spread patterns drawn on the board with the entries they value most and least. Entries
drawn: the side to move's stones dark, the opponent's light; a table's cells numbered in digit
order, its half-turn copy shaded.
"""

from __future__ import annotations

import numpy as np

from engine.core import Champion
from engine.kernels.ntuple import figures as nf
from engine.pentago.figures.heatmaps import weights_figure

LEGEND = "dark: side to move, light: opponent"


def cells_text(cells) -> str:
    return " ".join(f"({c // 6},{c % 6})" for c in cells)


def entry_text(cells, states) -> str:
    """The stones an entry means, e.g. ``own (0,1) (0,2); opp (1,1)``."""
    own = [c for c, s in zip(cells, states, strict=True) if s == 1]
    opp = [c for c, s in zip(cells, states, strict=True) if s == 2]
    return f"own {cells_text(own) or '-'}; opp {cells_text(opp) or '-'}"


def network_figures(game, champion: Champion) -> dict:
    """``tables``: every table's spread per phase; ``patterns``: the most spread tables on the
    board with their extreme entries; with features, ``genome``: the features heatmap."""
    network = game.network
    net, feat = network.split(champion.genome)
    title = champion.name or "n-tuple genome"
    out = nf.network_figures(network.layout, net, title, _drawer(network.layout), LEGEND)
    if network.features:
        out["genome"] = weights_figure(feat, f"{title}: feature weights")
    return out


def _drawer(layout):
    def draw(ax, lut: int, states) -> None:
        from matplotlib.patches import Circle

        _board(ax)
        cells = layout.tuples[lut]
        if states is None:
            copies = {c for k, instance in layout.instances if k == lut for c in instance}
            for c in copies - set(cells):
                ax.add_patch(_square(c, "#dddddd"))
            for j, c in enumerate(cells):
                ax.add_patch(_square(c, "#f4c430"))
                ax.text(c % 6, c // 6, str(j + 1), ha="center", va="center", fontsize=7)
            return
        for c, s in zip(cells, states, strict=True):
            ax.add_patch(_square(c, "#f7e7b0"))
            if s:
                colour = "#1f2f5f" if s == 1 else "#e8e8e8"
                ax.add_patch(Circle((c % 6, c // 6), 0.38, facecolor=colour, edgecolor="k",
                                    lw=0.6))

    return draw


def _board(ax) -> None:
    ax.set_xlim(-0.5, 5.5)
    ax.set_ylim(5.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for k in range(7):
        lw = 1.6 if k in (0, 3, 6) else 0.4
        ax.axhline(k - 0.5, color="k", lw=lw)
        ax.axvline(k - 0.5, color="k", lw=lw)


def _square(cell: int, colour: str):
    from matplotlib.patches import Rectangle

    return Rectangle((cell % 6 - 0.5, cell // 6 - 0.5), 1, 1, color=colour, zorder=0)


def network_markdown(game, genome: np.ndarray) -> str:
    """The layout, then one row per table: cells, spread per phase, extreme entries."""
    network = game.network

    def features_markdown(feat: np.ndarray) -> str:
        rows = [[f"p{p}.{n}", f"{v:.4g}"] for p, row in enumerate(feat)
                for n, v in zip(network.feature_names, row, strict=True)]
        return nf.markdown_table(["feature gene", "weight"], rows)

    intro = [f"{network.layout.describe()}; {network.phases} phases (equal slices of 0..36 "
             "stones)" + ("; plus the feature weights" if network.features else "") + ".",
             "Spread: the standard deviation of a table's entries per phase (a table that "
             "spreads little hardly tells positions apart). Cells are (row, column).", ""]
    return nf.genome_markdown(network, genome, intro, cells_text, entry_text, features_markdown)
