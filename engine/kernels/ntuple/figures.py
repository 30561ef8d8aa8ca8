"""Figures and Markdown of an n-tuple genome, written once for every game: which tables matter
(their *spread* per phase), the strongest patterns with the entries they value most and least,
and Markdown tables. A game supplies only what is its own: how a pattern and an entry are drawn
on its board (``draw``) and how its cells and entries read in words.

A table's spread in a phase is how much its entries differ: their standard deviation
(``std``) or largest minus smallest (``range``). A table whose entries are all alike adds the
same to every position and decides nothing; one that spreads widely tells positions apart.
matplotlib is imported only when a figure is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from engine.kernels.ntuple.layout import Layout

MEASURES = {"std": np.std, "range": np.ptp}

# draw(ax, lut, states): the game draws table ``lut`` on its board in ``ax``, its cells alone
# (``states`` None) or one entry (``states``: each cell's state, in the tuple's order)
Draw = Callable[[object, int, "list[int] | None"], None]


def lut_spreads(net: np.ndarray, offsets: np.ndarray, measure: str = "std") -> np.ndarray:
    """``[phases, luts]``: the spread of every table's entries in every phase."""
    spread = MEASURES[measure]
    return np.array([[spread(row[offsets[k]:offsets[k + 1]]) for k in range(len(offsets) - 1)]
                     for row in np.atleast_2d(net)])


def instances_per_lut(layout: Layout) -> np.ndarray:
    return np.bincount([lut for lut, _ in layout.instances], minlength=len(layout.tuples))


def entry_states(layout: Layout, lut: int, index: int) -> list[int]:
    """The state of each cell of entry ``index`` of a table, in the tuple's order (first cell
    the most significant digit, each in its cell's base)."""
    states = []
    for c in reversed(layout.tuples[lut]):
        base = layout.cell_states[c]
        states.append(index % base)
        index //= base
    return states[::-1]


def strongest_luts(spread: np.ndarray, count: int) -> list[int]:
    """The ``count`` tables of largest spread in any phase, largest first (ties: lower first)."""
    return [int(k) for k in np.argsort(-spread.max(axis=0), kind="stable")[:count]]


def extreme_entries(table: np.ndarray, count: int) -> tuple[list[int], list[int]]:
    """The ``count`` highest entries of a table, highest first, and its ``count`` lowest,
    lowest first."""
    order = np.argsort(-table, kind="stable")
    return [int(i) for i in order[:count]], [int(i) for i in order[::-1][:count]]


def spread_figure(spread: np.ndarray, title: str, ylabel: str, xlabel: str,
                  labels: Sequence[str] | None = None, phase_names: Sequence[str] | None = None,
                  most: int | None = None):
    """Bars of every table's spread, one colour per phase: all tables in layout order, or the
    ``most`` largest, largest first. ``labels[k]`` names table ``k`` (default ``t{k}``)."""
    from matplotlib.figure import Figure

    phases, luts = spread.shape
    order = list(range(luts)) if most is None else strongest_luts(spread, most)
    names = [labels[k] if labels else f"t{k}" for k in order]
    long = max(len(n) for n in names) > 4
    fig = Figure(figsize=(min(14.0, max(6.0, 0.45 * len(order) + 2)), 4.5 if long else 3.6),
                 layout="constrained")
    ax = fig.add_subplot()
    width = 0.8 / phases
    for p in range(phases):
        ax.bar(np.arange(len(order)) + (p - (phases - 1) / 2) * width, spread[p, order], width,
               label=phase_names[p] if phase_names else f"phase {p}")
    ax.set_xticks(np.arange(len(order)), names, rotation=90 if long else 0,
                  fontsize=6 if long else 8)
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    ax.title.set_fontsize(9)
    ax.grid(axis="y", alpha=0.3)
    if phases > 1:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3 if long else -0.22),
                  ncol=min(phases, 3), fontsize=8)
    return fig


def network_figures(layout: Layout, net: np.ndarray, title: str, draw: Draw, legend: str,
                    cell_word: str = "cells", spread_unit: str = "") -> dict:
    """A game's ``tables`` (every table's spread per phase) and ``patterns`` (the most spread
    tables drawn by ``draw``) figures; the game adds its own (its features)."""
    spread = lut_spreads(net, layout.lut_offsets)
    unit = f" ({spread_unit})" if spread_unit else ""
    return {"tables": spread_figure(spread, f"{title}: how much each table tells positions apart",
                                    f"std of its entries{unit}",
                                    f"lookup table ({cell_word} in report.md)"),
            "patterns": patterns_figure(layout, net, spread, draw, title, legend,
                                        cell_word=cell_word)}


def patterns_figure(layout: Layout, net: np.ndarray, spread: np.ndarray, draw: Draw,
                    title: str, legend: str, top: int = 4, extremes: int = 3,
                    cell_word: str = "cells"):
    """One row per strongest table: its cells, then its ``extremes`` highest and lowest entries
    in the phase where it spreads most, each titled by its weight; ``legend`` says how the
    game draws states."""
    from matplotlib.figure import Figure

    luts = strongest_luts(spread, top)
    fig = Figure(figsize=(2.1 * (1 + 2 * extremes), 2.3 * len(luts) + 0.8),
                 layout="constrained")
    axes = fig.subplots(len(luts), 1 + 2 * extremes, squeeze=False)
    for row, lut in enumerate(luts):
        phase = int(np.argmax(spread[:, lut]))
        table = net[phase, layout.lut_offsets[lut]:layout.lut_offsets[lut + 1]]
        draw(axes[row, 0], lut, None)
        axes[row, 0].set_title(f"t{lut}: {cell_word} (phase {phase})", fontsize=8)
        highest, lowest = extreme_entries(table, extremes)
        for col, index in enumerate(highest + lowest, start=1):
            draw(axes[row, col], lut, entry_states(layout, lut, index))
            axes[row, col].set_title(f"{table[index]:+.3g}", fontsize=8)
    entries = "entry" if extremes == 1 else f"{extremes} entries"
    fig.suptitle(f"{title}: the {len(luts)} most spread tables,\nthe {cell_word} of each and its "
                 f"highest and lowest {entries}\n({legend})", fontsize=9)
    return fig


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]],
                   align: str = "") -> str:
    """A Markdown table; ``align`` has one letter per column (``l`` or ``r``; default left)."""
    rule = "|" + "".join("---:|" if a == "r" else "---|" for a in align.ljust(len(header), "l"))
    lines = ["| " + " | ".join(header) + " |", rule]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows]) + "\n"


def tables_markdown(layout: Layout, net: np.ndarray, spread: np.ndarray,
                    cells_text: Callable[[Sequence[int]], str],
                    entry_text: Callable[[Sequence[int], list[int]], str],
                    luts: Sequence[int] | None = None, phase: int = -1,
                    cell_word: str = "cells") -> str:
    """One row per table (every table, or ``luts``): its cells, instances, spread by phase, and
    its highest and lowest entry in ``phase`` (default the last) in words."""
    counts = instances_per_lut(layout)
    shown = phase % len(net)
    rows = []
    for lut in range(len(layout.tuples)) if luts is None else luts:
        cells = layout.tuples[lut]
        table = net[shown, layout.lut_offsets[lut]:layout.lut_offsets[lut + 1]]
        ends = [int(np.argmax(table)), int(np.argmin(table))]
        rows.append([f"t{lut}", cells_text(cells), str(counts[lut]),
                     " / ".join(f"{s:.3g}" for s in spread[:, lut]),
                     *(f"{table[i]:+.3g}: {entry_text(cells, entry_states(layout, lut, i))}"
                       for i in ends)])
    return markdown_table(["table", cell_word, "instances", "spread by phase",
                           f"highest entry (phase {shown})", f"lowest entry (phase {shown})"],
                          rows, "llrl")


def genome_markdown(network, genome: np.ndarray, intro: Sequence[str],
                    cells_text: Callable[[Sequence[int]], str],
                    entry_text: Callable[[Sequence[int], list[int]], str],
                    features_markdown: Callable[[np.ndarray], str],
                    cell_word: str = "cells") -> str:
    """A network genome's report section: the heading, the game's ``intro`` lines, one row per
    table (``tables_markdown``), then the feature weights as the game tabulates them
    (``features_markdown(feat)``) when the genome has any."""
    net, feat = network.split(genome)
    lines = ["### Genome: n-tuple network", "", *intro,
             tables_markdown(network.layout, net, lut_spreads(net, network.layout.lut_offsets),
                             cells_text, entry_text, cell_word=cell_word)]
    if network.features:
        lines += ["", features_markdown(feat)]
    return "\n".join(part.rstrip("\n") for part in lines) + "\n"
