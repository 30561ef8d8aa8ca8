"""The search algorithms (``ga.algorithm``): the GA's breeding (``evolve.ga.population``),
CMA-ES (full or separable, ``evolve.ga.cmaes``) and the natural-gradient evolution strategy
(``evolve.ga.es``), behind one small interface the study calls:

    first(first_id)                                   generation 0's population
    advance(generation, population, fitness, next_id) tell it the scored population's fitness,
                                                      ask the next one
    state()                                           what the checkpoint keeps (plain JSON)
    new_per_generation                                the ids a generation's new individuals take

``new(ctx, rng)`` makes one for a fresh run and ``resumed(ctx, rng, state, generation,
population)`` makes it again from a checkpoint (CMA-ES and the ES checking that they ask for
exactly the checkpointed population). The GA draws from the study's generator (``rng``, which
the checkpoint keeps with the population), the others from streams of their own.

With TD local search (``ga.local_search=td``) the population is scored after each sample has
learnt (``evolve.ga.local_search``), and the algorithm is told that fitness for its own samples
(Baldwinian: the learning shapes the search through the fitness, the distribution moves by
what it asked for; CMA-ES and the ES are only correct when told about their own samples). The
checkpointed population is then the learnt one, so the state also keeps a digest of what the
algorithm asked (``asked``), against which a rebuilt algorithm is checked instead.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Protocol, runtime_checkable

import numpy as np

from evolve.ga import cmaes, es
from evolve.ga import operators as ops
from evolve.ga.configuration.schema import seed_genome
from evolve.ga.context import StudyContext
from evolve.ga.population import Population, breed, initial_population


def digest(genomes: np.ndarray) -> str:
    """A short fingerprint of a population's genes (exact: any changed bit changes it)."""
    return hashlib.sha256(np.ascontiguousarray(genomes, dtype=np.float64).tobytes()).hexdigest()


@runtime_checkable
class Algorithm(Protocol):
    """What the study asks of a search algorithm (see the module docstring)."""

    new_per_generation: int

    def first(self, first_id: int) -> Population: ...

    def advance(self, generation: int, population: Population, fitness,
                next_id: int) -> Population: ...

    def state(self) -> dict: ...


class GaAlgorithm:
    """The GA: seeded and random individuals, then each generation the elites and children
    bred from the scored population. It keeps nothing but the study's generator, so its
    ``state()`` is empty."""

    def __init__(self, ctx: StudyContext, rng: np.random.Generator):
        self.ctx, self.rng, self.ga = ctx, rng, ctx.config.ga
        self.blocks = list(ctx.resolved.spec.blocks.values())
        self.new_per_generation = self.ga.population - self.ga.elites  # the elites keep theirs

    def first(self, first_id: int) -> Population:
        ga, game = self.ga, self.ctx.game
        genomes = {r: seed_genome(game, r) for r in self.ctx.resolved.seed_references}
        pop = initial_population(ga.population, genomes, self.ctx.bounds, self.rng,
                                 ga.seeded_fraction, ga.seed_noise, ga.random_scope)
        return replace(pop, ids=pop.ids + first_id) if first_id else pop

    def advance(self, generation: int, population: Population, fitness,
                next_id: int) -> Population:
        bounds = self.ctx.bounds
        return breed(population, fitness, self.rng, self.ga, bounds, self.blocks, generation,
                     next_id, ops.diversity(population.genomes, bounds))

    def state(self) -> dict:
        return {}


class CmaAlgorithm:
    """CMA-ES; its state is the fitness told so far (a resumed run replays ask/tell)."""

    def __init__(self, search: cmaes.CmaSearch, population: int, told: list | None = None,
                 keeps_digest: bool = False):
        self.search, self.told = search, told if told is not None else []
        self.keeps_digest, self.last_asked = keeps_digest, None
        self.new_per_generation = population

    def first(self, first_id: int) -> Population:
        self.last_asked = self.search.ask()
        return cmaes.population_of(self.last_asked, first_id)

    def advance(self, generation: int, population: Population, fitness,
                next_id: int) -> Population:
        self.search.tell(fitness)
        self.told.append([float(f) for f in fitness])
        self.last_asked = self.search.ask()
        return cmaes.population_of(self.last_asked, next_id)

    def state(self) -> dict:
        out = {"told": [list(f) for f in self.told]} if self.told else {}
        return {**out, "asked": digest(self.last_asked)} if self.keeps_digest else out


class EsAlgorithm:
    """The evolution strategy; its state is the centre, the Adam moments and the step."""

    def __init__(self, search: es.EvolutionStrategy, population: int,
                 keeps_digest: bool = False):
        self.search, self.keeps_digest, self.last_asked = search, keeps_digest, None
        self.new_per_generation = population

    def first(self, first_id: int) -> Population:
        self.last_asked = self.search.ask(0)
        return es.population_of(self.last_asked, first_id)

    def advance(self, generation: int, population: Population, fitness,
                next_id: int) -> Population:
        self.search.tell(generation, fitness)
        self.last_asked = self.search.ask(generation + 1)
        return es.population_of(self.last_asked, next_id)

    def state(self) -> dict:
        out = self.search.state()
        return {**out, "asked": digest(self.last_asked)} if self.keeps_digest else out


def new(ctx: StudyContext, rng: np.random.Generator) -> Algorithm:
    """A fresh algorithm for the study ``ctx``; CMA-ES and the ES start at the first seed
    reference."""
    c = ctx.config
    if c.ga.algorithm == "ga":
        return GaAlgorithm(ctx, rng)
    start = seed_genome(ctx.game, ctx.resolved.seed_references[0])
    learns = c.ga.local_search != "none"
    if c.ga.algorithm == "cmaes":
        return CmaAlgorithm(cmaes.CmaSearch(c.seed, ctx.bounds, start, c.ga.cma_sigma0,
                                            c.ga.population, c.ga.cma_diagonal),
                            c.ga.population, keeps_digest=learns)
    return EsAlgorithm(es.EvolutionStrategy(c.seed, ctx.bounds, start,
                                            es.EsSettings.of(c.ga), c.ga.population),
                       c.ga.population, keeps_digest=learns)


def resumed(ctx: StudyContext, rng: np.random.Generator, state: dict, generation: int,
            population: np.ndarray) -> Algorithm:
    """The algorithm a checkpoint describes (``state``: its ``algorithm_state``, ``rng``: its
    generator), about to score ``population`` as generation ``generation``."""
    algorithm = new(ctx, rng)
    if isinstance(algorithm, GaAlgorithm):
        return algorithm
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
