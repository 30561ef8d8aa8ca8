"""The search algorithms other than the GA's breeding (``ga.algorithm``): CMA-ES (full or
separable, ``evolve.ga.cmaes``) and the natural-gradient evolution strategy (``evolve.ga.es``),
behind one small interface the study calls:

    first(first_id)                       generation 0's population
    advance(generation, fitness, next_id) tell it the generation's fitness, ask the next one
    state()                               what the checkpoint keeps of it (plain JSON)

and ``rebuilt(study, state, generation, population)`` makes it again from a checkpoint, checking
that it asks for exactly the checkpointed population.
"""

from __future__ import annotations

import numpy as np

from evolve.ga import cmaes, es
from evolve.ga.population import Population
from evolve.ga.schema import seed_genome


class CmaAlgorithm:
    """CMA-ES; its state is the fitness told so far (a resumed run replays ask/tell)."""

    def __init__(self, search: cmaes.CmaSearch, told: list | None = None):
        self.search, self.told = search, told if told is not None else []

    def first(self, first_id: int) -> Population:
        return cmaes.population_of(self.search.ask(), first_id)

    def advance(self, generation: int, fitness, next_id: int) -> Population:
        self.search.tell(fitness)
        self.told.append([float(f) for f in fitness])
        return cmaes.population_of(self.search.ask(), next_id)

    def state(self) -> dict:
        return {"told": [list(f) for f in self.told]} if self.told else {}


class EsAlgorithm:
    """The evolution strategy; its state is the centre, the Adam moments and the step."""

    def __init__(self, search: es.EvolutionStrategy):
        self.search = search

    def first(self, first_id: int) -> Population:
        return es.population_of(self.search.ask(0), first_id)

    def advance(self, generation: int, fitness, next_id: int) -> Population:
        self.search.tell(generation, fitness)
        return es.population_of(self.search.ask(generation + 1), next_id)

    def state(self) -> dict:
        return self.search.state()


def new(study) -> CmaAlgorithm | EsAlgorithm:
    """A fresh algorithm for ``study`` (an ``evolve.ga.study.Study``), started at the first
    seed reference."""
    c = study.config
    refs = c.game.seed_references or study.game.seed_references
    start = seed_genome(study.game, refs[0])
    if c.ga.algorithm == "cmaes":
        return CmaAlgorithm(cmaes.CmaSearch(c.seed, study.bounds, start, c.ga.cma_sigma0,
                                            c.ga.population, c.ga.cma_diagonal))
    return EsAlgorithm(es.EvolutionStrategy(c.seed, study.bounds, start,
                                            es.EsSettings.of(c.ga), c.ga.population))


def rebuilt(study, state: dict, generation: int,
            population: np.ndarray) -> CmaAlgorithm | EsAlgorithm:
    """The algorithm a checkpoint describes (``state``: its ``algorithm_state``), about to score
    ``population`` as generation ``generation``."""
    algorithm = new(study)
    if isinstance(algorithm, CmaAlgorithm):
        told = list(state.get("told", []))
        return CmaAlgorithm(cmaes.rebuilt(algorithm.search, told, population), told)
    return EsAlgorithm(es.rebuilt(algorithm.search, state, generation, population))
