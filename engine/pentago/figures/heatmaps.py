"""A heatmap of a Pentago Twist genome: phases x features, own and opponent side by side."""

from __future__ import annotations

import numpy as np

from engine.pentago.genome.evaluation import FEATURES, N_FEATURES


def weights_figure(weights: np.ndarray, title: str = ""):
    """``weights``: the ``(phases, 2 * N_FEATURES)`` matrix. Returns a matplotlib Figure."""
    from matplotlib.figure import Figure

    phases = weights.shape[0]
    fig = Figure(figsize=(9, 1.2 + 0.5 * phases))
    axes = fig.subplots(1, 2, sharey=True)
    limit = float(np.abs(weights).max()) or 1.0
    for ax, side, block in zip(axes, ("own (to move)", "opponent"),
                               (weights[:, :N_FEATURES], weights[:, N_FEATURES:]), strict=True):
        image = ax.imshow(block, cmap="RdBu", vmin=-limit, vmax=limit, aspect="auto")
        ax.set_xticks(range(N_FEATURES), FEATURES, rotation=60, fontsize=8)
        ax.set_yticks(range(phases), [f"phase {p}" for p in range(phases)])
        ax.set_title(side, fontsize=9)
    fig.colorbar(image, ax=list(axes), shrink=0.8)
    if title:
        fig.suptitle(title)
    return fig
