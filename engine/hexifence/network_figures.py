"""Figures and Markdown of a Hexifence ``ntuple`` genome: which tables matter (the spread of
their weights per phase) and the most important patterns drawn on the hexagon, with the
entries they value most and least.

A table's *spread* in a phase is the standard deviation of its entries (a table whose entries
are alike decides nothing). On the board a pattern's inner edges are coloured, its ground nodes
mark their cell's boundary edges; an entry draws its drawn edges solid and its undrawn ones
dotted, and writes a ground node's drawn boundary edges at its cell ("2/3").
"""

from __future__ import annotations

import math

import numpy as np

from engine.core import Champion
from engine.hexifence.board import OFFSETS, board
from engine.hexifence.network import nodes

TOP_TABLES = 4
EXTREMES = 3
SQRT3 = math.sqrt(3.0)


def spreads(net: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """``[phases, luts]``: the standard deviation of each table's entries."""
    return np.array([[row[offsets[k]:offsets[k + 1]].std() for k in range(len(offsets) - 1)]
                     for row in net])


def _centre(r: int, c: int) -> tuple[float, float]:
    return c - r / 2.0, -r * SQRT3 / 2.0


def edge_segments(size: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Each edge's two end points: the side of its (first) cell facing the offset's neighbour."""
    b = board(size)
    out = [None] * b.n_edges
    for cell, (r, c) in enumerate(b.cells):
        x, y = _centre(r, c)
        for j, (dr, dc) in enumerate(OFFSETS):
            e = int(b.cell_edges[cell, j])
            if out[e] is None:
                nx, ny = _centre(r + dr, c + dc)
                dx, dy = nx - x, ny - y  # unit vector towards the neighbour
                px, py = -dy / SQRT3 / 2, dx / SQRT3 / 2
                mx, my = x + dx / 2, y + dy / 2
                out[e] = ((mx - px, my - py), (mx + px, my + py))
    return out


def entry_states(layout, cells, index: int) -> list[int]:
    """The state of each node of an entry (mixed bases, first node most significant)."""
    states = []
    for c in reversed(cells):
        base = layout.cell_states[c]
        states.append(index % base)
        index //= base
    return states[::-1]


def network_figures(game, champion: Champion) -> dict:
    network = game.network
    net, feat = network.split(champion.genome)
    title = champion.name or "n-tuple genome"
    out = {"tables": _spread_figure(net, network.layout.lut_offsets, title),
           "patterns": _patterns_figure(game.size, network.layout, net, title)}
    if network.features:
        out["genome"] = game.features_game().genome_figure(feat.ravel(),
                                                           f"{title}: feature weights")
    return out


def _spread_figure(net: np.ndarray, offsets: np.ndarray, title: str):
    from matplotlib.figure import Figure

    spread = spreads(net, offsets)
    luts = spread.shape[1]
    fig = Figure(figsize=(max(6.0, 0.5 * luts + 2), 3.6))
    ax = fig.add_subplot()
    width = 0.8 / len(spread)
    for p, row in enumerate(spread):
        ax.bar(np.arange(luts) + p * width, row, width, label=f"phase {p}")
    ax.set_xticks(np.arange(luts) + 0.4 - width / 2, [f"t{k}" for k in range(luts)])
    ax.set(xlabel="lookup table (nodes in report.md)", ylabel="std of its entries (cells)",
           title=f"{title}: how much each table tells positions apart")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=len(spread), fontsize=8)
    fig.tight_layout()
    return fig


def _patterns_figure(size: int, layout, net: np.ndarray, title: str):
    from matplotlib.figure import Figure

    spread = spreads(net, layout.lut_offsets)
    top = np.argsort(-spread.max(axis=0), kind="stable")[:TOP_TABLES]
    fig = Figure(figsize=(2.3 * (1 + 2 * EXTREMES), 2.4 * len(top) + 0.6))
    axes = fig.subplots(len(top), 1 + 2 * EXTREMES, squeeze=False)
    segments, node_of_edge = edge_segments(size), nodes(size).node_of_edge
    for row, lut in enumerate(top):
        cells = layout.tuples[lut]
        phase = int(np.argmax(spread[:, lut]))
        table = net[phase, layout.lut_offsets[lut]:layout.lut_offsets[lut + 1]]
        _draw(axes[row, 0], segments, node_of_edge, {n: None for n in cells},
              f"t{lut}: nodes (phase {phase})", layout)
        order = np.argsort(-table, kind="stable")
        for col, index in enumerate(list(order[:EXTREMES]) + list(order[::-1][:EXTREMES]), 1):
            states = dict(zip(cells, entry_states(layout, cells, int(index)), strict=True))
            _draw(axes[row, col], segments, node_of_edge, states, f"{table[index]:+.3f}",
                  layout)
    fig.suptitle(f"{title}: the {len(top)} most spread tables; their {EXTREMES} highest and "
                 "lowest entries (solid: drawn, dotted: undrawn)", fontsize=10)
    fig.tight_layout()
    return fig


def _draw(ax, segments, node_of_edge, states: dict, title: str, layout) -> None:
    """The board's edges in grey; the pattern's nodes coloured, or as an entry's states."""
    for e, ((x0, y0), (x1, y1)) in enumerate(segments):
        node = int(node_of_edge[e])
        if node not in states:
            ax.plot([x0, x1], [y0, y1], color="#cccccc", lw=0.6)
        elif states[node] is None:
            ax.plot([x0, x1], [y0, y1], color="#d08000", lw=2.2)
        elif layout.cell_states[node] == 2:
            ax.plot([x0, x1], [y0, y1], color="k", lw=2.2, ls="-" if states[node] else ":")
        else:
            ax.plot([x0, x1], [y0, y1], color="#2060c0", lw=1.6, ls="--")
    ground = {}
    for e, node in enumerate(node_of_edge):
        if layout.cell_states[node] > 2 and node in states and states[node] is not None:
            ground.setdefault(int(node), []).append(segments[e])
    for node, segs in ground.items():
        x = np.mean([p[0] for seg in segs for p in seg])
        y = np.mean([p[1] for seg in segs for p in seg])
        ax.text(x, y, f"{states[node]}/{layout.cell_states[node] - 1}", fontsize=7,
                ha="center", va="center", color="#2060c0")
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, fontsize=8)


def nodes_text(size: int, cells) -> str:
    """Nodes as course edge points: ``5 6`` for an inner edge, ``g(1,2)`` for a ground node."""
    b, node_of_edge = board(size), nodes(size).node_of_edge
    parts = []
    for n in cells:
        edges = [e for e in range(b.n_edges) if node_of_edge[e] == n]
        if len(edges) == 1 and b.edge_cells[edges[0], 1] >= 0:
            parts.append("{} {}".format(*b.edges[edges[0]]))
        else:
            r, c = b.cells[int(b.edge_cells[edges[0], 0])]
            parts.append(f"g({2 * r + 1} {2 * c + 1})")
    return ", ".join(parts)


def network_markdown(game, genome: np.ndarray) -> str:
    network = game.network
    layout = network.layout
    net, feat = network.split(genome)
    spread = spreads(net, layout.lut_offsets)
    counts = np.bincount([lut for lut, _ in layout.instances], minlength=len(layout.tuples))
    lines = ["### Genome: n-tuple network", "",
             f"{layout.describe()} on the N={game.size} board; {network.phases} phases (equal "
             "slices of the edges drawn)" + ("; plus the feature weights" if network.features
                                              else "; value = margin + network") + ".",
             "Nodes: an inner edge by its grid point, `g(row col)` the ground node of the cell "
             "centred there (its boundary edges drawn). Spread: the standard deviation of a "
             "table's entries per phase.", "",
             "| table | nodes | instances | spread by phase | highest (last phase) | "
             "lowest (last phase) |", "|---|---|---:|---|---:|---:|"]
    for lut, cells in enumerate(layout.tuples):
        table = net[-1, layout.lut_offsets[lut]:layout.lut_offsets[lut + 1]]
        lines.append(f"| t{lut} | {nodes_text(game.size, cells)} | {counts[lut]} | "
                     + " / ".join(f"{s:.3g}" for s in spread[:, lut])
                     + f" | {table.max():+.3g} | {table.min():+.3g} |")
    if network.features:
        from engine.hexifence.structure import FEATURES

        lines += ["", "| phase | " + " | ".join(FEATURES) + " |",
                  "|---|" + "---:|" * len(FEATURES)]
        lines += [f"| {p} | " + " | ".join(f"{v:.3g}" for v in row) + " |"
                  for p, row in enumerate(feat)]
    return "\n".join(lines) + "\n"
