"""Figures and Markdown of a Hexifence ``ntuple`` genome (``engine.kernels.ntuple.figures``
with this board): which tables matter (the standard deviation of their entries per phase) and
the most spread patterns drawn on the hexagon with the entries they value most and least. On the
board a pattern's inner edges are coloured, its ground nodes mark their cell's boundary edges; an
entry draws its drawn edges solid and its undrawn ones dotted, and writes a ground node's drawn
boundary edges at its cell ("2/3").
"""

from __future__ import annotations

import math

import numpy as np

from engine.core import Champion
from engine.hexifence.genome.network import nodes
from engine.hexifence.rules.board import OFFSETS, board
from engine.kernels.ntuple import figures as nf

SQRT3 = math.sqrt(3.0)
LEGEND = "solid: drawn, dotted: undrawn"


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


def network_figures(game, champion: Champion) -> dict:
    network = game.network
    net, feat = network.split(champion.genome)
    title = champion.name or "n-tuple genome"
    out = nf.network_figures(network.layout, net, title, _drawer(game.size, network.layout),
                             LEGEND, cell_word="nodes", spread_unit="cells")
    if network.features:
        out["genome"] = game.features_game().genome_figure(feat.ravel(),
                                                           f"{title}: feature weights")
    return out


def _drawer(size: int, layout):
    segments, node_of_edge = edge_segments(size), nodes(size).node_of_edge

    def draw(ax, lut: int, states) -> None:
        cells = layout.tuples[lut]
        shown = dict.fromkeys(cells) if states is None else dict(zip(cells, states, strict=True))
        _draw(ax, segments, node_of_edge, shown, layout)

    return draw


def _draw(ax, segments, node_of_edge, states: dict, layout) -> None:
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


def entry_text(size: int, cells, states) -> str:
    """The drawn nodes of an entry: ``5 6`` an inner edge, ``g(1 1) 2/3`` a ground node with two
    of its three boundary edges drawn; ``-`` when nothing is drawn."""
    names = nodes_text(size, cells).split(", ")
    states_of = nodes(size).states
    drawn = [name if states_of[n] == 2 else f"{name} {s}/{states_of[n] - 1}"
             for name, n, s in zip(names, cells, states, strict=True) if s]
    return ", ".join(drawn) or "-"


def network_markdown(game, genome: np.ndarray) -> str:
    network = game.network

    def features_markdown(feat: np.ndarray) -> str:
        rows = [[str(p), *(f"{v:.3g}" for v in row)] for p, row in enumerate(feat)]
        return nf.markdown_table(["phase", *network.feature_names], rows,
                                 "l" + "r" * len(network.feature_names))

    intro = [f"{network.layout.describe()} on the N={game.size} board; {network.phases} phases "
             "(equal slices of the edges drawn)" + ("; plus the feature weights"
                                                    if network.features
                                                    else "; value = margin + network") + ".",
             "Nodes: an inner edge by its grid point, `g(row col)` the ground node of the cell "
             "centred there (its boundary edges drawn). Spread: the standard deviation of a "
             "table's entries per phase.", ""]
    return nf.genome_markdown(network, genome, intro, lambda cells: nodes_text(game.size, cells),
                              lambda cells, states: entry_text(game.size, cells, states),
                              features_markdown, cell_word="nodes")
