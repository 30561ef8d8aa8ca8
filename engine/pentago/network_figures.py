"""Figures and Markdown of a Pentago Twist ``ntuple`` genome: which tables matter (the spread
of their weights per phase) and the most important patterns drawn on the board, with the
entries they value most and least.

A table's *spread* in a phase is the standard deviation of its entries: a table whose entries
are all alike adds the same to every position and decides nothing, one that spreads widely
tells positions apart. Entries drawn: the side to move's stones dark, the opponent's light.
"""

from __future__ import annotations

import numpy as np

from engine.core import Champion
from engine.pentago.figures import weights_figure

TOP_TABLES = 4  # tables drawn
EXTREMES = 3  # highest and lowest entries drawn per table


def spreads(net: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """``[phases, luts]``: the standard deviation of each table's entries."""
    return np.array([[row[offsets[k]:offsets[k + 1]].std() for k in range(len(offsets) - 1)]
                     for row in net])


def cells_text(cells) -> str:
    return " ".join(f"({c // 6},{c % 6})" for c in cells)


def entry_text(cells, index: int) -> str:
    """The stones an entry means, e.g. ``own (0,1) (0,2); opp (1,1)``."""
    digits = np.base_repr(index, 3).zfill(len(cells))
    own = [c for c, d in zip(cells, digits, strict=True) if d == "1"]
    opp = [c for c, d in zip(cells, digits, strict=True) if d == "2"]
    return f"own {cells_text(own) or '-'}; opp {cells_text(opp) or '-'}"


def network_figures(game, champion: Champion) -> dict:
    """``tables``: every table's spread per phase; ``patterns``: the most spread tables on the
    board with their extreme entries; with features, ``genome``: the features heatmap."""
    network = game.network
    net, feat = network.split(champion.genome)
    title = champion.name or "n-tuple genome"
    out = {"tables": spread_figure(network, net, title),
           "patterns": patterns_figure(network, net, title)}
    if network.features:
        out["genome"] = weights_figure(feat, f"{title}: feature weights")
    return out


def spread_figure(network, net: np.ndarray, title: str):
    from matplotlib.figure import Figure

    spread = spreads(net, network.layout.lut_offsets)
    luts = spread.shape[1]
    fig = Figure(figsize=(max(6.0, 0.45 * luts + 2), 3.6))
    ax = fig.add_subplot()
    width = 0.8 / len(spread)
    for p, row in enumerate(spread):
        ax.bar(np.arange(luts) + p * width, row, width, label=f"phase {p}")
    ax.set_xticks(np.arange(luts) + 0.4 - width / 2, [f"t{k}" for k in range(luts)],
                  fontsize=8)
    ax.set(xlabel="lookup table (cells in report.md)", ylabel="std of its entries",
           title=f"{title}: how much each table tells positions apart")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=len(spread), fontsize=8)
    fig.tight_layout()
    return fig


def patterns_figure(network, net: np.ndarray, title: str):
    """One row per important table: its cells (digit order numbered, the half turn's copy
    shaded), then its highest and lowest entries in the phase where it spreads most."""
    from matplotlib.figure import Figure

    layout = network.layout
    spread = spreads(net, layout.lut_offsets)
    top = np.argsort(-spread.max(axis=0), kind="stable")[:TOP_TABLES]
    fig = Figure(figsize=(2 * (1 + 2 * EXTREMES), 2.2 * len(top) + 0.6))
    axes = fig.subplots(len(top), 1 + 2 * EXTREMES, squeeze=False)
    for row, lut in enumerate(top):
        cells = layout.tuples[lut]
        phase = int(np.argmax(spread[:, lut]))
        table = net[phase, layout.lut_offsets[lut]:layout.lut_offsets[lut + 1]]
        _board(axes[row, 0], f"t{lut}: cells (phase {phase})")
        copies = {c for k, instance in layout.instances if k == lut for c in instance}
        copies -= set(cells)
        for c in copies:
            axes[row, 0].add_patch(_square(c, "#dddddd"))
        for j, c in enumerate(cells):
            axes[row, 0].add_patch(_square(c, "#f4c430"))
            axes[row, 0].text(c % 6, c // 6, str(j + 1), ha="center", va="center", fontsize=7)
        order = np.argsort(-table, kind="stable")
        picks = list(order[:EXTREMES]) + list(order[::-1][:EXTREMES])
        for col, index in enumerate(picks, start=1):
            _entry(axes[row, col], cells, int(index), f"{table[index]:+.3f}")
    fig.suptitle(f"{title}: the {len(top)} most spread tables; their {EXTREMES} highest and "
                 f"lowest entries (dark: side to move, light: opponent)", fontsize=10)
    fig.tight_layout()
    return fig


def _board(ax, title: str) -> None:
    ax.set_xlim(-0.5, 5.5)
    ax.set_ylim(5.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for k in range(7):
        lw = 1.6 if k in (0, 3, 6) else 0.4
        ax.axhline(k - 0.5, color="k", lw=lw)
        ax.axvline(k - 0.5, color="k", lw=lw)
    ax.set_title(title, fontsize=8)


def _square(cell: int, colour: str):
    from matplotlib.patches import Rectangle

    return Rectangle((cell % 6 - 0.5, cell // 6 - 0.5), 1, 1, color=colour, zorder=0)


def _entry(ax, cells, index: int, title: str) -> None:
    from matplotlib.patches import Circle

    _board(ax, title)
    digits = np.base_repr(index, 3).zfill(len(cells))
    for c, d in zip(cells, digits, strict=True):
        ax.add_patch(_square(c, "#f7e7b0"))
        if d != "0":
            colour = "#1f2f5f" if d == "1" else "#e8e8e8"
            ax.add_patch(Circle((c % 6, c // 6), 0.38, facecolor=colour, edgecolor="k", lw=0.6))


def network_markdown(game, genome: np.ndarray) -> str:
    """The layout, then one row per table: cells, spread per phase, extreme entries."""
    network = game.network
    layout = network.layout
    net, feat = network.split(genome)
    spread = spreads(net, layout.lut_offsets)
    counts = np.bincount([lut for lut, _ in layout.instances], minlength=len(layout.tuples))
    lines = ["### Genome: n-tuple network", "",
             f"{layout.describe()}; {network.phases} phases (equal slices of 0..36 stones)"
             + ("; plus the feature weights" if network.features else "") + ".",
             "Spread: the standard deviation of a table's entries per phase (a table that "
             "spreads little hardly tells positions apart). Cells are (row, column).", "",
             "| table | cells | instances | spread by phase | highest entry (last phase) | "
             "lowest entry (last phase) |", "|---|---|---:|---|---|---|"]
    for lut, cells in enumerate(layout.tuples):
        table = net[-1, layout.lut_offsets[lut]:layout.lut_offsets[lut + 1]]
        hi, lo = int(np.argmax(table)), int(np.argmin(table))
        lines.append(f"| t{lut} | {cells_text(cells)} | {counts[lut]} | "
                     + " / ".join(f"{s:.3g}" for s in spread[:, lut])
                     + f" | {table[hi]:+.3g}: {entry_text(cells, hi)} | "
                       f"{table[lo]:+.3g}: {entry_text(cells, lo)} |")
    if network.features:
        from engine.pentago import genome as genes

        names = genes.gene_names(network.phases)
        lines += ["", "| feature gene | weight |", "|---|---|"]
        lines += [f"| {n} | {v:.4g} |" for n, v in zip(names, feat.ravel(), strict=True)]
    return "\n".join(lines) + "\n"
