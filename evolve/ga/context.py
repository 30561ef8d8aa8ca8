"""What a study's helpers (the algorithms, local search, the yardstick, the playoff) need of it,
typed: its resolved config, where it writes, its search settings, and the two things every batch
of games starts from (the workers' context for some genomes, a generation's openings)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.game import SearchSettings
from engine.core.matches import specs
from evolve.errors import ConfigError
from evolve.ga.configuration.config import Config, ResolvedConfig
from evolve.ga.configuration.validation import openings_error
from evolve.ga.scoring.tournament import Context, openings_for


@dataclass(frozen=True)
class StudyContext:
    resolved: ResolvedConfig
    run_dir: Path

    @property
    def config(self) -> Config:
        return self.resolved.config

    @property
    def game(self):
        return self.resolved.game

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.resolved.bounds

    @property
    def panel(self) -> list[specs.Player]:
        """The yardstick's players, as the tasks carry them."""
        return list(self.resolved.panel)

    @property
    def panel_labels(self) -> list[str]:
        """The panel as the config writes it: the outputs' names for it."""
        return list(self.resolved.panel_labels)

    def label(self, player):
        """How outputs name a task's player (``ResolvedConfig.label``)."""
        return self.resolved.label(player)

    @property
    def search(self) -> SearchSettings:
        s = self.config.search
        return SearchSettings(s.depth, s.endgame_empties)

    def players(self, genomes: np.ndarray) -> Context:
        """What the workers need to play this study's games with ``genomes`` as players."""
        c = self.config
        return Context(c.game.name, c.game.settings, self.search, genomes, c.games.epsilon)

    def openings(self, key: str, generation: int, n: int) -> list:
        """``openings_for`` with a one-line error: generation 0 is checked at start, but a later
        generation's draw could still come up short when ``n`` is close to what exists."""
        g = self.config.games
        try:
            return openings_for(self.game, self.config.seed, generation, n, g.min_plies,
                                g.max_plies)
        except ValueError as exc:
            raise ConfigError(openings_error(key, n, g.min_plies, g.max_plies, exc)) from None
