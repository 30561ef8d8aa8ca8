"""The yardstick: every generation's champion against the fixed panel and the hall of fame's
newest members, and what those games say (``evolve.ga.progress``): its score per panel agent,
its Elo against the panel, its score against the hall of fame, whether it joins.
"""

from __future__ import annotations

import numpy as np

from evolve.ga.progress import (
    Member,
    anchors_for,
    champion_rating,
    counts_by_opponent,
    hall_of_fame_score,
    joins,
)
from evolve.ga.tournament import YARDSTICK_GENERATION_OFFSET, yardstick_scores, yardstick_tasks


def submit(study, backend, report, hall_of_fame: list[Member]):
    """Submit the yardstick games of ``report``'s champion (``study``: an
    ``evolve.ga.study.Study``); the members' genomes follow the population's in the batch's
    context. None without a panel."""
    if not study.panel:
        return None
    c, g, pop = study.config, report.generation, report.population
    members = anchors_for(hall_of_fame, g, c.yardstick.hall_of_fame_size)
    genomes = np.vstack([pop.genomes, *[np.array(m.genome)[None, :] for m in members]])
    indices = [len(pop) + k for k in range(len(members))]
    report.anchor_labels = {i: f"hof_gen{m.generation:04d}"
                            for i, m in zip(indices, members, strict=True)}
    ctx = study.context(genomes)
    openings = study.openings("yardstick.openings", YARDSTICK_GENERATION_OFFSET + g,
                              c.yardstick.openings)
    tasks = yardstick_tasks(report.champion_index, [*study.panel, *indices], openings, c.seed, g)
    return tasks, backend.submit(ctx, tasks)


def collect(study, report, tasks, future):
    """Wait for the yardstick games and put what they say into ``report``."""
    results = future.result()
    report.yardstick = yardstick_scores(study.panel, report.champion_index, tasks, results)
    report.yardstick_games = list(zip(tasks, results, strict=True))
    counts = counts_by_opponent(report.champion_index, tasks, results)
    report.champion_elo = champion_rating(counts)
    report.hall_of_fame_score = hall_of_fame_score(counts)
    report.joins_hall_of_fame = joins(report.generation,
                                      study.config.yardstick.hall_of_fame_every, counts)
    return report
