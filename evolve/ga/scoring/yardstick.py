"""The yardstick: every generation's champion against the fixed panel and the hall of fame's
newest members, and what those games say (``evolve.ga.scoring.progress``): its score per panel
agent, its Elo against the panel, its score against the hall of fame, whether it joins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from evolve.ga.context import StudyContext
from evolve.ga.run_files.hooks import GenerationReport
from evolve.ga.scoring.progress import (
    Member,
    anchors_for,
    champion_rating,
    counts_by_opponent,
    hall_of_fame_score,
    joins,
)
from evolve.ga.scoring.tournament import (
    YARDSTICK_GENERATION_OFFSET,
    yardstick_scores,
    yardstick_tasks,
)


@dataclass(frozen=True)
class YardstickGames:
    """A champion's submitted yardstick games and the labels of the hall of fame members among
    its opponents (their genome index -> ``hof_genXXXX``)."""

    tasks: list
    future: object  # the backend's future of the games' results
    anchor_labels: dict


def submit(ctx: StudyContext, backend, report: GenerationReport,
           hall_of_fame: list[Member]) -> YardstickGames | None:
    """Submit the yardstick games of ``report``'s champion; the members' genomes follow the
    population's in the batch's context; a panel champion travels as the ``Champion`` loaded
    when the config was resolved. None without a panel."""
    panel = ctx.panel
    if not panel:
        return None
    c, g, pop = ctx.config, report.generation, report.population
    members = anchors_for(hall_of_fame, g, c.yardstick.hall_of_fame_size)
    genomes = np.vstack([pop.genomes, *[np.array(m.genome)[None, :] for m in members]])
    indices = [len(pop) + k for k in range(len(members))]
    labels = {i: f"hof_gen{m.generation:04d}" for i, m in zip(indices, members, strict=True)}
    openings = ctx.openings("yardstick.openings", YARDSTICK_GENERATION_OFFSET + g,
                            c.yardstick.openings)
    tasks = yardstick_tasks(report.champion_index, [*panel, *indices], openings, c.seed, g)
    return YardstickGames(tasks, backend.submit(ctx.players(genomes), tasks), labels)


def collect(ctx: StudyContext, report: GenerationReport,
            games: YardstickGames) -> GenerationReport:
    """Wait for the yardstick ``games``: ``report`` with what they say."""
    tasks, results = games.tasks, games.future.result()
    counts = counts_by_opponent(report.champion_index, tasks, results, ctx.label)
    return replace(
        report,
        yardstick=yardstick_scores(ctx.panel, report.champion_index, tasks, results, ctx.label),
        yardstick_games=list(zip(tasks, results, strict=True)),
        champion_elo=champion_rating(counts),
        hall_of_fame_score=hall_of_fame_score(counts),
        joins_hall_of_fame=joins(report.generation, ctx.config.yardstick.hall_of_fame_every,
                                 counts),
        anchor_labels=games.anchor_labels)
