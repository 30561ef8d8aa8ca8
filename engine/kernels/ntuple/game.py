"""What a game whose genome may be an n-tuple network adds to ``GameBase`` (a mixin, listed
before ``GameBase``): ``self.network`` is the network (``None`` for the game's other genome
kind), and the game's package holds ``figures/network.py`` with ``network_figures(game,
champion)`` and ``network_markdown(game, genome)``."""

from __future__ import annotations

from importlib import import_module

import numpy as np

from engine.core.records import Champion


class NetworkGenomeFigures:
    network_package: str  # e.g. "engine.pentago": its ``figures.network`` draws the network

    def learns_by_td(self) -> bool:
        return self.network is not None

    def genome_figures(self, champion: Champion, history=()) -> dict:
        if self.network is None:
            return super().genome_figures(champion, history)
        return self._figures_module().network_figures(self, champion)

    def genome_markdown(self, genome: np.ndarray) -> str:
        if self.network is None:
            return super().genome_markdown(genome)
        return self._figures_module().network_markdown(self, genome)

    def _figures_module(self):
        return import_module(f"{self.network_package}.figures.network")
