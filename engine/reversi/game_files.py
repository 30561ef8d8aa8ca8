"""Reversi's champion files behind the contract, and what is made of a champion (a mixin of
``ReversiGame``, which gives ``variant``, ``kind``, ``weights`` and ``model``): saving (JSON, or
its ``.npz`` twin), reading any Reversi weights or network file, projecting a file into other
genome settings, the course exports and the figures of a genome."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from engine.core.champions.files import as_champion
from engine.core.records import Champion, ChampionFileError
from engine.reversi.export.comp90054 import COMP90054_EXPORT
from engine.reversi.export.cs303 import CS303_EXPORT
from engine.reversi.files import save_evaluation, save_npz_evaluation


class ReversiFiles:
    def save_champion(self, path, genome, name: str = "", metadata: Mapping | None = None) -> None:
        """The JSON champion file, or at a path ending in ``.npz`` its binary twin (what
        ``load_champion`` tells apart by the suffix; for networks of millions of weights)."""
        meta = {"variant": self.variant.value, "game_name": self.name, **(metadata or {})}
        weights = self.weights(genome, name, meta)
        if str(path).lower().endswith(".npz"):
            save_npz_evaluation(weights, path)
        else:
            save_evaluation(weights, path)

    def projected_genome(self, path) -> np.ndarray:
        """A champion file as a genome of these settings with its values (one line naming what
        does not fit): with an ``ntuple`` genome, a network whose tuples this layout holds (its
        tables copied) or a square table (spread over the tuples), phases and features as
        ``exact_network`` allows; otherwise a file of these very genome settings."""
        try:
            champion = self.load_champion(path)
        except (ChampionFileError, OSError) as exc:
            raise ValueError(str(exc).splitlines()[0]) from None
        source = champion.evaluation
        if source.variant not in (None, self.variant.value):
            raise ValueError(f"{path}: a {source.variant} evaluation, this game is "
                             f"{self.variant.value}")
        if self.kind != "ntuple":  # square tables: only a file of these very settings
            theirs = champion.settings.get("genome")
            if self.with_settings({"genome": theirs}).settings()["genome"] != \
                    self.settings()["genome"]:
                raise ValueError(f"{path}: made with other genome settings ({theirs}); give "
                                 "the file's settings")
            return self.fitted_genome(champion)
        try:
            return self.model().projected(source)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None

    def read_champion(self, document) -> Champion:
        """Any Reversi weights or network file (``engine.reversi.files``), its evaluation kept
        as read."""
        from engine.reversi.files import read_champion

        return read_champion(document, self.name)

    def export(self, champion, fmt: str, out, **options) -> None:
        """``options``: ``depth`` / ``endgame_empties`` of a fixed-depth CS303 agent; those and
        the time and team options of the COMP90054 agent (``engine.reversi.export.comp90054``)."""
        from engine.reversi.export.formats import export_weights

        if fmt == COMP90054_EXPORT.name:
            from engine.reversi.export.comp90054 import export_comp90054

            export_comp90054(as_champion(champion, self), out, **options)
            return
        if options and fmt != CS303_EXPORT.name:
            raise ValueError(f"--format {fmt} takes no options (got {', '.join(options)})")
        export_weights(as_champion(champion, self).evaluation, fmt, out, **options)

    def genome_figures(self, champion: Champion, history=()) -> dict:
        """Heatmaps, feature weights and (given the champions' history) weight history; for a
        network its patterns instead (``engine.reversi.figures.network``)."""
        weights = self.weights(champion.genome, champion.name, champion.metadata)
        past = [(g, self.weights(c.genome, c.name)) for g, c in history]
        return self.model().figures(weights, past)

    def genome_markdown(self, genome) -> str:
        return self.model().markdown(self.weights(genome))

    def genome_figure(self, genome, title: str = ""):
        fig = self.model().figure(self.weights(genome, title))
        if title:
            fig.suptitle(title)
        return fig
