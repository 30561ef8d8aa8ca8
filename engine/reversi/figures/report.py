"""A Reversi champion's weights as Markdown tables (what ``evolve.report`` writes in report.md)."""

from __future__ import annotations

import numpy as np

from engine.reversi.figures.heatmaps import FILES, board_matrix, phase_label

MAX_MARKDOWN_PHASES = 4  # more phases: first, middle and last matrix in text (figure has all)


def weights_markdown(weights) -> str:
    feature_rows = [[str(p), "{}-{}".format(*weights.phase_discs(p)),
                     *map(_fmt, weights.features[p])] for p in range(weights.n_phases)]
    parts = ["### Feature weights per phase\n",
             _table(["phase", "discs", *weights.feature_names], feature_rows)]
    for p in _phases_to_print(weights.n_phases):
        board = board_matrix(weights.positional[p])
        rows = [[str(rank + 1), *map(_fmt, board[rank])] for rank in range(7, -1, -1)]
        parts += [f"### Positional weights, {phase_label(weights, p)}\n",
                  _table(["", *FILES], rows)]
    return "\n".join(parts)


def _phases_to_print(n: int) -> list[int]:
    return list(range(n)) if n <= MAX_MARKDOWN_PHASES else sorted({0, n // 2, n - 1})


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _fmt(value) -> str:
    if isinstance(value, int | np.integer):
        return str(int(value))
    return f"{float(value):.4g}"
