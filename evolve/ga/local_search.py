"""Local search by TD (``ga.local_search=td``): before a population is scored, each learner
plays ``ga.td_games`` games of temporal-difference self-play (the game's ``td_learn``, with
``ga.td_alpha`` and ``ga.td_epsilon``), and its learnt genome, clipped to the gene bounds as
every child is, replaces it in the population: with the GA what it learnt is inherited
(Lamarckian; coevolution + TD, Szubert, Jaśkowski & Krawiec). With CMA-ES or the ES it is
Baldwinian: they are told the learnt genomes' fitness for the samples they drew
(``evolve.ga.algorithms``). The learners: every individual (``ga.td_learners=all``), or the
elites alone (``elites``: the individuals the GA copied unchanged; generation 0 has none).

Each learner is one task on the execution layer, seeded from ``SeedSequence([seed, generation,
TD_STREAM, index])``, so Ray spreads the learning over its workers and the learnt population
is the same whatever the backend or the number of workers. The checkpoint holds the learnt
population, so a resumed run never learns twice.
"""

from __future__ import annotations

import numpy as np

from evolve.execution.learning import LearnTask, TdContext
from evolve.ga import operators as ops
from evolve.ga.context import StudyContext
from evolve.ga.population import Population

TD_STREAM = 1 << 27  # the seed slot of local search (never a pairing index)


def learners(pop: Population, who: str) -> list[int]:
    """Indices of the individuals that learn: all, or those the GA copied as elites."""
    if who == "all":
        return list(range(len(pop)))
    return [i for i, operator in enumerate(pop.operator) if operator == "elite"]


def learn_tasks(indices: list[int], seed: int, generation: int) -> list[LearnTask]:
    return [LearnTask(k, i, (seed, generation, TD_STREAM, i)) for k, i in enumerate(indices)]


def learn(ctx: StudyContext, backend, pop: Population, generation: int) -> Population:
    """``pop`` after the local search of generation ``generation`` of the study ``ctx``;
    ``pop`` itself when there is none or nobody learns."""
    c = ctx.config
    if c.ga.local_search != "td":
        return pop
    who = learners(pop, c.ga.td_learners)
    if not who:
        return pop
    context = TdContext(c.game.name, c.game.settings, pop.genomes, c.ga.td_games, c.ga.td_alpha,
                        c.ga.td_epsilon)
    results = backend.submit(context, learn_tasks(who, c.seed, generation)).result()
    genomes, operator = pop.genomes.copy(), list(pop.operator)
    for i, result in zip(who, results, strict=True):
        genomes[i] = ops.clip(checked(result.genome, genomes[i], c.game.name), ctx.bounds)
        operator[i] = f"{operator[i]}+td"
    return Population(genomes, pop.ids, pop.parent_a, pop.parent_b, operator)


def checked(learnt: np.ndarray, before: np.ndarray, game: str) -> np.ndarray:
    """A learnt genome the GA can use: the same length, finite (else the game's ``td_learn``
    has a bug, and the run stops saying so)."""
    if learnt.shape != before.shape or not np.all(np.isfinite(learnt)):
        raise ValueError(f"{game}: td_learn returned a genome of shape {learnt.shape} with "
                         f"{int(np.sum(~np.isfinite(learnt)))} non-finite genes; expected "
                         f"{before.shape[0]} finite genes")
    return learnt
