"""Learning from search behind the game contract (the ``labels`` capability; a mixin of
``ReversiGame``): positions sampled from varied play (``engine.reversi.labels.sampling``),
labelled by the exact solver and alpha-beta search (``engine.reversi.labels.labelling``), and
the game's network genome fitted to them (``engine.reversi.labels.fitting``)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from engine.core import Seed
from engine.core.records import Champion


class ReversiLabels:
    label_cells = 64  # the squares, a1 = 0 (the network layouts' cells)

    def sample_positions(self, count: int, seed: Seed, champion: Champion | None,
                         options: Mapping) -> dict[str, np.ndarray]:
        from engine.reversi.labels.sampling import sample_positions

        return sample_positions(self, count, seed, champion, options)

    def label_positions(self, cells: np.ndarray, ply: np.ndarray, champion: Champion | None,
                        depth: int, exact_empties: int) -> dict[str, np.ndarray]:
        from engine.reversi.labels.labelling import label_positions

        return label_positions(self, cells, ply, champion, depth, exact_empties)

    def fit_network(self, columns: Mapping[str, np.ndarray], options: Mapping
                    ) -> tuple[np.ndarray, dict]:
        from engine.reversi.labels.fitting import fit_network

        return fit_network(self, columns, options)
