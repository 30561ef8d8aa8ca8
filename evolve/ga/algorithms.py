"""The search algorithms other than the GA's breeding (``ga.algorithm``): CMA-ES (full or
separable, ``evolve.ga.cmaes``) and the natural-gradient evolution strategy (``evolve.ga.es``),
behind one small interface the study calls:

    first(first_id)                       generation 0's population
    advance(generation, fitness, next_id) tell it the generation's fitness, ask the next one
    state()                               what the checkpoint keeps of it (plain JSON)

and ``rebuilt(study, state, generation, population)`` makes it again from a checkpoint, checking
that it asks for exactly the checkpointed population.

With TD local search (``ga.local_search=td``) the population is scored after each sample has
learnt (``evolve.ga.local_search``), and the algorithm is told that fitness for its own samples
(Baldwinian: the learning shapes the search through the fitness, the distribution moves by
what it asked for; CMA-ES and the ES are only correct when told about their own samples). The
checkpointed population is then the learnt one, so the state also keeps a digest of what the
algorithm asked (``asked``), against which a rebuilt algorithm is checked instead.
"""

from __future__ import annotations

import hashlib

import numpy as np

from evolve.ga import cmaes, es
from evolve.ga.population import Population
from evolve.ga.schema import seed_genome


def digest(genomes: np.ndarray) -> str:
    """A short fingerprint of a population's genes (exact: any changed bit changes it)."""
    return hashlib.sha256(np.ascontiguousarray(genomes, dtype=np.float64).tobytes()).hexdigest()


class CmaAlgorithm:
    """CMA-ES; its state is the fitness told so far (a resumed run replays ask/tell)."""

    def __init__(self, search: cmaes.CmaSearch, told: list | None = None,
                 keeps_digest: bool = False):
        self.search, self.told = search, told if told is not None else []
        self.keeps_digest, self.last_asked = keeps_digest, None

    def first(self, first_id: int) -> Population:
        self.last_asked = self.search.ask()
        return cmaes.population_of(self.last_asked, first_id)

    def advance(self, generation: int, fitness, next_id: int) -> Population:
        self.search.tell(fitness)
        self.told.append([float(f) for f in fitness])
        self.last_asked = self.search.ask()
        return cmaes.population_of(self.last_asked, next_id)

    def state(self) -> dict:
        out = {"told": [list(f) for f in self.told]} if self.told else {}
        return {**out, "asked": digest(self.last_asked)} if self.keeps_digest else out


class EsAlgorithm:
    """The evolution strategy; its state is the centre, the Adam moments and the step."""

    def __init__(self, search: es.EvolutionStrategy, keeps_digest: bool = False):
        self.search, self.keeps_digest, self.last_asked = search, keeps_digest, None

    def first(self, first_id: int) -> Population:
        self.last_asked = self.search.ask(0)
        return es.population_of(self.last_asked, first_id)

    def advance(self, generation: int, fitness, next_id: int) -> Population:
        self.search.tell(generation, fitness)
        self.last_asked = self.search.ask(generation + 1)
        return es.population_of(self.last_asked, next_id)

    def state(self) -> dict:
        out = self.search.state()
        return {**out, "asked": digest(self.last_asked)} if self.keeps_digest else out


def new(study) -> CmaAlgorithm | EsAlgorithm:
    """A fresh algorithm for ``study`` (an ``evolve.ga.study.Study``), started at the first
    seed reference."""
    c = study.config
    refs = c.game.seed_references or study.game.seed_references
    start = seed_genome(study.game, refs[0])
    learns = c.ga.local_search != "none"
    if c.ga.algorithm == "cmaes":
        return CmaAlgorithm(cmaes.CmaSearch(c.seed, study.bounds, start, c.ga.cma_sigma0,
                                            c.ga.population, c.ga.cma_diagonal),
                            keeps_digest=learns)
    return EsAlgorithm(es.EvolutionStrategy(c.seed, study.bounds, start,
                                            es.EsSettings.of(c.ga), c.ga.population),
                       keeps_digest=learns)


def rebuilt(study, state: dict, generation: int,
            population: np.ndarray) -> CmaAlgorithm | EsAlgorithm:
    """The algorithm a checkpoint describes (``state``: its ``algorithm_state``), about to score
    ``population`` as generation ``generation``."""
    algorithm = new(study)
    if "asked" in state:  # the population learnt after it was asked: check the digest
        def asks(asked: np.ndarray) -> bool:
            return digest(asked) == state["asked"]
    else:
        def asks(asked: np.ndarray) -> bool:
            return np.array_equal(asked, population)
    if isinstance(algorithm, CmaAlgorithm):
        told = list(state.get("told", []))
        algorithm.search, algorithm.last_asked = cmaes.rebuilt(algorithm.search, told, asks)
        algorithm.told = told
        return algorithm
    algorithm.search, algorithm.last_asked = es.rebuilt(algorithm.search, state, generation, asks)
    return algorithm
